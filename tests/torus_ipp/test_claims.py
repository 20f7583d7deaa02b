"""torus_ipp: the paper's claims (one per sentence, quoted whole), the claims table and its rows per set-up, the
channel-load spread, what burstiness costs, the saturation-ratio table and where the gap comes from, on small
synthetic runs (issue #25; the runs: conftest.py)."""

import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from models.core.claims import CLAIM_COLUMNS, furthest_from_one, save_claims
from models.core.paths import ROOT
from models.findings.verdicts import verdict_table
from models.torus_ipp import claims as C
from models.torus_ipp import experiments as X
from models.torus_ipp import glue as G
from models.torus_ipp.setups import SETTINGS, SETUPS


def _paper_text():
    """The OCR text of paper 001, normalised (markup and white space), or None where it is not available."""
    for folder in (os.environ.get("MODELS_PAPERS_DIR"), ROOT.parent / "shared" / "papers", "/work/shared/papers"):
        if folder and Path(folder).is_dir():
            hits = sorted(Path(folder).glob("001_*.txt"))
            if hits:
                return _norm(hits[0].read_text())
    return None


def _norm(text: str) -> str:
    text = text.replace("$", "").replace("*", "").replace("\\_", "_")
    text = re.sub(r"-\s*\n\s*", "", text)  # a word hyphenated across a line
    return re.sub(r"\s+", " ", text)


def test_every_claim_is_one_sentence_of_the_paper_quoted_whole():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/001_*.txt) is not available")
    for c in C.CLAIMS.values():
        assert _norm(c.quote) in paper, c.claim_id
        assert c.quote.rstrip().endswith("."), c.claim_id
        assert c.section.startswith("Sec. "), c.claim_id
    # the Sec. 4 restatement of the latency claim is in its notes, not a second claim
    assert "Results from simulation experiments have revealed" in paper
    # every sentence read and not judged is verbatim too, with a reason, and is no claim's
    assert len(C.CONSIDERED) == 5
    for c in C.CONSIDERED:
        assert _norm(c.quote) in paper, c.quote[:40]
        assert c.quote.rstrip().endswith(".") and c.reason.strip()
        assert c.quote not in {k.quote for k in C.CLAIMS.values()}


def test_every_claim_has_its_sentences_quantifier():
    """From the sentences' own words: "on all network channels"; the others general statements or one fact."""
    q = {c.claim_id: (c.quantifier, c.quantifier_quote) for c in C.CLAIMS.values()}
    assert q == {"latency-accuracy": ("all", ""), "mmpp-fit": ("one", ""),
                 "channel-load-balanced": ("all", "on all network channels"),
                 "blocking-time-exponential": ("all", "")}


def test_no_claim_carries_a_tolerance_of_the_book():
    """The paper states no number: no threshold, no yardstick (the old 10 % "match" and 5 % "significantly" are
    gone, referee A2); the burstiness sentence of the Introduction (a literature statement citing [6], [7]) and
    the long-burst illustration are not claims (referee #24, #25); one claim per sentence (#22 and #23 merged)."""
    for c in C.CLAIMS.values():
        assert math.isnan(c.threshold) and c.threshold_quote == "" and math.isnan(c.yardstick), c.claim_id
    assert list(C.CLAIMS) == ["latency-accuracy", "mmpp-fit", "channel-load-balanced", "blocking-time-exponential"]
    assert not hasattr(X, "MATCH_THRESHOLD") and not hasattr(X, "BURST_THRESHOLD")
    assert len({c.quote for c in C.CLAIMS.values()}) == len(C.CLAIMS)
    assert "[9]" in C.CLAIMS["blocking-time-exponential"].quote
    assert C.CLAIMS["channel-load-balanced"].quote.startswith("Under the uniform traffic pattern")


def test_the_one_ejection_channel_setup_never_decides(fake_run, tmp_path):
    assert SETUPS["one ejection channel"].stands_for == "" and SETUPS["paper/model"].stands_for == "paper"
    runs = [fake_run(setup="paper/model", model_sat=2.0, err=(0.01, 0.02, 0.03, 0.5)),
            fake_run(setup="one ejection channel", model_sat=0.5)]
    t = save_claims(C.claims_table(runs), "torus_ipp", tmp_path, setups=SETUPS)
    assert list(t["stands_for"]) == ["paper", "neither", "-"]
    v = verdict_table(t).set_index("claim_id")
    # unbounded only on the undescribed set-up: no verdict from it (the paper/model error is finite, no number)
    assert v.loc["latency-accuracy", "verdict"] == "cannot be checked"
    assert v.loc["blocking-time-exponential", "verdict"] == "cannot be checked"


