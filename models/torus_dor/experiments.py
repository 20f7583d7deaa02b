"""The paper's experiments and the chapter's own, on the shared skeleton of :mod:`models.core.experiment`.

A curve is the :class:`~models.core.setups.Curve` of a checked network
(:func:`models.torus_dor.setups.torus_curve` of a
:class:`~models.torus_dor.setups.DorParams`) whose ``model`` holds the
keyword arguments of :func:`models.torus_dor.solve` (``radices``, ``L``,
``M``, ``bidirectional``, ``readings``) and whose ``loads`` are fractions of
the simulated (``fractions_of="sim"``) or the model's saturation load.
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
:class:`~models.core.setups.SimSettings`
(:data:`~models.torus_dor.setups.SETTINGS`: the paper's 120,000 messages
after 10,000).  The simulator runs the paper's scheme (:func:`sim_kwargs`,
the model-to-simulator translation, which :func:`models.torus_dor.compare`
and ``python -m models.torus_dor curve --simulate`` use too): routing
``"dor"`` (VC1 = v3..vL for any message, v1/v2 dateline escape channels),
``L`` injection VCs, one ejection VC (the paper's ejection M/G/1 queue, eq.
16), buffers of 2 flits, router delay 1 cycle: the one simulator set-up,
``"paper"`` (:data:`~models.torus_dor.setups.SETUPS`), on the curve's torus,
unidirectional or bidirectional (:data:`~models.torus_dor.setups.TORI`),
which is part of the curve's network, not a set-up; the paper does not say
which torus its figures simulate, so every figure is run on both.

Two model readings are drawn on every figure: the chapter's default
(:class:`~models.torus_dor.equations.Readings`) and the printed text
(:data:`PRINTED`); the reconstructed 2003 model on Fig. 2.  The reading
argument is computed without simulation by :func:`reading_candidates`.

Error tables come from :func:`models.core.experiment.error_table`, put in
the chapter's columns by :func:`error_summary` (relative errors as fractions
at 25/50/75/90% of the simulated saturation load, the worst error below
:data:`~models.core.setups.BELOW` of it by
:func:`models.core.claims.accuracy_below` at 25, 50 and 75 % of it, saturation loads).  The
chapter's own tables: :func:`points_table`, :func:`decomposition`,
:func:`zero_load_check`, :func:`switch_table`, :func:`switches_2003_table`,
:func:`occupancy_check`, :func:`assumptions_table`,
:func:`channel_rate_table`, :func:`reading_candidates` and
:func:`models.torus_dor.versus2003.comparison_table` (the 2004 and the reconstructed 2003 models on every
curve, decided beyond the noise).
The paper's claims are :mod:`models.torus_dor.claims`; the numbers and
sentences the pages glue, :mod:`models.torus_dor.glue`; the plots,
:mod:`models.torus_dor.plots`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import accuracy_below
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.results import SimPoint, ci_column
from ..core.saturation import Saturation, find_saturation
from ..core.setups import BELOW, ERROR_FRACTIONS, Curve, Figure, SimSettings
from ..core.tables import UNBOUNDED_WORD, percent, percent_text, signed_percent
from ..core.validate import require, require_choice
from ..networks.dor_paths import DorCombinatorics
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .readings import CHOICES, CHOICES_2003, Readings, Readings2003
from .model2003 import saturation_load_2003, solve_2003
from .setups import FRACTIONS, SAT_STEPS, SETTINGS, TORI, DorParams, torus_curve, torus_of
from .solve import saturation_load, solve

__all__ = [
    "FIGURES", "MODEL_POINTS", "PRINTED", "figure1", "figure2", "curves_figure", "sim_kwargs", "simulate_curve",
    "capacity_load", "sim_saturation", "model_saturation", "saturation_2003", "saturation_printed", "model_point",
    "model_line", "run_figure", "sim_results", "points_table", "error_summary", "format_error_summary",
    "format_fraction", "count_of", "model_column", "decomposition", "zero_load_check", "switch_variants",
    "switch_variants_2003", "switch_table", "switches_2003_table", "occupancy_check", "assumptions_table",
    "channel_rate_table", "READING_CANDIDATES", "reading_candidates", "PAPER_FIG1", "PAPER_FIG2", "READINGS",
    "saturation_of", "is_paper_curve", "as_model", 
]

#: Points of each model line.
MODEL_POINTS = 40

_X_LABEL = r"generation rate $\lambda_g$"

#: The paper's equations as printed (every switch of :class:`Readings` at its literal reading), with
#: the simulator's timing (one cycle for the ejection channel) like the default reading, so that the two
#: model curves of every figure differ only in the readings.  The ejection cycle is a constant added to
#: the latency (eq. 22), so the saturation load is that of ``Readings.printed()``.
PRINTED = Readings.printed().replace(ejection_cycle=True)


# ----------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------
def curves_figure(label: str, title: str, curves: Sequence[Curve]) -> Figure:
    """A :class:`~models.core.setups.Figure` of latency against :math:`\\lambda_g`."""
    return Figure(label=label, title=title, curves=tuple(curves), x_label=_X_LABEL, x_unit="messages/node/cycle",
                  y_label="mean message latency", y_unit="cycles")


def figure1(networks=((16, 16), (8, 8, 8)), M_values=(32, 64, 100), vcs_values=(3, 5),
            fractions: Sequence[float] = FRACTIONS, tori: Sequence[str] = tuple(TORI)) -> Figure:
    """Fig. 1 of the paper: 16x16 and 8x8x8 tori, M = 32, 64, 100, L = 3, 5, on every torus of ``tori``."""
    curves = [torus_curve(DorParams.on_torus(t, net, L, M), fractions=fractions)
              for t in tori for net in networks for L in vcs_values for M in M_values]
    return curves_figure("fig-torus_dor-fig1", "Fig. 1: latency against load, model and simulation", curves)


def figure2(radices=(16, 16), L: int = 5, M: int = 32, fractions: Sequence[float] = FRACTIONS,
            tori: Sequence[str] = tuple(TORI)) -> Figure:
    """Fig. 2 of the paper: 16x16, L = 5, M = 32 (this model, the 2003 model, simulation), on every torus."""
    cs = [torus_curve(DorParams.on_torus(t, radices, L, M), fractions=fractions) for t in tori]
    return curves_figure("fig-torus_dor-fig2", f"Fig. 2: {cs[0].label.replace(' bi', '')}", cs)


#: The paper's figures at the paper's scale, by label (``"fig-torus_dor-fig1"``, ``"fig-torus_dor-fig2"``).
FIGURES: dict[str, Figure] = {f.label: f for f in (figure1(), figure2())}


# ----------------------------------------------------------------------------
# Simulation: the model -> simulator translation
# ----------------------------------------------------------------------------
def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``rate = load`` (messages/node/cycle).

    The torus is the model's (``curve.model``, checked when the curve was
    made: ``radices``, ``L`` -> ``vcs``, ``M`` -> ``message_length``,
    ``bidirectional``; a ``bidirectional`` in ``curve.sim`` must agree with
    it); the rest is the paper's scheme (:data:`~models.torus_dor.setups.SETUPS`):
    ``L`` VCs per channel and ``L`` injection VCs (the simulator's default),
    one ejection VC (its default with the ideal router), buffers of 2 flits,
    one cycle per router, ties at offset ``k/2`` of a bidirectional ring
    broken at random.  Run lengths, batches and seed are ``settings``' (:meth:`SimSettings.run_lengths <models.core.setups.SimSettings.run_lengths>`: with
    ``settings.target_ci`` a point stops once precise, at most ``settings.messages``).
    """
    m = curve.model
    bidirectional = bool(curve.sim.get("bidirectional", m.get("bidirectional", False)))
    if bidirectional != bool(m.get("bidirectional", False)):
        raise ParameterError(f"curve {curve.label!r}: the model's torus (bidirectional={m.get('bidirectional')}) is "
                             f"not the simulated one (bidirectional={bidirectional})")
    return dict(topology=Torus(m["radices"], bidirectional=bidirectional), routing="dor", vcs=m["L"],
                message_length=m["M"], buffer_depth=2, router_delay=1, tie="random",
                warmup_messages=int(settings.warmup_messages), batches=int(settings.batches),
                seed=int(settings.seed), rate=float(load), **settings.run_lengths())


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[SimPoint]:
    """Simulations of ``curve`` at ``loads`` (messages/node/cycle): one cached sweep, one point per load.

    Each :class:`~models.core.results.SimPoint`: ``latency`` (cycles, inf if
    saturated), ``latency_ci`` (95% half width), ``saturated`` and the extras
    ``multiplexing`` (the measured multiplexing degree), ``hops`` (mean hops),
    ``messages`` (the measured messages the run used) and ``result`` (the
    :class:`~models.sim.wormhole.WormholeResult`, for the occupancy tables).  Over ``settings.jobs`` processes (1: in this
    process), cached on disk with ``settings.cache``.
    """
    results = run_sweep([sim_kwargs(curve, x, settings) for x in loads], jobs=settings.jobs, cache=settings.cache,
                        progress=settings.progress)
    return [SimPoint(sm.latency, sm.latency_ci, sm.saturated,
                     extra={"multiplexing": sm.multiplexing, "hops": sm.mean_hops, "messages": sm.messages,
                                                           "result": sm}) for sm in results]


