"""The verdict rule of models.findings.verdicts on small synthetic claims tables (issue #25's checks)."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.claims import row_outcome
from hypothesis import given, settings
from hypothesis import strategies as st

from models.core import reproductions as R
from models.findings import verdicts as V

QUOTE = "the model is accurate to within 5% (Sec. 4)"


def row(claim_id="err-5", kind="error", setup="paper", worst_err=math.nan, sat_ratio=math.nan, threshold=0.05,
        holds=None, cause="model", chapter="torus_nbc", claim=QUOTE, note="Fig. 1 errors.", stands_for=None, case="",
        paper_config=True, section="Sec. 4", threshold_quote=None, yardstick=math.nan, quantifier="all",
        quantifier_quote="", decides=True, shown_why="", uncertain="", criterion=None, reading=""):
    if stands_for is None:
        stands_for = "-" if setup == "-" else ("neither" if setup in ("ours", "x") else
                                               "model" if setup == "model" else "paper")
    if threshold_quote is None:
        threshold_quote = "within 5%" if threshold == 0.05 else "" if math.isnan(threshold) else \
            f"within {threshold * 100:g}%"
    if criterion is None:
        criterion = "exact" if kind == "fact" and holds is not None else ""
    return dict(chapter=chapter, claim_id=claim_id, section=section, claim=claim, quantifier=quantifier,
                quantifier_quote=quantifier_quote, kind=kind, setup=setup, stands_for=stands_for, case=case,
                reading=reading, paper_config=paper_config, decides=decides, shown_why=shown_why, worst_err=worst_err,
                uncertain=uncertain, sat_ratio=sat_ratio, threshold=threshold, threshold_quote=threshold_quote,
                yardstick=yardstick, holds=holds, criterion=criterion, cause=cause, note=note)


def write(book, chapter, rows):
    path = V.claims_path(book, chapter)
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=list(V.CLAIM_COLUMNS)).to_csv(path, index=False)
    return path


def one_verdict(rows):
    table = V.verdict_table(pd.DataFrame(rows, columns=list(V.CLAIM_COLUMNS)))
    assert len(table) == 1
    return table.iloc[0]


# ----------------------------------------------------------------------------- the rule, row by row
@pytest.mark.parametrize("kind, kw, expected", [
    ("error", dict(worst_err=0.04, threshold=0.05), "pass"),
    ("error", dict(worst_err=0.05, threshold=0.05), "pass"),
    ("error", dict(worst_err=0.06, threshold=0.05), "fail"),
    ("error", dict(worst_err=math.inf, threshold=0.05), "fail"),
    ("error", dict(worst_err=math.nan, threshold=0.05), "unknown"),
    ("error", dict(worst_err=0.01, threshold=math.nan), "unknown"),
    ("error", dict(worst_err=5.0, threshold=math.nan), "unknown"),           # no number: a finite error never fails
    ("error", dict(worst_err=math.inf, threshold=math.nan), "fail"),          # ... an unbounded one does
    ("error", dict(worst_err=math.inf, threshold=math.nan, stands_for="neither"), "unknown"),
    ("saturation", dict(sat_ratio=0.3, threshold=math.nan), "unknown"),
    ("saturation", dict(sat_ratio=0.93, threshold=0.1), "pass"),
    ("saturation", dict(sat_ratio=1.12, threshold=0.1), "fail"),
    ("saturation", dict(sat_ratio=math.nan, threshold=0.1), "unknown"),
    ("fact", dict(holds=True), "pass"),
    ("fact", dict(holds=False), "fail"),
    ("fact", dict(holds=None), "unknown"),
])
def test_row_outcome(kind, kw, expected):
    assert row_outcome(kind, **kw) == expected


def test_a_changed_error_changes_the_verdict():
    holds = one_verdict([row(worst_err=0.03)])
    assert holds["verdict"] == "holds" and holds["rests_on"] == ("paper",)
    fails = one_verdict([row(worst_err=0.30, cause="model")])
    assert fails["verdict"] == "does not hold" and fails["rests_on"] == ("paper",)
    assert fails["cause"] == "model"


def test_a_changed_saturation_ratio_changes_the_verdict():
    assert one_verdict([row(kind="saturation", sat_ratio=1.04, threshold=0.05)])["verdict"] == "holds"
    assert one_verdict([row(kind="saturation", sat_ratio=1.42, threshold=0.05)])["verdict"] == "does not hold"


def test_setup_disagreement_follows_the_quantifier():
    rows = [row(setup="paper", worst_err=0.42, cause="simulator set-up"), row(setup="model", worst_err=0.03)]
    # "all" (a general statement, or "in all cases"): one deciding failure and it does not hold
    v = one_verdict(rows)
    assert v["verdict"] == "does not hold" and v["rests_on"] == ("paper",) and "holds on model" in v["caveat"]
    assert v["cause"] == "simulator set-up"
    # "some" ("can"): one deciding pass and it holds, with a caveat naming where it fails
    v = one_verdict([dict(r, quantifier="some") for r in rows])
    assert v["verdict"] == "holds with a caveat" and v["rests_on"] == ("model",) and v["fails_on"] == ("paper",)
    assert "does not hold on paper" in v["caveat"]
    # "most": one of two is not most
    assert one_verdict([dict(r, quantifier="most") for r in rows])["verdict"] == "does not hold"
    # both fail: does not hold, resting on both
    v = one_verdict([row(setup="paper", worst_err=0.42), row(setup="model", worst_err=0.2)])
    assert v["verdict"] == "does not hold" and v["rests_on"] == ("paper", "model")
    # both pass: holds
    assert one_verdict([row(setup="paper", worst_err=0.01), row(setup="model", worst_err=0.02)])["verdict"] == "holds"


def test_unknown_on_one_setup_is_a_caveat_not_a_pass():
    v = one_verdict([row(setup="paper", worst_err=math.nan), row(setup="model", worst_err=0.02)])
    assert v["verdict"] == "holds with a caveat" and "not judged on paper" in v["caveat"]
    v = one_verdict([row(setup="paper", worst_err=math.nan), row(setup="model", worst_err=0.2)])
    assert v["verdict"] == "does not hold"


def test_no_tolerance_or_no_number_cannot_be_checked_but_keeps_the_numbers():
    v = one_verdict([row(worst_err=0.12, threshold=math.nan)])
    assert v["verdict"] == "cannot be checked" and v["rests_on"] == ()
    shown = V.format_verdicts(V.verdict_table(pd.DataFrame([row(worst_err=0.12, threshold=math.nan)])))
    assert shown.loc[0, "worst |error| at 25/50/75% sat."] == "12.0%"
    assert "the paper names no number" in shown.loc[0, "what we measured"]


def test_facts():
    assert one_verdict([row(kind="fact", setup="-", threshold=math.nan, holds=True)])["verdict"] == "holds"
    assert one_verdict([row(kind="fact", setup="-", threshold=math.nan, holds=False, cause="paper text")])[
        "verdict"] == "does not hold"
    assert one_verdict([row(kind="fact", setup="-", threshold=math.nan)])["verdict"] == "cannot be checked"


# ----------------------------------------------------------------------------- reading and checking
def test_read_claims_in_book_order(tmp_path):
    write(tmp_path, "torus_nbc", [row(worst_err=0.3)])
    write(tmp_path, "min_mva", [row(chapter="min_mva", claim_id="table1", worst_err=0.01, threshold=0.02)])
    claims = V.read_claims(tmp_path, ["min_mva", "torus_nbc"])
    assert list(claims.columns) == list(V.CLAIM_COLUMNS)
    assert list(claims["chapter"]) == ["min_mva", "torus_nbc"]
    table = V.verdict_table(claims)
    assert list(table["verdict"]) == ["holds", "does not hold"]
    assert V.verdict_counts(table) == {"holds": 1, "holds with a caveat": 0, "does not hold": 1,
                                       "cannot be checked": 0}


def test_glue_values_and_counts_by_chapter():
    rows = [row(worst_err=0.3), row(claim_id="b", worst_err=0.01),
            row(chapter="min_mva", claim_id="t1", worst_err=0.01, threshold=0.02),
            row(chapter="min_mva", claim_id="t2", setup="model", worst_err=0.01, threshold=math.nan),
            row(chapter="min_mva", claim_id="t3", worst_err=0.01), row(chapter="min_mva", claim_id="t3", setup="model")]
    table = V.verdict_table(pd.DataFrame(rows))
    vals = V.glue_values(table)
    assert vals == {"findings-n-claims": 5, "findings-n-holds": 2, "findings-n-caveat": 1, "findings-n-fails": 1,
                    "findings-n-unchecked": 1, "findings-n-chapters": 2}
    assert all(type(v) is int for v in vals.values())
    by = V.counts_by_chapter(table, ["min_mva", "torus_dor", "torus_nbc"])
    assert list(by.columns) == ["chapter", *V.VERDICTS, "claims"]
    assert by.to_dict("records") == [
        {"chapter": "min_mva", "holds": 1, "holds with a caveat": 1, "does not hold": 0, "cannot be checked": 1,
         "claims": 3},
        {"chapter": "torus_nbc", "holds": 1, "holds with a caveat": 0, "does not hold": 1, "cannot be checked": 0,
         "claims": 2}]


def test_the_claims_columns_are_cores():
    from models.core.claims import CLAIM_COLUMNS, claims_file

    assert V.CLAIM_COLUMNS is CLAIM_COLUMNS
    assert V.claims_path("book", "torus_nbc").name == claims_file("torus_nbc")


def test_holds_column_round_trips_through_csv(tmp_path):
    write(tmp_path, "torus_dor", [row(chapter="torus_dor", claim_id="a", kind="fact", setup="-", holds=True,
                                      threshold=math.nan),
                                  row(chapter="torus_dor", claim_id="b", kind="fact", setup="-", holds=False,
                                      threshold=math.nan),
                                  row(chapter="torus_dor", claim_id="c", worst_err=0.01)])
    claims = V.read_chapter_claims(tmp_path, "torus_dor")
    assert list(claims["holds"]) == [True, False, None]
    assert list(V.verdict_table(claims)["verdict"]) == ["holds", "does not hold", "holds"]


def test_a_missing_table_names_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="tab-torus_ipp-claims.csv"):
        V.read_claims(tmp_path, ["torus_ipp"])


def test_missing_columns_raise_naming_file_and_columns(tmp_path):
    path = V.claims_path(tmp_path, "torus_nbc")
    path.parent.mkdir(parents=True)
    pd.DataFrame([row()]).drop(columns=["threshold", "cause"]).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"tab-torus_nbc-claims\.csv.*threshold, cause"):
        V.read_chapter_claims(tmp_path, "torus_nbc")


@pytest.mark.parametrize("change, message", [
    (dict(kind="accuracy"), "kind"),
    (dict(cause="luck"), "cause"),
    (dict(chapter="torus_dor"), "expected 'torus_nbc'"),
    (dict(setup=""), "setup"),
    (dict(stands_for="both"), "stands_for"),
    (dict(setup="-", stands_for="paper"), "stands_for"),
    (dict(threshold_quote=""), "threshold_quote"),
    (dict(threshold=math.nan, threshold_quote="within 5%"), "threshold_quote"),
    (dict(section=""), "section"),
    (dict(worst_err="twelve"), "worst_err"),
    (dict(sat_ratio=-1.0), "sat_ratio"),
    (dict(holds="maybe"), "holds"),
])
def test_bad_values_raise(tmp_path, change, message):
    write(tmp_path, "torus_nbc", [row(**change)])
    with pytest.raises(ValueError, match=message):
        V.read_chapter_claims(tmp_path, "torus_nbc")


def test_repeated_claim_setup_and_case_raises(tmp_path):
    write(tmp_path, "torus_nbc", [row(), row()])
    with pytest.raises(ValueError, match="repeated"):
        V.read_chapter_claims(tmp_path, "torus_nbc")
    write(tmp_path, "torus_nbc", [row(case="M = 8"), row(case="M = 32")])  # cases are rows inside the claim
    assert len(V.read_chapter_claims(tmp_path, "torus_nbc")) == 2


def test_formatting_one_style():
    assert V.format_percent(0.12345) == "12.3%"
    assert V.format_percent(math.nan) == "n/a"
    assert V.format_percent(math.inf) == "\u221e"  # the book's one symbol for an unbounded error
    assert V.format_ratio(0.5654) == "0.565"
    table = V.verdict_table(pd.DataFrame([row(setup="paper", worst_err=0.42, sat_ratio=1.4),
                                          row(setup="model", worst_err=0.03, sat_ratio=0.98)]))
    shown = V.format_verdicts(table)
    assert shown.loc[0, "worst |error| at 25/50/75% sat."] == "paper: 42.0%; model: 3.0%"
    assert shown.loc[0, "saturation ratio"] == "paper: 1.400; model: 0.980"
    assert shown.loc[0, "set-ups it rests on"] == "paper (holds on model) [claims every case]"
    assert all(isinstance(x, str) for x in shown.to_numpy().ravel())


def test_notes_name_their_setup_when_they_differ():
    same = one_verdict([row(setup="paper", worst_err=0.01), row(setup="model", worst_err=0.01)])
    assert same["note"] == "Fig. 1 errors."
    differ = one_verdict([row(setup="paper", worst_err=0.01, note="Fig. 1."), row(setup="model", worst_err=0.01,
                                                                                   note="Fig. 2.")])
    assert differ["note"] == "paper: Fig. 1. / model: Fig. 2."


def test_a_setup_neither_paper_nor_model_describes_does_not_count():
    """xfolded_tm's 'ours' (one ejection channel) is shown but no verdict rests on it."""
    rows = [row(chapter="xfolded_tm", setup="ours", worst_err=0.50), row(chapter="xfolded_tm", setup="model", worst_err=0.01)]
    v = one_verdict(rows)
    assert v["verdict"] == "holds" and v["rests_on"] == ("model",)
    rows = [row(chapter="xfolded_tm", setup="ours", worst_err=0.01), row(chapter="xfolded_tm", setup="model", worst_err=0.5)]
    assert one_verdict(rows)["verdict"] == "does not hold"


