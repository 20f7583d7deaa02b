"""Plots of the torus_nbc chapter (matplotlib, the compendium's style of :mod:`models.core.plotting`).

:func:`plot_fig1` draws Fig. 1 from the runs of
:func:`models.torus_nbc.experiments.run_figure`, one panel per torus, every
simulator set-up as its own series; :func:`plot_comparison` draws the
routing comparison from the tables of
:func:`models.torus_nbc.experiments.run_comparison`.  Save them with
:func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..core.experiment import CurveRun, Figure
from ..core.plotting import use_style
from .experiments import FIGURES, PAPER_AXIS, ROUTINGS, SETUPS

__all__ = ["plot_fig1", "plot_comparison", "SETUP_STYLE"]

#: Marker, fill and saturation-line style of each simulator set-up's simulated series.
SETUP_STYLE = {"paper": dict(marker="o", filled=True, ls=":"), "model": dict(marker="s", filled=False, ls="-.")}
_OTHER = dict(marker="^", filled=False, ls=":")


def _legend_name(setup: str) -> str:
    st = SETUPS.get(setup)
    return f"{setup} set-up ({st.short})" if st is not None else setup


def plot_fig1(runs: Sequence[CurveRun], figure: Figure | None = None, *, ymax: float = 1200.0,
              paper_axis: bool = True):
    """Fig. 1: latency vs rate, one panel per torus, one colour per message length.

    Model: a line (the same for every set-up) and a dashed line at its
    saturation rate.  Simulation: one series per set-up with 95% CIs, filled
    circles for the paper's set-up and open squares for the model's, and a
    vertical line at that set-up's simulated saturation rate (dotted for the
    paper's, dash-dotted for the model's).  With ``paper_axis``, a grey band
    marks where the paper's x axis ends.  The y axis stops at the largest
    value drawn (at most ``ymax`` cycles).  Axis labels from ``figure``
    (default ``FIGURES["fig1"]``).
    """
    figure = FIGURES["fig1"] if figure is None else figure
    use_style()
    tori = sorted({int(r.curve.model["k"]) for r in runs})
    fig, axes = plt.subplots(1, len(tori), figsize=(5.6 * len(tori), 4.4), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0", "C1", "C2", "C3"])
    for ax, k in zip(axes[0], tori):
        sub = [r for r in runs if int(r.curve.model["k"]) == k]
        Ms = sorted({int(r.curve.model["M"]) for r in sub})
        top = 0.0
        for i, M in enumerate(Ms):
            colour = colours[i % len(colours)]
            mine = [r for r in sub if int(r.curve.model["M"]) == M]
            m = mine[0].model
            y = m[mine[0].quantity].to_numpy(dtype=float)
            ok = np.isfinite(y)
            ax.plot(m["load"].to_numpy(dtype=float)[ok], y[ok], "-", color=colour, label=f"M={M} model")
            top = max(top, float(y[ok].max()) if ok.any() else 0.0)
            if math.isfinite(mine[0].model_saturation):
                ax.axvline(mine[0].model_saturation, color=colour, ls="--", lw=0.8)
            for run in mine:
                if run.sim is None:
                    continue
                st = SETUP_STYLE.get(run.curve.setup, _OTHER)
                ys = run.sim[run.quantity].to_numpy(dtype=float)
                oks = np.isfinite(ys)
                col = f"{run.quantity} CI"
                ci = run.sim[col].to_numpy(dtype=float)[oks] if col in run.sim else None
                if oks.any():
                    ax.errorbar(run.sim["load"].to_numpy(dtype=float)[oks], ys[oks], yerr=ci, fmt=st["marker"],
                                color=colour, mfc=colour if st["filled"] else "none", capsize=2, ms=5,
                                label=f"M={M} sim., {_legend_name(run.curve.setup)}")
                    top = max(top, float(ys[oks].max()))
                if math.isfinite(run.sim_saturation):
                    ax.axvline(run.sim_saturation, color=colour, ls=st["ls"], lw=0.9)
        if paper_axis and k in PAPER_AXIS:
            ax.axvline(PAPER_AXIS[k], color="0.5", lw=4, alpha=0.25, label="end of the paper's x axis")
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=f"{k}x{k} torus")
        ax.set_xlim(left=0)
        ax.set_ylim(0, min(top * 1.05, ymax) if top > 0 else None)
        ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def plot_comparison(points, saturation=None, figure: Figure | None = None):
    """Latency vs rate per routing, one panel per curve and set-up (simulation only, 95% CIs; dotted: saturation rates).

    Axis labels from ``figure`` (default ``FIGURES["routing-comparison"]``).
    """
    figure = FIGURES["routing-comparison"] if figure is None else figure
    use_style()
    panels = list(dict.fromkeys(zip(points["curve"], points["setup"])))
    n = len(panels)
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    markers = {"duato_nbc": "o", "duato": "s", "dor": "^"}
    for ax, (curve, setup) in zip(axes.ravel(), panels):
        sub = points[(points["curve"] == curve) & (points["setup"] == setup)]
        for routing, g in sub.groupby("routing", sort=False):
            ok = np.isfinite(g["latency"])
            line = ax.errorbar(g["rate"][ok], g["latency"][ok], yerr=g["CI"][ok], fmt="-" + markers.get(routing, "o"),
                               mfc="none", capsize=2, ms=5, label=ROUTINGS.get(routing, routing))
            if saturation is not None:
                s = saturation[(saturation["curve"] == curve) & (saturation["setup"] == setup)
                               & (saturation["routing"] == routing)]
                if not s.empty:
                    ax.axvline(float(s["saturation"].iloc[0]), color=line[0].get_color(), ls=":", lw=1)
        ax.set(title=f"{curve}, {_legend_name(setup)}", xlabel=figure.xlabel, ylabel=figure.ylabel)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig
