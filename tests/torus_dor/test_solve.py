"""The latency model: parameters, limits, monotonicity, saturation, readings, the 2003 reconstruction."""

import math

import numpy as np
import pytest
import sympy as sp

from models.networks.dor_paths import DorCombinatorics
from models.core.errors import ConvergenceError, ParameterError
from models.torus_dor import (Readings, Readings2003, equations, equations_2003, saturation_load,
                              saturation_load_2003, solve, solve_2003, solve_curve)
from models.torus_dor.equations import SYMBOLS as s
from models.torus_dor.solve import structure, waiting_max


@pytest.mark.parametrize("load,kw,name", [
    (1e-4, dict(radices=(16, 16), L=1, M=32), "L"),
    (1e-4, dict(radices=(16, 1), L=3, M=32), "radices"),
    (1e-4, dict(radices=(16, 16), L=3, M=0.5), "M"),
    (0.0, dict(radices=(16, 16), L=3, M=32), "lam_g"),
    (-1e-3, dict(radices=(16, 16), L=3, M=32), "lam_g"),
    (math.nan, dict(radices=(16, 16), L=3, M=32), "lam_g"),
    (1e-3, dict(radices=(), L=3, M=32), "radices"),
])
def test_bad_parameters_raise_valueerror_naming_them(load, kw, name):
    for fn in (solve, solve_2003):
        with pytest.raises(ValueError, match=name):
            fn(load, **kw)
    with pytest.raises(ParameterError):
        solve(load, **kw)
    if name != "lam_g":
        for fn in (saturation_load, saturation_load_2003):
            with pytest.raises(ValueError, match=name):
                fn(**kw)


def test_front_door():
    import inspect

    import models.torus_dor as td

    assert (td.LOAD, td.LOAD_UNIT) == ("lam_g", "messages/node/cycle")
    for fn in (solve, solve_curve, solve_2003):
        params = list(inspect.signature(fn).parameters.values())
        assert params[0].kind is inspect.Parameter.POSITIONAL_ONLY
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])
    for fn in (saturation_load, saturation_load_2003):
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in inspect.signature(fn).parameters.values())


def test_bad_readings():
    with pytest.raises(ValueError, match="waiting_weight"):
        Readings(waiting_weight="x")
    with pytest.raises(ValueError, match="variance"):
        Readings2003(variance="x")


@pytest.mark.parametrize("radices,bi", [((16, 16), False), ((8, 8, 8), False), ((4, 6), False), ((8, 8), True),
                                         ((3, 4, 5), True)])
@pytest.mark.parametrize("M", [1, 32, 100])
def test_zero_load_latency_is_M_plus_h_plus_1(radices, bi, M):
    h = float(DorCombinatorics(radices, bidirectional=bi).mean_hops)
    r = solve(1e-9, radices=radices, L=3, M=M, bidirectional=bi)
    assert r.latency == pytest.approx(M + h + 1, rel=1e-5)
    assert solve(1e-9, radices=radices, L=3, M=M, bidirectional=bi, readings=Readings(ejection_cycle=False)).latency == pytest.approx(M + h, rel=1e-5)
    r3 = solve_2003(1e-9, radices=radices, L=3, M=M, bidirectional=bi)
    assert r3.latency == pytest.approx(M + h * (np.prod(radices) - 1) / np.prod(radices) + 1, rel=1e-5)


@pytest.mark.parametrize("radices,L,M", [((16, 16), 3, 32), ((8, 8, 8), 5, 64), ((8, 16), 3, 32), ((4, 4, 4, 4), 2, 16)])
def test_monotone_below_saturation_and_inf_above(radices, L, M):
    sat = saturation_load(radices=radices, L=L, M=M)
    rates = np.linspace(0.02, 0.98, 12) * sat
    lat = [solve(r, radices=radices, L=L, M=M).latency for r in rates]
    assert all(math.isfinite(x) and x > 0 for x in lat)
    assert np.all(np.diff(lat) > 0)
    past = solve(1.02 * sat, radices=radices, L=L, M=M)
    assert past.saturated and past.latency == math.inf
    assert not np.isnan(past.latency)
    near = solve(0.995 * sat, radices=radices, L=L, M=M)
    assert not near.saturated


