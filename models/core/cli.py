"""One command per chapter for a latency curve, without a notebook (issue #16).

Every chapter has a ``__main__.py`` that declares its parameters (named as
the keywords of its ``solve``, with units and defaults) and calls
:func:`main`; this module builds the argparse interface and does the rest the
same way everywhere::

    python -m models.torus_dor curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv
    python -m models.torus_dor curve --radices 12 12 --L 3 --M 32 --points 8 --simulate --plot curve.svg
    python -m models.torus_dor curve --radices 8 8 --L 3 --M 8 32 --simulate --plot two.pdf --style paper --no-title
    python -m models.torus_dor saturation --radices 12 12 --L 3 --M 32
    python -m models.torus_dor curve --help

``curve``
    The chapter's ``compare`` (:mod:`models.core.compare`: the model against
    the simulation in one call) with the command's options as its
    keywords.  The model (the chapter's ``solve_curve``) at ``--loads`` or, by
    default, at ``--points`` loads evenly spaced from ``upto/points`` to
    ``--upto`` times a saturation load: the model's (``saturation_load``;
    ``--upto`` default 0.9) or, with ``--simulate``, the simulated one, found
    by the chapter's own search (``experiments.sim_saturation``; ``--upto``
    default 1.0, so the simulated points reach the simulation's own knee).
    Writes a CSV (``--out``, stdout without it) with the columns of
    :func:`columns`: the load with its unit, the model's latency (cycles,
    ``inf`` when saturated) and saturation flag (``--out -`` is standard
    output too); with ``--simulate`` the simulated latency, the half width of
    its 95% confidence interval and the simulator's saturation flag, at the
    same loads, through the chapter's own model-to-simulator translation and
    the cached sweep runner (:func:`models.sim.sweep.run_sweep`, cache under
    ``MODELS_CACHE_DIR``), and one line on standard error with the worst
    error by the book's rule (:meth:`models.core.compare.Comparison.summary`).
    The simulated saturation load is searched (``--sim-saturation``) by
    default when the loads depend on it (``--points``) or the figure draws it
    (``--plot``).  ``--plot FILE.svg|png|pdf`` draws the figure
    (:meth:`~models.core.compare.Comparison.save`): ``--style book`` (the
    default, the book's 7.5 in figure) or ``--style paper`` (a single column,
    3.4 in wide, 8-9 pt text, SVG text kept as text); PDF fonts TrueType
    (Type 42), never Type 3; ``--font serif`` (Times-like STIX) and
    ``--no-title``.  One parameter may take several values (``--M 8 32``):
    one comparison per value, drawn on one axis
    (:func:`~models.core.compare.save_comparisons`: a colour and a marker
    each, one legend), the CSV's first column naming each row's value, one
    summary line each; two such parameters are refused.

    Every default (``--points``, ``--upto``, the run lengths, ``--seed``,
    ``--jobs``, the search) is ``compare``'s, written once in
    :mod:`models.core.setups` (``POINTS`` = 10, ...; the chapter's
    ``setups.RUN``), so ``curve --simulate`` and ``compare(...)`` with the
    same parameters give the same numbers, and the accuracy line is the
    book's number at 25, 50 and 75 % of the simulated saturation load, the
    same runs whatever the grid.
``saturation``
    Prints the model's saturation load (the chapter's ``saturation_load``).

Invalid parameters -- an argparse type error or a ``ValueError`` of the
solver (:class:`~models.core.errors.ParameterError`, whose message names the
keyword in backticks) -- print ``<prog>: error: --<name>: <message>`` after
the usage line and exit with status 2, never a traceback.  So do, before
anything is computed, an ``--out`` or ``--plot`` that cannot be written (a
folder, a read-only place, a name too long), ``--out`` and ``--plot`` naming
one file, ``--points`` above 10,000 (the solvers' limit), run lengths above
:data:`MAX_RUN` (the one bound of ``compare`` and ``SimSettings`` too,
:func:`~models.core.setups.require_run_length`), a simulation option
(``--seed``, ``--messages``/``--cycles``, ``--warmup``, ``--jobs``,
``--setup``, ``--[no-]sim-saturation``) given without ``--simulate``,
``--style``, ``--font`` or ``--no-title`` without ``--plot``, two parameters
with several values, and ``--points`` or ``--upto`` with
``--loads``; ``compare`` refuses the same, in the same words
(:func:`~models.core.setups.only_used_with`,
:func:`~models.core.setups.not_allowed_with`).  A ``--points`` grid with a
load the model refuses names ``--points`` (the loads were not given).  A
fixed point that does not converge, a failed
simulation, and an I/O fault of the computation (a cache folder that is a
file, read-only or full; an unreachable Dask scheduler) exit with status 1
and a one-line message.

This module imports no chapter and no simulator (the floors of DESIGN.md):
a chapter passes its front door, whose ``compare`` the command calls with
the command's options (:func:`comparison`), and its light ``setups`` module
(set-up names, run-length defaults); ``compare`` builds the curve once and,
with ``--simulate``, simulates it with the chapter's own hook, the same as
its notebooks.  Control never comes back here.  Nor does it import pandas or
matplotlib at import time (``--help`` stays light).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import math
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import atlas_cli
from .errors import ConvergenceError, ParameterError, SimulationError
from .paths import cache_dir
from .saturation import load_grid
from .setups import (FONTS, GRID, JOBS, MAX_RUN, POINTS, SAT_RTOL, SEED, STYLES, UPTO_MODEL, UPTO_SIM, not_allowed_with,
                     only_used_with, require_run_length)
from .validate import MAX_POINTS

__all__ = ["Param", "Chapter", "columns", "load_grid", "build_parser", "comparison", "main", "STYLES", "FONTS",
           "POINTS"]

#: Exit status of a parameter error (argparse's own) and of a failed computation.
EXIT_USAGE = 2
EXIT_FAILURE = 1

#: File types ``--plot`` writes (matplotlib's formats, by suffix).
PLOT_SUFFIXES = (".svg", ".png", ".pdf")
#: ``--out`` value meaning standard output.
STDOUT = "-"


@dataclasses.dataclass(frozen=True)
class Param:
    """One configuration parameter of a chapter's model, as a command-line option ``--<name>``.

    name : str
        The keyword of the chapter's ``solve`` (``"L"`` -> ``--L``); for a
        parameter the chapter translates (``--topology`` of ``xfolded_tm``),
        the name its :attr:`Chapter.configure` reads.
    type : callable
        ``int``, ``float`` or ``str`` (argparse converts and reports a bad value).
    default : Any
        The value when the option is absent; :data:`REQUIRED` makes it required.
    unit : str
        Meaning and unit, shown in ``--help`` (``"message length, flits"``).
    nargs : int or str, optional
        argparse ``nargs`` (``"+"`` for ``--radices 12 12``).
    choices : sequence, optional
        The allowed values.
    flag : bool
        A switch (``--bidirectional``): present means True, default False.
    default_text : str
        How ``--help`` states a default that is computed (``"BFS mean distance of --topology"``).
    """

    name: str
    type: Callable = float
    default: Any = None
    unit: str = ""
    nargs: Any = None
    choices: Sequence | None = None
    flag: bool = False
    default_text: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def help(self, several: bool = False) -> str:
        if self.flag:
            return f"{self.unit} (a switch; default: off)"
        if self.required:
            default = "required"
        elif self.default_text:
            default = f"default: {self.default_text}"
        elif self.nargs is not None and isinstance(self.default, (list, tuple)):
            default = "default: " + " ".join(map(str, self.default))
        else:
            default = f"default: {self.default}"
        several = "; several values: one curve each, on one figure" if several and self.varies else ""
        return f"{self.unit}{several} ({default})"

    @property
    def varies(self) -> bool:
        """Whether ``curve`` takes several values of it (``--M 8 32``: one curve each): a single value, not a switch."""
        return not self.flag and self.nargs is None

    def add_to(self, parser: argparse.ArgumentParser, several: bool = False) -> None:
        """The option ``--<name>`` of ``parser``; with ``several`` (the ``curve`` command) a single-valued
        option takes one or more values (:attr:`varies`), which the command turns into one curve each."""
        if self.flag:
            parser.add_argument(f"--{self.name}", dest=self.name, action="store_true", help=self.help())
            return
        kw: dict[str, Any] = dict(dest=self.name, type=self.type, help=self.help(several), metavar=self.name.upper())
        if self.nargs is not None:
            kw["nargs"] = self.nargs
        elif several:
            kw["nargs"] = "+"
        if self.choices is not None:
            kw["choices"] = list(self.choices)
            kw.pop("metavar")
        if self.required:
            kw["required"] = True
        else:
            kw["default"] = self.default
        parser.add_argument(f"--{self.name}", **kw)


class _Required:
    def __repr__(self):
        return "REQUIRED"


#: The default of a :class:`Param` that must be given.
REQUIRED = _Required()


@dataclasses.dataclass(frozen=True)
class Chapter:
    """What a chapter's ``__main__`` declares.

    name : str
        The chapter's slug (``"torus_dor"``); the program is ``python -m models.<name>``.
    description : str
        One line: the paper and what the curve is.
    front : module
        The chapter package: ``solve_curve``, ``saturation_load``, ``LOAD``, ``LOAD_UNIT``.
    params : tuple of Param
        The configuration parameters.
    configure : callable, optional
        ``configure(options) -> solver keyword arguments`` from the parsed
        parameters (a dict by :attr:`Param.name`); default: the options as
        they are, lists turned into tuples.
    setups : module, optional
        The chapter's light ``setups.py`` (no simulator, no pandas), when the
        chapter offers ``--simulate``: its ``SETUPS`` (the names ``--setup``
        offers, ``DEFAULT_SETUP`` first), its ``DEFAULT_SETUP`` and its
        ``RUN`` (:class:`~models.core.setups.RunLengths`: the unit and defaults
        of ``--messages``/``--cycles`` and ``--warmup``).  The simulation is
        the chapter's ``compare`` with ``simulate=True``: the chapter's own
        hook, the one its notebooks use.
    setup_help : str
        What the set-ups are, for ``--help`` of ``--setup``.
    latency : str
        What the latency column is (``"mean message latency"``).
    integer_loads : bool
        Loads are integers (``NC`` of a closed system): the ``--points`` grid
        is rounded, repeated values dropped.
    example : str
        An example command line (after ``python -m models.<name>``) for ``--help``.
    atlas : module, optional
        The chapter's light ``atlas.py`` (its ``SPEC``, :class:`models.core.atlas.AtlasSpec`, and ``run``): the
        ``atlas`` command (:mod:`models.core.atlas_cli`).
    """

    name: str
    description: str
    front: ModuleType
    params: tuple
    configure: Callable[[dict], dict] | None = None
    setups: ModuleType | None = None
    setup_help: str = ""
    latency: str = "mean message latency"
    integer_loads: bool = False
    example: str = ""
    atlas: ModuleType | None = None

    @property
    def simulates(self) -> bool:
        """Whether the chapter offers ``--simulate`` (it declares its set-ups)."""
        return self.setups is not None

    @property
    def setup_names(self) -> tuple:
        """The names ``--setup`` offers, the default first."""
        if self.setups is None:
            return ()
        default = self.setups.DEFAULT_SETUP
        return (default, *(name for name in self.setups.SETUPS if name != default))

    @property
    def lengths(self):
        """The unit and defaults of the run length (``setups.RUN``)."""
        return self.setups.RUN

    @property
    def sim_unit(self) -> str:
        return self.lengths.unit

    @property
    def load(self) -> str:
        return self.front.LOAD

    @property
    def load_unit(self) -> str:
        return self.front.LOAD_UNIT

    def solver_kwargs(self, options: Mapping) -> dict:
        opts = {p.name: options[p.name] for p in self.params}
        if self.configure is not None:
            return dict(self.configure(opts))
        return {k: (tuple(v) if isinstance(v, list) else v) for k, v in opts.items()}

    def compare_kwargs(self, options: Mapping) -> dict:
        """The parameters of the chapter's ``compare``: the options as named (lists turned into tuples)."""
        return {p.name: (tuple(options[p.name]) if isinstance(options[p.name], list) else options[p.name])
                for p in self.params}

    @property
    def closed(self) -> bool:
        """A closed system (the front door's ``CLOSED_SYSTEM``): no saturation load to search."""
        return bool(getattr(self.front, "CLOSED_SYSTEM", False))


