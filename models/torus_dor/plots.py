"""The chapter's figures (matplotlib), drawn from :class:`~models.core.setups.CurveRun` objects.

Style and saving: :mod:`models.core.plotting` (one style for the book: column
width, text of 9 pt or more, Okabe-Ito colours, model lines, simulation
markers with 95% CIs, checked legend placement, y-limits that hold every
point).  Colour: one per message length (or curve); line style: the model's
reading (solid default, dotted as printed, dashed 2003).  Loads are
:math:`\\lambda_g` in messages/node/cycle, latencies in cycles.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..core.experiment import CurveRun
from ..core.results import ci_column
from ..core.setups import Curve, Figure
from ..core.plotting import (COLORS, NEUTRAL, column_figure, figure_legend, fit_ylim, fit_ylim_all, hide_unused,
                             model_line as draw_model, panel_grid, place_legend, saturation_handles, saturation_line,
                             sim_errorbar, split_panels, style_handle)
from .experiments import MODEL_POINTS, PRINTED, model_line

__all__ = ["plot_runs", "plot_panels", "plot_fig2", "plot_switches", "plot_switches_2003", "plot_occupancy"]

XLABEL = r"generation rate $\lambda_g$ [messages/node/cycle]"
YLABEL = "mean message latency [cycles]"

#: Model lines count for the y-limits up to this many times the zero-load latency (points always count).
RISE = 6.0

#: Variants (readings) per panel of :func:`plot_switches` besides the default reading.
SWITCHES_PER_PANEL = 4


def _colour_key(run: CurveRun) -> str:
    m = run.curve.model
    return f"M = {m['M']} flits" if "M" in m else run.label


def _draw_runs(ax, runs: Sequence[CurveRun], colours: dict, *, with_2003: bool, saturation_lines: bool) -> set:
    """Draw ``runs`` on ``ax``; returns the styles used (for the legend)."""
    used = set()
    for run in runs:
        c = colours[_colour_key(run)]
        m = run.model
        x = m["load"].to_numpy(dtype=float)
        draw_model(ax, x, m["latency"], color=c, label=_colour_key(run))
        used.add("default")
        if "latency printed" in m:
            draw_model(ax, x, m["latency printed"], color=c, ls=":", lw=1.8)
            used.add("printed")
        if with_2003 and "latency 2003" in m:
            draw_model(ax, x, m["latency 2003"], color=c, ls="--")
            used.add("2003")
        if run.sim is not None:
            s = run.sim
            if sim_errorbar(ax, s["load"], s["latency"], s.get(ci_column("latency")), color=c) is not None:
                used.add("sim")
        if saturation_lines:
            if saturation_line(ax, run.model_saturation, color=c, kind="model") is not None:
                used.add("sat model")
            if saturation_line(ax, run.sim_saturation, color=c, kind="sim") is not None:
                used.add("sat sim")
    return used


def _legend_entries(colours: dict, used: set) -> tuple[list, list]:
    """Colour entries (one per curve) then grey style entries (model readings, simulation, saturation)."""
    handles = [style_handle(k, color=c, ls="-") for k, c in colours.items()] if len(colours) > 1 else []
    labels = list(colours) if len(colours) > 1 else []
    styles = [("default", "model, default reading", dict(ls="-")),
              ("printed", "model as printed", dict(ls=":")),
              ("2003", "2003 model", dict(ls="--")),
              ("sim", "simulation (95% CI)", dict(ls="none", marker="o"))]
    for key, text, kw in styles:
        if key in used:
            handles.append(style_handle(text, color=NEUTRAL if len(colours) > 1 else next(iter(colours.values())),
                                        **kw))
            labels.append(text)
    h, lab = saturation_handles("sat model" in used, "sat sim" in used)
    return handles + h, labels + lab


def _colours(runs: Sequence[CurveRun]) -> dict:
    keys = list(dict.fromkeys(_colour_key(r) for r in runs))
    return {k: COLORS[i % len(COLORS)] for i, k in enumerate(keys)}


def plot_runs(runs: Sequence[CurveRun], ax=None, *, figure: Figure | None = None, title: str = "",
              with_2003: bool = False, logy: bool = False, saturation_lines: bool = False, legend: bool = True):
    """Latency vs load: model lines (up to its saturation), simulation markers with 95% CIs, one colour per curve.

    The chapter's default reading is the solid line; the paper's equations
    as printed (column ``latency printed`` of ``run.model``, when the run
    has it) a dotted line of the same colour.  With ``with_2003``, the
    reconstructed 2003 model (column ``latency 2003``) dashed.  The y-limits
    hold every simulated point and CI; the legend (with ``legend``) goes
    where it covers no data.  Returns the matplotlib figure.
    """
    if ax is None:
        fig, axes = column_figure()
        ax = axes[0, 0]
    else:
        fig = ax.figure
    colours = _colours(runs)
    used = _draw_runs(ax, runs, colours, with_2003=with_2003, saturation_lines=saturation_lines)
    if logy:
        ax.set_yscale("log")
    ax.set_xlim(left=0)
    fit_ylim(ax, bottom=None if logy else 0.0, rise=RISE)
    ax.set(xlabel=figure.xlabel if figure else XLABEL, ylabel=figure.ylabel if figure else YLABEL)
    if title:
        ax.set_title(title)
    if legend:
        place_legend(ax, *_legend_entries(colours, used))
    return fig


def plot_panels(runs: Sequence[CurveRun], keys: Sequence, key: Callable[[Curve], object],
                title: Callable[[object], str], *, cols: int | None = None, size=None, with_2003: bool = False):
    """One panel per value of ``key(curve)`` in ``keys`` (e.g. per torus and ``L``), one legend below them.

    At most two panels side by side (``cols``), the figure at the column's
    width; ``size`` is accepted for compatibility and ignored.  Colours are
    the same message length in every panel.
    """
    keys = list(keys)
    rows, cols = panel_grid(len(keys), min(cols or 2, 2))
    fig, axes = column_figure(rows, cols)
    colours = _colours(runs)
    used = set()
    for ax, k in zip(axes.ravel(), keys):
        mine = [r for r in runs if key(r.curve) == k]
        used |= _draw_runs(ax, mine, colours, with_2003=with_2003, saturation_lines=False)
        ax.set_xlim(left=0)
        fit_ylim(ax, rise=RISE)
        ax.set(xlabel=XLABEL, ylabel=YLABEL, title=title(k))
    spare = hide_unused(axes, len(keys))
    figure_legend(fig, *_legend_entries(colours, used), spare=spare)
    return fig


def plot_fig2(runs: Sequence[CurveRun]):
    """Fig. 2: one panel per run (torus), the default reading, as printed and the 2003 model, with the simulation."""
    rows, cols = panel_grid(len(runs))
    fig, axes = column_figure(rows, cols, row_height=3.4)
    used = set()
    colours = _colours(runs)
    for ax, run in zip(axes.ravel(), runs):
        used |= _draw_runs(ax, [run], colours, with_2003=True, saturation_lines=False)
        ax.set_xlim(left=0)
        fit_ylim(ax, rise=RISE)
        torus = "bidirectional" if run.curve.model.get("bidirectional") else "unidirectional"
        ax.set(xlabel=XLABEL, ylabel=YLABEL, title=f"{run.label}\n({torus} torus)")
    spare = hide_unused(axes, len(runs))
    figure_legend(fig, *_legend_entries(colours, used), spare=spare)
    return fig


def _sim_markers(ax, sim_points):
    if sim_points is None:
        return None
    return sim_errorbar(ax, sim_points["rate"], sim_points["sim latency"], sim_points["sim CI"], color="k",
                        label="simulation (95% CI)")


def _variant_panels(default_draw, variants: dict, draw, sim_points, title: str):
    """Panels of at most :data:`SWITCHES_PER_PANEL` variants, each with the reference lines and the simulation."""
    groups = split_panels(list(variants.items()), SWITCHES_PER_PANEL) or [[]]
    fig, axes = column_figure(len(groups), 1, row_height=2.9, sharex=True)
    for p, (ax, group) in enumerate(zip(axes[:, 0], groups)):
        default_draw(ax)
        for i, (name, rd) in enumerate(group):
            draw(ax, name, rd, COLORS[(i + 1) % len(COLORS)], ("--", "-.", (0, (5, 1, 1, 1)), (0, (1, 1)))[i % 4])
        _sim_markers(ax, sim_points)
        ax.set_xlim(left=0)
        fit_ylim(ax, rise=RISE)
        ax.set(ylabel="latency [cycles]")
        place_legend(ax, outside="right")
    axes[-1, 0].set_xlabel(XLABEL)
    fig.suptitle(title)
    return fig


def plot_switches(curve: Curve, variants: dict, upto: float, sim_points=None, *, points: int = MODEL_POINTS,
                  ax=None):
    """Model latency under each reading with the simulation markers, at most four readings per panel.

    Every panel repeats the default reading (thick black) and the
    simulation; ``sim_points``: a frame with ``rate``, ``sim latency`` and
    ``sim CI`` (:func:`models.torus_dor.experiments.points_table`).  ``ax``
    is accepted for compatibility and ignored (the figure has its own panels).
    """
    variants = dict(variants)
    base = variants.pop("default", None)
    ref = model_line(curve, upto, points, readings=base) if base is not None else model_line(curve, upto, points)

    def default_draw(ax):
        draw_model(ax, ref["rate"], ref["latency"], color="k", lw=2.6, label="default reading")

    def draw(ax, name, rd, colour, ls):
        line = model_line(curve, upto, points, readings=rd)
        draw_model(ax, line["rate"], line["latency"], color=colour, ls=ls, label=name)

    return _variant_panels(default_draw, variants, draw, sim_points, curve.label)


def plot_switches_2003(curve: Curve, variants: dict, upto: float, sim_points=None, *, points: int = MODEL_POINTS):
    """The 2004 model (default reading and as printed) and the 2003 model under each of its switches, with the
    simulation; at most four 2003 variants per panel."""
    line = model_line(curve, upto, points)
    printed = model_line(curve, upto, points, readings=PRINTED)

    def default_draw(ax):
        draw_model(ax, line["rate"], line["latency"], color="k", lw=2.2, label="2004 model (default reading)")
        draw_model(ax, printed["rate"], printed["latency"], color="k", ls=":", lw=2.0, label="2004 model as printed")

    def draw(ax, name, rd, colour, ls):
        l3 = model_line(curve, upto, points, readings=rd, model="2003")
        draw_model(ax, l3["rate"], l3["latency"], color=colour, ls=ls, label=f"2003: {name}")

    return _variant_panels(default_draw, dict(variants), draw, sim_points, curve.label)


def plot_occupancy(occ, loads: Sequence[float], fractions: Sequence[float]):
    """Bars of P(v busy VCs), model against simulation, one panel per load (:func:`~models.torus_dor.experiments.occupancy_check`)."""
    rows, cols = panel_grid(len(loads))
    fig, axes = column_figure(rows, cols, row_height=3.0, sharey=True)
    for ax, x, f in zip(axes.ravel(), loads, fractions):
        sub = occ[(occ["rate"] == x) & (occ["busy VCs"] != "multiplexing")]
        v = np.arange(len(sub))
        ax.bar(v - 0.2, sub["model"], 0.4, color=COLORS[0], label="model")
        ax.bar(v + 0.2, sub["sim"], 0.4, hatch="//", fill=False, edgecolor=COLORS[1], label="simulation")
        mux = occ[(occ["rate"] == x) & (occ["busy VCs"] == "multiplexing")].iloc[0]
        ax.set(xlabel="busy VCs", ylabel="probability", xticks=v,
               title=f"{f:.0%} of model saturation\n" + r"$\bar{l}$" + f": model {mux['model']:.2f}, "
                     f"sim. {mux['sim']:.2f}")
    spare = hide_unused(axes, len(loads))
    fit_ylim_all(axes)  # every bar of every panel (the panels share the y axis)
    figure_legend(fig, *axes[0, 0].get_legend_handles_labels(), spare=spare)
    return fig
