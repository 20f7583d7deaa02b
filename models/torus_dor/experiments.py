"""The paper's experiments and the chapter's own, on the shared skeleton of :mod:`models.core.experiment`.

A curve is a :class:`~models.core.setups.Curve` (built by
:func:`torus_curve`) whose ``model`` holds the keyword arguments of
:func:`models.torus_dor.solve` (``radices``, ``L``, ``M``,
``bidirectional``, ``readings``) and whose ``loads`` are fractions of the
simulated (``fractions_of="sim"``) or the model's saturation load.
:func:`run_figure` hands each curve of a figure to
:func:`models.core.experiment.run_curve` with this chapter's three functions:

1. the simulated saturation load, :func:`sim_saturation`: a fixed number of
   halvings of :math:`[0, \\text{capacity}]` on :math:`\\lambda_g` by
   :func:`models.core.saturation.find_saturation` (a run is saturated when
   the simulator says so: the backlog grows or passes its limit);
2. the simulations at the curve's fractions of that load
   (:func:`simulate_curve`, cached on disk by :func:`models.sim.sweep.run_sweep`);
3. the model at the same loads and on a line grid (:func:`model_point`), and
   its own saturation load (:func:`models.torus_dor.saturation_load`).

Run lengths, seed and the saturation search are a
:class:`~models.core.setups.SimSettings` (:data:`SETTINGS`: the paper's
120,000 messages after 10,000).  The simulator runs the paper's scheme
(:func:`sim_kwargs`, the model-to-simulator translation, which ``python -m
models.torus_dor curve --simulate`` uses too): routing ``"dor"`` (VC1 = v3..vL for any message,
v1/v2 dateline escape channels), ``L`` injection VCs, one ejection VC (the
paper's ejection M/G/1 queue, eq. 16), buffers of 2 flits, router delay 1
cycle: the one simulator set-up, ``"paper"`` (:data:`SETUPS`), on the
curve's torus.  The torus, unidirectional or bidirectional (:data:`TORI`),
is part of the curve's network (the model's keyword ``bidirectional`` as much
as the simulator's), not a set-up; the paper does not say which torus its
figures simulate, so every figure is run on both.

Two model readings are drawn on every figure: the chapter's default
(:class:`~models.torus_dor.equations.Readings`) and the printed text
(:data:`PRINTED`); the reconstructed 2003 model on Fig. 2.  The reading
argument is computed without simulation by :func:`reading_candidates`.
The paper's claims (:data:`CLAIMS`, one :class:`~models.core.claims.Claim`
per sentence of the paper), one row per torus, reading and network group,
are :func:`claims_table`.

Error tables come from :func:`models.core.experiment.error_table`, put in
the chapter's columns by :func:`error_summary` (relative errors as fractions
at 25/50/75/90% of the simulated saturation load, the worst error below
:data:`~models.core.setups.BELOW` of it by
:func:`models.core.claims.worst_error_below`, saturation loads).  The
chapter's own tables: :func:`points_table`, :func:`decomposition`,
:func:`zero_load_check`, :func:`switch_table`, :func:`switches_2003_table`,
:func:`occupancy_check`, :func:`assumptions_table`,
:func:`channel_rate_table`, :func:`reading_candidates`, :func:`comparison_table` (the 2004 and the
2003 models on every curve) and :func:`claims_table`.
Every number and sentence the pages glue or print comes from the
``glue_values_*`` and ``*_summary`` functions here.  Plots:
:mod:`models.torus_dor.plots`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import Claim, claims_frame, errors_below, worst_error_below
from ..core.setups import BELOW, SimSettings, SimulatorSetup, named_setup
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.setups import ERROR_FRACTIONS, Curve, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.tables import UNBOUNDED_WORD, percent, percent_text, signed_percent
from ..core.validate import require, require_choice
from ..networks.dor_paths import DorCombinatorics
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .equations import CHOICES, CHOICES_2003, Readings, Readings2003
from .model2003 import saturation_load_2003, solve_2003
from .solve import check_params, saturation_load, solve

__all__ = [
    "FIGURES", "FRACTIONS", "SIM_MESSAGES", "SIM_WARMUP", "SAT_MESSAGES", "SAT_STEPS", "SETTINGS", "MODEL_POINTS",
    "SETUPS", "DEFAULT_SETUP", "TORI", "torus_of", "PRINTED", "torus_curve", "figure1", "figure2", "curves_figure", "sim_kwargs",
    "simulate_curve", "capacity_load", "sim_saturation", "model_saturation", "saturation_2003", "saturation_printed",
    "model_point", "model_line", "run_figure", "sim_results", "points_table", "error_summary",
    "format_error_summary", "format_fraction", "model_column", "decomposition", "zero_load_check",
    "switch_variants", "switch_variants_2003", "switch_table", "switches_2003_table", "occupancy_check",
    "assumptions_table", "channel_rate_table", "READING_CANDIDATES", "reading_candidates", "CLAIMS", "claims_table",
    "PAPER_FIG1", "PAPER_FIG2", "READINGS", "is_paper_curve", "compare_2003", "comparison_table", "worst_key",
    "comparison_summary", "HALF", "errors_higher_near_saturation",
    "fig1_summary", "fig2_summary", "readings_summary", "assumptions_summary", "channel_rate_summary",
    "glue_values_latency", "glue_values_comparison", "glue_values_assumptions",
]

#: Run lengths of the paper (Sec. 3): 120,000 delivered messages after 10,000 discarded.
SIM_MESSAGES = 120_000
SIM_WARMUP = 10_000
#: Messages per probe of the simulated saturation search (a tenth more discarded first, at least 200), and
#: its halvings of [0, capacity].
SAT_MESSAGES = 20_000
SAT_STEPS = 8
#: The run lengths of the paper-scale figures (20 batches, seed 1).
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP, sat_messages=SAT_MESSAGES,
                       sat_steps=SAT_STEPS)
#: Simulated loads of the paper-scale runs, fractions of the simulated saturation load.
FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9)
#: Points of each model line.
MODEL_POINTS = 40

_X_LABEL = r"generation rate $\lambda_g$"

#: The paper's equations as printed (every switch of :class:`Readings` at its literal reading), with
#: the simulator's timing (one cycle for the ejection channel) like the default reading, so that the two
#: model curves of every figure differ only in the readings.  The ejection cycle is a constant added to
#: the latency (eq. 22), so the saturation load is that of ``Readings.printed()``.
PRINTED = Readings.printed().replace(ejection_cycle=True)

#: The simulator set-up (DESIGN.md, "Simulator set-ups are named"): one.  The paper's text says that "the
#: simulator uses the same assumptions as the analysis" (Sec. 3), and its model names the source queue (an M/G/1
#: queue of rate lambda_g/L: L injection VCs) and the ejection channel (the M/G/1 queue of eq. 16: one ejection
#: VC), so the paper's text and its model describe one simulated router; ``stands_for="paper"`` (it stands for
#: the model as well).  It overrides nothing: :func:`sim_kwargs` builds the paper's scheme for every curve.
SETUPS = {
    "paper": SimulatorSetup(
        "paper", "the paper's scheme (Sec. 3: 'the simulator uses the same assumptions as the analysis'): "
                 "dimension-order routing with the dateline VC scheme, L VCs per channel, L injection VCs (the "
                 "source queue's rate lambda_g/L), one ejection VC (the ejection M/G/1 queue, eq. 16), 2-flit "
                 "buffers, one cycle per router; on the curve's torus, unidirectional or bidirectional",
        stands_for="paper", overrides={}, short="paper's scheme"),
}
#: The set-up of every curve.
DEFAULT_SETUP = "paper"
#: The two tori, by name: the value of the model's (and the simulated torus's) keyword ``bidirectional``.  A
#: torus is part of a curve's network, like its radices (the model changes with it), so it is a *case* of a
#: claim, never a simulator set-up.  The paper states its model "in the context of the unidirectional torus for
#: the sake of presentation" and says that "only a few simple modifications are required to adapt it for the
#: bidirectional case", but does not say which torus Figs. 1 and 2 simulate; the load scale moves about
#: fourfold between the two, so every figure is run on both.
TORI = {"unidirectional": False, "bidirectional": True}


def torus_of(curve: Curve) -> str:
    """The name (a key of :data:`TORI`) of the torus of ``curve``: ``"bidirectional"`` or ``"unidirectional"``."""
    return "bidirectional" if curve.model.get("bidirectional", False) else "unidirectional"


# ----------------------------------------------------------------------------
# Curves and figures
# ----------------------------------------------------------------------------
def torus_curve(radices, L: int, M, *, bidirectional: bool = False, torus: str | None = None,
                setup: str = DEFAULT_SETUP, readings: Readings = Readings(), fractions: Sequence[float] = FRACTIONS,
                fractions_of: str = "sim") -> Curve:
    """One latency curve: torus ``radices``, ``L`` VCs, ``M`` flits, at ``fractions`` of a saturation load.

    ``bidirectional`` (or ``torus``, a name of :data:`TORI`, which must
    not contradict it) picks the torus, model and simulator alike;
    ``setup`` names the simulator set-up (:data:`SETUPS`).  The label is
    ``"<k0>x<k1>[ bi], L=<L>, M=<M>"``; ``model`` holds the keyword
    arguments of :func:`models.torus_dor.solve`, ``sim`` the set-up's
    overrides, ``setup`` its name.
    """
    if torus is not None:
        require_choice("torus", torus, list(TORI))
        if bidirectional and not TORI[torus]:
            raise ParameterError(f"`bidirectional={bidirectional!r}` contradicts the torus {torus!r}")
        bidirectional = TORI[torus]
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise ParameterError(f"`bidirectional` must be True or False; got {bidirectional!r}")
    over = named_setup(SETUPS, setup).sim()
    check_params(radices=radices, L=L, M=M, bidirectional=bool(bidirectional))
    if not isinstance(readings, Readings):
        raise ValueError(f"`readings` must be a Readings instance; got {readings!r}")
    radices = tuple(int(k) for k in radices)
    M = int(M) if float(M).is_integer() else float(M)
    net = "x".join(map(str, radices)) + (" bi" if bidirectional else "")
    return Curve(label=f"{net}, L={int(L)}, M={M}",
                 model=dict(radices=radices, L=int(L), M=M, bidirectional=bool(bidirectional), readings=readings),
                 sim=over, setup=setup, loads=tuple(fractions), fractions_of=fractions_of)


def curves_figure(label: str, title: str, curves: Sequence[Curve]) -> Figure:
    """A :class:`~models.core.setups.Figure` of latency against :math:`\\lambda_g`."""
    return Figure(label=label, title=title, curves=tuple(curves), x_label=_X_LABEL, x_unit="messages/node/cycle",
                  y_label="mean message latency", y_unit="cycles")


def figure1(networks=((16, 16), (8, 8, 8)), M_values=(32, 64, 100), vcs_values=(3, 5),
            fractions: Sequence[float] = FRACTIONS, tori: Sequence[str] = tuple(TORI)) -> Figure:
    """Fig. 1 of the paper: 16x16 and 8x8x8 tori, M = 32, 64, 100, L = 3, 5, on every torus of ``tori``."""
    curves = [torus_curve(tuple(net), int(L), int(M), torus=t, fractions=fractions)
              for t in tori for net in networks for L in vcs_values for M in M_values]
    return curves_figure("fig-torus_dor-fig1", "Fig. 1: latency against load, model and simulation", curves)


def figure2(radices=(16, 16), L: int = 5, M: int = 32, fractions: Sequence[float] = FRACTIONS,
            tori: Sequence[str] = tuple(TORI)) -> Figure:
    """Fig. 2 of the paper: 16x16, L = 5, M = 32 (this model, the 2003 model, simulation), on every torus."""
    cs = [torus_curve(tuple(radices), int(L), int(M), torus=t, fractions=fractions) for t in tori]
    return curves_figure("fig-torus_dor-fig2", f"Fig. 2: {cs[0].label.replace(' bi', '')}", cs)


#: The paper's figures at the paper's scale, by label (``"fig-torus_dor-fig1"``, ``"fig-torus_dor-fig2"``).
FIGURES: dict[str, Figure] = {f.label: f for f in (figure1(), figure2())}


# ----------------------------------------------------------------------------
# Simulation: the model -> simulator translation
# ----------------------------------------------------------------------------
def _flits(M):
    return int(M) if float(M).is_integer() else float(M)


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``rate = load`` (messages/node/cycle).

    The torus is the model's (``curve.model``: ``radices``, ``L``, ``M``,
    ``bidirectional``; a ``bidirectional`` in ``curve.sim`` must agree with
    it); the rest is the paper's scheme (:data:`SETUPS`): ``L`` VCs per channel and
    ``L`` injection VCs (the simulator's default), one ejection VC (its
    default with the ideal router), buffers of 2 flits, one cycle per router,
    ties at offset ``k/2`` of a bidirectional ring broken at random.  Run
    lengths, batches and seed are ``settings``'.
    """
    m = curve.model
    bidirectional = bool(curve.sim.get("bidirectional", m.get("bidirectional", False)))
    if bidirectional != bool(m.get("bidirectional", False)):
        raise ParameterError(f"curve {curve.label!r}: the model's torus (bidirectional={m.get('bidirectional')}) is "
                             f"not the simulated one (bidirectional={bidirectional})")
    return dict(topology=Torus(tuple(m["radices"]), bidirectional=bidirectional), routing="dor", vcs=m["L"],
                message_length=_flits(m["M"]), buffer_depth=2, router_delay=1, tie="random",
                messages=int(settings.messages), warmup_messages=int(settings.warmup_messages),
                batches=int(settings.batches), seed=int(settings.seed), rate=float(load))


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[dict]:
    """Simulations of ``curve`` at ``loads`` (messages/node/cycle): one cached sweep, one row per load.

    Each row: ``latency`` (cycles, inf if saturated), ``latency CI`` (95%
    half width), ``saturated``, ``multiplexing`` (the measured multiplexing
    degree), ``hops`` (mean hops) and ``result`` (the
    :class:`~models.sim.wormhole.WormholeResult`).  Over ``settings.jobs``
    processes (1: in this process), cached on disk with ``settings.cache``.
    """
    results = run_sweep([sim_kwargs(curve, x, settings) for x in loads], jobs=settings.jobs, cache=settings.cache,
                        progress=settings.progress)
    return [{"latency": sm.latency, "latency CI": sm.latency_ci, "saturated": sm.saturated,
             "multiplexing": sm.multiplexing, "hops": sm.mean_hops, "result": sm} for sm in results]


