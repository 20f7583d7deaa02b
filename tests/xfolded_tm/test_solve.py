"""The x-Folded TM delay model: limits, saturation, readings, errors; the experiment helpers."""

import math

import numpy as np
import pytest

from models.core.experiment import run_curve
from models.core.setups import Figure
from models.networks.grid2d import torus
from models.xfolded_tm import LOAD, XfoldedTmResult, saturation_load, solve, solve_curve
from models.core.results import SimPoint
from models.xfolded_tm.experiments import (FIGURES, delay_curve, delay_figure, delay_frame, error_tables,
                                           model_curves_figure, ranking_table, run_figure, saturation_table)
from models.xfolded_tm.setups import SETTINGS, SETUPS, TOPOLOGIES
from models.xfolded_tm.topology import topology_claims

AD8 = torus(8).average_distance_per_dimension()


@pytest.mark.parametrize("V", [1, 2, 8])
def test_zero_load_is_message_length_plus_distance(V):
    r = solve(0.0, ad=AD8, M=32, V=V)
    assert r.latency == pytest.approx(32 + 2 * AD8)
    assert r.source_wait == 0 and r.multiplexing == 1 and not r.saturated


def test_printed_sum_of_eq11_multiplies_the_zero_load_delay():
    r = solve(0.0, ad=AD8, M=32, V=2, k=8, vbar="sum")
    assert r.multiplexing == 14  # n (k - 1) terms, each 1
    assert r.latency == pytest.approx(14 * (32 + 2 * AD8))


@pytest.mark.parametrize("V", [2, 8])
def test_monotone_finite_then_saturated(V):
    sat = saturation_load(ad=AD8, M=32, V=V)
    assert 0.001 < sat < 1 / 32
    lams = np.linspace(0, sat * 0.999, 25)
    lat = [solve(x, ad=AD8, M=32, V=V) for x in lams]
    vals = np.array([r.latency for r in lat])
    assert np.all(np.isfinite(vals)) and np.all(vals > 0) and np.all(np.diff(vals) > 0)
    assert all(r.iterations < 2000 for r in lat)
    past = solve(sat * 1.01, ad=AD8, M=32, V=V)
    assert past.saturated and past.latency == math.inf
    assert not np.isnan(past.latency)


@pytest.mark.parametrize("kw", [dict(ad=AD8, M=32, V=2), dict(ad=AD8, M=8, V=1, n=3),
                                dict(ad=8 / 3, M=64, V=4, vbar="sum", k=8), dict(ad=AD8, M=32, V=8, source_rate="vcs")])
def test_saturation_by_dimension_is_the_damped_iteration(kw):
    """#16: the dimension-by-dimension test (monotone certificate + Brent) answers as ``solve(lam).saturated``,
    also within 1e-4 of the saturation load, and the bisection on it lands on the same load."""
    import importlib

    from models.core.saturation import find_saturation

    S = importlib.import_module("models.xfolded_tm.solve")
    sat = saturation_load(**kw)
    old = find_saturation(lambda x: solve(x, **kw).saturated, 0.0, 1.0 / kw["M"], rtol=1e-4, check_hi=True).lo
    assert sat == old
    for frac in (0.3, 0.9, 0.99, 0.9999, 1.0001, 1.001, 1.01, 1.5):
        assert S._is_saturated(frac * sat, kw) == solve(frac * sat, **kw).saturated, frac


def test_recursion_eq9_holds_at_the_solution():
    r = solve(0.006, ad=AD8, M=32, V=2)
    S = (32.0,) + r.S
    for i in (1, 2):
        assert S[i] == pytest.approx(S[i - 1] + AD8 * (1 + r.channel_wait[i - 1] * r.blocking[i - 1]), rel=1e-9)
    assert r.latency == pytest.approx((r.network_latency + r.source_wait) * r.multiplexing)


def test_channel_rate_links_equals_printed_on_the_torus():
    net = torus(8)
    a = solve(0.005, ad=AD8, M=32, V=2)
    b = solve(0.005, ad=AD8, M=32, V=2, channel_rate="links", nodes=net.n_nodes, channels=net.n_channels)
    assert a.latency == pytest.approx(b.latency, rel=1e-12)


def test_more_vcs_delay_saturation():
    assert saturation_load(ad=AD8, M=32, V=8) > saturation_load(ad=AD8, M=32, V=2)


