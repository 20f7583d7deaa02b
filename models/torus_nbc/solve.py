"""Numeric solver of the Duato-Nbc latency model (Safaei et al. 2007, eqs. (1)-(21)).

All formulas are the SymPy expressions of :mod:`.equations`, lambdified once
and kept on disk (:func:`models.core.symbolic.compiled`).  The sums are
NumPy loops around lambdified summands:

* eqs. (12), (14), (15): each class's blocking probability at a hop with
  ``Delta`` hops to go is linear in the busy-VC distribution ``P_v``,
  :math:`P_{block,i}(\\Delta)=\\sum_v C_i[\\Delta,v]P_v`.  The coefficient
  matrices ``C_i`` (weights of eqs. (13), (16) times the all-busy factor, summed
  over the escape level ``l``, with the limits of the SymPy sums) are built
  once per ``(k, V, V2)`` from the lambdified summands.
* eq. (5): :math:`\\sum_{h=1}^{|H|}B_h` for a message that still has
  ``Delta = |H| - h + 1`` hops to go at hop ``h`` (this one included) is a
  cumulative sum over ``Delta = 1..|H|``.
* eq. (17): the ``N - 1`` destinations of node ``(0, 0)`` are enumerated one
  by one (offsets ``(x, y) != (0, 0)``, ``|H| = min(x, k-x) + min(y, k-y)``);
  the channel service time (``eq:18_S``) is their ``|H|``-weighted mean.

Shared pieces, not written here: :math:`\\varphi_h` from
:func:`models.networks.adaptive_paths.phi` (eqs. 8-10), the busy-VC distribution and the
multiplexing degree from :mod:`models.queueing.vc_occupancy` (eqs. 20-21).

Reading of :math:`\\varphi_h` for paths of any length (the paper's eqs. (8)-(10)
are written for a message of exactly ``d = 2 kbar`` hops, hop index ``h``):
a hop with ``Delta`` hops to go is treated as the hop made after
``max(d - Delta, 0)`` hops of such a message, so the last hop of every path
has one dimension left (:math:`\\varphi=1`) and a hop more than ``d`` hops
from the destination has both (:math:`\\varphi=2`).  For ``|H| = d`` this is
eqs. (8)-(10) exactly.

Fixed point: the channel service time :math:`\\bar S_c` is iterated,
:math:`\\bar S_c \\to W_c, P_v \\to P_{block}(\\Delta) \\to S_H \\to \\bar S_c`, starting
from the zero-load value, by :func:`models.core.fixed_point.fixed_point`
(plain iteration, change relative to the previous iterate).  The map is
increasing in :math:`\\bar S_c`, so the plain iteration rises monotonically
to the smallest fixed point, or past the pole :math:`\\lambda_c\\bar S_c\\ge1`
(saturation: the map raises :class:`~models.core.fixed_point.Saturated`).
The saturation rate is found by :func:`models.core.saturation.find_saturation`,
each probe answered early when an :math:`S` with :math:`S'\\le S` proves the
fixed point exists (:func:`models.core.fixed_point.monotone_fixed_point_exists`;
the same answer as the full iteration).  :func:`solve_curve` iterates every
rate at once on arrays (:func:`models.core.fixed_point.fixed_points`, each row
exactly as :func:`solve` iterates it).

Front door (the contract of :mod:`models`): ``solve(rate, /, *, k, M, ...)``
-> :class:`TorusNbcResult`, ``solve_curve(rates, /, *, k, M, ...)`` ->
:class:`CurveResult`, ``saturation_load(*, k, M, ..., rtol)``.

Units: cycles, flits, messages/node/cycle (``rate``), messages/channel/cycle
(``channel_rate``).
"""

from __future__ import annotations

import functools
import math
import sys as _sys
from dataclasses import dataclass, field

import numpy as np

from ..core.fixed_point import FixedPoint, Saturated, fixed_point, fixed_points, monotone_fixed_point_exists
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import require_loads, require_max_iter, require_tol
from ..networks.adaptive_paths import phi as _phi_ok
from ..queueing.vc_occupancy import multiplexing_degree, occupancy
from .params import NbcParams, check_rate

__all__ = ["TorusNbcResult", "CurveResult", "solve", "solve_curve", "saturation_load", "destinations",
           "hop_tables"]


