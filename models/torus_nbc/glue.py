"""The numbers and sentences the chapter's pages glue (``glue_values*``), computed from the tables and unit-tested.

A notebook glues what these return (``myst_nb.glue``) and its Markdown
quotes them with ``{glue:text}``; where a sentence is a fixed template
around numbers, the numbers are glued and the sentence is the page's own.
The sentences built here are those whose wording the data chooses: how many
curves or set-ups a clause is repeated for, which side of the simulation
the model is on, which routing is fastest where, what an axis fits.

* :doc:`01-derivation`: :func:`glue_values_cdg` (the deadlock check);
* :doc:`02-latency`: :func:`glue_values` (:func:`worst_text`,
  :func:`gap_sentence`, :func:`axis_sentence`) and
  :func:`glue_values_variance` (:func:`variance_sentence`);
* :doc:`03-routing-comparison`: :func:`glue_values_routing`
  (:func:`routing_sentence`, :func:`fastest_sentence`);
* both simulating pages: :func:`glue_values_precision` (:func:`precision_sentence`: a figure's run lengths and
  precision).

The tables are :mod:`models.torus_nbc.experiments`'.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core import precision as _precision
from ..core.claims import worst_of
from ..core.setups import SimSettings
from ..core.tables import percent
from .experiments import (ROUTINGS, SATURATED_FROM, WORST, WORST_FINITE, cdg_table, routing_verdicts, value_range,
                          worst_gap_row)

__all__ = ["glue_values", "glue_values_cdg", "glue_values_variance", "glue_values_routing", "worst_text",
           "gap_sentence", "axis_sentence", "variance_sentence", "routing_sentence", "fastest_sentence",
           "glue_values_precision", "precision_sentence"]


def _sentence(parts) -> str:
    text = "; ".join(parts) + "."
    return text[:1].upper() + text[1:]


# ----------------------------------------------------------------------------
# 01-derivation
# ----------------------------------------------------------------------------
def glue_values_cdg(cdg: pd.DataFrame) -> dict:
    """The numbers :doc:`01-derivation` glues from the deadlock check
    (:func:`~models.torus_nbc.experiments.cdg_table`), by key.

    ``cdg-all-acyclic`` (``"yes"``, or ``"NO"`` if one graph has a cycle);
    ``cdg8-escape`` and ``cdg8-deps``: escape VCs and their dependencies on
    8x8 (checked here when ``cdg`` has no 8x8 row).
    """
    row8 = cdg[cdg["k"] == 8]
    row8 = row8.iloc[0] if len(row8) else cdg_table([8]).iloc[0]
    return {"torus_nbc-cdg-all-acyclic": "yes" if cdg["acyclic"].astype(bool).all() else "NO",
            "torus_nbc-cdg8-escape": int(row8["escape_vcs"]),
            "torus_nbc-cdg8-deps": int(row8["dependencies"])}


# ----------------------------------------------------------------------------
# 02-latency
# ----------------------------------------------------------------------------
def glue_values(errors: pd.DataFrame, gaps: pd.DataFrame | None = None,
                axes: pd.DataFrame | None = None) -> dict:
    """The numbers and sentences :doc:`02-latency` glues, by key (``torus_nbc-...``), all computed here.

    ``worst-<setup>`` (:func:`worst_text`), ``satratio-<setup>`` (the range of
    model / simulated saturation ratios over the curves), ``model-first-<setup>``
    (on how many curves the model saturates before the simulation),
    ``gap-split`` (:func:`gap_sentence`), ``axes`` (:func:`axis_sentence`).
    """
    out = {}
    for setup, e in errors.groupby("setup", sort=False):
        out[f"torus_nbc-worst-{setup}"] = worst_text(errors, setup)
        out[f"torus_nbc-satratio-{setup}"] = value_range(e["saturation ratio"], ".2f")
        first = int((e["saturation ratio"] < 1).sum())
        n = int(np.isfinite(e["saturation ratio"].to_numpy(dtype=float)).sum())
        out[f"torus_nbc-model-first-{setup}"] = ("on every curve" if first == n and n > 1 else
                                                 "on the one curve simulated" if first == n == 1 else
                                                 f"on {first} of {n} curves")
    if gaps is not None:
        out["torus_nbc-gap-split"] = gap_sentence(gaps)
    if axes is not None:
        out["torus_nbc-axes"] = axis_sentence(axes)
    return out


def worst_text(errors: pd.DataFrame, setup: str) -> str:
    """The worst ``|error|`` at 25, 50 and 75% (:data:`~models.core.setups.ACCURACY_FRACTIONS`) of the simulated
    saturation on ``setup``,
    with its curve, in words.

    The worst over the set-up's curves is :func:`models.core.claims.worst_of`
    of their :data:`~models.torus_nbc.experiments.WORST` (an unbounded error
    wins; then the largest finite one, :data:`~models.torus_nbc.experiments.WORST_FINITE`,
    is named too).
    """
    e = errors[errors["setup"] == setup]
    w = e[WORST].to_numpy(dtype=float)
    worst = worst_of(w)
    if math.isnan(worst):
        return "n/a (not simulated)"
    j = int(np.flatnonzero(w == worst)[0])
    if math.isinf(worst):
        text = f"unbounded on {e['curve'].iloc[j]}, where the model is already saturated at " \
               f"{e[SATURATED_FROM].iloc[j]:.0%} of the simulated saturation rate"
        finite = e[WORST_FINITE].to_numpy(dtype=float)
        largest = worst_of(finite)
        if math.isnan(largest):
            return text
        i = int(np.flatnonzero(finite == largest)[0])
        where = f", on {e['curve'].iloc[i]}" if i != j else ""
        return text + f" (largest finite error {largest:.1%}{where})"
    return f"{worst:.1%} (on {e['curve'].iloc[j]})"


def gap_sentence(gaps: pd.DataFrame) -> str:
    """Per curve, at the paper set-up's worst rate below 80% of its saturation rate
    (:func:`~models.torus_nbc.experiments.worst_gap_row`): the gap and its two parts, in words."""
    if gaps is None or gaps.empty:
        return "The two set-ups were not both simulated, so the gap was not split."
    parts = []
    for curve, g in gaps.groupby("curve", sort=False):
        r = worst_gap_row(g)
        if r is None:
            continue
        gap, own, ej = float(r["gap, paper set-up"]), float(r["of which the model"]), \
            float(r["of which the ejection set-up"])
        if not (math.isfinite(gap) and math.isfinite(own)):
            parts.append(f"on {curve} at {r['fraction']:.0%} the model is saturated")
            continue
        side = "below" if gap < 0 else "above"
        own_side = "below" if own < 0 else "above"
        bigger = "the single ejection VC" if abs(ej) > abs(own) else "the model itself"
        cancel = " (the two parts have opposite signs and partly cancel)" if own * ej < 0 else ""
        parts.append(f"on {curve} at {r['fraction']:.0%} of the paper set-up's saturation rate the model is "
                     f"{abs(gap):.1f} cycles {side} the simulation: with V ejection VCs it is {abs(own):.1f} cycles "
                     f"{own_side}, and the single ejection VC adds {-ej:+.1f} cycles to the simulated latency, so "
                     f"{bigger} accounts for more of the gap{cancel}")
    return _sentence(parts) if parts else "No simulated rate below the threshold."


def _names(items) -> str:
    items = list(items)
    return " and ".join(f"the {x}" for x in items) + (" set-up" if len(items) == 1 else " set-ups")


def axis_sentence(table: pd.DataFrame) -> str:
    """One sentence per torus of :func:`~models.torus_nbc.experiments.axis_table`: where its simulations saturate
    and what the axis fits."""
    if table.empty:
        return "No torus of the paper's Fig. 1 was simulated, so its axes were not compared."
    parts = []
    for torus, g in table.groupby("torus", sort=False):
        end = float(g["axis end"].iloc[0])
        where = "; ".join(f"{r['sim saturation']:.4f} ({r['sim / axis']:.0%} of the axis) on the {r['setup']} set-up"
                          for _, r in g.iterrows())
        yes = list(g.loc[g["consistent"].astype(bool), "setup"])
        no = list(g.loc[~g["consistent"].astype(bool), "setup"])
        if yes and no:
            verdict = f"the axis fits {_names(yes)}, not {_names(no)}"
        elif yes:
            verdict = f"the axis fits {_names(yes)}"
        else:
            verdict = "the axis fits neither set-up"
        parts.append(f"On {torus} the paper's x axis ends at {end:g} messages/node/cycle and the simulation "
                     f"saturates at {where}: {verdict}.")
    beyond = [s for s, g in table.groupby("setup", sort=False) if bool((g["sim saturation lo"] > g["axis end"]).all())]
    if beyond:
        parts.append(f"On {_names(beyond)} the simulation saturates beyond the end of every axis compared, so the "
                     f"paper's figure would not show it saturating.")
    return " ".join(parts)


def glue_values_variance(table: pd.DataFrame) -> dict:
    """The variance test's sentence, glued on :doc:`02-latency` and the chapter page: ``torus_nbc-variance``
    (:func:`variance_sentence` of :func:`~models.torus_nbc.experiments.variance_table`)."""
    return {"torus_nbc-variance": variance_sentence(table)}


def variance_sentence(table: pd.DataFrame) -> str:
    """:func:`~models.torus_nbc.experiments.variance_table` in words: how far the variance moves the model's
    saturation, against the gap."""
    if table is None or table.empty:
        return "No simulated curve, so the variance was not tested."
    parts = []
    for _, r in table.iterrows():
        z, p, e = (float(r[f"saturation ratio, {v}"]) for v in ("zero", "paper", "exponential"))
        if r["within reach"]:
            verdict = "a variance in that range reaches the simulated saturation bracket"
        else:
            side = "above" if e > 1 else "below"
            verdict = f"every variance in that range leaves the model's saturation rate {side} the simulated bracket"
        parts.append(f"on {r['curve']} ({r['setup']} set-up) the model saturates at {e:.3f} (exponential "
                     f"service), {p:.3f} (the paper's variance) and {z:.3f} (deterministic service) times the "
                     f"simulated rate: the variance moves it by {abs(z - e):.1%} of the simulated rate, against a "
                     f"gap of {abs(p - 1):.1%}; {verdict}")
    return _sentence(parts)


# ----------------------------------------------------------------------------
# 03-routing-comparison
# ----------------------------------------------------------------------------
def glue_values_routing(points: pd.DataFrame, saturation: pd.DataFrame) -> dict:
    """The numbers and sentences :doc:`03-routing-comparison` glues, from the tables of
    :func:`~models.torus_nbc.experiments.run_comparison`, by key.

    ``cmp-min-ratio``/``cmp-max-ratio``: the range of the other routings'
    simulated saturation rates over Duato-Nbc's (only when another routing
    was run); ``cmp-verdict``: :func:`routing_sentence` of
    :func:`~models.torus_nbc.experiments.routing_verdicts`; ``cmp-fastest``: :func:`fastest_sentence` (the
    lowest latency at each rate); ``cmp-duato-half-max``/``-min``: Duato's
    latency over Duato-Nbc's at half of Duato-Nbc's saturation rate, the
    largest and smallest over the curves and set-ups (when both were run).
    """
    out = {}
    others = saturation[saturation["routing"] != "duato_nbc"]["vs Duato-Nbc"]
    if len(others):
        out["torus_nbc-cmp-min-ratio"] = float(others.min())
        out["torus_nbc-cmp-max-ratio"] = float(others.max())
    out["torus_nbc-cmp-verdict"] = routing_sentence(routing_verdicts(saturation))
    out["torus_nbc-cmp-fastest"] = fastest_sentence(points)
    half = points[np.isclose(points["fraction"], 0.5)]
    at_half = half.pivot(index=["curve", "setup"], columns="routing", values="latency")
    if "duato" in at_half and "duato_nbc" in at_half:
        ratio = at_half["duato"] / at_half["duato_nbc"]
        out["torus_nbc-cmp-duato-half-max"] = float(ratio.max())
        out["torus_nbc-cmp-duato-half-min"] = float(ratio.min())
    return out


def routing_sentence(verdicts: pd.DataFrame) -> str:
    """:func:`~models.torus_nbc.experiments.routing_verdicts` in words, one clause per set-up."""
    parts = []
    for _, r in verdicts.iterrows():
        level = int(r["curves"]) - int(r["ahead"]) - int(r["behind"])
        parts.append(f"on the {r['setup']} set-up Duato-Nbc saturates later than every other routing, beyond the "
                     f"bisection's bracket, on {int(r['ahead'])} of {int(r['curves'])} curves (level with the best "
                     f"other on {level}, behind on {int(r['behind'])}), and at worst at {r['worst ratio']:.2f} times "
                     f"the rate of {r['best other']}")
    return _sentence(parts) if parts else "No routing was compared."


def fastest_sentence(points: pd.DataFrame) -> str:
    """Which routing has the lowest mean latency at each simulated rate, per set-up and curve, in words.

    ``points`` is the first table of :func:`~models.torus_nbc.experiments.run_comparison`; rates are named
    by their fraction of Duato-Nbc's simulated saturation rate.  A routing
    whose lead over the second is within both 95% half widths is marked
    "(within the CIs)".
    """
    parts = []
    for (setup, curve), g in points.groupby(["setup", "curve"], sort=False):
        by = []
        for f, h in g.groupby("fraction", sort=True):
            h = h[np.isfinite(h["latency"].to_numpy(dtype=float))].sort_values("latency")
            if h.empty:
                continue
            best = ROUTINGS.get(h["routing"].iloc[0], h["routing"].iloc[0])
            ci = h["CI"].to_numpy(dtype=float) if "CI" in h else np.zeros(len(h))
            close = len(h) > 1 and (float(h["latency"].iloc[1]) - float(h["latency"].iloc[0])
                                    <= float(np.nan_to_num(ci[0]) + np.nan_to_num(ci[1])))
            at = f"{f:.0%}" + (" (within the CIs)" if close else "")
            if by and by[-1][0] == best:
                by[-1][1].append(at)
            else:
                by.append((best, [at]))
        if by:
            runs = [f"{best} at {', '.join(ats[:-1]) + ' and ' + ats[-1] if len(ats) > 1 else ats[0]}"
                    for best, ats in by]
            parts.append(f"on {curve} ({setup} set-up) the lowest latency is {', then '.join(runs)}")
    return _sentence(parts) if parts else "No routing was compared."


# ----------------------------------------------------------------------------
# Both simulating pages: run length and precision
# ----------------------------------------------------------------------------
def precision_sentence(settings: SimSettings, runs=(), points: pd.DataFrame | None = None) -> str:
    """:func:`models.core.precision.precision_sentence` of the simulated points of ``runs`` (CurveRuns) and of
    ``points`` (rows of :func:`~models.torus_nbc.experiments.run_comparison`: ``latency``, ``CI``, ...),
    simulated with ``settings``."""
    frames = [r.sim.rename(columns={"latency CI": "CI"}) for r in runs if r.sim is not None and len(r.sim)]
    return _precision.precision_sentence(settings, *_precision.measured(frames + [points], ci="CI"))


def glue_values_precision(settings: SimSettings, name: str, runs=(), points: pd.DataFrame | None = None) -> dict:
    """``torus_nbc-precision-<name>``: :func:`precision_sentence` of the figure ``name``'s points."""
    return {f"torus_nbc-precision-{name}": precision_sentence(settings, runs, points)}
