"""The numba engine: one synchronous cycle loop over named state.

State (allocated by :func:`.simulate._allocate`)
------------------------------------------------
Channels ``0..C-1`` are the network channels, ``C..C+N-1`` the injection
channels (PE -> router of node ``u``), ``C+N..C+2N-1`` the ejection channels
(router -> PE).  The state is a handful of record arrays, one record per
object, so that everything the cycle needs about one VC (or channel, message,
node) sits in one cache line and is read by name (``vc[b].nin``):

``vc``    (:data:`VC`, 32 bytes) per virtual channel, the fields the flit traversal reads, and
``vo``    (:data:`VCO`, 32 bytes) the same VC's fields for VC allocation and routing (split so
    that the traversal's working set is half as large).  Channel ``ch`` owns VCs
    ``chan[ch].base .. chan[ch].base + chan[ch].nvc - 1``.  A VC is held by one
    message (``vo.owner``, of ``len`` flits) from the moment its header is
    granted the VC until the message's tail flit leaves the VC's buffer, so a
    buffer holds flits of one message only and is described by counters:
    ``nin`` / ``nout`` flits in / out so far (``nin - nout`` buffered; a free VC
    keeps ``nin = len``), ``prv`` the upstream VC of the same message,
    ``lastout`` the last cycle a flit left, ``nxt`` the VC the message was granted next,
    ``up`` / ``uplast`` a copy of ``prv``'s flits in and last cycle one entered; ``vo.chan``
    its channel, ``vo.router`` the node whose router the buffer feeds, ``vo.hdrt``
    the cycle the buffered header may be routed, ``vo.seen`` the router's release
    count when its last routing attempt failed.  The ejection "buffer" is the PE (a sink).
``chan``  (:data:`CHAN`) per physical channel: its VCs, type (:data:`CT_NET`,
    :data:`CT_INJ`, :data:`CT_EJ`), end nodes, round-robin pointer ``rr``,
    number of held VCs ``busy``, its held VCs whose tail has not entered yet as bits ``want`` (the VCs
    the traversal looks at) and its index ``pos`` in the active list (kept only with ``CHECKS``).
``msg``   (:data:`MSG`) per message slot (``next`` threads the free list and
    the source queues).
``node``  (:data:`NODE`) per node: FIFO source queue, messages being written
    into the injection channel, VC releases at its router, its injection and
    ejection channels.
``lists`` (:data:`Lists`) work lists: active channels (one segment per channel type), pending headers
    (in the order: cycle the header arrived, VC number), nodes with a non-empty source queue.
``mm``    (:data:`Mmpp`) the MMPP(2) modulating chains of the nodes.
``tags``  (:data:`Tags`) per measured message: latency, network latency,
    source wait, hops, done flag.
``hist``  (:data:`Hist`) network channels by number of busy VCs, and its
    time integral; ``flits`` per network channel in the window.
``sc``    one record (:data:`SCALARS`): the clock, counters and accumulators.
``cfg``   (:data:`Config`) the run's parameters; ``net`` (:data:`Net`) the
    routing tables.

The kernel unpacks these groups into local names once per call.  It is
compiled without numba's reference counting (``_nrt=False``: it allocates
nothing, and the caller holds every array for the whole call): with it, each
array handed to a small inlined helper cost an atomic increment and decrement
per call -- per visited channel and per routing attempt, a fifth of the
cycle loop's time in the profile.

One cycle ``t`` (every phase reads the state left by the previous one; a
VC receives and sends at most one flit per cycle, and "start of cycle"
counts are reconstructed from the ``uplast`` / ``lastout`` stamps, so
the in-place update equals a synchronous one):

1. generation: new messages join their node's source queue (FIFO);
2. injection: the head of a non-empty source queue takes a free injection
   VC of its node (source queueing ends here) if fewer than ``streams``
   messages of the node are still being written into the injection channel
   (tail not yet in its injection VC);
3. routing / VC allocation: every header at the head of a buffer that has
   spent ``router_delay`` cycles in this router requests a VC allowed by
   the routing function; oldest requests first (of the same cycle: lower VC number first, so that no
   result depends on the order the traversal visits the channels in); granted at once if free;
4. switch / link traversal: every physical channel with a held VC moves at
   most one flit, round-robin among its VCs that are *ready* (upstream flit
   present since the start of the cycle, and fewer than ``buffer_depth``
   flits in the VC's buffer at the start of the cycle); the injection
   channel moves at most one flit per cycle from the PE; the ejection
   channel moves one flit per cycle into the PE.  A header that crosses
   in cycle ``t`` may be routed again in cycle ``t + router_delay``;
5. bookkeeping: the window's time averages, the deadlock, saturation and
   stop tests (:func:`close_cycle`, :func:`all_measured`, shared with
   :mod:`.booksim_kernel`).

Zero-load latency (no contention, ``buffer_depth >= 2``): the header crosses
the injection channel in the cycle the message is generated, then spends
``R = router_delay`` cycles in each of the ``h + 1`` routers on its way
(``h`` network hops, then the ejection channel); the body follows one flit
per cycle, so the tail leaves ``M - 1`` cycles after the header:
``latency = M + (h + 1) R`` cycles.  With ``buffer_depth = 1`` a VC can
only take a flit when it was empty at the start of the cycle, which halves
the streaming rate: ``latency = 2M - 1 + (h + 1) R``.  Both are tested.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .routing import KIND_FIXED_ESCAPE
from .traffic import rng_next
from .steps import (CACHE, CHECKS, DONE, MAXCYCLES, MEASURE, PROFILE, RUNNING, SATURATED, all_measured, allowed,
                    arrival, clock, close_cycle, count_delivered, count_new, ctz, draw_message, prefetch,
                    state_after, uidx)

# channel types
CT_NET, CT_INJ, CT_EJ = 0, 1, 2

# prefetch distances of the traversal, in active-list entries
PF_CHAN, PF_VC = 6, 3

_i4, _i8, _f8 = np.int32, np.int64, np.float64

#: one virtual channel, the fields the flit traversal reads (32 bytes: two VCs per cache line); the
#: cycle stamps are int32 (:func:`.simulate.simulate` keeps ``max_cycles`` below ``2**31 - 16``).
#: ``up`` / ``uplast`` mirror the upstream VC's flits in and the last cycle one entered it (kept by
#: the traversal through the upstream's ``nxt``, the VC its message was granted next, -1: header not
#: routed yet), so that :func:`_pick` reads only the records of the channel it visits.
VC = np.dtype([("len", _i4), ("nin", _i4), ("nout", _i4), ("prv", _i4), ("lastout", _i4),
               ("nxt", _i4), ("up", _i4), ("uplast", _i4)], align=True)
#: one virtual channel, the fields VC allocation and routing read (32 bytes)
VCO = np.dtype([("owner", _i4), ("chan", _i4), ("router", _i4), ("hdrt", _i8), ("seen", _i8)], align=True)
#: one physical channel
CHAN = np.dtype([("base", _i4), ("nvc", np.int16), ("typ", np.int16), ("rr", _i4), ("busy", _i4), ("pos", _i4),
                 ("src", _i4), ("dst", _i4), ("want", _i4)], align=True)
#: one message slot
MSG = np.dtype([("dest", _i4), ("src", _i4), ("len", _i4), ("hops", _i4), ("state", _i4), ("next", _i4),
                ("tgen", _i8), ("tinj", _i8), ("tag", _i8), ("tie", _i8)], align=True)
#: one node
NODE = np.dtype([("qhead", _i4), ("qtail", _i4), ("qlen", _i4), ("inlist", _i4), ("writing", _i4),
                 ("inj", _i4), ("ej", _i4), ("label", _i4), ("rel", _i8)], align=True)
#: the run's mutable scalars: the clock and phase; messages delivered, tagged, completed tags in order
#: (``prefix``), messages in the system / network; cycles without a flit moving (``idle``); flit hops;
#: network flits, deliveries, generations and cycles in the window; the free list's head; entries of the
#: pending-header and source-queue lists; the longest message so far; generated
#: messages; messages in the system when the window opened; routing attempts, channel visits; the
#: wrapper's ``target`` and ``chunk_end``; the next Poisson arrival; the time integral of the messages
#: in the network over the window
SCALARS = np.dtype([
    ("t", _i8), ("phase", _i8), ("deliv", _i8), ("ntag", _i8), ("prefix", _i8),
    ("insys", _i8), ("innet", _i8), ("idle", _i8), ("flithops", _i8), ("netflits_w", _i8),
    ("deliv_w", _i8), ("gen_w", _i8), ("cyc_w", _i8), ("free", _i8), ("npend", _i8),
    ("nq", _i8), ("maxlen", _i8), ("gen", _i8), ("insys_w0", _i8), ("alloc_tries", _i8),
    ("chan_visits", _i8), ("target", _i8), ("chunk_end", _i8), ("nextarr", _f8), ("innet_acc", _f8),
    ("clk_generation", _i8), ("clk_injection", _i8), ("clk_vc_allocation", _i8), ("clk_traversal", _i8),
    ("clk_bookkeeping", _i8),
], align=True)
#: the phases whose processor cycles a profiled build (``steps.PROFILE``) sums, the fields of :data:`SCALARS`
PHASES = ("generation", "injection", "vc_allocation", "traversal", "bookkeeping")

#: the run's parameters (read-only scalars): nodes ``n``, ports per router ``p``, VCs per network
#: channel ``v``, buffer depth ``b`` (flits per VC), router delay ``r`` (cycles a header spends in a
#: router); routing kind ``routing`` (``KIND_*``), first adaptive VC ``a0``, escape class present
#: ``has_esc``, escape levels (Nbc ``V2``), the dateline half of the escape class ``half`` (0: one
#: escape VC; BookSim's ``dor`` on a torus only, :mod:`.booksim_kernel`); traffic (``TRAFFIC_*``),
#: length (``LENGTH_*``), fixed / mean message length ``M`` (flits) and the geometric ``geop = 1/M``, offered load
#: ``rate`` per node; warm-up messages, max cycles ``maxcyc``, saturation backlog ``satlim``, deadlock
#: threshold ``dlthresh`` (cycles without a flit moving); random DOR ties ``tie``, ``self_traffic``;
#: messages a node may be writing into its injection channel at once ``streams``; VCs of an
#: ejection channel ``vej``
Config = namedtuple("Config", [
    "n", "p", "v", "b", "r", "routing", "a0", "has_esc", "escape_levels", "half", "traffic", "length", "M",
    "geop", "rate", "warmup", "maxcyc", "satlim", "dlthresh", "tie", "self_traffic", "streams", "vej",
])
#: work lists: active channels ``act`` (NCH: the active channels of type ``k`` (``CT_*``) are
#: ``act[seg[k] : seg[k] + nact[k]]``, ``seg`` the first channel of each type, ``nact`` (int64) their counts),
#: pending headers ``pend``, nodes with a non-empty source queue ``qlist``; ``vbase`` (NCH + 1, int32):
#: ``chan[ch].base`` and, last, the number of VCs, a dense copy that the traversal's look-ahead reads to
#: prefetch a channel's VCs without waiting for its channel record (and the routing function,
#: :func:`allowed`, reads for a channel's first VC); ``granted``: one entry, the VC :func:`_route` grants
Lists = namedtuple("Lists", ["act", "pend", "qlist", "vbase", "granted", "seg", "nact"])
#: network channels by number of busy VCs ``nch`` (V + 1), its time integral ``acc`` over the window,
#: ``flits`` per network channel in the window
Hist = namedtuple("Hist", ["nch", "acc", "flits"])


@njit(cache=CACHE, inline="always")
def _first_free(vo, lo, hi):
    """The first VC in ``lo..hi-1`` not held by a message, or -1."""
    for b in range(lo, hi):
        if vo[b].owner < 0:
            return b
    return -1


@njit(cache=CACHE, inline="always")
def _take(vc, vo, b, m, M, prv):
    """Message ``m`` (``M`` flits) takes VC ``b``; its flits come from VC ``prv`` (-1: the PE)."""
    vo[b].owner = m
    x = vc[b]
    x.len = M
    x.nin = 0
    x.nout = 0
    x.prv = prv
    x.nxt = -1
    if prv >= 0:  # granted in phase 3 of a cycle: no flit has entered prv in this cycle yet
        x.up = vc[prv].nin
        x.uplast = -1


@njit(cache=CACHE, inline="always")
def _activate(chan, ch, lists):
    """Put channel ``ch`` on the active list, in its type's segment, unless it is on it (a channel is on the
    list iff one of its VCs waits for a flit: ``want != 0``; the caller sets the new VC's bit after this)."""
    c = chan[ch]
    if c.want == 0:
        k = c.typ
        pos = lists.seg[k] + lists.nact[k]
        lists.nact[k] += 1
        c.pos = pos
        lists.act[pos] = ch


