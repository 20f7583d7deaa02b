"""The simulations of the warm-up pages, each beside its model, as tables (pandas).

Every wormhole run goes through :func:`models.sim.sweep.run_sweep` (cached on
disk, and sharing a pipeline's cores like every page's points) on a torus
with dimension-order routing, buffers of 2 flits, one cycle per router and
Poisson sources with uniform destinations (the simulator's defaults; the
papers' networks).  The single-server queue is :func:`.queue_sim.simulate_queue`
(numpy, milliseconds).  Loads are messages/node/cycle, times cycles.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ..core.saturation import Saturation, find_saturation
from ..core.validate import require
from ..networks.graph import Torus, torus_average_distance
from ..queueing.mg1 import mg1_wait
from ..queueing.mmpp_g1 import Deterministic, Exponential, ServiceTime
from ..sim.sweep import run_sweep
from ..sim.wormhole.throughput import saturation_throughput
from .channel_load import channel_load, throughput_bound
from .little import network_counts
from .queue_sim import simulate_queue
from .zero_load import mean_zero_load_latency, zero_load_latency

__all__ = ["torus_name", "wormhole_point", "zero_load_table", "little_table", "SERVICES", "mg1_table",
           "simulated_saturation", "latency_table", "accepted_table", "doubling_load"]


def torus_name(radices, bidirectional: bool) -> str:
    """``"8x8 unidirectional"``: how the tables name a torus."""
    return "x".join(str(int(k)) for k in radices) + (" bidirectional" if bidirectional else " unidirectional")


def wormhole_point(radices, *, bidirectional: bool, vcs: int, message_length: int, rate: float, messages: int,
                   warmup_messages: int, batches: int = 10, seed: int = 1) -> dict:
    """The simulator's keywords for one point: the torus, dimension-order routing, ``rate`` messages/node/cycle."""
    return dict(topology=Torus(tuple(int(k) for k in radices), bidirectional=bool(bidirectional)), routing="dor",
                vcs=int(vcs), message_length=int(message_length), rate=float(rate), messages=int(messages),
                warmup_messages=int(warmup_messages), batches=int(batches), seed=int(seed))


def zero_load_table(networks: Sequence, M_values: Sequence[int], *, vcs: int, load_fraction: float, messages: int,
                    warmup_messages: int, batches: int = 10, seed: int = 1, jobs="auto") -> pd.DataFrame:
    """The zero-load latency, model against simulation, for every network and message length.

    ``networks``: ``(radices, bidirectional)`` pairs.  Each point runs at
    ``load_fraction`` of the torus's throughput bound (:func:`.channel_load.throughput_bound`),
    so that messages almost never meet.  Columns: the torus, ``M`` [flits], the load, the mean
    distance [hops], the model's ``T0`` [cycles] at that distance, the simulated latency and its 95 % half
    width, the signed error ``(model - sim) / sim``, the simulated mean hops and the model at those hops.
    """
    require("load_fraction", load_fraction, 0, 1, lo_open=True, unit="fraction of the throughput bound")
    cases = [(tuple(r), bool(b), int(M)) for r, b in networks for M in M_values]
    points = [wormhole_point(r, bidirectional=b, vcs=vcs, message_length=M,
                             rate=load_fraction * throughput_bound(r, M, bidirectional=b), messages=messages,
                             warmup_messages=warmup_messages, batches=batches, seed=seed) for r, b, M in cases]
    results = run_sweep(points, jobs=jobs, progress=False)
    rows = []
    for (r, b, M), p, res in zip(cases, points, results):
        model = mean_zero_load_latency(r, M, bidirectional=b)
        rows.append({"torus": torus_name(r, b), "M": M, "load": p["rate"],
                     "mean distance": torus_average_distance(r, b), "model T0": model, "sim": res.latency,
                     "sim 95% ±": res.latency_ci, "error": (model - res.latency) / res.latency,
                     "sim hops": res.mean_hops, "model at sim hops": zero_load_latency(res.mean_hops, M)})
    return pd.DataFrame(rows)


def little_table(radices, *, bidirectional: bool, vcs: int, message_length: int, fractions: Sequence[float],
                 messages: int, warmup_messages: int, batches: int = 10, seed: int = 1, jobs="auto") -> pd.DataFrame:
    """Little's law on the simulator's own counts, at ``fractions`` of the torus's throughput bound.

    Per load (messages/node/cycle): the accepted rate of the whole network (messages/cycle), the mean time a
    message spends in the network (cycles), their product ``lambda W`` and the number of messages in the
    network counted every cycle (:func:`.little.network_counts`), and the signed gap
    ``(lambda W - counted) / counted``.  A load the simulator finds saturated is left out.
    """
    bound = throughput_bound(radices, message_length, bidirectional=bidirectional)
    nodes = int(np.prod(radices))
    points = [wormhole_point(radices, bidirectional=bidirectional, vcs=vcs, message_length=message_length,
                             rate=f * bound, messages=messages, warmup_messages=warmup_messages, batches=batches,
                             seed=seed) for f in fractions]
    rows = []
    for f, p, res in zip(fractions, points, run_sweep(points, jobs=jobs, progress=False)):
        if res.saturated:
            continue
        c = network_counts(res, nodes)
        rows.append({"load": p["rate"], "fraction of bound": float(f), "lambda": c["rate"], "W": c["time"],
                     "lambda W": c["predicted"], "counted L": c["counted"],
                     "gap": (c["predicted"] - c["counted"]) / c["counted"]})
    return pd.DataFrame(rows)


#: The two service-time distributions of the M/G/1 page, by name, as functions of the mean (cycles).
SERVICES = {"deterministic": Deterministic, "exponential": Exponential}


