"""torus_ipp: the paper's claims (one per sentence, quoted whole), the claims table and its rows per set-up, the
channel-load spread, what burstiness costs, the saturation-ratio table and its conclusion, on small synthetic
runs (issue #25)."""

import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from models.core.claims import CLAIM_COLUMNS, save_claims, worst_error_below
from models.core.experiment import run_curve
from models.core.paths import ROOT
from models.findings.verdicts import verdict_table
from models.torus_ipp import experiments as X


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


def fake_run(panel="Fig. 1(a)", traffic="ipp", setup="paper/model", *, model_sat=0.5, sim_sat=1.0,
             err=(0.01, 0.02, 0.05, 0.1), fractions=(0.25, 0.5, 0.75, 0.9)):
    """A CurveRun whose model is ``(1 + err) x`` the simulation at ``fractions`` of ``sim_sat``,
    saturated from ``model_sat`` on (loads are abstract)."""
    base = X.paper_figure(1 if panel.startswith("Fig. 1") else 2).curve(panel)
    curve = X.with_setup(X.with_traffic(base, traffic), setup).replace(loads=fractions)
    errors = dict(zip(fractions, err))

    def sim(c, loads):
        return [{"latency": 100.0 + 100.0 * x, "latency CI": 1.0, "saturated": False} for x in loads]

    def model(c, x):
        if x >= model_sat:
            return {"latency": math.inf, "saturated": True}
        f = x / sim_sat
        e = next((v for k, v in errors.items() if np.isclose(k, f)), 0.0)
        return {"latency": (100.0 + 100.0 * x) * (1 + e), "saturated": False}

    return run_curve(curve, model, sim, model_saturation=lambda c: model_sat, sim_saturation=lambda c, m: sim_sat)


def test_every_claim_is_one_sentence_of_the_paper_quoted_whole():
    paper = _paper_text()
    if paper is None:
        pytest.skip("the paper's text (../shared/papers/001_*.txt) is not available")
    for c in X.CLAIMS.values():
        assert _norm(c.quote) in paper, c.claim_id
        assert c.quote.rstrip().endswith("."), c.claim_id
        assert c.section.startswith("Sec. "), c.claim_id
    # the Sec. 4 restatement of the latency claim is in its notes, not a second claim
    assert "Results from simulation experiments have revealed" in paper


def test_no_claim_carries_a_tolerance_of_the_book():
    """The paper states no number: no threshold, no yardstick (the old 10 % "match" and 5 % "significantly" are
    gone, referee A2); the burstiness sentence of the Introduction (a literature statement citing [6], [7]) and
    the long-burst illustration are not claims (referee #24, #25); one claim per sentence (#22 and #23 merged)."""
    for c in X.CLAIMS.values():
        assert math.isnan(c.threshold) and c.threshold_quote == "" and math.isnan(c.yardstick), c.claim_id
    assert list(X.CLAIMS) == ["latency-accuracy", "mmpp-fit", "channel-load-balanced", "blocking-time-exponential"]
    assert not hasattr(X, "MATCH_THRESHOLD") and not hasattr(X, "BURST_THRESHOLD")
    assert len({c.quote for c in X.CLAIMS.values()}) == len(X.CLAIMS)
    assert "[9]" in X.CLAIMS["blocking-time-exponential"].quote
    assert X.CLAIMS["channel-load-balanced"].quote.startswith("Under the uniform traffic pattern")


def test_the_one_ejection_channel_setup_never_decides(tmp_path):
    assert X.SETUPS["one ejection channel"].stands_for == "" and X.SETUPS["paper/model"].stands_for == "paper"
    runs = [fake_run(setup="paper/model", model_sat=2.0, err=(0.01, 0.02, 0.03, 0.5)),
            fake_run(setup="one ejection channel", model_sat=0.5)]
    t = save_claims(X.claims_table(runs), "torus_ipp", tmp_path, setups=X.SETUPS)
    assert list(t["stands_for"]) == ["paper", "neither", "-"]
    v = verdict_table(t).set_index("claim_id")
    # unbounded only on the undescribed set-up: no verdict from it (the paper/model error is finite, no number)
    assert v.loc["latency-accuracy", "verdict"] == "cannot be checked"
    assert v.loc["blocking-time-exponential", "verdict"] == "cannot be checked"


