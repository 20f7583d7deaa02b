"""The Heffes-Lucantoni fit of a two-state MMPP, and superposition (torus_ipp eqs. 13-18).

Fit (:func:`fit_mmpp2`; Heffes & Lucantoni 1986, notes/papers.md sec. 1.2).
Given the mean rate, ``IDC(t1)``, ``IDC(inf)`` and the third central moment at
``t2``, find the MMPP(2) with these four characteristics:

1. ``s = y/t1`` with ``(1 - e^{-y})/y = 1/c``, ``c = (b_inf-1)/(b_inf-b_1)``
   (``y = c + W_0(-c e^{-c})``, principal Lambert-W branch);
2. ``c2 = lambda s (b_inf - 1)/2`` (variance of the modulating rate);
3. ``h = (delta1 - delta2)(lambda1 - lambda2)`` from the third moment,
   solved from the derived ``g^(3)``, which is linear in ``h``;
4. ``lambda1 - lambda2 = sqrt(h^2 + 4 c2 s^2)/s``,
   ``delta_{1,2} = (s +- h/(lambda1-lambda2))/2``,
   ``lambda1 = lambda + delta1 (lambda1-lambda2)/s``,
   ``lambda2 = lambda - delta2 (lambda1-lambda2)/s``.

Steps 2-4 are SymPy expressions (:func:`fit_equations`) lambdified once.
The fit is infeasible when it gives ``lambda2 < 0``; by default that raises a
:class:`~models.core.errors.ParameterError` (a ``ValueError``); with
``on_infeasible="ipp"`` the third moment is dropped to the nearest feasible
value, ``h = (c2 s^2 - s^2 lambda^2)/(s lambda)``, which gives the IPP
(``lambda2 = 0``) that matches the other three characteristics exactly.

Superposition (eqs. 14-17): ``n`` i.i.d. sources have ``n`` times the rate,
the same IDC at every ``t`` and ``n`` times the third central moment
(``n`` may be fractional: the cumulants scale).  The matched MMPP(2) has the
source's ``s`` and ``h``; :func:`superposition_equations` derives the
closed form (notes/papers.md sec. 1.3) by substituting these into the
back-out step, and the tests check it against the general fit.

Units: time in cycles, rates in arrivals (messages) per cycle.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from ..core.errors import ParameterError
from ..core.symbolic import compiled
from ..core.validate import require, require_choice
from .process import MMPP2, poisson

__all__ = [
    "Characteristics", "FitResult", "fit_equations", "superposition_equations", "characteristics",
    "superposed_characteristics", "fit_mmpp2", "fit_superposition", "superposition_closed_form",
]


# SymPy and models.traffic.moments (SymPy, SciPy) are imported where the algebra is derived:
# the numeric fits below load its generated code from disk (models.core.symbolic.compiled)
# without them.
def _moments():
    """:mod:`models.traffic.moments`, imported on first use: it imports SymPy, which a warm start never needs."""
    from . import moments  # SymPy and scipy.linalg: only when the derivation is not on disk yet

    return moments


def _symbols():
    """``(sympy, sigma1, sigma2, mu1, mu2, t, n_s, s, lambda, c2, h, Delta, g3, m3, IDC)``."""
    import sympy as sp

    S = _moments().SYMBOLS

    return (sp, S.sigma1, S.sigma2, S.mu1, S.mu2, S.t, S.n_s, S.s, S.lam, S.c2, S.h, S.gap, S.g3, S.m3, S.idc)


def _disk_cached(fn):
    """:func:`models.traffic.moments.disk_cached` applied on first call (same key: ``fn``'s name and this file)."""
    @functools.cache
    def wrapper():
        return _moments().disk_cached(fn)()

    wrapper.__doc__ = fn.__doc__
    wrapper.__name__ = fn.__name__
    wrapper.uncached = fn
    return wrapper


# ----------------------------------------------------------------------------
# Heffes-Lucantoni fit
# ----------------------------------------------------------------------------
@_disk_cached
def fit_equations() -> dict:
    """The algebra of the Heffes-Lucantoni fit (SymPy), derived from :func:`derivation`.

    Returns
    -------
    dict with
    ``c2``      rate variance from ``IDC(inf)``: ``lambda s (IDC(inf) - 1)/2``;
    ``g3``      ``g^(3)(1, t)`` in ``(lambda, s, c2, h, t)``;
    ``g3_from_m3``  ``g^(3)`` from the third central moment and ``IDC(t)``;
    ``h``       ``h = (delta1 - delta2)(lambda1 - lambda2)`` solved from ``g3``;
    ``Delta``, ``delta1``, ``delta2``, ``lambda1``, ``lambda2``  the back-out;
    ``h_ipp``   the ``h`` for which ``lambda2 = 0`` (the feasibility boundary).
    """
    derivation = _moments().derivation
    sp, sigma1, sigma2, mu1, mu2, t, n_s, s_, lam_, c2_, h_, gap_, g3_, m3_, idc_ = _symbols()
    d = derivation()
    # reparametrise the MMPP by (lambda, s, Delta, d1) and check that g3 depends on it
    # only through (lambda, s, c2, h):
    d1 = sp.Symbol("delta_1", positive=True)
    d2 = s_ - d1
    sub = {sigma1: d1, sigma2: d2, mu1: lam_ + d1 * gap_ / s_, mu2: lam_ - d2 * gap_ / s_}
    g3_param = d["g3"].subs(sub)
    ex = sp.exp(-s_ * t)
    g3_h = (lam_**3 * t**3 + 6 * lam_ * c2_ / s_ * t**2 - 6 * lam_ * c2_ / s_**2 * t
            + 6 * lam_ * c2_ / s_**2 * t * ex
            + h_ * c2_ * (6 * t / s_**3 + 6 * t * ex / s_**3 - 12 * (1 - ex) / s_**4))
    check = g3_h.subs({c2_: d1 * d2 * gap_**2 / s_**2, h_: (d1 - d2) * gap_}) - g3_param
    X = sp.Symbol("X", positive=True)
    if sp.cancel(sp.expand(check).subs(sp.exp(-s_ * t), X)) != 0:
        raise RuntimeError("fit_equations: g3 is not linear in h as claimed")
    # g3 is linear in h: h = (g3 - g3|_{h=0}) / (d g3 / d h)
    h_sol = (g3_ - g3_h.subs(h_, 0)) / sp.diff(g3_h, h_)
    # m3 -> g3 (eq. 12 solved for g3), with E N = lambda t
    EN = lam_ * t
    g3_from_m3 = m3_ + EN * (EN - 1) * (3 * idc_ + EN - 2)
    gap = sp.sqrt(h_**2 + 4 * c2_ * s_**2) / s_
    dl1 = (s_ + h_ / gap_) / 2
    dl2 = (s_ - h_ / gap_) / 2
    l1 = lam_ + dl1 * gap_ / s_
    l2 = lam_ - dl2 * gap_ / s_
    binf = sp.Symbol("b_infinity", positive=True)
    h_ipp = sp.solve(sp.Eq(l2.subs(gap_, gap), 0), h_)
    if len(h_ipp) != 1:
        raise RuntimeError("fit_equations: expected one h on the boundary lambda2 = 0")
    return {
        "c2": lam_ * s_ * (binf - 1) / 2,
        "binf": binf,
        "g3": g3_h,
        "g3_from_m3": g3_from_m3,
        "h": h_sol,
        "Delta": gap,
        "delta1": dl1,
        "delta2": dl2,
        "lambda1": l1,
        "lambda2": l2,
        "h_ipp": sp.simplify(h_ipp[0]),
    }


def _build_fit() -> dict:
    sp, sigma1, sigma2, mu1, mu2, t, n_s, s_, lam_, c2_, h_, gap_, g3_, m3_, idc_ = _symbols()
    f = fit_equations()
    return {
        "c2": ((lam_, s_, f["binf"]), f["c2"]),
        "h": ((g3_, lam_, s_, c2_, t), f["h"]),
        "g3": ((m3_, lam_, idc_, t), f["g3_from_m3"]),
        "Delta": ((h_, c2_, s_), f["Delta"]),
        "back": ((lam_, s_, h_, gap_), (f["delta1"], f["delta2"], f["lambda1"], f["lambda2"])),
        "h_ipp": ((lam_, s_, c2_), f["h_ipp"]),
    }


def _fit_functions():
    return compiled("traffic:fit", _build_fit)


@dataclasses.dataclass(frozen=True)
class Characteristics:
    """The four Heffes-Lucantoni characteristics of a counting process.

    ``mean_rate`` (per cycle), ``idc_t1 = IDC(t1)``, ``idc_inf = IDC(inf)``,
    ``m3_t2`` = third central moment of ``N(t2)``; windows ``t1``, ``t2`` in cycles.
    """

    mean_rate: float
    idc_t1: float
    idc_inf: float
    m3_t2: float
    t1: float
    t2: float


@dataclasses.dataclass(frozen=True)
class FitResult:
    """Outcome of :func:`fit_mmpp2`: the fitted process and how it was obtained."""

    mmpp: MMPP2
    feasible: bool  # False: the third moment could not be met (fallback used)
    h: float  # (delta1 - delta2)(lambda1 - lambda2) used
    h_requested: float  # h implied by the third moment (nan if Poisson)
    poisson: bool  # the input had no burstiness (IDC == 1)


def characteristics(proc: MMPP2, t1: float, t2: float) -> Characteristics:
    """The four characteristics of ``proc`` (windows ``t1``, ``t2`` in cycles)."""
    moments = _moments()

    t1 = require("t1", t1, 0, lo_open=True, unit="window for the IDC, cycles")
    t2 = require("t2", t2, 0, lo_open=True, unit="window for the third moment, cycles")
    return Characteristics(proc.mean_rate, float(moments.idc(proc, t1)), moments.idc_inf(proc),
                           float(moments.third_central_moment(proc, t2)), float(t1), float(t2))


def superposed_characteristics(source: MMPP2, n: float, t1: float, t2: float) -> Characteristics:
    """Characteristics of ``n`` superposed i.i.d. copies of ``source`` (eqs. 14-17).

    ``lambda_c = n lambda_s``; the IDC (at ``t1`` and in the limit) is the
    source's; the third central moment is ``n`` times the source's.  ``n``
    may be fractional (the cumulants scale linearly).
    """
    n = require("n", n, 0, lo_open=True, unit="number of superposed sources")
    c = characteristics(source, t1, t2)
    return Characteristics(n * c.mean_rate, c.idc_t1, c.idc_inf, n * c.m3_t2, c.t1, c.t2)


def fit_mmpp2(ch: Characteristics, *, on_infeasible: str = "raise", rtol_poisson: float = 1e-12) -> FitResult:
    """Heffes-Lucantoni four-characteristic fit of an MMPP(2) (see module docstring).

    Parameters
    ----------
    ch : Characteristics
        Mean rate, ``IDC(t1)``, ``IDC(inf)``, third central moment at ``t2``.
    on_infeasible : {'raise', 'ipp'}
        What to do when the third moment needs ``lambda2 < 0``: raise a
        :class:`ParameterError` (default), or drop the third moment to the
        nearest feasible value (the IPP with the other three characteristics).
    rtol_poisson : float
        ``IDC(inf) - 1`` below this (relative) means Poisson: the result is a
        Poisson process of the mean rate.

    Raises
    ------
    ParameterError
        On inconsistent characteristics (``IDC(inf) > IDC(t1) > 1`` is
        required for a bursty process) or an infeasible third moment.
    """
    require_choice("on_infeasible", on_infeasible, ["raise", "ipp"])
    lam = require("mean_rate", ch.mean_rate, 0, lo_open=True, unit="arrivals per cycle")
    b1, binf = float(ch.idc_t1), float(ch.idc_inf)
    if binf - 1.0 <= rtol_poisson and abs(b1 - 1.0) <= max(rtol_poisson, 1e-9):
        return FitResult(poisson(lam), True, 0.0, math.nan, True)
    if not (binf > b1 > 1.0):
        raise ParameterError(
            f"Heffes-Lucantoni fit needs IDC(inf) > IDC(t1) > 1 (a bursty, MMPP-like process); "
            f"got IDC(t1)={b1!r}, IDC(inf)={binf!r}")
    from scipy.special import lambertw

    F = _fit_functions()
    c = (binf - 1.0) / (binf - b1)
    y = float(np.real(c + lambertw(-c * math.exp(-c), 0)))
    if not y > 0:
        raise ParameterError(f"Heffes-Lucantoni fit: no positive switching rate for IDC(t1)={b1!r}, IDC(inf)={binf!r}")
    s = y / ch.t1
    c2 = float(F["c2"](lam, s, binf))
    idc_t2 = binf - (binf - 1.0) * (1.0 - math.exp(-s * ch.t2)) / (s * ch.t2)  # eq. 10 of the fitted process
    g3 = float(F["g3"](ch.m3_t2, lam, idc_t2, ch.t2))
    h_req = float(F["h"](g3, lam, s, c2, ch.t2))
    h = h_req
    feasible = True
    gap = float(F["Delta"](h, c2, s))
    d1, d2, l1, l2 = (float(v) for v in F["back"](lam, s, h, gap))
    if l2 < -1e-12 * max(1.0, l1):
        if on_infeasible == "raise":
            raise ParameterError(
                f"infeasible Heffes-Lucantoni fit: the third central moment {ch.m3_t2!r} at t2={ch.t2!r} "
                f"needs a negative rate lambda2={l2:.6g} (mean rate {lam!r}, IDC(inf) {binf!r}); "
                f"pass on_infeasible='ipp' to fit the IPP that matches the other three characteristics")
        h = float(F["h_ipp"](lam, s, c2))
        feasible = False
        gap = float(F["Delta"](h, c2, s))
        d1, d2, l1, l2 = (float(v) for v in F["back"](lam, s, h, gap))
    l2 = max(l2, 0.0)
    return FitResult(MMPP2(l1, l2, d1, d2), feasible, h, h_req, False)


def _default_windows(source: MMPP2, n, t1, t2):
    """``t1 = 1/s``; ``t2 = max(10/s, 3/(n lambda))``, so that ``E N(t2) >= 3`` (the third moment
    is then not swamped by the Poisson part when it is turned into ``g^(3)``)."""
    s = source.s
    return (1.0 / s if t1 is None else t1), (max(10.0 / s, 3.0 / (n * source.mean_rate)) if t2 is None else t2)


def fit_superposition(source: MMPP2, n: float, *, t1: float | None = None, t2: float | None = None,
                      on_infeasible: str = "raise") -> FitResult:
    """MMPP(2) matched to ``n`` superposed copies of ``source`` (eqs. 14-18), by the general fit.

    ``t1``, ``t2`` (cycles) default to ``1/s`` and ``max(10/s, 3/(n lambda))``;
    the result does not depend on them (the superposition keeps the IDC
    curve; see :func:`superposition_equations`).  A Poisson source gives a
    Poisson process of rate ``n lambda``.
    """
    if source.is_poisson:
        require("n", n, 0, lo_open=True, unit="number of superposed sources")
        return FitResult(poisson(n * source.mean_rate), True, 0.0, math.nan, True)
    n = require("n", n, 0, lo_open=True, unit="number of superposed sources")
    t1, t2 = _default_windows(source, n, t1, t2)
    return fit_mmpp2(superposed_characteristics(source, n, t1, t2), on_infeasible=on_infeasible)


@_disk_cached
def superposition_equations() -> dict:
    """Closed form of the MMPP(2) matched to ``n_s`` superposed MMPP(2) sources (SymPy).

    Derived by putting the superposed characteristics into the back-out of
    :func:`fit_equations`: same ``s``, ``n_s lambda``, ``n_s c2`` and ``h``
    equal to the source's ``(sigma1 - sigma2)(mu1 - mu2)`` (the third-moment
    equation, solved for ``h`` with ``n_s``-scaled ``lambda, c2, g3``).

    Returns ``{"h", "Delta", "delta1", "delta2", "lambda1", "lambda2"}`` in
    ``sigma_1, sigma_2, mu_1, mu_2, n_s``.
    """
    derivation = _moments().derivation
    sp, sigma1, sigma2, mu1, mu2, t, n_s, s_, lam_, c2_, h_, gap_, g3_, m3_, idc_ = _symbols()
    f = fit_equations()
    d = derivation()
    S, X = s_, sp.Symbol("X", positive=True)
    rep2 = {sigma2: S - sigma1}  # keep exp(-s t) a single factor while simplifying
    lam_s = d["eq:9"].rhs.subs(rep2)
    c2_s = sigma1 * (S - sigma1) * (mu1 - mu2) ** 2 / S**2
    # superposed characteristics (eqs. 14-17): n lambda, same IDC, n times the third central moment
    m3_c = n_s * d["eq:12"].rhs.subs(rep2)
    idc_c = (d["variance"] / d["eq:8"].rhs).subs(rep2)
    g3_c = f["g3_from_m3"].subs({m3_: m3_c, lam_: n_s * lam_s, idc_: idc_c})
    h_c = f["h"].subs({g3_: g3_c, lam_: n_s * lam_s, c2_: n_s * c2_s})
    h_c = h_c.subs(sp.exp(S * t), 1 / X).subs(sp.exp(-S * t), X)
    h_c = sp.factor(sp.cancel(sp.together(h_c)))
    if h_c.has(t) or h_c.has(X) or h_c.has(n_s):
        raise RuntimeError(f"superposition_equations: h should not depend on t or n_s; got {h_c}")
    back = {S: sigma1 + sigma2}
    h_c = sp.factor(h_c.subs(back))
    s = sigma1 + sigma2
    gap = f["Delta"].subs({h_: h_c, c2_: n_s * c2_s.subs(back), s_: s})
    rep = {lam_: n_s * lam_s.subs(back), s_: s, h_: h_c}
    out = {"h": h_c, "Delta": gap}
    for k in ("delta1", "delta2", "lambda1", "lambda2"):
        out[k] = f[k].subs(rep).subs(gap_, gap)
    return out


def _build_closed() -> dict:
    sp, sigma1, sigma2, mu1, mu2, t, n_s, s_, lam_, c2_, h_, gap_, g3_, m3_, idc_ = _symbols()
    e = superposition_equations()
    return {"back": ((sigma1, sigma2, mu1, mu2, n_s), (e["delta1"], e["delta2"], e["lambda1"], e["lambda2"]))}


def _closed_functions():
    return compiled("traffic:superposition", _build_closed)["back"]


def superposition_closed_form(source: MMPP2, n: float, *, on_infeasible: str = "raise") -> MMPP2:
    """The matched MMPP(2) of ``n`` superposed ``source`` copies, from the closed form.

    Equal to :func:`fit_superposition` (tested); raises :class:`ParameterError`
    when infeasible (``lambda2 < 0``, e.g. an IPP with ``n < 1``) unless
    ``on_infeasible='ipp'`` (then the general fit's fallback is used).
    """
    n = require("n", n, 0, lo_open=True, unit="number of superposed sources")
    if source.is_poisson:
        return poisson(n * source.mean_rate)
    d1, d2, l1, l2 = (float(v) for v in _closed_functions()(source.sigma1, source.sigma2, source.mu1, source.mu2, n))
    if l2 < -1e-12 * max(1.0, l1):
        if on_infeasible == "ipp":
            return fit_superposition(source, n, on_infeasible="ipp").mmpp
        raise ParameterError(
            f"infeasible superposition fit: n={n!r} copies of {source} need a negative rate lambda2={l2:.6g}; "
            f"pass on_infeasible='ipp' for the IPP that matches the first three characteristics")
    return MMPP2(l1, max(l2, 0.0), d1, d2)
