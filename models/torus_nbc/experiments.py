"""The paper's Fig. 1 and the routing comparison: configurations, runners, error tables, plots.

Fig. 1 of Safaei et al. (2007) plots the mean message latency (cycles) against
the generation rate :math:`\\lambda_g` (messages/node/cycle) on ``8 x 8`` and
``16 x 16`` bidirectional tori with ``V = 10`` VCs, for ``M = 32`` and ``64``
flits, model and simulation.  Here every curve is a :class:`Curve`;
:func:`run_curve` finds the **simulated saturation rate** by bisection on the
simulator's ``saturated`` flag, then simulates at fixed fractions of it
(25%, 50%, 75%, 90% and any others asked for) and solves the model at the
same rates and on a fine grid, returning one tidy table.  :func:`error_table`
turns that into the chapter's error table; :func:`run_comparison` runs the
same tori and rates with Duato's routing and dimension-order routing.

Simulation: :func:`models.sim.wormhole.simulate` on ``Torus((k, k),
bidirectional=True)``, Poisson sources, uniform destinations, fixed length
``M``, ``buffer_depth = 2``, one ejection VC (the paper: messages leave "one at
a time through the ejection channel"), ``injection_vcs = V`` (the model's
source queue with rate :math:`\\lambda_g/V`), results cached on disk (sweeps
through :func:`models.sim.sweep.run_sweep`).  Routings: ``duato_nbc`` with
``escape_levels = V2``; ``duato`` (Duato's routing of the torus_ipp chapter:
``V - 2`` adaptive VCs and the two dateline escape VCs of dimension order);
``dor`` (dimension-order routing, shorter direction on the bidirectional
torus, two dateline escape VCs and ``V - 2`` more VCs on the same path).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..core.errors import ParameterError
from ..core.validate import require
from .params import check_params

#: Fractions of the simulated saturation rate at which the error table is reported.
ERROR_FRACTIONS = (0.25, 0.5, 0.75, 0.9)

#: Routings compared in the chapter (simulator names) and their labels.
ROUTINGS = {"duato_nbc": "Duato-Nbc", "duato": "Duato (dateline escape)", "dor": "dimension order"}

#: Full-profile simulation lengths (the paper ran 300,000 cycles after 10,000 of warm-up).
SIM_MESSAGES = 100_000
SIM_WARMUP = 10_000


@dataclass(frozen=True)
class Curve:
    """One latency curve: a label and the model/simulator parameters ``k``, ``M``, ``V``, ``escape_levels``."""

    label: str
    config: dict = field(default_factory=dict)

    @property
    def k(self) -> int:
        return int(self.config["k"])

    @property
    def M(self) -> int:
        return int(self.config["M"])


def fig1_curves(tori: Sequence[int] = (8, 16), message_lengths: Sequence[int] = (32, 64), V: int = 10,
                extra_levels: int = 0) -> list[Curve]:
    """The curves of Fig. 1 (``V = 10``) with ``V2 = k/2 + 1 + extra_levels`` escape levels (default the minimum)."""
    from .params import min_escape_levels

    extra_levels = require("extra_levels", extra_levels, 0, unit="escape levels beyond the minimum k/2+1",
                           integer=True)
    out = []
    for k in tori:
        for M in message_lengths:
            p = check_params(k, M, V, min_escape_levels(int(k)) + extra_levels if extra_levels else None)
            out.append(Curve(f"{k}x{k}, M={M}", dict(k=p.k, M=p.M, V=p.V, escape_levels=p.V2)))
    return out


@dataclass(frozen=True)
class SimSettings:
    """Run lengths and seed of the simulations (messages counted after the warm-up)."""

    messages: int = SIM_MESSAGES
    warmup: int = SIM_WARMUP
    batches: int = 20
    seed: int = 1
    ejection_vcs: int = 1
    sat_rel_tol: float = 0.02      # relative width of the final saturation bracket
    jobs: int = 1

    def __post_init__(self):
        require("messages", self.messages, 100, unit="measured messages per point", integer=True)
        require("warmup", self.warmup, 0, unit="discarded messages per point", integer=True)
        require("sat_rel_tol", self.sat_rel_tol, 0, 0.5, lo_open=True, unit="relative bracket width")


def sim_kwargs(curve: Curve, rate: float, routing: str = "duato_nbc", settings: SimSettings = SimSettings()) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for one point."""
    from ..sim.wormhole import Torus

    c = curve.config
    kw = dict(topology=Torus((c["k"], c["k"]), bidirectional=True), routing=routing, vcs=c["V"],
              message_length=c["M"], rate=float(rate), messages=settings.messages,
              warmup_messages=settings.warmup, batches=settings.batches, seed=settings.seed,
              ejection_vcs=settings.ejection_vcs)
    if routing == "duato_nbc":
        kw["escape_levels"] = c.get("escape_levels")
    return kw


