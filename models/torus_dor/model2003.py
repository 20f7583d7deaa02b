"""The comparison model of the paper's Fig. 2 -- a RECONSTRUCTION of Sarbazi-Azad, Khonsari & Ould-Khaoua (2003).

The 2003 paper (FGCS 19(4)) was not available; what the 2004 paper says about
it and the same group's later equations were put together in
notes/papers.md sec. 4.  Average-case analysis: every message crosses
:math:`\\bar k_d` hops in dimension ``d`` (the mean, :math:`(k_d-1)/2`
unidirectional, :math:`k_d/4` bidirectional for even ``k_d``); dimensions are
indexed from the destination end, ``i = 1`` the last one crossed:

.. math::

    S_0=M\\,(+W_{ej}),\\quad S_i=S_{i-1}+\\bar k_i\\big(1+P_{B_i}W_i\\big),\\quad \\bar S=S_n,

with :math:`P_{B_i}=P_{i,L}+P_{i,L-1}/L` from Dally's chain at
:math:`\\rho_i=\\lambda_cS_i`, :math:`W_i` an M/G/1 wait with service
:math:`S_i` and variance :math:`(S_i-M)^2`, :math:`\\bar V` the mean of the
per-dimension multiplexing degrees and latency :math:`(\\bar S+W_s)\\bar V`.
Each :math:`S_i` is implicit (it appears in :math:`P_{B_i}` and :math:`W_i`)
and is found by monotone iteration from :math:`S_{i-1}+\\bar k_i`
(:func:`models.core.fixed_point.fixed_point`, one per dimension).
The switches are :class:`~models.torus_dor.equations.Readings2003`.
Units: cycles, flits, messages/node/cycle.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Sequence

import numpy as np

from ..core.errors import ParameterError
from ..core.fixed_point import Saturated, fixed_point
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..networks.dor_paths import DorCombinatorics
from .readings import Readings2003
from .solve import check_params

__all__ = ["solve_2003", "saturation_load_2003", "Result2003"]


@dataclasses.dataclass(frozen=True, repr=False)
class Result2003(Result):
    """Solution of the reconstructed 2003 model at one load (cycles; arrays indexed by dimension, 0 first)."""

    latency: float
    S_bar: float
    source_wait: float
    multiplexing: float
    S: np.ndarray  # S_i of the channels of each dimension (holding time from that dimension on)
    W: np.ndarray
    P_B: np.ndarray
    Vbar_dim: np.ndarray
    saturated: bool
    reason: str
    lam_g: float
    iterations: int
    params: dict


def _compiled(readings: Readings2003) -> dict:
    """The lambdified equations of ``readings``, from disk when generated before (no SymPy then)."""
    return compiled("torus_dor:2003", functools.partial(_build, readings), readings)


def _build(readings: Readings2003) -> dict:
    from .equations import SYMBOLS as s, equations_2003  # SymPy: only to build what compiled() has not stored

    e = equations_2003(readings)
    vb = e["Vbar_i"].rhs.as_numer_denom()
    return {
        "lam_c": ((s.lam_g, s.kbar), e["lam_c"].rhs),
        "lam_c_bi": ((s.lam_g, s.kbar), e["lam_c:bidirectional"].rhs),
        "S_i": ((s.S_prev, s.kbar, s.P_Bi, s.W_i), e["S_i"].rhs),
        "rho": ((s.lam_c, s.S_i), e["rho"].rhs),
        "P_B": ((s.rho, s.L), e["P_B"].rhs),
        "W_i": ((s.lam_c, s.S_i, s.M, s.S_prev), e["W_i"].rhs),
        "W_ej": ((s.M, s.lam_g), e["W_ej"].rhs),
        "v_num": ((s.l, s.rho, s.L), vb[0].function),
        "v_den": ((s.l, s.rho, s.L), vb[1].function),
        "W_s": ((s.lam_g, s.L, s.S, s.M), e["W_s"].rhs),
        "T": ((s.S, s.W_s, s.Vbar, s.h, s.e), e["T"].rhs),
    }


def _params(radices, L, M, lam_g, bidirectional, readings):
    return dict(radices=list(radices), L=L, M=M, lam_g=lam_g, bidirectional=bool(bidirectional),
                readings=dataclasses.asdict(readings), model="Sarbazi-Azad et al. 2003 (reconstruction)")


def solve_2003(
    lam_g: float,
    /,
    *,
    radices: Sequence[int],
    L: int,
    M: float,
    bidirectional: bool = False,
    readings: Readings2003 = Readings2003(),
    tol: float = 1e-11,
    max_iter: int = 200_000,
) -> Result2003:
    """Mean message latency (cycles) of the reconstructed 2003 average-case model at load ``lam_g``.

    Same parameters and units as :func:`models.torus_dor.solve` (the load
    :math:`\\lambda_g` first, messages/node/cycle); ``inf`` and
    ``saturated=True`` past saturation.
    """
    radices, L, M, lam_g = check_params(lam_g, radices=radices, L=L, M=M, bidirectional=bidirectional, tol=tol,
                                        max_iter=max_iter)
    _check_readings(readings)
    return _solve(radices, L, M, lam_g, bool(bidirectional), readings, tol, max_iter)


def _check_readings(readings):
    if not isinstance(readings, Readings2003):
        raise ParameterError(f"`readings` must be a Readings2003 instance; got {readings!r}")


def _unbounded(d):
    """The per-dimension fixed point's ``saturated`` predicate."""
    return lambda x: f"dimension {d} (S_i without bound)" if (not math.isfinite(x[0]) or x[0] > 1e12) else ""


