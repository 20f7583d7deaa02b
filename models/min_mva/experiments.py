"""The paper's experiments: which configurations make each figure, how a curve is run, the claims and glued numbers.

Figures 2-8 of Willick & Eager (1990) plot the mean response time ``R``
(cycles) and the throughput ``X`` (requests/cycle) against ``NC`` for one
hardware configuration and two or three memory service times.  Each figure
is a :class:`~models.core.setups.Figure` of
:class:`~models.core.setups.Curve` objects whose loads are the ``NC``
values (:func:`paper_figure`; ``FIGURES`` by label, on the default grid
:data:`NC_GRID`).  :func:`run_figure` solves the model at every ``NC`` and,
optionally, simulates the same configuration with the closed simulator
(:func:`models.sim.closed_min.simulate`, which caches every point itself),
through :func:`models.core.experiment.run_curve`.  :func:`curves_table` and
:func:`error_tables` turn the runs into the chapter's tables.  The
notebooks only choose ``NC`` values and run lengths, call these, and plot
(:mod:`models.min_mva.plots`).

The x axis is the load ``NC`` itself (the paper's grid), not fractions of a
saturation load: the system is closed and never saturates.  Each run still
records the saturation population ``N*`` of the asymptotic bounds
(:func:`models.min_mva.saturation_load`) as its ``model_saturation``.

The one simulation hook of every chapter: :func:`sim_kwargs` (the keywords
of one simulated point, ``NC`` an integer), :func:`simulate_curve` (``R`` as
the ``latency`` of every ``NC``, what ``python -m models.min_mva curve
--simulate`` prints) and :func:`run_figure`.  Run lengths are a
:class:`~models.core.setups.SimSettings` counted in cycles (``cycles``, the
warm-up included, and ``warmup_cycles``); :data:`SETTINGS` is the full
profile's.

Simulator set-ups (:mod:`models.min_mva.setups`, :class:`~models.core.setups.SimulatorSetup`
objects): every curve carries the name of the set-up its simulation rests on
(``Curve.setup``, ``"paper"`` by default); :func:`with_setup` moves a curve
to another (the return network's wiring, for the model and the simulator
alike), and the tables carry a ``setup`` column.

The claims table (:func:`claims_table`, :data:`CLAIMS`): one claim per
sentence of the paper (:class:`~models.core.claims.Claim`, quoted whole),
one row per set-up and case (a figure, a reading, an equation); rows on the
return network's other wiring, which the paper did not simulate, are a
configuration beyond the paper's (``paper_config=False``).  Each notebook
writes the rows of the claims it computes
(:func:`models.core.claims.save_claims` with ``owns=CLAIM_NOTEBOOKS[notebook]``),
so ``tables/tab-min_mva-claims.csv`` is complete once the chapter's four
notebooks have run, in any order.  The paper's Tables 1 and 2 are not
claims: :func:`reproductions_table` judges them by the book's table rule
(``tables/tab-min_mva-reproductions.csv``, written by ``04-tables``).  Every
number and sentence the pages glue comes from a ``glue_values_*`` function here.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import CLAIM_COLUMNS, REPRO_COLUMNS, Claim, claims_frame, reproduction_row
from ..core.setups import SimSettings, named_setup
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.setups import Curve, Figure
from ..core.tables import join_words
from ..core.validate import require
from ..core.validation import compare
from ..sim import closed_min
from ..sim.sweep import run_sweep
from . import LOAD, LOAD_UNIT, paper_tables
from .readings import EQ1_READINGS
from .setups import DEFAULT_SETUP, SETUPS
from .solve import saturation_load, solve

__all__ = ["CYCLES", "WARMUP_CYCLES", "SETTINGS", "NC_GRID", "FIGURES", "SINGLE_PACKET", "MULTI_PACKET", "SIM_KEYS",
           "SETUPS", "DEFAULT_SETUP", "paper_figure", "with_setup", "sim_params", "sim_kwargs", "simulate_curve",
           "model_point", "run_figure", "curves_table", "error_tables", "AGREEMENT_GROUPS", "analytic_tables",
           "CLAIMS", "CLAIM_IDS", "CLAIM_NOTEBOOKS", "CLAIM_FIGURES", "FIGURE_CASES", "REPRODUCED", "symbolic_checks",
           "claims_table", "worst_points", "memory_queueing", "processor_queueing", "NO_QUEUEING_ATOL",
           "reproductions_table", "glue_values_derivation", "glue_values_figures", "glue_values_queueing",
           "glue_values_tables"]

#: Default simulation run lengths (cycles) of the full profile: total cycles and the discarded warm-up.
CYCLES = 200_000
WARMUP_CYCLES = 20_000
#: The run lengths of a simulated point unless a notebook says otherwise (a closed system counts cycles).
SETTINGS = SimSettings(cycles=CYCLES, warmup_cycles=WARMUP_CYCLES)
#: The ``NC`` values of the figures (outstanding requests per processor): the paper's range 1 to 32.
NC_GRID = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)

_NC_UNIT = "outstanding requests per processor"


def _omega(**kw) -> dict:
    base = dict(topology="omega", k=2, n=6, S_pe=1.0, m=1, pattern="uniform")
    base.update(kw)
    return base


def with_setup(curve: Curve, setup: str) -> Curve:
    """``curve`` on simulator set-up ``setup`` (:data:`SETUPS`): its overrides go to the model and the simulator.

    The set-up's keywords (the return network's wiring) describe the network,
    so the model is solved for the same network that is simulated; nothing
    else of the curve changes.
    """
    over = named_setup(SETUPS, setup).sim(curve.model)
    return curve.replace(model={**curve.model, **over}, sim={**curve.sim, **over}, setup=setup)


#: Each paper figure's title and curves ``(label, keyword arguments of solve)``.
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

    Each curve's ``model`` holds the keyword arguments of :func:`solve` (the
    simulator takes the same, :func:`sim_params`); its ``loads`` are the
    ``NC`` values (integers >= 1).
    """
    if number not in _PAPER:
        raise ParameterError(f"`number` must be one of the paper's figures {sorted(_PAPER)}; got {number!r}")
    NCs = _NCs(NC_values)
    title, curves = _PAPER[number]
    return Figure(
        label=f"fig-min_mva-fig{number}", title=title,
        curves=tuple(with_setup(Curve(label, model=config, loads=NCs), DEFAULT_SETUP) for label, config in curves),
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
#: The model's keyword arguments that the closed simulator takes too (same names, same units).
SIM_KEYS = ("topology", "k", "n", "S_pe", "S_mm", "m", "pattern", "pattern_options", "return_wiring")


def sim_params(model: Mapping, sim: Mapping | None = None) -> dict:
    """Keyword arguments of :func:`models.sim.closed_min.simulate` for a model configuration.

    The closed simulator models the same system with the same parameters
    (names and units), so the translation keeps the model's configuration
    keys (:data:`SIM_KEYS`), drops the solver's iteration controls
    (``damping``, ``tol``, ...), and applies ``sim`` (a curve's simulator
    overrides) on top.  ``NC`` and the run lengths are added per point.
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
                   max_cycles: int | None = None) -> list[dict]:
    """The simulated response time at every ``NC`` of ``loads``: one row per load.

    ``latency`` is ``R`` (cycles), ``latency CI`` its 95% half width (batch
    means), ``saturated`` always False (a closed system); ``X`` and ``X CI``
    the throughput (requests/cycle).  ``loads`` must be integers >= 1 (the
    simulator's population).  One :func:`models.sim.sweep.run_sweep` of
    :func:`sim_kwargs` over ``settings.jobs`` processes; the simulator caches
    every point on disk itself.
    """
    return [{"latency": r.R, "latency CI": r.R_ci, "saturated": False, "X": r.X, "X CI": r.X_ci}
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
    (:func:`with_setup`).  Returns one
    :class:`~models.core.setups.CurveRun` per (set-up, curve)
    (quantity ``"R"``): ``model`` has ``R`` (cycles), ``X``
    (requests/cycle), ``iterations``; with ``simulate``, ``sim`` has ``R``,
    ``R CI``, ``X``, ``X CI`` (95% half widths by batch means), ``MM`` and
    ``MM CI`` (the mean residence per memory visit) of the runs of
    ``settings`` (:func:`sim_kwargs`; with ``settings.target_ci`` up to
    ``max_cycles`` cycles).  ``model_saturation`` is ``N*``.
    """
    if not isinstance(figure, Figure):
        raise ParameterError(f"`figure` must be a Figure (e.g. paper_figure(2)); got {figure!r}")
    if isinstance(setups, str) or not setups:
        raise ParameterError(f"`setups` must be a non-empty sequence of set-up names {list(SETUPS)}; got {setups!r}")
    curves = [with_setup(c.replace(loads=_NCs(c.loads)), named_setup(SETUPS, s).name)
              for s in setups for c in figure.curves]

    def sim(curve: Curve, loads: list) -> list[dict]:
        return [{"R": r.R, "R CI": r.R_ci, "X": r.X, "X CI": r.X_ci, "MM": r.stage_residence["MM"],
                 "MM CI": r.stage_ci["MM"], "saturated": False}
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
                    row.update({"sim R": float(s["R"]), "sim R CI": float(s["R CI"]), "sim X": float(s["X"]),
                                "sim X CI": float(s["X CI"])})
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
                              pts[f"sim {q} CI"], curve=f"Fig. {number}, {run.label}: {q}", x_name="NC", quantity=q)
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


# ----------------------------------------------------------------------------
# The claims table and the reproductions table (read by the findings chapter)
# ----------------------------------------------------------------------------
_CHAPTER = "min_mva"

#: Every claim of the paper the chapter checks, in the table's order: one sentence of the paper each, quoted
#: whole from ``papers/003`` (its LaTeX written out: ``$1 \times 1$`` as ``1 x 1``, ``$S_{mn}$`` -- the
#: OCR of S_mm -- as ``S_mm``; ``[...]`` only for a formula the sentence spells out), with the section and what
#: it is said of.  ``threshold`` is the paper's own number (Fig. 2's 5%, the only one); ``yardstick`` the
#: book's, shown, never deciding: the same 5%, which the paper attaches to "very accurate" for Fig. 2.
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("fig2-within-5pct", "Sec. 3.3, on Fig. 2 (64 processors, 2 x 2 switches, uniform, S_mm = 1, 2, 4)",
          "Note that the analytical results shown are very accurate, with less than 5 percent deviation from "
          "simulation results in all cases.", "error", threshold=0.05,
          threshold_quote="less than 5 percent deviation from simulation results in all cases"),
    Claim("fig3-hot-spot-accurate", "Sec. 3.3, on Fig. 3 (hot-spot traffic)",
          "Again, the analytical model is quite accurate in its predictions.", "error", yardstick=0.05),
    Claim("fig4-5-accurate", "Sec. 3.3, on Figs. 4 (4 x 4 switches) and 5 (128 processors)",
          "In all cases, the analytical results are seen to be very accurate.", "error", yardstick=0.05),
    Claim("fig6-8-accurate", "Sec. 4.3, on Figs. 6-8 (m = 2, 4, 8 packets)",
          "As in the single packet case, the analytical model is quite accurate in its performance predictions.",
          "error", yardstick=0.05),
    Claim("forward-under-return-over", "Sec. 3.3, on Tables 1 and 2",
          "Note that the model tends to underestimate residence times in the forward network (particularly in "
          "those stages closest to the memory modules) and overestimate residence times in the return network "
          "(again, particularly in those stages closest to the memory modules).", "fact"),
    Claim("kruskal-snir-single", "Sec. 3.3",
          "It is interesting to note that under the assumptions made by Kruskal and Snir (uniform traffic, "
          "unbounded NC) our switch residence time equation reduces to one identical to theirs.", "fact"),
    Claim("switch-1x1-single", "Sec. 3.3",
          "It should also be noted that for a 1 x 1 synchronous switch our equation reduces to R_ij = V_ij, which "
          "is exact since no queueing should occur in this case.", "fact"),
    Claim("no-queueing-pe-mm-single", "Sec. 3.3",
          "Similarly, no queueing at processors is predicted for S_pe = 1, nor at memory modules for S_mm = 1, "
          "as desired.", "fact"),
    Claim("kruskal-snir-m-packet", "Sec. 4.3",
          "It is interesting to note that under the assumptions made by Kruskal and Snir (uniform traffic, "
          "unbounded NC) our switch residence time equation again reduces to one identical to theirs: [...] where "
          "X_j is the throughput of switch output port center j.", "fact"),
    Claim("no-queueing-m-packet", "Sec. 4.3",
          "Also note that our switch residence time equation is correct for a 1 x 1 synchronous switch, our memory "
          "equation is correct for S_mem = m, and our processor equation is correct for S_pe = m since in all of "
          "these cases no queueing is predicted.", "fact"),
    Claim("memory-no-queueing-smem-m", "Sec. 4.3, on Figs. 6-8",
          "For each size, experiments were done with S_mem = m (in which case no memory queueing occurs) and "
          "S_mem = 2m.", "fact"),
)}

