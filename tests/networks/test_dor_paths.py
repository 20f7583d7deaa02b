"""Every combinatorial quantity of the paper against brute-force enumeration of all
source-destination pairs under dimension-order routing, exactly (fractions)."""

import itertools
from fractions import Fraction
from math import prod

import pytest
import sympy as sp

from models.networks.dor_paths import (DorCombinatorics, bounded_count, bounded_count_inclusion_exclusion,
                                  bounded_count_sympy, closed_forms, hop_counts, weighted_count)
from models.core.errors import ParameterError

TORI = [(3, 4), (4, 5), (5, 4), (3, 4, 5), (4, 4, 4), (2, 3, 4, 5)]


def _pairs(radices, bidirectional):
    """Per-dimension DOR hop counts of every (source, destination) pair, source != destination.

    Routes are built hop by hop on node coordinates (not from a formula): in each
    dimension, lowest first, step +1 (unidirectional) or the shorter way, + on a tie.
    """
    nodes = list(itertools.product(*[range(k) for k in radices]))
    out = []
    for src in nodes:
        for dst in nodes:
            if src == dst:
                continue
            cur = list(src)
            hops = []  # dimension of every hop, in order
            for i, k in enumerate(radices):
                step = 1
                if bidirectional:
                    fwd = (dst[i] - cur[i]) % k
                    step = 1 if fwd <= k - fwd else -1
                while cur[i] != dst[i]:
                    cur[i] = (cur[i] + step) % k
                    hops.append(i)
            out.append(hops)
    return out


@pytest.fixture(scope="module", params=[(t, b) for t in TORI for b in (False, True)],
                ids=lambda p: "x".join(map(str, p[0])) + ("-bi" if p[1] else "-uni"))
def case(request):
    radices, bi = request.param
    return radices, bi, _pairs(radices, bi), DorCombinatorics(radices, bidirectional=bi)


def _frac(num, den):
    return Fraction(num, den) if den else Fraction(0)


def test_path_length_distribution_and_mean(case):
    radices, bi, pairs, c = case
    total = len(pairs)
    for m in range(0, c.max_hops + 2):
        assert c.P_m(m) == _frac(sum(len(p) == m for p in pairs), total), m
    assert c.mean_hops == Fraction(sum(len(p) for p in pairs), total)


def test_termination_probability(case):
    radices, bi, pairs, c = case
    for i in range(c.n):
        taking = [p for p in pairs if i in p]
        assert c.P_take(i) == Fraction(len(taking), len(pairs))
        assert c.P_t(i) == Fraction(sum(p[-1] == i for p in taking), len(taking)), i


def test_last_hop_probability_is_hop_weighted(case):
    # P_t / (mean hops in i given >= 1): fraction of all hops in dimension i that are their message's last
    radices, bi, pairs, c = case
    for i in range(c.n):
        hops = [(p, h) for p in pairs for h in range(len(p)) if p[h] == i]
        assert c.last_hop(i) == Fraction(sum(h == len(p) - 1 for p, h in hops), len(hops)), i


def test_first_hop_probability(case):
    radices, bi, pairs, c = case
    for i in range(c.n):
        assert c.first_hop(i) == Fraction(sum(p[0] == i for p in pairs), len(pairs))
    assert sum(c.first_hop(i) for i in range(c.n)) == 1


def test_conditional_hop_counts(case):
    radices, bi, pairs, c = case
    for i in range(c.n):
        taking = [p for p in pairs if i in p]
        first = [p for p in pairs if p[0] == i]
        for j in range(c.n):
            for s in range(1, c.max_in(j) + 1):
                got = c.P_s_given(j, s, i)
                assert got == Fraction(sum(p.count(j) >= s for p in taking), len(taking)), (j, s, i)
                if j >= i:
                    want = Fraction(sum(p.count(j) >= s for p in first), len(first))
                    assert c.P_s_given_first(j, s, i) == want, (j, s, i)
            if j > i:
                # destination-weighted = hop-weighted for higher dimensions (what W-hat needs)
                hops = [p for p in pairs for h in range(len(p)) if p[h] == i]
                assert c.sum_given(j, i) == Fraction(sum(p.count(j) for p in hops), len(hops))


