"""One experiment vocabulary for every chapter: simulator set-ups, run lengths, the worst error, the claims file.

The chapters (``models/<slug>/experiments.py``) and :mod:`models.findings`
speak of the same six things; each is defined here once, so a reader who
knows one chapter reads every other, and a sixth chapter imports them instead
of copying them:

* :class:`SimulatorSetup` -- a named simulator set-up: what it is, what it
  stands for (``"paper"``: as the paper's text states; ``"model"``: as the
  model assumes; ``""``: neither, kept to show what changes) and its simulator
  keyword overrides.  A chapter keeps its set-ups in ``SETUPS`` (name ->
  set-up) with ``DEFAULT_SETUP`` naming the one its verdicts rest on.
* :class:`SimSettings` -- run lengths, seed, precision, saturation search and
  worker processes of the simulations of a figure (or of ``curve
  --simulate``).
* :data:`BELOW` and :func:`worst_error_below` -- the number behind the
  accuracy verdicts: the worst ``|model - sim| / sim`` (a fraction) over the
  simulated loads strictly below ``BELOW`` (80 %) of the *simulated*
  saturation load.
* :data:`CLAIM_COLUMNS`, :func:`claims_file` and :func:`save_claims` -- the
  claims table each chapter writes to ``tables/tab-<chapter>-claims.csv`` and
  the findings chapter reads.

This module is on the ``core`` floor: it imports nothing above it (no
simulator, no chapter).
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .cache import atomic_write_text
from .errors import ParameterError
from .validate import require, require_choice
from .validation import saturation_aware_error

__all__ = ["BELOW", "STANDS_FOR", "SimulatorSetup", "named_setup", "setups_table", "SimSettings",
           "worst_error_below", "errors_below", "CLAIM_COLUMNS", "claims_file", "save_claims"]

#: Errors behind a verdict are judged at the simulated loads strictly below this fraction of the simulated
#: saturation load (above it the simulated latency is dominated by the approach to saturation, where a few
#: percent of load move the latency by a factor; DESIGN.md, "The experiment hook").
BELOW = 0.8

#: What a simulator set-up may stand for: the paper's text, the model's assumptions, or neither.
STANDS_FOR = ("paper", "model", "")


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


def setups_table(setups: Mapping[str, SimulatorSetup]) -> pd.DataFrame:
    """One row per set-up: ``setup``, ``stands for``, ``sets`` (its overrides) and ``description``."""
    def text(v):
        return "V" if v == "V" else (getattr(v, "__doc__", None) or "per model") if callable(v) else repr(v)

    return pd.DataFrame([{"setup": s.name, "stands for": s.stands_for or "neither",
                          "sets": ", ".join(f"{k}={text(v)}" for k, v in s.overrides.items()),
                          "description": s.description} for s in setups.values()],
                        columns=["setup", "stands for", "sets", "description"])


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
        Batches of the batch-means confidence interval.
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
    jobs : int
        Worker processes of a sweep.
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
    jobs: int = 1
    cache: bool = True
    progress: bool = False

    def __post_init__(self):
        require("messages", self.messages, 100, unit="measured messages per point", integer=True)
        require("warmup_messages", self.warmup_messages, 0, unit="discarded messages per point", integer=True)
        if self.cycles is not None:
            require("cycles", self.cycles, 1, unit="simulated cycles per point", integer=True)
        if self.warmup_cycles is not None:
            require("warmup_cycles", self.warmup_cycles, 0, unit="discarded cycles per point", integer=True)
        require("batches", self.batches, 2, unit="batches of the confidence interval", integer=True)
        require("seed", self.seed, 0, unit="random seed", integer=True)
        if self.target_ci is not None:
            require("target_ci", self.target_ci, 0, 1, lo_open=True, unit="relative 95% half width")
        if self.min_messages is not None:
            require("min_messages", self.min_messages, 100, unit="first length of a target_ci run", integer=True)
        if self.sat_messages is not None:
            require("sat_messages", self.sat_messages, 100, unit="messages per saturation probe", integer=True)
        require("sat_rtol", self.sat_rtol, 0, 0.5, lo_open=True, unit="relative bracket width")
        if self.sat_steps is not None:
            require("sat_steps", self.sat_steps, 1, unit="bisection steps", integer=True)
        require("jobs", self.jobs, 1, unit="worker processes", integer=True)
        if not isinstance(self.cache, (bool, np.bool_)):
            raise ParameterError(f"`cache` must be True or False; got {self.cache!r}")

    @property
    def probe_messages(self) -> int:
        """Measured messages of one saturation probe (``sat_messages``, else ``messages``)."""
        return int(self.sat_messages if self.sat_messages is not None else self.messages)

    def replace(self, **changes) -> "SimSettings":
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)


# ----------------------------------------------------------------------------
# The worst error below 80 % of the simulated saturation
# ----------------------------------------------------------------------------
def _runs(runs) -> list:
    if hasattr(runs, "points") and hasattr(runs, "params"):
        return [runs]
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Iterable):
        raise ParameterError(f"`runs` must be a CurveRun or a sequence of them; got {runs!r}")
    return list(runs)


def errors_below(runs, below: float = BELOW, *, column: str = "model latency") -> np.ndarray:
    """``|model - sim| / sim`` (fractions) at every simulated load strictly below ``below`` x the simulated saturation.

    Parameters
    ----------
    runs : CurveRun or sequence of CurveRun
        Runs of :func:`models.core.experiment.run_curve`.  A run counts only
        when its loads are fractions of the *simulated* saturation load
        (``run.params["load basis"] == "sim"``); others give nothing.
    below : float
        The cut, a fraction in (0, 1]: loads with ``fraction < below`` are used.
    column : str
        The model column compared with ``"sim latency"`` (e.g. ``"model latency
        printed"`` for another reading).

    Returns
    -------
    ndarray
        One error per used point: ``inf`` where the model is saturated and the
        simulation is not; points where the simulation is saturated (flagged,
        or not finite) are left out.
    """
    below = require("below", below, 0, 1, lo_open=True, unit="fraction of the simulated saturation load")
    out = []
    for run in _runs(runs):
        if run.params.get("load basis") != "sim":
            continue
        pts = run.points()
        if pts.empty or column not in pts or "sim latency" not in pts:
            continue
        frac = pts["fraction"].to_numpy(dtype=float)
        sim = pts["sim latency"].to_numpy(dtype=float)
        ok = np.isfinite(frac) & (frac < below) & np.isfinite(sim)
        if "sim saturated" in pts:
            ok &= ~pts["sim saturated"].to_numpy(dtype=bool)
        err = np.abs(saturation_aware_error(pts[column].to_numpy(dtype=float)[ok], sim[ok]))
        out.append(err[~np.isnan(err)])
    return np.concatenate(out) if out else np.zeros(0)


def worst_error_below(runs, below: float = BELOW, *, column: str = "model latency", finite: bool = False) -> float:
    """The worst ``|model - sim| / sim`` (a fraction) strictly below ``below`` x the simulated saturation load.

    The one number behind every accuracy verdict (:func:`errors_below` says
    which points count).  ``inf`` when the model is saturated at such a point
    (its error is unbounded); with ``finite=True`` those points are skipped
    instead.  NaN when no point is left.
    """
    err = errors_below(runs, below, column=column)
    if finite:
        err = err[np.isfinite(err)]
    return float(err.max()) if err.size else math.nan


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
#: The exact columns of a chapter's claims table, in order (checked by :mod:`models.findings.verdicts`).
CLAIM_COLUMNS = ("chapter", "claim_id", "claim", "kind", "setup", "worst_err", "sat_ratio", "threshold", "holds",
                 "cause", "note")


def claims_file(chapter: str) -> str:
    """The claims table's file name, ``tab-<chapter>-claims.csv`` (in the notebooks' ``tables/`` folder)."""
    if not isinstance(chapter, str) or not chapter.isidentifier() or chapter != chapter.lower():
        raise ParameterError(f"`chapter` must be a chapter slug (lower case, e.g. 'torus_nbc'); got {chapter!r}")
    return f"tab-{chapter}-claims.csv"


def _holds_text(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    text = str(value).strip()
    if text.lower() in ("", "nan", "none"):
        return ""
    if text.lower() not in ("true", "false"):
        raise ParameterError(f"`holds` must be True, False or empty; got {value!r}")
    return "True" if text.lower() == "true" else "False"


def save_claims(frame: pd.DataFrame, chapter: str, directory: str | os.PathLike = "tables", *,
                owns: Iterable[str] | None = None, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Write ``frame``'s claims into ``<directory>/tab-<chapter>-claims.csv``; return the whole table.

    ``frame`` has exactly :data:`CLAIM_COLUMNS`, its ``chapter`` column is
    ``chapter``, and one row per claim and set-up.  A chapter whose claims come from several notebooks (which the
    pipeline may run in parallel) passes ``owns``, the claim ids this notebook
    computes: under an exclusive lock on ``directory`` those rows are replaced
    by ``frame`` (so a re-run never leaves stale rows), the other notebooks'
    rows are kept, and the file is rewritten atomically, sorted by ``order``
    (claim ids) when given.  Without ``owns`` the file holds ``frame`` alone.
    """
    import fcntl  # POSIX file locks: only where a table is written

    name = claims_file(chapter)
    if not isinstance(frame, pd.DataFrame) or tuple(frame.columns) != CLAIM_COLUMNS:
        cols = list(frame.columns) if isinstance(frame, pd.DataFrame) else frame
        raise ParameterError(f"a claims table must have exactly the columns {list(CLAIM_COLUMNS)}; got {cols!r}")
    wrong = sorted(set(frame["chapter"].astype(str)) - {chapter})
    if wrong:
        raise ParameterError(f"claims of chapter {chapter!r} name other chapters: {wrong}")
    dup = frame.duplicated(["claim_id", "setup"])
    if dup.any():
        raise ParameterError(f"repeated (claim, set-up) rows: {sorted(map(tuple, frame.loc[dup, ['claim_id', 'setup']].values))}")
    owned = set(frame["claim_id"]) if owns is None else set(owns)
    stray = sorted(set(frame["claim_id"]) - owned)
    if stray:
        raise ParameterError(f"claims {stray} are not among the claims this notebook owns")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if owns is not None and path.exists():
            old = pd.read_csv(path, keep_default_na=False, na_values=[""])
            old = old[~old["claim_id"].isin(owned)]
        else:
            old = pd.DataFrame(columns=list(CLAIM_COLUMNS))
        parts = [f for f in (old, frame) if len(f)]
        merged = pd.concat(parts, ignore_index=True) if parts else frame.copy()
        if order is not None:
            rank = {cid: i for i, cid in enumerate(order)}
            merged = merged.assign(_rank=[rank.get(c, len(rank)) for c in merged["claim_id"]])
            merged = merged.sort_values("_rank", kind="mergesort").drop(columns="_rank")
        merged = merged.reset_index(drop=True)[list(CLAIM_COLUMNS)]
        merged["holds"] = merged["holds"].map(_holds_text)
        atomic_write_text(path, merged.to_csv(index=False))
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    return merged
