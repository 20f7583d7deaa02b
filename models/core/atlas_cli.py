"""``python -m models.<chapter> atlas``: the accuracy atlas over a grid of configurations, as a CSV and a figure.

Each axis of the chapter's atlas (:class:`models.core.atlas.AtlasSpec`) is an
option taking one or more values (``--network 8x8 12x12 --M 32 --L 3``); an
axis left out takes the book's values (``--quick``: the quick profile's
small grid and run lengths).  Every value and every configuration is checked
by the model before anything is simulated: a bad one is one line, naming the
option, and exit status 2.  The cells run on ``--jobs`` processes (default
all of this machine's cores), or on the Dask cluster of
``$MODELS_DASK_SCHEDULER``; every simulated point is cached under
``$MODELS_CACHE_DIR``, so an atlas stopped with Ctrl-C computes only what is
missing when the same command runs again::

    python -m models.torus_dor atlas --network 12x12 --M 32 --L 3 --out atlas.csv --plot atlas.svg

The CSV has one row per configuration and set-up (:func:`models.core.atlas.cell_row`:
the saturation loads and their ratio, the signed errors at 25, 50, 75 and
80 % of the simulated saturation load, the worst error by the book's rule and
its band); standard error gets one line per band.

This module imports no chapter (the floors of DESIGN.md): the chapter's
``__main__`` passes its atlas module in (:attr:`models.core.cli.Chapter.atlas`).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from . import atlas as core
from .errors import ParameterError
from .setups import MAX_RUN, SimSettings

__all__ = ["add_parser", "command", "settings_of"]


def _help_values(values) -> str:
    return " ".join(map(str, values))


def add_parser(sub, chapter, formatter) -> argparse.ArgumentParser:
    """The ``atlas`` subcommand of ``chapter`` (its :attr:`~models.core.cli.Chapter.atlas` module's ``SPEC``)."""
    spec = chapter.atlas.SPEC
    prog_unit = "cycles" if spec.closed else "messages"
    at = (f"the populations NC = {', '.join(map(str, spec.loads))}" if spec.closed else
          f"{', '.join(f'{f:.0%}' for f in spec.loads)} of the simulated saturation load")
    p = sub.add_parser(
        "atlas", help="the model against the simulation over a grid of configurations (CSV, heatmap)",
        description=(f"{chapter.description}\n\nThe accuracy atlas: at every configuration of the grid (every "
                     f"combination of the axes' values) and set-up, the chapter's comparison at {at}: "
                     "the saturation loads and their ratio, the signed error (model - sim) / sim there, the worst "
                     "|error| by the book's rule and its band (within 5 %, within 10 %, beyond, or the model "
                     "saturates early).  Every simulated point is cached: an interrupted atlas resumes."),
        formatter_class=formatter)
    axes = p.add_argument_group("axes (one or more values each; default: the book's grid)")
    for a in spec.axes:
        kw = dict(dest=f"axis_{a.name}", nargs="+", default=None, metavar=a.name.upper(),
                  help=f"{a.unit} (default: {_help_values(spec.grid[a.name])})")
        if a.choices is not None:
            kw["choices"] = list(a.choices)
            kw.pop("metavar")
        axes.add_argument(f"--{a.name}", **kw)
    p.add_argument("--setups", nargs="+", choices=list(spec.setups), default=None,
                   help=f"simulator set-ups, the one that stands for the model first (default: "
                        f"{_help_values(spec.setups)})")
    p.add_argument("--quick", action="store_true",
                   help="the quick profile: its small grid for the axes not given, and its short runs")
    run = p.add_argument_group("runs (defaults: the book's, stated on the atlas page)")
    run.add_argument(f"--{prog_unit}", dest="length", type=int, default=None, metavar="N",
                     help=f"longest run per simulated load, {prog_unit} (at most {MAX_RUN:,}; default: "
                          f"{getattr(spec.settings, prog_unit):,})")
    run.add_argument("--warmup", type=int, default=None, metavar="N",
                     help=f"discarded warm-up per load, {prog_unit}")
    if not spec.closed:
        run.add_argument("--target-ci", dest="target_ci", type=float, default=None, metavar="F",
                         help="stop a load once its latency's 95%% half width is within this fraction of the mean "
                              f"(dimensionless; default: {spec.settings.target_ci}; 0: always the full run)")
    run.add_argument("--seed", type=int, default=None, help="random seed (integer; default: 1)")
    run.add_argument("--jobs", type=int, default=None,
                     help="configurations at once, in worker processes (default: all of this machine's cores; "
                          "ignored on a Dask cluster, $MODELS_DASK_SCHEDULER)")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="a progress bar of the cells (default: on when standard error is a terminal)")
    out = p.add_argument_group("output")
    out.add_argument("--out", metavar="FILE.csv", help="write the table there ('-' or absent: standard output)")
    out.add_argument("--plot", metavar="FILE.svg", help="also draw the heatmaps there (.svg, .png or .pdf)")
    return p


