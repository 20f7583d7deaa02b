"""The accuracy atlas: a model against the simulation over a grid of configurations, one row per configuration.

Each paper validates its model at a handful of networks.  The atlas asks the
chapter's own comparison (its ``compare``, :func:`models.core.compare.compare`)
at every configuration of a grid that spans the paper's range and a step
beyond it on each axis (network size, message length, virtual channels, ...),
and keeps per configuration and simulator set-up:

* the model's and the simulation's saturation loads and their ratio (the
  simulated one by the chapter's own search, with its bracket);
* the signed error ``(model - sim) / sim`` at the fixed fractions
  :data:`OPEN_FRACTIONS` (25, 50, 75 and 80 %) of the *simulated* saturation
  load (of a closed system, which never saturates, at the populations
  :data:`CLOSED_POPULATIONS`, the range of the paper's figures);
* the worst ``|error|`` by the book's one rule (the comparison's
  ``worst_error``: :func:`models.core.claims.accuracy_below` at 25, 50 and 75 %
  of the simulated saturation, ``inf`` when the model saturates there), so a
  row at a paper configuration *is* the chapter's comparison at that
  configuration and seed;
* its band (:func:`band`): within 5 %, within 10 %, beyond 10 %, or
  *saturates early* (the model predicts saturation below 80 % of the
  simulated saturation load).

A chapter declares its atlas in ``models/<chapter>/atlas.py`` as an
:class:`AtlasSpec` (its ``compare``, its axes, the book's grid and the quick
profile's, the set-ups -- the one that stands for the model first, the
paper's beside it -- and the paper's own configurations), with two lines of
its own: a module-level ``cell`` (:func:`cell_row` on its spec, which a
worker process finds by name) and ``run`` (:func:`run_atlas` with that cell
and the sweep runner).  :func:`run_atlas` checks every value and every
configuration with the model alone before anything is simulated, then runs
the cells through the sweep runner it is given
(:func:`models.sim.sweep.run_sweep`: a process pool of ``jobs`` workers, or
the Dask cluster of ``$MODELS_DASK_SCHEDULER``):
a cell is not a simulation itself, so it holds none of a pipeline's cores,
and the simulated points of its comparison take them as every sweep's do.
Every simulated point is cached on disk (keyed by every input), so an atlas
stopped by Ctrl-C computes only the missing points when run again.  The rows
are not cached: they are a few milliseconds of model on top of the cached points.

The command is ``python -m models.<chapter> atlas`` (:mod:`models.core.atlas_cli`);
the figure :func:`models.core.atlas_plot.heatmaps`.

This module imports no chapter and no simulator (the floors of DESIGN.md):
the chapter passes its ``compare`` (:func:`lazy`, so that ``atlas --help``
imports neither pandas nor the chapter's solvers), its cell and the sweep
runner in.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import math
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .cache import atomic_write_text
from .errors import ParameterError
from .setups import ACCURACY_FRACTIONS, BELOW, SimSettings

__all__ = ["Axis", "AtlasSpec", "OPEN_FRACTIONS", "CLOSED_POPULATIONS", "err_column", "EARLY", "NOT_SIMULATED", "BANDS", "band", "cells", "check_grid",
           "run_atlas", "cell_row", "lazy", "network", "radices", "rates", "rates_keywords", "atlas_file", "write_atlas", "read_atlas", "region", "SETTINGS", "QUICK_SETTINGS",
           "precision_sentence", "counts", "listing", "summary_sentence", "paper_sentence", "glue_values",
           "display_frame", "axes_frame"]

#: The loads of an open system's cell, as fractions of the simulated saturation load: the book's accuracy
#: fractions (25, 50, 75 %) and the 80 % cut of the verdicts.
OPEN_FRACTIONS = tuple(sorted({*ACCURACY_FRACTIONS, BELOW}))
#: The loads of a closed system's cell (``min_mva``): populations NC (requests per processor), the range of the
#: paper's figures.  (Fractions of the knee N* would not do: on hot-spot traffic N* is below 1.)
CLOSED_POPULATIONS = (1, 2, 4, 8, 16, 32)
#: The bands of the worst error (fractions): within 5 %, within 10 %, beyond.
BANDS = (0.05, 0.10)
#: The band of a cell whose model saturates below 80 % of the simulated saturation load (its worst error is inf).
EARLY = "saturates early"
#: The band of a cell the set-up's simulator cannot run (its reason is in ``why no sim saturation``).
NOT_SIMULATED = "not simulated"

#: The run lengths of a cell in the book (full profile): each point measures ``min_messages`` first and is
#: lengthened until the 95 % half width of its mean latency is within 2 % of the mean, at most ``messages``; the
#: saturation search probes 10,000 messages, six halvings (relative bracket 4 % where the search expands a guess).
#: Shorter than the figures' runs: a cell's band needs its worst error to 5 % or 10 %, not to 1 %.  The probes are
#: the exception that matters: a short probe calls saturation late (3,000-message probes put the simulated saturation
#: load 9-17 % above the figures' 20,000-message searches on torus_dor's paper configurations, 16 % on torus_ipp's),
#: and every load of a cell is a fraction of it.
SETTINGS = SimSettings(messages=15_000, warmup_messages=2_000, min_messages=3_000, target_ci=0.02, batches=10,
                       sat_messages=10_000, sat_steps=6, sat_rtol=0.04)
#: The quick profile's (CI): fixed 2,000-message points.
QUICK_SETTINGS = SimSettings(messages=2_000, warmup_messages=500, batches=10, sat_messages=1_500, sat_steps=4,
                             sat_rtol=0.1)


def lazy(module: str, name: str) -> Callable:
    """``name`` of ``module``, imported at the first call (a chapter's ``compare`` for its spec)."""

    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = f"{module}.{name}"
    return call


def err_column(load: float, closed: bool = False) -> str:
    """The error column at ``load``: a fraction of the simulated saturation load, ``"err @25%"``, or a closed
    system's population, ``"err @NC=4"``."""
    return f"err @NC={int(load)}" if closed else f"err @{load:.0%}"


@dataclasses.dataclass(frozen=True)
class Axis:
    """One axis of an atlas: a parameter of the chapter's ``compare`` and the values the grid takes.

    name : str
        The option (``--<name>`` of ``atlas``) and the column of the table.
    unit : str
        Meaning and unit, for ``--help`` and the page (``"message length, flits"``).
    type : callable
        Parses one value from the command line (``int``, ``float``, ``str`` or a parser such as :func:`network`).
    choices : sequence, optional
        The allowed values.
    keyword : callable, optional
        ``keyword(value) -> {compare keyword: value}``: how the value reaches ``compare`` (default ``{name: value}``).
    label : str
        How the figure names the axis (default ``name``).
    """

    name: str
    unit: str
    type: Callable = int
    choices: Sequence | None = None
    keyword: Callable[[Any], Mapping] | None = None
    label: str = ""

    def parse(self, text: Any) -> Any:
        """One value, from the command line or a grid: a :class:`ParameterError` naming the axis if it is not one."""
        try:
            value = self.type(text)
        except (TypeError, ValueError) as exc:
            raise ParameterError(f"`{self.name}` must be a {self.unit}; got {text!r} ({exc})") from None
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"`{self.name}` must be one of {', '.join(map(str, self.choices))}; got {text!r}")
        return value

    def kwargs(self, value: Any) -> dict:
        return dict(self.keyword(value)) if self.keyword is not None else {self.name: value}


