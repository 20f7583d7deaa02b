"""Public entry point of the wormhole simulator: :func:`simulate` and :class:`WormholeResult`.

Model (see :mod:`.kernel` for the cycle and :mod:`.routing` for the routing
functions): cycle-driven, flit-level wormhole switching.  A message of ``M``
flits is generated at a node (:mod:`.traffic`), waits in an unbounded FIFO
source queue, and leaves it for a free injection virtual channel of its node
as soon as fewer than ``injection_vcs`` messages of that node are being
written into the injection channel (default ``vcs``; a message is being
written from the cycle it takes its injection VC until its tail flit has
entered that VC's buffer).  ``injection_vcs=1`` is BookSim's source: one
message at a time, the next one starting the cycle after the previous tail
has entered the injection buffer.  The header is then routed hop by hop; the
body follows in a pipeline and a blocked header stops the whole worm.  Every physical channel
(network, injection, ejection) moves at most one flit per cycle, shared
round-robin by its VCs that have a flit ready; every network or injection VC
has a buffer of ``buffer_depth`` flits.  At the destination the header takes
one of ``ejection_vcs`` (default 1) ejection VCs and the message leaves one
flit per cycle.

Router models (``router``): ``'ideal'`` (default; :mod:`.kernel`), described
here and assumed by the analytical models, and ``'booksim'``
(:mod:`.booksim`, :mod:`.booksim_kernel`), BookSim 2's input-queued router
with its pipeline, credits and iSLIP allocators (zero-load latency
``M + 5 (h + 1) + 1``).  Ties of dimension-order hops at offset ``k/2``
(``tie``, default ``'random'``) are broken per message and dimension from the
run's seeded RNG, so every channel carries the same mean load (what the
models and BookSim assume); ``tie='plus'`` reproduces the simulator before
issue #12.  ``self_traffic=True`` draws destinations over all ``N`` nodes
(BookSim's ``uniform``), else over the ``N - 1`` others.

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
time) until the CI half-width is at most ``target_ci`` times the mean, or
until ``max_messages`` are measured: ``messages`` is then the least run, so
a point that is precise early stops early.
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
import math
import time
import types

import numpy as np

from models.core.cache import DiskCache
from models.core.errors import DeadlockError, ParameterError
from models.core.keys import point_key
from models.core.paths import cache_dir
from models.core.validate import require, require_choice

from . import kernel as K
from ...networks.graph import Topology
from ...traffic.process import IPP, MMPP2
from .traffic import mmpp_init, seed_state

from .common import SIM_VERSION, WormholeResult, _batch_ci, _tables, _traffic, check_max_messages  # noqa: F401  (shared by both engines)

__all__ = ["simulate", "WormholeResult", "SIM_VERSION"]


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
    max_messages: int | None = None,
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
    wait_for_tail_credit: bool = False,
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
    max_messages : int, optional
        With ``target_ci``: measure at most this many messages (>= ``messages``);
        the run stops there even if the CI is still wider.  Default: no cap
        (``max_cycles`` still applies).
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
        ``injection_vcs`` 1 or None; routings ``dor`` (BookSim's two dateline
        halves on a torus: ``vcs`` even) and ``nbc``, and, with
        ``wait_for_tail_credit=True``, ``duato``, ``duato_nbc`` and ``updown``).
    wait_for_tail_credit : bool
        ``router='booksim'`` only: BookSim's option of the same name.  ``False``
        (default, BookSim 2's default and the issue #12 configuration): an
        output VC may be allocated to the next message once the previous tail
        has been *sent*, so a buffer may hold the tail of one message and the
        header of the next.  ``True``: only once the credit of that tail is
        back (the buffer is empty), i.e. atomic VC reallocation; required by
        the routings with an adaptive VC class (``duato``, ``duato_nbc``,
        ``updown`` with ``vcs > 1``), whose deadlock freedom (Duato's theorem)
        assumes it.
    """
    router = require_choice("router", router, ["ideal", "booksim"])
    if router == "ideal" and wait_for_tail_credit is not False:
        raise ParameterError("`wait_for_tail_credit` applies only to router='booksim' (the ideal router "
                             "frees a VC when the tail leaves its buffer)")
    kwargs = dict(
        routing=routing, vcs=vcs, message_length=message_length, rate=rate, buffer_depth=buffer_depth,
        traffic=traffic, length_dist=length_dist, messages=messages, warmup_messages=warmup_messages,
        batches=batches, target_ci=target_ci, max_messages=max_messages, max_cycles=max_cycles,
        router_delay=router_delay, injection_vcs=injection_vcs, ejection_vcs=ejection_vcs, escape_levels=escape_levels,
        saturation_backlog=saturation_backlog, seed=seed, tie=tie, self_traffic=self_traffic,
    )
    run = _simulate
    if router == "booksim":
        from .booksim import simulate_booksim as run

        kwargs["wait_for_tail_credit"] = wait_for_tail_credit
    key = (point_key(simulate, dict(topology=topology, router=router,
                                    **{"wait_for_tail_credit": wait_for_tail_credit, **kwargs}))
           if cache else None)
    if kwargs["ejection_vcs"] is None and router == "ideal":
        kwargs["ejection_vcs"] = 1
    if cache:  # computed once, even when another process asks for the same point meanwhile
        return DiskCache(cache_dir() / "wormhole").fetch_or_compute(key, lambda: run(topology, **kwargs))
    return run(topology, **kwargs)


