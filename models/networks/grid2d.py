"""Two-dimensional direct topologies of the x-Folded TM chapter: torus, mesh, TM, x-Folded TM.

Every builder returns a :class:`GridNetwork`: the surviving nodes with their
grid coordinates ``(x, y)`` (``0 <= x, y <= k-1``), the undirected links, and
the quantities the papers compare -- node and link counts, diameter, exact
average distance by breadth-first search and the distance distribution from
a node.  :meth:`GridNetwork.sim_topology` gives the graph to the wormhole
simulator (:class:`models.networks.graph.Graph`, or
:class:`~models.networks.graph.Torus` for dimension-order routing); the
distances are the breadth-first search the simulator uses too
(:meth:`models.networks.graph.Topology.distances`), so the model's and the
simulator's hop counts are the same numbers.

Node ids are ``0..N-1`` in row-major order of the surviving nodes (``y``
outer, ``x`` inner), so node 0 is ``(0, 0)`` -- the paper's "node (0)".

Topologies
----------
``torus``
    ``k x k`` torus (bidirectional links, wrap-around in both dimensions).
``mesh``
    ``k x k`` mesh.
``tm``
    TM (Wang, Xiang & Yu 2013).  Its definition is not in the chapter's
    sources; the **reconstruction** used here is the torus without the two
    links that enter each diagonal node ``(j, j)`` from ``-x`` and ``-y``:
    ``(j-1, j)-(j, j)`` and ``(j, j-1)-(j, j)`` (indices mod ``k``).  It has
    ``2k(k-1)`` links (as many as the mesh), diameter ``k`` (the torus: ``k``
    for even ``k``, ``k-1`` for odd) and an average distance between mesh
    and torus -- the three properties the TM abstract states.  The removed
    link of the x-Folded TM's Definition 1, ``(k/2-1, k/2)-(k/2, k/2)``, is one
    of these links, which is why this orientation of the diagonal is used.
``xfolded`` (``reading="printed"``)
    Definition 1 of Moudi et al. exactly as printed: the ``k x k`` *mesh*
    without the nodes ``(x, y)`` with ``(x+y) mod k <= k-3``, ``x > y``,
    ``k-3 <= x <= k-1``, ``1 <= y <= k-2``, and, for even ``k``, without the
    link ``(i, i+1)-(i+1, i+1)``, ``i = k/2-1``.  No wrap-around or folding
    link is given, so this is a mesh with a wedge cut out of its right side.
``xfolded`` (``reading="completed"``)
    A **reading**, not the paper's text: Definition 1's nodes and links plus
    the links that close every row and every column of surviving nodes into
    a ring, i.e. TM's wrap-around links re-attached to the nearest
    surviving node, and the links across the removed wedge that the fold
    brings together (in column ``k-1`` only ``(k-1, 0)`` and ``(k-1, k-1)``
    survive and are joined: the "shared" top/bottom nodes).  The one
    removed link of Definition 1 stays removed.
``xfolded`` (``reading="completed_tm"``)
    ``completed`` without TM's diagonal links (those of the ``tm``
    reconstruction whose two end nodes survive): the folded network keeping
    every link TM lacks.

:func:`removed_nodes` and :func:`definition1_node_count` give Definition 1's
node rule; :func:`proposition1_nodes` the paper's linear fit.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property

import numpy as np

from ..core.errors import ParameterError
from ..core.validate import require, require_choice
from .graph import Graph, Mesh, Torus

__all__ = [
    "KINDS",
    "READINGS",
    "GridNetwork",
    "torus",
    "mesh",
    "tm",
    "xfolded_tm",
    "build",
    "removed_nodes",
    "definition1_node_count",
    "proposition1_nodes",
    "properties_table",
    "draw",
]

KINDS = ("torus", "mesh", "tm", "xfolded")
READINGS = ("printed", "completed", "completed_tm")

#: Proposition 1's least-squares coefficients, ``N' = a1 * k^2 + a2``.
PROP1_A1 = 0.8005
PROP1_A2 = 0.9786


def _check_k(k) -> int:
    return require("k", k, 3, unit="radix, nodes per dimension of the k x k network", integer=True)


@dataclasses.dataclass(frozen=True)
class GridNetwork:
    """A two-dimensional topology on (a subset of) the ``k x k`` grid.

    Attributes
    ----------
    kind : str
        ``"torus"``, ``"mesh"``, ``"tm"`` or ``"xfolded"``.
    k : int
        Radix (nodes per dimension of the grid the network is drawn on).
    reading : str
        For ``xfolded``, which reading of Definition 1 (see module docstring);
        ``""`` otherwise.
    coords : tuple of (x, y)
        Grid coordinates of node ``0..N-1`` (row-major: ``y`` outer).
    edges : tuple of (u, v)
        Undirected links, ``u < v``, sorted; each is one channel per direction.
    """

    kind: str
    k: int
    reading: str
    coords: tuple
    edges: tuple

    # ------------------------------------------------------------ counts
    @property
    def n_nodes(self) -> int:
        """Number of nodes ``N``."""
        return len(self.coords)

    @property
    def n_links(self) -> int:
        """Number of undirected links (bidirectional channels count once)."""
        return len(self.edges)

    @property
    def n_channels(self) -> int:
        """Number of unidirectional network channels (two per link)."""
        return 2 * len(self.edges)

    @property
    def name(self) -> str:
        base = {"torus": "torus", "mesh": "mesh", "tm": "TM", "xfolded": "x-Folded TM"}[self.kind]
        if self.kind == "xfolded":
            base += f" ({self.reading})"
        return f"{self.k}x{self.k} {base}"

    def degrees(self) -> np.ndarray:
        """Node degrees (links per node)."""
        d = np.zeros(self.n_nodes, dtype=np.int64)
        for a, b in self.edges:
            d[a] += 1
            d[b] += 1
        return d

    def node_id(self, x: int, y: int) -> int:
        """Id of the node at grid position ``(x, y)`` (``KeyError`` if it was removed)."""
        return self._index[(int(x), int(y))]

    @cached_property
    def _index(self) -> dict:
        return {c: i for i, c in enumerate(self.coords)}

    # ------------------------------------------------------------ simulator graph and distances
    @cached_property
    def graph(self):
        """The network as the simulator's :class:`~models.networks.graph.Graph` (validated, connected)."""
        return Graph(self.edges, n_nodes=self.n_nodes, label=self.name)

    def sim_topology(self, routing: str = "updown"):
        """Topology object for :func:`models.sim.wormhole.simulate` with ``routing``.

        Dimension-order routings (``dor``, ``duato``) need the simulator's own
        :class:`~models.networks.graph.Torus` / :class:`~models.networks.graph.Mesh`
        (same graph, with coordinates and ports by dimension); every other
        routing gets :attr:`graph`.
        """
        if routing in ("dor", "duato", "duato_nbc", "nbc"):
            if self.kind == "torus":
                return Torus((self.k, self.k), bidirectional=True)
            if self.kind == "mesh" and routing in ("dor", "duato"):
                return Mesh((self.k, self.k))
            raise ParameterError(
                f"`routing` {routing!r} needs a torus (or mesh); the {self.name} is an irregular graph "
                "(use 'updown')"
            )
        return self.graph

    def distances(self) -> np.ndarray:
        """``(N, N)`` hop distances by breadth-first search (the simulator's)."""
        return self.graph.distances()

    def average_distance(self) -> float:
        """Exact mean distance over ordered pairs of distinct nodes (uniform traffic), hops."""
        return self.graph.average_distance()

    def average_distance_per_dimension(self) -> float:
        """:meth:`average_distance` divided by ``n = 2`` -- the paper's ``AD`` of eq. (3), hops."""
        return self.average_distance() / 2

    def diameter(self) -> int:
        """Largest distance between two nodes, hops."""
        return self.graph.diameter()

    def distance_counts(self, source: int = 0) -> np.ndarray:
        """``I(i)``: number of nodes at distance ``i = 0, 1, ...`` from ``source`` (Lemma 1)."""
        d = self.distances()[source]
        return np.bincount(d)

    def summary(self) -> dict:
        """Node and link counts, diameter and average distances (a table row)."""
        return {
            "topology": self.kind if self.kind != "xfolded" else f"xfolded ({self.reading})",
            "k": self.k,
            "nodes": self.n_nodes,
            "links": self.n_links,
            "diameter": self.diameter(),
            "average distance": self.average_distance(),
            "AD per dimension": self.average_distance_per_dimension(),
        }