def _simulate(points: list[dict], settings: SimSettings) -> list:
    from ..sim.sweep import run_sweep

    return run_sweep(points, jobs=settings.jobs, cache=True, progress=False)


def sim_saturation(curve: Curve, guess: float, routing: str = "duato_nbc", settings: SimSettings = SimSettings()) -> dict:
    """Simulated saturation rate (messages/node/cycle) by bracketing and bisection on ``saturated``.

    Starting from ``guess``, the rate is scaled by 1.25 until one rate is
    unsaturated and a higher one saturated; the bracket is then halved until
    its relative width is below ``settings.sat_rel_tol``.  Returns
    ``{"saturation": midpoint, "lo": ..., "hi": ..., "runs": n}``.
    """
    guess = require("guess", guess, 0, lo_open=True, unit="messages/node/cycle")
    runs = 0

    def saturated(rate):
        nonlocal runs
        runs += 1
        return bool(_simulate([sim_kwargs(curve, rate, routing, settings)], settings)[0].saturated)

    lo = hi = None
    rate = guess
    for _ in range(40):
        if saturated(rate):
            hi = rate
            if lo is not None:
                break
            rate /= 1.25
        else:
            lo = rate
            if hi is not None:
                break
            rate *= 1.25
    if lo is None or hi is None:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} ({routing}) from {guess}")
    while (hi - lo) > settings.sat_rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if saturated(mid):
            hi = mid
        else:
            lo = mid
    return {"saturation": 0.5 * (lo + hi), "lo": lo, "hi": hi, "runs": runs}


def _round_rate(x: float) -> float:
    return float(f"{x:.6g}")


def split_table(tori: Sequence[int] = (8, 16), message_lengths: Sequence[int] = (32, 64), V: int = 10):
    """Model only: saturation rate and latency at half of it for every split ``V = V1 + V2`` allowed."""
    import pandas as pd

    from .params import min_escape_levels
    from .solve import saturation_load, solve

    rows = []
    for k in tori:
        for M in message_lengths:
            ref = saturation_load(k=k, M=M, V=V)
            for V2 in range(min_escape_levels(k), V):
                sat = saturation_load(k=k, M=M, V=V, escape_levels=V2)
                half = solve(0.5 * ref, k=k, M=M, V=V, escape_levels=V2)
                rows.append({"torus": f"{k}x{k}", "M": M, "V1 (adaptive)": V - V2, "V2 (escape levels)": V2,
                             "model saturation": sat, "latency at half the default's saturation": half.latency})
    return pd.DataFrame(rows)


