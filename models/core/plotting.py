"""One figure style for the whole book, legend and y-limit helpers, and a deterministic ``savefig``.

Page size
---------
The book shows a figure as the notebook's inline PNG, at its natural pixel
width (``bbox_inches="tight"``) unless wider than the column, where CSS
scales it down.  The text column of the book's theme is 784 CSS px wide at a
1400 px wide window (848 px article minus 2 x 32 px padding; measured with
headless Chromium on the quick build), 624 px at 1200 px.  So:

* every figure is :data:`COLUMN_WIDTH` = 7.5 in wide at :data:`DPI` = 96
  dots per inch: 7.5 in x 96 px/in = 720 px <= 784 px, shown unscaled;
* a CSS pixel is 1/96 in, so one figure point renders as one CSS point:
  a ``s`` pt font is ``s / 72 * 96`` px in the PNG and on the page, i.e.
  ``s`` pt; text is :data:`MIN_FONT` = 9 pt or larger (ticks, labels,
  legends), titles 10 pt.  At a 1200 px window the column scales the figure
  by 624 / 720 = 0.87 (9 pt -> 7.8 pt).
* the PNG files that :func:`savefig` writes are twice as dense (192 dpi).

Style
-----
* Colours: the Okabe-Ito colour-blind-safe palette (:data:`PALETTE`), one
  colour per curve (network, message length, ...).
* Model: lines (:data:`MODEL_STYLE`, solid; other readings of the model
  dashed or dotted in the same colour).  Simulation: markers only, open or
  filled, with 95 % confidence-interval error bars (:func:`sim_errorbar`);
  one marker shape per simulator set-up (:data:`MARKERS`).
* Saturation loads: thin vertical lines, dashed for the model and dotted
  (or dash-dotted per set-up) for the simulation, with neutral-grey legend
  entries (:func:`saturation_handles`), so the legend explains them.
* Legends: :func:`place_legend` puts a legend inside the axes only where
  its box covers no data point, CI end, line or bar (:func:`legend_covers`),
  and otherwise below the axes; figures with several panels share one
  legend below them (:func:`figure_legend`).
* Y limits: :func:`fit_ylim` holds every simulated point and its CI (model
  lines may leave the top near saturation; a ``cap`` limits how far).
* Many curves: :func:`split_panels` groups them, at most
  :data:`MAX_CURVES_PER_PANEL` per panel; :func:`column_figure` makes the
  panels at the column's width.

:func:`savefig` writes ``<folder>/<label>.svg`` and ``<label>.png`` with the
figure's provenance (label, notebook, parameters, commit) in the metadata.
SVGs are byte-for-byte reproducible: fixed ``svg.hashsalt``, no date.

Paper style
-----------
A figure for a two-column paper (:data:`PAPER_STYLE`, :func:`paper_figure`;
``python -m models.<chapter> curve --plot f.svg --style paper`` and
:meth:`models.core.compare.Comparison.plot`): one column,
:data:`PAPER_WIDTH` = 3.4 in wide (IEEE and ACM columns are 3.3-3.5 in),
printed at that size, so its text is given at the printed size: ticks and
legend :data:`PAPER_FONT` = 8 pt, axis labels and title 9 pt; thinner lines
and smaller markers; SVG text kept as text (``svg.fonttype: none``), so an
editor or a journal's typesetting can change it; PNG at 300 dpi.

Fonts
-----
Every style embeds PDF and PostScript fonts as TrueType (``pdf.fonttype`` and
``ps.fonttype`` 42), never as Type 3, which journals' PDF checkers reject.
:data:`FONT_STYLES` adds a Times-like serif (STIX, shipped with matplotlib)
to either style.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
from cycler import cycler
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from .cache import atomic_write_bytes
from .paths import git_commit

#: Width of every figure [in]: the book's text column (see the module docstring).
COLUMN_WIDTH = 7.5
#: Dots per inch of the inline figure the book shows: one CSS pixel per dot.
DPI = 96
#: Smallest font size of any text in a figure [pt], at the rendered size.
MIN_FONT = 9
#: Height of one row of panels [in].
ROW_HEIGHT = 3.0
#: Most curves (one colour each) in one panel before a figure is split into panels.
MAX_CURVES_PER_PANEL = 5

#: Okabe & Ito (2008) colour-blind-safe palette, in the order the curves take it
#: (blue, orange, bluish green, vermillion, reddish purple, sky blue, yellow, black).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: Colours of successive curves (the palette; kept under its old name).
COLORS = list(PALETTE)
#: Marker shapes of successive simulator set-ups (or simulated series).
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
#: Line styles of the model under other readings (the default reading is solid).
READING_STYLES = ("--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)))
#: Model line, simulated markers (open by default, 95 % CI error bars), saturation lines.
MODEL_STYLE = dict(ls="-", lw=1.6)
SIM_STYLE = dict(ls="none", ms=5, capsize=2.5, elinewidth=1.0, mfc="none", mew=1.2)
SATURATION_STYLE = {"model": dict(ls="--", lw=0.9), "sim": dict(ls=":", lw=1.1)}
#: Grey of legend proxies that stand for one style in every colour (saturation lines).
NEUTRAL = "0.35"

STYLE = {
    "figure.figsize": (COLUMN_WIDTH, 4.2),
    "figure.dpi": DPI,
    "figure.constrained_layout.use": True,
    "savefig.dpi": 2 * DPI,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=list(PALETTE)),
    "legend.frameon": True,
    "legend.framealpha": 0.9,
    "legend.edgecolor": "0.8",
    "legend.fontsize": MIN_FONT,
    "legend.title_fontsize": MIN_FONT,
    "font.size": MIN_FONT,
    "axes.labelsize": MIN_FONT,
    "axes.titlesize": 10,
    "figure.titlesize": 10,
    "xtick.labelsize": MIN_FONT,
    "ytick.labelsize": MIN_FONT,
    "lines.linewidth": 1.6,
    "lines.markersize": 5,
    "errorbar.capsize": 2.5,
    "svg.hashsalt": "interconnect-models",
    "svg.fonttype": "path",
    # PDF and PostScript embed the fonts as TrueType (Type 42), never Type 3 (bitmap-like glyph procedures that
    # journals' PDF checkers such as IEEE PDF eXpress reject); every PDF/PS figure of the project is saved under it
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "path.simplify": False,
}

#: The typefaces of a figure (``Comparison.save(font=...)``, ``curve --font``): the book's sans serif (DejaVu Sans,
#: matplotlib's own) or a Times-like serif for a journal set in Times: STIX, which ships with matplotlib (so the
#: figure is the same on every machine), its mathematics in STIX too.
FONT_STYLES = {
    "sans": {},
    "serif": {"font.family": "serif", "font.serif": ["STIXGeneral", "DejaVu Serif"], "mathtext.fontset": "stix"},
}


#: Width of a single-column figure of a two-column paper [in], and its height before a legend below it.
PAPER_WIDTH = 3.4
PAPER_HEIGHT = 2.6
#: Tick and legend text of a paper figure [pt] at its printed size; labels and title are :data:`PAPER_LABEL_FONT`.
PAPER_FONT = 8
PAPER_LABEL_FONT = 9
#: The paper style: the book's, at the paper's column width and text sizes, text kept as text in SVG.
PAPER_STYLE = {
    **STYLE,
    "figure.figsize": (PAPER_WIDTH, PAPER_HEIGHT),
    "savefig.dpi": 300,
    "font.size": PAPER_FONT,
    "axes.labelsize": PAPER_LABEL_FONT,
    "axes.titlesize": PAPER_LABEL_FONT,
    "figure.titlesize": PAPER_LABEL_FONT,
    "legend.fontsize": PAPER_FONT,
    "legend.title_fontsize": PAPER_FONT,
    "xtick.labelsize": PAPER_FONT,
    "ytick.labelsize": PAPER_FONT,
    "axes.linewidth": 0.6,
    "grid.linewidth": 0.5,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.major.size": 2.5,
    "ytick.major.size": 2.5,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "errorbar.capsize": 1.8,
    "legend.borderpad": 0.3,
    "legend.handlelength": 1.6,
    "legend.labelspacing": 0.3,
    "svg.fonttype": "none",
}


def font_style(font: str) -> dict:
    """The rcParams of the typeface ``font`` (a name of :data:`FONT_STYLES`), to apply over a style."""
    if font not in FONT_STYLES:
        raise ValueError(f"`font` must be one of {', '.join(FONT_STYLES)}; got {font!r}")
    return dict(FONT_STYLES[font])


def use_style() -> None:
    """Apply the compendium's matplotlib style (done on import; call again after a reset)."""
    plt.rcParams.update(STYLE)


