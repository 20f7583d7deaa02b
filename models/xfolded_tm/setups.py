"""The chapter's light vocabulary: networks, simulator set-ups, run lengths, the checked parameters and the curve.

What the command line (``python -m models.xfolded_tm``, ``--help``), the
chapter's :func:`~models.xfolded_tm.compare` and its experiments share, without
pandas, numba or a simulator (DESIGN.md, "A chapter"):

* :data:`TOPOLOGIES` -- the ``k x k`` networks of the paper's delay figure
  (legend label, topology of :func:`models.networks.grid2d.build`, reading of
  Definition 1, the simulator's routing) and :func:`network`, built once per
  process;
* :data:`SETUPS`, :data:`DEFAULT_SETUP` -- the named simulator set-ups;
* :data:`SETTINGS` (the book's paper-scale run lengths) and :data:`RUN` (the
  defaults of ``compare`` and ``curve --simulate``);
* :class:`XfoldedParams` -- one network and model configuration, checked and
  coerced once, at the door -- and :func:`network_curve`, the chapter's
  :class:`~models.core.setups.Curve` of it on a set-up.

Simulator set-ups (:class:`models.core.setups.SimulatorSetup`; DESIGN.md
"Simulator set-ups are named"):

* ``"ours"`` -- the chapter's first set-up: the ideal router (one
  cycle per router), 2-flit buffers per VC, ``V`` injection VCs, one ejection
  channel (messages leave one at a time), Poisson sources.  It stands for neither the paper
  nor the model (no verdict rests on it).
* ``"model"`` -- as the model assumes: the same ideal router with ``V``
  ejection VCs (eq. 9 has no ejection term: a message never queues to leave),
  Poisson sources (the model's M/G/1 source queue).
  The default of a curve and of the command line (:data:`DEFAULT_SETUP`).
* ``"booksim"`` -- as the paper states (it validated with BookSim 2.0; the
  rest is BookSim's defaults): BookSim 2's input-queued router (5 cycles per
  hop), 8-flit buffers, one injection VC (one message at a time per source),
  ``V`` ejection VCs, Bernoulli sources (BookSim's ``injection_process =
  bernoulli``, its default: each node generates a message in a cycle with
  probability ``rate``).  It supports dimension-order routing only, so only the
  torus runs on it (:func:`models.xfolded_tm.experiments.unsupported` says
  so up front).

Every set-up names the same knobs (:data:`SETUP_KNOBS`, the source among
them) and keeps everything else equal (seed, lengths, uniform destinations
over the other nodes, random tie-breaking).

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

Besides :mod:`models.core` and numpy this module imports the topologies
(:mod:`models.networks.grid2d`, numpy only) and the chapter's solver (for
Theorem 1 and the readings' names).
"""

from __future__ import annotations

import dataclasses
import functools

from ..core.errors import ParameterError
from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from ..core.validate import MAX_RADIX, require, require_choice
from ..networks.grid2d import GridNetwork, build
from .solve import CHANNEL_RATES, SOURCE_RATES, VBAR_READINGS, theorem1

__all__ = ["TOPOLOGIES", "READING_LABELS", "PAPER_K", "network", "ad_value", "model_kwargs", "SETUP_KNOBS",
           "check_setup", "SETUPS", "DEFAULT_SETUP", "SETUP_HELP", "TARGET_CI", "MIN_MESSAGES", "SETTINGS", "RUN",
           "XfoldedParams", "network_curve"]

# ----------------------------------------------------------------------------
# The networks
# ----------------------------------------------------------------------------
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


#: The readings of Definition 1 the claims are checked on, by key, with how the tables and claims name them.
READING_LABELS = {"printed": "Definition 1 as printed", "completed": "completed reading"}

#: The paper's network size (Table 1: 8 x 8); the claims' other radices are cases beyond it (a caveat only).
PAPER_K = 8


