"""The paper's experiments: figures, simulator set-ups, the model-to-simulator translation, runs and tables.

Figs. 1 and 2 of Min, Ferguson & Ould-Khaoua (2001) plot the mean message
latency (cycles) against ``mu1``, the on-state rate of the IPP sources
(messages/node/cycle; the mean rate is ``lambda_s = mu1 sigma2 / (sigma1 +
sigma2)``, eq. 9), on bidirectional ``k x k`` tori with Duato's fully
adaptive routing:

* Fig. 1: ``k = 16``, ``V = 3``, ``M = 48`` flits, (a) ``(sigma1, sigma2) = (0.2, 0.8)``,
  (b) ``(0.6, 0.6)``;
* Fig. 2: ``k = 24``, ``V = 5``, ``M = 32`` flits, (a) ``(0.09, 0.09)``, (b) ``(0.05, 0.8)``.

:data:`FIGURES` holds them as :class:`models.core.setups.Figure` objects
keyed by label (``"fig-torus_ipp-fig1"``; :func:`paper_figure` by number), one
:class:`~models.core.setups.Curve` per panel, label ``"Fig. 1(a)"``, IPP
sources, the verdict's simulator set-up.  Two things vary around a curve:

* the **traffic** (the curve's ``model["traffic"]``, :func:`with_traffic`):
  the paper's IPP sources, or, beyond the paper, Poisson sources of the same
  mean rate (model and simulator both change);
* the **simulator set-up** (the curve's ``setup`` and ``sim``,
  :func:`with_setup`, :data:`SETUPS`; DESIGN.md "Simulator set-ups are
  named"): ``"paper/model"``, messages leave the network as soon as they
  arrive (assumption (d), which is both the paper's text and the model's
  assumption: ``4 V`` ejection VCs, one per network VC that can end at a
  node), and ``"one ejection channel"``, the single ejection VC this chapter
  simulated first.  Both have one injection VC per node (Sec.
  2.4: the injection channel is one MMPP/G/1 server with the node's whole
  rate).  The first stands for the paper (and its model); the second for
  neither (``stands_for=""``), so it is shown and never decides a verdict.

:func:`figure` gives a paper figure with its curves' traffic, set-up,
simulated fractions and reading of eq. (26) (:func:`figures_of` every
combination); :func:`run_figure` runs it with the run lengths of a
:class:`~models.core.setups.SimSettings` (:data:`SETTINGS` at the paper's
scale) on :func:`models.core.experiment.run_curve`.  A run is

* the model on a grid up to its saturation point
  (:func:`models.torus_ipp.solve.saturation_load`; grid :func:`model_grid`);
* the simulator's saturation point, by :func:`models.core.saturation.find_saturation`
  on ``mu1`` with the simulator's ``saturated`` verdict (:func:`sim_saturation`);
* simulation and model at fixed fractions (25, 50, 75, 90 % and the extra
  plotting fractions) of the simulated saturation load.

Simulation (:mod:`models.sim.wormhole`, through
:func:`models.sim.sweep.run_sweep` in :func:`simulate_curve`; :func:`sim_kwargs`
is the translation of one point):
bidirectional torus, routing ``"duato"`` (``V - 2`` adaptive VCs, 2 escape
VCs with dimension-order dateline routing), fixed message length, the
model's own IPP object as the source, and the set-up's keywords.  Results
are cached on disk.

Tables: :func:`panel_error_table` (the model's relative error at 25/50/75/90 %
of the simulated saturation load and both saturation loads, one row per
curve, traffic and set-up, from :func:`models.core.experiment.error_table`)
and :func:`errors_by_setup` (the same, one column per set-up),
:func:`saturation_ratio_table` and :func:`gap_source` (the model/simulation
saturation ratio with IPP and with Poisson sources: where the gap comes
from), :func:`paired_burstiness_table` (IPP against Poisson at the same
loads) and :func:`burstiness_table` (its largest increase per set-up, and for
bursts a hundred times longer), :func:`channel_balance_table` (the spread of
the simulated channel loads, :func:`channel_spread`), :func:`claims_table`
(:data:`CLAIMS`, one :class:`~models.core.claims.Claim` per sentence of the
paper, one row per claim and set-up), :func:`model_curves_table`, :func:`sim_points_table`,
:func:`fitted_parameters_table` (the channel MMPP of each curve),
:func:`fit_match_table`, :func:`moment_check_table`,
:func:`mmpp_g1_check_table` and the burstiness scan
(:func:`burstiness_scan`, :func:`simulate_scan`).  The numbers the pages
quote come from the ``glue_values_*`` functions.  Plots are in
:mod:`models.torus_ipp.plots`.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import Claim, claims_frame, worst_error_below
from ..core.setups import BELOW, SimSettings, SimulatorSetup
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.setups import ERROR_FRACTIONS, Curve, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.tables import UNBOUNDED_WORD, percent, signed_percent
from ..core.validate import require, require_choice
from ..networks.graph import Torus
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
#: The network keys of a curve's model (the rest are the traffic and the readings).
NETWORK = ("k", "V", "M", "sigma1", "sigma2")
#: Input channels of a node of the bidirectional 2-D torus (the paper's "4 inputs and 4 output channels").
IN_DEGREE = 4


def every_arriving_vc(model: Mapping) -> int:
    """IN_DEGREE x V (one ejection VC per network VC that can end at the node)"""
    return IN_DEGREE * int(model["V"])


#: The simulator set-ups (DESIGN.md: "Simulator set-ups are named").  Assumption (d) of the paper
#: ("messages at the destination node are transferred to the local processing element as soon as they
#: arrive") is both the paper's text and the model's assumption (eq. 1 has no ejection term), so one
#: set-up stands for both (``stands_for="paper"``: the text states it; the model assumes the same).
#: The two differ only in ``ejection_vcs``; both have one injection VC per node (Sec. 2.4).
SETUPS: dict[str, SimulatorSetup] = {
    "paper/model": SimulatorSetup(
        "paper/model",
        "as assumption (d) states and the model assumes: messages leave as soon as they arrive; "
        "4V ejection VCs (one per network VC that can end at the node, so no header ever waits for one), "
        "one injection VC (Sec. 2.4)",
        stands_for="paper", overrides={"injection_vcs": 1, "ejection_vcs": every_arriving_vc}, short="4V ejection VCs"),
    "one ejection channel": SimulatorSetup(
        "one ejection channel",
        "the chapter's first simulator set-up: one ejection VC per node, so a message that arrives "
        "while another is leaving waits holding its network VCs; one injection VC",
        stands_for="", overrides={"injection_vcs": 1, "ejection_vcs": 1}, short="1 ejection VC"),
}
#: The set-up the chapter's verdicts rest on (and the command line's default).
DEFAULT_SETUP = "paper/model"
#: Short names of the set-ups (glue keys, file names).
SETUP_KEYS = {"paper/model": "paper", "one ejection channel": "oneej"}

#: The chapter's run lengths at the paper's scale (fixed-length points; the pages ask for a precision).
#: The saturation probes measure ``sat_messages`` (default: half of ``messages``, at least 1000) after half
#: the warm-up (at least 500), in ``sat_steps`` bisection steps.
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP, sat_steps=7)


def _fractions(fractions: Sequence[float]) -> tuple:
    """The simulated fractions: ``fractions`` and :data:`ERROR_FRACTIONS`, sorted, once each."""
    return tuple(sorted(set(float(f) for f in fractions) | set(ERROR_FRACTIONS)))


def _panel(figure: int, panel: str, k: int, V: int, M: int, sigma1: float, sigma2: float) -> Curve:
    model = dict(k=k, V=V, M=M, sigma1=sigma1, sigma2=sigma2, traffic="ipp")
    return Curve(label=f"Fig. {figure}({panel})", model=model, sim=SETUPS[DEFAULT_SETUP].sim(model),
                 setup=DEFAULT_SETUP, loads=_fractions(PLOT_FRACTIONS), fractions_of="sim")


def _figure(number: int, title: str, *curves: Curve) -> Figure:
    return Figure(label=f"fig-torus_ipp-fig{number}", title=title, curves=curves, x_label="on-state rate mu1",
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
    return FIGURES[f"fig-torus_ipp-fig{require_choice('figure', number, list(NUMBERS))}"]


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
    require_choice("setup", setup, list(SETUPS))
    return curve.replace(sim=SETUPS[setup].sim(curve.model), setup=setup)


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
def sim_traffic(config: Mapping, mu1: float, traffic: str = "ipp"):
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


#: Simulator keywords that are the network or the traffic (a curve's model), never a set-up's.
_NOT_A_SETUP = {"topology", "routing", "vcs", "message_length", "rate", "traffic"}


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``mu1 = load``.

    The network and the source come from ``curve.model`` (``k, V, M,
    sigma1, sigma2``, optionally ``traffic``: ``'ipp'``, the default, or
    ``'poisson'`` of the same mean rate; ``mu2``, if given, must be 0, an
    IPP); ``curve.sim`` holds a set-up's keywords (without them: one
    injection VC and the simulator's default ejection channel), which may not
    change the network or the traffic.  ``settings.messages`` measured
    messages per point; with ``settings.target_ci`` (relative 95% half width
    of the latency) the run measures ``min_messages`` first and is lengthened
    until that precise, up to ``messages`` (``simulate(messages=min_messages,
    target_ci=..., max_messages=messages)``).
    """
    m = curve.model
    if float(m.get("mu2", 0.0)) != 0.0:
        raise ParameterError(f"`mu2` must be 0 (an IPP source) to simulate; got {m['mu2']!r}")
    tr, rate = sim_traffic(m, load, m.get("traffic", "ipp"))
    kw = dict(topology=Torus((m["k"], m["k"]), bidirectional=True), routing="duato", vcs=m["V"],
              message_length=int(m["M"]), rate=rate, traffic=tr, messages=int(settings.messages),
              warmup_messages=int(settings.warmup_messages), batches=int(settings.batches), seed=int(settings.seed),
              injection_vcs=1)
    if settings.target_ci is not None:
        least = settings.messages if settings.min_messages is None else min(settings.min_messages, settings.messages)
        kw.update(messages=int(least), target_ci=float(settings.target_ci), max_messages=int(settings.messages))
    fixed = sorted(set(curve.sim) & _NOT_A_SETUP)
    if fixed:
        raise ParameterError(f"a set-up may not override the network or the traffic ({fixed}); "
                             "change the curve's model instead")
    kw.update(curve.sim)
    return kw


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[dict]:
    """The simulation of ``curve`` at every ``mu1`` of ``loads``, one cached sweep: the :data:`SIM_COLUMNS`."""
    return [{"latency": s.latency, "latency CI": s.latency_ci, "network latency": s.network_latency,
             "source wait": s.source_wait, "multiplexing": s.multiplexing, "saturated": s.saturated,
             "throughput": s.throughput, "mean hops": s.mean_hops}
            for s in run_sweep([sim_kwargs(curve, m, settings) for m in loads], jobs=settings.jobs, progress=settings.progress,
                               cache=settings.cache)]


def _probe_settings(settings: SimSettings) -> SimSettings:
    """The run lengths of a saturation probe: ``sat_messages`` (default half of ``messages``, at least 1000)
    after half the warm-up (at least 500), fixed length (a probe measures a verdict, not a mean)."""
    messages = settings.sat_messages if settings.sat_messages is not None else max(settings.messages // 2, 1000)
    return settings.replace(messages=messages, warmup_messages=max(settings.warmup_messages // 2, 500),
                            target_ci=None, min_messages=None)


def sim_saturation(curve: Curve, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load (``mu1``, messages/node/cycle) by bisection on the simulator's verdict.

    :func:`~models.core.saturation.find_saturation` on ``[0, mu1*]`` with
    ``mu1*`` the load at which the channels would carry ``lambda_c (M + d) =
    1`` (:func:`~models.torus_ipp.solve.saturation_bound`, above the physical
    limit of a channel's bandwidth); ``settings.sat_steps`` halvings (default
    7; ``rtol = 0``) give a resolution of ``mu1* / 2^steps``; every probe runs
    the lengths of :func:`_probe_settings`.  The estimate is the final
    bracket's midpoint, ``.load``.
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


def _functions(settings: SimSettings, *, simulate: bool, model_points: int) -> dict:
    """The functions of :func:`models.core.experiment.run_curve` for this chapter (the saturation probes
    are fixed-length runs whatever ``settings.target_ci``: their verdict, not a mean, is what they measure)."""
    return dict(model=model_point, sim=(lambda curve, loads: simulate_curve(curve, loads, settings)) if simulate
                else None,
                model_saturation=lambda curve: saturation_load(**curve.model),
                sim_saturation=lambda curve, model_saturation: sim_saturation(curve, settings),
                line=lambda curve, sat, loads: model_grid(sat, model_points))


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 40) -> tuple:
    """Model and simulation of every curve of ``figure`` (:func:`models.core.experiment.run_curve`): CurveRuns.

    A curve's model (network, ``traffic``, ``pab``) and set-up are its own
    (:func:`figure` builds the paper's with any of them); its loads, fractions
    of the simulated saturation load, are simulated with ``settings`` (half as
    many messages, at least 1000 / 500, per probe of the ``settings.sat_steps``
    bisection: :func:`sim_saturation`); the model is drawn on ``model_points``
    loads up to its saturation point (:func:`model_grid`).  Loads are ``mu1``
    (messages/node/cycle), times cycles.  With ``simulate=False`` the model
    alone, no points.
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

    One row per curve, traffic and set-up: ``figure, panel, traffic, setup``;
    ``err @<p>%``, the model's relative error ``(model - sim)/sim`` (a
    fraction, not percent) at ``fractions`` of the simulated saturation load
    (``inf`` where the model is already saturated, ``nan`` where the
    simulation is); ``sat. model (mu1)``, ``sat. sim (mu1)``
    (messages/node/cycle), their ratio ``sat. model / sim`` and ``sat. sim
    bracket``, the relative width ``(hi - lo) / load`` of the bisection's
    final bracket of the simulated saturation load (NaN without one).
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

    ``err`` is :func:`panel_error_table` of runs with both traffics.  One row
    per ``figure, panel, setup``: ``ratio IPP``, ``ratio Poisson`` (model
    saturation load / simulated saturation load), ``ratio IPP - Poisson``,
    ``share of gap`` = ``|ratio IPP - ratio Poisson| / |1 - ratio IPP|`` (the
    part of the model's saturation error that changes when the MMPP part is
    switched off), ``model IPP / Poisson`` and ``sim IPP / Poisson`` (the
    cost of burstiness in saturation load, model and simulation), and ``sim
    bracket``, the wider relative width of the two simulated saturation
    brackets (differences below it are not resolved).
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
    above ``1 - GAP_SHARE``, else ``"both"``) and ``sentence``, the conclusion
    in words with these numbers.
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
    where = {
        "core": "the model's early saturation comes from the adaptive-routing core it shares with the Poisson "
                "model (blocking, eqs. 1-6 and 20-26, and multiplexing, eqs. 27-29), not from the MMPP part "
                "(eqs. 13-19)",
        "mmpp": "most of the model's saturation error comes from the MMPP part (eqs. 13-19): without it the "
                "ratio moves most of the way to 1",
        "both": "the MMPP part (eqs. 13-19) and the adaptive-routing core both contribute to the model's "
                "saturation error",
        "unknown": "the ratios do not say where the gap comes from",
    }[res["source"]]
    res["sentence"] = (
        f"With IPP sources the model saturates at {res['ratio IPP min']:.3f} to {res['ratio IPP max']:.3f} times "
        f"the simulated load, with Poisson sources of the same mean rate at {res['ratio Poisson min']:.3f} to "
        f"{res['ratio Poisson max']:.3f} times; the two ratios differ by at most {res['max diff']:.3f} on any "
        f"curve and set-up, {res['max share']:.0%} of the gap to 1 (the simulated saturation loads are bracketed "
        f"to {res['bracket']:.0%}), so {where}.")
    return res


def paired_burstiness_table(runs: Sequence[CurveRun], fractions: Sequence[float] = (0.25, 0.5, 0.75),
                            settings: SimSettings = SETTINGS) -> pd.DataFrame:
    """IPP against Poisson sources at the same loads: what burstiness costs in the paper's networks.

    For every simulated IPP run of ``runs`` (with a simulated saturation
    load), both traffics are simulated at ``fractions`` of that run's
    simulated saturation load (the same ``mu1``, so the same mean rate), with
    the run's set-up and the run lengths and seed of ``settings`` (cached:
    with the run's own settings and fractions the IPP points are the run's).  Columns:
    ``figure, panel, setup, fraction, mu1, mean rate``, ``sim IPP``, ``sim IPP
    CI``, ``sim Poisson``, ``sim Poisson CI`` (cycles, 95 % half widths),
    ``sim IPP / Poisson`` and its 95 % bounds from the two intervals, ``sim
    IPP / Poisson low`` ``(IPP - CI) / (Poisson + CI)`` and ``... high``
    (NaN where either run is saturated), ``model IPP``, ``model Poisson``,
    ``model IPP / Poisson``.
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
                "sim IPP": si["latency"], "sim IPP CI": si["latency CI"], "sim Poisson": sp["latency"],
                "sim Poisson CI": sp["latency CI"],
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


# ----------------------------------------------------------------------------
# The paper's claims (one Claim per sentence; rows per simulator set-up)
# ----------------------------------------------------------------------------
#: Largest relative difference at which the fitted channel MMPP "identically" matches the superposition: floating
#: point equality (the fit is exact in closed form; this is the arithmetic's precision, not a tolerance on a claim).
FIT_TOLERANCE = 1e-8
#: The switching-rate factor of the long-burst illustration (bursts 100 times longer than the paper's).
LONG_SCALE = 0.01
_CH = "torus_ipp"

#: The paper's claims the chapter judges, one :class:`~models.core.claims.Claim` per sentence of the paper.  The
#: paper states no number for any of them, so none has a ``threshold`` (nor a yardstick of the book's): the
#: latency claim is judged by the rule for claims without a number (an unbounded error on a set-up the paper or
#: its model describes fails it), the others are facts computed from the paper's words.  Not here: the
#: Introduction's sentence on burstiness ("Recent studies have revealed ... [6], [7]"), a statement of the
#: literature on multimedia traffic at queues, not a claim about the paper's model or networks, and the
#: long-burst scan, an illustration of the book's own beyond the paper (both in :func:`burstiness_table`).
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("latency-accuracy", "Sec. 3 (Figs. 1-2; restated in Sec. 4)",
          "The figures reveal that the simulation results match those predicted by the analytical model in the "
          "steady state region.", "error"),
    Claim("mmpp-fit", "Sec. 2.1 (eqs. 13-18)",
          "The arrival process at network channels is approximated by an MMPP(2), which is chosen such that several "
          "of its statistical characteristics identically match those of traffic generated by n_s sources.",
          "fact"),
    Claim("channel-load-balanced", "Sec. 2.1",
          "Under the uniform traffic pattern, adaptive routing results in an equal and balanced traffic load on all "
          "network channels.", "fact"),
    Claim("blocking-time-exponential", "Sec. 2.2 (eqs. 20-22)",
          "Given that any distribution function can be approximated as closely as desired by a series-parallel "
          "stage-type of exponential distributions [9], the distribution of the blocking time can be reasonably "
          "approximated by an exponential distribution.", "fact"),
)}
#: Why the blocking-time claim is not checked: what the simulator would have to measure, and why it does not.
BLOCKING_NOT_MEASURED = (
    "not measured: the claim is about the distribution of a message's blocking time b (eq. 4: t = m + d + b), "
    "which would need its coefficient of variation (1 for an exponential); the simulator returns only means per "
    "run (latency, network latency, source wait, their batch-means intervals), not per-message times, and it does "
    "not separate a message's waits for a virtual channel from the slowdown of its flits on multiplexed channels, "
    "which the model counts apart (the factor V-bar of eq. 1); recording per-message blocking is a change to the "
    "simulator (models/sim), beyond this chapter")


def worst_ratio(ratios: Sequence[float]) -> float:
    """The ratio farthest from 1 in the log sense (NaN if none is finite and positive)."""
    r = np.asarray([x for x in ratios if math.isfinite(x) and x > 0], dtype=float)
    return float(r[np.argmax(np.abs(np.log(r)))]) if r.size else math.nan


def fit_match_table(figures: Sequence[int] = (1, 2), t_values: Sequence[float] = (1.0, 10.0, 100.0),
                    mu1: float = 0.005) -> pd.DataFrame:
    """The four characteristics (eqs. 14-17) of each curve's fitted channel MMPP against ``n_s`` superposed sources.

    One row per curve: the relative differences of the mean rate, ``IDC(t)``
    at ``t_values`` (cycles), ``IDC(inf)`` and the third central moment at
    ``t_values`` (all from the derived expressions of
    :mod:`models.traffic.moments`), and their maximum ``max rel. diff``.
    """
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


def _error_words(x: float, *, sign: bool = False) -> str:
    """A relative error (a fraction) in the claims' notes: ``12.8%`` (``+5.6%`` with ``sign``), ``unbounded
    (saturated)`` for ``+inf``, ``n/a`` when missing (:func:`models.core.tables.percent`)."""
    if x == math.inf:
        return "unbounded (saturated)"
    text = signed_percent(x) if sign else percent(x)
    return "n/a" if text is None else text


