"""Memory reference patterns P[i, j]: probability that processor i's request goes to module j.

Rows sum to 1 (Willick & Eager, Sec. 2.3).  Named patterns:

``uniform``
    ``P[i, j] = 1/N``.
``hot_spot``
    The pattern of the paper's Fig. 3 (Sec. 3.3), after Pfister & Norton:
    processors ``0..n_hot-1`` reference the hot module with probability
    ``(1-h)/N + h`` and every other module with ``(1-h)/N``; the remaining
    processors never reference the hot module and reference each other module
    with ``1/(N-1)``.  The paper uses ``N = 64``, ``n_hot = 32``,
    ``h = 0.2``, hot module 0.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ParameterError
from ..core.validate import require, require_stochastic_rows

PATTERNS = ("uniform", "hot_spot")


def uniform(N: int) -> np.ndarray:
    """Uniform references, ``1/N`` to each of the ``N`` modules."""
    N = require("N", N, 1, unit="processors", integer=True)
    return np.full((N, N), 1.0 / N)


def hot_spot(N: int, n_hot: int | None = None, h: float = 0.2, hot_module: int = 0) -> np.ndarray:
    """The paper's hot-spot pattern (Fig. 3); defaults: half the processors, ``h = 0.2``, module 0."""
    N = require("N", N, 2, unit="processors", integer=True)
    n_hot = N // 2 if n_hot is None else require("n_hot", n_hot, 0, N, unit="processors in hot-spot contention", integer=True)
    h = require("h", h, 0.0, 1.0, unit="extra probability of referencing the hot module")
    hot_module = require("hot_module", hot_module, 0, N - 1, unit="module index", integer=True)
    P = np.empty((N, N))
    P[:n_hot, :] = (1.0 - h) / N
    P[:n_hot, hot_module] += h
    P[n_hot:, :] = 1.0 / (N - 1)
    P[n_hot:, hot_module] = 0.0
    return P


def reference_matrix(pattern, N: int, **options) -> np.ndarray:
    """A reference matrix from a pattern name (``"uniform"``, ``"hot_spot"``) or an array.

    An array must be ``N x N``, non-negative, with rows summing to 1;
    otherwise a :class:`~models.core.errors.ParameterError` says which row
    is wrong.
    """
    if isinstance(pattern, str):
        if pattern == "uniform":
            if options:
                raise ParameterError(f"pattern 'uniform' takes no options; got {sorted(options)}")
            return uniform(N)
        if pattern == "hot_spot":
            return hot_spot(N, **options)
        raise ParameterError(f"`pattern` must be one of {PATTERNS} or an N x N matrix; got {pattern!r}")
    P = require_stochastic_rows("pattern", pattern)
    if P.shape != (N, N):
        raise ParameterError(f"`pattern` must be {N} x {N} (processors x memory modules); got {P.shape}")
    return P