#: The figures each error claim is said of.
CLAIM_FIGURES = {"fig2-within-5pct": (2,), "fig3-hot-spot-accurate": (3,), "fig4-5-accurate": (4, 5),
                 "fig6-8-accurate": (6, 7, 8)}
#: Each figure as a claims-table ``case``.
FIGURE_CASES = {2: "Fig. 2", 3: "Fig. 3", 4: "Fig. 4, 4 x 4 switches", 5: "Fig. 5, 128 processors",
                6: "Fig. 6, m = 2", 7: "Fig. 7, m = 4", 8: "Fig. 8, m = 8"}
#: The claim ids in the table's order (``order`` of :func:`models.core.claims.save_claims`).
CLAIM_IDS = tuple(CLAIMS)
#: The claims each notebook computes (``owns`` of :func:`models.core.claims.save_claims`: the four notebooks
#: write the one claims table, each its own rows).
CLAIM_NOTEBOOKS = {
    "01-derivation": ("kruskal-snir-single", "switch-1x1-single", "no-queueing-pe-mm-single", "kruskal-snir-m-packet",
                      "no-queueing-m-packet"),
    "02-single-packet": ("fig2-within-5pct", "fig3-hot-spot-accurate", "fig4-5-accurate"),
    "03-multi-packet": ("fig6-8-accurate", "memory-no-queueing-smem-m"),
    "04-tables": ("forward-under-return-over",),
}
#: The reproduced column groups of the paper's Tables 1 and 2 (``table_id`` of the reproductions table, one per
#: row): ``table_id -> (table, "analytic" or "simulation", NC values)``.
REPRODUCED = {
    "table1-analytic-low-nc": (1, "analytic", (2, 4, 8)),
    "table1-analytic-high-nc": (1, "analytic", (16, 32)),
    "table1-simulation": (1, "simulation", (2, 4, 8, 16, 32)),
    "table2-analytic": (2, "analytic", (2, 4, 8, 16, 32)),
    "table2-simulation": (2, "simulation", (2, 4, 8, 16, 32)),
}