@functools.lru_cache(maxsize=None)
def network(key: str, k: int = 8) -> GridNetwork:
    """The ``k x k`` network of :data:`TOPOLOGIES` ``[key]`` (built once per process).

    ``key`` and ``k`` are taken as given (checked at the door, :class:`XfoldedParams`;
    :func:`models.networks.grid2d.build` refuses a radix it cannot build).
    """
    t = TOPOLOGIES[key]
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


# ----------------------------------------------------------------------------
# Simulator set-ups
# ----------------------------------------------------------------------------
#: The knobs every set-up names (keyword arguments of :func:`models.sim.wormhole.simulate`).
SETUP_KNOBS = ("router", "buffer_depth", "router_delay", "injection_vcs", "ejection_vcs", "traffic")


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
        "one ejection channel (one message leaves a node at a time), Poisson sources", "",
        dict(router="ideal", buffer_depth=2, router_delay=1, injection_vcs="V", ejection_vcs=1, traffic="poisson")),
    SimulatorSetup(
        "model", "as the model assumes: the ideal router of 'ours' with V ejection VCs (eq. 9 has no ejection "
        "term, so a message never queues to leave), Poisson sources (the model's M/G/1 source queue)", "model",
        dict(router="ideal", buffer_depth=2, router_delay=1, injection_vcs="V", ejection_vcs="V", traffic="poisson")),
    SimulatorSetup(
        "booksim", "as the paper states (BookSim 2.0, its defaults): BookSim 2's input-queued router (5 cycles per "
        "hop), 8-flit buffers, one injection VC (one message at a time per source), V ejection VCs, Bernoulli "
        "sources (BookSim's injection_process = bernoulli: a node generates a message in a cycle with probability "
        "rate)", "paper",
        dict(router="booksim", buffer_depth=8, router_delay=1, injection_vcs=1, ejection_vcs="V",
             traffic="bernoulli")),
)}

#: The set-up a curve that names none runs on, and the command line's default: "model", the set-up the
#: model's assumptions describe, on which every network runs ("booksim", the paper's, runs the torus only).
#: The verdicts rest on "model" and "booksim"; "ours" stands for neither (shown, never decisive).
DEFAULT_SETUP = "model"

#: What the set-ups are, in ``--help`` of ``--setup``.
SETUP_HELP = ("'model' = ideal router, V ejection VCs (as the model assumes); 'ours' = ideal router, one "
              "ejection channel; 'booksim' = BookSim 2 router with Bernoulli sources, as the paper states (torus "
              "with even V only)")

# ----------------------------------------------------------------------------
# Run lengths
# ----------------------------------------------------------------------------
#: Full-profile simulation lengths (messages per load point).
SIM_MESSAGES = 60_000
SIM_WARMUP = 10_000

#: Full-profile messages per probe of the simulated-saturation search.
SAT_MESSAGES = 20_000

#: The precision of a simulated point of the full profile: a run measures MIN_MESSAGES first and is lengthened
#: until its latency's 95 % half width is within TARGET_CI of the mean, at most SIM_MESSAGES (the cap, the fixed
#: length of every point before).  1 %: the paper's one number is "less than 5%" (the model against simulation),
#: so a point's noise stays a fifth of that threshold; a point that does not get that precise (near saturation)
#: runs the cap.
TARGET_CI = 0.01
MIN_MESSAGES = 20_000

#: Run lengths, seed, precision, saturation search and processes of the full profile (the notebooks pass their
#: own).
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP, batches=20, seed=1,
                       target_ci=TARGET_CI, min_messages=MIN_MESSAGES, sat_messages=SAT_MESSAGES, sat_rtol=0.02)

#: Measured messages per simulated rate and discarded warm-up: the defaults of ``compare`` and of the
#: command's ``--messages`` / ``--warmup``.
RUN = RunLengths("messages", 20_000, 2_000)


