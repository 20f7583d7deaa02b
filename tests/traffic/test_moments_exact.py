"""Counting moments of MMPP(2)/IPP exact in short windows (issue #15), against 50-digit references.

The reference is the definition itself, evaluated with mpmath at 50 digits:
the ``k``-th factorial moment is ``k! pi [exp(B t)]_{0,k} e`` with ``B`` the
block-bidiagonal generator (``Q`` on the diagonal, ``Lambda`` above it), the
same identity as :func:`models.traffic.moments.factorial_moments_expm`.  At
``s t = 1e-9`` the third moment is ``~t^3`` while the matrix exponential's
entries are ``~1``: 50 digits leave more than 20 after the cancellation.
"""

import math

import mpmath as mp
import numpy as np
import pytest

from models.traffic import moments, process

#: Windows as ``x = s t`` (s = sigma1 + sigma2), from 1e-9 to 1e3.
X_VALUES = [1e-9, 3e-8, 1e-6, 1e-4, 1e-3, 0.01, 0.1, 0.5, 1.0, 1.9999999, 2.0, 2.0000001, 3.0, 10.0, 50.0, 1e3]
#: Processes: MMPP(2)s of both signs of c3, IPPs (an off state with zero rate), near-Poisson, lopsided switching.
PROCESSES = [
    process.MMPP2(0.9, 0.1, 0.2, 0.8),
    process.MMPP2(0.1, 0.9, 0.2, 0.8),
    process.MMPP2(2.5, 1.5, 1e-3, 5e-4),
    process.MMPP2(0.3, 0.2999, 0.05, 0.07),
    process.MMPP2(5.0, 0.01, 3.0, 1e-3),
    process.IPP(0.9, 0.2, 0.8),
    process.IPP(0.004, 0.2, 0.8),
    process.IPP(0.004, 0.8, 0.2),
    process.IPP(1.0, 1e-4, 10.0),
    process.IPP(1e-3, 50.0, 1e-2),
]
mp.mp.dps = 50


def _mp_reference(proc, t):
    """``(E N, E N(N-1), E N(N-1)(N-2))`` from the matrix-exponential definition at 50 digits."""
    with mp.workdps(50):
        s1, s2, m1, m2 = (mp.mpf(v) for v in (proc.sigma1, proc.sigma2, proc.mu1, proc.mu2))
        Q = [[-s1, s1], [s2, -s2]]
        L = [[m1, 0], [0, m2]]
        B = mp.zeros(8, 8)
        for i in range(4):
            for a in range(2):
                for b in range(2):
                    B[2 * i + a, 2 * i + b] = Q[a][b]
                    if i < 3:
                        B[2 * i + a, 2 * i + 2 + b] = L[a][b]
        E = mp.expm(B * mp.mpf(t))
        pi = [s2 / (s1 + s2), s1 / (s1 + s2)]
        return [math.factorial(k) * sum(pi[a] * (E[a, 2 * k] + E[a, 2 * k + 1]) for a in range(2)) for k in (1, 2, 3)]


CASES = [(i, x) for i in range(len(PROCESSES)) for x in X_VALUES]


@pytest.fixture(scope="module")
def references():
    out = {}
    for i, x in CASES:
        p = PROCESSES[i]
        t = x / (p.sigma1 + p.sigma2)
        out[i, x] = (t, _mp_reference(p, t))
    return out


@pytest.mark.parametrize("i", range(len(PROCESSES)))
def test_factorial_moments_exact_at_every_window(i, references):
    p = PROCESSES[i]
    for x in X_VALUES:
        t, ref = references[i, x]
        got = moments.factorial_moments(p, t)
        for k in range(3):
            rel = abs(mp.mpf(float(got[k])) - ref[k]) / ref[k]
            assert rel < 1e-10, (p, x, k + 1, float(got[k]), float(ref[k]), float(rel))
        assert float(moments.g3(p, t)) == pytest.approx(float(ref[2]), rel=1e-10, abs=0)
        assert float(moments.mean_count(p, t)) == pytest.approx(float(ref[0]), rel=1e-12, abs=0)