def capacity_load(curve: Curve) -> float:
    """Load at which a network channel would be busy all the time (:math:`\\lambda_cM=1`), messages/node/cycle."""
    m = curve.model
    c = DorCombinatorics(m["radices"], bidirectional=m["bidirectional"])
    channels = (2 if m["bidirectional"] else 1) * c.n
    return min(1.0 / m["M"], channels / (float(c.mean_hops) * m["M"]))


def sim_saturation(curve: Curve, guess: float = math.nan, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load of ``curve`` (messages/node/cycle): bisection of [0, capacity] on :math:`\\lambda_g`.

    ``guess`` (the model's saturation load) is not used: the bracket is
    fixed, so that the simulated load does not depend on the model.  Each
    probe is one cached simulation (:func:`simulate_curve`) of
    ``settings.probe_messages`` messages after a tenth as many (at least
    200), 10 batches, fixed length (:meth:`SimSettings.fixed_length <models.core.setups.SimSettings.fixed_length>`), in this process; ``settings.sat_steps`` halvings
    (default :data:`~models.torus_dor.setups.SAT_STEPS`).  ``.load`` is the
    midpoint of the final bracket (relative width ``2**-steps`` of the
    capacity load).
    """
    probe = settings.probe_messages
    probes = settings.fixed_length().replace(messages=probe, warmup_messages=max(probe // 10, 200), batches=10,
                                            jobs=1)
    steps = SAT_STEPS if settings.sat_steps is None else settings.sat_steps
    return find_saturation(lambda x: simulate_curve(curve, [x], probes)[0].saturated, 0.0,
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
    key = (m["radices"], m["L"], m["M"], m["bidirectional"])
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
        sim_saturation=lambda cv, guess: sim_saturation(cv, guess, settings),
        line=lambda cv, sat, loads: _line_loads(cv, sat, loads, model_points, with_2003, with_printed)))


def sim_results(run: CurveRun) -> list:
    """The WormholeResult objects of a run's simulated points (in the curve's order)."""
    return [] if run.sim is None else list(run.sim["result"])


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per simulated point: curve, torus, fraction, rate, model latency, model multiplexing,
    [printed latency], [2003 latency], sim latency, sim CI, sim saturated, sim multiplexing, sim hops, sim messages
    (the measured messages of the point's run)."""
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
            for new, old in (("sim latency", "sim latency"), ("sim CI", f"sim {ci_column('latency')}"),
                             ("sim saturated", "sim saturated"), ("sim multiplexing", "sim multiplexing"),
                             ("sim hops", "sim hops"), ("sim messages", "sim messages")):
                out[new] = pts[old]
        frames.append(out)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def as_model(run: CurveRun, which: str) -> CurveRun:
    """``run`` with the latency and the saturation load of another model in place of the default reading's
    (``"printed"``: :data:`PRINTED`, ``"2003"``: the reconstructed 2003 model; ``"default"``: ``run`` itself), so
    that :func:`models.core.claims.accuracy_below` judges that model's unboundedness from its own saturation
    load against the simulated bracket."""
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
    :data:`~models.core.setups.BELOW` of it (:func:`~models.core.claims.accuracy_below` of :func:`as_model`: at the
    fixed fractions 25, 50, 75 %, unbounded from each model's own saturation load against the simulated bracket), and the
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
        tables[w] = error_table([as_model(r, w) for r in runs], at=fractions)
    base = tables["default"]
    out = pd.DataFrame({"torus": [torus_of(r.curve) for r in runs], "curve": base["curve"]})
    tag = {"default": "", "printed": "printed ", "2003": "2003 "}
    for w, t in tables.items():
        for f in fractions:
            col = f"err @{round(100 * f, 6):g}% [%]"  # the column of models.core.experiment.error_table
            out[f"err {tag[w]}{percent(f, 0)}"] = t[col] / 100.0
    for w in tables:
        out[f"worst {tag[w]}<{percent(BELOW, 0)}"] = [accuracy_below(as_model(r, w)).worst for r in runs]
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


def count_of(values) -> str:
    """``"k of n"``: how many of ``values`` are True (None and False are not), of how many."""
    vals = list(values)
    return f"{sum(v is True for v in vals)} of {len(vals)}"


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
    return {"curve": curve.label, "rate": x, "model": res.latency, "sim": sm.latency, "sim CI": sm.latency_ci,
            "M+h+1": curve.model["M"] + res.h + 1, "rel. error": (res.latency - sm.latency) / sm.latency}


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
                        lambda rd: _sat_2004(m["radices"], m["L"], m["M"], m["bidirectional"], rd),
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
    rows = []
    for net in tori:
        p = DorParams.on_torus(net, radices, L, M)
        s03 = _sat_2003(p.radices, p.L, p.M, p.bidirectional)
        for name, rd in candidates.items():
            s04 = _sat_2004(p.radices, p.L, p.M, p.bidirectional, rd)
            res = solve(fraction * s04, **p.model, readings=rd)
            mid = 0.5 * (s04 + s03)
            row = {"torus": net, "network": f"{'x'.join(map(str, p.radices))}, L={p.L}, M={p.M}",
                   "reading": name,
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
# The paper's configurations and the model readings of the claims (the comparisons: versus2003.py)
# ----------------------------------------------------------------------------
#: The paper's own configurations (radices, L, M): Fig. 1 (16x16 and 8x8x8, L = 3, 5, M = 32, 64, 100) and
#: Fig. 2 (16x16, L = 5, M = 32).  A curve on another network is a case beyond the paper's configuration.
PAPER_FIG1 = frozenset((r, L, M) for r in ((16, 16), (8, 8, 8)) for L in (3, 5) for M in (32, 64, 100))
PAPER_FIG2 = frozenset({((16, 16), 5, 32)})
#: The model readings a claim is judged under: the chapter's default reading and the equations as printed.
READINGS = {"default": "default reading", "printed": "as printed"}


def _config(curve: Curve) -> tuple:
    m = curve.model
    return m["radices"], m["L"], m["M"]


def is_paper_curve(curve: Curve, figure: str = "any") -> bool:
    """Whether ``curve`` is on one of the paper's networks: ``figure`` ``"fig1"`` (:data:`PAPER_FIG1`),
    ``"fig2"`` (:data:`PAPER_FIG2`) or ``"any"`` (either); either torus (the paper does not say which)."""
    require_choice("figure", figure, ["fig1", "fig2", "any"])
    c = _config(curve)
    return c in {"fig1": PAPER_FIG1, "fig2": PAPER_FIG2, "any": PAPER_FIG1 | PAPER_FIG2}[figure]


def saturation_of(run: CurveRun, which: str = "default") -> float:
    """The saturation load (messages/node/cycle) of model ``which`` on ``run``'s curve: ``"default"`` (the run's
    own), ``"printed"`` (:data:`PRINTED`) or ``"2003"`` (the reconstructed 2003 model)."""
    return {"default": run.model_saturation, "printed": saturation_printed(run.curve),
            "2003": saturation_2003(run.curve)}[which]
