"""The verdict on every claim of every paper, from the chapters' claims tables, by one rule.

Every chapter writes a *claims table*, ``book/<chapter>/tables/tab-<chapter>-claims.csv``
(the columns of :data:`CLAIM_COLUMNS`, rows of :meth:`models.core.claims.Claim.row`,
written by :func:`models.core.claims.save_claims`), and, where it reproduces a
paper's table, a *reproductions table* ``tab-<chapter>-reproductions.csv``
(:func:`models.core.reproductions.reproduction_row`).  This module reads them, checks
them, and turns the numbers into one verdict per claim (:func:`verdict_table`);
:func:`format_verdicts` makes the table a reader sees.  Nothing here re-types a
number: every value comes from a chapter's table.

What a claim is
---------------
A claim is **one sentence of a paper** about its model, quoted whole with its
section and the words that qualify it.  The set-ups it was checked on and the
cases (network sizes, message lengths, the two readings of a definition) are
rows *inside* the claim; the claim gets one verdict.  Reproductions of a
paper's tables are not claims (they have their own table and rule, below);
checks of the book's own readings and inferences about how the authors
simulated stay in the chapter.

The rule (one rule, for every chapter)
--------------------------------------
Each row (one claim, one set-up, one case) has an **outcome**:

* a claim with a number in the paper (``threshold``, with the paper's words
  in ``threshold_quote``; the paper's number for a phrase applies to the same
  phrase elsewhere in the paper): ``"error"`` **passes** when ``worst_err <=
  threshold``, ``"saturation"`` when ``|sat_ratio - 1| <= threshold``;
  otherwise it **fails** (an unbounded error fails);
* a claim without a number: **unknown** (the numbers are shown, and the
  book's own ``yardstick``, if the chapter gives one, is shown as the
  book's), **except** that an ``"error"`` row whose error is unbounded
  (``worst_err = inf``: the model saturates at 25, 50 or 75 % of the
  simulated saturation load for every value of it in the search's bracket)
  on a set-up the paper or its model describes **fails**: no reading of
  "accurate" admits an unbounded error;
* an ``"error"`` row whose model saturation load lies inside the simulated
  bracket of one of those fractions (``uncertain``, from
  :class:`models.core.claims.Accuracy`) is **uncertain** and decides nothing,
  unless it is unbounded elsewhere;
* ``"fact"``: **pass** if ``holds`` is True, **fail** if False, **unknown** if
  empty; ``holds`` is computed by a criterion declared in
  :data:`models.core.criteria.CRITERIA` (the words, the comparison, the noise
  allowance), named in the row's ``criterion``.

Which rows decide: those on a set-up that stands for the paper or the model
(``stands_for`` ``"paper"``, ``"model"``, or ``"-"`` for no simulation), on
the paper's own configuration (``paper_config``), **and** not marked shown
(``decides`` False, with ``shown_why``: a reading the book chose so that the
claim could hold is shown, never deciding; wherever the book substitutes a
reading for the paper's text, the printed text is a deciding row beside it).
Rows on a ``"neither"`` set-up are shown and never change a verdict; rows on
other cases (sizes the paper did not use) can only add a caveat.

The claim's **verdict** follows its **quantifier**, the sentence's own words
(``quantifier``, quoted in ``quantifier_quote``):

==========  ===========================================================
quantifier  verdict from the deciding rows
==========  ===========================================================
all, one    any fails: **does not hold**; all pass: **holds** (**holds
            with a caveat** when a row is unknown or uncertain, or a row
            on another case fails)
most        more pass than fail: **holds** (with a caveat when any fails
            or is unknown); otherwise **does not hold**
some        one passes: **holds** (**with a caveat**, naming them, where
            others fail); none passes and one fails: **does not hold**
==========  ===========================================================

Where the paper's text admits several readings (``reading``: an equation
as printed and as its own text asks for it, a definition as printed and
completed), the quantifier applies within each reading and the readings
combine (:func:`combine_readings`): all hold, **holds**; none, **does not
hold**; they disagree, **holds with a caveat** naming them.  A reading the
book chose so that the claim could hold is a shown row, never a reading that
decides.  None passes or fails: **cannot be checked** (numbers shown).  The verdict
*rests on* the deciding set-ups where the claim passes (for "holds" and
"holds with a caveat") or fails ("does not hold").  The **cause** shown is the
set of causes (other than ``"-"``) of the rows where the claim fails, and of
fact rows that could not be judged; never of a passing row, a shown row or a
book yardstick.  A "does not hold" without a cause is refused ("unexplained"
when we looked and could not tell).

The table rule (reproductions)
------------------------------
The rule is :mod:`models.core.reproductions`'s.  Each entry has a band
``sqrt(ours_ci^2 + paper_ci^2) + printed_step / 2``.  A column the paper
computed is **reproduced** when every entry lies within its band (the band
is then a tolerance: the printed digit, plus any allowance of the book's for
the paper's unstated stopping point, named in the ``noise`` column).  A
simulated column is judged by blocks (the entries of one run of ours and
one of the paper's): a block misses when an entry lies outside its band
widened to the Sidak level of the block (a perfect block misses with
probability at most 5 %); the column is reproduced when at most
:func:`models.core.reproductions.allowed_misses` of its blocks miss (a
perfect column passes the count with probability at least 99 %) and no
entry lies beyond :data:`models.core.reproductions.GROSS_STD` bands.  The
paper's noise, where it gives none, is the chapter's assumption;
``flips_at`` is the assumed run length at which the outcome would flip.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import pandas as pd

from .. import CHAPTERS
from ..core.claims import (CAUSES, CLAIM_COLUMNS, CLAIM_KINDS, QUANTIFIERS, ROW_STANDS_FOR, claims_file, row_outcome,
                           as_number, holds_value)
from ..core.criteria import CRITERIA, criteria_rows
from ..core.reproductions import REPRO_COLUMNS, flip_text
from ..core.setups import ACCURACY_FRACTIONS
from ..core.tables import UNBOUNDED, UNBOUNDED_WORD, format_table, percent, percent_text

__all__ = [
    "CLAIM_COLUMNS", "KINDS", "CAUSES", "VERDICTS", "OUTCOMES", "claims_path", "read_chapter_claims",
    "read_claims", "check_claims", "Verdict", "verdict", "verdict_table", "format_verdicts",
    "format_percent", "format_ratio", "verdict_rows", "verdict_counts", "counts_by_chapter",
    "glue_values", "FOOTNOTES",
    "read_reproductions", "format_reproductions", "threshold_in_quote", "REFEREE_RECORD", "referee_record",
    "before_after", "chapter_verdicts", "row_label", "chapter_summary", "glue_tables", "combine", "criteria_table",
    "considered_table", "QUANTIFIER_WORDS", "ACCURACY_WORDS", "combine_readings", "considered_details",
    "criteria_details", "VERDICT_MEANING", "verdict_words", "verdict_legend", "main_claim_text", "main_claim_id", "bold_html",
]

# CLAIM_COLUMNS (the exact columns of a chapter's claims table, in order) is models.core.claims's, re-exported.
#: What a claim is about.
KINDS = CLAIM_KINDS
#: The verdicts, best first.
VERDICTS = ("holds", "holds with a caveat", "does not hold", "cannot be checked")
#: What each verdict word means, in words, shown wherever a verdict is (:func:`verdict_legend`).
VERDICT_MEANING = {
    "holds": "the rows that decide the claim agree with it, by the paper's own tolerance where it names one, "
             "else by a criterion the book declares (What the words mean).",
    "holds with a caveat": "it holds, but a row fails, is uncertain or was not judged, or it holds under one "
                           "reading of the paper's text and not another; the caveat names them.",
    "does not hold": "a row that decides the claim contradicts it: an error beyond the paper's tolerance, an "
                     "unbounded error (the model saturates before the load where the error is taken), or a "
                     "criterion that fails; the cause says where the difference comes from.",
    "cannot be checked": "no row passes or fails, and the numbers are shown. Mostly the paper names no number "
                         "to hold them to (\"quite accurate\", with no tolerance), and a claim without one fails "
                         "only on an unbounded error, which none of its rows has; otherwise the claim rests on "
                         "evidence outside the book (a result of another paper), as its note says.",
}
#: The outcome of one row ("uncertain": the row's error may or may not be unbounded; it decides nothing).
OUTCOMES = ("pass", "fail", "unknown", "uncertain")
#: ``stands_for`` values whose rows may decide a verdict.
DECIDING = ("paper", "model", "-")

_NUMERIC = ("worst_err", "sat_ratio", "threshold", "yardstick")


# ----------------------------------------------------------------------------
# Reading and checking
# ----------------------------------------------------------------------------
def claims_path(book_dir, chapter: str) -> Path:
    """``<book_dir>/<chapter>/tables/tab-<chapter>-claims.csv`` (:func:`models.core.claims.claims_file`)."""
    return Path(book_dir) / chapter / "tables" / claims_file(chapter)


def check_claims(frame: pd.DataFrame, source: str = "claims table", chapter: str | None = None) -> pd.DataFrame:
    """Validate a claims table and return it with typed columns (numbers as float, ``holds`` as object).

    Raises
    ------
    ValueError
        Naming ``source`` and the problem: a missing column (all missing
        columns listed), an unknown ``kind`` or ``cause``, a ``chapter`` that is
        not ``chapter``, an empty ``claim_id`` / ``section`` / ``claim`` /
        ``setup``, a ``stands_for`` that is not one of
        :data:`~models.core.claims.ROW_STANDS_FOR`, a threshold without the
        paper's words (or words without a threshold), a repeated ``(claim_id,
        setup, case)``, a number that is not one, a negative error or ratio,
        or a claim whose rows disagree on ``kind``, ``claim`` or ``section``.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{source}: expected a pandas DataFrame; got {type(frame).__name__}")
    missing = [c for c in CLAIM_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)} "
                         f"(a claims table has exactly: {', '.join(CLAIM_COLUMNS)})")
    out = frame[list(CLAIM_COLUMNS)].copy()
    for col in ("chapter", "claim_id", "section", "claim", "quantifier", "quantifier_quote", "kind", "setup",
                "stands_for", "case", "reading", "shown_why", "uncertain", "threshold_quote", "criterion", "cause", "note"):
        out[col] = out[col].map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v))
        out[col] = out[col].str.strip()
    for i, row in out.iterrows():
        where = f"{source}, row {i + 2}"  # +2: header line, 1-based
        for col in ("chapter", "claim_id", "section", "claim", "setup", "stands_for"):
            if not row[col]:
                raise ValueError(f"{where}: column `{col}` is empty")
        if row["stands_for"] not in ROW_STANDS_FOR:
            raise ValueError(f"{where}: column `stands_for` must be one of {', '.join(ROW_STANDS_FOR)}; "
                             f"got {row['stands_for']!r}")
        if (row["setup"] == "-") != (row["stands_for"] == "-"):
            raise ValueError(f"{where}: `stands_for` is '-' exactly when `setup` is '-' (no simulation)")
        if chapter is not None and row["chapter"] != chapter:
            raise ValueError(f"{where}: column `chapter` is {row['chapter']!r}, expected {chapter!r}")
        if row["kind"] not in KINDS:
            raise ValueError(f"{where}: column `kind` must be one of {', '.join(KINDS)}; got {row['kind']!r}")
        if row["cause"] not in CAUSES:
            raise ValueError(f"{where}: column `cause` must be one of {', '.join(map(repr, CAUSES))}; "
                             f"got {row['cause']!r}")
        if row["quantifier"] not in QUANTIFIERS:
            raise ValueError(f"{where}: column `quantifier` must be one of {', '.join(QUANTIFIERS)}; "
                             f"got {row['quantifier']!r}")
        if row["quantifier_quote"] and row["quantifier_quote"] not in row["claim"]:
            raise ValueError(f"{where}: `quantifier_quote` {row['quantifier_quote']!r} is not in the claim's words")
        if row["criterion"] and row["criterion"] not in CRITERIA:
            raise ValueError(f"{where}: column `criterion` must be a declared criterion "
                             f"({', '.join(CRITERIA)}); got {row['criterion']!r}")
    for col in _NUMERIC:
        try:
            out[col] = pd.to_numeric(out[col], errors="raise").astype(float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source}: column `{col}` must hold numbers (fractions) or be empty ({exc})") from None
        bad = out[col] < 0
        if bad.any():
            raise ValueError(f"{source}: column `{col}` must be >= 0; row(s) {[i + 2 for i in out.index[bad]]}")
    out["holds"] = [holds_value(v, f"{source}, row {i + 2}, column `holds`") for i, v in zip(out.index, out["holds"])]
    out["holds"] = out["holds"].astype(object)
    out["paper_config"] = [holds_value(v, f"{source}, row {i + 2}, column `paper_config`") is not False
                           for i, v in zip(out.index, out["paper_config"])]
    out["decides"] = [holds_value(v, f"{source}, row {i + 2}, column `decides`") is not False
                      for i, v in zip(out.index, out["decides"])]
    for i, row in out.iterrows():
        if row["decides"] == bool(row["shown_why"]):
            raise ValueError(f"{source}, row {i + 2}: a row shown but not deciding (`decides` False) says why "
                             "(`shown_why`), and only such a row")
        if row["kind"] == "fact" and row["holds"] is not None and not row["criterion"]:
            raise ValueError(f"{source}, row {i + 2}: a fact with a `holds` value names the declared criterion "
                             "that computed it (`criterion`)")
    for i, row in out.iterrows():
        if math.isnan(row["threshold"]) == bool(row["threshold_quote"]):
            raise ValueError(f"{source}, row {i + 2}: a `threshold` (the paper's tolerance) comes with the paper's "
                             "words that state it (`threshold_quote`), and only with them")
    dup = out.duplicated(["chapter", "claim_id", "setup", "case"], keep=False)
    if dup.any():
        pairs = sorted({(r.claim_id, r.setup, r.case) for r in out[dup].itertuples()})
        raise ValueError(f"{source}: repeated (claim_id, setup, case) {pairs}: one row per claim, set-up and case")
    for (ch, cid), g in out.groupby(["chapter", "claim_id"], sort=False):
        for col in ("kind", "claim", "section", "threshold_quote", "quantifier", "quantifier_quote"):
            if g[col].nunique() > 1:
                raise ValueError(f"{source}: claim {cid!r} has rows with different `{col}`: {sorted(set(g[col]))}")
    return out.reset_index(drop=True)