def test_claim_details_number_the_claims_as_the_table_rows():
    table = pd.DataFrame({"chapter": ["a", "b"], "claim_id": ["c-1", "c-2"], "section": ["Sec. 1", "Sec. 2"],
                          "claim": ['"x < 5%"', "y & z"], "note": ["", "from Fig. 2"]})
    html = V.claim_details(table)
    assert html.startswith('<ol class="claim-details">') and html.count("<li>") == 2
    assert html.index("c-1") < html.index("c-2")
    assert "y &amp; z" in html and "&quot;x &lt; 5%&quot;" in html and "from Fig. 2" in html and "Sec. 2" in html


# ----------------------------------------------------------------------------- issue #25's properties
_setups = st.sampled_from([("paper", "paper"), ("model", "model"), ("ours", "neither")])
_errors = st.floats(0, 50, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_setups, _errors, st.booleans()), min_size=1, max_size=6))
def test_a_claim_without_a_number_never_fails_on_a_finite_error(rows):
    """However large, a finite error cannot make a claim without a number "does not hold"."""
    frame = [row(setup=su, stands_for=sf, worst_err=e, threshold=math.nan, case=f"case {i}", paper_config=pc)
             for i, ((su, sf), e, pc) in enumerate(rows)]
    assert one_verdict(frame)["verdict"] == "cannot be checked"


