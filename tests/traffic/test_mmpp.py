"""MMPP(2) counting moments (derived from the PGF), the Heffes-Lucantoni fit and superposition."""

import math

import numpy as np
import pytest
import sympy as sp

from models.traffic import fit, moments, process

mu1, mu2, sigma1, sigma2, t = (getattr(moments.SYMBOLS, n) for n in ("mu1", "mu2", "sigma1", "sigma2", "t"))

RNG = np.random.default_rng(2024)


def _random_mmpp(rng):
    return process.MMPP2(rng.uniform(0.05, 3), rng.uniform(0, 1.5), rng.uniform(0.01, 2), rng.uniform(0.01, 2))


@pytest.mark.parametrize("case", range(40))
def test_symbolic_moments_match_numerical_pgf(case):
    rng = np.random.default_rng(case)
    p = _random_mmpp(rng)
    for tv in (0.05, 0.7, 3.0, 25.0):
        ref = moments.factorial_moments_expm(p.Q, p.Lambda, tv)
        got = moments.factorial_moments(p, tv)
        assert np.allclose(got, ref, rtol=1e-10, atol=0), (p, tv, got, ref)
        m1, f2, f3 = ref
        var = f2 + m1 - m1**2
        m3 = f3 + 3 * f2 + m1 - 3 * m1 * (f2 + m1) + 2 * m1**3
        assert float(moments.mean_count(p, tv)) == pytest.approx(m1, rel=1e-10)
        assert float(p.idc(tv)) == pytest.approx(var / m1, rel=1e-10)
        assert float(moments.third_central_moment(p, tv)) == pytest.approx(m3, rel=1e-9, abs=1e-10 * f3)
        assert float(moments.g3(p, tv)) == pytest.approx(f3, rel=1e-10)


def test_idc_limit_and_ipp():
    p = process.IPP(0.9, 0.2, 0.8)
    assert p.mu2 == 0 and p.mean_rate == pytest.approx(0.72)
    assert float(p.idc(1e7)) == pytest.approx(p.idc_inf(), rel=1e-6)
    assert p.idc_inf() == pytest.approx(1 + 2 * p.c2 / (p.s * p.mean_rate))


def test_derivation_reproduces_printed_equations_8_to_11():
    d = moments.derivation()
    s = sigma1 + sigma2
    lam = (mu1 * sigma2 + mu2 * sigma1) / s
    printed_10 = (1 + 2 * (mu1 - mu2) ** 2 * sigma1 * sigma2 / (s**2 * (mu1 * sigma2 + mu2 * sigma1))
                  - 2 * sigma1 * sigma2 * (mu1 - mu2) ** 2 * (1 - sp.exp(-s * t)) / (s**3 * (mu1 * sigma2 + mu2 * sigma1) * t))
    printed_11 = 1 + 2 * (mu1 - mu2) ** 2 * sigma1 * sigma2 / (s**2 * (mu1 * sigma2 + mu2 * sigma1))
    assert sp.simplify(d["eq:8"].rhs - lam * t) == 0
    assert sp.simplify(d["eq:9"].rhs - lam) == 0
    assert sp.simplify(d["eq:10"].rhs - printed_10) == 0
    assert sp.simplify(d["eq:11"].rhs - printed_11) == 0


def test_A_coefficients_are_outputs_and_rebuild_g3():
    d = moments.derivation()
    s = sigma1 + sigma2
    delta = mu1 - mu2
    # the closed forms of notes/papers.md sec. 1.1 (independent check of the derivation's output)
    ref = {
        "A11": (mu1 * sigma2 + mu2 * sigma1) ** 3 / s**2,
        "A21": 2 * sigma1 * sigma2 * delta**2 * (mu1 * sigma2 + mu2 * sigma1) / s**3,
        "A31": sigma1 * sigma2 * delta**2 * (mu1 * sigma1 - 2 * mu1 * sigma2 - 2 * mu2 * sigma1 + mu2 * sigma2) / s**4,
        "A12": sigma1 * sigma2 * delta**2 * (mu1 * sigma1 + mu2 * sigma2) / s**4,
        "A41": -2 * sigma1 * sigma2 * (sigma1 - sigma2) * delta**3 / s**5,
    }
    for key, expr in ref.items():
        assert sp.simplify(d["A"][key] - expr) == 0, key
    f = sp.lambdify((sigma1, sigma2, mu1, mu2, t), d["eq:12:form"] - d["g3"])
    for case in range(10):
        p = _random_mmpp(np.random.default_rng(100 + case))
        assert abs(f(p.sigma1, p.sigma2, p.mu1, p.mu2, 2.3)) <= 1e-10 * float(moments.g3(p, 2.3))


