"""Numeric solver for Willick & Eager's approximate MVA (eqs. (1)-(3); (4)-(6) for m packets).

The residence-time equations are the SymPy expressions of
:mod:`models.min_mva.equations`, lambdified once per process and evaluated
elementwise on arrays of (class, center) pairs; the sums over other classes
and over the input ports of a switch are NumPy ``bincount``/sums around them.
The per-visit residence times ``r_ij = R_ij / V_ij`` (and ``R_iPE_i``) are
iterated by damped substitution (:func:`models.core.fixed_point.fixed_point`)
until the largest relative change is below ``tol``.

The front door (``models/__init__.py``): :func:`solve` (``NC`` positional,
everything else keyword-only) returns a :class:`MinMvaResult`;
:func:`solve_curve` a :class:`CurveResult`; :func:`saturation_load` the
saturation population ``N*`` of the asymptotic bounds (:func:`asymptotic_bounds`,
closed form, no bisection); each takes the multiprocessor as the keywords
of :class:`~models.min_mva.params.MvaParams`, which documents and checks
them once.  The system is *closed*: it is never saturated
(``saturated`` is always False, ``latency = R`` is always finite), since its
``N * NC`` customers bound every queue; past ``N*`` the throughput levels off
at the bottleneck's bound and ``R`` grows linearly in ``NC``.

Two equivalent paths:

``general``
    one unknown per visited (class, center) pair; any pattern, any topology.
``reduced``
    one unknown per stage (F1..Fn, R1..Rn, MM), used when every visited
    pair of a stage has the same visit ratio, the same center total, the
    same ``G = sum_k p_ikj sum_s p_skj V_sj`` and ``H = sum_k p_ikj (1-p_ikj)``
    (checked numerically, :func:`models.min_mva.visits.stage_structure`):
    then the general equations have a solution constant over each stage and
    the reduced iteration computes exactly it (e.g. uniform traffic on
    omega, baseline, cube).  ``method="auto"`` picks it when valid.

Readings (where the paper is ambiguous), see also the chapter text:

* Tables 1 and 2 list the *per-visit* residence time ``R_ij / V_ij`` per stage.
  :attr:`MinMvaResult.stage_residence` is the throughput-weighted mean over the
  stage's centers, ``sum_ij X_ij r_ij / sum_ij X_ij`` = mean per-visit time of
  a request (reply) passing that stage (identical to the plain mean over ports
  under uniform traffic).  For ``m > 1`` it is the lead packet's time (eq. (4)).
* ``(NC-1)/NC`` multiplies the own-class parts of terms (a), (b) *and* (c) of
  eq. (1), as printed.
* eq. (4): terms (a) and (b) carry a factor ``m`` (the text says "The factor m
  is required since each customer is m packets long"; the printed equation
  lacks it).  With it eq. (4) reduces to Kruskal & Snir's m-packet formula of
  Sec. 4.3, without it it does not (derived in
  :func:`models.min_mva.equations.kruskal_snir_reduction`).  Term (c) uses
  ``sum_{s!=i} (1-p_skj) U_sj = m sum_{s!=i} (1-p_skj) X_sj`` (``U_sj = m X_sj``).
* Where the paper's Table 1 resists (``NC >= 16``), eq. (1) can be solved
  under the alternative readings the chapter tried (``reading``, one of
  :data:`models.min_mva.equations.EQ1_READINGS`; single-packet only).
* eq. (6) is used as printed.  Its term (b) vanishes at ``S_pe = 1``, not at
  ``S_pe = m`` as Sec. 4.3 claims (derived in
  :func:`models.min_mva.equations.no_queueing_reductions`); all of the paper's
  m-packet figures use ``S_pe = 1``.

Units: times in clock cycles; throughputs in requests per cycle.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ParameterError
from ..core.fixed_point import anderson_update, fixed_point, fixed_points, newton_update
from ..core.results import Result
from ..core.symbolic import compiled
from ..core.validate import require, require_choice, require_loads, require_max_iter, require_tol
from .readings import EQ1_READINGS, EQ4_READINGS
from ..networks.multistage import MultistageNetwork
from .params import MvaParams
from .visits import StageStructure, Visits, stage_labels, stage_structure, visit_ratios

CHAPTER = "min_mva"

METHODS = ("auto", "general", "reduced")

# The largest NC (issue #15; the network's ranges are models.min_mva.params's): the damped iteration needs
# ~30 NC steps, so past NC ~ 650 it exceeds the default max_iter.
MAX_POPULATION = 256


# ----------------------------------------------------------------------------
# Lambdified equations (built once per process)
# ----------------------------------------------------------------------------
def _kernel_specs(multi: bool, reading: str = "paper") -> dict:
    """``name -> (argument symbols, expression)`` of every lambdified equation.

    ``multi=False``: eqs. (1)-(3), eq. (1) under ``reading``
    (:func:`models.min_mva.equations.eq1_reading`); ``multi=True``: eqs. (4)-(6), eq. (4) under ``reading``
    (:data:`models.min_mva.readings.EQ4_READINGS`: ``"eq4-printed"`` is eq. (4) as printed).
    Both modes take the same arguments (unused ones are ignored), with
    ``R_ij = V_ij r_ij`` substituted so that the functions take per-visit
    residence times.
    """
    from .equations import (  # SymPy: only to build what compiled() has not stored
        SYMBOLS as s, eq1_reading as _eq1_reading, equations as _equations, per_visit as _per_visit)

    e = _equations()
    Rv = {s.R_ij: s.V * s.r}
    sp_ = {}
    sp_["X_i"] = ((s.NC, s.sumR, s.R_pe), e["X_i:m" if multi else "X_i"].rhs)
    sp_["R_i"] = ((s.sumR, s.m), e["R_i:m" if multi else "R_i"].rhs)
    sp_["X_ij"] = ((s.V, s.X_i), e["X_ij"].rhs)
    sw_args = (s.A_o, s.Q_i, s.U_i, s.C_b, s.C_c, s.NC, s.m)
    if multi:
        sp_["Q_sw"] = ((s.X_i, s.V, s.r, s.m), e["Q_ij:4"].rhs.subs(Rv))
        sp_["U_sw"] = ((s.X_ij, s.m), e["U_ij:4"].rhs)
        sp_["Q_mm"] = ((s.X_i, s.V, s.r, s.m), e["Qhat_ij:5"].rhs.subs(Rv))
        sp_["U_mm"] = ((s.X_ij, s.S_mm), e["U_ij:5"].rhs)
        sp_["U_pe"] = ((s.X_pe, s.S_pe, s.m), e["U_iPE:6"].rhs)
        sp_["switch"] = (sw_args, _per_visit("eq:4_printed" if reading == "eq4-printed" else "eq:4"))
        sp_["sum_b"] = ((s.p, s.O_X, s.X_ij, s.NC), e["eq:4b_summand"])
        sp_["sum_c"] = ((s.p, s.O_U, s.U_i, s.NC), e["eq:4c_summand"])
        sp_["memory"] = ((s.Ahat_o, s.Qhat_i, s.U_i, s.U_o, s.NC, s.S_mm, s.m), _per_visit("eq:5"))
        sp_["processor"] = ((s.Q_pe, s.U_pe, s.NC, s.S_pe, s.m), e["eq:6"].rhs)
    else:
        sp_["Q_sw"] = ((s.X_i, s.V, s.r, s.m), e["Q_ij"].rhs.subs(Rv))
        sp_["U_sw"] = ((s.X_ij, s.m), e["U_ij:switch"].rhs)
        sp_["Q_mm"] = sp_["Q_sw"]
        sp_["U_mm"] = ((s.X_ij, s.S_mm), e["U_ij:memory"].rhs)
        sp_["U_pe"] = ((s.X_pe, s.S_pe, s.m), e["U_ij:processor"].rhs)
        eq1 = _eq1_reading(reading)
        sp_["switch"] = (sw_args, eq1["switch"])
        sp_["sum_b"] = ((s.p, s.O_X, s.X_ij, s.NC), eq1["summand"])
        sp_["memory"] = ((s.A_o, s.Q_i, s.U_i, s.U_o, s.NC, s.S_mm, s.m), _per_visit("eq:2"))
        sp_["processor"] = ((s.Q_pe, s.U_pe, s.NC, s.S_pe, s.m), e["eq:3"].rhs)
    return sp_


@functools.cache
def _kernels(multi: bool, reading: str = "paper") -> dict:
    """The lambdified callables of :func:`_kernel_specs` (built once per process)."""
    K = dict(compiled(CHAPTER, functools.partial(_kernel_specs, multi, reading), (multi, reading)))
    K.setdefault("sum_c", None)
    return K


def _arr(v, like):
    """Broadcast a lambdified result (may be a Python scalar) to ``like``'s shape."""
    shape = like.shape if type(like) is np.ndarray else np.shape(like)
    if type(v) is np.ndarray and v.shape == shape and v.dtype == float:
        return v  # the common case, without the cost of np.broadcast_to (the same values)
    return np.broadcast_to(np.asarray(v, dtype=float), shape)


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class MinMvaResult(Result):
    """Solution of the approximate MVA for one configuration.

    Attributes
    ----------
    R : float
        Mean response time over all classes ``R = sum_i R_i X_i / X`` (cycles).
    X : float
        Total throughput ``sum_i X_i`` (requests per cycle).
    latency : float
        The contract's name of the response time: ``latency == R`` (cycles).
    saturated : bool
        Always False: the system is closed (``N * NC`` customers), so every
        queue is bounded and the fixed point exists at every ``NC``; past the
        saturation population ``N*`` (:func:`saturation_load`) the throughput
        approaches the bottleneck's bound and ``R`` grows linearly, but never
        becomes infinite.
    R_i, X_i : ndarray (N,)
        Per-class response time (cycles) and throughput (requests/cycle).
    R_pe : ndarray (N,)
        Residence time at the processor center, eq. (3)/(6) (cycles).
    stage_residence : dict[str, float]
        Mean per-visit residence time per stage, ``"F1".."Fn"``, ``"Rn".."R1"``,
        ``"MM"`` (cycles; lead packet for ``m > 1``), as in Tables 1 and 2.
    residence : ndarray (n_centers,)
        Per-center mean per-visit residence time ``sum_i X_ij r_ij / sum_i X_ij``
        (cycles; NaN for centers no class visits).  Center numbering of
        :class:`~models.networks.multistage.MultistageNetwork`.
    center_throughput, center_utilization : ndarray (n_centers,)
        ``X_j = sum_i X_ij`` (customers/cycle) and ``U_j = sum_i U_ij``.
    iterations, residual, converged
        Fixed-point work counter, last relative change, convergence flag.
    method : str
        ``"general"`` or ``"reduced"``.
    params : dict
        The inputs, for provenance.
    """

    R: float
    X: float
    latency: float
    saturated: bool
    R_i: np.ndarray
    X_i: np.ndarray
    R_pe: np.ndarray
    stage_residence: dict
    residence: np.ndarray
    center_throughput: np.ndarray
    center_utilization: np.ndarray
    iterations: int
    residual: float
    converged: bool
    method: str
    params: dict = field(default_factory=dict)
    state: np.ndarray | None = None  # the fixed-point vector (warm starts)

    def to_frame(self):
        """One row: NC, R, X, the stage residence times, iterations."""
        import pandas as pd  # reason: only for this table view; solving needs no pandas

        row = {"NC": self.params.get("NC"), "R": self.R, "X": self.X}
        row.update(self.stage_residence)
        row.update(iterations=self.iterations, converged=self.converged)
        return pd.DataFrame([row])


@dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` over a sequence of ``NC`` values (arrays indexed like ``loads``).

    ``loads`` (the ``NC`` values, requests/processor), ``latency`` (``== R``,
    cycles), ``saturated`` (all False: a closed system), ``R`` (cycles),
    ``X`` (requests/cycle), ``stage_residence`` (label -> array, cycles),
    ``iterations``, ``converged``, ``params`` (without NC) and the individual
    ``results``.
    """

    loads: np.ndarray
    latency: np.ndarray
    saturated: np.ndarray
    R: np.ndarray
    X: np.ndarray
    stage_residence: dict
    iterations: np.ndarray
    converged: np.ndarray
    params: dict
    results: tuple = ()

    @property
    def NC(self) -> np.ndarray:
        """The ``NC`` values (the same array as ``loads``)."""
        return self.loads

    def to_frame(self):
        """One row per NC: NC, R, X, F1..Fn, Rn..R1, MM, iterations, converged."""
        import pandas as pd  # reason: only for this table view; solving needs no pandas

        data = {"NC": self.loads, "R": self.R, "X": self.X}
        data.update(self.stage_residence)
        data.update(iterations=self.iterations, converged=self.converged)
        return pd.DataFrame(data)


# ----------------------------------------------------------------------------
# Prepared model (visits are computed once per configuration)
# ----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Prepared:
    net: MultistageNetwork
    P: np.ndarray
    method: str
    visits: Visits | None
    structure: StageStructure | None
    # general-path index helpers
    cls_sw: np.ndarray | None = None
    ctr_sw: np.ndarray | None = None
    V_sw: np.ndarray | None = None
    p_sw: np.ndarray | None = None
    port_idx: np.ndarray | None = None
    cls_mm: np.ndarray | None = None
    mem_mm: np.ndarray | None = None
    V_mm: np.ndarray | None = None


_PREP_CACHE: dict = {}


def _prepare(topology, k, n, return_wiring, P, method) -> _Prepared:
    key = (topology, k, n, return_wiring, method, _digest(P))
    hit = _PREP_CACHE.get(key)
    if hit is not None:
        return hit
    net = MultistageNetwork(topology, k, n, return_wiring)
    structure = None
    if method in ("auto", "reduced"):
        structure = stage_structure(net, P)
        if structure.ok:
            prep = _Prepared(net, P, "reduced", None, structure)
        elif method == "reduced":
            raise ParameterError(
                f"`method`='reduced' needs stage-symmetric visits (e.g. uniform traffic); {structure.reason}"
            )
    if method == "general" or (structure is not None and not structure.ok):
        vis = visit_ratios(net, P)
        s = vis.n_switch
        ctr_sw = vis.center[:s].astype(np.int64)
        prep = _Prepared(
            net, P, "general", vis, None,
            cls_sw=vis.cls[:s].astype(np.int64), ctr_sw=ctr_sw, V_sw=vis.V[:s], p_sw=vis.p,
            port_idx=(ctr_sw[:, None] * k + np.arange(k)).ravel(),
            cls_mm=vis.cls[s:].astype(np.int64), mem_mm=vis.center[s:].astype(np.int64) - 2 * n * net.N,
            V_mm=vis.V[s:],
        )
    if len(_PREP_CACHE) > 16:
        _PREP_CACHE.clear()
    _PREP_CACHE[key] = prep
    return prep


# ----------------------------------------------------------------------------
# One substitution step
# ----------------------------------------------------------------------------
def _switch_new(K, Xi_pair, V, r, Dtot, Xtot, Ak, p, NC, m):
    """Per-visit switch residence (eq. (1)/(4)) for pairs, given center totals at the pair.

    ``Dtot = sum_s (Q_sj - U_sj)``, ``Xtot = sum_s X_sj``, ``Ak[:, k] = sum_s p_skj X_sj``.
    """
    Xij = _arr(K["X_ij"](V, Xi_pair), V)
    Q = _arr(K["Q_sw"](Xi_pair, V, r, m), V)
    U = _arr(K["U_sw"](Xij, m), V)
    A_o = Dtot - (Q - U)
    O = Xtot[..., None] - Ak - (1.0 - p) * Xij[..., None]   # sum_{s!=i} (1 - p_skj) X_sj, per input k
    NCk = np.asarray(NC)[..., None] if np.ndim(NC) else NC  # NC per row (batched curve) against the inputs k
    Cb = _arr(K["sum_b"](p, O, Xij[..., None], NCk), O).sum(axis=-1)
    if K["sum_c"] is not None:
        Cc = _arr(K["sum_c"](p, m * O, U[..., None], NCk), O).sum(axis=-1)  # U_sj = m X_sj
    else:
        Cc = 0.0
    return _arr(K["switch"](A_o, Q, U, Cb, Cc, NC, m), V)


def _memory_new(K, Xi_pair, V, r, Dtot, Utot, NC, S_mm, m):
    """Per-visit memory residence (eq. (2)/(5)) given ``sum_s (Q_sj - U_sj)`` and ``sum_s U_sj``."""
    Xij = _arr(K["X_ij"](V, Xi_pair), V)
    Q = _arr(K["Q_mm"](Xi_pair, V, r, m), V)
    U = _arr(K["U_mm"](Xij, S_mm), V)
    return _arr(K["memory"](Dtot - (Q - U), Q, U, Utot - U, NC, S_mm, m), V)


def _general_step(prep: _Prepared, K, NC, S_pe, S_mm, m):
    N = prep.net.N
    nc = 2 * prep.net.n * N
    k = prep.net.k
    ns, nm = prep.cls_sw.size, prep.cls_mm.size
    cls_sw, ctr_sw, V_sw, p_sw = prep.cls_sw, prep.ctr_sw, prep.V_sw, prep.p_sw
    cls_mm, mem_mm, V_mm = prep.cls_mm, prep.mem_mm, prep.V_mm

    def class_throughput(x):
        r_sw, r_mm, r_pe = x[:ns], x[ns : ns + nm], x[ns + nm :]
        sumR = np.bincount(cls_sw, V_sw * r_sw, N) + np.bincount(cls_mm, V_mm * r_mm, N)
        return _arr(K["X_i"](NC, sumR, r_pe), r_pe), sumR

    def step(x):
        r_sw, r_mm, r_pe = x[:ns], x[ns : ns + nm], x[ns + nm :]
        Xi, _ = class_throughput(x)
        # switches
        Xs = Xi[cls_sw]
        Xij = _arr(K["X_ij"](V_sw, Xs), V_sw)
        D = _arr(K["Q_sw"](Xs, V_sw, r_sw, m), V_sw) - _arr(K["U_sw"](Xij, m), V_sw)
        Dj = np.bincount(ctr_sw, D, nc)
        Xj = np.bincount(ctr_sw, Xij, nc)
        Ajk = np.bincount(prep.port_idx, (Xij[:, None] * p_sw).ravel(), nc * k).reshape(nc, k)
        new_sw = _switch_new(K, Xs, V_sw, r_sw, Dj[ctr_sw], Xj[ctr_sw], Ajk[ctr_sw], p_sw, NC, m)
        # memories
        Xm = Xi[cls_mm]
        Xmj = _arr(K["X_ij"](V_mm, Xm), V_mm)
        Um = _arr(K["U_mm"](Xmj, S_mm), V_mm)
        Dm = _arr(K["Q_mm"](Xm, V_mm, r_mm, m), V_mm) - Um
        new_mm = _memory_new(
            K, Xm, V_mm, r_mm, np.bincount(mem_mm, Dm, N)[mem_mm], np.bincount(mem_mm, Um, N)[mem_mm], NC, S_mm, m
        )
        # processors (X_iPE_i = X_i, one visit)
        new_pe = _arr(K["processor"](Xi * r_pe, K["U_pe"](Xi, S_pe, m), NC, S_pe, m), r_pe)
        return np.concatenate([new_sw, new_mm, new_pe])

    return step, class_throughput


def _reduced_step(prep: _Prepared, K, NC, S_pe, S_mm, m):
    st = prep.structure
    nb = len(st.labels) - 1  # switch blocks
    V, Wt, p, A, T = st.V, st.Wtot, st.p, st.A, st.T

    def class_throughput(x):
        sumR = np.array([np.dot(T, x[:-1])])
        return _arr(K["X_i"](NC, sumR, x[-1:]), sumR), sumR

    def step(x):
        r, r_pe = x[:-1], x[-1:]
        Xi, _ = class_throughput(x)
        X = np.full(nb, Xi[0])
        rs = r[:nb]
        # center totals under a stage-constant solution: sum_s f(V_sj) = f(sum_s V_sj) (linear)
        Dj = _arr(K["Q_sw"](X, Wt[:nb], rs, m), rs) - _arr(K["U_sw"](_arr(K["X_ij"](Wt[:nb], X), rs), m), rs)
        Xj = _arr(K["X_ij"](Wt[:nb], X), rs)
        Ajk = A[:nb] * X[:, None]
        new_sw = _switch_new(K, X, V[:nb], rs, Dj, Xj, Ajk, p[:nb], NC, m)
        Xm = Xi
        vm, wm, rm = V[nb:], Wt[nb:], r[nb:]
        Um_tot = _arr(K["U_mm"](_arr(K["X_ij"](wm, Xm), rm), S_mm), rm)
        Dm_tot = _arr(K["Q_mm"](Xm, wm, rm, m), rm) - Um_tot
        new_mm = _memory_new(K, Xm, vm, rm, Dm_tot, Um_tot, NC, S_mm, m)
        new_pe = _arr(K["processor"](Xi * r_pe, K["U_pe"](Xi, S_pe, m), NC, S_pe, m), r_pe)
        return np.concatenate([new_sw, new_mm, new_pe])

    return step, class_throughput


def _reduced_rows(prep: _Prepared, K, NCs: np.ndarray, S_pe, S_mm, m):
    """:func:`_reduced_step` for many ``NC`` at once: ``f(x, rows)`` on the rows of a ``(R, B + 1)`` array.

    Element by element the same operations as :func:`_reduced_step` (each
    row is the reduced fixed point at ``NCs[row]``), for
    :func:`models.core.fixed_point.fixed_points`.
    """
    st = prep.structure
    nb = len(st.labels) - 1
    V, Wt, p, A, T = st.V, st.Wtot, st.p, st.A, st.T
    Wt_sw, V_sw, A_sw, p_sw = Wt[:nb], V[:nb], A[:nb], p[:nb]
    vm, wm = V[nb:], Wt[nb:]
    # the visit arrays spread over R rows (the same read-only views as before), made once per R
    views: dict = {}

    def class_throughput(x, NC):
        sumR = x[:, :-1] @ T
        return _arr(K["X_i"](NC, sumR, x[:, -1]), sumR), sumR

    def step(x, rows):
        NC = NCs[rows][:, None]
        r, r_pe = x[:, :-1], x[:, -1:]
        Xi, _ = class_throughput(x, NC[:, 0])
        Xi = Xi[:, None]
        rs = r[:, :nb]
        R = rs.shape[0]
        V_rows = views.get(R)
        if V_rows is None:
            V_rows = views[R] = (np.broadcast_to(V_sw, rs.shape), np.broadcast_to(vm, (R, vm.size)))
        X = np.broadcast_to(Xi, rs.shape)
        Xj = _arr(K["X_ij"](Wt_sw, X), rs)
        Dj = _arr(K["Q_sw"](X, Wt_sw, rs, m), rs) - _arr(K["U_sw"](Xj, m), rs)
        Ajk = A_sw * X[..., None]
        new_sw = _switch_new(K, X, V_rows[0], rs, Dj, Xj, Ajk, p_sw, NC, m)
        rm = r[:, nb:]
        Um_tot = _arr(K["U_mm"](_arr(K["X_ij"](wm, Xi), rm), S_mm), rm)
        Dm_tot = _arr(K["Q_mm"](Xi, wm, rm, m), rm) - Um_tot
        new_mm = _memory_new(K, Xi, V_rows[1], rm, Dm_tot, Um_tot, NC, S_mm, m)
        new_pe = _arr(K["processor"](Xi * r_pe, K["U_pe"](Xi, S_pe, m), NC, S_pe, m), r_pe)
        return np.concatenate([new_sw, new_mm, new_pe], axis=1)

    return step


class _Names:
    """Lazy names of the fixed-point components (for ConvergenceError messages)."""

    def __init__(self, prep: _Prepared, eqs):
        self.prep, self.eqs = prep, eqs

    def __getitem__(self, idx):
        prep = self.prep
        sw, mm, pe = self.eqs
        net = prep.net
        labels = stage_labels(net.n)
        if prep.method == "reduced":
            B = len(labels)
            if idx < B - 1:
                return f"per-visit residence r_ij at stage {labels[idx]} ({sw})"
            if idx == B - 1:
                return f"per-visit residence r_ij at the memories ({mm})"
            return f"processor residence R_iPE_i ({pe})"
        ns, nm = prep.cls_sw.size, prep.cls_mm.size
        if idx < ns:
            c = int(prep.ctr_sw[idx])
            return f"per-visit residence r_ij of class {int(prep.cls_sw[idx])} at center {labels[c // net.N]}:{c % net.N} ({sw})"
        if idx < ns + nm:
            j = idx - ns
            return f"per-visit residence r_ij of class {int(prep.cls_mm[j])} at memory {int(prep.mem_mm[j])} ({mm})"
        return f"processor residence R_iPE_i of class {idx - ns - nm} ({pe})"


# ----------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------
def _population(NC):
    """``NC`` checked: a real number >= 1, returned as ``int`` when integral.

    The paper's ``NC`` (and the simulator's) is an integer; the approximate-MVA
    equations are continuous in it, so the model also takes real values in
    between (the contract's fractions of ``N*`` need them).
    """
    NC = require("NC", NC, 1, MAX_POPULATION, unit="maximum outstanding requests per processor (customers per class)")
    return int(NC) if float(NC).is_integer() else float(NC)


def _validate(NC, network: dict, damping, tol, max_iter, method, reading="paper", where="solve"):
    """The network (:class:`~models.min_mva.params.MvaParams`, the one check of the nine keywords), the reading,
    ``NC`` and the iteration controls: ``(params, NC, max_iter)``."""
    p = MvaParams.of(network, where)
    require_choice("reading", reading, list(EQ1_READINGS) + [r for r in EQ4_READINGS if r not in EQ1_READINGS],
                   unit="reading of eq. (1) or eq. (4)")
    if reading not in EQ4_READINGS and p.m != 1:
        raise ParameterError(f"`reading` {reading!r} is a reading of eq. (1), for m = 1 only; got m = {p.m}")
    if reading not in EQ1_READINGS and p.m == 1:
        raise ParameterError(f"`reading` {reading!r} is a reading of eq. (4), for m > 1 only; got m = 1")
    NC = _population(NC)
    require("damping", damping, 0, 1, lo_open=True, unit="weight of the new iterate")
    require_tol("tol", tol, unit="relative change")
    max_iter = require_max_iter("max_iter", max_iter)
    require_choice("method", method, METHODS)
    return p, NC, max_iter


_DIGESTS: dict = {}


def _digest(P: np.ndarray) -> str:
    """SHA-1 of ``P``'s bytes (the cache key of the load-independent set-up); remembered for the read-only named
    matrices of :class:`~models.min_mva.params.MvaParams`, which cannot change."""
    if not P.flags.writeable:
        hit = _DIGESTS.get(id(P))
        if hit is not None and hit[0] is P:
            return hit[1]
    d = hashlib.sha1(np.ascontiguousarray(P).tobytes()).hexdigest()
    if not P.flags.writeable:
        if len(_DIGESTS) > 32:
            _DIGESTS.clear()
        _DIGESTS[id(P)] = (P, d)
    return d


def _solve_prepared(prep, *, NC, S_pe, S_mm, m, damping, tol, max_iter, raise_on_failure, params, x0=None,
                    reading="paper", update=None):
    multi = m > 1
    K = _kernels(multi, reading)
    eqs = ("eq:4", "eq:5", "eq:6") if multi else ("eq:1", "eq:2", "eq:3")
    if prep.method == "reduced":
        step, class_throughput = _reduced_step(prep, K, NC, S_pe, S_mm, m)
        nb = len(prep.structure.labels) - 1
        init = np.concatenate([np.ones(nb), [m - 1 + S_mm], [m - 1 + S_pe]])
    else:
        step, class_throughput = _general_step(prep, K, NC, S_pe, S_mm, m)
        N = prep.net.N
        init = np.concatenate([np.ones(prep.cls_sw.size), np.full(prep.cls_mm.size, m - 1 + S_mm), np.full(N, m - 1 + S_pe)])
    if x0 is None or np.shape(x0) != init.shape:
        x0 = init
    fp = fixed_point(
        step, x0, damping=damping, tol=tol, max_iter=max_iter,
        where=f"Willick-Eager MVA {eqs} (NC={NC}, S_mm={S_mm:g}, S_pe={S_pe:g}, m={m}, {prep.method} path)",
        names=_Names(prep, eqs), raise_on_failure=raise_on_failure, update=update,
    )
    return _assemble(prep, K, fp, class_throughput, NC=NC, S_mm=S_mm, m=m, params=params)


def _assemble(prep, K, fp, class_throughput, *, NC, S_mm, m, params):
    net = prep.net
    N, n = net.N, net.n
    x = fp.x
    Xi, sumR = class_throughput(x)
    labels = stage_labels(n)
    if prep.method == "reduced":
        st = prep.structure
        Xi = np.full(N, Xi[0])
        sumR = np.full(N, sumR[0])
        r_pe = np.full(N, x[-1])
        rb = x[:-1]
        stage = dict(zip(labels, rb.tolist()))
        residence = np.repeat(rb, N)
        Xc = np.repeat(st.Wtot, N) * Xi[0]
    else:
        ns, nm = prep.cls_sw.size, prep.cls_mm.size
        r_pe = x[ns + nm :]
        ctr = np.concatenate([prep.ctr_sw, prep.mem_mm + 2 * n * N])
        cls = np.concatenate([prep.cls_sw, prep.cls_mm])
        V = np.concatenate([prep.V_sw, prep.V_mm])
        Xij = V * Xi[cls]
        Xc = np.bincount(ctr, Xij, net.n_centers)
        num = np.bincount(ctr, Xij * x[: ns + nm], net.n_centers)
        with np.errstate(invalid="ignore", divide="ignore"):
            residence = np.where(Xc > 0, num / np.where(Xc > 0, Xc, 1.0), np.nan)
        blocks = np.arange(net.n_centers) // N
        stage = {}
        for b, lab in enumerate(labels):
            sl = blocks == b
            tot = Xc[sl].sum()
            stage[lab] = float(num[sl].sum() / tot) if tot > 0 else float("nan")
    # order as in the paper's tables: F1..Fn, Rn..R1, MM
    ordered = {f"F{t}": stage[f"F{t}"] for t in range(1, n + 1)}
    ordered.update({f"R{t}": stage[f"R{t}"] for t in range(n, 0, -1)})
    ordered["MM"] = stage["MM"]
    R_i = np.broadcast_to(np.asarray(K["R_i"](sumR, m), dtype=float), sumR.shape).copy()
    X = float(Xi.sum())
    R = float(np.dot(R_i, Xi) / X)
    util = Xc.copy()
    util[: 2 * n * N] *= m
    util[2 * n * N :] *= S_mm
    return MinMvaResult(
        R=R, X=X, latency=R, saturated=False,  # closed system: never saturated (class docstring)
        R_i=R_i, X_i=np.asarray(Xi, dtype=float).copy(), R_pe=np.asarray(r_pe, dtype=float).copy(),
        stage_residence=ordered, residence=residence, center_throughput=Xc, center_utilization=util,
        iterations=fp.iterations, residual=fp.residual, converged=fp.converged, method=prep.method,
        params=params, state=x,
    )


def solve(
    NC: float,
    /,
    *,
    damping: float = 0.5,
    tol: float = 1e-12,
    max_iter: int = 20000,
    raise_on_failure: bool = True,
    method: str = "auto",
    reading: str = "paper",
    **network,
) -> MinMvaResult:
    """Solve Willick & Eager's approximate MVA of a multiprocessor with a multistage network.

    Parameters
    ----------
    NC : float in [1, 256] (positional)
        Maximum outstanding requests per processor (customers per class), the
        load (:data:`models.min_mva.LOAD`).  The paper's values are integers;
        real values >= 1 are accepted (the equations are continuous in ``NC``).
    **network
        The multiprocessor: ``topology``, ``k``, ``n``, ``S_pe``, ``S_mm``,
        ``m``, ``pattern``, ``return_wiring``, ``pattern_options``, each
        documented (with its default, unit and range) by
        :class:`models.min_mva.params.MvaParams`, which checks them.  Default:
        the paper's 64-processor omega network of ``2 x 2`` switches,
        ``S_pe = S_mm = 1``, one packet, uniform traffic, mirror-image return network.
    damping, tol, max_iter
        Damped fixed-point iteration on the per-visit residence times
        (``0 < damping <= 1``, ``tol >= 1e-15``, ``max_iter <= 1e7``).
    raise_on_failure : bool
        Raise :class:`~models.core.errors.ConvergenceError` (default) or return
        ``converged=False``.
    method : {"auto", "general", "reduced"}
        Solution path (module docstring); ``auto`` uses ``reduced`` when exact.
    reading : str
        Reading of eq. (1), one of :data:`models.min_mva.equations.EQ1_READINGS`
        (``"paper"``, the default, is the chapter's; the others are the
        alternatives tried against Table 1) for ``m = 1``; for ``m > 1`` one of
        :data:`models.min_mva.readings.EQ4_READINGS` (``"paper"``: eq. (4) with
        the factor m the text of Sec. 4.2 asks for; ``"eq4-printed"``: as printed).

    Returns
    -------
    MinMvaResult
        Times in cycles, throughputs in requests per cycle; ``latency == R``,
        ``saturated`` always False (a closed system).

    Raises
    ------
    ParameterError
        For an invalid parameter (named in the message).
    ConvergenceError
        If the iteration does not converge within ``max_iter`` (names the
        equation and the (class, center) whose value moved most).
    """
    return _solve_checked(NC, network, damping, tol, max_iter, raise_on_failure, method, reading, "solve")[1]


def _solve_checked(NC, network, damping, tol, max_iter, raise_on_failure, method, reading, where):
    """:func:`solve` after its checks: ``(prepared network, result)``."""
    p, NC, max_iter = _validate(NC, network, damping, tol, max_iter, method, reading, where)
    prep = _prepare(p.topology, p.k, p.n, p.return_wiring, p.P, method)
    params = dict(
        topology=p.topology, k=p.k, n=p.n, N=p.N, NC=NC, S_pe=p.S_pe, S_mm=p.S_mm, m=p.m,
        pattern=p.pattern if isinstance(p.pattern, str) else "matrix", pattern_options=dict(p.pattern_options or {}),
        return_wiring=p.return_wiring, damping=damping, tol=tol, max_iter=max_iter, method=method, reading=reading,
    )
    return prep, _solve_prepared(
        prep, NC=NC, S_pe=p.S_pe, S_mm=p.S_mm, m=p.m, damping=damping, tol=tol, max_iter=max_iter,
        raise_on_failure=raise_on_failure, params=params, reading=reading,
    )


def _reduced_curve(prep: _Prepared, NCs, prm: dict, raise_on_failure: bool, accelerate: bool = True) -> list:
    """:func:`_solve_prepared` on the reduced path at every ``NC`` of ``NCs`` at once (one row per ``NC``).

    ``accelerate``: Newton steps once a row's damped step is below 1e-2
    (:func:`models.core.fixed_point.newton_update`); otherwise every row is
    :func:`solve`'s damped iteration step for step.
    """
    m, S_pe, S_mm = prm["m"], prm["S_pe"], prm["S_mm"]
    multi = m > 1
    K = _kernels(multi, prm["reading"])
    eqs = ("eq:4", "eq:5", "eq:6") if multi else ("eq:1", "eq:2", "eq:3")
    nb = len(prep.structure.labels) - 1
    init = np.concatenate([np.ones(nb), [m - 1 + S_mm], [m - 1 + S_pe]])
    NCa = np.asarray(NCs, dtype=float)
    step = _reduced_rows(prep, K, NCa, S_pe, S_mm, m)
    fps = fixed_points(
        step, np.tile(init, (NCa.size, 1)), damping=prm["damping"],
        update=newton_update(step, damping=prm["damping"]) if accelerate else None,
        tol=prm["tol"], max_iter=prm["max_iter"], raise_on_failure=raise_on_failure,
        where=f"Willick-Eager MVA {eqs} (NC={list(NCs)}, S_mm={S_mm:g}, S_pe={S_pe:g}, m={m}, reduced path, "
              f"problem = index into NC)",
        names=_Names(prep, eqs),
    )
    out = []
    for i, NC in enumerate(NCs):
        _, class_throughput = _reduced_step(prep, K, NC, S_pe, S_mm, m)
        out.append(_assemble(prep, K, fps[i], class_throughput, NC=NC, S_mm=S_mm, m=m, params={**prm, "NC": NC}))
    return out


def solve_curve(NC_values, /, *, accelerate: bool = True, damping: float = 0.5, tol: float = 1e-12,
                max_iter: int = 20000, raise_on_failure: bool = True, method: str = "auto", reading: str = "paper",
                **network) -> CurveResult:
    """:func:`solve` for each ``NC`` in ``NC_values`` (same keyword arguments otherwise).

    Visits are computed once.  On the reduced path (stage-symmetric visits,
    e.g. uniform traffic) every ``NC`` is iterated at once on arrays
    (:func:`models.core.fixed_point.fixed_points`, each row from the same
    start as :func:`solve`).  With ``accelerate`` (default), a row whose
    damped step has fallen below 1e-2 (relative) takes Newton steps
    (:func:`models.core.fixed_point.newton_update`: Jacobian by forward
    differences, no step larger than 10%), and the row stops at
    :func:`solve`'s test (a damped step below ``tol``).  The damped iteration
    crawls at large ``NC`` (about ``12 NC`` iterations on the paper's omega
    network); Newton ends it in a few steps, at the same fixed point:
    :func:`solve`'s within its own convergence error (relative differences
    below ``1e-9`` over 165 configurations tested; the equations have other,
    unphysical fixed points, which the damped start and the 10% bound keep
    Newton away from).  ``iterations`` then counts damped and Newton steps.
    ``accelerate=False``: each row is :func:`solve`'s iteration step for
    step (results and iteration counts identical).  The first ``NC`` is
    always :func:`solve`'s.  On the general path (e.g. the hot spot; one
    unknown per visited pair, thousands of them) each point starts from the
    previous solution (the fixed point does not depend on the start, only
    the iteration count), and ``accelerate`` takes Anderson steps there
    (:func:`models.core.fixed_point.anderson_update`, no Jacobian; the same
    1e-2 and 10% guards) once the damped step is below 1e-2.
    """
    if "NC" in network:
        raise ParameterError("`NC` is given by `NC_values` in solve_curve")
    if not isinstance(accelerate, bool):
        raise ParameterError(f"`accelerate` must be True or False; got {accelerate!r}")
    NCs = require_loads("NC_values", NC_values, _population, unit="requests/processor")
    results = []
    x0 = None
    prep, first = _solve_checked(NCs[0], network, damping, tol, max_iter, raise_on_failure, method, reading,
                                 "solve_curve")
    results.append(first)
    prm = first.params
    if prep.method == "reduced" and len(NCs) > 1:
        results.extend(_reduced_curve(prep, NCs[1:], prm, raise_on_failure, accelerate))
    else:
        x0 = first.state
        for NC in NCs[1:]:
            res = _solve_prepared(
                prep, NC=NC, S_pe=prm["S_pe"], S_mm=prm["S_mm"], m=prm["m"], damping=prm["damping"], tol=prm["tol"],
                max_iter=prm["max_iter"], raise_on_failure=raise_on_failure, params={**prm, "NC": NC}, x0=x0,
                reading=prm["reading"], update=anderson_update(damping=prm["damping"]) if accelerate else None,
            )
            results.append(res)
            x0 = res.state
    labels = list(first.stage_residence)
    params = {kk: v for kk, v in prm.items() if kk != "NC"}
    R = np.array([r.R for r in results])
    return CurveResult(
        loads=np.array(NCs),
        latency=R,
        saturated=np.zeros(len(results), dtype=bool),
        R=R,
        X=np.array([r.X for r in results]),
        stage_residence={lab: np.array([r.stage_residence[lab] for r in results]) for lab in labels},
        iterations=np.array([r.iterations for r in results]),
        converged=np.array([r.converged for r in results]),
        params=params,
        results=tuple(results),
    )


# ----------------------------------------------------------------------------
# Asymptotic bounds: the saturation population N*
# ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class AsymptoticBounds(Result):
    """Asymptotic bounds of the closed network (Lazowska et al. 1984, ch. 5).

    Attributes
    ----------
    NC_star : float
        Saturation population ``N*`` in requests per processor: the ``NC`` at
        which the light-load asymptotes ``X_i = NC / (D_i + Z_i)`` meet the
        bottleneck's capacity (the knee of the throughput curve).
    N_star : float
        The same in customers in the whole system, ``N * NC_star``.
    cycle : ndarray (N,)
        ``D_i + Z_i`` per class: the cycle time of a request alone in the
        system (the model's residence times with every queueing term zero), cycles.
    demand : ndarray (n_centers + N,)
        Service demand of every center summed over classes,
        ``sum_i V_ij S_j`` (cycles per request of each class), the centers of
        :class:`~models.networks.multistage.MultistageNetwork` followed by the
        ``N`` processors.
    D_max : float
        Bottleneck demand of the aggregate customer (classes weighted by their
        light-load throughputs), cycles; ``1 / D_max = X_max``.
    X_max : float
        Total throughput at the knee (requests/cycle); the throughput bound
        when the classes are symmetric (e.g. uniform traffic).
    bottleneck : str
        Where the bottleneck is: a stage label (``"F1"``.., ``"R1"``..), ``"MM"``
        (memory) or ``"PE"`` (processor), with the center number (the first
        of several equally loaded centers, whose number is then given).
    params : dict
        The inputs, for provenance.
    """

    NC_star: float
    N_star: float
    cycle: np.ndarray
    demand: np.ndarray
    D_max: float
    X_max: float
    bottleneck: str
    params: dict = field(default_factory=dict)


_VISITS_CACHE: dict = {}


def _network_visits(topology, k, n, return_wiring, P) -> tuple:
    """``(MultistageNetwork, visit_ratios(net, P))``, kept per configuration (they do not depend on the load)."""
    key = (topology, k, n, return_wiring, _digest(P))
    hit = _VISITS_CACHE.get(key)
    if hit is None:
        net = MultistageNetwork(topology, k, n, return_wiring)
        hit = (net, visit_ratios(net, P))
        if len(_VISITS_CACHE) > 8:
            _VISITS_CACHE.clear()
        _VISITS_CACHE[key] = hit
    return hit


def asymptotic_bounds(**network) -> AsymptoticBounds:
    """The saturation population ``N*`` of the asymptotic bounds, from the model's own demands.

    For a single-class closed network, Lazowska et al., *Quantitative System
    Performance* (1984), ch. 5 ("Bounds on performance"): throughput
    ``X(N) <= min(N / (D + Z), 1 / D_max)`` with total demand ``D = sum_k D_k``,
    think time ``Z`` and bottleneck demand ``D_max = max_k D_k``; the two
    asymptotes cross at ``N* = (D + Z) / D_max``.  Here, with one class per
    processor (``NC`` customers each), the demands are the model's own
    (visit ratios times the service times of its utilisation laws):
    ``D_ij = m V_ij`` at a switch output port (``U_ij = m X_ij``, eq. (4)),
    ``S_mm V_ij`` at a memory, ``S_pe + m - 1`` at the class's own processor
    (``U_iPE``, eq. (6); ``S_pe`` for ``m = 1``); ``Z = 1`` is the
    memory-to-network link (a pure delay, the "1" of ``X_i``).  ``D_i + Z_i``
    is the cycle of a request alone in the system: the model's residence
    times with every queueing term zero (the solver's starting point:
    1 cycle per switch visit, ``m - 1 + S_mm`` at the memory,
    ``m - 1 + S_pe`` at the processor, plus the link), for ``m = 1`` exactly
    ``sum_j D_ij + Z``; for ``m > 1`` the packets of a request pipeline
    through the switches, so a lone request takes ``2n`` switch cycles, not
    ``2nm``.  Along the light-load asymptotes ``X_i = NC / (D_i + Z_i)`` the
    first center to saturate sets

        ``NC* = 1 / max_j sum_i D_ij / (D_i + Z_i)``,

    which for symmetric classes (uniform traffic, every ``D_i + Z_i`` equal)
    is ``(D + Z) / D_max`` of the aggregate customer expressed per processor:
    ``NC* = (D_i + Z_i) / max_j sum_i D_ij``, e.g. ``(2n + S_mm + 1 + S_pe) /
    max(1, S_mm, S_pe)`` for ``m = 1``.  Closed form; no iteration.

    ``network``: the multiprocessor's keywords (:class:`models.min_mva.params.MvaParams`, which documents
    and checks them; the defaults are :func:`solve`'s).

    Returns
    -------
    AsymptoticBounds
    """
    return _bounds(MvaParams.of(network, "asymptotic_bounds"))


def _bounds(p: MvaParams) -> AsymptoticBounds:
    """:func:`asymptotic_bounds` of the checked ``p``, kept per configuration (it does not depend on the load)."""
    key = (p.topology, p.k, p.n, p.S_pe, p.S_mm, p.m, p.return_wiring, _digest(p.P),
           isinstance(p.pattern, str) and p.pattern, repr(sorted((p.pattern_options or {}).items())))
    hit = _BOUNDS_CACHE.get(key)
    if hit is not None:
        return hit
    out = _asymptotic_bounds(p)
    if len(_BOUNDS_CACHE) > 64:
        _BOUNDS_CACHE.clear()
    _BOUNDS_CACHE[key] = out
    return out


_BOUNDS_CACHE: dict = {}


def _asymptotic_bounds(p: MvaParams) -> AsymptoticBounds:
    """:func:`asymptotic_bounds` after validation."""
    n, m, S_pe, S_mm = p.n, p.m, p.S_pe, p.S_mm
    net, vis = _network_visits(p.topology, p.k, n, p.return_wiring, p.P)
    N = net.N
    s = vis.n_switch
    cls = vis.cls.astype(np.int64)
    # the model's zero-contention residence per visit: 1 (lead packet) at a switch, m - 1 + S_mm at a memory
    r0 = np.where(np.arange(cls.size) < s, 1.0, m - 1 + S_mm)
    cycle = np.bincount(cls, vis.V * r0, N) + 1.0 + (m - 1 + S_pe)
    service = np.where(np.arange(cls.size) < s, float(m), S_mm)
    D = vis.V * service
    demand = np.concatenate([np.bincount(vis.center, D, net.n_centers), np.full(N, S_pe + m - 1)])
    weighted = np.concatenate([np.bincount(vis.center, D / cycle[cls], net.n_centers), (S_pe + m - 1) / cycle])
    top = float(weighted.max())
    tied = np.flatnonzero(weighted >= top * (1.0 - 1e-9))  # equal up to rounding (e.g. every center at S_mm = 1)
    j = int(tied[0])
    NC_star = 1.0 / top
    X_max = float(NC_star * np.sum(1.0 / cycle))
    where = f"PE {j - net.n_centers}" if j >= net.n_centers else f"{stage_labels(n)[j // N]} {j % N}"
    if tied.size > 1:
        where += f" (and {tied.size - 1} more centers as loaded)"
    params = dict(topology=p.topology, k=p.k, n=n, N=N, S_pe=S_pe, S_mm=S_mm, m=m,
                  pattern=p.pattern if isinstance(p.pattern, str) else "matrix",
                  pattern_options=dict(p.pattern_options or {}), return_wiring=p.return_wiring)
    return AsymptoticBounds(NC_star=NC_star, N_star=N * NC_star, cycle=cycle, demand=demand, D_max=1.0 / X_max,
                            X_max=X_max, bottleneck=where, params=params)


#: Keyword arguments of :func:`solve` that steer the iteration, or the reading of eq. (1)'s queueing terms, which
#: the asymptotic bounds do not depend on (accepted and ignored by :func:`saturation_load`).
SOLVER_OPTIONS = ("damping", "tol", "max_iter", "raise_on_failure", "method", "reading")


def saturation_load(*, rtol: float = 1e-4, **params) -> float:
    """The saturation population ``N*`` in requests per processor (``NC`` units).

    ``N* = (D + Z) / D_max`` of the asymptotic bounds (Lazowska et al. 1984,
    ch. 5), from the model's own service demands: :func:`asymptotic_bounds`
    gives the formula and its multi-class form.  A closed system never
    saturates (:attr:`MinMvaResult.saturated` is always False); ``N*`` is the
    knee where the bottleneck center saturates, past which the throughput
    levels off and ``R`` grows linearly in ``NC``.  It is a closed form, so
    no bisection: ``rtol`` is accepted for the contract (and checked) but
    the value is exact.  ``params`` are the multiprocessor's keywords
    (:class:`models.min_mva.params.MvaParams`) and, accepted so that
    :func:`solve`'s keyword arguments can be passed unchanged, its
    :data:`SOLVER_OPTIONS` (``damping``, ``tol``, ``max_iter``,
    ``raise_on_failure``, ``method``, ``reading``), which do not matter here.
    """
    p = MvaParams.of({key: value for key, value in params.items() if key not in SOLVER_OPTIONS}, "saturation_load")
    require("rtol", rtol, 0, 1, hi_open=True, unit="relative tolerance (unused: N* is a closed form)")
    return _bounds(p).NC_star
