"""The paper's experiments: topologies, average-delay curves (model and simulation), errors, claims.

The paper's delay figure compares an 8x8 torus, TM and x-Folded TM under
uniform traffic with 2 and 8 virtual channels per physical channel,
average delay (cycles) against injection rate (flits/node/cycle).  A
:class:`Curve` is one topology (and reading of Definition 1) with the routing
the simulator uses on it; :func:`run_curve` solves the model (with the
topology's exact BFS average distance, and optionally with the paper's
printed Theorem 1) and simulates the same network; :func:`error_table` and
:func:`claims_table` condense the result; :func:`plot_delay` draws it.

Routing in the simulator (the paper used BookSim 2.0 and does not say which):

* torus: ``"dor"`` -- dimension-order routing with Dally & Seitz's dateline
  virtual channels, minimal and deadlock-free from ``V = 2`` (the model is a
  deterministic-routing model).
* TM and x-Folded TM: ``"updown"`` -- minimal adaptive routing on VCs
  ``1..V-1`` with one absorbing up*/down* escape VC (index 0); deadlock-free
  on any connected graph for ``V >= 1``.  It is minimal except for messages
  that fall back to the escape VC; the non-minimal excess is reported as
  ``mean hops / BFS average distance - 1``.  These irregular graphs have no
  dimension order, so no dateline scheme is available.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..core.validate import require
from ..networks.grid2d import GridNetwork, build
from .solve import solve, theorem1

#: Full-profile simulation lengths (messages per load point).
SIM_MESSAGES = 60_000
SIM_WARMUP = 10_000

#: Injection rates of the full profile, flits/node/cycle.
INJECTION = (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


@dataclass(frozen=True)
class Curve:
    """One topology of the delay figure: what to build and how the simulator routes on it."""

    label: str
    kind: str
    reading: str = "printed"
    routing: str = "updown"

    def network(self, k: int) -> GridNetwork:
        return build(self.kind, k, self.reading)


CURVES: dict[str, Curve] = {
    "torus": Curve("torus", "torus", routing="dor"),
    "tm": Curve("TM", "tm"),
    "xf_printed": Curve("x-Folded TM (Def. 1 as printed)", "xfolded", "printed"),
    "xf_completed": Curve("x-Folded TM (completed reading)", "xfolded", "completed"),
}

#: The paper's figure: VC = 2 and VC = 8.
FIGURE_VCS = (2, 8)


def ad_value(net: GridNetwork, source: str = "bfs") -> float:
    """Per-dimension average distance ``AD_k`` (hops) of ``net``: BFS, printed Theorem 1 or ``k/3``."""
    if source == "bfs":
        return net.average_distance_per_dimension()
    return theorem1(net.k, source)


def model_kwargs(net: GridNetwork, *, V: int, M: float, ad: str = "bfs", **readings) -> dict:
    """Keyword arguments of :func:`models.xfolded_tm.solve` for ``net`` (counts for ``channel_rate='links'``)."""
    return dict(ad=ad_value(net, ad), M=M, V=V, k=net.k, n=2, nodes=net.n_nodes, channels=net.n_channels,
                **readings)


def run_curve(
    curve: Curve | str,
    V: int,
    injection: Sequence[float] = INJECTION,
    *,
    k: int = 8,
    M: int = 32,
    simulate: bool = True,
    messages: int = SIM_MESSAGES,
    warmup: int = SIM_WARMUP,
    batches: int = 20,
    seed: int = 1,
    routing: str | None = None,
    stop_after_saturation: bool = True,
    jobs: int = 1,
    cache: bool = True,
    **readings,
):
    """Model and simulation of one curve at every injection rate (flits/node/cycle).

    Returns a :class:`pandas.DataFrame` with one row per rate: ``curve``, ``V``,
    ``injection``, ``lam`` (messages/node/cycle), ``model`` (delay with the BFS
    average distance, cycles), ``model (Thm 1 printed)``, ``model saturated``,
    and with ``simulate``: ``sim``, ``sim CI`` (95% half width), ``sim saturated``,
    ``mean hops``, ``BFS distance``, ``non-minimal excess``.  Rates past the
    simulator's saturation are not simulated when ``stop_after_saturation``
    (``sim = inf``).  ``readings`` go to the model (``vbar=...`` etc.).
    """
    import pandas as pd

    if isinstance(curve, str):
        curve = CURVES[curve]
    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    k = require("k", k, 3, unit="radix", integer=True)
    M = require("M", M, 1, unit="message length, flits", integer=True)
    inj = [require("injection", x, 0, 1, lo_open=True, unit="flits/node/cycle") for x in injection]
    routing = routing or curve.routing
    net = curve.network(k)
    kw = model_kwargs(net, V=V, M=M, **readings)
    kw_thm = dict(kw, ad=theorem1(k, "theorem"))
    rows = []
    for x in inj:
        lam = x / M
        r = solve(lam, **kw)
        rows.append({"curve": curve.label, "key": curve.kind + ("" if curve.kind != "xfolded" else f"_{curve.reading}"),
                     "V": V, "injection": x, "lam": lam, "model": r.latency,
                     "model (Thm 1 printed)": solve(lam, **kw_thm).latency, "model saturated": r.saturated})
    frame = pd.DataFrame(rows)
    if not simulate:
        return frame
    from ..sim.sweep import run_sweep

    topo = net.sim_topology(routing)
    base = dict(topology=topo, routing=routing, vcs=V, message_length=M, messages=messages,
                warmup_messages=warmup, batches=batches, seed=seed)
    sims = []
    stopped = False
    for x in inj:
        if stopped:
            sims.append(None)
            continue
        res = run_sweep([dict(base, rate=x / M)], jobs=jobs, cache=cache, progress=False)[0]
        sims.append(res)
        if res.saturated and stop_after_saturation:
            stopped = True
    ad_full = net.average_distance()
    frame["sim"] = [np.inf if s is None or s.saturated else s.latency for s in sims]
    frame["sim CI"] = [np.nan if s is None or s.saturated else s.latency_ci for s in sims]
    frame["sim saturated"] = [True if s is None else bool(s.saturated) for s in sims]
    frame["mean hops"] = [np.nan if s is None or s.saturated else s.mean_hops for s in sims]
    frame["BFS distance"] = ad_full
    frame["non-minimal excess"] = frame["mean hops"] / ad_full - 1
    frame["routing"] = routing
    return frame


def run_figure(V: int, injection: Sequence[float] = INJECTION, curves: Sequence[str] = tuple(CURVES), **kwargs):
    """:func:`run_curve` for every curve of the figure with ``V`` virtual channels, concatenated."""
    import pandas as pd

    return pd.concat([run_curve(c, V, injection, **kwargs) for c in curves], ignore_index=True)


def error_table(frame, model_column: str = "model"):
    """Model-vs-simulation errors at the points where both are finite.

    Returns ``(points, summary)``; ``summary`` has one row per (V, curve): points
    compared, max and mean |relative error|, model inside the simulation's 95%
    CI, and how many points are within the paper's 5%.
    """
    import pandas as pd

    from ..core.validation import compare, error_summary

    parts = []
    for (V, label), g in frame.groupby(["V", "curve"], sort=False):
        ok = np.isfinite(g["sim"]) & np.isfinite(g[model_column])
        g = g[ok]
        if g.empty:
            continue
        cmp = compare(g["injection"], g[model_column], g["sim"], g["sim CI"], curve=f"VC={V}, {label}",
                      x_name="injection", quantity="delay")
        parts.append(cmp)
    points = pd.concat(parts, ignore_index=True)
    summary = error_summary(points)
    within = points.assign(w=points["rel. error"].abs() <= 0.05).groupby("curve", sort=False)["w"].agg(["sum", "size"])
    summary["within 5%"] = [f"{int(within.loc[c, 'sum'])}/{int(within.loc[c, 'size'])}" for c in summary["curve"]]
    return points, summary


def claims_table(frame, column: str = "sim"):
    """For each V and injection rate: does each x-Folded TM reading have a lower delay than TM and torus?

    Uses ``column`` (``"sim"`` or a model column); a saturated value counts as ``inf``.
    Returns one row per (V, reading): rates compared, rates where it is lower than
    both, whether the claim holds at every rate where any of the three is finite, and
    (simulation) at how many rates the difference exceeds both confidence intervals.
    """
    import pandas as pd

    rows = []
    for V, g in frame.groupby("V", sort=False):
        piv = g.pivot_table(index="injection", columns="key", values=column, aggfunc="first")
        ci = None
        if column == "sim" and "sim CI" in g:
            ci = g.pivot_table(index="injection", columns="key", values="sim CI", aggfunc="first")
            ci = ci.reindex(index=piv.index, columns=piv.columns).fillna(0.0)
        for key in [c for c in piv.columns if c.startswith("xfolded")]:
            sub = piv[[key, "tm", "torus"]].replace(np.nan, np.inf)
            finite = np.isfinite(sub).any(axis=1)
            sub = sub[finite]
            lower = (sub[key] < sub["tm"]) & (sub[key] < sub["torus"])
            row = {"V": V, "reading": key.replace("xfolded_", ""), "source": column,
                   "rates compared": int(len(sub)), "lower than TM and torus": int(lower.sum()),
                   "claim holds": bool(lower.all())}
            if ci is not None:
                c = ci.loc[sub.index]
                with np.errstate(invalid="ignore"):
                    sig = ((sub[key] + c[key] < sub["tm"] - c["tm"]) & (sub[key] + c[key] < sub["torus"] - c["torus"]))
                row["lower beyond the 95% CIs"] = int(sig.sum())
            rows.append(row)
    return pd.DataFrame(rows)


def plot_delay(frame, V: int, *, show_theorem: bool = True, ymax: float | None = None):
    """Average delay vs injection rate for one VC count: model lines, simulation markers with CIs."""
    import matplotlib.pyplot as plt

    from ..core.plotting import plot_model_sim, use_style

    use_style()
    fig, ax = plt.subplots(figsize=(9.5, 4.6))
    g_all = frame[frame["V"] == V]
    markers = dict(torus="o", tm="s", xfolded_printed="^", xfolded_completed="D")
    finite_vals = []
    for key, g in g_all.groupby("key", sort=False):
        label = g["curve"].iloc[0]
        model = g["model"].where(np.isfinite(g["model"]))
        has_sim = "sim" in g
        sim = g["sim"].where(np.isfinite(g["sim"])) if has_sim else None
        line = plot_model_sim(ax, g["injection"], model, sim, g["sim CI"] if has_sim else None, label=label,
                              marker=markers.get(key, "o"))
        finite_vals += list(model.dropna()) + (list(sim.dropna()) if has_sim else [])
        if show_theorem and key.startswith("xfolded_printed"):
            thm = g["model (Thm 1 printed)"].where(np.isfinite(g["model (Thm 1 printed)"]))
            ax.plot(g["injection"], thm, ":", color="0.3", label="x-Folded TM model, AD of Thm 1 as printed")
            finite_vals += list(thm.dropna())
    top = ymax if ymax is not None else (min(max(finite_vals) * 1.05, 6 * min(finite_vals)) if finite_vals else None)
    ax.set_ylim(0, top)
    ax.set(xlabel="injection rate [flits/node/cycle]", ylabel="average delay [cycles]",
           title=f"8x8 networks, uniform traffic, VC = {V}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def draw_topologies(ks=(8, 7), kinds=(("mesh", ""), ("torus", ""), ("tm", ""), ("xfolded", "printed"),
                                      ("xfolded", "completed"), ("xfolded", "completed_tm"))):
    """A grid of drawings (rows: ``ks``; columns: topologies), as the paper's Fig. 1 for even and odd k."""
    import matplotlib.pyplot as plt

    from ..core.plotting import use_style
    from ..networks.grid2d import draw

    use_style()
    fig, axes = plt.subplots(len(ks), len(kinds), figsize=(2.6 * len(kinds), 2.95 * len(ks)))
    axes = np.atleast_2d(axes)
    for r, kk in enumerate(ks):
        for c, (kind, reading) in enumerate(kinds):
            draw(build(kind, kk, reading or "printed"), axes[r, c])
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- topology claims and reading sensitivity
def distance_table(ks: Sequence[int]):
    """Per ``k``: node counts (Definition 1, Proposition 1 fit) and whole-network average distances (hops).

    Columns: exact BFS averages of mesh, torus, TM and the three x-Folded TM
    readings; ``Thm 1 printed`` and ``k/3 reading`` are ``n * AD_k`` (eq. 3) from
    Theorem 1 as printed and from its ``k/3`` reading; diameters of each topology.
    """
    from ..networks.grid2d import properties_table

    t = properties_table(ks)
    t.insert(3, "node fit error", t["nodes (Prop. 1 fit)"] - t["nodes (Def. 1)"])
    t["AD Thm 1 printed"] = [2 * theorem1(int(k), "theorem") for k in t["k"]]
    t["AD k/3 reading"] = [2 * theorem1(int(k), "k/3") for k in t["k"]]
    return t


