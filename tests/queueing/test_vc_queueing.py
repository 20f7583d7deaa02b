"""Shared pieces: the Dally VC-occupancy chain and the M/G/1 formulas."""

import numpy as np
import pytest
import sympy as sp

from models.queueing import mg1, mmpp_g1, vc_occupancy as vo


@pytest.mark.parametrize("V", [1, 2, 3, 5, 10])
def test_chain_equals_closed_form_symbolically(V):
    e = vo.equations(V)
    for chain, closed in zip(e["chain"], e["closed"]):
        assert sp.simplify(chain - closed.subs(vo.rho, vo.lam * vo.S)) == 0


@pytest.mark.parametrize("V", [2, 3, 5])
def test_chain_against_mm1_truncation_by_simulation_of_the_ctmc(V):
    # busy VCs = min(N, V) for an M/M/1 count N: compare with the exact geometric sum
    rho = 0.63
    n = np.arange(2000)
    pn = (1 - rho) * rho**n
    expected = np.array([pn[v] for v in range(V)] + [pn[V:].sum()])
    assert np.allclose(vo.occupancy(V, rho), expected, atol=1e-12)


def test_occupancy_sums_to_one_and_limits():
    P = vo.occupancy(4, np.array([0.0, 0.3, 0.99]))
    assert P.shape == (3, 5) and np.allclose(P.sum(axis=-1), 1)
    assert P[0, 0] == 1.0
    assert vo.multiplexing_degree(4, 0.0) == 1.0
    assert vo.multiplexing_degree(4, 1.5) == pytest.approx(4.0)
    vb = vo.multiplexing_degree(3, np.linspace(0.01, 0.99, 20))
    assert np.all(np.diff(vb) > 0) and np.all((vb >= 1) & (vb <= 3))
    with pytest.raises(ValueError, match="rho"):
        vo.occupancy(3, -0.1)
    with pytest.raises(ValueError, match="`V`"):
        vo.occupancy(0, 0.1)


def test_pk_reduces_to_mm1_and_md1():
    lam, s = 0.05, 10.0
    assert mg1.mg1_wait(lam, s, 2 * s**2) == pytest.approx(lam * s * s / (1 - lam * s))  # M/M/1
    assert mg1.mg1_wait(lam, s, s**2) == pytest.approx(lam * s * s / (2 * (1 - lam * s)))  # M/D/1
    assert mg1.mg1_wait(0.2, 10.0, 100.0) == np.inf
    # the wormhole form is P-K with second moment S^2 + (S-M)^2; deterministic when S == M
    assert mg1.mg1_wait_wormhole(lam, s, s) == pytest.approx(mg1.mg1_wait(lam, s, s**2))
    assert mg1.mg1_wait_wormhole(lam, 12.0, 10.0) == pytest.approx(mg1.mg1_wait(lam, 12.0, 144 + 4))


@pytest.mark.parametrize("V", [1, 2, 5, 10])
def test_multiplexing_expression_is_defined_at_zero_load(V):
    # the symbolic form must be cancelled: an uncancelled ratio is 0/0 at rho = 0
    assert vo.equations(V)["multiplexing"].subs(vo.rho, 0) == 1
    assert sp.simplify(vo.equations(V)["multiplexing"].subs(vo.rho, 1) - V) == 0