@pytest.mark.parametrize("true", [(0.9, 0.1, 0.2, 0.8), (2.0, 0.0, 0.05, 0.3), (0.3, 0.25, 1.0, 0.1), (5.0, 1.0, 0.6, 0.6)])
@pytest.mark.parametrize("windows", [(1.0, 10.0), (5.0, 50.0), (0.3, 2.0)])
def test_fit_round_trip(true, windows):
    p = process.MMPP2(*true)
    r = fit.fit_mmpp2(fit.characteristics(p, *windows))
    assert r.feasible and not r.poisson
    got = np.array([r.mmpp.mu1, r.mmpp.mu2, r.mmpp.sigma1, r.mmpp.sigma2])
    assert np.allclose(got, true, rtol=1e-8, atol=1e-10), got


def test_fit_random_round_trips():
    for case in range(30):
        p = _random_mmpp(np.random.default_rng(500 + case))
        if p.mu1 < p.mu2:
            p = process.MMPP2(p.mu2, p.mu1, p.sigma2, p.sigma1)  # the fit orders lambda1 >= lambda2
        r = fit.fit_mmpp2(fit.characteristics(p, 1.0 / p.s, 4.0 / p.s))
        got = np.array([r.mmpp.mu1, r.mmpp.mu2, r.mmpp.sigma1, r.mmpp.sigma2])
        assert np.allclose(got, [p.mu1, p.mu2, p.sigma1, p.sigma2], rtol=1e-6, atol=1e-9), (p, r.mmpp)


# The seed-001 table of notes/papers.md sec. 1.3: delta1, delta2, lambda1/mu1, lambda2/mu1
TABLE = {
    (0.2, 0.8, 2): (0.26574, 0.73426, 1.94031, 0.65969),
    (0.6, 0.6, 2): (0.6, 0.6, 1.70711, 0.29289),
    (0.09, 0.09, 3): (0.09, 0.09, 2.36603, 0.63397),
    (0.05, 0.8, 3): (0.11281, 0.73719, 2.98296, 1.78175),
}


@pytest.mark.parametrize("key", list(TABLE))
def test_superposition_matches_the_table_and_the_general_fit(key):
    s1, s2, n = key
    for mu in (1.0, 0.004):
        src = process.IPP(mu, s1, s2)
        closed = fit.superposition_closed_form(src, n)
        got = np.array([closed.sigma1, closed.sigma2, closed.mu1 / mu, closed.mu2 / mu])
        assert np.allclose(got, TABLE[key], atol=6e-6)
        for windows in ((None, None), (1.0, 10.0), (5.0, 50.0)):
            gen = fit.fit_superposition(src, n, t1=windows[0], t2=windows[1]).mmpp
            g = np.array([gen.sigma1, gen.sigma2, gen.mu1, gen.mu2])
            c = np.array([closed.sigma1, closed.sigma2, closed.mu1, closed.mu2])
            assert np.allclose(g, c, rtol=1e-9), windows


