"""Progress from inside a notebook to the pipeline that runs it, and time-left estimates.

The pipeline (``python -m models.pipeline``) gives each notebook's kernel an
environment variable ``MODELS_PROGRESS_FILE``, a file of its own in a
temporary folder.  Long loops call :func:`report` after each step
(:func:`models.sim.sweep.run_sweep` per finished point, label ``"points"``;
:func:`models.core.experiment.run_figure` per finished curve, label
``"curves"``); :func:`report` appends one JSON line
``{"t": unix time (s), "done": int, "total": int, "label": str}`` and does
nothing when the variable is not set (a notebook opened by hand, a test).

The pipeline reads the new lines every few seconds into a
:class:`NotebookProgress` and prints, rate-limited, lines like::

    torus_dor/02-latency: 2/6 curves, 37/120 points, about 4 min left

The time left is the larger of two estimates, when they exist: the rate of
the current counter (curves before points) applied to what remains of it,
and the notebook's expected time (its last run, or a stated estimate) minus
the time it has run.  Both are rough: a sweep's points differ in cost (points
near saturation simulate longer) and cached points finish at once.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ENV", "report", "format_duration", "read_new", "NotebookProgress"]

#: The environment variable naming the file :func:`report` appends to.
ENV = "MODELS_PROGRESS_FILE"


def report(done: int, total: int, label: str = "points") -> None:
    """Record that ``done`` of ``total`` steps (``label``: "points", "curves", ...) are finished.

    A no-op unless ``MODELS_PROGRESS_FILE`` is set; never raises on I/O
    errors (progress must not break a run).

    Raises
    ------
    ValueError
        ``done`` or ``total`` not integers with ``0 <= done <= total``, or
        ``label`` not a non-empty string.
    """
    for name, value in (("done", done), ("total", total)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"`{name}` must be an integer >= 0; got {value!r}")
    if done > total:
        raise ValueError(f"`done` must be <= `total` ({total}); got {done}")
    if not isinstance(label, str) or not label:
        raise ValueError(f"`label` must be a non-empty string; got {label!r}")
    path = os.environ.get(ENV)
    if not path:
        return
    line = json.dumps({"t": round(time.time(), 3), "done": done, "total": total, "label": label})
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    except OSError:
        pass


def format_duration(seconds: float) -> str:
    """``42 s``, ``4 min``, ``1 h 05 min`` (rounded; ``?`` when unknown)."""
    if seconds is None or not math.isfinite(seconds):
        return "?"
    seconds = max(0.0, float(seconds))
    if seconds < 59.5:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def read_new(path: Path | str, offset: int) -> tuple[list[dict], int]:
    """The complete JSON lines appended to ``path`` since byte ``offset``, and the new offset.

    A missing file is no lines; a partly written last line is left for the next call.
    """
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            data = fh.read()
    except OSError:
        return [], offset
    end = data.rfind(b"\n") + 1
    records = []
    for raw in data[:end].splitlines():
        try:
            rec = json.loads(raw)
            records.append({"t": float(rec["t"]), "done": int(rec["done"]), "total": int(rec["total"]),
                            "label": str(rec["label"])})
        except (ValueError, KeyError, TypeError):
            continue
    return records, offset + end


@dataclass
class _Counter:
    total: int
    done: int
    t0: float  # time of the first report of this sequence
    done0: int  # steps already done then (e.g. cached points)
    t: float  # time of the last report

    def left(self) -> float | None:
        """Seconds left at the rate since ``t0``; None before a step has finished."""
        if self.done >= self.total:
            return 0.0
        if self.done <= self.done0 or self.t <= self.t0:
            return None
        return (self.total - self.done) * (self.t - self.t0) / (self.done - self.done0)


@dataclass
class NotebookProgress:
    """What one notebook reported so far, and how long it probably still runs.

    ``started`` is the unix time the pipeline started the notebook;
    ``expected`` its expected run time in seconds (None if unknown).
    """

    slug: str
    started: float
    expected: float | None = None
    counters: dict = field(default_factory=dict)  # label -> _Counter, in order of first report
    changed: bool = False

    def feed(self, records: list[dict]) -> None:
        """Take report records (see :func:`read_new`); a count that goes back or a new total starts a new sequence."""
        for r in records:
            c = self.counters.get(r["label"])
            if c is None or r["total"] != c.total or r["done"] < c.done:
                self.counters[r["label"]] = _Counter(r["total"], r["done"], r["t"], r["done"], r["t"])
            else:
                c.done, c.t = r["done"], r["t"]
            self.changed = True

    def left(self, now: float | None = None) -> float | None:
        """Seconds probably left (see the module docstring), or None when nothing says."""
        now = time.time() if now is None else now
        estimates = []
        for label in ("curves", "points", *self.counters):
            c = self.counters.get(label)
            if c is not None and c.left() is not None:
                estimates.append(c.left())
                break
        if self.expected is not None:
            estimates.append(self.expected - (now - self.started))
        return max(estimates) if estimates else None

    def line(self, now: float | None = None) -> str:
        """``slug: 2/6 curves, 37/120 points, about 4 min left`` (or how long it has run)."""
        now = time.time() if now is None else now
        parts = [f"{c.done}/{c.total} {label}" for label, c in self.counters.items()]
        left = self.left(now)
        if left is not None and left > 0:
            parts.append(f"about {format_duration(left)} left")
        else:
            parts.append(f"running for {format_duration(now - self.started)}")
        return f"{self.slug}: " + ", ".join(parts)