# ---------------------------------------------------------------- builders
def _grid_links(k: int, nodes: set, *, wrap: bool) -> set:
    """Nearest-neighbour links among ``nodes`` (wrap-around with ``wrap``); pairs of coordinates."""
    links = set()
    for x, y in nodes:
        for nx, ny in ((x + 1, y), (x, y + 1)):
            if wrap:
                nx, ny = nx % k, ny % k
            if (nx, ny) in nodes and (nx, ny) != (x, y):
                links.add(tuple(sorted(((x, y), (nx, ny)))))
    return links


def _make(kind: str, k: int, reading: str, nodes: set, links: set) -> GridNetwork:
    coords = tuple(sorted(nodes, key=lambda c: (c[1], c[0])))
    index = {c: i for i, c in enumerate(coords)}
    edges = sorted(tuple(sorted((index[a], index[b]))) for a, b in links)
    return GridNetwork(kind, k, reading, coords, tuple(edges))


def _all_nodes(k: int) -> set:
    return {(x, y) for x in range(k) for y in range(k)}


def torus(k: int) -> GridNetwork:
    """``k x k`` torus: ``k^2`` nodes, ``2k^2`` links."""
    k = _check_k(k)
    nodes = _all_nodes(k)
    return _make("torus", k, "", nodes, _grid_links(k, nodes, wrap=True))