def _solve(radices, L, M, lam_g, bidirectional, readings, tol, max_iter, raise_on_failure=True):
    K = _compiled(readings)
    c = DorCombinatorics(radices, bidirectional=bidirectional)
    n = c.n
    # average-case hops per dimension over all k offsets: (k-1)/2 unidirectional, k/4 bidirectional (even k)
    kbar = np.array([sum(t * w for t, w in enumerate(c.w[d])) / c.radices[d] for d in range(n)], dtype=float)
    lamf = K["lam_c_bi"] if bidirectional else K["lam_c"]
    params = _params(radices, L, M, lam_g, bidirectional, readings)

    def sat(reason, it=0):
        return Result2003(latency=math.inf, S_bar=math.inf, source_wait=math.inf, multiplexing=float(L),
                          S=np.full(n, np.inf), W=np.full(n, np.inf), P_B=np.ones(n), Vbar_dim=np.full(n, float(L)),
                          saturated=True, reason=reason, lam_g=lam_g, iterations=int(it), params=params)

    if M * lam_g >= 1.0:
        return sat("ejection channel (M lambda_g >= 1)")
    W_ej = float(K["W_ej"](M, lam_g))
    S_prev = M + (W_ej if readings.ejection == "in S0" else 0.0)
    S = np.zeros(n)
    W = np.zeros(n)
    PB = np.zeros(n)
    total_it = 0
    for d in reversed(range(n)):  # i = 1 is the last dimension crossed (d = n-1)
        lam_c = float(lamf(lam_g, kbar[d]))

        def f(x, lam_c=lam_c, S_prev=S_prev, d=d):
            Si = float(x[0])
            rho = float(K["rho"](lam_c, Si))
            if rho >= 1.0:
                raise Saturated(f"dimension {d} (rho >= 1)")
            pb = float(K["P_B"](rho, L))
            wi = float(K["W_i"](lam_c, Si, M, S_prev))
            return np.array([float(K["S_i"](S_prev, kbar[d], pb, wi))])

        fp = fixed_point(f, [S_prev + kbar[d]], damping=1.0, tol=tol, max_iter=max_iter, scale_tol=True,
                         saturated=_unbounded(d), where=f"2003 model S_i of dimension {d}", names=[f"S_{n - d}"],
                         raise_on_failure=raise_on_failure)
        total_it += fp.iterations
        if fp.saturated:
            return sat(fp.reason, total_it)
        if not fp.converged:
            return sat("no convergence", total_it)
        Si = float(fp.x[0])
        rho = float(K["rho"](lam_c, Si))
        S[d], W[d], PB[d] = Si, float(K["W_i"](lam_c, Si, M, S_prev)), float(K["P_B"](rho, L))
        S_prev = Si
    S_bar = S_prev
    rhos = np.array([float(lamf(lam_g, kbar[d])) * S[d] for d in range(n)])
    lg = np.arange(L + 1, dtype=float)[:, None]
    num = np.broadcast_to(K["v_num"](lg, rhos[None, :], L), (L + 1, n)).sum(axis=0)
    den = np.broadcast_to(K["v_den"](lg, rhos[None, :], L), (L + 1, n)).sum(axis=0)
    vdim = num / den
    Vbar = float(np.sum(kbar * vdim) / kbar.sum()) if readings.mux == "weighted" else float(vdim.mean())
    if lam_g * S_bar / L >= 1.0:
        return sat("source queue (lambda_g S / L >= 1)", total_it)
    W_s = float(K["W_s"](lam_g, L, S_bar, M))
    T = float(K["T"](S_bar, W_s, Vbar, float(kbar.sum()), 1.0 if readings.ejection_cycle else 0.0))
    return Result2003(latency=T, S_bar=S_bar, source_wait=W_s, multiplexing=Vbar, S=S, W=W, P_B=PB, Vbar_dim=vdim,
                      saturated=False, reason="", lam_g=lam_g, iterations=int(total_it), params=params)


def saturation_load_2003(
    *,
    radices: Sequence[int],
    L: int,
    M: float,
    bidirectional: bool = False,
    readings: Readings2003 = Readings2003(),
    rtol: float = 1e-4,
) -> float:
    """Load (messages/node/cycle) at which the reconstructed 2003 model saturates.

    :func:`~models.core.saturation.find_saturation` between 0 and the load at
    which the busiest channel or the ejection channel is busy all the time;
    a probe that has not settled in 20,000 iterations counts as saturated.
    """
    radices, L, M, _ = check_params(radices=radices, L=L, M=M, bidirectional=bidirectional, rtol=rtol)
    _check_readings(readings)
    c = DorCombinatorics(radices, bidirectional=bidirectional)
    kmax = max(sum(t * w for t, w in enumerate(c.w[d])) / c.radices[d] for d in range(c.n))
    hi = min(1.0 / M, 1.0 / (M * kmax * (0.5 if bidirectional else 1.0)))
    return find_saturation(
        lambda x: _solve(radices, L, M, x, bool(bidirectional), readings, 1e-9, 20_000, raise_on_failure=False).saturated,
        0.0, hi, rtol=rtol).load