@pytest.mark.parametrize("setup, stands_for", [("paper", "paper"), ("model", "model")])
def test_an_unbounded_error_on_a_described_setup_fails_without_a_number(setup, stands_for):
    v = one_verdict([row(setup=setup, stands_for=stands_for, worst_err=math.inf, threshold=math.nan)])
    assert v["verdict"] == "does not hold" and v["rests_on"] == (setup,)
    # on a set-up neither describes it is shown, and decides nothing
    v = one_verdict([row(setup="ours", stands_for="neither", worst_err=math.inf, threshold=math.nan)])
    assert v["verdict"] == "cannot be checked"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["paper", "model"]), st.floats(0, 1) | st.just(math.inf),
                          st.booleans()), min_size=1, max_size=4),
       st.lists(st.floats(0, 1) | st.just(math.inf) | st.just(math.nan), min_size=1, max_size=4),
       st.sampled_from([0.05, math.nan]))
def test_a_neither_setup_never_changes_a_verdict(described, neither, threshold):
    base = [row(setup=su, worst_err=e, case=f"c{i}", paper_config=pc, threshold=threshold)
            for i, (su, e, pc) in enumerate(described)]
    extra = [row(setup="ours", stands_for="neither", worst_err=e, case=f"n{i}", threshold=threshold)
             for i, e in enumerate(neither)]
    assert one_verdict(base + extra)["verdict"] == one_verdict(base)["verdict"]


