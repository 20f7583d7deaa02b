"""Model against the simulator where the answer is known: zero load (M + h + 1 cycles) and light load;
the experiment skeleton (figures, curves, error tables) of the chapter."""

import math

import numpy as np
import pytest

import pandas as pd

from models.core.claims import CLAIM_COLUMNS, SimSettings, SimulatorSetup, worst_error_below
from models.core.experiment import CurveRun, Figure, run_curve
from models.networks.graph import Torus
from models.torus_dor import solve
from models.torus_dor.__main__ import CHAPTER, sim_curve
from models.torus_dor.experiments import (CLAIMS, DEFAULT_SETUP, FIGURES, SETTINGS, SETUPS, capacity_load,
                                          claims_table, curves_figure, error_summary, figure1, figure2,
                                          format_error_summary, model_column, more_accurate, points_table,
                                          run_figure, sim_kwargs, sim_saturation, simulate_curve, torus_curve,
                                          zero_load_check)


@pytest.mark.parametrize("radices,L,M", [((8, 8), 3, 32), ((4, 6), 2, 16), ((3, 4, 5), 5, 8)])
def test_zero_load_latency_matches_the_simulator_within_one_percent(radices, L, M, tmp_cache):
    z = zero_load_check(torus_curve(radices, L, M), messages=2000)
    assert abs(z["rel. error"]) < 0.01, z
    assert z["model"] == pytest.approx(z["M+h+1"], rel=0.01)


def test_light_load_agreement_and_error_table(tmp_cache):
    c = torus_curve((6, 6), 3, 16, fractions=[0.25])
    settings = SimSettings(messages=3000, warmup_messages=300, batches=10, sat_messages=1500, sat_steps=4)
    run, = run_figure(curves_figure("fig-torus_dor-light", "light load", [c]), settings, model_points=5)
    assert isinstance(run, CurveRun)
    # the simulated saturation load is the search of sim_saturation on the same settings (cached)
    assert run.sim_saturation == sim_saturation(c, settings).load
    t = error_summary([run])
    assert list(t.columns) == ["setup", "curve", "err 25%", "err 50%", "err 75%", "err 90%", "err printed 25%",
                               "err printed 50%", "err printed 75%", "err printed 90%", "worst <80%",
                               "worst printed <80%", "sat model", "sat sim", "sat printed", "sat model / sim",
                               "sat printed / sim"]
    assert t["setup"].iloc[0] == "unidirectional"
    assert abs(t["err 25%"].iloc[0]) < 0.1
    assert t["worst <80%"].iloc[0] == pytest.approx(abs(t["err 25%"].iloc[0]))
    assert 0 < t["sat sim"].iloc[0] < capacity_load(c)
    assert math.isnan(t["err 50%"].iloc[0])  # not run
    assert format_error_summary(t)["err 25%"].iloc[0].endswith("%")
    pts = points_table([run])
    assert pts["rate"].iloc[0] == pytest.approx(0.25 * run.sim_saturation)
    assert pts["model latency"].iloc[0] == solve(pts["rate"].iloc[0], **c.model).latency
    # the model line stops short of the model's saturation load
    line = run.model[np.isnan(run.model["fraction"])]
    assert len(line) == 10  # a line for the default reading and one for the printed reading
    assert np.isfinite(line["latency"]).sum() >= 5 and np.isfinite(line["latency printed"]).sum() >= 5


def test_figures_are_the_papers():
    assert list(FIGURES) == ["fig-torus_dor-fig1", "fig-torus_dor-fig2"]
    assert all(isinstance(f, Figure) and f.label == key for key, f in FIGURES.items())
    fig1, fig2 = FIGURES["fig-torus_dor-fig1"], FIGURES["fig-torus_dor-fig2"]
    assert len(fig1.curves) == 24
    assert {c.setup for c in fig1.curves} == {"unidirectional", "bidirectional"}
    assert [c.setup for c in fig2.curves] == ["unidirectional", "bidirectional"]
    assert fig2.curves[0].model["radices"] == (16, 16) and fig2.curves[0].model["L"] == 5
    f = figure1(networks=[[8, 8]], M_values=[32], vcs_values=[3, 5], fractions=[0.5])
    assert [c.label for c in f.curves] == ["8x8, L=3, M=32", "8x8, L=5, M=32", "8x8 bi, L=3, M=32",
                                           "8x8 bi, L=5, M=32"]
    assert all(c.loads == (0.5,) and c.fractions_of == "sim" for c in f.curves)
    assert [c.label for c in figure2(setups=["unidirectional"]).curves] == ["16x16, L=5, M=32"]
    with pytest.raises(ValueError, match="L"):
        torus_curve((8, 8), 1, 32)
    with pytest.raises(ValueError, match="setup"):
        torus_curve((8, 8), 3, 32, setup="mesh")
    with pytest.raises(ValueError, match="contradicts"):
        torus_curve((8, 8), 3, 32, setup="unidirectional", bidirectional=True)


