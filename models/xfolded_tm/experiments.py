"""The paper's experiments: the figures as data, the simulation hook, the runs and the analysis tables.

The paper's delay figure compares an 8x8 torus, TM and x-Folded TM under
uniform traffic with 2 and 8 virtual channels per physical channel, average
delay (cycles) against injection rate (flits/node/cycle).  Here it is one
:class:`~models.core.setups.Figure` per VC count (:func:`delay_figure`,
:data:`FIGURES`), one :class:`~models.core.setups.Curve` per network
(:data:`~models.xfolded_tm.setups.TOPOLOGIES`) and simulator set-up
(:data:`~models.xfolded_tm.setups.SETUPS`), with absolute loads in the
figure's unit, flits/node/cycle (the model's ``lam`` is ``injection / M``).
:func:`run_figure` solves the model (with the network's exact BFS average
distance, and with the paper's printed Theorem 1) and simulates the same
network; :func:`delay_frame`, :func:`error_tables`, :func:`ranking_table`,
:func:`paper_model_ranking` (in :mod:`models.xfolded_tm.ranking`, decided beyond the noise) and
:func:`reading_sensitivity` condense the runs.

The simulation hook is the chapter's one translation to the simulator:
:func:`sim_kwargs` (one point, ``lam`` in messages/node/cycle, the chapter's
``LOAD``), :func:`simulate_curve` (a cached :func:`models.sim.sweep.run_sweep`
of it, one :class:`~models.core.results.SimPoint` per load) and
:func:`sim_saturation` (the simulated saturation ``lam``); run lengths in a
:class:`~models.core.setups.SimSettings`
(:data:`~models.xfolded_tm.setups.SETTINGS`, the full profile).
:func:`models.xfolded_tm.compare` (and so ``python -m models.xfolded_tm curve
--simulate``) uses the same functions.

The validation grid (:func:`validation_figure`, :func:`validation_table`)
runs every network, VC count, message length ``M`` (the paper does not state
it) and set-up at fractions of the *simulated* saturation load, so the error
below :data:`~models.core.setups.BELOW` (80 %) of the simulated saturation
(:func:`~models.core.claims.accuracy_below`, at 25, 50 and 75 % of it) and the model/simulation
saturation ratio are defined; :func:`vc_saturation_table` compares the
saturation at 2 and 8 VCs and :func:`outperform_table` x-Folded TM's
simulated throughput against TM's and the torus's.  The model-only curves of
the model page are :func:`model_curves_figure` run by :func:`run_figure` too,
and :func:`saturation_table`.  The topology tables are in
:mod:`models.xfolded_tm.topology`, the claims table in
:mod:`models.xfolded_tm.claims`, the numbers the pages quote in
:mod:`models.xfolded_tm.glue`, matplotlib in :mod:`models.xfolded_tm.plots`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.claims import accuracy_below
from ..core.errors import ParameterError
from ..core.experiment import CurveRun, each_curve, error_table, run_curve
from ..core.results import SimPoint, ci_column
from ..core.saturation import Saturation, find_saturation
from ..core.setups import BELOW, Curve, Figure, SimSettings, SimulatorSetup, named_setup
from ..core.validate import require, require_choice
from ..core.validation import compare
from ..sim.sweep import run_sweep
from ..sim.wormhole.booksim import BOOKSIM_ROUTINGS, NEEDS_TAIL_CREDIT
from .setups import (DEFAULT_SETUP, PAPER_K, READING_LABELS, SETTINGS, SETUPS, TOPOLOGIES, XfoldedParams,
                     model_kwargs, network, network_curve)
from .solve import saturation_load, solve, theorem1
from .ranking import OUTPERFORM_COLUMNS, outperform_table, paper_model_ranking, ranking_table  # noqa: F401 (re-exported)

#: The chapter's slug, as its figure labels spell it.
CHAPTER = "xfolded_tm"

#: Injection rates of the full profile, flits/node/cycle.
INJECTION = (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)

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
# Set-ups and what they can run
# ----------------------------------------------------------------------------
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

    ``setup`` is a name of :data:`~models.xfolded_tm.setups.SETUPS` (or a set-up); the network's
    routing is :data:`~models.xfolded_tm.setups.TOPOLOGIES` ``[key]["routing"]``.
    """
    t = TOPOLOGIES[require_choice("key", key, list(TOPOLOGIES), unit="network of the delay figure")]
    return _unsupported(t["routing"], V, named_setup(SETUPS, setup).sim(V))