#: Why rows on a set-up other than :data:`DEFAULT_SETUP` are not the paper's configuration (their note).
OTHER_WIRING = ("return network a second omega network: the paper's words allow it, but its simulation columns are "
                "reproduced on the mirror wiring and not on this one (04-tables), so the paper did not simulate it: a "
                "configuration beyond the paper's, a caveat at most, never the verdict")


def _paper_config(setup: str) -> bool:
    """Whether rows on ``setup`` are the paper's configuration: the mirror wiring its tables show it simulated."""
    return setup in ("-", DEFAULT_SETUP)


def _row(claim_id: str, setup: str = "-", *, case: str = "", **kw) -> dict:
    note = kw.pop("note", "")
    if not _paper_config(setup):
        note = f"{OTHER_WIRING}; {note}" if note else OTHER_WIRING
    return CLAIMS[claim_id].row(_CHAPTER, setup, case=case, paper_config=_paper_config(setup), note=note, **kw)


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


def _figures_text(figs) -> str:
    figs = sorted(int(f) for f in figs)
    return ("Fig. " if len(figs) == 1 else "Figs. ") + ", ".join(str(f) for f in figs)


def worst_points(points: pd.DataFrame, *, by_figure: bool = False) -> pd.DataFrame:
    """Per error claim of :data:`CLAIMS` and set-up (and figure): where the model is furthest from the simulation.

    ``points`` as in :func:`claims_table`.  One row per (claim, set-up) --
    with ``by_figure``, per (claim, set-up, figure) -- with simulated points:
    ``claim_id``, ``setup``, ``figures`` (the figures simulated, ``"Fig.
    2"``), ``case`` (:data:`FIGURE_CASES` with ``by_figure``, else ``""``),
    ``NC range``, ``worst_err`` (largest ``|relative error|`` in ``R`` or
    ``X``), and where it is: ``at`` (``"Fig. 2, S_mm=4, X, NC = 8"``).
    """
    rows = []
    for cid, figures in CLAIM_FIGURES.items():
        mine = points[points["figure"].isin(figures)]
        for setup in [s for s in SETUPS if s in set(mine["setup"])]:
            g = mine[mine["setup"] == setup]
            groups = [(int(f), h) for f, h in g.groupby("figure", sort=True)] if by_figure else [(None, g)]
            for fig, h in groups:
                err = h["rel. error"].abs().to_numpy(dtype=float)
                if not np.isfinite(err).any():
                    continue
                worst = h.iloc[int(np.nanargmax(err))]
                rows.append({"claim_id": cid, "setup": setup, "figures": _figures_text(set(h["figure"])),
                             "case": FIGURE_CASES[fig] if fig is not None else "",
                             "NC range": f"{int(h['NC'].min())}-{int(h['NC'].max())}",
                             "worst_err": float(np.nanmax(err)),
                             "at": f"{worst['curve'].rsplit(':', 1)[0]}, {worst['quantity']}, NC = {int(worst['NC'])}"})
    return pd.DataFrame(rows, columns=["claim_id", "setup", "figures", "case", "NC range", "worst_err", "at"])


def _error_rows(points: pd.DataFrame) -> list:
    rows = []
    for w in worst_points(points, by_figure=True).itertuples(index=False):
        claim = CLAIMS[w.claim_id]
        source = "single" if min(CLAIM_FIGURES[w.claim_id]) < 6 else "multi"
        limit = claim.threshold if math.isfinite(claim.threshold) else claim.yardstick
        within = w.worst_err <= limit
        whose = "the paper's" if math.isfinite(claim.threshold) else "the book's yardstick"
        note = (f"R and X at NC = {w[4]} (a closed system never saturates, so every simulated NC counts); worst "
                f"{w.worst_err:.1%} at {w.at}, {'within' if within else 'beyond'} {whose} {limit:.0%}; the model has "
                f"the factor m in eq. (4) that the text of Sec. 4.2 asks for (tab-min_mva-{source}-packet-errors.csv)"
                if source == "multi" else
                f"R and X at NC = {w[4]} (a closed system never saturates, so every simulated NC counts); worst "
                f"{w.worst_err:.1%} at {w.at}, {'within' if within else 'beyond'} {whose} {limit:.0%} "
                f"(tab-min_mva-{source}-packet-errors.csv)")
        rows.append(_row(w.claim_id, w.setup, case=w.case, worst_err=w.worst_err, cause="-" if within else "model",
                         note=note))
    return rows


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
            curve = Curve(f"m={m}, S_pe={s_pe}", model=_omega(m=m, S_mm=m, S_pe=float(s_pe)), loads=tuple(NC_values))
            curve = with_setup(curve, DEFAULT_SETUP)
            for nc, r in zip(NC_values, _simulations(curve, list(NC_values), settings, max_cycles)):
                T = float(np.mean((nc - np.asarray(r.L_i)) / np.asarray(r.X_i)))
                rows.append({"m": m, "S_pe": s_pe, "NC": int(nc), "T": T, "T - S_pe": T - s_pe, "sim R": float(r.R)})
    return pd.DataFrame(rows, columns=["m", "S_pe", "NC", "T", "T - S_pe", "sim R"])


