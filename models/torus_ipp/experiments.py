"""The paper's experiments: figures, the model-to-simulator translation, runs and the analysis tables.

Figs. 1 and 2 of Min, Ferguson & Ould-Khaoua (2001) plot the mean message latency (cycles) against ``mu1``,
the on-state rate of the IPP sources (messages/node/cycle; the mean rate is ``mu1 sigma2 / (sigma1 + sigma2)``,
eq. 9), on bidirectional ``k x k`` tori with Duato's fully adaptive routing: Fig. 1, ``k = 16``, ``V = 3``,
``M = 48`` flits, (a) ``(sigma1, sigma2) = (0.2, 0.8)``, (b) ``(0.6, 0.6)``; Fig. 2, ``k = 24``, ``V = 5``,
``M = 32`` flits, (a) ``(0.09, 0.09)``, (b) ``(0.05, 0.8)``.

:data:`FIGURES` holds them, keyed by label (``"fig-torus_ipp-fig1"``; :func:`paper_figure` by number), one
curve per panel (``"Fig. 1(a)"``, built by :func:`models.torus_ipp.setups.ipp_curve` from a checked
:class:`~models.torus_ipp.setups.IppParams`).  Around a curve vary its **traffic** (:func:`with_traffic`: the
paper's IPP sources or Poisson sources of the same mean rate, model and simulator both) and its **simulator
set-up** (:func:`with_setup`, :data:`models.torus_ipp.setups.SETUPS`); :func:`figure` and :func:`figures_of`
build the paper's figures with them.  :func:`run_figure` runs a figure on
:func:`models.core.experiment.run_curve`: the model on a grid up to its saturation point
(:func:`model_grid`), the simulator's saturation point by bisection of its verdict (:func:`sim_saturation`),
both at fixed fractions of the simulated saturation load.  The simulation is :mod:`models.sim.wormhole`
through the cached sweep of :func:`simulate_curve` (one :class:`~models.core.results.SimPoint` per load),
:func:`sim_kwargs` the translation of one point.

The analysis tables: errors (:func:`panel_error_table`, :func:`errors_by_setup`), where the saturation gap
comes from (:func:`saturation_ratio_table`, :func:`gap_source`), what burstiness costs
(:func:`paired_burstiness_table`, :func:`burstiness_table`, :func:`burstiness_scan`, :func:`simulate_scan`),
the channel loads (:func:`channel_balance_table`), the runs
(:func:`model_curves_table`, :func:`sim_points_table`) and the traffic page's checks
(:func:`fitted_parameters_table`, :func:`fit_match_table`, :func:`moment_check_table`,
:func:`mmpp_g1_check_table`).  The claims are :mod:`models.torus_ipp.claims`, the numbers the pages quote
:mod:`models.torus_ipp.glue`, the plots :mod:`models.torus_ipp.plots`.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.errors import ParameterError
from ..core.criteria import spread_beyond_noise
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.results import SimPoint, ci_column
from ..core.saturation import Saturation, find_saturation
from ..core.setups import BELOW, ERROR_FRACTIONS, Curve, Figure, SimSettings, named_setup
from ..core.validate import require, require_choice
from ..networks.graph import Torus
from ..queueing import mmpp_g1 as Q
from ..sim.mmpp_g1 import simulate_mmpp_g1
from ..sim.sweep import run_sweep
from ..traffic.process import IPP, MMPP2
from .setups import DEFAULT_SETUP, SETTINGS, SETUPS, TRAFFIC, IppParams, ipp_curve
from .solve import LOAD_UNIT, Params, channel_process, saturation_bound, saturation_load, solve

#: The chapter's name, in its figures' labels.
CHAPTER = "torus_ipp"
#: Default extra fractions for the plotted simulation points.
PLOT_FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9, 0.95)
#: The traffics a curve is run with, and their names in plots.
TRAFFICS = dict(zip(TRAFFIC, ("IPP", "Poisson")))
#: The network keys of a curve's model (the rest are the traffic and the readings).
NETWORK = ("k", "V", "M", "sigma1", "sigma2")
#: The column of a simulated latency's 95 % half width.
LATENCY_CI = ci_column("latency")


def _fractions(fractions: Sequence[float]) -> tuple:
    """The simulated fractions: ``fractions`` and :data:`ERROR_FRACTIONS`, sorted, once each."""
    return tuple(sorted(set(float(f) for f in fractions) | set(ERROR_FRACTIONS)))


def _panel(figure: int, panel: str, k: int, V: int, M: int, sigma1: float, sigma2: float) -> Curve:
    return ipp_curve(IppParams(k=k, V=V, M=M, sigma1=sigma1, sigma2=sigma2), DEFAULT_SETUP,
                     label=f"Fig. {figure}({panel})", loads=_fractions(PLOT_FRACTIONS), fractions_of="sim")


def _figure(number: int, title: str, *curves: Curve) -> Figure:
    return Figure(label=f"fig-{CHAPTER}-fig{number}", title=title, curves=curves, x_label="on-state rate mu1",
                  x_unit=LOAD_UNIT)


#: The paper's figures, by label (:func:`paper_figure` by number).
FIGURES: dict[str, Figure] = {f.label: f for f in (
    _figure(1, "16x16 torus, V = 3, M = 48 flits",
            _panel(1, "a", 16, 3, 48, 0.2, 0.8), _panel(1, "b", 16, 3, 48, 0.6, 0.6)),
    _figure(2, "24x24 torus, V = 5, M = 32 flits",
            _panel(2, "a", 24, 5, 32, 0.09, 0.09), _panel(2, "b", 24, 5, 32, 0.05, 0.8)),
)}
#: The paper's figure numbers.
NUMBERS = (1, 2)


def paper_figure(number: int) -> Figure:
    """The paper's Fig. ``number`` (1 or 2) of :data:`FIGURES`."""
    return FIGURES[f"fig-{CHAPTER}-fig{require_choice('figure', number, list(NUMBERS))}"]