# ----------------------------------------------------------------------------
# "An equal and balanced traffic load on all network channels": the spread of the simulated channel loads
# ----------------------------------------------------------------------------
def channel_loads(run: CurveRun, settings: SimSettings = SETTINGS, below: float = BELOW) -> list[tuple]:
    """The simulated load of every network channel (flits/cycle, the simulator's ``channel_load``) at the
    unsaturated simulated loads of ``run`` under ``below`` of its simulated saturation load: ``[(fraction,
    array), ...]``.  The runs are the run's own (``settings`` must be the run's: the cache answers)."""
    if run.sim is None:
        return []
    pts = run.points()
    ok = (pts["fraction"].to_numpy(dtype=float) < below) & ~pts["sim saturated"].to_numpy(dtype=bool)
    loads = pts["load"].to_numpy(dtype=float)[ok]
    fracs = pts["fraction"].to_numpy(dtype=float)[ok]
    if not len(loads):
        return []
    res = run_sweep([sim_kwargs(run.curve, float(m), settings) for m in loads], jobs=settings.jobs,
                    cache=settings.cache, progress=settings.progress)
    return [(float(f), np.asarray(r.channel_load, dtype=float)) for f, r in zip(fracs, res)
            if r.channel_load is not None and not r.saturated]


def channel_spread(loads: Sequence[np.ndarray]) -> dict:
    """How unequal the channel loads of independent runs of one network are, and how much of it is systematic.

    ``loads``: one array per run (flits/cycle per channel, same channels).
    Each run's loads are divided by their mean over the channels: ``y = x /
    mean - 1``.  ``raw cv`` is the mean over the runs of ``std(y)``
    (counting noise included), ``max dev`` the largest ``|y|``.  The
    counting noise of two independent runs is independent, so the mean over
    pairs of runs of ``y_a * y_b`` (channel by channel) estimates the
    variance of the part of the channel loads that every run shares:
    ``sys var`` (mean over the channels), with ``sys var se`` (its standard
    error over the channels), ``sys cv`` ``= sqrt(max(sys var, 0))`` and
    ``imbalanced`` (``sys var > 2 sys var se``: a shared imbalance the noise
    does not explain; None with fewer than two runs).
    """
    ys = [x / x.mean() - 1.0 for x in loads if x.size and np.isfinite(x).all() and x.mean() > 0]
    out = {"runs": len(ys), "channels": int(ys[0].size) if ys else 0,
           "raw cv": float(np.mean([y.std() for y in ys])) if ys else math.nan,
           "max dev": float(max(np.abs(y).max() for y in ys)) if ys else math.nan,
           "sys var": math.nan, "sys var se": math.nan, "sys cv": math.nan, "imbalanced": None}
    if len(ys) < 2:
        return out
    prods = np.array([ys[a] * ys[b] for a in range(len(ys)) for b in range(a + 1, len(ys))])
    z = prods.mean(axis=0)
    var, se = float(z.mean()), float(z.std(ddof=1) / math.sqrt(z.size))
    out.update({"sys var": var, "sys var se": se, "sys cv": math.sqrt(max(var, 0.0)),
                "imbalanced": bool(var > 2 * se)})
    return out