#: The mean memory residence counts as "no queueing" when it exceeds ``m - 1 + S_mm`` by at most this (cycles):
#: float rounding of a mean of integers, nothing more.
NO_QUEUEING_ATOL = 1e-9


def _memory_rows(mq: pd.DataFrame) -> list:
    rows = []
    # the paper's wiring only: the sentence is about the paper's experiments, and a memory's queue does not depend on
    # the return network (04-tables, 03-multi-packet show the other wiring)
    for setup in [s for s in (DEFAULT_SETUP,) if s in set(mq["setup"])]:
        for m, g in mq[mq["setup"] == setup].groupby("m", sort=True):
            at_m, at_2m = g[g["S_mm"] == m], g[g["S_mm"] == 2 * m]
            if at_m.empty:
                continue
            holds = bool((at_m["excess"].abs() <= NO_QUEUEING_ATOL).all())
            note = (f"our simulation: mean residence per memory visit at S_mem = m = {m} is "
                    f"{'exactly ' if holds else ''}m - 1 + S_mem = {2 * m - 1} cycles at every NC = "
                    f"{int(at_m['NC'].min())}-{int(at_m['NC'].max())} (largest excess "
                    f"{at_m['excess'].max():.2g} cycles)")
            if len(at_2m):
                note += (f"; at S_mem = 2m, where requests do queue, it exceeds m - 1 + S_mem by up to "
                         f"{at_2m['excess'].max():.2f} cycles")
            note += " (tab-min_mva-memory-queueing.csv)"
            fig = int(g["figure"].iloc[0])
            rows.append(_row("memory-no-queueing-smem-m", setup, case=FIGURE_CASES.get(fig, f"m = {m}"), holds=holds,
                             cause="-" if holds else "simulator set-up", note=note))
    return rows


def _bias_note(b: dict, prefix: str, what: str) -> str:
    return (f"{what}: the model is below the simulation at {b[prefix + 'forward_under']:.0%} of the forward-stage "
            f"entries and above it at {b[prefix + 'return_over']:.0%} of the return-stage entries; the gap is "
            f"larger over the stages nearest the memories (F4-F6, R4-R6) than over those nearest the processors "
            f"in {b[prefix + 'forward_memory_side']:.0%} (forward) and {b[prefix + 'return_memory_side']:.0%} "
            f"(return) of the {b['columns']} (table, NC) columns; 'tends to' and 'particularly' read as more "
            f"than half")


def _tables_text(by_table: Mapping) -> str:
    """``"Table 2"``, ``"Tables 1 and 2"``."""
    which = sorted(by_table)
    return f"Table{'s' if len(which) > 1 else ''} {join_words([str(w) for w in which])}"


def _table_rows(tables: Mapping) -> list:
    """The paper's sentence on its Tables 1 and 2, on its own columns and on our simulation per set-up."""
    rows = []
    by_setup: dict = {}
    for (which, setup), cmp in tables.items():
        by_setup.setdefault(setup, {})[which] = cmp
    ref = by_setup.get(DEFAULT_SETUP) or next(iter(by_setup.values()), {})
    if ref:
        b = paper_tables.bias_pattern([cmp.assign(table=w) for w, cmp in sorted(ref.items())])
        holds = paper_tables.bias_holds(b, "paper_")
        rows.append(_row("forward-under-return-over", "-", case="the paper's own columns", holds=holds,
                         cause="-" if holds else "paper text",
                         note=_bias_note(b, "paper_", f"{_tables_text(ref)} as printed, its model against its "
                                                      "simulation") + "; 04-tables"))
    # on our simulation: the mirror wiring only.  The sentence reads the paper's tables, which the paper simulated
    # on that wiring, and its next sentence explains the return-network half by it ("spaced apart by collisions of
    # the corresponding requests in the (identical topology) forward network"): the other wiring is not a case of
    # this sentence, and its numbers stay in 04-tables.
    for setup in (DEFAULT_SETUP,):
        cmps = {w: c for w, c in by_setup.get(setup, {}).items() if "sim" in c}
        if not cmps:
            continue
        b = paper_tables.bias_pattern([cmp.assign(table=w) for w, cmp in sorted(cmps.items())])
        holds = paper_tables.bias_holds(b)
        rows.append(_row("forward-under-return-over", setup, case=f"our simulation, {_tables_text(cmps)}", holds=holds,
                         cause="-" if holds else "model",
                         note=_bias_note(b, "", f"our model against our simulation of {_tables_text(cmps)}")
                         + "; 04-tables"))
    return rows


