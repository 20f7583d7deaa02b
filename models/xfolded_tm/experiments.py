"""The paper's experiments: the figures as data, the simulator set-ups and translation, the runs and the tables.

The paper's delay figure compares an 8x8 torus, TM and x-Folded TM under
uniform traffic with 2 and 8 virtual channels per physical channel, average
delay (cycles) against injection rate (flits/node/cycle).  Here it is one
:class:`~models.core.experiment.Figure` per VC count (:func:`delay_figure`,
:data:`FIGURES`), one :class:`~models.core.experiment.Curve` per network
(:data:`TOPOLOGIES`) and simulator set-up (:data:`SETUPS`), with absolute
loads in the figure's unit, flits/node/cycle (the model's ``lam`` is
``injection / M``).  :func:`run_figure` solves the model (with the network's
exact BFS average distance, and with the paper's printed Theorem 1) and
simulates the same network; :func:`delay_frame`, :func:`error_tables`,
:func:`ranking_table` and :func:`reading_sensitivity` condense the runs.

The simulation hook is the chapter's one translation to the simulator:
:func:`sim_kwargs` (one point, ``lam`` in messages/node/cycle, the
chapter's ``LOAD``) and :func:`simulate_curve` (a cached
:func:`models.sim.sweep.run_sweep` of it), run lengths in a
:class:`~models.core.claims.SimSettings` (:data:`SETTINGS`, the full
profile).  ``python -m models.xfolded_tm curve --simulate`` uses the same
two functions.

The validation grid (:func:`validation_figure`, :func:`validation_table`)
runs every network, VC count, message length ``M`` (the paper does not state
it) and set-up at fractions of the *simulated* saturation load, so the error
below :data:`~models.core.claims.BELOW` (80 %) of the simulated saturation
(:func:`~models.core.claims.worst_error_below`) and the model/simulation
saturation ratio are defined; :func:`vc_saturation_table` compares the
saturation at 2 and 8 VCs (the paper's "similar saturation in different
numbers of VCs"), and :func:`claims_table` builds the chapter's claims table
(one row per claim and set-up, the columns of
:data:`~models.core.claims.CLAIM_COLUMNS`).

The model-only curves of the model page are :func:`model_curves_figure` run
by :func:`run_figure` too, and :func:`saturation_table`.  The topology tables
are :func:`distance_table` and :func:`topology_claims`.  Every number the
pages quote comes from :func:`glue_values` (the claims),
:func:`glue_values_errors` (the delay figure's lightest load) and
:func:`glue_values_topology` (the topology page).  Matplotlib is in
:mod:`models.xfolded_tm.plots`.

Simulator set-ups (:data:`SETUPS`, :class:`models.core.claims.SimulatorSetup`;
DESIGN.md "Simulator set-ups are named"):

* ``"ours"`` -- the chapter's set-up before issue #13: the ideal router (one
  cycle per router), 2-flit buffers per VC, ``V`` injection VCs, one ejection
  channel (messages leave one at a time).  It stands for neither the paper
  nor the model (no verdict rests on it).
* ``"model"`` -- as the model assumes: the same ideal router with ``V``
  ejection VCs (eq. 9 has no ejection term: a message never queues to leave).
  The default of a curve and of the command line (:data:`DEFAULT_SETUP`).
* ``"booksim"`` -- as the paper states (it validated with BookSim 2.0; the
  rest is BookSim's defaults): BookSim 2's input-queued router (5 cycles per
  hop), 8-flit buffers, one injection VC (one message at a time per source),
  ``V`` ejection VCs.  It supports dimension-order routing only, so only the
  torus runs on it; :func:`unsupported` says so up front.

Every set-up names the same knobs (:data:`SETUP_KNOBS`) and keeps everything
else equal (seed, lengths, Poisson sources, uniform destinations over the
other nodes, random tie-breaking).

Routing in the simulator (the paper used BookSim 2.0 and does not say which):

* torus: ``"dor"`` -- dimension-order routing with Dally & Seitz's dateline
  virtual channels, minimal and deadlock-free from ``V = 2`` (the model is a
  deterministic-routing model).
* TM and x-Folded TM: ``"updown"`` -- minimal adaptive routing on VCs
  ``1..V-1`` with one absorbing up*/down* escape VC (index 0); deadlock-free
  on any connected graph for ``V >= 1``.  It is minimal except for messages
  that fall back to the escape VC; the non-minimal excess is reported as
  ``mean hops / BFS average distance - 1``.  These irregular graphs have no
  dimension order, so no dateline scheme is available.
"""

from __future__ import annotations

import functools
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import BELOW, CLAIM_COLUMNS, SimSettings, SimulatorSetup, named_setup, worst_error_below
from ..core.errors import ParameterError
from ..core.experiment import Curve, CurveRun, Figure, each_curve, error_table, run_curve
from ..core.saturation import Saturation, find_saturation
from ..core.tables import percent
from ..core.validate import require, require_choice
from ..core.validation import compare
from ..networks.grid2d import (READINGS, GridNetwork, build, definition1_node_count, mesh, properties_table,
                               proposition1_nodes, tm, torus, xfolded_tm)
from ..sim.sweep import run_sweep
from ..sim.wormhole.booksim import BOOKSIM_ROUTINGS, NEEDS_TAIL_CREDIT
from .solve import saturation_load, solve, theorem1

#: Full-profile simulation lengths (messages per load point).
SIM_MESSAGES = 60_000
SIM_WARMUP = 10_000

#: Full-profile messages per probe of the simulated-saturation search.
SAT_MESSAGES = 20_000

#: Run lengths, seed, saturation search and processes of the full profile (the notebooks pass their own).
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP, batches=20, seed=1,
                       sat_messages=SAT_MESSAGES, sat_rtol=0.02)

#: Injection rates of the full profile, flits/node/cycle.
INJECTION = (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)

#: The networks of the delay figure, by key: legend label, topology (:func:`models.networks.grid2d.build`),
#: reading of Definition 1 and the simulator's routing.
TOPOLOGIES: dict[str, dict] = {
    "torus": dict(label="torus", kind="torus", reading="printed", routing="dor"),
    "tm": dict(label="TM", kind="tm", reading="printed", routing="updown"),
    "xfolded_printed": dict(label="x-Folded TM (Def. 1 as printed)", kind="xfolded", reading="printed",
                            routing="updown"),
    "xfolded_completed": dict(label="x-Folded TM (completed reading)", kind="xfolded", reading="completed",
                              routing="updown"),
}

#: The paper's figure: VC = 2 and VC = 8.
FIGURE_VCS = (2, 8)

#: Message lengths of the validation grid (flits): the paper does not state its message length; we
#: guessed 32 (the other papers' value), BookSim's default packet is 1 flit.
MESSAGE_LENGTHS = (1, 8, 32)

#: Label of the model curve with the average distance of Theorem 1 as printed (on the printed x-Folded TM).
THEOREM_LABEL = "x-Folded TM, AD of Thm 1 as printed"

#: Fractions of the simulated saturation load of the full validation grid.
VALIDATION_FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9)



# ----------------------------------------------------------------------------
# Simulator set-ups
# ----------------------------------------------------------------------------
#: The knobs every set-up names (keyword arguments of :func:`models.sim.wormhole.simulate`).
SETUP_KNOBS = ("router", "buffer_depth", "router_delay", "injection_vcs", "ejection_vcs")


def check_setup(setup: SimulatorSetup) -> SimulatorSetup:
    """``setup`` if it names exactly the knobs :data:`SETUP_KNOBS` (so two set-ups differ only in them)."""
    missing = set(SETUP_KNOBS) - set(setup.overrides)
    extra = set(setup.overrides) - set(SETUP_KNOBS)
    if missing or extra:
        raise ParameterError(f"set-up {setup.name!r} must name exactly {SETUP_KNOBS}; "
                             f"missing {sorted(missing)}, extra {sorted(extra)}")
    return setup


