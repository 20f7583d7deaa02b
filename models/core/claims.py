"""One experiment vocabulary for every chapter: the worst error, the saturation ratio, the claims file.

The chapters (``models/<slug>/experiments.py`` and ``claims.py``) and
:mod:`models.findings` speak of the same things; each is defined once, so a
reader who knows one chapter reads every other, and a sixth chapter imports
them instead of copying them.  The light half -- simulator set-ups
(:class:`~models.core.setups.SimulatorSetup`), run lengths
(:class:`~models.core.setups.SimSettings`) and the cut :data:`BELOW` -- is
:mod:`models.core.setups` (no pandas: a chapter's command line reads it);
here:

* :func:`worst_error_below` -- the number behind the
  accuracy verdicts: the worst ``|model - sim| / sim`` (a fraction) over the
  simulated loads strictly below ``BELOW`` (80 %) of the *simulated*
  saturation load; :func:`worst_of` the worst of several such numbers
  (NaN-safe) and :func:`furthest_from_one` the saturation ratio furthest
  from 1 of several.
* :func:`setups_table` -- a chapter's set-ups as a table.
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
from .setups import ACCURACY_FRACTIONS, BELOW, SimulatorSetup
from .validate import require, require_choice
from . import criteria as _criteria
from .validation import saturation_aware_error

__all__ = ["setups_table", "worst_error_below", "errors_below", "counted_below", "Accuracy", "accuracy_below",
           "bracket_status", "QUANTIFIERS", "Considered", "worst_of", "furthest_from_one", "CLAIM_COLUMNS",
           "CLAIM_KINDS", "CAUSES", "ROW_STANDS_FOR", "Claim", "row_outcome", "as_number", "holds_value",
           "claims_frame", "claims_file", "row_stands_for", "save_claims"]


def setups_table(setups: Mapping[str, SimulatorSetup]) -> pd.DataFrame:
    """One row per set-up: ``setup``, ``stands for``, ``sets`` (its overrides) and ``description``."""
    def text(v):
        return "V" if v == "V" else (getattr(v, "__doc__", None) or "per model") if callable(v) else repr(v)

    return pd.DataFrame([{"setup": s.name, "stands for": s.stands_for or "neither",
                          "sets": ", ".join(f"{k}={text(v)}" for k, v in s.overrides.items()),
                          "description": s.description} for s in setups.values()],
                        columns=["setup", "stands for", "sets", "description"])


# ----------------------------------------------------------------------------
# The worst error below 80 % of the simulated saturation
# ----------------------------------------------------------------------------
def _runs(runs) -> list:
    if hasattr(runs, "points") and hasattr(runs, "params"):
        return [runs]
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Iterable):
        raise ParameterError(f"`runs` must be a CurveRun or a sequence of them; got {runs!r}")
    return list(runs)


def _is_accuracy_fraction(frac: np.ndarray) -> np.ndarray:
    """Which of ``frac`` are one of :data:`~models.core.setups.ACCURACY_FRACTIONS` (up to rounding)."""
    frac = np.asarray(frac, dtype=float).reshape(-1)
    hit = np.zeros(frac.shape, dtype=bool)
    for f in ACCURACY_FRACTIONS:
        hit |= np.isclose(frac, f, rtol=1e-9, atol=1e-12)
    return hit


def counted_below(fractions, sim_latency, sim_saturated=None, below: float = BELOW) -> np.ndarray:
    """Which simulated points count towards the worst error: a boolean mask.

    A point counts when the simulation is not saturated (flagged in
    ``sim_saturated``, or its latency not finite) and, given ``fractions``
    (of the simulated saturation load), its fraction is one of the fixed
    :data:`~models.core.setups.ACCURACY_FRACTIONS` (25, 50 and 75 % of the
    simulated saturation load: the number is the curve's, not the grid's) and
    strictly below ``below``.  ``fractions=None``: no cut (a closed system, or
    no simulated saturation load; :func:`models.core.compare.compare` says so).
    """
    sim = np.asarray(sim_latency, dtype=float).reshape(-1)
    ok = np.isfinite(sim)
    if sim_saturated is not None:
        ok &= ~np.asarray(sim_saturated, dtype=bool).reshape(-1)
    if fractions is not None:
        frac = np.asarray(fractions, dtype=float).reshape(-1)
        ok &= np.isfinite(frac) & (frac < below) & _is_accuracy_fraction(frac)
    return ok


def _bracket(run):
    """``(lo, hi)`` of the run's simulated saturation search, or None (no search recorded)."""
    b = getattr(run, "brackets", {}).get("sim") if hasattr(run, "brackets") else None
    if b is None:
        return None
    lo, hi = (b.lo, b.hi) if hasattr(b, "lo") else tuple(b)
    lo, hi = float(lo), float(hi)
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) and 0 < lo <= hi else None


