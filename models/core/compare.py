"""Model against simulation in one call: the :class:`Comparison` and the one loop behind every chapter's ``compare``.

Each chapter's ``compare(...)`` (``models.<slug>.compare``, the front door's
``models.<slug>.compare``) takes the chapter's own parameter names, units and
defaults -- those of its command ``python -m models.<slug> curve`` -- checks
them with the chapter's own validation, builds the chapter's
:class:`~models.core.setups.Curve` and hands it to :func:`compare` here
with the chapter's functions.  :func:`compare` then does the same thing for
every chapter, in this order:

1. **The model's saturation load**, the chapter's ``saturation_load`` (to
   relative tolerance :data:`SAT_RTOL`).  For the closed system of
   ``min_mva`` there is none: its ``saturation_load`` is the knee ``N*`` of
   the asymptotic bounds, kept as :attr:`Comparison.knee`, which only spaces
   the default loads.
2. **The simulated saturation load** (open systems; by default when the
   loads depend on it, i.e. without ``loads``, as the ``curve`` command): the
   chapter's own search, the one its figures use
   (``models.<slug>.experiments.sim_saturation``: a bisection of the
   simulator's saturated verdict, :func:`models.core.saturation.find_saturation`),
   kept with its bracket ``(lo, hi)``: ``lo`` the largest load found
   unsaturated, ``hi`` the smallest found saturated.
3. **The loads**: the ``loads`` given, or ``points`` loads
   ``upto * S * i / points`` (``i = 1..points``) where ``S`` is the simulated
   saturation load (``upto`` default :data:`UPTO_SIM` = 1: up to the
   simulation's own saturation), or, without a simulated one, the model's
   (``upto`` default :data:`UPTO_MODEL` = 0.9); integers for a closed system.
4. **The simulation** at those loads (the chapter's
   ``experiments.simulate_curve``: the same model-to-simulator translation as
   its notebooks, every point cached on disk): the loads at the fixed
   accuracy fractions as one list of their own first, so they are the same
   runs whatever other loads the grid holds (``torus_ipp`` seeds a load by
   its place in the list), then the others.
5. **The model** at those loads and on a fine grid of ``grid`` loads over the
   whole x range (up to 5 % past the largest load or saturation load shown,
   refined towards the model's saturation), by the chapter's ``solve_curve``.
   A load where the model has no finite, non-negative latency is saturated:
   ``inf`` (never NaN, never negative).
6. **The error table** (:attr:`Comparison.errors`): the signed relative error
   ``(model - sim) / sim`` at every simulated load (``+inf`` where only the
   model is saturated; none where the simulation is), and the book's number,
   the worst ``|error|`` at the fixed fractions
   :data:`~models.core.setups.ACCURACY_FRACTIONS` (25, 50, 75 %) of the
   *simulated* saturation load, which :func:`compare` always simulates
   whatever ``points``, as the same runs, so the number is the curve's and
   never moves with the grid (:func:`models.core.claims.worst_error_below`, DESIGN.md
   "The experiment hook"; "unbounded" decided from the model's saturation load
   against the simulated search's bracket).  Given ``loads``, the worst is
   over those below 80 % and :attr:`Comparison.worst_rule` says it is not the
   book's number.  Without a simulated saturation load (a closed system, or
   ``search=False``) the worst is taken over every unsaturated simulated load,
   and :attr:`Comparison.worst_rule` says so.

Loads are in the chapter's unit (``LOAD_UNIT``, messages/node/cycle for the
open networks, requests/processor for ``min_mva``), latencies in cycles.  The
result holds everything as data (:meth:`Comparison.to_frame`,
:meth:`Comparison.table`, :attr:`Comparison.run`, a
:class:`~models.core.setups.CurveRun` for the book's table functions) and
draws itself (:meth:`Comparison.plot`, :meth:`Comparison.save`: ``style="book"``,
the book's 7.5 in figure, or ``"paper"``, a single-column figure
:data:`~models.core.plotting.PAPER_WIDTH` wide with 8-9 pt text and SVG text
kept as text; ``font="serif"`` for a Times-like face, ``title=False`` for
none; PDF and PostScript with TrueType (Type 42) fonts, never Type 3).
Several comparisons share one axis (:func:`plot_comparisons`,
:func:`save_comparisons`, or ``plot(ax=ax)`` again on the axes of an earlier
one): one colour and marker per configuration, one legend naming what
differs between them.

The defaults (``points``, ``upto``, the run lengths, ``seed``, ``jobs``, the
search) are those of the ``curve`` command, written once in
:mod:`models.core.setups` (``POINTS``, ``UPTO_SIM``/``UPTO_MODEL``,
``SEED``, ``JOBS``, the chapter's ``setups.RUN``), so ``compare(...)`` and
``python -m models.<slug> curve --simulate`` with the same parameters give
the same numbers.

This module imports no chapter and no simulator (the floors of DESIGN.md):
the chapter passes its functions in.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from .claims import accuracy_below, counted_below
from .errors import ParameterError
from .experiment import Curve, CurveRun, sim_record
from .results import ci_column
from .setups import (ACCURACY_FRACTIONS, BELOW, FONTS, GRID, JOBS, POINTS, SAT_RTOL, SEED, STYLES, UPTO_MODEL, UPTO_SIM,
                     RunLengths, SimSettings, not_allowed_with, only_used_with, require_run_length)
from .saturation import Saturation, load_grid
from .validate import MAX_POINTS, require, require_choice, require_loads
from .validation import saturation_aware_error

__all__ = ["Subject", "Comparison", "compare", "module_loader", "RunOptions", "RunLengths", "STYLES", "FONTS",
           "POINTS", "GRID", "UPTO_MODEL", "UPTO_SIM", "SAT_RTOL", "plot_comparisons", "save_comparisons"]

#: Past the largest load or saturation load shown, the x axis goes on by this fraction.
X_MARGIN = 0.05
#: The multiplication sign of network sizes in titles (12×12).
TIMES = "\u00d7"


# ----------------------------------------------------------------------------
# What is compared
# ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Subject:
    """What a comparison is about, in words: the chapter, the network, the load axis and the latency.

    chapter : str
        The chapter's slug (``"torus_dor"``).
    network : str
        The network in words, for titles: size, uni- or bidirectional,
        routing, virtual channels, message length (``"12x12 unidirectional
        torus, dimension-order routing, L = 3 VCs, M = 32 flits"``).
    load : str
        The load's name, the chapter's ``LOAD`` (``"lam_g"``).
    load_label : str
        The load as the book writes it, matplotlib mathtext (``r"$\\lambda_g$"``).
    load_unit : str
        Its unit, the chapter's ``LOAD_UNIT`` (``"messages/node/cycle"``).
    latency : str
        What the latency is (``"mean message latency"``, ``"mean response time R"``); cycles.
    closed : bool
        A closed system (``min_mva``): no saturation load; the loads are populations.
    setup : str
        The simulator set-up in a few words (for the legend; ``""``: the chapter's only one).
    """

    chapter: str
    network: str
    load: str
    load_label: str
    load_unit: str
    latency: str = "mean message latency"
    closed: bool = False
    setup: str = ""

    @property
    def xlabel(self) -> str:
        """``"<load_label> [<load_unit>]"``, e.g. ``"$\\lambda_g$ [messages/node/cycle]"``."""
        return f"{self.load_label} [{self.load_unit}]"

    @property
    def ylabel(self) -> str:
        """``"<latency> [cycles]"``."""
        return f"{self.latency} [cycles]"


@dataclasses.dataclass(frozen=True)
class RunOptions:
    """The run options of every chapter's ``compare`` (its ``**run``), documented and checked here once.

    loads : sequence of float, optional
        The loads to simulate and tabulate (the chapter's ``LOAD`` in its
        ``LOAD_UNIT``, >= 0; integers for a closed system).  Default:
        ``points`` loads evenly up to ``upto`` times the simulated saturation
        load (the model's without a simulation; the knee ``N*`` of a closed system).
    points : int, optional
        How many (default :data:`~models.core.setups.POINTS` = 10, the
        ``curve`` command's ``--points`` default too; at most 10,000); not
        with ``loads``.
    upto : float, optional
        The last default load as a fraction of that saturation load (default
        :data:`UPTO_SIM` = 1.0 of the simulated one, :data:`UPTO_MODEL` = 0.9
        of the model's); not with ``loads``.
    simulate : bool
        Run the simulation (default); False: the model alone (no simulator is imported).
    search : bool, optional
        Search the simulated saturation load with the chapter's own search.
        Default (None): when the loads depend on it (no ``loads``), as the
        ``curve`` command does; True with ``loads`` too (it sets the 80 % line
        of the worst error and is drawn), False never.  Open systems only.
    messages : int, optional
        Measured messages per simulated load (default: the chapter's
        ``setups.RUN``; at most :data:`~models.core.setups.MAX_RUN`); each
        probe of the search measures as many.  Open systems.
    cycles : int, optional
        Simulated cycles per load, the warm-up included (default: the
        chapter's ``setups.RUN``; at most ``MAX_RUN``).  The closed ``min_mva`` only.
    warmup : int, optional
        Discarded warm-up per load, in the same unit (default: the chapter's;
        at most ``MAX_RUN``).
    seed : int, optional
        Random seed (default :data:`~models.core.setups.SEED` = 1).
    jobs : int, optional
        Worker processes for the simulated loads (default :data:`~models.core.setups.JOBS` = 1).
    progress : bool, optional
        A progress bar of the simulated loads on standard error (default off).
    settings : SimSettings, optional
        All of the run settings at once, instead of ``messages`` ...
        ``progress`` (e.g. the chapter's ``setups.SETTINGS``, the book's).
    setup : str, optional
        The simulator set-up, a name of the chapter's ``setups.SETUPS``
        (default its ``DEFAULT_SETUP``).
    grid : int
        Loads of the model's drawn line (default :data:`GRID`; 0: the model
        at ``loads`` only).
    sim : callable, optional
        ``sim(curve, loads) -> [SimPoint, ...]`` in place of the chapter's
        ``experiments.simulate_curve`` (a stand-in simulator, e.g. in a test).

    Every value is checked when the options are made (:class:`ParameterError`
    naming it); :meth:`sim_settings` turns them into the
    :class:`~models.core.setups.SimSettings` of the simulation.  What the
    ``curve`` command refuses is refused here, in its words
    (:func:`~models.core.setups.not_allowed_with`,
    :func:`~models.core.setups.only_used_with`): ``points`` or ``upto`` with
    ``loads``, a simulation option (``messages`` ... ``sim``) with
    ``simulate=False``, a run length above ``MAX_RUN``; never silently ignored.
    """

    loads: Sequence[float] | None = None
    points: int | None = None
    upto: float | None = None
    simulate: bool = True
    search: bool | None = None
    messages: int | None = None
    cycles: int | None = None
    warmup: int | None = None
    seed: int | None = None
    jobs: int | None = None
    progress: bool | None = None
    settings: SimSettings | None = None
    setup: str | None = None
    grid: int = GRID
    sim: Callable | None = None

    #: The names a chapter's ``compare(**run)`` accepts.
    NAMES = ("loads", "points", "upto", "simulate", "search", "messages", "cycles", "warmup", "seed", "jobs",
             "progress", "settings", "setup", "grid", "sim")
    #: The options of the simulation alone (refused with ``simulate=False``).
    SIMULATION = ("messages", "cycles", "warmup", "seed", "jobs", "progress", "settings", "setup", "sim")

    @classmethod
    def of(cls, run: Mapping[str, Any]) -> "RunOptions":
        """The options from a chapter's ``**run``; an unknown name is a :class:`ParameterError` listing them."""
        unknown = sorted(set(run) - set(cls.NAMES))
        if unknown:
            raise ParameterError(f"unknown run option `{unknown[0]}`: the run options are {', '.join(cls.NAMES)} "
                                 "(models.core.compare.RunOptions)")
        return cls(**run)

    def __post_init__(self):
        if not isinstance(self.simulate, (bool, np.bool_)):
            raise ParameterError(f"`simulate` must be True or False; got {self.simulate!r}")
        if self.search is not None and not isinstance(self.search, (bool, np.bool_)):
            raise ParameterError(f"`search` must be True, False or None; got {self.search!r}")
        if self.progress is not None and not isinstance(self.progress, (bool, np.bool_)):
            raise ParameterError(f"`progress` must be True, False or None; got {self.progress!r}")
        if self.loads is not None:
            if isinstance(self.loads, (str, bytes)):
                raise ParameterError(f"`loads` must be a sequence of numbers; got {self.loads!r}")
            object.__setattr__(self, "loads", tuple(require_loads("loads", self.loads, lambda v: require(
                "loads", v, 0, unit="the chapter's load unit"))))
            for name in ("points", "upto"):  # they space the default loads: never silently ignored
                if getattr(self, name) is not None:
                    raise ParameterError(not_allowed_with(f"`{name}`", "`loads`"))
        points = POINTS if self.points is None else self.points
        object.__setattr__(self, "points", require("points", points, 1, MAX_POINTS, unit="loads", integer=True))
        if self.upto is not None:
            require("upto", self.upto, 0, lo_open=True, unit="fraction of the saturation load")
        require("grid", self.grid, 0, MAX_POINTS, unit="model loads on the drawn line", integer=True)
        for name in ("messages", "cycles"):
            if getattr(self, name) is not None:
                require_run_length(name, getattr(self, name), unit=f"simulated {name} per load")
        if self.warmup is not None:
            require_run_length("warmup", self.warmup, 0, unit="discarded warm-up per load")
        if self.seed is not None:
            require("seed", self.seed, 0, unit="random seed", integer=True)
        if self.jobs is not None:
            require("jobs", self.jobs, 1, unit="worker processes", integer=True)
        if self.settings is not None:
            if not isinstance(self.settings, SimSettings):
                raise ParameterError(f"`settings` must be a SimSettings (models.core.setups); got {self.settings!r}")
            given = [n for n in ("messages", "cycles", "warmup", "seed", "jobs", "progress")
                     if getattr(self, n) is not None]
            if given:
                raise ParameterError(f"give `settings` or {', '.join(f'`{n}`' for n in given)}, not both")
        if self.setup is not None and not isinstance(self.setup, str):
            raise ParameterError(f"`setup` must be a set-up's name; got {self.setup!r}")
        if self.sim is not None and not callable(self.sim):
            raise ParameterError(f"`sim` must be callable: sim(curve, loads) -> [SimPoint, ...]; got {self.sim!r}")
        if not self.simulate:
            given = [n for n in self.SIMULATION if getattr(self, n) is not None]
            if given:  # the command's --seed ... without --simulate, in its words
                raise ParameterError(only_used_with(f"`{given[0]}`", "simulate=True", ", ".join(given)))

    def sim_settings(self, lengths: RunLengths) -> SimSettings:
        """The :class:`~models.core.setups.SimSettings` of the simulation: :attr:`settings` as given, or built
        from the run options with the chapter's defaults ``lengths`` (a run length in the other unit is a
        :class:`ParameterError`)."""
        if self.settings is not None:
            return self.settings
        other = "cycles" if lengths.unit == "messages" else "messages"
        if getattr(self, other) is not None:
            raise ParameterError(f"`{other}`: this chapter's runs are counted in {lengths.unit}; give "
                                 f"`{lengths.unit}`")
        length = getattr(self, lengths.unit)
        length = lengths.length if length is None else length
        warmup = lengths.warmup if self.warmup is None else self.warmup
        common = dict(seed=SEED if self.seed is None else self.seed, jobs=JOBS if self.jobs is None else self.jobs,
                      progress=bool(self.progress))
        if lengths.unit == "cycles":
            if warmup >= length:
                raise ParameterError(f"`warmup` must be less than `cycles` ({length}); got {warmup}")
            return SimSettings(cycles=length, warmup_cycles=warmup, **common)
        return SimSettings(messages=length, warmup_messages=warmup, **common)


# ----------------------------------------------------------------------------
# The result
# ----------------------------------------------------------------------------
def _load_text(x: float) -> str:
    return f"{x:.4g}" if math.isfinite(x) else str(x)


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Comparison:
    """The model against the simulation on one network (:func:`compare`; loads in the chapter's unit, times in cycles).

    subject : Subject
        The chapter, the network in words, the load axis and the latency.
    params : dict
        The chapter's parameters as ``compare`` was called (its model keywords).
    setup : str
        The simulator set-up's name (``""`` without a simulation).
    settings : SimSettings or None
        The run lengths, seed and processes of the simulation (None without one).
    loads : tuple of float
        The chosen loads, in order: where the simulation runs and the table's rows.
    model : DataFrame
        The model on the fine grid and at ``loads``, sorted by load: ``load``,
        ``latency`` (cycles; ``inf`` where saturated), ``saturated``.
    sim : DataFrame or None
        The simulation at ``loads``, in order: ``load``, ``fraction`` (of the
        simulated saturation load; NaN when there is none), ``latency``
        (cycles; ``inf`` when saturated), ``latency CI`` (half width of the
        95 % confidence interval, batch means), ``saturated``, and the
        chapter's other numeric columns.  None without a simulation.
    errors : DataFrame
        The error table, one row per simulated load: ``load``, ``fraction``,
        ``model latency``, ``sim latency``, ``sim CI95``, ``sim saturated``,
        ``error`` (signed, a fraction: ``(model - sim) / sim``; ``+inf`` where
        only the model is saturated, NaN where the simulation is) and
        ``counted`` (the point enters :attr:`worst_error`).  Empty without a simulation.
    model_saturation : float
        The model's saturation load (the chapter's ``saturation_load``); NaN
        for a closed system or when not needed (explicit loads, no grid, no search).
    sim_saturation : float
        The simulated saturation load, the midpoint of the search's final
        bracket; NaN when not searched (or a closed system).
    sim_bracket : tuple of float
        ``(lo, hi)``: the largest load the search found unsaturated and the
        smallest it found saturated ((NaN, NaN) when not searched).
    knee : float
        For a closed system, the knee ``N*`` of the asymptotic bounds (the
        chapter's ``saturation_load``; not a saturation load); NaN otherwise.
    worst_error : float
        The worst ``|model - sim| / sim`` (a fraction) by :attr:`worst_rule`:
        at 25, 50 and 75 % of the simulated saturation load
        (:func:`models.core.claims.accuracy_below`), else over every
        unsaturated simulated load; ``inf`` when the model is saturated at
        such a load and the simulation is not; NaN when no load counts.
    worst_at : float
        The load of :attr:`worst_error` (NaN when none).
    uncertain : str
        ``""``, or why :attr:`worst_error` may or may not be unbounded: the
        model's saturation load lies inside the simulated search's bracket at
        one of the fixed fractions (a claims row would be "uncertain").
    worst_rule : str
        Which loads :attr:`worst_error` is taken over, in words.
    run : CurveRun
        The same numbers as a :class:`~models.core.setups.CurveRun` (its
        ``params["load basis"]`` is ``"sim"`` when there is a simulated
        saturation load), for :func:`models.core.experiment.error_table` and
        :func:`models.core.claims.worst_error_below`.
    """

    subject: Subject
    params: dict
    setup: str
    settings: SimSettings | None
    loads: tuple
    model: pd.DataFrame
    sim: pd.DataFrame | None
    errors: pd.DataFrame
    model_saturation: float
    sim_saturation: float
    sim_bracket: tuple
    knee: float
    worst_error: float
    worst_at: float
    worst_rule: str
    run: CurveRun
    uncertain: str = ""

    # ------------------------------------------------------------------ numbers
    @property
    def simulated(self) -> bool:
        """Whether the comparison holds a simulation."""
        return self.sim is not None

    @property
    def worst_finite_error(self) -> tuple[float, float]:
        """``(error, load)``: the worst finite ``|error|`` among the loads :attr:`worst_error` counts
        (the loads where the model is saturated left out); ``(NaN, NaN)`` when there is none."""
        e = self.errors
        if e.empty:
            return math.nan, math.nan
        err = np.abs(e["error"].to_numpy(dtype=float))
        ok = e["counted"].to_numpy(dtype=bool) & np.isfinite(err)
        if not ok.any():
            return math.nan, math.nan
        i = int(np.argmax(np.where(ok, err, -1.0)))
        return float(err[i]), float(e["load"].iloc[i])

    @property
    def saturation_ratio(self) -> float:
        """The model's saturation load over the simulated one (NaN when either is unknown)."""
        sm, ss = self.model_saturation, self.sim_saturation
        return sm / ss if math.isfinite(sm) and math.isfinite(ss) and ss > 0 else math.nan

    def model_at(self, loads: Sequence[float] | None = None) -> pd.DataFrame:
        """The model's rows at ``loads`` (default :attr:`loads`), in that order: ``load``, ``latency``, ``saturated``."""
        loads = self.loads if loads is None else tuple(loads)
        table = self.model.drop_duplicates("load").set_index("load")
        missing = [x for x in loads if x not in table.index]
        if missing:
            raise ParameterError(f"the model was not solved at the load(s) {missing[:3]}; its loads are the "
                                 "comparison's `loads` and its grid")
        return table.loc[list(loads)].reset_index()

    def table(self) -> pd.DataFrame:
        """One row per chosen load, as the command's CSV: ``load``, ``model latency``, ``model saturated`` and,
        with a simulation, ``sim latency``, ``sim CI95`` (95 % half width), ``sim saturated`` (cycles)."""
        m = self.model_at()
        out = pd.DataFrame({"load": list(self.loads), "model latency": m["latency"].to_numpy(dtype=float),
                            "model saturated": m["saturated"].to_numpy(dtype=bool)})
        if self.sim is not None:
            out["sim latency"] = self.sim["latency"].to_numpy(dtype=float)
            out["sim CI95"] = self.sim[ci_column("latency")].to_numpy(dtype=float)
            out["sim saturated"] = self.sim["saturated"].to_numpy(dtype=bool)
        return out

    def to_frame(self) -> pd.DataFrame:
        """Tidy: one row per load and source (``"model"``, ``"sim"``), model rows first, each by load.

        Columns: ``source``, ``load`` (the chapter's unit), ``latency``
        (cycles; ``inf`` where saturated), ``CI95`` (the simulation's 95 %
        half width; NaN for the model), ``saturated``, ``fraction`` (of the
        simulated saturation load; NaN when there is none) and ``error`` (the
        simulated rows' signed relative error of the model, a fraction; NaN
        for the model's rows).
        """
        ss = self.sim_saturation
        m = self.model
        frames = [pd.DataFrame({"source": "model", "load": m["load"].to_numpy(dtype=float),
                                "latency": m["latency"].to_numpy(dtype=float), "CI95": math.nan,
                                "saturated": m["saturated"].to_numpy(dtype=bool),
                                "fraction": m["load"].to_numpy(dtype=float) / ss if math.isfinite(ss) else math.nan,
                                "error": math.nan})]
        if self.sim is not None:
            s, e = self.sim, self.errors
            frames.append(pd.DataFrame({"source": "sim", "load": s["load"].to_numpy(dtype=float),
                                        "latency": s["latency"].to_numpy(dtype=float),
                                        "CI95": s[ci_column("latency")].to_numpy(dtype=float),
                                        "saturated": s["saturated"].to_numpy(dtype=bool),
                                        "fraction": s["fraction"].to_numpy(dtype=float),
                                        "error": e["error"].to_numpy(dtype=float)}))
        return pd.concat(frames, ignore_index=True)

    def summary(self) -> str:
        """One line: the worst error by the book's rule and where, and the saturation loads' ratio.

        E.g. ``worst |error| below 80% of the simulated saturation: 12.3% (at
        lam_g = 0.0123); model saturates at 0.91x the simulated load (0.0101
        vs 0.0111 messages/node/cycle)``.
        """
        s = self.subject
        if not self.simulated:
            sat = (f"; model saturation load {_load_text(self.model_saturation)} {s.load_unit}"
                   if math.isfinite(self.model_saturation) else "")
            return f"no simulation{sat}"
        w = self.worst_error
        if math.isnan(w):
            what = "none (no simulated load counts)"
        elif math.isinf(w):
            what = f"unbounded (the model is saturated at {s.load} = {_load_text(self.worst_at)}, the simulation is not"
            finite, at = self.worst_finite_error
            what += f"; worst finite {100 * finite:.1f}% at {_load_text(at)})" if math.isfinite(finite) else ")"
        else:
            what = f"{100 * w:.1f}% (at {s.load} = {_load_text(self.worst_at)})"
        text = f"worst |error| {self.worst_rule}: {what}"
        if self.uncertain:
            text += f" (uncertain: {self.uncertain})"
        ratio = self.saturation_ratio
        if math.isfinite(ratio):
            text += (f"; model saturates at {ratio:.2f}x the simulated load ({_load_text(self.model_saturation)} vs "
                     f"{_load_text(self.sim_saturation)} {s.load_unit})")
        elif not s.closed and not math.isfinite(self.sim_saturation):
            text += "; the simulated saturation load was not searched"
        return text

    def __repr__(self) -> str:
        s = self.subject
        sim = (f"{len(self.sim)} simulated loads, sim saturation {_load_text(self.sim_saturation)}"
               if self.simulated else "model only")
        sat = (f"knee N* {_load_text(self.knee)} (a closed system)" if s.closed
               else f"model saturation {_load_text(self.model_saturation)}")
        if s.closed and self.simulated:
            sim = f"{len(self.sim)} simulated loads"
        return (f"Comparison({s.chapter}: {s.network}; {len(self.loads)} loads ({s.load}, {s.load_unit}), "
                f"{sim}, {sat}; {self.summary()})")

    # ------------------------------------------------------------------ figures
    def plot(self, style: str = "book", *, ax=None, title: bool = True, font: str = "sans", label: str | None = None):
        """The figure: model line on its fine grid, simulated points with 95 % CIs, saturation loads; returns it.

        ``style="book"``: the book's figure (:data:`~models.core.plotting.COLUMN_WIDTH`
        wide, 9 pt text); ``"paper"``: a single-column figure
        :data:`~models.core.plotting.PAPER_WIDTH` wide with 8 pt ticks and
        legend and 9 pt labels and title (:data:`~models.core.plotting.PAPER_STYLE`).
        ``font``: ``"sans"`` (the book's) or ``"serif"`` (Times-like STIX,
        :data:`~models.core.plotting.FONT_STYLES`).  ``title``: False for no
        title (a paper's caption says it).
        The title names the network (uni- or bidirectional, size, VCs,
        message length), the axes are labelled as the book writes them
        (``\u03bb_g [messages/node/cycle]``, ``... [cycles]``), y starts at 0.
        Saturated simulated loads are drawn at the top of the axes as filled
        triangles (``simulation saturated``), never dropped; the model's and
        the simulation's saturation loads are dashed and dotted vertical
        lines, named in the legend with their values.  ``ax``: draw into
        these axes instead of a new figure; axes that already hold
        comparisons drawn here get this one beside them, as
        :func:`plot_comparisons` draws several (one colour and marker each,
        one legend; ``label`` names this one in it, default what differs).
        Save with :meth:`save` to keep a paper figure's SVG text as text.
        """
        return plot_comparisons([self], style, ax=ax, title=title, font=font,
                                labels=None if label is None else [label])

    def save(self, path: str | Path, style: str = "book", *, title: bool = True, font: str = "sans") -> Path:
        """Draw (:meth:`plot`) and write the figure to ``path`` (.svg, .png or .pdf); returns the path.

        ``"paper"``: exactly :data:`~models.core.plotting.PAPER_WIDTH` wide
        (no tight bounding box; constrained layout keeps every label inside),
        SVG text as ``<text>`` (``svg.fonttype: none``), PNG at 300 dpi.
        ``"book"``: as the book saves its figures (tight bounding box, 192 dpi
        PNG, text as paths).  PDF fonts are TrueType (Type 42), never Type 3.
        SVGs and PDFs carry no date (reproducible).  ``title``, ``font``: as :meth:`plot`.
        """
        return save_comparisons([self], path, style, title=title, font=font)


#: File types :meth:`Comparison.save` and :func:`save_comparisons` write (matplotlib's formats, by suffix).
SUFFIXES = (".svg", ".png", ".pdf")


def _plotting():
    """:mod:`models.core.plotting`, imported when a figure is first drawn."""
    from . import plotting  # matplotlib: only when a figure is drawn

    return plotting


def _checked(comparisons, style: str, font: str, labels) -> list:
    """``[(comparison, label or None), ...]`` after checking the arguments of :func:`plot_comparisons`."""
    if isinstance(comparisons, Comparison):
        comparisons = [comparisons]
    comparisons = list(comparisons) if isinstance(comparisons, (list, tuple)) else None
    if not comparisons or not all(isinstance(c, Comparison) for c in comparisons):
        raise ParameterError("`comparisons` must be a non-empty list of Comparison (what compare(...) returns)")
    require_choice("style", style, STYLES)
    require_choice("font", font, FONTS)
    if labels is None:
        labels = [None] * len(comparisons)
    elif (isinstance(labels, (str, bytes)) or len(labels) != len(comparisons)
          or not all(isinstance(x, str) and x for x in labels)):
        raise ParameterError(f"`labels` must be one non-empty string per comparison ({len(comparisons)}); got "
                             f"{labels!r}")
    return list(zip(comparisons, labels))


def plot_comparisons(comparisons: Sequence[Comparison], style: str = "book", *, ax=None, title: bool = True,
                     font: str = "sans", labels: Sequence[str] | None = None):
    """Several comparisons (configurations) on one axis; returns the figure.

    Each configuration takes its own colour of :data:`~models.core.plotting.PALETTE`
    and its own marker of :data:`~models.core.plotting.MARKERS`: its model
    line, its simulated points and its saturation lines (dashed: model,
    dotted: simulation).  One legend: an entry per configuration named by
    ``labels`` (default: what differs between their networks' descriptions,
    e.g. ``M = 8 flits`` and ``M = 32 flits``), then grey entries for what
    the line, the markers and the vertical lines are.  The title is what the
    configurations share (``title=False``: none).  One comparison alone is
    :meth:`Comparison.plot`'s figure.  ``ax``: draw into these axes; if they
    already hold comparisons drawn here, these are added to them and the
    whole is drawn again (one legend, limits holding all).  The comparisons
    must share the load axis and the latency (one chapter).  ``style`` and
    ``font`` as :meth:`Comparison.plot`.
    """
    items = _checked(comparisons, style, font, labels)
    P = _plotting()
    earlier = getattr(ax, _ON_AXES, None) if ax is not None else None
    if earlier is not None:
        items = earlier.items + items
    first = items[0][0].subject
    for c, _ in items[1:]:
        s = c.subject
        if (s.load, s.load_unit, s.latency, s.closed) != (first.load, first.load_unit, first.latency, first.closed):
            raise ParameterError(f"comparisons on one axis must share the load and the latency: {first.load} "
                                 f"[{first.load_unit}] against {s.load} [{s.load_unit}]")
    with P.plt.rc_context({**(P.STYLE if style == "book" else P.PAPER_STYLE), **P.font_style(font)}):
        return _draw(items, style, ax, title, P)


def save_comparisons(comparisons: Sequence[Comparison], path: str | Path, style: str = "book", *, title: bool = True,
                     font: str = "sans", labels: Sequence[str] | None = None) -> Path:
    """Draw (:func:`plot_comparisons`) and write the figure to ``path`` (.svg, .png or .pdf); returns the path.

    As :meth:`Comparison.save`: ``"paper"`` exactly one column wide (taller by
    its legend when that goes below the axes), SVG text as text, PNG at 300
    dpi; PDF fonts TrueType (Type 42, ``pdf.fonttype``), never Type 3; no
    date in SVG or PDF.
    """
    items = _checked(comparisons, style, font, labels)
    P = _plotting()
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ParameterError(f"`path` must end in {', '.join(SUFFIXES)}; got {str(path)!r}")
    rc = {**(P.STYLE if style == "book" else P.PAPER_STYLE), **P.font_style(font)}
    meta = {".svg": {"Date": None}, ".pdf": {"CreationDate": None}, ".png": {"Software": None}}[suffix]
    with P.plt.rc_context(rc):
        fig = _draw(items, style, None, title, P)
        try:
            fig.savefig(path, metadata=meta, **({"bbox_inches": "tight"} if style == "book" else {}))
        finally:
            P.plt.close(fig)
    return path


def _wrap(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, never breaking ``name = value``."""
    text = text.replace(" = ", "\u00a0=\u00a0")
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text


def _fit_title(ax, text: str, widths: Sequence[int]) -> None:
    """The title ``text`` wrapped at the first of ``widths`` (characters) at which it fits inside the figure."""
    fig = ax.figure
    for width in widths:
        ax.set_title(_wrap(text, width))
        fig.draw_without_rendering()
        box, page = ax.title.get_window_extent(), fig.bbox
        if box.x0 >= page.x0 - 0.5 and box.x1 <= page.x1 + 0.5:
            return


def _legend_rank(label: str) -> int:
    """Legend order: the model, the simulation, its saturated loads, then the saturation lines."""
    for rank, start in enumerate(("model", "simulation,", "simulation (", "simulation saturated", "saturation load, model",
                                  "saturation load, simulation")):
        if label.startswith(start):
            return rank
    return 9


def _segments(text: str) -> list[str]:
    """A network's description cut at its commas outside parentheses (``"8×8 torus, L = 3 VCs, M = 8 flits"``)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [s for s in out + [cur.strip()] if s]


def config_labels(comparisons: Sequence[Comparison]) -> tuple[list[str], str]:
    """``(labels, shared)``: what tells each comparison from the others, and what they share, in words.

    The networks' descriptions (:attr:`Subject.network`) are cut at their
    commas; a comparison's label is its parts that not all share (``"M = 8
    flits"``), with its simulator set-up when the set-ups differ; ``shared``
    the parts all share, in the first one's order (the figure's title).
    Without a differing part, the parameters that differ (``"k = 8"``), else
    ``"configuration 2"``.
    """
    parts = [_segments(c.subject.network) for c in comparisons]
    shared = [p for p in parts[0] if all(p in q for q in parts[1:])]
    setups = [c.subject.setup for c in comparisons]
    labels = []
    for i, (c, p) in enumerate(zip(comparisons, parts)):
        own = [x for x in p if x not in shared]
        if not own:
            keys = sorted({k for o in comparisons for k in o.params})
            own = [f"{k} = {c.params.get(k)}" for k in keys
                   if len({repr(o.params.get(k)) for o in comparisons}) > 1]
        if len(set(setups)) > 1 and setups[i]:
            own.append(f"simulation: {setups[i]}")
        labels.append(", ".join(own) or f"configuration {i + 1}")
    return labels, ", ".join(shared)


#: The attribute of an axes that holds what :func:`plot_comparisons` drew into it (so a later call adds to it).
_ON_AXES = "_models_comparisons"


@dataclasses.dataclass
class _Drawn:
    """What :func:`_draw` put into one axes: the comparisons, the artists and legends, the figure's first height."""

    items: list
    artists: list
    legends: list
    height: float


def _draw(items: list, style: str, ax, title: bool, P):
    """Draw ``items`` (``[(Comparison, label or None), ...]``; see :func:`plot_comparisons`) with the plotting
    module ``P`` under the style's rcParams; returns the figure."""
    book = style == "book"
    if ax is None:
        if book:
            fig, axes = P.column_figure()
            ax = axes[0, 0]
        else:
            fig, ax = P.paper_figure()
    fig = ax.figure
    earlier = getattr(ax, _ON_AXES, None)
    if earlier is not None:  # drawn again with the new ones: what was drawn goes, the user's own artists stay
        for artist in earlier.artists + earlier.legends:
            try:
                artist.remove()
            except (ValueError, NotImplementedError, AttributeError):  # already gone
                pass
        fig.set_figheight(earlier.height)
    drawn = _Drawn(items=list(items), artists=[], legends=[], height=fig.get_figheight())
    setattr(ax, _ON_AXES, drawn)
    keep = drawn.artists.append
    if not book:
        ax.tick_params(labelsize=P.PAPER_FONT)  # ticks are made at draw time: fix their size now
    comparisons = [c for c, _ in items]
    several = len(items) > 1
    auto, shared = config_labels(comparisons) if several else ([""], comparisons[0].subject.network)
    names = [given or made for (_, given), made in zip(items, auto)]
    s = comparisons[0].subject
    lw = None if book else P.PAPER_STYLE["lines.linewidth"]
    kw = {} if book else dict(ms=P.PAPER_STYLE["lines.markersize"], capsize=P.PAPER_STYLE["errorbar.capsize"],
                              elinewidth=0.8, mew=1.0)
    entries = []  # several: one legend entry per configuration
    saturated_marks, any_sim, sat_kinds = [], False, set()
    for i, c in enumerate(comparisons):
        color = P.PALETTE[i % len(P.PALETTE)]
        marker = P.MARKERS[i % len(P.MARKERS)] if several else "o"
        m = c.model
        keep(P.model_line(ax, m["load"], m["latency"], color=color, label="_nolegend_" if several else "model", lw=lw))
        if c.sim is not None:
            any_sim = True
            x = c.sim["load"].to_numpy(dtype=float)
            y = c.sim["latency"].to_numpy(dtype=float)
            ci = c.sim[ci_column("latency")].to_numpy(dtype=float)
            sat = c.sim["saturated"].to_numpy(dtype=bool) | ~np.isfinite(y)
            label = "_nolegend_" if several else f"simulation{f' ({s.setup})' if s.setup else ''}, 95% CI"
            bars = P.sim_errorbar(ax, x[~sat], y[~sat], ci[~sat], color=color, marker=marker, label=label, **kw)
            if bars is not None:
                keep(bars)
            if sat.any():
                saturated_marks.append((x[sat], color))
        for kind, load, text in (("model", c.model_saturation, "saturation load, model"),
                                 ("sim", c.sim_saturation, "saturation load, simulation")):
            if math.isfinite(load):
                line = P.saturation_line(ax, load, color=color if several else P.NEUTRAL, kind=kind)
                line.set_label("_nolegend_" if several else f"{text}: {load:.3g}")
                keep(line)
                sat_kinds.add(kind)
        if several:
            entries.append(P.Line2D([], [], color=color, ls="-", lw=lw or P.MODEL_STYLE["lw"],
                                    marker=marker if c.sim is not None else None, mfc="none",
                                    ms=kw.get("ms", P.SIM_STYLE["ms"])))
    # x from 0 past everything shown (the open systems' grid already runs 5 % past it); y from 0, holding every
    # point and CI, the model lines up to a cap
    xs, caps, tops = [], [], []
    for c in comparisons:
        m = c.model
        if len(m):
            xs.append(float(np.nanmax(m["load"])))
        if c.sim is not None and len(c.sim):
            xs.append(float(np.nanmax(c.sim["load"])))
        finite_model = m["latency"].to_numpy(dtype=float)
        finite_model = finite_model[np.isfinite(finite_model) & (finite_model > 0)]
        if finite_model.size:
            caps.append(3.0 * float(finite_model.min()))
        if c.sim is not None:
            top = c.sim["latency"].to_numpy(dtype=float) + np.nan_to_num(
                c.sim[ci_column("latency")].to_numpy(dtype=float))
            tops += [float(v) for v in top[np.isfinite(top)]]
    ax.set_xlim(0, max(xs or [1.0]) * (1 + X_MARGIN if s.closed else 1 + 1e-9))
    if s.closed:  # populations: integer ticks
        ax.xaxis.set_major_locator(P.MaxNLocator(nbins=8 if book else 5, integer=True))
    cap = max(caps) if caps else None
    if tops and cap is not None:
        cap = max(cap, 1.15 * max(tops))
    P.fit_ylim(ax, bottom=0.0, cap=cap)
    if saturated_marks:  # saturated simulated loads: at the top, inside the axes, marked
        lo, hi = ax.get_ylim()
        hi = lo + (hi - lo) * 1.12
        ax.set_ylim(lo, hi)
        y_mark = lo + 0.95 * (hi - lo)
        for j, (sx, color) in enumerate(saturated_marks):
            mark = ax.plot(sx, np.full(sx.shape, y_mark), ls="none", marker="^", color=color, mfc=color,
                           ms=6 if book else 4.5,
                           label="simulation saturated" if not several and j == 0 else "_nolegend_")[0]
            mark.set_gid("sim-saturated")
            keep(mark)
    ax.set_xlabel(s.xlabel)
    ax.set_ylabel(s.ylabel)
    if title and shared:
        _fit_title(ax, shared, (90, 80, 70, 60) if book else (46, 42, 38, 34, 30))
    else:
        ax.set_title("")
    if several:
        grey = P.NEUTRAL
        setups = {c.subject.setup for c in comparisons}
        setup = next(iter(setups)) if len(setups) == 1 else ""
        handles, labels = list(entries), list(names)
        handles.append(P.Line2D([], [], color=grey, ls="-", lw=lw or P.MODEL_STYLE["lw"]))
        labels.append("model (lines)")
        if any_sim:
            handles.append(P.Line2D([], [], color=grey, ls="none", marker="o", mfc="none",
                                    ms=kw.get("ms", P.SIM_STYLE["ms"])))
            labels.append(f"simulation{f' ({setup})' if setup else ''} (markers), 95% CI")
        h2, l2 = P.saturation_handles("model" in sat_kinds, "sim" in sat_kinds)
        handles += h2
        labels += l2
        if saturated_marks:
            handles.append(P.Line2D([], [], color=grey, ls="none", marker="^", mfc=grey, ms=6 if book else 4.5))
            labels.append("simulation saturated")
    else:
        handles, labels = ax.get_legend_handles_labels()
        order = sorted(range(len(labels)), key=lambda i: (_legend_rank(labels[i]), i))
        handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    if not book:
        legend = P.place_legend(ax, handles, labels,
                                ncols=max(1, P.legend_columns(labels, P.PAPER_WIDTH, P.PAPER_FONT)))
    else:
        legend = P.place_legend(ax, handles, labels)
    if legend is not None:
        drawn.legends.append(legend)
    return fig


# ----------------------------------------------------------------------------
# The one loop
# ----------------------------------------------------------------------------
def _as_saturation(value, what: str) -> tuple[float, float, float]:
    """``(load, lo, hi)`` from what a saturation function returned (a Saturation or a load)."""
    if isinstance(value, Saturation):
        return float(value.load), float(value.lo), float(value.hi)
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ParameterError(f"{what} must return a load or a Saturation; got {value!r}") from None
    return v, v, v


def _model_rows(model: Callable, loads: Sequence[float], made_by: tuple[str, str] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """The model's latency (``inf`` where saturated, or with no finite non-negative value) and flag at ``loads``.

    ``made_by``: when :func:`compare` computed the loads, ``(how, what to change)`` (``("`points`: the 10000
    loads evenly up to ...", "give fewer `points`, ...")``).  A load the model refuses among them is then a
    :class:`ParameterError` that starts with ``how``, naming the run option that made the load, never
    ``loads``, which were not given (review N-43: 10,000 loads up to 0.9 of a saturation load of 4e-9 start
    below the models' smallest load, 1e-12).
    """
    if not len(loads):
        return np.zeros(0), np.zeros(0, dtype=bool)
    try:
        res = model(list(loads))
    except ParameterError as exc:
        if made_by is None:
            raise
        how, change = made_by
        raise ParameterError(f"{how} run from {min(loads):.4g} to {max(loads):.4g}, and the model refuses one of "
                             f"them ({exc}); {change}") from None
    lat = np.array(res.latency, dtype=float).reshape(-1)
    sat = np.array(res.saturated, dtype=bool).reshape(-1)
    if lat.shape != (len(loads),) or sat.shape != (len(loads),):
        raise ParameterError(f"the model returned {lat.size} latencies for {len(loads)} loads")
    sat |= ~np.isfinite(lat) | (lat < 0)
    lat[sat] = math.inf
    return lat, sat


def module_loader(package: str, name: str = "experiments") -> Callable[[], Any]:
    """A function of no arguments that imports and returns the module ``<package>.<name>`` when called.

    How a chapter hands its ``experiments`` (the simulator translation, which imports numba) to
    :func:`compare` without importing it up front: ``experiments=module_loader(__package__)``; the model
    alone never calls it.
    """
    if not (isinstance(package, str) and package.startswith("models.") and isinstance(name, str)
            and name.isidentifier()):
        raise ParameterError(f"`package` must be a models.<chapter> package and `name` a module name; got "
                             f"{package!r}, {name!r}")

    def load():
        import importlib  # the chapter's own module, named by the chapter: only when simulating

        return importlib.import_module(f"{package}.{name}")

    return load


def _numbers(record: Mapping) -> dict:
    """A simulated point's numeric columns (an extra that is not a number, e.g. a whole result, is left out)."""
    return {k: v for k, v in record.items() if isinstance(v, (int, float, bool, np.number, np.bool_))}


def _fine_grid(xmax: float, points: int, saturation: float, closed: bool) -> list:
    """The drawn model loads: ``points`` evenly up to ``xmax``, and closer steps towards the model's saturation."""
    if points <= 0 or not (math.isfinite(xmax) and xmax > 0):
        return []
    if closed:  # populations: every integer up to the largest shown
        return [float(n) for n in range(1, int(math.floor(xmax)) + 1)]
    grid = list(np.linspace(xmax / points, xmax, points))
    if math.isfinite(saturation) and 0 < saturation < xmax:
        grid += [saturation * (1 - 2.0 ** -j) for j in range(1, 13)]
    return sorted(set(float(x) for x in grid))


def loads_computed_at_accuracy(fraction: float, computed: bool) -> bool:
    """Whether a load :func:`compare` computed (``computed``: not given as ``loads``) lies at one of the fixed
    :data:`~models.core.setups.ACCURACY_FRACTIONS` of the simulated saturation load (``fraction``; NaN without one)."""
    return computed and math.isfinite(fraction) and any(math.isclose(fraction, f, rel_tol=1e-9)
                                                        for f in ACCURACY_FRACTIONS)


def compare(
    curve: Curve,
    subject: Subject,
    run: RunOptions | None = None,
    *,
    model: Callable[[list], Any],
    model_saturation: Callable[[], float] | None = None,
    experiments: Callable[[], Any] | None = None,
    lengths: RunLengths | None = None,
    integer_loads: bool = False,
    params: Mapping | None = None,
) -> Comparison:
    """The model against the simulation of ``curve``: the loop of the module docstring, one :class:`Comparison`.

    Parameters
    ----------
    curve : Curve
        The chapter's curve, built once from its checked parameters (its
        model and simulator keywords, its set-up).
    subject : Subject
        The words and units of the result.
    run : RunOptions
        The run options (loads, points, the simulation's settings, ...).
    model : callable
        ``model(loads) -> result`` with ``latency`` (cycles) and ``saturated``
        arrays, one per load (the chapter's ``solve_curve``).
    model_saturation : callable, optional
        ``model_saturation() -> load``: the chapter's ``saturation_load``
        (for a closed system, the knee ``N*``).
    experiments : callable, optional
        ``experiments() -> module``: the chapter's ``experiments`` module,
        imported only when simulating, with ``simulate_curve(curve, loads,
        settings) -> [SimPoint, ...]`` and (open systems)
        ``sim_saturation(curve, guess, settings) -> Saturation``, the chapter's
        own search (``guess`` the model's saturation load, NaN if unknown).
        None: the model alone.
    lengths : RunLengths, optional
        The chapter's default run length (its ``setups.RUN``).
    integer_loads : bool
        Loads are populations (a closed system): the default loads are
        rounded to integers >= 1, each once.
    params : mapping, optional
        The chapter's parameters, kept in the result.

    Raises
    ------
    ParameterError
        A bad run option (named), no saturation load to space the default
        loads on, a default load (or a load of the drawn line) the model
        refuses (naming ``points``/``upto``, or ``grid``: never ``loads``,
        which were not given), or a function returning the wrong thing.
    """
    if not isinstance(curve, Curve):
        raise ParameterError(f"`curve` must be a Curve; got {curve!r}")
    if not isinstance(subject, Subject):
        raise ParameterError(f"`subject` must be a Subject; got {subject!r}")
    run = RunOptions() if run is None else run
    if not isinstance(run, RunOptions):
        raise ParameterError(f"`run` must be RunOptions; got {run!r}")
    loads, points, upto, grid = run.loads, run.points, run.upto, run.grid
    if loads is not None:
        loads = [float(x) for x in loads]
        if integer_loads:
            loads = [int(x) if float(x).is_integer() else x for x in loads]
    closed = bool(subject.closed)
    simulate = run.simulate and (experiments is not None or run.sim is not None)
    settings = run.sim_settings(lengths or RunLengths()) if simulate else None
    hooks = experiments() if simulate and experiments is not None else None
    if simulate:
        sim = run.sim or (lambda c, xs: hooks.simulate_curve(c, xs, settings))
    search = run.search if run.search is not None else loads is None  # by default when the loads depend on it
    searching = simulate and search and not closed and hooks is not None

    # 1. the model's saturation load (or a closed system's knee)
    sat_model = math.nan
    if model_saturation is not None and (loads is None or grid > 0 or searching):
        sat_model = float(model_saturation())
    knee = sat_model if closed else math.nan
    if closed:
        sat_model = math.nan

    # 2. the simulated saturation load, by the chapter's own search
    sat_sim, bracket = math.nan, (math.nan, math.nan)
    if searching:
        sat_sim, lo, hi = _as_saturation(hooks.sim_saturation(curve, sat_model, settings), "sim_saturation")
        bracket = (lo, hi)

    # 3. the loads
    made_by = None  # how they were made, when computed (for a load the model refuses among them)
    if loads is None:
        if math.isfinite(sat_sim):
            base, up, what = sat_sim, UPTO_SIM if upto is None else upto, "the simulated saturation load"
            fractions = [up * i / points for i in range(1, points + 1)]
            # the fixed fractions the worst error is taken at, whatever the grid (core.setups.ACCURACY_FRACTIONS)
            fractions = sorted(fractions + [f for f in ACCURACY_FRACTIONS
                                            if not any(math.isclose(f, g, rel_tol=1e-9) for g in fractions)])
            loads = [base * f for f in fractions]
        else:
            base = knee if closed else sat_model
            up, what = UPTO_MODEL if upto is None else upto, "the knee N*" if closed else "the model's saturation load"
            if not (math.isfinite(base) and base > 0):
                raise ParameterError("no saturation load to space the `points` loads on: give `loads`")
            loads = load_grid(base, points, up, integer=integer_loads)
            fractions = [math.nan] * len(loads)
        made_by = (f"`{'points' if upto is None else 'upto'}`: the {points} loads evenly up to `upto` = {up:g} "
                   f"times {what} ({base:.4g} {subject.load_unit})"
                   + (", and the fixed accuracy fractions" if math.isfinite(sat_sim) else ""),
                   "give fewer `points`, another `upto`, or the `loads`")
    else:
        fractions = [x / sat_sim if math.isfinite(sat_sim) and sat_sim > 0 else math.nan for x in loads]

    # 4. the model at the loads first (it checks the chapter's parameters before anything is simulated)
    lat, msat = _model_rows(model, loads, made_by)

    # 5. the simulation: the loads at the fixed accuracy fractions first, as one list of their own, so that they are
    # the same runs whatever other loads the grid holds (a chapter that seeds a load by its place in the list,
    # torus_ipp, gives them the same seeds), then the others
    sim_frame = None
    if simulate:
        first = [i for i, f in enumerate(fractions) if loads_computed_at_accuracy(f, run.loads is None)]
        groups = [first, [i for i in range(len(loads)) if i not in first]] if first else [list(range(len(loads)))]
        rows = [None] * len(loads)
        for group in (g for g in groups if g):
            got = list(sim(curve, [loads[i] for i in group]))
            if len(got) != len(group):
                raise ParameterError(f"the sim function returned {len(got)} rows for {len(group)} loads")
            for i, r in zip(group, got):
                rows[i] = r
        sim_frame = pd.DataFrame([{"load": x, "fraction": f, **_numbers(sim_record(r))}
                                  for x, f, r in zip(loads, fractions, rows)])

    # 6. the model's fine grid over the x range shown
    shown = [max(loads)] + [v for v in (sat_model, bracket[1]) if math.isfinite(v)]
    xmax = max(shown) * (1 + X_MARGIN) if not closed else max(shown)
    chosen = set(loads)
    fine = [x for x in _fine_grid(xmax, grid, sat_model, closed) if x not in chosen]
    glat, gsat = _model_rows(model, fine, (f"`grid`: the {len(fine)} loads of the model's drawn line",
                                           "give grid=0 (no line) or other loads"))
    model_frame = pd.DataFrame({"load": [*loads, *fine], "latency": np.r_[lat, glat],
                                "saturated": np.r_[msat, gsat].astype(bool)})
    model_frame = model_frame.sort_values("load", kind="mergesort").reset_index(drop=True)

    # 7. the error table and the worst error, by the book's rule (core.claims)
    basis = "sim" if math.isfinite(sat_sim) else (None if closed else "model")
    run_model = model_frame.assign(curve=curve.label, fraction=math.nan)[["curve", "load", "fraction", "latency",
                                                                          "saturated"]]
    run_sim = None if sim_frame is None else sim_frame.assign(curve=curve.label)
    curve_run = CurveRun(
        curve=curve, model=run_model, sim=run_sim, model_saturation=float(sat_model if not closed else knee),
        sim_saturation=float(sat_sim), brackets={"sim": bracket} if math.isfinite(sat_sim) else {},
        params={"curve": curve.label, "setup": curve.setup, "model": dict(curve.model), "sim": dict(curve.sim),
                "loads": list(loads), "fractions_of": "sim" if basis == "sim" else None, "load basis": basis,
                "reference load": sat_sim, "quantity": "latency", "round_to": None, "simulated": simulate})
    errors = pd.DataFrame(columns=["load", "fraction", "model latency", "sim latency", "sim CI95", "sim saturated",
                                   "error", "counted"])
    worst, worst_at, uncertain = math.nan, math.nan, ""
    explicit = run.loads is not None
    if basis == "sim" and not explicit:
        rule = ("at " + ", ".join(f"{f:.0%}" for f in ACCURACY_FRACTIONS) + " of the simulated saturation load "
                "(the book's number, whatever the other loads)")
    elif basis == "sim":
        rule = (f"over the given loads below {BELOW:.0%} of the simulated saturation (not the book's number, taken "
                "at " + ", ".join(f"{f:.0%}" for f in ACCURACY_FRACTIONS) + " of it: leave out `loads` for it)")
    elif closed:
        rule = f"over the simulated {subject.load} values (a closed system: no saturation load)"
    else:
        rule = "over the simulated loads (no simulated saturation load)"
    if sim_frame is not None:
        s = sim_frame["latency"].to_numpy(dtype=float)
        ssat = sim_frame["saturated"].to_numpy(dtype=bool) | ~np.isfinite(s)
        err = saturation_aware_error(lat, s)
        err[ssat] = math.nan
        frac = np.asarray(fractions, dtype=float)
        if basis == "sim" and explicit:
            counted = np.isfinite(s) & ~ssat & np.isfinite(frac) & (frac < BELOW) & ~np.isnan(err)
        else:
            counted = counted_below(frac if basis == "sim" else None, s, ssat) & ~np.isnan(err)
        errors = pd.DataFrame({"load": list(loads), "fraction": frac, "model latency": lat, "sim latency": s,
                               "sim CI95": sim_frame[ci_column("latency")].to_numpy(dtype=float),
                               "sim saturated": ssat, "error": err, "counted": counted})
        if counted.any():
            a = np.abs(err[counted])
            worst_at = float(np.asarray(loads, dtype=float)[counted][int(np.argmax(a))])
            if basis == "sim" and not explicit:
                acc = accuracy_below(curve_run)
                worst, uncertain = acc.worst, acc.uncertain
            else:
                worst = float(a.max())
    return Comparison(subject=subject, params=dict(params or curve.model), setup=curve.setup if simulate else "",
                      settings=settings, loads=tuple(loads), model=model_frame, sim=sim_frame,
                      errors=errors, model_saturation=float(sat_model), sim_saturation=float(sat_sim),
                      sim_bracket=tuple(float(v) for v in bracket), knee=float(knee), worst_error=worst,
                      worst_at=worst_at, worst_rule=rule, run=curve_run, uncertain=uncertain)
