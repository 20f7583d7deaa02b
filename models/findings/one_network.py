"""One network, every model: the torus papers' models on one configuration against one simulator.

The configuration is one that all four torus papers can describe: a
bidirectional ``k x k`` torus (``k = 16``; 8 in the quick profile), messages
of ``M = 32`` flits, Poisson sources with uniform destinations (the source
excluded), ``V`` virtual channels per physical channel (:class:`Network`).
Each model that applies (:data:`MODELS`) is solved through its chapter's
public front door, with the chapter's default readings, and compared with the
simulator (:func:`models.sim.wormhole.simulate`) running the routing the model
describes:

==================  ==========================================  ================
model               front door                                  simulator routing
==================  ==========================================  ================
``torus_dor``       ``torus_dor.solve`` (2004, bidirectional)    ``dor``
``torus_dor_2003``  ``torus_dor.solve_2003`` (reconstructed)     ``dor``
``torus_ipp``       ``torus_ipp.solve(traffic="poisson")``       ``duato``
``torus_nbc``       ``torus_nbc.solve`` (Duato-Nbc)              ``duato_nbc``
``xfolded_tm``      ``xfolded_tm.solve`` on the torus            ``dor``
==================  ==========================================  ================

Loads are the mean generation rate :math:`\\lambda` in messages/node/cycle
for every model.  ``torus_ipp``'s load is the IPP's on-state rate ``mu1``;
with ``traffic="poisson"`` its sources are Poisson with the IPP's mean rate
(eq. 9 of that chapter, ``lambda = mu1 sigma2 / (sigma1 + sigma2)``), so
:func:`ipp_mu1` converts ``lambda`` to ``mu1`` with the chapter's default
``sigma1, sigma2`` (they matter for nothing else under Poisson sources).
``xfolded_tm`` takes the average distance per dimension, ``ad``: here the
mean distance of the simulator's own torus (:meth:`Torus.average_distance`,
over the ``N - 1`` destinations) divided by 2.

The simulator runs on named set-ups (:data:`SETUPS`, each a
:class:`models.core.setups.SimulatorSetup`; DESIGN.md: "simulator set-ups are
named"): the models disagree on the destination (the 2004 and 2003 DOR models
have one ejection channel with an M/G/1 wait; the torus_nbc and torus_ipp
models have no ejection term; the x-Folded TM model has none either), so the
page runs both an ejection channel with ``V`` VCs (no ejection contention)
and one with a single VC; each stands for the assumptions of the models whose
:attr:`ModelSpec.setup` names it.  Everything else is the simulator's default
(``V`` injection VCs, 2-flit buffers, one cycle per router, the ideal router,
random tie-breaking at offset ``k/2``).

The simulation hook is the chapters' one: :func:`sim_kwargs` (one point of a
curve), :func:`simulate_curve` (a cached sweep of it), run lengths in a
:class:`models.core.setups.SimSettings` (:data:`SETTINGS`, the full
profile).  Simulated loads are fractions of each routing's simulated
saturation load (:func:`sim_saturation`: the one bisection of the package on
the simulator's ``saturated`` flag, between 0 and the channel/ejection
capacity :func:`capacity_load`).  :func:`run` builds one
:class:`~models.core.setups.Curve` per (model, set-up) and runs it
through :func:`models.core.experiment.run_curve`; :func:`error_table` (the
worst error below :data:`~models.core.setups.BELOW` of the simulated
saturation is :func:`models.core.claims.worst_error_below`),
:func:`most_accurate` and :func:`summary_sentences` say which model is most
accurate where (:func:`glue_values`: the sentences the page quotes);
:func:`plot` draws one panel per routing.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
from typing import Sequence

import numpy as np
import pandas as pd

from .. import torus_dor, torus_ipp, torus_nbc, xfolded_tm
from ..core import experiment
from ..core.claims import worst_error_below
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, run_curve
from ..core.results import SimPoint, ci_column
from ..core.saturation import Saturation, find_saturation
from ..core.setups import BELOW, ERROR_FRACTIONS, Curve, SimSettings, SimulatorSetup, named_setup
from ..core.tables import UNBOUNDED, error_text
from ..core.validate import require
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from ..sim.wormhole.routing import min_vcs as routing_min_vcs
from ..traffic.process import IPP

__all__ = [
    "Network", "ModelSpec", "MODELS", "ROUTINGS", "SETUPS", "SETTINGS", "SimSettings", "ipp_mu1", "torus_ad",
    "model_point", "model_saturation", "vc_table", "check_vcs", "capacity_load", "sim_kwargs", "simulate_curve",
    "sim_saturation", "curves", "run", "worst_error_below", "error_table", "most_accurate",
    "summary_sentences", "setups_table", "own_setup", "OWN_SETUP", "BANDS", "models_table", "plot",
    "ERROR_FRACTIONS", "BELOW", "format_errors", "format_best", "points_table", "saturation_table", "glue_key",
    "glue_values", "chapter_check", "CHAPTER_SATURATION", "search_with_probes",
]


# ----------------------------------------------------------------------------
# The network
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Network:
    """The one configuration: a bidirectional ``k x k`` torus, ``M``-flit messages, ``V`` VCs per channel."""

    k: int = 16
    M: int = 32
    V: int = 10

    def __post_init__(self):
        require("k", self.k, 2, unit="nodes per dimension", integer=True)
        require("M", self.M, 1, unit="message length, flits", integer=True)
        require("V", self.V, 1, unit="virtual channels per physical channel", integer=True)
        for name in ("k", "M", "V"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def topology(self) -> Torus:
        """The simulator's topology: ``Torus((k, k), bidirectional=True)``."""
        return Torus((self.k, self.k), bidirectional=True)

    @property
    def label(self) -> str:
        return f"{self.k}x{self.k} bidirectional torus, M = {self.M} flits, V = {self.V}"


