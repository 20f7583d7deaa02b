"""Numeric solver of torus_nbc: limits, monotonicity, saturation, loud failures."""

import math

import numpy as np
import pytest

import models.torus_nbc as nbc
from models.core.errors import ConvergenceError, ParameterError
from models.sim.wormhole import Torus
from models.sim.wormhole.routing import min_vcs as sim_min_vcs
from models.sim.wormhole.routing import nbc_min_levels
from models.torus_nbc import (CurveResult, TorusNbcResult, destinations, min_escape_levels, min_vcs, saturation_load,
                              solve, solve_curve)


@pytest.mark.parametrize("k", [4, 8, 16])
def test_destinations_enumerated(k):
    H = destinations(k)
    assert H.size == k * k - 1
    assert H.min() == 1 and H.max() == k
    assert math.isclose(H.mean(), k**3 / (2 * (k * k - 1)))
    # brute force over the torus
    topo = Torus((k, k), bidirectional=True)
    D = topo.distances()[0]
    assert sorted(D[1:].tolist()) == sorted(H.tolist())


@pytest.mark.parametrize("k", [4, 8, 12, 16])
def test_minimum_escape_levels_agree_with_the_simulator(k):
    topo = Torus((k, k), bidirectional=True)
    assert min_escape_levels(k) == nbc_min_levels(topo) == k // 2 + 1
    assert min_vcs(k) == sim_min_vcs(topo, "duato_nbc")


@pytest.mark.parametrize("k,M", [(8, 32), (16, 64)])
def test_zero_load(k, M):
    r = solve(0.0, k=k, M=M)
    H = destinations(k)
    assert math.isclose(r.network_latency, M + H.mean())
    assert math.isclose(r.latency, M + H.mean())
    assert r.source_wait == 0 and r.channel_wait == 0 and math.isclose(r.multiplexing, 1.0)
    assert not r.saturated and r.converged
    assert r.destinations_by_hops.sum() == k * k - 1


def test_monotone_in_load_and_saturates_past_the_bisection_point():
    sat = saturation_load(k=8, M=32, V=10)
    assert 0.01 < sat < 0.03
    rates = np.linspace(0, 0.999 * sat, 25)
    curve = solve_curve(rates, k=8, M=32, V=10, saturation=False)
    assert not curve.saturated.any()
    assert np.all(np.diff(curve.latency) > 0)
    assert np.all(np.isfinite(curve.latency)) and np.all(curve.latency > 0)
    for r in (1.001 * sat, 1.5 * sat, 10 * sat):
        res = solve(r, k=8, M=32, V=10)
        assert res.saturated and res.latency == math.inf
        assert not np.isnan(res.latency)


def test_longer_messages_saturate_earlier_and_larger_torus_too():
    s32 = saturation_load(k=8, M=32)
    s64 = saturation_load(k=8, M=64)
    s16 = saturation_load(k=16, M=32)
    assert s64 < s32 and s16 < s32


def test_blocking_and_phi():
    r = solve(0.012, k=8, M=32, V=10)
    assert r.phi[0] == 1.0  # last hop: one dimension left
    assert r.phi[-1] == 2.0  # far from the destination: both
    assert np.all((r.blocking >= 0) & (r.blocking <= 1))
    lower = solve(0.006, k=8, M=32, V=10)
    assert np.all(r.blocking >= lower.blocking)
    assert np.all(np.diff(r.latency_by_hops) > 0)
    assert r.iterations < 200


def test_exact_mean_distance_saturates_a_little_earlier():
    a = saturation_load(k=8, M=32)
    e = saturation_load(k=8, M=32, mean_distance="exact")
    assert e < a
    assert abs(e / a - 1) < 0.03


@pytest.mark.parametrize("kwargs,name", [
    (dict(k=7, M=32), "`k`"),             # odd radix: no 2-colouring
    (dict(k=6, M=32), "`k`"),             # kbar = 1.5
    (dict(k=2, M=32), "`k`"),
    (dict(k=8, M=0), "`M`"),
    (dict(k=8, M=32.5), "`M`"),
    (dict(k=16, M=32, V=9), "`V`"),       # 16x16 needs 9 levels + 1 adaptive
    (dict(k=8, M=32, V=5), "`V`"),
    (dict(k=8, M=32, V=10, escape_levels=4), "`escape_levels`"),
    (dict(k=8, M=32, V=10, escape_levels=10), "`escape_levels`"),
    (dict(k=8, M=32, mean_distance="x"), "`mean_distance`"),
])
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError) as info:
        solve(0.001, **kwargs)
    assert isinstance(info.value, ParameterError)
    assert name in str(info.value)


def test_odd_k_message_explains_the_colouring():
    with pytest.raises(ParameterError, match="colouring"):
        saturation_load(k=9, M=32)


def test_bad_rate():
    with pytest.raises(ParameterError, match="`rate`"):
        solve(-0.1, k=8, M=32)
    with pytest.raises(ParameterError, match="`rate`"):
        solve(float("nan"), k=8, M=32)


def test_non_convergence_is_loud():
    with pytest.raises(ConvergenceError, match="S_c"):
        solve(0.015, k=8, M=32, max_iter=1)
    r = solve(0.015, k=8, M=32, max_iter=1, raise_on_failure=False)
    assert not r.converged and r.latency == math.inf


