"""The numbers the chapter's pages quote, by glue key (``torus_ipp-...``), and the few words the data chooses.

Each ``glue_values_*`` function returns ``{key: value}`` for a page to glue
(``myst_nb.glue``), computed here from the tables of
:mod:`models.torus_ipp.experiments` and :mod:`models.torus_ipp.claims` and
unit-tested (``tests/torus_ipp/test_glue.py``); a notebook computes none.
Where a sentence of a page is a fixed template around numbers, the numbers
are glued and the sentence is the page's Markdown (``{glue:text}``).  Kept
here are only the words the data chooses: where the model's saturation gap
comes from (:data:`GAP_WHERE`), what burstiness costs
(:func:`burstiness_sentences`: "unbounded" or a percentage, with the model's
increase when it was computed) and the claims table in words
(:func:`glue_values_claims`).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core import precision as _precision
from ..core.claims import worst_of
from ..core.experiment import CurveRun
from ..core.setups import SimSettings
from ..core.tables import UNBOUNDED_WORD
from .claims import error_words
from .experiments import describe, gap_source, sim_points_table
from .setups import DEFAULT_SETUP

__all__ = ["SETUP_KEYS", "GAP_WHERE", "glue_values_traffic", "glue_values_latency", "glue_values_gap",
           "glue_values_paired", "glue_values_balance", "glue_values_blocking", "glue_values_claims",
           "burstiness_sentences", "precision_sentence", "glue_values_precision"]

#: The chapter's name, the first part of every glue key.
CHAPTER = "torus_ipp"
#: Short names of the set-ups in glue keys.
SETUP_KEYS = {"paper/model": "paper", "one ejection channel": "oneej"}

#: Where the model's saturation error comes from (:func:`models.torus_ipp.experiments.gap_source`'s ``source``),
#: in words: the end of the page's sentence on the saturation ratios with IPP and with Poisson sources.
GAP_WHERE = {
    "core": "the model's early saturation comes from the adaptive-routing core it shares with the Poisson "
            "model (blocking, eqs. 1-6 and 20-26, and multiplexing, eqs. 27-29), not from the MMPP part "
            "(eqs. 13-19)",
    "mmpp": "most of the model's saturation error comes from the MMPP part (eqs. 13-19): without it the "
            "ratio moves most of the way to 1",
    "both": "the MMPP part (eqs. 13-19) and the adaptive-routing core both contribute to the model's "
            "saturation error",
    "unknown": "the ratios do not say where the gap comes from",
    "not simulated": "nothing was simulated, so the ratios say nothing about where the gap comes from",
}


def _key(*parts: str) -> str:
    """A glue key: the chapter's name and ``parts``, joined by ``-``."""
    return "-".join((CHAPTER, *parts))


def _setup_key(setup: str) -> str:
    return SETUP_KEYS.get(setup, setup)


def glue_values_traffic(moments_check: pd.DataFrame, fitted: pd.DataFrame, match: pd.DataFrame,
                        mmpp_check: pd.DataFrame) -> dict:
    """The numbers :doc:`01-traffic` glues, by key, from its four tables.

    ``moment-maxdiff`` (:func:`~models.torus_ipp.experiments.moment_check_table`),
    ``fit-closed-diff`` (:func:`~models.torus_ipp.experiments.fitted_parameters_table`),
    ``fit-match-maxdiff`` (:func:`~models.torus_ipp.experiments.fit_match_table`):
    the largest relative differences; ``mmpp-m1-maxdiff``: the largest ``|rel.
    diff|`` of eq. (19) against the exact MMPP/M/1 CTMC; ``mmpp-sim-inside`` of
    ``mmpp-sim-points``: the simulated MMPP/(D+M)/1 points within two half
    widths of eq. (19) (:func:`~models.torus_ipp.experiments.mmpp_g1_check_table`).
    """
    exact = mmpp_check[mmpp_check["reference kind"] == "exact CTMC"]
    sim = mmpp_check[mmpp_check["reference kind"] == "simulation"]
    inside = int(((sim["eq. 19 (closed G)"] - sim["reference"]).abs() <= 2 * sim["reference CI"]).sum())
    return {_key("moment-maxdiff"): float(moments_check["max rel. diff vs expm"].max()),
            _key("fit-closed-diff"): float(fitted["closed-form diff"].max()),
            _key("fit-match-maxdiff"): float(match["max rel. diff"].max()),
            _key("mmpp-m1-maxdiff"): float(exact["rel. diff"].abs().max()),
            _key("mmpp-sim-inside"): inside, _key("mmpp-sim-points"): len(sim)}


