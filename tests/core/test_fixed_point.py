"""models.core.fixed_point: the saturated outcome, tolerance semantics, hooks, many problems at once.

The loops the chapters wrote by hand are kept here as reference loops on
synthetic maps with the same structure; the recipe that replaces each must
give the same iterate to the last bit and the same iteration count.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.core.errors import ConvergenceError, ParameterError
from models.core.fixed_point import (FixedPoint, Saturated, anderson_update, fixed_point, fixed_points,
                                     newton_update)

DOTTIE = 0.7390851332151607  # x = cos(x)


# ---------------------------------------------------------------- known answers and the old behaviour
@pytest.mark.parametrize("damping", [1.0, 0.5])
def test_cos_fixed_point(damping):
    res = fixed_point(np.cos, [1.0], damping=damping, tol=1e-14)
    assert res.converged and not res.saturated and res.reason == ""
    assert abs(res.x[0] - DOTTIE) < 1e-12
    assert res.residual <= 1e-14 and res.change == pytest.approx(res.residual * max(1.0, abs(res.x[0])))


def test_damping_one_is_plain_iteration_to_the_last_bit():
    res = fixed_point(np.cos, [1.0], damping=1.0, tol=0.0, max_iter=7, raise_on_failure=False)
    x = 1.0
    for _ in range(7):
        x = math.cos(x)
    assert res.x[0] == x and res.iterations == 7 and not res.converged


def test_old_positional_fields_still_work():
    r = FixedPoint(np.zeros(1), 3, 0.0, True)
    assert (r.saturated, r.reason) == (False, "") and math.isnan(r.change)


def test_non_finite_still_raises_without_a_predicate():
    with pytest.raises(ConvergenceError, match="non-finite"):
        fixed_point(lambda x: np.array([np.inf]), [1.0], names=["b"])
    with pytest.raises(ConvergenceError) as info:
        fixed_point(lambda x: x + 1.0, [0.0, 0.0], max_iter=7, names=["W_0", "W_1"], where="torus")
    assert info.value.iterations == 7 and "W_" in str(info.value)


# ---------------------------------------------------------------- saturated outcome
def test_saturated_exception_stops_quietly():
    def f(x):
        if x[0] > 4.5:
            raise Saturated("rho >= 1")
        return x + 1.0

    res = fixed_point(f, [0.0], damping=1.0)
    # iterates 1, 2, 3, 4, 5; f(5) raises at iteration 6
    assert res.saturated and not res.converged and res.iterations == 6
    assert res.reason == "rho >= 1" and res.x[0] == 5.0
    assert res.residual == 1.0 / 5.0  # the last completed iteration's relative change


def test_saturated_exception_without_message():
    def f(x):
        raise Saturated()

    res = fixed_point(f, [0.0])
    assert res.saturated and res.reason == "saturated" and res.iterations == 1 and res.residual == math.inf


def test_saturated_predicate_on_each_iterate():
    res = fixed_point(lambda x: x + 1.0, [0.0], damping=1.0, saturated=lambda x: x[0] > 10)
    assert res.saturated and res.iterations == 11 and res.x[0] == 11.0 and res.reason == "saturated"


def test_predicate_string_is_the_reason_and_empty_string_is_false():
    res = fixed_point(lambda x: 2.0 * x + 1.0, [0.0], damping=1.0,
                      saturated=lambda x: "without bound" if x[0] > 1e12 else "")
    assert res.saturated and res.reason == "without bound" and res.x[0] > 1e12


def test_predicate_claims_non_finite_values():
    res = fixed_point(lambda x: np.array([np.inf]), [1.0], saturated=lambda x: not np.all(np.isfinite(x)))
    assert res.saturated and res.iterations == 1


def test_predicate_sees_the_damped_iterate():
    seen = []
    fixed_point(lambda x: x + 2.0, [0.0], damping=0.5, max_iter=2, raise_on_failure=False,
                saturated=lambda x: seen.append(float(x[0])))
    assert seen == [1.0, 2.0]


def test_saturated_is_not_an_error_even_when_raising():
    res = fixed_point(lambda x: x + 1.0, [0.0], max_iter=3, saturated=lambda x: x[0] > 0.2)
    assert res.saturated and res.iterations == 1


# ---------------------------------------------------------------- tolerance semantics
def linear(x):
    return 0.5 * x + 1.0  # fixed point 2


def test_relative_to_new_old_and_absolute():
    one = dict(damping=1.0, max_iter=1, tol=0.0, raise_on_failure=False)
    assert fixed_point(linear, [1.0], **one).residual == 0.5 / 1.5
    assert fixed_point(linear, [1.0], relative_to="old", **one).residual == 0.5 / 1.0
    assert fixed_point(linear, [1.0], relative=False, **one).residual == 0.5
    # the floor: below 1 the scale is 1 by default, |x| with floor 0
    small = lambda x: 0.5 * x  # noqa: E731
    assert fixed_point(small, [0.1], **one).residual == 0.05
    assert fixed_point(small, [0.1], relative_to="old", floor=0.0, **one).residual == 0.05 / 0.1


def test_scale_tol_is_the_same_test_written_the_other_way():
    for tol in (1e-3, 1e-8, 1e-12):
        a = fixed_point(np.cos, [1.0], damping=1.0, tol=tol)
        b = fixed_point(np.cos, [1.0], damping=1.0, tol=tol, scale_tol=True)
        assert a.iterations == b.iterations and a.x[0] == b.x[0]


def test_invalid_options():
    for kw in (dict(damping=0.0), dict(damping=1.5), dict(relative_to="mean"), dict(floor=-1.0), dict(floor=math.nan)):
        with pytest.raises(ParameterError):
            fixed_point(np.cos, [1.0], **kw)


# ---------------------------------------------------------------- update hook (accelerated step)
def newton_cos(x, fx):
    # Newton on g(x) = cos(x) - x
    return x + (fx - x) / (1.0 + np.sin(x))


def test_update_hook_accelerates_and_returns_the_plain_step():
    plain = fixed_point(np.cos, [1.0], damping=1.0, tol=1e-13)
    fast = fixed_point(np.cos, [1.0], damping=1.0, tol=1e-13, update=newton_cos)
    assert fast.converged and fast.iterations < plain.iterations // 5
    assert abs(fast.x[0] - DOTTIE) < 1e-13


def test_update_hook_may_saturate():
    def upd(x, fx):
        raise Saturated("slope >= 1")

    res = fixed_point(lambda x: x + 1.0, [0.0], damping=1.0, update=upd)
    assert res.saturated and res.reason == "slope >= 1" and res.iterations == 1 and res.residual == 1.0


# ---------------------------------------------------------------- many problems at once
def test_fixed_points_equal_one_by_one():
    a = np.array([0.5, 1.0, 2.0, 3.0, 0.9, 5.0])

    def f1(x, ai):
        return ai * np.cos(x) + 0.1 * x * x

    X0 = np.ones((6, 2))
    X0[:, 1] = 0.5
    X0[5] = 20.0  # grows past 50 at the second iterate: saturated

    def fb(x, rows):
        return f1(x, a[rows][:, None])

    sat = lambda x, rows: np.any(~np.isfinite(x) | (x > 50), axis=1)  # noqa: E731
    many = fixed_points(fb, X0, damping=0.7, tol=1e-12, max_iter=3000, saturated=sat, raise_on_failure=False)
    for i in range(6):
        one = fixed_point(lambda x, ai=a[i]: f1(x, ai), X0[i], damping=0.7, tol=1e-12, max_iter=3000,
                          saturated=lambda x: np.any(~np.isfinite(x) | (x > 50)), raise_on_failure=False)
        got = many[i]
        assert (got.converged, got.saturated, got.iterations) == (one.converged, one.saturated, one.iterations)
        assert np.array_equal(got.x, one.x) and got.residual == one.residual
        assert np.array_equal([got.change], [one.change], equal_nan=True)
    # all three outcomes occur: converged, saturated, neither (cap reached)
    assert many.converged.sum() == 4 and list(many.saturated) == [False] * 5 + [True]
    assert many.iterations[3] == 3000 and len(many) == 6


def test_fixed_points_saturated_rows_are_masked():
    loads = np.array([0.1, 0.5, 0.9, 1.2])

    def f(x, rows):  # W = load (1 + W): fixed point load / (1 - load), none for load >= 1
        return loads[rows] * (1.0 + x)

    res = fixed_points(f, np.zeros(4), damping=1.0, tol=1e-13, max_iter=100_000,
                       saturated=lambda x, rows: x > 1e9)
    assert list(res.saturated) == [False, False, False, True]
    assert list(res.converged) == [True, True, True, False]
    np.testing.assert_allclose(res.x[:3], loads[:3] / (1 - loads[:3]), rtol=1e-10)
    assert res.iterations[0] < res.iterations[1] < res.iterations[2]


def test_fixed_points_failure_names_the_problem():
    with pytest.raises(ConvergenceError, match="problem 1"):
        fixed_points(lambda x, rows: np.where(rows == 1, x + 1.0, 0.5 * x), np.zeros(2), max_iter=50)
    with pytest.raises(ParameterError):
        fixed_points(lambda x, rows: x, np.zeros((0, 2)))


def test_newton_update_ends_a_crawling_iteration_at_the_same_fixed_point():
    """#16: a linear map contracting at 0.999 per damped step: Newton (exact on a linear map) ends it."""
    A = np.array([[0.6, 0.399], [0.3, 0.699]])  # row sums 0.999: spectral radius 0.999
    b = np.array([[1.0, 2.0], [0.5, 0.0], [3.0, 1.0]])

    def f(x, rows):
        return x @ A.T + b[rows]

    exact = np.linalg.solve(np.eye(2) - A, b.T).T
    kw = dict(damping=1.0, tol=1e-12, max_iter=200_000)
    x0 = 0.95 * exact  # within the 10% a Newton step may move (from 0 the damped steps come that close first)
    plain = fixed_points(f, x0, **kw)
    fast = fixed_points(f, x0, update=newton_update(f, damping=1.0), **kw)
    assert plain.converged.all() and fast.converged.all()
    assert fast.iterations.max() < plain.iterations.min() // 20
    np.testing.assert_allclose(fast.x, exact, rtol=1e-12)
    np.testing.assert_allclose(plain.x, exact, rtol=1e-8)
    assert (fast.residual <= 1e-12).all()  # stopped by the damped-step test, as without the hook


