"""The paper's Fig. 1 and the routing comparison: set-ups, figures, simulator translation, runs, tables, claims.

Fig. 1 of Safaei et al. (2007) plots the mean message latency (cycles) against
the generation rate :math:`\\lambda_g` (messages/node/cycle) on ``8 x 8`` and
``16 x 16`` bidirectional tori with ``V = 10`` VCs, for ``M = 32`` and ``64``
flits, model and simulation.  Every curve is a
:class:`models.core.experiment.Curve` (model keywords ``k``, ``M``, ``V``,
``escape_levels``; simulator keywords ``routing``, ``ejection_vcs``; the name
of its simulator set-up in ``Curve.setup``) whose loads are fractions of the
**simulated saturation rate** of that set-up; :func:`run_figure` runs them
through :func:`models.core.experiment.run_figure`: the simulated saturation
rate by :func:`sim_saturation` (the one bisection,
:func:`models.core.saturation.find_saturation`, on the simulator's
``saturated`` flag, bracketed from 80% of the model's rate), the simulation
at the fractions (25%, 50%, 75%, 90% and any others asked for), and the
model at the same rates and on a line of ``model_points`` rates.
:func:`error_table` is :func:`models.core.experiment.error_table` with this
chapter's columns, one row per curve and set-up; :func:`run_comparison` runs
the same tori and rates with Duato's routing and dimension-order routing.

Simulator set-ups (:data:`SETUPS`; DESIGN.md: "simulator set-ups are named").
The paper's text and its model describe two different ejection channels:

* ``"paper"``: one ejection VC per node, as the text states (messages are
  "transferred to the local PE one at a time through the ejection channel",
  Sect. 3.1): a message that finds the ejection channel busy waits for it
  while holding its VCs in the network;
* ``"model"``: ``V`` ejection VCs per node (the ejection channel still moves
  one flit per cycle), as the model assumes: eq. (5) has no ejection term, so
  a message never waits to leave.

They differ only in ``ejection_vcs`` (``tests/torus_nbc`` checks it).
:func:`gap_table` splits the model's gap on the paper's set-up into the part
the ejection set-up accounts for and the part that remains with ``V``
ejection VCs (a property of the model); :func:`axis_table` compares each
set-up's simulated saturation with the end of the paper's x axes;
:func:`claims_table` gathers the paper's claims and what we measure.

Simulation (:func:`sim_kwargs` translates a curve to the keywords of
:func:`models.sim.wormhole.simulate`): ``Torus((k, k), bidirectional=True)``,
Poisson sources, uniform destinations, fixed length ``M``, ``buffer_depth =
2``, ``injection_vcs = V`` (the model's source queue with rate
:math:`\\lambda_g/V`), the set-up's ``ejection_vcs``, results cached on disk
(sweeps through :func:`models.sim.sweep.run_sweep`).  Routings:
``duato_nbc`` with ``escape_levels = V2``; ``duato`` (Duato's routing of the
torus_ipp chapter: ``V - 2`` adaptive VCs and the two dateline escape VCs of
dimension order); ``dor`` (dimension-order routing, shorter direction on the
bidirectional torus, two dateline escape VCs and ``V - 2`` more VCs on the
same path).

Plots are in :mod:`models.torus_nbc.plots`.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core import experiment
from ..core.claims import BELOW, CLAIM_COLUMNS, SimSettings, SimulatorSetup, worst_error_below
from ..core.errors import ParameterError
from ..core.experiment import ERROR_FRACTIONS, Curve, CurveRun, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.tables import percent, signed_percent
from ..core.validate import require
from ..core.validation import saturation_aware_error
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .params import check_params, min_escape_levels, min_vcs
from .routing_check import check
from .solve import saturation_load, solve

__all__ = [
    "ERROR_FRACTIONS", "FRACTIONS", "BELOW", "ROUTINGS", "SETUPS", "DEFAULT_SETUP", "DEFAULT_SETUPS", "PAPER_AXIS",
    "PAPER_AXIS_TICKS", "FIGURES", "fig1", "routing_figure", "describe", "SimSettings", "SETTINGS", "sim_kwargs",
    "simulate_curve", "sim_saturation", "run_figure", "points_table", "saturation_table", "error_table",
    "ERROR_COLUMNS", "format_errors", "gap_table", "axis_table", "axis_sentence", "split_table", "cdg_table",
    "run_comparison", "routing_verdicts", "worst_text", "gap_sentence", "glue_values", "glue_values_cdg",
    "glue_values_routing", "routing_sentence", "WORST", "WORST_FINITE", "SATURATED_FROM", "GAP_COLUMNS",
    "AXIS_COLUMNS", "CLAIMS", "CLAIM_COLUMNS", "claims_table",
]

#: Simulated rates of every curve, as fractions of the simulated saturation rate.
FRACTIONS = (0.1,) + ERROR_FRACTIONS

#: Routings compared in the chapter (simulator names) and their labels.
ROUTINGS = {"duato_nbc": "Duato-Nbc", "duato": "Duato (dateline escape)", "dor": "dimension order"}

#: Full-profile simulation lengths (the paper ran 300,000 cycles after 10,000 of warm-up).
SIM_MESSAGES = 100_000
SIM_WARMUP = 10_000


# ----------------------------------------------------------------------------
# Simulator set-ups
# ----------------------------------------------------------------------------
#: The chapter's simulator set-ups: the paper's text and the model describe different ejection channels.
SETUPS = {
    "paper": SimulatorSetup(
        "paper", "one ejection VC per node, as the paper states: messages are \"transferred to the local PE one at a "
        "time through the ejection channel\" (Sect. 3.1)", stands_for="paper", overrides={"ejection_vcs": 1},
        short="1 ejection VC"),
    "model": SimulatorSetup(
        "model", "V ejection VCs per node (still one flit per cycle), as the model assumes: eq. (5) has no ejection "
        "term, so a message never waits to leave the network", stands_for="model", overrides={"ejection_vcs": "V"},
        short="V ejection VCs"),
}

#: The set-up the command line simulates by default: the paper's text (the claims table has a row per set-up).
DEFAULT_SETUP = "paper"

#: The set-ups every figure is simulated with, the paper's first.
DEFAULT_SETUPS = ("paper", "model")

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
    if isinstance(setups, str) or not len(setups):
        raise ParameterError(f"`setups` must be a non-empty list of set-up names of {sorted(SETUPS)}; got {setups!r}")
    unknown = [s for s in setups if s not in SETUPS]
    if unknown:
        raise ParameterError(f"`setups` must name set-ups of {sorted(SETUPS)}; got {unknown[0]!r}")
    chosen = [SETUPS[s] for s in dict.fromkeys(setups)]
    out = []
    for k in k_values:
        for M in M_values:
            p = check_params(k, M, V, min_escape_levels(int(k)) + extra_levels if extra_levels else None)
            for st in chosen:
                out.append(Curve(f"{p.k}x{p.k}, M={p.M}, {st.name} set-up",
                                 model=dict(k=p.k, M=p.M, V=p.V, escape_levels=p.V2),
                                 sim=dict(routing="duato_nbc", **st.sim(p.V)), setup=st.name, loads=tuple(fractions),
                                 fractions_of="sim"))
    return tuple(out)


def fig1(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
         extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS,
         setups: Sequence[str] = DEFAULT_SETUPS) -> Figure:
    """Fig. 1: one curve per ``(k, M)`` and set-up, ``V2 = k/2 + 1 + extra_levels`` escape levels (default the minimum).

    The curves' loads are ``fractions`` of the simulated saturation rate of
    their own set-up; labels ``"8x8, M=32, paper set-up"``.
    """
    return Figure("fig-torus_nbc-fig1", f"Duato-Nbc on k x k tori, V = {V}",
                  _curves(k_values, M_values, V, extra_levels, fractions, setups), x_label="traffic generation rate")


def routing_figure(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
                   extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS,
                   setups: Sequence[str] = DEFAULT_SETUPS) -> Figure:
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
#: The chapter's run lengths at the paper's scale (:class:`~models.core.claims.SimSettings`; messages counted
#: after the warm-up).
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP)


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at the rate ``load`` (the translation).

    From the model keywords ``k``, ``M``, ``V``, ``escape_levels`` and the
    simulator keywords ``routing`` (default ``"duato_nbc"``) and
    ``ejection_vcs`` (default 1); the command line's bare curve (the
    solver's keywords and a set-up's overrides) is enough.
    """
    m, s = curve.model, curve.sim
    routing = s.get("routing", "duato_nbc")
    kw = dict(topology=Torus((m["k"], m["k"]), bidirectional=True), routing=routing, vcs=m["V"],
              message_length=m["M"], rate=float(load), messages=settings.messages,
              warmup_messages=settings.warmup_messages, batches=settings.batches, seed=settings.seed,
              ejection_vcs=s.get("ejection_vcs", 1))
    if routing == "duato_nbc":
        kw["escape_levels"] = m.get("escape_levels")
    return kw


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[dict]:
    """The simulation at the rates ``loads``, one cached sweep: a row per rate.

    Keys ``latency`` (cycles, ``inf`` if saturated), ``latency CI`` (95% half
    width), ``saturated``, ``network latency`` and ``multiplexing``.
    """
    return [{"latency": s.latency, "latency CI": s.latency_ci, "saturated": s.saturated,
             "network latency": s.network_latency, "multiplexing": s.multiplexing}
            for s in run_sweep([sim_kwargs(curve, r, settings) for r in loads], jobs=settings.jobs,
                               cache=settings.cache, progress=settings.progress)]