def topology_claims(ks: Sequence[int]):
    """The paper's topological claims checked for every ``k`` in ``ks`` and every reading of Definition 1.

    One row per (claim, reading): ``holds`` (for every ``k``), ``holds at k = 8``
    (the simulated case, when 8 is in ``ks``) and a short ``evidence``.
    """
    import pandas as pd

    from ..networks.grid2d import READINGS, definition1_node_count, mesh, proposition1_nodes, tm, torus, xfolded_tm

    ks = [require("k", k, 3, unit="radix", integer=True) for k in ks]

    def ev(ok):
        bad = [k for k, o in zip(ks, ok) if not o]
        if not any(ok):
            return f"fails for every k in {ks[0]}..{ks[-1]}"
        return f"holds for {sum(ok)}/{len(ks)} radices" + (f"; fails for k = {', '.join(map(str, bad))}" if bad else "")

    def row(claim, reading, ok, evidence=None):
        return dict(claim=claim, reading=reading, holds=bool(all(ok)),
                    **{"holds at k = 8": bool(ok[ks.index(8)]) if 8 in ks else None},
                    evidence=evidence or ev(ok))

    rows = []
    fit = [abs(proposition1_nodes(k) - definition1_node_count(k)) for k in ks]
    rows.append(row("Prop. 1: N' = 0.8005 k^2 + 0.9786 nodes (within 1 node)", "all", [f < 1.0 for f in fit],
                    f"max |N' - count| = {max(fit):.1f} nodes (k = {ks[int(np.argmax(fit))]}); a fit to k = 3..9"))
    thm_gap = [abs(2 * theorem1(k) - xfolded_tm(k, "printed").average_distance()) for k in ks]
    rows.append(row("Thm 1: n AD_k is the average distance (within 0.05 hops)", "printed", [g < 0.05 for g in thm_gap],
                    f"Thm 1 gives n AD_k < 2 hops for every k >= 4; max gap {max(thm_gap):.2f} hops"))
    for reading in READINGS:
        nets = {k: xfolded_tm(k, reading) for k in ks}
        lemma = [all(int(c) == i + 1 for i, c in enumerate(nets[k].distance_counts(0)[1:k], start=1)) for k in ks]
        rows.append(row("Lemma 1: I(i) = i + 1 for 1 <= i <= k-1", reading, lemma))
        diam = [nets[k].diameter() < min(tm(k).diameter(), torus(k).diameter()) for k in ks]
        rows.append(row("diameter below TM and torus", reading, diam))
        ad = [nets[k].average_distance() < min(mesh(k).average_distance(), torus(k).average_distance(),
                                               tm(k).average_distance()) for k in ks]
        rows.append(row("average distance below mesh, torus and TM", reading, ad))
    return pd.DataFrame(rows)