def _symbolic_rows(checks: Mapping) -> list:
    def yes(flag):
        return "holds" if flag else "does not hold"

    def row(cid, ok, case="", cause_if_not="model", paper_config=True, note=""):
        r = _row(cid, case=case, holds=bool(ok), cause="-" if ok else cause_if_not, note=note)
        r["paper_config"] = paper_config
        return r

    rows = []
    ok = checks["kruskal_snir_single"]
    rows.append(row("kruskal-snir-single", ok,
                    note=f"eq. (1) solved by SymPy under uniform traffic with NC -> oo, in the forward network (one "
                         f"input per class) and the return network (every input): the reduction {yes(ok)} "
                         f"(01-derivation)"))
    ok = checks["switch_1x1_single"]
    rows.append(row("switch-1x1-single", ok,
                    note=f"eq. (1) at a 1 x 1 switch: the per-visit fixed point is 1 cycle and term (c) vanishes: "
                         f"{yes(ok)} (01-derivation)"))
    for key, case in (("processor_single", "processor, eq. (3), S_pe = 1"),
                      ("memory_single", "memory, eq. (2), S_mm = 1")):
        ok = checks[key]
        rows.append(row("no-queueing-pe-mm-single", ok, case=case,
                        note=f"per-visit fixed point solved by SymPy: every queueing term vanishes: {yes(ok)} "
                             f"(01-derivation)"))
    ok, printed = checks["kruskal_snir_m"], checks["kruskal_snir_m_printed"]
    rows.append(row("kruskal-snir-m-packet", ok, case="eq. (4) with the factor m of Sec. 4.2",
                    note=f"with the factor m on terms (a) and (b) that the text of Sec. 4.2 asks for ('The factor m "
                         f"is required since each customer is m packets long'), eq. (4) reduces to Kruskal and "
                         f"Snir's m-packet formula in both networks: {yes(ok)} (01-derivation)"))
    rows.append(row("kruskal-snir-m-packet", printed, case="eq. (4) as printed", cause_if_not="paper text",
                    note=f"eq. (4) as printed, without the factor m its own text asks for, reduces to the formula: "
                         f"{yes(printed)}; the printed equation, not the model the text describes, is at fault "
                         f"(01-derivation)"))
    for key, case in (("switch_1x1_m", "switch, eq. (4), 1 x 1"), ("memory_m", "memory, eq. (5), S_mem = m")):
        ok = checks[key]
        rows.append(row("no-queueing-m-packet", ok, case=case,
                        note=f"per-visit fixed point solved by SymPy: every queueing term vanishes: {yes(ok)} "
                             f"(01-derivation)"))
    ok, at1 = checks["processor_m_spem"], checks["processor_m_spe1"]
    rows.append(row("no-queueing-m-packet", ok, case="processor, eq. (6), S_pe = m", cause_if_not="paper text",
                    note=f"eq. (6) keeps its term (b), U (NC-1)/NC (S_pe-1) S_pe/(S_pe+m-1), at S_pe = m > 1: "
                         f"{yes(ok)}. The condition is the paper's slip for S_pe = 1: the processor is busy "
                         f"S_pe + m - 1 cycles per request and replies arrive at least m cycles apart, so it cannot "
                         f"queue at S_pe = 1 (as the memory at S_mem = m), and it does queue at S_pe = m > 1 "
                         f"(geometric think times; our simulation, tab-min_mva-processor-queueing.csv), where an "
                         f"equation predicting no queueing would be wrong (01-derivation)"))
    rows.append(row("no-queueing-m-packet", at1, case="processor, eq. (6), S_pe = 1 (the condition read as meant)",
                    paper_config=False,
                    note=f"eq. (6) at S_pe = 1: every queueing term vanishes: {yes(at1)} (01-derivation)"))
    return rows


def claims_table(*, figure_points: pd.DataFrame | None = None, memory: pd.DataFrame | None = None,
                 tables: Mapping | None = None, symbolic: Mapping | None = None) -> pd.DataFrame:
    """The rows of the chapter's claims table that the given inputs decide (columns :data:`CLAIM_COLUMNS`).

    One row per claim of :data:`CLAIMS`, set-up and case
    (:meth:`models.core.claims.Claim.row`).  Rows on a set-up other than
    :data:`DEFAULT_SETUP` (the return network's other wiring, which the
    paper did not simulate) have ``paper_config=False``: a caveat at most.

    Parameters (each optional; a notebook passes what it computed)
    ----------
    figure_points : DataFrame
        The ``points`` of :func:`error_tables` (columns ``figure``, ``setup``,
        ``quantity``, ``NC``, ``rel. error``, ``curve``): one ``"error"`` row
        per error claim, set-up and figure (the case), ``worst_err`` the
        largest ``|relative error|`` in ``R`` or ``X`` over the figure's
        curves and every simulated ``NC`` (a closed system has no saturation
        load, so no point is left out; ``sat_ratio`` is NaN).  ``cause`` is
        ``"model"`` where the error exceeds the paper's 5% (Fig. 2) or, for
        the claims without a number, the book's yardstick (shown, never
        deciding).
    memory : DataFrame
        :func:`memory_queueing` of the multi-packet figures: the rows of
        ``memory-no-queueing-smem-m`` per figure on the paper's wiring
        (``holds`` when the memories never queue at ``S_mem = m``).
    tables : mapping
        ``{(table number, set-up): compare_table frame}`` of
        :func:`~models.min_mva.paper_tables.run_table` runs: the rows of
        ``forward-under-return-over`` on the paper's own columns (set-up
        ``"-"``) and on our simulation of the mirror wiring
        (:data:`DEFAULT_SETUP`; :func:`~models.min_mva.paper_tables.bias_holds`);
        the other wiring is not a case of that sentence (its numbers stay in
        ``04-tables``).  The tables
        themselves are reproductions, not claims: :func:`reproductions_table`.
    symbolic : mapping
        :func:`symbolic_checks`: the special cases of Secs. 3.3 and 4.3.
    """
    rows = []
    if figure_points is not None and len(figure_points):
        rows += _error_rows(figure_points)
    if memory is not None and len(memory):
        rows += _memory_rows(memory)
    if tables:
        rows += _table_rows(tables)
    if symbolic:
        rows += _symbolic_rows(symbolic)
    return _ordered(claims_frame(rows))


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """Claims in :data:`CLAIMS` order; within a claim, no simulation first, then the set-ups' order, then as built."""
    order = {cid: i for i, cid in enumerate(CLAIMS)}
    setups = {s: i + 1 for i, s in enumerate(SETUPS)} | {"-": 0}
    key = [(order.get(c, len(order)), setups.get(s, len(setups)), i)
           for i, (c, s) in enumerate(zip(frame["claim_id"], frame["setup"]))]
    idx = sorted(range(len(frame)), key=lambda i: key[i])
    out = frame.iloc[idx].reset_index(drop=True)
    out["holds"] = out["holds"].astype(object)
    return out[list(CLAIM_COLUMNS)]


