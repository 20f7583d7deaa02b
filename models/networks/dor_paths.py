"""Combinatorics of dimension-order routing on n-D tori with any radices (Najaf-abadi & Sarbazi-azad 2004).

Shared by the torus chapters.  A message from a source to a uniformly chosen
other node of a torus with radices ``k_0..k_{n-1}`` crosses ``m_j`` hops in
dimension ``j`` (its *offset*), dimensions visited in increasing order
(dimension order, lowest first).  On a **unidirectional** torus ``m_j`` is
uniform on ``0..k_j-1``; on a **bidirectional** torus it is the shorter way
round, ``min(x, k_j-x)`` for ``x`` uniform on ``0..k_j-1`` (a tie, ``x=k_j/2``,
goes ``+`` as in the simulator).

The paper counts destinations with the *bounded-composition* number
:math:`C_m^{d,(c_{d-1},\\dots,c_0)}`: the number of vectors
:math:`(x_0..x_{d-1})` with :math:`0\\le x_j\\le c_j` and :math:`\\sum x_j=m`,
computed by its recursion (:func:`bounded_count`) and here also derived as
the coefficient of :math:`x^m` in :math:`\\prod_j (1-x^{c_j+1})/(1-x)`, a
product of truncated geometric series (:func:`bounded_count_sympy`,
:func:`generating_function`).  For the bidirectional torus a dimension is a
*weighted* type whose item counts are the numbers of offsets giving each hop
count (:func:`hop_counts`); the unidirectional case is all weights 1, and
:func:`weighted_count` with all-one weights is exactly :func:`bounded_count`.

Quantities (all exact :class:`fractions.Fraction`; notes/papers.md sec. 8 for
the reconstruction of the OCR-garbled forms), per :class:`DorCombinatorics`:

``P_m(m)``                 P(path length = m hops)
``mean_hops``              :math:`h=\\sum_m mP_m`
``P_t(i)``                 P(message ends after its dimension-``i`` hops | it takes one)
``last_hop(i)``            :math:`P_{t,d_i}/\\bar k_i`: P(a hop of dimension ``i`` is its message's last);
                           :math:`\\bar k_i=k_i/2` (unidirectional), the mean hops in ``i`` given >= 1
``first_hop(i)``           P(first hop in dimension ``i``)
``P_s_given(j, s, i)``     :math:`P_{d_j,s|d_i}`: P(at least ``s`` hops in ``j`` | at least one in ``i``)
``P_s_given_first(j,s,i)`` :math:`P_{d_j,s|d_i,first}`: the same given the first hop is in ``i``
``remaining_same(i)``      hop-weighted mean hops left in ``i`` after a hop in ``i`` ((k-2)/3)
``extra_same_first(i)``    mean further hops in ``i`` after the first, given the first is in ``i`` ((k-2)/2)

:func:`closed_forms` derives, in SymPy and for symbolic radices, the closed
forms these reduce to on the unidirectional torus.  ``tests/torus_dor``
checks every quantity against brute-force enumeration of all source-
destination pairs, exactly.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import prod
from typing import Sequence

from ..core.validate import require

__all__ = [
    "bounded_count", "bounded_count_sympy", "bounded_count_inclusion_exclusion", "generating_function",
    "weighted_count", "hop_counts", "DorCombinatorics", "closed_forms", "check_radices",
]


# ----------------------------------------------------------------------------
# Counting
# ----------------------------------------------------------------------------
def check_radices(radices) -> tuple[int, ...]:
    """Validate radices ``k_0..k_{n-1}`` (integers >= 2); returns a tuple."""
    try:
        ks = tuple(radices)
    except TypeError:
        ks = (radices,)
    if not ks:
        require("len(radices)", 0, 1, unit="number of dimensions", integer=True)
    return tuple(require(f"radices[{i}]", k, 2, unit="nodes per dimension", integer=True) for i, k in enumerate(ks))


@functools.lru_cache(maxsize=None)
def _C(m: int, caps: tuple[int, ...]) -> int:
    # The paper's recursion: C_m^{d,(c_{d-1}..c_0)} = sum_{i=0}^{c_{d-1}} C_{m-i}^{d-1,(c_{d-2}..c_0)}.
    if m < 0:
        return 0
    if m == 0:
        return 1
    if not caps:  # d = 0 types and m > 0: nothing to choose from
        return 0
    top, rest = caps[0], caps[1:]
    if top < 0:
        return 0
    return sum(_C(m - i, rest) for i in range(top + 1))


def bounded_count(m: int, caps: Sequence[int]) -> int:
    """:math:`C_m^{d,(c_{d-1},\\dots,c_0)}` by the paper's recursion.

    The number of ways to choose ``m`` items from ``d = len(caps)``
    distinguishable types, type ``j`` holding ``caps[j]`` identical items
    (i.e. vectors ``0 <= x_j <= caps[j]`` summing to ``m``).  The order of
    ``caps`` does not matter.  A negative cap makes the count 0 (except for
    ``m = 0``, which the paper's recursion counts as 1).
    """
    return _C(int(m), tuple(int(c) for c in caps))


def bounded_count_inclusion_exclusion(m: int, caps: Sequence[int]) -> int:
    """The same count by inclusion-exclusion: :math:`\\sum_{S}(-1)^{|S|}\\binom{m-\\sum_{j\\in S}(c_j+1)+d-1}{d-1}`."""
    from itertools import combinations
    from math import comb

    caps = [int(c) for c in caps]
    d = len(caps)
    if m < 0:
        return 0
    if d == 0:
        return 1 if m == 0 else 0
    total = 0
    for r in range(d + 1):
        for S in combinations(caps, r):
            top = m - sum(c + 1 for c in S)
            if top >= 0:
                total += (-1) ** r * comb(top + d - 1, d - 1)
    return total


def generating_function(caps: Sequence[int], x=None):
    """SymPy :math:`\\prod_j (1-x^{c_j+1})/(1-x)`: the generating function of :func:`bounded_count`."""
    import sympy as sp

    x = sp.Symbol("x") if x is None else x
    return sp.Mul(*[(1 - x ** (int(c) + 1)) / (1 - x) for c in caps])


def bounded_count_sympy(m: int, caps: Sequence[int]) -> int:
    """:func:`bounded_count` derived in SymPy: the coefficient of :math:`x^m` in :func:`generating_function`."""
    import sympy as sp

    x = sp.Symbol("x")
    if m < 0:
        return 0
    poly = sp.Poly(sp.cancel(generating_function(caps, x)), x) if caps else sp.Poly(1, x)
    return int(poly.coeff_monomial(x ** int(m)))


def weighted_count(m: int, weights: Sequence[Sequence[int]]) -> int:
    """Coefficient of :math:`x^m` in :math:`\\prod_j\\sum_t w_{j,t}x^t`.

    ``weights[j][t]`` is the number of ways type ``j`` contributes ``t``
    items; all-one weights of length ``c_j + 1`` give :func:`bounded_count`.
    """
    return _weighted(int(m), tuple(tuple(int(v) for v in w) for w in weights))


@functools.lru_cache(maxsize=None)
def _weighted(m: int, weights: tuple) -> int:
    if m < 0:
        return 0
    if not weights:
        return 1 if m == 0 else 0
    first, rest = weights[0], weights[1:]
    return sum(w * _weighted(m - t, rest) for t, w in enumerate(first) if w and t <= m)


def hop_counts(k: int, bidirectional: bool = False) -> tuple[int, ...]:
    """Number of offsets (out of ``k``) giving ``t = 0, 1, ...`` hops in one dimension under DOR."""
    k = require("k", k, 2, unit="nodes per dimension", integer=True)
    if not bidirectional:
        return (1,) * k
    out = [0] * (k // 2 + 1)
    for x in range(k):
        out[min(x, k - x)] += 1
    return tuple(out)


# ----------------------------------------------------------------------------
# The paper's probabilities
# ----------------------------------------------------------------------------
class DorCombinatorics:
    """The combinatorial quantities of the paper for one torus (exact fractions).

    Parameters
    ----------
    radices : sequence of int
        ``k_0..k_{n-1}`` (nodes per dimension, each >= 2), dimension 0 visited first.
    bidirectional : bool
        Shorter-way routing in each dimension (ties ``+``); the paper's formulas
        then hold with each dimension's type weighted by :func:`hop_counts`.

    The formulas follow the paper (with the corrections of notes/papers.md
    sec. 8): every "weighted average" :math:`\\sum_m P_{m}\\,C_{m-1}^{(\\dots)}/C_m^{n}`
    is computed literally, with :math:`C` the (weighted) bounded-composition count.
    """

    def __init__(self, radices: Sequence[int], bidirectional: bool = False):
        self.radices = check_radices(radices)
        self.bidirectional = bool(bidirectional)
        self.n = len(self.radices)
        self.N = prod(self.radices)
        self.w = tuple(hop_counts(k, self.bidirectional) for k in self.radices)
        self.max_hops = sum(len(w) - 1 for w in self.w)  # k'_{n-1} (unidirectional)

    # counts with per-type weights (type order is irrelevant)
    def _count(self, m: int, types) -> int:
        return weighted_count(m, types)

    def _full(self, j):
        return self.w[j]

    def _atleast(self, j, s):
        """Type ``j`` with at least ``s`` items, shifted down by ``s`` (the paper's ``k_j - 1 - s``)."""
        return self.w[j][s:]

    # -- P_m and h ----------------------------------------------------------
    @functools.cached_property
    def _Cn(self) -> tuple[int, ...]:
        return tuple(self._count(m, self.w) for m in range(self.max_hops + 1))

    def P_m(self, m: int) -> Fraction:
        """:math:`P_m=C_m^{n,(k_{n-1}-1..k_0-1)}/(N-1)`, ``1 <= m <= k'_{n-1}`` (0 otherwise)."""
        if m < 1 or m > self.max_hops:
            return Fraction(0)
        return Fraction(self._Cn[m], self.N - 1)

    @functools.cached_property
    def mean_hops(self) -> Fraction:
        """:math:`h=\\sum_m mP_m` (hops)."""
        return sum((m * self.P_m(m) for m in range(1, self.max_hops + 1)), Fraction(0))

    def _avg(self, count_at, m_lo: int, m_hi: int, shift: int) -> Fraction:
        """:math:`\\sum_{m=m_{lo}}^{m_{hi}} P_{m+shift}\\,count(m)/C^n_{m+shift}`."""
        total = Fraction(0)
        for m in range(m_lo, m_hi + 1):
            mm = m + shift
            if 1 <= mm <= self.max_hops and self._Cn[mm]:
                c = count_at(m)
                if c:
                    total += self.P_m(mm) * Fraction(c, self._Cn[mm])
        return total

    # -- P(take a hop in i), P_t ------------------------------------------
    @functools.lru_cache(maxsize=None)
    def P_take(self, i: int) -> Fraction:
        """P(at least one hop in dimension ``i``): the denominator of :math:`P_{t,d_i}`."""
        types = [self._atleast(i, 1)] + [self._full(j) for j in range(self.n) if j != i]
        return self._avg(lambda m: self._count(m, types), 0, self.max_hops - 1, 1)

    @functools.lru_cache(maxsize=None)
    def P_t(self, i: int) -> Fraction:
        """:math:`P_{t,d_i}`: P(no hop in dimensions above ``i`` | at least one hop in ``i``)."""
        types = [self._atleast(i, 1)] + [self._full(j) for j in range(i)]
        kp = sum(len(self.w[j]) - 1 for j in range(i + 1))  # k'_{d_i}
        num = self._avg(lambda m: self._count(m, types), 0, kp - 1, 1)
        return num / self.P_take(i)

    @functools.lru_cache(maxsize=None)
    def mean_hops_given(self, i: int) -> Fraction:
        """Mean hops in dimension ``i`` given at least one (``k_i/2`` unidirectional)."""
        w = self.w[i]
        return Fraction(sum(t * c for t, c in enumerate(w)), sum(w[1:]))

    def last_hop(self, i: int) -> Fraction:
        """P(a given hop in dimension ``i`` is its message's last): :math:`P_{t,d_i}/(k_i/2)` (hop-weighted, exact)."""
        return self.P_t(i) / self.mean_hops_given(i)

    # -- first hop ------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def first_hop(self, i: int) -> Fraction:
        """P(first hop in dimension ``i``): :math:`\\sum_{m=1}^{k'_{n-1}-k'_{d_i-1}}P_m C_{m-1}^{n-d_i,(k_{n-1}-1..k_{d_i}-1-1)}/C^n_m`."""
        types = [self._atleast(i, 1)] + [self._full(j) for j in range(i + 1, self.n)]
        hi = sum(len(self.w[j]) - 1 for j in range(i, self.n))  # k'_{n-1} - k'_{d_i-1}
        return self._avg(lambda m: self._count(m, types), 0, hi - 1, 1)

    # -- conditional hop counts ----------------------------------------------
    @functools.lru_cache(maxsize=None)
    def P_s_given(self, j: int, s: int, i: int) -> Fraction:
        """:math:`P_{d_j,s|d_i}`: P(at least ``s`` hops in ``j`` | at least one hop in ``i``), ``j != i``.

        For ``j == i`` this is P(at least ``s`` hops in ``i`` | at least one), the
        literal reading of the paper's sum at ``d_j = d_i``.
        """
        if s < 1:
            return Fraction(1)
        if j == i:
            types = [self._atleast(i, max(s, 1))] + [self._full(l) for l in range(self.n) if l != i]
            shift = max(s, 1)
        else:
            types = [self._atleast(j, s), self._atleast(i, 1)] + [self._full(l) for l in range(self.n) if l not in (i, j)]
            shift = s + 1
        if any(len(t) == 0 for t in types):
            return Fraction(0)
        num = self._avg(lambda m: self._count(m, types), 0, self.max_hops - shift, shift)
        return num / self.P_take(i)

    @functools.lru_cache(maxsize=None)
    def P_s_given_first(self, j: int, s: int, i: int) -> Fraction:
        """:math:`P_{d_j,s|d_i,first}`: P(at least ``s`` hops in ``j`` | first hop in ``i``) (``n - d_i`` types)."""
        if s < 1:
            return Fraction(1)
        if j < i:
            return Fraction(0)
        if j == i:
            types = [self._atleast(i, max(s, 1))] + [self._full(l) for l in range(i + 1, self.n)]
            shift = max(s, 1)
        else:
            types = [self._atleast(j, s), self._atleast(i, 1)] + [self._full(l) for l in range(i + 1, self.n) if l != j]
            shift = s + 1
        if any(len(t) == 0 for t in types):
            return Fraction(0)
        hi = sum(len(self.w[l]) - 1 for l in range(i, self.n))
        num = self._avg(lambda m: self._count(m, types), 0, hi - shift, shift)
        return num / self.first_hop(i)

    def max_in(self, j: int) -> int:
        """Largest hop count in dimension ``j`` (``k_j - 1`` unidirectional, ``floor(k_j/2)`` bidirectional)."""
        return len(self.w[j]) - 1

    def sum_given(self, j: int, i: int) -> Fraction:
        """:math:`\\sum_{s\\ge1}P_{d_j,s|d_i}` = mean hops in ``j`` of a message that takes a hop in ``i``."""
        return sum((self.P_s_given(j, s, i) for s in range(1, self.max_in(j) + 1)), Fraction(0))

    def sum_given_first(self, j: int, i: int) -> Fraction:
        """:math:`\\sum_{s\\ge1}P_{d_j,s|d_i,first}`."""
        return sum((self.P_s_given_first(j, s, i) for s in range(1, self.max_in(j) + 1)), Fraction(0))

    # -- same-dimension terms (the paper gives no formula) --------------------
    def remaining_same(self, i: int) -> Fraction:
        """Hop-weighted mean hops left in ``i`` after a hop in ``i``: :math:`E[x(x-1)/2]/E[x]` ((k-2)/3 unidirectional)."""
        w = self.w[i]
        return Fraction(sum(c * t * (t - 1) for t, c in enumerate(w)), 2 * sum(c * t for t, c in enumerate(w)))

    def extra_same_first(self, i: int) -> Fraction:
        """Mean further hops in ``i`` after the first, given the first hop is in ``i`` ((k-2)/2 unidirectional)."""
        return self.sum_given_first(i, i) - 1

    def table(self) -> dict:
        """All per-dimension quantities as exact fractions (for display and tests)."""
        return {
            "h": self.mean_hops,
            "P_t": [self.P_t(i) for i in range(self.n)],
            "last_hop": [self.last_hop(i) for i in range(self.n)],
            "first_hop": [self.first_hop(i) for i in range(self.n)],
            "remaining_same": [self.remaining_same(i) for i in range(self.n)],
            "extra_same_first": [self.extra_same_first(i) for i in range(self.n)],
            "sum_given": [[self.sum_given(j, i) if j != i else Fraction(0) for j in range(self.n)] for i in range(self.n)],
            "sum_given_first": [[self.sum_given_first(j, i) if j > i else Fraction(0) for j in range(self.n)] for i in range(self.n)],
        }


# ----------------------------------------------------------------------------
# Closed forms, derived in SymPy
# ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def closed_forms(n: int) -> dict:
    """Closed forms of the unidirectional quantities for symbolic radices ``k_0..k_{n-1}``, derived in SymPy.

    Each weighted average of the paper has the form
    :math:`\\sum_m P_{m+s}\\,C_m^{(\\dots)}/C^n_{m+s}`.  Because
    :math:`P_{m}/C^n_m = 1/(N-1)` for every ``m >= 1``, it is
    :math:`\\frac{1}{N-1}\\sum_m C_m^{(\\dots)}`, the generating function of
    the numerator's types evaluated at :math:`x=1` (all of its coefficients
    summed).  A type "at least ``s`` items of ``k_j-1``" contributes
    :math:`\\sum_{t=s}^{k_j-1}1 = k_j-s` and a full type :math:`k_j`; the
    derivation below builds those sums symbolically and simplifies the ratios.

    Returns a dict of SymPy expressions in ``k = (k_0..k_{n-1})``, indexed by
    dimension: ``"h"``, ``"P_t"[i]``, ``"last_hop"[i]``, ``"first_hop"[i]``,
    ``"P_s_given"[(j, i)]`` (in symbol ``s``, ``j != i``), ``"P_s_given_first"[(j, i)]``
    (``j > i``), ``"remaining_same"`` and ``"extra_same_first"`` (in ``k_i``),
    plus ``"symbols"``.
    """
    import sympy as sp

    n = require("n", n, 1, unit="dimensions", integer=True)
    k = sp.symbols(f"k_0:{n}", integer=True, positive=True)
    s, t, x = sp.symbols("s t x", integer=True, nonnegative=True)
    N = sp.Mul(*k)

    def at_least(j, lo):  # sum_{t=lo}^{k_j-1} 1: the type's generating function at x = 1
        return sp.summation(sp.Integer(1), (t, lo, k[j] - 1))

    def full(j):
        return at_least(j, 0)

    out: dict = {"symbols": k, "s": s}
    # h = G'(1)/(N-1), G(x) = prod_j sum_{t<k_j} x^t
    G = sp.Mul(*[sp.summation(x**t, (t, 0, k[j] - 1)) for j in range(n)])
    h = sp.Add(*[sp.summation(t, (t, 0, k[j] - 1)) * N / k[j] for j in range(n)]) / (N - 1)
    out["h"] = sp.simplify(h)
    out["G"] = G
    take = {i: at_least(i, 1) * sp.Mul(*[full(j) for j in range(n) if j != i]) / (N - 1) for i in range(n)}
    out["P_t"] = [sp.simplify(at_least(i, 1) * sp.Mul(*[full(j) for j in range(i)]) / (N - 1) / take[i]) for i in range(n)]
    mean_given = [sp.simplify(sp.summation(t, (t, 1, k[i] - 1)) / at_least(i, 1)) for i in range(n)]
    out["mean_hops_given"] = mean_given
    out["last_hop"] = [sp.simplify(out["P_t"][i] / mean_given[i]) for i in range(n)]
    out["first_hop"] = [sp.simplify(at_least(i, 1) * sp.Mul(*[full(j) for j in range(i + 1, n)]) / (N - 1)) for i in range(n)]
    psg, psgf = {}, {}
    for i in range(n):
        for j in range(n):
            if j == i:
                continue
            num = at_least(j, s) * at_least(i, 1) * sp.Mul(*[full(l) for l in range(n) if l not in (i, j)]) / (N - 1)
            psg[(j, i)] = sp.simplify(num / take[i])
            if j > i:
                first = at_least(i, 1) * sp.Mul(*[full(l) for l in range(i + 1, n)]) / (N - 1)
                numf = at_least(j, s) * at_least(i, 1) * sp.Mul(*[full(l) for l in range(i + 1, n) if l != j]) / (N - 1)
                psgf[(j, i)] = sp.simplify(numf / first)
    out["P_s_given"] = psg
    out["P_s_given_first"] = psgf
    kk = sp.Symbol("k", integer=True, positive=True)
    out["remaining_same"] = sp.factor(sp.summation(t * (t - 1), (t, 0, kk - 1)) / (2 * sp.summation(t, (t, 0, kk - 1))))
    out["extra_same_first"] = sp.factor(sp.summation(t - 1, (t, 1, kk - 1)) / (kk - 1))
    out["k"] = kk
    return out