def bracket_status(model_saturation: float, bracket, fraction: float) -> str:
    """Whether the model is saturated at ``fraction`` of the simulated saturation load: ``"unbounded"``,
    ``"bounded"`` or ``"uncertain"``.

    The simulated saturation load lies somewhere in its search's final ``bracket = (lo, hi)``; the model is
    saturated at ``fraction * S`` for every ``S`` in it when ``model_saturation <= fraction * lo``
    (``"unbounded"``: its error there has no bound, whatever the noise of the search), for none when
    ``model_saturation > fraction * hi`` (``"bounded"``), and otherwise it depends on where in the bracket the
    simulated saturation is (``"uncertain"``: the row decides nothing).  Without a bracket (``None``) the
    status is ``"bounded"`` and the grid point's own number stands.
    """
    ms = float(model_saturation)
    if bracket is None or not math.isfinite(ms):
        return "bounded"
    lo, hi = bracket
    if ms <= fraction * lo:
        return "unbounded"
    if ms > fraction * hi:
        return "bounded"
    return "uncertain"


@dataclasses.dataclass(frozen=True)
class Accuracy:
    """The worst error behind an accuracy row, and whether it is decided.

    worst : float
        The worst ``|model - sim| / sim`` (a fraction) at the
        :data:`~models.core.setups.ACCURACY_FRACTIONS` below the cut; ``inf``
        when on some curve the model is saturated at such a fraction for every
        simulated saturation load in the search's bracket; NaN when no point is left.
    uncertain : str
        ``""``, or the curves where the model's saturation load falls inside
        the bracket of such a fraction (the error there may or may not be
        unbounded): the row is then "uncertain" and decides nothing, unless
        another curve is certainly unbounded.
    """

    worst: float
    uncertain: str = ""

    def fields(self) -> dict:
        """``worst_err`` and ``uncertain`` for :meth:`Claim.row`."""
        return {"worst_err": self.worst, "uncertain": self.uncertain}

    @staticmethod
    def combine(parts: Iterable["Accuracy"]) -> "Accuracy":
        """Several rows' accuracies as one: the worst of the worst errors (:func:`worst_of`), every uncertain
        curve named."""
        parts = list(parts)
        return Accuracy(worst_of(p.worst for p in parts), "; ".join(p.uncertain for p in parts if p.uncertain))


def _run_accuracy(run, below: float, column: str):
    """``(errors, uncertain notes)`` of one run (see :func:`accuracy_below`)."""
    if run.params.get("load basis") != "sim":
        return np.zeros(0), []
    pts = run.points()
    if pts.empty or column not in pts or "sim latency" not in pts:
        return np.zeros(0), []
    sim = pts["sim latency"].to_numpy(dtype=float)
    frac = pts["fraction"].to_numpy(dtype=float)
    saturated = pts["sim saturated"].to_numpy(dtype=bool) if "sim saturated" in pts else None
    ok = counted_below(frac, sim, saturated, below)
    err = np.abs(saturation_aware_error(pts[column].to_numpy(dtype=float)[ok], sim[ok]))
    bracket = _bracket(run)
    ms = float(run.model_saturation) if column == "model latency" else math.nan
    notes = []
    for i, f in enumerate(frac[ok]):
        status = bracket_status(ms, bracket, float(f))
        if status == "unbounded":
            err[i] = math.inf
        elif status == "uncertain":
            lo, hi = bracket
            notes.append(f"{run.label}: the model saturates at {ms / hi:.4f}-{ms / lo:.4f} of the simulated "
                         f"saturation load (its bracket), against the {f:.0%} point")
            if math.isinf(err[i]):
                err[i] = math.nan
    return err[~np.isnan(err)], notes


