"""The paper's experiments: the figures as data, the simulator set-ups and translation, the runs and the tables.

The paper's delay figure compares an 8x8 torus, TM and x-Folded TM under
uniform traffic with 2 and 8 virtual channels per physical channel, average
delay (cycles) against injection rate (flits/node/cycle).  Here it is one
:class:`~models.core.setups.Figure` per VC count (:func:`delay_figure`,
:data:`FIGURES`), one :class:`~models.core.setups.Curve` per network
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
:class:`~models.core.setups.SimSettings` (:data:`SETTINGS`, the full
profile).  ``python -m models.xfolded_tm curve --simulate`` uses the same
two functions.

The validation grid (:func:`validation_figure`, :func:`validation_table`)
runs every network, VC count, message length ``M`` (the paper does not state
it) and set-up at fractions of the *simulated* saturation load, so the error
below :data:`~models.core.setups.BELOW` (80 %) of the simulated saturation
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

Simulator set-ups (:data:`SETUPS`, :class:`models.core.setups.SimulatorSetup`;
DESIGN.md "Simulator set-ups are named"):

* ``"ours"`` -- the chapter's first set-up: the ideal router (one
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

from ..core.claims import CLAIM_COLUMNS, Claim, claims_frame, worst_error_below
from ..core.setups import BELOW, SimSettings, SimulatorSetup, named_setup
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.setups import Curve, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.tables import UNBOUNDED_WORD, percent
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
        "ours", "our ideal router, the chapter's first set-up: 2-flit buffers per VC, 1 cycle per router, V injection VCs, "
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

    ``settings`` (:class:`~models.core.setups.SimSettings`) gives the run
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
                      "sim saturation", "saturation ratio", "zero-load err", "sim saturation lo",
                      "sim saturation hi"]


def validation_table(runs: Sequence[CurveRun], grid: pd.DataFrame | None = None, *,
                     below: float = BELOW) -> pd.DataFrame:
    """One row per (network, V, M, set-up) of the grid: the errors and the saturation loads.

    ``err @<p>% [%]``: signed error in percent at that fraction of the
    simulated saturation (:func:`models.core.experiment.error_table`);
    ``worst |err| below 80%``: :func:`~models.core.claims.worst_error_below` (a fraction); saturation
    loads in flits/node/cycle and their ratio (model / simulation), with the
    simulated saturation's final bisection bracket (``sim saturation lo``,
    ``sim saturation hi``);
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
                     "zero-load err": (M + d) / sim_zero_load(c.setup, M, d) - 1,
                     "sim saturation lo": getattr(run.brackets.get("sim"), "lo", math.nan),
                     "sim saturation hi": getattr(run.brackets.get("sim"), "hi", math.nan)})
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


#: Key and source of the model rows of :func:`vc_saturation_table` with the average distance of Theorem 1 as
#: printed (the paper's own input to its model).
THEOREM_KEY, THEOREM_SOURCE = "xfolded_thm1", "model (Thm 1 as printed)"


def vc_saturation_table(validation: pd.DataFrame, *, theorem: bool = True, k: int = 8) -> pd.DataFrame:
    """Saturation at the fewest and the most VCs of ``validation`` (:func:`validation_table`), per network and M.

    One row per (network, M, source): the model (``setup`` ``"-"``; it does
    not depend on the set-up) and the simulation on each set-up; with
    ``theorem``, also the model of x-Folded TM with the average distance of
    Theorem 1 as printed (key :data:`THEOREM_KEY`, source
    :data:`THEOREM_SOURCE`: the paper's own model input, on the ``k x k``
    network).  Columns ``key``, ``network``, ``M``, ``source``, ``setup``,
    ``V low``, ``V high``, ``saturation (V low)``, ``saturation (V high)``
    (flits/node/cycle) and ``ratio high/low``; NaN where a set-up cannot run
    the network.
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
    if theorem:
        net = network("xfolded_printed", k)
        for M in dict.fromkeys(int(m) for m in v["M"]):
            a, b = (saturation_load(**model_kwargs(net, V=V, M=M, ad="theorem")) * M for V in (lo, hi))
            rows.append(dict(key=THEOREM_KEY, network=THEOREM_LABEL, M=M, **{"V low": lo, "V high": hi},
                             source=THEOREM_SOURCE, setup="-", **{"saturation (V low)": a, "saturation (V high)": b}))
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
# Topology: distances and the paper's topological statements, checked literally
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


#: The readings of Definition 1 the claims are checked on, by key, with how the claims table names them.
READING_LABELS = {"printed": "Definition 1 as printed", "completed": "completed reading"}

#: The paper's network size (Table 1: 8 x 8); the claims' other radices are cases beyond it (a caveat only).
PAPER_K = 8

#: The radices through which Proposition 1's least-squares line reproduces the printed coefficients.
PROP1_FIT_KS = tuple(range(3, 10))

#: The columns of :func:`topology_checks`.
TOPOLOGY_CHECK_COLUMNS = ("check", "reading", "k", "holds", "value", "reference", "evidence")


def proposition1_fit(ks: Sequence[int] = PROP1_FIT_KS) -> tuple:
    """``(a1, a2)``: the least-squares line ``count = a1 k^2 + a2`` through Definition 1's node counts at ``ks``."""
    ks = np.asarray([require("k", k, 3, unit="radix", integer=True) for k in ks], dtype=float)
    a1, a2 = np.polyfit(ks**2, [definition1_node_count(int(k)) for k in ks], 1)
    return float(a1), float(a2)


