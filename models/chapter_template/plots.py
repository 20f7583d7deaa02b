"""The chapter's figures (PLACEHOLDER): the model against the simulation, on :mod:`models.core.plotting`."""

from __future__ import annotations

from ..core.plotting import plot_curve_runs

__all__ = ["latency_figure"]


def latency_figure(runs, figure):
    """The latency figure of ``runs`` (the curves of ``figure``): the book's style, one axis."""
    return plot_curve_runs(runs, figure).figure
