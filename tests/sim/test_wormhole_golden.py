"""Same seed, same result across kernel rewrites: exact values of the simulator before the issue #12 kernel
restructuring (commit b9d7a97) on configurations that exercise every routing kind, MMPP/IPP traffic,
geometric lengths, buffer_depth=1, injection_vcs=1 with self traffic, random and '+' ties, router_delay=2,
two ejection VCs, saturation and target_ci.  A kernel change that alters the random stream or the order of
events fails here.  (latency, network latency, throughput, cycles, flit-hops, routing attempts, channel visits)
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
    'dor_bidir_tie': (27.3825, 27.3825, 0.006092566977285964, 11428, 356033, 23139, 557131),
    'dor_bidir_plus': (30.59, 30.5895, 0.008087099266125917, 8574, 357406, 23639, 576590),
    'duato': (33.6205, 33.6205, 0.010134999195235797, 6905, 357964, 24315, 664304),
    'duato_nbc': (15.8675, 15.8675, 0.02021392313270486, 6087, 144523, 19410, 250132),
    'nbc': (14.362, 14.316, 0.020208434123528463, 13667, 110292, 14945, 195010),
    'updown': (12.16975, 12.115, 0.010103075090354756, 48495, 99056, 12795, 159896),
    'mmpp_uni': (58.98325, 58.7635, 0.007080105534972493, 9837, 575824, 45916, 1077078),
    'geometric': (16.46375, 16.46375, 0.008173414271960314, 15142, 175358, 18618, 271997),
    'b1': (21.075, 20.96925, 0.010105263157894737, 17486, 152531, 19999, 379452),
    'inj1_self': (26.5055, 25.25375, 0.006086737908306678, 11441, 352276, 22762, 522785),
    'ipp_r2_ej2': (79.91, 37.90725, 0.03617312217770146, 3837, 162330, 34991, 391718),
    'saturated': (math.inf, math.inf, 0.021703919663103338, 1205, 61087, 9447, 163162),
    'target_ci': (13.980074074074073, 13.950962962962963, 0.01986784192811919, 43822, 348627, 47004, 605399),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bit_identical_to_reference(name):
    topo, kw = CASES[name]
    r = simulate(topo, seed=7, messages=4000, warmup_messages=400, **kw)
    got = (r.latency, r.network_latency, r.throughput, r.cycles, r.flit_hops,
           r.work["routing_attempts"], r.work["channel_visits"])
    assert got[:6] == GOLDEN[name][:6], got
