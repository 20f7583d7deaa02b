"""One figure style for the book (#14): every chapter's figure functions on small synthetic runs.

Each figure is checked at its rendered size: its width is the column's
(:data:`~models.core.plotting.COLUMN_WIDTH` at :data:`~models.core.plotting.DPI`),
no visible text is under 9 pt, no simulated point or CI end lies outside (or
on the edge of) the y-limits, no in-axes legend covers a data point, every
labelled line is in a legend and every kind of saturation line has an entry,
colours come from the Okabe-Ito palette, and no panel holds more than
:data:`~models.core.plotting.MAX_CURVES_PER_PANEL` colours.
"""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from models.core import plotting as P  # noqa: E402
from models.core.experiment import CurveRun, Figure  # noqa: E402
from models.core.results import SimPoint
from models.core.setups import Curve


# ---------------------------------------------------------------- synthetic runs
def fake_run(curve: Curve, sat: float = 0.01, *, zero: float = 40.0, sim_sat: float | None = None, n: int = 24,
             extra=None, quantity: str = "latency", sim: bool = True) -> CurveRun:
    """A run whose model is ``zero / (1 - x/sat)`` up to 0.99 sat, simulated at 4 loads up to 0.95 of ``sim_sat``.

    The simulated latencies rise past the model's (a point far above the
    model at the last load, with a wide CI), so a y-limit fitted to the
    model lines alone would clip them.
    """
    sim_sat = sim_sat or 1.3 * sat
    x = np.linspace(sat / n, 0.99 * sat, n)
    model = pd.DataFrame({"curve": curve.label, "load": x, "fraction": np.nan, quantity: zero / (1 - x / sat),
                          "saturated": False})
    for col, f in (extra or {}).items():
        model[col] = f(x)
    sx = np.array([0.2, 0.5, 0.8, 0.95]) * sim_sat
    sy = zero * np.array([1.05, 1.4, 3.0, 9.0])
    frame = pd.DataFrame({"curve": curve.label, "load": sx, "fraction": sx / sim_sat, quantity: sy,
                          f"{quantity} CI": 0.1 * sy, "saturated": False})
    # the model at the simulated loads (NaN beyond its saturation), as the chapters' runs hold them
    mx = pd.DataFrame({"curve": curve.label, "load": sx, "fraction": sx / sim_sat,
                       quantity: np.where(sx < sat, zero / (1 - np.minimum(sx, 0.999 * sat) / sat), np.inf),
                       "saturated": sx >= sat})
    for col, f in (extra or {}).items():
        mx[col] = f(sx)
    model = pd.concat([model, mx]).sort_values("load", kind="stable").reset_index(drop=True)
    return CurveRun(curve, model, frame if sim else None, sat, sim_sat, params={}, quantity=quantity)


# ---------------------------------------------------------------- checks
PALETTE = {to_hex(c) for c in P.PALETTE}


def _visible_texts(fig):
    for t in fig.findobj(matplotlib.text.Text):
        if t.get_visible() and t.get_text().strip() and t.axes is None or (
                t.get_visible() and t.get_text().strip() and t.axes is not None and t.axes.get_visible()):
            yield t


def _is_grey(col: str) -> bool:
    return len({col[1:3], col[3:5], col[5:7]}) == 1


def _curve_colours(ax) -> set[str]:
    """Distinct colours of the lines and markers drawn in ``ax`` (black and greys left out)."""
    return {to_hex(line.get_color()) for line in ax.get_lines()
            if not _is_grey(to_hex(line.get_color())) and line.get_gid() != "background"}


def check_figure(fig, *, max_curves: int = P.MAX_CURVES_PER_PANEL):
    """Every rule of the book's figure style; returns the failures (empty: the figure passes)."""
    fig.draw_without_rendering()
    bad = []
    w, _ = fig.get_size_inches()
    if not math.isclose(w, P.COLUMN_WIDTH, rel_tol=1e-6):
        bad.append(f"width {w:.2f} in, not the column's {P.COLUMN_WIDTH} in")
    tight = fig.get_tightbbox().width  # what the book shows (bbox_inches="tight") [in]
    if tight > P.COLUMN_WIDTH * 1.01:
        bad.append(f"drawn {tight:.2f} in wide (legend or labels outside the figure), more than the column")
    if fig.dpi != P.DPI:
        bad.append(f"dpi {fig.dpi}, not {P.DPI}")
    small = sorted({(round(t.get_fontsize(), 1), t.get_text()[:30]) for t in _visible_texts(fig)
                    if t.get_fontsize() < P.MIN_FONT - 1e-9})
    if small:
        bad.append(f"text under {P.MIN_FONT} pt: {small[:5]}")
    legend_text = P.legend_texts(fig)
    sat_styles = set()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        over = P.overlapping_ticks(ax)
        if over:
            bad.append(f"{ax.get_title()!r}: tick labels overlap: {over[:3]}")
        clipped = P.clipped_points(ax)
        if clipped.size:
            bad.append(f"{ax.get_title()!r}: {clipped.size} points/CI ends outside or on the edge of "
                       f"{ax.get_ylim()}: {clipped[:4]}")
        if ax.get_legend() is not None and P.legend_covers(ax) > 0:
            leg_box = ax.get_legend().get_window_extent()
            if ax.get_window_extent().overlaps(leg_box):
                bad.append(f"{ax.get_title()!r}: the legend covers {P.legend_covers(ax)} data points")
        for line in ax.get_lines():
            lab = line.get_label()
            if line.get_visible() and lab and not lab.startswith("_") and lab not in legend_text:
                bad.append(f"line {lab!r} is not in any legend")
            if (line.get_gid() or "").startswith("saturation"):
                sat_styles.add(line.get_gid())
        for c in ax.get_lines():
            col = to_hex(c.get_color())
            if not _is_grey(col) and col not in PALETTE:
                bad.append(f"colour {col} is not in the Okabe-Ito palette")
                break
        n = len(_curve_colours(ax))
        if n > max_curves:
            bad.append(f"{ax.get_title()!r}: {n} curves (colours) in one panel, more than {max_curves}")
    if "saturation-model" in sat_styles and not any("saturation load, model" in t for t in legend_text):
        bad.append("model saturation lines drawn but not in the legend")
    if "saturation-sim" in sat_styles and not any("saturation load, simulation" in t for t in legend_text):
        bad.append("simulated saturation lines drawn but not in the legend")
    return bad


def assert_style(fig, **kw):
    bad = check_figure(fig, **kw)
    plt.close(fig)
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------- the helpers themselves
def test_style_palette_width_and_fonts():
    P.use_style()
    assert [to_hex(c) for c in plt.rcParams["axes.prop_cycle"].by_key()["color"]] == [to_hex(c) for c in P.PALETTE]
    assert {"#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000"} == PALETTE
    assert P.COLUMN_WIDTH * P.DPI <= 784  # the book's text column at a 1400 px window [CSS px]
    for key in ("font.size", "legend.fontsize", "xtick.labelsize", "ytick.labelsize", "axes.labelsize"):
        assert plt.rcParams[key] >= P.MIN_FONT >= 9


def test_fit_ylim_holds_every_point_and_ci_but_caps_lines():
    fig, axes = P.column_figure()
    ax = axes[0, 0]
    P.model_line(ax, [0, 1, 2], [1, 10, 1000])
    P.sim_errorbar(ax, [0.5, 1.5], [5, 80], [1, 30])
    P.fit_ylim(ax, cap=50)
    lo, hi = ax.get_ylim()
    assert lo == 0 and 110 < hi < 130  # the CI end at 110 is inside, the line's 1000 is not
    assert P.clipped_points(ax).size == 0
    ax.set_ylim(0, 100)  # the CI end at 110 (bar end and cap) is clipped now
    assert set(P.clipped_points(ax)) == {110.0}
    ax.set_ylim(0, 110.5)  # and on the edge here (within 3 px)
    assert set(P.clipped_points(ax)) == {110.0}
    plt.close(fig)


