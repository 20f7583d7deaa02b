"""torus_dor: the paper's claims, one per sentence, quoted whole; their rows (tori, readings, networks) on the one
simulator set-up; the verdicts the findings rule gives them on synthetic runs (issue #25)."""

import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from models.core.claims import CLAIM_COLUMNS, save_claims
from models.core.criteria import spread_beyond_noise
from models.core.experiment import run_curve
from models.core.paths import ROOT
from models.core.results import SimPoint
from models.findings.verdicts import verdict_table
from models.torus_dor import claims as C
from models.torus_dor import experiments as X
from models.torus_dor import facts as F
from models.torus_dor import versus2003 as V
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
        assert c.section.startswith("Sec. ") or c.section == "Abstract", c.claim_id
    for c in C.CONSIDERED:
        assert _norm(c.quote) in paper, c.quote[:60]
        assert c.quote.rstrip().endswith(".") and c.reason.strip()


def test_the_quotes_keep_the_words_that_qualify_them():
    q = C.CLAIMS["more-accurate-than-2003"].quote
    assert q.startswith("For the sake of brevity, only one scenario has been shown.") and "in all considered cases" in q
    assert "[16]" in q and "[16]" in C.CLAIMS["saturation-prediction-improved"].quote
    assert "especially near the high traffic region" in C.CLAIMS["model2003-drawback-high-traffic"].quote
    assert "when the network operates in the steady-state regions" in C.CLAIMS["fig1-accuracy"].quote
    a = C.CLAIMS["abstract-accuracy"].quote
    assert a.startswith("The results obtained from simulation experiments confirm") and "compared to a similar " \
        "model proposed very recently [16]" in a and a.endswith("in the k-ary n-cube network.")
    assert "equally utilized" in C.CLAIMS["channel-rate-equal"].quote
    assert "(2d_i - 1)L" in C.CLAIMS["waiting-max"].quote


def test_the_quantifiers_are_the_sentences_own_words():
    want = {"abstract-accuracy": ("all", "for various network sizes, under different operating conditions"),
            "fig1-accuracy": ("all", ""), "fig2-saturation-closer": ("one", ""),
            "more-accurate-than-2003": ("all", "in all considered cases"),
            "saturation-prediction-improved": ("all", ""), "model2003-drawback-high-traffic": ("all", ""),
            "channel-rate-equal": ("all", ""), "waiting-max": ("all", "")}
    assert {k: (c.quantifier, c.quantifier_quote) for k, c in C.CLAIMS.items()} == want


def test_the_considered_sentences_are_the_restatement_and_the_other_papers():
    quotes = [c.quote for c in C.CONSIDERED]
    assert any("reasonably high degree of accuracy" in q for q in quotes)
    assert any("frail accuracy near the saturation point" in q for q in quotes)
    assert any(q.startswith("Verification of this fact is straightforward") for q in quotes)
    assert not set(quotes) & {c.quote for c in C.CLAIMS.values()}


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


def _run(curve, sim_latency, model_latency, other=None, sat_sim=0.01, ci=1.0):
    """A CurveRun from fixed numbers at ``FR`` of ``sat_sim`` (simulated half width ``ci`` cycles): the default
    model saturates at 0.8 of it; the printed and 2003 latencies are ``other``'s (their saturation loads are the
    real models')."""
    curve = curve.replace(loads=FR, fractions_of="sim")
    loads = [f * sat_sim for f in FR]
    mod = dict(zip(loads, model_latency))
    oth = {k: dict(zip(loads, v)) for k, v in (other or {}).items()}
    sims = dict(zip(loads, sim_latency))

    def model(c, x):
        return {"latency": mod[x], **{f"latency {k}": v[x] for k, v in oth.items()}}

    def sim(c, xs):
        return [SimPoint(sims[x], ci, not math.isfinite(sims[x])) for x in xs]

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