def test_other_sizes_are_a_caveat_never_the_verdict():
    """The paper's own configuration decides (referee #44, #45): a failure at another k is a caveat."""
    rows = [row(kind="fact", setup="-", threshold=math.nan, holds=True, case="k = 8"),
            row(kind="fact", setup="-", threshold=math.nan, holds=False, case="k = 3", paper_config=False)]
    v = one_verdict(rows)
    assert v["verdict"] == "holds with a caveat" and "beyond the paper's configuration" in v["caveat"]
    assert "k = 3" in v["caveat"]
    rows = [row(kind="fact", setup="-", threshold=math.nan, holds=False, case="k = 8"),
            row(kind="fact", setup="-", threshold=math.nan, holds=True, case="k = 4", paper_config=False)]
    assert one_verdict(rows)["verdict"] == "does not hold"


def test_the_books_yardstick_is_shown_as_the_books_and_never_decides():
    v = one_verdict([row(worst_err=0.3, threshold=math.nan, yardstick=0.1)])
    assert v["verdict"] == "cannot be checked"
    shown = V.format_verdicts(V.verdict_table(pd.DataFrame([row(worst_err=0.3, threshold=math.nan,
                                                                yardstick=0.1)])))
    text = shown.loc[0, "what we measured"]
    assert "the book's own yardstick, not deciding: 10.0%" in text and "paper's tolerance" not in text
    shown = V.format_verdicts(V.verdict_table(pd.DataFrame([row(worst_err=0.03)])))
    assert "the paper's tolerance: 5.0% (\u201cwithin 5%\u201d)" in shown.loc[0, "what we measured"]