def glue_values_latency(runs: Sequence[CurveRun], err: pd.DataFrame) -> dict:
    """The numbers :doc:`02-latency` glues, by key (nothing when nothing was simulated).

    Per set-up (short name of :data:`SETUP_KEYS`): ``err25-max-<key>``, the
    worst ``|err @25%|`` over the curves (:func:`models.core.claims.worst_of`),
    and ``satratio-min/max-<key>``, the range of the model / simulated
    saturation loads (``err`` is :func:`~models.torus_ipp.experiments.panel_error_table`
    of ``runs``); ``oneej-simsat-min/max``: the other set-up's simulated
    saturation load over :data:`~models.torus_ipp.setups.DEFAULT_SETUP`'s,
    curve by curve (with both); ``ejection-util-max``: the busiest ejection
    channel under the default set-up, flits/cycle = delivered
    messages/node/cycle x ``M``, over the unsaturated simulated points.
    """
    out = {}
    if not any(r.sim is not None for r in runs):
        return out
    setups = list(dict.fromkeys(err["setup"]))
    for su in setups:
        e, key = err[err["setup"] == su], _setup_key(su)
        out[_key("err25-max", key)] = worst_of(e["err @25%"].abs())
        out[_key("satratio-min", key)] = float(e["sat. model / sim"].min())
        out[_key("satratio-max", key)] = float(e["sat. model / sim"].max())
    if len(setups) > 1 and DEFAULT_SETUP in setups:
        s = err.pivot_table(index=["figure", "panel"], columns="setup", values="sat. sim (mu1)")
        move = s[[su for su in setups if su != DEFAULT_SETUP][0]] / s[DEFAULT_SETUP]
        out[_key("oneej-simsat-min")] = float(move.min())
        out[_key("oneej-simsat-max")] = float(move.max())
    pts = sim_points_table([r for r in runs if r.curve.setup == DEFAULT_SETUP])
    if not pts.empty:
        live = pts[~pts["sim saturated"].astype(bool)]
        M = {(describe(r.curve)["figure"], describe(r.curve)["panel"]): r.curve.model["M"] for r in runs}
        util = live["sim throughput"] * [M[(f, p)] for f, p in zip(live["figure"], live["panel"])]
        out[_key("ejection-util-max")] = float(util.max())
    return out


def precision_sentence(settings: SimSettings, runs: Sequence[CurveRun] = (), scan: pd.DataFrame | None = None) -> str:
    """:func:`models.core.precision.precision_sentence` of a figure's simulated points: those of ``runs``
    (CurveRuns of ``settings``), or the rows of a burstiness ``scan``
    (:func:`~models.torus_ipp.experiments.simulate_scan`'s, concatenated)."""
    frames = [r.sim for r in runs]
    if scan is not None:
        frames.append(scan.rename(columns=lambda c: c.removeprefix("sim ")))
    return _precision.precision_sentence(settings, *_precision.measured(frames))


def glue_values_precision(settings: SimSettings, name: str, runs: Sequence[CurveRun] = (),
                          scan: pd.DataFrame | None = None) -> dict:
    """``torus_ipp-precision-<name>``: :func:`precision_sentence` of the figure ``name``'s points."""
    return {_key("precision", name): precision_sentence(settings, runs, scan)}


