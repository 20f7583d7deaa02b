"""Little's law, ``L = lambda W`` (SymPy first, then numbers).

For any system that customers enter and leave -- a queue, a router, a whole
network -- observed over a long stationary stretch, the time-averaged number
inside ``L`` equals the rate at which they pass through ``lambda`` times the
mean time each one spends inside ``W`` (Little, "A proof for the queuing
formula L = lambda W", Operations Research 9, 1961; Lazowska et al.,
*Quantitative System Performance*, 1984, Ch. 3).  No distribution is
assumed: it is an identity between three averages of one sample path, up to
the customers caught inside at the two ends of the window.

Units here: ``lambda`` in customers (messages) per cycle *for the whole
system* (a network's rate is its nodes times the per-node rate), ``W`` in
cycles, ``L`` in customers.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import sympy as sp

from ..core.symbolic import lambdify_cached
from ..core.validate import require

__all__ = ["SYMBOLS", "equations", "in_system", "network_counts"]

SYMBOLS = SimpleNamespace(**dict(zip(("L", "lam", "W"), sp.symbols("L lambda W", positive=True))))
"""Symbols of :func:`equations`: number inside ``L``, throughput ``lam`` (per cycle), time inside ``W`` (cycles)."""
_s = SYMBOLS


@functools.cache
def equations() -> dict:
    """``"little"``: the mean number in a system from its throughput and its mean time inside."""
    return {"little": sp.Eq(_s.L, _s.lam * _s.W)}


def in_system(rate, time):
    """Little's ``L = lambda W``: mean number inside (customers) for ``rate`` (per cycle) and ``time`` (cycles)."""
    require("rate", float(np.min(rate)), 0, unit="customers per cycle")
    require("time", float(np.min(time)), 0, unit="cycles")
    f = lambdify_cached((_s.lam, _s.W), equations()["little"])
    out = np.asarray(f(np.asarray(rate, dtype=float), np.asarray(time, dtype=float)), dtype=float)
    return float(out) if out.ndim == 0 else out


def network_counts(result, nodes: int) -> dict:
    """The three averages of Little's law, read from one run of the wormhole simulator.

    ``result`` is a :class:`models.sim.wormhole.WormholeResult` of a network of
    ``nodes`` nodes; the system is the network past the source queues (a
    message is inside from the cycle it takes an injection virtual channel
    to the cycle its tail flit is ejected).  Returns ``rate`` (accepted
    messages per cycle, the whole network: ``throughput * nodes``),
    ``time`` (``network_latency``, cycles, mean over the measured messages),
    ``counted`` (``mean_in_network``, the number inside sampled every cycle of
    the measured window) and ``predicted`` (``rate * time``).  A saturated
    run has no finite ``time``: ``predicted`` is then ``inf``.
    """
    nodes = require("nodes", nodes, 1, integer=True, unit="nodes of the simulated network")
    rate = float(result.throughput) * nodes
    time = float(result.network_latency)
    return {"rate": rate, "time": time, "counted": float(result.mean_in_network),
            "predicted": in_system(rate, time) if np.isfinite(time) else float("inf")}
