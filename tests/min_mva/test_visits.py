"""Visit ratios V_ij and input-port probabilities p_ikj (paper Sec. 2.3, 3.2)."""

import numpy as np
import pytest

from models.networks.patterns import hot_spot, uniform
from models.networks.multistage import MultistageNetwork
from models.min_mva.visits import stage_structure, visit_ratios, visit_ratios_naive


def _patterns(N):
    rng = np.random.default_rng(3)
    R = rng.random((N, N)) * (rng.random((N, N)) < 0.5)
    R[:, 0] += 0.1
    return {"uniform": uniform(N), "hot_spot": hot_spot(N), "random": R / R.sum(1, keepdims=True)}


@pytest.mark.parametrize("topology,k,n,wiring", [
    ("omega", 2, 3, "mirror"), ("omega", 3, 2, "mirror"), ("baseline", 2, 3, "same"),
    ("cube", 2, 3, "mirror"), ("cube", 3, 2, "same"), ("baseline", 3, 2, "mirror"),
])
def test_vectorised_equals_paper_algorithm(topology, k, n, wiring):
    net = MultistageNetwork(topology, k, n, wiring)
    for name, P in _patterns(net.N).items():
        vis = visit_ratios(net, P)
        V0, p0 = visit_ratios_naive(net, P)
        np.testing.assert_allclose(vis.dense(), V0, atol=1e-14, err_msg=name)
        np.testing.assert_allclose(vis.dense_p(), p0, atol=1e-14, err_msg=name)
        # path lengths: 2n switch output ports and one memory per request
        N = net.N
        V = vis.dense()
        np.testing.assert_allclose(V[:, : 2 * n * N].sum(1), 2 * n)
        np.testing.assert_allclose(V[:, 2 * n * N :].sum(1), 1.0)
        for b in range(2 * n + 1):  # one visit per stage and request
            np.testing.assert_allclose(V[:, b * N : (b + 1) * N].sum(1), 1.0)
        np.testing.assert_allclose(V[:, 2 * n * N :], P)
        np.testing.assert_allclose(vis.p.sum(1), 1.0)


def test_uniform_port_probabilities():
    """Forward: a class enters an output port from one input; return: 1/k per input."""
    net = MultistageNetwork("omega", 2, 4)
    vis = visit_ratios(net, uniform(net.N))
    N, n = net.N, net.n
    fwd = vis.center[: vis.n_switch] < n * N
    assert set(np.unique(vis.p[fwd])) == {0.0, 1.0}
    np.testing.assert_allclose(vis.p[~fwd], 0.5)


def test_stage_structure_detects_symmetry():
    net = MultistageNetwork("omega", 2, 4)
    assert stage_structure(net, uniform(net.N)).ok
    st = stage_structure(net, hot_spot(net.N))
    assert not st.ok and st.reason
    np.testing.assert_allclose(stage_structure(net, uniform(net.N)).T, 1.0)