def run_curve(curve: Curve, fractions: Sequence[float] = (0.1,) + ERROR_FRACTIONS, *, simulate: bool = True,
              settings: SimSettings = SimSettings(), model_points: int = 60, sim_saturation_rate: float | None = None):
    """Model and simulation of one curve.

    Returns ``(points, info)``.  ``points`` is a :class:`pandas.DataFrame` with
    one row per rate: ``curve``, ``k``, ``M``, ``rate`` (messages/node/cycle),
    ``fraction`` (of the simulated saturation rate; NaN on the model-only grid),
    ``model latency`` (cycles, inf past the model's saturation), ``model network
    latency``, ``model multiplexing`` and, at the simulated rates, ``sim latency``,
    ``sim CI`` (95% half width), ``sim saturated``, ``sim multiplexing``.
    ``info`` holds the model and simulated saturation rates.
    """
    import pandas as pd

    from .solve import saturation_load, solve

    c = curve.config
    model_sat = saturation_load(k=c["k"], M=c["M"], V=c["V"], escape_levels=c.get("escape_levels"))
    info = {"curve": curve.label, "k": c["k"], "M": c["M"], "model saturation": model_sat}
    if simulate and sim_saturation_rate is None:
        s = sim_saturation(curve, 0.8 * model_sat, "duato_nbc", settings)
        info.update({"sim saturation": s["saturation"], "sim saturation lo": s["lo"],
                     "sim saturation hi": s["hi"], "saturation runs": s["runs"]})
    elif sim_saturation_rate is not None:
        info["sim saturation"] = float(sim_saturation_rate)
    rows = []
    ref = info.get("sim saturation", model_sat)
    sim_rates = [_round_rate(f * ref) for f in fractions]
    results = _simulate([sim_kwargs(curve, r, "duato_nbc", settings) for r in sim_rates], settings) if simulate else []
    for i, (f, r) in enumerate(zip(fractions, sim_rates)):
        m = solve(r, k=c["k"], M=c["M"], V=c["V"], escape_levels=c.get("escape_levels"))
        row = {"curve": curve.label, "k": c["k"], "M": c["M"], "rate": r, "fraction": f,
               "model latency": m.latency, "model network latency": m.network_latency,
               "model multiplexing": m.multiplexing}
        if simulate:
            s = results[i]
            row.update({"sim latency": s.latency, "sim CI": s.latency_ci, "sim saturated": s.saturated,
                        "sim network latency": s.network_latency, "sim multiplexing": s.multiplexing})
        rows.append(row)
    for r in np.linspace(0.0, model_sat, model_points + 1)[1:-1]:
        m = solve(float(r), k=c["k"], M=c["M"], V=c["V"], escape_levels=c.get("escape_levels"))
        rows.append({"curve": curve.label, "k": c["k"], "M": c["M"], "rate": float(r), "fraction": math.nan,
                     "model latency": m.latency, "model network latency": m.network_latency,
                     "model multiplexing": m.multiplexing})
    frame = pd.DataFrame(rows).sort_values(["rate"]).reset_index(drop=True)
    return frame, info


def run_figure(curves: Sequence[Curve], fractions: Sequence[float] = (0.1,) + ERROR_FRACTIONS, **kwargs):
    """:func:`run_curve` for every curve; returns ``(points, saturation)`` DataFrames."""
    import pandas as pd

    parts, infos = [], []
    for c in curves:
        f, i = run_curve(c, fractions, **kwargs)
        parts.append(f)
        infos.append(i)
    return pd.concat(parts, ignore_index=True), pd.DataFrame(infos)


def error_table(points, saturation, fractions: Sequence[float] = ERROR_FRACTIONS):
    """One row per curve: relative error of the model at each fraction of the simulated saturation rate,
    and the saturation rates of model and simulation.

    Relative error ``(model - sim) / sim`` of the mean message latency; ``inf``
    where the model is already saturated at that rate, NaN where the
    simulation is (neither happens below 90% unless the model saturates first).
    """
    import pandas as pd

    from ..core.validation import relative_error

    rows = []
    for _, info in saturation.iterrows():
        g = points[(points["curve"] == info["curve"]) & points["fraction"].notna()]
        row = {"curve": info["curve"]}
        for f in fractions:
            p = g[np.isclose(g["fraction"], f)]
            if p.empty or "sim latency" not in p:
                row[f"err @{f:.0%}"] = math.nan
                continue
            model, sim = float(p["model latency"].iloc[0]), float(p["sim latency"].iloc[0])
            row[f"err @{f:.0%}"] = math.inf if not math.isfinite(model) and math.isfinite(sim) else \
                float(relative_error([model], [sim])[0])
        row["model saturation"] = info["model saturation"]
        row["sim saturation"] = info.get("sim saturation", math.nan)
        row["saturation err"] = (row["model saturation"] - row["sim saturation"]) / row["sim saturation"]
        rows.append(row)
    return pd.DataFrame(rows)


