"""Wormhole simulator: zero-load latency, throughput, Little's law, hops, determinism, bad inputs."""

import dataclasses
import math

import numpy as np
import pytest

from models.core.errors import DeadlockError, ParameterError
from models.sim.wormhole import (IPP, MMPP2, Graph, Mesh, Torus, WormholeResult, simulate,
                                 torus_average_distance)

FAST = dict(messages=4000, warmup_messages=400)


# ---------------------------------------------------------------- zero load
@pytest.mark.parametrize(
    "topo,routing,v,B,R",
    [
        (Torus((4, 5)), "duato", 3, 2, 1),
        (Torus((4, 4), bidirectional=False), "dor", 2, 2, 1),
        (Torus((3, 4)), "dor", 4, 4, 2),
        (Torus((4, 4)), "duato_nbc", 4, 3, 3),
        (Mesh((3, 4)), "duato", 2, 2, 1),
    ],
)
def test_zero_load_latency_formula(topo, routing, v, B, R):
    """latency = M + (h + 1) R at zero load (B >= 2), h the hop count."""
    M = 16
    r = simulate(topo, routing=routing, vcs=v, message_length=M, rate=2e-5, buffer_depth=B,
                 router_delay=R, messages=1000, warmup_messages=0, seed=5)
    expected = M + (r.mean_hops + 1) * R
    assert abs(r.latency - expected) <= max(r.latency_ci, 1e-9)
    assert r.latency == pytest.approx(expected, abs=0.05)
    assert r.source_wait == pytest.approx(0.0, abs=0.05)
    assert r.mean_hops == pytest.approx(topo.average_distance(), rel=0.1)


def test_zero_load_latency_buffer_one():
    """With one-flit buffers a VC streams a flit every other cycle: M + (h+1) R + (M - 1)."""
    M, R = 12, 2
    r = simulate(Torus((4, 4)), routing="duato", vcs=3, message_length=M, rate=2e-5, buffer_depth=1,
                 router_delay=R, messages=600, warmup_messages=0)
    assert r.latency == pytest.approx(2 * M - 1 + (r.mean_hops + 1) * R, abs=0.05)


# ---------------------------------------------------------------- throughput, Little, hops
@pytest.mark.parametrize(
    "topo,routing,v,M,rate",
    [
        (Torus((8, 8)), "duato", 3, 16, 0.006),
        (Torus((8, 8), bidirectional=False), "dor", 3, 16, 0.003),
        (Torus((6, 6)), "duato_nbc", 5, 8, 0.012),
    ],
)
def test_throughput_little_and_hops(topo, routing, v, M, rate):
    r = simulate(topo, routing=routing, vcs=v, message_length=M, rate=rate, messages=20000,
                 warmup_messages=2000, seed=11)
    assert not r.saturated
    # offered (nominal) equals accepted throughput within 2%
    assert r.throughput == pytest.approx(r.offered, rel=0.02)
    assert r.throughput == pytest.approx(r.measured_offered, rel=0.01)
    # Little's law: messages in the network = total throughput x network latency
    lam_tot = r.throughput * topo.n_nodes
    assert r.mean_in_network == pytest.approx(lam_tot * r.network_latency, rel=0.03)
    # minimal routing: mean hop count = exact average distance (closed form)
    exact = torus_average_distance(topo.radices, topo.bidirectional)
    assert r.mean_hops == pytest.approx(exact, rel=0.015)
    # utilisation = channel rate x flits: lambda * N * h * M / channels
    assert r.channel_utilisation == pytest.approx(rate * topo.n_nodes * exact * M / topo.n_channels, rel=0.03)
    # busy-VC distribution is a distribution; V-bar >= 1
    assert r.vc_busy_hist.sum() == pytest.approx(1.0)
    assert r.vc_busy_hist.shape == (v + 1,)
    assert 1.0 <= r.multiplexing <= v
    assert r.latency_ci > 0 and math.isfinite(r.latency)


def test_graph_hops_equal_bfs_average_distance():
    # a small irregular graph (ring with chords); low load keeps messages on minimal adaptive VCs
    edges = [(i, (i + 1) % 10) for i in range(10)] + [(0, 5), (2, 7), (3, 8)]
    g = Graph(edges)
    r = simulate(g, routing="updown", vcs=2, message_length=8, rate=0.001, messages=20000,
                 warmup_messages=500)
    assert r.mean_hops == pytest.approx(g.average_distance(), rel=0.02)
    assert r.throughput == pytest.approx(r.offered, rel=0.03)


def test_mmpp_traffic_runs_and_offered():
    src = IPP(0.02, 0.2, 0.8)
    r = simulate(Torus((4, 4)), routing="duato", vcs=3, message_length=8, traffic=src, **FAST)
    assert r.offered == pytest.approx(src.mean_rate)
    assert r.throughput == pytest.approx(src.mean_rate, rel=0.05)


def test_geometric_lengths():
    r = simulate(Torus((4, 4)), routing="duato", vcs=3, message_length=8, rate=0.004,
                 length_dist="geometric", **FAST)
    # flits per network channel per cycle = rate * N * h * E[M] / channels
    exp_util = 0.004 * 16 * Torus((4, 4)).average_distance() * 8 / 64
    assert r.channel_utilisation == pytest.approx(exp_util, rel=0.06)


# ---------------------------------------------------------------- saturation
def test_saturation_is_reported_not_a_latency():
    r = simulate(Torus((4, 4)), routing="duato", vcs=3, message_length=16, rate=0.1, **FAST)
    assert r.saturated and math.isinf(r.latency)
    assert r.throughput < 0.5 * r.offered


def test_target_ci_extends_run():
    r = simulate(Torus((4, 4)), routing="duato", vcs=3, message_length=8, rate=0.01, messages=500,
                 warmup_messages=100, target_ci=0.01)
    assert r.latency_ci <= 0.01 * r.latency
    assert r.messages >= 500


# ---------------------------------------------------------------- determinism
def test_same_seed_same_result():
    kw = dict(routing="duato_nbc", vcs=4, message_length=8, rate=0.01, messages=3000, warmup_messages=300)
    a = simulate(Torus((4, 4)), seed=3, **kw).to_dict()
    b = simulate(Torus((4, 4)), seed=3, **kw).to_dict()
    c = simulate(Torus((4, 4)), seed=4, **kw).to_dict()
    for d in (a, b, c):
        d.pop("wall_time")
    assert a == b
    assert a != c


# ---------------------------------------------------------------- deadlock detection
def test_deadlock_detected_without_escape_vcs(monkeypatch):
    """All VCs adaptive on a unidirectional ring (no dateline) deadlocks; the error says where."""
    import importlib

    S = importlib.import_module("models.sim.wormhole.common")  # the routing tables of both routers
    from models.sim.wormhole.routing import build

    def bad_tables(topo, routing, vcs, levels):
        rt = build(topo, routing, vcs, levels)
        return dataclasses.replace(rt, a0=0, has_escape=0)

    monkeypatch.setattr(S, "_tables", bad_tables)
    with pytest.raises(DeadlockError) as ei:
        simulate(Torus((6,), bidirectional=False), routing="dor", vcs=2, message_length=16, rate=0.2,
                 messages=5000, warmup_messages=0, saturation_backlog=10**5)
    e = ei.value
    assert e.cycle > 0 and len(e.channels) > 0
    assert "->" in e.channels[0]


# ---------------------------------------------------------------- no deadlock at 2x saturation
def _overload(topo, M):
    h = topo.average_distance()
    per_node = topo.n_channels / topo.n_nodes
    return 2.0 * min(per_node / (M * h), 1.0 / M)


CASES = [
    (Torus((3, 3), bidirectional=False), "dor", 2),
    (Torus((4, 5), bidirectional=False), "dor", 3),
    (Torus((3, 5)), "dor", 2),
    (Torus((3, 3)), "duato", 3),
    (Torus((4, 3)), "duato", 4),
    (Torus((3, 4), bidirectional=False), "duato", 3),
    (Torus((4, 4)), "duato_nbc", 4),
    (Torus((4, 6)), "duato_nbc", 5),
    (Torus((4, 4)), "nbc", 3),
    (Mesh((3, 4)), "duato", 2),
    (Mesh((3, 3)), "dor", 1),
    (Graph([(i, (i + 1) % 7) for i in range(7)] + [(0, 3), (1, 5)]), "updown", 2),
    (Graph([(i, (i + 1) % 6) for i in range(6)]), "updown", 1),
]


