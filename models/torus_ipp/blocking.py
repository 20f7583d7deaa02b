"""The blocking time's distribution: measured in the simulation, and what it does to the model (Sec. 2.2).

Eqs. (20)-(22) take a message's blocking time ``b`` (eq. 4, ``t = m + d + b``) exponential with the mean
``bbar`` of eq. (5).  The simulator measures ``b`` message by message (its network latency minus the zero-load
network latency of its hop count: :func:`models.sim.wormhole.common.blocking_stats`), so its mean, second
moment and coefficient of variation ``CV`` (1 for an exponential) are known at every simulated load, overall
and per hop count (the "channel class": a message crossing ``h`` channels).  :func:`blocking_table` puts them
beside the model solved three ways at the same load (:func:`models.torus_ipp.solve.solve`'s ``blocking_cv2``):
with the paper's exponential (``CV^2 = 1``), with the measured ``CV^2`` and with a constant blocking time
(``CV^2 = 0``).  The claim's criterion, ``reasonable-approximation`` (:mod:`models.core.criteria`): replacing
the exponential by the measured second moment moves the model's latency by no more than the simulated
latency's 95 % half width (:func:`within_noise`), at the fixed fractions 25, 50 and 75 % of the simulated
saturation load.  :func:`blocking_hops_table` gives the per-hop-count moments.

Caveat, in the notes: the simulated ``b`` also holds the slowdown of a message's flits on multiplexed channels,
which the model counts apart (the factor ``V-bar`` of eq. 1), so the measured ``CV`` is that of the model's
``b`` and of that slowdown together.

Units: cycles (latencies, ``b``), cycles^2 (second moments), ``mu1`` in messages/node/cycle.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.experiment import CurveRun
from ..core.setups import ACCURACY_FRACTIONS, SimSettings
from .experiments import describe, sim_results
from .setups import SETTINGS
from .solve import solve

__all__ = ["BLOCKING_COLUMNS", "HOPS_COLUMNS", "measured_points", "blocking_table", "blocking_hops_table",
           "within_noise", "shift"]

#: Columns of :func:`blocking_table`.
BLOCKING_COLUMNS = ("figure", "panel", "setup", "fraction", "mu1", "sim latency", "sim latency CI", "sim b mean",
                    "sim b m2", "sim b cv", "sim b cv2", "hop cv min", "hop cv max", "model (cv2 = 1)",
                    "model (measured cv2)", "model (cv2 = 0)", "shift", "shift / CI", "within noise")
#: Columns of :func:`blocking_hops_table`.
HOPS_COLUMNS = ("figure", "panel", "setup", "fraction", "hops", "messages", "b mean", "b m2", "b cv")


def measured_points(run: CurveRun, settings: SimSettings = SETTINGS,
                    fractions: Sequence[float] = ACCURACY_FRACTIONS) -> list[tuple]:
    """``[(fraction, mu1, result), ...]``: the simulator's results of ``run``'s own points (the cache answers
    with the run's ``settings``) at ``fractions`` of the simulated saturation load where the simulation is not
    saturated (:func:`models.torus_ipp.experiments.sim_results`, seeded as the run's)."""
    if run.sim is None or run.sim.empty:
        return []
    sim = run.sim
    frac = sim["fraction"].to_numpy(dtype=float)
    hit = np.zeros(frac.size, dtype=bool)
    for f in fractions:
        hit |= np.isclose(frac, f, rtol=1e-9, atol=1e-12)
    idx = np.flatnonzero(hit & ~sim["saturated"].to_numpy(dtype=bool))
    if not idx.size:
        return []
    loads = sim["load"].to_numpy(dtype=float)
    res = sim_results(run.curve, loads, settings, which=idx)
    return [(float(frac[i]), float(loads[i]), r) for i, r in zip(idx, res) if not r.saturated]


def shift(a: float, b: float) -> float:
    """``|a - b|`` of two model latencies (cycles): ``inf`` when exactly one is saturated (``inf``), NaN when
    both are (the latency is not moved, but nothing is compared) or one is missing."""
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)):
        return math.nan
    return abs(a - b)


