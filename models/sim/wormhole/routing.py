"""Routing functions of the wormhole simulator: VC classes, tables, deadlock-freedom arguments.

Each routing function below builds a :class:`RoutingTables` -- precomputed
per ``(node, destination)`` tables that the numba kernel reads -- and states,
in its docstring, its virtual-channel (VC) classes and why it cannot deadlock.
The kernel implements three *kinds* of rule on these tables:

``KIND_FIXED_ESCAPE`` (``dor``, ``duato``)
    The header may take any free VC with index ``>= a0`` (the *adaptive*
    class) on any port listed in ``minp[u, d]``; otherwise the one escape VC
    ``escv[u, d]`` on port ``escp[u, d]`` (if ``has_escape``).
``KIND_UPDOWN`` (``updown``)
    Adaptive VCs ``1..V-1`` on any minimal port while the message has not used
    the escape VC ``0``; the escape VC follows up*/down* routing and, once
    taken, is the only class the message uses until delivery.
``KIND_NBC`` (``duato_nbc``, ``nbc``)
    Adaptive VCs ``V2..V-1`` on any minimal port, or escape *level* ``l`` (VC
    index ``l``) on any minimal port with ``f <= l <= U[u, d]`` where ``f`` is
    the message's floor (section 7 of the notes).
``KIND_MIN_ADAPT`` (``min_adapt``, ``router="booksim"`` only)
    BookSim 2's ``min_adapt_torus``: adaptive VC 3 on the one port ``minp[u, d]``,
    escape VC 0 or 1 (BookSim's ring partition ``escv``, kept per message) on the
    dimension-order port; decoded by :mod:`.booksim_kernel`, not by the ideal
    router (see :func:`min_adapt`).

Preference, everywhere: an adaptive VC if one is free (ports tried in a
rotating order, VCs lowest index first), else an allowed escape VC (lowest
index first).  A blocked header retries every cycle on all VCs its rule allows
(Duato's condition: it waits on the escape VC among others, never only on
adaptive ones).  At the destination the header requests an ejection VC.

Minimal ports are computed from breadth-first-search distances, so on a torus
they are the directions that reduce the remaining offset, both directions
when the offset is exactly ``k/2``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from models.core.errors import ParameterError
from models.core.validate import require

from ...networks.graph import Graph, Mesh, Topology, Torus

KIND_FIXED_ESCAPE = 0
KIND_UPDOWN = 1
KIND_NBC = 2
KIND_MIN_ADAPT = 3

ROUTINGS = ("dor", "duato", "duato_nbc", "nbc", "updown", "min_adapt")
#: the routings only ``router="booksim"`` implements (BookSim's own routing functions)
BOOKSIM_ONLY = ("min_adapt",)


@dataclasses.dataclass(frozen=True, eq=False)
class RoutingTables:
    """Tables read by the kernel (all arrays flattened, int32)."""

    name: str
    kind: int
    vcs: int
    a0: int  # first adaptive VC index (== vcs when there is no adaptive class)
    has_escape: int
    minp: np.ndarray  # (N*N*P) candidate (minimal / DOR) ports
    nminp: np.ndarray  # (N*N) number of candidate ports
    escp: np.ndarray  # (N*N) escape port (KIND_FIXED_ESCAPE)
    escv: np.ndarray  # (N*N) escape VC index (KIND_FIXED_ESCAPE)
    udp: np.ndarray  # (N*N*2) up*/down* port: [.,0] up allowed, [.,1] down only
    chan_up: np.ndarray  # (C) 1 if the channel goes "up" (KIND_UPDOWN)
    nbc_U: np.ndarray  # (N*N) highest allowed escape level (KIND_NBC)
    label: np.ndarray  # (N) node colour (KIND_NBC); a hop from label 1 is negative
    escape_levels: int  # V2 for KIND_NBC, else number of escape VCs
    # DOR tie at offset k/2 (bidirectional torus, even radix); dor and duato only
    tie_dim: np.ndarray = None  # (N*N) dimension whose DOR hop is a tie, else -1
    tie_port: np.ndarray = None  # (N*N) the '-' port of that tie (``minp``/``escp`` hold '+')
    tie_escv: np.ndarray = None  # (N*N) the dateline VC on the '-' port
    # KIND_UPDOWN: the most hops an escape path takes (the longest of the shortest legal up*/down* paths from a
    # state to a destination: every escape hop brings the next one nearer by one), for :func:`longest_path`
    escape_hops: int = 0

    def __post_init__(self):
        n2 = self.nminp.size
        for f in ("tie_dim", "tie_port"):
            if getattr(self, f) is None:
                object.__setattr__(self, f, np.full(n2, -1, np.int32))
        if self.tie_escv is None:
            object.__setattr__(self, "tie_escv", np.zeros(n2, np.int32))

    @property
    def has_ties(self) -> bool:
        return bool((self.tie_dim >= 0).any())


def min_vcs(topo: Topology, routing: str, escape_levels: int | None = None) -> int:
    """Smallest VC count for which ``routing`` is deadlock-free on ``topo``."""
    _check_pair(topo, routing)
    is_torus = isinstance(topo, Torus) and not isinstance(topo, Mesh)
    if routing == "dor":
        return 2 if is_torus else 1
    if routing == "duato":
        return 3 if is_torus else 2
    if routing == "min_adapt":
        return MIN_ADAPT_VCS
    if routing in ("duato_nbc", "nbc"):
        v2 = nbc_min_levels(topo) if escape_levels is None else escape_levels
        return v2 + (1 if routing == "duato_nbc" else 0)
    return 1  # updown


def nbc_min_levels(topo: Torus) -> int:
    """Escape levels Nbc needs with minimal routing: ``floor(D/2) + 1``, ``D`` the diameter
    (``k/2 + 1`` on a ``k x k`` torus)."""
    D = sum(k // 2 for k in topo.radices)
    return D // 2 + 1


def _check_pair(topo: Topology, routing: str) -> None:
    if routing not in ROUTINGS:
        raise ParameterError(f"`routing` must be one of {', '.join(map(repr, ROUTINGS))}; got {routing!r}")
    if routing in ("dor", "duato") and not isinstance(topo, Torus):
        raise ParameterError(
            f"`routing` {routing!r} needs a torus or mesh topology; got {topo.name} (use 'updown')"
        )
    if routing == "min_adapt" and (not isinstance(topo, Torus) or isinstance(topo, Mesh) or not topo.bidirectional):
        raise ParameterError(f"`routing` 'min_adapt' (BookSim's min_adapt_torus, a k-ary n-cube routing) needs a "
                             f"bidirectional torus; got {topo.name}")
    if routing in ("duato_nbc", "nbc"):
        if not isinstance(topo, Torus) or isinstance(topo, Mesh) or not topo.bidirectional:
            raise ParameterError(f"`routing` {routing!r} needs a bidirectional torus; got {topo.name}")
        if any(k % 2 for k in topo.radices):
            raise ParameterError(
                f"`routing` {routing!r} needs even radices (2-colourable torus); got {topo.radices}"
            )


# ----------------------------------------------------------------- helpers
def _minimal_ports(topo: Topology) -> tuple[np.ndarray, np.ndarray]:
    """All output ports on a shortest path, per (node, dest)."""
    nbr = topo.nbr
    D = topo.distances()
    N, P = nbr.shape
    minp = np.full((N, N, P), -1, dtype=np.int32)
    nminp = np.zeros((N, N), dtype=np.int32)
    for p in range(P):
        ok = nbr[:, p] >= 0
        good = np.zeros((N, N), dtype=bool)
        good[ok] = D[nbr[ok, p], :] == D[ok, :] - 1
        u, d = np.nonzero(good)
        minp[u, d, nminp[u, d]] = p
        nminp[u, d] += 1
    return minp, nminp


def _dor_tables(topo: Torus):
    """Dimension-order port and dateline VC (0 = v1, 1 = v2) per (node, dest), and the ties.

    Lowest dimension with a non-zero offset first; on a bidirectional torus the
    shorter direction.  Dateline rule (torus_dor paper): moving ``+`` use v1 if
    ``c_i < d_i`` (the wrap link is not ahead), else v2; moving ``-`` use v1 if
    ``c_i > d_i``, else v2.  On a mesh the VC is always 0.

    Returns ``(port, vc, tie_dim, tie_port, tie_vc)``: where the offset of the
    routed dimension is exactly ``k/2`` (bidirectional torus, even ``k``) both
    directions are shortest; ``port``/``vc`` then hold the ``+`` choice,
    ``tie_port``/``tie_vc`` the ``-`` choice and ``tie_dim`` the dimension
    (``-1`` elsewhere).  The kernel picks one per message and dimension
    (``tie="random"``) or always ``+`` (``tie="plus"``).
    """
    C = topo.coords()
    N = topo.n_nodes
    wrap = not isinstance(topo, Mesh)
    port = np.full((N, N), -1, dtype=np.int32)
    vc = np.zeros((N, N), dtype=np.int32)
    tie_dim = np.full((N, N), -1, dtype=np.int32)
    tie_port = np.full((N, N), -1, dtype=np.int32)
    tie_vc = np.zeros((N, N), dtype=np.int32)
    cu = C[:, None, :]
    cd = C[None, :, :]
    done = np.zeros((N, N), dtype=bool)
    for i, k in enumerate(topo.radices):
        a = np.broadcast_to(cu[..., i], (N, N))
        b = np.broadcast_to(cd[..., i], (N, N))
        here = (a != b) & ~done
        if topo.bidirectional:
            if wrap:
                fwd = (b - a) % k
                plus = fwd <= k - fwd  # tie -> '+' here; the '-' alternative is recorded below
                tie = here & (2 * fwd == k)
                tie_dim[tie] = i
                tie_port[tie] = 2 * i + 1
                tie_vc[tie] = (a <= b).astype(np.int32)[tie]
            else:
                plus = b > a
            p = np.where(plus, 2 * i, 2 * i + 1)
            v = np.where(plus, (a >= b), (a <= b)).astype(np.int32) if wrap else np.zeros((N, N), np.int32)
        else:
            p = np.full((N, N), i)
            v = (a >= b).astype(np.int32)
        port[here] = p[here]
        vc[here] = v[here]
        done |= here
    return port, vc, tie_dim, tie_port, tie_vc


def entry_partition(topo: Torus) -> np.ndarray:
    """BookSim's ring partition of a header that *enters* its dimension-order dimension at ``u``,
    per ``(u, d)`` (N x N, int32): 1 if ``u``'s coordinate in the lowest dimension ``i`` where
    ``u`` and ``d`` differ is larger than ``d``'s (``cur > dest``), else 0 (also for ``u == d``).

    This is ``dor_next_torus``'s non-balanced partition (BookSim 2 ``src/routefunc.cpp``, commit
    923f1a9, lines 619-627: ``(dir == 0 && cur > dest) || (dir == 1 && dest < cur)``, the same
    comparison for both directions), computed where the header turns into dimension ``i``
    (line 588: ``(in_port/2) != dim_left``, which holds at injection too); the header keeps it
    for the rest of the dimension (line 633 keeps the direction and leaves ``*partition``
    alone).  :mod:`.booksim_kernel` reads this table at the entry and the message's stored
    partition elsewhere.
    """
    C = topo.coords()
    N = topo.n_nodes
    part = np.zeros((N, N), dtype=np.int32)
    done = np.zeros((N, N), dtype=bool)
    for i in range(topo.ndim):
        a = C[:, None, i]
        b = C[None, :, i]
        here = (a != b) & ~done
        part[here] = np.broadcast_to(a > b, (N, N))[here]
        done |= here
    return part


def _tie_fields(tie_dim, tie_port, tie_vc) -> dict:
    return dict(tie_dim=tie_dim.ravel().astype(np.int32), tie_port=tie_port.ravel().astype(np.int32),
                tie_escv=tie_vc.ravel().astype(np.int32))


def _empty(N: int, P: int, C: int) -> dict:
    return dict(
        escp=np.full(N * N, -1, np.int32),
        escv=np.zeros(N * N, np.int32),
        udp=np.full(N * N * 2, -1, np.int32),
        chan_up=np.zeros(max(C, 1), np.int32),
        nbc_U=np.zeros(N * N, np.int32),
        label=np.zeros(N, np.int32),
    )


def _require_vcs(topo, routing, vcs, escape_levels=None) -> int:
    vcs = require("vcs", vcs, 1, unit="virtual channels per physical channel", integer=True)
    need = min_vcs(topo, routing, escape_levels)
    if vcs < need:
        raise ParameterError(
            f"`vcs` must be >= {need} for routing {routing!r} on the {topo.name} "
            f"(the minimum for deadlock freedom); got {vcs}"
        )
    return vcs


# ----------------------------------------------------------------- routing functions
def dor(topo: Torus, vcs: int) -> RoutingTables:
    """Dimension-order routing with the escape VCs of the torus_dor paper.

    VC classes (torus, ``L = vcs >= 2``): ``VC1 = {v3..vL}`` (indices ``2..L-1``)
    usable by any message on its dimension-order channel; ``VC2 = {v1, v2}``
    (indices 0, 1) the dateline escape channels: ``v1`` when the wrap-around
    link is not ahead of the message in the current dimension (``c_i < d_i``
    moving ``+``; ``c_i > d_i`` moving ``-``), otherwise ``v2``.  The path is the
    dimension-order path (lowest dimension first; on a bidirectional torus the
    shorter direction; at offset exactly ``k/2`` either direction, chosen per
    message and dimension by ``simulate(tie=...)``: at random, or always ``+``).
    Mesh: every VC usable (``L >= 1``).

    Deadlock freedom.  The escape sub-function is Dally & Seitz's dateline
    routing: along one ring (dimension ``i``, one direction) ``v2`` is used only
    before the message crosses the wrap link and never on the link that leaves
    node 0 (resp. ``k-1``), ``v1`` only after it and never on the wrap link, so
    the escape channels of a ring are totally ordered (this holds for each
    direction of a ring, whichever way a tie is broken) (``v2`` by position from
    the dateline, then ``v1``); dimensions are visited in increasing order, so
    ordering escape channels by (dimension, direction, class, position) makes
    every escape dependency increasing: the escape channel dependency graph is
    acyclic and the escape sub-function is connected.  The adaptive class uses
    the *same* path, so a message holding any channel waits for channels that
    are later in this order; by Duato's theorem (extended CDG of the escape
    channels acyclic: indirect dependencies through ``VC1`` also follow the
    dimension order) the routing is deadlock-free.  On a mesh the channel
    order (dimension, direction, position) is already acyclic.
    """
    if not isinstance(topo, Torus):
        _check_pair(topo, "dor")
    vcs = _require_vcs(topo, "dor", vcs)
    N, P, C = topo.n_nodes, topo.n_ports, topo.n_channels
    port, vc, *ties = _dor_tables(topo)
    t = _empty(N, P, C)
    t.update(_tie_fields(*ties))
    minp = np.full((N, N, P), -1, np.int32)
    minp[:, :, 0] = port
    nminp = (port >= 0).astype(np.int32)
    mesh = isinstance(topo, Mesh)
    if mesh:
        a0, has_esc = 0, 0
    else:
        a0, has_esc = 2, 1
        t["escp"] = port.ravel().astype(np.int32)
        t["escv"] = vc.ravel().astype(np.int32)
    return RoutingTables("dor", KIND_FIXED_ESCAPE, vcs, a0, has_esc, minp.ravel(), nminp.ravel(),
                         escape_levels=0 if mesh else 2, **t)


def duato(topo: Torus, vcs: int) -> RoutingTables:
    """Duato's fully adaptive minimal routing with dateline dimension-order escape VCs.

    VC classes (torus, ``V = vcs >= 3``): class a = indices ``2..V-1``
    (``V-2`` adaptive VCs), usable on *any* minimal direction (both directions
    of a dimension whose offset is exactly ``k/2``); class b = indices 0, 1,
    the dateline escape VCs of :func:`dor`, usable only on the dimension-order
    channel.  Mesh: class a = ``1..V-1``, class b = VC 0 on the DOR channel
    (``V >= 2``).  Unidirectional torus: minimal directions are the ``+``
    channels of every dimension with a non-zero offset.

    Deadlock freedom (Duato 1993/1995).  The escape sub-function R1 (class b
    with dateline DOR) is connected: from any node it reaches every
    destination.  Its extended channel dependency graph is acyclic: a direct
    dependency goes from an escape channel to an escape channel later in the
    (dimension, direction, class, position-from-dateline) order of
    :func:`dor`; an indirect dependency (escape -> adaptive hops -> escape) joins
    two escape channels of the DOR paths of the same destination, and since
    minimal hops never increase the remaining offset in any dimension, the
    escape channel requested later is again later in that order (a lower
    dimension cannot be requested again once its offset is zero; within a
    dimension the message only moves towards the destination, so the dateline
    class is non-increasing).  A blocked header always waits on its escape VC
    among the others, so by Duato's theorem the routing is deadlock-free.
    :func:`extended_escape_cdg` builds this graph from the tables; the tests
    check it is acyclic.
    """
    if not isinstance(topo, Torus):
        _check_pair(topo, "duato")
    vcs = _require_vcs(topo, "duato", vcs)
    N, P, C = topo.n_nodes, topo.n_ports, topo.n_channels
    port, vc, *ties = _dor_tables(topo)
    minp, nminp = _minimal_ports(topo)
    t = _empty(N, P, C)
    t.update(_tie_fields(*ties))
    t["escp"] = port.ravel().astype(np.int32)
    t["escv"] = vc.ravel().astype(np.int32)
    mesh = isinstance(topo, Mesh)
    a0 = 1 if mesh else 2
    return RoutingTables("duato", KIND_FIXED_ESCAPE, vcs, a0, 1, minp.ravel(), nminp.ravel(),
                         escape_levels=a0, **t)


#: BookSim's min_adapt_torus uses VC index 3 (``vcBegin+3``) as its adaptive VC: at least 4 VCs
MIN_ADAPT_VCS = 4


def min_adapt(topo: Torus, vcs: int) -> RoutingTables:
    """BookSim 2's ``min_adapt_torus`` (``src/routefunc.cpp`` lines 1718-1794, commit 923f1a9), for
    ``router="booksim"`` only; the rules and their lines are in :mod:`.booksim`.

    Tables (bidirectional torus, ``vcs >= 4``): ``minp[u, d]`` holds *one* port, the one the
    adaptive VC 3 is offered on: the lowest dimension ``i`` with a non-zero offset, ``+`` if
    ``k_i - 2 ((d_i - u_i) mod k_i) > 0`` else ``-`` (so ``-`` at an offset of exactly
    ``k_i/2``).  BookSim's loop adds that VC on every unresolved dimension, but its
    ``OutputSet`` is a ``std::set`` ordered by priority alone (``outputset.hpp`` lines 56-62),
    so of several ranges of the same priority only the first inserted is kept
    (``outputset.cpp`` line 60): the lowest dimension's.  ``escp`` / ``tie_port`` and the tie
    fields are the dimension-order escape port of :func:`dor` (``+`` / ``-`` at a tie), and
    ``escv = tie_escv`` = :func:`entry_partition`, the escape VC (0 or 1) of a header that
    computes it at ``u``.  VCs 2 and ``4..vcs-1`` are never offered on a network channel
    (they serve injection and ejection).

    Deadlock.  The escape VCs alone are acyclic (the argument of BookSim's ``dor`` in
    :mod:`.booksim`: every escape segment is a minimal path in one direction of one ring,
    entered with the partition of its first node, and in each half of each ring direction
    some channel-to-channel dependency never occurs), and a message on an escape VC is
    offered escape VCs only.  The adaptive VC 3 has cyclic dependencies: a header on it can
    always also request its escape VC *if it is at the front of its buffer*, which holds with
    ``wait_for_tail_credit=True``; with ``False`` a header may wait behind another message's
    tail in VC 3 (see :mod:`.booksim` for what the simulator finds).
    """
    _check_pair(topo, "min_adapt")
    vcs = require("vcs", vcs, 1, unit="virtual channels per physical channel", integer=True)
    if vcs < MIN_ADAPT_VCS:
        raise ParameterError(f"`vcs` must be >= {MIN_ADAPT_VCS} for routing 'min_adapt' (BookSim's "
                             f"min_adapt_torus: escape VCs 0 and 1, adaptive VC 3); got {vcs}")
    N, P, C = topo.n_nodes, topo.n_ports, topo.n_channels
    port, _, tie_dim, tie_port, _ = _dor_tables(topo)
    part = entry_partition(topo)
    coords = topo.coords()
    adp = np.full((N, N), -1, dtype=np.int32)
    done = np.zeros((N, N), dtype=bool)
    for i, k in enumerate(topo.radices):
        a = coords[:, None, i]
        b = coords[None, :, i]
        here = (a != b) & ~done
        dist2 = k - 2 * ((b - a) % k)  # BookSim's dist2 (line 1764)
        adp[here] = np.broadcast_to(np.where(dist2 > 0, 2 * i, 2 * i + 1), (N, N))[here]
        done |= here
    t = _empty(N, P, C)
    t.update(_tie_fields(tie_dim, tie_port, part))
    t["escp"] = port.ravel().astype(np.int32)
    t["escv"] = part.ravel().astype(np.int32)
    minp = np.full((N, N, P), -1, np.int32)
    minp[:, :, 0] = adp
    nminp = (adp >= 0).astype(np.int32)
    return RoutingTables("min_adapt", KIND_MIN_ADAPT, vcs, 3, 1, minp.ravel(), nminp.ravel(), escape_levels=2, **t)


def _nbc_common(topo: Torus, vcs: int, levels: int, name: str) -> RoutingTables:
    N, P, C = topo.n_nodes, topo.n_ports, topo.n_channels
    minp, nminp = _minimal_ports(topo)
    D = topo.distances()
    label = (topo.coords().sum(axis=1) % 2).astype(np.int32)
    r = np.maximum(D - 1, 0)
    # negative hops among the r hops that start at u (this hop included)
    lab = label[:, None]
    nb = np.where(lab == 1, (r + 1) // 2, r // 2)
    U = (levels - 1 - nb).astype(np.int32)
    t = _empty(N, P, C)
    t["nbc_U"] = U.ravel()
    t["label"] = label
    return RoutingTables(name, KIND_NBC, vcs, levels, 1, minp.ravel(), nminp.ravel(),
                         escape_levels=levels, **t)


def _nbc_levels(topo, vcs, escape_levels, routing):
    _check_pair(topo, routing)
    need = nbc_min_levels(topo)
    if escape_levels is None:
        levels = need
    else:
        levels = require("escape_levels", escape_levels, need, unit="negative-hop escape levels", integer=True)
    vcs = _require_vcs(topo, routing, vcs, levels)
    return vcs, levels


def duato_nbc(topo: Torus, vcs: int, escape_levels: int | None = None) -> RoutingTables:
    """Duato-Nbc: fully adaptive class plus negative-hop escape levels with bonus cards.

    Bidirectional torus with even radices; nodes coloured ``sum(c) mod 2``; a
    hop from a colour-1 node is *negative*.  VC classes: escape levels
    ``0..V2-1`` (VC index = level, ``V2 = escape_levels``, default and minimum
    ``floor(D/2)+1 = k/2+1`` on ``k x k``, ``D`` the diameter) and the adaptive
    class ``V2..V-1`` (``V1 = V - V2 >= 1``).  Both classes may be used on any
    minimal direction.  Header state: the *floor* ``f`` (0 at injection).  At
    node ``u`` with ``Delta`` hops left, level ``l`` is allowed iff
    ``f <= l <= U(u, d) = V2 - 1 - nb(Delta-1, colour(u))`` where ``nb`` counts
    the negative hops among the next ``Delta-1`` hops starting at ``u``
    (``ceil(r/2)`` from colour 1, ``floor(r/2)`` from colour 0).  After an
    escape hop at level ``l``: ``f = l + [hop negative]``; after an adaptive
    hop: ``f = f + [hop negative]`` (the deadlock-free bookkeeping of notes
    section 7; resetting ``f`` after adaptive hops creates cycles).

    Deadlock freedom.  (i) The escape sub-function never runs out of levels:
    ``f <= U`` holds at injection (``U >= V2-1-ceil((D-1)/2) >= 0``) and is
    preserved by every hop because ``U`` grows by exactly ``[hop negative]``
    along the path, as does ``f`` (at most).  So it is connected.  (ii) Give
    the escape VC of level ``l`` on a channel leaving node ``u`` the key
    ``2 l + colour(u)``.  Take a dependency, direct or indirect (through
    adaptive hops), from that VC to a level-``l'`` escape VC leaving ``u'``.
    If the hop from ``u`` is negative (colour 1), ``f`` becomes ``l+1`` so
    ``l' >= l+1`` and the key grows.  If it is non-negative (colour 0), the
    next node has colour 1: either the request is made there (``l' >= l``,
    colour 1, key ``>= 2l+1 > 2l``) or an adaptive hop leaves it, which is
    negative and raises ``f`` to ``l+1``.  So every dependency of Duato's
    extended CDG strictly increases the key: the graph is acyclic, and by
    Duato's theorem the routing is
    deadlock-free.  :func:`extended_escape_cdg` builds that graph from the
    tables and the tests check acyclicity on 4x4, 6x6 and 8x8.
    """
    vcs, levels = _nbc_levels(topo, vcs, escape_levels, "duato_nbc")
    return _nbc_common(topo, vcs, levels, "duato_nbc")


def nbc(topo: Torus, vcs: int, escape_levels: int | None = None) -> RoutingTables:
    """Nbc alone (Boppana & Chalasani's negative-hop routing with bonus cards).

    Same as :func:`duato_nbc` with no adaptive class (``V1 = 0``): the
    escape levels are all the VCs, ``escape_levels`` defaults to ``vcs``
    (it must be at least ``floor(D/2)+1``).  Deadlock freedom: the channel
    dependency graph is the escape graph of :func:`duato_nbc`, acyclic.
    """
    if escape_levels is None and isinstance(vcs, (int, np.integer)):
        escape_levels = vcs
    vcs, levels = _nbc_levels(topo, vcs, escape_levels, "nbc")
    return _nbc_common(topo, vcs, levels, "nbc")


def updown(topo: Topology, vcs: int) -> RoutingTables:
    """Minimal adaptive routing with an absorbing up*/down* escape VC (any connected graph).

    Up*/down* (Autonet): a breadth-first spanning tree from node 0 gives each
    node a level; a link ``u -> w`` is *up* if ``(level(w), w) < (level(u), u)``.
    A legal up*/down* path takes zero or more up links, then zero or more
    down links; the escape VC (index 0) follows a shortest legal path from
    the current node (phase kept in the header).  VC classes: adaptive
    ``1..V-1`` on any minimal port (shortest paths by BFS), allowed only
    while the message has never taken the escape VC; escape VC 0.  Once a
    message takes the escape VC it stays on escape VCs (up*/down*) to its
    destination.  With ``V = 1`` this is plain up*/down*.

    Deadlock freedom.  Escape channels are ordered (all up channels by
    decreasing (level, id) of their source, then all down channels by
    increasing order); a legal path follows this order, so the escape CDG is
    acyclic.  A message holding an escape VC requests only escape VCs, so the
    messages on escape VCs drain by induction on that order; in a deadlocked
    state no escape VC could then be occupied, so every blocked header (which
    always may request its escape VC) could advance -- a contradiction.
    Messages that fall back to the escape VC may take non-minimal paths
    (mean hop count above the BFS average distance under load).
    """
    vcs = _require_vcs(topo, "updown", vcs)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    N, P, C = topo.n_nodes, topo.n_ports, topo.n_channels
    chan_of, src, dst, port = topo.channels
    lev = topo.distances()[0]  # BFS level from the root, node 0 (distance from 0)
    key_src = lev[src] * N + src
    key_dst = lev[dst] * N + dst
    up = (key_dst < key_src).astype(np.int32)
    # state graph: (u, 0) may still go up; (u, 1) down only
    rows, cols = [], []
    for s, d, u_ in zip(src, dst, up):
        if u_:
            rows.append(s); cols.append(d)  # (s,0)->(d,0)
        else:
            rows.append(s); cols.append(N + d)  # (s,0)->(d,1)
            rows.append(N + s); cols.append(N + d)  # (s,1)->(d,1)
    G = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(2 * N, 2 * N))
    Dst = shortest_path(G, directed=True, unweighted=True)
    dist_to = np.minimum(Dst[:, :N], Dst[:, N:])  # (2N, N): from state to dest node
    udp = np.full((N, N, 2), -1, np.int32)
    for ph in (0, 1):
        for p in range(P):
            c = chan_of[:, p]
            ok = c >= 0
            if not ok.any():
                continue
            uu = np.nonzero(ok)[0]
            cc = c[ok]
            w = dst[cc]
            isup = up[cc] == 1
            if ph == 1:
                uu, w, isup = uu[~isup], w[~isup], isup[~isup]
            nstate = np.where(isup, w, N + w)
            good = dist_to[nstate, :] == dist_to[ph * N + uu, :] - 1
            cur = udp[uu, :, ph]
            sel = good & (cur < 0)
            cur[sel] = p
            udp[uu, :, ph] = cur
    minp, nminp = _minimal_ports(topo)
    t = _empty(N, P, C)
    t["udp"] = udp.ravel()
    t["chan_up"] = up.astype(np.int32) if C else t["chan_up"]
    reach = np.isfinite(dist_to)
    return RoutingTables("updown", KIND_UPDOWN, vcs, 1, 1, minp.ravel(), nminp.ravel(),
                         escape_levels=1, escape_hops=int(dist_to[reach].max()) if reach.any() else 0, **t)


def longest_path(topo: Topology, rt: RoutingTables) -> int:
    """The most network hops a message can take under the tables ``rt`` on ``topo``: a minimal route's, the
    diameter; up*/down* (whose escape paths need not be minimal): the diameter (the adaptive hops, minimal, that a
    message may take first: each brings the destination nearer by one) plus ``rt.escape_hops``, the longest escape
    path (once on the escape VC a message stays there, and each escape hop brings the destination nearer by one in
    the up*/down* state graph; at most ``2N - 1``, the bound used before, as a shortest path visits each of the
    ``2N`` states at most once).  The kernel sizes a worm's path by it (and advances worms a word at a time when
    it fits one, :data:`.simulate.MASK_HOPS`)."""
    D = topo.distances()
    diameter = int(D[np.isfinite(D)].max()) if D.size else 0
    return diameter + (rt.escape_hops if rt.kind == KIND_UPDOWN else 0)


def build(topo: Topology, routing: str, vcs: int, escape_levels: int | None = None) -> RoutingTables:
    """The tables of ``routing`` on ``topo`` with ``vcs`` VCs (validates both)."""
    _check_pair(topo, routing)
    if escape_levels is not None and routing not in ("duato_nbc", "nbc"):
        raise ParameterError(f"`escape_levels` applies only to routing 'duato_nbc' or 'nbc'; got routing {routing!r}")
    if routing == "dor":
        return dor(topo, vcs)
    if routing == "duato":
        return duato(topo, vcs)
    if routing == "duato_nbc":
        return duato_nbc(topo, vcs, escape_levels)
    if routing == "nbc":
        return nbc(topo, vcs, escape_levels)
    if routing == "min_adapt":
        return min_adapt(topo, vcs)
    return updown(topo, vcs)


# ----------------------------------------------------------------- checks
def extended_escape_cdg(topo: Topology, rt: RoutingTables):
    """Duato's extended channel dependency graph of the escape VCs, from the tables.

    Nodes ``0..C*E-1`` are escape VCs ``(channel c, escape index e)``; an edge
    ``x -> y`` means a message holding ``x`` may later request ``y``, either
    directly or after adaptive hops (indirect dependency).  Built through
    auxiliary "header at node v with destination d (and floor f)" states, over-
    approximating reachable states (a superset of the true dependencies, so
    acyclicity of this graph implies acyclicity of the true one).  Returns
    ``(n_escape_vcs, G)``, ``G`` the graph of escape VCs and states (scipy CSR).

    Supported for ``KIND_FIXED_ESCAPE`` with an escape class and ``KIND_NBC`` (:func:`nbc_escape_edges`).
    """
    from scipy.sparse import csr_matrix

    N, P = topo.nbr.shape
    chan_of, csrc, cdst, cport = topo.channels
    C = csrc.size
    minp = rt.minp.reshape(N, N, P)
    nminp = rt.nminp.reshape(N, N)
    if rt.kind == KIND_NBC:
        E = F = rt.escape_levels  # floor values 0..E-1
        rows, cols = nbc_escape_edges(topo, rt)
    elif rt.kind == KIND_FIXED_ESCAPE and rt.has_escape:
        E, F = 2, 1
        rows, cols = _fixed_escape_edges(topo, rt, N, P, chan_of, cdst, minp, nminp, C * E)
    else:
        raise ValueError("extended_escape_cdg supports dateline (dor/duato) and Nbc tables")
    n_esc = C * E
    n_tot = n_esc + N * N * F
    # collapse auxiliary states: reachability from each escape VC to escape VCs
    G = csr_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n_tot, n_tot))
    return n_esc, G


def _fixed_escape_edges(topo, rt, N, P, chan_of, cdst, minp, nminp, n_esc):
    """The edges of :func:`extended_escape_cdg` for dateline tables (one floor): ``(rows, cols)``."""
    def S(d, v):  # aux state id
        return n_esc + d * N + v

    rows: list = []
    cols: list = []
    for d in range(N):
        for v in range(N):
            if v == d:
                continue
            idx = v * N + d
            s = S(d, v)
            for ep, ev in _escape_choices(rt, idx):
                c = chan_of[v, ep]
                rows.append(s); cols.append(c * 2 + ev)
            if rt.vcs > rt.a0:
                for j in range(nminp[v, d]):
                    w = topo.nbr[v, minp[v, d, j]]
                    if w != d:
                        rows.append(s); cols.append(S(d, w))
    # escape VC held -> header state at its downstream node
    for d in range(N):
        for v in range(N):
            if v == d:
                continue
            for ep, ev in _escape_choices(rt, v * N + d):
                c = chan_of[v, ep]
                w = cdst[c]
                if w != d:
                    rows.append(c * 2 + ev); cols.append(S(d, w))
    return np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)


def nbc_escape_edges(topo: Topology, rt: RoutingTables, reset_after_adaptive: bool = False):
    """The edges ``(rows, cols)`` of :func:`extended_escape_cdg` for Nbc tables, from arrays.

    The escape VC of level ``l`` on channel ``c`` is node ``c * E + l``; the state "header at node ``v`` bound for
    ``d`` with floor ``f``" is node ``C * E + (d * N + v) * E + f``.  For each ``d``, node ``v != d`` and minimal
    port of ``v`` towards ``d`` (channel ``c`` to node ``w``, ``U`` the highest level at ``v`` for ``d``): the state
    with floor ``f`` requests the levels ``f .. U`` of ``c``; an adaptive hop (when there are adaptive VCs, and ``w``
    is not ``d``) leads to ``w`` with floor ``f + [v negative]`` (the simulator's bookkeeping), or 0 with
    ``reset_after_adaptive`` (:func:`models.torus_nbc.routing_check.floor_cdg`, the paper's class 1); an escape hop
    at level ``l`` leads to ``w`` with floor ``l + [v negative]``, which the tables keep below ``E`` (an
    ``AssertionError`` says where they do not)."""
    N, P = topo.nbr.shape
    chan_of, _, cdst, _ = topo.channels
    E = F = int(rt.escape_levels)
    n_esc = cdst.size * E
    # every (node v, destination d != v, minimal port j), as arrays
    minp, nminp = rt.minp.reshape(N, N, P), rt.nminp.reshape(N, N)
    v, d, j = np.nonzero(np.arange(P)[None, None, :] < nminp[:, :, None])
    keep = v != d
    v, d, j = v[keep], d[keep], j[keep]
    c = chan_of[v, minp[v, d, j]].astype(np.int64)
    w = cdst[c].astype(np.int64)
    U = rt.nbc_U[v * N + d].astype(np.int64)
    neg = rt.label[v].astype(np.int64)
    onward = w != d
    base = n_esc + d.astype(np.int64) * N * F  # state (d, x, f): base + x * F + f
    here, there = base + v * F, base + w * F
    rows, cols = [], []

    def edges(mask, frm, to):
        rows.append(frm[mask])
        cols.append(to[mask])

    for f in range(F):
        for lv in range(f, int(U.max(initial=-1)) + 1):    # requests of escape levels f..U
            edges(lv <= U, here + f, c * E + lv)
        f2 = np.zeros_like(neg) if reset_after_adaptive else f + neg
        if rt.vcs > rt.a0:                                   # an adaptive hop
            edges(onward & (f2 < F), here + f, there + np.minimum(f2, F - 1))
    for lv in range(F):                                      # an escape hop at level lv
        hop = onward & (lv <= U)
        bad = hop & (lv + neg >= F)
        if bad.any():  # would break the invariant f <= U proved in duato_nbc
            i = int(np.argmax(bad))
            raise AssertionError(f"Nbc floor {lv + neg[i]} out of range at {v[i]}->{w[i]}, dest {d[i]}")
        edges(hop, c * E + lv, there + lv + neg)
    return np.concatenate(rows), np.concatenate(cols)


def _escape_choices(rt: RoutingTables, idx: int):
    """The (port, escape VC) pairs the escape sub-function may use at table entry ``idx``
    (two at a DOR tie, whichever way the tie is broken)."""
    out = [(int(rt.escp[idx]), int(rt.escv[idx]))]
    if rt.tie_dim[idx] >= 0:
        out.append((int(rt.tie_port[idx]), int(rt.tie_escv[idx])))
    return out


def is_acyclic(G) -> bool:
    """True if the directed graph (scipy sparse) has no cycle (all SCCs singletons, no loops)."""
    from scipy.sparse.csgraph import connected_components

    n, lab = connected_components(G, directed=True, connection="strong")
    if n != G.shape[0]:
        return False
    return not np.any(G.diagonal())
