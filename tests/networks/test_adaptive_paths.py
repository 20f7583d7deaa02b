"""Ould-Khaoua's psi/phi against brute-force enumeration of hop splits."""

import itertools
from fractions import Fraction

import pytest

from models.networks.adaptive_paths import bounded_compositions, phi, psi


@pytest.mark.parametrize("j,m,c", [(j, m, c) for m in range(0, 4) for c in range(0, 4) for j in range(0, 10)])
def test_bounded_compositions_by_enumeration(j, m, c):
    brute = sum(1 for x in itertools.product(range(c + 1), repeat=m) if sum(x) == j)
    assert bounded_compositions(j, m, c) == brute


@pytest.mark.parametrize("n,kbar", [(2, 2), (2, 4), (3, 2), (3, 3), (4, 2)])
def test_psi_by_enumeration(n, kbar):
    for h in range(n * kbar + 1):
        splits = [x for x in itertools.product(range(kbar + 1), repeat=n) if sum(x) == h]
        for t in range(n + 1):
            brute = Fraction(sum(1 for x in splits if sum(v == kbar for v in x) == t), len(splits))
            assert psi(h, t, n, kbar) == brute, (h, t)
        assert sum(psi(h, t, n, kbar) for t in range(n + 1)) == 1


@pytest.mark.parametrize("kbar", [2, 4, 6])
def test_two_dimensional_closed_form(kbar):
    d = 2 * kbar
    for h in range(d):
        expected = Fraction(2, d - h + 1) if kbar <= h < d else Fraction(0)
        assert psi(h, 1, 2, kbar) == expected
        assert phi(h, 2, kbar) == 2 - expected