def test_same_dimension_terms(case):
    radices, bi, pairs, c = case
    for i in range(c.n):
        # hop-weighted remaining hops in i after the current hop in i
        rem = [p.count(i) - 1 - p[:h].count(i) for p in pairs for h in range(len(p)) if p[h] == i]
        assert c.remaining_same(i) == Fraction(sum(rem), len(rem))
        first = [p for p in pairs if p[0] == i]
        assert c.extra_same_first(i) == Fraction(sum(p.count(i) - 1 for p in first), len(first))


@pytest.mark.parametrize("radices", TORI)
def test_closed_forms_hold_on_the_unidirectional_torus(radices):
    cf = closed_forms(len(radices))
    sub = dict(zip(cf["symbols"], radices))
    c = DorCombinatorics(radices)
    assert sp.Rational(c.mean_hops.numerator, c.mean_hops.denominator) == cf["h"].subs(sub)
    N = prod(radices)
    assert c.mean_hops == Fraction(N, N - 1) * sum(Fraction(k - 1, 2) for k in radices)
    for i in range(len(radices)):
        assert c.P_t(i) == Fraction(1, prod(radices[i + 1:]))
        assert sp.Rational(str(c.P_t(i))) == cf["P_t"][i].subs(sub)
        assert sp.Rational(str(c.last_hop(i))) == cf["last_hop"][i].subs(sub)
        assert sp.Rational(str(c.first_hop(i))) == cf["first_hop"][i].subs(sub)
        assert sp.Rational(str(c.remaining_same(i))) == cf["remaining_same"].subs(cf["k"], radices[i])
        assert sp.Rational(str(c.extra_same_first(i))) == cf["extra_same_first"].subs(cf["k"], radices[i])
        for j in range(len(radices)):
            for s in range(1, radices[j]):
                if j != i:
                    assert sp.Rational(str(c.P_s_given(j, s, i))) == cf["P_s_given"][(j, i)].subs(sub).subs(cf["s"], s)
                if j > i:
                    assert sp.Rational(str(c.P_s_given_first(j, s, i))) == cf["P_s_given_first"][(j, i)].subs(sub).subs(cf["s"], s)


def test_closed_form_expressions():
    cf = closed_forms(2)
    k0, k1 = cf["symbols"]
    assert sp.simplify(cf["P_t"][0] - 1 / k1) == 0
    assert sp.simplify(cf["last_hop"][0] - 2 / (k0 * k1)) == 0
    assert sp.simplify(cf["P_s_given"][(1, 0)] - (k1 - cf["s"]) / k1) == 0
    k = cf["k"]
    assert sp.simplify(cf["remaining_same"] - (k - 2) / 3) == 0
    assert sp.simplify(cf["extra_same_first"] - (k - 2) / 2) == 0


@pytest.mark.parametrize("caps", [(), (0,), (3,), (2, 3), (1, 2, 3), (4, 3, 2, 1), (2, 2, 2), (0, 5, 1)])
def test_bounded_count_three_ways_and_by_enumeration(caps):
    for m in range(-1, sum(caps) + 3):
        brute = sum(1 for x in itertools.product(*[range(c + 1) for c in caps]) if sum(x) == m) if m >= 0 else 0
        assert bounded_count(m, caps) == brute
        assert bounded_count_sympy(m, caps) == brute
        assert bounded_count_inclusion_exclusion(m, caps) == brute
        assert weighted_count(m, [(1,) * (c + 1) for c in caps]) == brute


def test_hop_counts():
    assert hop_counts(5) == (1,) * 5
    assert hop_counts(4, True) == (1, 2, 1)
    assert hop_counts(5, True) == (1, 2, 2)
    assert sum(hop_counts(16, True)) == 16


@pytest.mark.parametrize("bad", [(1, 4), (4, 0), (4.5,), ()])
def test_bad_radices(bad):
    with pytest.raises(ParameterError, match="radices|dimensions"):
        DorCombinatorics(bad)
