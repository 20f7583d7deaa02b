"""The numba engine: one synchronous cycle loop over struct-of-arrays state.

State (all flat numpy arrays, see :mod:`.simulate` for allocation)
--------------------------------------------------------------------
Channels ``0..C-1`` are the network channels, ``C..C+N-1`` the injection
channels (PE -> router of node ``u``), ``C+N..C+2N-1`` the ejection channels
(router -> PE).  Channel ``ch`` owns VCs ``c_base[ch] .. c_base[ch]+c_nvc[ch]-1``.
A VC is held by one message from the moment its header is granted the VC
until the message's tail flit leaves the VC's buffer, so a buffer holds flits
of one message only and is described by counters: ``v_nin`` / ``v_nout``
flits in / out so far (``v_nin - v_nout`` flits buffered), ``v_prv`` the
upstream VC of the same message, ``v_nxt`` the downstream VC once the header
has been routed.  The ejection "buffer" is the PE (a sink).

One cycle ``t`` (every phase reads the state left by the previous one; a
VC receives and sends at most one flit per cycle, and "start of cycle"
counts are reconstructed from the ``last_in`` / ``last_out`` stamps, so
the in-place update equals a synchronous one):

1. generation: new messages join their node's source queue (FIFO);
2. injection: the head of a non-empty source queue takes a free injection
   VC of its node (source queueing ends here) if fewer than ``streams``
   messages of the node are still being written into the injection channel
   (tail not yet in its injection VC);
3. routing / VC allocation: every header at the head of a buffer that has
   spent ``router_delay`` cycles in this router requests a VC allowed by
   the routing function; oldest requests first; granted at once if free;
4. switch / link traversal: every physical channel with a held VC moves at
   most one flit, round-robin among its VCs that are *ready* (upstream flit
   present since the start of the cycle, and fewer than ``buffer_depth``
   flits in the VC's buffer at the start of the cycle); the injection
   channel moves at most one flit per cycle from the PE; the ejection
   channel moves one flit per cycle into the PE.  A header that crosses
   in cycle ``t`` may be routed again in cycle ``t + router_delay``.

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

import math

import numpy as np
from numba import njit

from .traffic import mmpp_next_arrival, rng_exp, rng_int, rng_next, rng_uniform

# status codes
RUNNING, DONE, DEADLOCK, SATURATED, MAXCYCLES = 0, 1, 2, 3, 4

# channel types
CT_NET, CT_INJ, CT_EJ = 0, 1, 2

# cfg (int64) indices
(C_N, C_P, C_V, C_B, C_R, C_KIND, C_A0, C_HASESC, C_V2, C_TRAFFIC, C_LENKIND, C_M,
 C_WARMUP, C_TARGET, C_MAXCYC, C_SATLIM, C_DLTHRESH, C_CHUNKEND, C_NCHAN, C_TIE, C_SELF,
 C_STREAMS) = range(22)
N_CFG = 22
# cfgf (float64) indices
(CF_RATE, CF_R1, CF_R2, CF_S1, CF_S2, CF_GEOP) = range(6)
N_CFGF = 6
# S (int64 scalars of the state)
(S_T, S_PHASE, S_TW, S_DELIV, S_NTAG, S_PREFIX, S_INSYS, S_INNET, S_IDLE, S_FLITHOPS,
 S_NETFLITS_W, S_DELIV_W, S_GEN_W, S_CYC_W, S_FREE, S_NPEND, S_NACT, S_NQ, S_MAXLEN,
 S_GEN, S_INSYS_W0, S_ALLOC_TRIES, S_CHAN_VISITS) = range(23)
N_S = 23
# F (float64 scalars)
(F_NEXTARR, F_INNET_ACC, F_INSYS_ACC, F_QUEUED_ACC) = range(4)
N_F = 4


@njit(cache=True)
def _route(m, u, t, kind, a0, has_esc, V, N, P, V2,
           minp, nminp, escp, escv, udp, nbc_U,
           pchan, c_base, v_owner, m_dest, m_state, n_ej, c_nvc,
           m_tie, tie_dim, tie_port, tie_escv):
    """The VC granted to the header of message ``m`` at node ``u``, or -1."""
    d = m_dest[m]
    if u == d:
        ej = n_ej[u]
        base = c_base[ej]
        for v in range(c_nvc[ej]):
            if v_owner[base + v] < 0:
                return base + v
        return -1
    idx = u * N + d
    npt = nminp[idx]
    start = (t + m) % npt if npt > 1 else 0
    if kind == 1:  # up*/down*
        ph = m_state[m]
        if ph == 0:
            for jj in range(npt):
                j = start + jj
                if j >= npt:
                    j -= npt
                base = c_base[pchan[u * P + minp[idx * P + j]]]
                for v in range(a0, V):
                    if v_owner[base + v] < 0:
                        return base + v
        p = udp[idx * 2 + (1 if ph == 2 else 0)]
        vc = c_base[pchan[u * P + p]]
        if v_owner[vc] < 0:
            return vc
        return -1
    # a DOR tie (offset k/2) broken towards '-' for this message and dimension
    td = tie_dim[idx]
    minus = td >= 0 and ((m_tie[m] >> td) & 1) == 1
    # adaptive class (dor: the single DOR port)
    for jj in range(npt):
        j = start + jj
        if j >= npt:
            j -= npt
        p = minp[idx * P + j]
        if minus and npt == 1:  # dor: the adaptive class follows the DOR path
            p = tie_port[idx]
        base = c_base[pchan[u * P + p]]
        for v in range(a0, V):
            if v_owner[base + v] < 0:
                return base + v
    if kind == 0:
        if has_esc:
            if minus:
                vc = c_base[pchan[u * P + tie_port[idx]]] + tie_escv[idx]
            else:
                vc = c_base[pchan[u * P + escp[idx]]] + escv[idx]
            if v_owner[vc] < 0:
                return vc
        return -1
    # Nbc escape levels f..U on any minimal port
    f = m_state[m]
    U = nbc_U[idx]
    for lv in range(f, U + 1):
        for jj in range(npt):
            j = start + jj
            if j >= npt:
                j -= npt
            vc = c_base[pchan[u * P + minp[idx * P + j]]] + lv
            if v_owner[vc] < 0:
                return vc
    return -1


@njit(cache=True)
def _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag, m_state, m_next,
         qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
    m = S[S_FREE]
    if m < 0:
        return False
    S[S_FREE] = m_next[m]
    N = cfg[C_N]
    if cfg[C_SELF]:
        d = rng_int(st, N)  # uniform over all N nodes, the source included
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
        m_tie[m] = np.int64(rng_next(st) >> np.uint64(33))  # one bit per dimension
    else:
        m_tie[m] = 0
    if S[S_PHASE] == 1 and S[S_NTAG] < tagcap:
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


@njit(cache=True)
def run(cfg, cfgf, st, S, F,
        minp, nminp, escp, escv, udp, chan_up, nbc_U, label, pchan,
        c_base, c_nvc, c_type, c_dst, c_rr, c_busy, c_inact,
        n_inj, n_ej, qhead, qtail, qlen, q_inlist, qlist,
        v_owner, v_nin, v_nout, v_prv, v_nxt, v_lastin, v_lastout, v_hdrt, v_chan,
        act, pend, v_seen, n_rel, c_src,
        m_dest, m_src, m_len, m_tgen, m_tinj, m_hops, m_tag, m_state, m_next,
        tg_lat, tg_net, tg_wait, tg_hops, tg_done,
        nch, hist_acc, qhist_unused,
        mm_state, mm_tsw, mm_tar, mm_rates, mm_sig,
        m_tie, tie_dim, tie_port, tie_escv, n_writing, c_flits):
    """Advance the simulation until a stop condition; returns a status code."""
    N = cfg[C_N]
    P = cfg[C_P]
    V = cfg[C_V]
    B = cfg[C_B]
    R = cfg[C_R]
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
    tagcap = tg_lat.size
    rate = cfgf[CF_RATE]
    lamN = rate * N
    streams = cfg[C_STREAMS]
    while True:
        t = S[S_T]
        if t >= chunk_end:
            return RUNNING
        if t >= maxcyc:
            return MAXCYCLES
        # ---------------------------------------------------------- 1. generation
        if traffic == 0:
            while F[F_NEXTARR] < t + 1.0:
                u = rng_int(st, N)
                if not _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag,
                            m_state, m_next, qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
                    return SATURATED
                F[F_NEXTARR] += rng_exp(st) / lamN
        else:
            tend = t + 1.0
            for u in range(N):
                while mmpp_next_arrival(st, u, tend, mm_rates, mm_sig, mm_state, mm_tsw, mm_tar):
                    if not _gen(u, t, st, cfg, cfgf, S, m_dest, m_src, m_len, m_tgen, m_hops, m_tag,
                                m_state, m_next, qhead, qtail, qlen, q_inlist, qlist, tagcap, m_tie):
                        return SATURATED
        # ---------------------------------------------------------- 2. injection VCs
        nq = S[S_NQ]
        w = 0
        for i in range(nq):
            u = qlist[i]
            ch = n_inj[u]
            base = c_base[ch]
            nv = c_nvc[ch]
            while qlen[u] > 0 and n_writing[u] < streams:
                vc = -1
                for v in range(nv):
                    if v_owner[base + v] < 0:
                        vc = base + v
                        break
                if vc < 0:
                    break
                m = qhead[u]
                qhead[u] = m_next[m]
                qlen[u] -= 1
                v_owner[vc] = m
                v_nin[vc] = 0
                v_nout[vc] = 0
                v_prv[vc] = -1
                v_nxt[vc] = -1
                if c_busy[ch] == 0 and c_inact[ch] == 0:
                    c_inact[ch] = 1
                    act[S[S_NACT]] = ch
                    S[S_NACT] += 1
                c_busy[ch] += 1
                m_tinj[m] = t
                S[S_INNET] += 1
                n_writing[u] += 1
            if qlen[u] > 0:
                qlist[w] = u
                w += 1
            else:
                q_inlist[u] = 0
        S[S_NQ] = w
        if S[S_PHASE] == 1:
            # messages present during this cycle (a message counts from the cycle it takes
            # its injection VC to the cycle its tail is ejected: Little's law with network latency)
            F[F_INNET_ACC] += S[S_INNET]
            F[F_INSYS_ACC] += S[S_INSYS]
        # ---------------------------------------------------------- 3. routing / VC allocation
        npd = S[S_NPEND]
        w = 0
        for i in range(npd):
            b = pend[i]
            if v_hdrt[b] > t:
                pend[w] = b
                w += 1
                continue
            u = c_dst[v_chan[b]]
            if v_seen[b] == n_rel[u]:
                # failed before and no VC has been released at this router since
                pend[w] = b
                w += 1
                continue
            m = v_owner[b]
            S[S_ALLOC_TRIES] += 1
            nb = _route(m, u, t, kind, a0, has_esc, V, N, P, V2, minp, nminp, escp, escv, udp,
                        nbc_U, pchan, c_base, v_owner, m_dest, m_state, n_ej, c_nvc,
                        m_tie, tie_dim, tie_port, tie_escv)
            if nb < 0:
                v_seen[b] = n_rel[u]
                pend[w] = b
                w += 1
                continue
            v_owner[nb] = m
            v_nin[nb] = 0
            v_nout[nb] = 0
            v_prv[nb] = b
            v_nxt[nb] = -1
            v_nxt[b] = nb
            ch = v_chan[nb]
            if c_busy[ch] == 0 and c_inact[ch] == 0:
                c_inact[ch] = 1
                act[S[S_NACT]] = ch
                S[S_NACT] += 1
            if c_type[ch] == CT_NET:
                k = c_busy[ch]
                nch[k] -= 1
                nch[k + 1] += 1
                m_hops[m] += 1
                vi = nb - c_base[ch]
                if kind == 2:
                    if vi < V2:
                        m_state[m] = vi + label[u]
                    else:
                        m_state[m] += label[u]
                elif kind == 1:
                    if vi == 0:
                        m_state[m] = 1 if chan_up[ch] else 2
            c_busy[ch] += 1
        S[S_NPEND] = w
        # ---------------------------------------------------------- 4. traversal
        moved = False
        phase = S[S_PHASE]
        na = S[S_NACT]
        for i in range(na):
            ch = act[i]
            if c_busy[ch] == 0:
                continue
            S[S_CHAN_VISITS] += 1
            nv = c_nvc[ch]
            base = c_base[ch]
            r = c_rr[ch]
            typ = c_type[ch]
            for j in range(nv):
                k = r + j
                if k >= nv:
                    k -= nv
                b = base + k
                m = v_owner[b]
                if m < 0:
                    continue
                if v_nin[b] >= m_len[m]:
                    continue  # tail already in; the upstream VC may belong to another message now
                if typ == CT_INJ:
                    cnt = v_nin[b] - v_nout[b]
                    if v_lastout[b] == t:
                        cnt += 1
                    if cnt >= B:
                        continue
                    if v_nin[b] + 1 == m_len[m]:
                        n_writing[m_src[m]] -= 1  # the tail enters: the source may start the next message
                else:
                    a = v_prv[b]
                    avail = v_nin[a] - v_nout[a]
                    if v_lastin[a] == t:
                        avail -= 1
                    if avail <= 0:
                        continue
                    if typ == CT_NET:
                        cnt = v_nin[b] - v_nout[b]
                        if v_lastout[b] == t:
                            cnt += 1
                        if cnt >= B:
                            continue
                    # the flit leaves a
                    v_nout[a] += 1
                    v_lastout[a] = t
                    if v_nout[a] == m_len[m]:
                        ca = v_chan[a]
                        v_owner[a] = -1
                        v_nxt[a] = -1
                        if c_type[ca] == CT_NET:
                            kk = c_busy[ca]
                            nch[kk] -= 1
                            nch[kk - 1] += 1
                            n_rel[c_src[ca]] += 1
                        c_busy[ca] -= 1
                # the flit enters b
                v_nin[b] += 1
                v_lastin[b] = t
                moved = True
                kn = k + 1
                c_rr[ch] = kn if kn < nv else 0
                if typ == CT_EJ:
                    S[S_FLITHOPS] += 1
                    if v_nin[b] == m_len[m]:
                        # tail delivered: release the ejection VC, complete the message
                        v_owner[b] = -1
                        c_busy[ch] -= 1
                        n_rel[c_dst[ch]] += 1
                        S[S_INSYS] -= 1
                        S[S_INNET] -= 1
                        S[S_DELIV] += 1
                        if phase == 1:
                            S[S_DELIV_W] += 1
                        tg = m_tag[m]
                        if tg >= 0:
                            tg_lat[tg] = t + 1 - m_tgen[m]
                            tg_net[tg] = t + 1 - m_tinj[m]
                            tg_wait[tg] = m_tinj[m] - m_tgen[m]
                            tg_hops[tg] = m_hops[m]
                            tg_done[tg] = 1
                        m_next[m] = S[S_FREE]
                        S[S_FREE] = m
                else:
                    if typ == CT_NET:
                        S[S_FLITHOPS] += 1
                        if phase == 1:
                            S[S_NETFLITS_W] += 1
                            c_flits[ch] += 1
                    if v_nin[b] == 1:
                        v_hdrt[b] = t + R
                        v_seen[b] = -1
                        pend[S[S_NPEND]] = b
                        S[S_NPEND] += 1
                break
        # compact the active-channel list
        na = S[S_NACT]
        w = 0
        for i in range(na):
            ch = act[i]
            if c_busy[ch] > 0:
                act[w] = ch
                w += 1
            else:
                c_inact[ch] = 0
        S[S_NACT] = w
        # ---------------------------------------------------------- 5. bookkeeping
        if phase == 1:
            for v in range(V + 1):
                hist_acc[v] += nch[v]
            S[S_CYC_W] += 1
        elif S[S_DELIV] >= warmup:
            S[S_PHASE] = 1
            S[S_TW] = t + 1
            S[S_INSYS_W0] = S[S_INSYS]
        if moved or S[S_INNET] == 0:
            S[S_IDLE] = 0
        else:
            S[S_IDLE] += 1
            if S[S_IDLE] > dlthresh:
                S[S_T] = t
                return DEADLOCK
        S[S_T] = t + 1
        if S[S_INSYS] > satlim:
            return SATURATED
        if S[S_PHASE] == 1:
            p = S[S_PREFIX]
            nt = S[S_NTAG]
            while p < nt and tg_done[p] != 0:
                p += 1
            S[S_PREFIX] = p
            if p >= target:
                return DONE
