"""The channel-load bound of a torus under uniform traffic (SymPy first, then numbers).

Dally & Towles (*Principles and Practices of Interconnection Networks*, 2004,
Sec. 3.3, throughput and maximum channel load): a network's throughput is
bounded by its busiest channel.  Under uniform traffic every message of ``M`` flits crosses ``h_bar`` network
channels on average, so ``N`` nodes each injecting ``lambda`` messages per cycle
put ``lambda N h_bar M`` flits per cycle on the network's ``c N`` channels
(``c`` = ``n`` channels leave a node of a unidirectional ``n``-dimensional
torus, ``2n`` of a bidirectional one).  A torus is symmetric and dimension-order
routing (ties at offset ``k/2`` broken at random) spreads that load evenly, so
every channel carries

    gamma = lambda M h_bar / c   flits per cycle,

and no channel can carry more than one flit per cycle: ``lambda <= c / (M
h_bar)``.  The injection and ejection channels of a node (one flit per cycle
each) add ``lambda <= 1 / M``.  The throughput bound is the smaller of the
two; a network saturates below it, because a wormhole message that is blocked
holds channels it is not using.  For a bidirectional ``k``-ary ``n``-cube of
even ``k`` with the source counted among the destinations, ``h_bar = n k / 4`` and
``gamma = lambda M k / 8``, Dally & Towles's bisection bound: on a torus the
two bounds coincide.  ``h_bar`` here is over the ``N - 1`` other nodes
(:func:`models.networks.graph.torus_average_distance`), as the simulator draws
destinations.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import sympy as sp

from ..core.symbolic import lambdify_cached
from ..core.validate import require
from ..networks.graph import torus_average_distance

__all__ = ["SYMBOLS", "equations", "channels_per_node", "channel_load", "channel_bound", "ejection_bound",
           "throughput_bound"]

SYMBOLS = SimpleNamespace(**dict(zip(("lam", "M", "h", "c"), sp.symbols(r"lambda M \bar{h} c", positive=True))))
"""Symbols of :func:`equations`: load ``lam`` (messages/node/cycle), message length ``M`` (flits), mean
distance ``h`` (hops), network channels per node ``c``."""
_s = SYMBOLS


@functools.cache
def equations() -> dict:
    """``"gamma"``: flits per cycle on each network channel; ``"channel"``, ``"ejection"``: the two bounds."""
    return {"gamma": sp.Eq(sp.Symbol("gamma"), _s.lam * _s.M * _s.h / _s.c),
            "channel": sp.Eq(sp.Symbol("lambda_channel"), _s.c / (_s.M * _s.h)),
            "ejection": sp.Eq(sp.Symbol("lambda_ejection"), 1 / _s.M)}


def channels_per_node(radices, *, bidirectional: bool) -> int:
    """Network channels leaving a node of a torus: ``n``, or ``2n`` when bidirectional."""
    n = len(tuple(radices))
    require("radices", n, 1, integer=True, unit="dimensions")
    return (2 if bidirectional else 1) * n


def _args(radices, message_length, bidirectional):
    M = require("message_length", message_length, 0, lo_open=True, unit="flits")
    return float(M), torus_average_distance(radices, bidirectional), channels_per_node(radices,
                                                                                       bidirectional=bidirectional)


def channel_load(rate, radices, message_length, *, bidirectional: bool):
    """Flits per cycle on every network channel of the torus at ``rate`` messages/node/cycle (uniform traffic)."""
    require("rate", float(np.min(rate)), 0, unit="messages/node/cycle")
    M, h, c = _args(radices, message_length, bidirectional)
    f = lambdify_cached((_s.lam, _s.M, _s.h, _s.c), equations()["gamma"])
    out = np.asarray(f(np.asarray(rate, dtype=float), M, h, c), dtype=float)
    return float(out) if out.ndim == 0 else out


def channel_bound(radices, message_length, *, bidirectional: bool) -> float:
    """The load (messages/node/cycle) at which every network channel carries one flit per cycle."""
    M, h, c = _args(radices, message_length, bidirectional)
    return float(lambdify_cached((_s.M, _s.h, _s.c), equations()["channel"])(M, h, c))


def ejection_bound(message_length) -> float:
    """The load (messages/node/cycle) at which a node's ejection channel carries one flit per cycle: ``1/M``."""
    M = require("message_length", message_length, 0, lo_open=True, unit="flits")
    return float(lambdify_cached((_s.M,), equations()["ejection"])(float(M)))


def throughput_bound(radices, message_length, *, bidirectional: bool) -> float:
    """The smaller of :func:`channel_bound` and :func:`ejection_bound`, messages/node/cycle."""
    return min(channel_bound(radices, message_length, bidirectional=bidirectional), ejection_bound(message_length))
