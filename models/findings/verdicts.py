"""The verdict on every claim of every paper, from the chapters' claims tables, by one rule.

Every chapter writes a *claims table*, ``book/<chapter>/tables/tab-<chapter>-claims.csv``
(one row per claim and simulator set-up, the columns of :data:`CLAIM_COLUMNS`; written by
:func:`models.core.claims.save_claims`, which this module's checks mirror).
This module reads them (:func:`read_claims`, :func:`read_chapter_claims`),
checks them, and turns the numbers into one verdict per claim
(:func:`verdict_table`); :func:`format_verdicts` makes the table a reader sees.
Nothing here re-types a number: every value comes from a chapter's table.

The claims table (per chapter)
------------------------------
``chapter``
    The chapter's slug (the same as the file's).
``claim_id``
    A short kebab-case name, unique within the chapter.
``claim``
    The paper's words, quoted, with the section or figure.
``kind``
    ``"error"`` (the model's latency is within a tolerance of the
    simulation's), ``"saturation"`` (the model's saturation load is), or
    ``"fact"`` (anything else the chapter decides by code, e.g. a derived
    property; no simulation needed).
``setup``
    The simulator set-up the row's numbers rest on (``"paper"``,
    ``"model"``, ...), or ``"-"`` for a claim that needs no simulation.
``worst_err``
    Worst ``|relative error|`` of the model against the simulation at the
    simulated loads below 80% of the simulated saturation load, a fraction
    (``inf`` when the model is saturated where the simulation is not; empty
    when not applicable).
``sat_ratio``
    Model saturation load / simulated saturation load (empty when n/a).
``threshold``
    The tolerance the paper's claim implies, a fraction (``0.05`` for
    "within 5%"); empty when the claim names none.
``holds``
    ``True`` / ``False`` for a ``"fact"``, computed by the chapter; empty otherwise.
``cause``
    What a gap comes from: ``"model"``, ``"paper text"``, ``"simulator set-up"`` or ``"-"``.
``note``
    One sentence: which figure or table of the chapter the numbers come from.

The rule
--------
Each row (one claim on one set-up) has an *outcome*:

* ``"error"``: **pass** if ``worst_err <= threshold``, **fail** if
  ``worst_err > threshold`` (an infinite error fails), **unknown** if either
  is empty;
* ``"saturation"``: the same with ``|sat_ratio - 1|`` in place of ``worst_err``;
* ``"fact"``: **pass** if ``holds`` is True, **fail** if False, **unknown** if empty.

The claim's verdict combines the outcomes of its rows (its set-ups):

* no row passes or fails: **cannot be checked** (the numbers, if any, are
  still shown: a claim without a tolerance is reported, not judged);
* every row passes: **holds**;
* every row that is known fails: **does not hold**;
* otherwise (it passes on one set-up and fails on another, or passes on some
  and is unknown on others): **holds with a caveat**, the caveat naming the
  set-ups where it fails or was not measured.

The verdict *rests on* the set-ups where the claim passes (for "holds" and
"holds with a caveat") or fails ("does not hold"); the table says which.
The cause shown is the set of the rows' causes other than ``"-"`` (``"-"`` if none).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import pandas as pd

from .. import CHAPTERS
from ..core.claims import CLAIM_COLUMNS, claims_file
from ..core.tables import percent

__all__ = [
    "CLAIM_COLUMNS", "KINDS", "CAUSES", "VERDICTS", "OUTCOMES", "claims_path", "read_chapter_claims",
    "read_claims", "check_claims", "row_outcome", "Verdict", "verdict", "verdict_table", "format_verdicts",
    "format_percent", "format_ratio", "verdict_counts", "counts_by_chapter", "glue_values", "FOOTNOTES",
]

# CLAIM_COLUMNS (the exact columns of a chapter's claims table, in order) is models.core.claims's, re-exported.
#: What a claim is about.
KINDS = ("error", "saturation", "fact")
#: Where a gap between the paper's claim and what we measure comes from.
CAUSES = ("model", "paper text", "simulator set-up", "-")
#: The verdicts, best first.
VERDICTS = ("holds", "holds with a caveat", "does not hold", "cannot be checked")
#: The outcome of one row.
OUTCOMES = ("pass", "fail", "unknown")

_NUMERIC = ("worst_err", "sat_ratio", "threshold")
_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


# ----------------------------------------------------------------------------
# Reading and checking
# ----------------------------------------------------------------------------
def claims_path(book_dir, chapter: str) -> Path:
    """``<book_dir>/<chapter>/tables/tab-<chapter>-claims.csv`` (:func:`models.core.claims.claims_file`)."""
    return Path(book_dir) / chapter / "tables" / claims_file(chapter)


def _holds_value(value, where: str):
    """``True`` / ``False`` / ``None`` (empty) from a CSV cell."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("", "nan", "none", "-"):
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{where}: column `holds` must be True, False or empty; got {value!r}")


