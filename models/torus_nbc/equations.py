"""Safaei, Khonsari, Fathy & Ould-Khaoua (ICCS 2007): Duato-Nbc on 2-D tori, equations (1)-(21) in SymPy.

Every equation the solver evaluates is written here once; :mod:`.solve`
lambdifies these expressions (sums over destinations, hops, escape levels and
busy-VC counts are NumPy loops around lambdified summands, with the summation
limits read from the :class:`sympy.Sum` objects below).  No NumPy here.

Keys of :func:`equations` (the paper's numbering, ``eq:N``):

``eq:1``   mean message latency :math:`(\\bar S + W_s)\\bar V` (cycles)
``eq:2``   :math:`\\bar k = k/4`, ``eq:2d`` :math:`d = 2\\bar k` (hops; Agarwal)
``eq:3``   channel rate :math:`\\lambda_c=\\lambda_g d/4` (messages/channel/cycle)
``eq:5``   :math:`S_H = M + |H| + \\sum_{h=1}^{|H|} B_h` (cycles), ``eq:6`` :math:`|H|=h_x+h_y`
``eq:7``   :math:`B_h = P_{block,h} W_c`
``eq:8``-``eq:10``  :math:`\\varphi_h`, :math:`P_{\\varphi_h}`, :math:`\\psi_{h,t}` (notes/papers.md sec. 3;
           the OCR's ":math:`k\\le h<d-1`" read as :math:`\\bar k\\le h<d`)
``eq:11``  :math:`P_{block,h}=(P_{block1}+(P_{block2}+P_{block3})/2)^{\\varphi_h}`
``eq:12``  class 1 (previous hop on an adaptive VC), ``eq:13`` its weight :math:`P_{v_0}`
``eq:14``, ``eq:15``  classes 2 and 3 (previous hop on escape level ``l``, next hop
           negative / positive), ``eq:16`` their weight :math:`P_{v_l}`
``eq:17``  :math:`\\bar S`, the mean of :math:`S_H` over the ``N-1`` destinations
``eq:18``  :math:`W_c`, M/G/1 wait with variance :math:`(\\bar S_c-M)^2`
``eq:19``  :math:`W_s`, the source queue (rate :math:`\\lambda_g/V`); ``eq:18_zero``, ``eq:19_zero``,
           ``eq:18_exponential``, ``eq:19_exponential``: the same waits with service-time variance 0 or
           :math:`S^2` (the solver's ``variance``, a test of the paper's explanation, Sect. 4)
``eq:20``  the busy-VC chain :math:`Q_v`, :math:`P_v` (Dally)
``eq:21``  multiplexing degree :math:`\\bar V`

Readings (notes/papers.md sec. 7; the chapter page explains each):

* Eqs. (14)-(15) are used in the form the *text* describes: a message that
  came on escape level ``l`` may use :math:`V_1 + V_2-\\lceil\\Delta/2\\rceil-l+1`
  (class 2) or one more (class 3) VCs.  The OCR'd binomials, kept as
  ``eq:14_printed`` / ``eq:15_printed``, would make that number *grow* with
  ``l``.  All three classes use the same summand: the probability that a
  given set of ``A`` VCs is entirely busy when ``v`` of ``V`` are,
  ``allbusy`` :math:`=\\binom{V-A}{v-A}/\\binom{V}{v}` (busy set uniformly
  random), summed over :math:`v\\ge A`.
* ``eq:18_S``: the service time of a channel, :math:`\\bar S_c`, is the mean of
  :math:`S_H` weighted by the number of channels the message crosses,
  :math:`\\sum_H|H|S_H/\\sum_H|H|` (under uniform traffic, the mean over
  the source-destination pairs whose paths use the channel).  It enters
  eqs. (18) and (20); the plain mean :math:`\\bar S` of eq. (17) enters eqs. (1)
  and (19).
* ``eq:20`` is printed with its division bar restored,
  :math:`Q_V = Q_{V-1}\\lambda_c/(1/\\bar S_c-\\lambda_c)`; the numbers come
  from the shared :mod:`models.queueing.vc_occupancy`.

Units: times in cycles, rates in messages per node (``lambda_g``) or per
channel (``lambda_c``) per cycle, lengths in flits, distances in hops.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import sympy as sp

from ..queueing import mg1 as _mg1

_int = dict(integer=True, positive=True)

k = sp.Symbol("k", **_int)                       # radix
N = sp.Symbol("N", **_int)                       # nodes, k**2
M = sp.Symbol("M", positive=True)                # message length, flits (same symbol as models.queueing.mg1)
V = sp.Symbol("V", **_int)                       # VCs per physical channel
V1 = sp.Symbol("V_1", **_int)                    # fully adaptive VCs
V2 = sp.Symbol("V_2", **_int)                    # escape (negative-hop) levels
kbar = sp.Symbol(r"\bar{k}", positive=True)      # mean hops per dimension
d = sp.Symbol("d", positive=True)                # mean hops
lam_g = sp.Symbol(r"\lambda_g", nonnegative=True)
lam_c = sp.Symbol(r"\lambda_c", nonnegative=True)
H = sp.Symbol("|H|", **_int)                     # hops of a source-destination pair
hx, hy = sp.symbols("h_x h_y", integer=True, nonnegative=True)
h = sp.Symbol("h", integer=True, nonnegative=True)   # hop index / hops made
t = sp.Symbol("t", integer=True, nonnegative=True)
Delta = sp.Symbol(r"\Delta", **_int)            # hops still to make (this one included)
l = sp.Symbol("l", **_int)                       # escape level used on the previous hop (1-based)
v = sp.Symbol("v", integer=True, nonnegative=True)   # busy VCs
A = sp.Symbol("A", integer=True, nonnegative=True)   # VCs a message may use
j = sp.Symbol("j", **_int)                       # destination index
P = sp.IndexedBase("P")                          # P_v, busy-VC distribution
Q = sp.IndexedBase("Q")
B = sp.IndexedBase("B")                          # blocking time at hop h
SH = sp.IndexedBase("S_H")                       # network latency to destination j
P_v0 = sp.Symbol("P_{v_0}", nonnegative=True)
P_vl = sp.Symbol("P_{v_l}", nonnegative=True)
P_phi = sp.Symbol(r"P_{\varphi_h}", nonnegative=True)
psi0, psi1 = sp.symbols(r"\psi_{h0} \psi_{h1}", nonnegative=True)
phi = sp.Symbol(r"\varphi_h", nonnegative=True)
Pb1, Pb2, Pb3 = sp.symbols(r"P_{block1} P_{block2} P_{block3}", nonnegative=True)
Pblock = sp.Symbol(r"P_{block_h}", nonnegative=True)
W_c = sp.Symbol("W_c", nonnegative=True)
W_s = sp.Symbol("W_s", nonnegative=True)
S = sp.Symbol(r"\bar{S}", positive=True)         # mean network latency, eq. (17)
S_c = sp.Symbol(r"\bar{S}_c", positive=True)     # mean channel service time (reading of eq. 18)
S_H = sp.Symbol("S_H", positive=True)
Vbar = sp.Symbol(r"\bar{V}", positive=True)
latency = sp.Symbol("T", positive=True)          # mean message latency
sum_B = sp.Symbol(r"\Sigma_B", nonnegative=True)     # placeholder for the hop sum of eq. (5)
sum_S = sp.Symbol(r"\Sigma_S", nonnegative=True)     # placeholder for the destination sum of eq. (17)
sum_HS = sp.Symbol(r"\Sigma_{HS}", nonnegative=True)  # sum_H |H| S_H
sum_Hn = sp.Symbol(r"\Sigma_{H}", positive=True)      # sum_H |H|

#: Symbols, for explicit lambdify argument tuples.
SYMBOLS = SimpleNamespace(**{name: val for name, val in dict(globals()).items()
                             if isinstance(val, (sp.Symbol, sp.IndexedBase))})

_c = sp.ceiling(Delta / 2)   # the paper's ceil(Delta/2)


def allbusy(A_expr) -> sp.Expr:
    """P(a given set of ``A`` VCs is entirely busy | ``v`` of ``V`` busy), busy set uniformly random."""
    return sp.binomial(V - A_expr, v - A_expr) / sp.binomial(V, v)


#: Number of VCs each class may use (Sec. 3.2.1, from the text; levels 1-based).
A1 = V1 + V2 - _c + 1
A2 = V1 + V2 - _c - l + 1
A3 = V1 + V2 - _c - l + 2


def _wormhole_wait(rate, service, variance: str = "paper"):
    """The shared M/G/1 wait (``models.queueing.mg1``, ``pk`` form) with the service-time variance ``variance``.

    ``"paper"``: :math:`(S-M)^2`, the paper's (second moment
    :math:`S^2(1+(S-M)^2/S^2)`); ``"zero"``: deterministic service (second
    moment :math:`S^2`); ``"exponential"``: variance :math:`S^2` (second
    moment :math:`2S^2`).
    """
    q = _mg1.SYMBOLS
    second = {"paper": service**2 * (1 + (service - M) ** 2 / service**2), "zero": service**2,
              "exponential": 2 * service**2}[variance]
    return _mg1.equations()["pk"].rhs.subs({q.x2: second, q.xbar: service, q.lam: rate}, simultaneous=True)


@functools.cache
def equations() -> dict:
    """The model's equations keyed by the paper's numbering (module docstring).

    Returns
    -------
    dict[str, sympy.Eq | sympy.Expr]
    """
    e: dict = {}
    e["eq:1"] = sp.Eq(latency, (S + W_s) * Vbar)
    e["eq:2"] = sp.Eq(kbar, k / 4)
    e["eq:2d"] = sp.Eq(d, 2 * kbar)
    e["eq:3"] = sp.Eq(lam_c, lam_g * d / 4)
    e["eq:5"] = sp.Eq(S_H, M + H + sp.Sum(B[h], (h, 1, H)))
    e["eq:6"] = sp.Eq(H, hx + hy)
    e["eq:7"] = sp.Eq(B[h], Pblock * W_c)
    e["eq:8"] = sp.Eq(phi, sp.Sum((2 - t) * sp.Indexed(sp.IndexedBase(r"\psi_h"), t), (t, 0, 1)))
    e["eq:8_closed"] = sp.Eq(phi, 2 * psi0 + psi1)
    e["eq:9"] = sp.Eq(P_phi, sp.Piecewise((2 / (d - h + 1), (h >= kbar) & (h < d)), (0, True)))
    e["eq:10"] = (sp.Eq(psi0, 1 - P_phi), sp.Eq(psi1, P_phi))
    e["eq:11"] = sp.Eq(Pblock, (Pb1 + (Pb2 + Pb3) / 2) ** phi)
    e["eq:12"] = sp.Eq(Pb1, sp.Sum(P_v0 * P[v] * allbusy(A1), (v, A1, V)))
    e["eq:13"] = sp.Eq(P_v0, V1 / A1)
    e["eq:14"] = sp.Eq(Pb2, sp.Sum(sp.Sum(P_vl * P[v] * allbusy(A2), (v, A2, V)), (l, 1, V2 - _c)))
    e["eq:15"] = sp.Eq(Pb3, sp.Sum(sp.Sum(P_vl * P[v] * allbusy(A3), (v, A3, V)), (l, 1, V2 - _c + 1)))
    e["eq:16"] = sp.Eq(P_vl, 1 / A1)
    # eqs. (14)-(15) as the OCR prints them (usable VCs growing with l): not used
    e["eq:14_printed"] = sp.Eq(Pb2, sp.Sum(sp.Sum(
        P_vl * P[v] * sp.binomial(V2 - _c - l, v - V1 - _c - l) / sp.binomial(V, v), (v, V1 + _c + l, V)),
        (l, 1, V2 - _c)))
    e["eq:15_printed"] = sp.Eq(Pb3, sp.Sum(sp.Sum(
        P_vl * P[v] * sp.binomial(V2 - _c - l - 1, v - V1 - _c - l - 1) / sp.binomial(V, v), (v, V1 + _c + l + 1, V)),
        (l, 1, V2 - _c + 1)))
    e["allbusy"] = allbusy(A)
    e["A1"], e["A2"], e["A3"] = A1, A2, A3
    e["eq:17"] = sp.Eq(S, sp.Sum(SH[j], (j, 1, N - 1)) / (N - 1))
    e["eq:18_S"] = sp.Eq(S_c, sp.Sum(sp.Indexed(sp.IndexedBase("|H|"), j) * SH[j], (j, 1, N - 1))
                         / sp.Sum(sp.Indexed(sp.IndexedBase("|H|"), j), (j, 1, N - 1)))
    e["eq:18"] = sp.Eq(W_c, _wormhole_wait(lam_c, S_c))
    e["eq:19"] = sp.Eq(W_s, _wormhole_wait(lam_g / V, S))
    # the same waits with the other service-time variances (the solver's ``variance``): 0 and exponential
    for var in ("zero", "exponential"):
        e[f"eq:18_{var}"] = sp.Eq(W_c, _wormhole_wait(lam_c, S_c, var))
        e[f"eq:19_{var}"] = sp.Eq(W_s, _wormhole_wait(lam_g / V, S, var))
    e["eq:20"] = sp.Eq(Q[v], sp.Piecewise((1, sp.Eq(v, 0)), (Q[v - 1] * lam_c * S_c, v < V),
                                          (Q[v - 1] * lam_c / (1 / S_c - lam_c), True)))
    e["eq:20P"] = sp.Eq(P[v], Q[v] / sp.Sum(Q[v], (v, 0, V)))
    e["eq:21"] = sp.Eq(Vbar, sp.Sum(v**2 * P[v], (v, 1, V)) / sp.Sum(v * P[v], (v, 1, V)))
    return e


@functools.cache
def numeric_forms() -> dict:
    """The expressions :mod:`.solve` lambdifies, derived from :func:`equations` (sums -> placeholders).

    ``S_H``: eq. (5) with the hop sum replaced by ``sum_B``; ``S``: eq. (17)
    with the destination sum replaced by ``sum_S``; ``S_c``: ``eq:18_S`` as
    ``sum_HS / sum_Hn``; ``l_max2``, ``l_max3``: the upper limits of the
    level sums of eqs. (14)-(15); the rest are right-hand sides.
    """
    e = equations()
    out = {
        "kbar": e["eq:2"].rhs,
        "d": e["eq:2d"].rhs,
        "lam_c": e["eq:3"].rhs,
        "S_H": e["eq:5"].rhs.subs(e["eq:5"].rhs.atoms(sp.Sum).pop(), sum_B),
        "B": e["eq:7"].rhs,
        "P_phi": e["eq:9"].rhs,
        "phi": e["eq:8_closed"].rhs.subs({psi0: e["eq:10"][0].rhs, psi1: e["eq:10"][1].rhs}),
        "P_block": e["eq:11"].rhs,
        "allbusy": e["allbusy"],
        "A1": e["A1"], "A2": e["A2"], "A3": e["A3"],
        "P_v0": e["eq:13"].rhs,
        "P_vl": e["eq:16"].rhs,
        "l_max2": e["eq:14"].rhs.limits[-1][2],
        "l_max3": e["eq:15"].rhs.limits[-1][2],
        "S": e["eq:17"].rhs.subs(e["eq:17"].rhs.atoms(sp.Sum).pop(), sum_S),
        "S_c": e["eq:18_S"].rhs.subs({e["eq:18_S"].rhs.as_numer_denom()[0]: sum_HS,
                                      e["eq:18_S"].rhs.as_numer_denom()[1]: sum_Hn}),
        "W_c": e["eq:18"].rhs,
        "W_s": e["eq:19"].rhs,
        **{f"W_c_{var}": e[f"eq:18_{var}"].rhs for var in ("zero", "exponential")},
        **{f"W_s_{var}": e[f"eq:19_{var}"].rhs for var in ("zero", "exponential")},
        "latency": e["eq:1"].rhs,
    }
    return out
