"""M/G/1 mean waiting time (SymPy first, then numbers).

``mg1_wait``
    Pollaczek-Khinchine mean waiting time of an M/G/1 queue,
    :math:`W = \\lambda \\overline{x^2} / (2(1-\\lambda\\bar x))`, and the
    form the torus papers use, with the service-time variance approximated
    by :math:`(S-M)^2` (a message of ``M`` flits cannot be served in less
    than ``M`` cycles; Draper & Ghosh's approximation):
    :math:`W = \\lambda S^2 (1 + (S-M)^2/S^2) / (2(1-\\lambda S))`.

Saturation (``lambda * S >= 1``) gives ``inf``, never a negative wait.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from types import SimpleNamespace

from ..core.symbolic import lambdify_cached

__all__ = ["SYMBOLS", "equations", "mg1_wait", "mg1_wait_wormhole"]

SYMBOLS = SimpleNamespace(**dict(zip(("lam", "xbar", "x2", "S", "M"), sp.symbols("lambda xbar x2 S M", positive=True))))
"""Symbols of :func:`equations`: arrival rate ``lam``, service mean ``xbar`` and second moment ``x2``,
the torus papers' service time ``S`` and message length ``M``."""
_s = SYMBOLS


@functools.cache
def equations() -> dict:
    """``"pk"``: P-K mean wait from the first two moments; ``"wormhole"``: with variance (S-M)^2."""
    pk = _s.lam * _s.x2 / (2 * (1 - _s.lam * _s.xbar))
    worm = pk.subs({_s.x2: _s.S**2 + (_s.S - _s.M) ** 2, _s.xbar: _s.S})
    return {"pk": sp.Eq(sp.Symbol("W"), pk), "wormhole": sp.Eq(sp.Symbol("W"), sp.simplify(worm))}


def mg1_wait(rate, mean, second_moment):
    """M/G/1 mean wait (cycles) for arrival ``rate`` (per cycle) and service moments; ``inf`` past saturation."""
    rate, mean, second_moment = (np.asarray(a, dtype=float) for a in (rate, mean, second_moment))
    f = lambdify_cached((_s.lam, _s.xbar, _s.x2), equations()["pk"])
    with np.errstate(divide="ignore", invalid="ignore"):
        w = f(rate, mean, second_moment)
    w = np.where(rate * mean < 1.0, w, np.inf)
    return float(w) if w.ndim == 0 else w


def mg1_wait_wormhole(rate, service, length):
    """M/G/1 mean wait with the torus papers' variance ``(S - M)^2`` (cycles); ``inf`` past saturation."""
    rate, service, length = (np.asarray(a, dtype=float) for a in (rate, service, length))
    f = lambdify_cached((_s.lam, _s.S, _s.M), equations()["wormhole"])
    with np.errstate(divide="ignore", invalid="ignore"):
        w = f(rate, service, length)
    w = np.where(rate * service < 1.0, w, np.inf)
    return float(w) if w.ndim == 0 else w
