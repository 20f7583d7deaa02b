"""torus_dor: the paper's claims, one per sentence, quoted whole; their rows (tori, readings, networks) on the one
simulator set-up; the verdicts the findings rule gives them on synthetic runs (issue #25)."""

import math
import os
import re
from pathlib import Path

import pytest

from models.core.claims import CLAIM_COLUMNS, save_claims
from models.core.experiment import run_curve
from models.core.paths import ROOT
from models.core.results import SimPoint
from models.findings.verdicts import verdict_table
from models.torus_dor import claims as C
from models.torus_dor import experiments as X
from models.torus_dor.glue import glue_values_comparison
from models.torus_dor.setups import SETUPS, DorParams, torus_curve


def _paper_text():
    """The OCR text of paper 000, normalised (markup and white space), or None where it is not available."""
    for folder in (os.environ.get("MODELS_PAPERS_DIR"), ROOT.parent / "shared" / "papers", "/work/shared/papers"):
        if folder and Path(folder).is_dir():
            hits = sorted(Path(folder).glob("000_*.txt"))
            if hits:
                return _norm(hits[0].read_text())
    return None


def _norm(text: str) -> str:
    text = text.replace("$", "").replace("*", "").replace("\\_", "_")
    text = re.sub(r"-\s*\n\s*", "", text)  # a word hyphenated across a line
    return re.sub(r"\s+", " ", text)


# ---------------------------------------------------------------- the claims themselves
def test_every_claim_is_one_sentence_of_the_paper_quoted_whole():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/000_*.txt) is not available")
    for c in C.CLAIMS.values():
        assert _norm(c.quote) in paper, c.claim_id
        assert c.quote.rstrip().endswith("."), f"{c.claim_id}: a whole sentence ends with its full stop"
        assert c.section.startswith("Sec. "), c.claim_id


def test_the_quotes_keep_the_words_that_qualify_them():
    q = C.CLAIMS["more-accurate-than-2003"].quote
    assert q.startswith("For the sake of brevity, only one scenario has been shown.") and "in all considered cases" in q
    assert "[16]" in q and "[16]" in C.CLAIMS["saturation-prediction-improved"].quote
    assert "especially near the high traffic region" in C.CLAIMS["model2003-drawback-high-traffic"].quote
    assert "when the network operates in the steady-state regions" in C.CLAIMS["fig1-accuracy"].quote


def test_no_claim_carries_a_tolerance_of_the_book():
    """The paper states no number for any of these sentences: no threshold, and no yardstick of the book's."""
    for c in C.CLAIMS.values():
        assert math.isnan(c.threshold) and c.threshold_quote == "" and math.isnan(c.yardstick), c.claim_id
    ids = list(C.CLAIMS)
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)
    # the chapter's checks of its own reading are not claims of the paper (referee #20, #21)
    assert not any(i.startswith("reading-") for i in ids)
    assert "fig1-accuracy-printed" not in ids  # the printed reading is a case of fig1-accuracy (referee #17)


# ---------------------------------------------------------------- rows and verdicts on synthetic runs
FR = (0.25, 0.5, 0.75, 0.9)


def _run(curve, sim_latency, model_latency, other=None, sat_sim=0.01):
    """A CurveRun from fixed numbers at ``FR`` of ``sat_sim``: the default model saturates at 0.8 of it; the
    printed and 2003 latencies are ``other``'s (their saturation loads are the real models')."""
    curve = curve.replace(loads=FR, fractions_of="sim")
    loads = [f * sat_sim for f in FR]
    mod = dict(zip(loads, model_latency))
    oth = {k: dict(zip(loads, v)) for k, v in (other or {}).items()}
    sims = dict(zip(loads, sim_latency))

    def model(c, x):
        return {"latency": mod[x], **{f"latency {k}": v[x] for k, v in oth.items()}}

    def sim(c, xs):
        return [SimPoint(sims[x], 1.0, not math.isfinite(sims[x])) for x in xs]

    return run_curve(curve, model, sim, model_saturation=lambda c: 0.8 * sat_sim, sim_saturation=lambda c, m: sat_sim)


INF = math.inf
SIM = [10, 20, 40, 80]


def _fig2(sat_sim=0.0016):
    # 16x16, L=5, M=32 (Fig. 2): the default reading saturates at 0.8 of the simulated load, the printed
    # reading (0.00106) and the 2003 model (0.00116) at their real loads, below it
    return [_run(torus_curve(DorParams((16, 16), 5, 32, bi)), SIM, [11, 22, 44, 1],
                 {"printed": [11, 22, INF, 1], "2003": [11, 30, INF, 1]}, sat_sim=0.0075 if bi else sat_sim)
            for bi in (False, True)]


def _fig1():
    return [_run(torus_curve(DorParams((16, 16), 3, 32, bi)), SIM, [11, 22, INF, 1],
                 {"printed": [11, INF, INF, 1], "2003": [11, 21, INF, 1]}, sat_sim=0.002 * (4 if bi else 1))
            for bi in (False, True)] + \
        [_run(torus_curve(DorParams((4, 4), 3, 8)), SIM, [10.5, 21, 42, 1], {"printed": [10.5, 21, 42, 1],
                                                                       "2003": [11, 24, 48, 1]}, sat_sim=0.05)]


def test_rows_are_tori_readings_and_networks_on_the_one_setup():
    t = C.claims_table(_fig1(), _fig2())
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert list(dict.fromkeys(t["claim_id"])) == list(C.CLAIMS)
    assert set(t["setup"]) == {"paper"} and (t["chapter"] == "torus_dor").all()
    assert not t.duplicated(["claim_id", "setup", "case"]).any()
    assert t["threshold"].isna().all() and t["yardstick"].isna().all()
    acc = t[t["claim_id"] == "fig1-accuracy"].set_index("case")
    assert list(acc.index) == ["unidirectional, default reading", "unidirectional, as printed",
                               "unidirectional, default reading, other networks (4x4)",
                               "unidirectional, as printed, other networks (4x4)",
                               "bidirectional, default reading", "bidirectional, as printed"]
    assert acc["paper_config"].tolist() == [True, True, False, False, True, True]
    assert acc.loc["unidirectional, default reading", "worst_err"] == INF
    assert acc.loc["unidirectional, default reading, other networks (4x4)", "worst_err"] == pytest.approx(0.05)
    sat = t[t["claim_id"] == "fig2-saturation-closer"].set_index("case")
    assert sat.loc["unidirectional, default reading", "holds"] is True
    assert sat.loc["unidirectional, as printed", "holds"] is False
    assert sat.loc["unidirectional, as printed", "cause"] == "paper text"
    assert "not independent evidence" in sat.loc["unidirectional, default reading", "note"]
    assert sat.loc["unidirectional, default reading", "sat_ratio"] == pytest.approx(0.8)


def test_the_verdicts_under_the_findings_rule():
    t = C.claims_table(_fig1(), _fig2())
    v = verdict_table(t.assign(stands_for="paper")).set_index("claim_id")
    # unbounded on a torus the paper's model describes: does not hold (referee #16, A2)
    assert v.loc["fig1-accuracy", "verdict"] == "does not hold"
    # holds under the default reading, fails as printed: holds with a caveat naming the printed rows (#18)
    assert v.loc["fig2-saturation-closer", "verdict"] == "holds with a caveat"
    assert all("as printed" in f for f in v.loc["fig2-saturation-closer", "fails_on"])
    # "in all considered cases": the Fig. 1 16x16 curves have 2004 unbounded where 2003 is not (unidirectional)
    assert v.loc["more-accurate-than-2003", "verdict"] in ("does not hold", "holds with a caveat")


def test_the_comparison_uses_the_worst_error_on_every_curve():
    comp = X.comparison_table(_fig2() + _fig1())
    assert len(comp) == 5 and comp["paper"].tolist() == [True, True, True, True, False]
    first = comp.iloc[0]
    assert first["worst default"] == pytest.approx(0.1) and first["worst 2003"] == INF
    assert first["better default"] is True and first["better printed"] is True  # 1 unbounded load against 1 ...
    assert first["worst 2003 <50%"] == pytest.approx(0.1) and first["worst 2003"] == INF
    assert X.errors_higher_near_saturation(first["worst 2003 <50%"], first["worst 2003"]) is True
    small = comp.iloc[4]
    assert small["better default"] is True and small["worst 2003"] > small["worst 2003 <50%"]
    assert X.errors_higher_near_saturation(0.2, 0.2) is False and X.errors_higher_near_saturation(math.nan, 1) is None
    g = glue_values_comparison(comparison=comp)
    assert g["torus_dor-cmp-better-default-unidirectional"].endswith("of 3")
    assert (g["torus_dor-cmp-curves-unidirectional"], g["torus_dor-cmp-paper-unidirectional"]) == (3, 2)


def test_the_claims_table_is_saved_on_the_declared_setup(tmp_path):
    t = C.claims_table(_fig1(), _fig2())
    saved = save_claims(t, "torus_dor", tmp_path, setups=SETUPS)
    assert set(saved["stands_for"]) == {"paper"}
    with pytest.raises(ValueError, match="set-up"):
        save_claims(t.assign(setup="unidirectional"), "torus_dor", tmp_path, setups=SETUPS)


def test_the_worst_over_curves_is_cores_whatever_the_order():
    """fig1-accuracy's ``worst_err`` over several curves is ``core.claims.worst_of``: a curve with no counted point
    (its worst is NaN: every simulated point saturated) hides none of the others, first or last (Python's ``max``
    returned NaN when it came first); ``sat_ratio`` is ``core.claims.furthest_from_one`` of the curves' ratios."""
    other = {"printed": [10.5, 21, 42, 1], "2003": [11, 24, 48, 1]}
    empty = _run(torus_curve(DorParams((4, 4), 3, 16)), [INF] * 4, [1, 1, 1, 1], other, sat_sim=0.05)
    fine = _run(torus_curve(DorParams((4, 4), 3, 8)), SIM, [10.5, 21, 42, 1], other, sat_sim=0.05)
    for runs in ([empty, fine], [fine, empty]):
        t = C.claims_table(runs, [])
        row = t[(t["claim_id"] == "fig1-accuracy") & (t["case"].str.contains("default reading"))].iloc[0]
        assert row["worst_err"] == pytest.approx(0.05)
        assert row["sat_ratio"] == pytest.approx(0.8)  # both curves: the model saturates at 0.8 of the simulation