def channel_balance_table(runs: Sequence[CurveRun], settings: SimSettings = SETTINGS,
                          below: float = BELOW) -> pd.DataFrame:
    """The spread of the simulated channel loads of every IPP run (:func:`channel_loads`, :func:`channel_spread`):
    one row per curve and set-up, ``figure, panel, setup``, ``runs`` (simulated loads used), ``channels``,
    ``mean load`` (flits/cycle, over runs and channels), ``raw cv``, ``max dev``, ``sys cv``, ``sys var``,
    ``sys var se``, ``imbalanced``, and ``plus / minus``, the mean load of the channels that move in the ``+``
    direction of their dimension over that of the ``-`` channels (mean over the runs)."""
    rows = []
    for run in runs:
        if run.curve.model.get("traffic", "ipp") != "ipp" or run.sim is None:
            continue
        got = channel_loads(run, settings, below)
        where = describe(run.curve)
        spread = channel_spread([x for _, x in got])
        plus = Torus((int(run.curve.model["k"]),) * 2, bidirectional=True).channels[3] % 2 == 0
        pm = [x[plus].mean() / x[~plus].mean() for _, x in got if x.size == plus.size and x[~plus].mean() > 0]
        rows.append({"figure": where["figure"], "panel": where["panel"], "setup": where["setup"], **spread,
                     "mean load": float(np.mean([x.mean() for _, x in got])) if got else math.nan,
                     "plus / minus": float(np.mean(pm)) if pm else math.nan})
    cols = ["figure", "panel", "setup", "runs", "channels", "mean load", "raw cv", "max dev", "sys cv", "sys var",
            "sys var se", "imbalanced", "plus / minus"]
    out = pd.DataFrame(rows, columns=cols)
    out["imbalanced"] = out["imbalanced"].astype(object)
    return out