def plot_fig1(points, saturation=None, tori: Sequence[int] | None = None):
    """Fig. 1: latency vs rate, one panel per torus; model lines, simulation markers with 95% CIs."""
    import matplotlib.pyplot as plt

    from ..core.plotting import plot_model_sim, use_style

    use_style()
    tori = sorted(set(points["k"])) if tori is None else list(tori)
    fig, axes = plt.subplots(1, len(tori), figsize=(5.2 * len(tori), 4.2), squeeze=False)
    for ax, k in zip(axes[0], tori):
        sub = points[points["k"] == k]
        top = 0.0
        for label, g in sub.groupby("curve", sort=False):
            model = g["model latency"].where(np.isfinite(g["model latency"]))
            line = ax.plot(g["rate"], model, "-", label=f"M={int(g['M'].iloc[0])} model")[0]
            if "sim latency" in g:
                s = g[g["fraction"].notna()]
                ok = np.isfinite(s["sim latency"])
                ax.errorbar(s["rate"][ok], s["sim latency"][ok], yerr=s["sim CI"][ok], fmt="o", mfc="none",
                            color=line.get_color(), capsize=2, ms=5, label=f"M={int(g['M'].iloc[0])} simulation")
                top = max(top, float(np.nanmax(s["sim latency"][ok])) if ok.any() else 0.0)
            if saturation is not None:
                info = saturation[saturation["curve"] == label]
                if not info.empty and "sim saturation" in info and math.isfinite(info["sim saturation"].iloc[0]):
                    ax.axvline(info["sim saturation"].iloc[0], color=line.get_color(), ls=":", lw=1)
            top = max(top, float(np.nanmax(model)) if model.notna().any() else 0.0)
        ax.set(xlabel="traffic generation rate [messages/node/cycle]", ylabel="mean message latency [cycles]",
               title=f"{k}x{k} torus")
        ax.set_ylim(0, min(top * 1.05, 1200) if top > 0 else None)
        ax.set_xlim(left=0)
        ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


def run_comparison(curves: Sequence[Curve], saturation, fractions: Sequence[float] = (0.1,) + ERROR_FRACTIONS,
                   routings: Sequence[str] = tuple(ROUTINGS), settings: SimSettings = SimSettings()):
    """Simulate every routing on every curve's torus at the same rates (fractions of Duato-Nbc's saturation).

    ``saturation`` is the table of :func:`run_figure` (its ``sim saturation``
    column gives the Duato-Nbc reference rate per curve).  Returns
    ``(points, saturation_by_routing)``: latency per (curve, routing, rate)
    and each routing's own simulated saturation rate.
    """
    import pandas as pd

    rows, sats = [], []
    for curve in curves:
        info = saturation[saturation["curve"] == curve.label].iloc[0]
        ref = float(info["sim saturation"])
        rates = [_round_rate(f * ref) for f in fractions]
        for routing in routings:
            res = _simulate([sim_kwargs(curve, r, routing, settings) for r in rates], settings)
            for f, r, s in zip(fractions, rates, res):
                rows.append({"curve": curve.label, "k": curve.k, "M": curve.M, "routing": routing,
                             "rate": r, "fraction": f, "latency": s.latency, "CI": s.latency_ci,
                             "saturated": s.saturated, "multiplexing": s.multiplexing})
            if routing == "duato_nbc":
                sat = {"saturation": ref, "lo": info.get("sim saturation lo", math.nan),
                       "hi": info.get("sim saturation hi", math.nan)}
            else:
                sat = sim_saturation(curve, ref, routing, settings)
            sats.append({"curve": curve.label, "k": curve.k, "M": curve.M, "routing": routing,
                         "saturation": sat["saturation"], "lo": sat["lo"], "hi": sat["hi"]})
    sat = pd.DataFrame(sats)
    base = sat[sat["routing"] == "duato_nbc"].set_index("curve")["saturation"]
    sat["vs Duato-Nbc"] = sat["saturation"] / sat["curve"].map(base)
    return pd.DataFrame(rows), sat


def plot_comparison(points, saturation=None):
    """Latency vs rate per routing, one panel per curve (simulation only, 95% CIs)."""
    import matplotlib.pyplot as plt

    from ..core.plotting import use_style

    use_style()
    curves = list(dict.fromkeys(points["curve"]))
    n = len(curves)
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    markers = {"duato_nbc": "o", "duato": "s", "dor": "^"}
    for ax, curve in zip(axes.ravel(), curves):
        sub = points[points["curve"] == curve]
        for routing, g in sub.groupby("routing", sort=False):
            ok = np.isfinite(g["latency"])
            line = ax.errorbar(g["rate"][ok], g["latency"][ok], yerr=g["CI"][ok], fmt="-" + markers.get(routing, "o"),
                               mfc="none", capsize=2, ms=5, label=ROUTINGS.get(routing, routing))
            if saturation is not None:
                s = saturation[(saturation["curve"] == curve) & (saturation["routing"] == routing)]
                if not s.empty:
                    ax.axvline(float(s["saturation"].iloc[0]), color=line[0].get_color(), ls=":", lw=1)
        ax.set(title=curve, xlabel="traffic generation rate [messages/node/cycle]",
               ylabel="mean message latency [cycles]")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig
