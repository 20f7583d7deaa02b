"""Damped fixed-point iteration that fails loudly.

``x_{t+1} = (1 - damping) * x_t + damping * f(x_t)`` until the max-norm of the
change is below ``tol``.  When it does not converge, :class:`ConvergenceError`
names the quantity whose change was largest (``names[i]`` if given), the
iteration count and the residual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .errors import ConvergenceError, ParameterError


@dataclass(frozen=True)
class FixedPoint:
    """Outcome of :func:`fixed_point`: the solution, iterations and final residual."""

    x: np.ndarray
    iterations: int
    residual: float
    converged: bool


def fixed_point(
    f: Callable[[np.ndarray], np.ndarray],
    x0,
    *,
    damping: float = 0.5,
    tol: float = 1e-12,
    max_iter: int = 10_000,
    where: str = "fixed point",
    names: Sequence[str] | None = None,
    relative: bool = True,
    raise_on_failure: bool = True,
) -> FixedPoint:
    """Solve ``x = f(x)`` by damped iteration.

    Parameters
    ----------
    f : callable
        Maps an array to an array of the same shape.  It may return non-finite
        values; the iteration then stops with a :class:`ConvergenceError`.
    x0 : array_like
        Starting point.
    damping : float in (0, 1]
        Weight of the new iterate (1 = plain iteration).
    tol : float
        Convergence threshold on the max-norm of the change (relative to
        ``max(1, |x|)`` when ``relative``).
    max_iter : int
        Iteration cap.
    where : str
        Name of the equation or model, used in error messages.
    names : sequence of str, optional
        Names of the components of ``x``, used in error messages.
    raise_on_failure : bool
        If False, return ``converged=False`` instead of raising.
    """
    if not 0.0 < damping <= 1.0:
        raise ParameterError(f"`damping` must be in (0, 1]; got {damping!r}")
    x = np.array(x0, dtype=float, copy=True)
    residual = np.inf
    worst = 0
    for it in range(1, max_iter + 1):
        fx = np.asarray(f(x), dtype=float)
        if fx.shape != x.shape:
            raise ValueError(f"{where}: f changed the shape from {x.shape} to {fx.shape}")
        if not np.all(np.isfinite(fx)):
            bad = int(np.flatnonzero(~np.isfinite(fx).ravel())[0])
            label = names[bad] if names is not None else f"component {bad}"
            err = ConvergenceError(f"{where} ({label} became non-finite)", it, np.inf, x)
            if raise_on_failure:
                raise err
            return FixedPoint(x, it, np.inf, False)
        new = (1.0 - damping) * x + damping * fx
        diff = np.abs(new - x)
        if relative:
            diff = diff / np.maximum(1.0, np.abs(new))
        flat = diff.ravel()
        worst = int(np.argmax(flat)) if flat.size else 0
        residual = float(flat[worst]) if flat.size else 0.0
        x = new
        if residual <= tol:
            return FixedPoint(x, it, residual, True)
    label = names[worst] if names is not None else f"component {worst}"
    if raise_on_failure:
        raise ConvergenceError(f"{where} (variable {label})", max_iter, residual, x)
    return FixedPoint(x, max_iter, residual, False)
