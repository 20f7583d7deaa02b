"""Throughput mode (BookSim's ``sim_type = throughput``): accepted throughput at a fixed offered load.

:func:`saturation_throughput` runs the simulator for a fixed number of cycles
at each offered load -- typically past saturation, where the unbounded source
queues grow -- and measures the *accepted* throughput over the window after a
warm-up: messages (tails delivered) and flits (ejected) per node per cycle.
So saturation is a measured number, not only a flag.

Confidence interval (95%, Student t):

* ``router="booksim"``: batch means over ``batches`` consecutive batches of
  the measured window of one run;
* ``router="ideal"``: the ideal engine does not export per-batch counts, so
  the window is split over ``batches`` independent replications (seeds
  ``seed, seed + 1, ...``), each with its own warm-up (the messages delivered
  in its first ``warmup_cycles`` cycles, counted by a pilot run of the same
  seed, are discarded), and the CI is over the replications' means (its flit throughput is ``message_length`` times the
  message throughput, exact for fixed lengths; for geometric lengths the mean).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from models.core.errors import ParameterError
from models.core.results import Result
from models.core.stats import ci_halfwidth
from models.core.validate import require, require_choice

from .booksim import run_booksim_cycles
from .simulate import _traffic, simulate

__all__ = ["ThroughputResult", "saturation_throughput"]


@dataclasses.dataclass(frozen=True, repr=False)
class ThroughputResult(Result):
    """Accepted throughput at one offered load (rates per node per cycle)."""

    offered: float  # offered load, messages / node / cycle
    accepted: float  # accepted throughput, messages / node / cycle (tails delivered)
    accepted_ci: float  # 95% CI half-width of `accepted`
    accepted_flits: float  # accepted throughput, flits / node / cycle (flits ejected)
    accepted_flits_ci: float
    cycles: int  # measured cycles (all batches / replications)
    warmup_cycles: int
    batches: int
    router: str
    params: dict


def saturation_throughput(topology, *, rate, cycles: int = 40_000, warmup_cycles: int = 10_000,
                          batches: int = 10, router: str = "ideal", seed: int = 1, **kw):
    """Accepted throughput at offered load(s) ``rate`` over fixed-length runs.

    Parameters
    ----------
    topology, **kw
        As :func:`models.sim.wormhole.simulate` (``routing``, ``vcs``,
        ``message_length``, ``buffer_depth``, ``traffic``, ``tie``,
        ``self_traffic``, ``injection_vcs`` ...); ``messages``,
        ``warmup_messages``, ``max_cycles``, ``target_ci`` and ``max_messages`` are set here.
    rate : float or sequence of float
        Offered load(s), messages / node / cycle (``None`` with an MMPP source).
    cycles : int
        Measured cycles after the warm-up (split into ``batches``).
    warmup_cycles : int
        Cycles simulated before measuring.
    batches : int
        Batches (booksim) or replications (ideal) of the confidence interval.
    router : {'ideal', 'booksim'}

    Returns
    -------
    ThroughputResult, or a list of them when ``rate`` is a sequence.
    """
    if rate is not None and np.ndim(rate) > 0:
        return [saturation_throughput(topology, rate=r, cycles=cycles, warmup_cycles=warmup_cycles,
                                      batches=batches, router=router, seed=seed, **kw) for r in rate]
    router = require_choice("router", router, ["ideal", "booksim"])
    cycles = require("cycles", cycles, 1, integer=True)
    warmup_cycles = require("warmup_cycles", warmup_cycles, 0, integer=True)
    batches = require("batches", batches, 2, unit="batches", integer=True)
    if cycles < batches:
        raise ParameterError(f"`cycles` must be >= `batches` ({batches}); got {cycles}")
    for k in ("messages", "warmup_messages", "max_cycles", "target_ci", "max_messages", "cache"):
        if k in kw:
            raise ParameterError(f"`{k}` is set by saturation_throughput; do not pass it")

    offered = _traffic(kw.get("traffic", "poisson"), rate)[3]
    N = topology.n_nodes
    M = kw.get("message_length")
    params = dict(topology=topology.spec(), rate=rate, cycles=cycles, warmup_cycles=warmup_cycles,
                  batches=batches, router=router, seed=seed,
                  **{k: (v if isinstance(v, (int, float, str, bool, type(None))) else repr(v)) for k, v in kw.items()})
    if router == "booksim":

        blen = cycles // batches
        msgs, flits, _ = run_booksim_cycles(topology, warmup_cycles=warmup_cycles, run_cycles=blen * batches,
                                            rate=rate, batches=batches, seed=seed, _offered_hint=offered,
                                            **_sim_defaults(kw))
        return ThroughputResult(offered=float(offered), accepted=float(msgs.mean()),
                                accepted_ci=ci_halfwidth(msgs), accepted_flits=float(flits.mean()),
                                accepted_flits_ci=ci_halfwidth(flits), cycles=blen * batches,
                                warmup_cycles=warmup_cycles, batches=batches, router=router, params=params)
    per = cycles // batches
    acc = []
    for i in range(batches):
        backlog = int(10 * N + 2.5 * offered * N * (warmup_cycles + per)) + 1000
        common = dict(rate=rate, messages=10**9, saturation_backlog=backlog, seed=seed + i, router="ideal", **kw)
        warm = 0
        if warmup_cycles:
            # the ideal engine warms up by delivered messages: count those delivered in the first
            # warmup_cycles (same seed, same trajectory) and discard exactly them
            warm = simulate(topology, warmup_messages=0, max_cycles=warmup_cycles, **common).work["delivered"]
        r = simulate(topology, warmup_messages=warm, max_cycles=warmup_cycles + per, **common)
        acc.append(r.throughput)
    acc = np.asarray(acc)
    mean_len = float(M) if M is not None else math.nan
    return ThroughputResult(offered=float(offered), accepted=float(acc.mean()), accepted_ci=ci_halfwidth(acc),
                            accepted_flits=float(acc.mean()) * mean_len,
                            accepted_flits_ci=ci_halfwidth(acc) * mean_len, cycles=per * batches,
                            warmup_cycles=warmup_cycles, batches=batches, router=router, params=params)


def _sim_defaults(kw: dict) -> dict:
    """simulate()'s defaults for the keywords the caller left out (booksim engine call)."""
    import inspect

    out = {}
    for name, p in inspect.signature(simulate).parameters.items():
        if name in ("topology", "rate", "seed", "batches", "cache", "router"):
            continue
        out[name] = kw.get(name, p.default)
    out["messages"] = 1
    out["warmup_messages"] = 0
    out["target_ci"] = None
    out["max_messages"] = None
    out.pop("max_cycles", None)
    unknown = set(kw) - set(out)
    if unknown:
        raise ParameterError(f"unknown keyword(s) for saturation_throughput: {sorted(unknown)}")
    if out.get("message_length", inspect.Parameter.empty) is inspect.Parameter.empty:
        raise ParameterError("`message_length` is required")
    return out
