"""The numba engine of ``router="booksim"``: BookSim 2's input-queued (``iq``) router, cycle by cycle.

The semantics, with the BookSim source each one follows, are listed in
:mod:`.booksim`; this module is the cycle loop.  Indices follow
:mod:`.kernel`: channels ``0..C-1`` network, ``C..C+N-1`` injection,
``C+N..C+2N-1`` ejection; channel ``ch`` owns VCs ``c_base[ch] ..``.  A VC
index ``b`` names both the flit buffer at the channel's downstream router
(input side: ring ``bq_f``, state ``ST`` ...) and the upstream view of that
buffer (output side: credits in use, ``inuse`` allocated).  Everything switch
allocation and the credit loop read about a VC sits in its 64-byte row of ``vs``
(fields ``VS_*``).  A VC's credit count lives in the row of the input VC that
holds it as its output (``OCCO``) for as long as it is held, and in its own row
(``OCC``) otherwise: a flit sent, and the credit that comes back for it, then
touch only the sender's row.  Per channel, switch allocation keeps its iSLIP
pointers and requests in the records ``chin`` (:data:`CH_IN`, by input channel)
and ``chout`` (:data:`CH_OUT`, by output channel).

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

import numpy as np
from numba import njit

from .kernel import _prefetch
from .traffic import mmpp_next_arrival, rng_exp, rng_int, rng_next, rng_uniform

RUNNING, DONE, DEADLOCK, SATURATED, MAXCYCLES = 0, 1, 2, 3, 4
CT_NET, CT_INJ, CT_EJ = 0, 1, 2
NSLOT = 8  # event ring (largest delay is 5 cycles)

# cfg (int64)
(C_N, C_P, C_V, C_B, C_KIND, C_A0, C_HASESC, C_V2, C_TRAFFIC, C_LENKIND, C_M, C_WARMUP, C_TARGET,
 C_MAXCYC, C_SATLIM, C_DLTHRESH, C_CHUNKEND, C_NCHAN, C_TIE, C_SELF, C_W, C_VEJ, C_MODE, C_WARMCYC,
 C_RUNCYC, C_NBATCH, C_HALF, C_WTC) = range(28)
N_CFG = 28
# per-VC state: one 64-byte row of ``vs`` (int32) per VC (a cache line: the wrapper aligns ``vs``),
# so that everything switch allocation reads about a VC is in its own row (cycle numbers fit: the
# wrapper keeps max_cycles below 2**31 - 16).  Input side (the VC as a buffer): ST state (0 idle,
# 1 routing / VC allocation, 2 active), HEAD / CNT its flit ring, FROM the first cycle its front
# flit may bid, OUT the output VC it holds while active, OCCO the credits in use of OUT (kept here,
# not in OUT's row, while it holds OUT), OUTCH / OUTPORT OUT's channel and output port; static:
# CHAN, IDX (index in the channel), INPORT (input port of CHAN).  Output side (the VC as seen from
# upstream): OCC credits in use while no input VC holds it, OWN the input VC holding it (-1: none).
(VS_ST, VS_HEAD, VS_CNT, VS_FROM, VS_OUT, VS_OCC, VS_CHAN, VS_OWN, VS_OCCO, VS_OUTCH, VS_OUTPORT,
 VS_IDX, VS_INPORT) = range(13)
NVS = 16
(CF_RATE, CF_R1, CF_R2, CF_S1, CF_S2, CF_GEOP) = range(6)
N_CFGF = 6
#: per channel, its input side in switch allocation: requests this cycle (``t << 2 | n``), iSLIP accept
#: pointer, VC round-robin offset
CH_IN = np.dtype([("tc", np.int64), ("ia", np.int64), ("a", np.int32), ("rr", np.int32)], align=True)
#: per channel, its output side: requests this cycle, iSLIP grant pointer, flits sent in the window
CH_OUT = np.dtype([("tc", np.int64), ("og", np.int64), ("flits", np.int64), ("g", np.int32)], align=True)
# S (int64 state scalars)
(S_T, S_PHASE, S_TW, S_DELIV, S_NTAG, S_PREFIX, S_INSYS, S_INNET, S_IDLE, S_FLITHOPS,
 S_NETFLITS_W, S_DELIV_W, S_GEN_W, S_CYC_W, S_FREE, S_NQ, S_MAXLEN, S_GEN, S_INSYS_W0,
 S_VAREQ, S_SWREQ, S_NVCA, S_NSW, S_NSRC, S_EJFLITS_W) = range(25)
N_S = 25
(F_NEXTARR, F_INNET_ACC, F_INSYS_ACC) = range(3)
N_F = 3


@njit(cache=True)
def _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag, m_state, m_next,
         qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
    """A message generated at node ``u`` in cycle ``t`` joins the source queue (False: no slot)."""
    m = S[S_FREE]
    if m < 0:
        return False
    S[S_FREE] = m_next[m]
    N = cfg[C_N]
    if cfg[C_SELF]:
        d = rng_int(st, N)
    else:
        d = rng_int(st, N - 1)
        if d >= u:
            d += 1
    if cfg[C_LENKIND] == 0:
        L = cfg[C_M]
    else:
        p = cfgf[CF_GEOP]
        if p >= 1.0:
            L = 1
        else:
            L = 1 + np.int64(math.floor(math.log(1.0 - rng_uniform(st)) / math.log(1.0 - p)))
    if L > S[S_MAXLEN]:
        S[S_MAXLEN] = L
    m_dest[m] = d
    m_src[m] = u
    m_len[m] = L
    m_tgen[m] = t
    m_hops[m] = 0
    m_state[m] = 0
    m_next[m] = -1
    if cfg[C_TIE]:
        m_tie[m] = np.int64(rng_next(st) >> np.uint64(33))
    else:
        m_tie[m] = 0
    if S[S_PHASE] == 1 and cfg[C_MODE] == 0 and S[S_NTAG] < tagcap:
        m_tag[m] = S[S_NTAG]
        S[S_NTAG] += 1
    else:
        m_tag[m] = -1
    if qlen[u] == 0:
        qhead[u] = m
        if q_inlist[u] == 0:
            q_inlist[u] = 1
            qlist[S[S_NQ]] = u
            S[S_NQ] += 1
    else:
        m_next[qtail[u]] = m
    qtail[u] = m
    qlen[u] += 1
    S[S_INSYS] += 1
    S[S_GEN] += 1
    if S[S_PHASE] == 1:
        S[S_GEN_W] += 1
    return True


@njit(cache=True, inline="always")
def _u(i):
    """``i`` as an unsigned index: numba then emits no negative-index wraparound test (every
    index of the cycle loop is non-negative)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def _hold(b, d, nmsg, v_chan, injb, c_nbusy, nch):
    """``d = +1``: a message takes VC ``b`` (header granted); ``-1``: its tail left ``b``'s buffer.
    A VC is busy while it holds a message (the ideal router's definition); network VCs are
    ``b < injb``."""
    n = nmsg[b]
    nmsg[b] = n + d
    if b < injb and (n == 0) != (n + d == 0):
        ch = v_chan[b]
        k = c_nbusy[ch]
        nch[k] -= 1
        k += d
        c_nbusy[ch] = k
        nch[k] += 1