def mg1_table(utilisations: Sequence[float], *, mean_service: float, customers: int, warmup: int,
              batches: int = 20, seed: int = 1) -> pd.DataFrame:
    """The Pollaczek-Khinchine mean wait against a simulated queue, for both :data:`SERVICES`.

    One row per distribution and utilisation ``rho`` (arrival rate ``rho / mean_service`` per cycle): the
    model's wait (:func:`models.queueing.mg1.mg1_wait`), the simulated one with its 95 % half width, and the
    signed error ``(model - sim) / sim``.  Each run has its own seed (``seed`` plus its row number), so the
    rows' errors are independent.
    """
    mean_service = require("mean_service", mean_service, 0, lo_open=True, unit="cycles")
    rows = []
    for i, (name, kind) in enumerate(SERVICES.items()):
        dist = kind(mean_service)
        for j, rho in enumerate(utilisations):
            rho = require("utilisations", rho, 0, 1, lo_open=True, hi_open=True, unit="rho = lambda E[S]")
            rate = rho / mean_service
            run = simulate_queue(rate, dist, customers=customers, warmup=warmup, batches=batches,
                                 seed=seed + i * len(utilisations) + j)
            model = mg1_wait(rate, dist.mean, dist.second_moment)
            rows.append({"service": name, "rho": rho, "model W": model, "sim W": run.wait,
                         "sim 95% ±": run.wait_ci, "error": (model - run.wait) / run.wait})
    return pd.DataFrame(rows)


def simulated_saturation(radices, *, bidirectional: bool, vcs: int, message_length: int, sat_messages: int,
                         sat_steps: int, seed: int = 1, jobs="auto") -> Saturation:
    """The simulated saturation load (messages/node/cycle): bisection of [0, throughput bound].

    Each probe is one fixed-length run of ``sat_messages`` messages after a
    tenth as many (at least 200), saturated when its backlog grows (the
    simulator's rule); ``sat_steps`` halvings (:func:`models.core.saturation.find_saturation`).
    The bound itself is never probed: no network runs above it.
    """
    bound = throughput_bound(radices, message_length, bidirectional=bidirectional)

    def saturated(load: float) -> bool:
        p = wormhole_point(radices, bidirectional=bidirectional, vcs=vcs, message_length=message_length, rate=load,
                           messages=sat_messages, warmup_messages=max(sat_messages // 10, 200), seed=seed)
        return bool(run_sweep([p], jobs=jobs, progress=False)[0].saturated)

    return find_saturation(saturated, 0.0, bound, rtol=0, max_steps=int(sat_steps))


def latency_table(radices, *, bidirectional: bool, vcs: int, message_length: int, loads: Sequence[float],
                  messages: int, warmup_messages: int, batches: int = 10, seed: int = 1, jobs="auto") -> pd.DataFrame:
    """Simulated latency (cycles, with its 95 % half width; ``inf`` when saturated) at each load, and the channel
    load the model gives there (flits/cycle on every network channel)."""
    points = [wormhole_point(radices, bidirectional=bidirectional, vcs=vcs, message_length=message_length,
                             rate=x, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
              for x in loads]
    results = run_sweep(points, jobs=jobs, progress=False)
    return pd.DataFrame({"vcs": int(vcs), "load": [float(x) for x in loads],
                         "channel load": channel_load(np.asarray(loads, dtype=float), radices, message_length,
                                                      bidirectional=bidirectional),
                         "latency": [r.latency for r in results], "latency 95% ±": [r.latency_ci for r in results],
                         "saturated": [bool(r.saturated) for r in results]})


def accepted_table(radices, *, bidirectional: bool, vcs: int, message_length: int, loads: Sequence[float],
                   cycles: int, warmup_cycles: int, seed: int = 1, jobs="auto") -> pd.DataFrame:
    """Accepted against offered throughput (messages/node/cycle), fixed-length runs that go past saturation.

    Each load is :func:`models.sim.wormhole.saturation_throughput` over ``cycles`` measured cycles (two
    replications) after ``warmup_cycles``: below saturation the network delivers what is offered; above it
    the accepted throughput stays at what the network can carry and the source queues grow without bound.
    """
    topo = Torus(tuple(int(k) for k in radices), bidirectional=bool(bidirectional))
    points = [dict(topology=topo, rate=float(x), cycles=int(cycles), warmup_cycles=int(warmup_cycles), batches=2,
                   seed=int(seed), routing="dor", vcs=int(vcs), message_length=int(message_length)) for x in loads]
    # not cached: the disk cache stores the simulators' own result types, and these runs take a second
    results = run_sweep(points, simulate_fn=saturation_throughput, jobs=jobs, progress=False, cache=False)
    return pd.DataFrame({"vcs": int(vcs), "offered": [r.offered for r in results],
                         "accepted": [r.accepted for r in results], "accepted 95% ±": [r.accepted_ci for r in results]})


def doubling_load(loads, latency, zero_load: float) -> float:
    """The load at which the latency first reaches twice ``zero_load`` (linear between simulated points).

    A convention for the knee of a latency curve: below it, the zero-load
    latency is most of the latency; above it, waiting is.  Only finite
    (unsaturated) points count; ``nan`` when none reaches it.
    """
    x = np.asarray(loads, dtype=float)
    y = np.asarray(latency, dtype=float)
    keep = np.isfinite(y)
    x, y = x[keep], y[keep]
    above = np.flatnonzero(y >= 2 * zero_load)
    if above.size == 0:
        return float("nan")
    i = int(above[0])
    if i == 0:
        return float(x[0])
    return float(x[i - 1] + (2 * zero_load - y[i - 1]) * (x[i] - x[i - 1]) / (y[i] - y[i - 1]))

