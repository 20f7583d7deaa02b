"""The shared experiment vocabulary (models/core/claims.py): set-ups, settings, the worst error, the claims file."""

from __future__ import annotations

import math
import multiprocessing as mp

import numpy as np
import pandas as pd
import pytest

from models.core.claims import (CLAIM_COLUMNS, Claim, claims_file, claims_frame, counted_below, errors_below,
                                 furthest_from_one, save_claims, setups_table, worst_error_below, worst_of)
from models.core.experiment import run_curve
from models.core.results import SimPoint
from models.core.setups import BELOW, Curve, SimSettings, SimulatorSetup, named_setup


# ----------------------------------------------------------------------------
# Set-ups
# ----------------------------------------------------------------------------
def _ejection(model):
    """4 V (every input's VCs)"""
    return 4 * int(model["V"])


def test_setup_resolves_placeholders():
    s = SimulatorSetup("model", "as the model assumes", "model", {"ejection_vcs": "V", "x": _ejection, "y": 2})
    assert s.sim({"V": 3, "k": 8}) == {"ejection_vcs": 3, "x": 12, "y": 2}
    assert s.sim(5)["ejection_vcs"] == 5
    assert s.knobs == ("ejection_vcs", "x", "y")
    assert s.short == "model" and s.decides


def test_setup_refuses_bad_fields():
    with pytest.raises(ValueError, match="stands_for"):
        SimulatorSetup("a", "b", "the paper")
    with pytest.raises(ValueError, match="name"):
        SimulatorSetup("", "b")
    with pytest.raises(ValueError, match="needs the curve's number of VCs"):
        SimulatorSetup("a", "b", "", {"vcs": "V"}).sim()
    assert not SimulatorSetup("ours", "neither").decides


def test_named_setup_and_table():
    setups = {"paper": SimulatorSetup("paper", "as stated", "paper", {"ejection_vcs": 1}),
              "model": SimulatorSetup("model", "as assumed", "model", {"ejection_vcs": _ejection})}
    assert named_setup(setups, "paper") is setups["paper"]
    assert named_setup(setups, setups["model"]) is setups["model"]
    with pytest.raises(ValueError, match=r"`setup` must be one of \['paper', 'model'\]"):
        named_setup(setups, "other")
    t = setups_table(setups)
    assert list(t.columns) == ["setup", "stands for", "sets", "description"]
    assert t["sets"].tolist() == ["ejection_vcs=1", "ejection_vcs=4 V (every input's VCs)"]


# ----------------------------------------------------------------------------
# Settings
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [dict(messages=10), dict(warmup_messages=-1), dict(cycles=0), dict(batches=1),
                                 dict(target_ci=0.0), dict(sat_rtol=0.6), dict(sat_steps=0), dict(jobs=0),
                                 dict(cache="yes"), dict(seed=1.5)])
def test_settings_refuse_bad_values(bad):
    with pytest.raises(ValueError, match=f"`{next(iter(bad))}`"):
        SimSettings(**bad)


def test_settings_defaults_and_replace():
    s = SimSettings(messages=3000)
    assert s.probe_messages == 3000
    assert s.replace(sat_messages=2000).probe_messages == 2000
    with pytest.raises(ValueError):
        s.replace(messages=1)


# ----------------------------------------------------------------------------
# The worst error below 80 % of the simulated saturation
# ----------------------------------------------------------------------------
def _run(model_at, sim_at, fractions, *, sim_sat=1.0, basis="sim", sim_saturated=()):
    """A run of run_curve with a model and a simulation given as functions of the load."""
    curve = Curve("c", loads=tuple(fractions), fractions_of="sim" if basis == "sim" else None)

    def model(c, x):
        y = model_at(x)
        return {"latency": y, "saturated": not math.isfinite(y)}

    def sim(c, xs):
        return [SimPoint(sim_at(x), 0.1, bool(round(x, 6) in sim_saturated))
                for x in xs]

    return run_curve(curve, model, sim, model_saturation=lambda c: 2.0, sim_saturation=lambda c, m: sim_sat)


def test_worst_error_is_a_fraction_strictly_below_the_cut():
    # errors 10 % at 0.25, 20 % at 0.5, 30 % at 0.75 and 50 % at exactly 0.8 (excluded: the cut is strict)
    err = {0.25: 0.1, 0.5: 0.2, 0.75: 0.3, 0.8: 0.5}
    run = _run(lambda x: 100 * (1 + err[round(x, 6)]), lambda x: 100.0, (0.25, 0.5, 0.75, 0.8))
    assert worst_error_below(run) == pytest.approx(0.3)
    # 0.8 is not one of the fixed accuracy fractions: never counted, whatever the cut
    assert worst_error_below(run, below=0.81) == pytest.approx(0.3)
    assert worst_error_below(run, below=0.7) == pytest.approx(0.2)
    assert sorted(errors_below(run)) == pytest.approx([0.1, 0.2, 0.3])
    assert BELOW == 0.8