@pytest.mark.parametrize("topo,routing,v", CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_no_deadlock_at_twice_saturation(topo, routing, v):
    M = 8
    r = simulate(topo, routing=routing, vcs=v, message_length=M, rate=_overload(topo, M),
                 messages=10**6, warmup_messages=0, max_cycles=40_000, saturation_backlog=10**5,
                 buffer_depth=2)
    assert r.saturated
    assert r.flit_hops > 0.2 * 40_000 * topo.n_channels / 4  # the network kept moving


SLOW_CASES = [
    (Torus((8, 8), bidirectional=False), "dor", 2),
    (Torus((3, 3, 3), bidirectional=False), "dor", 3),
    (Torus((5, 7)), "duato", 3),
    (Torus((3, 4, 5)), "duato", 3),
    (Torus((8, 8)), "duato_nbc", 6),
    (Torus((6, 4)), "duato_nbc", 4),
    (Mesh((5, 5)), "duato", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize("topo,routing,v", SLOW_CASES, ids=lambda x: getattr(x, "name", str(x)))
@pytest.mark.parametrize("M,B", [(4, 1), (16, 2)])
def test_no_deadlock_long(topo, routing, v, M, B):
    r = simulate(topo, routing=routing, vcs=v, message_length=M, rate=_overload(topo, M),
                 messages=10**7, warmup_messages=0, max_cycles=400_000, saturation_backlog=10**6,
                 buffer_depth=B, length_dist="geometric" if B == 1 else "fixed")
    assert r.saturated


# ---------------------------------------------------------------- bad inputs
BASE = dict(routing="duato", vcs=3, message_length=8, rate=0.01)


@pytest.mark.parametrize(
    "change,name",
    [
        (dict(message_length=0), "message_length"),
        (dict(rate=0.0), "rate"),
        (dict(rate=-0.1), "rate"),
        (dict(buffer_depth=0), "buffer_depth"),
        (dict(routing="west_first"), "routing"),
        (dict(routing="duato", vcs=2), "vcs"),
        (dict(router_delay=0), "router_delay"),
        (dict(length_dist="pareto"), "length_dist"),
        (dict(traffic="bursty"), "traffic"),
        (dict(traffic=MMPP2(0.1, 0.0, 0.1, 0.1)), "rate"),  # rate given with an MMPP source
        (dict(batches=1), "batches"),
    ],
)
def test_bad_inputs(change, name):
    with pytest.raises(ParameterError, match=name):
        simulate(Torus((4, 4)), **{**BASE, **change})


def test_bad_routing_for_topology():
    with pytest.raises(ParameterError, match="routing"):
        simulate(Torus((4, 4), bidirectional=False), **{**BASE, "routing": "duato_nbc", "vcs": 10})
    with pytest.raises(ParameterError, match="routing"):
        simulate(Graph([(0, 1), (1, 2), (2, 0)]), **BASE)
    with pytest.raises(ParameterError, match="vcs"):
        simulate(Torus((8, 8)), **{**BASE, "routing": "duato_nbc", "vcs": 5})


def test_result_type_and_cache(tmp_cache):
    kw = dict(routing="duato", vcs=3, message_length=8, rate=0.005, messages=500, warmup_messages=50)
    a = simulate(Torus((4, 4)), cache=True, **kw)
    assert isinstance(a, WormholeResult)
    assert list((tmp_cache / "wormhole").glob("*.json"))
    b = simulate(Torus((4, 4)), cache=True, **kw)
    assert b.wall_time == a.wall_time  # read back, not recomputed


@pytest.mark.parametrize("router", ["ideal", "booksim"])
def test_max_cycles_beyond_int32_stamps_rejected(router):
    """The kernels keep cycle stamps in int32: a run that could reach 2**31 cycles is refused."""
    kw = dict(routing="dor", vcs=2, message_length=4, rate=0.01, router=router)
    with pytest.raises(ValueError, match="max_cycles"):
        simulate(Torus((4, 4)), max_cycles=2**31, **kw)
    r = simulate(Torus((4, 4)), max_cycles=2**31 - 16, messages=200, warmup_messages=20, **kw)
    assert r.cycles < 2**31