# ---------------------------------------------------------------- simulator set-ups
def test_setups_differ_only_in_the_knob_they_name():
    assert list(SETUPS) == ["unidirectional", "bidirectional"] and DEFAULT_SETUP == "unidirectional"
    assert all(isinstance(s, SimulatorSetup) and s.name == k and s.description for k, s in SETUPS.items())
    assert all(s.stands_for == "model" for s in SETUPS.values())  # each: the model on its own torus
    a, b = SETUPS["unidirectional"].sim(), SETUPS["bidirectional"].sim()
    assert set(a) == set(b) == {"bidirectional"} and a != b
    settings = SimSettings(messages=1000, warmup_messages=100, batches=10, seed=7)
    cu = torus_curve((8, 8), 3, 32, setup="unidirectional")
    cb = torus_curve((8, 8), 3, 32, setup="bidirectional")
    su, sb = sim_kwargs(cu, 0.002, settings), sim_kwargs(cb, 0.002, settings)
    # the simulator's keywords: the same everything (seed, VCs, buffers, tie rule...) but the torus
    assert set(su) == set(sb) and {k for k in su if su[k] != sb[k]} == {"topology"}
    assert su["seed"] == sb["seed"] == 7 and su["tie"] == sb["tie"] == "random" and su["rate"] == 0.002
    assert (su["messages"], su["warmup_messages"], su["batches"]) == (1000, 100, 10)
    tu, tb = su["topology"], sb["topology"]
    assert isinstance(tu, Torus) and isinstance(tb, Torus)
    assert tu.radices == tb.radices and (tu.bidirectional, tb.bidirectional) == (False, True)
    # the model's keywords: the same torus as the simulator's
    assert {k for k in cu.model if cu.model[k] != cb.model[k]} == {"bidirectional"}
    assert cu.model["bidirectional"] is tu.bidirectional and cb.model["bidirectional"] is tb.bidirectional
    assert (cu.setup, cb.setup) == ("unidirectional", "bidirectional")
    # a curve whose model and simulated torus disagree is refused
    bad = cu.replace(sim={"bidirectional": True})
    with pytest.raises(ValueError, match="bidirectional"):
        sim_kwargs(bad, 0.002, settings)


def test_the_command_line_curve_is_the_models_torus():
    """The CLI's bare curve (the solver's keywords): the set-up follows --bidirectional, M as an integer."""
    options = {"radices": [8, 8], "L": 3, "M": 32.0, "bidirectional": False}
    kw = sim_kwargs(sim_curve(options, "unidirectional"), 0.001, SETTINGS)
    assert kw["message_length"] == 32 and isinstance(kw["message_length"], int)
    assert kw["topology"] == Torus((8, 8), bidirectional=False) and kw["messages"] == 120_000
    bi = sim_curve(dict(options, bidirectional=True), "unidirectional")  # the default set-up follows the flag
    assert bi.setup == "bidirectional" and sim_kwargs(bi, 0.001, SETTINGS)["topology"].bidirectional
    assert sim_curve(dict(options, bidirectional=True), "bidirectional").setup == "bidirectional"
    with pytest.raises(ValueError, match="`setup` 'bidirectional'"):
        sim_curve(options, "bidirectional")
    assert CHAPTER.setups == tuple(SETUPS) and CHAPTER.simulates
    # a curve without set-up overrides: the model's torus
    for bidirectional in (False, True):
        bare = torus_curve((4, 4), 3, 8, bidirectional=bidirectional).replace(sim={})
        assert sim_kwargs(bare, 0.01, SETTINGS)["topology"].bidirectional is bidirectional


def test_simulate_curve_rows(tmp_cache):
    c = torus_curve((4, 4), 3, 8)
    settings = SimSettings(messages=400, warmup_messages=50, batches=5)
    rows = simulate_curve(c, [0.005, 0.01], settings)
    assert [sorted(r) for r in rows] == [["hops", "latency", "latency CI", "multiplexing", "result", "saturated"]] * 2
    assert all(r["latency"] == r["result"].latency and not r["saturated"] for r in rows)


