"""MMPP/G/1 mean waiting time (Fischer & Meier-Hellstern 1993, "the MMPP cookbook"; torus_ipp eq. 19).

Arrivals: a two-state MMPP with generator Q = [[-delta1, delta1], [delta2, -delta2]] and rates
Lambda = diag(lambda1, lambda2) (per cycle); service times i.i.d. with
distribution H (cycles), first two moments h1, h2.  FIFO, one server.

Mean wait at arrival instants (the paper's eq. 19)::

  W_v = [2 rho + lambda h2 - 2 h1 ((1-rho) g + h1 pi Lambda)(Q + e pi)^{-1} lambda~] / (2 (1-rho))
  W   = (W_v - lambda h2 / 2) / rho

W_v is the time-average (virtual) wait; the second line is the workload
identity E[work] = rho W + lambda h2 / 2.  g is the stationary vector of
the matrix G, the minimal non-negative solution of
G = int_0^inf exp((Q - Lambda + Lambda G) x) dH(x), computed either by
uniformisation for any H whose Poisson weights
gamma_n = int e^{-theta x}(theta x)^n/n! dH(x) are known (Lucantoni's
algorithm, :func:`mmpp_g_matrix` with method="uniformization"), or from
the matrix Laplace-Stieltjes transform, G = H*(-(Q - Lambda + Lambda G)),
in closed form for constant, exponential, constant-plus-exponential,
Erlang and discrete service (method="closed").  For Poisson input
(lambda1 = lambda2) both W and W_v reduce to Pollaczek-Khinchine
(checked symbolically in the tests).

Saturation (``rho >= 1``) gives ``inf``, never a negative wait.
"""

from __future__ import annotations

import dataclasses as _dc
import functools
import math as _math

import numpy as np

from ..core.fixed_point import fixed_point
from ..core.errors import ConvergenceError
from ..core.errors import ParameterError as _ParameterError
from ..core.results import Result as _Result
from ..core.symbolic import compiled
from ..core.validate import require as _require
from ..core.validate import require_choice as _require_choice


@functools.cache
def _symbols() -> tuple:
    """``(delta_1, delta_2, lambda_1, lambda_2, g_1, tbar, tbar^(2))`` (SymPy, imported here: the
    numeric wait below loads its generated code without SymPy)."""
    import sympy as sp

    d1, d2 = sp.symbols("delta_1 delta_2", positive=True)
    l1, l2 = sp.symbols("lambda_1 lambda_2", nonnegative=True)
    g1 = sp.Symbol("g_1", nonnegative=True)
    h1, h2 = sp.symbols("tbar tbar^{(2)}", positive=True)
    return d1, d2, l1, l2, g1, h1, h2


@functools.cache
def mmpp_equations() -> dict:
    """SymPy form of the MMPP(2)/G/1 mean wait (torus_ipp eq. 19).

    Keys: ``"Wv"`` (virtual wait), ``"W"`` (wait at arrival instants), both
    in ``delta_1, delta_2, lambda_1, lambda_2, g_1, tbar, tbar^(2)``
    (``g = (g_1, 1 - g_1)``); ``"rho"``; ``"matrices"`` (Q, Lambda, pi, g, e).
    """
    import sympy as sp

    _d1, _d2, _l1, _l2, _g1, _h1, _h2 = _symbols()
    Q = sp.Matrix([[-_d1, _d1], [_d2, -_d2]])
    L = sp.diag(_l1, _l2)
    pi = sp.Matrix([[_d2, _d1]]) / (_d1 + _d2)
    e = sp.Matrix([1, 1])
    lt = L * e
    g = sp.Matrix([[_g1, 1 - _g1]])
    lam_ = (pi * lt)[0]
    rho_ = lam_ * _h1
    inner = (((1 - rho_) * g + _h1 * pi * L) * (Q + e * pi).inv() * lt)[0]
    Wv = (2 * rho_ + lam_ * _h2 - 2 * _h1 * inner) / (2 * (1 - rho_))
    W = (sp.Symbol("W_v") - lam_ * _h2 / 2) / rho_
    W_full = W.subs(sp.Symbol("W_v"), Wv)
    return {
        "Wv": sp.Eq(sp.Symbol("W_v"), Wv),
        "W": sp.Eq(sp.Symbol("W"), W_full),
        "W:printed": sp.Eq(sp.Symbol("W"), W),
        "rho": rho_,
        "lambda": lam_,
        "matrices": {"Q": Q, "Lambda": L, "pi": pi, "g": g, "e": e},
    }


