"""Deadlock freedom of the escape sub-functions: Duato's extended channel dependency graph."""

import dataclasses

import numpy as np
import pytest

from models.sim.wormhole import Graph, Torus, simulate
from models.sim.wormhole.routing import build, extended_escape_cdg, is_acyclic, longest_path


@pytest.mark.parametrize("k", [4, 6, 8])
def test_duato_nbc_extended_cdg_acyclic(k):
    topo = Torus((k, k))
    rt = build(topo, "duato_nbc", k // 2 + 2)
    n_esc, G = extended_escape_cdg(topo, rt)
    assert n_esc == topo.n_channels * (k // 2 + 1)
    # dependencies exist between escape VCs (the graph is not trivially empty)
    assert G.nnz > n_esc
    assert is_acyclic(G)


def test_nbc_floor_reset_variant_has_cycles():
    """The alternative bookkeeping (floor reset after adaptive hops) is not deadlock-free:
    the same construction finds a cycle, so the check has teeth."""
    topo = Torus((4, 4))
    rt = build(topo, "duato_nbc", 4)
    N = topo.n_nodes
    n_esc, G = extended_escape_cdg(topo, rt)
    # add "adaptive hop resets the floor" edges: state (d, v, f) -> (d, w, 0)
    G = G.tolil()
    F = rt.escape_levels
    P = topo.n_ports
    minp = rt.minp.reshape(N, N, P)
    for d in range(N):
        for v in range(N):
            if v == d:
                continue
            for f in range(F):
                s = n_esc + (d * N + v) * F + f
                for j in range(rt.nminp[v * N + d]):
                    w = topo.nbr[v, minp[v, d, j]]
                    if w != d:
                        G[s, n_esc + (d * N + w) * F + 0] = 1
    assert not is_acyclic(G.tocsr())


@pytest.mark.parametrize("radices,bi", [((4, 4), True), ((3, 5), True), ((4, 3), False), ((3, 3, 3), False)])
@pytest.mark.parametrize("routing,v", [("dor", 3), ("duato", 3)])
def test_dateline_escape_extended_cdg_acyclic(radices, bi, routing, v):
    topo = Torus(radices, bidirectional=bi)
    rt = build(topo, routing, v)
    _, G = extended_escape_cdg(topo, rt)
    assert is_acyclic(G)


def test_dateline_without_escape_split_is_cyclic():
    """Sanity: a single escape VC class on a ring (no dateline) gives a cyclic CDG."""
    topo = Torus((5,), bidirectional=False)
    rt = build(topo, "dor", 3)
    rt = dataclasses.replace(rt, escv=np.zeros_like(rt.escv))
    _, G = extended_escape_cdg(topo, rt)
    assert not is_acyclic(G)


@pytest.mark.parametrize("topo, routing, expected", [
    (Torus((8, 8)), "dor", 8),  # bidirectional: k/2 per dimension
    (Torus((6, 4)), "duato", 5),
    (Torus((8, 8), bidirectional=False), "dor", 14),  # unidirectional: k - 1 per dimension
    (Torus((4, 4, 4), bidirectional=False), "dor", 9),
])
def test_the_longest_path_of_a_minimal_routing_is_the_diameter(topo, routing, expected):
    """The worm slots the ideal router allocates per message (:func:`longest_path` + 4) rest on this bound."""
    assert longest_path(topo, build(topo, routing, 4, None)) == expected


def _escape_hops(topo):
    """The longest shortest legal up*/down* path from a (node, phase) state to a destination, by breadth-first search
    (written apart from :func:`~models.sim.wormhole.routing.updown`: levels from node 0, a link up if it leads to a
    smaller (level, node); phase 0 may still go up, a down link leads to phase 1, which goes down only)."""
    from collections import deque

    _, src, dst, _ = topo.channels
    N = topo.n_nodes
    level = [-1] * N
    level[0] = 0
    todo = deque([0])
    while todo:
        u = todo.popleft()
        for a, b in zip(src, dst):
            if a == u and level[b] < 0:
                level[b] = level[u] + 1
                todo.append(b)
    nxt = {(u, ph): [] for u in range(N) for ph in (0, 1)}
    for a, b in zip(src, dst):
        up = (level[b], b) < (level[a], a)
        if up:
            nxt[(a, 0)].append((b, 0))
        else:
            nxt[(a, 0)].append((b, 1))
            nxt[(a, 1)].append((b, 1))
    longest = 0
    for start in nxt:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            x = todo.popleft()
            for y in nxt[x]:
                if y not in seen:
                    seen[y] = seen[x] + 1
                    todo.append(y)
        nearest = {}
        for (u, _), d in seen.items():
            nearest[u] = min(d, nearest.get(u, d))
        longest = max(longest, max(nearest.values()))
    return longest


RING9 = Graph([(i, (i + 1) % 9) for i in range(9)])
MESHY = Graph([(i, (i + 1) % 12) for i in range(12)] + [(0, 6), (3, 9), (1, 4), (7, 10)])


@pytest.mark.parametrize("topo", [RING9, MESHY], ids=["ring9", "chorded12"])
def test_the_longest_up_down_path_adds_the_longest_escape_path(topo):
    """Up*/down* escape paths need not be minimal: the bound adds the longest escape path (each escape hop brings
    the destination nearer by one in the state graph) to the diameter, and no simulated message goes further (a
    load near saturation, most messages on the escape VC; one VC: every message on it)."""
    for vcs in (1, 2):
        rt = build(topo, "updown", vcs, None)
        D = topo.distances()
        assert rt.escape_hops == _escape_hops(topo) <= 2 * topo.n_nodes - 1
        bound = longest_path(topo, rt)
        assert bound == int(D.max()) + rt.escape_hops
        r = simulate(topo, routing="updown", vcs=vcs, message_length=4, rate=0.04, messages=3000,
                     warmup_messages=300, seed=3, saturation_backlog=10**6, max_cycles=200_000)
        assert r.messages > 0 and int(r.blocking_by_hops["hops"].max()) <= bound