@njit(cache=True, inline="always")
def _requests(m, u, out, kind, a0, has_esc, V, N, P, Vej, route, minp,
              pchan, c_base, inuse, m_dest, m_state, n_ej, m_tie, half):
    """Free output VCs the routing function allows the header of ``m`` at node ``u`` (count).
    ``route`` / ``minp``: the routing tables packed as for the ideal router (one record per
    (node, destination) pair, :func:`.kernel.route_dtype`), so that a request reads two cache lines."""
    n = 0
    d = m_dest[m]
    if u == d:
        base = c_base[n_ej[u]]
        for v in range(Vej):
            if inuse[base + v] == 0:
                out[n] = base + v
                n += 1
        return n
    idx = u * N + d
    rt = route[idx]
    npt = np.int64(rt.nmin)
    if kind == 1:  # up*/down*
        ph = m_state[m]
        if ph == 0:
            for j in range(npt):
                base = c_base[pchan[u * P + minp[idx * P + j]]]
                for v in range(a0, V):
                    if inuse[base + v] == 0:
                        out[n] = base + v
                        n += 1
        vc = c_base[pchan[u * P + (rt.down_port if ph == 2 else rt.up_port)]]
        if inuse[vc] == 0:
            out[n] = vc
            n += 1
        return n
    td = np.int64(rt.tie_dim)
    minus = td >= 0 and ((m_tie[m] >> td) & 1) == 1
    for j in range(npt):
        p = minp[idx * P + j]
        if minus and npt == 1:
            p = rt.tie_port
        base = c_base[pchan[u * P + p]]
        for v in range(a0, V):
            if inuse[base + v] == 0:
                out[n] = base + v
                n += 1
    if kind == 0:
        if has_esc:
            if minus:
                base = c_base[pchan[u * P + rt.tie_port]]
                cls = np.int64(rt.tie_vc)
            else:
                base = c_base[pchan[u * P + rt.esc_port]]
                cls = np.int64(rt.esc_vc)
            if half > 0:  # BookSim's dim_order_torus: dateline class = half of the VCs
                for v in range(cls * half, cls * half + half):
                    if inuse[base + v] == 0:
                        out[n] = base + v
                        n += 1
            elif inuse[base + cls] == 0:
                out[n] = base + cls
                n += 1
        return n
    f = m_state[m]
    U = np.int64(rt.nbc_top)
    for lv in range(f, U + 1):
        for j in range(npt):
            vc = c_base[pchan[u * P + minp[idx * P + j]]] + lv
            if inuse[vc] == 0:
                out[n] = vc
                n += 1
    return n


