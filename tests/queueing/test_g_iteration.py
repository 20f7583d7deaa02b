"""The 2x2 G iteration of mmpp_g1 (closed form) equals core.fixed_point's plain iteration bit for bit (#16)."""

import numpy as np
import pytest

from models.core.errors import ConvergenceError
from models.core.fixed_point import fixed_point
from models.queueing import mmpp_g1 as q
from models.traffic.process import MMPP2


@pytest.mark.parametrize("bbar", [0.0, 3.5, 40.0])
@pytest.mark.parametrize("G0", [None, "zeros"])
def test_g_iteration_equals_fixed_point(bbar, G0):
    Q, L = q._mmpp_args(MMPP2(0.011, 0.006, 0.32, 0.68))
    svc = q.ConstantPlusExponential(56.0, bbar)
    step = lambda G: svc.matrix_lst(Q - L + L @ G)  # noqa: E731
    start = np.eye(2) if G0 is None else np.zeros((2, 2))
    ref = fixed_point(step, start, damping=1.0, tol=1e-13, max_iter=200_000, relative=False)
    G, it = q._g_iteration(step, start, 1e-13, 200_000)
    assert it == ref.iterations
    assert np.array_equal(G, ref.x)
    G2, it2 = q.mmpp_g_matrix((Q, L), svc, G0=start)
    assert it2 == it and np.array_equal(G2, G)


def test_g_iteration_errors():
    with pytest.raises(ConvergenceError):
        q._g_iteration(lambda G: G + 1.0, np.eye(2), 1e-13, 5)
    with pytest.raises(ConvergenceError, match="non-finite"):
        q._g_iteration(lambda G: G + np.inf, np.eye(2), 1e-13, 5)