def topology_checks(ks: Sequence[int], readings: Sequence[str] = tuple(READING_LABELS)) -> pd.DataFrame:
    """The paper's topological statements, literally, for every ``k`` of ``ks`` and reading of Definition 1.

    One row per (check, reading, k), the columns :data:`TOPOLOGY_CHECK_COLUMNS`
    (``value`` and ``reference`` the numbers compared, ``evidence`` in
    words).  Checks, none against a tolerance of the book's:

    * ``prop1`` (reading ``all``: Definition 1's nodes do not depend on the
      links): Proposition 1's ``N'`` read as a node count, i.e. its nearest
      integer, equals Definition 1's count;
    * ``thm1``: ``n AD_k`` of Theorem 1 as printed (eq. 3) equals the
      network's BFS average distance (up to floating-point rounding);
    * ``lemma1``: ``I(i) = i + 1`` nodes at distance ``i`` from node (0) for
      ``1 <= i <= k-1``;
    * ``diameter``: the diameter is below TM's and the torus's;
    * ``distance``: the average distance is below the mesh's, the torus's
      and TM's (strictly: a tie is not shorter).
    """
    ks = [require("k", k, 3, unit="radix", integer=True) for k in ks]
    rows = []

    def add(check, reading, k, holds, value, reference, evidence):
        rows.append(dict(zip(TOPOLOGY_CHECK_COLUMNS, (check, reading, int(k), bool(holds), float(value),
                                                      float(reference), evidence))))

    for k in ks:
        n_prop, n_def = proposition1_nodes(k), definition1_node_count(k)
        add("prop1", "all", k, round(n_prop) == n_def, n_prop, n_def,
            f"N' = {n_prop:.2f}, Definition 1 keeps {n_def} nodes")
        others = {"mesh": mesh(k), "torus": torus(k), "TM": tm(k)}
        for reading in readings:
            net = xfolded_tm(k, reading)
            thm, bfs = 2 * theorem1(k, "theorem"), net.average_distance()
            add("thm1", reading, k, math.isclose(thm, bfs, rel_tol=1e-9), thm, bfs,
                f"n AD_k = {thm:.2f} hops, BFS average distance {bfs:.2f} hops")
            counts = [int(c) for c in net.distance_counts(net.node_id(0, 0))[1:k]]
            counts += [0] * (k - 1 - len(counts))
            bad = [i for i, c in enumerate(counts, start=1) if c != i + 1]
            add("lemma1", reading, k, not bad, bad[0] if bad else math.nan, math.nan,
                "I(i) = i + 1 for every i" if not bad else
                f"I({bad[0]}) = {counts[bad[0] - 1]}, not {bad[0] + 1}")
            d, dref = net.diameter(), min(others["TM"].diameter(), others["torus"].diameter())
            add("diameter", reading, k, d < dref, d, dref, f"diameter {d} against {dref} (TM and torus)")
            a = net.average_distance()
            best = min(others, key=lambda name: others[name].average_distance())
            aref = others[best].average_distance()
            tie = " (a tie: not shorter)" if math.isclose(a, aref, rel_tol=1e-12) else ""
            add("distance", reading, k, a < aref and not tie, a, aref,
                f"average distance {a:.3f} hops against {aref:.3f} ({best}){tie}")
    return pd.DataFrame(rows, columns=list(TOPOLOGY_CHECK_COLUMNS))


#: How :func:`topology_claims` names each check of :func:`topology_checks`.
TOPOLOGY_CHECKS = {
    "prop1": "Prop. 1: N' = 0.8005 k^2 + 0.9786 rounds to Definition 1's node count",
    "thm1": "Thm 1: n AD_k equals the BFS average distance",
    "lemma1": "Lemma 1: I(i) = i + 1 for 1 <= i <= k-1",
    "diameter": "diameter below TM and torus",
    "distance": "average distance below mesh, torus and TM",
}


def topology_claims(ks: Sequence[int], readings: Sequence[str] = READINGS):
    """The paper's topological statements per reading of Definition 1, summarised over ``ks``.

    One row per (claim, reading): ``holds`` (for every ``k``), ``holds at k = 8``
    (the paper's size, when 8 is in ``ks``) and a short ``evidence``
    (:func:`topology_checks` per ``k``).
    """
    t = topology_checks(ks, readings)
    ks = list(dict.fromkeys(t["k"]))
    rows = []
    for (check, reading), g in t.groupby(["check", "reading"], sort=False):
        ok = list(g["holds"])
        bad = [int(k) for k, o in zip(g["k"], ok) if not o]
        if not any(ok):
            ev = f"fails for every k in {ks[0]}..{ks[-1]}"
        else:
            ev = f"holds for {sum(ok)}/{len(ok)} radices" + (f"; fails for k = {_k_ranges(bad)}" if bad else "")
        at8 = g[g["k"] == PAPER_K]
        rows.append({"claim": TOPOLOGY_CHECKS[check], "reading": reading, "holds": bool(all(ok)),
                     f"holds at k = {PAPER_K}": bool(at8["holds"].iloc[0]) if len(at8) else None,
                     "evidence": ev + (f"; at k = {PAPER_K}: {at8['evidence'].iloc[0]}" if len(at8) else "")})
    return pd.DataFrame(rows)


def _k_ranges(ks) -> str:
    """``[3, 4, 5, 7, 9, 10]`` -> ``"3..5, 7, 9..10"``."""
    ks = sorted(int(k) for k in ks)
    out, i = [], 0
    while i < len(ks):
        j = i
        while j + 1 < len(ks) and ks[j + 1] == ks[j] + 1:
            j += 1
        out.append(str(ks[i]) if i == j else f"{ks[i]}..{ks[j]}")
        i = j + 1
    return ", ".join(out)


