"""The steps both router kernels share, written once and compiled inline into each.

:mod:`.kernel` (the ideal router) and :mod:`.booksim_kernel` (the BookSim preset) import these public
names; nothing here keeps state of its own.  In order of use:

* constants: the status codes a kernel returns, the traffic and message-length kinds, the run's phases,
  an up*/down* message's routing states;
* :data:`CHECKS`: the invariant checks of both kernels (``assert`` statements under ``if CHECKS:``, which
  numba folds away when it is False, the default).  ``MODELS_SIM_CHECKS=1`` in the environment turns them
  on at import; the kernels are then compiled without numba's on-disk cache (:data:`CACHE`), so a checked
  build is never read back by an unchecked run or the other way round;
* the routing tables (:data:`Net`, :func:`pack_net`), the MMPP chains (:data:`Mmpp`) and the measured
  messages' records (:data:`Tags`, :func:`alloc_tags`);
* compiler helpers: :func:`prefetch`, :func:`uidx` (an index as unsigned), :func:`ctz` (lowest set bit),
  :func:`popcount` (set bits); :data:`FASTER_INLINING` and :data:`FASTER_SSA`, numba's inliner and SSA reconstruction
  made faster at import (:mod:`.inlining`, :mod:`.ssa`);
* the routing decode: :func:`allowed` (the routing function, a router's policy given by
  :func:`list_free`), :func:`rotate`, :func:`state_after`;
* traffic: :func:`draw_message` (destination, length, tie bits), :func:`skip`, :func:`arrival`
  (the next node with a new message), :func:`count_new`, :func:`count_delivered`;
* the end of a cycle: :func:`close_cycle` (histogram, deadlock, clock, saturation), :func:`all_measured`.
"""

from __future__ import annotations

import math
import os
from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from .inlining import faster_inlining
from .liveness import faster_liveness
from .routing import KIND_FIXED_ESCAPE, KIND_NBC, KIND_UPDOWN
from .ssa import faster_ssa
from .traffic import ipp_next_arrival, mmpp_next_arrival, rng_exp, rng_int, rng_next, rng_uniform

#: numba's inliner with one copy of a callee's scope per call site, not one per block (:mod:`.inlining`): the
#: kernels, built from the inlined steps below, compile 25 to 45 % faster; the machine code is the same
FASTER_INLINING = faster_inlining()
#: numba's SSA reconstruction rewriting, for each variable it fixes, only the blocks that name it (:mod:`.ssa`): the
#: kernels compile another 23 to 28 % faster; the machine code is the same
FASTER_SSA = faster_ssa()
#: numba's liveness analysis over bit sets, not sets of names (:mod:`.liveness`): the kernels compile another 22 to 25 %
#: faster; the machine code is the same
FASTER_LIVENESS = faster_liveness()

#: The kernels' invariant checks (``if CHECKS: assert ...``), off unless ``MODELS_SIM_CHECKS=1``:
#: numba compiles the constant in, so the checks cost nothing when off.
CHECKS = os.environ.get("MODELS_SIM_CHECKS", "") == "1"
#: The kernels' per-phase cycle counts (``if PROFILE:``, the processor's cycle counter read between the phases
#: of a cycle, summed per phase in the run's scalars and reported in the result's ``work``), off unless
#: ``MODELS_SIM_PROFILE=1``; folded away when off, like :data:`CHECKS`.
PROFILE = os.environ.get("MODELS_SIM_PROFILE", "") == "1"
#: numba's on-disk cache for the kernels: off for a checked or profiled build (the cache key does not see them).
CACHE = not (CHECKS or PROFILE)

# status codes
RUNNING, DONE, DEADLOCK, SATURATED, MAXCYCLES = 0, 1, 2, 3, 4


# traffic and message-length kinds
# (TRAFFIC_IPP: an MMPP(2) with one rate zero, drawn as the renewal process it is, :func:`.traffic.ipp_h2`)
TRAFFIC_POISSON, TRAFFIC_MMPP, TRAFFIC_BERNOULLI, TRAFFIC_IPP = 0, 1, 2, 3
LENGTH_FIXED, LENGTH_GEOMETRIC = 0, 1

# phases of the run
WARMUP, MEASURE = 0, 1

