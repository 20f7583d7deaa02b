"""torus_ipp: the numbers the pages glue (models.torus_ipp.glue), every glue_values_* and the words the data
chooses, on small tables and synthetic runs (the runs: conftest.py)."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.experiment import run_curve
from models.core.setups import SimSettings
from models.torus_ipp import claims as C
from models.torus_ipp import experiments as X
from models.torus_ipp import glue as G
from models.torus_ipp.setups import SETUPS


def test_every_key_is_the_chapters():
    assert G._key("gap", "where") == "torus_ipp-gap-where"
    assert set(G.SETUP_KEYS) == set(SETUPS)


def test_glue_values_of_the_claims_are_words(fake_run):
    runs = [fake_run(setup=su) for su in SETUPS]
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    claims = C.claims_table(runs, fit=fit)
    values = G.glue_values_claims(claims)
    assert len(values) == 4 * len(claims)
    key = "torus_ipp-claim-latency-accuracy-paper"
    assert values[key] == claims.iloc[0]["note"]
    assert values[f"{key}-err"] == "unbounded" and values[f"{key}-ratio"] == "0.500"
    assert values[f"{key}-holds"] == "n/a"
    assert "torus_ipp-claim-latency-accuracy-oneej-ratio" in values
    assert values["torus_ipp-claim-mmpp-fit-all-holds"] == "yes"
    assert values["torus_ipp-claim-blocking-time-exponential-all-holds"] == "not decided"
    ok = C.claims_table([fake_run(model_sat=2.0, err=(0.01, 0.03, 0.04, 0.5))])
    assert G.glue_values_claims(ok)["torus_ipp-claim-latency-accuracy-paper-err"] == "4.0%"


def test_glue_values_of_the_gap_are_numbers_and_the_words_the_data_chooses(fake_run):
    runs = [fake_run(p, tr, su, model_sat=0.5, sim_sat=1.0)
            for su in SETUPS for tr in ("ipp", "poisson") for p in ("Fig. 1(a)", "Fig. 1(b)")]
    r = X.saturation_ratio_table(X.panel_error_table(runs))
    g = G.glue_values_gap(r.assign(**{"sim bracket": [0.01, 0.03, 0.02, 0.01]}))
    assert g == {"torus_ipp-gap-ratio-ipp-min": 0.5, "torus_ipp-gap-ratio-ipp-max": 0.5,
                 "torus_ipp-gap-ratio-poisson-min": 0.5, "torus_ipp-gap-ratio-poisson-max": 0.5,
                 "torus_ipp-gap-maxdiff": 0.0, "torus_ipp-gap-share": 0.0, "torus_ipp-gap-bracket": 0.03,
                 "torus_ipp-gap-source": "core", "torus_ipp-gap-where": G.GAP_WHERE["core"]}
    assert "adaptive-routing core" in g["torus_ipp-gap-where"] and "sentence" not in " ".join(g)
    # the words follow the source the numbers give
    r2 = r.assign(**{"ratio Poisson": 1.0})
    r2["ratio IPP - Poisson"] = r2["ratio IPP"] - r2["ratio Poisson"]
    r2["share of gap"] = (r2["ratio IPP - Poisson"].abs() / (1 - r2["ratio IPP"]).abs())
    assert G.glue_values_gap(r2)["torus_ipp-gap-where"] == G.GAP_WHERE["mmpp"]
    none = G.glue_values_gap(pd.DataFrame())
    assert none.keys() == g.keys() and none["torus_ipp-gap-source"] == "not simulated"
    assert math.isnan(none["torus_ipp-gap-ratio-ipp-min"]) and "nothing was simulated" in none["torus_ipp-gap-where"]
    assert set(G.GAP_WHERE) >= {"core", "mmpp", "both", "unknown", "not simulated"}


def test_glue_values_of_the_paired_runs():
    paired = pd.DataFrame({"setup": ["one ejection channel"] * 2 + ["paper/model"] * 2,
                           "sim IPP / Poisson": [1.5, 1.5, 1.01, 1.03], "sim IPP / Poisson low": [1.4, 1.4, 0.98, 1.0],
                           "model IPP / Poisson": [1.2, 1.2, 1.002, 1.004]})
    v = G.glue_values_paired(paired)   # the default set-up's rows
    assert v["torus_ipp-paired-sim-max"] == pytest.approx(0.03) and v["torus_ipp-paired-sim-min"] == pytest.approx(0.01)
    assert v["torus_ipp-paired-low-max"] == pytest.approx(0.0) and v["torus_ipp-paired-model-max"] == pytest.approx(0.004)
    only = G.glue_values_paired(paired[paired["setup"] == "one ejection channel"])   # else the first set-up
    assert only["torus_ipp-paired-sim-max"] == pytest.approx(0.5)
    assert G.glue_values_paired(None) == {}


def test_glue_values_of_the_latency_page(full_run):
    runs = [full_run(p, su, 1.0 if su == "paper/model" else 0.8) for su in SETUPS for p in ("Fig. 1(a)", "Fig. 1(b)")]
    err = X.panel_error_table(runs)
    v = G.glue_values_latency(runs, err)
    assert v["torus_ipp-err25-max-paper"] == pytest.approx(0.01)
    assert v["torus_ipp-satratio-min-paper"] == v["torus_ipp-satratio-max-paper"] == pytest.approx(0.5)
    assert v["torus_ipp-satratio-max-oneej"] == pytest.approx(0.5)
    assert v["torus_ipp-oneej-simsat-min"] == v["torus_ipp-oneej-simsat-max"] == pytest.approx(0.8)
    # the busiest ejection channel: delivered messages/node/cycle x M (48) at the unsaturated simulated points
    # (the 75 % point; the 90 % point is saturated)
    assert v["torus_ipp-ejection-util-max"] == pytest.approx(0.01 * 0.75 * 48)
    one = G.glue_values_latency(runs[:2], err.iloc[:2])
    assert "torus_ipp-oneej-simsat-min" not in one and "torus_ipp-err25-max-oneej" not in one
    model_only = [run_curve(c.replace(loads=()), lambda c, x: {"latency": 1.0}, model_saturation=lambda c: 1.0)
                  for c in X.paper_figure(1).curves]
    assert G.glue_values_latency(model_only, X.panel_error_table(model_only)) == {}


def test_glue_values_of_the_precision(full_run):
    """A figure's sentence: its unsaturated points (both set-ups), the messages they measured, how many ran to the
    cap and the widest half width; a burstiness scan's rows (``sim ...`` columns, fixed length) read the same way;
    a figure with no simulated point says so."""
    settings = SimSettings(messages=1000, warmup_messages=100, target_ci=0.01, min_messages=200)
    runs = [full_run("Fig. 1(a)", su, 1.0) for su in SETUPS]
    for r in runs:
        r.sim["messages"] = [200, 450, 1000, 1000]  # at 25, 50, 75 and 90 % of saturation (saturated from 85 %)
    (key, text), = G.glue_values_precision(settings, "fig1", runs).items()
    assert key == "torus_ipp-precision-fig1"
    assert "within 1% of its mean: 200 measured messages first, after 100 discarded" in text
    assert "The 6 unsaturated points used 200 to 1,000 messages (2 ran to the cap)" in text
    assert text.endswith("the widest half width is 0.8% of its point's latency.")  # 1 cycle of 125
    scan = pd.DataFrame({"sim latency": [50.0, 80.0, math.inf], "sim latency CI": [1.0, 4.0, math.nan],
                         "sim saturated": [False, False, True], "sim messages": [500, 500, 500]})
    fixed = SimSettings(messages=500, warmup_messages=50)
    assert G.precision_sentence(fixed, scan=scan) == (
        "Every simulated point measured 500 messages after 50 discarded (a fixed length, no precision target); the "
        "widest 95% half width is 5.0% of its point's latency.")
    assert G.precision_sentence(settings) == "No point of this figure was simulated unsaturated."


def test_the_worst_error_at_a_quarter_is_cores_worst_of():
    """``err25-max``: the worst |error| at 25 % over the curves, NaN-safe whatever the order, inf wins."""
    err = pd.DataFrame({"figure": [1, 1, 2], "panel": ["a", "b", "a"], "traffic": ["ipp"] * 3,
                        "setup": ["paper/model"] * 3, "err @25%": [np.nan, -0.2, 0.1],
                        "sat. model / sim": [0.5, 0.6, 0.7], "sat. sim (mu1)": [1.0, 1.0, 1.0]})
    runs = [type("Run", (), {"sim": 1, "curve": X.paper_figure(1).curves[0].replace(setup="none")})()]
    assert G.glue_values_latency(runs, err)["torus_ipp-err25-max-paper"] == pytest.approx(0.2)
    flipped = err.iloc[::-1].reset_index(drop=True)
    assert G.glue_values_latency(runs, flipped)["torus_ipp-err25-max-paper"] == pytest.approx(0.2)
    unbounded = err.assign(**{"err @25%": [0.1, np.inf, np.nan]})
    assert G.glue_values_latency(runs, unbounded)["torus_ipp-err25-max-paper"] == math.inf


def test_glue_values_of_the_traffic_page():
    mom = pd.DataFrame({"max rel. diff vs expm": [1e-12, 3e-12]})
    fitted = pd.DataFrame({"closed-form diff": [2e-16, 1e-15]})
    match = pd.DataFrame({"max rel. diff": [0.0, 4e-16]})
    chk = pd.DataFrame({"reference kind": ["exact CTMC", "simulation", "exact CTMC", "simulation"],
                        "rel. diff": [1e-12, 0.01, -2e-12, 0.3], "eq. 19 (closed G)": [1.0, 10.0, 2.0, 20.0],
                        "reference": [1.0, 10.5, 2.0, 26.0], "reference CI": [0.0, 0.5, 0.0, 1.0]})
    assert G.glue_values_traffic(mom, fitted, match, chk) == {
        "torus_ipp-moment-maxdiff": 3e-12, "torus_ipp-fit-closed-diff": 1e-15, "torus_ipp-fit-match-maxdiff": 4e-16,
        "torus_ipp-mmpp-m1-maxdiff": 2e-12, "torus_ipp-mmpp-sim-inside": 1, "torus_ipp-mmpp-sim-points": 2}


def test_glue_values_of_the_channel_balance():
    """Per set-up: the largest shared spread, the range of the raw spread, how many curves are not equal beyond
    the noise, of how many, and the range of the + / - ratio (numbers: the page writes the sentence); nothing
    without the table."""
    bal = pd.DataFrame({"figure": [1, 1, 1, 1], "panel": ["a", "b", "a", "b"],
                        "setup": ["paper/model"] * 2 + ["one ejection channel"] * 2,
                        "raw cv": [0.07, 0.09, 0.08, 0.06], "sys cv": [0.004, 0.0, 0.05, 0.0],
                        "equal": pd.Series([True, None, False, True], dtype=object),
                        "plus / minus": [1.01, 1.03, 1.0, 1.02]})
    v = G.glue_values_balance(bal)
    assert v == {"torus_ipp-balance-syscv-max-paper": 0.004, "torus_ipp-balance-rawcv-min-paper": 0.07,
                 "torus_ipp-balance-rawcv-max-paper": 0.09, "torus_ipp-balance-notequal-count-paper": 0,
                 "torus_ipp-balance-curves-paper": 2, "torus_ipp-balance-plusminus-min-paper": 1.01,
                 "torus_ipp-balance-plusminus-max-paper": 1.03,
                 "torus_ipp-balance-syscv-max-oneej": 0.05, "torus_ipp-balance-rawcv-min-oneej": 0.06,
                 "torus_ipp-balance-rawcv-max-oneej": 0.08, "torus_ipp-balance-notequal-count-oneej": 1,
                 "torus_ipp-balance-curves-oneej": 2, "torus_ipp-balance-plusminus-min-oneej": 1.0,
                 "torus_ipp-balance-plusminus-max-oneej": 1.02}
    assert all(isinstance(v[k], int) for k in v if "-count-" in k or "-curves-" in k)
    assert G.glue_values_balance(None) == {} and G.glue_values_balance(bal.iloc[0:0]) == {}


def test_glue_values_of_the_blocking_time():
    """The default set-up's CV range, the largest move of the model (a fraction of the simulated latency and
    over the half width) and how many compared points are within the noise."""
    b = pd.DataFrame({"setup": ["paper/model"] * 3 + ["one ejection channel"], "sim b cv": [1.2, 1.8, 1.5, 9.0],
                      "sim latency": [100.0, 200.0, 300.0, 100.0], "shift": [0.5, 1.0, math.nan, 50.0],
                      "shift / CI": [0.5, 0.25, math.nan, 9.0],
                      "within noise": pd.Series([True, True, None, False], dtype=object)})
    assert G.glue_values_blocking(b) == {
        "torus_ipp-blocking-cv-min": 1.2, "torus_ipp-blocking-cv-max": 1.8, "torus_ipp-blocking-shift-max": 0.005,
        "torus_ipp-blocking-shift-ci-max": 0.5, "torus_ipp-blocking-within": 2, "torus_ipp-blocking-compared": 2}
    assert G.glue_values_blocking(None) == {}


def test_burstiness_in_words_is_chosen_by_the_data():
    burst = pd.DataFrame({"setup": ["paper/model", "one ejection channel"], "case": ["paper's networks", "bursts x 100"],
                          "increase": [0.024, math.inf], "low": [0.001, math.inf], "high": [0.05, math.inf],
                          "model": [0.003, math.nan], "points": [2, 1]})
    words = G.burstiness_sentences(burst)
    assert words == {"torus_ipp-burst-paper-paper": "at most +2.4% (95% bounds +0.1% to +5.0%; the model: +0.3%)",
                     "torus_ipp-burst-long-oneej": "at most unbounded (saturated) (95% bounds unbounded (saturated) "
                                                   "to unbounded (saturated))"}
