"""MMPP(2) / IPP sources: mean rate and index of dispersion (torus_ipp eqs. 9-11)."""

from collections import namedtuple

import numpy as np
import pytest
from numba import njit

from models.core.errors import ParameterError
from models.sim.wormhole import IPP, MMPP2, mmpp_counts
from models.sim.wormhole.steps import TRAFFIC_MMPP, Mmpp, arrival
from models.sim.wormhole.traffic import (ipp_gap, ipp_h2, ipp_init, ipp_next_arrival, mmpp_init, mmpp_next_arrival,
                                          rng_exp, rng_next, rng_uniform, seed_state)


def _idc(counts, t):
    n = counts.size // t
    x = counts[: n * t].reshape(n, t).sum(axis=1).astype(float)
    return x.var() / x.mean()


@pytest.mark.parametrize(
    "src",
    [MMPP2(0.5, 0.05, 0.02, 0.03), IPP(0.4, 0.2, 0.8), IPP(0.3, 0.05, 0.05)],
    ids=["mmpp", "ipp-fast", "ipp-slow"],
)
def test_mmpp_rate_and_idc(src):
    counts = mmpp_counts(src, 8_000_000, seed=7)
    assert counts.mean() == pytest.approx(src.mean_rate, rel=0.02)
    for t in (10, 50, 200):
        assert _idc(counts, t) == pytest.approx(float(src.idc(t)), rel=0.02), t
    assert src.idc(1e9) == pytest.approx(src.idc_inf(), rel=1e-6)


def test_poisson_limit_and_determinism():
    src = MMPP2(0.2, 0.2, 0.1, 0.1)  # both states equal: Poisson
    c = mmpp_counts(src, 1_000_000, seed=3)
    assert _idc(c, 20) == pytest.approx(1.0, abs=0.02)
    assert np.array_equal(c, mmpp_counts(src, 1_000_000, seed=3))
    assert not np.array_equal(c, mmpp_counts(src, 1_000_000, seed=4))


def test_bad_sources():
    with pytest.raises(ParameterError, match="sigma1"):
        MMPP2(0.1, 0.0, 0.0, 0.5)
    with pytest.raises(ParameterError, match="mu1"):
        IPP(-0.1, 0.2, 0.2)


# ----------------------------------------------------------------- the kernels' generation visits the due nodes only
Cfg = namedtuple("Cfg", ["traffic", "n", "rate"])


@njit(cache=False)
def _arrivals_listed(cycles, rng, cfg, sc, mm, out):
    """The kernels' generation (:func:`models.sim.wormhole.steps.arrival`): (cycle, node) of every arrival, one
    draw of the stream between two (a message's destination)."""
    i = 0
    for t in range(cycles):
        k = 0
        while True:
            u, k = arrival(t, k, rng, cfg, sc, mm)
            if u < 0:
                break
            out[i, 0] = t
            out[i, 1] = u
            i += 1
            rng_next(rng)
    return i


@njit(cache=False)
def _arrivals_every_node(cycles, rng, n, rates, sig, state, tsw, tar, out):
    """The same, by the definition: every node's chain advanced to the end of every cycle, in node order."""
    i = 0
    for t in range(cycles):
        for u in range(n):
            while mmpp_next_arrival(rng, u, t + 1.0, rates, sig, state, tsw, tar):
                out[i, 0] = t
                out[i, 1] = u
                i += 1
                rng_next(rng)
    return i


@pytest.mark.parametrize("src", [IPP(0.05, 0.6, 0.6), IPP(0.02, 0.2, 0.8), MMPP2(0.3, 0.01, 0.006, 0.006),
                                 MMPP2(0.9, 0.2, 1.5, 0.5)], ids=["ipp-fast", "ipp-skewed", "mmpp-slow", "mmpp-busy"])
