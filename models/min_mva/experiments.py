"""The paper's experiments: which configurations make each figure, how a curve is simulated and run, the tables.

Figures 2-8 of Willick & Eager (1990) plot the mean response time ``R``
(cycles) and the throughput ``X`` (requests/cycle) against ``NC`` for one
hardware configuration and two or three memory service times.  Each figure
is a :class:`~models.core.setups.Figure` of
:class:`~models.core.setups.Curve` objects whose loads are the ``NC``
values (:func:`paper_figure`; ``FIGURES`` by label, on the default grid
:data:`NC_GRID`), each curve the checked configuration of a
:class:`~models.min_mva.params.MvaParams` on a simulator set-up
(:func:`models.min_mva.setups.network_curve`).  :func:`run_figure` solves
the model at every ``NC`` and, optionally, simulates the same configuration
with the closed simulator (:func:`models.sim.closed_min.simulate`, which
caches every point itself), through :func:`models.core.experiment.run_curve`.
:func:`curves_table`, :func:`error_tables`, :func:`analytic_tables`,
:func:`simulation_verdicts`, :func:`bias_table`, :func:`memory_queueing`,
:func:`processor_queueing` and :func:`symbolic_checks` turn the runs into the
chapter's tables.  The notebooks only choose ``NC`` values and run lengths,
call these, and plot (:mod:`models.min_mva.plots`).

The x axis is the load ``NC`` itself (the paper's grid), not fractions of a
saturation load: the system is closed and never saturates.  Each run still
records the saturation population ``N*`` of the asymptotic bounds
(:func:`models.min_mva.saturation_load`) as its ``model_saturation``.

The one simulation hook of every chapter: :func:`sim_kwargs` (the keywords
of one simulated point, ``NC`` an integer), :func:`simulate_curve` (one
:class:`~models.core.results.SimPoint` per ``NC``, ``R`` its latency: what
``models.min_mva.compare`` and ``python -m models.min_mva curve --simulate``
show) and :func:`run_figure`.  Run lengths are a
:class:`~models.core.setups.SimSettings` counted in cycles (``cycles``, the
warm-up included, and ``warmup_cycles``); the book's are
:data:`models.min_mva.setups.SETTINGS`.  A closed system has no saturation
load, so there is no ``sim_saturation``.

Simulator set-ups (:mod:`models.min_mva.setups`): every curve carries the
name of the set-up its simulation rests on (``Curve.setup``, ``"paper"`` by
default); :func:`~models.min_mva.setups.with_setup` moves a curve to another
(the return network's wiring, for the model and the simulator alike), and
the tables carry a ``setup`` column.  The claims and reproductions tables
are :mod:`models.min_mva.claims`'s; the numbers and sentences the pages glue
:mod:`models.min_mva.glue`'s.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.reproductions import reproduction_row
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.results import SimPoint, ci_column
from ..core.setups import Curve, Figure, SimSettings, named_setup
from ..core.validate import require
from ..core.validation import compare
from ..sim import closed_min
from ..sim.sweep import run_sweep
from . import LOAD, LOAD_UNIT, paper_tables
from .params import MvaParams
from .setups import DEFAULT_SETUP, SETTINGS, SETUPS, network_curve, with_setup
from .solve import saturation_load, solve

__all__ = ["NC_GRID", "FIGURES", "SINGLE_PACKET", "MULTI_PACKET", "SIM_KEYS", "paper_figure", "sim_params",
           "sim_kwargs", "simulate_curve", "model_point", "run_figure", "curves_table", "error_tables",
           "AGREEMENT_GROUPS", "analytic_tables", "simulation_verdicts", "bias_table", "memory_queueing",
           "processor_queueing", "NO_QUEUEING_ATOL", "symbolic_checks"]

CHAPTER = "min_mva"

#: The ``NC`` values of the figures (outstanding requests per processor): the paper's range 1 to 32.
NC_GRID = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)

_NC_UNIT = "outstanding requests per processor"


def _omega(**kw) -> MvaParams:
    """The paper's 64-processor omega network of ``2 x 2`` switches, ``S_pe = 1``, uniform traffic, with ``kw``."""
    return MvaParams(**{**dict(topology="omega", k=2, n=6, S_pe=1.0, m=1, pattern="uniform"), **kw})


