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

Blocking time.  Per measured message, ``b`` = its network latency minus the
zero-load network latency of its hop count (:func:`zero_load_network_latency`;
torus_ipp's eq. 4, ``t = m + d + b``): the result's ``blocking_mean``,
``blocking_m2``, ``blocking_cv``, overall and by hop count
(``blocking_by_hops``; :func:`.common.blocking_stats`), ideal router only.

Same seed, same result, bit for bit (integer xorshift RNG, deterministic
arbitration).
"""

from __future__ import annotations

import types

import numpy as np

from models.core.cache import DiskCache
from models.core.errors import DeadlockError, ParameterError
from models.core.keys import point_key
from models.core.paths import cache_dir
from models.core.validate import require, require_choice

from ...networks.graph import Topology
from . import kernel as K
from . import steps
from .booksim import simulate_booksim
from .common import _traffic  # noqa: F401  (throughput.py reads the traffic argument through this module)
from .common import (SIM_VERSION, WormholeResult, check_run, initial_state, run_params, run_until_precise,
                     summarise, tag_capacity)
from .routing import BOOKSIM_ONLY, longest_path

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
    vc_partition: str | None = None,
) -> WormholeResult:
    """Simulate wormhole switching on ``topology`` and measure latency and the models' quantities.

    Parameters
    ----------
    topology : Torus, Mesh or Graph
    routing : {'dor', 'duato', 'duato_nbc', 'nbc', 'updown', 'min_adapt'}
        See :mod:`models.sim.wormhole.routing` (VC classes, minimum ``vcs``).
        ``'min_adapt'`` is BookSim 2's ``min_adapt_torus`` (bidirectional torus,
        ``vcs >= 4``), with ``router='booksim'`` only.
    vcs : int
        Virtual channels per network physical channel.
    message_length : int
        ``M``, flits (the mean for ``length_dist='geometric'``).
    rate : float
        Poisson generation rate, messages/node/cycle (``None`` with an MMPP source).
    buffer_depth : int
        Flit buffer of each VC (default 2, the least that streams one flit per cycle).
    traffic : 'poisson', 'bernoulli' or MMPP2 / IPP
        Source model (:mod:`models.sim.wormhole.traffic`): Poisson arrivals, or Bernoulli (at most one
        message per node and cycle, with probability ``rate`` <= 1: BookSim's ``injection_process =
        bernoulli``), or a Markov-modulated source.
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
        Read / write the on-disk result cache (``cache_dir()/'wormhole'``; never with
        ``MODELS_SIM_PROFILE=1``, whose per-phase cycle counts are of the run itself).
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
        ``injection_vcs`` 1 or None; routings ``dor`` (two ring halves on a
        torus: ``vcs`` even; see ``vc_partition``), ``nbc`` and BookSim's
        ``min_adapt``, and, with ``wait_for_tail_credit=True``, ``duato``,
        ``duato_nbc`` and ``updown``).
    wait_for_tail_credit : bool
        ``router='booksim'`` only: BookSim's option of the same name.  ``False``
        (default, BookSim 2's default and the issue #12 configuration): an
        output VC may be allocated to the next message once the previous tail
        has been *sent*, so a buffer may hold the tail of one message and the
        header of the next.  ``True``: only once the credit of that tail is
        back (the buffer is empty), i.e. atomic VC reallocation; required by
        the routings with an adaptive VC class (``duato``, ``duato_nbc``,
        ``updown`` with ``vcs > 1``), whose deadlock freedom (Duato's theorem)
        assumes it.  ``min_adapt`` takes either.
    vc_partition : {None, 'entry', 'hop'}
        ``router='booksim'``, routing ``dor`` on a torus: how a message's VC
        half (ring partition) is chosen.  ``'entry'`` (the default on a
        bidirectional torus): BookSim's ``dim_order_torus``, once per
        dimension where the message enters it, kept to the end of the
        dimension; ``'hop'`` (the default, and the only rule, on a
        unidirectional torus): the textbook dateline, recomputed at every hop
        (the preset before issue #24).  Recorded in ``params``; refused with
        the ideal router (its ``dor`` has its own escape VCs) and where there
        are no ring halves.
    """
    router = require_choice("router", router, ["ideal", "booksim"])
    if router == "ideal" and wait_for_tail_credit is not False:
        raise ParameterError("`wait_for_tail_credit` applies only to router='booksim' (the ideal router "
                             "frees a VC when the tail leaves its buffer)")
    if router == "ideal" and vc_partition is not None:
        raise ParameterError("`vc_partition` applies only to router='booksim' (the ideal router's dor uses the "
                             "per-hop dateline escape VCs of models.sim.wormhole.routing.dor)")
    if router == "ideal" and routing in BOOKSIM_ONLY:
        raise ParameterError(f"`routing` {routing!r} (BookSim 2's min_adapt_torus) is implemented for "
                             "router='booksim' only; with the ideal router use 'duato'")
    kwargs = dict(
        routing=routing, vcs=vcs, message_length=message_length, rate=rate, buffer_depth=buffer_depth,
        traffic=traffic, length_dist=length_dist, messages=messages, warmup_messages=warmup_messages,
        batches=batches, target_ci=target_ci, max_messages=max_messages, max_cycles=max_cycles,
        router_delay=router_delay, injection_vcs=injection_vcs, ejection_vcs=ejection_vcs, escape_levels=escape_levels,
        saturation_backlog=saturation_backlog, seed=seed, tie=tie, self_traffic=self_traffic,
    )
    run = _simulate
    if router == "booksim":
        run = simulate_booksim
        kwargs["wait_for_tail_credit"] = wait_for_tail_credit
        kwargs["vc_partition"] = vc_partition
    key = (point_key(simulate, dict(topology=topology, router=router,
                                    **{"wait_for_tail_credit": wait_for_tail_credit, "vc_partition": vc_partition,
                                       **kwargs}))
           if cache else None)
    if kwargs["ejection_vcs"] is None and router == "ideal":
        kwargs["ejection_vcs"] = 1
    if cache and not steps.PROFILE:  # computed once, even when another process asks for the same point meanwhile
        return DiskCache(cache_dir() / "wormhole").fetch_or_compute(key, lambda: run(topology, **kwargs))
    return run(topology, **kwargs)  # a profiled build's cycle counts are of this run: neither read nor stored


simulate.cache_name = "wormhole"
simulate.sim_version = SIM_VERSION


def _simulate(topology, **kw):
    p = _validate(topology, **kw)
    s = _allocate(topology, p)

    def step(tags):
        return K.run(s.cfg, s.net, s.vc, s.vo, s.chan, s.msg, s.node, s.lists, s.mm, tags, s.hist, s.sc, s.rng,
                     s.worms)

    status, s.tags, wall = run_until_precise(step, s.sc, s.tags, p, p.target_ci)
    if status == steps.DEADLOCK:
        raise _deadlock(topology, p, s)
    flits = _channel_flits(s)
    s.sc["netflits_w"] = flits.sum()  # the window's network flits, counted per channel by the kernel
    return summarise(p, s.sc, status, s.tags, hist_acc=s.hist.acc, channel_flits=flits,
                     params=run_params(topology, p, "ideal"), wall=wall,
                     work=dict(routing_attempts="alloc_tries", vc_visits="vc_visits",
                               **({f"cycles_{ph}": f"clk_{ph}" for ph in K.PHASES} if steps.PROFILE else {})),
                     zero_load=zero_load_network_latency(p))


def zero_load_network_latency(p):
    """The ideal router's zero-load network latency as a function of a message's hop count ``h`` (cycles), or
    ``None`` when messages differ in length (``length_dist='geometric'``: the tags do not keep each length).

    ``M + (h + 1) R`` with ``buffer_depth >= 2``, ``2 M - 1 + (h + 1) R`` with 1 (the module docstring's
    timing); at zero load a message takes its injection VC in its generation cycle, so its network latency
    is its latency.  The blocking time of :func:`.common.blocking_stats` is measured against it."""
    if p.length_dist != "fixed":
        return None
    flits = p.M if p.B >= 2 else 2 * p.M - 1
    return lambda h: flits + (np.asarray(h, dtype=np.int64) + 1) * p.R


# ----------------------------------------------------------------- validation
def _validate(topology, *, ejection_vcs, injection_vcs, **shared):
    """The checked parameters of one run (a namespace: :func:`.common.check_run`'s and the
    injection and ejection channels' VCs)."""
    p = check_run(topology, **shared)
    p.ej_v = require("ejection_vcs", ejection_vcs, 1, integer=True)
    p.streams = p.V if injection_vcs is None else require("injection_vcs", injection_vcs, 1, integer=True)
    p.inj_v = max(p.V, p.streams)
    return p


# ----------------------------------------------------------------- allocation
def _records(n, dtype, **fill):
    """``n`` zeroed records of ``dtype`` on a 64-byte boundary (one VC record = one cache line)."""
    raw = np.zeros(n * dtype.itemsize + 64, np.uint8)
    off = (-raw.ctypes.data) % 64
    a = raw[off: off + n * dtype.itemsize].view(dtype)
    for k, v in fill.items():
        a[k] = v
    return a


#: the longest path, in VCs (injection and ejection included), whose worms the kernel advances a whole worm at a time
#: (:func:`.kernel._advance`: one bit per hop in a 64-bit word, and a bit to spare for the hop past the head); a
#: network whose paths may be longer runs the hop-by-hop traversal (:func:`.kernel._advance_hops`), with the same
#: results, more slowly
MASK_HOPS = 62


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
    arb = _records(NCH, K.ARB)
    arb["base"] = chan["base"]
    arb["nvc"] = chan["nvc"]

    vc = _records(NV, K.VC, worm=-1, hop=-1)
    vo = _records(NV, K.VCO, owner=-1, seen=-1)
    vo["chan"] = np.repeat(np.arange(NCH), chan["nvc"])
    vo["router"] = chan["dst"][vo["chan"]]

    node = _records(N, K.NODE, qhead=-1, qtail=-1)
    node["inj"] = C + nodes
    node["ej"] = C + N + nodes
    node["label"] = rt.label

    # a worm (a message in the network) holds at least one VC: NV worms; its path is its injection VC, at
    # most `longest_path` network VCs and its ejection VC, and a slot either side (the kernel's `Worms`)
    lw = longest_path(topology, rt) + 4
    worms = K.Worms(_records(NV, K.WORM, next=np.append(np.arange(1, NV), -1)), _records(NV * lw, K.HOP),
                    np.zeros(NV * K.NPL, np.int64))
    mcap = p.satlim + 2
    msg = _records(mcap, K.MSG, tag=-1)
    msg["next"] = np.arange(1, mcap + 1)
    msg["next"][-1] = -1

    cfg = K.Config(
        n=int(N), p=int(P), v=int(V), b=int(p.B), r=int(p.R), routing=int(rt.kind), a0=int(rt.a0),
        has_esc=int(rt.has_escape), escape_levels=int(rt.escape_levels), half=0, traffic=int(p.traffic_kind),
        length=steps.LENGTH_FIXED if p.length_dist == "fixed" else steps.LENGTH_GEOMETRIC, M=int(p.M),
        geop=float(1.0 / p.M), rate=float(p.offered), warmup=int(p.warmup), maxcyc=int(p.maxcyc),
        satlim=int(p.satlim), dlthresh=int(20 * p.mmax + 10 * p.B * p.R + 1000),
        tie=int(p.tie == "random" and rt.has_ties), self_traffic=int(p.self_traffic), streams=int(p.streams),
        vej=int(p.ej_v), lw=lw, kb=int(p.B).bit_length(), masks=int(lw - 2 <= MASK_HOPS))
    net = steps.pack_net(rt, chan_of)
    sc, mm, rng = initial_state(p, K.SCALARS, p.warmup)
    nch = np.zeros(V + 1, np.int64)
    nch[0] = C
    return types.SimpleNamespace(
        C=C, N=N, cdst=cdst, cfg=cfg, net=net, vc=vc, vo=vo, chan=chan, msg=msg, node=node,
        lists=K.Lists(np.zeros(NCH, np.int32), np.zeros(NV, np.int32), np.zeros(NCH, np.int32),
                      np.zeros(NV, np.int32), np.zeros(N, np.int32),
                      np.append(chan["base"], NV).astype(np.int32), np.zeros(1, np.int32), arb,
                      np.zeros(2 * NV + 2, np.int64), np.zeros(3 * NV + 3, np.int64)),
        worms=worms,
        mm=mm, tags=steps.alloc_tags(tag_capacity(p, p.messages)),
        hist=K.Hist(nch, np.zeros(V + 1, np.float64), np.zeros(max(C, 1), np.int64)), sc=sc, rng=rng)


# ----------------------------------------------------------------- a deadlock
def _deadlock(topology, p, s) -> DeadlockError:
    """The :class:`DeadlockError` of a run that deadlocked, naming the held VCs (with the kernel's
    state in ``.state``)."""
    sc = s.sc[0]
    pend = s.lists.pend[: sc["npend"]]
    chans, detail = _deadlock_report(topology, s, pend)
    err = DeadlockError(int(sc["t"]), chans, detail)
    err.state = dict(vc=s.vc, vo=s.vo, chan=s.chan, msg=s.msg, node=s.node, worms=s.worms,
                     contended=s.lists.con[: sc["ncon"]], pend=pend, scalars=sc, tables=p.rt)
    return err


def _channel_flits(s):
    """The flits that entered each network channel in the window: the kernel's count by messages, and the flits
    that entered VCs whose tails have not (:func:`.kernel.window_flits`)."""
    flits = s.hist.flits.copy()
    if s.sc[0]["phase"] == steps.MEASURE:
        K.window_flits(s.cfg, s.vc, s.vo, s.chan, s.worms, flits, 1)
    return flits[:s.C]


def _buffered(s, b):
    """The flits in VC ``b`` (held): its worm's occupancy planes, or in minus out from its hops' counts."""
    w, j = int(s.vc[b]["worm"]), int(s.vc[b]["hop"])
    if s.cfg.masks:
        return sum(((int(s.worms.pl[w * K.NPL + q]) >> j) & 1) << q for q in range(s.cfg.kb))
    i = w * s.cfg.lw + j + 1
    return int(s.worms.hop[i]["n"]) - int(s.worms.hop[i + 1]["n"])


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
            state = "header waiting" if b in waiting else f"{_buffered(s, b)} flits"
            chans.append(f"{topo.describe_channel(ch)} vc{v} [msg {m} -> {int(s.msg[m]['dest'])}, {state}]")
    sc = s.sc[0]
    detail = (f"{len(waiting)} headers blocked, {int(sc['innet'])} messages in the network, "
              f"no flit moved for {int(sc['idle'])} cycles")
    return chans, detail
