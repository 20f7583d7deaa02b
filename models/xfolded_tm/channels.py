"""Channel counts and channel rates: Theorem 2 (eq. 8) and eq. (6) of the paper, checked by counting.

Two statements of the paper's Sec. 3 are about channels, and both can be
checked exactly, with no simulation:

* **Theorem 2** (eq. 8, cited from [8]): the number ``C_j`` of channels that
  are ``j`` nodes away from a given node in a ``k``-ary ``n``-cube.  Read as
  [8] uses it: the channels a shortest path from the node crosses as its
  ``j``-th hop, i.e. the directed channels ``u -> v`` with
  ``dist(s, u) = j - 1`` and ``dist(s, v) = j`` (:func:`channels_at_hop`,
  by breadth-first search).  :func:`theorem2` is eq. (8) as printed;
  :func:`theorem2_rows` compares the two on the unidirectional cube of [8]
  (:func:`unidirectional_cube`) and on the bidirectional torus of the paper's
  delay figure.
* **Eq. (6)**: the channel rate ``lambda_u = lambda AD_k / 2`` (messages per
  cycle per channel, ``lambda`` messages per node per cycle), where the text
  before it defines the rate of a channel as "the total channel rates
  divided by the total number of channels".  Under uniform traffic with
  minimal routing a message crosses ``dist(s, t)`` channels, so the mean
  channel rate is ``lambda N dbar / C`` (``N`` nodes, ``C`` unidirectional
  channels, ``dbar`` the BFS mean distance, eq. 3: ``dbar = n AD``).
  :func:`channel_uses` counts it channel by channel (each message split
  evenly over its shortest paths), :func:`eq6_rows` compares its mean with
  eq. (6), with the BFS ``AD_k`` and with Theorem 1 as printed.

Units: rates per unit ``lambda`` (messages/node/cycle), distances in hops.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.validate import require
from .setups import PAPER_K, TOPOLOGIES, network
from .solve import theorem1

__all__ = ["binom", "theorem2", "DirectedNet", "unidirectional_cube", "bidirectional", "channels_at_hop",
           "theorem2_rows", "channel_uses", "eq6_rows", "THEOREM2_COLUMNS", "EQ6_COLUMNS"]


def binom(m: int, r: int) -> int:
    """The binomial coefficient ``C(m, r)`` of eq. (8): 0 when ``r < 0`` or ``m < r`` (negative ``m``
    included: the combinatorial count, not the generalized binomial)."""
    m, r = int(m), int(r)
    return 0 if r < 0 or m < r else math.comb(m, r)


def theorem2(j: int, k: int, n: int) -> int:
    """Eq. (8) as printed: ``C_j = sum_{l=0}^{n-1} sum_{t=0}^{n-1} (-1)^t (n-l) C(n,l) C(n-l,t)
    C(j - t(k-1) - 1, n-l-1)`` channels ``j`` nodes away from a node of a ``k``-ary ``n``-cube."""
    j = require("j", j, 1, integer=True, unit="hops")
    k = require("k", k, 2, integer=True, unit="radix")
    n = require("n", n, 1, integer=True, unit="dimensions")
    return int(sum((-1) ** t * (n - l) * binom(n, l) * binom(n - l, t) * binom(j - t * (k - 1) - 1, n - l - 1)
                   for l in range(n) for t in range(n)))


class DirectedNet:
    """A network as directed channels: ``N`` nodes and ``channels``, a list of ``(u, v)``; distances by BFS."""

    def __init__(self, n_nodes: int, channels: Sequence[tuple], label: str = ""):
        self.n_nodes = int(n_nodes)
        self.channels = [(int(u), int(v)) for u, v in channels]
        self.label = label
        self._out = [[] for _ in range(self.n_nodes)]
        for u, v in self.channels:
            self._out[u].append(v)

    def distances_from(self, s: int) -> np.ndarray:
        """Hop distances from ``s`` (BFS along the channels' direction; -1 where unreachable)."""
        d = np.full(self.n_nodes, -1, dtype=np.int64)
        d[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in self._out[u]:
                    if d[v] < 0:
                        d[v] = d[u] + 1
                        nxt.append(v)
            frontier = nxt
        return d


def unidirectional_cube(k: int, n: int) -> DirectedNet:
    """The unidirectional ``k``-ary ``n``-cube of [8]: one channel per dimension out of each node, to
    ``x + e_i (mod k)`` (``k^n`` nodes, ``n k^n`` channels)."""
    k = require("k", k, 2, integer=True, unit="radix")
    n = require("n", n, 1, integer=True, unit="dimensions")
    coords = list(itertools.product(range(k), repeat=n))
    index = {c: i for i, c in enumerate(coords)}
    chans = [(index[c], index[tuple((x + (d == i)) % k for d, x in enumerate(c))]) for c in coords for i in range(n)]
    return DirectedNet(len(coords), chans, f"unidirectional {k}-ary {n}-cube")


def bidirectional(key: str, k: int = PAPER_K) -> DirectedNet:
    """A network of the delay figure (:data:`~models.xfolded_tm.setups.TOPOLOGIES`) as directed channels:
    two per link."""
    net = network(key, k)
    chans = [c for a, b in net.edges for c in ((a, b), (b, a))]
    return DirectedNet(net.n_nodes, chans, net.name)


def channels_at_hop(net: DirectedNet, source: int = 0) -> np.ndarray:
    """``counts[j]``: the channels a shortest path from ``source`` crosses as its ``j``-th hop (``u -> v`` with
    ``dist(source, u) = j - 1``, ``dist(source, v) = j``), for ``j = 0 .. diameter`` (``counts[0] = 0``)."""
    d = net.distances_from(source)
    counts = np.zeros(int(d.max()) + 1, dtype=np.int64)
    for u, v in net.channels:
        if d[u] >= 0 and d[v] == d[u] + 1:
            counts[d[v]] += 1
    return counts


#: Columns of :func:`theorem2_rows`.
THEOREM2_COLUMNS = ("network", "k", "n", "paper size", "holds", "first j off", "counted", "eq. 8", "evidence")


def _theorem2_row(net: DirectedNet, k: int, n: int, paper: bool) -> dict:
    counted = channels_at_hop(net)
    eq8 = np.array([0] + [theorem2(j, k, n) for j in range(1, counted.size)])
    bad = [j for j in range(1, counted.size) if counted[j] != eq8[j]]
    ev = (f"C_j equals the count for every j = 1..{counted.size - 1}" if not bad else
          f"j = {bad[0]}: {int(counted[bad[0]])} channels, eq. (8) gives {int(eq8[bad[0]])}")
    return dict(zip(THEOREM2_COLUMNS, (net.label, k, n, paper, not bad, bad[0] if bad else 0,
                                       " ".join(map(str, counted[1:])), " ".join(map(str, eq8[1:])), ev)))


def theorem2_rows(ks: Sequence[int] = (3, 4, 5, 8), ns: Sequence[int] = (1, 2, 3)) -> pd.DataFrame:
    """Theorem 2 against the BFS count (:func:`channels_at_hop`), one row per network, ``k`` and ``n``.

    The unidirectional ``k``-ary ``n``-cube of [8] for every ``k`` of ``ks`` and ``n`` of ``ns`` (``k^n <=
    4096``), and the bidirectional ``k x k`` torus (the paper's "Torus", ``n = 2``) for every ``k``;
    ``paper size`` marks ``k = 8, n = 2`` (Table 1).  Columns :data:`THEOREM2_COLUMNS`.
    """
    rows = []
    for k in ks:
        for n in ns:
            if k ** n <= 4096:
                rows.append(_theorem2_row(unidirectional_cube(k, n), k, n, k == PAPER_K and n == 2))
        rows.append(_theorem2_row(bidirectional("torus", k), k, 2, k == PAPER_K))
    return pd.DataFrame(rows, columns=list(THEOREM2_COLUMNS))


def channel_uses(net: DirectedNet) -> np.ndarray:
    """Per channel (``net.channels`` order): the messages per cycle it carries per unit ``lambda`` under
    uniform traffic (every node sends ``lambda`` messages/cycle to each other node with probability
    ``1/(N-1)``), each message split evenly over its shortest paths.  Their sum is ``N dbar``."""
    N = net.n_nodes
    D = np.array([net.distances_from(s) for s in range(N)], dtype=np.int64)
    if (D < 0).any():
        raise ValueError(f"{net.label}: not strongly connected")
    S = np.zeros((N, N), dtype=float)          # S[s, v]: shortest paths s -> v
    for s in range(N):
        S[s, s] = 1.0
        for v in np.argsort(D[s], kind="stable"):
            if v != s:
                S[s, v] = sum(S[s, u] for u, w in net.channels if w == v and D[s, u] == D[s, v] - 1)
    uses = np.zeros(len(net.channels))
    off = ~np.eye(N, dtype=bool)
    for c, (u, v) in enumerate(net.channels):
        on = (D[:, u][:, None] + 1 + D[v, :][None, :] == D) & off
        uses[c] = float(np.sum(np.where(on, S[:, u][:, None] * S[v, :][None, :] / S, 0.0)))
    return uses / (N - 1)


#: Columns of :func:`eq6_rows`.
EQ6_COLUMNS = ("network", "key", "AD", "nodes", "channels", "mean channel rate", "eq. 6", "eq. 6 / counted",
               "max/mean", "holds", "evidence")


def eq6_rows(keys: Sequence[str] = tuple(TOPOLOGIES), k: int = PAPER_K, *, theorem: bool = True) -> pd.DataFrame:
    """Eq. (6) against the counted mean channel rate, one row per network of the delay figure (and, with
    ``theorem``, x-Folded TM as printed with ``AD_k`` of Theorem 1 as printed, key ``xfolded_thm1``).

    ``mean channel rate``: the mean of :func:`channel_uses` (per unit ``lambda``, messages/cycle per
    channel); ``eq. 6``: ``AD_k / 2`` with ``AD_k`` the BFS mean distance over ``n = 2`` (eq. 3), or
    Theorem 1's; ``holds``: equal to 1e-9 relative; ``max/mean``: how unequal the channels are.
    """
    rows = []
    cases = [(key, "bfs") for key in keys] + ([("xfolded_printed", "theorem")] if theorem else [])
    for key, ad_source in cases:
        net, d = bidirectional(key, k), network(key, k)
        uses = channel_uses(net)
        ad = d.average_distance_per_dimension() if ad_source == "bfs" else theorem1(k, "theorem")
        mean, eq6 = float(uses.mean()), ad / 2
        label = TOPOLOGIES[key]["label"] + ("" if ad_source == "bfs" else ", AD of Thm 1 as printed")
        ok = math.isclose(mean, eq6, rel_tol=1e-9)
        rows.append(dict(zip(EQ6_COLUMNS, (
            label, key if ad_source == "bfs" else "xfolded_thm1", ad, d.n_nodes, len(net.channels), mean, eq6,
            eq6 / mean, float(uses.max() / mean), ok,
            f"mean channel rate {mean:.4f} lambda, eq. (6) {eq6:.4f} lambda ({eq6 / mean:.3f}x; "
            f"{len(net.channels)} channels for {d.n_nodes} nodes, 4N = {4 * d.n_nodes})"))))
    return pd.DataFrame(rows, columns=list(EQ6_COLUMNS))
