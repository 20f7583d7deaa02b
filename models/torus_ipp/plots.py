"""The chapter's figures (matplotlib), drawn in the compendium's style (:mod:`models.core.plotting`).

* :func:`plot_figure`: Figs. 1 and 2 of the paper from runs of
  :mod:`models.torus_ipp.experiments` (latency vs ``mu1``, one subplot per
  panel, IPP and Poisson in their own colours, one marker per simulator set-up);
* :func:`plot_idc`: the index of dispersion of sources and fitted channel MMPPs;
* :func:`plot_burstiness_scan`: latency vs mean rate as the bursts lengthen.

Save with :func:`models.core.plotting.savefig`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..core.plotting import (COLORS, MARKERS, column_figure, figure_legend, fit_ylim, hide_unused, model_line,
                             panel_grid, place_legend, saturation_handles, saturation_line, sim_errorbar,
                             style_handle)
from .experiments import LATENCY_CI, TRAFFICS, curves, describe, network
from .setups import SETUPS
from .solve import Params, channel_process

_ORDER = {tr: i for i, tr in enumerate(TRAFFICS)}

#: Line styles of the simulated saturation loads, one per simulator set-up.
_SAT_STYLES = (":", "-.", (0, (1, 3)), (0, (5, 2)))


def _cap(runs) -> float:
    """Five times the largest zero-load latency of the drawn model curves (how far a model line may rise)."""
    return 5.0 * max(float(_line(r)["latency"].iloc[0]) for r in runs)


def _line(run):
    """The drawn model curve of a run (its grid, not the simulated loads)."""
    return run.model[run.model["fraction"].isna()]


def plot_figure(runs, title: str = ""):
    """Latency vs ``mu1``, one subplot per panel in ``runs`` (:class:`models.core.setups.CurveRun`).

    Lines: model, one per traffic (the model does not depend on the simulator
    set-up); markers with 95 % error bars: simulation, one marker per
    set-up; dashed vertical lines: saturation load of the model, dotted /
    dash-dotted: of the simulation under each set-up (grey entries in the
    legend).  IPP and Poisson traffic get their own colours.  Model lines
    may leave the top at five times the zero-load latency; every simulated
    point and CI is inside the axes.  One legend below the panels.
    """
    panels = sorted({(describe(r.curve)["figure"], describe(r.curve)["panel"]) for r in runs})
    setups = [su for su in SETUPS if any(r.curve.setup == su for r in runs)]
    setups += sorted({r.curve.setup for r in runs} - set(setups))
    markers = {su: m for su, m in zip(setups, MARKERS)}
    styles = {su: ls for su, ls in zip(setups, _SAT_STYLES)}
    rows, cols = panel_grid(len(panels))
    fig, axes = column_figure(rows, cols, row_height=3.4)
    handles, labels = [], []
    sat_drawn = set()

    def add(h, lab):
        if lab not in labels:
            handles.append(h)
            labels.append(lab)

    for ax, key in zip(axes.ravel(), panels):
        mine = sorted([r for r in runs if (describe(r.curve)["figure"], describe(r.curve)["panel"]) == key],
                      key=lambda r: (_ORDER[describe(r.curve)["traffic"]], setups.index(r.curve.setup)))
        drawn = set()
        for r in mine:
            traffic = describe(r.curve)["traffic"]
            col = COLORS[_ORDER[traffic]]
            name = TRAFFICS[traffic]
            if traffic not in drawn:
                m = _line(r)
                add(model_line(ax, m["load"], m["latency"], color=col), f"{name} model")
                saturation_line(ax, r.model_saturation, color=col, kind="model")
                drawn.add(traffic)
            if r.sim is not None:
                s = r.sim
                ok = ~s["saturated"].astype(bool)
                su = r.curve.setup
                h = sim_errorbar(ax, s["load"][ok], s["latency"][ok], s[LATENCY_CI][ok], marker=markers[su],
                                 color=col)
                if h is not None:
                    add(h, f"{name} simulation, {su}" if su else f"{name} simulation")
                if saturation_line(ax, r.sim_saturation, color=col, kind="sim", ls=styles[su]) is not None:
                    sat_drawn.add(su)
        c = network(mine[0].curve)
        ax.set(xlabel=r"$\mu_1$, on-state rate [messages/node/cycle]", ylabel="mean message latency [cycles]",
               title=f"({key[1]}) $\\sigma_1$={c['sigma1']}, $\\sigma_2$={c['sigma2']}")
        ax.set_xlim(0, None)
        fit_ylim(ax, cap=_cap(mine))
    spare = hide_unused(axes, len(panels))
    h2, l2 = saturation_handles(True, {(f"saturation load, simulation ({su})" if su else
                                        "saturation load, simulation"): styles[su] for su in setups
                                       if su in sat_drawn})
    figure_legend(fig, handles + h2, labels + l2, spare=spare)
    if title:
        fig.suptitle(title)
    return fig


def plot_idc(figures: Sequence[int] = (1, 2), mu1: float = 0.005, t_max: float = 200.0):
    """``IDC(t)`` (eq. 10) of each figure's IPP source and of the fitted channel MMPP (they coincide)."""
    fig, axes = column_figure(height=3.8)
    ax = axes[0, 0]
    tv = np.geomspace(0.05, t_max, 200)
    for i, c in enumerate(curves(figures)):
        p = Params(mu1=mu1, **network(c))
        name = f"Fig. {describe(c)['figure']}{describe(c)['panel']}"
        model_line(ax, tv, p.source_ipp.idc(tv), color=COLORS[i], label=f"{name} source")
        ax.plot(tv[::12], channel_process(p).mmpp.idc(tv[::12]), MARKERS[i % len(MARKERS)], mfc="none",
                color=COLORS[i], label=f"{name} channel fit")
    ax.set(xscale="log", xlabel="window t [cycles]", ylabel="IDC(t) = Var N(t) / E N(t)",
           title=f"Index of dispersion, $\\mu_1$ = {mu1} messages/node/cycle")
    fit_ylim(ax, bottom=None)  # IDC >= 1: from 0 the curves' rise would be flat
    place_legend(ax)
    return fig