_PLACES = {c.label: (n, c.label[-2]) for n in NUMBERS for c in paper_figure(n).curves}


def describe(curve: Curve) -> dict:
    """``figure``, ``panel``, ``traffic`` and ``setup`` of a curve (figure 0 and the label as panel for one
    not in :data:`FIGURES`)."""
    figure, panel = _PLACES.get(curve.label, (0, curve.label))
    return {"figure": figure, "panel": panel, "traffic": curve.model.get("traffic", "ipp"), "setup": curve.setup}


def network(curve: Curve) -> dict:
    """The network and source of a curve: ``k, V, M, sigma1, sigma2``."""
    return {key: curve.model[key] for key in NETWORK}


def with_traffic(curve: Curve, traffic: str) -> Curve:
    """The same curve with ``'ipp'`` (the paper) or ``'poisson'`` sources of the same mean rate (same set-up)."""
    require_choice("traffic", traffic, list(TRAFFICS))
    return curve.replace(model=dict(curve.model, traffic=traffic))


def with_setup(curve: Curve, setup: str) -> Curve:
    """The same curve simulated under the named set-up of :data:`SETUPS` (its ``sim`` and ``setup`` replaced)."""
    chosen = named_setup(SETUPS, setup)
    return curve.replace(sim=chosen.sim(curve.model), setup=chosen.name)


def curves(figures: Sequence[int] = NUMBERS, traffics: Sequence[str] = ("ipp",),
           setups: Sequence[str] = (DEFAULT_SETUP,)) -> list[Curve]:
    """The curves of ``figures`` under every traffic of ``traffics`` and set-up of ``setups``
    (set-up outermost, then traffic)."""
    figs = [paper_figure(n) for n in figures]
    return [with_setup(with_traffic(c, tr), su) for su in setups for tr in traffics for f in figs for c in f.curves]


def figure(number: int, *, traffic: str = "ipp", setup: str = DEFAULT_SETUP, fractions: Sequence[float] = PLOT_FRACTIONS,
           pab: str = "printed") -> Figure:
    """The paper's Fig. ``number`` with its curves' ``traffic``, simulator ``setup``, simulated ``fractions``
    (with :data:`ERROR_FRACTIONS`) of the simulated saturation load and reading ``pab`` of eq. (26)."""
    fig = paper_figure(number)
    prepared = tuple(with_setup(with_traffic(c, traffic), setup) for c in fig.curves)
    return Figure(label=fig.label, title=fig.title, x_label=fig.x_label, x_unit=fig.x_unit,
                  curves=tuple(c.replace(model=dict(c.model, pab=pab), loads=_fractions(fractions)) for c in prepared))


def figures_of(numbers: Sequence[int] = NUMBERS, traffics: Sequence[str] = ("ipp",),
               setups: Sequence[str] = (DEFAULT_SETUP,), **kwargs) -> list[Figure]:
    """:func:`figure` for every set-up of ``setups``, traffic of ``traffics`` and number of ``numbers`` (in that
    nesting: set-up outermost); ``kwargs`` are :func:`figure`'s ``fractions`` and ``pab``."""
    return [figure(n, traffic=tr, setup=su, **kwargs) for su in setups for tr in traffics for n in numbers]


# ----------------------------------------------------------------------------
# The model-to-simulator translation
# ----------------------------------------------------------------------------
#: Significant digits of a Poisson twin's rate (:func:`sim_traffic`): below a double's 15.95, above any
#: difference that is not rounding
POISSON_DIGITS = 15


