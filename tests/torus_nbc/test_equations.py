"""The SymPy equations of torus_nbc: readings, reductions and agreement with the shared pieces."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from models.queueing import mg1, vc_occupancy
from models.networks.adaptive_paths import phi as phi_ok
from models.torus_nbc import equations
from models.torus_nbc import equations as _eqfn  # noqa: F401
from models.torus_nbc.equations import SYMBOLS as s
from models.torus_nbc.equations import numeric_forms
from models.torus_nbc.solve import _coefficients

E = equations()


def test_every_paper_equation_is_present():
    for n in [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]:
        assert f"eq:{n}" in E


@pytest.mark.parametrize("kbar", [1, 2, 4])
def test_phi_eqs_8_to_10_match_the_shared_adaptive_module(kbar):
    d = 2 * kbar
    phi = numeric_forms()["phi"].subs(s.P_phi, E["eq:9"].rhs)
    for h in range(d):
        value = phi.subs({s.h: h, s.kbar: kbar, s.d: d})
        assert sp.nsimplify(value) == sp.Rational(phi_ok(h, 2, kbar).numerator, phi_ok(h, 2, kbar).denominator)


def test_eq_18_and_19_are_the_shared_mg1_wormhole_wait():
    rng = np.random.default_rng(3)
    f18 = sp.lambdify((s.lam_c, s.S_c, s.M), E["eq:18"].rhs)
    f19 = sp.lambdify((s.lam_g, s.V, s.S, s.M), E["eq:19"].rhs)
    for _ in range(20):
        M = rng.uniform(8, 64)
        S = M + rng.uniform(0, 30)
        lam = rng.uniform(0, 0.9 / S)
        assert math.isclose(f18(lam, S, M), mg1.mg1_wait_wormhole(lam, S, M), rel_tol=1e-12)
        V = int(rng.integers(1, 12))
        assert math.isclose(f19(lam * V, V, S, M), mg1.mg1_wait_wormhole(lam, S, M), rel_tol=1e-12)


@pytest.mark.parametrize("V", [4, 10])
def test_eq_20_recursion_is_the_shared_occupancy_chain(V):
    lam, S = 0.011, 41.0
    Q = [sp.Integer(1)]
    for v in range(1, V + 1):
        rhs = E["eq:20"].rhs.subs({s.v: v, s.V: V, s.lam_c: lam, s.S_c: S}).subs(sp.Indexed(s.Q, v - 1), Q[-1])
        Q.append(rhs)
    P = np.array([float(q) for q in Q])
    P /= P.sum()
    assert np.allclose(P, vc_occupancy.occupancy(V, lam * S), rtol=1e-12, atol=1e-15)


def _expand(total, P):
    """Evaluate a (nested) SymPy Sum with concrete limits term by term (outermost limit last)."""
    def rec(expr, limits, env):
        if not limits:
            value = expr.subs(env).subs({sp.Indexed(s.P, v): P[v] for v in range(len(P))})
            return float(value)
        var, lo, hi = limits[-1]
        lo, hi = int(lo.subs(env)), int(hi.subs(env))
        return sum(rec(expr, limits[:-1], {**env, var: i}) for i in range(lo, hi + 1))
    return rec(total.function, list(total.limits), {})


@pytest.mark.parametrize("V,V2,delta", [(10, 5, 1), (10, 5, 4), (10, 5, 7), (10, 9, 3), (10, 9, 16), (6, 3, 2)])
def test_coefficient_matrices_equal_the_sympy_sums(V, V2, delta):
    """C_i @ P equals eqs. (12), (14), (15) evaluated by SymPy with concrete numbers."""
    V1 = V - V2
    rng = np.random.default_rng(delta)
    P = rng.dirichlet(np.ones(V + 1))
    D = max(delta, 2)
    C = _coefficients(V, V1, V2, D)
    for key, Ci, w in (("eq:12", C[0], "eq:13"), ("eq:14", C[1], "eq:16"), ("eq:15", C[2], "eq:16")):
        weight = E[w].rhs.subs({s.V1: V1, s.V2: V2, s.Delta: delta})
        expr = E[key].rhs.subs({s.P_v0: weight, s.P_vl: weight}).subs({s.V: V, s.V1: V1, s.V2: V2, s.Delta: delta})
        assert math.isclose(_expand(expr, P), float(Ci[delta - 1] @ P), rel_tol=1e-10, abs_tol=1e-14), key


def test_usable_vcs_shrink_with_the_level_as_the_text_says():
    """The text: a message that came on level l may use V1 + V2 - ceil(D/2) - l + 1 VCs (class 2); the OCR'd
    binomials of eq. (14) would give a lower summation limit V1 + ceil(D/2) + l, growing with l."""
    sub = {s.V1: 5, s.V2: 5, s.Delta: 4}
    A2 = [E["A2"].subs(sub).subs(s.l, l) for l in (1, 2, 3)]
    assert A2[0] > A2[1] > A2[2]
    printed = E["eq:14_printed"].rhs.limits[0][1]
    lows = [printed.subs(sub).subs(s.l, l) for l in (1, 2, 3)]
    assert lows[0] < lows[1] < lows[2]
    assert E["A3"].subs(sub).subs(s.l, 1) == A2[0] + 1


def test_class_weights():
    """P_v0 + sum over the levels of P_vl (classes 2 and 3 averaged) = (A1 - 1/2) / A1 (eqs. 13, 16)."""
    for V1, V2, delta in [(5, 5, 1), (5, 5, 8), (1, 9, 16)]:
        sub = {s.V1: V1, s.V2: V2, s.Delta: delta}
        A1 = E["A1"].subs(sub)
        c = math.ceil(delta / 2)
        total = E["eq:13"].rhs.subs(sub) + E["eq:16"].rhs.subs(sub) * ((V2 - c) + (V2 - c + 1)) / 2
        assert sp.simplify(total - (A1 - sp.Rational(1, 2)) / A1) == 0


def test_zero_load_latency_is_message_plus_hops():
    f = numeric_forms()
    assert f["S_H"].subs(s.sum_B, 0) == s.M + s.H
    assert sp.simplify(f["W_c"].subs(s.lam_c, 0)) == 0
    assert f["latency"].subs({s.W_s: 0, s.Vbar: 1}) == s.S