def test_generation_visits_only_the_nodes_with_an_event_and_draws_the_same_stream(src):
    """Listing the nodes whose chain has an event in the cycle (``Mmpp.due``) and advancing only those gives the
    arrivals of advancing every node, and leaves the random stream where that leaves it: the same draws in the same
    order, interleaved with the messages' own."""
    n, cycles = 64, 3000
    rates, sig = np.array([src.mu1, src.mu2]), np.array([src.sigma1, src.sigma2])
    runs = []
    for listed in (True, False):
        rng = seed_state(11)
        mm = Mmpp(np.zeros(n, np.int64), np.zeros(n), np.zeros(n), rates, sig, np.zeros(n + 1, np.int64), np.zeros(0))
        mmpp_init(rng, mm.rates, mm.sig, mm.state, mm.tsw, mm.tar, 0.0)
        out = np.zeros((cycles * n * 4, 2), np.int64)
        if listed:
            sc = np.zeros(1, np.dtype([("nextarr", np.float64)]))  # (read by the Poisson source only)
            k = _arrivals_listed(cycles, rng, Cfg(TRAFFIC_MMPP, n, 0.0), sc[0], mm, out)
        else:
            k = _arrivals_every_node(cycles, rng, n, rates, sig, mm.state, mm.tsw, mm.tar, out)
        runs.append((out[:k].copy(), int(rng[0]), mm.tsw.copy(), mm.tar.copy(), mm.state.copy()))
    (a, ra, *sa), (b, rb, *sb) = runs
    assert a.shape[0] > cycles * n * src.mean_rate * 0.8  # the sources did generate
    assert np.array_equal(a, b) and ra == rb
    for x, y in zip(sa, sb):
        assert np.array_equal(x, y)


# ----------------------------------------------------------------- an IPP drawn as its renewal process
@njit(cache=False)
def _gaps_of_the_chain(rng, mu, a, b, n):
    """The gaps of an IPP by its definition: from 'on' (just after an arrival) the next event comes after an
    Exp(mu + a), an arrival with probability mu / (mu + a), else an 'off' period, Exp(b), and 'on' again."""
    out = np.empty(n)
    for i in range(n):
        g = 0.0
        while True:
            g += rng_exp(rng) / (mu + a)
            if rng_uniform(rng) < mu / (mu + a):
                break
            g += rng_exp(rng) / b
        out[i] = g
    return out