def _channels(equal=True):
    return pd.DataFrame([{"curve": "16x16, L=3, M=32", "radices": "16x16", "rate": 0.001, "runs": 4, "channels": 512,
                          "mean load": 0.24, "lambda_c / (h lambda_g / n)": 1.0, "raw cv": 0.02, "max dev": 0.06,
                          "sys cv": 0.0 if equal else 0.05, "sys var": 0.0, "sys var se": 1e-5, "equal": equal}])


def test_rows_are_tori_readings_and_networks_on_the_one_setup():
    t = C.claims_table(_fig1(), _fig2(), channels=_channels())
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert list(dict.fromkeys(t["claim_id"])) == list(C.CLAIMS)
    assert set(t["setup"]) == {"paper", "-"} and (t["chapter"] == "torus_dor").all()
    assert set(t.loc[t["setup"] == "-", "claim_id"]) == {"waiting-max"}
    assert not t.duplicated(["claim_id", "setup", "case"]).any()
    assert t["threshold"].isna().all() and t["yardstick"].isna().all()
    # every fact row with a holds value names a declared criterion
    facts = t[(t["kind"] == "fact") & t["holds"].notna()]
    assert (facts["criterion"] != "").all()
    acc = t[t["claim_id"] == "fig1-accuracy"].set_index("case")
    assert list(acc.index) == ["unidirectional, default reading", "unidirectional, as printed",
                               "unidirectional, default reading, other networks (4x4)",
                               "unidirectional, as printed, other networks (4x4)",
                               "bidirectional, default reading", "bidirectional, as printed"]
    assert acc["paper_config"].tolist() == [True, True, False, False, True, True]
    assert acc.loc["unidirectional, default reading", "worst_err"] == INF
    assert acc.loc["unidirectional, default reading, other networks (4x4)", "worst_err"] == pytest.approx(0.05)
    sat = t[t["claim_id"] == "fig2-saturation-closer"].set_index("case")
    # the default reading was chosen so that this claim could hold: shown, never deciding (referee #13)
    d = sat.loc["unidirectional, default reading"]
    assert d["holds"] is True and not d["decides"] and "not independent evidence" in d["shown_why"]
    p = sat.loc["unidirectional, as printed"]
    assert p["holds"] is False and p["decides"] and p["cause"] == "paper text"
    assert p["criterion"] == "beyond-brackets" and "reconstructed" in p["note"]
    assert d["sat_ratio"] == pytest.approx(0.8)
    for cid in ("more-accurate-than-2003", "saturation-prediction-improved", "model2003-drawback-high-traffic",
                "abstract-accuracy"):
        assert t[t["claim_id"] == cid]["note"].str.contains("reconstructed").all(), cid


def test_the_verdicts_under_the_findings_rule():
    t = C.claims_table(_fig1(), _fig2(), channels=_channels())
    v = verdict_table(t.assign(stands_for=["-" if s == "-" else "paper" for s in t["setup"]])).set_index("claim_id")
    # unbounded on a torus the paper's model describes: does not hold (referee #16, A2)
    assert v.loc["fig1-accuracy", "verdict"] == "does not hold"
    # only the printed rows decide: they fail (referee #13)
    assert v.loc["fig2-saturation-closer", "verdict"] == "does not hold"
    assert v.loc["fig2-saturation-closer", "cause"] == "paper text"
    # the Abstract's scope: every simulated network; unbounded on 16x16 -> does not hold
    assert v.loc["abstract-accuracy", "verdict"] == "does not hold"
    assert v.loc["waiting-max", "verdict"] == "does not hold" and v.loc["waiting-max", "cause"] == "paper text"
    assert v.loc["channel-rate-equal", "verdict"] == "holds"
    assert v.loc["more-accurate-than-2003", "verdict"] in ("does not hold", "holds with a caveat", "cannot be checked")


