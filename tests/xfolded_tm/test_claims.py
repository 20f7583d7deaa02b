"""xfolded_tm: the paper's claims, one per sentence, quoted whole from the paper's text; the paper's own
number only (issue #25)."""

import math
import os
import re
from pathlib import Path

import pytest

from models.core.paths import ROOT
from models.findings.verdicts import threshold_in_quote
from models.xfolded_tm.claims import ACCURATE_5PCT, CLAIMS, CONSIDERED
from models.xfolded_tm.setups import PAPER_K, READING_LABELS, SETUPS

#: An editorial insertion in a quote: ``[... f]`` stands for a formula ``f`` the sentence prints.
FORMULA = re.compile(r"\[\.\.\.[^\]]*\]")


def _norm(text: str) -> str:
    """The OCR text without markup and white space (a word hyphenated across a line joined)."""
    text = re.sub(r"-\s*\n\s*", "", text)
    text = text.replace("$", "").replace("*", "").replace("<b>", "").replace("</b>", "")
    return re.sub(r"\s+", "", text)


def _paper_text():
    for folder in (os.environ.get("MODELS_PAPERS_DIR"), ROOT.parent / "shared" / "papers", "/work/shared/papers"):
        if folder and Path(folder).is_dir():
            hits = sorted(Path(folder).glob("002_*.txt"))
            if hits:
                return _norm(hits[0].read_text())
    return None


def _found(quote: str, paper: str) -> bool:
    """The quote's parts between formulas are in the paper, in order and adjacent but for the formula."""
    at = 0
    for part in FORMULA.split(quote):
        part = _norm(part)
        if not part:
            continue
        at = paper.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


#: The one claim that quotes two sentences: Proposition 1 and the sentence that qualifies it ("It is computed
#: according to a linear model", referee #38).
TWO_SENTENCES = {"prop1"}


def test_every_claim_is_one_sentence_of_the_paper_quoted_whole():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/002_*.txt) is not available")
    for c in CLAIMS.values():
        assert _found(c.quote, paper), c.claim_id
        assert c.quote.endswith((".", "]")), f"{c.claim_id}: a whole sentence ends with its full stop or formula"
        text = FORMULA.sub("", c.quote)
        if c.claim_id not in TWO_SENTENCES:
            assert not re.search(r"[a-z\]]\.\s+[A-Z]", text.rstrip(". ")), f"{c.claim_id} quotes two sentences"
    quotes = [_norm(FORMULA.sub("", c.quote)) for c in CLAIMS.values()]
    assert len(set(quotes)) == len(quotes) and all(a == b or a not in b for a in quotes for b in quotes)


def test_every_considered_sentence_is_verbatim_and_not_a_claim():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/002_*.txt) is not available")
    claimed = [_norm(FORMULA.sub("", c.quote)) for c in CLAIMS.values()]
    assert len(CONSIDERED) >= 8
    for c in CONSIDERED:
        assert _found(c.quote, paper), c.quote
        assert c.quote.endswith((".", "]")) and c.reason.strip()
        q = _norm(FORMULA.sub("", c.quote))
        assert not any(q in a or a in q for a in claimed), f"judged as a claim: {c.quote}"


def test_the_missed_claims_are_claims_quoted_whole():
    """Referee, 'Claims the book missed' (paper 002): the abstract's accuracy, Sec. 4's two accuracy sentences
    and its figure-level delay sentence, Theorem 2 and eq. (6)."""
    assert CLAIMS["abstract-accuracy"].quote.startswith("Finally, the results obtained from simulation experiments")
    assert "even in varied virtual channels." in CLAIMS["abstract-accuracy"].quote
    assert CLAIMS["sec4-accurate"].quote.startswith("The validation results in this section prove that")
    assert CLAIMS["sec4-different-topologies"].quote.endswith("for different topologies.")
    assert CLAIMS["figures-lower-delay"].quote.startswith("Both figures reveal the less than average delay")
    assert "(8)]" in CLAIMS["thm2"].quote and "(6)]" in CLAIMS["eq6-channel-rate"].quote


def test_quantifiers_from_the_sentences_words():
    q = {cid: (c.quantifier, c.quantifier_quote) for cid, c in CLAIMS.items()}
    assert q["outperform-similar-size"] == ("some", "can outperform")           # "can": one case suffices
    assert q["lemma1"] == ("all", "for all")
    assert q["figures-lower-delay"] == ("all", "Both figures")
    for cid in ("within-5pct", "similar-saturation", "lowest-delay", "prop1", "thm1", "low-diameter-short-distance",
                "abstract-accuracy", "sec4-accurate", "sec4-different-topologies", "thm2", "eq6-channel-rate"):
        assert q[cid] == ("all", ""), cid                                       # general statements
    for c in CLAIMS.values():
        assert c.quantifier_quote in c.quote


def test_the_quotes_keep_the_words_that_qualify_them():
    assert CLAIMS["lowest-delay"].quote.startswith("The mathematical results indicate that")          # #36
    assert "It is computed according to a linear model" in CLAIMS["prop1"].quote                    # #38
    assert "low diameter and short average distance" in CLAIMS["low-diameter-short-distance"].quote
    assert "in terms of throughput and delay" in CLAIMS["outperform-similar-size"].quote           # section D
    assert CLAIMS["similar-saturation"].quote.startswith("Figure 4 reveals the similar saturation time")


def test_only_the_papers_numbers_are_thresholds():
    """"less than 5%" is the paper's (Sec. 5), and quantifies "accurate" in Sec. 4 too; no number of the book's
    (the 10% yardstick of "similar" is gone: a declared criterion decides it)."""
    with_number = {cid: c for cid, c in CLAIMS.items() if not math.isnan(c.threshold)}
    assert list(with_number) == ["within-5pct", "sec4-accurate", "sec4-different-topologies"]
    for c in with_number.values():
        assert c.threshold == 0.05 and threshold_in_quote(c.threshold, c.threshold_quote)
    assert CLAIMS["within-5pct"].threshold_quote in CLAIMS["within-5pct"].quote
    assert CLAIMS["sec4-accurate"].threshold_quote == ACCURATE_5PCT and ACCURATE_5PCT in CLAIMS["within-5pct"].quote
    assert math.isnan(CLAIMS["abstract-accuracy"].threshold)       # "a significant degree of accuracy": no number
    for cid, c in CLAIMS.items():
        assert math.isnan(c.yardstick), cid
        if c.kind == "fact":
            assert math.isnan(c.yardstick), f"{cid}: a fact is computed from the paper's words, not a tolerance"


def test_fourteen_sentences_fourteen_claims():
    """The eight claims of the fourth audit (#21-#28) and the six sentences it found missing."""
    assert list(CLAIMS) == ["within-5pct", "similar-saturation", "lowest-delay", "prop1", "thm1", "lemma1",
                            "low-diameter-short-distance", "outperform-similar-size", "abstract-accuracy",
                            "sec4-accurate", "sec4-different-topologies", "figures-lower-delay", "thm2",
                            "eq6-channel-rate"]
    assert PAPER_K == 8 and set(READING_LABELS) == {"printed", "completed"}
    assert {s: v.stands_for for s, v in SETUPS.items()} == {"ours": "", "model": "model", "booksim": "paper"}
