"""torus_ipp experiments: figure configurations, conversion to the simulator, a tiny curve, tables."""

import numpy as np
import pytest

from models.traffic import fit, process
from models.torus_ipp import experiments as X


def test_figure_configurations_are_the_papers():
    assert [c.config for c in X.FIGURES[1].curves] == [
        dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), dict(k=16, V=3, M=48, sigma1=0.6, sigma2=0.6)]
    assert [c.config for c in X.FIGURES[2].curves] == [
        dict(k=24, V=5, M=32, sigma1=0.09, sigma2=0.09), dict(k=24, V=5, M=32, sigma1=0.05, sigma2=0.8)]


def test_sim_kwargs_pass_the_models_ipp_to_the_simulator():
    kw = X.sim_kwargs(dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), 0.004)
    assert isinstance(kw["traffic"], process.MMPP2) and kw["rate"] is None
    assert (kw["traffic"].mu1, kw["traffic"].mu2, kw["traffic"].sigma1, kw["traffic"].sigma2) == (0.004, 0.0, 0.2, 0.8)
    assert kw["routing"] == "duato" and kw["vcs"] == 3 and kw["injection_vcs"] == 1
    kp = X.sim_kwargs(dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8), 0.004, "poisson")
    assert kp["traffic"] == "poisson" and kp["rate"] == pytest.approx(0.0032)


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
    curve = X.Curve("t", dict(k=8, V=3, M=8, sigma1=0.2, sigma2=0.8))
    r = X.run_curve(0, curve, "ipp", messages=1500, warmup=300, sat_steps=3, fractions=(0.5,), n_model=5)
    assert len(r["model"]) == 5 and np.all(np.isfinite(r["model"]["model latency"]))
    assert 0 < r["sat_sim"] < X.saturation_bound(**curve.config)
    pts = r["points"]
    assert set(np.round(pts["fraction"], 3)) == {0.25, 0.5, 0.75, 0.9}
    low = pts[pts["fraction"] == 0.25].iloc[0]
    assert not low["sim saturated"] and abs(low["rel. error"]) < 0.5
    tab = X.error_table([r])
    assert list(tab.columns[:7]) == ["figure", "panel", "traffic", "err @25%", "err @50%", "err @75%", "err @90%"]
    fig = X.plot_figure([r])
    assert fig.axes