@pytest.mark.parametrize("threshold, quote, ok", [
    (0.05, "less than 5% error", True), (0.05, "within 5 %", True), (0.1, "10 percent", True),
    (0.05, "less than 10%", False), (0.05, "accurate", False), (0.25, "a ratio of 0.25", True)])
def test_threshold_in_quote(threshold, quote, ok):
    assert V.threshold_in_quote(threshold, quote) is ok


# ----------------------------------------------------------------------------- the reproductions table
# (the table rule itself: tests/core/test_reproductions.py)
def test_format_reproductions_shows_blocks_size_and_the_assumption():
    sim = R.reproduction_row("x", "t", "T", "Sec. 1", "sim", "simulation", [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0],
                             [0.1] * 4, blocks=[1, 1, 2, 2], bands_at=lambda n: [0.1 * math.sqrt(1e4 / n)] * 4)
    ana = R.reproduction_row("x", "a", "T", "Sec. 1", "ana", "analytic", [1.0], [1.002], [0.0015])
    shown = V.format_reproductions(pd.DataFrame([sim, ana], columns=list(R.REPRO_COLUMNS)))
    assert list(shown["misses"]) == ["0/2 blocks (may miss 1)", "1/1 entries (may miss 0)"]
    assert shown.loc[1, "largest difference"].endswith("; at most 1.33 bands") and shown.loc[1, "assumption"] == "-"
    assert shown.loc[0, "assumption"] == "does not flip between 1e+03 and 1e+08 cycles"


def test_before_after_follows_each_referee_row():
    table = V.verdict_table(pd.DataFrame([row(claim_id="a", worst_err=0.01), row(claim_id="b", worst_err=0.3)],
                                         columns=list(V.CLAIM_COLUMNS)))
    repro = pd.DataFrame([R.reproduction_row("torus_nbc", "t1", "Table 1", "Sec. 3", col, "analytic", [1.0], [1.0],
                                             [0.0005]) for col in ("R", "F")], columns=list(R.REPRO_COLUMNS))
    record = pd.DataFrame({"number": ["1", "2", "3", "4"], "chapter": ["torus_nbc"] * 4,
                           "claim_before": ["x", "y", "z", "w"], "verdict_before": ["holds"] * 4,
                           "judgement": ["F", "W", "Q", "F"], "referee_suggests": ["", "holds", "", ""],
                           "now": ["claims:a", "claims:a|b", "reproductions:t1", "chapter:tab-x"]})
    out = V.before_after(table, repro, record)
    assert list(out["verdict now"]) == ["holds", "a: holds; b: does not hold", "reproduced",
                                        "not a claim: in the chapter"]
    assert list(out["referee"]) == ["fair", "wrong", "questionable", "fair"]
    assert list(out["referee suggests"]) == ["", "holds", "", ""]
    assert out.loc[0, "claim then"] == "torus_nbc: x"
    assert V.chapter_summary(table, "torus_nbc", repro) == \
        "2 claims: 1 holds, 1 does not hold; 2 of 2 columns of the paper's tables reproduced"


def test_verdict_rows_show_each_claim_whole():
    """A cut claim could drop the number or the quantifier that decides it ("with less than ..."): the verdict
    tables show the paper's whole sentence."""
    long = ("The figure reveals that the model predicts the mean message latency with a good degree of accuracy "
            "when the network operates in the steady-state regions, with less than 5% error in all cases.")
    table = V.verdict_table(pd.DataFrame([row(claim=long), row(claim_id="sat", kind="saturation", chapter="min_mva",
                                                               claim="Saturation is close.", sat_ratio=1.02)]))
    shown = V.verdict_rows(table)
    assert list(shown.columns) == ["#", "chapter", "claim", "verdict", "cause", "set-ups it rests on",
                                   "what we measured"]
    assert list(shown["#"]) == [1, 2] and list(shown["claim"]) == [long, "Saturation is close."]
    mine = V.chapter_verdicts(table, "min_mva")   # a chapter's rows keep the findings table's numbers
    assert list(mine["#"]) == [2] and list(mine["claim"]) == ["Saturation is close."]
    assert list(mine["section"]) == ["Sec. 4"]


def test_every_verdict_word_is_explained_where_it_is_shown():
    legend = V.verdict_legend()
    for v in V.VERDICTS:
        assert f"**{v}**: " in legend and V.VERDICT_MEANING[v]
    # "cannot be checked" says why on its own row: no number in the paper, or evidence outside the book
    no_number = V.verdict_table(pd.DataFrame([row(threshold=math.nan, worst_err=0.08, sat_ratio=1.0)]))
    assert no_number["verdict"].iloc[0] == "cannot be checked"
    assert V.verdict_rows(no_number)["verdict"].iloc[0] == \
        "cannot be checked: the paper names no number for it, and no error is unbounded"
    fact = V.verdict_table(pd.DataFrame([row(kind="fact", setup="-", holds=None, threshold=math.nan,
                                             cause="reading")]))
    assert V.verdict_rows(fact)["verdict"].iloc[0].startswith("cannot be checked: no criterion can judge it")
    judged = V.verdict_table(pd.DataFrame([row(worst_err=0.02, sat_ratio=1.0)]))
    assert V.verdict_rows(judged)["verdict"].iloc[0] == "holds"


def test_the_main_claim_paragraph_gives_the_verdict_and_one_reason():
    rows = [row(claim_id="acc", case=f"M = {m}", worst_err=e, sat_ratio=q, threshold=0.05)
            for m, e, q in ((8, math.inf, 0.40), (32, 0.20, 0.90), (64, 0.03, 1.0), (100, math.inf, 0.60))]
    rows.append(row(claim_id="acc", setup="ours", case="M = 8", worst_err=0.01, sat_ratio=1.0, cause="-"))
    table = V.verdict_table(pd.DataFrame(rows))
    text = V.main_claim_text(table, "torus_nbc", "acc")
    assert text.startswith(f"The paper's main claim (Sec. 4): \u201c{QUOTE}\u201d **Verdict: does not hold.**")
    # 3 of the 4 deciding rows fail (the "ours" row decides nothing); the typical one of them is the unbounded
    # error with the saturation ratio nearer 1 (0.60), neither the worst (0.40) nor the mildest (20 %)
    assert "It fails on 3 of the 4 rows that decide it. On the set-up \u201cpaper\u201d (M = 100), the model saturates at 0.60 " in text
    assert text.endswith("has no bound (the cause: model).")
    holds = V.verdict_table(pd.DataFrame([row(claim_id="acc", worst_err=0.031, sat_ratio=1.0)]))
    assert V.main_claim_text(holds, "torus_nbc", "acc").endswith(
        "**Verdict: holds.** It passes on its one deciding row; on the set-up \u201cpaper\u201d, its worst error at 25, 50 or 75 % of the "
        "simulated saturation load is 3.1%, within the paper's 5.0%.")
    with pytest.raises(ValueError, match="not in the verdict table"):
        V.main_claim_text(holds, "torus_nbc", "other")


