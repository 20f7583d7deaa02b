"""The declared fact criteria (models.core.criteria): noise-aware comparisons, counts, the spread estimator."""

import math

import numpy as np
import pytest

from models.core import criteria as K


def test_every_criterion_says_its_words_comparison_and_noise():
    for name, c in K.CRITERIA.items():
        assert c.name == name and c.words and c.comparison and c.noise
    with pytest.raises(ValueError, match="declare a new one"):
        K.criterion("my own")


@pytest.mark.parametrize("a, ah, b, bh, want", [
    (1.0, 0.1, 2.0, 0.1, True), (2.0, 0.1, 1.0, 0.1, False),
    (1.0, 0.6, 2.0, 0.6, None),                 # overlapping intervals: undecided, never the point estimates
    (1.9, 0.0, 2.0, 0.0, True),                 # no noise (computed numbers): a strict comparison
    (math.inf, 0.0, 5.0, 1.0, False), (5.0, 1.0, math.inf, 0.0, True), (math.inf, 0, math.inf, 0, None),
    (math.nan, 0.1, 1.0, 0.1, None),
])
def test_lower_is_decided_beyond_both_intervals(a, ah, b, bh, want):
    assert K.lower(a, ah, b, bh) is want
    assert K.higher(b, bh, a, ah) is want


def test_more_than_half_counts_undecided_cases_against():
    assert K.more_than_half([True, True, False]) and not K.more_than_half([True, None])
    assert not K.more_than_half([True, False]) and not K.more_than_half([None, None, True])
    with pytest.raises(ValueError):
        K.more_than_half([])


def test_spread_beyond_noise_finds_a_shared_imbalance_and_not_pure_noise():
    rng = np.random.default_rng(7)
    channels, runs = 256, 6
    noise = [1 + 0.02 * rng.standard_normal(channels) for _ in range(runs)]   # independent seeds, no imbalance
    assert K.spread_beyond_noise(noise)["equal"] is True
    shared = 0.02 * rng.standard_normal(channels)                             # every run shares a 2 % spread
    skew = [1 + shared + 0.02 * rng.standard_normal(channels) for _ in range(runs)]
    out = K.spread_beyond_noise(skew)
    assert out["equal"] is False and out["sys cv"] == pytest.approx(0.02, rel=0.3)
    assert K.spread_beyond_noise(noise[:1])["equal"] is None  # one run: no estimate of the noise


def test_spread_beyond_noise_is_not_fooled_by_channels_that_share_noise():
    """The channels of one run are correlated (a message loads consecutive channels of a ring): the standard
    error comes from the independently seeded runs, so pure noise correlated along the channels is called
    equal about 95 % of the time (an error taken over the channels would call it unequal far more often)."""
    rng = np.random.default_rng(11)
    kernel = np.ones(8) / 8
    unequal = 0
    trials = 300
    for _ in range(trials):
        runs = [1 + 0.05 * np.convolve(rng.standard_normal(256 + 7), kernel, mode="valid") for _ in range(6)]
        unequal += K.spread_beyond_noise(runs)["equal"] is False
    assert unequal / trials < 0.10
    assert K.spread_beyond_noise(runs[:2])["equal"] is None  # two runs: no jackknife
    # the error taken over the channels (the estimator before, 2 standard errors) calls more of the same sets
    # unequal: it is too small where the channels share noise
    rng = np.random.default_rng(11)
    over_channels = 0
    for _ in range(trials):
        ys = [0.05 * np.convolve(rng.standard_normal(256 + 7), kernel, mode="valid") for _ in range(6)]
        ys = [(1 + y) / (1 + y).mean() - 1 for y in ys]
        z = np.mean([ys[a] * ys[b] for a in range(6) for b in range(a + 1, 6)], axis=0)
        over_channels += z.mean() > 2 * z.std(ddof=1) / math.sqrt(z.size)
    assert over_channels > unequal and over_channels / trials > 0.10
