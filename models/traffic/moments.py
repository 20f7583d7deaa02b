"""Counting-process moments of a two-state MMPP, derived from its PGF (SymPy).

The probability generating function of the number ``N(t)`` of arrivals in
``(0, t]`` from a stationary start is ``g(z, t) = pi exp((Q + (z-1) Lambda) t) e``
(torus_ipp paper, eqs. 7-12).  :func:`derivation` writes the 2x2 matrix
exponential by its spectral (Sylvester) formula and differentiates the PGF
symbolically ``k = 1, 2, 3`` times at ``z = 1`` (factorial moments); the mean
(eq. 8), rate (eq. 9), index of dispersion ``Var N/E N`` at ``t`` (eq. 10) and
in the limit (eq. 11), and the third central moment with ``g^(3)(1, t)``
(eq. 12) follow.  The coefficients ``A_11, A_21, A_31, A_12, A_41`` of
eq. (12) are read off the derived ``g^(3)`` (outputs, not inputs).

The functions :func:`mean_count`, :func:`idc`, :func:`third_central_moment`,
:func:`g3` and :func:`factorial_moments` evaluate the same moments for a
process object (:class:`models.traffic.process.MMPP2`) without cancellation:
the derived expressions subtract nearly equal terms in short windows
(``s t`` small), so they are rewritten with the kernels ``psi2``, ``psi3``,
``omega`` of ``x = s t`` (:func:`kernels`: power series below ``x = 2``,
closed forms of one-signed terms above), exact to 1e-10 relative (in fact to
a few ulps) for any window, tested against 50-digit evaluations of the
matrix-exponential definition (issue #15).  :func:`idc_inf` and
:func:`A_coefficients` evaluate the derived expressions (lambdified once);
:func:`factorial_moments_expm`
evaluates the same moments from the PGF numerically (block-bidiagonal matrix
exponential), the reference the tests use.

Units: time in cycles, rates in arrivals (messages) per cycle.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import sympy as sp
from scipy.linalg import expm, null_space

from ..core.cache import DiskCache, stable_hash
from ..core.paths import cache_dir
from ..core.symbolic import lambdify_cached

__all__ = [
    "SYMBOLS", "derivation", "factorial_moments_expm", "mean_count", "idc", "idc_inf",
    "third_central_moment", "g3", "factorial_moments", "A_coefficients", "disk_cached", "kernels",
]

# ----------------------------------------------------------------------------
# Symbols (shared with models.torus_ipp.equations)
# ----------------------------------------------------------------------------
sigma1, sigma2, mu1 = sp.symbols("sigma_1 sigma_2 mu_1", positive=True)
mu2 = sp.Symbol("mu_2", nonnegative=True)
t = sp.Symbol("t", positive=True)
z = sp.Symbol("z")
n_s = sp.Symbol("n_s", positive=True)

# fit symbols: total switching rate, mean rate, rate variance c2, h, rate gap, third factorial moment
s_ = sp.Symbol("s", positive=True)
lam_ = sp.Symbol("lambda", positive=True)
c2_ = sp.Symbol("c_2", positive=True)
h_ = sp.Symbol("h", real=True)
gap_ = sp.Symbol("Delta", positive=True)
g3_ = sp.Symbol("g^{(3)}", positive=True)
m3_ = sp.Symbol("m_3", real=True)
idc_ = sp.Symbol("IDC", positive=True)



# ----------------------------------------------------------------------------
# Symbolic derivation from the PGF
# ----------------------------------------------------------------------------
def disk_cached(fn):
    """Cache a derivation in memory and on disk (key: this file's text and the SymPy version).

    The derivations take seconds; every notebook kernel would otherwise
    redo them.  A changed file or SymPy gives a new key.
    """
    @functools.cache
    def wrapper():
        key = stable_hash({"fn": fn.__name__, "src": Path(fn.__code__.co_filename).read_text(), "sympy": sp.__version__}, length=32)
        dc = DiskCache(cache_dir() / "sympy")
        value = dc.get(key)
        if value is None:
            value = fn()
            try:
                dc.put(key, value)
            except OSError:
                pass
        return value

    wrapper.__doc__ = fn.__doc__
    wrapper.__name__ = fn.__name__
    wrapper.uncached = fn
    return wrapper


@disk_cached
def derivation() -> dict:
    """Counting-process moments of an MMPP(2), derived from its PGF (SymPy).

    Returns a dict with

    ``pgf``
        ``g(z, t) = pi exp((Q + (z-1) Lambda) t) e`` with the 2x2 exponential
        written by Sylvester's formula (eigenvalues ``a +- D``).
    ``factorial``
        ``[g', g'', g''']`` at ``z = 1``: ``E N``, ``E N(N-1)``, ``E N(N-1)(N-2)``.
    ``eq:8`` ... ``eq:12``
        mean count, mean rate, IDC at ``t``, IDC limit, third central moment;
        ``g3`` is ``g^(3)(1, t)`` and ``A`` the dict of eq. (12)'s coefficients
        (``A11, A21, A31, A12, A41``), with ``eq:12:form`` the printed
        bracket form built from them.
    ``variance``
        ``Var N(t)``.

    Expressions are in ``sigma_1, sigma_2, mu_1, mu_2, t``.  Takes a few
    seconds (cached per process).
    """
    s2 = s_ - sigma1  # write sigma2 = s - sigma1 so that exp(-s t) stays one factor
    Q = sp.Matrix([[-sigma1, sigma1], [s2, -s2]])
    L = sp.diag(mu1, mu2)
    A = Q + (z - 1) * L
    a = A.trace() / 2
    D = sp.sqrt(a**2 - A.det())
    I2 = sp.eye(2)
    # Sylvester: exp(A t) = [e^{(a+D)t}(A-(a-D)I) - e^{(a-D)t}(A-(a+D)I)] / (2D)
    E = (sp.exp((a + D) * t) * (A - (a - D) * I2) - sp.exp((a - D) * t) * (A - (a + D) * I2)) / (2 * D)
    pi = sp.Matrix([[s2, sigma1]]) / s_
    e = sp.Matrix([1, 1])
    g = (pi * E * e)[0]
    X = sp.Symbol("X", positive=True)  # stands for exp(-s t)
    back = {s_: sigma1 + sigma2}
    fact = []
    coeffs = {}
    gk = g
    for k in (1, 2, 3):
        gk = sp.diff(gk, z)
        dk = sp.expand(gk.subs(z, 1))
        dk = dk.subs(sp.exp(-s_ * t), X)
        if dk.has(sp.exp):
            raise RuntimeError(f"MMPP derivation: unexpected exponential in the {k}-th derivative")
        poly = sp.Poly(dk, t, X)
        terms = {mon: sp.factor(c.subs(back)) for mon, c in poly.terms()}
        coeffs[k] = terms
        fact.append(sum(c * t ** mon[0] * X ** mon[1] for mon, c in terms.items()))
    s = sigma1 + sigma2
    ex = sp.exp(-s * t)

    def collect(expr):
        """Collect in t and X = e^{-st} with factored coefficients (numerically stable form)."""
        expr = sp.expand(expr)
        return sp.Add(*[sp.factor(c) * term for term, c in sp.collect(expr, [X], evaluate=False).items()])

    m1, f2, f3 = fact
    var = collect(f2 + m1 - m1**2)
    idc = sp.Add(*[sp.factor(sp.together(c)) * term for term, c in
                   sp.collect(sp.expand(var / m1), [X / t, 1 / t, X], evaluate=False).items()])
    idc_inf = sp.factor(idc.subs(X, 0).subs(1 / t, 0).limit(t, sp.oo))
    m3 = collect(f3 + 3 * f2 + m1 - 3 * m1 * (f2 + m1) + 2 * m1**3)  # E(N-EN)^3 from factorial moments
    m1, f2, f3, var, idc, m3 = (e_.subs(X, ex) for e_ in (m1, f2, f3, var, idc, m3))
    # eq. (12): g3 = 6/s [A11/6 t^3 + A21/2 t^2 + A31 t + A12 t e^{-st} + A41 (1 - e^{-st})]
    c3 = coeffs[3]
    zero = sp.Integer(0)
    if sp.simplify(c3.get((0, 1), zero) + c3.get((0, 0), zero)) != 0:
        raise RuntimeError("MMPP derivation: g''' is not of the form of eq. (12)")
    Aij = {
        "A11": sp.factor(s * c3.get((3, 0), zero)),
        "A21": sp.factor(s * c3.get((2, 0), zero) / 3),
        "A31": sp.factor(s * c3.get((1, 0), zero) / 6),
        "A12": sp.factor(s * c3.get((1, 1), zero) / 6),
        "A41": sp.factor(s * c3.get((0, 0), zero) / 6),
    }
    form = 6 / s * (Aij["A11"] / 6 * t**3 + Aij["A21"] / 2 * t**2 + Aij["A31"] * t + Aij["A12"] * t * ex
                    + Aij["A41"] * (1 - ex))
    EN = sp.Symbol("E[N_s(t)]")
    return {
        "pgf": g.subs(back),
        "factorial": [m1, f2, f3],
        "variance": var,
        "eq:8": sp.Eq(EN, sp.factor(m1)),
        "eq:9": sp.Eq(sp.Symbol("lambda_s"), sp.factor(m1 / t)),
        "eq:10": sp.Eq(sp.Symbol("IDC(t)"), idc),
        "eq:11": sp.Eq(sp.Symbol("IDC(infinity)"), sp.factor(idc_inf)),
        "eq:12": sp.Eq(sp.Symbol("m_3(t)"), m3),
        "eq:12:form": form,
        "g3": f3,
        "A": Aij,
    }


def _moment_functions():
    d = derivation()
    args = (sigma1, sigma2, mu1, mu2, t)
    return {
        "mean": lambdify_cached(args, d["eq:8"].rhs),
        "idc": lambdify_cached(args, d["eq:10"].rhs),
        "idc_inf": lambdify_cached(args[:4], d["eq:11"].rhs),
        "m3": lambdify_cached(args, d["eq:12"].rhs),
        "g3": lambdify_cached(args, d["g3"]),
        "factorial": lambdify_cached(args, d["factorial"]),
        "A": lambdify_cached(args[:4], [d["A"][k] for k in ("A11", "A21", "A31", "A12", "A41")]),
    }


_moment_functions = functools.cache(_moment_functions)


def factorial_moments_expm(Q, Lam, t_value: float, kmax: int = 3) -> np.ndarray:
    """``E[N(N-1)...(N-k+1)]``, ``k = 1..kmax``, from the PGF numerically (stationary start).

    The ``k``-th derivative of ``pi exp((Q + (z-1)Lambda) t) e`` at ``z = 1`` is
    ``k! pi [exp(B t)]_{0,k} e`` with ``B`` block-bidiagonal (``Q`` on the
    diagonal, ``Lambda`` above it); evaluated with :func:`scipy.linalg.expm`.
    Works for any number of states.
    """
    Q = np.asarray(Q, dtype=float)
    Lam = np.asarray(Lam, dtype=float)
    m = Q.shape[0]
    B = np.zeros(((kmax + 1) * m, (kmax + 1) * m))
    for i in range(kmax + 1):
        B[i * m:(i + 1) * m, i * m:(i + 1) * m] = Q
        if i < kmax:
            B[i * m:(i + 1) * m, (i + 1) * m:(i + 2) * m] = Lam
    E = expm(B * float(t_value))
    pi = null_space(Q.T)[:, 0]
    pi = pi / pi.sum()
    return np.array([math.factorial(k) * pi @ E[:m, k * m:(k + 1) * m] @ np.ones(m) for k in range(1, kmax + 1)])


SYMBOLS = SimpleNamespace(sigma1=sigma1, sigma2=sigma2, mu1=mu1, mu2=mu2, t=t, z=z, n_s=n_s, s=s_, lam=lam_,
                          c2=c2_, h=h_, gap=gap_, g3=g3_, m3=m3_, idc=idc_)
"""The symbols of the derivation and of the fit (``SYMBOLS.mu1`` ...)."""


def _args(proc):
    return (proc.sigma1, proc.sigma2, proc.mu1, proc.mu2)


# ----------------------------------------------------------------------------
# Exact numerical evaluation (no cancellation at any window)
# ----------------------------------------------------------------------------
#: Below this ``x = s t`` the kernels are summed as power series, above it by their closed forms.
#: Both are exact to a few ulps there: the alternating series' largest term is below twice its sum
#: for ``x <= 2``, and the closed forms add terms of one sign for ``x >= 2``.
X_SERIES = 2.0
_SERIES_TERMS = 40  # 2**40 / 42! < 1e-38: the truncation is far below an ulp for x <= 2


def _series(x, coef):
    """``sum_j coef[j] (-x)^j`` by Horner's rule (``x`` an array)."""
    out = np.zeros_like(x)
    for c in coef[::-1]:
        out = out * (-x) + c
    return out


_PSI_COEF = {k: [1.0 / math.factorial(j + k) for j in range(_SERIES_TERMS)] for k in (2, 3)}
_OMEGA_COEF = [(j + 1) / math.factorial(j + 3) for j in range(_SERIES_TERMS)]


def kernels(x):
    """``(psi2, psi3, omega)`` at ``x = s t >= 0``, each exact to a few ulps.

    ``psi_k(x) = int_0^1 e^{-xy} (1-y)^{k-1}/(k-1)! dy = sum_j (-x)^j/(j+k)!``, i.e.
    ``psi2 = (x - 1 + e^{-x})/x^2``, ``psi3 = (x^2/2 - x + 1 - e^{-x})/x^3``, and
    ``omega = psi2 - 2 psi3 = int_0^1 y(1-y) e^{-xy} dy = (x - 2 + (x+2) e^{-x})/x^3``.
    The closed forms lose every digit for small ``x`` (they subtract nearly
    equal terms); below :data:`X_SERIES` the power series is summed instead.
    """
    x = np.asarray(x, dtype=float)
    xs = np.atleast_1d(x)
    small = xs < X_SERIES
    psi2, psi3, omega = (np.empty_like(xs) for _ in range(3))
    a = xs[small]
    psi2[small], psi3[small], omega[small] = _series(a, _PSI_COEF[2]), _series(a, _PSI_COEF[3]), _series(a, _OMEGA_COEF)
    b = xs[~small]
    with np.errstate(over="ignore", under="ignore"):
        e = np.exp(-b)
        psi2[~small] = ((b - 1.0) + e) / b**2
        psi3[~small] = ((0.5 * b - 1.0) * b + 1.0 - e) / b**3
        omega[~small] = ((b - 2.0) + (b + 2.0) * e) / b**3
    shape = x.shape
    return psi2.reshape(shape), psi3.reshape(shape), omega.reshape(shape)


def _exact_parts(proc, t_value):
    """``t``, ``lambda``, ``c2``, ``c3``, ``q = c3 + lambda c2`` and the kernels at ``x = s t``.

    ``c2 = sum_i pi_i (mu_i - lambda)^2 = sigma1 sigma2 (mu1-mu2)^2/s^2`` (rate
    variance), ``c3 = sum_i pi_i (mu_i - lambda)^3`` and
    ``q = sum_i pi_i (mu_i - lambda)^2 mu_i = sigma1 sigma2 (mu1-mu2)^2 (sigma1 mu1 + sigma2 mu2)/s^3 >= 0``,
    each a product of exact differences of the inputs.
    """
    s1, s2, m1, m2 = (float(v) for v in _args(proc))
    s = s1 + s2
    t_arr = np.asarray(t_value, dtype=float)
    lam = (m1 * s2 + m2 * s1) / s
    dm = m1 - m2
    c2 = s1 * s2 * dm * dm / (s * s)
    c3 = c2 * (s1 - s2) * dm / s
    q = c2 * (s1 * m1 + s2 * m2) / s
    psi2, psi3, omega = kernels(s * t_arr)
    return SimpleNamespace(t=t_arr, lam=lam, c2=c2, c3=c3, q=q, psi2=psi2, psi3=psi3, omega=omega)


def mean_count(proc, t_value):
    """``E N(t) = lambda t`` (eq. 8), arrivals in a window of ``t`` cycles."""
    return _exact_parts(proc, t_value).lam * np.asarray(t_value, dtype=float)


def idc(proc, t_value):
    """``Var N(t) / E N(t) = 1 + 2 c2 t psi2(s t) / lambda`` (eq. 10), exact at every window.

    Eq. (10) as printed, ``1 + 2c2/(s lambda) - 2c2 (1 - e^{-st})/(s^2 lambda t)``,
    subtracts two nearly equal terms in short windows; the same function is
    written here with the kernel ``psi2`` (:func:`kernels`), a sum of positive terms.
    """
    p = _exact_parts(proc, t_value)
    return 1.0 + 2.0 * p.c2 * p.t * p.psi2 / p.lam


def idc_inf(proc) -> float:
    """``lim Var N(t) / E N(t)`` (eq. 11), from the derived expression."""
    return float(_moment_functions()["idc_inf"](*_args(proc)))


def third_central_moment(proc, t_value):
    """``E[(N(t) - E N(t))^3] = lambda t + 6 c2 t^2 psi2(st) + 6 c3 t^3 omega(st)`` (eq. 12), exact at every window.

    The third cumulant of the counts, from :func:`factorial_moments`'s terms:
    every cancellation of eq. (12)'s printed form is done algebraically.
    ``c3`` has the sign of ``(sigma1 - sigma2)(mu1 - mu2)``; the three terms
    are each exact, so the result is exact relative to their magnitudes.
    """
    p = _exact_parts(proc, t_value)
    return p.lam * p.t + 6.0 * p.c2 * p.t**2 * p.psi2 + 6.0 * p.c3 * p.t**3 * p.omega


def g3(proc, t_value):
    """``g^(3)(1, t) = E N(N-1)(N-2)`` (eq. 12), exact at every window (:func:`factorial_moments`)."""
    p = _exact_parts(proc, t_value)
    return p.t**3 * (p.lam**3 + 12.0 * p.lam * p.c2 * p.psi3 + 6.0 * p.q * p.omega)


def factorial_moments(proc, t_value: float) -> np.ndarray:
    """``[E N, E N(N-1), E N(N-1)(N-2)]`` in a window of ``t`` cycles, exact to a few ulps at every window.

    With ``pi Lambda e^{Q u} Lambda e = lambda^2 + c2 e^{-su}`` (two states:
    ``e^{Qu} = e pi + e^{-su}(I - e pi)``), the PGF's derivatives integrate to

    * ``E N = lambda t``,
    * ``E N(N-1) = t^2 (lambda^2 + 2 c2 psi2(st))``,
    * ``E N(N-1)(N-2) = t^3 (lambda^3 + 12 lambda c2 psi3(st) + 6 q omega(st))``,

    sums of non-negative terms (``c2, q >= 0``; kernels of :func:`kernels`),
    equal to the SymPy derivation's ``factorial`` (tested) but without its
    cancellation between ``t^k`` and ``e^{-st}`` terms in short windows
    (``s t`` down to 1e-9 and below).
    """
    p = _exact_parts(proc, float(t_value))
    t1 = float(t_value)
    f1 = p.lam * t1
    f2 = t1**2 * (p.lam**2 + 2.0 * p.c2 * float(p.psi2))
    f3 = t1**3 * (p.lam**3 + 12.0 * p.lam * p.c2 * float(p.psi3) + 6.0 * p.q * float(p.omega))
    return np.array([f1, f2, f3])


def A_coefficients(proc) -> dict:
    """The ``A_ij`` of eq. (12) (outputs of :func:`derivation`)."""
    vals = _moment_functions()["A"](*_args(proc))
    return dict(zip(("A11", "A21", "A31", "A12", "A41"), (float(v) for v in vals)))