@njit(cache=CACHE, inline="always")
def _ready(x, t, B, from_vc, to_buffer):
    """Whether held VC ``x`` (its tail not in yet) can take a flit in cycle ``t``: a flit has been upstream since
    the start of the cycle (``from_vc``: upstream is a VC, not the PE) and its buffer held fewer than ``B``
    flits at the start of the cycle (``to_buffer``: not the PE)."""
    if from_vc:  # the upstream VC (its flits out = x.nin), from the mirror
        avail = x.up - x.nin
        if x.uplast == t:
            avail -= 1
        if avail <= 0:
            return False
    if to_buffer:
        cnt = x.nin - x.nout
        if x.lastout == t:
            cnt += 1
        if cnt >= B:
            return False
    return True


@njit(cache=CACHE, inline="always")
def _pick(vc, c, t, B, from_vc, to_buffer):
    """The VC of channel ``c`` that moves a flit in cycle ``t`` (round-robin from ``c.rr``, which
    advances past it), or -1.  The candidates are the bits of ``c.want`` (held, tail not in yet), visited
    from ``c.rr`` on and around (a single candidate without the loops); one is chosen if :func:`_ready`."""
    nv = np.int64(c.nvc)
    base = np.int64(c.base)
    want = np.int64(c.want)
    if want & (want - 1) == 0:  # one candidate (the common case)
        k = ctz(want)
        if _ready(vc[uidx(base + k)], t, B, from_vc, to_buffer):
            k += 1
            c.rr = k if k < nv else 0
            return base + k - 1
        return -1
    r = np.int64(c.rr)
    hi = want >> r
    while hi:
        k = r + ctz(hi)
        hi &= hi - 1
        if _ready(vc[uidx(base + k)], t, B, from_vc, to_buffer):
            k += 1
            c.rr = k if k < nv else 0
            return base + k - 1
    lo = want & ((np.int64(1) << r) - 1)
    while lo:
        k = ctz(lo)
        lo &= lo - 1
        if _ready(vc[uidx(base + k)], t, B, from_vc, to_buffer):
            c.rr = k + 1
            return base + k
    return -1


