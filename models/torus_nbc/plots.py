"""Plots of the torus_nbc chapter (matplotlib, the compendium's style of :mod:`models.core.plotting`).

:func:`plot_fig1` draws Fig. 1 from the runs of
:func:`models.torus_nbc.experiments.run_figure`, one panel per torus, every
simulator set-up as its own series; :func:`plot_comparison` draws the
routing comparison from the tables of
:func:`models.torus_nbc.experiments.run_comparison`.  Save them with
:func:`models.core.plotting.savefig` under the figure's label.
"""

from __future__ import annotations

from typing import Sequence

from ..core.experiment import CurveRun
from ..core.results import ci_column
from ..core.setups import Figure
from ..core.plotting import (COLORS, column_figure, figure_legend, fit_ylim, hide_unused, model_line, panel_grid,
                             saturation_handles, saturation_line, sim_errorbar, style_handle)
from .experiments import FIGURES, PAPER_AXIS, ROUTINGS
from .setups import SETUPS

__all__ = ["plot_fig1", "plot_comparison", "SETUP_STYLE"]

#: Marker, fill and saturation-line style of each simulator set-up's simulated series.
SETUP_STYLE = {"paper": dict(marker="o", filled=True, ls=":"), "model": dict(marker="s", filled=False, ls="-.")}
_OTHER = dict(marker="^", filled=False, ls=":")


def _legend_name(setup: str) -> str:
    st = SETUPS.get(setup)
    return f"{setup} set-up ({st.short})" if st is not None else setup


def plot_fig1(runs: Sequence[CurveRun], figure: Figure | None = None, *, ymax: float = 1200.0,
              paper_axis: bool = True):
    """Fig. 1: latency vs rate, one panel per torus, one colour per message length, one legend below.

    Model: a line (the same for every set-up) and a dashed line at its
    saturation rate.  Simulation: one series per set-up with 95% CIs, filled
    circles for the paper's set-up and open squares for the model's, and a
    vertical line at that set-up's simulated saturation rate (dotted for the
    paper's, dash-dotted for the model's); the legend has a grey entry for
    each kind of vertical line.  With ``paper_axis``, a grey band marks where
    the paper's x axis ends.  The y axis holds every simulated point and CI;
    model lines count up to ``ymax`` cycles.  Axis labels from ``figure``
    (default ``FIGURES["fig-torus_nbc-fig1"]``).
    """
    figure = FIGURES["fig-torus_nbc-fig1"] if figure is None else figure
    tori = sorted({int(r.curve.model["k"]) for r in runs})
    rows, cols = panel_grid(len(tori))
    fig, axes = column_figure(rows, cols, row_height=3.6 if cols > 1 else 4.2)
    Ms_all = sorted({int(r.curve.model["M"]) for r in runs})
    colour_of = {M: COLORS[i % len(COLORS)] for i, M in enumerate(Ms_all)}
    colour_entries, setups_seen, band = {}, {}, False
    any_model_sat = False
    for ax, k in zip(axes.ravel(), tori):
        sub = [r for r in runs if int(r.curve.model["k"]) == k]
        for M in sorted({int(r.curve.model["M"]) for r in sub}):
            colour = colour_of[M]
            mine = [r for r in sub if int(r.curve.model["M"]) == M]
            m = mine[0].model
            model_line(ax, m["load"], m[mine[0].quantity], color=colour)
            colour_entries[M] = colour
            any_model_sat |= saturation_line(ax, mine[0].model_saturation, color=colour, kind="model") is not None
            for run in mine:
                if run.sim is None:
                    continue
                st = SETUP_STYLE.get(run.curve.setup, _OTHER)
                col = ci_column(run.quantity)
                if sim_errorbar(ax, run.sim["load"], run.sim[run.quantity], run.sim[col] if col in run.sim else None,
                                color=colour, marker=st["marker"], filled=st["filled"]) is not None:
                    setups_seen.setdefault(run.curve.setup, st)
                if saturation_line(ax, run.sim_saturation, color=colour, kind="sim", ls=st["ls"]) is not None:
                    setups_seen.setdefault(run.curve.setup, st)
        if paper_axis and k in PAPER_AXIS:
            ax.axvline(PAPER_AXIS[k], color="0.5", lw=4, alpha=0.25, gid="background")
            band = True
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=f"{k}x{k} torus")
        ax.set_xlim(left=0)
        fit_ylim(ax, cap=ymax, rise=6.0)
    spare = hide_unused(axes, len(tori))
    handles = [style_handle(f"M = {M} flits, model", color=c, ls="-") for M, c in colour_entries.items()]
    labels = [f"M = {M} flits, model" for M in colour_entries]
    for su, st in setups_seen.items():
        handles.append(style_handle("", ls="none", marker=st["marker"], filled=st["filled"]))
        labels.append(f"simulation, {_legend_name(su)}")
    h2, l2 = saturation_handles(any_model_sat, {f"saturation load, simulation, {su} set-up": st["ls"]
                                                for su, st in setups_seen.items()})
    handles += h2
    labels += l2
    if band:
        handles.append(style_handle("", color="0.5", ls="-"))
        handles[-1].set_linewidth(4)
        handles[-1].set_alpha(0.25)
        labels.append("end of the paper's x axis")
    figure_legend(fig, handles, labels, spare=spare)
    return fig


def plot_comparison(points, saturation=None, figure: Figure | None = None):
    """Latency vs rate per routing, one panel per curve and set-up (simulation only, 95% CIs; dotted: saturation rates).

    The simulated points of one routing are joined by a thin line (there is
    no model here).  Axis labels from ``figure`` (default
    ``FIGURES["fig-torus_nbc-routing-comparison"]``).  One legend below the panels.
    """
    figure = FIGURES["fig-torus_nbc-routing-comparison"] if figure is None else figure
    panels = list(dict.fromkeys(zip(points["curve"], points["setup"])))
    rows, cols = panel_grid(len(panels))
    fig, axes = column_figure(rows, cols)
    markers = {"duato_nbc": "o", "duato": "s", "dor": "^"}
    order = list(dict.fromkeys(points["routing"]))
    colour_of = {r: COLORS[i % len(COLORS)] for i, r in enumerate(order)}
    handles, labels = {}, {}
    any_sat = False
    for ax, (curve, setup) in zip(axes.ravel(), panels):
        sub = points[(points["curve"] == curve) & (points["setup"] == setup)]
        for routing, g in sub.groupby("routing", sort=False):
            colour = colour_of[routing]
            h = sim_errorbar(ax, g["rate"], g["latency"], g["CI"], color=colour, marker=markers.get(routing, "o"),
                             ls="-", lw=0.9)
            if h is not None:
                handles.setdefault(routing, h)
                labels.setdefault(routing, ROUTINGS.get(routing, routing))
            if saturation is not None:
                s = saturation[(saturation["curve"] == curve) & (saturation["setup"] == setup)
                               & (saturation["routing"] == routing)]
                if not s.empty:
                    any_sat |= saturation_line(ax, float(s["saturation"].iloc[0]), color=colour,
                                               kind="sim") is not None
        ax.set(title=f"{curve},\n{_legend_name(setup)}", xlabel=figure.xlabel, ylabel=figure.ylabel)
        ax.set_xlim(left=0)
        fit_ylim(ax, rise=6.0)
    spare = hide_unused(axes, len(panels))
    h2, l2 = saturation_handles(False, any_sat)
    figure_legend(fig, [handles[r] for r in handles] + h2, [labels[r] for r in handles] + l2, spare=spare)
    return fig
