"""The light half of the experiment vocabulary: simulator set-ups, run lengths and the 80 % cut.

What a chapter's ``setups.py`` declares and what its command line
(``__main__.py``, ``--help``) must read without importing pandas, numba or
a simulator, so that each value is written once (DESIGN.md, "A chapter"):

* :class:`SimulatorSetup` -- a named simulator set-up: what it is, what it
  stands for (``"paper"``: as the paper's text states; ``"model"``: as the
  model assumes; ``""``: neither, kept to show what changes) and its simulator
  keyword overrides.  A chapter keeps its set-ups in ``SETUPS`` (name ->
  set-up) with ``DEFAULT_SETUP`` naming the one its verdicts rest on.
* :class:`SimSettings` -- run lengths, seed, precision, saturation search and
  worker processes of the simulations of a figure (or of ``curve
  --simulate``), each run length bounded by :data:`MAX_RUN` (:func:`require_run_length`, the one guard
  of every place a run length enters).
* :class:`RunLengths` -- a chapter's default run length of ``compare`` and
  ``curve --simulate`` (its ``setups.RUN``).
* :class:`Curve` and :class:`Figure` -- one model-vs-simulation curve (its
  model and simulator keywords, its set-up, its loads) and a labelled figure
  of curves: what :mod:`models.core.experiment` runs.
* :data:`BELOW` and :data:`ACCURACY_FRACTIONS` -- the cut of the book's
  accuracy number and the fixed fractions of the simulated saturation load it
  is taken at (:func:`models.core.claims.worst_error_below`).
* :func:`not_allowed_with`, :func:`only_used_with` -- the words of the
  refusals the ``curve`` command and ``compare`` share (an option that
  excludes another; one given without the one it needs).

This module imports only numpy and the ``core`` checks (the rest of the
vocabulary, with pandas, is :mod:`models.core.claims`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Mapping, Sequence

import numpy as np

from .cache import stable_hash
from .cores import AUTO, require_jobs
from .errors import ParameterError
from .validate import require, require_choice

__all__ = ["BELOW", "ACCURACY_FRACTIONS", "STANDS_FOR", "MAX_RUN", "MAX_BATCHES", "require_run_length",
           "not_allowed_with", "only_used_with", "STYLES", "FONTS", "POINTS", "SEED", "JOBS", "GRID", "UPTO_MODEL",
           "UPTO_SIM", "SAT_RTOL", "SimulatorSetup", "named_setup", "SimSettings", "RunLengths", "Curve", "Figure",
           "FRACTIONS_OF", "ERROR_FRACTIONS"]

#: The comparison's constants, the one set of defaults of ``compare()`` (``core.compare.RunOptions``) and of the
#: ``curve`` command (``core.cli``, its ``--help``) alike, so that the same call gives the same numbers:
#: figure styles of ``Comparison.plot`` / ``--style`` (the book's column figure, a single-column paper figure),
STYLES = ("book", "paper")
#: the figure's typeface (``Comparison.save(font=...)`` / ``--font``): the book's sans serif, or a Times-like serif
#: (STIX, shipped with matplotlib) for a journal set in Times,
FONTS = ("sans", "serif")
#: loads of the default grid (``points`` / ``--points``; the fixed accuracy fractions are added to it),
POINTS = 10
#: the simulation's random seed and worker processes (``seed``/``jobs``, ``--seed``/``--jobs``); the run lengths
#: are the chapter's ``setups.RUN`` (:class:`RunLengths`) for both,
SEED = 1
JOBS = 1
#: model loads on the drawn line (the fine grid of ``compare``, ``--plot``),
GRID = 160
#: the default ``upto`` of the loads: a fraction of the model's saturation load (no simulated one) ...
UPTO_MODEL = 0.9
#: ... or of the simulated saturation load (up to the simulation's own saturation),
UPTO_SIM = 1.0
#: and the relative tolerance of the model's saturation load.
SAT_RTOL = 1e-4

#: Largest run length (measured messages or cycles) and warm-up of any simulation, the one bound of
#: ``SimSettings``, ``RunLengths``, every chapter's ``compare`` and ``curve --messages/--cycles/--warmup``
#: (:func:`require_run_length`).  Set by memory: the wormhole simulators keep a 29-byte record of every
#: measured message (its latency, network latency, source wait, hops: ``models.sim.wormhole.steps.Tags``),
#: so a run of 10**8 messages holds 2.7 GiB (``models.sim.wormhole.common.tag_capacity``; up to twice that if
#: ``target_ci`` lengthens it; one run per ``--jobs`` worker) and fits in a machine of 16-24 GiB, where 10**9
#: (27 GiB) does not.  Still far above any run of the chapters (a few million at the papers' scale): 10**8
#: messages are about 40 minutes of simulation of an 8x8 torus at low load (hours on larger networks or near
#: saturation), 10**8 cycles of ``min_mva``'s closed simulator under a minute.
MAX_RUN = 10**8

#: Most batches of a batch-means confidence interval (``SimSettings.batches``; each batch is a row of the
#: closed simulator's accumulators): far above the 10 to 50 any run uses.
MAX_BATCHES = 10_000

#: Errors behind a verdict are judged at the simulated loads strictly below this fraction of the simulated
#: saturation load (above it the simulated latency is dominated by the approach to saturation, where a few
#: percent of load move the latency by a factor; DESIGN.md, "The experiment vocabulary").
BELOW = 0.8

#: The fixed fractions of the simulated saturation load at which the worst error behind a verdict is taken, the
#: same in the book, the ``curve`` command and ``compare()`` whatever other loads a grid holds (every book grid
#: holds them; ``compare`` adds them to its simulated loads): the worst error is then a property of the curve,
#: not of the grid (the referee of cf1263c: one 12x12 torus gave 10.1 % with ``--points 6`` and 29.5 % with
#: ``--points 8``).  All below :data:`BELOW`.
ACCURACY_FRACTIONS = (0.25, 0.5, 0.75)

#: What a simulator set-up may stand for: the paper's text, the model's assumptions, or neither.
STANDS_FOR = ("paper", "model", "")


# ----------------------------------------------------------------------------
# The one bound on run lengths, and the refusals worded once
# ----------------------------------------------------------------------------
def require_run_length(name: str, value: Any, lo: int = 1, *, unit: str) -> int:
    """``value`` as a run length or warm-up (messages or cycles): an integer in ``[lo, MAX_RUN]``, else a
    :class:`ParameterError` naming ``name``.

    The one guard of every place a run length enters: :class:`SimSettings`, :class:`RunLengths`,
    ``compare``'s run options (:class:`models.core.compare.RunOptions`) and the ``curve`` command's
    ``--messages``, ``--cycles`` and ``--warmup`` (:mod:`models.core.cli`), so that a run that is accepted
    fits in memory (:data:`MAX_RUN`).
    """
    return require(name, value, lo, MAX_RUN, unit=unit, integer=True)


def not_allowed_with(option: str, other: str) -> str:
    """The one wording of an option given with another that excludes it, spelt as the caller's user spells
    them: ``"--loads: not allowed with --points"`` (the ``curve`` command: argparse's words) or
    ``"`loads`: not allowed with `points`"`` (``compare``)."""
    return f"{option}: not allowed with {other}"


def only_used_with(option: str, needed: str, leave_out: str, *, add: str | None = None) -> str:
    """The one wording of an option given without the one it needs, never silently ignored:
    ``"--seed: only used with --simulate; add --simulate, or leave out --seed"`` (the command) or
    ``"`seed`: only used with simulate=True; add simulate=True, or leave out seed"`` (``compare``).
    ``add``: what to add, when it is more than ``needed`` itself (``"--plot FILE.svg"``)."""
    return f"{option}: only used with {needed}; add {add or needed}, or leave out {leave_out}"


# ----------------------------------------------------------------------------
# Simulator set-ups
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SimulatorSetup:
    """A named simulator set-up: what it is, what it stands for, and the simulator keywords it fixes.

    name : str
        The set-up's name (``Curve.setup``), e.g. ``"paper"``, ``"model"``.
    description : str
        One line: what the set-up simulates and whose description it follows.
    stands_for : {"paper", "model", ""}
        ``"paper"``: as the paper's text states its simulation; ``"model"``:
        as the model assumes; ``""``: neither (shown to say what changes, never
        the basis of a verdict).
    overrides : mapping
        Simulator keyword arguments the set-up fixes.  A value ``"V"`` stands
        for the curve's number of virtual channels (``model["V"]``); a callable
        value is called with the curve's model keywords (e.g.
        ``lambda model: 4 * model["V"]``).
    short : str
        A few words for legends (default: the name).
    """

    name: str
    description: str
    stands_for: str = ""
    overrides: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    short: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ParameterError(f"a set-up's `name` must be a non-empty string; got {self.name!r}")
        if not isinstance(self.description, str):
            raise ParameterError(f"set-up {self.name!r}: `description` must be a string")
        require_choice("stands_for", self.stands_for, STANDS_FOR)
        if not isinstance(self.overrides, Mapping):
            raise ParameterError(f"set-up {self.name!r}: `overrides` must be a mapping of simulator keywords")
        object.__setattr__(self, "overrides", dict(self.overrides))
        if not self.short:
            object.__setattr__(self, "short", self.name)

    @property
    def knobs(self) -> tuple:
        """The simulator keywords the set-up fixes."""
        return tuple(self.overrides)

    def sim(self, model: Mapping[str, Any] | int | None = None) -> dict:
        """The simulator keywords for a curve whose model keywords are ``model`` (placeholders resolved).

        ``model`` may also be the number of virtual channels alone (``V``).
        """
        if model is not None and not isinstance(model, Mapping):
            model = {"V": model}
        out = {}
        for key, value in self.overrides.items():
            if isinstance(value, str) and value == "V":
                if model is None or "V" not in model:
                    raise ParameterError(f"set-up {self.name!r}: {key}='V' needs the curve's number of VCs `V`")
                value = int(model["V"])
            elif callable(value):
                if model is None:
                    raise ParameterError(f"set-up {self.name!r}: {key} depends on the curve's model keywords")
                value = value(model)
            out[key] = value
        return out

    @property
    def decides(self) -> bool:
        """Whether numbers on this set-up may decide a verdict (it stands for the paper or the model)."""
        return self.stands_for != ""


def named_setup(setups: Mapping[str, SimulatorSetup], name: str | SimulatorSetup) -> SimulatorSetup:
    """``setups[name]`` (a set-up passes through), else a :class:`ParameterError` listing the names."""
    if isinstance(name, SimulatorSetup):
        return name
    if not isinstance(name, str) or name not in setups:
        raise ParameterError(f"`setup` must be one of {list(setups)}; got {name!r}")
    return setups[name]


# ----------------------------------------------------------------------------
# Run lengths
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SimSettings:
    """Run lengths, seed, precision, saturation search and processes of a figure's simulations.

    messages : int
        Measured messages per point (after the warm-up); open networks.
    warmup_messages : int
        Messages discarded before measuring.
    cycles, warmup_cycles : int or None
        Run length and warm-up in cycles, for a closed system (``min_mva``),
        whose simulator counts cycles, not messages.
    batches : int
        Batches of the batch-means confidence interval (2 to :data:`MAX_BATCHES`).
    seed : int
        Random seed of every run.
    target_ci : float or None
        Relative 95 % half width of the latency: a run measures
        ``min_messages`` first and is lengthened until that precise, up to
        ``messages``.  None: fixed length.
    min_messages : int or None
        First length of a ``target_ci`` run (default ``messages``).
    sat_messages : int or None
        Measured messages per probe of the simulated saturation search
        (default ``messages``).
    sat_rtol : float
        Relative width of the final saturation bracket (searches that expand a guess).
    sat_steps : int or None
        Bisection steps of a fixed-resolution saturation search (chapters whose
        search starts from a fixed bracket); None: the chapter's default.
    jobs : int or "auto"
        Worker processes of a sweep.  ``"auto"`` (default): 1 (the sweep runs
        in the calling process), except inside ``python -m models.pipeline
        --jobs N``, where it is N and the points share the pipeline's N cores
        with the other notebooks (:mod:`models.core.cores`).  A number is
        that many processes (in a pipeline: at most that many, each point
        still waiting for a core).
    cache : bool
        Whether runs are cached on disk (:mod:`models.sim.sweep`).
    progress : bool
        Show a progress bar on stderr while points are simulated (the
        ``curve --simulate`` command turns it on when stderr is a terminal;
        notebooks report to the pipeline instead, :mod:`models.core.progress`).
    """

    messages: int = 20_000
    warmup_messages: int = 2_000
    cycles: int | None = None
    warmup_cycles: int | None = None
    batches: int = 20
    seed: int = 1
    target_ci: float | None = None
    min_messages: int | None = None
    sat_messages: int | None = None
    sat_rtol: float = 0.02
    sat_steps: int | None = None
    jobs: int | str = AUTO
    cache: bool = True
    progress: bool = False

    def __post_init__(self):
        require_run_length("messages", self.messages, 100, unit="measured messages per point")
        require_run_length("warmup_messages", self.warmup_messages, 0, unit="discarded messages per point")
        if self.cycles is not None:
            require_run_length("cycles", self.cycles, unit="simulated cycles per point")
        if self.warmup_cycles is not None:
            require_run_length("warmup_cycles", self.warmup_cycles, 0, unit="discarded cycles per point")
        require("batches", self.batches, 2, MAX_BATCHES, unit="batches of the confidence interval", integer=True)
        require("seed", self.seed, 0, unit="random seed", integer=True)
        if self.target_ci is not None:
            require("target_ci", self.target_ci, 0, 1, lo_open=True, unit="relative 95% half width")
        if self.min_messages is not None:
            require_run_length("min_messages", self.min_messages, 100, unit="first length of a target_ci run")
        if self.sat_messages is not None:
            require_run_length("sat_messages", self.sat_messages, 100, unit="messages per saturation probe")
        require("sat_rtol", self.sat_rtol, 0, 0.5, lo_open=True, unit="relative bracket width")
        if self.sat_steps is not None:
            require("sat_steps", self.sat_steps, 1, unit="bisection steps", integer=True)
        require_jobs(self.jobs)
        if not isinstance(self.cache, (bool, np.bool_)):
            raise ParameterError(f"`cache` must be True or False; got {self.cache!r}")

    @property
    def probe_messages(self) -> int:
        """Measured messages of one saturation probe (``sat_messages``, else ``messages``)."""
        return int(self.sat_messages if self.sat_messages is not None else self.messages)

    def replace(self, **changes) -> "SimSettings":
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def run_lengths(self) -> dict:
        """The run-length keywords of :func:`models.sim.wormhole.simulate` (measured messages).

        Fixed length (``target_ci`` None): ``messages``.  Precision-driven: ``min_messages`` measured messages
        first (default, and at most, ``messages``), then lengthened (x1.5 at a time) until the latency's 95 %
        half width is within ``target_ci`` of its mean, at most ``messages`` (the cap), so no point is less
        precise than a fixed run of ``messages`` would be unless it stopped because it already was precise
        enough.
        """
        if self.target_ci is None:
            return {"messages": int(self.messages)}
        least = self.messages if self.min_messages is None else min(self.min_messages, self.messages)
        return {"messages": int(least), "target_ci": float(self.target_ci), "max_messages": int(self.messages)}

    def fixed_length(self) -> "SimSettings":
        """These settings without a precision target: runs of exactly ``messages`` (saturation probes and runs
        whose verdict, not a mean, is what they measure)."""
        return self.replace(target_ci=None, min_messages=None)


@dataclasses.dataclass(frozen=True)
class RunLengths:
    """A chapter's default run length of ``compare`` and ``curve --simulate``, declared in its ``setups.py``.

    unit : {"messages", "cycles"}
        What the run length counts: measured messages after the warm-up
        (open networks), or cycles, the warm-up included (the closed ``min_mva``).
    length, warmup : int
        The defaults of ``messages`` (or ``cycles``) and ``warmup``: shorter
        than the book's runs (a curve in minutes, not hours).
    """

    unit: str = "messages"
    length: int = 20_000
    warmup: int = 2_000

    def __post_init__(self):
        require_choice("unit", self.unit, ("messages", "cycles"))
        require_run_length("length", self.length, unit=self.unit)
        require_run_length("warmup", self.warmup, 0, unit=self.unit)


# ----------------------------------------------------------------------------
# Curves and figures
# ----------------------------------------------------------------------------
#: What a curve's loads are fractions of: absolute loads (None), the simulated or the model's saturation load.
FRACTIONS_OF = (None, "sim", "model")

#: Fractions of the saturation load at which the chapters tabulate errors.
ERROR_FRACTIONS = (0.25, 0.5, 0.75, 0.9)

_LABEL = re.compile(r"^fig-[a-z][a-z0-9_]*-[a-z0-9][a-z0-9_.-]*$")


def finite_nonneg(name, value, *, positive=False) -> float:
    """``value`` as a float, checked finite and >= 0 (> 0 with ``positive``); a :class:`ParameterError` naming
    ``name`` otherwise (a load, a fraction of a saturation load)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ParameterError(f"`{name}` must be a number; got {value!r}")
    v = float(value)
    if not math.isfinite(v) or v < 0 or (positive and v == 0):
        raise ParameterError(f"`{name}` must be finite and {'> 0' if positive else '>= 0'}; got {value!r}")
    return v