def test_place_legend_avoids_data_or_goes_outside():
    fig, axes = P.column_figure()
    ax = axes[0, 0]
    x = np.linspace(0, 1, 50)
    P.model_line(ax, x, x, label="rising")
    P.sim_errorbar(ax, [0.05, 0.1], [0.95, 0.9], [0.02, 0.02], label="points in the upper left")
    leg = P.place_legend(ax)
    assert leg.axes is ax and P.legend_covers(ax) == 0
    assert leg._loc not in (2,)  # not "upper left", where the points are
    ax.get_legend().remove()
    leg = ax.legend(loc="upper left")  # a legend over the points is caught
    assert P.legend_covers(ax) > 0
    leg.remove()
    # data everywhere: the legend goes below the figure
    rng = np.random.default_rng(1)
    ax.plot(rng.random(4000), rng.random(4000), ".", ms=1, label="cloud")
    leg = P.place_legend(ax)
    assert leg in fig.legends
    plt.close(fig)


def test_split_panels_and_grid():
    assert P.split_panels(range(10), 4) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert [len(p) for p in P.split_panels(range(10), 5)] == [5, 5]
    assert P.split_panels([], 3) == []
    assert P.panel_grid(3) == (2, 2) and P.panel_grid(1) == (1, 1) and P.panel_grid(4, 3) == (2, 3)
    with pytest.raises(ValueError, match="per_panel"):
        P.split_panels([1], 0)
    with pytest.raises(ValueError, match="kind"):
        P.saturation_line(plt.gca(), 1.0, kind="neither")
    plt.close("all")


def test_check_figure_catches_the_old_style():
    """The checks fail on a figure drawn the old way (wide, 7 pt legend over the points, clipped CI, 10 curves)."""
    fig, ax = plt.subplots(figsize=(9.5, 4.6))
    for i in range(10):
        ax.plot([0, 1], [i, i + 1], color=plt.cm.tab20(i), label=f"curve {i}")
    ax.errorbar([0.1], [9.5], yerr=[3], fmt="o", label="sim")
    ax.axvline(0.5, ls="--")
    ax.set_gid(None)
    ax.lines[-1].set_gid("saturation-model")
    ax.set_ylim(0, 11)
    ax.set_xticks(np.linspace(0, 1, 60))
    ax.legend(fontsize=7, loc="upper left")
    bad = " | ".join(check_figure(fig))
    plt.close(fig)
    for what in ("width", "tick labels overlap", "text under", "outside or on the edge", "covers", "palette", "curves (colours)",
                 "model saturation lines"):
        assert what in bad, what


# ---------------------------------------------------------------- every chapter's figures
def test_min_mva_figure():
    from models.min_mva.plots import plot_figure

    runs = []
    for i, label in enumerate(["m=2, S=2", "m=2, S=4", "m=4, S=2"]):
        c = Curve(label, model={}, loads=(1, 2, 4, 8, 16, 32))
        nc = np.array([1, 2, 4, 8, 16, 32], dtype=float)
        r = 10 + (i + 1) * nc
        x = nc / r
        model = pd.DataFrame({"curve": label, "load": nc, "fraction": np.nan, "R": r, "X": x, "saturated": False})
        sim = pd.DataFrame({"curve": label, "load": nc, "fraction": np.nan, "R": 1.05 * r, "R CI": 0.1 * r,
                            "X": 0.97 * x, "X CI": 0.05 * x, "saturated": False})
        runs.append(CurveRun(c, model, sim, math.nan, math.nan, params={}, quantity="R"))
    assert_style(plot_figure(runs, title="Fig. 2"))


def test_torus_dor_figures():
    from models.torus_dor.experiments import figure2, switch_variants
    from models.torus_dor.plots import plot_fig2, plot_occupancy, plot_panels, plot_runs, plot_switches

    runs = []
    for L, sat in ((3, 0.002), (5, 0.003)):
        for M in (32, 64, 100):
            c = Curve(f"8x8, L={L}, M={M}", model=dict(radices=(8, 8), L=L, M=M), setup="unidirectional")
            runs.append(fake_run(c, sat * 32 / M, extra={"latency printed": lambda x, s=sat * 32 / M: 42 / (1 - x / (0.8 * s)),
                                                          "latency 2003": lambda x, s=sat * 32 / M: 38 / (1 - x / (0.9 * s))}))
    assert_style(plot_panels(runs, [3, 5], key=lambda c: c.model["L"], title=lambda L: f"L = {L}"))
    assert_style(plot_runs(runs[:3], with_2003=True, saturation_lines=True))
    assert_style(plot_fig2(runs[:2]))
    curve = figure2((8, 8), 5, 32).curves[0]
    pts = pd.DataFrame({"rate": [0.002, 0.004, 0.006], "sim latency": [60.0, 90.0, 400.0], "sim CI": [2.0, 5.0, 90.0]})
    fig = plot_switches(curve, switch_variants(curve.model["readings"]), upto=0.0065, sim_points=pts, points=12)
    assert len([a for a in fig.axes if a.get_visible()]) >= 2  # many readings: split into panels
    assert_style(fig)
    occ = pd.DataFrame({"rate": [0.1] * 4 + [0.2] * 4, "busy VCs": ["0", "1", "2", "multiplexing"] * 2,
                        "model": [0.6, 0.3, 0.1, 1.1, 0.4, 0.4, 0.2, 1.3], "sim": [0.55, 0.35, 0.1, 1.1, 0.35, 0.45,
                                                                              0.2, 1.35]})
    assert_style(plot_occupancy(occ, [0.1, 0.2], [0.5, 0.9]))