# ----------------------------------------------------------------------------
# The paper's model with its own Theorem 1 (the delay claim of the abstract)
# ----------------------------------------------------------------------------
def paper_model_ranking(frame: pd.DataFrame) -> pd.DataFrame:
    """Does the paper's model show x-Folded TM below TM and the torus?  Per ``V``, at the delay figure's rates.

    ``frame`` is :func:`delay_frame`.  x-Folded TM with the average distance
    of Theorem 1 as printed (the paper's own input; column ``model (Thm 1
    printed)``) against TM and the torus with their BFS distances (column
    ``model``); a saturated model counts as infinite delay.  Rows in the
    columns of :func:`ranking_table` (``setup`` ``"-"``, ``reading``
    ``"thm1"``, ``source`` ``"model (Thm 1 printed)"``).
    """
    rows = []
    f = frame.drop_duplicates(["V", "key", "injection"])
    for V, g in f.groupby("V", sort=False):
        x = g[g["key"] == "xfolded_printed"].set_index("injection")["model (Thm 1 printed)"]
        others = [g[g["key"] == key].set_index("injection")["model"] for key in ("tm", "torus")]
        if x.empty or any(o.empty for o in others):
            continue
        sub = pd.concat([x] + others, axis=1, keys=["x", "tm", "torus"]).replace(np.nan, np.inf)
        sub = sub[np.isfinite(sub).any(axis=1)]
        lower = (sub["x"] < sub["tm"]) & (sub["x"] < sub["torus"])
        rows.append({"V": V, "setup": "-", "reading": "thm1", "source": "model (Thm 1 printed)",
                     "rates compared": int(len(sub)), "lower than TM and torus": int(lower.sum()),
                     "claim holds": bool(lower.all())})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------
# The chapter's claims table (read by the findings chapter)
# ----------------------------------------------------------------------------
CHAPTER = "xfolded_tm"

#: The paper's claims (Moudi et al.), one per sentence, quoted whole, in the order of the claims table.
#: ``[... f]`` stands for a formula ``f`` the sentence prints (written out in plain text).
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("within-5pct", "Sec. 5",
          "This model is validated and deemed accurate by simulation with less than 5% difference in the average "
          "delay.", "error", threshold=0.05, threshold_quote="less than 5% difference in the average delay"),
    Claim("similar-saturation", "Sec. 4",
          "Figure 4 reveals the similar saturation time in different numbers of VCs and the effectiveness of "
          "x-Folded TM topology on decreasing the average delay compared with the results obtained by Torus and TM "
          "under uniform traffic pattern.", "saturation", yardstick=0.10),
    Claim("lowest-delay", "Abstract",
          "The mathematical results indicate that the average network delay for x-Folded TM topology is reduced "
          "when compared with other topologies in the presence of uniform traffic pattern.", "fact"),
    Claim("prop1", "Sec. 3, Proposition 1",
          "The number of the nodes for an x-Folded TM can be written as, [... N' = a_1 × N + a_2. (7)] It is "
          "computed according to a linear model, which has been presented in Eq. (7) where the initial values are "
          "a_1 = 0.8005, a_2 = 0.9786, and n=2.", "fact"),
    Claim("thm1", "Sec. 3, Theorem 1",
          "The average distance of x-Folded TM topology is [... AD_k = 1 if k = 3, (AD_{k-1} + k(k-1))/(k^2 - 1) "
          "if k >= 4. (5)]", "fact"),
    Claim("lemma1", "Sec. 3, Lemma 1",
          "For an x-Folded TM, let I(i) be the number of the nodes that are i nodes away from the source node (0), "
          "which can be calculated by using Eq.(4), [... I(i) = i + 1 for all 1 <= i <= (k - 1). (4)]", "fact"),
    Claim("low-diameter-short-distance", "Abstract",
          "Recently, x-Folded TM topology was introduced as a desirable design in k-ary n-cube networks due to the "
          "low diameter and short average distance.", "fact"),
    Claim("outperform-similar-size", "Sec. 1",
          "x-Folded TM [7] is introduced as a low diameter network which can outperform a similar network size in "
          "terms of throughput and delay.", "fact"),
)}

#: Networks of the accuracy claim, grouped as the cases of its rows: the torus (every set-up runs it) and the
#: irregular networks (up*/down* routing: not on the BookSim router).
ERROR_GROUPS = {"torus": ("torus",), "tm-xfolded": ("tm", "xfolded_printed", "xfolded_completed")}
#: How the claims table names the groups.
GROUP_LABELS = {"torus": "torus", "tm-xfolded": "TM and x-Folded TM"}

#: How the claims and glued sentences write an infinite worst error.
UNBOUNDED = UNBOUNDED_WORD


def _error_text(x: float) -> str:
    """A worst error (a fraction) as the book's unsigned percent (:func:`models.core.tables.percent`), or
    :data:`UNBOUNDED`, or ``"n/a"``."""
    return UNBOUNDED if x == math.inf else (percent(x) or "n/a")


def _furthest_from_one(values) -> float:
    v = np.asarray([x for x in values if math.isfinite(x) and x > 0], dtype=float)
    return float(v[np.argmax(np.abs(np.log(v)))]) if v.size else math.nan


def _worst(values) -> float:
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    return float(v.max()) if v.size else math.nan


def _setups_in(frame: pd.DataFrame) -> list:
    return [s for s in SETUPS if s in set(frame["setup"])]


