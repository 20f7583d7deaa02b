"""Issue #24: BookSim's own routing rules under router='booksim'.

* ``dor`` on a bidirectional torus takes ``dim_order_torus``'s ring partition, chosen where a
  message enters a dimension (``vc_partition='entry'``, the default), instead of the per-hop
  dateline halves (``'hop'``, kept as an option);
* ``min_adapt`` is ``min_adapt_torus``.

The VC-half occupancy of each ring channel is a closed form of the rule: it is derived here by
counting source / destination pairs and checked against the simulator's per-VC flit counts.
"""

from fractions import Fraction

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import Mesh, Torus, saturation_throughput, simulate
from models.sim.wormhole.booksim import _engine, channel_vc_flits, run_booksim_cycles

K8 = 8
#: the keywords of the engine's entry points (:func:`run_booksim_cycles`, :func:`_engine`) a test leaves at
#: simulate()'s defaults
_ENGINE_DEFAULTS = dict(injection_vcs=None, ejection_vcs=None, traffic="poisson", length_dist="fixed", messages=1,
                        warmup_messages=0, target_ci=None, max_messages=None, router_delay=1, escape_levels=None,
                        self_traffic=False, wait_for_tail_credit=False)


# ---------------------------------------------------------------- the closed form
def enumerated_upper_share(k, direction, i, rule="entry", tie="random"):
    """Share of the upper half (partition 1) among the messages crossing ring channel ``i -> i + 1``
    (``direction=+1``) or ``i -> i - 1`` (``-1``) of a ``k``-ring, by counting: every source / destination
    pair ``s != d`` of the ring has the same weight (uniform traffic, and on a torus every message
    enters a ring dimension at its source's coordinate there); the direction is the shorter one, an
    offset of ``k/2`` goes each way with weight 1/2 (``tie='random'``) or ``+`` (``'plus'``).  Partition:
    ``'entry'`` BookSim's ``s > d`` for the whole dimension; ``'hop'`` the dateline class at each hop
    (1 while the wrap link is still ahead)."""
    up = tot = Fraction(0)
    for s in range(k):
        for d in range(k):
            if s == d:
                continue
            fwd = (d - s) % k
            ways = []
            if 2 * fwd < k:
                ways = [(+1, fwd, Fraction(1))]
            elif 2 * fwd > k:
                ways = [(-1, k - fwd, Fraction(1))]
            elif tie == "random":
                ways = [(+1, fwd, Fraction(1, 2)), (-1, fwd, Fraction(1, 2))]
            else:
                ways = [(+1, fwd, Fraction(1))]
            for sg, hops, w in ways:
                if sg != direction:
                    continue
                node = s
                for _ in range(hops):
                    if node == i:
                        if rule == "entry":
                            part = 1 if s > d else 0
                        else:  # wrap link (k-1 -> 0 for '+', 0 -> k-1 for '-') still ahead
                            part = 1 if (node >= d if sg > 0 else node <= d) else 0
                        up += w * part
                        tot += w
                    node = (node + sg) % k
    return up / tot


def closed_form_upper_share(k, direction, i, rule="entry"):
    """The closed form for ``tie='random'`` (even ``k``).  A ``+`` message of offset ``f`` crosses the
    channel at distance ``a`` from the wrap link ``k-1 -> 0`` (``a = 0``: the wrap link) and the wrap
    link both iff ``f > a``, from ``f - a`` of its ``k`` sources; with weight 1 for ``f < k/2`` and 1/2
    for ``f = k/2`` the wrapping weight is ``sum_{f > a} w_f (f - a) = (k/2 - a)^2 / 2`` out of
    ``(k/2)^2 / 2`` on every channel, a share ``(1 - 2a/k)^2``.

    * ``'entry'``, ``+`` channel ``i -> i+1``: the wrapping messages are the upper half on every hop,
      ``(1 - 2a/k)^2`` with ``a = min(i + 1, k - 1 - i)``: for ``k = 8``, ``i = 0..7``:
      9/16, 1/4, 1/16, 0, 1/16, 1/4, 9/16, 1;
    * ``'entry'``, ``-`` channel ``i -> i-1``: the *non*-wrapping messages are the upper half,
      ``1 - (1 - 2a/k)^2`` with ``a = min(i, k - i)``;
    * ``'hop'``: only before the wrap link: ``+`` ``(1 - 2(k-1-i)/k)^2`` for ``i >= k/2``, else 0;
      ``-`` ``(1 - 2i/k)^2`` for ``i < k/2``, else 0 (half the channels carry one half only).
    """
    h = Fraction(k, 2)

    def wrap(a):
        return (1 - Fraction(a) / h) ** 2 if a < h else Fraction(0)

    if rule == "entry":
        if direction > 0:
            return wrap(min(i + 1, k - 1 - i))
        return 1 - wrap(min(i, k - i))
    if direction > 0:
        return wrap(k - 1 - i) if i >= k // 2 else Fraction(0)
    return wrap(i) if i < k // 2 else Fraction(0)


