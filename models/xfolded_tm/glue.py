"""The numbers the chapter's pages quote (glued), computed from the chapter's tables and unit-tested.

:func:`glue_values` (the delay page and the chapter page: the claims' numbers),
:func:`glue_values_errors` (the delay figure's lightest load),
:func:`glue_values_topology` (the topology page), :func:`glue_values_sources`
(each set-up's source, in words) and :func:`glue_values_precision` (a figure's
run lengths and precision, :func:`precision_sentence`).  Each returns
``key -> value`` with keys ``xfolded_tm-...``; a notebook only glues what they return.  Where a
sentence is a fixed template around numbers, the numbers are glued and the
sentence is written in the page's Markdown (``{glue:text}``); the phrases
whose wording the data chooses (``"below TM and the torus at every rate"``
or the rates where it is not, the throughput per VC count) are built here.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core import precision as _precision
from ..core.claims import furthest_from_one, row_outcome, worst_of
from ..core.setups import SimSettings
from ..core.tables import percent
from ..networks.grid2d import mesh, tm, torus, xfolded_tm
from .claims import CLAIMS, ERROR_GROUPS, GROUP_LABELS, SIMILAR_FACTOR, error_text, rank_text, setups_in, similar, tri
from .experiments import THEOREM_SOURCE
from .setups import DEFAULT_SETUP, SETUPS

__all__ = ["CHAPTER", "glue_values", "glue_values_errors", "glue_values_topology", "glue_values_sources",
           "glue_values_precision", "precision_sentence", "SOURCE_WORDS"]

#: The chapter's slug, the prefix of its glue keys.
CHAPTER = "xfolded_tm"


def _key(name: str) -> str:
    return f"{CHAPTER}-{name}"


def _ratio_text(row) -> str:
    return (f"{row['saturation (V low)']:.2f} → {row['saturation (V high)']:.2f} flits/node/cycle "
            f"({row['ratio high/low']:.2f}x)")


def _span(frame: pd.DataFrame) -> str:
    """The range of ``frame``'s ``ratio high/low``: ``"1.70x to 1.82x"`` (``"n/a"`` for no row)."""
    return f"{frame['ratio high/low'].min():.2f}x to {frame['ratio high/low'].max():.2f}x" if len(frame) else "n/a"