def columns(chapter: Chapter, simulate: bool = False) -> list[str]:
    """The CSV header: load (with unit), model latency (cycles) and flag, and the simulated ones."""
    cols = [f"{chapter.load} [{chapter.load_unit}]", "model latency [cycles]", "model saturated"]
    if simulate:
        cols += ["sim latency [cycles]", "sim CI95 [cycles]", "sim saturated"]
    return cols


# ----------------------------------------------------------------------------
# argparse
# ----------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse with errors of the form ``error: --L: ...`` (without argparse's ``argument`` prefix)."""

    def error(self, message):
        message = re.sub(r"^argument (--?[\w-]+)(/--?[\w-]+)*: ", r"\1: ", message)
        message = message.replace("not allowed with argument ", "not allowed with ")  # setups.not_allowed_with
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _int_at_least(lo: int, hi: int | None = None):
    """An argparse type: an integer ``>= lo`` (and ``<= hi``), else the message argparse prints after the option's name."""
    bounds = f">= {lo}" + (f" and <= {hi}" if hi is not None else "")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer {bounds}; got {text[:40]!r}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"must be an integer {bounds}; got {text[:40]!r}")
        return value

    parse.__name__ = f"integer {bounds}"
    return parse


_positive_int = _int_at_least(1)
_nonneg_int = _int_at_least(0)
_points = _int_at_least(1, MAX_POINTS)


