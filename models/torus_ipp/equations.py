"""Min, Ferguson & Ould-Khaoua (2001): the model's equations (1)-(29), written once in SymPy.

:func:`equations` returns a dict keyed by the paper's equation numbers
(``"eq:1"`` ... ``"eq:29"``).  Pieces shared with other chapters are taken
from their modules, not retyped:

* eqs. (8)-(12), the MMPP(2) counting moments, from :func:`models.traffic.moments.derivation`
  (derived from the probability generating function; the ``A_ij`` of eq. 12
  are outputs of that derivation);
* eq. (19), the MMPP/G/1 mean wait, from :func:`models.queueing.mmpp_g1.mmpp_equations`;
* eqs. (27)-(29), the virtual-channel occupancy chain and the multiplexing
  degree, from :func:`models.queueing.vc_occupancy.equations` (for a given ``V``).

Readings (see the chapter page):

* eq. (2): "n even/odd" is read "k even/odd" (Agarwal's average distance in
  a bidirectional ring); only integer ``kbar`` (``k`` a multiple of 4) fits
  eq. (23).
* eq. (5): the sum runs over ``i = 0 .. d-1`` (a message is blocked before
  each of its ``d`` hops; eq. 23 defines ``P_theta_i`` for ``i < d`` only).
* eq. (6) with fixed-length messages, ``M*(s) = e^{-sM}`` (the paper's
  figures use ``M = 32`` and ``48`` flits).  The moments of the service time
  ``T`` are derived from eq. (6) (``eq:6:moments``).
* eq. (26): printed ``P_a&b = P_V + 2 P_{V-1}/V`` (default); the alternative
  ``eq:26:specific`` is ``P_V + P_{V-1}/V``, the probability that the one
  escape VC the message may use is busy as well (notes/papers.md sec. 3).

Units: times in cycles, rates in messages per cycle (per node for the
source, per physical channel for a channel), lengths in flits.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import sympy as sp

from ..queueing import mmpp_g1, vc_occupancy
from ..traffic import moments

_T = moments.SYMBOLS

# ----------------------------------------------------------------------------
# Symbols
# ----------------------------------------------------------------------------
k = sp.Symbol("k", positive=True, integer=True)
kbar = sp.Symbol(r"\bar{k}", positive=True)
d = sp.Symbol("d", positive=True)
N = sp.Symbol("N", positive=True, integer=True)
M = sp.Symbol("M", positive=True)  # message length, flits
V = sp.Symbol("V", positive=True, integer=True)
i = sp.Symbol("i", nonnegative=True, integer=True)
s = sp.Symbol("s", positive=True)  # Laplace variable
x = sp.Symbol("x", positive=True)

bbar = sp.Symbol(r"\bar{b}", nonnegative=True)
beta = sp.Symbol(r"\beta", positive=True)
tbar = sp.Symbol(r"\bar{t}", positive=True)
t2 = sp.Symbol(r"\bar{t}^{(2)}", positive=True)
t3 = sp.Symbol(r"\bar{t}^{(3)}", positive=True)
w_b = sp.Symbol(r"\bar{w}_b", nonnegative=True)
w_s = sp.Symbol(r"\bar{w}_s", nonnegative=True)
vbar = sp.Symbol(r"\bar{V}", positive=True)
latency = sp.Symbol("Latency", positive=True)
lam_s = sp.Symbol(r"\lambda_s", positive=True)
lam_c = sp.Symbol(r"\lambda_c", positive=True)
n_s = _T.n_s

P_V, P_V1, P_V2 = sp.symbols("P_V P_{V-1} P_{V-2}", nonnegative=True)
P_a = sp.Symbol("P_a", nonnegative=True)
P_ab = sp.Symbol(r"P_{a\&b}", nonnegative=True)
P_theta = sp.Symbol(r"P_{\theta_i}", nonnegative=True)
P_b = sp.Symbol("P_{b_i}", nonnegative=True)

SYMBOLS = SimpleNamespace(**{name: obj for name, obj in dict(globals()).items() if isinstance(obj, sp.Symbol)})


def _lst_moments(T):
    """Mean, second and third moment from an LST ``T(s)``: ``(-1)^n d^n T/ds^n`` at 0."""
    return [sp.simplify((-1) ** n * sp.diff(T, s, n).subs(s, 0)) for n in (1, 2, 3)]


@functools.cache
def equations(V_value: int = 3) -> dict:
    """The model's equations keyed ``"eq:1"`` ... ``"eq:29"`` (paper numbering).

    ``V_value`` fixes the number of virtual channels for the occupancy chain
    (eqs. 27-29, a list of ``P_phi`` in ``lambda_c`` and ``S``); every other
    entry is symbolic in ``V``.  Extra keys: ``"eq:4:mean"``,
    ``"eq:6:moments"`` (``tbar, tbar^(2), tbar^(3)`` in ``M, d, bbar``),
    ``"eq:26:specific"`` (the alternative reading of eq. 26), ``"eq:12:A"``
    (the derived ``A_ij``), ``"eq:25:expanded"`` / ``"eq:26:expanded"``
    (binomials evaluated).
    """
    der = moments.derivation()
    q = mmpp_g1.mmpp_equations()
    vc = vc_occupancy.equations(V_value)
    e = {}
    e["eq:1"] = sp.Eq(latency, (tbar + w_s) * vbar)
    e["eq:2"] = sp.Eq(kbar, sp.Piecewise((k / 4, sp.Eq(sp.Mod(k, 2), 0)), ((k - 1 / k) / 4, True)))
    e["eq:3"] = sp.Eq(d, 2 * kbar)
    m_, d_, b_ = sp.symbols("m d b", positive=True)
    e["eq:4"] = sp.Eq(sp.Symbol("t"), m_ + d_ + b_)
    e["eq:5"] = sp.Eq(bbar, sp.Sum(sp.Indexed("P_b", i) * w_b, (i, 0, d - 1)))
    Ms = sp.exp(-s * M)  # fixed message length
    Bs = beta / (s + beta)  # eq. 21
    T = Ms * sp.exp(-s * d) * Bs
    e["eq:6"] = sp.Eq(sp.Function("T^*")(s), T)
    mom = [sp.simplify(sp.expand(mm.subs(beta, 1 / bbar))) for mm in _lst_moments(T)]
    e["eq:6:moments"] = mom
    e["eq:4:mean"] = sp.Eq(tbar, mom[0])
    # eq. 7 / 18: the source and channel MMPP matrices
    e["eq:7"] = (sp.Eq(sp.Symbol("Q_s"), sp.Matrix([[-_T.sigma1, _T.sigma1], [_T.sigma2, -_T.sigma2]]),
                       evaluate=False),
                 sp.Eq(sp.Symbol(r"\Lambda_s"), sp.diag(_T.mu1, _T.mu2), evaluate=False))
    for key in ("eq:8", "eq:9", "eq:10", "eq:11", "eq:12"):
        e[key] = der[key]
    e["eq:12:A"] = der["A"]
    e["eq:12:g3"] = der["eq:12:form"]
    e["eq:13"] = sp.Eq(n_s, sp.simplify(N * d / (4 * N)).subs(d, 2 * kbar))
    idc_t = sp.Function("IDC")
    tt = _T.t
    e["eq:14"] = sp.Eq(lam_c, n_s * lam_s)
    e["eq:15"] = sp.Eq(idc_t(sp.Symbol("N_c"), tt), idc_t(sp.Symbol("N_s"), tt))
    e["eq:16"] = sp.Eq(sp.Limit(idc_t(sp.Symbol("N_c"), tt), tt, sp.oo), sp.Limit(idc_t(sp.Symbol("N_s"), tt), tt, sp.oo))
    e["eq:17"] = sp.Eq(sp.Symbol("m_{3,c}(t)"), n_s * sp.Symbol("m_{3,s}(t)"))
    mats = q["matrices"]
    e["eq:18"] = (sp.Eq(sp.Symbol("Q_c"), mats["Q"], evaluate=False),
                  sp.Eq(sp.Symbol(r"\Lambda_c"), mats["Lambda"], evaluate=False))
    e["eq:19"] = (q["Wv"], q["W"])
    e["eq:20"] = sp.Eq(sp.Function("B")(x), beta * sp.exp(-beta * x))
    e["eq:21"] = sp.Eq(sp.Function("B^*")(s), Bs)
    e["eq:22"] = sp.Eq(beta, 1 / bbar)
    e["eq:23"] = sp.Eq(P_theta, sp.Piecewise((0, i < kbar), (2 / (d - i + 1), i < d)))
    e["eq:24"] = sp.Eq(P_b, P_theta * P_ab + (1 - P_theta) * P_a * P_ab)
    e["eq:25"] = sp.Eq(P_a, P_V + 2 * P_V1 / sp.binomial(V, V - 1, evaluate=False) + P_V2 / sp.binomial(V, V - 2, evaluate=False))
    e["eq:26"] = sp.Eq(P_ab, P_V + 2 * P_V1 / sp.binomial(V, V - 1, evaluate=False))
    e["eq:26:specific"] = sp.Eq(P_ab, P_V + P_V1 / sp.binomial(V, V - 1, evaluate=False))
    for key in ("eq:25", "eq:26", "eq:26:specific"):
        e[key + ":expanded"] = sp.Eq(e[key].lhs, sp.simplify(sp.expand_func(e[key].rhs.doit())))
    e["eq:27"] = vc["chain"]
    e["eq:28"] = vc["chain"]
    e["eq:29"] = sp.Eq(vbar, vc["multiplexing"])
    return e
