"""The paper's Fig. 1 and the routing comparison: set-ups, figures, simulator translation, runs, tables, claims.

Fig. 1 of Safaei et al. (2007) plots the mean message latency (cycles) against
the generation rate :math:`\\lambda_g` (messages/node/cycle) on ``8 x 8`` and
``16 x 16`` bidirectional tori with ``V = 10`` VCs, for ``M = 32`` and ``64``
flits, model and simulation.  Every curve is a
:class:`models.core.setups.Curve` (model keywords ``k``, ``M``, ``V``,
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
ejection VCs; :func:`axis_table` compares each set-up's simulated
saturation with the end of the paper's x axes (an inference about the
authors' set-up: the chapter's, not a claim of the paper);
:func:`variance_table` re-solves the model with the service-time variance
of eqs. (18)-(19) at 0 and exponential (the paper's explanation of its
discrepancies); :func:`routing_latency_table`, :func:`fastest_sentence` and
:func:`vc_requirements` compare the routings; :func:`claims_table` gathers
the paper's claims (:data:`CLAIMS`, one per sentence) and what we measure.

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
from ..core.claims import CLAIM_COLUMNS, Claim, claims_frame, worst_error_below
from ..core.setups import BELOW, SimSettings, SimulatorSetup
from ..core.errors import ParameterError
from ..core.experiment import CurveRun
from ..core.setups import ERROR_FRACTIONS, Curve, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.tables import percent, percent_text, signed_percent
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
    "AXIS_COLUMNS", "CLAIMS", "CLAIM_COLUMNS", "claims_table", "CHAPTER", "VARIANCE_LABELS", "VARIANCE_COLUMNS",
    "variance_table", "variance_sentence", "glue_values_variance", "routing_latency_table", "fastest_sentence",
    "vc_requirements",
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
#: The chapter's run lengths at the paper's scale (:class:`~models.core.setups.SimSettings`; messages counted
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
    """Model and simulation of every curve of ``figure``: a tuple of :class:`~models.core.setups.CurveRun`.

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
    (:data:`~models.core.tables.UNBOUNDED`, ``n/a``), rates to 5 decimals, the ratio to 3; the columns
    :data:`ERROR_COLUMNS` (those of ``at`` in place of the default fractions')."""
    shown = table.drop(columns=[WORST_FINITE, SATURATED_FROM], errors="ignore").copy()
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
    :func:`routing_verdicts`; ``cmp-fastest``: :func:`fastest_sentence` (the
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
# Beyond the claims: the paper's explanation, latency by routing, VC requirements
# ----------------------------------------------------------------------------
#: The service-time variances of eqs. (18)-(19) compared by :func:`variance_table` (the solver's ``variance``).
VARIANCE_LABELS = {"zero": "variance 0 (deterministic)", "paper": "the paper's (S - M)^2",
                   "exponential": "variance S^2 (exponential)"}

#: Columns of :func:`variance_table`.
VARIANCE_COLUMNS = ("curve", "setup", "k", "M", "sim saturation", "sim saturation lo", "sim saturation hi",
                    *(f"model saturation, {v}" for v in VARIANCE_LABELS),
                    *(f"saturation ratio, {v}" for v in VARIANCE_LABELS),
                    *(f"worst |err| < {BELOW:.0%}, {v}" for v in VARIANCE_LABELS), "within reach")


def variance_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The model with the service-time variance of eqs. (18)-(19) at 0, the paper's and exponential, per run.

    The paper blames its discrepancies around the saturation point on "the
    approximation used to estimate the variance of the service time
    distribution at a channel" (Sect. 4).  For every simulated run (a curve
    on a set-up): the model's saturation rate with each variance of
    :data:`VARIANCE_LABELS` (the solver's ``variance``; 0 and ``S^2``
    bracket the paper's ``(S - M)^2``), its ratio to the simulated saturation
    rate, the worst ``|error|`` at the simulated rates below :data:`BELOW` of
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
        use = pts[np.isfinite(pts["fraction"].to_numpy(dtype=float)) & (pts["fraction"] < BELOW)
                  & np.isfinite(pts["sim latency"].to_numpy(dtype=float))]
        if "sim saturated" in use:
            use = use[~use["sim saturated"].astype(bool)]
        sats, ratios, worst = {}, {}, {}
        for v in VARIANCE_LABELS:
            sats[v] = saturation_load(**m, variance=v)
            ratios[v] = sats[v] / run.sim_saturation
            model = np.array([solve(float(x), **m, variance=v).latency for x in use["load"]])
            err = np.abs(saturation_aware_error(model, use["sim latency"].to_numpy(dtype=float)))
            err = err[~np.isnan(err)]
            worst[v] = float(err.max()) if err.size else math.nan
        reach = bool(max(sats.values()) >= lo and min(sats.values()) <= hi)
        rows.append(dict(zip(VARIANCE_COLUMNS, (d["curve"], d["setup"], d["k"], d["M"], run.sim_saturation, lo, hi,
                                                *sats.values(), *ratios.values(), *worst.values(), reach))))
    return pd.DataFrame(rows, columns=list(VARIANCE_COLUMNS))


def variance_sentence(table: pd.DataFrame) -> str:
    """:func:`variance_table` in words: how far the variance moves the model's saturation, against the gap."""
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


def glue_values_variance(table: pd.DataFrame) -> dict:
    """The variance test's sentence, glued on :doc:`02-latency` and the chapter page: ``torus_nbc-variance``
    (:func:`variance_sentence` of :func:`variance_table`)."""
    return {"torus_nbc-variance": variance_sentence(table)}


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


def fastest_sentence(points: pd.DataFrame) -> str:
    """Which routing has the lowest mean latency at each simulated rate, per set-up and curve, in words.

    ``points`` is the first table of :func:`run_comparison`; rates are named
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


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
CHAPTER = "torus_nbc"

#: The paper's claims, one per sentence, quoted whole (Safaei et al. 2007), in the order of the claims table.
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("latency-accuracy", "Sect. 4",
          "The figure indicates that the analytical model predicts the mean message latency with a good degree of "
          "accuracy in all regions.", "error"),
    Claim("saturation-discrepancy", "Sect. 4",
          "However, some discrepancies around the saturation point are apparent.", "saturation"),
    Claim("variance-explanation", "Sect. 4",
          "This is a result of the approximations made when constructing the analytical model, e.g. the "
          "approximation used to estimate the variance of the service time distribution at a channel.", "fact"),
    Claim("duato-nbc-best", "Sect. 2.1",
          "Investigations showed that Duato-Nbc has a better performance compared to other algorithms reported in "
          "the literature and the other algorithms proposed in [4].", "fact"),
    Claim("duato-nbc-methodology", "Sect. 2.1",
          "In [5], the Nbc routing scheme has been used in the context of Duato\u2019s methodology [6] and a routing "
          "algorithm, named Duato-Nbc with high performance and minimum virtual channel requirements was resulted.",
          "fact"),
)}


def _case(curve: str) -> str:
    """``"8x8, M=32"`` -> ``"8x8, M = 32"`` (a claims row's case)."""
    return curve.replace("M=", "M = ")


def _ratio_range(values) -> str:
    v = [float(x) for x in values if math.isfinite(float(x))]
    if not v:
        return "n/a"
    return f"{min(v):.3f}" if f"{min(v):.3f}" == f"{max(v):.3f}" else f"{min(v):.3f} to {max(v):.3f}"


def _accuracy_rows(errors: pd.DataFrame, gaps: pd.DataFrame | None) -> list:
    claim = CLAIMS["latency-accuracy"]
    rows = []
    for _, e in errors.iterrows():
        setup, curve = e["setup"], e["curve"]
        w = float(e[WORST])
        if setup == "paper":
            how = ("one ejection VC, the network the paper's text describes (Sect. 3.1): the model omits the wait "
                   "for it, so the gap is the model's")
            g = None if gaps is None else gaps[(gaps["curve"] == curve) & (gaps["fraction"] < BELOW)]
            if g is not None and len(g):
                rel = (g["gap, paper set-up"].abs() / g["sim latency, paper set-up"]).to_numpy(dtype=float)
                r = g.iloc[int(np.nanargmax(np.where(np.isnan(rel), -1.0, rel)))]
                how += (f"; at {r['fraction']:.0%} of the simulated saturation rate its "
                        f"{float(r['gap, paper set-up']):+.1f} cycles are {float(r['of which the model']):+.1f} with "
                        f"V ejection VCs and {float(r['of which the ejection set-up']):+.1f} from the single "
                        f"ejection VC, tab-torus_nbc-gaps.csv")
        else:
            how = "V ejection VCs, as the model assumes"
            if math.isinf(w):
                how += (f": the model is saturated from {float(e[SATURATED_FROM]):.0%} of the simulated saturation "
                        f"rate (model / simulated saturation {float(e['saturation ratio']):.3f})")
        rows.append(claim.row(CHAPTER, setup, case=_case(curve), worst_err=w, sat_ratio=float(e["saturation ratio"]),
                              cause="-" if math.isnan(w) else "model",
                              note=f"{_case(curve)}, {setup} set-up: {how} (tab-torus_nbc-errors.csv)".replace(
                                  "csv (tab-", "csv; tab-") + "."))
    return rows


def _saturation_rows(errors: pd.DataFrame) -> list:
    claim = CLAIMS["saturation-discrepancy"]
    per = "; ".join(f"{_ratio_range(g['saturation ratio'])} on the {s} set-up"
                    for s, g in errors.groupby("setup", sort=False))
    r = errors["saturation ratio"].to_numpy(dtype=float)
    r = r[np.isfinite(r) & (r > 0)]
    far = float(r[np.argmax(np.abs(np.log(r)))]) if r.size else math.nan
    note = (f"Model / simulated saturation rate {per} (tab-torus_nbc-errors.csv): \"some discrepancies\" "
            f"understates a saturation rate off by a factor of up to {max(far, 1 / far):.2f}"
            if r.size else "No simulated saturation rate.")
    return [claim.row(CHAPTER, e["setup"], case=_case(e["curve"]), sat_ratio=float(e["saturation ratio"]),
                      cause="model", note=note + ".") for _, e in errors.iterrows()]


def _variance_rows(variance: pd.DataFrame) -> list:
    claim = CLAIMS["variance-explanation"]
    rows = []
    for _, v in variance.iterrows():
        z, p, e = (float(v[f"model saturation, {x}"]) for x in ("zero", "paper", "exponential"))
        reach = bool(v["within reach"])
        rows.append(claim.row(
            CHAPTER, v["setup"], case=_case(v["curve"]), holds=reach, cause="-" if reach else "paper text",
            note=(f"{_case(v['curve'])}, {v['setup']} set-up: with the service-time variance of eqs. (18)-(19) at 0, "
                  f"the paper's (S-M)^2 and S^2 (exponential) the model saturates at {z:.5f}, {p:.5f} and {e:.5f} "
                  f"messages/node/cycle, the simulation at {float(v['sim saturation lo']):.5f} to "
                  f"{float(v['sim saturation hi']):.5f}: "
                  + ("within reach" if reach else "out of reach of any variance from deterministic to exponential "
                                                 "service")
                  + " (tab-torus_nbc-variance.csv; the sentence's other 'approximations' are not named, so only its "
                    "example is tested).")))
    return rows


def _best_rows(routing: pd.DataFrame | None, latency: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-best"]
    rows = []
    setups = list(dict.fromkeys((list(routing["setup"]) if routing is not None else [])
                                + (list(latency["setup"]) if latency is not None else [])))
    head = ("[5]'s result, over [5]'s algorithms and metric, which this paper does not state; 'better performance' "
            "has no metric here, so two readings of the book's are shown, against the routings the book simulates")
    for setup in setups:
        if routing is not None and (routing["setup"] == setup).any():
            r = routing[routing["setup"] == setup].iloc[0]
            rows.append(claim.row(
                CHAPTER, setup, case="read as a higher saturation rate", cause="reading",
                note=(f"{head}. Saturation rate, {setup} set-up: Duato-Nbc ahead of every other routing beyond the "
                      f"bisection's bracket on {int(r['ahead'])} of {int(r['curves'])} curves, behind on "
                      f"{int(r['behind'])}, at worst {float(r['worst ratio']):.3f} times {r['best other']}'s rate "
                      f"(tab-torus_nbc-routing-verdicts.csv).")))
        if latency is not None and (latency["setup"] == setup).any():
            g = latency[latency["setup"] == setup]
            detail = "; ".join(
                f"lower than {ROUTINGS.get(o, o)} at {int(h['Duato-Nbc lower'].sum())} of {int(h['rates'].sum())} "
                f"rates ({int(h['lower beyond the CIs'].sum())} beyond the CIs, higher beyond them at "
                f"{int(h['higher beyond the CIs'].sum())})" for o, h in g.groupby("routing", sort=False))
            rows.append(claim.row(
                CHAPTER, setup, case="read as a lower mean latency", cause="reading",
                note=(f"{head}. Mean latency at the same rates, {setup} set-up, over the curves: Duato-Nbc {detail} "
                      f"(tab-torus_nbc-routing-latency.csv).")))
    return rows


def _methodology_rows(cdg: pd.DataFrame | None, vcs: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-methodology"]
    rows = []
    if cdg is not None:
        for _, c in cdg.iterrows():
            ok = bool(c["acyclic"])
            rows.append(claim.row(
                CHAPTER, "-", case=f"deadlock freedom, {int(c['k'])}x{int(c['k'])}", holds=ok,
                cause="-" if ok else "paper text",
                note=(f"Duato's methodology [6]: the extended channel dependency graph of the escape VCs, built from "
                      f"the simulator's routing tables, is {'acyclic' if ok else 'cyclic'} on "
                      f"{int(c['k'])}x{int(c['k'])} "
                      f"with V = {int(c['vcs'])} (tab-torus_nbc-cdg.csv) under the book's bookkeeping, which raises a "
                      f"message's escape floor after every negative hop, adaptive or not; the reset after an adaptive "
                      f"hop that the paper's class 1 suggests has cycles (reading choice 9).")))
    if vcs is not None:
        for _, v in vcs.iterrows():
            ok = int(v["duato_nbc"]) <= int(v["fewest other fully adaptive"])
            rows.append(claim.row(
                CHAPTER, "-", case=f"minimum virtual channel requirements, {v['torus']}", holds=ok,
                cause="-" if ok else "paper text",
                note=(f"Fewest VCs per physical channel for deadlock freedom on the {v['torus']} bidirectional torus "
                      f"(the simulator's min_vcs): Duato-Nbc {int(v['duato_nbc'])} (k/2 + 1 escape levels and one "
                      f"adaptive VC), Nbc alone {int(v['nbc'])}, Duato's routing with dateline escape VCs "
                      f"{int(v['duato'])}, dimension order {int(v['dor'])} (tab-torus_nbc-vc-requirements.csv).")))
    if rows:
        rows.append(claim.row(CHAPTER, "-", case="high performance", cause="reading",
                              note="'High performance' names no metric: see duato-nbc-best for the numbers."))
    return rows


def claims_table(errors: pd.DataFrame, *, gaps: pd.DataFrame | None = None, variance: pd.DataFrame | None = None,
                 routing: pd.DataFrame | None = None, routing_latency: pd.DataFrame | None = None,
                 cdg: pd.DataFrame | None = None, vcs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims (:data:`CLAIMS`, one per sentence) and what we measure: rows of :meth:`Claim.row`.

    One row per claim, set-up and case (a curve of Fig. 1, a reading, a
    torus), the columns :data:`CLAIM_COLUMNS`; written with
    :func:`models.core.claims.save_claims` (``setups=SETUPS``).  The paper
    states no number for any of its claims, so no row has a ``threshold``.

    errors : :func:`error_table`
        ``latency-accuracy`` (kind ``error``, per curve and set-up:
        ``worst_err`` = :data:`WORST`) and ``saturation-discrepancy`` (kind
        ``saturation``: ``sat_ratio``).  Cause ``"model"`` on both set-ups:
        the paper's set-up is the network its text describes (one ejection
        VC), and the model omits its wait; ``gaps`` (:func:`gap_table`) adds
        the split of that gap to the paper set-up's note.
    variance : :func:`variance_table`
        ``variance-explanation`` (kind ``fact``, per curve and set-up):
        holds when some variance from 0 to exponential brings the model's
        saturation rate within the simulated bracket.
    routing, routing_latency : :func:`routing_verdicts`, :func:`routing_latency_table`
        ``duato-nbc-best`` (kind ``fact``, per set-up and reading): no
        ``holds`` (the claim is [5]'s, "better performance" names no metric),
        the numbers of both readings in the notes, cause ``"reading"``.
    cdg, vcs : :func:`cdg_table`, :func:`vc_requirements`
        ``duato-nbc-methodology`` (kind ``fact``, no simulation): deadlock
        freedom per torus (the extended escape CDG acyclic), minimum virtual
        channel requirements per torus (Duato-Nbc needs no more VCs than the
        other fully adaptive routings, Nbc alone and Duato's), and "high
        performance" (no metric: not judged).
    """
    rows = _accuracy_rows(errors, gaps) + _saturation_rows(errors)
    if variance is not None and not variance.empty:
        rows += _variance_rows(variance)
    if (routing is not None and not routing.empty) or (routing_latency is not None and not routing_latency.empty):
        rows += _best_rows(routing, routing_latency)
    rows += _methodology_rows(cdg if cdg is not None and not cdg.empty else None,
                              vcs if vcs is not None and not vcs.empty else None)
    return claims_frame(rows)
