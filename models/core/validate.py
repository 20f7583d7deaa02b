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


def require_choice(name: str, value: Any, choices: Iterable[Any], *, unit: str = "") -> Any:
    """Check that ``value`` is one of ``choices``."""
    choices = list(choices)
    if value not in choices:
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
