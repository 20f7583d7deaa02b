"""Numeric solver of the x-Folded TM delay model (eqs. (2), (3), (5), (6), (9)-(11)).

The expressions are those of :mod:`models.xfolded_tm.equations`, lambdified once
per process.  Given the per-dimension average distance ``AD_k`` (an *input*: the
printed Theorem 1, its ``k/3`` reading, or the exact breadth-first-search value
of a topology), the generation rate ``lam`` (messages/node/cycle), the message
length ``M`` (flits) and ``V`` virtual channels, the model is

* eq. (6): channel rate ``lambda_u = lam AD_k / 2`` (``channel_rate="printed"``)
  or ``lam N n AD_k / C`` from the real channel count (``"links"``);
* eq. (9), one position per dimension, counted from the destination:
  ``S_0 = M``, ``S_i = S_{i-1} + AD_k (1 + W_{c_i} P_{b_i})``, ``i = 1..n``;
* the channel of position ``i`` is held for ``S_i`` cycles; its waiting time
  ``W_{c_i}`` is eq. (10) with rate ``lambda_u`` (in place of ``lambda/V``),
  service ``S_i`` and variance term ``(S_i - S_{i-1})^2``; its blocking
  probability ``P_{b_i}`` and multiplexing degree ``Vbar_i`` come from the
  Dally chain with ``rho_i = lambda_u S_i``;
* eq. (11): ``Vbar`` = mean of the per-position degrees (``vbar="mean"``,
  default) or their sum over ``j = 1..n(k-1)`` as printed (``"sum"``; each
  dimension's degree counted ``k-1`` times);
* source waiting ``Wbar``: eq. (10) with rate ``lam / Vbar`` as printed
  (``source_rate="vbar"``) or ``lam / V`` (``"vcs"``), service ``S_n`` and
  variance term ``(S_n - M)^2``;
* eq. (2): delay ``= (S_n + Wbar) Vbar``.

``S_1..S_n`` are found by damped fixed-point iteration.  Saturation
(``lambda_u S_i >= 1`` or ``(lam/Vbar) S_n >= 1``) is a state: ``latency = inf``,
``saturated = True``.

Readings (the paper is ambiguous; the defaults and why):

* ``vbar="mean"``: eq. (11) as printed sums ``n(k-1)`` degrees that are each
  ``>= 1``, so at zero load it gives ``Vbar = n(k-1)`` (14 for ``k = 8``) and a
  delay 14 times the zero-load latency; the paper's curves start near
  ``M + d``, which only the mean gives.
* ``source_rate="vbar"``: as printed (``lambda / Vbar``).
* ``channel_rate="printed"``: as printed; exact for the torus, an underestimate
  for networks with fewer channels than ``4N`` (``"links"`` corrects it).

Units: times in cycles, rates in messages per cycle (per node for ``lam``).
"""

from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ConvergenceError, ParameterError
from ..core.fixed_point import fixed_point, fixed_points, monotone_fixed_point_exists
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import (MAX_DIMENSIONS, MAX_NODES, MAX_RADIX, require, require_choice, require_loads,
                             require_max_iter, require_message_length, require_radix, require_rate, require_tol,
                             require_vcs)

VBAR_READINGS = ("mean", "sum")
SOURCE_RATES = ("vbar", "vcs")
CHANNEL_RATES = ("printed", "links")
AD_SOURCES = ("theorem", "k/3")

#: The load parameter of :func:`solve` (the paper's lambda) and its unit.
LOAD = "lam"
LOAD_UNIT = "messages/node/cycle"

__all__ = [
    "LOAD", "LOAD_UNIT", "XfoldedTmResult", "CurveResult", "solve", "solve_curve", "saturation_load", "theorem1",
    "VBAR_READINGS", "SOURCE_RATES", "CHANNEL_RATES",
]