def _analytic_note(agree: pd.Series, readings: pd.DataFrame | None, table: int, ncs) -> str:
    note = (f"{int(agree['agreeing'])}/{int(agree['entries'])} stage and memory entries within "
            f"{paper_tables.ANALYTIC_BAND:.4f} cycles of the printed value's centre; largest |ours - printed| "
            f"{agree['max |diff|']:.4f} cycles ({agree['at']}); R left out (the paper's printed R exceeds the sum "
            f"of its own printed rows + 1 by more than truncation explains)")
    if readings is not None:
        mine = readings[(readings["table"] == table) & readings["NC"].isin(list(ncs))]
        worst = mine.groupby("reading", sort=False)["max |diff|"].max()
        other = worst[[r for r in worst.index if r in EQ1_READINGS and r != "paper"]]
        if int(agree["agreeing"]) < int(agree["entries"]) and len(other) and "paper" in worst:
            note += (f"; {'none' if other.min() >= worst['paper'] else 'not all'} of the {len(other)} other "
                     f"readings of eq. (1) tried does better (the best leaves {other.min():.3f})")
            for name in [r for r in worst.index if r in paper_tables.ITERATIONS]:
                note += f", the {name} leaves {worst[name]:.3f}"
    return note


def reproductions_table(tabs: Mapping, readings: pd.DataFrame | None = None,
                        setup: str = DEFAULT_SETUP, settings: SimSettings | None = None) -> pd.DataFrame:
    """The chapter's reproductions table: the paper's Tables 1 and 2, column group by column group.

    ``tabs``: ``{(table number, set-up): compare_table frame}`` of simulated
    :func:`~models.min_mva.paper_tables.run_table` runs; only the rows of
    ``setup`` (the wiring the paper simulated, :data:`DEFAULT_SETUP`) are
    used -- the other wiring stays in the chapter's own tables.
    ``readings``: :func:`~models.min_mva.paper_tables.reading_residuals`
    (quoted in the note of an analytic column that is not reproduced);
    ``settings``: the run lengths (for the ``noise`` text).  One row per
    column group of :data:`REPRODUCED` (its key the ``table_id``;
    :func:`models.core.claims.reproduction_row`): Table 1's analytic column
    at NC = 2, 4, 8 and at NC = 16, 32, Table 2's at every NC, and each
    table's simulation column; the columns of
    :data:`models.core.claims.REPRO_COLUMNS`.  Every entry is compared with
    the centre of the printed value's truncation interval
    (:func:`~models.min_mva.paper_tables.printed_centre`).
    """
    length = (f"{settings.cycles:,} cycles per NC, the first {settings.warmup_cycles:,} discarded, "
              f"{settings.batches} batches" if settings is not None else "batch means")
    sim_noise = (f"ours: 95% half width by batch means ({length}); the paper gives no interval or run length: its "
                 f"noise taken as that of our run of {paper_tables.PAPER_SIM_CYCLES:,} measured cycles (the quick "
                 f"profile's; equal to ours there, ours scaled by the square root of the run lengths otherwise, so "
                 f"it does not shrink as ours grow); plus half a unit of the last digit (the paper truncates to 3 "
                 f"decimals: compared with printed + 0.0005)")
    ana_noise = ("analytic: ours converged to 1e-12; the paper truncates to 3 decimals (compared with printed + "
                 "0.0005, band half a unit, 0.0005) and states no stopping point for its iteration, taken as one "
                 "unit, 0.001 (the book's assumption): band 0.0015 cycles")
    rows = []
    for table_id, (which, kind, ncs) in REPRODUCED.items():
        cmp = tabs.get((which, setup))
        if cmp is None or (kind == "simulation" and "sim" not in cmp):
            continue
        name, section = f"Table {which} (S_mm = {which})", "Sec. 3.3"
        nc_text = ", ".join(str(x) for x in ncs) if len(ncs) < len(paper_tables.NC_VALUES) else "2-32"
        column = f"{kind}, NC = {nc_text}"
        if kind == "analytic":
            g = cmp[(cmp["row"] != "R") & cmp["NC"].isin(list(ncs))]
            agree = paper_tables.analytic_agreement(cmp, which, {nc_text: ncs}).iloc[0]
            note = _analytic_note(agree, readings, which, ncs)
            if int(agree["agreeing"]) < int(agree["entries"]):
                r_diff = cmp[(cmp["row"] == "R") & cmp["NC"].isin(list(ncs))]["diff_analytic"].abs().max()
                note += (f"; the stage total, R, is within {r_diff:.4f} cycles of the paper's; the cause of the "
                         f"residual is unexplained (neither the readings of eq. (1) nor the iterations tried "
                         f"remove it)")
            note += "; 04-tables, tab-min_mva-analytic-accuracy.csv"
            cause = "unexplained" if int(agree["agreeing"]) < int(agree["entries"]) else "-"
            rows.append(reproduction_row(_CHAPTER, table_id, name, section, column, "analytic", g["ours"],
                                         paper_tables.printed_centre(g["paper_analytic"]),
                                         [paper_tables.ANALYTIC_BAND] * len(g), cause=cause, note=note,
                                         noise=ana_noise))
        else:
            g = cmp[cmp["NC"].isin(list(ncs))]
            a = paper_tables.simulation_agreement(g)
            worst = g.loc[(g["diff_sim"].abs() / g["paper_sim"]).idxmax()]
            miss = g[~g["sim_agrees"]]
            listed = join_words([f"{r.row} at NC {int(r.NC)} ({r.diff_sim:+.3f})" for r in miss.itertuples()])
            note = (f"{a['agreeing']}/{a['entries']} entries (every stage, the memory and R) within their band of "
                    f"the paper's simulation, at most {a['allowed']} may miss; largest relative difference "
                    f"{worst['diff_sim'] / worst['paper_sim']:+.2%} ({worst['row']} at NC {int(worst['NC'])})"
                    + (f"; the misses (ours - printed, cycles): {listed}" if len(miss) else "")
                    + f"; the mirror wiring (set-up {setup}); 04-tables, tab-min_mva-table{which}.csv")
            rows.append(reproduction_row(_CHAPTER, table_id, name, section, column, "simulation", g["sim"],
                                         paper_tables.printed_centre(g["paper_sim"]), g["sim_band"],
                                         note=note, noise=sim_noise))
    return pd.DataFrame(rows, columns=list(REPRO_COLUMNS))


# ----------------------------------------------------------------------------
# The numbers and sentences the pages glue
# ----------------------------------------------------------------------------
def _holds(flag) -> str:
    return "holds" if flag else "does not hold"