def _run_length_at_least(lo: int, name: str, unit: str):
    """An argparse type: a run length or warm-up by the one guard of every run length,
    :func:`models.core.setups.require_run_length` (``[lo, MAX_RUN]``), the bound of ``compare`` and
    ``SimSettings`` too."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer >= {lo} and <= {MAX_RUN}; got {text[:40]!r}"
                                             ) from None
        try:
            return require_run_length(name, value, lo, unit=unit)
        except ParameterError as exc:
            got = f"{text[:40]}... ({len(text)} characters)" if len(text) > 40 else repr(value)
            raise argparse.ArgumentTypeError(str(exc).replace(repr(value), got)) from None

    parse.__name__ = f"run length >= {lo}"
    return parse


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0; got {text!r}")
    return value


def _load_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be numbers; got {text!r}") from None
    return value


def _length_flag(chapter: Chapter) -> str:
    return "--messages" if chapter.sim_unit == "messages" else "--cycles"


def _as_typed(flag: str, value) -> str:
    """An option of :func:`_sim_defaults` as it was typed: a switch (``--[no-]sim-saturation``, ``--progress``)
    spelt by its value (``--no-progress`` for False), any other option by its flag."""
    if isinstance(value, bool):
        return f"--{'' if value else 'no-'}{flag.replace('[no-]', '').lstrip('-')}"
    return flag


def _sim_defaults(chapter: Chapter) -> dict:
    """The simulation options of ``curve`` (parser dest -> (flag, default)), in the order of ``--help``."""
    out = {"length": (_length_flag(chapter), chapter.lengths.length),
           "warmup": ("--warmup", chapter.lengths.warmup),
           "seed": ("--seed", SEED), "jobs": ("--jobs", JOBS)}
    if len(chapter.setup_names) > 1:
        out["setup"] = ("--setup", chapter.setup_names[0])
    out["progress"] = ("--progress", None)  # None: a bar when standard error is a terminal
    if not chapter.closed:
        out["sim_saturation"] = ("--[no-]sim-saturation", None)  # None: with --points or --plot
    return out


def build_parser(chapter: Chapter) -> argparse.ArgumentParser:
    """The ``python -m models.<chapter>`` parser: subcommands ``curve`` and ``saturation``."""
    prog = f"python -m models.{chapter.name}"
    epilog = f"example:\n  {prog} {chapter.example}" if chapter.example else None
    parser = _Parser(prog=prog, description=chapter.description, epilog=epilog,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = "{curve,saturation,atlas}" if chapter.atlas is not None else "{curve,saturation}"
    sub = parser.add_subparsers(dest="command", metavar=commands, required=True)
    load = f"{chapter.load}, {chapter.load_unit}"

    curve = sub.add_parser(
        "curve", help=f"model latency (cycles) against the load ({load}); CSV, plot, simulation",
        description=(f"{chapter.description}\n\nThe model's {chapter.latency} (cycles) against the load "
                     f"{chapter.load} ({chapter.load_unit}), as CSV: columns "
                     + ", ".join(f"'{c}'" for c in columns(chapter, chapter.simulates)) +
                     " (the last three with --simulate).  Latency is inf where the model (or simulator) is "
                     "saturated."),
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    model = curve.add_argument_group("model parameters (the keywords of solve)")
    for p in chapter.params:
        p.add_to(model, several=True)
    loads = curve.add_argument_group("loads")
    grid = loads.add_mutually_exclusive_group()
    sat_name = "the knee N* of the model's asymptotic bounds" if chapter.closed else (
        "the model's saturation load, or with --simulate the simulated one" if chapter.simulates
        else "the model's saturation load")
    grid.add_argument("--points", type=_points, default=POINTS, metavar="N",
                      help=f"number of loads, evenly spaced up to --upto times {sat_name}, "
                           f"at most {MAX_POINTS}" + (", and with --simulate the loads at 25, 50 and 75%% of the "
                                                      "simulated saturation load (the book's accuracy number)"
                                                      if chapter.simulates and not chapter.closed else "")
                           + f" (default: {POINTS}, the same as compare's)")
    grid.add_argument("--loads", type=_load_value, nargs="+", metavar="X",
                      help=f"explicit loads, {chapter.load} in {chapter.load_unit} (default: the --points grid)")
    upto_default = (f"{UPTO_MODEL}, or {UPTO_SIM} of the simulated saturation load when it is searched"
                    if chapter.simulates and not chapter.closed else f"{UPTO_MODEL}")
    loads.add_argument("--upto", type=_positive_float, default=None, metavar="F",
                       help=f"last load of the --points grid as a fraction of {sat_name} "
                            f"(dimensionless; not with --loads; default: {upto_default})")
    out = curve.add_argument_group("output")
    out.add_argument("--out", metavar="FILE.csv", help="write the CSV there, creating its folder; '-' is "
                                                       "standard output (default: standard output)")
    out.add_argument("--plot", metavar="FILE.svg", help="also draw the figure there (.svg, .png or .pdf): the "
                                                        "model on a fine grid, the simulated points with their 95%% "
                                                        "intervals and saturated loads marked, both saturation "
                                                        "loads (default: no plot)")
    out.add_argument("--style", choices=STYLES, default=None,
                     help="the figure's style: 'book' (7.5 in wide, as the book's) or 'paper' (one column of a "
                          "two-column paper, 3.4 in wide, 8-9 pt text, SVG text kept as text); PDF fonts are "
                          "TrueType (Type 42) in both; only with --plot (default: book)")
    out.add_argument("--font", choices=FONTS, default=None,
                     help="the figure's typeface: 'sans' (the book's) or 'serif' (Times-like STIX, for a journal "
                          "set in Times); only with --plot (default: sans)")
    out.add_argument("--no-title", dest="no_title", action="store_true",
                     help="draw the figure without a title (a paper's caption says it); only with --plot "
                          "(default: a title naming the network)")
    if chapter.simulates:
        # the options below default to None in the parser (so that one given without --simulate is refused,
        # not ignored); _curve fills in the defaults their help states (_sim_defaults)
        sim = curve.add_argument_group("simulation (only with --simulate; refused without it)")
        sim.add_argument("--simulate", action="store_true",
                         help="also simulate every load (cached on disk under MODELS_CACHE_DIR, default .cache/ "
                              "in the repository, or the user's cache folder when that cannot be written; "
                              "default: off)")
        sim.add_argument(_length_flag(chapter), type=_run_length_at_least(1, chapter.sim_unit,
                                                                           f"simulated {chapter.sim_unit} per load"),
                         default=None, dest="length",
                         metavar=chapter.sim_unit.upper(),
                         help=f"run length per load, {chapter.sim_unit}, at most {MAX_RUN:,} "
                              f"({'measured, after the warm-up' if chapter.sim_unit == 'messages' else 'warm-up included'}"
                              f"; default: {chapter.lengths.length})")
        sim.add_argument("--warmup", type=_run_length_at_least(0, "warmup", "discarded warm-up per load"),
                         default=None, metavar=chapter.sim_unit.upper(),
                         help=f"discarded warm-up per load, {chapter.sim_unit}, at most {MAX_RUN:,} "
                              f"(default: {chapter.lengths.warmup})")
        sim.add_argument("--seed", type=_nonneg_int, default=None, help=f"random seed (integer; default: {SEED})")
        sim.add_argument("--jobs", type=_positive_int, default=None,
                         help=f"worker processes for the simulated loads (default: {JOBS})")
        sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                         help="a progress bar of the simulated loads on standard error (default: on when standard "
                              "error is a terminal)")
        if not chapter.closed:
            sim.add_argument("--sim-saturation", dest="sim_saturation", action=argparse.BooleanOptionalAction,
                             default=None,
                             help="search the simulated saturation load with the chapter's own search (cached): "
                                  "the --points grid spans it, the figure draws it, the error summary counts the "
                                  "loads below 80%% of it (default: on with --points or --plot, off with --loads "
                                  "alone)")
        if len(chapter.setup_names) > 1:
            sim.add_argument("--setup", choices=chapter.setup_names, default=None,
                             help=f"simulator set-up ({chapter.setup_help or 'the chapter setups.SETUPS'}; "
                                  f"default: {chapter.setup_names[0]})")

    sat = sub.add_parser("saturation", help=f"print the model's saturation load ({load})",
                         description=f"{chapter.description}\n\nPrints the model's saturation load "
                                     f"{chapter.load} in {chapter.load_unit} (the chapter's saturation_load).",
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    group = sat.add_argument_group("model parameters (the keywords of solve)")
    for p in chapter.params:
        p.add_to(group)
    sat.add_argument("--rtol", type=_positive_float, default=SAT_RTOL, metavar="R",
                     help=f"relative tolerance of the saturation load (dimensionless; default: {SAT_RTOL})")
    if chapter.atlas is not None:
        atlas_cli.add_parser(sub, chapter, argparse.RawDescriptionHelpFormatter)
    return parser


# ----------------------------------------------------------------------------
# Errors that name the parameter
# ----------------------------------------------------------------------------
_LOAD_NAMES = {"loads", "NC_values", "mu1_values", "lams", "rates", "load"}
#: Keywords of the simulators' translations and the shared option that sets them.
_SIM_NAMES = {"messages": "--messages", "warmup_messages": "--warmup", "cycles": "--cycles",
              "warmup_cycles": "--warmup", "warmup": "--warmup", "seed": "--seed", "jobs": "--jobs",
              "grid": "--plot"}  # compare's `grid`: the drawn line, which --plot asks for


def option_of(chapter: Chapter, message: str, options: Sequence[str] = ()) -> str:
    """The command-line option a solver's error message is about (``"--L"``), or ``""``.

    A :class:`~models.core.errors.ParameterError` names its parameter in
    backticks (``"`L` must be an integer >= 2 ..."``, ``"`radices[1]` ..."``);
    the first name that is an option of the command wins; the load
    (``LOAD``) is ``--loads``, a simulator's run length ``--messages`` (or
    ``--cycles``) and ``--warmup``, ``compare``'s ``grid`` (the drawn line) ``--plot``.
    """
    known = {p.name for p in chapter.params} | ({"setup"} if chapter.setup_names else set()) | set(options)
    for name in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]`]*\])?`", message):
        if name in known:
            return f"--{name}"
        if name == chapter.load or name in _LOAD_NAMES:
            return "--loads"
        if name in _SIM_NAMES:
            return _SIM_NAMES[name]
    return ""


def _fail(parser: argparse.ArgumentParser, chapter: Chapter, exc: BaseException, options=()) -> int:
    if isinstance(exc, ValueError):
        msg = str(exc)
        opt = option_of(chapter, msg, options)
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {opt + ': ' if opt else ''}{msg}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{parser.prog}: error: {type(exc).__name__}: {exc}", file=sys.stderr)
    return EXIT_FAILURE


# ----------------------------------------------------------------------------
# The commands
# ----------------------------------------------------------------------------
def _fmt(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "True" if x else "False"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return repr(float(x))


def _rows(table) -> list[list[str]]:
    """The CSV rows of a comparison's :meth:`~models.core.compare.Comparison.table`."""
    cols = ["load", "model latency", "model saturated", "sim latency", "sim CI95", "sim saturated"]
    cols = [c for c in cols if c in table]
    return [[_fmt(bool(v)) if c.endswith("saturated") else _fmt(v) for c, v in zip(cols, row)]
            for row in table[cols].itertuples(index=False)]


