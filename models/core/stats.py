"""Confidence intervals for simulation output (batch means), shared by the simulators."""

from __future__ import annotations

import functools
import math

import numpy as np


@functools.lru_cache(maxsize=None)
def student_quantile(df: int, confidence: float = 0.95) -> float:
    """Two-sided Student-t quantile ``t_{(1+confidence)/2, df}``.

    ``scipy.special.stdtrit``, the function ``scipy.stats.t.ppf`` evaluates (the same floats): importing
    ``scipy.stats`` costs a process about 1.2 s more than ``scipy.special``, paid by every notebook that simulates."""
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.5 + confidence / 2.0))


def ci_halfwidth(batch_means, confidence: float = 0.95) -> float:
    """Half width of the confidence interval of the mean of ``batch_means`` (Student t).

    Returns ``nan`` with fewer than two batches.  The batch means are assumed
    independent and identically distributed (batches long compared with the
    output's autocorrelation).
    """
    x = np.asarray(batch_means, dtype=float)
    if x.size < 2:
        return float("nan")
    return float(student_quantile(x.size - 1, confidence) * x.std(ddof=1) / math.sqrt(x.size))
