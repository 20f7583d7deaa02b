"""torus_ipp solver: limits, monotonicity, saturation, readings and parameter errors."""

import math

import numpy as np
import pytest

from models.queueing import mg1, mmpp_g1, vc_occupancy as vo
from models.traffic import process
import models.torus_ipp as ipp
from models.core.errors import ConvergenceError, ParameterError
from models.torus_ipp import CurveResult, TorusIppResult, channel_process, saturation_bound, saturation_load, solve, solve_curve
from models.torus_ipp.solve import Params, p_theta

FIG1A = dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)
FIG2B = dict(k=24, V=5, M=32, sigma1=0.05, sigma2=0.8)


def test_zero_load_limit():
    r = solve(1e-9, **FIG1A)
    assert not r.saturated
    assert r.latency == pytest.approx(48 + 8, rel=1e-6)
    assert r.blocking == pytest.approx(0, abs=1e-6) and r.multiplexing == pytest.approx(1, abs=1e-6)


@pytest.mark.parametrize("cfg", [FIG1A, FIG2B])
def test_curve_is_finite_increasing_then_saturated(cfg):
    sat = saturation_load(**cfg)
    assert 0 < sat < saturation_bound(**cfg)
    c = solve_curve(sat * np.array([0.1, 0.3, 0.5, 0.7, 0.9, 0.99]), **cfg)
    assert not c.saturated.any() and np.all(np.isfinite(c.latency))
    assert np.all(np.diff(c.latency) > 0) and np.all(c.latency > 0)
    assert np.all(c.iterations < 60)
    for f in (1.01, 1.5, 3.0):
        r = solve(sat * f, **cfg)
        assert r.saturated and r.latency == math.inf and r.saturated_by in ("channel", "source")
        assert not math.isnan(r.latency)


def test_fixed_point_is_consistent():
    """At the solution, bbar = sum_i P_b_i w_b (eq. 5) and every component is as the equations say."""
    p = Params(mu1=0.003, **FIG1A)
    r = solve(0.003, **FIG1A)
    assert r.blocking == pytest.approx(r.P_block.sum() * r.channel_wait, rel=1e-8)
    assert r.network_latency == pytest.approx(48 + 8 + r.blocking)
    rho = r.rate_channel * r.network_latency
    assert r.rho_channel == pytest.approx(rho)
    P = vo.occupancy(3, rho)
    assert r.P_a == pytest.approx(P[3] + 2 * P[2] / 3 + P[1] / 3)
    assert r.P_ab == pytest.approx(P[3] + 2 * P[2] / 3)
    th = p_theta(8, 4)
    assert r.P_block == pytest.approx(th * r.P_ab + (1 - th) * r.P_a * r.P_ab)
    svc = mmpp_g1.ConstantPlusExponential(56.0, r.blocking)
    assert r.channel_wait == pytest.approx(mmpp_g1.mmpp_g1_wait(channel_process(p).mmpp, svc), rel=1e-8)
    assert r.source_wait == pytest.approx(mmpp_g1.mmpp_g1_wait(process.IPP(0.003, 0.2, 0.8), svc), rel=1e-8)
    assert r.latency == pytest.approx((r.network_latency + r.source_wait) * vo.multiplexing_degree(3, rho))


def test_poisson_traffic_is_the_mg1_model():
    r = solve(0.003, traffic="poisson", **FIG1A)
    lam_s = 0.003 * 0.8
    svc = mmpp_g1.ConstantPlusExponential(56.0, r.blocking)
    assert r.channel_wait == pytest.approx(mg1.mg1_wait(2 * lam_s, svc.mean, svc.second_moment), rel=1e-9)
    assert r.source_wait == pytest.approx(mg1.mg1_wait(lam_s, svc.mean, svc.second_moment), rel=1e-9)