def _write_csv(path, header, rows) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    if path is None:
        sys.stdout.write(buf.getvalue())
        sys.stdout.flush()
    else:
        Path(path).write_text(buf.getvalue())


def comparison(chapter: Chapter, options: Mapping, *, loads: list | None, simulated: bool, plot: bool):
    """The chapter's ``compare`` (``models.<chapter>.compare``) with the command's options: a Comparison.

    The model's parameters are the options as named; ``--loads`` or
    ``--points``/``--upto`` give the loads; with ``--simulate`` the run
    options of the simulation (``--messages``/``--cycles``, ``--warmup``,
    ``--seed``, ``--jobs``, ``--progress``: :class:`~models.core.compare.RunOptions`
    checks and turns them into the settings), the set-up and the search of
    the simulated saturation load (``--[no-]sim-saturation``; by default when
    the loads depend on it or the figure draws it).  The chapter builds its
    curve once and simulates it with its own hook.  The model's fine grid
    only when a figure is drawn.
    """
    run = dict(loads=loads, simulate=simulated, grid=GRID if plot else 0)
    if loads is None:  # with --loads, --points and --upto are refused (as compare refuses them)
        run.update(points=options["points"], upto=options["upto"])
    if simulated:
        bar = options.get("progress")
        run.update({chapter.sim_unit: options["length"]}, warmup=options["warmup"], seed=options["seed"],
                   jobs=options["jobs"], progress=sys.stderr.isatty() if bar is None else bool(bar))
        if not chapter.closed:
            search = options.get("sim_saturation")
            run["search"] = (loads is None or plot) if search is None else bool(search)
        if len(chapter.setup_names) > 1 and options.get("setup") is not None:
            run["setup"] = options["setup"]
    return chapter.front.compare(**chapter.compare_kwargs(options), **run)


