"""Public entry point of the wormhole simulator: :func:`simulate` and :class:`WormholeResult`.

Model (see :mod:`.kernel` for the cycle and :mod:`.routing` for the routing
functions): cycle-driven, flit-level wormhole switching.  A message of ``M``
flits is generated at a node (:mod:`.traffic`), waits in an unbounded FIFO
source queue, takes one of the node's ``injection_vcs`` injection virtual
channels, and its header is routed hop by hop; the body follows in a
pipeline and a blocked header stops the whole worm.  Every physical channel
(network, injection, ejection) moves at most one flit per cycle, shared
round-robin by its VCs that have a flit ready; every network or injection VC
has a buffer of ``buffer_depth`` flits.  At the destination the header takes
one of ``ejection_vcs`` (default 1) ejection VCs and the message leaves one
flit per cycle.

Timing.  ``router_delay = R`` is the number of cycles a header spends in each
router (routing + VC allocation + switch) before crossing the next channel;
body flits move one hop per cycle.  At zero load a message with ``h`` hops
has latency ``M + (h + 1) R`` cycles (``M + h + 1`` with the default ``R = 1``):
the header crosses the injection channel in its generation cycle, then ``h``
network channels and the ejection channel ``R`` cycles apart, and the tail is
``M - 1`` cycles behind.  (``buffer_depth >= 2`` is needed for one flit per cycle
per VC; with 1 a VC only accepts a flit when it was empty at the start of the
cycle, and the zero-load latency is ``2M - 1 + (h + 1) R``.)  Latency is counted from the cycle of generation to the end of the
cycle in which the tail flit is ejected; network latency from the cycle the
message takes its injection VC; source queueing time is the difference.

Measurement.  The first ``warmup_messages`` delivered messages are discarded
(the warm-up ends at that cycle); every message generated afterwards is
tagged; the run stops when the first ``messages`` tagged messages are all
delivered (traffic continues meanwhile, so no tagged message is censored).
Latency statistics are over those messages, with a 95% confidence interval
by batch means (``batches`` consecutive batches in generation order;
Student t).  With ``target_ci`` the run is extended (x1.5 messages each
time) until the CI half-width is at most ``target_ci`` times the mean.
Time averages (busy-VC histogram, utilisation, accepted throughput,
messages in the network) are over the cycles from the end of the warm-up
to the end of the run.

Saturation (a state, not an error): the run is reported ``saturated=True``
with ``latency = inf`` when the messages in the system exceed
``saturation_backlog`` (default ``20 N + 500``), or when the backlog
(generated - delivered) grew over the measured window by more than 3% of the
messages generated in it (at least ``4N``), i.e. accepted < offered, or when
``max_cycles`` ran out with a growing backlog.

Deadlock: if no flit moves for ``20 M_max + 10 B R + 1000`` cycles while the
network holds messages, :class:`~models.core.errors.DeadlockError` names the
cycle and the held virtual channels.

Same seed, same result, bit for bit (integer xorshift RNG, deterministic
arbitration).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from pathlib import Path

import numpy as np

from models.core.cache import DiskCache, files_hash
from models.core.errors import DeadlockError, ParameterError, SimulationError
from models.core.keys import point_key
from models.core.paths import cache_dir
from models.core.results import Result
from models.core.stats import ci_halfwidth
from models.core.validate import require, require_choice

from . import kernel as K
from .routing import build as build_routing
from ...networks.graph import Topology
from ...traffic.process import IPP, MMPP2
from .traffic import mmpp_init, seed_state

_HERE = Path(__file__).resolve().parent
#: Simulator version: the hash follows every edit of the simulator's source, of the
#: topologies it routes on and of the traffic processes it draws from.
SIM_VERSION = "wormhole-1." + files_hash([
    _HERE, _HERE.parents[1] / "networks" / "graph.py", _HERE.parents[1] / "traffic" / "process.py",
    _HERE.parents[1] / "core" / "stats.py"])[:12]

__all__ = ["simulate", "WormholeResult", "SIM_VERSION"]


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
    work: dict = dataclasses.field(default_factory=dict)  # kernel counters (routing attempts, channel visits)
    channel_load: np.ndarray = None  # flits / cycle on each network channel (topology.channels order), window
    version: str = SIM_VERSION


# ----------------------------------------------------------------- tables
@functools.lru_cache(maxsize=16)
def _tables(topo: Topology, routing: str, vcs: int, escape_levels):
    return build_routing(topo, routing, vcs, escape_levels)


def _traffic(traffic, rate):
    """(kind, rates(2), sigmas(2), offered, spec) from the user's traffic argument."""
    if isinstance(traffic, str):
        require_choice("traffic", traffic, ["poisson"], unit="or an MMPP2/IPP source")
        rate = require("rate", rate, 0, lo_open=True, unit="messages/node/cycle")
        return 0, np.array([rate, rate]), np.array([1.0, 1.0]), float(rate), "poisson"
    if isinstance(traffic, dict):
        kw = dict(traffic)
        kind = kw.pop("kind", "mmpp")
        try:
            traffic = IPP(**kw) if kind == "ipp" else MMPP2(**kw)
        except TypeError as e:
            raise ParameterError(f"`traffic` dict not understood ({e}); use MMPP2(...) or IPP(...)")
    if not isinstance(traffic, MMPP2):
        raise ParameterError(f"`traffic` must be 'poisson', an MMPP2 / IPP source or a dict; got {traffic!r}")
    if rate is not None:
        raise ParameterError("`rate` must be None with an MMPP2/IPP `traffic` (its rates are in the source)")
    return (1, np.array([traffic.mu1, traffic.mu2]), np.array([traffic.sigma1, traffic.sigma2]),
            traffic.mean_rate, traffic)