def test_the_drawback_test_can_fail():
    """model2003-drawback-high-traffic is decided against the 2004 model in the high traffic region (50 and 75% of
    the simulated saturation load), beyond the noise: it fails where the reconstructed 2003 model is the more
    accurate there (the old test, the 2003 model's error growing with load, was passed by the 2004 model too)."""
    c = torus_curve(DorParams((4, 4), 3, 8))  # the real 2003 / printed models saturate at 0.023 / 0.018, above 75%
    # the 2003 model more accurate at 50 and 75% beyond the noise (half widths ~0.1%): the drawback fails
    better03 = _run(c, SIM, [10.5, 24, 52, 1], {"printed": [10.5, 24, 52, 1], "2003": [10.2, 20.4, 41, 1]},
                    sat_sim=0.02, ci=0.01)
    # the 2003 model worse there: the drawback holds
    worse03 = _run(c, SIM, [10.2, 20.4, 41, 1], {"printed": [10.2, 20.4, 41, 1], "2003": [10.5, 24, 52, 1]},
                   sat_sim=0.02, ci=0.01)
    # within the noise (1 cycle on 20 and 40): undecided
    close = _run(c, SIM, [10.2, 20.4, 41, 1], {"printed": [10.2, 20.4, 41, 1], "2003": [10.2, 20.6, 41.5, 1]},
                 sat_sim=0.02, ci=1.0)
    assert V.drawback_high(better03) is False and V.drawback_high(worse03) is True and V.drawback_high(close) is None
    # the old test (error above 50% larger than below) passes on both: it did not discriminate
    for run in (better03, worse03):
        errs = {p.fraction: p.error for p in V.point_errors(run, "2003")}
        assert errs[0.75] > errs[0.25]
    for run, holds, verdict in ((better03, False, "does not hold"), (worse03, True, "holds")):
        t = C.claims_table([run], [], channels=_channels())
        rows = t[t["claim_id"] == "model2003-drawback-high-traffic"]
        assert (rows["holds"] == holds).all() and (rows["criterion"] == "lower-beyond-noise").all()
        v = verdict_table(t.assign(paper_config=True, stands_for=["-" if s == "-" else "paper" for s in t["setup"]]))
        v = v.set_index("claim_id").loc["model2003-drawback-high-traffic"]
        assert v["verdict"] == verdict
        if not holds:
            assert v["cause"] == "reading"  # it rests on the reconstructed [16]


def test_the_comparisons_are_decided_beyond_the_noise():
    c = torus_curve(DorParams((4, 4), 3, 8))
    sharp = _run(c, SIM, [10.5, 21, 42, 1], {"printed": [10.5, 21, 42, 1], "2003": [11, 24, 48, 1]}, sat_sim=0.02,
                 ci=0.01)
    blunt = _run(c, SIM, [10.5, 21, 42, 1], {"printed": [10.5, 21, 42, 1], "2003": [10.6, 21.2, 42.4, 1]},
                 sat_sim=0.02, ci=1.0)
    assert V.more_accurate(sharp) is True and V.more_accurate(blunt) is None
    assert V.more_accurate(sharp, "2003", "default") is False
    errs = V.point_errors(sharp)
    assert [p.fraction for p in errs] == [0.25, 0.5, 0.75]  # the fixed fractions, not 0.9
    assert errs[0].error == pytest.approx(0.05) and errs[0].half == pytest.approx(1.05 * 0.001)
    assert V.worst_in([V.PointError(0.5, 0.1, 0.01, "bounded"), V.PointError(0.75, INF, 0, "unbounded")])[0] == INF
    lo_hi = V.worst_in([V.PointError(0.25, 0.1, 0.05, "bounded"), V.PointError(0.5, 0.12, 0.01, "bounded")])
    assert lo_hi == (pytest.approx(0.13), pytest.approx(0.02))  # from max(0.05, 0.11) to max(0.15, 0.13)
    # saturation: closer for every simulated saturation load in the bracket, else undecided
    assert V.closer_saturation(0.9, 0.7, (1.0, 1.02)) is True
    assert V.closer_saturation(0.9, 0.7, (0.70, 0.72)) is False
    assert V.closer_saturation(0.9, 0.7, (0.78, 0.82)) is None  # the geometric mean 0.794 is inside
    assert V.closer_saturation(0.9, 0.7, None) is None
    comp = V.comparison_table(_fig2() + _fig1())
    assert len(comp) == 5 and comp["paper"].tolist() == [True, True, True, True, False]
    small = comp.iloc[4]
    lo, hi = small["worst default"] - small["worst default half"], small["worst default"] + small["worst default half"]
    assert lo <= 0.05 <= hi  # the worst error's interval, from 1 cycle on 10
    # the real 2003 model saturates at 0.023, below 75% of 0.05: unbounded, whatever the noise
    assert small["high 2003"] == INF and small["better default"] is True
    assert comp["high 2003"].iloc[0] == INF
    g = glue_values_comparison(comparison=comp)
    assert g["torus_dor-cmp-better-default-unidirectional"].endswith("of 3")
    assert (g["torus_dor-cmp-curves-unidirectional"], g["torus_dor-cmp-paper-unidirectional"]) == (3, 2)


