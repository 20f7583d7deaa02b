"""The paper's experiments: figures, the model-to-simulator translation, runs and tables.

Figs. 1 and 2 of Min, Ferguson & Ould-Khaoua (2001) plot the mean message
latency (cycles) against ``mu1``, the on-state rate of the IPP sources
(messages/node/cycle; the mean rate is ``lambda_s = mu1 sigma2 / (sigma1 +
sigma2)``, eq. 9), on bidirectional ``k x k`` tori with Duato's fully
adaptive routing:

* Fig. 1: ``k = 16``, ``V = 3``, ``M = 48`` flits, (a) ``(sigma1, sigma2) = (0.2, 0.8)``,
  (b) ``(0.6, 0.6)``;
* Fig. 2: ``k = 24``, ``V = 5``, ``M = 32`` flits, (a) ``(0.09, 0.09)``, (b) ``(0.05, 0.8)``.

:data:`FIGURES` holds them as :class:`models.core.experiment.Figure` objects
(one :class:`~models.core.experiment.Curve` per panel, label ``"Fig. 1(a)"``,
IPP sources).  Every curve is run for the IPP sources of the paper and,
beyond the paper, for Poisson sources of the same mean rate
(:func:`with_traffic`: the traffic is in the curve's ``model`` and its
``setup``).  A run (:func:`run_curve`, :func:`run_figure`, :func:`run_all`,
all on :func:`models.core.experiment.run_curve`) is

* the model on a grid up to its saturation point
  (:func:`models.torus_ipp.solve.saturation_load`; grid :func:`model_grid`);
* the simulator's saturation point, by :func:`models.core.saturation.find_saturation`
  on ``mu1`` with the simulator's ``saturated`` verdict (:func:`sim_saturation`);
* simulation and model at fixed fractions (25, 50, 75, 90 % and the extra
  plotting fractions) of the simulated saturation load.

Simulation (:mod:`models.sim.wormhole`, through
:func:`models.sim.sweep.run_sweep`; :func:`sim_kwargs` is the translation):
bidirectional torus, routing ``"duato"`` (``V - 2`` adaptive VCs, 2 escape
VCs with dimension-order dateline routing), fixed message length, the
model's own IPP object as the source, **one injection VC per node**
(``injection_vcs=1``, the curves' ``sim``): the paper models the injection
channel as one MMPP/G/1 server whose arrival rate is the node's whole rate
(Sec. 2.4), not ``lambda/V`` as in the Poisson models of the other
chapters.  Results are cached on disk.

Tables: :func:`panel_error_table` (the model's relative error at 25/50/75/90 %
of the simulated saturation load and both saturation loads, from
:func:`models.core.experiment.error_table`), :func:`model_curves_table`,
:func:`sim_points_table`, :func:`fitted_parameters_table` (the channel MMPP
of each curve), :func:`moment_check_table`, :func:`mmpp_g1_check_table` and
the burstiness scan (:func:`burstiness_scan`, :func:`simulate_scan`).
Plots are in :mod:`models.torus_ipp.plots`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ..core import experiment as core
from ..core.experiment import ERROR_FRACTIONS, Curve, CurveRun, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.validate import require, require_choice
from ..queueing import mmpp_g1 as Q
from ..sim.mmpp_g1 import simulate_mmpp_g1
from ..sim.sweep import run_sweep
from ..traffic import moments
from ..traffic.process import IPP, MMPP2
from .solve import LOAD_UNIT, Params, channel_process, saturation_bound, saturation_load, solve

#: Default extra fractions for the plotted simulation points.
PLOT_FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9, 0.95)
#: Full-profile simulation run lengths (messages).
SIM_MESSAGES = 100_000
SIM_WARMUP = 20_000
#: The traffics a curve is run with, and their names in plots.
TRAFFICS = {"ipp": "IPP", "poisson": "Poisson"}
#: The simulator set-up of each traffic (DESIGN.md: set-ups are named).
SETUPS = {
    "ipp": "IPP sources, one injection VC",
    "poisson": "Poisson sources of the same mean rate, one injection VC",
}
#: The network keys of a curve's model (the rest are the traffic and the readings).
NETWORK = ("k", "V", "M", "sigma1", "sigma2")


def _fractions(fractions: Sequence[float]) -> tuple:
    """The simulated fractions: ``fractions`` and :data:`ERROR_FRACTIONS`, sorted, once each."""
    return tuple(sorted(set(float(f) for f in fractions) | set(ERROR_FRACTIONS)))


def _panel(figure: int, panel: str, k: int, V: int, M: int, sigma1: float, sigma2: float) -> Curve:
    return Curve(label=f"Fig. {figure}({panel})", model=dict(k=k, V=V, M=M, sigma1=sigma1, sigma2=sigma2, traffic="ipp"),
                 sim=dict(injection_vcs=1), setup=SETUPS["ipp"], loads=_fractions(PLOT_FRACTIONS), fractions_of="sim")


def _figure(number: int, title: str, *curves: Curve) -> Figure:
    return Figure(label=f"fig-torus_ipp-fig{number}", title=title, curves=curves, x_label="on-state rate mu1",
                  x_unit=LOAD_UNIT)


FIGURES: dict[int, Figure] = {
    1: _figure(1, "16x16 torus, V = 3, M = 48 flits",
               _panel(1, "a", 16, 3, 48, 0.2, 0.8), _panel(1, "b", 16, 3, 48, 0.6, 0.6)),
    2: _figure(2, "24x24 torus, V = 5, M = 32 flits",
               _panel(2, "a", 24, 5, 32, 0.09, 0.09), _panel(2, "b", 24, 5, 32, 0.05, 0.8)),
}

_PLACES = {c.label: (n, c.label[-2]) for n, f in FIGURES.items() for c in f.curves}


def describe(curve: Curve) -> dict:
    """``figure``, ``panel`` and ``traffic`` of a curve (figure 0 and the label as panel for one not in :data:`FIGURES`)."""
    figure, panel = _PLACES.get(curve.label, (0, curve.label))
    return {"figure": figure, "panel": panel, "traffic": curve.model.get("traffic", "ipp")}


def network(curve: Curve) -> dict:
    """The network and source of a curve: ``k, V, M, sigma1, sigma2``."""
    return {key: curve.model[key] for key in NETWORK}


def with_traffic(curve: Curve, traffic: str) -> Curve:
    """The same curve with ``'ipp'`` (the paper) or ``'poisson'`` sources of the same mean rate."""
    require_choice("traffic", traffic, list(TRAFFICS))
    return curve.replace(model=dict(curve.model, traffic=traffic), setup=SETUPS[traffic])


def curves(figures: Sequence[int] = (1, 2), traffics: Sequence[str] = ("ipp",)) -> list[Curve]:
    """The curves of ``figures`` under every traffic of ``traffics`` (traffic outermost)."""
    figs = [FIGURES[require_choice("figure", n, list(FIGURES))] for n in figures]
    return [with_traffic(c, tr) for tr in traffics for f in figs for c in f.curves]


# ----------------------------------------------------------------------------
# The model-to-simulator translation
# ----------------------------------------------------------------------------
def _wormhole():
    from ..sim import wormhole  # numba kernels: loaded only when something is simulated

    return wormhole


def sim_traffic(config: dict, mu1: float, traffic: str = "ipp"):
    """The simulator's source for a model configuration: its IPP, or Poisson of the same mean.

    Returns ``(traffic, rate)`` for :func:`models.sim.wormhole.simulate`
    (``rate`` is ``None`` with an IPP source); the model and the simulator share
    one process object, :class:`models.traffic.process.MMPP2`.
    """
    require_choice("traffic", traffic, list(TRAFFICS))
    src = IPP(mu1, config["sigma1"], config["sigma2"])
    if traffic == "ipp":
        return src, None
    return "poisson", src.mean_rate


def sim_kwargs(config: dict, mu1: float, traffic: str | None = None, *, messages: int = SIM_MESSAGES,
               warmup_messages: int = SIM_WARMUP, seed: int = 1, injection_vcs: int | None = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for one point.

    ``config`` is a curve's model (``k, V, M, sigma1, sigma2``, optionally
    ``traffic``); ``traffic`` overrides its traffic (default ``'ipp'``).
    """
    tr, rate = sim_traffic(config, mu1, traffic or config.get("traffic", "ipp"))
    return dict(topology=_wormhole().Torus((config["k"], config["k"]), bidirectional=True), routing="duato",
                vcs=config["V"], message_length=int(config["M"]), rate=rate, traffic=tr,
                messages=int(messages), warmup_messages=int(warmup_messages), seed=int(seed),
                injection_vcs=injection_vcs)