use_style()


# ----------------------------------------------------------------------------
# Figures at the column's width
# ----------------------------------------------------------------------------
def column_figure(rows: int = 1, cols: int = 1, *, row_height: float | None = None, height: float | None = None,
                  sharex: bool | str = False, sharey: bool | str = False):
    """A figure :data:`COLUMN_WIDTH` wide with ``rows x cols`` panels; returns ``(fig, axes)`` (2-D array).

    ``row_height`` [in] per row of panels (default :data:`ROW_HEIGHT`; 4.2 in
    for a single panel), or the whole ``height`` [in].  Constrained layout
    (the style's) makes room for labels and a legend below.
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"rows and cols must be at least 1; got rows={rows}, cols={cols}")
    use_style()
    if height is None:
        height = (row_height or (4.2 if rows == cols == 1 else ROW_HEIGHT)) * rows
    fig, axes = plt.subplots(rows, cols, figsize=(COLUMN_WIDTH, height), squeeze=False, sharex=sharex, sharey=sharey)
    for ax in axes.ravel():  # narrow panels: fewer x ticks, so 9 pt tick labels never overlap
        ax.xaxis.set_major_locator(MaxNLocator(nbins=8 if cols == 1 else 4 if cols == 2 else 3, steps=[1, 2, 2.5, 5, 10]))
    return fig, axes


def paper_figure(height: float = PAPER_HEIGHT):
    """One panel for a paper's column: ``(fig, ax)``, :data:`PAPER_WIDTH` x ``height`` in, the paper style.

    The style's rcParams apply to what is drawn inside :data:`PAPER_STYLE`'s
    ``plt.rc_context``; the tick labels' size is fixed on the axes here, since
    matplotlib makes ticks when it draws.  At most 5 x ticks (8 pt labels
    never overlap in 3.4 in).
    """
    with plt.rc_context(PAPER_STYLE):
        fig, ax = plt.subplots(figsize=(PAPER_WIDTH, height))
        ax.tick_params(labelsize=PAPER_FONT)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    return fig, ax


def panel_grid(n: int, max_cols: int = 2) -> tuple[int, int]:
    """Rows and columns for ``n`` panels, at most ``max_cols`` side by side."""
    if n < 1:
        raise ValueError(f"n must be at least 1; got {n}")
    cols = min(n, max_cols)
    return math.ceil(n / cols), cols


def split_panels(items: Sequence, per_panel: int = MAX_CURVES_PER_PANEL) -> list[list]:
    """``items`` (curves) in order, in as few panels as hold at most ``per_panel`` each, sizes balanced."""
    if per_panel < 1:
        raise ValueError(f"per_panel must be at least 1; got {per_panel}")
    items = list(items)
    if not items:
        return []
    n = math.ceil(len(items) / per_panel)
    sizes = [len(items) // n + (i < len(items) % n) for i in range(n)]
    starts = np.cumsum([0] + sizes)
    return [items[a:b] for a, b in zip(starts[:-1], starts[1:])]


def hide_unused(axes, n: int) -> list:
    """Hide the panels after the first ``n`` (a grid with more cells than panels); returns them.

    :func:`figure_legend` can put the legend in the first of them (``spare``).
    """
    spare = list(np.ravel(axes)[n:])
    for ax in spare:
        ax.set_visible(False)
    return spare


# ----------------------------------------------------------------------------
# Model lines, simulated points, saturation lines
# ----------------------------------------------------------------------------
def model_line(ax, x, y, *, color=None, label: str | None = None, ls="-", lw: float | None = None, **kw):
    """The model as a line over its finite values (saturated loads left out); returns the Line2D."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    style = dict(MODEL_STYLE, ls=ls)
    if lw is not None:
        style["lw"] = lw
    return ax.plot(x[ok], y[ok], color=color, label=label if label is not None else "_nolegend_", **style, **kw)[0]