def settings_of(spec, args) -> SimSettings:
    """The run settings of the command: the spec's (or its quick ones) with the options given on top."""
    base = spec.quick_settings if args.quick else spec.settings
    changes = {}
    unit = "cycles" if spec.closed else "messages"
    if args.length is not None:
        changes[unit] = args.length
        if not spec.closed and base.min_messages is not None and base.min_messages > args.length:
            changes["min_messages"] = args.length
    if args.warmup is not None:
        changes[f"warmup_{unit}"] = args.warmup
    if getattr(args, "target_ci", None) is not None:
        changes["target_ci"] = None if args.target_ci == 0 else args.target_ci
        if changes["target_ci"] is None:
            changes["min_messages"] = None
    if args.seed is not None:
        changes["seed"] = args.seed
    return dataclasses.replace(base, **changes) if changes else base


def grid_of(spec, args) -> dict:
    """Axis name -> the values given (or the book's / the quick grid's)."""
    base = spec.quick if args.quick else spec.grid
    return {a.name: (getattr(args, f"axis_{a.name}") or list(base[a.name])) for a in spec.axes}


def command(args, parser, chapter, *, check_output, write_failure, io_failure) -> int:
    """Run ``atlas``: check everything, run the cells, write the CSV (atomically) and the figure."""
    spec = chapter.atlas.SPEC
    plot = Path(args.plot) if args.plot else None
    if plot is not None and plot.suffix.lower() not in (".svg", ".png", ".pdf"):
        parser.error(f"--plot: the file must end in .svg, .png or .pdf; got {args.plot!r}")
    out = None if args.out in (None, "-") else args.out
    for name, value in (("--out", out), ("--plot", args.plot)):
        if value:
            check_output(parser, name, value)
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs: must be an integer >= 1; got {args.jobs}")
    try:
        grid = grid_of(spec, args)
        settings = settings_of(spec, args)
        core.check_grid(spec, grid, args.setups)  # every value and configuration, before anything is simulated
    except ParameterError as exc:
        raise ValueError(str(exc)) from None
    try:
        frame = chapter.atlas.run(grid, setups=args.setups, settings=settings,
                                  jobs=args.jobs, progress=sys.stderr.isatty() if args.progress is None
                                  else bool(args.progress))
    except OSError as exc:
        return io_failure(parser, exc)
    try:
        if out is None:
            sys.stdout.write(frame.to_csv(index=False))
        else:
            core.write_atlas(frame, out)
    except OSError as exc:
        if out is None:
            raise
        return write_failure(parser, "--out", out, exc)
    if plot is not None:
        from .atlas_plot import save  # matplotlib, only when a figure is asked for (a light --help)

        try:
            save(frame, spec, plot)
        except OSError as exc:
            return write_failure(parser, "--plot", args.plot, exc)
    counts = frame["band"].value_counts()
    bands = "; ".join(f"{b}: {int(n)}" for b, n in counts.items())
    where = " -> " + " and ".join(str(v) for v in (out, args.plot) if v) if (out or plot) else ""
    print(f"{len(frame)} rows ({core.precision_sentence(settings, spec.closed).split(';')[0]}); {bands}{where}",
          file=sys.stderr)
    return 0

