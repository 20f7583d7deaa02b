"""The paper's experiments and the chapter's own, on the shared skeleton of :mod:`models.core.experiment`.

A curve is a :class:`~models.core.experiment.Curve` (built by
:func:`torus_curve`) whose ``model`` holds the keyword arguments of
:func:`models.torus_dor.solve` (``radices``, ``L``, ``M``,
``bidirectional``, ``readings``) and whose ``loads`` are fractions of the
simulated (``fractions_of="sim"``) or the model's saturation load.
:func:`run_curve` hands it to :func:`models.core.experiment.run_curve` with
this chapter's three functions:

1. the simulated saturation load, :func:`sim_saturation`: a fixed number of
   halvings of :math:`[0, \\text{capacity}]` on :math:`\\lambda_g` by
   :func:`models.core.saturation.find_saturation` (a run is saturated when
   the simulator says so: the backlog grows or passes its limit);
2. the simulations at the curve's fractions of that load (:func:`run_sim`,
   cached on disk by :func:`models.sim.sweep.run_sweep`);
3. the model at the same loads and on a line grid (:func:`model_point`), and
   its own saturation load (:func:`models.torus_dor.saturation_load`).

The simulator runs the paper's scheme (:func:`sim_config`, the model-to-
simulator translation): routing ``"dor"`` (VC1 = v3..vL for any message,
v1/v2 dateline escape channels), ``L`` injection VCs, one ejection VC (the
paper's ejection M/G/1 queue, eq. 16), buffers of 2 flits, router delay 1
cycle, on the torus named by the curve's simulator set-up (:data:`SETUPS`:
``"unidirectional"`` or ``"bidirectional"``; the paper does not say which
torus its figures simulate, so every figure is run on both).

Two model readings are drawn on every figure: the chapter's default
(:class:`~models.torus_dor.equations.Readings`) and the printed text
(:data:`PRINTED`); the reconstructed 2003 model on Fig. 2.  The reading
argument is computed without simulation by :func:`reading_candidates`.
The paper's claims, one row per claim and set-up, are :func:`claims_table`.

Error tables come from :func:`models.core.experiment.error_table`, put in
the chapter's columns by :func:`error_table` (relative errors as fractions
at 25/50/75/90% of the simulated saturation load, saturation loads).  The
chapter's own tables: :func:`points_table`, :func:`decomposition`,
:func:`zero_load_check`, :func:`switch_table`, :func:`switches_2003_table`,
:func:`occupancy_check`, :func:`assumptions_table`,
:func:`channel_rate_table`, :func:`reading_candidates`, :func:`claims_table`.
Plots: :mod:`models.torus_dor.plots`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core import experiment as core
from ..core.experiment import ERROR_FRACTIONS, Curve, CurveRun, Figure
from ..core.errors import ParameterError
from ..core.saturation import Saturation, find_saturation
from ..core.tables import percent, signed_percent
from ..core.validate import require_choice
from ..core.validation import saturation_aware_error
from ..networks.dor_paths import DorCombinatorics
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .equations import CHOICES, CHOICES_2003, Readings, Readings2003
from .model2003 import saturation_load_2003, solve_2003
from .solve import check_params, saturation_load, solve

__all__ = [
    "FIGURES", "FRACTIONS", "SIM_MESSAGES", "SIM_WARMUP", "MODEL_POINTS", "SETUPS", "SETUP_NAMES", "PRINTED",
    "BELOW", "setup_overrides", "torus_curve", "figure1", "figure2",
    "curves_figure", "sim_config", "capacity_load", "sim_saturation", "run_sim", "model_saturation",
    "saturation_2003", "saturation_printed", "model_point", "model_line", "run_curve", "run_figure", "sim_results",
    "points_table", "error_table", "format_error_table", "format_fraction", "errors_below", "more_accurate",
    "worst_below", "decomposition", "zero_load_check",
    "switch_variants", "switch_variants_2003", "switch_table", "switches_2003_table", "occupancy_check",
    "assumptions_table", "channel_rate_table", "READING_CANDIDATES", "reading_candidates", "CLAIMS",
    "CLAIM_COLUMNS", "claims_table",
]

#: Run lengths of the paper (Sec. 3): 120,000 delivered messages after 10,000 discarded.
SIM_MESSAGES = 120_000
SIM_WARMUP = 10_000
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

#: Errors are summarised "below saturation" over the simulated points under this fraction of the
#: simulated saturation load (the findings chapter's convention).
BELOW = 0.8

#: Named simulator set-ups (DESIGN.md, "Simulator set-ups are named").  The paper states its model "in
#: the context of the unidirectional torus for the sake of presentation" and says that "only a few simple
#: modifications are required to adapt it for the bidirectional case", but does not say which torus
#: Figs. 1 and 2 simulate; the load scale moves about fourfold between the two.  Each set-up is the
#: override it applies, ``bidirectional`` (the keyword of the simulated
#: :class:`~models.networks.graph.Torus` and the model's keyword of the same name), and a one-line
#: description.  Everything else (routing, VCs, buffers, injection and ejection VCs, seed, tie rule) is
#: the same in both; :func:`sim_config` builds the simulator's keywords.
SETUPS = {
    "unidirectional": {
        "bidirectional": False,
        "description": "unidirectional torus, the network the paper's model is written for (Sec. 2)",
    },
    "bidirectional": {
        "bidirectional": True,
        "description": ("bidirectional torus, each dimension crossed the shorter way (the paper's 'few simple "
                        "modifications'); a tie at offset k/2 goes + or - at random (the simulator's tie='random')"),
    },
}
#: The set-up names, in the order the chapter shows them.
SETUP_NAMES = tuple(SETUPS)


def setup_overrides(name: str) -> dict:
    """The keyword overrides of the simulator set-up ``name`` (:data:`SETUPS` without the description)."""
    require_choice("setup", name, list(SETUPS))
    return {k: v for k, v in SETUPS[name].items() if k != "description"}


# ----------------------------------------------------------------------------
# Curves and figures
# ----------------------------------------------------------------------------
def torus_curve(radices, L: int, M, *, setup: str | None = None, bidirectional: bool | None = None,
                readings: Readings = Readings(), fractions: Sequence[float] = FRACTIONS,
                fractions_of: str = "sim") -> Curve:
    """One latency curve: torus ``radices``, ``L`` VCs, ``M`` flits, at ``fractions`` of a saturation load.

    ``setup`` names the simulator set-up (:data:`SETUPS`); without it,
    ``bidirectional`` picks it (default unidirectional).  The label is
    ``"<k0>x<k1>[ bi], L=<L>, M=<M>"``; ``model`` holds the keyword
    arguments of :func:`models.torus_dor.solve` (its ``bidirectional`` is the
    set-up's), ``sim`` the set-up's overrides, ``setup`` its name.
    """
    if setup is None:
        setup = "bidirectional" if bidirectional else "unidirectional"
    over = setup_overrides(setup)
    if bidirectional is not None and bool(bidirectional) != over["bidirectional"]:
        raise ParameterError(f"`bidirectional={bidirectional!r}` contradicts the set-up {setup!r}")
    bidirectional = over["bidirectional"]
    check_params(radices=radices, L=L, M=M, bidirectional=bidirectional)
    if not isinstance(readings, Readings):
        raise ValueError(f"`readings` must be a Readings instance; got {readings!r}")
    radices = tuple(int(k) for k in radices)
    M = int(M) if float(M).is_integer() else float(M)
    net = "x".join(map(str, radices)) + (" bi" if bidirectional else "")
    return Curve(label=f"{net}, L={int(L)}, M={M}",
                 model=dict(radices=radices, L=int(L), M=M, bidirectional=bool(bidirectional), readings=readings),
                 sim=over, setup=setup, loads=tuple(fractions), fractions_of=fractions_of)


def curves_figure(label: str, title: str, curves: Sequence[Curve]) -> Figure:
    """A :class:`~models.core.experiment.Figure` of latency against :math:`\\lambda_g`."""
    return Figure(label=label, title=title, curves=tuple(curves), x_label=_X_LABEL, x_unit="messages/node/cycle",
                  y_label="mean message latency", y_unit="cycles")


def figure1(networks=((16, 16), (8, 8, 8)), M_values=(32, 64, 100), vcs_values=(3, 5),
            fractions: Sequence[float] = FRACTIONS, setups: Sequence[str] = SETUP_NAMES) -> Figure:
    """Fig. 1 of the paper: 16x16 and 8x8x8 tori, M = 32, 64, 100, L = 3, 5, on every set-up of ``setups``."""
    curves = [torus_curve(tuple(net), int(L), int(M), setup=su, fractions=fractions)
              for su in setups for net in networks for L in vcs_values for M in M_values]
    return curves_figure("fig-torus_dor-fig1", "Fig. 1: latency against load, model and simulation", curves)


def figure2(radices=(16, 16), L: int = 5, M: int = 32, fractions: Sequence[float] = FRACTIONS,
            setups: Sequence[str] = SETUP_NAMES) -> Figure:
    """Fig. 2 of the paper: 16x16, L = 5, M = 32 (this model, the 2003 model, simulation), on every set-up."""
    cs = [torus_curve(tuple(radices), int(L), int(M), setup=su, fractions=fractions) for su in setups]
    return curves_figure("fig-torus_dor-fig2", f"Fig. 2: {cs[0].label.replace(' bi', '')}", cs)


#: The paper's figures at the paper's scale.
FIGURES: dict[int, Figure] = {1: figure1(), 2: figure2()}


# ----------------------------------------------------------------------------
# Simulation: the model -> simulator translation
# ----------------------------------------------------------------------------
def sim_config(curve: Curve, *, messages: int, warmup_messages: int, batches: int = 20, seed: int = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` (without ``rate``).

    The set-up (``curve.sim``, :data:`SETUPS`) chooses the torus; the rest
    is the paper's scheme and the same for every set-up: ``L`` VCs per
    channel and ``L`` injection VCs (the simulator's default), one ejection
    VC (its default with the ideal router), buffers of 2 flits, one cycle per
    router, ties at offset ``k/2`` of a bidirectional ring broken at random.
    """
    m = curve.model
    over = dict(curve.sim) if curve.sim else setup_overrides(
        curve.setup or ("bidirectional" if m["bidirectional"] else "unidirectional"))
    if bool(over["bidirectional"]) != bool(m["bidirectional"]):
        raise ParameterError(f"curve {curve.label!r}: the model's torus (bidirectional={m['bidirectional']}) is not "
                             f"the simulated one (bidirectional={over['bidirectional']})")
    return dict(topology=Torus(tuple(m["radices"]), bidirectional=bool(over["bidirectional"])), routing="dor",
                vcs=m["L"], message_length=m["M"], buffer_depth=2, router_delay=1, tie="random",
                messages=int(messages), warmup_messages=int(warmup_messages), batches=int(batches), seed=int(seed))


def capacity_load(curve: Curve) -> float:
    """Load at which a network channel would be busy all the time (:math:`\\lambda_cM=1`), messages/node/cycle."""
    m = curve.model
    c = DorCombinatorics(m["radices"], bidirectional=m["bidirectional"])
    channels = (2 if m["bidirectional"] else 1) * c.n
    return min(1.0 / m["M"], channels / (float(c.mean_hops) * m["M"]))


def _simulate(cfg: dict, lam_g: float):
    """One cached simulation (the same cache entry as ``simulate(rate=lam_g, cache=True, **cfg)``)."""
    return run_sweep([dict(cfg, rate=float(lam_g))], jobs=1, cache=True, progress=False)[0]


def sim_saturation(curve: Curve, *, messages: int = 20_000, warmup_messages: int = 2_000, steps: int = 8,
                   seed: int = 1) -> Saturation:
    """Simulated saturation load (messages/node/cycle): ``steps`` halvings of ``[0, capacity_load]``.

    Each probe is one cached simulation of ``messages`` messages (10
    batches); ``.load`` is the midpoint of the final bracket (relative width
    ``2**-steps`` of the capacity load).
    """
    cfg = sim_config(curve, messages=messages, warmup_messages=warmup_messages, batches=10, seed=seed)
    return find_saturation(lambda x: _simulate(cfg, x).saturated, 0.0, capacity_load(curve), rtol=0,
                           max_steps=int(steps))


def run_sim(curve: Curve, loads: Sequence[float], *, messages: int, warmup_messages: int, batches: int = 20,
            seed: int = 1) -> list:
    """Simulations of ``curve`` at ``loads`` (cached sweep, in this process); list of WormholeResult."""
    cfg = sim_config(curve, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
    return run_sweep([dict(cfg, rate=float(x)) for x in loads], jobs=1, cache=True, progress=False)


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
def run_curve(
    curve: Curve,
    *,
    simulate: bool = True,
    messages: int = SIM_MESSAGES,
    warmup_messages: int = SIM_WARMUP,
    batches: int = 20,
    seed: int = 1,
    sat_messages: int = 20_000,
    sat_steps: int = 8,
    with_2003: bool = False,
    with_printed: bool = True,
    model_points: int = MODEL_POINTS,
) -> CurveRun:
    """Model (and simulation) of one curve, by :func:`models.core.experiment.run_curve`.

    Loads are the curve's fractions of the simulated saturation load (of the
    model's when ``simulate`` is False or the curve has
    ``fractions_of="model"``).  The simulated saturation load is found with
    ``sat_messages`` messages per probe (a tenth of them discarded first, at
    least 200) and ``sat_steps`` halvings.  ``run.sim`` has the columns
    ``latency``, ``latency CI`` (95% half width), ``saturated``,
    ``multiplexing``, ``hops`` and ``result`` (the WormholeResult);
    ``run.model`` has ``latency``, ``saturated``, ``multiplexing``, and
    ``latency 2003`` with ``with_2003``, ``latency printed`` (the model as
    printed, :data:`PRINTED`) with ``with_printed``, at the simulated loads
    and on a line grid of ``model_points`` loads per model.
    """

    def sim(c, loads):
        sims = run_sim(c, loads, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
        return [{"latency": sm.latency, "latency CI": sm.latency_ci, "saturated": sm.saturated,
                 "multiplexing": sm.multiplexing, "hops": sm.mean_hops, "result": sm} for sm in sims]

    def sim_sat(c, _model_load):
        return sim_saturation(c, messages=sat_messages, warmup_messages=max(sat_messages // 10, 200),
                              steps=sat_steps, seed=seed)

    return core.run_curve(
        curve, lambda c, x: model_point(c, x, with_2003=with_2003, with_printed=with_printed),
        sim if simulate else None, model_saturation=model_saturation, sim_saturation=sim_sat,
        line=lambda c, sat, loads: _line_loads(c, sat, loads, int(model_points), with_2003, with_printed))


def run_figure(figure: Figure, **kwargs) -> tuple:
    """:func:`run_curve` for every curve of ``figure`` (keywords as for :func:`run_curve`)."""
    return core.each_curve(figure.curves, lambda c: run_curve(c, **kwargs))


def sim_results(run: CurveRun) -> list:
    """The WormholeResult objects of a run's simulated points (in the curve's order)."""
    return [] if run.sim is None else list(run.sim["result"])


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per simulated point: curve, setup, fraction, rate, model latency, model multiplexing,
    [printed latency], [2003 latency], sim latency, sim CI, sim saturated, sim multiplexing, sim hops."""
    frames = []
    for run in runs:
        if run.sim is None:
            pts = run.model[np.isfinite(run.model["fraction"].to_numpy(dtype=float))]
            pts = pts.rename(columns={c: f"model {c}" for c in pts.columns if c not in ("curve", "load", "fraction")})
        else:
            pts = run.points()
        out = pd.DataFrame({"curve": pts["curve"], "setup": run.curve.setup, "fraction": pts["fraction"],
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


def _pct(f: float) -> str:
    return f"{int(round(f * 100))}%"


def _as_model(run: CurveRun, which: str) -> CurveRun:
    """``run`` with the latency of another model in place of the default reading's (``"printed"``, ``"2003"``)."""
    if which == "default":
        return run
    sat = saturation_2003(run.curve) if which == "2003" else saturation_printed(run.curve)
    return dataclasses.replace(run, model=run.model.assign(latency=run.model[f"latency {which}"]),
                               model_saturation=sat)


def error_table(runs: Sequence[CurveRun], fractions: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per curve (grouped by simulator set-up): relative error ``(model - sim)/sim`` (a fraction, not
    percent) at each fraction of the simulated saturation load, the worst ``|error|`` below :data:`BELOW` of
    it, and the saturation loads (messages/node/cycle) of the model, the simulation, the model as printed
    and the 2003 model (when the runs have their latencies).

    Built on :func:`models.core.experiment.error_table`: an error is ``inf``
    when the model is saturated at that load, NaN when the simulation is (or
    the fraction was not run).  Columns: ``setup``, ``curve``, ``err <p>%``
    [``err printed <p>%``] [``err 2003 <p>%``] per fraction, ``worst <80%``
    [``worst printed <80%``] [``worst 2003 <80%``], ``sat model``, ``sat
    sim``, [``sat printed``], [``sat 2003``], ``sat model / sim``, [``sat
    printed / sim``], [``sat 2003 / sim``].
    """
    fractions = tuple(fractions)
    runs = sorted(runs, key=lambda r: SETUP_NAMES.index(r.curve.setup) if r.curve.setup in SETUPS else -1)
    others = [w for w in ("printed", "2003") if any(f"latency {w}" in r.model for r in runs)]
    tables = {"default": core.error_table(runs, at=fractions)}
    for w in others:
        tables[w] = core.error_table([_as_model(r, w) for r in runs], at=fractions)
    base = tables["default"]
    out = pd.DataFrame({"setup": base["setup"], "curve": base["curve"]})
    tag = {"default": "", "printed": "printed ", "2003": "2003 "}
    for w, t in tables.items():
        for f in fractions:
            col = f"err @{round(100 * f, 6):g}% [%]"  # the column of models.core.experiment.error_table
            out[f"err {tag[w]}{_pct(f)}"] = t[col] / 100.0
    for w in tables:
        out[f"worst {tag[w]}<{_pct(BELOW)}"] = [worst_below(r, w) for r in runs]
    out["sat model"] = base["model saturation"]
    out["sat sim"] = base["sim saturation"]
    for w in others:
        out[f"sat {w}"] = tables[w]["model saturation"]
    out["sat model / sim"] = base["saturation ratio"]
    for w in others:
        out[f"sat {w} / sim"] = tables[w]["saturation ratio"]
    return out


def format_fraction(v: float, signed: bool = False) -> str:
    """A relative error (a fraction) as text in the book's style (:mod:`models.core.tables`): ``"12.3%"``
    (``"+12.3%"`` with ``signed``), ``"unbounded (the model is saturated)"`` for ``+inf``, ``"n/a"``."""
    if v == math.inf:
        return "unbounded (the model is saturated)"
    text = signed_percent(v) if signed else percent(v)
    return "n/a" if text is None else text


def errors_below(run: CurveRun, which: str = "default", below: float = BELOW) -> np.ndarray:
    """``|model - sim| / sim`` at the simulated points under ``below`` of the simulated saturation load.

    ``which``: the default reading, ``"printed"`` or ``"2003"``.  ``inf``
    where the model is saturated; points the simulation could not measure
    (saturated run) are left out; empty when the run's loads are not
    fractions of the simulated saturation load.
    """
    if run.sim is None or run.params.get("load basis") != "sim":
        return np.zeros(0)
    pts = run.points()
    col = "model latency" if which == "default" else f"model latency {which}"
    if pts.empty or col not in pts:
        return np.zeros(0)
    frac = pts["fraction"].to_numpy(dtype=float)
    sim = pts["sim latency"].to_numpy(dtype=float)
    ok = (frac < below) & ~pts["sim saturated"].to_numpy(dtype=bool) & np.isfinite(sim)
    err = np.abs(saturation_aware_error(pts[col].to_numpy(dtype=float)[ok], sim[ok]))
    return err[~np.isnan(err)]


def more_accurate(run: CurveRun, which: str = "default", than: str = "2003", below: float = BELOW):
    """Whether model ``which`` is more accurate than model ``than`` on ``run`` below ``below`` of the simulated
    saturation load: saturated (infinite error) at fewer of those loads, or, at as many, a smaller mean
    ``|error|`` over the loads where both are finite.  None when there is nothing to compare."""
    a, b = errors_below(run, which, below), errors_below(run, than, below)
    if a.size == 0 or a.size != b.size:
        return None
    na, nb = int(np.isinf(a).sum()), int(np.isinf(b).sum())
    if na != nb:
        return bool(na < nb)
    both = np.isfinite(a) & np.isfinite(b)
    if not both.any():
        return None
    return bool(a[both].mean() < b[both].mean())


def worst_below(run: CurveRun, which: str = "default", below: float = BELOW) -> float:
    """Worst ``|model - sim| / sim`` over the simulated points under ``below`` of the simulated saturation load.

    ``which``: the default reading, ``"printed"`` or ``"2003"``.  ``inf``
    when the model is saturated at such a point; points the simulation
    could not measure (saturated run) are left out; NaN when none is left
    or the run's loads are not fractions of the simulated saturation load.
    """
    err = errors_below(run, which, below)
    return float(err.max()) if err.size else math.nan


def format_error_table(table: pd.DataFrame) -> pd.DataFrame:
    """The error table with errors as percentages and loads to 3 significant digits (strings, for the chapter page)."""
    out = table.copy()
    for c in out.columns:
        if c.startswith("err"):
            out[c] = ["n/a (model saturated)" if v == math.inf else format_fraction(v, signed=True) for v in out[c]]
        elif c.startswith("worst"):
            out[c] = ["n/a (model saturated)" if v == math.inf else format_fraction(v) for v in out[c]]
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
    """Model and simulated latency at a tiny load (``rate_fraction`` of the capacity load) and ``M + h + 1``."""
    x = rate_fraction * capacity_load(curve)
    res = solve(x, **curve.model)
    sm = _simulate(sim_config(curve, messages=messages, warmup_messages=max(messages // 10, 100), seed=seed), x)
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
                       networks: Sequence[str] = SETUP_NAMES) -> pd.DataFrame:
    """Each candidate reading of eqs. 14-15 on each torus, computed from the models alone (no simulation).

    One row per (torus, reading): ``torus`` (set-up name), ``reading``,
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
    for net in networks:
        bi = setup_overrides(net)["bidirectional"]
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
# The paper's claims (one row per claim and set-up; the findings chapter gives the verdicts)
# ----------------------------------------------------------------------------
#: The exact columns of the claims table (the findings chapter's convention).
CLAIM_COLUMNS = ("chapter", "claim_id", "claim", "kind", "setup", "worst_err", "sat_ratio", "threshold", "holds",
                 "cause", "note")

#: The paper's claims the chapter checks: id -> (the paper's words with where they are, kind).
CLAIMS = {
    "fig1-accuracy": (
        '"The figure reveals that the model predicts the mean message latency with a good degree of accuracy when '
        'the network operates in the steady-state regions" (Sec. 3, Fig. 1)', "error"),
    "fig1-accuracy-printed": (
        '"The figure reveals that the model predicts the mean message latency with a good degree of accuracy when '
        'the network operates in the steady-state regions" (Sec. 3, Fig. 1), the model\'s equations as printed',
        "error"),
    "fig2-saturation-closer": (
        '"It is observed that the saturation point of the model presented here is closer to the saturation point of '
        'the simulation results" (Sec. 3, Fig. 2, against the 2003 model [16])', "fact"),
    "fig2-more-accurate": (
        '"in all considered cases, the model proposed here has been observed to predict the average message latency '
        'in the network with a higher degree of accuracy compared to the one proposed in [16]" (Sec. 3, Fig. 2)',
        "fact"),
    "reading-every-dimension-blocks": (
        '"When a message needs to traverse one of the hops of dimension d_i, 0 <= d_i <= n-1, it is delayed an '
        'average amount of time, W_{d_i}, before acquiring a virtual channel" (Sec. 2.2); the chapter\'s reading '
        'of eqs. 14-15 keeps W_{d_i} > 0 in every dimension', "fact"),
    "reading-saturates-after-2003": (
        '"the proposed model, while keeping all the advantages of the model proposed in [16], is highly improved in '
        'the accuracy of saturation point prediction" (Sec. 1); under the chapter\'s reading the 2004 model '
        'saturates after the 2003 model on Fig. 2 (models only)', "fact"),
}


def _worst(runs: Sequence[CurveRun], which: str) -> float:
    vals = [worst_below(r, which) for r in runs]
    vals = [v for v in vals if not math.isnan(v)]
    return float(max(vals)) if vals else math.nan


def _ratio_furthest(runs: Sequence[CurveRun], which: str = "default") -> float:
    """The model/simulation saturation ratio furthest from 1 (in log) over ``runs``."""
    vals = []
    for r in runs:
        sm = r.model_saturation if which == "default" else (
            saturation_printed(r.curve) if which == "printed" else saturation_2003(r.curve))
        if math.isfinite(sm) and math.isfinite(r.sim_saturation) and r.sim_saturation > 0 and sm > 0:
            vals.append(sm / r.sim_saturation)
    return float(max(vals, key=lambda v: abs(math.log(v)))) if vals else math.nan


def claims_table(fig1_runs: Sequence[CurveRun], fig2_runs: Sequence[CurveRun],
                 readings: pd.DataFrame | None = None) -> pd.DataFrame:
    """The chapter's claims table (columns :data:`CLAIM_COLUMNS`, one row per claim and set-up).

    ``fig1_runs``: the Fig. 1 runs (:func:`run_figure` of :func:`figure1`,
    with the printed reading); ``fig2_runs``: the Fig. 2 runs (with the 2003
    model); ``readings``: :func:`reading_candidates` (the two model-only
    rows are left out without it).  "Closer saturation point"
    (``fig2-saturation-closer``): ``|log(sat 2004 / sat sim)| < |log(sat
    2003 / sat sim)|``; "more accurate" (``fig2-more-accurate``):
    :func:`more_accurate`.  Errors are fractions; ``worst_err`` is
    the worst ``|error|`` under :data:`BELOW` of the simulated saturation
    load (:func:`worst_below`), ``sat_ratio`` the model/simulation saturation
    ratio (for Fig. 1, the one furthest from 1 over the curves of the
    set-up).  The paper gives no tolerance for "a good degree of accuracy",
    so ``threshold`` is NaN.
    """
    rows = []

    def add(cid, setup, worst=math.nan, ratio=math.nan, holds=None, cause="-", note=""):
        claim, kind = CLAIMS[cid]
        rows.append({"chapter": "torus_dor", "claim_id": cid, "claim": claim, "kind": kind, "setup": setup,
                     "worst_err": worst, "sat_ratio": ratio, "threshold": math.nan,
                     "holds": holds if kind == "fact" else None, "cause": cause, "note": note})

    setups = [su for su in SETUP_NAMES if any(r.curve.setup == su for r in list(fig1_runs) + list(fig2_runs))]
    for su in setups:
        runs = [r for r in fig1_runs if r.curve.setup == su]
        if not runs:
            continue
        labels = ", ".join(r.label for r in runs)
        for cid, which, what in (("fig1-accuracy", "default", "default reading"),
                                 ("fig1-accuracy-printed", "printed", "equations as printed")):
            add(cid, su, _worst(runs, which), _ratio_furthest(runs, which), cause="model",
                note=f"Fig. 1, {what}, worst over {len(runs)} curves ({labels}); tab-torus_dor-fig1-errors")
    for su in setups:
        for run in [r for r in fig2_runs if r.curve.setup == su]:
            s04, s03, ssim = run.model_saturation, saturation_2003(run.curve), run.sim_saturation
            closer = None
            if all(math.isfinite(x) and x > 0 for x in (s04, s03, ssim)):
                closer = bool(abs(math.log(s04 / ssim)) < abs(math.log(s03 / ssim)))
            add("fig2-saturation-closer", su, worst_below(run), s04 / ssim if ssim > 0 else math.nan, closer,
                cause="model" if closer is False else "-",
                note=(f"Fig. 2 ({run.label}): 2004 model/simulation saturation ratio {s04 / ssim:.3g}, "
                      f"2003 model {s03 / ssim:.3g}; tab-torus_dor-fig2-errors"))
            better = more_accurate(run, "default", "2003")
            e04, e03 = errors_below(run), errors_below(run, "2003")
            add("fig2-more-accurate", su, worst_below(run), s04 / ssim if ssim > 0 else math.nan, better,
                cause="model" if better is False else "-",
                note=(f"Fig. 2 ({run.label}): |error| at the simulated loads under {BELOW:.0%} of the simulated "
                      f"saturation load {', '.join(format_fraction(v) for v in e04)} (2004) against "
                      f"{', '.join(format_fraction(v) for v in e03)} (2003; more accurate = saturated at fewer "
                      "of them, then the smaller mean); tab-torus_dor-fig2-errors"))
    if readings is not None and len(readings):
        d = readings[readings["default"].astype(bool)]
        add("reading-every-dimension-blocks", "-", holds=bool(d["every dimension blocks"].all()),
            note=("tab-torus_dor-readings: W_{d_i} at half the model's saturation load, "
                  + ", ".join(f"{r['network']} {r['torus']}: " + " ".join(
                      f"{r[c]:.3g}" for c in readings.columns if c.startswith("W d") and pd.notna(r[c]))
                      for _, r in d.iterrows())))
        add("reading-saturates-after-2003", "-", holds=bool(d["later than 2003"].all()),
            note=("tab-torus_dor-readings: 2004/2003 model saturation ratio "
                  + ", ".join(f"{r['sat 2004 / 2003']:.3g} ({r['torus']})" for _, r in d.iterrows())))
    return pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))