def sim_traffic(config: Mapping, mu1: float, traffic: str = "ipp"):
    """The simulator's source for a model configuration: its IPP, or Poisson of the same mean.

    Returns ``(traffic, rate)`` for :func:`models.sim.wormhole.simulate`
    (``rate`` is ``None`` with an IPP source); the model and the simulator share
    one process object, :class:`models.traffic.process.MMPP2`.  The Poisson
    rate is the IPP's mean rate to :data:`POISSON_DIGITS` significant digits:
    the IPPs of two figures with the same mean (``mu1 sigma2 / (sigma1 +
    sigma2)``, from two ``mu1`` and two pairs of switching rates) give it to
    within an ulp or two, and their Poisson twins are then one run, not two.
    """
    require_choice("traffic", traffic, list(TRAFFICS))
    src = IPP(mu1, config["sigma1"], config["sigma2"])
    if traffic == "ipp":
        return src, None
    return "poisson", float(f"{src.mean_rate:.{POISSON_DIGITS}g}")


#: Simulator keywords that are the network or the traffic (a curve's model), never a set-up's.
_NOT_A_SETUP = {"topology", "routing", "vcs", "message_length", "rate", "traffic"}


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS, seed_offset: int = 0) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``mu1 = load``.

    The network and the source come from ``curve.model`` as the curve carries them (checked once, when its
    :class:`~models.torus_ipp.setups.IppParams` was made: ``k, V, M, sigma1, sigma2``, ``traffic``: ``'ipp'``, the
    default, or ``'poisson'`` of the same mean rate); ``curve.sim`` holds a set-up's keywords (without them: one
    injection VC and the simulator's default ejection channel), which may not change the network or the traffic.
    ``settings.messages`` measured messages per point; with ``settings.target_ci`` (relative 95% half width of the
    latency) the run measures ``min_messages`` first and is lengthened until that precise, up to ``messages``
    (``simulate(messages=min_messages, target_ci=..., max_messages=messages)``).  The seed is ``settings.seed +
    seed_offset`` (:func:`sim_results` gives every load of a curve its own).
    """
    m = curve.model
    tr, rate = sim_traffic(m, load, m.get("traffic", "ipp"))
    kw = dict(topology=Torus((m["k"], m["k"]), bidirectional=True), routing="duato", vcs=m["V"],
              message_length=m["M"], rate=rate, traffic=tr, **settings.run_lengths(),
              warmup_messages=int(settings.warmup_messages), batches=int(settings.batches),
              seed=int(settings.seed) + int(seed_offset),
              injection_vcs=1)
    fixed = sorted(set(curve.sim) & _NOT_A_SETUP)
    if fixed:
        raise ParameterError(f"a set-up may not override the network or the traffic ({fixed}); "
                             "change the curve's model instead")
    kw.update(curve.sim)
    return kw


def sim_results(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS,
                which: Sequence[int] | None = None) -> list:
    """The simulator's results (:class:`~models.sim.wormhole.WormholeResult`) of ``curve`` at the ``mu1`` of
    ``loads`` (messages/node/cycle), one cached sweep; the ``i``-th load is seeded ``settings.seed + i``, so
    the loads of a curve are independent runs (their counting noise is not shared).  ``which``: only the
    loads at those indices (seeded as in the whole list, so a curve's own runs are read from the cache)."""
    idx = range(len(loads)) if which is None else [int(i) for i in which]
    return run_sweep([sim_kwargs(curve, float(loads[i]), settings, seed_offset=i) for i in idx], jobs=settings.jobs,
                     progress=settings.progress, cache=settings.cache)


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[SimPoint]:
    """The simulation of ``curve`` at every ``mu1`` of ``loads`` (:func:`sim_results`: one cached sweep, one
    seed per load): a :class:`~models.core.results.SimPoint` per load, the other :data:`SIM_COLUMNS` its extras."""
    return [SimPoint(s.latency, s.latency_ci, s.saturated,
                     extra={"network latency": s.network_latency, "source wait": s.source_wait,
                            "multiplexing": s.multiplexing, "throughput": s.throughput, "mean hops": s.mean_hops,
                            "messages": s.messages})
            for s in sim_results(curve, list(loads), settings)]


def _probe_settings(settings: SimSettings) -> SimSettings:
    """The run lengths of a saturation probe: ``sat_messages`` (default half of ``messages``, at least 1000)
    after half the warm-up (at least 500), fixed length (a probe measures a verdict, not a mean)."""
    messages = settings.sat_messages if settings.sat_messages is not None else max(settings.messages // 2, 1000)
    return settings.replace(messages=messages, warmup_messages=max(settings.warmup_messages // 2, 500),
                            target_ci=None, min_messages=None)


def sim_saturation(curve: Curve, guess: float = math.nan, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load (``mu1``, messages/node/cycle) by bisection on the simulator's verdict.

    :func:`~models.core.saturation.find_saturation` on ``[0, mu1*]`` with ``mu1*`` the load at which the channels
    would carry ``lambda_c (M + d) = 1`` (:func:`~models.torus_ipp.solve.saturation_bound`, above the physical limit
    of a channel's bandwidth); ``settings.sat_steps`` halvings (default 7; ``rtol = 0``) give a resolution of
    ``mu1* / 2^steps``; every probe runs the lengths of :func:`_probe_settings`.  The estimate is the final
    bracket's midpoint, ``.load``.  ``guess`` (the model's saturation load) is not used: the bracket is fixed, so
    every run of a curve finds the same load.
    """
    steps = require("sat_steps", 7 if settings.sat_steps is None else settings.sat_steps, 1, integer=True,
                    unit="bisection steps")
    from ..sim.wormhole import simulate  # numba kernels: loaded only when something is simulated

    probe = _probe_settings(settings)

    def saturated(mu1: float) -> bool:
        return simulate(**sim_kwargs(curve, mu1, probe), cache=True).saturated

    return find_saturation(saturated, 0.0, saturation_bound(**curve.model), rtol=0, max_steps=int(steps))


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
#: The model's columns of a run (``model(curve, mu1)``), in cycles.
MODEL_COLUMNS = ("latency", "network latency", "source wait", "blocking", "multiplexing", "saturated")
#: The simulator's columns of a run (``sim(curve, loads)``), in cycles, messages/node/cycle and hops, and the
#: messages the run measured (its precision target lengthens a run up to ``settings.messages``).
SIM_COLUMNS = ("latency", LATENCY_CI, "network latency", "source wait", "multiplexing", "saturated", "throughput",
               "mean hops", "messages")


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


def _functions(settings: SimSettings, *, simulate: bool, model_points: int) -> dict:
    """The functions of :func:`models.core.experiment.run_curve` for this chapter (the saturation probes
    are fixed-length runs whatever ``settings.target_ci``: their verdict, not a mean, is what they measure)."""
    return dict(model=model_point, sim=(lambda curve, loads: simulate_curve(curve, loads, settings)) if simulate
                else None,
                model_saturation=lambda curve: saturation_load(**curve.model),
                sim_saturation=lambda curve, model_saturation: sim_saturation(curve, model_saturation, settings),
                line=lambda curve, sat, loads: model_grid(sat, model_points))


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 40) -> tuple:
    """Model and simulation of every curve of ``figure`` (:func:`models.core.experiment.run_curve`): CurveRuns.

    A curve's model (network, ``traffic``, ``pab``) and set-up are its own (:func:`figure` builds the paper's with
    any of them); its loads, fractions of the simulated saturation load, are simulated with ``settings`` (half as
    many messages, at least 1000 / 500, per probe of the ``settings.sat_steps`` bisection: :func:`sim_saturation`);
    the model is drawn on ``model_points`` loads up to its saturation point (:func:`model_grid`).  Loads are ``mu1``
    (messages/node/cycle), times cycles.  With ``simulate=False`` the model alone, no points.
    """
    model_points = require("model_points", model_points, 1, unit="points per model curve", integer=True)
    fns = _functions(settings, simulate=simulate, model_points=model_points)
    curves = figure.curves if simulate else tuple(c.replace(loads=()) for c in figure.curves)
    return each_curve(curves, lambda curve: run_curve(curve, quantity=figure.quantity, **fns))


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

    Columns: ``figure, panel, traffic, fraction`` (of the simulated saturation load), ``mu1, mean rate``, the
    ``model ...`` columns, ``sim latency, sim latency CI`` (95 % half width),
    ``sim network latency, sim source wait, sim multiplexing, sim saturated, sim throughput, sim mean hops``,
    ``sim messages`` (measured) and ``rel. error`` ``(model - sim) / sim`` of the latency.
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

    One row per curve, traffic and set-up: ``figure, panel, traffic, setup``; ``err @<p>%``, the model's relative
    error ``(model - sim)/sim`` (a fraction, not percent) at ``fractions`` of the simulated saturation load (``inf``
    where the model is already saturated, ``nan`` where the simulation is); ``sat. model (mu1)``, ``sat. sim (mu1)``
    (messages/node/cycle), their ratio ``sat. model / sim`` and ``sat. sim bracket``, the relative width
    ``(hi - lo) / load`` of the bisection's final bracket of the simulated saturation load (NaN without one).
    """
    t = error_table(runs, fractions)
    errs = [c for c in t.columns if c.startswith("err @")]  # one per fraction, in order, percent
    out = pd.DataFrame([describe(run.curve) for run in runs])
    for f, col in zip(fractions, errs):
        out[f"err @{int(round(100 * f))}%"] = t[col].to_numpy(dtype=float) / 100.0
    out["sat. model (mu1)"] = t["model saturation"].to_numpy(dtype=float)
    out["sat. sim (mu1)"] = t["sim saturation"].to_numpy(dtype=float)
    out["sat. model / sim"] = t["saturation ratio"].to_numpy(dtype=float)
    out["sat. sim bracket"] = [_bracket_width(run) for run in runs]
    return out


def _bracket_width(run: CurveRun) -> float:
    """Relative width ``(hi - lo) / load`` of the final bracket of the simulated saturation load (NaN if none)."""
    b = run.brackets.get("sim")
    if b is None or not (math.isfinite(b.load) and b.load > 0) or b.outside:
        return math.nan
    return float((b.hi - b.lo) / b.load)


def errors_by_setup(err: pd.DataFrame) -> pd.DataFrame:
    """:func:`panel_error_table` with one column per set-up: rows ``figure, panel, traffic``, columns
    ``<quantity> [<set-up>]`` for every error and saturation column, set-ups in the order of :data:`SETUPS`."""
    keys = ["figure", "panel", "traffic"]
    values = [c for c in err.columns if c not in keys + ["setup"]]
    order = [su for su in SETUPS if su in set(err["setup"])] + sorted(set(err["setup"]) - set(SETUPS))
    out = None
    for su in order:
        part = err[err["setup"] == su][keys + values].rename(columns={c: f"{c} [{su}]" for c in values})
        out = part if out is None else out.merge(part, on=keys, how="outer", sort=False)
    return out.reset_index(drop=True) if out is not None else pd.DataFrame(columns=keys)


# ----------------------------------------------------------------------------
# Where the gap comes from: the saturation ratio with IPP and with Poisson sources
# ----------------------------------------------------------------------------
def saturation_ratio_table(err: pd.DataFrame) -> pd.DataFrame:
    """The model/simulation saturation ratio of every curve with IPP and with Poisson sources, per set-up.

    ``err`` is :func:`panel_error_table` of runs with both traffics.  One row per ``figure, panel, setup``:
    ``ratio IPP``, ``ratio Poisson`` (model saturation load / simulated saturation load), ``ratio IPP - Poisson``,
    ``share of gap`` = ``|ratio IPP - ratio Poisson| / |1 - ratio IPP|`` (the part of the model's saturation error
    that changes when the MMPP part is switched off), ``model IPP / Poisson`` and ``sim IPP / Poisson`` (the cost of
    burstiness in saturation load, model and simulation), and ``sim bracket``, the wider relative width of the two
    simulated saturation brackets (differences below it are not resolved).
    """
    keys = ["figure", "panel", "setup"]
    cols = ["sat. model (mu1)", "sat. sim (mu1)", "sat. model / sim", "sat. sim bracket"]
    ipp = err[err["traffic"] == "ipp"][keys + cols]
    poi = err[err["traffic"] == "poisson"][keys + cols]
    both = ipp.merge(poi, on=keys, suffixes=(" IPP", " Poisson"), sort=False)
    out = both[keys].copy()
    out["ratio IPP"] = both["sat. model / sim IPP"]
    out["ratio Poisson"] = both["sat. model / sim Poisson"]
    out["ratio IPP - Poisson"] = out["ratio IPP"] - out["ratio Poisson"]
    with np.errstate(divide="ignore", invalid="ignore"):
        out["share of gap"] = (out["ratio IPP - Poisson"].abs() / (1.0 - out["ratio IPP"]).abs()).to_numpy()
    out["model IPP / Poisson"] = both["sat. model (mu1) IPP"] / both["sat. model (mu1) Poisson"]
    out["sim IPP / Poisson"] = both["sat. sim (mu1) IPP"] / both["sat. sim (mu1) Poisson"]
    out["sim bracket"] = np.fmax(both["sat. sim bracket IPP"], both["sat. sim bracket Poisson"])
    return out.reset_index(drop=True)


#: Below this share of the saturation gap, the MMPP part is not where the gap comes from; above
#: ``1 - GAP_SHARE`` it is; in between, both.
GAP_SHARE = 0.25


def gap_source(ratios: pd.DataFrame) -> dict:
    """Where the model's saturation error comes from, computed from :func:`saturation_ratio_table`.

    Returns ``max diff`` (largest ``|ratio IPP - ratio Poisson|``), ``max
    share`` (largest ``share of gap``), ``ratio IPP min/max``, ``ratio
    Poisson min/max``, ``bracket`` (widest simulated saturation bracket),
    ``source`` (``"core"`` if ``max share < GAP_SHARE``, ``"mmpp"`` if it is
    above ``1 - GAP_SHARE``, else ``"both"``; ``"unknown"`` without a finite
    share).  The conclusion in words is :func:`models.torus_ipp.glue.glue_values_gap`'s.
    """
    if ratios.empty:
        raise ParameterError("`ratios` is empty: run the curves with both traffics ('ipp', 'poisson') and a simulation")
    d = ratios["ratio IPP - Poisson"].abs()
    share = ratios["share of gap"]
    res = {
        "max diff": float(d.max()), "max share": float(share.max()),
        "ratio IPP min": float(ratios["ratio IPP"].min()), "ratio IPP max": float(ratios["ratio IPP"].max()),
        "ratio Poisson min": float(ratios["ratio Poisson"].min()),
        "ratio Poisson max": float(ratios["ratio Poisson"].max()),
        "bracket": float(ratios["sim bracket"].max()),
    }
    if not math.isfinite(res["max share"]):
        res["source"] = "unknown"
    elif res["max share"] < GAP_SHARE:
        res["source"] = "core"
    elif res["max share"] > 1 - GAP_SHARE:
        res["source"] = "mmpp"
    else:
        res["source"] = "both"
    return res


def paired_burstiness_table(runs: Sequence[CurveRun], fractions: Sequence[float] = (0.25, 0.5, 0.75),
                            settings: SimSettings = SETTINGS) -> pd.DataFrame:
    """IPP against Poisson sources at the same loads: what burstiness costs in the paper's networks.

    For every simulated IPP run of ``runs`` (with a simulated saturation load), both traffics are simulated at
    ``fractions`` of that run's simulated saturation load (the same ``mu1``, so the same mean rate), with the run's
    set-up and the run lengths and seed of ``settings`` (cached: with the run's own settings and fractions the IPP
    points are the run's).  Columns: ``figure, panel, setup, fraction, mu1, mean rate``, ``sim IPP``,
    ``sim IPP CI``, ``sim Poisson``, ``sim Poisson CI`` (cycles, 95 % half widths), ``sim IPP / Poisson`` and its 95
    % bounds from the two intervals, ``sim IPP / Poisson low`` ``(IPP - CI) / (Poisson + CI)`` and ``... high`` (NaN
    where either run is saturated), ``model IPP``, ``model Poisson``, ``model IPP / Poisson``.
    """
    rows = []
    for run in runs:
        if run.curve.model.get("traffic", "ipp") != "ipp" or run.sim is None:
            continue
        if not (math.isfinite(run.sim_saturation) and run.sim_saturation > 0):
            continue
        cfg = network(run.curve)
        loads = [float(f) * run.sim_saturation for f in fractions]
        sims = [s for tr in ("ipp", "poisson")
                for s in simulate_curve(run.curve.replace(model=dict(cfg, traffic=tr)), loads, settings)]
        where = describe(run.curve)
        extra = {k: v for k, v in run.curve.model.items() if k not in NETWORK and k != "traffic"}
        for f, m, si, sp in zip(fractions, loads, sims[:len(loads)], sims[len(loads):]):
            rows.append({
                "figure": where["figure"], "panel": where["panel"], "setup": where["setup"], "fraction": float(f),
                "mu1": m, "mean rate": IPP(m, cfg["sigma1"], cfg["sigma2"]).mean_rate,
                "sim IPP": si.latency, "sim IPP CI": si.latency_ci, "sim Poisson": sp.latency,
                "sim Poisson CI": sp.latency_ci,
                "model IPP": solve(m, traffic="ipp", **cfg, **extra).latency,
                "model Poisson": solve(m, traffic="poisson", **cfg, **extra).latency,
            })
    cols = ["figure", "panel", "setup", "fraction", "mu1", "mean rate", "sim IPP", "sim IPP CI", "sim Poisson",
            "sim Poisson CI", "sim IPP / Poisson", "sim IPP / Poisson low", "sim IPP / Poisson high", "model IPP",
            "model Poisson", "model IPP / Poisson"]
    out = pd.DataFrame(rows, columns=[c for c in cols if "/" not in c])
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = np.isfinite(out["sim IPP"]) & np.isfinite(out["sim Poisson"])
        out["sim IPP / Poisson"] = np.where(ok, out["sim IPP"] / out["sim Poisson"], np.nan)
        out["sim IPP / Poisson low"] = np.where(
            ok, (out["sim IPP"] - out["sim IPP CI"]) / (out["sim Poisson"] + out["sim Poisson CI"]), np.nan)
        out["sim IPP / Poisson high"] = np.where(
            ok, (out["sim IPP"] + out["sim IPP CI"]) / (out["sim Poisson"] - out["sim Poisson CI"]), np.nan)
        mok = np.isfinite(out["model IPP"]) & np.isfinite(out["model Poisson"])
        out["model IPP / Poisson"] = np.where(mok, out["model IPP"] / out["model Poisson"], np.nan)
    return out[cols]


def fit_match_table(figures: Sequence[int] = (1, 2), t_values: Sequence[float] = (1.0, 10.0, 100.0),
                    mu1: float = 0.005) -> pd.DataFrame:
    """The four characteristics (eqs. 14-17) of each curve's fitted channel MMPP against ``n_s`` superposed sources.

    One row per curve: the relative differences of the mean rate, ``IDC(t)``
    at ``t_values`` (cycles), ``IDC(inf)`` and the third central moment at
    ``t_values`` (all from the derived expressions of
    :mod:`models.traffic.moments`), and their maximum ``max rel. diff``.
    """
    from ..traffic import moments  # SymPy at import: only the traffic page's two tables need it

    rows = []
    t = np.asarray(t_values, dtype=float)
    for c in curves(figures):
        p = Params(mu1=mu1, **network(c))
        src, chan, n = p.source_ipp, channel_process(p).mmpp, p.n_s
        m3_sup = n * moments.third_central_moment(src, t)  # eq. 17: n_s times the source's
        diffs = {
            "mean rate": abs(chan.mean_rate - n * src.mean_rate) / (n * src.mean_rate),
            "IDC(t)": float(np.max(np.abs(moments.idc(chan, t) - moments.idc(src, t)) / moments.idc(src, t))),
            "IDC(inf)": abs(moments.idc_inf(chan) - moments.idc_inf(src)) / moments.idc_inf(src),
            "m3(t)": float(np.max(np.abs(moments.third_central_moment(chan, t) - m3_sup) / np.abs(m3_sup))),
        }
        where = describe(c)
        rows.append({"figure": where["figure"], "panel": where["panel"], "n_s": n, **diffs,
                     "max rel. diff": max(diffs.values())})
    return pd.DataFrame(rows)




# ----------------------------------------------------------------------------
# "An equal and balanced traffic load on all network channels": the spread of the simulated channel loads
# ----------------------------------------------------------------------------
def channel_loads(run: CurveRun, settings: SimSettings = SETTINGS, below: float = BELOW) -> list[tuple]:
    """The simulated load of every network channel (flits/cycle, the simulator's ``channel_load``) at the
    unsaturated simulated loads of ``run`` under ``below`` of its simulated saturation load: ``[(fraction,
    array), ...]``.  The runs are the run's own, independently seeded (:func:`sim_results`; ``settings`` must
    be the run's: the cache answers)."""
    if run.sim is None or run.sim.empty:
        return []
    sim = run.sim
    ok = np.flatnonzero((sim["fraction"].to_numpy(dtype=float) < below) & ~sim["saturated"].to_numpy(dtype=bool))
    if not ok.size:
        return []
    res = sim_results(run.curve, sim["load"].to_numpy(dtype=float), settings, which=ok)
    fracs = sim["fraction"].to_numpy(dtype=float)[ok]
    return [(float(f), np.asarray(r.channel_load, dtype=float)) for f, r in zip(fracs, res)
            if r.channel_load is not None and not r.saturated]


def channel_balance_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS,
                          below: float = BELOW) -> pd.DataFrame:
    """The spread of the simulated channel loads of every IPP run (:func:`channel_loads`, independently seeded,
    and the equal-beyond-noise criterion :func:`models.core.criteria.spread_beyond_noise`): one row per curve
    and set-up, ``figure, panel, setup``, ``runs`` (simulated loads used), ``channels``, ``mean load``
    (flits/cycle, over runs and channels), ``raw cv``, ``max dev``, ``sys cv``, ``sys var``, ``sys var se``,
    ``equal`` (no shared spread beyond the noise at 95 %; None with fewer than two runs), and ``plus /
    minus``, the mean load of the channels that move in the ``+`` direction of their dimension over that of
    the ``-`` channels (mean over the runs), with ``plus / minus se`` its standard error over the runs."""
    rows = []
    for run in runs:
        if run.curve.model.get("traffic", "ipp") != "ipp" or run.sim is None:
            continue
        got = channel_loads(run, settings, below)
        where = describe(run.curve)
        spread = spread_beyond_noise([x for _, x in got])
        plus = Torus((int(run.curve.model["k"]),) * 2, bidirectional=True).channels[3] % 2 == 0
        pm = [x[plus].mean() / x[~plus].mean() for _, x in got if x.size == plus.size and x[~plus].mean() > 0]
        rows.append({"figure": where["figure"], "panel": where["panel"], "setup": where["setup"], **spread,
                     "mean load": float(np.mean([x.mean() for _, x in got])) if got else math.nan,
                     "plus / minus": float(np.mean(pm)) if pm else math.nan,
                     "plus / minus se": float(np.std(pm, ddof=1) / math.sqrt(len(pm))) if len(pm) > 1 else math.nan})
    cols = ["figure", "panel", "setup", "runs", "channels", "mean load", "raw cv", "max dev", "sys cv", "sys var",
            "sys var se", "equal", "plus / minus", "plus / minus se"]
    out = pd.DataFrame(rows, columns=cols)
    out["equal"] = out["equal"].astype(object)
    return out


# ----------------------------------------------------------------------------
# What burstiness costs (the chapter's own findings, beyond the paper's claims)
# ----------------------------------------------------------------------------
#: The switching-rate factor of the long-burst illustration (bursts 100 times longer than the paper's).
LONG_SCALE = 0.01


def _increase(ratio, low, high) -> tuple:
    """The largest increase and the largest 95% lower and upper bounds (fractions), over finite points."""
    r, lo, hi = (np.asarray(x, dtype=float) for x in (ratio, low, high))
    if not np.isfinite(r).any():
        return math.nan, math.nan, math.nan
    return float(np.nanmax(r) - 1), float(np.nanmax(lo) - 1), float(np.nanmax(hi) - 1)


def burstiness_table(paired: pd.DataFrame | None = None, scan_sims: Mapping | None = None) -> pd.DataFrame:
    """What IPP sources cost against Poisson sources of the same mean rate, in the simulation, per set-up:
    ``case`` ``"paper's networks"`` (:func:`paired_burstiness_table`, the paper's four curves at fractions of
    their simulated saturation load) and ``"bursts x 100"`` (:func:`simulate_scan` frames of ``scan_sims``,
    ``(setup, scale)`` -> frame, scale 0 = Poisson, :data:`LONG_SCALE` = switching rates x 0.01, Fig. 1(b)'s
    network: an illustration beyond the paper).  Columns ``setup``, ``case``, ``increase`` (the largest
    simulated ``IPP / Poisson - 1``, inf where only the IPP run saturated), ``low``, ``high`` (its 95% bounds
    from the two intervals), ``model`` (the model's largest increase, NaN if not computed), ``points``."""
    rows = []
    if paired is not None and not paired.empty:
        for su in [s for s in SETUPS if s in set(paired["setup"])]:
            mine = paired[paired["setup"] == su]
            inc, low, high = _increase(mine["sim IPP / Poisson"], mine["sim IPP / Poisson low"],
                                       mine["sim IPP / Poisson high"])
            model = (float(np.nanmax(mine["model IPP / Poisson"]) - 1)
                     if np.isfinite(mine["model IPP / Poisson"]).any() else math.nan)
            rows.append({"setup": su, "case": "paper's networks", "increase": inc, "low": low, "high": high,
                         "model": model, "points": int(np.isfinite(mine["sim IPP / Poisson"]).sum())})
    for su in SETUPS:
        lo, hi = (scan_sims or {}).get((su, 0.0)), (scan_sims or {}).get((su, LONG_SCALE))
        if lo is None or hi is None:
            continue
        m = lo.merge(hi, on="mu1", suffixes=(" Poisson", " IPP"))
        ok = ~m["sim saturated Poisson"].astype(bool).to_numpy()
        if not ok.any():
            continue
        sat = m["sim saturated IPP"].astype(bool).to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(sat, np.inf, m["sim latency IPP"] / m["sim latency Poisson"])
            ci_ipp, ci_poisson = m[f"sim {LATENCY_CI} IPP"], m[f"sim {LATENCY_CI} Poisson"]
            lo_r = np.where(sat, np.inf, (m["sim latency IPP"] - ci_ipp) / (m["sim latency Poisson"] + ci_poisson))
            hi_r = np.where(sat, np.inf, (m["sim latency IPP"] + ci_ipp) / (m["sim latency Poisson"] - ci_poisson))
        rows.append({"setup": su, "case": f"bursts x {1 / LONG_SCALE:g}", "increase": float(np.max(r[ok]) - 1),
                     "low": float(np.max(lo_r[ok]) - 1), "high": float(np.max(hi_r[ok]) - 1), "model": math.nan,
                     "points": int(ok.sum())})
    return pd.DataFrame(rows, columns=["setup", "case", "increase", "low", "high", "model", "points"])




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
    from ..traffic import moments  # SymPy at import: only the traffic page's two tables need it

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
    chan = channel_process(Params(mu1=mu1, **network(paper_figure(1).curves[0]))).mmpp
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


def simulate_scan(curve: Curve, scale: float, mu1_values: Sequence[float], setup: str | None = None,
                  settings: SimSettings = SETTINGS) -> pd.DataFrame:
    """Simulated latency for the source of ``curve`` with switching rates multiplied by ``scale`` (0: Poisson),
    under the named ``setup`` (default the curve's own), with the run lengths of ``settings``: one row per load,
    ``setup, scale, mu1, mean rate, sim latency, sim latency CI, sim saturated, sim messages`` (measured)."""
    if setup is not None:
        curve = with_setup(curve, setup)
    cfg, traffic = _scaled(curve, scale)
    sims = simulate_curve(curve.replace(model=dict(cfg, traffic=traffic)), [float(m) for m in mu1_values], settings)
    per_mu = IPP(1.0, cfg["sigma1"], cfg["sigma2"]).mean_rate
    return pd.DataFrame({"setup": curve.setup, "scale": scale, "mu1": list(mu1_values),
                         "mean rate": [m * per_mu for m in mu1_values],
                         "sim latency": [s.latency for s in sims], f"sim {LATENCY_CI}": [s.latency_ci for s in sims],
                         "sim saturated": [s.saturated for s in sims],
                         "sim messages": [s.extra["messages"] for s in sims]})