#: Each paper figure's title and curves ``(label, configuration)``.
_PAPER = {
    2: ("64 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1, 2 and 4",
        [(f"S_mm={s}", _omega(S_mm=s)) for s in (1, 2, 4)]),
    3: ("64 processors, 2x2 switches, hot-spot traffic, S_pe = 1, S_mm = 2",
        [("hot spot, S_mm=2", _omega(S_mm=2, pattern="hot_spot"))]),
    4: ("64 processors, 4x4 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
        [(f"S_mm={s}", _omega(k=4, n=3, S_mm=s)) for s in (1, 2)]),
    5: ("128 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
        [(f"S_mm={s}", _omega(n=7, S_mm=s)) for s in (1, 2)]),
    6: ("64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 2, S_mm = 2 and 4",
        [(f"m=2, S_mm={s}", _omega(m=2, S_mm=s)) for s in (2, 4)]),
    7: ("64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 4, S_mm = 4 and 8",
        [(f"m=4, S_mm={s}", _omega(m=4, S_mm=s)) for s in (4, 8)]),
    8: ("64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 8, S_mm = 8 and 16",
        [(f"m=8, S_mm={s}", _omega(m=8, S_mm=s)) for s in (8, 16)]),
}


def _NCs(NC_values) -> tuple:
    if isinstance(NC_values, (str, bytes)) or not isinstance(NC_values, (Sequence, np.ndarray)) or not len(NC_values):
        raise ParameterError(f"`NC_values` must be a non-empty sequence of integers >= 1; got {NC_values!r}")
    return tuple(require("NC", nc, 1, unit=_NC_UNIT, integer=True) for nc in NC_values)


def paper_figure(number: int, NC_values: Sequence[int] = NC_GRID) -> Figure:
    """The paper's Fig. ``number`` (2-8) at the loads ``NC_values``, every curve on the set-up ``"paper"``.

    Each curve's ``model`` holds the checked keyword arguments of
    :func:`solve` (:func:`~models.min_mva.setups.network_curve`; the simulator
    takes the same, :func:`sim_params`); its ``loads`` are the ``NC`` values
    (integers >= 1).
    """
    if number not in _PAPER:
        raise ParameterError(f"`number` must be one of the paper's figures {sorted(_PAPER)}; got {number!r}")
    NCs = _NCs(NC_values)
    title, curves = _PAPER[number]
    return Figure(
        label=f"fig-{CHAPTER}-fig{number}", title=title,
        curves=tuple(network_curve(config, DEFAULT_SETUP, label=label, loads=NCs) for label, config in curves),
        x_label=LOAD, x_unit=LOAD_UNIT, y_label="mean response time R", y_unit="cycles", quantity="R",
    )


#: The paper's Figs. 2-8 by label (``"fig-min_mva-fig2"``), on the grid :data:`NC_GRID` and the set-up ``"paper"``.
FIGURES: dict[str, Figure] = {f.label: f for f in (paper_figure(n) for n in sorted(_PAPER))}

#: The paper's single-packet and multi-packet figures, by number.
SINGLE_PACKET = (2, 3, 4, 5)
MULTI_PACKET = (6, 7, 8)


# ----------------------------------------------------------------------------
# Model -> simulator
# ----------------------------------------------------------------------------
#: The model's keyword arguments that the closed simulator takes too (same names, same units): the
#: multiprocessor's (:class:`~models.min_mva.params.MvaParams`).
SIM_KEYS = MvaParams.KEYWORDS


def sim_params(model: Mapping, sim: Mapping | None = None) -> dict:
    """Keyword arguments of :func:`models.sim.closed_min.simulate` for a model configuration.

    The closed simulator models the same system with the same parameters
    (names and units), so the translation keeps the model's configuration
    keys (:data:`SIM_KEYS`), as the curve's :class:`~models.min_mva.params.MvaParams`
    checked them (no second check here), drops the solver's iteration
    controls (``damping``, ``tol``, ...), and applies ``sim`` (a curve's
    simulator overrides) on top.  ``NC`` and the run lengths are added per point.
    """
    params = {key: value for key, value in model.items() if key in SIM_KEYS}
    params.update(sim or {})
    return params


