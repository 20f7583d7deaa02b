"""The multiprocessor the model and the simulator describe, checked once at the door: :class:`MvaParams`.

``N = k**n`` processors and ``N`` memory modules joined by a forward and a
return multistage network of ``k x k`` switches.  Nine keywords describe
it; they are documented here, once, and every door of the chapter takes
them as keywords and turns them into one :class:`MvaParams` value, which
checks and coerces them: :func:`models.min_mva.solve` (and ``solve_curve``),
:func:`~models.min_mva.asymptotic_bounds`, :func:`~models.min_mva.saturation_load`
and :func:`models.min_mva.compare`, whose curve
(:func:`models.min_mva.setups.network_curve`) carries the checked keywords
(:meth:`MvaParams.keywords`) to the simulator's
(:func:`models.min_mva.experiments.sim_kwargs`) unchanged.

Each bad value raises :class:`~models.core.errors.ParameterError` (a
``ValueError``) naming the keyword; an unknown keyword is a ``TypeError``,
as for any Python function.  This module imports numpy and the ``core``
checks only (no pandas, no simulator): the command line reads it.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Mapping

import numpy as np

from ..core.errors import ParameterError
from ..core.validate import require, require_choice, require_radix
from ..networks.multistage import RETURN_WIRINGS, TOPOLOGIES
from ..networks.patterns import reference_matrix

__all__ = ["MvaParams", "MAX_PROCESSORS", "MAX_STAGES", "MAX_PACKETS", "MAX_SERVICE"]

# Sane ranges (issue #15; the others are those of models.core.validate): N = k**n <= 1024 processors
# (the visit ratios alone take about a minute at N = 4096), so n <= 10 stages; at most 1e4 packets per
# request, service times <= 1e6 cycles.
MAX_PROCESSORS = 1024
MAX_STAGES = 10
MAX_PACKETS = 10_000
MAX_SERVICE = 1e6


@dataclasses.dataclass(frozen=True, eq=False)
class MvaParams:
    """The nine keywords of the multiprocessor, checked and coerced when the value is made.

    topology : {"omega", "baseline", "cube"}
        The forward network (the return network is its mirror image or a copy).
    k : int
        Switch size: ``k x k`` switches, ``2 <= k <= 1024``.
    n : int
        Stages, ``1 <= n <= 10``; ``N = k**n`` processors and memories, ``2 <= N <= 1024``.
    S_pe : float
        Mean processor inter-request time when not blocked, cycles, in ``[1, 1e6]``
        (geometric: a processor issues with probability ``1/S_pe`` per cycle).
    S_mm : float
        Memory service time, cycles, in ``[m, 1e6]`` (deterministic).
    m : int
        Packets per request and per reply, ``1 <= m <= 1e4`` (``m = 1``:
        eqs. (1)-(3); ``m > 1``: eqs. (4)-(6)).
    pattern : "uniform", "hot_spot" or (N, N) array
        The memory reference matrix ``P_ij``
        (:func:`models.networks.patterns.reference_matrix`; ``"hot_spot"``:
        the paper's Fig. 3, ``h = 0.2``).
    return_wiring : {"mirror", "same"}
        The return network: the forward network's mirror image (a reply
        retraces its request's path; the set-up ``"paper"``) or a second copy
        of the forward network (``"second-omega"``); see
        :mod:`models.networks.multistage` and :mod:`models.min_mva.setups`.
    pattern_options : dict, optional
        Keyword options of the named pattern (e.g. ``{"h": 0.2}``).

    The checked value holds ``k``, ``n``, ``m`` as ``int`` and ``S_pe``,
    ``S_mm`` as ``float``; :attr:`P` is the reference matrix (``N x N``,
    built once: the check of ``pattern``), :attr:`N` the number of processors.
    """

    topology: str = "omega"
    k: int = 2
    n: int = 6
    S_pe: float = 1.0
    S_mm: float = 1.0
    m: int = 1
    pattern: Any = "uniform"
    return_wiring: str = "mirror"
    pattern_options: Mapping | None = None

    #: The keywords, in order (those of :func:`models.min_mva.solve` besides its iteration controls, and of the
    #: closed simulator :func:`models.sim.closed_min.simulate` besides ``NC`` and its run lengths).
    KEYWORDS = ("topology", "k", "n", "S_pe", "S_mm", "m", "pattern", "return_wiring", "pattern_options")

    def __post_init__(self):
        require_choice("topology", self.topology, TOPOLOGIES, unit="multistage network")
        k = require_radix("k", self.k, 2, unit="switch radix (k x k switches), ports")
        n = require("n", self.n, 1, MAX_STAGES, unit="number of stages; N = k**n processors", integer=True)
        require("N = k**n", k**n, 2, MAX_PROCESSORS, unit="processors and memory modules", integer=True)
        m = require("m", self.m, 1, MAX_PACKETS, unit="packets per request/reply", integer=True)
        S_pe = float(require("S_pe", self.S_pe, 1, MAX_SERVICE, unit="mean processor inter-request time, cycles"))
        S_mm = float(require("S_mm", self.S_mm, m, MAX_SERVICE,
                             unit=f"memory service time, cycles (>= m = {m} packets)"))
        require_choice("return_wiring", self.return_wiring, RETURN_WIRINGS, unit="return network wiring")
        P = _pattern_matrix(self.pattern, k**n, self.pattern_options)
        for name, value in (("k", k), ("n", n), ("m", m), ("S_pe", S_pe), ("S_mm", S_mm), ("P", P)):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, keywords: Mapping[str, Any], where: str = "MvaParams") -> "MvaParams":
        """The value of the keywords ``keywords`` (a door's ``**network``); another name is a ``TypeError``
        saying which function (``where``) got it, as Python's own."""
        unknown = sorted(set(keywords) - set(cls.KEYWORDS))
        if unknown:
            raise TypeError(f"{where}() got unexpected keyword argument(s) {unknown}; the network's are "
                            f"{', '.join(cls.KEYWORDS)} (models.min_mva.params.MvaParams)")
        return cls(**keywords)

    @property
    def N(self) -> int:
        """Processors (and memory modules), ``k**n``."""
        return self.k**self.n

    def keywords(self) -> dict:
        """The checked keywords, by name (:data:`KEYWORDS`): what a curve's ``model`` holds and ``solve`` takes."""
        return {name: getattr(self, name) for name in self.KEYWORDS}

    def replace(self, **changes) -> "MvaParams":
        """A copy with some keywords changed (checked again)."""
        return dataclasses.replace(self, **changes)


def _pattern_matrix(pattern, N, pattern_options) -> np.ndarray:
    """The reference matrix; a ``pattern`` or ``pattern_options`` of the wrong kind is a ParameterError naming it.

    A named pattern is built once per ``(pattern, N, options)`` (:func:`_named_pattern`)."""
    if pattern_options is not None and not isinstance(pattern_options, dict):
        raise ParameterError(f"`pattern_options` must be a dict of the pattern's options or None; "
                             f"got {pattern_options!r}")
    opts = dict(pattern_options or {})
    if not isinstance(pattern, str):
        try:
            pattern = np.asarray(pattern, dtype=float)
        except (TypeError, ValueError):
            raise ParameterError(f"`pattern` must be a pattern name or an N x N matrix (N = {N}); "
                                 f"got {pattern!r}") from None
    try:
        if isinstance(pattern, str):
            try:
                return _named_pattern(pattern, N, tuple(sorted(opts.items())))
            except TypeError as exc:
                if "unhashable" not in str(exc):
                    raise
        return reference_matrix(pattern, N, **opts)
    except TypeError as exc:  # an option the named pattern does not take
        raise ParameterError(f"`pattern_options` {pattern_options!r} do not fit pattern {pattern!r}: {exc}") from None


@functools.lru_cache(maxsize=16)
def _named_pattern(pattern: str, N: int, opts: tuple) -> np.ndarray:
    """A named reference matrix, built once per ``(pattern, N, options)`` (``N x N``: 8 MB at N = 1024), read-only."""
    P = np.array(reference_matrix(pattern, N, **dict(opts)), dtype=float)
    P.setflags(write=False)
    return P