def read_chapter_claims(book_dir, chapter: str) -> pd.DataFrame:
    """The checked claims table of one chapter (:func:`check_claims`), with the rows its atlas page judged
    (``tab-<chapter>-atlas-claims.csv``, :mod:`models.core.atlas_claims`) once that page has run.

    Raises
    ------
    FileNotFoundError
        When the chapter's table does not exist, saying which notebooks write it.
    ValueError
        When it is malformed (the message names the file).
    """
    path = claims_path(book_dir, chapter)
    atlas = Path(book_dir) / chapter / "tables" / claims_file(chapter, "atlas-claims")
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the claims table of chapter {chapter!r} is missing. It is written by the chapter's "
            f"notebooks (notebooks/{chapter}/); run them first, e.g. `python -m models.pipeline {chapter}` "
            f"(or into the same --out folder as this notebook).")
    frames = []
    for p in (path, atlas) if atlas.is_file() else (path,):  # the atlas page's rows, once it has run
        try:
            frames.append(pd.read_csv(p, keep_default_na=True))
        except pd.errors.EmptyDataError:
            raise ValueError(f"{p}: empty file (a claims table has the columns {', '.join(CLAIM_COLUMNS)})") from None
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    return check_claims(frame, source=" + ".join(str(p) for p in (path, atlas)[:len(frames)]), chapter=chapter)


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
@dataclass(frozen=True)
class Verdict:
    """The verdict on one claim.

    verdict : one of :data:`VERDICTS`
    rests_on : tuple of set-up names the verdict rests on (passes, or fails for "does not hold")
    passes_on, fails_on : deciding rows where the claim passes / fails (``"set-up"`` or ``"set-up (case)"``)
    unknown_on : deciding rows without an outcome
    uncertain_on : deciding rows whose error may or may not be unbounded (inside the saturation bracket)
    other_fails : rows on cases other than the paper's where the claim fails (a caveat only)
    shown : rows shown but not deciding (``decides`` False), label -> outcome
    outcomes : dict row label -> outcome (every row, "neither" set-ups and shown rows included)
    quantifier : the claim's quantifier (:data:`~models.core.claims.QUANTIFIERS`)
    """

    verdict: str
    rests_on: tuple
    fails_on: tuple
    unknown_on: tuple
    other_fails: tuple
    outcomes: dict
    passes_on: tuple = ()
    uncertain_on: tuple = ()
    shown: dict = None
    quantifier: str = "all"
    per_reading: dict = None

    @property
    def caveat(self) -> str:
        """What qualifies the verdict, in words ("" when nothing does): where a claim that holds fails or was
        not judged, where one that does not hold passes."""
        parts = []
        if self.per_reading:
            parts.append("by reading: " + "; ".join(f"{r}: {v}" for r, v in self.per_reading.items()))
        if self.verdict == "does not hold" and self.passes_on:
            parts.append("holds on " + ", ".join(self.passes_on))
        if self.verdict in ("holds", "holds with a caveat") and self.fails_on:
            parts.append("does not hold on " + ", ".join(self.fails_on))
        if self.verdict != "cannot be checked":
            if self.unknown_on:
                parts.append("not judged on " + ", ".join(self.unknown_on))
            if self.uncertain_on:
                parts.append("uncertain (inside the saturation bracket) on " + ", ".join(self.uncertain_on))
        if self.other_fails:
            parts.append("beyond the paper's configuration, does not hold for " + ", ".join(self.other_fails))
        return "; ".join(parts)