def test_worst_error_unbounded_where_only_the_model_saturates():
    run = _run(lambda x: math.inf if x > 0.6 else 110.0, lambda x: 100.0, (0.25, 0.5, 0.75))
    assert worst_error_below(run) == math.inf
    assert worst_error_below(run, finite=True) == pytest.approx(0.1)


def test_worst_error_leaves_out_saturated_simulations_and_other_bases():
    run = _run(lambda x: 120.0, lambda x: 100.0, (0.25, 0.5), sim_saturated=(0.5,))
    assert errors_below(run).size == 1
    absolute = _run(lambda x: 120.0, lambda x: 100.0, (0.25, 0.5), basis="absolute")
    assert math.isnan(worst_error_below(absolute))
    # several runs: the worst of all
    a = _run(lambda x: 105.0, lambda x: 100.0, (0.25,))
    b = _run(lambda x: 80.0, lambda x: 100.0, (0.5,))
    assert worst_error_below([a, b]) == pytest.approx(0.2)
    assert math.isnan(worst_error_below([]))
    with pytest.raises(ValueError, match="below"):
        worst_error_below(a, below=0)


def test_worst_error_on_another_model_column():
    run = _run(lambda x: 110.0, lambda x: 100.0, (0.25,))
    with pytest.raises(KeyError):
        run.points()["model other"]
    assert math.isnan(worst_error_below(run, column="model other"))


# ----------------------------------------------------------------------------
# The claims file
# ----------------------------------------------------------------------------
SETUPS = {s.name: s for s in (SimulatorSetup("paper", "as the paper", "paper"),
                               SimulatorSetup("model", "as the model", "model"),
                               SimulatorSetup("ours", "neither", ""))}


def _claims(ids, chapter="toy"):
    return claims_frame(Claim(i, "Sec. 1", f"claim {i}", "error", quantifier="all").row(
        chapter, "paper", worst_err=0.1, sat_ratio=1.0,
                                                                       holds=h)
                        for i, h in zip(ids, [True, False, None, True]))


def test_claims_file_name():
    assert claims_file("torus_nbc") == "tab-torus_nbc-claims.csv"
    with pytest.raises(ValueError):
        claims_file("../x")


def test_save_claims_writes_the_table(tmp_path):
    out = save_claims(_claims(["a", "b", "c"]), "toy", tmp_path, setups=SETUPS)
    back = pd.read_csv(tmp_path / "tab-toy-claims.csv", keep_default_na=False)
    assert tuple(back.columns) == CLAIM_COLUMNS
    assert back["holds"].tolist() == ["True", "False", ""]
    assert out["claim_id"].tolist() == ["a", "b", "c"]
    # without `owns`, a second write replaces the file
    save_claims(_claims(["d"]), "toy", tmp_path, setups=SETUPS)
    assert pd.read_csv(tmp_path / "tab-toy-claims.csv")["claim_id"].tolist() == ["d"]


def test_save_claims_merges_notebooks_in_order(tmp_path):
    order = ["a", "b", "c", "d"]
    save_claims(_claims(["c", "d"]), "toy", tmp_path, setups=SETUPS, owns={"c", "d"}, order=order)
    save_claims(_claims(["b", "a"]), "toy", tmp_path, setups=SETUPS, owns={"a", "b"}, order=order)
    save_claims(_claims(["c"]), "toy", tmp_path, setups=SETUPS, owns={"c", "d"}, order=order)  # d gone: a re-run leaves no stale row
    assert pd.read_csv(tmp_path / "tab-toy-claims.csv")["claim_id"].tolist() == ["a", "b", "c"]


