"""Cycle-level simulator of a closed multiprocessor with multistage networks (Willick & Eager 1990).

``N = k**n`` processors reach ``N`` memory modules through a forward
multistage network of ``k x k`` output-buffered switches and get their replies
through a return network (:class:`models.networks.multistage.MultistageNetwork`).  This
is the system whose approximate-MVA model the paper validates by simulation
(Secs. 2.1, 3.1, 4.1, 3.3); :func:`simulate` is that simulation.

Semantics
---------
Time is counted in clock cycles ``t = 0, 1, ...``.  "A packet arrives at a
queue at cycle ``a``" means it is in the buffer at the end of cycle ``a``
and can first be transmitted during cycle ``a + 1``.  Every link carries one
packet per cycle.  Requests and replies are *messages* of ``m`` packets.

Processors (Secs. 3.1, 4.1)
    Processor ``i`` may issue a request in cycle ``t`` if it has fewer than
    ``NC`` requests outstanding and is not still sending the packets of its
    previous request; it then does so with probability ``1/S_pe``
    (geometric delay, mean ``S_pe`` cycles, from the cycle after the last
    packet of the previous request was sent, or after the blocking reply
    completed, to the cycle the next lead packet is sent; ``S_pe = 1``
    means every eligible cycle).  The destination is drawn from row ``i`` of
    the reference matrix.  The lead packet is sent on the processor link
    during ``t`` and arrives at the end of ``t`` in the output queue of the
    first-stage switch on its path; the tail packets follow in
    ``t+1 .. t+m-1``.  A processor blocked at ``NC`` outstanding requests
    may issue again in the cycle after the *last* packet of a reply
    arrives.
Switch output ports
    Each output port is a FIFO of messages with an unbounded buffer,
    ordered by the arrival cycle of the messages' lead packets; lead
    packets arriving in the same cycle (on different input ports) are put
    in a uniformly random order.  When the link is idle and the queue is
    non-empty, the head message starts: its lead packet is transmitted
    during cycle ``s >= a + 1`` (``a`` = its lead packet's arrival) and its
    ``m - 1`` tail packets during ``s+1 .. s+m-1``; the link is busy for
    those ``m`` cycles (messages are never split, Sec. 4.1).  The lead
    packet arrives at the next queue at the end of ``s`` and may be
    forwarded from there in ``s + 1`` although its tail is still arriving
    (cut-through of the lead packet, virtual cut-through of the message).
    This is exact for the packet-level switch of Sec. 4.1 (tail packets of
    the message in service have priority on their input port): because
    every upstream link sends a message's packets on consecutive cycles,
    tail packet ``q`` arrives at ``a + q - 1 < s + q - 1`` and is always
    there when its turn comes.
Memory modules
    One FIFO per module (single input port).  A request starts service
    when it is at the head, the module is idle, and its *last* packet has
    arrived (the cycle after the last packet's arrival at the earliest).
    Service is deterministic, ``S_mm >= m`` cycles; the next request may
    start on the cycle after a service ends.  In parallel, the reply's lead
    packet is sent on the memory-to-network link during the cycle after the
    service ends and arrives at the end of that cycle in the first return
    queue on its path (the "+1" link of the paper's ``R_i``; for ``m = 1``
    it arrives "at the end of the ``S_mm + 1``-st cycle", Sec. 3.1); the
    tail follows on consecutive cycles.  ``S_mm >= m`` keeps this link
    free of conflicts.
Return network
    Same output-port FIFOs.  ``return_wiring="mirror"`` (default): each
    reply retraces its request's path backwards (the wiring under which
    the paper's simulation column is reproduced; notes, Sec. 10);
    ``"same"``: a second copy of the forward topology.  The last return
    stage's output link delivers the reply to its processor; a request is
    *complete* at the cycle its reply's last packet arrives there.

Order of events in a cycle ``t`` (all decisions use the state at the end
of ``t - 1``): (1) each processor retires a reply completed at ``t - 1``,
then possibly issues a request; (2) each memory emits the reply of a
service that ended at ``t - 1`` and, if idle, starts the next request
whose last packet arrived by ``t - 1``; (3) each idle switch output link
starts its head message.  (4) At the end of ``t`` all lead packets sent
during ``t`` join their next queues, simultaneous arrivals to one queue in
random order.  Because decisions only read end-of-``t-1`` state, the order
of (1)-(3) does not matter.

Measures (the model's definitions, Secs. 2.4, 3.2, 4.2)
-------------------------------------------------------
Response time
    From the cycle a request's lead packet leaves the processor (end of
    the issue cycle ``t0``) to the cycle its reply's last packet arrives
    (``R = t_done - t0``); this is the paper's
    ``R_i = sum_j R_ij + (m - 1) + 1``.
Per-visit residence time
    At a switch output port, lead packet's arrival to its departure
    (``s - a``; 1 without queueing).  At a memory, lead packet's arrival
    to the end of service (``m - 1 + S_mm`` without queueing).  Stage
    values ``"F1".."Fn"``, ``"MM"``, ``"R1".."Rn"`` are means over all
    visits to the stage in the window (``F1`` next to the processors,
    ``Rn`` next to the memories, as in the paper's tables).
No contention
    ``R = 2n + (m - 1 + S_mm) + (m - 1) + 1 = 2n + S_mm + 2m - 1``
    (``2n + S_mm + 1`` for single packets; 14 for the paper's
    ``n = 6, S_mm = 1``).  It is attained whenever no two messages ever
    share a queue, e.g. a permutation the network passes without conflict
    (the identity for omega) with ``S_pe = 1`` and ``S_mm = m``, for any
    ``NC``.  With ``NC = 1`` and *uniform* references it is not exact: two
    processors' requests can still meet at a switch or a memory.
Little's law
    A request is counted as outstanding at the end of cycles
    ``t0 .. t_done - 1`` (``R`` samples), so ``L_i = X_i R_i`` exactly in
    steady state, and ``NC - L_i = X_i T_i`` with ``T_i`` the mean time a
    token spends at the processor (from ``t_done`` to the next issue).  For
    ``m = 1, S_pe = 1`` a freed token is reused the next cycle, ``T_i = 1``
    and ``X_i = NC / (R_i + 1)`` -- the paper's
    ``X_i = NC / (sum_j R_ij + 1 + R_iPE_i)`` with ``R_iPE_i = S_pe = 1``.
    For ``NC = 1``, ``T_i`` is the number of issue trials, geometric with
    mean ``S_pe`` (the ``m - 1`` cycles of sending the tail lie inside
    ``R_i``): ``X_i = 1 / (R_i + S_pe)``, again the paper's relation with
    ``R_iPE_i = m - 1 + S_pe`` and ``R_i = sum_j R_ij + m``.

Only events in the window ``[warmup, cycles)`` are measured: a response
or memory residence is counted by its completion cycle, a switch
residence by its departure cycle.  Confidence intervals (95%, Student t)
come from ``batches`` equal-length batches of the window: the point
estimate is the pooled mean (total / count), the half width is from the
batch means.  Throughput is completions per cycle (all processors).

Implementation: the whole run is one numba-compiled function
(:mod:`models.sim._closed_min_kernel`) with preallocated state; queues are
intrusive linked lists over the ``N*NC`` message slots (a message is in at
most one queue), so memory is ``O(N*NC + centers)`` -- a per-queue ring of
capacity ``N*NC`` would need ``O(centers*N*NC)``.  Runs are deterministic
for a given seed (numba's generator is seeded inside the compiled code) and
cached on disk under ``cache_dir()/"closed_min"``, keyed by every
parameter, the reference matrix, the seed and a hash of the simulator's
source (this module, the kernel and the topology module).
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from pathlib import Path

import numpy as np

from ..core.keys import cache_for, normalise_kwargs, point_key
from ..core.errors import ParameterError, SimulationError
from ..core.results import Result
from ..core.setups import MAX_BATCHES
from ..core.stats import ci_halfwidth, lengthened, student_quantile
from ..core.validate import require, require_choice
from ..networks.patterns import reference_matrix
from ..networks.multistage import RETURN_WIRINGS, TOPOLOGIES, MultistageNetwork

__all__ = ["ClosedSimResult", "simulate", "zero_contention_response", "stage_labels", "SIM_VERSION"]

_HERE = Path(__file__).resolve().parent


def _source_hash() -> str:
    h = hashlib.sha256()
    for path in (
        _HERE / "closed_min.py",
        _HERE / "_closed_min_kernel.py",
        _HERE / "wormhole" / "steps.py",  # the kernel compiles its ctz in
        _HERE.parent / "networks" / "multistage.py",
        _HERE.parent / "networks" / "patterns.py",
        _HERE.parent / "core" / "stats.py",
    ):
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


#: Simulator version: bump the prefix on a semantic change; the hash follows every edit.
SIM_VERSION = "closed_min-1+" + _source_hash()

def stage_labels(n: int) -> list[str]:
    """Stage labels in the kernel's stage order (center // N): F1..Fn, R1..Rn, MM."""
    return [f"F{t}" for t in range(1, n + 1)] + [f"R{t}" for t in range(1, n + 1)] + ["MM"]


