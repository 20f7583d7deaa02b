"""Issue #12: balanced DOR ties, uniform traffic with self, the BookSim-like source (injection_vcs=1)."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import Torus, simulate, torus_average_distance
from models.sim.wormhole.routing import build, extended_escape_cdg, is_acyclic


def _direction_loads(r, topo):
    """Total flits/cycle on the '+' and on the '-' channels of each dimension (bidirectional torus)."""
    _, _, _, port = topo.channels
    load = r.channel_load
    return [(load[port == 2 * i].sum(), load[port == 2 * i + 1].sum()) for i in range(len(topo.radices))]


KW = dict(routing="dor", vcs=2, message_length=4, rate=0.01, messages=20000, warmup_messages=1000, seed=2)


def test_random_tie_balances_directions():
    topo = Torus((8, 8))
    r = simulate(topo, tie="random", **KW)
    for plus, minus in _direction_loads(r, topo):
        assert plus == pytest.approx(minus, rel=0.02)


@pytest.mark.parametrize("k", [4, 8])
def test_plus_tie_ratio_closed_form(k):
    """Always '+' at offset k/2: sum of '+' hops over offsets 1..k/2 against '-' hops over 1..k/2-1,
    i.e. (k/2 + 1)/(k/2 - 1) (5/3 on an 8x8 torus; 1.25 times the mean load)."""
    topo = Torus((k, k))
    r = simulate(topo, tie="plus", **KW)
    h = k // 2
    for plus, minus in _direction_loads(r, topo):
        assert plus / minus == pytest.approx((h + 1) / (h - 1), rel=0.03)


def test_tie_random_duato_escape_and_hops():
    """Duato with random ties still routes minimally; the tie bit only moves the escape VC."""
    topo = Torus((6, 6))
    r = simulate(topo, routing="duato", vcs=3, message_length=8, rate=0.01, messages=8000,
                 warmup_messages=500, tie="random")
    assert r.mean_hops == pytest.approx(torus_average_distance(topo.radices, True), rel=0.02)


@pytest.mark.parametrize("routing,v", [("dor", 2), ("duato", 3)])
def test_tie_tables_escape_cdg_acyclic(routing, v):
    """Both tie choices in the escape sub-function keep Duato's extended CDG acyclic."""
    topo = Torus((4, 6))
    rt = build(topo, routing, v)
    assert rt.has_ties
    _, G = extended_escape_cdg(topo, rt)
    assert is_acyclic(G)


def test_tie_plus_is_the_old_behaviour_and_unidirectional_has_no_ties():
    assert not build(Torus((8, 8), bidirectional=False), "dor", 2).has_ties
    assert not build(Torus((5, 7)), "dor", 2).has_ties  # odd radices: no offset k/2
    kw = dict(KW, messages=2000, warmup_messages=100)
    a = simulate(Torus((5, 5)), tie="random", **kw).to_dict()
    b = simulate(Torus((5, 5)), tie="plus", **kw).to_dict()
    for d in (a, b):
        d.pop("wall_time")
        d.pop("params")
        d.pop("channel_load")
    assert a == b  # no ties -> no random draws -> the same run


def test_self_traffic_hops():
    """Uniform over all N nodes: mean hops (N-1)/N times the exclusive mean (the exact average distance)."""
    topo = Torus((4, 4))
    N = topo.n_nodes
    kw = dict(routing="duato", vcs=3, message_length=4, rate=0.004, messages=30000, warmup_messages=500)
    a = simulate(topo, self_traffic=True, **kw)
    b = simulate(topo, self_traffic=False, **kw)
    exact = torus_average_distance(topo.radices, True)
    assert b.mean_hops == pytest.approx(exact, rel=0.01)
    assert a.mean_hops == pytest.approx((N - 1) / N * exact, rel=0.015)
    assert not a.saturated and a.throughput == pytest.approx(a.offered, rel=0.03)


def test_injection_vcs_one_is_one_message_at_a_time():
    """injection_vcs=1: a node writes one message at a time, so at overload it injects at most
    one flit per cycle of one message; the next message may start while the previous tail is
    still buffered, so it accepts more than the old one-VC injection channel allowed."""
    topo = Torus((4, 4))
    kw = dict(routing="dor", vcs=4, message_length=16, buffer_depth=4, rate=0.05, messages=10**9,
              warmup_messages=2000, max_cycles=30000, saturation_backlog=10**6)
    one = simulate(topo, injection_vcs=1, **kw)
    assert one.saturated
    assert one.throughput <= 1.0 / 16 + 1e-9
    # messages in the network per node: at most one being written + those waiting in injection VCs
    assert one.mean_in_network <= topo.n_nodes * (1 + 4) + 1e-9


def test_bad_new_inputs():
    base = dict(routing="dor", vcs=2, message_length=4, rate=0.01)
    with pytest.raises(ParameterError, match="tie"):
        simulate(Torus((4, 4)), tie="minus", **base)
    with pytest.raises(ParameterError, match="self_traffic"):
        simulate(Torus((4, 4)), self_traffic="yes", **base)


def test_cache_key_has_new_parameters(tmp_cache):
    from models.sim.sweep import point_key

    kw = dict(topology=Torus((4, 4)), routing="dor", vcs=2, message_length=4, rate=0.01)
    keys = {point_key(simulate, dict(kw, **extra)) for extra in
            ({}, {"tie": "plus"}, {"self_traffic": True}, {"injection_vcs": 1})}
    assert len(keys) == 4