def _accuracy_rows(validation: pd.DataFrame, below: float) -> list:
    claim = CLAIMS["within-5pct"]
    t = claim.threshold
    rows, closest = [], []
    for M in sorted(int(m) for m in validation["M"].unique()):
        for group, keys in ERROR_GROUPS.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            for s in _setups_in(g):
                run = g[(g["setup"] == s) & g["runnable"]]
                case = f"{GROUP_LABELS[group]}, M = {M}"
                if run.empty:
                    rows.append(claim.row(CHAPTER, s, case=case))
                    continue
                worst = _worst(run["worst |err| below 80%"])
                ratio = _furthest_from_one(run["saturation ratio"])
                fails = math.isnan(worst) or worst > t
                cause = "-" if not SETUPS[s].decides or not fails or math.isnan(worst) else "model"
                if SETUPS[s].decides and math.isfinite(worst):
                    closest.append((worst, f"{case}, '{s}'"))
                rows.append(claim.row(CHAPTER, s, case=case, worst_err=worst, sat_ratio=ratio, cause=cause))
    tor = validation[(validation["key"] == "torus") & validation["runnable"] & (validation["setup"] == "booksim")]
    zero = ""
    if len(tor):
        z = tor["zero-load err"].to_numpy(dtype=float)
        zero = (f" The model has no router delay: on 'booksim' (BookSim 2's 5-cycle router, the paper's simulator) its "
                f"zero-load delay alone is {100 * z.min():+.0f}% to {100 * z.max():+.0f}% off (M = "
                f"{', '.join(str(int(m)) for m in sorted(tor['M'].unique()))}); 'booksim' runs the torus only "
                f"(up*/down* needs wait_for_tail_credit=1).")
    best = f" Closest case: {_error_text(min(closest)[0])} ({min(closest)[1]})." if closest else ""
    note = (f"Worst |error| below {below:.0%} of the simulated saturation over V = 2 and 8 per network group, M and "
            f"set-up (tab-xfolded_tm-validation.csv); the paper does not state M.{zero} 'model' is like for like; "
            f"'ours' (one ejection channel) stands for neither and never decides.{best}")
    for r in rows:
        r["note"] = note
    return rows


def _vc_rows(vc: pd.DataFrame) -> list:
    claim = CLAIMS["similar-saturation"]
    y = claim.yardstick
    rows = []
    model = vc[(vc["setup"] == "-") & (vc["source"] == "model")]
    thm = vc[vc["source"] == THEOREM_SOURCE]
    sims = vc[(vc["source"] == "simulation") & np.isfinite(vc["ratio high/low"].to_numpy(dtype=float))]
    for M in sorted(int(m) for m in vc["M"].unique()):
        m = model[model["M"] == M]
        if len(m):
            r = _furthest_from_one(m["ratio high/low"])
            rows.append(claim.row(CHAPTER, "-", case=f"M = {M}, every network, BFS distances", sat_ratio=r,
                                  cause="model" if abs(r - 1) > y else "-"))
        th = thm[thm["M"] == M]
        if len(th):
            r = float(th["ratio high/low"].iloc[0])
            rows.append(claim.row(CHAPTER, "-", case=f"M = {M}, x-Folded TM with Thm 1 as printed", sat_ratio=r,
                                  cause="model" if abs(r - 1) > y else "-"))
    for s in _setups_in(sims):
        for M in sorted(int(m) for m in sims["M"].unique()):
            g = sims[(sims["setup"] == s) & (sims["M"] == M)]
            if len(g):
                rows.append(claim.row(CHAPTER, s, case=f"M = {M}", sat_ratio=_furthest_from_one(g["ratio high/low"])))

    def span(frame):
        r = frame["ratio high/low"].to_numpy(dtype=float)
        r = r[np.isfinite(r)]
        return f"{r.min():.2f}x to {r.max():.2f}x" if r.size else "n/a"

    lo, hi = int(vc["V low"].iloc[0]), int(vc["V high"].iloc[0])
    note = (f"sat_ratio here is the saturation injection rate at V = {hi} over V = {lo} (not model over simulation), "
            f"the network furthest from 1 per row (tab-xfolded_tm-vc-saturation.csv): the model's saturation grows "
            f"{span(model)} on every network and M with BFS distances, {span(thm)} with the paper's Theorem 1 as "
            f"printed (x-Folded TM), the simulated {span(sims)}. 'Similar' has no number in the paper; the book's "
            f"yardstick, {y:.0%}, is shown, never deciding. The sentence's second clause, x-Folded TM's lower delay, "
            f"is the abstract's claim lowest-delay.")
    for r in rows:
        r["note"] = note
    return rows


def _rank_text(g: pd.DataFrame) -> str:
    return ", ".join(f"V = {int(r['V'])}: {int(r['lower than TM and torus'])}/{int(r['rates compared'])}"
                     for _, r in g.sort_values("V").iterrows())