# ----------------------------------------------------------------------------
# What burstiness costs (the chapter's own findings, beyond the paper's claims)
# ----------------------------------------------------------------------------
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
            lo_r = np.where(sat, np.inf, (m["sim latency IPP"] - m["sim latency CI IPP"])
                            / (m["sim latency Poisson"] + m["sim latency CI Poisson"]))
            hi_r = np.where(sat, np.inf, (m["sim latency IPP"] + m["sim latency CI IPP"])
                            / (m["sim latency Poisson"] - m["sim latency CI Poisson"]))
        rows.append({"setup": su, "case": f"bursts x {1 / LONG_SCALE:g}", "increase": float(np.max(r[ok]) - 1),
                     "low": float(np.max(lo_r[ok]) - 1), "high": float(np.max(hi_r[ok]) - 1), "model": math.nan,
                     "points": int(ok.sum())})
    return pd.DataFrame(rows, columns=["setup", "case", "increase", "low", "high", "model", "points"])


def burstiness_sentences(burst: pd.DataFrame) -> dict:
    """:func:`burstiness_table` in words, by key ``torus_ipp-burst-<case key>-<set-up key>`` (``paper`` or
    ``long``; :data:`SETUP_KEYS`): "at most +2.4% (95% bounds +0.1% to +5.0%; the model: +0.3%)"."""
    out = {}
    for r in burst.itertuples(index=False):
        case = "paper" if r.case == "paper's networks" else "long"
        text = (f"at most {_error_words(r.increase, sign=True)} (95% bounds {_error_words(r.low, sign=True)} to "
                f"{_error_words(r.high, sign=True)}")
        text += "" if math.isnan(r.model) else f"; the model: {_error_words(r.model, sign=True)}"
        out[f"torus_ipp-burst-{case}-{SETUP_KEYS.get(r.setup, r.setup)}"] = text + ")"
    return out


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
def claims_table(runs: Sequence[CurveRun], *, ratios: pd.DataFrame | None = None, fit: pd.DataFrame | None = None,
                 balance: pd.DataFrame | None = None, below: float = BELOW,
                 chapter: str = "torus_ipp") -> pd.DataFrame:
    """The paper's claims (:data:`CLAIMS`) against our numbers: the columns of
    :data:`~models.core.claims.CLAIM_COLUMNS`, one row per claim and simulator set-up (``"-"``: no simulation).

    ``runs`` are the curve runs (IPP rows are the paper's; Poisson rows, if
    any, are ignored here).  ``latency-accuracy``: ``worst_err`` is
    :func:`~models.core.claims.worst_error_below` ``below`` of the simulated
    saturation load over the four curves, ``sat_ratio`` the curves'
    model/simulation saturation ratio farthest from 1; with ``ratios``
    (:func:`saturation_ratio_table`) the note says where the gap comes from
    (:func:`gap_source`).  ``mmpp-fit`` (with ``fit``,
    :func:`fit_match_table`): holds when the four characteristics match to
    floating-point precision (:data:`FIT_TOLERANCE`).
    ``channel-load-balanced`` (with ``balance``, :func:`channel_balance_table`):
    fails when a curve's channel loads share an imbalance that the counting
    noise does not explain (``imbalanced``), holds when none does.
    ``blocking-time-exponential``: not measured (:data:`BLOCKING_NOT_MEASURED`),
    one row without a verdict.  Claims whose input is missing are left out,
    but for the last one.  The verdict is not here: the findings chapter
    derives it from these numbers.
    """
    rows = []
    ipp = [r for r in runs if r.curve.model.get("traffic", "ipp") == "ipp" and r.sim is not None]
    setups = [su for su in SETUPS if any(r.curve.setup == su for r in ipp)]
    for su in setups:
        mine = [r for r in ipp if r.curve.setup == su]
        err = worst_error_below(mine, below)
        fin = worst_error_below(mine, below, finite=True)
        ratio = worst_ratio([r.model_saturation / r.sim_saturation for r in mine if r.sim_saturation > 0])
        why = ""
        if ratios is not None and not ratios.empty and (ratios["setup"] == su).any():
            g = gap_source(ratios[ratios["setup"] == su])
            why = (f"; with Poisson sources the ratio differs by at most {g['max diff']:.3f} "
                   f"({g['max share']:.0%} of the gap), so the gap comes from "
                   + {"core": "the adaptive-routing core, not the MMPP part", "mmpp": "the MMPP part",
                      "both": "both the MMPP part and the adaptive-routing core",
                      "unknown": "an undetermined part"}[g["source"]] + " (03-burstiness)")
        unbounded = sum(math.isinf(worst_error_below(r, below)) for r in mine)
        rows.append(CLAIMS["latency-accuracy"].row(
            chapter, su, worst_err=err, sat_ratio=ratio, cause="model" if err == math.inf else "-",
            note=f"Figs. 1-2 (02-latency), set-up {su!r}: worst |error| {_error_words(err)} below {below:.0%} of "
                 f"the simulated saturation load over the {len(mine)} IPP curves (unbounded on {unbounded}), "
                 f"{_error_words(fin)} where the model is not saturated; the model saturates at {ratio:.3f} times "
                 f"the simulated load on the curve farthest from 1{why}.  Sec. 4 restates the claim: \"Results "
                 "from simulation experiments have revealed that the model predicts message latency with a good "
                 "degree of accuracy.\""))
    if fit is not None and not fit.empty:
        d = float(fit["max rel. diff"].max())
        holds = bool(d <= FIT_TOLERANCE)
        rows.append(CLAIMS["mmpp-fit"].row(
            chapter, "-", holds=holds, cause="-" if holds else "model",
            note=f"01-traffic: the fitted channel MMPP of every curve matches the mean rate, IDC(t), IDC(inf) and "
                 f"third moment of n_s superposed sources to {d:.1e} (relative; floating-point equality)."))
    if balance is not None and not balance.empty:
        for su in [s for s in SETUPS if s in set(balance["setup"])]:
            b = balance[balance["setup"] == su]
            flags = list(b["imbalanced"])
            holds = (False if any(f is True for f in flags) else
                     True if flags and all(f is False for f in flags) else None)
            per = "; ".join(f"Fig. {int(r['figure'])}({r['panel']}) {_error_words(r['sys cv'])} "
                            f"({_error_words(r['raw cv'])} raw, {int(r['runs'])} runs; + / - channels "
                            f"{r.get('plus / minus', math.nan):.3f})" for _, r in b.iterrows())
            rows.append(CLAIMS["channel-load-balanced"].row(
                chapter, su, holds=holds,
                note=f"03-burstiness (tab-torus_ipp-channel-balance), set-up {su!r}: spread of the simulated "
                     f"loads of the network channels shared by the runs of a curve (the coefficient of variation "
                     f"over the channels; the raw spread includes the counting noise of each run), and the mean "
                     f"load of the + channels over the - ones: {per}; 'equal' fails when that shared part exceeds "
                     "twice its standard error."))
    rows.append(CLAIMS["blocking-time-exponential"].row(chapter, "-", holds=None, note=BLOCKING_NOT_MEASURED))
    out = claims_frame(rows)
    out["holds"] = out["holds"].astype(object)  # True / False / None, never numpy booleans
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
    under the named ``setup`` (default the curve's own), with the run lengths of ``settings``."""
    if setup is not None:
        curve = with_setup(curve, setup)
    cfg, traffic = _scaled(curve, scale)
    sims = simulate_curve(curve.replace(model=dict(cfg, traffic=traffic)), [float(m) for m in mu1_values], settings)
    per_mu = IPP(1.0, cfg["sigma1"], cfg["sigma2"]).mean_rate
    return pd.DataFrame({"setup": curve.setup, "scale": scale, "mu1": list(mu1_values),
                         "mean rate": [m * per_mu for m in mu1_values],
                         "sim latency": [s["latency"] for s in sims], "sim latency CI": [s["latency CI"] for s in sims],
                         "sim saturated": [s["saturated"] for s in sims]})


# ----------------------------------------------------------------------------
# The numbers the pages quote (glued, never typed)
# ----------------------------------------------------------------------------
def glue_values_traffic(moments_check: pd.DataFrame, fitted: pd.DataFrame, match: pd.DataFrame,
                        mmpp_check: pd.DataFrame) -> dict:
    """The numbers :doc:`01-traffic` glues, by key, from its four tables.

    ``moment-maxdiff`` (:func:`moment_check_table`), ``fit-closed-diff``
    (:func:`fitted_parameters_table`), ``fit-match-maxdiff``
    (:func:`fit_match_table`): the largest relative differences;
    ``mmpp-m1-maxdiff``: the largest ``|rel. diff|`` of eq. (19) against the
    exact MMPP/M/1 CTMC, ``mmpp-sim-in-ci``: ``"n/m"``, the simulated
    MMPP/(D+M)/1 points within two half widths of eq. (19)
    (:func:`mmpp_g1_check_table`).
    """
    exact = mmpp_check[mmpp_check["reference kind"] == "exact CTMC"]
    sim = mmpp_check[mmpp_check["reference kind"] == "simulation"]
    inside = int(((sim["eq. 19 (closed G)"] - sim["reference"]).abs() <= 2 * sim["reference CI"]).sum())
    return {"torus_ipp-moment-maxdiff": float(moments_check["max rel. diff vs expm"].max()),
            "torus_ipp-fit-closed-diff": float(fitted["closed-form diff"].max()),
            "torus_ipp-fit-match-maxdiff": float(match["max rel. diff"].max()),
            "torus_ipp-mmpp-m1-maxdiff": float(exact["rel. diff"].abs().max()),
            "torus_ipp-mmpp-sim-in-ci": f"{inside}/{len(sim)}"}


def glue_values_latency(runs: Sequence[CurveRun], err: pd.DataFrame) -> dict:
    """The numbers :doc:`02-latency` glues, by key (nothing when nothing was simulated).

    Per set-up (short name of :data:`SETUP_KEYS`): ``err25-max-<key>``, the
    largest ``|err @25%|``, and ``satratio-min/max-<key>``, the range of the
    model / simulated saturation loads (``err`` is :func:`panel_error_table`
    of ``runs``); ``oneej-simsat-min/max``: the other set-up's simulated
    saturation load over :data:`DEFAULT_SETUP`'s, curve by curve (with both);
    ``ejection-util-max``: the busiest ejection channel under
    :data:`DEFAULT_SETUP`, flits/cycle = delivered messages/node/cycle x
    ``M``, over the unsaturated simulated points.
    """
    out = {}
    if not any(r.sim is not None for r in runs):
        return out
    setups = list(dict.fromkeys(err["setup"]))
    for su in setups:
        e = err[err["setup"] == su]
        key = SETUP_KEYS.get(su, su)
        out[f"torus_ipp-err25-max-{key}"] = float(e["err @25%"].abs().max())
        out[f"torus_ipp-satratio-min-{key}"] = float(e["sat. model / sim"].min())
        out[f"torus_ipp-satratio-max-{key}"] = float(e["sat. model / sim"].max())
    if len(setups) > 1 and DEFAULT_SETUP in setups:
        s = err.pivot_table(index=["figure", "panel"], columns="setup", values="sat. sim (mu1)")
        move = s[[su for su in setups if su != DEFAULT_SETUP][0]] / s[DEFAULT_SETUP]
        out["torus_ipp-oneej-simsat-min"] = float(move.min())
        out["torus_ipp-oneej-simsat-max"] = float(move.max())
    pts = sim_points_table([r for r in runs if r.curve.setup == DEFAULT_SETUP])
    if not pts.empty:
        live = pts[~pts["sim saturated"].astype(bool)]
        M = {(describe(r.curve)["figure"], describe(r.curve)["panel"]): r.curve.model["M"] for r in runs}
        util = live["sim throughput"] * [M[(f, p)] for f, p in zip(live["figure"], live["panel"])]
        out["torus_ipp-ejection-util-max"] = float(util.max())
    return out


def glue_values_gap(ratios: pd.DataFrame) -> dict:
    """Where the saturation gap comes from (:func:`gap_source` of :func:`saturation_ratio_table`), by key:
    ``gap-sentence``, ``gap-maxdiff``, ``gap-share``, ``gap-source``; only the sentence ``"(not simulated)"``
    when ``ratios`` is empty."""
    if ratios is None or ratios.empty:
        return {"torus_ipp-gap-sentence": "(not simulated)"}
    gap = gap_source(ratios)
    return {"torus_ipp-gap-sentence": gap["sentence"], "torus_ipp-gap-maxdiff": gap["max diff"],
            "torus_ipp-gap-share": gap["max share"], "torus_ipp-gap-source": gap["source"]}


def glue_values_paired(paired: pd.DataFrame | None) -> dict:
    """IPP against Poisson at the same loads (:func:`paired_burstiness_table`) on :data:`DEFAULT_SETUP` (else the
    first set-up), by key: ``paired-sim-max``/``-min`` (simulated latency ratio - 1), ``paired-low-max`` (its
    95% lower bound - 1), ``paired-model-max`` (the model's ratio - 1); nothing without the table."""
    if paired is None or paired.empty:
        return {}
    setups = list(dict.fromkeys(paired["setup"]))
    v = paired[paired["setup"] == (DEFAULT_SETUP if DEFAULT_SETUP in setups else setups[0])]
    return {"torus_ipp-paired-sim-max": float((v["sim IPP / Poisson"] - 1).max()),
            "torus_ipp-paired-sim-min": float((v["sim IPP / Poisson"] - 1).min()),
            "torus_ipp-paired-low-max": float((v["sim IPP / Poisson low"] - 1).max()),
            "torus_ipp-paired-model-max": float((v["model IPP / Poisson"] - 1).max())}


def glue_values_balance(balance: pd.DataFrame | None) -> dict:
    """The channel-load spread (:func:`channel_balance_table`) per set-up (short name of :data:`SETUP_KEYS`), by
    key: ``balance-syscv-max-<key>`` (the largest shared spread over the curves, a fraction),
    ``balance-rawcv-min/max-<key>`` (the raw spread, counting noise included), ``balance-imbalanced-<key>``
    (``"k of n"`` curves whose shared imbalance exceeds twice its standard error); nothing without the table."""
    out = {}
    if balance is None or balance.empty:
        return out
    for su in dict.fromkeys(balance["setup"]):
        b, key = balance[balance["setup"] == su], SETUP_KEYS.get(su, su)
        out[f"torus_ipp-balance-syscv-max-{key}"] = float(b["sys cv"].max())
        out[f"torus_ipp-balance-rawcv-min-{key}"] = float(b["raw cv"].min())
        out[f"torus_ipp-balance-rawcv-max-{key}"] = float(b["raw cv"].max())
        out[f"torus_ipp-balance-imbalanced-{key}"] = f"{sum(x is True for x in b['imbalanced'])} of {len(b)}"
    return out


def glue_values_claims(claims: pd.DataFrame) -> dict:
    """The claims table (:func:`claims_table`) in words, four keys per row ``torus_ipp-claim-<id>-<set-up key>``
    (the set-up's short name of :data:`SETUP_KEYS`, ``all`` for ``"-"``): the note, ``-err`` (the worst error,
    ``unbounded``, :data:`~models.core.tables.UNBOUNDED_WORD`, or ``n/a``), ``-ratio`` (the saturation ratio, or ``n/a``) and
    ``-holds`` (``yes``/``no``; for a fact left open: ``not decided``; else ``n/a``).  These are the chapter's
    numbers; the verdicts are the findings table's."""
    out = {}
    for row in claims.itertuples():
        key = f"torus_ipp-claim-{row.claim_id}-{SETUP_KEYS.get(row.setup, 'all')}"
        out[key] = row.note
        out[f"{key}-err"] = ("n/a" if np.isnan(row.worst_err) else UNBOUNDED_WORD
                             if np.isinf(row.worst_err) else f"{row.worst_err:.1%}")
        out[f"{key}-ratio"] = "n/a" if np.isnan(row.sat_ratio) else f"{row.sat_ratio:.3f}"
        undecided = "not decided" if row.kind == "fact" else "n/a"
        out[f"{key}-holds"] = {True: "yes", False: "no"}.get(row.holds, undecided)
    return out
