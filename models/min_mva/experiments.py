"""The paper's experiments: which configurations make each figure, and how a curve is run.

Figures 2-8 of Willick & Eager (1990) plot the mean response time ``R``
(cycles) and the throughput ``X`` (requests/cycle) against ``NC`` for one
hardware configuration and two or three memory service times.  Each figure
is a :class:`~models.core.experiment.Figure` of
:class:`~models.core.experiment.Curve` objects (``FIGURES``, by the paper's
number); :func:`run_curve` solves the model at every ``NC`` and, optionally,
simulates the same configuration with the closed simulator
(:func:`models.sim.closed_min.simulate`), through
:func:`models.core.experiment.run_curve`.  :func:`curves_table` and
:func:`error_tables` turn the runs into the chapter's tables.  The
notebooks only choose ``NC`` values and run lengths, call these, and plot
(:mod:`models.min_mva.plots`).

The x axis is the load ``NC`` itself (the paper's grid), not fractions of a
saturation load: the system is closed and never saturates.  Each run still
records the saturation population ``N*`` of the asymptotic bounds
(:func:`models.min_mva.saturation_load`) as its ``model_saturation``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from ..core import experiment as core_experiment
from ..core.errors import ParameterError
from ..core.experiment import Curve, CurveRun, Figure, error_table
from ..core.validate import require
from ..core.validation import compare
from ..sim import closed_min
from . import LOAD, LOAD_UNIT
from .solve import saturation_load, solve

__all__ = ["CYCLES", "WARMUP_CYCLES", "FIGURES", "SINGLE_PACKET", "MULTI_PACKET", "SIM_KEYS", "sim_params",
           "model_point", "run_curve", "run_figure", "curves_table", "error_tables"]

#: Default simulation run lengths (cycles) of the full profile: total cycles and the discarded warm-up.
CYCLES = 200_000
WARMUP_CYCLES = 20_000

_NC_UNIT = "outstanding requests per processor"


def _omega(**kw) -> dict:
    base = dict(topology="omega", k=2, n=6, S_pe=1.0, m=1, pattern="uniform")
    base.update(kw)
    return base


def _figure(number: int, title: str, curves) -> Figure:
    return Figure(
        label=f"fig-min_mva-fig{number}", title=title,
        curves=tuple(Curve(label, model=config) for label, config in curves),
        x_label=LOAD, x_unit=LOAD_UNIT, y_label="mean response time R", y_unit="cycles", quantity="R",
    )


#: The paper's Figs. 2-8 by number; each curve's ``model`` holds the keyword arguments of :func:`solve`
#: (the simulator takes the same, :func:`sim_params`); the loads (``NC``) are chosen by the notebook.
FIGURES: dict[int, Figure] = {
    2: _figure(2, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1, 2 and 4",
               [(f"S_mm={s}", _omega(S_mm=s)) for s in (1, 2, 4)]),
    3: _figure(3, "64 processors, 2x2 switches, hot-spot traffic, S_pe = 1, S_mm = 2",
               [("hot spot, S_mm=2", _omega(S_mm=2, pattern="hot_spot"))]),
    4: _figure(4, "64 processors, 4x4 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
               [(f"S_mm={s}", _omega(k=4, n=3, S_mm=s)) for s in (1, 2)]),
    5: _figure(5, "128 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
               [(f"S_mm={s}", _omega(n=7, S_mm=s)) for s in (1, 2)]),
    6: _figure(6, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 2, S_mm = 2 and 4",
               [(f"m=2, S_mm={s}", _omega(m=2, S_mm=s)) for s in (2, 4)]),
    7: _figure(7, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 4, S_mm = 4 and 8",
               [(f"m=4, S_mm={s}", _omega(m=4, S_mm=s)) for s in (4, 8)]),
    8: _figure(8, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 8, S_mm = 8 and 16",
               [(f"m=8, S_mm={s}", _omega(m=8, S_mm=s)) for s in (8, 16)]),
}

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


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def model_point(curve: Curve, NC) -> dict:
    """The model at one ``NC``: ``R`` (cycles), ``X`` (requests/cycle), ``iterations``, ``saturated``."""
    res = solve(NC, **curve.model)
    return {"R": res.R, "X": res.X, "iterations": res.iterations, "saturated": res.saturated}


def _simulator(cycles: int, warmup_cycles: int, batches: int, seed: int):
    """``sim(curve, loads)`` for :func:`models.core.experiment.run_curve`: one cached closed simulation per ``NC``."""

    def sim(curve: Curve, loads: list) -> list[dict]:
        params = sim_params(curve.model, curve.sim)
        rows = []
        for nc in loads:
            res = closed_min.simulate(NC=int(nc), cycles=cycles, warmup=warmup_cycles, batches=batches, seed=seed,
                                      **params)
            rows.append({"R": res.R, "R CI": res.R_ci, "X": res.X, "X CI": res.X_ci, "saturated": False})
        return rows

    return sim


def _model_saturation(curve: Curve) -> float:
    return saturation_load(**curve.model)


def run_curve(
    curve: Curve,
    NC_values: Sequence[int],
    *,
    simulate: bool = True,
    cycles: int = CYCLES,
    warmup_cycles: int = WARMUP_CYCLES,
    batches: int = 20,
    seed: int = 1,
    overrides: dict | None = None,
) -> CurveRun:
    """Model (and simulation) of one curve at every ``NC`` (:func:`models.core.experiment.run_curve`).

    Returns a :class:`~models.core.experiment.CurveRun` (quantity ``"R"``):
    ``model`` has ``R`` (cycles), ``X`` (requests/cycle), ``iterations``;
    with ``simulate``, ``sim`` has ``R``, ``R CI``, ``X``, ``X CI`` (95% half
    widths by batch means) of a run of ``cycles`` cycles whose first
    ``warmup_cycles`` are discarded.  ``model_saturation`` is ``N*``.
    ``overrides`` replaces entries of the curve's configuration, for the model
    and the simulator (e.g. ``{"n": 7}`` for a reader's own network).
    """
    NCs = tuple(require("NC", nc, 1, unit=_NC_UNIT, integer=True) for nc in NC_values)
    if not NCs:
        raise ParameterError("`NC_values` must be a non-empty sequence of integers >= 1")
    curve = curve.replace(model={**curve.model, **(overrides or {})}, loads=NCs)
    return core_experiment.run_curve(
        curve, model_point, _simulator(cycles, warmup_cycles, batches, seed) if simulate else None,
        model_saturation=_model_saturation, quantity="R",
    )


def run_figure(number: int, NC_values: Sequence[int], **kwargs) -> tuple[CurveRun, ...]:
    """:func:`run_curve` for every curve of figure ``number`` (keyword arguments as there)."""
    if number not in FIGURES:
        raise ParameterError(f"`number` must be one of the paper's figures {sorted(FIGURES)}; got {number!r}")
    return tuple(run_curve(c, NC_values, **kwargs) for c in FIGURES[number].curves)


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def curves_table(results: Mapping[int, Sequence[CurveRun]]) -> pd.DataFrame:
    """One row per (figure, curve, NC) of ``{figure number: runs}``.

    Columns ``figure``, ``curve``, ``NC``, ``model R`` (cycles), ``model X``
    (requests/cycle), ``iterations`` and, for simulated runs, ``sim R``,
    ``sim R CI``, ``sim X``, ``sim X CI`` (95% half widths).
    """
    rows = []
    for number, runs in results.items():
        for run in runs:
            model = run.model.drop_duplicates("load").set_index("load")
            for i, nc in enumerate(run.curve.loads):
                m = model.loc[nc]
                row = {"figure": number, "curve": run.label, "NC": int(nc), "model R": float(m["R"]),
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
    ``(points, summary)``: ``points`` has one row per (curve, NC, quantity)
    (``curve``, ``NC``, ``model``, ``sim``, ``sim 95% CI``, ``rel. error``,
    ``in CI``; :func:`models.core.validation.compare`); ``summary`` one row
    per (curve, quantity) from :func:`models.core.experiment.error_table`:
    ``points``, max and mean absolute relative error, and how many model
    points fall inside the simulation's 95% interval (``"k/n"``).  Curves
    are named ``"Fig. <number>, <label>: <quantity>"``, all ``R`` rows first.
    """
    parts, summary = [], []
    for q in ("R", "X"):
        for number, runs in results.items():
            for run in runs:
                pts = run.points(q)
                cmp = compare(pts["load"].to_numpy().astype(int), pts[f"model {q}"], pts[f"sim {q}"],
                              pts[f"sim {q} CI"], curve=f"Fig. {number}, {run.label}: {q}", x_name="NC", quantity=q)
                parts.append(cmp.rename(columns={f"model {q}": "model", f"sim {q}": "sim"}))
            table = error_table(runs, at=None, quantity=q)
            for run, row in zip(runs, table.to_dict("records")):
                summary.append({
                    "curve": f"Fig. {number}, {run.label}: {q}",
                    "points": int(row["points"]),
                    "max |rel. error|": row["max |err| [%]"] / 100.0,
                    "mean |rel. error|": row["mean |err| [%]"] / 100.0,
                    "in CI": f"{int(row['in CI'])}/{int(row['points'])}",
                })
    return pd.concat(parts, ignore_index=True), pd.DataFrame(summary)