def zero_contention_response(n: int, S_mm: int, m: int = 1) -> int:
    """Response time without any queueing: ``2n + S_mm + 2m - 1`` cycles (see module docstring)."""
    return 2 * n + S_mm + 2 * m - 1


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ClosedSimResult(Result):
    """Measures of one :func:`simulate` run (times in cycles, throughputs in requests/cycle).

    ``*_ci`` are 95% confidence-interval half widths from batch means
    (``nan`` when fewer than two batches had observations).
    """

    R: float  # mean response time over completed requests
    R_ci: float
    X: float  # total throughput (completions per cycle)
    X_ci: float
    stage_residence: dict  # label -> mean per-visit residence time
    stage_ci: dict  # label -> CI half width
    stage_visits: dict  # label -> visits counted in the window
    X_i: np.ndarray  # per-processor throughput
    R_i: np.ndarray  # per-processor mean response time (nan if none completed)
    L_i: np.ndarray  # per-processor mean number of outstanding requests
    outstanding: float  # mean total number of outstanding requests (all processors)
    outstanding_ci: float
    center_residence: np.ndarray  # per center (MultistageNetwork numbering), nan if unvisited
    center_visits: np.ndarray
    cycles: int
    warmup: int
    batches: int
    completed: int  # requests completed in the window
    packets_moved: int  # packets sent on switch output links, whole run
    wall_time: float  # seconds of the compiled run (compilation excluded)
    cycles_per_second: float
    params: dict
    seed: int

    @property
    def window(self) -> int:
        """Measured cycles (``cycles - warmup``)."""
        return self.cycles - self.warmup

    def stage_table(self):
        """Stages as a :class:`pandas.DataFrame` (columns residence, ci, visits) in the paper's row order."""
        import pandas as pd

        n = self.params["n"]
        order = [f"F{t}" for t in range(1, n + 1)] + [f"R{t}" for t in range(n, 0, -1)] + ["MM"]
        return pd.DataFrame(
            {
                "residence": [self.stage_residence[s] for s in order],
                "ci": [self.stage_ci[s] for s in order],
                "visits": [self.stage_visits[s] for s in order],
            },
            index=order,
        )


