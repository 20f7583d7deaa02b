"""Numerics of the PLACEHOLDER model: mean latency of one M/D/1 channel (cycles).

Built from :mod:`.equations` through :func:`models.core.symbolic.compiled`
(the generated code is kept on disk, so a warm start imports no SymPy).
Replace with the paper's model; keep the front door's shape.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ParameterError
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import require, require_loads, require_tol
from .setups import Params

__all__ = ["LOAD", "LOAD_UNIT", "ChapterTemplateResult", "CurveResult", "solve", "solve_curve", "saturation_load"]

#: Name of the load parameter and its unit.
LOAD = "rate"
LOAD_UNIT = "messages/node/cycle"


def _build() -> dict:
    # SymPy only when the generated code is not on disk yet; the submodule (the package re-exports the function)
    eqs = importlib.import_module(__package__ + ".equations")
    e = eqs.equations()
    s = eqs.SYMBOLS
    latency = e["eq:1"].rhs.subs(s["W"], e["eq:2"].rhs)
    return {"latency": ((s["lam"], s["M"]), latency)}


def _f() -> dict:
    return compiled("chapter_template:latency", _build)


def _check_rate(rate) -> float:
    return require("rate", rate, 0, unit="messages/node/cycle")


@dataclass(frozen=True, repr=False)
class ChapterTemplateResult(Result):
    """The model at one rate (cycles): ``latency`` (eq. 1; ``inf`` when saturated), ``wait`` (eq. 2),
    ``utilisation`` (``lam M``), ``iterations`` (0: closed form), ``saturated``, ``params``."""

    latency: float
    wait: float
    utilisation: float
    iterations: int
    saturated: bool
    params: dict = field(default_factory=dict)


@dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` at every rate of ``loads`` (arrays indexed like ``loads``)."""

    loads: np.ndarray
    latency: np.ndarray
    saturated: np.ndarray
    saturation_load: float
    params: dict
    results: tuple = ()


def solve(rate, /, *, M: int = 32) -> ChapterTemplateResult:
    """Mean message latency (cycles) at ``rate`` messages/node/cycle, messages of ``M`` flits."""
    rate = _check_rate(rate)
    p = Params(M=M)
    rho = rate * p.M
    params = {"rate": rate, "M": p.M}
    if rho >= 1.0:
        return ChapterTemplateResult(latency=math.inf, wait=math.inf, utilisation=rho, iterations=0,
                                     saturated=True, params=params)
    latency = float(_f()["latency"](rate, p.M))
    return ChapterTemplateResult(latency=latency, wait=latency - p.M, utilisation=rho, iterations=0,
                                 saturated=False, params=params)


def saturation_load(*, M: int = 32, rtol: float = 1e-6) -> float:
    """The largest rate at which :func:`solve` is not saturated (``1/M``, by the package's one bisection)."""
    p = Params(M=M)
    rtol = require_tol("rtol", rtol, 0.1, unit="relative precision")
    return find_saturation(lambda r: solve(r, M=p.M).saturated, 0.0, 2.0 / p.M, rtol=rtol).lo


def solve_curve(rates, /, *, M: int = 32, saturation: bool = True) -> CurveResult:
    """:func:`solve` at every rate of ``rates`` (messages/node/cycle), and the saturation rate."""
    rates = np.asarray(require_loads("rates", rates, _check_rate, unit="messages/node/cycle"), dtype=float)
    if not isinstance(saturation, bool):
        raise ParameterError(f"`saturation` must be True or False; got {saturation!r}")
    p = Params(M=M)
    res = tuple(solve(float(r), M=p.M) for r in rates)
    return CurveResult(loads=rates, latency=np.array([r.latency for r in res], dtype=float),
                       saturated=np.array([r.saturated for r in res], dtype=bool),
                       saturation_load=saturation_load(M=p.M) if saturation else math.nan, params={"M": p.M},
                       results=res)