def network(text: Any) -> str:
    """An axis type: a torus's radices written ``"8x8"`` (or ``"4x4x4"``), each >= 2; returned as written, normalised."""
    parts = str(text).lower().replace("\u00d7", "x").split("x")
    try:
        radices = [int(p) for p in parts]
    except ValueError:
        raise ValueError("write the radices as 8x8 or 4x4x4") from None
    if not radices or any(r < 2 for r in radices):
        raise ValueError("every radix must be >= 2")
    return "x".join(map(str, radices))


def radices(value: str) -> tuple:
    """``"8x8"`` -> ``(8, 8)``."""
    return tuple(int(p) for p in value.split("x"))


def rates(text: Any) -> str:
    """An axis type: an IPP source's two transition rates written ``"0.2/0.8"`` (``sigma1/sigma2``, per cycle),
    each in (0, 1]; returned as written, normalised."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise ValueError("write the two rates as sigma1/sigma2, e.g. 0.2/0.8")
    values = [float(p) for p in parts]
    if not all(0 < v <= 1 for v in values):
        raise ValueError("each rate must be in (0, 1]")
    return "/".join(f"{v:g}" for v in values)


def rates_keywords(value: str) -> dict:
    """``"0.2/0.8"`` -> ``{"sigma1": 0.2, "sigma2": 0.8}``."""
    s1, s2 = (float(p) for p in value.split("/"))
    return {"sigma1": s1, "sigma2": s2}


@dataclasses.dataclass(frozen=True)
class AtlasSpec:
    """What a chapter's atlas is (``models/<chapter>/atlas.py``'s ``SPEC``).

    chapter : str
        The chapter's slug.
    compare : callable
        The chapter's ``compare(**parameters, **run)`` (:mod:`models.core.compare`).
    axes : tuple of Axis
        The grid's axes, in the table's column order.
    grid, quick : mapping
        The book's grid and the quick profile's (at least 4 configurations): axis name -> values.
    setups : tuple of str
        Simulator set-ups, the one that stands for the model first (its errors measure the model's approximations),
        the paper's beside it where the chapter has one.
    paper : tuple of mapping
        The paper's own configurations (axis name -> value; an axis left out matches any value).
    x, y : str
        The heatmap's axes (the other axes and the set-up make the small multiples).
    fixed : mapping
        Keywords of ``compare`` the same in every cell (``bidirectional=True``).
    closed : bool
        A closed system: no saturation load; the loads are the populations :data:`CLOSED_POPULATIONS`.
    threshold : float or None
        The paper's own accuracy threshold (a fraction), drawn on the colour scale; None when it gives none.
    settings, quick_settings : SimSettings
        The run lengths of a cell in the book and in the quick profile (default :data:`SETTINGS`,
        :data:`QUICK_SETTINGS`; a closed system counts cycles).
    """

    chapter: str
    compare: Callable
    axes: tuple
    grid: Mapping
    quick: Mapping
    setups: tuple
    paper: tuple = ()
    x: str = ""
    y: str = ""
    fixed: Mapping = dataclasses.field(default_factory=dict)
    closed: bool = False
    threshold: float | None = None
    settings: SimSettings = SETTINGS
    quick_settings: SimSettings = QUICK_SETTINGS

    def axis(self, name: str) -> Axis:
        for a in self.axes:
            if a.name == name:
                return a
        raise ParameterError(f"no axis `{name}` in the {self.chapter} atlas: {', '.join(a.name for a in self.axes)}")

    @property
    def loads(self) -> tuple:
        """The loads of a cell: fractions of the simulated saturation load, or a closed system's populations."""
        return CLOSED_POPULATIONS if self.closed else OPEN_FRACTIONS

    @property
    def error_columns(self) -> list:
        return [err_column(x, self.closed) for x in self.loads]

    def is_paper(self, cell: Mapping) -> bool:
        """Whether ``cell`` is one of the paper's configurations."""
        return any(all(cell.get(k) == v for k, v in p.items()) for p in self.paper)

    def compare_kwargs(self, cell: Mapping) -> dict:
        kw = dict(self.fixed)
        for a in self.axes:
            kw.update(a.kwargs(cell[a.name]))
        return kw


def cells(spec: AtlasSpec, grid: Mapping | None = None) -> list[dict]:
    """The configurations of ``grid`` (default the book's), every combination, in axis order."""
    grid = spec.grid if grid is None else grid
    names = [a.name for a in spec.axes]
    missing = [n for n in names if n not in grid]
    if missing:
        raise ParameterError(f"the {spec.chapter} atlas grid has no values for `{missing[0]}`")
    extra = sorted(set(grid) - set(names))
    if extra:
        raise ParameterError(f"`{extra[0]}` is not an axis of the {spec.chapter} atlas: {', '.join(names)}")
    values = []
    for a in spec.axes:
        vs = grid[a.name]
        if isinstance(vs, (str, bytes)) or not isinstance(vs, Sequence) or not len(vs):
            raise ParameterError(f"`{a.name}`: give a non-empty list of values; got {vs!r}")
        parsed = [a.parse(v) for v in vs]
        values.append(list(dict.fromkeys(parsed)))  # each value once, in the order given
    return [dict(zip(names, combo)) for combo in itertools.product(*values)]


def describe(cell: Mapping) -> str:
    """``"k=8, M=32, V=3"``: a configuration in words, for messages."""
    return ", ".join(f"{k}={v}" for k, v in cell.items())


def check_grid(spec: AtlasSpec, grid: Mapping | None = None, setups: Sequence[str] | None = None) -> list[dict]:
    """The configurations of ``grid``, each checked by the chapter's model before anything is simulated.

    Every value is parsed by its axis, every set-up must be the chapter's, and
    every configuration is solved by the model alone (``compare(...,
    simulate=False)``, milliseconds): the first refusal is a
    :class:`ParameterError` naming the configuration and the parameter.
    """
    todo = cells(spec, grid)
    for s in (spec.setups if setups is None else setups):
        if s not in spec.setups:
            raise ParameterError(f"`setups`: {s!r} is not a set-up of the {spec.chapter} atlas; "
                                 f"choose from {', '.join(spec.setups)}")
    for cell in todo:
        try:
            spec.compare(**spec.compare_kwargs(cell), simulate=False, grid=0,
                         **({"loads": [1]} if spec.closed else {"points": 1}))
        except ParameterError as exc:
            raise ParameterError(f"the configuration {describe(cell)}: {exc}") from None
    return todo


def band(worst: float) -> str:
    """The band of a worst error (a fraction): ``"within 5 %"``, ``"within 10 %"``, ``"beyond 10 %"``,
    :data:`EARLY` (``inf``: the model saturates below 80 % of the simulated saturation), or ``"no point"`` (NaN)."""
    if math.isnan(worst):
        return "no point"
    if math.isinf(worst):
        return EARLY
    for b in BANDS:
        if worst <= b:
            return f"within {b:.0%}".replace("%", " %")
    return f"beyond {BANDS[-1]:.0%}".replace("%", " %")


def _errors(spec: AtlasSpec, c) -> dict:
    """The signed error of the comparison ``c`` at each of the spec's loads (open: fractions of the simulated
    saturation load; closed: populations)."""
    errors = c.errors
    out = {}
    for x, name in zip(spec.loads, spec.error_columns):
        if spec.closed:
            hit = errors[errors["load"] == x]
        else:
            hit = errors[np.isclose(errors["fraction"].astype(float), x, rtol=1e-9, atol=0)]
        out[name] = float(hit["error"].iloc[0]) if len(hit) else math.nan
    return out


def cell_row(spec: AtlasSpec, cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas: the chapter's comparison at ``cell`` on ``setup`` with the run ``settings``.

    ``settings`` are the fields of a :class:`~models.core.setups.SimSettings`
    (a mapping, so the call pickles); its ``jobs`` is 1 here: the atlas runs
    its cells in parallel, not a cell's points.  A chapter's module-level
    ``cell(cell, setup, settings)`` calls this with its spec, so a process
    pool or a Dask worker can run it by name.
    """
    start = time.process_time()
    s = SimSettings(**dict(settings, jobs=1, progress=False))
    kw = spec.compare_kwargs(cell)
    row = dict(cell)
    row.update({"setup": setup, "paper configuration": spec.is_paper(cell)})
    try:
        if spec.closed:
            c = spec.compare(**kw, setup=setup, loads=list(spec.loads), settings=s, grid=0)
        else:
            c = spec.compare(**kw, setup=setup, points=1, upto=BELOW, settings=s, grid=0)
    except ParameterError as exc:  # the set-up's simulator refuses the configuration (the model took it)
        nan = math.nan
        row.update({"model saturation": nan, "sim saturation": nan, "sim saturation lo": nan, "sim saturation hi": nan,
                    "saturation ratio": nan, **{name: nan for name in spec.error_columns}, "worst |err|": nan,
                    "band": NOT_SIMULATED, "uncertain": "",
                    "why no sim saturation": f"the set-up {setup!r} cannot simulate this configuration: {exc}",
                    "messages": 0, "cpu seconds": round(time.process_time() - start, 3)})
        return row
    model_sat = math.nan if spec.closed else c.model_saturation
    lo, hi = c.sim_bracket
    row.update({"model saturation": float(model_sat), "sim saturation": float(c.sim_saturation),
                "sim saturation lo": float(lo), "sim saturation hi": float(hi),
                "saturation ratio": float(c.saturation_ratio) if not spec.closed else math.nan})
    row.update(_errors(spec, c))
    worst = float(c.worst_error)
    row.update({"worst |err|": worst, "band": band(worst), "uncertain": c.uncertain or "",
                "why no sim saturation": _why_no_saturation(spec, c)})
    row["messages"] = int(c.sim["messages"].sum()) if c.sim is not None and "messages" in c.sim else -1
    row["cpu seconds"] = round(time.process_time() - start, 3)  # this process's: a cell runs its points here
    return row


def _why_no_saturation(spec: AtlasSpec, c) -> str:
    if spec.closed:
        return "a closed system: no saturation load (the loads are populations)"
    if not math.isfinite(c.sim_saturation):
        return "the simulated search found no saturation load"
    return ""


def run_atlas(spec: AtlasSpec, grid: Mapping | None = None, *, cell: Callable, sweep: Callable,
              setups: Sequence[str] | None = None, settings: SimSettings | None = None, jobs: int | str = "auto",
              progress: bool = False):
    """The atlas of ``spec`` over ``grid`` (default the book's): one row per configuration and set-up.

    Parameters
    ----------
    spec : AtlasSpec
        The chapter's atlas.
    grid : mapping, optional
        Axis name -> values (default ``spec.grid``).
    cell : callable
        The chapter's module-level ``cell(cell, setup, settings) -> row`` (:func:`cell_row` on ``spec``).
    sweep : callable
        The sweep runner, :func:`models.sim.sweep.run_sweep`.
    setups : sequence of str, optional
        The set-ups (default ``spec.setups``: the model's, then the paper's).
    settings : SimSettings, optional
        The run lengths of every cell (default ``spec.settings``); the seed too.
    jobs : int or "auto"
        Cells at once (a process pool; in a pipeline ``"auto"`` is its cores, outside one 1); ignored on a Dask
        cluster (``$MODELS_DASK_SCHEDULER``), which runs every cell.
    progress : bool
        A progress bar of the cells.

    Raises
    ------
    ParameterError
        A bad value, set-up or configuration, before anything is simulated (:func:`check_grid`).
    """
    todo = check_grid(spec, grid, setups)
    settings = spec.settings if settings is None else settings
    if not isinstance(settings, SimSettings):
        raise ParameterError(f"`settings` must be a SimSettings; got {settings!r}")
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    points = [dict(cell=c, setup=s, settings=fields) for c in todo for s in (spec.setups if setups is None else setups)]
    rows = sweep(points, simulate_fn=cell, jobs=jobs, progress=progress, cache=False, hold_tokens=False)
    import pandas as pd

    return pd.DataFrame(rows)


def atlas_file(book_dir: Path | str, chapter: str) -> Path:
    """``<book_dir>/<chapter>/tables/tab-<chapter>-atlas.csv``."""
    return Path(book_dir) / chapter / "tables" / f"tab-{chapter}-atlas.csv"


def write_atlas(frame, path: Path | str) -> Path:
    """Write the atlas table atomically (a temporary file in the same folder, then renamed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write_text(path, frame.to_csv(index=False))


def read_atlas(path: Path | str):
    """An atlas table as written by :func:`write_atlas` (``inf`` kept, empty notes as "")."""
    import pandas as pd

    frame = pd.read_csv(path, keep_default_na=False, na_values=["", "nan", "NaN"])
    for col in ("uncertain", "why no sim saturation"):
        if col in frame:
            frame[col] = ["" if isinstance(v, float) and math.isnan(v) else str(v) for v in frame[col]]
    return frame


def region(frame, spec: AtlasSpec, within: float, setup: str | None = None):
    """The configurations (rows of ``setup``, default the model's) whose worst error is within ``within``."""
    setup = spec.setups[0] if setup is None else setup
    rows = frame[frame["setup"] == setup]
    w = rows["worst |err|"].astype(float)
    return rows[np.isfinite(w) & (w <= within)]


def precision_sentence(settings: SimSettings, closed: bool = False) -> str:
    """How precise a cell's simulated points are, in words (from ``settings``, never typed by hand)."""
    if closed:
        length = (f"{settings.cycles:,} cycles, the first {settings.warmup_cycles:,} discarded" if settings.cycles
                  else "?")
        if settings.target_ci is not None:
            return (f"each simulated population runs until the 95 % half widths of its mean response time and "
                    f"throughput are within {settings.target_ci:.0%} of their means (first run {length}, then 1.5 "
                    f"times as long at a time)")
        return f"each simulated population runs {length}"
    if settings.target_ci is not None:
        first = settings.min_messages or settings.messages
        return (f"each simulated load runs until the 95 % half width of its mean latency is within "
                f"{settings.target_ci:.0%} of the mean ({first:,} measured messages first, at most "
                f"{settings.messages:,}, after {settings.warmup_messages:,} of warm-up); the saturation search "
                f"probes {settings.sat_messages or settings.messages:,} messages per step")
    return (f"each simulated load measures {settings.messages:,} messages after {settings.warmup_messages:,} of "
            f"warm-up; the saturation search probes {settings.sat_messages or settings.messages:,} per step")


# ----------------------------------------------------------------------------
# What a page says about an atlas (glued, never typed by hand)
# ----------------------------------------------------------------------------
def counts(frame, spec: AtlasSpec, setup: str | None = None) -> dict:
    """How many configurations of ``setup`` (default the model's) fall in each band, and in all."""
    setup = spec.setups[0] if setup is None else setup
    rows = frame[frame["setup"] == setup]
    w = rows["worst |err|"].astype(float).to_numpy()
    skipped = int((rows["band"] == NOT_SIMULATED).sum())
    return {"configurations": int(len(rows)), "within 5 %": int(np.sum(np.isfinite(w) & (w <= BANDS[0]))),
            "within 10 %": int(np.sum(np.isfinite(w) & (w <= BANDS[1]))), "saturates early": int(np.sum(np.isinf(w))),
            "beyond 10 %": int(np.sum(np.isfinite(w) & (w > BANDS[1]))), NOT_SIMULATED: skipped,
            "no point": int(np.sum(np.isnan(w))) - skipped}


def _value(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _cell_words(spec: AtlasSpec, row) -> str:
    return ", ".join(f"{a.name} = {_value(row[a.name])}" for a in spec.axes)


def listing(frame, spec: AtlasSpec, within: float, setup: str | None = None, most: int = 6) -> str:
    """The configurations within ``within``, in words (at most ``most``, then how many more); "none"."""
    rows = region(frame, spec, within, setup)
    words = [_cell_words(spec, r) for _, r in rows.iterrows()]
    if not words:
        return "none"
    if len(words) == int((frame["setup"] == (spec.setups[0] if setup is None else setup)).sum()):
        return "all of them"
    more = f", and {len(words) - most} more" if len(words) > most else ""
    return "; ".join(words[:most]) + more


def summary_sentence(frame, spec: AtlasSpec, setup: str | None = None) -> str:
    """One sentence: the model's region within 5 % and 10 %, and where it saturates early, on ``setup``."""
    setup = spec.setups[0] if setup is None else setup
    n = counts(frame, spec, setup)
    total = n["configurations"]
    early = (f", and it saturates early (unbounded error below 80 % of the simulated saturation load) at "
             f"{n['saturates early']}" if not spec.closed else "")
    skipped = (f"; the set-up cannot simulate {n[NOT_SIMULATED]} of them (the table says why)"
               if n[NOT_SIMULATED] else "")
    return (f"On the set-up {setup!r}, the model is within 5 % at {n['within 5 %']} of {total} configurations "
            f"({listing(frame, spec, BANDS[0], setup)}), within 10 % at {n['within 10 %']}, beyond 10 % at "
            f"{n['beyond 10 %']}{early}{skipped}.")


def paper_sentence(frame, spec: AtlasSpec) -> str:
    """The worst error at the paper's own configurations of the grid, per set-up, in words."""
    parts, count = [], 0
    for s in dict.fromkeys(frame["setup"]):
        rows = frame[(frame["setup"] == s) & frame["paper configuration"].astype(bool)]
        rows = rows[rows["band"] != NOT_SIMULATED]
        if not len(rows):
            continue
        count = max(count, len(rows))
        w = rows["worst |err|"].astype(float)
        worst = "unbounded (the model saturates early)" if np.isinf(w).any() else f"{np.nanmax(w):.1%}"
        parts.append(f"{worst} on {s!r}")
    if not parts:
        return "None of the paper's configurations is in this grid."
    return (f"At the paper's own configurations in this grid ({count}), the model's worst error is "
            + "; ".join(parts) + ".")


def glue_values(frame, spec: AtlasSpec, settings: SimSettings) -> dict:
    """The values an atlas page glues, keyed ``<chapter>-atlas-...``."""
    key = f"{spec.chapter}-atlas"
    n = counts(frame, spec)
    out = {f"{key}-configurations": n["configurations"], f"{key}-within5": n["within 5 %"],
           f"{key}-within10": n["within 10 %"], f"{key}-early": n["saturates early"],
           f"{key}-summary": summary_sentence(frame, spec), f"{key}-paper": paper_sentence(frame, spec),
           f"{key}-precision": precision_sentence(settings, spec.closed).capitalize() + "."}
    out[f"{key}-summaries"] = "  ".join(summary_sentence(frame, spec, s) for s in spec.setups
                                        if (frame["setup"] == s).any())
    return out


def display_frame(frame, spec: AtlasSpec):
    """The table a page shows: the axes, the set-up, the paper's mark, the saturation ratio, the errors, the band."""
    cols = [a.name for a in spec.axes] + ["setup", "paper configuration"]
    cols += ([] if spec.closed else ["saturation ratio"]) + spec.error_columns
    cols += ["worst |err|", "band"]
    shown = frame[cols].copy()
    shown["paper configuration"] = np.where(shown["paper configuration"].astype(bool), "paper", "-")
    return shown.rename(columns={"paper configuration": "paper's"})


def axes_frame(spec: AtlasSpec, grid: Mapping | None = None):
    """The grid's axes as a table: name, meaning and unit, values (and the paper's values)."""
    import pandas as pd

    grid = spec.grid if grid is None else grid
    rows = []
    for a in spec.axes:
        paper = list(dict.fromkeys(p[a.name] for p in spec.paper if a.name in p))
        rows.append({"axis": a.name, "meaning and unit": a.unit, "values": ", ".join(map(str, grid[a.name])),
                     "the paper's": ", ".join(map(str, paper)) or "-"})
    return pd.DataFrame(rows)