#: With ``target_ci`` and no ``max_cycles``: the longest measured window, in multiples of the first.
MAX_EXTENSION = 64
#: Most outstanding requests in the network, ``N * NC``: the kernel keeps 40 bytes per request (its message
#: record and free list), so 2**24 of them hold under 1 GiB (the model's ``NC <= 256`` on 4096
#: processors is 2**20).  The batches of the confidence intervals are bounded by
#: :data:`models.core.setups.MAX_BATCHES` (each a row of accumulators).
MAX_REQUESTS = 2**24


def _batch_ci(sums: np.ndarray, counts: np.ndarray) -> float:
    ok = counts > 0
    if ok.sum() < 2:
        return float("nan")
    return ci_halfwidth(sums[ok] / counts[ok])


def _validate(topology, k, n, NC, S_pe, S_mm, m, pattern, pattern_options, return_wiring, cycles, warmup, batches, seed,
              target_ci=None, max_cycles=None):
    require_choice("topology", topology, TOPOLOGIES)
    k = require("k", k, 2, unit="switch radix, ports per switch", integer=True)
    n = require("n", n, 1, unit="number of network stages", integer=True)
    N = require("N = k**n", k**n, 2, 4096, unit="processors and memory modules", integer=True)
    NC = require("NC", NC, 1, MAX_REQUESTS // N, unit=f"maximum outstanding requests per processor; N * NC <= "
                                                      f"{MAX_REQUESTS} request records, N = {N}", integer=True)
    S_pe = float(require("S_pe", S_pe, 1.0, unit="mean processor inter-request time, cycles"))
    m = require("m", m, 1, unit="request/reply length, packets", integer=True)
    S_mm = require("S_mm", S_mm, m, unit=f"memory service time, cycles (>= m = {m})", integer=True)
    require_choice("return_wiring", return_wiring, RETURN_WIRINGS)
    cycles = require("cycles", cycles, 2, unit="simulated clock cycles", integer=True)
    warmup = require("warmup", warmup, 0, cycles - 1, unit=f"warm-up cycles, < cycles = {cycles}", integer=True)
    batches = require("batches", batches, 2, min(cycles - warmup, MAX_BATCHES),
                      unit=f"batches, <= measured cycles = {cycles - warmup}", integer=True)
    seed = require("seed", seed, 0, 2**32 - 1, unit="random seed", integer=True)
    if pattern_options is not None and not isinstance(pattern_options, dict):
        raise ParameterError(f"`pattern_options` must be a dict of keyword options or None; got {pattern_options!r}")
    P = reference_matrix(pattern, k**n, **(pattern_options or {}))
    if target_ci is not None:
        target_ci = float(require("target_ci", target_ci, 0, 1, lo_open=True, unit="relative CI half-width of R and X"))
        max_cycles = (warmup + MAX_EXTENSION * (cycles - warmup) if max_cycles is None else
                      require("max_cycles", max_cycles, cycles, unit=f"simulated cycles, >= cycles = {cycles}",
                              integer=True))
    elif max_cycles is not None:
        raise ParameterError("`max_cycles` caps the runs that `target_ci` lengthens; give `target_ci` too "
                             "(or leave max_cycles=None)")
    return topology, k, n, NC, S_pe, S_mm, m, P, return_wiring, cycles, warmup, batches, seed, target_ci, max_cycles


