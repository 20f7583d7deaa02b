"""Visit ratios V_ij and input-port probabilities p_ikj (Willick & Eager, Sec. 2.3 and 3.2).

The paper's path algorithm: for every processor-memory pair ``(i, m)`` add
``P_im`` to ``V_ij`` for every switch output-port center ``j`` on the request
path ``i -> m`` and on the reply path ``m -> i``; the memory center ``m``
gets ``V_im = P_im``.  Alongside, ``P_im`` is added to ``W[i, j, k]`` where
``k`` is the input port on which the packet reaches the switch owning ``j``;
``p_ikj = W[i, j, k] / V_ij`` is then the probability that a class-``i``
customer passing through ``j`` arrived on input ``k`` of ``j``'s switch
(``IN_j`` = the ``k`` inputs of that switch, numbered ``0..k-1``).

Centers are numbered as in :class:`~models.networks.multistage.MultistageNetwork`:
forward stage ``t`` line ``l`` -> ``(t-1) N + l``, return stage ``t`` line
``l`` -> ``(n+t-1) N + l``, memory ``j`` -> ``2 n N + j``.

Everything is built one *stage* (a block of ``N`` centers) at a time with
``np.bincount`` into a dense ``(N classes, N lines, k)`` array, so that
``N = 1024`` (``k = 2, n = 10``) needs ~16 MB per stage; the general solver
keeps the non-zero (class, center) pairs only (:class:`Visits`), the
reduced solver only per-stage summaries (:class:`StageStructure`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..networks.multistage import MultistageNetwork, switch_of


def stage_labels(n: int) -> list[str]:
    """Labels of the ``2n+1`` center blocks in center order: F1..Fn, R1..Rn, MM."""
    return [f"F{t}" for t in range(1, n + 1)] + [f"R{t}" for t in range(1, n + 1)] + ["MM"]


def center_switch(net: MultistageNetwork) -> np.ndarray:
    """Global switch id of every center (``-1`` for memory centers).

    Forward stage ``t`` switch ``s`` -> ``(t-1) N/k + s``; return stage ``t``
    -> ``(n+t-1) N/k + s``.  A return center under the ``"mirror"`` wiring
    is the line that enters forward stage ``t``, and belongs to the mirror of
    that forward switch; under ``"same"`` return stage ``t`` is the forward
    topology's stage ``n+1-t`` counted from the memories.
    """
    k, n, N = net.k, net.n, net.N
    lines = np.arange(N)
    out = np.full(net.n_centers, -1, dtype=np.int64)
    for t in range(1, n + 1):
        out[(t - 1) * N : t * N] = (t - 1) * (N // k) + switch_of(net.topology, k, n, t, lines)
        st = t if net.return_wiring == "mirror" else n + 1 - t
        out[(n + t - 1) * N : (n + t) * N] = (n + t - 1) * (N // k) + switch_of(net.topology, k, n, st, lines)
    return out


def _stage_routes(net: MultistageNetwork):
    """Yield ``(block, lines[src, dst], ports[src, dst], transpose)`` for every switch stage.

    ``block`` is the 0-based center block (``t-1`` forward, ``n+t-1`` return);
    for return stages the arrays are indexed ``[memory, processor]``
    (``transpose=True``).
    """
    N = net.N
    fc, fp = net.forward_route()
    for pos in range(net.n):
        c = fc[:, :, pos]
        block = int(c[0, 0]) // N
        yield block, c - block * N, fp[:, :, pos], False
    rc, rp = net.return_route()
    for pos in range(net.n):
        c = rc[:, :, pos]
        block = int(c[0, 0]) // N
        yield block, c - block * N, rp[:, :, pos], True


def stage_port_visits(net: MultistageNetwork, P: np.ndarray):
    """Yield ``(block, W)`` per center block, ``W[i, l, k] = sum of P_im`` over paths of class ``i``
    through line ``l`` of the block arriving on input ``k``.

    ``W.sum(-1)`` is ``V_ij`` for that block; for the memory block ``W`` has a
    single input (``W[i, j, 0] = P_ij``).
    """
    k, N = net.k, net.N
    cls = np.arange(N, dtype=np.int64)
    for block, lines, ports, transpose in _stage_routes(net):
        if transpose:  # [memory d, processor i]: class i, weight P[i, d]
            idx = (cls[None, :] * N + lines) * k + ports
            w = P.T
        else:
            idx = (cls[:, None] * N + lines) * k + ports
            w = P
        mask = w > 0
        W = np.bincount(idx[mask], weights=w[mask], minlength=N * N * k).reshape(N, N, k)
        yield block, W
    yield 2 * net.n, P[:, :, None].copy()


@dataclass(frozen=True, eq=False)
class Visits:
    """Non-zero visit ratios of every (class, center) pair (general solver).

    Attributes
    ----------
    network : MultistageNetwork
    P : ndarray (N, N)
        Reference matrix.
    cls, center : int arrays (nnz,)
        Class (processor) and center of each pair; switch pairs first
        (``[:n_switch]``), then memory pairs.
    V : float array (nnz,)
        Visit ratio ``V_ij`` (expected visits per request).
    p : float array (n_switch, k)
        ``p_ikj`` for the switch pairs (rows sum to 1).
    center_switch : int array (n_centers,)
        Global switch id of each center (-1: memory).
    """

    network: MultistageNetwork
    P: np.ndarray
    cls: np.ndarray
    center: np.ndarray
    V: np.ndarray
    p: np.ndarray
    n_switch: int
    center_switch: np.ndarray

    def dense(self) -> np.ndarray:
        """``V[i, j]`` as a dense ``(N, n_centers)`` array (small networks only)."""
        out = np.zeros((self.network.N, self.network.n_centers))
        out[self.cls, self.center] = self.V
        return out

    def dense_p(self) -> np.ndarray:
        """``p[i, j, k]`` as a dense ``(N, n_centers, k)`` array (0 where not visited; memory: input 0)."""
        net = self.network
        out = np.zeros((net.N, net.n_centers, net.k))
        s = self.n_switch
        out[self.cls[:s], self.center[:s]] = self.p
        out[self.cls[s:], self.center[s:], 0] = 1.0
        return out


def visit_ratios(net: MultistageNetwork, P: np.ndarray) -> Visits:
    """Visit ratios and input-port probabilities by the paper's path algorithm (vectorised).

    Parameters
    ----------
    net : MultistageNetwork
    P : ndarray (N, N)
        Reference matrix (rows sum to 1).
    """
    N = net.N
    cls_l, ctr_l, V_l, p_l = [], [], [], []
    for block, W in stage_port_visits(net, P):
        Vb = W.sum(-1)
        ii, ll = np.nonzero(Vb)
        cls_l.append(ii.astype(np.int32))
        ctr_l.append((block * N + ll).astype(np.int32))
        V_l.append(Vb[ii, ll])
        if block < 2 * net.n:
            p_l.append(W[ii, ll] / Vb[ii, ll, None])
    n_switch = sum(len(c) for c in cls_l[:-1])
    return Visits(
        network=net,
        P=P,
        cls=np.concatenate(cls_l),
        center=np.concatenate(ctr_l),
        V=np.concatenate(V_l),
        p=np.concatenate(p_l) if p_l else np.zeros((0, net.k)),
        n_switch=n_switch,
        center_switch=center_switch(net),
    )


def visit_ratios_naive(net: MultistageNetwork, P: np.ndarray):
    """The paper's algorithm as written (Python loops); for tests on small networks.

    Returns dense ``V (N, n_centers)`` and ``p (N, n_centers, k)``.
    """
    N, k = net.N, net.k
    V = np.zeros((N, net.n_centers))
    W = np.zeros((N, net.n_centers, k))
    fc, fp = net.forward_route()
    rc, rp = net.return_route()
    for i in range(N):
        for mm in range(N):
            if P[i, mm] == 0:
                continue
            for t in range(net.n):
                V[i, fc[i, mm, t]] += P[i, mm]
                W[i, fc[i, mm, t], fp[i, mm, t]] += P[i, mm]
                V[i, rc[mm, i, t]] += P[i, mm]
                W[i, rc[mm, i, t], rp[mm, i, t]] += P[i, mm]
            V[i, net.memory_center(mm)] += P[i, mm]
            W[i, net.memory_center(mm), 0] += P[i, mm]
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(V[:, :, None] > 0, W / V[:, :, None], 0.0)
    return V, p


@dataclass(frozen=True, eq=False)
class StageStructure:
    """Per-stage summary of the visits, valid when every (class, center) pair of a stage looks alike.

    For each of the ``2n+1`` blocks (F1..Fn, R1..Rn, MM) one representative
    pair: its visit ratio ``V``, the center's total visits ``Wtot = sum_s V_sj``,
    the rep. class's port probabilities ``p`` (k,) and the center's per-input
    visits ``A = sum_s p_skj V_sj`` (k,), plus ``T = sum_{j in block} V_ij``
    (visits per request to the block, 1).  ``ok`` says whether the
    reduction is exact: within each block ``V``, ``Wtot``, ``G = sum_k p_ik A_k``
    and ``H = sum_k p_ik (1 - p_ik)`` are the same for all visited pairs and
    ``T`` is the same for all classes, so that the solution of the general
    equations has one per-visit residence time per block (the equations
    depend on a pair's ports only through ``G`` and ``H``).
    """

    labels: tuple
    V: np.ndarray       # (B,)
    Wtot: np.ndarray    # (B,)
    p: np.ndarray       # (B, k)
    A: np.ndarray       # (B, k)
    T: np.ndarray       # (B,)
    ok: bool
    reason: str


def stage_structure(net: MultistageNetwork, P: np.ndarray, rtol: float = 1e-10) -> StageStructure:
    """Summaries for the reduced (one unknown per stage) solver; see :class:`StageStructure`."""
    k, N = net.k, net.N
    B = 2 * net.n + 1
    V = np.zeros(B)
    Wt = np.zeros(B)
    pp = np.zeros((B, k))
    AA = np.zeros((B, k))
    T = np.zeros(B)
    ok, reason = True, ""
    labels = stage_labels(net.n)

    def same(a):
        return a.size == 0 or np.ptp(a) <= rtol * max(1.0, float(np.max(np.abs(a))))

    for block, W in stage_port_visits(net, P):
        kk = W.shape[-1]
        Vb = W.sum(-1)                    # (N, N)
        Wtot = Vb.sum(0)                  # (N,) per line
        A = W.sum(0)                      # (N, kk) per line and input
        mask = Vb > 0
        ii, ll = np.nonzero(mask)
        v = Vb[ii, ll]
        pk = W[ii, ll] / v[:, None]
        G = (pk * A[ll]).sum(-1)
        H = 1.0 - (pk * pk).sum(-1)
        Tb = Vb.sum(1)
        if ok:
            for name, arr in (("V", v), ("sum_s V_sj", Wtot[ll]), ("G", G), ("H", H), ("T", Tb)):
                if not same(arr):
                    ok, reason = False, f"{labels[block]}: {name} differs between pairs"
                    break
        V[block], Wt[block], T[block] = v[0], Wtot[ll[0]], Tb[0]
        pp[block, :kk] = pk[0]
        AA[block, :kk] = A[ll[0]]
    return StageStructure(tuple(labels), V, Wt, pp, AA, T, ok, reason)


@lru_cache(maxsize=8)
def _cached_network(topology: str, k: int, n: int, return_wiring: str) -> MultistageNetwork:
    return MultistageNetwork(topology, k, n, return_wiring)
