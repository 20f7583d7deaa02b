"""The paper's Fig. 1 and the routing comparison: figures, simulator translation, runs and analysis tables.

Fig. 1 of Safaei et al. (2007) plots the mean message latency (cycles) against
the generation rate :math:`\\lambda_g` (messages/node/cycle) on ``8 x 8`` and
``16 x 16`` bidirectional tori with ``V = 10`` VCs, for ``M = 32`` and ``64``
flits, model and simulation.  Every curve is made by
:func:`models.torus_nbc.setups.curve` (model keywords ``k``, ``M``, ``V``,
``escape_levels``, ``mean_distance``, ``variance``; simulator keywords
``routing``, ``ejection_vcs``; the name of its simulator set-up,
:data:`models.torus_nbc.setups.SETUPS`, in ``Curve.setup``) and its loads
are fractions of the **simulated saturation rate** of that set-up;
:func:`run_figure` runs them through :func:`models.core.experiment.run_figure`:
the simulated saturation rate by :func:`sim_saturation` (the one bisection,
:func:`models.core.saturation.find_saturation`, on the simulator's
``saturated`` flag, bracketed from 80% of the model's rate), the simulation
at the fractions (25%, 50%, 75%, 90% and any others asked for), and the
model at the same rates and on a line of ``model_points`` rates.
:func:`error_table` is :func:`models.core.experiment.error_table` with this
chapter's columns, one row per curve and set-up; :func:`run_comparison` runs
the same tori and rates with Duato's routing and dimension-order routing.

The analysis tables: :func:`gap_table` splits the model's gap on the paper's
set-up into the part the ejection set-up accounts for and the part that
remains with ``V`` ejection VCs; :func:`axis_table` compares each set-up's
simulated saturation with the end of the paper's x axes (an inference about
the authors' set-up: the chapter's, not a claim of the paper);
:func:`variance_table` re-solves the model with the service-time variance
of eqs. (18)-(19) at 0 and exponential (the paper's explanation of its
discrepancies); :func:`routing_verdicts`, :func:`routing_latency_table` and
:func:`vc_requirements` compare the routings.  The claims built on them are
:mod:`models.torus_nbc.claims`, the sentences the pages glue
:mod:`models.torus_nbc.glue`.

Simulation (:func:`sim_kwargs` translates a curve to the keywords of
:func:`models.sim.wormhole.simulate`, as the curve carries them):
``Torus((k, k), bidirectional=True)``, Poisson sources, uniform
destinations, fixed length ``M``, ``buffer_depth = 2``, ``injection_vcs =
V`` (the model's source queue with rate :math:`\\lambda_g/V`), the set-up's
``ejection_vcs``, results cached on disk (sweeps through
:func:`models.sim.sweep.run_sweep`).  Routings: ``duato_nbc`` with
``escape_levels = V2``; ``duato`` (Duato's routing of the torus_ipp chapter:
``V - 2`` adaptive VCs and the two dateline escape VCs of dimension order);
``dor`` (dimension-order routing, shorter direction on the bidirectional
torus, two dateline escape VCs and ``V - 2`` more VCs on the same path).

Plots are in :mod:`models.torus_nbc.plots`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core import experiment
from ..core.claims import accuracy_below, counted_below, worst_error_below, worst_of
from ..core.errors import ParameterError
from ..core.experiment import CurveRun
from ..core.results import SimPoint, ci_column
from ..core.saturation import Saturation, find_saturation
from ..core.setups import ACCURACY_FRACTIONS, BELOW, ERROR_FRACTIONS, Curve, Figure, SimSettings
from ..core.tables import percent_text
from ..core.validate import require
from ..core.validation import saturation_aware_error
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from . import setups as _setups
from .params import NbcParams, min_escape_levels, min_vcs
from .routing_check import acyclic_under, check
from .solve import saturation_load, solve

__all__ = [
    "FRACTIONS", "ROUTINGS", "PAPER_AXIS", "PAPER_AXIS_TICKS", "FIGURES", "fig1", "routing_figure", "describe",
    "sim_kwargs", "simulate_curve", "sim_saturation", "run_figure", "points_table", "saturation_table",
    "error_table", "ERROR_COLUMNS", "format_errors", "gap_table", "worst_gap_row", "axis_table", "split_table",
    "cdg_table", "run_comparison", "routing_verdicts", "WORST", "WORST_FINITE", "SATURATED_FROM", "GAP_COLUMNS",
    "AXIS_COLUMNS", "VARIANCE_LABELS", "VARIANCE_COLUMNS", "variance_table", "routing_latency_table",
    "vc_requirements", "value_range", "CLASS1_ACYCLIC", "UNCERTAIN", 
]

#: Simulated rates of every curve, as fractions of the simulated saturation rate.
FRACTIONS = (0.1,) + ERROR_FRACTIONS

#: Routings compared in the chapter (simulator names) and their labels.
ROUTINGS = {"duato_nbc": "Duato-Nbc", "duato": "Duato (dateline escape)", "dor": "dimension order"}

#: Where the x axes of the paper's Fig. 1 end (messages/node/cycle), by radix, as printed.
PAPER_AXIS = {8: 0.022, 16: 0.010}
#: Tick intervals on each of those axes (0, 0.0044, ..., 0.022 and 0, 0.002, ..., 0.010).
PAPER_AXIS_TICKS = 5


# ----------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------
def _curves(k_values, M_values, V, extra_levels, fractions, setups) -> tuple:
    extra_levels = require("extra_levels", extra_levels, 0, unit="escape levels beyond the minimum k/2+1",
                           integer=True)
    names = sorted(_setups.SETUPS)
    if isinstance(setups, str) or not len(setups):
        raise ParameterError(f"`setups` must be a non-empty list of set-up names of {names}; got {setups!r}")
    unknown = [s for s in setups if s not in _setups.SETUPS]
    if unknown:
        raise ParameterError(f"`setups` must name set-ups of {names}; got {unknown[0]!r}")
    out = []
    for k in k_values:
        for M in M_values:
            least = NbcParams(k, M, V)  # the escape levels given: the minimum k/2+1 and extra_levels more
            p = dataclasses.replace(least, escape_levels=least.V2 + extra_levels)
            out += [_setups.curve(p, name, loads=fractions, fractions_of="sim") for name in dict.fromkeys(setups)]
    return tuple(out)


def fig1(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
         extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS,
         setups: Sequence[str] = _setups.DEFAULT_SETUPS) -> Figure:
    """Fig. 1: one curve per ``(k, M)`` and set-up, ``V2 = k/2 + 1 + extra_levels`` escape levels (default the minimum).

    The curves' loads are ``fractions`` of the simulated saturation rate of
    their own set-up; labels ``"8x8, M=32, paper set-up"``.
    """
    return Figure("fig-torus_nbc-fig1", f"Duato-Nbc on k x k tori, V = {V}",
                  _curves(k_values, M_values, V, extra_levels, fractions, setups), x_label="traffic generation rate")


def routing_figure(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
                   extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS,
                   setups: Sequence[str] = _setups.DEFAULT_SETUPS) -> Figure:
    """The routing comparison: Fig. 1's curves, simulated with every routing of :data:`ROUTINGS`."""
    return Figure("fig-torus_nbc-routing-comparison", f"Duato-Nbc, Duato's routing and dimension order, V = {V}",
                  _curves(k_values, M_values, V, extra_levels, fractions, setups), x_label="traffic generation rate")


