"""Blocking in Duato-style adaptive routing on k-ary n-cubes (Ould-Khaoua 1999), shared by torus_ipp and torus_nbc.

Average-case model (notes/papers.md sec. 3): a message makes exactly
``kbar`` hops in each of ``n`` dimensions (``d = n * kbar`` hops); all splits
of ``h`` hops with at most ``kbar`` per dimension are equally likely.

``bounded_compositions(j, m, c)``
    :math:`N_b(j,m,c)=\\sum_l(-1)^l\\binom{m}{l}\\binom{j-l(c+1)+m-1}{m-1}`,
    the number of ways to put ``j`` hops into ``m`` dimensions with at most
    ``c`` each.
``psi(h, t, n, kbar)``
    Probability that exactly ``t`` dimensions are fully crossed after ``h``
    hops: :math:`\\binom{n}{t}N_b(h-t\\bar k,n-t,\\bar k-1)/N_b(h,n,\\bar k)`.
``phi(h, n, kbar)``
    Mean number of dimensions (output channels) still available:
    :math:`\\sum_t (n-t)\\psi_{h,t}`.  For ``n = 2``:
    :math:`\\psi_{h,1}=2/(d-h+1)` for :math:`\\bar k\\le h<d`, which is the
    torus_ipp paper's eq. (23) and torus_nbc eqs. (8)-(10).

All counts are exact integers (Python ``math.comb``); probabilities are
exact :class:`fractions.Fraction` when the inputs are integers.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from ..core.validate import require


def bounded_compositions(j: int, m: int, c: int) -> int:
    """Ways to write ``j`` as an ordered sum of ``m`` integers in ``[0, c]``."""
    if m == 0:
        return 1 if j == 0 else 0
    if j < 0 or c < 0:
        return 0
    total = 0
    for l in range(m + 1):
        top = j - l * (c + 1) + m - 1
        if top < m - 1:
            break
        total += (-1) ** l * comb(m, l) * comb(top, m - 1)
    return total


def psi(h: int, t: int, n: int, kbar: int) -> Fraction:
    """P(exactly ``t`` of ``n`` dimensions fully crossed after ``h`` hops), ``kbar`` hops per dimension."""
    n = require("n", n, 1, unit="dimensions", integer=True)
    kbar = require("kbar", kbar, 1, unit="hops per dimension", integer=True)
    h = require("h", h, 0, n * kbar, unit="hops made", integer=True)
    t = require("t", t, 0, n, unit="dimensions crossed", integer=True)
    den = bounded_compositions(h, n, kbar)
    if t == n:
        return Fraction(1 if h == n * kbar else 0)
    num = comb(n, t) * bounded_compositions(h - t * kbar, n - t, kbar - 1)
    return Fraction(num, den)


def phi(h: int, n: int, kbar: int) -> Fraction:
    """Mean number of dimensions a message may still choose from after ``h`` hops."""
    return sum((n - t) * psi(h, t, n, kbar) for t in range(n))