def test_torus_ipp_figures():
    from models.torus_ipp.experiments import curves, with_traffic
    from models.torus_ipp.plots import plot_burstiness_scan, plot_figure, plot_idc

    runs = []
    for c in curves((2,), traffics=("ipp",)):
        runs.append(fake_run(c, 0.007))
        runs.append(fake_run(with_traffic(c, "poisson"), 0.009, sim=False))
    assert_style(plot_figure(runs))
    assert_style(plot_idc(mu1=0.005, t_max=50.0))
    x = np.linspace(0.001, 0.01, 12)
    scan = pd.concat([pd.DataFrame({"scale": sc, "mean rate": x, "model latency": np.where(
        x < 0.011 - sc * 0.002, 40 / (1 - x / (0.011 - sc * 0.002)), np.inf)}) for sc in (0, 1, 2)])
    sims = {sc: pd.DataFrame({"mean rate": x[::4], "sim latency": 45 / (1 - x[::4] / (0.012 - sc * 0.002)),
                              "sim latency CI": 5.0, "sim saturated": False}) for sc in (0, 1)}
    assert_style(plot_burstiness_scan(scan, sims, title="scan"))


def test_torus_nbc_figures():
    from models.torus_nbc.plots import plot_comparison, plot_fig1

    runs = []
    for k, sat in ((8, 0.018), (16, 0.008)):
        for M in (32, 64):
            for setup in ("paper", "model"):
                c = Curve(f"{k}x{k}, M={M}", model=dict(k=k, M=M), setup=setup)
                runs.append(fake_run(c, sat * 32 / M, sim_sat=(0.75 if setup == "paper" else 1.4) * sat * 32 / M))
    assert_style(plot_fig1(runs))
    rows = []
    for curve in ("8x8, M=32", "16x16, M=32"):
        for routing, f in (("duato_nbc", 1.0), ("duato", 1.1), ("dor", 1.3)):
            for x in (0.002, 0.006, 0.01):
                rows.append(dict(curve=curve, setup="paper", routing=routing, rate=x, latency=f * 40 / (1 - x / 0.012),
                                 CI=2.0))
    sat = pd.DataFrame([dict(curve=c, setup="paper", routing=r, saturation=0.011) for c in ("8x8, M=32", "16x16, M=32")
                        for r in ("duato_nbc", "duato", "dor")])
    assert_style(plot_comparison(pd.DataFrame(rows), sat))


def _xfolded_runs():
    runs = {}
    for i, (key, name) in enumerate((("torus", "torus"), ("tm", "TM"), ("xfolded_printed", "x-Folded TM (Def. 1 as "
                                     "printed)"), ("xfolded_completed", "x-Folded TM (completed reading)"))):
        for setup in ("ours", "model", "booksim"):
            for V in (2, 8):
                for M in (8, 32):
                    c = Curve(f"{name}, V={V}, M={M} [{setup}]", model=dict(V=V, M=M), sim=dict(topology=key),
                              setup=setup, loads=(0.02, 0.1, 0.2, 0.3))
                    extra = {"latency (Thm 1 printed)": lambda x: 30 + 40 * x}
                    r = fake_run(c, 0.3, zero=35, extra=extra, n=8)
                    sx = np.array(c.loads)
                    sim = pd.DataFrame({"curve": c.label, "load": sx, "fraction": sx / 0.35,
                                        "latency": (1 + 0.5 * i) * 36 / (1 - sx / 0.36), "latency CI": 3.0 + 10 * i,
                                        "saturated": False})  # each panel its own top: shared y must hold all
                    model = pd.DataFrame({"curve": c.label, "load": sx, "fraction": sx / 0.35,
                                          "latency": np.where(sx < 0.25, 35 / (1 - np.minimum(sx, 0.25) / 0.3), np.inf),
                                          "latency (Thm 1 printed)": 30 + 40 * sx, "saturated": sx >= 0.25})
                    runs[(key, setup, V, M)] = CurveRun(c, model, sim, r.model_saturation, 0.35, params={})
    return runs