def row_label(setup: str, case: str = "") -> str:
    """``"model"``, ``"model (M = 8)"``; ``"no simulation"`` for the set-up ``"-"``."""
    base = "no simulation" if setup == "-" else setup
    return f"{base} ({case})" if case else base


def combine(quantifier: str, passes: Sequence, fails: Sequence, unknown: Sequence, other_fails: Sequence = ()) -> str:
    """The verdict from the deciding rows' outcomes, by the claim's quantifier (the module docstring's table).

    ``passes``, ``fails`` and ``unknown`` (unknown or uncertain) are the
    deciding rows by outcome; ``other_fails`` the rows on other cases that fail.
    """
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"`quantifier` must be one of {', '.join(QUANTIFIERS)}; got {quantifier!r}")
    p, f = len(passes), len(fails)
    if p == 0 and f == 0:
        return "cannot be checked"
    if quantifier in ("all", "one"):
        if f:
            return "does not hold"
        return "holds" if not unknown and not other_fails else "holds with a caveat"
    if quantifier == "most":
        if p > f:
            return "holds" if not f and not unknown and not other_fails else "holds with a caveat"
        return "does not hold"
    # "some": one deciding pass is enough for the claim to hold; rows where it fails make it a caveat
    if p:
        return "holds" if not f and not other_fails else "holds with a caveat"
    return "does not hold"


def combine_readings(per_reading: Mapping[str, str]) -> str:
    """The verdict over the readings of the paper's text, from each reading's verdict (:func:`combine`).

    Readings that cannot be checked are left out; all that remain hold: **holds** (with a caveat if one does
    with a caveat); none holds: **does not hold**; they disagree: **holds with a caveat** (the claim holds
    under one reading of the paper's text and not under another, and the verdict names them).
    """
    judged = {r: v for r, v in per_reading.items() if v != "cannot be checked"}
    if not judged:
        return "cannot be checked"
    kinds = set(judged.values())
    if kinds <= {"holds", "holds with a caveat"}:
        return "holds" if kinds == {"holds"} else "holds with a caveat"
    if kinds == {"does not hold"}:
        return "does not hold"
    return "holds with a caveat"