def _lowest_rows(ranking: pd.DataFrame, distances: pd.DataFrame | None) -> list:
    claim = CLAIMS["lowest-delay"]
    rows, parts = [], []
    model = ranking[ranking["setup"] == "-"]
    thm = model[model["reading"] == "thm1"]
    if len(thm):
        ok = bool(thm["claim holds"].all())
        rows.append(claim.row(CHAPTER, "-", case="the paper's model: x-Folded TM with Thm 1 as printed", holds=ok,
                              cause="paper text" if ok else "model"))
        parts.append(f"the paper's model (x-Folded TM with Thm 1 as printed, TM and torus with their BFS distances) "
                     f"{_rank_text(thm)}")
    for reading, label in READING_LABELS.items():
        g = model[(model["reading"] == reading) & model["source"].astype(str).str.startswith("model")
                  & (model["source"] != "model (Thm 1 printed)")]
        if len(g):
            ok = bool(g["claim holds"].all())
            rows.append(claim.row(CHAPTER, "-", case=f"{label}, BFS distances", holds=ok,
                                  cause="-" if ok else ("paper text" if reading == "printed" else "model")))
            parts.append(f"the model, {label}, {_rank_text(g)}")
    sim = ranking[(ranking["setup"] != "-") & (ranking["source"] == "sim")]
    for s in SETUPS:
        for reading, label in READING_LABELS.items():
            g = sim[(sim["setup"] == s) & (sim["reading"] == reading)]
            if g.empty:
                if len(sim) and unsupported("tm", 2, s):  # a set-up that cannot run TM or x-Folded TM: not judged
                    rows.append(claim.row(CHAPTER, s, case=label))
                continue
            ok = bool(g["claim holds"].all())
            cause = "-" if ok or not SETUPS[s].decides else ("paper text" if reading == "printed" else "model")
            rows.append(claim.row(CHAPTER, s, case=label, holds=ok, cause=cause))
            parts.append(f"the simulation on '{s}', {label}, {_rank_text(g)}")
    why = ""
    if distances is not None and (distances["k"] == PAPER_K).any():
        d = distances[distances["k"] == PAPER_K].iloc[0]
        why = (f" With Theorem 1 as printed the model puts x-Folded TM n AD_8 = {float(d['AD Thm 1 printed']):.2f} "
               f"hops across, against {float(d['AD xfolded printed']):.2f} (as printed) and "
               f"{float(d['AD xfolded completed']):.2f} (completed) by BFS (tab-xfolded_tm-distances.csv): it shows "
               f"x-Folded TM fastest for that reason, not for the network's.")
    note = (f"Delay figure (M = 32; tab-xfolded_tm-ranking.csv): x-Folded TM below both TM and the torus at every "
            f"injection rate compared (saturated: infinite delay), rates where it is: {'; '.join(parts)}.{why} The "
            f"claim is about the model ('The mathematical results indicate'); the simulation rows test what it "
            f"indicates; 'booksim' runs the torus only; 'ours' stands for neither. The completed reading has "
            f"{network('xfolded_completed', PAPER_K).n_nodes} nodes against 64.")
    for r in rows:
        r["note"] = note
    return rows


def _topology_rows(claim: Claim, checks: pd.DataFrame, what: dict, causes: Mapping[str, str]) -> list:
    """Rows of one topological claim from :func:`topology_checks`: per (check, reading), ``k = 8`` (the paper's
    size, deciding) and the other radices grouped by outcome (a caveat only); ``what`` names the checks."""
    rows = []
    for check, name in what.items():
        for reading in [r for r in ("all", *READING_LABELS) if r in set(checks["reading"])]:
            g = checks[(checks["check"] == check) & (checks["reading"] == reading)]
            if g.empty:
                continue
            label = ", ".join(x for x in (name, READING_LABELS.get(reading, "")) if x)
            at = g[g["k"] == PAPER_K]
            for _, r in at.iterrows():
                rows.append(claim.row(CHAPTER, "-", case=f"{label}, k = {PAPER_K}" if label else f"k = {PAPER_K}",
                                      holds=bool(r["holds"]),
                                      cause="-" if r["holds"] else causes.get(reading, "paper text"),
                                      note=f"{label + ' ' if label else ''}at k = {PAPER_K}: {r['evidence']}"))
            rest = g[g["k"] != PAPER_K]
            for ok, h in rest.groupby("holds", sort=False):
                ks = _k_ranges(h["k"])
                worst = h.iloc[-1] if ok or len(h) > 1 else h.iloc[0]
                rows.append(claim.row(CHAPTER, "-", case=f"{label}, k = {ks}" if label else f"k = {ks}",
                                      paper_config=False, holds=bool(ok),
                                      cause="-" if ok else causes.get(reading, "paper text"),
                                      note="" if ok else f"{label + ' ' if label else ''}fails at k = {ks} "
                                                         f"(k = {int(worst['k'])}: {worst['evidence']})"))
    return rows


def _with_common_note(rows: list, head: str) -> list:
    """Give every row of a claim the same note: ``head`` and the rows' own notes (one note per claim, so that the
    verdict table shows it once)."""
    own = [r["note"] for r in rows if r["note"]]
    note = head + (" " + "; ".join(own) + "." if own else "")
    for r in rows:
        r["note"] = note
    return rows


def _prop1_rows(checks: pd.DataFrame) -> list:
    claim = CLAIMS["prop1"]
    a1, a2 = proposition1_fit()
    ok = (round(a1, 4), round(a2, 4)) == (0.8005, 0.9786)
    rows = [claim.row(CHAPTER, "-", case=f"least-squares line through k = {_k_ranges(PROP1_FIT_KS)}", holds=ok,
                      cause="-" if ok else "paper text",
                      note=f"The least-squares line through k = {_k_ranges(PROP1_FIT_KS)} has a_1 = {a1:.6f}, "
                           f"a_2 = {a2:.6f}" + (", the printed coefficients to their four decimals" if ok else ""))]
    rows += _topology_rows(claim, checks, {"prop1": ""}, {})
    return _with_common_note(rows, (
        "Proposition 1 is a linear fit of Definition 1's node counts (N = k^2); N' is read as a node count, its "
        f"nearest integer (tab-xfolded_tm-distances.csv). The count is k^2 - 3(k - 4) for k >= 6, so the fit drifts "
        "beyond the radices it was fitted to."))