@functools.lru_cache(maxsize=None)
def torus_ad(k: int) -> float:
    """Average distance per dimension of the bidirectional ``k x k`` torus (hops): BFS mean over N-1, / 2."""
    return Torus((int(k), int(k)), bidirectional=True).average_distance() / 2


def _ipp_sigmas() -> tuple:
    sig = inspect.signature(torus_ipp.solve).parameters
    return float(sig["sigma1"].default), float(sig["sigma2"].default)


def ipp_mu1(lam: float) -> float:
    """``mu1`` of torus_ipp whose mean rate (eq. 9, the chapter's default sigmas) is ``lam``."""
    s1, s2 = _ipp_sigmas()
    return float(lam) / IPP(1.0, s1, s2).mean_rate


def _ipp_lam(mu1: float) -> float:
    s1, s2 = _ipp_sigmas()
    return IPP(float(mu1), s1, s2).mean_rate


# ----------------------------------------------------------------------------
# The models
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ModelSpec:
    """One model of the page: its chapter, the routing it describes, and what it assumes at the ends."""

    name: str
    label: str
    chapter: str
    routing: str
    front_door: str
    injection: str
    ejection: str
    setup: str  # the set-up of SETUPS whose ejection channel is the one the model assumes


#: The models, in the order of the page.
MODELS = {
    "torus_dor": ModelSpec("torus_dor", "DOR 2004 (Najaf-abadi)", "torus_dor", "dor",
                           "torus_dor.solve(lam, radices=(k, k), L=V, M=M, bidirectional=True)",
                           "V injection VCs (source queue at rate lambda/V)",
                           "one ejection channel (M/G/1 wait)", "one ejection VC"),
    "torus_dor_2003": ModelSpec("torus_dor_2003", "DOR 2003 (reconstructed)", "torus_dor", "dor",
                                "torus_dor.solve_2003(lam, radices=(k, k), L=V, M=M, bidirectional=True)",
                                "V injection VCs (source queue at rate lambda/V)",
                                "one ejection channel (M/G/1 wait in S_0)", "one ejection VC"),
    "torus_ipp": ModelSpec("torus_ipp", "Duato adaptive (Min, Poisson)", "torus_ipp", "duato",
                           "torus_ipp.solve(mu1(lam), k=k, V=V, M=M, traffic='poisson')",
                           "one injection server (M/G/1 at rate lambda)",
                           "none (assumption (d): delivered as soon as they arrive)", "V ejection VCs"),
    "torus_nbc": ModelSpec("torus_nbc", "Duato-Nbc (Safaei)", "torus_nbc", "duato_nbc",
                           "torus_nbc.solve(lam, k=k, M=M, V=V)",
                           "V injection VCs (source queue at rate lambda/V)",
                           "no ejection term (eq. 5)", "V ejection VCs"),
    "xfolded_tm": ModelSpec("xfolded_tm", "x-Folded TM model (Moudi)", "xfolded_tm", "dor",
                            "xfolded_tm.solve(lam, ad=AD, M=M, V=V, k=k)",
                            "source queue at rate lambda/Vbar (eq. 10 as printed)",
                            "none (S_0 = M)", "V ejection VCs"),
}

#: The simulator's routings, in the order of the page, with their names.
ROUTINGS = {"dor": "dimension order", "duato": "Duato (dateline escape)", "duato_nbc": "Duato-Nbc"}


def _check_model(name: str) -> ModelSpec:
    if name not in MODELS:
        raise ParameterError(f"`model` must be one of {', '.join(MODELS)}; got {name!r}")
    return MODELS[name]


def _solve(name: str, lam: float, k: int, M: int, V: int):
    if name == "torus_dor":
        return torus_dor.solve(lam, radices=(k, k), L=V, M=M, bidirectional=True)
    if name == "torus_dor_2003":
        return torus_dor.solve_2003(lam, radices=(k, k), L=V, M=M, bidirectional=True)
    if name == "torus_ipp":
        s1, s2 = _ipp_sigmas()
        return torus_ipp.solve(ipp_mu1(lam), k=k, V=V, M=M, sigma1=s1, sigma2=s2, traffic="poisson")
    if name == "torus_nbc":
        return torus_nbc.solve(lam, k=k, M=M, V=V)
    if name == "xfolded_tm":
        return xfolded_tm.solve(lam, ad=torus_ad(k), M=M, V=V, k=k)
    raise ParameterError(f"`model` must be one of {', '.join(MODELS)}; got {name!r}")