def test_claims_table_columns_and_rows():
    runs = [fake_run(setup=su) for su in X.SETUPS]
    t = X.claims_table(runs)
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert list(t["claim_id"]) == ["latency-accuracy"] * 2 + ["blocking-time-exponential"]
    assert list(t["setup"]) == list(X.SETUPS) + ["-"]
    assert set(t["chapter"]) == {"torus_ipp"} and list(t["kind"]) == ["error", "error", "fact"]
    assert t["threshold"].isna().all() and t["yardstick"].isna().all() and (t["case"] == "").all()
    # model saturates at half the simulated load: infinitely wrong at 75 % (below 80 %), ratio 0.5
    acc = t.iloc[0]
    assert acc["worst_err"] == math.inf and acc["sat_ratio"] == pytest.approx(0.5)
    assert acc["cause"] == "model" and acc["holds"] is None
    assert "restates" in acc["note"] and "unbounded on 1" in acc["note"]
    assert t.iloc[2]["holds"] is None and "simulator" in t.iloc[2]["note"]
    v = verdict_table(t.assign(stands_for=["paper", "neither", "-"])).set_index("claim_id")
    assert v.loc["latency-accuracy", "verdict"] == "does not hold" and v.loc["latency-accuracy", "rests_on"] == \
        ("paper/model",)


def test_a_changed_error_changes_the_worst_error():
    ok = X.claims_table([fake_run(model_sat=2.0, err=(0.01, 0.03, 0.04, 0.5))])
    acc = ok[ok["claim_id"] == "latency-accuracy"].iloc[0]
    assert acc["worst_err"] == pytest.approx(0.04)  # the 90 % point is above 80 % of saturation
    assert acc["sat_ratio"] == pytest.approx(2.0) and acc["cause"] == "-"
    worse = X.claims_table([fake_run(model_sat=2.0, err=(0.01, -0.2, 0.04, 0.5))])
    assert worse[worse["claim_id"] == "latency-accuracy"].iloc[0]["worst_err"] == pytest.approx(0.2)


def test_the_channel_fit_is_a_fact():
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    row = X.claims_table([], fit=fit).iloc[0]
    assert (row["claim_id"], row["setup"], row["kind"], row["holds"]) == ("mmpp-fit", "-", "fact", True)
    fit.loc[0, "max rel. diff"] = 1e-3
    assert X.claims_table([], fit=fit).iloc[0]["holds"] is False


def test_channel_spread_tells_a_shared_imbalance_from_counting_noise():
    rng = np.random.default_rng(3)
    C = 1024
    equal = [rng.poisson(200, C) / 1000 for _ in range(4)]
    s = X.channel_spread(equal)
    assert s["runs"] == 4 and s["channels"] == C and s["imbalanced"] is False
    assert s["raw cv"] == pytest.approx(1 / math.sqrt(200), rel=0.1) and s["sys cv"] < 0.03
    pattern = 1 + 0.1 * np.where(np.arange(C) % 2 == 0, 1.0, -1.0)  # every other channel 10 % busier
    skew = [rng.poisson(200 * pattern) / 1000 for _ in range(4)]
    s = X.channel_spread(skew)
    assert s["imbalanced"] is True and s["sys cv"] == pytest.approx(0.1, abs=0.02)
    assert X.channel_spread(skew[:1])["imbalanced"] is None


def test_the_balance_claim_from_the_balance_table():
    bal = pd.DataFrame({"figure": [1, 1, 1, 1], "panel": ["a", "b", "a", "b"],
                        "setup": ["paper/model"] * 2 + ["one ejection channel"] * 2, "runs": [3] * 4,
                        "channels": [1024] * 4, "mean load": [0.2] * 4, "raw cv": [0.07] * 4, "max dev": [0.2] * 4,
                        "sys cv": [0.004, 0.0, 0.05, 0.0], "sys var": [1.6e-5, -1e-6, 2.5e-3, 0.0],
                        "sys var se": [1e-5, 1e-5, 1e-4, 1e-5], "imbalanced": [False, False, True, False],
                        "plus / minus": [1.001, 0.999, 1.04, 1.0]})
    t = X.claims_table([], balance=bal).set_index(["claim_id", "setup"])
    assert t.loc[("channel-load-balanced", "paper/model"), "holds"] is True
    assert t.loc[("channel-load-balanced", "one ejection channel"), "holds"] is False
    assert "Fig. 1(a) 0.4% (7.0% raw, 3 runs; + / - channels 1.001)" in t.loc[("channel-load-balanced",
                                                                               "paper/model"), "note"]


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
    words = X.burstiness_sentences(b)
    assert words["torus_ipp-burst-paper-paper"] == "at most +2.4% (95% bounds +0.1% to +5.0%; the model: +0.3%)"
    assert words["torus_ipp-burst-long-paper"].startswith("at most unbounded (saturated)")
    assert X.burstiness_table().empty


