"""Shared infrastructure: errors, validation, results, fixed points, lambdify
cache, plotting, paths and the atomic on-disk cache.

Import the submodules directly (``from models.core.validate import require``);
this package imports nothing heavy.
"""

from .errors import ConvergenceError, DeadlockError, ParameterError, SimulationError

__all__ = ["ConvergenceError", "DeadlockError", "ParameterError", "SimulationError"]
