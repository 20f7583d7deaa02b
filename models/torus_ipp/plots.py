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

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from ..core.plotting import COLORS, plot_model_sim, use_style
from .experiments import SETUPS, TRAFFICS, curves, describe, network
from .solve import Params, channel_process

_ORDER = {tr: i for i, tr in enumerate(TRAFFICS)}


def _ylim(runs) -> tuple:
    """0 to five times the largest zero-load latency of the drawn model curves."""
    return 0, 5.0 * max(float(_line(r)["latency"].iloc[0]) for r in runs)


def _line(run):
    """The drawn model curve of a run (its grid, not the simulated loads)."""
    return run.model[run.model["fraction"].isna()]


def plot_figure(runs, title: str = ""):
    """Latency vs ``mu1``, one subplot per panel in ``runs`` (:class:`models.core.experiment.CurveRun`).

    Lines: model, one per traffic (the model does not depend on the simulator
    set-up); markers with 95 % error bars: simulation, one marker per
    set-up; dashed vertical lines: saturation load of the model, dotted /
    dash-dotted: of the simulation under each set-up.  IPP and Poisson
    traffic get their own colours.
    """
    use_style()
    panels = sorted({(describe(r.curve)["figure"], describe(r.curve)["panel"]) for r in runs})
    setups = [su for su in SETUPS if any(r.curve.setup == su for r in runs)]
    setups += sorted({r.curve.setup for r in runs} - set(setups))
    markers = {su: m for su, m in zip(setups, ("o", "s", "^", "D"))}
    styles = {su: ls for su, ls in zip(setups, (":", "-.", (0, (1, 3)), (0, (5, 2))))}
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for ax, key in zip(axes[0], panels):
        mine = sorted([r for r in runs if (describe(r.curve)["figure"], describe(r.curve)["panel"]) == key],
                      key=lambda r: (_ORDER[describe(r.curve)["traffic"]], setups.index(r.curve.setup)))
        drawn = set()
        for r in mine:
            traffic = describe(r.curve)["traffic"]
            col = COLORS[_ORDER[traffic]]
            name = TRAFFICS[traffic]
            if traffic not in drawn:
                m = _line(r)
                plot_model_sim(ax, m["load"], m["latency"], label=name, color=col)
                ax.axvline(r.model_saturation, color=col, ls="--", lw=0.8)
                drawn.add(traffic)
            if r.sim is not None:
                s = r.sim
                ok = ~s["saturated"].astype(bool)
                su = r.curve.setup
                ax.errorbar(s["load"][ok], s["latency"][ok], yerr=s["latency CI"][ok], fmt=markers[su], mfc="none",
                            color=col, capsize=2, ms=5, label=f"{name} simulation, {su}" if su else f"{name} simulation")
                ax.axvline(r.sim_saturation, color=col, ls=styles[su], lw=0.8)
        c = network(mine[0].curve)
        ax.set(xlabel=r"$\mu_1$, on-state rate [messages/node/cycle]", ylabel="mean message latency [cycles]",
               title=f"({key[1]}) $\\sigma_1$={c['sigma1']}, $\\sigma_2$={c['sigma2']}")
        ax.set_ylim(*_ylim(mine))
        ax.set_xlim(0, None)
    handles, labels = axes[0][0].get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.4", ls="--", lw=0.8))
    labels.append("saturation, model")
    for su in setups:
        handles.append(Line2D([], [], color="0.4", ls=styles[su], lw=0.8))
        labels.append(f"saturation, simulation ({su})" if su else "saturation, simulation")
    axes[0][0].legend(handles, labels, fontsize=7, loc="upper left")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_idc(figures: Sequence[int] = (1, 2), mu1: float = 0.005, t_max: float = 200.0):
    """``IDC(t)`` (eq. 10) of each figure's IPP source and of the fitted channel MMPP (they coincide)."""
    use_style()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    tv = np.geomspace(0.05, t_max, 200)
    for i, c in enumerate(curves(figures)):
        p = Params(mu1=mu1, **network(c))
        name = f"Fig. {describe(c)['figure']}{describe(c)['panel']}"
        ax.plot(tv, p.source_ipp.idc(tv), "-", color=COLORS[i], label=f"{name} source")
        ax.plot(tv[::12], channel_process(p).mmpp.idc(tv[::12]), "o", mfc="none", color=COLORS[i],
                label=f"{name} channel fit")
    ax.set(xscale="log", xlabel="window t [cycles]", ylabel="IDC(t) = Var N(t) / E N(t)",
           title=f"Index of dispersion, mu1 = {mu1} messages/node/cycle")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def plot_burstiness_scan(frame, sims: dict | None = None, title: str = ""):
    """Latency vs mean rate for each switching-rate scale (0 = Poisson) of
    :func:`models.torus_ipp.experiments.burstiness_scan`; optional simulated points
    ``sims = {scale: DataFrame(mean rate, sim latency, sim latency CI, sim saturated)}``."""
    use_style()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, (sc, g) in enumerate(frame.groupby("scale", sort=False)):
        name = "Poisson" if sc == 0 else f"IPP, sigma x {sc:g}"
        ax.plot(g["mean rate"], g["model latency"], "-", color=COLORS[i % len(COLORS)], label=f"{name} model")
        if sims and sc in sims:
            s = sims[sc]
            ok = ~s["sim saturated"].astype(bool)
            ax.errorbar(s["mean rate"][ok], s["sim latency"][ok], yerr=s["sim latency CI"][ok], fmt="o", mfc="none",
                        color=COLORS[i % len(COLORS)], capsize=2, ms=5, label=f"{name} simulation")
    finite = frame["model latency"][np.isfinite(frame["model latency"])]
    ax.set_ylim(0, min(float(finite.max()) * 1.1, 6 * float(finite.min())))
    ax.set(xlabel=r"mean rate $\lambda_s$ [messages/node/cycle]", ylabel="mean message latency [cycles]")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
