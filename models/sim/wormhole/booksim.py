"""``router="booksim"``: BookSim 2's input-queued router (``iq``) with the issue #12 configuration.

The preset reproduces BookSim 2 (repository booksim/booksim2) configured with
``routing_delay = vc_alloc_delay = sw_alloc_delay = st_final_delay = 1``,
``credit_delay = 0``, ``vc_allocator = sw_allocator = islip``,
``alloc_iters = 1``, ``wait_for_tail_credit = 0`` (option ``wait_for_tail_credit=True``:
1), ``use_noc_latency = 0``
(every channel 1 cycle) and BookSim's defaults otherwise
(``src/booksim_config.cpp``: ``speculative = 0``, ``st_prepare_delay = 0``,
``output_delay = 0``, ``vc_busy_when_full = 0``, ``vc_prioritize_empty = 0``,
``hold_switch_for_packet = 0``, ``input_speedup = output_speedup = 1``,
``buffer_policy = private``, ``priority = none``).  The router, the
channels, the source and the measurement are BookSim's.  The routing functions
are BookSim's where BookSim has them (``dor`` on a bidirectional torus:
``dim_order_torus``; ``min_adapt``: ``min_adapt_torus``; ``dor`` on a mesh:
``dim_order_mesh``) and the project's otherwise (``nbc``, ``duato``,
``duato_nbc``, ``updown``, and ``dor`` on a unidirectional torus, which BookSim
does not have): see Routing below.  Its numba cycle loop is
:mod:`.booksim_kernel`.

Line numbers ``routefunc.cpp:N`` refer to ``src/routefunc.cpp`` of BookSim 2 at
commit 923f1a9 (``src/outputset.hpp``, ``src/outputset.cpp`` and
``src/allocators/islip.cpp`` likewise); the router's rules below name the
function of ``src/routers/iq_router.cpp``, ``src/buffer_state.cpp`` or
``src/trafficmanager.cpp`` they follow.

Semantics, each with the BookSim source it follows
----------------------------------------------------
1. **Channels** (``src/channel.hpp``, ``Channel::ReadInputs`` /
   ``WriteOutputs``; ``src/networks/network.cpp``): a flit or credit sent in
   cycle ``s`` (``Send`` during ``WriteOutputs``) enters the wait queue at
   ``ReadInputs`` of ``s + 1`` with time ``s + delay - 1 = s``, is put on the
   output at ``WriteOutputs`` of ``s + 1`` and read by the receiver at
   ``ReadInputs`` of ``s + 2``: a 1-cycle channel takes 2 cycles from send to
   the receiver seeing the flit.  The same holds for the injection channel
   (the source writes in ``TrafficManager::_Step`` before the network's
   ``WriteOutputs``), the ejection channel (the terminal reads at the start
   of ``_Step``) and every credit channel.
2. **Input buffers** (``src/buffer.cpp``, ``src/vc.cpp``; ``IQRouter::_InputQueuing``
   in ``src/routers/iq_router.cpp``): every input port (network, injection)
   has ``vcs`` VCs of ``buffer_depth`` flits, each a FIFO of flits that may hold
   the tail of one message and the header of the next (``wait_for_tail_credit
   = 0``).  A header reaching an idle VC starts routing in that cycle; a flit
   reaching the front of an active VC bids for the switch in that cycle.
3. **Routing** (``_RouteEvaluate`` / ``_RouteUpdate``, ``routing_delay = 1``):
   the route is computed in the cycle the header becomes the front of its VC
   (the cycle after the previous tail left, for a header queued behind it);
   VC allocation starts the next cycle.
4. **VC allocation** (``_VCAllocEvaluate`` / ``_VCAllocUpdate``,
   ``src/allocators/islip.cpp``): every routed header requests *every* output
   VC its routing function allows that is not in use
   (``BufferState::IsAvailableFor``; credits are not checked,
   ``vc_busy_when_full = 0``); one iSLIP iteration over
   (input port x VC, output port x VC): each output VC grants the requesting
   input VC first in round-robin order from its grant pointer, each input VC
   accepts the granting output VC first in round-robin order from its accept
   pointer, pointers move past the match on accept only.  The winner is
   active from the next cycle (``_VCAllocUpdate`` pushes it to the switch
   allocator's queue, evaluated next cycle); a loser retries every cycle.  (A
   header that finds no VC to request sleeps until a VC of its router is
   freed: nothing else changes what it would request, so it is a request for
   nothing in each cycle it sleeps, and counted as one.)
5. **Switch allocation** (``_SWAllocAddReq`` / ``_SWAllocEvaluate`` /
   ``_SWAllocUpdate``; ``RoundRobinArbiter::Supersedes``): an active VC with a
   flit at its front and a credit for its output VC (``IsFullFor`` false)
   requests its output port; per (input port, output port) only the VC first
   in round-robin order from the input port's offset ``_sw_rr_offset`` is kept
   (the offset moves to ``vc + 1`` when that VC wins); one iSLIP iteration over
   (input port, output port).  So at most one flit leaves an input port and at
   most one enters an output port per cycle (the crossbar limit).  A winner's
   flit leaves its buffer in that cycle: the credit goes upstream
   (``_OutputQueuing``, ``_SendCredits``), the downstream credit count rises
   (``BufferState::SendingFlit``) and, for a tail, the output VC is free for
   VC allocation from the next cycle (``wait_for_tail_credit = 0``,
   ``src/buffer_state.cpp``; with ``wait_for_tail_credit=True`` once the
   tail's credit has been counted and the VC holds no credit, see Routing).  The next flit of the VC bids the next cycle.
6. **Switch traversal** (``_SwitchEvaluate`` / ``_SwitchUpdate``,
   ``_crossbar_delay = st_prepare_delay + st_final_delay = 1``;
   ``_SendFlits``): the flit is sent on the output channel the cycle after
   switch allocation.
7. **Credits** (``_ReceiveCredits``, ``credit_delay = 0``;
   ``BufferState::ProcessCredit``): a credit sent in cycle ``r`` is counted in
   ``_InputQueuing`` of ``r + 2``, before that cycle's allocations.  A buffer
   slot's round trip is therefore 5 cycles (switch allocation upstream ``s``,
   sent ``s + 1``, in the buffer and switch-allocated downstream at ``s + 3``
   at the earliest, credit counted upstream at ``s + 5``).
8. **Source** (``TrafficManager::_Inject`` / ``_Step`` in
   ``src/trafficmanager.cpp``): one message at a time per node
   (``_partial_packets``): the next message starts once the previous tail has
   been written into the injection channel (``injection_vcs = 1``), at most one
   flit per cycle.  A header takes the first injection VC in round-robin order
   after the last one used that is not in use and has a credit (BookSim's
   ``_last_vc`` starts at -1, when only VC 0 is tried); body flits need a
   credit of that VC.  Credits from the router are read at the start of the
   cycle.  The generation process is the project's (Poisson or MMPP, with
   an unbounded source queue; BookSim's ``include_queuing = 1`` lazy queue is
   the same with Bernoulli arrivals).
9. **Ejection** (``TrafficManager::_Step``; ``IQRouter::AddOutputChannel``):
   the ejection port is an output with ``ejection_vcs`` VCs (default
   ``vcs``, as every BookSim port has ``num_vcs``) of ``buffer_depth`` credits;
   the terminal reads each flit on arrival and returns its credit at once
   (counted by the router 2 cycles later).
10. **Latency** (``TrafficManager::_RetireFlit``): a message's latency is
    the cycle its tail is read by the terminal minus its generation cycle
    (BookSim's ``plat = atime - ctime``); network latency from the cycle its
    header was written into the injection channel (``nlat = atime - itime``).

Zero-load latency (derived; tested)
-----------------------------------
A message generated in cycle ``t0`` writes its header at ``t0``, which is in
the source router's injection buffer at ``t0 + 2`` (1); there it is routed at
``+0``, VC-allocated at ``+1``, switch-allocated at ``+2`` and sent at ``+3``
(3-6), reaching the next router at ``+5``.  So the header is in router ``r``
(``r = 0..h``) at ``t0 + 2 + 5 r``, is switch-allocated at the destination at
``t0 + 4 + 5 h`` and read by the terminal at ``t0 + 7 + 5 h``.  A body flit
arriving at the front of an active VC is switch-allocated in its arrival cycle,
so the body follows one flit per cycle when credits allow, and

    ``latency = M + 5 (h + 1) + 1``     (``h`` network hops).

This holds for ``buffer_depth >= 5``: a slot's round trip is 5 cycles (7),
so one VC streams a flit per cycle; the header's 2-cycle stop in each buffer
makes the flits from the ``B``-th on wait 2 cycles for credits upstream, but
the downstream buffer is 2 cycles behind by the same stop, so the tail is not
delayed.  For any ``buffer_depth`` the exact zero-load latency is the max-plus
recursion of :func:`zero_load_latency` (``+ 5`` per hop, larger for
``B <= 4`` and long messages).

Routing
-------
**Route computation** (``IQRouter::_RouteUpdate``: ``cur_buf->Route(vc, _rf, this, f, input)``):
the routing function runs once per router for the header at the front of its
VC, with the input port it arrived on (``2 gN``, one past the network ports,
for the injection port), and may update the flit's ``f->ph``; VC allocation
(``_VCAllocEvaluate``) then requests, every cycle until it wins, every VC of
every range of the resulting ``OutputSet`` that is not in use.  Every packet
is of BookSim's default type (``use_read_write = 0``), so each routing
function's VC range starts as ``vcBegin = 0``, ``vcEnd = num_vcs - 1``
(``routefunc.cpp:1520-1534``, ``1720-1733``).  Two facts of
BookSim's code matter below.  (i) ``OutputSet`` is a ``std::set<sSetElement>``
(``outputset.hpp:56``) whose ``operator<`` compares the priority only
(``outputset.hpp:59-62``: ``return se1.pri > se2.pri``), so ``AddRange``
(``outputset.cpp:51-61``, ``_outputs.insert( s )`` on line 60) of a range whose
priority is already in the set inserts nothing: a route holds at most one range
per priority, the first one added.  (ii) With ``vc_allocator = islip`` the
priorities have no other effect: ``iSLIP_Sparse::Allocate`` (``islip.cpp:45``)
arbitrates on input and output ports with its round-robin pointers and never
reads ``in_pri`` / ``out_pri``.  The preset's request lists (:func:`.booksim_kernel._bs_allowed`
and :func:`.steps.allowed`) are the allowed free VCs; their order does not
matter (4 above).

**Injection and ejection VCs** (every routing): the source may take any of the
``vcs`` injection VCs (8 above: ``dim_order_torus`` and ``min_adapt_torus``
return the full range for ``inject``, ``routefunc.cpp:1538-1540`` and
``1738-1741``), and a header at its destination router may take any of the
``ejection_vcs`` VCs of the ejection port (``routefunc.cpp:1551-1562``: the
halves are applied only ``if(cur != dest)``; ``1742-1745``; ``dim_order_mesh``,
``643-678``, always the full range).

``dor`` **on a mesh**: every VC on the dimension-order port (``dim_order_mesh``,
``routefunc.cpp:643-678``, ``dor_next_mesh`` ``540-569``).

``dor`` **on a bidirectional torus** (``vc_partition='entry'``, the default):
``dim_order_torus`` (``routefunc.cpp:1517-1581``) with ``dor_next_torus``
(``573-639``), rule for rule:

* the port: the lowest dimension ``i`` in which the router and the destination
  differ (``581-584``), in the direction chosen when the header *enters* that
  dimension, i.e. when ``(in_port/2) != dim_left`` (``588``; true at injection
  too): ``+`` if ``dist2 = k - 2 ((dest - cur + k) mod k) > 0``, ``-`` if
  ``< 0`` (``592-601``); a header continuing in the dimension keeps its
  direction (``633``: ``*out_port = in_port ^ 0x1``);
* the ring partition ``ph`` (``f->ph``, ``1547-1548``), computed at the entry
  only, with *the same comparison for both directions*: 1 if the entry
  coordinate is larger than the destination's, ``cur > dest``, else 0
  (``619-627``: ``(dir == 0 && cur > dest) || (dir == 1 && dest < cur)``); a
  continuing header keeps it (line 633 leaves ``*partition`` alone).  So on a
  ``+`` ring the messages that wrap (cross the ``k-1 -> 0`` link) use half 1 on
  every hop of the dimension, before and after the wrap link, and the others
  half 0; on a ``-`` ring the messages that do *not* wrap use half 1 and the
  wrapping ones half 0.  (``dim_order_bal_torus``, ``1650-1714``, compares
  ``cur < dest`` for ``-`` on line 611; the preset follows ``dim_order_torus``.)
  The preset stores ``ph`` in the message (``msg.state``) when its header takes
  a VC, and reads the table :func:`.routing.entry_partition` of the current
  router when the header enters a dimension;
* the VCs: half ``ph`` of them, ``0 .. vcs/2 - 1`` for ``ph = 0`` and
  ``vcs/2 .. vcs - 1`` for ``ph = 1`` (``1554-1561``: ``available_vcs =
  (vcEnd - vcBegin + 1) / 2``, ``vcEnd -= available_vcs`` / ``vcBegin +=
  available_vcs``); ``vcs`` must be even (BookSim's halves would overlap);
* at the destination every ejection VC (above).

Ties: at an offset of exactly ``k/2`` BookSim draws the direction at random
when the header enters the dimension (``595``: ``RandomInt( 1 )``); the preset
follows ``tie`` as the ideal router does (``'random'``: one bit per message and
dimension from the run's stream, the same distribution; ``'plus'``: always
``+``).

Why it is deadlock-free.  Within a dimension a message keeps its direction
and its half, so a channel dependency inside one ring goes from a channel to
the next channel of the same direction and half, ``c -> c + 1``; every other
dependency goes to a higher dimension or to the ejection channel.  A cycle
therefore lies in one (dimension, direction, half) and uses every arc
``c -> c + 1`` of that ring: every node of the ring would be an intermediate
node (entered and left on that ring) of some message of that half.  It is
not.  Take the ``+`` direction, nodes ``0 .. k-1``, wrap link ``k-1 -> 0``.
Half 0 holds the paths with entry ``s < d``: they never use the wrap link,
so no arc enters or leaves it.  Half 1 holds the paths with ``s > d``: they
use the wrap link and, being minimal, have ``L = d - s + k <= floor(k/2)``
hops, so ``s >= ceil(k/2)`` and ``d <= floor(k/2) - 1``; their intermediate
nodes ``s+1 .. k-1`` and ``0 .. d-1`` all differ from ``ceil(k/2)``, so the
dependency from the channel into node ``ceil(k/2)`` to the channel out of it
never occurs.  The ``-`` direction is
the mirror image (half 1: ``s > d``, never wraps; half 0: ``s < d``, wraps
within ``floor(k/2)`` hops, node ``floor(k/2)`` is never intermediate).  So
the channel dependency graph is acyclic, and with ``wait_for_tail_credit =
0`` a header queued behind another message's tail in a VC waits for a
message that holds that VC and waits only for channels later in the same
acyclic order.  (On a unidirectional ring the wrapping paths have up to
``k - 1`` hops and every node is an intermediate node of one of them for
``k >= 4``: the rule is not deadlock-free there.)

``dor`` **with** ``vc_partition='hop'``, **and on a unidirectional torus**: the
project's rule, not BookSim's (BookSim's ``KNCube`` is bidirectional and
``dor_next_torus`` always takes the shorter way): the same halves, but the
half is the textbook Dally-Seitz dateline class recomputed at every hop from
the current node (:func:`.routing.dor`'s ``v2`` / ``v1``): half 1 while the
wrap link of the current dimension is still ahead, half 0 after it.  It is
the preset before issue #24 and the only rule on a unidirectional torus;
``params['vc_partition']`` records which one a run used.

``nbc``: the project's negative-hop levels; every hop goes to a strictly higher
(level, colour) rank, so its VC dependency graph is acyclic and it is
deadlock-free with ``wait_for_tail_credit = 0`` by the same argument.

``min_adapt``: BookSim's ``min_adapt_torus`` (``routefunc.cpp:1718-1794``), on a
bidirectional torus, rule for rule:

* a header at its destination may take every ejection VC (``1742-1745``); the
  function does not return there, but the escape range it adds later for the
  ejection port has the same priority 0 and is not inserted (fact (i));
* a header that arrived on the injection port counts as *not* on an escape
  VC (``1748-1749``: ``in_vc = vcEnd``);
* a header not on an escape VC (``in_vc > vcBegin + 1``, ``1759``: it is on
  VC 3, or injected) is offered the adaptive VC 3 (``vcBegin+3``, priority 1)
  on the minimal port of the lowest dimension with an offset, ``+`` if
  ``dist2 > 0`` else ``-`` (``1762-1771``; the random tie is commented out on
  line 1767, so at an offset of exactly ``k/2`` the adaptive VC goes ``-``).
  The loop adds VC 3 for *every* dimension with an offset, but by fact (i)
  only the first range of priority 1, the lowest dimension's, stays in the
  route: the adaptive VC is offered on one port only, that of the
  dimension-order dimension;
* and the escape VC ``ph`` (priority 0, ``1789-1793``: VC ``vcBegin`` for
  ``ph = 0``, ``vcBegin+1`` for ``ph = 1``) on the dimension-order port, with
  ``dor_next_torus`` called with ``in_port = 2 gN`` ("as if we had injected at
  this node", ``1778-1782``): the direction (random at a tie) and the
  partition ``cur > dest`` of *this* node, at every router;
* a header on escape VC 0 or 1 is offered only the escape VC, never VC 3 again
  (``1783-1787``): ``dor_next_torus`` with its real input port keeps the
  direction and the partition while it continues in the dimension and
  computes them anew when it turns (as for ``dor``);
* VCs 2 and ``4 .. vcs-1`` are never offered on a network channel (they serve
  injection and ejection); ``vcs >= 4`` (VC 3 must exist) or
  :class:`ParameterError` naming ``vcs``;
* priorities: none beyond fact (i) (iSLIP, fact (ii));
* ties: BookSim draws a new direction each time ``dor_next_torus`` computes one
  at a tie (every router while the header is not on an escape VC); the
  preset uses the message's tie bit of that dimension (``tie``) each time;
* ``wait_for_tail_credit`` False (BookSim's default) or True.

The escape VCs alone are deadlock-free (every escape segment is a minimal path
in one direction of one ring with the partition of its first node: the
argument for ``dor`` above, with one VC per half) and absorbing (a message on
an escape VC is offered escape VCs only), so the messages on escape VCs always
drain; VC 3 has cyclic dependencies and relies on the escape VC, which a
header on VC 3 can request whenever it is at the front of its buffer.  With
``wait_for_tail_credit=True`` it always is (a VC is reallocated only once
empty), so ``min_adapt`` is deadlock-free.  With ``False`` a header can wait
behind another message's tail in VC 3; a cycle of such waits needs, in one
ring direction, every VC-3 buffer to hold the tail of one message and the
header of the next, each message spanning at most ``floor(k/2)`` buffers of
that ring (its hops so far) and at most ``floor(k/2) B - 2`` of its ``M`` flits
in them, so it is impossible when ``M > floor(k/2) B - 2``; otherwise it is
possible in principle.  The simulator has not found one: no run of
``min_adapt`` with ``wait_for_tail_credit=False`` deadlocked in 22 million
simulated cycles (95 runs, 3x3 to 16x16 tori, ``vcs`` 4-6, ``B`` 2-32, ``M``
2-32, one or ``vcs`` ejection VCs, most of them where the cycle is possible, at
1 to 3 times the rate that loads the mean channel with 1 flit/cycle, itself at
least twice the saturation rate), which is evidence, not a proof;
``tests/sim/test_wormhole_booksim_routing.py`` keeps three such runs.
(``duato``, whose adaptive VCs may also turn between dimensions, deadlocks
in such a run within 7000-8200 cycles; see below.)

``min_adapt`` and ``duato`` are different algorithms.  ``duato`` (the
project's, :func:`.routing.duato`) offers the adaptive VCs ``2 .. vcs-1`` on
*every* minimal port of *every* dimension with an offset (both directions at
an offset of ``k/2``), lets a message return to them after an escape hop,
uses the per-hop dateline escape VCs 0 and 1 of :func:`.routing.dor` (one VC
each, chosen from the current node at every hop) and needs
``wait_for_tail_credit=True``.  ``min_adapt`` offers one adaptive VC (3) on
one port (the dimension-order dimension's; ``-`` at a tie), never returns to
it from an escape VC, chooses the escape VC by BookSim's ring partition (kept
along a dimension on the escape VCs, recomputed "as if injected" at every
router on VC 3), leaves VC 2 and VCs ``>= 4`` unused on network channels and
takes either ``wait_for_tail_credit``.  Both take any injection VC and any
ejection VC.

``duato``, ``duato_nbc``, ``updown`` (``vcs > 1``) have an adaptive VC class
with cyclic dependencies and rely on Duato's theorem, which assumes that a
blocked header is at the front of its buffer and can request an escape VC,
i.e. that a VC is reallocated only once it is empty.  With
``wait_for_tail_credit = 0`` (BookSim 2's default, ``src/buffer_state.cpp``
``SendingFlit``: ``_in_use`` cleared when the tail is sent) a header can wait
behind another message's tail in an adaptive VC, a dependency outside the
escape order: ``duato`` with 4 VCs of 8 flits on an 8x8 torus deadlocks at
twice the saturation load in about 8000 cycles.  These routings therefore
require ``wait_for_tail_credit=True`` (BookSim's option: the output VC is
freed when the credit of the tail comes back and the downstream buffer is
empty, ``BufferState::ProcessCredit``; the same holds for the injection VCs,
whose state is a ``BufferState`` of the source); otherwise
:class:`ParameterError` (a ``ValueError``) says so.  Their routing *function*
is the project's (:mod:`.routing`): every allowed free VC is requested
(adaptive and escape) and the allocator chooses.  Ties at offset ``k/2``
follow ``tie`` as with the ideal router.

``router_delay`` must be 1 (the stages are fixed) and ``injection_vcs`` 1
(BookSim's source).  A port has at most 63 VCs (network and ejection alike)
and a router at most 62 network ports: switch allocation keeps them as the
bits of an int64 (:data:`.booksim_kernel.SwAlloc`).
"""