def accuracy_below(runs, below: float = BELOW, *, column: str = "model latency") -> Accuracy:
    """The accuracy number of ``runs`` (:class:`Accuracy`): the worst error at the fixed
    :data:`~models.core.setups.ACCURACY_FRACTIONS` strictly below ``below`` x the simulated saturation load,
    with "unbounded" decided from the model's saturation load against the simulated search's bracket
    (:func:`bracket_status`), never from one grid point.

    Parameters as :func:`errors_below`.  ``column`` other than ``"model
    latency"`` (another reading of the model) is judged at its grid points
    only: the run's model saturation load is the default column's.
    """
    below = require("below", below, 0, 1, lo_open=True, unit="fraction of the simulated saturation load")
    errs, notes = [], []
    for run in _runs(runs):
        e, n = _run_accuracy(run, below, column)
        errs.append(e)
        notes += n
    err = np.concatenate(errs) if errs else np.zeros(0)
    worst = float(err.max()) if err.size else math.nan
    return Accuracy(worst, "; ".join(notes) if notes and not math.isinf(worst) else "")


def errors_below(runs, below: float = BELOW, *, column: str = "model latency") -> np.ndarray:
    """``|model - sim| / sim`` (fractions) at every counted simulated load (:func:`counted_below`: the fixed
    accuracy fractions strictly below ``below`` x the simulated saturation).

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
        One error per used point: ``inf`` where the model is saturated for
        every simulated saturation load in the search's bracket
        (:func:`bracket_status`); points where that depends on the bracket
        keep a finite error or are left out (:func:`accuracy_below` says
        which); points where the simulation is saturated (flagged, or not
        finite) are left out.
    """
    below = require("below", below, 0, 1, lo_open=True, unit="fraction of the simulated saturation load")
    out = [_run_accuracy(run, below, column)[0] for run in _runs(runs)]
    return np.concatenate(out) if out else np.zeros(0)


def worst_error_below(runs, below: float = BELOW, *, column: str = "model latency", finite: bool = False) -> float:
    """The worst ``|model - sim| / sim`` (a fraction) at the fixed accuracy fractions strictly below ``below`` x
    the simulated saturation load (:func:`accuracy_below`'s ``worst``).

    The one number behind every accuracy verdict (:func:`errors_below` says
    which points count).  ``inf`` when the model is saturated at such a point
    (its error is unbounded); with ``finite=True`` those points are skipped
    instead.  NaN when no point is left.  A claims row takes
    :func:`accuracy_below`, which also says when the number is uncertain.
    """
    err = errors_below(runs, below, column=column)
    if finite:
        err = err[np.isfinite(err)]
    return float(err.max()) if err.size else math.nan


def worst_of(values: Iterable[float]) -> float:
    """The worst (largest) of several worst errors (fractions), whatever their order: NaN values (no point
    left) are skipped, ``inf`` (unbounded) wins; NaN when nothing is left.

    The one way the chapters combine :func:`worst_error_below` over several
    runs or groups of runs (Python's ``max`` with a NaN depends on the order).
    """
    v = np.asarray(list(values), dtype=float).reshape(-1)
    v = v[~np.isnan(v)]
    return float(v.max()) if v.size else math.nan


def furthest_from_one(ratios: Iterable[float]) -> float:
    """Of several saturation ratios (model / simulated saturation load), the one furthest from 1 in the log
    sense (``1/2`` and ``2`` are equally far); values that are not finite and positive are skipped; NaN when
    nothing is left.  The ``sat_ratio`` of a claims row that stands for several curves."""
    v = np.asarray([x for x in np.asarray(list(ratios), dtype=float).reshape(-1) if math.isfinite(x) and x > 0],
                   dtype=float)
    return float(v[np.argmax(np.abs(np.log(v)))]) if v.size else math.nan


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
#: The exact columns of a chapter's claims table, in order (checked by :mod:`models.findings.verdicts`).
#: One row per claim (a sentence of the paper), simulator set-up and case (a network size, a message
#: length, ...); :class:`Claim` and :meth:`Claim.row` document each column.
CLAIM_COLUMNS = ("chapter", "claim_id", "section", "claim", "quantifier", "quantifier_quote", "kind", "setup",
                 "stands_for", "case", "reading", "paper_config", "decides", "shown_why", "worst_err", "uncertain",
                 "sat_ratio",
                 "threshold", "threshold_quote", "yardstick", "holds", "criterion", "cause", "note")
