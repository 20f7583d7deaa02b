"""The paper's experiments: figure configurations, model and simulation runs, error tables, plots.

Figs. 1 and 2 of Min, Ferguson & Ould-Khaoua (2001) plot the mean message
latency (cycles) against ``mu1``, the on-state rate of the IPP sources
(messages/node/cycle), on bidirectional ``k x k`` tori with Duato's fully
adaptive routing:

* Fig. 1: ``k = 16``, ``V = 3``, ``M = 48`` flits, (a) ``(sigma1, sigma2) = (0.2, 0.8)``,
  (b) ``(0.6, 0.6)``;
* Fig. 2: ``k = 24``, ``V = 5``, ``M = 32`` flits, (a) ``(0.09, 0.09)``, (b) ``(0.05, 0.8)``.

Every curve is run for the IPP sources of the paper and, beyond the paper,
for Poisson sources of the same mean rate.  A curve is

* the model on a dense grid up to its saturation point
  (:func:`models.torus_ipp.solve.saturation_load`);
* the simulator's saturation point, by bisection on ``mu1`` with the
  simulator's ``saturated`` verdict (:func:`sim_saturation`);
* simulation and model at fixed fractions (25, 50, 75, 90 % and the extra
  plotting fractions) of the simulated saturation load.

Simulation (:mod:`models.sim.wormhole`): bidirectional torus, routing
``"duato"`` (``V - 2`` adaptive VCs, 2 escape VCs with dimension-order
dateline routing), fixed message length, IPP sources
(:func:`models.sim.wormhole.IPP`), **one injection VC per node**
(``injection_vcs=1``): the paper models the injection channel as one
MMPP/G/1 server whose arrival rate is the node's whole rate (Sec. 2.4), not
``lambda/V`` as in the Poisson models of the other chapters.  Results are
cached on disk.

Tables: :func:`error_table` (for each curve, the model's relative error at
25/50/75/90 % of the simulated saturation load and both saturation loads,
the form of the torus_dor chapter) and :func:`fitted_parameters_table` (the
channel MMPP of each figure).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..queueing import mmpp_g1 as Q
from ..sim.mmpp_g1 import simulate_mmpp_g1
from ..traffic import moments
from ..traffic.process import IPP, MMPP2
from ..core.validate import require, require_choice
from .solve import Params, channel_process, saturation_bound, saturation_load, solve

#: Fractions of the simulated saturation load at which the error table is taken.
ERROR_FRACTIONS = (0.25, 0.5, 0.75, 0.9)
#: Default extra fractions for the plotted simulation points.
PLOT_FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9, 0.95)
#: Full-profile simulation run lengths (messages).
SIM_MESSAGES = 100_000
SIM_WARMUP = 20_000


@dataclass(frozen=True)
class Curve:
    """One curve: the panel letter and the model/simulator configuration."""

    panel: str
    config: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        c = self.config
        return f"({self.panel}) sigma1={c['sigma1']}, sigma2={c['sigma2']}"


@dataclass(frozen=True)
class Figure:
    number: int
    caption: str
    curves: tuple

    @property
    def label(self) -> str:
        return f"fig-torus_ipp-fig{self.number}"


def _cfg(k, V, M, s1, s2):
    return dict(k=k, V=V, M=M, sigma1=s1, sigma2=s2)


FIGURES: dict[int, Figure] = {
    1: Figure(1, "16x16 torus, V = 3, M = 48 flits",
              (Curve("a", _cfg(16, 3, 48, 0.2, 0.8)), Curve("b", _cfg(16, 3, 48, 0.6, 0.6)))),
    2: Figure(2, "24x24 torus, V = 5, M = 32 flits",
              (Curve("a", _cfg(24, 5, 32, 0.09, 0.09)), Curve("b", _cfg(24, 5, 32, 0.05, 0.8)))),
}


def curves(figures: Sequence[int] = (1, 2)):
    """``(figure number, Curve)`` for the requested figures."""
    return [(n, c) for n in figures for c in FIGURES[require_choice("figure", n, list(FIGURES))].curves]


# ----------------------------------------------------------------------------
# Simulation points
# ----------------------------------------------------------------------------
def sim_traffic(config: dict, mu1: float, traffic: str = "ipp"):
    """The simulator's source for a model configuration: its IPP, or Poisson of the same mean.

    Returns ``(traffic, rate)`` for :func:`models.sim.wormhole.simulate`
    (``rate`` is ``None`` with an IPP source); the model and the simulator share
    one process object, :class:`models.traffic.process.MMPP2`.
    """
    require_choice("traffic", traffic, ["ipp", "poisson"])
    src = IPP(mu1, config["sigma1"], config["sigma2"])
    if traffic == "ipp":
        return src, None
    return "poisson", src.mean_rate


def sim_kwargs(config: dict, mu1: float, traffic: str = "ipp", *, messages: int = SIM_MESSAGES,
               warmup: int = SIM_WARMUP, seed: int = 1, injection_vcs: int | None = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for one point."""
    from ..sim.wormhole import Torus

    tr, rate = sim_traffic(config, mu1, traffic)
    return dict(topology=Torus((config["k"], config["k"]), bidirectional=True), routing="duato",
                vcs=config["V"], message_length=int(config["M"]), rate=rate, traffic=tr,
                messages=int(messages), warmup_messages=int(warmup), seed=int(seed), injection_vcs=injection_vcs)


