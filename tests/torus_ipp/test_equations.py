"""torus_ipp equations (SymPy): the readings, and the shared pieces they are built from."""

from itertools import combinations
from math import comb

import numpy as np
import pytest
import sympy as sp

from models.networks import adaptive_paths
from models.queueing import mg1, mmpp_g1, vc_occupancy as vo
from models.torus_ipp.equations import SYMBOLS as S
from models.torus_ipp.equations import equations


def test_every_paper_equation_is_present():
    e = equations()
    for n in range(1, 30):
        assert f"eq:{n}" in e, n


def test_eq2_and_eq13():
    e = equations()
    kbar = e["eq:2"].rhs
    assert kbar.subs(S.k, 16) == 4 and kbar.subs(S.k, 24) == 6
    assert kbar.subs(S.k, 5) == sp.Rational(5, 4) - sp.Rational(1, 20)
    assert e["eq:13"].rhs == S.kbar / 2


@pytest.mark.parametrize("kbar", [1, 2, 4, 6])
def test_eq23_is_ould_khaoua_psi(kbar):
    e = equations()
    d = 2 * kbar
    f = e["eq:23"].rhs
    for h in range(d):
        val = f.subs({S.i: h, S.kbar: kbar, S.d: d})
        assert sp.nsimplify(val) == adaptive_paths.psi(h, 1, 2, kbar), h


def test_eq6_moments_are_those_of_constant_plus_exponential():
    mom = equations()["eq:6:moments"]
    svc = mmpp_g1.ConstantPlusExponential(56.0, 7.5)
    vals = [float(m.subs({S.M: 48, S.d: 8, S.bbar: 7.5})) for m in mom]
    assert vals == pytest.approx([svc.mean, svc.second_moment, svc.third_moment])
    assert equations()["eq:4:mean"].rhs == S.M + S.d + S.bbar


@pytest.mark.parametrize("V", [3, 4, 5, 8])
def test_eq25_26_from_random_busy_subsets(V):
    """P_a / P_a&b: given v busy VCs (a uniformly random subset), the probability that the
    V-2 class-a VCs are all busy, and that they and one particular escape VC are busy
    (the alternative reading); the printed eq. 26 is 'and at least one escape VC' ."""
    e = equations()
    rho = 0.63
    P = vo.occupancy(V, rho)
    a = set(range(2, V))
    pa = pab_one = pab_any = 0.0
    for v in range(V + 1):
        subsets = list(combinations(range(V), v))
        pa += P[v] * sum(a <= set(s) for s in subsets) / len(subsets)
        pab_one += P[v] * sum((a | {0}) <= set(s) for s in subsets) / len(subsets)
        pab_any += P[v] * sum(a <= set(s) and bool({0, 1} & set(s)) for s in subsets) / len(subsets)
    sub = {S.V: V, S.P_V: P[V], S.P_V1: P[V - 1], S.P_V2: P[V - 2]}
    assert float(e["eq:25"].rhs.subs(sub)) == pytest.approx(pa, rel=1e-12)
    assert float(e["eq:26:specific"].rhs.subs(sub)) == pytest.approx(pab_one, rel=1e-12)
    assert float(e["eq:26"].rhs.subs(sub)) == pytest.approx(pab_any, rel=1e-12)
    for key in ("eq:25", "eq:26", "eq:26:specific"):
        assert sp.simplify(e[key].rhs.subs(S.V, V) - e[key + ":expanded"].rhs.subs(S.V, V)) == 0


def test_eq27_29_are_the_shared_chain():
    e = equations(5)
    assert e["eq:28"] == vo.equations(5)["chain"]
    assert e["eq:29"].rhs == vo.equations(5)["multiplexing"]
    assert len(e["eq:27"]) == 6 and comb(5, 4) == 5


def test_eq19_is_the_shared_mmpp_formula():
    assert equations()["eq:19"][1] == mmpp_g1.mmpp_equations()["W"]