def sim_saturation(curve: Curve, *, steps: int = 7, messages: int = SIM_MESSAGES // 2,
                   warmup_messages: int = SIM_WARMUP // 2, seed: int = 1) -> Saturation:
    """Simulated saturation load (``mu1``, messages/node/cycle) by bisection on the simulator's verdict.

    :func:`~models.core.saturation.find_saturation` on ``[0, mu1*]`` with
    ``mu1*`` the load at which the channels would carry ``lambda_c (M + d) =
    1`` (:func:`~models.torus_ipp.solve.saturation_bound`, above the physical
    limit of a channel's bandwidth); ``steps`` halvings (``rtol = 0``) give a
    resolution of ``mu1* / 2^steps``.  The estimate is the final bracket's
    midpoint, ``.load``.
    """
    require("steps", steps, 1, integer=True, unit="bisection steps")
    simulate = _wormhole().simulate

    def saturated(mu1: float) -> bool:
        kw = sim_kwargs(curve.model, mu1, messages=messages, warmup_messages=warmup_messages, seed=seed, **curve.sim)
        return simulate(**kw, cache=True).saturated

    return find_saturation(saturated, 0.0, saturation_bound(**curve.model), rtol=0, max_steps=int(steps))


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
#: The model's columns of a run (``model(curve, mu1)``), in cycles.
MODEL_COLUMNS = ("latency", "network latency", "source wait", "blocking", "multiplexing", "saturated")
#: The simulator's columns of a run (``sim(curve, loads)``), in cycles, messages/node/cycle and hops.
SIM_COLUMNS = ("latency", "latency CI", "network latency", "source wait", "multiplexing", "saturated", "throughput",
               "mean hops")


def model_point(curve: Curve, mu1: float) -> dict:
    """The model of ``curve`` at ``mu1``: the :data:`MODEL_COLUMNS`."""
    r = solve(float(mu1), **curve.model)
    return {"latency": r.latency, "network latency": r.network_latency, "source wait": r.source_wait,
            "blocking": r.blocking, "multiplexing": r.multiplexing, "saturated": r.saturated}


def model_grid(saturation: float, points: int) -> np.ndarray:
    """The drawn model loads: ``saturation * linspace(0.02, 1, points) ** 0.7``, the last just below saturation."""
    grid = saturation * np.linspace(0.02, 1.0, points) ** 0.7
    grid[-1] = saturation * (1 - 1e-6)
    return grid


def _functions(*, simulate: bool, messages: int, warmup_messages: int, sat_steps: int, seed: int,
               model_points: int, jobs: int) -> dict:
    """The functions of :func:`models.core.experiment.run_curve` for this chapter."""

    def sim(curve: Curve, loads: list) -> list:
        kws = [sim_kwargs(curve.model, m, messages=messages, warmup_messages=warmup_messages, seed=seed, **curve.sim)
               for m in loads]
        return [{"latency": s.latency, "latency CI": s.latency_ci, "network latency": s.network_latency,
                 "source wait": s.source_wait, "multiplexing": s.multiplexing, "saturated": s.saturated,
                 "throughput": s.throughput, "mean hops": s.mean_hops}
                for s in run_sweep(kws, jobs=jobs, progress=False, cache=True)]

    def sim_sat(curve: Curve, model_saturation: float) -> Saturation:
        return sim_saturation(curve, steps=sat_steps, messages=max(messages // 2, 1000),
                              warmup_messages=max(warmup_messages // 2, 500), seed=seed)

    return dict(model=model_point, sim=sim if simulate else None,
                model_saturation=lambda curve: saturation_load(**curve.model), sim_saturation=sim_sat,
                line=lambda curve, sat, loads: model_grid(sat, model_points))


def _prepare(curve: Curve, traffic: str | None, fractions: Sequence[float], pab: str, simulate: bool) -> Curve:
    if traffic is not None:
        curve = with_traffic(curve, traffic)
    return curve.replace(model=dict(curve.model, pab=pab), loads=_fractions(fractions) if simulate else ())


def run_curve(curve: Curve, traffic: str | None = None, *, simulate: bool = True,
              fractions: Sequence[float] = PLOT_FRACTIONS, messages: int = SIM_MESSAGES,
              warmup_messages: int = SIM_WARMUP, sat_steps: int = 7, seed: int = 1, model_points: int = 40,
              pab: str = "printed", jobs: int = 1) -> CurveRun:
    """Model and simulation of one curve (:func:`models.core.experiment.run_curve`).

    ``traffic`` (``'ipp'``/``'poisson'``, default the curve's own) and ``pab``
    (reading of eq. 26) set the model; ``fractions`` (with
    :data:`ERROR_FRACTIONS`) of the simulated saturation load are simulated
    with ``messages`` measured and ``warmup_messages`` discarded messages per
    point (half as many, at least 1000 / 500, per probe of the ``sat_steps``
    bisection); the model is drawn on ``model_points`` loads up to its
    saturation point.  Loads are ``mu1`` (messages/node/cycle), times cycles.
    """
    fns = _functions(simulate=simulate, messages=messages, warmup_messages=warmup_messages, sat_steps=sat_steps,
                     seed=seed, model_points=model_points, jobs=jobs)
    return core.run_curve(_prepare(curve, traffic, fractions, pab, simulate), **fns)


def run_figure(number: int, traffic: str = "ipp", *, simulate: bool = True,
               fractions: Sequence[float] = PLOT_FRACTIONS, messages: int = SIM_MESSAGES,
               warmup_messages: int = SIM_WARMUP, sat_steps: int = 7, seed: int = 1, model_points: int = 40,
               pab: str = "printed", jobs: int = 1) -> tuple:
    """:func:`run_curve` for both panels of figure ``number`` (:func:`models.core.experiment.run_figure`)."""
    fig = FIGURES[require_choice("figure", number, list(FIGURES))]
    prepared = Figure(label=fig.label, title=fig.title, x_label=fig.x_label, x_unit=fig.x_unit,
                      curves=tuple(_prepare(c, traffic, fractions, pab, simulate) for c in fig.curves))
    fns = _functions(simulate=simulate, messages=messages, warmup_messages=warmup_messages, sat_steps=sat_steps,
                     seed=seed, model_points=model_points, jobs=jobs)
    return core.run_figure(prepared, **fns)


def run_all(figures: Sequence[int] = (1, 2), traffics: Sequence[str] = ("ipp",), **kwargs) -> list[CurveRun]:
    """:func:`run_figure` for every figure of ``figures`` under every traffic in ``traffics`` (traffic outermost)."""
    return [run for tr in traffics for n in figures for run in run_figure(n, tr, **kwargs)]


# ----------------------------------------------------------------------------
# Tables of runs
# ----------------------------------------------------------------------------
def _head(run: CurveRun, loads) -> dict:
    """``figure, panel, traffic, mu1, mean rate`` columns for ``loads`` of ``run``."""
    per_mu = IPP(1.0, run.curve.model["sigma1"], run.curve.model["sigma2"]).mean_rate
    loads = np.asarray(loads, dtype=float)
    return {**describe(run.curve), "mu1": loads, "mean rate": loads * per_mu}


def model_curves_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The drawn model curves (the grid of :func:`model_grid`) of every run.

    Columns: ``figure, panel, traffic, mu1, mean rate`` (messages/node/cycle),
    ``model latency, model network latency, model source wait, model
    blocking, model multiplexing, model saturated`` (cycles).
    """
    frames = []
    for run in runs:
        m = run.model[run.model["fraction"].isna()]
        frame = pd.DataFrame(_head(run, m["load"]))
        for c in MODEL_COLUMNS:
            frame[f"model {c}"] = m[c].to_numpy()
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def sim_points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The simulated points of every run with the model at the same loads.

    Columns: ``figure, panel, traffic, fraction`` (of the simulated saturation
    load), ``mu1, mean rate``, the ``model ...`` columns, ``sim latency, sim
    latency CI`` (95 % half width), ``sim network latency, sim source wait,
    sim multiplexing, sim saturated, sim throughput, sim mean hops`` and
    ``rel. error`` ``(model - sim) / sim`` of the latency.
    """
    frames = []
    for run in runs:
        pts = run.points()
        if pts.empty:
            continue
        frame = pd.DataFrame({**describe(run.curve), "fraction": pts["fraction"].to_numpy()})
        for key, value in _head(run, pts["load"]).items():
            frame[key] = value
        for c in MODEL_COLUMNS:
            frame[f"model {c}"] = pts[f"model {c}"].to_numpy()
        for c in SIM_COLUMNS:
            frame[f"sim {c}"] = pts[f"sim {c}"].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            frame["rel. error"] = (frame["model latency"] - frame["sim latency"]) / frame["sim latency"]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def panel_error_table(runs: Sequence[CurveRun], fractions: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """:func:`models.core.experiment.error_table` of ``runs`` in the chapter's columns.

    One row per curve: ``figure, panel, traffic``; ``err @<p>%``, the
    model's relative error ``(model - sim)/sim`` (a fraction, not percent) at
    ``fractions`` of the simulated saturation load (``inf`` where the model
    is already saturated, ``nan`` where the simulation is); ``sat. model
    (mu1)``, ``sat. sim (mu1)`` (messages/node/cycle) and their ratio ``sat.
    model / sim``.
    """
    t = core.error_table(runs, fractions)
    errs = [c for c in t.columns if c.startswith("err @")]  # one per fraction, in order, percent
    out = pd.DataFrame([describe(run.curve) for run in runs])
    for f, col in zip(fractions, errs):
        out[f"err @{int(round(100 * f))}%"] = t[col].to_numpy(dtype=float) / 100.0
    out["sat. model (mu1)"] = t["model saturation"].to_numpy(dtype=float)
    out["sat. sim (mu1)"] = t["sim saturation"].to_numpy(dtype=float)
    out["sat. model / sim"] = t["saturation ratio"].to_numpy(dtype=float)
    return out


# ----------------------------------------------------------------------------
# The channel fit (page 01)
# ----------------------------------------------------------------------------
def fitted_parameters_table(figures: Sequence[int] = (1, 2), mu1: float = 1.0) -> pd.DataFrame:
    """The channel MMPP (eqs. 13-18) of every curve, from the general Heffes-Lucantoni fit.

    With IPP sources the fitted ``delta1, delta2`` do not depend on ``mu1``
    and ``lambda1, lambda2`` are proportional to it; the table lists
    ``lambda_i / mu1``.  ``closed-form diff`` is the largest relative
    difference between the general fit and the closed form for superposed
    sources.
    """
    rows = []
    for c in curves(figures):
        cfg = network(c)
        p = Params(mu1=mu1, fit="hl", **cfg)
        gen = channel_process(p).mmpp
        closed = channel_process(Params(mu1=mu1, fit="closed", **cfg)).mmpp
        g = np.array([gen.sigma1, gen.sigma2, gen.mu1, gen.mu2])
        cl = np.array([closed.sigma1, closed.sigma2, closed.mu1, closed.mu2])
        src = p.source_ipp
        where = describe(c)
        rows.append({
            "figure": where["figure"], "panel": where["panel"], "k": cfg["k"], "V": cfg["V"], "M": cfg["M"],
            "sigma1": cfg["sigma1"], "sigma2": cfg["sigma2"], "n_s": p.n_s,
            "lambda_s / mu1": src.mean_rate / mu1,
            "delta1": gen.sigma1, "delta2": gen.sigma2,
            "lambda1 / mu1": gen.mu1 / mu1, "lambda2 / mu1": gen.mu2 / mu1,
            "IDC(inf) source / mu1 slope": (src.idc_inf() - 1) / mu1,
            "closed-form diff": float(np.max(np.abs(g - cl) / np.abs(cl))),
        })
    return pd.DataFrame(rows)


def moment_check_table(t_values: Sequence[float] = (0.1, 1.0, 10.0, 100.0), figures: Sequence[int] = (1, 2),
                       mu1: float = 0.01) -> pd.DataFrame:
    """Derived moments (lambdified from the PGF derivation) vs the numerical PGF (matrix exponential).

    One row per (source, window ``t``): ``E N``, ``IDC``, third central moment
    from both routes and the largest relative difference.
    """
    rows = []
    sources = []
    for c in curves(figures):
        where = describe(c)
        sources.append((f"Fig. {where['figure']}{where['panel']}", IPP(mu1, c.model["sigma1"], c.model["sigma2"])))
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
                        mu1: float = 0.004) -> pd.DataFrame:
    """Eq. (19) against references, for the channel MMPP of Fig. 1a.

    * MMPP/M/1: eq. (19) with ``G`` in closed form and by uniformisation vs the
      exact level-phase CTMC;
    * MMPP/(D+M)/1 (the model's service ``M + d + Exp``): eq. (19) vs a direct
      simulation (``customers`` arrivals, 95 % CI by batch means).
    Service times are scaled so that ``rho = lambda * tbar`` takes the values ``rhos``.
    """
    chan = channel_process(Params(mu1=mu1, **network(FIGURES[1].curves[0]))).mmpp
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


# ----------------------------------------------------------------------------
# The burstiness scan (page 03)
# ----------------------------------------------------------------------------
def _scaled(curve: Curve, scale: float) -> tuple[dict, str]:
    """The network of ``curve`` with its switching rates times ``scale`` and the traffic (scale 0: Poisson)."""
    cfg = network(curve)
    if scale == 0:
        return cfg, "poisson"
    cfg["sigma1"], cfg["sigma2"] = cfg["sigma1"] * scale, cfg["sigma2"] * scale
    return cfg, "ipp"


def burstiness_scan(curve: Curve, mu1_values: Sequence[float], scales: Sequence[float] = (1, 0.1, 0.01, 0.001),
                    pab: str = "printed") -> pd.DataFrame:
    """The model's latency when the switching rates are multiplied by ``scale`` (same mean rate, longer bursts).

    Returns a DataFrame (``scale``, ``mu1``, ``mean rate``, ``model latency``, ``source wait``,
    ``blocking``, ``IDC(inf)`` of the source) and adds the Poisson model as ``scale = 0``.
    """
    rows = []
    for sc in list(scales) + [0]:
        cfg, traffic = _scaled(curve, sc)
        for m in mu1_values:
            r = solve(float(m), traffic=traffic, pab=pab, **cfg)
            src = IPP(float(m), cfg["sigma1"], cfg["sigma2"])
            rows.append({"scale": sc, "mu1": m, "mean rate": src.mean_rate, "model latency": r.latency,
                         "source wait": r.source_wait, "blocking": r.blocking,
                         "IDC(inf) source": src.idc_inf() if traffic == "ipp" else 1.0})
    return pd.DataFrame(rows)


def simulate_scan(curve: Curve, scale: float, mu1_values: Sequence[float], *, messages: int = SIM_MESSAGES,
                  warmup_messages: int = SIM_WARMUP, seed: int = 1, jobs: int = 1) -> pd.DataFrame:
    """Simulated latency for the source of ``curve`` with switching rates multiplied by ``scale`` (0: Poisson)."""
    cfg, traffic = _scaled(curve, scale)
    kws = [sim_kwargs(cfg, float(m), traffic, messages=messages, warmup_messages=warmup_messages, seed=seed,
                      **curve.sim) for m in mu1_values]
    sims = run_sweep(kws, jobs=jobs, progress=False, cache=True)
    per_mu = IPP(1.0, cfg["sigma1"], cfg["sigma2"]).mean_rate
    return pd.DataFrame({"scale": scale, "mu1": list(mu1_values), "mean rate": [m * per_mu for m in mu1_values],
                         "sim latency": [s.latency for s in sims], "sim latency CI": [s.latency_ci for s in sims],
                         "sim saturated": [s.saturated for s in sims]})
