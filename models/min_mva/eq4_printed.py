"""The multi-packet model with eq. (4) as printed, against the same simulations (Figs. 6-8).

The chapter's model of Sec. 4 carries the factor ``m`` on terms (a) and (b)
of eq. (4) that the text of Sec. 4.2 asks for ("The factor m is required
since each customer is m packets long"); the equation as printed lacks it.
Where the book judges the paper's accuracy sentence on Figs. 6-8 with its
reading, the paper's text as printed is judged beside it: :func:`printed_points`
solves the model with eq. (4) as printed (:func:`models.min_mva.solve`,
``reading="eq4-printed"``) at every simulated ``NC`` of the runs and compares
it with the same simulation, in the format of the ``points`` of
:func:`models.min_mva.experiments.error_tables`, so the claims table reads
both alike.  Times in cycles, throughputs in requests per cycle; the
relative error ``(model - sim) / sim`` is a fraction (``inf`` where the
printed model has no finite solution).
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.errors import ConvergenceError
from ..core.results import ci_column
from ..core.validation import compare
from .solve import solve

__all__ = ["READING", "printed_points"]

#: The solver's name of eq. (4) as printed (:data:`models.min_mva.readings.EQ4_READINGS`).
READING = "eq4-printed"


def _printed(model: Mapping, NC: int) -> tuple[float, float]:
    """``(R, X)`` of the model with eq. (4) as printed at ``NC`` (NaN-free: ``inf``, 0 where it does not converge)."""
    try:
        res = solve(NC, reading=READING, **model)
    except ConvergenceError:
        return math.inf, 0.0
    return float(res.R), float(res.X)


def printed_points(results: Mapping[int, Sequence]) -> pd.DataFrame:
    """Eq. (4) as printed against the simulation of every multi-packet run of ``results``.

    ``results``: ``{figure number: runs}`` of :func:`~models.min_mva.experiments.run_figure`
    (simulated; single-packet runs, ``m = 1``, are skipped: eq. (4) is the
    m-packet switch).  One row per (curve, set-up, NC, quantity) as the
    ``points`` of :func:`~models.min_mva.experiments.error_tables` (``curve``
    ``"Fig. <n>, <label>: <q>"``, ``figure``, ``setup``, ``quantity`` ``R``
    or ``X``, ``NC``, ``model``, ``sim``, ``sim 95% CI``, ``rel. error``,
    ``in CI``), the model column being eq. (4) as printed.
    """
    parts = []
    for number, runs in results.items():
        for run in runs:
            if run.sim is None or int(run.curve.model.get("m", 1)) <= 1:
                continue
            ncs = [int(x) for x in run.sim["load"]]
            solved = [_printed(run.curve.model, nc) for nc in ncs]
            for i, q in enumerate(("R", "X")):
                model = np.array([s[i] for s in solved], dtype=float)
                cmp = compare(ncs, model, run.sim[q].to_numpy(dtype=float), run.sim[ci_column(q)].to_numpy(dtype=float),
                              curve=f"Fig. {number}, {run.label}: {q}", x_name="NC", quantity=q)
                cmp.insert(1, "figure", number)
                cmp.insert(2, "setup", run.curve.setup)
                cmp.insert(3, "quantity", q)
                parts.append(cmp.rename(columns={f"model {q}": "model", f"sim {q}": "sim"}))
    cols = ["curve", "figure", "setup", "quantity", "NC", "model", "sim", "sim 95% CI", "rel. error", "in CI"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)