def _check_output(parser: argparse.ArgumentParser, option: str, value: str) -> None:
    """``--out``/``--plot`` ``value`` can be written: checked before anything is computed (review C14-C20).

    Its folder is created.  A folder (or a name ending in ``/``), a folder
    that cannot be created, and a place where the file can be neither
    created nor opened for writing (a read-only file system, a full inode
    table, a name too long for the file system: review N-41) are usage
    errors naming the option; no file-system error escapes as a traceback.
    The file is left as it was: a new one is created and removed again, an
    existing regular file is opened for appending and closed unchanged (a
    device or a pipe such as ``/dev/stdout`` is not opened).
    """
    path = Path(value)
    try:
        folder = value.endswith(("/", os.sep)) or path.is_dir()
    except OSError as exc:  # is_dir raises what is not "no such file" (too long a name, a parent not searchable)
        parser.error(f"{option}: cannot write {value!r}: {exc.strerror or exc}")
    if folder:
        example = path / ("curve.csv" if option == "--out" else "curve.svg")
        parser.error(f"{option}: {value!r} is a folder; give a file name (such as {str(example)!r})")
    try:
        path.resolve().parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        parser.error(f"{option}: cannot create the folder of {value!r}: {exc.strerror or exc}")
    try:
        if os.path.lexists(path):
            if path.is_file():
                os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.unlink(path)
    except OSError as exc:
        parser.error(f"{option}: cannot write {value!r}: {exc.strerror or exc}")