#: The chapter's figures at the paper's scale, by label.
FIGURES = {f.label: f for f in (fig1(), routing_figure())}


def describe(curve: Curve) -> dict:
    """``curve`` (``"8x8, M=32"``, without the set-up), ``setup``, ``k`` and ``M`` of a curve."""
    k, M = int(curve.model["k"]), int(curve.model["M"])
    return {"curve": f"{k}x{k}, M={M}", "setup": curve.setup, "k": k, "M": M}


# ----------------------------------------------------------------------------
# Simulator
# ----------------------------------------------------------------------------
def sim_kwargs(curve: Curve, load: float, settings: SimSettings = _setups.SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at the rate ``load`` (the translation).

    From the curve as :func:`models.torus_nbc.setups.curve` made it, taken as
    it is (checked once, by :class:`~models.torus_nbc.params.NbcParams`): the
    model keywords ``k``, ``M`` (``message_length``), ``V`` (``vcs``),
    ``escape_levels`` (Duato-Nbc only; None: the simulator's minimum, the
    model's too) and the simulator keywords ``routing`` and ``ejection_vcs``.  Run lengths, batches and seed
    are ``settings``' (:meth:`SimSettings.run_lengths <models.core.setups.SimSettings.run_lengths>`: with ``settings.target_ci`` a point stops once precise, at most
    ``settings.messages``).
    """
    m, s = curve.model, curve.sim
    routing = s["routing"]
    kw = dict(topology=Torus((m["k"], m["k"]), bidirectional=True), routing=routing, vcs=m["V"],
              message_length=m["M"], rate=float(load), warmup_messages=settings.warmup_messages,
              batches=settings.batches, seed=settings.seed, ejection_vcs=s["ejection_vcs"], **settings.run_lengths())
    if routing == "duato_nbc":
        kw["escape_levels"] = m["escape_levels"]
    return kw


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = _setups.SETTINGS) -> list[SimPoint]:
    """The simulation at the rates ``loads``, one cached sweep: a :class:`~models.core.results.SimPoint` per rate.

    ``latency`` (cycles, ``inf`` if saturated), ``latency_ci`` (95% half
    width), ``saturated``; extras ``network latency``, ``multiplexing`` and
    ``messages`` (the measured messages of the point's run).
    """
    return [SimPoint(s.latency, s.latency_ci, s.saturated,
                     extra={"network latency": s.network_latency, "multiplexing": s.multiplexing,
                            "messages": s.messages})
            for s in run_sweep([sim_kwargs(curve, r, settings) for r in loads], jobs=settings.jobs,
                               cache=settings.cache, progress=settings.progress)]


def _search(curve: Curve, start: float, settings: SimSettings) -> Saturation:
    """The simulated saturation rate of ``curve``, bracketed from ``start`` (:func:`sim_saturation`); every probe a
    run of exactly ``settings.messages`` (:meth:`SimSettings.fixed_length <models.core.setups.SimSettings.fixed_length>`)."""
    start = require("start", start, 0, lo_open=True, unit="messages/node/cycle")
    probe = settings.fixed_length()

    def saturated(rate):
        return simulate_curve(curve, [rate], probe)[0].saturated

    s = find_saturation(saturated, start, start, check_lo=True, check_hi=True, expand=1.25, max_expansions=39,
                        rtol=settings.sat_rtol)
    if not s.bracketed:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} "
                             f"({curve.sim['routing']}) from {start}")
    return s


def sim_saturation(curve: Curve, guess: float = math.nan, settings: SimSettings = _setups.SETTINGS) -> Saturation:
    """Simulated saturation rate (messages/node/cycle) of ``curve``'s routing, by bracketing and bisection.

    :func:`~models.core.saturation.find_saturation` from 80% of the model's
    saturation rate (:func:`~models.torus_nbc.saturation_load` of
    ``curve.model`` at the solver's own tolerance, where the chapter's
    figures start it; ``guess``, the model's saturation rate as
    :func:`models.core.compare.compare` computes it, is not used), both ends
    checked: the rate is scaled by 1.25 until one rate is unsaturated and a
    higher one saturated (at most 40 runs), then the bracket is halved until
    its relative width is below ``settings.sat_rtol``.  The result's
    ``load`` is the final bracket's midpoint, ``evaluations`` the runs.
    """
    return _search(curve, 0.8 * saturation_load(**curve.model), settings)


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def run_figure(figure: Figure, settings: SimSettings = _setups.SETTINGS, *, simulate: bool = True,
               model_points: int = 60) -> tuple:
    """Model and simulation of every curve of ``figure``: a tuple of :class:`~models.core.experiment.CurveRun`.

    Model columns: ``latency``, ``network latency``, ``multiplexing``,
    ``saturated``; simulator columns: the same and ``latency CI`` (95% half
    width).  Simulated rates are rounded to 6 significant digits; the model
    line is ``model_points - 1`` rates evenly spaced strictly between 0 and
    the model's saturation rate.  With ``simulate=False`` the fractions are
    of the model's saturation rate.  The simulated saturation rate is
    :func:`sim_saturation`'s (from 80% of the model's).
    """
    model_points = require("model_points", model_points, 1, unit="points per model curve", integer=True)
    sim = (lambda curve, rates: simulate_curve(curve, rates, settings)) if simulate else None
    return experiment.run_figure(
        figure, _model, sim,
        model_saturation=lambda curve: saturation_load(**curve.model),
        sim_saturation=lambda curve, model_sat: _search(curve, 0.8 * model_sat, settings),
        line=lambda curve, model_sat, rates: np.linspace(0.0, model_sat, model_points + 1)[1:-1],
        round_to=6,
    )


def _model(curve: Curve, rate: float) -> dict:
    r = solve(rate, **curve.model)
    return {"latency": r.latency, "network latency": r.network_latency, "multiplexing": r.multiplexing,
            "saturated": r.saturated}


_MODEL_COLUMNS = ("latency", "network latency", "multiplexing")
_SIM_COLUMNS = {"latency": "sim latency", ci_column("latency"): "sim CI", "saturated": "sim saturated",
                "network latency": "sim network latency", "multiplexing": "sim multiplexing",
                "messages": "sim messages"}


def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Fig. 1's points: one row per rate of every curve and set-up, sorted by rate within a curve.

    Columns ``curve`` (``"8x8, M=32"``), ``setup``, ``k``, ``M``, ``rate``
    (messages/node/cycle), ``fraction`` (of the set-up's simulated saturation
    rate; NaN on the model line), ``model latency`` (cycles, inf past the
    model's saturation), ``model network latency``, ``model multiplexing``
    and, at the simulated rates, ``sim latency``, ``sim CI`` (95% half
    width), ``sim saturated``, ``sim network latency``, ``sim multiplexing``, ``sim messages`` (measured
    messages of the point's run).
    """
    parts = []
    for run in runs:
        m, d = run.model, describe(run.curve)
        frame = pd.DataFrame({"curve": d["curve"], "setup": d["setup"], "k": d["k"], "M": d["M"],
                              "rate": m["load"], "fraction": m["fraction"],
                              **{f"model {c}": m[c] for c in _MODEL_COLUMNS}})
        if run.sim is not None:
            sim = run.sim[["load", "fraction", *_SIM_COLUMNS]].rename(columns={"load": "rate", **_SIM_COLUMNS})
            frame = frame.merge(sim, on=["rate", "fraction"], how="left", sort=False, validate="many_to_one")
        parts.append(frame)
    return pd.concat(parts, ignore_index=True)


def saturation_table(runs: Sequence[CurveRun], settings: SimSettings | None = None) -> pd.DataFrame:
    """One row per curve and set-up: ``k``, ``M``, the model's and the simulated saturation rate (bracket, runs),
    and with ``settings`` (the runs') the measured messages of each probe of the search (``probe messages``:
    :func:`sim_saturation` probes run exactly ``settings.messages``)."""
    rows = []
    for run in runs:
        row = {**describe(run.curve), "model saturation": run.model_saturation}
        s = run.brackets.get("sim")
        if s is not None:
            row.update({"sim saturation": s.load, "sim saturation lo": s.lo, "sim saturation hi": s.hi,
                        "saturation runs": s.evaluations})
            if settings is not None:
                row["probe messages"] = int(settings.fixed_length().messages)
        rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def _err_column(f: float) -> str:
    return f"err @{f:.0%}"


#: The worst-error column of :func:`error_table` (:func:`models.core.claims.accuracy_below`, a fraction): the
#: worst error at the fixed fractions 25, 50 and 75 % of the simulated saturation rate.
WORST = "worst |err| at " + "/".join(f"{f:.0%}".rstrip("%") for f in ACCURACY_FRACTIONS) + "%"
#: The same without the rates where only the model is saturated (a fraction; NaN if none is left).
WORST_FINITE = "worst finite |err| at " + "/".join(f"{f:.0%}".rstrip("%") for f in ACCURACY_FRACTIONS) + "%"
#: Where the worst error is uncertain: the model's saturation rate inside the simulated bracket of one of
#: those fractions (:class:`models.core.claims.Accuracy`; "" when decided).
UNCERTAIN = "uncertain"
#: The lowest simulated fraction (of the simulated saturation rate) at which only the model is saturated.
SATURATED_FROM = "model saturated from"

#: The columns of the chapter's error table as written to ``tab-torus_nbc-errors.csv`` (at the default ``at``).
ERROR_COLUMNS = ("curve", "setup", *(_err_column(f) for f in ERROR_FRACTIONS), WORST, "model saturation",
                 "sim saturation", "saturation err", "saturation ratio")


def _saturated_from(run: CurveRun) -> float:
    """The lowest simulated fraction at which the model is saturated and the simulation is not (NaN if none)."""
    pts = run.points()
    if pts.empty or "sim latency" not in pts:
        return math.nan
    frac = pts["fraction"].to_numpy(dtype=float)
    hit = np.isfinite(frac) & np.isinf(pts["model latency"].to_numpy(dtype=float)) \
        & np.isfinite(pts["sim latency"].to_numpy(dtype=float))
    if "sim saturated" in pts:
        hit &= ~pts["sim saturated"].to_numpy(dtype=bool)
    return float(frac[hit].min()) if hit.any() else math.nan


def error_table(runs: Sequence[CurveRun], at: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per curve and set-up: :func:`models.core.experiment.error_table` in this chapter's columns (numbers).

    Every error is a **fraction**.  ``curve`` (``"8x8, M=32"``), ``setup``;
    ``err @<p>%`` for each fraction ``p`` of ``at``: the signed relative error
    of the mean message latency, ``(model - sim) / sim`` (``inf`` where only
    the model is saturated, NaN where the simulation is or the point was not
    run); :data:`WORST`: the largest ``|error|`` at the fixed fractions 25, 50 and 75 % of the
    set-up's simulated saturation rate (:func:`models.core.claims.accuracy_below`); ``model saturation``,
    ``sim saturation`` (messages/node/cycle); ``saturation err``;
    ``saturation ratio`` (model / simulation); then, for the sentences,
    :data:`WORST_FINITE` (the same without the rates where only the model is
    saturated), :data:`SATURATED_FROM`, :data:`UNCERTAIN` and the simulated
    saturation search's bracket, ``sim saturation lo`` and ``hi``.  :data:`WORST`
    is :func:`models.core.claims.accuracy_below`'s: at the fixed fractions
    (25, 50, 75 %), ``inf`` when the model is saturated at one of them for
    every simulated saturation rate in the search's bracket; when that
    depends on where in the bracket it is, :data:`UNCERTAIN` says so.
    """
    core = experiment.error_table(runs, at)
    table = pd.DataFrame([{k: v for k, v in describe(r.curve).items() if k in ("curve", "setup")} for r in runs])
    for f, col in zip(at, [c for c in core if c.startswith("err @")]):
        table[_err_column(f)] = core[col].to_numpy() / 100.0
    acc = [accuracy_below(r) for r in runs]
    table[WORST] = [a.worst for a in acc]
    for col in ("model saturation", "sim saturation"):
        table[col] = core[col].to_numpy()
    table["saturation err"] = core["saturation err [%]"].to_numpy() / 100.0
    table["saturation ratio"] = core["saturation ratio"].to_numpy()
    table[WORST_FINITE] = [worst_error_below(r, finite=True) for r in runs]
    table[SATURATED_FROM] = [_saturated_from(r) for r in runs]
    table[UNCERTAIN] = [a.uncertain for a in acc]
    for end in ("lo", "hi"):
        table[f"sim saturation {end}"] = [_bracket_end(r, end) for r in runs]
    return table


def _bracket_end(run: CurveRun, end: str) -> float:
    """The ``"lo"`` or ``"hi"`` end of ``run``'s simulated saturation bracket (messages/node/cycle; NaN: none)."""
    b = run.brackets.get("sim") if hasattr(run, "brackets") else None
    return float(getattr(b, end)) if b is not None else math.nan


def format_errors(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`error_table` as text (the chapter's CSV, read by the chapter page): errors as ``+12.3%``
    (:data:`~models.core.tables.UNBOUNDED`, ``n/a``), rates to 5 decimals, the ratio to 3; the columns
    :data:`ERROR_COLUMNS` (those of ``at`` in place of the default fractions')."""
    shown = table.drop(columns=[WORST_FINITE, SATURATED_FROM, UNCERTAIN, "sim saturation lo", "sim saturation hi"],
                       errors="ignore").copy()
    for col in shown.columns:
        if col.startswith("err @") or col == "saturation err":
            shown[col] = [percent_text(x, signed=True) for x in shown[col]]
        elif col == WORST:
            shown[col] = [percent_text(x) for x in shown[col]]
    for col, digits in (("model saturation", 5), ("sim saturation", 5), ("saturation ratio", 3)):
        shown[col] = [f"{float(x):.{digits}f}" if math.isfinite(float(x)) else "n/a" for x in shown[col]]
    return shown


GAP_COLUMNS = ("curve", "k", "M", "fraction", "rate", "model latency", "sim latency, paper set-up",
               "sim latency, model set-up", "gap, paper set-up", "of which the model", "of which the ejection set-up",
               "err, paper set-up [%]", "err, model set-up [%]")


def gap_table(runs: Sequence[CurveRun], settings: SimSettings = _setups.SETTINGS) -> pd.DataFrame:
    """Split the model's gap on the paper's set-up into the ejection set-up's part and the model's own.

    At the simulated rates of every ``"paper"`` run of ``runs`` that has a
    ``"model"`` run on the same torus and ``M``, the ``"model"`` set-up is
    simulated too (same rates, seed and run lengths; cached), and

    ``model - sim(paper) = [model - sim(model)] + [sim(model) - sim(paper)]``:

    the first term (``of which the model``) is what is left with no ejection
    contention, a property of the model; the second (``of which the ejection
    set-up``) is what the single ejection VC changes (negative: the paper's
    set-up is slower).  The two can have opposite signs (the model above the
    simulation without ejection contention, below it with).  The last two
    columns are the model's relative errors (percent) against each set-up at
    these rates.  Columns
    :data:`GAP_COLUMNS`; latencies in cycles (``inf`` where the model is
    saturated); ``fraction`` of the paper set-up's simulated saturation rate.
    Empty if no pair was run.
    """
    by = {(int(r.curve.model["k"]), int(r.curve.model["M"]), r.curve.setup): r for r in runs}
    rows = []
    for run in runs:
        if run.curve.setup != "paper" or run.sim is None:
            continue
        k, M = int(run.curve.model["k"]), int(run.curve.model["M"])
        other = by.get((k, M, "model"))
        if other is None:
            continue
        pts = run.points().sort_values("load", kind="mergesort")
        res = simulate_curve(other.curve, list(pts["load"]), settings)
        for (_, p), s in zip(pts.iterrows(), res):
            model, paper, wide = float(p["model latency"]), float(p["sim latency"]), s.latency
            err = 100.0 * saturation_aware_error([model, model], [paper, wide])
            rows.append(dict(zip(GAP_COLUMNS, (describe(run.curve)["curve"], k, M, p["fraction"], p["load"], model,
                                               paper, wide, model - paper, model - wide, wide - paper, float(err[0]),
                                               float(err[1])))))
    return pd.DataFrame(rows, columns=list(GAP_COLUMNS))


def worst_gap_row(gaps: pd.DataFrame) -> pd.Series | None:
    """The row of :func:`gap_table` (one curve's) with the largest relative gap on the paper's set-up,
    ``|gap| / sim latency``, below :data:`BELOW` of its simulated saturation rate; None if there is none."""
    g = gaps[gaps["fraction"] < BELOW]
    rel = (g["gap, paper set-up"].abs() / g["sim latency, paper set-up"]).to_numpy(dtype=float)
    if g.empty or np.isnan(rel).all():
        return None
    return g.iloc[int(np.nanargmax(rel))]


AXIS_COLUMNS = ("torus", "k", "setup", "axis end", "last tick from", "curve", "sim saturation", "sim saturation lo",
                "sim saturation hi", "sim / axis", "model saturation", "model / axis", "consistent")


def axis_table(runs: Sequence[CurveRun], axis: Mapping[int, float] = PAPER_AXIS,
               ticks: int = PAPER_AXIS_TICKS) -> pd.DataFrame:
    """Which set-up's simulation the paper's x axes (Fig. 1) are consistent with, per torus.

    For each torus of ``axis`` that was simulated and each set-up: the
    largest simulated saturation rate over the torus's curves (the curve
    that saturates last, ``M = 32`` when it was run), its bracket, and its
    ratio to the end of the paper's x axis; the same for the model's
    saturation rate.  The reading (stated on the chapter page): a panel's
    axis ends within one tick interval after the last simulated curve
    saturates, so a set-up is ``consistent`` when its simulated saturation
    bracket meets ``[(1 - 1/ticks) * end, end]``.  Columns :data:`AXIS_COLUMNS`.
    """
    ticks = require("ticks", ticks, 1, unit="tick intervals", integer=True)
    rows = []
    for k, end in axis.items():
        mine = [r for r in runs if int(r.curve.model["k"]) == int(k) and r.sim is not None
                and math.isfinite(r.sim_saturation)]
        for setup in dict.fromkeys(r.curve.setup for r in mine):
            sub = [r for r in mine if r.curve.setup == setup]
            last = max(sub, key=lambda r: r.sim_saturation)
            b = last.brackets.get("sim")
            lo, hi = (b.lo, b.hi) if b is not None else (last.sim_saturation, last.sim_saturation)
            start = (1.0 - 1.0 / ticks) * end
            model = max(r.model_saturation for r in sub)
            rows.append(dict(zip(AXIS_COLUMNS, (
                f"{k}x{k}", int(k), setup, float(end), start, describe(last.curve)["curve"], last.sim_saturation, lo,
                hi, last.sim_saturation / end, model, model / end, bool(hi >= start and lo <= end)))))
    return pd.DataFrame(rows, columns=list(AXIS_COLUMNS))


def split_table(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10) -> pd.DataFrame:
    """Model only: saturation rate and latency at half of it for every split ``V = V1 + V2`` allowed."""
    rows = []
    for k in k_values:
        for M in M_values:
            ref = saturation_load(k=k, M=M, V=V)
            for V2 in range(min_escape_levels(k), V):
                sat = saturation_load(k=k, M=M, V=V, escape_levels=V2)
                half = solve(0.5 * ref, k=k, M=M, V=V, escape_levels=V2)
                rows.append({"torus": f"{k}x{k}", "M": M, "V1 (adaptive)": V - V2, "V2 (escape levels)": V2,
                             "model saturation": sat, "latency at half the default's saturation": half.latency})
    return pd.DataFrame(rows)


def cdg_table(sizes: Sequence[int], V: int = 10, *, count_upto: int = 8) -> pd.DataFrame:
    """The deadlock check (:func:`models.torus_nbc.routing_check.check`) on every ``k x k`` of ``sizes``, one row each.

    ``V`` VCs where it is allowed (the minimum ``k/2 + 2`` otherwise); the
    escape dependencies are counted up to ``count_upto x count_upto`` (-1:
    not counted).  ``acyclic`` is the simulator's bookkeeping of the escape
    floor; ``acyclic, class 1`` the same graph with the floor reset after an
    adaptive hop, as the paper's class 1 (eqs. (12)-(13)) reads
    (:func:`models.torus_nbc.routing_check.acyclic_under`).
    """
    frame = pd.concat([check(k, max(int(V), min_vcs(k)), count=k <= count_upto).to_frame() for k in sizes],
                      ignore_index=True)
    frame[CLASS1_ACYCLIC] = [acyclic_under(int(k), "class 1", max(int(V), min_vcs(int(k)))) for k in sizes]
    return frame


#: The column of :func:`cdg_table`: the extended escape CDG acyclic under the paper's class-1 bookkeeping.
CLASS1_ACYCLIC = "acyclic, class 1"


def run_comparison(runs: Sequence[CurveRun], routings: Sequence[str] = tuple(ROUTINGS),
                   settings: SimSettings = _setups.SETTINGS):
    """Simulate every routing on every curve's torus at the rates of ``runs`` (fractions of Duato-Nbc's saturation).

    ``runs`` are Duato-Nbc's simulated runs (:func:`run_figure`), one per
    curve and set-up; every routing is simulated with the run's set-up.
    Returns ``(points, saturation)``: latency (its ``CI``, ``saturated``,
    ``multiplexing`` and measured ``messages``) per (curve, set-up, routing,
    rate) and each routing's own simulated saturation rate
    (:func:`sim_saturation` from Duato-Nbc's) with its bracket ``lo``,
    ``hi`` and its ratio to Duato-Nbc's.
    """
    rows, sats = [], []
    for run in runs:
        if run.sim is None:
            raise ParameterError(f"curve {run.label!r} was not simulated: the comparison needs Duato-Nbc's runs")
        curve = run.curve
        d = describe(curve)
        ref = run.sim_saturation
        fractions, rates = list(run.sim["fraction"]), list(run.sim["load"])
        for routing in routings:
            c = curve.replace(sim={**curve.sim, "routing": routing})
            for f, r, s in zip(fractions, rates, simulate_curve(c, rates, settings)):
                rows.append({**d, "routing": routing, "rate": r, "fraction": f, "latency": s.latency,
                             "CI": s.latency_ci, "saturated": s.saturated, "multiplexing": s.extra["multiplexing"],
                             "messages": s.extra["messages"]})
            if routing == "duato_nbc":
                b = run.brackets.get("sim")
                sat = {"saturation": ref, "lo": b.lo if b else math.nan, "hi": b.hi if b else math.nan}
            else:
                s = _search(c, ref, settings)
                sat = {"saturation": s.load, "lo": s.lo, "hi": s.hi}
            sats.append({**d, "routing": routing, **sat})
    sat = pd.DataFrame(sats)
    base = sat[sat["routing"] == "duato_nbc"].set_index(["curve", "setup"])["saturation"]
    keys = pd.MultiIndex.from_frame(sat[["curve", "setup"]])
    sat["vs Duato-Nbc"] = sat["saturation"].to_numpy() / base.reindex(keys).to_numpy()
    return pd.DataFrame(rows), sat


def routing_verdicts(saturation: pd.DataFrame) -> pd.DataFrame:
    """Per set-up: does Duato-Nbc saturate later than every other routing on every curve?

    From the ``saturation`` table of :func:`run_comparison`.  On a curve
    Duato-Nbc is *ahead* when the low end of its simulated saturation bracket
    is at or above the high end of every other routing's bracket (a gap the
    bisection resolves), *behind* when some other routing's low end is at or
    above Duato-Nbc's high end, and level otherwise.  Columns ``setup``,
    ``curves``, ``ahead``, ``behind`` (curves where it is), ``holds`` (ahead
    on every curve: level is not "better"), ``worst ratio`` (smallest
    Duato-Nbc saturation / best other routing's over the curves), ``best
    other`` (that routing's label on that curve).
    """
    rows = []
    for setup, g in saturation.groupby("setup", sort=False):
        ahead, behind, ratios = 0, 0, []
        curves = list(dict.fromkeys(g["curve"]))
        for curve in curves:
            c = g[g["curve"] == curve]
            nbc = c[c["routing"] == "duato_nbc"].iloc[0]
            others = c[c["routing"] != "duato_nbc"]
            if others.empty:
                continue
            best = others.loc[others["saturation"].idxmax()]
            ratios.append((float(nbc["saturation"]) / float(best["saturation"]), ROUTINGS.get(best["routing"],
                                                                                                 best["routing"])))
            ahead += int(float(nbc["lo"]) >= float(others["hi"].max()))
            behind += int(float(others["lo"].max()) >= float(nbc["hi"]))
        worst = min(ratios) if ratios else (math.nan, "")
        rows.append({"setup": setup, "curves": len(ratios), "ahead": ahead, "behind": behind,
                     "holds": bool(ratios) and ahead == len(ratios), "worst ratio": worst[0], "best other": worst[1]})
    return pd.DataFrame(rows, columns=["setup", "curves", "ahead", "behind", "holds", "worst ratio", "best other"])


# ----------------------------------------------------------------------------
# Beyond the claims: the paper's explanation, latency by routing, VC requirements
# ----------------------------------------------------------------------------
#: The service-time variances of eqs. (18)-(19) compared by :func:`variance_table` (the solver's ``variance``).
VARIANCE_LABELS = {"zero": "variance 0 (deterministic)", "paper": "the paper's (S - M)^2",
                   "exponential": "variance S^2 (exponential)"}

#: Columns of :func:`variance_table`.
VARIANCE_COLUMNS = ("curve", "setup", "k", "M", "sim saturation", "sim saturation lo", "sim saturation hi",
                    *(f"model saturation, {v}" for v in VARIANCE_LABELS),
                    *(f"saturation ratio, {v}" for v in VARIANCE_LABELS),
                    *(f"worst |err| at 25/50/75%, {v}" for v in VARIANCE_LABELS), "within reach")


def variance_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The model with the service-time variance of eqs. (18)-(19) at 0, the paper's and exponential, per run.

    The paper blames its discrepancies around the saturation point on "the
    approximation used to estimate the variance of the service time
    distribution at a channel" (Sect. 4).  For every simulated run (a curve
    on a set-up): the model's saturation rate with each variance of
    :data:`VARIANCE_LABELS` (the solver's ``variance``; 0 and ``S^2``
    bracket the paper's ``(S - M)^2``), its ratio to the simulated saturation
    rate, the worst ``|error|`` at the fixed fractions 25, 50, 75 % (below :data:`BELOW`) of
    the simulated saturation rate (``inf``: the model saturated there), and
    ``within reach``: whether the simulated saturation bracket meets the
    range of the model's saturation rates over the variances (if not, no
    variance from deterministic to exponential service closes the gap).
    Columns :data:`VARIANCE_COLUMNS`; rates in messages/node/cycle.
    """
    rows = []
    for run in runs:
        if run.sim is None or not math.isfinite(run.sim_saturation):
            continue
        d, m = describe(run.curve), dict(run.curve.model)
        b = run.brackets.get("sim")
        lo, hi = (b.lo, b.hi) if b is not None else (run.sim_saturation, run.sim_saturation)
        pts = run.points()
        use = pts[counted_below(pts["fraction"], pts["sim latency"], pts["sim saturated"])]  # the book's cut
        sats, ratios, worst = {}, {}, {}
        for v in VARIANCE_LABELS:
            mv = {**m, "variance": v}
            sats[v] = saturation_load(**mv)
            ratios[v] = sats[v] / run.sim_saturation
            model = np.array([solve(float(x), **mv).latency for x in use["load"]])
            worst[v] = worst_of(np.abs(saturation_aware_error(model, use["sim latency"].to_numpy(dtype=float))))
        reach = bool(max(sats.values()) >= lo and min(sats.values()) <= hi)
        rows.append(dict(zip(VARIANCE_COLUMNS, (d["curve"], d["setup"], d["k"], d["M"], run.sim_saturation, lo, hi,
                                                *sats.values(), *ratios.values(), *worst.values(), reach))))
    return pd.DataFrame(rows, columns=list(VARIANCE_COLUMNS))


def routing_latency_table(points: pd.DataFrame) -> pd.DataFrame:
    """Duato-Nbc's latency against every other routing at the same rates, per set-up, curve and routing.

    ``points`` is the first table of :func:`run_comparison`.  Columns
    ``setup``, ``curve``, ``routing`` (the other one), ``rates`` (rates where
    both are below saturation), ``Duato-Nbc lower`` (at how many of them
    Duato-Nbc's mean latency is the lower), ``lower beyond the CIs`` and
    ``higher beyond the CIs`` (the difference exceeds both 95% half widths),
    and ``latency ratio at 50%`` (the other's latency over Duato-Nbc's at
    half of Duato-Nbc's saturation rate, NaN if not simulated there).
    """
    rows = []
    for (setup, curve), g in points.groupby(["setup", "curve"], sort=False):
        nbc = g[g["routing"] == "duato_nbc"].set_index("fraction")
        for routing in [r for r in dict.fromkeys(g["routing"]) if r != "duato_nbc"]:
            o = g[g["routing"] == routing].set_index("fraction")
            both = nbc.index.intersection(o.index)
            a, b = nbc.loc[both], o.loc[both]
            ok = np.isfinite(a["latency"].to_numpy(dtype=float)) & np.isfinite(b["latency"].to_numpy(dtype=float))
            a, b = a[ok], b[ok]
            ci = a["CI"].fillna(0.0).to_numpy(dtype=float) + b["CI"].fillna(0.0).to_numpy(dtype=float)
            diff = b["latency"].to_numpy(dtype=float) - a["latency"].to_numpy(dtype=float)
            half = [f for f in both if np.isclose(f, 0.5)]
            ratio = (float(o.loc[half[0], "latency"]) / float(nbc.loc[half[0], "latency"])) if half else math.nan
            rows.append({"setup": setup, "curve": curve, "routing": routing, "rates": int(ok.sum()),
                         "Duato-Nbc lower": int((diff > 0).sum()), "lower beyond the CIs": int((diff > ci).sum()),
                         "higher beyond the CIs": int((diff < -ci).sum()), "latency ratio at 50%": ratio})
    return pd.DataFrame(rows, columns=["setup", "curve", "routing", "rates", "Duato-Nbc lower", "lower beyond the CIs",
                                       "higher beyond the CIs", "latency ratio at 50%"])


def vc_requirements(k_values: Sequence[int]) -> pd.DataFrame:
    """The fewest VCs per physical channel each routing needs to be deadlock-free on a ``k x k`` bidirectional torus.

    From the simulator (:func:`models.sim.wormhole.routing.min_vcs`):
    Duato-Nbc (``k/2 + 1`` escape levels and one adaptive VC, the chapter's
    own :func:`~models.torus_nbc.params.min_vcs`), Nbc alone (the escape
    levels), Duato's routing with dateline escape VCs and dimension order.
    Columns ``k``, ``torus``, one per routing (``duato_nbc``, ``nbc``,
    ``duato``, ``dor``), ``fewest other fully adaptive`` (the smallest of
    ``nbc`` and ``duato``).
    """
    from ..sim.wormhole.routing import min_vcs as sim_min_vcs  # heavy (numba): only where it is asked for

    rows = []
    for k in k_values:
        topo = Torus((int(k), int(k)), bidirectional=True)
        need = {r: int(sim_min_vcs(topo, r)) for r in ("duato_nbc", "nbc", "duato", "dor")}
        if need["duato_nbc"] != min_vcs(int(k)):
            raise ParameterError(f"the simulator's minimum VCs for Duato-Nbc on {k}x{k} ({need['duato_nbc']}) is not "
                                 f"the chapter's k/2 + 2 = {min_vcs(int(k))}")
        rows.append({"k": int(k), "torus": f"{k}x{k}", **need,
                     "fewest other fully adaptive": min(need["nbc"], need["duato"])})
    return pd.DataFrame(rows, columns=["k", "torus", "duato_nbc", "nbc", "duato", "dor", "fewest other fully adaptive"])


def value_range(values, fmt: str) -> str:
    """The finite ``values`` as ``"<lo> to <hi>"`` in the format ``fmt`` (one value when both read the same;
    ``"n/a"`` when none is finite): how the claims' notes and the glued sentences quote a range."""
    values = [float(v) for v in values if math.isfinite(float(v))]
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return format(lo, fmt) if format(lo, fmt) == format(hi, fmt) else f"{format(lo, fmt)} to {format(hi, fmt)}"
