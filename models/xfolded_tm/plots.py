"""The chapter's figures (matplotlib): topology drawings, model curves, the delay figure, the validation grid.

Each function returns a :class:`matplotlib.figure.Figure`; the notebooks save it
with :func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core.experiment import CurveRun
from ..core.setups import Figure
from ..core.plotting import (COLORS, NEUTRAL, column_figure, figure_legend, fit_ylim, fit_ylim_all, hide_unused,
                             model_line, panel_grid, plot_curve_runs, sim_errorbar, style_handle, unique_handles,
                             use_style)
from ..core.results import ci_column
from ..core.validation import saturation_aware_error
from ..networks.grid2d import build, draw
from .experiments import THEOREM_LABEL, curve_key

#: Simulation markers of the delay figure, by network key.
MARKERS = dict(torus="o", tm="s", xfolded_printed="^", xfolded_completed="D")

#: Colour of each network, the same in every figure of the chapter.
NETWORK_COLORS = {key: COLORS[i % len(COLORS)] for i, key in enumerate(MARKERS)}


def draw_topologies(ks=(8, 7), kinds=(("mesh", ""), ("torus", ""), ("tm", ""), ("xfolded", "printed"),
                                      ("xfolded", "completed"), ("xfolded", "completed_tm")), *, cols: int = 3):
    """A grid of drawings, ``cols`` per row (for each ``k`` of ``ks``, every topology), as the paper's Fig. 1.

    At the column's width: three drawings side by side, their titles and
    node coordinates at 9 pt.
    """
    use_style()
    n = len(ks) * len(kinds)
    rows = -(-len(kinds) // cols) * len(ks)
    fig, axes = column_figure(rows, cols, row_height=COLUMN_CELL)
    cells = iter(axes.ravel())
    used = 0
    for kk in ks:
        for kind, reading in kinds:
            ax = next(cells)
            draw(build(kind, kk, reading or "printed"), ax)
            ax.title.set_fontsize(MIN_TITLE)
            ax.tick_params(labelsize=MIN_TITLE)
            used += 1
        while used % cols:  # the next k starts a new row
            next(cells).set_visible(False)
            used += 1
    hide_unused(axes, max(used, n))
    return fig


#: Height of one row of topology drawings [in] and the size of their text [pt].
COLUMN_CELL = 2.55
MIN_TITLE = 9


def plot_model_curves(panels: Sequence[tuple[Figure, Sequence[CurveRun]]], *, ymax: float = 200):
    """The model curves, one panel per ``(figure, runs)`` of :func:`~models.xfolded_tm.experiments.run_figure`.

    Each network with its exact average distance as a line; the x-Folded TM
    model with Theorem 1's average distance dotted.  Lines count for the
    y-limits up to ``ymax`` cycles.  One legend below the panels.
    """
    rows, cols = panel_grid(len(panels))
    fig, axes = column_figure(rows, cols, row_height=3.4)
    for ax, (figure, runs) in zip(axes.ravel(), panels):
        plot_curve_runs([r for r in runs if r.label != THEOREM_LABEL], figure, ax=ax, saturation_lines=False,
                        legend=False)
        for r in runs:
            if r.label == THEOREM_LABEL:
                model_line(ax, r.model["load"], r.model["latency"], ls=":", color=NEUTRAL, label=r.label)
        fit_ylim(ax, cap=ymax)
    spare = hide_unused(axes, len(panels))
    figure_legend(fig, *unique_handles(axes), spare=spare)
    return fig


#: How each simulator set-up's markers are drawn in the delay figure (``mfc``: marker face; ``"none"`` = open).
SETUP_STYLE = {"ours": dict(mfc="none", ls="none"), "model": dict(ls="none"), "booksim": dict(mfc="none", ls="none")}

#: Marker of the BookSim set-up (every network it runs): a cross, whatever the network.
BOOKSIM_MARKER = "x"

#: Line style of each set-up in the validation grid.
SETUP_DASHES = {"model": "-", "ours": "--", "booksim": ":"}


def plot_delay(runs: Sequence[CurveRun], figure: Figure | None = None, *, show_theorem: bool = True,
               ymax: float | None = None):
    """Average delay vs injection rate for one VC count: one panel per network, model line and simulation markers.

    ``runs`` are those of :func:`~models.xfolded_tm.experiments.run_figure` for
    one figure.  One panel (and colour) per network, with shared axes so the
    networks compare across panels; its model line; its simulations as
    markers with 95% CIs, one style per set-up (open: ``ours``, filled:
    ``model``, crosses: ``booksim``).  With ``show_theorem``, the x-Folded TM
    (as printed) model with Theorem 1's average distance is a dotted line in
    its panel.  The y-limits hold every simulated point and CI (model lines
    count up to ``ymax``, default six times the smallest model delay).  One
    legend below the panels.
    """
    keys = list(dict.fromkeys(curve_key(r.curve) for r in runs))
    rows, cols = panel_grid(len(keys))
    fig, axes = column_figure(rows, cols, row_height=2.9, sharex=True, sharey=True)
    axis = dict(zip(keys, axes.ravel()))
    drawn, finite_model, setups = set(), [], {}
    thm = False
    for run in runs:
        key = curve_key(run.curve)
        ax = axis[key]
        colour = NETWORK_COLORS.get(key, COLORS[len(NETWORK_COLORS) % len(COLORS)])
        m = run.model.drop_duplicates("load").set_index("load").loc[list(run.curve.loads)]
        x = m.index.to_numpy(dtype=float)
        name = run.label.rsplit(" [", 1)[0]
        if key not in drawn:
            model_line(ax, x, m["latency"], color=colour)
            finite_model += list(m["latency"][np.isfinite(m["latency"])])
            ax.set_title(name)
            drawn.add(key)
            if show_theorem and key == "xfolded_printed" and "latency (Thm 1 printed)" in m:
                model_line(ax, x, m["latency (Thm 1 printed)"], ls=":", color=NEUTRAL)
                thm = True
        if run.sim is not None:
            setup = run.curve.setup
            style = dict(SETUP_STYLE.get(setup, dict(mfc="none", ls="none")))
            style.pop("ls", None)
            filled = style.pop("mfc", None) != "none"
            marker = BOOKSIM_MARKER if setup == "booksim" else MARKERS.get(key, "o")
            if sim_errorbar(ax, x, run.sim["latency"], run.sim[ci_column("latency")], color=colour, marker=marker,
                            filled=filled) is not None:
                setups.setdefault(setup, filled)
    top = ymax if ymax is not None else (6 * min(finite_model) if finite_model else None)
    spare = hide_unused(axes, len(keys))
    fit_ylim_all(axes, cap=top)
    xlabel, ylabel = ((figure.xlabel, figure.ylabel) if figure is not None
                      else ("injection rate [flits/node/cycle]", "average delay [cycles]"))
    for ax in axes[-1, :]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    if figure is not None and figure.title:
        fig.suptitle(figure.title)
    handles = [style_handle("model", ls="-")]
    labels = ["model (network's colour)"]
    if thm:
        handles.append(style_handle("thm", ls=":"))
        labels.append("x-Folded TM model, AD of Thm 1 as printed")
    for setup, filled in setups.items():
        handles.append(style_handle(setup, ls="none", marker=BOOKSIM_MARKER if setup == "booksim" else "o",
                                    filled=filled))
        shape = "crosses" if setup == "booksim" else "filled markers" if filled else "open markers"
        labels.append(f"simulation [{setup}]: {shape} (95% CI)")
    figure_legend(fig, handles, labels, spare=spare)
    return fig


def plot_validation(runs: Sequence[CurveRun], *, ylim: float = 100.0):
    """The validation grid: the model's relative error (%) against the fraction of the simulated saturation.

    One panel per (V, M) (rows: V, columns: M); one colour and marker per
    network, one line style per set-up (solid ``model``, dashed ``ours``,
    dotted ``booksim``); the legend lists networks and set-ups apart.  Where
    the model is saturated and the simulation is not, the error is
    infinite; it and any error beyond +-``ylim`` % are drawn as a triangle
    at the edge ("off the scale").  The grey band is the paper's 5 %; the
    vertical line is 80 % of the simulated saturation, below which the
    claims table judges the errors.  One legend below the panels.
    """
    vs = sorted({r.curve.model["V"] for r in runs})
    ms = sorted({r.curve.model["M"] for r in runs})
    fig, axes = column_figure(len(vs), len(ms), row_height=2.4, sharex=True, sharey=True)
    networks, setups, off = {}, {}, False
    for run in runs:
        V, M = run.curve.model["V"], run.curve.model["M"]
        ax = axes[vs.index(V), ms.index(M)]
        pts = run.points()
        if pts.empty:
            continue
        err = 100 * saturation_aware_error(pts["model latency"].to_numpy(float), pts["sim latency"].to_numpy(float))
        f = pts["fraction"].to_numpy(float)
        key = curve_key(run.curve)
        colour = NETWORK_COLORS.get(key, NEUTRAL)
        inside = np.isfinite(err) & (np.abs(err) <= ylim)
        ls = SETUP_DASHES.get(run.curve.setup, "-")
        y = np.where(inside, err, np.nan)
        ax.plot(f, y, ls=ls, marker=MARKERS.get(key, "o"), ms=4, lw=1.2, color=colour)
        networks.setdefault(run.label.split(", V=")[0].rsplit(" [", 1)[0], (colour, MARKERS.get(key, "o")))
        setups.setdefault(run.curve.setup, ls)
        outside = ~inside & ~np.isnan(err)
        if outside.any():
            up = np.nan_to_num(err[outside], posinf=1, neginf=-1) > 0
            ax.plot(f[outside][up], np.full(up.sum(), 0.95 * ylim), ls="none", marker="^", ms=5, color=colour)
            ax.plot(f[outside][~up], np.full((~up).sum(), -0.95 * ylim), ls="none", marker="v", ms=5, color=colour)
            off = True
    for i, V in enumerate(vs):
        for j, M in enumerate(ms):
            ax = axes[i, j]
            ax.axhspan(-5, 5, color="0.85", zorder=0, gid="background")
            ax.axvline(0.8, color="0.5", lw=0.8, ls="--", gid="background")
            ax.axhline(0, color="0.4", lw=0.6, gid="background")
            ax.set_ylim(-ylim * 1.08, ylim * 1.08)
            ax.set_title(f"V = {V}, M = {M} flits")
            if i == len(vs) - 1:
                ax.set_xlabel("fraction of the\nsimulated saturation")
            if j == 0:
                ax.set_ylabel("model error [%]")
    handles = [style_handle(n, color=c, ls="none", marker=mk, filled=True) for n, (c, mk) in networks.items()]
    labels = list(networks)
    for setup, ls in setups.items():
        handles.append(style_handle(setup, ls=ls))
        labels.append(f"set-up {setup}")
    if off:
        handles.append(style_handle("off", ls="none", marker="^", filled=True))
        labels.append(f"|error| > {ylim:g} % or model saturated")
    handles.append(style_handle("band", color="0.85", ls="-"))
    handles[-1].set_linewidth(6)
    labels.append("the paper's +-5 %")
    handles.append(style_handle("0.8", color="0.5", ls="--"))
    labels.append("80 % of sim. saturation")
    figure_legend(fig, handles, labels)
    return fig