def test_newton_update_stays_on_the_damped_iterations_fixed_point():
    """f(x) = x^2/4 + 3/4 has fixed points 1 (attracting) and 3; from 2.1 the damped iteration goes to 1,
    an unbounded Newton step from 2.1 to 7.05 and then to 3.  The defaults (Newton only near, no jump over
    10%) keep the damped iteration's."""
    def f(x, rows):
        return x * x / 4 + 0.75

    x0 = np.full((1, 1), 2.1)
    damped = fixed_points(f, x0, damping=0.5)
    guarded = fixed_points(f, x0, damping=0.5, update=newton_update(f))
    wild = fixed_points(f, x0, damping=0.5, update=newton_update(f, near=10.0, max_jump=10.0))
    assert damped.x[0, 0] == pytest.approx(1.0, abs=1e-11) and guarded.x[0, 0] == pytest.approx(1.0, abs=1e-12)
    assert guarded.iterations[0] < damped.iterations[0]
    assert wild.x[0, 0] == pytest.approx(3.0, abs=1e-12)


def test_newton_update_on_rows_of_higher_rank_and_invalid_options():
    def f(x, rows):  # x: (rows, 2, 2), independent entries x -> 0.9 x + 1 (fixed point 10)
        return 0.9 * x + 1.0

    res = fixed_points(f, np.zeros((2, 2, 2)), damping=1.0, tol=1e-13, update=newton_update(f, damping=1.0))
    np.testing.assert_allclose(res.x, 10.0, rtol=1e-13)
    for bad in (dict(near=0), dict(max_jump=-1.0), dict(rel_step=math.nan), dict(damping=0.0)):
        with pytest.raises(ParameterError):
            newton_update(f, **bad)


def test_anderson_update_ends_a_crawl_without_a_jacobian():
    """#16: a 200-unknown linear map contracting at 0.999: Anderson steps from within 10% of the fixed point
    end it in a tenth of the evaluations (memory 5 over 200 spread eigenvalues), at the same point; a fresh
    hook per call (it keeps a history)."""
    rng = np.random.default_rng(16)
    d = 200
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    A = Q @ np.diag(np.linspace(0.2, 0.999, d)) @ Q.T
    b = rng.random(d)
    exact = np.linalg.solve(np.eye(d) - A, b)
    x0 = exact * (1 + 0.05 * rng.uniform(-1, 1, d))
    kw = dict(damping=1.0, tol=1e-12, max_iter=200_000)
    plain = fixed_point(lambda x: A @ x + b, x0, **kw)
    fast = fixed_point(lambda x: A @ x + b, x0, update=anderson_update(damping=1.0, near=1.0), **kw)
    assert plain.converged and fast.converged and fast.iterations < plain.iterations // 10
    np.testing.assert_allclose(fast.x, exact, rtol=0, atol=1e-7)  # |x| ~ 40; error <= step / (1 - 0.999)
    assert fast.residual <= 1e-12


def test_anderson_update_stays_on_the_damped_iterations_fixed_point():
    """The two fixed points of x^2/4 + 3/4 (1 attracting, 3 not): from 2.1 the guarded hook ends at 1."""
    f = lambda x: x * x / 4 + 0.75  # noqa: E731
    x0 = np.array([2.1, 2.1])
    damped = fixed_point(f, x0, damping=0.5)
    fast = fixed_point(f, x0, damping=0.5, update=anderson_update())
    np.testing.assert_allclose(fast.x, 1.0, atol=1e-12)
    np.testing.assert_allclose(damped.x, 1.0, atol=1e-10)
    assert fast.iterations < damped.iterations
    for bad in (dict(memory=0), dict(memory=2.5), dict(near=-1.0), dict(max_jump=math.inf), dict(damping=2.0)):
        with pytest.raises(ParameterError):
            anderson_update(**bad)


# ---------------------------------------------------------------- the hand-written loops it replaces
def test_recipe_torus_dor_loop():
    """torus_dor/solve.py _solve: plain iteration, step may say 'saturated', W > 1e12 is saturated,
    residual |Wn - W| / max(1, |Wn|)."""
    A = np.array([[0.2, 0.1], [0.0, 0.3]])

    def step(W, lam):
        rho = lam * (1.0 + W)
        if np.any(rho >= 1.0):
            return None
        return A @ W + rho / (1.0 - rho) * 10.0

    def legacy(lam, tol=1e-10, max_iter=200_000):
        W = np.zeros(2)
        for it in range(1, max_iter + 1):
            Wn = step(W, lam)
            if Wn is None:
                return ("sat", it, None)
            if not np.all(np.isfinite(Wn)) or np.any(Wn > 1e12):
                return ("sat", it, None)
            diff = np.abs(Wn - W) / np.maximum(1.0, np.abs(Wn))
            residual = float(diff.max())
            W = Wn
            if residual <= tol:
                return ("ok", it, W, residual)
        raise AssertionError

    def recipe(lam):
        def f(W):
            out = step(W, lam)
            if out is None:
                raise Saturated("rho >= 1")
            return out

        fp = fixed_point(f, np.zeros(2), damping=1.0, tol=1e-10, max_iter=200_000,
                         saturated=lambda W: not np.all(np.isfinite(W)) or np.any(W > 1e12))
        return ("sat", fp.iterations, None) if fp.saturated else ("ok", fp.iterations, fp.x, fp.residual)

    outcomes = set()
    for lam in np.linspace(0.005, 0.2, 25):
        a, b = legacy(lam), recipe(lam)
        assert a[:2] == b[:2]
        if a[0] == "ok":
            assert np.array_equal(a[2], b[2]) and a[3] == b[3]
        outcomes.add(a[0])
    assert outcomes == {"ok", "sat"}


def test_recipe_torus_nbc_and_2003_scalar_loops():
    """torus_nbc/solve.py _solve (|new - S| / S, relative to the old value) and
    torus_dor/model2003.py (|new - S| <= tol max(1, new), the product form)."""

    def g(S, lam):
        rho = lam * S
        return None if rho >= 1.0 else 3.0 + 2.0 * rho / (1.0 - rho) * S

    def legacy_nbc(lam, tol=1e-10):
        S, residual = 3.0, math.inf
        for it in range(1, 200_001):
            new = g(S, lam)
            if new is None or not math.isfinite(new):
                return ("sat", it, residual)
            residual = abs(new - S) / S
            S = new
            if residual <= tol:
                return ("ok", it, S, residual)

    def legacy_2003(lam, tol=1e-11):
        S = 3.0
        for it in range(1, 200_001):
            new = g(S, lam)
            if new is None:
                return ("sat", it)
            if not math.isfinite(new) or new > 1e12:
                return ("sat", it)
            done = abs(new - S) <= tol * max(1.0, new)
            S = new
            if done:
                return ("ok", it, S)

    def f(lam):
        def h(x):
            v = g(float(x[0]), lam)
            if v is None:
                raise Saturated("rho >= 1")
            return np.array([v])
        return h

    outcomes = set()
    for lam in np.linspace(0.01, 0.12, 23):
        a = legacy_nbc(lam)
        outcomes.add(a[0])
        fp = fixed_point(f(lam), [3.0], damping=1.0, tol=1e-10, max_iter=200_000, relative_to="old", floor=0.0,
                         saturated=lambda v: not np.all(np.isfinite(v)))
        b = ("sat", fp.iterations, fp.residual) if fp.saturated else ("ok", fp.iterations, float(fp.x[0]), fp.residual)
        assert a == b
        a = legacy_2003(lam)
        fp = fixed_point(f(lam), [3.0], damping=1.0, tol=1e-11, max_iter=200_000, scale_tol=True,
                         saturated=lambda v: not np.all(np.isfinite(v)) or np.any(v > 1e12))
        b = ("sat", fp.iterations) if fp.saturated else ("ok", fp.iterations, float(fp.x[0]))
        assert a == b
    assert outcomes == {"ok", "sat"}


def test_recipe_torus_ipp_newton_loop():
    """torus_ipp/solve.py _blocking_fixed_point: Newton steps with a finite-difference slope,
    test |f(b) - b| <= tol max(1, b), returns f(b); evaluations and |step| reported."""

    def make(lam):
        def fmap(b):
            rho = lam * (10.0 + b)
            return math.inf if rho >= 1.0 else 40.0 * rho * rho / (1.0 - rho)
        return fmap

    def legacy(f, bmax, tol=1e-10, max_iter=500):
        b = 0.0
        fb = f(b)
        evals = 1
        if not math.isfinite(fb):
            return None, evals, math.inf
        for _ in range(max_iter):
            step = fb - b
            if abs(step) <= tol * max(1.0, b):
                return fb, evals, abs(step)
            h = max(1e-7 * max(1.0, b), 1e-3 * step)
            fh = f(b + h)
            evals += 1
            if not math.isfinite(fh):
                return None, evals, math.inf
            slope = (fh - fb) / h
            if slope >= 1.0:
                if step > 0:
                    return None, evals, math.inf
                new = fb
            else:
                new = max(b + step / (1.0 - slope), fb)
            if new >= bmax:
                new = 0.5 * (b + bmax) if fb < bmax else bmax
                if new >= bmax * (1 - 1e-12):
                    return None, evals, math.inf
            b = new
            fb = f(b)
            evals += 1
            if not math.isfinite(fb):
                return None, evals, math.inf
        raise AssertionError

    def recipe(f, bmax, tol=1e-10, max_iter=500):
        evals = 0

        def F(x):
            nonlocal evals
            evals += 1
            v = f(float(x[0]))
            if not math.isfinite(v):
                raise Saturated("channel")
            return np.array([v])

        def newton(x, fx):
            b, fb = float(x[0]), float(fx[0])
            step = fb - b
            h = max(1e-7 * max(1.0, b), 1e-3 * step)
            fh = float(F(np.array([b + h]))[0])
            slope = (fh - fb) / h
            if slope >= 1.0:
                if step > 0:
                    raise Saturated("no fixed point")
                new = fb
            else:
                new = max(b + step / (1.0 - slope), fb)
            if new >= bmax:
                new = 0.5 * (b + bmax) if fb < bmax else bmax
                if new >= bmax * (1 - 1e-12):
                    raise Saturated("channel")
            return np.array([new])

        fp = fixed_point(F, [0.0], damping=1.0, tol=tol, max_iter=max_iter, relative_to="old", scale_tol=True,
                         update=newton)
        return (None, evals, math.inf) if fp.saturated else (float(fp.x[0]), evals, fp.change)

    outcomes = set()
    for lam in np.linspace(0.002, 0.09, 45):
        bmax = 1.0 / lam - 10.0
        a, b = legacy(make(lam), bmax), recipe(make(lam), bmax)
        assert a == b
        outcomes.add(a[0] is None)
    assert outcomes == {True, False}


