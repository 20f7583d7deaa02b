"""The paper's Fig. 1 and the routing comparison: figures, simulator translation, runs, error tables.

Fig. 1 of Safaei et al. (2007) plots the mean message latency (cycles) against
the generation rate :math:`\\lambda_g` (messages/node/cycle) on ``8 x 8`` and
``16 x 16`` bidirectional tori with ``V = 10`` VCs, for ``M = 32`` and ``64``
flits, model and simulation.  Every curve is a
:class:`models.core.experiment.Curve` (model keywords ``k``, ``M``, ``V``,
``escape_levels``; simulator keywords ``routing``, ``ejection_vcs``) whose
loads are fractions of the **simulated saturation rate**;
:func:`run_figure` runs them through :func:`models.core.experiment.run_figure`:
the simulated saturation rate by :func:`sim_saturation` (the one bisection,
:func:`models.core.saturation.find_saturation`, on the simulator's
``saturated`` flag, bracketed from 80% of the model's rate), the simulation
at the fractions (25%, 50%, 75%, 90% and any others asked for), and the
model at the same rates and on a line of ``model_points`` rates.
:func:`error_table` is :func:`models.core.experiment.error_table` with this
chapter's columns; :func:`run_comparison` runs the same tori and rates with
Duato's routing and dimension-order routing.

Simulation (:func:`sim_kwargs` translates a curve to the keywords of
:func:`models.sim.wormhole.simulate`): ``Torus((k, k), bidirectional=True)``,
Poisson sources, uniform destinations, fixed length ``M``, ``buffer_depth =
2``, one ejection VC (the set-up :data:`SETUP`; the paper: messages leave "one
at a time through the ejection channel"), ``injection_vcs = V`` (the model's
source queue with rate :math:`\\lambda_g/V`), results cached on disk (sweeps
through :func:`models.sim.sweep.run_sweep`).  Routings: ``duato_nbc`` with
``escape_levels = V2``; ``duato`` (Duato's routing of the torus_ipp chapter:
``V - 2`` adaptive VCs and the two dateline escape VCs of dimension order);
``dor`` (dimension-order routing, shorter direction on the bidirectional
torus, two dateline escape VCs and ``V - 2`` more VCs on the same path).

Plots are in :mod:`models.torus_nbc.plots`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.errors import ParameterError
from ..core.experiment import ERROR_FRACTIONS, Curve, CurveRun, Figure
from ..core.experiment import error_table as core_error_table
from ..core.experiment import run_figure as core_run_figure
from ..core.saturation import Saturation, find_saturation
from ..core.validate import require
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .params import check_params, min_escape_levels
from .solve import saturation_load, solve

__all__ = [
    "ERROR_FRACTIONS", "FRACTIONS", "ROUTINGS", "SETUP", "FIGURES", "fig1", "routing_figure", "SimSettings",
    "sim_kwargs", "simulate_curve", "sim_saturation", "run_figure", "points_table", "saturation_table", "error_table",
    "format_errors", "ejection_table", "split_table", "run_comparison",
]

#: Simulated rates of every curve, as fractions of the simulated saturation rate.
FRACTIONS = (0.1,) + ERROR_FRACTIONS

#: Routings compared in the chapter (simulator names) and their labels.
ROUTINGS = {"duato_nbc": "Duato-Nbc", "duato": "Duato (dateline escape)", "dor": "dimension order"}

#: The simulator set-up of Fig. 1: the paper's single ejection channel.
SETUP = "one ejection VC"

#: Full-profile simulation lengths (the paper ran 300,000 cycles after 10,000 of warm-up).
SIM_MESSAGES = 100_000
SIM_WARMUP = 10_000


# ----------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------
def _curves(k_values, M_values, V, extra_levels, fractions) -> tuple:
    extra_levels = require("extra_levels", extra_levels, 0, unit="escape levels beyond the minimum k/2+1",
                           integer=True)
    out = []
    for k in k_values:
        for M in M_values:
            p = check_params(k, M, V, min_escape_levels(int(k)) + extra_levels if extra_levels else None)
            out.append(Curve(f"{k}x{k}, M={M}", model=dict(k=p.k, M=p.M, V=p.V, escape_levels=p.V2),
                             sim=dict(routing="duato_nbc", ejection_vcs=1), setup=SETUP, loads=tuple(fractions),
                             fractions_of="sim"))
    return tuple(out)


def fig1(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
         extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS) -> Figure:
    """Fig. 1: one curve per ``(k, M)``, ``V2 = k/2 + 1 + extra_levels`` escape levels (default the minimum).

    The curves' loads are ``fractions`` of the simulated saturation rate.
    """
    return Figure("fig-torus_nbc-fig1", f"Duato-Nbc on k x k tori, V = {V}",
                  _curves(k_values, M_values, V, extra_levels, fractions), x_label="traffic generation rate")


def routing_figure(k_values: Sequence[int] = (8, 16), M_values: Sequence[int] = (32, 64), V: int = 10,
                   extra_levels: int = 0, fractions: Sequence[float] = FRACTIONS) -> Figure:
    """The routing comparison: Fig. 1's curves, simulated with every routing of :data:`ROUTINGS`."""
    return Figure("fig-torus_nbc-routing-comparison", f"Duato-Nbc, Duato's routing and dimension order, V = {V}",
                  _curves(k_values, M_values, V, extra_levels, fractions), x_label="traffic generation rate")


