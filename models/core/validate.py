"""Parameter validation that fails at the door with a message a reader can act on.

Every check raises :class:`models.core.errors.ParameterError` (a
``ValueError``) whose message names the parameter, the value received, the
allowed range and the unit, e.g.::

    `k` must be an integer >= 2 (switch radix, ports); got 1

"""

from __future__ import annotations

import math
import numbers
from typing import Any, Iterable

import numpy as np

from .errors import ParameterError


def _fmt_range(lo, hi, lo_open, hi_open) -> str:
    parts = []
    if lo is not None:
        parts.append(f"{'>' if lo_open else '>='} {lo}")
    if hi is not None:
        parts.append(f"{'<' if hi_open else '<='} {hi}")
    return " and ".join(parts) if parts else "finite"


def require(
    name: str,
    value: Any,
    lo: float | None = None,
    hi: float | None = None,
    *,
    unit: str = "",
    integer: bool = False,
    lo_open: bool = False,
    hi_open: bool = False,
) -> Any:
    """Check that ``value`` is a finite real (or integer) in the given range.

    Parameters
    ----------
    name : str
        Parameter name as the user spells it.
    value : number
        The value to check.
    lo, hi : float, optional
        Bounds; ``None`` means unbounded.
    unit : str
        Meaning and unit shown in the message, e.g. ``"message length, flits"``.
    integer : bool
        Require an integral value (``bool`` is rejected).
    lo_open, hi_open : bool
        Make the corresponding bound strict.

    Returns
    -------
    The value (``int`` if ``integer``), so that calls can be chained.
    """
    kind = "an integer" if integer else "a finite number"
    where = f" ({unit})" if unit else ""
    rng = _fmt_range(lo, hi, lo_open, hi_open)
    msg = f"`{name}` must be {kind} {rng}{where}; got {value!r}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise ParameterError(msg)
    if integer:
        if isinstance(value, numbers.Integral):
            value = int(value)
        elif float(value).is_integer():
            value = int(value)
        else:
            raise ParameterError(msg)
    elif not math.isfinite(float(value)):
        raise ParameterError(msg)
    if lo is not None and (value < lo or (lo_open and value == lo)):
        raise ParameterError(msg)
    if hi is not None and (value > hi or (hi_open and value == hi)):
        raise ParameterError(msg)
    return value


def _same_choice(value: Any, choice: Any) -> bool:
    """``value == choice`` as a plain bool (an array, or an object whose ``==`` fails, is no choice)."""
    if isinstance(value, np.ndarray):
        return False
    try:
        same = value == choice
    except Exception:  # noqa: BLE001 - an object that cannot be compared is not one of the choices
        return False
    return same is True or (isinstance(same, (bool, np.bool_)) and bool(same))


def require_choice(name: str, value: Any, choices: Iterable[Any], *, unit: str = "") -> Any:
    """Check that ``value`` is one of ``choices``."""
    choices = list(choices)
    if not any(_same_choice(value, c) for c in choices):
        where = f" ({unit})" if unit else ""
        raise ParameterError(
            f"`{name}` must be one of {', '.join(repr(c) for c in choices)}{where}; got {value!r}"
        )
    return value


def require_positive_array(name: str, values: Any, *, unit: str = "", strict: bool = True) -> np.ndarray:
    """Check a 1-D array of finite, positive (or non-negative) numbers; return it as float array."""
    arr = np.asarray(values, dtype=float)
    where = f" ({unit})" if unit else ""
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"`{name}` must be a non-empty 1-D sequence{where}; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or (np.any(arr <= 0) if strict else np.any(arr < 0)):
        bad = arr[~np.isfinite(arr) | ((arr <= 0) if strict else (arr < 0))][0]
        raise ParameterError(
            f"`{name}` must contain finite numbers {'> 0' if strict else '>= 0'}{where}; got {bad!r}"
        )
    return arr


def require_stochastic_rows(name: str, matrix: Any, *, atol: float = 1e-9) -> np.ndarray:
    """Check a non-negative square matrix whose rows sum to 1; return it as a float array."""
    P = np.asarray(matrix, dtype=float)
    if P.ndim != 2 or P.shape[0] != P.shape[1]:
        raise ParameterError(f"`{name}` must be a square matrix; got shape {P.shape}")
    if not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ParameterError(f"`{name}` must have finite, non-negative entries (probabilities)")
    sums = P.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > atol)
    if bad.size:
        i = int(bad[0])
        raise ParameterError(
            f"`{name}` rows must sum to 1 (reference probabilities); row {i} sums to {sums[i]:.6g}"
        )
    return P


# ----------------------------------------------------------------------------
# Sane ranges (issue #15): sizes and values beyond them are rejected at the door
# ----------------------------------------------------------------------------
#: Largest radix (nodes per dimension of a torus or mesh, ports of a switch).
MAX_RADIX = 1024
#: Most dimensions of a torus.
MAX_DIMENSIONS = 16
#: Most nodes of a network (product of the radices).
MAX_NODES = 1 << 20
#: Most virtual channels per physical channel.
MAX_VCS = 128
#: Longest message, flits.
MAX_MESSAGE = 1e6
#: Largest rate (a load in messages/node/cycle, or a switching rate per cycle): far past any saturation.
MAX_RATE = 1e6
#: Smallest positive rate accepted where a rate must be > 0 (per cycle); below it the time scales
#: (1 / rate > 1e12 cycles) are meaningless and the arithmetic loses every digit.
MIN_RATE = 1e-12
#: Smallest relative tolerance of a fixed point or a bisection (a few ulps of a double).
MIN_TOL = 1e-15
#: Most iterations of a fixed point.
MAX_ITER = 10**7


