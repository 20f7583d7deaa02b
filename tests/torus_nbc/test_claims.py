"""torus_nbc: the paper's claims, one per sentence, quoted whole from the paper's text (issue #25)."""

import math
import os
import re
from pathlib import Path

import pytest

from models.core.paths import ROOT
from models.torus_nbc.claims import CLAIMS
from models.torus_nbc.setups import SETUPS


def _norm(text: str) -> str:
    """The OCR text without markup and white space (a word hyphenated across a line joined)."""
    text = re.sub(r"-\s*\n\s*", "", text)
    text = text.replace("$", "").replace("*", "").replace("<b>", "").replace("</b>", "")
    return re.sub(r"\s+", "", text)


def _paper_text():
    for folder in (os.environ.get("MODELS_PAPERS_DIR"), ROOT.parent / "shared" / "papers", "/work/shared/papers"):
        if folder and Path(folder).is_dir():
            hits = sorted(Path(folder).glob("004_*.txt"))
            if hits:
                return _norm(hits[0].read_text())
    return None


def test_every_claim_is_one_sentence_of_the_paper_quoted_whole():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/004_*.txt) is not available")
    for c in CLAIMS.values():
        assert _norm(c.quote) in paper, c.claim_id
        assert c.quote.endswith("."), f"{c.claim_id}: a whole sentence ends with its full stop"
        assert not re.search(r"[a-z\]]\.\s+[A-Z]", c.quote[:-1]), f"{c.claim_id} quotes more than one sentence"
        assert c.section.startswith("Sect. "), c.claim_id
    quotes = [_norm(c.quote) for c in CLAIMS.values()]
    assert len(set(quotes)) == len(quotes) and all(a == b or a not in b for a in quotes for b in quotes)


def test_the_quotes_keep_the_words_that_qualify_them():
    """Referee #50: "Investigations showed that ... [4]" makes the claim [5]'s result, not the paper's."""
    best = CLAIMS["duato-nbc-best"].quote
    assert best.startswith("Investigations showed that") and best.endswith("the other algorithms proposed in [4].")
    assert "minimum virtual channel requirements" in CLAIMS["duato-nbc-methodology"].quote     # section D
    assert "the approximation used to estimate the variance" in CLAIMS["variance-explanation"].quote  # section D
    assert CLAIMS["latency-accuracy"].quote.startswith("The figure indicates that")


def test_no_claim_carries_a_tolerance_of_the_book():
    """The paper states no number for any of its claims: no threshold; no yardstick of the book's either."""
    for c in CLAIMS.values():
        assert math.isnan(c.threshold) and c.threshold_quote == "" and math.isnan(c.yardstick), c.claim_id
    assert list(CLAIMS) == ["latency-accuracy", "saturation-discrepancy", "variance-explanation", "duato-nbc-best",
                            "duato-nbc-methodology"]
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in CLAIMS)


def test_both_setups_decide():
    """The paper's set-up is the network its text describes, the model's the model's assumption (referee A5)."""
    assert {s: v.stands_for for s, v in SETUPS.items()} == {"paper": "paper", "model": "model"}