# ----------------------------------------------------------------------------
# Curves and figures
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Curve:
    """One model-vs-simulation curve.

    label : str
        Legend and table label (unique within a figure).
    model : dict
        Keyword arguments of the chapter's model (e.g. ``{"k": 8, "M": 32, "V": 10}``).
    sim : dict
        Keyword arguments (or overrides) of the chapter's simulator.
    setup : str
        Name of the simulator set-up the simulated numbers rest on
        (e.g. ``"paper"``, ``"model's assumptions"``); ``""`` if there is one.
    loads : tuple of float
        Absolute loads (the figure's x unit) when ``fractions_of`` is None,
        else fractions (> 0) of the saturation load named by ``fractions_of``.
    fractions_of : {None, 'sim', 'model'}
        ``'sim'`` falls back to the model's saturation load when there is no
        simulation.
    """

    label: str
    model: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    sim: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    setup: str = ""
    loads: tuple = ()
    fractions_of: str | None = None

    def __post_init__(self):
        if not isinstance(self.label, str) or not self.label:
            raise ParameterError(f"`label` must be a non-empty string; got {self.label!r}")
        for name in ("model", "sim"):
            value = getattr(self, name)
            if not isinstance(value, Mapping):
                raise ParameterError(f"`{name}` must be a mapping of keyword arguments; got {value!r}")
            object.__setattr__(self, name, dict(value))
        if not isinstance(self.setup, str):
            raise ParameterError(f"`setup` must be a string (the simulator set-up's name); got {self.setup!r}")
        if self.fractions_of not in FRACTIONS_OF:
            raise ParameterError(f"`fractions_of` must be one of None, 'sim', 'model'; got {self.fractions_of!r}")
        if isinstance(self.loads, (str, bytes)) or not isinstance(self.loads, (Sequence, np.ndarray)):
            raise ParameterError(f"`loads` must be a sequence of numbers; got {self.loads!r}")
        what = "load" if self.fractions_of is None else "fraction"
        loads = tuple(finite_nonneg(what, x, positive=self.fractions_of is not None) for x in self.loads)
        object.__setattr__(self, "loads", loads)

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def key(self) -> str:
        """Stable hash of every field (for cache keys)."""
        return stable_hash({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    def replace(self, **changes) -> "Curve":
        """A copy with some fields changed (``model``/``sim`` are replaced, not merged)."""
        return dataclasses.replace(self, **changes)


@dataclasses.dataclass(frozen=True)
class Figure:
    """A figure: label ``fig-<chapter>-<what>``, title, curves, axis names and units.

    The x axis is the load the curves' functions take (``x_unit``, e.g.
    ``"messages/node/cycle"``); the y axis is ``quantity`` (``y_unit``, e.g.
    ``"cycles"``).
    """

    label: str
    title: str
    curves: tuple
    x_label: str = "generation rate"
    x_unit: str = "messages/node/cycle"
    y_label: str = "mean message latency"
    y_unit: str = "cycles"
    quantity: str = "latency"

    def __post_init__(self):
        if not isinstance(self.label, str) or not _LABEL.match(self.label):
            raise ParameterError(f"`label` must look like 'fig-<chapter>-<what>' (lower case); got {self.label!r}")
        curves = tuple(self.curves)
        if not curves or not all(isinstance(c, Curve) for c in curves):
            raise ParameterError("`curves` must be a non-empty sequence of Curve")
        labels = [c.label for c in curves]
        dup = sorted({x for x in labels if labels.count(x) > 1})
        if dup:
            raise ParameterError(f"curve labels must be unique within a figure; repeated: {dup}")
        object.__setattr__(self, "curves", curves)
        for name in ("title", "x_label", "x_unit", "y_label", "y_unit", "quantity"):
            if not isinstance(getattr(self, name), str):
                raise ParameterError(f"`{name}` must be a string; got {getattr(self, name)!r}")

    @property
    def chapter(self) -> str:
        """The chapter slug of the label (``fig-<chapter>-...``)."""
        return self.label.split("-")[1]

    @property
    def xlabel(self) -> str:
        """``"<x_label> [<x_unit>]"``."""
        return f"{self.x_label} [{self.x_unit}]" if self.x_unit else self.x_label

    @property
    def ylabel(self) -> str:
        """``"<y_label> [<y_unit>]"``."""
        return f"{self.y_label} [{self.y_unit}]" if self.y_unit else self.y_label

    def curve(self, label: str) -> Curve:
        """The curve called ``label``."""
        for c in self.curves:
            if c.label == label:
                return c
        raise ParameterError(f"figure {self.label} has no curve {label!r}; it has {[c.label for c in self.curves]}")