def glue_values_derivation(checks: Mapping, per_class, result) -> dict:
    """What :doc:`01-derivation` glues, by key (``min_mva-...``).

    ``checks``: :func:`symbolic_checks`; ``per_class``: each class's visit
    ratios summed over the centers (its path length); ``result``: the
    :func:`solve` result of the page's small network.  Keys:
    ``path-length`` (the mean path length), ``small-R``,
    ``small-iterations``, and ``"holds"`` / ``"does not hold"`` for
    ``ks-single``, ``ks-m``, ``ks-m-printed`` (Kruskal & Snir), ``noq-single``
    (1 x 1 switch, S_mm = 1 and S_pe = 1 together), ``noq-m`` (1 x 1 switch and
    S_mm = m), ``eq6-spe1`` and ``eq6-spem``.
    """
    return {
        "min_mva-path-length": float(np.mean(per_class)),
        "min_mva-small-R": float(result.R),
        "min_mva-small-iterations": int(result.iterations),
        "min_mva-ks-single": _holds(checks["kruskal_snir_single"]),
        "min_mva-ks-m": _holds(checks["kruskal_snir_m"]),
        "min_mva-ks-m-printed": _holds(checks["kruskal_snir_m_printed"]),
        "min_mva-noq-single": _holds(checks["switch_1x1_single"] and checks["memory_single"]
                                     and checks["processor_single"]),
        "min_mva-noq-m": _holds(checks["switch_1x1_m"] and checks["memory_m"]),
        "min_mva-eq6-spe1": _holds(checks["processor_m_spe1"]),
        "min_mva-eq6-spem": _holds(checks["processor_m_spem"]),
    }


def glue_values_figures(summary: pd.DataFrame, points: pd.DataFrame, page: str,
                        setup: str = DEFAULT_SETUP) -> dict:
    """What :doc:`02-single-packet` (``page="single"``) or :doc:`03-multi-packet` (``"multi"``) glues, by key.

    ``summary``, ``points``: :func:`error_tables` of the page's runs.  On
    set-up ``setup``: ``min_mva-<page>-max-err-R`` and ``-max-err-X`` (the
    largest ``|relative error|`` over the curves), ``-worst-curve`` (the
    curve of the largest, R or X), ``-mean-err-R`` (the mean over the curves
    of their mean ``|relative error|`` in R).  Per error claim and set-up
    (:func:`worst_points`), ``min_mva-worst-<claim>-<setup>`` (the worst
    error), ``-at`` (where), ``-figures`` (the figures simulated) and, where
    the paper names a threshold, ``-verdict`` (``"within"`` or
    ``"outside"``).  With Fig. 2 simulated, ``min_mva-fig2-wiring``: whether
    the Fig. 2 verdict is the same on every set-up.
    """
    if page not in ("single", "multi"):
        raise ParameterError(f"`page` must be 'single' or 'multi'; got {page!r}")
    first = summary[summary["setup"] == setup]
    R = first[first["curve"].str.endswith(": R")]
    X = first[first["curve"].str.endswith(": X")]
    worst = first.loc[first["max |rel. error|"].idxmax()]
    out = {
        f"min_mva-{page}-max-err-R": float(R["max |rel. error|"].max()),
        f"min_mva-{page}-max-err-X": float(X["max |rel. error|"].max()),
        f"min_mva-{page}-worst-curve": worst["curve"].rsplit(":", 1)[0],
        f"min_mva-{page}-mean-err-R": float(R["mean |rel. error|"].mean()),
    }
    within = {}
    for row in worst_points(points).itertuples():
        key = f"min_mva-worst-{row.claim_id}-{row.setup}"
        out[key] = row.worst_err
        out[key + "-at"] = row.at
        out[key + "-figures"] = row.figures
        threshold = CLAIMS[row.claim_id].threshold
        if np.isfinite(threshold):
            out[key + "-verdict"] = "within" if row.worst_err <= threshold else "outside"
            within.setdefault(row.claim_id, set()).add(bool(row.worst_err <= threshold))
    if "fig2-within-5pct" in within:
        out["min_mva-fig2-wiring"] = ("is the same on both set-ups" if len(within["fig2-within-5pct"]) == 1
                                      else "depends on the wiring")
    return out


def glue_values_queueing(memory: pd.DataFrame, processor: pd.DataFrame, setup: str = DEFAULT_SETUP) -> dict:
    """What :doc:`03-multi-packet` glues about queueing at the memories and the processors, by key.

    ``memory``: :func:`memory_queueing`; ``processor``:
    :func:`processor_queueing`.  On ``setup``: ``min_mva-mm-excess-smem-m``
    (the largest ``|excess|`` of the memory residence over ``m - 1 + S_mm``
    at ``S_mm = m``), ``min_mva-mm-excess-2m`` (the largest excess at ``S_mm
    = 2m``); ``min_mva-pe-wait-spe1`` (the largest ``|T - S_pe|`` at ``S_pe =
    1``) and ``min_mva-pe-wait-spem`` (the smallest ``T - S_pe`` at ``S_pe =
    m > 1``).
    """
    mq = memory[memory["setup"] == setup]
    out = {"min_mva-mm-excess-smem-m": float(mq[mq["S_mm"] == mq["m"]]["excess"].abs().max()),
           "min_mva-mm-excess-2m": float(mq[mq["S_mm"] == 2 * mq["m"]]["excess"].max())}
    out["min_mva-pe-wait-spe1"] = float(processor[processor["S_pe"] == 1]["T - S_pe"].abs().max())
    out["min_mva-pe-wait-spem"] = float(processor[(processor["S_pe"] == processor["m"]) & (processor["m"] > 1)]
                                        ["T - S_pe"].min())
    return out


def _miss_sentence(miss: pd.DataFrame) -> str:
    if not len(miss):
        return "all of them agree"
    one = len(miss) == 1
    where = join_words([f"Table {r.table} {r.row} at NC {r.NC}" for r in miss.itertuples()])
    return (f"{'the one that does not' if one else 'the ' + str(len(miss)) + ' that do not'} ({where}) "
            f"{'differs' if one else 'differ'} from the paper's value{'' if one else 's'} by "
            f"{'' if one else 'at most '}{float(miss['relative'].abs().max()):.2%} of the value")


