"""Virtual-channel occupancy (Dally 1992) and the multiplexing degree, shared by the torus chapters.

The number of busy virtual channels of a physical channel is a birth-death
chain on ``0..V``: up-rate ``lam`` (messages per cycle arriving at the
channel), down-rate ``1/S`` (``S``: mean channel holding time, cycles),
except out of state ``V`` where it is ``1/S - lam`` (notes/papers.md sec. 5;
torus_ipp eqs. 27-28, torus_nbc eq. 20 read with its division bar):

.. math::

    q_0 = 1,\\quad q_v = q_{v-1}\\,\\lambda S\\ (0<v<V),\\quad
    q_V = q_{V-1}\\frac{\\lambda}{1/S-\\lambda},\\quad P_v = q_v / \\sum_l q_l .

With :math:`\\rho=\\lambda S<1` this is exactly
:math:`P_v=(1-\\rho)\\rho^v` for :math:`v<V` and :math:`P_V=\\rho^V`
(the busy-VC count is :math:`\\min(N, V)` for an M/M/1 count :math:`N`),
which is the torus_dor paper's :math:`P_{d_i,j}`.  The multiplexing degree
is :math:`\\bar V=\\sum_v v^2P_v/\\sum_v vP_v`.

:func:`equations` gives both forms in SymPy; :func:`occupancy` and
:func:`multiplexing_degree` are the numeric versions, lambdified from them.
"""

from __future__ import annotations

import functools

import numpy as np

from ..core.symbolic import compiled
from ..core.validate import require


@functools.cache
def _symbols() -> dict:
    import sympy as sp

    lam, S = sp.symbols("lambda_c S", positive=True)
    return {"lam": lam, "S": S, "rho": sp.Symbol("rho", positive=True)}


def __getattr__(name: str):
    """The symbols ``lam``, ``S``, ``rho``, made on first use (SymPy is not imported by the numeric functions)."""
    if name in ("lam", "S", "rho"):
        return _symbols()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def equations(V: int) -> dict:
    """SymPy forms for ``V`` virtual channels.

    Returns
    -------
    dict with ``"chain"`` (list of :math:`P_v` from the chain's balance
    equations), ``"closed"`` (list of the closed forms in ``rho = lam*S``),
    ``"multiplexing"`` (:math:`\\bar V` in terms of ``rho``).
    """
    import sympy as sp

    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    lam, S, rho = (_symbols()[n] for n in ("lam", "S", "rho"))
    q = [sp.Integer(1)]
    for v in range(1, V + 1):
        q.append(q[-1] * (lam * S if v < V else lam / (1 / S - lam)))
    total = sum(q)
    chain = [qv / total for qv in q]  # simplified only where compared (tests), to keep this fast
    closed = [(1 - rho) * rho**v for v in range(V)] + [rho**V]
    num = sum(v**2 * closed[v] for v in range(V + 1))
    den = sum(v * closed[v] for v in range(V + 1))
    return {"chain": chain, "closed": closed, "multiplexing": sp.cancel(num / den)}


def _check(rho_value):
    r = np.asarray(rho_value, dtype=float)
    if r.ndim == 0:  # one utilisation (the torus solvers' inner loop): the same test on a float, without reductions
        x = float(r)
        if not 0.0 <= x < np.inf:
            raise ValueError(f"`rho` (channel utilisation lambda*S) must be finite and >= 0; got {rho_value!r}")
        return r
    if np.any(~np.isfinite(r)) or np.any(r < 0):
        raise ValueError(f"`rho` (channel utilisation lambda*S) must be finite and >= 0; got {rho_value!r}")
    return r


@functools.cache
def _closed(V: int):
    """The lambdified closed forms :math:`P_0..P_V` (kept per ``V``: hashing the expressions costs more than a call)."""
    return compiled("vc_occupancy", functools.partial(_build, V), V)["closed"]


def _build(V: int) -> dict:
    return {"closed": ((_symbols()["rho"],), equations(V)["closed"])}


def occupancy(V: int, rho_value) -> np.ndarray:
    """:math:`P_0..P_V` for utilisation ``rho = lam * S`` (array, last axis ``V+1``).

    ``rho >= 1`` (saturated channel) gives all mass on ``V`` busy VCs.
    """
    r = _check(rho_value)
    f = _closed(V)
    if r.ndim == 0:
        return np.array(f(np.minimum(r, 1.0)), dtype=float)  # a tuple of V + 1 scalars
    out = np.stack(np.broadcast_arrays(*f(np.minimum(r, 1.0))), axis=-1).astype(float)
    return out


def multiplexing_degree(V: int, rho_value) -> np.ndarray | float:
    """:math:`\\bar V = \\sum v^2 P_v / \\sum v P_v` (1 at zero load, ``V`` at saturation)."""
    r = _check(rho_value)
    P = occupancy(V, r)
    v = np.arange(V + 1)
    num = (P * v**2).sum(axis=-1)
    den = (P * v).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0)
    return float(out) if np.ndim(out) == 0 else out
