"""Model-versus-simulation comparison, the same way in every chapter.

:func:`compare` lines up model and simulation values point by point:
relative error ``(model - sim) / sim``, the simulation's 95% half width,
and whether the model falls inside the simulation's interval.
:func:`error_summary` condenses a comparison to one row per curve (max and
mean absolute relative error, points inside the CI), the table each chapter
reports for every curve.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


def relative_error(model, sim) -> np.ndarray:
    """``(model - sim) / sim`` elementwise (NaN where ``sim`` is 0 or not finite)."""
    model = np.asarray(model, dtype=float)
    sim = np.asarray(sim, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = (model - sim) / sim
    err[~np.isfinite(err)] = np.nan
    return err


def compare(x: Sequence, model: Sequence, sim: Sequence, sim_ci: Sequence | None = None, *, curve: str = "", x_name: str = "x", quantity: str = "value"):
    """A :class:`pandas.DataFrame` with one row per point: x, model, sim, CI, relative error, inside-CI flag."""
    import pandas as pd

    x = np.asarray(x)
    model = np.asarray(model, dtype=float)
    sim = np.asarray(sim, dtype=float)
    ci = np.zeros_like(sim) if sim_ci is None else np.asarray(sim_ci, dtype=float)
    if not (len(x) == len(model) == len(sim) == len(ci)):
        raise ValueError("x, model, sim and sim_ci must have the same length")
    frame = pd.DataFrame(
        {
            "curve": curve,
            x_name: x,
            f"model {quantity}": model,
            f"sim {quantity}": sim,
            "sim 95% CI": ci,
            "rel. error": relative_error(model, sim),
            "in CI": np.abs(model - sim) <= ci,
        }
    )
    return frame


def error_summary(frame, by: str = "curve"):
    """One row per curve: points, max and mean |relative error|, and points inside the CI."""
    import pandas as pd

    rows = []
    for name, group in frame.groupby(by, sort=False):
        err = group["rel. error"].abs()
        rows.append(
            {
                by: name,
                "points": int(len(group)),
                "max |rel. error|": float(err.max()),
                "mean |rel. error|": float(err.mean()),
                "in CI": f"{int(group['in CI'].sum())}/{len(group)}",
            }
        )
    return pd.DataFrame(rows)


def saturation_aware_error(model, sim) -> np.ndarray:
    """``(model - sim) / sim`` elementwise, keeping saturation visible.

    ``+inf`` where the model is saturated (not finite) but the simulation is
    not; NaN where the simulation is saturated (not finite) or 0.  This is
    the convention of every chapter's error table: a model that saturates
    before the simulator is infinitely wrong, a point the simulator cannot
    measure has no error.
    """
    model = np.asarray(model, dtype=float)
    sim = np.asarray(sim, dtype=float)
    shape = np.broadcast(model, sim).shape
    m, s = (np.array(a, dtype=float).reshape(-1) for a in np.broadcast_arrays(model, sim))
    err = np.asarray(relative_error(m, s), dtype=float)
    err[~np.isfinite(m) & np.isfinite(s) & (s != 0)] = np.inf
    return err.reshape(shape)