simulate.cache_name = "wormhole"
simulate.sim_version = SIM_VERSION


def _simulate(topology, **kw):
    p = _validate(topology, **kw)
    s = _allocate(topology, p)
    status, wall = _run(s, p)
    return _summary(topology, p, s, status, wall)


# ----------------------------------------------------------------- validation
def _validate(topology, *, routing, vcs, message_length, rate, buffer_depth, traffic, length_dist,
              messages, warmup_messages, batches, target_ci, max_messages, max_cycles, router_delay,
              injection_vcs, ejection_vcs, escape_levels, saturation_backlog, seed, tie, self_traffic):
    """The checked parameters of one run (a namespace), with the routing tables and the traffic source."""
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
    max_messages = check_max_messages(max_messages, messages, target_ci)
    # cycle stamps are int32 in the kernel's VC records (as BookSim's): runs stop before 2**31 cycles
    maxcyc = 200_000_000 if max_cycles is None else require("max_cycles", max_cycles, 1, 2**31 - 16, integer=True)
    R = require("router_delay", router_delay, 1, unit="cycles per hop", integer=True)
    ej_v = require("ejection_vcs", ejection_vcs, 1, integer=True)
    seed = require("seed", seed, 0, integer=True)
    tk, rates, sigs, offered, tspec = _traffic(traffic, rate)
    rt = _tables(topology, routing, vcs, escape_levels)
    V = rt.vcs
    streams = V if injection_vcs is None else require("injection_vcs", injection_vcs, 1, integer=True)
    tie = require_choice("tie", tie, ["random", "plus"])
    if not isinstance(self_traffic, (bool, np.bool_)):
        raise ParameterError(f"`self_traffic` must be True or False; got {self_traffic!r}")
    N = topology.nbr.shape[0]
    satlim = 20 * N + 500 if saturation_backlog is None else require("saturation_backlog", saturation_backlog, 1, integer=True)
    return types.SimpleNamespace(
        routing=routing, rt=rt, V=V, M=M, B=B, R=R, length_dist=length_dist, messages=messages, warmup=warmup,
        batches=batches, target_ci=target_ci, max_messages=max_messages, maxcyc=maxcyc, ej_v=ej_v, inj_v=max(V, streams), streams=streams,
        seed=seed, traffic_kind=tk, rates=rates.astype(np.float64), sigs=sigs.astype(np.float64),
        offered=offered, tspec=tspec, rate=rate, tie=tie, self_traffic=bool(self_traffic), satlim=satlim)


# ----------------------------------------------------------------- allocation
def _records(n, dtype, **fill):
    """``n`` zeroed records of ``dtype`` on a 64-byte boundary (one VC record = one cache line)."""
    raw = np.zeros(n * dtype.itemsize + 64, np.uint8)
    off = (-raw.ctypes.data) % 64
    a = raw[off: off + n * dtype.itemsize].view(dtype)
    for k, v in fill.items():
        a[k] = v
    return a


