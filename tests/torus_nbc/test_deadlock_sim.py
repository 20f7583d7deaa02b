"""Long simulations past saturation: Duato-Nbc keeps delivering (no deadlock) on the sizes used."""

import pytest

from models.sim.wormhole import Torus, simulate


@pytest.mark.slow
@pytest.mark.parametrize("k,vcs", [(4, 4), (6, 5), (8, 6), (8, 10), (16, 10)])
def test_no_deadlock_far_past_saturation(k, vcs):
    # about 4x the saturation rate of M = 32; the backlog limit is lifted so the network stays
    # congested for all 100,000 cycles (the simulator raises DeadlockError if flits stop moving)
    r = simulate(Torus((k, k), bidirectional=True), routing="duato_nbc", vcs=vcs, message_length=32,
                 rate=0.05, messages=10**6, warmup_messages=100, max_cycles=100_000,
                 saturation_backlog=10**7, seed=7)
    assert r.saturated and r.cycles == 100_000
    # accepted traffic stays near the network's capacity: messages keep flowing
    assert r.throughput > 0.005