# ----------------------------------------------------------------- routing
@njit(cache=CACHE, inline="always")
def _route(m, u, rng, cfg, route, minp, pchan, vbase, vo, msg, node, out):
    """The VC granted to the header of message ``m`` at node ``u``: the first free VC the routing function
    allows (:func:`allowed`), or -1 (``out``: one entry of scratch).  With more than one minimal port their
    order is drawn from the run's stream, a turn of their fixed order from a random start, forwards or
    backwards (:func:`.steps.rotate`: every port before every other in half of the draws; the order
    ``(cycle + message) % npt`` of a rotation used until issue #36 put x+ before x- in two of three
    rotations, and, advancing by the same step at every hop, correlated a message's choices)."""
    x = msg[m]
    d = x.dest
    spin = np.int64(rng_next(rng) >> np.uint64(33)) if route[u * cfg.n + d].nmin > 1 else 0
    if allowed(u, d, x.state, x.tie, spin, cfg, route, minp, pchan, vbase, node[u].ej, vo, out, True):
        return np.int64(out[0])
    return -1


# ----------------------------------------------------------------- traffic
@njit(cache=CACHE, inline="always")
def _generate(u, t, rng, cfg, sc, msg, node, qlist, tagcap):
    """A new message at node ``u`` joins its source queue; False if no message slot is left."""
    m = sc.free
    if m < 0:
        return False
    x = msg[m]
    sc.free = x.next
    d, M, tie = draw_message(u, rng, cfg)
    if M > sc.maxlen:
        sc.maxlen = M
    x.dest = d
    x.src = u
    x.len = M
    x.tgen = t
    x.hops = 0
    x.state = 0
    x.next = -1
    x.tie = tie
    x.tag = count_new(sc, tagcap, True)
    q = node[u]
    if q.qlen == 0:
        q.qhead = m
        if q.inlist == 0:
            q.inlist = 1
            qlist[sc.nq] = u
            sc.nq += 1
    else:
        msg[q.qtail].next = m
    q.qtail = m
    q.qlen += 1
    return True


