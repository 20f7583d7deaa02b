"""Issue #12: router='booksim' (BookSim 2's iq router) and the throughput mode."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import (Mesh, ThroughputResult, Torus, WormholeResult, saturation_throughput,
                                 simulate)
from models.sim.wormhole.booksim import zero_load_latency

ZL = dict(routing="dor", rate=5e-6, messages=600, warmup_messages=0, router="booksim", seed=5)


# ---------------------------------------------------------------- zero load
@pytest.mark.parametrize(
    "topo,v,M,B",
    [
        (Torus((4, 4)), 2, 16, 8),
        (Torus((6, 6)), 4, 5, 7),
        (Torus((4, 6)), 2, 24, 5),
        (Torus((5, 5), bidirectional=False), 2, 32, 10),
        (Torus((3, 4, 3)), 2, 9, 8),
        (Mesh((4, 5)), 1, 12, 7),
    ],
)
def test_zero_load_latency_formula(topo, v, M, B):
    """latency = M + 5 (h + 1) + 1 at zero load for buffer_depth >= 5 (h hops)."""
    r = simulate(topo, vcs=v, message_length=M, buffer_depth=B, **ZL)
    expected = M + 5 * (r.mean_hops + 1) + 1
    assert abs(r.latency - expected) <= max(r.latency_ci, 1e-9)
    assert r.latency == pytest.approx(expected, abs=0.05)
    assert r.source_wait == pytest.approx(0.0, abs=0.05)
    assert r.network_latency == pytest.approx(r.latency, abs=0.05)


@pytest.mark.parametrize("M,B", [(8, 2), (12, 3), (16, 4), (6, 1)])
def test_zero_load_latency_small_buffers_recursion(M, B):
    """Credit-limited streaming: the exact max-plus recursion (linear in h, slope 5)."""
    r = simulate(Torus((4, 4)), vcs=2, message_length=M, buffer_depth=B, self_traffic=True, **ZL)
    z = [zero_load_latency(h, M, B) for h in range(5)]
    assert all(b - a == 5 for a, b in zip(z, z[1:]))
    expected = z[0] + 5 * r.mean_hops
    assert abs(r.latency - expected) <= max(r.latency_ci, 1e-9)
    assert r.latency == pytest.approx(expected, abs=0.05)
    assert z[0] > M + 5 + 1  # slower than the full-rate formula


def test_recursion_closed_form():
    for h in range(6):
        for M in (1, 2, 7, 20):
            for B in (5, 6, 8, 30):
                assert zero_load_latency(h, M, B) == M + 5 * (h + 1) + 1


def test_self_traffic_zero_hops():
    r = simulate(Torus((4, 4)), vcs=2, message_length=10, buffer_depth=8, self_traffic=True, **ZL)
    assert 0 < r.mean_hops < 2.1
    assert r.latency == pytest.approx(10 + 5 * (r.mean_hops + 1) + 1, abs=0.05)


# ---------------------------------------------------------------- loaded network
SAT = 0.030  # measured saturation of the configuration below (accepted messages/node/cycle; issue #24's
# ring partition: 0.029 with the per-hop dateline halves of vc_partition='hop')
THR = dict(routing="dor", vcs=4, message_length=16, buffer_depth=8)


def test_throughput_flat_past_saturation():
    """Accepted throughput at 1.2x and 2x saturation equal within 5 % (BookSim preset)."""
    a, b = saturation_throughput(Torus((8, 8)), rate=[1.2 * SAT, 2.0 * SAT], cycles=20_000,
                                 warmup_cycles=5_000, batches=10, router="booksim", **THR)
    assert isinstance(a, ThroughputResult)
    assert a.accepted < 1.2 * SAT and b.accepted < 2.0 * SAT  # saturated: accepted < offered
    assert b.accepted == pytest.approx(a.accepted, rel=0.05)
    assert a.accepted_flits == pytest.approx(16 * a.accepted, rel=0.01)
    assert 0 < a.accepted_ci < 0.05 * a.accepted


def test_throughput_below_saturation_equals_offered_both_routers():
    for router in ("booksim", "ideal"):
        r = saturation_throughput(Torus((4, 4)), rate=0.02, cycles=8_000, warmup_cycles=1_000, batches=4,
                                  router=router, routing="dor", vcs=2, message_length=8, buffer_depth=8)
        assert r.accepted == pytest.approx(0.02, rel=0.06)
        assert r.router == router


def test_loaded_run_little_and_offered():
    r = simulate(Torus((8, 8)), rate=0.015, messages=8000, warmup_messages=1000, router="booksim", **THR)
    assert isinstance(r, WormholeResult) and not r.saturated
    assert r.throughput == pytest.approx(0.015, rel=0.04)
    assert r.mean_in_network == pytest.approx(r.throughput * 64 * r.network_latency, rel=0.05)
    assert r.channel_utilisation == pytest.approx(0.015 * 16 * r.mean_hops / 4, rel=0.05)


def test_determinism_and_seed():
    kw = dict(rate=0.02, messages=3000, warmup_messages=300, router="booksim", **THR)
    a = simulate(Torus((6, 6)), seed=3, **kw)
    b = simulate(Torus((6, 6)), seed=3, **kw)
    c = simulate(Torus((6, 6)), seed=4, **kw)
    assert (a.latency, a.cycles, a.flit_hops) == (b.latency, b.cycles, b.flit_hops)
    assert a.latency != c.latency


@pytest.mark.parametrize("topo,v", [(Torus((5, 4)), 2), (Torus((4, 4), bidirectional=False), 4),
                                    (Torus((3, 3, 3)), 2), (Mesh((4, 4)), 1), (Torus((6, 6)), 4)])
@pytest.mark.parametrize("B", [1, 2, 8])
def test_no_deadlock_at_twice_saturation(topo, v, B):
    M = 8
    rate = 2.0 / (M * topo.average_distance() * topo.n_nodes / topo.n_channels) / 2  # >= 2x saturation
    r = simulate(topo, routing="dor", vcs=v, message_length=M, rate=rate, messages=10**6, warmup_messages=0,
                 max_cycles=20_000, saturation_backlog=10**5, buffer_depth=B, router="booksim")
    assert r.saturated
    assert r.flit_hops > 0.02 * 20_000 * topo.n_channels  # the network kept moving


def test_cache_keyed_by_router(tmp_cache):
    kw = dict(routing="dor", vcs=2, message_length=8, rate=0.005, messages=400, warmup_messages=40,
              buffer_depth=8, cache=True)
    a = simulate(Torus((4, 4)), router="booksim", **kw)
    b = simulate(Torus((4, 4)), **kw)
    assert a.latency > b.latency + 5  # a different model, not a cache hit
    assert len(list((tmp_cache / "wormhole").glob("*.json"))) == 2
    assert simulate(Torus((4, 4)), router="booksim", **kw).wall_time == a.wall_time


@pytest.mark.parametrize(
    "change,name",
    [
        (dict(routing="duato", vcs=4), "routing"),
        (dict(vcs=3), "vcs"),
        (dict(router_delay=2), "router_delay"),
        (dict(injection_vcs=2), "injection_vcs"),
        (dict(router="wormhole"), "router"),
        (dict(vcs=64), "at most 63 VCs"),
        (dict(ejection_vcs=64), "at most 63 VCs"),
    ],
)
def test_bad_inputs(change, name):
    kw = dict(routing="dor", vcs=2, message_length=8, rate=0.01, router="booksim")
    with pytest.raises(ParameterError, match=name):
        simulate(Torus((4, 4)), **{**kw, **change})


# ---------------------------------------------------------------- routings and wait_for_tail_credit
def _twice_saturation(topo, M):
    """The rate at which the mean channel load is 1 flit/cycle: at least 2x the saturation rate."""
    return 1.0 / (M * topo.average_distance() * topo.n_nodes / topo.n_channels)


@pytest.mark.parametrize(
    "routing,topo,v,B,wtc",
    [
        ("dor", Torus((8, 8)), 4, 8, True),
        ("nbc", Torus((8, 8)), 5, 2, False),
        ("nbc", Torus((8, 8)), 5, 8, True),
        ("updown", Mesh((6, 6)), 1, 2, False),
        ("duato", Torus((8, 8)), 4, 8, True),  # deadlocks at cycle ~8000 with wait_for_tail_credit=False
        ("duato", Torus((6, 6)), 3, 2, True),
        ("duato", Mesh((6, 6)), 2, 4, True),
        ("duato_nbc", Torus((8, 8)), 6, 2, True),
        ("duato_nbc", Torus((6, 6)), 6, 8, True),
        ("updown", Mesh((6, 6)), 3, 2, True),
        ("updown", Torus((5, 5)), 2, 8, True),
    ],
)
def test_routings_no_deadlock_at_twice_saturation(routing, topo, v, B, wtc):
    M = 8
    r = simulate(topo, routing=routing, vcs=v, message_length=M, rate=_twice_saturation(topo, M), messages=10**6,
                 warmup_messages=0, max_cycles=15_000, saturation_backlog=10**5, buffer_depth=B, router="booksim",
                 wait_for_tail_credit=wtc)
    assert r.saturated
    assert r.params["wait_for_tail_credit"] is wtc and r.params["routing"] == routing
    assert r.flit_hops > 0.02 * r.cycles * topo.n_channels  # the network kept moving


@pytest.mark.parametrize("routing,v", [("duato", 4), ("duato_nbc", 4), ("updown", 2)])
def test_adaptive_routings_need_wait_for_tail_credit(routing, v):
    kw = dict(routing=routing, vcs=v, message_length=8, rate=0.01, router="booksim")
    with pytest.raises(ValueError, match="wait_for_tail_credit=True"):
        simulate(Torus((4, 4)), **kw)
    r = simulate(Torus((4, 4)), messages=200, warmup_messages=0, wait_for_tail_credit=True, **kw)
    assert not r.saturated


def test_wait_for_tail_credit_zero_load_and_options():
    """Atomic VC reallocation changes nothing at zero load; the ideal router refuses the option."""
    kw = dict(vcs=2, message_length=16, buffer_depth=8, **ZL)
    a = simulate(Torus((4, 4)), **kw)
    b = simulate(Torus((4, 4)), wait_for_tail_credit=True, **kw)
    assert b.latency == pytest.approx(a.latency, abs=0.05)
    with pytest.raises(ParameterError, match="wait_for_tail_credit"):
        simulate(Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.01, wait_for_tail_credit=True)
    with pytest.raises(ParameterError, match="wait_for_tail_credit"):
        simulate(Torus((4, 4)), wait_for_tail_credit=1, **kw)
    assert simulate(Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.01, messages=100,
                    warmup_messages=0).params["router"] == "ideal"


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_engine_state_arrays_start_on_a_cache_line(dtype):
    """The booksim engine's per-VC rows (32 bytes) must not straddle two cache lines: the array
    starts on a 64-byte boundary whatever address NumPy gives the allocation, has ``n`` zeros
    and is writable."""
    from models.sim.wormhole.booksim import _aligned

    for n in (1, 7, 1000, 49152):
        for _ in range(4):
            a = _aligned(n, dtype)
            assert a.ctypes.data % 64 == 0
            assert a.shape == (n,) and a.dtype == dtype and not a.any()
            a[:] = 1
            assert a.sum() == n
