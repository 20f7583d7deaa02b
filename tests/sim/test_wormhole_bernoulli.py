"""The Bernoulli source (traffic="bernoulli", BookSim's injection_process = bernoulli) against its closed form."""

import math

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.networks.graph import Torus
from models.sim.wormhole import simulate
from models.sim.wormhole.steps import skip
from models.sim.wormhole.traffic import seed_state


def test_the_skips_are_geometric():
    """The nodes without a message before the next with one: P(j) = (1 - p)^j p (a chi-square-free check: the
    first four probabilities and the mean, from 200,000 draws, within 5 standard errors)."""
    p, n = 0.3, 200_000
    rng = seed_state(7)
    j = np.array([skip(rng, p) for _ in range(n)])
    for v in range(4):
        want = (1 - p) ** v * p
        assert abs((j == v).mean() - want) < 5 * math.sqrt(want * (1 - want) / n), v
    assert abs(j.mean() - (1 - p) / p) < 5 * math.sqrt((1 - p) / p**2 / n)
    assert skip(rng, 1.0) == 0


def test_a_bernoulli_network_carries_its_rate_and_refuses_a_rate_above_one():
    """At a low load the delivered messages per node and cycle are ``rate``, as with the Poisson source of the
    same rate (the two differ in the variance of a node's count per cycle only); a rate above 1 is not a
    probability."""
    topo = Torus((4, 4), bidirectional=True)
    rate = 0.01
    kw = dict(routing="dor", vcs=2, message_length=4, rate=rate, messages=20_000, warmup_messages=2_000, seed=3)
    bern, pois = simulate(topo, traffic="bernoulli", **kw), simulate(topo, **kw)
    assert not bern.saturated and abs(bern.throughput / rate - 1) < 0.05
    assert abs(bern.throughput / pois.throughput - 1) < 0.05
    assert bern.latency != pois.latency  # another random stream: a different source, not Poisson renamed
    with pytest.raises(ParameterError, match="at most 1"):
        simulate(topo, traffic="bernoulli", **dict(kw, rate=1.5))