def _cumulative(P: np.ndarray) -> np.ndarray:
    cum = np.cumsum(P, axis=1)
    cum = cum / cum[:, -1:]
    cum[:, -1] = 1.0
    return np.ascontiguousarray(cum, dtype=np.float64)


def _uniform(cum: np.ndarray) -> bool:
    """Whether every row of the cumulative matrix ``cum`` is ``(j + 1) / N`` exactly with ``N`` a power of two (the
    uniform pattern's): the kernel then draws a destination as ``floor(u N)``, bit for bit the binary search's."""
    N = cum.shape[1]
    return N & (N - 1) == 0 and bool(np.all(cum == np.arange(1, N + 1) / N))


def checkpoints(window: int, max_window: int, batches: int) -> tuple[np.ndarray, np.ndarray]:
    """Where a run checks its precision, for the kernel: ``(edges, bounds)``.

    The checkpoints are measured windows of ``window`` cycles, then each :func:`~models.core.stats.lengthened`
    (x1.5) up to ``max_window`` (only ``window`` when the two are equal: a run of fixed length).  At a checkpoint
    of ``W`` cycles the batches are those of a run of that window, ``ceil(b W / batches)`` to
    ``ceil((b + 1) W / batches)``.  ``edges`` are every such boundary of every checkpoint, in increasing order
    (the blocks the kernel counts events in); ``bounds[j, b]`` the index in ``edges`` of checkpoint ``j``'s
    boundary ``b``."""
    windows = [window]
    while windows[-1] < max_window:
        windows.append(lengthened(windows[-1], max_window))
    cuts = np.array([[-(-(b * w) // batches) for b in range(batches + 1)] for w in windows], np.int64)
    edges = np.unique(cuts)
    return edges, np.searchsorted(edges, cuts).astype(np.int64)


def _quantiles(batches: int) -> np.ndarray:
    """``q[d]``: the 95 % Student-t quantile with ``d`` degrees of freedom, ``d = 1 .. batches - 1`` (``q[0]``
    unused), for the kernel's precision test."""
    return np.array([np.nan] + [student_quantile(d) for d in range(1, batches)], np.float64)


#: the integer types of the route tables the kernel has been compiled (or loaded) for in this process
_COMPILED: set = set()


def _ensure_compiled(run_kernel, centers=np.int16) -> None:
    """Compile (or load from numba's cache) on a tiny case so ``wall_time`` excludes it: the kernel for route
    tables of type ``centers`` (a network too large for int16 center numbers has its own compiled kernel)."""
    if centers in _COMPILED:
        return
    net = MultistageNetwork("omega", 2, 1)
    fwd, _ = net.forward_route()
    ret, _ = net.return_route()
    edges, bounds = checkpoints(4, 4, 2)
    run_kernel(
        np.ascontiguousarray(fwd, dtype=centers), np.ascontiguousarray(ret, dtype=centers),
        _cumulative(np.full((2, 2), 0.5)), True, 1, 1, 1.0, 1, 1, 0, edges, bounds, _quantiles(2), 0.0, 0,
    )
    _COMPILED.add(centers)


def _run(topology, k, n, NC, S_pe, S_mm, m, P, return_wiring, cycles, warmup, batches, seed, params,
         target_ci=None, max_cycles=None) -> ClosedSimResult:
    """One run: ``cycles`` long, or with ``target_ci`` lengthened in place until precise, at most
    ``max_cycles`` (:func:`checkpoints`)."""
    from ._closed_min_kernel import run_kernel  # numba: compiled on the first simulation, not on import

    net = MultistageNetwork(topology, k, n, return_wiring)
    N = net.N
    fwd, _ = net.forward_route()
    ret, _ = net.return_route()
    # center numbers in the narrowest integers that hold them: the tables are read at every hop
    centers = np.int16 if (2 * n + 1) * N <= np.iinfo(np.int16).max else np.int32
    fwd = np.ascontiguousarray(fwd, dtype=centers)
    ret = np.ascontiguousarray(ret, dtype=centers)
    cum = _cumulative(P)
    edges, bounds = checkpoints(cycles - warmup, (cycles if target_ci is None else max_cycles) - warmup, batches)
    _ensure_compiled(run_kernel, centers)
    t0 = time.perf_counter()
    (st_sum, st_cnt, c_sum, c_cnt, r_sum, r_cnt, rp_sum, rp_cnt, out_sum, lp_sum, moves, j) = run_kernel(
        fwd, ret, cum, _uniform(cum), n, NC, 1.0 / S_pe, S_mm, m, warmup, edges, bounds, _quantiles(batches),
        0.0 if target_ci is None else float(target_ci), seed)
    wall = time.perf_counter() - t0
    # the window of the checkpoint the run stopped at, and its batches' lengths in cycles
    cut = edges[bounds[j]]
    window = int(cut[-1])
    cycles = warmup + window
    blen = np.diff(cut).astype(float)
    completed = int(r_cnt.sum())
    if completed == 0:
        raise SimulationError(
            f"no request completed in the measured window [{warmup}, {cycles}) cycles "
            f"(N={N}, NC={NC}, S_pe={S_pe}, S_mm={S_mm}, m={m}); lengthen `cycles`"
        )

    labels = stage_labels(n)
    stage_res, stage_ci, stage_vis = {}, {}, {}
    for s, lab in enumerate(labels):
        cnt = int(st_cnt[:, s].sum())
        stage_vis[lab] = cnt
        stage_res[lab] = float(st_sum[:, s].sum() / cnt) if cnt else float("nan")
        stage_ci[lab] = _batch_ci(st_sum[:, s], st_cnt[:, s])
    R = float(r_sum.sum() / completed)
    R_ci = _batch_ci(r_sum, r_cnt)
    X = completed / window
    xb = r_cnt / blen
    X_ci = ci_halfwidth(xb)
    L = float(out_sum.sum() / window)
    ob = out_sum / blen
    L_ci = ci_halfwidth(ob)
    with np.errstate(invalid="ignore", divide="ignore"):
        R_i = np.where(rp_cnt > 0, rp_sum / np.maximum(rp_cnt, 1), np.nan)
        center_res = np.where(c_cnt > 0, c_sum / np.maximum(c_cnt, 1), np.nan)
    return ClosedSimResult(
        R=R,
        R_ci=R_ci,
        X=X,
        X_ci=X_ci,
        stage_residence=stage_res,
        stage_ci=stage_ci,
        stage_visits=stage_vis,
        X_i=rp_cnt / window,
        R_i=R_i,
        L_i=lp_sum / window,
        outstanding=L,
        outstanding_ci=L_ci,
        center_residence=center_res,
        center_visits=c_cnt.copy(),
        cycles=cycles,
        warmup=warmup,
        batches=batches,
        completed=completed,
        packets_moved=int(moves) * m,
        wall_time=wall,
        cycles_per_second=cycles / wall if wall > 0 else float("inf"),
        params=params,
        seed=seed,
    )


def _key(topology, k, n, NC, S_pe, S_mm, m, P, return_wiring, cycles, warmup, batches, seed, target_ci=None,
         max_cycles=None) -> str:
    """The cache key of a validated call (the reference pattern resolved to its matrix ``P``)."""
    return point_key(simulate, dict(topology=topology, k=k, n=n, NC=NC, S_pe=S_pe, S_mm=S_mm, m=m,
                                    pattern=np.ascontiguousarray(P, dtype=np.float64), pattern_options=None,
                                    return_wiring=return_wiring, cycles=cycles, warmup=warmup, batches=batches,
                                    seed=seed, target_ci=target_ci, max_cycles=max_cycles))


def cache_key(**kwargs) -> str:
    """The key :func:`simulate` stores its result under, for the same keyword arguments."""
    kwargs.pop("cache", None)
    fields = normalise_kwargs(simulate, kwargs)
    return _key(*_validate(**fields))


def simulate(
    *,
    topology: str = "omega",
    k: int = 2,
    n: int = 6,
    NC: int = 1,
    S_pe: float = 1.0,
    S_mm: int = 1,
    m: int = 1,
    pattern="uniform",
    pattern_options: dict | None = None,
    return_wiring: str = "mirror",
    cycles: int = 200_000,
    warmup: int = 20_000,
    batches: int = 20,
    seed: int = 1,
    target_ci: float | None = None,
    max_cycles: int | None = None,
    cache: bool = True,
) -> ClosedSimResult:
    """Simulate the closed processor / forward MIN / memory / return MIN system.

    Parameters
    ----------
    topology : {"omega", "baseline", "cube"}
    k, n : int
        ``k x k`` switches, ``n`` stages; ``N = k**n`` processors and memories.
    NC : int
        Maximum outstanding requests per processor (>= 1).
    S_pe : float
        Mean processor inter-request time when not blocked, cycles (>= 1;
        geometric, issue probability ``1/S_pe`` per eligible cycle).
    S_mm : int
        Deterministic memory service time, cycles (>= m).
    m : int
        Request and reply length in packets (>= 1).
    pattern : str or array
        ``"uniform"``, ``"hot_spot"`` or an ``N x N`` reference matrix.
    pattern_options : dict, optional
        Keyword options of the named pattern (e.g. ``{"h": 0.2}``).
    return_wiring : {"mirror", "same"}
    cycles, warmup : int
        Total simulated cycles and the warm-up discarded at the start.
    batches : int
        Batches of the measured window for the confidence intervals (>= 2).
    seed : int
        Random seed (same seed, same result bit for bit).
    target_ci : float, optional
        Stop at a precision instead of a length: if the 95% half-widths of
        ``R`` or ``X`` exceed ``target_ci`` times their means after
        ``cycles``, the run goes on, its measured window 1.5x as long each
        time (:func:`~models.core.stats.lengthened`), until both are within
        it or ``max_cycles`` is reached.  The result is the one a run of
        that length (``result.cycles``) with the same seed gives, bit for
        bit: batches of its own window, events counted by their
        completion cycle up to its end.
    max_cycles : int, optional
        With ``target_ci``: the longest run, cycles (>= ``cycles``; default
        ``warmup + 64 (cycles - warmup)``).
    cache : bool
        Read/write the on-disk cache (``cache_dir()/"closed_min"``).

    Returns
    -------
    ClosedSimResult

    Raises
    ------
    ParameterError
        For an invalid parameter (before any work).
    SimulationError
        If no request completed in the measured window.
    """
    (topology, k, n, NC, S_pe, S_mm, m, P, return_wiring, cycles, warmup, batches, seed, target_ci,
     max_cycles) = _validate(topology, k, n, NC, S_pe, S_mm, m, pattern, pattern_options, return_wiring, cycles,
                             warmup, batches, seed, target_ci, max_cycles)
    params = {
        "topology": topology,
        "k": k,
        "n": n,
        "N": k**n,
        "NC": NC,
        "S_pe": S_pe,
        "S_mm": S_mm,
        "m": m,
        "pattern": pattern if isinstance(pattern, str) else "matrix",
        "pattern_options": dict(pattern_options or {}),
        "return_wiring": return_wiring,
        "version": SIM_VERSION,
    }
    args = (topology, k, n, NC, S_pe, S_mm, m, P, return_wiring, cycles, warmup, batches, seed)
    if target_ci is not None:
        params.update(target_ci=target_ci, max_cycles=max_cycles)

    def compute():
        return _run(*args, params, target_ci, max_cycles)

    if not cache:
        return compute()
    return cache_for(simulate, True).fetch_or_compute(_key(*args, target_ci, max_cycles), compute)  # computed once across processes
