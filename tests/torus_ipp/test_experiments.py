"""torus_ipp experiments: figure configurations, simulator set-ups, conversion to the simulator, a tiny curve,
tables."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.claims import setups_table
from models.core.setups import SimSettings
from models.core.setups import Curve, Figure
from models.traffic import fit, process
import models.torus_ipp as front
from models.torus_ipp import experiments as X
from models.torus_ipp import plots
from models.torus_ipp.solve import Params
from models.torus_ipp.setups import DEFAULT_SETUP, SETTINGS, SETUPS, IppParams, ipp_curve


def test_figure_configurations_are_the_papers():
    assert [X.network(c) for c in X.paper_figure(1).curves] == [
        dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), dict(k=16, V=3, M=48, sigma1=0.6, sigma2=0.6)]
    assert [X.network(c) for c in X.paper_figure(2).curves] == [
        dict(k=24, V=5, M=32, sigma1=0.09, sigma2=0.09), dict(k=24, V=5, M=32, sigma1=0.05, sigma2=0.8)]
    assert list(X.FIGURES) == ["fig-torus_ipp-fig1", "fig-torus_ipp-fig2"]
    for n in X.NUMBERS:
        f = X.paper_figure(n)
        assert isinstance(f, Figure) and f.label == f"fig-torus_ipp-fig{n}" and f.x_unit == "messages/node/cycle"
        assert X.FIGURES[f.label] is f
        for c, panel in zip(f.curves, "ab"):
            V = c.model["V"]
            assert c.model["traffic"] == "ipp" and c.fractions_of == "sim"
            # the verdict's set-up: assumption (d), no waiting for an ejection VC (4 inputs x V VCs)
            assert c.setup == DEFAULT_SETUP == "paper/model"
            assert c.sim == {"injection_vcs": 1, "ejection_vcs": 4 * V}
            assert X.describe(c) == {"figure": n, "panel": panel, "traffic": "ipp", "setup": "paper/model"}
            assert set(X.ERROR_FRACTIONS) <= set(c.loads)


def test_traffic_variants_and_setups():
    cs = X.curves((1, 2), ("ipp", "poisson"), tuple(SETUPS))
    assert [X.describe(c)["traffic"] for c in cs] == (["ipp"] * 4 + ["poisson"] * 4) * 2
    assert [c.setup for c in cs] == ["paper/model"] * 8 + ["one ejection channel"] * 8
    assert X.describe(cs[5]) == {"figure": 1, "panel": "b", "traffic": "poisson", "setup": "paper/model"}
    assert cs[13].sim == {"injection_vcs": 1, "ejection_vcs": 1}
    # the traffic changes the model, not the set-up; the set-up changes the simulator, not the model
    assert X.with_traffic(cs[0], "poisson").sim == cs[0].sim
    assert X.with_setup(cs[0], "one ejection channel").model == cs[0].model
    with pytest.raises(ValueError, match="traffic"):
        X.with_traffic(cs[0], "bursty")
    with pytest.raises(ValueError, match="setup"):
        X.with_setup(cs[0], "booksim")
    with pytest.raises(ValueError, match="figure"):
        X.paper_figure(3)


def test_figures_carry_traffic_setup_fractions_and_reading():
    f = X.figure(2, traffic="poisson", setup="one ejection channel", fractions=(0.5,), pab="specific")
    assert f.label == "fig-torus_ipp-fig2" and [c.label for c in f.curves] == ["Fig. 2(a)", "Fig. 2(b)"]
    for c in f.curves:
        assert c.model["traffic"] == "poisson" and c.model["pab"] == "specific" and c.setup == "one ejection channel"
        assert c.sim == {"injection_vcs": 1, "ejection_vcs": 1} and c.loads == (0.25, 0.5, 0.75, 0.9)
    figs = X.figures_of((1, 2), ("ipp", "poisson"), tuple(SETUPS), fractions=(0.5,))
    assert [(g.label, g.curves[0].model["traffic"], g.curves[0].setup) for g in figs][:3] == [
        ("fig-torus_ipp-fig1", "ipp", "paper/model"), ("fig-torus_ipp-fig2", "ipp", "paper/model"),
        ("fig-torus_ipp-fig1", "poisson", "paper/model")]
    assert len(figs) == 8 and figs[-1].curves[0].setup == "one ejection channel"
    assert X.figure(1).curves[0].loads == X.paper_figure(1).curves[0].loads


def test_setups_are_described_and_stand_for_the_paper():
    assert SETUPS["paper/model"].stands_for == "paper" and SETUPS["one ejection channel"].stands_for == ""
    table = setups_table(SETUPS)
    assert list(table["setup"]) == list(SETUPS)
    assert "ejection_vcs=IN_DEGREE x V" in table.loc[0, "sets"] and "ejection_vcs=1" in table.loc[1, "sets"]
    assert SETUPS["paper/model"].sim({"V": 5}) == {"injection_vcs": 1, "ejection_vcs": 20}


@pytest.mark.parametrize("figure", [1, 2])
@pytest.mark.parametrize("traffic", ["ipp", "poisson"])
def test_setups_differ_only_in_the_knobs_they_name(figure, traffic):
    """Same network, traffic, load, run length and seed: the simulator keywords differ only in ejection_vcs."""
    kws = {}
    settings = SimSettings(messages=2000, warmup_messages=300, seed=7)
    for name, su in SETUPS.items():
        assert su.name == name and su.description and su.knobs
        c = X.with_setup(X.with_traffic(X.paper_figure(figure).curves[0], traffic), name)
        kws[name] = X.sim_kwargs(c, 0.004, settings)
    (a, ka), (b, kb) = kws.items()
    differ = {key for key in set(ka) | set(kb) if ka.get(key, "missing") != kb.get(key, "missing")}
    named = {k for k in set(SETUPS[a].overrides) | set(SETUPS[b].overrides)
             if SETUPS[a].sim(ka["vcs"]).get(k) != SETUPS[b].sim(kb["vcs"]).get(k)}
    assert differ == named == {"ejection_vcs"}
    assert ka["seed"] == kb["seed"] == 7 and ka["injection_vcs"] == kb["injection_vcs"] == 1
    V = X.paper_figure(figure).curves[0].model["V"]
    assert (ka["ejection_vcs"], kb["ejection_vcs"]) == (4 * V, 1)
    # a set-up may not change the network or the traffic
    with pytest.raises(ValueError, match="set-up"):
        X.sim_kwargs(X.paper_figure(figure).curves[0].replace(sim={"vcs": 2}), 0.004)


def test_sim_kwargs_pass_the_models_ipp_to_the_simulator():
    cfg = dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)
    kw = X.sim_kwargs(Curve("c", model=cfg), 0.004)
    assert (kw["messages"], kw["warmup_messages"]) == (SETTINGS.messages, SETTINGS.warmup_messages) == (100_000, 20_000)
    assert isinstance(kw["traffic"], process.MMPP2) and kw["rate"] is None
    assert (kw["traffic"].mu1, kw["traffic"].mu2, kw["traffic"].sigma1, kw["traffic"].sigma2) == (0.004, 0.0, 0.2, 0.8)
    assert kw["routing"] == "duato" and kw["vcs"] == 3 and kw["injection_vcs"] == 1 and "ejection_vcs" not in kw
    kp = X.sim_kwargs(Curve("c", model=dict(cfg, traffic="poisson")), 0.004)
    assert kp["traffic"] == "poisson" and kp["rate"] == pytest.approx(0.0032)
    # the traffic of a curve's model
    assert X.sim_kwargs(X.with_traffic(X.paper_figure(1).curves[0], "poisson"), 0.004)["traffic"] == "poisson"


def test_poisson_twins_of_the_same_mean_rate_are_one_run():
    """Two figures' IPPs with the same mean rate (0.0035278..., from two ``mu1`` and two pairs of switching rates)
    give it an ulp apart; their Poisson twins run at one rate, the mean to 15 significant digits."""
    a, b = dict(k=16, V=3, M=48, sigma1=0.6, sigma2=0.6), dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)
    mu_a, mu_b = 0.0070556640625, 0.004409790039062498
    assert process.IPP(mu_a, 0.6, 0.6).mean_rate != process.IPP(mu_b, 0.2, 0.8).mean_rate  # an ulp apart
    ra, rb = X.sim_traffic(a, mu_a, "poisson")[1], X.sim_traffic(b, mu_b, "poisson")[1]
    assert ra == rb == 0.00352783203125
    for mu in (0.004, 0.0070556640625, 1 / 3, 2.5e-5):  # within rounding of the mean, never further
        assert X.sim_traffic(a, mu, "poisson")[1] == pytest.approx(mu / 2, rel=5e-15, abs=0)


def test_sim_kwargs_of_the_command_lines_curve():
    """``compare`` / ``curve --simulate``: the curve of the checked parameters on a set-up, as the figures' curves."""
    p = IppParams(k=16, V=3, M=48.0, sigma1=0.2, sigma2=0.8)
    assert p.M == 48 and isinstance(p.M, int) and p.model == dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8, mu2=0.0,
                                                                      traffic="ipp", pab="printed")
    settings = SimSettings(messages=2000, warmup_messages=300)
    for name in SETUPS:
        bare = ipp_curve(p, name, label="cli")
        ref = X.with_setup(X.paper_figure(1).curves[0], name)
        assert bare.model == ref.model and bare.sim == ref.sim and bare.setup == ref.setup == name
        kw, want = X.sim_kwargs(bare, 0.004, settings), X.sim_kwargs(ref, 0.004, settings)
        assert kw.keys() == want.keys() and kw["message_length"] == 48 and isinstance(kw["message_length"], int)
        assert all(kw[k] == want[k] for k in kw if k != "traffic")
        assert (kw["traffic"].mu1, kw["traffic"].sigma1) == (want["traffic"].mu1, want["traffic"].sigma1)