from __future__ import annotations

import dataclasses
import types

import numpy as np

from models.core.errors import DeadlockError, ParameterError
from models.core.validate import require, require_choice

from ...networks.graph import Mesh, Topology, Torus
from . import booksim_kernel as K
from .common import check_run, initial_state, run_params, run_until_precise, summarise, tag_capacity
from . import steps
from .steps import alloc_tags, pack_net
from .routing import entry_partition

__all__ = ["simulate_booksim", "zero_load_latency", "BOOKSIM_ROUTINGS", "VC_PARTITIONS", "run_booksim_cycles",
           "vc_partition_of", "channel_vc_flits"]

BOOKSIM_ROUTINGS = ("dor", "nbc", "duato", "duato_nbc", "updown", "min_adapt")
#: the ring-partition rules of ``dor`` on a torus (``vc_partition``): BookSim's, chosen when the header
#: enters a dimension, and the per-hop dateline halves
VC_PARTITIONS = ("entry", "hop")
#: routings with a cyclic (adaptive) VC class, deadlock-free only with atomic VC reallocation
NEEDS_TAIL_CREDIT = ("duato", "duato_nbc", "updown")


def zero_load_latency(hops: int, message_length: int, buffer_depth: int) -> int:
    """Exact zero-load latency of the booksim preset (cycles), any ``buffer_depth``.

    Max-plus recursion over flits ``k`` of the timing above: ``S(k)`` source write,
    ``D_r(k)`` switch allocation in router ``r`` (``r = 0..h``)::

        S(0) = 0,  S(k) = max(S(k-1) + 1, D_0(k-B) + 2)
        A_0(k) = S(k) + 2,  A_r(k) = D_{r-1}(k) + 3
        D_r(0) = A_r(0) + 2
        D_r(k) = max(A_r(k), D_r(k-1) + 1, D_{r+1}(k-B) + 2)   (r < h)
        D_h(k) = max(A_h(k), D_h(k-1) + 1, D_h(k-B) + 5)       (ejection credits)

    and the latency is ``D_h(M-1) + 3``.  For ``B >= 5`` it equals
    ``M + 5 (h + 1) + 1``.
    """
    h, M, B = int(hops), int(message_length), int(buffer_depth)
    R = h + 1
    NEG = -10**9
    S = [0] * M
    A = [[0] * M for _ in range(R)]
    D = [[0] * M for _ in range(R)]
    # flits advance in order; router r's credit constraint looks at router r+1's
    # departure of flit k-B < k, so computing flit by flit, all routers, is causal.
    for k in range(M):
        prevD0 = D[0][k - B] if k - B >= 0 else NEG
        S[k] = 0 if k == 0 else max(S[k - 1] + 1, prevD0 + 2)
        for r in range(R):
            A[r][k] = S[k] + 2 if r == 0 else D[r - 1][k] + 3
            if k == 0:
                D[r][k] = A[r][k] + 2
                continue
            cred = NEG
            if k - B >= 0:
                cred = D[r + 1][k - B] + 2 if r < h else D[r][k - B] + 5
            D[r][k] = max(A[r][k], D[r][k - 1] + 1, cred)
    return D[h][M - 1] + 3