def _allocate(topology, p):
    """The kernel's state for a run of parameters ``p`` (see :mod:`.kernel`), before the first cycle."""
    rt, V = p.rt, p.V
    N, P = topology.nbr.shape
    chan_of, csrc, cdst, cport = topology.channels
    C = csrc.size
    NCH = C + 2 * N
    nodes = np.arange(N)

    chan = _records(NCH, K.CHAN)
    chan["nvc"] = np.concatenate([np.full(C, V), np.full(N, p.inj_v), np.full(N, p.ej_v)])
    chan["base"][1:] = np.cumsum(chan["nvc"])[:-1]
    chan["typ"] = np.concatenate([np.full(C, K.CT_NET), np.full(N, K.CT_INJ), np.full(N, K.CT_EJ)])
    chan["src"] = np.concatenate([csrc, nodes, nodes])
    chan["dst"] = np.concatenate([cdst, nodes, nodes])
    NV = int(chan["nvc"].sum())

    vc = _records(NV, K.VC, prv=-1, lastout=-1, nxt=-1, uplast=-1)
    vo = _records(NV, K.VCO, owner=-1, seen=-1)
    vo["chan"] = np.repeat(np.arange(NCH), chan["nvc"])
    vo["router"] = chan["dst"][vo["chan"]]

    node = _records(N, K.NODE, qhead=-1, qtail=-1)
    node["inj"] = C + nodes
    node["ej"] = C + N + nodes
    node["label"] = rt.label

    mcap = p.satlim + 2
    msg = _records(mcap, K.MSG, tag=-1)
    msg["next"] = np.arange(1, mcap + 1)
    msg["next"][-1] = -1

    mmax = p.M if p.length_dist == "fixed" else 20 * p.M
    cfg = K.Config(
        n=int(N), p=int(P), v=int(V), b=int(p.B), r=int(p.R), routing=int(rt.kind), a0=int(rt.a0),
        has_esc=int(rt.has_escape), escape_levels=int(rt.escape_levels), traffic=int(p.traffic_kind),
        length=K.LENGTH_FIXED if p.length_dist == "fixed" else K.LENGTH_GEOMETRIC, m=int(p.M),
        geop=float(1.0 / p.M), rate=float(p.offered), warmup=int(p.warmup), maxcyc=int(p.maxcyc),
        satlim=int(p.satlim), dlthresh=int(20 * mmax + 10 * p.B * p.R + 1000),
        tie=int(p.tie == "random" and rt.has_ties), self_traffic=int(p.self_traffic), streams=int(p.streams))
    net = K.pack_net(rt, chan_of)

    rng = seed_state(p.seed)
    sc = np.zeros(1, K.SCALARS)
    sc["phase"] = K.MEASURE if p.warmup == 0 else K.WARMUP
    sc["target"] = p.messages
    mm = K.Mmpp(np.zeros(N, np.int64), np.zeros(N), np.zeros(N), p.rates, p.sigs)
    if p.traffic_kind == K.TRAFFIC_POISSON:
        sc["nextarr"] = _first_arrival(rng, p.offered * N)
    else:
        mmpp_init(rng, p.rates, p.sigs, mm.state, mm.tsw, mm.tar, 0.0)

    nch = np.zeros(V + 1, np.int64)
    nch[0] = C
    return types.SimpleNamespace(
        C=C, N=N, cdst=cdst, cfg=cfg, net=net, vc=vc, vo=vo, chan=chan, msg=msg, node=node,
        lists=K.Lists(np.zeros(2 * NCH, np.int32), np.zeros(NV, np.int32), np.zeros(N, np.int32),
                      np.append(chan["base"], NV).astype(np.int32)),
        mm=mm, tags=_alloc_tags(2 * p.messages + p.satlim),
        hist=K.Hist(nch, np.zeros(V + 1, np.float64), np.zeros(max(C, 1), np.int64)), sc=sc, rng=rng)


# ----------------------------------------------------------------- the run
def _run(s, p):
    """Run the kernel in chunks until it stops (extending the run for ``target_ci``); (status, seconds)."""
    chunk = 1 << 21
    sc = s.sc[0]
    t0 = time.perf_counter()
    while True:
        sc["chunk_end"] = sc["t"] + chunk
        status = K.run(s.cfg, s.net, s.vc, s.vo, s.chan, s.msg, s.node, s.lists, s.mm, s.tags, s.hist, s.sc, s.rng)
        if status == K.RUNNING:
            continue
        if status == K.DONE and p.target_ci is not None:
            n = int(sc["target"])
            lat = s.tags.lat[:n]
            ci = _batch_ci(lat.astype(float), p.batches)
            if ci > p.target_ci * lat.mean() and (p.max_messages is None or n < p.max_messages):
                n = int(math.ceil(n * 1.5)) if p.max_messages is None else min(int(math.ceil(n * 1.5)), p.max_messages)
                sc["target"] = n
                if s.tags.lat.size < 2 * n + p.satlim:
                    s.tags = _grow_tags(s.tags, 2 * n + p.satlim)
                continue
        break
    return status, time.perf_counter() - t0


