"""The numba engine: one synchronous cycle loop over named state.

State (allocated by :func:`.simulate._allocate`)
------------------------------------------------
Channels ``0..C-1`` are the network channels, ``C..C+N-1`` the injection
channels (PE -> router of node ``u``), ``C+N..C+2N-1`` the ejection channels
(router -> PE).  The state is a handful of record arrays, one record per
object, so that everything the cycle needs about one VC (or channel, message,
node) sits in one cache line and is read by name (``vo[b].owner``):

``vo``    (:data:`VCO`, 32 bytes) per virtual channel, the fields VC allocation and routing read.  Channel
    ``ch`` owns VCs ``chan[ch].base .. chan[ch].base + chan[ch].nvc - 1``.  A VC is held by one message
    (``vo.owner``) from the moment its header is granted the VC until the message's tail flit leaves the
    VC's buffer, so a buffer holds flits of one message only; ``vo.chan`` its channel, ``vo.router`` the
    node whose router the buffer feeds, ``vo.hdrt`` the cycle the buffered header may be routed,
    ``vo.seen`` the router's release count when its last routing attempt failed.  The ejection "buffer"
    is the PE (a sink).
``wr``    (:data:`Worms`) the messages in the network as worms: a worm's hops are the VCs it holds, in path
    order (hop 0 its injection VC), each with ``n``, the flits that have entered it, and its channel.  Bit
    ``j`` of a worm's words is its hop ``j``: ``S``, the hops whose VC is the only one of its channel waiting for
    a flit, ``C``, the hops the arbitration chose in this cycle, and the occupancy planes ``pl`` (bit ``j`` of
    plane ``k``: bit ``k`` of the flits in hop ``j``'s buffer, ``n`` minus the next hop's ``n``), so that
    :func:`_advance` finds a worm's moves with a few word operations; it keeps only hop 0's ``n`` and the planes,
    whose prefix sums give the others (:func:`_count`), and visits only the moves of a header or a tail
    (:func:`_move`).  A network whose paths do not fit a word
    (:data:`.simulate.MASK_HOPS`) runs :func:`_advance_hops` instead, hop by hop, with each hop's ``n`` and ``go``
    (:data:`SOLO` or the cycle the arbitration chose it) for ``S`` and ``C`` and no planes: the same moves in
    the same cycles (tested on every golden case).  ``vc`` (:data:`VC`) maps a VC to its worm and hop.
``chan``  (:data:`CHAN`) per physical channel: its VCs, type (:data:`CT_NET`,
    :data:`CT_INJ`, :data:`CT_EJ`), end nodes, number of held VCs ``busy``, whether it is on the contended list
    ``incon``, and ``sn0`` (for a lone VC's moves, :func:`_wait`).  What its arbitration reads is a record of
    its own, ``lists.arb`` (:data:`ARB`): its held VCs whose tail has not entered yet as bits ``want`` (the VCs
    that wait for a flit), round-robin pointer ``rr``, and, while two or more wait, which of them are ready at
    the start of the cycle, as bits ``rdy`` (:func:`_arbitration` reads only these; :func:`_advance` sets them
    from the counts a worm's moves leave, :func:`_wait` for a VC that joins).
``msg``   (:data:`MSG`) per message slot (``next`` threads the free list and
    the source queues).
``node``  (:data:`NODE`) per node: FIFO source queue, messages being written
    into the injection channel, VC releases at its router, its injection and
    ejection channels.
``lists`` (:data:`Lists`) work lists: contended channels, worms that may move, pending headers (in the
    order: cycle the header arrived, VC number), nodes with a non-empty source queue.
``mm``    (:data:`Mmpp`) the MMPP(2) modulating chains of the nodes.
``tags``  (:data:`Tags`) per measured message: latency, network latency,
    source wait, hops, done flag.
``hist``  (:data:`Hist`) network channels by number of busy VCs, and its
    time integral; ``flits`` per network channel in the window, counted by messages (:func:`window_flits`).
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
VC receives and sends at most one flit per cycle, and the traversal reads
the counts of the start of the cycle -- a worm's hops are visited from the
head back, so the hop behind has not moved yet and the hop ahead's old count
is carried -- so the in-place update equals a synchronous one):

1. generation: new messages join their node's source queue (FIFO);
2. injection: the head of a non-empty source queue takes a free injection
   VC of its node (source queueing ends here) if fewer than ``streams``
   messages of the node are still being written into the injection channel
   (tail not yet in its injection VC);
3. routing / VC allocation: every header at the head of a buffer that has
   spent ``router_delay`` cycles in this router requests a VC allowed by
   the routing function; oldest requests first (of the same cycle: lower VC number first, so that no
   result depends on the order the traversal visits the worms in); granted at once if free;
4. switch / link traversal: every physical channel with a held VC moves at
   most one flit, round-robin among its VCs that are *ready* (upstream flit
   present since the start of the cycle, and fewer than ``buffer_depth``
   flits in the VC's buffer at the start of the cycle); the injection
   channel moves at most one flit per cycle from the PE; the ejection
   channel moves one flit per cycle into the PE.  A header that crosses
   in cycle ``t`` may be routed again in cycle ``t + router_delay``.
   Done worm by worm: the channels where two or more VCs wait are arbitrated
   first (:func:`_arbitration`, from their readiness bits); then each worm moves the flits of its hops that
   are alone on their channel and ready, or chosen (:func:`_advance`: its ready hops as one word, from its
   occupancy planes).  A worm none of whose hops was ready sleeps (leaves the
   worm list) until its header is granted a VC: nothing else changes its counts;
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
                    arrival, clock, close_cycle, count_delivered, count_new, ctz, draw_message, popcount,
                    prefetch, state_after, uidx)

# channel types
CT_NET, CT_INJ, CT_EJ = 0, 1, 2

_i4, _i8, _f8 = np.int32, np.int64, np.float64

#: ``HOP.go`` of a hop whose VC is the only one of its channel waiting for a flit (:func:`_advance_hops`)
SOLO = -2
#: the count of the slots around a worm's hops that stand for the PE: before its injection VC (flits always
#: wait there) and after its ejection VC (never full)
BIG = 1 << 30

#: one virtual channel: the worm that holds it and the VC's place on the worm's path (its ``hop``)
VC = np.dtype([("worm", _i4), ("hop", _i4)])
#: one virtual channel, the fields VC allocation and routing read (32 bytes)
VCO = np.dtype([("owner", _i4), ("chan", _i4), ("router", _i4), ("hdrt", _i8), ("seen", _i8)], align=True)
#: one hop of a worm's path: the flits that have entered its VC ``n``, the VC ``vc``, its channel ``ch``, and
#: (:func:`_advance_hops` only) ``go``: :data:`SOLO` when the VC is the only one of its channel waiting for a flit,
#: else the last cycle the channel's arbitration chose it (-1: not yet)
HOP = np.dtype([("n", _i4), ("vc", _i4), ("ch", _i4), ("go", _i4)])
#: one worm (a message in the network): its message ``m``, path length ``L`` (hop 0 its injection VC, then
#: its network VCs and, once granted, its ejection VC, then ``ej = 1``), ``t0`` the first hop whose VC
#: waits for a flit (the tail has entered every VC before it), ``len`` its flits, ``sleep`` (off the worm
#: list: no hop was ready), ``next`` the free list; as words, bit ``j`` for hop ``j`` (:func:`_advance` only):
#: ``S`` its hops whose VC is the only one of its channel waiting for a flit, ``C`` the hops the arbitration chose in
#: this cycle, and what its occupancy planes say (written by the moves, the planes' only writer, so that a step reads
#: two words, not the planes): ``ne`` the hops whose buffers hold a flit, ``full`` those that hold ``B`` (64 bytes)
WORM = np.dtype([("m", _i4), ("L", _i4), ("t0", _i4), ("len", _i4), ("ej", _i4), ("sleep", _i4), ("next", _i4),
                 ("S", _i8), ("C", _i8), ("ne", _i8), ("full", _i8)], align=True)
#: the words of a worm's occupancy planes (``Worms.pl``, from ``NPL * w``; ``cfg.kb`` of them in use, enough bits
#: for ``buffer_depth``): bit ``j`` of plane ``k`` is bit ``k`` of the flits in hop ``j``'s buffer (0 for the ejection
#: VC, whose PE takes every flit); a cache line per worm
NPL = 8
#: the planes :func:`_advance` always visits, a constant count (the planes past ``cfg.kb`` stay 0), then the others
#: (buffers of 16 flits or more)
KFIX = 4
#: one physical channel
CHAN = np.dtype([("base", _i4), ("nvc", np.int16), ("typ", np.int16), ("busy", _i4), ("incon", _i4), ("src", _i4),
                 ("dst", _i4), ("sn0", _i4)], align=True)
#: one physical channel as its arbitration sees it (16 bytes, four to a cache line): its VCs that wait for a flit
#: (``want``) and, while two or more do, which of them are ready at the start of the cycle (``rdy``), as bits; its
#: first VC ``base``, round-robin pointer ``rr`` and VC count ``nvc``
ARB = np.dtype([("want", _i4), ("rdy", _i4), ("base", _i4), ("rr", np.int16), ("nvc", np.int16)], align=True)
#: one message slot
MSG = np.dtype([("dest", _i4), ("src", _i4), ("len", _i4), ("hops", _i4), ("state", _i4), ("next", _i4),
                ("tgen", _i8), ("tinj", _i8), ("tag", _i8), ("tie", _i8)], align=True)
#: one node
NODE = np.dtype([("qhead", _i4), ("qtail", _i4), ("qlen", _i4), ("inlist", _i4), ("writing", _i4),
                 ("inj", _i4), ("ej", _i4), ("label", _i4), ("rel", _i8)], align=True)
#: the run's mutable scalars: the clock and phase; messages delivered, tagged, completed tags in order
#: (``prefix``), messages in the system / network; cycles without a flit moving (``idle``); flit hops;
#: network flits (written by the wrapper when the run ends: the sum of the channels' counts, :func:`window_flits`),
#: deliveries, generations and cycles in the window; the free list's head; entries of the
#: pending-header and source-queue lists; the longest message so far; generated
#: messages; messages in the system when the window opened; routing attempts, VC visits; the
#: wrapper's ``target`` and ``chunk_end``; the next Poisson arrival; the time integral of the messages
#: in the network over the window; contended channels ``ncon``, worms ``nworm`` and the worms' free list ``wfree``
SCALARS = np.dtype([
    ("t", _i8), ("phase", _i8), ("deliv", _i8), ("ntag", _i8), ("prefix", _i8),
    ("insys", _i8), ("innet", _i8), ("idle", _i8), ("flithops", _i8), ("netflits_w", _i8),
    ("deliv_w", _i8), ("gen_w", _i8), ("cyc_w", _i8), ("free", _i8), ("npend", _i8),
    ("nq", _i8), ("maxlen", _i8), ("gen", _i8), ("insys_w0", _i8), ("alloc_tries", _i8),
    ("vc_visits", _i8), ("target", _i8), ("chunk_end", _i8), ("nextarr", _f8), ("innet_acc", _f8),
    ("ncon", _i8), ("nworm", _i8), ("wfree", _i8),
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
#: ejection channel ``vej``; the slots of a worm's hops ``lw`` (its longest path in VCs and two, :data:`Worms`);
#: occupancy planes ``kb`` (the bits of ``b``); ``masks``: 1 if the paths fit the worms' words (:func:`_advance`),
#: else 0 (:func:`_advance_hops`)
Config = namedtuple("Config", [
    "n", "p", "v", "b", "r", "routing", "a0", "has_esc", "escape_levels", "half", "traffic", "length", "M",
    "geop", "rate", "warmup", "maxcyc", "satlim", "dlthresh", "tie", "self_traffic", "streams", "vej", "lw", "kb",
    "masks",
])
#: work lists: the contended channels ``con`` (two or more VCs waiting for a flit; NCH), the worms in the
#: network ``worms``, the VCs left alone on their channel in this cycle ``solo`` (NCH), pending headers ``pend``
#: (in the order: cycle the header arrived, VC number), nodes with a non-empty source queue ``qlist``;
#: ``vbase`` (NCH + 1, int32): ``chan[ch].base`` and, last, the number of VCs (the routing function,
#: :func:`allowed`, reads a channel's first VC there); ``granted``: one entry, the VC :func:`_route` grants;
#: ``arb`` (:data:`ARB`, NCH): the channels' arbitration state, apart from ``chan`` and dense (the worms' moves
#: flip its ``rdy`` bits, the arbitration reads nothing else about a channel); ``flips`` (2 NV + 2, int64) and
#: ``moves`` (3 NV + 3, int64): what :func:`_advance` lists in its pass over the worms and does after it, the
#: worms' readiness flips (first hop slot, bits) and their headers' and tails' moves (worm, header bits, tail bits)
Lists = namedtuple("Lists", ["con", "worms", "solo", "pend", "qlist", "vbase", "granted", "arb", "flips", "moves"])
#: the worms (:data:`WORM`, one per VC: a worm holds at least one), their hops (:data:`HOP`, ``cfg.lw`` slots
#: per worm: worm ``w``'s hop ``j`` is ``hop[w * cfg.lw + j + 1]``; the slots before hop 0 and after the
#: head stand for the PE or an empty next buffer, :func:`_ready`) and their occupancy planes (``pl``, :data:`NPL`)
Worms = namedtuple("Worms", ["rec", "hop", "pl"])
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
def _count(w, j, cfg, wr):
    """The flits that have entered hop ``j`` of worm ``w`` (:data:`BIG` for ``j = -1``, the PE; past the head, 0,
    or :data:`BIG` past an ejection VC).  :func:`_advance_hops` keeps them in the hops' ``n``; :func:`_advance`
    keeps only hop 0's (``n0``) and the occupancy planes, so that a flit moving between two buffers changes no
    count: then hop ``j`` has had ``n0`` minus the flits in the buffers of hops ``0 .. j-1``."""
    if not cfg.masks:
        return np.int64(wr.hop[uidx(w * cfg.lw + j + 1)].n)
    if j < 0:
        return np.int64(BIG)
    x = wr.rec[uidx(w)]
    if j >= x.L:
        return np.int64(BIG) if x.ej else np.int64(0)
    n = np.int64(wr.hop[uidx(w * cfg.lw + 1)].n)
    below = (np.int64(1) << j) - 1
    pb = w * NPL
    for k in range(cfg.kb):
        n -= popcount(wr.pl[uidx(pb + k)] & below) << k
    return n


@njit(cache=CACHE, inline="always")
def _set_solo(w, j, solo, cfg, wr):
    """Hop ``j`` of worm ``w`` is now the only VC of its channel waiting for a flit (``solo``), or one of two or
    more: bit ``j`` of the worm's ``S`` (:func:`_advance`), or the hop's ``go`` (:func:`_advance_hops`)."""
    if cfg.masks:
        bit = np.int64(1) << j
        x = wr.rec[uidx(w)]
        x.S = (np.int64(x.S) | bit) if solo else (np.int64(x.S) & ~bit)
    else:
        wr.hop[uidx(w * cfg.lw + j + 1)].go = SOLO if solo else -1


@njit(cache=CACHE, inline="always")
def _wait(w, j, b, cfg, chan, vc, vo, wr, lists, sc):
    """Worm ``w`` takes VC ``b`` (of channel ``ch``, returned) as its hop ``j``: the VC's bit joins its channel's
    ``want`` (the VCs that wait for a flit).  The channel was idle: the VC is alone (:data:`SOLO`); it was
    alone: both VCs now contend (the channel joins ``lists.con``), and the round-robin pointer the lone VC left
    is set (a lone VC's moves do not write ``rr``: its last move did if ``n`` passed ``sn0``, its count when it
    became alone).  The slot past the new head reads as a buffer no flit has left (``n = 0``) or, for the
    ejection VC, the PE (:data:`BIG`: never full)."""
    vo[b].owner = wr.rec[w].m
    v = vc[b]
    v.worm = w
    v.hop = j
    ch = vo[b].chan
    c = chan[ch]
    a = lists.arb[uidx(ch)]
    s = uidx(w * cfg.lw + j + 1)
    h = wr.hop[s]
    h.n = 0
    h.vc = b
    h.ch = ch
    wr.hop[s + np.uint64(1)].n = BIG if c.typ == CT_EJ else 0
    want = np.int64(a.want)
    bit = np.int64(1) << (b - a.base)
    if want == 0:
        _set_solo(w, j, True, cfg, wr)
        c.sn0 = 0
    else:
        _set_solo(w, j, False, cfg, wr)
        rdy = np.int64(a.rdy) & ~bit
        if _ready(_count(w, j - 1, cfg, wr), 0, np.int64(wr.hop[s + np.uint64(1)].n), cfg.b):
            rdy |= bit
        if want & (want - 1) == 0:  # the lone VC meets a rival
            k = ctz(want)
            o = vc[uidx(a.base + k)]
            ow = np.int64(o.worm)
            oj = np.int64(o.hop)
            on = _count(ow, oj, cfg, wr)
            kb = np.int64(1) << k
            rdy &= ~kb
            if _ready(_count(ow, oj - 1, cfg, wr), on, _count(ow, oj + 1, cfg, wr), cfg.b):
                rdy |= kb
            if on != c.sn0:
                k += 1
                a.rr = k if k < a.nvc else 0
            _set_solo(np.int64(o.worm), np.int64(o.hop), False, cfg, wr)
            if c.incon == 0:
                c.incon = 1
                lists.con[sc.ncon] = ch
                sc.ncon += 1
        a.rdy = np.int32(rdy)
    a.want = np.int32(want | bit)
    c.busy += 1
    return ch


@njit(cache=CACHE, inline="always")
def _unwait(a, k, lists, nsolo):
    """The tail has entered VC ``k`` of the channel whose arbitration record is ``a`` (in this cycle: it moved, so
    its move set ``rr`` when it contended): the VC waits no more.  A VC left alone is listed in ``lists.solo`` (it
    becomes :data:`SOLO` after the traversal: in this cycle its channel has moved its flit).  The new length of
    that list."""
    want = np.int64(a.want) & ~(np.int64(1) << k)
    a.want = np.int32(want)
    if want == 0:  # a lone VC's last move
        k += 1
        a.rr = k if k < a.nvc else 0
    elif want & (want - 1) == 0:
        lists.solo[uidx(nsolo)] = a.base + ctz(want)
        nsolo += 1
    return nsolo


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
def _injection(t, cfg, sc, vc, vo, chan, msg, node, lists, wr):
    """2. Injection VCs: the head of each non-empty source queue takes a free VC of its node's injection
    channel while fewer than ``cfg.streams`` of the node's messages are being written into it (the message
    becomes a worm, with the injection VC as its hop 0)."""
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
            wk = sc.wfree
            x = wr.rec[wk]
            sc.wfree = x.next
            x.m = m
            x.L = 1
            x.t0 = 0
            x.len = msg[m].len
            x.ej = 0
            x.sleep = 0
            x.S = 0
            x.C = 0
            x.ne = 0  # (empty buffers: no plane spells B > 0)
            x.full = 0
            for k in range(NPL):
                wr.pl[uidx(wk * NPL + k)] = 0
            wr.hop[uidx(wk * cfg.lw)].n = BIG
            lists.worms[sc.nworm] = wk
            sc.nworm += 1
            _wait(wk, 0, b, cfg, chan, vc, vo, wr, lists, sc)
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
def _vc_allocation(t, cfg, net, vc, vo, chan, msg, node, lists, nch, rng, sc, wr):
    """3. Routing / VC allocation: every header that has spent ``cfg.r`` cycles in its router, oldest
    request first, is granted the first free VC its routing function allows (:func:`_route`), if any: the
    VC becomes the next hop of the message's worm.  A header that failed is not tried again until a VC is
    released at its router."""
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
        wk = vc[b].worm
        wx = wr.rec[uidx(wk)]
        j = wx.L
        if CHECKS:
            assert j + 2 < cfg.lw and vc[b].hop == j - 1  # the header is at the worm's head
        wx.L = j + 1
        ch = _wait(wk, j, nb, cfg, chan, vc, vo, wr, lists, sc)
        if wx.sleep:  # its hops may be ready again
            wx.sleep = 0
            lists.worms[sc.nworm] = wk
            sc.nworm += 1
        c = chan[uidx(ch)]
        if c.typ == CT_NET:
            k = c.busy - 1
            nch[k] -= 1
            nch[k + 1] += 1
            mr = msg[m]
            mr.hops += 1
            if cfg.routing != KIND_FIXED_ESCAPE:
                mr.state = state_after(cfg, mr.state, nb - c.base, node[u].label, net.chan_up[ch])
        else:
            wx.ej = 1
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
def _ready(up, n, ahead, B):
    """Whether a hop that had ``n`` flits in at the start of the cycle can take one: a flit waits upstream (the
    hop behind had ``up`` in; the PE: :data:`BIG`) and its VC holds fewer than ``B`` (the hop ahead had
    ``ahead`` in; past the head: 0, or :data:`BIG` past an ejection VC, whose PE never fills).  Branch-free."""
    return (up - n > 0) & (n - ahead < B)


@njit(cache=CACHE, inline="always")
def _reverse(a, n):
    """Reverse ``a[:n]`` in place: a checked build (``CHECKS``) visits the contended channels and the worms in
    reverse every other cycle, and no result may change (the order of a work list is an accident of its layout)."""
    for i in range(n // 2):
        x = a[i]
        a[i] = a[n - 1 - i]
        a[n - 1 - i] = x


@njit(cache=CACHE, inline="always")
def _arbitration(t, cfg, vc, chan, lists, wr, sc):
    """4a. Switch arbitration of the contended channels (``lists.con``, compacted in a first pass: a channel
    with fewer than two waiting VCs leaves it; the pass lists the channels with a VC ready at the start of the
    cycle, :func:`_ready`, without a test, which would mispredict), then for each listed channel round-robin from
    ``rr`` among its ready VCs: the chosen VC's hop gets its bit in its worm's ``C`` (``go = t`` hop by hop) and
    ``rr`` moves past it."""
    con = lists.con
    arb = lists.arb
    pick = lists.solo  # scratch here: the traversal lists its lone VCs after the arbitration
    hop = wr.hop
    lw = cfg.lw
    n = sc.ncon
    if CHECKS and t & 1:
        _reverse(con, n)
    w = 0
    npick = 0
    for i in range(n):
        ch = con[uidx(i)]
        a = arb[uidx(ch)]
        want = np.int64(a.want)
        if want & (want - 1) == 0:
            chan[uidx(ch)].incon = 0
            continue
        con[uidx(w)] = ch
        w += 1
        pick[uidx(npick)] = ch
        npick += (want & np.int64(a.rdy)) != 0
    for i in range(npick):
        ch = pick[uidx(i)]
        a = arb[uidx(ch)]
        cand = np.int64(a.want) & np.int64(a.rdy)  # the waiting VCs ready at the start of the cycle
        nv = np.int64(a.nvc)
        r = np.int64(a.rr)
        rot = (cand >> r) | ((cand & ((np.int64(1) << r) - 1)) << (nv - r))  # VCs r.., then 0..r-1
        k = ctz(rot) + r
        if k >= nv:
            k -= nv
        v = vc[uidx(a.base + k)]
        if cfg.masks:
            wr.rec[uidx(v.worm)].C |= np.int64(1) << v.hop
        else:
            hop[uidx(v.worm * lw + v.hop + 1)].go = t
        k += 1
        a.rr = k if k < nv else 0
    sc.ncon = w


@njit(cache=CACHE, inline="always")
def _move(t, j, s, wk, x, L, M, ej, head, tail, cfg, net, vo, chan, msg, node, lists, tags, hist, sc, wr, measuring,
          nsolo, npend):
    """What follows when hop ``j`` (slot ``s``) of worm ``wk`` (record ``x``: ``L`` hops, ``M`` flits, ``ej`` its
    ejection VC granted) takes a flit in cycle ``t`` that is its message's header (``head``) or tail (``tail``): the
    tail entering the injection VC lets the source start its next message; the tail leaving a VC releases it
    (:func:`_release`); the tail reaching the ejection VC delivers the message (:func:`_deliver`) and frees the
    worm; a header entering a VC joins the pending list (``lists.pend``, routed ``cfg.r`` cycles later); a tail
    entering a VC ends its wait (:func:`_unwait`, ``x.t0`` past it) and, in the window, adds the message's flits
    to its network channel's count (:func:`window_flits`).  A body flit's move has no consequence beyond the counts,
    which the traversals keep.  Both traversals call it.  ``(nsolo, npend, done)``: the lengths of ``lists.solo``
    and ``lists.pend``, and whether the worm was delivered."""
    hop = wr.hop
    h = hop[s]
    if j == 0:  # the injection VC
        if tail:  # the tail enters: the source may start its next message
            node[msg[x.m].src].writing -= 1
    else:
        if tail:  # the tail leaves the VC behind
            _release(hop[s - np.uint64(1)].vc, vo, chan, node, hist.nch)
        if ej and j == L - 1:  # the ejection VC
            if tail:
                a = lists.arb[uidx(h.ch)]
                nsolo = _unwait(a, np.int64(h.vc) - a.base, lists, nsolo)
                _deliver(h.vc, t, chan[uidx(h.ch)], vo, node, msg, tags, sc, measuring)
                x.next = sc.wfree
                sc.wfree = wk
                return nsolo, npend, True
            return nsolo, npend, False
        if tail and measuring:
            hist.flits[uidx(h.ch)] += M
    if head:  # the header enters: routed R cycles from now
        b = np.int64(h.vc)
        xo = vo[uidx(b)]
        xo.hdrt = t + cfg.r
        xo.seen = -1
        lists.pend[uidx(npend)] = b
        npend += 1
        # fetch its routing-table entries, and what its routing attempt reads next on its first minimal port (none
        # at its destination): the records of that channel's first and last VC, of the channel and of its
        # arbitration (hints only: the attempt, ``cfg.r`` cycles later, may take another port)
        idx = xo.router * cfg.n + msg[xo.owner].dest
        prefetch(net.route, idx)
        prefetch(net.minp, idx * cfg.p)
        p0 = np.int64(net.minp[uidx(idx * cfg.p)])
        if p0 >= 0:
            ch0 = np.int64(net.pchan[uidx(np.int64(xo.router) * cfg.p + p0)])
            vb = np.int64(lists.vbase[uidx(ch0)])
            prefetch(vo, vb)
            prefetch(vo, vb + cfg.v - 1)
            prefetch(chan, ch0)
            prefetch(lists.arb, ch0)
    if tail:  # the tail: this VC takes no more flits
        if CHECKS:
            assert j == x.t0
        a = lists.arb[uidx(h.ch)]
        nsolo = _unwait(a, np.int64(h.vc) - a.base, lists, nsolo)
        x.t0 = j + 1
    return nsolo, npend, False


@njit(cache=CACHE)
def window_flits(cfg, vc, vo, chan, wr, flits, sign):
    """Add ``sign`` times the flits that have entered each held network VC whose tail has not, per channel, to
    ``flits``.  The traversals count a network channel's flits in the window by messages: a tail entering a
    network VC in the window adds the message's ``M`` flits (:func:`_move`); so the run subtracts what had
    entered the VCs the tails had not when the window opened (``sign = -1``, :func:`run`), and the flits that
    entered VCs the tails have not by the end are added when the result is read (``+1``, on a copy).  The same
    count as one flit at a time, without a memory write per flit."""
    for ch in range(chan.size):
        c = chan[ch]
        if c.typ != CT_NET:
            continue
        for k in range(c.nvc):
            b = c.base + k
            if vo[b].owner < 0:
                continue
            w = np.int64(vc[b].worm)
            j = np.int64(vc[b].hop)
            if j >= wr.rec[w].t0:
                flits[ch] += sign * _count(w, j, cfg, wr)


@njit(cache=CACHE, inline="always")
def _ready_word(pl, pb, K, B, t0, L, n0, M):
    """The hops ``t0 .. L-1`` of a worm that can take a flit, as bits (:func:`_ready`, a word at a time): a flit
    waits upstream (the hop behind holds one: a bit of any of its ``K`` occupancy planes from ``pl[pb]``; hop 0's
    is the PE, which holds one while fewer than ``M`` flits entered hop 0, ``n0``) and the hop's buffer holds
    fewer than ``B`` (its planes do not spell ``B``; if ``B`` is a power of two, ``2 ** (K - 1)``, its top plane is
    not set: a buffer never holds more than ``B``)."""
    ne = np.int64(0)
    full = np.int64(-1)
    if B & (B - 1) == 0:
        for k in range(KFIX):  # a constant count, which the compiler unrolls (the planes past ``cfg.kb`` are 0)
            ne |= pl[uidx(pb + k)]
        for k in range(KFIX, K):  # buffers of 16 flits or more
            ne |= pl[uidx(pb + k)]
        full = pl[uidx(pb + K - 1)]
    else:
        for k in range(KFIX):
            ne, full = _plane_read(pl[uidx(pb + k)], k, B, ne, full)
        for k in range(KFIX, K):
            ne, full = _plane_read(pl[uidx(pb + k)], k, B, ne, full)
    return _ready_bits(ne, full, t0, L, n0, M)


@njit(cache=CACHE, inline="always")
def _plane_read(p, k, B, ne, full):
    """Plane ``p`` (bit ``k`` of a worm's buffer occupancies) read into the hops whose buffers hold a flit (``ne``)
    and those that may hold ``B`` (``full``)."""
    return ne | p, full & (p if (B >> k) & 1 else ~p)


@njit(cache=CACHE, inline="always")
def _plane_move(pl, i, carry, borrow, held, left):
    """Plane ``pl[i]`` of a worm's occupancies takes the moves, bit-sliced: ``carry`` the hops one larger,
    ``borrow`` one smaller, in this plane's bit; ``(carry, borrow)`` into the next plane and the hops whose buffers
    held a flit before (``held``) and after (``left``)."""
    p = pl[i]
    q = p ^ (carry | borrow)
    pl[i] = q
    return carry & p, borrow & ~p, held | p, left | q


@njit(cache=CACHE, inline="always")
def _plane_add(pl, i, k, B, carry, borrow, held, left, full):
    """:func:`_plane_move` for plane ``k``, and the hops that may hold ``B`` after it (``full``)."""
    carry, borrow, held, left = _plane_move(pl, i, carry, borrow, held, left)
    q = pl[i]
    return carry, borrow, held, left, full & (q if (B >> k) & 1 else ~q)


@njit(cache=CACHE, inline="always")
def _ready_bits(ne, full, t0, L, n0, M):
    """:func:`_ready_word` from the hops whose buffers hold a flit (``ne``) and those that hold ``B`` (``full``)."""
    one = np.int64(1)
    up = (ne << 1) | np.int64((t0 == 0) & (n0 < M))
    return up & ~full & ((one << L) - 1) & ~((one << t0) - 1)


@njit(cache=CACHE, inline="always")
def _advance(t, cfg, net, vo, chan, msg, node, lists, tags, hist, sc, wr):
    """4b. Link traversal, worm by worm (``lists.worms``, compacted in the same pass), a word at a time: a worm's
    hops that can take a flit (:func:`_ready_bits`, from what its occupancy planes say at the start of the cycle,
    the record's ``ne`` and ``full``: a checked build reads the planes too, :func:`_ready_word`) and are
    alone on their channel (``S``) or chosen by the arbitration (``C``) each move one flit; the planes take the
    moves (+1 in the hop's buffer, -1 in the one behind, bit-sliced), a popcount counts them, and only a header's
    and a tail's are visited one by one (:func:`_move`), found from the planes and hop 0's count; the readiness
    bits of its contended VCs whose readiness the moves changed flip (a contended VC's bit holds its readiness at
    the start of the cycle, :func:`_check`).  The visits and the flips are listed in the pass and done after it
    (no test per worm, which would mispredict): neither reads what the pass writes, nor the pass what they write.
    A delivered worm leaves the list; so does a worm none of whose hops was ready: its counts did not change, so
    none will be until its header is granted a VC (:func:`_vc_allocation` wakes it).  The same moves as
    :func:`_advance_hops`'s.  ``(moved, solo)``: whether a flit moved, the length of ``lists.solo``."""
    worms = lists.worms
    arb = lists.arb
    hop = wr.hop
    pl = wr.pl
    B = np.int64(cfg.b)
    K = cfg.kb
    lw = cfg.lw
    npend = sc.npend
    measuring = sc.phase == MEASURE
    moved = False
    hops = 0
    visits = 0
    nsolo = 0
    one = np.int64(1)
    nw = sc.nworm
    if CHECKS and t & 1:
        _reverse(worms, nw)
    kept = 0
    flips = lists.flips
    nflip = 0
    moves = lists.moves
    nmove = 0
    for i in range(nw):
        wk = np.int64(worms[uidx(i)])
        x = wr.rec[uidx(wk)]
        L = np.int64(x.L)
        t0 = np.int64(x.t0)
        M = np.int64(x.len)
        ej = np.int64(x.ej)
        hb = wk * lw + 1  # hop j's slot is hb + j
        pb = wk * NPL
        visits += L - t0
        n0 = np.int64(hop[uidx(hb)].n)
        ready = _ready_bits(np.int64(x.ne), np.int64(x.full), t0, L, n0, M)  # at the start of the cycle
        if CHECKS:  # what the record says of the planes is what they say
            assert ready == _ready_word(pl, pb, K, B, t0, L, n0, M)
        S = np.int64(x.S)
        mv = ready & (S | np.int64(x.C))
        if CHECKS:
            assert np.int64(x.C) & ~ready == 0  # the arbitration chose a ready VC
        x.C = 0
        if mv == 0:
            if ready != 0:
                worms[uidx(kept)] = wk
                kept += 1
            else:
                x.sleep = 1
            continue
        moved = True
        # the buffers' occupancies: +1 where a flit entered (not the ejection VC: the PE is its sink), -1 where one
        # left (the hop behind a move); bit-sliced, one plane at a time
        inc = mv & ~(ej << (L - 1))
        dec = mv >> 1
        carry = inc & ~dec
        borrow = dec & ~inc
        held = np.int64(0)  # the hops whose buffers held a flit before the moves
        left = np.int64(0)  # ... and after them
        full = np.int64(-1)  # ... and those that hold B after them
        if B & (B - 1) == 0:  # B = 2 ** (K - 1): the hops whose top plane is set (as in :func:`_ready_word`)
            for k in range(KFIX):  # unrolled, as in :func:`_ready_word`
                carry, borrow, held, left = _plane_move(pl, uidx(pb + k), carry, borrow, held, left)
            for k in range(KFIX, K):
                carry, borrow, held, left = _plane_move(pl, uidx(pb + k), carry, borrow, held, left)
            full = pl[uidx(pb + K - 1)]
        else:
            for k in range(KFIX):
                carry, borrow, held, left, full = _plane_add(pl, uidx(pb + k), k, B, carry, borrow, held, left, full)
            for k in range(KFIX, K):
                carry, borrow, held, left, full = _plane_add(pl, uidx(pb + k), k, B, carry, borrow, held, left, full)
        x.ne = left
        x.full = full
        # a move across a network or ejection channel is a flit-hop (every hop but 0)
        body = mv & ~one
        hops += popcount(body)
        # the moves with consequences beyond the counts (:func:`_move`), as bits: a header's and a tail's.  Into
        # hop 0, from its count ``n0`` (kept); into hop t0 > 0, the tail's if the move empties hop t0 - 1's buffer
        # (the flits not yet past that hop are its buffer's); into the head hop, the header's if its buffer was
        # empty (no hop is past it; not the ejection VC, whose PE takes the header)
        tl = (mv & (one << t0) & ~(left << 1)) if t0 > 0 else np.int64(0)
        hd = mv & (one << (L - 1)) & ~held & ~(ej << (L - 1)) & ~one
        m0 = mv & one  # (no test: it would mispredict)
        h0 = hop[uidx(hb)]
        n1 = np.int64(h0.n) + m0
        h0.n = np.int32(n1)
        hd |= m0 & np.int64(n1 == 1)
        tl |= m0 & np.int64(n1 == M)
        # visited after the pass (every worm listed, kept by advancing the length: a test would mispredict)
        moves[uidx(3 * nmove)] = wk
        moves[uidx(3 * nmove + 1)] = hd
        moves[uidx(3 * nmove + 2)] = tl
        nmove += (tl | hd) != 0
        if CHECKS:
            assert tl == 0 or tl == one << t0  # a tail moves into the first hop that waits for a flit
        if ej & (tl >> (L - 1)):  # the tail reaches the ejection VC: the worm is delivered
            continue
        # the readiness bits of its contended VCs whose readiness the moves changed (the others' bits hold it),
        # flipped after the pass (listed like the moves)
        t1 = t0 + (tl != 0)  # the first hop that waits for a flit after the moves
        con = ((one << L) - 1) & ~((one << t1) - 1) & ~S
        flip = (_ready_bits(left, full, t1, L, n1, M) ^ ready) & con
        flips[uidx(2 * nflip)] = hb
        flips[uidx(2 * nflip + 1)] = flip
        nflip += flip != 0
        worms[uidx(kept)] = wk
        kept += 1
    for i in range(nmove):  # in any order: each has its own hop (a worm's events are one of each at most)
        wk = moves[uidx(3 * i)]
        hd = moves[uidx(3 * i + 1)]
        tl = moves[uidx(3 * i + 2)]
        x = wr.rec[uidx(wk)]
        hb = wk * lw + 1
        sp = hd | tl
        while sp != 0:
            j = ctz(sp)
            sp &= sp - 1
            nsolo, npend, _ = _move(t, j, uidx(hb + j), wk, x, np.int64(x.L), np.int64(x.len), np.int64(x.ej),
                                    ((hd >> j) & 1) != 0, ((tl >> j) & 1) != 0, cfg, net, vo, chan, msg, node,
                                    lists, tags, hist, sc, wr, measuring, nsolo, npend)
    for i in range(nflip):
        hb = flips[uidx(2 * i)]
        flip = flips[uidx(2 * i + 1)]
        while flip != 0:
            j = ctz(flip)
            flip &= flip - 1
            h = hop[uidx(hb + j)]
            a = arb[uidx(h.ch)]
            a.rdy = np.int32(np.int64(a.rdy) ^ (one << (np.int64(h.vc) - a.base)))
    sc.nworm = kept
    sc.npend = npend
    sc.vc_visits += visits
    sc.flithops += hops
    return moved, nsolo


@njit(cache=CACHE, inline="always")
def _advance_hops(t, cfg, net, vo, chan, msg, node, lists, tags, hist, sc, wr):
    """4b. Link traversal, hop by hop (:func:`_advance`'s moves, for networks whose paths do not fit its words;
    the tests' reference): each worm of ``lists.worms`` (compacted in the same pass) visits its hops that wait for
    a flit, from the head back to ``t0``, and each moves one flit (:func:`_move`) if its VC is alone on its channel
    and ready (:func:`_ready`, from the counts at the start of the cycle: the hop behind has not moved yet, and the
    hop ahead's old count is carried from the step before), or if the arbitration chose it (``go == t``).  Then
    the readiness bits of its contended VCs, from the counts the cycle leaves.  A delivered worm leaves the list;
    so does a worm none of whose hops was ready.  ``(moved, solo)``: whether a flit moved, the length of
    ``lists.solo``."""
    worms = lists.worms
    hop = wr.hop
    B = cfg.b
    lw = cfg.lw
    npend = sc.npend
    measuring = sc.phase == MEASURE
    moved = False
    hops = 0
    visits = 0
    nsolo = 0
    nw = sc.nworm
    if CHECKS and t & 1:
        _reverse(worms, nw)
    kept = 0
    for i in range(nw):
        wk = np.int64(worms[uidx(i)])
        x = wr.rec[uidx(wk)]
        L = np.int64(x.L)
        t0 = np.int64(x.t0)
        M = np.int64(x.len)
        ej = np.int64(x.ej)
        hb = wk * lw + 1  # hop j's slot is hb + j
        visits += L - t0
        ahead = np.int64(hop[uidx(hb + L)].n)
        n = np.int64(hop[uidx(hb + L - 1)].n)
        anyready = False
        contended = False
        done = False
        for j in range(L - 1, t0 - 1, -1):
            s = uidx(hb + j)
            up = np.int64(hop[s - np.uint64(1)].n)
            h = hop[s]
            g = np.int64(h.go)
            ready = _ready(up, n, ahead, B)
            anyready |= ready
            contended |= g != SOLO
            ahead = n
            n = up
            if not ((ready & (g == SOLO)) | (g == t)):
                continue
            moved = True
            n1 = np.int64(h.n) + 1
            h.n = np.int32(n1)
            if j > 0:
                hops += 1
            nsolo, npend, d = _move(t, j, s, wk, x, L, M, ej, n1 == 1, n1 == M, cfg, net, vo, chan, msg, node, lists,
                                    tags, hist, sc, wr, measuring, nsolo, npend)
            done |= d
        if done:
            continue
        if contended:  # the readiness bits of its contended VCs, from the counts the cycle leaves
            for j in range(x.t0, L):
                s = uidx(hb + j)
                h = hop[s]
                if h.go == SOLO:
                    continue
                a = lists.arb[uidx(h.ch)]
                bit = np.int64(1) << (np.int64(h.vc) - a.base)
                rdy = np.int64(a.rdy) & ~bit
                if _ready(np.int64(hop[s - np.uint64(1)].n), np.int64(h.n), np.int64(hop[s + np.uint64(1)].n), B):
                    rdy |= bit
                a.rdy = np.int32(rdy)
        if anyready:
            worms[uidx(kept)] = wk
            kept += 1
        else:
            x.sleep = 1
    sc.nworm = kept
    sc.npend = npend
    sc.vc_visits += visits
    sc.flithops += hops
    return moved, nsolo


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
def _traversal(t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc, wr):
    """4. Switch / link traversal: every channel moves at most one flit, round-robin among its ready VCs.  The
    contended channels are arbitrated first (:func:`_arbitration`), then every worm moves the flits its hops
    may (:func:`_advance`); a VC left alone on its channel becomes :data:`SOLO` at the end (``sn0``: its
    count then).  The headers that crossed join the pending list in the order of their VC numbers
    (:func:`_sort_new`), not in the order the worms were visited: so the pending list is in the order (cycle
    the header arrived, VC), and no result depends on the order of the work lists.  Whether a flit moved."""
    npend = sc.npend
    _arbitration(t, cfg, vc, chan, lists, wr, sc)
    if cfg.masks:
        moved, nsolo = _advance(t, cfg, net, vo, chan, msg, node, lists, tags, hist, sc, wr)
    else:
        moved, nsolo = _advance_hops(t, cfg, net, vo, chan, msg, node, lists, tags, hist, sc, wr)
    for i in range(nsolo):
        b = lists.solo[uidx(i)]
        v = vc[uidx(b)]
        _set_solo(np.int64(v.worm), np.int64(v.hop), True, cfg, wr)
        chan[uidx(vo[uidx(b)].chan)].sn0 = _count(np.int64(v.worm), np.int64(v.hop), cfg, wr)
    _sort_new(lists.pend, npend, sc.npend)
    return moved


@njit(cache=CACHE, inline="always")
def _check(cfg, vc, vo, chan, lists, hist, sc, wr):
    """The invariants of the state between two cycles (``CHECKS`` only; O(VCs) per cycle): a VC is held by a
    message iff it counts in its channel's ``busy``, and is the hop of the message's worm it names; a
    channel's ``want`` bits are its held VCs whose tail has not entered; a waiting VC is :data:`SOLO` iff it is
    its channel's only one, and a channel with two or more is on the contended list; a VC holds at most
    ``cfg.b`` flits (the ejection "buffer" is the PE) and no more than its message's; the histogram of
    network channels by busy VCs counts every network channel once; the worms are the messages in the
    network; messages in the network <= in the system."""
    nchan = chan.size
    net_channels = 0
    lw = cfg.lw
    for ch in range(nchan):
        c = chan[ch]
        held = 0
        want = 0
        for j in range(c.nvc):
            b = c.base + j
            if vo[b].owner >= 0:
                held += 1
                w = vc[b].worm
                k = vc[b].hop
                x = wr.rec[w]
                s = w * lw + k + 1
                h = wr.hop[s]
                assert x.m == vo[b].owner and h.vc == b and h.ch == ch and 0 <= k < x.L
                up = _count(w, k - 1, cfg, wr)
                n = _count(w, k, cfg, wr)
                out = _count(w, k + 1, cfg, wr)
                assert (up == BIG) == (k == 0) and (out == BIG) == (c.typ == CT_EJ)
                assert c.typ == CT_EJ or 0 <= out <= n <= x.len
                assert c.typ == CT_EJ or n - out <= cfg.b
                if cfg.masks:  # the occupancy planes hold the counts
                    occ = 0
                    for q in range(cfg.kb):
                        occ |= ((wr.pl[w * NPL + q] >> k) & 1) << q
                    assert occ == (0 if c.typ == CT_EJ else n - out)
                if n < x.len:
                    want |= 1 << j
                    assert k >= x.t0
                    assert x.sleep == 0 or not _ready(up, n, out, cfg.b)  # a worm asleep has no hop ready
        assert held == c.busy
        assert want == lists.arb[ch].want
        if want != 0:
            for j in range(c.nvc):
                if (want >> j) & 1:
                    v = vc[c.base + j]
                    sv = v.worm * lw + v.hop + 1
                    if cfg.masks:
                        solo = (wr.rec[v.worm].S >> v.hop) & 1
                    else:
                        solo = 1 if wr.hop[sv].go == SOLO else 0
                    assert (solo == 1) == (want & (want - 1) == 0)
                    if solo == 0:  # a contended VC's readiness bit is its readiness at the start of the next cycle
                        vw = np.int64(v.worm)
                        vj = np.int64(v.hop)
                        r = _ready(_count(vw, vj - 1, cfg, wr), _count(vw, vj, cfg, wr), _count(vw, vj + 1, cfg, wr),
                                   cfg.b)
                        assert ((lists.arb[ch].rdy >> j) & 1) == r
        if want & (want - 1) != 0:
            assert c.incon == 1
        if c.typ == CT_NET:
            net_channels += 1
    on = 0
    for i in range(sc.ncon):
        assert chan[lists.con[i]].incon == 1
    for ch in range(nchan):
        on += chan[ch].incon
    assert on == sc.ncon
    total = 0
    for v in range(hist.nch.size):
        assert hist.nch[v] >= 0
        total += hist.nch[v]
    assert total == net_channels
    awake = 0
    for i in range(sc.nworm):
        assert wr.rec[lists.worms[i]].sleep == 0
        awake += 1
    asleep = 0
    for w in range(wr.rec.size):
        asleep += wr.rec[w].sleep
    assert awake + asleep <= sc.innet
    assert 0 <= sc.innet <= sc.insys


# ----------------------------------------------------------------- the cycle loop
@njit(cache=CACHE, _nrt=False)
def run(cfg, net, vc, vo, chan, msg, node, lists, mm, tags, hist, sc_arr, rng, wr):
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
        _injection(t, cfg, sc, vc, vo, chan, msg, node, lists, wr)
        if PROFILE:
            c0 = clock()
            sc.clk_injection += c0 - c1
        _vc_allocation(t, cfg, net, vc, vo, chan, msg, node, lists, hist.nch, rng, sc, wr)
        if PROFILE:
            c1 = clock()
            sc.clk_vc_allocation += c1 - c0
        moved = _traversal(t, cfg, net, vc, vo, chan, msg, node, lists, tags, hist, sc, wr)
        if PROFILE:
            c0 = clock()
            sc.clk_traversal += c0 - c1
        if CHECKS:
            _check(cfg, vc, vo, chan, lists, hist, sc, wr)
        opened = sc.phase != MEASURE
        status = close_cycle(t, moved, sc.deliv >= cfg.warmup, sc, cfg, hist.nch, hist.acc)
        if opened and sc.phase == MEASURE:  # the window opens: the flits already in (:func:`window_flits`)
            window_flits(cfg, vc, vo, chan, wr, hist.flits, -1)
        if status != RUNNING:
            return status
        if sc.phase == MEASURE and all_measured(sc, tags.done):
            return DONE
        if PROFILE:
            c1 = clock()
            sc.clk_bookkeeping += c1 - c0
            c0 = c1
    return RUNNING if sc.t >= sc.chunk_end else MAXCYCLES  # RUNNING: the wrapper calls again