def capacity_load(curve: Curve) -> float:
    """Load at which a network channel would be busy all the time (:math:`\\lambda_cM=1`), messages/node/cycle."""
    m = curve.model
    c = DorCombinatorics(m["radices"], bidirectional=m["bidirectional"])
    channels = (2 if m["bidirectional"] else 1) * c.n
    return min(1.0 / m["M"], channels / (float(c.mean_hops) * m["M"]))


def sim_saturation(curve: Curve, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load of ``curve`` (messages/node/cycle): bisection of [0, capacity] on :math:`\\lambda_g`.

    Each probe is one cached simulation (:func:`simulate_curve`) of
    ``settings.probe_messages`` messages after a tenth as many (at least
    200), 10 batches, in this process; ``settings.sat_steps`` halvings
    (default :data:`SAT_STEPS`).  ``.load`` is the midpoint of the final
    bracket (relative width ``2**-steps`` of the capacity load).
    """
    probe = settings.probe_messages
    probes = settings.replace(messages=probe, warmup_messages=max(probe // 10, 200), batches=10, jobs=1)
    steps = SAT_STEPS if settings.sat_steps is None else settings.sat_steps
    return find_saturation(lambda x: bool(simulate_curve(curve, [x], probes)[0]["saturated"]), 0.0,
                           capacity_load(curve), rtol=0, max_steps=int(steps))


# ----------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------
def _kw_2003(curve: Curve, readings: Readings2003 = Readings2003()) -> dict:
    m = curve.model
    return dict(radices=m["radices"], L=m["L"], M=m["M"], bidirectional=m["bidirectional"], readings=readings)


@functools.lru_cache(maxsize=512)
def _sat_2004(radices: tuple, L: int, M, bidirectional: bool, readings: Readings) -> float:
    """:func:`models.torus_dor.saturation_load`, memoised per process (the tables share loads)."""
    return saturation_load(radices=radices, L=L, M=M, bidirectional=bidirectional, readings=readings)


@functools.lru_cache(maxsize=64)
def _sat_2003(radices: tuple, L: int, M, bidirectional: bool, readings: Readings2003 = Readings2003()) -> float:
    return saturation_load_2003(radices=radices, L=L, M=M, bidirectional=bidirectional, readings=readings)


def _saturation(curve: Curve, model: str) -> float:
    m = curve.model
    key = (tuple(m["radices"]), int(m["L"]), m["M"], bool(m["bidirectional"]))
    if model == "2003":
        return _sat_2003(*key)
    return _sat_2004(*key, PRINTED if model == "printed" else m["readings"])


def model_saturation(curve: Curve) -> float:
    """The model's saturation load (messages/node/cycle), :func:`models.torus_dor.saturation_load` (memoised)."""
    return _saturation(curve, "2004")


def saturation_2003(curve: Curve) -> float:
    """The reconstructed 2003 model's saturation load (default readings; memoised)."""
    return _saturation(curve, "2003")


def saturation_printed(curve: Curve) -> float:
    """The saturation load of the model as printed (:data:`PRINTED`; memoised)."""
    return _saturation(curve, "printed")


def model_point(curve: Curve, lam_g: float, *, with_2003: bool = False, with_printed: bool = False) -> dict:
    """The model at one load: ``latency`` (inf if saturated), ``saturated``, ``multiplexing`` (NaN if saturated);
    ``with_2003``: ``latency 2003`` (the reconstructed 2003 model, default readings); ``with_printed``:
    ``latency printed`` (the paper's equations as printed, :data:`PRINTED`)."""
    res = solve(lam_g, **curve.model)
    row = {"latency": res.latency, "saturated": res.saturated,
           "multiplexing": res.multiplexing if not res.saturated else math.nan}
    if with_2003:
        row["latency 2003"] = solve_2003(lam_g, **_kw_2003(curve)).latency
    if with_printed:
        row["latency printed"] = solve(lam_g, **dict(curve.model, readings=PRINTED)).latency
    return row


def model_line(curve: Curve, upto: float, points: int = MODEL_POINTS, *, readings=None,
               model: str = "2004") -> pd.DataFrame:
    """The model on ``points`` loads from ``upto/points`` to ``upto`` (latency ``inf`` past saturation).

    ``readings``: a :class:`Readings` (2004) or :class:`Readings2003` (2003)
    in place of the curve's own.
    """
    require_choice("model", model, ["2004", "2003"])
    loads = np.linspace(upto / points, upto, points)
    if model == "2004":
        kw = dict(curve.model, readings=curve.model["readings"] if readings is None else readings)
        lat = [solve(x, **kw).latency for x in loads]
    else:
        kw = _kw_2003(curve, readings if isinstance(readings, Readings2003) else Readings2003())
        lat = [solve_2003(x, **kw).latency for x in loads]
    return pd.DataFrame({"curve": curve.label, "rate": loads, "latency": lat})


def _line_loads(curve: Curve, sat_model: float, loads: list, points: int, with_2003: bool,
                with_printed: bool = False) -> list:
    """The line grid: up to the last simulated load + 5%, stopping just short of each model's saturation."""
    if points <= 0:
        return []
    xmax = max(loads) * 1.05 if loads else sat_model
    ups = [min(xmax, sat_model * 0.999)]
    if with_2003:
        ups.append(min(xmax, saturation_2003(curve) * 0.999))
    if with_printed:
        ups.append(min(xmax, saturation_printed(curve) * 0.999))
    return [float(x) for up in ups for x in np.linspace(up / points, up, points)]


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = MODEL_POINTS, with_2003: bool = False, with_printed: bool = True) -> tuple:
    """Model (and simulation) of every curve of ``figure``: one :class:`~models.core.setups.CurveRun` each.

    Each curve goes to :func:`models.core.experiment.run_curve`.  Loads are
    the curve's fractions of the simulated saturation load
    (:func:`sim_saturation`; of the model's when ``simulate`` is False or the
    curve has ``fractions_of="model"``).  ``run.sim`` has the columns of
    :func:`simulate_curve` (``latency``, ``latency CI`` (95% half width),
    ``saturated``, ``multiplexing``, ``hops``, ``result``) of runs of
    ``settings``; ``run.model`` has ``latency``, ``saturated``,
    ``multiplexing``, and ``latency 2003`` with ``with_2003``, ``latency
    printed`` (the model as printed, :data:`PRINTED`) with ``with_printed``,
    at the simulated loads and on a line grid of ``model_points`` loads per
    model.
    """
    if not isinstance(figure, Figure):
        raise ParameterError(f"`figure` must be a Figure (e.g. figure1()); got {figure!r}")
    model_points = require("model_points", model_points, 0, unit="points per model line", integer=True)

    def sim(c, loads):
        return simulate_curve(c, loads, settings)

    return each_curve(figure.curves, lambda c: run_curve(
        c, model=lambda cv, x: model_point(cv, x, with_2003=with_2003, with_printed=with_printed),
        sim=sim if simulate else None, model_saturation=model_saturation,
        sim_saturation=lambda cv, _model_load: sim_saturation(cv, settings),
        line=lambda cv, sat, loads: _line_loads(cv, sat, loads, model_points, with_2003, with_printed)))


