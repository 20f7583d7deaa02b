"""Graph topologies (torus, mesh, any graph) as port tables, with their BFS distances; the simulator routes on them.

Every topology is a directed multigraph given by a *port table*:
``nbr[u, p]`` is the node reached from node ``u`` through its output port
``p`` (``-1`` where the port does not exist, e.g. at the border of a mesh).
Each existing ``(u, p)`` is one physical channel; channels are numbered in
node-major, port-minor order (:meth:`Topology.channels`).

* :class:`Torus` -- n-dimensional torus with radices ``k_0 x ... x k_{n-1}``
  (any radix >= 2, unequal radices allowed), unidirectional (port ``i`` is
  the ``+`` direction of dimension ``i``) or bidirectional (port ``2i`` is
  ``+`` and port ``2i+1`` is ``-`` of dimension ``i``).  Node ``u`` has
  coordinates ``c_i = (u // prod_{j<i} k_j) % k_i`` (dimension 0 varies
  fastest).
* :class:`Mesh` -- the same without the wrap-around links.
* :class:`Graph` -- any connected undirected graph given by its edge list;
  each edge gives one channel in each direction, and node ``u``'s ports are
  its neighbours in increasing order (used for TM and x-Folded TM).

Distances are by breadth-first search (:meth:`Topology.distances`), a torus's and a mesh's by their closed form
(the sum over dimensions of the ring's or the line's distance, :func:`_grid_distances`: the same matrix, tested,
without importing ``scipy.sparse``, about 0.6 s of a simulating process's start); the torus and mesh closed forms
of the average distance are :func:`torus_average_distance` and :func:`mesh_average_distance`.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property

import numpy as np

from models.core.errors import ParameterError
from models.core.validate import require

__all__ = [
    "Topology",
    "Torus",
    "Mesh",
    "Graph",
    "topology",
    "torus_average_distance",
    "mesh_average_distance",
]


class Topology:
    """Common interface; subclasses define ``n_nodes`` and ``_port_table()``."""

    kind: str = "graph"

    # ------------------------------------------------------------ tables
    @cached_property
    def nbr(self) -> np.ndarray:
        """``(N, P)`` int array: neighbour through each output port, ``-1`` if none."""
        t = np.asarray(self._port_table(), dtype=np.int64)
        t.setflags(write=False)
        return t

    @property
    def n_ports(self) -> int:
        return int(self.nbr.shape[1])

    @cached_property
    def channels(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(chan_of, src, dst, port)``: ``chan_of[u, p]`` is the channel id (or -1);
        ``src[c], dst[c], port[c]`` describe channel ``c``."""
        nbr = self.nbr
        mask = nbr >= 0
        chan_of = np.full(nbr.shape, -1, dtype=np.int64)
        chan_of[mask] = np.arange(int(mask.sum()))
        src, port = np.nonzero(mask)
        dst = nbr[src, port]
        return chan_of, src.astype(np.int64), dst.astype(np.int64), port.astype(np.int64)

    @property
    def n_channels(self) -> int:
        return int(self.channels[1].size)

    @cached_property
    def _distances(self) -> np.ndarray:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import shortest_path

        _, src, dst, _ = self.channels
        n = self.n_nodes
        adj = csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n))
        d = shortest_path(adj, directed=True, unweighted=True)
        if not np.all(np.isfinite(d)):
            raise ParameterError(f"topology {self.name} is not strongly connected")
        d = d.astype(np.int64)
        d.setflags(write=False)
        return d

    def distances(self) -> np.ndarray:
        """``(N, N)`` matrix of hop distances (breadth-first search)."""
        return self._distances

    def average_distance(self) -> float:
        """Mean distance over ordered pairs of distinct nodes (uniform traffic)."""
        n = self.n_nodes
        return float(self._distances.sum()) / (n * (n - 1))

    def diameter(self) -> int:
        return int(self._distances.max())

    def describe_channel(self, c: int) -> str:
        _, src, dst, port = self.channels
        return f"{int(src[c])}->{int(dst[c])} (port {int(port[c])})"

    def spec(self) -> dict:
        """The parameters that define the topology (for cache keys and reports)."""
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}}

    @property
    def name(self) -> str:
        return repr(self)


def _check_radices(radices) -> tuple[int, ...]:
    if isinstance(radices, (int, np.integer)):
        radices = (radices,)
    try:
        radices = tuple(radices)
    except TypeError:
        raise ParameterError(f"`radices` must be an integer or a sequence of integers >= 2; got {radices!r}")
    if not radices:
        raise ParameterError("`radices` must hold at least one radix (integer >= 2)")
    return tuple(require("radix", k, 2, unit="nodes per dimension", integer=True) for k in radices)