#: Model variants (readings) compared against the same simulations in :func:`reading_sensitivity`.
VARIANTS = {
    "default (mean Vbar, lambda/Vbar, eq. 6)": {},
    "eq. 11 summed as printed": {"vbar": "sum"},
    "source rate lambda/V": {"source_rate": "vcs"},
    "channel rate from channel count": {"channel_rate": "links"},
    "AD of Thm 1 as printed": {"ad": "theorem"},
    "AD = k/3": {"ad": "k/3"},
}


def reading_sensitivity(frame, *, k: int = 8, M: int = 32, variants: dict | None = None):
    """Max and mean |relative error| of each model variant against the simulations in ``frame``.

    Re-solves the model (cheap) at every simulated, unsaturated point; one row per
    (variant, V, curve).
    """
    import pandas as pd

    variants = VARIANTS if variants is None else variants
    key_to_curve = {("xfolded_" + c.reading) if c.kind == "xfolded" else c.kind: c for c in CURVES.values()}
    rows = []
    for name, opts in variants.items():
        opts = dict(opts)
        ad = opts.pop("ad", "bfs")
        for (V, key), g in frame.groupby(["V", "key"], sort=False):
            g = g[np.isfinite(g["sim"])]
            if g.empty:
                continue
            net = key_to_curve[key].network(k)
            kw = model_kwargs(net, V=int(V), M=M, ad=ad, **opts)
            model = np.array([solve(x / M, **kw).latency for x in g["injection"]])
            err = np.abs(model - g["sim"].to_numpy()) / g["sim"].to_numpy()
            rows.append({"variant": name, "V": int(V), "curve": g["curve"].iloc[0],
                         "points": int(len(g)), "max |rel. error|": float(np.max(err)),
                         "mean |rel. error|": float(np.mean(err)),
                         "within 5%": f"{int(np.sum(err <= 0.05))}/{len(g)}"})
    return pd.DataFrame(rows)
