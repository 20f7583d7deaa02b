"""Figures, simulator translation, runs and tables of the chapter (PLACEHOLDER).

On the shared vocabulary (:mod:`models.core.setups`, :mod:`models.core.experiment`):
``FIGURES`` keyed by label, the one simulation hook ``sim_kwargs(curve, load,
settings)`` / ``simulate_curve(curve, loads, settings)`` (which
``compare`` and ``python -m models.chapter_template curve --simulate`` use
too), ``sim_saturation(curve, guess, settings)``, ``run_figure(figure,
settings)`` and the chapter's tables.

The placeholder simulator is :func:`models.sim.mmpp_g1.simulate_mmpp_g1`
(Poisson arrivals, deterministic service of ``M`` cycles): replace it with the
paper's network simulation (e.g. :func:`models.sim.wormhole.simulate` through
:func:`models.sim.sweep.run_sweep`, cached).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.experiment import error_table, run_curve
from ..core.results import SimPoint
from ..core.setups import Figure, SimSettings
from ..queueing.mmpp_g1 import Deterministic
from ..sim.mmpp_g1 import simulate_mmpp_g1
from ..sim.sweep import run_sweep
from ..traffic.process import poisson
from .setups import SETTINGS, Params, curve
from .solve import LOAD_UNIT, saturation_load, solve

__all__ = ["FRACTIONS", "FIGURES", "sim_kwargs", "simulate_point", "simulate_curve", "sim_saturation", "run_figure",
           "errors"]

#: Simulated rates, fractions of the simulated saturation rate.
FRACTIONS = (0.25, 0.5, 0.75, 0.9)

FIGURES = {f.label: f for f in (
    Figure(label="fig-chapter_template-latency", title="PLACEHOLDER: latency of one M/D/1 channel",
           curves=tuple(curve(Params(M=M), label=f"M={M}", loads=FRACTIONS, fractions_of="sim") for M in (16, 32)),
           x_label="generation rate", x_unit=LOAD_UNIT),
)}


def sim_kwargs(curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`simulate_point` for one rate of ``curve`` (the model-to-simulator translation)."""
    return dict(rate=float(load), M=curve.model["M"], customers=settings.messages, warmup=settings.warmup_messages,
                batches=settings.batches, seed=settings.seed, **curve.sim)


def simulate_point(*, rate: float, M: int, customers: int, warmup: int, batches: int, seed: int) -> SimPoint:
    """One simulated point (cycles); saturated when the queue is unstable (``rate M >= 1``)."""
    if rate * M >= 1.0:
        return SimPoint(math.inf, math.nan, True)
    wait, ci = simulate_mmpp_g1(poisson(rate), Deterministic(M), customers=customers, warmup=warmup,
                                batches=batches, seed=seed)
    return SimPoint(M + wait, ci, False)


def simulate_curve(curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[SimPoint]:
    """The simulated points at every rate of ``loads`` (one cached sweep)."""
    return run_sweep([sim_kwargs(curve, x, settings) for x in loads], simulate_fn=simulate_point, jobs=settings.jobs,
                     cache=settings.cache, progress=settings.progress)


def sim_saturation(curve, guess: float = math.nan, settings: SimSettings = SETTINGS) -> float:
    """The simulated saturation rate (messages/node/cycle): the placeholder queue's capacity ``1/M`` (an M/D/1
    queue is stable exactly below it), so nothing is simulated; a real chapter bisects its simulator's
    saturated verdict (:func:`models.core.saturation.find_saturation`) and returns the
    :class:`~models.core.saturation.Saturation` with its bracket."""
    return 1.0 / curve.model["M"]


def _model(curve, rate: float) -> dict:
    r = solve(rate, **curve.model)
    return {"latency": r.latency, "saturated": r.saturated}


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 40) -> tuple:
    """Model and simulation of every curve of ``figure`` (a :class:`~models.core.experiment.CurveRun` each)."""
    sim = (lambda c, rates: simulate_curve(c, rates, settings)) if simulate else None
    return tuple(run_curve(
        c, _model, sim,
        model_saturation=lambda c: saturation_load(**c.model),
        sim_saturation=lambda c, model_sat: sim_saturation(c, model_sat, settings),
        line=lambda c, sat, rates: np.linspace(0.0, sat, model_points + 1)[1:-1], round_to=6)
        for c in figure.curves)


def errors(runs: Sequence) -> pd.DataFrame:
    """The chapter's error table (:func:`models.core.experiment.error_table`)."""
    return error_table(runs)