def test_claims_table_columns_and_rows(fake_run):
    runs = [fake_run(setup=su) for su in SETUPS]
    t = C.claims_table(runs)
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert list(t["claim_id"]) == ["latency-accuracy"] * 2 + ["blocking-time-exponential"]
    assert list(t["setup"]) == list(SETUPS) + ["-"]
    assert set(t["chapter"]) == {"torus_ipp"} and list(t["kind"]) == ["error", "error", "fact"]
    assert t["threshold"].isna().all() and t["yardstick"].isna().all() and (t["case"] == "").all()
    # model saturates at half the simulated load: infinitely wrong at 75 % (below 80 %), ratio 0.5
    acc = t.iloc[0]
    assert acc["worst_err"] == math.inf and acc["sat_ratio"] == pytest.approx(0.5)
    assert acc["cause"] == "model" and acc["holds"] is None
    assert "restates" in acc["note"] and "unbounded on 1" in acc["note"]
    assert t.iloc[2]["holds"] is None and "not simulated" in t.iloc[2]["note"]
    v = verdict_table(t.assign(stands_for=["paper", "neither", "-"])).set_index("claim_id")
    assert v.loc["latency-accuracy", "verdict"] == "does not hold" and v.loc["latency-accuracy", "rests_on"] == \
        ("paper/model",)


def test_a_changed_error_changes_the_worst_error(fake_run):
    ok = C.claims_table([fake_run(model_sat=2.0, err=(0.01, 0.03, 0.04, 0.5))])
    acc = ok[ok["claim_id"] == "latency-accuracy"].iloc[0]
    assert acc["worst_err"] == pytest.approx(0.04)  # the 90 % point is above 80 % of saturation
    assert acc["sat_ratio"] == pytest.approx(2.0) and acc["cause"] == "-"
    worse = C.claims_table([fake_run(model_sat=2.0, err=(0.01, -0.2, 0.04, 0.5))])
    assert worse[worse["claim_id"] == "latency-accuracy"].iloc[0]["worst_err"] == pytest.approx(0.2)


def test_the_channel_fit_is_a_fact():
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    row = C.claims_table([], fit=fit).iloc[0]
    assert (row["claim_id"], row["setup"], row["kind"], row["holds"]) == ("mmpp-fit", "-", "fact", True)
    fit.loc[0, "max rel. diff"] = 1e-3
    assert C.claims_table([], fit=fit).iloc[0]["holds"] is False


def test_the_balance_claim_from_the_balance_table():
    """Equal-beyond-noise (core.criteria.spread_beyond_noise's ``equal``) on every curve: holds; one curve not
    equal: does not hold, cause "unexplained" (the note says whether the + channels carry more beyond the noise:
    the router's tie order, which did until issue #36, is fair now); criterion named, the size (sys cv, + / -
    ratio) in the note."""
    bal = pd.DataFrame({"figure": [1, 1, 1, 1], "panel": ["a", "b", "a", "b"],
                        "setup": ["paper/model"] * 2 + ["one ejection channel"] * 2, "runs": [3] * 4,
                        "channels": [1024] * 4, "mean load": [0.2] * 4, "raw cv": [0.07] * 4, "max dev": [0.2] * 4,
                        "sys cv": [0.004, 0.0, 0.05, 0.0], "sys var": [1.6e-5, -1e-6, 2.5e-3, 0.0],
                        "sys var se": [1e-5, 1e-5, 1e-4, 1e-5],
                        "equal": pd.Series([True, True, False, True], dtype=object),
                        "plus / minus": [1.001, 0.999, 1.04, 1.0], "plus / minus se": [0.002] * 4})
    t = C.claims_table([], balance=bal).set_index(["claim_id", "setup"])
    ok, bad = t.loc[("channel-load-balanced", "paper/model")], t.loc[("channel-load-balanced", "one ejection channel")]
    assert ok["holds"] is True and ok["cause"] == "-" and ok["criterion"] == "equal-beyond-noise"
    assert bad["holds"] is False and bad["cause"] == "unexplained" and "is fair now" in bad["note"]
    assert "Fig. 1(a) sys cv 0.4% (equal; raw 7.0%, 3 runs; + / - channels 1.001 +/- 0.002)" in ok["note"]
    same = C.claims_table([], balance=bal.assign(**{"plus / minus": [1.001, 0.999, 1.002, 1.0]}))
    same = same.set_index(["claim_id", "setup"]).loc[("channel-load-balanced", "one ejection channel")]
    assert same["cause"] == "unexplained" and "Cause unexplained" in same["note"]  # not the + / - split
    undecided = C.claims_table([], balance=bal.assign(equal=pd.Series([None] * 4, dtype=object)))
    assert undecided.iloc[0]["holds"] is None and undecided.iloc[0]["criterion"] == ""


