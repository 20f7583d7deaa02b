"""Plots of the torus_nbc chapter (matplotlib, the compendium's style of :mod:`models.core.plotting`).

:func:`plot_fig1` draws Fig. 1 from the runs of
:func:`models.torus_nbc.experiments.run_figure`, one panel per torus;
:func:`plot_comparison` draws the routing comparison from the tables of
:func:`models.torus_nbc.experiments.run_comparison`.  Save them with
:func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..core.experiment import CurveRun, Figure
from ..core.plotting import plot_curve_runs, use_style
from .experiments import FIGURES, ROUTINGS

__all__ = ["plot_fig1", "plot_comparison"]

def plot_fig1(runs: Sequence[CurveRun], figure: Figure | None = None, *, ymax: float = 1200.0):
    """Fig. 1: latency vs rate, one panel per torus.

    Model lines, simulation markers with 95% CIs, the model's (dashed) and
    the simulated (dotted) saturation rates; the y axis stops at the largest
    value drawn (at most ``ymax`` cycles).  Axis labels from ``figure``
    (default ``FIGURES["fig1"]``).
    """
    figure = FIGURES["fig1"] if figure is None else figure
    use_style()
    tori = sorted({int(r.curve.model["k"]) for r in runs})
    fig, axes = plt.subplots(1, len(tori), figsize=(5.2 * len(tori), 4.2), squeeze=False)
    for ax, k in zip(axes[0], tori):
        sub = [r for r in runs if int(r.curve.model["k"]) == k]
        plot_curve_runs(sub, ax=ax)
        values = [r.model[r.quantity].to_numpy(dtype=float) for r in sub]
        values += [r.sim[r.quantity].to_numpy(dtype=float) for r in sub if r.sim is not None]
        finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.array([])
        top = float(finite.max()) if finite.size else 0.0
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=f"{k}x{k} torus")
        ax.set_ylim(0, min(top * 1.05, ymax) if top > 0 else None)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def plot_comparison(points, saturation=None, figure: Figure | None = None):
    """Latency vs rate per routing, one panel per curve (simulation only, 95% CIs; dotted: saturation rates).

    Axis labels from ``figure`` (default ``FIGURES["routing-comparison"]``).
    """
    figure = FIGURES["routing-comparison"] if figure is None else figure
    use_style()
    curves = list(dict.fromkeys(points["curve"]))
    n = len(curves)
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    markers = {"duato_nbc": "o", "duato": "s", "dor": "^"}
    for ax, curve in zip(axes.ravel(), curves):
        sub = points[points["curve"] == curve]
        for routing, g in sub.groupby("routing", sort=False):
            ok = np.isfinite(g["latency"])
            line = ax.errorbar(g["rate"][ok], g["latency"][ok], yerr=g["CI"][ok], fmt="-" + markers.get(routing, "o"),
                               mfc="none", capsize=2, ms=5, label=ROUTINGS.get(routing, routing))
            if saturation is not None:
                s = saturation[(saturation["curve"] == curve) & (saturation["routing"] == routing)]
                if not s.empty:
                    ax.axvline(float(s["saturation"].iloc[0]), color=line[0].get_color(), ls=":", lw=1)
        ax.set(title=curve, xlabel=figure.xlabel, ylabel=figure.ylabel)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig
