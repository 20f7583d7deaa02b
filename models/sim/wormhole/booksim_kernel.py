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
    flit sent, and the credit that comes back for it, then touch only the sender's row.  A buffer
    is counted, not stored flit by flit: its flits are the rest of the front message (``FM``, its flits
    still to leave ``LEFT``) and the first flits of the messages behind it, whose numbers wait in the
    VC's message ring (``buf``, from ``mqh``, ``mqn`` of them), written when their header enters and
    read when the message ahead has left; so a flit entering or leaving a buffer reads and writes the
    VC's row only.  Beside the rows: ``nmsg`` (messages holding the VC: the VC-busy histogram),
    ``inuse`` (allocated to a message: dense, for the routing function's scans) and ``tsent`` (its
    tail sent, waiting for the tail's credit: ``wait_for_tail_credit``).
``va``      (:data:`VcAlloc`) the VC allocator: the routed headers waiting for a VC (``pend``,
    flagged in ``onlist``) and, per router, those asleep until one of its VCs is freed (none they may take is free),
    iSLIP pointers and ranks of the input / output VCs, and its scratch.
``sw``      (:data:`SwAlloc`) the switch allocator: the switch list (every active VC with a flit at its front and a
    credit, but the lone ones), held from cycle to cycle as iSLIP's bit masks (``vcm``, ``og``, the output channels
    requested ``oreq``), which a VC's bits join and leave as it does, the lone list
    (``lone``: the active VCs alone at both their ports), per channel its iSLIP pointers in the records
    ``ch`` (:data:`CH`), its active input VCs and held output VCs (``nact``, ``nheld``), and its scratch.
``sources`` (:data:`Sources`) per node: the FIFO source queue (threaded through ``msg.next``),
    the message being written into the injection channel and BookSim's ``_last_vc``; the nodes
    with a newly queued message (``qlist``) and the active sources (``act``).
``msg``     (:data:`Msgs`) per message slot (``next`` threads the free list and the source queues).
``ev``      (:data:`Events`) the event ring, :data:`NSLOT` slots of flits entering a buffer or a
    terminal (each with the VC it left: its credit) and of the terminals' credits (where they are sent:
    :data:`EJ_FLOOR`).
``tags``    (:data:`.steps.Tags`) per measured message: latency, network latency, source wait,
    hops, done flag.
``hist``    (:data:`Hist`) network channels by number of busy VCs, its time integral, busy VCs
    per channel.
``batches`` (:data:`Batches`) messages delivered and flits ejected per batch (throughput mode).
``mm``      (:data:`.steps.Mmpp`) the MMPP(2) modulating chains of the nodes.
``sc``      one record (:data:`SCALARS`): the clock, counters, accumulators and the two
    parameters the wrapper moves between calls (``chunk_end``, ``target``).

Like :mod:`.kernel`, the kernel is compiled without numba's reference counting
(``_nrt=False``).

One cycle ``t``, each phase an inlined function of the same name (:func:`run` lists them):

A. events (:func:`_events`) due at ``t``: credits (credits in use ``- 1``; with ``wait_for_tail_credit``
   the tail's credit frees the VC; the input VC holding the credited VC is
   put back on the switch list if it slept for lack of a credit), flits entering an input
   buffer (a head at an idle VC starts routing: VC allocation from ``t + 1``;
   the front flit of an active VC may be switch-allocated at ``t``), flits
   reaching a terminal (a tail completes its message);
B. generation (:func:`_generation`) into the source queues;
C. injection (:func:`_injection`): each source writes at most one flit of its current message into
   its injection channel (arrival at the router at ``t + 2``);
D. VC allocation (:func:`_vc_allocation`): iSLIP (:func:`_offer`), one iteration, over (input VC, output VC) requests;
   a winner becomes active and may bid for the switch from ``t + 1``; a header with nothing to request sleeps until
   a VC of its router is freed (:func:`_wake`);