@pytest.mark.parametrize("n", [1.0, 1.7, 2.5, 4.0, 10.0])
def test_closed_form_equals_general_fit_for_mmpp_sources(n):
    src = process.MMPP2(0.8, 0.3, 0.15, 0.4)
    gen = fit.fit_superposition(src, n).mmpp
    closed = fit.superposition_closed_form(src, n)
    assert np.allclose([gen.sigma1, gen.sigma2, gen.mu1, gen.mu2],
                       [closed.sigma1, closed.sigma2, closed.mu1, closed.mu2], rtol=1e-9)
    # and the matched process has the superposed characteristics
    ch = fit.superposed_characteristics(src, n, 1.3, 7.0)
    assert closed.mean_rate == pytest.approx(ch.mean_rate, rel=1e-12)
    assert float(closed.idc(1.3)) == pytest.approx(ch.idc_t1, rel=1e-10)
    assert closed.idc_inf() == pytest.approx(ch.idc_inf, rel=1e-10)
    assert float(moments.third_central_moment(closed, 7.0)) == pytest.approx(ch.m3_t2, rel=1e-8)
    # n = 1 gives the source back
    if n == 1.0:
        assert np.allclose([closed.mu1, closed.mu2, closed.sigma1, closed.sigma2], [0.8, 0.3, 0.15, 0.4])


def test_superposition_closed_form_is_derived():
    e = fit.superposition_equations()
    assert sp.simplify(e["h"] - (sigma1 - sigma2) * (mu1 - mu2)) == 0
    # the closed form reproduces n times the rate, the source's s and n times c2 (symbolically)
    n = moments.n_s
    s = sigma1 + sigma2
    d1, d2, l1, l2 = e["delta1"], e["delta2"], e["lambda1"], e["lambda2"]
    lam = (mu1 * sigma2 + mu2 * sigma1) / s
    assert sp.simplify(d1 + d2 - s) == 0
    assert sp.simplify((l1 * d2 + l2 * d1) / (d1 + d2) - n * lam) == 0
    c2 = sigma1 * sigma2 * (mu1 - mu2) ** 2 / s**2
    vals = {sigma1: 0.3, sigma2: 0.7, mu1: 1.1, mu2: 0.2, n: 2.7}
    assert float((d1 * d2 * (l1 - l2) ** 2 / (d1 + d2) ** 2).subs(vals)) == pytest.approx(float((n * c2).subs(vals)))


def test_infeasible_fit_raises_or_falls_back():
    src = process.IPP(0.01, 0.2, 0.8)
    with pytest.raises(ValueError, match="infeasible"):
        fit.fit_superposition(src, 0.5)
    with pytest.raises(ValueError, match="infeasible"):
        fit.superposition_closed_form(src, 0.5)
    r = fit.fit_superposition(src, 0.5, on_infeasible="ipp")
    assert not r.feasible and r.mmpp.mu2 == pytest.approx(0.0, abs=1e-15)
    ch = fit.superposed_characteristics(src, 0.5, 1.0, 10.0)
    assert r.mmpp.mean_rate == pytest.approx(ch.mean_rate, rel=1e-10)
    assert float(r.mmpp.idc(1.0)) == pytest.approx(ch.idc_t1, rel=1e-9)
    assert r.mmpp.idc_inf() == pytest.approx(ch.idc_inf, rel=1e-9)


def test_bad_parameters_raise_value_errors():
    with pytest.raises(ValueError, match="sigma1"):
        process.IPP(0.1, 0.0, 0.5)
    with pytest.raises(ValueError, match="sigma2"):
        process.IPP(0.1, 0.5, -1.0)
    with pytest.raises(ValueError, match="mu1"):
        process.IPP(0.0, 0.5, 0.5)
    with pytest.raises(ValueError, match="n"):
        fit.fit_superposition(process.IPP(0.1, 0.5, 0.5), 0.0)
    with pytest.raises(ValueError, match="IDC"):
        fit.fit_mmpp2(fit.Characteristics(0.5, 1.5, 1.2, 0.1, 1.0, 10.0))
    with pytest.raises(ValueError, match="on_infeasible"):
        fit.fit_superposition(process.IPP(0.1, 0.5, 0.5), 2, on_infeasible="maybe")


def test_poisson_is_a_fixed_point_of_the_fit():
    p = process.poisson(0.3)
    assert p.is_poisson and p.idc_inf() == pytest.approx(1.0)
    r = fit.fit_superposition(p, 3)
    assert r.poisson and r.mmpp.mean_rate == pytest.approx(0.9)
    assert fit.superposition_closed_form(p, 2.5).mean_rate == pytest.approx(0.75)
    assert math.isclose(float(p.idc(4.0)), 1.0)
