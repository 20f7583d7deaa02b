"""The 2004 model against the reconstructed 2003 model [16], curve by curve, decided beyond the noise.

The paper compares its model with the model of [16] (Sarbazi-Azad et al.
2003), whose paper the book could not read: the comparator is the book's
*reconstruction* of it (:mod:`models.torus_dor.model2003`).  Three of the
paper's sentences compare the two (the claims ``more-accurate-than-2003``,
``saturation-prediction-improved``, ``model2003-drawback-high-traffic`` and
the abstract's ``abstract-accuracy``); this module gives, per simulated
curve, the numbers and the noise-aware decisions behind them
(:mod:`models.core.criteria`):

* :func:`point_errors` -- a model's relative error ``|model / sim - 1|`` (a
  fraction) at the fixed fractions :data:`~models.core.setups.ACCURACY_FRACTIONS`
  (25, 50, 75 %) of the simulated saturation load, each with its 95 % half
  width from the simulated latency's: ``(model / sim) * ci / sim``; ``inf``
  where the model is saturated for every simulated saturation load in the
  search's bracket, undecided (NaN) where that depends on the bracket
  (:func:`models.core.claims.bracket_status`, with each model's own
  saturation load);
* :func:`worst_in` -- the worst of those errors over a set of fractions, as
  an interval (the largest lower end to the largest upper end);
* :func:`more_accurate` -- ``criteria.lower`` of two models' worst errors
  (the ``lower-beyond-noise`` criterion);
* :func:`closer_saturation` -- whether one model's saturation load is closer
  (in log) to the simulated one than another's for *every* simulated
  saturation load in the search's bracket (the ``beyond-brackets``
  criterion): the bracket lies wholly on the first model's side of the two
  models' geometric mean;
* :func:`comparison_table` -- all of it, one row per curve.

"The high traffic region" of the drawback sentence is the simulated loads
from 50 % of the simulated saturation load up to the cut
(:data:`~models.core.setups.BELOW`, 80 %): with the fixed fractions, 50 and
75 % (:data:`HIGH_FRACTIONS`); below 50 % is 25 % (:data:`LOW_FRACTIONS`).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from ..core.claims import bracket_status
from ..core.criteria import higher, lower
from ..core.experiment import CurveRun
from ..core.results import ci_column
from ..core.setups import ACCURACY_FRACTIONS, BELOW
from ..core.validate import require_choice
from .experiments import as_model, is_paper_curve, saturation_of
from .setups import torus_of

__all__ = ["HIGH_FRACTIONS", "LOW_FRACTIONS", "MODELS", "PointError", "point_errors", "worst_in", "more_accurate",
           "drawback_high", "sim_bracket", "closer_saturation", "comparison_table", "all_or_none", "tally"]

#: "The high traffic region": the fixed accuracy fractions from 50 % of the simulated saturation load to the cut.
HIGH_FRACTIONS = tuple(f for f in ACCURACY_FRACTIONS if 0.5 <= f < BELOW)
#: Below 50 % of the simulated saturation load.
LOW_FRACTIONS = tuple(f for f in ACCURACY_FRACTIONS if f < 0.5)
#: The models compared: the 2004 model (default reading, as printed) and the reconstructed 2003 model.
MODELS = ("default", "printed", "2003")


@dataclasses.dataclass(frozen=True)
class PointError:
    """One model's relative error at one simulated load.

    fraction : float
        The load, a fraction of the simulated saturation load.
    error : float
        ``|model / sim - 1|`` (a fraction); ``inf`` when the model is saturated there whatever the simulated
        saturation load in its bracket; NaN when that depends on where in the bracket it is.
    half : float
        95 % half width of ``error`` from the simulated latency's (``(model / sim) * ci / sim``); 0 when unbounded.
    status : str
        ``"bounded"``, ``"unbounded"`` or ``"uncertain"`` (:func:`models.core.claims.bracket_status`).
    """

    fraction: float
    error: float
    half: float
    status: str


def sim_bracket(run: CurveRun):
    """``(lo, hi)`` of the run's simulated saturation search (messages/node/cycle), or ``(S, S)`` with ``S`` its
    saturation load when no search was recorded, or None when there is none."""
    b = run.brackets.get("sim") if run.brackets else None
    if b is not None:
        lo, hi = (b.lo, b.hi) if hasattr(b, "lo") else tuple(b)
        if math.isfinite(lo) and math.isfinite(hi) and 0 < lo <= hi:
            return float(lo), float(hi)
    s = float(run.sim_saturation)
    return (s, s) if math.isfinite(s) and s > 0 else None


def point_errors(run: CurveRun, which: str = "default",
                 fractions: Sequence[float] = ACCURACY_FRACTIONS) -> list[PointError]:
    """Model ``which``'s errors on ``run`` at ``fractions`` of the simulated saturation load (:class:`PointError`),
    at the simulated points that are not saturated; empty when the run has no such points or not the model."""
    require_choice("which", which, MODELS)
    if run.sim is None or run.params.get("load basis") != "sim" or \
            (which != "default" and f"latency {which}" not in run.model):
        return []
    r = as_model(run, which)
    pts = r.points()
    bracket = sim_bracket(r)
    out = []
    for _, p in pts.iterrows():
        f, s = float(p["fraction"]), float(p["sim latency"])
        ci = float(p.get(f"sim {ci_column('latency')}", 0.0))
        if not any(math.isclose(f, g, rel_tol=1e-9) for g in fractions) or not math.isfinite(s) or s <= 0 or \
                bool(p.get("sim saturated", False)):
            continue
        status = bracket_status(r.model_saturation, bracket, f)
        m = float(p["model latency"])
        if status == "unbounded" or (status == "bounded" and not math.isfinite(m)):
            out.append(PointError(f, math.inf, 0.0, "unbounded"))
        elif status == "uncertain" or not math.isfinite(m):
            out.append(PointError(f, math.nan, math.nan, "uncertain"))
        else:
            half = (m / s) * (ci / s) if math.isfinite(ci) else 0.0
            out.append(PointError(f, abs(m / s - 1.0), half, "bounded"))
    return out


def worst_in(errors: Iterable[PointError]) -> tuple[float, float]:
    """The worst of ``errors`` as ``(value, half)``: ``(inf, 0)`` when one is unbounded; ``(nan, nan)`` when one
    is undecided (and none unbounded) or there is none; else the interval from the largest lower end
    (``error - half``) to the largest upper end, as its middle and half width."""
    e = list(errors)
    if not e:
        return math.nan, math.nan
    if any(math.isinf(p.error) for p in e):
        return math.inf, 0.0
    if any(math.isnan(p.error) for p in e):
        return math.nan, math.nan
    lo = max(p.error - p.half for p in e)
    hi = max(p.error + p.half for p in e)
    return 0.5 * (lo + hi), 0.5 * (hi - lo)


def more_accurate(run: CurveRun, which: str = "default", than: str = "2003",
                  fractions: Sequence[float] = ACCURACY_FRACTIONS):
    """Whether model ``which`` is more accurate than model ``than`` on ``run`` beyond the noise
    (``lower-beyond-noise``): its worst error at ``fractions`` (:func:`worst_in`) below the other's, True;
    above, False; within the simulated latency's noise, or both unbounded, or one undecided, None."""
    a, ah = worst_in(point_errors(run, which, fractions))
    b, bh = worst_in(point_errors(run, than, fractions))
    return lower(a, ah, b, bh)