def sim_errorbar(ax, x, y, ci=None, *, color=None, marker: str = "o", filled: bool = False,
                 label: str | None = None, **kw):
    """Simulated points: markers (open unless ``filled``) with 95 % CI error bars, no line; finite points only.

    Returns the ErrorbarContainer (None when no point is finite).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        return None
    style = dict(SIM_STYLE, marker=marker)
    if filled:
        style["mfc"] = color
    style.update(kw)
    err = None
    if ci is not None:
        err = np.asarray(ci, dtype=float)[ok]
        err = np.where(np.isfinite(err), err, 0.0)
    return ax.errorbar(x[ok], y[ok], yerr=err, color=color, label=label if label is not None else "_nolegend_",
                       **style)


def saturation_line(ax, x: float, *, color=None, kind: str = "model", ls=None, lw: float | None = None):
    """A vertical line at a saturation load: ``kind`` ``"model"`` (dashed) or ``"sim"`` (dotted), or ``ls``.

    Not labelled: :func:`saturation_handles` gives the legend entries (one
    grey entry per style).  Its gid is ``saturation-<kind>``.  Nothing is
    drawn for a non-finite ``x``.
    """
    if kind not in SATURATION_STYLE:
        raise ValueError(f"kind must be one of {sorted(SATURATION_STYLE)}; got {kind!r}")
    if x is None or not math.isfinite(float(x)):
        return None
    style = dict(SATURATION_STYLE[kind])
    if ls is not None:
        style["ls"] = ls
    if lw is not None:
        style["lw"] = lw
    line = ax.axvline(float(x), color=color, **style)
    line.set_gid(f"saturation-{kind}")
    return line


def saturation_handles(model: bool = True, sim: bool | dict = True) -> tuple[list, list]:
    """Legend proxies for the saturation lines: ``(handles, labels)`` in :data:`NEUTRAL` grey.

    ``sim``: True for one dotted entry, or ``{label: line style}`` for one
    entry per simulator set-up.
    """
    handles, labels = [], []
    if model:
        handles.append(Line2D([], [], color=NEUTRAL, **SATURATION_STYLE["model"]))
        labels.append("saturation load, model")
    if sim is True:
        handles.append(Line2D([], [], color=NEUTRAL, **SATURATION_STYLE["sim"]))
        labels.append("saturation load, simulation")
    elif isinstance(sim, dict):
        for label, ls in sim.items():
            handles.append(Line2D([], [], color=NEUTRAL, ls=ls, lw=SATURATION_STYLE["sim"]["lw"]))
            labels.append(label)
    return handles, labels


def style_handle(label_style: str, *, color=NEUTRAL, ls="-", marker=None, filled: bool = False) -> Line2D:
    """A grey legend proxy for a style that every colour shares (``ls``, ``marker``)."""
    return Line2D([], [], color=color, ls=ls, marker=marker, mfc=color if filled else "none", label=label_style)


# ----------------------------------------------------------------------------
# What a legend may cover; legends
# ----------------------------------------------------------------------------
_NO_MARKER = (None, "", "None", "none", " ")


def _has_marker(line) -> bool:
    return line.get_marker() not in _NO_MARKER


def _has_line(line) -> bool:
    return line.get_linestyle() not in _NO_MARKER and line.get_linewidth() > 0


def _densify(xy: np.ndarray, step: float = 3.0) -> np.ndarray:
    """Points every ``step`` display pixels along a polyline (NaN breaks it)."""
    out = [xy[np.all(np.isfinite(xy), axis=1)]]
    for p, q in zip(xy[:-1], xy[1:]):
        if not (np.all(np.isfinite(p)) and np.all(np.isfinite(q))):
            continue
        n = int(np.hypot(*(q - p)) // step)
        if n > 1:
            t = np.linspace(0, 1, n + 1)[1:-1, None]
            out.append(p + t * (q - p))
    return np.concatenate(out) if out else np.empty((0, 2))


def data_points(ax) -> np.ndarray:
    """Display coordinates of what a legend must not cover, inside ``ax``: markers, CI bars, lines, bars.

    Lines (model curves, saturation lines) and error bars are sampled every
    3 px; bars by their outline and a 3 px grid.  Artists with gid
    ``"background"`` (bands, reference shading) are left out.
    """
    pts = []
    for line in ax.get_lines():
        if not line.get_visible() or line.get_gid() == "background":
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        pts.append(_densify(xy) if _has_line(line) else xy[np.all(np.isfinite(xy), axis=1)])
    for coll in ax.collections:
        if not coll.get_visible() or coll.get_gid() == "background" or not hasattr(coll, "get_segments"):
            continue
        tr = coll.get_transform()
        for seg in coll.get_segments():
            if len(seg):
                pts.append(_densify(tr.transform(np.asarray(seg, dtype=float))))
    for patch in ax.patches:
        if not patch.get_visible() or patch.get_gid() == "background":
            continue
        ext = patch.get_window_extent()
        if ext.width <= 0 or ext.height <= 0:
            continue
        gx, gy = np.meshgrid(np.arange(ext.x0, ext.x1 + 3, 3.0), np.arange(ext.y0, ext.y1 + 3, 3.0))
        pts.append(np.column_stack([np.clip(gx.ravel(), ext.x0, ext.x1), np.clip(gy.ravel(), ext.y0, ext.y1)]))
    if not pts:
        return np.empty((0, 2))
    pts = np.concatenate(pts)
    box = ax.get_window_extent()
    inside = (pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1) & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1)
    return pts[inside]


def legend_covers(ax, legend=None) -> int:
    """How many of :func:`data_points` of ``ax`` lie under ``legend``'s box (default: the axes' legend).

    The figure is laid out and drawn (without rendering) first.  A legend
    outside ``ax`` covers nothing of it.
    """
    legend = legend if legend is not None else ax.get_legend()
    if legend is None:
        return 0
    fig = ax.figure
    fig.draw_without_rendering()
    box = legend.get_window_extent(fig.canvas.get_renderer()).padded(1.0)
    pts = data_points(ax)
    if not len(pts):
        return 0
    return int(np.count_nonzero((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1)
                                & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1)))


#: Places :func:`place_legend` tries inside the axes, in order.
LEGEND_LOCATIONS = ("upper left", "upper right", "lower right", "lower left", "center left", "center right",
                    "upper center", "lower center")


def legend_columns(labels: Sequence[str], width: float = COLUMN_WIDTH, font: float = MIN_FONT) -> int:
    """Columns of a legend ``width`` inches wide for ``labels`` at ``font`` pt (about 0.065 in a character at 9 pt)."""
    longest = max((len(str(s)) for s in labels), default=1)
    per = 0.065 * font / MIN_FONT * longest + 0.6  # text + handle + spacing [in]
    return int(max(0 if width < per else 1, min(len(labels), width // per, 4)))


def place_legend(ax, handles=None, labels=None, *, locations: Iterable[str] = LEGEND_LOCATIONS,
                 outside: str = "auto", **kw):
    """A legend inside ``ax`` where its box covers no data (:func:`legend_covers`), else outside.

    Outside: below the figure when ``ax`` is its only visible panel
    (``outside="auto"`` or ``"below"``), else to the right of ``ax``
    (``"right"``).  Returns the legend.
    """
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    for loc in locations:
        leg = ax.legend(handles, labels, loc=loc, **kw)
        if legend_covers(ax, leg) == 0:
            return leg
        leg.remove()
    fig = ax.figure
    single = sum(a.get_visible() for a in fig.axes) == 1
    if outside == "below" or (outside == "auto" and single):
        return figure_legend(fig, handles, labels, **kw)
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)


def unique_handles(axes) -> tuple[list, list]:
    """The legend handles and labels of all ``axes``, each label once, in order of appearance."""
    handles, labels = [], []
    for ax in np.ravel(axes):
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    return handles, labels


def figure_legend(fig, handles, labels, *, ncols: int | None = None, grow: bool = True, spare=None, **kw):
    """One legend for the whole figure, below the panels (constrained layout makes room).

    With ``spare`` (an empty grid cell, or the list :func:`hide_unused`
    returns), the legend fills that cell instead when it fits there (no
    axes is drawn in the cell).  Otherwise, with ``grow``, the figure is made
    taller by the legend's height (about 0.2 in a row of entries at 9 pt),
    so the panels keep their size.
    """
    kw.pop("loc", None)
    if isinstance(spare, (list, tuple)):
        spare = spare[0] if spare else None
    if spare is not None:
        cell = spare.get_position()
        w, h = fig.get_size_inches()
        cols = legend_columns(labels, cell.width * w + 0.6)
        if cols >= 1 and 0.24 * math.ceil(len(labels) / cols) <= cell.height * h + 0.4:
            spare.set_visible(True)
            spare.set_axis_off()
            return spare.legend(handles, labels, loc="center", ncols=ncols or cols, frameon=False, **kw)
    ncols = ncols or legend_columns(labels)
    if grow:
        fig.set_figheight(fig.get_figheight() + 0.2 * math.ceil(len(labels) / ncols) + 0.15)
    return fig.legend(handles, labels, loc="outside lower center", ncols=ncols, **kw)


def overlapping_ticks(ax) -> list[str]:
    """Tick labels of ``ax`` whose boxes overlap their neighbour's (tests use it; the figure must be drawn)."""
    out = []
    renderer = ax.figure.canvas.get_renderer()
    for axis in (ax.xaxis, ax.yaxis):
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in axis.get_ticklabels()
                 if t.get_visible() and t.get_text()]
        boxes.sort(key=lambda b: (b[1].x0, b[1].y0))
        for (ta, a), (tb, b) in zip(boxes, boxes[1:]):
            if a.overlaps(b):
                out.append(f"{ta} / {tb}")
    return out