def _same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file: the same path once every symbolic link is followed, or
    two names (hard links) of one existing file."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): different names of different files
        return False


def _io_failure(parser: argparse.ArgumentParser, exc: OSError) -> int:
    """One line for an I/O fault of the computation (the cache folder, a Dask scheduler); exit status 1."""
    hint = ""
    name = getattr(exc, "filename", None)
    if isinstance(name, str) and not isinstance(exc, ConnectionError):
        cache = cache_dir()
        if Path(os.path.abspath(name)).is_relative_to(cache) or Path(cache).is_relative_to(os.path.abspath(name)):
            hint = (f" (the simulation cache {str(cache)!r}, $MODELS_CACHE_DIR: point it at a writable folder with "
                    "free space)")
    print(f"{parser.prog}: error: {type(exc).__name__}: {exc}{hint}", file=sys.stderr)
    return EXIT_FAILURE


def _write_failure(parser: argparse.ArgumentParser, option: str, value: str, exc: OSError) -> int:
    """One line when writing ``--out``/``--plot`` fails after the computation (a disk that filled up); status 1."""
    print(f"{parser.prog}: error: {option}: cannot write {value!r}: {exc.strerror or exc}", file=sys.stderr)
    return EXIT_FAILURE


def _configurations(parser, chapter: Chapter, options: dict) -> tuple[str | None, list]:
    """``(name, values)`` of the one parameter given several values (``--M 8 32``), or ``(None, [None])``.

    Every other single-valued parameter is made a single value again in ``options``; two parameters with
    several values are a usage error (one varies at a time: the figure's legend and the CSV's column name it).
    """
    several = []
    for p in chapter.params:
        value = options.get(p.name)
        if p.varies and isinstance(value, list):
            if len(value) == 1:
                options[p.name] = value[0]
            else:
                several.append(p.name)
    if len(several) > 1:
        parser.error(f"--{several[1]}: only one parameter may take several values (one curve each); --{several[0]} "
                     f"already does: give --{several[1]} one value")
    if not several:
        return None, [None]
    name = several[0]
    values = list(options[name])
    repeated = sorted({str(v) for v in values if values.count(v) > 1})
    if repeated:
        parser.error(f"--{name}: {', '.join(repeated)} given twice; give each value once")
    return name, values