def test_recipe_xfolded_damped_loop_with_non_finite_saturation():
    """xfolded_tm/solve.py: damped iteration whose map returns inf past rho >= 1 (was a
    ConvergenceError with residual inf caught by the caller; now the predicate)."""

    def make(lam):
        def step(S):
            prev = np.concatenate(([32.0], S[:-1]))
            rho = lam * S
            with np.errstate(divide="ignore", invalid="ignore"):
                W = np.where(rho < 1, lam * S * S / (2 * (1 - rho)) + (S - prev) ** 2 * lam, np.inf)
            return 32.0 + np.cumsum(2.0 * (1.0 + 0.5 * W))
        return step

    outcomes = set()
    for lam in np.linspace(0.001, 0.03, 30):
        S0 = np.array([34.0, 36.0])
        try:
            fp = fixed_point(make(lam), S0, damping=0.5, tol=1e-11, max_iter=20_000)
            old = ("ok", fp.iterations, tuple(fp.x))
        except ConvergenceError as err:
            assert err.residual == math.inf
            old = ("sat", err.iterations)
        new = fixed_point(make(lam), S0, damping=0.5, tol=1e-11, max_iter=20_000,
                          saturated=lambda S: not np.all(np.isfinite(S)))
        got = ("sat", new.iterations) if new.saturated else ("ok", new.iterations, tuple(new.x))
        assert got == old
        outcomes.add(old[0])
    assert outcomes == {"ok", "sat"}


@pytest.mark.parametrize("opts", [
    dict(damping=0.5), dict(damping=1.0), dict(damping=1.0, relative_to="old", floor=0.0),
    dict(damping=0.7, scale_tol=True), dict(damping=1.0, relative=False), dict(damping=1.0, scale_tol=True, relative=False),
])
@pytest.mark.parametrize("g, x0", [(math.cos, 1.0), (lambda v: 0.5 * v + 3.0, 0.0), (lambda v: 2.0 + 1.0 / (1.0 + v), 10.0)])
def test_one_unknown_takes_the_same_path_as_the_array_iteration(opts, g, x0):
    """The scalar fast path (shape (1,)) gives the numbers of the general path (two identical rows)."""
    one = fixed_point(lambda x: [g(x[0])], [x0], tol=1e-13, **opts)
    two = fixed_point(lambda x: [g(x[0]), g(x[1])], [x0, x0], tol=1e-13, **opts)
    assert one.iterations == two.iterations and one.converged == two.converged
    assert one.x[0] == two.x[0] and one.residual == two.residual and one.change == two.change


def test_one_unknown_saturated_and_non_finite_like_the_array_iteration():
    grow = lambda v: 2.0 * v + 1.0  # noqa: E731
    for sat in (lambda x: bool(x[0] > 100) and "too large", None):
        kw = dict(damping=1.0, max_iter=50, saturated=sat, raise_on_failure=False)
        one = fixed_point(lambda x: [grow(x[0])], [1.0], **kw)
        two = fixed_point(lambda x: [grow(x[0]), grow(x[1])], [1.0, 1.0], **kw)
        assert (one.iterations, one.saturated, one.reason, one.converged) == (two.iterations, two.saturated, two.reason, two.converged)
    with pytest.raises(ConvergenceError, match="became non-finite"):
        fixed_point(lambda x: [math.inf], [1.0], damping=1.0)


# ----------------------------------------------------------------------------
# monotone_fixed_point_exists (#16)
# ----------------------------------------------------------------------------
def _fold(a):
    """x -> a + x^2 / 4 on [0, 2): a fixed point iff a <= 1 (tangent at a = 1); the pole at x = 2."""
    def f(x):
        x = np.asarray(x, dtype=float)
        if np.any(x >= 2.0):
            raise Saturated("pole")
        return a + x * x / 4.0
    return f