def claims_table(validation: pd.DataFrame, vc: pd.DataFrame | None = None, ranking: pd.DataFrame | None = None,
                 topology: pd.DataFrame | None = None, *, distances: pd.DataFrame | None = None,
                 outperform: pd.DataFrame | None = None, below: float = BELOW) -> pd.DataFrame:
    """The chapter's claims table: rows of :meth:`Claim.row` for the claims of :data:`CLAIMS`, one per sentence.

    One row per claim, set-up and case (a network group and message length,
    a reading of Definition 1 and a radix, ...), the columns
    :data:`~models.core.claims.CLAIM_COLUMNS`; written with
    :func:`models.core.claims.save_claims` (``setups=SETUPS``).  Built only
    from the chapter's tables:

    * ``validation`` (:func:`validation_table`): ``within-5pct``, the paper's
      "less than 5%" (kind ``error``, the paper's ``threshold``), per set-up,
      network group (:data:`ERROR_GROUPS`) and ``M``: the worst
      :func:`~models.core.claims.worst_error_below` over the group's networks
      and both VC counts; ``sat_ratio`` the model / simulated saturation ratio
      furthest from 1.  Cause ``"model"`` where it fails on a set-up that
      decides (on ``booksim``: the model has no router delay).
    * ``vc`` (:func:`vc_saturation_table`): ``similar-saturation`` (kind
      ``saturation``, no number in the paper, the book's yardstick 10%):
      ``sat_ratio`` is the saturation at the most over the fewest VCs, for
      the model (BFS distances, and x-Folded TM with Theorem 1 as printed)
      and each set-up's simulation, per ``M``.
    * ``ranking`` (:func:`ranking_table` and :func:`paper_model_ranking`
      rows): ``lowest-delay`` (kind ``fact``): the paper's model, the model
      per reading of Definition 1, and the simulation per set-up and reading;
      ``distances`` (:func:`distance_table`) adds why the paper's model shows it.
    * ``topology`` (:func:`topology_checks`): ``prop1``, ``thm1``, ``lemma1``
      and ``low-diameter-short-distance`` (kind ``fact``, no simulation), per
      reading of Definition 1; ``k = 8`` decides, the other radices are cases
      beyond the paper's configuration (``paper_config=False``).
    * ``outperform`` (:func:`outperform_table`): ``outperform-similar-size``
      (kind ``fact``): per set-up and reading, throughput (a simulated
      saturation rate above TM's and the torus's beyond the bisection
      brackets, for some V and M) and delay (below both at every rate of the
      delay figure, for some V).

    The verdict is not here: the findings chapter computes it from these
    numbers by one rule (:mod:`models.findings.verdicts`).
    """
    rows = _accuracy_rows(validation, below)
    if vc is not None and not vc.empty:
        rows += _vc_rows(vc)
    if ranking is not None and not ranking.empty:
        rows += _lowest_rows(ranking, distances)
    if topology is not None and not topology.empty:
        rows += _prop1_rows(topology)
        rows += _with_common_note(_topology_rows(CLAIMS["thm1"], topology, {"thm1": ""}, {}), (
            "Theorem 1 as printed gives n AD_k < 2 hops for every k >= 4 (tab-xfolded_tm-distances.csv); with a "
            "factor (k-1)^2 - 1 on AD_{k-1}, possibly lost in typesetting, it solves to k/3, the mesh's per-dimension "
            "distance."))
        rows += _with_common_note(_topology_rows(CLAIMS["lemma1"], topology, {"lemma1": ""},
                                                 {"printed": "paper text", "completed": "reading"}), (
            "Both readings of Definition 1 decide: the printed one is the paper's text, the completed one the book's "
            "reading of the paper's own words 'created by folding the TM topology' and 'shared from top to bottom', "
            "which the printed definition does not implement. Lemma 1 holds only without wrap-around links, the "
            "distance claims only with them: no reading satisfies both."))
        rows += _with_common_note(_topology_rows(CLAIMS["low-diameter-short-distance"], topology,
                                                 {"diameter": "diameter", "distance": "average distance"},
                                                 {"printed": "paper text", "completed": "reading"}), (
            "Compared, as the x-Folded TM paper cited as [7] does, with TM and the torus (diameter) and the mesh, "
            "torus and TM (average distance), by exact BFS (tab-xfolded_tm-distances.csv). Both readings of "
            "Definition 1 decide (see lemma1); the completed reading also has fewer nodes (52 against 64 at k = 8)."))
    if outperform is not None and not outperform.empty:
        rows += _outperform_rows(outperform)
    return claims_frame(rows)


# ----------------------------------------------------------------------------
# "can outperform a similar network size in terms of throughput and delay" (Sec. 1)
# ----------------------------------------------------------------------------
#: Columns of :func:`outperform_table`.
OUTPERFORM_COLUMNS = ("setup", "reading", "measure", "V", "M", "x-Folded TM", "best other", "other network",
                      "ratio", "beyond the brackets", "aggregate ratio")


