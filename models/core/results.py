"""Result base class: frozen dataclasses with a short repr, ``to_dict`` and ``to_frame``.

A chapter's solver returns a subclass, for example::

    @dataclass(frozen=True, repr=False)
    class LatencyResult(Result):
        latency: float        # cycles
        iterations: int
        saturated: bool

Conventions (DESIGN.md): saturation is a state (``latency=inf``,
``saturated=True``), never a NaN or negative number; work counters
(``iterations``) are kept so tests can assert them; the parameters are echoed
for provenance.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .errors import ParameterError


def _plain(value: Any) -> Any:
    """Convert numpy and dataclass values to JSON-friendly Python objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


#: Characters per line of a result's repr (a page's code column shows about 90).
REPR_WIDTH = 88


def _short(value: Any, room: int = 70) -> str:
    """``value`` in at most ``room`` characters: floats to 6 significant digits (inside a dict too), large
    arrays and sequences by their shape, anything longer cut with ``...``."""
    if isinstance(value, float):
        return f"{value:.6g}" if math.isfinite(value) else str(value)
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return np.array2string(value, precision=4, separator=", ")
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, (list, tuple)) and len(value) > 6:
        return f"{type(value).__name__}(len={len(value)})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}(...)"
    if isinstance(value, dict):
        text = "{" + ", ".join(f"{k!r}: {_short(v, room)}" for k, v in value.items()) + "}"
    else:
        text = repr(value)
    return text if len(text) <= room else text[: max(room - 3, 1)] + "..."


@dataclasses.dataclass(frozen=True, repr=False)
class Result:
    """Base class for solver and simulator results (frozen dataclass)."""

    def __repr__(self) -> str:
        fields = dataclasses.fields(self)
        if not fields:
            return f"{type(self).__name__}()"
        width = max(len(f.name) for f in fields)
        room = max(20, REPR_WIDTH - width - 5)  # "  <name> = <value>" within REPR_WIDTH
        lines = [f"{type(self).__name__}("]
        for f in fields:
            lines.append(f"  {f.name:>{width}} = {_short(getattr(self, f.name), room)}")
        lines.append(")")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """All fields as plain Python objects (JSON-serialisable)."""
        return _plain(self)

    def to_frame(self):
        """Scalar fields as a one-row :class:`pandas.DataFrame`."""
        import pandas as pd

        row = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if np.isscalar(getattr(self, f.name)) or getattr(self, f.name) is None
        }
        return pd.DataFrame([row])


@dataclasses.dataclass(frozen=True, repr=False)
class SimPoint(Result):
    """One simulated load, as every chapter's ``experiments.simulate_curve`` returns it.

    The one type of a simulated point from the simulator's sweep to the
    tables and plots (:func:`models.core.experiment.run_curve` and
    :func:`models.core.compare.compare` turn a list of them into a frame whose
    columns are :meth:`record`'s keys: ``latency``, ``ci_column("latency")``
    = ``"latency CI"``, ``saturated`` and the extras).

    latency : float
        Mean message latency (or response time), cycles; ``inf`` when the
        simulation is saturated.
    latency_ci : float
        Half width of its 95 % confidence interval (batch means), cycles; NaN
        when there is none (a saturated run).
    saturated : bool
        The simulator's saturation verdict.
    extra : mapping of str
        Further measured quantities of the chapter (``"network latency"``,
        ``"multiplexing"``, ``"X"`` ...), each a number, and anything a
        chapter's own tables need of the run (``"result"``: the simulator's
        whole result); they become columns of :func:`~models.core.experiment.run_curve`'s
        frame (:func:`~models.core.compare.compare` keeps the numbers only).
    """

    latency: float
    latency_ci: float = math.nan
    saturated: bool = False
    extra: Any = dataclasses.field(default_factory=dict)

    #: The fields (an extra may not reuse their names, nor their columns' names).
    FIELDS = ("latency", "latency_ci", "saturated")

    def __post_init__(self):
        numbers = (int, float, np.integer, np.floating)
        if not all(isinstance(v, numbers) and not isinstance(v, (bool, np.bool_))
                   for v in (self.latency, self.latency_ci)):
            raise ParameterError(f"a SimPoint's latency and latency_ci must be numbers; got {self.latency!r}, "
                                 f"{self.latency_ci!r}")
        latency, ci = float(self.latency), float(self.latency_ci)
        if isinstance(self.saturated, (bool, np.bool_)):
            saturated = bool(self.saturated)
        else:
            raise ParameterError(f"a SimPoint's `saturated` must be True or False; got {self.saturated!r}")
        if math.isnan(latency) or latency < 0:
            raise ParameterError(f"a SimPoint's latency must be >= 0 or inf; got {latency!r}")
        extra = dict(self.extra or {})
        clash = sorted(set(extra) & {*self.FIELDS, ci_column("latency")})
        if clash:
            raise ParameterError(f"a SimPoint's extras may not be named {clash}: they are fields")
        object.__setattr__(self, "latency", latency)
        object.__setattr__(self, "latency_ci", ci)
        object.__setattr__(self, "saturated", saturated)
        object.__setattr__(self, "extra", extra)

    def record(self) -> dict:
        """The point as one row of a frame: ``latency``, its :func:`ci_column`, ``saturated`` and the extras."""
        return {"latency": self.latency, ci_column("latency"): self.latency_ci, "saturated": self.saturated,
                **self.extra}


def ci_column(quantity: str) -> str:
    """The frame column of the 95 % half width of ``quantity`` (``"latency"`` -> ``"latency CI"``): how every
    table and plot names a simulated quantity's interval, written once."""
    return f"{quantity} CI"