def test_saturation_flag_matches_bisection_for_the_2003_model():
    sat = saturation_load_2003(radices=(16, 16), L=5, M=32)
    assert not solve_2003(0.99 * sat, radices=(16, 16), L=5, M=32).saturated
    r = solve_2003(1.01 * sat, radices=(16, 16), L=5, M=32)
    assert r.saturated and r.latency == math.inf


def test_saturation_load_is_searched_once_per_network_in_a_process():
    from models.torus_dor.solve import _saturation_load

    _saturation_load.cache_clear()
    first = saturation_load(radices=[8, 8], L=4, M=16)  # a list and an int M: the same network as below
    assert saturation_load(radices=(8, 8), L=4, M=16.0) == first
    assert _saturation_load.cache_info().hits == 1
    # every input is in the key: the search's own answer for each, never another's
    assert first == _saturation_load.__wrapped__((8, 8), 4, 16.0, False, Readings(), 1e-4)
    for kw in (dict(M=32), dict(L=5), dict(bidirectional=True), dict(rtol=1e-3),
               dict(readings=Readings(same_dim_blocking="literal"))):
        args = dict(radices=(8, 8), L=4, M=16) | kw
        got = saturation_load(**args)
        assert got != first  # so that a key without this input would fail
        uncached = _saturation_load.__wrapped__((8, 8), args["L"], float(args["M"]), args.get("bidirectional", False),
                                                args.get("readings", Readings()), args.get("rtol", 1e-4))
        assert got == uncached
    assert _saturation_load.cache_info().misses == 6
    with pytest.raises(ParameterError, match="Readings"):
        saturation_load(radices=(8, 8), L=4, M=16, readings="printed")


def test_multiplexing_between_one_and_L():
    for f in (0.1, 0.5, 0.9):
        sat = saturation_load(radices=(16, 16), L=5, M=32)
        r = solve(f * sat, radices=(16, 16), L=5, M=32)
        assert 1 < r.multiplexing < 5
        assert np.allclose(r.occupancy.sum(axis=1), 1)


def test_iterations_are_few_away_from_saturation():
    r = solve(1e-4, radices=(16, 16), L=3, M=32)
    assert r.iterations < 20


def test_convergence_error_names_the_quantity():
    sat = saturation_load(radices=(16, 16), L=3, M=32)
    with pytest.raises(ConvergenceError, match="W_"):
        solve(0.9 * sat, radices=(16, 16), L=3, M=32, max_iter=2)


def test_solver_equals_the_symbolic_equations_at_a_point():
    # recompute one iteration's W from the SymPy expressions by substitution
    rd = Readings()
    radices, L, M, rate = (16, 16), 3, 32.0, 0.0005
    r = solve(rate, radices=radices, L=L, M=M, readings=rd)
    e = equations(rd)
    st = structure(radices, False, rd)
    lam_c = float(e["eq:4"].rhs.subs({s.h: st.h, s.lam_g: rate, s.n: 2}))
    W_ej = float(e["eq:16"].rhs.subs({s.M: M, s.lam_g: rate}))
    W = r.W
    for i in range(2):
        D = float(e["eq:9"].rhs.subs({s.Y: float(st.B[i] @ W), s.M: M, s.t_c: 1, s.W_ej: W_ej}))
        rho = lam_c * D
        PB = float(e["eq:5"].rhs.subs({s.rho: rho, s.L: L}))
        Pd = float(e["eq:6"].rhs.subs({s.q: st.q[i], s.rho: rho, s.L: L}))
        What = float(e["eq:7"].rhs.subs({s.P_d: Pd, s.P_B: PB, s.X: float(st.A[i] @ W), s.M: M, s.t_c: 1}))
        J = waiting_max(i, L, False, rd)
        Ntil = float(e["eq:15"].rhs.subs({s.rho: rho, s.L: L, s.J: J}).doit())
        assert D == pytest.approx(r.D[i], rel=1e-9)
        assert What * Ntil == pytest.approx(W[i], rel=1e-7, abs=1e-12)
    lb = [float(e["eq:19"].rhs.subs({s.rho: x, s.L: L}).doit()) for x in r.rho]
    assert np.allclose(lb, r.lbar_dim)