def mean_arrival_rate(Q, L):
    """Stationary mean arrival rate of an MMPP(2) (arrivals/cycle): ``(l1 d2 + l2 d1) / (d1 + d2)``.

    ``Q`` the generator (``d1 = Q[0, 1]``, ``d2 = Q[1, 0]``), ``L`` the rate
    matrix (``l1 = L[0, 0]``, ``l2 = L[1, 1]``); shapes ``(2, 2)`` or
    ``(n, 2, 2)`` (one rate per row).  The one place this is written: the
    utilisation ``rho = mean_arrival_rate * mean service`` of every
    saturation test here and in the chapters follows from it.
    """
    d1, d2, l1, l2 = Q[..., 0, 1], Q[..., 1, 0], L[..., 0, 0], L[..., 1, 1]
    return (l1 * d2 + l2 * d1) / (d1 + d2)


def _mmpp_args(arrival):
    """(Q, Lam) 2x2 float arrays from an object with ``Q``/``Lambda`` or a pair."""
    if hasattr(arrival, "Q") and hasattr(arrival, "Lambda"):
        Q, L = arrival.Q, arrival.Lambda
    else:
        Q, L = arrival
    Q = np.asarray(Q, dtype=float)
    L = np.asarray(L, dtype=float)
    if Q.shape != (2, 2) or L.shape != (2, 2):
        raise _ParameterError(f"`arrival` must be a two-state MMPP (2x2 Q and Lambda); got shapes {Q.shape}, {L.shape}")
    # np.allclose(Q.sum(axis=1), 0) on two rows, as floats (this check runs on every solve of the torus model)
    if not (Q[0, 1] > 0 and Q[1, 0] > 0) or not (abs(Q[0, 0] + Q[0, 1]) <= 1e-8 and abs(Q[1, 0] + Q[1, 1]) <= 1e-8):
        raise _ParameterError(f"`arrival` Q must be a generator with positive off-diagonal rates; got {Q.tolist()}")
    if not (L[0, 0] >= 0 and L[1, 1] >= 0) or L[0, 0] + L[1, 1] <= 0 or L[0, 1] != 0 or L[1, 0] != 0:
        raise _ParameterError(f"`arrival` Lambda must be diagonal with rates >= 0, not all 0; got {L.tolist()}")
    return Q, L


def expm2(A: np.ndarray) -> np.ndarray:
    """``exp(A)`` of a real 2x2 matrix by Sylvester's formula (no LAPACK call; falls back to SciPy otherwise).

    With ``a = tr A / 2`` and ``D = sqrt(a^2 - det A)`` (possibly imaginary),
    ``exp(A) = e^a cosh(D) I + e^a sinh(D)/D (A - a I)``, written with
    ``e^{a-D}`` and ``expm1(2D)`` so that it neither overflows nor cancels.
    """
    A = np.asarray(A, dtype=float)
    if A.shape != (2, 2):
        from scipy.linalg import expm

        return expm(A)
    a = 0.5 * (A[0, 0] + A[1, 1])
    det = A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]
    D = np.sqrt(complex(a * a - det))
    if D.real < 0:
        D = -D
    x = 2 * D
    if x.real > 30:  # well separated eigenvalues: no cancellation, avoid expm1 overflow
        hi, lo = np.exp(a + D), np.exp(a - D)
        ch, sh_d = (hi + lo) / 2, (hi - lo) / x
    else:
        lo = np.exp(a - D)
        em1 = np.expm1(x) if abs(x) > 1e-5 else x * (1 + x / 2 * (1 + x / 3 * (1 + x / 4)))
        ch = lo * (1 + em1 / 2)  # e^a cosh(D) = e^{a-D}(e^{2D} + 1)/2
        sh_d = lo * em1 / x if abs(x) > 0 else np.exp(a) + 0j  # e^a sinh(D)/D
    out = ch * _I2 + sh_d * (A - a * _I2)
    return out.real


