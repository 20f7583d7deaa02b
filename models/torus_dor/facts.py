"""Two facts of the paper's Sec. 2.2 about the network, checked without the model.

* :func:`waiting_max_table` -- "(2d_i - 1)L is the maximum number of
  messages that may be waiting to acquire a hop in dimension d_i" (eq. 14):
  a brute-force enumeration of every dimension-order path of a small torus
  counts, for every output channel, the input channels from which a message
  can turn into it (each holds at most ``L`` waiting headers, one per VC).
* :func:`channel_equality_table` -- "with unidirectional routing, the n
  output channels of each node are equally utilized, [so] the arrival rate
  ... is equal to h lambda_g / n" (eq. 4): the simulated load of every
  network channel (flits/cycle) in independently seeded runs, judged by
  :func:`models.core.criteria.spread_beyond_noise` (the ``equal-beyond-noise``
  criterion); the mean channel load over ``M`` against ``h lambda_g / n``
  (messages/cycle) is reported beside it.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.criteria import spread_beyond_noise
from ..core.experiment import CurveRun
from ..core.setups import SimSettings
from ..sim.sweep import run_sweep
from .experiments import sim_kwargs
from .setups import SETTINGS, torus_of

__all__ = ["dor_path", "feeders", "waiting_max_table", "printed_waiting_max", "mean_hops", "channel_equality_table",
           "EQUALITY_FRACTION", "EQUALITY_SEEDS"]


def dor_path(src: tuple, dst: tuple, radices: tuple, bidirectional: bool) -> list[tuple]:
    """The network channels ``(node, dimension, direction)`` of the dimension-order path from ``src`` to ``dst``
    (dimension 0 first; ``+1`` only on a unidirectional torus, the shorter way on a bidirectional one; radices
    odd there, so that no offset is a tie)."""
    path, cur = [], list(src)
    for d, k in enumerate(radices):
        off = (dst[d] - cur[d]) % k
        step = 1 if (not bidirectional or off <= k // 2) else -1
        for _ in range(off if step == 1 else k - off):
            path.append((tuple(cur), d, step))
            cur[d] = (cur[d] + step) % k
    return path


def feeders(radices: tuple, bidirectional: bool) -> dict:
    """For every output channel ``(node, dimension, direction)``: the set of input ports of its node from which a
    dimension-order message can turn into it: ``(dimension, direction)`` of an input network channel, or
    ``"injection"``; every (source, destination) pair enumerated."""
    if bidirectional and any(k % 2 == 0 for k in radices):
        raise ValueError("a bidirectional torus with an even radix has ties; use odd radices")
    nodes = list(itertools.product(*(range(k) for k in radices)))
    out: dict = {}
    for s in nodes:
        for t in nodes:
            path = dor_path(s, t, radices, bidirectional)
            for i, ch in enumerate(path):
                port = "injection" if i == 0 else (path[i - 1][1], path[i - 1][2])
                out.setdefault(ch, set()).add(port)
    return out


def mean_hops(radices: tuple, bidirectional: bool = False) -> float:
    """The mean number of hops of a dimension-order path to a uniformly chosen other node, by enumeration."""
    nodes = list(itertools.product(*(range(k) for k in radices)))
    s = nodes[0]
    return sum(len(dor_path(s, t, radices, bidirectional)) for t in nodes[1:]) / (len(nodes) - 1)


def printed_waiting_max(d: int, L: int) -> int:
    """Eq. 14's :math:`(2d_i-1)L` at ``d`` as given."""
    return (2 * d - 1) * L