@pytest.mark.parametrize("chapter", __import__("models").CHAPTERS)
def test_every_chapter_names_its_papers_main_claim(chapter):
    import importlib

    module = importlib.import_module(f"models.{chapter}.claims")
    assert V.main_claim_id(chapter) == module.MAIN_CLAIM in module.CLAIMS


# ----------------------------------------------------------------------------- issue #34: the combinator
def _fact(setup, holds, **kw):
    return row(kind="fact", setup=setup, holds=holds, threshold=math.nan, claim="It can hold in all cases.", **kw)


@given(outcomes=st.lists(st.sampled_from([True, False, None]), min_size=1, max_size=5),
       shown=st.lists(st.sampled_from([True, False, None]), min_size=1, max_size=3),
       quantifier=st.sampled_from(["all", "most", "some", "one"]))
@settings(max_examples=150, deadline=None)
def test_a_shown_not_deciding_row_never_changes_a_verdict(outcomes, shown, quantifier):
    words = {"all": "", "one": "", "most": "in all cases", "some": "can"}[quantifier]
    deciding = [_fact(f"paper", h, case=f"c{i}", quantifier=quantifier, quantifier_quote=words)
                for i, h in enumerate(outcomes)]
    extra = [_fact("model", h, case=f"s{i}", quantifier=quantifier, quantifier_quote=words, decides=False,
                   shown_why="a reading chosen so that the claim holds") for i, h in enumerate(shown)]
    alone, both = one_verdict(deciding), one_verdict(deciding + extra)
    assert alone["verdict"] == both["verdict"] and alone["cause"] == both["cause"]
    assert all(f"model (s{i}) is shown, not deciding" in both["note"] for i in range(len(shown)))


@pytest.mark.parametrize("holds, verdicts", [
    # deciding rows -> verdict for all / most / some
    ((True, True, True), ("holds", "holds", "holds")),
    ((True, True, False), ("does not hold", "holds with a caveat", "holds with a caveat")),
    ((True, False, False), ("does not hold", "does not hold", "holds with a caveat")),
    ((False, False, False), ("does not hold", "does not hold", "does not hold")),
    ((True, None, None), ("holds with a caveat", "holds with a caveat", "holds")),
    ((None, None, None), ("cannot be checked",) * 3),
])
def test_the_verdict_follows_the_quantifier(holds, verdicts):
    for quantifier, words, want in zip(("all", "most", "some"), ("in all cases", "in all cases", "can"), verdicts):
        rows = [_fact("paper", h, case=f"c{i}", quantifier=quantifier, quantifier_quote=words)
                for i, h in enumerate(holds)]
        assert one_verdict(rows)["verdict"] == want, (quantifier, holds)


def test_all_fails_on_one_deciding_failure_and_some_holds_on_one_pass():
    many = [_fact("paper", True, case=f"c{i}") for i in range(9)] + [_fact("paper", False, case="c9")]
    assert one_verdict(many)["verdict"] == "does not hold"
    one = [_fact("paper", False, case=f"c{i}", quantifier="some", quantifier_quote="can") for i in range(9)]
    one += [_fact("paper", True, case="c9", quantifier="some", quantifier_quote="can")]
    assert one_verdict(one)["verdict"] == "holds with a caveat"  # it holds; the caveat names the nine
    assert one_verdict(one[-1:])["verdict"] == "holds"


def test_a_row_inside_the_saturation_bracket_is_uncertain_and_decides_nothing():
    unc = "toy: the model saturates at 0.7465-0.7540 of the simulated saturation load (its bracket), against the 75% point"
    assert row_outcome("error", 0.03, threshold=0.05, uncertain=unc) == "uncertain"
    assert row_outcome("error", math.nan, threshold=math.nan, uncertain=unc) == "uncertain"
    assert row_outcome("error", math.inf, threshold=math.nan, uncertain=unc) == "fail"  # unbounded elsewhere
    passing = row(setup="model", worst_err=0.01)
    v = one_verdict([passing, row(setup="paper", worst_err=0.03, uncertain=unc)])
    assert v["verdict"] == "holds with a caveat" and "uncertain (inside the saturation bracket) on paper" in v["caveat"]
    assert one_verdict([row(setup="paper", worst_err=0.9, uncertain=unc)])["verdict"] == "cannot be checked"
    assert "paper [uncertain]" in V.format_verdicts(V.verdict_table(pd.DataFrame(
        [passing, row(setup="paper", worst_err=0.03, uncertain=unc)])))["what we measured"].iloc[0]