@pytest.mark.parametrize("i", range(len(PROCESSES)))
def test_idc_and_third_central_moment_exact_at_every_window(i, references):
    p = PROCESSES[i]
    for x in X_VALUES:
        t, (f1, f2, f3) = references[i, x]
        var = f2 + f1 - f1**2
        m3 = f3 + 3 * f2 + f1 - 3 * f1 * (f2 + f1) + 2 * f1**3
        got_idc = mp.mpf(float(moments.idc(p, t)))
        assert abs(got_idc - var / f1) / (var / f1) < 1e-12, (p, x)
        got_m3 = mp.mpf(float(moments.third_central_moment(p, t)))
        # exact relative to the magnitude of its three terms (c3 < 0 makes m3 a difference)
        c3 = mp.mpf(p.c3)
        scale = f1 + 3 * abs(var - f1) + 6 * abs(c3) * mp.mpf(t) ** 3
        assert abs(got_m3 - m3) <= 1e-10 * scale, (p, x, float(got_m3), float(m3))
        if abs(m3) > 1e-3 * scale:
            assert abs(got_m3 - m3) / abs(m3) < 1e-9, (p, x)


def test_kernels_against_mpmath_on_both_sides_of_the_switch():
    xs = np.concatenate([np.logspace(-12, 3, 61), [2 - 1e-12, 2.0, 2 + 1e-12, 0.0]])
    psi2, psi3, omega = moments.kernels(xs)
    with mp.workdps(60):
        for x, a, b, c in zip(xs, psi2, psi3, omega):
            X = mp.mpf(float(x))
            if X == 0:
                ref = (mp.mpf(1) / 2, mp.mpf(1) / 6, mp.mpf(1) / 6)
            else:
                e = mp.exp(-X)
                ref = ((X - 1 + e) / X**2, (X**2 / 2 - X + 1 - e) / X**3, (X - 2 + (X + 2) * e) / X**3)
            for got, r in zip((a, b, c), ref):
                assert abs(mp.mpf(float(got)) - r) / r < 1e-15, (x, float(got), float(r))
    assert moments.kernels(0.5)[0].shape == ()


def test_exact_forms_equal_the_derived_expressions_where_those_are_accurate():
    """At moderate windows the SymPy derivation (eqs. 8-12) and the exact forms agree to rounding."""
    f = moments._moment_functions()
    for p in PROCESSES:
        for x in (0.5, 3.0, 40.0):
            t = x / p.s
            derived = np.array(f["factorial"](*moments._args(p), t), dtype=float)
            assert np.allclose(moments.factorial_moments(p, t), derived, rtol=1e-9, atol=0), (p, x)
            assert float(moments.third_central_moment(p, t)) == pytest.approx(float(f["m3"](*moments._args(p), t)),
                                                                              rel=1e-7, abs=1e-12 * t)


def test_derived_expressions_do_lose_short_windows():
    """Why the rewrite: the derivation's expressions cancel for small ``s t`` (issue #15)."""
    f = moments._moment_functions()
    p = process.IPP(0.9, 0.2, 0.8)
    t = 1e-6 / p.s
    derived = float(f["factorial"](*moments._args(p), t)[2])
    exact = float(moments.factorial_moments(p, t)[2])
    assert abs(derived - exact) > 0.1 * exact


def test_moments_are_vectorised_over_windows():
    p = process.IPP(0.004, 0.2, 0.8)
    ts = np.array([1e-8, 1.0, 1e4])
    for fn in (moments.mean_count, moments.idc, moments.third_central_moment, moments.g3):
        v = fn(p, ts)
        assert v.shape == ts.shape and np.all(np.isfinite(v))
        assert np.allclose(v, [float(fn(p, t)) for t in ts], rtol=1e-15)