# ----------------------------------------------------------------------------
# Lambdified equations (built once per process)
# ----------------------------------------------------------------------------
def _build() -> dict:
    import sympy as sp

    import importlib

    E = importlib.import_module(__package__ + ".equations")  # the submodule (the package re-exports the function)
    s = E.SYMBOLS
    nf = E.numeric_forms()
    eq = E.equations()
    Pv = sp.Symbol("P_v", nonnegative=True)
    f = {
        "kbar": ((s.k,), nf["kbar"]),
        "d": ((s.kbar,), nf["d"]),
        "lam_c": ((s.lam_g, s.d), nf["lam_c"]),
        "S_H": ((s.M, s.H, s.sum_B), nf["S_H"]),
        "B": ((s.Pblock, s.W_c), nf["B"]),
        "P_block": ((s.Pb1, s.Pb2, s.Pb3, s.phi), nf["P_block"]),
        "P_v0": ((s.V1, s.V2, s.Delta), nf["P_v0"], "math"),
        "P_vl": ((s.V1, s.V2, s.Delta), nf["P_vl"], "math"),
        "S": ((s.sum_S, s.N), nf["S"]),
        "S_c": ((s.sum_HS, s.sum_Hn), nf["S_c"]),
        "W_c": ((s.lam_c, s.S_c, s.M), nf["W_c"]),
        "W_s": ((s.lam_g, s.V, s.S, s.M), nf["W_s"]),
        **{f"W_c_{var}": ((s.lam_c, s.S_c, s.M), nf[f"W_c_{var}"]) for var in ("zero", "exponential")},
        **{f"W_s_{var}": ((s.lam_g, s.V, s.S, s.M), nf[f"W_s_{var}"]) for var in ("zero", "exponential")},
        "latency": ((s.S, s.W_s, s.Vbar), nf["latency"]),
        "A1": ((E.V1, E.V2, E.Delta), nf["A1"], "math"),
    }
    # eqs. (12), (14), (15): summands (P[v] -> P_v) and summation limits
    for key, name in (("eq:12", "c1"), ("eq:14", "c2"), ("eq:15", "c3")):
        total = eq[key].rhs
        summand = total.function.subs(s.P[s.v], Pv)
        weight = s.P_v0 if key == "eq:12" else s.P_vl
        args = (weight, Pv, s.V, s.V1, s.V2, s.Delta, s.l, s.v)
        f[name + ":summand"] = (args, summand, "math")
        f[name + ":v_lo"] = ((s.V1, s.V2, s.Delta, s.l), total.limits[0][1], "math")
        f[name + ":v_hi"] = ((s.V,), total.limits[0][2], "math")
        if len(total.limits) > 1:
            f[name + ":l_lo"] = ((s.V2, s.Delta), total.limits[1][1], "math")
            f[name + ":l_hi"] = ((s.V2, s.Delta), total.limits[1][2], "math")
    return f


@functools.cache
def _f() -> dict:
    """The lambdified equations, from disk when generated before (no SymPy then)."""
    g = compiled("torus_nbc", _build)
    f = {k: v for k, v in g.items() if ":" not in k}
    for name in ("c1", "c2", "c3"):
        f[name] = dict(
            summand=g[name + ":summand"], v_lo=g[name + ":v_lo"], v_hi=g[name + ":v_hi"],
            l_lim=(g[name + ":l_lo"], g[name + ":l_hi"]) if name + ":l_lo" in g else None,
            weight="P_v0" if name == "c1" else "P_vl",
        )
    return f


# ----------------------------------------------------------------------------
# Tables that depend only on the network and the VC split
# ----------------------------------------------------------------------------
@functools.cache
def destinations(k: int) -> np.ndarray:
    """Hops ``|H|`` (eq. 6) from node ``(0, 0)`` to each of the ``N - 1`` other nodes of the ``k x k`` torus.

    Destinations in row-major order of their offsets ``(x, y) != (0, 0)``;
    ``h_x = min(x, k - x)`` (eq. 4, the shorter way round), ``|H| = h_x + h_y``.
    """
    x = np.arange(k)
    hx = np.minimum(x, k - x)
    H = (hx[None, :] + hx[:, None]).ravel()[1:]
    H.setflags(write=False)
    return H


