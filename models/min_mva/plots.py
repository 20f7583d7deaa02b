"""Matplotlib for the min_mva chapter: the paper's two-panel figures (response time and throughput vs NC).

Built on :func:`models.core.plotting.plot_curve_runs` in the compendium's one
style (column width, Okabe-Ito colours, model lines, simulation markers with
95% error bars, one legend below both panels); the notebooks save the figures
with :func:`models.core.plotting.savefig`.
"""

from __future__ import annotations

from typing import Sequence

from matplotlib.ticker import ScalarFormatter

from ..core.experiment import CurveRun
from ..core.plotting import column_figure, figure_legend, fit_ylim, plot_curve_runs, unique_handles

__all__ = ["plot_figure"]

_NC_LABEL = "NC (outstanding requests\nper processor)"


def plot_figure(runs: Sequence[CurveRun], title: str = ""):
    """Response time (a) and throughput (b) vs ``NC`` for the runs of one figure.

    ``runs`` are :class:`~models.core.setups.CurveRun` objects of
    :func:`models.min_mva.experiments.run_figure`.  Model: lines; simulation
    (when run): open markers with 95% confidence intervals.  ``NC`` on a
    base-2 log axis, ticks at the ``NC`` values run.  One legend below both
    panels.  A non-empty ``title`` goes above both panels (e.g.
    ``paper_figure(2).title``).  Returns the matplotlib figure.
    """
    fig, axes = column_figure(1, 2, row_height=3.4)
    ax_r, ax_x = axes[0]
    plot_curve_runs(runs, ax=ax_r, quantity="R", saturation_lines=False, legend=False)
    plot_curve_runs(runs, ax=ax_x, quantity="X", saturation_lines=False, legend=False)
    ax_r.set(xlabel=_NC_LABEL, ylabel="mean response time R [cycles]", title="(a) response time")
    ax_x.set(xlabel=_NC_LABEL, ylabel="throughput X [requests/cycle]", title="(b) throughput")
    ticks = sorted({int(x) for run in runs for x in run.curve.loads})
    for ax in (ax_r, ax_x):
        ax.set_xscale("log", base=2)
        ax.autoscale(enable=True, axis="x")  # plot_curve_runs fixed the left limit at 0, meaningless on a log axis
        ax.set_xticks(ticks)
        ax.get_xaxis().set_major_formatter(ScalarFormatter())
        fit_ylim(ax)
    figure_legend(fig, *unique_handles(axes))
    if title:
        fig.suptitle(title)
    return fig
