"""Numeric solver of the Najaf-abadi & Sarbazi-azad (2004) model: fixed point over the per-dimension waits.

Every per-dimension equation is the SymPy expression of
:mod:`models.torus_dor.equations`, lambdified once per process and evaluated
on NumPy arrays over the dimensions; the sums over dimensions are matrix
products with coefficients from :mod:`models.networks.dor_paths` (exact fractions
turned into floats once per torus); the sums over ``j`` (eq. 15) and ``l``
(eq. 19) are NumPy sums of lambdified summands.

Iteration.  Unknowns: :math:`W_{d_0}..W_{d_{n-1}}` (cycles).  From
:math:`W=0`: :math:`X=AW`, :math:`Y=BW` (the weighted sums of eqs. 7 and 9),
:math:`D` (eq. 9), :math:`\\rho=\\lambda_cD`, :math:`P_B` (eq. 5),
:math:`P_{d_i}` (eq. 6), :math:`\\hat W` (eq. 7), :math:`\\tilde N` (eqs.
14-15), :math:`W=\\hat W\\tilde N` (eq. 8).  Every step is non-decreasing in
:math:`W`, so the iterates increase to the least fixed point when it exists.
The load is *saturated* (latency ``inf``) when the fixed point does not exist
(the iterates pass :math:`\\rho\\ge1` or grow without bound), or when the
ejection (:math:`M\\lambda_g\\ge1`) or the source queue
(:math:`\\lambda_g\\bar S/L\\ge1`) saturates.  The iteration is
:func:`models.core.fixed_point.fixed_point` (plain steps, a ``saturated``
outcome); :func:`saturation_load` finds the boundary with
:func:`models.core.saturation.find_saturation` on :math:`\\lambda_g`, each
probe answered early when a point with :math:`W'\\le W` proves the fixed point
exists (:func:`models.core.fixed_point.monotone_fixed_point_exists`; the same
answer as the full iteration, #16).  :func:`solve_curve` iterates every load at
once on arrays (:func:`models.core.fixed_point.fixed_points`, each row exactly
as :func:`solve` iterates it).

Front door (``models/__init__.py``): the load :math:`\\lambda_g` (``LOAD =
"lam_g"``, the paper's symbol, messages/node/cycle) is the only positional
argument of :func:`solve` and :func:`solve_curve`; the torus and the
message are keywords::

    solve(0.001, radices=(16, 16), L=3, M=32)
    solve_curve([0.001, 0.002], radices=(16, 16), L=3, M=32)
    saturation_load(radices=(16, 16), L=3, M=32)

Timing (see the chapter): ``t_c = 1`` cycle per flit per channel; with
``readings.ejection_cycle`` (default) one cycle is added for the header's
crossing of the ejection channel, so the zero-load latency is
:math:`M+h+1`, the simulator's (router delay 1, buffers of 2 flits).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Sequence

import numpy as np

from ..core.errors import ParameterError
from ..core.fixed_point import Saturated, fixed_point, fixed_points, monotone_fixed_point_exists
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import require_loads, require_max_iter, require_rate, require_tol
from ..networks.dor_paths import DorCombinatorics, check_radices
from .readings import Readings
from .setups import DorParams

__all__ = ["LOAD", "LOAD_UNIT", "solve", "solve_curve", "saturation_load", "TorusDorResult", "CurveResult",
           "Structure", "structure", "check_params"]

#: The load parameter: the paper's generation rate :math:`\\lambda_g` (Sec. 2.1).
LOAD = "lam_g"
#: Its unit.
LOAD_UNIT = "messages/node/cycle"


# ----------------------------------------------------------------------------
# Parameters
# ----------------------------------------------------------------------------
_NO_LOAD = object()


def check_params(lam_g=_NO_LOAD, *, radices, L, M, bidirectional=False, tol=_NO_LOAD, max_iter=_NO_LOAD,
                 rtol=_NO_LOAD):
    """Validate at the door; returns ``(radices, L, M, lam_g)`` (``M`` a float, ``lam_g`` None when not given).

    The network is checked by making a :class:`~models.torus_dor.setups.DorParams`
    (the chapter's one check of ``radices``, ``L``, ``M``, ``bidirectional``:
    ``L`` in ``[2, 128]``, every ``k_i`` in ``[2, 64]`` (at most 8 dimensions
    and ``2**16`` nodes), ``M`` in ``[1, 1e6]`` flits); then ``lam_g`` in
    ``[1e-12, 1e6]`` messages/node/cycle, and, when given, ``tol`` in
    ``[1e-15, 0.1]``, ``max_iter`` in ``[1, 1e7]``, ``rtol`` in ``[1e-15, 0.1]``.
    Raises :class:`~models.core.errors.ParameterError` (a ``ValueError``).
    """
    p = DorParams(radices, L, M, bidirectional)
    lam_g = None if lam_g is _NO_LOAD else _check_load(lam_g)
    if tol is not _NO_LOAD:  # given (None too, which is not a tolerance)
        require_tol("tol", tol)
    if max_iter is not _NO_LOAD:
        require_max_iter("max_iter", max_iter)
    if rtol is not _NO_LOAD:
        require_tol("rtol", rtol)
    return p.radices, p.L, float(p.M), lam_g


def _check_load(lam_g) -> float:
    return require_rate(LOAD, lam_g, unit="generation rate lambda_g, " + LOAD_UNIT)


# ----------------------------------------------------------------------------
# Torus structure (combinatorics, once per torus and reading)
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, eq=False)
class Structure:
    """Per-torus coefficients of the model (floats from exact fractions).

    h : mean hops; q[i] : :math:`P_{t,d_i}/\\bar k_i`; f[i] : P(first hop in i);
    A[i, j] : coefficient of :math:`W_{d_j}` in :math:`X_{d_i}` (eq. 7);
    B[i, j] : coefficient of :math:`W_{d_j}` in :math:`Y_{d_i}` (eq. 9);
    J[i] : most waiting messages (eq. 14); weights[i] : multiplexing weights (eq. 20);
    channels : network channels per node carrying :math:`\\lambda_c` (n or 2n).
    """

    radices: tuple
    bidirectional: bool
    h: float
    q: np.ndarray
    f: np.ndarray
    A: np.ndarray
    B: np.ndarray
    weights: np.ndarray
    channels: int
    hops_dim: np.ndarray
    comb: DorCombinatorics


@functools.lru_cache(maxsize=64)
def structure(radices: tuple, bidirectional: bool = False, readings: Readings = Readings()) -> Structure:
    """Coefficients of eqs. 7, 9, 18, 20 for a torus, from :class:`~models.networks.dor_paths.DorCombinatorics`."""
    radices = check_radices(radices)
    c = DorCombinatorics(radices, bidirectional=bidirectional)
    n = c.n
    A = np.zeros((n, n))
    B = np.zeros((n, n))
    for i in range(n):
        A[i, i] = float(c.remaining_same(i) if readings.same_dim_blocking == "hop" else c.sum_given(i, i))
        B[i, i] = float(c.extra_same_first(i) if readings.same_dim_first == "first" else c.sum_given_first(i, i))
        for j in range(i + 1, n):
            A[i, j] = float(c.sum_given(j, i))
            B[i, j] = float(c.sum_given_first(j, i))
    q = np.array([float(c.last_hop(i)) for i in range(n)])
    f = np.array([float(c.first_hop(i)) for i in range(n)])
    if readings.mux_weights == "k":
        weights = np.array(radices, dtype=float)
    else:
        weights = np.array([float(c.mean_hops_given(i) * c.P_take(i)) for i in range(n)])
    hops_dim = np.array([float(c.mean_hops_given(i) * c.P_take(i)) for i in range(n)])
    return Structure(radices, bool(bidirectional), float(c.mean_hops), q, f, A, B, weights,
                     2 * n if bidirectional else n, hops_dim, c)


def waiting_max(i: int, L: int, bidirectional: bool, readings: Readings) -> int:
    """:math:`J_{d_i}` for 0-based dimension ``i`` (see :class:`Readings`)."""
    if readings.waiting_max == "printed":
        return (2 * (i + 1) - 1) * L
    inputs = (2 * i + 1) if bidirectional else (i + 1)
    return (inputs + (1 if readings.waiting_max == "inputs+injection" else 0)) * L


# ----------------------------------------------------------------------------
# Lambdified equations (built once per process and reading)
# ----------------------------------------------------------------------------
def _compiled(readings: Readings) -> dict:
    """The lambdified equations of ``readings``, from disk when generated before (no SymPy then).

    A function that calls ``select`` (SymPy's code for a ``Piecewise``, eqs. 15
    and 19) gets :func:`_select` under that name: the same code, the same values.
    """
    fns = compiled("torus_dor", functools.partial(_build, readings), readings)
    fast = _FAST.get(id(fns))
    if fast is None or fast[0] is not fns:
        fast = _FAST[id(fns)] = (fns, {name: _with_select(fn) for name, fn in fns.items()})
    return fast[1]


_FAST: dict = {}


def _select(condlist, choicelist, default=0):
    """``numpy.select`` for SymPy's two-branch ``Piecewise((a, c), (b, True))``: ``numpy.where(c, a, b)``.

    Every element of either result is copied from ``a`` or ``b`` under the same
    condition, so the values are the same to the last bit (float results; any
    other case is ``numpy.select``'s); ``where`` skips ``select``'s general
    machinery (a third of the model's step time on 2-element arrays).
    """
    if len(condlist) == 2 and condlist[1] is True and len(choicelist) == 2:
        out = np.where(condlist[0], choicelist[0], choicelist[1])
        if out.dtype == np.float64:
            return out
    return np.select(condlist, choicelist, default=default)


def _with_select(fn):
    """``fn`` with :func:`_select` bound to its global name ``select`` (``fn`` itself when it has none)."""
    import types

    g = getattr(fn, "__globals__", None)
    if g is None or "select" not in fn.__code__.co_names or g.get("select") is not np.select:
        return fn
    return types.FunctionType(fn.__code__, dict(g, select=_select), fn.__name__, fn.__defaults__, fn.__closure__)


def _build(readings: Readings) -> dict:
    import sympy as sp

    from .equations import SYMBOLS as s, equations  # SymPy: only to build what compiled() has not stored

    e = equations(readings)
    lam_c_uni = e["eq:4"].rhs
    lam_c_bi = e["eq:4:bidirectional"].rhs
    ratio = e["eq:6"].rhs / e["eq:5"].rhs  # P_{d_i}/P_{B_i} of eq. 7
    what = e["eq:7"].rhs.subs(s.P_d / s.P_B, sp.Symbol("ratio"))
    Ntil_sum = e["eq:15"].rhs
    summand15 = Ntil_sum.function
    l_num = e["eq:19"].rhs.as_numer_denom()[0].function
    l_den = e["eq:19"].rhs.as_numer_denom()[1].function
    return {
        "lam_c": ((s.h, s.lam_g, s.n), lam_c_uni),
        "lam_c_bi": ((s.h, s.lam_g, s.n), lam_c_bi),
        "lam_c_dim": ((s.h_i, s.lam_g), e["eq:4:per-dimension"].rhs),
        "lam_c_dim_bi": ((s.h_i, s.lam_g), e["eq:4:per-dimension-bidirectional"].rhs),
        "rho": ((s.lam_c, s.D), e["rho"].rhs),
        "W_ej": ((s.M, s.lam_g), e["eq:16"].rhs),
        "D": ((s.Y, s.M, s.t_c, s.W_ej), e["eq:9"].rhs),
        "P_B": ((s.rho, s.L), e["eq:5"].rhs),
        "P_d": ((s.q, s.rho, s.L), e["eq:6"].rhs),
        "ratio": ((s.q, s.rho, s.L), ratio),
        "What": ((sp.Symbol("ratio"), s.X, s.M, s.t_c), what),
        "N_term": ((s.j, s.rho, s.J, s.L), summand15),
        "W": ((s.What, s.Ntil), e["eq:8"].rhs),
        "S_term": ((s.f, s.D, s.W), e["eq:18:term"]),
        "l_num": ((s.l, s.rho, s.L), l_num),
        "l_den": ((s.l, s.rho, s.L), l_den),
        "W_s": ((s.lam_g, s.L, s.S, s.M), e["eq:21"].rhs),
        "T": ((s.S, s.lbar, s.W_s, s.h, s.e), e["eq:22"].rhs),
    }


def _bc(x, like):
    shape = np.shape(like)
    if type(x) is np.ndarray and x.shape == shape and x.dtype == float:
        return x  # a lambdified result of the right shape is already a new array (no copy needed)
    return np.broadcast_to(np.asarray(x, dtype=float), shape).astype(float)


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, repr=False)
class TorusDorResult(Result):
    """Solution at one load (times in cycles; per-dimension arrays indexed by dimension, 0 first).

    latency : :math:`\\bar T` (eq. 22), ``inf`` when saturated
    network_latency : :math:`\\bar S\\bar l` + pipeline term (+ ejection cycle): latency minus :math:`\\bar W_s`
    S_bar : :math:`\\bar S` (eq. 18); source_wait : :math:`\\bar W_s` (eq. 21); W_ej : eq. 16
    multiplexing : :math:`\\bar l` (eq. 20); lbar_dim : :math:`\\bar l_{d_i}` (eq. 19)
    W, W_hat, D, rho, P_B, P_none, N_waiting : per-dimension eqs. 8, 7, 9, 13, 5, 6, 15
    lam_c : per-dimension channel rate (eq. 4), messages/channel/cycle
    occupancy : (n, L+1) :math:`P_{d_i,j}` (eq. 13)
    """

    latency: float
    network_latency: float
    S_bar: float
    source_wait: float
    W_ej: float
    multiplexing: float
    lbar_dim: np.ndarray
    W: np.ndarray
    W_hat: np.ndarray
    D: np.ndarray
    rho: np.ndarray
    P_B: np.ndarray
    P_none: np.ndarray
    N_waiting: np.ndarray
    occupancy: np.ndarray
    iterations: int
    residual: float
    saturated: bool
    reason: str
    lam_g: float
    lam_c: np.ndarray
    h: float
    params: dict


@dataclasses.dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` at every load of a curve (arrays over loads) and the saturation load.

    loads : :math:`\\lambda_g` of each point, messages/node/cycle
    latency, source_wait, multiplexing, saturated, iterations : the fields of
    each point's :class:`TorusDorResult`, as arrays over ``loads``
    results : the :class:`TorusDorResult` of each point
    saturation : :func:`saturation_load` (NaN when not asked for)
    """

    loads: np.ndarray
    latency: np.ndarray
    source_wait: np.ndarray
    multiplexing: np.ndarray
    saturated: np.ndarray
    iterations: np.ndarray
    results: tuple
    saturation: float
    params: dict

    def to_frame(self):
        import pandas as pd  # reason: optional here, the solver itself does not need pandas

        return pd.DataFrame({LOAD: self.loads, "latency": self.latency, "source_wait": self.source_wait,
                             "multiplexing": self.multiplexing, "saturated": self.saturated,
                             "iterations": self.iterations})


# ----------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------
class _Model:
    """Evaluates the equations for one configuration (built once per call of :func:`solve`)."""

    def __init__(self, radices, L, M, bidirectional, readings):
        self.st = structure(radices, bidirectional, readings)
        self.K = _compiled(readings)
        self.L, self.M, self.readings = L, M, readings
        n = len(radices)
        self.J = np.array([waiting_max(i, L, bidirectional, readings) for i in range(n)], dtype=float)
        self.jgrid = np.arange(int(self.J.max()) + 1, dtype=float)[:, None]  # (j, dim)
        self.jmask = (self.jgrid >= L) & (self.jgrid <= self.J[None, :])
        self.lgrid = np.arange(L + 1, dtype=float)[:, None]
        # the (j, dim) pairs of eq. 15's sum (L <= j <= J_i), flat: the summand is evaluated only where it counts
        jj, dd = np.nonzero(self.jmask)
        self.j_flat, self.dim_flat, self.J_flat = self.jgrid[jj, 0], dd, self.J[dd]

    def lam_c(self, lam_g) -> np.ndarray:
        """Per-dimension channel rates (eq. 4; all equal under the printed reading)."""
        n = len(self.st.radices)
        if self.readings.channel_rate == "mean":
            f = self.K["lam_c_bi"] if self.st.bidirectional else self.K["lam_c"]
            return np.full(n, float(f(self.st.h, lam_g, n)))
        f = self.K["lam_c_dim_bi"] if self.st.bidirectional else self.K["lam_c_dim"]
        return _bc(f(self.st.hops_dim, lam_g), self.st.hops_dim)

    def step(self, W, lam_c, W_ej):
        """One application of eqs. 9, 5, 6, 7, 14, 15, 8; returns the pieces."""
        K, st, L, M = self.K, self.st, self.L, self.M
        X = st.A @ W
        Y = st.B @ W
        D = _bc(K["D"](Y, M, 1.0, W_ej), W)
        rho = _bc(K["rho"](lam_c, D), W)
        if not (rho < 1.0).all():  # rho >= 1 or NaN
            return None
        ratio = _bc(K["ratio"](st.q, np.maximum(rho, 1e-12), L), W)
        What = _bc(K["What"](ratio, X, M, 1.0), W)
        terms = _bc(K["N_term"](self.j_flat, rho[self.dim_flat], self.J_flat, L), self.j_flat)
        Ntil = np.bincount(self.dim_flat, terms, W.size)  # eq. 15: sum over L <= j <= J_i per dimension
        Wn = _bc(K["W"](What, Ntil), W)
        return dict(X=X, Y=Y, D=D, rho=rho, ratio=ratio, What=What, Ntil=Ntil, W=Wn)

    def step_rows(self, W, lam_c, W_ej):
        """:meth:`step`'s ``W`` for many loads at once: ``W`` (R, n), ``lam_c`` (R, n), ``W_ej`` (R,).

        The same operations element by element; a row past the pole (``rho >= 1``
        or not finite) comes back as ``inf`` and is flagged in the second result.
        """
        K, st, L, M = self.K, self.st, self.L, self.M
        X = W @ st.A.T
        Y = W @ st.B.T
        D = _bc(K["D"](Y, M, 1.0, W_ej[:, None]), W)
        rho = _bc(K["rho"](lam_c, D), W)
        pole = np.any(rho >= 1.0, axis=1) | ~np.all(np.isfinite(rho), axis=1)
        ratio = _bc(K["ratio"](st.q, np.maximum(rho, 1e-12), L), W)
        What = _bc(K["What"](ratio, X, M, 1.0), W)
        jg = self.jgrid[:, None, :]  # (j, 1, dim)
        mask = np.broadcast_to(self.jmask[:, None, :], (jg.shape[0],) + W.shape)
        terms = _bc(K["N_term"](jg, rho[None, :, :], self.J[None, None, :], L), mask)
        Ntil = np.where(mask, terms, 0.0).sum(axis=0)
        Wn = _bc(K["W"](What, Ntil), W)
        Wn[pole] = np.inf
        return Wn, pole


def _params(radices, L, M, lam_g, bidirectional, readings):
    return dict(radices=list(radices), L=L, M=M, lam_g=lam_g, bidirectional=bool(bidirectional),
                readings=dataclasses.asdict(readings))


def _model(radices, L, M, bidirectional, readings) -> "_Model":
    if not isinstance(readings, Readings):
        raise ParameterError(f"`readings` must be a Readings instance; got {readings!r}")
    return _Model(radices, L, M, bool(bidirectional), readings)


def solve(
    lam_g: float,
    /,
    *,
    radices: Sequence[int],
    L: int,
    M: float,
    bidirectional: bool = False,
    readings: Readings = Readings(),
    tol: float = 1e-10,
    max_iter: int = 200_000,
    raise_on_failure: bool = True,
) -> TorusDorResult:
    """Mean message latency of deterministic (dimension-order) wormhole routing on an n-D torus.

    Parameters
    ----------
    lam_g : float
        :math:`\\lambda_g`, messages generated per node per cycle (> 0), the load.
    radices : sequence of int
        ``k_0..k_{n-1}``, nodes per dimension (each >= 2); dimension 0 is crossed first.
    L : int
        Virtual channels per physical channel (>= 2: ``v1``, ``v2`` escape, ``v3..vL`` free).
    M : float
        Message length, flits (>= 1).
    bidirectional : bool
        Bidirectional torus, shorter way per dimension (the "few simple modifications").
    readings : :class:`~models.torus_dor.equations.Readings`
        Readings of the ambiguous equations.
    tol, max_iter : float, int
        Relative tolerance and cap of the fixed-point iteration over :math:`W_{d_i}`.

    Returns
    -------
    :class:`TorusDorResult` (``latency=inf``, ``saturated=True`` past saturation).

    Raises
    ------
    ParameterError
        Invalid parameters.
    ConvergenceError
        The iteration neither converged nor diverged within ``max_iter``.
    """
    radices, L, M, lam_g = check_params(lam_g, radices=radices, L=L, M=M, bidirectional=bidirectional, tol=tol,
                                        max_iter=max_iter)
    return _solve(_model(radices, L, M, bidirectional, readings), lam_g, tol, max_iter, raise_on_failure)


def _saturated(model, lam_g, lam_c, it, reason, residual=math.inf):
    n = len(model.st.radices)
    nan = np.full(n, np.nan)
    return TorusDorResult(
        latency=math.inf, network_latency=math.inf, S_bar=math.inf, source_wait=math.inf, W_ej=math.inf,
        multiplexing=float(model.L), lbar_dim=np.full(n, float(model.L)), W=np.full(n, np.inf), W_hat=nan,
        D=np.full(n, np.inf), rho=np.ones(n), P_B=np.ones(n), P_none=nan, N_waiting=nan,
        occupancy=np.tile(np.eye(model.L + 1)[-1], (n, 1)), iterations=int(it), residual=float(residual),
        saturated=True, reason=reason, lam_g=lam_g, lam_c=lam_c, h=model.st.h,
        params=_params(model.st.radices, model.L, model.M, lam_g, model.st.bidirectional, model.readings))


def _unbounded(W) -> str:
    """The fixed point's ``saturated`` predicate: the blocking times grow without bound."""
    W = np.asarray(W)
    return "blocking time without bound (eq. 8)" if (not np.isfinite(W).all() or (W > 1e12).any()) else ""


def _solve(model: _Model, lam_g: float, tol: float, max_iter: int, raise_on_failure: bool) -> TorusDorResult:
    K, st, L, M = model.K, model.st, model.L, model.M
    n = len(st.radices)
    lam_c = model.lam_c(lam_g)
    if M * lam_g >= 1.0:
        return _saturated(model, lam_g, lam_c, 0, "ejection channel (M lambda_g >= 1)")
    W_ej = float(K["W_ej"](M, lam_g))

    def f(W):
        out = model.step(W, lam_c, W_ej)
        if out is None:
            raise Saturated("channel (rho >= 1: no fixed point of eq. 8)")
        return out["W"]

    fp = fixed_point(f, np.zeros(n), damping=1.0, tol=tol, max_iter=max_iter, saturated=_unbounded,
                     where="torus_dor eq. 8 (blocking time per dimension)",
                     names=[f"W_{{d_{i}}}" for i in range(n)], raise_on_failure=raise_on_failure)
    return _finish(model, lam_g, lam_c, W_ej, fp)


def _finish(model: _Model, lam_g: float, lam_c, W_ej: float, fp) -> TorusDorResult:
    """The result at the outcome ``fp`` of the fixed point over ``W`` (eqs. 18-22 at the solution)."""
    K, st, L, M = model.K, model.st, model.L, model.M
    it, residual = fp.iterations, fp.residual
    if fp.saturated:
        return _saturated(model, lam_g, lam_c, it, fp.reason, residual)
    if not fp.converged:
        return _saturated(model, lam_g, lam_c, it, "no convergence", residual)
    W = fp.x
    out = model.step(W, lam_c, W_ej)
    if out is None:
        return _saturated(model, lam_g, lam_c, it, "channel (rho >= 1)")
    D, rho = out["D"], out["rho"]
    S_bar = float(np.sum(_bc(K["S_term"](st.f, D, W), W)))
    num = _bc(K["l_num"](model.lgrid, rho[None, :], L), model.lgrid * rho).sum(axis=0)
    den = _bc(K["l_den"](model.lgrid, rho[None, :], L), model.lgrid * rho).sum(axis=0)
    lbar_dim = num / den
    lbar = float(np.sum(st.weights * lbar_dim) / np.sum(st.weights))
    if lam_g * S_bar / L >= 1.0:
        return _saturated(model, lam_g, lam_c, it, "source queue (lambda_g S / L >= 1)")
    W_s = float(K["W_s"](lam_g, L, S_bar, M))
    e = 1.0 if model.readings.ejection_cycle else 0.0
    T = float(K["T"](S_bar, lbar, W_s, st.h, e))
    occ = _occupancy(rho, L)
    P_B = _bc(K["P_B"](rho, L), rho)
    P_none = _bc(K["P_d"](st.q, rho, L), rho)
    if not (math.isfinite(T) and T > 0):
        return _saturated(model, lam_g, lam_c, it, "non-finite latency")
    return TorusDorResult(
        latency=T, network_latency=T - W_s, S_bar=S_bar, source_wait=W_s, W_ej=W_ej, multiplexing=lbar,
        lbar_dim=lbar_dim, W=W, W_hat=out["What"], D=D, rho=rho, P_B=P_B, P_none=P_none, N_waiting=out["Ntil"],
        occupancy=occ, iterations=int(it), residual=float(residual), saturated=False, reason="", lam_g=lam_g,
        lam_c=lam_c, h=st.h, params=_params(st.radices, L, M, lam_g, st.bidirectional, model.readings))


def _build_occupancy() -> dict:
    from .equations import SYMBOLS as s, equations  # SymPy: only to build what compiled() has not stored

    return {"P": ((s.j, s.rho, s.L), equations()["eq:13"].rhs)}


def _occupancy(rho, L):
    """(n, L+1) :math:`P_{d_i,j}` of eq. 13, lambdified from the same expression."""
    f = compiled("torus_dor:eq13", _build_occupancy)["P"]
    return np.stack([_bc(f(float(j), rho, L), rho) for j in range(L + 1)], axis=-1)


def saturation_load(
    *,
    radices: Sequence[int],
    L: int,
    M: float,
    bidirectional: bool = False,
    readings: Readings = Readings(),
    rtol: float = 1e-4,
) -> float:
    """Load :math:`\\lambda_g` (messages/node/cycle) at which the model's fixed point stops existing.

    :func:`~models.core.saturation.find_saturation` between 0 and the load at
    which a channel or the ejection channel is busy all the time
    (:math:`\\min(1/M, \\lambda_cM=1)`), to the relative width ``rtol``; the
    midpoint of the final bracket.  The iteration converges slowly near the
    boundary, so a probe that has not settled in 20,000 iterations (to 1e-9)
    counts as saturated.
    """
    radices, L, M, _ = check_params(radices=radices, L=L, M=M, bidirectional=bidirectional, rtol=rtol)
    if not isinstance(readings, Readings):
        raise ParameterError(f"`readings` must be a Readings instance; got {readings!r}")
    return _saturation_load(tuple(radices), L, M, bool(bidirectional), readings, float(rtol))


@functools.lru_cache(maxsize=256)
def _saturation_load(radices, L, M, bidirectional, readings, rtol) -> float:
    """:func:`saturation_load` of validated arguments, kept per process: a chapter's figures, tables and atlas
    ask for the same network's saturation load several times (each search is a bisection of fixed points)."""
    model = _model(radices, L, M, bidirectional, readings)
    hi = min(1.0 / M, st_bound(model))
    return find_saturation(lambda x: _is_saturated(model, x), 0.0, hi, rtol=rtol).load


def _is_saturated(model: _Model, lam_g: float) -> bool:
    r"""``_solve(model, lam_g, 1e-9, 20_000, False).saturated``, decided early where it can be.

    The map ``W -> W'`` is non-decreasing (module docstring), so a ``W`` with
    ``W' <= W`` proves that the least fixed point exists below it
    (:func:`~models.core.fixed_point.monotone_fixed_point_exists`), without
    crawling up to it near the saturation load; :math:`\bar S` (eq. 18) grows
    with ``W`` and ``D``, so the source queue is not saturated at the fixed
    point either when :math:`\lambda_g\bar S/L<1` at that bound.  Otherwise
    (the iteration saturated, converged, or the bound is not conclusive) the
    answer is :func:`_solve`'s, from the same plain iteration.
    """
    K, st, L, M = model.K, model.st, model.L, model.M
    if M * lam_g >= 1.0:
        return True
    lam_c = model.lam_c(lam_g)
    W_ej = float(K["W_ej"](M, lam_g))

    def f(W):
        out = model.step(W, lam_c, W_ej)
        if out is None:
            raise Saturated("channel (rho >= 1: no fixed point of eq. 8)")
        return out["W"]

    outcome, W, _ = monotone_fixed_point_exists(f, np.zeros(len(st.radices)), tol=1e-9, max_iter=20_000,
                                                saturated=_unbounded)
    if outcome in ("saturated", "undecided"):
        return True
    if outcome == "certified":
        out = model.step(W, lam_c, W_ej)
        S_bound = float(np.sum(_bc(K["S_term"](st.f, out["D"], W), W)))
        if lam_g * S_bound / L < 1.0:
            return False
    return _solve(model, lam_g, 1e-9, 20_000, False).saturated


def _solve_rows(model: _Model, loads: np.ndarray, tol: float, max_iter: int) -> tuple:
    """:func:`_solve` at every load at once: one :func:`~models.core.fixed_point.fixed_points` over the rows.

    Each row is iterated exactly as :func:`_solve` iterates its load (plain
    steps from ``W = 0``, the same tolerance and saturation tests); a row
    that reaches ``rho >= 1`` stops saturated at that iteration.
    """
    K, st, M = model.K, model.st, model.M
    n = len(st.radices)
    lam_c = np.array([model.lam_c(x) for x in loads]).reshape(loads.size, n)
    W_ej = np.array([float(K["W_ej"](M, x)) if M * x < 1.0 else np.inf for x in loads])
    live = np.flatnonzero(M * loads < 1.0)
    out: list = [None] * loads.size
    for i in np.flatnonzero(M * loads >= 1.0):
        out[i] = _saturated(model, float(loads[i]), lam_c[i], 0, "ejection channel (M lambda_g >= 1)")
    if live.size:
        pole_rows: set = set()

        def f(W, rows):
            Wn, pole = model.step_rows(W, lam_c[live[rows]], W_ej[live[rows]])
            pole_rows.update(int(r) for r in rows[pole])
            return Wn

        def saturated(new, rows):  # _unbounded row by row (a pole row is inf)
            with np.errstate(invalid="ignore"):
                return ~np.isfinite(new).all(axis=1) | (new > 1e12).any(axis=1)

        fps = fixed_points(f, np.zeros((live.size, n)), damping=1.0, tol=tol, max_iter=max_iter,
                           saturated=saturated, where="torus_dor eq. 8 (blocking time per dimension)",
                           names=[f"W_{{d_{i}}}" for i in range(n)])
        for j, i in enumerate(live):
            fp = fps[j]
            if fp.saturated:
                reason = "channel (rho >= 1: no fixed point of eq. 8)" if j in pole_rows else _unbounded(fp.x)
                fp = dataclasses.replace(fp, reason=reason)
            out[i] = _finish(model, float(loads[i]), lam_c[i], float(W_ej[i]), fp)
    return tuple(out)


def st_bound(model: _Model) -> float:
    """Load at which :math:`\\lambda_cM=1` (no channel can carry more)."""
    return 1.0 / (model.M * float(np.max(model.lam_c(1.0))))


def solve_curve(
    loads: Sequence[float],
    /,
    *,
    radices: Sequence[int],
    L: int,
    M: float,
    bidirectional: bool = False,
    readings: Readings = Readings(),
    tol: float = 1e-10,
    max_iter: int = 200_000,
    saturation: bool = True,
) -> CurveResult:
    """:func:`solve` at every load of ``loads`` (:math:`\\lambda_g`, messages/node/cycle) and,
    with ``saturation`` (default), :func:`saturation_load`."""
    loads = require_loads("loads", loads, _check_load, unit=LOAD_UNIT)
    kw = dict(radices=radices, L=L, M=M, bidirectional=bidirectional, readings=readings)
    if loads:
        radices_, L_, M_, _ = check_params(loads[0], radices=radices, L=L, M=M, bidirectional=bidirectional,
                                           tol=tol, max_iter=max_iter)
        res = _solve_rows(_model(radices_, L_, M_, bidirectional, readings), np.array(loads, dtype=float), tol,
                          max_iter)
    else:
        res = ()
    sat = saturation_load(**kw) if saturation else math.nan
    return CurveResult(
        loads=np.array(loads, dtype=float), latency=np.array([r.latency for r in res], dtype=float),
        source_wait=np.array([r.source_wait for r in res], dtype=float),
        multiplexing=np.array([r.multiplexing for r in res], dtype=float),
        saturated=np.array([r.saturated for r in res], dtype=bool),
        iterations=np.array([r.iterations for r in res], dtype=int), results=res, saturation=sat,
        params=_params(check_radices(radices), L, M, None, bidirectional, readings))
