"""MMPP/G/1 mean wait (torus_ipp eq. 19): symbolic reduction, G by two algorithms, exact and simulated references."""

import numpy as np
import pytest
import sympy as sp

from models.queueing import mg1, mmpp_g1
from models.sim.mmpp_g1 import simulate_mmpp_g1
from models.traffic import fit, moments, process

ARR = process.MMPP2(0.9, 0.1, 0.2, 0.8)  # mean rate 0.74


def _services(rho, lam):
    h = rho / lam
    return [mmpp_g1.Exponential(h), mmpp_g1.ConstantPlusExponential(0.6 * h, 0.4 * h), mmpp_g1.Deterministic(h), mmpp_g1.Erlang(3, h),
            mmpp_g1.Discrete((0.5 * h, 1.5 * h), (0.5, 0.5)), mmpp_g1.ConstantPlusExponential(h, 0.0)]


def test_eq19_reduces_to_pollaczek_khinchine_for_poisson_input():
    e = mmpp_g1.mmpp_equations()
    l1, l2 = sp.symbols("lambda_1 lambda_2", nonnegative=True)
    h1, h2 = sp.symbols("tbar tbar^{(2)}", positive=True)
    pk = l1 * h2 / (2 * (1 - l1 * h1))
    assert sp.simplify(e["W"].rhs.subs(l2, l1) - pk) == 0
    assert sp.simplify(e["Wv"].rhs.subs(l2, l1) - pk) == 0


def test_poisson_arrivals_give_the_mg1_wait_numerically():
    arr = process.poisson(0.05)
    for svc in _services(0.7, 0.05):
        assert mmpp_g1.mmpp_g1_wait(arr, svc) == pytest.approx(mg1.mg1_wait(0.05, svc.mean, svc.second_moment), rel=1e-10)


@pytest.mark.parametrize("rho", [0.3, 0.7, 0.95])
def test_G_closed_form_equals_uniformization(rho):
    for svc in _services(rho, ARR.mean_rate):
        Gc, _ = mmpp_g1.mmpp_g_matrix(ARR, svc, method="closed")
        Gu, _ = mmpp_g1.mmpp_g_matrix(ARR, svc, method="uniformization")
        G0, it0 = mmpp_g1.mmpp_g_matrix(ARR, svc, method="closed", G0=np.zeros((2, 2)), max_iter=10**6)
        assert np.allclose(Gc, Gu, atol=1e-11), svc
        assert np.allclose(Gc, G0, atol=1e-9), svc  # the minimal solution from G = 0 is the same
        assert np.allclose(Gc.sum(axis=1), 1.0, atol=1e-11) and np.all(Gc >= -1e-15)
        g = mmpp_g1.stationary_vector(Gc)
        assert np.allclose(g @ Gc, g) and g.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("rho", [0.2, 0.5, 0.8, 0.95])
@pytest.mark.parametrize("arr", [ARR, process.IPP(0.5, 0.05, 0.2), process.MMPP2(2.0, 0.4, 0.01, 0.03)])
def test_mmpp_m1_matches_exact_ctmc(arr, rho):
    h = rho / arr.mean_rate
    exact = mmpp_g1.mmpp_m1_wait_exact(arr, h)
    for method in ("closed", "uniformization"):
        assert mmpp_g1.mmpp_g1_wait(arr, mmpp_g1.Exponential(h), method=method) == pytest.approx(exact, rel=1e-8)


def test_saturation_gives_inf_and_flags():
    r = mmpp_g1.mmpp_g1(ARR, mmpp_g1.Deterministic(1.0 / ARR.mean_rate))
    assert r.saturated and r.wait == np.inf
    assert mmpp_g1.mmpp_m1_wait_exact(ARR, 2.0) == np.inf


def test_bad_service_and_arrival_parameters():
    with pytest.raises(ValueError, match="exp_mean"):
        mmpp_g1.ConstantPlusExponential(10.0, -1.0)
    with pytest.raises(ValueError, match="c"):
        mmpp_g1.Deterministic(0.0)
    with pytest.raises(ValueError, match="arrival"):
        mmpp_g1.mmpp_g1((np.zeros((2, 2)), np.eye(2)), mmpp_g1.Deterministic(1.0))
    with pytest.raises(ValueError, match="method"):
        mmpp_g1.mmpp_g_matrix(ARR, mmpp_g1.Deterministic(1.0), method="magic")


@pytest.mark.parametrize("svc_kind", ["c+exp", "det"])
def test_against_direct_simulation_small(svc_kind):
    h = 0.7 / ARR.mean_rate
    svc = mmpp_g1.ConstantPlusExponential(0.6 * h, 0.4 * h) if svc_kind == "c+exp" else mmpp_g1.Deterministic(h)
    W = mmpp_g1.mmpp_g1_wait(ARR, svc)
    sim, ci = simulate_mmpp_g1(ARR, svc, customers=200_000, seed=7)
    assert abs(W - sim) <= 4 * ci + 0.01 * W, (W, sim, ci)