def plot_burstiness_scan(frame, sims: dict | None = None, title: str = ""):
    """Latency vs mean rate for each switching-rate scale (0 = Poisson) of
    :func:`models.torus_ipp.experiments.burstiness_scan`; optional simulated points
    ``sims = {scale: DataFrame(mean rate, sim latency, sim latency CI, sim saturated)}``."""
    fig, axes = column_figure()
    ax = axes[0, 0]
    colours, labels, handles = [], [], []
    for i, (sc, g) in enumerate(frame.groupby("scale", sort=False)):
        name = "Poisson" if sc == 0 else f"IPP, $\\sigma$ x {sc:g}"
        colour = COLORS[i % len(COLORS)]
        model_line(ax, g["mean rate"], g["model latency"], color=colour)
        handles.append(style_handle(name, color=colour, ls="-"))
        labels.append(name)
        if sims and sc in sims:
            s = sims[sc]
            ok = ~s["sim saturated"].astype(bool)
            sim_errorbar(ax, s["mean rate"][ok], s["sim latency"][ok], s[f"sim {LATENCY_CI}"][ok], color=colour)
    handles += [style_handle("model", ls="-"), style_handle("simulation (95% CI)", ls="none", marker="o")]
    labels += ["model", "simulation (95% CI)"] if sims else ["model"]
    handles = handles[:len(labels)]
    finite = frame["model latency"][np.isfinite(frame["model latency"])]
    ax.set_xlim(left=0)
    fit_ylim(ax, cap=min(float(finite.max()), 6 * float(finite.min())))
    ax.set(xlabel=r"mean rate $\lambda_s$ [messages/node/cycle]", ylabel="mean message latency [cycles]")
    if title:
        ax.set_title(title)
    place_legend(ax, handles, labels)
    return fig