def legend_texts(fig) -> set[str]:
    """Every text of every legend of ``fig`` (axes' and figure's)."""
    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    return {t.get_text() for leg in legends if leg is not None for t in leg.get_texts()}


# ----------------------------------------------------------------------------
# Y limits
# ----------------------------------------------------------------------------
def point_values(ax) -> np.ndarray:
    """Y values of every marker, error-bar end and bar end in ``ax`` (data units): what must not be clipped."""
    vals = []
    for line in ax.get_lines():
        if line.get_visible() and _has_marker(line) and line.get_transform() == ax.transData:
            vals.append(np.asarray(line.get_ydata(), dtype=float))
    for coll in ax.collections:
        if coll.get_visible() and hasattr(coll, "get_segments") and coll.get_transform() == ax.transData:
            for seg in coll.get_segments():
                if len(seg):
                    vals.append(np.asarray(seg, dtype=float)[:, 1])
    for patch in ax.patches:  # bars: their ends
        if (patch.get_visible() and patch.get_gid() != "background" and hasattr(patch, "get_height")
                and patch.get_data_transform() == ax.transData):
            vals.append(np.array([patch.get_y() + patch.get_height()], dtype=float))
    v = np.concatenate(vals) if vals else np.empty(0)
    return v[np.isfinite(v)]


