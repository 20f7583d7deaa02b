"""Deadlock freedom of Duato-Nbc: the extended channel dependency graph of its escape VCs.

This module does not implement the routing: it builds the simulator's own
routing tables (:func:`models.sim.wormhole.routing.build` with
``routing="duato_nbc"``), asks the simulator for Duato's extended channel
dependency graph of the escape VCs
(:func:`~models.sim.wormhole.routing.extended_escape_cdg`: direct
dependencies and indirect ones through adaptive hops, over-approximating the
reachable header states) and checks that it has no cycle
(:func:`~models.sim.wormhole.routing.is_acyclic`).  By Duato's theorem an
acyclic extended CDG of a connected escape sub-function means the routing is
deadlock-free; the simulator's ``duato_nbc`` docstring gives the proof for
every even ``k`` (a key ``2 l + colour`` that every dependency increases),
this check confirms it mechanically for the sizes used.

:func:`escape_dependencies` additionally collapses the auxiliary header
states to count the escape-VC-to-escape-VC dependencies.  :func:`floor_cdg`
rebuilds the same graph under either bookkeeping of the header's escape
floor: the simulator's, and the paper's class 1 (the floor reset after an
adaptive hop), whose graph has cycles (:func:`acyclic_under`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.results import Result
from ..core.validate import require
from ..networks.graph import Torus
from .params import min_escape_levels


@dataclass(frozen=True, repr=False)
class EscapeCDG(Result):
    """Summary of the extended escape-channel dependency graph of Duato-Nbc on ``k x k``."""

    k: int
    vcs: int
    escape_levels: int
    escape_vcs: int          # physical channels x escape levels
    graph_nodes: int         # escape VCs + auxiliary header states
    graph_edges: int
    dependencies: int        # escape VC -> escape VC pairs (direct or through adaptive hops)
    acyclic: bool


def _routing():
    """The simulator's routing module (:mod:`models.sim.wormhole.routing`)."""
    from ..sim.wormhole import routing  # heavy: the package loads the numba kernels

    return routing


def _tables(k: int, vcs: int | None, escape_levels: int | None):
    k = require("k", k, 4, unit="radix of the k x k torus", integer=True)
    topo = Torus((k, k), bidirectional=True)
    levels = min_escape_levels(k) if escape_levels is None else escape_levels
    vcs = levels + 1 if vcs is None else vcs
    return topo, _routing().build(topo, "duato_nbc", vcs, escape_levels)   # validates k (even), vcs, levels


def escape_cdg(k: int, vcs: int | None = None, escape_levels: int | None = None):
    """``(topology, routing tables, n_escape_vcs, graph)`` of Duato-Nbc on the ``k x k`` torus.

    ``vcs`` defaults to the minimum (escape levels + 1), ``escape_levels`` to ``k/2 + 1``.
    The graph (scipy CSR) has the escape VCs as nodes ``0..n_escape_vcs-1``
    followed by auxiliary header states.
    """
    topo, rt = _tables(k, vcs, escape_levels)
    n_esc, G = _routing().extended_escape_cdg(topo, rt)
    return topo, rt, n_esc, G


def escape_dependencies(n_esc: int, G) -> int:
    """Number of escape-VC pairs ``(x, y)`` such that a message holding ``x`` may later request ``y``.

    Paths ``x -> (auxiliary states)* -> y`` through the auxiliary header
    states, which form an acyclic graph (the distance to the destination
    falls at every step), so the closure is a finite sum of matrix powers.
    """
    G = G.tocsr().astype(bool).astype(np.int32)
    X = G[:n_esc, n_esc:]       # escape -> aux
    Y = G[n_esc:, n_esc:]       # aux -> aux
    Z = G[n_esc:, :n_esc]       # aux -> escape
    reach = (G[:n_esc, :n_esc] > 0).astype(np.int32)
    R = X
    for _ in range(G.shape[0]):
        if R.nnz == 0:
            break
        reach = ((reach + R @ Z) > 0).astype(np.int32)
        R = ((R @ Y) > 0).astype(np.int32)
    return int(reach.nnz)


def check(k: int, vcs: int | None = None, escape_levels: int | None = None, count: bool = True) -> EscapeCDG:
    """Build the extended escape CDG of Duato-Nbc on ``k x k`` and test it for cycles."""
    topo, rt, n_esc, G = escape_cdg(k, vcs, escape_levels)
    deps = escape_dependencies(n_esc, G) if count else -1
    return EscapeCDG(k=int(k), vcs=int(rt.vcs), escape_levels=int(rt.escape_levels), escape_vcs=int(n_esc),
                     graph_nodes=int(G.shape[0]), graph_edges=int(G.nnz), dependencies=deps,
                     acyclic=bool(_routing().is_acyclic(G)))


#: The two bookkeepings of the header's escape floor ``f`` that :func:`floor_cdg` can build: the simulator's
#: (``"floor"``: an adaptive hop keeps ``f`` and adds one for a negative hop) and the paper's class 1
#: (``"class 1"``: a message that arrives on an adaptive VC may use every escape level ``0..U`` its distance
#: allows, eq. (12)'s :math:`V_2 - \lceil\Delta/2\rceil + 1` levels, i.e. ``f`` resets to 0 after an adaptive hop).
BOOKKEEPINGS = ("floor", "class 1")


def floor_cdg(k: int, bookkeeping: str = "class 1", vcs: int | None = None, escape_levels: int | None = None):
    """``(n_escape_vcs, graph)``: Duato's extended escape CDG of Duato-Nbc on ``k x k`` under ``bookkeeping``.

    Built as :func:`models.sim.wormhole.routing.extended_escape_cdg` builds the simulator's (the same tables,
    the same auxiliary "header at node v for destination d with floor f" states, the same over-approximation of
    reachable states), except for the floor after an adaptive hop: ``"floor"`` keeps the simulator's
    ``f + [hop negative]``; ``"class 1"`` resets it to 0, the reading of the paper's class 1 (eqs. (12)-(13):
    a message that came on an adaptive VC may use :math:`V_2 - \\lceil\\Delta/2\\rceil + 1` escape levels,
    levels ``0..U``, whatever escape level it held before).  After an escape hop at level ``l`` the floor is
    ``l + [hop negative]`` in both.  The escape VC of level ``l`` on channel ``c`` is node ``c * E + l``.
    """
    from scipy.sparse import csr_matrix

    if bookkeeping not in BOOKKEEPINGS:
        raise ValueError(f"`bookkeeping` must be one of {BOOKKEEPINGS}; got {bookkeeping!r}")
    topo, rt = _tables(k, vcs, escape_levels)
    rows, cols = _routing().nbc_escape_edges(topo, rt, reset_after_adaptive=bookkeeping == "class 1")
    N, E = topo.nbr.shape[0], int(rt.escape_levels)
    n_esc = topo.channels[2].size * E
    n = n_esc + N * N * E
    G = csr_matrix((np.ones(rows.size, dtype=bool), (rows, cols)), shape=(n, n))
    return n_esc, G


def acyclic_under(k: int, bookkeeping: str, vcs: int | None = None, escape_levels: int | None = None) -> bool:
    """Whether Duato-Nbc's extended escape CDG on ``k x k`` is acyclic under ``bookkeeping`` (:func:`floor_cdg`)."""
    return bool(_routing().is_acyclic(floor_cdg(k, bookkeeping, vcs, escape_levels)[1]))