def _batch_ci(x: np.ndarray, batches: int) -> float:
    n = x.size // batches
    if n < 1:
        return math.inf
    return ci_halfwidth(x[: n * batches].reshape(batches, n).mean(axis=1))


def simulate(
    topology: Topology,
    *,
    routing: str,
    vcs: int,
    message_length: int,
    rate: float | None = None,
    buffer_depth: int = 2,
    traffic="poisson",
    length_dist: str = "fixed",
    messages: int = 120_000,
    warmup_messages: int = 10_000,
    batches: int = 20,
    target_ci: float | None = None,
    max_cycles: int | None = None,
    router_delay: int = 1,
    injection_vcs: int | None = None,
    ejection_vcs: int | None = None,
    escape_levels: int | None = None,
    saturation_backlog: int | None = None,
    seed: int = 1,
    cache: bool = False,
    tie: str = "random",
    self_traffic: bool = False,
    router: str = "ideal",
) -> WormholeResult:
    """Simulate wormhole switching on ``topology`` and measure latency and the models' quantities.

    Parameters
    ----------
    topology : Torus, Mesh or Graph
    routing : {'dor', 'duato', 'duato_nbc', 'nbc', 'updown'}
        See :mod:`models.sim.wormhole.routing` (VC classes, minimum ``vcs``).
    vcs : int
        Virtual channels per network physical channel.
    message_length : int
        ``M``, flits (the mean for ``length_dist='geometric'``).
    rate : float
        Poisson generation rate, messages/node/cycle (``None`` with an MMPP source).
    buffer_depth : int
        Flit buffer of each VC (default 2, the least that streams one flit per cycle).
    traffic : 'poisson' or MMPP2 / IPP
        Source model (:mod:`models.sim.wormhole.traffic`).
    length_dist : {'fixed', 'geometric'}
    messages, warmup_messages : int
        Measured messages and delivered messages discarded first.
    batches : int
        Batches for the batch-means confidence interval.
    target_ci : float, optional
        Extend the run until the CI half-width <= ``target_ci * latency``.
    max_cycles : int, optional
        Hard cap on simulated cycles (default 2e8).
    router_delay : int
        Cycles a header spends in each router (default 1).
    injection_vcs : int, optional
        Messages a node may be writing into its injection channel at once
        (default ``vcs``, as the models' source queue with rate ``lambda/V``).
        A message is being written from the cycle it takes an injection VC to
        the cycle its tail flit enters that VC's buffer; the injection channel
        has ``max(vcs, injection_vcs)`` VCs.  ``injection_vcs=1`` is BookSim's
        source: one message at a time per node, the next one starting (its
        header entering a free injection VC) in the cycle after the previous
        tail has entered the injection buffer, while that tail may still wait
        there for the network.
    ejection_vcs : int, optional
        VCs of the ejection channel (default 1; ``vcs`` with ``router='booksim'``).
    escape_levels : int, optional
        Nbc escape levels ``V2`` (default the minimum ``floor(D/2)+1``).
    saturation_backlog : int, optional
        Messages in the system above which the run is declared saturated.
    seed : int
    cache : bool
        Read / write the on-disk result cache (``cache_dir()/'wormhole'``).
    tie : {'random', 'plus'}
        Direction of a dimension-order hop (``dor``, and the escape VCs of
        ``duato``) when the offset is exactly ``k/2`` on a bidirectional
        torus of even radix.  ``'random'`` (default): ``+`` or ``-`` with
        probability 1/2, drawn once per message and dimension from the run's
        seeded stream; every channel then carries the same mean load, as the
        models and BookSim assume.  ``'plus'``: always ``+`` (the simulator
        before issue #12), which puts ``(k/2+1)/(k/2)`` times the mean load on
        the ``+`` channels (1.25 on an 8x8 torus, 1.125 on 16x16).
    self_traffic : bool
        Uniform destinations over all ``N`` nodes, the source included
        (BookSim's ``uniform`` pattern; a message to its own node crosses only
        the local router: injection, then ejection channel), instead of over
        the ``N - 1`` others (default).
    router : {'ideal', 'booksim'}
        Router timing model.  ``'ideal'`` (default, the one the models
        assume): a header spends ``router_delay`` cycles per router, body flits
        one cycle per hop, zero-load latency ``M + (h + 1) R``.  ``'booksim'``:
        BookSim 2's input-queued router (routing, VC allocation, switch
        allocation, switch traversal, 1-cycle links and credits, iSLIP
        allocators with one iteration, one flit per input and output port per
        cycle), zero-load latency ``M + 5 (h + 1) + 1`` for
        ``buffer_depth >= 5``; see :mod:`models.sim.wormhole.booksim` for each
        semantic and the BookSim source it follows (needs ``router_delay=1``,
        ``injection_vcs`` 1 or None).
    """
    router = require_choice("router", router, ["ideal", "booksim"])
    kwargs = dict(
        routing=routing, vcs=vcs, message_length=message_length, rate=rate, buffer_depth=buffer_depth,
        traffic=traffic, length_dist=length_dist, messages=messages, warmup_messages=warmup_messages,
        batches=batches, target_ci=target_ci, max_cycles=max_cycles, router_delay=router_delay,
        injection_vcs=injection_vcs, ejection_vcs=ejection_vcs, escape_levels=escape_levels,
        saturation_backlog=saturation_backlog, seed=seed, tie=tie, self_traffic=self_traffic,
    )
    run = _simulate
    if router == "booksim":
        from .booksim import simulate_booksim as run
    key = point_key(simulate, dict(topology=topology, router=router, **kwargs)) if cache else None
    if kwargs["ejection_vcs"] is None and router == "ideal":
        kwargs["ejection_vcs"] = 1
    if cache:
        dc = DiskCache(cache_dir() / "wormhole")
        hit = dc.get(key)
        if hit is not None:
            return hit
        res = run(topology, **kwargs)
        dc.put(key, res)
        return res
    return run(topology, **kwargs)