def sim_results(run: CurveRun) -> list:
    """The WormholeResult objects of a run's simulated points (in the curve's order)."""
    return [] if run.sim is None else list(run.sim["result"])


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per simulated point: curve, torus, fraction, rate, model latency, model multiplexing,
    [printed latency], [2003 latency], sim latency, sim CI, sim saturated, sim multiplexing, sim hops."""
    frames = []
    for run in runs:
        if run.sim is None:
            pts = run.model[np.isfinite(run.model["fraction"].to_numpy(dtype=float))]
            pts = pts.rename(columns={c: f"model {c}" for c in pts.columns if c not in ("curve", "load", "fraction")})
        else:
            pts = run.points()
        out = pd.DataFrame({"curve": pts["curve"], "torus": torus_of(run.curve), "fraction": pts["fraction"],
                            "rate": pts["load"], "model latency": pts["model latency"],
                            "model multiplexing": pts["model multiplexing"]})
        if "model latency printed" in pts:
            out["printed latency"] = pts["model latency printed"]
        if "model latency 2003" in pts:
            out["2003 latency"] = pts["model latency 2003"]
        if run.sim is not None:
            for new, old in (("sim latency", "sim latency"), ("sim CI", "sim latency CI"),
                             ("sim saturated", "sim saturated"), ("sim multiplexing", "sim multiplexing"),
                             ("sim hops", "sim hops")):
                out[new] = pts[old]
        frames.append(out)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _as_model(run: CurveRun, which: str) -> CurveRun:
    """``run`` with the latency of another model in place of the default reading's (``"printed"``, ``"2003"``)."""
    if which == "default":
        return run
    sat = saturation_2003(run.curve) if which == "2003" else saturation_printed(run.curve)
    return dataclasses.replace(run, model=run.model.assign(latency=run.model[f"latency {which}"]),
                               model_saturation=sat)


def model_column(which: str = "default") -> str:
    """The ``run.points()`` column of a model reading: ``"model latency"`` (the default reading),
    ``"model latency printed"`` (:data:`PRINTED`) or ``"model latency 2003"`` (the 2003 model)."""
    require_choice("which", which, ["default", "printed", "2003"])
    return "model latency" if which == "default" else f"model latency {which}"


