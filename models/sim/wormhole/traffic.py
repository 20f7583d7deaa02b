"""Traffic sources of the wormhole simulator: Poisson, IPP and MMPP(2); integer RNG.

Time convention.  Sources run in continuous time (unit: one cycle).  The
messages a node generates in ``[t, t+1)`` are *generated at cycle t*: they
join the node's source queue at the start of cycle ``t`` and their latency
is counted from ``t``.  So the number of messages per node per cycle is

* Poisson(``rate``) for ``traffic="poisson"`` -- an exact Poisson process
  observed at cycle resolution (not the Bernoulli approximation); the
  kernel draws the superposition of the ``N`` sources (rate ``N * rate``)
  and assigns each arrival to a uniformly chosen node, which is the same
  process;
* Bernoulli(``rate``) for ``traffic="bernoulli"`` (BookSim's
  ``injection_process = bernoulli``): at most one message per node and
  cycle, with probability ``rate`` <= 1, independently; the gaps between a
  node's messages are geometric, ``P(gap = g) = rate (1 - rate)^(g - 1)``,
  ``g >= 1`` (the kernel finds the nodes with a message by geometric skips);
* the counts of a two-state Markov-modulated Poisson process for
  :class:`MMPP2` / :class:`IPP`: each node has its own modulating chain
  (state 1 -> 2 at rate ``sigma1``, 2 -> 1 at rate ``sigma2``, per cycle) and
  generates at rate ``mu1`` / ``mu2`` in state 1 / 2 (torus_ipp paper,
  eq. 7).  The process object is the models' own
  (:class:`models.traffic.process.MMPP2`, re-exported here).  The chain starts in its stationary distribution.
  An IPP (one of the rates zero) is a renewal process whose gaps are
  hyperexponential (Kuczura 1973, :func:`ipp_h2`): after an arrival the chain
  is in its 'on' state, and from there the time to the next arrival does not
  depend on the past.  So an IPP node draws its gaps, two numbers per message
  (:func:`ipp_next_arrival`), instead of following its chain through every
  switch (at the book's switching rates, up to 800 switches per message); it
  is the same process, drawn from the stream differently.

Mean rate (torus_ipp eq. 9) ``lambda = (mu1 sigma2 + mu2 sigma1)/s``,
``s = sigma1 + sigma2``; index of dispersion of counts (eqs. 10-11)
``IDC(t) = b_inf - (b_inf - 1)(1 - e^{-s t})/(s t)``,
``b_inf = 1 + 2 c2/(s lambda)``, ``c2 = sigma1 sigma2 delta^2 / s^2``,
``delta = mu1 - mu2`` (:meth:`MMPP2.idc`).

Destinations are uniform over the other ``N-1`` nodes.  Message lengths are
fixed (``length_dist="fixed"``) or geometric on ``{1, 2, ...}`` with mean
``message_length`` (``"geometric"``, the discrete exponential).

The random numbers come from xorshift64* (Vigna 2016), one 64-bit state per
run, seeded through splitmix64: same seed, same stream, bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...traffic.process import IPP, MMPP2

__all__ = ["MMPP2", "IPP", "ipp_h2", "mmpp_counts", "seed_state"]  # MMPP2, IPP re-exported from models.traffic


# ----------------------------------------------------------------- RNG
_M1 = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def rng_next(st):
    """xorshift64*: advance ``st[0]`` (uint64) and return the next 64-bit output."""
    x = st[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def rng_uniform(st):
    """Uniform float in [0, 1) with 53 random bits."""
    return float(rng_next(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def rng_int(st, n):
    """Uniform integer in [0, n) (multiply-shift on the top 32 bits; n < 2**31)."""
    return np.int64(((rng_next(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def rng_exp(st):
    """Exponential(1) variate."""
    return -math.log(1.0 - rng_uniform(st))


def seed_state(seed: int) -> np.ndarray:
    """A non-zero xorshift state from an integer seed (splitmix64 of the seed)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return np.array([z or 0x9E3779B97F4A7C15], dtype=np.uint64)


# ----------------------------------------------------------------- MMPP(2)
@njit(cache=True)
def mmpp_init(st, rates, sig, state, t_sw, t_ar, t0):
    """Draw each node's initial state (stationary) and its first switch and arrival times."""
    s = sig[0] + sig[1]
    p1 = sig[1] / s if s > 0 else 1.0
    for u in range(state.size):
        k = 0 if rng_uniform(st) < p1 else 1
        state[u] = k
        t_sw[u] = t0 + rng_exp(st) / sig[k] if sig[k] > 0 else np.inf
        t_ar[u] = t0 + rng_exp(st) / rates[k] if rates[k] > 0 else np.inf