@functools.lru_cache(maxsize=4096)
def _point(name: str, lam: float, k: int, M: int, V: int) -> tuple:
    r = _solve(name, lam, k, M, V)
    return float(r.latency), bool(r.saturated)


def model_point(name: str, lam: float, net: Network = Network()) -> dict:
    """The model ``name`` at mean rate ``lam`` (messages/node/cycle): ``{"latency": cycles, "saturated": bool}``."""
    _check_model(name)
    latency, saturated = _point(name, float(lam), net.k, net.M, net.V)
    return {"latency": latency, "saturated": saturated}


@functools.lru_cache(maxsize=256)
def _saturation(name: str, k: int, M: int, V: int, rtol: float) -> float:
    if name == "torus_dor":
        return torus_dor.saturation_load(radices=(k, k), L=V, M=M, bidirectional=True, rtol=rtol)
    if name == "torus_dor_2003":
        return torus_dor.saturation_load_2003(radices=(k, k), L=V, M=M, bidirectional=True, rtol=rtol)
    if name == "torus_ipp":
        s1, s2 = _ipp_sigmas()
        return _ipp_lam(torus_ipp.saturation_load(k=k, V=V, M=M, sigma1=s1, sigma2=s2, traffic="poisson",
                                                  rtol=rtol))
    if name == "torus_nbc":
        return torus_nbc.saturation_load(k=k, M=M, V=V, rtol=rtol)
    if name == "xfolded_tm":
        return xfolded_tm.saturation_load(ad=torus_ad(k), M=M, V=V, k=k, rtol=rtol)
    raise ParameterError(f"`model` must be one of {', '.join(MODELS)}; got {name!r}")


def model_saturation(name: str, net: Network = Network(), rtol: float = 1e-4) -> float:
    """The model's saturation load, mean rate in messages/node/cycle (its chapter's ``saturation_load``)."""
    _check_model(name)
    return float(_saturation(name, net.k, net.M, net.V, float(rtol)))


def _min_model_vcs(name: str, net: Network, upto: int) -> int | None:
    """Smallest ``V <= upto`` the model's front door accepts on ``net`` (probed at a tiny load), or None."""
    lam = 1e-7
    for V in range(1, upto + 1):
        try:
            _solve(name, lam, net.k, net.M, V)
        except ParameterError:
            continue
        return V
    return None


def vc_table(net: Network = Network(), models: Sequence[str] | None = None) -> pd.DataFrame:
    """What each model and its simulator routing need in VCs, found by asking them, and the ``V`` used.

    Columns ``model``, ``chapter``, ``routing``, ``model needs V >=`` (the
    least ``V`` the chapter's front door accepts on this torus, probed;
    NaN if none up to ``max(V, 32)``), ``routing needs V >=``
    (:func:`models.sim.wormhole.routing.min_vcs`), ``V used``, ``accepted``.
    """
    rows = []
    upto = max(net.V, 32)
    for name in (models or MODELS):
        spec = _check_model(name)
        need = _min_model_vcs(name, net, upto)
        sim_need = routing_min_vcs(net.topology, spec.routing)
        rows.append({"model": spec.label, "chapter": spec.chapter, "routing": spec.routing,
                     "model needs V >=": need if need is not None else math.nan,
                     "routing needs V >=": int(sim_need), "V used": net.V,
                     "accepted": need is not None and net.V >= need and net.V >= sim_need})
    return pd.DataFrame(rows)