def test_save_claims_refuses_wrong_tables(tmp_path):
    with pytest.raises(ValueError, match="exactly the columns"):
        save_claims(_claims(["a"]).drop(columns="note"), "toy", tmp_path, setups=SETUPS)
    with pytest.raises(ValueError, match="other chapters"):
        save_claims(_claims(["a"], chapter="other"), "toy", tmp_path, setups=SETUPS)
    with pytest.raises(ValueError, match="repeated"):
        save_claims(_claims(["a", "a"]), "toy", tmp_path, setups=SETUPS)
    with pytest.raises(ValueError, match="not among"):
        save_claims(_claims(["a", "z"]), "toy", tmp_path, setups=SETUPS, owns={"a"})
    with pytest.raises(ValueError, match="not one of the chapter's set-ups"):  # set-ups are declared once
        save_claims(_claims(["a"]).assign(setup="unidirectional"), "toy", tmp_path, setups=SETUPS)
    with pytest.raises(ValueError, match="not one of the chapter's set-ups"):
        save_claims(_claims(["a"]), "toy", tmp_path)
    assert not (tmp_path / "tab-toy-claims.csv").exists()
    two = _claims(["a", "a", "a"]).assign(setup=["paper", "model", "ours"])  # rows: set-ups (and cases) of a claim
    out = save_claims(two, "toy", tmp_path, setups=SETUPS)
    assert out["stands_for"].tolist() == ["paper", "model", "neither"]
    cases = _claims(["a", "a"]).assign(case=["M = 8", "M = 32"])
    assert len(save_claims(cases, "toy", tmp_path, setups=SETUPS)) == 2


def test_a_claim_states_whose_tolerance():
    c = Claim("x", "Sec. 5", "less than 5% error", "error", 0.05, "less than 5%", quantifier="all")
    assert c.row("toy")["threshold_quote"] == "less than 5%"
    with pytest.raises(ValueError, match="threshold_quote"):
        Claim("x", "Sec. 5", "accurate", "error", 0.1, quantifier="all")  # a tolerance without the paper's words
    with pytest.raises(ValueError, match="yardstick"):
        Claim("x", "Sec. 5", "less than 5%", "error", 0.05, "less than 5%", yardstick=0.1, quantifier="all")
    with pytest.raises(ValueError, match="kind"):
        Claim("x", "Sec. 5", "q", "accuracy", quantifier="all")
    with pytest.raises(ValueError, match="cause"):
        Claim("x", "Sec. 5", "q", "fact", quantifier="all").row("toy", cause="luck")


def _write(args):
    directory, ids = args
    save_claims(_claims(ids), "toy", directory, setups=SETUPS, owns=set(ids), order=[chr(c) for c in range(97, 123)])


def test_save_claims_from_parallel_notebooks(tmp_path):
    groups = [["a", "b"], ["c"], ["d", "e"], ["f"]]
    with mp.get_context("fork").Pool(4) as pool:
        pool.map(_write, [(str(tmp_path), g) for g in groups * 3])
    assert pd.read_csv(tmp_path / "tab-toy-claims.csv")["claim_id"].tolist() == list("abcdef")
    assert np.all([p.name == "tab-toy-claims.csv" for p in tmp_path.iterdir()])


def test_worst_of_is_nan_safe_and_order_free():
    # Python's max depends on where the NaN stands: max(nan, 0.2) is nan, max(0.2, nan) is 0.2
    for values in ([math.nan, 0.2, 0.1], [0.2, math.nan, 0.1], [0.1, 0.2, math.nan]):
        assert worst_of(values) == 0.2
    assert worst_of([0.3, math.inf, math.nan]) == math.inf  # unbounded wins
    assert math.isnan(worst_of([math.nan, math.nan])) and math.isnan(worst_of([]))


def test_furthest_from_one_in_the_log_sense():
    assert furthest_from_one([0.9, 1.5, 0.5]) == 0.5  # |log 0.5| > |log 1.5|
    assert furthest_from_one([1.9, math.nan, 0.6, -1, math.inf, 0]) == 1.9  # only finite positive ratios count
    assert math.isnan(furthest_from_one([math.nan, 0.0]))
    assert furthest_from_one([2.0, 0.5]) in (2.0, 0.5)  # equally far


def test_counted_below_is_the_one_cut():
    frac = [0.25, 0.5, 0.79, 0.8, 0.9, math.nan]
    sim = [10.0, 12.0, math.inf, 20.0, 30.0, 11.0]
    assert list(counted_below(frac, sim)) == [True, True, False, False, False, False]
    assert list(counted_below(frac, sim, [False, True, False, False, False, False])) == [True, False, False, False,
                                                                                          False, False]
    assert list(counted_below(None, sim)) == [True, True, False, True, True, True]  # no cut: every finite point


def test_a_simpoint_checks_its_fields_and_gives_one_row():
    p = SimPoint(50.0, 1.5, False, extra={"hops": 3.0})
    assert p.record() == {"latency": 50.0, "latency CI": 1.5, "saturated": False, "hops": 3.0}
    assert SimPoint(math.inf, math.nan, True).saturated
    for bad in (dict(latency=-1.0), dict(latency=math.nan), dict(latency="50"), dict(latency=1.0, saturated="no"),
                dict(latency=1.0, extra={"latency CI": 2.0})):
        with pytest.raises(ValueError):
            SimPoint(**bad)


