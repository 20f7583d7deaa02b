"""The experiment skeleton every chapter uses: curves, figures, runs and one error table.

A chapter describes its figures as data and supplies three small functions;
this module does the rest the same way everywhere.

* :class:`Curve` -- one model-vs-simulation curve: a label, the model's
  keyword arguments, the simulator's keyword arguments and the name of the
  simulator set-up (DESIGN.md: "simulator set-ups are named"), and the loads:
  absolute loads (``fractions_of=None``), or fractions of the simulated
  (``"sim"``) or the model's (``"model"``) saturation load.
* :class:`Figure` -- a labelled figure (``fig-<chapter>-<what>``) of curves,
  with axis names and units.
* :func:`run_curve` -- finds the saturation loads, runs the simulator at the
  curve's loads through a caller-supplied function (which may use
  :func:`models.sim.sweep.run_sweep`; this module never imports the
  simulators), solves the model at the same loads and on a line grid, and
  returns a :class:`CurveRun`.  :func:`run_figure` does it for every curve.
* :func:`error_table` -- one row per curve: signed relative errors (percent)
  at chosen fractions of the saturation load, max and mean ``|error|``,
  points inside the simulation's 95% CI, and both saturation loads.  Built on
  :func:`models.core.validation.compare` and
  :func:`models.core.validation.saturation_aware_error`.

The functions a chapter supplies (loads in the chapter's unit, stated by the
:class:`Figure`; times in cycles)::

    model(curve, load) -> {"latency": cycles (inf if saturated), "saturated": bool, ...}
    sim(curve, loads)  -> [SimPoint(latency, latency_ci, saturated, extra), ...]  # one per load, same order
    model_saturation(curve) -> float or Saturation                   # loads
    sim_saturation(curve, model_saturation) -> float or Saturation   # loads

``"latency"`` is the default *quantity*; any other column name works
(``quantity="R"``).  A model row's missing ``"saturated"`` is read as "the
quantity is not finite".  A simulated point is a
:class:`~models.core.results.SimPoint`; its frame columns are
:meth:`~models.core.results.SimPoint.record`'s keys (``latency``,
``latency_ci``, ``saturated`` and the extras).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from .errors import ParameterError
from .progress import report as report_progress
from .results import SimPoint
from .setups import ERROR_FRACTIONS, FRACTIONS_OF, Curve, Figure, finite_nonneg
from .saturation import Saturation
from .validation import compare, saturation_aware_error

__all__ = ["Curve", "Figure", "CurveRun", "SimPoint", "sim_record", "run_curve", "run_figure", "each_curve",
           "error_table", "concat", "FRACTIONS_OF", "ERROR_FRACTIONS"]

# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, eq=False)
class CurveRun:
    """Result of :func:`run_curve` (loads in the figure's x unit, times in cycles).

    curve : Curve
    model : DataFrame
        One row per model load, sorted by load: ``curve``, ``load``,
        ``fraction`` (of the reference saturation load; NaN on the line grid
        and for absolute loads), then the model function's columns (at least
        the quantity and ``saturated``).  Holds the simulated loads and the
        line grid.
    sim : DataFrame or None
        One row per simulated load, in the curve's order: ``curve``, ``load``,
        ``fraction``, then the simulator function's columns (the quantity, its
        ``"<quantity> CI"`` 95% half width, ``saturated``, ...).  None when not
        simulated.
    model_saturation, sim_saturation : float
        Saturation loads (NaN when not asked for).
    params : dict
        Provenance: curve fields, the load basis and reference load, quantity.
    quantity : str
        The compared column (``"latency"`` by default).
    brackets : dict
        The :class:`~models.core.saturation.Saturation` objects behind the
        saturation loads, by ``"model"`` / ``"sim"`` (when the functions
        returned them).
    """

    curve: Curve
    model: pd.DataFrame
    sim: pd.DataFrame | None
    model_saturation: float
    sim_saturation: float
    params: dict
    quantity: str = "latency"
    brackets: dict = dataclasses.field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.curve.label

    def points(self, quantity: str | None = None) -> pd.DataFrame:
        """The simulated points with the model at the same loads.

        Columns: ``curve``, ``load``, ``fraction``, ``model <c>`` for each model
        column ``c``, ``sim <c>`` for each simulator column (so ``model
        latency``, ``sim latency``, ``sim latency CI``, ``model saturated``,
        ``sim saturated``).  Empty when not simulated.
        """
        q = quantity or self.quantity
        if self.sim is None or self.sim.empty:
            return pd.DataFrame(columns=["curve", "load", "fraction", f"model {q}", f"sim {q}", f"sim {q} CI"])
        keys = ["curve", "load", "fraction"]
        m = self.model.drop_duplicates("load").drop(columns=["curve", "fraction"])
        m = m.rename(columns={c: f"model {c}" for c in m.columns if c != "load"})
        s = self.sim.rename(columns={c: f"sim {c}" for c in self.sim.columns if c not in keys})
        return s.merge(m, on="load", how="left", sort=False, validate="many_to_one")


def _as_load(value, name: str):
    """``(float, Saturation or None)`` from what a saturation function returned."""
    if isinstance(value, Saturation):
        return float(value.load), value
    if value is None:
        return math.nan, None
    try:
        return float(value), None
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must return a load (float) or a Saturation; got {value!r}") from None


def _row(values, quantity: str, what: str) -> dict:
    if not isinstance(values, Mapping):
        raise ParameterError(f"the {what} function must return a mapping of columns; got {values!r}")
    row = dict(values)
    if quantity not in row:
        raise ParameterError(f"the {what} function returned no {quantity!r} (columns: {sorted(row)})")
    if "saturated" not in row:
        q = row[quantity]
        row["saturated"] = not (isinstance(q, (int, float, np.integer, np.floating)) and math.isfinite(float(q)))
    return row


def sim_record(point, quantity: str = "latency") -> dict:
    """A simulated point's row (:meth:`SimPoint.record`); anything but a :class:`SimPoint`, or one without
    ``quantity``, is a :class:`ParameterError`."""
    if not isinstance(point, SimPoint):
        raise ParameterError(f"the sim function must return SimPoint values (models.core.results); got {point!r}")
    row = point.record()
    if quantity not in row:
        raise ParameterError(f"the simulated point has no {quantity!r} (columns: {sorted(row)})")
    return row


def _round(x: float, digits: int | None) -> float:
    return float(x) if digits is None else float(f"{x:.{digits}g}")


def run_curve(
    curve: Curve,
    model: Callable[[Curve, float], Mapping],
    sim: Callable[[Curve, list], Sequence[Mapping]] | None = None,
    *,
    model_saturation: Callable[[Curve], Any] | None = None,
    sim_saturation: Callable[[Curve, float], Any] | None = None,
    line: Sequence[float] | Callable[[Curve, float, list], Sequence[float]] | None = None,
    quantity: str = "latency",
    round_to: int | None = None,
) -> CurveRun:
    """Model and simulation of one curve.

    Parameters
    ----------
    curve : Curve
    model : callable
        ``model(curve, load) -> mapping`` (one load, the figure's x unit).
    sim : callable, optional
        ``sim(curve, loads) -> [SimPoint, ...]`` one per load in order (may run
        them as one cached :func:`models.sim.sweep.run_sweep`).  None: model only.
    model_saturation : callable, optional
        ``model_saturation(curve) -> load or Saturation``.
    sim_saturation : callable, optional
        ``sim_saturation(curve, model_saturation_load) -> load or Saturation``
        (called only with ``sim``; the model's load, NaN if unknown, can seed
        a bracket).
    line : sequence or callable, optional
        Extra model-only loads (the drawn line): a sequence, or
        ``line(curve, model_saturation_load, sim_loads) -> loads``.
    quantity : str
        The compared column.
    round_to : int, optional
        Round each load computed from fractions to this many significant
        digits (``float(f"{x:.{round_to}g}")``).

    Returns
    -------
    CurveRun

    Raises
    ------
    ParameterError
        Loads given as fractions of a saturation load nobody computed, or a
        function returning the wrong thing.
    """
    if not isinstance(curve, Curve):
        raise ParameterError(f"`curve` must be a Curve; got {curve!r}")
    if not callable(model):
        raise ParameterError("`model` must be callable: model(curve, load) -> mapping")
    if round_to is not None and (isinstance(round_to, bool) or not isinstance(round_to, int) or round_to < 1):
        raise ParameterError(f"`round_to` must be an integer >= 1 (significant digits) or None; got {round_to!r}")
    brackets = {}
    sat_model = math.nan
    if model_saturation is not None:
        sat_model, b = _as_load(model_saturation(curve), "model_saturation")
        if b is not None:
            brackets["model"] = b
    sat_sim = math.nan
    if sim is not None and sim_saturation is not None:
        sat_sim, b = _as_load(sim_saturation(curve, sat_model), "sim_saturation")
        if b is not None:
            brackets["sim"] = b
    # the loads
    basis = curve.fractions_of
    if basis is None:
        ref = math.nan
        loads = list(curve.loads)
        fractions = [math.nan] * len(loads)
    else:
        ref = sat_sim if basis == "sim" and math.isfinite(sat_sim) else sat_model
        if basis == "sim" and not math.isfinite(sat_sim):
            basis = "model"
        if not (math.isfinite(ref) and ref > 0):
            raise ParameterError(
                f"curve {curve.label!r}: loads are fractions of the {curve.fractions_of} saturation load, "
                "but no saturation function gave one (pass model_saturation / sim_saturation)")
        fractions = list(curve.loads)
        loads = [_round(f * ref, round_to) for f in fractions]
    # simulation
    sim_frame = None
    if sim is not None:
        rows = list(sim(curve, list(loads)))
        if len(rows) != len(loads):
            raise ParameterError(f"the sim function returned {len(rows)} rows for {len(loads)} loads")
        sim_frame = pd.DataFrame(
            [{"curve": curve.label, "load": x, "fraction": f, **sim_record(r, quantity)}
             for x, f, r in zip(loads, fractions, rows)])
    # model at the same loads and on the line
    mrows = [{"curve": curve.label, "load": x, "fraction": f, **_row(model(curve, x), quantity, "model")}
             for x, f in zip(loads, fractions)]
    extra = line(curve, sat_model, list(loads)) if callable(line) else (line if line is not None else ())
    for x in extra:
        x = float(x)
        mrows.append({"curve": curve.label, "load": x, "fraction": math.nan, **_row(model(curve, x), quantity, "model")})
    model_frame = pd.DataFrame(mrows)
    if not model_frame.empty:
        model_frame = model_frame.sort_values("load", kind="mergesort").reset_index(drop=True)
    params = {
        "curve": curve.label, "setup": curve.setup, "model": dict(curve.model), "sim": dict(curve.sim),
        "loads": list(curve.loads), "fractions_of": curve.fractions_of, "load basis": basis,
        "reference load": ref, "quantity": quantity, "round_to": round_to, "simulated": sim is not None,
    }
    return CurveRun(curve=curve, model=model_frame, sim=sim_frame, model_saturation=float(sat_model),
                    sim_saturation=float(sat_sim), params=params, quantity=quantity, brackets=brackets)


def run_figure(figure: Figure, model, sim=None, **kwargs) -> tuple:
    """:func:`run_curve` for every curve of ``figure`` (``quantity`` defaults to the figure's)."""
    if not isinstance(figure, Figure):
        raise ParameterError(f"`figure` must be a Figure; got {figure!r}")
    kwargs.setdefault("quantity", figure.quantity)
    return each_curve(figure.curves, lambda curve: run_curve(curve, model, sim, **kwargs))


def each_curve(curves: Sequence, run: Callable) -> tuple:
    """``run(curve)`` for every curve, in order, reporting curves done / total to the pipeline's
    progress lines (:mod:`models.core.progress`); the chapters' own figure loops use it too."""
    curves = tuple(curves)
    runs = []
    for curve in curves:
        report_progress(len(runs), len(curves), "curves")
        runs.append(run(curve))
    report_progress(len(runs), len(curves), "curves")
    return tuple(runs)


def concat(runs: Sequence[CurveRun], which: str = "model", quantity: str | None = None) -> pd.DataFrame:
    """One frame from several runs: ``which`` is ``"model"``, ``"sim"`` or ``"points"``."""
    if which not in ("model", "sim", "points"):
        raise ParameterError(f"`which` must be 'model', 'sim' or 'points'; got {which!r}")
    frames = []
    for r in runs:
        f = r.points(quantity) if which == "points" else getattr(r, which)
        if f is not None and not f.empty:
            frames.append(f)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


# ----------------------------------------------------------------------------
# The error table
# ----------------------------------------------------------------------------
def _pct(f: float) -> str:
    return f"{round(100 * f, 6):g}"


def error_table(
    runs: Sequence[CurveRun],
    at: Sequence[float] | None = ERROR_FRACTIONS,
    *,
    quantity: str | None = None,
    within: float | None = None,
) -> pd.DataFrame:
    """One row per curve: the model's errors against the simulation, and the saturation loads.

    Errors are signed, in percent: ``100 (model - sim) / sim``
    (:func:`~models.core.validation.saturation_aware_error`: ``+inf`` where
    the model is saturated and the simulation is not, NaN where the
    simulation is saturated or the point was not run).

    Columns (numbers; formatting is the chapter's):

    * ``curve``, ``setup``;
    * ``err @<p>% [%]`` for each fraction ``p`` in ``at`` (matched to the
      ``fraction`` column with :func:`numpy.isclose`);
    * ``max |err| [%]``, ``mean |err| [%]``, ``points`` (simulated points
      where both are finite), ``in CI`` (of those, model inside the
      simulation's 95% interval), ``within <w>%`` with ``within``;
    * ``model saturated`` (points where only the model is saturated);
    * ``model saturation``, ``sim saturation`` (loads), ``saturation err [%]``
      (signed), ``saturation ratio`` (model / sim).

    Parameters
    ----------
    runs : sequence of CurveRun
    at : sequence of float or None
        Fractions of the saturation load (the curves' ``fraction``).
    quantity : str, optional
        Compared column (default each run's own).
    within : float, optional
        Also count the points with ``|error| <= within`` (a fraction, 0.05 = 5%).
    """
    at = () if at is None else tuple(finite_nonneg("at", f, positive=True) for f in at)
    if within is not None:
        within = finite_nonneg("within", within, positive=True)
    rows = []
    for run in runs:
        if not isinstance(run, CurveRun):
            raise ParameterError(f"`runs` must hold CurveRun objects; got {run!r}")
        q = quantity or run.quantity
        pts = run.points(q)
        row = {"curve": run.curve.label, "setup": run.curve.setup}
        has = not pts.empty and f"model {q}" in pts and f"sim {q}" in pts
        if has:
            m = pts[f"model {q}"].to_numpy(dtype=float)
            s = pts[f"sim {q}"].to_numpy(dtype=float)
            ci = pts[f"sim {q} CI"].to_numpy(dtype=float) if f"sim {q} CI" in pts else np.zeros_like(s)
            err = saturation_aware_error(m, s)
            frac = pts["fraction"].to_numpy(dtype=float)
        for f in at:
            val = math.nan
            if has:
                hit = np.flatnonzero(np.isclose(frac, f))
                if hit.size:
                    val = 100.0 * float(err[hit[0]])
            row[f"err @{_pct(f)}% [%]"] = val
        if has:
            ok = np.isfinite(m) & np.isfinite(s)
            cmp = compare(pts["load"][ok], m[ok], s[ok], ci[ok], curve=run.curve.label, x_name="load", quantity=q)
            rel = cmp["rel. error"].abs().to_numpy(dtype=float)
            good = np.isfinite(rel)
            row["max |err| [%]"] = 100.0 * float(rel[good].max()) if good.any() else math.nan
            row["mean |err| [%]"] = 100.0 * float(rel[good].mean()) if good.any() else math.nan
            row["points"] = int(good.sum())
            row["in CI"] = int(cmp["in CI"].to_numpy()[good].sum())
            if within is not None:
                row[f"within {_pct(within)}%"] = int((rel[good] <= within).sum())
            row["model saturated"] = int(np.sum(np.isinf(err)))
        else:
            row.update({"max |err| [%]": math.nan, "mean |err| [%]": math.nan, "points": 0, "in CI": 0})
            if within is not None:
                row[f"within {_pct(within)}%"] = 0
            row["model saturated"] = 0
        sm, ss = run.model_saturation, run.sim_saturation
        row["model saturation"] = sm
        row["sim saturation"] = ss
        ok_sat = math.isfinite(sm) and math.isfinite(ss) and ss != 0
        row["saturation err [%]"] = 100.0 * ((sm - ss) / ss) if ok_sat else math.nan
        row["saturation ratio"] = sm / ss if ok_sat else math.nan
        rows.append(row)
    return pd.DataFrame(rows)
