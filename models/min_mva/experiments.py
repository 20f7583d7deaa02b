"""The paper's experiments: which configurations make each figure, and how a curve is run.

Figures 2-8 of Willick & Eager (1990) plot the mean response time ``R``
(cycles) and the throughput ``X`` (requests/cycle) against ``NC`` for one
hardware configuration and two or three memory service times.  Each figure
is a :class:`Figure` of :class:`Curve` objects; :func:`run_curve` solves the
model at every ``NC`` and, optionally, simulates the same configuration, and
returns one tidy table.  The notebooks only choose ``NC`` values and run
lengths, call these, and plot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..core.validate import require

#: Default simulation run lengths (cycles) of the full profile.
SIM_CYCLES = 200_000
SIM_WARMUP = 20_000


@dataclass(frozen=True)
class Curve:
    """One curve: a label and the keyword arguments shared by ``solve`` and ``simulate``."""

    label: str
    config: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Figure:
    """A figure of the paper: its number, caption text and curves."""

    number: int
    caption: str
    curves: tuple[Curve, ...]

    @property
    def label(self) -> str:
        return f"fig-min_mva-fig{self.number}"


def _omega(**kw) -> dict:
    base = dict(topology="omega", k=2, n=6, S_pe=1.0, m=1, pattern="uniform")
    base.update(kw)
    return base


FIGURES: dict[int, Figure] = {
    2: Figure(2, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1, 2 and 4",
              tuple(Curve(f"S_mm={s}", _omega(S_mm=s)) for s in (1, 2, 4))),
    3: Figure(3, "64 processors, 2x2 switches, hot-spot traffic, S_pe = 1, S_mm = 2",
              (Curve("hot spot, S_mm=2", _omega(S_mm=2, pattern="hot_spot")),)),
    4: Figure(4, "64 processors, 4x4 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
              tuple(Curve(f"S_mm={s}", _omega(k=4, n=3, S_mm=s)) for s in (1, 2))),
    5: Figure(5, "128 processors, 2x2 switches, uniform traffic, S_pe = 1, S_mm = 1 and 2",
              tuple(Curve(f"S_mm={s}", _omega(n=7, S_mm=s)) for s in (1, 2))),
    6: Figure(6, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 2, S_mm = 2 and 4",
              tuple(Curve(f"m=2, S_mm={s}", _omega(m=2, S_mm=s)) for s in (2, 4))),
    7: Figure(7, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 4, S_mm = 4 and 8",
              tuple(Curve(f"m=4, S_mm={s}", _omega(m=4, S_mm=s)) for s in (4, 8))),
    8: Figure(8, "64 processors, 2x2 switches, uniform traffic, S_pe = 1, m = 8, S_mm = 8 and 16",
              tuple(Curve(f"m=8, S_mm={s}", _omega(m=8, S_mm=s)) for s in (8, 16))),
}

SINGLE_PACKET = (2, 3, 4, 5)
MULTI_PACKET = (6, 7, 8)


def run_curve(
    curve: Curve,
    NC_values: Sequence[int],
    *,
    simulate: bool = True,
    cycles: int = SIM_CYCLES,
    warmup: int = SIM_WARMUP,
    batches: int = 20,
    seed: int = 1,
    overrides: dict | None = None,
):
    """Model (and simulation) of one curve at every ``NC``.

    Returns a :class:`pandas.DataFrame` with columns ``curve``, ``NC``,
    ``model R`` (cycles), ``model X`` (requests/cycle), ``iterations`` and,
    when ``simulate``, ``sim R``, ``sim R CI``, ``sim X``, ``sim X CI``
    (95% half widths by batch means).  ``overrides`` replaces entries of the
    curve's configuration (e.g. ``{"n": 7}`` for a reader's own network).
    """
    import pandas as pd

    from .solve import solve as _solve

    config = dict(curve.config)
    config.update(overrides or {})
    NC_values = [require("NC", nc, 1, unit="outstanding requests per processor", integer=True) for nc in NC_values]
    rows = []
    for nc in NC_values:
        res = _solve(NC=nc, **config)
        row = {"curve": curve.label, "NC": nc, "model R": res.R, "model X": res.X, "iterations": res.iterations}
        if simulate:
            from ..sim.closed_min import simulate as _simulate

            sim = _simulate(NC=nc, cycles=cycles, warmup=warmup, batches=batches, seed=seed, **config)
            row.update({"sim R": sim.R, "sim R CI": sim.R_ci, "sim X": sim.X, "sim X CI": sim.X_ci})
        rows.append(row)
    return pd.DataFrame(rows)


def run_figure(number: int, NC_values: Sequence[int], **kwargs):
    """:func:`run_curve` for every curve of figure ``number``, concatenated."""
    import pandas as pd

    fig = FIGURES[number]
    frame = pd.concat([run_curve(c, NC_values, **kwargs) for c in fig.curves], ignore_index=True)
    frame.insert(0, "figure", number)
    return frame


def error_tables(frame):
    """Point-by-point and per-curve model-vs-simulation errors for ``R`` and ``X``.

    Returns ``(points, summary)``: ``points`` has one row per (curve, NC,
    quantity); ``summary`` one row per (curve, quantity) with the max and
    mean absolute relative error and how many model points fall inside the
    simulation's 95% interval.
    """
    import pandas as pd

    from ..core.validation import compare, error_summary

    parts = []
    keys = ["figure", "curve"] if "figure" in frame else ["curve"]
    for q in ("R", "X"):
        for key, group in frame.groupby(keys, sort=False):
            name = f"Fig. {key[0]}, {key[1]}" if len(keys) == 2 else key[0] if isinstance(key, tuple) else key
            cmp = compare(group["NC"], group[f"model {q}"], group[f"sim {q}"], group[f"sim {q} CI"],
                          curve=f"{name}: {q}", x_name="NC", quantity=q)
            cmp = cmp.rename(columns={f"model {q}": "model", f"sim {q}": "sim"})
            parts.append(cmp)
    points = pd.concat(parts, ignore_index=True)
    return points, error_summary(points)


def plot_figure(frame, title: str = ""):
    """Response time (a) and throughput (b) vs ``NC``: model lines, simulation markers with CIs."""
    import matplotlib.pyplot as plt

    from ..core.plotting import plot_model_sim, use_style

    use_style()
    fig, (ax_r, ax_x) = plt.subplots(1, 2, figsize=(10, 4))
    has_sim = "sim R" in frame
    for label, g in frame.groupby("curve", sort=False):
        line = plot_model_sim(ax_r, g["NC"], g["model R"], g["sim R"] if has_sim else None,
                              g["sim R CI"] if has_sim else None, label=label)
        plot_model_sim(ax_x, g["NC"], g["model X"], g["sim X"] if has_sim else None,
                       g["sim X CI"] if has_sim else None, label=label, color=line.get_color())
    ax_r.set(xlabel="NC (outstanding requests per processor)", ylabel="mean response time R [cycles]",
             title="(a) response time")
    ax_x.set(xlabel="NC (outstanding requests per processor)", ylabel="throughput X [requests/cycle]",
             title="(b) throughput")
    for ax in (ax_r, ax_x):
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted(set(int(v) for v in frame["NC"])))
        ax.get_xaxis().set_major_formatter(plt.matplotlib.ticker.ScalarFormatter())
    ax_x.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