def sim_saturation(curve: Curve, guess: float, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation rate (messages/node/cycle) of ``curve``'s routing, by bracketing and bisection.

    :func:`~models.core.saturation.find_saturation` from ``guess`` (both ends
    checked): the rate is scaled by 1.25 until one rate is unsaturated and a
    higher one saturated (at most 40 runs), then the bracket is halved until
    its relative width is below ``settings.sat_rtol``.  The result's
    ``load`` is the final bracket's midpoint, ``evaluations`` the runs.
    """
    guess = require("guess", guess, 0, lo_open=True, unit="messages/node/cycle")

    def saturated(rate):
        return bool(simulate_curve(curve, [rate], settings)[0]["saturated"])

    s = find_saturation(saturated, guess, guess, check_lo=True, check_hi=True, expand=1.25, max_expansions=39,
                        rtol=settings.sat_rtol)
    if not s.bracketed:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} "
                             f"({curve.sim.get('routing', 'duato_nbc')}) from {guess}")
    return s


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 60) -> tuple:
    """Model and simulation of every curve of ``figure``: a tuple of :class:`~models.core.experiment.CurveRun`.

    Model columns: ``latency``, ``network latency``, ``multiplexing``,
    ``saturated``; simulator columns: the same and ``latency CI`` (95% half
    width).  Simulated rates are rounded to 6 significant digits; the model
    line is ``model_points - 1`` rates evenly spaced strictly between 0 and
    the model's saturation rate.  With ``simulate=False`` the fractions are
    of the model's saturation rate.
    """
    model_points = require("model_points", model_points, 1, unit="points per model curve", integer=True)
    sim = (lambda curve, rates: simulate_curve(curve, rates, settings)) if simulate else None
    return experiment.run_figure(
        figure, _model, sim,
        model_saturation=lambda curve: saturation_load(**curve.model),
        sim_saturation=lambda curve, model_sat: sim_saturation(curve, 0.8 * model_sat, settings),
        line=lambda curve, model_sat, rates: np.linspace(0.0, model_sat, model_points + 1)[1:-1],
        round_to=6,
    )


def _model(curve: Curve, rate: float) -> dict:
    r = solve(rate, **curve.model)
    return {"latency": r.latency, "network latency": r.network_latency, "multiplexing": r.multiplexing,
            "saturated": r.saturated}


_MODEL_COLUMNS = ("latency", "network latency", "multiplexing")
_SIM_COLUMNS = {"latency": "sim latency", "latency CI": "sim CI", "saturated": "sim saturated",
                "network latency": "sim network latency", "multiplexing": "sim multiplexing"}


def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Fig. 1's points: one row per rate of every curve and set-up, sorted by rate within a curve.

    Columns ``curve`` (``"8x8, M=32"``), ``setup``, ``k``, ``M``, ``rate``
    (messages/node/cycle), ``fraction`` (of the set-up's simulated saturation
    rate; NaN on the model line), ``model latency`` (cycles, inf past the
    model's saturation), ``model network latency``, ``model multiplexing``
    and, at the simulated rates, ``sim latency``, ``sim CI`` (95% half
    width), ``sim saturated``, ``sim network latency``, ``sim multiplexing``.
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


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per curve and set-up: ``k``, ``M``, the model's and the simulated saturation rate (bracket, runs)."""
    rows = []
    for run in runs:
        row = {**describe(run.curve), "model saturation": run.model_saturation}
        s = run.brackets.get("sim")
        if s is not None:
            row.update({"sim saturation": s.load, "sim saturation lo": s.lo, "sim saturation hi": s.hi,
                        "saturation runs": s.evaluations})
        rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def _err_column(f: float) -> str:
    return f"err @{f:.0%}"


#: The worst-error column of :func:`error_table` (:func:`models.core.claims.worst_error_below`, a fraction).
WORST = f"worst |err| < {BELOW:.0%}"
#: The same without the rates where only the model is saturated (a fraction; NaN if none is left).
WORST_FINITE = f"worst finite |err| < {BELOW:.0%}"
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
    run); :data:`WORST`: the largest ``|error|`` at the simulated rates below
    :data:`BELOW` of the set-up's simulated saturation rate
    (:func:`models.core.claims.worst_error_below`); ``model saturation``,
    ``sim saturation`` (messages/node/cycle); ``saturation err``;
    ``saturation ratio`` (model / simulation); then, for the sentences,
    :data:`WORST_FINITE` (the same without the rates where only the model is
    saturated) and :data:`SATURATED_FROM`.
    """
    core = experiment.error_table(runs, at)
    table = pd.DataFrame([{k: v for k, v in describe(r.curve).items() if k in ("curve", "setup")} for r in runs])
    for f, col in zip(at, [c for c in core if c.startswith("err @")]):
        table[_err_column(f)] = core[col].to_numpy() / 100.0
    table[WORST] = [worst_error_below(r) for r in runs]
    for col in ("model saturation", "sim saturation"):
        table[col] = core[col].to_numpy()
    table["saturation err"] = core["saturation err [%]"].to_numpy() / 100.0
    table["saturation ratio"] = core["saturation ratio"].to_numpy()
    table[WORST_FINITE] = [worst_error_below(r, finite=True) for r in runs]
    table[SATURATED_FROM] = [_saturated_from(r) for r in runs]
    return table


def format_errors(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`error_table` as text (the chapter's CSV, read by the chapter page): errors as ``+12.3%``
    (``model saturated``, ``n/a``), rates to 5 decimals, the ratio to 3; the columns :data:`ERROR_COLUMNS`
    (those of ``at`` in place of the default fractions')."""
    def text(x, fn):
        if isinstance(x, (int, float)) and math.isinf(x) and x > 0:
            return "model saturated"
        out = fn(x)
        return "n/a" if out is None else out

    shown = table.drop(columns=[WORST_FINITE, SATURATED_FROM], errors="ignore").copy()
    for col in shown.columns:
        if col.startswith("err @") or col == "saturation err":
            shown[col] = [text(x, signed_percent) for x in shown[col]]
        elif col == WORST:
            shown[col] = [text(x, percent) for x in shown[col]]
    for col, digits in (("model saturation", 5), ("sim saturation", 5), ("saturation ratio", 3)):
        shown[col] = [f"{float(x):.{digits}f}" if math.isfinite(float(x)) else "n/a" for x in shown[col]]
    return shown