def _blocking(within, shift=(0.1, 0.2), setup="paper/model"):
    n = len(within)
    return pd.DataFrame({"figure": [1] * n, "panel": ["a"] * n, "setup": [setup] * n,
                         "fraction": [0.25, 0.5, 0.75][:n], "mu1": [0.001] * n, "sim latency": [100.0] * n,
                         "sim latency CI": [1.0] * n, "sim b mean": [2.0] * n, "sim b m2": [20.0] * n,
                         "sim b cv": [1.5, 2.0, 2.5][:n], "sim b cv2": [2.25, 4.0, 6.25][:n], "hop cv min": [1.2] * n,
                         "hop cv max": [3.0] * n, "model (cv2 = 1)": [90.0] * n,
                         "model (measured cv2)": [90.0 + x for x in shift[:n]], "model (cv2 = 0)": [89.5] * n,
                         "shift": list(shift[:n]), "shift / CI": list(shift[:n]),
                         "within noise": pd.Series(within, dtype=object)})


def test_the_blocking_claim_from_the_blocking_table():
    """reasonable-approximation: every compared point within the simulated half width holds; one beyond fails
    (cause model); nothing compared (the model saturated with both laws) is undecided; the note says what was
    measured (the CVs, per hop count too) and how far the model moved."""
    ok = C.claims_table([], blocking=_blocking([True, True])).iloc[0]
    assert (ok["claim_id"], ok["setup"], ok["holds"], ok["criterion"], ok["cause"]) == \
        ("blocking-time-exponential", "paper/model", True, "reasonable-approximation", "-")
    assert "CV of b 1.50 to 2.00" in ok["note"] and "1.20 to 3.00" in ok["note"] and "0.2%" in ok["note"]
    bad = C.claims_table([], blocking=_blocking([True, False], shift=(0.1, 5.0))).iloc[0]
    assert bad["holds"] is False and bad["cause"] == "model" and "1 of 2 points within it" in bad["note"]
    none = C.claims_table([], blocking=_blocking([None], shift=(math.nan,))).iloc[0]
    assert none["holds"] is None and "1 points where the model is saturated" in none["note"]
    some = C.claims_table([], blocking=_blocking([True, None], shift=(0.1, math.nan))).iloc[0]
    assert some["holds"] is True and "1 of 1 points within it; 1 points" in some["note"]
    two = C.claims_table([], blocking=pd.concat([_blocking([True]), _blocking([False], (3.0,), "one ejection channel")]))
    assert list(two["setup"]) == ["paper/model", "one ejection channel"] and list(two["holds"]) == [True, False]


def test_within_noise_and_shift():
    """The per-point criterion: a move within the half width passes, beyond fails; an unbounded move (one law
    saturated) fails; both saturated is not compared."""
    from models.torus_ipp.blocking import shift, within_noise

    assert within_noise(shift(101.0, 100.0), 1.5) is True and within_noise(shift(98.0, 100.0), 1.5) is False
    assert shift(math.inf, 100.0) == math.inf and within_noise(math.inf, 10.0) is False
    assert math.isnan(shift(math.inf, math.inf)) and within_noise(shift(math.inf, math.inf), 1.0) is None


def test_burstiness_is_the_chapters_table_not_a_claim():
    paired = pd.DataFrame({"setup": ["paper/model"] * 2, "fraction": [0.25, 0.5], "sim IPP / Poisson": [1.01, 1.024],
                           "sim IPP / Poisson low": [0.99, 1.001], "sim IPP / Poisson high": [1.03, 1.05],
                           "model IPP / Poisson": [1.0, 1.003]})
    mk = lambda lat, sat: pd.DataFrame({"mu1": [0.001, 0.002], "sim latency": lat, "sim latency CI": [1.0, 1.0],
                                        "sim saturated": sat})
    scan = {("paper/model", 0.0): mk([100.0, 120.0], [False, False]),
            ("paper/model", X.LONG_SCALE): mk([101.0, math.inf], [False, True])}
    b = X.burstiness_table(paired, scan)
    assert list(b["case"]) == ["paper's networks", "bursts x 100"]
    assert b.iloc[0]["increase"] == pytest.approx(0.024) and b.iloc[0]["high"] == pytest.approx(0.05)
    assert b.iloc[1]["increase"] == math.inf  # a saturated bursty point is an unbounded increase
    words = G.burstiness_sentences(b)
    assert words["torus_ipp-burst-paper-paper"] == "at most +2.4% (95% bounds +0.1% to +5.0%; the model: +0.3%)"
    assert words["torus_ipp-burst-long-paper"].startswith("at most unbounded (saturated)")
    assert X.burstiness_table().empty