# ----------------------------------------------------------------- the phases of a cycle
@njit(cache=CACHE, inline="always")
def _generation(t, cfg, sc, mm, rng, msg, node, qlist, tagcap):
    """1. Generation: the new messages of cycle ``t`` join their nodes' source queues (:func:`.steps.arrival`,
    :func:`_generate`); False when no message slot is left (the run is saturated)."""
    k = 0
    while True:
        u, k = arrival(t, k, rng, cfg, sc, mm)
        if u < 0:
            return True
        if not _generate(u, t, rng, cfg, sc, msg, node, qlist, tagcap):
            return False


@njit(cache=CACHE, inline="always")
def _injection(t, cfg, sc, vc, vo, chan, msg, node, lists):
    """2. Injection VCs: the head of each non-empty source queue takes a free VC of its node's injection
    channel while fewer than ``cfg.streams`` of the node's messages are being written into it (the channel
    joins the active list)."""
    qlist = lists.qlist
    w = 0
    for i in range(sc.nq):
        u = qlist[i]
        q = node[u]
        ch = q.inj
        lo = chan[ch].base
        hi = lo + chan[ch].nvc
        while q.qlen > 0 and q.writing < cfg.streams:
            b = _first_free(vo, lo, hi)
            if b < 0:
                break
            m = q.qhead
            q.qhead = msg[m].next
            q.qlen -= 1
            _take(vc, vo, b, m, msg[m].len, -1)
            _activate(chan, ch, lists)
            chan[ch].busy += 1
            chan[ch].want |= np.int32(1) << np.int32(b - lo)
            msg[m].tinj = t
            sc.innet += 1
            q.writing += 1
        if q.qlen > 0:
            qlist[w] = u
            w += 1
        else:
            q.inlist = 0
    sc.nq = w
    if sc.phase == MEASURE:
        # messages present during this cycle (a message counts from the cycle it takes
        # its injection VC to the cycle its tail is ejected: Little's law with network latency)
        sc.innet_acc += sc.innet