# ----------------------------------------------------------------- the summary
def _summary(topology, p, s, status, wall):
    """The :class:`WormholeResult` of a finished run (raises :class:`DeadlockError` on a deadlock)."""
    sc = s.sc[0]
    C, N, V = s.C, s.N, p.V
    params = dict(
        topology=topology.spec(), routing=p.routing, vcs=V, message_length=p.M, rate=p.rate,
        buffer_depth=p.B, traffic=p.tspec if isinstance(p.tspec, str) else dataclasses.asdict(p.tspec),
        length_dist=p.length_dist, messages=p.messages, warmup_messages=p.warmup, batches=p.batches,
        target_ci=p.target_ci, max_messages=p.max_messages, max_cycles=p.maxcyc, router_delay=p.R, injection_vcs=p.streams,
        ejection_vcs=p.ej_v, escape_levels=p.rt.escape_levels if p.routing in ("duato_nbc", "nbc") else None,
        saturation_backlog=p.satlim, tie=p.tie, self_traffic=p.self_traffic, router="ideal",
    )

    if status == K.DEADLOCK:
        pend = s.lists.pend[: sc["npend"]]
        chans, detail = _deadlock_report(topology, s, pend)
        err = DeadlockError(int(sc["t"]), chans, detail)
        err.state = dict(vc=s.vc, vo=s.vo, chan=s.chan, msg=s.msg, node=s.node, act=s.lists.act[: sc["nact"]],
                         pend=pend, scalars=sc, tables=p.rt)
        raise err

    Tw = int(sc["cyc_w"])
    nfin = int(sc["prefix"])
    K_target = int(sc["target"])
    n_use = min(K_target, nfin) if status == K.DONE else nfin
    backlog_growth = int(sc["insys"]) - int(sc["insys_w0"])
    gen_w = int(sc["gen_w"])
    saturated = status == K.SATURATED
    if not saturated and Tw > 0 and backlog_growth > max(0.03 * gen_w, 4 * N):
        saturated = True
    if status == K.MAXCYCLES and not saturated and n_use < p.batches:
        saturated = True
    reason = {K.DONE: "done", K.SATURATED: "saturation backlog", K.MAXCYCLES: "max_cycles"}[status]
    if saturated and status == K.DONE:
        reason = "backlog growth"

    def rate_of(x):
        return float(x) / (N * Tw) if Tw > 0 else math.nan

    hist = s.hist.acc / (C * Tw) if Tw > 0 else np.full(V + 1, math.nan)
    vv = np.arange(V + 1)
    den = float((vv * hist).sum())
    mux = float((vv * vv * hist).sum()) / den if den > 0 else math.nan
    util = float(sc["netflits_w"]) / (C * Tw) if Tw > 0 else math.nan
    tags = s.tags
    lat = tags.lat[:n_use].astype(float)
    if saturated or n_use == 0:
        latency = ci = netlat = wait = math.inf
    else:
        latency = float(lat.mean())
        ci = _batch_ci(lat, p.batches) if n_use >= p.batches else math.inf
        netlat = float(tags.net[:n_use].mean())
        wait = float(tags.wait[:n_use].mean())
    hops = float(tags.hops[:n_use].mean()) if n_use else math.nan
    return WormholeResult(
        latency=latency, latency_ci=ci, network_latency=netlat, source_wait=wait,
        throughput=rate_of(sc["deliv_w"]), offered=float(p.offered), saturated=bool(saturated),
        mean_hops=hops, vc_busy_hist=hist, multiplexing=mux, channel_utilisation=util,
        cycles=int(sc["t"]), messages=int(n_use), flit_hops=int(sc["flithops"]), wall_time=wall,
        params=params, seed=int(p.seed), measured_offered=rate_of(gen_w),
        mean_in_network=float(sc["innet_acc"]) / Tw if Tw > 0 else math.nan,
        window_cycles=Tw, stop_reason=reason,
        work=dict(routing_attempts=int(sc["alloc_tries"]), channel_visits=int(sc["chan_visits"]),
                  generated=int(sc["gen"]), delivered=int(sc["deliv"])),
        channel_load=s.hist.flits[:C] / Tw if Tw > 0 else np.full(C, math.nan),
    )


def _first_arrival(st, lam_total):
    from .traffic import rng_exp

    return float(rng_exp(st)) / lam_total


def _alloc_tags(n):
    return K.Tags(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int32), np.zeros(n, np.int8))


def _grow_tags(tags, n):
    new = _alloc_tags(n)
    for a, b in zip(tags, new):
        b[: a.size] = a
    return new


def _deadlock_report(topo, s, pend):
    chans = []
    waiting = set(int(b) for b in pend)
    vc = s.vc
    for ch in range(s.C):
        c = s.chan[ch]
        for v in range(int(c["nvc"])):
            b = int(c["base"]) + v
            m = int(s.vo[b]["owner"])
            if m < 0:
                continue
            state = "header waiting" if b in waiting else f"{int(vc[b]['nin'] - vc[b]['nout'])} flits"
            chans.append(f"{topo.describe_channel(ch)} vc{v} [msg {m} -> {int(s.msg[m]['dest'])}, {state}]")
    sc = s.sc[0]
    detail = (f"{len(waiting)} headers blocked, {int(sc['innet'])} messages in the network, "
              f"no flit moved for {int(sc['idle'])} cycles")
    return chans, detail