@njit(cache=True, boundscheck=False, _nrt=False)
def run(cfg, cfgf, st, S, F,
        route, minp, chan_up, label, pchan,
        c_base, c_nvc, c_type, c_dst, c_src, c_inport, c_outport, n_inj, n_ej,
        v_chan, v_idx, v_li, v_lo,
        qhead, qtail, qlen, q_inlist, qlist,
        bq_f, vs, inuse, tsent, v_busy,
        va_g, va_a, chin, chout,
        vca_list, in_vca, sw_list, in_sw, src_list, in_src, cur_m, cur_k, cur_vc, last_vc,
        ev_f, ev_fn, ev_cb, ev_cn,
        req_b, req_o, rq_tmp, g_key, g_in, g_touch, a_key, a_o, a_touch,
        p_key, p_touch, og_touch, ia_touch,
        cand, cand_o, cand_ich, cand_och, cand_ip, cand_op, cand_vi, gl,
        m_dest, m_src, m_len, m_tgen, m_tinj, m_hops, m_tag, m_state, m_next, m_tie,
        tg_lat, tg_net, tg_wait, tg_hops, tg_done,
        nch, c_nbusy, hist_acc, bt_msgs, bt_flits,
        mm_state, mm_tsw, mm_tar, mm_rates, mm_sig):
    """Advance the simulation until a stop condition; returns a status code.

    Representation: a flit is ``fl = 2 m + tail`` (message slot, tail bit); a
    flit event is ``(fl << 32) | b`` (the VC it enters).  The work-list
    counters live in local variables during the call; ``sw_list`` /
    ``vca_list`` are compacted while they are scanned (an entry stays on its
    list, flagged by ``in_sw`` / ``in_vca``, until a scan finds its VC no
    longer waiting for the switch / for VC allocation).  The allocators'
    outcomes do not depend on the order of these lists (every arbitration key
    is distinct), so neither do the results.

    Every array index in the loop is written ``a[_u(i)]`` (unsigned): numba emits a
    negative-index wraparound test (shift, mask, add) for every signed index, and the loop's
    indices are never negative; without these tests the loop runs about a quarter faster.
    The switch allocator's candidates keep their output VC, input / output channels, ports and
    VC index in ``cand_*``, so that the arbitration and the grants do not re-read the VC rows.
    """
    N = cfg[C_N]
    P = cfg[C_P]
    V = cfg[C_V]
    B = cfg[C_B]
    kind = cfg[C_KIND]
    a0 = cfg[C_A0]
    has_esc = cfg[C_HASESC]
    V2 = cfg[C_V2]
    traffic = cfg[C_TRAFFIC]
    warmup = cfg[C_WARMUP]
    target = cfg[C_TARGET]
    maxcyc = cfg[C_MAXCYC]
    satlim = cfg[C_SATLIM]
    dlthresh = cfg[C_DLTHRESH]
    chunk_end = cfg[C_CHUNKEND]
    C = cfg[C_NCHAN]
    W = cfg[C_W]
    Vej = cfg[C_VEJ]
    mode = cfg[C_MODE]
    warmcyc = cfg[C_WARMCYC]
    runcyc = cfg[C_RUNCYC]
    nbatch = cfg[C_NBATCH]
    half = cfg[C_HALF]
    wtc = cfg[C_WTC] != 0
    blen = runcyc // nbatch if nbatch > 0 else 1
    NPORT = P + 1
    NI = NPORT * W
    NCH = c_base.size
    injb = c_base[C]  # VCs < injb: network; >= ejb: ejection
    ejb = c_base[_u(C + N)]
    tagcap = tg_lat.size
    lamN = cfgf[CF_RATE] * N
    MASK = np.int64(0xFFFFFFFF)
    nvca = S[S_NVCA]
    nsw = S[S_NSW]
    nsrc = S[S_NSRC]
    flithops = S[S_FLITHOPS]
    netw = S[S_NETFLITS_W]
    ejw = S[S_EJFLITS_W]
    vareq = S[S_VAREQ]
    swreq = S[S_SWREQ]
    status = RUNNING
    while True:
        t = S[S_T]
        if t >= chunk_end:
            status = RUNNING
            break
        if t >= maxcyc:
            status = MAXCYCLES
            break
        phase = S[S_PHASE]
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
            # active VC holds its output VC until its tail is sent: ST == 2 and OUT == b), else in b's
            if ow < 0 or vs[_u(ow * NVS + VS_ST)] != 2 or vs[_u(ow * NVS + VS_OUT)] != b:
                ow = vs[_u(b * NVS + VS_OWN)]  # the holder changed since the flit was sent
            if ow >= 0:
                r = ow * NVS
                vs[_u(r + VS_OCCO)] -= 1
                if in_sw[_u(ow)] == 0 and vs[_u(r + VS_CNT)] > 0:  # it slept for lack of this credit
                    in_sw[_u(ow)] = 1
                    sw_list[_u(nsw)] = ow
                    nsw += 1
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
                if phase == 1:
                    ejw += 1
                    if mode == 1:
                        bi = (t - warmcyc) // blen
                        if bi < nbatch:
                            bt_flits[_u(bi)] += 1
                if fl & 1:  # the tail reaches the terminal: delivered
                    m = fl >> 1
                    _hold(b, -1, v_busy, v_chan, injb, c_nbusy, nch)
                    S[S_INSYS] -= 1
                    S[S_INNET] -= 1
                    S[S_DELIV] += 1
                    if phase == 1:
                        S[S_DELIV_W] += 1
                        if mode == 1:
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
                    m_next[_u(m)] = S[S_FREE]
                    S[S_FREE] = m
                continue
            c = vs[_u(b * NVS + VS_CNT)]
            pos = vs[_u(b * NVS + VS_HEAD)] + c
            if pos >= B:
                pos -= B
            bq_f[_u(b * B + pos)] = fl
            vs[_u(b * NVS + VS_CNT)] = c + 1
            s = vs[_u(b * NVS + VS_ST)]
            if s == 0:  # a header at an idle VC: routing now, VC allocation from t + 1
                vs[_u(b * NVS + VS_ST)] = 1
                vs[_u(b * NVS + VS_FROM)] = t + 1
                idx = c_dst[_u(vs[_u(b * NVS + VS_CHAN)])] * N + m_dest[_u(fl >> 1)]
                _prefetch(route, idx)  # its routing-table entries, read from t + 1
                _prefetch(minp, idx * P)
                if in_vca[_u(b)] == 0:
                    in_vca[_u(b)] = 1
                    vca_list[_u(nvca)] = b
                    nvca += 1
            elif s == 2 and c == 0:  # front flit of an active VC: switch allocation now
                vs[_u(b * NVS + VS_FROM)] = t
                if in_sw[_u(b)] == 0:
                    in_sw[_u(b)] = 1
                    sw_list[_u(nsw)] = b
                    nsw += 1
        ev_fn[_u(slot)] = 0
        # ------------------------------------------------------------ B. generation
        if traffic == 0:
            while F[F_NEXTARR] < t + 1.0:
                u = rng_int(st, N)
                if not _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag,
                            m_state, m_next, qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
                    status = SATURATED
                    break
                F[F_NEXTARR] += rng_exp(st) / lamN
        else:
            tend = t + 1.0
            for u in range(N):
                while mmpp_next_arrival(st, u, tend, mm_rates, mm_sig, mm_state, mm_tsw, mm_tar):
                    if not _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag,
                                m_state, m_next, qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
                        status = SATURATED
                        break
                if status != RUNNING:
                    break
        if status != RUNNING:
            break
        # nodes with a queued message become active sources
        nq = S[S_NQ]
        for i in range(nq):
            u = qlist[_u(i)]
            q_inlist[_u(u)] = 0
            if in_src[_u(u)] == 0:
                in_src[_u(u)] = 1
                src_list[_u(nsrc)] = u
                nsrc += 1
        S[S_NQ] = 0
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
                        S[S_INNET] += 1
                        _hold(vc, 1, v_busy, v_chan, injb, c_nbusy, nch)
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
        if phase == 1:
            F[F_INNET_ACC] += S[S_INNET]
            F[F_INSYS_ACC] += S[S_INSYS]
        # ------------------------------------------------------------ D. VC allocation (iSLIP, 1 iteration)
        nr = 0
        ng = 0
        w = 0
        for i in range(nvca):
            b = vca_list[_u(i)]
            if vs[_u(b * NVS + VS_ST)] != 1:  # allocated since: off the list
                in_vca[_u(b)] = 0
                continue
            vca_list[_u(w)] = b
            w += 1
            if vs[_u(b * NVS + VS_FROM)] > t:
                continue
            m = bq_f[_u(b * B + vs[_u(b * NVS + VS_HEAD)])] >> 1
            u = c_dst[_u(vs[_u(b * NVS + VS_CHAN)])]
            cnt = _requests(m, u, rq_tmp, kind, a0, has_esc, V, N, P, Vej, route, minp,
                            pchan, c_base, inuse, m_dest, m_state, n_ej, m_tie, half)
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
            _hold(o, 1, v_busy, v_chan, injb, c_nbusy, nch)
            r = b * NVS
            vs[_u(r + VS_OUT)] = o
            vs[_u(r + VS_OCCO)] = vs[_u(o * NVS + VS_OCC)]  # o's credit count moves to its holder's row
            och = vs[_u(o * NVS + VS_CHAN)]
            vs[_u(r + VS_OUTCH)] = och
            vs[_u(r + VS_OUTPORT)] = c_outport[_u(och)]
            vs[_u(b * NVS + VS_ST)] = 2
            vs[_u(b * NVS + VS_FROM)] = t + 1
            if in_sw[_u(b)] == 0:
                in_sw[_u(b)] = 1
                sw_list[_u(nsw)] = b
                nsw += 1
            if o < injb:
                ch = vs[_u(o * NVS + VS_CHAN)]
                m = bq_f[_u(b * B + vs[_u(b * NVS + VS_HEAD)])] >> 1
                m_hops[_u(m)] += 1
                vi = v_idx[_u(o)]
                if kind == 2:
                    u = c_src[_u(ch)]
                    if vi < V2:
                        m_state[_u(m)] = vi + label[_u(u)]
                    else:
                        m_state[_u(m)] += label[_u(u)]
                elif kind == 1:
                    if vi == 0:
                        m_state[_u(m)] = 1 if chan_up[_u(ch)] else 2
        # ------------------------------------------------------------ E. switch allocation (iSLIP, 1 iteration)
        # candidates: active VCs with a front flit due and a credit; a request alone at its
        # input port and at its output port wins outright (what iSLIP gives it), the others
        # go through the per-input-port VC choice and the grant / accept phases.
        ncand = 0
        w = 0
        for i in range(nsw):
            b = sw_list[_u(i)]
            r = b * NVS
            if vs[_u(r + VS_ST)] != 2 or vs[_u(r + VS_CNT)] == 0:  # nothing to send (or a new header): off the list
                in_sw[_u(b)] = 0
                continue
            if vs[_u(r + VS_OCCO)] >= B:  # no credit: off the list until one comes back (A)
                in_sw[_u(b)] = 0
                continue
            sw_list[_u(w)] = b
            w += 1
            if vs[_u(r + VS_FROM)] > t:
                continue
            ich = vs[_u(r + VS_CHAN)]
            och = vs[_u(r + VS_OUTCH)]
            cand[_u(ncand)] = b
            cand_o[_u(ncand)] = vs[_u(r + VS_OUT)]
            cand_ich[_u(ncand)] = ich
            cand_och[_u(ncand)] = och
            cand_ip[_u(ncand)] = vs[_u(r + VS_INPORT)]
            cand_op[_u(ncand)] = vs[_u(r + VS_OUTPORT)]
            cand_vi[_u(ncand)] = vs[_u(r + VS_IDX)]
            ncand += 1
            # requests per input / output channel this cycle: ``t << 2 | n`` with n = 1 or 2 (2: more)
            x = chin[_u(ich)].tc
            chin[_u(ich)].tc = (t << 2) | 2 if (x >> 2) == t else (t << 2) | 1
            x = chout[_u(och)].tc
            chout[_u(och)].tc = (t << 2) | 2 if (x >> 2) == t else (t << 2) | 1
        nsw = w
        swreq += ncand
        # gl holds candidate numbers (indices into the cand_* arrays).  The iSLIP records pack an
        # arbitration key and what it points at into one int64, ``key << 32 | index`` (-1: empty), so
        # that the smallest record is the round-robin winner (keys are distinct within a record).
        ngr = 0
        npr = 0
        for i in range(ncand):
            ich = cand_ich[_u(i)]
            och = cand_och[_u(i)]
            if (chin[_u(ich)].tc & 3) == 1 and (chout[_u(och)].tc & 3) == 1:
                gl[_u(ngr)] = i
                ngr += 1
                continue
            # per (input port, output port), the VC first in round-robin order from the port's offset
            pr = ich * NPORT + cand_op[_u(i)]
            key = cand_vi[_u(i)] - chin[_u(ich)].rr
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
                och = cand_och[_u(i)]
                key = cand_ip[_u(i)] - chout[_u(och)].g
                if key < 0:
                    key += NPORT
                pk = (key << 32) | pr
                x = chout[_u(och)].og
                if x < 0:
                    chout[_u(och)].og = pk
                    og_touch[_u(nog)] = och
                    nog += 1
                elif pk < x:
                    chout[_u(och)].og = pk
            nia = 0
            for j in range(nog):  # accept: each input port takes the granting output first from its pointer
                och = og_touch[_u(j)]
                pr = chout[_u(och)].og & MASK
                chout[_u(och)].og = -1
                i = p_key[_u(pr)] & MASK
                ich = cand_ich[_u(i)]
                key = cand_op[_u(i)] - chin[_u(ich)].a
                if key < 0:
                    key += NPORT
                pk = (key << 32) | pr
                x = chin[_u(ich)].ia
                if x < 0:
                    chin[_u(ich)].ia = pk
                    ia_touch[_u(nia)] = ich
                    nia += 1
                elif pk < x:
                    chin[_u(ich)].ia = pk
            for j in range(nia):
                ich = ia_touch[_u(j)]
                pr = chin[_u(ich)].ia & MASK
                chin[_u(ich)].ia = -1
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
            b = cand[_u(i)]
            o = cand_o[_u(i)]
            ich = cand_ich[_u(i)]
            och = cand_och[_u(i)]
            r = b * NVS
            x = cand_ip[_u(i)] + 1
            chout[_u(och)].g = x if x < NPORT else 0
            x = cand_op[_u(i)] + 1
            chin[_u(ich)].a = x if x < NPORT else 0
            x = cand_vi[_u(i)] + 1
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
                _hold(b, -1, v_busy, v_chan, injb, c_nbusy, nch)
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
            elif phase == 1:
                netw += 1
                chout[_u(och)].flits += 1
            if tail:
                if c == 0:
                    vs[_u(b * NVS + VS_ST)] = 0
                else:  # the next message's header: routing at t + 1, VC allocation from t + 2
                    vs[_u(b * NVS + VS_ST)] = 1
                    vs[_u(b * NVS + VS_FROM)] = t + 2
                    if in_vca[_u(b)] == 0:
                        in_vca[_u(b)] = 1
                        vca_list[_u(nvca)] = b
                        nvca += 1
            else:
                vs[_u(b * NVS + VS_FROM)] = t + 1
        ev_cn[_u(sl2)] = cn2
        ev_fn[_u(sl3)] = fn3
        ev_cn[_u(sl5)] = cn5
        if ngr > 0:
            moved = True
            flithops += ngr
        # ------------------------------------------------------------ F. bookkeeping
        if phase == 1:
            for v in range(V + 1):
                hist_acc[_u(v)] += nch[_u(v)]
            S[S_CYC_W] += 1
        elif (mode == 0 and S[S_DELIV] >= warmup) or (mode == 1 and t + 1 >= warmcyc):
            S[S_PHASE] = 1
            S[S_TW] = t + 1
            S[S_INSYS_W0] = S[S_INSYS]
        if moved or S[S_INNET] == 0:
            S[S_IDLE] = 0
        else:
            S[S_IDLE] += 1
            if S[S_IDLE] > dlthresh:
                status = DEADLOCK
                break
        S[S_T] = t + 1
        if S[S_INSYS] > satlim:
            status = SATURATED
            break
        if mode == 1:
            if t + 1 >= warmcyc + runcyc:
                status = DONE
                break
        elif S[S_PHASE] == 1:
            p = S[S_PREFIX]
            ntg = S[S_NTAG]
            while p < ntg and tg_done[_u(p)] != 0:
                p += 1
            S[S_PREFIX] = p
            if p >= target:
                status = DONE
                break
    S[S_NVCA] = nvca
    S[S_NSW] = nsw
    S[S_NSRC] = nsrc
    S[S_FLITHOPS] = flithops
    S[S_NETFLITS_W] = netw
    S[S_EJFLITS_W] = ejw
    S[S_VAREQ] = vareq
    S[S_SWREQ] = swreq
    return status