def drawback_high(run: CurveRun, which: str = "default"):
    """Whether the reconstructed 2003 model's worst error in the high traffic region (:data:`HIGH_FRACTIONS`) is
    larger than model ``which``'s there beyond the noise (``higher`` of the two worst errors): True, False
    (smaller beyond the noise), or None (within the noise, or undecided)."""
    a, ah = worst_in(point_errors(run, "2003", HIGH_FRACTIONS))
    b, bh = worst_in(point_errors(run, which, HIGH_FRACTIONS))
    return higher(a, ah, b, bh)


def closer_saturation(model: float, other: float, bracket):
    """Whether saturation load ``model`` is closer (in log) than ``other`` to the simulated saturation load for
    every value in its search's ``bracket = (lo, hi)`` (messages/node/cycle): the bracket wholly on ``model``'s
    side of the geometric mean of the two (``beyond-brackets``).  True, False (``other`` closer for every value),
    or None (it depends on where in the bracket the simulated load is, the two loads equal, or a number missing)."""
    if bracket is None or not all(math.isfinite(x) and x > 0 for x in (model, other)) or model == other:
        return None
    lo, hi = bracket
    g = math.sqrt(model * other)
    mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo)
    above = higher(mid, half, g, 0.0)  # the simulated load above the geometric mean, beyond its bracket
    if above is None:
        return None
    return above if model > other else not above


