"""What both engines of the wormhole simulator share: the front (:func:`check_run`, the
keywords both routers take, checked; :func:`initial_state`), the run (:func:`run_until_precise`,
the kernel in chunks, extended for ``target_ci``) and the back (:func:`summarise`, a finished
run's :class:`WormholeResult`), with the routing-table cache, the reading of the ``traffic``
argument and the batch-means confidence interval.

The ideal router (:mod:`.simulate`, :mod:`.kernel`) and the BookSim-like router
(:mod:`.booksim`, :mod:`.booksim_kernel`) are two variants over this one body: each checks
only its own keywords, allocates its own state and runs its own kernel.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
import types
from pathlib import Path

import numpy as np

from models.core.cache import files_hash
from models.core.errors import ParameterError
from models.core.results import Result
from models.core.setups import MAX_BATCHES
from models.core.stats import ci_halfwidth, lengthened
from models.core.validate import require, require_choice

from ...networks.graph import Topology
from ...traffic.process import IPP, MMPP2
from .steps import (DONE, MAXCYCLES, MEASURE, RUNNING, SATURATED, TRAFFIC_BERNOULLI, TRAFFIC_IPP, TRAFFIC_MMPP,
                    TRAFFIC_POISSON, WARMUP, Mmpp, alloc_tags)
from .routing import ROUTINGS
from .routing import build as build_routing
from .traffic import ipp_h2, ipp_init, mmpp_init, rng_exp, seed_state

__all__ = ["WormholeResult", "SIM_VERSION", "check_run", "tag_capacity", "initial_state", "run_until_precise",
           "summarise", "run_params", "blocking_stats", "BLOCKING_BY_HOPS"]

_HERE = Path(__file__).resolve().parent
#: Simulator version: the hash follows every edit of the simulator's source (both engines), of
#: the topologies it routes on and of the traffic processes it draws from.
SIM_VERSION = "wormhole-1." + files_hash([
    _HERE, _HERE.parents[1] / "networks" / "graph.py", _HERE.parents[1] / "traffic" / "process.py",
    _HERE.parents[1] / "core" / "stats.py"])[:12]


@dataclasses.dataclass(frozen=True, repr=False)
class WormholeResult(Result):
    """Result of one simulation run (times in cycles, rates per node per cycle)."""

    latency: float  # mean message latency (generation -> last flit ejected); inf if saturated
    latency_ci: float  # 95% CI half-width of `latency` (batch means)
    network_latency: float  # mean time from taking the injection VC to last flit ejected
    source_wait: float  # mean source queueing time
    throughput: float  # accepted messages / node / cycle (measured window)
    offered: float  # offered load: mean generation rate, messages / node / cycle
    saturated: bool
    mean_hops: float  # mean network hops of the measured messages
    vc_busy_hist: np.ndarray  # P(v busy VCs on a network channel), v = 0..V, time-averaged
    multiplexing: float  # V-bar = sum v^2 P_v / sum v P_v
    channel_utilisation: float  # fraction of cycles a network channel carries a flit
    cycles: int  # simulated cycles in total
    messages: int  # measured (tagged) messages
    flit_hops: int  # flits moved across network and ejection channels, whole run
    wall_time: float  # seconds in the kernel (the first call in a process also loads/compiles it)
    params: dict
    seed: int
    measured_offered: float = math.nan  # messages generated / node / cycle in the window
    mean_in_network: float = math.nan  # time-averaged messages past the source queue
    window_cycles: int = 0  # cycles of the measured window
    stop_reason: str = ""
    work: dict = dataclasses.field(default_factory=dict)  # kernel counters (routing attempts, VC visits)
    channel_load: np.ndarray = None  # flits / cycle on each network channel (topology.channels order), window
    # the blocking time b of a measured message: its network latency minus the zero-load network latency of its
    # hop count (torus_ipp eq. 4, t = m + d + b), cycles; NaN where not measured (saturated, geometric lengths,
    # a router without a zero-load formula): blocking_stats()
    blocking_mean: float = math.nan  # mean of b, cycles
    blocking_m2: float = math.nan  # second moment E[b^2], cycles^2
    blocking_cv: float = math.nan  # coefficient of variation std(b) / mean(b) (NaN when the mean is 0)
    blocking_by_hops: dict = dataclasses.field(default_factory=dict)  # BLOCKING_BY_HOPS -> array per hop count
    version: str = SIM_VERSION


# ----------------------------------------------------------------- tables
@functools.lru_cache(maxsize=16)
def _tables(topo: Topology, routing: str, vcs: int, escape_levels):
    return build_routing(topo, routing, vcs, escape_levels)


def _traffic(traffic, rate):
    """(kind, rates(2), sigmas(2), offered, spec) from the user's traffic argument."""
    if isinstance(traffic, str):
        require_choice("traffic", traffic, ["poisson", "bernoulli"], unit="or an MMPP2/IPP source")
        if traffic == "bernoulli":  # one message per node and cycle at most: a probability
            rate = require("rate", rate, 0, 1, lo_open=True, unit="messages/node/cycle (a Bernoulli source: at most 1)")
            return TRAFFIC_BERNOULLI, np.array([rate, rate]), np.array([1.0, 1.0]), float(rate), "bernoulli"
        rate = require("rate", rate, 0, lo_open=True, unit="messages/node/cycle")
        return TRAFFIC_POISSON, np.array([rate, rate]), np.array([1.0, 1.0]), float(rate), "poisson"
    if isinstance(traffic, dict):
        kw = dict(traffic)
        kind = kw.pop("kind", "mmpp")
        try:
            traffic = IPP(**kw) if kind == "ipp" else MMPP2(**kw)
        except TypeError as e:
            raise ParameterError(f"`traffic` dict not understood ({e}); use MMPP2(...) or IPP(...)")
    if not isinstance(traffic, MMPP2):
        raise ParameterError(f"`traffic` must be 'poisson', 'bernoulli', an MMPP2 / IPP source or a dict; "
                             f"got {traffic!r}")
    if rate is not None:
        raise ParameterError("`rate` must be None with an MMPP2/IPP `traffic` (its rates are in the source)")
    rates, sigs = np.array([traffic.mu1, traffic.mu2]), np.array([traffic.sigma1, traffic.sigma2])
    kind = TRAFFIC_MMPP if ipp_h2(rates, sigs) is None else TRAFFIC_IPP
    return kind, rates, sigs, traffic.mean_rate, traffic


