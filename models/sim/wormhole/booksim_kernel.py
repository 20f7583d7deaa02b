"""The numba engine of ``router="booksim"``: BookSim 2's input-queued (``iq``) router, cycle by cycle.

The semantics, with the BookSim source each one follows, are listed in
:mod:`.booksim`; this module is the cycle loop over named state.

State (allocated by :func:`.booksim._setup`)
--------------------------------------------
Indices follow :mod:`.kernel`: channels ``0..C-1`` network, ``C..C+N-1``
injection, ``C+N..C+2N-1`` ejection; channel ``ch`` owns VCs ``chans.base[ch] ..``.
A VC index ``b`` names both the flit buffer at the channel's downstream router
(input side: its ring in ``vcs.buf``, its state ``ST`` ...) and the upstream view
of that buffer (output side: credits in use, ``vcs.inuse`` allocated).  The
state is a handful of named tuples of arrays, grouped by what they describe,
and one record of scalars:

``cfg``     (:data:`Config`) the run's parameters (read-only scalars).
``net``     (:data:`Net`) the routing tables: :func:`.kernel.pack_net`'s records and the Nbc node colours.
``chans``   (:data:`Chans`) static per-channel tables (first VC, end nodes, output port) and each
    node's injection and ejection channel.
``vcs``     (:data:`Vcs`) per VC.  Everything switch allocation and the credit loop read about a
    VC sits in its 64-byte row of ``vcs.vs`` (int32 fields at the offsets ``VS_*``: a cache line,
    not a record, see below).  A VC's credit count lives in the row of the input VC that holds it
    as its output (``OCCO``) for as long as it is held, and in its own row (``OCC``) otherwise: a
    flit sent, and the credit that comes back for it, then touch only the sender's row.  Beside
    the rows: the flit rings ``buf`` (``B`` flits per VC), ``inuse`` (allocated to a message:
    dense, for the routing function's scans) and ``tsent`` (its tail sent, waiting for the
    tail's credit: ``wait_for_tail_credit``).
``va``      (:data:`VcAlloc`) the VC allocator: the routed headers waiting for a VC (``pend``,
    flagged in ``onlist``), iSLIP pointers and ranks of the input / output VCs, and its scratch.
``sw``      (:data:`SwAlloc`) the switch allocator: the switch list (records :data:`CAND`: every
    active VC with a flit at its front and a credit, with what allocation reads from its row),
    per channel its iSLIP pointers in the records ``chin`` (:data:`CH_IN`, by input channel) and
    ``chout`` (:data:`CH_OUT`, by output channel) and its requests this cycle, and its scratch.
``sources`` (:data:`Sources`) per node: the FIFO source queue (threaded through ``msg.next``),
    the message being written into the injection channel and BookSim's ``_last_vc``; the nodes
    with a newly queued message (``qlist``) and the active sources (``act``).
``msg``     (:data:`Msgs`) per message slot (``next`` threads the free list and the source queues).
``ev``      (:data:`Events`) the event ring, :data:`NSLOT` slots of flits entering a buffer or a
    terminal and of credits.
``tags``    (:data:`.kernel.Tags`) per measured message: latency, network latency, source wait,
    hops, done flag.
``hist``    (:data:`Hist`) network channels by number of busy VCs, its time integral, busy VCs
    per channel.
``batches`` (:data:`Batches`) messages delivered and flits ejected per batch (throughput mode).
``mm``      (:data:`.kernel.Mmpp`) the MMPP(2) modulating chains of the nodes.
``sc``      one record (:data:`SCALARS`): the clock, counters, accumulators and the two
    parameters the wrapper moves between calls (``chunk_end``, ``target``).

The kernel unpacks these groups into local names once per call and, like
:mod:`.kernel`, is compiled without numba's reference counting (``_nrt=False``).

One cycle ``t``:

A. events due at ``t``: credits (credits in use ``- 1``; with ``wait_for_tail_credit``
   the tail's credit frees the VC; the input VC holding the credited VC is
   put back on the switch list if it slept for lack of a credit), flits entering an input
   buffer (a head at an idle VC starts routing: VC allocation from ``t + 1``;
   the front flit of an active VC may be switch-allocated at ``t``), flits
   reaching a terminal (a tail completes its message);
B. generation into the source queues;
C. injection: each source writes at most one flit of its current message into
   its injection channel (arrival at the router at ``t + 2``);
D. VC allocation: iSLIP, one iteration, over (input VC, output VC) requests;
   a winner becomes active and may bid for the switch from ``t + 1``;
E. switch allocation: per input port one request per output port (the VC
   first in round-robin order from the port's offset), then iSLIP, one
   iteration, over (input port, output port); a winner's flit leaves its
   buffer (credit upstream at ``t + 2``), enters the next buffer at ``t + 3``
   (a terminal at ``t + 3``; its credit returns at ``t + 5``);
F. bookkeeping.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

# the status codes, phases and traffic / length kinds of the ideal engine (the wrapper reads them here too)
from .kernel import (DEADLOCK, DONE, LENGTH_FIXED, LENGTH_GEOMETRIC, MAXCYCLES, MEASURE, RUNNING,  # noqa: F401
                     SATURATED, TRAFFIC_POISSON, WARMUP, Mmpp, Tags, _prefetch)
from .routing import KIND_FIXED_ESCAPE, KIND_NBC, KIND_UPDOWN
from .traffic import mmpp_next_arrival, rng_exp, rng_int, rng_next, rng_uniform

NSLOT = 8  # event ring (largest delay is 5 cycles)

# run modes: until ``target`` measured messages are delivered (:func:`.booksim.simulate_booksim`), or a
# fixed window of ``runcyc`` cycles counted in ``nbatch`` batches (:func:`.booksim.run_booksim_cycles`)
RUN_MESSAGES, RUN_CYCLES = 0, 1

# a VC's state as a buffer (its ``VS_ST``): idle, its front header routing / in VC allocation, active
# (holding an output VC until its tail is sent)
ST_IDLE, ST_ROUTING, ST_ACTIVE = 0, 1, 2

# an up*/down* message's phase (``msg.state``): adaptive VCs allowed (escape VC never taken), then on
# the escape VCs going up, going down
UD_ADAPTIVE, UD_UP, UD_DOWN = 0, 1, 2

_i4, _i8, _f8 = np.int32, np.int64, np.float64

# per-VC state: one 64-byte row of ``vcs.vs`` (int32) per VC (a cache line: the wrapper aligns ``vs``),
# so that everything a flit's path reads about a VC is in its own row (cycle numbers fit: the
# wrapper keeps max_cycles below 2**31 - 16).  Input side (the VC as a buffer): ST state (ST_*),
# HEAD / CNT its flit ring, FROM the first cycle its routed header may request a VC, OUT the output VC it holds
# while active, OCCO the credits in use of OUT (kept here, not in OUT's row, while it holds OUT),
# OUTCH / OUTPORT OUT's channel and output port; static: CHAN, IDX (index in the channel), INPORT
# (input port of CHAN).  Output side (the VC as seen from upstream): OCC credits in use while no
# input VC holds it, OWN the input VC holding it (-1: none), NMSG the messages holding it (granted
# it and their tail not yet out of its buffer; more than one when a message follows a tail into the
# buffer: the VC-busy histogram).  Field offsets into an int32 array rather than a structured dtype:
# the loop computes one row offset ``b * NVS`` and indexes from it.
(VS_ST, VS_HEAD, VS_CNT, VS_FROM, VS_OUT, VS_OCC, VS_CHAN, VS_OWN, VS_OCCO, VS_OUTCH, VS_OUTPORT,
 VS_IDX, VS_INPORT, VS_NMSG) = range(14)
NVS = 16
#: per channel, its input side in switch allocation: iSLIP accept pointer ``a``, VC round-robin offset
#: ``rr`` (small integers: the records of a whole network fit in the L1 cache)
CH_IN = np.dtype([("a", np.int16), ("rr", np.int16)], align=True)
#: per channel, its output side: iSLIP grant pointer, flits sent in the window
CH_OUT = np.dtype([("g", np.int16), ("flits", _i4)], align=True)

#: the run's mutable scalars: the clock and phase; messages delivered, tagged, in the system / network,
#: completed tags in order (``prefix``); cycles without a flit moving (``idle``); flit hops; network
#: flits, deliveries, generations and cycles in the window; the free list's head; entries of the
#: new-queue list, VC-allocation, switch and source lists; generated messages; messages in the system
#: when the window opened; allocator requests; the wrapper's ``target`` and ``chunk_end``; the next
#: Poisson arrival; the time integral of the messages in the network over the window
SCALARS = np.dtype([
    ("t", _i8), ("phase", _i8), ("deliv", _i8), ("ntag", _i8), ("prefix", _i8), ("insys", _i8),
    ("innet", _i8), ("idle", _i8), ("flithops", _i8), ("netflits_w", _i8), ("deliv_w", _i8), ("gen_w", _i8),
    ("cyc_w", _i8), ("free", _i8), ("nq", _i8), ("nvca", _i8), ("nsw", _i8), ("nsrc", _i8), ("gen", _i8),
    ("insys_w0", _i8), ("va_requests", _i8), ("sw_requests", _i8), ("target", _i8), ("chunk_end", _i8),
    ("nextarr", _f8), ("innet_acc", _f8),
], align=True)

#: the run's parameters (read-only scalars): nodes, ports per router, VCs per network / injection
#: port, buffer depth; routing kind (``KIND_*``), first adaptive VC, escape class present, escape
#: levels (Nbc), BookSim's dateline half (``dor`` on a torus: ``v // 2``, else 0); traffic
#: (``TRAFFIC_*``), length (``LENGTH_*``), fixed / mean length and the geometric ``p``, offered load
#: per node; warm-up messages, max cycles, saturation backlog, deadlock threshold; network channels
#: ``nchan``; random DOR ties, self traffic; VCs of the widest port ``w`` and of an ejection port
#: ``vej``; ``wait_for_tail_credit``; run mode (``RUN_*``) with its warm-up, window and batches
Config = namedtuple("Config", [
    "n", "p", "v", "b", "routing", "a0", "has_esc", "escape_levels", "half", "traffic", "length", "m",
    "geop", "rate", "warmup", "maxcyc", "satlim", "dlthresh", "nchan", "tie", "self_traffic", "w", "vej",
    "wtc", "mode", "warmcyc", "runcyc", "nbatch",
])
#: the routing tables (read-only): ``route``, ``minp``, ``chan_up``, ``pchan`` as in :data:`.kernel.Net`,
#: and ``label`` (N) the node colours of Nbc
Net = namedtuple("Net", ["route", "minp", "chan_up", "pchan", "label"])
#: static tables (read-only): per channel its first VC ``base`` (NCH), end nodes ``src`` / ``dst`` and
#: output port at ``src`` (``outport``, ``P`` for an ejection channel); per node its injection and
#: ejection channel (``inj``, ``ej``)
Chans = namedtuple("Chans", ["base", "src", "dst", "outport", "inj", "ej"])
#: per VC: the rows ``vs`` (``NVS`` int32 each, fields ``VS_*``), flit rings ``buf`` (``B`` per VC, a
#: flit ``2 m + tail``), ``inuse`` (allocated), ``tsent`` (tail sent, its credit not back yet)
Vcs = namedtuple("Vcs", ["vs", "buf", "inuse", "tsent"])
#: the VC allocator: headers waiting for a VC (``pend``, ``onlist``); per VC its iSLIP rank as an input
#: (``li``: input port * W + VC index) and as an output (``lo``), grant pointer ``g`` (as an output),
#: accept pointer ``a`` (as an input); scratch: requests ``req_b`` -> ``req_o``, one header's requests
#: ``rq``, the best grant per output (``g_key``, ``g_in``, ``g_touch``) and accept per input (``a_key``,
#: ``a_o``, ``a_touch``)
VcAlloc = namedtuple("VcAlloc", ["pend", "onlist", "li", "lo", "g", "a", "req_b", "req_o", "rq", "g_key",
                                 "g_in", "g_touch", "a_key", "a_o", "a_touch"])
#: the switch allocator: the switch list ``cand`` (:data:`CAND` records: the candidates of the next
#: switch allocation; a VC on it, or in ``new``, the VCs given an output VC in this cycle, has
#: ``onlist`` set), per channel ``chin`` / ``chout`` and this cycle's requests per input / output
#: channel ``in_n`` / ``out_n`` (0, 1, or 2 for more; a byte each, so that they stay in the L1 cache);
#: scratch: the best VC per (input channel, output port) ``p_key`` / ``p_touch``, per output / input
#: channel its grant / accept ``og`` / ``ia`` (packed records, -1: none) and the channels with one
#: (``og_touch``, ``ia_touch``), and the winners ``gl`` (candidate numbers)
SwAlloc = namedtuple("SwAlloc", ["new", "onlist", "cand", "chin", "chout", "in_n", "out_n", "og", "ia", "p_key",
                                 "p_touch", "og_touch", "ia_touch", "gl"])
#: one switch-allocation candidate (32 bytes): the input VC ``b``, its output VC ``o``, input / output
#: channels and ports, the VC's index in its channel (copied from the VC's row once, so that the
#: arbitration and the grants read one record per candidate, through one array)
CAND = np.dtype({"names": ["b", "o", "ich", "och", "ip", "op", "vi"], "formats": [_i4] * 7,
                 "offsets": [0, 4, 8, 12, 16, 20, 24], "itemsize": 32})
#: per node: source queue (``qhead``, ``qtail``, ``qlen``; ``inq`` on ``qlist``, the nodes with a new
#: message this cycle), active sources (``act``, ``onact``), the message being written (``cur_m``, -1:
#: none), its next flit ``cur_k`` and injection VC ``cur_vc``, the last injection VC used ``last_vc``
Sources = namedtuple("Sources", ["qhead", "qtail", "qlen", "inq", "qlist", "act", "onact", "cur_m", "cur_k",
                                 "cur_vc", "last_vc"])
#: per message slot: destination, length, generation and injection cycles, hops, tag (-1: not
#: measured), routing state (Nbc level / up*/down* phase ``UD_*``), next in its list, tie bits
Msgs = namedtuple("Msgs", ["dest", "len", "tgen", "tinj", "hops", "tag", "state", "next", "tie"])
#: the event ring, ``NSLOT * NCH`` entries per kind: flits ``(fl << 32) | b`` (``flit``, counts
#: ``nflit`` per slot), credits ``(holder + 1) << 32 | b`` (``credit``, ``ncredit``)
Events = namedtuple("Events", ["flit", "nflit", "credit", "ncredit"])
#: network channels by number of busy VCs ``nch`` (V + 1), its time integral ``acc``, busy VCs per
#: channel ``nbusy``
Hist = namedtuple("Hist", ["nch", "acc", "nbusy"])
#: per batch of the throughput window: messages delivered, flits ejected
Batches = namedtuple("Batches", ["msgs", "flits"])


@njit(cache=True, _nrt=False)
def _gen(u, t, rng, cfg, sc, msg, sources, tagcap):
    """A message generated at node ``u`` in cycle ``t`` joins the source queue (False: no slot)."""
    m = sc.free
    if m < 0:
        return False
    m_next = msg.next
    sc.free = m_next[m]
    N = cfg.n
    if cfg.self_traffic:
        d = rng_int(rng, N)
    else:
        d = rng_int(rng, N - 1)
        if d >= u:
            d += 1
    if cfg.length == LENGTH_FIXED:
        L = cfg.m
    else:
        p = cfg.geop
        if p >= 1.0:
            L = 1
        else:
            L = 1 + np.int64(math.floor(math.log(1.0 - rng_uniform(rng)) / math.log(1.0 - p)))
    msg.dest[m] = d
    msg.len[m] = L
    msg.tgen[m] = t
    msg.hops[m] = 0
    msg.state[m] = 0
    m_next[m] = -1
    if cfg.tie:
        msg.tie[m] = np.int64(rng_next(rng) >> np.uint64(33))
    else:
        msg.tie[m] = 0
    if sc.phase == MEASURE and cfg.mode == RUN_MESSAGES and sc.ntag < tagcap:
        msg.tag[m] = sc.ntag
        sc.ntag += 1
    else:
        msg.tag[m] = -1
    q = sources
    if q.qlen[u] == 0:
        q.qhead[u] = m
        if q.inq[u] == 0:
            q.inq[u] = 1
            q.qlist[sc.nq] = u
            sc.nq += 1
    else:
        m_next[q.qtail[u]] = m
    q.qtail[u] = m
    q.qlen[u] += 1
    sc.insys += 1
    sc.gen += 1
    if sc.phase == MEASURE:
        sc.gen_w += 1
    return True


@njit(cache=True, inline="always")
def _u(i):
    """``i`` as an unsigned index: numba then emits no negative-index wraparound test (every
    index of the cycle loop is non-negative)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def _hold(b, d, vs, injb, c_nbusy, nch):
    """``d = +1``: a message takes VC ``b`` (header granted); ``-1``: its tail left ``b``'s buffer.
    A VC is busy while it holds a message (the ideal router's definition); network VCs are
    ``b < injb``."""
    r = _u(b * NVS)
    n = vs[r + VS_NMSG]
    vs[r + VS_NMSG] = n + d
    if b < injb and (n == 0) != (n + d == 0):
        ch = vs[r + VS_CHAN]
        k = c_nbusy[ch]
        nch[k] -= 1
        k += d
        c_nbusy[ch] = k
        nch[k] += 1