def within_noise(moved: float, half_width: float):
    """The ``reasonable-approximation`` criterion at one point: True when the model's latency moved by
    ``moved`` cycles (:func:`shift`) is within the simulated latency's 95 % ``half_width`` (cycles), False when
    beyond it (an unbounded move is beyond any), None when nothing was compared (NaN)."""
    if math.isnan(moved) or math.isnan(half_width):
        return None
    return bool(moved <= half_width)


def _model(curve, mu1: float, cv2: float) -> float:
    if math.isnan(cv2):
        return math.nan
    return float(solve(mu1, **curve.model, blocking_cv2=float(min(cv2, 1e3))).latency)


def _ipp_points(runs: Sequence[CurveRun], settings: SimSettings, fractions: Sequence[float]):
    """``(run, where, fraction, mu1, result)`` for every IPP run's points of :func:`measured_points` (``where``:
    :func:`~models.torus_ipp.experiments.describe` of its curve), the rows both tables are made of."""
    for run in runs:
        if run.curve.model.get("traffic", "ipp") != "ipp":
            continue
        where = describe(run.curve)
        for f, mu1, r in measured_points(run, settings, fractions):
            yield run, where, f, mu1, r


def blocking_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS,
                   fractions: Sequence[float] = ACCURACY_FRACTIONS) -> pd.DataFrame:
    """The simulated blocking time against the model's exponential, at every IPP run's points at ``fractions``
    (:func:`measured_points`): the columns of :data:`BLOCKING_COLUMNS`: ``sim b mean`` (cycles), ``sim b
    m2`` (cycles^2), ``sim b cv`` and its square, the smallest and largest CV over the hop counts, the model's
    latency (cycles) with ``CV^2 = 1`` (the paper's), with the measured ``CV^2`` and with 0, ``shift`` =
    :func:`shift` of the first two, ``shift / CI`` (over the simulated 95 % half width) and ``within noise``
    (:func:`within_noise`)."""
    rows = []
    for run, where, f, mu1, r in _ipp_points(runs, settings, fractions):
        cv2 = r.blocking_cv ** 2
        hop_cv = np.asarray(r.blocking_by_hops.get("cv", []), dtype=float)
        hop_cv = hop_cv[np.isfinite(hop_cv)]
        paper, measured = _model(run.curve, mu1, 1.0), _model(run.curve, mu1, cv2)
        moved = shift(measured, paper)
        rows.append({"figure": where["figure"], "panel": where["panel"], "setup": where["setup"],
                     "fraction": f, "mu1": mu1, "sim latency": r.latency, "sim latency CI": r.latency_ci,
                     "sim b mean": r.blocking_mean, "sim b m2": r.blocking_m2, "sim b cv": r.blocking_cv,
                     "sim b cv2": cv2, "hop cv min": float(hop_cv.min()) if hop_cv.size else math.nan,
                     "hop cv max": float(hop_cv.max()) if hop_cv.size else math.nan,
                     "model (cv2 = 1)": paper, "model (measured cv2)": measured,
                     "model (cv2 = 0)": _model(run.curve, mu1, 0.0), "shift": moved,
                     "shift / CI": moved / r.latency_ci if r.latency_ci > 0 else math.nan,
                     "within noise": within_noise(moved, r.latency_ci)})
    out = pd.DataFrame(rows, columns=list(BLOCKING_COLUMNS))
    out["within noise"] = out["within noise"].astype(object)
    return out


def blocking_hops_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS,
                        fractions: Sequence[float] = ACCURACY_FRACTIONS) -> pd.DataFrame:
    """The simulated blocking time per hop count (channel class) at the points of :func:`blocking_table`: the
    columns of :data:`HOPS_COLUMNS` (``messages`` measured with that many hops, ``b`` in cycles)."""
    rows = []
    for _, where, f, _, r in _ipp_points(runs, settings, fractions):
        by = r.blocking_by_hops
        for h, n, m, m2, cv in zip(by["hops"], by["count"], by["mean"], by["m2"], by["cv"]):
            rows.append({"figure": where["figure"], "panel": where["panel"], "setup": where["setup"],
                         "fraction": f, "hops": int(h), "messages": int(n), "b mean": float(m), "b m2": float(m2),
                         "b cv": float(cv)})
    return pd.DataFrame(rows, columns=list(HOPS_COLUMNS))