def sim_saturation(config: dict, traffic: str = "ipp", *, steps: int = 7, messages: int = SIM_MESSAGES // 2,
                   warmup: int = SIM_WARMUP // 2, seed: int = 1, injection_vcs: int | None = 1) -> float:
    """Simulated saturation load (``mu1``, messages/node/cycle) by bisection on the simulator's verdict.

    The bracket starts at ``[0, mu1*]`` with ``mu1*`` the load at which the
    channels would carry ``lambda_c (M + d) = 1`` (above the physical limit
    of a channel's bandwidth); ``steps`` halvings give a resolution of
    ``mu1* / 2^steps``.  Returns the bracket's midpoint.
    """
    from ..sim.wormhole import simulate

    require("steps", steps, 1, integer=True, unit="bisection steps")
    lo, hi = 0.0, saturation_bound(**config)
    for _ in range(int(steps)):
        mid = 0.5 * (lo + hi)
        r = simulate(**sim_kwargs(config, mid, traffic, messages=messages, warmup=warmup, seed=seed,
                                  injection_vcs=injection_vcs), cache=True)
        if r.saturated:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


# ----------------------------------------------------------------------------
# Curves
# ----------------------------------------------------------------------------
def _model_row(config, mu1, traffic, pab):
    r = solve(mu1=float(mu1), traffic=traffic, pab=pab, **config)
    return {"model latency": r.latency, "model network latency": r.network_latency,
            "model source wait": r.source_wait, "model blocking": r.blocking,
            "model multiplexing": r.multiplexing, "model saturated": r.saturated}


def run_curve(figure: int, curve: Curve, traffic: str = "ipp", *, simulate: bool = True,
              fractions: Sequence[float] = PLOT_FRACTIONS, messages: int = SIM_MESSAGES, warmup: int = SIM_WARMUP,
              sat_steps: int = 7, seed: int = 1, n_model: int = 40, pab: str = "printed",
              injection_vcs: int | None = 1, jobs: int = 1) -> dict:
    """Model and simulation of one curve.

    Returns a dict of :class:`pandas.DataFrame` / numbers:

    ``model``
        the model on ``n_model`` loads up to its saturation point (columns
        ``mu1``, ``mean rate``, ``model latency``, ... in cycles);
    ``points``
        the simulated points at ``fractions`` of the simulated saturation load
        (and at :data:`ERROR_FRACTIONS`), with the model at the same loads
        (``sim latency``, ``sim latency CI`` (95 % half width), ``sim network
        latency``, ``sim source wait``, ``sim saturated``, ``rel. error``);
    ``sat_model``, ``sat_sim``
        saturation loads (``mu1``, messages/node/cycle).
    """
    import pandas as pd

    from ..sim.sweep import run_sweep

    config = dict(curve.config)
    meta = {"figure": figure, "panel": curve.panel, "traffic": traffic}
    sat_model = saturation_load(traffic=traffic, pab=pab, **config)
    per_mu = IPP(1.0, config["sigma1"], config["sigma2"]).mean_rate
    grid = sat_model * np.linspace(0.02, 1.0, n_model) ** 0.7
    grid[-1] = sat_model * (1 - 1e-6)
    rows = [dict(meta, mu1=m, **{"mean rate": m * per_mu}, **_model_row(config, m, traffic, pab)) for m in grid]
    model = pd.DataFrame(rows)
    out = {"model": model, "sat_model": sat_model, "sat_sim": np.nan, "points": None, "config": config, **meta}
    if not simulate:
        return out
    sat_sim = sim_saturation(config, traffic, steps=sat_steps, messages=max(messages // 2, 1000),
                             warmup=max(warmup // 2, 500), seed=seed, injection_vcs=injection_vcs)
    fr = sorted(set(float(f) for f in fractions) | set(ERROR_FRACTIONS))
    loads = [f * sat_sim for f in fr]
    kws = [sim_kwargs(config, m, traffic, messages=messages, warmup=warmup, seed=seed, injection_vcs=injection_vcs)
           for m in loads]
    sims = run_sweep(kws, jobs=jobs, progress=False, cache=True)
    prow = []
    for f, m, s in zip(fr, loads, sims):
        row = dict(meta, fraction=f, mu1=m, **{"mean rate": m * per_mu}, **_model_row(config, m, traffic, pab))
        row.update({"sim latency": s.latency, "sim latency CI": s.latency_ci,
                    "sim network latency": s.network_latency, "sim source wait": s.source_wait,
                    "sim multiplexing": s.multiplexing, "sim saturated": s.saturated,
                    "sim throughput": s.throughput, "sim mean hops": s.mean_hops})
        prow.append(row)
    points = pd.DataFrame(prow)
    with np.errstate(invalid="ignore", divide="ignore"):
        points["rel. error"] = (points["model latency"] - points["sim latency"]) / points["sim latency"]
    out.update(points=points, sat_sim=sat_sim)
    return out


def run_figure(number: int, traffic: str = "ipp", **kwargs) -> list[dict]:
    """:func:`run_curve` for both panels of figure ``number``."""
    return [run_curve(number, c, traffic, **kwargs) for c in FIGURES[number].curves]


def run_all(figures: Sequence[int] = (1, 2), traffics: Sequence[str] = ("ipp",), **kwargs) -> list[dict]:
    """:func:`run_curve` for every panel of ``figures`` under every traffic in ``traffics``."""
    return [run_curve(n, c, tr, **kwargs) for tr in traffics for n, c in curves(figures)]


def concat(runs: list[dict], key: str):
    """One table from the ``key`` frames (``"model"`` or ``"points"``) of several runs."""
    import pandas as pd

    frames = [r[key] for r in runs if r.get(key) is not None]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def error_table(runs: list[dict], fractions: Sequence[float] = ERROR_FRACTIONS):
    """For each curve: relative error of the model at ``fractions`` of the simulated saturation load,
    and the saturation loads of model and simulation (``mu1``, messages/node/cycle).

    The relative error is ``(model - sim)/sim``; ``inf`` where the model is
    already saturated, ``nan`` where the simulation is.
    """
    import pandas as pd

    rows = []
    for r in runs:
        row = {"figure": r["figure"], "panel": r["panel"], "traffic": r["traffic"]}
        pts = r.get("points")
        for f in fractions:
            val = np.nan
            if pts is not None:
                sel = pts[np.isclose(pts["fraction"], f)]
                if len(sel):
                    s = sel.iloc[0]
                    if s["sim saturated"]:
                        val = np.nan
                    elif s["model saturated"]:
                        val = np.inf
                    else:
                        val = float(s["rel. error"])
            row[f"err @{int(round(100 * f))}%"] = val
        row["sat. model (mu1)"] = r["sat_model"]
        row["sat. sim (mu1)"] = r["sat_sim"]
        row["sat. model / sim"] = r["sat_model"] / r["sat_sim"] if np.isfinite(r["sat_sim"]) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def fitted_parameters_table(figures: Sequence[int] = (1, 2), mu1: float = 1.0):
    """The channel MMPP (eqs. 13-18) of every curve, from the general Heffes-Lucantoni fit.

    With IPP sources the fitted ``delta1, delta2`` do not depend on ``mu1``
    and ``lambda1, lambda2`` are proportional to it; the table lists
    ``lambda_i / mu1``.  ``closed-form diff`` is the largest relative
    difference between the general fit and the closed form for superposed
    sources.
    """
    import pandas as pd

    rows = []
    for n, c in curves(figures):
        cfg = c.config
        p = Params(mu1=mu1, fit="hl", **cfg)
        gen = channel_process(p).mmpp
        closed = channel_process(Params(mu1=mu1, fit="closed", **cfg)).mmpp
        g = np.array([gen.sigma1, gen.sigma2, gen.mu1, gen.mu2])
        cl = np.array([closed.sigma1, closed.sigma2, closed.mu1, closed.mu2])
        src = p.source_ipp
        rows.append({
            "figure": n, "panel": c.panel, "k": cfg["k"], "V": cfg["V"], "M": cfg["M"],
            "sigma1": cfg["sigma1"], "sigma2": cfg["sigma2"], "n_s": p.n_s,
            "lambda_s / mu1": src.mean_rate / mu1,
            "delta1": gen.sigma1, "delta2": gen.sigma2,
            "lambda1 / mu1": gen.mu1 / mu1, "lambda2 / mu1": gen.mu2 / mu1,
            "IDC(inf) source / mu1 slope": (src.idc_inf() - 1) / mu1,
            "closed-form diff": float(np.max(np.abs(g - cl) / np.abs(cl))),
        })
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# Plots
# ----------------------------------------------------------------------------
def _ylim(runs):
    z = []
    for r in runs:
        m = r["model"]
        z.append(float(m["model latency"].iloc[0]))
    return 0, 5.0 * max(z)


def plot_figure(runs: list[dict], title: str = ""):
    """Latency vs ``mu1``, one subplot per panel in ``runs``.

    Lines: model; markers with 95 % error bars: simulation; dashed / dotted
    vertical lines: saturation load of the model / the simulation.  With
    both traffics in ``runs`` (IPP and Poisson) each gets its own colour.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from ..core.plotting import COLORS, use_style

    use_style()
    panels = sorted({(r["figure"], r["panel"]) for r in runs})
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    order = {"ipp": 0, "poisson": 1}
    names = {"ipp": "IPP", "poisson": "Poisson"}
    for ax, key in zip(axes[0], panels):
        mine = sorted([r for r in runs if (r["figure"], r["panel"]) == key], key=lambda r: order[r["traffic"]])
        for r in mine:
            col = COLORS[order[r["traffic"]]]
            name = names[r["traffic"]]
            m, pts = r["model"], r["points"]
            ax.plot(m["mu1"], m["model latency"], "-", color=col, label=f"{name} model")
            ax.axvline(r["sat_model"], color=col, ls="--", lw=0.8)
            if pts is not None:
                ok = ~pts["sim saturated"].astype(bool)
                ax.errorbar(pts["mu1"][ok], pts["sim latency"][ok], yerr=pts["sim latency CI"][ok],
                            fmt="o" if r["traffic"] == "ipp" else "s", mfc="none", color=col, capsize=2, ms=5,
                            label=f"{name} simulation")
                ax.axvline(r["sat_sim"], color=col, ls=":", lw=0.8)
        c = mine[0]["config"]
        ax.set(xlabel=r"$\mu_1$, on-state rate [messages/node/cycle]", ylabel="mean message latency [cycles]",
               title=f"({key[1]}) $\\sigma_1$={c['sigma1']}, $\\sigma_2$={c['sigma2']}")
        ax.set_ylim(*_ylim(mine))
        ax.set_xlim(0, None)
    handles, labels = axes[0][0].get_legend_handles_labels()
    handles += [Line2D([], [], color="0.4", ls="--", lw=0.8), Line2D([], [], color="0.4", ls=":", lw=0.8)]
    labels += ["saturation, model", "saturation, simulation"]
    axes[0][0].legend(handles, labels, fontsize=8, loc="upper left")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------
# Traffic checks (page 01) and the burstiness scan (page 03)
# ----------------------------------------------------------------------------
def moment_check_table(t_values: Sequence[float] = (0.1, 1.0, 10.0, 100.0), figures: Sequence[int] = (1, 2),
                       mu1: float = 0.01):
    """Derived moments (lambdified from the PGF derivation) vs the numerical PGF (matrix exponential).

    One row per (source, window ``t``): ``E N``, ``IDC``, third central moment
    from both routes and the largest relative difference.
    """
    import pandas as pd

    rows = []
    sources = [(f"Fig. {n}{c.panel}", IPP(mu1, c.config["sigma1"], c.config["sigma2"])) for n, c in curves(figures)]
    sources.append(("MMPP(0.9, 0.1, 0.2, 0.8)", MMPP2(0.9, 0.1, 0.2, 0.8)))
    for name, p in sources:
        for tv in t_values:
            m1, f2, f3 = moments.factorial_moments_expm(p.Q, p.Lambda, tv)
            var = f2 + m1 - m1**2
            m3 = f3 + 3 * f2 + m1 - 3 * m1 * (f2 + m1) + 2 * m1**3
            sym = [float(moments.mean_count(p, tv)), float(moments.idc(p, tv)), float(moments.third_central_moment(p, tv))]
            ref = [m1, var / m1, m3]
            rows.append({"source": name, "t [cycles]": tv, "E N(t)": sym[0], "IDC(t)": sym[1], "m3(t)": sym[2],
                         "max rel. diff vs expm": max(abs(a - b) / abs(b) for a, b in zip(sym, ref))})
    return pd.DataFrame(rows)


def mmpp_g1_check_table(rhos: Sequence[float] = (0.3, 0.6, 0.9), customers: int = 400_000, seed: int = 1,
                        mu1: float = 0.004):
    """Eq. (19) against references, for the channel MMPP of Fig. 1a.

    * MMPP/M/1: eq. (19) with ``G`` in closed form and by uniformisation vs the
      exact level-phase CTMC;
    * MMPP/(D+M)/1 (the model's service ``M + d + Exp``): eq. (19) vs a direct
      simulation (``customers`` arrivals, 95 % CI by batch means).
    Service times are scaled so that ``rho = lambda * tbar`` takes the values ``rhos``.
    """
    import pandas as pd


    chan = channel_process(Params(mu1=mu1, **FIGURES[1].curves[0].config)).mmpp
    lam = chan.mean_rate
    rows = []
    for rho in rhos:
        h = rho / lam
        exact = Q.mmpp_m1_wait_exact(chan, h)
        rows.append({"queue": "MMPP/M/1", "rho": rho, "eq. 19 (closed G)": Q.mmpp_g1_wait(chan, Q.Exponential(h), method="closed"),
                     "eq. 19 (uniformisation)": Q.mmpp_g1_wait(chan, Q.Exponential(h), method="uniformization"),
                     "reference": exact, "reference CI": 0.0, "reference kind": "exact CTMC"})
        svc = Q.ConstantPlusExponential(0.8 * h, 0.2 * h)
        sim, ci = simulate_mmpp_g1(chan, svc, customers=customers, seed=seed)
        rows.append({"queue": "MMPP/(D+M)/1", "rho": rho, "eq. 19 (closed G)": Q.mmpp_g1_wait(chan, svc, method="closed"),
                     "eq. 19 (uniformisation)": Q.mmpp_g1_wait(chan, svc, method="uniformization"),
                     "reference": sim, "reference CI": ci, "reference kind": "simulation"})
    t = pd.DataFrame(rows)
    t["rel. diff"] = (t["eq. 19 (closed G)"] - t["reference"]) / t["reference"]
    return t


def plot_idc(figures: Sequence[int] = (1, 2), mu1: float = 0.005, t_max: float = 200.0):
    """``IDC(t)`` (eq. 10) of each figure's IPP source and of the fitted channel MMPP (they coincide)."""
    import matplotlib.pyplot as plt

    from ..core.plotting import COLORS, use_style

    use_style()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    tv = np.geomspace(0.05, t_max, 200)
    for i, (n, c) in enumerate(curves(figures)):
        p = Params(mu1=mu1, **c.config)
        ax.plot(tv, p.source_ipp.idc(tv), "-", color=COLORS[i], label=f"Fig. {n}{c.panel} source")
        ax.plot(tv[::12], channel_process(p).mmpp.idc(tv[::12]), "o", mfc="none", color=COLORS[i],
                label=f"Fig. {n}{c.panel} channel fit")
    ax.set(xscale="log", xlabel="window t [cycles]", ylabel="IDC(t) = Var N(t) / E N(t)",
           title=f"Index of dispersion, mu1 = {mu1} messages/node/cycle")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def burstiness_scan(config: dict, mu1_values: Sequence[float], scales: Sequence[float] = (1, 0.1, 0.01, 0.001),
                    pab: str = "printed"):
    """The model's latency when the switching rates are multiplied by ``scale`` (same mean rate, longer bursts).

    Returns a DataFrame (``scale``, ``mu1``, ``mean rate``, ``model latency``, ``source wait``,
    ``blocking``, ``IDC(inf)`` of the source) and adds the Poisson model as ``scale = 0``.
    """
    import pandas as pd

    rows = []
    for sc in list(scales) + [0]:
        for m in mu1_values:
            cfg = dict(config)
            traffic = "ipp"
            if sc == 0:
                traffic = "poisson"
            else:
                cfg["sigma1"], cfg["sigma2"] = config["sigma1"] * sc, config["sigma2"] * sc
            r = solve(mu1=float(m), traffic=traffic, pab=pab, **cfg)
            src = IPP(float(m), cfg["sigma1"], cfg["sigma2"])
            rows.append({"scale": sc, "mu1": m, "mean rate": src.mean_rate, "model latency": r.latency,
                         "source wait": r.source_wait, "blocking": r.blocking,
                         "IDC(inf) source": src.idc_inf() if traffic == "ipp" else 1.0})
    return pd.DataFrame(rows)


def plot_burstiness_scan(frame, sims: dict | None = None, title: str = ""):
    """Latency vs mean rate for each switching-rate scale (0 = Poisson); optional simulated points
    ``sims = {scale: DataFrame(mean rate, sim latency, sim latency CI)}``."""
    import matplotlib.pyplot as plt

    from ..core.plotting import COLORS, use_style

    use_style()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, (sc, g) in enumerate(frame.groupby("scale", sort=False)):
        name = "Poisson" if sc == 0 else f"IPP, sigma x {sc:g}"
        ax.plot(g["mean rate"], g["model latency"], "-", color=COLORS[i % len(COLORS)], label=f"{name} model")
        if sims and sc in sims:
            s = sims[sc]
            ok = ~s["sim saturated"].astype(bool)
            ax.errorbar(s["mean rate"][ok], s["sim latency"][ok], yerr=s["sim latency CI"][ok], fmt="o", mfc="none",
                        color=COLORS[i % len(COLORS)], capsize=2, ms=5, label=f"{name} simulation")
    finite = frame["model latency"][np.isfinite(frame["model latency"])]
    ax.set_ylim(0, min(float(finite.max()) * 1.1, 6 * float(finite.min())))
    ax.set(xlabel=r"mean rate $\lambda_s$ [messages/node/cycle]", ylabel="mean message latency [cycles]")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def simulate_scan(config: dict, scale: float, mu1_values: Sequence[float], *, messages: int = SIM_MESSAGES,
                  warmup: int = SIM_WARMUP, seed: int = 1, jobs: int = 1):
    """Simulated latency for the source with switching rates multiplied by ``scale`` (0: Poisson)."""
    import pandas as pd

    from ..sim.sweep import run_sweep

    cfg = dict(config)
    traffic = "poisson" if scale == 0 else "ipp"
    if scale:
        cfg["sigma1"], cfg["sigma2"] = config["sigma1"] * scale, config["sigma2"] * scale
    kws = [sim_kwargs(cfg, float(m), traffic, messages=messages, warmup=warmup, seed=seed) for m in mu1_values]
    sims = run_sweep(kws, jobs=jobs, progress=False, cache=True)
    per_mu = IPP(1.0, cfg["sigma1"], cfg["sigma2"]).mean_rate
    return pd.DataFrame({"scale": scale, "mu1": list(mu1_values), "mean rate": [m * per_mu for m in mu1_values],
                         "sim latency": [s.latency for s in sims], "sim latency CI": [s.latency_ci for s in sims],
                         "sim saturated": [s.saturated for s in sims]})
