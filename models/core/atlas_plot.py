"""The atlas as pictures: small multiples of heatmaps of the worst error over a chapter's grid.

One panel per simulator set-up and per value of the axes that are not the
heatmap's own (:attr:`~models.core.atlas.AtlasSpec.x`, ``y``); in each cell
the worst ``|error|`` below 80 % of the simulated saturation load (the book's
rule), coloured by band on one scale for the whole figure, with the
boundaries at 5 % and 10 % (and the paper's own threshold, where it gives
one, named on the scale).  A cell whose model saturates early (its worst
error is unbounded) is grey and hatched, with the saturation ratio written
in it; the paper's own configurations have a thick black frame.  Text is 9 pt
at least (the book's figures, :data:`models.core.plotting.MIN_FONT`).
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.patches import Patch, Rectangle

from . import plotting
from .atlas import EARLY, NOT_SIMULATED, AtlasSpec

__all__ = ["heatmaps", "save", "EDGES", "COLORS"]

#: The colour scale's boundaries (fractions): the bands of the verdicts (5 %, 10 %) and three more.
EDGES = (0.0, 0.025, 0.05, 0.10, 0.20, 0.50, np.inf)
#: One colour per interval of :data:`EDGES`, green to red (colour-blind safe: light to dark as well).
COLORS = ("#1a9850", "#91cf60", "#d9ef8b", "#fee08b", "#fc8d59", "#d73027")
#: A cell whose model saturates early.
EARLY_COLOR = "0.82"
#: The frame of a paper's configuration.
PAPER_EDGE = dict(edgecolor="black", lw=2.4)


def _values(frame, name: str) -> list:
    return list(dict.fromkeys(frame[name].tolist()))


def _label(value: float) -> str:
    if not math.isfinite(value):
        return ""
    pct = 100 * value
    return f"{pct:.1f}%" if pct < 9.95 else f"{pct:.0f}%"


def _tick(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def heatmaps(frame, spec: AtlasSpec, setups=None):
    """The figure: one heatmap of ``worst |err|`` per set-up and combination of the other axes."""
    setups = _values(frame, "setup") if setups is None else list(setups)
    others = [a.name for a in spec.axes if a.name not in (spec.x, spec.y)]
    facets = [(s, combo) for s in setups for combo in itertools.product(*(_values(frame, o) for o in others))]
    xs, ys = _values(frame, spec.x), _values(frame, spec.y)
    # one row per set-up and value of the other axes after the first; the first other axis across (<= 3 wide)
    across = len(_values(frame, others[-1])) if others else len(setups)
    cols = across if across <= 3 else min(len(facets), 3 if len(xs) <= 4 else 2)
    rows = math.ceil(len(facets) / cols)
    fig, axes = plotting.column_figure(rows, cols, row_height=0.45 * len(ys) + 1.3,
                                       height=max(2.6, (0.45 * len(ys) + 1.3) * rows + 1.0))
    cmap = mcolors.ListedColormap(COLORS)
    norm = mcolors.BoundaryNorm(list(EDGES[:-1]) + [1.0], cmap.N)
    label_of = {a.name: (a.label or a.name) for a in spec.axes}
    for ax, (setup, combo) in zip(axes.ravel(), facets):
        sel = frame["setup"] == setup
        for name, value in zip(others, combo):
            sel &= frame[name] == value
        part = frame[sel]
        grid = np.full((len(ys), len(xs)), np.nan)
        for _, r in part.iterrows():
            grid[ys.index(r[spec.y]), xs.index(r[spec.x])] = float(r["worst |err|"])
        shown = np.where(np.isfinite(grid), np.minimum(grid, 0.999), np.nan)
        ax.imshow(np.ma.masked_invalid(shown), cmap=cmap, norm=norm, aspect="auto", origin="lower")
        for _, r in part.iterrows():
            i, j = ys.index(r[spec.y]), xs.index(r[spec.x])
            w = float(r["worst |err|"])
            if r["band"] == EARLY:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=EARLY_COLOR, hatch="///",
                                       edgecolor="white", lw=0))
                ratio = float(r["saturation ratio"])
                text = f"sat.\n{ratio:.2f}" if math.isfinite(ratio) else "sat."
            elif r["band"] == NOT_SIMULATED:
                text = "not\nsim."
            else:
                text = _label(w) if math.isfinite(w) else "n/a"
            ax.text(j, i, text, ha="center", va="center", fontsize=plotting.MIN_FONT, linespacing=0.9,
                    color="white" if math.isfinite(w) and w >= EDGES[5] else "black")
            if bool(r["paper configuration"]):
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, facecolor="none", **PAPER_EDGE))
        ax.set_xticks(range(len(xs)), [_tick(v) for v in xs])
        ax.set_yticks(range(len(ys)), [_tick(v) for v in ys])
        ax.set_xlabel(label_of[spec.x])
        ax.set_ylabel(label_of[spec.y])
        ax.tick_params(length=0)
        ax.grid(False)
        title = [setup] if len(setups) > 1 else []
        title += [f"{label_of[n].split(' [')[0]} = {v}" for n, v in zip(others, combo)]
        ax.set_title(", ".join(title) if title else spec.chapter, fontsize=plotting.MIN_FONT + 1)
    plotting.hide_unused(axes, len(facets))
    bounds = list(EDGES[:-1]) + [1.0]
    sm = plotting.plt.cm.ScalarMappable(cmap=cmap, norm=norm)
    bar = fig.colorbar(sm, ax=axes.ravel().tolist(), orientation="horizontal", shrink=0.7, aspect=35,
                       fraction=0.15, pad=0.04, boundaries=bounds, spacing="uniform")
    bar.set_ticks(bounds[:-1])
    bar.set_ticklabels([f"{100 * b:g}%" for b in bounds[:-1]])
    threshold = f"; the paper's threshold {spec.threshold:.0%}" if spec.threshold else ""
    bar.set_label("worst |error| below 80 % of the simulated saturation load (the book's rule)" + threshold
                  if not spec.closed else "worst |error| over the simulated populations NC = "
                  + ", ".join(map(str, spec.loads)))
    handles = [] if spec.closed else [Patch(facecolor=EARLY_COLOR, hatch="///", edgecolor="white",
                                            label="model saturates early (saturation ratio written)")]
    handles.append(Patch(facecolor="none", label="the paper's configuration", **PAPER_EDGE))
    fig.legend(handles=handles, loc="outside upper center", ncols=2, frameon=False)
    return fig


def save(frame, spec: AtlasSpec, path: str | Path) -> Path:
    """Draw :func:`heatmaps` and write it to ``path`` (.svg, .png or .pdf; no date, so reproducible)."""
    path = Path(path)
    meta = {".svg": {"Date": None}, ".pdf": {"CreationDate": None}, ".png": {"Software": None}}[path.suffix.lower()]
    fig = heatmaps(frame, spec)
    try:
        fig.savefig(path, metadata=meta, bbox_inches="tight")
    finally:
        plotting.plt.close(fig)
    return path
