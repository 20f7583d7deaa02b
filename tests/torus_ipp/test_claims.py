"""torus_ipp: the claims table, the saturation-ratio table and its conclusion, on small synthetic runs."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.claims import CLAIM_COLUMNS, worst_error_below
from models.core.experiment import run_curve
from models.torus_ipp import experiments as X


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


def test_claims_table_columns_and_rows():
    runs = [fake_run(setup=su) for su in X.SETUPS]
    t = X.claims_table(runs)
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert list(t["claim_id"]) == ["latency-accuracy"] * 2 + ["saturation"] * 2
    assert list(t["setup"]) == list(X.SETUPS) * 2
    assert set(t["chapter"]) == {"torus_ipp"} and set(t["kind"]) == {"error", "saturation"}
    assert not t.duplicated(["claim_id", "setup"]).any()
    # model saturates at half the simulated load: infinitely wrong at 75 % (below 80 %), ratio 0.5
    acc = t[t["claim_id"] == "latency-accuracy"].iloc[0]
    assert acc["worst_err"] == math.inf and acc["sat_ratio"] == pytest.approx(0.5)
    assert acc["cause"] == "model" and acc["threshold"] == X.MATCH_THRESHOLD and acc["holds"] is None
    assert all(isinstance(n, str) and n for n in t["note"])


def test_a_changed_error_changes_the_worst_error():
    ok = X.claims_table([fake_run(model_sat=2.0, err=(0.01, 0.03, 0.04, 0.5))])
    acc = ok[ok["claim_id"] == "latency-accuracy"].iloc[0]
    assert acc["worst_err"] == pytest.approx(0.04)  # the 90 % point is above 80 % of saturation
    assert acc["sat_ratio"] == pytest.approx(2.0)
    worse = X.claims_table([fake_run(model_sat=2.0, err=(0.01, -0.2, 0.04, 0.5))])
    assert worse[worse["claim_id"] == "latency-accuracy"].iloc[0]["worst_err"] == pytest.approx(0.2)
    # a model close to the simulation everywhere has no gap to explain
    close = X.claims_table([fake_run(model_sat=1.05, err=(0.01, 0.02, 0.03, 0.04))])
    assert set(close["cause"]) == {"-"}


def test_the_setup_is_named_as_the_cause_when_it_moves_the_saturation():
    runs = [fake_run(setup="paper/model", model_sat=0.5, sim_sat=1.0),
            fake_run(setup="one ejection channel", model_sat=0.5, sim_sat=0.7)]
    t = X.claims_table(runs).set_index(["claim_id", "setup"])
    assert t.loc[("saturation", "paper/model"), "cause"] == "model"
    assert t.loc[("saturation", "one ejection channel"), "cause"] == "simulator set-up"
    assert t.loc[("saturation", "one ejection channel"), "sat_ratio"] == pytest.approx(0.5 / 0.7)


def test_facts_are_computed_from_their_inputs():
    runs = [fake_run()]
    paired = pd.DataFrame({"setup": ["paper/model"] * 2, "fraction": [0.25, 0.5], "sim IPP / Poisson": [1.01, 1.02],
                           "sim IPP / Poisson low": [0.99, 1.0], "sim IPP / Poisson high": [1.03, 1.04],
                           "model IPP / Poisson": [1.0, 1.001]})
    t = X.claims_table(runs, paired=paired).set_index("claim_id")
    assert t.loc["burstiness-paper-networks", "holds"] is False  # even the upper bounds stay below 5 %
    assert t.loc["burstiness-paper-networks", "threshold"] == X.BURST_THRESHOLD
    assert t.loc["burstiness-paper-networks", "cause"] == "paper text"
    # a large increase whose interval straddles the threshold decides nothing ...
    paired.loc[1, ["sim IPP / Poisson", "sim IPP / Poisson low", "sim IPP / Poisson high"]] = [1.2, 1.01, 1.4]
    t = X.claims_table(runs, paired=paired).set_index("claim_id")
    assert t.loc["burstiness-paper-networks", "holds"] is None and t.loc["burstiness-paper-networks", "cause"] == "-"
    # ... a significant one does
    paired.loc[1, "sim IPP / Poisson low"] = 1.1
    t = X.claims_table(runs, paired=paired).set_index("claim_id")
    assert t.loc["burstiness-paper-networks", "holds"] is True and t.loc["burstiness-paper-networks", "cause"] == "-"
    # the long-burst scan: a saturated bursty point counts as an unbounded increase
    mk = lambda lat, sat: pd.DataFrame({"mu1": [0.001, 0.002], "sim latency": lat, "sim latency CI": [1.0, 1.0],
                                        "sim saturated": sat})
    scan = {("paper/model", 0.0): mk([100.0, 120.0], [False, False]),
            ("paper/model", X.LONG_SCALE): mk([101.0, math.inf], [False, True])}
    t = X.claims_table(runs, scan_sims=scan).set_index("claim_id")
    assert t.loc["burstiness-long-bursts", "holds"] is True
    scan[("paper/model", X.LONG_SCALE)] = mk([101.0, 121.0], [False, False])
    assert X.claims_table(runs, scan_sims=scan).set_index("claim_id").loc["burstiness-long-bursts", "holds"] is False
    scan[("paper/model", X.LONG_SCALE)] = mk([101.0, 126.0], [False, False])  # +5 %, interval +3.3 % to +6.8 %
    assert X.claims_table(runs, scan_sims=scan).set_index("claim_id").loc["burstiness-long-bursts", "holds"] is None
    scan[("paper/model", X.LONG_SCALE)] = mk([101.0, 140.0], [False, False])
    assert X.claims_table(runs, scan_sims=scan).set_index("claim_id").loc["burstiness-long-bursts", "holds"] is True
    # the channel fit: needs no simulation
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    row = X.claims_table([], fit=fit).iloc[0]
    assert (row["claim_id"], row["setup"], row["kind"], row["holds"]) == ("mmpp-fit", "-", "fact", True)
    fit.loc[0, "max rel. diff"] = 1e-3
    assert X.claims_table([], fit=fit).iloc[0]["holds"] is False


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
    # the saturation claim says where the gap comes from, computed from the ratios
    t = X.claims_table([x for x in runs if x.curve.model["traffic"] == "ipp"], ratios=r)
    notes = t[t["claim_id"] == "saturation"]["note"]
    assert len(notes) == 2 and all("adaptive-routing core" in n for n in notes)


def test_significance_is_three_valued():
    assert X.significant(0.06, 0.2, 0.05) is True
    assert X.significant(-0.01, 0.04, 0.05) is False
    assert X.significant(0.01, 0.08, 0.05) is None


def test_worst_ratio_and_error_helpers():
    assert X.worst_ratio([0.9, 1.5, 0.5]) == 0.5
    assert X.worst_ratio([0.9, 2.5, 0.5]) == 2.5
    assert math.isnan(X.worst_ratio([math.nan]))
    assert math.isnan(worst_error_below([]))


def test_glue_values_of_the_claims_are_words():
    runs = [fake_run(setup=su) for su in X.SETUPS]
    fit = pd.DataFrame({"max rel. diff": [1e-15, 3e-16]})
    paired = pd.DataFrame({"setup": ["paper/model"] * 2, "fraction": [0.25, 0.5], "sim IPP / Poisson": [1.2, 1.02],
                           "sim IPP / Poisson low": [1.01, 1.0], "sim IPP / Poisson high": [1.4, 1.04],
                           "model IPP / Poisson": [1.0, 1.001]})
    claims = X.claims_table(runs, paired=paired, fit=fit)
    values = X.glue_values_claims(claims)
    assert len(values) == 4 * len(claims)
    key = "torus_ipp-claim-latency-accuracy-paper"
    assert values[key] == claims.iloc[0]["note"]
    assert values[f"{key}-err"] == "unbounded (the model is saturated)" and values[f"{key}-ratio"] == "0.500"
    assert values[f"{key}-holds"] == "n/a"
    assert "torus_ipp-claim-saturation-oneej-ratio" in values
    assert values["torus_ipp-claim-burstiness-paper-networks-paper-holds"] == \
        "undecided (the 95% interval straddles the threshold)"
    assert values["torus_ipp-claim-burstiness-paper-networks-paper-err"] == "n/a"
    assert values["torus_ipp-claim-mmpp-fit-all-holds"] == "yes"
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
