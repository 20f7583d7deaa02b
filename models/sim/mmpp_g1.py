"""Direct simulation of an MMPP(2)/G/1 FIFO queue: the reference for :mod:`models.queueing.mmpp_g1`."""

from __future__ import annotations

import math as _math

import numpy as np

from ..core.stats import student_quantile as _student_quantile
from ..core.validate import require as _require
from ..queueing.mmpp_g1 import ServiceTime, _mmpp_args

__all__ = ["simulate_mmpp_g1"]


def simulate_mmpp_g1(arrival, service: ServiceTime, *, customers: int = 1_000_000, warmup: int = 10_000,
                     batches: int = 20, seed: int = 1) -> tuple[float, float]:
    """Direct simulation of an MMPP(2)/G/1 FIFO queue: (mean wait at arrivals, 95% CI half width), cycles.

    The modulating chain is simulated sojourn by sojourn (Poisson numbers of
    arrivals placed uniformly in each sojourn), the waits by Lindley's
    recursion in closed form ``W_n = U_n - min(0, min_{k<=n} U_k)``; the
    confidence interval is by batch means.
    """
    Q, L = _mmpp_args(arrival)
    customers = _require("customers", customers, 100, integer=True, unit="measured customers")
    warmup = _require("warmup", warmup, 0, integer=True, unit="discarded customers")
    rng = np.random.default_rng(seed)
    sig = np.array([Q[0, 1], Q[1, 0]])
    rates = np.diag(L)
    lam_ = float(np.array([sig[1], sig[0]]) @ rates / sig.sum())
    need = customers + warmup + 1
    times = []
    total = 0
    t0 = 0.0
    state = 0 if rng.random() < sig[1] / sig.sum() else 1
    while total < need:
        m = int(min(4_000_000, max(1000, 1.2 * (need - total) / lam_ * sig.mean())))  # sojourns per chunk (memory)
        st = (state + np.arange(m)) % 2
        dur = rng.exponential(1.0 / sig[st])
        start = t0 + np.concatenate([[0.0], np.cumsum(dur)[:-1]])
        cnt = rng.poisson(rates[st] * dur)
        idx = np.repeat(np.arange(m), cnt)
        arr = start[idx] + rng.random(idx.size) * dur[idx]
        times.append(np.sort(arr))
        total += idx.size
        t0 = start[-1] + dur[-1]
        state = (state + m) % 2
    A = np.concatenate(times)[:need]
    S = service.sample(rng, need)
    X = S[:-1] - np.diff(A)
    U = np.concatenate([[0.0], np.cumsum(X)])
    W = U - np.minimum(0.0, np.minimum.accumulate(U))
    W = W[warmup + 1:]
    nb = W.size // batches
    means = W[: nb * batches].reshape(batches, nb).mean(axis=1)
    ci = float(_student_quantile(batches - 1) * means.std(ddof=1) / _math.sqrt(batches))
    return float(W.mean()), ci