def glue_values_tables(tabs: Mapping, readings: pd.DataFrame, reference: str = DEFAULT_SETUP,
                       other: str = "second-omega") -> dict:
    """What :doc:`04-tables` glues, by key (``min_mva-...``), from its comparisons and the readings table.

    ``tabs``: ``{(table number, set-up): compare_table frame}`` of simulated
    :func:`~models.min_mva.paper_tables.run_table` runs, with both tables on
    ``reference``; ``readings``:
    :func:`~models.min_mva.paper_tables.reading_residuals`.  Keys:

    * the analytic column (:func:`analytic_tables`): ``t1-low-maxdiff``
      (Table 1, NC <= 8), ``t2-maxdiff``, ``t1-16-maxdiff``,
      ``t1-32-maxdiff`` and ``t1-32-at`` (largest |ours - paper| over the
      stages and the memory, cycles, and where), ``R-maxdiff``,
      ``t1-low-agree``, ``t1-high-agree``, ``t2-agree`` (entries within the
      analytic band, ``"k/n"``), ``R-excess-min``/``-max`` (the paper's R
      beyond its printed rows), ``analytic-band`` (cycles);
    * the readings of eq. (1): ``readings-n`` (readings tried besides the
      paper's), ``readings-best-high`` and ``readings-best-name`` (the best of
      them on Table 1 at NC >= 16), ``undamped-same`` (a sentence),
      ``early-high`` (the iteration stopped at 0.1%, Table 1 at NC >= 16);
    * the simulation column (the table rule): ``t<which>-sim-<setup>``
      (``"k/n"`` within their band), ``-share``, ``-allowed`` (misses a
      reproduced column may have) and ``-verdict`` (``"reproduced"`` or
      ``"not reproduced"``) per comparison; ``sim-agree`` (both tables, NC <=
      16, on ``reference``), ``sim-miss-n``, ``sim-miss-sentence`` and
      ``sim-miss-list`` (the entries of both tables on ``reference`` that miss
      their band, every NC);
    * the wiring: ``r6-mirror``, ``r6-same``, ``r6-paper`` (stage R6 at NC = 4
      on ``reference``, on ``other`` -- when Table 2 ran on it -- and in the
      paper's simulation);
    * the paper's sentence on its tables (:func:`~models.min_mva.paper_tables.bias_pattern`):
      ``bias-fwd-<setup>``, ``bias-ret-<setup>``, ``bias-fwd-mem-<setup>``,
      ``bias-ret-mem-<setup>`` per set-up, and the same on the paper's own
      columns (``<setup>`` = ``printed``).
    """
    t1, t2 = tabs[(1, reference)], tabs[(2, reference)]
    acc, agree, excess = analytic_tables(t1, t2)
    diff = "max |diff| over stages + MM"
    t1_32 = acc[(acc["table"] == 1) & (acc["NC"] == 32)].iloc[0]
    out = {
        "min_mva-t1-low-maxdiff": float(acc[(acc["table"] == 1) & (acc["NC"] <= 8)][diff].max()),
        "min_mva-t2-maxdiff": float(acc[acc["table"] == 2][diff].max()),
        "min_mva-t1-16-maxdiff": float(acc[(acc["table"] == 1) & (acc["NC"] == 16)].iloc[0][diff]),
        "min_mva-t1-32-maxdiff": float(t1_32[diff]),
        "min_mva-t1-32-at": str(t1_32["at"]),
        "min_mva-R-maxdiff": float(acc["R diff"].abs().max()),
        "min_mva-analytic-band": float(paper_tables.ANALYTIC_BAND),
    }
    for key, row in zip(("t1-low", "t1-high", "t2"), agree.itertuples()):
        out[f"min_mva-{key}-agree"] = f"{row.agreeing}/{row.entries}"
    analytic = excess[excess["column"] == "analytic"]["excess"]
    out["min_mva-R-excess-min"] = float(analytic.min())
    out["min_mva-R-excess-max"] = float(analytic.max())
    # the readings of eq. (1), and other iterations
    high = (readings[(readings["table"] == 1) & (readings["NC"] >= 16)]
            .groupby("reading", sort=False)["max |diff|"].max())
    tried = high[[r for r in high.index if r in EQ1_READINGS and r != "paper"]]
    out["min_mva-readings-n"] = int(tried.size)
    out["min_mva-readings-best-high"] = float(tried.min())
    out["min_mva-readings-best-name"] = str(tried.idxmin())
    und = readings[readings["reading"] == "undamped iteration"]
    same = np.allclose(und["max |diff|"].to_numpy(), readings[readings["reading"] == "paper"]["max |diff|"].to_numpy(),
                       atol=1e-9)
    out["min_mva-undamped-same"] = ("converges to the same fixed point" if same and und["converged"].all()
                                    else "does not reproduce the damped fixed point")
    early = [r for r in high.index if r in paper_tables.ITERATIONS and r != "undamped iteration"]
    if early:
        out["min_mva-early-high"] = float(high[early[0]])
    # the simulation column, by the table rule
    for (which, setup), tab in tabs.items():
        a = paper_tables.simulation_agreement(tab)
        key = f"min_mva-t{which}-sim-{setup}"
        out[key] = f"{a['agreeing']}/{a['entries']}"
        out[key + "-share"] = float(a["share"])
        out[key + "-allowed"] = int(a["allowed"])
        out[key + "-verdict"] = "reproduced" if a["holds"] else "not reproduced"
    low = pd.concat([t1, t2])
    low = low[low["NC"] <= 16]
    out["min_mva-sim-agree"] = f"{int(low['sim_agrees'].sum())}/{len(low)}"
    miss = paper_tables.disagreements({1: t1, 2: t2}, max_nc=max(paper_tables.NC_VALUES))
    out["min_mva-sim-miss-n"] = len(miss)
    out["min_mva-sim-miss-sentence"] = _miss_sentence(miss)
    out["min_mva-sim-miss-list"] = join_words([f"Table {r.table} {r.row} at NC {r.NC}" for r in miss.itertuples()],
                                              empty="none")
    # the wiring: stage R6 at NC = 4
    at = np.flatnonzero(((t2["row"] == "R6") & (t2["NC"] == 4)).to_numpy())[0]
    out["min_mva-r6-mirror"] = float(t2["sim"].to_numpy()[at])
    if (2, other) in tabs:
        out["min_mva-r6-same"] = float(tabs[(2, other)]["sim"].to_numpy()[at])
    out["min_mva-r6-paper"] = float(t2["paper_sim"].to_numpy()[at])
    # the paper's sentence on its tables, per set-up and on its own columns
    for setup in dict.fromkeys(s for _, s in tabs):
        b = paper_tables.bias_pattern([tab.assign(table=w) for (w, s), tab in tabs.items() if s == setup])
        for key, field in (("fwd", "forward_under"), ("ret", "return_over"), ("fwd-mem", "forward_memory_side"),
                           ("ret-mem", "return_memory_side")):
            out[f"min_mva-bias-{key}-{setup}"] = b[field]
            if setup == reference:
                out[f"min_mva-bias-{key}-printed"] = b["paper_" + field]
    return out