def sim_kwargs(curve: Curve, load: int, settings: SimSettings = SETTINGS, *, max_cycles: int | None = None) -> dict:
    """Every keyword argument of the :func:`models.sim.closed_min.simulate` call of ``curve`` at ``NC = load``.

    The curve's configuration (:func:`sim_params` of ``curve.model`` with
    ``curve.sim`` on top), ``NC`` (an integer >= 1), the run lengths of
    ``settings`` (``cycles``, the warm-up included, and ``warmup_cycles``;
    with ``settings.target_ci``, ``cycles`` is the first run, lengthened up to
    ``max_cycles`` until ``R`` and ``X`` are that precise), its batches and
    seed: what makes one simulated point (and its cache key).
    """
    NC = require("NC", load, 1, unit=_NC_UNIT, integer=True)
    if not isinstance(settings, SimSettings) or settings.cycles is None or settings.warmup_cycles is None:
        raise ParameterError(f"`settings` must be a SimSettings with `cycles` and `warmup_cycles` (a closed "
                             f"system's run length); got {settings!r}")
    kw = dict(sim_params(curve.model, curve.sim), NC=NC, cycles=settings.cycles, warmup=settings.warmup_cycles,
              batches=settings.batches, seed=settings.seed)
    if settings.target_ci is not None:
        kw.update(target_ci=settings.target_ci, max_cycles=max_cycles)
    return kw


def _simulations(curve: Curve, loads: Sequence, settings: SimSettings, max_cycles: int | None) -> list:
    """The closed simulator's results at every ``NC`` of ``loads`` (each cached by the simulator itself)."""
    bad = [x for x in loads if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating))
           or not float(x).is_integer() or float(x) < 1]
    if bad:
        raise ParameterError(f"`loads` must be integers >= 1 to simulate (NC, requests/processor); got {bad[0]!r}")
    points = [sim_kwargs(curve, int(x), settings, max_cycles=max_cycles) for x in loads]
    return run_sweep(points, simulate_fn=closed_min.simulate, jobs=settings.jobs, cache=False, progress=settings.progress)


def simulate_curve(curve: Curve, loads: Sequence[int], settings: SimSettings = SETTINGS, *,
                   max_cycles: int | None = None) -> list[SimPoint]:
    """The simulated response time at every ``NC`` of ``loads``: one :class:`~models.core.results.SimPoint` per load.

    ``latency`` is ``R`` (cycles), ``latency_ci`` its 95% half width (batch
    means), ``saturated`` always False (a closed system); the extras ``X`` and
    ``X CI`` the throughput (requests/cycle).  ``loads`` must be integers >= 1 (the
    simulator's population).  One :func:`models.sim.sweep.run_sweep` of
    :func:`sim_kwargs` over ``settings.jobs`` processes; the simulator caches
    every point on disk itself.
    """
    return [SimPoint(r.R, r.R_ci, extra={"X": r.X, ci_column("X"): r.X_ci})
            for r in _simulations(curve, loads, settings, max_cycles)]


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def model_point(curve: Curve, NC) -> dict:
    """The model at one ``NC``: ``R`` (cycles), ``X`` (requests/cycle), ``iterations``, ``saturated``."""
    res = solve(NC, **curve.model)
    return {"R": res.R, "X": res.X, "iterations": res.iterations, "saturated": res.saturated}