def _inports(topology: Topology, csrc, cdst, cport) -> np.ndarray:
    """Local input-port number of each network channel at its downstream router (BookSim's
    KNCube order: input ``2i`` comes from the ``+1`` neighbour, ``2i+1`` from the ``-1`` one)."""
    C = csrc.size
    if isinstance(topology, Torus):
        if topology.bidirectional:
            return (cport ^ 1).astype(np.int32)
        return cport.astype(np.int32)
    nbr = topology.nbr
    out = np.full(C, -1, np.int32)
    used = set()
    for c in range(C):
        d, s = int(cdst[c]), int(csrc[c])
        for q in range(nbr.shape[1]):
            if nbr[d, q] == s and (d, q) not in used:
                out[c] = q
                used.add((d, q))
                break
        if out[c] < 0:
            raise ParameterError(f"topology {topology.name}: no return port for channel {c}")
    return out


def _aligned(n, dtype):
    """A zeroed array of ``n`` items that starts on a 64-byte boundary, so that a VC's 64-byte
    row of ``vs`` (and a VC's message ring, when it fits one) never straddles two cache lines (NumPy only
    guarantees 16 bytes: half the rows of an unaligned ``vs`` would cost two lines)."""
    size = np.dtype(dtype).itemsize
    raw = np.zeros(n + 64 // size, dtype)
    off = (-raw.ctypes.data % 64) // size
    return raw[off:off + n]


def _setup(topology, V, Vej, B, N, P, satlim, tagcap):
    """The engine's static tables and state arrays, in the named groups of :mod:`.booksim_kernel`
    (a namespace: ``chans``, ``vcs``, ``va``, ``sw``, ``sources``, ``msg``, ``ev``, ``tags``, ``hist``;
    ``C`` the number of network channels)."""
    chan_of, csrc, cdst, cport = topology.channels
    C = csrc.size
    NCH = C + 2 * N
    nodes = np.arange(N)
    c_nvc = np.concatenate([np.full(C, V), np.full(N, V), np.full(N, Vej)]).astype(np.int32)
    c_base = np.zeros(NCH, np.int32)
    c_base[1:] = np.cumsum(c_nvc)[:-1]
    NV = int(c_nvc.sum())
    W = max(V, Vej)
    c_inport = np.concatenate([_inports(topology, csrc, cdst, cport), np.full(N, P), np.full(N, -1)]).astype(np.int32)
    c_outport = np.concatenate([cport, np.full(N, -1), np.full(N, P)]).astype(np.int32)
    v_chan = np.repeat(np.arange(NCH, dtype=np.int32), c_nvc)
    v_idx = (np.arange(NV) - c_base[v_chan]).astype(np.int32)
    mcap = satlim + 2
    i32 = lambda n, fill=0: np.full(n, fill, np.int32)  # noqa: E731
    i64 = lambda n, fill=0: np.full(n, fill, np.int64)  # noqa: E731
    i8 = lambda n: np.zeros(n, np.int8)  # noqa: E731
    chans = K.Chans(base=c_base, src=np.concatenate([csrc, nodes, nodes]).astype(np.int32),
                    dst=np.concatenate([cdst, nodes, nodes]).astype(np.int32), outport=c_outport,
                    inj=(C + nodes).astype(np.int32), ej=(C + N + nodes).astype(np.int32))
    vcs = K.Vcs(vs=_aligned(NV * K.NVS, np.int32), buf=_aligned(NV << K.ring_bits(B), np.int32), mqh=i32(NV),
                mqn=i32(NV), nmsg=i32(NV), inuse=i8(NV), tsent=i8(NV))
    vcs.vs[K.VS_CHAN::K.NVS] = v_chan  # static copies, next to the VC's state
    vcs.vs[K.VS_IDX::K.NVS] = v_idx
    vcs.vs[K.VS_INPORT::K.NVS] = c_inport[v_chan]
    # held by none: each VC's credit count in its own row
    vcs.vs[K.VS_LOC::K.NVS] = np.arange(NV, dtype=np.int32) * K.NVS + K.VS_OCC
    vcs.vs[K.VS_OUT::K.NVS] = -1
    nreq = P * V + W  # requests of one header, at most
    va = K.VcAlloc(pend=i32(NV), onlist=i8(NV),
                   li=np.where(c_inport[v_chan] >= 0, c_inport[v_chan] * W + v_idx, -1).astype(np.int32),
                   lo=np.where(c_outport[v_chan] >= 0, c_outport[v_chan] * W + v_idx, -1).astype(np.int32),
                   g=i32(NV), a=i32(NV), rq=i32(nreq + 1),
                   g_key=i64(NV, -1), g_touch=i32(NV + 1), a_key=i64(NV, -1), a_touch=i32(NV + 1), shead=i32(N, -1),
                   snext=i32(NV, -1))
    ch = np.zeros(NCH, K.CH)
    ch["a"] = ch["g"] = P  # each pointer kept as the position before it (K.CH): every one starts at 0
    ch["rr"] = V - 1
    sw = K.SwAlloc(new=i32(NV), ch=ch, og=i64(NCH), ia=i64(NCH), vcm=i64(NCH * (P + 1)), ogc=i32(NCH * (P + 1)),
                   oreq=i32(NCH),
                   # the touched list: room for one past its masks (every entry written, kept by a count)
                   ia_touch=i32(NCH + 1),
                   lone=i32(NV + 1), nact=i64(NCH), nheld=i64(NCH), gl=i32(NV), cl=i32(NV), lv=i32(NV))
    sources = K.Sources(qhead=i32(N, -1), qtail=i32(N, -1), qlen=i32(N), inq=i8(N), qlist=i32(N), act=i32(N),
                        onact=i8(N), cur_m=i32(N, -1), cur_k=i32(N), cur_vc=i32(N, -1), last_vc=i32(N, -1))
    msg = K.Msgs(dest=i32(mcap), len=i32(mcap), tgen=i64(mcap), tinj=i64(mcap), hops=i32(mcap), tag=i64(mcap, -1),
                 state=i32(mcap), next=np.arange(1, mcap + 1, dtype=np.int32), tie=i64(mcap))
    msg.next[-1] = -1
    ev = K.Events(flit=i64(K.NSLOT * (NCH + 1)), nflit=i64(K.NSLOT), neflit=i64(K.NSLOT),
                  credit=i32(K.NSLOT * (NCH + 1)), ncredit=i64(K.NSLOT))
    hist = K.Hist(nch=i64(V + 1), acc=np.zeros(V + 1), nbusy=i32(NCH))
    hist.nch[0] = C
    return types.SimpleNamespace(chans=chans, vcs=vcs, va=va, sw=sw, sources=sources, msg=msg, ev=ev,
                                 tags=alloc_tags(tagcap), hist=hist, C=C)


def vc_partition_of(topology, routing, vc_partition=None):
    """The ring-partition rule a run uses (``params['vc_partition']``): ``'entry'`` (BookSim's
    ``dim_order_torus``, the default of ``dor`` on a bidirectional torus, and the escape VCs of
    ``min_adapt``), ``'hop'`` (the per-hop dateline halves: ``dor`` on a unidirectional torus, or
    asked for on a bidirectional one), or None (``dor`` on a mesh and the project's routings, which
    have no ring halves).  ``vc_partition`` given where it does not apply, or ``'entry'`` on a
    unidirectional torus, raises :class:`ParameterError`."""
    torus = isinstance(topology, Torus) and not isinstance(topology, Mesh)
    bidir = torus and topology.bidirectional
    if vc_partition is not None:
        require_choice("vc_partition", vc_partition, list(VC_PARTITIONS))
    if routing == "dor" and torus:
        if vc_partition is None:
            return "entry" if bidir else "hop"
        if vc_partition == "entry" and not bidir:
            raise ParameterError(
                "`vc_partition` 'entry' needs a bidirectional torus: BookSim's dim_order_torus partition is "
                "deadlock-free only for minimal paths of at most k/2 hops (on a unidirectional ring every "
                f"node is an intermediate node of some wrapping path); got the {topology.name}")
        return vc_partition
    if routing == "min_adapt":
        if vc_partition not in (None, "entry"):
            raise ParameterError("`vc_partition` must be 'entry' (or None) for routing 'min_adapt': its escape VCs "
                                 f"follow BookSim's dor_next_torus partition; got {vc_partition!r}")
        return "entry"
    if vc_partition is not None:
        raise ParameterError(f"`vc_partition` applies only to routing 'dor' on a torus and 'min_adapt' with "
                             f"router='booksim'; got routing {routing!r} on the {topology.name} (leave it None)")
    return None


def _engine(topology, *, routing, injection_vcs, ejection_vcs, max_messages=None, wait_for_tail_credit=False,
            vc_partition=None, mode=K.RUN_MESSAGES, warmup_cycles=0, run_cycles=0, **shared):
    """Validate, set up and run the engine; returns its state (a namespace, with ``status`` and the
    checked parameters ``p``) for the result builders."""
    if routing not in BOOKSIM_ROUTINGS:
        raise ParameterError(f"`routing` {routing!r} is not supported with router='booksim' "
                             f"(supported: {', '.join(map(repr, BOOKSIM_ROUTINGS))})")
    if not isinstance(wait_for_tail_credit, (bool, np.bool_)):
        raise ParameterError(f"`wait_for_tail_credit` must be True or False; got {wait_for_tail_credit!r}")
    part = vc_partition_of(topology, routing, vc_partition)
    counted = mode == K.RUN_MESSAGES
    p = check_run(topology, routing=routing, max_messages=max_messages, counted=counted, **shared)
    if p.R != 1:
        raise ParameterError(f"`router_delay` must be 1 with router='booksim' (its stages are fixed); got {p.R}")
    V, rt = p.V, p.rt
    if routing in NEEDS_TAIL_CREDIT and not (routing == "updown" and V == 1) and not wait_for_tail_credit:
        raise ParameterError(
            f"`routing` {routing!r} with router='booksim' needs wait_for_tail_credit=True: its adaptive VC "
            "class has cyclic dependencies, and with wait_for_tail_credit=False (BookSim 2's default, the "
            "issue's configuration) an output VC is reallocated as soon as the previous tail is sent, so a "
            "header can wait behind another message's tail in an adaptive VC without reaching the front of "
            "its buffer to request an escape VC, which Duato's deadlock-freedom argument does not cover "
            "(routing 'min_adapt', BookSim's own min_adapt_torus, takes either value)")
    p.streams = 1 if injection_vcs is None else require("injection_vcs", injection_vcs, 1, integer=True)
    if p.streams != 1:
        raise ParameterError(f"`injection_vcs` must be 1 (BookSim's source) with router='booksim'; got {p.streams}")
    p.ej_v = V if ejection_vcs is None else require("ejection_vcs", ejection_vcs, 1, integer=True)
    p.wtc = bool(wait_for_tail_credit)
    if p.satlim >= 2**29:
        raise ParameterError(f"`saturation_backlog` must be < 2**29 with router='booksim' (a flit is 2 m + tail "
                             f"in an int32); got {p.satlim}")
    N, P = topology.nbr.shape
    if max(V, p.ej_v) > 63 or P + 1 > 63:  # switch allocation's iSLIP keeps a channel's VCs and a router's ports as
        # the bits of an int64 (:data:`.booksim_kernel.SwAlloc`)
        raise ParameterError(f"router='booksim' takes at most 63 VCs per port and 62 network ports per router; got "
                             f"{max(V, p.ej_v)} VCs and {P} ports")
    tagcap = tag_capacity(p, p.max_messages or p.messages) if counted else 1
    s = _setup(topology, V, p.ej_v, p.B, N, P, p.satlim, tagcap)
    C = s.C
    a0, half, rule = int(rt.a0), 0, K.RULE_SHARED
    if routing == "dor" and rt.has_escape:  # torus: two ring halves over all VCs
        if V % 2:
            raise ParameterError(f"`vcs` must be even for routing 'dor' on a torus with router='booksim' "
                                 f"(two ring halves, as BookSim's dim_order_torus); got {V}")
        a0, half = V, V // 2  # no adaptive class
        if part == "entry":  # BookSim's partition: the table holds the one of a header entering the dimension
            rule = K.RULE_ENTRY
            ep = entry_partition(topology).ravel()
            rt = dataclasses.replace(rt, escv=ep, tie_escv=ep)
    elif routing == "min_adapt":
        rule = K.RULE_MIN_ADAPT
    rtab = pack_net(rt, topology.channels[0])  # the routing tables packed as for the ideal router
    net = K.Net(route=rtab.route, minp=rtab.minp, chan_up=rtab.chan_up, pchan=rtab.pchan, label=rt.label)
    p.vc_partition = part
    # the terminals send no credits back where no send can wait for one (K.EJ_FLOOR): the ejection VCs' counts start
    # there
    ejfree = p.B >= 5 and not p.wtc and p.maxcyc < -K.EJ_FLOOR
    if ejfree:
        s.vcs.vs[s.chans.base[C + N] * K.NVS + K.VS_OCC::K.NVS] = K.EJ_FLOOR
    cfg = K.Config(
        n=int(N), p=int(P), v=int(V), b=int(p.B), lb=K.ring_bits(int(p.B)), routing=int(rt.kind), a0=a0,
        has_esc=int(rt.has_escape), escape_levels=int(rt.escape_levels), half=half, rule=rule,
        traffic=int(p.traffic_kind),
        length=steps.LENGTH_FIXED if p.length_dist == "fixed" else steps.LENGTH_GEOMETRIC, M=int(p.M),
        geop=float(1.0 / p.M), rate=float(p.offered), warmup=int(p.warmup), maxcyc=int(p.maxcyc),
        satlim=int(p.satlim), dlthresh=int(20 * p.mmax + 50 * p.B + 1000), nchan=int(C),
        tie=int(p.tie == "random" and rt.has_ties), self_traffic=int(p.self_traffic), w=int(max(V, p.ej_v)),
        vej=int(p.ej_v), wtc=int(p.wtc), mode=int(mode), warmcyc=int(warmup_cycles), runcyc=int(run_cycles),
        nbatch=int(p.batches) if mode == K.RUN_CYCLES else 0,
        blen=int(run_cycles // p.batches) if mode == K.RUN_CYCLES else 1, ejcr=int(not ejfree))
    sc, mm, rng = initial_state(p, K.SCALARS, p.warmup if counted else warmup_cycles)
    nb = max(p.batches, 1)
    s.__dict__.update(cfg=cfg, net=net, batches=K.Batches(np.zeros(nb, np.int64), np.zeros(nb, np.int64)), mm=mm,
                      sc=sc, rng=rng, p=p)

    def step(tags):
        return K.run(cfg, net, s.chans, s.vcs, s.va, s.sw, s.sources, s.msg, s.ev, tags, s.hist, s.batches, mm, sc,
                     rng)

    s.status, s.tags, s.wall = run_until_precise(step, sc, s.tags, p, p.target_ci if counted else None)
    if sc[0]["phase"] != steps.MEASURE:  # the window never opened: the kernel's flit counts hold the warm-up's
        s.sw.ch["flits"] = 0
        s.vcs.vs[K.VS_NFL::K.NVS] = 0
    else:  # the flits sent on each channel in the window, from its VCs' counts and the flits on their way
        K.close_window(cfg, s.chans, s.vcs, s.sw, s.ev)
    sc["netflits_w"] = s.sw.ch["flits"][:s.C].sum()  # the window's network flits
    if s.status == steps.DEADLOCK:
        raise _deadlock(topology, s)
    return s


def _deadlock(topology, s) -> DeadlockError:
    """The :class:`DeadlockError` of a run that deadlocked, naming the held network VCs (50 at most)."""
    held = []
    vs = s.vcs.vs.reshape(-1, K.NVS)
    occ = s.vcs.vs[vs[:, K.VS_LOC]]  # a VC's credit count is where its LOC says (its holder's row, or its own)
    injb = s.chans.base[s.C]  # the network VCs
    for b in np.nonzero(s.vcs.inuse[:injb] | (occ[:injb] > 0))[0][:50]:
        ch = int(vs[b, K.VS_CHAN])
        held.append(f"{topology.describe_channel(ch)} vc{int(vs[b, K.VS_IDX])} [{int(occ[b])} flits]")
    x = s.sc[0]
    return DeadlockError(int(x["t"]), held, f"{int(x['innet'])} messages in the network, no flit moved for "
                                            f"{int(x['idle'])} cycles (router='booksim')")


def simulate_booksim(topology, **kw):
    """:func:`models.sim.wormhole.simulate` with ``router='booksim'`` (same keywords, same result)."""
    s = _engine(topology, **kw)
    return summarise(s.p, s.sc, s.status, s.tags, hist_acc=s.hist.acc, channel_flits=s.sw.ch["flits"][:s.C],
                     params=run_params(topology, s.p, "booksim", wait_for_tail_credit=s.p.wtc,
                                       vc_partition=s.p.vc_partition), wall=s.wall,
                     work=dict(vc_alloc_requests="va_requests", sw_alloc_requests="sw_requests",
                               **(dict({f"cycles_{ph}": f"clk_{ph}" for ph in K.PHASES + K.SWITCH_STEPS},
                                       sw_contested="sw_contested") if steps.PROFILE else {})))


def channel_vc_flits(s) -> np.ndarray:
    """Flits received by each network channel's VCs in the measured window, ``(C, V)`` (channels in
    ``topology.channels`` order), from the engine state ``s`` (:func:`run_booksim_cycles`'s third value).
    A flit is counted when it enters the downstream buffer, 3 cycles after the send that
    ``channel_load`` counts, so a row sum is the channel's flits but for those sent in the 3 cycles
    before the window's ends."""
    vs = s.vcs.vs.reshape(-1, K.NVS)
    V = s.cfg.v
    return vs[:s.C * V, K.VS_NFL].reshape(s.C, V).astype(np.int64)


def run_booksim_cycles(topology, *, warmup_cycles, run_cycles, **kw):
    """Throughput mode: run ``warmup_cycles + run_cycles`` cycles; per-batch delivered
    messages and ejected flits over the ``run_cycles`` window (``kw['batches']`` batches), and the
    engine's state."""
    kw = dict(kw)
    N = topology.n_nodes
    horizon = warmup_cycles + run_cycles
    if kw.get("saturation_backlog") is None:
        kw["saturation_backlog"] = int(10 * N + 2.5 * kw.get("_offered_hint", 0.0) * N * horizon) + 1000
    kw.pop("_offered_hint", None)
    kw["max_cycles"] = horizon + 1
    s = _engine(topology, mode=K.RUN_CYCLES, warmup_cycles=warmup_cycles, run_cycles=run_cycles, **kw)
    if s.status != K.DONE:
        raise ParameterError("the throughput run ran out of message slots; raise `saturation_backlog`")
    nb = s.p.batches
    blen = run_cycles // nb
    return s.batches.msgs[:nb] / (N * blen), s.batches.flits[:nb] / (N * blen), s