def verdict(rows: pd.DataFrame) -> Verdict:
    """The verdict on one claim from its rows (set-ups x cases x readings), by the module docstring's rule."""
    outcomes, shown = {}, {}
    setup_of, reading_of = {}, {}
    deciding, other = {}, {}
    quantifier = str(rows["quantifier"].iloc[0]) if "quantifier" in rows and len(rows) else "all"
    for r in rows.itertuples(index=False):
        stands = getattr(r, "stands_for", "paper") or "paper"
        label = row_label(r.setup, getattr(r, "case", ""))
        setup_of[label] = r.setup
        reading_of[label] = getattr(r, "reading", "") or ""
        outcomes[label] = row_outcome(r.kind, r.worst_err, r.sat_ratio, r.threshold, r.holds, stands,
                                      getattr(r, "uncertain", "") or "")
        if not getattr(r, "decides", True):
            shown[label] = outcomes[label]
            continue
        if stands not in DECIDING:
            continue
        (deciding if getattr(r, "paper_config", True) else other)[label] = outcomes[label]

    def by(outs, want):
        return tuple(lb for lb, o in outs.items() if o == want)

    passes, fails = by(deciding, "pass"), by(deciding, "fail")
    unknown, uncertain = by(deciding, "unknown"), by(deciding, "uncertain")
    other_fails = by(other, "fail")
    readings = [x for x in dict.fromkeys(reading_of[lb] for lb in deciding) if x]
    per = None
    if len(readings) < 2:
        v = combine(quantifier, passes, fails, unknown + uncertain, other_fails)
    else:  # the quantifier within each reading (rows the readings share count in each), then over the readings
        per = {}
        for rd in readings:
            mine = {lb: o for lb, o in deciding.items() if reading_of[lb] in (rd, "")}
            theirs = {lb: o for lb, o in other.items() if reading_of[lb] in (rd, "")}
            per[rd] = combine(quantifier, by(mine, "pass"), by(mine, "fail"),
                              by(mine, "unknown") + by(mine, "uncertain"), by(theirs, "fail"))
        v = combine_readings(per)

    def setups(labels):
        return tuple(dict.fromkeys(setup_of[lb] for lb in labels))

    rests = setups(fails) if v == "does not hold" else () if v == "cannot be checked" else setups(passes)
    return Verdict(v, rests, fails, unknown, other_fails, outcomes, passes_on=passes, uncertain_on=uncertain,
                   shown=shown, quantifier=quantifier, per_reading=per)


def threshold_in_quote(threshold: float, quote: str) -> bool:
    """Whether the paper's words ``quote`` state ``threshold`` (a fraction) as a percentage (``5%``, ``5 %``,
    ``5 percent``) or as the fraction itself: the test that a tolerance shown as the paper's is the paper's."""
    t = as_number(threshold)
    if math.isnan(t):
        return False
    pct = t * 100
    numbers = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)", quote)]
    fractions = [float(x) for x in re.findall(r"(?<![\d.])(0\.\d+)", quote)]
    return any(abs(x - pct) < 1e-9 for x in numbers) or any(abs(x - t) < 1e-12 for x in fractions)


def verdict_table(claims: pd.DataFrame) -> pd.DataFrame:
    """One row per claim (chapter, claim_id), in the order of ``claims``: the numbers per row and the verdict.

    Columns: ``chapter``, ``claim_id``, ``section``, ``claim``, ``kind``,
    ``threshold`` and ``threshold_quote`` (the paper's), ``yardstick`` (the
    book's), ``rows`` (tuple of row labels, set-up and case, in table
    order), ``stands_for``, ``worst_err``, ``sat_ratio``, ``holds`` and
    ``outcome`` (dicts row label -> value), ``verdict``, ``rests_on``,
    ``fails_on``, ``unknown_on``, ``other_fails`` (tuples), ``caveat``
    (text), ``cause`` (the rows' causes other than "-", joined by "; ", or
    "-"), ``note`` (the rows' note if they share one, else ``"<row>:
    <note>"`` joined by " / ").
    """
    claims = check_claims(claims, source="claims")
    rows = []
    for (chapter, cid), g in claims.groupby(["chapter", "claim_id"], sort=False):
        v = verdict(g)
        labels = [row_label(su, ca) for su, ca in zip(g["setup"], g["case"])]
        # the cause: why the claim fails (deciding rows and other cases) or why a fact could not be judged;
        # never from a passing row, a shown row or a book yardstick
        why_rows = set(v.fails_on) | set(v.other_fails)
        why_rows |= {lb for lb, k in zip(labels, g["kind"]) if k == "fact" and lb in v.unknown_on}
        causes = [c for c in dict.fromkeys(c for lb, c in zip(labels, g["cause"]) if lb in why_rows) if c != "-"]
        if v.verdict == "does not hold" and not causes:
            raise ValueError(f"claim {chapter}/{cid}: does not hold, but none of its failing rows gives a cause "
                             f"(one of {', '.join(CAUSES[:-1])}; 'unexplained' when we looked and could not tell)")
        notes = [(lb, n) for lb, n in zip(labels, g["note"]) if n]
        distinct = list(dict.fromkeys(n for _, n in notes))
        if len(distinct) > 1:
            distinct = [f"{lb}: {n}" for lb, n in notes]
        for lb, d, why, unc in zip(labels, g["decides"], g["shown_why"], g["uncertain"]):
            if not d:
                distinct.append(f"{lb} is shown, not deciding: {why}")
            if unc:
                distinct.append(f"{lb} is uncertain: {unc}")
        rows.append({
            "chapter": chapter, "claim_id": cid, "section": g["section"].iloc[0], "claim": g["claim"].iloc[0],
            "quantifier": g["quantifier"].iloc[0], "quantifier_quote": g["quantifier_quote"].iloc[0],
            "kind": g["kind"].iloc[0], "threshold": g["threshold"].iloc[0],
            "threshold_quote": g["threshold_quote"].iloc[0],
            "yardstick": next((y for y in g["yardstick"] if not math.isnan(y)), math.nan),
            "rows": tuple(labels), "stands_for": dict(zip(labels, g["stands_for"])),
            "paper_config": dict(zip(labels, g["paper_config"])), "decides": dict(zip(labels, g["decides"])),
            "worst_err": dict(zip(labels, g["worst_err"])), "sat_ratio": dict(zip(labels, g["sat_ratio"])),
            "holds": dict(zip(labels, g["holds"])), "criterion": dict(zip(labels, g["criterion"])),
            "outcome": v.outcomes, "verdict": v.verdict, "rests_on": v.rests_on, "fails_on": v.fails_on,
            "unknown_on": v.unknown_on + v.uncertain_on, "other_fails": v.other_fails, "caveat": v.caveat,
            "cause": "; ".join(causes) if causes else "-", "note": " / ".join(distinct),
        })
    return pd.DataFrame(rows, columns=["chapter", "claim_id", "section", "claim", "quantifier", "quantifier_quote",
                                       "kind", "threshold", "threshold_quote", "yardstick", "rows", "stands_for",
                                       "paper_config", "decides", "worst_err", "sat_ratio", "holds", "criterion",
                                       "outcome", "verdict", "rests_on",
                                       "fails_on", "unknown_on", "other_fails", "caveat", "cause", "note"])


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


