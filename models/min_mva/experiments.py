"""The paper's experiments: which configurations make each figure, how a curve is run, the claims and glued numbers.

Figures 2-8 of Willick & Eager (1990) plot the mean response time ``R``
(cycles) and the throughput ``X`` (requests/cycle) against ``NC`` for one
hardware configuration and two or three memory service times.  Each figure
is a :class:`~models.core.experiment.Figure` of
:class:`~models.core.experiment.Curve` objects whose loads are the ``NC``
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
:class:`~models.core.claims.SimSettings` counted in cycles (``cycles``, the
warm-up included, and ``warmup_cycles``); :data:`SETTINGS` is the full
profile's.

Simulator set-ups (:mod:`models.min_mva.setups`, :class:`~models.core.claims.SimulatorSetup`
objects): every curve carries the name of the set-up its simulation rests on
(``Curve.setup``, ``"paper"`` by default); :func:`with_setup` moves a curve
to another (the return network's wiring, for the model and the simulator
alike), and the tables carry a ``setup`` column.

The claims table (:func:`claims_table`, :data:`CLAIMS`): one row per claim
of the paper and set-up, with the numbers the findings chapter turns into a
verdict; each notebook writes the rows of the claims it computes
(:func:`models.core.claims.save_claims` with ``owns=CLAIM_NOTEBOOKS[notebook]``),
so ``tables/tab-min_mva-claims.csv`` is complete once the chapter's four
notebooks have run, in any order.  Every number and sentence the pages glue
comes from a ``glue_values_*`` function here.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import CLAIM_COLUMNS, SimSettings, named_setup
from ..core.errors import ParameterError
from ..core.experiment import Curve, CurveRun, Figure, each_curve, error_table, run_curve
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
           "CLAIMS", "CLAIM_IDS", "CLAIM_NOTEBOOKS", "symbolic_checks", "claims_table", "worst_points",
           "glue_values_derivation", "glue_values_figures", "glue_values_tables"]

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
    :class:`~models.core.experiment.CurveRun` per (set-up, curve)
    (quantity ``"R"``): ``model`` has ``R`` (cycles), ``X``
    (requests/cycle), ``iterations``; with ``simulate``, ``sim`` has ``R``,
    ``R CI``, ``X``, ``X CI`` (95% half widths by batch means) of the runs of
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
        return [{"R": r.R, "R CI": r.R_ci, "X": r.X, "X CI": r.X_ci, "saturated": False}
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
# The claims table (read by the findings chapter)
# ----------------------------------------------------------------------------
_CHAPTER = "min_mva"


def _claim(text, kind, notebook, threshold=math.nan, **extra):
    return {"claim": text, "kind": kind, "notebook": notebook, "threshold": threshold, **extra}


#: Every claim of the paper the chapter checks, in the table's order: ``claim_id -> claim (quoted, with where),
#: kind, the notebook that computes it, threshold (a fraction, NaN when the paper names none)`` and, for the
#: error claims, the figures, for the table claims the table and NC values.
CLAIMS = {
    "fig2-within-5pct": _claim(
        'Sec. 3.3, Fig. 2 (64 processors, 2x2 switches, uniform, S_mm = 1, 2, 4): "the analytical results shown '
        'are very accurate, with less than 5 percent deviation from simulation results in all cases"',
        "error", "02-single-packet", 0.05, figures=(2,)),
    "fig3-hot-spot-accurate": _claim(
        'Sec. 3.3, Fig. 3 (hot-spot traffic): "Again, the analytical model is quite accurate in its predictions"',
        "error", "02-single-packet", figures=(3,)),
    "fig4-5-accurate": _claim(
        'Sec. 3.3, Figs. 4 and 5 (4x4 switches; 128 processors): "In all cases, the analytical results are seen '
        'to be very accurate"', "error", "02-single-packet", figures=(4, 5)),
    "fig6-8-accurate": _claim(
        'Sec. 4.3, Figs. 6-8 (m = 2, 4, 8 packets): "As in the single packet case, the analytical model is quite '
        'accurate in its performance predictions"', "error", "03-multi-packet", figures=(6, 7, 8)),
    "table1-analytic-low-nc": _claim(
        'Table 1 (S_mm = 1), analytic column at NC = 2, 4, 8: "Average residence time at each network stage and '
        'at the memory modules"', "fact", "04-tables", table=1, NC=(2, 4, 8)),
    "table1-analytic-high-nc": _claim(
        'Table 1 (S_mm = 1), analytic column at NC = 16, 32: "Average residence time at each network stage and '
        'at the memory modules"', "fact", "04-tables", table=1, NC=(16, 32)),
    "table2-analytic": _claim(
        'Table 2 (S_mm = 2), analytic column at NC = 2-32: "Average residence time at each network stage and at '
        'the memory modules"', "fact", "04-tables", table=2, NC=paper_tables.NC_VALUES),
    "table1-simulation": _claim(
        'Table 1 (S_mm = 1), simulation column at NC = 2-32: "Average residence time at each network stage and '
        'at the memory modules"', "fact", "04-tables", table=1),
    "table2-simulation": _claim(
        'Table 2 (S_mm = 2), simulation column at NC = 2-32: "Average residence time at each network stage and '
        'at the memory modules"', "fact", "04-tables", table=2),
    "forward-under-return-over": _claim(
        'Sec. 3.3, Tables 1 and 2: "the model tends to underestimate residence times in the forward network ... '
        'and overestimate residence times in the return network"', "fact", "04-tables"),
    "kruskal-snir-single": _claim(
        'Sec. 3.3: "under the assumptions made by Kruskal and Snir (uniform traffic, unbounded NC) our switch '
        'residence time equation reduces to one identical to theirs"', "fact", "01-derivation"),
    "kruskal-snir-m-packet": _claim(
        'Sec. 4.3: "our switch residence time equation again reduces to one identical to theirs" (m packets)',
        "fact", "01-derivation"),
    "no-queueing-single": _claim(
        'Sec. 3.3: "for a 1 x 1 synchronous switch our equation reduces to R_ij = V_ij ... no queueing at '
        'processors is predicted for S_pe = 1, nor at memory modules for S_mm = 1"', "fact", "01-derivation"),
    "no-queueing-m-switch-memory": _claim(
        'Sec. 4.3: "our switch residence time equation is correct for a 1 x 1 synchronous switch, our memory '
        'equation is correct for S_mem = m"', "fact", "01-derivation"),
    "eq6-no-queueing-spe-m": _claim(
        'Sec. 4.3, eq. (6): "our processor equation is correct for S_pe = m since in all of these cases no '
        'queueing is predicted"', "fact", "01-derivation"),
}

#: The claim ids in the table's order (``order`` of :func:`models.core.claims.save_claims`).
CLAIM_IDS = tuple(CLAIMS)
#: The claims each notebook computes, by notebook (``owns`` of :func:`models.core.claims.save_claims`: the
#: four notebooks write the one claims table, each its own rows).
CLAIM_NOTEBOOKS = {nb: tuple(cid for cid, c in CLAIMS.items() if c["notebook"] == nb)
                   for nb in dict.fromkeys(c["notebook"] for c in CLAIMS.values())}


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



def _row(claim_id, setup="-", *, worst_err=math.nan, holds=None, cause="-", note=""):
    c = CLAIMS[claim_id]
    return {"chapter": _CHAPTER, "claim_id": claim_id, "claim": c["claim"], "kind": c["kind"], "setup": setup,
            "worst_err": worst_err, "sat_ratio": math.nan, "threshold": c["threshold"], "holds": holds,
            "cause": cause, "note": note}


def _figures_text(figs) -> str:
    figs = sorted(int(f) for f in figs)
    return ("Fig. " if len(figs) == 1 else "Figs. ") + ", ".join(str(f) for f in figs)


def worst_points(points: pd.DataFrame) -> pd.DataFrame:
    """Per error claim of :data:`CLAIMS` and set-up: where the model is furthest from the simulation.

    ``points`` as in :func:`claims_table`.  One row per (claim, set-up) with
    simulated points: ``claim_id``, ``setup``, ``figures`` (the figures
    simulated, ``"Fig. 2"``), ``NC range``, ``worst_err`` (largest ``|relative
    error|`` in ``R`` or ``X``), and where it is: ``at`` (``"Fig. 2, S_mm=4, X,
    NC = 8"``).
    """
    rows = []
    for cid, c in CLAIMS.items():
        if c["kind"] != "error":
            continue
        mine = points[points["figure"].isin(c["figures"])]
        for setup in [s for s in SETUPS if s in set(mine["setup"])]:
            g = mine[mine["setup"] == setup]
            err = g["rel. error"].abs().to_numpy(dtype=float)
            if not np.isfinite(err).any():
                continue
            worst = g.iloc[int(np.nanargmax(err))]
            rows.append({"claim_id": cid, "setup": setup, "figures": _figures_text(set(g["figure"])),
                         "NC range": f"{int(g['NC'].min())}-{int(g['NC'].max())}", "worst_err": float(np.nanmax(err)),
                         "at": f"{worst['curve'].rsplit(':', 1)[0]}, {worst['quantity']}, NC = {int(worst['NC'])}"})
    return pd.DataFrame(rows, columns=["claim_id", "setup", "figures", "NC range", "worst_err", "at"])


def _error_rows(points: pd.DataFrame) -> list:
    rows = []
    for w in worst_points(points).itertuples(index=False):
        source = "single" if min(CLAIMS[w.claim_id]["figures"]) < 6 else "multi"
        note = (f"{w.figures}, R and X at NC = {w[3]} (a closed system never saturates, so every simulated NC "
                f"counts; sat_ratio n/a); worst at {w.at} (tab-min_mva-{source}-packet-errors.csv)")
        rows.append(_row(w.claim_id, w.setup, worst_err=w.worst_err, cause="model", note=note))
    return rows


def _table_rows(tables: Mapping, readings: pd.DataFrame | None) -> list:
    rows = []
    by_table = {}
    for (which, setup), cmp in tables.items():
        by_table.setdefault(which, {})[setup] = cmp
    # the analytic columns: the model is the same under either wiring (uniform traffic); use the default set-up's
    for cid, c in CLAIMS.items():
        if not cid.endswith(("analytic-low-nc", "analytic-high-nc")) and cid != "table2-analytic":
            continue
        cmps = by_table.get(c["table"])
        if not cmps:
            continue
        cmp = cmps.get(DEFAULT_SETUP, next(iter(cmps.values())))
        agree = paper_tables.analytic_agreement(cmp, c["table"], {"group": c["NC"]}).iloc[0]
        holds = bool(agree["agreeing"] == agree["entries"])
        note = (f"{int(agree['agreeing'])}/{int(agree['entries'])} stage and memory entries agree to the printed "
                f"precision (ours truncated to 3 decimals within 0.001); largest |ours - paper| "
                f"{agree['max |diff|']:.4f} cycles ({agree['at']})")
        if readings is not None and not holds:
            mine = readings[(readings["table"] == c["table"]) & readings["NC"].isin(c["NC"])]
            worst = mine.groupby("reading", sort=False)["max |diff|"].max()
            other = worst[[r for r in worst.index if r in EQ1_READINGS and r != "paper"]]
            if len(other) and "paper" in worst:
                note += (f"; {'none' if other.min() >= worst['paper'] else 'not all'} of the {len(other)} other "
                         f"readings of eq. (1) tried does better (the best leaves {other.min():.3f})")
            iters = [r for r in worst.index if r in paper_tables.ITERATIONS]
            if iters and "paper" in worst:
                same = all(abs(worst[r] - worst["paper"]) < 1e-9 for r in iters)
                note += f", and the {' and '.join(iters)} gives {'the same residual' if same else 'another residual'}"
        note += "; 04-tables, tab-min_mva-analytic-accuracy.csv"
        rows.append(_row(cid, "-", holds=holds, cause="-" if holds else "paper text", note=note))
    # the simulation columns, per set-up
    for cid in ("table1-simulation", "table2-simulation"):
        which = CLAIMS[cid]["table"]
        for setup in [s for s in SETUPS if s in by_table.get(which, {})]:
            cmp = by_table[which][setup]
            if "sim_agrees" not in cmp:
                continue
            a = paper_tables.simulation_agreement(cmp)
            worst = cmp.loc[(cmp["diff_sim"].abs() / cmp["paper_sim"]).idxmax()]
            note = (f"{a['agreeing']}/{a['entries']} entries within max(our 95% CI, 0.01 cycles) of the paper's "
                    f"simulation (at least {paper_tables.SIM_COVERAGE:.0%} required); largest difference "
                    f"{worst['diff_sim'] / worst['paper_sim']:+.2%} ({worst['row']} at NC {int(worst['NC'])}); "
                    f"04-tables, tab-min_mva-table{which}{'' if setup == DEFAULT_SETUP else '-' + setup}.csv")
            rows.append(_row(cid, setup, holds=a["holds"], cause="-" if a["holds"] else "simulator set-up",
                             note=note))
    # the paper's reading of its tables, on our simulation
    for setup in SETUPS:
        cmps = [by_table[w][setup] for w in sorted(by_table) if setup in by_table[w] and "sim" in by_table[w][setup]]
        if not cmps:
            continue
        b = paper_tables.bias_pattern(cmps)
        holds = b["forward_under"] > 0.5 and b["return_over"] > 0.5
        which = sorted(w for w in by_table if setup in by_table[w])
        note = (f"the model is below our simulation at {b['forward_under']:.0%} of the forward-stage entries and "
                f"above it at {b['return_over']:.0%} of the return-stage entries (the paper's own columns: "
                f"{b['paper_forward_under']:.0%}, {b['paper_return_over']:.0%}); Table "
                f"{' and '.join(str(w) for w in which)}, 04-tables")
        rows.append(_row("forward-under-return-over", setup, holds=holds, cause="-" if holds else "model", note=note))
    return rows


def _symbolic_rows(checks: Mapping) -> list:
    def yes(flag):
        return "holds" if flag else "does not hold"

    rows = []
    ok = checks["kruskal_snir_single"]
    rows.append(_row("kruskal-snir-single", holds=ok, cause="-" if ok else "model",
                     note=f"eq. (1) solved by SymPy under uniform traffic with NC -> oo, forward and return "
                          f"network: the reduction {yes(ok)} (01-derivation)"))
    ok, printed = checks["kruskal_snir_m"], checks["kruskal_snir_m_printed"]
    rows.append(_row("kruskal-snir-m-packet", holds=ok, cause="-" if (ok and printed) else "paper text",
                     note=f"with the factor m on terms (a), (b) that the text of Sec. 4.2 asks for the reduction "
                          f"{yes(ok)}; for eq. (4) as printed it {yes(printed)} (01-derivation)"))
    ok = checks["switch_1x1_single"] and checks["memory_single"] and checks["processor_single"]
    rows.append(_row("no-queueing-single", holds=ok, cause="-" if ok else "model",
                     note=f"per-visit fixed points of eqs. (1)-(3) solved by SymPy: every queueing term vanishes "
                          f"for the 1 x 1 switch, S_mm = 1 and S_pe = 1: {yes(ok)} (01-derivation)"))
    ok = checks["switch_1x1_m"] and checks["memory_m"]
    rows.append(_row("no-queueing-m-switch-memory", holds=ok, cause="-" if ok else "model",
                     note=f"eq. (4) at a 1 x 1 switch and eq. (5) at S_mm = m: every queueing term vanishes: "
                          f"{yes(ok)} (01-derivation)"))
    ok, at1 = checks["processor_m_spem"], checks["processor_m_spe1"]
    rows.append(_row("eq6-no-queueing-spe-m", holds=ok, cause="-" if ok else "model",
                     note=f"eq. (6) as printed keeps its term (b), U (NC-1)/NC (S_pe-1) S_pe/(S_pe+m-1), at "
                          f"S_pe = m > 1, so the claim {yes(ok)} there; at S_pe = 1, the only value the paper's "
                          f"figures use, it {yes(at1)} (01-derivation)"))
    return rows


def claims_table(*, figure_points: pd.DataFrame | None = None, tables: Mapping | None = None,
                 readings: pd.DataFrame | None = None, symbolic: Mapping | None = None) -> pd.DataFrame:
    """The rows of the chapter's claims table that the given inputs decide (columns :data:`CLAIM_COLUMNS`).

    Parameters (each optional; a notebook passes what it computed)
    ----------
    figure_points : DataFrame
        The ``points`` of :func:`error_tables` (columns ``figure``, ``setup``,
        ``quantity``, ``NC``, ``rel. error``, ``curve``): one ``"error"`` row
        per error claim of :data:`CLAIMS` and set-up simulated, ``worst_err``
        the largest ``|relative error|`` in ``R`` or ``X`` over the claim's
        figures, curves and every simulated ``NC`` (a closed system has no
        saturation load, so no point is left out; ``sat_ratio`` is NaN).
    tables : mapping
        ``{(table number, set-up): compare_table frame}`` of simulated
        :func:`~models.min_mva.paper_tables.run_table` runs: the analytic
        rows (set-up ``"-"``; ``holds`` when every entry agrees to the
        printed precision), the simulation rows per set-up (``holds`` when at
        least :data:`~models.min_mva.paper_tables.SIM_COVERAGE` of the
        entries agree) and the forward/return bias per set-up (``holds`` when
        the model is below the simulation at most forward-stage entries and
        above it at most return-stage entries).
    readings : DataFrame
        :func:`~models.min_mva.paper_tables.reading_residuals`, quoted in the
        note of an analytic row that does not hold.
    symbolic : mapping
        :func:`symbolic_checks`: the special cases of Secs. 3.3 and 4.3.

    ``threshold`` is the paper's own tolerance (5% for Fig. 2, NaN where it
    names none); ``cause`` is ``"model"`` for the model-vs-simulation gaps,
    ``"paper text"`` where the printed text or tables disagree with the
    model it describes, ``"simulator set-up"`` where a simulation column is
    not reproduced on a set-up, ``"-"`` otherwise.
    """
    rows = []
    if figure_points is not None and len(figure_points):
        rows += _error_rows(figure_points)
    if tables:
        rows += _table_rows(tables, readings)
    if symbolic:
        rows += _symbolic_rows(symbolic)
    return _ordered(pd.DataFrame(rows, columns=list(CLAIM_COLUMNS)))


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    order = {cid: i for i, cid in enumerate(CLAIMS)}
    setups = {s: i + 1 for i, s in enumerate(SETUPS)} | {"-": 0}
    key = [(order.get(c, len(order)), setups.get(s, len(setups))) for c, s in zip(frame["claim_id"], frame["setup"])]
    idx = sorted(range(len(frame)), key=lambda i: key[i])
    out = frame.iloc[idx].reset_index(drop=True)
    out["holds"] = out["holds"].astype(object)
    return out[list(CLAIM_COLUMNS)]





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
        threshold = CLAIMS[row.claim_id]["threshold"]
        if np.isfinite(threshold):
            out[key + "-verdict"] = "within" if row.worst_err <= threshold else "outside"
            within.setdefault(row.claim_id, set()).add(bool(row.worst_err <= threshold))
    if "fig2-within-5pct" in within:
        out["min_mva-fig2-wiring"] = ("is the same on both set-ups" if len(within["fig2-within-5pct"]) == 1
                                      else "depends on the wiring")
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
      ``t1-low-agree``, ``t1-high-agree``, ``t2-agree`` (entries agreeing to
      the printed precision, ``"k/n"``), ``R-excess-min``/``-max`` (the
      paper's R beyond its printed rows);
    * the readings of eq. (1): ``readings-n`` (readings tried besides the
      paper's), ``readings-best-high`` and ``readings-best-name`` (the best of
      them on Table 1 at NC >= 16), ``undamped-same`` (a sentence);
    * the simulation column: ``sim-agree`` (both tables, NC <= 16, on
      ``reference``), ``t<which>-sim-<setup>`` (``"k/n"``) and
      ``t<which>-sim-<setup>-share`` per comparison, ``sim-miss-n``,
      ``sim-miss-sentence`` and ``sim-miss-list`` (the entries with NC <= 16
      that miss the criterion);
    * the wiring: ``r6-mirror``, ``r6-same``, ``r6-paper`` (stage R6 at NC = 4
      on ``reference``, on ``other`` -- when Table 2 ran on it -- and in the
      paper's simulation);
    * the paper's bias reading: ``bias-fwd-<setup>``, ``bias-ret-<setup>``
      (:func:`~models.min_mva.paper_tables.bias_pattern` per set-up).
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
    }
    for key, row in zip(("t1-low", "t1-high", "t2"), agree.itertuples()):
        out[f"min_mva-{key}-agree"] = f"{row.agreeing}/{row.entries}"
    analytic = excess[excess["column"] == "analytic"]["excess"]
    out["min_mva-R-excess-min"] = float(analytic.min())
    out["min_mva-R-excess-max"] = float(analytic.max())
    # the readings of eq. (1)
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
    # the simulation column
    low = pd.concat([t1, t2])
    low = low[low["NC"] <= 16]
    out["min_mva-sim-agree"] = f"{int(low['sim_agrees'].sum())}/{len(low)}"
    for (which, setup), tab in tabs.items():
        a = paper_tables.simulation_agreement(tab)
        out[f"min_mva-t{which}-sim-{setup}"] = f"{a['agreeing']}/{a['entries']}"
        out[f"min_mva-t{which}-sim-{setup}-share"] = float(a["share"])
    miss = paper_tables.disagreements({1: t1, 2: t2}, max_nc=16)
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
    # the paper's reading of its tables, per set-up
    for setup in dict.fromkeys(s for _, s in tabs):
        b = paper_tables.bias_pattern([tab for (_, s), tab in tabs.items() if s == setup])
        out[f"min_mva-bias-fwd-{setup}"] = b["forward_under"]
        out[f"min_mva-bias-ret-{setup}"] = b["return_over"]
    return out