def mesh(k: int) -> GridNetwork:
    """``k x k`` mesh: ``k^2`` nodes, ``2k(k-1)`` links."""
    k = _check_k(k)
    nodes = _all_nodes(k)
    return _make("mesh", k, "", nodes, _grid_links(k, nodes, wrap=False))


def tm_removed_links(k: int) -> set:
    """The torus links TM lacks (reconstruction): ``(j-1, j)-(j, j)`` and ``(j, j-1)-(j, j)``, mod ``k``."""
    k = _check_k(k)
    out = set()
    for j in range(k):
        out.add(tuple(sorted((((j - 1) % k, j), (j, j)))))
        out.add(tuple(sorted(((j, (j - 1) % k), (j, j)))))
    return out


def tm(k: int) -> GridNetwork:
    """TM (reconstruction, see module docstring): the torus without ``2k`` diagonal links."""
    k = _check_k(k)
    nodes = _all_nodes(k)
    links = _grid_links(k, nodes, wrap=True) - tm_removed_links(k)
    return _make("tm", k, "", nodes, links)


def removed_nodes(k: int) -> list:
    """Definition 1's removed nodes: ``(x+y) mod k in {0..k-3}``, ``x > y``, ``k-3 <= x <= k-1``, ``1 <= y <= k-2``."""
    k = _check_k(k)
    return sorted(
        ((x, y) for x in range(k - 3, k) for y in range(1, k - 1) if x > y and (x + y) % k <= k - 3),
        key=lambda c: (c[1], c[0]),
    )


def definition1_node_count(k: int) -> int:
    """Nodes of the x-Folded TM by Definition 1's rule: ``k^2 - |removed|`` (``k^2 - 3(k-4)`` for ``k >= 6``)."""
    return _check_k(k) ** 2 - len(removed_nodes(k))


def proposition1_nodes(k) -> float:
    """Proposition 1 (eq. 7): ``N' = a1 N + a2`` with ``N = k^2``, ``a1 = 0.8005``, ``a2 = 0.9786`` (a linear fit)."""
    k = _check_k(k)
    return PROP1_A1 * k * k + PROP1_A2


def definition1_removed_link(k: int):
    """The link Definition 1 removes for even ``k``: ``(i, i+1)-(i+1, i+1)``, ``i = k/2-1`` (``None`` for odd ``k``)."""
    k = _check_k(k)
    if k % 2:
        return None
    i = k // 2 - 1
    return ((i, i + 1), (i + 1, i + 1))


def _ring_links(k: int, nodes: set) -> set:
    """Links joining cyclically consecutive surviving nodes of every row and column."""
    links = set()
    for fixed in range(k):
        for axis in (0, 1):
            line = [(v, fixed) if axis == 0 else (fixed, v) for v in range(k)]
            alive = [c for c in line if c in nodes]
            if len(alive) < 2:
                continue
            for a, b in zip(alive, alive[1:] + alive[:1]):
                if a != b:
                    links.add(tuple(sorted((a, b))))
    return links


def xfolded_tm(k: int, reading: str = "printed") -> GridNetwork:
    """x-Folded TM on the ``k x k`` grid under ``reading`` (``printed``, ``completed``, ``completed_tm``).

    ``printed``: Definition 1 as printed (a mesh without the removed nodes and, for even
    ``k``, one link).  ``completed``: plus the links closing every row and column of
    surviving nodes into a ring.  ``completed_tm``: ``completed`` without TM's diagonal links.
    """
    k = _check_k(k)
    reading = require_choice("reading", reading, READINGS, unit="reading of Definition 1")
    nodes = _all_nodes(k) - set(removed_nodes(k))
    links = _grid_links(k, nodes, wrap=False)
    if reading in ("completed", "completed_tm"):
        links |= _ring_links(k, nodes)
    if reading == "completed_tm":
        links -= tm_removed_links(k)
    cut = definition1_removed_link(k)
    if cut is not None:
        links.discard(tuple(sorted(cut)))
    return _make("xfolded", k, reading, nodes, links)


