"""What a worm-by-worm step for the BookSim preset's lone hops would cost at the least: the step's recurrence compiled
alone, and its loop's instructions counted in numba's assembly.

``python benchmarks/worm_step.py [--depth B]``

A VC alone at both its ports (``lone_hops.py``) sends in a cycle exactly when its buffer holds a flit and it has a
credit.  Along a message's path, hop ``j`` (the VC that hop ``j - 1`` sends into) then follows, in the preset's
timing (a flit sent in cycle ``t`` enters the next buffer in ``t + 3``, its credit is back upstream in ``t + 2``, and
both count before that cycle's switch allocation)::

    arrive_j(t) = send_{j-1}(t - 3)          credit_j(t) = send_{j+1}(t - 2)
    send_j(t)   = lone_j and (cnt_j + arrive_j > 0) and (occ_j - credit_j < B)
    cnt_j      += arrive_j(t) - send_j(t)     occ_j      += send_j(t) - credit_j(t)

with ``cnt_j`` the flits in hop ``j``'s buffer and ``occ_j`` the credits it has in use downstream.  Bit-sliced as the
ideal router's worms are (a bit per hop in each 64-bit word), one step moves every lone hop of a worm: the counts and
the credits as ``K`` planes each (:func:`planes`, moved by the ideal router's own ``_plane_move``), the sends of the
last three cycles as three words.  :func:`steps` is that step and nothing else (no header, tail, window count, worm
list or exchange with contested hops), so what its loop executes per worm is a floor for such a path; DESIGN.md
divides it by the lone flit-hops a message makes in a cycle (``lone_hops.py``'s ``per worm``).  :func:`pipeline` runs
it on one worm, for the tests: a message streams through a chain of lone hops at ``min(1, B / 5)`` flits a cycle (a
credit comes back five cycles after its flit left: three to the next buffer, two back), and every hop's credits in use
are the flits in the next buffer, on the link and of the credits on their way (:func:`in_use`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.sim.wormhole.kernel import _plane_move  # noqa: E402  (the ideal router's bit-sliced +1 / -1)
from models.sim.wormhole.steps import popcount, uidx  # noqa: E402


def planes(depth: int) -> int:
    """The bit planes of a count from 0 to ``depth`` (a power of two): ``depth`` is the top plane alone."""
    if depth < 1 or depth & (depth - 1):
        raise ValueError(f"depth must be a power of two >= 1, not {depth}")
    return depth.bit_length()


@njit(cache=False, boundscheck=False, inline="always")
def steps(worms, nw, K, pl, hist, lone, out):
    """One cycle of the lone hops of the worms ``worms[:nw]``: worm ``w``'s planes are ``pl[2 K w ...]`` (its
    buffers' counts, then its credits in use, ``K`` each, bit ``j`` for hop ``j``), its sends 1, 2 and 3 cycles ago
    ``hist[3 w ...]`` and its lone hops ``lone[w]``.  Adds the flit-hops to ``out[0]``."""
    moved = 0
    for i in range(nw):
        w = np.int64(worms[uidx(i)])
        b = w * 2 * K
        h = w * 3
        s1 = hist[uidx(h)]
        s2 = hist[uidx(h + 1)]
        s3 = hist[uidx(h + 2)]
        arrive = s3 << 1  # sent three cycles ago by the hop behind
        credit = s2 >> 1  # sent two cycles ago by the hop ahead
        held = arrive
        for k in range(K):
            held |= pl[uidx(b + k)]
        full = pl[uidx(b + 2 * K - 1)] & ~credit  # credits in use B (the top plane), none coming back
        send = lone[uidx(w)] & held & ~full
        carry = arrive & ~send  # the counts take +1 where a flit arrives, -1 where one leaves (bit-sliced)
        borrow = send & ~arrive
        unused = np.int64(0)  # (the buffers that held a flit: the ideal router's, not needed here)
        for k in range(K):
            carry, borrow, _, _ = _plane_move(pl, uidx(b + k), carry, borrow, unused, unused)
        carry = send & ~credit  # the credits in use: +1 where a flit leaves, -1 where a credit comes back
        borrow = credit & ~send
        for k in range(K, 2 * K):
            carry, borrow, _, _ = _plane_move(pl, uidx(b + k), carry, borrow, unused, unused)
        hist[uidx(h)] = send
        hist[uidx(h + 1)] = s1
        hist[uidx(h + 2)] = s2
        moved += popcount(send)
    out[0] += moved


def _value(pl, base: int, K: int, j: int) -> int:
    return sum(((int(pl[base + k]) >> j) & 1) << k for k in range(K))


def in_use(pl, hist, K: int, hops: int) -> list:
    """Per hop ``j`` of worm 0, after a step: its credits in use, and what they should be: the flits in hop ``j + 1``'s
    buffer, on their way to it (sent in the last three cycles) and sent on by it in the last two (their credits on
    their way back)."""
    rows = []
    for j in range(hops):
        flying = sum((int(hist[c]) >> j) & 1 for c in range(3))
        returning = sum((int(hist[c]) >> (j + 1)) & 1 for c in range(2))
        rows.append((_value(pl, K, K, j), _value(pl, 0, K, j + 1) + flying + returning))
    return rows


def pipeline(hops: int, depth: int, flits: int, cycles: int):
    """One worm on ``hops`` lone hops; hop 0 takes a flit from its source each cycle while ``flits`` remain and its
    buffer has room, and past the last hop a sink sends on each flit in the cycle it arrives (bit ``hops`` of the
    sends: its credits come back as a hop's would).  Returns the flits the last hop sent in each cycle and, after each
    step, :func:`in_use`'s pairs."""
    K = planes(depth)
    pl = np.zeros(2 * K, np.int64)
    hist = np.zeros(3, np.int64)
    lone = np.array([(1 << hops) - 1], np.int64)
    worms = np.zeros(1, np.int64)
    out = np.zeros(1, np.int64)
    hop_bits = (1 << hops) - 1
    fed = 0
    sent, checks = [], []
    for _ in range(cycles):
        if fed < flits and _value(pl, 0, K, 0) < depth:  # the source puts a flit into hop 0 (outside the step)
            fed += 1
            carry = 1
            for k in range(K):
                carry, pl[k] = int(pl[k]) & carry, int(pl[k]) ^ carry
        arrived = (int(hist[2]) >> (hops - 1)) & 1  # the last hop's flit sent three cycles ago reaches the sink
        steps(worms, 1, K, pl, hist, lone, out)
        pl[:] &= hop_bits  # the sink is no hop of the worm: no count of its own
        hist[0] |= arrived << hops  # ... and sends it on at once
        sent.append((int(hist[0]) >> (hops - 1)) & 1)
        checks.append(in_use(pl, hist, K, hops))
    return sent, checks


def loop_instructions(depth: int = 8) -> int:
    """The instructions of :func:`steps`' loop over the worms (its body, from its label to the branch back) in the
    assembly numba compiles for this processor, with ``K`` for ``depth``'s planes known to the compiler as the
    kernels' unrolled plane loops are."""
    K = planes(depth)
    fixed = njit(cache=False, boundscheck=False)(
        lambda worms, nw, pl, hist, lone, out: steps(worms, nw, K, pl, hist, lone, out))
    args = (np.zeros(4, np.int64), 4, np.zeros(8 * K, np.int64), np.zeros(12, np.int64), np.zeros(4, np.int64),
            np.zeros(1, np.int64))
    fixed(*args)
    asm = fixed.inspect_asm(fixed.signatures[0])
    return _longest_loop(asm)


def _longest_loop(asm: str) -> int:
    """The instructions between a label and the last conditional jump back to it, for the longest such loop of the
    assembly's first function (the compiled one: the Python wrapper follows it)."""
    lines = [ln.split("#")[0].strip() for ln in asm.splitlines()]
    at = {}
    best = 0
    count = 0
    for ln in lines:
        m = re.match(r"^(\.?L\w+):$", ln)
        if m:
            if m.group(1).startswith(".Lfunc_end"):
                break
            at[m.group(1)] = count
            continue
        if not ln or ln.startswith("."):
            continue
        count += 1
        j = re.match(r"^j(?!mp)\w+\s+(\.?L\w+)$", ln)
        if j and j.group(1) in at:
            best = max(best, count - at[j.group(1)])
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=8,
                    help="flits per buffer, a power of two (default 8, the benchmark's)")
    args = ap.parse_args(argv)
    n = loop_instructions(args.depth)
    print(f"depth {args.depth}: {n} instructions per worm and cycle in the step's loop (bare: counts, credits and "
          f"the links' three cycles)")


if __name__ == "__main__":
    main()