def test_saturation_ratio_table_and_where_the_gap_comes_from(fake_run):
    runs = [fake_run(p, tr, su, model_sat=0.5, sim_sat=1.0)
            for su in SETUPS for tr in ("ipp", "poisson") for p in ("Fig. 1(a)", "Fig. 1(b)")]
    err = X.panel_error_table(runs)
    wide = X.errors_by_setup(err)
    assert len(wide) == 4 and "err @25% [paper/model]" in wide and "sat. model / sim [one ejection channel]" in wide
    r = X.saturation_ratio_table(err)
    assert len(r) == 4 and list(r.columns[:3]) == ["figure", "panel", "setup"]
    assert np.allclose(r["ratio IPP"], 0.5) and np.allclose(r["ratio IPP - Poisson"], 0)
    g = X.gap_source(r)
    assert g["source"] == "core" and g["max diff"] == 0 and "sentence" not in g  # the words: glue.GAP_WHERE
    # the same gap with Poisson sources closed: the MMPP part is the cause
    r2 = r.assign(**{"ratio Poisson": 1.0})
    r2["ratio IPP - Poisson"] = r2["ratio IPP"] - r2["ratio Poisson"]
    r2["share of gap"] = (r2["ratio IPP - Poisson"].abs() / (1 - r2["ratio IPP"]).abs())
    assert X.gap_source(r2)["source"] == "mmpp"
    r2["ratio Poisson"] = 0.75
    r2["ratio IPP - Poisson"] = r2["ratio IPP"] - r2["ratio Poisson"]
    r2["share of gap"] = (r2["ratio IPP - Poisson"].abs() / (1 - r2["ratio IPP"]).abs())
    assert X.gap_source(r2)["source"] == "both"
    with pytest.raises(ValueError):
        X.gap_source(r.iloc[0:0])
    # the latency claim's notes say where the saturation gap comes from, computed from the ratios
    t = C.claims_table([x for x in runs if x.curve.model["traffic"] == "ipp"], ratios=r)
    notes = t[t["claim_id"] == "latency-accuracy"]["note"]
    assert len(notes) == 2 and all("adaptive-routing core" in n for n in notes)


def test_the_saturation_ratio_of_a_row_is_cores_furthest_from_one(fake_run):
    """The ``sat_ratio`` of the latency row: the curves' ratio furthest from 1 by core's rule (no copy here)."""
    assert not hasattr(C, "worst_ratio") and not hasattr(X, "worst_ratio")
    runs = [fake_run("Fig. 1(a)", model_sat=0.9), fake_run("Fig. 1(b)", model_sat=2.5),
            fake_run("Fig. 2(a)", model_sat=0.5)]
    row = C.claims_table(runs).iloc[0]
    assert row["sat_ratio"] == furthest_from_one([0.9, 2.5, 0.5]) == 2.5
    assert C.error_words(math.inf) == "unbounded (saturated)" and C.error_words(math.nan) == "n/a"
    assert C.error_words(0.0123) == "1.2%" and C.error_words(0.0123, sign=True) == "+1.2%"












def test_channel_balance_reads_the_runs_own_simulations(fake_run, tmp_cache):
    """The channel loads come from the simulator's ``channel_load`` at the run's own unsaturated loads below 80%
    of the simulated saturation load (short runs on Fig. 1(a)'s network), one seed per load: the i-th load of
    the curve is seeded seed + i, so the runs are independent and read back from the curve's own cache."""
    run = fake_run(model_sat=2.0, sim_sat=0.002)
    settings = SETTINGS.replace(messages=400, warmup_messages=100, batches=5)
    got = X.channel_loads(run, settings)
    assert [f for f, _ in got] == [0.25, 0.5, 0.75]  # the 90 % point is above 80 %
    assert all(x.shape == (1024,) and (x >= 0).all() and x.mean() > 0 for _, x in got)
    seeds = [X.sim_kwargs(run.curve, m, settings, seed_offset=i)["seed"] for i, m in enumerate(run.sim["load"])]
    assert seeds == [settings.seed + i for i in range(4)]
    own = X.sim_results(run.curve, list(run.sim["load"]), settings)  # the curve's runs, as simulate_curve seeds them
    assert all(np.array_equal(x, r.channel_load) for (_, x), r in zip(got, own))
    assert [r.seed for r in own] == seeds
    t = X.channel_balance_table([run], settings)
    assert list(t["runs"]) == [3] and list(t["channels"]) == [1024] and t["equal"].iloc[0] in (True, False)
    assert 0.8 < t["plus / minus"].iloc[0] < 1.25 and t["raw cv"].iloc[0] > 0 and t["plus / minus se"].iloc[0] > 0