_I2 = np.eye(2)
_I2.flags.writeable = False


def _inv2(A: np.ndarray) -> np.ndarray:
    det = A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]
    return np.array([[A[1, 1], -A[0, 1]], [-A[1, 0], A[0, 0]]]) / det


def _expm(A):
    if A.shape == (2, 2):
        return expm2(A)
    from scipy.linalg import expm

    return expm(A)


def _inv(A):
    return _inv2(A) if A.shape == (2, 2) else np.linalg.inv(A)


# ----------------------------------------------------------------------------
# Service-time distributions (cycles)
# ----------------------------------------------------------------------------
def _poisson_pmf(n, mean):
    from scipy.stats import poisson as _p

    return _p.pmf(n, mean)


@_dc.dataclass(frozen=True)
class ServiceTime:
    """Base class: a service-time distribution with moments, matrix LST and Poisson weights."""

    @property
    def mean(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def second_moment(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def matrix_lst(self, A: np.ndarray) -> np.ndarray:
        """``E[exp(A X)]`` for a matrix ``A`` (the LST at ``-A``)."""
        raise NotImplementedError(f"{type(self).__name__} has no closed-form matrix LST")

    def poisson_weights(self, theta: float, n: int) -> np.ndarray:
        """``gamma_j = E[e^{-theta X} (theta X)^j / j!]``, ``j = 0..n-1``."""
        raise NotImplementedError

    def weights(self, theta: float, eps: float = 1e-15) -> np.ndarray:
        """Poisson weights up to the index where their sum exceeds ``1 - eps``."""
        n = int(theta * self.mean + 10 * _math.sqrt(theta * theta * self.second_moment + 1.0) + 20)
        while True:
            w = self.poisson_weights(theta, n)
            c = np.cumsum(w)
            # done when the mass is reached, or (rounding) when the tail is negligible past the mean
            tail_small = n > theta * self.mean and w[-1] * n < 1e-3 * eps
            if c[-1] >= 1.0 - eps or tail_small or n > 10_000_000:
                target = min(1.0 - eps, c[-1] * (1.0 - 4e-16))
                stop = int(np.searchsorted(c, target)) + 1
                return w[: max(1, min(stop, n))]
            n *= 2

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


@_dc.dataclass(frozen=True)
class Deterministic(ServiceTime):
    """Constant service time ``c`` (cycles)."""

    c: float

    def __post_init__(self):
        _require("c", self.c, 0, lo_open=True, unit="service time, cycles")

    mean = property(lambda self: float(self.c))
    second_moment = property(lambda self: float(self.c) ** 2)

    def matrix_lst(self, A):
        return _expm(self.c * A)

    def poisson_weights(self, theta, n):
        return _poisson_pmf(np.arange(n), theta * self.c)

    def sample(self, rng, size):
        return np.full(size, float(self.c))


@_dc.dataclass(frozen=True)
class Exponential(ServiceTime):
    """Exponential service time of mean ``mean_time`` (cycles)."""

    mean_time: float

    def __post_init__(self):
        _require("mean_time", self.mean_time, 0, lo_open=True, unit="mean service time, cycles")

    mean = property(lambda self: float(self.mean_time))
    second_moment = property(lambda self: 2.0 * float(self.mean_time) ** 2)

    def matrix_lst(self, A):
        b = 1.0 / self.mean_time
        return b * _inv(b * np.eye(A.shape[0]) - A)

    def poisson_weights(self, theta, n):
        b = 1.0 / self.mean_time
        return b / (b + theta) * (theta / (b + theta)) ** np.arange(n)

    def sample(self, rng, size):
        return rng.exponential(self.mean_time, size)


@_dc.dataclass(frozen=True)
class ConstantPlusExponential(ServiceTime):
    """``c + B`` with ``B`` exponential of mean ``exp_mean`` (cycles; ``exp_mean = 0``: constant).

    The torus_ipp channel service time: ``c = M + d`` (message length plus
    hops, eq. 4) and ``B`` the blocking time, exponential of mean ``bbar``
    (eqs. 20-22).
    """

    c: float
    exp_mean: float

    def __post_init__(self):
        _require("c", self.c, 0, unit="constant part, cycles")
        _require("exp_mean", self.exp_mean, 0, unit="mean of the exponential part, cycles")
        if self.c + self.exp_mean <= 0:
            raise _ParameterError("`c` + `exp_mean` must be > 0 (mean service time, cycles)")

    mean = property(lambda self: float(self.c + self.exp_mean))
    second_moment = property(lambda self: float(self.c**2 + 2 * self.c * self.exp_mean + 2 * self.exp_mean**2))

    @property
    def third_moment(self) -> float:
        c, b = self.c, self.exp_mean
        return float(c**3 + 3 * c**2 * b + 6 * c * b**2 + 6 * b**3)

    def matrix_lst(self, A):
        out = _expm(self.c * A) if self.c > 0 else np.eye(A.shape[0])
        if self.exp_mean > 0:
            b = 1.0 / self.exp_mean
            out = out @ (b * _inv(b * (_I2 if A.shape == (2, 2) else np.eye(A.shape[0])) - A))
        return out

    def poisson_weights(self, theta, n):
        j = np.arange(n)
        pc = _poisson_pmf(j, theta * self.c) if self.c > 0 else (j == 0).astype(float)
        if self.exp_mean <= 0:
            return pc
        b = 1.0 / self.exp_mean
        pe = b / (b + theta) * (theta / (b + theta)) ** j
        return np.convolve(pc, pe)[:n]

    def sample(self, rng, size):
        x = np.full(size, float(self.c))
        if self.exp_mean > 0:
            x += rng.exponential(self.exp_mean, size)
        return x


@_dc.dataclass(frozen=True)
class Erlang(ServiceTime):
    """Erlang-``k`` service time of mean ``mean_time`` (cycles)."""

    k: int
    mean_time: float

    def __post_init__(self):
        _require("k", self.k, 1, integer=True, unit="phases")
        _require("mean_time", self.mean_time, 0, lo_open=True, unit="mean service time, cycles")

    mean = property(lambda self: float(self.mean_time))
    second_moment = property(lambda self: float(self.mean_time) ** 2 * (1 + 1 / self.k))

    def matrix_lst(self, A):
        b = self.k / self.mean_time
        one = b * _inv(b * np.eye(A.shape[0]) - A)
        return np.linalg.matrix_power(one, int(self.k))

    def poisson_weights(self, theta, n):
        from scipy.stats import nbinom

        b = self.k / self.mean_time
        return nbinom.pmf(np.arange(n), self.k, b / (b + theta))

    def sample(self, rng, size):
        return rng.gamma(self.k, self.mean_time / self.k, size)


@_dc.dataclass(frozen=True)
class Discrete(ServiceTime):
    """Service time ``values[i]`` with probability ``probs[i]`` (cycles) -- any discrete law."""

    values: tuple
    probs: tuple

    def __post_init__(self):
        v = np.asarray(self.values, dtype=float)
        p = np.asarray(self.probs, dtype=float)
        if v.ndim != 1 or v.shape != p.shape or v.size == 0 or np.any(v < 0) or np.any(p < 0) \
                or not _math.isclose(p.sum(), 1.0, rel_tol=1e-12) or v @ p <= 0:
            raise _ParameterError(f"`values` (cycles, >= 0) and `probs` (summing to 1) must match; got {self.values!r}, {self.probs!r}")
        object.__setattr__(self, "values", tuple(float(x) for x in v))
        object.__setattr__(self, "probs", tuple(float(x) for x in p))

    mean = property(lambda self: float(np.dot(self.values, self.probs)))
    second_moment = property(lambda self: float(np.dot(np.square(self.values), self.probs)))

    def matrix_lst(self, A):
        return sum(p * _expm(x * A) for x, p in zip(self.values, self.probs))

    def poisson_weights(self, theta, n):
        j = np.arange(n)
        return sum(p * (_poisson_pmf(j, theta * x) if x > 0 else (j == 0).astype(float))
                   for x, p in zip(self.values, self.probs))

    def sample(self, rng, size):
        return rng.choice(np.asarray(self.values), size=size, p=np.asarray(self.probs))


# ----------------------------------------------------------------------------
# The matrix G and the mean wait
# ----------------------------------------------------------------------------
def mmpp_g_matrix(arrival, service: ServiceTime, *, method: str = "auto", tol: float = 1e-13,
                  max_iter: int = 200_000, G0=None) -> tuple[np.ndarray, int]:
    """The matrix ``G`` of the MMPP/G/1 queue and the number of iterations.

    ``G`` is the minimal non-negative solution of
    ``G = int exp((Q - Lambda + Lambda G) x) dH(x)``.

    Parameters
    ----------
    arrival : MMPP object (``.Q``, ``.Lambda``) or ``(Q, Lambda)``
    service : ServiceTime
    method : {'auto', 'closed', 'uniformization'}
        ``closed``: iterate ``G <- H*(-(Q - Lambda + Lambda G))`` with the
        service's matrix LST (e.g. ``e^{cA} beta (beta I - A)^{-1}`` for
        constant plus exponential); ``uniformization``: Lucantoni's
        algorithm with ``theta = max_i (lambda_i + delta_i)`` and the
        service's Poisson weights (any service time); ``auto``: closed when
        available.
    tol : float
        Stop when the max-norm change of ``G`` is below ``tol``.
    G0 : array, optional
        Starting matrix.  Default: the identity (a stochastic start, a few
        iterations) when ``rho < 1``, where ``G`` is the unique stochastic
        solution; 0 (monotone, slow near ``rho = 1``) otherwise.

    Raises
    ------
    ConvergenceError
        If ``max_iter`` iterations do not reach ``tol``.
    """
    _require_choice("method", method, ["auto", "closed", "uniformization"])
    Q, L = _mmpp_args(arrival)
    if method == "auto":
        method = "closed" if _has_lst(service) else "uniformization"
    if G0 is None:
        lam_ = mean_arrival_rate(Q, L)
        G0 = np.eye(2) if lam_ * service.mean < 1.0 else np.zeros((2, 2))
    base = Q - L
    if method == "closed":
        def step(G):
            return service.matrix_lst(base + L @ G)
    else:
        theta = float(np.max(-np.diag(base)))
        gam = service.weights(theta)
        I2 = np.eye(2)

        def step(G):
            P = I2 + (base + L @ G) / theta
            H = I2.copy()
            new = gam[0] * H
            for gn in gam[1:]:
                H = P @ H
                new = new + gn * H
            return new
    if method == "closed":
        return _g_iteration(step, G0, tol, max_iter)
    # plain iteration, absolute max-norm change (G is a probability matrix)
    fp = fixed_point(step, np.array(G0, dtype=float), damping=1.0, tol=tol, max_iter=max_iter, relative=False,
                     where=f"MMPP/G/1 matrix G ({method})", names=["G11", "G12", "G21", "G22"])
    return fp.x, fp.iterations


def _g_iteration(step, G0, tol: float, max_iter: int) -> tuple[np.ndarray, int]:
    """``G <- step(G)`` until the max-norm change is ``<= tol``: the iterates, the stop and the errors of
    :func:`~models.core.fixed_point.fixed_point` with ``damping=1, relative=False`` (tested equal), without
    its per-call overhead (torus_ipp solves this 2x2 iteration hundreds of times per curve)."""

    x = np.array(G0, dtype=float)
    residual = np.inf
    for it in range(1, max_iter + 1):
        new = np.asarray(step(x), dtype=float)
        if new.shape != x.shape:
            raise ValueError(f"MMPP/G/1 matrix G (closed): step changed the shape from {x.shape} to {new.shape}")
        if not np.isfinite(new).all():
            raise ConvergenceError("MMPP/G/1 matrix G (closed) (G became non-finite)", it, np.inf, x)
        residual = float(np.abs(new - x).max())
        if residual <= tol:
            return new, it
        x = new
    raise ConvergenceError("MMPP/G/1 matrix G (closed)", max_iter, residual, x)


def stationary_vector(G: np.ndarray) -> np.ndarray:
    """``g`` with ``g G = g``, ``g e = 1`` for a 2x2 stochastic ``G``."""
    a, b = float(G[0, 1]), float(G[1, 0])
    if a + b <= 0:
        return np.array([1.0, 0.0]) if G[0, 0] >= G[1, 1] else np.array([0.0, 1.0])
    return np.array([b, a]) / (a + b)


@_dc.dataclass(frozen=True, repr=False)
class MMPPG1Result(_Result):
    """Mean waits of an MMPP(2)/G/1 queue (cycles)."""

    wait: float  # mean wait at arrival instants (eq. 19, W); inf if rho >= 1
    virtual_wait: float  # time-average wait W_v
    rho: float  # lambda * mean service
    G: np.ndarray
    g: np.ndarray
    iterations: int  # iterations spent on G
    method: str
    saturated: bool


def _build_wait() -> dict:
    e = mmpp_equations()
    args = _symbols()
    return {"W": (args, e["W"]), "Wv": (args, e["Wv"])}


@functools.cache
def _mmpp_wait_fn():
    f = compiled("mmpp_g1:wait", _build_wait)
    return f["W"], f["Wv"]


def mmpp_g1(arrival, service: ServiceTime, *, method: str = "auto", tol: float = 1e-13, G0=None,
            max_iter: int = 200_000) -> MMPPG1Result:
    """Mean wait of an MMPP(2)/G/1 FIFO queue, eq. (19) of torus_ipp (Fischer & Meier-Hellstern).

    ``arrival``: a two-state MMPP (``.Q``/``.Lambda`` or ``(Q, Lambda)``, rates per
    cycle); ``service``: a :class:`ServiceTime` (cycles).  Past saturation
    (``rho >= 1``) the waits are ``inf`` and ``saturated=True``.
    """
    Q, L = _mmpp_args(arrival)
    d1, d2 = Q[0, 1], Q[1, 0]
    l1, l2 = L[0, 0], L[1, 1]
    lam_ = mean_arrival_rate(Q, L)
    h1, h2 = service.mean, service.second_moment
    rho_ = lam_ * h1
    if rho_ >= 1.0:
        return MMPPG1Result(_math.inf, _math.inf, rho_, np.full((2, 2), np.nan), np.full(2, np.nan), 0, method, True)
    G, it = mmpp_g_matrix((Q, L), service, method=method, tol=tol, G0=G0, max_iter=max_iter)
    g = stationary_vector(G)
    fW, fWv = _mmpp_wait_fn()
    W = float(fW(d1, d2, l1, l2, g[0], h1, h2))
    Wv = float(fWv(d1, d2, l1, l2, g[0], h1, h2))
    used = method if method != "auto" else ("closed" if _has_lst(service) else "uniformization")
    return MMPPG1Result(max(W, 0.0), max(Wv, 0.0), rho_, G, g, it, used, False)


def _has_lst(service) -> bool:
    """Whether ``service`` has a closed-form matrix LST (a property of its class, probed once per class)."""
    return _class_has_lst(type(service), service)


_LST_BY_CLASS: dict = {}


def _class_has_lst(cls, service) -> bool:
    hit = _LST_BY_CLASS.get(cls)
    if hit is None:
        try:
            service.matrix_lst(np.zeros((2, 2)))
            hit = True
        except NotImplementedError:
            hit = False
        _LST_BY_CLASS[cls] = hit
    return hit


def mmpp_g1_wait(arrival, service: ServiceTime, **kw) -> float:
    """Mean wait at arrival instants (cycles) of an MMPP(2)/G/1 queue; ``inf`` past saturation."""
    return mmpp_g1(arrival, service, **kw).wait


# ----------------------------------------------------------------------------
# References: exact MMPP/M/1 and a direct simulation of MMPP/G/1
# ----------------------------------------------------------------------------
def mmpp_m1_wait_exact(arrival, mean_service: float, *, tail: float = 1e-15, max_levels: int = 200_000) -> float:
    """Mean wait at arrivals of an MMPP/M/1 FIFO queue from its level-phase CTMC (cycles).

    The CTMC on (customers, phase) is truncated where the stationary tail
    is below ``tail`` (found by the decay rate of the matrix-geometric
    solution), and solved exactly (sparse LU).  An arrival in phase ``i``
    seeing ``n`` customers waits ``n`` exponential services, so
    ``W = sum_{n,i} n p(n,i) lambda_i / (lambda mu)``.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.linalg import spsolve

    Q, L = _mmpp_args(arrival)
    _require("mean_service", mean_service, 0, lo_open=True, unit="cycles")
    mu = 1.0 / mean_service
    lam_ = float(np.array([Q[1, 0], Q[0, 1]]) @ np.diag(L) / (Q[0, 1] + Q[1, 0]))
    if lam_ / mu >= 1:
        return _math.inf
    # decay rate of the level probabilities: the largest root inside the unit disk of
    # det(A0 + z A1 + z^2 A2) (= spectral radius of the rate matrix R), A0 up, A1 local, A2 down
    A0, A1, A2 = L, Q - L - mu * np.eye(2), mu * np.eye(2)
    poly = lambda i, j: np.array([A2[i, j], A1[i, j], A0[i, j]])  # noqa: E731  (highest power first)
    det = np.polysub(np.polymul(poly(0, 0), poly(1, 1)), np.polymul(poly(0, 1), poly(1, 0)))
    roots = np.roots(det)
    inside = [abs(r) for r in roots if abs(r) < 1 - 1e-9]
    eta = max(inside) if inside else 0.5
    levels = int(min(max_levels, _math.ceil(_math.log(tail) / _math.log(eta)) + 50))
    n = levels * 2
    lv = np.repeat(np.arange(levels), 2)
    ph = np.tile([0, 1], levels)
    st = 2 * lv + ph
    rows, cols, vals = [], [], []
    sw = np.where(ph == 0, Q[0, 1], Q[1, 0])  # phase switches
    rows += [st]; cols += [2 * lv + 1 - ph]; vals += [sw]
    up = lv + 1 < levels
    ar = np.diag(L)[ph]
    rows += [st[up]]; cols += [st[up] + 2]; vals += [ar[up]]
    dn = lv > 0
    rows += [st[dn]]; cols += [st[dn] - 2]; vals += [np.full(dn.sum(), mu)]
    out = sw + np.where(up, ar, 0.0) + np.where(dn, mu, 0.0)
    rows += [st]; cols += [st]; vals += [-out]
    A = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)).tocsr()
    M = A.T.tolil()
    M[0, :] = np.ones(n)
    rhs = np.zeros(n)
    rhs[0] = 1.0
    p = spsolve(M.tocsr(), rhs).reshape(levels, 2)
    lvl = np.arange(levels)[:, None]
    return float((lvl * p * np.diag(L)[None, :]).sum() / (lam_ * mu))


# ----------------------------------------------------------------------------
# Many queues at once (constant-plus-exponential service): one row per queue
# ----------------------------------------------------------------------------
def _expm2_rows(A: np.ndarray) -> np.ndarray:
    """:func:`expm2` of every 2x2 matrix of ``A`` (shape ``(n, 2, 2)``), the same formula element by element."""
    a = 0.5 * (A[:, 0, 0] + A[:, 1, 1])
    det = A[:, 0, 0] * A[:, 1, 1] - A[:, 0, 1] * A[:, 1, 0]
    with np.errstate(all="ignore"):
        D = np.sqrt((a * a - det).astype(complex))
        D = np.where(D.real < 0, -D, D)
        x = 2 * D
        far = x.real > 30
        hi, lo_far = np.exp(a + D), np.exp(a - D)
        ch_far, sh_far = (hi + lo_far) / 2, (hi - lo_far) / x
        lo = np.exp(a - D)
        em1 = np.where(np.abs(x) > 1e-5, np.expm1(x), x * (1 + x / 2 * (1 + x / 3 * (1 + x / 4))))
        ch = lo * (1 + em1 / 2)
        sh = np.where(np.abs(x) > 0, lo * em1 / x, np.exp(a) + 0j)
        ch, sh = np.where(far, ch_far, ch), np.where(far, sh_far, sh)
    out = ch[:, None, None] * _I2 + sh[:, None, None] * (A - a[:, None, None] * _I2)
    return out.real


def _inv2_rows(A: np.ndarray) -> np.ndarray:
    det = A[:, 0, 0] * A[:, 1, 1] - A[:, 0, 1] * A[:, 1, 0]
    out = np.empty_like(A)
    out[:, 0, 0], out[:, 0, 1], out[:, 1, 0], out[:, 1, 1] = A[:, 1, 1], -A[:, 0, 1], -A[:, 1, 0], A[:, 0, 0]
    return out / det[:, None, None]


def _lst_rows(c: float, exp_mean: np.ndarray, A: np.ndarray) -> np.ndarray:
    """:meth:`ConstantPlusExponential.matrix_lst` per row (constant ``c > 0``, exponential means per row)."""
    out = _expm2_rows(c * A)
    e = exp_mean > 0
    if e.any():
        b = 1.0 / exp_mean[e]
        out[e] = out[e] @ (b[:, None, None] * _inv2_rows(b[:, None, None] * _I2 - A[e]))
    return out


def mmpp_g1_rows(Q: np.ndarray, L: np.ndarray, c: float, exp_mean: np.ndarray, G0: np.ndarray | None = None,
                 *, tol: float = 1e-13, max_iter: int = 200_000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`mmpp_g1` (closed method) for ``n`` MMPP(2)/(c + Exp)/1 queues at once.

    ``Q``, ``L``: shape ``(n, 2, 2)``, validated generators and rate matrices;
    ``c`` (cycles, ``> 0``) and ``exp_mean[i]`` the service time ``c + Exp``;
    ``G0`` (``(n, 2, 2)``) the starting matrices (default: the identity).
    Every row is iterated as :func:`mmpp_g1` iterates it (same iterates and
    stop; a row stops when its own change is ``<= tol``).  Rows with
    ``rho >= 1`` must not be passed.

    Returns ``(wait, G, rho)`` per row (``wait`` at arrival instants, eq. 19).
    """
    n = Q.shape[0]
    d1, d2, l1, l2 = Q[:, 0, 1], Q[:, 1, 0], L[:, 0, 0], L[:, 1, 1]
    lam_ = mean_arrival_rate(Q, L)
    h1 = c + exp_mean
    h2 = c**2 + 2 * c * exp_mean + 2 * exp_mean**2
    X = np.array(np.broadcast_to(_I2, (n, 2, 2)) if G0 is None else G0, dtype=float)
    base = Q - L
    active = np.arange(n)
    for it in range(1, max_iter + 1):
        if active.size == 0:
            break
        new = _lst_rows(c, exp_mean[active], base[active] + L[active] @ X[active])
        if not np.isfinite(new).all():

            raise ConvergenceError("MMPP/G/1 matrix G (closed) (G became non-finite)", it, np.inf, X[active[0]])
        res = np.abs(new - X[active]).max(axis=(1, 2))
        X[active] = new
        active = active[res > tol]
    if active.size:

        raise ConvergenceError("MMPP/G/1 matrix G (closed)", max_iter, float(res.max()), X[active[0]])
    a, b = X[:, 0, 1], X[:, 1, 0]
    with np.errstate(all="ignore"):
        g0 = np.where(a + b > 0, b / (a + b), np.where(X[:, 0, 0] >= X[:, 1, 1], 1.0, 0.0))
    fW, _ = _mmpp_wait_fn()
    W = np.asarray(fW(d1, d2, l1, l2, g0, h1, h2), dtype=float) * np.ones(n)
    return np.maximum(W, 0.0), X, lam_ * h1
