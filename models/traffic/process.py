"""Arrival processes of the models and the simulator: MMPP(2), IPP, Poisson (numpy only).

An MMPP(2) has modulating generator ``Q = [[-sigma1, sigma1], [sigma2, -sigma2]]``
(per cycle) and rate matrix ``Lambda = diag(mu1, mu2)`` (arrivals per cycle in
each state).  An IPP is an MMPP(2) with ``mu2 = 0`` (torus_ipp paper, eq. 7;
its source parameters are ``mu1, mu2, sigma1, sigma2`` and its channel
parameters ``lambda1, lambda2, delta1, delta2``, eq. 18, the same object).
A Poisson process of rate ``r`` is the degenerate MMPP(2) with ``mu1 = mu2 = r``.

One object serves both floors: the models read its matrices and moments, the
wormhole simulator (:mod:`models.sim.wormhole`) draws arrivals from its
``mu1, mu2, sigma1, sigma2``.  The closed forms here are eqs. (8)-(11) of the
torus_ipp paper; the SymPy derivation of all counting moments from the
generating function, and the third moment, are in :mod:`models.traffic.moments`.

Units: time in cycles, rates in arrivals (messages) per cycle.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.errors import ParameterError
from ..core.validate import require

__all__ = ["MMPP2", "IPP", "poisson"]


@dataclasses.dataclass(frozen=True)
class MMPP2:
    """A two-state Markov-modulated Poisson process (rates per cycle).

    Parameters
    ----------
    mu1, mu2 : float
        Arrival rate in state 1 and 2 (arrivals per cycle, >= 0, not both 0);
        the paper's ``mu1, mu2`` for a source and ``lambda1, lambda2`` for a
        channel (eq. 18).
    sigma1, sigma2 : float
        Switching rate 1 -> 2 and 2 -> 1 (per cycle, > 0); the paper's
        ``sigma1, sigma2`` (source) and ``delta1, delta2`` (channel).
    """

    mu1: float
    mu2: float
    sigma1: float
    sigma2: float

    def __post_init__(self):
        require("mu1", self.mu1, 0, unit="arrival rate in state 1, per cycle")
        require("mu2", self.mu2, 0, unit="arrival rate in state 2, per cycle")
        require("sigma1", self.sigma1, 0, lo_open=True, unit="switching rate 1->2, per cycle")
        require("sigma2", self.sigma2, 0, lo_open=True, unit="switching rate 2->1, per cycle")
        if self.mu1 + self.mu2 <= 0:
            raise ParameterError(f"`mu1` + `mu2` must be > 0 (arrivals per cycle); got {self.mu1!r} + {self.mu2!r}")
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, float(getattr(self, f.name)))

    # -- matrices
    @property
    def Q(self) -> np.ndarray:
        """Infinitesimal generator of the modulating chain (eq. 7 / 18), per cycle."""
        return np.array([[-self.sigma1, self.sigma1], [self.sigma2, -self.sigma2]])

    @property
    def Lambda(self) -> np.ndarray:
        """Rate matrix ``diag(mu1, mu2)``, arrivals per cycle."""
        return np.diag([self.mu1, self.mu2])

    @property
    def pi(self) -> np.ndarray:
        """Stationary vector ``(sigma2, sigma1)/(sigma1 + sigma2)``."""
        s = self.sigma1 + self.sigma2
        return np.array([self.sigma2 / s, self.sigma1 / s])

    @property
    def s(self) -> float:
        """Total switching rate ``sigma1 + sigma2``, per cycle."""
        return self.sigma1 + self.sigma2

    @property
    def is_poisson(self) -> bool:
        """True when both states have the same rate (a Poisson process)."""
        return self.mu1 == self.mu2

    @property
    def mean_rate(self) -> float:
        """``(mu1 sigma2 + mu2 sigma1)/(sigma1 + sigma2)`` (eq. 9), arrivals per cycle."""
        return (self.mu1 * self.sigma2 + self.mu2 * self.sigma1) / self.s

    @property
    def c2(self) -> float:
        """Variance of the modulating rate, ``sigma1 sigma2 (mu1-mu2)^2/s^2``."""
        return self.sigma1 * self.sigma2 * (self.mu1 - self.mu2) ** 2 / self.s**2

    @property
    def c3(self) -> float:
        """Third central moment of the modulating rate."""
        return self.sigma1 * self.sigma2 * (self.sigma1 - self.sigma2) * (self.mu1 - self.mu2) ** 3 / self.s**3

    # -- counting moments, closed forms
    def mean_count(self, t):
        """``E N(t) = lambda t`` (eq. 8), arrivals in a window of ``t`` cycles."""
        return self.mean_rate * np.asarray(t, dtype=float)

    def idc_inf(self) -> float:
        """``lim Var N(t) / E N(t) = 1 + 2 c2/(s lambda)`` (eq. 11)."""
        return 1.0 + 2.0 * self.c2 / (self.s * self.mean_rate)

    def idc(self, t) -> np.ndarray:
        """Index of dispersion of counts over ``t`` cycles (eq. 10):
        ``IDC(t) = b_inf - (b_inf - 1)(1 - e^{-s t})/(s t)``."""
        t = np.asarray(t, dtype=float)
        binf = self.idc_inf()
        st = self.s * t
        return binf - (binf - 1.0) * (-np.expm1(-st)) / st


def IPP(mu1: float, sigma1: float, sigma2: float) -> MMPP2:
    """Interrupted Poisson process: rate ``mu1`` in state 1 ("on"), silent in state 2.

    ``sigma1`` is the on -> off rate and ``sigma2`` the off -> on rate (per
    cycle), as in the torus_ipp paper.  ``mu1 <= 0`` or a ``sigma <= 0`` raise
    :class:`~models.core.errors.ParameterError` (a ``ValueError``).
    """
    require("mu1", mu1, 0, lo_open=True, unit="on-state rate, messages/node/cycle")
    require("sigma1", sigma1, 0, lo_open=True, unit="on->off switching rate, per cycle")
    require("sigma2", sigma2, 0, lo_open=True, unit="off->on switching rate, per cycle")
    return MMPP2(mu1, 0.0, sigma1, sigma2)


def poisson(rate: float) -> MMPP2:
    """A Poisson process of ``rate`` (arrivals per cycle) as the degenerate MMPP(2) with equal rates."""
    require("rate", rate, 0, lo_open=True, unit="arrivals per cycle")
    return MMPP2(rate, rate, 1.0, 1.0)
