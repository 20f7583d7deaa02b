"""The paper's experiments and the chapter's own: configurations, model and simulation runs, error tables, plots.

A :class:`Curve` is one latency-vs-load curve: a torus (radices,
uni/bidirectional), ``L`` virtual channels, ``M`` flits.  :func:`run_curve`

1. finds the simulator's saturation load by bisection on :math:`\\lambda_g`
   (:func:`sim_saturation`; a run is saturated when the simulator says so:
   the backlog grows or passes its limit),
2. simulates at the requested fractions of that load (cached on disk by
   :func:`models.sim.sweep.run_sweep`),
3. solves the model at the same loads and on a fine grid for the line, and
   finds its saturation load (:func:`models.torus_dor.saturation_load`),

and returns one tidy :class:`pandas.DataFrame`.  :func:`error_table` turns
curves into the table the chapter reports (relative error at 25/50/75/90% of
the simulated saturation load, saturation loads).  The simulator runs the
paper's scheme: unidirectional torus, routing ``"dor"`` (VC1 = v3..vL for any
message, v1/v2 dateline escape channels), ``L`` injection VCs, one ejection
VC, buffers of 2 flits, router delay 1 cycle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..core.validate import require
from .equations import CHOICES, Readings, Readings2003
from .model2003 import saturation_load_2003, solve_2003
from .solve import check_params, saturation_load, solve

#: Run lengths of the paper (Sec. 3): 120,000 delivered messages after 10,000 discarded.
SIM_MESSAGES = 120_000
SIM_WARMUP = 10_000
#: Fractions of the simulated saturation load at which errors are tabulated.
TABLE_FRACTIONS = (0.25, 0.5, 0.75, 0.9)


@dataclass(frozen=True)
class Curve:
    """One latency curve: torus radices, VCs ``L``, message length ``M`` (flits), direction."""

    radices: tuple
    L: int
    M: int
    bidirectional: bool = False
    readings: Readings = field(default_factory=Readings)

    def __post_init__(self):
        check_params(self.radices, self.L, self.M, bidirectional=self.bidirectional)

    @property
    def label(self) -> str:
        net = "x".join(map(str, self.radices)) + (" bi" if self.bidirectional else "")
        return f"{net}, L={self.L}, M={self.M}"


def figure1_curves(networks=((16, 16), (8, 8, 8)), M_values=(32, 64, 100), L_values=(3, 5)) -> list[Curve]:
    """Fig. 1 of the paper: 16x16 and 8x8x8 unidirectional tori, M = 32, 64, 100, L = 3, 5."""
    return [Curve(tuple(net), int(L), int(M)) for net in networks for L in L_values for M in M_values]


def figure2_curve(radices=(16, 16), L: int = 5, M: int = 32) -> Curve:
    """Fig. 2 of the paper: 16x16, L = 5, M = 32 (this model, the 2003 model, simulation)."""
    return Curve(tuple(radices), int(L), int(M))


# ----------------------------------------------------------------------------
# Simulation
# ----------------------------------------------------------------------------
def sim_config(curve: Curve, *, messages: int, warmup: int, batches: int = 20, seed: int = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` (without ``rate``)."""
    from ..sim.wormhole import Torus

    return dict(topology=Torus(tuple(curve.radices), bidirectional=curve.bidirectional), routing="dor",
                vcs=curve.L, message_length=curve.M, buffer_depth=2, router_delay=1,
                messages=int(messages), warmup_messages=int(warmup), batches=int(batches), seed=int(seed))


def capacity_load(curve: Curve) -> float:
    """Load at which a network channel would be busy all the time (:math:`\\lambda_cM=1`), messages/node/cycle."""
    from ..networks.dor_paths import DorCombinatorics

    c = DorCombinatorics(curve.radices, bidirectional=curve.bidirectional)
    channels = (2 if curve.bidirectional else 1) * c.n
    return min(1.0 / curve.M, channels / (float(c.mean_hops) * curve.M))


