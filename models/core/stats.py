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


#: How much longer a run that is lengthened until precise gets each time (both simulators, a target confidence
#: interval): the length it stops at overshoots the one the target needs by about ``(1.5 - 1) / ln 1.5 = 1.23``
#: times on average, and the run continues where it stopped, so nothing is simulated twice.
GROWTH = 1.5


def lengthened(n: int, cap: int | None = None) -> int:
    """The next length of a run lengthened until precise (messages or cycles): ``ceil(n * GROWTH)``
    (:data:`GROWTH`), at most ``cap``."""
    longer = int(math.ceil(n * GROWTH))
    return longer if cap is None else min(longer, cap)