def line_values(ax) -> np.ndarray:
    """Y values of the lines without markers in data coordinates (model curves), finite."""
    vals = [np.asarray(line.get_ydata(), dtype=float) for line in ax.get_lines()
            if line.get_visible() and not _has_marker(line) and line.get_transform() == ax.transData]
    v = np.concatenate(vals) if vals else np.empty(0)
    return v[np.isfinite(v)]


def fit_ylim(ax, *, bottom: float | None = 0.0, cap: float | None = None, rise: float | None = None,
             margin: float = 0.08) -> tuple:
    """Y limits holding every simulated point and CI end (:func:`point_values`), with ``margin`` above.

    Model lines count up to ``cap`` (a line rising to saturation may leave
    the top above it), or with ``rise`` up to ``rise`` times their smallest
    positive value (the zero-load latency of a latency curve); points and
    CIs always count, whatever ``cap``.
    ``bottom`` (default 0; None: the lowest value) is lowered if a point or
    CI end lies under it.  On a log axis the margins are factors.
    """
    pts, lines = point_values(ax), line_values(ax)
    if rise is not None and np.any(lines > 0):
        rcap = rise * float(lines[lines > 0].min())
        cap = rcap if cap is None else min(cap, rcap)
    log = ax.get_yscale() == "log"
    if log:
        pts, lines = pts[pts > 0], lines[lines > 0]
    if bottom is not None and not log:
        lines = lines[lines >= bottom]  # a line below the bottom leaves it; a point never does
    if cap is not None:
        lines = lines[lines <= cap] if np.any(lines <= cap) else np.array([cap])
    vals = np.concatenate([pts, lines])
    if not vals.size:
        return ax.get_ylim()
    top, low = float(vals.max()), float(vals.min())
    if log:
        lo, hi = low / (1 + margin) ** 2, top * (1 + margin) ** 2
    else:
        base = bottom if bottom is not None else low
        span = (top - min(base, low)) or abs(top) or 1.0
        hi = top + margin * span
        if bottom is None:
            lo = low - margin * span
        else:
            lo = bottom if not pts.size or pts.min() >= bottom else float(pts.min()) - margin * span
    ax.set_ylim(lo, hi)
    return lo, hi