@functools.cache
def _coefficients(V: int, V1: int, V2: int, D: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``C_i[Delta-1, v]`` of eqs. (12), (14), (15) for ``Delta = 1..D``, ``v = 0..V`` (summands at ``P_v = 1``)."""
    f = _f()
    out = []
    for name in ("c1", "c2", "c3"):
        spec = f[name]
        C = np.zeros((D, V + 1))
        for delta in range(1, D + 1):
            w = f[spec["weight"]](V1, V2, delta)
            levels = [None] if spec["l_lim"] is None else range(
                int(spec["l_lim"][0](V2, delta)), int(spec["l_lim"][1](V2, delta)) + 1)
            for lev in levels:
                lv = 0 if lev is None else lev
                lo = int(spec["v_lo"](V1, V2, delta, lv))
                for v in range(max(lo, 0), int(spec["v_hi"](V)) + 1):
                    C[delta - 1, v] += spec["summand"](w, 1.0, V, V1, V2, delta, lv, v)
        C.setflags(write=False)
        out.append(C)
    return tuple(out)


@functools.cache
def _phi_by_remaining(k: int, D: int) -> np.ndarray:
    """:math:`\\varphi` for ``Delta = 1..D`` hops to go (eqs. 8-10 via :func:`models.networks.adaptive_paths.phi`)."""
    f = _f()
    kbar = int(f["kbar"](k))
    d = int(f["d"](kbar))
    out = np.array([float(_phi_ok(max(d - delta, 0), 2, kbar)) for delta in range(1, D + 1)])
    out.setflags(write=False)
    return out


def hop_tables(k: int, V: int = 10, escape_levels: int | None = None) -> dict:
    """The load-independent tables of the model (for inspection and the derivation page).

    Returns ``{"Delta": 1..D, "phi": phi(Delta), "C1", "C2", "C3": coefficient
    matrices (D, V+1), "A1": usable VCs of class 1 by Delta, "H": hops per destination}``.
    """
    p = NbcParams(k, 1, V, escape_levels)
    D = p.diameter
    C1, C2, C3 = _coefficients(p.V, p.V1, p.V2, D)
    a1 = _f()["A1"]
    return {"Delta": np.arange(1, D + 1), "phi": _phi_by_remaining(p.k, D), "C1": C1, "C2": C2, "C3": C3,
            "A1": np.array([int(a1(p.V1, p.V2, dd)) for dd in range(1, D + 1)]), "H": destinations(p.k)}


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class TorusNbcResult(Result):
    """Model solution at one generation rate (cycles unless stated).

    Attributes
    ----------
    latency : float
        Mean message latency, eq. (1); ``inf`` when saturated.
    network_latency : float
        :math:`\\bar S`, eq. (17): mean of :math:`S_H` over the ``N - 1`` destinations.
    source_wait : float
        :math:`W_s`, eq. (19).
    channel_service : float
        :math:`\\bar S_c`, the ``|H|``-weighted mean of :math:`S_H` (``eq:18_S``).
    channel_wait : float
        :math:`W_c`, eq. (18).
    multiplexing : float
        :math:`\\bar V`, eq. (21) (dimensionless, 1..V).
    channel_rate : float
        :math:`\\lambda_c`, eq. (3), messages/channel/cycle.
    utilisation : float
        :math:`\\lambda_c\\bar S_c` (dimensionless).
    blocking : ndarray
        :math:`P_{block}` for ``Delta = 1..k`` hops to go, eq. (11).
    phi : ndarray
        :math:`\\varphi` for ``Delta = 1..k``.
    latency_by_hops : ndarray
        :math:`S_H` for ``|H| = 1..k`` (eq. 5).
    destinations_by_hops : ndarray
        Number of destinations at ``|H| = 1..k`` hops (sums to ``N - 1``).
    busy_vcs : ndarray
        :math:`P_v`, ``v = 0..V`` (eq. 20).
    iterations, residual, converged, saturated
        Fixed-point work counter, last relative change of :math:`\\bar S_c`, flags.
    params : dict
        The inputs (``rate``, ``k``, ``M``, ``V``, ``escape_levels``, ``mean_distance``, ``variance``).
    """

    latency: float
    network_latency: float
    source_wait: float
    channel_service: float
    channel_wait: float
    multiplexing: float
    channel_rate: float
    utilisation: float
    blocking: np.ndarray
    phi: np.ndarray
    latency_by_hops: np.ndarray
    destinations_by_hops: np.ndarray
    busy_vcs: np.ndarray
    iterations: int
    residual: float
    converged: bool
    saturated: bool
    params: dict = field(default_factory=dict)


@dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` over a sequence of rates (arrays indexed like ``loads``; cycles).

    loads : rates :math:`\\lambda_g`, messages/node/cycle; ``latency``,
    ``network_latency``, ``source_wait``, ``channel_wait``, ``multiplexing``,
    ``saturated``, ``iterations``: the fields of :class:`TorusNbcResult` at
    each rate; ``saturation_load``: :func:`saturation_load` (NaN when not
    asked for); ``results``: the :class:`TorusNbcResult` objects.
    """

    loads: np.ndarray
    latency: np.ndarray
    network_latency: np.ndarray
    source_wait: np.ndarray
    channel_wait: np.ndarray
    multiplexing: np.ndarray
    saturated: np.ndarray
    iterations: np.ndarray
    saturation_load: float
    params: dict
    results: tuple = ()

    def to_frame(self):
        import pandas as pd  # optional here: only this method needs it

        return pd.DataFrame({
            "rate": self.loads, "latency": self.latency, "network latency": self.network_latency,
            "source wait": self.source_wait, "channel wait": self.channel_wait,
            "multiplexing": self.multiplexing, "saturated": self.saturated, "iterations": self.iterations,
        })


# ----------------------------------------------------------------------------
# Solver
# ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Prepared:
    p: NbcParams
    H: np.ndarray
    D: int
    C1: np.ndarray
    C2: np.ndarray
    C3: np.ndarray
    phi: np.ndarray
    d: float
    lam_per_rate: float
    H_sum: float = 0.0  # float(H.sum()), the denominator of eq:18_S
    W_c: str = "W_c"    # the lambdified waits of eqs. (18)-(19) for the parameters' service-time variance
    W_s: str = "W_s"


@functools.lru_cache(maxsize=64)
def _prepare(p: NbcParams) -> _Prepared:
    f = _f()
    H = destinations(p.k)
    D = p.diameter
    C1, C2, C3 = _coefficients(p.V, p.V1, p.V2, D)
    d = float(f["d"](f["kbar"](p.k))) if p.mean_distance == "agarwal" else float(H.mean())
    tail = "" if p.variance == "paper" else f"_{p.variance}"
    return _Prepared(p, H, D, C1, C2, C3, _phi_by_remaining(p.k, D), d, float(f["lam_c"](1.0, d)), float(H.sum()),
                     "W_c" + tail, "W_s" + tail)


def _step(prep: _Prepared, lam_c: float, Sc: float):
    """One pass of the fixed point: ``S_c -> (S_c', S_H, P_block, W_c, P_v)``; ``None`` past the pole."""
    f = _f()
    p = prep.p
    rho = lam_c * Sc
    if not rho < 1.0:
        return None
    Wc = float(f[prep.W_c](lam_c, Sc, p.M))
    Pv = occupancy(p.V, rho)
    pblock = f["P_block"](prep.C1 @ Pv, prep.C2 @ Pv, prep.C3 @ Pv, prep.phi)
    Bd = f["B"](pblock, Wc)
    cumB = np.cumsum(np.broadcast_to(Bd, pblock.shape) if np.shape(Bd) != pblock.shape else Bd)
    S_H = f["S_H"](p.M, prep.H, cumB[prep.H - 1])
    Sc_new = float(f["S_c"](float(np.dot(prep.H, S_H)), prep.H_sum))
    return Sc_new, S_H, pblock, Wc, Pv


def _step_rows(prep: _Prepared, lam_c: np.ndarray, Sc: np.ndarray) -> np.ndarray:
    """:func:`_step`'s new ``S_c`` for many rates at once (``lam_c``, ``Sc``: (R,)); ``inf`` past the pole.

    The same operations as :func:`_step`, row by row.
    """
    f = _f()
    p = prep.p
    rho = lam_c * Sc
    pole = ~(rho < 1.0)
    rho = np.where(pole, 0.0, rho)  # any value: those rows come back inf
    Wc = np.broadcast_to(f[prep.W_c](lam_c, Sc, p.M), rho.shape)
    Pv = occupancy(p.V, rho)  # (R, V+1)
    pblock = f["P_block"](Pv @ prep.C1.T, Pv @ prep.C2.T, Pv @ prep.C3.T, prep.phi)
    Bd = np.broadcast_to(f["B"](pblock, Wc[:, None]), pblock.shape)
    cumB = np.cumsum(Bd, axis=1)
    S_H = f["S_H"](p.M, prep.H, cumB[:, prep.H - 1])
    out = np.asarray(f["S_c"](S_H @ prep.H.astype(float), prep.H_sum), dtype=float)
    out = np.array(np.broadcast_to(out, rho.shape))
    out[pole] = np.inf
    return out


def solve(
    rate: float,
    /,
    *,
    k: int,
    M: int,
    V: int = 10,
    escape_levels: int | None = None,
    mean_distance: str = "agarwal",
    variance: str = "paper",
    tol: float = 1e-10,
    max_iter: int = 200_000,
    raise_on_failure: bool = True,
) -> TorusNbcResult:
    """Mean message latency of Duato-Nbc routing on a ``k x k`` torus (eqs. 1-21).

    Parameters
    ----------
    rate : float
        :math:`\\lambda_g`, messages generated per node per cycle (Poisson), ``>= 0``.
    k : int
        Radix, a multiple of 4 (even for the negative-hop colouring; ``k/4`` integral for eq. 2).
    M : int
        Message length, flits.
    V : int
        Virtual channels per physical channel (paper: 10), ``>= k/2 + 2``.
    escape_levels : int, optional
        ``V2`` escape levels (default the minimum ``k/2 + 1``; ``V1 = V - V2`` adaptive VCs).
    mean_distance : {'agarwal', 'exact'}
        ``d`` in eq. (3): the paper's ``k/2`` or the exact mean distance.
    variance : {'paper', 'zero', 'exponential'}
        Service-time variance of the M/G/1 waits, eqs. (18)-(19): the paper's ``(S - M)^2``, ``0``
        (deterministic) or ``S^2`` (exponential), the two bounds that test the paper's explanation
        of its discrepancies near saturation (Sect. 4).
    tol : float
        Relative change of :math:`\\bar S_c` at which the iteration stops, ``1e-15 <= tol <= 1e-3``
        (``rate`` is 0 or in ``[1e-12, 1e6]``, ``max_iter <= 1e7``; ranges of ``k``, ``M``, ``V``:
        :class:`~models.torus_nbc.params.NbcParams`).
    max_iter : int
        Iteration cap; reaching it raises :class:`~models.core.errors.ConvergenceError`
        (naming :math:`\\bar S_c`), unless ``raise_on_failure=False``.
    raise_on_failure : bool
        With ``False``, a run that hits ``max_iter`` returns ``converged=False``
        (and ``latency=inf``) instead of raising.

    Returns
    -------
    TorusNbcResult
        ``saturated=True`` and ``latency=inf`` when :math:`\\lambda_c\\bar S_c\\ge1`
        at the fixed point (or no fixed point exists), or :math:`\\lambda_g\\bar S/V\\ge1`.
    """
    p = NbcParams(k, M, V, escape_levels, mean_distance, variance)
    rate = check_rate(rate)
    tol = require_tol("tol", tol, 1e-3)
    max_iter = require_max_iter("max_iter", max_iter)
    return _solve(_prepare(p), rate, tol, max_iter, raise_on_failure)


def _zero_load_service(prep: _Prepared) -> float:
    """:math:`\\bar S_c` at zero load (``W_c = 0``, so ``S_H = M + |H|``)."""
    return float(_f()["S_c"](float(np.dot(prep.H, prep.p.M + prep.H)), float(prep.H.sum())))


def _saturated(prep: _Prepared, rate: float, lam_c: float, it: int, residual: float,
               converged=True) -> TorusNbcResult:
    inf = math.inf
    counts = np.bincount(prep.H, minlength=prep.D + 1)[1:]
    return TorusNbcResult(
        latency=inf, network_latency=inf, source_wait=inf, channel_service=inf, channel_wait=inf,
        multiplexing=float(prep.p.V), channel_rate=lam_c, utilisation=1.0, blocking=np.ones(prep.D),
        phi=prep.phi.copy(), latency_by_hops=np.full(prep.D, inf), destinations_by_hops=counts,
        busy_vcs=np.eye(prep.p.V + 1)[-1], iterations=it, residual=residual, converged=converged, saturated=True,
        params=dict(rate=rate, **prep.p.as_dict()),
    )


def _solve(prep: _Prepared, rate: float, tol: float, max_iter: int, raise_on_failure: bool) -> TorusNbcResult:
    f = _f()
    p = prep.p
    lam_c = prep.lam_per_rate * rate

    def channel_service(x):
        state = _step(prep, lam_c, float(x[0]))
        if state is None:
            raise Saturated("lambda_c S_c >= 1")
        return [state[0]]

    fp = fixed_point(
        channel_service, [_zero_load_service(prep)], damping=1.0, tol=tol, max_iter=max_iter,
        relative_to="old", floor=0.0, saturated=lambda x: not math.isfinite(x[0]),
        where="torus_nbc fixed point (eqs. 5-18)", names=("mean channel service time S_c",),
        raise_on_failure=raise_on_failure,
    )
    return _finish(prep, rate, lam_c, fp)


def _finish(prep: _Prepared, rate: float, lam_c: float, fp: FixedPoint) -> TorusNbcResult:
    """The result at the outcome ``fp`` of the fixed point over :math:`\\bar S_c` (eqs. 1, 17-21 at the solution)."""
    f = _f()
    p = prep.p
    it, residual = fp.iterations, fp.residual
    if fp.saturated:
        return _saturated(prep, rate, lam_c, it, residual)
    if not fp.converged:
        return _saturated(prep, rate, lam_c, it, residual, converged=False)
    Sc = float(fp.x[0])
    state = _step(prep, lam_c, Sc)  # quantities consistent with the final S_c
    if state is None:
        return _saturated(prep, rate, lam_c, it, residual)
    _, S_H, pblock, Wc, Pv = state
    S = float(f["S"](float(S_H.sum()), p.N))
    if not rate * S / p.V < 1.0:
        return _saturated(prep, rate, lam_c, it, residual)
    Ws = float(f[prep.W_s](rate, p.V, S, p.M))
    rho = lam_c * Sc
    Vbar = float(multiplexing_degree(p.V, rho))
    T = float(f["latency"](S, Ws, Vbar))
    counts = np.bincount(prep.H, minlength=prep.D + 1)[1:]
    by_hops = np.bincount(prep.H, weights=S_H, minlength=prep.D + 1)[1:] / np.maximum(counts, 1)
    return TorusNbcResult(
        latency=T, network_latency=S, source_wait=Ws, channel_service=Sc, channel_wait=Wc, multiplexing=Vbar,
        channel_rate=lam_c, utilisation=rho, blocking=np.asarray(pblock, float), phi=prep.phi.copy(),
        latency_by_hops=by_hops, destinations_by_hops=counts, busy_vcs=np.asarray(Pv, float),
        iterations=it, residual=residual, converged=True, saturated=False,
        params=dict(rate=rate, **p.as_dict()),
    )


def _solve_rows(prep: _Prepared, rates: np.ndarray, tol: float, max_iter: int, raise_on_failure: bool) -> tuple:
    """:func:`_solve` at every rate at once: one :func:`~models.core.fixed_point.fixed_points` over the rows,
    each iterated exactly as :func:`_solve` iterates its rate."""
    lam_c = prep.lam_per_rate * rates
    fps = fixed_points(
        lambda x, rows: _step_rows(prep, lam_c[rows], x[:, 0])[:, None],
        np.full((rates.size, 1), _zero_load_service(prep)), damping=1.0, tol=tol, max_iter=max_iter,
        relative_to="old", floor=0.0, saturated=lambda x, rows: ~np.isfinite(x[:, 0]),
        where="torus_nbc fixed point (eqs. 5-18)", names=("mean channel service time S_c",),
        raise_on_failure=raise_on_failure,
    )
    return tuple(_finish(prep, float(r), float(lc), fps[i]) for i, (r, lc) in enumerate(zip(rates, lam_c)))


def saturation_load(
    *, k: int, M: int, V: int = 10, escape_levels: int | None = None, mean_distance: str = "agarwal",
    variance: str = "paper", rtol: float = 1e-5, max_iter: int = 200_000,
) -> float:
    """The model's saturation rate :math:`\\lambda_g^*` (messages/node/cycle).

    The largest rate at which :func:`solve` is not saturated, to relative
    precision ``rtol``, by :func:`models.core.saturation.find_saturation` on
    the bracket ``[0, 1/(lambda_c/lambda_g * S_c0)]`` (the rate that
    saturates a channel even without blocking; both ends trusted).  A rate
    at which the iteration (tolerance 1e-9) has not settled after
    ``max_iter`` passes lies within a hair of the fold and is counted as
    saturated.
    """
    p = NbcParams(k, M, V, escape_levels, mean_distance, variance)
    rtol = require_tol("rtol", rtol, 0.1, unit="relative precision")
    max_iter = require_max_iter("max_iter", max_iter)
    return _saturation_load(p, float(rtol), int(max_iter))


@functools.lru_cache(maxsize=256)
def _saturation_load(p: NbcParams, rtol: float, max_iter: int) -> float:
    """:func:`saturation_load` of validated arguments, kept per process: a chapter's figures, tables and atlas
    ask for the same network's saturation rate several times (each search is a bisection of fixed points)."""
    prep = _prepare(p)
    hi = 1.0 / (prep.lam_per_rate * _zero_load_service(prep))
    return find_saturation(lambda r: _is_saturated(prep, r, max_iter), 0.0, hi, rtol=rtol).lo


def _is_saturated(prep: _Prepared, rate: float, max_iter: int) -> bool:
    """``_solve(prep, rate, 1e-9, max_iter, False).saturated``, decided early where it can be.

    The map :math:`\\bar S_c\\to\\bar S_c'` is increasing (module docstring),
    so an :math:`S` with :math:`S'\\le S` proves that the fixed point exists
    below it (:func:`~models.core.fixed_point.monotone_fixed_point_exists`)
    without crawling up to it near the saturation rate; :math:`\\bar S`
    (eq. 17) grows with :math:`\\bar S_c`, so the source queue is not
    saturated either when :math:`\\lambda_g\\bar S/V<1` at that bound.
    Otherwise the answer is :func:`_solve`'s, from the same plain iteration.
    """
    lam_c = prep.lam_per_rate * rate

    def channel_service(x):
        state = _step(prep, lam_c, float(x[0]))
        if state is None:
            raise Saturated("lambda_c S_c >= 1")
        return [state[0]]

    outcome, x, _ = monotone_fixed_point_exists(
        channel_service, [_zero_load_service(prep)], tol=1e-9, max_iter=max_iter, relative_to="old", floor=0.0,
        saturated=lambda v: not math.isfinite(v[0]))
    if outcome in ("saturated", "undecided"):
        return True
    if outcome == "certified":
        state = _step(prep, lam_c, float(x[0]))
        S = float(_f()["S"](float(state[1].sum()), prep.p.N))
        if rate * S / prep.p.V < 1.0:
            return False
    return _solve(prep, rate, 1e-9, max_iter, False).saturated


def solve_curve(rates, /, *, k: int, M: int, V: int = 10, escape_levels: int | None = None,
                mean_distance: str = "agarwal", variance: str = "paper", saturation: bool = True, tol: float = 1e-10,
                max_iter: int = 200_000, raise_on_failure: bool = True) -> CurveResult:
    """:func:`solve` at every rate in ``rates`` (messages/node/cycle), plus the saturation rate.

    With ``saturation=False`` the (bisected) saturation rate is not computed
    and ``saturation_load`` is NaN.
    """
    rates = np.asarray(require_loads("rates", rates, check_rate, unit="messages/node/cycle"), dtype=float)
    p = NbcParams(k, M, V, escape_levels, mean_distance, variance)
    tol = require_tol("tol", tol, 1e-3)
    max_iter = require_max_iter("max_iter", max_iter)
    res = _solve_rows(_prepare(p), rates, tol, max_iter, raise_on_failure) if rates.size else ()
    sat = saturation_load(k=k, M=M, V=V, escape_levels=escape_levels, mean_distance=mean_distance,
                          variance=variance) if saturation else math.nan
    params = dict(p.as_dict())

    def arr(name):
        return np.array([getattr(r, name) for r in res])

    return CurveResult(
        loads=rates, latency=arr("latency"), network_latency=arr("network_latency"),
        source_wait=arr("source_wait"), channel_wait=arr("channel_wait"), multiplexing=arr("multiplexing"),
        saturated=arr("saturated").astype(bool), iterations=arr("iterations").astype(int),
        saturation_load=sat, params=params, results=res,
    )