def test_saturation_ratio_table_and_where_the_gap_comes_from():
    runs = [fake_run(p, tr, su, model_sat=0.5, sim_sat=1.0)
            for su in X.SETUPS for tr in ("ipp", "poisson") for p in ("Fig. 1(a)", "Fig. 1(b)")]
    err = X.panel_error_table(runs)
    wide = X.errors_by_setup(err)
    assert len(wide) == 4 and "err @25% [paper/model]" in wide and "sat. model / sim [one ejection channel]" in wide
    r = X.saturation_ratio_table(err)
    assert len(r) == 4 and list(r.columns[:3]) == ["figure", "panel", "setup"]
    assert np.allclose(r["ratio IPP"], 0.5) and np.allclose(r["ratio IPP - Poisson"], 0)
    g = X.gap_source(r)
    assert g["source"] == "core" and g["max diff"] == 0 and "adaptive-routing core" in g["sentence"]
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
    t = X.claims_table([x for x in runs if x.curve.model["traffic"] == "ipp"], ratios=r)
    notes = t[t["claim_id"] == "latency-accuracy"]["note"]
    assert len(notes) == 2 and all("adaptive-routing core" in n for n in notes)


def test_worst_ratio_and_error_helpers():
    assert X.worst_ratio([0.9, 1.5, 0.5]) == 0.5
    assert X.worst_ratio([0.9, 2.5, 0.5]) == 2.5
    assert math.isnan(X.worst_ratio([math.nan]))
    assert math.isnan(worst_error_below([]))


def test_glue_values_of_the_claims_are_words():
    runs = [fake_run(setup=su) for su in X.SETUPS]
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    claims = X.claims_table(runs, fit=fit)
    values = X.glue_values_claims(claims)
    assert len(values) == 4 * len(claims)
    key = "torus_ipp-claim-latency-accuracy-paper"
    assert values[key] == claims.iloc[0]["note"]
    assert values[f"{key}-err"] == "unbounded" and values[f"{key}-ratio"] == "0.500"
    assert values[f"{key}-holds"] == "n/a"
    assert "torus_ipp-claim-latency-accuracy-oneej-ratio" in values
    assert values["torus_ipp-claim-mmpp-fit-all-holds"] == "yes"
    assert values["torus_ipp-claim-blocking-time-exponential-all-holds"] == "not decided"
    ok = X.claims_table([fake_run(model_sat=2.0, err=(0.01, 0.03, 0.04, 0.5))])
    assert X.glue_values_claims(ok)["torus_ipp-claim-latency-accuracy-paper-err"] == "4.0%"


def test_glue_values_of_the_gap_and_the_paired_runs():
    runs = [fake_run(p, tr, su, model_sat=0.5, sim_sat=1.0)
            for su in X.SETUPS for tr in ("ipp", "poisson") for p in ("Fig. 1(a)", "Fig. 1(b)")]
    r = X.saturation_ratio_table(X.panel_error_table(runs))
    g = X.glue_values_gap(r)
    assert g == {"torus_ipp-gap-sentence": X.gap_source(r)["sentence"], "torus_ipp-gap-maxdiff": 0.0,
                 "torus_ipp-gap-share": 0.0, "torus_ipp-gap-source": "core"}
    assert X.glue_values_gap(pd.DataFrame()) == {"torus_ipp-gap-sentence": "(not simulated)"}
    paired = pd.DataFrame({"setup": ["one ejection channel"] * 2 + ["paper/model"] * 2,
                           "sim IPP / Poisson": [1.5, 1.5, 1.01, 1.03], "sim IPP / Poisson low": [1.4, 1.4, 0.98, 1.0],
                           "model IPP / Poisson": [1.2, 1.2, 1.002, 1.004]})
    v = X.glue_values_paired(paired)   # the default set-up's rows
    assert v["torus_ipp-paired-sim-max"] == pytest.approx(0.03) and v["torus_ipp-paired-sim-min"] == pytest.approx(0.01)
    assert v["torus_ipp-paired-low-max"] == pytest.approx(0.0) and v["torus_ipp-paired-model-max"] == pytest.approx(0.004)
    only = X.glue_values_paired(paired[paired["setup"] == "one ejection channel"])   # else the first set-up
    assert only["torus_ipp-paired-sim-max"] == pytest.approx(0.5)
    assert X.glue_values_paired(None) == {}


