"""The chapter's figures (matplotlib): topology drawings, model curves, the delay figure.

Each function returns a :class:`matplotlib.figure.Figure`; the notebooks save it
with :func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..core.experiment import CurveRun, Figure
from ..core.plotting import plot_curve_runs, plot_model_sim, use_style
from ..networks.grid2d import build, draw
from .experiments import THEOREM_LABEL, curve_key

#: Simulation markers of the delay figure, by network key.
MARKERS = dict(torus="o", tm="s", xfolded_printed="^", xfolded_completed="D")


def draw_topologies(ks=(8, 7), kinds=(("mesh", ""), ("torus", ""), ("tm", ""), ("xfolded", "printed"),
                                      ("xfolded", "completed"), ("xfolded", "completed_tm"))):
    """A grid of drawings (rows: ``ks``; columns: topologies), as the paper's Fig. 1 for even and odd k."""
    use_style()
    fig, axes = plt.subplots(len(ks), len(kinds), figsize=(2.6 * len(kinds), 2.95 * len(ks)))
    axes = np.atleast_2d(axes)
    for r, kk in enumerate(ks):
        for c, (kind, reading) in enumerate(kinds):
            draw(build(kind, kk, reading or "printed"), axes[r, c])
    fig.tight_layout()
    return fig


def plot_model_curves(panels: Sequence[tuple[Figure, Sequence[CurveRun]]], *, ymax: float = 200):
    """The model curves, one panel per ``(figure, runs)`` of :func:`~models.xfolded_tm.experiments.run_model_curves`.

    Each network with its exact average distance as a line; the x-Folded TM
    model with Theorem 1's average distance dotted.
    """
    use_style()
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.2), squeeze=False)
    for i, (ax, (figure, runs)) in enumerate(zip(axes[0], panels)):
        plot_curve_runs([r for r in runs if r.label != THEOREM_LABEL], figure, ax=ax, saturation_lines=False)
        for r in runs:
            if r.label == THEOREM_LABEL:
                y = r.model["latency"].where(np.isfinite(r.model["latency"]))
                ax.plot(r.model["load"], y, ":", color="0.3", label=r.label)
        ax.set_ylim(0, ymax)
        if i == 0:
            ax.legend(fontsize=7)
        else:
            ax.get_legend().remove()
    fig.tight_layout()
    return fig


def plot_delay(runs: Sequence[CurveRun], figure: Figure | None = None, *, show_theorem: bool = True,
               ymax: float | None = None):
    """Average delay vs injection rate for one VC count: model lines, simulation markers with CIs.

    ``runs`` are those of :func:`~models.xfolded_tm.experiments.run_delay` for
    one figure.  With ``show_theorem``, the x-Folded TM (as printed) model with
    Theorem 1's average distance is added as a dotted line.
    """
    use_style()
    fig, ax = plt.subplots(figsize=(9.5, 4.6))
    finite_vals = []
    for run in runs:
        key = curve_key(run.curve)
        m = run.model.drop_duplicates("load").set_index("load").loc[list(run.curve.loads)]
        x = m.index.to_numpy(dtype=float)
        model = m["latency"].where(np.isfinite(m["latency"]))
        sim = ci = None
        if run.sim is not None:
            sim = run.sim["latency"].where(np.isfinite(run.sim["latency"])).to_numpy()
            ci = run.sim["latency CI"].to_numpy()
        plot_model_sim(ax, x, model.to_numpy(), sim, ci, label=run.label, marker=MARKERS.get(key, "o"))
        finite_vals += list(model.dropna()) + (list(sim[np.isfinite(sim)]) if sim is not None else [])
        if show_theorem and key == "xfolded_printed":
            thm = m["latency (Thm 1 printed)"].where(np.isfinite(m["latency (Thm 1 printed)"]))
            ax.plot(x, thm.to_numpy(), ":", color="0.3", label="x-Folded TM model, AD of Thm 1 as printed")
            finite_vals += list(thm.dropna())
    top = ymax if ymax is not None else (min(max(finite_vals) * 1.05, 6 * min(finite_vals)) if finite_vals else None)
    ax.set_ylim(0, top)
    if figure is not None:
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=figure.title)
    else:
        ax.set(xlabel="injection rate [flits/node/cycle]", ylabel="average delay [cycles]")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig
