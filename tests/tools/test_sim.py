"""The warm-up part's simulations agree with their models, at small fixed seeds, within stated tolerances."""

from __future__ import annotations

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.queueing.mg1 import mg1_wait
from models.queueing.mmpp_g1 import Deterministic, Exponential
from models.tools.experiments import little_table, mg1_table, simulated_saturation, zero_load_table
from models.tools.channel_load import throughput_bound
from models.tools.queue_sim import simulate_queue


def test_queue_matches_pollaczek_khinchine_and_littles_law():
    for dist in (Deterministic(8.0), Exponential(8.0)):
        run = simulate_queue(0.6 / 8, dist, customers=200_000, warmup=2_000, seed=3)
        model = mg1_wait(0.6 / 8, dist.mean, dist.second_moment)
        # within three 95% half widths (and the half width itself small: a few percent)
        assert abs(run.wait - model) <= 3 * run.wait_ci and run.wait_ci < 0.1 * model
        # Little's law three times over, on the run's own counts: system, waiting line, server
        assert run.in_system == pytest.approx(run.arrival_rate * run.sojourn, rel=0.01)
        assert run.in_queue == pytest.approx(run.arrival_rate * run.wait, rel=0.01)
        assert run.busy == pytest.approx(run.arrival_rate * run.service, rel=0.01)
        assert run.busy == pytest.approx(0.6, rel=0.02)


def test_queue_is_deterministic_and_refuses_an_unstable_queue():
    a = simulate_queue(0.05, Exponential(8.0), customers=1_000, warmup=0, seed=5)
    b = simulate_queue(0.05, Exponential(8.0), customers=1_000, warmup=0, seed=5)
    assert a.wait == b.wait and a.in_system == b.in_system
    with pytest.raises(ParameterError, match="stable"):
        simulate_queue(0.125, Deterministic(8.0))
    with pytest.raises(ParameterError, match="service"):
        simulate_queue(0.1, 8.0)


def test_mg1_table_within_its_noise():
    t = mg1_table([0.3, 0.7], mean_service=8.0, customers=100_000, warmup=1_000, batches=10, seed=1)
    assert list(t["service"]) == ["deterministic"] * 2 + ["exponential"] * 2
    assert ((t["model W"] - t["sim W"]).abs() <= 3 * t["sim 95% ±"]).all()


def test_wormhole_zero_load_latency_matches_the_model():
    """At 0.2 % of the throughput bound the simulated latency is T0 within 1 % (seed 1, 3000 messages), and
    the model at the simulated messages' own hops within 0.5 %: what is left is contention, so the model is low."""
    t = zero_load_table([((4, 4), False), ((4, 4), True)], [4, 16], vcs=2, load_fraction=0.002, messages=3_000,
                        warmup_messages=300, seed=1, jobs=1)
    assert (t["error"].abs() < 0.01).all()
    own = (t["model at sim hops"] - t["sim"]) / t["sim"]
    assert (own.abs() < 0.005).all() and (own <= 0).all()


def test_wormhole_counts_obey_littles_law():
    t = little_table((4, 4), bidirectional=False, vcs=2, message_length=8, fractions=[0.1, 0.3], messages=3_000,
                     warmup_messages=300, seed=1, jobs=1)
    assert len(t) == 2 and (t["gap"].abs() < 0.01).all()


def test_simulated_saturation_lies_below_the_bound():
    bound = throughput_bound((4, 4), 8, bidirectional=False)
    s = simulated_saturation((4, 4), bidirectional=False, vcs=2, message_length=8, sat_messages=1_000, sat_steps=4,
                             jobs=1)
    assert 0.2 * bound < s.load < bound and not s.outside
    assert np.isclose(s.hi - s.lo, bound / 16)