GAP_COLUMNS = ("curve", "k", "M", "fraction", "rate", "model latency", "sim latency, paper set-up",
               "sim latency, model set-up", "gap, paper set-up", "of which the model", "of which the ejection set-up",
               "err, paper set-up [%]", "err, model set-up [%]")


def gap_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS) -> pd.DataFrame:
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
            model, paper, wide = float(p["model latency"]), float(p["sim latency"]), float(s["latency"])
            err = 100.0 * saturation_aware_error([model, model], [paper, wide])
            rows.append(dict(zip(GAP_COLUMNS, (describe(run.curve)["curve"], k, M, p["fraction"], p["load"], model,
                                               paper, wide, model - paper, model - wide, wide - paper, float(err[0]),
                                               float(err[1])))))
    return pd.DataFrame(rows, columns=list(GAP_COLUMNS))


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


def _names(items) -> str:
    items = list(items)
    return " and ".join(f"the {x}" for x in items) + (" set-up" if len(items) == 1 else " set-ups")


def axis_sentence(table: pd.DataFrame) -> str:
    """One sentence per torus of :func:`axis_table`: where its simulations saturate and what the axis fits."""
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
    not counted).
    """
    return pd.concat([check(k, max(int(V), min_vcs(k)), count=k <= count_upto).to_frame() for k in sizes],
                     ignore_index=True)


def run_comparison(runs: Sequence[CurveRun], routings: Sequence[str] = tuple(ROUTINGS),
                   settings: SimSettings = SETTINGS):
    """Simulate every routing on every curve's torus at the rates of ``runs`` (fractions of Duato-Nbc's saturation).

    ``runs`` are Duato-Nbc's simulated runs (:func:`run_figure`), one per
    curve and set-up; every routing is simulated with the run's set-up.
    Returns ``(points, saturation)``: latency per (curve, set-up, routing,
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
                rows.append({**d, "routing": routing, "rate": r, "fraction": f, "latency": s["latency"],
                             "CI": s["latency CI"], "saturated": s["saturated"], "multiplexing": s["multiplexing"]})
            if routing == "duato_nbc":
                b = run.brackets.get("sim")
                sat = {"saturation": ref, "lo": b.lo if b else math.nan, "hi": b.hi if b else math.nan}
            else:
                s = sim_saturation(c, ref, settings)
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
# Sentences for the chapter page (glued, never typed)
# ----------------------------------------------------------------------------
def _sentence(parts) -> str:
    text = "; ".join(parts) + "."
    return text[:1].upper() + text[1:]


def _range(values, fmt: str) -> str:
    values = [float(v) for v in values if math.isfinite(float(v))]
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return format(lo, fmt) if format(lo, fmt) == format(hi, fmt) else f"{format(lo, fmt)} to {format(hi, fmt)}"


def worst_text(errors: pd.DataFrame, setup: str) -> str:
    """The worst ``|error|`` below :data:`BELOW` of the simulated saturation on ``setup``, with its curve, in words."""
    e = errors[errors["setup"] == setup]
    w = e[WORST].to_numpy(dtype=float)
    if e.empty or np.isnan(w).all():
        return "n/a (not simulated)"
    j = int(np.nanargmax(w))
    if math.isinf(w[j]):
        text = f"unbounded on {e['curve'].iloc[j]}, where the model is already saturated at " \
               f"{e[SATURATED_FROM].iloc[j]:.0%} of the simulated saturation rate"
        finite = e[WORST_FINITE].to_numpy(dtype=float)
        if np.isnan(finite).all():
            return text
        i = int(np.nanargmax(finite))
        where = f", on {e['curve'].iloc[i]}" if i != j else ""
        return text + f" (largest finite error {finite[i]:.1%}{where})"
    return f"{w[j]:.1%} (on {e['curve'].iloc[j]})"


def gap_sentence(gaps: pd.DataFrame) -> str:
    """Per curve, at the paper set-up's worst rate below :data:`BELOW`: the gap and its two parts, in words."""
    if gaps is None or gaps.empty:
        return "The two set-ups were not both simulated, so the gap was not split."
    parts = []
    for curve, g in gaps.groupby("curve", sort=False):
        g = g[g["fraction"] < BELOW]
        rel = (g["gap, paper set-up"].abs() / g["sim latency, paper set-up"]).to_numpy(dtype=float)
        if g.empty or np.isnan(rel).all():
            continue
        r = g.iloc[int(np.nanargmax(rel))]
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
        out[f"torus_nbc-satratio-{setup}"] = _range(e["saturation ratio"], ".2f")
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


def glue_values_cdg(cdg: pd.DataFrame) -> dict:
    """The numbers :doc:`01-derivation` glues from the deadlock check (:func:`cdg_table`), by key.

    ``cdg-all-acyclic`` (``"yes"``, or ``"NO"`` if one graph has a cycle);
    ``cdg8-escape`` and ``cdg8-deps``: escape VCs and their dependencies on
    8x8 (checked here when ``cdg`` has no 8x8 row).
    """
    row8 = cdg[cdg["k"] == 8]
    row8 = row8.iloc[0] if len(row8) else cdg_table([8]).iloc[0]
    return {"torus_nbc-cdg-all-acyclic": "yes" if cdg["acyclic"].astype(bool).all() else "NO",
            "torus_nbc-cdg8-escape": int(row8["escape_vcs"]),
            "torus_nbc-cdg8-deps": int(row8["dependencies"])}


def glue_values_routing(points: pd.DataFrame, saturation: pd.DataFrame) -> dict:
    """The numbers and sentence :doc:`03-routing-comparison` glues, from :func:`run_comparison`'s tables, by key.

    ``cmp-min-ratio``/``cmp-max-ratio``: the range of the other routings'
    simulated saturation rates over Duato-Nbc's (only when another routing
    was run); ``cmp-verdict``: :func:`routing_sentence` of
    :func:`routing_verdicts`; ``cmp-duato-half-max``/``-min``: Duato's
    latency over Duato-Nbc's at half of Duato-Nbc's saturation rate, the
    largest and smallest over the curves and set-ups (when both were run).
    """
    out = {}
    others = saturation[saturation["routing"] != "duato_nbc"]["vs Duato-Nbc"]
    if len(others):
        out["torus_nbc-cmp-min-ratio"] = float(others.min())
        out["torus_nbc-cmp-max-ratio"] = float(others.max())
    out["torus_nbc-cmp-verdict"] = routing_sentence(routing_verdicts(saturation))
    half = points[np.isclose(points["fraction"], 0.5)]
    at_half = half.pivot(index=["curve", "setup"], columns="routing", values="latency")
    if "duato" in at_half and "duato_nbc" in at_half:
        ratio = at_half["duato"] / at_half["duato_nbc"]
        out["torus_nbc-cmp-duato-half-max"] = float(ratio.max())
        out["torus_nbc-cmp-duato-half-min"] = float(ratio.min())
    return out


def routing_sentence(verdicts: pd.DataFrame) -> str:
    """:func:`routing_verdicts` in words, one clause per set-up."""
    parts = []
    for _, r in verdicts.iterrows():
        level = int(r["curves"]) - int(r["ahead"]) - int(r["behind"])
        parts.append(f"on the {r['setup']} set-up Duato-Nbc saturates later than every other routing, beyond the "
                     f"bisection's bracket, on {int(r['ahead'])} of {int(r['curves'])} curves (level with the best "
                     f"other on {level}, behind on {int(r['behind'])}), and at worst at {r['worst ratio']:.2f} times "
                     f"the rate of {r['best other']}")
    return _sentence(parts) if parts else "No routing was compared."


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
CLAIMS = {
    "latency-accuracy": "\"the analytical model predicts the mean message latency with a good degree of accuracy in "
                        "all regions\" (Sect. 4, Fig. 1)",
    "saturation-discrepancy": "\"some discrepancies around the saturation point are apparent\" (Sect. 4, Fig. 1)",
    **{f"fig1-axes-{k}x{k}": f"Fig. 1 plots the {k}x{k} simulation on an x axis that ends at {end:g} "
                             f"messages/node/cycle (Fig. 1, {k}x{k} panel)" for k, end in PAPER_AXIS.items()},
    "duato-nbc-best": "\"Duato-Nbc has a better performance compared to other algorithms reported in the "
                      "literature\" (Sect. 2.1, citing Safaei et al. 2006)",
    "deadlock-free": "\"Negative Hop-based (NHop) deadlock free routing augmented with ... bonus cards (Nbc)\" used "
                     "\"in the context of Duato's methodology\" (Sect. 2.1)",
}


def _row(claim_id, kind, setup, *, worst_err=math.nan, sat_ratio=math.nan, threshold=math.nan, holds=None,
         cause="-", note=""):
    return {"chapter": "torus_nbc", "claim_id": claim_id, "claim": CLAIMS[claim_id], "kind": kind, "setup": setup,
            "worst_err": worst_err, "sat_ratio": sat_ratio, "threshold": threshold,
            "holds": "" if holds is None else bool(holds), "cause": cause, "note": note}


def claims_table(errors: pd.DataFrame, *, gaps: pd.DataFrame | None = None, axes: pd.DataFrame | None = None,
                 routing: pd.DataFrame | None = None, cdg: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims and what we measure, one row per (claim, set-up), columns :data:`CLAIM_COLUMNS`.

    errors : :func:`error_table` (one row per curve and set-up)
        ``latency-accuracy`` (kind ``error``): ``worst_err`` is the largest
        :data:`WORST` over the set-up's curves, as a fraction.
        ``saturation-discrepancy`` (kind ``saturation``): ``sat_ratio`` is the
        curve's model / simulated saturation ratio farthest from 1.  The paper
        names no tolerance, so ``threshold`` is empty.  ``cause``: ``"model"``
        on the model's set-up (nothing but the model is left); on the paper's
        set-up ``"simulator set-up"`` when the ejection set-up accounts for
        more of the gap than the model does, else ``"model"``: for the
        latency, at the paper set-up's worst point below :data:`BELOW` of its
        saturation rate in ``gaps``, ``|of which the ejection set-up| > |of
        which the model|``; for the saturation ratio, ``|r_paper - r_model| >
        |r_model - 1|`` on the same curve.
    gaps : :func:`gap_table`, optional
        The split of the latency gap on the paper's set-up.
    axes : :func:`axis_table`, optional
        ``fig1-axes-<k>x<k>`` (kind ``fact``), one claim per panel of Fig. 1
        simulated: per set-up, ``holds`` when the set-up is consistent with
        the panel's x axis.
    routing : :func:`routing_verdicts`, optional
        ``duato-nbc-best`` (kind ``fact``): per set-up, ``holds`` when
        Duato-Nbc saturates later than every other routing on every curve.
    cdg : the deadlock check of :func:`models.torus_nbc.routing_check.check` (frames concatenated), optional
        ``deadlock-free`` (kind ``fact``, set-up ``"-"``): ``holds`` when every
        extended channel dependency graph checked is acyclic.
    """
    rows = []
    setups = list(dict.fromkeys(errors["setup"]))
    split = None        # the paper set-up's worst point below BELOW, split into the model's and the set-up's parts
    if gaps is not None and not gaps.empty:
        g = gaps[gaps["fraction"] < BELOW]
        rel = (g["gap, paper set-up"].abs() / g["sim latency, paper set-up"]).to_numpy(dtype=float)
        if np.isfinite(rel).any() or np.isinf(rel).any():
            split = g.iloc[int(np.nanargmax(np.where(np.isnan(rel), -1.0, rel)))]
    ratio_of = {(r["curve"], r["setup"]): float(r["saturation ratio"]) for _, r in errors.iterrows()}
    for setup in setups:
        e = errors[errors["setup"] == setup]
        curves = ", ".join(e["curve"])
        worst = e[WORST].to_numpy(dtype=float)
        worst = worst[~np.isnan(worst)]
        w = float(worst.max()) if worst.size else math.nan
        finite = e[WORST_FINITE].to_numpy(dtype=float)
        finite = finite[np.isfinite(finite)]
        how = ""
        if worst.size and np.isinf(worst).any():
            how = (f"; the model is saturated at a simulated rate below {BELOW:.0%} of the simulated saturation rate"
                   + (f", and its largest finite error is {float(finite.max()):.1%}" if finite.size else ""))
        cause = "model"
        if setup == "paper" and split is not None:
            own, ej = float(split["of which the model"]), float(split["of which the ejection set-up"])
            if abs(ej) > abs(own):
                cause = "simulator set-up"
            how += (f"; at the worst point ({split['curve']}, {split['fraction']:.0%}) the gap of "
                    f"{float(split['gap, paper set-up']):+.1f} cycles is {own:+.1f} from the model and {ej:+.1f} from "
                    f"the single ejection VC (tab-torus_nbc-gaps.csv)")
        rows.append(_row("latency-accuracy", "error", setup, worst_err=w, cause=cause,
                         note=f"Largest |error| of the model at the simulated rates below {BELOW:.0%} of the "
                              f"{setup} set-up's simulated saturation rate, over {curves} (tab-torus_nbc-errors.csv)"
                              f"{how}."))
        ratios = e["saturation ratio"].to_numpy(dtype=float)
        ok = np.isfinite(ratios)
        if ok.any():
            j = int(np.argmax(np.where(ok, np.abs(ratios - 1.0), -1.0)))
            r, curve = float(ratios[j]), e["curve"].iloc[j]
            other = ratio_of.get((curve, "model"), math.nan)
            cause = ("simulator set-up" if setup == "paper" and math.isfinite(other)
                     and abs(r - other) > abs(other - 1.0) else "model")
            also = (f"; {other:.3f} on the same curve with V ejection VCs" if setup == "paper" and math.isfinite(other)
                    else "")
            note = (f"Model / simulated saturation rate on {curve}, the curve farthest from 1 of {curves}{also} "
                    f"(tab-torus_nbc-errors.csv).")
        else:
            r, cause, note = math.nan, "model", f"No simulated saturation rate on the {setup} set-up."
        rows.append(_row("saturation-discrepancy", "saturation", setup, sat_ratio=r, cause=cause, note=note))
    if axes is not None and not axes.empty:
        for _, a in axes.iterrows():
            fits = bool(a["consistent"])
            rows.append(_row(f"fig1-axes-{a['torus']}", "fact", a["setup"], holds=fits,
                             cause="-" if fits else "simulator set-up",
                             note=f"Holds when the set-up's simulated saturation bracket for {a['curve']} meets the "
                                  f"last of the axis's {PAPER_AXIS_TICKS} tick intervals; it is at "
                                  f"{a['sim / axis']:.0%} of the axis (tab-torus_nbc-axes.csv)."))
    if routing is not None and not routing.empty:
        for _, r in routing.iterrows():
            rows.append(_row("duato-nbc-best", "fact", r["setup"], holds=bool(r["holds"]),
                             cause="-" if r["holds"] else "paper text",
                             note=f"Read as a higher simulated saturation rate, with the same V for every routing: "
                                  f"Duato-Nbc is ahead of every other routing beyond the bisection's bracket on "
                                  f"{int(r['ahead'])} of {int(r['curves'])} curves and behind one on "
                                  f"{int(r['behind'])}, at worst at {r['worst ratio']:.3f} times {r['best other']}'s "
                                  f"rate (tab-torus_nbc-routing-saturation.csv)."))
    if cdg is not None and not cdg.empty:
        acyclic = bool(cdg["acyclic"].astype(bool).all())
        sizes = ", ".join(f"{k}x{k}" for k in cdg["k"])
        rows.append(_row("deadlock-free", "fact", "-", holds=acyclic, cause="-" if acyclic else "paper text",
                         note=f"Duato's extended channel dependency graph of the escape VCs, built from the "
                              f"simulator's routing tables, is {'acyclic' if acyclic else 'cyclic'} on {sizes} "
                              f"(the check of tab-torus_nbc-cdg.csv)."))
    order = list(CLAIMS)
    rows.sort(key=lambda r: order.index(r["claim_id"]))     # stable: set-ups stay in their order within a claim
    return pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))