def test_the_parameters_are_checked_once_at_the_door():
    """IppParams holds the model's rules (solve.Params applies the same function); what only the simulator needs
    (an IPP, whole flits) is ``simulable``, asked by ``compare`` before anything runs."""
    with pytest.raises(ValueError, match="`k` must be a multiple of 4"):
        IppParams(k=6, V=3, M=8, sigma1=0.2, sigma2=0.8)
    with pytest.raises(ValueError, match="`k` must be a multiple of 4"):
        Params(k=6, V=3, M=8, mu1=0.001, sigma1=0.2, sigma2=0.8)
    for bad in (dict(V=2), dict(M=0.5), dict(sigma1=0), dict(mu2=-1), dict(traffic="bursty"), dict(pab="x")):
        name = next(iter(bad))
        with pytest.raises(ValueError, match=f"`{name}`"):
            IppParams(**{**dict(k=8, V=3, M=8, sigma1=0.2, sigma2=0.8), **bad})
    frac = IppParams(k=8, V=3, M=8.5, sigma1=0.2, sigma2=0.8)
    assert frac.M == 8.5 and frac.model["M"] == 8.5
    with pytest.raises(ValueError, match="`M` must be a whole number"):
        frac.simulable()
    with pytest.raises(ValueError, match="`mu2`"):
        IppParams(k=8, V=3, M=8, sigma1=0.2, sigma2=0.8, mu2=0.001).simulable()
    with pytest.raises(ValueError, match="`mu2`"):
        front.compare(k=8, V=3, M=8, mu2=0.001, points=2, sim=lambda c, xs: pytest.fail("simulated"))
    with pytest.raises(ValueError, match="`M` must be a whole number"):
        front.compare(k=8, V=3, M=8.5, points=2, sim=lambda c, xs: pytest.fail("simulated"))
    assert front.compare(k=8, V=3, M=8, mu2=0.001, simulate=False, loads=[0.001], grid=0).sim is None  # model alone