def build(kind: str, k: int, reading: str = "printed") -> GridNetwork:
    """Build a topology by name: ``build("tm", 8)``, ``build("xfolded", 8, "completed")``."""
    kind = require_choice("kind", kind, KINDS, unit="topology")
    if kind == "xfolded":
        return xfolded_tm(k, reading)
    return {"torus": torus, "mesh": mesh, "tm": tm}[kind](k)


# ---------------------------------------------------------------- tables and drawings
def properties_table(ks, readings=READINGS):
    """One row per ``k``: node counts (Definition 1 vs Proposition 1) and BFS average distances.

    Columns: ``k``, ``nodes (Def. 1)``, ``nodes (Prop. 1 fit)``, then for the mesh,
    torus, TM and each x-Folded TM reading the exact average distance
    (hops, ordered pairs of distinct nodes) and the diameter.
    """
    import pandas as pd

    rows = []
    for k in ks:
        k = _check_k(k)
        row = {"k": k, "nodes (Def. 1)": definition1_node_count(k), "nodes (Prop. 1 fit)": proposition1_nodes(k)}
        nets = [mesh(k), torus(k), tm(k)] + [xfolded_tm(k, r) for r in readings]
        for net in nets:
            key = net.kind if net.kind != "xfolded" else f"xfolded {net.reading}"
            row[f"AD {key}"] = net.average_distance()
            row[f"diameter {key}"] = net.diameter()
        rows.append(row)
    return pd.DataFrame(rows)


def draw(net: GridNetwork, ax=None, *, labels: bool = False, highlight_removed: bool = True):
    """Draw ``net`` on its grid: nodes as dots, grid links as grey lines.

    A wrap-around link is drawn as a blue stub leaving each of its two end
    nodes outwards (the link goes around); a fold link, which joins the two
    sides of the removed wedge, as a dashed reddish-purple line over the removed
    positions (grey crosses); nodes in vermillion.  Colours from the book's
    colour-blind-safe palette (:data:`models.core.plotting.PALETTE`).  Missing
    links (TM's, Definition 1's) are simply absent.  Returns the axes.
    """
    import matplotlib.pyplot as plt

    from ..core.plotting import PALETTE  # matplotlib (the book's style): only when a network is drawn

    blue, vermillion, purple = PALETTE[0], PALETTE[3], PALETTE[4]

    if ax is None:
        _, ax = plt.subplots(figsize=(3.4, 3.4))
    k = net.k
    xy = np.array(net.coords, dtype=float)
    alive = set(net.coords)
    stub = 0.42
    for a, b in net.edges:
        (x1, y1), (x2, y2) = sorted((net.coords[a], net.coords[b]))
        if abs(x1 - x2) + abs(y1 - y2) == 1:
            ax.plot([x1, x2], [y1, y2], "-", color="0.35", lw=1.0, zorder=1)
            continue
        if y1 == y2:
            between = [(x, y1) for x in range(x1 + 1, x2)]
        else:
            between = [(x1, y) for y in range(y1 + 1, y2)]
        if not any(c in alive for c in between):
            # fold link: joins the two sides of the removed wedge, drawn over the removed nodes
            ax.plot([x1, x2], [y1, y2], "--", color=purple, lw=1.1, zorder=1)
        else:
            # wrap-around link: a stub leaving each end outwards
            dx, dy = (stub, 0) if y1 == y2 else (0, stub)
            ax.plot([x1, x1 - dx], [y1, y1 - dy], "-", color=blue, lw=1.1, zorder=1)
            ax.plot([x2, x2 + dx], [y2, y2 + dy], "-", color=blue, lw=1.1, zorder=1)
    if highlight_removed and net.kind == "xfolded":
        gone = removed_nodes(k)
        if gone:
            g = np.array(gone, dtype=float)
            ax.plot(g[:, 0], g[:, 1], "x", color="0.75", ms=5, zorder=2)
    ax.plot(xy[:, 0], xy[:, 1], "o", color=vermillion, ms=4 if k > 6 else 6, zorder=3)
    if labels:
        for i, (x, y) in enumerate(net.coords):
            ax.annotate(str(i), (x, y), textcoords="offset points", xytext=(3, 3), fontsize=6)
    ax.set_xlim(-1, k)
    ax.set_ylim(-1, k)
    ax.set_aspect("equal")
    ax.set_xticks(range(k))
    ax.set_yticks(range(k))
    ax.tick_params(labelsize=7)
    ax.grid(False)
    ax.set_title(net.name, fontsize=9)
    return ax