# ----------------------------------------------------------------------------
# The parameters, checked once, and the curve
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class XfoldedParams:
    """One ``k x k`` network and its model: the chapter's parameters, checked and coerced once, here.

    The value :func:`~models.xfolded_tm.compare`, the command line and the
    figures' curves (:func:`models.xfolded_tm.experiments.delay_curve`) build
    first; :func:`network_curve` carries it into a curve, whose model and
    simulator keywords nothing checks again.

    topology : str
        The network, a key of :data:`TOPOLOGIES`: ``"torus"``, ``"tm"``,
        ``"xfolded_printed"`` (Definition 1 as printed) or ``"xfolded_completed"``.
    k : int
        Radix of the ``k x k`` network, >= 3.
    M : int
        Message length, flits (the paper's ``L``; it does not state one, 32 is our guess), >= 1.
    V : int
        Virtual channels per physical channel, >= 1.
    ad : float, optional
        Average distance per dimension ``AD_k``, hops, in place of the
        network's BFS mean distance (divided by 2) in the model only (a
        what-if: the simulation runs the network's own distances).
    vbar, source_rate, channel_rate : str
        Readings of eqs. (11), (10) and (6) (:func:`models.xfolded_tm.solve`).
    """

    topology: str = "xfolded_completed"
    k: int = 8
    M: int = 32
    V: int = 2
    ad: float | None = None
    vbar: str = "mean"
    source_rate: str = "vbar"
    channel_rate: str = "printed"

    def __post_init__(self):
        put = functools.partial(object.__setattr__, self)
        put("V", require("V", self.V, 1, unit="virtual channels per physical channel", integer=True))
        put("k", require("k", self.k, 3, unit="radix", integer=True))
        put("M", require("M", self.M, 1, unit="message length, flits", integer=True))
        require_choice("topology", self.topology, list(TOPOLOGIES), unit="network of the delay figure")
        if self.ad is not None:
            put("ad", float(require("ad", self.ad, 0, MAX_RADIX, lo_open=True,
                                    unit="average distance per dimension, hops")))
        require_choice("vbar", self.vbar, VBAR_READINGS, unit="reading of eq. (11)")
        require_choice("source_rate", self.source_rate, SOURCE_RATES, unit="rate of the source queue in eq. (10)")
        require_choice("channel_rate", self.channel_rate, CHANNEL_RATES,
                       unit="eq. (6) as printed or from the channel count")

    @property
    def network(self) -> GridNetwork:
        """The ``k x k`` network (built once per process)."""
        return network(self.topology, self.k)

    @property
    def readings(self) -> dict:
        """The readings as keywords of :func:`~models.xfolded_tm.solve`."""
        return dict(vbar=self.vbar, source_rate=self.source_rate, channel_rate=self.channel_rate)

    @property
    def model(self) -> dict:
        """The keywords of :func:`~models.xfolded_tm.solve`: the network's BFS distance (``ad`` if given),
        node and channel counts, ``M``, ``V``, ``k`` and the readings."""
        kw = model_kwargs(self.network, V=self.V, M=self.M, **self.readings)
        return kw if self.ad is None else dict(kw, ad=self.ad)


def network_curve(p: XfoldedParams, setup: str = DEFAULT_SETUP, loads=()) -> Curve:
    """The curve of ``p``'s network on the simulator set-up ``setup`` (a name of :data:`SETUPS`), at ``loads``.

    ``Curve.model`` is :attr:`XfoldedParams.model` (the keyword arguments of
    :func:`~models.xfolded_tm.solve`); ``Curve.sim`` names the network
    (``topology`` key, ``k``) and its ``routing``; ``Curve.setup`` the set-up.
    The label is ``"<network> [<set-up>]"``.
    """
    t = TOPOLOGIES[p.topology]
    name = named_setup(SETUPS, setup).name
    return Curve(label=f"{t['label']} [{name}]", model=p.model, sim=dict(topology=p.topology, k=p.k,
                                                                         routing=t["routing"]),
                 setup=name, loads=loads)
