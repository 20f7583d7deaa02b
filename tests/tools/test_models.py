"""The warm-up part's models against known values (no simulation): zero-load latency, Little's law, the
Pollaczek-Khinchine limits, the channel-load bound."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.queueing.mg1 import mg1_wait
from models.queueing.mmpp_g1 import Deterministic, Exponential
from models.tools import channel_load, little, zero_load
from models.tools.experiments import doubling_load, torus_name


def test_zero_load_latency_is_header_plus_serialisation():
    # M + (h + 1) R: 16 flits over 3 hops, one cycle per router -> 20; two cycles per router -> 24
    assert zero_load.zero_load_latency(3, 16) == 20.0
    assert zero_load.zero_load_latency(3, 16, router_delay=2) == 24.0
    assert np.array_equal(zero_load.zero_load_latency(np.array([0, 1, 2]), 8), [9.0, 10.0, 11.0])
    # the mean over the 15 other nodes of a unidirectional 4x4 torus: h = 3 * 16 / 15 = 3.2
    assert zero_load.mean_zero_load_latency((4, 4), 16, bidirectional=False) == pytest.approx(20.2)
    # bidirectional 8x8: h = 4 * 64 / 63
    assert zero_load.mean_zero_load_latency((8, 8), 32, bidirectional=True) == pytest.approx(33 + 4 * 64 / 63)


@pytest.mark.parametrize("bad", [dict(hops=-1, message_length=8), dict(hops=2, message_length=0),
                                 dict(hops=2, message_length=8, router_delay=0), dict(hops=math.nan, message_length=8)])
def test_zero_load_refuses_bad_parameters(bad):
    with pytest.raises(ParameterError):
        zero_load.zero_load_latency(**bad)


def test_littles_law_is_a_product():
    assert little.in_system(0.512, 60) == pytest.approx(30.72)
    assert little.in_system(0.0, 60) == 0.0
    assert np.allclose(little.in_system(np.array([0.1, 0.2]), 10), [1.0, 2.0])
    with pytest.raises(ParameterError):
        little.in_system(-0.1, 10)
    assert str(little.equations()["little"].rhs) == "W*lambda"


def test_network_counts_reads_the_three_averages():
    class Run:  # the fields of a WormholeResult that Little's law reads
        throughput, network_latency, mean_in_network = 0.01, 20.0, 1.3
    c = little.network_counts(Run, 64)
    assert c == {"rate": 0.64, "time": 20.0, "counted": 1.3, "predicted": pytest.approx(12.8)}
    Run.network_latency = math.inf
    assert little.network_counts(Run, 64)["predicted"] == math.inf
    with pytest.raises(ParameterError):
        little.network_counts(Run, 0)


def test_pollaczek_khinchine_limits():
    S = 8.0
    rho = np.array([0.1, 0.5, 0.9])
    det = mg1_wait(rho / S, S, Deterministic(S).second_moment)
    exp = mg1_wait(rho / S, S, Exponential(S).second_moment)
    assert np.allclose(det / exp, 0.5)  # M/D/1 waits half as long as M/M/1
    assert np.allclose(exp, rho * S / (1 - rho))  # M/M/1: W = rho S / (1 - rho)
    assert mg1_wait(1e-12, S, S * S) == pytest.approx(0.0, abs=1e-9)  # rho -> 0
    assert mg1_wait(1 / S, S, S * S) == math.inf  # rho = 1: saturated


def test_channel_load_bound():
    # unidirectional 8x8, M = 8: h = 7 * 64 / 63, c = 2 -> 2 / (8 h)
    h = 7 * 64 / 63
    assert channel_load.channel_bound((8, 8), 8, bidirectional=False) == pytest.approx(2 / (8 * h))
    assert channel_load.channel_load(0.01, (8, 8), 8, bidirectional=False) == pytest.approx(0.01 * 8 * h / 2)
    # the bound is where the channel load is one flit per cycle
    b = channel_load.channel_bound((4, 8), 16, bidirectional=True)
    assert channel_load.channel_load(b, (4, 8), 16, bidirectional=True) == pytest.approx(1.0)
    # bidirectional 4x4: the ejection channel binds (1/M), not the network's
    assert channel_load.throughput_bound((4, 4), 8, bidirectional=True) == channel_load.ejection_bound(8) == 0.125
    assert channel_load.channels_per_node((4, 4, 4), bidirectional=True) == 6
    # Dally & Towles's bisection bound, gamma = lambda M k / 8, with the source among the destinations
    k, N = 16, 256
    assert channel_load.channel_load(1.0, (k, k), 1, bidirectional=True) * (N - 1) / N == pytest.approx(k / 8)
    with pytest.raises(ParameterError):
        channel_load.channel_bound((8, 8), 0, bidirectional=False)


def test_doubling_load_interpolates_between_finite_points():
    assert doubling_load([0.1, 0.2, 0.3], [10, 15, 25], 10) == pytest.approx(0.25)
    assert math.isnan(doubling_load([0.1, 0.2], [10, 15], 10))
    assert doubling_load([0.1, 0.2, 0.3], [10, math.inf, 30], 10) == pytest.approx(0.1 + 0.2 * 10 / 20)
    assert torus_name((8, 8), False) == "8x8 unidirectional"