# ----------------------------------------------------------------------------
# The delay figure (model against simulation)
# ----------------------------------------------------------------------------
def delay_curve(key: str, V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                setup: str = DEFAULT_SETUP, **readings) -> Curve:
    """One network of the delay figure with ``V`` virtual channels, at the injection rates (flits/node/cycle).

    The curve of :func:`~models.xfolded_tm.setups.network_curve` for
    :class:`~models.xfolded_tm.setups.XfoldedParams` (``key`` its
    ``topology``; ``readings`` such as ``vbar="sum"``), the one check of the
    parameters, on the simulator set-up ``setup``: ``Curve.model`` holds the
    keyword arguments of :func:`~models.xfolded_tm.solve` (the network's BFS
    average distance), ``Curve.sim`` the network and its ``routing``.
    """
    p = XfoldedParams(topology=key, k=k, M=M, V=V, **readings)
    inj = tuple(require("injection", x, 0, 1, lo_open=True, unit="flits/node/cycle") for x in injection)
    return network_curve(p, setup, inj)


def delay_figure(V: int, injection: Sequence[float] = INJECTION, *, k: int = 8, M: int = 32,
                 keys: Sequence[str] = tuple(TOPOLOGIES), setups: Sequence[str] = (DEFAULT_SETUP,),
                 **readings) -> Figure:
    """The delay figure for ``V`` virtual channels: one curve per network and set-up the simulator supports.

    Networks are ``keys`` of :data:`~models.xfolded_tm.setups.TOPOLOGIES`, set-ups names of
    :data:`~models.xfolded_tm.setups.SETUPS`;
    a (network, set-up) pair the simulator cannot run (:func:`unsupported`) is
    left out.
    """
    curves = tuple(delay_curve(key, V, injection, k=k, M=M, setup=s, **readings)
                   for key in keys for s in setups if not unsupported(key, V, s))
    return Figure(label=f"fig-{CHAPTER}-delay-vc{V}", title=f"{k}x{k} networks, uniform traffic, VC = {V}",
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
def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` at ``lam = load`` (messages/node/cycle).

    ``curve`` is a curve of :func:`~models.xfolded_tm.setups.network_curve`,
    whose parameters were checked when it was built: the model's ``V`` and
    ``M`` become ``vcs`` and ``message_length``; the network
    (``curve.sim``'s ``topology`` and ``k``) is
    :meth:`~models.networks.grid2d.GridNetwork.sim_topology` of its routing
    (``curve.sim["routing"]``); the set-up's knobs
    (:data:`~models.xfolded_tm.setups.SETUP_KNOBS`) come from
    :data:`~models.xfolded_tm.setups.SETUPS` ``[curve.setup]`` (default
    :data:`~models.xfolded_tm.setups.DEFAULT_SETUP`), and any other key of
    ``curve.sim`` overrides them; run lengths and seed from ``settings``
    (:meth:`SimSettings.run_lengths <models.core.setups.SimSettings.run_lengths>`: with ``settings.target_ci`` a point stops once
    precise, at most ``settings.messages``).  A
    figure's injection ``x`` (flits/node/cycle) is the load ``x / M``.

    Raises :class:`~models.core.errors.ParameterError` when the curve names no
    network, or when the simulator cannot run the curve's routing on these
    knobs (:func:`cannot_run`, which ``compare`` asks up front).
    """
    setup, routing, knobs = _translation(curve)
    why = _unsupported(routing, curve.model["V"], knobs)
    if why:
        raise ParameterError(f"curve {curve.label!r}: set-up {setup.name!r} cannot run it: {why}")
    return dict(topology=network(curve.sim["topology"], curve.sim["k"]).sim_topology(routing), routing=routing,
                vcs=curve.model["V"], message_length=curve.model["M"], rate=float(load),
                warmup_messages=settings.warmup_messages, batches=settings.batches, seed=settings.seed,
                **settings.run_lengths(), **knobs)


def _translation(curve: Curve) -> tuple:
    """``(set-up, routing, knobs)`` of ``curve``: its set-up, its routing and the simulator keywords they fix."""
    if "topology" not in curve.sim:
        raise ParameterError(f"curve {curve.label!r} names no network (`sim` has no `topology`): build it with "
                             "models.xfolded_tm.setups.network_curve")
    setup = named_setup(SETUPS, curve.setup or DEFAULT_SETUP)
    extra = {name: value for name, value in curve.sim.items() if name not in ("topology", "k")}
    routing = extra.pop("routing", TOPOLOGIES[curve.sim["topology"]]["routing"])
    return setup, routing, {**setup.sim(curve.model), **extra}


def cannot_run(curve: Curve) -> str:
    """Why the simulator cannot run ``curve`` on its set-up (``""`` if it can): :func:`unsupported` of a curve."""
    _, routing, knobs = _translation(curve)
    return _unsupported(routing, curve.model["V"], knobs)


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list[SimPoint]:
    """The simulation of ``curve`` at every ``lam`` of ``loads`` (messages/node/cycle): one cached sweep.

    One :class:`~models.core.results.SimPoint` per load: ``latency`` (cycles,
    ``inf`` if saturated), ``latency_ci`` (95% half width), ``saturated`` and
    the extras ``"mean hops"`` and ``"messages"`` (the measured messages of the run).
    """
    results = run_sweep([sim_kwargs(curve, x, settings) for x in loads], jobs=settings.jobs, cache=settings.cache,
                        progress=settings.progress)
    return [SimPoint(r.latency, r.latency_ci, bool(r.saturated), {"mean hops": r.mean_hops, "messages": r.messages})
            for r in results]


#: A load past the first saturated one of a delay curve: not simulated.
_NOT_SIMULATED = SimPoint(math.inf, math.nan, True, {"mean hops": math.nan, "messages": 0})


def _simulator(settings: SimSettings):
    """The ``sim(curve, injections)`` of :func:`models.core.experiment.run_curve` (loads in flits/node/cycle).

    Runs the loads in order, one :func:`simulate_curve` each; the loads after
    the first saturated one are not simulated (reported saturated, delay
    ``inf``).  A saturated point has no CI, no mean hops and no messages (0).
    """
    def sim(curve: Curve, loads: list) -> list:
        M = curve.model["M"]
        rows, stopped = [], False
        for x in loads:
            if stopped:
                rows.append(_NOT_SIMULATED)
                continue
            r = simulate_curve(curve, [x / M], settings)[0]
            rows.append(_NOT_SIMULATED if r.saturated else r)
            stopped = r.saturated
        return rows

    return sim


def _injection_saturation(curve: Curve, guess: float, settings: SimSettings) -> Saturation:
    """Simulated saturation injection rate (flits/node/cycle) of ``curve``, by bracketing and bisection.

    :func:`~models.core.saturation.find_saturation` on the bracket
    ``[guess, 1]``: ``guess`` is checked (divided by 1.25 while it is
    saturated), 1 flit/node/cycle -- the injection channel's capacity -- is
    taken as saturated without a run; the bracket is then halved to
    ``settings.sat_rtol``.  Each probe is one cached run of
    ``settings.probe_messages`` messages, fixed length (:meth:`SimSettings.fixed_length <models.core.setups.SimSettings.fixed_length>`).
    """
    guess = require("guess", guess, 0, 1, lo_open=True, hi_open=True, unit="flits/node/cycle")
    probe = settings.fixed_length().replace(messages=settings.probe_messages)
    M = curve.model["M"]

    def saturated(x):
        return simulate_curve(curve, [x / M], probe)[0].saturated

    s = find_saturation(saturated, guess, 1.0, check_lo=True, check_hi=False, expand=1.25, max_expansions=39,
                        rtol=settings.sat_rtol)
    if not s.bracketed:
        raise ParameterError(f"could not bracket the simulated saturation of {curve.label} below {guess}")
    return s


def sim_saturation(curve: Curve, guess: float, settings: SimSettings = SETTINGS) -> Saturation:
    """Simulated saturation load ``lam`` (messages/node/cycle) of ``curve``, with its bisection bracket.

    ``guess`` is the model's saturation load (``lam``); the search runs in
    injection rates, from 0.8 times the model's (where :func:`run_figure`
    starts it), to ``settings.sat_rtol`` (2 %), and its bracket and probes
    are given back in ``lam = injection / M``.
    """
    M = curve.model["M"]
    s = _injection_saturation(curve, 0.8 * (guess * M), settings)
    return dataclasses.replace(s, load=s.load / M, lo=s.lo / M, hi=s.hi / M,
                               probes=tuple((x / M, sat) for x, sat in s.probes))


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
    if figure.label == f"fig-{CHAPTER}-validation":
        return "validation"
    if figure.label == f"fig-{CHAPTER}-model-curves":
        return "model-curves"
    if figure.label.startswith(f"fig-{CHAPTER}-delay-"):
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
      of the simulated saturation (:func:`sim_saturation`'s search,
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
        sim_saturation=lambda curve, model_sat: _injection_saturation(curve, 0.8 * model_sat, settings),
        round_to=6, quantity=figure.quantity))


def curve_key(curve: Curve) -> str:
    """The network's key in :data:`~models.xfolded_tm.setups.TOPOLOGIES` (``"torus"``, ``"tm"``,
    ``"xfolded_<reading>"``)."""
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
            f["sim CI"] = s[ci_column("latency")].to_numpy()
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
            p = compare(pts["load"], pts["model latency"], pts["sim latency"],
                        pts[f"sim {ci_column('latency')}"], curve=_curve_name(run), x_name="injection",
                        quantity="delay")
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
    return Figure(label=f"fig-{CHAPTER}-validation", title=f"{k}x{k} networks, model vs simulation by set-up",
                  curves=curves, x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay",
                  y_unit="cycles")



#: Columns of :func:`validation_table`.
VALIDATION_COLUMNS = ["key", "network", "V", "M", "setup", "runnable", "reason", "err @25% [%]", "err @50% [%]",
                      "err @75% [%]", "err @90% [%]", "worst |err| below 80%", "uncertain", "model saturation",
                      "sim saturation", "saturation ratio", "zero-load err", "sim saturation lo",
                      "sim saturation hi"]


def validation_table(runs: Sequence[CurveRun], grid: pd.DataFrame | None = None, *,
                     below: float = BELOW) -> pd.DataFrame:
    """One row per (network, V, M, set-up) of the grid: the errors and the saturation loads.

    ``err @<p>% [%]``: signed error in percent at that fraction of the
    simulated saturation (:func:`models.core.experiment.error_table`);
    ``worst |err| below 80%``: :func:`~models.core.claims.accuracy_below`'s worst error (a fraction, at
    the fixed fractions 25, 50 and 75 % of the simulated saturation; ``inf`` where the model is saturated
    there for every simulated saturation load in the bracket) and ``uncertain`` (where the model's
    saturation load lies inside that bracket: the row decides nothing, ``""`` otherwise); saturation
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
        acc = accuracy_below(run, below)
        rows.append({"key": key, "network": TOPOLOGIES[key]["label"], "V": c.model["V"], "M": M, "setup": c.setup,
                     "runnable": True, "reason": "",
                     **{col: t.get(col, math.nan) for col in VALIDATION_COLUMNS[7:11]},
                     "worst |err| below 80%": acc.worst, "uncertain": acc.uncertain,
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


def _or(value: float, default: float) -> float:
    """``value``, or ``default`` where it is not a number (a bracket end that was not recorded)."""
    return value if math.isfinite(value) else default


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
    (flits/node/cycle) and ``ratio high/low``, with its range over the
    simulated saturation searches' bisection brackets, ``ratio lo`` (the
    high-VC bracket's lower end over the low-VC bracket's upper end) and
    ``ratio hi`` (the other way round; the model's range is its ratio); NaN
    where a set-up cannot run the network.
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
        rows.append({**base, "source": "model", "setup": "-", "saturation (V low)": a, "saturation (V high)": b,
                     "ratio lo": b / a, "ratio hi": b / a})
        for s, gs in g.groupby("setup", sort=False):
            a, b = at(gs, lo, "sim saturation"), at(gs, hi, "sim saturation")
            a_lo, a_hi, b_lo, b_hi = (_or(at(gs, V, f"sim saturation {e}") if f"sim saturation {e}" in gs else x, x)
                                      for V, e, x in ((lo, "lo", a), (lo, "hi", a), (hi, "lo", b), (hi, "hi", b)))
            rows.append({**base, "source": "simulation", "setup": s, "saturation (V low)": a, "saturation (V high)": b,
                         "ratio lo": b_lo / a_hi, "ratio hi": b_hi / a_lo})
    if theorem:
        net = network("xfolded_printed", k)
        for M in dict.fromkeys(int(m) for m in v["M"]):
            a, b = (saturation_load(**model_kwargs(net, V=V, M=M, ad="theorem")) * M for V in (lo, hi))
            rows.append(dict(key=THEOREM_KEY, network=THEOREM_LABEL, M=M, **{"V low": lo, "V high": hi},
                             source=THEOREM_SOURCE, setup="-", **{"saturation (V low)": a, "saturation (V high)": b,
                                                                  "ratio lo": b / a, "ratio hi": b / a}))
    out = pd.DataFrame(rows)
    out["ratio high/low"] = out["saturation (V high)"] / out["saturation (V low)"]
    return out[[c for c in out.columns if c not in ("ratio lo", "ratio hi")] + ["ratio lo", "ratio hi"]]


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
    return Figure(label=f"fig-{CHAPTER}-model-curves", title=f"VC = {V}", curves=tuple(curves),
                  x_label="injection rate", x_unit="flits/node/cycle", y_label="average delay", y_unit="cycles")


def _model_delay(curve: Curve, injection: float) -> dict:
    r = solve(injection / curve.model["M"], **curve.model)
    return {"latency": r.latency, "saturated": r.saturated}


def saturation_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """``V``, ``network`` and the model's ``saturation [flits/node/cycle]`` of model-curve runs."""
    return pd.DataFrame([{"V": r.curve.model["V"], "network": r.label,
                          "saturation [flits/node/cycle]": r.model_saturation} for r in runs])