def error_summary(runs: Sequence[CurveRun], fractions: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per curve (grouped by torus): relative error ``(model - sim)/sim`` (a fraction, not
    percent) at each fraction of the simulated saturation load, the worst ``|error|`` below
    :data:`~models.core.setups.BELOW` of it (:func:`~models.core.claims.worst_error_below`), and the
    saturation loads (messages/node/cycle) of the model, the simulation, the model as printed
    and the 2003 model (when the runs have their latencies).

    Built on :func:`models.core.experiment.error_table`: an error is ``inf``
    when the model is saturated at that load, NaN when the simulation is (or
    the fraction was not run).  Columns: ``torus``, ``curve``, ``err <p>%``
    [``err printed <p>%``] [``err 2003 <p>%``] per fraction, ``worst <80%``
    [``worst printed <80%``] [``worst 2003 <80%``], ``sat model``, ``sat
    sim``, [``sat printed``], [``sat 2003``], ``sat model / sim``, [``sat
    printed / sim``], [``sat 2003 / sim``].
    """
    fractions = tuple(fractions)
    order = list(TORI)
    runs = sorted(runs, key=lambda r: order.index(torus_of(r.curve)))
    others = [w for w in ("printed", "2003") if any(f"latency {w}" in r.model for r in runs)]
    tables = {"default": error_table(runs, at=fractions)}
    for w in others:
        tables[w] = error_table([_as_model(r, w) for r in runs], at=fractions)
    base = tables["default"]
    out = pd.DataFrame({"torus": [torus_of(r.curve) for r in runs], "curve": base["curve"]})
    tag = {"default": "", "printed": "printed ", "2003": "2003 "}
    for w, t in tables.items():
        for f in fractions:
            col = f"err @{round(100 * f, 6):g}% [%]"  # the column of models.core.experiment.error_table
            out[f"err {tag[w]}{percent(f, 0)}"] = t[col] / 100.0
    for w in tables:
        out[f"worst {tag[w]}<{percent(BELOW, 0)}"] = [worst_error_below(r, column=model_column(w)) for r in runs]
    out["sat model"] = base["model saturation"]
    out["sat sim"] = base["sim saturation"]
    for w in others:
        out[f"sat {w}"] = tables[w]["model saturation"]
    out["sat model / sim"] = base["saturation ratio"]
    for w in others:
        out[f"sat {w} / sim"] = tables[w]["saturation ratio"]
    return out


def format_fraction(v: float, signed: bool = False) -> str:
    """A relative error (a fraction) as glued prose in the book's style (:mod:`models.core.tables`): ``"12.3%"``
    (``"+12.3%"`` with ``signed``), ``"unbounded"`` (:data:`~models.core.tables.UNBOUNDED_WORD`) for ``+inf``,
    ``"n/a"``."""
    if v == math.inf:
        return UNBOUNDED_WORD
    text = signed_percent(v) if signed else percent(v)
    return "n/a" if text is None else text


def format_error_summary(table: pd.DataFrame) -> pd.DataFrame:
    """The error table with errors as percentages and loads to 3 significant digits (strings, for the chapter page)."""
    out = table.copy()
    for c in out.columns:
        if c.startswith("err"):
            out[c] = [percent_text(v, signed=True) for v in out[c]]
        elif c.startswith("worst"):
            out[c] = [percent_text(v) for v in out[c]]
        elif c.startswith("sat") and c.endswith("/ sim"):
            out[c] = [f"{v:.2f}" if math.isfinite(v) else "n/a" for v in out[c]]
        elif c.startswith("sat"):
            out[c] = [f"{v:.3g}" if math.isfinite(v) else "n/a" for v in out[c]]
    return out


def decomposition(runs: Sequence[CurveRun], fraction: float = 0.5) -> pd.DataFrame:
    """Where the latency goes at ``fraction`` of the simulated saturation load, per curve.

    Columns: the multiplexing degree of model and simulation, and the latency
    divided by it minus the zero-load latency ``M + h + 1`` ("delay beyond
    multiplexing", cycles): the model's blocking and queueing terms, and what
    the simulation shows beyond its measured multiplexing.
    """
    rows = []
    for run in runs:
        if run.sim is None:
            continue
        pts = points_table([run])
        sel = pts[np.isclose(pts["fraction"], fraction)]
        if sel.empty:
            continue
        row = sel.iloc[0]
        zero = solve(1e-12, **run.curve.model).latency
        rows.append({"curve": run.label, "fraction": fraction, "zero-load": zero,
                     "l-bar model": row["model multiplexing"], "l-bar sim": row["sim multiplexing"],
                     "beyond mux model": row["model latency"] / row["model multiplexing"] - zero,
                     "beyond mux sim": row["sim latency"] / row["sim multiplexing"] - zero})
    return pd.DataFrame(rows)


def zero_load_check(curve: Curve, *, rate_fraction: float = 0.002, messages: int = 5000, seed: int = 1) -> dict:
    """Model and simulated latency at a tiny load (``rate_fraction`` of the capacity load) and ``M + h + 1``.

    The simulation: ``messages`` messages after a tenth as many (at least
    100), 20 batches, ``seed`` (:func:`simulate_curve`).
    """
    x = rate_fraction * capacity_load(curve)
    res = solve(x, **curve.model)
    run = SimSettings(messages=messages, warmup_messages=max(messages // 10, 100), seed=seed)
    sm = simulate_curve(curve, [x], run)[0]
    return {"curve": curve.label, "rate": x, "model": res.latency, "sim": sm["latency"], "sim CI": sm["latency CI"],
            "M+h+1": curve.model["M"] + res.h + 1, "rel. error": (res.latency - sm["latency"]) / sm["latency"]}


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


def switch_variants_2003(base: Readings2003 = Readings2003()) -> dict[str, Readings2003]:
    """The 2003 model's default reading and every single-switch alternative."""
    out = {"default": base}
    for name, choices in CHOICES_2003.items():
        for c in choices:
            if c != getattr(base, name):
                out[f"{name}={c}"] = base.replace(**{name: c})
    return out


def _switch_rows(variants: Mapping, loads, sim_latency, saturation, latency) -> pd.DataFrame:
    rows = []
    for name, rd in variants.items():
        row = {"reading": name, "saturation": saturation(rd)}
        for i, x in enumerate(loads):
            lat = latency(x, rd)
            row[f"T @ {x:.3g}"] = lat
            if sim_latency is not None and math.isfinite(sim_latency[i]):
                row[f"err @ {x:.3g}"] = (lat - sim_latency[i]) / sim_latency[i] if math.isfinite(lat) else math.inf
        rows.append(row)
    return pd.DataFrame(rows)


def switch_table(curve: Curve, loads: Sequence[float], sim_latency: Sequence[float] | None = None,
                 variants: dict | None = None) -> pd.DataFrame:
    """Saturation load and latency at ``loads`` under every reading; with ``sim_latency``, the errors."""
    variants = switch_variants(curve.model["readings"]) if variants is None else variants
    m = curve.model
    return _switch_rows(variants, loads, sim_latency,
                        lambda rd: _sat_2004(tuple(m["radices"]), int(m["L"]), m["M"], bool(m["bidirectional"]), rd),
                        lambda x, rd: solve(x, **dict(curve.model, readings=rd)).latency)


def switches_2003_table(curve: Curve, loads: Sequence[float], sim_latency=None):
    """Saturation and latency of the reconstructed 2003 model under each of its switches; ``(table, variants)``."""
    variants = switch_variants_2003()
    table = _switch_rows(variants, loads, sim_latency,
                         lambda rd: saturation_load_2003(**_kw_2003(curve, rd)),
                         lambda x, rd: solve_2003(x, **_kw_2003(curve, rd)).latency)
    return table, variants


# ----------------------------------------------------------------------------
# Assumptions (beyond the paper)
# ----------------------------------------------------------------------------
def occupancy_check(run: CurveRun) -> pd.DataFrame:
    """Measured vs modelled VC-occupancy distribution (P(v busy VCs), averaged over the channels of all
    dimensions) and multiplexing degree at the run's simulated loads."""
    curve, L = run.curve, run.curve.model["L"]
    rows = []
    for x, sm in zip(run.sim["load"], sim_results(run)):
        res = solve(x, **curve.model)
        model_occ = res.occupancy.mean(axis=0) if not res.saturated else np.full(L + 1, np.nan)
        for v in range(L + 1):
            rows.append({"rate": x, "busy VCs": v, "model": float(model_occ[v]),
                         "sim": float(sm.vc_busy_hist[v]) if sm is not None else math.nan})
        rows.append({"rate": x, "busy VCs": "multiplexing", "model": res.multiplexing if not res.saturated else math.nan,
                     "sim": sm.multiplexing if sm is not None else math.nan})
    return pd.DataFrame(rows)


def assumptions_table(run: CurveRun) -> pd.DataFrame:
    """What the model assumes against what the simulator measures at the run's loads: mean busy VCs,
    P(all L busy), multiplexing degree, source queueing time and latency (cycles)."""
    curve, L = run.curve, run.curve.model["L"]
    rows = []
    for x, f, sm in zip(run.sim["load"], run.sim["fraction"], sim_results(run)):
        res = solve(x, **curve.model)
        mo = res.occupancy.mean(axis=0) if not res.saturated else np.full(L + 1, np.nan)
        v = np.arange(L + 1)
        rows.append({"load (fraction of model sat.)": f, "rate": x,
                     "mean busy VCs model": float(mo @ v), "mean busy VCs sim": float(sm.vc_busy_hist @ v),
                     "P(all L busy) model": float(mo[-1]), "P(all L busy) sim": float(sm.vc_busy_hist[-1]),
                     "l-bar model": res.multiplexing, "l-bar sim": sm.multiplexing,
                     "source wait model": res.source_wait, "source wait sim": sm.source_wait,
                     "latency model": res.latency, "latency sim": sm.latency})
    return pd.DataFrame(rows)


def channel_rate_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Saturation loads under the mean (printed) and the per-dimension channel rate, against the simulation."""
    rows = []
    for run in runs:
        m = run.curve.model
        rows.append({"curve": run.label, "sat sim": run.sim_saturation, "sat model (mean rate)": run.model_saturation,
                     "sat model (per-dimension rate)": saturation_load(
                         **dict(m, readings=m["readings"].replace(channel_rate="per-dimension")))})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The reading of eqs. 14-15, argued without simulation
# ----------------------------------------------------------------------------
#: The readings of eqs. 14-15 the chapter weighs (every pair of ``waiting_max`` and ``waiting_weight``,
#: the other switches at the default) and the paper's equations as printed.
READING_CANDIDATES: dict[str, Readings] = {
    **{f"J {wm}, weight {ww}": Readings(waiting_max=wm, waiting_weight=ww)
       for ww in ("j-L+1", "j", "j-L") for wm in ("inputs", "inputs+injection", "printed")},
    "all printed": PRINTED,
}


def reading_candidates(radices=(16, 16), L: int = 5, M: int = 32, *, fraction: float = 0.5,
                       candidates: Mapping[str, Readings] | None = None,
                       tori: Sequence[str] = tuple(TORI)) -> pd.DataFrame:
    """Each candidate reading of eqs. 14-15 on each torus, computed from the models alone (no simulation).

    One row per (torus, reading): ``torus`` (a name of :data:`TORI`), ``reading``,
    ``waiting_max``, ``waiting_weight``, ``default`` (the chapter's
    default), ``sat 2004`` and ``sat 2003`` (messages/node/cycle), ``sat
    2004 / 2003``, ``W d<i>`` (the blocking time of dimension ``i`` at
    ``fraction`` of the reading's own saturation load, cycles), ``every
    dimension blocks`` (all ``W d<i> > 0``), ``later than 2003`` and ``claim
    needs sim sat``: the paper's Fig. 2 claim ("the saturation point of the
    model presented here is closer to the saturation point of the
    simulation") holds exactly when the simulated saturation load lies on
    this side of the midpoint of the two models' loads.
    """
    candidates = READING_CANDIDATES if candidates is None else candidates
    radices = tuple(int(k) for k in radices)
    rows = []
    for net in tori:
        require_choice("torus", net, list(TORI))
        bi = TORI[net]
        s03 = _sat_2003(radices, int(L), M, bi)
        for name, rd in candidates.items():
            s04 = _sat_2004(radices, int(L), M, bi, rd)
            res = solve(fraction * s04, radices=radices, L=L, M=M, bidirectional=bi, readings=rd)
            mid = 0.5 * (s04 + s03)
            row = {"torus": net, "network": f"{'x'.join(map(str, radices))}, L={int(L)}, M={M}", "reading": name,
                   "waiting_max": rd.waiting_max,
                   "waiting_weight": rd.waiting_weight, "default": rd == Readings(),
                   "sat 2004": s04, "sat 2003": s03, "sat 2004 / 2003": s04 / s03}
            row.update({f"W d{i}": float(w) for i, w in enumerate(res.W)})
            row["every dimension blocks"] = bool(np.all(res.W > 0))
            row["later than 2003"] = bool(s04 > s03)
            row["claim needs sim sat"] = (f"> {mid:.3g}" if s04 > s03 else f"< {mid:.3g}")
            rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The 2004 model against the 2003 model, curve by curve (the data of the comparison claims)
# ----------------------------------------------------------------------------
#: The paper's own configurations (radices, L, M): Fig. 1 (16x16 and 8x8x8, L = 3, 5, M = 32, 64, 100) and
#: Fig. 2 (16x16, L = 5, M = 32).  A curve on another network is a case beyond the paper's configuration.
PAPER_FIG1 = frozenset((r, L, M) for r in ((16, 16), (8, 8, 8)) for L in (3, 5) for M in (32, 64, 100))
PAPER_FIG2 = frozenset({((16, 16), 5, 32)})
#: The model readings a claim is judged under: the chapter's default reading and the equations as printed.
READINGS = {"default": "default reading", "printed": "as printed"}


def _config(curve: Curve) -> tuple:
    m = curve.model
    return tuple(int(k) for k in m["radices"]), int(m["L"]), m["M"]


def is_paper_curve(curve: Curve, figure: str = "any") -> bool:
    """Whether ``curve`` is on one of the paper's networks: ``figure`` ``"fig1"`` (:data:`PAPER_FIG1`),
    ``"fig2"`` (:data:`PAPER_FIG2`) or ``"any"`` (either); either torus (the paper does not say which)."""
    require_choice("figure", figure, ["fig1", "fig2", "any"])
    c = _config(curve)
    return c in {"fig1": PAPER_FIG1, "fig2": PAPER_FIG2, "any": PAPER_FIG1 | PAPER_FIG2}[figure]


def worst_key(run: CurveRun, which: str = "default") -> tuple:
    """How inaccurate model ``which`` is on ``run``, by the rule's number: ``(loads where its error is unbounded,
    worst finite |error|)`` over the simulated loads under 80% of the simulated saturation load.  Smaller is
    more accurate; the first entry is 0 exactly when :func:`~models.core.claims.worst_error_below` is finite,
    and the second is then that worst error (the key only breaks the tie of two unbounded errors)."""
    e = errors_below(run, column=model_column(which))
    if e.size == 0:
        return (math.nan, math.nan)
    fin = e[np.isfinite(e)]
    return (int(np.isinf(e).sum()), float(fin.max()) if fin.size else math.nan)


def compare_2003(run: CurveRun, which: str = "default"):
    """Whether model ``which`` (``"default"`` or ``"printed"``) is more accurate than the 2003 model on ``run``:
    :func:`worst_key` smaller (a worst |error| below 80% of the simulated saturation load that is smaller, or,
    both unbounded, unbounded at fewer loads, then a smaller worst finite error).  None without both."""
    a, b = worst_key(run, which), worst_key(run, "2003")
    if any(isinstance(x, float) and math.isnan(x) for x in (a[0], b[0])):
        return None
    if a[0] != b[0]:
        return bool(a[0] < b[0])
    if math.isnan(a[1]) or math.isnan(b[1]):
        return None
    return bool(a[1] < b[1])


#: "The high traffic region" of the 2003 claim: the simulated loads from this fraction of the simulated saturation
#: load up to :data:`~models.core.setups.BELOW`.
HALF = 0.5


def errors_higher_near_saturation(worst_below_half: float, worst_below: float):
    """Whether a model's worst |error| from :data:`HALF` to 80% of the simulated saturation load exceeds its worst
    |error| below :data:`HALF`, from the two worst errors (below :data:`HALF`, below 80%): the worst over both
    ranges exceeds the worst of the lower one exactly when the upper one's does.  None without both."""
    if math.isnan(worst_below_half) or math.isnan(worst_below):
        return None
    return bool(worst_below > worst_below_half)


def _sat(run: CurveRun, which: str) -> float:
    return {"default": run.model_saturation, "printed": saturation_printed(run.curve),
            "2003": saturation_2003(run.curve)}[which]


def comparison_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The 2004 model (default reading and as printed) and the reconstructed 2003 model on every simulated curve.

    ``runs`` need the 2003 model's latency (:func:`run_figure` with
    ``with_2003=True``) and the printed one; a curve that appears twice
    (Fig. 2's is also a Fig. 1 curve) is kept once.  One row per curve:
    ``torus``, ``curve``, ``paper`` (a network of the paper's Figs. 1-2,
    :func:`is_paper_curve`), ``sat sim`` and, per model ``m`` of
    ``default``, ``printed``, ``2003``: ``worst m`` (the worst |error| below
    80% of the simulated saturation load, fraction, inf if unbounded),
    ``sat m / sim``; ``better default``, ``better printed``
    (:func:`compare_2003`), ``closer default``, ``closer printed`` (the
    model's saturation load closer to the simulated one than the 2003
    model's, in log), ``worst 2003 <50%`` (the 2003 model's worst |error| at
    the simulated loads below half the simulated saturation load; its error
    is larger from 50% to 80% of that load than below 50% exactly when
    ``worst 2003`` exceeds it, :func:`errors_higher_near_saturation`).
    """
    rows, seen = [], set()
    for run in runs:
        key = (run.curve.label, torus_of(run.curve))
        if key in seen or run.sim is None or "latency 2003" not in run.model:
            continue
        seen.add(key)
        ssim = run.sim_saturation
        row = {"torus": torus_of(run.curve), "curve": run.curve.label, "paper": is_paper_curve(run.curve),
               "sat sim": ssim}
        for w in ("default", "printed", "2003"):
            row[f"worst {w}"] = worst_error_below(run, column=model_column(w))
            s = _sat(run, w)
            row[f"sat {w} / sim"] = s / ssim if ssim > 0 else math.nan
        for w in ("default", "printed"):
            row[f"better {w}"] = compare_2003(run, w)
            a, b = row[f"sat {w} / sim"], row["sat 2003 / sim"]
            row[f"closer {w}"] = (bool(abs(math.log(a)) < abs(math.log(b)))
                                  if all(math.isfinite(x) and x > 0 for x in (a, b)) else None)
        lo = errors_below(run, HALF, column=model_column("2003"))
        row["worst 2003 <50%"] = float(lo.max()) if lo.size else math.nan
        rows.append(row)
    cols = ["torus", "curve", "paper", "sat sim"] + [f"{a} {w}" for w in ("default", "printed", "2003")
                                                       for a in ("worst",)] + \
        [f"sat {w} / sim" for w in ("default", "printed", "2003")] + \
        ["better default", "better printed", "closer default", "closer printed", "worst 2003 <50%"]
    out = pd.DataFrame(rows, columns=cols)
    for c in ("better default", "better printed", "closer default", "closer printed"):
        out[c] = out[c].astype(object)
    return out


# ----------------------------------------------------------------------------
# The paper's claims (one Claim per sentence; rows per torus, reading and network group)
# ----------------------------------------------------------------------------
_CH = "torus_dor"

#: The paper's claims the chapter checks, one :class:`~models.core.claims.Claim` per sentence of the paper, by id.
#: None states a number, so none has a ``threshold``; the comparisons with the 2003 model are facts computed
#: from the paper's words ("closer", "a higher degree of accuracy", "especially near the high traffic region").
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("fig1-accuracy", "Sec. 3 (Fig. 1)",
          "The figure reveals that the model predicts the mean message latency with a good degree of accuracy "
          "when the network operates in the steady-state regions.", "error"),
    Claim("fig2-saturation-closer", "Sec. 3 (Fig. 2)",
          "It is observed that the saturation point of the model presented here is closer to the saturation "
          "point of the simulation results.", "fact"),
    Claim("more-accurate-than-2003", "Sec. 3 (after Fig. 2)",
          "For the sake of brevity, only one scenario has been shown. However, in all considered cases, the model "
          "proposed here has been observed to predict the average message latency in the network with a higher "
          "degree of accuracy compared to the one proposed in [16].", "fact"),
    Claim("saturation-prediction-improved", "Sec. 1",
          "Thus, the proposed model, while keeping all the advantages of the model proposed in [16], is highly "
          "improved in the accuracy of saturation point prediction.", "fact"),
    Claim("model2003-drawback-high-traffic", "Sec. 1 (on the model of [16])",
          "However, the accuracy of the model is its main drawback especially near the high traffic region.",
          "fact"),
)}


def _all_or_none(values) -> bool | None:
    """False if any is False; True if all are True; None otherwise (nothing decided, or some undecided)."""
    vals = [v for v in values]
    if any(v is False for v in vals):
        return False
    if vals and all(v is True for v in vals):
        return True
    return None


def _networks(labels) -> str:
    nets = dict.fromkeys(lb.split(",")[0].replace(" bi", "") for lb in labels)
    return ", ".join(nets)


def _groups(table: pd.DataFrame, paper_col: str = "paper"):
    """(torus, paper?, rows) of ``table``: tori in :data:`TORI` order, the paper's networks first."""
    for t in TORI:
        for paper in (True, False):
            g = table[(table["torus"] == t) & (table[paper_col].astype(bool) == paper)]
            if len(g):
                yield t, paper, g


def _case(torus: str, reading: str | None, paper: bool, labels) -> str:
    text = torus + ("" if reading is None else f", {READINGS[reading]}")
    return text if paper else f"{text}, other networks ({_networks(labels)})"


def _count(values) -> str:
    vals = list(values)
    return f"{sum(v is True for v in vals)} of {len(vals)}"


def claims_table(fig1_runs: Sequence[CurveRun], fig2_runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The chapter's claims table (:data:`~models.core.claims.CLAIM_COLUMNS`): the claims of :data:`CLAIMS`,
    one row per torus, reading and network group, all on the simulator set-up ``"paper"``.

    ``fig1_runs``: the Fig. 1 runs (:func:`run_figure` of :func:`figure1`),
    ``fig2_runs``: the Fig. 2 runs; both with the printed reading and, for
    the comparisons with the 2003 model, ``with_2003=True`` (the Fig. 1 rows
    of those claims are left out without it).  Cases: the torus (both are
    the paper's configuration: the paper does not say which torus it
    simulated), the reading (the default reading and the equations as
    printed: both are the paper's model, neither is known to be what the
    authors computed, so both decide) and, for curves on networks the paper
    did not use (quick profiles), "other networks" (``paper_config=False``).

    * ``fig1-accuracy`` (error): ``worst_err`` is
      :func:`~models.core.claims.worst_error_below` over the Fig. 1 curves,
      ``sat_ratio`` the model/simulated saturation ratio furthest from 1.
    * ``fig2-saturation-closer`` (fact, Fig. 2): the reading's saturation
      load is closer (in log) to the simulated one than the 2003 model's.
    * ``more-accurate-than-2003`` (fact, every curve): :func:`compare_2003`
      on every curve ("in all considered cases").
    * ``saturation-prediction-improved`` (fact, every curve): "closer" on
      every curve ("highly" is not judged).
    * ``model2003-drawback-high-traffic`` (fact, every curve): the 2003
      model's worst |error| from 50% to 80% of the simulated saturation load
      exceeds its worst |error| below 50% ("especially near the high traffic
      region"; "its main drawback" is not judged).
    """
    rows = []
    fig1_labels = {(r.curve.label, torus_of(r.curve)) for r in fig1_runs}
    # Fig. 1: the latency accuracy, per torus and reading
    f1 = [r for r in fig1_runs if r.sim is not None]
    for t in TORI:
        for paper in (True, False):
            g = [r for r in f1 if torus_of(r.curve) == t and is_paper_curve(r.curve, "fig1") == paper]
            if not g:
                continue
            labels = [r.curve.label for r in g]
            for w in READINGS:
                worst = [worst_error_below(r, column=model_column(w)) for r in g]
                ratios = [_sat(r, w) / r.sim_saturation for r in g if r.sim_saturation > 0]
                inf = sum(math.isinf(x) for x in worst)
                rows.append(CLAIMS["fig1-accuracy"].row(
                    _CH, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                    worst_err=max(worst), sat_ratio=_ratio_furthest(g, w), cause="model",
                    note=f"Fig. 1, {READINGS[w]}, {t} torus: worst over {len(g)} curves; unbounded on {inf} of "
                         f"{len(g)} (model/simulated saturation load {min(ratios):.2f} to {max(ratios):.2f}); "
                         "tab-torus_dor-fig1-errors"))
    # Fig. 2: the saturation point against the 2003 model, per torus and reading
    for run in [r for r in fig2_runs if r.sim is not None]:
        t, paper = torus_of(run.curve), is_paper_curve(run.curve, "fig2")
        s03, ssim = saturation_2003(run.curve), run.sim_saturation
        for w in READINGS:
            s04 = _sat(run, w)
            closer = (bool(abs(math.log(s04 / ssim)) < abs(math.log(s03 / ssim)))
                      if all(math.isfinite(x) and x > 0 for x in (s04, s03, ssim)) else None)
            why = ("; the default reading was preferred partly because it lets this claim hold (chapter page, "
                   "Reading choices 5), so this row is not independent evidence" if w == "default" else
                   "; the equations as printed (every reading switch at the paper's literal text)")
            rows.append(CLAIMS["fig2-saturation-closer"].row(
                _CH, DEFAULT_SETUP, case=_case(t, w, paper, [run.curve.label]), paper_config=paper,
                worst_err=worst_error_below(run, column=model_column(w)), sat_ratio=s04 / ssim, holds=closer,
                cause="-" if closer is not False else ("paper text" if w == "printed" else "model"),
                note=f"Fig. 2 ({run.curve.label}): model/simulated saturation load {s04 / ssim:.3f} ({READINGS[w]}) "
                     f"against {s03 / ssim:.3f} (the reconstructed 2003 model){why}; tab-torus_dor-fig2-errors"))
    # every simulated curve (Figs. 1 and 2): the comparisons with the 2003 model
    comp = comparison_table(list(fig2_runs) + list(fig1_runs))
    if len(comp):
        comp = comp.assign(fig1=[(c, t) in fig1_labels for c, t in zip(comp["curve"], comp["torus"])])
    for t, paper, g in _groups(comp) if len(comp) else ():
        labels = list(g["curve"])
        for w in READINGS:
            better = list(g[f"better {w}"])
            fig2 = g[g["curve"].isin([r.curve.label for r in fig2_runs])]
            detail = "; ".join(f"{c}: {format_fraction(a)} against {format_fraction(b)}"
                               for c, a, b in zip(fig2["curve"], fig2[f"worst {w}"], fig2["worst 2003"]))
            rows.append(CLAIMS["more-accurate-than-2003"].row(
                _CH, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                worst_err=float(g[f"worst {w}"].max()), holds=_all_or_none(better),
                cause="model" if _all_or_none(better) is False else "-",
                note=f"{READINGS[w]}, {t} torus: more accurate than the 2003 model on {_count(better)} curves "
                     f"(worst |error| below {BELOW:.0%} of the simulated saturation load"
                     + (f"; {detail}" if detail else "") + "); tab-torus_dor-comparison"))
        for w in READINGS:
            closer = list(g[f"closer {w}"])
            rows.append(CLAIMS["saturation-prediction-improved"].row(
                _CH, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                sat_ratio=_furthest(g[f"sat {w} / sim"]), holds=_all_or_none(closer),
                cause="-" if _all_or_none(closer) is not False else ("paper text" if w == "printed" else "model"),
                note=f"{READINGS[w]}, {t} torus: saturation load closer to the simulated one than the 2003 "
                     f"model's on {_count(closer)} curves (model/simulated {g[f'sat {w} / sim'].min():.2f} to "
                     f"{g[f'sat {w} / sim'].max():.2f}, 2003 model {g['sat 2003 / sim'].min():.2f} to "
                     f"{g['sat 2003 / sim'].max():.2f}); 'highly' is not judged; tab-torus_dor-comparison"))
        high = [errors_higher_near_saturation(lo, hi) for lo, hi in zip(g["worst 2003 <50%"], g["worst 2003"])]
        rows.append(CLAIMS["model2003-drawback-high-traffic"].row(
            _CH, DEFAULT_SETUP, case=_case(t, None, paper, labels), paper_config=paper,
            worst_err=float(g["worst 2003"].max()), sat_ratio=_furthest(g["sat 2003 / sim"]),
            holds=_all_or_none(high), cause="-",
            note=f"the reconstructed 2003 model (chapter page; its paper was not available), {t} torus: worst "
                 f"|error| from 50% to {BELOW:.0%} of the simulated saturation load above the worst below 50% on "
                 f"{_count(high)} curves (2003 model / simulated saturation load {g['sat 2003 / sim'].min():.2f} "
                 f"to {g['sat 2003 / sim'].max():.2f}); 'its main drawback' is not judged; "
                 "tab-torus_dor-comparison"))
    order = {cid: i for i, cid in enumerate(CLAIMS)}
    out = claims_frame(rows)
    return out.iloc[sorted(range(len(out)), key=lambda i: order[out["claim_id"].iloc[i]])].reset_index(drop=True)


def _furthest(ratios) -> float:
    vals = [float(v) for v in ratios if math.isfinite(v) and v > 0]
    return float(max(vals, key=lambda v: abs(math.log(v)))) if vals else math.nan


def _ratio_furthest(runs: Sequence[CurveRun], which: str = "default") -> float:
    """The model/simulation saturation ratio furthest from 1 (in log) over ``runs``."""
    vals = []
    for r in runs:
        sm = r.model_saturation if which == "default" else (
            saturation_printed(r.curve) if which == "printed" else saturation_2003(r.curve))
        if math.isfinite(sm) and math.isfinite(r.sim_saturation) and r.sim_saturation > 0 and sm > 0:
            vals.append(sm / r.sim_saturation)
    return float(max(vals, key=lambda v: abs(math.log(v)))) if vals else math.nan


# ----------------------------------------------------------------------------
# What the pages print and glue (every number and sentence computed here)
# ----------------------------------------------------------------------------
_WORST = f"<{percent(BELOW, 0)}"  # the suffix of the worst-error columns of error_summary: "<80%"


def _fig1_values(errors: pd.DataFrame) -> dict:
    """Per torus of a Fig. 1 :func:`error_summary`: the worst errors and the ranges of the saturation ratios."""
    out = {}
    for su in dict.fromkeys(errors["torus"]):
        t = errors[errors["torus"] == su]
        out[su] = {"worst": float(t[f"worst {_WORST}"].max()),
                   "worst-printed": float(t[f"worst printed {_WORST}"].max()),
                   "sat-ratio-min": float(t["sat model / sim"].min()),
                   "sat-ratio-max": float(t["sat model / sim"].max()),
                   "sat-ratio-printed-min": float(t["sat printed / sim"].min()),
                   "sat-ratio-printed-max": float(t["sat printed / sim"].max())}
    return out


def fig1_summary(errors: pd.DataFrame) -> str:
    """One Markdown bullet per torus of the Fig. 1 :func:`error_summary`: worst errors and saturation ratios."""
    lines = []
    for su, v in _fig1_values(errors).items():
        lines.append(f"- **{su} torus**: worst |error| below {BELOW:.0%} of the simulated saturation load: "
                     f"{format_fraction(v['worst'])} (default reading) and {format_fraction(v['worst-printed'])} "
                     f"(as printed); the model saturates at {v['sat-ratio-min']:.2f} to {v['sat-ratio-max']:.2f} "
                     f"times the simulated saturation load (as printed: {v['sat-ratio-printed-min']:.2f} to "
                     f"{v['sat-ratio-printed-max']:.2f}).")
    return "\n".join(lines)


def glue_values_latency(errors: pd.DataFrame, decomposition: pd.DataFrame, zero_load: pd.DataFrame) -> dict:
    """What :doc:`02-latency` glues, by key (``torus_dor-...``).

    ``errors``: the Fig. 1 :func:`error_summary`; per torus
    ``fig1-worst-<torus>`` and ``fig1-worst-printed-<torus>`` (the worst
    ``|error|`` below 80% of the simulated saturation load over the curves, as
    text, :func:`format_fraction`), ``fig1-sat-ratio-min/max-<torus>`` and
    ``fig1-sat-ratio-printed-min/max-<torus>`` (model / simulated saturation
    load).  ``decomposition`` (:func:`decomposition`): ``mux-max-err`` (the
    largest ``|l-bar model / l-bar sim - 1|``), ``beyond-ratio-min/max`` (the
    simulated delay beyond multiplexing over the model's); NaN without rows.
    ``zero_load`` (:func:`zero_load_check` rows): ``zero-load-max-err``.
    """
    out = {}
    for su, v in _fig1_values(errors).items():
        for k, x in v.items():
            out[f"torus_dor-fig1-{k}-{su}"] = x if k.startswith("sat") else format_fraction(x)
    dec = decomposition
    if len(dec):
        ratio = dec["beyond mux sim"] / dec["beyond mux model"]
        out["torus_dor-mux-max-err"] = float((dec["l-bar model"] / dec["l-bar sim"] - 1).abs().max())
        out["torus_dor-beyond-ratio-min"] = float(ratio.min())
        out["torus_dor-beyond-ratio-max"] = float(ratio.max())
    else:
        for k in ("torus_dor-mux-max-err", "torus_dor-beyond-ratio-min", "torus_dor-beyond-ratio-max"):
            out[k] = math.nan
    out["torus_dor-zero-load-max-err"] = float(zero_load["rel. error"].abs().max())
    return out


def fig2_summary(errors: pd.DataFrame) -> str:
    """One Markdown bullet per torus of the Fig. 2 :func:`error_summary` (saturation loads and ratios, worst
    errors of the three models), and the bidirectional / unidirectional ratio of the simulated saturation loads."""
    lines = []
    for _, row in errors.iterrows():
        su = row["torus"]
        lines.append(f"- **{su} torus**: the 2004 model saturates at {row['sat model']:.3g} messages/node/cycle "
                     f"({row['sat model / sim']:.2f} of the simulated {row['sat sim']:.3g}), the 2003 model at "
                     f"{row['sat 2003']:.3g} ({row['sat 2003 / sim']:.2f}), the 2004 model as printed at "
                     f"{row['sat printed']:.3g} ({row['sat printed / sim']:.2f}).  Worst |error| below "
                     f"{BELOW:.0%} of the simulated saturation load: {format_fraction(row[f'worst {_WORST}'])} "
                     f"(2004), {format_fraction(row[f'worst 2003 {_WORST}'])} (2003), "
                     f"{format_fraction(row[f'worst printed {_WORST}'])} (2004 as printed).")
    sims = errors.set_index("torus")["sat sim"]
    if {"unidirectional", "bidirectional"} <= set(sims.index):
        lines.append(f"- The simulated saturation load is {sims['bidirectional'] / sims['unidirectional']:.2f} times "
                     "higher on the bidirectional torus than on the unidirectional one.")
    return "\n".join(lines)


def _on(nets) -> str:
    return " and ".join(nets) + (" tori" if len(nets) > 1 else " torus")


def readings_summary(readings: pd.DataFrame) -> str:
    """What :func:`reading_candidates` says, in words: on which tori the 2004 model saturates before the 2003
    model under the printed weight ``j``, the equations as printed and the default reading; whether the
    weight ``j-L`` leaves the lowest dimension without blocking; whether every dimension blocks by default."""
    rc = readings
    text = []
    for name, mask in (("the printed weight $j$ (any $J$)", rc["waiting_weight"] == "j"),
                       ("the equations as printed", rc["reading"] == "all printed"),
                       ("the default reading", rc["default"])):
        sub = rc[mask]
        before = sub[~sub["later than 2003"]]["torus"].unique().tolist()
        after = sub[sub["later than 2003"]]["torus"].unique().tolist()
        if before:
            text.append(f"Under {name} the 2004 model saturates *before* the 2003 model on the {_on(before)}"
                        + (f" (after it on the {_on(after)})" if after else "") + ".")
        else:
            text.append(f"Under {name} the 2004 model saturates after the 2003 model on the {_on(after)}.")
    never = rc[(rc["waiting_weight"] == "j-L") & ~rc["every dimension blocks"]]
    if len(never):
        text.append("Under the weight $j-L$ with $J_{d_0}=L$ (`inputs` or `printed`), $\\tilde N_{d_0}=0$ and the "
                    "lowest dimension never blocks ($W_{d_0}=0$ in the table).")
    d = rc[rc["default"]]
    text.append("Under the default reading every dimension blocks: " + ("yes" if d["every dimension blocks"].all()
                                                                        else "no")
                + ".  Where the 2004 model saturates before the 2003 model, the paper's claim that its saturation "
                "point is closer to the simulation's could hold only if the simulated network saturated below the "
                "midpoint of the two (the last column), i.e. if the 2003 model erred by saturating too *late*.  The "
                "simulation had no part in the choice of reading; the simulated saturation loads are in the table "
                "above.")
    return " ".join(text)


def comparison_summary(comparison: pd.DataFrame) -> str:
    """:func:`comparison_table` in words: per torus, on how many simulated curves the 2004 model (default
    reading, as printed) is more accurate than the 2003 model and saturates closer to the simulation, and on how
    many the 2003 model's error is larger from 50% to 80% of the simulated saturation load than below 50%."""
    lines = []
    for t in TORI:
        g = comparison[comparison["torus"] == t]
        if g.empty:
            continue
        high = [errors_higher_near_saturation(a, b) for a, b in zip(g["worst 2003 <50%"], g["worst 2003"])]
        lines.append(
            f"- **{t} torus** ({len(g)} curves, {int(g['paper'].sum())} on the paper's networks): the 2004 model "
            f"is more accurate than the 2003 model (worst |error| below {BELOW:.0%} of the simulated saturation "
            f"load) on {_count(g['better default'])} (default reading) and {_count(g['better printed'])} (as "
            f"printed); its saturation load is closer to the simulated one on {_count(g['closer default'])} and "
            f"{_count(g['closer printed'])}; the 2003 model's error is larger from 50% to {BELOW:.0%} of the "
            f"simulated saturation load than below 50% on {_count(high)}.")
    return "\n".join(lines)


def glue_values_comparison(errors: pd.DataFrame | None = None, readings: pd.DataFrame | None = None,
                           switches: pd.DataFrame | None = None, run: CurveRun | None = None,
                           comparison: pd.DataFrame | None = None) -> dict:
    """What :doc:`03-comparison` glues, by key (``torus_dor-...``); each part from its table, when given.

    * ``errors`` (the Fig. 2 :func:`error_summary`), per torus:
      ``fig2-sat-model/sim/2003/printed-<torus>`` (messages/node/cycle),
      ``fig2-sat-<model>-ratio-sim-<torus>``, ``fig2-worst-model/2003/printed-<torus>``
      (text); and ``fig2-bi-uni-sim-sat-ratio`` with both tori;
    * ``readings`` (:func:`reading_candidates`), per torus: the default
      reading's ``readings-default-ratio/sat/W0/blocks-<torus>`` and the 2003
      model's ``readings-2003-sat-<torus>``, the printed weight's
      ``readings-weight-j-sat/ratio-<torus>``, ``readings-printed-ratio-<torus>``
      and ``readings-jl-W0-<torus>``;
    * ``switches`` (:func:`switch_table`) with ``run`` (the run of its curve):
      ``switch-biggest`` (the single switch that moves the saturation load
      most) and ``switch-biggest-ratio``, ``printed-sat-ratio`` and
      ``wj-sat-ratio`` (against the simulated saturation load),
      ``switch-setup`` (the torus of ``run``);
    * ``comparison`` (:func:`comparison_table`), per torus:
      ``cmp-better-default/printed-<torus>``, ``cmp-closer-default/printed-<torus>`` and
      ``cmp-2003-high-<torus>``, each ``"k of n"`` curves (:func:`comparison_summary`).
    """
    out = {}
    if errors is not None:
        for _, row in errors.iterrows():
            su = row["torus"]
            for k in ("sat model", "sat sim", "sat 2003", "sat printed", "sat model / sim", "sat 2003 / sim",
                      "sat printed / sim"):
                out[f"torus_dor-fig2-{k.replace(' / ', '-ratio-').replace(' ', '-')}-{su}"] = float(row[k])
            for k in ("", "2003 ", "printed "):
                out[f"torus_dor-fig2-worst-{k.strip() or 'model'}-{su}"] = format_fraction(row[f"worst {k}{_WORST}"])
        sims = errors.set_index("torus")["sat sim"]
        if {"unidirectional", "bidirectional"} <= set(sims.index):
            out["torus_dor-fig2-bi-uni-sim-sat-ratio"] = float(sims["bidirectional"] / sims["unidirectional"])
    if readings is not None:
        for su in dict.fromkeys(readings["torus"]):
            r = readings[readings["torus"] == su].set_index("reading")
            d = r[r["default"]].iloc[0]
            out[f"torus_dor-readings-default-ratio-{su}"] = float(d["sat 2004 / 2003"])
            out[f"torus_dor-readings-default-sat-{su}"] = float(d["sat 2004"])
            out[f"torus_dor-readings-2003-sat-{su}"] = float(d["sat 2003"])
            out[f"torus_dor-readings-weight-j-sat-{su}"] = float(r.loc["J inputs, weight j", "sat 2004"])
            out[f"torus_dor-readings-weight-j-ratio-{su}"] = float(r.loc["J inputs, weight j", "sat 2004 / 2003"])
            out[f"torus_dor-readings-printed-ratio-{su}"] = float(r.loc["all printed", "sat 2004 / 2003"])
            out[f"torus_dor-readings-jl-W0-{su}"] = float(r.loc["J inputs, weight j-L", "W d0"])
            out[f"torus_dor-readings-default-W0-{su}"] = float(d["W d0"])
            out[f"torus_dor-readings-default-blocks-{su}"] = "yes" if d["every dimension blocks"] else "no"
    if switches is not None:
        if run is None:
            raise ParameterError("`run` (the run of the switch table's curve) is needed with `switches`")
        swi = switches.set_index("reading")
        moves = (swi["saturation"] / swi.loc["default", "saturation"]).drop(["default", "all printed"])
        biggest = (moves - 1).abs().idxmax()
        out["torus_dor-switch-biggest"] = str(biggest)
        out["torus_dor-switch-biggest-ratio"] = float(moves[biggest])
        out["torus_dor-printed-sat-ratio"] = float(swi.loc["all printed", "saturation"] / run.sim_saturation)
        out["torus_dor-wj-sat-ratio"] = float(swi.loc["waiting_weight=j", "saturation"] / run.sim_saturation)
        out["torus_dor-switch-setup"] = torus_of(run.curve)
    if comparison is not None:
        for t in dict.fromkeys(comparison["torus"]):
            g = comparison[comparison["torus"] == t]
            for w in READINGS:
                out[f"torus_dor-cmp-better-{w}-{t}"] = _count(g[f"better {w}"])
                out[f"torus_dor-cmp-closer-{w}-{t}"] = _count(g[f"closer {w}"])
            out[f"torus_dor-cmp-2003-high-{t}"] = _count(
                errors_higher_near_saturation(a, b) for a, b in zip(g["worst 2003 <50%"], g["worst 2003"]))
    return out


def assumptions_summary(assumptions: pd.DataFrame, run: CurveRun) -> str:
    """:func:`assumptions_table` at its highest load in words: which assumption breaks first (``run``: the
    occupancy run, for the model / simulated saturation ratio)."""
    hi = assumptions.iloc[-1]
    allbusy = float(hi["P(all L busy) model"] / hi["P(all L busy) sim"])
    busy = float(hi["mean busy VCs model"] / hi["mean busy VCs sim"])
    mux = float(hi["l-bar model"] / hi["l-bar sim"] - 1)
    text = (f"At the higher load the model puts {allbusy:.2f} times as much probability as the simulator measures "
            f"on \"all $L$ VCs busy\", while its mean number of busy VCs is {busy:.2f} times the measured one; the "
            f"multiplexing degree is off by {mux:+.1%}.")
    if allbusy > 1 and busy < 1:
        text += (" So the assumption that breaks first is the *shape* of the occupancy distribution, in two ways. "
                 "The model has too little mass on $1..L-1$ busy VCs: its holding time $D_{d_i}$ leaves out the "
                 "multiplexing slowdown (a VC is held longer while its flits share the physical channel with "
                 "others), so the chain's utilisation $\\lambda_cD$ is too low.  And it has too much mass on \"all "
                 "$L$ busy\": Dally's chain lumps every state of an unbounded M/M/1 count with $L$ or more messages "
                 "into that one state, a tail that the simulated channels do not show.  The blocking probability "
                 "(eq. 5) and the waiting count (eq. 15) are read off that last state, so the model's blocking grows "
                 "too fast as the load rises"
                 + (" and its fixed point disappears before the simulated network saturates "
                    f"({run.model_saturation / run.sim_saturation:.2f} of the simulated saturation load here)"
                    if run.model_saturation < run.sim_saturation else "") + ".  The multiplexing "
                 "degree, a ratio of moments of the same distribution, benefits from the two errors cancelling.")
    return text


def _closer(channel_rates: pd.DataFrame) -> str:
    far_mean = (channel_rates["sat model (mean rate)"] / channel_rates["sat sim"]).apply(lambda v: abs(np.log(v)))
    far_dim = (channel_rates["sat model (per-dimension rate)"] / channel_rates["sat sim"]).apply(
        lambda v: abs(np.log(v)))
    return f"{int((far_dim < far_mean).sum())} of {len(channel_rates)}"


def channel_rate_summary(channel_rates: pd.DataFrame) -> str:
    """On how many curves of :func:`channel_rate_table` the per-dimension rate brings the model's saturation
    load closer (in log) to the simulated one, as a Markdown sentence."""
    return (f"The per-dimension rate brings the model's saturation load closer to the simulated one on "
            f"**{_closer(channel_rates)}** curves.")


def glue_values_assumptions(assumptions: pd.DataFrame, channel_rates: pd.DataFrame) -> dict:
    """What :doc:`04-assumptions` glues, by key (``torus_dor-...``).

    From :func:`assumptions_table` at its highest load: ``busy-ratio-high``
    (model / simulated mean busy VCs), ``allbusy-ratio-high`` (model /
    simulated P(all L busy)), ``mux-err-high`` (l-bar model / sim - 1); from
    :func:`channel_rate_table`: ``channel-rate-closer`` (``"k of n"`` curves
    on which the per-dimension rate is closer to the simulated saturation).
    """
    hi = assumptions.iloc[-1]
    return {"torus_dor-busy-ratio-high": float(hi["mean busy VCs model"] / hi["mean busy VCs sim"]),
            "torus_dor-allbusy-ratio-high": float(hi["P(all L busy) model"] / hi["P(all L busy) sim"]),
            "torus_dor-mux-err-high": float(hi["l-bar model"] / hi["l-bar sim"] - 1),
            "torus_dor-channel-rate-closer": _closer(channel_rates)}
