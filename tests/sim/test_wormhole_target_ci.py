"""Runs that stop at a target CI half-width, between ``messages`` and ``max_messages`` (#15)."""

import pytest

from models.sim.wormhole import Torus, simulate

BASE = dict(topology=Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.02, warmup_messages=200,
            batches=10, seed=3)


@pytest.mark.parametrize("router", ["ideal", "booksim"])
def test_target_ci_stops_between_the_least_and_the_most_messages(router):
    loose = simulate(**BASE, router=router, messages=2000, target_ci=0.5, max_messages=8000)
    assert loose.messages == 2000, "a point already precise enough was extended"
    assert loose.latency_ci <= 0.5 * loose.latency
    capped = simulate(**BASE, router=router, messages=2000, target_ci=1e-6, max_messages=5000)
    assert capped.messages == 5000, "the cap on an unreachable target was not honoured"
    assert capped.params["max_messages"] == 5000
    free = simulate(**BASE, router=router, messages=2000, target_ci=0.02)
    assert free.messages >= 2000 and (free.latency_ci <= 0.02 * free.latency)
    # the first 2000 tagged messages are the same run: the capped run extends the loose one
    fixed = simulate(**BASE, router=router, messages=2000)
    assert fixed.latency == loose.latency


@pytest.mark.parametrize("bad, match", [(dict(max_messages=4000), "target_ci"),
                                        (dict(max_messages=1000, target_ci=0.1), "max_messages"),
                                        (dict(max_messages=2500.5, target_ci=0.1), "max_messages")])
def test_max_messages_needs_a_target_and_at_least_messages(bad, match):
    with pytest.raises(ValueError, match=match):
        simulate(**BASE, messages=2000, **bad)