def test_a_claim_records_its_quantifier_from_its_own_words():
    q = "The model is accurate in all cases."
    assert Claim("x", "Sec. 5", q, "error", quantifier="all", quantifier_quote="in all cases").row("toy")[
        "quantifier_quote"] == "in all cases"
    assert Claim("x", "Sec. 5", q, "error", quantifier="all").row("toy")["quantifier"] == "all"  # no word: general
    with pytest.raises(ValueError, match="quantifier"):
        Claim("x", "Sec. 5", q, "error")  # required
    with pytest.raises(ValueError, match="quantifier"):
        Claim("x", "Sec. 5", q, "error", quantifier="many")
    with pytest.raises(ValueError, match="verbatim"):
        Claim("x", "Sec. 5", q, "error", quantifier="some", quantifier_quote="can")  # not the sentence's words
    with pytest.raises(ValueError, match="quantifier_quote"):
        Claim("x", "Sec. 5", q, "error", quantifier="some")  # "some" needs the words that say it


def test_a_row_shown_not_deciding_says_why_and_a_fact_names_its_criterion():
    c = Claim("x", "Sec. 5", "It holds.", "fact", quantifier="one")
    row = c.row("toy", holds=True, criterion="exact", decides=False, shown_why="a reading chosen so that it holds")
    assert row["decides"] is False and row["shown_why"].startswith("a reading")
    with pytest.raises(ValueError, match="shown_why"):
        c.row("toy", holds=True, criterion="exact", decides=False)
    with pytest.raises(ValueError, match="shown_why"):
        c.row("toy", holds=True, criterion="exact", shown_why="why")  # only with decides=False
    with pytest.raises(ValueError, match="criterion"):
        c.row("toy", holds=True)  # a fact's holds comes from a declared criterion
    with pytest.raises(ValueError, match="criterion"):
        c.row("toy", holds=True, criterion="my own")
    assert c.row("toy")["criterion"] == ""  # no holds value: nothing decided, no criterion


def _bracketed_run(model_sat, bracket=(0.99, 1.01)):
    """A curve whose simulated saturation load lies in ``bracket`` (midpoint 1), simulated at 0.25/0.5/0.75 of it;
    the model 10 % high where it is not saturated, saturated from ``model_sat`` on."""
    from models.core.saturation import Saturation

    lo, hi = bracket
    sat = Saturation(load=0.5 * (lo + hi), lo=lo, hi=hi, steps=8, evaluations=10, outside="", rtol=0.0,
                     max_steps=8, probes=())
    curve = Curve("toy", {"M": 32}, {}, loads=(0.25, 0.5, 0.75), fractions_of="sim")

    def model(c, x):
        return {"latency": math.inf if x >= model_sat else 110.0, "saturated": x >= model_sat}

    def sim(c, xs):
        return [SimPoint(100.0, 0.1, False) for _ in xs]

    return run_curve(curve, model, sim, model_saturation=lambda c: model_sat, sim_saturation=lambda c, m: sat)


@pytest.mark.parametrize("model_sat, worst, uncertain", [
    (0.74, math.inf, False),   # saturated at 0.75 x S for every S in [0.99, 1.01]: unbounded, whatever the noise
    (0.7475, 0.1, True),       # inside 0.75 x [0.99, 1.01]: the grid point (0.75 x 1.0) says finite; uncertain
    (0.7525, 0.1, True),       # the grid point says unbounded; still uncertain, and the finite error stands
    (0.76, 0.1, False),        # above 0.75 x 1.01: bounded
])
def test_unbounded_is_decided_from_the_saturation_bracket_not_one_grid_point(model_sat, worst, uncertain):
    from models.core.claims import Accuracy, accuracy_below, bracket_status, row_outcome

    acc = accuracy_below(_bracketed_run(model_sat))
    assert acc.worst == pytest.approx(worst) and bool(acc.uncertain) is uncertain
    assert bracket_status(model_sat, (0.99, 1.01), 0.75) == ("unbounded" if worst == math.inf else
                                                              "uncertain" if uncertain else "bounded")
    outcome = row_outcome("error", acc.worst, threshold=0.05, uncertain=acc.uncertain)
    assert outcome == ("fail" if not uncertain else "uncertain")  # 10 % > 5 %, unless uncertain
    both = Accuracy.combine([acc, Accuracy(math.inf)])
    assert both.worst == math.inf  # a certainly unbounded curve decides, whatever another's bracket
    assert row_outcome("error", both.worst, uncertain=both.uncertain) == "fail"
