"""Parameters of the Duato-Nbc model, checked at the door: :class:`NbcParams`, made once and carried.

A ``k x k`` bidirectional torus (``N = k**2`` nodes), messages of ``M`` flits,
``V`` virtual channels per physical channel split into ``V1`` fully adaptive
VCs and ``V2`` negative-hop escape levels (``V = V1 + V2``).

Constraints, checked when an :class:`NbcParams` is made, each raising
:class:`~models.core.errors.ParameterError` (a ``ValueError``) that names the
parameter, the value and the allowed range:

* ``k`` even: the negative-hop rule colours node ``(x, y)`` with
  ``(x + y) mod 2``, a proper 2-colouring of the torus only for even ``k``
  (an odd ring has an edge joining two nodes of the same colour).
* ``k`` a multiple of 4: eq. (2) gives ``kbar = k/4`` hops per dimension and
  the average-case :math:`\\varphi_h` of eqs. (8)-(10) (Ould-Khaoua's
  split counting, :mod:`models.networks.adaptive_paths`) needs ``kbar`` integral.
* ``V2 >= k/2 + 1``: colours alternate along a path, so a minimal path of
  at most ``D = k`` hops (the diameter) has at most ``ceil(D/2) = k/2``
  negative hops and needs levels ``0..k/2``: ``floor(D/2) + 1 = k/2 + 1``
  escape levels, the minimum the simulator's routing also enforces
  (:func:`models.sim.wormhole.routing.nbc_min_levels`).
* ``V1 = V - V2 >= 1``: Duato-Nbc has at least one fully adaptive VC, so
  ``V >= k/2 + 2``.
* ``M >= 1`` flits (integer), rates ``>= 0`` messages/node/cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ParameterError
from ..core.validate import require, require_choice, require_message_length, require_rate, require_vcs

MEAN_DISTANCES = ("agarwal", "exact")

#: The service-time variance of the M/G/1 waits of eqs. (18)-(19): the paper's approximation ``(S - M)^2``
#: (``"paper"``), none (``"zero"``: deterministic service) or an exponential service time (``"exponential"``:
#: variance ``S^2``).  The two others bracket the paper's for every ``S >= M``, so they test the paper's
#: explanation of its discrepancies near saturation (Sect. 4).
VARIANCES = ("paper", "zero", "exponential")


def min_escape_levels(k: int) -> int:
    """Escape levels Nbc needs on a ``k x k`` torus with minimal routing: ``floor(D/2)+1 = k/2+1``."""
    return (2 * (k // 2)) // 2 + 1


def min_vcs(k: int) -> int:
    """Smallest ``V`` for Duato-Nbc on ``k x k``: the escape levels plus one adaptive VC."""
    return min_escape_levels(k) + 1


@dataclass(frozen=True)
class NbcParams:
    """The model's parameters, checked and coerced once, when the value is made (the chapter's one check).

    The value the chapter carries from the door (``compare``, the front
    door's ``solve``, the figures) to the curve (:func:`models.torus_nbc.setups.curve`)
    and the simulator's keywords (:func:`models.torus_nbc.experiments.sim_kwargs`),
    which take it as it is.  Each check raises
    :class:`~models.core.errors.ParameterError` (a ``ValueError``) naming the
    parameter (the module docstring gives the rules).

    k : int
        Radix (nodes per dimension), even and a multiple of 4, ``4 <= k <= 128``
        (the sane range of issue #15: at ``k = 128, V = 128`` a solve takes seconds).
    M : int
        Message length, flits, ``1 <= M <= 1e6``.
    V : int
        Virtual channels per physical channel, ``k/2 + 2 <= V <= 128`` (default 10, the paper's).
    escape_levels : int or None
        ``V2``, negative-hop escape levels, ``k/2 + 1 <= V2 <= V - 1``, as
        given; None: the minimum ``k/2 + 1`` (:attr:`V2`; so ``V1 = V - k/2 - 1``
        adaptive VCs).  Kept as given, so the simulator is asked for its own
        default when none was.
    mean_distance : {'agarwal', 'exact'}
        ``d`` of eq. (3): the paper's ``d = 2 kbar = k/2`` (eq. 2), or the exact
        mean over the ``N - 1`` destinations.
    variance : {'paper', 'zero', 'exponential'}
        Service-time variance of the M/G/1 waits, eqs. (18)-(19): the paper's
        ``(S - M)^2``, ``0`` (deterministic) or ``S^2`` (exponential); see
        :data:`VARIANCES`.
    """

    k: int
    M: int
    V: int = 10
    escape_levels: int | None = None
    mean_distance: str = "agarwal"
    variance: str = "paper"

    def __post_init__(self):
        k = require("k", self.k, 4, 128, unit="radix: nodes per dimension of the k x k torus", integer=True)
        if k % 2:
            raise ParameterError(
                f"`k` must be even (radix of the k x k torus): the negative-hop colouring (x + y) mod 2 "
                f"is a proper 2-colouring only for even k; got {k}"
            )
        if k % 4:
            raise ParameterError(
                f"`k` must be a multiple of 4 (radix of the k x k torus): eq. (2) gives kbar = k/4 hops per "
                f"dimension and phi_h (eqs. 8-10) needs an integer kbar; got {k}"
            )
        M = require_message_length("M", self.M, integer=True)
        need_v2 = min_escape_levels(k)
        V = require_vcs("V", self.V, need_v2 + 1,
                        unit=f"virtual channels per physical channel; Duato-Nbc on a {k}x{k} torus (`k` = {k}) "
                             f"needs {need_v2} escape levels plus at least one adaptive VC")
        levels = self.escape_levels
        if levels is not None:
            levels = require("escape_levels", levels, need_v2, V - 1, integer=True,
                             unit=f"negative-hop escape levels V2 on a {k}x{k} torus: at least k/2+1, "
                                  f"leaving V1 >= 1 adaptive VCs of V = {V}")
        mean_distance = require_choice("mean_distance", self.mean_distance, MEAN_DISTANCES,
                                       unit="d of eq. (3): the paper's k/2, or the exact mean over destinations")
        variance = require_choice("variance", self.variance, VARIANCES,
                                  unit="service-time variance of eqs. (18)-(19): the paper's (S-M)^2, 0 or S^2")
        for name, value in (("k", k), ("M", M), ("V", V), ("escape_levels", levels),
                            ("mean_distance", mean_distance), ("variance", variance)):
            object.__setattr__(self, name, value)

    @property
    def V2(self) -> int:
        """Negative-hop escape levels: :attr:`escape_levels`, else the minimum ``k/2 + 1``."""
        return min_escape_levels(self.k) if self.escape_levels is None else self.escape_levels

    @property
    def V1(self) -> int:
        """Fully adaptive VCs."""
        return self.V - self.V2

    @property
    def N(self) -> int:
        """Nodes."""
        return self.k * self.k

    @property
    def diameter(self) -> int:
        """Largest minimal distance, hops (``k`` on ``k x k``)."""
        return 2 * (self.k // 2)

    @property
    def model(self) -> dict:
        """The model's keywords (of ``solve``, ``solve_curve``, ``saturation_load``), as given: ``escape_levels``
        None when it was not (a curve's ``model``)."""
        return dict(k=self.k, M=self.M, V=self.V, escape_levels=self.escape_levels, mean_distance=self.mean_distance,
                    variance=self.variance)

    def as_dict(self) -> dict:
        """The parameters with the escape levels resolved (``escape_levels`` = :attr:`V2`): a result's ``params``."""
        return dict(self.model, escape_levels=self.V2)


def check_rate(rate) -> float:
    """A generation rate, messages/node/cycle: 0 or in ``[1e-12, 1e6]`` (:func:`~models.core.validate.require_rate`)."""
    return require_rate("rate", rate, positive=False, unit="traffic generation rate lambda_g, messages/node/cycle")