def glue_values(table: pd.DataFrame, reproductions: pd.DataFrame | None = None) -> dict:
    """The numbers the claims page quotes (key -> int), from :func:`verdict_table`.

    ``findings-n-claims`` (claims), ``findings-n-holds``, ``findings-n-caveat``,
    ``findings-n-fails``, ``findings-n-unchecked`` (claims per verdict,
    :func:`verdict_counts`), ``findings-n-chapters`` (chapters with a claim)
    and, with ``reproductions``, ``findings-n-reproduced`` /
    ``findings-n-repro-columns`` (reproduced columns of the papers' tables).
    """
    counts = verdict_counts(table)
    out = {"findings-n-claims": int(len(table)), "findings-n-holds": counts["holds"],
           "findings-n-caveat": counts["holds with a caveat"], "findings-n-fails": counts["does not hold"],
           "findings-n-unchecked": counts["cannot be checked"], "findings-n-chapters": int(table["chapter"].nunique())}
    if reproductions is not None:
        out["findings-n-repro-columns"] = int(len(reproductions))
        out["findings-n-reproduced"] = int((reproductions["verdict"] == "reproduced").sum())
    return out


# ----------------------------------------------------------------------------
# Reproductions of the papers' tables
# ----------------------------------------------------------------------------
def read_reproductions(book_dir, chapters: Iterable[str] | None = None) -> pd.DataFrame:
    """Every chapter's reproductions table (``tab-<chapter>-reproductions.csv``), in chapter order.

    A chapter without one reproduces no table (nothing is read for it); a
    file with other columns than :data:`~models.core.reproductions.REPRO_COLUMNS`
    raises :class:`ValueError` naming it.
    """
    frames = []
    for ch in CHAPTERS if chapters is None else chapters:
        path = Path(book_dir) / ch / "tables" / claims_file(ch, "reproductions")
        if not path.is_file():
            continue
        frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if tuple(frame.columns) != REPRO_COLUMNS:
            raise ValueError(f"{path}: expected the columns {', '.join(REPRO_COLUMNS)}; got {list(frame.columns)}")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(REPRO_COLUMNS))


def format_reproductions(frame: pd.DataFrame) -> pd.DataFrame:
    """The reproductions table as the reader sees it: ``chapter``, ``table``, ``column``, ``agree`` (entries
    within their band, of all), ``misses`` (an analytic column: entries outside, none allowed; a simulated
    one: blocks that miss, of all, and how many may), ``largest difference`` (absolute, relative, and the largest
    in bands, perhaps at another entry), ``verdict``,
    ``assumption`` (a simulated column: the paper run length at which the verdict flips), ``cause``,
    ``noise``."""
    out = []
    for _, r in frame.iterrows():
        rel = as_number(r["largest_rel"])
        simulated = r["kind"] == "simulation"
        misses = (f"{int(r['blocks_missed'])}/{int(r['blocks'])} blocks (may miss {int(r['allowed'])})"
                  if simulated else f"{int(r['outside'])}/{int(r['entries'])} entries (may miss 0)")
        out.append({"chapter": r["chapter"], "table": f"{r['table']} ({r['section']})", "column": r["column"],
                    "agree": f"{int(r['entries']) - int(r['outside'])}/{int(r['entries'])}", "misses": misses,
                    "largest difference": f"{as_number(r['largest_diff']):.3g}"
                                          + ("" if math.isnan(rel) else f" ({percent(rel, 2)})")
                                          + f"; at most {as_number(r['largest_std']):.2f} bands",
                    "verdict": r["verdict"],
                    "assumption": flip_text(r["verdict"], as_number(r["flips_at"])) if simulated else "-",
                    "cause": r["cause"], "noise": r["noise"]})
    return pd.DataFrame(out, columns=["chapter", "table", "column", "agree", "misses", "largest difference",
                                      "verdict", "assumption", "cause", "noise"])


# ----------------------------------------------------------------------------
# Formatting (one style)
# ----------------------------------------------------------------------------
#: The quantifiers in words, as the verdict table names them.
QUANTIFIER_WORDS = {"all": "every case", "most": "most cases", "some": "at least one case", "one": "one case"}

#: Where the worst error is taken, in a column header.
ACCURACY_WORDS = "at " + "/".join(f"{100 * f:g}" for f in ACCURACY_FRACTIONS) + "% sat."

#: Footnotes of the formatted table's symbols.
FOOTNOTES = {
    "n/a": "n/a: no number for this claim on this set-up (not applicable to the claim, or not measured).",
    "inf": f"{UNBOUNDED} = {UNBOUNDED_WORD}: the model is saturated at 25, 50 or 75% of the simulated saturation "
           "load, for every value of it in the simulated search's bracket, so its latency there, and its error, have "
           "no bound; an unbounded error fails any tolerance.  Every table of the book writes it so.",
    "shown": "[shown, not deciding]: a row shown beside the deciding ones and never deciding (the note says why: a "
             "reading the book chose so that the claim could hold is not independent evidence).",
    "uncertain": "[uncertain]: the model's saturation load lies inside the simulated search's bracket at one of the "
                 "fractions where the error is taken, so whether its error there is bounded depends on noise; the row "
                 "decides nothing.",
    "neither": "[neither]: a set-up that neither the paper nor its model describes; shown, never deciding.",
    "other": "[other configuration]: a case beyond the paper's own configuration (another size, message length or "
             "wiring); it can add a caveat, never decide.",
}


def format_percent(x, digits: int = 1) -> str:
    """A fraction as a percentage with fixed precision (``0.1234 -> '12.3%'``); ``'n/a'``; ``'∞'`` for +inf."""
    return percent_text(as_number(x), digits)


def format_ratio(x, digits: int = 3) -> str:
    """A ratio with fixed precision (``'0.565'``); ``'n/a'``."""
    v = as_number(x)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return UNBOUNDED
    return f"{v:.{digits}f}"


def _tag(row, label) -> str:
    tags = []
    if row["stands_for"][label] == "neither":
        tags.append("neither")
    if not row["paper_config"][label]:
        tags.append("other configuration")
    if not row["decides"].get(label, True):
        tags.append("shown, not deciding")
    if row["outcome"].get(label) == "uncertain":
        tags.append("uncertain")
    return f"{label} [{', '.join(tags)}]" if tags else label


def _per_row(row, values: Mapping, fmt) -> str:
    labels = row["rows"]
    if len(labels) == 1:
        return fmt(values[labels[0]])
    return "; ".join(f"{_tag(row, lb)}: {fmt(values[lb])}" for lb in labels)


def _holds_text(h) -> str:
    return "n/a" if h is None else ("yes" if h else "no")


def tolerance_text(row) -> str:
    """Whose tolerance judges the claim: the paper's (with its words), or none (with the book's yardstick)."""
    t, y = as_number(row["threshold"]), as_number(row["yardstick"])
    if not math.isnan(t):
        return f"the paper's tolerance: {format_percent(t)} (\u201c{row['threshold_quote']}\u201d)"
    if row["kind"] == "fact":
        used = [c for c in dict.fromkeys(row["criterion"].values()) if c]
        return f"criterion: {', '.join(used)}" if used else ""
    if not math.isnan(y):
        return f"the paper names no number; the book's own yardstick, not deciding: {format_percent(y)}"
    return "the paper names no number"


def _measured(row) -> str:
    if row["kind"] == "error":
        what = "worst |error| " + _per_row(row, row["worst_err"], format_percent)
    elif row["kind"] == "saturation":
        what = "saturation ratio " + _per_row(row, row["sat_ratio"], format_ratio)
    else:
        what = "holds: " + _per_row(row, row["holds"], _holds_text)
    limit = tolerance_text(row)
    return f"{what} ({limit})" if limit else what