# ----------------------------------------------------------------------------
# Lambdified equations (built once per process)
# ----------------------------------------------------------------------------
def _build(channel_rate: str) -> dict:
    from .equations import SYMBOLS as s, equations  # SymPy: only when the compiled functions are not on disk

    e = equations()
    return {
        "eq6": ((s.lam, s.AD), e["eq:6"]) if channel_rate == "printed"
        else ((s.lam, s.N, s.n, s.AD, s.C), e["eq:6_links"]),
        "eq9": ((s.S_im1, s.AD, s.W_ci, s.P_bi), e["eq:9"]),
        # arguments (lambda, Vbar, S_j, S_{j-1}); the channel wait passes (lambda_u, 1, S_i, S_{i-1})
        "eq10": ((s.lam, s.Vbar, s.S_j, s.S_jm1), e["eq:10"]),
        "eq2": ((s.S, s.Wbar, s.Vbar), e["eq:2"]),
        "eq5:theorem": ((s.k, s.AD_prev), e["eq:5"]),
        "eq5:k/3": ((s.k, s.AD_prev), e["eq:5_k3"]),
    }


def _fns(channel_rate: str = "printed") -> dict:
    """The lambdified equations, from disk when generated before (no SymPy then)."""
    return compiled("xfolded_tm", functools.partial(_build, channel_rate), channel_rate)


@functools.cache
def _f_eq6(channel_rate: str):
    return _fns(channel_rate)["eq6"]


@functools.cache
def _f_eq9():
    return _fns()["eq9"]


@functools.cache
def _f_eq10():
    return _fns()["eq10"]


@functools.cache
def _f_eq2():
    return _fns()["eq2"]


def _build_channel(V: int) -> dict:
    from .equations import channel_terms  # SymPy: only when the compiled functions are not on disk

    t = channel_terms(V)
    return {"P_b": ((t["rho"],), t["P_b"]), "Vbar_j": ((t["rho"],), t["Vbar_j"])}


@functools.cache
def _f_channel(V: int):
    f = compiled("xfolded_tm:channel", functools.partial(_build_channel, V), V)
    return f["P_b"], f["Vbar_j"]


@functools.cache
def _f_theorem(which: str):
    return _fns()["eq5:theorem" if which == "theorem" else "eq5:k/3"]


def theorem1(k: int, which: str = "theorem") -> float:
    """Theorem 1's ``AD_k`` (hops, per dimension) by its recursion from ``AD_3 = 1``.

    ``which="theorem"``: eq. (5) as printed (below 1 for every ``k >= 4``);
    ``"k/3"``: the reading with the factor ``(k-1)^2 - 1`` (equals ``k/3``).
    """
    k = require_radix("k", k, 3)
    which = require_choice("which", which, AD_SOURCES, unit="reading of Theorem 1")
    f = _f_theorem(which)
    ad = 1.0
    for kk in range(4, k + 1):
        ad = float(f(kk, ad))
    return ad


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class XfoldedTmResult(Result):
    """Mean message delay of eq. (2) and its parts (cycles)."""

    latency: float          # eq. (2): (S + Wbar) Vbar, cycles (inf if saturated)
    network_latency: float  # S = S_n, cycles
    source_wait: float      # Wbar, cycles
    multiplexing: float     # Vbar of eq. (11)
    S: tuple                # S_1..S_n, cycles
    channel_wait: tuple     # W_{c_1}..W_{c_n}, cycles
    blocking: tuple         # P_{b_1}..P_{b_n}
    channel_rate: float     # lambda_u, messages/cycle
    iterations: int
    saturated: bool
    params: dict = field(default_factory=dict)

    @property
    def injection_rate(self) -> float:
        """Offered load in flits/node/cycle (``lam * M``)."""
        return self.params["lam"] * self.params["M"]


@dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` at several generation rates (arrays, one entry per rate)."""

    loads: np.ndarray         # lam, messages/node/cycle
    injection: np.ndarray     # lam * M, flits/node/cycle (the paper's x axis)
    latency: np.ndarray       # cycles (inf past saturation)
    network_latency: np.ndarray
    source_wait: np.ndarray
    multiplexing: np.ndarray
    saturated: np.ndarray
    iterations: np.ndarray
    results: tuple = ()       # the XfoldedTmResult of every rate
    params: dict = field(default_factory=dict)

    def to_frame(self):
        import pandas as pd  # reason: pandas only for this optional view

        return pd.DataFrame({
            "lam": self.loads, "injection": self.injection, "latency": self.latency,
            "network_latency": self.network_latency, "source_wait": self.source_wait,
            "multiplexing": self.multiplexing, "saturated": self.saturated, "iterations": self.iterations,
        })


# ----------------------------------------------------------------------------
# Solver
# ----------------------------------------------------------------------------
def _validate(lam, ad, M, V, k, n, vbar, source_rate, channel_rate, nodes, channels):
    lam = require_rate("lam", lam, positive=False, unit="generation rate, messages/node/cycle")
    ad = require("ad", ad, 0, MAX_RADIX, lo_open=True, unit="average distance per dimension, hops")
    M = require_message_length("M", M)
    V = require_vcs("V", V)
    k = require_radix("k", k, 3)
    n = require("n", n, 1, MAX_DIMENSIONS, unit="dimensions", integer=True)
    require_choice("vbar", vbar, VBAR_READINGS, unit="reading of eq. (11)")
    require_choice("source_rate", source_rate, SOURCE_RATES, unit="rate of the source queue in eq. (10)")
    require_choice("channel_rate", channel_rate, CHANNEL_RATES, unit="eq. (6) as printed or from the channel count")
    if channel_rate == "links":
        if nodes is None or channels is None:
            raise ParameterError("`channel_rate='links'` needs `nodes` and `channels` (the network's counts)")
        nodes = require("nodes", nodes, 2, MAX_NODES, unit="nodes", integer=True)
        channels = require("channels", channels, 1, 2 * MAX_DIMENSIONS * MAX_NODES,
                           unit="unidirectional network channels", integer=True)
    return lam, ad, M, V, k, n, nodes, channels


def _validate_controls(damping, tol, max_iter):
    require("damping", damping, 0, 1, lo_open=True, unit="weight of the new iterate")
    require_tol("tol", tol)
    require_max_iter("max_iter", max_iter)


def solve(
    lam: float,
    /,
    *,
    ad: float,
    M: float = 32,
    V: int = 2,
    k: int = 8,
    n: int = 2,
    vbar: str = "mean",
    source_rate: str = "vbar",
    channel_rate: str = "printed",
    nodes: int | None = None,
    channels: int | None = None,
    damping: float = 0.5,
    tol: float = 1e-11,
    max_iter: int = 20_000,
) -> XfoldedTmResult:
    """Mean message delay (cycles) of the model at generation rate ``lam``.

    Parameters
    ----------
    lam : float
        Generation rate, messages/node/cycle (``>= 0``); the injection rate in
        flits/node/cycle is ``lam * M``.
    ad : float
        Average distance per dimension ``AD_k`` (hops): :func:`theorem1`, or a
        topology's BFS mean distance divided by ``n``.
    M : float
        Message length, flits (the paper's ``L``), ``1 <= M <= 1e6``.
    V : int
        Virtual channels per physical channel (``1 <= V <= 128``).
    k, n : int
        Radix (``3 <= k <= 1024``) and dimensions (``1 <= n <= 16``); ``k`` enters only eq. (11)'s printed sum.
        ``lam`` is 0 or in ``[1e-12, 1e6]``, ``ad`` in ``(0, 1024]``; ``0 < damping <= 1``,
        ``tol >= 1e-15``, ``max_iter <= 1e7`` (sane ranges, :mod:`models.core.validate`).
    vbar, source_rate, channel_rate : str
        Readings (module docstring).
    nodes, channels : int
        Node and unidirectional channel counts, needed by ``channel_rate="links"``.
    """
    lam, ad, M, V, k, n, nodes, channels = _validate(lam, ad, M, V, k, n, vbar, source_rate, channel_rate,
                                                     nodes, channels)
    _validate_controls(damping, tol, max_iter)
    m = _Model(lam, ad, M, V, k, n, vbar, source_rate, channel_rate, nodes, channels)
    S0 = m.S0
    if lam == 0.0:
        return m.finish(S0, 0)
    if np.any(m.lam_u * S0 >= 1.0):
        return m.saturated()
    try:
        # divergence to infinity past saturation is a state, not an error
        fp = fixed_point(m.step, S0, damping=damping, tol=tol, max_iter=max_iter,
                         where="eq. (9) (network latency S_i)",
                         names=[f"S_{i + 1}" for i in range(n)],
                         saturated=lambda S: not np.isfinite(S).all())
    except ConvergenceError as err:
        # the iteration cap reached on the way past saturation (an iterate beyond 1/lambda_u)
        last = np.asarray(err.result, dtype=float) if err.result is not None else S0
        if np.any(m.lam_u * last >= 1.0):
            return m.saturated(err.iterations)
        raise
    if fp.saturated:
        return m.saturated(fp.iterations)
    return m.finish(fp.x, fp.iterations)


class _Model:
    """The model at one generation rate: eqs. (6), (9)-(11), (2) (the body of :func:`solve`)."""

    def __init__(self, lam, ad, M, V, k, n, vbar, source_rate, channel_rate, nodes, channels):
        self.lam, self.ad, self.M, self.V, self.k, self.n = lam, ad, M, V, k, n
        self.vbar, self.source_rate = vbar, source_rate
        self.params = dict(lam=lam, ad=ad, M=M, V=V, k=k, n=n, vbar=vbar, source_rate=source_rate,
                           channel_rate=channel_rate, nodes=nodes, channels=channels)
        self.lam_u = float(_f_eq6("printed")(lam, ad)) if channel_rate == "printed" else float(
            _f_eq6("links")(lam, nodes, n, ad, channels))
        self.f9, self.f10, self.f2 = _f_eq9(), _f_eq10(), _f_eq2()
        self.fPb, self.fVj = _f_channel(V)
        self.S0 = M + ad * np.arange(1, n + 1)

    def saturated(self, it=0):
        inf, n = math.inf, self.n
        return XfoldedTmResult(latency=inf, network_latency=inf, source_wait=inf, multiplexing=float(self.V),
                               S=tuple([inf] * n), channel_wait=tuple([inf] * n), blocking=tuple([1.0] * n),
                               channel_rate=self.lam_u, iterations=it, saturated=True, params=self.params)

    def channel(self, Svec, lam_u=None):
        """``(S_{i-1}, rho, W, P_b)`` per dimension (last axis); ``lam_u`` per row for many rates."""
        lam_u = self.lam_u if lam_u is None else lam_u
        prev = np.empty_like(Svec)
        prev[..., 0] = self.M
        prev[..., 1:] = Svec[..., :-1]
        rho = lam_u * Svec
        if (rho < 1).all():  # the common case: no division by 1 - rho <= 0 to mask
            W = np.asarray(self.f10(lam_u, 1.0, Svec, prev), dtype=float)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                W = np.where(rho < 1, self.f10(lam_u, 1.0, Svec, prev), np.inf)
        Pb = np.asarray(self.fPb(np.minimum(rho, 1.0)), dtype=float)
        if Pb.shape != Svec.shape:
            Pb = Pb * np.ones_like(Svec)
        return prev, rho, W, Pb

    def step(self, Svec, lam_u=None):
        """Eq. (9) for every dimension in turn (the recursion in ``i`` uses the *new* ``S_{i-1}``)."""
        out = np.empty_like(Svec)
        prev_new = self.M
        _, rho, W, Pb = self.channel(Svec, lam_u)
        for idx in range(self.n):
            out[..., idx] = self.f9(prev_new, self.ad, W[..., idx], Pb[..., idx])
            prev_new = out[..., idx]
        return out

    def finish(self, Svec, iters) -> XfoldedTmResult:
        """Eqs. (10), (11), (2) at the solution ``Svec``."""
        lam, V, M = self.lam, self.V, self.M
        if np.any(self.lam_u * Svec >= 1.0):
            return self.saturated(iters)
        _, rho, W, Pb = self.channel(Svec)
        vj = np.asarray(self.fVj(rho), dtype=float) * np.ones_like(Svec)
        if self.vbar == "mean":
            Vb = float(vj.mean())
        else:  # as printed: sum over j = 1..n(k-1), each dimension's degree k-1 times
            Vb = float(vj.sum() * (self.k - 1))
        Sn = float(Svec[-1])
        src_rate_div = Vb if self.source_rate == "vbar" else float(V)
        if lam / src_rate_div * Sn >= 1.0:
            return self.saturated(iters)
        Wb = float(self.f10(lam, src_rate_div, Sn, M)) if lam > 0 else 0.0
        latency = float(self.f2(Sn, Wb, Vb))
        if not (math.isfinite(latency) and latency > 0):
            return self.saturated(iters)
        return XfoldedTmResult(latency=latency, network_latency=Sn, source_wait=Wb, multiplexing=Vb,
                               S=tuple(map(float, Svec)), channel_wait=tuple(map(float, W)),
                               blocking=tuple(map(float, Pb)), channel_rate=self.lam_u, iterations=iters,
                               saturated=False, params=self.params)


def _options(kwargs: dict) -> dict:
    """:func:`solve`'s keyword arguments with its defaults filled in; unknown names and bad controls rejected."""
    opts = {name: p.default for name, p in inspect.signature(solve).parameters.items() if name != "lam"}
    unknown = set(kwargs) - set(opts)
    if unknown:
        raise TypeError(f"solve() got unexpected keyword argument(s) {sorted(unknown)}")
    opts.update(kwargs)
    _validate_controls(opts["damping"], opts["tol"], opts["max_iter"])
    return opts


def _model_at(lam, opts: dict) -> "_Model":
    """The validated :class:`_Model` at generation rate ``lam`` under :func:`_options` ``opts``."""
    lam_, ad, M, V, k, n, nodes, channels = _validate(
        lam, opts["ad"], opts["M"], opts["V"], opts["k"], opts["n"], opts["vbar"], opts["source_rate"],
        opts["channel_rate"], opts["nodes"], opts["channels"])
    return _Model(lam_, ad, M, V, k, n, opts["vbar"], opts["source_rate"], opts["channel_rate"], nodes, channels)


def _solve_rows(lams: np.ndarray, kwargs: dict) -> tuple:
    """:func:`solve` at every rate at once: one :func:`~models.core.fixed_point.fixed_points` over the rows,
    each iterated exactly as :func:`solve` iterates its rate (the same damped steps, tests and outcomes)."""
    opts = _options(kwargs)
    damping, tol, max_iter = opts["damping"], opts["tol"], opts["max_iter"]
    models = [_model_at(lam, opts) for lam in lams]
    out: list = [None] * len(models)
    live = []
    for i, m in enumerate(models):
        if m.lam == 0.0:
            out[i] = m.finish(m.S0, 0)
        elif np.any(m.lam_u * m.S0 >= 1.0):
            out[i] = m.saturated()
        else:
            live.append(i)
    if live:
        m0 = models[live[0]]
        lam_u = np.array([models[i].lam_u for i in live])[:, None]
        fps = fixed_points(lambda S, rows: m0.step(S, lam_u[rows]), np.array([models[i].S0 for i in live]),
                           damping=damping, tol=tol, max_iter=max_iter, where="eq. (9) (network latency S_i)",
                           names=[f"S_{i + 1}" for i in range(m0.n)], raise_on_failure=False,
                           saturated=lambda S, rows: ~np.isfinite(S).all(axis=1))
        for j, i in enumerate(live):
            m, fp = models[i], fps[j]
            if fp.saturated:
                out[i] = m.saturated(fp.iterations)
            elif not fp.converged:
                # solve(): the cap reached on the way past saturation, or a ConvergenceError
                if np.any(m.lam_u * fp.x >= 1.0) or not np.all(np.isfinite(fp.x)):
                    out[i] = m.saturated(fp.iterations)
                else:
                    out[i] = solve(m.lam, **kwargs)  # raises the same ConvergenceError
            else:
                out[i] = m.finish(fp.x, fp.iterations)
    return tuple(out)


def solve_curve(lams, /, **kwargs) -> CurveResult:
    """:func:`solve` at every generation rate of ``lams`` (messages/node/cycle), all rates iterated at once on arrays.

    ``kwargs`` are those of :func:`solve`.  The result also carries
    ``injection = lam * M`` (flits/node/cycle), the x axis of the paper's figure.
    """
    loads = np.asarray(require_loads("lams", lams, lambda v: require_rate("lam", v, positive=False), unit=LOAD_UNIT),
                       dtype=float).ravel()
    res = _solve_rows(loads, kwargs)
    M = res[0].params["M"]
    return CurveResult(
        loads=loads, injection=loads * M,
        latency=np.array([r.latency for r in res]), network_latency=np.array([r.network_latency for r in res]),
        source_wait=np.array([r.source_wait for r in res]), multiplexing=np.array([r.multiplexing for r in res]),
        saturated=np.array([r.saturated for r in res]), iterations=np.array([r.iterations for r in res]),
        results=res, params=dict(kwargs),
    )


def saturation_load(*, rtol: float = 1e-4, **kwargs) -> float:
    """Largest generation rate (messages/node/cycle) with a finite delay, to the relative tolerance ``rtol``.

    :func:`models.core.saturation.find_saturation` on ``solve(lam).saturated``
    over ``[0, 1/M]`` (a node cannot inject more than one flit per cycle); if
    the model is not saturated even at ``1/M``, that bound is returned.
    ``kwargs`` are those of :func:`solve` (``lam`` excluded).
    """
    M = require_message_length("M", kwargs.get("M", 32))
    rtol = require_tol("rtol", rtol)
    return find_saturation(lambda lam: _is_saturated(lam, kwargs), 0.0, 1.0 / M, rtol=rtol, check_hi=True).lo


def _is_saturated(lam: float, kwargs: dict) -> bool:
    r"""``solve(lam, **kwargs).saturated``, decided one dimension at a time without crawling near the fold.

    Eq. (9) is triangular: ``S_i`` depends on ``S_{i-1}`` and on itself only
    (``W_{c_i}`` and ``P_{b_i}`` are functions of ``S_i`` and ``S_{i-1}``), so
    the fixed point of :func:`solve`'s joint iteration is found dimension by
    dimension: given ``S_{i-1}``, ``g(x) = S_{i-1} + AD_k (1 + W(x, S_{i-1}) P_b(x))``
    is non-decreasing in ``x`` (eq. 10's numerator and ``1/(1 - lambda_u x)``
    grow with ``x > S_{i-1}``; ``P_b`` grows with ``rho``), and
    :func:`~models.core.fixed_point.monotone_fixed_point_exists` from
    ``S_{i-1} + AD_k`` (where ``g >= x``) either proves that no fixed point
    exists (the plain iteration passes ``rho = 1``: saturated, as the damped
    iteration of :func:`solve`) or finds a ``u`` with ``g(u) <= u``; the root
    of ``g(x) - x`` on ``[S_{i-1} + AD_k, u]`` (Brent) is then ``S_i``.  With
    every ``S_i``, :meth:`_Model.finish` applies eq. (10) to the source queue
    and eq. (2), as :func:`solve` does.  Where the plain iteration decides
    nothing within its cap, the answer is :func:`solve`'s.
    """
    from scipy.optimize import brentq

    opts = _options(kwargs)
    m = _model_at(lam, opts)
    if m.lam == 0.0:
        return False
    if np.any(m.lam_u * m.S0 >= 1.0):
        return True
    lam_u, f9, f10, fPb, ad, M, n = m.lam_u, m.f9, m.f10, m.fPb, m.ad, m.M, m.n

    def g(x: float, prev: float) -> float:
        rho = lam_u * x
        if not rho < 1.0:
            return math.inf
        return float(f9(prev, ad, f10(lam_u, 1.0, x, prev), fPb(rho)))

    S = np.empty(n)
    prev = float(M)
    for i in range(n):
        x0 = prev + ad
        outcome, x, _ = monotone_fixed_point_exists(lambda v, prev=prev: np.array([g(float(v[0]), prev)]),
                                                    np.array([x0]), tol=opts["tol"], max_iter=opts["max_iter"])
        if outcome == "saturated":
            return True
        if outcome == "undecided":
            return solve(m.lam, **kwargs).saturated
        u = float(x[0])
        if outcome == "certified" and u > x0:
            u = brentq(lambda v, prev=prev: g(v, prev) - v, x0, u, xtol=1e-14 * u, rtol=4 * np.finfo(float).eps)
        S[i] = prev = u
    return m.finish(S, 0).saturated
