"""Is the traffic evenly distributed over the channels?  The simulated load of every channel, on independent seeds.

Sect. 3.2.1 of the paper: "Fully adaptive routing allows a message to use any
available channel that brings it closer to its destination resulting in an
evenly distributed traffic rate on all network channels", which gives eq. (3),
:math:`\\lambda_c = \\lambda_g d / 4` (messages/channel/cycle) on every channel.
:func:`channel_loads` simulates one curve's network at one rate with several
**independently seeded** runs (the simulator's ``channel_load``: flits/cycle
on each network channel over the measured window); :func:`balance_row` decides
"evenly" by the declared criterion ``equal-beyond-noise``
(:func:`models.core.criteria.spread_beyond_noise`: no spread shared by the
runs beyond their counting noise) and reports its size, and splits the
channels into the classes Duato-Nbc could treat differently: dimension
(``x``, ``y``), direction (``+``, ``-``) and the colour of the channel's source
node (``sum of coordinates mod 2``; a hop from a colour-1 node is *negative*
and raises the message's escape floor).  :func:`balance_table` does it for
every run of a figure.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.criteria import spread_beyond_noise
from ..core.experiment import CurveRun
from ..core.setups import SimSettings
from ..core.validate import require
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from . import setups as _setups
from .experiments import describe, sim_kwargs

__all__ = ["BALANCE_COLUMNS", "seeds_of", "channel_classes", "channel_loads", "balance_row", "balance_table"]

#: Columns of :func:`balance_table`.
BALANCE_COLUMNS = ("curve", "setup", "fraction", "rate", "seeds", "runs", "channels", "mean load", "raw cv",
                   "max dev", "sys cv", "sys var", "sys var se", "equal", "class max / min", "highest class",
                   "lowest class", "plus / minus", "plus / minus half", "x / y", "negative / non-negative",
                   "sys cv within +/-", "equal within +/-")


def seeds_of(settings: SimSettings, runs: int) -> list[int]:
    """The seeds of the ``runs`` independent runs: the figure's own seed (its run is cached when the figure's runs
    are fixed-length) and the next ones."""
    runs = require("runs", runs, 2, unit="independently seeded runs", integer=True)
    return [int(settings.seed) + i for i in range(runs)]


def channel_classes(k: int) -> pd.DataFrame:
    """One row per network channel of the ``k x k`` bidirectional torus (the simulator's order): ``dim``
    (``"x"``, ``"y"``), ``direction`` (``"+"``, ``"-"``), ``colour`` of its source node (1: a negative hop)
    and ``class`` (``"x+, colour 0"``)."""
    topo = Torus((int(k), int(k)), bidirectional=True)
    _, src, _, port = topo.channels
    colour = topo.coords()[src].sum(axis=1) % 2
    dim = np.where(port // 2 == 0, "x", "y")
    sign = np.where(port % 2 == 0, "+", "-")
    return pd.DataFrame({"dim": dim, "direction": sign, "colour": colour,
                         "class": [f"{d}{s}, colour {c}" for d, s, c in zip(dim, sign, colour)]})


def channel_loads(run: CurveRun, settings: SimSettings = _setups.SETTINGS, fraction: float = 0.5,
                  runs: int = 4) -> tuple[float, list[np.ndarray]]:
    """``(rate, loads)``: the load of every channel (flits/cycle) of ``run``'s network at ``fraction`` of its
    simulated saturation rate (the simulated rate of the figure nearest to it), one array per seed of
    :func:`seeds_of`, saturated runs left out, each run exactly ``settings.messages`` long whatever
    ``settings.target_ci`` (:meth:`~models.core.setups.SimSettings.fixed_length`).  Cached like every simulation."""
    fraction = require("fraction", fraction, 0, 1, lo_open=True, unit="fraction of the simulated saturation rate")
    if run.sim is None or run.sim.empty:
        return math.nan, []
    sim = run.sim
    rate = float(sim["load"].iloc[int(np.argmin(np.abs(sim["fraction"].to_numpy(dtype=float) - fraction)))])
    fixed = settings.fixed_length()  # the verdict rests on the runs' noise: every seed the same length
    kws = [sim_kwargs(run.curve, rate, fixed.replace(seed=s)) for s in seeds_of(settings, runs)]
    res = run_sweep(kws, jobs=settings.jobs, cache=settings.cache, progress=settings.progress)
    return rate, [np.asarray(r.channel_load, dtype=float) for r in res
                  if r.channel_load is not None and not r.saturated]


def _ratios(loads: Sequence[np.ndarray], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per run, (mean load of the channels ``a``) / (mean load of the channels ``b``)."""
    return np.array([x[a].mean() / x[b].mean() for x in loads if x[b].mean() > 0], dtype=float)


def _ratio(loads: Sequence[np.ndarray], a: np.ndarray, b: np.ndarray) -> float:
    """The mean over runs of :func:`_ratios` (NaN: none)."""
    r = _ratios(loads, a, b)
    return float(r.mean()) if r.size else math.nan


def _half(values: np.ndarray) -> float:
    """The 95% half width of the mean of independent ``values`` (normal approximation; NaN for fewer than 2)."""
    return float(1.96 * values.std(ddof=1) / math.sqrt(values.size)) if values.size > 1 else math.nan


def _within(loads: Sequence[np.ndarray], groups: np.ndarray) -> list:
    """Each run's loads divided by the mean of its group's channels (the spread left within the groups)."""
    out = []
    for x in loads:
        y = x.astype(float).copy()
        for g in np.unique(groups):
            y[groups == g] /= x[groups == g].mean()
        out.append(y)
    return out


def balance_row(k: int, loads: Sequence[np.ndarray]) -> dict:
    """The spread of independently seeded channel loads of the ``k x k`` torus: the criterion's numbers
    (:func:`~models.core.criteria.spread_beyond_noise`: ``raw cv``, ``max dev``, ``sys cv``, ``sys var``,
    ``sys var se``, ``equal``) and the classes' (:func:`channel_classes`): ``class max / min`` (the highest
    class mean over the lowest, mean over runs), which classes those are, ``plus / minus``, ``x / y`` and
    ``negative / non-negative`` (channels leaving colour-1 nodes over the others); ``plus / minus half`` the
    95% half width of ``plus / minus`` over the independent runs; ``sys cv within +/-`` and ``equal within +/-``
    the criterion once each run's ``+`` and ``-`` channels are divided by their own mean (the spread the
    direction does not account for).  Under minimal routing with uniform destinations a message's direction in
    a dimension is forced except at the offset ``k/2``, so a ``+`` / ``-`` ratio off 1 comes from how such ties
    are broken."""
    spread = spread_beyond_noise(loads)
    out = {key: spread[key] for key in ("runs", "channels", "raw cv", "max dev", "sys cv", "sys var", "sys var se",
                                        "equal")}
    out["mean load"] = float(np.mean([x.mean() for x in loads])) if loads else math.nan
    cls = channel_classes(k)
    if not loads or loads[0].size != len(cls):
        return {**out, "class max / min": math.nan, "highest class": "", "lowest class": "", "plus / minus": math.nan,
                "plus / minus half": math.nan, "x / y": math.nan, "negative / non-negative": math.nan,
                "sys cv within +/-": math.nan, "equal within +/-": None}
    means = pd.Series({c: float(np.mean([x[(cls["class"] == c).to_numpy()].mean() for x in loads]))
                       for c in dict.fromkeys(cls["class"])})
    plus, xdim, neg = ((cls[col] == v).to_numpy() for col, v in (("direction", "+"), ("dim", "x"), ("colour", 1)))
    within = spread_beyond_noise(_within(loads, plus))
    return {**out, "class max / min": float(means.max() / means.min()), "highest class": str(means.idxmax()),
            "lowest class": str(means.idxmin()), "plus / minus": _ratio(loads, plus, ~plus),
            "plus / minus half": _half(_ratios(loads, plus, ~plus)), "x / y": _ratio(loads, xdim, ~xdim),
            "negative / non-negative": _ratio(loads, neg, ~neg), "sys cv within +/-": within["sys cv"],
            "equal within +/-": within["equal"]}


def balance_table(runs: Sequence[CurveRun], settings: SimSettings = _setups.SETTINGS, fraction: float = 0.5,
                  seeds: int = 4) -> pd.DataFrame:
    """:func:`balance_row` for every simulated run of a figure (a curve on a set-up), at ``fraction`` of its
    simulated saturation rate with ``seeds`` independent seeds: columns :data:`BALANCE_COLUMNS` (loads in
    flits/cycle, the spreads as fractions of the mean load)."""
    rows = []
    for run in runs:
        rate, loads = channel_loads(run, settings, fraction, seeds)
        if not loads:
            continue
        d = describe(run.curve)
        rows.append({"curve": d["curve"], "setup": d["setup"], "fraction": float(fraction), "rate": rate,
                     "seeds": ", ".join(map(str, seeds_of(settings, seeds))), **balance_row(d["k"], loads)})
    out = pd.DataFrame(rows, columns=list(BALANCE_COLUMNS))
    for col in ("equal", "equal within +/-"):
        out[col] = out[col].astype(object)
    return out
