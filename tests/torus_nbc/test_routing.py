"""Deadlock freedom of Duato-Nbc: the extended channel dependency graph of the escape VCs is acyclic.

The routing is the simulator's own (models.sim.wormhole.routing), not a reimplementation.
"""

import pytest

from models.core.errors import ParameterError
from models.sim.wormhole.routing import is_acyclic
from models.torus_nbc.routing_check import check, escape_cdg


@pytest.mark.parametrize("k,vcs", [(4, None), (6, None), (8, None), (8, 10), (4, 10)])
def test_extended_escape_cdg_is_acyclic(k, vcs):
    res = check(k, vcs)
    assert res.escape_levels == k // 2 + 1
    assert res.escape_vcs == 4 * k * k * (k // 2 + 1)   # 4 channels per node
    assert res.dependencies > res.escape_vcs            # not trivially empty
    assert res.acyclic


@pytest.mark.slow
def test_16x16_paper_size_is_acyclic():
    res = check(16, 10, count=False)
    assert res.escape_levels == 9 and res.escape_vcs == 4 * 256 * 9
    assert res.acyclic


def test_8x8_dependency_count():
    # notes/papers.md sec. 7: 1280 escape VCs and 91,136 dependencies on 8x8
    res = check(8)
    assert (res.escape_vcs, res.dependencies) == (1280, 91136)


def test_extra_escape_levels_stay_acyclic():
    assert check(6, vcs=8, escape_levels=6, count=False).acyclic


def test_the_check_has_teeth():
    """Closing one dependency backwards makes the graph cyclic, and is_acyclic sees it."""
    _, _, n_esc, G = escape_cdg(4)
    G = G.tolil()
    rows, cols = G.nonzero()
    # an edge from an escape VC to an auxiliary state, and a path back: add aux -> that escape VC
    i = next(idx for idx in range(len(rows)) if rows[idx] < n_esc <= cols[idx])
    G[cols[i], rows[i]] = 1
    assert not is_acyclic(G.tocsr())


@pytest.mark.parametrize("k", [5, 7])
def test_odd_radix_rejected(k):
    with pytest.raises(ParameterError, match="even"):
        check(k)


def test_too_few_levels_rejected():
    with pytest.raises(ParameterError, match="escape_levels"):
        check(8, vcs=10, escape_levels=4)
