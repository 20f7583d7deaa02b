"""The SymPy equations of the x-Folded TM model: identities the chapter relies on."""

import numpy as np
import pytest
import sympy as sp

from models.core.symbolic import lambdify_cached
from models.xfolded_tm import equations, theorem1
from models.xfolded_tm.equations import SYMBOLS as s
from models.xfolded_tm.equations import channel_terms, theorem1_k3_closed_form, theorem1_printed_limit


def test_all_paper_equations_present():
    e = equations()
    for n in range(1, 12):
        assert f"eq:{n}" in e
    assert {"eq:5_k3", "eq:6_links", "eq:11_mean"} <= set(e)


def test_theorem1_as_printed_is_below_one():
    assert theorem1(3) == 1.0
    assert theorem1(4) == pytest.approx(13 / 15)  # (1 + 12) / 15
    vals = [theorem1(k) for k in range(4, 40)]
    assert all(v < 1 for v in vals)
    assert theorem1_printed_limit() == 1


def test_theorem1_reading_is_k_over_3():
    assert theorem1_k3_closed_form() == s.k / 3
    for k in range(3, 20):
        assert theorem1(k, "k/3") == pytest.approx(k / 3)
    # k/3 satisfies the eq:5_k3 recursion identically
    rhs = equations()["eq:5_k3"].rhs.subs(s.AD_prev, (s.k - 1) / 3)
    assert sp.simplify(rhs - s.k / 3) == 0


def test_eq6_is_the_torus_channel_load():
    e = equations()
    # channel load lambda N d / C with C = 2 n N channels (bidirectional torus) and n = 2
    links = e["eq:6_links"].rhs.subs({s.C: 2 * s.n * s.N, s.n: 2})
    assert sp.simplify(links - e["eq:6"].rhs) == 0


def test_eq10_limits():
    w = equations()["eq:10"].rhs
    assert sp.limit(w, s.lam, 0) == 0
    # deterministic service (S_j - S_{j-1} = 0): P-K with zero variance
    det = w.subs(s.S_jm1, s.S_j)
    rho = s.lam / s.Vbar * s.S_j
    assert sp.simplify(det - rho * s.S_j / (2 * (1 - rho))) == 0


@pytest.mark.parametrize("V", [1, 2, 8])
def test_channel_terms(V):
    t = channel_terms(V)
    assert sp.simplify(t["P_b"] - t["rho"] ** V) == 0
    assert sp.simplify(t["Vbar_j"].subs(t["rho"], 0)) == 1
    assert sp.simplify(sum(t["p"]) - 1) == 0


def test_lambdified_equals_symbolic_at_random_points():
    rng = np.random.default_rng(4)
    e = equations()
    f = lambdify_cached((s.lam, s.Vbar, s.S_j, s.S_jm1), e["eq:10"])
    for _ in range(20):
        lam, vb, sj = rng.uniform(0.001, 0.01), rng.uniform(1, 3), rng.uniform(30, 60)
        sjm1 = sj - rng.uniform(0, 5)
        exact = float(e["eq:10"].rhs.subs({s.lam: lam, s.Vbar: vb, s.S_j: sj, s.S_jm1: sjm1}))
        assert f(lam, vb, sj, sjm1) == pytest.approx(exact, rel=1e-12)
