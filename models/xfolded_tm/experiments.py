"""The paper's experiments: the figures as data, the simulator translation, the runs and the tables.

The paper's delay figure compares an 8x8 torus, TM and x-Folded TM under
uniform traffic with 2 and 8 virtual channels per physical channel, average
delay (cycles) against injection rate (flits/node/cycle).  Here it is one
:class:`~models.core.experiment.Figure` per VC count (:func:`delay_figure`,
:data:`FIGURES`), one :class:`~models.core.experiment.Curve` per network
(:data:`TOPOLOGIES`), with absolute loads in the figure's unit,
flits/node/cycle (the model's ``lam`` is ``injection / M``).
:func:`run_delay` solves the model (with the network's exact BFS average
distance, and with the paper's printed Theorem 1) and simulates the same
network through :func:`models.sim.sweep.run_sweep`; :func:`delay_frame`,
:func:`error_tables`, :func:`claims_table` and :func:`reading_sensitivity`
condense the runs.  The model-only curves of the model page are
:func:`model_curves_figure` / :func:`run_model_curves` /
:func:`saturation_table`.  The topology tables are :func:`distance_table`
and :func:`topology_claims`.  Matplotlib is in :mod:`models.xfolded_tm.plots`.

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

The routing is each curve's simulator set-up (``Curve.setup``).
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.experiment import Curve, CurveRun, Figure, run_curve, run_figure
from ..core.experiment import error_table as core_error_table
from ..core.validate import require, require_choice
from ..core.validation import compare
from ..networks.grid2d import (READINGS, GridNetwork, build, definition1_node_count, mesh, properties_table,
                               proposition1_nodes, tm, torus, xfolded_tm)
from ..sim.sweep import run_sweep
from .solve import saturation_load, solve, theorem1

#: Full-profile simulation lengths (messages per load point).
SIM_MESSAGES = 60_000
SIM_WARMUP = 10_000

#: Injection rates of the full profile, flits/node/cycle.
INJECTION = (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)

#: The networks of the delay figure, by key: legend label, topology (:func:`models.networks.grid2d.build`),
#: reading of Definition 1 and the simulator's routing.
TOPOLOGIES: dict[str, dict] = {
    "torus": dict(label="torus", kind="torus", reading="printed", routing="dor"),
    "tm": dict(label="TM", kind="tm", reading="printed", routing="updown"),
    "xfolded_printed": dict(label="x-Folded TM (Def. 1 as printed)", kind="xfolded", reading="printed",
                            routing="updown"),
    "xfolded_completed": dict(label="x-Folded TM (completed reading)", kind="xfolded", reading="completed",
                              routing="updown"),
}

#: The paper's figure: VC = 2 and VC = 8.
FIGURE_VCS = (2, 8)

#: Label of the model curve with the average distance of Theorem 1 as printed (on the printed x-Folded TM).
THEOREM_LABEL = "x-Folded TM, AD of Thm 1 as printed"


@functools.lru_cache(maxsize=None)
def network(key: str, k: int = 8) -> GridNetwork:
    """The ``k x k`` network of :data:`TOPOLOGIES` ``[key]`` (built once per process)."""
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    return build(t["kind"], k, t["reading"])


def ad_value(net: GridNetwork, source: str = "bfs") -> float:
    """Per-dimension average distance ``AD_k`` (hops) of ``net``: BFS, printed Theorem 1 or ``k/3``."""
    if source == "bfs":
        return net.average_distance_per_dimension()
    return theorem1(net.k, source)


def model_kwargs(net: GridNetwork, *, V: int, M: float, ad: str = "bfs", **readings) -> dict:
    """Keyword arguments of :func:`models.xfolded_tm.solve` for ``net`` (counts for ``channel_rate='links'``)."""
    return dict(ad=ad_value(net, ad), M=M, V=V, k=net.k, n=2, nodes=net.n_nodes, channels=net.n_channels,
                **readings)


# ----------------------------------------------------------------------------
# The delay figure (model against simulation)
# ----------------------------------------------------------------------------
def delay_curve(key: str, V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                **readings) -> Curve:
    """One network of the delay figure with ``V`` virtual channels, at the injection rates (flits/node/cycle).

    ``Curve.model`` holds the keyword arguments of :func:`~models.xfolded_tm.solve`
    (the network's BFS average distance; ``readings`` such as ``vbar="sum"``);
    ``Curve.sim`` the network (``topology`` key, ``k``) and the ``routing``,
    which is also the set-up's name.
    """
    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    k = require("k", k, 3, unit="radix", integer=True)
    M = require("M", M, 1, unit="message length, flits", integer=True)
    inj = tuple(require("injection", x, 0, 1, lo_open=True, unit="flits/node/cycle") for x in injection)
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    return Curve(label=t["label"], model=model_kwargs(network(key, k), V=V, M=M, **readings),
                 sim=dict(topology=key, k=k, routing=t["routing"]), setup=t["routing"], loads=inj)


def delay_figure(V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                 keys: Sequence[str] = tuple(TOPOLOGIES), **readings) -> Figure:
    """The delay figure for ``V`` virtual channels: one curve per network (``keys`` of :data:`TOPOLOGIES`)."""
    curves = tuple(delay_curve(key, V, injection, k=k, M=M, **readings) for key in keys)
    return Figure(label=f"fig-xfolded_tm-delay-vc{V}", title=f"{k}x{k} networks, uniform traffic, VC = {V}",
                  curves=curves, x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay",
                  y_unit="cycles")


#: The paper's delay figure at the paper's scale, by label.
FIGURES: dict[str, Figure] = {f.label: f for f in (delay_figure(V) for V in FIGURE_VCS)}


def model_point(curve: Curve, injection: float) -> dict:
    """The model of ``curve`` at one injection rate (flits/node/cycle): delay with the BFS and Thm-1 distances."""
    kw = curve.model
    lam = injection / kw["M"]
    r = solve(lam, **kw)
    thm = solve(lam, **dict(kw, ad=theorem1(kw["k"], "theorem")))
    return {"latency": r.latency, "saturated": r.saturated, "lam": lam, "latency (Thm 1 printed)": thm.latency}


def sim_config(curve: Curve, *, messages: int = SIM_MESSAGES, warmup_messages: int = SIM_WARMUP,
               batches: int = 20, seed: int = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` (without the ``rate``).

    The model's ``V`` and ``M`` become ``vcs`` and ``message_length``; the
    network is :meth:`~models.networks.grid2d.GridNetwork.sim_topology` of the
    curve's routing.  The rate of an injection ``x`` is ``x / M`` messages/node/cycle.
    """
    routing = curve.sim["routing"]
    net = network(curve.sim["topology"], curve.sim["k"])
    return dict(topology=net.sim_topology(routing), routing=routing, vcs=curve.model["V"],
                message_length=curve.model["M"], messages=messages, warmup_messages=warmup_messages,
                batches=batches, seed=seed)


def simulator(*, messages: int = SIM_MESSAGES, warmup_messages: int = SIM_WARMUP, batches: int = 20, seed: int = 1,
              stop_after_saturation: bool = True, jobs: int = 1, cache: bool = True):
    """The ``sim(curve, loads)`` function of :func:`models.core.experiment.run_curve` (cached simulations).

    Runs the loads in order; with ``stop_after_saturation`` the loads after the
    first saturated one are not simulated (reported saturated, delay ``inf``).
    Each row: ``latency`` and its ``latency CI`` (95% half width, cycles),
    ``saturated``, ``mean hops``.
    """
    def sim(curve: Curve, loads: list) -> list:
        base = sim_config(curve, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
        M = curve.model["M"]
        rows, stopped = [], False
        for x in loads:
            if stopped:
                rows.append({"latency": math.inf, "latency CI": math.nan, "saturated": True, "mean hops": math.nan})
                continue
            res = run_sweep([dict(base, rate=x / M)], jobs=jobs, cache=cache, progress=False)[0]
            sat = bool(res.saturated)
            rows.append({"latency": math.inf if sat else res.latency, "latency CI": math.nan if sat else res.latency_ci,
                         "saturated": sat, "mean hops": math.nan if sat else res.mean_hops})
            stopped = sat and stop_after_saturation
        return rows

    return sim


def run_delay(figure: Figure, *, simulate: bool = True, messages: int = SIM_MESSAGES,
              warmup_messages: int = SIM_WARMUP, batches: int = 20, seed: int = 1,
              stop_after_saturation: bool = True, jobs: int = 1, cache: bool = True) -> tuple:
    """Model (and, with ``simulate``, simulation) of every curve of a delay figure: one CurveRun per curve."""
    sim = simulator(messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed,
                    stop_after_saturation=stop_after_saturation, jobs=jobs, cache=cache) if simulate else None
    return run_figure(figure, model_point, sim)


def curve_key(curve: Curve) -> str:
    """The network's key in :data:`TOPOLOGIES` (``"torus"``, ``"tm"``, ``"xfolded_<reading>"``)."""
    return curve.sim["topology"]


def delay_frame(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per (curve, injection rate), in the curves' order, with the chapter's columns.

    ``curve``, ``key``, ``V``, ``injection`` (flits/node/cycle), ``lam``
    (messages/node/cycle), ``model`` (delay with the BFS average distance,
    cycles), ``model (Thm 1 printed)``, ``model saturated``, and for simulated
    runs: ``sim``, ``sim CI`` (95% half width), ``sim saturated``, ``mean hops``,
    ``BFS distance``, ``non-minimal excess``, ``routing``.  Loads past the
    simulator's saturation that were not simulated have ``sim = inf``.
    """
    parts = []
    for run in runs:
        c = run.curve
        loads = list(c.loads)
        m = run.model.drop_duplicates("load").set_index("load").loc[loads].reset_index()
        f = pd.DataFrame({"curve": c.label, "key": curve_key(c), "V": c.model["V"], "injection": m["load"],
                          "lam": m["lam"], "model": m["latency"], "model (Thm 1 printed)": m["latency (Thm 1 printed)"],
                          "model saturated": m["saturated"].astype(bool)})
        if run.sim is not None:
            s = run.sim
            ad_full = network(c.sim["topology"], c.sim["k"]).average_distance()
            f["sim"] = s["latency"].to_numpy()
            f["sim CI"] = s["latency CI"].to_numpy()
            f["sim saturated"] = s["saturated"].astype(bool).to_numpy()
            f["mean hops"] = s["mean hops"].to_numpy()
            f["BFS distance"] = ad_full
            f["non-minimal excess"] = f["mean hops"] / ad_full - 1
            f["routing"] = c.sim["routing"]
        parts.append(f)
    return pd.concat(parts, ignore_index=True)


def _curve_name(run: CurveRun) -> str:
    return f"VC={run.curve.model['V']}, {run.label}"


def error_tables(runs: Sequence[CurveRun]):
    """Model-vs-simulation errors at the points where both are finite: ``(points, summary)``.

    ``points``: one row per point (``curve`` = ``"VC=<V>, <network>"``,
    ``injection``, model and simulated delay, CI, relative error, model inside
    the CI).  ``summary``: :func:`models.core.experiment.error_table` (within
    the paper's 5%) in the chapter's columns -- ``curve``, ``points``,
    ``max |rel. error|`` and ``mean |rel. error|`` (fractions), ``in CI`` and
    ``within 5%`` (``"hits/points"``); curves without a comparable point are left out.
    """
    parts = []
    for run in runs:
        pts = run.points()
        if pts.empty:
            continue
        ok = np.isfinite(pts["sim latency"]) & np.isfinite(pts["model latency"])
        if ok.any():
            pts = pts[ok]
            parts.append(compare(pts["load"], pts["model latency"], pts["sim latency"], pts["sim latency CI"],
                                 curve=_curve_name(run), x_name="injection", quantity="delay"))
    points = pd.concat(parts, ignore_index=True)
    table = core_error_table(runs, at=None, within=0.05)
    table.insert(0, "name", [_curve_name(r) for r in runs])
    table = table[table["points"] > 0]
    summary = pd.DataFrame({
        "curve": table["name"], "points": table["points"].astype(int),
        "max |rel. error|": table["max |err| [%]"] / 100.0, "mean |rel. error|": table["mean |err| [%]"] / 100.0,
        "in CI": [f"{int(a)}/{int(n)}" for a, n in zip(table["in CI"], table["points"])],
        "within 5%": [f"{int(a)}/{int(n)}" for a, n in zip(table["within 5%"], table["points"])],
    }).reset_index(drop=True)
    return points, summary


def claims_table(frame, column: str = "sim"):
    """For each V and injection rate: does each x-Folded TM reading have a lower delay than TM and torus?

    ``frame`` is :func:`delay_frame`; uses ``column`` (``"sim"`` or a model
    column); a saturated value counts as ``inf``.  Returns one row per (V,
    reading): rates compared, rates where it is lower than both, whether the
    claim holds at every rate where any of the three is finite, and
    (simulation) at how many rates the difference exceeds both confidence
    intervals.
    """
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

    ``frame`` is :func:`delay_frame`.  Re-solves the model (cheap) at every
    simulated, unsaturated point; one row per (variant, V, curve).
    """
    variants = VARIANTS if variants is None else variants
    rows = []
    for name, opts in variants.items():
        opts = dict(opts)
        ad = opts.pop("ad", "bfs")
        for (V, key), g in frame.groupby(["V", "key"], sort=False):
            g = g[np.isfinite(g["sim"])]
            if g.empty:
                continue
            kw = model_kwargs(network(key, k), V=int(V), M=M, ad=ad, **opts)
            model = np.array([solve(x / M, **kw).latency for x in g["injection"]])
            err = np.abs(model - g["sim"].to_numpy()) / g["sim"].to_numpy()
            rows.append({"variant": name, "V": int(V), "curve": g["curve"].iloc[0],
                         "points": int(len(g)), "max |rel. error|": float(np.max(err)),
                         "mean |rel. error|": float(np.mean(err)),
                         "within 5%": f"{int(np.sum(err <= 0.05))}/{len(g)}"})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The model curves (model only, up to each curve's saturation)
# ----------------------------------------------------------------------------
def model_curves_figure(V: int, *, k: int = 8, M: int = 32) -> Figure:
    """One panel of the model-curves figure: each network with its BFS distance, and Theorem 1 as printed.

    Loads are injection rates (flits/node/cycle); the curves have no loads of
    their own: :func:`run_model_curves` draws each up to its saturation.
    """
    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    curves = [Curve(label=t["label"], model=model_kwargs(network(key, k), V=V, M=M)) for key, t in TOPOLOGIES.items()]
    curves.append(Curve(label=THEOREM_LABEL, model=model_kwargs(network("xfolded_printed", k), V=V, M=M,
                                                               ad="theorem")))
    return Figure(label="fig-xfolded_tm-model-curves", title=f"VC = {V}", curves=tuple(curves),
                  x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay", y_unit="cycles")


def _model_delay(curve: Curve, injection: float) -> dict:
    r = solve(injection / curve.model["M"], **curve.model)
    return {"latency": r.latency, "saturated": r.saturated}


def _model_saturation(curve: Curve) -> float:
    """The model's saturation as an injection rate, flits/node/cycle."""
    return saturation_load(**curve.model) * curve.model["M"]


def run_model_curves(figure: Figure, *, model_points: int = 60) -> tuple:
    """Every curve of a model-curves panel on ``model_points`` injection rates from 0 to 0.999 of its saturation."""
    model_points = require("model_points", model_points, 2, unit="points per model curve", integer=True)
    line = lambda curve, sat, loads: np.linspace(0, 0.999 * sat, model_points)  # noqa: E731
    return run_figure(figure, _model_delay, None, model_saturation=_model_saturation, line=line)


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """``V``, ``network`` and the model's ``saturation [flits/node/cycle]`` of model-curve runs."""
    return pd.DataFrame([{"V": r.curve.model["V"], "network": r.label,
                          "saturation [flits/node/cycle]": r.model_saturation} for r in runs])


# ----------------------------------------------------------------------------
# Topology claims
# ----------------------------------------------------------------------------
def distance_table(ks: Sequence[int]):
    """Per ``k``: node counts (Definition 1, Proposition 1 fit) and whole-network average distances (hops).

    Columns: exact BFS averages of mesh, torus, TM and the three x-Folded TM
    readings; ``Thm 1 printed`` and ``k/3 reading`` are ``n * AD_k`` (eq. 3) from
    Theorem 1 as printed and from its ``k/3`` reading; diameters of each topology.
    """
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