def test_xfolded_tm_figures():
    from models.xfolded_tm.plots import plot_delay, plot_model_curves, plot_validation

    runs = _xfolded_runs()
    delay = [r for (key, setup, V, M), r in runs.items() if V == 2 and M == 32]
    fig = plot_delay(delay, Figure("fig-x-delay", "VC = 2", (delay[0].curve,)))
    assert sum(a.get_visible() for a in fig.axes) == 4  # one panel per network, not 10 curves in one
    assert_style(fig)
    assert_style(plot_validation(list(runs.values())))
    panels = []
    for V in (2, 8):
        model_runs = [fake_run(Curve(name, model={}), sat, sim=False)
                      for name, sat in (("torus", 0.3), ("TM", 0.28), ("x-Folded TM", 0.34),
                                        ("x-Folded TM, AD of Thm 1 as printed", 0.4))]
        f = Figure(f"fig-x-model-{V}", f"VC = {V}", tuple(r.curve for r in model_runs))
        panels.append((f, model_runs))
    assert_style(plot_model_curves(panels))


def test_xfolded_tm_drawings():
    from models.xfolded_tm.plots import draw_topologies

    fig = draw_topologies(ks=(4, 3))
    fig.draw_without_rendering()
    assert fig.get_size_inches()[0] == P.COLUMN_WIDTH
    small = [t.get_text() for t in _visible_texts(fig) if t.get_fontsize() < P.MIN_FONT]
    plt.close(fig)
    assert not small, small[:5]


def test_findings_one_network_figure():
    from models.findings import one_network as one

    runs = []
    for routing in ("dor", "duato", "duato_nbc"):
        for name in ("torus_dor", "torus_nbc"):
            for setup in ("own", "paper"):
                c = Curve(f"{name} model", model=dict(name=name), sim=dict(routing=routing), setup=setup)
                runs.append(fake_run(c, 0.01 if name == "torus_dor" else 0.012))
    fig = one.plot(runs, one.Network(k=8, M=32, V=4))
    spare = [ax for ax in fig.axes if ax.get_visible() and not ax.axison]
    assert len(spare) == 1 and spare[0].get_legend() is not None and not fig.legends  # the legend fills the 4th cell
    assert_style(fig)


# ---------------------------------------------------------------- model against simulation (issue #28, item 4)
def fake_comparison(*, bidirectional: bool = False, sim: bool = True, M: int = 32):
    """A :class:`~models.core.compare.Comparison` of the shared loop on a synthetic chapter: model
    ``40 / (1 - x / 0.010)``, simulation ``44 / (1 - x / 0.013)`` with 3% CIs, saturated from 0.013 on, its
    saturation found by the package's bisection; loads up to 1.1 of the simulated saturation, so one is
    saturated.  ``M`` other than 32: the saturation loads scaled by ``32 / M``, as a message length would."""
    from types import SimpleNamespace

    from models.core import compare as C
    from models.core.saturation import find_saturation

    f = 32 / M  # the saturation loads scale as 1/M, as a message's length would move them
    sm, ss, z = 0.010 * f, 0.013 * f, 40.0

    def model(loads):
        x = np.asarray(loads, dtype=float)
        return SimpleNamespace(latency=np.where(x < sm, z / (1 - np.minimum(x, 0.999 * sm) / sm), np.inf),
                               saturated=x >= sm)

    def simulate(curve, loads, settings):
        return [SimPoint(1.1 * z / (1 - x / ss), 0.03 * 1.1 * z / (1 - x / ss), False)
                if x < ss else SimPoint(math.inf, math.inf, True) for x in loads]

    hooks = SimpleNamespace(simulate_curve=simulate, sim_saturation=lambda c, s, settings: find_saturation(
        lambda x: x >= ss, 0.0, 0.05 * f, rtol=0, max_steps=9))
    torus = "bidirectional" if bidirectional else "unidirectional"
    subject = C.Subject(chapter="toy", network=f"12\u00d712 {torus} torus, dimension-order routing, L = 3 VCs, "
                                               f"M = {M} flits", load="lam_g", load_label=r"$\lambda_g$",
                        load_unit="messages/node/cycle")
    return C.compare(Curve("toy", model={"M": M}), subject, C.RunOptions(points=8, upto=1.1, simulate=bool(sim)),
                     model=model, model_saturation=lambda: sm, experiments=lambda: hooks, params={"M": M})