simulate.cache_name = "wormhole"
simulate.sim_version = SIM_VERSION


def _simulate(topology, *, routing, vcs, message_length, rate, buffer_depth, traffic, length_dist,
              messages, warmup_messages, batches, target_ci, max_cycles, router_delay,
              injection_vcs, ejection_vcs, escape_levels, saturation_backlog, seed, tie, self_traffic):
    # ------------------------------------------------------------ validation
    if not isinstance(topology, Topology):
        raise ParameterError(f"`topology` must be a Torus, Mesh or Graph; got {topology!r}")
    require_choice("routing", routing, ["dor", "duato", "duato_nbc", "nbc", "updown"])
    M = require("message_length", message_length, 1, unit="flits", integer=True)
    B = require("buffer_depth", buffer_depth, 1, unit="flits per VC", integer=True)
    length_dist = require_choice("length_dist", length_dist, ["fixed", "geometric"])
    messages = require("messages", messages, 1, unit="measured messages", integer=True)
    warmup = require("warmup_messages", warmup_messages, 0, unit="messages", integer=True)
    batches = require("batches", batches, 2, unit="batch means", integer=True)
    if batches > messages:
        raise ParameterError(f"`batches` must be <= `messages` ({messages}); got {batches}")
    if target_ci is not None:
        target_ci = require("target_ci", target_ci, 0, 1, lo_open=True, unit="relative CI half-width")
    maxcyc = 200_000_000 if max_cycles is None else require("max_cycles", max_cycles, 1, integer=True)
    R = require("router_delay", router_delay, 1, unit="cycles per hop", integer=True)
    ej_v = require("ejection_vcs", ejection_vcs, 1, integer=True)
    seed = require("seed", seed, 0, integer=True)
    tk, rates, sigs, offered, tspec = _traffic(traffic, rate)
    rt = _tables(topology, routing, vcs, escape_levels)
    V = rt.vcs
    streams = V if injection_vcs is None else require("injection_vcs", injection_vcs, 1, integer=True)
    inj_v = max(V, streams)
    tie = require_choice("tie", tie, ["random", "plus"])
    if not isinstance(self_traffic, (bool, np.bool_)):
        raise ParameterError(f"`self_traffic` must be True or False; got {self_traffic!r}")

    N, P = topology.nbr.shape
    chan_of, csrc, cdst, cport = topology.channels
    C = csrc.size
    NCH = C + 2 * N
    c_nvc = np.concatenate([np.full(C, V), np.full(N, inj_v), np.full(N, ej_v)]).astype(np.int32)
    c_base = np.zeros(NCH, np.int32)
    c_base[1:] = np.cumsum(c_nvc)[:-1]
    NV = int(c_nvc.sum())
    c_type = np.concatenate([np.full(C, K.CT_NET), np.full(N, K.CT_INJ), np.full(N, K.CT_EJ)]).astype(np.int32)
    nodes = np.arange(N)
    c_dst = np.concatenate([cdst, nodes, nodes]).astype(np.int32)
    c_rr = np.zeros(NCH, np.int32)
    c_busy = np.zeros(NCH, np.int32)
    c_inact = np.zeros(NCH, np.int8)
    n_inj = (C + nodes).astype(np.int32)
    n_ej = (C + N + nodes).astype(np.int32)
    pchan = chan_of.ravel().astype(np.int32)

    satlim = 20 * N + 500 if saturation_backlog is None else require("saturation_backlog", saturation_backlog, 1, integer=True)
    mcap = satlim + 2
    K_target = messages
    tagcap = 2 * messages + satlim
    geop = 1.0 / M
    mmax = M if length_dist == "fixed" else 20 * M
    dlthresh = 20 * mmax + 10 * B * R + 1000

    cfg = np.zeros(K.N_CFG, np.int64)
    cfg[K.C_N], cfg[K.C_P], cfg[K.C_V], cfg[K.C_B], cfg[K.C_R] = N, P, V, B, R
    cfg[K.C_KIND], cfg[K.C_A0], cfg[K.C_HASESC], cfg[K.C_V2] = rt.kind, rt.a0, rt.has_escape, rt.escape_levels
    cfg[K.C_TRAFFIC] = tk
    cfg[K.C_LENKIND] = 0 if length_dist == "fixed" else 1
    cfg[K.C_M] = M
    cfg[K.C_WARMUP] = warmup
    cfg[K.C_TARGET] = K_target
    cfg[K.C_MAXCYC] = maxcyc
    cfg[K.C_SATLIM] = satlim
    cfg[K.C_DLTHRESH] = dlthresh
    cfg[K.C_NCHAN] = C
    cfg[K.C_TIE] = 1 if (tie == "random" and rt.has_ties) else 0
    cfg[K.C_SELF] = 1 if self_traffic else 0
    cfg[K.C_STREAMS] = streams
    cfgf = np.zeros(K.N_CFGF)
    cfgf[K.CF_RATE] = offered
    cfgf[K.CF_R1], cfgf[K.CF_R2], cfgf[K.CF_S1], cfgf[K.CF_S2] = rates[0], rates[1], sigs[0], sigs[1]
    cfgf[K.CF_GEOP] = geop

    st = seed_state(seed)
    S = np.zeros(K.N_S, np.int64)
    F = np.zeros(K.N_F)
    S[K.S_PHASE] = 1 if warmup == 0 else 0
    S[K.S_FREE] = 0
    mm_state = np.zeros(N, np.int64)
    mm_tsw = np.zeros(N)
    mm_tar = np.zeros(N)
    if tk == 0:
        F[K.F_NEXTARR] = _first_arrival(st, offered * N)
    else:
        mmpp_init(st, rates.astype(np.float64), sigs.astype(np.float64), mm_state, mm_tsw, mm_tar, 0.0)

    qhead = np.full(N, -1, np.int32)
    qtail = np.full(N, -1, np.int32)
    qlen = np.zeros(N, np.int32)
    q_inlist = np.zeros(N, np.int8)
    qlist = np.zeros(N, np.int32)
    v_owner = np.full(NV, -1, np.int32)
    v_nin = np.zeros(NV, np.int32)
    v_nout = np.zeros(NV, np.int32)
    v_prv = np.full(NV, -1, np.int32)
    v_nxt = np.full(NV, -1, np.int32)
    v_lastin = np.full(NV, -1, np.int64)
    v_lastout = np.full(NV, -1, np.int64)
    v_hdrt = np.zeros(NV, np.int64)
    v_chan = np.repeat(np.arange(NCH, dtype=np.int32), c_nvc)
    act = np.zeros(NCH, np.int32)
    v_seen = np.full(NV, -1, np.int64)
    n_rel = np.zeros(N, np.int64)
    c_src = np.concatenate([csrc, nodes, nodes]).astype(np.int32)
    pend = np.zeros(NV, np.int32)
    m_dest = np.zeros(mcap, np.int32)
    m_src = np.zeros(mcap, np.int32)
    m_len = np.zeros(mcap, np.int32)
    m_tgen = np.zeros(mcap, np.int64)
    m_tinj = np.zeros(mcap, np.int64)
    m_hops = np.zeros(mcap, np.int32)
    m_tag = np.full(mcap, -1, np.int64)
    m_state = np.zeros(mcap, np.int32)
    m_next = np.arange(1, mcap + 1, dtype=np.int32)
    m_next[-1] = -1
    tags = _alloc_tags(tagcap)
    nch = np.zeros(V + 1, np.int64)
    nch[0] = C
    hist_acc = np.zeros(V + 1, np.float64)
    dummy = np.zeros(1, np.int64)
    m_tie = np.zeros(mcap, np.int64)
    n_writing = np.zeros(N, np.int32)
    c_flits = np.zeros(max(C, 1), np.int64)

    def call(chunk_end):
        cfg[K.C_CHUNKEND] = chunk_end
        return K.run(cfg, cfgf, st, S, F,
                     rt.minp, rt.nminp, rt.escp, rt.escv, rt.udp, rt.chan_up, rt.nbc_U, rt.label, pchan,
                     c_base, c_nvc, c_type, c_dst, c_rr, c_busy, c_inact,
                     n_inj, n_ej, qhead, qtail, qlen, q_inlist, qlist,
                     v_owner, v_nin, v_nout, v_prv, v_nxt, v_lastin, v_lastout, v_hdrt, v_chan,
                     act, pend, v_seen, n_rel, c_src,
                     m_dest, m_src, m_len, m_tgen, m_tinj, m_hops, m_tag, m_state, m_next,
                     tags[0], tags[1], tags[2], tags[3], tags[4],
                     nch, hist_acc, dummy,
                     mm_state, mm_tsw, mm_tar, rates.astype(np.float64), sigs.astype(np.float64),
                     m_tie, rt.tie_dim, rt.tie_port, rt.tie_escv, n_writing, c_flits)

    chunk = 1 << 21
    t0 = time.perf_counter()
    status = K.RUNNING
    while True:
        status = call(int(S[K.S_T]) + chunk)
        if status == K.RUNNING:
            continue
        if status == K.DONE and target_ci is not None:
            n = K_target
            lat = tags[0][:n]
            ci = _batch_ci(lat.astype(float), batches)
            if ci > target_ci * lat.mean():
                K_target = int(math.ceil(K_target * 1.5))
                cfg[K.C_TARGET] = K_target
                if tags[0].size < 2 * K_target + satlim:
                    tags = _grow_tags(tags, 2 * K_target + satlim)
                continue
        break
    wall = time.perf_counter() - t0

    params = dict(
        topology=topology.spec(), routing=routing, vcs=V, message_length=M, rate=rate,
        buffer_depth=B, traffic=tspec if isinstance(tspec, str) else dataclasses.asdict(tspec),
        length_dist=length_dist, messages=messages, warmup_messages=warmup, batches=batches,
        target_ci=target_ci, max_cycles=maxcyc, router_delay=R, injection_vcs=streams,
        ejection_vcs=ej_v, escape_levels=rt.escape_levels if routing in ("duato_nbc", "nbc") else None,
        saturation_backlog=satlim, tie=tie, self_traffic=bool(self_traffic),
    )

    if status == K.DEADLOCK:
        chans, detail = _deadlock_report(topology, C, N, c_base, c_nvc, v_owner, v_nin, v_nout, v_nxt,
                                         m_dest, pend[: S[K.S_NPEND]], S, cdst)
        err = DeadlockError(int(S[K.S_T]), chans, detail)
        err.state = dict(v_owner=v_owner, v_nin=v_nin, v_nout=v_nout, v_prv=v_prv, v_nxt=v_nxt,
                         v_lastin=v_lastin, v_lastout=v_lastout, v_hdrt=v_hdrt, v_chan=v_chan,
                         c_base=c_base, c_nvc=c_nvc, c_busy=c_busy, c_inact=c_inact, act=act[: S[K.S_NACT]],
                         pend=pend[: S[K.S_NPEND]], m_dest=m_dest, m_len=m_len, m_state=m_state,
                         S=S, tables=rt)
        raise err

    Tw = int(S[K.S_CYC_W])
    nfin = int(S[K.S_PREFIX])
    n_use = min(K_target, nfin) if status == K.DONE else nfin
    backlog_growth = int(S[K.S_INSYS]) - int(S[K.S_INSYS_W0])
    gen_w = int(S[K.S_GEN_W])
    saturated = status == K.SATURATED
    if not saturated and Tw > 0 and backlog_growth > max(0.03 * gen_w, 4 * N):
        saturated = True
    if status == K.MAXCYCLES and not saturated and n_use < batches:
        saturated = True
    reason = {K.DONE: "done", K.SATURATED: "saturation backlog", K.MAXCYCLES: "max_cycles"}[status]
    if saturated and status == K.DONE:
        reason = "backlog growth"

    def rate_of(x):
        return float(x) / (N * Tw) if Tw > 0 else math.nan

    hist = hist_acc / (C * Tw) if Tw > 0 else np.full(V + 1, math.nan)
    vv = np.arange(V + 1)
    den = float((vv * hist).sum())
    mux = float((vv * vv * hist).sum()) / den if den > 0 else math.nan
    util = float(S[K.S_NETFLITS_W]) / (C * Tw) if Tw > 0 else math.nan
    lat = tags[0][:n_use].astype(float)
    if saturated or n_use == 0:
        latency = math.inf
        ci = math.inf
        netlat = math.inf
        wait = math.inf
    else:
        latency = float(lat.mean())
        ci = _batch_ci(lat, batches) if n_use >= batches else math.inf
        netlat = float(tags[1][:n_use].mean())
        wait = float(tags[2][:n_use].mean())
    hops = float(tags[3][:n_use].mean()) if n_use else math.nan
    return WormholeResult(
        latency=latency, latency_ci=ci, network_latency=netlat, source_wait=wait,
        throughput=rate_of(S[K.S_DELIV_W]), offered=float(offered), saturated=bool(saturated),
        mean_hops=hops, vc_busy_hist=hist, multiplexing=mux, channel_utilisation=util,
        cycles=int(S[K.S_T]), messages=int(n_use), flit_hops=int(S[K.S_FLITHOPS]), wall_time=wall,
        params=params, seed=int(seed), measured_offered=rate_of(gen_w),
        mean_in_network=float(F[K.F_INNET_ACC]) / Tw if Tw > 0 else math.nan,
        window_cycles=Tw, stop_reason=reason,
        work=dict(routing_attempts=int(S[K.S_ALLOC_TRIES]), channel_visits=int(S[K.S_CHAN_VISITS]),
                  generated=int(S[K.S_GEN]), delivered=int(S[K.S_DELIV])),
        channel_load=c_flits[:C] / Tw if Tw > 0 else np.full(C, math.nan),
    )


def _first_arrival(st, lam_total):
    from .traffic import rng_exp

    return float(rng_exp(st)) / lam_total


def _alloc_tags(n):
    return (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int32), np.zeros(n, np.int8))


def _grow_tags(tags, n):
    new = _alloc_tags(n)
    for a, b in zip(tags, new):
        b[: a.size] = a
    return new


def _deadlock_report(topo, C, N, c_base, c_nvc, v_owner, v_nin, v_nout, v_nxt, m_dest, pend, S, cdst):
    chans = []
    waiting = set(int(b) for b in pend)
    for ch in range(C):
        for v in range(int(c_nvc[ch])):
            b = int(c_base[ch]) + v
            m = int(v_owner[b])
            if m < 0:
                continue
            state = "header waiting" if b in waiting else f"{int(v_nin[b] - v_nout[b])} flits"
            chans.append(f"{topo.describe_channel(ch)} vc{v} [msg {m} -> {int(m_dest[m])}, {state}]")
    detail = (f"{len(waiting)} headers blocked, {int(S[K.S_INNET])} messages in the network, "
              f"no flit moved for {int(S[K.S_IDLE])} cycles")
    return chans, detail