@pytest.mark.slow
@pytest.mark.parametrize("arr", [ARR, process.IPP(0.02, 0.001, 0.004)])
@pytest.mark.parametrize("rho", [0.5, 0.85])
def test_against_direct_simulation_long(arr, rho):
    h = rho / arr.mean_rate
    svc = mmpp_g1.ConstantPlusExponential(0.7 * h, 0.3 * h)
    W = mmpp_g1.mmpp_g1_wait(arr, svc)
    sim, ci = simulate_mmpp_g1(arr, svc, customers=3_000_000, seed=11)
    assert abs(W - sim) <= 3 * ci + 0.005 * W, (W, sim, ci)


def test_expm2_matches_scipy():
    from scipy.linalg import expm

    rng = np.random.default_rng(3)
    for scale in (1e-8, 1e-3, 1.0, 30.0, 300.0):
        for _ in range(50):
            A = rng.normal(size=(2, 2)) * scale
            with np.errstate(over="ignore", invalid="ignore"):
                ref = expm(A)
            if not np.isfinite(ref).all():
                continue
            assert np.abs(mmpp_g1.expm2(A) - ref).max() <= 1e-10 * np.abs(ref).max(), A
    A = np.array([[-3.0, 3.0], [0.5, -0.5]]) * 100  # generator-like, large
    assert np.allclose(mmpp_g1.expm2(A), expm(A), rtol=1e-12, atol=1e-15)
    assert np.allclose(mmpp_g1.expm2(np.zeros((2, 2))), np.eye(2))


@pytest.mark.parametrize("Q, L", [
    ([[-1.0, 1.0], [2.0, -2.1]], [[1.0, 0.0], [0.0, 2.0]]),       # a row of Q does not sum to 0
    ([[-1.0, 1.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 2.0]]),        # no way back from phase 2
    ([[-1.0, 1.0], [2.0, -2.0]], [[1.0, 0.5], [0.0, 2.0]]),       # Lambda not diagonal
    ([[-1.0, 1.0], [2.0, -2.0]], [[-1.0, 0.0], [0.0, 2.0]]),      # a negative rate
    ([[-1.0, 1.0], [2.0, -2.0]], [[0.0, 0.0], [0.0, 0.0]]),       # no arrivals at all
    ([[-1.0, 1.0], [2.0, -2.0]], [[np.nan, 0.0], [0.0, 2.0]]),    # NaN rate
])
def test_invalid_mmpp_is_refused(Q, L):
    """The 2x2 checks written on floats (#16) refuse what the array checks refused."""
    with pytest.raises(ValueError, match="arrival"):
        mmpp_g1.mmpp_g1((np.array(Q), np.array(L)), mmpp_g1.Deterministic(1.0))
    # a generator whose rows sum to 0 within 1e-8 is accepted, as np.allclose accepted it
    ok = mmpp_g1.mmpp_g1((np.array([[-1.0, 1.0 + 5e-9], [2.0, -2.0]]), np.diag([0.1, 0.2])), mmpp_g1.Deterministic(1.0))
    assert np.isfinite(ok.wait)


def test_mean_arrival_rate_is_the_symbolic_pi_lambda_e():
    """The numeric stationary rate (the utilisation test of every saturation check) is the SymPy
    derivation's ``lambda = pi Lambda e``, for single matrices and for row stacks."""
    import sympy as sp

    from models.queueing import mmpp_g1 as q

    eqs = q.mmpp_equations()
    d1, d2, l1, l2 = q._symbols()[:4]
    cases = [(0.3, 0.05, 0.02, 0.0), (1e-3, 2e-2, 0.5, 0.1), (0.7, 0.7, 0.01, 0.04)]
    rows_Q, rows_L = [], []
    for a, b, x, y in cases:
        Q = np.array([[-a, a], [b, -b]])
        L = np.diag([x, y])
        exact = float(eqs["lambda"].subs({d1: a, d2: b, l1: x, l2: y}))
        assert q.mean_arrival_rate(Q, L) == pytest.approx(exact, rel=1e-14)
        rows_Q.append(Q)
        rows_L.append(L)
    stacked = q.mean_arrival_rate(np.array(rows_Q), np.array(rows_L))
    assert stacked.shape == (len(cases),)
    assert list(stacked) == [q.mean_arrival_rate(Q, L) for Q, L in zip(rows_Q, rows_L)]
    assert isinstance(eqs["lambda"], sp.Expr)
