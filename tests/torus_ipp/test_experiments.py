"""torus_ipp experiments: figure configurations, conversion to the simulator, a tiny curve, tables."""

import numpy as np
import pytest

from models.core.experiment import Curve, Figure
from models.traffic import fit, process
from models.torus_ipp import experiments as X
from models.torus_ipp import plots


def test_figure_configurations_are_the_papers():
    assert [X.network(c) for c in X.FIGURES[1].curves] == [
        dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), dict(k=16, V=3, M=48, sigma1=0.6, sigma2=0.6)]
    assert [X.network(c) for c in X.FIGURES[2].curves] == [
        dict(k=24, V=5, M=32, sigma1=0.09, sigma2=0.09), dict(k=24, V=5, M=32, sigma1=0.05, sigma2=0.8)]
    for n, f in X.FIGURES.items():
        assert isinstance(f, Figure) and f.label == f"fig-torus_ipp-fig{n}" and f.x_unit == "messages/node/cycle"
        for c, panel in zip(f.curves, "ab"):
            assert c.model["traffic"] == "ipp" and c.sim == {"injection_vcs": 1} and c.fractions_of == "sim"
            assert X.describe(c) == {"figure": n, "panel": panel, "traffic": "ipp"}
            assert set(X.ERROR_FRACTIONS) <= set(c.loads)


def test_traffic_variants_and_their_setups():
    cs = X.curves((1, 2), ("ipp", "poisson"))
    assert [X.describe(c)["traffic"] for c in cs] == ["ipp"] * 4 + ["poisson"] * 4
    assert len({c.setup for c in cs}) == 2 and all("Poisson" in c.setup for c in cs[4:])
    assert X.describe(cs[5]) == {"figure": 1, "panel": "b", "traffic": "poisson"}
    with pytest.raises(ValueError, match="traffic"):
        X.with_traffic(cs[0], "bursty")


def test_sim_kwargs_pass_the_models_ipp_to_the_simulator():
    kw = X.sim_kwargs(dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), 0.004)
    assert kw["messages"] == X.SIM_MESSAGES and kw["warmup_messages"] == X.SIM_WARMUP
    assert isinstance(kw["traffic"], process.MMPP2) and kw["rate"] is None
    assert (kw["traffic"].mu1, kw["traffic"].mu2, kw["traffic"].sigma1, kw["traffic"].sigma2) == (0.004, 0.0, 0.2, 0.8)
    assert kw["routing"] == "duato" and kw["vcs"] == 3 and kw["injection_vcs"] == 1
    kp = X.sim_kwargs(dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), 0.004, "poisson")
    assert kp["traffic"] == "poisson" and kp["rate"] == pytest.approx(0.0032)
    # the traffic of a curve's model is used unless overridden
    assert X.sim_kwargs(X.with_traffic(X.FIGURES[1].curves[0], "poisson").model, 0.004)["traffic"] == "poisson"


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
                  sim=dict(injection_vcs=1), fractions_of="sim")
    r = X.run_curve(curve, messages=1500, warmup_messages=300, sat_steps=3, fractions=(0.5,), model_points=5)
    model = X.model_curves_table([r])
    assert len(model) == 5 and np.all(np.isfinite(model["model latency"]))
    assert model["mu1"].iloc[-1] == pytest.approx(r.model_saturation * (1 - 1e-6))
    assert 0 < r.sim_saturation < X.saturation_bound(**curve.model)
    assert r.brackets["sim"].steps == 3 and r.brackets["sim"].evaluations == 3
    pts = X.sim_points_table([r])
    assert set(np.round(pts["fraction"], 3)) == {0.25, 0.5, 0.75, 0.9}
    assert list(pts.columns[:6]) == ["figure", "panel", "traffic", "fraction", "mu1", "mean rate"]
    low = pts[pts["fraction"] == 0.25].iloc[0]
    assert not low["sim saturated"] and abs(low["rel. error"]) < 0.5
    tab = X.panel_error_table([r])
    assert list(tab.columns[:7]) == ["figure", "panel", "traffic", "err @25%", "err @50%", "err @75%", "err @90%"]
    assert tab.loc[0, "err @25%"] == pytest.approx(low["rel. error"], rel=1e-12)
    assert tab.loc[0, "sat. sim (mu1)"] == r.sim_saturation
    fig = plots.plot_figure([r])
    assert fig.axes
    # without the simulator: the model alone, no points
    m = X.run_curve(curve, simulate=False, model_points=5)
    assert m.sim is None and np.isnan(m.sim_saturation) and len(m.model) == 5
    assert X.sim_points_table([m]).empty and np.isnan(X.panel_error_table([m]).loc[0, "err @25%"])
