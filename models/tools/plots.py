"""The figures of the warm-up pages (matplotlib, on :mod:`models.core.plotting`): model lines, simulated markers."""

from __future__ import annotations

import numpy as np

from ..core.plotting import (NEUTRAL, PALETTE, column_figure, figure_legend, fit_ylim, model_line, place_legend,
                             saturation_handles, saturation_line, sim_errorbar, style_handle, unique_handles)
from ..queueing.mg1 import mg1_wait
from .experiments import SERVICES
from .zero_load import zero_load_latency

__all__ = ["plot_zero_load", "plot_little", "plot_mg1", "plot_saturation"]


def plot_zero_load(table):
    """Latency against message length at (almost) zero load: ``T0 = M + h_bar + 1`` per torus (lines), the
    simulation (markers, 95 % intervals)."""
    fig, axes = column_figure(1, 1, height=3.6)
    ax = axes[0, 0]
    for color, (name, rows) in zip(PALETTE, table.groupby("torus", sort=False)):
        M = np.linspace(1, rows["M"].max() * 1.05, 50)
        model_line(ax, M, zero_load_latency(rows["mean distance"].iloc[0], M), color=color,
                   label=f"{name}: model")
        sim_errorbar(ax, rows["M"], rows["sim"], rows["sim 95% ±"], color=color, label=f"{name}: simulation")
    ax.set_xlabel("message length M [flits]")
    ax.set_ylabel("latency at zero load [cycles]")
    ax.set_xlim(left=0)
    fit_ylim(ax)
    place_legend(ax)
    return fig


def plot_little(table):
    """The number of messages in the network, counted every cycle, against ``lambda W`` (the diagonal: Little)."""
    fig, axes = column_figure(1, 1, height=3.6)
    ax = axes[0, 0]
    top = 1.08 * float(max(table["lambda W"].max(), table["counted L"].max()))
    ax.plot([0, top], [0, top], color=NEUTRAL, lw=1.0, ls="--", label="L = λW")
    sim_errorbar(ax, table["lambda W"], table["counted L"], color=PALETTE[0],
                 label="simulated loads: counted L against λW")
    ax.set_xlabel("λW: accepted messages per cycle × mean time in the network [messages]")
    ax.set_ylabel("L: messages in the network, counted [messages]")
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    place_legend(ax)
    return fig


def plot_mg1(table, mean_service: float):
    """Mean wait over the mean service time against the utilisation: P-K (lines) and the simulated queue
    (markers, 95 % intervals), one colour per service distribution."""
    fig, axes = column_figure(1, 1, height=3.6)
    ax = axes[0, 0]
    rho = np.linspace(0.0, float(table["rho"].max()), 200)
    for color, (name, kind) in zip(PALETTE, SERVICES.items()):
        dist = kind(mean_service)
        model_line(ax, rho, mg1_wait(rho / mean_service, dist.mean, dist.second_moment) / mean_service,
                   color=color, label=f"{name}: Pollaczek-Khinchine")
        rows = table[table["service"] == name]
        sim_errorbar(ax, rows["rho"], rows["sim W"] / mean_service, rows["sim 95% ±"] / mean_service, color=color,
                     label=f"{name}: simulated queue")
    ax.set_xlabel("utilisation ρ = λ E[S]")
    ax.set_ylabel("mean wait / mean service time")
    ax.set_xlim(0, 1)
    fit_ylim(ax)
    place_legend(ax)
    return fig


def plot_saturation(latency, accepted, *, bound: float, saturation: dict, zero_load: float):
    """Two panels: latency against offered load (simulation, one colour per VC count; the zero-load latency
    and the bound), and accepted against offered throughput.  ``saturation``: VC count -> simulated
    saturation load (a dotted line each); ``bound``: the throughput bound (a solid grey line)."""
    fig, axes = column_figure(1, 2, row_height=3.4)
    left, right = axes[0]
    for color, (vcs, rows) in zip(PALETTE, latency.groupby("vcs", sort=True)):
        ok = ~rows["saturated"]
        sim_errorbar(left, rows["load"][ok], rows["latency"][ok], rows["latency 95% ±"][ok], color=color,
                     label=f"V = {vcs}: simulation")
        saturation_line(left, saturation[vcs], color=color, kind="sim")
        acc = accepted[accepted["vcs"] == vcs]
        sim_errorbar(right, acc["offered"], acc["accepted"], acc["accepted 95% ±"], color=color,
                     label=f"V = {vcs}: simulation")
        saturation_line(right, saturation[vcs], color=color, kind="sim")
    left.axhline(zero_load, color=NEUTRAL, lw=1.0, ls="--")
    top = 1.05 * float(max(accepted["offered"].max(), bound))
    right.plot([0, top], [0, top], color=NEUTRAL, lw=1.0, ls="--")
    for ax in (left, right):
        ax.axvline(bound, color=NEUTRAL, lw=1.2, ls="-")
        ax.set_xlabel("offered load [messages/node/cycle]")
        ax.set_xlim(0, top)
    left.set_ylabel("latency [cycles]")
    right.set_ylabel("accepted throughput [messages/node/cycle]")
    fit_ylim(left)
    right.set_ylim(0, top)
    handles, labels = unique_handles(axes)
    names = ["zero-load latency T0 (left); accepted = offered (right)",
             "throughput bound (a channel carries 1 flit/cycle)"]
    sat_handles, sat_labels = saturation_handles(model=False)
    figure_legend(fig, handles + [style_handle(names[0], ls="--"), style_handle(names[1], ls="-")] + sat_handles,
                  labels + names + sat_labels)
    return fig
