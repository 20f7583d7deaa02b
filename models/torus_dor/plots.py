"""The chapter's figures (matplotlib), drawn from :class:`~models.core.experiment.CurveRun` objects.

Style and saving: :mod:`models.core.plotting` (:func:`~models.core.plotting.use_style`,
:func:`~models.core.plotting.savefig`, :func:`~models.core.plotting.plot_curve_runs`).
Loads are :math:`\\lambda_g` in messages/node/cycle, latencies in cycles.
"""

from __future__ import annotations

from typing import Callable, Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..core.experiment import Curve, CurveRun, Figure
from ..core.plotting import plot_curve_runs, use_style
from .experiments import MODEL_POINTS, PRINTED, model_line

__all__ = ["plot_runs", "plot_panels", "plot_switches", "plot_switches_2003", "plot_occupancy"]

XLABEL = r"generation rate $\lambda_g$ [messages/node/cycle]"
YLABEL = "mean message latency [cycles]"


def _finite_max(values) -> float:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return float(v.max()) if v.size else 0.0


def plot_runs(runs: Sequence[CurveRun], ax=None, *, figure: Figure | None = None, title: str = "",
              with_2003: bool = False, logy: bool = False, saturation_lines: bool = False):
    """Latency vs load: model lines (up to its saturation), simulation markers with 95% CIs, one colour per curve.

    The chapter's default reading is the solid line ("model, default
    reading"); the paper's equations as printed (column ``latency printed``
    of ``run.model``, when the run has it) a dotted line of the same colour
    ("model as printed").  With ``with_2003``, the reconstructed 2003 model
    (column ``latency 2003``) as a dashed line of the same colour.  Returns
    the matplotlib figure.
    """
    use_style()
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
    else:
        fig = ax.figure
    plot_curve_runs(runs, figure, ax=ax, saturation_lines=saturation_lines)
    colors = {ln.get_label(): ln.get_color() for ln in ax.get_lines()}
    for ln in ax.get_lines():
        if ln.get_label().endswith(" model"):
            ln.set_label(f"{ln.get_label()}, default reading")
    ymax = 0.0
    for run in runs:
        ymax = max(ymax, _finite_max(run.model["latency"]))
        if run.sim is not None:
            ymax = max(ymax, _finite_max(run.sim["latency"]))
        if "latency printed" in run.model:
            x = run.model["load"].to_numpy(dtype=float)
            y = run.model["latency printed"].to_numpy(dtype=float)
            ok = np.isfinite(y)
            ax.plot(x[ok], y[ok], ":", lw=1.6, color=colors.get(f"{run.label} model"),
                    label=f"{run.label} model as printed")
        if with_2003 and "latency 2003" in run.model:
            x = run.model["load"].to_numpy(dtype=float)
            y = run.model["latency 2003"].to_numpy(dtype=float)
            ok = np.isfinite(y)
            ax.plot(x[ok], y[ok], "--", color=colors.get(f"{run.label} model"), label=f"{run.label} 2003 model")
            ymax = max(ymax, _finite_max(y))
    if ymax > 0 and not logy:
        ax.set_ylim(0, ymax * 1.1)
    if logy:
        ax.set_yscale("log")
    ax.set(xlabel=figure.xlabel if figure else XLABEL, ylabel=figure.ylabel if figure else YLABEL)
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7)
    if own:
        fig.tight_layout()
    return fig