E. switch allocation (:func:`_switch_allocation`): per input port one request per output port (the VC
   first in round-robin order from the port's offset), then iSLIP, one
   iteration, over (input port, output port); a winner's flit leaves its
   buffer (credit upstream at ``t + 2``), enters the next buffer at ``t + 3``
   (a terminal at ``t + 3``, whose credit A then sends back, due at ``t + 5``, unless no send can wait for one:
   :data:`EJ_FLOOR`) (:func:`_send`).  A VC alone at both
   its ports (the only active VC of its input channel, the only held VC of its output channel), which would win
   whenever it bid, is not on the switch list but on the lone list, whose VCs send whenever they have a flit and a
   credit (:func:`_lone_sends`);
F. bookkeeping (:func:`_bookkeeping`): the window's time averages, the deadlock,
   saturation and stop tests.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

# the status codes, phase and length kinds, and the steps both kernels share (:mod:`.steps`)
from .steps import (CACHE, CHECKS, DONE, MAXCYCLES, MEASURE, PROFILE, clock,  # noqa: F401 (the wrapper reads the codes here)
                    RUNNING, SATURATED, all_measured, allowed, arrival, close_cycle, count_delivered, count_new,
                    draw_message, list_free, prefetch, state_after, uidx)
from .routing import KIND_FIXED_ESCAPE

NSLOT = 8  # event ring (largest delay is 5 cycles)
MASK = np.int64(0xFFFFFFFF)  # the low half of a packed ``key << 32 | index`` (events, iSLIP records)
#: where an ejection VC's credit count starts when the terminals send no credits back (``Config.ejcr = 0``).  A
#: terminal reads a flit as it arrives, so a flit sent at ``t`` holds a credit of its ejection VC until ``t + 5``, and
#: at most 4 are in use when its holder sends: with a depth of 5 or more and ``wait_for_tail_credit = 0`` no send
#: waits for one and nothing else reads the count.  So the terminals' credits (a sixth of all at 8x8) are not sent,
#: and the count only grows from here: below 0 for ``2 ** 30`` flits (a run of fewer cycles: one flit a cycle at
#: most).  A checked build still sends them, and asserts the count less this floor within the depth.
EJ_FLOOR = -(1 << 30)
ONE = np.int64(1) << 32  # one VC more in a channel's ``count << 32 | XOR`` word (``sw.nact``, ``sw.nheld``)

# run modes: until ``target`` measured messages are delivered (:func:`.booksim.simulate_booksim`), or a
# fixed window of ``runcyc`` cycles counted in ``nbatch`` batches (:func:`.booksim.run_booksim_cycles`)
RUN_MESSAGES, RUN_CYCLES = 0, 1

# the routing decode (``cfg.rule``): the shared one of :func:`.steps.allowed` (the project's routing
# functions, and ``dor`` with the per-hop dateline halves, ``vc_partition='hop'``), or one of BookSim's
# own (:func:`_bs_allowed`): ``dor`` on a bidirectional torus with dim_order_torus's ring partition
# (``vc_partition='entry'``), or min_adapt_torus
RULE_SHARED, RULE_ENTRY, RULE_MIN_ADAPT = 0, 1, 2

# a VC's state as a buffer (its ``VS_ST``): idle, its front header routing / in VC allocation, active
# (holding an output VC until its tail is sent)
ST_IDLE, ST_ROUTING, ST_ACTIVE = 0, 1, 2
# a VC's ``VS_ONSW``: on neither list, on the switch list (or given an output VC in an earlier cycle and going on it),
# on the lone list (alone at both its ports), given an output VC in this cycle (which list it joins is decided when
# the cycle's switch allocation ends)
OFF_LIST, ON_LIST, ON_LONE, ON_NEW = 0, 1, 2, 3

_i4, _i8, _f8 = np.int32, np.int64, np.float64

# per-VC state: one 64-byte row of ``vcs.vs`` (int32) per VC (a cache line: the wrapper aligns ``vs``),
# so that everything a flit's path reads about a VC is in its own row (cycle numbers fit: the
# wrapper keeps max_cycles below 2**31 - 16).  Input side (the VC as a buffer): ST state (ST_*),
# CNT its flits, FM the front message (its slot; the one of the header that last entered the idle VC, then of the
# first in its message ring each time a tail leaves) and LEFT ``2 l + h``, its flits still to leave ``l`` and
# whether none has left yet ``h`` (the next flit to leave is a header if ``h``, the tail if ``l == 1``), FROM the
# first cycle its routed header may request a VC, OUT the output VC it holds
# while active (-1 otherwise), OCCO the credits in use of OUT (kept here, not in OUT's row, while it holds OUT),
# OUTCH / OUTPORT OUT's channel and output port; static: CHAN, IDX (index in the channel), INPORT
# (input port of CHAN).  Output side (the VC as seen from upstream): OCC credits in use while no
# input VC holds it, LOC the address in ``vs`` of its count (``h * NVS + OCCO`` while input VC ``h`` holds it, else
# its own ``OCC``: the holder is ``LOC // NVS`` if ``LOC % NVS == OCCO``, :func:`_holder`), NFL the flits that entered
# its buffer while measuring (network VCs: the per-VC split of ``ch.flits``, 3 cycles later: counted where the row is
# written anyway).  And ONSW: which list the VC is on (``ON_LIST``: the switch list, its bits set in the switch
# allocator's masks, :func:`_sw_join`; ``ON_LONE``: the lone list; ``ON_NEW``: in ``sw.new``, given an output VC in this
# cycle),
# the flag that keeps a flit's arrival or a credit from putting a VC on the switch list twice or a lone VC on it at
# all.  Field offsets into an int32 array rather than a structured dtype: the loop computes one row offset
# ``b * NVS`` and indexes from it.
(VS_OCCO, VS_FM, VS_ONSW, VS_FROM, VS_OUT, VS_OCC, VS_CHAN, VS_LOC, VS_CNT, VS_OUTCH, VS_OUTPORT,
 VS_IDX, VS_INPORT, VS_LEFT, VS_NFL, VS_ST) = range(16)
NVS = 16
# a credit decrements the count at its VC's ``LOC``: ``OCCO`` of the holder's row or ``OCC`` of the VC's own; the same
# step from there reads the holder's ``ONSW`` or the VC's ``LOC`` (an address past ``OCC``, never ``OFF_LIST``), so
# that the test of whether the credit wakes a holder needs no test of which kind it is (:func:`_events`), and the step
# to ``CNT`` stays in the row
assert VS_OCCO == 0 and VS_ONSW - VS_OCCO == VS_LOC - VS_OCC and VS_OCC > 0 and VS_OCC + VS_CNT - VS_OCCO < NVS
#: per channel, in switch allocation (16 bytes: one array for all of it, so the loop keeps one more
#: address in a register, and a power of two, so that a record's address is a shift): as an input channel, its iSLIP
#: accept pointer ``a`` and VC round-robin offset ``rr``; as an output channel, its iSLIP grant pointer ``g`` and the
#: flits sent on it in the window ``flits`` (no send counts them: :func:`close_window` computes them when the run ends,
#: from its VCs' ``NFL``) and, while one of its input ports requests it, its position ``pos`` in ``sw.oreq``.  Each
#: pointer is kept as the position it last moved past (the output port accepted, the VC chosen, the input port
#: granted), one *before* the round-robin pointer: a winner's send then stores a position it has already read, and an
#: arbiter reads ``last + 1`` (:func:`_first_from` takes it unwrapped); the wrapper starts each at the last
#: position, so that every pointer starts at 0
CH = np.dtype(dict(names=["a", "rr", "g", "flits", "pos"], formats=[np.int16, np.int16, np.int16, _i4, _i4],
                   offsets=[0, 2, 4, 8, 12], itemsize=16))

#: the run's mutable scalars: the clock and phase; messages delivered, tagged, in the system / network,
#: completed tags in order (``prefix``); cycles without a flit moving (``idle``); flit hops; network
#: flits (written by the wrapper when the run ends: the sum of ``sw.ch``'s ``flits``), deliveries,
#: generations and cycles in the window; the free list's head; entries of the
#: new-queue list, VC-allocation list, headers asleep (:func:`_wake`), switch list, lone list, output channels
#: requested (``sw.oreq``) and source list; generated messages; messages in the system
#: when the window opened; allocator requests; the wrapper's ``target`` and ``chunk_end``; the next
#: Poisson arrival; the time integral of the messages in the network over the window
SCALARS = np.dtype([
    ("t", _i8), ("phase", _i8), ("deliv", _i8), ("ntag", _i8), ("prefix", _i8), ("insys", _i8),
    ("innet", _i8), ("idle", _i8), ("flithops", _i8), ("netflits_w", _i8), ("deliv_w", _i8), ("gen_w", _i8),
    ("cyc_w", _i8), ("free", _i8), ("nq", _i8), ("nvca", _i8), ("nslp", _i8), ("nsw", _i8), ("nlone", _i8),
    ("nog", _i8), ("nsrc", _i8), ("gen", _i8),
    ("insys_w0", _i8), ("va_requests", _i8), ("sw_requests", _i8), ("target", _i8), ("chunk_end", _i8),
    ("nextarr", _f8), ("innet_acc", _f8),
    ("clk_events", _i8), ("clk_generation", _i8), ("clk_injection", _i8), ("clk_vc_allocation", _i8),
    ("clk_switch_allocation", _i8), ("clk_bookkeeping", _i8),
    ("clk_sw_islip", _i8), ("clk_sw_send", _i8), ("clk_sw_list", _i8), ("sw_contested", _i8),
], align=True)
#: the phases A-F whose processor cycles a profiled build (``steps.PROFILE``) sums, the fields of :data:`SCALARS`
PHASES = ("events", "generation", "injection", "vc_allocation", "switch_allocation", "bookkeeping")
#: the steps of phase E (:func:`_switch_allocation`) whose processor cycles a profiled build also sums, the fields
#: ``clk_<step>`` (their sum is part of ``clk_switch_allocation``): iSLIP over the switch list's masks, the
#: winners' and the lone VCs' flits sent (:func:`_send`, the winners that leave the switch list dropped from its masks),
#: the VCs given an output VC in this cycle put on a list; the build also counts the candidates that go through iSLIP
#: (``sw_contested``: the switch list's, every cycle)
SWITCH_STEPS = ("sw_islip", "sw_send", "sw_list")

#: the run's parameters (read-only scalars): nodes, ports per router, VCs per network / injection port, buffer depth and
#: its ring's size ``2 ** lb`` (:func:`ring_bits`); routing kind (``KIND_*``), first adaptive VC, escape class present,
#: escape levels (Nbc), BookSim's ring half (``dor`` on a torus: ``v // 2``, else 0), the routing decode ``rule``
#: (``RULE_*``); traffic (``TRAFFIC_*``), length (``LENGTH_*``), fixed / mean message length ``M`` (flits) and the
#: geometric ``p``, offered load per node; warm-up messages, max cycles, saturation backlog, deadlock threshold; network
#: channels ``nchan``; random DOR ties, self traffic; VCs of the widest port ``w`` and of an ejection port ``vej``;
#: ``wait_for_tail_credit``; run mode (``RUN_*``) with its warm-up, window, batches and batch length ``blen`` (cycles);
#: ``ejcr``: the terminals send their credits back (0 where no send can wait for one: :data:`EJ_FLOOR`)
Config = namedtuple("Config", [
    "n", "p", "v", "b", "lb", "routing", "a0", "has_esc", "escape_levels", "half", "rule", "traffic", "length", "M",
    "geop", "rate", "warmup", "maxcyc", "satlim", "dlthresh", "nchan", "tie", "self_traffic", "w", "vej",
    "wtc", "mode", "warmcyc", "runcyc", "nbatch", "blen", "ejcr",
])
#: the routing tables (read-only): ``route``, ``minp``, ``chan_up``, ``pchan`` as in :data:`.kernel.Net`,
#: and ``label`` (N) the node colours of Nbc
Net = namedtuple("Net", ["route", "minp", "chan_up", "pchan", "label"])
#: static tables (read-only): per channel its first VC ``base`` (NCH), end nodes ``src`` / ``dst`` and
#: output port at ``src`` (``outport``, ``P`` for an ejection channel); per node its injection and
#: ejection channel (``inj``, ``ej``)
Chans = namedtuple("Chans", ["base", "src", "dst", "outport", "inj", "ej"])
#: per VC: the rows ``vs`` (``NVS`` int32 each, fields ``VS_*``), message rings ``buf`` (``2 ** lb`` per VC: the
#: slots of the messages behind the front one, in the order their headers entered; a buffer of ``B`` flits holds at
#: most ``B`` messages) with their first position ``mqh`` and length ``mqn``, ``nmsg`` the messages holding the VC
#: (granted it and their tail not yet out of its buffer; more than one when a message follows a tail into the
#: buffer: the VC-busy histogram), ``inuse`` (allocated), ``tsent`` (tail sent, its credit not back yet)
Vcs = namedtuple("Vcs", ["vs", "buf", "mqh", "mqn", "nmsg", "inuse", "tsent"])
#: the VC allocator: headers waiting for a VC (``pend``, ``onlist``); per VC its iSLIP rank as an input
#: (``li``: input port * W + VC index) and as an output (``lo``), grant pointer ``g`` (as an output),
#: accept pointer ``a`` (as an input); scratch: one header's requests ``rq``, the best grant per output
#: (``g_key``, packed as in :func:`_offer`, and the outputs with one, ``g_touch``: each offers itself to the input
#: it granted) and accept per input (``a_key``, ``a_touch``); the headers asleep (their VC allocation would request
#: nothing) per router, a list from ``shead`` (per node, -1: none) threaded through ``snext`` (per input VC)
VcAlloc = namedtuple("VcAlloc", ["pend", "onlist", "li", "lo", "g", "a", "rq", "g_key", "g_touch", "a_key",
                                 "a_touch", "shead", "snext"])
#: the switch allocator.  The switch list (the input VCs bidding in the next switch allocation; a VC on it, or in
#: ``new``, the VCs given an output VC in this cycle, has its row's ONSW set) is held as iSLIP's bit masks, from cycle
#: to cycle (0: no request; a pair ``(ch, port)`` is entry ``ch * (P + 1) + port``): per (input channel, output port)
#: the VCs bidding ``vcm`` (bit: the VC's index in its channel), per output channel the input ports requesting it ``og``
#: (the channels with a port set listed in ``oreq``, each at its record's ``pos``, :data:`CH`), and per (output
#: channel, input port) the input channel behind it ``ogc``: a VC sets its bits when it joins the list
#: (:func:`_sw_join`) and clears them when it leaves (:func:`_sw_drop`).  The lone list
#: ``lone`` (the VCs alone at both their ports, its entries' ONSW ``ON_LONE``; an entry that no longer is stays
#: until the list's next loop drops it, :func:`_lone_sends`), the per-channel records ``ch`` (:data:`CH`), per
#: channel its active VCs ``nact`` (as an input channel) and its VCs held by an input VC ``nheld`` (as an output
#: channel: a VC is alone at both its ports when both counts are 1, and they change only when a VC is given an output VC
#: and when a tail is sent), each a word ``count << 32 | XOR``: beside the count, the XOR of the VCs' numbers (of
#: their holders' for ``nheld``), which is the VC counted when the count is 1;
#: scratch: per input channel the output ports granting it ``ia`` (with ``ia_touch``), the winners ``gl`` (VCs),
#: those of them that leave the switch list ``lv`` and the lone VCs that send ``cl`` (VCs, :func:`_lone_sends`)
SwAlloc = namedtuple("SwAlloc", ["new", "lone", "ch", "nact", "nheld", "og", "ia", "vcm", "ogc", "oreq", "ia_touch",
                                 "gl", "cl", "lv"])
#: per node: source queue (``qhead``, ``qtail``, ``qlen``; ``inq`` on ``qlist``, the nodes with a new
#: message this cycle), active sources (``act``, ``onact``), the message being written (``cur_m``, -1:
#: none), its next flit ``cur_k`` and injection VC ``cur_vc``, the last injection VC used ``last_vc``
Sources = namedtuple("Sources", ["qhead", "qtail", "qlen", "inq", "qlist", "act", "onact", "cur_m", "cur_k",
                                 "cur_vc", "last_vc"])
#: per message slot: destination, length, generation and injection cycles, hops, tag (-1: not
#: measured), routing state (Nbc level / up*/down* phase ``UD_*`` / BookSim's ring partition ``f->ph``
#: of :func:`_bs_allowed`), next in its list, tie bits
Msgs = namedtuple("Msgs", ["dest", "len", "tgen", "tinj", "hops", "tag", "state", "next", "tie"])
#: the event ring, :data:`NSLOT` slots of ``NCH + 1`` entries: ``flit``, flits ``(fl << 32) | b`` entering an input
#: buffer (a list up from the slot's start, ``nflit`` entries) or a terminal (a list down from its end, ``neflit``; a
#: cycle's flits are at most ``NCH``: the spare entry takes the branch-free write of the list a flit is not kept in),
#: and ``credit`` (``ncredit`` entries up from a slot's start), the VCs credited in the slot's cycle: a flit sent at
#: ``t`` enters at ``t + 3`` and the credit for the VC it left is due at ``t + 2``; a terminal's credit for its
#: ejection VC is due two cycles after a flit reaches it, unless no send can wait for one (:data:`EJ_FLOOR`; a
#: cycle's credits are at most ``NCH``: one per network and ejection channel sent on, one per terminal).  One list for
#: both, so that phase A reads a cycle's credits in one loop
Events = namedtuple("Events", ["flit", "nflit", "neflit", "credit", "ncredit"])
#: network channels by number of busy VCs ``nch`` (V + 1), its time integral ``acc``, busy VCs per
#: channel ``nbusy``
Hist = namedtuple("Hist", ["nch", "acc", "nbusy"])
#: per batch of the throughput window: messages delivered, flits ejected
Batches = namedtuple("Batches", ["msgs", "flits"])


def ring_bits(B):
    """The size of a VC's message ring, ``2 ** ring_bits(B)``: the power of two not below its depth ``B`` (a ring
    position wraps by a mask)."""
    return int(B - 1).bit_length()


@njit(cache=CACHE, _nrt=False)
def _gen(u, t, rng, cfg, sc, msg, sources, tagcap):
    """A message generated at node ``u`` in cycle ``t`` joins the source queue (False: no slot)."""
    m = sc.free
    if m < 0:
        return False
    m_next = msg.next
    sc.free = m_next[m]
    d, M, tie = draw_message(u, rng, cfg)
    msg.dest[m] = d
    msg.len[m] = M
    msg.tgen[m] = t
    msg.hops[m] = 0
    msg.state[m] = 0
    m_next[m] = -1
    msg.tie[m] = tie
    msg.tag[m] = count_new(sc, tagcap, cfg.mode == RUN_MESSAGES)
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
    return True


@njit(cache=CACHE, inline="always")
def _holder(loc):
    """The input VC holding a VC whose ``LOC`` is ``loc`` (its credit count in that VC's ``OCCO``), -1 if none does."""
    return loc // NVS if loc % NVS == VS_OCCO else -1


@njit(cache=CACHE, inline="always")
def _hold(b, d, vs, nmsg, injb, c_nbusy, nch):
    """``d = +1``: a message takes VC ``b`` (header granted); ``-1``: its tail left ``b``'s buffer.
    A VC is busy while it holds a message (the ideal router's definition); network VCs are
    ``b < injb``."""
    n = nmsg[uidx(b)]
    nmsg[uidx(b)] = n + d
    if b < injb and (n == 0) != (n + d == 0):
        ch = vs[uidx(b * NVS + VS_CHAN)]
        k = c_nbusy[ch]
        nch[k] -= 1
        k += d
        c_nbusy[ch] = k
        nch[k] += 1


@njit(cache=CACHE, inline="always")
def _sw_join(b, n, nport, vs, sw, sc):
    """VC ``b`` (active, a flit at its front, a credit) joins the switch list, ``n`` VCs so far (returns ``n + 1``):
    its bits are set in the switch allocator's masks (:data:`SwAlloc`), its VC index in the mask of its (input
    channel, output port) pair and, if that was empty, its input port in its output channel's, which, if that was
    empty, joins the list of output channels requested (``sw.oreq``, ``sc.nog`` entries, each at its record's
    ``pos``)."""
    r = b * NVS
    vs[uidx(r + VS_ONSW)] = ON_LIST
    ich = vs[uidx(r + VS_CHAN)]
    s = ich * nport + vs[uidx(r + VS_OUTPORT)]
    x = sw.vcm[uidx(s)]
    sw.vcm[uidx(s)] = x | (np.int64(1) << vs[uidx(r + VS_IDX)])
    if x == 0:
        och = vs[uidx(r + VS_OUTCH)]
        ip = vs[uidx(r + VS_INPORT)]
        y = sw.og[uidx(och)]
        sw.og[uidx(och)] = y | (np.int64(1) << ip)
        sw.ogc[uidx(och * nport + ip)] = ich  # the input channel behind the output channel's bit ip
        if y == 0:
            k = sc.nog
            sw.oreq[uidx(k)] = och
            sw.ch[uidx(och)].pos = k
            sc.nog = k + 1
    return n + 1


@njit(cache=CACHE, inline="always")
def _sw_drop(b, nport, vs, sw, sc):
    """VC ``b`` leaves the switch list: its bits are cleared from the masks, as :func:`_sw_join` set them (an output
    channel no longer requested leaves ``sw.oreq``, the last entry taking its place).  The caller sets its flag."""
    r = b * NVS
    s = vs[uidx(r + VS_CHAN)] * nport + vs[uidx(r + VS_OUTPORT)]
    x = sw.vcm[uidx(s)] & ~(np.int64(1) << vs[uidx(r + VS_IDX)])
    sw.vcm[uidx(s)] = x
    if x == 0:
        och = vs[uidx(r + VS_OUTCH)]
        y = sw.og[uidx(och)] & ~(np.int64(1) << vs[uidx(r + VS_INPORT)])
        sw.og[uidx(och)] = y
        if y == 0:
            k = sw.ch[uidx(och)].pos
            n = sc.nog - 1
            last = sw.oreq[uidx(n)]
            sw.oreq[uidx(k)] = last
            sw.ch[uidx(last)].pos = k
            sc.nog = n


@njit(cache=CACHE, inline="always")
def _move_past(r, ich, och, vs, ch):
    """The iSLIP pointers move past the VC whose row starts at ``r`` (a winner of switch allocation, its input channel
    ``ich`` and output channel ``och``), each kept as the position it moved past (:data:`CH`): the output channel's
    grant pointer its input port, the input channel's accept pointer its output port and VC offset its index."""
    ch[uidx(och)].g = vs[uidx(r + VS_INPORT)]
    ch[uidx(ich)].a = vs[uidx(r + VS_OUTPORT)]
    ch[uidx(ich)].rr = vs[uidx(r + VS_IDX)]


@njit(cache=CACHE, inline="always")
def _vc_end(ch, chans, vs):
    """One past channel ``ch``'s last VC."""
    return chans.base[uidx(ch + 1)] if ch + 1 < chans.base.size else vs.size // NVS


@njit(cache=CACHE, inline="always")
def _enter_lone(x, vs, sw, nlone):
    """Active VC ``x`` is now alone at both its ports (the only active VC of its input channel, the only held VC of
    its output channel), so that switch allocation has one outcome for it, which the lone list's loop gives it
    (:func:`_lone_sends`): onto the lone list (off the switch list, if it was on it: :func:`_go_lone`), ``nlone``
    entries so far (returns the new count).  Its row's ``FROM`` (unused while it is active) keeps its ``LEFT``, so
    that :func:`_leave_lone` can tell whether it sent while alone."""
    r = x * NVS
    vs[uidx(r + VS_ONSW)] = ON_LONE
    vs[uidx(r + VS_FROM)] = vs[uidx(r + VS_LEFT)]
    sw.lone[uidx(nlone)] = x
    return nlone + 1


@njit(cache=CACHE, inline="always")
def _leave_lone(x, nsw, B, nport, vs, sw, sc):
    """Lone VC ``x`` is no longer alone at one of its ports (an input VC of its channel, or one holding a VC of its
    output channel, was given an output VC): back on the switch list (``nsw`` VCs; returns the new count) if it
    has a flit and a credit; the lone list drops it when its loop next runs.  Its sends while alone moved the iSLIP
    pointers of its two channels to itself, which nothing read meanwhile (no other VC bid at either): they are
    written now, if it sent."""
    r = x * NVS
    if vs[uidx(r + VS_LEFT)] != vs[uidx(r + VS_FROM)]:
        _move_past(r, vs[uidx(r + VS_CHAN)], vs[uidx(r + VS_OUTCH)], vs, sw.ch)
    if (vs[uidx(r + VS_CNT)] > 0) & (vs[uidx(r + VS_OCCO)] < B):
        return _sw_join(x, nsw, nport, vs, sw, sc)
    vs[uidx(r + VS_ONSW)] = OFF_LIST
    return nsw


# ----------------------------------------------------------------- BookSim's routing functions
@njit(cache=CACHE, inline="always")
def _bs_allowed(u, d, b, m, injb, cfg, net, chans, vcs, msg, out):
    """BookSim's own routing functions for a header at the front of input VC ``b`` at node ``u``, message
    ``m`` bound for ``d``: every free VC they allow is listed in ``out`` (returns the count; the VC
    allocator requests them all).  :mod:`.booksim` cites the lines of ``src/routefunc.cpp`` each rule
    follows.

    At ``d``: every ejection VC.  Elsewhere the dimension-order port ``port`` of the lowest dimension
    with an offset (the tie's '-' port when the message's tie bit of that dimension says so) and
    BookSim's ring partition ``ph`` (``f->ph``): a header *entering* that dimension here (its input
    port is the injection port or a channel of another dimension: ``(in_port/2) != dim_left``) takes
    the table's, :func:`.routing.entry_partition` of ``u``; one continuing in it keeps the message's
    (``msg.state``, set when the header took its VC upstream).

    ``RULE_ENTRY`` (``dim_order_torus``): the VCs of half ``ph`` (``ph * half .. ph * half + half - 1``).
    ``RULE_MIN_ADAPT`` (``min_adapt_torus``): a header not on an escape VC (on VC 3, or injected)
    may take the adaptive VC 3 on the table's one adaptive port and the escape VC ``ph`` on ``port``,
    with ``ph`` computed here whatever its input port ("as if we had injected at this node"); a
    header on escape VC 0 or 1 only the escape VC ``ph`` (kept, or computed on a turn)."""
    vs = vcs.vs
    if u == d:
        return list_free(out, 0, chans.base[uidx(chans.ej[uidx(u)])], 0, cfg.vej, vcs.inuse, False)
    P = cfg.p
    idx = u * cfg.n + d
    rt = net.route[uidx(idx)]
    td = np.int64(rt.tie_dim)
    port = np.int64(rt.esc_port)
    if td >= 0 and ((msg.tie[uidx(m)] >> td) & 1) == 1:
        port = np.int64(rt.tie_port)
    r = b * NVS
    # continuing in the dimension it arrived in (the injection port P is no dimension's)
    cont = (vs[uidx(r + VS_INPORT)] >> 1) == (port >> 1)
    base = chans.base[uidx(net.pchan[uidx(u * P + port)])]
    if cfg.rule == RULE_ENTRY:
        ph = msg.state[uidx(m)] if cont else np.int64(rt.esc_vc)
        lo = ph * cfg.half
        return list_free(out, 0, base, lo, lo + cfg.half, vcs.inuse, False)
    n = 0
    if b >= injb or vs[uidx(r + VS_IDX)] > 1:  # not on an escape VC: the adaptive VC 3, escape as if injected
        ab = chans.base[uidx(net.pchan[uidx(u * P + net.minp[uidx(idx * P)])])]
        n = list_free(out, 0, ab, 3, 4, vcs.inuse, False)
        ph = np.int64(rt.esc_vc)
    else:
        ph = msg.state[uidx(m)] if cont else np.int64(rt.esc_vc)
    return list_free(out, n, base, ph, ph + 1, vcs.inuse, False)


# ----------------------------------------------------------------- iSLIP
@njit(cache=CACHE, inline="always")
def _offer(best, touched, n, slot, pos, ptr, size, who):
    """One request to an iSLIP arbiter (a grant or an accept): ``who``, at position ``pos`` of the
    arbiter ``slot`` whose round-robin pointer is ``ptr`` (``size`` positions; ``ptr = size`` is 0).  The
    arbiter keeps the request first in round-robin order from its pointer: ``best[slot]`` holds the smallest
    ``key << 32 | who`` so far (``key`` the distance from the pointer, distinct within an arbiter;
    -1: no request yet), and an arbiter's first request lists it in ``touched``, ``n`` entries so far
    (returns the new count).  ``best[slot] & MASK`` is the winner.  No test (it would mispredict): ``touched``
    is written at ``n`` whether or not the count advances (it has room for one entry past its arbiters)."""
    key = pos - ptr
    if key < 0:
        key += size
    pk = (np.int64(key) << 32) | who
    x = best[uidx(slot)]
    first = x < 0
    best[uidx(slot)] = pk if first | (pk < x) else x
    touched[uidx(n)] = slot
    return n + first


@njit(cache=CACHE, inline="always")
def _first_from(m, k):
    """An iSLIP arbiter over a bit mask ``m`` of requests (bit ``i``: position ``i``; not empty) whose round-robin
    pointer is ``k`` (``k`` past the last position is 0): the position first in round-robin order from ``k``, the
    lowest bit at or past ``k``, else the lowest."""
    hi = (m >> k) << k
    return trailing_zeros(hi if hi != 0 else m)


@njit(cache=CACHE, inline="always")
def _wake(u, va, sc, nvca):
    """A VC of router ``u``'s output channels (or of its ejection channel) is free again: the headers asleep there
    (:func:`_vc_allocation`) go back on the VC-allocation list, ``nvca`` entries so far (returns the new length).  A
    test: a router seldom has one asleep."""
    h = va.shead[uidx(u)]
    if h >= 0:
        va.shead[uidx(u)] = -1
        while h >= 0:
            va.pend[uidx(nvca)] = h
            nvca += 1
            sc.nslp -= 1
            h = va.snext[uidx(h)]
    return nvca


@njit(cache=CACHE, inline="always")
def _next(pos, size):
    """The round-robin pointer past ``pos`` (of ``size`` positions)."""
    x = pos + 1
    return x if x < size else 0


# ----------------------------------------------------------------- the phases of a cycle
@njit(cache=CACHE, inline="always")
def _events(t, cfg, net, chans, vcs, va, sw, msg, ev, tags, hist, batches, sc, nvca, nsw):
    """A. The events due at ``t``: credits, then flits entering an input buffer or a terminal.  Returns the
    lengths of the VC-allocation and switch lists, ``(nvca, nsw)``."""
    vs = vcs.vs
    B = cfg.b
    lb = cfg.lb  # a VC's message ring: 2 ** lb positions from b << lb
    rmask = (1 << lb) - 1
    NCH = chans.base.size
    injb = chans.base[uidx(cfg.nchan)]  # VCs < injb: network; >= ejb: ejection
    ejb = chans.base[uidx(cfg.nchan + cfg.n)]
    measuring = sc.phase == MEASURE
    slot = t & (NSLOT - 1)
    s0 = slot * (NCH + 1)  # the slot's first entry; its lists down start at s0 + NCH
    # the credits due at t (one list, :data:`Events`): for the VCs left by the flits the switch sent at t - 2, and the
    # terminals' for flits that reached them at t - 2.  Each decrements the count at its VC's ``LOC``: in the row of
    # the input VC holding the VC (``OCCO``), else in the VC's own (``OCC``), with no test of which (the two kinds come
    # mixed: a test would mispredict); a holder that slept for the credit goes back on the switch list
    ncr = ev.ncredit[uidx(slot)]
    nport = cfg.p + 1
    efl = 0 if cfg.ejcr else EJ_FLOOR  # an ejection VC's count less this: its credits in use (checks only)
    if cfg.wtc:  # the loop twice, so that neither tests the run's constant for every credit
        for i in range(ncr):
            nvca, nsw = _credit(ev.credit[uidx(s0 + i)], True, nport, efl, ejb, chans, vcs, va, sw, sc, nvca, nsw)
    else:
        for i in range(ncr):
            nvca, nsw = _credit(ev.credit[uidx(s0 + i)], False, nport, efl, ejb, chans, vcs, va, sw, sc, nvca, nsw)
    ev.ncredit[uidx(slot)] = 0
    for i in range(ev.nflit[uidx(slot)]):  # flits entering an input buffer
        e = ev.flit[uidx(s0 + i)]
        b = e & MASK
        fl = e >> 32
        if CHECKS:
            assert b < ejb
        c = vs[uidx(b * NVS + VS_CNT)]
        if CHECKS:
            assert c < B  # a flit is sent only with a credit: the buffer it enters has room
        vs[uidx(b * NVS + VS_CNT)] = c + 1
        vs[uidx(b * NVS + VS_NFL)] += 1  # the flits it received (in the window: zeroed when it opens)
        s = vs[uidx(b * NVS + VS_ST)]
        if CHECKS:  # an idle VC's buffer is empty, and the first flit into it is a header
            assert s != ST_IDLE or (c == 0 and vcs.mqn[uidx(b)] == 0 and (fl & 2) != 0)
        if s == ST_IDLE:  # a header at an idle VC: its message is the front one, routing now, VC allocation from t + 1
            m = fl >> 2
            vs[uidx(b * NVS + VS_FM)] = m
            vs[uidx(b * NVS + VS_LEFT)] = 2 * msg.len[uidx(m)] + 1
            vs[uidx(b * NVS + VS_ST)] = ST_ROUTING
            vs[uidx(b * NVS + VS_FROM)] = t + 1
            idx = chans.dst[uidx(vs[uidx(b * NVS + VS_CHAN)])] * cfg.n + msg.dest[uidx(m)]
            prefetch(net.route, idx)  # its routing-table entries, read from t + 1
            prefetch(net.minp, idx * cfg.p)
            if va.onlist[uidx(b)] == 0:
                va.onlist[uidx(b)] = 1
                va.pend[uidx(nvca)] = b
                nvca += 1
        elif fl & 2:  # a header behind the front message: its message queues in the VC's ring
            n = vcs.mqn[uidx(b)]
            if CHECKS:  # the front message's tail is still in the buffer: at most B - 1 messages wait behind it
                assert n < B - 1
            vcs.buf[uidx((b << lb) + ((vcs.mqh[uidx(b)] + n) & rmask))] = fl >> 2
            vcs.mqn[uidx(b)] = n + 1
        # front flit of an active VC with a credit: switch allocation now (without a credit, the credit puts it
        # on the list; a test, as for the credits above: seldom true, a lone VC's flits never)
        r = b * NVS
        if (s == ST_ACTIVE) & (c == 0) & (vs[uidx(r + VS_ONSW)] == OFF_LIST) & (vs[uidx(r + VS_OCCO)] < B):
            nsw = _sw_join(b, nsw, nport, vs, sw, sc)
    ev.nflit[uidx(slot)] = 0
    bi = (t - cfg.warmcyc) // cfg.blen if measuring and cfg.mode == RUN_CYCLES else cfg.nbatch
    # the terminal returns the credit of a flit it reads two cycles later, unless no send can wait for one (EJ_FLOOR;
    # the flit was sent at t - 3: here, not in _send, the loop of every flit sent keeps fewer values live)
    sl5 = (t + 2) & (NSLOT - 1)
    s5 = sl5 * (NCH + 1)
    n5 = ev.ncredit[uidx(sl5)]
    for i in range(ev.neflit[uidx(slot)]):  # flits reaching a terminal (after the others: no state in common)
        e = ev.flit[uidx(s0 + NCH - i)]
        b = e & MASK
        fl = e >> 32
        if CHECKS:
            assert b >= ejb
        if bi < cfg.nbatch:
            batches.flits[uidx(bi)] += 1
        if cfg.ejcr | CHECKS:  # the terminal's credit, at t + 2 (counted where b's count is kept then)
            ev.credit[uidx(s5 + n5)] = b
            n5 += 1
        if fl & 1:  # the tail: delivered
            _deliver(fl >> 2, b, t, injb, measuring, vs, vcs.nmsg, msg, tags, hist, sc)
            if bi < cfg.nbatch:
                batches.msgs[uidx(bi)] += 1
    ev.ncredit[uidx(sl5)] = n5
    ev.neflit[uidx(slot)] = 0
    return nvca, nsw


@njit(cache=CACHE, inline="always")
def _credit(b, wtc, nport, efl, ejb, chans, vcs, va, sw, sc, nvca, nsw):
    """A. A credit for VC ``b`` (``wtc``: ``wait_for_tail_credit``, a constant of the loop that calls it): given and
    returns the lengths of the VC-allocation and switch lists, ``(nvca, nsw)``.  (``efl``: where the count of an
    ejection VC, ``b >= ejb``, starts, :data:`EJ_FLOOR` or 0; checks only.)"""
    vs = vcs.vs
    a = np.int64(vs[uidx(b * NVS + VS_LOC)])
    if CHECKS:  # b's holder is active and holds b as its output VC
        ow = _holder(a)
        assert ow < 0 or (vs[uidx(ow * NVS + VS_OUT)] == b and vs[uidx(ow * NVS + VS_ST)] == ST_ACTIVE)
    oc = vs[uidx(a)] - 1
    vs[uidx(a)] = oc
    if CHECKS:
        assert oc >= (efl if b >= ejb else 0)  # a credit returns only for a flit sent
    # the holder back on the switch list if it slept for the credit: asleep, with a flit.  Read from ``a``, the
    # flag is the holder's ``ONSW`` or, if none holds b, b's ``LOC`` (the fields' order: never ``OFF_LIST``).  (A
    # test: a holder seldom sleeps, and the branch-free put's work for every credit cost more.)
    if (vs[uidx(a + VS_ONSW - VS_OCCO)] == OFF_LIST) & (vs[uidx(a + VS_CNT - VS_OCCO)] > 0):
        ow = a // NVS
        if CHECKS:
            assert _holder(a) == ow
        nsw = _sw_join(ow, nsw, nport, vs, sw, sc)
    if wtc:  # the tail's credit for a VC none holds: the VC is free again
        if (a & (NVS - 1)) == VS_OCC and oc == 0 and vcs.tsent[uidx(b)] != 0:
            vcs.tsent[uidx(b)] = 0
            vcs.inuse[uidx(b)] = 0
            nvca = _wake(chans.src[uidx(vs[uidx(b * NVS + VS_CHAN)])], va, sc, nvca)
    return nvca, nsw


@njit(cache=CACHE, inline="always")
def _deliver(m, b, t, injb, measuring, vs, nmsg, msg, tags, hist, sc):
    """The tail of message ``m`` reaches the terminal from ejection VC ``b`` in cycle ``t``: the
    message is delivered (measured: its latencies recorded) and its slot freed."""
    _hold(b, -1, vs, nmsg, injb, hist.nbusy, hist.nch)
    count_delivered(sc, measuring)
    tg = msg.tag[uidx(m)]
    if tg >= 0:
        tags.lat[uidx(tg)] = t - msg.tgen[uidx(m)]
        tags.net[uidx(tg)] = t - msg.tinj[uidx(m)]
        tags.wait[uidx(tg)] = msg.tinj[uidx(m)] - msg.tgen[uidx(m)]
        tags.hops[uidx(tg)] = msg.hops[uidx(m)]
        tags.done[uidx(tg)] = 1
    msg.next[uidx(m)] = sc.free
    sc.free = m


@njit(cache=CACHE, inline="always")
def _generation(t, cfg, sc, mm, rng, msg, sources, tagcap, nsrc):
    """B. Generation into the source queues; the nodes with a queued message become active sources.
    Returns the number of active sources, -1 if no message slot was left (saturation)."""
    k = 0
    while True:
        u, k = arrival(t, k, rng, cfg, sc, mm)
        if u < 0:
            break
        if not _gen(u, t, rng, cfg, sc, msg, sources, tagcap):
            return -1
    for i in range(sc.nq):
        u = sources.qlist[uidx(i)]
        sources.inq[uidx(u)] = 0
        if sources.onact[uidx(u)] == 0:
            sources.onact[uidx(u)] = 1
            sources.act[uidx(nsrc)] = u
            nsrc += 1
    sc.nq = 0
    return nsrc


@njit(cache=CACHE, inline="always")
def _injection(t, cfg, chans, vcs, sources, msg, ev, hist, sc, nsrc):
    """C. Each active source writes at most one flit of its current message into its injection
    channel (at the router at ``t + 2``).  Returns the number of active sources left and whether a
    flit moved."""
    vs = vcs.vs
    V = cfg.v
    B = cfg.b
    injb = chans.base[uidx(cfg.nchan)]
    q = sources
    moved = False
    sl = (t + 2) & (NSLOT - 1)
    fbase = sl * (chans.base.size + 1)
    fn2 = ev.nflit[uidx(sl)]
    w = 0
    for i in range(nsrc):
        u = q.act[uidx(i)]
        m = q.cur_m[uidx(u)]
        if m < 0 and q.qlen[uidx(u)] > 0:  # the next message of the source queue
            m = q.qhead[uidx(u)]
            q.qhead[uidx(u)] = msg.next[uidx(m)]
            q.qlen[uidx(u)] -= 1
            q.cur_m[uidx(u)] = m
            q.cur_k[uidx(u)] = 0
        if m >= 0:
            k = q.cur_k[uidx(u)]
            base = chans.base[uidx(chans.inj[uidx(u)])]
            vc = -1
            if k == 0:  # a header: the first free injection VC with a credit after the last one used
                lv = q.last_vc[uidx(u)]
                for j in range(1, V + 1):
                    if lv < 0:
                        vv = 0
                    else:
                        vv = lv + j
                        if vv >= V:
                            vv -= V
                    if vcs.inuse[uidx(base + vv)] == 0 and vs[uidx((base + vv) * NVS + VS_OCC)] < B:
                        vc = base + vv
                        break
            else:
                vc = q.cur_vc[uidx(u)]
                if vs[uidx(vc * NVS + VS_OCC)] >= B:
                    vc = -1
            if vc >= 0:
                moved = True
                if k == 0:
                    vcs.inuse[uidx(vc)] = 1
                    vcs.tsent[uidx(vc)] = 0
                    q.last_vc[uidx(u)] = vc - base
                    q.cur_vc[uidx(u)] = vc
                    msg.tinj[uidx(m)] = t
                    sc.innet += 1
                    _hold(vc, 1, vs, vcs.nmsg, injb, hist.nbusy, hist.nch)
                vs[uidx(vc * NVS + VS_OCC)] += 1
                tl = k == msg.len[uidx(m)] - 1
                fl = 4 * np.int64(m) + (2 if k == 0 else 0) + (1 if tl else 0)  # a flit: 4 m + 2 head + tail
                ev.flit[uidx(fbase + fn2)] = (fl << 32) | vc
                fn2 += 1
                if tl:
                    if cfg.wtc:
                        vcs.tsent[uidx(vc)] = 1
                    else:
                        vcs.inuse[uidx(vc)] = 0
                    q.cur_m[uidx(u)] = -1
                else:
                    q.cur_k[uidx(u)] = k + 1
        if q.cur_m[uidx(u)] >= 0 or q.qlen[uidx(u)] > 0:
            q.act[uidx(w)] = u
            w += 1
        else:
            q.onact[uidx(u)] = 0
    ev.nflit[uidx(sl)] = fn2
    if sc.phase == MEASURE:
        sc.innet_acc += sc.innet
    return w, moved


@njit(cache=CACHE, inline="always")
def _vc_allocation(t, cfg, net, chans, vcs, va, sw, msg, hist, sc, nvca, nsw):
    """D. VC allocation, iSLIP with one iteration over (input VC, output VC) requests; a winner is
    active from ``t + 1``.  A header whose routing function allows no free VC leaves the list and sleeps, on its
    router's list, until a VC of that router is freed (:func:`_wake`): nothing else changes what it may request, so
    it would request nothing until then (each cycle it sleeps is counted as a request, as if it had been scanned).
    Returns the length of the VC-allocation list, the number of winners
    (listed in ``sw.new``) and the length of the switch list (a lone VC that a winner leaves not alone joins it)."""
    vs = vcs.vs
    nport = cfg.p + 1
    NI = nport * cfg.w
    injb = chans.base[uidx(cfg.nchan)]
    nnew = 0
    ng = 0
    nreq = sc.nslp  # the headers asleep: each a request that finds no VC to ask for, counted as if scanned
    w = 0
    for i in range(nvca):
        b = va.pend[uidx(i)]
        if vs[uidx(b * NVS + VS_ST)] != ST_ROUTING:  # allocated since: off the list
            va.onlist[uidx(b)] = 0
            continue
        va.pend[uidx(w)] = b
        w += 1
        if vs[uidx(b * NVS + VS_FROM)] > t:
            continue
        m = vs[uidx(b * NVS + VS_FM)]
        u = chans.dst[uidx(vs[uidx(b * NVS + VS_CHAN)])]
        # the requests: every free VC the routing function allows (minimal ports in table order)
        if cfg.rule == RULE_SHARED:
            cnt = allowed(u, msg.dest[uidx(m)], msg.state[uidx(m)], msg.tie[uidx(m)], 0, cfg, net.route, net.minp,
                           net.pchan, chans.base, chans.ej[uidx(u)], vcs.inuse, va.rq, False)
        else:
            cnt = _bs_allowed(u, msg.dest[uidx(m)], b, m, injb, cfg, net, chans, vcs, msg, va.rq)
        nreq += 1
        if cnt == 0:  # no VC it may take is free: asleep (off the list) until one of its router's is freed (_wake)
            w -= 1
            va.snext[uidx(b)] = va.shead[uidx(u)]
            va.shead[uidx(u)] = b
            sc.nslp += 1
            continue
        li = va.li[uidx(b)]
        for j in range(cnt):  # grant: each output VC takes the input VC first from its pointer
            o = va.rq[uidx(j)]
            ng = _offer(va.g_key, va.g_touch, ng, o, li, va.g[uidx(o)], NI, b)
    nvca = w
    sc.va_requests += nreq
    na = 0
    for j in range(ng):  # accept: each input VC takes the granting output VC first from its pointer
        o = va.g_touch[uidx(j)]
        b = va.g_key[uidx(o)] & MASK
        va.g_key[uidx(o)] = -1
        na = _offer(va.a_key, va.a_touch, na, b, va.lo[uidx(o)], va.a[uidx(b)], NI, o)
    for j in range(na):
        b = va.a_touch[uidx(j)]
        o = va.a_key[uidx(b)] & MASK
        va.a_key[uidx(b)] = -1
        va.g[uidx(o)] = _next(va.li[uidx(b)], NI)
        va.a[uidx(b)] = _next(va.lo[uidx(o)], NI)
        vcs.inuse[uidx(o)] = 1
        vcs.tsent[uidx(o)] = 0
        vs[uidx(o * NVS + VS_LOC)] = b * NVS + VS_OCCO  # o's credit count is in b's row
        _hold(o, 1, vs, vcs.nmsg, injb, hist.nbusy, hist.nch)
        r = b * NVS
        vs[uidx(r + VS_OUT)] = o
        vs[uidx(r + VS_OCCO)] = vs[uidx(o * NVS + VS_OCC)]  # o's credit count moves to its holder's row
        och = vs[uidx(o * NVS + VS_CHAN)]
        vs[uidx(r + VS_OUTCH)] = och
        vs[uidx(r + VS_OUTPORT)] = chans.outport[uidx(och)]
        vs[uidx(r + VS_ST)] = ST_ACTIVE
        # switch allocation from t + 1: on a list after this cycle's (E)
        vs[uidx(r + VS_ONSW)] = ON_NEW
        sw.new[uidx(nnew)] = b
        nnew += 1
        # one more active VC at its input channel and held VC at its output channel: a VC lone there is no longer
        ich = vs[uidx(r + VS_CHAN)]
        # (the one there before, if any, is its word's XOR: no scan of the channel's VCs)
        wa = sw.nact[uidx(ich)]
        sw.nact[uidx(ich)] = (wa + ONE) ^ b
        wh = sw.nheld[uidx(och)]
        sw.nheld[uidx(och)] = (wh + ONE) ^ b
        x = wa & MASK
        if (wa >> 32) == 1 and vs[uidx(x * NVS + VS_ONSW)] == ON_LONE:
            nsw = _leave_lone(x, nsw, cfg.b, nport, vs, sw, sc)
        x = wh & MASK
        if (wh >> 32) == 1 and vs[uidx(x * NVS + VS_ONSW)] == ON_LONE:
            nsw = _leave_lone(x, nsw, cfg.b, nport, vs, sw, sc)
        if o < injb:  # a network hop
            m = vs[uidx(r + VS_FM)]
            msg.hops[uidx(m)] += 1
            if cfg.rule == RULE_SHARED:
                if cfg.routing != KIND_FIXED_ESCAPE:
                    msg.state[uidx(m)] = state_after(cfg, msg.state[uidx(m)], vs[uidx(o * NVS + VS_IDX)],
                                                    net.label[uidx(chans.src[uidx(och)])], net.chan_up[uidx(och)])
            else:  # BookSim's f->ph: the ring partition of the VC taken (min_adapt: its escape VCs only)
                vi = vs[uidx(o * NVS + VS_IDX)]
                if cfg.rule == RULE_ENTRY:
                    msg.state[uidx(m)] = 1 if vi >= cfg.half else 0
                elif vi < 2:
                    msg.state[uidx(m)] = vi
    return nvca, nnew, nsw


@njit(cache=CACHE, inline="always")
def _check_lone(chans, vs, sw):
    """CHECKS only: each channel's ``nact`` and ``nheld`` count its active VCs and its VCs held by an input VC (with
    the XOR of the VCs' numbers, of their holders' for ``nheld``), and
    every active VC alone at both its ports, and no other, is on the lone list (or given its output VC in this
    cycle, ``ON_NEW``); and every VC's credit count is where its ``LOC`` says: in its own row if none holds it, else in
    the row of the input VC that holds it as its ``OUT`` (and the ``OUT`` of every active VC points back to it)."""
    for ch in range(chans.base.size):
        na = 0
        nh = 0
        xa = 0
        xh = 0
        for x in range(chans.base[ch], _vc_end(ch, chans, vs)):
            if vs[x * NVS + VS_ST] == ST_ACTIVE:
                na += 1
                xa ^= x
            h = _holder(vs[x * NVS + VS_LOC])
            if h >= 0:
                nh += 1
                xh ^= h
        assert sw.nact[ch] == (na << 32 | xa) and sw.nheld[ch] == (nh << 32 | xh)
    for x in range(vs.size // NVS):
        r = x * NVS
        f = vs[r + VS_ONSW]
        if vs[r + VS_ST] == ST_ACTIVE and f != ON_NEW:
            assert _alone(x, vs, sw) == (f == ON_LONE)
        else:
            assert f != ON_LONE
        h = _holder(vs[r + VS_LOC])
        assert vs[r + VS_LOC] == r + VS_OCC if h < 0 else vs[h * NVS + VS_OUT] == x
        if vs[r + VS_ST] == ST_ACTIVE:  # and the VC an active one holds points back to it
            assert vs[vs[r + VS_OUT] * NVS + VS_LOC] == r + VS_OCCO


@njit(cache=CACHE, inline="always")
def _check_masks(nport, B, chans, vs, sw, sc, nsw):
    """CHECKS only: the switch list, ``nsw`` VCs, those flagged ``ON_LIST``, holds bidders only (active, a flit at the
    front, a credit: depth ``B``), and the switch allocator's masks hold it (:func:`_sw_join`): each (input channel,
    output port) pair's ``vcm`` the VC indices of those at that pair, each output channel's ``og`` the input ports of
    its pairs with one (``ogc`` naming each port's channel), and ``oreq`` the output channels with one, each once, at
    its record's ``pos``."""
    n = 0
    npair = 0
    for ich in range(chans.base.size):
        for op in range(nport):
            m = 0
            och = -1
            for x in range(chans.base[ich], _vc_end(ich, chans, vs)):
                r = x * NVS
                if vs[r + VS_ONSW] == ON_LIST and vs[r + VS_OUTPORT] == op:
                    assert vs[r + VS_ST] == ST_ACTIVE and vs[r + VS_CNT] > 0 and vs[r + VS_OCCO] < B
                    m |= np.int64(1) << vs[r + VS_IDX]
                    och = vs[r + VS_OUTCH]
                    n += 1
            assert sw.vcm[ich * nport + op] == m
            if m != 0:
                npair += 1
                ip = vs[chans.base[ich] * NVS + VS_INPORT]
                assert (sw.og[och] >> ip) & 1 == 1 and sw.ogc[och * nport + ip] == ich
    assert n == nsw
    nbits = 0
    nreq = 0
    for och in range(chans.base.size):
        y = sw.og[och]
        while y != 0:
            nbits += 1
            y &= y - 1
        if sw.og[och] != 0:
            nreq += 1
            k = sw.ch[och].pos
            assert k < sc.nog and sw.oreq[k] == och
    assert nbits == npair and nreq == sc.nog


@njit(cache=CACHE, inline="always")
def _switch_allocation(t, cfg, chans, vcs, va, sw, msg, ev, hist, sc, nsw, nvca, nnew, nlone):
    """E. Switch allocation: per input port one request per output port (the VC first in round-robin
    order from the port's offset), then iSLIP with one iteration over (input port, output port); a
    winner's flit leaves its buffer (:func:`_send`).  Returns the lengths of the switch and
    VC-allocation lists and the number of flits sent."""
    vs = vcs.vs
    NPORT = cfg.p + 1
    # candidates: the switch list, every active VC with a flit at its front and a credit but the lone ones (the
    # list holds exactly those: a VC joins it when it becomes one -- a flit reaching an empty
    # buffer (A), a credit (A), VC allocation (D, from the next cycle), a lone VC no longer alone (D) -- and leaves it
    # when a grant leaves it without one, or it is alone at both its ports (E)).  Each goes through iSLIP (one alone at
    # both its ports in this cycle too: few are, the lone VCs being on the lone list, and a test of which would cost
    # every candidate more than iSLIP costs those).
    #
    # iSLIP over bit masks.  Which VC of an input channel goes to an output port decides nothing in the grant and
    # accept steps (they see ports only), so the list is kept as the masks those steps read (:data:`SwAlloc`): its
    # VCs' indices per (input channel, output port) pair, and its pairs' input ports per output channel, set and
    # cleared as VCs join and leave it (:func:`_sw_join`, :func:`_sw_drop`: a VC stays on it for several cycles, so
    # this is less work than setting every candidate's bits each cycle), and the VC is chosen for the accepted pairs
    # only.  An arbiter's choice, the position first in round-robin order from its pointer, is the lowest bit at or
    # past the pointer, else the lowest (:func:`_first_from`); the grant step lists the input channels it grants
    # branch-free (every entry written, kept by advancing the count)
    ncand = nsw
    if CHECKS:
        _check_lone(chans, vs, sw)
        _check_masks(NPORT, cfg.b, chans, vs, sw, sc, nsw)
    sc.sw_requests += ncand
    if PROFILE:
        k1 = clock()
        sc.sw_contested += ncand
    nia = 0
    ngr = 0  # gl holds the winners (VCs)
    for j in range(sc.nog):  # grant: each output channel takes the input port first from its pointer
        och = sw.oreq[uidx(j)]
        ip = _first_from(sw.og[uidx(och)], np.int64(sw.ch[uidx(och)].g) + 1)
        ich = sw.ogc[uidx(och * NPORT + ip)]
        z = sw.ia[uidx(ich)]
        sw.ia[uidx(ich)] = z | (np.int64(1) << chans.outport[uidx(och)])
        sw.ia_touch[uidx(nia)] = ich
        nia += z == 0
    for j in range(nia):  # accept: each input channel takes the granting output port first from its pointer, and
        # of its VCs bound there the one first from its VC offset
        ich = sw.ia_touch[uidx(j)]
        op = _first_from(sw.ia[uidx(ich)], np.int64(sw.ch[uidx(ich)].a) + 1)
        sw.ia[uidx(ich)] = 0
        vm = sw.vcm[uidx(ich * NPORT + op)]
        if CHECKS:
            assert vm != 0
        sw.gl[uidx(ngr)] = chans.base[uidx(ich)] + _first_from(vm, np.int64(sw.ch[uidx(ich)].rr) + 1)
        ngr += 1
    if PROFILE:
        k0 = clock()
        sc.clk_sw_islip += k0 - k1
    nvca, nlone, nls, nleft = _send(t, ngr, cfg, chans, vcs, va, sw, msg, ev, hist, sc, nvca, nlone)
    sc.sw_requests += nls  # a lone VC's request: it has a flit and a credit, so it sends
    if PROFILE:
        k1 = clock()
        sc.clk_sw_send += k1 - k0
    # the list for t + 1: this cycle's candidates less those that left it (:func:`_send`), and the VCs given an output
    # VC in this cycle's (D) that are not alone at both their ports (those join the lone list)
    w = ncand - nleft
    for j in range(nnew):
        b = sw.new[uidx(j)]
        r = b * NVS
        if CHECKS:
            assert vs[uidx(r + VS_ONSW)] == ON_NEW
        if _alone(b, vs, sw):
            nlone = _enter_lone(b, vs, sw, nlone)
        elif vs[uidx(r + VS_OCCO)] < cfg.b:
            w = _sw_join(b, w, NPORT, vs, sw, sc)
        else:  # no credit yet: the credit puts it on the list
            vs[uidx(r + VS_ONSW)] = OFF_LIST
    if PROFILE:
        sc.clk_sw_list += clock() - k1
    return w, nvca, ngr + nls, nlone


@njit(cache=CACHE, inline="always")
def _send(t, ngr, cfg, chans, vcs, va, sw, msg, ev, hist, sc, nvca, nlone):
    """E, the winners ``sw.gl[:ngr]`` of switch allocation: the iSLIP pointers move past them, the
    front flit of each leaves its buffer (its credit upstream at ``t + 2``) and enters the next
    buffer or the terminal at ``t + 3`` (the terminal's credit, due at ``t + 5``, is sent when the flit gets
    there, if at all: :func:`_events`).  Then the lone VCs send (:func:`_lone_sends`).  Returns the length of the
    VC-allocation list (a tail's successor header joins it), of the lone list, the number of the lone VCs' flits sent
    and the number of VCs that left the switch list (winners left without a flit or a credit or after their tail, and
    VCs now alone at both their ports)."""
    vs = vcs.vs
    B = cfg.b
    NPORT = cfg.p + 1
    lb = cfg.lb  # a VC's message ring: 2 ** lb positions from b << lb
    rmask = (1 << lb) - 1
    NCH = chans.base.size
    injb = chans.base[uidx(cfg.nchan)]
    ejb = chans.base[uidx(cfg.nchan + cfg.n)]
    efl = 0 if cfg.ejcr else EJ_FLOOR  # an ejection VC's count less this: its credits in use (checks only)
    sl3 = (t + 3) & (NSLOT - 1)
    # the next entry of each list: up from the slot's start, down from its end (empty: the sources write the slot
    # of t + 3 at t + 1)
    fb3 = sl3 * (NCH + 1)
    fn3 = fb3
    fe3 = fb3 + NCH
    if CHECKS:
        assert ev.nflit[uidx(sl3)] == 0 and ev.neflit[uidx(sl3)] == 0
    # the credits due at t + 2, after the terminals' written in this cycle's (A)
    sl2 = (t + 2) & (NSLOT - 1)
    cb2 = sl2 * (NCH + 1)
    cp = cb2 + ev.ncredit[uidx(sl2)]
    ntl = 0
    nlv = 0
    for j in range(ngr):
        b = sw.gl[uidx(j)]
        r = b * NVS
        o = vs[uidx(r + VS_OUT)]
        ich = vs[uidx(r + VS_CHAN)]
        och = vs[uidx(r + VS_OUTCH)]
        _move_past(r, ich, och, vs, sw.ch)
        # the front flit leaves b: the next flit of the front message (a header if none has left yet, the tail if
        # it is the last)
        x = vs[uidx(r + VS_LEFT)]
        tail = x < 4
        fl = (vs[uidx(r + VS_FM)] << 2) | ((x & 1) << 1) | np.int32(tail)
        vs[uidx(r + VS_LEFT)] = (x & -2) - 2
        c = vs[uidx(r + VS_CNT)] - 1
        vs[uidx(r + VS_CNT)] = c
        occo = vs[uidx(r + VS_OCCO)] + 1
        vs[uidx(r + VS_OCCO)] = occo
        if CHECKS:  # the flit was buffered, and the credits in use never exceed the depth
            assert c >= 0 and occo - (efl if o >= ejb else 0) <= B
        # a tail's winner is kept for the loop below (gl compacted in place: every entry written, kept by advancing
        # ntl, which never passes j)
        sw.gl[uidx(ntl)] = b
        ntl += tail
        # the flit reaches the next buffer (or the terminal: ``ej``) at t + 3, and its credit (for b) is due
        # upstream at t + 2, read from this entry (each event written to both lists of its slot, kept in one by
        # advancing its end: a test would mispredict; the slot's spare entry takes the other write)
        ej = np.int64(o >= ejb)
        e = (np.int64(fl) << 32) | o
        ev.flit[uidx(fn3)] = e
        ev.flit[uidx(fe3)] = e
        ev.credit[uidx(cp)] = b
        cp += 1
        fn3 += 1 - ej
        fe3 -= ej
        # off the switch list after its tail, or with nothing more to send, or without a credit (listed in ``lv``, its
        # bits cleared below; no test: it would mispredict)
        leave = tail | (c == 0) | (occo >= B)
        vs[uidx(r + VS_ONSW)] = np.int32(not leave)
        sw.lv[uidx(nlv)] = b
        nlv += leave
    fn3, fe3, cp, ntl, nlone, nls = _lone_sends(cfg.b, ejb, efl, vs, sw.lone, sw.cl, ev.flit, ev.credit, sw.gl, fn3,
                                                fe3, cp, ntl, nlone)
    if CHECKS:  # a slot's two lists never meet (its events are at most NCH), nor do its credits pass its end
        assert fn3 <= fe3 and cp - cb2 <= NCH + 1
    ev.nflit[uidx(sl3)] = fn3 - fb3
    ev.ncredit[uidx(sl2)] = cp - cb2
    ev.neflit[uidx(sl3)] = fb3 + NCH - fe3
    for j in range(nlv):  # the winners that left the switch list
        _sw_drop(sw.lv[uidx(j)], NPORT, vs, sw, sc)
    # the tails sent: each winner lets go of its output VC, and its buffer's next header (if any) starts routing.  A
    # loop of their own, so that the loop above, run for every flit, keeps fewer values live; nothing above reads what
    # this one writes (a credit's holder is looked up again on arrival, :func:`_events`)
    for j in range(ntl):
        b = sw.gl[uidx(j)]
        r = b * NVS
        o = vs[uidx(r + VS_OUT)]
        vs[uidx(r + VS_OUT)] = -1
        vs[uidx(o * NVS + VS_OCC)] = vs[uidx(r + VS_OCCO)]  # o's credit count goes back to o's row
        vs[uidx(o * NVS + VS_LOC)] = o * NVS + VS_OCC
        if cfg.wtc:
            vcs.tsent[uidx(o)] = 1  # the output VC is free once the tail's credit is back
        else:
            vcs.inuse[uidx(o)] = 0  # wait_for_tail_credit = 0: free once the tail is sent
            nvca = _wake(chans.src[uidx(vs[uidx(r + VS_OUTCH)])], va, sc, nvca)
        _hold(b, -1, vs, vcs.nmsg, injb, hist.nbusy, hist.nch)
        # the pointers move past it (a lone VC's sends left them to its tail, :func:`_leave_lone`), and it is
        # off every list
        ich = vs[uidx(r + VS_CHAN)]
        och = vs[uidx(r + VS_OUTCH)]
        _move_past(r, ich, och, vs, sw.ch)
        vs[uidx(r + VS_ONSW)] = OFF_LIST
        if vs[uidx(r + VS_CNT)] == 0:
            vs[uidx(r + VS_ST)] = ST_IDLE
            if CHECKS:
                assert vcs.mqn[uidx(b)] == 0
        else:  # the next message (first in the ring) is the front one: its header routing at t + 1, VC allocation
            # from t + 2
            h = vcs.mqh[uidx(b)]
            m = vcs.buf[uidx((b << lb) + h)]
            vcs.mqh[uidx(b)] = (h + 1) & rmask
            vcs.mqn[uidx(b)] -= 1
            vs[uidx(r + VS_FM)] = m
            vs[uidx(r + VS_LEFT)] = 2 * msg.len[uidx(m)] + 1
            vs[uidx(r + VS_ST)] = ST_ROUTING
            vs[uidx(r + VS_FROM)] = t + 2
            if va.onlist[uidx(b)] == 0:
                va.onlist[uidx(b)] = 1
                va.pend[uidx(nvca)] = b
                nvca += 1
        # one active VC fewer at its input channel and held VC at its output channel: the one left at either (its
        # word's XOR) may now be alone at both its ports
        wa = (sw.nact[uidx(ich)] - ONE) ^ b
        sw.nact[uidx(ich)] = wa
        wh = (sw.nheld[uidx(och)] - ONE) ^ b
        sw.nheld[uidx(och)] = wh
        if (wa >> 32) == 1 and _may_go_lone(wa & MASK, vs, sw):
            nlone, nlv = _go_lone(wa & MASK, NPORT, vs, sw, sc, nlone, nlv)
        if (wh >> 32) == 1 and _may_go_lone(wh & MASK, vs, sw):
            nlone, nlv = _go_lone(wh & MASK, NPORT, vs, sw, sc, nlone, nlv)
    return nvca, nlone, nls, nlv


@njit(cache=CACHE, inline="always")
def _go_lone(x, nport, vs, sw, sc, nlone, nleft):
    """Active VC ``x``, on the switch list or on none, goes on the lone list (:func:`_enter_lone`), leaving the switch
    list if it was on it (``nleft`` VCs have left it so far).  Returns ``(nlone, nleft)``."""
    if vs[uidx(x * NVS + VS_ONSW)] == ON_LIST:
        _sw_drop(x, nport, vs, sw, sc)
        nleft += 1
    return _enter_lone(x, vs, sw, nlone), nleft


@njit(cache=CACHE, inline="always")
def _may_go_lone(x, vs, sw):
    """Whether active VC ``x``, on the switch list or on none, is alone at both its ports (not already lone, and not
    given its output VC in this cycle: the end of switch allocation decides that one's list)."""
    f = vs[uidx(x * NVS + VS_ONSW)]
    return ((f == ON_LIST) | (f == OFF_LIST)) & _alone(x, vs, sw)


@njit(cache=CACHE, inline="always")
def _alone(x, vs, sw):
    """Whether active VC ``x`` is alone at both its ports: the only active VC of its input channel and the only held
    VC of its output channel (both channels' counts 1, :data:`SwAlloc`)."""
    r = x * NVS
    return ((sw.nact[uidx(vs[uidx(r + VS_CHAN)])] >> 32) == 1) & (
        (sw.nheld[uidx(vs[uidx(r + VS_OUTCH)])] >> 32) == 1)


@njit(cache=CACHE, inline="always")
def _lone_sends(B, ejb, efl, vs, lone, sl, flit, credit, gl, fn3, fe3, cp, ntl, nlone):
    """E, the lone VCs (``lone[:nlone]``, each alone at both its ports: switch allocation would grant it whenever it
    bids): each with a flit at its front and a credit sends it, as :func:`_send`'s loop does, but for the iSLIP
    pointers (left to its tail or :func:`_leave_lone`: nothing reads them meanwhile) and the switch list's flag (it is
    on no list).  Two loops: the first lists the VCs that send in ``sl`` (scratch) and compacts the lone list in place
    (dropping an entry no longer lone: :func:`_leave_lone`, or its tail sent in the cycle before, whose flag the
    tails' loop of :func:`_send` cleared; no VC is given an output VC again sooner, so none is listed twice), both
    branch-free (every entry written, kept by advancing its list's length: which VC sends is data a test would
    mispredict); the second sends their flits, each event to the lists from ``fn3`` up and ``fe3`` down and each
    credit to ``credit`` from ``cp``, a tail's VC to the tails ``gl`` from ``ntl`` (with fewer values live than one
    loop doing both, it spills fewer to the stack).  (``efl``: as in :func:`_credit`, checks only.)
    Returns ``(fn3, fe3, cp, ntl, nlone, sent)``."""
    w = 0
    ns = 0
    for i in range(nlone):
        b = lone[uidx(i)]
        r = b * NVS
        keep = vs[uidx(r + VS_ONSW)] == ON_LONE
        send = keep & (vs[uidx(r + VS_CNT)] > 0) & (vs[uidx(r + VS_OCCO)] < B)
        sl[uidx(ns)] = b
        ns += send
        lone[uidx(w)] = b
        w += keep
    for j in range(ns):
        b = sl[uidx(j)]
        r = b * NVS
        if CHECKS:  # lone, a flit, a credit: listed once
            assert vs[uidx(r + VS_ONSW)] == ON_LONE and vs[uidx(r + VS_CNT)] > 0 and vs[uidx(r + VS_OCCO)] < B
        x = vs[uidx(r + VS_LEFT)]
        tail = x < 4
        fl = (vs[uidx(r + VS_FM)] << 2) | ((x & 1) << 1) | np.int32(tail)
        vs[uidx(r + VS_LEFT)] = (x & -2) - 2
        vs[uidx(r + VS_CNT)] -= 1
        vs[uidx(r + VS_OCCO)] += 1
        o = vs[uidx(r + VS_OUT)]
        if CHECKS:  # the credits in use never exceed the depth
            assert vs[uidx(r + VS_OCCO)] - (efl if o >= ejb else 0) <= B
        ej = np.int64(o >= ejb)
        e = (np.int64(fl) << 32) | o
        flit[uidx(fn3)] = e
        flit[uidx(fe3)] = e
        credit[uidx(cp)] = b
        cp += 1
        fn3 += 1 - ej
        fe3 -= ej
        if tail:  # (one flit in a message: predicted)
            gl[uidx(ntl)] = b
            ntl += 1
    return fn3, fe3, cp, ntl, w, ns


@njit(cache=CACHE)
def _count_in_flight(cfg, chans, vcs, ev, ch, sign):
    """Add ``sign`` to ``ch[c].flits`` for each flit sent on network channel ``c`` that has not yet entered its buffer:
    the flit entries of the event ring, whose slots hold only events still to come (a slot is emptied when its
    cycle's events are done)."""
    vs = vcs.vs
    injb = chans.base[cfg.nchan]  # VCs < injb: network
    stride = chans.base.size + 1
    for sl in range(NSLOT):
        for i in range(ev.nflit[sl]):
            b = ev.flit[sl * stride + i] & MASK
            if b < injb:
                ch[vs[b * NVS + VS_CHAN]].flits += sign


@njit(cache=CACHE)
def _open_window(cfg, chans, vcs, sw, ev):
    """The window opens (at the end of a cycle): the flits counted per VC (``VS_NFL``, by every flit entering a
    buffer) start again from 0, so that they count the window's (no test per flit of whether it is open), and each
    network channel's count ``sw.ch``'s ``flits`` holds minus its flits on their way, which entered no buffer yet
    but were sent before the window (:func:`close_window` adds the VCs' counts)."""
    vs = vcs.vs
    for b in range(vs.size // NVS):
        vs[b * NVS + VS_NFL] = 0
    for k in range(sw.ch.size):
        sw.ch[k].flits = 0
    _count_in_flight(cfg, chans, vcs, ev, sw.ch, -1)


@njit(cache=CACHE)
def close_window(cfg, chans, vcs, sw, ev):
    """When the run ends, the flits sent on each network channel in the window (``sw.ch``'s ``flits``): those that
    entered its VCs' buffers in the window (their ``VS_NFL``), less those sent before it (:func:`_open_window`), and
    those still on their way.  A send does not count them (one count fewer per flit-hop): the buffers do."""
    vs = vcs.vs
    injb = chans.base[cfg.nchan]
    for b in range(injb):
        sw.ch[vs[b * NVS + VS_CHAN]].flits += vs[b * NVS + VS_NFL]
    _count_in_flight(cfg, chans, vcs, ev, sw.ch, 1)


@njit(cache=CACHE, inline="always")
def _bookkeeping(t, moved, cfg, sc, hist, tags):
    """F. Bookkeeping (:func:`.steps.close_cycle`) and the stop test: a status (RUNNING: go on)."""
    opens = (sc.deliv >= cfg.warmup) if cfg.mode == RUN_MESSAGES else (t + 1 >= cfg.warmcyc)
    status = close_cycle(t, moved, opens, sc, cfg, hist.nch, hist.acc)
    if status == RUNNING:
        if cfg.mode == RUN_CYCLES:
            if t + 1 >= cfg.warmcyc + cfg.runcyc:
                return DONE
        elif sc.phase == MEASURE and all_measured(sc, tags.done):
            return DONE
    return status


# ----------------------------------------------------------------- the cycle loop
@njit(cache=CACHE, boundscheck=False, _nrt=False)
def run(cfg, net, chans, vcs, va, sw, sources, msg, ev, tags, hist, batches, mm, sc_arr, rng):
    """Advance the simulation until a stop condition; returns a status code.

    One cycle is the phases A-F of the module's docstring, each an inlined function over the named
    state.  Representation: a flit is ``fl = 4 m + 2 head + tail`` (message slot, header and tail bits); a flit event
    is ``(fl << 32) | b`` (the VC it enters).  The lengths of the work lists (``nvca``: ``va.pend``,
    ``nsw``: the switch list's VCs, ``nlone``: ``sw.lone``, ``nsrc``: ``sources.act``) live in local variables during
    the call, handed to the phases that change them and returned (kept in registers: in ``sc`` they cost 3-4% of the
    speed), and in ``sc`` between calls (the count of headers asleep, ``sc.nslp``, changed seldom, stays there).
    ``va.pend`` is compacted while it is scanned (an entry stays on it, flagged by ``va.onlist``, until a scan finds
    its VC no longer waiting for VC allocation, or puts it to sleep: :func:`_wake`).  The switch list, held as the
    switch allocator's bit masks, holds exactly the VCs that bid for the switch, but those alone at both their ports:
    a VC joins it when it gets a flit at its front and a credit (a flit reaching its empty buffer, a credit, or VC
    allocation in the cycle before), and a grant that leaves it without either takes it off; so switch allocation
    reads no VC row to find its candidates, nor sets their bits every cycle.  A VC alone at both its ports (the counts
    ``sw.nact`` and ``sw.nheld`` say when: they change only when a VC is given an output VC, D, and when a tail is
    sent, E) is on the lone list instead, visited every cycle: it sends whenever it has a flit and a credit, what iSLIP
    would give it, with less work (``sw.lone``, :func:`_lone_sends`).  The allocators' outcomes
    do not depend on the order of these lists (every arbitration key is distinct), so neither do
    the results.

    Every array index in the loop is written ``a[uidx(i)]`` (unsigned): numba emits a
    negative-index wraparound test (shift, mask, add) for every signed index, and the loop's
    indices are never negative; without these tests the loop runs about a quarter faster.
    Everything per VC that the loop reads or writes on a flit's path is in the VC's row of ``vs``,
    its switch-list flag included, and everything per channel in its record of ``sw.ch``: with fewer
    arrays, the compiled loop keeps more of their addresses in registers (the rows are in cache: a network's speed per
    flit-hop does not change with its size from 4x4 to 16x16, nor with 128-byte rows).
    """
    sc = sc_arr[0]
    tagcap = tags.lat.size
    nvca = sc.nvca
    nsw = sc.nsw
    nlone = sc.nlone
    nsrc = sc.nsrc
    status = RUNNING
    while sc.t < sc.chunk_end and sc.t < cfg.maxcyc:
        t = sc.t
        c0 = clock() if PROFILE else 0
        nvca, nsw = _events(t, cfg, net, chans, vcs, va, sw, msg, ev, tags, hist, batches, sc, nvca, nsw)  # A
        if PROFILE:
            c1 = clock()
            sc.clk_events += c1 - c0
        n = _generation(t, cfg, sc, mm, rng, msg, sources, tagcap, nsrc)  # B
        if n < 0:
            status = SATURATED
            break
        nsrc = n
        if PROFILE:
            c0 = clock()
            sc.clk_generation += c0 - c1
        nsrc, moved = _injection(t, cfg, chans, vcs, sources, msg, ev, hist, sc, nsrc)  # C
        if PROFILE:
            c1 = clock()
            sc.clk_injection += c1 - c0
        nvca, nnew, nsw = _vc_allocation(t, cfg, net, chans, vcs, va, sw, msg, hist, sc, nvca, nsw)  # D
        if PROFILE:
            c0 = clock()
            sc.clk_vc_allocation += c0 - c1
        nsw, nvca, ngr, nlone = _switch_allocation(t, cfg, chans, vcs, va, sw, msg, ev, hist, sc, nsw, nvca, nnew,
                                                   nlone)  # E
        if ngr > 0:
            moved = True
            sc.flithops += ngr
        if PROFILE:
            c1 = clock()
            sc.clk_switch_allocation += c1 - c0
        opened = sc.phase == MEASURE
        status = _bookkeeping(t, moved, cfg, sc, hist, tags)  # F
        if not opened and sc.phase == MEASURE:
            _open_window(cfg, chans, vcs, sw, ev)
        if PROFILE:
            sc.clk_bookkeeping += clock() - c1
        if status != RUNNING:
            break
    sc.nvca = nvca
    sc.nsw = nsw
    sc.nlone = nlone
    sc.nsrc = nsrc
    if status != RUNNING:
        return status
    return RUNNING if sc.t >= sc.chunk_end else MAXCYCLES  # RUNNING: the wrapper calls again
