"""Topologies and routing tables of the wormhole simulator: distances, port tables, bad inputs."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import Graph, Mesh, Torus, mesh_average_distance, min_vcs, torus_average_distance
from models.sim.wormhole.routing import build


@pytest.mark.parametrize("radices", [(3,), (4,), (3, 3), (4, 5), (2, 3, 4), (16, 16), (5, 4, 3)])
@pytest.mark.parametrize("bi", [False, True])
def test_torus_average_distance_closed_form(radices, bi):
    t = Torus(radices, bidirectional=bi)
    assert t.average_distance() == pytest.approx(torus_average_distance(radices, bi), rel=1e-12)


@pytest.mark.parametrize("radices", [(3, 3), (4, 6), (2, 3, 5)])
def test_mesh_average_distance_closed_form(radices):
    assert Mesh(radices).average_distance() == pytest.approx(mesh_average_distance(radices), rel=1e-12)


@pytest.mark.parametrize("topo", [Torus((2,)), Torus((3,), bidirectional=False), Torus((2, 3)), Torus((4, 5)),
                                  Torus((4, 5), bidirectional=False), Torus((2, 3, 4)),
                                  Torus((5, 4, 3), bidirectional=False), Torus((8, 8)), Mesh((2, 2)), Mesh((3, 5)),
                                  Mesh((2, 3, 4))])
def test_grid_distances_are_the_breadth_first_search_s(topo):
    """A torus's and a mesh's closed-form distances are the matrix the breadth-first search of any graph gives
    (from the same port table), and read-only."""
    from models.networks.graph import Topology

    d = topo.distances()
    bfs = Topology.__dict__["_distances"].func(topo)
    assert d.dtype == bfs.dtype and d.shape == bfs.shape and np.array_equal(d, bfs)
    assert not d.flags.writeable


def test_a_torus_s_distances_import_no_scipy_sparse():
    """The closed form needs no ``scipy.sparse`` (about 0.6 s of a simulating process's start)."""
    import subprocess
    import sys

    code = ("import sys\nfrom models.networks.graph import Mesh, Torus\nTorus((4, 4)).distances()\n"
            "Mesh((3, 3)).distances()\nprint('scipy.sparse' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_port_tables():
    t = Torus((4, 3), bidirectional=True)
    assert t.nbr.shape == (12, 4)
    # node 0 = (0,0): +x -> 1, -x -> 3, +y -> 4, -y -> 8
    assert list(t.nbr[0]) == [1, 3, 4, 8]
    u = Torus((4, 3), bidirectional=False)
    assert list(u.nbr[3]) == [0, 7]
    m = Mesh((3, 3))
    assert list(m.nbr[0]) == [1, -1, 3, -1]
    assert m.n_channels == 2 * 2 * 3 * 2
    g = Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    assert g.n_nodes == 4 and g.n_channels == 8
    assert g.average_distance() == pytest.approx((1 + 1 + 2 + 1 + 1 + 2 + 1 + 1 + 1 + 2 + 2 + 1) / 12)


def test_minimal_port_tables_are_minimal():
    for topo, routing, v in [(Torus((4, 5)), "duato", 3), (Torus((3, 4), bidirectional=False), "dor", 2),
                             (Mesh((3, 4)), "duato", 2), (Torus((4, 4)), "duato_nbc", 4)]:
        rt = build(topo, routing, v)
        N, P = topo.nbr.shape
        D = topo.distances()
        minp = rt.minp.reshape(N, N, P)
        for u in range(N):
            for d in range(N):
                if u == d:
                    continue
                n = rt.nminp[u * N + d]
                assert n >= 1
                for j in range(n):
                    assert D[topo.nbr[u, minp[u, d, j]], d] == D[u, d] - 1


def test_updown_tables_reach_every_destination():
    g = Graph([(0, 1), (1, 2), (2, 3), (3, 0), (1, 4), (4, 5), (5, 2), (3, 5)])
    rt = build(g, "updown", 1)
    N, P = g.nbr.shape
    chan_of = g.channels[0]
    for s in range(N):
        for d in range(N):
            u, ph, steps = s, 0, 0
            while u != d:
                p = rt.udp[(u * N + d) * 2 + ph]
                c = chan_of[u, p]
                up = rt.chan_up[c]
                assert not (ph == 1 and up), "up link after a down link"
                ph = 0 if up else 1
                u = g.nbr[u, p]
                steps += 1
                assert steps <= 2 * N


def test_bad_topologies():
    with pytest.raises(ParameterError, match="radix"):
        Torus((1, 4))
    with pytest.raises(ParameterError, match="radix"):
        Mesh((4, 0))
    with pytest.raises(ParameterError):
        Graph([(0, 1), (2, 3)])  # not connected
    with pytest.raises(ParameterError, match="self-loops"):
        Graph([(0, 0), (0, 1)])


def test_min_vcs_and_routing_checks():
    t = Torus((8, 8))
    assert min_vcs(t, "dor") == 2
    assert min_vcs(t, "duato") == 3
    assert min_vcs(t, "duato_nbc") == 6  # k/2 + 1 escape levels + 1 adaptive
    assert min_vcs(Torus((16, 16)), "duato_nbc") == 10
    assert min_vcs(Mesh((4, 4)), "dor") == 1
    with pytest.raises(ParameterError, match=r"`vcs` must be >= 2"):
        build(Torus((4, 4), bidirectional=False), "dor", 1)
    with pytest.raises(ParameterError, match=r"`vcs` must be >= 3"):
        build(t, "duato", 2)
    with pytest.raises(ParameterError, match=r"`vcs` must be >= 6"):
        build(t, "duato_nbc", 5)
    with pytest.raises(ParameterError, match="routing"):
        build(Torus((4, 4), bidirectional=False), "duato_nbc", 10)
    with pytest.raises(ParameterError, match="routing"):
        build(Torus((5, 5)), "duato_nbc", 10)  # odd radix
    with pytest.raises(ParameterError, match="routing"):
        build(Graph([(0, 1), (1, 2)]), "dor", 3)
    with pytest.raises(ParameterError, match="routing"):
        build(t, "west_first", 3)