def _model_saturation(curve: Curve) -> float:
    return saturation_load(**curve.model)


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               setups: Sequence[str] = (DEFAULT_SETUP,), max_cycles: int | None = None) -> tuple[CurveRun, ...]:
    """Model (and simulation) of every curve of ``figure`` on every set-up of ``setups`` (set-up outermost).

    Each curve runs at its own loads (``NC``, integers >= 1) through
    :func:`models.core.experiment.run_curve`, moved to the set-up first
    (:func:`~models.min_mva.setups.with_setup`).  Returns one
    :class:`~models.core.experiment.CurveRun` per (set-up, curve)
    (quantity ``"R"``): ``model`` has ``R`` (cycles), ``X``
    (requests/cycle), ``iterations``; with ``simulate``, ``sim`` has ``R``,
    ``R CI``, ``X``, ``X CI`` (95% half widths by batch means), ``MM`` and
    ``MM CI`` (the mean residence per memory visit), ``cycles`` (the run's, warm-up included) and ``max cycles``
    (the longest the simulator would have run it: its cap with a precision target, else ``cycles``) of the runs of
    ``settings`` (:func:`sim_kwargs`; with ``settings.target_ci`` up to
    ``max_cycles`` cycles; each point a :class:`~models.core.results.SimPoint`
    whose latency is ``R``, the compared quantity named as such).
    ``model_saturation`` is ``N*``.
    """
    if not isinstance(figure, Figure):
        raise ParameterError(f"`figure` must be a Figure (e.g. paper_figure(2)); got {figure!r}")
    if isinstance(setups, str) or not setups:
        raise ParameterError(f"`setups` must be a non-empty sequence of set-up names {list(SETUPS)}; got {setups!r}")
    curves = [with_setup(c.replace(loads=_NCs(c.loads)), named_setup(SETUPS, s).name)
              for s in setups for c in figure.curves]

    def sim(curve: Curve, loads: list) -> list[SimPoint]:
        return [SimPoint(r.R, r.R_ci, extra={"R": r.R, ci_column("R"): r.R_ci, "X": r.X, ci_column("X"): r.X_ci,
                                             "MM": r.stage_residence["MM"], ci_column("MM"): r.stage_ci["MM"],
                                             "cycles": r.cycles, "max cycles": r.params.get("max_cycles", r.cycles)})
                for r in _simulations(curve, loads, settings, max_cycles)]

    return each_curve(curves, lambda c: run_curve(c, model=model_point, sim=sim if simulate else None,
                                                  model_saturation=_model_saturation, quantity="R"))


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def curves_table(results: Mapping[int, Sequence[CurveRun]]) -> pd.DataFrame:
    """One row per (figure, curve, set-up, NC) of ``{figure number: runs}``.

    Columns ``figure``, ``curve``, ``setup``, ``NC``, ``model R`` (cycles), ``model X``
    (requests/cycle), ``iterations`` and, for simulated runs, ``sim R``,
    ``sim R CI``, ``sim X``, ``sim X CI`` (95% half widths).
    """
    rows = []
    for number, runs in results.items():
        for run in runs:
            model = run.model.drop_duplicates("load").set_index("load")
            for i, nc in enumerate(run.curve.loads):
                m = model.loc[nc]
                row = {"figure": number, "curve": run.label, "setup": run.curve.setup, "NC": int(nc),
                       "model R": float(m["R"]),
                       "model X": float(m["X"]), "iterations": int(m["iterations"])}
                if run.sim is not None:
                    s = run.sim.iloc[i]
                    row.update({"sim R": float(s["R"]), "sim R CI": float(s[ci_column("R")]),
                                "sim X": float(s["X"]), "sim X CI": float(s[ci_column("X")])})
                rows.append(row)
    return pd.DataFrame(rows)