def outperform_table(validation: pd.DataFrame, ranking: pd.DataFrame | None = None, *, k: int = PAPER_K,
                     M: int = 32) -> pd.DataFrame:
    """x-Folded TM against TM and the torus in the simulation: throughput per (V, M) and delay per V, per set-up.

    Throughput (``measure`` ``"throughput"``): the simulated saturation
    injection rate (flits/node/cycle) of x-Folded TM (each reading) and of
    the better of TM and the torus, their ``ratio``, ``beyond the
    brackets`` (x-Folded TM's bracket lies above the other's: the
    bisection resolves the difference) and the ``aggregate ratio`` (rates
    times node counts: x-Folded TM has fewer nodes).  Delay (``measure``
    ``"delay"``, from ``ranking``, :func:`ranking_table` of the simulation):
    ``ratio`` the share of the delay figure's rates where x-Folded TM is
    below both, ``beyond the brackets`` whether it is at every rate (``M``:
    the delay figure's message length).
    """
    rows = []
    v = validation[validation["runnable"]]
    nodes = {key: network(key, k).n_nodes for key in TOPOLOGIES}
    for (s, V, M), g in v.groupby(["setup", "V", "M"], sort=False):
        by = g.set_index("key")
        others = [key for key in ("torus", "tm") if key in by.index]
        if not others:
            continue
        best = max(others, key=lambda key: float(by.loc[key, "sim saturation"]))
        for reading in READING_LABELS:
            key = f"xfolded_{reading}"
            if key not in by.index:
                continue
            x, o = float(by.loc[key, "sim saturation"]), float(by.loc[best, "sim saturation"])

            def end(net, side):     # an end of the network's bisection bracket (its midpoint when not recorded)
                value = float(by.loc[net, f"sim saturation {side}"]) if f"sim saturation {side}" in by else math.nan
                return value if math.isfinite(value) else float(by.loc[net, "sim saturation"])

            lo, hi = end(key, "lo"), max(end(net, "hi") for net in others)
            rows.append(dict(zip(OUTPERFORM_COLUMNS, (s, reading, "throughput", int(V), int(M), x, o, best, x / o,
                                                      bool(lo > hi), x * nodes[key] / (o * nodes[best])))))
    if ranking is not None and not ranking.empty:
        sim = ranking[(ranking["source"] == "sim") & ranking["reading"].isin(list(READING_LABELS))]
        for _, r in sim.iterrows():
            n = int(r["rates compared"])
            rows.append(dict(zip(OUTPERFORM_COLUMNS, (r["setup"], r["reading"], "delay", int(r["V"]), int(M), math.nan,
                                                      math.nan, "TM and torus",
                                                      int(r["lower than TM and torus"]) / n if n else math.nan,
                                                      bool(r["claim holds"]), math.nan))))
    return pd.DataFrame(rows, columns=list(OUTPERFORM_COLUMNS))


def _outperform_rows(table: pd.DataFrame) -> list:
    claim = CLAIMS["outperform-similar-size"]
    rows, parts = [], []
    for s in _setups_in(table):
        for reading, label in READING_LABELS.items():
            for measure in ("throughput", "delay"):
                g = table[(table["setup"] == s) & (table["reading"] == reading) & (table["measure"] == measure)]
                case = f"{measure}, {label}"
                if g.empty:
                    continue
                ok = bool(g["beyond the brackets"].astype(bool).any())
                cause = "-" if ok or not SETUPS[s].decides else "paper text"
                rows.append(claim.row(CHAPTER, s, case=case, holds=ok, cause=cause))
                if measure == "throughput":
                    win = g[g["beyond the brackets"].astype(bool)]
                    detail = (", ".join(f"V = {int(r['V'])}, M = {int(r['M'])}: {r['ratio']:.2f}x (over all nodes "
                                        f"{r['aggregate ratio']:.2f}x)" for _, r in win.iterrows())
                              if len(win) else f"no V and M (ratios {g['ratio'].min():.2f}x to "
                                               f"{g['ratio'].max():.2f}x)")
                    parts.append(f"'{s}', {label}: saturation above the better of TM and the torus beyond the "
                                 f"brackets at {detail}")
                else:
                    detail = ", ".join(f"V = {int(r['V'])} at {r['ratio']:.0%}" for _, r in g.iterrows())
                    parts.append(f"'{s}', {label}: delay below both at {detail} of the rates")
    missing = [s for s in SETUPS if s not in set(table["setup"])]
    note = ("'Can outperform' is read as: in some configuration of the paper (8x8, V = 2 or 8, any M), x-Folded TM's "
            "simulated saturation rate is above TM's and the torus's beyond the bisection brackets (throughput), or "
            "its delay below both at every rate of the delay figure (delay) (tab-xfolded_tm-outperform.csv): "
            + "; ".join(parts) + ". 'A similar network size': the 8x8 torus and TM have 64 nodes, x-Folded TM "
            f"{network('xfolded_printed', PAPER_K).n_nodes}."
            + (f" Not simulated on {', '.join(repr(s) for s in missing)} (BookSim's router runs the torus only)."
               if missing else "") + " The sentence's 'low diameter' is judged under low-diameter-short-distance.")
    for r in rows:
        r["note"] = note
    return rows


# ----------------------------------------------------------------------------
# The numbers the pages quote (glued)
# ----------------------------------------------------------------------------
def _ratio_text(row) -> str:
    return (f"{row['saturation (V low)']:.2f} → {row['saturation (V high)']:.2f} flits/node/cycle "
            f"({row['ratio high/low']:.2f}x)")