def require_radix(name: str, value: Any, lo: int = 2, *, unit: str = "radix, nodes per dimension") -> int:
    """An integer radix in ``[lo, MAX_RADIX]`` (:data:`MAX_RADIX` = 1024)."""
    return require(name, value, lo, MAX_RADIX, unit=unit, integer=True)


def require_vcs(name: str, value: Any, lo: int = 1, hi: int = MAX_VCS, *,
                unit: str = "virtual channels per physical channel") -> int:
    """An integer number of virtual channels in ``[lo, hi]`` (at most :data:`MAX_VCS` = 128)."""
    return require(name, value, lo, min(hi, MAX_VCS), unit=unit, integer=True)


def require_message_length(name: str, value: Any, lo: float = 1, *, integer: bool = False,
                           unit: str = "message length, flits") -> Any:
    """A message length in ``[lo, MAX_MESSAGE]`` flits (:data:`MAX_MESSAGE` = 1e6)."""
    return require(name, value, lo, MAX_MESSAGE, unit=unit, integer=integer)


def require_rate(name: str, value: Any, *, positive: bool = True, unit: str = "rate, per cycle") -> float:
    """A rate in ``[MIN_RATE, MAX_RATE]`` (``positive``) or ``{0} u [MIN_RATE, MAX_RATE]``.

    :data:`MIN_RATE` = 1e-12 and :data:`MAX_RATE` = 1e6 per cycle: a rate of
    ``1e-300`` or ``1e300`` has no meaning in a network clocked in cycles, and
    the arithmetic of the models (``1/rate``, products of rates) overflows there.
    """
    value = float(require(name, value, 0, MAX_RATE, unit=unit, lo_open=positive))
    if value != 0 and value < MIN_RATE:
        raise ParameterError(
            f"`{name}` must be {'' if positive else '0 or '}>= {MIN_RATE} and <= {MAX_RATE} ({unit}); got {value!r}")
    return value


def require_tol(name: str, value: Any, hi: float = 0.1, *, unit: str = "relative tolerance") -> float:
    """A tolerance in ``[MIN_TOL, hi]`` (:data:`MIN_TOL` = 1e-15)."""
    return float(require(name, value, MIN_TOL, hi, unit=unit))


def require_max_iter(name: str, value: Any, *, unit: str = "iterations") -> int:
    """An iteration budget in ``[1, MAX_ITER]`` (:data:`MAX_ITER` = 1e7)."""
    return require(name, value, 1, MAX_ITER, unit=unit, integer=True)


def require_radices(name: str, values: Any, lo: int = 2, hi: int = MAX_RADIX, *, max_dims: int = MAX_DIMENSIONS,
                    max_nodes: int = MAX_NODES, unit: str = "nodes per dimension") -> tuple:
    """A non-empty sequence of at most ``max_dims`` radices, each in ``[lo, hi]``, with at most
    ``max_nodes`` nodes in all (defaults :data:`MAX_DIMENSIONS`, :data:`MAX_RADIX`, :data:`MAX_NODES`);
    returns a tuple of ints."""
    if (isinstance(values, (str, bytes, dict, numbers.Number)) or values is None
            or (isinstance(values, np.ndarray) and values.ndim == 0)):
        # a bare number is refused like "88": radices=8 is no shorthand for the ring (8,) (review case A4)
        raise ParameterError(f"`{name}` must be a sequence of integer radices ({unit}), one per dimension "
                             f"(a ring of 8 nodes: (8,)); got {_short_repr(values)}")
    try:
        ks = tuple(values)
    except TypeError:
        raise ParameterError(f"`{name}` must be a sequence of integer radices ({unit}); got {_short_repr(values)}") from None
    require(f"len({name})", len(ks), 1, min(max_dims, MAX_DIMENSIONS), unit="number of dimensions", integer=True)
    ks = tuple(require(f"{name}[{i}]", k, lo, min(hi, MAX_RADIX), unit=unit, integer=True) for i, k in enumerate(ks))
    require(f"prod({name})", math.prod(ks), 1, min(max_nodes, MAX_NODES), unit="nodes of the network", integer=True)
    return ks


#: Most points of a curve.
MAX_POINTS = 10_000


def _short_repr(value: Any, limit: int = 200) -> str:
    """``repr(value)``, cut to ``limit`` characters (with its shape or length when it is long)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    shape = getattr(value, "shape", None)
    size = f"shape {tuple(shape)}" if shape is not None else (f"length {len(value)}" if hasattr(value, "__len__") else "")
    return f"{text[:limit]}... ({size or f'{len(text)} characters'})"


def require_loads(name: str, values: Any, check, *, unit: str = "") -> list:
    """A non-empty 1-D sequence of at most :data:`MAX_POINTS` loads, each passed through ``check(value)``.

    ``check`` validates one load (and names it); the sequence itself must not
    be a string, a mapping, ``None``, a scalar, or nested.
    """
    where = f" ({unit})" if unit else ""
    if isinstance(values, (str, bytes, dict)) or values is None:
        raise ParameterError(f"`{name}` must be a non-empty 1-D sequence of loads{where}; got {values!r}")
    try:
        items = list(np.asarray(values, dtype=object).reshape(-1)) if np.ndim(values) <= 1 else None
    except (TypeError, ValueError):
        items = None
    if items is None or np.ndim(values) != 1 or not 1 <= len(items) <= MAX_POINTS:
        # the length, not the list: 20,000 loads would print half a megabyte (review case C11)
        got = f"{len(items)} loads" if items is not None and np.ndim(values) == 1 else _short_repr(values)
        raise ParameterError(
            f"`{name}` must be a non-empty 1-D sequence of at most {MAX_POINTS} loads{where}; got {got}")
    out = []
    for v in items:
        try:
            out.append(check(v))
        except ParameterError as exc:
            raise ParameterError(f"`{name}`: {exc}") from None
    return out