#: What a claim is about: the model's latency against the simulation (``worst_err``), its saturation load
#: (``sat_ratio``), or anything else the chapter decides by code (``holds``, by a declared criterion).
CLAIM_KINDS = ("error", "saturation", "fact")
#: Where a gap between a claim and what we measure comes from ("unexplained": we looked and could not tell).
CAUSES = ("model", "paper text", "reading", "simulator set-up", "unexplained", "-")
#: ``stands_for`` of a claims row: a set-up's (:data:`STANDS_FOR`, ``""`` written ``"neither"``), or ``"-"``
#: for a row that needs no simulation.
ROW_STANDS_FOR = ("paper", "model", "neither", "-")
#: What a sentence claims of its cases, from its own words: every one ("in all cases", or a general statement
#: with no quantifying word), most ("tends to"), at least one ("can"), or the one thing it names (a single
#: fact, a theorem at the paper's size).  The verdict's combinator follows it (:mod:`models.findings.verdicts`).
QUANTIFIERS = ("all", "most", "some", "one")


@dataclasses.dataclass(frozen=True)
class Claim:
    """One claim: one sentence of a paper, quoted whole, and how the book judges it.

    claim_id : str
        A short kebab-case name, unique within the chapter.
    section : str
        Where the sentence is in the paper (``"Sec. 5"``, ``"Abstract"``, ``"Fig. 2 caption"``).
    quote : str
        The sentence, whole, with the words that qualify it ("The mathematical
        results indicate that ..."); ``[...]`` only for a formula or a list the
        sentence spells out.
    kind : {"error", "saturation", "fact"}
        ``"error"``: judged on ``worst_err``; ``"saturation"``: on ``sat_ratio``;
        ``"fact"``: on ``holds``, computed by the chapter by a declared criterion
        (:data:`models.core.criteria.CRITERIA`).
    threshold : float
        The tolerance the **paper** states, a fraction (``0.05`` for "less than
        5%"), else NaN.  Never a number of the book's.  The paper's number for
        a phrase applies to the same phrase elsewhere in the paper ("very
        accurate" quantified once is quantified everywhere): ``threshold_quote``
        then quotes the sentence that states it.
    threshold_quote : str
        The paper's words that state ``threshold`` (required with it; a test
        checks the number is in them).
    yardstick : float
        A tolerance of the book's own, a fraction, shown as the book's ("the
        book's yardstick: 10%") where the paper names none; it never decides
        and never sets a cause.
    quantifier : {"all", "most", "some", "one"}
        What the sentence claims of its cases (:data:`QUANTIFIERS`); required.
    quantifier_quote : str
        The sentence's own words that carry it ("in all cases", "can", "tends
        to"), verbatim in ``quote``; ``""`` only for ``"all"`` (a general
        statement without a quantifying word) and ``"one"``.
    """

    claim_id: str
    section: str
    quote: str
    kind: str
    threshold: float = math.nan
    threshold_quote: str = ""
    yardstick: float = math.nan
    quantifier: str | None = None
    quantifier_quote: str = ""

    def __post_init__(self):
        for name in ("claim_id", "section", "quote"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ParameterError(f"claim {self.claim_id!r}: `{name}` must be a non-empty string; got {value!r}")
        require_choice("kind", self.kind, CLAIM_KINDS)
        if self.quantifier not in QUANTIFIERS:
            raise ParameterError(f"claim {self.claim_id!r}: `quantifier` must be one of {', '.join(QUANTIFIERS)} "
                                 f"(what the sentence claims of its cases, from its own words); got {self.quantifier!r}")
        if not isinstance(self.quantifier_quote, str):
            raise ParameterError(f"claim {self.claim_id!r}: `quantifier_quote` must be a string")
        if self.quantifier_quote:
            if self.quantifier_quote not in self.quote:
                raise ParameterError(f"claim {self.claim_id!r}: `quantifier_quote` {self.quantifier_quote!r} is not "
                                     "in the quotation (the sentence's own words, verbatim)")
        elif self.quantifier not in ("all", "one"):
            raise ParameterError(f"claim {self.claim_id!r}: the quantifier {self.quantifier!r} needs the sentence's "
                                 "words that carry it (`quantifier_quote`)")
        t = float(self.threshold)
        if not math.isnan(t):
            require("threshold", t, 0, unit="fraction (the paper's tolerance)")
            if not self.threshold_quote.strip():
                raise ParameterError(f"claim {self.claim_id!r}: a `threshold` needs the paper's words that state it "
                                     "(`threshold_quote`)")
        elif self.threshold_quote:
            raise ParameterError(f"claim {self.claim_id!r}: `threshold_quote` without a `threshold`")
        y = float(self.yardstick)
        if not math.isnan(y):
            require("yardstick", y, 0, unit="fraction (the book's own tolerance)")
            if not math.isnan(t):
                raise ParameterError(f"claim {self.claim_id!r}: a claim with the paper's `threshold` needs no "
                                     "`yardstick` of the book's")

    def row(self, chapter: str, setup: str = "-", *, case: str = "", paper_config: bool = True,
            worst_err: float = math.nan, sat_ratio: float = math.nan, holds: bool | None = None, cause: str = "-",
            note: str = "", stands_for: str = "", decides: bool = True, shown_why: str = "", uncertain: str = "",
            criterion: str = "", reading: str = "") -> dict:
        """One row of the claims table: this claim on ``setup`` (``"-"``: no simulation) and ``case``.

        ``paper_config``: whether ``case`` is the paper's own configuration
        (network size, message length, ...); rows on other cases are a caveat,
        never the verdict.  ``stands_for`` is filled in by :func:`save_claims`
        from the chapter's set-ups (leave it empty).

        ``decides=False`` shows a row without letting it decide, with
        ``shown_why`` saying why (a reading the book chose so that the claim
        could hold is not independent evidence); wherever a row takes a
        reading of the book's in place of the paper's text, the paper's text
        as printed is a deciding row beside it.  ``uncertain`` (from
        :class:`Accuracy`): the row's error may or may not be unbounded (the
        model's saturation load lies inside the simulated search's bracket);
        the row then decides nothing.  ``criterion``: for a fact with a
        ``holds`` value, the declared criterion that computed it
        (:data:`models.core.criteria.CRITERIA`).  ``cause``: why the claim
        fails (or cannot be judged) on this row; a book yardstick never sets one.

        ``reading``: where the paper's text admits several readings (an
        equation as printed and as its own text asks for it, a definition as
        printed and completed), the reading this row is under (``"as
        printed"``, ...); ``""`` for a row the readings share.  The
        quantifier applies within a reading (its cases are network sizes,
        message lengths, set-ups), and readings that disagree make the verdict
        "holds with a caveat" naming them (:func:`models.findings.verdicts.combine_readings`).
        """
        require_choice("cause", cause, CAUSES)
        if not isinstance(decides, (bool, np.bool_)):
            raise ParameterError(f"claim {self.claim_id!r}: `decides` must be True or False; got {decides!r}")
        if not decides and not (isinstance(shown_why, str) and shown_why.strip()):
            raise ParameterError(f"claim {self.claim_id!r}, set-up {setup!r}: a row shown but not deciding says "
                                 "why (`shown_why`)")
        if decides and shown_why:
            raise ParameterError(f"claim {self.claim_id!r}, set-up {setup!r}: `shown_why` only with decides=False")
        if self.kind == "fact" and holds is not None:
            _criteria.criterion(criterion)
        elif criterion:
            raise ParameterError(f"claim {self.claim_id!r}: a `criterion` only for a fact with a `holds` value")
        if not isinstance(reading, str):
            raise ParameterError(f"claim {self.claim_id!r}: `reading` must be a string; got {reading!r}")
        if uncertain and self.kind != "error":
            raise ParameterError(f"claim {self.claim_id!r}: `uncertain` only for an error row")
        return {"chapter": chapter, "claim_id": self.claim_id, "section": self.section, "claim": self.quote,
                "quantifier": self.quantifier, "quantifier_quote": self.quantifier_quote,
                "kind": self.kind, "setup": setup, "stands_for": stands_for, "case": case, "reading": reading,
                "paper_config": bool(paper_config), "decides": bool(decides), "shown_why": shown_why,
                "worst_err": float(worst_err), "uncertain": uncertain, "sat_ratio": float(sat_ratio),
                "threshold": float(self.threshold), "threshold_quote": self.threshold_quote,
                "yardstick": float(self.yardstick), "holds": holds, "criterion": criterion, "cause": cause,
                "note": note}


@dataclasses.dataclass(frozen=True)
class Considered:
    """A checkable sentence of a paper the book read and does not judge, with the reason (a restatement of a
    judged claim, a statement about a paper the book does not have, ...).  The findings chapter lists them; a
    test checks each quotation is verbatim in the paper."""

    section: str
    quote: str
    reason: str

    def __post_init__(self):
        for name in ("section", "quote", "reason"):
            v = getattr(self, name)
            if not isinstance(v, str) or not v.strip():
                raise ParameterError(f"considered sentence: `{name}` must be a non-empty string; got {v!r}")


def as_number(x) -> float:
    """``float(x)``, or NaN for what is not a number (an empty cell, a word)."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return math.nan
    return v


def row_outcome(kind: str, worst_err=math.nan, sat_ratio=math.nan, threshold=math.nan, holds=None,
                stands_for: str = "paper", uncertain: str = "") -> str:
    """``"pass"``, ``"fail"``, ``"unknown"`` or ``"uncertain"`` for one claims row: the row rule of the findings
    (:mod:`models.findings.verdicts`), written once here so that a chapter that words a row's outcome uses it too.

    ``threshold`` is the paper's own tolerance (NaN: the paper names none);
    ``stands_for`` what the row's set-up stands for (an unbounded error fails
    a claim without a number only on a set-up the paper or its model
    describes); ``uncertain`` non-empty: the row's error may or may not be
    unbounded (:class:`Accuracy`), so unless it is unbounded anyway it is
    ``"uncertain"`` and decides nothing.
    """
    if kind not in CLAIM_KINDS:
        raise ParameterError(f"`kind` must be one of {', '.join(CLAIM_KINDS)}; got {kind!r}")
    if kind == "fact":
        return "unknown" if holds is None else ("pass" if bool(holds) else "fail")
    value = as_number(worst_err) if kind == "error" else abs(as_number(sat_ratio) - 1.0)
    t = as_number(threshold)
    if kind == "error" and isinstance(uncertain, str) and uncertain.strip() and not math.isinf(value):
        return "uncertain"
    if math.isnan(value):
        return "unknown"
    if math.isnan(t):
        unbounded = kind == "error" and math.isinf(value) and stands_for in ("paper", "model")
        return "fail" if unbounded else "unknown"
    return "pass" if value <= t else "fail"


def claims_frame(rows: Iterable[Mapping]) -> pd.DataFrame:
    """Rows of :meth:`Claim.row` as a claims table (the columns of :data:`CLAIM_COLUMNS`, in order)."""
    return pd.DataFrame(list(rows), columns=list(CLAIM_COLUMNS))


def claims_file(chapter: str, what: str = "claims") -> str:
    """The file name ``tab-<chapter>-<what>.csv`` (``what``: ``claims``, ``atlas-claims`` -- the rows the
    chapter's accuracy atlas judges, :mod:`models.core.atlas_claims` -- or ``reproductions``)."""
    if not isinstance(chapter, str) or not chapter.isidentifier() or chapter != chapter.lower():
        raise ParameterError(f"`chapter` must be a chapter slug (lower case, e.g. 'torus_nbc'); got {chapter!r}")
    require_choice("what", what, ("claims", "atlas-claims", "reproductions"))
    return f"tab-{chapter}-{what}.csv"


def holds_value(value, where: str = "`holds`"):
    """A claims row's ``holds`` as ``True``, ``False`` or ``None`` (empty: not decided by a fact), from a value
    or a CSV cell: the one vocabulary of the column (``True``/``False``/empty, any case), which
    :func:`save_claims` writes and :mod:`models.findings.verdicts` reads; anything else is a
    :class:`ParameterError` naming ``where``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("", "nan", "none"):
        return None
    if text not in ("true", "false"):
        raise ParameterError(f"{where} must be True, False or empty; got {value!r}")
    return text == "true"


def _holds_text(value) -> str:
    h = holds_value(value)
    return "" if h is None else str(h)


def row_stands_for(setup: str, setups: Mapping[str, SimulatorSetup] | None) -> str:
    """What the set-up named ``setup`` stands for in a claims row: ``"-"`` for ``"-"`` (no simulation), else
    the chapter's declaration (``"paper"``, ``"model"`` or ``"neither"``).  A name not in ``setups`` is a
    :class:`ParameterError`: every set-up is declared once, next to its definition."""
    if setup == "-":
        return "-"
    if setups is None or setup not in setups:
        raise ParameterError(f"claims row on set-up {setup!r}: not one of the chapter's set-ups "
                             f"{sorted(setups or {})} (a network size or message length is a `case`, not a set-up)")
    return setups[setup].stands_for or "neither"


def _locked_merge(directory: Path, name: str, frame: pd.DataFrame, columns: Sequence[str], key: str,
                  owns: Iterable[str] | None, order: Sequence[str] | None) -> pd.DataFrame:
    """Replace the rows of ``owns`` (ids in column ``key``) in ``directory/name`` by ``frame``, under a lock."""
    import fcntl  # POSIX file locks: only where a table is written

    owned = set(frame[key]) if owns is None else set(owns)
    stray = sorted(set(frame[key]) - owned)
    if stray:
        raise ParameterError(f"{key}s {stray} are not among those this notebook owns")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        old = pd.DataFrame(columns=list(columns))
        if owns is not None and path.exists():
            old = pd.read_csv(path, keep_default_na=False, na_values=[""])
            if list(old.columns) != list(columns):  # an older format: rewritten whole by the notebooks
                old = pd.DataFrame(columns=list(columns))
            old = old[~old[key].isin(owned)]
        parts = [f for f in (old, frame) if len(f)]
        merged = pd.concat(parts, ignore_index=True) if parts else frame.copy()
        if order is not None:
            rank = {cid: i for i, cid in enumerate(order)}
            merged = merged.assign(_rank=[rank.get(c, len(rank)) for c in merged[key]])
            merged = merged.sort_values("_rank", kind="mergesort").drop(columns="_rank")
        merged = merged.reset_index(drop=True)[list(columns)]
        if "holds" in merged:
            merged["holds"] = merged["holds"].map(_holds_text)
        atomic_write_text(path, merged.to_csv(index=False))
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    return merged


def save_claims(frame: pd.DataFrame, chapter: str, directory: str | os.PathLike = "tables", *,
                setups: Mapping[str, SimulatorSetup] | None = None, owns: Iterable[str] | None = None,
                order: Sequence[str] | None = None, what: str = "claims") -> pd.DataFrame:
    """Write ``frame``'s claims into ``<directory>/tab-<chapter>-<what>.csv``; return the whole table.

    ``what``: ``"claims"`` (the chapter's claims table) or ``"atlas-claims"`` (the rows its atlas page judges,
    read with it by the findings chapter).

    ``frame`` has exactly :data:`CLAIM_COLUMNS` (rows of :meth:`Claim.row`),
    its ``chapter`` column is ``chapter``, one row per claim, set-up and case.
    ``stands_for`` is filled in from ``setups`` (the chapter's ``SETUPS``; a
    row on a set-up not declared there is refused).  A chapter whose claims
    come from several notebooks (which the pipeline may run in parallel)
    passes ``owns``, the claim ids this notebook computes: under an exclusive
    lock on ``directory`` those rows are replaced by ``frame`` (so a re-run
    never leaves stale rows), the other notebooks' rows are kept, and the
    file is rewritten atomically, sorted by ``order`` (claim ids) when given.
    Without ``owns`` the file holds ``frame`` alone.
    """
    name = claims_file(chapter, what)
    if what == "reproductions":
        raise ParameterError("`what`: a reproductions table is written by models.core.reproductions")
    if not isinstance(frame, pd.DataFrame) or tuple(frame.columns) != CLAIM_COLUMNS:
        cols = list(frame.columns) if isinstance(frame, pd.DataFrame) else frame
        raise ParameterError(f"a claims table must have exactly the columns {list(CLAIM_COLUMNS)}; got {cols!r}")
    wrong = sorted(set(frame["chapter"].astype(str)) - {chapter})
    if wrong:
        raise ParameterError(f"claims of chapter {chapter!r} name other chapters: {wrong}")
    frame = frame.copy()
    frame["case"] = frame["case"].fillna("").astype(str)
    dup = frame.duplicated(["claim_id", "setup", "case"])
    if dup.any():
        raise ParameterError(f"repeated (claim, set-up, case) rows: "
                             f"{sorted(map(tuple, frame.loc[dup, ['claim_id', 'setup', 'case']].values))}")
    frame["stands_for"] = [row_stands_for(s, setups) for s in frame["setup"]]
    for cid, g in frame.groupby("claim_id", sort=False):
        for col in ("section", "claim", "kind", "threshold_quote", "quantifier", "quantifier_quote"):
            if g[col].astype(str).nunique() > 1:
                raise ParameterError(f"claim {cid!r} has rows with different `{col}`")
    return _locked_merge(Path(directory), name, frame, CLAIM_COLUMNS, "claim_id", owns, order)