def test_the_two_network_facts():
    w = F.waiting_max_table((5, 5, 5), L=2)
    uni = w[w["torus"] == "unidirectional"]
    bi = w[w["torus"] == "bidirectional"]
    assert uni["inputs"].tolist() == [1, 2, 3] and bi["inputs"].tolist() == [1, 3, 5]
    assert (bi["equal (from 1)"]).all() and not uni["equal (from 1)"].all() and not uni["equal (as printed)"].all()
    assert (w["with injection"] == w["waiting max"] + 2).all()
    assert F.mean_hops((4, 4)) == pytest.approx(2 * 1.5 * 16 / 15)
    rows = C._waiting_rows(w)
    assert [r["holds"] for r in rows] == [False, False, False, True]
    assert [r["paper_config"] for r in rows] == [True, True, False, False]
    # equal channel loads: independent noise only -> equal; a shared imbalance -> not equal
    rng = np.random.default_rng(3)
    base = np.ones(200)
    assert spread_beyond_noise([base + rng.normal(0, 0.01, 200) for _ in range(4)])["equal"] is True
    skew = np.linspace(0.9, 1.1, 200)
    assert spread_beyond_noise([skew + rng.normal(0, 0.01, 200) for _ in range(4)])["equal"] is False
    ch = C._channel_rows(_channels(False))[0]
    assert ch["holds"] is False and ch["criterion"] == "equal-beyond-noise" and ch["cause"] == "unexplained"
    assert C._channel_rows(None)[0]["holds"] is None


def test_the_claims_table_is_saved_on_the_declared_setup(tmp_path):
    t = C.claims_table(_fig1(), _fig2(), channels=_channels())
    saved = save_claims(t, "torus_dor", tmp_path, setups=SETUPS)
    assert set(saved["stands_for"]) == {"paper", "-"}
    with pytest.raises(ValueError, match="set-up"):
        save_claims(t.assign(setup="unidirectional"), "torus_dor", tmp_path, setups=SETUPS)


def test_the_worst_over_curves_is_cores_whatever_the_order():
    """fig1-accuracy's ``worst_err`` over several curves is ``core.claims.Accuracy.combine``: a curve with no counted
    point (its worst is NaN: every simulated point saturated) hides none of the others, first or last; ``sat_ratio``
    is ``core.claims.furthest_from_one`` of the curves' ratios."""
    other = {"printed": [10.5, 21, 42, 1], "2003": [11, 24, 48, 1]}
    empty = _run(torus_curve(DorParams((4, 4), 3, 16)), [INF] * 4, [1, 1, 1, 1], other, sat_sim=0.05)
    fine = _run(torus_curve(DorParams((4, 4), 3, 8)), SIM, [10.5, 21, 42, 1], other, sat_sim=0.05)
    for runs in ([empty, fine], [fine, empty]):
        t = C.claims_table(runs, [])
        row = t[(t["claim_id"] == "fig1-accuracy") & (t["case"].str.contains("default reading"))].iloc[0]
        assert row["worst_err"] == pytest.approx(0.05)
        assert row["sat_ratio"] == pytest.approx(0.8)  # both curves: the model saturates at 0.8 of the simulation