def waiting_max_table(radices: tuple = (5, 5, 5), L: int = 3) -> pd.DataFrame:
    """The most messages that can wait for a hop in each dimension, by enumeration, against eq. 14's count.

    One row per torus (unidirectional, bidirectional) and dimension ``d_i`` (0-based, the paper's
    :math:`0\\le d_i\\le n-1`): ``inputs`` (the largest number of input network channels feeding one output
    channel of ``d_i``), ``waiting max`` = ``inputs * L`` (each input VC holds at most one waiting header),
    ``with injection`` (plus the injection channel's ``L`` VCs), ``printed (d_i as printed)`` =
    :math:`(2d_i-1)L` with the paper's 0-based ``d_i``, ``printed (d_i from 1)`` = :math:`(2(d_i+1)-1)L`, and
    whether each equals ``waiting max``.  ``radices`` odd (no tie on a bidirectional ring).
    """
    rows = []
    for torus, bi in (("unidirectional", False), ("bidirectional", True)):
        fd = feeders(tuple(radices), bi)
        for d in range(len(radices)):
            ins = [len(p - {"injection"}) for ch, p in fd.items() if ch[1] == d]
            inj = [len(p) for ch, p in fd.items() if ch[1] == d]
            wmax = max(ins) * L
            p0, p1 = printed_waiting_max(d, L), printed_waiting_max(d + 1, L)
            rows.append({"torus": torus, "radices": "x".join(map(str, radices)), "L": L, "d_i": d,
                         "inputs": max(ins), "waiting max": wmax, "with injection": max(inj) * L,
                         "printed (d_i as printed)": p0, "printed (d_i from 1)": p1,
                         "equal (as printed)": p0 == wmax, "equal (from 1)": p1 == wmax})
    return pd.DataFrame(rows)


#: The load of the channel-equality runs, a fraction of the simulated saturation load, and the number of
#: independently seeded runs (seeds ``settings.seed`` to ``settings.seed + EQUALITY_SEEDS - 1``).
EQUALITY_FRACTION = 0.5
EQUALITY_SEEDS = 4


def _loads_of(run: CurveRun, settings: SimSettings, seeds: Sequence[int], rate: float) -> list:
    kws = [sim_kwargs(run.curve, rate, settings.fixed_length().replace(seed=int(s))) for s in seeds]
    res = run_sweep(kws, jobs=settings.jobs, cache=settings.cache, progress=settings.progress)
    return [np.asarray(r.channel_load, dtype=float) for r in res
            if getattr(r, "channel_load", None) is not None and not r.saturated]


def channel_equality_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS, *,
                           fraction: float = EQUALITY_FRACTION, seeds: int = EQUALITY_SEEDS) -> pd.DataFrame:
    """The simulated channel loads of each unidirectional network among ``runs`` (its first simulated curve),
    in ``seeds`` independently seeded runs at ``fraction`` of the curve's simulated saturation load, each of
    exactly ``settings.messages`` (:meth:`~models.core.setups.SimSettings.fixed_length`: the runs' noise is the
    allowance of the verdict, so every run has the same length, whatever ``settings.target_ci``).

    One row per network: ``curve``, ``radices``, ``rate`` (messages/node/cycle), ``runs``, ``channels``
    (``N n``), ``mean load`` (flits/cycle per channel), ``lambda_c / (h lambda_g / n)`` (the mean load over
    ``M`` against eq. 4 with the enumerated mean hops ``h``), and :func:`~models.core.criteria.spread_beyond_noise`'s
    ``raw cv``, ``max dev``, ``sys cv``, ``sys var``, ``sys var se`` and ``equal`` (True, False, or None with
    fewer than two runs).
    """
    rows, seen = [], set()
    for run in runs:
        radices = tuple(run.curve.model["radices"])
        if torus_of(run.curve) != "unidirectional" or run.sim is None or radices in seen or \
                not (math.isfinite(run.sim_saturation) and run.sim_saturation > 0):
            continue
        seen.add(radices)
        rate = fraction * run.sim_saturation
        loads = _loads_of(run, settings, range(int(settings.seed), int(settings.seed) + seeds), rate)
        spread = spread_beyond_noise(loads)
        n, M = len(radices), run.curve.model["M"]
        mean = float(np.mean([x.mean() for x in loads])) if loads else math.nan
        rows.append({"curve": run.curve.label, "radices": "x".join(map(str, radices)), "rate": rate,
                     "runs": spread["runs"], "channels": spread["channels"], "mean load": mean,
                     "lambda_c / (h lambda_g / n)": (mean / M) / (mean_hops(radices) * rate / n),
                     **{k: spread[k] for k in ("raw cv", "max dev", "sys cv", "sys var", "sys var se", "equal")}})
    cols = ["curve", "radices", "rate", "runs", "channels", "mean load", "lambda_c / (h lambda_g / n)", "raw cv",
            "max dev", "sys cv", "sys var", "sys var se", "equal"]
    out = pd.DataFrame(rows, columns=cols)
    out["equal"] = out["equal"].astype(object)
    return out