# an up*/down* message's phase (its routing state): adaptive VCs allowed (escape VC never taken), then
# on the escape VCs going up, going down
UD_ADAPTIVE, UD_UP, UD_DOWN = 0, 1, 2


#: the routing tables of :class:`.routing.RoutingTables` for the kernel (read-only): ``route``, one
#: record per (node, destination) pair ``u * N + d`` (:func:`route_dtype`), ``minp`` (N*N*P) its
#: minimal ports, ``chan_up`` (C), ``pchan`` (N*P) the channel of (node, port)
Net = namedtuple("Net", ["route", "minp", "chan_up", "pchan"])


def route_dtype(small):
    """One (node, destination) entry of the routing tables, in the integer type ``small``: number of
    minimal ports, escape port and VC (``KIND_FIXED_ESCAPE``), the dimension of a DOR tie (-1: none)
    with its '-' port and escape VC, the highest Nbc escape level, the up*/down* ports (up, down)."""
    return np.dtype([(f, small) for f in ("nmin", "esc_port", "esc_vc", "tie_dim", "tie_port", "tie_vc",
                                          "nbc_top", "up_port", "down_port")])


def pack_net(rt, chan_of):
    """The kernel's routing tables: the per-(node, destination) entries in one record each, in the
    smallest integer type that holds them (a routing decision then reads one cache line, not six).  Shared by both engines."""
    cols = dict(nmin=rt.nminp, esc_port=rt.escp, esc_vc=rt.escv, tie_dim=rt.tie_dim, tie_port=rt.tie_port,
                tie_vc=rt.tie_escv, nbc_top=rt.nbc_U, up_port=rt.udp[0::2], down_port=rt.udp[1::2])
    lo = min(int(a.min()) for a in cols.values())
    hi = max(max(int(a.max()) for a in cols.values()), int(rt.minp.max()))
    small = np.int8 if -128 <= lo and hi < 128 else np.int32
    route = np.zeros(rt.nminp.size, route_dtype(small))
    for f, a in cols.items():
        route[f] = a
    return Net(route, rt.minp.astype(small), rt.chan_up, chan_of.ravel().astype(np.int32))


#: the MMPP(2) modulating chains, per node: its state (0 or 1), next switch and next arrival time
#: (``tsw``, ``tar``, cycles), and the two states' rates ``rates`` (messages / cycle) and switch
#: rates ``sig`` (``sigma1``, ``sigma2``, per cycle), shared by all nodes; ``due``: scratch, the nodes whose
#: chain has an event in the current cycle and (last entry) how many (:func:`arrival`); ``h2``: an IPP's gaps
#: (:func:`.traffic.ipp_h2`; its nodes have no switch events, ``tsw`` infinite), empty for any other source
Mmpp = namedtuple("Mmpp", ["state", "tsw", "tar", "rates", "sig", "due", "h2"])
#: per measured message (its tag): latency, network latency, source wait (cycles), hops, done flag
Tags = namedtuple("Tags", ["lat", "net", "wait", "hops", "done"])

def alloc_tags(n, old=None):
    """Records of ``n`` measured messages (:data:`Tags`), holding ``old``'s first entries (both engines)."""
    dtypes = (np.int64, np.int64, np.int64, np.int32, np.int8)
    new = Tags(*(np.zeros(n, dt) for dt in dtypes))
    if old is not None:
        for a, b in zip(new, old):
            a[: b.size] = b
    return new


@intrinsic
def prefetch(typingctx, arr, idx):
    """Ask the CPU to fetch the cache line of ``arr[idx]`` (a hint: no effect on results, and an
    index out of range does not fault)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep in all levels, data
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def ctz(typingctx, x):
    """The number of trailing zero bits of ``x`` (an int64 known to be nonzero): the index of its lowest set bit."""
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), "llvm.cttz.i64")
        return builder.call(fn, [context.cast(builder, args[0], signature.args[0], types.int64), ir.IntType(1)(1)])

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of ``x`` (an int64)."""
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, [context.cast(builder, args[0], signature.args[0], types.int64)])

    return sig, codegen