#: The chapter's simulator set-ups, by name (DESIGN.md: "Simulator set-ups are named").
SETUPS: dict[str, SimulatorSetup] = {s.name: check_setup(s) for s in (
    SimulatorSetup(
        "ours", "our ideal router as before issue #13: 2-flit buffers per VC, 1 cycle per router, V injection VCs, "
        "one ejection channel (one message leaves a node at a time)", "",
        dict(router="ideal", buffer_depth=2, router_delay=1, injection_vcs="V", ejection_vcs=1)),
    SimulatorSetup(
        "model", "as the model assumes: the ideal router of 'ours' with V ejection VCs (eq. 9 has no ejection "
        "term, so a message never queues to leave)", "model",
        dict(router="ideal", buffer_depth=2, router_delay=1, injection_vcs="V", ejection_vcs="V")),
    SimulatorSetup(
        "booksim", "as the paper states (BookSim 2.0, its defaults): BookSim 2's input-queued router (5 cycles per "
        "hop), 8-flit buffers, one injection VC (one message at a time per source), V ejection VCs", "paper",
        dict(router="booksim", buffer_depth=8, router_delay=1, injection_vcs=1, ejection_vcs="V")),
)}

#: The set-up a curve that names none runs on, and the command line's default: "model", the set-up the
#: model's assumptions describe, on which every network runs ("booksim", the paper's, runs the torus only).
#: The verdicts rest on "model" and "booksim"; "ours" stands for neither (shown, never decisive).
DEFAULT_SETUP = "model"


def setups_table() -> pd.DataFrame:
    """One row per set-up: name, what it stands for (``-``: neither), its knobs (``V``: the curve's VCs), description."""
    return pd.DataFrame([{"setup": s.name, "stands for": s.stands_for or "-", **s.overrides,
                          "description": s.description} for s in SETUPS.values()])


def sim_zero_load(setup_name: str, M: int, hops: float) -> float:
    """Zero-load latency (cycles) of a message crossing ``hops`` network channels (mean hops: linear, so exact).

    Ideal router: ``M + (h + 1) R``; BookSim router with ``buffer_depth >= 5``:
    ``M + 5 (h + 1) + 1`` (both from :mod:`models.sim.wormhole`'s docstrings,
    tested there).  The model's is ``M + d`` (eq. 9 at zero load).
    """
    kw = named_setup(SETUPS, setup_name).sim(2)
    if kw["router"] == "booksim":
        if kw["buffer_depth"] < 5:
            raise ParameterError("the booksim zero-load formula needs buffer_depth >= 5")
        return M + 5 * (hops + 1) + 1
    return M + (hops + 1) * kw["router_delay"]


@functools.lru_cache(maxsize=None)
def network(key: str, k: int = 8) -> GridNetwork:
    """The ``k x k`` network of :data:`TOPOLOGIES` ``[key]`` (built once per process)."""
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    return build(t["kind"], k, t["reading"])


def ad_value(net: GridNetwork, source: str = "bfs") -> float:
    """Per-dimension average distance ``AD_k`` (hops) of ``net``: BFS, printed Theorem 1 or ``k/3``."""
    if source == "bfs":
        return net.average_distance_per_dimension()
    return theorem1(net.k, source)


def model_kwargs(net: GridNetwork, *, V: int, M: float, ad: str = "bfs", **readings) -> dict:
    """Keyword arguments of :func:`models.xfolded_tm.solve` for ``net`` (counts for ``channel_rate='links'``)."""
    return dict(ad=ad_value(net, ad), M=M, V=V, k=net.k, n=2, nodes=net.n_nodes, channels=net.n_channels,
                **readings)


def _unsupported(routing: str, V: int, knobs: Mapping) -> str:
    """Why the simulator with the keywords ``knobs`` cannot run ``routing`` with ``V`` VCs (``""`` when it can).

    ``router="booksim"`` runs the routings of
    :data:`models.sim.wormhole.booksim.BOOKSIM_ROUTINGS`, dimension-order
    routing with an even number of VCs on a torus (the dateline halves);
    up*/down* (TM, x-Folded TM) only with ``wait_for_tail_credit=True``,
    which is not the BookSim configuration of the ``"booksim"`` set-up
    (``wait_for_tail_credit = 0``, BookSim's default), so it is not run.
    """
    if knobs.get("router") == "booksim":
        if routing not in BOOKSIM_ROUTINGS:
            return (f"router='booksim' supports routing {', '.join(BOOKSIM_ROUTINGS)} only; "
                    f"this network needs {routing!r}")
        if routing in NEEDS_TAIL_CREDIT and not knobs.get("wait_for_tail_credit", False) \
                and not (routing == "updown" and V == 1):
            return (f"router='booksim' runs {routing!r} only with wait_for_tail_credit=True (deadlock freedom), "
                    "and this set-up is BookSim's default wait_for_tail_credit=0")
        if V % 2:
            return "router='booksim' needs an even number of VCs with dimension-order routing on a torus"
    return ""


def unsupported(key: str, V: int, setup: str | SimulatorSetup = DEFAULT_SETUP) -> str:
    """Why network ``key`` with ``V`` VCs cannot be simulated on set-up ``setup`` (``""`` if it can).

    ``setup`` is a name of :data:`SETUPS` (or a set-up); the network's
    routing is :data:`TOPOLOGIES` ``[key]["routing"]``.
    """
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    return _unsupported(t["routing"], V, named_setup(SETUPS, setup).sim(V))


# ----------------------------------------------------------------------------
# The delay figure (model against simulation)
# ----------------------------------------------------------------------------
def delay_curve(key: str, V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                setup: str = DEFAULT_SETUP, **readings) -> Curve:
    """One network of the delay figure with ``V`` virtual channels, at the injection rates (flits/node/cycle).

    ``Curve.model`` holds the keyword arguments of :func:`~models.xfolded_tm.solve`
    (the network's BFS average distance; ``readings`` such as ``vbar="sum"``);
    ``Curve.sim`` the network (``topology`` key, ``k``) and the ``routing``;
    ``Curve.setup`` the simulator set-up (:data:`SETUPS`).  The label is
    ``"<network> [<set-up>]"``.
    """
    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    k = require("k", k, 3, unit="radix", integer=True)
    M = require("M", M, 1, unit="message length, flits", integer=True)
    inj = tuple(require("injection", x, 0, 1, lo_open=True, unit="flits/node/cycle") for x in injection)
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    setup_name = named_setup(SETUPS, setup).name
    return Curve(label=f"{t['label']} [{setup_name}]", model=model_kwargs(network(key, k), V=V, M=M, **readings),
                 sim=dict(topology=key, k=k, routing=t["routing"]), setup=setup_name, loads=inj)


def delay_figure(V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                 keys: Sequence[str] = tuple(TOPOLOGIES), setups: Sequence[str] = (DEFAULT_SETUP,),
                 **readings) -> Figure:
    """The delay figure for ``V`` virtual channels: one curve per network and set-up the simulator supports.

    Networks are ``keys`` of :data:`TOPOLOGIES`, set-ups names of :data:`SETUPS`;
    a (network, set-up) pair the simulator cannot run (:func:`unsupported`) is
    left out.
    """
    curves = tuple(delay_curve(key, V, injection, k=k, M=M, setup=s, **readings)
                   for key in keys for s in setups if not unsupported(key, V, s))
    return Figure(label=f"fig-xfolded_tm-delay-vc{V}", title=f"{k}x{k} networks, uniform traffic, VC = {V}",
                  curves=curves, x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay",
                  y_unit="cycles")


#: The paper's delay figure at the paper's scale, every set-up, by label.
FIGURES: dict[str, Figure] = {f.label: f for f in (delay_figure(V, setups=tuple(SETUPS)) for V in FIGURE_VCS)}


def model_point(curve: Curve, injection: float) -> dict:
    """The model of ``curve`` at one injection rate (flits/node/cycle): delay with the BFS and Thm-1 distances."""
    kw = curve.model
    lam = injection / kw["M"]
    r = solve(lam, **kw)
    thm = solve(lam, **dict(kw, ad=theorem1(kw["k"], "theorem")))
    return {"latency": r.latency, "saturated": r.saturated, "lam": lam, "latency (Thm 1 printed)": thm.latency}



# ----------------------------------------------------------------------------
# The simulation hook: one point, one curve, the saturation search
# ----------------------------------------------------------------------------
def _network_of(curve: Curve) -> tuple:
    """``(key, k)``: the :data:`TOPOLOGIES` key and radix of ``curve``'s network.

    From ``curve.sim`` (``topology``, ``k``) when it names them, else from
    the model: the ``k x k`` network whose node and channel counts are the
    model's ``nodes`` and ``channels`` (:func:`model_kwargs`; the four
    networks differ in them).
    """
    k = int(curve.sim.get("k", curve.model.get("k", 8)))
    key = curve.sim.get("topology")
    if key is not None:
        return require_choice("topology", key, list(TOPOLOGIES), unit="network of the delay figure"), k
    counts = (curve.model.get("nodes"), curve.model.get("channels"))
    found = [key for key in TOPOLOGIES if (network(key, k).n_nodes, network(key, k).n_channels) == counts]
    if len(found) != 1:
        raise ParameterError(f"curve {curve.label!r}: which network? `sim` names no `topology` and no {k}x{k} "
                             f"network of {list(TOPOLOGIES)} has the model's nodes and channels {counts}")
    return found[0], k


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``lam = load`` (messages/node/cycle).

    The model's ``V`` and ``M`` become ``vcs`` and ``message_length``; the
    network (:func:`_network_of`: ``curve.sim``'s ``topology`` and ``k``, else
    the one the model's counts name) is
    :meth:`~models.networks.grid2d.GridNetwork.sim_topology` of its routing
    (``curve.sim["routing"]``, else :data:`TOPOLOGIES`'s); the set-up's knobs
    (:data:`SETUP_KNOBS`) come from :data:`SETUPS` ``[curve.setup]``
    (default :data:`DEFAULT_SETUP`), and any other key of ``curve.sim``
    overrides them; run lengths and seed from ``settings``.  A figure's
    injection ``x`` (flits/node/cycle) is the load ``x / M``.

    Raises :class:`~models.core.errors.ParameterError` when the simulator
    cannot run the curve's routing on these knobs (checked up front,
    :func:`unsupported`).
    """
    key, k = _network_of(curve)
    V = curve.model["V"]
    setup = named_setup(SETUPS, curve.setup or DEFAULT_SETUP)
    extra = {name: value for name, value in curve.sim.items() if name not in ("topology", "k")}
    routing = extra.pop("routing", TOPOLOGIES[key]["routing"])
    knobs = {**setup.sim(curve.model), **extra}
    why = _unsupported(routing, V, knobs)
    if why:
        raise ParameterError(f"curve {curve.label!r}: set-up {setup.name!r} cannot run it: {why}")
    return dict(topology=network(key, k).sim_topology(routing), routing=routing, vcs=V,
                message_length=curve.model["M"], rate=float(load), messages=settings.messages,
                warmup_messages=settings.warmup_messages, batches=settings.batches, seed=settings.seed, **knobs)


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list:
    """The simulation of ``curve`` at every ``lam`` of ``loads`` (messages/node/cycle): one cached sweep.

    One row per load: ``latency`` (cycles, ``inf`` if saturated), ``latency
    CI`` (95% half width), ``saturated`` and ``mean hops``.
    """
    results = run_sweep([sim_kwargs(curve, x, settings) for x in loads], jobs=settings.jobs, cache=settings.cache,
                        progress=settings.progress)
    return [{"latency": r.latency, "latency CI": r.latency_ci, "saturated": bool(r.saturated),
             "mean hops": r.mean_hops} for r in results]


def _simulator(settings: SimSettings):
    """The ``sim(curve, injections)`` of :func:`models.core.experiment.run_curve` (loads in flits/node/cycle).

    Runs the loads in order, one :func:`simulate_curve` each; the loads after
    the first saturated one are not simulated (reported saturated, delay
    ``inf``).  Each row: ``latency`` and its ``latency CI`` (95% half width,
    cycles), ``saturated``, ``mean hops``.
    """
    def sim(curve: Curve, loads: list) -> list:
        M = curve.model["M"]
        rows, stopped = [], False
        for x in loads:
            if stopped:
                rows.append({"latency": math.inf, "latency CI": math.nan, "saturated": True, "mean hops": math.nan})
                continue
            r = simulate_curve(curve, [x / M], settings)[0]
            sat = r["saturated"]
            rows.append({"latency": math.inf if sat else r["latency"],
                         "latency CI": math.nan if sat else r["latency CI"], "saturated": sat,
                         "mean hops": math.nan if sat else r["mean hops"]})
            stopped = sat
        return rows

    return sim


def sim_saturation(curve: Curve, guess: float, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation injection rate (flits/node/cycle) of ``curve``, by bracketing and bisection.

    :func:`~models.core.saturation.find_saturation` on the bracket
    ``[guess, 1]``: ``guess`` is checked (divided by 1.25 while it is
    saturated), 1 flit/node/cycle -- the injection channel's capacity -- is
    taken as saturated without a run; the bracket is then halved to
    ``settings.sat_rtol``.  Each probe is one cached run of
    ``settings.probe_messages`` messages.
    """
    guess = require("guess", guess, 0, 1, lo_open=True, hi_open=True, unit="flits/node/cycle")
    probe = settings.replace(messages=settings.probe_messages)
    M = curve.model["M"]

    def saturated(x):
        return simulate_curve(curve, [x / M], probe)[0]["saturated"]

    s = find_saturation(saturated, guess, 1.0, check_lo=True, check_hi=False, expand=1.25, max_expansions=39,
                        rtol=settings.sat_rtol)
    if not s.bracketed:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} below {guess}")
    return s


def _model_saturation(curve: Curve) -> float:
    """The model's saturation as an injection rate, flits/node/cycle."""
    return saturation_load(**curve.model) * curve.model["M"]


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def figure_kind(figure: Figure) -> str:
    """``"delay"``, ``"validation"`` or ``"model-curves"``: which of the chapter's figures ``figure`` is (by label)."""
    if not isinstance(figure, Figure):
        raise ParameterError(f"`figure` must be a Figure; got {figure!r}")
    if figure.label == "fig-xfolded_tm-validation":
        return "validation"
    if figure.label == "fig-xfolded_tm-model-curves":
        return "model-curves"
    if figure.label.startswith("fig-xfolded_tm-delay-"):
        return "delay"
    raise ParameterError(f"`figure` {figure.label!r} is none of the chapter's figures (delay, validation, "
                         "model curves)")


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 60) -> tuple:
    """Model (and, with ``simulate``, simulation) of every curve of one of the chapter's figures: CurveRuns.

    * a delay figure (:func:`delay_figure`): the model (:func:`model_point`)
      and the simulation at the curves' injection rates; the loads after
      the first simulated saturated one are not simulated;
    * the validation figure (:func:`validation_figure`): loads are fractions
      of the simulated saturation (:func:`sim_saturation`, its search
      starting at 0.8 times the model's), rounded to 6 significant digits;
      with ``simulate=False`` the fractions are of the model's saturation;
    * a model-curves panel (:func:`model_curves_figure`): the model alone
      on ``model_points`` injection rates from 0 to 0.999 of each curve's
      saturation (``settings`` and ``simulate`` are not used).

    ``settings`` (:class:`~models.core.claims.SimSettings`) gives the run
    lengths, seed, saturation search, processes and caching.
    """
    kind = figure_kind(figure)
    if kind == "model-curves":
        model_points = require("model_points", model_points, 2, unit="points per model curve", integer=True)

        def line(curve, sat, loads):
            return np.linspace(0, 0.999 * sat, model_points)

        return each_curve(figure.curves, lambda c: run_curve(c, _model_delay, None, model_saturation=_model_saturation,
                                                             line=line, quantity=figure.quantity))
    sim = _simulator(settings) if simulate else None
    if kind == "delay":
        return each_curve(figure.curves, lambda c: run_curve(c, model_point, sim, quantity=figure.quantity))
    return each_curve(figure.curves, lambda c: run_curve(
        c, model_point, sim, model_saturation=_model_saturation,
        sim_saturation=lambda curve, model_sat: sim_saturation(curve, 0.8 * model_sat, settings),
        round_to=6, quantity=figure.quantity))


def curve_key(curve: Curve) -> str:
    """The network's key in :data:`TOPOLOGIES` (``"torus"``, ``"tm"``, ``"xfolded_<reading>"``)."""
    return curve.sim["topology"]