@njit(cache=CACHE, inline="always")
def _vc_allocation(t, cfg, net, vc, vo, chan, msg, node, lists, nch, rng, sc):
    """3. Routing / VC allocation: every header that has spent ``cfg.r`` cycles in its router, oldest
    request first, is granted the first free VC its routing function allows (:func:`_route`), if any; a
    header that failed is not tried again until a VC is released at its router."""
    pend = lists.pend
    tries = 0
    w = 0
    for i in range(sc.npend):
        b = pend[uidx(i)]
        x = vo[uidx(b)]
        u = x.router
        if x.hdrt > t or x.seen == node[uidx(u)].rel:
            # not yet routed in this router, or failed before and no VC has been
            # released at this router since
            pend[w] = b
            w += 1
            continue
        m = x.owner
        tries += 1
        nb = _route(m, u, rng, cfg, net.route, net.minp, net.pchan, lists.vbase, vo, msg, node, lists.granted)
        if nb < 0:
            x.seen = node[u].rel
            pend[w] = b
            w += 1
            continue
        _take(vc, vo, nb, m, vc[b].len, b)
        vc[b].nxt = nb
        ch = vo[nb].chan
        _activate(chan, ch, lists)
        c = chan[ch]
        if c.typ == CT_NET:
            k = c.busy
            nch[k] -= 1
            nch[k + 1] += 1
            mr = msg[m]
            mr.hops += 1
            if cfg.routing != KIND_FIXED_ESCAPE:
                mr.state = state_after(cfg, mr.state, nb - c.base, node[u].label, net.chan_up[ch])
        c.busy += 1
        c.want |= np.int32(1) << np.int32(nb - c.base)
    sc.npend = w
    sc.alloc_tries += tries


