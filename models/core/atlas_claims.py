"""A paper's wide sentences judged on the atlas: one claims row per set-up, over every configuration in scope.

Some sentences of a paper speak beyond its own figures: "a high degree of
accuracy for various network sizes, under different operating conditions"
(torus_dor), "in good agreement ... under different working conditions"
(torus_nbc), "accurate ... for different topologies" (xfolded_tm).  Their
scope covers the configurations of the chapter's accuracy atlas
(:mod:`models.core.atlas`), so the atlas judges them too, under the book's
one rule: a row per set-up that stands for the paper or the model, on every
configuration of the atlas the sentence covers (``where``), marked as in the
sentence's scope (``paper_config=True``: the cases the sentence names, not
caveats), its worst error the worst of the configurations'
(:func:`models.core.claims.worst_of`: unbounded wins).  A sentence about the
paper's own figures is never judged here.

* an ``"error"`` claim: the row's ``worst_err`` (with the paper's threshold,
  if it names one; without one it fails only where unbounded);
* a ``"fact"`` claim whose accuracy part is what the atlas measures: ``holds``
  False where the error is unbounded somewhere in scope, else unknown (the
  atlas does not measure the sentence's other parts), by the criterion
  ``bounded-error``.

The rows go to ``tables/tab-<chapter>-atlas-claims.csv``
(:func:`models.core.claims.save_claims` with ``what="atlas-claims"``), written by
the chapter's atlas page; the findings chapter reads them with the chapter's
own claims table.
"""

from __future__ import annotations

import math
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from .atlas import NOT_SIMULATED, AtlasSpec
from .claims import CLAIM_COLUMNS, Claim, row_outcome, worst_of

__all__ = ["WideClaim", "claim_rows", "atlas_claims_frame", "wide_sentence", "display_claims"]


class WideClaim:
    """A sentence the atlas judges: its claim, the words that give its scope, and the configurations it covers.

    claim : Claim
        The chapter's claim (its ``CLAIMS`` entry).
    scope : str
        The sentence's words that set its scope (``"for various network sizes, under different operating
        conditions"``), quoted in the row's note.
    where : callable, optional
        ``where(frame) -> boolean mask`` of the atlas rows in scope (default: every row).
    covers : str
        The configurations in scope, in words (``"x-Folded TM only"``; default every configuration).
    reading : str
        The reading of the paper's text the atlas's configurations take, when the chapter has several
        (the rows' ``reading``; ``""``: every reading shares them).
    """

    def __init__(self, claim: Claim, scope: str, where: Callable | None = None, covers: str = "",
                 reading: str = ""):
        self.claim, self.scope, self.where, self.covers, self.reading = claim, scope, where, covers, reading


def _ranges(spec: AtlasSpec, part: pd.DataFrame) -> str:
    def fmt(v):
        return f"{v:g}" if isinstance(v, float) else str(v)

    return "; ".join(f"{a.name} {', '.join(fmt(v) for v in dict.fromkeys(part[a.name]))}" for a in spec.axes)


def claim_rows(frame: pd.DataFrame, spec: AtlasSpec, wide: WideClaim, chapter: str) -> list:
    """The rows of one wide sentence: one per set-up of the atlas with a simulated configuration in scope."""
    part = frame if wide.where is None else frame[wide.where(frame)]
    rows = []
    fails_on_model = None
    for setup in spec.setups:
        g = part[(part["setup"] == setup) & (part["band"] != NOT_SIMULATED)]
        if not len(g):
            continue
        w = g["worst |err|"].astype(float).to_numpy()
        worst = worst_of(w)
        unbounded = int(np.isinf(w).sum())
        uncertain = "" if unbounded else "; ".join(sorted({str(u) for u in g["uncertain"] if str(u).strip()}))
        skipped = int(((part["setup"] == setup) & (part["band"] == NOT_SIMULATED)).sum())
        case = f"atlas: {len(g)} configurations" + (f" ({wide.covers})" if wide.covers else "")
        note = (f"the sentence's scope ('{wide.scope}') covers every configuration of the chapter's accuracy atlas"
                + (f" ({wide.covers})" if wide.covers else "") + f": {_ranges(spec, g)}; unbounded on {unbounded} of "
                f"{len(g)}" + (f"; {skipped} the set-up cannot simulate" if skipped else "")
                + f"; tab-{chapter}-atlas")
        claim = wide.claim
        failing = math.isinf(worst) or (claim.kind == "error" and math.isfinite(claim.threshold)
                                         and worst > claim.threshold)
        if setup == spec.setups[0]:
            fails_on_model = failing
        cause = "-" if not failing else ("model" if setup == spec.setups[0] or fails_on_model else "simulator set-up")
        if claim.kind == "error":
            rows.append(claim.row(chapter, setup, case=case, paper_config=True, worst_err=worst, uncertain=uncertain,
                                  cause=cause, note=note, reading=wide.reading))
        else:
            holds = False if unbounded else None
            rows.append(claim.row(chapter, setup, case=case, paper_config=True, worst_err=worst, holds=holds,
                                  reading=wide.reading,
                                  criterion="bounded-error" if holds is not None else "",
                                  cause=cause if holds is False else "-",
                                  note=note + ("; the sentence's other parts are not measured on the atlas"
                                               if holds is None else "")))
    return rows


def atlas_claims_frame(frame: pd.DataFrame, spec: AtlasSpec, wide: Mapping[str, WideClaim], chapter: str
                       ) -> pd.DataFrame:
    """Every wide sentence's rows (:func:`claim_rows`), as a claims table (:data:`CLAIM_COLUMNS`)."""
    rows = [r for w in wide.values() for r in claim_rows(frame, spec, w, chapter)]
    return pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))


def wide_sentence(wide: Mapping[str, WideClaim]) -> str:
    """What the atlas judges of the paper's sentences, in words (for the atlas page)."""
    if not wide:
        return ("None of the paper's sentences speaks beyond its own figures and networks, so the atlas judges "
                "none: the findings chapter judges them at the paper's configurations.")
    quoted = "; ".join(f"{w.claim.section}, \u201c{w.claim.quote}\u201d (its scope: \u2018{w.scope}\u2019"
                       + (f", {w.covers}" if w.covers else "") + ")" for w in wide.values())
    return (f"The atlas also judges the paper's sentence{'s' if len(wide) > 1 else ''} whose scope covers its "
            f"configurations: {quoted}.  One row per set-up, over every configuration in scope, by the book's "
            "rule; the findings chapter reads these rows with the chapter's own.")


def display_claims(judged: pd.DataFrame) -> pd.DataFrame:
    """The judged rows as a page shows them: claim, set-up, case, worst error, and the row's outcome."""
    out = [{"claim": r.claim_id, "setup": r.setup, "case": r.case, "worst |err|": float(r.worst_err),
            "outcome": row_outcome(r.kind, r.worst_err, r.sat_ratio, r.threshold,
                                   None if str(r.holds) in ("", "nan", "None") else str(r.holds) == "True",
                                   r.stands_for or "paper", "" if str(r.uncertain) == "nan" else str(r.uncertain))}
           for r in judged.itertuples(index=False)]
    return pd.DataFrame(out, columns=["claim", "setup", "case", "worst |err|", "outcome"])