def delay_frame(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per (curve, injection rate), in the curves' order, with the chapter's columns.

    ``curve``, ``key``, ``setup``, ``V``, ``injection`` (flits/node/cycle), ``lam``
    (messages/node/cycle), ``model`` (delay with the BFS average distance,
    cycles), ``model (Thm 1 printed)``, ``model saturated``, and for simulated
    runs: ``sim``, ``sim CI`` (95% half width), ``sim saturated``, ``mean hops``,
    ``BFS distance``, ``non-minimal excess``, ``routing``.  Loads past the
    simulator's saturation that were not simulated have ``sim = inf``.
    """
    parts = []
    for run in runs:
        c = run.curve
        loads = list(c.loads)
        m = run.model.drop_duplicates("load").set_index("load").loc[loads].reset_index()
        f = pd.DataFrame({"curve": c.label, "key": curve_key(c), "setup": c.setup, "V": c.model["V"],
                          "injection": m["load"], "lam": m["lam"], "model": m["latency"],
                          "model (Thm 1 printed)": m["latency (Thm 1 printed)"],
                          "model saturated": m["saturated"].astype(bool)})
        if run.sim is not None:
            s = run.sim
            ad_full = network(c.sim["topology"], c.sim["k"]).average_distance()
            f["sim"] = s["latency"].to_numpy()
            f["sim CI"] = s["latency CI"].to_numpy()
            f["sim saturated"] = s["saturated"].astype(bool).to_numpy()
            f["mean hops"] = s["mean hops"].to_numpy()
            f["BFS distance"] = ad_full
            f["non-minimal excess"] = f["mean hops"] / ad_full - 1
            f["routing"] = c.sim["routing"]
        parts.append(f)
    return pd.concat(parts, ignore_index=True)


def _curve_name(run: CurveRun) -> str:
    return f"VC={run.curve.model['V']}, {run.label}"


def error_tables(runs: Sequence[CurveRun]):
    """Model-vs-simulation errors at the points where both are finite: ``(points, summary)``.

    ``points``: one row per point (``curve`` = ``"VC=<V>, <network> [<set-up>]"``,
    ``injection``, model and simulated delay, CI, relative error, model inside
    the CI, ``setup``).  ``summary``: :func:`models.core.experiment.error_table`
    (within the paper's 5%) in the chapter's columns -- ``curve``, ``setup``,
    ``points``, ``max |rel. error|`` and ``mean |rel. error|`` (fractions),
    ``in CI`` and ``within 5%`` (``"hits/points"``); curves without a
    comparable point are left out.
    """
    parts = []
    for run in runs:
        pts = run.points()
        if pts.empty:
            continue
        ok = np.isfinite(pts["sim latency"]) & np.isfinite(pts["model latency"])
        if ok.any():
            pts = pts[ok]
            p = compare(pts["load"], pts["model latency"], pts["sim latency"], pts["sim latency CI"],
                        curve=_curve_name(run), x_name="injection", quantity="delay")
            p["setup"] = run.curve.setup
            parts.append(p)
    points = pd.concat(parts, ignore_index=True)
    table = error_table(runs, at=None, within=0.05)
    table.insert(0, "name", [_curve_name(r) for r in runs])
    table = table[table["points"] > 0]
    summary = pd.DataFrame({
        "curve": table["name"], "setup": table["setup"], "points": table["points"].astype(int),
        "max |rel. error|": table["max |err| [%]"] / 100.0, "mean |rel. error|": table["mean |err| [%]"] / 100.0,
        "in CI": [f"{int(a)}/{int(n)}" for a, n in zip(table["in CI"], table["points"])],
        "within 5%": [f"{int(a)}/{int(n)}" for a, n in zip(table["within 5%"], table["points"])],
    }).reset_index(drop=True)
    return points, summary


def ranking_table(frame, column: str = "sim"):
    """For each V, set-up and injection rate: does each x-Folded TM reading have a lower delay than TM and torus?

    ``frame`` is :func:`delay_frame`; uses ``column`` (``"sim"`` or a model
    column); a saturated value counts as ``inf``.  Returns one row per (V,
    set-up, reading) -- for a model column the set-ups share one model, so
    ``setup`` is ``"-"`` -- with the rates compared, the rates where it is
    lower than both, whether the claim holds at every rate where any of the
    three is finite, and (simulation) at how many rates the difference
    exceeds both confidence intervals.  Set-ups on which TM or the torus was
    not simulated are left out.
    """
    rows = []
    if "setup" not in frame:
        frame = frame.assign(setup="")
    groups = frame.groupby(["V", "setup"], sort=False) if column == "sim" else \
        ((key, g.drop_duplicates(["key", "injection"])) for key, g in
         frame.assign(setup="-").groupby(["V", "setup"], sort=False))
    for (V, setup_name), g in groups:
        piv = g.pivot_table(index="injection", columns="key", values=column, aggfunc="first")
        if not {"tm", "torus"} <= set(piv.columns):
            continue
        ci = None
        if column == "sim" and "sim CI" in g:
            ci = g.pivot_table(index="injection", columns="key", values="sim CI", aggfunc="first")
            ci = ci.reindex(index=piv.index, columns=piv.columns).fillna(0.0)
        for key in [c for c in piv.columns if c.startswith("xfolded")]:
            sub = piv[[key, "tm", "torus"]].replace(np.nan, np.inf)
            finite = np.isfinite(sub).any(axis=1)
            sub = sub[finite]
            lower = (sub[key] < sub["tm"]) & (sub[key] < sub["torus"])
            row = {"V": V, "setup": setup_name, "reading": key.replace("xfolded_", ""), "source": column,
                   "rates compared": int(len(sub)), "lower than TM and torus": int(lower.sum()),
                   "claim holds": bool(lower.all())}
            if ci is not None:
                c = ci.loc[sub.index]
                with np.errstate(invalid="ignore"):
                    sig = ((sub[key] + c[key] < sub["tm"] - c["tm"]) & (sub[key] + c[key] < sub["torus"] - c["torus"]))
                row["lower beyond the 95% CIs"] = int(sig.sum())
            rows.append(row)
    return pd.DataFrame(rows)


#: Model variants (readings) compared against the same simulations in :func:`reading_sensitivity`.
VARIANTS = {
    "default (mean Vbar, lambda/Vbar, eq. 6)": {},
    "eq. 11 summed as printed": {"vbar": "sum"},
    "source rate lambda/V": {"source_rate": "vcs"},
    "channel rate from channel count": {"channel_rate": "links"},
    "AD of Thm 1 as printed": {"ad": "theorem"},
    "AD = k/3": {"ad": "k/3"},
}


def reading_sensitivity(frame, *, k: int = 8, M: int = 32, variants: dict | None = None):
    """Max and mean |relative error| of each model variant against the simulations in ``frame``.

    ``frame`` is :func:`delay_frame`.  Re-solves the model (cheap) at every
    simulated, unsaturated point; one row per (variant, set-up, V, curve).
    """
    variants = VARIANTS if variants is None else variants
    if "setup" not in frame:
        frame = frame.assign(setup="")
    rows = []
    for name, opts in variants.items():
        opts = dict(opts)
        ad = opts.pop("ad", "bfs")
        for (setup_name, V, key), g in frame.groupby(["setup", "V", "key"], sort=False):
            g = g[np.isfinite(g["sim"])]
            if g.empty:
                continue
            kw = model_kwargs(network(key, k), V=int(V), M=M, ad=ad, **opts)
            model = np.array([solve(x / M, **kw).latency for x in g["injection"]])
            err = np.abs(model - g["sim"].to_numpy()) / g["sim"].to_numpy()
            rows.append({"variant": name, "setup": setup_name, "V": int(V), "curve": g["curve"].iloc[0],
                         "points": int(len(g)), "max |rel. error|": float(np.max(err)),
                         "mean |rel. error|": float(np.mean(err)),
                         "within 5%": f"{int(np.sum(err <= 0.05))}/{len(g)}"})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The validation grid: networks x VCs x message lengths x set-ups, at fractions of the simulated saturation
# ----------------------------------------------------------------------------
def validation_curve(key: str, V: int, M: int, setup: str, fractions: Sequence[float] = VALIDATION_FRACTIONS, *,
                     k: int = 8) -> Curve:
    """One curve of the validation grid: loads are fractions of the simulated saturation (flits/node/cycle)."""
    c = delay_curve(key, V, (), k=k, M=M, setup=setup)
    return c.replace(label=f"{TOPOLOGIES[key]['label']}, V={c.model['V']}, M={c.model['M']} [{c.setup}]",
                     loads=tuple(fractions), fractions_of="sim")


def validation_grid(keys: Sequence[str] = tuple(TOPOLOGIES), vcs: Sequence[int] = FIGURE_VCS,
                    message_lengths: Sequence[int] = MESSAGE_LENGTHS,
                    setups: Sequence[str] = tuple(SETUPS)) -> pd.DataFrame:
    """Every (network, V, M, set-up) of the grid and why the simulator cannot run it (``reason``, ``""`` if it can)."""
    rows = [dict(key=key, V=int(V), M=int(M), setup=named_setup(SETUPS, s).name, reason=unsupported(key, V, s))
            for key in keys for V in vcs for M in message_lengths for s in setups]
    return pd.DataFrame(rows, columns=["key", "V", "M", "setup", "reason"])


def validation_figure(grid: pd.DataFrame, fractions: Sequence[float] = VALIDATION_FRACTIONS, *, k: int = 8) -> Figure:
    """The runnable curves of ``grid`` (:func:`validation_grid`) as one figure."""
    runnable = grid[grid["reason"] == ""]
    curves = tuple(validation_curve(r.key, r.V, r.M, r.setup, fractions, k=k) for r in runnable.itertuples())
    return Figure(label="fig-xfolded_tm-validation", title=f"{k}x{k} networks, model vs simulation by set-up",
                  curves=curves, x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay",
                  y_unit="cycles")



#: Columns of :func:`validation_table`.
VALIDATION_COLUMNS = ["key", "network", "V", "M", "setup", "runnable", "reason", "err @25% [%]", "err @50% [%]",
                      "err @75% [%]", "err @90% [%]", "worst |err| below 80%", "model saturation",
                      "sim saturation", "saturation ratio", "zero-load err"]


def validation_table(runs: Sequence[CurveRun], grid: pd.DataFrame | None = None, *,
                     below: float = BELOW) -> pd.DataFrame:
    """One row per (network, V, M, set-up) of the grid: the errors and the saturation loads.

    ``err @<p>% [%]``: signed error in percent at that fraction of the
    simulated saturation (:func:`models.core.experiment.error_table`);
    ``worst |err| below 80%``: :func:`~models.core.claims.worst_error_below` (a fraction); saturation
    loads in flits/node/cycle and their ratio (model / simulation);
    ``zero-load err``: the model's zero-load delay ``M + d`` against the set-up's
    (:func:`sim_zero_load` with the BFS distance), a fraction -- the part of the
    error no load explains.  Rows of ``grid`` that the simulator cannot run
    have ``runnable = False``, the ``reason`` and NaN numbers.
    """
    table = error_table(runs)
    rows = []
    for run, (_, t) in zip(runs, table.iterrows()):
        c = run.curve
        key = curve_key(c)
        d = network(key, c.sim["k"]).average_distance()
        M = c.model["M"]
        rows.append({"key": key, "network": TOPOLOGIES[key]["label"], "V": c.model["V"], "M": M, "setup": c.setup,
                     "runnable": True, "reason": "",
                     **{col: t.get(col, math.nan) for col in VALIDATION_COLUMNS[7:11]},
                     "worst |err| below 80%": worst_error_below(run, below),
                     "model saturation": t["model saturation"], "sim saturation": t["sim saturation"],
                     "saturation ratio": t["saturation ratio"],
                     "zero-load err": (M + d) / sim_zero_load(c.setup, M, d) - 1})
    if grid is not None:
        for r in grid[grid["reason"] != ""].itertuples():
            rows.append({"key": r.key, "network": TOPOLOGIES[r.key]["label"], "V": r.V, "M": r.M, "setup": r.setup,
                         "runnable": False, "reason": r.reason})
    out = pd.DataFrame(rows, columns=VALIDATION_COLUMNS)
    order = {s: i for i, s in enumerate(SETUPS)}
    keys = {k: i for i, k in enumerate(TOPOLOGIES)}
    out = out.iloc[np.lexsort((out["setup"].map(order).to_numpy(), out["key"].map(keys).to_numpy(),
                               out["V"].to_numpy(), out["M"].to_numpy()))]
    return out.reset_index(drop=True)


def vc_saturation_table(validation: pd.DataFrame) -> pd.DataFrame:
    """Saturation at the fewest and the most VCs of ``validation`` (:func:`validation_table`), per network and M.

    One row per (network, M, source): the model (``setup`` ``"-"``; it does
    not depend on the set-up) and the simulation on each set-up.  Columns
    ``key``, ``network``, ``M``, ``source``, ``setup``, ``V low``, ``V high``,
    ``saturation (V low)``, ``saturation (V high)`` (flits/node/cycle) and
    ``ratio high/low``; NaN where a set-up cannot run the network.
    """
    v = validation
    lo, hi = int(v["V"].min()), int(v["V"].max())
    rows = []
    for (key, M), g in v.groupby(["key", "M"], sort=False):
        def at(frame, V, col):
            x = frame.loc[frame["V"] == V, col].dropna()
            return float(x.iloc[0]) if len(x) else math.nan

        base = dict(key=key, network=TOPOLOGIES[key]["label"], M=int(M), **{"V low": lo, "V high": hi})
        a, b = at(g, lo, "model saturation"), at(g, hi, "model saturation")
        rows.append({**base, "source": "model", "setup": "-", "saturation (V low)": a, "saturation (V high)": b})
        for s, gs in g.groupby("setup", sort=False):
            a, b = at(gs, lo, "sim saturation"), at(gs, hi, "sim saturation")
            rows.append({**base, "source": "simulation", "setup": s, "saturation (V low)": a, "saturation (V high)": b})
    out = pd.DataFrame(rows)
    out["ratio high/low"] = out["saturation (V high)"] / out["saturation (V low)"]
    return out


# ----------------------------------------------------------------------------
# The model curves (model only, up to each curve's saturation)
# ----------------------------------------------------------------------------
def model_curves_figure(V: int, *, k: int = 8, M: int = 32) -> Figure:
    """One panel of the model-curves figure: each network with its BFS distance, and Theorem 1 as printed.

    Loads are injection rates (flits/node/cycle); the curves have no loads of
    their own: :func:`run_figure` draws each up to its saturation.
    """
    V = require("V", V, 1, unit="virtual channels per physical channel", integer=True)
    curves = [Curve(label=t["label"], model=model_kwargs(network(key, k), V=V, M=M)) for key, t in TOPOLOGIES.items()]
    curves.append(Curve(label=THEOREM_LABEL, model=model_kwargs(network("xfolded_printed", k), V=V, M=M,
                                                               ad="theorem")))
    return Figure(label="fig-xfolded_tm-model-curves", title=f"VC = {V}", curves=tuple(curves),
                  x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay", y_unit="cycles")


def _model_delay(curve: Curve, injection: float) -> dict:
    r = solve(injection / curve.model["M"], **curve.model)
    return {"latency": r.latency, "saturated": r.saturated}


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """``V``, ``network`` and the model's ``saturation [flits/node/cycle]`` of model-curve runs."""
    return pd.DataFrame([{"V": r.curve.model["V"], "network": r.label,
                          "saturation [flits/node/cycle]": r.model_saturation} for r in runs])


# ----------------------------------------------------------------------------
# Topology claims
# ----------------------------------------------------------------------------
def distance_table(ks: Sequence[int]):
    """Per ``k``: node counts (Definition 1, Proposition 1 fit) and whole-network average distances (hops).

    Columns: exact BFS averages of mesh, torus, TM and the three x-Folded TM
    readings; ``Thm 1 printed`` and ``k/3 reading`` are ``n * AD_k`` (eq. 3) from
    Theorem 1 as printed and from its ``k/3`` reading; diameters of each topology.
    """
    t = properties_table(ks)
    t.insert(3, "node fit error", t["nodes (Prop. 1 fit)"] - t["nodes (Def. 1)"])
    t["AD Thm 1 printed"] = [2 * theorem1(int(k), "theorem") for k in t["k"]]
    t["AD k/3 reading"] = [2 * theorem1(int(k), "k/3") for k in t["k"]]
    return t


def topology_claims(ks: Sequence[int]):
    """The paper's topological claims checked for every ``k`` in ``ks`` and every reading of Definition 1.

    One row per (claim, reading): ``holds`` (for every ``k``), ``holds at k = 8``
    (the simulated case, when 8 is in ``ks``) and a short ``evidence``.
    """
    ks = [require("k", k, 3, unit="radix", integer=True) for k in ks]

    def ev(ok):
        bad = [k for k, o in zip(ks, ok) if not o]
        if not any(ok):
            return f"fails for every k in {ks[0]}..{ks[-1]}"
        return f"holds for {sum(ok)}/{len(ks)} radices" + (f"; fails for k = {', '.join(map(str, bad))}" if bad else "")

    def row(claim, reading, ok, evidence=None):
        return dict(claim=claim, reading=reading, holds=bool(all(ok)),
                    **{"holds at k = 8": bool(ok[ks.index(8)]) if 8 in ks else None},
                    evidence=evidence or ev(ok))

    rows = []
    fit = [abs(proposition1_nodes(k) - definition1_node_count(k)) for k in ks]
    rows.append(row("Prop. 1: N' = 0.8005 k^2 + 0.9786 nodes (within 1 node)", "all", [f < 1.0 for f in fit],
                    f"max |N' - count| = {max(fit):.1f} nodes (k = {ks[int(np.argmax(fit))]}); a fit to k = 3..9"))
    thm_gap = [abs(2 * theorem1(k) - xfolded_tm(k, "printed").average_distance()) for k in ks]
    rows.append(row("Thm 1: n AD_k is the average distance (within 0.05 hops)", "printed", [g < 0.05 for g in thm_gap],
                    f"Thm 1 gives n AD_k < 2 hops for every k >= 4; max gap {max(thm_gap):.2f} hops"))
    for reading in READINGS:
        nets = {k: xfolded_tm(k, reading) for k in ks}
        lemma = [all(int(c) == i + 1 for i, c in enumerate(nets[k].distance_counts(0)[1:k], start=1)) for k in ks]
        rows.append(row("Lemma 1: I(i) = i + 1 for 1 <= i <= k-1", reading, lemma))
        diam = [nets[k].diameter() < min(tm(k).diameter(), torus(k).diameter()) for k in ks]
        rows.append(row("diameter below TM and torus", reading, diam))
        ad = [nets[k].average_distance() < min(mesh(k).average_distance(), torus(k).average_distance(),
                                               tm(k).average_distance()) for k in ks]
        rows.append(row("average distance below mesh, torus and TM", reading, ad))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The chapter's claims table (read by the findings chapter)
# ----------------------------------------------------------------------------
CHAPTER = "xfolded_tm"

#: The paper's words (Moudi et al.), quoted, with where they are.
QUOTES = {
    "accuracy": '"This model is validated and deemed accurate by simulation with less than 5% difference in the '
                'average delay" (Sec. 5; the delay figure, Sec. 4, 8x8, VCs = 2 and 8)',
    "vcs": '"Figure 4 reveals the similar saturation time in different numbers of VCs" (Sec. 4)',
    "lowest": '"the average network delay for x-Folded TM topology is reduced when compared with other topologies" '
              '(abstract; Sec. 4: "the less than average delay for x-Folded TM topology in different numbers of VCs '
              'until the saturation time")',
    "prop1": '"The number of the nodes for an x-Folded TM can be written as N\' = a1 x N + a2 ... a1 = 0.8005, '
             'a2 = 0.9786" (Proposition 1, eq. 7)',
    "thm1": '"The average distance of x-Folded TM topology is AD_k = 1 if k = 3, (AD_{k-1} + k(k-1))/(k^2 - 1) if '
            'k >= 4" (Theorem 1, eq. 5)',
    "lemma1": '"let I(i) be the number of the nodes that are i nodes away from the source node (0) ... I(i) = i + 1 '
              'for 1 <= i <= k-1" (Lemma 1, eq. 4)',
    "diameter": '"x-Folded TM topology was introduced as a desirable design in k-ary n-cube networks due to the low '
                'diameter" (abstract; "a low diameter network", Sec. 1; compared with TM and the torus, as the '
                'x-Folded TM paper cited as [7] does)',
    "distance": '"... and short average distance" (abstract; compared with the mesh, torus and TM, as the x-Folded '
                'TM paper cited as [7] does)',
}

#: Networks of the accuracy claim, grouped as the rows of the claims table: the torus (every set-up runs it)
#: and the irregular networks (up*/down* routing: not on the BookSim router).
ERROR_GROUPS = {"torus": ("torus",), "tm-xfolded": ("tm", "xfolded_printed", "xfolded_completed")}

#: Topology claims of :func:`topology_claims`, by the start of their ``claim`` text: (claim id, quote key).
TOPOLOGY_CLAIM_IDS = {
    "Prop. 1": ("prop1-node-count", "prop1"),
    "Thm 1": ("thm1-average-distance", "thm1"),
    "Lemma 1": ("lemma1-distance-counts", "lemma1"),
    "diameter": ("diameter-below-tm-torus", "diameter"),
    "average distance": ("avg-distance-below-mesh-torus-tm", "distance"),
}


#: How the claims and glued sentences write an infinite worst error.
UNBOUNDED = "unbounded (the model is saturated)"


def _error_text(x: float) -> str:
    """A worst error (a fraction) as the book's unsigned percent (:func:`models.core.tables.percent`), or
    :data:`UNBOUNDED`, or ``"n/a"``."""
    return UNBOUNDED if x == math.inf else (percent(x) or "n/a")


def _furthest_from_one(values) -> float:
    v = np.asarray([x for x in values if math.isfinite(x) and x > 0], dtype=float)
    return float(v[np.argmax(np.abs(np.log(v)))]) if v.size else math.nan


def _row(claim_id, claim, kind, setup_name, *, worst=math.nan, ratio=math.nan, threshold=math.nan, holds=None,
         cause="-", note=""):
    return dict(chapter=CHAPTER, claim_id=claim_id, claim=claim, kind=kind, setup=setup_name, worst_err=worst,
                sat_ratio=ratio, threshold=threshold, holds=holds, cause=cause, note=note)


def _error_rows(validation: pd.DataFrame, threshold: float, below: float) -> list:
    rows = []
    setups = [s for s in SETUPS if s in set(validation["setup"])]
    for M in sorted(validation["M"].unique()):
        for group, keys in ERROR_GROUPS.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            if g.empty:
                continue
            claim_id = f"within-5pct-{group}-m{int(M)}"
            worst_by_setup = {}
            for s in setups:
                gs = g[(g["setup"] == s) & g["runnable"]]
                vals = gs["worst |err| below 80%"].to_numpy(float)
                vals = vals[~np.isnan(vals)]
                worst_by_setup[s] = float(vals.max()) if vals.size else math.nan
            for s in setups:
                gs = g[g["setup"] == s]
                run = gs[gs["runnable"]]
                nets = ", ".join(dict.fromkeys(TOPOLOGIES[k]["label"] for k in g["key"]))
                vcs = " and ".join(str(v) for v in sorted(g["V"].unique()))
                if run.empty:
                    reason = gs["reason"].iloc[0] if len(gs) else "not in the grid"
                    rows.append(_row(claim_id, QUOTES["accuracy"], "error", s, threshold=threshold,
                                     cause="simulator set-up",
                                     note=f"{nets}, M = {int(M)} flits: not simulated on '{s}' ({reason})."))
                    continue
                worst = worst_by_setup[s]
                ratios = run["saturation ratio"].to_numpy(float)
                ratio = _furthest_from_one(ratios)
                if math.isnan(worst) or worst <= threshold:
                    cause = "-"
                elif s != "model" and worst_by_setup.get("model", math.nan) <= threshold:
                    cause = "simulator set-up"
                else:
                    cause = "model"
                w = run["worst |err| below 80%"].to_numpy(float)
                where = ""
                if not np.all(np.isnan(w)):
                    at = run.iloc[int(np.nanargmax(w))]
                    where = f" on {at['network']}, V = {int(at['V'])}"
                rwhere = ""
                pos = np.where(np.isfinite(ratios) & (ratios > 0), np.abs(np.log(np.where(ratios > 0, ratios, 1.0))),
                               -1.0)
                if (pos >= 0).any():
                    at = run.iloc[int(np.argmax(pos))]
                    rwhere = f" ({at['network']}, V = {int(at['V'])})"
                rows.append(_row(
                    claim_id, QUOTES["accuracy"], "error", s, worst=worst, ratio=ratio, threshold=threshold,
                    cause=cause,
                    note=(f"Validation grid, {nets}, VC = {vcs}, M = {int(M)} flits, set-up '{s}': worst "
                          f"|error| {_error_text(worst)} below {below:.0%} of the simulated saturation{where}; "
                          f"model/simulated saturation {ratio:.2f}{rwhere}.")))
    return rows


def _vc_rows(vc: pd.DataFrame, tolerance: float) -> list:
    rows = []
    setups = [s for s in SETUPS if s in set(vc["setup"])]
    for M in sorted(vc["M"].unique()):
        g = vc[vc["M"] == M]
        claim_id = f"similar-saturation-vcs-m{int(M)}"
        lo, hi = int(g["V low"].iloc[0]), int(g["V high"].iloc[0])
        holds_by = {}
        for s in ["-"] + setups:
            ok = g[(g["setup"] == s) & np.isfinite(g["ratio high/low"])]
            holds_by[s] = bool((np.abs(ok["ratio high/low"] - 1) <= tolerance).all()) if len(ok) else None
        sim_shows_it = any(holds_by[s] for s in setups)
        for s in ["-"] + setups:
            gs = g[g["setup"] == s]
            ok = gs[np.isfinite(gs["ratio high/low"])]
            who = "model" if s == "-" else f"simulation on '{s}'"
            if ok.empty:
                rows.append(_row(claim_id, QUOTES["vcs"], "fact", s, threshold=tolerance, holds=None,
                                 cause="simulator set-up",
                                 note=f"M = {int(M)} flits: no network simulated on '{s}' at both VC counts."))
                continue
            holds = holds_by[s]
            detail = "; ".join(f"{r['network']} {r['saturation (V low)']:.2f} -> {r['saturation (V high)']:.2f} "
                               f"({r['ratio high/low']:.2f}x)" for _, r in ok.iterrows())
            # the model failing a claim that no simulated network meets either is not the model's fault
            cause = "-" if holds else ("model" if s == "-" and sim_shows_it else "paper text")
            rows.append(_row(
                claim_id, QUOTES["vcs"], "fact", s, threshold=tolerance, holds=holds, cause=cause,
                note=(f"Saturation injection rate (flits/node/cycle) at V = {lo} -> V = {hi}, {who}, M = {int(M)} "
                      f"flits: {detail}; 'similar' read as within {tolerance:.0%} (the paper gives no tolerance).")))
    return rows


def _ranking_rows(ranking: pd.DataFrame, setups: Sequence[str]) -> list:
    rows = []
    for reading in READINGS:
        if reading not in set(ranking.get("reading", ())):
            continue
        claim_id = f"lowest-delay-{reading}"
        for s in ["-"] + list(setups):
            src = "model" if s == "-" else "sim"
            g = ranking[(ranking["reading"] == reading) & (ranking["setup"] == s) &
                        (ranking["source"].astype(str).str.startswith("model") if src == "model"
                         else ranking["source"] == "sim")]
            who = "the model (BFS distances)" if s == "-" else f"the simulation on '{s}'"
            if g.empty:
                rows.append(_row(claim_id, QUOTES["lowest"], "fact", s, holds=None, cause="simulator set-up",
                                 note=f"x-Folded TM ({reading} reading) vs TM and torus: TM and x-Folded TM "
                                      f"cannot run on '{s}' (dimension-order routing only)."))
                continue
            holds = bool(g["claim holds"].all())
            detail = ", ".join(f"V = {int(r['V'])}: lower at {int(r['lower than TM and torus'])}/"
                               f"{int(r['rates compared'])} rates" for _, r in g.iterrows())
            rows.append(_row(claim_id, QUOTES["lowest"], "fact", s, holds=holds, cause="-" if holds else "paper text",
                             note=(f"Delay figure, x-Folded TM ({reading} reading of Definition 1) below TM and "
                                   f"torus in {who}: {detail}.")))
    return rows


def _topology_claim_id(claim: str, reading: str) -> tuple:
    """``(claim id, quote key)`` of a row of :func:`topology_claims`."""
    for start, (cid, quote) in TOPOLOGY_CLAIM_IDS.items():
        if claim.startswith(start):
            return (cid if reading == "all" or cid.startswith("thm1") else f"{cid}-{reading}"), quote
    raise ParameterError(f"no claim id for topology claim {claim!r}")


def _topology_rows(topology: pd.DataFrame, ks: str) -> list:
    rows = []
    readings = {t["reading"] for t in TOPOLOGIES.values() if t["kind"] == "xfolded"} | {"all"}
    for r in topology[topology["reading"].isin(readings)].itertuples():
        claim_id, quote = _topology_claim_id(r.claim, r.reading)
        holds = bool(r.holds)
        rows.append(_row(claim_id, QUOTES[quote], "fact", "-", holds=holds, cause="-" if holds else "paper text",
                         note=f"Topology page, {r.claim}, reading '{r.reading}', k = {ks}: {r.evidence}."))
    return rows


def claims_table(validation: pd.DataFrame, vc: pd.DataFrame | None = None, ranking: pd.DataFrame | None = None,
                 topology: pd.DataFrame | None = None, *, threshold: float = 0.05, vc_tolerance: float = 0.10,
                 below: float = BELOW, ks: str = "") -> pd.DataFrame:
    """The chapter's claims table: one row per (claim, set-up), the columns :data:`~models.core.claims.CLAIM_COLUMNS`.

    Built only from the chapter's tables:

    * ``validation`` (:func:`validation_table`): the paper's "less than 5 %
      difference" (kind ``error``, ``threshold``), per message length and
      network group (:data:`ERROR_GROUPS`) and set-up; ``worst_err`` is the
      worst :func:`~models.core.claims.worst_error_below` (below ``below`` x the simulated saturation)
      over the group's networks and VC counts, ``sat_ratio`` the model /
      simulated saturation ratio furthest from 1.  A set-up that cannot run
      the group has NaN numbers and cause ``"simulator set-up"``.  Cause of a
      failed row: ``"simulator set-up"`` when the same claim holds on the
      ``"model"`` set-up, else ``"model"``.
    * ``vc`` (:func:`vc_saturation_table`): "similar saturation in different
      numbers of VCs" (kind ``fact``), per M, for the model (set-up ``"-"``)
      and each set-up's simulation; ``holds`` when the saturation ratio of the
      most to the fewest VCs is within ``1 +- vc_tolerance`` on every network
      (our reading of "similar"; the paper gives no tolerance).
    * ``ranking`` (:func:`ranking_table`, model and simulation rows): x-Folded
      TM has the lowest delay, per reading of Definition 1.
    * ``topology`` (:func:`topology_claims`): Proposition 1, Theorem 1,
      Lemma 1, diameter and average distance (kind ``fact``, set-up ``"-"``)
      for the readings of Definition 1 in :data:`TOPOLOGIES`; ``ks`` names
      the radices checked.

    The verdict is not here: the findings chapter computes it from these numbers.  The notebook writes
    the table with :func:`models.core.claims.save_claims`.
    """
    threshold = require("threshold", threshold, 0, lo_open=True, unit="relative error")
    vc_tolerance = require("vc_tolerance", vc_tolerance, 0, lo_open=True, unit="relative difference")
    rows = _error_rows(validation, threshold, below)
    if vc is not None and not vc.empty:
        rows += _vc_rows(vc, vc_tolerance)
    if ranking is not None and not ranking.empty:
        setups = [s for s in SETUPS if s in set(validation["setup"])]
        rows += _ranking_rows(ranking, setups)
    if topology is not None and not topology.empty:
        rows += _topology_rows(topology, ks)
    out = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    out["holds"] = out["holds"].astype(object)
    dup = out.duplicated(["claim_id", "setup"])
    if dup.any():
        raise ParameterError(f"claims table: repeated (claim_id, setup): {out.loc[dup, ['claim_id', 'setup']].values}")
    return out


# ----------------------------------------------------------------------------
# The numbers the pages quote (glued)
# ----------------------------------------------------------------------------
def _ratio_text(row) -> str:
    return (f"{row['saturation (V low)']:.2f} → {row['saturation (V high)']:.2f} flits/node/cycle "
            f"({row['ratio high/low']:.2f}x)")


def glue_values(claims: pd.DataFrame, validation: pd.DataFrame, vc: pd.DataFrame,
                topology: pd.DataFrame | None = None) -> dict:
    """The strings the chapter glues into its findings (key -> text), all computed from the chapter's tables.

    Keys (each prefixed ``xfolded_tm-``): ``worst-<group>-m<M>-<setup>`` and
    ``satratio-<group>-m<M>-<setup>`` (the accuracy rows of ``claims``),
    ``zeroload-<setup>-m<M>`` (the model's zero-load error against the set-up,
    on the torus), ``vcsat-<source>-<network>-m<M>`` (saturation at the fewest
    and most VCs; source ``model`` or ``sim-<setup>``), ``vc-sentence-m<M>`` (what the numbers say about the
    paper's "similar saturation in different numbers of VCs"),
    ``lowest-<reading>-<setup>`` (holds / does not hold / cannot be checked;
    ``model-curves`` for the model), ``topo-<claim id>`` (the topology claims:
    holds / does not hold), ``topo8-<claim id>`` (the same at ``k = 8``, from
    ``topology``, :func:`topology_claims`),
    ``within5-sentence`` (the best and the worst case of the accuracy claim).
    """
    out = {}
    acc = claims[claims["kind"] == "error"]
    for _, r in acc.iterrows():
        tail = r["claim_id"].replace("within-5pct-", "")
        runnable = r["cause"] != "simulator set-up" or math.isfinite(r["sat_ratio"])
        out[f"xfolded_tm-worst-{tail}-{r['setup']}"] = _error_text(r["worst_err"]) if runnable else "not runnable"
        out[f"xfolded_tm-satratio-{tail}-{r['setup']}"] = (f"{r['sat_ratio']:.2f}" if math.isfinite(r["sat_ratio"])
                                                           else "not runnable")
    tor = validation[(validation["key"] == "torus") & validation["runnable"]]
    for (s, M), g in tor.groupby(["setup", "M"], sort=False):
        z = float(g["zero-load err"].iloc[0])
        out[f"xfolded_tm-zeroload-{s}-m{int(M)}"] = f"{100 * z:+.0f} %"
    for _, r in vc[np.isfinite(vc["ratio high/low"])].iterrows():
        src = "model" if r["setup"] == "-" else f"sim-{r['setup']}"
        out[f"xfolded_tm-vcsat-{src}-{r['key']}-m{int(r['M'])}"] = _ratio_text(r)
    for M, g in vc.groupby("M", sort=False):
        g = g[np.isfinite(g["ratio high/low"])]
        mod = g[g["setup"] == "-"]
        sim = g[g["setup"] != "-"]
        rows = claims[claims["claim_id"] == f"similar-saturation-vcs-m{int(M)}"]
        model_holds = bool(rows.loc[rows["setup"] == "-", "holds"].iloc[0]) if (rows["setup"] == "-").any() else None
        sim_holds = [s for s, h in zip(rows["setup"], rows["holds"]) if s != "-" and h is True]
        t = mod[mod["key"] == "torus"]
        model_txt = (f"the model goes from {_ratio_text(t.iloc[0])} on the torus" if len(t) else "the model")
        span = (f"{sim['ratio high/low'].min():.2f}x to {sim['ratio high/low'].max():.2f}x"
                if len(sim) else "not simulated")
        lo, hi = int(g["V low"].iloc[0]), int(g["V high"].iloc[0])
        if model_holds is False and not sim_holds:
            text = (f"At M = {int(M)} flits, from {lo} to {hi} VCs {model_txt} (every network "
                    f"{mod['ratio high/low'].min():.2f}x to {mod['ratio high/low'].max():.2f}x), and the simulated "
                    f"saturation grows {span} on every set-up: the model does not reproduce the paper's \"similar "
                    f"saturation in different numbers of VCs\", and no simulated network shows it either")
        elif model_holds is False:
            text = (f"At M = {int(M)} flits, from {lo} to {hi} VCs {model_txt}: the model does not reproduce the "
                    f"paper's \"similar saturation in different numbers of VCs\", which the simulation on "
                    f"{', '.join(repr(s) for s in sim_holds)} shows")
        else:
            text = (f"At M = {int(M)} flits, from {lo} to {hi} VCs {model_txt}: the model shows the paper's "
                    f"\"similar saturation in different numbers of VCs\"; the simulations grow {span}")
        out[f"xfolded_tm-vc-sentence-m{int(M)}"] = text
    for _, r in claims[claims["claim_id"].str.startswith("lowest-delay-")].iterrows():
        reading = r["claim_id"].replace("lowest-delay-", "")
        h = r["holds"]
        out[f"xfolded_tm-lowest-{reading}-{r['setup'] if r['setup'] != '-' else 'model-curves'}"] = (
            "cannot be checked" if h is None or (isinstance(h, float) and math.isnan(h))
            else ("holds" if h else "does not hold"))
    for _, r in claims[(claims["kind"] == "fact") & (claims["setup"] == "-")].iterrows():
        if not r["claim_id"].startswith(("lowest-delay-", "similar-saturation-")):
            out[f"xfolded_tm-topo-{r['claim_id']}"] = "holds" if r["holds"] else "does not hold"
    if topology is not None and "holds at k = 8" in topology:
        for _, r in topology.iterrows():
            if r["holds at k = 8"] is not None:
                cid, _ = _topology_claim_id(r["claim"], r["reading"])
                out[f"xfolded_tm-topo8-{cid}"] = "holds" if r["holds at k = 8"] else "does not hold"
    ok = acc[np.isfinite(acc["worst_err"].astype(float)) | np.isinf(acc["worst_err"].astype(float))]
    if len(ok):
        best = ok.loc[ok["worst_err"].astype(float).idxmin()]
        n_hold = int((ok["worst_err"].astype(float) <= ok["threshold"].astype(float)).sum())
        out["xfolded_tm-within5-sentence"] = (
            f"{n_hold} of {len(ok)} (network group, M, set-up) cases are within the paper's "
            f"{ok['threshold'].iloc[0]:.0%} below {BELOW:.0%} of the simulated saturation; the closest is "
            f"{_error_text(float(best['worst_err']))} ({best['claim_id'].replace('within-5pct-', '')}, set-up "
            f"'{best['setup']}')")
    return out


def glue_values_errors(points: pd.DataFrame) -> dict:
    """The delay figure's errors at its lightest load, glued on the delay page (key -> value).

    ``points`` is the first table of :func:`error_tables`.  Keys:
    ``xfolded_tm-low-rate`` (the lowest injection rate with a comparable
    point, flits/node/cycle, a float) and ``xfolded_tm-low-err-<set-up>``
    (the range of the signed relative errors there over the networks and VC
    counts: ``"+1.2 % to +3.4 %"``).
    """
    low_rate = points["injection"].min()
    low = points[points["injection"] == low_rate]
    out = {"xfolded_tm-low-rate": float(low_rate)}
    for s, g in low.groupby("setup"):
        out[f"xfolded_tm-low-err-{s}"] = (f"{100 * g['rel. error'].min():+.1f} % to "
                                          f"{100 * g['rel. error'].max():+.1f} %")
    return out


def glue_values_topology(distances: pd.DataFrame) -> dict:
    """The topology page's numbers (key -> value).

    ``xfolded_tm-fit-error-16``: the node-count error of Proposition 1's fit
    at ``k = 16`` (nodes, unsigned; NaN when ``distances``,
    :func:`distance_table`, has no ``k = 16``); ``xfolded_tm-ad-<network>-8``
    the whole-network BFS average distances (hops) of the 8x8 mesh, torus,
    TM and both readings of the x-Folded TM, and ``xfolded_tm-ad-torus-7`` of
    the 7x7 torus; ``xfolded_tm-diam-completed-8`` the diameter and
    ``xfolded_tm-nodes-8`` the node count of the 8x8 x-Folded TM.
    """
    fit = distances.loc[distances["k"] == 16, "node fit error"]
    return {
        "xfolded_tm-fit-error-16": float(abs(fit.iloc[0])) if len(fit) else float("nan"),
        "xfolded_tm-ad-mesh-8": mesh(8).average_distance(),
        "xfolded_tm-ad-torus-8": torus(8).average_distance(),
        "xfolded_tm-ad-torus-7": torus(7).average_distance(),
        "xfolded_tm-ad-tm-8": tm(8).average_distance(),
        "xfolded_tm-ad-printed-8": xfolded_tm(8, "printed").average_distance(),
        "xfolded_tm-ad-completed-8": xfolded_tm(8, "completed").average_distance(),
        "xfolded_tm-diam-completed-8": xfolded_tm(8, "completed").diameter(),
        "xfolded_tm-nodes-8": xfolded_tm(8, "printed").n_nodes,
    }