def _batch_ci(x: np.ndarray, batches: int) -> float:
    n = x.size // batches
    if n < 1:
        return math.inf
    return ci_halfwidth(x[: n * batches].reshape(batches, n).mean(axis=1))


def check_max_messages(max_messages, messages: int, target_ci) -> int | None:
    """``max_messages`` checked: None, or an integer >= ``messages`` given with ``target_ci`` (both engines)."""
    if max_messages is None:
        return None
    if target_ci is None:
        raise ParameterError("`max_messages` caps the run that `target_ci` extends; give `target_ci` too "
                             "(or leave max_messages=None)")
    return require("max_messages", max_messages, messages, unit="measured messages, >= messages", integer=True)


# ----------------------------------------------------------------- the front
def check_run(topology, *, routing, vcs, message_length, rate, buffer_depth, traffic, length_dist, messages,
              warmup_messages, batches, target_ci, max_messages, max_cycles, router_delay, escape_levels,
              saturation_backlog, seed, tie, self_traffic, counted=True) -> types.SimpleNamespace:
    """The keywords both routers take, checked (a namespace), with the routing tables ``rt`` (``V`` their
    VCs) and the traffic source (``traffic_kind``, ``rates``, ``sigs``, ``offered``, ``tspec``).

    ``counted=False``: a run of fixed length (the BookSim engine's throughput mode), whose ``batches``
    need not fit in ``messages`` and which has no ``max_messages``.  Each router checks its own
    keywords (VCs of the injection and ejection channels, ``wait_for_tail_credit`` ...) around this.
    """
    if not isinstance(topology, Topology):
        raise ParameterError(f"`topology` must be a Torus, Mesh or Graph; got {topology!r}")
    require_choice("routing", routing, ROUTINGS)
    M = require("message_length", message_length, 1, unit="flits", integer=True)
    B = require("buffer_depth", buffer_depth, 1, unit="flits per VC", integer=True)
    length_dist = require_choice("length_dist", length_dist, ["fixed", "geometric"])
    messages = require("messages", messages, 1, unit="measured messages", integer=True)
    warmup = require("warmup_messages", warmup_messages, 0, unit="messages", integer=True)
    batches = require("batches", batches, 2, MAX_BATCHES, unit="batch means", integer=True)
    if counted and batches > messages:
        raise ParameterError(f"`batches` must be <= `messages` ({messages}); got {batches}")
    if target_ci is not None:
        target_ci = require("target_ci", target_ci, 0, 1, lo_open=True, unit="relative CI half-width")
    max_messages = check_max_messages(max_messages, messages, target_ci) if counted else None
    # cycle stamps are int32 in the kernels' VC records (as BookSim's): runs stop before 2**31 cycles
    maxcyc = 200_000_000 if max_cycles is None else require("max_cycles", max_cycles, 1, 2**31 - 16, integer=True)
    R = require("router_delay", router_delay, 1, unit="cycles per hop", integer=True)
    seed = require("seed", seed, 0, integer=True)
    traffic_kind, rates, sigs, offered, tspec = _traffic(traffic, rate)
    rt = _tables(topology, routing, vcs, escape_levels)
    tie = require_choice("tie", tie, ["random", "plus"])
    if not isinstance(self_traffic, (bool, np.bool_)):
        raise ParameterError(f"`self_traffic` must be True or False; got {self_traffic!r}")
    N = topology.nbr.shape[0]
    satlim = 20 * N + 500 if saturation_backlog is None else require("saturation_backlog", saturation_backlog, 1,
                                                                      integer=True)
    return types.SimpleNamespace(
        routing=routing, rt=rt, V=rt.vcs, M=M, B=B, R=R, length_dist=length_dist, messages=messages, warmup=warmup,
        batches=batches, target_ci=target_ci, max_messages=max_messages, maxcyc=maxcyc, seed=seed,
        traffic_kind=traffic_kind, rates=rates.astype(np.float64), sigs=sigs.astype(np.float64), offered=offered,
        tspec=tspec, rate=rate, tie=tie, self_traffic=bool(self_traffic), N=N, satlim=satlim,
        mmax=M if length_dist == "fixed" else 20 * M)  # the longest message the deadlock threshold allows for


