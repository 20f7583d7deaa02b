"""solve_curve solves its loads together (#16): each load iterated as solve() iterates it."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.torus_ipp import saturation_load, solve, solve_curve

CONFIGS = [
    dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8),
    dict(k=8, V=4, M=32, sigma1=0.5, sigma2=0.5, fit="hl"),
    dict(k=16, V=5, M=32, sigma1=0.2, sigma2=0.8, traffic="poisson", pab="specific"),
]
FIELDS = ("latency", "network_latency", "source_wait", "blocking", "channel_wait", "multiplexing", "P_a", "P_ab",
          "rho_channel", "rho_source", "rate_source", "rate_channel")


@pytest.mark.parametrize("kw", CONFIGS)
def test_curve_on_arrays_is_solve_point_by_point(kw):
    sat = saturation_load(**kw)
    frac = np.concatenate((np.linspace(0.02, 1.3, 33), [1.0]))
    c = solve_curve(frac * sat, **kw)
    assert c.saturated.any() and not c.saturated.all()
    for f, x, r in zip(frac, frac * sat, c.results):
        one = solve(x, **kw)
        assert (r.saturated, r.saturated_by, r.iterations) == (one.saturated, one.saturated_by, one.iterations), f
        if one.saturated:
            assert r.latency == np.inf
            continue
        # at the saturation load itself the fixed point is ill-conditioned: equal to the solver's tol (1e-10)
        rel = 1e-13 if f < 0.99 else 1e-9
        for name in FIELDS:
            assert getattr(r, name) == pytest.approx(getattr(one, name), rel=rel), (f, name)
        assert np.allclose(r.P_block, one.P_block, rtol=rel, atol=0)
        assert r.channel == one.channel and r.params == one.params


def test_curve_checks_like_solve():
    with pytest.raises(ParameterError):
        solve_curve([0.001, -0.001], k=16)
    with pytest.raises(TypeError):
        solve_curve([0.001], k=16, nonsense=1)
    with pytest.raises(ParameterError):
        solve_curve([], k=16)


@pytest.mark.parametrize("kw", CONFIGS)
def test_saturation_predicate_is_solves_verdict(kw):
    import sys

    S = sys.modules["models.torus_ipp.solve"]
    sat = saturation_load(**kw)
    opts = {k: v for k, v in kw.items()}
    for f in (0.3, 0.9, 0.999, 1.0, 1.0 + 1e-6, 1.001, 1.1, 2.0):
        x = f * sat
        assert S._is_saturated(S.Params(mu1=x, **opts), 1e-10, 500) == solve(x, **kw).saturated, f
    # the search itself: the largest load not saturated, the next one up saturated
    assert not solve(sat, **kw).saturated and solve(sat * (1 + 2e-6), **kw).saturated