def test_result_serialises():
    r = solve(0.005, k=8, M=32)
    d = r.to_dict()
    assert d["params"]["escape_levels"] == 5 and len(d["blocking"]) == 8
    assert "latency" in repr(r)


def test_front_door():
    assert nbc.LOAD == "rate" and nbc.LOAD_UNIT == "messages/node/cycle"
    with pytest.raises(TypeError):
        solve(0.005, 8, 32)            # only the rate is positional
    r = solve(0.005, k=8, M=32)
    assert isinstance(r, TorusNbcResult) and isinstance(r.iterations, int)


def test_curve_equals_points_and_carries_the_saturation_rate():
    sat = saturation_load(k=8, M=32)
    rates = [0.2 * sat, 0.9 * sat, 1.2 * sat]
    curve = solve_curve(rates, k=8, M=32)
    assert isinstance(curve, CurveResult) and curve.saturation_load == sat
    assert list(curve.loads) == rates and list(curve.saturated) == [False, False, True]
    for i, r in enumerate(rates):
        p = solve(r, k=8, M=32)
        assert curve.results[i].latency == p.latency and curve.latency[i] == p.latency
        assert curve.iterations[i] == p.iterations
    assert list(curve.to_frame()["rate"]) == rates


def test_saturation_load_is_the_lower_end_of_the_bracket():
    rtol = 1e-3
    sat = saturation_load(k=8, M=32, rtol=rtol)
    assert not solve(sat, k=8, M=32).saturated
    assert solve(sat * (1 + 2 * rtol), k=8, M=32).saturated
    with pytest.raises(ParameterError, match="`rtol`"):
        saturation_load(k=8, M=32, rtol=0.5)


def test_saturation_load_is_searched_once_per_network_in_a_process():
    from models.torus_nbc.params import NbcParams
    from models.torus_nbc.solve import _saturation_load

    _saturation_load.cache_clear()
    first = saturation_load(k=8, M=32, rtol=1e-3)
    assert saturation_load(k=8, M=32.0, V=10, rtol=1e-3) == first
    assert _saturation_load.cache_info().hits == 1
    # every input is in the key: the search's own answer for each, never another's
    for kw in (dict(M=16), dict(V=6, escape_levels=5), dict(mean_distance="exact"), dict(rtol=1e-4)):
        args = dict(k=8, M=32, rtol=1e-3) | kw
        got = saturation_load(**args)
        assert got != first  # so that a key without this input would fail
        p = NbcParams(8, args["M"], args.get("V", 10), args.get("escape_levels"), args.get("mean_distance", "agarwal"),
                      "paper")
        assert got == _saturation_load.__wrapped__(p, args["rtol"], 200_000)
    saturation_load(k=8, M=32, rtol=1e-3, max_iter=1000)  # the same rate here, but its own search
    assert _saturation_load.cache_info().misses == 6


# ----------------------------------------------------------------------------
# Speed-ups (#16): the same answers
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(k=8, M=32, V=10), dict(k=8, M=16, V=6, escape_levels=5, mean_distance="exact")])
def test_early_saturation_verdict_is_the_full_solves(kw):
    import sys

    S = sys.modules["models.torus_nbc.solve"]
    from models.torus_nbc.params import NbcParams

    prep = S._prepare(NbcParams(kw["k"], kw["M"], kw["V"], kw.get("escape_levels"), kw.get("mean_distance", "agarwal")))
    sat = saturation_load(**kw)
    for frac in (0.3, 0.9, 0.99, 0.999, 0.9999, 1.00001, 1.0001, 1.001, 1.01, 1.2):
        x = frac * sat
        assert S._is_saturated(prep, x, 200_000) == S._solve(prep, x, 1e-9, 200_000, False).saturated, frac


def test_curve_on_arrays_is_solve_point_by_point():
    kw = dict(k=8, M=32, V=10)
    sat = saturation_load(**kw)
    rates = np.linspace(0.0, 1.2, 17) * sat
    c = solve_curve(rates, saturation=False, **kw)
    assert c.saturated.any() and not c.saturated.all()
    for x, r in zip(rates, c.results):
        one = solve(x, **kw)
        assert (r.saturated, r.iterations, r.converged) == (one.saturated, one.iterations, one.converged)
        if not one.saturated:
            assert r.latency == pytest.approx(one.latency, rel=1e-13)
            assert np.allclose(r.blocking, one.blocking, rtol=1e-12) and np.allclose(r.busy_vcs, one.busy_vcs, rtol=1e-12)


def test_occupancy_of_one_utilisation_is_the_array_forms_row():
    from models.queueing.vc_occupancy import occupancy

    for V in (1, 3, 10):
        rho = np.array([0.0, 0.3, 0.97, 1.4])
        rows = occupancy(V, rho)
        for r, row in zip(rho, rows):
            one = occupancy(V, float(r))
            assert one.shape == (V + 1,) and np.allclose(one, row, rtol=1e-14, atol=1e-17)
            expect = [(1 - min(r, 1.0)) * min(r, 1.0) ** v for v in range(V)] + [min(r, 1.0) ** V]
            assert np.allclose(one, expect, rtol=1e-13, atol=1e-16)
    with pytest.raises(ValueError, match="rho"):
        occupancy(3, -0.1)
    with pytest.raises(ValueError, match="rho"):
        occupancy(3, float("nan"))