def _curve(args, parser, chapter: Chapter) -> int:
    options = vars(args)
    simulated = bool(options.get("simulate"))
    plot = Path(args.plot) if args.plot else None
    if plot is not None and plot.suffix.lower() not in PLOT_SUFFIXES:
        parser.error(f"--plot: the file must end in {', '.join(PLOT_SUFFIXES)}; got {args.plot!r}")
    for flag, given in (("--style", args.style is not None and f"--style {args.style}"),
                        ("--font", args.font is not None and f"--font {args.font}"),
                        ("--no-title", args.no_title and "--no-title")):
        if given and plot is None:  # never silently ignored
            parser.error(only_used_with(flag, "--plot", given, add="--plot FILE.svg"))
    if args.loads is not None and args.upto is not None:  # --upto spaces the --points grid: never silently ignored
        parser.error(not_allowed_with("--upto", "--loads"))
    if chapter.simulates:
        defaults = _sim_defaults(chapter)
        given = [_as_typed(flag, options[dest]) for dest, (flag, _) in defaults.items()
                 if options.get(dest) is not None]
        if given and not simulated:  # review C21: never silently ignored
            parser.error(only_used_with(given[0], "--simulate", " ".join(given)))
        for dest, (_, default) in defaults.items():
            if options.get(dest) is None:
                options[dest] = default  # vars(args) is args' own namespace: args.<dest> too
    varying, values = _configurations(parser, chapter, options)
    out = None if args.out in (None, STDOUT) else args.out  # '-': standard output, never a file named '-'
    if out and plot is not None and _same_file(out, args.plot):  # the figure would replace the CSV (review N-38)
        parser.error(f"--plot: {args.plot!r} is the --out file too; give the CSV and the figure each its own name")
    for name, value in (("--out", out), ("--plot", args.plot)):
        if value:
            _check_output(parser, name, value)
    loads = None
    if args.loads is not None:
        loads = [int(x) if chapter.integer_loads and float(x).is_integer() else x for x in args.loads]
    results = []
    for value in values:
        if varying is not None:
            options[varying] = value
        try:
            results.append(comparison(chapter, options, loads=loads, simulated=simulated, plot=plot is not None))
        except OSError as exc:  # the cache (read-only, full, a file) or an unreachable Dask scheduler
            return _io_failure(parser, exc)
        except ValueError as exc:  # a bad value among several: name it
            if varying is not None and len(values) > 1:
                raise type(exc)(f"{exc} (--{varying} {value})") from None
            raise
    header, rows = columns(chapter, simulated), []
    if varying is not None:
        header = [varying] + header  # the configuration of each row
    for value, result in zip(values, results):
        rows += [([_fmt(value)] if varying is not None else []) + row for row in _rows(result.table())]
    try:
        _write_csv(out, header, rows)
    except OSError as exc:
        if out is None:
            raise  # standard output (a closed pipe): as before
        return _write_failure(parser, "--out", out, exc)
    if plot is not None:
        from .compare import save_comparisons  # pandas and matplotlib: only when a figure is drawn

        labels = None
        if varying is not None:  # what differs, in the words of the figure's title (M = 8 flits), else the option
            made, _ = _config_labels(results)
            labels = [m if not m.startswith("configuration ") else f"{varying} = {v}" for m, v in zip(made, values)]
        try:
            save_comparisons(results, plot, args.style or STYLES[0], title=not args.no_title,
                             font=args.font or FONTS[0], labels=labels)
        except OSError as exc:
            return _write_failure(parser, "--plot", args.plot, exc)
    for value, result in zip(values, results):
        which = f"--{varying} {value:g}: " if isinstance(value, float) else f"--{varying} {value}: "
        which = which if varying is not None else ""
        if out or plot is not None:
            saturation = result.knee if chapter.closed else result.model_saturation
            sat = f"; model saturation load {saturation:.6g} {chapter.load_unit}" if math.isfinite(saturation) else ""
            written = " and ".join(str(p) for p in (out, args.plot) if p)
            print(f"{which}{len(result.loads)} loads{sat} -> {written}", file=sys.stderr)
        if simulated:
            line = result.summary()
            if not chapter.closed and not math.isfinite(result.sim_saturation):
                line += " (add --sim-saturation to search it)"
            print(f"{which}{line}", file=sys.stderr)
    return 0


