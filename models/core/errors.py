"""Exceptions shared by every model and simulator.

* :class:`ParameterError` (a :class:`ValueError`) is raised at the door, before
  any work, for an invalid parameter.  Its message names the parameter, the
  value given, the allowed range and the unit.
* :class:`ConvergenceError` is raised when a fixed-point iteration does not
  converge.  It says which quantity failed, after how many iterations and
  with what residual, and keeps the partial result on ``.result``.
* :class:`SimulationError` and its subclass :class:`DeadlockError` are raised
  by the simulators; a deadlock names the cycle and the blocked channels.

Saturation is *not* an error: solvers return ``latency=inf`` and
``saturated=True``.
"""

from __future__ import annotations

from typing import Any


class ParameterError(ValueError):
    """An invalid model or simulator parameter."""


class ConvergenceError(RuntimeError):
    """A fixed-point iteration that did not converge.

    Attributes
    ----------
    where : str
        The equation or variable that failed to settle.
    iterations : int
        Iterations performed.
    residual : float
        Last residual (max-norm of the change between iterates).
    result : Any
        The last iterate, for inspection.
    """

    def __init__(self, where: str, iterations: int, residual: float, result: Any = None):
        self.where = where
        self.iterations = int(iterations)
        self.residual = float(residual)
        self.result = result
        super().__init__(
            f"fixed point did not converge in {where}: residual {residual:.3g} "
            f"after {iterations} iterations"
        )


class SimulationError(RuntimeError):
    """A simulation that could not produce a valid result."""


class DeadlockError(SimulationError):
    """A simulation in which flits stopped moving while the network held flits.

    Attributes
    ----------
    cycle : int
        The simulated cycle at which the deadlock was detected.
    channels : list
        Descriptions of the blocked channels (or virtual channels).
    """

    def __init__(self, cycle: int, channels: list, detail: str = ""):
        self.cycle = int(cycle)
        self.channels = list(channels)
        shown = ", ".join(str(c) for c in self.channels[:12])
        more = f" (+{len(self.channels) - 12} more)" if len(self.channels) > 12 else ""
        msg = f"deadlock at cycle {cycle}: blocked channels {shown}{more}"
        if detail:
            msg += f"; {detail}"
        super().__init__(msg)