def test_saturation_load_is_the_bisection_of_the_tables():
    # the quick-profile saturation table (flits/node/cycle) of the torus: the same probes as before the core bisection
    assert saturation_load(ad=AD8, M=32, V=2) * 32 == 0.3029022216796875
    assert saturation_load(ad=AD8, M=32, V=8) * 32 == 0.5263671875
    # not saturated at the bound 1/M: the bound itself
    assert saturation_load(ad=0.2, M=32, V=8) == 1 / 32
    coarse = saturation_load(ad=AD8, M=32, V=2, rtol=1e-2)
    assert coarse == pytest.approx(saturation_load(ad=AD8, M=32, V=2), rel=1e-2) and not solve(coarse, ad=AD8).saturated


def test_solve_curve():
    c = solve_curve([0.0, 0.1 / 32, 0.9 / 32], ad=AD8, M=32, V=2)
    assert LOAD == "lam"
    assert c.latency[0] == pytest.approx(32 + 2 * AD8)
    assert c.saturated.tolist() == [False, False, True]
    assert np.allclose(c.injection, [0.0, 0.1, 0.9]) and np.allclose(c.loads, [0.0, 0.1 / 32, 0.9 / 32])
    assert list(c.to_frame().columns)[:3] == ["lam", "injection", "latency"]
    for x, r, lat in zip(c.loads, c.results, c.latency):
        assert isinstance(r, XfoldedTmResult) and r == solve(x, ad=AD8, M=32, V=2) and (r.latency == lat)
    with pytest.raises(ValueError, match="`lams`"):
        solve_curve([], ad=AD8)


@pytest.mark.parametrize("kw, name", [
    (dict(lam=-0.1), "lam"), (dict(V=0), "V"), (dict(V=1.5), "V"), (dict(k=2), "k"), (dict(M=0), "M"),
    (dict(ad=0.0), "ad"), (dict(vbar="median"), "vbar"), (dict(source_rate="x"), "source_rate"),
    (dict(channel_rate="links"), "nodes"),
])
def test_bad_parameters_raise_value_error(kw, name):
    args = dict(lam=0.001, ad=AD8, M=32, V=2, k=8)
    args.update(kw)
    lam = args.pop("lam")
    with pytest.raises(ValueError, match=f"`{name}`"):
        solve(lam, **args)


def test_figures_are_core_figures():
    assert sorted(FIGURES) == ["fig-xfolded_tm-delay-vc2", "fig-xfolded_tm-delay-vc8"]
    for fig in FIGURES.values():
        assert isinstance(fig, Figure) and fig.x_unit == "flits/node/cycle"
        # every network on every set-up that can run it: BookSim's router runs the torus (dimension order) only
        expected = [(t["label"], s) for key, t in TOPOLOGIES.items() for s in SETUPS
                    if s != "booksim" or key == "torus"]
        assert [(c.label.rsplit(" [", 1)[0], c.setup) for c in fig.curves] == expected
        assert all(c.label.endswith(f"[{c.setup}]") for c in fig.curves)
        assert {c.sim["routing"] for c in fig.curves if c.sim["topology"] == "torus"} == {"dor"}
        assert {c.sim["routing"] for c in fig.curves if c.sim["topology"] != "torus"} == {"updown"}


def test_run_figure_delay_model_only_and_tables():
    fig = delay_figure(2, [0.02, 0.1], keys=["xfolded_completed"])
    f = delay_frame(run_figure(fig, simulate=False))
    assert list(f["injection"]) == [0.02, 0.1] and np.all(np.isfinite(f["model"]))
    assert list(f["lam"]) == [0.02 / 32, 0.1 / 32]
    assert f["model"].tolist() == [solve(x / 32, **fig.curves[0].model).latency for x in (0.02, 0.1)]
    # the printed Theorem 1 gives AD_8 < 1: a far smaller delay than the BFS distance
    assert np.all(f["model (Thm 1 printed)"] < f["model"])
    with pytest.raises(ValueError, match="`V`"):
        delay_figure(0, [0.1])
    with pytest.raises(ValueError, match="`topology`"):
        delay_curve("mesh", 2, [0.1])
    # error and claims tables on made-up simulations: the model 3% above
    lat = {"torus": 50.0, "tm": 52.0, "xfolded_completed": 45.0, "xfolded_printed": 60.0}
    runs = [run_curve(c, lambda c, x: {"latency": lat[c.sim["topology"]] * 1.03, "saturated": False, "lam": x / 32,
                                       "latency (Thm 1 printed)": 30.0},
                      lambda c, loads: [SimPoint(lat[c.sim["topology"]], 1.0, False, {"mean hops": 4.0})])
            for c in delay_figure(2, [0.1]).curves]
    pts, summ = error_tables(runs)
    assert np.allclose(pts["rel. error"], 0.03) and (summ["within 5%"] == "1/1").all()
    assert list(summ.columns) == ["curve", "setup", "points", "max |rel. error|", "mean |rel. error|", "in CI",
                                  "within 5%"]
    assert summ["curve"].iloc[0] == "VC=2, torus [model]" and (summ["in CI"] == "0/1").all()
    assert (summ["setup"] == "model").all() and (pts["setup"] == "model").all()   # DEFAULT_SETUP
    claims = ranking_table(delay_frame(runs)).set_index("reading")
    assert claims.loc["completed", "lower beyond noise"] == True and claims.loc["printed", "lower beyond noise"] == False  # noqa
    assert claims.loc["completed", "lower beyond the 95% CIs"] == 1 and claims.loc["printed", "higher beyond the 95% CIs"] == 1