def _marker_lines(ax):
    return [line for line in ax.get_lines() if line.get_visible() and P._has_marker(line)]


def check_paper_figure(fig, svg: str, comparison, titled: bool = True) -> list:
    """The paper style's rules on a drawn figure and its SVG; returns the failures (empty: it passes).

    One column (3.3-3.5 in wide, nothing drawn outside it), every text 8-9 pt at that printed size (in the
    figure and in the SVG, whose user unit is the point), no simulated point or CI end clipped (y as the
    book's check, x inside the limits), saturated loads drawn as marked points, the network's torus named
    in the title (unless not ``titled``), y from 0, tick labels apart, a legend covering no data, SVG text as
    ``<text>`` (no glyphs drawn as paths).  ``comparison``: one, or the list drawn on one axis.
    """
    import re

    fig.draw_without_rendering()
    bad = []
    w, h = fig.get_size_inches()
    if not 3.3 <= w <= 3.5:
        bad.append(f"width {w:.2f} in, not one column (3.3-3.5 in)")
    m = re.search(r'<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    if not m or not 3.3 <= float(m.group(1)) / 72 <= 3.5:
        bad.append(f"SVG width {m and m.group(1)} pt, not one column")
    tight = fig.get_tightbbox()
    if tight.x0 < -0.01 or tight.y0 < -0.01 or tight.x1 > w + 0.01 or tight.y1 > h + 0.01:
        bad.append(f"drawn outside the figure: {tight} in a {w:.2f} x {h:.2f} in figure")
    sizes = sorted({round(t.get_fontsize(), 1) for t in _visible_texts(fig)})
    if not sizes or sizes[0] < 8 or sizes[-1] > 9:
        bad.append(f"text sizes {sizes} pt, not 8-9 pt")
    svg_sizes = sorted({float(s) for s in re.findall(r"font-size: ([\d.]+)px", svg)})
    # a mathtext subscript (the g of lambda_g) is set at 0.7 of its text's size, as TeX sets a script
    scripts = {round(0.7 * s, 2) for s in (8, 9)}
    if not svg_sizes or max(svg_sizes) > 9 or any(s < 8 and round(s, 2) not in scripts for s in svg_sizes):
        bad.append(f"SVG text sizes {svg_sizes}, not 8-9 pt")
    if "<text" not in svg or re.search(r'<path id="DejaVu', svg):
        bad.append("SVG text drawn as paths, not kept as <text>")
    ax = [a for a in fig.axes if a.get_visible()][0]
    if P.clipped_points(ax).size:
        bad.append(f"{P.clipped_points(ax).size} points or CI ends clipped in y")
    x0, x1 = ax.get_xlim()
    for line in _marker_lines(ax):
        xs = np.asarray(line.get_xdata(), dtype=float)
        if np.any(xs < x0) or np.any(xs > x1):
            bad.append(f"markers outside the x limits {x0, x1}: {xs}")
    if ax.get_ylim()[0] != 0:
        bad.append(f"y starts at {ax.get_ylim()[0]}, not 0")
    if P.overlapping_ticks(ax):
        bad.append(f"tick labels overlap: {P.overlapping_ticks(ax)}")
    if ax.get_legend() is not None and P.legend_covers(ax) > 0:
        bad.append("the legend covers data")
    title = ax.get_title() + " ".join(P.legend_texts(fig))
    if titled and "unidirectional" not in title and "bidirectional" not in title:
        bad.append(f"neither uni- nor bidirectional named in {ax.get_title()!r}")
    comparisons = list(comparison) if isinstance(comparison, (list, tuple)) else [comparison]
    sims = [c.sim for c in comparisons if c.sim is not None]
    if sims:
        saturated = np.concatenate([s.loc[s["saturated"], "load"].to_numpy(dtype=float) for s in sims])
        marked = [line for line in ax.get_lines() if line.get_gid() == "sim-saturated"]
        xs = np.concatenate([line.get_xdata() for line in marked]) if marked else np.empty(0)
        if saturated.size and not np.array_equal(np.sort(xs), np.sort(saturated)):
            bad.append(f"saturated loads {saturated} not marked (marked: {xs})")
        if saturated.size and "simulation saturated" not in P.legend_texts(fig):
            bad.append("the saturated marker is not in the legend")
    return bad


def _svg(comparison, style, tmp_path) -> str:
    path = comparison.save(tmp_path / f"{style}.svg", style=style)
    return path.read_text()


@pytest.mark.parametrize("bidirectional", [False, True])
def test_comparison_paper_figure(bidirectional, tmp_path):
    c = fake_comparison(bidirectional=bidirectional)
    assert c.sim["saturated"].any() and not c.sim["saturated"].all()  # a saturated load to mark
    svg = _svg(c, "paper", tmp_path)
    with plt.rc_context(P.PAPER_STYLE):
        fig = c.plot(style="paper")
        bad = check_paper_figure(fig, svg, c)
    ax = fig.axes[0]
    labels = (ax.get_xlabel(), ax.get_ylabel())
    texts = P.legend_texts(fig)
    plt.close(fig)
    assert not bad, "\n".join(bad)
    assert labels == (r"$\lambda_g$ [messages/node/cycle]", "mean message latency [cycles]")
    assert {"model", "simulation, 95% CI", "simulation saturated", "saturation load, model: 0.01"} <= texts
    assert any(t.startswith("saturation load, simulation: 0.013") for t in texts)
    assert 'width="244.8pt"' in svg  # 3.4 in


def test_check_paper_figure_catches_the_book_style(tmp_path):
    """The book's figure is not a paper's: too wide, text drawn as paths."""
    c = fake_comparison()
    svg = _svg(c, "book", tmp_path)
    fig = c.plot(style="book")
    bad = " | ".join(check_paper_figure(fig, svg, c))
    plt.close(fig)
    for what in ("not one column", "SVG text drawn as paths", "text sizes"):
        assert what in bad, what


def test_comparison_book_figure_passes_the_books_rules():
    for sim in (True, False):
        assert_style(fake_comparison(sim=sim).plot(style="book"))


def test_comparison_model_only_paper_figure(tmp_path):
    c = fake_comparison(sim=False)
    svg = _svg(c, "paper", tmp_path)
    fig = c.plot(style="paper")
    bad = check_paper_figure(fig, svg, c)
    plt.close(fig)
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------- figures a journal accepts (issue #38, item 6)
def _pdf_fonts(path) -> list[tuple[str, str, str]]:
    """``(name, subtype, descendant subtype)`` of every font the PDF's pages use (pypdf)."""
    from pypdf import PdfReader

    out = []
    for page in PdfReader(str(path)).pages:
        fonts = page["/Resources"].get("/Font", {})
        for font in fonts.values():
            font = font.get_object()
            kids = font.get("/DescendantFonts")
            kid = kids[0].get_object()["/Subtype"] if kids else ""
            out.append((str(font.get("/BaseFont")), str(font["/Subtype"]), str(kid)))
    return out


@pytest.mark.parametrize("font", ["sans", "serif"])
def test_a_paper_pdf_embeds_truetype_fonts_never_type3(font, tmp_path):
    """Journals' PDF checkers reject Type 3 fonts: the PDF embeds TrueType (Type 42: a Type0 font over a
    CIDFontType2, or TrueType), its text and mathematics alike, in either face."""
    c = fake_comparison()
    path = c.save(tmp_path / "f.pdf", style="paper", font=font, title=False)
    fonts = _pdf_fonts(path)
    assert fonts and all(sub != "/Type3" for _, sub, _ in fonts), fonts
    assert all(sub == "/TrueType" or kid == "/CIDFontType2" for _, sub, kid in fonts), fonts
    assert b"/Type3" not in path.read_bytes()
    names = " ".join(name for name, _, _ in fonts)
    assert ("STIXGeneral" in names) == (font == "serif") and ("DejaVuSans" in names) == (font == "sans")
    assert b"/CreationDate" not in path.read_bytes()  # reproducible


def test_postscript_embeds_truetype_fonts_too(tmp_path):
    """Every style sets ``ps.fonttype`` 42 as well: an EPS saved from a comparison's axes has no Type 3 font."""
    c = fake_comparison()
    with plt.rc_context(P.PAPER_STYLE):
        fig = c.plot(style="paper")
        fig.savefig(tmp_path / "f.eps")
    plt.close(fig)
    text = (tmp_path / "f.eps").read_bytes()
    assert b"/FontType 42" in text and b"/FontType 3 " not in text
    assert P.STYLE["pdf.fonttype"] == P.STYLE["ps.fonttype"] == P.PAPER_STYLE["pdf.fonttype"] == 42


def test_two_configurations_on_one_axis_have_their_own_colours_and_markers_and_one_legend(tmp_path):
    """``save_comparisons([a, b])``, and ``b.plot(ax=...)`` on the axes of ``a.plot()``: two colours, two
    markers, one legend naming what differs (``M = 8 flits``), the shared part as the title."""
    from models.core import compare as C

    a, b = fake_comparison(M=8), fake_comparison(M=32)
    svg = C.save_comparisons([a, b], tmp_path / "two.svg", "paper").read_text()
    fig = a.plot(style="paper")
    ax = fig.axes[0]
    again = b.plot(style="paper", ax=ax)
    assert again is fig
    with plt.rc_context(P.PAPER_STYLE):
        bad = check_paper_figure(fig, svg, [a, b])
    legends = [x for x in [ax.get_legend(), *fig.legends] if x is not None]
    texts = P.legend_texts(fig)
    models = [line for line in ax.get_lines() if not P._has_marker(line) and line.get_gid() is None]
    sims = _marker_lines(ax)
    title = ax.get_title().replace("\n", " ")
    plt.close(fig)
    assert not bad, "\n".join(bad)
    assert len(legends) == 1  # one legend, each entry once
    assert {"M = 8 flits", "M = 32 flits", "model (lines)", "simulation (markers), 95% CI",
            "saturation load, model", "saturation load, simulation", "simulation saturated"} == texts
    assert len({to_hex(line.get_color()) for line in models}) == 2
    sim_markers = {(line.get_marker(), to_hex(line.get_color())) for line in sims
                   if line.get_gid() != "sim-saturated" and line.get_marker() not in ("_", "|")}  # not the CI caps
    assert len({m for m, _ in sim_markers}) == 2 and len({c for _, c in sim_markers}) == 2
    assert "M =" not in title and "unidirectional torus" in title
    assert "M = 8 flits" in svg and "M = 32 flits" in svg
    book = C.plot_comparisons([a, fake_comparison(M=32, bidirectional=True)], "book")
    assert_style(book)  # the book's rules too; what differs may be several parts (the torus and M)
    assert {"12\u00d712 unidirectional torus, M = 8 flits", "12\u00d712 bidirectional torus, M = 32 flits"} <= \
        P.legend_texts(book)
    plt.close(book)


def test_a_paper_figure_with_a_serif_face_and_no_title(tmp_path):
    c = fake_comparison()
    svg = c.save(tmp_path / "s.svg", style="paper", font="serif", title=False).read_text()
    with plt.rc_context({**P.PAPER_STYLE, **P.font_style("serif")}):
        fig = c.plot(style="paper", font="serif", title=False)
        bad = check_paper_figure(fig, svg, c, titled=False)
    title = fig.axes[0].get_title()
    plt.close(fig)
    assert not bad, "\n".join(bad)
    assert title == "" and "dimension-order routing" not in svg  # no title anywhere
    assert "STIXGeneral" in svg and "DejaVu Sans" not in svg
    from models.core import compare as C

    with pytest.raises(ValueError, match="`font`"):
        c.save(tmp_path / "x.svg", font="comic")
    assert tuple(P.FONT_STYLES) == C.FONTS  # the names --font offers, written once (core.setups)