def test_p_none_readings_reduce_as_stated():
    e = equations(Readings())
    q, rho, L = s.q, s.rho, s.L
    # without the 1/L, terms 1 and 2 are (1-q)^(L-1) P_L
    cons = e["eq:6:consistent"].rhs
    target = (1 - q) ** (L - 1) * rho**L + (1 - q) ** (L - 1) * (1 - rho) * rho ** (L - 1) / L
    for Lv in (2, 3, 5):
        assert sp.simplify((cons - target).subs(L, Lv)) == 0
    # P_B of eq. 5 is P_L + P_{L-1}/L
    assert sp.simplify(e["eq:5"].rhs - (rho**L + (1 - rho) * rho ** (L - 1) / L)) == 0


def test_every_reading_runs():
    from models.torus_dor.experiments import switch_variants

    for name, rd in switch_variants().items():
        r = solve(0.001, radices=(8, 8), L=3, M=16, readings=rd)
        assert r.latency > 0, name
        assert saturation_load(radices=(8, 8), L=3, M=16, readings=rd) > 0


def test_bidirectional_saturates_later_than_unidirectional():
    assert saturation_load(radices=(8, 8), L=3, M=32, bidirectional=True) > saturation_load(radices=(8, 8), L=3, M=32)


def test_waiting_max_counts():
    rd = Readings()
    assert [waiting_max(i, 3, False, rd) for i in range(3)] == [3, 6, 9]
    assert [waiting_max(i, 3, True, rd) for i in range(3)] == [3, 9, 15]
    assert [waiting_max(i, 3, False, rd.replace(waiting_max="printed")) for i in range(3)] == [3, 9, 15]
    assert [waiting_max(i, 3, False, rd.replace(waiting_max="inputs+injection")) for i in range(2)] == [6, 9]


def test_solve_curve():
    c = solve_curve([0.001, 0.002, 1.0], radices=(8, 8), L=3, M=16)
    assert c.saturated.tolist() == [False, False, True]
    assert c.latency[0] < c.latency[1] and c.latency[2] == math.inf
    assert 0.002 < c.saturation < 1.0
    assert len(c.to_frame()) == 3
    assert c.loads.tolist() == [0.001, 0.002, 1.0] and len(c.results) == 3
    for x, r in zip(c.loads, c.results):
        assert r.latency == solve(x, radices=(8, 8), L=3, M=16).latency or r.saturated


def test_2003_convergence_error_names_the_dimension():
    sat = saturation_load_2003(radices=(16, 16), L=5, M=32)
    with pytest.raises(ConvergenceError, match="dimension") as e:
        solve_2003(0.9 * sat, radices=(16, 16), L=5, M=32, max_iter=2)
    assert e.value.residual > 0  # the real residual (the hand-written loop reported 0)


def test_2003_equations_and_switches():
    e = equations_2003()
    assert {"S_i", "P_B", "W_i", "T"} <= set(e)
    for rd in (Readings2003(variance="S-S_prev"), Readings2003(ejection="none"), Readings2003(mux="mean"),
               Readings2003(composition="SV+Ws+hV")):
        assert solve_2003(0.0005, radices=(8, 16), L=3, M=32, readings=rd).latency > 0


