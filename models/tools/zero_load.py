"""Zero-load latency of a wormhole message (SymPy first, then numbers).

Dally & Towles (*Principles and Practices of Interconnection Networks*, 2004,
Sec. 3.3, latency) write the latency of a packet
on an idle network as the header latency plus the serialisation latency,
``T0 = H t_r + L / b``: ``H`` routers of ``t_r`` cycles each for the header,
then the ``L``-flit packet streaming behind it at ``b`` flits per cycle.

The project's simulator (:mod:`models.sim.wormhole.simulate`, "Timing")
counts it as follows: the header crosses the injection channel in the cycle
the message is generated, then the ``h`` network channels and the ejection
channel ``R`` cycles apart (``R = router_delay``), and the tail flit leaves
``M - 1`` cycles after the header.  So ``H = h + 1`` routers, ``t_r = R``,
``b = 1`` flit/cycle and ``L = M``:

    T0(h) = M + (h + 1) R   cycles.

Under uniform traffic the mean over destinations replaces ``h`` by the mean
distance ``h_bar`` (:func:`models.networks.graph.torus_average_distance`),
since ``T0`` is linear in ``h``.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import sympy as sp

from ..core.symbolic import lambdify_cached
from ..core.validate import require
from ..networks.graph import torus_average_distance

__all__ = ["SYMBOLS", "equations", "zero_load_latency", "mean_zero_load_latency"]

SYMBOLS = SimpleNamespace(**dict(zip(("h", "M", "R"), sp.symbols("h M R", positive=True))))
"""Symbols of :func:`equations`: hops ``h``, message length ``M`` (flits), router delay ``R`` (cycles)."""
_s = SYMBOLS


@functools.cache
def equations() -> dict:
    """``"T0"``: the zero-load latency of an ``M``-flit message over ``h`` hops, cycles."""
    return {"T0": sp.Eq(sp.Symbol("T_0"), _s.M + (_s.h + 1) * _s.R)}


def zero_load_latency(hops, message_length, router_delay=1):
    """Zero-load latency (cycles) of a message of ``message_length`` flits over ``hops`` network hops.

    ``router_delay`` is the cycles a header spends in each router (the simulator's ``router_delay``).
    Arrays broadcast; a float for scalars.
    """
    hops = np.asarray(hops, dtype=float)
    require("hops", float(np.min(hops)), 0, unit="network hops")
    require("message_length", float(np.min(message_length)), 0, lo_open=True, unit="flits")
    require("router_delay", float(np.min(router_delay)), 0, lo_open=True, unit="cycles per router")
    f = lambdify_cached((_s.h, _s.M, _s.R), equations()["T0"])
    t = np.asarray(f(hops, np.asarray(message_length, dtype=float), np.asarray(router_delay, dtype=float)),
                   dtype=float)
    return float(t) if t.ndim == 0 else t


def mean_zero_load_latency(radices, message_length, *, bidirectional: bool, router_delay=1) -> float:
    """Mean zero-load latency (cycles) over uniform destinations (the ``N - 1`` other nodes) of a torus.

    ``radices`` as :class:`models.networks.graph.Torus`; the mean distance is
    :func:`~models.networks.graph.torus_average_distance` (hops).
    """
    return zero_load_latency(torus_average_distance(radices, bidirectional), message_length, router_delay)