@pytest.mark.parametrize("k", [4, 6, 8, 10, 16])
@pytest.mark.parametrize("rule", ["entry", "hop"])
def test_closed_form_equals_enumeration(k, rule):
    for direction in (+1, -1):
        for i in range(k):
            assert closed_form_upper_share(k, direction, i, rule) == enumerated_upper_share(k, direction, i, rule)


def test_closed_form_k8_values():
    plus = [closed_form_upper_share(8, +1, i) for i in range(8)]
    assert plus == [Fraction(9, 16), Fraction(1, 4), Fraction(1, 16), 0, Fraction(1, 16), Fraction(1, 4),
                    Fraction(9, 16), 1]
    minus = [closed_form_upper_share(8, -1, i) for i in range(8)]
    assert minus == [0, Fraction(7, 16), Fraction(3, 4), Fraction(15, 16), 1, Fraction(15, 16), Fraction(3, 4),
                     Fraction(7, 16)]


# ---------------------------------------------------------------- the simulator's VC halves
def _ring_shares(topo, vf, V):
    """Per ring position ``i`` and direction: flits in the upper half, all flits (summed over every
    ring of both dimensions)."""
    _, src, _, port = topo.channels
    coords = topo.coords()
    k = topo.radices[0]
    out = {}
    for direction in (+1, -1):
        up = np.zeros(k)
        tot = np.zeros(k)
        for c in range(src.size):
            dim, sg = topo.port_dim_dir(int(port[c]))
            if sg == direction:
                i = coords[src[c], dim]
                up[i] += vf[c, V // 2:].sum()
                tot[i] += vf[c].sum()
        out[direction] = (up, tot)
    return out


@pytest.mark.parametrize("rule,tie", [("entry", "random"), ("entry", "plus"), ("hop", "random")])
def test_vc_half_occupancy_per_channel_equals_closed_form(rule, tie):
    """8x8 torus, DOR, 4 VCs, uniform traffic at a low load: on every ring channel the share of flits in
    VCs 2-3 is BookSim's closed form (exactly 0 or 1 where the form is, within 5 binomial standard
    errors of the messages elsewhere)."""
    topo = Torus((K8, K8))
    M, V = 8, 4
    _, _, s = run_booksim_cycles(topo, warmup_cycles=2_000, run_cycles=60_000, routing="dor", vcs=V, message_length=M,
                                 buffer_depth=8, rate=0.01, batches=4, seed=2, tie=tie, vc_partition=rule,
                                 **_ENGINE_DEFAULTS)
    vf = channel_vc_flits(s)
    # the per-VC split of the channel counts (a flit counted on arrival, 3 cycles after its send)
    assert vf.sum(axis=1) == pytest.approx(s.sw.ch["flits"][:s.C], abs=3)
    shares = _ring_shares(topo, vf, V)
    for direction in (+1, -1):
        up, tot = shares[direction]
        for i in range(K8):
            expect = float(enumerated_upper_share(K8, direction, i, rule, tie))
            if tie == "random":
                assert expect == float(closed_form_upper_share(K8, direction, i, rule))
            got = up[i] / tot[i]
            if expect in (0.0, 1.0):
                assert got == expect, (direction, i)
            else:
                n = tot[i] / M  # messages: the flits of one message share a half
                assert abs(got - expect) < 5 * np.sqrt(expect * (1 - expect) / n) + 1e-3, (direction, i, got, expect)


def test_hop_rule_leaves_half_the_ring_on_one_half():
    """The rule issue #24 replaced: with the per-hop dateline, channels 0-3 of a '+' ring carry the lower
    half only; with BookSim's rule only channel 3 does (and channel 7, the wrap link, the upper only)."""
    for rule, single in (("hop", {0, 1, 2, 3, 7}), ("entry", {3, 7})):
        assert {i for i in range(K8) if closed_form_upper_share(K8, +1, i, rule) in (0, 1)} == single


# ---------------------------------------------------------------- zero load, per hop count
@pytest.mark.parametrize("routing,extra", [("dor", {}), ("dor", dict(vc_partition="hop")), ("min_adapt", {}),
                                           ("min_adapt", dict(wait_for_tail_credit=True))])
def test_zero_load_latency_per_hop_count(routing, extra):
    """At zero load a message of ``h`` hops has latency ``M + 5 (h + 1) + 1``, for every hop count: the
    least latency and the median of the messages of each hop count are that (a rare message may meet
    another one), and the hops are minimal (min_adapt's VC 3 stays on the dimension-order path)."""
    topo = Torus((6, 6))
    M = 12
    kw = dict(_ENGINE_DEFAULTS, **extra)
    kw.update(routing=routing, vcs=4, message_length=M, buffer_depth=8, rate=5e-6, messages=1500, batches=5,
              max_cycles=None, saturation_backlog=None, seed=7, tie="random")
    s = _engine(topo, **kw)
    done = s.tags.done == 1
    lat, hops = s.tags.lat[done], s.tags.hops[done]
    assert done.sum() >= 1500
    assert set(np.unique(hops)) == {1, 2, 3, 4, 5, 6}
    for h in np.unique(hops):
        x = lat[hops == h]
        assert x.min() == M + 5 * (h + 1) + 1 and np.median(x) == M + 5 * (h + 1) + 1, h
    assert (lat == M + 5 * (hops + 1) + 1).mean() > 0.99
    assert hops.mean() == pytest.approx(topo.average_distance(), rel=0.05)


# ---------------------------------------------------------------- saturation
#: accepted throughput past saturation, messages/node/cycle, of the configuration below (measured)
SAT = {("min_adapt", False): 0.025, ("min_adapt", True): 0.0215}
THR = dict(vcs=4, message_length=16, buffer_depth=8)


@pytest.mark.parametrize("wtc", [False, True])
def test_min_adapt_throughput_flat_past_saturation(wtc):
    """Accepted throughput at 1.2x and 2x saturation equal within 5 % (throughput mode)."""
    sat = SAT[("min_adapt", wtc)]
    a, b = saturation_throughput(Torus((8, 8)), rate=[1.2 * sat, 2.0 * sat], cycles=20_000, warmup_cycles=5_000,
                                 batches=10, router="booksim", routing="min_adapt", wait_for_tail_credit=wtc, **THR)
    assert a.accepted < 1.2 * sat and b.accepted < 2.0 * sat
    assert b.accepted == pytest.approx(a.accepted, rel=0.05)
    assert a.accepted == pytest.approx(sat, rel=0.05)


def test_entry_partition_raises_saturation_throughput():
    """BookSim's partition uses both halves on more channels than the per-hop dateline: past saturation
    the preset accepts more (8x8, 4 VCs x 8 flits, M = 32, 1.4x saturation: about 0.0140 against
    0.0135 messages/node/cycle)."""
    kw = dict(rate=0.02, cycles=60_000, warmup_cycles=20_000, batches=10, router="booksim", routing="dor", vcs=4,
              buffer_depth=8, message_length=32)
    entry = saturation_throughput(Torus((8, 8)), **kw)
    hop = saturation_throughput(Torus((8, 8)), vc_partition="hop", **kw)
    assert entry.accepted > hop.accepted + entry.accepted_ci + hop.accepted_ci
    assert entry.accepted > 1.02 * hop.accepted


def _twice_saturation(topo, M):
    """The rate at which the mean channel load is 1 flit/cycle: at least 2x the saturation rate."""
    return 1.0 / (M * topo.average_distance() * topo.n_nodes / topo.n_channels)


@pytest.mark.parametrize("wtc", [False, True])
@pytest.mark.parametrize("topo,v,B,M", [(Torus((8, 8)), 4, 8, 8), (Torus((8, 8)), 5, 2, 8), (Torus((6, 6)), 4, 8, 4)])
def test_min_adapt_no_deadlock_at_twice_saturation(topo, v, B, M, wtc):
    """min_adapt at twice saturation keeps moving with either wait_for_tail_credit.  With True it is
    deadlock-free (a header on VC 3 is always at the front of its buffer and may take its escape VC);
    with False (BookSim's default) a cycle of headers queued behind tails in VC 3 is possible in
    principle when ``M <= floor(k/2) B - 2`` (the first and third cases; impossible in the second) but
    was never found (see :mod:`models.sim.wormhole.booksim`), while ``duato`` deadlocks in such runs."""
    r = simulate(topo, routing="min_adapt", vcs=v, message_length=M, rate=_twice_saturation(topo, M), messages=10**6,
                 warmup_messages=0, max_cycles=30_000, saturation_backlog=10**5, buffer_depth=B, router="booksim",
                 wait_for_tail_credit=wtc)
    assert r.saturated
    assert r.params["wait_for_tail_credit"] is wtc and r.params["routing"] == "min_adapt"
    assert r.flit_hops > 0.02 * r.cycles * topo.n_channels  # the network kept moving


def test_min_adapt_network_vcs():
    """min_adapt offers VCs 0, 1 (escape) and 3 (adaptive) on network channels, never 2 or 4."""
    topo = Torus((6, 6))
    _, _, s = run_booksim_cycles(topo, warmup_cycles=1_000, run_cycles=10_000, routing="min_adapt", vcs=5,
                                 message_length=8, buffer_depth=4, rate=0.03, batches=2, seed=1,
                                 **dict(_ENGINE_DEFAULTS, tie="random"))
    per_vc = channel_vc_flits(s).sum(axis=0)
    assert per_vc[2] == 0 and per_vc[4] == 0
    assert per_vc[0] > 0 and per_vc[1] > 0 and per_vc[3] > 0


def test_min_adapt_and_entry_tables():
    """The adaptive port is the lowest unresolved dimension's ('-' at an offset of k/2, BookSim's
    ``dist2 > 0`` test); the escape VC is ``cur > dest`` in that dimension, whatever the direction."""
    from models.sim.wormhole.routing import build, entry_partition

    topo = Torus((8, 8))
    rt = build(topo, "min_adapt", 4)
    N, P = topo.nbr.shape
    minp = rt.minp.reshape(N, N, P)[:, :, 0]
    part = entry_partition(topo)
    node = lambda x, y: x + 8 * y  # noqa: E731
    cases = [((0, 0), (3, 5), 0, 0), ((0, 0), (4, 5), 1, 0), ((0, 0), (5, 5), 1, 0), ((6, 2), (1, 2), 0, 1),
             ((6, 2), (4, 2), 1, 1), ((3, 0), (3, 4), 3, 0), ((3, 6), (3, 1), 2, 1), ((3, 1), (3, 6), 3, 0)]
    for u, d, port, ph in cases:
        assert minp[node(*u), node(*d)] == port, (u, d)
        assert part[node(*u), node(*d)] == ph, (u, d)
        assert rt.escv[node(*u) * N + node(*d)] == ph
    assert (rt.escv == rt.tie_escv).all() and rt.a0 == 3


# ---------------------------------------------------------------- parameters
BASE = dict(message_length=8, rate=0.01, messages=200, warmup_messages=0)


def test_vc_partition_recorded_and_defaults():
    bi = simulate(Torus((4, 4)), routing="dor", vcs=2, router="booksim", **BASE)
    uni = simulate(Torus((4, 4), bidirectional=False), routing="dor", vcs=2, router="booksim", **BASE)
    mesh = simulate(Mesh((4, 4)), routing="dor", vcs=1, router="booksim", **BASE)
    ma = simulate(Torus((4, 4)), routing="min_adapt", vcs=4, router="booksim", **BASE)
    hop = simulate(Torus((4, 4)), routing="dor", vcs=2, router="booksim", vc_partition="hop", **BASE)
    assert [r.params["vc_partition"] for r in (bi, uni, mesh, ma, hop)] == ["entry", "hop", None, "entry", "hop"]
    assert "vc_partition" not in simulate(Torus((4, 4)), routing="dor", vcs=2, **BASE).params


@pytest.mark.parametrize(
    "topo,kw,match",
    [
        (Torus((4, 4)), dict(routing="min_adapt", vcs=3), "`vcs` must be >= 4"),
        (Torus((4, 4)), dict(routing="min_adapt", vcs=4, router="ideal"), "router='booksim' only"),
        (Mesh((4, 4)), dict(routing="min_adapt", vcs=4), "bidirectional torus"),
        (Torus((4, 4), bidirectional=False), dict(routing="min_adapt", vcs=4), "bidirectional torus"),
        (Torus((4, 4)), dict(routing="dor", vcs=2, vc_partition="dateline"), "vc_partition"),
        (Torus((4, 4), bidirectional=False), dict(routing="dor", vcs=2, vc_partition="entry"), "vc_partition"),
        (Torus((4, 4)), dict(routing="min_adapt", vcs=4, vc_partition="hop"), "vc_partition"),
        (Torus((4, 4)), dict(routing="nbc", vcs=4, vc_partition="hop"), "vc_partition"),
        (Mesh((4, 4)), dict(routing="dor", vcs=1, vc_partition="entry"), "vc_partition"),
        (Torus((4, 4)), dict(routing="dor", vcs=2, vc_partition="hop", router="ideal"), "vc_partition"),
    ],
)
def test_bad_inputs(topo, kw, match):
    kw = {**BASE, "router": "booksim", **kw}
    with pytest.raises(ParameterError, match=match):
        simulate(topo, **kw)
