"""MMPP(2) / IPP sources: mean rate and index of dispersion (torus_ipp eqs. 9-11)."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.sim.wormhole import IPP, MMPP2, mmpp_counts


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