def sim_saturation(curve: Curve, *, messages: int = 20_000, warmup: int = 2_000, steps: int = 8,
                   seed: int = 1) -> float:
    """Simulated saturation load (messages/node/cycle) by bisection between 0 and :func:`capacity_load`.

    Each probe is one cached simulation of ``messages`` messages; the result
    is the midpoint of the final bracket (relative width ``2**-steps`` of the
    capacity load).
    """
    from ..sim.wormhole import simulate

    lo, hi = 0.0, capacity_load(curve)
    cfg = sim_config(curve, messages=messages, warmup=warmup, batches=10, seed=seed)
    for _ in range(int(steps)):
        mid = 0.5 * (lo + hi)
        r = simulate(rate=mid, cache=True, **cfg)
        if r.saturated:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def run_sim(curve: Curve, rates: Sequence[float], *, messages: int, warmup: int, batches: int = 20, seed: int = 1):
    """Simulations of ``curve`` at ``rates`` (cached sweep, in this process); list of WormholeResult."""
    from ..sim.sweep import run_sweep

    cfg = sim_config(curve, messages=messages, warmup=warmup, batches=batches, seed=seed)
    return run_sweep([dict(cfg, rate=float(r)) for r in rates], jobs=1, cache=True, progress=False)


# ----------------------------------------------------------------------------
# Curves
# ----------------------------------------------------------------------------
def model_line(curve: Curve, upto: float, points: int = 40, *, readings: Readings | None = None,
               model: str = "2004") -> "pd.DataFrame":
    """The model on a fine grid from ``upto/points`` to ``upto`` (latency ``inf`` past saturation)."""
    import pandas as pd

    rd = curve.readings if readings is None else readings
    rates = np.linspace(upto / points, upto, points)
    if model == "2004":
        lat = [solve(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=rd).latency
               for r in rates]
    else:
        rd3 = rd if isinstance(rd, Readings2003) else Readings2003()
        lat = [solve_2003(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=rd3).latency
               for r in rates]
    return pd.DataFrame({"curve": curve.label, "rate": rates, "latency": lat})