@intrinsic
def clock(typingctx):
    """The processor's cycle counter (``llvm.readcyclecounter``: the TSC on x86), for :data:`PROFILE`."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, []), "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


@intrinsic
def uidx(typingctx, i):
    """Index ``i`` (known to be >= 0) as unsigned, ``np.uint64(i)``: numba then emits no negative-index
    wraparound.  An intrinsic rather than an inlined function: the kernels call it hundreds of times,
    and each numba-level inlining costs compile time (each copies the IR of the caller's scope)."""
    sig = types.uint64(i)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return sig, codegen


@njit(cache=CACHE, inline="always")
def rotate(jj, start, n, back=0):
    """Index ``jj`` of the turn of ``0..n-1`` that starts at ``start`` and goes forwards, or backwards
    when ``back`` (``start, start - 1, ...``): over the ``2n`` turns every two indices come in each order
    equally often (the rotations alone put 0 before 1 in two of three turns when ``n = 3``)."""
    j = start - jj if back else start + jj
    if j >= n:
        return j - n
    return j + n if j < 0 else j


# ----------------------------------------------------------------- routing decode

def is_free(free, b):
    """Whether VC ``b`` is free: ``free`` is the ideal router's :data:`VCO` records (no owner) or
    BookSim's in-use flags (not in use); compiled for each (:func:`is_free_for`)."""


@overload(is_free)  # not inline="always": LLVM inlines the one-line body anyway, numba's inlining costs compile time
def is_free_for(free, b):
    if isinstance(free.dtype, types.Record):
        return lambda free, b: free[b].owner < 0
    return lambda free, b: free[b] == 0


@njit(cache=CACHE, inline="always")
def list_free(out, n, base, lo, hi, free, first):
    """A router's policy on one allowed range, VCs ``base + lo .. base + hi - 1``: the free ones are
    listed in ``out`` from ``n`` on, every one (BookSim: a request each) or, with ``first``, the first
    only (the ideal router takes it).  Returns the new count."""
    for b in range(base + lo, base + hi):
        if is_free(free, b):
            out[n] = b
            n += 1
            if first:
                return n
    return n


@njit(cache=CACHE, inline="always")
def allowed(u, d, f, tie, spin, cfg, route, minp, pchan, vbase, ej, free, out, first):
    """The routing function: the free VCs it allows a header at node ``u`` bound for ``d``, in the order
    of preference, listed in ``out`` (returns their number) by the router's policy (:func:`list_free`):
    all of them (BookSim's requests, :func:`.booksim_kernel._vc_allocation`) or, with ``first``, the
    first (the ideal router's grant, :func:`_route`).

    ``f`` is the message's routing state (Nbc: its floor level; up*/down*: ``UD_*``), ``tie`` its
    DOR tie bits (one per dimension, 1: '-'), ``spin`` turns the order of the minimal ports (the
    ideal router tries them from ``spin % npt``, backwards when ``spin // npt`` is odd, :func:`rotate`: a fair
    order, each port before each other in half of the turns; 0 for BookSim, which requests them all).  ``route``,
    ``minp``, ``pchan`` are the arrays of :data:`Net`, ``vbase`` each channel's first VC, ``ej`` the
    node's ejection channel (``cfg.vej`` VCs), ``free`` the VCs' state (:func:`is_free`).  Order
    (:mod:`.routing`): the adaptive class on each minimal port (``dor``: the one DOR port, '-' on a
    tie drawn '-'), then the escape class (the escape VC, or BookSim's dateline half of the VCs when
    ``cfg.half``; up*/down*: VC 0 on the up or down port; Nbc: levels ``f .. U`` on each minimal
    port)."""
    if u == d:
        return list_free(out, 0, vbase[ej], 0, cfg.vej, free, first)
    P = cfg.p
    V = cfg.v
    a0 = cfg.a0
    idx = u * cfg.n + d
    rt = route[idx]
    npt = np.int64(rt.nmin)
    start = spin % npt if npt > 1 else 0
    back = (spin // npt) & 1 if npt > 1 else 0
    n = 0
    if cfg.routing == KIND_UPDOWN:
        if f == UD_ADAPTIVE:  # adaptive VCs while the escape VC has never been taken
            for jj in range(npt):
                base = vbase[pchan[u * P + minp[idx * P + rotate(jj, start, npt, back)]]]
                n = list_free(out, n, base, a0, V, free, first)
                if first and n:
                    return n
        base = vbase[pchan[u * P + (rt.down_port if f == UD_DOWN else rt.up_port)]]
        return list_free(out, n, base, 0, 1, free, first)
    # a DOR tie (offset k/2) broken towards '-' for this message and dimension
    td = np.int64(rt.tie_dim)
    minus = td >= 0 and ((tie >> td) & 1) == 1
    for jj in range(npt):  # the adaptive class (dor: the single DOR port)
        p = minp[idx * P + rotate(jj, start, npt, back)]
        if minus and npt == 1:  # dor: the adaptive class follows the DOR path
            p = rt.tie_port
        n = list_free(out, n, vbase[pchan[u * P + p]], a0, V, free, first)
        if first and n:
            return n
    if cfg.routing == KIND_FIXED_ESCAPE:
        if cfg.has_esc:
            if minus:
                port = np.int64(rt.tie_port)
                cls = np.int64(rt.tie_vc)
            else:
                port = np.int64(rt.esc_port)
                cls = np.int64(rt.esc_vc)
            half = cfg.half  # BookSim's dim_order_torus: the dateline class is half of the VCs
            lo = cls * half if half > 0 else cls
            n = list_free(out, n, vbase[pchan[u * P + port]], lo, lo + max(half, 1), free, first)
        return n
    # KIND_NBC: escape levels f..U on any minimal port
    for lv in range(f, np.int64(rt.nbc_top) + 1):
        for jj in range(npt):
            base = vbase[pchan[u * P + minp[idx * P + rotate(jj, start, npt, back)]]]
            n = list_free(out, n, base, lv, lv + 1, free, first)
            if first and n:
                return n
    return n


@njit(cache=CACHE, inline="always")
def state_after(cfg, f, vi, label, up):
    """A message's routing state after its header took VC index ``vi`` of a network channel, from
    state ``f``: Nbc, the new floor (an escape level ``vi < V2``: ``vi`` plus the colour ``label`` of
    the node left; an adaptive VC: ``f`` plus it); up*/down*, the escape VC 0 starts the up or down
    phase (``up``: the channel goes up); else unchanged."""
    if cfg.routing == KIND_NBC:
        return vi + label if vi < cfg.escape_levels else f + label
    if cfg.routing == KIND_UPDOWN and vi == 0:
        return UD_UP if up else UD_DOWN
    return f


@njit(cache=CACHE, inline="always")
def draw_message(u, rng, cfg):
    """Destination, length and DOR tie bits of a message generated at node ``u``, drawn from the run's
    stream in this order: ``(d, M, tie)``."""
    N = cfg.n
    if cfg.self_traffic:
        d = rng_int(rng, N)  # uniform over all N nodes, the source included
    else:
        d = rng_int(rng, N - 1)
        if d >= u:
            d += 1
    if cfg.length == LENGTH_FIXED:
        M = cfg.M
    else:
        p = cfg.geop
        if p >= 1.0:
            M = 1
        else:
            M = 1 + np.int64(math.floor(math.log(1.0 - rng_uniform(rng)) / math.log(1.0 - p)))
    tie = np.int64(rng_next(rng) >> np.uint64(33)) if cfg.tie else 0  # one bit per dimension
    return d, M, tie


@njit(cache=CACHE, inline="always")
def count_new(sc, tagcap, tagging):
    """Count a generated message (in the system, and in the window while measuring); its tag, or -1
    when it is not measured (warm-up, ``tagging`` off, or the ``tagcap`` tags used up)."""
    sc.insys += 1
    sc.gen += 1
    if sc.phase == MEASURE:
        sc.gen_w += 1
        if tagging and sc.ntag < tagcap:
            tg = sc.ntag
            sc.ntag += 1
            return tg
    return -1


@njit(cache=CACHE, inline="always")
def count_delivered(sc, measuring):
    """Count a delivered message: out of the system and the network (and in the window while
    ``measuring``)."""
    sc.insys -= 1
    sc.innet -= 1
    sc.deliv += 1
    if measuring:
        sc.deliv_w += 1


@njit(cache=CACHE, inline="always")
def skip(rng, p):
    """The nodes without a message before the next one with, each with probability ``p`` (a Bernoulli
    source): ``floor(log(1 - U) / log(1 - p))``, geometric on ``{0, 1, ...}`` with ``P(j) = (1 - p)^j p``; 0
    when ``p = 1``."""
    if p >= 1.0:
        return 0
    return np.int64(math.floor(math.log(1.0 - rng_uniform(rng)) / math.log(1.0 - p)))


@njit(cache=CACHE, inline="always")
def arrival(t, k, rng, cfg, sc, mm):
    """Generation, one message at a time: the node of the next message generated in cycle ``t`` and the
    cursor after it, ``(u, k)`` (``u = -1``: none left); call with ``k = 0`` first, then with the cursor
    returned, until ``u = -1``.  Poisson: the superposition of the nodes' processes, each arrival at a uniform node (the
    next arrival time is drawn once the previous message has been drawn); Bernoulli (BookSim's
    ``injection_process = bernoulli``): each node generates one message in a cycle with probability ``rate``,
    independently, the nodes with a message found by geometric skips from the cursor ``k`` (:func:`skip`);
    MMPP: node by node, each chain advanced to its next arrival; only the nodes whose chain has an event in the
    cycle are visited (listed in ``mm.due`` at the first call, in node order: the others' chains would not move),
    so the same draws come in the same order as from a visit of every node (``k - 1`` the position in the list).
    IPP (``TRAFFIC_IPP``): the same, each node's arrivals drawn as the gaps of its renewal process
    (:func:`.traffic.ipp_next_arrival`: no switch events to visit)."""
    if cfg.traffic == TRAFFIC_BERNOULLI:
        u = k + skip(rng, cfg.rate)
        if u < cfg.n:
            return u, u + 1
        return -1, cfg.n
    if cfg.traffic == TRAFFIC_POISSON:
        if k > 0:
            sc.nextarr += rng_exp(rng) / (cfg.rate * cfg.n)
        if sc.nextarr < t + 1.0:
            return rng_int(rng, cfg.n), 1
        return -1, k
    te = t + 1.0
    due = mm.due
    n = cfg.n
    if k == 0:  # the cycle's first call: the nodes whose chain has an event (a switch or an arrival) before t + 1
        tsw = mm.tsw
        tar = mm.tar
        nd = 0
        for v in range(n):  # branch-free: at some rates about half the nodes have one, at random
            due[uidx(nd)] = v
            nd += (tar[uidx(v)] < te) | (tsw[uidx(v)] < te)
        due[n] = nd
        k = 1
    nd = due[n]
    i = k - 1  # cursor k: position k - 1 of the list (its node may have another arrival)
    while i < nd:
        u = due[uidx(i)]
        if cfg.traffic == TRAFFIC_IPP:
            hit = ipp_next_arrival(rng, u, te, mm.h2, mm.tar)
        else:
            hit = mmpp_next_arrival(rng, u, te, mm.rates, mm.sig, mm.state, mm.tsw, mm.tar)
        if hit:
            return u, i + 1
        i += 1
    return -1, i + 1


@njit(cache=CACHE, inline="always")
def close_cycle(t, moved, opens, sc, cfg, nch, hist_acc):
    """The end of cycle ``t``: the busy-VC histogram integrated over the window, which opens after the
    cycle in which ``opens`` (the warm-up is over) first holds; the idle count (a deadlock after
    ``cfg.dlthresh`` cycles in which no flit ``moved`` while messages are in the network); the clock;
    the saturation backlog.  DEADLOCK, SATURATED, or RUNNING."""
    if sc.phase == MEASURE:
        for v in range(nch.size):
            hist_acc[uidx(v)] += nch[uidx(v)]
        sc.cyc_w += 1
    elif opens:
        sc.phase = MEASURE
        sc.insys_w0 = sc.insys
    if moved or sc.innet == 0:
        sc.idle = 0
    else:
        sc.idle += 1
        if sc.idle > cfg.dlthresh:
            return DEADLOCK
    sc.t = t + 1
    if sc.insys > cfg.satlim:
        return SATURATED
    return RUNNING


@njit(cache=CACHE, inline="always")
def all_measured(sc, tg_done):
    """Advance ``sc.prefix`` over the measured messages delivered, in generation order; True once the
    wrapper's ``sc.target`` of them are."""
    p = sc.prefix
    nt = sc.ntag
    while p < nt and tg_done[uidx(p)] != 0:
        p += 1
    sc.prefix = p
    return p >= sc.target