def glue_values_gap(ratios: pd.DataFrame | None) -> dict:
    """Where the saturation gap comes from (:func:`~models.torus_ipp.experiments.gap_source` of
    :func:`~models.torus_ipp.experiments.saturation_ratio_table`), by key: the numbers of the page's sentence,
    ``gap-ratio-ipp-min/max`` and ``gap-ratio-poisson-min/max`` (model / simulated saturation load),
    ``gap-maxdiff``, ``gap-share`` (a fraction of the gap to 1), ``gap-bracket`` (the widest relative
    saturation bracket), and its end in words, ``gap-where`` (:data:`GAP_WHERE` of ``gap-source``).  Without
    ``ratios`` (nothing simulated) the numbers are NaN and the source is ``"not simulated"``."""
    if ratios is None or ratios.empty:
        gap = dict.fromkeys(("ratio IPP min", "ratio IPP max", "ratio Poisson min", "ratio Poisson max", "max diff",
                             "max share", "bracket"), math.nan)
        gap["source"] = "not simulated"
    else:
        gap = gap_source(ratios)
    return {_key("gap-ratio-ipp-min"): gap["ratio IPP min"], _key("gap-ratio-ipp-max"): gap["ratio IPP max"],
            _key("gap-ratio-poisson-min"): gap["ratio Poisson min"],
            _key("gap-ratio-poisson-max"): gap["ratio Poisson max"], _key("gap-maxdiff"): gap["max diff"],
            _key("gap-share"): gap["max share"], _key("gap-bracket"): gap["bracket"],
            _key("gap-source"): gap["source"], _key("gap-where"): GAP_WHERE[gap["source"]]}


def glue_values_paired(paired: pd.DataFrame | None) -> dict:
    """IPP against Poisson at the same loads (:func:`~models.torus_ipp.experiments.paired_burstiness_table`) on
    the default set-up (else the first set-up), by key: ``paired-sim-max``/``-min`` (simulated latency ratio -
    1), ``paired-low-max`` (its 95% lower bound - 1), ``paired-model-max`` (the model's ratio - 1); nothing
    without the table."""
    if paired is None or paired.empty:
        return {}
    setups = list(dict.fromkeys(paired["setup"]))
    v = paired[paired["setup"] == (DEFAULT_SETUP if DEFAULT_SETUP in setups else setups[0])]
    return {_key("paired-sim-max"): float((v["sim IPP / Poisson"] - 1).max()),
            _key("paired-sim-min"): float((v["sim IPP / Poisson"] - 1).min()),
            _key("paired-low-max"): float((v["sim IPP / Poisson low"] - 1).max()),
            _key("paired-model-max"): float((v["model IPP / Poisson"] - 1).max())}


def glue_values_balance(balance: pd.DataFrame | None) -> dict:
    """The channel-load spread (:func:`~models.torus_ipp.experiments.channel_balance_table`) per set-up (short
    name of :data:`SETUP_KEYS`), by key: ``balance-syscv-max-<key>`` (the largest shared spread over the curves,
    a fraction), ``balance-rawcv-min/max-<key>`` (the raw spread, counting noise included),
    ``balance-notequal-count-<key>`` of ``balance-curves-<key>`` (the curves whose shared spread is beyond the
    noise, ``equal`` False, of all), ``balance-plusminus-min/max-<key>`` (the + channels' mean load over the -
    ones); nothing without the table."""
    out = {}
    if balance is None or balance.empty:
        return out
    for su in dict.fromkeys(balance["setup"]):
        b, key = balance[balance["setup"] == su], _setup_key(su)
        out[_key("balance-syscv-max", key)] = float(b["sys cv"].max())
        out[_key("balance-rawcv-min", key)] = float(b["raw cv"].min())
        out[_key("balance-rawcv-max", key)] = float(b["raw cv"].max())
        out[_key("balance-notequal-count", key)] = sum(x is False for x in b["equal"])
        out[_key("balance-curves", key)] = len(b)
        out[_key("balance-plusminus-min", key)] = float(b["plus / minus"].min())
        out[_key("balance-plusminus-max", key)] = float(b["plus / minus"].max())
    return out