def glue_values(validation: pd.DataFrame, vc: pd.DataFrame, ranking: pd.DataFrame | None = None,
                outperform: pd.DataFrame | None = None) -> dict:
    """The values the delay page and the chapter page glue (key -> value), all computed from the chapter's tables.

    Keys (each prefixed ``xfolded_tm-``):

    * ``worst-<group>-m<M>-<setup>`` (the worst |error| at 25, 50 and 75 % of the
      simulated saturation over the group's networks and both VC counts, or
      ``not runnable``) and ``satratio-<group>-m<M>-<setup>`` (model /
      simulated saturation, furthest from 1);
    * ``zeroload-<setup>-m<M>`` (the model's zero-load error against the
      set-up, on the torus);
    * ``vcsat-<source>-<network>-m<M>`` (saturation at the fewest and most
      VCs; source ``model`` or ``sim-<setup>``; network ``xfolded_thm1``:
      Theorem 1 as printed);
    * what the numbers say about "similar saturation in different numbers of
      VCs": ``vc-low`` and ``vc-high`` (the fewest and most VCs, ints),
      ``vc-factor`` (the factor of the criterion ``similar-factor``) and per
      message length ``vc-model-span-m<M>``, ``vc-thm-span-m<M>``,
      ``vc-sim-span-m<M>`` (the range of the saturation ratios of the model
      with BFS distances, with Theorem 1 as printed, and of the simulation on
      every set-up: ``"1.70x to 1.82x"``), ``vc-ratios-m<M>`` (how many
      ratios, an int) and ``vc-notsimilar-m<M>`` (how many are not "similar"
      by the criterion over their bisection brackets, an int);
    * ``lowest-<reading>-<setup>`` (``model-curves`` for the model; reading
      ``thm1`` for the paper's model): whether x-Folded TM is below TM and the
      torus beyond the noise at every rate;
    * the paper's 5% (cases on the set-ups that stand for the paper or the
      model): ``within5-hits`` of ``within5-cases`` (ints) are within it, the
      closest is ``within5-closest`` (``within5-closest-case``);
    * with ``outperform`` (:func:`~models.xfolded_tm.experiments.outperform_table`)
      ``outperform-sentence``: the completed reading's simulated saturation
      against TM's and the torus's on the ``model`` set-up, per node and over
      all nodes, per VC count.
    """
    out = {}
    for M in sorted(int(m) for m in validation["M"].unique()):
        for group, keys in ERROR_GROUPS.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            for s in setups_in(g):
                run = g[(g["setup"] == s) & g["runnable"]]
                tail = f"{group}-m{M}-{s}"
                out[_key(f"worst-{tail}")] = error_text(worst_of(run["worst |err| below 80%"])) \
                    if len(run) else "not runnable"
                r = furthest_from_one(run["saturation ratio"]) if len(run) else math.nan
                out[_key(f"satratio-{tail}")] = f"{r:.2f}" if math.isfinite(r) else "not runnable"
    tor = validation[(validation["key"] == "torus") & validation["runnable"]]
    for (s, M), g in tor.groupby(["setup", "M"], sort=False):
        out[_key(f"zeroload-{s}-m{int(M)}")] = f"{100 * float(g['zero-load err'].iloc[0]):+.0f} %"
    for _, r in vc[np.isfinite(vc["ratio high/low"].to_numpy(dtype=float))].iterrows():
        src = "model" if r["setup"] == "-" else f"sim-{r['setup']}"
        out[_key(f"vcsat-{src}-{r['key']}-m{int(r['M'])}")] = _ratio_text(r)
    if len(vc):
        out[_key("vc-low")], out[_key("vc-high")] = int(vc["V low"].iloc[0]), int(vc["V high"].iloc[0])
        out[_key("vc-factor")] = f"{SIMILAR_FACTOR}"
    for M, g in vc.groupby("M", sort=False):
        g = g[np.isfinite(g["ratio high/low"].to_numpy(dtype=float))]
        out[_key(f"vc-model-span-m{int(M)}")] = _span(g[g["source"] == "model"])
        out[_key(f"vc-thm-span-m{int(M)}")] = _span(g[g["source"] == THEOREM_SOURCE])
        out[_key(f"vc-sim-span-m{int(M)}")] = _span(g[g["source"] == "simulation"])
        out[_key(f"vc-ratios-m{int(M)}")] = int(len(g))
        lo = g["ratio lo"] if "ratio lo" in g else g["ratio high/low"]
        hi = g["ratio hi"] if "ratio hi" in g else g["ratio high/low"]
        out[_key(f"vc-notsimilar-m{int(M)}")] = sum(similar(a, b) is False for a, b in zip(lo, hi))
    if ranking is not None and len(ranking):
        for (reading, setup), g in ranking.groupby(["reading", "setup"], sort=False):
            if setup == "-" and str(g["source"].iloc[0]).startswith("sim"):
                continue
            out[_key(f"lowest-{reading}-{setup if setup != '-' else 'model-curves'}")] = (
                "below TM and the torus beyond the noise at every rate"
                if all(tri(x) is True for x in g["lower beyond noise"])
                else f"not below both beyond the noise at every rate ({rank_text(g)} rates)")
    if outperform is not None and len(outperform):
        g = outperform[(outperform["measure"] == "throughput") & (outperform["reading"] == "completed")]
        g = g[g["setup"] == DEFAULT_SETUP] if (g["setup"] == DEFAULT_SETUP).any() else g
        if len(g):
            by_v = []
            for V, h in g.groupby("V", sort=True):
                by_v.append(f"with {int(V)} VCs {h['ratio'].min():.2f}x to {h['ratio'].max():.2f}x per node "
                            f"({int(h['beyond the brackets'].astype(bool).sum())} of {len(h)} message lengths beyond "
                            f"the bisection brackets) and {h['aggregate ratio'].min():.2f}x to "
                            f"{h['aggregate ratio'].max():.2f}x over all nodes")
            out[_key("outperform-sentence")] = (
                f"On '{g['setup'].iloc[0]}' the completed reading's simulated saturation rate is, against the better "
                f"of TM and the torus, " + "; ".join(by_v))
    acc = validation[validation["runnable"] & validation["setup"].map(lambda s: SETUPS[s].decides)]
    cases = []
    for (s, M), g in acc.groupby(["setup", "M"], sort=False):
        for group, keys in ERROR_GROUPS.items():
            w = worst_of(g.loc[g["key"].isin(keys), "worst |err| below 80%"])
            if not math.isnan(w):
                cases.append((w, f"{GROUP_LABELS[group]}, M = {int(M)}, '{s}'"))
    if cases:
        t = CLAIMS["within-5pct"].threshold
        best = min(cases)
        out[_key("within5-hits")] = sum(row_outcome("error", worst_err=w, threshold=t) == "pass" for w, _ in cases)
        out[_key("within5-cases")] = len(cases)
        out[_key("within5-closest")] = error_text(best[0])
        out[_key("within5-closest-case")] = best[1]
    return out