@pytest.mark.parametrize("bi", [False, True])
def test_2004_model_saturates_later_than_2003_on_fig2_under_the_default_not_the_printed_weight(bi):
    # the models-only argument of the chapter (Fig. 2: 16x16, L=5, M=32): the paper's claim that its
    # saturation point is closer to the simulation's can hold with the simulation saturating after both
    # models under the default weight j-L+1, not under the printed weight j
    kw = dict(radices=(16, 16), L=5, M=32, bidirectional=bi)
    s03 = saturation_load_2003(**kw)
    assert saturation_load(**kw) > s03
    assert saturation_load(**kw, readings=Readings(waiting_weight="j")) < s03
    assert saturation_load(**kw, readings=Readings.printed()) < s03


def test_channel_rate_readings():
    # identical for equal radices; per-dimension loads the larger-radix dimension more
    a = solve(0.002, radices=(8, 8), L=3, M=16)
    b = solve(0.002, radices=(8, 8), L=3, M=16, readings=Readings(channel_rate="per-dimension"))
    assert a.latency == pytest.approx(b.latency, rel=1e-12)
    r = solve(0.002, radices=(4, 8), L=3, M=16, readings=Readings(channel_rate="per-dimension"))
    assert r.lam_c[1] > r.lam_c[0]
    assert r.lam_c[0] == pytest.approx(0.002 * 1.5 * 32 / 31) and r.lam_c[1] == pytest.approx(0.002 * 3.5 * 32 / 31)


@pytest.mark.parametrize("bi", [False, True])
def test_every_dimension_blocks_at_half_saturation_under_the_default_reading(bi):
    # the default reading is coherent: W_{d_i} > 0 in every dimension (16x16, L=5, M=32, half the model's
    # saturation load); the former default (weight j-L with J_{d_0} = L) never blocks dimension 0
    kw = dict(radices=(16, 16), L=5, M=32, bidirectional=bi)
    r = solve(0.5 * saturation_load(**kw), **kw)
    assert not r.saturated and np.all(r.W > 0) and np.all(r.N_waiting > 0)
    old = Readings(waiting_weight="j-L")
    r0 = solve(0.5 * saturation_load(**kw, readings=old), **kw, readings=old)
    assert r0.N_waiting[0] == 0 and r0.W[0] == 0 and r0.W[1] > 0
    r3 = solve(0.002, radices=(8, 8, 8), L=3, M=32)
    assert np.all(r3.W > 0)


def test_default_weight_reduces_to_the_blocking_wait_when_nobody_else_waits():
    # with J = L (no other message can wait), N_waiting = P_L under j-L+1: W = P_{d_i,L} W-hat, the paper's
    # definition of W-hat as the wait of a blocked message "when no other message is blocked at that hop"
    e = equations(Readings())
    n = e["eq:15"].rhs.subs({s.J: s.L}).doit()
    for Lv in (2, 3, 5):
        assert sp.simplify((n - s.rho**s.L).subs(s.L, Lv)) == 0
    np_ = equations(Readings.printed())["eq:15"].rhs.subs({s.J: s.L}).doit()
    assert sp.simplify((np_ - s.L * s.rho**s.L).subs(s.L, 3)) == 0


def test_printed_readings_reproduce_the_printed_equations():
    p = Readings.printed()
    assert (p.p_none, p.same_dim_blocking, p.same_dim_first, p.waiting_max, p.waiting_weight, p.mux_weights,
            p.pipeline, p.channel_rate, p.ejection_cycle) == (
        "printed", "literal", "literal", "printed", "j", "k", "h*lbar", "mean", False)
    e = equations(p)
    for k in ("eq:6", "eq:15", "eq:22"):
        assert sp.simplify(e[k].rhs.subs(s.e, 0) - e[f"{k}:printed"].rhs) == 0, k
    # eq. 15 as printed: sum_{j=L}^{J} j P_{j,waiting}
    assert e["eq:15"].rhs == sp.Sum(s.j * e["eq:14"].rhs, (s.j, s.L, s.J))
    # eq. 6 as printed: the factor 1/L on its first term
    q, rho, L = s.q, s.rho, s.L
    printed6 = (q * (1 - q) ** (L - 1) * rho**L / L + (1 - q) ** L * rho**L
                + (1 - q) ** (L - 1) * (1 - rho) * rho ** (L - 1) / L)
    assert sp.simplify(e["eq:6"].rhs - printed6) == 0
    # eq. 22 as printed: T = S l + W_s + h l
    assert e["eq:22"].rhs == s.S * s.lbar + s.W_s + s.h * s.lbar + s.e
    # J = (2 d_i - 1) L with 1-based d_i
    assert [waiting_max(i, 4, False, p) for i in range(3)] == [(2 * d - 1) * 4 for d in (1, 2, 3)]
    # the combinatorial readings: k/2 (literal) for the same-dimension terms
    st = structure((8, 8), False, p)
    assert st.A[0, 0] == pytest.approx(8 / 2) and st.B[0, 0] == pytest.approx(8 / 2)