def tag_capacity(p, longest: int) -> int:
    """Records of measured messages (:func:`.kernel.alloc_tags`) a counted run allocates before its first cycle.

    A run of fixed length (no ``target_ci``) allocates its ``p.messages`` and no more: the kernels tag messages
    in the order they are generated and stop once the first ``target`` tags are delivered, so a run reads
    exactly the tags below ``target`` and a message generated after them changes nothing if it is left
    untagged (memory: 29 bytes per measured message, :data:`models.core.setups.MAX_RUN`).  A run that
    ``target_ci`` may lengthen keeps ``2 * longest + p.satlim`` (``longest``: the length the engine allocates
    for up front), so that the messages an extension reads were tagged when they were generated.
    """
    return p.messages if p.target_ci is None else 2 * longest + p.satlim


def initial_state(p, scalars, warmup):
    """The run's scalars (one record of ``scalars``), MMPP chains and RNG before the first cycle:
    ``(sc, mm, rng)``.  ``warmup``: the warm-up's length (0: measured from the first cycle)."""
    rng = seed_state(p.seed)
    sc = np.zeros(1, scalars)
    sc["phase"] = MEASURE if warmup == 0 else WARMUP
    sc["target"] = p.messages
    h2 = ipp_h2(p.rates, p.sigs) if p.traffic_kind == TRAFFIC_IPP else np.zeros(0)
    mm = Mmpp(np.zeros(p.N, np.int64), np.zeros(p.N), np.zeros(p.N), p.rates, p.sigs, np.zeros(p.N + 1, np.int64), h2)
    if p.traffic_kind == TRAFFIC_POISSON:
        sc["nextarr"] = float(rng_exp(rng)) / (p.offered * p.N)
    elif p.traffic_kind == TRAFFIC_IPP:
        ipp_init(rng, mm.h2, mm.tsw, mm.tar, 0.0)
    elif p.traffic_kind == TRAFFIC_MMPP:
        mmpp_init(rng, mm.rates, mm.sig, mm.state, mm.tsw, mm.tar, 0.0)
    return sc, mm, rng


