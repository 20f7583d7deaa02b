"""Same seed, same result across kernel rewrites: exact values of the simulator before the issue #12 kernel
restructuring (commit b9d7a97) on configurations that exercise every routing kind, MMPP/IPP traffic,
geometric lengths, buffer_depth=1, injection_vcs=1 with self traffic, random and '+' ties, router_delay=2,
two ejection VCs, saturation and target_ci.  A kernel change that alters the random stream or the order of
events fails here.  (latency, network latency, throughput, cycles, flit-hops, routing attempts, channel visits)

Re-pinned in issue #36, with the reasons: the traversal visits only the VCs that wait for a flit (a channel
whose VCs all hold their tails leaves the active list), so the channel visits drop and the list's order, and
with it the order of the headers that reach their routers in the same cycle, changes; the ideal router draws
the order of a header's minimal ports from the run's stream (a fair order, :mod:`test_wormhole_tie_order`),
which changes every adaptive run.  Unchanged to the last digit: the DOR runs on the bidirectional torus
(``dor_bidir_*``, ``inj1_self``, ``ipp_r2_ej2``).  That the changed runs agree with the old ones within the noise
is tested in :mod:`test_wormhole_repin` (many seeds, old kernel's means pinned).
"""

import math

import pytest

from models.sim.wormhole import IPP, MMPP2, Graph, Mesh, Torus, simulate

G = Graph([(i, (i + 1) % 9) for i in range(9)] + [(0, 4), (2, 7), (1, 5)])
CASES = {
    "dor_bidir_tie": (Torus((8, 8)), dict(routing="dor", vcs=3, message_length=16, rate=0.006)),
    "dor_bidir_plus": (Torus((8, 8)), dict(routing="dor", vcs=4, message_length=16, rate=0.008, buffer_depth=4, tie="plus")),
    "duato": (Torus((8, 8)), dict(routing="duato", vcs=4, message_length=16, rate=0.01)),
    "duato_nbc": (Torus((6, 6)), dict(routing="duato_nbc", vcs=5, message_length=8, rate=0.02)),
    "nbc": (Torus((4, 4)), dict(routing="nbc", vcs=3, message_length=8, rate=0.02)),
    "updown": (G, dict(routing="updown", vcs=2, message_length=8, rate=0.01)),
    "mmpp_uni": (Torus((8, 8), bidirectional=False), dict(routing="dor", vcs=3, message_length=16, traffic=MMPP2(0.01, 0.001, 0.01, 0.02))),
    "geometric": (Torus((6, 6)), dict(routing="duato", vcs=3, message_length=10, rate=0.008, length_dist="geometric")),
    "b1": (Mesh((5, 5)), dict(routing="duato", vcs=2, message_length=8, rate=0.01, buffer_depth=1)),
    "inj1_self": (Torus((8, 8)), dict(routing="dor", vcs=3, message_length=16, rate=0.006, injection_vcs=1, self_traffic=True)),
    "ipp_r2_ej2": (Torus((6, 6)), dict(routing="dor", vcs=2, message_length=8, traffic=IPP(0.05, 0.1, 0.3), router_delay=2, ejection_vcs=2)),
    "saturated": (Torus((6, 6)), dict(routing="dor", vcs=2, message_length=16, rate=0.05)),
    "target_ci": (Torus((4, 4)), dict(routing="duato", vcs=3, message_length=8, rate=0.02, target_ci=0.01)),
}

GOLDEN = {
    'dor_bidir_tie': (27.3825, 27.3825, 0.006092566977285964, 11428, 356033, 23139, 534382),
    'dor_bidir_plus': (30.59, 30.5895, 0.008087099266125917, 8574, 357406, 23639, 540003),
    'duato': (33.30775, 33.29125, 0.010289446721311475, 6791, 360333, 24439, 636908),
    'duato_nbc': (15.8485, 15.83525, 0.020017953321364454, 6185, 143623, 19267, 227387),
    'nbc': (14.44775, 14.40075, 0.02069385899661129, 13493, 109650, 14891, 180267),
    'updown': (12.22625, 12.179, 0.01003239654169425, 48979, 99720, 12876, 148944),
    'mmpp_uni': (62.301, 61.26425, 0.0070749747134187455, 9828, 575232, 46417, 1051209),
    'geometric': (16.1295, 16.127, 0.008155726058539358, 14991, 175809, 18588, 251204),
    'b1': (21.03725, 20.93425, 0.0101906941266209, 17414, 152412, 19991, 363011),
    'inj1_self': (26.5055, 25.25375, 0.006086737908306678, 11441, 352276, 22762, 500265),
    'ipp_r2_ej2': (79.91, 37.90725, 0.03617312217770146, 3837, 162330, 34991, 364257),
    'saturated': (math.inf, math.inf, 0.021703919663103338, 1205, 61087, 9447, 160547),
    'target_ci': (13.998962962962963, 13.965135802469137, 0.019951021340982884, 64710, 517194, 69656, 832252),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bit_identical_to_reference(name):
    topo, kw = CASES[name]
    r = simulate(topo, seed=7, messages=4000, warmup_messages=400, **kw)
    got = (r.latency, r.network_latency, r.throughput, r.cycles, r.flit_hops,
           r.work["routing_attempts"], r.work["channel_visits"])
    assert got == GOLDEN[name]