def error_tables(results: Mapping[int, Sequence[CurveRun]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Point-by-point and per-curve model-vs-simulation errors for ``R`` and ``X``.

    ``results`` is ``{figure number: simulated runs}``.  Returns
    ``(points, summary)``: ``points`` has one row per (curve, set-up, NC,
    quantity) (``curve``, ``figure``, ``setup``, ``quantity``, ``NC``,
    ``model``, ``sim``, ``sim 95% CI``, ``rel. error``, ``in CI``;
    :func:`models.core.validation.compare`); ``summary`` one row per (curve,
    set-up, quantity) from :func:`models.core.experiment.error_table`:
    ``curve``, ``setup``, ``points``, max and mean absolute relative error,
    and how many model points fall inside the simulation's 95% interval
    (``"k/n"``).  Curves are named ``"Fig. <number>, <label>: <quantity>"``,
    all ``R`` rows first.
    """
    parts, summary = [], []
    for q in ("R", "X"):
        for number, runs in results.items():
            for run in runs:
                pts = run.points(q)
                cmp = compare(pts["load"].to_numpy().astype(int), pts[f"model {q}"], pts[f"sim {q}"],
                              pts["sim " + ci_column(q)], curve=f"Fig. {number}, {run.label}: {q}", x_name="NC",
                              quantity=q)
                cmp.insert(1, "figure", number)
                cmp.insert(2, "setup", run.curve.setup)
                cmp.insert(3, "quantity", q)
                parts.append(cmp.rename(columns={f"model {q}": "model", f"sim {q}": "sim"}))
            table = error_table(runs, at=None, quantity=q)
            for run, row in zip(runs, table.to_dict("records")):
                summary.append({
                    "curve": f"Fig. {number}, {run.label}: {q}",
                    "setup": run.curve.setup,
                    "points": int(row["points"]),
                    "max |rel. error|": row["max |err| [%]"] / 100.0,
                    "mean |rel. error|": row["mean |err| [%]"] / 100.0,
                    "in CI": f"{int(row['in CI'])}/{int(row['points'])}",
                })
    return pd.concat(parts, ignore_index=True), pd.DataFrame(summary)


#: The ``NC`` groups whose analytic entries ``04-tables`` counts against the printed precision, per table.
AGREEMENT_GROUPS = {1: {"2, 4, 8": (2, 4, 8), "16, 32": (16, 32)}, 2: {"2-32": (2, 4, 8, 16, 32)}}


def analytic_tables(t1: pd.DataFrame, t2: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The analytic columns of Tables 1 and 2 against the paper's: ``(accuracy, agreement, excess)``.

    ``t1``, ``t2``: :func:`~models.min_mva.paper_tables.compare_table` frames.
    ``accuracy``: :func:`~models.min_mva.paper_tables.analytic_summary` of
    both; ``agreement``: :func:`~models.min_mva.paper_tables.analytic_agreement`
    over :data:`AGREEMENT_GROUPS`; ``excess``:
    :func:`~models.min_mva.paper_tables.printed_R_excess` of both tables.
    """
    acc = pd.concat([paper_tables.analytic_summary(t1, 1), paper_tables.analytic_summary(t2, 2)], ignore_index=True)
    agree = pd.concat([paper_tables.analytic_agreement(t, which, AGREEMENT_GROUPS[which])
                       for which, t in ((1, t1), (2, t2))], ignore_index=True)
    excess = pd.concat([paper_tables.printed_R_excess(1), paper_tables.printed_R_excess(2)], ignore_index=True)
    return acc, agree, excess


#: The columns of :func:`simulation_verdicts`.
SIMULATION_VERDICT_COLUMNS = ["table", "setup", "agreeing", "entries", "share", "blocks missed", "blocks", "may miss",
                              "largest std", "flips at", "verdict"]


def simulation_verdicts(tabs: Mapping) -> pd.DataFrame:
    """The simulation column of each simulated comparison of ``tabs``, by the book's table rule.

    ``tabs``: ``{(table number, set-up): compare_table frame}`` of simulated
    :func:`~models.min_mva.paper_tables.run_table` runs.  One row per
    comparison: ``table``, ``setup``, ``agreeing`` and ``entries`` (entries
    within their 95% band, ``sim_agrees``), ``share``, ``blocks missed`` of
    ``blocks`` (one per NC), ``may miss`` (the blocks a reproduced column may
    miss), ``largest std`` (the largest ``|difference| / band``),
    ``flips at`` (the paper run length, measured cycles, at which the
    outcome flips; NaN: not between 10^3 and 10^8) and ``verdict``, the
    table rule's own (:func:`models.core.reproductions.reproduction_row`:
    ``"reproduced"`` or ``"not reproduced"``).
    """
    rows = []
    for (which, setup), tab in tabs.items():
        a = paper_tables.simulation_agreement(tab)
        rule = reproduction_row(CHAPTER, f"table{which}-simulation", f"Table {which}", "Sec. 3.3",
                                f"simulation, set-up {setup}", "simulation", tab["sim"],
                                paper_tables.printed_centre(tab["paper_sim"]), tab["sim_band"], blocks=tab["NC"],
                                printed_step=paper_tables.PRINTED_UNIT,
                                dof=paper_tables.simulation_dof(tab),
                                bands_at=lambda x, tab=tab: paper_tables.simulation_bands_at(tab, x))
        rows.append({"table": which, "setup": setup, "agreeing": a["agreeing"], "entries": a["entries"],
                     "share": float(a["share"]), "blocks missed": rule["blocks_missed"], "blocks": rule["blocks"],
                     "may miss": rule["allowed"], "largest std": rule["largest_std"], "flips at": rule["flips_at"],
                     "verdict": rule["verdict"]})
    return pd.DataFrame(rows, columns=SIMULATION_VERDICT_COLUMNS)


def bias_table(tabs: Mapping, setups: Sequence[str]) -> pd.DataFrame:
    """The paper's sentence on its tables (:func:`~models.min_mva.paper_tables.bias_pattern`), per set-up.

    ``tabs``: ``{(table number, set-up): compare_table frame}``; ``setups``:
    the set-ups to show, the reference first.  One row per set-up (``setup``,
    ``tables``, the shares of :func:`~models.min_mva.paper_tables.bias_pattern`
    on our simulation, ``columns``, ``entries``), the paper's own columns
    (its model against its simulation, ``setup`` = ``"the paper's own
    columns"``) first, read on the reference set-up's tables.
    """
    rows = []
    for setup in setups:
        b = paper_tables.bias_pattern([tab.assign(table=w) for (w, s), tab in tabs.items() if s == setup])
        rows.append({"setup": setup, "tables": ", ".join(str(w) for (w, s) in tabs if s == setup),
                     **{k: v for k, v in b.items() if not k.startswith("paper_")}})
        if setup == setups[0]:
            rows.insert(0, {"setup": "the paper's own columns", "tables": rows[-1]["tables"],
                            **{k[len("paper_"):]: v for k, v in b.items() if k.startswith("paper_")},
                            "columns": b["columns"], "entries": b["entries"]})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# What our simulation says of the paper's sentences on queueing, and what SymPy says of its special cases
# ----------------------------------------------------------------------------
def memory_queueing(results: Mapping[int, Sequence[CurveRun]]) -> pd.DataFrame:
    """The memories' queueing in our simulation of the multi-packet figures, per (figure, curve, set-up, NC).

    ``results``: ``{figure: runs}`` of :func:`run_figure` (simulated).
    Columns ``figure``, ``curve``, ``setup``, ``m``, ``S_mm``, ``NC``, ``sim
    MM`` (the mean residence per memory visit, lead packet's arrival to end
    of service), ``no queueing`` (``m - 1 + S_mm``, its value when no
    request ever waits) and ``excess`` (their difference: zero exactly when
    no request waited at a memory in the measured window).
    """
    rows = []
    for number, runs in results.items():
        for run in runs:
            if run.sim is None or "MM" not in run.sim:
                continue
            m, s_mm = int(run.curve.model.get("m", 1)), float(run.curve.model["S_mm"])
            for load, mm in zip(run.sim["load"], run.sim["MM"]):
                rows.append({"figure": number, "curve": run.label, "setup": run.curve.setup, "m": m, "S_mm": s_mm,
                             "NC": int(load), "sim MM": float(mm), "no queueing": m - 1 + s_mm,
                             "excess": float(mm) - (m - 1 + s_mm)})
    return pd.DataFrame(rows, columns=["figure", "curve", "setup", "m", "S_mm", "NC", "sim MM", "no queueing",
                                       "excess"])


def processor_queueing(settings: SimSettings = SETTINGS, *, ms: Sequence[int] = (2, 4),
                       NC_values: Sequence[int] = (4, 16), max_cycles: int | None = None) -> pd.DataFrame:
    """Does the processor queue at ``S_pe = 1`` and at ``S_pe = m``?  Our simulation of Figs. 6-8's network.

    Sec. 4.3 says eq. (6) "is correct for S_pe = m since ... no queueing is
    predicted".  For each ``m`` of ``ms`` the network of Figs. 6-8 (64
    processors, 2 x 2 omega, uniform, ``S_mm = m``) is simulated at ``S_pe =
    1`` and at ``S_pe = m`` for every ``NC`` of ``NC_values``.  A request slot
    freed by a reply spends ``T = (NC - L_i) / X_i`` cycles at its processor
    (Little's law over the processor's slots: ``L_i`` outstanding, ``X_i``
    completed per cycle) before its next request is sent; without queueing
    ``T`` is the mean number of issue trials, ``S_pe``.  Columns ``m``,
    ``S_pe``, ``NC``, ``T`` (the mean over the processors), ``T - S_pe``
    (the processor's queueing delay per request) and ``sim R``.
    """
    rows = []
    for m in ms:
        for s_pe in dict.fromkeys((1, m)):
            curve = network_curve(_omega(m=m, S_mm=m, S_pe=float(s_pe)), DEFAULT_SETUP,
                                  label=f"m={m}, S_pe={s_pe}", loads=tuple(NC_values))
            for nc, r in zip(NC_values, _simulations(curve, list(NC_values), settings, max_cycles)):
                T = float(np.mean((nc - np.asarray(r.L_i)) / np.asarray(r.X_i)))
                rows.append({"m": m, "S_pe": s_pe, "NC": int(nc), "T": T, "T - S_pe": T - s_pe, "sim R": float(r.R)})
    return pd.DataFrame(rows, columns=["m", "S_pe", "NC", "T", "T - S_pe", "sim R"])


#: The mean memory residence counts as "no queueing" when it exceeds ``m - 1 + S_mm`` by at most this (cycles):
#: float rounding of a mean of integers, nothing more.
NO_QUEUEING_ATOL = 1e-9


def _zero(expr) -> bool:
    import sympy as sp  # SymPy only where a special case is decided (not on `import ...experiments`)

    return bool(sp.simplify(expr) == 0)


def symbolic_checks() -> dict:
    """The special cases of Secs. 3.3 and 4.3, decided from the SymPy derivations (:mod:`.equations`).

    Returns ``{name: bool}``:

    ``kruskal_snir_single``
        eq. (1) reduces to Kruskal & Snir's switch formula, forward (one
        input) and return (every input) network;
    ``kruskal_snir_m``, ``kruskal_snir_m_printed``
        eq. (4) with the factor ``m`` the text asks for (both networks), and
        eq. (4) as printed, reduce to the m-packet formula;
    ``switch_1x1_single``, ``switch_1x1_m``
        eq. (1), eq. (4) predict no queueing at a 1 x 1 switch (``r = 1``);
    ``memory_single``, ``processor_single``, ``memory_m``
        eqs. (2) at ``S_mm = 1``, (3) at ``S_pe = 1``, (5) at ``S_mm = m``:
        every queueing term vanishes;
    ``processor_m_spe1``, ``processor_m_spem``
        eq. (6) at ``S_pe = 1`` and at ``S_pe = m``: every queueing term vanishes.
    """
    from .equations import kruskal_snir_reduction, no_queueing_reductions, one_by_one_reduction  # SymPy: only here

    nq = no_queueing_reductions()
    out = {
        "kruskal_snir_single": all(_zero(kruskal_snir_reduction("single", ports)["difference"])
                                   for ports in ("one", "all")),
        "kruskal_snir_m": all(_zero(kruskal_snir_reduction("m", ports)["difference"]) for ports in ("one", "all")),
        "kruskal_snir_m_printed": _zero(kruskal_snir_reduction("printed", "one")["difference"]),
    }
    for packets in ("single", "m"):
        one = one_by_one_reduction(packets)
        out[f"switch_1x1_{packets}"] = _zero(one["term_c"]) and _zero(one["r"] - 1)
    for key in ("memory_single", "processor_single", "memory_m", "processor_m_spe1", "processor_m_spem"):
        out[key] = all(_zero(t) for t in nq[key]["terms"])
    return out