# ----------------------------------------------------------------- the run
def run_until_precise(step, sc, tags, p, target_ci, chunk=1 << 21):
    """Run the kernel, ``step(tags)``, in chunks of ``chunk`` cycles until it stops; with ``target_ci``
    a run that is done is extended in place (x1.5 measured messages, :func:`~models.core.stats.lengthened`, at
    most ``p.max_messages``) until the latency's CI half-width is at most ``target_ci`` times its mean.
    ``(status, tags, seconds)``: ``tags`` grown if the run outgrew them."""
    x = sc[0]
    t0 = time.perf_counter()
    while True:
        x["chunk_end"] = x["t"] + chunk
        status = step(tags)
        if status == RUNNING:
            continue
        if status == DONE and target_ci is not None:
            n = int(x["target"])
            lat = tags.lat[:n].astype(float)
            if _batch_ci(lat, p.batches) > target_ci * lat.mean() and (p.max_messages is None or n < p.max_messages):
                n = lengthened(n, p.max_messages)
                x["target"] = n
                if tags.lat.size < 2 * n + p.satlim:  # more tagged messages than allocated: grow the records
                    tags = alloc_tags(2 * n + p.satlim, tags)
                continue
        break
    return status, tags, time.perf_counter() - t0


# ----------------------------------------------------------------- the back
#: The keys of :attr:`WormholeResult.blocking_by_hops`: one array each, one entry per hop count that occurs
#: among the measured messages (ascending).
BLOCKING_BY_HOPS = ("hops", "count", "mean", "m2", "cv")


def _moments(b: np.ndarray) -> tuple:
    """``(mean, second moment, coefficient of variation)`` of the blocking times ``b`` (cycles): the CV is the
    population standard deviation over the mean, NaN when the mean is 0 (every ``b`` is 0) or ``b`` is empty."""
    if b.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(b.mean())
    m2 = float(np.mean(b * b))
    cv = float(np.sqrt(np.mean((b - mean) ** 2)) / mean) if mean > 0 else math.nan
    return mean, m2, cv


def blocking_stats(net: np.ndarray, hops: np.ndarray, zero_load) -> dict:
    """The blocking time of every measured message and its moments, overall and per hop count.

    ``net``: each message's network latency (cycles, from taking its injection VC to its tail's ejection);
    ``hops``: its network hops; ``zero_load(hops)``: the zero-load network latency of a message with that many
    hops (cycles; ``None``: not known, everything NaN).  A message's blocking time is ``b = net -
    zero_load(hops)`` (cycles; torus_ipp eq. 4, ``t = m + d + b``, per message, ``d`` its own hop count): the
    time its header waited for virtual channels plus the slowdown of its flits on multiplexed channels.
    Returns ``blocking_mean`` (cycles), ``blocking_m2`` (cycles^2), ``blocking_cv`` (:func:`_moments`) and
    ``blocking_by_hops`` (:data:`BLOCKING_BY_HOPS`: the same per hop count, with the number of messages).
    """
    empty = {k: np.zeros(0, np.int64 if k in ("hops", "count") else np.float64) for k in BLOCKING_BY_HOPS}
    if zero_load is None or net.size == 0:
        return dict(blocking_mean=math.nan, blocking_m2=math.nan, blocking_cv=math.nan, blocking_by_hops=empty)
    h = np.asarray(hops, dtype=np.int64)
    b = np.asarray(net, dtype=np.float64) - np.asarray(zero_load(h), dtype=np.float64)
    mean, m2, cv = _moments(b)
    classes = np.unique(h)
    per = [_moments(b[h == c]) for c in classes]
    by = {"hops": classes.astype(np.int64), "count": np.array([(h == c).sum() for c in classes], np.int64),
          "mean": np.array([x[0] for x in per], np.float64), "m2": np.array([x[1] for x in per], np.float64),
          "cv": np.array([x[2] for x in per], np.float64)}
    return dict(blocking_mean=mean, blocking_m2=m2, blocking_cv=cv, blocking_by_hops=by)


