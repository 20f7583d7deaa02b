"""Topology builders of models/networks/grid2d.py: hand-checkable counts, Definition 1's rules, errors."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.networks.grid2d import (READINGS, build, definition1_node_count, definition1_removed_link, mesh,
                             properties_table, proposition1_nodes, removed_nodes, tm, tm_removed_links, torus,
                             xfolded_tm)


def test_torus_3x3_by_hand():
    net = torus(3)
    assert (net.n_nodes, net.n_links) == (9, 18)
    # from any node: 4 nodes at distance 1, 4 at distance 2
    assert list(net.distance_counts(0)) == [1, 4, 4]
    assert net.average_distance() == pytest.approx(12 / 8)
    assert net.diameter() == 2
    assert net.average_distance_per_dimension() == pytest.approx(0.75)


def test_mesh_3x3_by_hand():
    net = mesh(3)
    assert (net.n_nodes, net.n_links) == (9, 12)
    assert list(net.distance_counts(net.node_id(0, 0))) == [1, 2, 3, 2, 1]
    assert list(net.distance_counts(net.node_id(1, 1))) == [1, 4, 4]
    # sums of distances: corner 1+1+2+2+2+3+3+4 = 18, edge 1+1+1+2+2+2+3+3 = 15, centre 12
    assert net.average_distance() == pytest.approx((4 * 18 + 4 * 15 + 12) / 72)


def test_torus_and_mesh_match_the_closed_forms():
    from models.sim.wormhole import mesh_average_distance, torus_average_distance

    for k in (3, 4, 7, 8):
        assert torus(k).average_distance() == pytest.approx(torus_average_distance((k, k)))
        assert mesh(k).average_distance() == pytest.approx(mesh_average_distance((k, k)))


@pytest.mark.parametrize("k", [3, 4, 5, 8, 9])
def test_tm_has_mesh_link_count_and_torus_like_diameter(k):
    net = tm(k)
    assert net.n_nodes == k * k
    assert net.n_links == 2 * k * (k - 1) == mesh(k).n_links
    assert len(tm_removed_links(k)) == 2 * k
    assert net.diameter() <= torus(k).diameter() + 1
    assert torus(k).average_distance() < net.average_distance() < mesh(k).average_distance()


def test_tm_removes_the_links_entering_each_diagonal_node():
    net = tm(4)
    links = {tuple(sorted((net.coords[a], net.coords[b]))) for a, b in net.edges}
    assert ((1, 2), (2, 2)) not in links and ((2, 1), (2, 2)) not in links
    assert ((3, 0), (0, 0)) not in links and ((0, 0), (0, 3)) not in links  # wrap links into (0, 0)
    assert ((2, 2), (3, 2)) in links and ((2, 2), (2, 3)) in links
    # Definition 1's removed link is one of TM's
    assert tuple(sorted(definition1_removed_link(4))) in tm_removed_links(4)


def test_definition1_k3_by_hand():
    assert removed_nodes(3) == [(2, 1)]
    net = xfolded_tm(3, "printed")
    # the 3x3 mesh (12 links) loses the 3 links of node (2, 1); odd k removes no other link
    assert (net.n_nodes, net.n_links) == (8, 9)
    assert definition1_removed_link(3) is None
    # from (0,0): (1,0),(0,1) | (2,0),(1,1),(0,2) | (1,2) | (2,2)
    assert list(net.distance_counts(net.node_id(0, 0))) == [1, 2, 3, 1, 1]
    assert net.diameter() == 4  # (2,0) -> (1,0) -> (1,1) -> (1,2) -> (2,2)


def test_definition1_k4_by_hand():
    assert removed_nodes(4) == [(3, 1), (3, 2)]
    net = xfolded_tm(4, "printed")
    # mesh 24 links - 5 at the removed nodes - the link (1,2)-(2,2)
    assert (net.n_nodes, net.n_links) == (14, 18)
    links = {tuple(sorted((net.coords[a], net.coords[b]))) for a, b in net.edges}
    assert ((1, 2), (2, 2)) not in links


@pytest.mark.parametrize("k", range(3, 17))
def test_node_counts_follow_definition1(k):
    for reading in READINGS:
        net = xfolded_tm(k, reading)
        assert net.n_nodes == definition1_node_count(k) == k * k - len(removed_nodes(k))
        assert not any(c in removed_nodes(k) for c in net.coords)
    if k >= 6:
        assert definition1_node_count(k) == k * k - 3 * (k - 4)


def test_proposition1_is_the_least_squares_line_through_k_3_to_9():
    ks = np.arange(3, 10)
    counts = np.array([definition1_node_count(int(k)) for k in ks])
    a1, a2 = np.polyfit(ks**2, counts, 1)
    assert a1 == pytest.approx(0.8005, abs=6e-5) and a2 == pytest.approx(0.9786, abs=6e-5)
    assert proposition1_nodes(16) == pytest.approx(0.8005 * 256 + 0.9786)
    assert definition1_node_count(16) == 220


@pytest.mark.parametrize("k", range(3, 11))
def test_lemma1_holds_for_definition1_as_printed(k):
    counts = xfolded_tm(k, "printed").distance_counts(0)
    assert [int(counts[i]) for i in range(1, k)] == [i + 1 for i in range(1, k)]


def test_completed_reading_closes_rows_and_columns():
    net = xfolded_tm(8, "completed")
    links = {tuple(sorted((net.coords[a], net.coords[b]))) for a, b in net.edges}
    assert ((7, 0), (7, 7)) in links  # the only two survivors of column k-1 ("shared" top/bottom)
    assert ((0, 0), (7, 0)) in links and ((0, 3), (4, 3)) in links  # row wraps to the last survivor
    assert ((4, 2), (4, 5)) not in links  # column 4 keeps all its nodes: its wrap is (4,0)-(4,7)
    assert ((5, 2), (5, 5)) in links  # column 5 jumps the wedge
    assert ((3, 4), (4, 4)) not in links  # Definition 1's removed link stays removed
    assert min(net.degrees()) >= 3
    assert net.diameter() < min(tm(8).diameter(), torus(8).diameter())
    assert net.average_distance() < min(tm(8).average_distance(), torus(8).average_distance())


def test_printed_definition_is_mesh_like():
    for k in (6, 8, 10):
        net = xfolded_tm(k, "printed")
        assert net.diameter() == 2 * k - 2
        assert net.average_distance() > torus(k).average_distance()


def test_graphs_are_accepted_by_the_simulator():
    from models.sim.wormhole import Graph, Torus

    net = xfolded_tm(5, "completed")
    assert isinstance(net.graph, Graph) and net.graph.n_nodes == net.n_nodes
    assert net.graph.n_channels == net.n_channels
    assert isinstance(torus(8).sim_topology("dor"), Torus)
    with pytest.raises(ParameterError, match="updown"):
        tm(8).sim_topology("dor")


def test_properties_table_shape():
    t = properties_table([3, 4])
    assert list(t["k"]) == [3, 4] and list(t["nodes (Def. 1)"]) == [8, 14]
    assert "AD xfolded completed" in t and "diameter tm" in t


@pytest.mark.parametrize("bad", [2, 1, 0, -3, 2.5, "8", True])
def test_bad_radix_raises_value_error(bad):
    for f in (torus, mesh, tm, xfolded_tm, removed_nodes, definition1_node_count):
        with pytest.raises(ValueError, match="`k`"):
            f(bad)


def test_bad_names_raise():
    with pytest.raises(ParameterError, match="kind"):
        build("ring", 8)
    with pytest.raises(ParameterError, match="reading"):
        xfolded_tm(8, "folded")