def test_model_curves_saturation_table():
    runs = run_figure(model_curves_figure(2), model_points=4)
    t = saturation_table(runs)
    assert t["saturation [flits/node/cycle]"].iloc[0] == saturation_load(ad=AD8, M=32, V=2) * 32
    assert len(t) == 5 and (t["V"] == 2).all()
    for r in runs:
        assert len(r.model) == 4 and r.model["load"].max() == pytest.approx(0.999 * r.model_saturation)
        assert np.isfinite(r.model["latency"]).all()


def test_short_simulation_agrees_at_low_load():
    fig = delay_figure(2, [0.02], keys=["xfolded_completed"])
    f = delay_frame(run_figure(fig, SETTINGS.replace(messages=3000, warmup_messages=500, batches=10, cache=False)))
    assert f["routing"].iloc[0] == "updown" and f["setup"].iloc[0] == "model"
    assert f["sim"].iloc[0] == pytest.approx(f["model"].iloc[0], rel=0.06)
    assert abs(f["non-minimal excess"].iloc[0]) < 0.02


def test_run_figure_names_the_figures_it_runs():
    with pytest.raises(ValueError, match="none of the chapter's figures"):
        run_figure(Figure(label="fig-xfolded_tm-other", title="", curves=delay_figure(2, [0.1]).curves))
    with pytest.raises(ValueError, match="`model_points`"):
        run_figure(model_curves_figure(2), model_points=1)


def test_topology_claims_at_k8():
    t = topology_claims([3, 4, 8]).set_index(["claim", "reading"])
    diam = "diameter below TM and torus"
    assert not t.loc[(diam, "printed"), "holds at k = 8"] and t.loc[(diam, "completed"), "holds at k = 8"]
    assert t.loc[("Lemma 1: I(i) = i + 1 for 1 <= i <= k-1", "printed"), "holds"]
    with pytest.raises(ValueError, match="`k`"):
        topology_claims([2])


@pytest.mark.parametrize("kw", [dict(k=8, V=2, M=32), dict(k=8, V=4, M=16, vbar="sum", source_rate="vcs"),
                                dict(k=6, V=2, M=32, n=3, channel_rate="links", nodes=216, channels=1296)])
def test_curve_on_arrays_is_solve_point_by_point(kw):
    """solve_curve iterates every rate at once (#16): each row is solve()'s damped iteration."""
    from models.xfolded_tm import theorem1

    kw = dict(kw, ad=float(theorem1(kw["k"])))
    sat = saturation_load(**kw)
    lams = np.concatenate([[0.0], np.linspace(0.05, 1.3, 14) * sat])
    c = solve_curve(lams, **kw)
    assert c.saturated.any() and not c.saturated.all()
    for x, r in zip(lams, c.results):
        one = solve(x, **kw)
        assert (r.saturated, r.iterations) == (one.saturated, one.iterations)
        if not one.saturated:
            assert r.latency == pytest.approx(one.latency, rel=1e-13) and r.S == pytest.approx(one.S, rel=1e-13)


def test_saturation_at_an_exact_fold_is_decided():
    """#15/#16: V=1, n=1, M=16, AD=2 folds exactly at lam = 1/64 (a double root S_1 = 24), where the damped
    iteration needs 348,154 steps (ConvergenceError at the default cap); the bisection decides every probe."""
    sat = saturation_load(ad=2.0, M=16, V=1, n=1)
    assert sat == pytest.approx(1 / 64, rel=1e-4) and sat <= 1 / 64
    assert not solve(0.999 * sat, ad=2.0, M=16, V=1, n=1).saturated
    assert solve(1.001 / 64, ad=2.0, M=16, V=1, n=1).saturated