def run_params(topology, p, router, **extra) -> dict:
    """The ``params`` of a run's result: its keywords after the defaults (``p.streams`` and ``p.ej_v``:
    the VCs of the injection stream and the ejection channel), then the router's own (``extra``)."""
    return dict(
        topology=topology.spec(), routing=p.routing, vcs=p.V, message_length=p.M, rate=p.rate, buffer_depth=p.B,
        traffic=p.tspec if isinstance(p.tspec, str) else dataclasses.asdict(p.tspec), length_dist=p.length_dist,
        messages=p.messages, warmup_messages=p.warmup, batches=p.batches, target_ci=p.target_ci,
        max_messages=p.max_messages, max_cycles=p.maxcyc, router_delay=p.R, injection_vcs=p.streams,
        ejection_vcs=p.ej_v, escape_levels=p.rt.escape_levels if p.routing in ("duato_nbc", "nbc") else None,
        saturation_backlog=p.satlim, tie=p.tie, self_traffic=p.self_traffic, router=router, **extra)


def summarise(p, sc, status, tags, *, hist_acc, channel_flits, params, work, wall, zero_load=None) -> WormholeResult:
    """The :class:`WormholeResult` of a run that stopped with ``status`` (not a deadlock): its saturation
    verdict and statistics.  ``sc`` the kernel's scalars, ``tags`` its measured messages, ``hist_acc``
    the time integral of the network channels by busy VCs, ``channel_flits`` the flits per network
    channel in the window, ``work`` the kernel's counters to report (result name -> field of ``sc``),
    ``zero_load`` the zero-load network latency by hop count (cycles) for the blocking times
    (:func:`blocking_stats`; ``None``: not measured)."""
    sc = sc[0]
    N, V, C = p.N, p.V, channel_flits.size
    Tw = int(sc["cyc_w"])
    nfin = int(sc["prefix"])
    n_use = min(int(sc["target"]), nfin) if status == DONE else nfin
    backlog_growth = int(sc["insys"]) - int(sc["insys_w0"])
    gen_w = int(sc["gen_w"])
    saturated = status == SATURATED
    if not saturated and Tw > 0 and backlog_growth > max(0.03 * gen_w, 4 * N):
        saturated = True
    if status == MAXCYCLES and not saturated and n_use < p.batches:
        saturated = True
    reason = {DONE: "done", SATURATED: "saturation backlog", MAXCYCLES: "max_cycles"}[status]
    if saturated and status == DONE:
        reason = "backlog growth"

    def rate_of(x):
        return float(x) / (N * Tw) if Tw > 0 else math.nan

    hist = hist_acc / (C * Tw) if Tw > 0 else np.full(V + 1, math.nan)
    vv = np.arange(V + 1)
    den = float((vv * hist).sum())
    mux = float((vv * vv * hist).sum()) / den if den > 0 else math.nan
    util = float(sc["netflits_w"]) / (C * Tw) if Tw > 0 else math.nan
    lat = tags.lat[:n_use].astype(float)
    if saturated or n_use == 0:
        latency = ci = netlat = wait = math.inf
    else:
        latency = float(lat.mean())
        ci = _batch_ci(lat, p.batches) if n_use >= p.batches else math.inf
        netlat = float(tags.net[:n_use].mean())
        wait = float(tags.wait[:n_use].mean())
    blocking = blocking_stats(tags.net[:n_use], tags.hops[:n_use], None if saturated else zero_load)
    hops = float(tags.hops[:n_use].mean()) if n_use else math.nan
    return WormholeResult(
        latency=latency, latency_ci=ci, network_latency=netlat, source_wait=wait,
        throughput=rate_of(sc["deliv_w"]), offered=float(p.offered), saturated=bool(saturated),
        mean_hops=hops, vc_busy_hist=hist, multiplexing=mux, channel_utilisation=util,
        cycles=int(sc["t"]), messages=int(n_use), flit_hops=int(sc["flithops"]), wall_time=wall,
        params=params, seed=int(p.seed), measured_offered=rate_of(gen_w),
        mean_in_network=float(sc["innet_acc"]) / Tw if Tw > 0 else math.nan,
        window_cycles=Tw, stop_reason=reason,
        work=dict({k: int(sc[f]) for k, f in work.items()}, generated=int(sc["gen"]), delivered=int(sc["deliv"])),
        channel_load=channel_flits / Tw if Tw > 0 else np.full(C, math.nan), **blocking,
    )