def test_does_not_hold_needs_a_cause_and_a_yardstick_never_sets_one():
    with pytest.raises(ValueError, match="does not hold, but none of its failing rows gives a cause"):
        one_verdict([row(worst_err=0.2, cause="-")])
    # an unknown row (no number, finite error over the book's yardstick) gives no cause to a verdict
    v = one_verdict([row(worst_err=0.2, threshold=math.nan, yardstick=0.1, cause="model")])
    assert v["verdict"] == "cannot be checked" and v["cause"] == "-"
    # a passing row's cause is not the verdict's either
    v = one_verdict([row(worst_err=0.01, cause="reading"), row(setup="model", worst_err=0.2, cause="model")])
    assert v["cause"] == "model"


def test_a_fact_names_a_declared_criterion_and_the_criteria_table_lists_it():
    with pytest.raises(ValueError, match="criterion"):
        one_verdict([_fact("paper", True, criterion="")])
    with pytest.raises(ValueError, match="declared criterion"):
        one_verdict([_fact("paper", True, criterion="gut feeling")])
    table = V.verdict_table(pd.DataFrame([_fact("paper", True, criterion="lower-beyond-noise")]))
    crit = V.criteria_table(table)
    assert list(crit["criterion"]) == ["lower-beyond-noise"] and crit["claims"].iloc[0] == "torus_nbc/err-5"


def test_readings_of_the_papers_text_combine_after_the_quantifier():
    """Where the text admits two readings, "all" applies within each; readings that disagree give a caveat
    naming them, never a "does not hold" from one reading alone (the referee's #9, #26, #27)."""
    rows = [_fact("paper", True, case="k = 8, as printed", reading="as printed"),
            _fact("paper", True, case="k = 16, as printed", reading="as printed"),
            _fact("paper", False, case="k = 8, completed", reading="completed", cause="reading"),
            _fact("paper", True, case="k = 16, completed", reading="completed")]
    v = one_verdict(rows)
    assert v["verdict"] == "holds with a caveat" and v["cause"] == "reading"
    assert "by reading: as printed: holds; completed: does not hold" in v["caveat"]
    assert one_verdict([dict(r, holds=False, cause="paper text") for r in rows])["verdict"] == "does not hold"
    assert one_verdict([dict(r, holds=True) for r in rows])["verdict"] == "holds"
    # a row the readings share counts under each; a shown reading decides nothing
    shared = _fact("model", False, case="simulated", cause="model")
    assert one_verdict(rows + [shared])["verdict"] == "does not hold"
    shown = [dict(r, decides=False, shown_why="chosen so that the claim holds") if r["reading"] == "completed"
             else r for r in rows]
    assert one_verdict(shown)["verdict"] == "holds"


def test_the_considered_and_criteria_lists_escape_and_keep_every_item():
    frame = pd.DataFrame([{"chapter": "torus_nbc", "section": "Sect. 3.1", "sentence": "optimal <b>& best</b>.",
                           "why not judged": "[4] is not available"}])
    html = V.considered_details(frame)
    assert html.count("<li>") == 1 and "&lt;b&gt;&amp; best&lt;/b&gt;" in html and "Not judged: [4]" in html
    table = V.verdict_table(pd.DataFrame([_fact("paper", True, criterion="lower-beyond-noise")]))
    crit = V.criteria_details(V.criteria_table(table))
    assert crit.count("<li>") == 1 and "<code>lower-beyond-noise</code>" in crit and "torus_nbc/err-5" in crit


def test_bold_html_escapes_and_keeps_only_bold():
    assert V.bold_html("a < b **c & d**\n\nnext") == "<p>a &lt; b <b>c &amp; d</b></p><p>next</p>"