# ----------------------------------------------------------------------------
# Speed-ups (#16): the same answers
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(radices=(8, 8), L=3, M=32), dict(radices=(4, 6, 5), L=2, M=8),
                                dict(radices=(8, 8), L=2, M=16, bidirectional=True)])
def test_early_saturation_verdict_is_the_full_solves(kw):
    import sys

    S = sys.modules["models.torus_dor.solve"]
    radices, L, M, _ = S.check_params(radices=kw["radices"], L=kw["L"], M=kw["M"],
                                      bidirectional=kw.get("bidirectional", False))
    model = S._model(radices, L, M, kw.get("bidirectional", False), S.Readings())
    sat = saturation_load(**kw)
    for frac in (0.3, 0.9, 0.99, 0.999, 0.9999, 1.0001, 1.001, 1.01, 1.2):
        x = frac * sat
        assert S._is_saturated(model, x) == S._solve(model, x, 1e-9, 20_000, False).saturated, frac


@pytest.mark.parametrize("kw", [dict(radices=(8, 8), L=3, M=32), dict(radices=(4, 6, 5), L=2, M=8)])
def test_curve_on_arrays_is_solve_point_by_point(kw):
    sat = saturation_load(**kw)
    loads = np.linspace(0.05, 1.2, 17) * sat
    c = solve_curve(loads, saturation=False, **kw)
    assert c.saturated.any() and not c.saturated.all()
    for x, r in zip(loads, c.results):
        one = solve(x, **kw)
        assert (r.saturated, r.iterations, r.reason) == (one.saturated, one.iterations, one.reason)
        if not one.saturated:
            assert r.latency == pytest.approx(one.latency, rel=1e-13)
            assert np.allclose(r.W, one.W, rtol=1e-13, atol=0) and np.allclose(r.occupancy, one.occupancy, rtol=1e-12)


def test_piecewise_select_is_numpy_select_to_the_last_bit():
    """#16: the lambdified Piecewise (eqs. 15, 19) runs with numpy.where in place of numpy.select: same values."""
    import sys
    import types

    S = sys.modules["models.torus_dor.solve"]
    rng = np.random.default_rng(16)
    K = S._compiled(S.Readings())
    piecewise = [name for name, fn in K.items() if fn.__globals__.get("select") is S._select]
    assert sorted(piecewise) == ["N_term", "l_den", "l_num"]
    for name in piecewise:
        fast = K[name]
        slow = types.FunctionType(fast.__code__, dict(fast.__globals__, select=np.select))
        for L in (2, 3, 6):
            j = np.arange(13, dtype=float)[:, None, None]
            rho = rng.uniform(0, 1, (1, 5, 3))
            rho[0, 0] = [0.0, 1.0, 1e-300]
            J = rng.integers(L, 13, (1, 1, 3)).astype(float)
            args = (j, rho, J, L) if name == "N_term" else (j, rho[0], L)
            a, b = fast(*args), slow(*args)
            assert a.dtype == b.dtype == float and a.shape == b.shape
            assert np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b))