def ipp_h2(rates, sig) -> np.ndarray | None:
    """The hyperexponential gaps of an IPP (one of ``rates`` zero, both switching rates ``sig`` positive), None for
    any other MMPP(2): ``[p1, 1/r1, 1/r2, 1/b, pi_on]``, a gap Exp(``r1``) with probability ``p1``, else Exp(``r2``);
    the 'off' state left at rate ``b``; the chain 'on' with probability ``pi_on`` (stationary).

    From 'on' (arrivals at ``mu``, left at ``a``) the gap's transform is ``mu (s + b) / ((s + r1)(s + r2))``,
    ``r1 r2 = mu b``, ``r1 + r2 = mu + a + b``: a mixture of two exponentials, ``p1 = mu (r1 - b) / (r1 (r1 - r2))``
    (``r2 < b < r1``, so both weights are positive).  Rates per cycle."""
    rates, sig = np.asarray(rates, np.float64), np.asarray(sig, np.float64)
    if not ((rates[0] > 0) != (rates[1] > 0) and (sig > 0).all()):
        return None
    on = 0 if rates[0] > 0 else 1
    mu, a, b = float(rates[on]), float(sig[on]), float(sig[1 - on])
    s = mu + a + b
    r1 = 0.5 * (s + math.sqrt(s * s - 4.0 * mu * b))
    r2 = mu * b / r1  # (the smaller root, without the cancellation of s - sqrt(...))
    p1 = mu * (r1 - b) / (r1 * (r1 - r2))
    return np.array([p1, 1.0 / r1, 1.0 / r2, 1.0 / b, b / (a + b)])


@njit(cache=True, inline="always")
def ipp_gap(st, h2):
    """One gap of an IPP (:func:`ipp_h2`'s ``h2``), cycles: the phase, then its exponential."""
    ph = rng_uniform(st) < h2[0]
    return rng_exp(st) * (h2[1] if ph else h2[2])


@njit(cache=True)
def ipp_init(st, h2, t_sw, t_ar, t0):
    """Each node's first arrival after ``t0`` (its chain stationary: 'on' with probability ``h2[4]``, else first
    back to 'on' after an Exp(``b``)); no switch events (``t_sw`` infinite)."""
    for u in range(t_ar.size):
        off = rng_uniform(st) >= h2[4]
        t_ar[u] = t0 + (rng_exp(st) * h2[3] if off else 0.0) + ipp_gap(st, h2)
        t_sw[u] = np.inf


@njit(cache=True, inline="always")
def ipp_next_arrival(st, u, t_end, h2, t_ar):
    """Node ``u``'s next IPP arrival if it comes before ``t_end`` (True, and the one after it drawn), else False."""
    if t_ar[u] >= t_end:
        return False
    t_ar[u] += ipp_gap(st, h2)
    return True


@njit(cache=True, inline="always")
def mmpp_next_arrival(st, u, t_end, rates, sig, state, t_sw, t_ar):
    """Advance node ``u``'s MMPP up to its next arrival before ``t_end``.

    Returns True (and sets up the following arrival) if an arrival happens
    before ``t_end``, else False (the chain is advanced to ``t_end``).
    """
    while True:
        if t_ar[u] < t_sw[u]:
            if t_ar[u] >= t_end:
                return False
            k = state[u]
            t_ar[u] += rng_exp(st) / rates[k]
            return True
        if t_sw[u] >= t_end:
            return False
        # state switch at t_sw (memoryless: redraw the next arrival from there)
        k = 1 - state[u]
        state[u] = k
        ts = t_sw[u]
        t_sw[u] = ts + rng_exp(st) / sig[k] if sig[k] > 0 else np.inf
        t_ar[u] = ts + rng_exp(st) / rates[k] if rates[k] > 0 else np.inf


@njit(cache=True)
def _mmpp_counts(st, rates, sig, h2, n_cycles):
    state = np.zeros(1, np.int64)
    t_sw = np.zeros(1)
    t_ar = np.zeros(1)
    ipp = h2.size > 0
    if ipp:
        ipp_init(st, h2, t_sw, t_ar, 0.0)
    else:
        mmpp_init(st, rates, sig, state, t_sw, t_ar, 0.0)
    out = np.zeros(n_cycles, np.int32)
    for t in range(n_cycles):
        c = 0
        while (ipp_next_arrival(st, 0, t + 1.0, h2, t_ar) if ipp
               else mmpp_next_arrival(st, 0, t + 1.0, rates, sig, state, t_sw, t_ar)):
            c += 1
        out[t] = c
    return out


def mmpp_counts(source: "MMPP2", n_cycles: int, seed: int = 1) -> np.ndarray:
    """Per-cycle message counts of one source over ``n_cycles`` (same code as the kernel: an IPP by its gaps)."""
    rates = np.array([source.mu1, source.mu2], dtype=np.float64)
    sig = np.array([source.sigma1, source.sigma2], dtype=np.float64)
    h2 = ipp_h2(rates, sig)
    return _mmpp_counts(seed_state(seed), rates, sig, np.zeros(0) if h2 is None else h2, int(n_cycles))