def glue_values(validation: pd.DataFrame, vc: pd.DataFrame, ranking: pd.DataFrame | None = None,
                vc_yardstick: float = CLAIMS["similar-saturation"].yardstick,
                outperform: pd.DataFrame | None = None) -> dict:
    """The strings the delay page and the chapter page glue (key -> text), all computed from the chapter's tables.

    Keys (each prefixed ``xfolded_tm-``): ``worst-<group>-m<M>-<setup>``
    (the worst |error| below 80% of the simulated saturation over the
    group's networks and both VC counts, or ``not runnable``) and
    ``satratio-<group>-m<M>-<setup>`` (model / simulated saturation, furthest
    from 1), ``zeroload-<setup>-m<M>`` (the model's zero-load error against
    the set-up, on the torus), ``vcsat-<source>-<network>-m<M>`` (saturation
    at the fewest and most VCs; source ``model`` or ``sim-<setup>``; network
    ``xfolded_thm1``: Theorem 1 as printed), ``vc-sentence-m<M>`` (what the
    numbers say about "similar saturation in different numbers of VCs"),
    ``lowest-<reading>-<setup>`` (``model-curves`` for the model; reading
    ``thm1`` for the paper's model): whether x-Folded TM is below TM and the
    torus at every rate, ``within5-sentence`` (how many cases meet the
    paper's 5% and the closest), and with ``outperform``
    (:func:`outperform_table`) ``outperform-sentence`` (the completed
    reading's simulated saturation against TM's and the torus's on the
    ``model`` set-up, per node and over all nodes).
    """
    out = {}
    for M in sorted(int(m) for m in validation["M"].unique()):
        for group, keys in ERROR_GROUPS.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            for s in _setups_in(g):
                run = g[(g["setup"] == s) & g["runnable"]]
                tail = f"{group}-m{M}-{s}"
                out[f"xfolded_tm-worst-{tail}"] = _error_text(_worst(run["worst |err| below 80%"])) \
                    if len(run) else "not runnable"
                r = _furthest_from_one(run["saturation ratio"]) if len(run) else math.nan
                out[f"xfolded_tm-satratio-{tail}"] = f"{r:.2f}" if math.isfinite(r) else "not runnable"
    tor = validation[(validation["key"] == "torus") & validation["runnable"]]
    for (s, M), g in tor.groupby(["setup", "M"], sort=False):
        out[f"xfolded_tm-zeroload-{s}-m{int(M)}"] = f"{100 * float(g['zero-load err'].iloc[0]):+.0f} %"
    for _, r in vc[np.isfinite(vc["ratio high/low"].to_numpy(dtype=float))].iterrows():
        src = "model" if r["setup"] == "-" else f"sim-{r['setup']}"
        out[f"xfolded_tm-vcsat-{src}-{r['key']}-m{int(r['M'])}"] = _ratio_text(r)
    for M, g in vc.groupby("M", sort=False):
        g = g[np.isfinite(g["ratio high/low"].to_numpy(dtype=float))]
        mod, thm, sim = (g[g["source"] == "model"], g[g["source"] == THEOREM_SOURCE], g[g["source"] == "simulation"])
        lo, hi = int(g["V low"].iloc[0]), int(g["V high"].iloc[0])
        everything = g["ratio high/low"].to_numpy(dtype=float)
        beyond = int((np.abs(everything - 1) > vc_yardstick).sum())

        def span(f):
            return (f"{f['ratio high/low'].min():.2f}x to {f['ratio high/low'].max():.2f}x" if len(f) else "n/a")

        out[f"xfolded_tm-vc-sentence-m{int(M)}"] = (
            f"At M = {int(M)} flits, from {lo} to {hi} VCs the model's saturation grows {span(mod)} on every network "
            f"(BFS distances) and {span(thm)} with Theorem 1 as printed, the simulated saturation {span(sim)} on "
            f"every set-up; {beyond} of these {everything.size} ratios are further from 1 than the book's yardstick "
            f"for \"similar\", {vc_yardstick:.0%} (the paper names no number)")
    if ranking is not None and len(ranking):
        for (reading, setup), g in ranking.groupby(["reading", "setup"], sort=False):
            if setup == "-" and str(g["source"].iloc[0]).startswith("sim"):
                continue
            out[f"xfolded_tm-lowest-{reading}-{setup if setup != '-' else 'model-curves'}"] = (
                "below TM and the torus at every rate" if bool(g["claim holds"].all())
                else f"not below both at every rate ({_rank_text(g)} rates)")
    if outperform is not None and len(outperform):
        g = outperform[(outperform["measure"] == "throughput") & (outperform["reading"] == "completed")]
        g = g[g["setup"] == DEFAULT_SETUP] if (g["setup"] == DEFAULT_SETUP).any() else g
        if len(g):
            by_v = []
            for V, h in g.groupby("V", sort=True):
                by_v.append(f"with {int(V)} VCs {h['ratio'].min():.2f}x to {h['ratio'].max():.2f}x per node "
                            f"({int(h['beyond the brackets'].astype(bool).sum())} of {len(h)} message lengths beyond "
                            f"the bisection brackets) and {h['aggregate ratio'].min():.2f}x to "
                            f"{h['aggregate ratio'].max():.2f}x over all nodes")
            out["xfolded_tm-outperform-sentence"] = (
                f"On '{g['setup'].iloc[0]}' the completed reading's simulated saturation rate is, against the better "
                f"of TM and the torus, " + "; ".join(by_v))
    acc = validation[validation["runnable"] & validation["setup"].map(lambda s: SETUPS[s].decides)]
    cases = []
    for (s, M), g in acc.groupby(["setup", "M"], sort=False):
        for group, keys in ERROR_GROUPS.items():
            w = _worst(g.loc[g["key"].isin(keys), "worst |err| below 80%"])
            if not math.isnan(w):
                cases.append((w, f"{GROUP_LABELS[group]}, M = {int(M)}, '{s}'"))
    if cases:
        t = CLAIMS["within-5pct"].threshold
        best = min(cases)
        out["xfolded_tm-within5-sentence"] = (
            f"{sum(w <= t for w, _ in cases)} of {len(cases)} (network group, M, set-up) cases on the set-ups that "
            f"stand for the paper or the model are within the paper's {t:.0%} below {BELOW:.0%} of the simulated "
            f"saturation; the closest is {_error_text(best[0])} ({best[1]})")
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