def fit_ylim_all(axes, **kw) -> tuple:
    """:func:`fit_ylim` on every visible axes of ``axes``, then their union on all (panels sharing y)."""
    axes = [ax for ax in np.ravel(axes) if ax.get_visible()]
    lims = [fit_ylim(ax, **kw) for ax in axes]
    lo, hi = min(lim[0] for lim in lims), max(lim[1] for lim in lims)
    for ax in axes:
        ax.set_ylim(lo, hi)
    return lo, hi


def clipped_points(ax) -> np.ndarray:
    """Markers and error-bar ends outside ``ax``'s y-limits or on its top or bottom edge (tests use it).

    "On the edge": within half a marker (3 px) of it, where a point is drawn
    cut in half.
    """
    pts = point_values(ax)
    lo, hi = sorted(ax.get_ylim())
    to_px = ax.transData.transform
    bad = []
    for v in pts:
        if ax.get_yscale() == "log" and v <= 0:
            bad.append(v)
            continue
        if v < lo or v > hi:
            bad.append(v)
            continue
        y = to_px([[ax.get_xlim()[0], v]])[0, 1]
        y_lo, y_hi = sorted([to_px([[0, lo]])[0, 1], to_px([[0, hi]])[0, 1]])
        if y - y_lo < 3 or y_hi - y < 3:
            bad.append(v)
    return np.asarray(bad)