def test_fitted_parameter_table_matches_the_notes():
    t = X.fitted_parameters_table()
    ref = np.array([[0.26574, 0.73426, 1.94031, 0.65969], [0.6, 0.6, 1.70711, 0.29289],
                    [0.09, 0.09, 2.36603, 0.63397], [0.11281, 0.73719, 2.98296, 1.78175]])
    got = t[["delta1", "delta2", "lambda1 / mu1", "lambda2 / mu1"]].to_numpy()
    assert np.allclose(got, ref, atol=6e-6)
    assert (t["closed-form diff"] < 1e-8).all()
    # the "general fit" column really is the general Heffes-Lucantoni algorithm
    gen = fit.fit_superposition(process.IPP(1.0, 0.2, 0.8), 2).mmpp
    assert t.loc[0, "delta1"] == gen.sigma1 and t.loc[0, "lambda1 / mu1"] == gen.mu1


def test_tiny_curve_end_to_end(tmp_cache):
    curve = Curve(label="t", model=dict(k=8, V=3, M=8, sigma1=0.2, sigma2=0.8, traffic="ipp"),
                  sim=dict(injection_vcs=1), loads=(0.25, 0.5, 0.75, 0.9), fractions_of="sim")
    figure = Figure("fig-torus_ipp-tiny", "tiny", (curve,))
    settings = SimSettings(messages=1500, warmup_messages=300, sat_steps=3)
    (r,) = X.run_figure(figure, settings, model_points=5)
    model = X.model_curves_table([r])
    assert len(model) == 5 and np.all(np.isfinite(model["model latency"]))
    assert model["mu1"].iloc[-1] == pytest.approx(r.model_saturation * (1 - 1e-6))
    assert 0 < r.sim_saturation < X.saturation_bound(**curve.model)
    assert r.brackets["sim"].steps == 3 and r.brackets["sim"].evaluations == 3
    pts = X.sim_points_table([r])
    assert set(np.round(pts["fraction"], 3)) == {0.25, 0.5, 0.75, 0.9}
    assert list(pts.columns[:7]) == ["figure", "panel", "traffic", "setup", "fraction", "mu1", "mean rate"]
    low = pts[pts["fraction"] == 0.25].iloc[0]
    assert not low["sim saturated"] and abs(low["rel. error"]) < 0.5
    tab = X.panel_error_table([r])
    assert list(tab.columns[:8]) == ["figure", "panel", "traffic", "setup", "err @25%", "err @50%", "err @75%",
                                     "err @90%"]
    assert 0 < tab.loc[0, "sat. sim bracket"] < 1
    assert tab.loc[0, "err @25%"] == pytest.approx(low["rel. error"], rel=1e-12)
    assert tab.loc[0, "sat. sim (mu1)"] == r.sim_saturation
    fig = plots.plot_figure([r])
    assert fig.axes
    # IPP against Poisson at the same load: the IPP point is the run's own (cached), the Poisson one is new
    pair = X.paired_burstiness_table([r], (0.25,), settings)
    assert len(pair) == 1 and pair.loc[0, "mu1"] == pytest.approx(low["mu1"])
    assert pair.loc[0, "sim IPP"] == low["sim latency"] and np.isfinite(pair.loc[0, "sim Poisson"])
    assert pair.loc[0, "sim IPP / Poisson low"] <= pair.loc[0, "sim IPP / Poisson"] <= pair.loc[0, "sim IPP / Poisson high"]
    assert pair.loc[0, "model IPP"] == pytest.approx(low["model latency"])
    # without the simulator: the model alone, no points
    (m,) = X.run_figure(figure, simulate=False, model_points=5)
    assert m.sim is None and np.isnan(m.sim_saturation) and len(m.model) == 5
    assert X.sim_points_table([m]).empty and np.isnan(X.panel_error_table([m]).loc[0, "err @25%"])
    # the hook the command line calls: one row per load with the latency, its CI and the flag
    rows = X.simulate_curve(curve, [float(low["mu1"])], settings)
    assert rows[0].latency == low["sim latency"] and rows[0].latency_ci > 0 and not rows[0].saturated
    assert rows[0].extra["throughput"] == low["sim throughput"] and set(rows[0].record()) == set(X.SIM_COLUMNS)