def all_or_none(values: Iterable) -> bool | None:
    """False if any is False; True if all are True; None otherwise (nothing decided, or some within the noise)."""
    vals = list(values)
    if any(v is False for v in vals):
        return False
    if vals and all(v is True for v in vals):
        return True
    return None


def tally(values: Iterable) -> str:
    """``"k of n (j the other way beyond the noise, u within it)"`` of decisions True/False/None."""
    v = list(values)
    yes, no = sum(x is True for x in v), sum(x is False for x in v)
    return f"{yes} of {len(v)} ({no} the other way beyond the noise, {len(v) - yes - no} within it)"


def comparison_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The 2004 model (default reading and as printed) and the reconstructed 2003 model on every simulated curve.

    ``runs`` need the 2003 model's latency (``run_figure(..., with_2003=True)``) and the printed one; a curve
    that appears twice (Fig. 2's is also a Fig. 1 curve) is kept once.  One row per curve: ``torus``,
    ``curve``, ``paper`` (a network of the paper's Figs. 1-2), ``sat sim`` and its bracket ``sat sim lo``,
    ``sat sim hi`` (messages/node/cycle); per model ``m`` of ``default``, ``printed``, ``2003``: ``worst m``
    and ``worst m half`` (the worst |error| at 25, 50 and 75 % of the simulated saturation load and its 95 %
    half width, fractions; inf: unbounded), ``high m`` and ``high m half`` (the same at 50 and 75 %, the high
    traffic region), ``low m`` (at 25 %), ``sat m / sim``; per reading ``w`` of ``default``, ``printed``:
    ``better w`` (:func:`more_accurate`), ``closer w`` (:func:`closer_saturation`), ``drawback w``
    (:func:`drawback_high`), each True, False or None (within the noise).
    """
    rows, seen = [], set()
    for run in runs:
        key = (run.curve.label, torus_of(run.curve))
        if key in seen or run.sim is None or "latency 2003" not in run.model:
            continue
        seen.add(key)
        ssim, bracket = run.sim_saturation, sim_bracket(run)
        row = {"torus": torus_of(run.curve), "curve": run.curve.label, "paper": is_paper_curve(run.curve),
               "sat sim": ssim, "sat sim lo": bracket[0] if bracket else math.nan,
               "sat sim hi": bracket[1] if bracket else math.nan}
        for m in MODELS:
            row[f"worst {m}"], row[f"worst {m} half"] = worst_in(point_errors(run, m))
            row[f"high {m}"], row[f"high {m} half"] = worst_in(point_errors(run, m, HIGH_FRACTIONS))
            row[f"low {m}"] = worst_in(point_errors(run, m, LOW_FRACTIONS))[0]
            s = saturation_of(run, m)
            row[f"sat {m} / sim"] = s / ssim if ssim > 0 else math.nan
        for w in ("default", "printed"):
            row[f"better {w}"] = more_accurate(run, w)
            row[f"closer {w}"] = closer_saturation(saturation_of(run, w), saturation_of(run, "2003"), bracket)
            row[f"drawback {w}"] = drawback_high(run, w)
        rows.append(row)
    decided = [f"{a} {w}" for a in ("better", "closer", "drawback") for w in ("default", "printed")]
    cols = ["torus", "curve", "paper", "sat sim", "sat sim lo", "sat sim hi"] + \
        [f"{a} {m}{h}" for m in MODELS for a in ("worst", "high") for h in ("", " half")] + \
        [f"low {m}" for m in MODELS] + [f"sat {m} / sim" for m in MODELS] + decided
    out = pd.DataFrame(rows, columns=cols)
    for c in decided:
        out[c] = out[c].astype(object)
    return out
