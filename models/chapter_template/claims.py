"""The paper's claims (PLACEHOLDER): one :class:`~models.core.claims.Claim` per sentence, and the claims table.

Replace with the paper's own sentences, quoted whole with their section, the
numbers the paper states (``threshold``) -- never a number of the book's --
and what each sentence claims of its cases (``quantifier``, with the words
that say it).  Checkable sentences read and not judged go into
:data:`CONSIDERED`, each with its reason.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from ..core.claims import Claim, Considered, accuracy_below, claims_frame
from .setups import CHAPTER, DEFAULT_SETUP

__all__ = ["CLAIMS", "CONSIDERED", "claims_table"]

#: The paper's claims, one per sentence (PLACEHOLDER: replace with the paper's own words, section and numbers).
CLAIMS = {c.claim_id: c for c in (
    Claim("placeholder-accuracy", "PLACEHOLDER section", "PLACEHOLDER: the model predicts the simulated latency",
          "error", quantifier="all"),
)}

#: The paper's main claim (the paper's headline accuracy claim).
#: The chapter opens with its verdict (:func:`models.findings.verdicts.main_claim_text`).
MAIN_CLAIM = "placeholder-accuracy"

#: Checkable sentences of the paper the book read and does not judge, each with the reason (PLACEHOLDER).
CONSIDERED: tuple = ()


def claims_table(runs: Sequence) -> pd.DataFrame:
    """The claims the chapter checks, one row per claim, set-up and case (PLACEHOLDER: one claim, no number)."""
    return claims_frame([CLAIMS["placeholder-accuracy"].row(
        CHAPTER, DEFAULT_SETUP, **accuracy_below(runs).fields(), sat_ratio=1.0,
        note="placeholder chapter: replace with the paper's claims")])
