"""Moudi, Othman, Lun & Abdul Rahiman: the x-Folded TM delay model, written once in SymPy.

Keys of :func:`equations` (paper numbering):

``eq:1``   ``N = k^n``.
``eq:2``   average delay ``= (S + W) V`` (cycles).
``eq:3``   ``d = n AD`` (hops; ``AD`` per dimension).
``eq:4``   Lemma 1, ``I(i) = i + 1``.
``eq:5``   Theorem 1 as printed, ``AD_k = (AD_{k-1} + k(k-1)) / (k^2 - 1)``, ``AD_3 = 1``.
``eq:5_k3`` the reading with a factor ``(k-1)^2 - 1`` on ``AD_{k-1}`` (a dropped factor
           would explain the print); it solves to ``AD_k = k/3`` (:func:`theorem1_k3_closed_form`).
``eq:6``   ``lambda_u = lambda AD_k / 2`` (messages/cycle arriving at a channel).
``eq:6_links`` the same load computed from the real channel count: ``lambda N n AD / C``
           (identical to eq. 6 on the torus, where ``C = 2 n N``).
``eq:7``   Proposition 1, ``N' = a_1 N + a_2``.
``eq:8``   Theorem 2 (channels ``j`` hops away in a k-ary n-cube; displayed, not used by
           eqs. 9-11).
``eq:9``   ``S_i = S_{i-1} + AD_k (1 + W_{c_i} P_{b_i})``, ``S_0 = M`` (cycles).
``eq:10``  ``W_j = (lambda/V) S_j^2 (1 + (S_j - S_{j-1})^2/S_j^2) / (2 (1 - (lambda/V) S_j))``.
``eq:11``  ``V = sum_j sum_v v^2 p_vj / sum_v v p_vj`` as printed (a sum over
           ``j = 1..n(k-1)``); ``eq:11_mean`` the same divided by the number of terms.
``P_b``    ``P_{b_i} = p_{V,i}``: all ``V`` virtual channels of the channel busy
           (the Dally chain of :mod:`models.queueing.vc_occupancy` with rate ``lambda_u`` and
           service ``S_i``); ``Vbar_j`` its multiplexing degree (the eq. 11 summand).

Symbols: ``M`` message length (flits; the paper's ``L``), ``V`` virtual channels per
physical channel, ``lambda`` generation rate (messages/node/cycle), ``lambda_u`` channel
rate (messages/cycle).  No NumPy here.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import sympy as sp

from ..queueing import vc_occupancy as _vo

_pos = dict(positive=True)

k = sp.Symbol("k", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
j = sp.Symbol("j", integer=True, positive=True)
l_ = sp.Symbol("l", integer=True, nonnegative=True)
t_ = sp.Symbol("t", integer=True, nonnegative=True)
v_ = sp.Symbol("v", integer=True, positive=True)
M = sp.Symbol("M", **_pos)                     # message length, flits
V = sp.Symbol("V", integer=True, positive=True)  # virtual channels per physical channel
lam = sp.Symbol("lambda", **_pos)              # generation rate, messages/node/cycle
lam_u = sp.Symbol("lambda_u", **_pos)          # channel rate, messages/cycle
AD = sp.Symbol("AD_k", **_pos)                 # average distance per dimension, hops
AD_prev = sp.Symbol("AD_{k-1}", **_pos)
dbar = sp.Symbol(r"\bar{d}", **_pos)
C = sp.Symbol("C", integer=True, positive=True)  # unidirectional network channels
S = sp.Symbol(r"\bar{S}", **_pos)              # mean network latency, cycles
Wbar = sp.Symbol(r"\bar{W}", nonnegative=True)  # mean source waiting time, cycles
Vbar = sp.Symbol(r"\bar{V}", **_pos)           # mean multiplexing degree
S_i = sp.Symbol("S_i", **_pos)
S_im1 = sp.Symbol("S_{i-1}", **_pos)
S_j = sp.Symbol("S_j", **_pos)
S_jm1 = sp.Symbol("S_{j-1}", **_pos)
W_ci = sp.Symbol("W_{c_i}", nonnegative=True)
P_bi = sp.Symbol("P_{b_i}", nonnegative=True)
W_j = sp.Symbol("W_j", nonnegative=True)
a1, a2 = sp.symbols("a_1 a_2", real=True)
I_i = sp.Symbol("I(i)", integer=True, positive=True)
C_j = sp.Symbol("C_j", integer=True, nonnegative=True)
Nprime = sp.Symbol("N'", positive=True)
Delay = sp.Symbol(r"\text{Average Delay}", **_pos)
p = sp.IndexedBase("p")
Vbar_j = sp.IndexedBase(r"\bar{V}")

SYMBOLS = SimpleNamespace(
    k=k, n=n, N=N, M=M, V=V, lam=lam, lam_u=lam_u, AD=AD, AD_prev=AD_prev, dbar=dbar, C=C, S=S,
    Wbar=Wbar, Vbar=Vbar, S_i=S_i, S_im1=S_im1, S_j=S_j, S_jm1=S_jm1, W_ci=W_ci, P_bi=P_bi, W_j=W_j,
    a1=a1, a2=a2, Delay=Delay,
)


@functools.cache
def equations() -> dict:
    """The model's equations as :class:`sympy.Eq`, keyed by the paper's numbering (see module docstring)."""
    e = {}
    e["eq:1"] = sp.Eq(N, k**n)
    e["eq:2"] = sp.Eq(Delay, (S + Wbar) * Vbar)
    e["eq:3"] = sp.Eq(dbar, n * AD)
    e["eq:4"] = sp.Eq(I_i, i + 1)
    e["eq:5"] = sp.Eq(AD, (AD_prev + k * (k - 1)) / (k**2 - 1))
    e["eq:5_k3"] = sp.Eq(AD, (((k - 1) ** 2 - 1) * AD_prev + k * (k - 1)) / (k**2 - 1))
    e["eq:6"] = sp.Eq(lam_u, sp.Rational(1, 2) * lam * AD)
    e["eq:6_links"] = sp.Eq(lam_u, lam * N * n * AD / C)
    e["eq:7"] = sp.Eq(Nprime, a1 * N + a2)
    e["eq:8"] = sp.Eq(
        C_j,
        sp.Sum(
            sp.Sum(
                (-1) ** t_ * (n - l_) * sp.binomial(n, l_) * sp.binomial(n - l_, t_)
                * sp.binomial(j - t_ * (k - 1) - 1, n - l_ - 1),
                (t_, 0, n - 1),
            ),
            (l_, 0, n - 1),
        ),
    )
    e["eq:9"] = sp.Eq(S_i, S_im1 + AD * (1 + W_ci * P_bi))
    rate = lam / Vbar
    e["eq:10"] = sp.Eq(W_j, rate * S_j**2 * (1 + (S_j - S_jm1) ** 2 / S_j**2) / (2 * (1 - rate * S_j)))
    summand = sp.Sum(v_**2 * p[v_, j], (v_, 1, V)) / sp.Sum(v_ * p[v_, j], (v_, 1, V))
    e["eq:11"] = sp.Eq(Vbar, sp.Sum(summand, (j, 1, n * (k - 1))))
    e["eq:11_mean"] = sp.Eq(Vbar, sp.Sum(summand, (j, 1, n * (k - 1))) / (n * (k - 1)))
    return e


@functools.cache
def channel_terms(V_value: int) -> dict:
    """Per-channel quantities for ``V`` virtual channels, in ``rho = lambda_u S_i``.

    ``"P_b"``: :math:`P_{b_i} = p_V` (all VCs busy); ``"Vbar_j"``: the eq. (11) summand
    :math:`\\sum v^2 p_v / \\sum v p_v`, both from the Dally chain of
    :mod:`models.queueing.vc_occupancy` (closed form, ``rho < 1``).
    """
    eq = _vo.equations(V_value)
    closed = eq["closed"]
    return {"rho": _vo.rho, "P_b": closed[-1], "Vbar_j": eq["multiplexing"], "p": closed}


@functools.cache
def theorem1_k3_closed_form():
    """Solve the ``eq:5_k3`` recursion with ``AD_3 = 1``: returns the closed form ``k/3``.

    A first-order recursion with an initial value has one solution; the
    polynomial ansatz ``a k + b`` satisfies it identically in ``k`` only for
    ``a = 1/3, b = 0`` (SymPy's ``solve`` on the coefficients), which also
    meets ``AD_3 = 1``.
    """
    a, b = sp.symbols("a b")
    f = lambda kk: a * kk + b  # noqa: E731
    rhs = equations()["eq:5_k3"].rhs.subs(AD_prev, f(k - 1))
    resid = sp.Poly(sp.expand(sp.numer(sp.together(f(k) - rhs))), k)
    sol = sp.solve(resid.coeffs() + [f(3) - 1], [a, b], dict=True)
    if len(sol) != 1:
        raise RuntimeError(f"eq:5_k3: no unique linear solution ({sol})")
    return sp.simplify(f(k).subs(sol[0]))


@functools.cache
def theorem1_printed_limit():
    """Limit of the printed recursion ``eq:5`` as ``k -> oo`` (a fixed point argument: 1)."""
    # AD_k = (AD_{k-1} + k(k-1))/(k^2-1) -> 1 since k(k-1)/(k^2-1) = k/(k+1) -> 1 and AD/(k^2-1) -> 0
    return sp.limit(k * (k - 1) / (k**2 - 1), k, sp.oo)


def zero_load_delay():
    """Eq. (2) at ``lambda -> 0`` with the mean reading of eq. (11): ``M + n AD_k`` (cycles)."""
    # at zero load W_ci = 0, Wbar = 0, Vbar_j = 1 (mean) -> S_n = M + n AD
    return M + n * AD