@njit(cache=False)
def _gaps_drawn(rng, h2, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = ipp_gap(rng, h2)
    return out


def _on_off(src):
    """(mu, a, b): the 'on' state's rate, its leaving rate, the 'off' state's leaving rate."""
    if src.mu2 == 0:
        return src.mu1, src.sigma1, src.sigma2
    return src.mu2, src.sigma2, src.sigma1


IPPS = [IPP(0.05, 0.6, 0.6), IPP(0.02, 0.2, 0.8), IPP(0.3, 0.05, 0.05), MMPP2(0.0, 0.004, 0.09, 0.09)]


@pytest.mark.parametrize("src", IPPS, ids=["fast", "skewed", "slow", "on-state-2"])
def test_an_ipp_gap_is_the_hyperexponential_of_its_chain(src):
    """The gaps the kernels draw for an IPP (:func:`ipp_h2`, :func:`ipp_gap`) have the distribution of the gaps of
    its chain: the closed form equals the phase-type distribution of the chain from 'on' at every point, its mean is
    the reciprocal of the mean rate, and the draws match both the closed form and the chain's own gaps."""
    from scipy.linalg import expm
    from scipy.stats import ks_1samp, ks_2samp

    mu, a, b = _on_off(src)
    h2 = ipp_h2([src.mu1, src.mu2], [src.sigma1, src.sigma2])
    p1, m1, m2 = h2[0], h2[1], h2[2]
    assert 0 < p1 < 1 and m1 < 1 / b < m2 and h2[3] == 1 / b and h2[4] == pytest.approx(b / (a + b), rel=1e-15)

    def cdf(x):
        return 1 - p1 * np.exp(-np.asarray(x) / m1) - (1 - p1) * np.exp(-np.asarray(x) / m2)

    T = np.array([[-(mu + a), a], [b, -b]])  # the chain from 'on', absorbed at an arrival
    for x in np.linspace(0, 20 * (p1 * m1 + (1 - p1) * m2), 41):
        assert cdf(x) == pytest.approx(1 - (expm(T * x) @ np.ones(2))[0], abs=1e-12)
    assert p1 * m1 + (1 - p1) * m2 == pytest.approx(1 / src.mean_rate, rel=1e-12)
    drawn = _gaps_drawn(seed_state(5), h2, 200_000)
    chain = _gaps_of_the_chain(seed_state(6), mu, a, b, 200_000)
    assert ks_1samp(drawn, cdf).pvalue > 1e-3 and ks_1samp(chain, cdf).pvalue > 1e-3
    assert ks_2samp(drawn, chain).pvalue > 1e-3


@pytest.mark.parametrize("src", IPPS, ids=["fast", "skewed", "slow", "on-state-2"])
def test_an_ipp_node_starts_in_the_stationary_chain(src):
    """The first arrival after the start (:func:`ipp_init`): 'on' with the stationary probability, or first back to
    'on'; the mean over many nodes is the mean gap plus P(off) / b.  No node has a switch event to visit."""
    mu, a, b = _on_off(src)
    h2 = ipp_h2([src.mu1, src.mu2], [src.sigma1, src.sigma2])
    n = 400_000
    tsw, tar = np.zeros(n), np.zeros(n)
    ipp_init(seed_state(9), h2, tsw, tar, 10.0)
    assert np.isinf(tsw).all() and (tar > 10.0).all()
    mean = 1 / src.mean_rate + (a / (a + b)) / b
    assert tar.mean() - 10.0 == pytest.approx(mean, abs=4 * tar.std() / np.sqrt(n))


def test_the_kernels_draw_an_ipp_by_its_gaps_and_any_other_mmpp_by_its_chain():
    from models.sim.wormhole.common import _traffic
    from models.sim.wormhole.steps import TRAFFIC_IPP

    assert _traffic(IPP(0.05, 0.6, 0.6), None)[0] == TRAFFIC_IPP
    assert _traffic(MMPP2(0.0, 0.004, 0.09, 0.09), None)[0] == TRAFFIC_IPP
    assert _traffic(MMPP2(0.5, 0.05, 0.02, 0.03), None)[0] == TRAFFIC_MMPP
    assert ipp_h2([0.5, 0.05], [0.02, 0.03]) is None and ipp_h2([0.2, 0.2], [0.1, 0.1]) is None


@njit(cache=False)
def _ipp_arrivals_every_node(cycles, rng, n, h2, tar, out):
    """An IPP's arrivals by the definition: every node's gaps drawn to the end of every cycle, in node order."""
    i = 0
    for t in range(cycles):
        for u in range(n):
            while ipp_next_arrival(rng, u, t + 1.0, h2, tar):
                out[i, 0] = t
                out[i, 1] = u
                i += 1
                rng_next(rng)
    return i


@pytest.mark.parametrize("src", [IPP(0.05, 0.6, 0.6), MMPP2(0.0, 0.02, 0.2, 0.8)], ids=["fast", "on-state-2"])
def test_the_kernels_generation_draws_an_ipp_by_its_gaps(src):
    """The kernels' generation (:func:`models.sim.wormhole.steps.arrival`) with ``TRAFFIC_IPP`` gives the arrivals,
    and leaves the stream, of drawing every node's gaps (:func:`ipp_next_arrival`), at the source's mean rate."""
    from models.sim.wormhole.steps import TRAFFIC_IPP

    n, cycles = 64, 3000
    rates, sig = np.array([src.mu1, src.mu2]), np.array([src.sigma1, src.sigma2])
    h2 = ipp_h2(rates, sig)
    runs = []
    for listed in (True, False):
        rng = seed_state(11)
        mm = Mmpp(np.zeros(n, np.int64), np.zeros(n), np.zeros(n), rates, sig, np.zeros(n + 1, np.int64), h2)
        ipp_init(rng, mm.h2, mm.tsw, mm.tar, 0.0)
        out = np.zeros((cycles * n, 2), np.int64)
        if listed:
            sc = np.zeros(1, np.dtype([("nextarr", np.float64)]))
            k = _arrivals_listed(cycles, rng, Cfg(TRAFFIC_IPP, n, 0.0), sc[0], mm, out)
        else:
            k = _ipp_arrivals_every_node(cycles, rng, n, mm.h2, mm.tar, out)
        runs.append((out[:k].copy(), int(rng[0]), mm.tar.copy()))
    (a, ra, ta), (b, rb, tb) = runs
    assert np.array_equal(a, b) and ra == rb and np.array_equal(ta, tb)
    expected = cycles * n * src.mean_rate
    assert a.shape[0] == pytest.approx(expected, abs=5 * np.sqrt(expected * src.idc(cycles)))