def format_verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`verdict_table` as the reader sees it: strings only, no index column to show.

    Columns: ``chapter``, ``section``, ``claim``, ``what we measured`` (the
    number the verdict is judged on, per set-up and case, and whose
    tolerance), ``worst |error| at 25/50/75% sat.`` and ``saturation ratio`` (the
    model's saturation load over the simulation's, or the ratio the claim's
    note names)
    (per row; ``n/a`` where there is none), ``verdict``, ``set-ups it rests
    on`` (with the caveat; ``"no simulation"`` for the set-up ``"-"``),
    ``cause``, ``source`` (the chapter's note).  Percentages with one
    decimal, ratios with three.
    """
    out = []
    for _, r in table.iterrows():
        rests = ", ".join("no simulation" if s == "-" else s for s in r["rests_on"]) if r["rests_on"] else "-"
        if r["caveat"]:
            rests = f"{rests} ({r['caveat']})"
        if r["quantifier"] != "one":
            rests = f"{rests} [claims {QUANTIFIER_WORDS[r['quantifier']]}" + \
                (f": \u201c{r['quantifier_quote']}\u201d]" if r["quantifier_quote"] else "]")
        out.append({
            "chapter": r["chapter"],
            "section": r["section"],
            "claim": r["claim"],
            "what we measured": _measured(r),
            f"worst |error| {ACCURACY_WORDS}": _per_row(r, r["worst_err"], format_percent),
            "saturation ratio": _per_row(r, r["sat_ratio"], format_ratio),
            "verdict": r["verdict"],
            "set-ups it rests on": rests,
            "cause": r["cause"],
            "source": r["note"],
        })
    return pd.DataFrame(out, columns=["chapter", "section", "claim", "what we measured",
                                      f"worst |error| {ACCURACY_WORDS}", "saturation ratio", "verdict", "set-ups it rests on", "cause", "source"])


def verdict_words(row) -> str:
    """The verdict of one row of :func:`verdict_table` as the tables show it: the verdict, and for "cannot be
    checked" why, in words (``"cannot be checked: the paper names no number for it, and no error is
    unbounded"``)."""
    v = row["verdict"]
    if v != "cannot be checked":
        return v
    if row["kind"] == "error" and math.isnan(as_number(row["threshold"])):
        return f"{v}: the paper names no number for it, and no error is unbounded"
    return f"{v}: no criterion can judge it on the book's evidence (the note says why)"


def verdict_legend(verdicts: Iterable[str] = VERDICTS) -> str:
    """The verdict words of ``verdicts`` and what each means (:data:`VERDICT_MEANING`), as one Markdown paragraph
    per word: shown under every verdict table (the findings page, each chapter's Findings section)."""
    return "\n\n".join(f"**{v}**: {VERDICT_MEANING[v]}" for v in dict.fromkeys(verdicts))


def bold_html(text: str) -> str:
    """Paragraphs of ``text`` (blank-line separated; ``**bold**`` their only markup) as HTML, escaped: what a page
    pastes from another page's glue, where myst-nb renders HTML and not Markdown."""
    import html

    paras = [re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(p, quote=False)) for p in text.split("\n\n")]
    return "".join(f"<p>{p}</p>" for p in paras)