@njit(cache=CACHE, inline="always")
def _deliver(b, t, c, vo, node, msg, tags, sc, measuring):
    """The tail of the message in ejection VC ``b`` (channel ``c``) has entered its PE in cycle ``t``: the
    VC is released, the message completed (its tag's latencies and hops) and its slot freed."""
    xo = vo[b]
    m = xo.owner
    xo.owner = -1
    c.busy -= 1
    node[c.dst].rel += 1
    count_delivered(sc, measuring)
    mr = msg[m]
    tg = mr.tag
    if tg >= 0:
        tags.lat[tg] = t + 1 - mr.tgen
        tags.net[tg] = t + 1 - mr.tinj
        tags.wait[tg] = mr.tinj - mr.tgen
        tags.hops[tg] = mr.hops
        tags.done[tg] = 1
    mr.next = sc.free
    sc.free = m


@njit(cache=CACHE, inline="always")
def _release(yb, vo, chan, node, nch):
    """The tail of a message has left VC ``yb``: the VC is free (a network channel's VC counts as a
    release at the router it belongs to, which lets that router's blocked headers try again)."""
    yo = vo[uidx(yb)]
    ca = chan[uidx(yo.chan)]
    yo.owner = -1
    if ca.typ == CT_NET:
        kk = ca.busy
        nch[kk] -= 1
        nch[kk - 1] += 1
        node[ca.src].rel += 1
    ca.busy -= 1


