"""The saturation load, found the same way for every model and every simulator.

One bisection, :func:`find_saturation`, on a predicate ``is_saturated(load) ->
bool`` that is False below a single threshold and True at and above it (a
model without a fixed point, a simulation whose backlog grows).  Loads are in
whatever unit the caller uses (messages/node/cycle, flits/node/cycle,
``mu1``); the function never looks at them other than to halve brackets.

The rule, in order:

1. **Bracket** ``[lo, hi]``.  By default it is trusted: ``lo`` is taken as not
   saturated and ``hi`` as saturated without being probed (a model's
   ``lo = 0`` and a capacity bound ``hi``).  ``check_lo`` / ``check_hi`` probe
   an end first.  With ``expand`` (a factor ``> 1``) an end on the wrong side
   moves geometrically: a saturated ``lo`` becomes ``hi`` and ``lo`` is
   divided by ``expand``; an unsaturated ``hi`` becomes ``lo`` and ``hi`` is
   multiplied by ``expand``; at most ``max_expansions`` times.  ``lo == hi`` is
   allowed with both checks (one starting guess).  A bracket that cannot be made
   (no ``expand``, expansions used up, or ``lo = 0`` saturated) is *not* an
   error: the result has ``outside = "above"`` (not saturated up to ``hi``) or
   ``"below"`` (saturated already at ``lo``) and ``lo == hi == load`` = the
   last end probed.
2. **Bisect** at the arithmetic midpoint ``mid = 0.5 * (lo + hi)`` while
   ``hi - lo > rtol * hi`` and fewer than ``max_steps`` midpoints were probed
   (``rtol = 0`` with ``max_steps = s`` is "exactly ``s`` halvings"); a
   saturated midpoint becomes ``hi``, an unsaturated one ``lo``.  It also
   stops when the midpoint no longer differs from an end in floating point.
3. **Report** :class:`Saturation`: ``load`` = ``0.5 * (lo + hi)`` (the final
   bracket's midpoint), ``lo`` (largest load found not saturated: the
   conservative answer), ``hi`` (smallest found saturated), the number of
   midpoints ``steps``, every call of the predicate ``evaluations`` and the
   ``probes`` in order.  A load is never probed twice.

Everything is deterministic: the same predicate and arguments give the same
probes.  Invalid arguments raise :class:`~models.core.errors.ParameterError`
(a ``ValueError``).

:func:`saturation_of` is the thin convenience for anything with a
``.saturated`` flag: ``saturation_of(lambda x: solve(x, **kw), 0.0, hi)``
(a model) or ``saturation_of(lambda r: simulate(rate=r, **cfg), 0.0, hi,
rtol=0, max_steps=8)`` (a simulator).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

from .errors import ParameterError
from .results import Result

__all__ = ["Saturation", "find_saturation", "saturation_of", "load_grid"]


@dataclasses.dataclass(frozen=True, repr=False)
class Saturation(Result):
    """Outcome of :func:`find_saturation` (loads in the caller's unit).

    load : float
        Midpoint ``0.5 * (lo + hi)`` of the final bracket, the estimate of the
        saturation load (equal to ``lo`` and ``hi`` when ``outside`` is set).
    lo : float
        Largest load found (or given as) not saturated.
    hi : float
        Smallest load found (or given as) saturated.
    steps : int
        Midpoints probed by the bisection.
    evaluations : int
        Calls of the predicate (end checks, expansions and midpoints).
    outside : str
        ``""`` when ``[lo, hi]`` brackets the threshold; ``"above"`` when no
        saturated load was found up to ``hi`` (the threshold is above);
        ``"below"`` when even ``lo`` is saturated.
    rtol : float
        Relative width ``(hi - lo) / hi`` asked for.
    max_steps : int or None
        Cap on ``steps`` asked for.
    probes : tuple of (load, saturated)
        Every predicate call, in order.
    """

    load: float
    lo: float
    hi: float
    steps: int
    evaluations: int
    outside: str
    rtol: float
    max_steps: int | None
    probes: tuple

    @property
    def bracketed(self) -> bool:
        """True when ``lo < threshold <= hi`` was established (``outside == ""``)."""
        return self.outside == ""

    @property
    def width(self) -> float:
        """Relative width ``(hi - lo) / hi`` of the final bracket (0 when ``hi`` is 0)."""
        return (self.hi - self.lo) / self.hi if self.hi > 0 else 0.0


def _check_load(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise ParameterError(f"`{name}` must be a finite load >= 0; got {value!r}")
    v = float(value)
    if not math.isfinite(v) or v < 0:
        raise ParameterError(f"`{name}` must be a finite load >= 0; got {value!r}")
    return v


def _check_count(name: str, value, allow_none: bool) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) and not (
        hasattr(value, "__index__")
    ):
        raise ParameterError(f"`{name}` must be an integer >= 0{' or None' if allow_none else ''}; got {value!r}")
    v = int(value)
    if v < 0:
        raise ParameterError(f"`{name}` must be an integer >= 0{' or None' if allow_none else ''}; got {value!r}")
    return v


def find_saturation(
    is_saturated: Callable[[float], Any],
    lo: float,
    hi: float,
    *,
    rtol: float = 1e-4,
    max_steps: int | None = None,
    check_lo: bool = False,
    check_hi: bool = False,
    expand: float | None = None,
    max_expansions: int = 40,
) -> Saturation:
    """Bisect for the load at which ``is_saturated`` turns True (the module docstring gives the rule).

    Parameters
    ----------
    is_saturated : callable
        ``load -> bool`` (anything truthy), False below one threshold and True
        from it on.  Called once per distinct load.
    lo, hi : float
        Initial bracket, ``0 <= lo <= hi``, ``hi > 0`` (same unit as the
        loads the predicate takes).  ``lo == hi`` (one starting guess) needs
        ``check_lo`` and ``check_hi``.
    rtol : float
        Stop when ``hi - lo <= rtol * hi`` (``>= 0``; ``0`` needs ``max_steps``).
    max_steps : int, optional
        Stop after this many midpoints (``None``: no cap).
    check_lo, check_hi : bool
        Probe ``lo`` (``hi``) before bisecting instead of trusting it.
    expand : float, optional
        Factor ``> 1`` by which a checked end on the wrong side moves outward.
    max_expansions : int
        Most expansion probes.

    Returns
    -------
    Saturation

    Raises
    ------
    ParameterError
        For an invalid argument (the predicate's own exceptions propagate).
    """
    if not callable(is_saturated):
        raise ParameterError(f"`is_saturated` must be callable (load -> bool); got {is_saturated!r}")
    lo = _check_load("lo", lo)
    hi = _check_load("hi", hi)
    if lo > hi:
        raise ParameterError(f"`lo` must be <= `hi`; got lo={lo!r}, hi={hi!r}")
    if hi == 0.0:
        raise ParameterError("`hi` must be > 0 (a load)")
    if lo == hi and not (check_lo is True and check_hi is True):
        raise ParameterError("`lo == hi` (one starting load) needs `check_lo=True` and `check_hi=True` (and `expand`)")
    if isinstance(rtol, bool) or not isinstance(rtol, (int, float)) or not math.isfinite(rtol) or not 0 <= rtol < 1:
        raise ParameterError(f"`rtol` must be in [0, 1) (relative bracket width); got {rtol!r}")
    max_steps = _check_count("max_steps", max_steps, allow_none=True)
    max_expansions = _check_count("max_expansions", max_expansions, allow_none=False)
    if rtol == 0 and max_steps is None:
        raise ParameterError("`rtol = 0` needs `max_steps` (otherwise the bisection runs to the last bit)")
    if expand is not None:
        if isinstance(expand, bool) or not isinstance(expand, (int, float)) or not math.isfinite(expand) or expand <= 1:
            raise ParameterError(f"`expand` must be a finite factor > 1 or None; got {expand!r}")
        expand = float(expand)
    for name, flag in (("check_lo", check_lo), ("check_hi", check_hi)):
        if not isinstance(flag, bool):
            raise ParameterError(f"`{name}` must be True or False; got {flag!r}")

    seen: dict[float, bool] = {}
    probes: list[tuple[float, bool]] = []

    def probe(x: float) -> bool:
        if x in seen:
            return seen[x]
        verdict = bool(is_saturated(x))
        seen[x] = verdict
        probes.append((x, verdict))
        return verdict

    def done(lo_, hi_, steps_, outside=""):
        load = lo_ if outside else 0.5 * (lo_ + hi_)
        return Saturation(load=load, lo=lo_, hi=hi_, steps=steps_, evaluations=len(probes), outside=outside,
                          rtol=float(rtol), max_steps=max_steps, probes=tuple(probes))

    # 1. bracket
    expansions = 0
    if check_lo and probe(lo):
        while True:
            if expand is None or expansions >= max_expansions or lo == 0.0:
                return done(lo, lo, 0, "below")
            hi, lo = lo, lo / expand
            expansions += 1
            if not probe(lo):
                break
    elif check_hi and not probe(hi):
        while True:
            if expand is None or expansions >= max_expansions:
                return done(hi, hi, 0, "above")
            lo, hi = hi, hi * expand
            expansions += 1
            if probe(hi):
                break

    # 2. bisect
    steps = 0
    while hi - lo > rtol * hi and (max_steps is None or steps < max_steps):
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            break  # floating-point resolution reached
        steps += 1
        if probe(mid):
            hi = mid
        else:
            lo = mid
    return done(lo, hi, steps)


def saturation_of(solve: Callable[[float], Any], lo: float, hi: float, **kwargs) -> Saturation:
    """:func:`find_saturation` with ``is_saturated(load) = solve(load).saturated``.

    ``solve`` is a model solver or a simulator at one load (anything whose
    result has a boolean ``saturated``); ``kwargs`` are those of
    :func:`find_saturation`.
    """
    if not callable(solve):
        raise ParameterError(f"`solve` must be callable (load -> result with .saturated); got {solve!r}")
    return find_saturation(lambda x: bool(solve(x).saturated), lo, hi, **kwargs)


def load_grid(saturation: float, points: int, upto: float = 0.9, *, integer: bool = False) -> list:
    """``points`` loads ``upto * saturation * i / points``, ``i = 1..points``: evenly up to ``upto`` of a saturation load.

    With ``integer`` (populations of a closed system) the loads are rounded to
    integers >= 1, each kept once, in increasing order.  The grid of ``python
    -m models.<chapter> curve --points`` and of the chapters' ``compare``.
    """
    grid = [upto * saturation * i / points for i in range(1, points + 1)]
    if integer:
        grid = sorted({max(1, int(round(x))) for x in grid})
    return grid