def test_readings_and_fits():
    a = solve(0.003, **FIG1A)
    b = solve(0.003, fit="hl", **FIG1A)
    c = solve(0.003, pab="specific", **FIG1A)
    assert b.latency == pytest.approx(a.latency, rel=1e-9)
    assert c.latency < a.latency and c.P_ab < a.P_ab
    assert saturation_load(pab="specific", **FIG1A) > saturation_load(**FIG1A)


def test_burstier_sources_wait_longer():
    base = solve(0.003, **FIG1A)
    slow = solve(0.003, **dict(FIG1A, sigma1=0.002, sigma2=0.008))  # same mean, 100x longer bursts
    pois = solve(0.003, traffic="poisson", **FIG1A)
    assert slow.latency > base.latency > pois.latency


@pytest.mark.parametrize("bad, match", [
    (dict(V=2), "`V`"), (dict(sigma1=0.0), "sigma1"), (dict(sigma2=-0.1), "sigma2"), (dict(mu1=0.0), "mu1"),
    (dict(mu1=-1e-3), "mu1"), (dict(k=18), "`k`"), (dict(M=0), "`M`"), (dict(traffic="bursty"), "traffic"),
    (dict(pab="other"), "pab"),
])
def test_bad_parameters_raise_value_error(bad, match):
    cfg = dict(FIG1A, mu1=0.003)
    cfg.update(bad)
    mu1 = cfg.pop("mu1")
    with pytest.raises(ValueError, match=match):
        solve(mu1, **cfg)
    with pytest.raises(ParameterError):
        solve(mu1, **cfg)


def test_result_has_no_nan_and_repr():
    r = solve(0.002, **FIG2B)
    d = r.to_dict()
    assert all(not (isinstance(v, float) and math.isnan(v)) for v in d.values())
    assert "latency" in repr(r)


def test_infeasible_channel_fit_is_a_clear_error():
    # k = 4: kbar = 1, n_s = 1/2 source per channel; an IPP cannot be matched (lambda2 < 0)
    with pytest.raises(ValueError, match="infeasible"):
        solve(0.01, k=4, V=3, M=16, sigma1=0.2, sigma2=0.8)
    # Poisson traffic on the same network is fine
    assert not solve(0.01, k=4, V=3, M=16, sigma1=0.2, sigma2=0.8, traffic="poisson").saturated


def test_front_door():
    assert (ipp.LOAD, ipp.LOAD_UNIT) == ("mu1", "messages/node/cycle")
    r = solve(0.003, **FIG1A)
    assert isinstance(r, TorusIppResult) and r.rate_source == pytest.approx(0.003 * 0.8)  # lambda_s, eq. 9
    with pytest.raises(TypeError):
        solve(mu1=0.003, **FIG1A)  # the load is positional only


def test_curve_result_is_solve_point_by_point():
    sat = saturation_load(**FIG2B)
    loads = sat * np.array([0.2, 0.8, 1.2])
    c = solve_curve(loads, **FIG2B)
    assert isinstance(c, CurveResult) and np.array_equal(c.loads, loads)
    for i, m in enumerate(loads):
        r = solve(float(m), **FIG2B)
        assert c.latency[i] == r.latency and c.saturated[i] == r.saturated
        assert c.iterations[i] == r.iterations and c.mean_rate[i] == r.rate_source
    assert list(c.saturated) == [False, False, True]
    assert list(c.to_frame().columns[:3]) == ["loads", "mean_rate", "latency"]


def test_saturation_load_is_the_edge():
    sat = saturation_load(rtol=1e-8, **FIG1A)
    assert not solve(sat, **FIG1A).saturated
    assert solve(sat * (1 + 1e-7), **FIG1A).saturated
    with pytest.raises(ParameterError, match="mu1"):
        saturation_load(mu1=0.001, **FIG1A)


def test_fixed_point_that_does_not_settle_raises():
    sat = saturation_load(**FIG1A)
    r = solve(0.9 * sat, **FIG1A)
    assert r.iterations > 3
    with pytest.raises(ConvergenceError, match="bbar"):
        solve(0.9 * sat, max_iter=1, **FIG1A)