@pytest.mark.parametrize("a", [0.1, 0.5, 0.9, 0.99, 0.999])
def test_monotone_certificate_is_an_upper_bound_of_the_least_fixed_point(a):
    from models.core.fixed_point import monotone_fixed_point_exists

    f = _fold(a)
    outcome, u, evals = monotone_fixed_point_exists(f, [0.0], tol=1e-12, max_iter=100_000)
    least = 2.0 - 2.0 * np.sqrt(1.0 - a)
    assert outcome in ("certified", "converged")
    if outcome == "certified":
        assert np.all(f(u) <= u) and u[0] >= least - 1e-12  # f(u) <= u, and u above the least fixed point
    plain = fixed_point(f, [0.0], damping=1.0, tol=1e-12, max_iter=100_000)
    assert plain.converged and evals <= plain.iterations + 2


@pytest.mark.parametrize("a", [1.0001, 1.01, 1.5])
def test_monotone_no_fixed_point_is_saturated_where_the_plain_iteration_is(a):
    from models.core.fixed_point import monotone_fixed_point_exists

    f = _fold(a)
    outcome, x, evals = monotone_fixed_point_exists(f, [0.0], tol=1e-12, max_iter=100_000)
    plain = fixed_point(f, [0.0], damping=1.0, tol=1e-12, max_iter=100_000)
    assert outcome == "saturated" and plain.saturated
    assert evals >= plain.iterations  # no shortcut to a saturation verdict: the plain iteration proves it


def test_monotone_vector_map_and_undecided():
    from models.core.fixed_point import monotone_fixed_point_exists

    A = np.array([[0.5, 0.2], [0.1, 0.6]])
    outcome, u, _ = monotone_fixed_point_exists(lambda x: A @ x + 1.0, [0.0, 0.0], tol=1e-14)
    assert outcome in ("certified", "converged") and np.all(A @ u + 1.0 <= u)
    outcome, _, evals = monotone_fixed_point_exists(lambda x: x + 1.0, [0.0], tol=1e-12, max_iter=50)
    assert outcome == "undecided" and evals >= 50


def _as_matrix(f):
    """``f`` on a (1, 1) array: the same map, taken by monotone_fixed_point_exists's general (array) path."""
    def g(x):
        return np.asarray(f(np.asarray(x, dtype=float).reshape(1)), dtype=float).reshape(1, 1)
    return g


@settings(max_examples=300, deadline=None)
@given(a=st.floats(0.0, 3.0), b=st.floats(0.0, 1.2), c=st.floats(0.0, 1.0), x0=st.floats(0.0, 2.0),
       pole=st.sampled_from([None, 1.0, 3.0, 50.0]), tol=st.sampled_from([1e-6, 1e-9, 1e-12, 0.0]),
       max_iter=st.sampled_from([1, 2, 5, 40, 3000]), relative_to=st.sampled_from(["new", "old"]),
       floor=st.sampled_from([0.0, 1.0]), every=st.sampled_from([1, 2, 3]), big=st.sampled_from([None, 10.0, 1e6]))
def test_monotone_one_unknown_on_floats_is_the_array_path(a, b, c, x0, pole, tol, max_iter, relative_to, floor,
                                                          every, big):
    """#16: the 1-element path (Python floats) takes the same steps, certificates and outcome as the array path."""
    from models.core.fixed_point import monotone_fixed_point_exists

    def f(x):
        x = np.asarray(x, dtype=float)
        if pole is not None and np.any(x >= pole):
            raise Saturated("pole")
        return a + b * x + c * x * x

    sat = None if big is None else (lambda v: bool(np.any(np.asarray(v) > big)))
    kw = dict(tol=tol, max_iter=max_iter, saturated=sat, relative_to=relative_to, floor=floor, every=every)
    one = monotone_fixed_point_exists(f, [x0], **kw)
    arr = monotone_fixed_point_exists(_as_matrix(f), [[x0]], **kw)
    assert one[0] == arr[0] and one[2] == arr[2]
    assert one[1].shape == (1,) and np.array_equal(one[1], arr[1].reshape(1), equal_nan=True)