def verdict_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The findings page's verdict table, one row per claim, numbered as :func:`claim_details`: ``#``,
    ``chapter``, ``claim`` (the paper's whole sentence: a cut could drop the number or the quantifier that
    decides it), ``verdict`` (:func:`verdict_words`: "cannot be checked" says why), ``cause``, ``set-ups it rests
    on``, ``what we measured`` (the long text last, so that the verdict and its cause show without scrolling)."""
    shown = format_verdicts(table).assign(**{"#": range(1, len(table) + 1)})
    shown["verdict"] = [verdict_words(r) for _, r in table.iterrows()]
    return shown[["#", "chapter", "claim", "verdict", "cause", "set-ups it rests on", "what we measured"]]


def claim_details(table: pd.DataFrame) -> str:
    """The claims of :func:`verdict_table` as an HTML numbered list, numbered as the rows of the verdict table.

    Each item: the chapter, the paper's section, the claim as quoted from the
    paper, and the chapter's note on it (the source of the numbers).  The
    verdict table on the page then needs only the row number, so its rows
    stay one or two lines high.
    """
    import html

    items = []
    for _, r in table.iterrows():
        note = f' <span style="color:var(--pst-color-text-muted, #666)">{html.escape(r["note"])}</span>' \
            if r["note"] else ""
        items.append(f'<li><b>{html.escape(r["chapter"])}</b>, {html.escape(r["section"])} '
                     f'(<code>{html.escape(r["claim_id"])}</code>): \u201c{html.escape(r["claim"])}\u201d{note}</li>')
    return '<ol class="claim-details">' + "".join(items) + "</ol>"


def chapter_verdicts(table: pd.DataFrame, chapter: str) -> pd.DataFrame:
    """The verdict table one chapter's page shows in its Findings section (glued by the findings page, so that a
    chapter and the findings chapter show the same verdicts): ``#`` (the row of the findings table), ``section``,
    ``claim`` (the whole sentence), ``verdict`` (:func:`verdict_words`), ``cause``,
    ``set-ups it rests on``, ``what we measured``."""
    shown = verdict_rows(table).assign(section=list(table["section"]))
    mine = shown[shown["chapter"] == chapter]
    return mine[["#", "section", "claim", "verdict", "cause", "set-ups it rests on", "what we measured"]] \
        .reset_index(drop=True)


def chapter_summary(table: pd.DataFrame, chapter: str, reproductions: pd.DataFrame | None = None) -> str:
    """One line: how the chapter's claims fare (``"6 claims: 2 hold, 1 holds with a caveat, 3 do not hold"``;
    verdicts with no claim left out), and its reproduced table columns when it has any.  The intro's chapter
    table and the verdict box at the top of each chapter show it (glued by the findings page)."""
    mine = table[table["chapter"] == chapter]
    counts = verdict_counts(mine)
    words = {"holds": ("holds", "hold"), "holds with a caveat": ("holds with a caveat", "hold with a caveat"),
             "does not hold": ("does not hold", "do not hold"), "cannot be checked": ("cannot be checked",) * 2}
    parts = [f"{n} {words[v][0] if n == 1 else words[v][1]}" for v, n in counts.items() if n]
    n = len(mine)
    text = f"{n} claim{'s' if n != 1 else ''}: " + ", ".join(parts) if n else "no claims checked"
    if reproductions is not None:
        rep = reproductions[reproductions["chapter"] == chapter]
        if len(rep):
            text += (f"; {int((rep['verdict'] == 'reproduced').sum())} of {len(rep)} columns of the paper's "
                     "tables reproduced")
    return text


def main_claim_id(chapter: str) -> str:
    """The id of the paper's main claim, as its chapter declares it (``models.<chapter>.claims.MAIN_CLAIM``, a key
    of that module's ``CLAIMS``): the sentence the chapter's opening paragraph judges."""
    import importlib

    module = importlib.import_module(f"models.{chapter}.claims")
    cid = getattr(module, "MAIN_CLAIM", None)
    if cid not in getattr(module, "CLAIMS", {}):
        raise ValueError(f"models.{chapter}.claims: MAIN_CLAIM must name one of its CLAIMS; got {cid!r}")
    return cid


def _evidence(row, label: str) -> str:
    """What one row of claim ``row`` (:func:`verdict_table`) measured, in words: its worst error or saturation
    ratio, and the criterion a fact was judged by."""
    err, ratio = as_number(row["worst_err"][label]), as_number(row["sat_ratio"][label])
    fractions = ", ".join(f"{100 * f:g}" for f in ACCURACY_FRACTIONS[:-1]) + f" or {100 * ACCURACY_FRACTIONS[-1]:g}"
    parts = []
    if math.isinf(err):
        parts.append(f"the model saturates at {ratio:.2f} of the simulated saturation load, so its error at "
                     f"{fractions} % of that load has no bound" if not math.isnan(ratio) else
                     f"the model saturates below {100 * ACCURACY_FRACTIONS[-1]:g} % of the simulated saturation "
                     "load, so its error there has no bound")
    elif not math.isnan(err):  # without a saturation ratio (a closed system) the note says over which loads
        parts.append(f"its worst error at {fractions} % of the simulated saturation load is {format_percent(err)}"
                     if not math.isnan(ratio) else f"its worst error is {format_percent(err)}")
    elif row["kind"] == "saturation" and not math.isnan(ratio):
        parts.append(f"the model's saturation load is {ratio:.3f} times the simulated one")
    crit = row["criterion"].get(label, "")
    if row["kind"] == "fact" and crit:
        parts.append(f"the criterion \u201c{crit}\u201d {'holds' if row['outcome'].get(label) == 'pass' else 'fails'}")
    return ", and ".join(parts) if parts else "its note says what was measured"


def _row_words(label: str) -> str:
    """A row label (:func:`row_label`) in a sentence: ``"model (M = 8)"`` -> ``"the set-up \u201cmodel\u201d (M = 8)"``."""
    setup, _, case = label.partition(" (")
    if setup == "no simulation":
        return "the row that needs no simulation" + (f" ({case}" if case else "")
    return f"the set-up \u201c{setup}\u201d" + (f" ({case}" if case else "")


def _median_row(r, labels: Sequence[str]) -> str:
    """The row of ``labels`` in the middle by severity (error, then the saturation ratio's distance from 1; table
    order on ties): the typical one, neither the worst nor the mildest."""
    def severity(lb):
        e, q = as_number(r["worst_err"][lb]), as_number(r["sat_ratio"][lb])
        return (-1.0 if math.isnan(e) else e, 0.0 if math.isnan(q) else abs(math.log(q)) if q > 0 else math.inf)
    ranked = sorted(labels, key=severity)   # sorted() is stable: ties keep the table's order
    return ranked[(len(ranked) - 1) // 2]


def _of(n: int, total: int) -> str:
    if total == 1:
        return "its one deciding row"
    return f"all {total} rows that decide it" if n == total else f"{n} of the {total} rows that decide it"


def main_claim_text(table: pd.DataFrame, chapter: str, claim_id: str | None = None) -> str:
    """The paragraph that opens a chapter: the paper's main claim (``claim_id``, default :func:`main_claim_id`),
    quoted whole, its verdict and the one reason, from the verdict table ``table`` (:func:`verdict_table`).

    The reason is one deciding row, the typical one (:func:`_median_row`): a failing row for "does not hold", a
    passing one for "holds", with how many of the claim's deciding rows (on the paper's configurations) agree,
    and the cause.  Every number comes from the table.
    """
    cid = main_claim_id(chapter) if claim_id is None else claim_id
    mine = table[(table["chapter"] == chapter) & (table["claim_id"] == cid)]
    if len(mine) != 1:
        raise ValueError(f"{chapter}: claim {cid!r} is not in the verdict table")
    r = mine.iloc[0]
    deciding = [lb for lb in r["rows"] if r["decides"].get(lb, True) and r["stands_for"][lb] in DECIDING
                and r["paper_config"][lb]]

    head = f"The paper's main claim ({r['section']}): \u201c{r['claim']}\u201d"
    v = r["verdict"]
    if v == "does not hold":
        fails = [lb for lb in deciding if r["outcome"].get(lb) == "fail"]
        lb = _median_row(r, fails)
        why = (f"It fails on {_of(len(fails), len(deciding))}. On {_row_words(lb)}, {_evidence(r, lb)}"
               + (f" (the cause: {r['cause']})." if r["cause"] != "-" else "."))
    elif v in ("holds", "holds with a caveat"):
        passes = [lb for lb in deciding if r["outcome"].get(lb) == "pass"]
        lb = _median_row(r, passes)
        t = as_number(r["threshold"])
        limit = f", within the paper's {format_percent(t)}" if not math.isnan(t) and r["kind"] == "error" else ""
        why = f"It passes on {_of(len(passes), len(deciding))}; on {_row_words(lb)}, {_evidence(r, lb)}{limit}."
        if r["caveat"]:
            why += f" The caveat: {r['caveat']}."
    else:
        why = verdict_words(r).split(": ", 1)[1].capitalize() + "."
    return f"{head} **Verdict: {v}.** {why}"


# ----------------------------------------------------------------------------
# The referee's report (book/findings/response.md)
# ----------------------------------------------------------------------------
#: The referee's record of the build they judged (commit cf1263c; the record of the report before it, on 96c92d8,
#: is ``referee-verdicts-96c92d8.csv`` beside it): one row per verdict row of that build
#: (``number`` = the report's "#N"), the verdict then, the referee's judgement (F fair, Q questionable,
#: W wrong), what they suggest, and where the claim is now (``now``: ``claims:<claim_id>``,
#: ``reproductions:<table_id>`` or ``chapter:<where>``).  Data from the report, not results.
REFEREE_RECORD = Path(__file__).parent / "data" / "referee-verdicts-before.csv"


def referee_record(path: Path | str = REFEREE_RECORD) -> pd.DataFrame:
    """The referee's record (:data:`REFEREE_RECORD`), checked: numbered rows, judgements F/Q/W."""
    frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    want = ["number", "chapter", "claim_before", "verdict_before", "judgement", "referee_suggests", "now"]
    if list(frame.columns) != want:
        raise ValueError(f"{path}: expected the columns {want}; got {list(frame.columns)}")
    bad = sorted(set(frame["judgement"]) - {"F", "Q", "W"}) + sorted(set(frame["verdict_before"]) - set(VERDICTS))
    if bad:
        raise ValueError(f"{path}: unknown judgement or verdict {bad}")
    return frame