# ----------------------------------------------------------------------------
# Saving
# ----------------------------------------------------------------------------
def _no_layout():
    """The rcParams under which a figure's layout engine may be None (:func:`fixed_layout`)."""
    return plt.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False})


def fixed_layout(fig):
    """Lay ``fig`` out once and keep it: its layout engine runs (without rendering), then is switched off, and the
    tight bounding box of what it drew (padded by ``savefig.pad_inches``) is returned, in inches.

    Each ``savefig(bbox_inches="tight")`` of a figure with a layout engine draws it twice (once to lay it out and
    measure it, once to render it); a figure saved in two formats and then shown inline laid itself out three
    times.  A figure without a layout engine saved with the returned box is drawn once per format, and laid out
    no more (inline too).  Save it under ``_no_layout()``: a save puts back the figure's engine when it ends, and
    ``None`` reads the rcParams, where the book's style asks for the constrained layout."""
    fig.draw_without_rendering()
    bbox = fig.get_tightbbox().padded(plt.rcParams["savefig.pad_inches"])  # any canvas: a bare Figure() too
    with _no_layout():
        fig.set_layout_engine(None)
    return bbox


def savefig(
    fig, label: str, *, folder: str | Path = "figures", provenance: dict[str, Any] | None = None, close: bool = True
) -> dict[str, Path]:
    """Save ``fig`` as ``<folder>/<label>.svg`` and ``.png`` atomically, with provenance.

    The figure is laid out once (:func:`fixed_layout`) and keeps that layout: both files, and the notebook's
    inline copy, show the same one (with ``close=False``, what is changed afterwards is not laid out again).

    ``label`` is the figure's cross-reference name (``fig-<chapter>-<what>``).
    The relative ``folder`` resolves against the current directory, which
    the pipeline sets to ``book/<chapter>/``.  With ``close`` (default) the
    figure is closed in pyplot, so a notebook shows it once: as the value
    the cell returns, which carries the cell's caption and label.
    """
    import io

    folder = Path(folder)
    info = {"label": label, "commit": git_commit()}
    nb = os.environ.get("MODELS_NOTEBOOK")
    if nb:
        info["notebook"] = nb
    if provenance:
        info.update(provenance)
    description = json.dumps(info, sort_keys=True, default=str)
    bbox = fixed_layout(fig)
    out = {}
    svg, png = io.BytesIO(), io.BytesIO()
    with _no_layout():
        fig.savefig(svg, format="svg", metadata={"Date": None, "Description": description}, bbox_inches=bbox)
        fig.savefig(png, format="png", metadata={"Description": description, "Software": None}, bbox_inches=bbox)
    out["svg"] = atomic_write_bytes(folder / f"{label}.svg", svg.getvalue())
    out["png"] = atomic_write_bytes(folder / f"{label}.png", png.getvalue())
    if close:
        plt.close(fig)
    return out