def _grid_distances(radices: tuple[int, ...], wrap: bool, bidirectional: bool) -> np.ndarray:
    """The ``(N, N)`` hop distances of the grid :func:`_grid_table` builds (read-only int64): the sum over dimensions
    of ``(c_v - c_u) mod k`` (a unidirectional ring), ``min`` of that and ``k`` minus it (a bidirectional ring) or
    ``|c_v - c_u|`` (a line, ``wrap=False``), ``c`` a node's coordinate in the dimension, ``k`` its radix."""
    N = int(np.prod(radices))
    ids = np.arange(N)
    d = np.zeros((N, N), dtype=np.int64)
    stride = 1
    for k in radices:
        c = (ids // stride) % k
        stride *= k
        diff = c[None, :] - c[:, None]
        if not wrap:
            d += np.abs(diff)
            continue
        step = diff % k  # hops in the + direction from u to v
        d += np.minimum(step, k - step) if bidirectional else step
    d.setflags(write=False)
    return d


def _grid_table(radices: tuple[int, ...], wrap: bool, bidirectional: bool) -> np.ndarray:
    n = len(radices)
    N = int(np.prod(radices))
    ids = np.arange(N)
    coords = np.empty((N, n), dtype=np.int64)
    stride = 1
    strides = []
    for i, k in enumerate(radices):
        coords[:, i] = (ids // stride) % k
        strides.append(stride)
        stride *= k
    P = 2 * n if bidirectional else n
    nbr = np.full((N, P), -1, dtype=np.int64)
    for i, k in enumerate(radices):
        c = coords[:, i]
        for sgn, p in ((+1, 2 * i if bidirectional else i), (-1, 2 * i + 1)):
            if sgn < 0 and not bidirectional:
                continue
            nc = c + sgn
            if wrap:
                nc = nc % k
                ok = np.ones(N, dtype=bool)
            else:
                ok = (nc >= 0) & (nc < k)
            nbr[ok, p] = ids[ok] + (nc[ok] - c[ok]) * strides[i]
    return nbr


@dataclasses.dataclass(frozen=True)
class Torus(Topology):
    """n-dimensional torus ``k_0 x ... x k_{n-1}``.

    Parameters
    ----------
    radices : int or sequence of int
        Radix of each dimension (>= 2); an int with ``n`` gives a k-ary n-cube.
    n : int
        Number of dimensions when ``radices`` is an int (default 2).
    bidirectional : bool
        Two channels (``+``, ``-``) per dimension and node (default) or only ``+``.
    """

    radices: tuple = (8, 8)
    bidirectional: bool = True
    n: dataclasses.InitVar[int | None] = None

    kind = "torus"

    def __post_init__(self, n):
        r = self.radices
        if isinstance(r, (int, np.integer)) and not isinstance(r, bool):
            r = (r,) * (2 if n is None else require("n", n, 1, unit="dimensions", integer=True))
        object.__setattr__(self, "radices", _check_radices(r))
        if not isinstance(self.bidirectional, (bool, np.bool_)):
            raise ParameterError(f"`bidirectional` must be True or False; got {self.bidirectional!r}")
        object.__setattr__(self, "bidirectional", bool(self.bidirectional))

    @property
    def n_nodes(self) -> int:
        return int(np.prod(self.radices))

    @property
    def ndim(self) -> int:
        return len(self.radices)

    def coords(self) -> np.ndarray:
        ids = np.arange(self.n_nodes)
        out = np.empty((self.n_nodes, self.ndim), dtype=np.int64)
        s = 1
        for i, k in enumerate(self.radices):
            out[:, i] = (ids // s) % k
            s *= k
        return out

    def _port_table(self):
        return _grid_table(self.radices, wrap=True, bidirectional=self.bidirectional)

    @cached_property
    def _distances(self) -> np.ndarray:
        return _grid_distances(self.radices, wrap=True, bidirectional=self.bidirectional)

    def port_dim_dir(self, p: int) -> tuple[int, int]:
        """(dimension, +1/-1) of output port ``p``."""
        if self.bidirectional:
            return p // 2, (1 if p % 2 == 0 else -1)
        return p, 1

    def describe_channel(self, c: int) -> str:
        _, src, dst, port = self.channels
        d, s = self.port_dim_dir(int(port[c]))
        return f"{int(src[c])}->{int(dst[c])} (dim {d}{'+' if s > 0 else '-'})"

    def spec(self) -> dict:
        return {"kind": "torus", "radices": list(self.radices), "bidirectional": self.bidirectional}

    @property
    def name(self) -> str:
        return f"{'bi' if self.bidirectional else 'uni'}directional {'x'.join(map(str, self.radices))} torus"


@dataclasses.dataclass(frozen=True)
class Mesh(Torus):
    """n-dimensional mesh ``k_0 x ... x k_{n-1}`` (bidirectional, no wrap-around)."""

    kind = "mesh"

    def __post_init__(self, n):
        super().__post_init__(n)
        object.__setattr__(self, "bidirectional", True)

    def _port_table(self):
        return _grid_table(self.radices, wrap=False, bidirectional=True)

    @cached_property
    def _distances(self) -> np.ndarray:
        return _grid_distances(self.radices, wrap=False, bidirectional=True)

    def spec(self) -> dict:
        return {"kind": "mesh", "radices": list(self.radices)}

    @property
    def name(self) -> str:
        return f"{'x'.join(map(str, self.radices))} mesh"


@dataclasses.dataclass(frozen=True)
class Graph(Topology):
    """Any connected undirected graph.

    Parameters
    ----------
    edges : sequence of (u, v)
        Undirected links between nodes ``0..n_nodes-1`` (no self-loops, no duplicates);
        each gives one channel per direction.
    n_nodes : int, optional
        Number of nodes (default: ``1 + max`` node id).
    label : str
        A name for reports.
    """

    edges: tuple = ()
    n_nodes: int | None = None
    label: str = "graph"

    kind = "graph"

    def __post_init__(self):
        try:
            e = np.asarray(self.edges, dtype=np.int64).reshape(-1, 2)
        except (TypeError, ValueError):
            raise ParameterError(f"`edges` must be a sequence of (u, v) integer pairs; got {self.edges!r}")
        if e.size == 0:
            raise ParameterError("`edges` must hold at least one link")
        if np.any(e < 0):
            raise ParameterError("`edges` must use node ids >= 0")
        if np.any(e[:, 0] == e[:, 1]):
            raise ParameterError("`edges` must not contain self-loops")
        e = np.sort(e, axis=1)
        key = e[:, 0] * (int(e.max()) + 1) + e[:, 1]
        if np.unique(key).size != key.size:
            raise ParameterError("`edges` must not contain duplicate links")
        n = int(e.max()) + 1 if self.n_nodes is None else require("n_nodes", self.n_nodes, int(e.max()) + 1, integer=True)
        if n < 2:
            raise ParameterError("`n_nodes` must be >= 2")
        order = np.lexsort((e[:, 1], e[:, 0]))
        object.__setattr__(self, "edges", tuple((int(a), int(b)) for a, b in e[order]))
        object.__setattr__(self, "n_nodes", n)
        self.distances()  # raises if not connected

    def _port_table(self):
        n = self.n_nodes
        adj = [[] for _ in range(n)]
        for a, b in self.edges:
            adj[a].append(b)
            adj[b].append(a)
        P = max(len(a) for a in adj)
        t = np.full((n, P), -1, dtype=np.int64)
        for u, a in enumerate(adj):
            a = sorted(a)
            t[u, : len(a)] = a
        return t

    def spec(self) -> dict:
        return {"kind": "graph", "n_nodes": self.n_nodes, "edges": [list(x) for x in self.edges]}

    @property
    def name(self) -> str:
        return f"{self.label} ({self.n_nodes} nodes, {len(self.edges)} links)"


def topology(kind: str, *args, **kwargs) -> Topology:
    """Build a topology by name: ``topology("torus", (16, 16), bidirectional=False)``,
    ``topology("mesh", (4, 4))``, ``topology("graph", edges)``."""
    table = {"torus": Torus, "mesh": Mesh, "graph": Graph}
    if kind not in table:
        raise ParameterError(f"`kind` must be one of {', '.join(map(repr, table))}; got {kind!r}")
    return table[kind](*args, **kwargs)


def torus_average_distance(radices, bidirectional: bool = True) -> float:
    """Exact mean distance between distinct nodes of a torus (uniform traffic).

    Per dimension, the mean offset over all ``k`` values (0 included) is
    ``(k-1)/2`` (unidirectional), ``k/4`` (bidirectional, even k) or
    ``(k^2-1)/(4k)`` (bidirectional, odd k); summing over dimensions and
    excluding the source gives a factor ``N/(N-1)``.
    """
    radices = _check_radices(radices)
    N = int(np.prod(radices))
    s = 0.0
    for k in radices:
        if not bidirectional:
            s += (k - 1) / 2
        elif k % 2 == 0:
            s += k / 4
        else:
            s += (k * k - 1) / (4 * k)
    return s * N / (N - 1)


def mesh_average_distance(radices) -> float:
    """Exact mean distance between distinct nodes of a mesh: ``sum (k^2-1)/(3k) * N/(N-1)``."""
    radices = _check_radices(radices)
    N = int(np.prod(radices))
    return sum((k * k - 1) / (3 * k) for k in radices) * N / (N - 1)