def plot_panels(runs: Sequence[CurveRun], keys: Sequence, key: Callable[[Curve], object],
                title: Callable[[object], str], *, cols: int | None = None, size=(5.2, 4.0)):
    """One :func:`plot_runs` panel per value of ``key(curve)`` in ``keys`` (e.g. per torus and ``L``)."""
    use_style()
    keys = list(keys)
    cols = cols or len(keys)
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(size[0] * cols, size[1] * rows), squeeze=False)
    for ax, k in zip(axes.ravel(), keys):
        plot_runs([r for r in runs if key(r.curve) == k], ax=ax, title=title(k))
    for ax in axes.ravel()[len(keys):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def plot_switches(curve: Curve, variants: dict, upto: float, sim_points=None, *, points: int = MODEL_POINTS,
                  ax=None):
    """Model latency under each reading (one line each) with the simulation markers.

    ``sim_points``: a frame with ``rate``, ``sim latency`` and ``sim CI``
    (:func:`models.torus_dor.experiments.points_table`).
    """
    use_style()
    if ax is None:
        fig, ax = plt.subplots(figsize=(7.0, 4.6))
    else:
        fig = ax.figure
    colors = plt.cm.tab20(np.linspace(0, 1, 20))
    for idx, (name, rd) in enumerate(variants.items()):
        line = model_line(curve, upto, points, readings=rd)
        ax.plot(line["rate"], line["latency"], "-" if name == "default" else "--", lw=2.5 if name == "default" else 1.2,
                color="k" if name == "default" else colors[(2 * idx) % 20 if idx < 10 else (2 * idx + 1) % 20],
                label=name)
    _sim_markers(ax, sim_points)
    ax.set(xlabel=XLABEL, ylabel=YLABEL, title=curve.label)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def plot_switches_2003(curve: Curve, variants: dict, upto: float, sim_points=None, *, points: int = MODEL_POINTS):
    """The 2004 model (default reading and as printed) and the 2003 model under each of its switches, with the
    simulation."""
    use_style()
    fig, ax = plt.subplots(figsize=(7.0, 4.6))
    line = model_line(curve, upto, points)
    ax.plot(line["rate"], line["latency"], "-", lw=2, color="k", label="2004 model (default reading)")
    printed = model_line(curve, upto, points, readings=PRINTED)
    ax.plot(printed["rate"], printed["latency"], ":", lw=2, color="k", label="2004 model as printed")
    for name, rd in variants.items():
        l3 = model_line(curve, upto, points, readings=rd, model="2003")
        ax.plot(l3["rate"], l3["latency"], "--", label=f"2003: {name}")
    _sim_markers(ax, sim_points)
    ax.set(xlabel=XLABEL, ylabel=YLABEL, title=curve.label)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _sim_markers(ax, sim_points):
    if sim_points is None:
        return
    ok = np.isfinite(sim_points["sim latency"].to_numpy(dtype=float))
    if not ok.any():
        return
    x = sim_points["rate"].to_numpy(dtype=float)[ok]
    y = sim_points["sim latency"].to_numpy(dtype=float)[ok]
    ci = sim_points["sim CI"].to_numpy(dtype=float)[ok]
    ax.errorbar(x, y, yerr=ci, fmt="ko", mfc="none", ms=5, capsize=2, label="simulation")
    ax.set_ylim(0, float(y.max()) * 1.3)


def plot_occupancy(occ, loads: Sequence[float], fractions: Sequence[float]):
    """Bars of P(v busy VCs), model against simulation, one panel per load (:func:`~models.torus_dor.experiments.occupancy_check`)."""
    use_style()
    fig, axes = plt.subplots(1, len(loads), figsize=(5.0 * len(loads), 3.6), squeeze=False)
    for ax, x, f in zip(axes[0], loads, fractions):
        sub = occ[(occ["rate"] == x) & (occ["busy VCs"] != "multiplexing")]
        v = np.arange(len(sub))
        ax.bar(v - 0.2, sub["model"], 0.4, label="model")
        ax.bar(v + 0.2, sub["sim"], 0.4, hatch="//", fill=False, label="simulation")
        mux = occ[(occ["rate"] == x) & (occ["busy VCs"] == "multiplexing")].iloc[0]
        ax.set(xlabel="busy VCs", ylabel="probability", xticks=v,
               title=f"{f:.0%} of model saturation: l-bar model {mux['model']:.2f}, sim {mux['sim']:.2f}")
        ax.title.set_fontsize(8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
