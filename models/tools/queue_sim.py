"""A single-server FIFO queue with Poisson arrivals, simulated: the check of the M/G/1 mean wait.

The model it checks is :func:`models.queueing.mg1.mg1_wait`, the
Pollaczek-Khinchine mean wait (Kleinrock, *Queueing Systems*, vol. 1, 1975,
Ch. 5): ``W = lambda E[S^2] / (2 (1 - rho))``, ``rho = lambda E[S]``.  The
service times are :mod:`models.queueing.mmpp_g1`'s distributions
(``Deterministic``, ``Exponential``, ...), sampled by their ``sample``.

The simulation is Lindley's recursion ``W_{n+1} = max(0, W_n + S_n - A_{n+1})``
(``A``: the interarrival time), in closed form over the whole run with numpy
(``W_n = U_n - min(0, min_{k<=n} U_k)``, ``U`` the partial sums of ``S_n -
A_{n+1}``), as :func:`models.sim.mmpp_g1.simulate_mmpp_g1` does for an
MMPP(2) source; here the arrivals are Poisson and the run also keeps the
counts Little's law needs: the time-averaged numbers in the system, in the
queue and in service over the measured window.  Times are in cycles.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.errors import ParameterError
from ..core.results import Result
from ..core.stats import ci_halfwidth
from ..core.validate import require
from ..queueing.mmpp_g1 import ServiceTime

__all__ = ["QueueRun", "simulate_queue"]


@dataclasses.dataclass(frozen=True, repr=False)
class QueueRun(Result):
    """One run of :func:`simulate_queue` (times in cycles, rates per cycle)."""

    wait: float  # mean wait in the queue of the measured customers (service not included)
    wait_ci: float  # 95% half width of `wait` (batch means)
    sojourn: float  # mean time in the system (wait + service) of the measured customers
    service: float  # mean service time of the measured customers
    arrival_rate: float  # arrivals per cycle counted in the measured window
    in_system: float  # time-averaged number in the system over the window
    in_queue: float  # time-averaged number waiting (not in service) over the window
    busy: float  # fraction of the window the server is busy (time-averaged number in service)
    customers: int  # measured customers
    window: float  # length of the measured window, cycles
    seed: int
    params: dict


def _overlap(start: np.ndarray, end: np.ndarray, t0: float, t1: float) -> float:
    """Total time the intervals ``[start, end]`` spend inside ``[t0, t1]``."""
    return float(np.clip(np.minimum(end, t1) - np.maximum(start, t0), 0.0, None).sum())


def simulate_queue(rate: float, service: ServiceTime, *, customers: int = 100_000, warmup: int = 1_000,
                   batches: int = 20, seed: int = 1) -> QueueRun:
    """Simulate a FIFO single-server queue with Poisson arrivals at ``rate`` per cycle and ``service`` times.

    The first ``warmup`` customers are discarded; the measured window runs
    from the arrival of the first measured customer to the arrival of the
    last, and the ``customers`` that arrive in it are measured (their waits
    by batch means over ``batches`` consecutive batches).  The time averages
    are over the window, whoever is inside, so ``in_system`` and
    ``arrival_rate * sojourn`` are two counts of the same quantity (Little's
    law) that differ only by the customers caught at the window's ends.
    Same seed, same result.
    """
    if not isinstance(service, ServiceTime):
        raise ParameterError(f"`service` must be a service-time distribution of models.queueing.mmpp_g1 "
                             f"(Deterministic, Exponential, ...); got {service!r}")
    rate = require("rate", rate, 0, lo_open=True, unit="arrivals per cycle")
    rho = rate * service.mean
    if rho >= 1:
        raise ParameterError(f"`rate` times the mean service time must be below 1 (a stable queue); got "
                             f"{rate!r} x {service.mean!r} = {rho:.4g}")
    customers = require("customers", customers, 100, integer=True, unit="measured customers")
    warmup = require("warmup", warmup, 0, integer=True, unit="discarded customers")
    batches = require("batches", batches, 2, customers // 10, integer=True, unit="batches of the 95% interval")
    rng = np.random.default_rng(seed)
    n = warmup + customers + 1  # one more arrival closes the window
    arrivals = np.cumsum(rng.exponential(1.0 / rate, n))
    s = service.sample(rng, n)
    u = np.concatenate([[0.0], np.cumsum(s[:-1] - np.diff(arrivals))])
    wait = u - np.minimum(0.0, np.minimum.accumulate(u))
    start = arrivals + wait  # service starts
    leave = start + s
    t0, t1 = float(arrivals[warmup]), float(arrivals[-1])
    span = t1 - t0
    measured = slice(warmup, n - 1)
    w = wait[measured]
    per = w.size // batches
    return QueueRun(
        wait=float(w.mean()), wait_ci=ci_halfwidth(w[: per * batches].reshape(batches, per).mean(axis=1)),
        sojourn=float((w + s[measured]).mean()), service=float(s[measured].mean()),
        arrival_rate=customers / span, in_system=_overlap(arrivals, leave, t0, t1) / span,
        in_queue=_overlap(arrivals, start, t0, t1) / span, busy=_overlap(start, leave, t0, t1) / span,
        customers=customers, window=span, seed=int(seed),
        params=dict(rate=float(rate), service=repr(service), warmup=warmup, batches=batches))
