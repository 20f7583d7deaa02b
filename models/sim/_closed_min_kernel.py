"""Compiled inner loop of :mod:`models.sim.closed_min` (numba, ``cache=True``).

Everything here is plain arrays, one record array (the messages, :data:`MSG`) and integers; the semantics are
documented in :mod:`models.sim.closed_min`.  Time is in clock cycles; "arrival at cycle ``a``" means the (lead)
packet is in the queue at the end of cycle ``a`` and can first be transmitted during cycle ``a + 1``.

Message ids: processor ``i`` owns ids ``i*NC .. i*NC + NC - 1`` (one per
outstanding-request token).  A message is in at most one FIFO at a time, so
every FIFO is an intrusive singly linked list (``MSG.nxt``) with ``head`` and
``tail`` per center; total queue storage is ``O(N*NC)`` however many
centers there are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the lowest set bit (llvm cttz), and an index known to be >= 0 as unsigned (no negative-index wraparound test:
# about a tenth of the loop's time), shared with the wormhole kernels
from .wormhole.steps import ctz as _ctz, uidx

#: one message (request, then its reply): the next in its FIFO (-1: none), the index of the center it is queued at
#: (``hop``: 0..n-1 forward, n memory, n+1..2n return), its processor and memory, the cycle its lead packet
#: arrived at that center and the cycle it was issued; 32 bytes, so that a move reads one cache line of it
MSG = np.dtype([("nxt", np.int32), ("hop", np.int32), ("src", np.int32), ("dst", np.int32), ("arr", np.int64),
                ("t0", np.int64)], align=True)


@njit(cache=True)
def _precise(r_sum, r_cnt, edges, lo, hi, tq, target):
    """Whether the 95 % half widths of ``R`` and ``X`` are within ``target`` times their means over the blocks
    ``lo[b] .. hi[b] - 1`` of each batch ``b`` (:func:`models.core.stats.ci_halfwidth`: Student t, ``tq[d]`` its
    quantile with ``d`` degrees of freedom; ``R`` over the batches with a completion, as
    :func:`models.sim.closed_min._batch_ci`)."""
    B = lo.size
    rm = np.empty(B)
    xm = np.empty(B)
    nok = 0
    tot_s = 0.0
    tot_c = 0
    for b in range(B):
        s = 0.0
        c = 0
        for i in range(lo[b], hi[b]):
            s += r_sum[i]
            c += r_cnt[i]
        tot_s += s
        tot_c += c
        if c > 0:
            rm[nok] = s / c
            nok += 1
        xm[b] = c / (edges[hi[b]] - edges[lo[b]])
    if nok < 2 or tot_c == 0:
        return False
    R = tot_s / tot_c
    X = tot_c / (edges[hi[B - 1]] - edges[lo[0]])
    return (tq[nok - 1] * _sd(rm[:nok]) / np.sqrt(nok) <= target * R
            and tq[B - 1] * _sd(xm) / np.sqrt(B) <= target * X)


@njit(cache=True)
def _sd(x):
    """The sample standard deviation of ``x`` (``ddof = 1``)."""
    mean = x.sum() / x.size
    ss = 0.0
    for v in x:
        ss += (v - mean) * (v - mean)
    return np.sqrt(ss / (x.size - 1))


@njit(cache=True)
def run_kernel(fwd, ret, cum_p, uniform, n, NC, p_gen, S_mm, m, warmup, edges, bounds, tq, target, seed):
    """Simulate from cycle 0 to the first checkpoint at which ``R`` and ``X`` are precise (or the last); return
    raw accumulators (see ``closed_min``), per batch of that checkpoint's window, and the checkpoint's index.

    Parameters
    ----------
    fwd : int64[N, N, n]   forward centers of request p -> d, visiting order
    ret : int64[N, N, n]   return centers of reply d -> p, visiting order
    cum_p : float64[N, N]  row-wise cumulative reference matrix (last column 1)
    uniform : bool         every row of ``cum_p`` is ``(j + 1) / N`` exactly, ``N`` a power of two: the
                           destination of a draw ``u`` is then ``floor(u N)``, the same as the binary search
                           of ``u`` in the row (``(j + 1) / N <= u`` iff ``j + 1 <= floor(u N)``, ``u N`` exact)
    p_gen : float64        per-cycle request probability 1/S_pe
    warmup : int           cycles before the measured window
    edges : int64[K + 1]   the measured window's blocks: block ``i`` is the cycles ``warmup + edges[i] ..
                           warmup + edges[i + 1] - 1`` (``edges[0] = 0``, increasing); events are counted per block
    bounds : int64[J, B+1] checkpoint ``j``'s window is ``edges[bounds[j, B]]`` cycles, its batch ``b`` the blocks
                           ``bounds[j, b] .. bounds[j, b + 1] - 1``; the last checkpoint ends at the last edge
    tq : float64[B]        ``tq[d]``: the 95 % Student-t quantile with ``d`` degrees of freedom (``tq[0]`` unused)
    target : float64       stop at the first checkpoint where the half widths of ``R`` and ``X`` are within
                           ``target`` times their means (:func:`_precise`); 0: run to the last one

    A run that stops at checkpoint ``j`` leaves the accumulators of a run whose window is that checkpoint's
    from the start, bit for bit (the same draws, and an event is counted by the block of its completion cycle,
    then taken out again if it completes after the stop): lengthening a run in place is the same as running
    it again, longer, with the same seed.
    """
    np.random.seed(seed)
    N = cum_p.shape[0]
    n_sw = 2 * n * N  # switch output-port centers
    C = n_sw + N  # + memory centers
    n_st = 2 * n + 1  # stage index = center // N: F1..Fn, R1..Rn, MM
    M = N * NC

    # messages: one 32-byte record each (MSG), everything a move reads about its message in one cache line
    mr = np.zeros(M, MSG)
    for i in range(N):
        for s in range(NC):
            mr[i * NC + s].src = i
            mr[i * NC + s].nxt = -1

    # FIFOs and links
    head = np.full(C, -1, np.int32)
    tail = np.full(C, -1, np.int32)
    busy_until = np.full(C, -1, np.int64)  # last cycle the output link carries its current message
    blk_stamp = np.full(C, -1, np.int64)
    blk_cnt = np.zeros(C, np.int32)
    blk_pre = np.full(C, -1, np.int32)
    # the switch output ports with a message queued, as bits (port c: bit c % 64 of word c // 64), so that
    # phase A visits only those, in increasing order (the order of the scan over every port it replaces)
    queued = np.zeros((n_sw + 63) // 64, np.uint64)

    # memories
    mem_msg = np.full(N, -1, np.int64)
    mem_end = np.full(N, -1, np.int64)  # last cycle of the current service

    # processors
    free = np.empty((N, NC), np.int64)
    free_top = np.full(N, NC, np.int64)
    for i in range(N):
        for s in range(NC):
            free[i, s] = i * NC + (NC - 1 - s)
    outstanding = np.zeros(N, np.int64)
    send_busy = np.full(N, -1, np.int64)  # last cycle the processor link carries a request
    done_at = np.full(N, -1, np.int64)  # cycle the pending reply's last packet arrives
    done_msg = np.full(N, -1, np.int64)

    # arrivals of the current cycle (applied after all departures)
    a_msg = np.empty(C + 2 * N, np.int32)
    a_ctr = np.empty(C + 2 * N, np.int32)

    # accumulators (measured window [warmup, warmup + edges[K])), per block where batched
    K = edges.size - 1
    B = bounds.shape[1] - 1
    end_max = warmup + edges[K]  # an event completing at or after it is never counted
    st_sum = np.zeros((K, n_st), np.float64)
    st_cnt = np.zeros((K, n_st), np.int64)
    c_sum = np.zeros(C, np.float64)
    c_cnt = np.zeros(C, np.int64)
    r_sum = np.zeros(K, np.float64)
    r_cnt = np.zeros(K, np.int64)
    rp_sum = np.zeros(N, np.float64)
    rp_cnt = np.zeros(N, np.int64)
    out_sum = np.zeros(K, np.float64)
    lp_sum = np.zeros(N, np.float64)
    moves = 0  # switch-link message transmissions (whole run)

    stage_of = np.empty(C, np.int32)
    for c in range(C):
        stage_of[c] = c // N

    J = bounds.shape[0]
    ck = 0  # the next checkpoint
    stop = warmup + edges[bounds[0, B]]  # its end: the run stops after cycle stop - 1 if precise there
    bt = 0  # the block of cycle t (0 in the warm-up)
    t = -1
    while True:
        t += 1
        na = 0
        measured = t >= warmup
        if measured:
            while edges[bt + 1] <= t - warmup:
                bt += 1
        # ---- phase A: departures, decided on the state at the end of cycle t-1
        # processors: retire a reply whose last packet arrived at t-1, then maybe issue
        for i in range(N):
            if done_at[uidx(i)] == t - 1 and done_msg[uidx(i)] >= 0:
                free[i, free_top[uidx(i)]] = done_msg[uidx(i)]
                free_top[uidx(i)] += 1
                outstanding[uidx(i)] -= 1
                done_msg[uidx(i)] = -1
            if send_busy[uidx(i)] < t and outstanding[uidx(i)] < NC:
                if p_gen >= 1.0 or np.random.random() < p_gen:
                    free_top[uidx(i)] -= 1
                    msg = free[i, free_top[uidx(i)]]
                    u = np.random.random()
                    if uniform:
                        d = np.int64(u * N)
                    else:
                        d = np.searchsorted(cum_p[i], u, side="right")
                    if d >= N:
                        d = N - 1
                    x = mr[uidx(msg)]
                    x.dst = d
                    x.hop = 0
                    x.t0 = t
                    x.arr = t  # its arrival at the first center, at the end of t (phase B queues it)
                    x.nxt = -1
                    outstanding[uidx(i)] += 1
                    send_busy[uidx(i)] = t + m - 1
                    a_msg[uidx(na)] = msg
                    a_ctr[uidx(na)] = fwd[i, d, 0]
                    na += 1
        # memories: a service that ended at t-1 sends its reply's lead packet
        # on the memory link during t; then the next request may start service
        for j in range(N):
            if mem_msg[uidx(j)] >= 0 and mem_end[uidx(j)] == t - 1:
                msg = mem_msg[uidx(j)]
                x = mr[uidx(msg)]
                x.hop = n + 1
                x.arr = t
                x.nxt = -1
                a_msg[uidx(na)] = msg
                a_ctr[uidx(na)] = ret[j, x.src, 0]
                na += 1
                mem_msg[uidx(j)] = -1
            if mem_msg[uidx(j)] < 0:
                c = n_sw + j
                h = head[uidx(c)]
                if h >= 0 and mr[uidx(h)].arr + m - 1 <= t - 1:  # last packet arrived by t-1
                    head[uidx(c)] = mr[uidx(h)].nxt
                    if head[uidx(c)] < 0:
                        tail[uidx(c)] = -1
                    mem_msg[uidx(j)] = h
                    f = t + S_mm - 1
                    mem_end[uidx(j)] = f
                    if f >= warmup and f < end_max:
                        res = f - mr[uidx(h)].arr
                        b = bt
                        while edges[b + 1] <= f - warmup:  # the block of cycle f (at most S_mm cycles ahead)
                            b += 1
                        st_sum[b, 2 * n] += res
                        st_cnt[b, 2 * n] += 1
                        c_sum[uidx(c)] += res
                        c_cnt[uidx(c)] += 1
        # switch output ports: an idle link starts the head message's lead packet (the ports with a
        # message queued, in increasing order)
        for wd in range(queued.size):
            bits = queued[uidx(wd)]
            while bits:
                c = wd * 64 + _ctz(bits)
                bits &= bits - np.uint64(1)
                if busy_until[uidx(c)] >= t:
                    continue
                h = head[uidx(c)]
                x = mr[uidx(h)]
                head[uidx(c)] = x.nxt
                if head[uidx(c)] < 0:
                    tail[uidx(c)] = -1
                    queued[uidx(wd)] &= ~(np.uint64(1) << np.uint64(c - wd * 64))
                busy_until[uidx(c)] = t + m - 1
                moves += 1
                if measured:
                    res = t - x.arr
                    st = stage_of[uidx(c)]
                    st_sum[bt, st] += res
                    st_cnt[bt, st] += 1
                    c_sum[uidx(c)] += res
                    c_cnt[uidx(c)] += 1
                hop = x.hop
                p = x.src
                d = x.dst
                x.arr = t  # its arrival at the next center (the reply's last stage: unused until it is issued again)
                x.nxt = -1
                if hop < n - 1:
                    x.hop = hop + 1
                    a_msg[uidx(na)] = h
                    a_ctr[uidx(na)] = fwd[p, d, hop + 1]
                    na += 1
                elif hop == n - 1:
                    x.hop = n
                    a_msg[uidx(na)] = h
                    a_ctr[uidx(na)] = n_sw + d
                    na += 1
                elif hop < 2 * n:
                    x.hop = hop + 1
                    a_msg[uidx(na)] = h
                    a_ctr[uidx(na)] = ret[d, p, hop - n]
                    na += 1
                else:  # last return stage: the reply streams into processor p
                    done = t + m - 1
                    done_at[uidx(p)] = done
                    done_msg[uidx(p)] = h
                    if done >= warmup and done < end_max:
                        rt = done - x.t0
                        b = bt
                        while edges[b + 1] <= done - warmup:  # the block of cycle done (m - 1 cycles ahead)
                            b += 1
                        r_sum[uidx(b)] += rt
                        r_cnt[uidx(b)] += 1
                        rp_sum[uidx(p)] += rt
                        rp_cnt[uidx(p)] += 1
        # ---- phase B: lead packets sent during t join their queues (end of t).
        # Arrivals in the same cycle to the same FIFO form a block at its tail;
        # the r-th member of the block is inserted at a uniformly random
        # position among the r (inside-out Fisher-Yates), so the block ends in
        # a uniformly random order.  No pops happen in this phase, so the
        # element before the block (blk_pre) stays valid.  (Written inline: a
        # helper call per packet costs numba reference counting, ~4x slower.)
        for q in range(na):  # (their ``arr`` and ``nxt`` were set where they left: the record was at hand)
            c = a_ctr[uidx(q)]
            msg = a_msg[uidx(q)]
            if blk_stamp[uidx(c)] != t:
                blk_stamp[uidx(c)] = t
                blk_cnt[uidx(c)] = 1
                blk_pre[uidx(c)] = tail[uidx(c)]
                if tail[uidx(c)] < 0:
                    head[uidx(c)] = msg
                    if c < n_sw:
                        queued[uidx(c // 64)] |= np.uint64(1) << np.uint64(c % 64)
                else:
                    mr[uidx(tail[uidx(c)])].nxt = msg
                tail[uidx(c)] = msg
                continue
            r = blk_cnt[uidx(c)] + 1
            blk_cnt[uidx(c)] = r
            pos = np.random.randint(0, r)  # 0 .. r-1: inside-out Fisher-Yates
            if pos == r - 1:
                mr[uidx(tail[uidx(c)])].nxt = msg
                tail[uidx(c)] = msg
                continue
            prev = blk_pre[uidx(c)]
            cur = head[uidx(c)] if prev < 0 else mr[uidx(prev)].nxt
            for _ in range(pos):
                prev = cur
                cur = mr[uidx(cur)].nxt
            mr[uidx(msg)].nxt = cur
            if prev < 0:
                head[uidx(c)] = msg
            else:
                mr[uidx(prev)].nxt = msg
        # ---- sample the number outstanding at the end of t (a request counts
        # from its departure cycle t0 up to, not including, its completion cycle)
        if measured:
            tot = 0
            for i in range(N):
                o = outstanding[uidx(i)]
                if done_at[uidx(i)] == t and done_msg[uidx(i)] >= 0:
                    o -= 1
                lp_sum[uidx(i)] += o
                tot += o
            out_sum[uidx(bt)] += tot
        # ---- a checkpoint: stop if precise there (or the last)
        if t == stop - 1:
            if ck == J - 1:
                break
            if target > 0 and _precise(r_sum, r_cnt, edges, bounds[ck, :B], bounds[ck, 1:], tq, target):
                break
            ck += 1
            stop = warmup + edges[bounds[ck, B]]

    # the events counted ahead that complete at or after the stop, taken out again: a memory still serving,
    # a reply still streaming in (their blocks lie past the stop, outside every batch below)
    if stop < end_max:
        for jj in range(N):
            h = mem_msg[jj]
            if h >= 0 and stop <= mem_end[jj] < end_max and mem_end[jj] >= warmup:
                c_sum[n_sw + jj] -= mem_end[jj] - mr[h].arr
                c_cnt[n_sw + jj] -= 1
        for i in range(N):
            h = done_msg[i]
            if h >= 0 and stop <= done_at[i] < end_max and done_at[i] >= warmup:
                rp_sum[i] -= done_at[i] - mr[h].t0
                rp_cnt[i] -= 1
    # the blocks of checkpoint ck's window, summed per batch
    bs_sum = np.zeros((B, n_st), np.float64)
    bs_cnt = np.zeros((B, n_st), np.int64)
    br_sum = np.zeros(B, np.float64)
    br_cnt = np.zeros(B, np.int64)
    bo_sum = np.zeros(B, np.float64)
    for b in range(B):
        for i in range(bounds[ck, b], bounds[ck, b + 1]):
            for s_ in range(n_st):
                bs_sum[b, s_] += st_sum[i, s_]
                bs_cnt[b, s_] += st_cnt[i, s_]
            br_sum[b] += r_sum[i]
            br_cnt[b] += r_cnt[i]
            bo_sum[b] += out_sum[i]
    return bs_sum, bs_cnt, c_sum, c_cnt, br_sum, br_cnt, rp_sum, rp_cnt, bo_sum, lp_sum, moves, ck