@njit(cache=CACHE, inline="always")
def _traverse(typ, t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc):
    """Phase 4 on the active channels of type ``typ`` (a constant: the branches on it fold away), the
    segment ``act[seg[typ] ..]`` of the active list, compacted in the same pass.  Whether a flit moved."""
    act = lists.act
    pend = lists.pend
    vbase = lists.vbase
    nch = hist.nch
    B = cfg.b
    npend = sc.npend
    moved = False
    measuring = sc.phase == MEASURE
    hops = 0
    netflits = 0
    lo = lists.seg[typ]
    hi = lo + lists.nact[typ]
    if CHECKS:  # a checked build visits the segment in reverse every other cycle: no result may change
        if t & 1:
            for i in range(lo, lo + (hi - lo) // 2):
                j = hi - 1 - (i - lo)
                a, z = act[i], act[j]
                act[i], act[j] = z, a
                chan[z].pos = i
                chan[a].pos = j
    w = lo  # the segment is compacted in the same pass
    for i in range(lo, hi):
        # prefetch: the channel record PF_CHAN entries ahead, its VCs PF_VC entries ahead
        if i + PF_CHAN < hi:
            prefetch(chan, act[uidx(i + PF_CHAN)])
        if i + PF_VC < hi:
            cq = uidx(act[uidx(i + PF_VC)])
            prefetch(vc, vbase[cq])
            prefetch(vc, vbase[cq + np.uint64(1)] - 1)
        ch = act[uidx(i)]
        c = chan[uidx(ch)]
        if CHECKS:
            assert c.want != 0 and c.pos == i and c.typ == typ  # one entry per channel with a VC that waits
        b = _pick(vc, c, t, B, typ != CT_INJ, typ != CT_EJ)
        if b < 0:
            act[uidx(w)] = ch
            if CHECKS:
                c.pos = w
            w += 1
            continue
        moved = True
        x = vc[uidx(b)]
        M = x.len
        nin = x.nin + 1
        if CHECKS:
            assert vo[b].owner >= 0 and nin <= M and (typ == CT_EJ or nin - x.nout <= B)
        if typ == CT_INJ:
            if nin == M:
                node[msg[vo[b].owner].src].writing -= 1  # the tail enters: the source may start the next message
        else:
            # the flit leaves the upstream VC: every flit out of it enters b, so its flits out
            # equal b's flits in (stored, not read: the upstream record need not be fetched)
            yb = x.prv
            y = vc[uidx(yb)]
            y.nout = nin
            y.lastout = t
            if nin == M:
                _release(yb, vo, chan, node, nch)
        # the flit enters b
        x.nin = nin
        if nin == M:  # the tail: b takes no more flits
            c.want &= ~(np.int32(1) << np.int32(b - c.base))
        if typ != CT_EJ:
            nx = x.nxt
            if nx >= 0:  # mirror into the next VC of the message
                z = vc[uidx(nx)]
                z.up = nin
                z.uplast = t
        if typ == CT_EJ:
            hops += 1
            if nin == M:
                _deliver(b, t, c, vo, node, msg, tags, sc, measuring)
        else:
            if typ == CT_NET:
                hops += 1
                if measuring:
                    netflits += 1
                    hist.flits[uidx(ch)] += 1
            if nin == 1:
                xo = vo[uidx(b)]
                xo.hdrt = t + cfg.r
                xo.seen = -1
                pend[uidx(npend)] = b
                npend += 1
                # the header is routed R cycles from now: fetch its routing-table entries
                idx = xo.router * cfg.n + msg[xo.owner].dest
                prefetch(net.route, idx)
                prefetch(net.minp, idx * cfg.p)
        if c.want != 0:  # kept
            act[uidx(w)] = ch
            if CHECKS:
                c.pos = w
            w += 1
    lists.nact[typ] = w - lo
    sc.npend = npend
    sc.chan_visits += hi - lo
    sc.flithops += hops
    sc.netflits_w += netflits
    return moved


@njit(cache=CACHE, inline="always")
def _sort_new(pend, lo, hi):
    """Sort ``pend[lo:hi]``, the headers that reached their routers in this cycle, by VC number (insertion
    sort: a few entries per cycle)."""
    for i in range(lo + 1, hi):
        b = pend[uidx(i)]
        j = i - 1
        while j >= lo and pend[uidx(j)] > b:
            pend[uidx(j + 1)] = pend[uidx(j)]
            j -= 1
        pend[uidx(j + 1)] = b


@njit(cache=CACHE, inline="always")
def _traversal(t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc):
    """4. Switch / link traversal: every channel on the active list moves at most one flit, round-robin
    among its ready VCs (:func:`_pick`); a header that crosses is routed ``cfg.r`` cycles later.  The list
    is three segments, network, injection and ejection channels, each visited by a loop of its own
    (:func:`_traverse`).  The headers that crossed join the pending list in the order of their VC numbers
    (:func:`_sort_new`), not in the order the channels were visited: so the pending list is in the order
    (cycle the header arrived, VC), and no result depends on the order of the active list.  Whether a flit
    moved."""
    npend = sc.npend
    moved = _traverse(CT_NET, t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc)
    moved |= _traverse(CT_INJ, t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc)
    moved |= _traverse(CT_EJ, t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc)
    _sort_new(lists.pend, npend, sc.npend)
    return moved


@njit(cache=CACHE, inline="always")
def _check(cfg, vc, vo, chan, lists, hist, sc):
    """The invariants of the state between two cycles (``CHECKS`` only; O(VCs) per cycle): a VC is held by a
    message iff it counts in its channel's ``busy``; a channel's ``want`` bits are its held VCs whose tail
    has not entered; the active list holds each channel with a ``want`` bit once, at its ``pos`` in its type's
    segment; a VC holds at most ``cfg.b`` flits (the ejection "buffer" is the PE) and no more than its
    message's; the histogram of network channels by busy VCs counts every network channel once; messages in
    the network <= in the system."""
    act = lists.act
    nchan = chan.size
    on = 0
    net_channels = 0
    for ch in range(nchan):
        c = chan[ch]
        held = 0
        want = 0
        for j in range(c.nvc):
            b = c.base + j
            x = vc[b]
            if vo[b].owner >= 0:
                held += 1
                assert 0 <= x.nout <= x.nin <= x.len
                assert c.typ == CT_EJ or x.nin - x.nout <= cfg.b
                if x.nin < x.len:
                    want |= 1 << j
        assert held == c.busy
        assert want == c.want
        if want != 0:
            on += 1
            k = c.typ
            assert lists.seg[k] <= c.pos < lists.seg[k] + lists.nact[k] and act[c.pos] == ch
        if c.typ == CT_NET:
            net_channels += 1
    assert on == lists.nact[0] + lists.nact[1] + lists.nact[2]
    total = 0
    for v in range(hist.nch.size):
        assert hist.nch[v] >= 0
        total += hist.nch[v]
    assert total == net_channels
    assert 0 <= sc.innet <= sc.insys


# ----------------------------------------------------------------- the cycle loop
@njit(cache=CACHE, _nrt=False)
def run(cfg, net, vc, vo, chan, msg, node, lists, mm, tags, hist, sc_arr, rng):
    """Advance the simulation until a stop condition; returns a status code.  One cycle is the five
    phases in order: :func:`_generation`, :func:`_injection`, :func:`_vc_allocation`, :func:`_traversal`,
    then :func:`.steps.close_cycle` and :func:`.steps.all_measured` (with ``CHECKS``, :func:`_check` after
    the traversal).

    No reference counting (``_nrt=False``): the kernel allocates no array (numba refuses to compile
    one here), and every array it touches is an argument, alive for the whole call."""
    sc = sc_arr[0]
    tagcap = tags.lat.size
    c0 = clock() if PROFILE else 0
    while sc.t < sc.chunk_end and sc.t < cfg.maxcyc:
        t = sc.t
        if not _generation(t, cfg, sc, mm, rng, msg, node, lists.qlist, tagcap):
            return SATURATED
        if PROFILE:
            c1 = clock()
            sc.clk_generation += c1 - c0
        _injection(t, cfg, sc, vc, vo, chan, msg, node, lists)
        if PROFILE:
            c0 = clock()
            sc.clk_injection += c0 - c1
        _vc_allocation(t, cfg, net, vc, vo, chan, msg, node, lists, hist.nch, rng, sc)
        if PROFILE:
            c1 = clock()
            sc.clk_vc_allocation += c1 - c0
        moved = _traversal(t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc)
        if PROFILE:
            c0 = clock()
            sc.clk_traversal += c0 - c1
        if CHECKS:
            _check(cfg, vc, vo, chan, lists, hist, sc)
        status = close_cycle(t, moved, sc.deliv >= cfg.warmup, sc, cfg, hist.nch, hist.acc)
        if status != RUNNING:
            return status
        if sc.phase == MEASURE and all_measured(sc, tags.done):
            return DONE
        if PROFILE:
            c1 = clock()
            sc.clk_bookkeeping += c1 - c0
            c0 = c1
    return RUNNING if sc.t >= sc.chunk_end else MAXCYCLES  # RUNNING: the wrapper calls again