def before_after(table: pd.DataFrame, reproductions: pd.DataFrame, record: pd.DataFrame) -> pd.DataFrame:
    """Each of the referee's rows: the verdict before, the referee's judgement, and where it stands now.

    Columns: ``#`` (the report's number), ``claim then`` (chapter: claim), ``verdict then``, ``referee``
    (the judgement: fair, questionable or wrong), ``now`` (the claim id, reproduction or chapter table it
    became), ``verdict now`` (this build's, from ``table`` / ``reproductions``; ``"not a claim: in the
    chapter"`` for rows that left the claims) and ``referee suggests`` (the suggestion, ``""`` if none; the
    response page answers it under the same number and leaves this column out of its table, to fit the page).
    """
    verdict_of = {(r.chapter, r.claim_id): r.verdict for r in table.itertuples(index=False)}
    repro_of = {}
    for r in reproductions.itertuples(index=False):
        repro_of.setdefault((r.chapter, r.table_id), []).append(r.verdict)
    out = []
    for r in record.itertuples(index=False):
        where, _, ident = r.now.partition(":")
        if where == "claims":  # a row may have become several claims (one per sentence): "claims:a|b"
            now = "; ".join(f"{i}: {verdict_of.get((r.chapter, i), 'missing')}" if "|" in ident else
                            verdict_of.get((r.chapter, i), "missing") for i in ident.split("|"))
        elif where == "reproductions":
            found = repro_of.get((r.chapter, ident))
            now = "missing" if not found else ("reproduced" if all(v == "reproduced" for v in found)
                                               else "not reproduced" if not any(v == "reproduced" for v in found)
                                               else f"{found.count('reproduced')}/{len(found)} columns reproduced")
        elif where == "chapter":
            now = "not a claim: in the chapter"
        else:
            now = "missing"
        judged = {"F": "fair", "Q": "questionable", "W": "wrong"}[r.judgement]
        out.append({"#": int(r.number), "claim then": f"{r.chapter}: {r.claim_before}",
                    "verdict then": r.verdict_before,
                    "referee": judged, "now": ident.replace("|", ", ") or "-", "verdict now": now,
                    "referee suggests": r.referee_suggests or ""})
    return pd.DataFrame(out, columns=["#", "claim then", "verdict then", "referee", "now", "verdict now",
                                      "referee suggests"])


def glue_tables(table: pd.DataFrame, reproductions: pd.DataFrame, chapters: Sequence[str] | None = None,
                record: pd.DataFrame | None = None) -> dict:
    """What the claims page glues for other pages (key -> displayable object or text), for every chapter of
    ``chapters`` (default :data:`models.CHAPTERS`):

    ``findings-verdicts-<chapter>`` (:func:`chapter_verdicts` in the book's table style: the chapter's
    Findings section shows it), ``findings-summary-<chapter>`` (:func:`chapter_summary`: the intro's
    chapter table and the chapter's verdict box), ``findings-main-<chapter>`` (:func:`main_claim_text`: the
    paragraph that opens the chapter), ``findings-verdict-legend`` (:func:`verdict_legend`) and, with the referee's ``record``,
    ``findings-before-after`` (:func:`before_after`, the response page's table).
    """
    from IPython.display import HTML  # pasted on another page by {glue} :doc: (HTML, as the tables); IPython runs it

    out = {"findings-verdict-legend": HTML(bold_html(verdict_legend()))}
    for chapter in CHAPTERS if chapters is None else chapters:
        out[f"findings-verdicts-{chapter}"] = format_table(chapter_verdicts(table, chapter))
        out[f"findings-summary-{chapter}"] = chapter_summary(table, chapter, reproductions)
        out[f"findings-main-{chapter}"] = HTML(bold_html(main_claim_text(table, chapter)))
    if record is not None:
        ba = before_after(table, reproductions, record).drop(columns="referee suggests")
        if all(now == then.split(": ", 1)[-1] for now, then in zip(ba["now"], ba["claim then"])):
            ba = ba.drop(columns="now")  # every claim kept its id: the column would repeat it
        out["findings-before-after"] = format_table(ba)
    return out


# ----------------------------------------------------------------------------
# The criteria of the facts, and the sentences considered and not judged
# ----------------------------------------------------------------------------
def criteria_table(table: pd.DataFrame) -> pd.DataFrame:
    """The declared criteria (:data:`models.core.criteria.CRITERIA`) the facts of ``table`` (:func:`verdict_table`)
    were decided by: ``criterion``, ``the words``, ``the comparison``, ``the noise allowance``, ``claims`` (the
    claim ids that use it)."""
    used: dict = {}
    for r in table.itertuples(index=False):
        for c in r.criterion.values():
            if c:
                used.setdefault(c, []).append(f"{r.chapter}/{r.claim_id}")
    rows = criteria_rows(used)
    for row in rows:
        row["claims"] = ", ".join(dict.fromkeys(used[row["criterion"]]))
    return pd.DataFrame(rows, columns=["criterion", "the words", "the comparison", "the noise allowance", "claims"])


def considered_table(chapters: Sequence[str] | None = None) -> pd.DataFrame:
    """The sentences of the papers the book read and does not judge, with the reason: ``chapter``, ``section``,
    ``sentence``, ``why not judged`` (each chapter's ``claims.CONSIDERED``, data of the paper, not results)."""
    import importlib

    rows = []
    for ch in CHAPTERS if chapters is None else chapters:
        module = importlib.import_module(f"models.{ch}.claims")
        for c in getattr(module, "CONSIDERED", ()):
            rows.append({"chapter": ch, "section": c.section, "sentence": c.quote, "why not judged": c.reason})
    return pd.DataFrame(rows, columns=["chapter", "section", "sentence", "why not judged"])


def considered_details(frame: pd.DataFrame) -> str:
    """:func:`considered_table` as an HTML list, one item per sentence: the chapter and section, the sentence as
    quoted, and why it is not judged (a list reads where a four-column table would scroll sideways)."""
    import html

    items = [f'<li><b>{html.escape(r["chapter"])}</b>, {html.escape(r["section"])}: '
             f'\u201c{html.escape(r["sentence"])}\u201d <span style="color:var(--pst-color-text-muted, #666)">'
             f'Not judged: {html.escape(r["why not judged"])}</span></li>' for _, r in frame.iterrows()]
    return '<ul class="considered">' + "".join(items) + "</ul>"


def criteria_details(frame: pd.DataFrame) -> str:
    """:func:`criteria_table` as an HTML list, one item per criterion: its name, the words it reads, the
    comparison, the noise allowance and the claims that use it."""
    import html

    items = [f'<li><code>{html.escape(r["criterion"])}</code>: {html.escape(r["the words"])}.  '
             f'<i>Comparison:</i> {html.escape(r["the comparison"])}.  <i>Noise:</i> '
             f'{html.escape(r["the noise allowance"])}.  <span style="color:var(--pst-color-text-muted, #666)">'
             f'Used by {html.escape(r["claims"])}.</span></li>' for _, r in frame.iterrows()]
    return '<ul class="criteria">' + "".join(items) + "</ul>"
