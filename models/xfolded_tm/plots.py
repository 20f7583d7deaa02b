"""The chapter's figures (matplotlib): topology drawings, model curves, the delay figure, the validation grid.

Each function returns a :class:`matplotlib.figure.Figure`; the notebooks save it
with :func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..core.experiment import CurveRun, Figure
from ..core.plotting import plot_curve_runs, use_style
from ..core.validation import saturation_aware_error
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


#: How each simulator set-up's markers are drawn in the delay figure (``mfc``: marker face; ``"none"`` = open).
SETUP_STYLE = {"ours": dict(mfc="none", ls="none"), "model": dict(ls="none"), "booksim": dict(mfc="none", ls="none")}

#: Marker of the BookSim set-up (every network it runs): a cross, whatever the network.
BOOKSIM_MARKER = "x"


def plot_delay(runs: Sequence[CurveRun], figure: Figure | None = None, *, show_theorem: bool = True,
               ymax: float | None = None):
    """Average delay vs injection rate for one VC count: model lines, simulation markers with CIs.

    ``runs`` are those of :func:`~models.xfolded_tm.experiments.run_delay` for
    one figure.  One colour per network; its model line is drawn once; its
    simulations are markers, one style per set-up (open: ``ours``, filled:
    ``model``, crosses: ``booksim``).  With ``show_theorem``, the x-Folded TM
    (as printed) model with Theorem 1's average distance is added as a dotted line.
    """
    use_style()
    fig, ax = plt.subplots(figsize=(9.5, 4.6))
    finite_vals = []
    colors = {}
    for run in runs:
        key = curve_key(run.curve)
        m = run.model.drop_duplicates("load").set_index("load").loc[list(run.curve.loads)]
        x = m.index.to_numpy(dtype=float)
        model = m["latency"].where(np.isfinite(m["latency"]))
        name = run.label.rsplit(" [", 1)[0]
        if key not in colors:
            line = ax.plot(x, model.to_numpy(), "-", label=f"{name} model")[0]
            colors[key] = line.get_color()
            finite_vals += list(model.dropna())
            if show_theorem and key == "xfolded_printed":
                thm = m["latency (Thm 1 printed)"].where(np.isfinite(m["latency (Thm 1 printed)"]))
                ax.plot(x, thm.to_numpy(), ":", color="0.3", label="x-Folded TM model, AD of Thm 1 as printed")
                finite_vals += list(thm.dropna())
        if run.sim is not None:
            sim = run.sim["latency"].where(np.isfinite(run.sim["latency"])).to_numpy()
            ci = run.sim["latency CI"].to_numpy()
            setup = run.curve.setup
            style = dict(SETUP_STYLE.get(setup, dict(mfc="none", ls="none")))
            marker = BOOKSIM_MARKER if setup == "booksim" else MARKERS.get(key, "o")
            ax.errorbar(x, sim, yerr=ci, marker=marker, color=colors[key], capsize=2, ms=5,
                        label=f"{name} simulation [{setup}]", **style)
            finite_vals += list(sim[np.isfinite(sim)])
    top = ymax if ymax is not None else (min(max(finite_vals) * 1.05, 6 * min(finite_vals)) if finite_vals else None)
    ax.set_ylim(0, top)
    if figure is not None:
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=figure.title)
    else:
        ax.set(xlabel="injection rate [flits/node/cycle]", ylabel="average delay [cycles]")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def plot_validation(runs: Sequence[CurveRun], *, ylim: float = 100.0):
    """The validation grid: the model's relative error (%) against the fraction of the simulated saturation.

    One panel per (V, M) (rows: V, columns: M); one colour per network, one
    line style per set-up (solid ``model``, dashed ``ours``, dotted
    ``booksim``).  Where the model is saturated and the simulation is not,
    the error is infinite: drawn as a triangle at the top edge.  The grey
    band is the paper's 5 %; the vertical line is 80 % of the simulated
    saturation, below which the claims table judges the errors.
    """
    use_style()
    vs = sorted({r.curve.model["V"] for r in runs})
    ms = sorted({r.curve.model["M"] for r in runs})
    fig, axes = plt.subplots(len(vs), len(ms), figsize=(3.6 * len(ms) + 2.4, 2.9 * len(vs)), squeeze=False,
                             sharex=True, sharey=True)
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colors = {key: cycle[i % len(cycle)] for i, key in enumerate(MARKERS)}
    dashes = {"model": "-", "ours": "--", "booksim": ":"}
    for run in runs:
        V, M = run.curve.model["V"], run.curve.model["M"]
        ax = axes[vs.index(V), ms.index(M)]
        pts = run.points()
        if pts.empty:
            continue
        err = 100 * saturation_aware_error(pts["model latency"].to_numpy(float), pts["sim latency"].to_numpy(float))
        f = pts["fraction"].to_numpy(float)
        key = curve_key(run.curve)
        ok = np.isfinite(err)
        name = run.label.split(", V=")[0]
        ax.plot(f[ok], err[ok], dashes.get(run.curve.setup, "-"), marker=MARKERS.get(key, "o"), ms=4,
                color=colors.get(key), label=f"{name} [{run.curve.setup}]")
        up = np.isinf(err)
        if up.any():
            ax.plot(f[up], np.full(up.sum(), 0.97 * ylim), "^", ms=5, color=colors.get(key))
    for i, V in enumerate(vs):
        for j, M in enumerate(ms):
            ax = axes[i, j]
            ax.axhspan(-5, 5, color="0.85", zorder=0)
            ax.axvline(0.8, color="0.5", lw=0.8, ls="--")
            ax.axhline(0, color="0.4", lw=0.6)
            ax.set_ylim(-ylim, ylim)
            ax.set_title(f"VC = {V}, M = {M} flits", fontsize=9)
            if i == len(vs) - 1:
                ax.set_xlabel("fraction of the simulated saturation")
            if j == 0:
                ax.set_ylabel("model error [%]")
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, fontsize=7, loc="center right")
    fig.tight_layout(rect=(0, 0, 1 - 2.3 / (3.6 * len(ms) + 2.4), 1))
    return fig