@njit(cache=True, inline="always")
def _requests(m, u, out, cfg, net, c_base, n_ej, inuse, msg):
    """Free output VCs the routing function allows the header of ``m`` at node ``u`` (count).
    ``net.route`` / ``net.minp``: the routing tables packed as for the ideal router (one record per
    (node, destination) pair, :func:`.kernel.route_dtype`), so that a request reads two cache lines."""
    n = 0
    d = msg.dest[m]
    if u == d:
        base = c_base[n_ej[u]]
        for v in range(cfg.vej):
            if inuse[base + v] == 0:
                out[n] = base + v
                n += 1
        return n
    N = cfg.n
    P = cfg.p
    V = cfg.v
    a0 = cfg.a0
    kind = cfg.routing
    minp = net.minp
    pchan = net.pchan
    idx = u * N + d
    rt = net.route[idx]
    npt = np.int64(rt.nmin)
    if kind == KIND_UPDOWN:
        ph = msg.state[m]
        if ph == UD_ADAPTIVE:
            for j in range(npt):
                base = c_base[pchan[u * P + minp[idx * P + j]]]
                for v in range(a0, V):
                    if inuse[base + v] == 0:
                        out[n] = base + v
                        n += 1
        vc = c_base[pchan[u * P + (rt.down_port if ph == UD_DOWN else rt.up_port)]]
        if inuse[vc] == 0:
            out[n] = vc
            n += 1
        return n
    td = np.int64(rt.tie_dim)
    minus = td >= 0 and ((msg.tie[m] >> td) & 1) == 1
    for j in range(npt):
        p = minp[idx * P + j]
        if minus and npt == 1:
            p = rt.tie_port
        base = c_base[pchan[u * P + p]]
        for v in range(a0, V):
            if inuse[base + v] == 0:
                out[n] = base + v
                n += 1
    if kind == KIND_FIXED_ESCAPE:
        if cfg.has_esc:
            if minus:
                base = c_base[pchan[u * P + rt.tie_port]]
                cls = np.int64(rt.tie_vc)
            else:
                base = c_base[pchan[u * P + rt.esc_port]]
                cls = np.int64(rt.esc_vc)
            half = cfg.half
            if half > 0:  # BookSim's dim_order_torus: dateline class = half of the VCs
                for v in range(cls * half, cls * half + half):
                    if inuse[base + v] == 0:
                        out[n] = base + v
                        n += 1
            elif inuse[base + cls] == 0:
                out[n] = base + cls
                n += 1
        return n
    # KIND_NBC: escape levels f..U on any minimal port
    f = msg.state[m]
    U = np.int64(rt.nbc_top)
    for lv in range(f, U + 1):
        for j in range(npt):
            vc = c_base[pchan[u * P + minp[idx * P + j]]] + lv
            if inuse[vc] == 0:
                out[n] = vc
                n += 1
    return n


@njit(cache=True, inline="always")
def _sw_add(b, n, vs, cand):
    """Put VC ``b`` (active, a flit at its front, a credit) as entry ``n`` on the switch list
    ``cand``, with what switch allocation needs from its row (returns ``n + 1``)."""
    r = b * NVS
    cd = cand[_u(n)]
    cd.b = b
    cd.o = vs[_u(r + VS_OUT)]
    cd.ich = vs[_u(r + VS_CHAN)]
    cd.och = vs[_u(r + VS_OUTCH)]
    cd.ip = vs[_u(r + VS_INPORT)]
    cd.op = vs[_u(r + VS_OUTPORT)]
    cd.vi = vs[_u(r + VS_IDX)]
    return n + 1


@njit(cache=True, boundscheck=False, _nrt=False)
def run(cfg, net, chans, vcs, va, sw, sources, msg, ev, tags, hist, batches, mm, sc_arr, rng):
    """Advance the simulation until a stop condition; returns a status code.

    Representation: a flit is ``fl = 2 m + tail`` (message slot, tail bit); a
    flit event is ``(fl << 32) | b`` (the VC it enters).  The work-list
    counters live in local variables during the call.  ``va.pend`` is
    compacted while it is scanned (an entry stays on it, flagged by
    ``va.onlist``, until a scan finds its VC no longer waiting for VC
    allocation).  The switch list ``sw.cand`` holds exactly the VCs that bid
    for the switch: a VC joins it when it gets a flit at its front and a
    credit (a flit reaching its empty buffer, a credit, or VC allocation in
    the cycle before), and a grant that leaves it without either takes it
    off; so switch allocation reads no VC row to find its candidates.  The
    allocators' outcomes do not depend on the order of these lists (every
    arbitration key is distinct), so neither do the results.

    Every array index in the loop is written ``a[_u(i)]`` (unsigned): numba emits a
    negative-index wraparound test (shift, mask, add) for every signed index, and the loop's
    indices are never negative; without these tests the loop runs about a quarter faster.
    The switch allocator's candidates keep their output VC, input / output channels, ports and
    VC index in the records ``cand``, so that the arbitration reads no VC row (a grant reads and
    writes the winner's).  Everything per VC that the loop reads or writes on a flit's path is in the VC's row of
    ``vs``: with fewer arrays, the compiled loop keeps more of their addresses in registers.
    """
    sc = sc_arr[0]
    # named state into local names, once per call
    route = net.route
    minp = net.minp
    chan_up = net.chan_up
    label = net.label
    c_base = chans.base
    c_src = chans.src
    c_dst = chans.dst
    c_outport = chans.outport
    n_inj = chans.inj
    n_ej = chans.ej
    vs = vcs.vs
    bq_f = vcs.buf
    inuse = vcs.inuse
    tsent = vcs.tsent
    vca_list = va.pend
    in_vca = va.onlist
    v_li = va.li
    v_lo = va.lo
    va_g = va.g
    va_a = va.a
    req_b = va.req_b
    req_o = va.req_o
    rq_tmp = va.rq
    g_key = va.g_key
    g_in = va.g_in
    g_touch = va.g_touch
    a_key = va.a_key
    a_o = va.a_o
    a_touch = va.a_touch
    sw_new = sw.new
    in_sw = sw.onlist
    chin = sw.chin
    in_n = sw.in_n
    out_n = sw.out_n
    og = sw.og
    ia = sw.ia
    chout = sw.chout
    p_key = sw.p_key
    p_touch = sw.p_touch
    og_touch = sw.og_touch
    ia_touch = sw.ia_touch
    cand = sw.cand
    gl = sw.gl
    qhead = sources.qhead
    qlen = sources.qlen
    q_inlist = sources.inq
    qlist = sources.qlist
    src_list = sources.act
    in_src = sources.onact
    cur_m = sources.cur_m
    cur_k = sources.cur_k
    cur_vc = sources.cur_vc
    last_vc = sources.last_vc
    m_dest = msg.dest
    m_len = msg.len
    m_tgen = msg.tgen
    m_tinj = msg.tinj
    m_hops = msg.hops
    m_tag = msg.tag
    m_state = msg.state
    m_next = msg.next
    ev_f = ev.flit
    ev_fn = ev.nflit
    ev_cb = ev.credit
    ev_cn = ev.ncredit
    tg_lat = tags.lat
    tg_net = tags.net
    tg_wait = tags.wait
    tg_hops = tags.hops
    tg_done = tags.done
    nch = hist.nch
    hist_acc = hist.acc
    c_nbusy = hist.nbusy
    bt_msgs = batches.msgs
    bt_flits = batches.flits
    mm_state = mm.state
    mm_tsw = mm.tsw
    mm_tar = mm.tar
    mm_rates = mm.rates
    mm_sig = mm.sig
    N = cfg.n
    P = cfg.p
    V = cfg.v
    B = cfg.b
    kind = cfg.routing
    V2 = cfg.escape_levels
    traffic = cfg.traffic
    warmup = cfg.warmup
    maxcyc = cfg.maxcyc
    satlim = cfg.satlim
    dlthresh = cfg.dlthresh
    C = cfg.nchan
    W = cfg.w
    mode = cfg.mode
    warmcyc = cfg.warmcyc
    runcyc = cfg.runcyc
    nbatch = cfg.nbatch
    wtc = cfg.wtc != 0
    target = sc.target
    chunk_end = sc.chunk_end
    blen = runcyc // nbatch if nbatch > 0 else 1
    NPORT = P + 1
    NI = NPORT * W
    NCH = c_base.size
    injb = c_base[C]  # VCs < injb: network; >= ejb: ejection
    ejb = c_base[_u(C + N)]
    tagcap = tg_lat.size
    lamN = cfg.rate * N
    MASK = np.int64(0xFFFFFFFF)
    nvca = sc.nvca
    nsw = sc.nsw
    nsrc = sc.nsrc
    flithops = sc.flithops
    netw = sc.netflits_w
    vareq = sc.va_requests
    swreq = sc.sw_requests
    status = RUNNING
    while True:
        t = sc.t
        if t >= chunk_end:
            status = RUNNING
            break
        if t >= maxcyc:
            status = MAXCYCLES
            break
        phase = sc.phase
        moved = False
        slot = t & (NSLOT - 1)
        s0 = slot * NCH
        # ------------------------------------------------------------ A. events due now
        nc = ev_cn[_u(slot)]
        for i in range(nc):
            e = ev_cb[_u(s0 + i)]  # (holder at sending + 1) << 32 | credited VC
            b = e & MASK
            ow = (e >> 32) - 1
            # the credit counts where b's count is kept: in the row of the input VC holding b (an
            # active VC holds its output VC until its tail is sent: ST == ST_ACTIVE and OUT == b), else in b's
            if ow < 0 or vs[_u(ow * NVS + VS_ST)] != ST_ACTIVE or vs[_u(ow * NVS + VS_OUT)] != b:
                ow = vs[_u(b * NVS + VS_OWN)]  # the holder changed since the flit was sent
            if ow >= 0:
                r = ow * NVS
                vs[_u(r + VS_OCCO)] -= 1
                if in_sw[_u(ow)] == 0 and vs[_u(r + VS_CNT)] > 0:  # it slept for lack of this credit
                    in_sw[_u(ow)] = 1
                    nsw = _sw_add(ow, nsw, vs, cand)
            else:
                oc = vs[_u(b * NVS + VS_OCC)] - 1
                vs[_u(b * NVS + VS_OCC)] = oc
                if wtc and oc == 0 and tsent[_u(b)] != 0:  # the tail's credit: the VC is free again
                    tsent[_u(b)] = 0
                    inuse[_u(b)] = 0
        ev_cn[_u(slot)] = 0
        nf = ev_fn[_u(slot)]
        for i in range(nf):
            e = ev_f[_u(s0 + i)]
            b = e & MASK
            fl = e >> 32
            if b >= ejb:
                if phase == MEASURE:
                    if mode == RUN_CYCLES:
                        bi = (t - warmcyc) // blen
                        if bi < nbatch:
                            bt_flits[_u(bi)] += 1
                if fl & 1:  # the tail reaches the terminal: delivered
                    m = fl >> 1
                    _hold(b, -1, vs, injb, c_nbusy, nch)
                    sc.insys -= 1
                    sc.innet -= 1
                    sc.deliv += 1
                    if phase == MEASURE:
                        sc.deliv_w += 1
                        if mode == RUN_CYCLES:
                            bi = (t - warmcyc) // blen
                            if bi < nbatch:
                                bt_msgs[_u(bi)] += 1
                    tg = m_tag[_u(m)]
                    if tg >= 0:
                        tg_lat[_u(tg)] = t - m_tgen[_u(m)]
                        tg_net[_u(tg)] = t - m_tinj[_u(m)]
                        tg_wait[_u(tg)] = m_tinj[_u(m)] - m_tgen[_u(m)]
                        tg_hops[_u(tg)] = m_hops[_u(m)]
                        tg_done[_u(tg)] = 1
                    m_next[_u(m)] = sc.free
                    sc.free = m
                continue
            c = vs[_u(b * NVS + VS_CNT)]
            pos = vs[_u(b * NVS + VS_HEAD)] + c
            if pos >= B:
                pos -= B
            bq_f[_u(b * B + pos)] = fl
            vs[_u(b * NVS + VS_CNT)] = c + 1
            s = vs[_u(b * NVS + VS_ST)]
            if s == ST_IDLE:  # a header at an idle VC: routing now, VC allocation from t + 1
                vs[_u(b * NVS + VS_ST)] = ST_ROUTING
                vs[_u(b * NVS + VS_FROM)] = t + 1
                idx = c_dst[_u(vs[_u(b * NVS + VS_CHAN)])] * N + m_dest[_u(fl >> 1)]
                _prefetch(route, idx)  # its routing-table entries, read from t + 1
                _prefetch(minp, idx * P)
                if in_vca[_u(b)] == 0:
                    in_vca[_u(b)] = 1
                    vca_list[_u(nvca)] = b
                    nvca += 1
            elif s == ST_ACTIVE and c == 0 and in_sw[_u(b)] == 0 and vs[_u(b * NVS + VS_OCCO)] < B:
                # front flit of an active VC with a credit: switch allocation now (without a
                # credit, the credit puts it on the list)
                in_sw[_u(b)] = 1
                nsw = _sw_add(b, nsw, vs, cand)
        ev_fn[_u(slot)] = 0
        # ------------------------------------------------------------ B. generation
        if traffic == TRAFFIC_POISSON:
            while sc.nextarr < t + 1.0:
                u = rng_int(rng, N)
                if not _gen(u, t, rng, cfg, sc, msg, sources, tagcap):
                    status = SATURATED
                    break
                sc.nextarr += rng_exp(rng) / lamN
        else:  # TRAFFIC_MMPP
            tend = t + 1.0
            for u in range(N):
                while mmpp_next_arrival(rng, u, tend, mm_rates, mm_sig, mm_state, mm_tsw, mm_tar):
                    if not _gen(u, t, rng, cfg, sc, msg, sources, tagcap):
                        status = SATURATED
                        break
                if status != RUNNING:
                    break
        if status != RUNNING:
            break
        # nodes with a queued message become active sources
        nq = sc.nq
        for i in range(nq):
            u = qlist[_u(i)]
            q_inlist[_u(u)] = 0
            if in_src[_u(u)] == 0:
                in_src[_u(u)] = 1
                src_list[_u(nsrc)] = u
                nsrc += 1
        sc.nq = 0
        # ------------------------------------------------------------ C. injection
        sl = (t + 2) & (NSLOT - 1)
        fbase = sl * NCH
        fn2 = ev_fn[_u(sl)]
        w = 0
        for i in range(nsrc):
            u = src_list[_u(i)]
            m = cur_m[_u(u)]
            if m < 0:
                if qlen[_u(u)] > 0:
                    m = qhead[_u(u)]
                    qhead[_u(u)] = m_next[_u(m)]
                    qlen[_u(u)] -= 1
                    cur_m[_u(u)] = m
                    cur_k[_u(u)] = 0
            if m >= 0:
                k = cur_k[_u(u)]
                base = c_base[_u(n_inj[_u(u)])]
                vc = -1
                if k == 0:
                    lv = last_vc[_u(u)]
                    for j in range(1, V + 1):
                        if lv < 0:
                            vv = 0
                        else:
                            vv = lv + j
                            if vv >= V:
                                vv -= V
                        if inuse[_u(base + vv)] == 0 and vs[_u((base + vv) * NVS + VS_OCC)] < B:
                            vc = base + vv
                            break
                else:
                    vc = cur_vc[_u(u)]
                    if vs[_u(vc * NVS + VS_OCC)] >= B:
                        vc = -1
                if vc >= 0:
                    moved = True
                    if k == 0:
                        inuse[_u(vc)] = 1
                        tsent[_u(vc)] = 0
                        last_vc[_u(u)] = vc - base
                        cur_vc[_u(u)] = vc
                        m_tinj[_u(m)] = t
                        sc.innet += 1
                        _hold(vc, 1, vs, injb, c_nbusy, nch)
                    vs[_u(vc * NVS + VS_OCC)] += 1
                    tl = k == m_len[_u(m)] - 1
                    ev_f[_u(fbase + fn2)] = ((2 * np.int64(m) + (1 if tl else 0)) << 32) | vc
                    fn2 += 1
                    if tl:
                        if wtc:
                            tsent[_u(vc)] = 1
                        else:
                            inuse[_u(vc)] = 0
                        cur_m[_u(u)] = -1
                    else:
                        cur_k[_u(u)] = k + 1
            if cur_m[_u(u)] >= 0 or qlen[_u(u)] > 0:
                src_list[_u(w)] = u
                w += 1
            else:
                in_src[_u(u)] = 0
        nsrc = w
        ev_fn[_u(sl)] = fn2
        if phase == MEASURE:
            sc.innet_acc += sc.innet
        # ------------------------------------------------------------ D. VC allocation (iSLIP, 1 iteration)
        nnew = 0
        nr = 0
        ng = 0
        w = 0
        for i in range(nvca):
            b = vca_list[_u(i)]
            if vs[_u(b * NVS + VS_ST)] != ST_ROUTING:  # allocated since: off the list
                in_vca[_u(b)] = 0
                continue
            vca_list[_u(w)] = b
            w += 1
            if vs[_u(b * NVS + VS_FROM)] > t:
                continue
            m = bq_f[_u(b * B + vs[_u(b * NVS + VS_HEAD)])] >> 1
            u = c_dst[_u(vs[_u(b * NVS + VS_CHAN)])]
            cnt = _requests(m, u, rq_tmp, cfg, net, c_base, n_ej, inuse, msg)
            vareq += 1
            li = v_li[_u(b)]
            for j in range(cnt):
                o = rq_tmp[_u(j)]
                req_b[_u(nr)] = b
                req_o[_u(nr)] = o
                nr += 1
                key = li - va_g[_u(o)]
                if key < 0:
                    key += NI
                if g_key[_u(o)] < 0:
                    g_key[_u(o)] = key
                    g_in[_u(o)] = b
                    g_touch[_u(ng)] = o
                    ng += 1
                elif key < g_key[_u(o)]:
                    g_key[_u(o)] = key
                    g_in[_u(o)] = b
        nvca = w
        na = 0
        for j in range(nr):
            o = req_o[_u(j)]
            b = req_b[_u(j)]
            if g_in[_u(o)] != b:
                continue
            key = v_lo[_u(o)] - va_a[_u(b)]
            if key < 0:
                key += NI
            if a_key[_u(b)] < 0:
                a_key[_u(b)] = key
                a_o[_u(b)] = o
                a_touch[_u(na)] = b
                na += 1
            elif key < a_key[_u(b)]:
                a_key[_u(b)] = key
                a_o[_u(b)] = o
        for j in range(ng):
            g_key[_u(g_touch[_u(j)])] = -1
        for j in range(na):
            b = a_touch[_u(j)]
            a_key[_u(b)] = -1
            o = a_o[_u(b)]
            x = v_li[_u(b)] + 1
            va_g[_u(o)] = x if x < NI else 0
            x = v_lo[_u(o)] + 1
            va_a[_u(b)] = x if x < NI else 0
            inuse[_u(o)] = 1
            tsent[_u(o)] = 0
            vs[_u(o * NVS + VS_OWN)] = b
            _hold(o, 1, vs, injb, c_nbusy, nch)
            r = b * NVS
            vs[_u(r + VS_OUT)] = o
            vs[_u(r + VS_OCCO)] = vs[_u(o * NVS + VS_OCC)]  # o's credit count moves to its holder's row
            och = vs[_u(o * NVS + VS_CHAN)]
            vs[_u(r + VS_OUTCH)] = och
            vs[_u(r + VS_OUTPORT)] = c_outport[_u(och)]
            vs[_u(b * NVS + VS_ST)] = ST_ACTIVE
            # switch allocation from t + 1: on the list after this cycle's (E)
            in_sw[_u(b)] = 1
            sw_new[_u(nnew)] = b
            nnew += 1
            if o < injb:
                ch = vs[_u(o * NVS + VS_CHAN)]
                m = bq_f[_u(b * B + vs[_u(b * NVS + VS_HEAD)])] >> 1
                m_hops[_u(m)] += 1
                vi = vs[_u(o * NVS + VS_IDX)]
                if kind == KIND_NBC:
                    u = c_src[_u(ch)]
                    if vi < V2:
                        m_state[_u(m)] = vi + label[_u(u)]
                    else:
                        m_state[_u(m)] += label[_u(u)]
                elif kind == KIND_UPDOWN:
                    if vi == 0:  # the escape VC: the up or down phase begins
                        m_state[_u(m)] = UD_UP if chan_up[_u(ch)] else UD_DOWN
        # ------------------------------------------------------------ E. switch allocation (iSLIP, 1 iteration)
        # candidates: the switch list, every active VC with a flit at its front and a credit (the
        # list holds exactly those: a VC joins it when it becomes one -- a flit reaching an empty
        # buffer (A), a credit (A), VC allocation (D, from the next cycle) -- and leaves it when a
        # grant leaves it without one).  A request alone at its input port and at its output port
        # wins outright (what iSLIP gives it), the others go through the per-input-port VC choice
        # and the grant / accept phases.
        ncand = nsw
        for i in range(ncand):
            # requests per input / output channel this cycle: 1, or 2 for more
            ich = cand[_u(i)].ich
            in_n[_u(ich)] = 2 if in_n[_u(ich)] != 0 else 1
            och = cand[_u(i)].och
            out_n[_u(och)] = 2 if out_n[_u(och)] != 0 else 1
        swreq += ncand
        # gl holds candidate numbers (indices into cand).  The iSLIP records pack an
        # arbitration key and what it points at into one int64, ``key << 32 | index`` (-1: empty), so
        # that the smallest record is the round-robin winner (keys are distinct within a record).
        ngr = 0
        npr = 0
        for i in range(ncand):
            ich = cand[_u(i)].ich
            och = cand[_u(i)].och
            if in_n[_u(ich)] == 1 and out_n[_u(och)] == 1:
                gl[_u(ngr)] = i
                ngr += 1
                continue
            # per (input port, output port), the VC first in round-robin order from the port's offset
            pr = ich * NPORT + cand[_u(i)].op
            key = cand[_u(i)].vi - chin[_u(ich)].rr
            if key < 0:
                key += V
            pk = (key << 32) | i
            x = p_key[_u(pr)]
            if x < 0:
                p_key[_u(pr)] = pk
                p_touch[_u(npr)] = pr
                npr += 1
            elif pk < x:
                p_key[_u(pr)] = pk
        if npr > 0:
            nog = 0
            for j in range(npr):  # grant: each output port takes the input port first from its pointer
                pr = p_touch[_u(j)]
                i = p_key[_u(pr)] & MASK
                och = cand[_u(i)].och
                key = cand[_u(i)].ip - chout[_u(och)].g
                if key < 0:
                    key += NPORT
                pk = (key << 32) | pr
                x = og[_u(och)]
                if x < 0:
                    og[_u(och)] = pk
                    og_touch[_u(nog)] = och
                    nog += 1
                elif pk < x:
                    og[_u(och)] = pk
            nia = 0
            for j in range(nog):  # accept: each input port takes the granting output first from its pointer
                och = og_touch[_u(j)]
                pr = og[_u(och)] & MASK
                og[_u(och)] = -1
                i = p_key[_u(pr)] & MASK
                ich = cand[_u(i)].ich
                key = cand[_u(i)].op - chin[_u(ich)].a
                if key < 0:
                    key += NPORT
                pk = (key << 32) | pr
                x = ia[_u(ich)]
                if x < 0:
                    ia[_u(ich)] = pk
                    ia_touch[_u(nia)] = ich
                    nia += 1
                elif pk < x:
                    ia[_u(ich)] = pk
            for j in range(nia):
                ich = ia_touch[_u(j)]
                pr = ia[_u(ich)] & MASK
                ia[_u(ich)] = -1
                gl[_u(ngr)] = p_key[_u(pr)] & MASK
                ngr += 1
            for j in range(npr):
                p_key[_u(p_touch[_u(j)])] = -1
        sl2 = (t + 2) & (NSLOT - 1)
        sl3 = (t + 3) & (NSLOT - 1)
        sl5 = (t + 5) & (NSLOT - 1)
        cb2 = sl2 * NCH
        fb3 = sl3 * NCH
        cb5 = sl5 * NCH
        cn2 = ev_cn[_u(sl2)]
        fn3 = ev_fn[_u(sl3)]
        cn5 = ev_cn[_u(sl5)]
        for j in range(ngr):
            i = gl[_u(j)]
            b = cand[_u(i)].b
            o = cand[_u(i)].o
            ich = cand[_u(i)].ich
            och = cand[_u(i)].och
            r = b * NVS
            x = cand[_u(i)].ip + 1
            chout[_u(och)].g = x if x < NPORT else 0
            x = cand[_u(i)].op + 1
            chin[_u(ich)].a = x if x < NPORT else 0
            x = cand[_u(i)].vi + 1
            chin[_u(ich)].rr = x if x < V else 0
            # the front flit leaves b
            h = vs[_u(r + VS_HEAD)]
            fl = bq_f[_u(b * B + h)]
            h += 1
            vs[_u(r + VS_HEAD)] = h if h < B else 0
            c = vs[_u(r + VS_CNT)] - 1
            vs[_u(r + VS_CNT)] = c
            tail = (fl & 1) != 0
            occo = vs[_u(r + VS_OCCO)] + 1
            vs[_u(r + VS_OCCO)] = occo
            if tail:  # b lets go of o: o's credit count goes back to o's row
                vs[_u(o * NVS + VS_OCC)] = occo
                vs[_u(o * NVS + VS_OWN)] = -1
                if wtc:
                    tsent[_u(o)] = 1  # the output VC is free once the tail's credit is back
                else:
                    inuse[_u(o)] = 0  # wait_for_tail_credit = 0: free once the tail is sent
                _hold(b, -1, vs, injb, c_nbusy, nch)
            # credit for b upstream at t + 2, to the input VC holding b now (checked on arrival)
            ev_cb[_u(cb2 + cn2)] = (np.int64(vs[_u(r + VS_OWN)] + 1) << 32) | b
            cn2 += 1
            # the flit reaches the next buffer (or the terminal) at t + 3
            ev_f[_u(fb3 + fn3)] = (np.int64(fl) << 32) | o
            fn3 += 1
            if o >= ejb:
                # the terminal returns the credit when it reads the flit
                ev_cb[_u(cb5 + cn5)] = (np.int64(0 if tail else b + 1) << 32) | o
                cn5 += 1
            elif phase == MEASURE:
                netw += 1
                chout[_u(och)].flits += 1
            if tail:
                in_sw[_u(b)] = 0
                if c == 0:
                    vs[_u(b * NVS + VS_ST)] = ST_IDLE
                else:  # the next message's header: routing at t + 1, VC allocation from t + 2
                    vs[_u(b * NVS + VS_ST)] = ST_ROUTING
                    vs[_u(b * NVS + VS_FROM)] = t + 2
                    if in_vca[_u(b)] == 0:
                        in_vca[_u(b)] = 1
                        vca_list[_u(nvca)] = b
                        nvca += 1
            elif c == 0 or occo >= B:  # nothing more to send, or no credit: off the switch list
                in_sw[_u(b)] = 0
        # the list for t + 1: this cycle's candidates still waiting (the losers, and winners with a
        # flit and a credit left; every entry copied, kept by advancing ``w``: a test would
        # mispredict), then the VCs given an output VC in this cycle's (D); the channels' request
        # counts cleared
        w = 0
        for i in range(ncand):
            cd = cand[_u(i)]
            in_n[_u(cd.ich)] = 0
            out_n[_u(cd.och)] = 0
            cand[_u(w)] = cd
            w += in_sw[_u(cd.b)]
        for j in range(nnew):
            b = sw_new[_u(j)]
            if vs[_u(b * NVS + VS_OCCO)] < B:
                w = _sw_add(b, w, vs, cand)
            else:  # no credit yet: the credit puts it on the list
                in_sw[_u(b)] = 0
        nsw = w
        ev_cn[_u(sl2)] = cn2
        ev_fn[_u(sl3)] = fn3
        ev_cn[_u(sl5)] = cn5
        if ngr > 0:
            moved = True
            flithops += ngr
        # ------------------------------------------------------------ F. bookkeeping
        if phase == MEASURE:
            for v in range(V + 1):
                hist_acc[_u(v)] += nch[_u(v)]
            sc.cyc_w += 1
        elif (mode == RUN_MESSAGES and sc.deliv >= warmup) or (mode == RUN_CYCLES and t + 1 >= warmcyc):
            sc.phase = MEASURE
            sc.insys_w0 = sc.insys
        if moved or sc.innet == 0:
            sc.idle = 0
        else:
            sc.idle += 1
            if sc.idle > dlthresh:
                status = DEADLOCK
                break
        sc.t = t + 1
        if sc.insys > satlim:
            status = SATURATED
            break
        if mode == RUN_CYCLES:
            if t + 1 >= warmcyc + runcyc:
                status = DONE
                break
        elif sc.phase == MEASURE:
            p = sc.prefix
            ntg = sc.ntag
            while p < ntg and tg_done[_u(p)] != 0:
                p += 1
            sc.prefix = p
            if p >= target:
                status = DONE
                break
    sc.nvca = nvca
    sc.nsw = nsw
    sc.nsrc = nsrc
    sc.flithops = flithops
    sc.netflits_w = netw
    sc.va_requests = vareq
    sc.sw_requests = swreq
    return status