def run_curve(
    curve: Curve,
    fractions: Sequence[float],
    *,
    simulate: bool = True,
    messages: int = SIM_MESSAGES,
    warmup: int = SIM_WARMUP,
    batches: int = 20,
    seed: int = 1,
    sat_messages: int = 20_000,
    sat_steps: int = 8,
    with_2003: bool = False,
    relative_to: str = "sim",
) -> dict:
    """Model (and simulation) of one curve.

    Loads are ``fractions`` of the simulated saturation load (of the model's
    when ``simulate`` is False or ``relative_to="model"``).  Returns a dict: ``"points"`` (DataFrame:
    curve, fraction, rate, model latency, [2003 model latency], sim latency,
    sim CI, sim saturated, sim multiplexing), ``"sat"`` (dict of saturation
    loads: model, sim, 2003), ``"sims"`` (the WormholeResult objects).
    """
    import pandas as pd

    fractions = [require("fraction", f, 0, lo_open=True, unit="of the saturation load") for f in fractions]
    from ..core.validate import require_choice

    require_choice("relative_to", relative_to, ["sim", "model"])
    sat_model = saturation_load(curve.radices, curve.L, curve.M, bidirectional=curve.bidirectional,
                                readings=curve.readings)
    sat = {"model": sat_model}
    if with_2003:
        sat["2003"] = saturation_load_2003(curve.radices, curve.L, curve.M, bidirectional=curve.bidirectional)
    if simulate:
        sat["sim"] = sim_saturation(curve, messages=sat_messages, warmup=max(sat_messages // 10, 200),
                                    steps=sat_steps, seed=seed)
        base = sat["sim"] if relative_to == "sim" else sat_model
    else:
        base = sat_model
    rates = [f * base for f in fractions]
    rows = []
    sims = run_sim(curve, rates, messages=messages, warmup=warmup, batches=batches, seed=seed) if simulate else [None] * len(rates)
    for f, r, sm in zip(fractions, rates, sims):
        res = solve(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=curve.readings)
        row = {"curve": curve.label, "fraction": f, "rate": r, "model latency": res.latency,
               "model multiplexing": res.multiplexing if not res.saturated else math.nan}
        if with_2003:
            row["2003 latency"] = solve_2003(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional).latency
        if sm is not None:
            row.update({"sim latency": sm.latency, "sim CI": sm.latency_ci, "sim saturated": sm.saturated,
                        "sim multiplexing": sm.multiplexing, "sim hops": sm.mean_hops})
        rows.append(row)
    return {"curve": curve, "points": pd.DataFrame(rows), "sat": sat, "sims": sims}


def error_table(runs: Sequence[dict], fractions: Sequence[float] = TABLE_FRACTIONS):
    """One row per curve: relative error ``(model - sim)/sim`` at each fraction of the simulated saturation load,
    and the saturation loads (messages/node/cycle) of the model, the simulation (and the 2003 model).

    An error is ``inf`` when the model is saturated at that load, NaN when the
    simulation is (or the fraction was not run).
    """
    import pandas as pd

    rows = []
    for run in runs:
        pts = run["points"]
        row = {"curve": run["curve"].label}
        for f in fractions:
            sel = pts[np.isclose(pts["fraction"], f)]
            for col, name in (("model latency", "err"), ("2003 latency", "err 2003")):
                if col not in pts:
                    continue
                if sel.empty or "sim latency" not in pts:
                    val = math.nan
                else:
                    m, s_ = float(sel[col].iloc[0]), float(sel["sim latency"].iloc[0])
                    val = math.nan if not math.isfinite(s_) else (math.inf if not math.isfinite(m) else (m - s_) / s_)
                row[f"{name} {int(round(f * 100))}%"] = val
        row["sat model"] = run["sat"].get("model", math.nan)
        row["sat sim"] = run["sat"].get("sim", math.nan)
        if "2003" in run["sat"]:
            row["sat 2003"] = run["sat"]["2003"]
        if math.isfinite(row["sat sim"]):
            row["sat model / sim"] = row["sat model"] / row["sat sim"]
        rows.append(row)
    return pd.DataFrame(rows)


def zero_load_check(curve: Curve, *, rate_fraction: float = 0.002, messages: int = 5000, seed: int = 1) -> dict:
    """Model and simulated latency at a tiny load (``rate_fraction`` of the capacity load) and ``M + h + 1``."""
    from ..sim.wormhole import simulate

    r = rate_fraction * capacity_load(curve)
    res = solve(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=curve.readings)
    sm = simulate(rate=r, cache=True, **sim_config(curve, messages=messages, warmup=max(messages // 10, 100), seed=seed))
    return {"curve": curve.label, "rate": r, "model": res.latency, "sim": sm.latency, "sim CI": sm.latency_ci,
            "M+h+1": curve.M + res.h + 1, "rel. error": (res.latency - sm.latency) / sm.latency}


# ----------------------------------------------------------------------------
# Readings (switches)
# ----------------------------------------------------------------------------
def switch_variants(base: Readings = Readings()) -> dict[str, Readings]:
    """The default reading, every single-switch alternative, and all-printed."""
    out = {"default": base}
    for name, choices in CHOICES.items():
        for c in choices:
            if c != getattr(base, name):
                out[f"{name}={c}"] = base.replace(**{name: c})
    out[f"ejection_cycle={not base.ejection_cycle}"] = base.replace(ejection_cycle=not base.ejection_cycle)
    out["all printed"] = Readings.printed()
    return out


def switch_table(curve: Curve, rates: Sequence[float], sim_latency: Sequence[float] | None = None,
                 variants: dict | None = None):
    """Saturation load and latency at ``rates`` under every reading; with ``sim_latency``, the errors."""
    import pandas as pd

    variants = switch_variants(curve.readings) if variants is None else variants
    rows = []
    for name, rd in variants.items():
        row = {"reading": name,
               "saturation": saturation_load(curve.radices, curve.L, curve.M, bidirectional=curve.bidirectional,
                                             readings=rd)}
        for i, r in enumerate(rates):
            lat = solve(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=rd).latency
            row[f"T @ {r:.3g}"] = lat
            if sim_latency is not None and math.isfinite(sim_latency[i]):
                row[f"err @ {r:.3g}"] = (lat - sim_latency[i]) / sim_latency[i] if math.isfinite(lat) else math.inf
        rows.append(row)
    return pd.DataFrame(rows)


def switches_2003_table(curve: Curve, rates: Sequence[float], sim_latency=None):
    """Saturation and latency of the reconstructed 2003 model under each of its switches."""
    import pandas as pd

    from .equations import CHOICES_2003

    base = Readings2003()
    variants = {"default": base}
    for name, choices in CHOICES_2003.items():
        for c in choices:
            if c != getattr(base, name):
                variants[f"{name}={c}"] = base.replace(**{name: c})
    rows = []
    for name, rd in variants.items():
        row = {"reading": name, "saturation": saturation_load_2003(curve.radices, curve.L, curve.M,
                                                                   bidirectional=curve.bidirectional, readings=rd)}
        for i, r in enumerate(rates):
            lat = solve_2003(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=rd).latency
            row[f"T @ {r:.3g}"] = lat
            if sim_latency is not None and math.isfinite(sim_latency[i]):
                row[f"err @ {r:.3g}"] = (lat - sim_latency[i]) / sim_latency[i] if math.isfinite(lat) else math.inf
        rows.append(row)
    return pd.DataFrame(rows), variants


# ----------------------------------------------------------------------------
# Assumptions (beyond the paper)
# ----------------------------------------------------------------------------
def occupancy_check(curve: Curve, rates: Sequence[float], sims) -> "pd.DataFrame":
    """Measured vs modelled VC-occupancy distribution (P(v busy VCs), averaged over the channels of all
    dimensions) and multiplexing degree at ``rates`` (with the matching simulation results ``sims``)."""
    import pandas as pd

    rows = []
    for r, sm in zip(rates, sims):
        res = solve(curve.radices, curve.L, curve.M, r, bidirectional=curve.bidirectional, readings=curve.readings)
        model_occ = res.occupancy.mean(axis=0) if not res.saturated else np.full(curve.L + 1, np.nan)
        for v in range(curve.L + 1):
            rows.append({"rate": r, "busy VCs": v, "model": float(model_occ[v]),
                         "sim": float(sm.vc_busy_hist[v]) if sm is not None else math.nan})
        rows.append({"rate": r, "busy VCs": "multiplexing", "model": res.multiplexing if not res.saturated else math.nan,
                     "sim": sm.multiplexing if sm is not None else math.nan})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# Plots
# ----------------------------------------------------------------------------
def plot_runs(runs: Sequence[dict], ax=None, *, title: str = "", with_2003: bool = False, line_points: int = 40,
              logy: bool = False):
    """Latency vs load: model lines (up to its saturation), simulation markers with 95% CIs, one colour per curve."""
    import matplotlib.pyplot as plt

    from ..core.plotting import use_style

    use_style()
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
    else:
        fig = ax.figure
    ymax = 0.0
    for run in runs:
        c, pts = run["curve"], run["points"]
        xmax = float(pts["rate"].max()) * 1.05
        line = model_line(c, min(xmax, run["sat"]["model"] * 0.999), line_points)
        (ln,) = ax.plot(line["rate"], line["latency"], "-", label=f"{c.label} model")
        if with_2003 and "2003" in run["sat"]:
            l3 = model_line(c, min(xmax, run["sat"]["2003"] * 0.999), line_points, model="2003")
            ax.plot(l3["rate"], l3["latency"], "--", color=ln.get_color(), label=f"{c.label} 2003 model")
        if "sim latency" in pts:
            ok = np.isfinite(pts["sim latency"])
            ax.errorbar(pts["rate"][ok], pts["sim latency"][ok], yerr=pts["sim CI"][ok], fmt="o", mfc="none",
                        ms=4, capsize=2, color=ln.get_color(), label=f"{c.label} simulation")
            if ok.any():
                ymax = max(ymax, float(pts["sim latency"][ok].max()))
        fin = line["latency"][np.isfinite(line["latency"])]
        if len(fin):
            ymax = max(ymax, float(fin.max()))
    if ymax > 0 and not logy:
        ax.set_ylim(0, min(ymax * 1.1, 6 * ymax))
    if logy:
        ax.set_yscale("log")
    ax.set(xlabel=r"generation rate $\lambda_g$ [messages/node/cycle]", ylabel="mean message latency [cycles]")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7)
    if own:
        fig.tight_layout()
    return fig


def plot_switches(curve: Curve, variants: dict, upto: float, sim_points=None, *, points: int = 40, ax=None):
    """Model latency under each reading (one line each) with the simulation markers."""
    import matplotlib.pyplot as plt

    from ..core.plotting import use_style

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
    if sim_points is not None:
        ok = np.isfinite(sim_points["sim latency"])
        ax.errorbar(sim_points["rate"][ok], sim_points["sim latency"][ok], yerr=sim_points["sim CI"][ok], fmt="ko",
                    mfc="none", ms=5, capsize=2, label="simulation")
        top = float(sim_points["sim latency"][ok].max()) if ok.any() else None
        if top:
            ax.set_ylim(0, top * 1.3)
    ax.set(xlabel=r"generation rate $\lambda_g$ [messages/node/cycle]", ylabel="mean message latency [cycles]",
           title=curve.label)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def format_error_table(table):
    """The error table with errors as percentages and loads to 3 significant digits (strings, for the chapter page)."""
    out = table.copy()
    for c in out.columns:
        if c.startswith("err") or c == "sat model / sim":
            out[c] = [("inf" if v == math.inf else "n/a" if not math.isfinite(v) else f"{v:+.1%}") if c.startswith("err")
                      else (f"{v:.2f}" if math.isfinite(v) else "n/a") for v in out[c]]
        elif c.startswith("sat"):
            out[c] = [f"{v:.3g}" if math.isfinite(v) else "n/a" for v in out[c]]
    return out


def decomposition(runs: Sequence[dict], fraction: float = 0.5):
    """Where the latency goes at ``fraction`` of the simulated saturation load, per curve.

    Columns: the multiplexing degree of model and simulation, and the latency
    divided by it minus the zero-load latency ``M + h + 1`` ("delay beyond
    multiplexing", cycles): the model's blocking and queueing terms, and what
    the simulation shows beyond its measured multiplexing.
    """
    import pandas as pd

    rows = []
    for run in runs:
        c, pts = run["curve"], run["points"]
        sel = pts[np.isclose(pts["fraction"], fraction)]
        if sel.empty or "sim latency" not in pts:
            continue
        row = sel.iloc[0]
        zero = solve(c.radices, c.L, c.M, 1e-12, bidirectional=c.bidirectional, readings=c.readings).latency
        rows.append({"curve": c.label, "fraction": fraction, "zero-load": zero,
                     "l-bar model": row["model multiplexing"], "l-bar sim": row["sim multiplexing"],
                     "beyond mux model": row["model latency"] / row["model multiplexing"] - zero,
                     "beyond mux sim": row["sim latency"] / row["sim multiplexing"] - zero})
    return pd.DataFrame(rows)