def glue_values_errors(points: pd.DataFrame) -> dict:
    """The delay figure's errors at its lightest load, glued on the delay page (key -> value).

    ``points`` is the first table of :func:`~models.xfolded_tm.experiments.error_tables`.  Keys:
    ``xfolded_tm-low-rate`` (the lowest injection rate with a comparable
    point, flits/node/cycle, a float) and ``xfolded_tm-low-err-<set-up>``
    (the range of the signed relative errors there over the networks and VC
    counts: ``"+1.2 % to +3.4 %"``).
    """
    low_rate = points["injection"].min()
    low = points[points["injection"] == low_rate]
    out = {_key("low-rate"): float(low_rate)}
    for s, g in low.groupby("setup"):
        out[_key(f"low-err-{s}")] = f"{100 * g['rel. error'].min():+.1f} % to {100 * g['rel. error'].max():+.1f} %"
    return out


def glue_values_topology(distances: pd.DataFrame) -> dict:
    """The topology page's numbers (key -> value).

    ``xfolded_tm-fit-error-16``: the node-count error of Proposition 1's fit
    at ``k = 16`` (nodes, unsigned; NaN when ``distances``,
    :func:`~models.xfolded_tm.topology.distance_table`, has no ``k = 16``);
    ``xfolded_tm-ad-<network>-8`` the whole-network BFS average distances
    (hops) of the 8x8 mesh, torus, TM and both readings of the x-Folded TM,
    and ``xfolded_tm-ad-torus-7`` of the 7x7 torus;
    ``xfolded_tm-diam-completed-8`` the diameter and ``xfolded_tm-nodes-8``
    the node count of the 8x8 x-Folded TM.
    """
    fit = distances.loc[distances["k"] == 16, "node fit error"]
    return {
        _key("fit-error-16"): float(abs(fit.iloc[0])) if len(fit) else float("nan"),
        _key("ad-mesh-8"): mesh(8).average_distance(),
        _key("ad-torus-8"): torus(8).average_distance(),
        _key("ad-torus-7"): torus(7).average_distance(),
        _key("ad-tm-8"): tm(8).average_distance(),
        _key("ad-printed-8"): xfolded_tm(8, "printed").average_distance(),
        _key("ad-completed-8"): xfolded_tm(8, "completed").average_distance(),
        _key("diam-completed-8"): xfolded_tm(8, "completed").diameter(),
        _key("nodes-8"): xfolded_tm(8, "printed").n_nodes,
    }


# ----------------------------------------------------------------------------
# The set-ups' sources; a figure's run lengths and precision
# ----------------------------------------------------------------------------
#: A simulator source (``traffic`` of :func:`models.sim.wormhole.simulate`) in words.
SOURCE_WORDS = {
    "poisson": "Poisson sources (messages generated at exponentially distributed intervals)",
    "bernoulli": "Bernoulli sources (BookSim's `injection_process = bernoulli`: each node generates one message "
                 "in a cycle with probability equal to the load, in messages/node/cycle)",
}


def glue_values_sources() -> dict:
    """``xfolded_tm-source-<set-up>``: the source each set-up of :data:`~models.xfolded_tm.setups.SETUPS` simulates
    (its ``traffic`` knob), in the words of :data:`SOURCE_WORDS`."""
    return {_key(f"source-{name}"): SOURCE_WORDS[su.overrides["traffic"]] for name, su in SETUPS.items()}


def precision_sentence(settings: SimSettings, runs) -> str:
    """:func:`models.core.precision.precision_sentence` of the simulated points of ``runs`` (CurveRuns of
    ``settings``): the delay's precision."""
    return _precision.precision_sentence(settings, *_precision.measured([r.sim for r in runs]), quantity="delay")


def glue_values_precision(settings: SimSettings, runs, name: str) -> dict:
    """``xfolded_tm-precision-<name>``: :func:`precision_sentence` of the figure ``name``'s ``runs``."""
    return {_key(f"precision-{name}"): precision_sentence(settings, runs)}