#: The chapter's figures at the paper's scale.
FIGURES = {"fig1": fig1(), "routing-comparison": routing_figure()}


# ----------------------------------------------------------------------------
# Simulator
# ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SimSettings:
    """Run lengths, seed and saturation bracket of the simulations (messages counted after the warm-up)."""

    messages: int = SIM_MESSAGES
    warmup_messages: int = SIM_WARMUP
    batches: int = 20
    seed: int = 1
    sat_rtol: float = 0.02      # relative width of the final saturation bracket
    jobs: int = 1

    def __post_init__(self):
        require("messages", self.messages, 100, unit="measured messages per point", integer=True)
        require("warmup_messages", self.warmup_messages, 0, unit="discarded messages per point", integer=True)
        require("sat_rtol", self.sat_rtol, 0, 0.5, lo_open=True, unit="relative bracket width")


def sim_kwargs(curve: Curve, rate: float, settings: SimSettings = SimSettings()) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for one point of ``curve`` (the translation)."""
    m, s = curve.model, curve.sim
    routing = s.get("routing", "duato_nbc")
    kw = dict(topology=Torus((m["k"], m["k"]), bidirectional=True), routing=routing, vcs=m["V"],
              message_length=m["M"], rate=float(rate), messages=settings.messages,
              warmup_messages=settings.warmup_messages, batches=settings.batches, seed=settings.seed,
              ejection_vcs=s.get("ejection_vcs", 1))
    if routing == "duato_nbc":
        kw["escape_levels"] = m.get("escape_levels")
    return kw


def simulate_curve(curve: Curve, rates: Sequence[float], settings: SimSettings = SimSettings()) -> list:
    """The simulator's results (:class:`~models.sim.wormhole.WormholeResult`) at ``rates``, one cached sweep."""
    return run_sweep([sim_kwargs(curve, r, settings) for r in rates], jobs=settings.jobs, cache=True,
                     progress=False)