def check_vcs(net: Network = Network(), models: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`vc_table`, raising :class:`ParameterError` if some model or routing refuses ``V``."""
    table = vc_table(net, models)
    bad = table[~table["accepted"]]
    if not bad.empty:
        raise ParameterError(
            f"`V` = {net.V} is not accepted on the {net.k}x{net.k} torus by: "
            + "; ".join(f"{r['model']} (model needs V >= {r['model needs V >=']}, routing {r['routing']} "
                        f"needs V >= {r['routing needs V >=']})" for _, r in bad.iterrows()))
    return table


def models_table(models: Sequence[str] | None = None) -> pd.DataFrame:
    """What each model is and assumes: model, chapter, front door, routing, injection, ejection, its set-up."""
    rows = []
    for name in (models or MODELS):
        s = _check_model(name)
        rows.append({"model": s.label, "chapter": s.chapter, "front door": s.front_door,
                     "simulated with": f"{s.routing} ({ROUTINGS[s.routing]})", "injection (model)": s.injection,
                     "ejection (model)": s.ejection, "its set-up": s.setup})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The simulator and its set-ups
# ----------------------------------------------------------------------------
#: The named simulator set-ups (:class:`~models.core.setups.SimulatorSetup`: keyword overrides of
#: :func:`sim_kwargs`, ``"V"`` = the network's V).  Each stands for the models' assumptions: those whose
#: :attr:`ModelSpec.setup` names it.
SETUPS: dict[str, SimulatorSetup] = {s.name: s for s in (
    SimulatorSetup(
        "V ejection VCs", "an ejection channel with V VCs (still one flit per cycle): no message waits for a free "
        "ejection VC while holding network VCs, as the torus_nbc, torus_ipp and x-Folded TM models assume",
        "model", {"ejection_vcs": "V"}),
    SimulatorSetup(
        "one ejection VC", "one ejection VC per node: messages leave one at a time, as torus_nbc's paper states and "
        "the torus_dor models' ejection M/G/1 assumes", "model", {"ejection_vcs": 1}),
)}

#: Run lengths, seed, saturation bisection and processes of the full page (the notebook passes its own).
SETTINGS = SimSettings(messages=30_000, warmup_messages=5_000, batches=20, sat_messages=10_000, sat_steps=7,
                       sat_rtol=0.03, seed=1, jobs=1)

#: Batches of the 95% interval of one saturation probe (only its ``saturated`` flag is used).
PROBE_BATCHES = 10


def _network(curve: Curve) -> Network:
    """The :class:`Network` of a curve of :func:`curves` (its model's ``k``, ``M``, ``V``)."""
    m = curve.model
    return Network(k=m["k"], M=m["M"], V=m["V"])


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for one point of ``curve`` (the translation).

    Bidirectional ``k x k`` torus (the curve's model ``k``), its routing
    (``curve.sim["routing"]``), ``vcs = V``, ``message_length = M``, Poisson
    sources at ``load`` messages/node/cycle, uniform destinations without the
    source, buffers of 2 flits, router delay 1, the run lengths and seed of
    ``settings``, then the overrides of the set-up ``curve.setup``
    (:data:`SETUPS`) and of the rest of ``curve.sim``.
    """
    routing = curve.sim.get("routing")
    if routing not in ROUTINGS:
        raise ParameterError(f"`routing` must be one of {', '.join(ROUTINGS)}; got {routing!r}")
    net = _network(curve)
    kw = dict(topology=net.topology, routing=routing, vcs=net.V, message_length=net.M, rate=float(load),
              traffic="poisson", buffer_depth=2, router_delay=1, messages=int(settings.messages),
              warmup_messages=int(settings.warmup_messages), batches=int(settings.batches), seed=int(settings.seed))
    kw.update(named_setup(SETUPS, curve.setup).sim(net.V))
    kw.update({key: value for key, value in curve.sim.items() if key != "routing"})
    return kw


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[SimPoint]:
    """The simulation of ``curve`` at every load (messages/node/cycle): one cached sweep, one
    :class:`~models.core.results.SimPoint` per load (latency in cycles, ``inf`` if saturated; its 95 % half
    width; the saturated flag; the extra ``throughput``, messages/node/cycle).
    """
    results = run_sweep([sim_kwargs(curve, x, settings) for x in loads], jobs=settings.jobs, cache=settings.cache,
                        progress=settings.progress)
    return [SimPoint(r.latency, r.latency_ci, bool(r.saturated), extra={"throughput": r.throughput})
            for r in results]


def capacity_load(net: Network = Network()) -> float:
    """Load (messages/node/cycle) at which a network channel or the ejection channel would be busy all the time.

    Uniform traffic spreads ``lambda M dbar`` flits per node and cycle over
    the ``2n = 4`` output channels of a node; the ejection channel takes
    ``lambda M``: ``min(4 / (dbar M), 1 / M)``.
    """
    dbar = net.topology.average_distance()
    return min(4.0 / (dbar * net.M), 1.0 / net.M)


def sim_saturation(curve: Curve, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load (messages/node/cycle) of ``curve``'s routing on its set-up and network.

    :func:`~models.core.saturation.find_saturation` on the simulator's
    ``saturated`` flag between 0 (not saturated) and :func:`capacity_load`
    (saturated), at most ``settings.sat_steps`` midpoints (default
    :data:`SETTINGS`'s), stopping at the relative width ``settings.sat_rtol``;
    each probe is one cached run of ``settings.probe_messages`` messages
    (:data:`PROBE_BATCHES` batches).  ``.load`` is the final bracket's
    midpoint.  Every model of a routing and set-up has the same one.
    """
    probe = settings.replace(messages=settings.probe_messages, batches=PROBE_BATCHES)
    steps = settings.sat_steps if settings.sat_steps is not None else SETTINGS.sat_steps

    def saturated(rate: float) -> bool:
        return simulate_curve(curve, [rate], probe)[0].saturated

    return find_saturation(saturated, 0.0, capacity_load(_network(curve)), rtol=settings.sat_rtol, max_steps=steps)


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def curves(net: Network = Network(), setups: Sequence[str] = tuple(SETUPS),
           fractions: Sequence[float] = ERROR_FRACTIONS, models: Sequence[str] | None = None) -> list:
    """One :class:`~models.core.setups.Curve` per (set-up, model), at ``fractions`` of the simulated saturation."""
    out = []
    for setup in setups:
        named_setup(SETUPS, setup)  # checks the name
        for name in (models or MODELS):
            spec = _check_model(name)
            out.append(Curve(label=spec.label, model=dict(name=name, k=net.k, M=net.M, V=net.V),
                             sim=dict(routing=spec.routing), setup=setup, loads=tuple(fractions),
                             fractions_of="sim"))
    return out


def run(net: Network = Network(), settings: SimSettings = SETTINGS, *, setups: Sequence[str] = tuple(SETUPS),
        fractions: Sequence[float] = ERROR_FRACTIONS, model_points: int = 30,
        models: Sequence[str] | None = None) -> list:
    """Model and simulation of every (set-up, model): a list of :class:`~models.core.setups.CurveRun`.

    Model columns ``latency``, ``saturated``; simulator columns ``latency``,
    ``latency CI`` (95% half width), ``saturated``, ``throughput``.  Each
    routing's saturation is bisected once per set-up; loads are rounded to 6
    significant digits; the model line has ``model_points - 1`` loads evenly
    spaced strictly between 0 and the model's saturation load.
    """
    model_points = require("model_points", model_points, 2, unit="points per model curve", integer=True)
    check_vcs(net, models)
    sats: dict = {}

    def model(curve: Curve, lam: float) -> dict:
        return model_point(curve.model["name"], lam, net)

    def sim(curve: Curve, loads: list) -> list:
        return simulate_curve(curve, loads, settings)

    def sim_sat(curve: Curve, _model_sat: float) -> Saturation:
        key = (curve.sim["routing"], curve.setup)
        if key not in sats:
            sats[key] = sim_saturation(curve, settings)
        return sats[key]

    def line(curve: Curve, model_sat: float, loads: list) -> np.ndarray:
        return np.linspace(0.0, model_sat, model_points + 1)[1:-1]

    return [run_curve(c, model, sim, model_saturation=lambda c: model_saturation(c.model["name"], net),
                      sim_saturation=sim_sat, line=line, round_to=6)
            for c in curves(net, setups, fractions, models)]


def _err_col(f: float) -> str:
    return f"err @{100 * f:g}%"


def error_table(runs: Sequence[CurveRun], at: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per (set-up, model): signed errors (percent) at ``at``, the worst below 80%, saturation loads.

    Columns ``setup``, ``model``, ``routing``, ``err @<p>%`` (``100 (model -
    sim) / sim``; ``inf`` where only the model is saturated, NaN where the
    simulation is or the point was not run), ``worst |err| < 80%`` (percent,
    :func:`models.core.claims.worst_error_below`), ``model saturation``, ``sim saturation``
    (messages/node/cycle), ``saturation ratio`` (model / simulation).
    """
    core = experiment.error_table(runs, at)
    table = pd.DataFrame({"setup": core["setup"], "model": core["curve"],
                          "routing": [r.curve.sim["routing"] for r in runs]})
    for f in at:
        table[_err_col(f)] = core[f"err @{100 * f:g}% [%]"]
    table[f"worst |err| < {100 * BELOW:g}%"] = [100.0 * worst_error_below(r) for r in runs]
    for col in ("model saturation", "sim saturation", "saturation ratio"):
        table[col] = core[col]
    return table


#: The ``setup`` name :func:`own_setup` gives its rows.
OWN_SETUP = "each model's own set-up"


def own_setup(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`error_table` on the set-up each model assumes (:attr:`ModelSpec.setup`).

    ``setup`` becomes :data:`OWN_SETUP` and ``its set-up`` names the set-up,
    so :func:`most_accurate` ranks every model on its own assumptions.
    Models whose set-up was not run are left out.
    """
    spec = {s.label: s.setup for s in MODELS.values()}
    keep = table[[spec.get(m) == s for m, s in zip(table["model"], table["setup"])]].copy()
    keep.insert(1, "its set-up", keep["setup"])
    keep["setup"] = OWN_SETUP
    return keep.reset_index(drop=True)


def format_errors(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`error_table` as text (for a CSV file): errors as ``+12.3%`` (``∞``, ``n/a``), loads to
    5 decimals (:func:`models.core.tables.error_text`, as every chapter)."""
    return error_text(table, signed=["err @*"], magnitude=["worst |err|*"],
                      decimals={"model saturation": 5, "sim saturation": 5, "saturation ratio": 3})


def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The simulated points of every run with the model beside: ``setup``, ``model``, ``routing``, load, latencies."""
    frames = []
    for run in runs:
        pts = run.points()
        if pts.empty:
            continue
        pts = pts.rename(columns={"curve": "model", "load": "rate"})
        pts.insert(1, "setup", run.curve.setup)
        pts.insert(2, "routing", run.curve.sim["routing"])
        frames.append(pts)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Each (routing, set-up)'s simulated saturation load: the bracket's midpoint, ``lo``, ``hi`` and the probes run."""
    rows, seen = [], set()
    for run in runs:
        key = (run.curve.sim["routing"], run.curve.setup)
        b = run.brackets.get("sim")
        if key in seen or b is None:
            continue
        seen.add(key)
        rows.append({"routing": key[0], "setup": key[1], "sim saturation": b.load, "lo": b.lo, "hi": b.hi,
                     "probes": b.evaluations})
    return pd.DataFrame(rows)


#: The chapter table that simulates one of this page's networks too: torus_nbc's Fig. 1 saturation loads
#: (Duato-Nbc, its set-up "model", V ejection VCs, the page's own set-up "V ejection VCs").
CHAPTER_SATURATION = "torus_nbc/tables/tab-torus_nbc-saturation.csv"


def chapter_check(saturation: pd.DataFrame, errors: pd.DataFrame, net: Network, probe_messages: int,
                  book_dir="..", rerun=None):
    """The same network in the torus_nbc chapter: where this page's Duato-Nbc run and the chapter's Fig. 1 run
    simulate one network (``k``, ``M``, the chapter's ``V``, V ejection VCs), their saturation loads side by side.

    ``saturation`` and ``errors`` are this page's (:func:`saturation_table`, :func:`error_table`),
    ``probe_messages`` its probes' length; the chapter's row comes from its table :data:`CHAPTER_SATURATION` under
    ``book_dir`` (the chapter runs first: the pipeline's ``AFTER_NOTEBOOKS``), with its probes' length
    (``probe messages``).  ``rerun`` (optional, :func:`search_with_probes`): this page's search run again with
    the chapter's probe length, called when the two brackets do not overlap and the probes differ, so that the
    page tests the explanation instead of asserting it (a third row).  Returns ``(frame, sentence)``: one row per
    search, and why the numbers differ, in words; ``(None, sentence)`` when the chapter does not simulate this
    network or its table is not built.
    """
    from pathlib import Path

    path = Path(book_dir) / CHAPTER_SATURATION
    if net.V != torus_nbc.NbcParams(k=net.k, M=net.M).V:
        return None, f"The torus_nbc chapter simulates V = {torus_nbc.NbcParams(k=net.k, M=net.M).V}, not this page's V."
    if not path.is_file():
        return None, f"The torus_nbc chapter's saturation table ({CHAPTER_SATURATION}) is not built."
    theirs = pd.read_csv(path)
    theirs = theirs[(theirs["k"] == net.k) & (theirs["M"] == net.M) & (theirs["setup"] == "model")]
    mine = saturation[(saturation["routing"] == "duato_nbc") & (saturation["setup"] == "V ejection VCs")]
    model = errors[(errors["routing"] == "duato_nbc") & (errors["setup"] == "V ejection VCs")]
    if theirs.empty or mine.empty or model.empty:
        return None, (f"The torus_nbc chapter does not simulate this {net.k}x{net.k} torus with M = {net.M} on its "
                      "V-ejection-VC set-up.")
    c, h, m = theirs.iloc[0], mine.iloc[0], float(model["model saturation"].iloc[0])
    probes_there = int(c["probe messages"]) if "probe messages" in c else math.nan
    frame = pd.DataFrame([
        {"page": "torus_nbc chapter (Fig. 1)", "probe messages": probes_there, "sim saturation": c["sim saturation"],
         "lo": c["sim saturation lo"], "hi": c["sim saturation hi"], "model saturation": m,
         "saturation ratio": m / c["sim saturation"]},
        {"page": "this page", "probe messages": int(probe_messages), "sim saturation": h["sim saturation"],
         "lo": h["lo"], "hi": h["hi"], "model saturation": m, "saturation ratio": m / h["sim saturation"]}])
    gap = h["sim saturation"] / c["sim saturation"] - 1
    overlap = h["lo"] <= c["sim saturation hi"] and c["sim saturation lo"] <= h["hi"]
    text = (f"The torus_nbc chapter simulates this network too (Duato-Nbc, {net.k}x{net.k}, M = {net.M}, V = {net.V}, "
            f"V ejection VCs; its Fig. 1). Its search puts the simulated saturation load at "
            f"{c['sim saturation']:.5f}, this page's at {h['sim saturation']:.5f} ({gap:+.1%}), so the model's "
            f"saturation ratio reads {m / c['sim saturation']:.3f} there and {m / h['sim saturation']:.3f} here. ")
    if overlap:
        text += "The two brackets overlap: the searches agree within their resolution."
    else:
        text += (f"The brackets do not overlap. The searches differ in their probes: "
                 f"{probes_there:,} measured messages each in the chapter, {int(probe_messages):,} here."
                 if probes_there == probes_there else "The brackets do not overlap.")
        if rerun is not None and probes_there == probes_there and int(probes_there) != int(probe_messages):
            s = rerun(int(probes_there))
            frame = pd.concat([frame, pd.DataFrame([{
                "page": "this page, the chapter's probes", "probe messages": int(probes_there),
                "sim saturation": s.load, "lo": s.lo, "hi": s.hi, "model saturation": m,
                "saturation ratio": m / s.load}])], ignore_index=True)
            agrees = s.lo <= c["sim saturation hi"] and c["sim saturation lo"] <= s.hi
            text += (f" Run again with the chapter's probes, this page's search finds {s.load:.5f} "
                     f"({s.lo:.5f} to {s.hi:.5f}), ")
            text += ("a bracket that overlaps the chapter's: the probes' length accounts for the difference. A "
                     "shorter probe can end before a load just past saturation has grown the source queues enough to "
                     "flag it. The chapter's longer probes are the reference for this network; this page's shorter "
                     "ones serve its comparison of models, which all share them." if agrees else
                     "a bracket that still misses the chapter's: the probes' length does not account for all of "
                     "the difference (the two searches also start from different brackets).")
    return frame, text


def search_with_probes(runs: Sequence[CurveRun], settings: SimSettings):
    """``probes -> Saturation``: this page's search (:func:`sim_saturation`) for Duato-Nbc on the set-up "V ejection
    VCs" of ``runs``, with probes of ``probes`` measured messages (the ``rerun`` of :func:`chapter_check`)."""
    curve = next((r.curve for r in runs if r.curve.sim.get("routing") == "duato_nbc"
                  and r.curve.setup == "V ejection VCs"), None)
    if curve is None:
        raise ParameterError("no Duato-Nbc run on the set-up 'V ejection VCs' to search again")
    return lambda probes: sim_saturation(curve, settings.replace(sat_messages=int(probes)))


def _abs_max(values) -> float:
    v = np.abs(np.asarray(values, dtype=float))
    v = v[~np.isnan(v)]
    return float(v.max()) if v.size else math.nan


#: The load bands of :func:`most_accurate`: name -> fractions of the simulated saturation load.
BANDS = {"up to 50%": (0.25, 0.5), "75-90%": (0.75, 0.9)}


def most_accurate(table: pd.DataFrame, bands: dict | None = None) -> pd.DataFrame:
    """For each set-up and load band, the model with the smallest worst ``|error|``; and the best saturation ratio.

    ``table`` is :func:`error_table`.  One row per (set-up, criterion):
    ``setup``, ``criterion`` (a band of :data:`BANDS`, or ``"saturation"``),
    ``model``, ``value`` (worst ``|error|`` in percent, or the saturation
    ratio), ``runner-up`` and its ``runner-up value``.  A model saturated in
    the band (``inf``) ranks last; a band where no model has a number gives
    ``model = "-"`` (``value`` NaN), one where every model is saturated
    ``model = "-"`` with ``value = inf``.
    """
    bands = BANDS if bands is None else bands
    rows = []
    for setup, g in table.groupby("setup", sort=False):
        for band, fracs in bands.items():
            cols = [_err_col(f) for f in fracs if _err_col(f) in g]
            scores = [(_abs_max(r[cols].to_numpy(dtype=float)) if cols else math.nan, r["model"])
                      for _, r in g.iterrows()]
            rows.append(_ranked(setup, band, scores))
        scores = [(abs(float(r["saturation ratio"]) - 1.0), r["model"], float(r["saturation ratio"]))
                  for _, r in g.iterrows()]
        rows.append(_ranked(setup, "saturation", scores))
    return pd.DataFrame(rows, columns=["setup", "criterion", "model", "value", "runner-up", "runner-up value"])


def _ranked(setup: str, criterion: str, scores: list) -> dict:
    known = sorted([s for s in scores if not math.isnan(s[0])], key=lambda s: (s[0], s[1]))

    def shown(s):
        return s[2] if len(s) > 2 else s[0]

    if known and all(math.isinf(s[0]) for s in known):
        return {"setup": setup, "criterion": criterion, "model": "-", "value": math.inf, "runner-up": "-",
                "runner-up value": math.nan}
    best = known[0] if known else None
    second = known[1] if len(known) > 1 else None
    return {"setup": setup, "criterion": criterion, "model": best[1] if best else "-",
            "value": shown(best) if best else math.nan, "runner-up": second[1] if second else "-",
            "runner-up value": shown(second) if second else math.nan}


def summary_sentences(best: pd.DataFrame) -> dict:
    """One sentence per set-up, computed from :func:`most_accurate` (set-up -> text)."""
    out = {}
    for setup, g in best.groupby("setup", sort=False):
        parts = []
        for _, r in g.iterrows():
            if r["model"] == "-":
                if r["criterion"] != "saturation" and math.isinf(r["value"]):
                    parts.append(f"at {r['criterion']} of the simulated saturation load every model is already "
                                 "saturated")
                continue
            if r["criterion"] == "saturation":
                parts.append(f"the saturation load closest to its simulation's is {r['model']}'s "
                             f"(ratio {r['value']:.3f})")
            else:
                value = "saturated" if math.isinf(r["value"]) else f"worst |error| {r['value']:.1f}%"
                parts.append(f"at {r['criterion']} of the simulated saturation load the most accurate model is "
                             f"{r['model']} ({value})")
        if parts:
            text = "; ".join(parts)
            out[setup] = f"With {setup}, {text}."
    return out


def glue_key(setup: str) -> str:
    """The glue key of a set-up's summary sentence: ``findings-one-<set-up in kebab case>``."""
    return "findings-one-" + "-".join("".join(c if c.isalnum() else " " for c in setup.lower()).split())


def glue_values(best: pd.DataFrame) -> dict:
    """The sentences the page quotes: :func:`glue_key` of each set-up -> its :func:`summary_sentences` sentence.

    ``best`` is :func:`most_accurate` (of every set-up and of :data:`OWN_SETUP`).
    """
    return {glue_key(setup): text for setup, text in summary_sentences(best).items()}


def _best_text(value: float, criterion: str) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return UNBOUNDED
    return f"{value:.3f}" if criterion == "saturation" else f"{value:.1f}%"


def format_best(best: pd.DataFrame) -> pd.DataFrame:
    """:func:`most_accurate` as the page shows it: ``value`` and ``runner-up value`` as text.

    A saturation ratio with three decimals, a worst error as ``12.3%``;
    :data:`~models.core.tables.UNBOUNDED` (``∞``) for an infinite value, ``n/a`` for a missing one.
    """
    shown = best.copy()
    for col in ("value", "runner-up value"):
        shown[col] = [_best_text(v, c) for v, c in zip(shown[col], shown["criterion"])]
    return shown


def setups_table(net: Network = Network(), setups: Sequence[str] = tuple(SETUPS)) -> pd.DataFrame:
    """The set-ups: ``setup``, the simulator keywords it changes (resolved on ``net``), ``description``."""
    return pd.DataFrame([{"setup": s, "changes": ", ".join(f"{k}={v}" for k, v in
                                                          named_setup(SETUPS, s).sim(net.V).items()),
                          "description": SETUPS[s].description} for s in setups])


# ----------------------------------------------------------------------------
# Plot
# ----------------------------------------------------------------------------
def plot(runs: Sequence[CurveRun], net: Network = Network()):
    """One panel per simulated routing: its models (lines) and the simulation of each set-up (markers, 95% CI).

    Dashed vertical lines: each model's saturation load; dotted: each
    set-up's simulated saturation load (grey legend entries).  In the
    compendium's style (:mod:`models.core.plotting`): column width, one
    legend below the panels, y-limits holding every simulated point and CI
    (model lines count up to 1.5 times the largest simulated latency).
    Returns the matplotlib figure.
    """
    from ..core.plotting import (  # matplotlib: only when the figure is drawn
        COLORS, MARKERS, column_figure, figure_legend, fit_ylim_all, hide_unused, model_line,
        panel_grid, saturation_handles, saturation_line, sim_errorbar)

    routings = [r for r in ROUTINGS if any(run.curve.sim["routing"] == r for run in runs)]
    setups = list(dict.fromkeys(run.curve.setup for run in runs))
    rows, cols = panel_grid(len(routings))
    fig, axes = column_figure(rows, cols, row_height=3.6, sharey=True)
    model_names = list(dict.fromkeys(run.curve.model["name"] for run in runs))
    colour = {n: COLORS[i % len(COLORS)] for i, n in enumerate(model_names)}
    handles, labels = [], []
    top = 0.0
    any_model_sat = any_sim_sat = False
    for ax, routing in zip(axes.ravel(), routings):
        mine = [r for r in runs if r.curve.sim["routing"] == routing]
        drawn = set()
        for run in mine:
            name = run.curve.model["name"]
            if name in drawn:
                continue
            drawn.add(name)
            line = model_line(ax, run.model["load"], run.model["latency"], color=colour[name])
            if run.label not in labels:
                handles.append(line)
                labels.append(run.label)
            any_model_sat |= saturation_line(ax, run.model_saturation, color=colour[name], kind="model") is not None
        for i, setup in enumerate(setups):
            run = next((r for r in mine if r.curve.setup == setup), None)
            if run is None or run.sim is None:
                continue
            s = run.sim
            h = sim_errorbar(ax, s["load"], s["latency"], s[ci_column("latency")], marker=MARKERS[i % len(MARKERS)],
                             color="0.2")
            if h is not None:
                top = max(top, float(np.nanmax(s["latency"].to_numpy(dtype=float))))
                if f"simulation, {setup}" not in labels:
                    handles.append(h)
                    labels.append(f"simulation, {setup}")
            any_sim_sat |= saturation_line(ax, run.sim_saturation, color="0.2", kind="sim") is not None
        ax.set(title=f"routing: {ROUTINGS[routing]}", xlabel="generation rate\n[messages/node/cycle]")
        ax.set_xlim(left=0)
    spare = hide_unused(axes, len(routings))
    fit_ylim_all(axes, cap=1.5 * top if top > 0 else None, rise=6.0)
    axes[0][0].set_ylabel("mean message latency [cycles]")
    h2, l2 = saturation_handles(any_model_sat, any_sim_sat)
    figure_legend(fig, handles + h2, labels + l2, spare=spare)
    fig.suptitle(net.label)
    return fig