def _config_labels(results):
    from .compare import config_labels  # pandas: only when a figure of several curves is drawn

    return config_labels(results)


def _saturation(args, parser, chapter: Chapter) -> int:
    try:
        kw = chapter.solver_kwargs(vars(args))
        value = float(chapter.front.saturation_load(**kw, rtol=args.rtol))
    except ValueError as exc:  # the solver's errors, --rtol among the options named (review C10)
        return _fail(parser, chapter, exc, options=("rtol",))
    except OSError as exc:
        return _io_failure(parser, exc)
    print(f"{value!r} {chapter.load_unit}")
    return 0


def _atlas(args, parser, chapter: Chapter) -> int:
    return atlas_cli.command(args, parser, chapter, check_output=_check_output, write_failure=_write_failure,
                             io_failure=_io_failure)


def _stop_signals():
    """A context manager for :func:`main`: SIGINT, SIGTERM and SIGHUP raise :class:`KeyboardInterrupt`.

    Ctrl-C, ``kill``/``timeout``/a batch scheduler's time limit and a closed
    terminal or ssh session then all stop the command the same way: a sweep
    (:func:`models.sim.sweep.run_sweep`) terminates its pool's workers in its
    ``finally`` and keeps every finished point in the cache, and :func:`main`
    prints one line.  Yields the list of the signals caught.  A signal
    ignored when the command started (``nohup``, a background job) stays
    ignored; outside the main thread nothing is installed.  The handler
    carries the mark ``raises_keyboard_interrupt``
    (``models.sim.sweep.INTERRUPT_MARK``): while a point computes in this
    process, inside compiled code where no Python handler can run, the sweep
    gives these signals their default action (the process ends at once).
    """
    import contextlib
    import signal
    import threading

    @contextlib.contextmanager
    def installed():
        caught: list[int] = []

        def handler(signum, frame):
            caught.append(signum)
            raise KeyboardInterrupt

        handler.raises_keyboard_interrupt = True
        old = {}
        if threading.current_thread() is threading.main_thread():
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                sig = getattr(signal, name, None)
                if sig is not None and signal.getsignal(sig) not in (signal.SIG_IGN, None):
                    old[sig] = signal.signal(sig, handler)
        try:
            yield caught
        finally:
            for sig, previous in old.items():
                signal.signal(sig, previous)

    return installed()


def main(chapter: Chapter, argv: Sequence[str] | None = None) -> int:
    """Run ``python -m models.<chapter> <argv>``; returns the exit status (0, 1 or 2).

    argparse's own errors (and ``--help``) raise :class:`SystemExit` as
    usual; a solver's :class:`ValueError` is printed naming the option and
    returns 2; a :class:`~models.core.errors.ConvergenceError` or a
    simulation error returns 1.  Ctrl-C, SIGTERM or SIGHUP (:func:`_stop_signals`)
    stop every simulation process within seconds, keep the simulated points
    that finished in the cache, print one line (``... curve: interrupted by
    SIGTERM; ...``) and return 128 + the signal's number (130 for Ctrl-C).
    """
    parser = build_parser(chapter)
    args = parser.parse_args(None if argv is None else list(argv))
    command = {"curve": _curve, "saturation": _saturation, "atlas": _atlas}[args.command]
    sub = parser._subparsers._group_actions[0].choices[args.command]  # the subcommand's parser, for its usage
    with _stop_signals() as caught:
        try:
            return command(args, sub, chapter)
        except (ValueError, ConvergenceError, SimulationError) as exc:
            axes = (*(a.name for a in chapter.atlas.SPEC.axes), "setups") if args.command == "atlas" else ()
            return _fail(sub, chapter, exc, options=("loads", "points", "upto", "out", "plot", *axes))
        except KeyboardInterrupt:
            import signal

            signum = caught[0] if caught else signal.SIGINT
            kept = ("; the simulated points that finished are cached, the same command computes only the others"
                    if getattr(args, "simulate", False) or args.command == "atlas" else "")
            try:
                print(f"{sub.prog}: interrupted by {signal.Signals(signum).name}{kept}", file=sys.stderr)
            except OSError:  # SIGHUP: the terminal may be gone
                pass
            return 128 + int(signum)


def run(chapter: Chapter) -> None:
    """The body of a chapter's ``__main__``: :func:`main` on ``sys.argv``, exiting with its status."""
    sys.exit(main(chapter))
