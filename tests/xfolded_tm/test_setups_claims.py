"""The chapter's simulator set-ups, the validation grid and the claims table (synthetic inputs, no long runs)."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from models.core.claims import BELOW, CLAIM_COLUMNS, SimulatorSetup, worst_error_below
from models.core.experiment import Curve, run_curve
from models.sim.wormhole import simulate
from models.xfolded_tm.__main__ import CHAPTER, sim_curve
from models.xfolded_tm.experiments import (DEFAULT_SETUP, SETTINGS, SETUP_KNOBS, SETUPS, TOPOLOGIES, check_setup,
                                           claims_table, delay_curve, delay_figure, distance_table, glue_values,
                                           glue_values_errors, glue_values_topology, sim_kwargs, sim_zero_load,
                                           topology_claims, unsupported, validation_curve, validation_figure,
                                           validation_grid, validation_table, vc_saturation_table)

#: Short runs for the translation's tests.
SHORT = SETTINGS.replace(messages=1000, warmup_messages=100, batches=5)


# ----------------------------------------------------------------------------
# Set-ups
# ----------------------------------------------------------------------------
def _named(name, V):
    return SETUPS[name].sim(V)


@pytest.mark.parametrize("a, b", list(itertools.combinations(SETUPS, 2)))
@pytest.mark.parametrize("V", [2, 8])
def test_setups_differ_only_in_the_knobs_they_name(a, b, V):
    """Same curve, two set-ups: the simulator's keyword arguments differ only in the set-ups' named knobs."""
    ca, cb = delay_curve("torus", V, [0.1], setup=a), delay_curve("torus", V, [0.1], setup=b)
    ka, kb = sim_kwargs(ca, 0.1 / 32, SHORT), sim_kwargs(cb, 0.1 / 32, SHORT)
    assert set(ka) == set(kb)
    differ = {key for key in ka if ka[key] != kb[key]}
    named = {knob for knob in SETUP_KNOBS if _named(a, V)[knob] != _named(b, V)[knob]}
    assert differ == named
    # and the rest is identical: seed, network, routing, VCs, message length, run lengths
    for key in ("seed", "topology", "routing", "vcs", "message_length", "rate", "messages", "warmup_messages",
                "batches"):
        assert ka[key] == kb[key]
    assert ca.model == cb.model and ca.sim == cb.sim and ca.loads == cb.loads


def test_the_setups_knobs():
    assert _named("ours", 8) == dict(router="ideal", buffer_depth=2, router_delay=1, injection_vcs=8, ejection_vcs=1)
    # "model" is "ours" with V ejection VCs: one knob
    diff = {k for k in SETUP_KNOBS if _named("ours", 8)[k] != _named("model", 8)[k]}
    assert diff == {"ejection_vcs"} and _named("model", 8)["ejection_vcs"] == 8
    # "booksim": BookSim's router, 8-flit buffers, one injection VC, BookSim's default of V ejection VCs
    assert _named("booksim", 2) == dict(router="booksim", buffer_depth=8, router_delay=1, injection_vcs=1,
                                        ejection_vcs=2)
    assert {s.stands_for for s in SETUPS.values()} == {"", "model", "paper"}
    assert SETUPS[DEFAULT_SETUP].stands_for == "model" and SETUPS["ours"].stands_for == ""
    with pytest.raises(ValueError, match="must name exactly"):
        check_setup(SimulatorSetup("x", "x", "", dict(router="ideal")))


def test_unsupported_is_checked_up_front():
    grid = validation_grid(vcs=[2, 3, 8], message_lengths=[32])
    why = grid.set_index(["key", "V", "setup"])["reason"]
    assert why[("torus", 2, "booksim")] == "" and why[("torus", 8, "booksim")] == ""
    assert "even" in why[("torus", 3, "booksim")]
    for key in ("tm", "xfolded_printed", "xfolded_completed"):
        assert "wait_for_tail_credit" in why[(key, 2, "booksim")] and why[(key, 2, "model")] == ""
    # the figures leave the unsupported pairs out, and the translation refuses them instead of the simulator
    fig = validation_figure(grid, [0.5])
    assert len(fig.curves) == int((grid["reason"] == "").sum())
    assert not any(c.setup == "booksim" and c.sim["topology"] != "torus" for c in fig.curves)
    assert [c.setup for c in delay_figure(2, [0.1], keys=["tm"], setups=list(SETUPS)).curves] == ["ours", "model"]
    bad = delay_curve("tm", 2, [0.1], setup="ours").replace(setup="booksim")
    with pytest.raises(ValueError, match="cannot run"):
        sim_kwargs(bad, 0.001)
    assert unsupported("tm", 2, SETUPS["booksim"]) == unsupported("tm", 2, "booksim") != ""


def test_zero_load_of_the_setups():
    assert sim_zero_load("ours", 32, 4.0) == 32 + 5
    assert sim_zero_load("model", 1, 4.0) == 1 + 5
    assert sim_zero_load("booksim", 32, 4.0) == 32 + 5 * 5 + 1


def test_booksim_setup_runs_the_torus_at_its_zero_load():
    c = validation_curve("torus", 2, 8, "booksim", [0.5])
    kw = sim_kwargs(c, 0.005 / 8, SETTINGS.replace(messages=1500, warmup_messages=200, batches=5))
    r = simulate(**kw)
    d = 4.0635  # 8x8 torus, uniform over the other nodes
    assert not r.saturated
    assert r.latency == pytest.approx(sim_zero_load("booksim", 8, r.mean_hops), rel=0.03)
    assert r.mean_hops == pytest.approx(d, rel=0.05)


# ----------------------------------------------------------------------------
# Worst error, validation table, VC saturation (synthetic simulations)
# ----------------------------------------------------------------------------
def _fake_runs(grid, sim_sat, model_over_sim, fractions=(0.25, 0.5, 0.75, 0.9)):
    """Runs of the validation figure of ``grid`` with made-up simulations.

    ``sim_sat(curve)`` and ``model_over_sim(curve, fraction)``: the simulated
    saturation and the model's latency as a multiple of the simulated one
    (``inf``: the model saturated).
    """
    fig = validation_figure(grid, fractions)

    def model(c, x):
        f = x / sim_sat(c)
        m = model_over_sim(c, round(f, 6))
        return {"latency": 100.0 * m, "saturated": not math.isfinite(m), "lam": x, "latency (Thm 1 printed)": 1.0}

    def sim(c, loads):
        return [{"latency": 100.0, "latency CI": 1.0, "saturated": False, "mean hops": 4.0} for _ in loads]

    return [run_curve(c, model, sim, model_saturation=lambda c: 0.9 * sim_sat(c),
                      sim_saturation=lambda c, m: sim_sat(c)) for c in fig.curves]


def _grid():
    return validation_grid(keys=["torus", "tm"], vcs=[2, 8], message_lengths=[8, 32], setups=list(SETUPS))


def test_worst_error_is_below_80_percent_of_the_simulated_saturation():
    grid = validation_grid(keys=["torus"], vcs=[2], message_lengths=[32], setups=["model"])
    runs = _fake_runs(grid, lambda c: 0.4, lambda c, f: {0.25: 1.02, 0.5: 0.97, 0.75: 0.9, 0.9: math.inf}[f])
    assert worst_error_below(runs[0]) == pytest.approx(0.10)     # 0.9 is above 80 %: its inf does not count
    assert worst_error_below(runs[0], below=0.95) == math.inf
    runs = _fake_runs(grid, lambda c: 0.4, lambda c, f: math.inf if f == 0.5 else 1.01)
    assert worst_error_below(runs[0]) == math.inf               # the model saturated where the simulation was not
    assert BELOW == 0.8


def test_validation_table_has_a_row_per_grid_cell():
    grid = _grid()
    runs = _fake_runs(grid, lambda c: 0.3 if c.model["V"] == 2 else 0.6, lambda c, f: 1.03)
    t = validation_table(runs, grid)
    assert len(t) == len(grid)
    off = t[~t["runnable"]]
    assert set(off["key"]) == {"tm"} and set(off["setup"]) == {"booksim"} and off["worst |err| below 80%"].isna().all()
    on = t[t["runnable"]]
    assert np.allclose(on["worst |err| below 80%"], 0.03) and np.allclose(on["saturation ratio"], 0.9)
    assert np.allclose(on["err @25% [%]"], 3.0)
    vc = vc_saturation_table(t)
    sims = vc[(vc["source"] == "simulation") & np.isfinite(vc["ratio high/low"])]
    assert np.allclose(sims["ratio high/low"], 2.0)
    assert vc[(vc["key"] == "tm") & (vc["setup"] == "booksim")]["ratio high/low"].isna().all()


# ----------------------------------------------------------------------------
# The claims table
# ----------------------------------------------------------------------------
def _claims(err=0.03, vc_sim_ratio=2.0, **kw):
    grid = _grid()
    runs = _fake_runs(grid, lambda c: 0.3 if c.model["V"] == 2 else 0.3 * vc_sim_ratio, lambda c, f: 1 + err)
    v = validation_table(runs, grid)
    vc = vc_saturation_table(v)
    return claims_table(v, vc, **kw), v, vc


def test_claims_table_columns_and_rows():
    c, v, vc = _claims()
    assert tuple(c.columns) == CLAIM_COLUMNS
    assert (c["chapter"] == "xfolded_tm").all()
    assert not c.duplicated(["claim_id", "setup"]).any()
    assert set(c["kind"]) <= {"error", "saturation", "fact"}
    assert set(c["cause"]) <= {"model", "paper text", "simulator set-up", "-"}
    acc = c[c["kind"] == "error"].set_index(["claim_id", "setup"])
    assert set(acc.index.get_level_values(0)) == {f"within-5pct-{g}-m{M}" for g in ("torus", "tm-xfolded")
                                                  for M in (8, 32)}
    assert (acc["threshold"] == 0.05).all()
    # within 5 %: no gap
    assert np.allclose(acc.loc[("within-5pct-torus-m32", "booksim"), "worst_err"], 0.03)
    assert acc.loc[("within-5pct-torus-m32", "booksim"), "cause"] == "-"
    # not runnable: NaN and the simulator set-up named as the cause
    row = acc.loc[("within-5pct-tm-xfolded-m32", "booksim")]
    assert math.isnan(row["worst_err"]) and math.isnan(row["sat_ratio"]) and row["cause"] == "simulator set-up"
    assert "wait_for_tail_credit" in row["note"]
    assert acc.loc[("within-5pct-tm-xfolded-m32", "ours"), "sat_ratio"] == pytest.approx(0.9)
    assert '"' in acc["claim"].iloc[0] and "5%" in acc["claim"].iloc[0]


def test_a_changed_error_changes_the_row():
    ok, _, _ = _claims(err=0.03)
    bad, _, _ = _claims(err=-0.2)
    key = ["claim_id", "setup"]
    ok, bad = ok.set_index(key), bad.set_index(key)
    r = ("within-5pct-torus-m8", "model")
    assert ok.loc[r, "worst_err"] <= 0.05 < bad.loc[r, "worst_err"]
    assert ok.loc[r, "cause"] == "-" and bad.loc[r, "cause"] == "model"


def test_cause_is_the_setup_when_the_model_setup_holds():
    grid = validation_grid(keys=["torus"], vcs=[2], message_lengths=[32], setups=["ours", "model"])
    runs = _fake_runs(grid, lambda c: 0.3, lambda c, f: 1.02 if c.setup == "model" else 1.3)
    v = validation_table(runs, grid)
    c = claims_table(v).set_index("setup")
    assert c.loc["model", "cause"] == "-" and c.loc["ours", "cause"] == "simulator set-up"
    assert c.loc["ours", "worst_err"] == pytest.approx(0.3)


def test_vc_claim_is_computed():
    # simulated saturation doubles from 2 to 8 VCs, the model's grows by 2x too (its saturation is 0.9 x the sim's)
    c, _, _ = _claims(vc_sim_ratio=2.0)
    vcr = c[c["claim_id"] == "similar-saturation-vcs-m32"].set_index("setup")
    assert (vcr["kind"] == "fact").all() and list(vcr.index) == ["-"] + list(SETUPS)
    assert vcr.loc["-", "holds"] is False and vcr.loc["ours", "holds"] is False
    assert vcr.loc["-", "cause"] == "paper text"        # no simulated network shows it either
    assert vcr.loc["booksim", "holds"] is False and vcr.loc["-", "threshold"] == 0.10
    # similar saturation everywhere: the claim holds
    c, _, _ = _claims(vc_sim_ratio=1.05)
    vcr = c[c["claim_id"] == "similar-saturation-vcs-m32"].set_index("setup")
    assert vcr["holds"].tolist() == [True] * 4 and (vcr["cause"] == "-").all()
    # a wider tolerance flips the verdict's input
    c, _, _ = _claims(vc_sim_ratio=2.0, vc_tolerance=1.5)
    assert c[c["claim_id"] == "similar-saturation-vcs-m32"]["holds"].tolist() == [True] * 4


def test_fact_rows_from_ranking_and_topology():
    grid = _grid()
    runs = _fake_runs(grid, lambda c: 0.3, lambda c, f: 1.0)
    v = validation_table(runs, grid)
    ranking = pd.DataFrame([
        dict(V=2, setup="ours", reading="completed", source="sim", **{"rates compared": 4,
             "lower than TM and torus": 4, "claim holds": True}),
        dict(V=2, setup="-", reading="completed", source="model", **{"rates compared": 4,
             "lower than TM and torus": 3, "claim holds": False}),
    ])
    topo = topology_claims([3, 4, 8])
    c = claims_table(v, None, ranking, topo, ks="3, 4, 8").set_index(["claim_id", "setup"])
    assert c.loc[("lowest-delay-completed", "ours"), "holds"] is True
    assert c.loc[("lowest-delay-completed", "-"), "holds"] is False
    assert c.loc[("lowest-delay-completed", "booksim"), "cause"] == "simulator set-up"
    assert c.loc[("lowest-delay-completed", "booksim"), "holds"] is None
    assert c.loc[("lemma1-distance-counts-printed", "-"), "holds"] is True
    assert c.loc[("thm1-average-distance", "-"), "holds"] is False
    assert c.loc[("thm1-average-distance", "-"), "cause"] == "paper text"
    assert not any("completed_tm" in i for i, _ in c.index)
    assert (c.xs("-", level="setup")["kind"] == "fact").all()


def test_glue_values_are_strings_from_the_tables():
    c, v, vc = _claims(err=0.03)
    vals = glue_values(c, v, vc)
    assert vals["xfolded_tm-worst-torus-m32-booksim"] == "3.0%"  # the book's percent: one decimal, no space
    assert vals["xfolded_tm-worst-tm-xfolded-m32-booksim"] == "not runnable"
    assert vals["xfolded_tm-satratio-torus-m32-model"] == "0.90"
    assert "does not reproduce" in vals["xfolded_tm-vc-sentence-m32"]
    c2, v2, vc2 = _claims(err=0.03, vc_sim_ratio=1.05)
    assert "does not reproduce" not in glue_values(c2, v2, vc2)["xfolded_tm-vc-sentence-m32"]
    assert all(isinstance(x, str) for x in vals.values())
    assert set(TOPOLOGIES) >= {"torus", "tm"}
    # an infinite worst error is written out, not as a percent
    c3, v3, vc3 = _claims(err=0.03)
    c3.loc[c3["claim_id"].eq("within-5pct-torus-m32") & c3["setup"].eq("model"), "worst_err"] = math.inf
    assert glue_values(c3, v3, vc3)["xfolded_tm-worst-torus-m32-model"] == "unbounded (the model is saturated)"


def test_glue_values_errors_at_the_lowest_rate():
    points = pd.DataFrame({"injection": [0.02, 0.02, 0.02, 0.1], "setup": ["ours", "ours", "model", "ours"],
                           "rel. error": [0.012, -0.034, 0.5, 0.9]})
    vals = glue_values_errors(points)
    assert vals == {"xfolded_tm-low-rate": 0.02, "xfolded_tm-low-err-model": "+50.0 % to +50.0 %",
                    "xfolded_tm-low-err-ours": "-3.4 % to +1.2 %"}
    assert isinstance(vals["xfolded_tm-low-rate"], float)


def test_glue_values_topology_reads_the_table_and_the_networks():
    vals = glue_values_topology(distance_table([15, 16]))
    assert set(vals) == {"xfolded_tm-fit-error-16", "xfolded_tm-ad-mesh-8", "xfolded_tm-ad-torus-8",
                         "xfolded_tm-ad-torus-7", "xfolded_tm-ad-tm-8", "xfolded_tm-ad-printed-8",
                         "xfolded_tm-ad-completed-8", "xfolded_tm-diam-completed-8", "xfolded_tm-nodes-8"}
    t = distance_table([16])
    assert vals["xfolded_tm-fit-error-16"] == abs(float(t["node fit error"].iloc[0])) >= 0
    assert math.isnan(glue_values_topology(distance_table([3, 4]))["xfolded_tm-fit-error-16"])
    assert vals["xfolded_tm-ad-torus-8"] == pytest.approx(64 / 63 * 4)     # 2 x k/4 hops, over the N - 1 others
    assert vals["xfolded_tm-ad-tm-8"] > vals["xfolded_tm-ad-torus-8"]
    assert vals["xfolded_tm-nodes-8"] == 52 and vals["xfolded_tm-diam-completed-8"] >= 1


# ----------------------------------------------------------------------------
# The command line's curve and the notebooks' curve give the simulator the same keywords
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("topology, setup", [("xfolded_completed", "ours"), ("tm", "model"), ("torus", "booksim"),
                                             ("xfolded_printed", "model")])
def test_the_bare_curve_simulates_the_models_network(topology, setup):
    options = {p.name: p.default for p in CHAPTER.params}
    options.update(topology=topology, k=4, M=8, V=2)
    model = CHAPTER.solver_kwargs(options)
    bare = Curve("cli", model=model, sim=SETUPS[setup].sim(model), setup=setup)
    full = sim_curve(options, setup)
    assert sim_kwargs(bare, 0.005, SHORT) == sim_kwargs(full, 0.005, SHORT)
    assert full.sim["topology"] == topology and sim_kwargs(full, 0.005, SHORT)["routing"] == TOPOLOGIES[topology]["routing"]
    with pytest.raises(ValueError, match="which network"):
        sim_kwargs(bare.replace(model=dict(model, nodes=3)), 0.005)