def sim_saturation(curve: Curve, guess: float, settings: SimSettings = SimSettings()) -> Saturation:
    """Simulated saturation rate (messages/node/cycle) of ``curve``'s routing, by bracketing and bisection.

    :func:`~models.core.saturation.find_saturation` from ``guess`` (both ends
    checked): the rate is scaled by 1.25 until one rate is unsaturated and a
    higher one saturated (at most 40 runs), then the bracket is halved until
    its relative width is below ``settings.sat_rtol``.  The result's
    ``load`` is the final bracket's midpoint, ``evaluations`` the runs.
    """
    guess = require("guess", guess, 0, lo_open=True, unit="messages/node/cycle")

    def saturated(rate):
        return bool(simulate_curve(curve, [rate], settings)[0].saturated)

    s = find_saturation(saturated, guess, guess, check_lo=True, check_hi=True, expand=1.25, max_expansions=39,
                        rtol=settings.sat_rtol)
    if not s.bracketed:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} "
                             f"({curve.sim.get('routing', 'duato_nbc')}) from {guess}")
    return s


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def run_figure(figure: Figure, settings: SimSettings = SimSettings(), *, simulate: bool = True,
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
    sim = (lambda curve, rates: _simulated(curve, rates, settings)) if simulate else None
    return core_run_figure(
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


def _simulated(curve: Curve, rates: Sequence[float], settings: SimSettings) -> list:
    return [{"latency": s.latency, "latency CI": s.latency_ci, "saturated": s.saturated,
             "network latency": s.network_latency, "multiplexing": s.multiplexing}
            for s in simulate_curve(curve, rates, settings)]


_MODEL_COLUMNS = ("latency", "network latency", "multiplexing")
_SIM_COLUMNS = {"latency": "sim latency", "latency CI": "sim CI", "saturated": "sim saturated",
                "network latency": "sim network latency", "multiplexing": "sim multiplexing"}


def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Fig. 1's points: one row per rate of every curve, sorted by rate within a curve.

    Columns ``curve``, ``k``, ``M``, ``rate`` (messages/node/cycle),
    ``fraction`` (of the simulated saturation rate; NaN on the model line),
    ``model latency`` (cycles, inf past the model's saturation), ``model
    network latency``, ``model multiplexing`` and, at the simulated rates,
    ``sim latency``, ``sim CI`` (95% half width), ``sim saturated``, ``sim
    network latency``, ``sim multiplexing``.
    """
    parts = []
    for run in runs:
        m = run.model
        frame = pd.DataFrame({"curve": m["curve"], "k": int(run.curve.model["k"]), "M": int(run.curve.model["M"]),
                              "rate": m["load"], "fraction": m["fraction"],
                              **{f"model {c}": m[c] for c in _MODEL_COLUMNS}})
        if run.sim is not None:
            sim = run.sim[["load", "fraction", *_SIM_COLUMNS]].rename(columns={"load": "rate", **_SIM_COLUMNS})
            frame = frame.merge(sim, on=["rate", "fraction"], how="left", sort=False, validate="many_to_one")
        parts.append(frame)
    return pd.concat(parts, ignore_index=True)


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per curve: ``k``, ``M``, the model's and the simulated saturation rate (bracket and runs)."""
    rows = []
    for run in runs:
        row = {"curve": run.label, "k": run.curve.model["k"], "M": run.curve.model["M"],
               "model saturation": run.model_saturation}
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


def error_table(runs: Sequence[CurveRun], at: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per curve: :func:`models.core.experiment.error_table` in this chapter's columns (numbers).

    ``curve``; ``err @<p>%`` for each fraction ``p`` of ``at``: the signed
    relative error of the mean message latency, **in percent**,
    ``100 (model - sim) / sim`` (``inf`` where only the model is saturated,
    NaN where the simulation is or the point was not run); ``model
    saturation``, ``sim saturation`` (messages/node/cycle); ``saturation
    err`` (percent).
    """
    core = core_error_table(runs, at)
    table = pd.DataFrame({"curve": core["curve"]})
    for f, col in zip(at, [c for c in core if c.startswith("err @")]):
        table[_err_column(f)] = core[col]
    for col in ("model saturation", "sim saturation"):
        table[col] = core[col]
    table["saturation err"] = core["saturation err [%]"]
    return table


def format_errors(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`error_table` for reading: errors as ``+12.3%`` (``saturated``, ``n/a``), rates to 5 decimals."""

    def pct(x):
        return f"{x:+.1f}%" if math.isfinite(x) else ("saturated" if x == math.inf else "n/a")

    shown = table.copy()
    for col in [c for c in shown if c.startswith("err") or c == "saturation err"]:
        shown[col] = shown[col].map(pct)
    for col in ("model saturation", "sim saturation"):
        shown[col] = shown[col].map(lambda x: f"{x:.5f}")
    return shown


def ejection_table(runs: Sequence[CurveRun], ejection_vcs: int, settings: SimSettings = SimSettings()) -> pd.DataFrame:
    """The simulated points of ``runs`` again with ``ejection_vcs`` ejection VCs (the model's latency beside).

    Columns ``curve``, ``fraction``, ``rate``, ``model`` (latency, cycles),
    ``sim, <n> ejection VC(s)`` for the runs' own set-up and for ``ejection_vcs``.
    """
    ejection_vcs = require("ejection_vcs", ejection_vcs, 1, unit="ejection VCs per node", integer=True)
    rows = []
    for run in runs:
        base = run.curve.sim.get("ejection_vcs", 1)
        wide = run.curve.replace(sim={**run.curve.sim, "ejection_vcs": ejection_vcs},
                                 setup=f"{ejection_vcs} ejection VCs")
        pts = run.points().sort_values("load", kind="mergesort")
        res = simulate_curve(wide, list(pts["load"]), settings)
        for (_, p), s in zip(pts.iterrows(), res):
            rows.append({"curve": run.label, "fraction": p["fraction"], "rate": p["load"],
                         "model": p["model latency"], f"sim, {base} ejection VC{'s' if base != 1 else ''}":
                             p["sim latency"], f"sim, {ejection_vcs} ejection VCs": s.latency})
    return pd.DataFrame(rows)


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


def run_comparison(runs: Sequence[CurveRun], routings: Sequence[str] = tuple(ROUTINGS),
                   settings: SimSettings = SimSettings()):
    """Simulate every routing on every curve's torus at the rates of ``runs`` (fractions of Duato-Nbc's saturation).

    ``runs`` are Duato-Nbc's simulated runs (:func:`run_figure`).  Returns
    ``(points, saturation)``: latency per (curve, routing, rate) and each
    routing's own simulated saturation rate (:func:`sim_saturation` from
    Duato-Nbc's), with its ratio to Duato-Nbc's.
    """
    rows, sats = [], []
    for run in runs:
        if run.sim is None:
            raise ParameterError(f"curve {run.label!r} was not simulated: the comparison needs Duato-Nbc's runs")
        curve = run.curve
        k, M = curve.model["k"], curve.model["M"]
        ref = run.sim_saturation
        fractions, rates = list(run.sim["fraction"]), list(run.sim["load"])
        for routing in routings:
            c = curve.replace(sim={**curve.sim, "routing": routing})
            for f, r, s in zip(fractions, rates, simulate_curve(c, rates, settings)):
                rows.append({"curve": curve.label, "k": k, "M": M, "routing": routing, "rate": r, "fraction": f,
                             "latency": s.latency, "CI": s.latency_ci, "saturated": s.saturated,
                             "multiplexing": s.multiplexing})
            if routing == "duato_nbc":
                b = run.brackets.get("sim")
                sat = {"saturation": ref, "lo": b.lo if b else math.nan, "hi": b.hi if b else math.nan}
            else:
                s = sim_saturation(c, ref, settings)
                sat = {"saturation": s.load, "lo": s.lo, "hi": s.hi}
            sats.append({"curve": curve.label, "k": k, "M": M, "routing": routing, **sat})
    sat = pd.DataFrame(sats)
    base = sat[sat["routing"] == "duato_nbc"].set_index("curve")["saturation"]
    sat["vs Duato-Nbc"] = sat["saturation"] / sat["curve"].map(base)
    return pd.DataFrame(rows), sat