def check_claims(frame: pd.DataFrame, source: str = "claims table", chapter: str | None = None) -> pd.DataFrame:
    """Validate a claims table and return it with typed columns (numbers as float, ``holds`` as object).

    Raises
    ------
    ValueError
        Naming ``source`` and the problem: a missing column (all missing
        columns listed), an unknown ``kind`` or ``cause``, a ``chapter`` that is
        not ``chapter``, an empty ``claim_id`` / ``claim`` / ``setup``, a
        repeated ``(claim_id, setup)``, a number that is not one, a negative
        error or ratio, or a claim whose rows disagree on ``kind`` or ``claim``.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{source}: expected a pandas DataFrame; got {type(frame).__name__}")
    missing = [c for c in CLAIM_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)} "
                         f"(a claims table has exactly: {', '.join(CLAIM_COLUMNS)})")
    out = frame[list(CLAIM_COLUMNS)].copy()
    for col in ("chapter", "claim_id", "claim", "kind", "setup", "cause", "note"):
        out[col] = out[col].map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v))
        out[col] = out[col].str.strip()
    for i, row in out.iterrows():
        where = f"{source}, row {i + 2}"  # +2: header line, 1-based
        for col in ("chapter", "claim_id", "claim", "setup"):
            if not row[col]:
                raise ValueError(f"{where}: column `{col}` is empty")
        if chapter is not None and row["chapter"] != chapter:
            raise ValueError(f"{where}: column `chapter` is {row['chapter']!r}, expected {chapter!r}")
        if row["kind"] not in KINDS:
            raise ValueError(f"{where}: column `kind` must be one of {', '.join(KINDS)}; got {row['kind']!r}")
        if row["cause"] not in CAUSES:
            raise ValueError(f"{where}: column `cause` must be one of {', '.join(map(repr, CAUSES))}; "
                             f"got {row['cause']!r}")
    for col in _NUMERIC:
        try:
            out[col] = pd.to_numeric(out[col], errors="raise").astype(float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source}: column `{col}` must hold numbers (fractions) or be empty ({exc})") from None
        bad = out[col] < 0
        if bad.any():
            raise ValueError(f"{source}: column `{col}` must be >= 0; row(s) {[i + 2 for i in out.index[bad]]}")
    out["holds"] = [(_holds_value(v, f"{source}, row {i + 2}")) for i, v in zip(out.index, out["holds"])]
    out["holds"] = out["holds"].astype(object)
    dup = out.duplicated(["chapter", "claim_id", "setup"], keep=False)
    if dup.any():
        pairs = sorted({(r.claim_id, r.setup) for r in out[dup].itertuples()})
        raise ValueError(f"{source}: repeated (claim_id, setup) {pairs}: one row per claim and set-up")
    for (ch, cid), g in out.groupby(["chapter", "claim_id"], sort=False):
        for col in ("kind", "claim"):
            if g[col].nunique() > 1:
                raise ValueError(f"{source}: claim {cid!r} has rows with different `{col}`: {sorted(set(g[col]))}")
    return out.reset_index(drop=True)


def read_chapter_claims(book_dir, chapter: str) -> pd.DataFrame:
    """The checked claims table of one chapter (:func:`check_claims`).

    Raises
    ------
    FileNotFoundError
        When the chapter's table does not exist, saying which notebooks write it.
    ValueError
        When it is malformed (the message names the file).
    """
    path = claims_path(book_dir, chapter)
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the claims table of chapter {chapter!r} is missing. It is written by the chapter's "
            f"notebooks (notebooks/{chapter}/); run them first, e.g. `python -m models.pipeline {chapter}` "
            f"(or into the same --out folder as this notebook).")
    try:
        frame = pd.read_csv(path, keep_default_na=True)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: empty file (a claims table has the columns {', '.join(CLAIM_COLUMNS)})") from None
    return check_claims(frame, source=str(path), chapter=chapter)


def read_claims(book_dir, chapters: Iterable[str] | None = None) -> pd.DataFrame:
    """Every chapter's claims table, checked, concatenated in the order of ``chapters``.

    ``book_dir`` is the book folder (``book/``, or a pipeline ``--out``
    folder); ``chapters`` defaults to :data:`models.CHAPTERS` (book order).
    A missing table raises :class:`FileNotFoundError` naming it.
    """
    if chapters is None:
        chapters = CHAPTERS
    frames = [read_chapter_claims(book_dir, ch) for ch in chapters]
    if not frames:
        raise ValueError("`chapters` is empty: no claims table to read")
    return pd.concat(frames, ignore_index=True)


# ----------------------------------------------------------------------------
# The rule
# ----------------------------------------------------------------------------
def _num(x) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return math.nan
    return v


def row_outcome(kind: str, worst_err=math.nan, sat_ratio=math.nan, threshold=math.nan, holds=None) -> str:
    """``"pass"``, ``"fail"`` or ``"unknown"`` for one row (the module docstring's rule)."""
    if kind == "fact":
        return "unknown" if holds is None else ("pass" if bool(holds) else "fail")
    if kind not in KINDS:
        raise ValueError(f"`kind` must be one of {', '.join(KINDS)}; got {kind!r}")
    value = _num(worst_err) if kind == "error" else abs(_num(sat_ratio) - 1.0)
    t = _num(threshold)
    if math.isnan(value) or math.isnan(t):
        return "unknown"
    return "pass" if value <= t else "fail"


@dataclass(frozen=True)
class Verdict:
    """The verdict on one claim.

    verdict : one of :data:`VERDICTS`
    rests_on : tuple of set-up names the verdict rests on (passes, or fails for "does not hold")
    fails_on : set-ups where the claim fails
    unknown_on : set-ups without a number (or without a tolerance)
    outcomes : dict set-up -> outcome
    """

    verdict: str
    rests_on: tuple
    fails_on: tuple
    unknown_on: tuple
    outcomes: dict

    @property
    def caveat(self) -> str:
        """What the caveat is ("" unless the verdict is "holds with a caveat")."""
        if self.verdict != "holds with a caveat":
            return ""
        parts = []
        if self.fails_on:
            parts.append("does not hold on " + ", ".join(self.fails_on))
        if self.unknown_on:
            parts.append("not measured on " + ", ".join(self.unknown_on))
        return "; ".join(parts)


#: Simulator set-ups that neither the paper nor its model describes, per chapter: their rows
#: are shown, but no verdict rests on them (DESIGN.md, "Simulator set-ups are named").
NOT_DESCRIBED = {("xfolded_tm", "ours")}


def verdict(rows: pd.DataFrame) -> Verdict:
    """The verdict on one claim from its rows (one per set-up), by the module docstring's rule.

    Rows on a set-up of :data:`NOT_DESCRIBED` keep their outcome but do not count.
    """
    outcomes = {}
    counted = {}
    for r in rows.itertuples(index=False):
        outcomes[r.setup] = row_outcome(r.kind, r.worst_err, r.sat_ratio, r.threshold, r.holds)
        if (getattr(r, "chapter", None), r.setup) not in NOT_DESCRIBED:
            counted[r.setup] = outcomes[r.setup]
    passes = tuple(s for s, o in counted.items() if o == "pass")
    fails = tuple(s for s, o in counted.items() if o == "fail")
    unknown = tuple(s for s, o in counted.items() if o == "unknown")
    if not passes and not fails:
        v, rests = "cannot be checked", ()
    elif not fails and not unknown:
        v, rests = "holds", passes
    elif not passes:
        v, rests = "does not hold", fails
    else:
        v, rests = "holds with a caveat", passes
    return Verdict(v, rests, fails, unknown, outcomes)


def verdict_table(claims: pd.DataFrame) -> pd.DataFrame:
    """One row per claim (chapter, claim_id), in the order of ``claims``: the numbers per set-up and the verdict.

    Columns: ``chapter``, ``claim_id``, ``claim``, ``kind``, ``threshold``
    (the first non-empty of the claim's rows), ``setups`` (tuple, in table
    order), ``worst_err``, ``sat_ratio``, ``holds`` and ``outcome`` (dicts
    set-up -> value), ``verdict``, ``rests_on``, ``fails_on``, ``unknown_on``
    (tuples of set-ups), ``caveat`` (text), ``cause`` (the rows' causes
    other than "-", joined by "; ", or "-"), ``note`` (the rows' note if
    they share one, else ``"<set-up>: <note>"`` joined by " / ").
    """
    claims = check_claims(claims, source="claims")
    rows = []
    for (chapter, cid), g in claims.groupby(["chapter", "claim_id"], sort=False):
        v = verdict(g)
        thresholds = [t for t in g["threshold"] if not math.isnan(t)]
        causes = [c for c in dict.fromkeys(g["cause"]) if c != "-"]
        distinct = [n for n in dict.fromkeys(g["note"]) if n]
        if len(distinct) > 1:
            distinct = [f"{su}: {n}" for su, n in zip(g["setup"], g["note"]) if n]
        rows.append({
            "chapter": chapter, "claim_id": cid, "claim": g["claim"].iloc[0], "kind": g["kind"].iloc[0],
            "threshold": thresholds[0] if thresholds else math.nan,
            "setups": tuple(g["setup"]),
            "worst_err": dict(zip(g["setup"], g["worst_err"])),
            "sat_ratio": dict(zip(g["setup"], g["sat_ratio"])),
            "holds": dict(zip(g["setup"], g["holds"])),
            "outcome": v.outcomes, "verdict": v.verdict, "rests_on": v.rests_on, "fails_on": v.fails_on,
            "unknown_on": v.unknown_on, "caveat": v.caveat, "cause": "; ".join(causes) if causes else "-",
            "note": " / ".join(distinct),
        })
    return pd.DataFrame(rows, columns=["chapter", "claim_id", "claim", "kind", "threshold", "setups", "worst_err",
                                       "sat_ratio", "holds", "outcome", "verdict", "rests_on", "fails_on",
                                       "unknown_on", "caveat", "cause", "note"])


def verdict_counts(table: pd.DataFrame) -> dict:
    """Number of claims per verdict (every verdict of :data:`VERDICTS`, zeros included)."""
    counts = table["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in VERDICTS}


def counts_by_chapter(table: pd.DataFrame, chapters: Sequence[str] | None = None) -> pd.DataFrame:
    """Claims per chapter and verdict: ``chapter``, one column per verdict of :data:`VERDICTS`, ``claims``.

    Rows in the order of ``chapters`` (default :data:`models.CHAPTERS`), only
    chapters with a claim in ``table`` (:func:`verdict_table`).
    """
    chapters = CHAPTERS if chapters is None else chapters
    out = (table.groupby(["chapter", "verdict"], sort=False).size().unstack(fill_value=0)
           .reindex(index=[c for c in chapters if c in set(table["chapter"])], columns=list(VERDICTS), fill_value=0))
    out.columns.name = None
    out["claims"] = out.sum(axis=1)
    return out.reset_index()


def glue_values(table: pd.DataFrame) -> dict:
    """The numbers the claims page quotes (key -> int), from :func:`verdict_table`.

    ``findings-n-claims`` (claims), ``findings-n-holds``, ``findings-n-caveat``,
    ``findings-n-fails``, ``findings-n-unchecked`` (claims per verdict,
    :func:`verdict_counts`) and ``findings-n-chapters`` (chapters with a claim).
    """
    counts = verdict_counts(table)
    return {"findings-n-claims": int(len(table)), "findings-n-holds": counts["holds"],
            "findings-n-caveat": counts["holds with a caveat"], "findings-n-fails": counts["does not hold"],
            "findings-n-unchecked": counts["cannot be checked"], "findings-n-chapters": int(table["chapter"].nunique())}


# ----------------------------------------------------------------------------
# Formatting (one style)
# ----------------------------------------------------------------------------
#: Footnotes of the formatted table's symbols.
FOOTNOTES = {
    "n/a": "n/a: no number for this claim on this set-up (not applicable to the claim, or not measured).",
    "inf": "unbounded: the model is saturated at a simulated load below 80% of the simulated saturation load.",
}


def format_percent(x, digits: int = 1) -> str:
    """A fraction as a percentage with fixed precision (``0.1234 -> '12.3%'``); ``'n/a'``; ``'unbounded'`` for +inf."""
    v = _num(x)
    if math.isinf(v):
        return "unbounded"
    return percent(v, digits) or "n/a"


def format_ratio(x, digits: int = 3) -> str:
    """A ratio with fixed precision (``'0.565'``); ``'n/a'``."""
    v = _num(x)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "unbounded"
    return f"{v:.{digits}f}"


def _per_setup(values: Mapping, fmt, setups: Sequence[str]) -> str:
    if len(setups) == 1:
        return fmt(values[setups[0]])
    return "; ".join(f"{s}: {fmt(values[s])}" for s in setups)


def _holds_text(h) -> str:
    return "n/a" if h is None else ("yes" if h else "no")


def _measured(row) -> str:
    setups = row["setups"]
    if row["kind"] == "error":
        what = "worst |error| " + _per_setup(row["worst_err"], format_percent, setups)
        limit = f" (claim: at most {format_percent(row['threshold'])})" if not math.isnan(row["threshold"]) else \
            " (the claim names no tolerance)"
    elif row["kind"] == "saturation":
        what = "saturation ratio " + _per_setup(row["sat_ratio"], format_ratio, setups)
        limit = f" (claim: within {format_percent(row['threshold'])} of 1)" if not math.isnan(row["threshold"]) \
            else " (the claim names no tolerance)"
    else:
        what = "holds: " + _per_setup(row["holds"], _holds_text, setups)
        limit = ""
    return what + limit


def format_verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`verdict_table` as the reader sees it: strings only, no index column to show.

    Columns: ``chapter``, ``claim``, ``what we measured`` (the number the
    verdict is judged on, per set-up, and the claim's tolerance), ``worst
    |error| < 80% sat.`` and ``model/sim saturation`` (per set-up; ``n/a``
    where there is none), ``verdict``, ``set-ups it rests on`` (with the
    caveat; ``"no simulation"`` for the set-up ``"-"``), ``cause``,
    ``source`` (the chapter's note).  Percentages with
    one decimal, ratios with three.
    """
    out = []
    for _, r in table.iterrows():
        rests = ", ".join("no simulation" if s == "-" else s for s in r["rests_on"]) if r["rests_on"] else "-"
        if r["caveat"]:
            rests = f"{rests} ({r['caveat']})"
        out.append({
            "chapter": r["chapter"],
            "claim": r["claim"],
            "what we measured": _measured(r),
            "worst |error| < 80% sat.": _per_setup(r["worst_err"], format_percent, r["setups"]),
            "model/sim saturation": _per_setup(r["sat_ratio"], format_ratio, r["setups"]),
            "verdict": r["verdict"],
            "set-ups it rests on": rests,
            "cause": r["cause"],
            "source": r["note"],
        })
    return pd.DataFrame(out, columns=["chapter", "claim", "what we measured", "worst |error| < 80% sat.",
                                      "model/sim saturation", "verdict", "set-ups it rests on", "cause", "source"])


def claim_details(table: pd.DataFrame) -> str:
    """The claims of :func:`verdict_table` as an HTML numbered list, numbered as the rows of the verdict table.

    Each item: the chapter, the claim as quoted from the paper, and the
    chapter's note on it (the source of the numbers).  The verdict table on
    the page then needs only the row number, so its rows stay one or two
    lines high.
    """
    import html

    items = []
    for _, r in table.iterrows():
        note = f' <span style="color:var(--pst-color-text-muted, #666)">{html.escape(r["note"])}</span>' \
            if r["note"] else ""
        items.append(f'<li><b>{html.escape(r["chapter"])}</b> (<code>{html.escape(r["claim_id"])}</code>): '
                     f'{html.escape(r["claim"])}{note}</li>')
    return '<ol class="claim-details">' + "".join(items) + "</ol>"
