"""Numeric solver of the Min-Ferguson-Ould-Khaoua model (2-D torus, Duato's routing, IPP sources).

Every formula is a lambdified expression of :mod:`models.torus_ipp.equations`
(or of the shared modules it takes them from); the sums over hops are NumPy
sums around lambdified terms.

Fixed point (notes/papers.md sec. 2).  The unknown is the mean blocking time
``bbar`` (cycles).  Given ``bbar``:

1. ``tbar = M + d + bbar`` and the higher moments of the channel service
   time ``T = M + d + B``, ``B ~ Exp(1/bbar)`` (eqs. 4, 6, 20-22);
2. the occupancy ``P_0..P_V`` of a channel's virtual channels with rate
   ``lambda_c`` and holding time ``tbar`` (eqs. 27-28);
3. ``P_a``, ``P_a&b`` (eqs. 25-26) and ``P_b_i`` (eqs. 23-24, ``i = 0..d-1``);
4. the mean wait ``w_b`` of the MMPP/G/1 channel queue, arrivals the fitted
   channel MMPP ``(Q_c, Lambda_c)`` (eqs. 13-18), service ``T`` (eq. 19; ``G``
   in closed form for constant plus exponential service);
5. the new ``bbar = sum_i P_b_i w_b`` (eq. 5).

The map ``bbar -> bbar'`` is increasing; the iteration
(:func:`models.core.fixed_point.fixed_point`) starts at ``bbar = 0`` and
takes Newton steps on ``bbar' - bbar`` (its ``update`` hook; slope by a
finite difference; each step is at least the plain iteration's step and,
the map being convex, never passes the smallest fixed point).  When the map
has no fixed point below the channel's saturation (``lambda_c tbar >= 1``)
the network is saturated.  Then the source wait ``w_s`` is the MMPP/G/1
wait with the source's own IPP (rate not divided by ``V``) and the same
service time (eq. 19, Sec. 2.4), the multiplexing degree ``Vbar`` comes
from eq. (29), and the latency is eq. (1).

Saturation is a state: ``latency = inf`` and ``saturated = True`` when
``lambda_c tbar >= 1`` (channel) or ``lambda_s tbar >= 1`` (source queue).

The load is ``mu1`` (:data:`LOAD`), the sources' on-state rate in
messages/node/cycle; the mean generation rate follows from it as
``lambda_s = (mu1 sigma2 + mu2 sigma1) / (sigma1 + sigma2)`` (eq. 9), i.e.
``mu1 sigma2 / (sigma1 + sigma2)`` for the paper's IPP (``mu2 = 0``).
:func:`saturation_load` bisects ``mu1`` with
:func:`models.core.saturation.find_saturation` between 0 and
:func:`saturation_bound`.

Units: cycles, flits, messages/node/cycle (``mu1``, ``lambda_s``),
messages/channel/cycle (``lambda_c``).
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from ..queueing import mmpp_g1 as _q
from ..traffic import fit as _fit
from ..traffic.process import MMPP2, poisson
from ..networks.adaptive_paths import psi as _psi
from ..core.errors import ParameterError
from ..core.fixed_point import Saturated, fixed_point
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import MAX_RATE, require_choice, require_loads, require_max_iter, require_rate, require_tol
from ..queueing.vc_occupancy import multiplexing_degree, occupancy
from .service import service_time as _service_time
from .setups import check_network

#: The chapter's name: the key of its lambdified code on disk and the place named in a convergence error.
CHAPTER = "torus_ipp"
#: The load of the front door: the sources' on-state rate (the paper's x-axis), and its unit.
LOAD = "mu1"
LOAD_UNIT = "messages/node/cycle"

#: The channel MMPP fits (the readings of eq. 26 and the traffics: :mod:`models.torus_ipp.setups`).
FITS = ("hl", "closed")


# ----------------------------------------------------------------------------
# Lambdified equations (generated once, kept on disk: a warm process does not import SymPy)
# ----------------------------------------------------------------------------
def _build() -> dict:
    from .equations import SYMBOLS as S, equations  # SymPy: only to build what compiled() has not stored

    e = equations()
    return {
        "kbar": ((S.k,), e["eq:2"].rhs),
        "n_s": ((S.kbar,), e["eq:13"].rhs),
        "lam_c": ((S.n_s, S.lam_s), e["eq:14"].rhs),
        "moments": ((S.M, S.d, S.bbar), e["eq:6:moments"]),
        "P_a": ((S.V, S.P_V, S.P_V1, S.P_V2), e["eq:25:expanded"].rhs),
        "P_ab:printed": ((S.V, S.P_V, S.P_V1), e["eq:26:expanded"].rhs),
        "P_ab:specific": ((S.V, S.P_V, S.P_V1), e["eq:26:specific:expanded"].rhs),
        "P_b": ((S.P_theta, S.P_a, S.P_ab), e["eq:24"].rhs),
        "latency": ((S.tbar, S.w_s, S.vbar), e["eq:1"].rhs),
    }


@functools.cache
def _fns() -> dict:
    return compiled(CHAPTER, _build)


@functools.lru_cache(maxsize=256)
def kbar_of(k: int) -> float:
    """Mean hops per dimension, eq. (2) (``k/4`` for even ``k``); kept per ``k`` (read many times per solve)."""
    return float(_fns()["kbar"](k))


# ----------------------------------------------------------------------------
# Parameters
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Params:
    """Validated parameters of one operating point.

    k : nodes per dimension of the ``k x k`` bidirectional torus (multiple of 4)
    V : virtual channels per physical channel (>= 3: ``V-2`` adaptive + 2 escape)
    M : message length, flits
    mu1 : on-state generation rate of the IPP, messages/node/cycle (the x-axis)
    sigma1, sigma2 : on->off and off->on switching rates, per cycle
    mu2 : rate in state 2 (0 for an IPP; > 0 gives a general MMPP(2) source)
    traffic : 'ipp' (the paper) or 'poisson' (same mean rate, no burstiness)
    pab : 'printed' (eq. 26 as printed) or 'specific' (``P_V + P_{V-1}/V``)
    fit : 'closed' (closed form for superposed sources, default) or 'hl' (the general
          Heffes-Lucantoni algorithm; identical up to rounding, less accurate at very low load)
    blocking_cv2 : squared coefficient of variation of the blocking time B in the service time
          M + d + B (1: exponential, eqs. 20-22, the paper's; 0: constant; :mod:`models.torus_ipp.service`)
    """

    k: int
    V: int
    M: float
    mu1: float
    sigma1: float
    sigma2: float
    mu2: float = 0.0
    traffic: str = "ipp"
    pab: str = "printed"
    fit: str = "closed"
    blocking_cv2: float = 1.0

    def __post_init__(self):
        # the network and its sources by the chapter's rules, written once (setups.check_network); k and V integers
        checked = check_network(self.k, self.V, self.M, self.sigma1, self.sigma2, self.mu2, self.traffic, self.pab)
        require_rate("mu1", self.mu1, unit="on-state rate, messages/node/cycle")
        require_choice("fit", self.fit, FITS, unit="channel MMPP fit")
        _service_time(1.0, 1.0, self.blocking_cv2)  # checks it
        object.__setattr__(self, "blocking_cv2", float(self.blocking_cv2))
        object.__setattr__(self, "k", checked["k"])
        object.__setattr__(self, "V", checked["V"])

    @property
    def kbar(self) -> int:
        return int(kbar_of(self.k))

    @property
    def d(self) -> int:
        """Mean message distance, eq. (3), hops."""
        return 2 * self.kbar

    @property
    def n_s(self) -> float:
        """Sources whose traffic one channel carries, eq. (13)."""
        return float(_fns()["n_s"](self.kbar))

    @property
    def source_ipp(self) -> MMPP2:
        """The source MMPP(2) (eq. 7) of the bursty traffic."""
        return MMPP2(self.mu1, self.mu2, self.sigma1, self.sigma2)

    @property
    def source(self) -> MMPP2:
        """The source process used: the IPP, or Poisson of the same mean rate."""
        ipp = self.source_ipp
        return ipp if self.traffic == "ipp" else poisson(ipp.mean_rate)

    @property
    def mean_rate(self) -> float:
        """``lambda_s``, eq. (9), messages/node/cycle."""
        return self.source_ipp.mean_rate


@functools.lru_cache(maxsize=4096)
def channel_process(params: Params) -> _fit.FitResult:
    """The MMPP(2) matched to the traffic of one channel, eqs. (13)-(18)."""
    src = params.source
    if params.fit == "closed" or src.is_poisson:
        m = _fit.superposition_closed_form(src, params.n_s)
        return _fit.FitResult(m, True, math.nan, math.nan, src.is_poisson)
    return _fit.fit_superposition(src, params.n_s)


@functools.lru_cache(maxsize=256)
def p_theta(d: int, kbar: int) -> np.ndarray:
    """``P_theta_i``, ``i = 0..d-1`` (eq. 23), from Ould-Khaoua's ``psi_{i,1}`` (models.networks.adaptive_paths)."""
    return np.array([float(_psi(i, 1, 2, kbar)) for i in range(d)])


# ----------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, repr=False)
class TorusIppResult(Result):
    """One operating point of the model (cycles; rates per cycle)."""

    latency: float  # eq. 1; inf if saturated
    network_latency: float  # tbar, eq. 4
    source_wait: float  # w_s, eq. 19 with the source process
    blocking: float  # bbar, eq. 5
    channel_wait: float  # w_b, eq. 19 with the channel process
    multiplexing: float  # Vbar, eq. 29
    rho_channel: float  # lambda_c tbar
    rho_source: float  # lambda_s tbar
    P_a: float  # eq. 25
    P_ab: float  # eq. 26 (reading `pab`)
    P_block: np.ndarray  # P_b_i, i = 0..d-1 (eq. 24)
    rate_source: float  # lambda_s, messages/node/cycle
    rate_channel: float  # lambda_c, messages/channel/cycle
    channel: MMPP2  # fitted channel MMPP (eq. 18)
    iterations: int  # evaluations of the blocking map
    residual: float
    saturated: bool
    saturated_by: str  # "", "channel" or "source"
    params: dict


def _service(p: Params, bbar: float) -> _q.ServiceTime:
    """The service time ``M + d + B`` of a channel and of the source queue (eqs. 4, 6), ``B`` of mean ``bbar``:
    exponential (eqs. 20-22) unless ``p.blocking_cv2`` says otherwise (:func:`models.torus_ipp.service.service_time`)."""
    return _service_time(float(p.M + p.d), float(bbar), p.blocking_cv2)


class _BlockingMap:
    """``bbar -> sum_i P_b_i w_b`` (eqs. 4-6, 19-28) with a warm-started matrix G."""

    def __init__(self, p: Params, channel: MMPP2, theta: np.ndarray):
        self.p, self.channel, self.theta = p, channel, theta
        self.lam_c = channel.mean_rate
        self.QL = _q._mmpp_args(channel)  # (Q, Lambda) validated once, not at every evaluation
        self.G = None
        F = _fns()
        self.P_ab = F["P_ab:" + p.pab]
        self.F = F

    def tbar(self, bbar: float) -> float:
        return float(self.F["moments"](self.p.M, self.p.d, bbar)[0])

    def parts(self, bbar: float) -> dict | None:
        """Everything at ``bbar``; ``None`` when the channel is saturated (``lambda_c tbar >= 1``)."""
        p, F = self.p, self.F
        tb = self.tbar(bbar)
        rho = self.lam_c * tb
        if rho >= 1.0:
            return None
        P = occupancy(p.V, rho)
        Pa = float(F["P_a"](p.V, P[p.V], P[p.V - 1], P[p.V - 2]))
        Pab = float(self.P_ab(p.V, P[p.V], P[p.V - 1]))
        Pb = np.asarray(F["P_b"](self.theta, Pa, Pab), dtype=float)
        r = _q.mmpp_g1(self.QL, _service(p, bbar), G0=self.G)
        if r.saturated:
            return None
        self.G = r.G
        return dict(tbar=tb, rho=rho, P_a=Pa, P_ab=Pab, P_block=Pb, w_b=r.wait, value=float(Pb.sum() * r.wait))

    def __call__(self, bbar: float) -> float:
        out = self.parts(bbar)
        return math.inf if out is None else out["value"]


def _blocking_fixed_point(f: _BlockingMap, bmax: float, tol: float, max_iter: int):
    """Smallest fixed point of the increasing map ``f`` on ``[0, bmax)``; ``None`` if there is none.

    :func:`~models.core.fixed_point.fixed_point` from ``bbar = 0``, converged
    when ``|f(b) - b| <= tol max(1, b)`` (the result is ``f(b)``), with a
    Newton step on ``f(b) - b`` as its ``update`` hook.  Saturated (no fixed
    point) when ``f`` is not finite (``lambda_c tbar >= 1``), when the map
    rises at least as fast as the diagonal while still above it, or when the
    steps reach ``bmax``.

    Returns ``(bbar, evaluations of f, |last step|)`` or ``(None, evaluations, inf)``.
    """
    evals = 0

    def F(x: np.ndarray) -> np.ndarray:
        nonlocal evals
        evals += 1
        v = f(float(x[0]))
        if not math.isfinite(v):
            raise Saturated("channel (lambda_c tbar >= 1)")
        return np.array([v])

    def newton(x: np.ndarray, fx: np.ndarray) -> np.ndarray:
        b, fb = float(x[0]), float(fx[0])
        step = fb - b  # >= 0 left of the fixed point
        h = max(1e-7 * max(1.0, b), 1e-3 * step)
        fh = float(F(np.array([b + h]))[0])
        slope = (fh - fb) / h
        if slope >= 1.0:
            # the map rises faster than the diagonal right of b: the gap fb - b only
            # grows (convex map), so there is no fixed point before saturation
            if step > 0:
                raise Saturated("no fixed point of eq. 5 below the channel's saturation")
            new = fb
        else:
            new = max(b + step / (1.0 - slope), fb)  # never less than the plain step
        if new >= bmax:
            new = 0.5 * (b + bmax) if fb < bmax else bmax
            if new >= bmax * (1 - 1e-12):
                raise Saturated("channel (lambda_c tbar >= 1)")
        return np.array([new])

    fp = fixed_point(F, [0.0], damping=1.0, tol=tol, max_iter=max_iter, where=f"{CHAPTER} blocking time bbar (eq. 5)",
                     names=("bbar",), relative_to="old", scale_tol=True, update=newton)
    if fp.saturated:
        return None, evals, math.inf
    return float(fp.x[0]), evals, fp.change


def solve(mu1: float, /, *, k: int = 16, V: int = 3, M: float = 48, sigma1: float = 0.2, sigma2: float = 0.8,
          mu2: float = 0.0, traffic: str = "ipp", pab: str = "printed", fit: str = "closed",
          blocking_cv2: float = 1.0, tol: float = 1e-10, max_iter: int = 500) -> TorusIppResult:
    """Mean message latency of the model at one load (eqs. 1-29).

    Parameters
    ----------
    mu1 : float
        The load: the sources' on-state rate, messages/node/cycle (the paper's
        x-axis).  The mean rate is ``lambda_s = (mu1 sigma2 + mu2 sigma1) /
        (sigma1 + sigma2)`` (eq. 9).
    k : int
        Nodes per dimension of the ``k x k`` bidirectional torus (a multiple of 4, ``<= 1024``).
    V : int
        Virtual channels per physical channel, ``3 <= V <= 128``.
    M : float
        Message length, flits, ``1 <= M <= 1e6``.
    sigma1, sigma2 : float
        Switching rates on->off and off->on, per cycle, in ``[1e-12, 1e6]`` (as ``mu1``;
        ``mu2`` is 0 or in that range): the sane ranges of :mod:`models.core.validate`.
    mu2 : float
        Rate in state 2 (0: IPP).
    traffic : {'ipp', 'poisson'}
        ``'poisson'``: Poisson sources of the same mean rate ``lambda_s`` (eq. 9).
    pab : {'printed', 'specific'}
        Reading of eq. (26).
    fit : {'closed', 'hl'}
        Channel MMPP by the closed form for superposed identical sources
        (default) or the general Heffes-Lucantoni algorithm; they are equal
        up to rounding (tested), the closed form is exact at any load.
    blocking_cv2 : float
        Squared coefficient of variation of the blocking time ``B`` in the channel service time ``M + d + B``
        (eqs. 4, 6): 1, the exponential of eqs. (20)-(22) (the paper's); 0, a constant; any value in
        ``[0, 1000]`` by a two-moment phase-type fit (:mod:`models.torus_ipp.service`).  A test of the
        paper's approximation, not a reading of the paper.
    tol : float
        Relative tolerance on ``bbar``.
    max_iter : int
        Most Newton steps of the blocking fixed point.

    Returns
    -------
    TorusIppResult
        ``latency = inf``, ``saturated = True`` past saturation.

    Raises
    ------
    ParameterError
        Invalid parameters (``V < 3``, ``sigma <= 0``, ``mu1 <= 0``, ``k`` not a
        multiple of 4, ...).
    ConvergenceError
        If the blocking fixed point does not settle in ``max_iter`` Newton steps.
    """
    p = Params(k=k, V=V, M=M, mu1=mu1, sigma1=sigma1, sigma2=sigma2, mu2=mu2, traffic=traffic, pab=pab, fit=fit,
               blocking_cv2=blocking_cv2)
    tol, max_iter = require_tol("tol", tol), require_max_iter("max_iter", max_iter)
    return _solve(p, tol=tol, max_iter=max_iter)


def _solve(p: Params, *, tol: float = 1e-10, max_iter: int = 500) -> TorusIppResult:
    fitres = channel_process(p)
    chan = fitres.mmpp
    src = p.source
    lam_s = src.mean_rate
    lam_c = float(_fns()["lam_c"](p.n_s, lam_s))
    theta = p_theta(p.d, p.kbar)
    f = _BlockingMap(p, chan, theta)
    bmax = 1.0 / lam_c - (p.M + p.d)  # lambda_c tbar = 1
    params = {name: getattr(p, name) for name in Params.__dataclass_fields__}  # = asdict(p): scalar fields
    nan, inf = math.nan, math.inf

    def saturated(by, evals=0):
        return TorusIppResult(latency=inf, network_latency=inf, source_wait=inf, blocking=inf, channel_wait=inf,
                              multiplexing=float(p.V), rho_channel=1.0, rho_source=nan, P_a=nan, P_ab=nan,
                              P_block=np.full(p.d, nan), rate_source=lam_s, rate_channel=lam_c, channel=chan,
                              iterations=evals, residual=inf, saturated=True, saturated_by=by, params=params)

    if bmax <= 0:
        return saturated("channel")
    b, evals, res = _blocking_fixed_point(f, bmax, tol, max_iter)
    if b is None:
        return saturated("channel", evals)
    parts = f.parts(b)
    if parts is None:
        return saturated("channel", evals)
    svc = _service(p, b)
    tb = parts["tbar"]
    rs = _q.mmpp_g1(src, svc)
    if rs.saturated:
        return saturated("source", evals)
    vb = float(multiplexing_degree(p.V, parts["rho"]))
    lat = float(_fns()["latency"](tb, rs.wait, vb))
    return TorusIppResult(latency=lat, network_latency=tb, source_wait=rs.wait, blocking=b, channel_wait=parts["w_b"],
                          multiplexing=vb, rho_channel=parts["rho"], rho_source=rs.rho, P_a=parts["P_a"],
                          P_ab=parts["P_ab"], P_block=parts["P_block"], rate_source=lam_s, rate_channel=lam_c,
                          channel=chan, iterations=evals, residual=res, saturated=False, saturated_by="",
                          params=params)


# ----------------------------------------------------------------------------
# Curves and the saturation point
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """The model along a sweep of ``mu1`` (arrays aligned with ``loads``; cycles).

    loads : the ``mu1`` values, messages/node/cycle
    mean_rate : ``lambda_s`` at each load (eq. 9), messages/node/cycle
    latency, network_latency, source_wait, blocking, multiplexing : as in :class:`TorusIppResult`
    saturated, iterations : per load
    results : the :class:`TorusIppResult` of every load
    """

    loads: np.ndarray
    mean_rate: np.ndarray
    latency: np.ndarray
    network_latency: np.ndarray
    source_wait: np.ndarray
    blocking: np.ndarray
    multiplexing: np.ndarray
    saturated: np.ndarray
    iterations: np.ndarray
    results: tuple

    def to_frame(self):
        import pandas as pd  # optional here: the solver itself does not need pandas

        return pd.DataFrame({f: getattr(self, f) for f in ("loads", "mean_rate", "latency", "network_latency",
                                                              "source_wait", "blocking", "multiplexing",
                                                              "saturated", "iterations")})


class _BlockingRows:
    """:class:`_BlockingMap` for many loads at once (one row per load, same ``k, V, M, d``, readings).

    Every row is evaluated as :class:`_BlockingMap` evaluates its load: the
    same formulas element by element, its own warm-started matrix ``G``.
    """

    def __init__(self, ps: list, chans: list, theta: np.ndarray):
        p0 = ps[0]
        self.p, self.theta = p0, theta
        QL = [_q._mmpp_args(ch) for ch in chans]
        self.Q = np.array([ql[0] for ql in QL])
        self.L = np.array([ql[1] for ql in QL])
        self.lam_c = np.array([ch.mean_rate for ch in chans])
        self.G = np.array(np.broadcast_to(np.eye(2), (len(ps), 2, 2)), dtype=float)
        self.F = _fns()
        self.P_ab = self.F["P_ab:" + p0.pab]

    def parts(self, rows: np.ndarray, bbar: np.ndarray) -> dict:
        """The map's pieces at ``bbar`` (one per row of ``rows``); ``ok`` False where :class:`_BlockingMap`
        gives ``None`` (channel saturated); ``G`` of the ``ok`` rows advanced."""
        p, F = self.p, self.F
        tb = np.asarray(F["moments"](p.M, p.d, bbar)[0], dtype=float) * np.ones(rows.size)
        rho = self.lam_c[rows] * tb
        ok = rho < 1.0
        n = rows.size
        out = dict(tbar=tb, rho=rho, P_a=np.full(n, np.nan), P_ab=np.full(n, np.nan),
                   P_block=np.full((n, self.theta.size), np.nan), w_b=np.full(n, np.inf), value=np.full(n, np.inf))
        if ok.any():
            i = np.flatnonzero(ok)
            P = occupancy(p.V, rho[i])
            Pa = np.asarray(F["P_a"](p.V, P[:, p.V], P[:, p.V - 1], P[:, p.V - 2]), dtype=float) * np.ones(i.size)
            Pab = np.asarray(self.P_ab(p.V, P[:, p.V], P[:, p.V - 1]), dtype=float) * np.ones(i.size)
            Pb = np.asarray(F["P_b"](self.theta[None, :], Pa[:, None], Pab[:, None]), dtype=float)
            Pb = Pb * np.ones((i.size, self.theta.size))
            r = rows[i]
            svc_c = float(p.M + p.d)
            lam_ = (self.L[r, 0, 0] * self.Q[r, 1, 0] + self.L[r, 1, 1] * self.Q[r, 0, 1]) / (self.Q[r, 0, 1] + self.Q[r, 1, 0])
            fine = lam_ * (svc_c + bbar[i]) < 1.0  # mmpp_g1's own saturation test
            i, r, Pa, Pab, Pb = i[fine], r[fine], Pa[fine], Pab[fine], Pb[fine]
            ok[:] = False
            ok[i] = True
            if i.size:
                w, G, _ = _q.mmpp_g1_rows(self.Q[r], self.L[r], svc_c, bbar[i], self.G[r])
                self.G[r] = G
                out["P_a"][i], out["P_ab"][i], out["P_block"][i], out["w_b"][i] = Pa, Pab, Pb, w
                out["value"][i] = Pb.sum(axis=1) * w
        out["ok"] = ok
        return out


def _solve_rows(ps: list, *, tol: float = 1e-10, max_iter: int = 500) -> tuple:
    """:func:`_solve` at every :class:`Params` of ``ps`` (same but ``mu1``) at once: the Newton iteration of
    :func:`_blocking_fixed_point` on all loads together, each row stepped, tested and stopped as
    :func:`_solve` steps its load (same evaluations of the map, hence the same ``iterations``).  A blocking
    time other than exponential (``blocking_cv2 != 1``) is solved load by load (:func:`_solve`)."""
    if ps and ps[0].blocking_cv2 != 1.0:
        return tuple(_solve(p, tol=tol, max_iter=max_iter) for p in ps)
    n = len(ps)
    p0 = ps[0]
    fits = [channel_process(p) for p in ps]
    chans = [f.mmpp for f in fits]
    srcs = [p.source for p in ps]
    lam_s = np.array([s_.mean_rate for s_ in srcs])
    F = _fns()
    lam_c = np.array([float(F["lam_c"](p.n_s, ls)) for p, ls in zip(ps, lam_s)])
    theta = p_theta(p0.d, p0.kbar)
    bmax = 1.0 / lam_c - (p0.M + p0.d)
    f = _BlockingRows(ps, chans, theta)
    x = np.zeros(n)
    evals = np.zeros(n, dtype=int)
    state = np.where(bmax <= 0, 2, 0)  # 0 iterating, 1 converged, 2 saturated (channel)
    b_out = np.full(n, np.nan)
    change = np.full(n, np.inf)
    active = np.flatnonzero(state == 0)
    for _ in range(max_iter):
        if active.size == 0:
            break
        evals[active] += 1
        pa = f.parts(active, x[active])
        fx = pa["value"]
        sat = ~pa["ok"]
        state[active[sat]] = 2
        xa = x[active]
        step_abs = np.abs(fx - xa)
        done = ~sat & (step_abs <= tol * np.maximum(1.0, np.abs(xa)))
        state[active[done]] = 1
        b_out[active[done]] = fx[done]
        change[active[done]] = step_abs[done]
        go = ~sat & ~done
        rows, b, fb = active[go], xa[go], fx[go]
        if rows.size == 0:
            active = rows
            break
        # the Newton update of _blocking_fixed_point, row by row
        stp = fb - b
        h = np.maximum(1e-7 * np.maximum(1.0, b), 1e-3 * stp)
        evals[rows] += 1
        ph = f.parts(rows, b + h)
        fh = ph["value"]
        sat_h = ~ph["ok"]
        with np.errstate(all="ignore"):
            slope = (fh - fb) / h
            new = np.where(slope >= 1.0, fb, np.maximum(b + stp / (1.0 - slope), fb))
        bad = sat_h | ((slope >= 1.0) & (stp > 0))
        bm = bmax[rows]
        over = ~bad & (new >= bm)
        new = np.where(over, np.where(fb < bm, 0.5 * (b + bm), bm), new)
        bad |= over & (new >= bm * (1 - 1e-12))
        state[rows[bad]] = 2
        x[rows[~bad]] = new[~bad]
        active = rows[~bad]
    out: list = [None] * n
    for i in active:  # max_iter reached: _solve raises its ConvergenceError
        out[i] = _solve(ps[i], tol=tol, max_iter=max_iter)
    conv = np.flatnonzero(state == 1)
    fin = None
    if conv.size:
        fin = f.parts(conv, b_out[conv])
    nan, inf = math.nan, math.inf
    params = [{name: getattr(p, name) for name in Params.__dataclass_fields__} for p in ps]

    def saturated(i, by):
        p = ps[i]
        return TorusIppResult(latency=inf, network_latency=inf, source_wait=inf, blocking=inf, channel_wait=inf,
                              multiplexing=float(p.V), rho_channel=1.0, rho_source=nan, P_a=nan, P_ab=nan,
                              P_block=np.full(p.d, nan), rate_source=float(lam_s[i]), rate_channel=float(lam_c[i]),
                              channel=chans[i], iterations=int(evals[i]), residual=inf, saturated=True,
                              saturated_by=by, params=params[i])

    for i in np.flatnonzero(state == 2):
        out[i] = saturated(i, "channel")
    if fin is not None:
        ok = fin["ok"]
        for j in np.flatnonzero(~ok):
            out[conv[j]] = saturated(conv[j], "channel")
        j = np.flatnonzero(ok)
        rows = conv[j]
        svc_c = float(p0.M + p0.d)
        b = b_out[rows]
        QL = [_q._mmpp_args(srcs[i]) for i in rows]
        Qs, Ls = np.array([q[0] for q in QL]), np.array([q[1] for q in QL])
        lam_src = (Ls[:, 0, 0] * Qs[:, 1, 0] + Ls[:, 1, 1] * Qs[:, 0, 1]) / (Qs[:, 0, 1] + Qs[:, 1, 0])
        fine = lam_src * (svc_c + b) < 1.0
        for jj in np.flatnonzero(~fine):
            out[rows[jj]] = saturated(rows[jj], "source")
        j, rows, b = j[fine], rows[fine], b[fine]
        if rows.size:
            ws, _, rho_s = _q.mmpp_g1_rows(Qs[fine], Ls[fine], svc_c, b)
            rho = fin["rho"][j]
            vb = np.asarray(multiplexing_degree(p0.V, rho), dtype=float) * np.ones(rows.size)
            tb = fin["tbar"][j]
            lat = np.asarray(F["latency"](tb, ws, vb), dtype=float) * np.ones(rows.size)
            for t, i in enumerate(rows):
                out[i] = TorusIppResult(
                    latency=float(lat[t]), network_latency=float(tb[t]), source_wait=float(ws[t]),
                    blocking=float(b[t]), channel_wait=float(fin["w_b"][j[t]]), multiplexing=float(vb[t]),
                    rho_channel=float(rho[t]), rho_source=float(rho_s[t]), P_a=float(fin["P_a"][j[t]]),
                    P_ab=float(fin["P_ab"][j[t]]), P_block=fin["P_block"][j[t]].copy(), rate_source=float(lam_s[i]),
                    rate_channel=float(lam_c[i]), channel=chans[i], iterations=int(evals[i]),
                    residual=float(change[i]), saturated=False, saturated_by="", params=params[i])
    return tuple(out)


def solve_curve(mu1_values, /, **params) -> CurveResult:
    """:func:`solve` at every ``mu1`` of ``mu1_values`` (messages/node/cycle); ``params`` as for :func:`solve`.

    The loads are solved together (:func:`_solve_rows`: every load iterated
    as :func:`solve` iterates it; tested point by point).
    """
    mu = np.asarray(require_loads("mu1_values", mu1_values, lambda v: require_rate("mu1", v), unit=LOAD_UNIT),
                    dtype=float)
    opts, tol, max_iter = _solve_options(params)
    ps = [Params(mu1=float(m), **opts) for m in mu]
    res = _solve_rows(ps, tol=tol, max_iter=max_iter)
    col = lambda name: np.array([getattr(r, name) for r in res], dtype=float)  # noqa: E731
    return CurveResult(loads=mu, mean_rate=col("rate_source"), latency=col("latency"),
                       network_latency=col("network_latency"), source_wait=col("source_wait"),
                       blocking=col("blocking"), multiplexing=col("multiplexing"),
                       saturated=np.array([r.saturated for r in res]),
                       iterations=np.array([r.iterations for r in res]), results=res)


def _solve_options(params: dict) -> tuple[dict, float, int]:
    """:func:`solve`'s keyword arguments with its defaults filled in (``mu1`` excluded), split into the
    :class:`Params` fields and the checked iteration controls ``tol``, ``max_iter`` (the curve and the
    saturation search iterate every load as :func:`solve` would)."""
    import inspect

    opts = {name: q.default for name, q in inspect.signature(solve).parameters.items() if name != "mu1"}
    unknown = set(params) - set(opts)
    if unknown:
        raise TypeError(f"solve() got unexpected keyword argument(s) {sorted(unknown)}")
    opts.update(params)
    return opts, require_tol("tol", opts.pop("tol")), require_max_iter("max_iter", opts.pop("max_iter"))


def saturation_bound(**params) -> float:
    """``mu1`` at which ``lambda_c (M + d) = 1`` (no blocking): an upper bound of the saturation load.

    ``params`` as for :func:`solve`, with its defaults for those omitted (those
    that are not :class:`Params` fields, and ``mu1``, are ignored); needs an
    IPP source (``mu2 = 0``).
    """
    params = {k: v for k, v in params.items() if k != "mu1"}
    opts, _, _ = _solve_options(params)
    cfg = {k: v for k, v in opts.items() if k in Params.__dataclass_fields__}
    cfg["mu1"] = 1.0
    p = Params(**cfg)
    per_mu = p.mean_rate / p.mu1 if p.mu2 == 0 else None
    if per_mu is None:
        raise ParameterError("saturation_bound needs an IPP source (mu2 = 0)")
    return 1.0 / (p.n_s * (p.M + p.d) * per_mu)


def saturation_load(*, rtol: float = 1e-6, **params) -> float:
    """The model's saturation point: the largest ``mu1`` (messages/node/cycle) with a finite latency.

    :func:`models.core.saturation.find_saturation` between 0 and
    :func:`saturation_bound` (the model's latency is finite below a single
    threshold), to the relative bracket width ``rtol``; returns the bracket's
    lower end (not saturated).  ``params`` are the keyword arguments of
    :func:`solve`.
    """
    if "mu1" in params:
        raise ParameterError("saturation_load finds `mu1`; do not pass it")
    opts, tol, max_iter = _solve_options(params)
    rtol = require_tol("rtol", rtol)
    hi = saturation_bound(**params)
    if hi > MAX_RATE:
        raise ParameterError(
            f"`sigma2` / (`sigma1` + `sigma2`) is so small that the saturation on-rate `mu1` would exceed {MAX_RATE} "
            f"messages/node/cycle (saturation_bound = {hi:.3g}); got {params!r}")
    return find_saturation(lambda m: _is_saturated(Params(mu1=m, **opts), tol, max_iter), 0.0, hi, rtol=rtol).lo


def _is_saturated(p: Params, tol: float, max_iter: int) -> bool:
    """``_solve(p, tol=tol, max_iter=max_iter).saturated`` without what only the latency needs.

    :func:`_solve` is saturated when the blocking fixed point is (the same
    :func:`_blocking_fixed_point` here), or at that fixed point ``b`` when
    ``_BlockingMap.parts(b)`` is ``None`` or the source queue is saturated.
    ``parts`` is ``None`` exactly when ``lambda_c tbar >= 1`` or when
    :func:`~models.queueing.mmpp_g1.mmpp_g1` of the channel reports
    saturation, which it does exactly when its ``rho = lambda (M + d + b) >= 1``
    (before computing ``G``); the source queue likewise.  So these are tested
    as utilisations, and the final ``G`` iterations, the source wait and the
    result are skipped (tested equal to ``solve(...).saturated``).
    """
    chan = channel_process(p).mmpp
    src = p.source
    lam_c = float(_fns()["lam_c"](p.n_s, src.mean_rate))
    bmax = 1.0 / lam_c - (p.M + p.d)
    if bmax <= 0:
        return True
    f = _BlockingMap(p, chan, p_theta(p.d, p.kbar))
    b, _, _ = _blocking_fixed_point(f, bmax, tol, max_iter)
    if b is None or f.lam_c * f.tbar(b) >= 1.0:  # parts(b): the channel MMPP's rate times tbar
        return True

    def rho(process) -> float:  # mmpp_g1's utilisation test, the same function
        return _q.mean_arrival_rate(*_q._mmpp_args(process)) * _service(p, b).mean

    return bool(rho(chan) >= 1.0 or rho(src) >= 1.0)