def _full_run(panel, setup, sim_sat):
    """A CurveRun with every model and simulator column (the simulation saturated at the 90 % point)."""
    curve = X.with_setup(X.paper_figure(1).curve(panel), setup).replace(loads=(0.25, 0.5, 0.75, 0.9))

    def model(c, x):
        return {**{col: 1.0 for col in X.MODEL_COLUMNS}, "latency": (100.0 + 100.0 * x) * 1.01, "saturated": False}

    def sim(c, loads):
        return [{**{col: 1.0 for col in X.SIM_COLUMNS}, "latency": 100.0 + 100.0 * x if x < 0.85 * sim_sat else math.inf,
                 "saturated": not x < 0.85 * sim_sat, "throughput": 0.01 * x} for x in loads]

    return run_curve(curve, model, sim, model_saturation=lambda c: 0.5 * sim_sat, sim_saturation=lambda c, m: sim_sat)


def test_glue_values_of_the_latency_page():
    runs = [_full_run(p, su, 1.0 if su == "paper/model" else 0.8) for su in X.SETUPS for p in ("Fig. 1(a)", "Fig. 1(b)")]
    err = X.panel_error_table(runs)
    v = X.glue_values_latency(runs, err)
    assert v["torus_ipp-err25-max-paper"] == pytest.approx(0.01)
    assert v["torus_ipp-satratio-min-paper"] == v["torus_ipp-satratio-max-paper"] == pytest.approx(0.5)
    assert v["torus_ipp-satratio-max-oneej"] == pytest.approx(0.5)
    assert v["torus_ipp-oneej-simsat-min"] == v["torus_ipp-oneej-simsat-max"] == pytest.approx(0.8)
    # the busiest ejection channel: delivered messages/node/cycle x M (48) at the unsaturated simulated points
    # (the 75 % point; the 90 % point is saturated)
    assert v["torus_ipp-ejection-util-max"] == pytest.approx(0.01 * 0.75 * 48)
    one = X.glue_values_latency(runs[:2], err.iloc[:2])
    assert "torus_ipp-oneej-simsat-min" not in one and "torus_ipp-err25-max-oneej" not in one
    model_only = [run_curve(c.replace(loads=()), lambda c, x: {"latency": 1.0}, model_saturation=lambda c: 1.0)
                  for c in X.paper_figure(1).curves]
    assert X.glue_values_latency(model_only, X.panel_error_table(model_only)) == {}


def test_glue_values_of_the_traffic_page():
    mom = pd.DataFrame({"max rel. diff vs expm": [1e-12, 3e-12]})
    fitted = pd.DataFrame({"closed-form diff": [2e-16, 1e-15]})
    match = pd.DataFrame({"max rel. diff": [0.0, 4e-16]})
    chk = pd.DataFrame({"reference kind": ["exact CTMC", "simulation", "exact CTMC", "simulation"],
                        "rel. diff": [1e-12, 0.01, -2e-12, 0.3], "eq. 19 (closed G)": [1.0, 10.0, 2.0, 20.0],
                        "reference": [1.0, 10.5, 2.0, 26.0], "reference CI": [0.0, 0.5, 0.0, 1.0]})
    assert X.glue_values_traffic(mom, fitted, match, chk) == {
        "torus_ipp-moment-maxdiff": 3e-12, "torus_ipp-fit-closed-diff": 1e-15, "torus_ipp-fit-match-maxdiff": 4e-16,
        "torus_ipp-mmpp-m1-maxdiff": 2e-12, "torus_ipp-mmpp-sim-in-ci": "1/2"}


def test_channel_balance_reads_the_runs_own_simulations(tmp_cache):
    """The channel loads come from the simulator's ``channel_load`` at the run's own unsaturated loads below 80%
    of the simulated saturation load (short runs on Fig. 1(a)'s network)."""
    run = fake_run(model_sat=2.0, sim_sat=0.002)
    settings = X.SETTINGS.replace(messages=400, warmup_messages=100, batches=5)
    got = X.channel_loads(run, settings)
    assert [f for f, _ in got] == [0.25, 0.5, 0.75]  # the 90 % point is above 80 %
    assert all(x.shape == (1024,) and (x >= 0).all() and x.mean() > 0 for _, x in got)
    t = X.channel_balance_table([run], settings)
    assert list(t["runs"]) == [3] and list(t["channels"]) == [1024] and t["imbalanced"].iloc[0] in (True, False)
    assert 0.8 < t["plus / minus"].iloc[0] < 1.25 and t["raw cv"].iloc[0] > 0
