"""torus_nbc: the paper's claims, one per sentence, quoted whole from the paper's text (issue #25)."""

import math
import os
import re
from pathlib import Path

import pytest

from models.core.paths import ROOT
from models.torus_nbc.claims import CLAIMS, CONSIDERED
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
    quotes = [_norm(c.quote) for c in CLAIMS.values()] + [_norm(c.quote) for c in CONSIDERED]
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
                            "duato-nbc-methodology", "even-traffic", "good-agreement"]
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in CLAIMS)


def test_both_setups_decide():
    """The paper's set-up is the network its text describes, the model's the model's assumption (referee A5)."""
    assert {s: v.stands_for for s, v in SETUPS.items()} == {"paper": "paper", "model": "model"}


def test_considered_sentences_are_verbatim_and_not_judged():
    """Every sentence read and not judged is one whole sentence of the paper, with a reason, and no claim quotes it
    (referee, "Claims the book missed": 004 Sect. 3.1, the Conclusions)."""
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/004_*.txt) is not available")
    for c in CONSIDERED:
        assert _norm(c.quote) in paper, c.quote[:40]
        assert c.quote.endswith(".") and c.reason.strip() and c.section.startswith("Sect. ")
    assert any("[4]" in c.quote and "[4]" in c.reason for c in CONSIDERED)   # Sect. 3.1: [4] not available
    assert not {_norm(c.quote) for c in CONSIDERED} & {_norm(c.quote) for c in CLAIMS.values()}


def test_quantifiers_from_the_sentences_words():
    """The quantifier follows the sentence's own words (issue #34): "in all regions", "some", the Conclusions'
    "under different working conditions"; one algorithm's attributes are one fact."""
    q = {cid: (c.quantifier, c.quantifier_quote) for cid, c in CLAIMS.items()}
    assert q["latency-accuracy"] == ("all", "in all regions")
    assert q["saturation-discrepancy"] == ("some", "some")
    assert q["duato-nbc-methodology"] == ("one", "")
    assert q["good-agreement"] == ("all", "under different working conditions")
    assert q["even-traffic"][0] == q["variance-explanation"][0] == q["duato-nbc-best"][0] == "all"
    assert CLAIMS["saturation-discrepancy"].kind == "fact"       # decided by criteria, not by a tolerance
    assert CLAIMS["even-traffic"].section == "Sect. 3.2.1" and CLAIMS["good-agreement"].section == "Sect. 5"