# ---------------------------------------------------------------- claims table (synthetic runs)
def _synthetic_run(curve, sim_latency, model_latency, other=None, sat_sim=0.01):
    """A CurveRun from fixed numbers at fractions (0.25, 0.5, 0.75, 0.9) of ``sat_sim`` (no model, no simulator)."""
    fr = (0.25, 0.5, 0.75, 0.9)
    curve = curve.replace(loads=fr, fractions_of="sim")
    loads = [f * sat_sim for f in fr]
    mod = dict(zip(loads, model_latency))
    oth = {k: dict(zip(loads, v)) for k, v in (other or {}).items()}
    sims = dict(zip(loads, sim_latency))

    def model(c, x):
        return {"latency": mod[x], **{f"latency {k}": v[x] for k, v in oth.items()}}

    def sim(c, xs):
        return [{"latency": sims[x], "latency CI": 1.0, "saturated": not math.isfinite(sims[x])} for x in xs]

    return run_curve(curve, model, sim, model_saturation=lambda c: 0.8 * sat_sim,
                     sim_saturation=lambda c, m: sat_sim)


def test_worst_below_and_more_accurate():
    c = torus_curve((4, 4), 3, 8)
    run = _synthetic_run(c, [10, 20, 40, 80], [11, 18, 48, math.inf], {"2003": [12, math.inf, math.inf, 1]})
    assert worst_error_below(run) == pytest.approx(0.2)  # 0.9 is above 80% of the simulated saturation load
    assert worst_error_below(run, column=model_column("2003")) == math.inf
    assert more_accurate(run) is True  # saturated at fewer of the loads below 80%
    run2 = _synthetic_run(c, [10, 20, 40, 80], [11, 18, 48, 1], {"2003": [10.5, 21, 41, 1]})
    assert more_accurate(run2) is False  # as many saturated (none): the smaller mean error wins
    run3 = _synthetic_run(c, [10, 20, math.inf, 80], [11, 18, math.inf, 1])
    assert worst_error_below(run3) == pytest.approx(0.1)  # a saturated simulation point has no error
    assert model_column("printed") == "model latency printed" and model_column() == "model latency"
    with pytest.raises(ValueError, match="`which`"):
        model_column("2005")


def test_claims_table_columns_and_numbers():
    cu = torus_curve((4, 4), 3, 8, setup="unidirectional")
    cb = torus_curve((4, 4), 3, 8, setup="bidirectional")
    fig1 = [_synthetic_run(cu, [10, 20, 40, 80], [11, 18, 48, 1], {"printed": [10, math.inf, math.inf, 1]}),
            _synthetic_run(cb, [10, 20, 40, 80], [10, 21, 41, 1], {"printed": [10, 22, 44, 1]})]
    fig2 = [_synthetic_run(c, [10, 20, 40, 80], [11, 18, 48, 1], {"2003": [12, math.inf, math.inf, 1]})
            for c in (cu, cb)]
    rd = pd.DataFrame({"torus": ["unidirectional", "bidirectional"], "network": ["4x4, L=3, M=8"] * 2,
                       "default": [True, True], "W d0": [0.1, 0.2], "W d1": [0.1, 0.3],
                       "every dimension blocks": [True, True], "later than 2003": [True, False],
                       "sat 2004 / 2003": [1.2, 0.9]})
    t = claims_table(fig1, fig2, rd)
    assert tuple(t.columns) == CLAIM_COLUMNS
    assert set(t["claim_id"]) == set(CLAIMS)
    assert not t.duplicated(["claim_id", "setup"]).any()
    assert set(t["kind"]) <= {"error", "saturation", "fact"}
    assert set(t["cause"]) <= {"model", "paper text", "simulator set-up", "-"}
    assert (t["chapter"] == "torus_dor").all() and t["threshold"].isna().all()
    assert all(c.startswith('"') for c in t["claim"])
    row = t.set_index(["claim_id", "setup"])
    assert row.loc[("fig1-accuracy", "unidirectional"), "worst_err"] == pytest.approx(0.2)
    assert row.loc[("fig1-accuracy", "bidirectional"), "worst_err"] == pytest.approx(0.05)
    assert row.loc[("fig1-accuracy-printed", "unidirectional"), "worst_err"] == math.inf
    assert row.loc[("fig1-accuracy", "unidirectional"), "holds"] is None
    assert row.loc[("fig2-more-accurate", "unidirectional"), "holds"] is True
    assert row.loc[("reading-every-dimension-blocks", "-"), "holds"] is True
    assert row.loc[("reading-saturates-after-2003", "-"), "holds"] is False
    # a changed simulated latency changes the number
    fig1b = [_synthetic_run(cu, [10, 30, 40, 80], [11, 18, 48, 1], {"printed": [10, math.inf, math.inf, 1]}),
             fig1[1]]
    tb = claims_table(fig1b, fig2, rd).set_index(["claim_id", "setup"])
    assert tb.loc[("fig1-accuracy", "unidirectional"), "worst_err"] == pytest.approx(0.4)
    # saturation: the 2004 model (0.8 of the simulated load) against the 2003 model's own load
    sat = row.loc[("fig2-saturation-closer", "unidirectional")]
    assert sat["sat_ratio"] == pytest.approx(0.8) and sat["holds"] in (True, False)
