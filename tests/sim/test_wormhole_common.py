"""What the two routers share (issue #23): one check of the keywords both take, one summary, one routing
decode and one iSLIP arbitration step in the kernels."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import ROUTINGS, Torus, simulate
from models.sim.wormhole import kernel as K
from models.sim.wormhole import steps
from models.sim.wormhole.booksim_kernel import _first_from, _offer
from models.sim.wormhole.routing import build

BASE = dict(routing="dor", vcs=2, message_length=8, rate=0.01, messages=200, warmup_messages=20)


@pytest.mark.parametrize("change", [
    dict(message_length=0), dict(buffer_depth=0), dict(length_dist="pareto"), dict(traffic="bursty"),
    dict(rate=-1.0), dict(batches=1), dict(seed=-1), dict(tie="minus"), dict(self_traffic=1),
    dict(max_cycles=2**31), dict(target_ci=2.0), dict(saturation_backlog=0), dict(warmup_messages=-1),
    dict(max_messages=100),
])
def test_shared_keywords_are_checked_once(change):
    """A keyword both routers take is refused by both with the same message (:func:`.common.check_run`)."""
    messages = []
    for router in ("ideal", "booksim"):
        with pytest.raises(ParameterError) as err:
            simulate(Torus((4, 4)), **{**BASE, **change}, router=router)
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_routing_is_checked_against_the_routing_table():
    with pytest.raises(ParameterError) as err:
        simulate(Torus((4, 4)), **{**BASE, "routing": "west_first"})
    assert all(repr(r) in str(err.value) for r in ROUTINGS)


def test_both_routers_report_the_same_parameters():
    """One summary: the same result fields and parameters, the router's own (injection and ejection VCs,
    ``wait_for_tail_credit``, ``vc_partition``) apart."""
    ideal = simulate(Torus((4, 4)), **BASE)
    booksim = simulate(Torus((4, 4)), **BASE, router="booksim")
    assert set(booksim.params) == set(ideal.params) | {"wait_for_tail_credit", "vc_partition"}
    differ = {k for k in ideal.params if ideal.params[k] != booksim.params[k]}
    assert differ == {"router", "injection_vcs", "ejection_vcs"}
    assert (ideal.params["injection_vcs"], ideal.params["ejection_vcs"]) == (2, 1)
    assert (booksim.params["injection_vcs"], booksim.params["ejection_vcs"]) == (1, 2)
    assert set(ideal.work) - {"routing_attempts", "vc_visits"} == {"generated", "delivered"}
    assert set(booksim.work) - {"vc_alloc_requests", "sw_alloc_requests"} == {"generated", "delivered"}


def _decode(topo, routing, vcs, u, d, *, a0=None, half=0, vej=1, first=False):
    """The VCs :func:`.steps.allowed` lists with every VC free, as (channel, index in the channel)."""
    rt = build(topo, routing, vcs, None)
    net = steps.pack_net(rt, topo.channels[0])
    N, P = topo.nbr.shape
    C = topo.channels[1].size
    nvc = np.concatenate([np.full(C, rt.vcs), np.full(N, rt.vcs), np.full(N, vej)])
    vbase = np.concatenate([[0], np.cumsum(nvc)]).astype(np.int32)
    cfg = K.Config(n=N, p=P, v=rt.vcs, b=2, r=1, routing=rt.kind, a0=rt.a0 if a0 is None else a0,
                   has_esc=rt.has_escape, escape_levels=rt.escape_levels, half=half, traffic=0, length=0, M=8,
                   geop=0.125, rate=0.01, warmup=0, maxcyc=10, satlim=10, dlthresh=10, tie=0, self_traffic=0,
                   streams=1, vej=vej, lw=0, kb=2, masks=1)
    inuse = np.zeros(vbase[-1], np.int8)  # BookSim's flags: all free
    out = np.zeros(vbase[-1], np.int32)
    n = steps.allowed(u, d, 0, 0, 0, cfg, net.route, net.minp, net.pchan, vbase, C + N + u, inuse, out, first)
    chan = np.searchsorted(vbase, out[:n], side="right") - 1
    return [(int(c), int(b - vbase[c])) for c, b in zip(chan, out[:n])]


def test_one_routing_decode_for_both_routers():
    """``dor`` with 4 VCs as the ideal router has it: the adaptive class (VCs 2, 3) on the DOR port, then
    its escape VC, and the first of them (its grant); BookSim's (``a0 = V``, ``half = 2``): the dateline
    half of the VCs on the same port.  At the destination: the ejection channel's VCs."""
    topo = Torus((4, 4))
    ideal = _decode(topo, "dor", 4, 0, 1)
    (ch, v2), (ch3, v3), (esc_ch, v) = ideal
    assert (v2, v3) == (2, 3) and ch3 == ch == esc_ch and v < 2
    assert _decode(topo, "dor", 4, 0, 1, first=True) == ideal[:1]
    assert _decode(topo, "dor", 4, 0, 1, a0=4, half=2) == [(ch, 2 * v), (ch, 2 * v + 1)]
    N, C = topo.n_nodes, topo.channels[1].size
    assert _decode(topo, "dor", 4, 3, 3, vej=2) == [(C + N + 3, 0), (C + N + 3, 1)]


def test_first_from_is_the_offers_winner_for_every_mask_and_pointer():
    """The switch allocator's arbiter over a bit mask picks what :func:`_offer` picks from the same requests, and the
    position first in round-robin order from the pointer (a pointer past the last position is 0): every non-empty
    mask of 1 to 6 positions, every pointer, and the widest positions (62, 63) of a 64-bit mask."""
    for size in range(1, 7):
        for m in range(1, 1 << size):
            pos = [i for i in range(size) if m >> i & 1]
            for k in range(size + 1):
                best = np.full(1, -1, np.int64)
                touched = np.zeros(2, np.int32)
                for p in pos:
                    _offer(best, touched, 0, 0, p, k, size, p)
                order = [(k + i) % size for i in range(size)]
                first = next(p for p in order if p in pos)
                assert _first_from(np.int64(m), np.int64(k)) == best[0] & 0xFFFFFFFF == first
    wide = np.int64(1) << 62 | np.int64(1) << 3
    assert _first_from(wide, np.int64(4)) == 62 and _first_from(wide, np.int64(63)) == 3
    assert _first_from(np.int64(-1) << 63 | np.int64(1), np.int64(1)) == 63


def test_offer_keeps_the_first_request_from_the_pointer():
    """iSLIP arbitration: the request first in round-robin order from the arbiter's pointer wins, whatever
    the order of the requests; an arbiter is listed once."""
    best = np.full(3, -1, np.int64)
    touched = np.zeros(3, np.int32)
    n = 0
    for pos, who in [(0, 10), (3, 13), (1, 11)]:  # arbiter 2, pointer at 2 of 4 positions: 3 comes first
        n = _offer(best, touched, n, 2, pos, 2, 4, who)
    n = _offer(best, touched, n, 0, 1, 1, 4, 7)
    assert n == 2 and list(touched[:n]) == [2, 0]
    assert best[2] & 0xFFFFFFFF == 13 and best[2] >> 32 == 1
    assert best[0] & 0xFFFFFFFF == 7 and best[1] == -1
