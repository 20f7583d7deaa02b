"""What the chapter's pages glue: every number they quote, and the few sentences whose wording the data chooses.

One ``glue_values_*`` function per page (or part of a page), each a dict
``{key: value}`` the notebook glues as it is (``tests/test_notebooks.py``
refuses a glued value computed in a notebook); the page's Markdown writes the
sentences around the numbers with ``{glue:text}``:

* :func:`glue_values_paths`, :func:`glue_values_zero_load` -- ``01-derivation``;
* :func:`glue_values_latency` -- ``02-latency`` (the Fig. 1 bullets, the
  decomposition, the zero-load check);
* :func:`glue_values_comparison` -- ``03-comparison`` (the Fig. 2 bullets,
  the readings, the switches, the 2004 against the 2003 model);
* :func:`glue_values_assumptions` -- ``04-assumptions``;
* :func:`glue_values_precision` -- every simulating page: the run length and precision of a figure's points.

Two sentence builders stay here, because the data picks their words:
:func:`readings_summary` (on which tori each reading saturates before the
2003 model) and :func:`assumptions_summary` (which assumption breaks first,
said only when it does).  Keys are ``torus_dor-...``; the worst error over
several curves is :func:`models.core.claims.worst_of`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.claims import worst_of
from ..core.errors import ParameterError
from ..core.experiment import CurveRun
from ..core.setups import BELOW, SimSettings
from ..core import precision as _precision
from ..core.tables import percent
from ..networks.dor_paths import DorCombinatorics
from .experiments import READINGS, count_of, format_fraction
from .setups import SIM_MESSAGES, torus_of
from .solve import TorusDorResult

__all__ = ["glue_values_paths", "glue_values_zero_load", "glue_values_latency", "glue_values_comparison",
           "glue_values_assumptions", "glue_values_precision", "readings_summary", "assumptions_summary",
           "precision_sentence"]

_WORST = f"<{percent(BELOW, 0)}"  # the suffix of the worst-error columns of error_summary: "<80%"


# ----------------------------------------------------------------------------
# 01-derivation
# ----------------------------------------------------------------------------
def glue_values_paths(comb: DorCombinatorics) -> dict:
    """The worked example's mean hops (eq. 2): ``torus_dor-h-example`` (a float) and ``torus_dor-h-exact`` (the
    exact fraction as text, ``"270/59"``)."""
    return {"torus_dor-h-example": float(comb.mean_hops), "torus_dor-h-exact": str(comb.mean_hops)}


def glue_values_zero_load(zero_load: TorusDorResult, comb: DorCombinatorics, M: float) -> dict:
    """The worked example at (nearly) zero load: ``torus_dor-zero-load-example`` (the model's latency, cycles)
    and ``torus_dor-zero-load-formula`` (:math:`M+h+1` with the mean hops ``h`` of ``comb``, cycles)."""
    return {"torus_dor-zero-load-example": zero_load.latency,
            "torus_dor-zero-load-formula": M + float(comb.mean_hops) + 1}


# ----------------------------------------------------------------------------
# 02-latency
# ----------------------------------------------------------------------------
def _fig1_values(errors: pd.DataFrame) -> dict:
    """Per torus of a Fig. 1 ``error_summary``: the worst errors and the ranges of the saturation ratios."""
    out = {}
    for su in dict.fromkeys(errors["torus"]):
        t = errors[errors["torus"] == su]
        out[su] = {"worst": worst_of(t[f"worst {_WORST}"]),
                   "worst-printed": worst_of(t[f"worst printed {_WORST}"]),
                   "sat-ratio-min": float(t["sat model / sim"].min()),
                   "sat-ratio-max": float(t["sat model / sim"].max()),
                   "sat-ratio-printed-min": float(t["sat printed / sim"].min()),
                   "sat-ratio-printed-max": float(t["sat printed / sim"].max())}
    return out


def glue_values_latency(errors: pd.DataFrame, decomposition: pd.DataFrame, zero_load: pd.DataFrame) -> dict:
    """What :doc:`02-latency` glues, by key (``torus_dor-...``).

    ``errors``: the Fig. 1 ``error_summary``; per torus
    ``fig1-worst-<torus>`` and ``fig1-worst-printed-<torus>`` (the worst
    ``|error|`` below 80% of the simulated saturation load over the curves, as
    text, ``format_fraction``), ``fig1-sat-ratio-min/max-<torus>`` and
    ``fig1-sat-ratio-printed-min/max-<torus>`` (model / simulated saturation
    load).  ``decomposition`` (``experiments.decomposition``): ``mux-max-err``
    (the largest ``|l-bar model / l-bar sim - 1|``), ``beyond-ratio-min/max``
    (the simulated delay beyond multiplexing over the model's); NaN without
    rows.  ``zero_load`` (``experiments.zero_load_check`` rows):
    ``zero-load-max-err``.
    """
    out = {}
    for su, v in _fig1_values(errors).items():
        for k, x in v.items():
            out[f"torus_dor-fig1-{k}-{su}"] = x if k.startswith("sat") else format_fraction(x)
    dec = decomposition
    if len(dec):
        ratio = dec["beyond mux sim"] / dec["beyond mux model"]
        out["torus_dor-mux-max-err"] = float((dec["l-bar model"] / dec["l-bar sim"] - 1).abs().max())
        out["torus_dor-beyond-ratio-min"] = float(ratio.min())
        out["torus_dor-beyond-ratio-max"] = float(ratio.max())
    else:
        for k in ("torus_dor-mux-max-err", "torus_dor-beyond-ratio-min", "torus_dor-beyond-ratio-max"):
            out[k] = math.nan
    out["torus_dor-zero-load-max-err"] = float(zero_load["rel. error"].abs().max())
    return out


# ----------------------------------------------------------------------------
# 03-comparison
# ----------------------------------------------------------------------------
def _on(nets) -> str:
    return " and ".join(nets) + (" tori" if len(nets) > 1 else " torus")


def readings_summary(readings: pd.DataFrame) -> str:
    """What ``experiments.reading_candidates`` says, in words: on which tori the 2004 model saturates before the
    2003 model under the printed weight ``j``, the equations as printed and the default reading; whether the
    weight ``j-L`` leaves the lowest dimension without blocking; whether every dimension blocks by default."""
    rc = readings
    text = []
    for name, mask in (("the printed weight $j$ (any $J$)", rc["waiting_weight"] == "j"),
                       ("the equations as printed", rc["reading"] == "all printed"),
                       ("the default reading", rc["default"])):
        sub = rc[mask]
        before = sub[~sub["later than 2003"]]["torus"].unique().tolist()
        after = sub[sub["later than 2003"]]["torus"].unique().tolist()
        if before:
            text.append(f"Under {name} the 2004 model saturates *before* the 2003 model on the {_on(before)}"
                        + (f" (after it on the {_on(after)})" if after else "") + ".")
        else:
            text.append(f"Under {name} the 2004 model saturates after the 2003 model on the {_on(after)}.")
    never = rc[(rc["waiting_weight"] == "j-L") & ~rc["every dimension blocks"]]
    if len(never):
        text.append("Under the weight $j-L$ with $J_{d_0}=L$ (`inputs` or `printed`), $\\tilde N_{d_0}=0$ and the "
                    "lowest dimension never blocks ($W_{d_0}=0$ in the table).")
    d = rc[rc["default"]]
    text.append("Under the default reading every dimension blocks: " + ("yes" if d["every dimension blocks"].all()
                                                                        else "no")
                + ".  Where the 2004 model saturates before the 2003 model, the paper's claim that its saturation "
                "point is closer to the simulation's could hold only if the simulated network saturated below the "
                "midpoint of the two (the last column), i.e. if the 2003 model erred by saturating too *late*.  The "
                "simulation had no part in the choice of reading; the simulated saturation loads are in the table "
                "above.")
    return " ".join(text)


def glue_values_comparison(errors: pd.DataFrame | None = None, readings: pd.DataFrame | None = None,
                           switches: pd.DataFrame | None = None, run: CurveRun | None = None,
                           comparison: pd.DataFrame | None = None) -> dict:
    """What :doc:`03-comparison` glues, by key (``torus_dor-...``); each part from its table, when given.

    * ``errors`` (the Fig. 2 ``error_summary``), per torus:
      ``fig2-sat-model/sim/2003/printed-<torus>`` (messages/node/cycle),
      ``fig2-sat-<model>-ratio-sim-<torus>``, ``fig2-worst-model/2003/printed-<torus>``
      (text); and ``fig2-bi-uni-sim-sat-ratio`` with both tori;
    * ``readings`` (``reading_candidates``), per torus: the default
      reading's ``readings-default-ratio/sat/W0/blocks-<torus>`` and the 2003
      model's ``readings-2003-sat-<torus>``, the printed weight's
      ``readings-weight-j-sat/ratio-<torus>``, ``readings-printed-ratio-<torus>``
      and ``readings-jl-W0-<torus>``;
    * ``switches`` (``switch_table``) with ``run`` (the run of its curve):
      ``switch-biggest`` (the single switch that moves the saturation load
      most) and ``switch-biggest-ratio``, ``printed-sat-ratio`` and
      ``wj-sat-ratio`` (against the simulated saturation load),
      ``switch-setup`` (the torus of ``run``);
    * ``comparison`` (``comparison_table``), per torus:
      ``cmp-better-default/printed-<torus>``, ``cmp-closer-default/printed-<torus>`` and
      ``cmp-drawback-default/printed-<torus>`` (``versus2003.comparison_table``'s decisions beyond the noise),
      each ``"k of n"`` curves, ``cmp-curves-<torus>`` (how many curves) and
      ``cmp-paper-<torus>`` (how many of them on the paper's networks).
    """
    out = {}
    if errors is not None:
        for _, row in errors.iterrows():
            su = row["torus"]
            for k in ("sat model", "sat sim", "sat 2003", "sat printed", "sat model / sim", "sat 2003 / sim",
                      "sat printed / sim"):
                out[f"torus_dor-fig2-{k.replace(' / ', '-ratio-').replace(' ', '-')}-{su}"] = float(row[k])
            for k in ("", "2003 ", "printed "):
                out[f"torus_dor-fig2-worst-{k.strip() or 'model'}-{su}"] = format_fraction(row[f"worst {k}{_WORST}"])
        sims = errors.set_index("torus")["sat sim"]
        if {"unidirectional", "bidirectional"} <= set(sims.index):
            out["torus_dor-fig2-bi-uni-sim-sat-ratio"] = float(sims["bidirectional"] / sims["unidirectional"])
    if readings is not None:
        for su in dict.fromkeys(readings["torus"]):
            r = readings[readings["torus"] == su].set_index("reading")
            d = r[r["default"]].iloc[0]
            out[f"torus_dor-readings-default-ratio-{su}"] = float(d["sat 2004 / 2003"])
            out[f"torus_dor-readings-default-sat-{su}"] = float(d["sat 2004"])
            out[f"torus_dor-readings-2003-sat-{su}"] = float(d["sat 2003"])
            out[f"torus_dor-readings-weight-j-sat-{su}"] = float(r.loc["J inputs, weight j", "sat 2004"])
            out[f"torus_dor-readings-weight-j-ratio-{su}"] = float(r.loc["J inputs, weight j", "sat 2004 / 2003"])
            out[f"torus_dor-readings-printed-ratio-{su}"] = float(r.loc["all printed", "sat 2004 / 2003"])
            out[f"torus_dor-readings-jl-W0-{su}"] = float(r.loc["J inputs, weight j-L", "W d0"])
            out[f"torus_dor-readings-default-W0-{su}"] = float(d["W d0"])
            out[f"torus_dor-readings-default-blocks-{su}"] = "yes" if d["every dimension blocks"] else "no"
    if switches is not None:
        if run is None:
            raise ParameterError("`run` (the run of the switch table's curve) is needed with `switches`")
        swi = switches.set_index("reading")
        moves = (swi["saturation"] / swi.loc["default", "saturation"]).drop(["default", "all printed"])
        biggest = (moves - 1).abs().idxmax()
        out["torus_dor-switch-biggest"] = str(biggest)
        out["torus_dor-switch-biggest-ratio"] = float(moves[biggest])
        out["torus_dor-printed-sat-ratio"] = float(swi.loc["all printed", "saturation"] / run.sim_saturation)
        out["torus_dor-wj-sat-ratio"] = float(swi.loc["waiting_weight=j", "saturation"] / run.sim_saturation)
        out["torus_dor-switch-setup"] = torus_of(run.curve)
    if comparison is not None:
        for t in dict.fromkeys(comparison["torus"]):
            g = comparison[comparison["torus"] == t]
            for w in READINGS:
                for what in ("better", "closer", "drawback"):
                    out[f"torus_dor-cmp-{what}-{w}-{t}"] = count_of(g[f"{what} {w}"])
            out[f"torus_dor-cmp-curves-{t}"] = len(g)
            out[f"torus_dor-cmp-paper-{t}"] = int(g["paper"].sum())
    return out


# ----------------------------------------------------------------------------
# 04-assumptions
# ----------------------------------------------------------------------------
def assumptions_summary(assumptions: pd.DataFrame, run: CurveRun) -> str:
    """Which assumption breaks first, in words, when ``experiments.assumptions_table`` at its highest load shows
    it (the model puts more probability than measured on "all L busy" and fewer busy VCs on average); ``""``
    otherwise.  ``run``: the occupancy run, for the model / simulated saturation ratio.  The page's sentence
    before it quotes the three ratios (:func:`glue_values_assumptions`)."""
    values = glue_values_assumptions(assumptions)
    allbusy, busy = values["torus_dor-allbusy-ratio-high"], values["torus_dor-busy-ratio-high"]
    if not (allbusy > 1 and busy < 1):
        return ""
    return ("So the assumption that breaks first is the *shape* of the occupancy distribution, in two ways. "
            "The model has too little mass on $1..L-1$ busy VCs: its holding time $D_{d_i}$ leaves out the "
            "multiplexing slowdown (a VC is held longer while its flits share the physical channel with "
            "others), so the chain's utilisation $\\lambda_cD$ is too low.  And it has too much mass on \"all "
            "$L$ busy\": Dally's chain lumps every state of an unbounded M/M/1 count with $L$ or more messages "
            "into that one state, a tail that the simulated channels do not show.  The blocking probability "
            "(eq. 5) and the waiting count (eq. 15) are read off that last state, so the model's blocking grows "
            "too fast as the load rises"
            + (" and its fixed point disappears before the simulated network saturates "
               f"({run.model_saturation / run.sim_saturation:.2f} of the simulated saturation load here)"
               if run.model_saturation < run.sim_saturation else "") + ".  The multiplexing "
            "degree, a ratio of moments of the same distribution, benefits from the two errors cancelling.")


def _closer(channel_rates: pd.DataFrame) -> str:
    far_mean = (channel_rates["sat model (mean rate)"] / channel_rates["sat sim"]).apply(lambda v: abs(np.log(v)))
    far_dim = (channel_rates["sat model (per-dimension rate)"] / channel_rates["sat sim"]).apply(
        lambda v: abs(np.log(v)))
    return f"{int((far_dim < far_mean).sum())} of {len(channel_rates)}"


def glue_values_assumptions(assumptions: pd.DataFrame, channel_rates: pd.DataFrame | None = None) -> dict:
    """What :doc:`04-assumptions` glues, by key (``torus_dor-...``).

    From ``assumptions_table`` at its highest load: ``busy-ratio-high``
    (model / simulated mean busy VCs), ``allbusy-ratio-high`` (model /
    simulated P(all L busy)), ``mux-err-high`` (l-bar model / sim - 1); from
    ``channel_rate_table``, when given: ``channel-rate-closer`` (``"k of n"``
    curves on which the per-dimension rate brings the model's saturation load
    closer, in log, to the simulated one).
    """
    hi = assumptions.iloc[-1]
    out = {"torus_dor-busy-ratio-high": float(hi["mean busy VCs model"] / hi["mean busy VCs sim"]),
           "torus_dor-allbusy-ratio-high": float(hi["P(all L busy) model"] / hi["P(all L busy) sim"]),
           "torus_dor-mux-err-high": float(hi["l-bar model"] / hi["l-bar sim"] - 1)}
    if channel_rates is not None:
        out["torus_dor-channel-rate-closer"] = _closer(channel_rates)
    return out


# ----------------------------------------------------------------------------
# Every simulating page: run length and precision
# ----------------------------------------------------------------------------
def precision_sentence(settings: SimSettings, runs) -> str:
    """:func:`models.core.precision.precision_sentence` of the simulated points of ``runs`` (CurveRuns of
    ``settings``), the cap named the paper's run length when it is :data:`~models.torus_dor.setups.SIM_MESSAGES`."""
    paper = " (the paper's run length)" if settings.messages == SIM_MESSAGES else ""
    return _precision.precision_sentence(settings, *_precision.measured([r.sim for r in runs]), cap_words=paper)


def glue_values_precision(settings: SimSettings, runs, name: str) -> dict:
    """``torus_dor-precision-<name>``: :func:`precision_sentence` of the figure ``name``'s ``runs``."""
    return {f"torus_dor-precision-{name}": precision_sentence(settings, runs)}
