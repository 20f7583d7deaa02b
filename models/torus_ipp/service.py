"""The channel service time ``T = M + d + B`` (eqs. 4, 6) with a blocking time ``B`` of any squared coefficient
of variation: the solver's ``blocking_cv2`` (a test of eqs. 20-22, which take ``B`` exponential, ``cv2 = 1``).

Eqs. (20)-(22) replace the blocking time's unknown distribution by an exponential of the right mean ``bbar``
(eq. 22: ``beta = 1/bbar``).  The MMPP/G/1 wait of eq. (19) needs the service time's first two moments and, for
the matrix ``G``, its whole Laplace-Stieltjes transform (eq. 6), so the distribution of ``B`` enters the model
twice.  :func:`service_time` gives ``B`` the mean ``bbar`` and the squared coefficient of variation ``cv2``
with a standard two-moment phase-type fit (Tijms, *A First Course in Stochastic Models*, 2003, Sec. 2.9):

* ``cv2 = 1``: the exponential of eqs. (20)-(21) (:class:`~models.queueing.mmpp_g1.ConstantPlusExponential`,
  the paper's model, unchanged);
* ``cv2 = 0``: a constant ``B = bbar`` (the service time is deterministic);
* ``0 < cv2 < 1``: a mixture of Erlang-``(k-1)`` and Erlang-``k`` with one rate, ``1/k <= cv2 <= 1/(k-1)``;
* ``cv2 > 1``: a two-phase hyperexponential with balanced means.

Units: cycles.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..core.errors import ParameterError
from ..queueing import mmpp_g1 as _q

__all__ = ["MAX_CV2", "BlockingPhases", "ConstantPlusPhases", "blocking_phases", "service_time"]

#: The largest squared coefficient of variation of the blocking time the solver takes.
MAX_CV2 = 1e3


@dataclasses.dataclass(frozen=True)
class BlockingPhases:
    """A blocking time as a mixture of Erlang laws: with probability ``probs[i]``, Erlang-``stages[i]`` of rate
    ``rates[i]`` per cycle (``stages[i] = 0``: ``B = 0``)."""

    probs: tuple
    stages: tuple
    rates: tuple

    @property
    def mean(self) -> float:
        return float(sum(p * (k / r if k else 0.0) for p, k, r in zip(self.probs, self.stages, self.rates)))

    @property
    def second_moment(self) -> float:
        return float(sum(p * (k * (k + 1) / r**2 if k else 0.0) for p, k, r in zip(self.probs, self.stages, self.rates)))


def blocking_phases(mean: float, cv2: float) -> BlockingPhases:
    """The two-moment phase-type fit of a blocking time of ``mean`` cycles (> 0) and squared coefficient of
    variation ``cv2`` (``0 < cv2``, ``cv2 != 1`` uses the mixtures of the module docstring; 1 the exponential)."""
    if cv2 >= 1.0:
        if cv2 == 1.0:
            return BlockingPhases((1.0,), (1,), (1.0 / mean,))
        p1 = 0.5 * (1.0 + math.sqrt((cv2 - 1.0) / (cv2 + 1.0)))
        return BlockingPhases((p1, 1.0 - p1), (1, 1), (2.0 * p1 / mean, 2.0 * (1.0 - p1) / mean))
    k = max(2, math.ceil(1.0 / cv2 - 1e-12))
    p = (k * cv2 - math.sqrt(k * (1.0 + cv2) - k * k * cv2)) / (1.0 + cv2)
    rate = (k - p) / mean
    return BlockingPhases((p, 1.0 - p), (k - 1, k), (rate, rate))


@dataclasses.dataclass(frozen=True)
class ConstantPlusPhases(_q.ServiceTime):
    """``c + B`` (cycles) with ``B`` the mixture of Erlang laws ``phases`` (:class:`BlockingPhases`); the
    matrix LST is ``e^{cA} sum_i p_i (r_i (r_i I - A)^{-1})^{k_i}`` (eq. 6 with this ``B*(s)``)."""

    c: float
    phases: BlockingPhases

    mean = property(lambda self: float(self.c + self.phases.mean))
    second_moment = property(lambda self: float(self.c**2 + 2 * self.c * self.phases.mean
                                                + self.phases.second_moment))

    def matrix_lst(self, A):
        eye = np.eye(A.shape[0])
        out = np.zeros_like(A, dtype=float)
        for p, k, r in zip(self.phases.probs, self.phases.stages, self.phases.rates):
            out = out + p * (np.linalg.matrix_power(r * np.linalg.inv(r * eye - A), int(k)) if k else eye)
        return (_q.expm2(self.c * A) if A.shape == (2, 2) else _expm(self.c * A)) @ out


def _expm(A):
    from scipy.linalg import expm

    return expm(A)


def service_time(c: float, bbar: float, cv2: float = 1.0) -> _q.ServiceTime:
    """The channel service time ``c + B`` (``c = M + d``, cycles) with a blocking time of mean ``bbar`` (cycles)
    and squared coefficient of variation ``cv2``: the paper's ``c + Exp(bbar)`` for ``cv2 = 1`` (eqs. 20-22),
    a constant ``c + bbar`` for ``cv2 = 0``, else :class:`ConstantPlusPhases` (module docstring)."""
    if not (isinstance(cv2, (int, float)) and math.isfinite(cv2) and 0.0 <= cv2 <= MAX_CV2):
        raise ParameterError(f"`blocking_cv2` must be a number in [0, {MAX_CV2:g}] (the blocking time's squared "
                             f"coefficient of variation; 1: exponential, eqs. 20-22); got {cv2!r}")
    if cv2 == 1.0 or bbar <= 0:
        return _q.ConstantPlusExponential(float(c), float(bbar))
    if cv2 == 0.0:
        return _q.Deterministic(float(c + bbar))
    return ConstantPlusPhases(float(c), blocking_phases(float(bbar), float(cv2)))