def glue_values_blocking(blocking: pd.DataFrame | None) -> dict:
    """The blocking time's distribution (:func:`models.torus_ipp.blocking.blocking_table`) on the default
    set-up (else the first), by key: ``blocking-cv-min/max`` (the simulated CV of the blocking time over the
    points), ``blocking-shift-max`` (the largest move of the model's latency with the measured CV^2, a fraction
    of the simulated latency), ``blocking-shift-ci-max`` (the same over the simulated 95% half width),
    ``blocking-within`` of ``blocking-compared`` (points within the half width, of those compared); nothing
    without the table."""
    if blocking is None or blocking.empty:
        return {}
    setups = list(dict.fromkeys(blocking["setup"]))
    b = blocking[blocking["setup"] == (DEFAULT_SETUP if DEFAULT_SETUP in setups else setups[0])]
    seen = b[b["within noise"].map(lambda x: x is not None)]
    return {_key("blocking-cv-min"): float(b["sim b cv"].min()), _key("blocking-cv-max"): float(b["sim b cv"].max()),
            _key("blocking-shift-max"): float((seen["shift"] / seen["sim latency"]).max()) if len(seen) else math.nan,
            _key("blocking-shift-ci-max"): float(seen["shift / CI"].max()) if len(seen) else math.nan,
            _key("blocking-within"): int(sum(x is True for x in seen["within noise"])),
            _key("blocking-compared"): len(seen)}


def glue_values_claims(claims: pd.DataFrame) -> dict:
    """The claims table (:func:`models.torus_ipp.claims.claims_table`) in words, four keys per row
    ``torus_ipp-claim-<id>-<set-up key>`` (the set-up's short name of :data:`SETUP_KEYS`, ``all`` for ``"-"``):
    the note, ``-err`` (the worst error, ``unbounded``, :data:`~models.core.tables.UNBOUNDED_WORD`, or ``n/a``),
    ``-ratio`` (the saturation ratio, or ``n/a``) and ``-holds`` (``yes``/``no``; for a fact left open: ``not
    decided``; else ``n/a``).  These are the chapter's numbers; the verdicts are the findings table's."""
    out = {}
    for row in claims.itertuples():
        key = _key("claim", row.claim_id, SETUP_KEYS.get(row.setup, "all"))
        out[key] = row.note
        out[f"{key}-err"] = ("n/a" if np.isnan(row.worst_err) else UNBOUNDED_WORD
                             if np.isinf(row.worst_err) else f"{row.worst_err:.1%}")
        out[f"{key}-ratio"] = "n/a" if np.isnan(row.sat_ratio) else f"{row.sat_ratio:.3f}"
        undecided = "not decided" if row.kind == "fact" else "n/a"
        out[f"{key}-holds"] = {True: "yes", False: "no"}.get(row.holds, undecided)
    return out


def burstiness_sentences(burst: pd.DataFrame) -> dict:
    """:func:`~models.torus_ipp.experiments.burstiness_table` in words, by key ``torus_ipp-burst-<case
    key>-<set-up key>`` (``paper`` or ``long``; :data:`SETUP_KEYS`): "at most +2.4% (95% bounds +0.1% to
    +5.0%; the model: +0.3%)", an increase "unbounded (saturated)" where only the IPP run saturated, the
    model's clause only where it was computed."""
    out = {}
    for r in burst.itertuples(index=False):
        case = "paper" if r.case == "paper's networks" else "long"
        text = (f"at most {error_words(r.increase, sign=True)} (95% bounds {error_words(r.low, sign=True)} to "
                f"{error_words(r.high, sign=True)}")
        text += "" if math.isnan(r.model) else f"; the model: {error_words(r.model, sign=True)}"
        out[_key("burst", case, _setup_key(r.setup))] = text + ")"
    return out