# ----------------------------------------------------------------------------
# Curves of CurveRun objects
# ----------------------------------------------------------------------------
def plot_model_sim(ax, x, model, sim=None, sim_ci=None, *, label: str = "", color=None, marker: str = "o"):
    """Model as a line, simulation as open markers with 95% error bars, one colour per curve; returns the line."""
    line = model_line(ax, x, model, color=color, label=f"{label} model" if label else "model")
    if sim is not None:
        sim_errorbar(ax, x, sim, sim_ci, color=line.get_color(), marker=marker,
                     label=f"{label} simulation" if label else "simulation")
    return line


def plot_curve_runs(runs, figure=None, *, ax=None, quantity: str | None = None, saturation_lines: bool = True,
                    legend: bool = True, colors: Sequence | None = None):
    """Draw :class:`~models.core.setups.CurveRun` objects on one axis, one colour per curve.

    Model: a line over its finite values (saturated loads are left out, never
    drawn as a jump to a huge number).  Simulation: open markers with 95%
    error bars at the unsaturated points.  With ``saturation_lines``: a dashed
    vertical line at the model's saturation load and a dotted one at the
    simulated one, explained by grey legend entries.  With a
    :class:`~models.core.setups.Figure`, the axis labels (with units) and
    the title come from it.  The y-limits hold every point and CI
    (:func:`fit_ylim`); with ``legend``, :func:`place_legend`.  Returns the axis.
    """
    if ax is None:
        _, axes = column_figure()
        ax = axes[0, 0]
    colors = list(colors) if colors is not None else COLORS
    any_model_sat = any_sim_sat = False
    for i, run in enumerate(runs):
        q = quantity or run.quantity
        m = run.model
        color = colors[i % len(colors)]
        model_line(ax, m["load"], m[q], color=color, label=f"{run.label} model")
        if run.sim is not None and q in run.sim:
            s = run.sim
            ci = s[f"{q} CI"] if f"{q} CI" in s else None
            sim_errorbar(ax, s["load"], s[q], ci, color=color, label=f"{run.label} simulation")
        if saturation_lines:
            any_model_sat |= saturation_line(ax, run.model_saturation, color=color, kind="model") is not None
            any_sim_sat |= saturation_line(ax, run.sim_saturation, color=color, kind="sim") is not None
    if figure is not None:
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=figure.title)
    ax.set_xlim(left=0)
    fit_ylim(ax, bottom=None if ax.get_yscale() == "log" else 0.0)
    if legend:
        handles, labels = ax.get_legend_handles_labels()
        h2, l2 = saturation_handles(any_model_sat, any_sim_sat)
        place_legend(ax, handles + h2, labels + l2)
    return ax
