"""The table rule: whether a column of a paper's table is reproduced, written once for every chapter.

A chapter that reproduces a column of a paper's table (its model's values,
or its simulation's) compares every entry with ours and writes one row of
:func:`reproduction_row` per column into
``tables/tab-<chapter>-reproductions.csv`` (:func:`save_reproductions`);
:mod:`models.findings.verdicts` reads them.

The rule
--------
Each entry has a **band** (:func:`entry_band`): ``sqrt(ours_ci**2 +
paper_ci**2) + printed_step / 2``, the 95 % half widths of the two values'
noise combined plus half the paper's last printed digit.  Its
**standardized difference** is ``|ours - paper| / band`` (1 at the edge of
the band).

* A column the paper **computed** (``kind="analytic"``) has no noise; its
  band is a tolerance (half the last digit, plus whatever the chapter
  allows for the paper's unstated stopping point -- a tolerance of the
  book's, which the chapter names).  It is reproduced when **every** entry
  lies within its band.
* A **simulated** column (``kind="simulation"``) is judged **block by
  block**.  A block is the entries that share one run of ours and one of
  the paper's (e.g. one ``NC`` of a table: its stage times and their sum,
  ``R``); its entries are correlated, so a block, not an entry, is the unit
  that misses.  Within a block of ``m`` entries, each entry is tested at the
  Sidak level ``1 - (1 - REPRO_MISS)**(1/m)``: the noise part of its band
  (the band less ``printed_step / 2``) is widened from the 95 % quantile to
  that of the Sidak level (:func:`block_z`; for ``m = 14``, 2.91 instead of
  1.96 for a normal, 3.31 instead of 2.09 for the Student quantile of 20
  batch means, ``dof`` = 19), so that a perfect block misses with
  probability at most ``REPRO_MISS`` = 5 % whatever the correlation of its
  entries (Sidak's inequality for two-sided tests of a multivariate normal;
  for ``m = 1`` the band is the 95 % band itself).  The column is
  **reproduced** when at most :func:`allowed_misses` of its blocks miss
  (blocks are independent runs: a perfect column passes the count with
  probability at least 99 %) **and** no entry is a *gross* miss, its
  standardized difference above :data:`GROSS_STD`, whatever the count (a
  perfect column of up to 70 entries has one with probability under 0.4 %).
* ``blocks=None`` makes every entry its own block (independent entries).

The noise of a paper that prints no interval is an assumption of the
chapter's (e.g. that of a run of a stated length).  :func:`reproduction_row`
takes, besides the bands under that assumption, ``bands_at(x)``: the bands
had the paper's runs been ``x`` long; it reports ``flips_at``, the length in
:data:`FLIP_RANGE` at which the column's outcome flips (:func:`flip_point`),
so that a reader sees how much the outcome rests on the assumption.

This module is on the ``core`` floor: it imports nothing above it (no
simulator, no chapter).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from statistics import NormalDist
from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from .claims import CAUSES, _locked_merge, claims_file
from .errors import ParameterError
from .stats import student_quantile
from .validate import require, require_choice

__all__ = ["REPRO_COLUMNS", "REPRO_KINDS", "REPRO_MISS", "REPRO_ALPHA", "GROSS_STD", "FLIP_RANGE", "allowed_misses",
           "block_z", "entry_band", "table_rule", "flip_point", "flip_text", "reproduction_row", "save_reproductions"]

#: The columns of a chapter's reproductions table (``tab-<chapter>-reproductions.csv``): one row per
#: reproduced column of a paper's table.  ``outside``: entries outside their 95 % band (shown, not the
#: count that decides); ``blocks``, ``blocks_missed``, ``allowed``: the blocks, those that miss, and how many
#: may miss; ``largest_std``: the largest standardized difference ``|ours - paper| / band``; ``flips_at``:
#: the paper's run length at which the outcome flips (NaN: analytic, or no flip in :data:`FLIP_RANGE`).
REPRO_COLUMNS = ("chapter", "table_id", "table", "section", "column", "kind", "entries", "outside", "blocks",
                 "blocks_missed", "allowed", "largest_diff", "largest_rel", "largest_std", "flips_at", "noise",
                 "verdict", "cause", "note")
#: What is reproduced: a column the paper computed from its model (``"analytic"``: exact up to the printed
#: precision and the chapter's stated tolerance) or simulated (``"simulation"``: up to both runs' noise as well).
REPRO_KINDS = ("analytic", "simulation")
#: The table rule's miss rate for a perfect block (95 %) and the rate at which it may wrongly call a perfect
#: reproduction "not reproduced" by the count of missing blocks (1 %).
REPRO_MISS, REPRO_ALPHA = 0.05, 0.01
#: The largest standardized difference ``|ours - paper| / band`` an entry of a reproduced simulated column may
#: have, whatever the count of missing blocks.  2.5 bands is a deviate of 2.5 x 2.09 = 5.2 on the noise part of
#: a band built from 20 batch means (Student, 19 degrees of freedom; 4.9 for a known, normal noise), beyond which
#: a perfect entry falls with probability 5e-5 (1e-6): a perfect column of up to 70 entries has such an entry
#: with probability under 0.4 % (the union bound), well within the rule's 1 % false-alarm rate, while two
#: bands would be crossed by chance in up to 3.5 % of perfect 70-entry columns with estimated half widths.  An
#: entry beyond it is not noise, and no count of allowed misses may hide it; it is also beyond the widened band
#: of any block of up to 1,000 entries, so it always counts as a miss too.
GROSS_STD = 2.5
#: The paper run lengths scanned for the outcome's flip (:func:`flip_point`), in the unit of the chapter's
#: ``bands_at`` (measured cycles for a closed system's table).
FLIP_RANGE = (1e3, 1e8)


def allowed_misses(entries: int, miss: float = REPRO_MISS, alpha: float = REPRO_ALPHA) -> int:
    """The blocks (or entries) of a column that may miss with the column still reproduced.

    The smallest ``a`` with ``P(Binomial(entries, miss) > a) <= alpha``: a
    perfect reproduction, whose independent blocks each miss with
    probability at most ``miss``, is called reproduced with probability at
    least ``1 - alpha`` (99 %).  ``miss=0`` (an ``"analytic"`` column):
    nothing may miss.
    """
    n = require("entries", entries, 0, integer=True, unit="table entries")
    miss = require("miss", miss, 0, 1, unit="per-entry miss probability")
    alpha = require("alpha", alpha, 0, 1, lo_open=True, unit="false-alarm probability")
    if miss == 0:
        return 0
    tail, pmf = 1.0, (1.0 - miss) ** n  # tail = P(X > a - 1) before the loop's step
    for a in range(n + 1):
        tail -= pmf
        if tail <= alpha + 1e-15:
            return a
        pmf *= (n - a) / (a + 1) * miss / (1.0 - miss)
    return n


def block_z(entries: int, miss: float = REPRO_MISS, dof: int | None = None) -> float:
    """The quantile each entry of a block of ``entries`` is tested at, so that the block misses with
    probability at most ``miss``: Sidak's per-entry level ``p = 1 - (1 - miss)**(1/entries)``, two-sided, the
    normal quantile ``Phi^-1(1 - p/2)`` (1.96 for one entry, 2.91 for 14) or, with ``dof``, Student's (the
    half widths come from ``dof + 1`` batch means: 2.09 and 3.31 for ``dof`` = 19)."""
    m = require("entries", entries, 1, integer=True, unit="entries of a block")
    p = -math.expm1(math.log1p(-miss) / m)
    if dof is None:
        return NormalDist().inv_cdf(1 - p / 2)
    return student_quantile(require("dof", dof, 1, integer=True, unit="degrees of freedom"), 1 - p)


def entry_band(ours_half: float, paper_half: float | None = None, printed_step: float = 0.0) -> float:
    """Half width of the band within which our value and the paper's printed value agree (same unit).

    ``sqrt(ours_half**2 + paper_half**2) + printed_step / 2``: the 95 %
    half widths of the two values' noise combined (independent runs) plus
    half the last printed digit (the paper's rounding).  ``paper_half=None``
    means the paper gives no interval: its runs are taken to be as precise
    as ours (``paper_half = ours_half``), stated where it is used.
    """
    ours_half = require("ours_half", ours_half, 0, unit="95% half width")
    paper_half = ours_half if paper_half is None else require("paper_half", paper_half, 0, unit="95% half width")
    step = require("printed_step", printed_step, 0, unit="last printed digit")
    return math.hypot(ours_half, paper_half) + step / 2


def _arrays(ours, paper, bands, blocks, printed_step):
    ours, paper, bands = (np.asarray(x, dtype=float).reshape(-1) for x in (ours, paper, bands))
    if not (ours.shape == paper.shape == bands.shape) or ours.size == 0:
        raise ParameterError("`ours`, `paper` and `bands` must be equally long, non-empty sequences")
    if not (np.all(np.isfinite(ours)) and np.all(np.isfinite(paper)) and np.all(bands >= 0)):
        raise ParameterError("a reproduced entry must be finite, with a band >= 0")
    labels = np.arange(ours.size) if blocks is None else np.asarray(list(blocks), dtype=object)
    if labels.shape != ours.shape:
        raise ParameterError(f"`blocks` must label every entry (one label each); got {labels.size} labels for "
                             f"{ours.size} entries")
    step = np.broadcast_to(np.asarray(printed_step, dtype=float), ours.shape)
    if not np.all(step >= 0) or np.any(step / 2 > bands * (1 + 1e-12)):
        raise ParameterError("`printed_step` must be >= 0 and its half within each band")
    return ours, paper, bands, labels, step


def _std(diff, bands):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bands > 0, diff / np.where(bands > 0, bands, 1.0), np.where(diff > 0, np.inf, 0.0))


def table_rule(kind: str, ours: Sequence[float], paper: Sequence[float], bands: Sequence[float], *,
               blocks: Sequence | None = None, printed_step: float | Sequence[float] = 0.0,
               dof: int | None = None) -> dict:
    """The table rule's counts and verdict on one column (the module's docstring states the rule).

    ``bands``: each entry's 95 % band (:func:`entry_band`), of which
    ``printed_step / 2`` is the paper's rounding and is not widened;
    ``blocks``: a label per entry (the entries of one run of ours and one
    of the paper's share one), ``None`` for every entry its own block;
    ``dof``: the degrees of freedom of the half widths' Student quantile
    (batch means: batches - 1; ``None``: normal, known noise).  Returns ``entries``, ``outside`` (entries outside their 95 % band),
    ``blocks``, ``blocks_missed`` (blocks with an entry outside its
    block-widened band; for an analytic column, outside its band),
    ``allowed`` (blocks that may miss: 0 for an analytic column), ``gross``
    (entries of a simulated column beyond :data:`GROSS_STD`),
    ``largest_std`` and ``verdict`` (``"reproduced"`` or ``"not reproduced"``).
    """
    require_choice("kind", kind, REPRO_KINDS)
    ours, paper, bands, labels, step = _arrays(ours, paper, bands, blocks, printed_step)
    diff = np.abs(ours - paper)
    std = _std(diff, bands)
    tol = bands * (1 + 1e-12)
    _, block_of, sizes = np.unique(labels.astype(str), return_inverse=True, return_counts=True)
    if kind == "analytic":
        widened = tol
    else:
        z = np.array([block_z(int(m), dof=dof) / block_z(1, dof=dof) for m in sizes])[block_of]
        widened = ((bands - step / 2) * z + step / 2) * (1 + 1e-12)
    missed = np.zeros(sizes.size, dtype=bool)
    np.logical_or.at(missed, block_of, diff > widened)
    allowed = 0 if kind == "analytic" else allowed_misses(int(sizes.size))
    gross = 0 if kind == "analytic" else int(np.sum(std > GROSS_STD * (1 + 1e-12)))
    ok = int(missed.sum()) <= allowed and gross == 0
    return {"entries": int(ours.size), "outside": int(np.sum(diff > tol)), "blocks": int(sizes.size),
            "blocks_missed": int(missed.sum()), "allowed": allowed, "gross": gross,
            "largest_std": float(std.max()), "verdict": "reproduced" if ok else "not reproduced"}


def flip_point(verdict_at: Callable[[float], str], reported: str, lo: float = FLIP_RANGE[0],
               hi: float = FLIP_RANGE[1], rtol: float = 1e-3) -> float:
    """The assumed paper run length in ``[lo, hi]`` at which a column's outcome flips; NaN if it does not.

    ``verdict_at(x)``: the table rule's verdict had the paper run ``x``.  A
    longer run is less noisy, its bands narrower, so the outcome can only
    go from ``"reproduced"`` (short runs) to ``"not reproduced"`` (long
    ones); the flip is bisected on a log scale to relative precision
    ``rtol``.  For a reproduced column the outcome is the reported one below
    the returned length and the other above it; for a column not reproduced,
    the reverse.  ``reported`` must be the outcome at one end of the range
    (else :class:`~models.core.errors.ParameterError`: the bands grow with
    the run length, or the assumption lies outside the range).
    """
    lo = require("lo", lo, 0, lo_open=True, unit="run length")
    hi = require("hi", hi, lo, lo_open=True, unit="run length")
    v_lo, v_hi = verdict_at(lo), verdict_at(hi)
    if v_lo == v_hi:
        if v_lo != reported:
            raise ParameterError(f"the outcome is {v_lo!r} over the whole range [{lo:g}, {hi:g}], not the reported "
                                 f"{reported!r}: the assumed run length lies outside the range")
        return math.nan
    if v_lo != "reproduced":
        raise ParameterError("the column is reproduced with long paper runs but not with short ones: its bands "
                             "must not grow with the paper's run length")
    a, b = math.log(lo), math.log(hi)
    while b - a > rtol:
        mid = (a + b) / 2
        if verdict_at(math.exp(mid)) == "reproduced":
            a = mid
        else:
            b = mid
    return math.exp((a + b) / 2)


def flip_text(verdict: str, flips_at: float, unit: str = "cycles") -> str:
    """How a reader is told a simulated column's ``flips_at``: ``"flips if the paper ran more than 1.1e+05
    cycles"`` (a reproduced column), ``"... fewer than ..."`` (not reproduced), ``"does not flip between 1e+03
    and 1e+08 cycles"`` (NaN)."""
    require_choice("verdict", verdict, ("reproduced", "not reproduced"))
    if flips_at is None or not math.isfinite(float(flips_at)):
        return f"does not flip between {FLIP_RANGE[0]:.0e} and {FLIP_RANGE[1]:.0e} {unit}"
    side = "more" if verdict == "reproduced" else "fewer"
    return f"flips if the paper ran {side} than {float(flips_at):.1e} {unit}"


def reproduction_row(chapter: str, table_id: str, table: str, section: str, column: str, kind: str,
                     ours: Sequence[float], paper: Sequence[float], bands: Sequence[float], *,
                     blocks: Sequence | None = None, printed_step: float | Sequence[float] = 0.0,
                     dof: int | None = None, bands_at: Callable[[float], Sequence[float]] | None = None,
                     cause: str = "-", note: str = "", noise: str = "") -> dict:
    """One row of the reproductions table: a column of the paper's table against ours, by the table rule.

    The verdict and counts are :func:`table_rule`'s (``blocks``,
    ``printed_step`` and ``dof`` as there; without ``blocks`` each entry is its own
    block).  ``largest_diff`` / ``largest_rel``: the largest ``|ours -
    paper|`` and ``|ours - paper| / |paper|``; ``largest_std``: the largest
    ``|ours - paper| / band``.  For a simulated column, ``bands_at(x)``
    gives the bands had the paper's runs been ``x`` long (the chapter's
    assumption about the paper's noise; ``bands`` are those at the length it
    assumes) and ``flips_at`` is :func:`flip_point`'s length; NaN for an
    analytic column or without ``bands_at``.
    """
    require_choice("cause", cause, CAUSES)
    rule = table_rule(kind, ours, paper, bands, blocks=blocks, printed_step=printed_step, dof=dof)
    ours, paper = np.asarray(ours, dtype=float).reshape(-1), np.asarray(paper, dtype=float).reshape(-1)
    diff = np.abs(ours - paper)
    rel = diff / np.where(paper != 0, np.abs(paper), np.nan)
    flips = math.nan
    if bands_at is not None:
        if kind == "analytic":
            raise ParameterError("an analytic column has no noise: `bands_at` is for a simulated column")
        flips = flip_point(lambda x: table_rule(kind, ours, paper, bands_at(x), blocks=blocks,
                                                printed_step=printed_step, dof=dof)["verdict"], rule["verdict"])
    return {"chapter": chapter, "table_id": table_id, "table": table, "section": section, "column": column,
            "kind": kind, "entries": rule["entries"], "outside": rule["outside"], "blocks": rule["blocks"],
            "blocks_missed": rule["blocks_missed"], "allowed": rule["allowed"], "largest_diff": float(diff.max()),
            "largest_rel": float(np.nanmax(rel)) if np.any(np.isfinite(rel)) else math.nan,
            "largest_std": rule["largest_std"], "flips_at": flips, "noise": noise, "verdict": rule["verdict"],
            "cause": cause, "note": note}


def save_reproductions(frame: pd.DataFrame, chapter: str, directory: str | os.PathLike = "tables", *,
                       owns: Iterable[str] | None = None, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Write rows of :func:`reproduction_row` into ``<directory>/tab-<chapter>-reproductions.csv`` (as
    :func:`models.core.claims.save_claims`: ``owns`` the table ids this notebook computes)."""
    if not isinstance(frame, pd.DataFrame) or tuple(frame.columns) != REPRO_COLUMNS:
        cols = list(frame.columns) if isinstance(frame, pd.DataFrame) else frame
        raise ParameterError(f"a reproductions table must have exactly the columns {list(REPRO_COLUMNS)}; "
                             f"got {cols!r}")
    wrong = sorted(set(frame["chapter"].astype(str)) - {chapter})
    if wrong:
        raise ParameterError(f"reproductions of chapter {chapter!r} name other chapters: {wrong}")
    dup = frame.duplicated(["table_id", "column"])
    if dup.any():
        raise ParameterError("repeated (table, column) rows in a reproductions table")
    return _locked_merge(Path(directory), claims_file(chapter, "reproductions"), frame, REPRO_COLUMNS, "table_id",
                         owns, order)
