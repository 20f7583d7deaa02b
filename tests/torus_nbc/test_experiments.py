"""The chapter's experiment runners on a small, short configuration."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from models.core.experiment import Curve, Figure, run_curve  # noqa: E402
from models.torus_nbc.experiments import (  # noqa: E402
    ERROR_FRACTIONS, FIGURES, FRACTIONS, SimSettings, ejection_table, error_table, fig1, format_errors,
    points_table, run_comparison, run_figure, saturation_table, sim_kwargs)
from models.torus_nbc.plots import plot_comparison, plot_fig1  # noqa: E402


def test_fig1_curves_use_the_minimum_escape_levels():
    figure = fig1()
    assert isinstance(figure, Figure) and figure.label == "fig-torus_nbc-fig1"
    assert FIGURES["fig1"] == figure
    assert [c.label for c in figure.curves] == ["8x8, M=32", "8x8, M=64", "16x16, M=32", "16x16, M=64"]
    assert [c.model["escape_levels"] for c in figure.curves] == [5, 5, 9, 9]
    assert all(c.fractions_of == "sim" and c.loads == FRACTIONS for c in figure.curves)
    assert [c.model["escape_levels"] for c in fig1((8,), (32,), extra_levels=2).curves] == [7]
    with pytest.raises(ValueError, match="`V`"):
        fig1((16,), (32,), V=9)


def test_sim_kwargs_translate_the_curve():
    curve = fig1((8,), (32,)).curves[0]
    kw = sim_kwargs(curve, 0.01, SimSettings(messages=1000, warmup_messages=10, batches=5, seed=3))
    assert kw["routing"] == "duato_nbc" and kw["escape_levels"] == 5 and kw["vcs"] == 10
    assert kw["message_length"] == 32 and kw["ejection_vcs"] == 1 and kw["rate"] == 0.01
    assert (kw["messages"], kw["warmup_messages"], kw["batches"], kw["seed"]) == (1000, 10, 5, 3)
    dor = sim_kwargs(curve.replace(sim={"routing": "dor", "ejection_vcs": 10}), 0.01)
    assert "escape_levels" not in dor and dor["ejection_vcs"] == 10


def _fake_run(model_lat, sim_lat, model_sat=0.35, sim_sat=0.5):
    """A CurveRun whose model and simulation give the listed latencies at ERROR_FRACTIONS."""
    curve = Curve("c", {"k": 8, "M": 32}, loads=ERROR_FRACTIONS, fractions_of="sim")
    at = {round(f * sim_sat, 12): i for i, f in enumerate(ERROR_FRACTIONS)}

    def model(c, x):
        i = at.get(round(x, 12))
        return {"latency": model_lat[i] if i is not None else 1.0}

    def sim(c, loads):
        return [{"latency": sim_lat[at[round(x, 12)]], "latency CI": 0.0} for x in loads]

    return run_curve(curve, model, sim, model_saturation=lambda c: model_sat,
                     sim_saturation=lambda c, m: sim_sat)


def test_error_table_math():
    run = _fake_run([10.0, 20.0, 30.0, math.inf], [8.0, 25.0, 30.0, 50.0])
    t = error_table([run])
    assert list(t.columns) == ["curve", "err @25%", "err @50%", "err @75%", "err @90%", "model saturation",
                               "sim saturation", "saturation err"]
    assert t.loc[0, "err @25%"] == pytest.approx(25.0)      # percent
    assert t.loc[0, "err @50%"] == pytest.approx(-20.0)
    assert t.loc[0, "err @75%"] == 0
    assert t.loc[0, "err @90%"] == math.inf
    assert t.loc[0, "saturation err"] == pytest.approx(-30.0)
    shown = format_errors(t)
    assert list(shown.iloc[0]) == ["c", "+25.0%", "-20.0%", "+0.0%", "saturated", "0.35000", "0.50000", "-30.0%"]


def test_small_run_end_to_end(tmp_cache):
    figure = fig1((8,), (32,))
    st = SimSettings(messages=1500, warmup_messages=300, batches=10, sat_rtol=0.1)
    runs = run_figure(figure, st, model_points=10)
    pts, sat = points_table(runs), saturation_table(runs)
    s = sat.iloc[0]
    assert 0.005 < s["sim saturation"] < 0.03 and s["sim saturation lo"] < s["sim saturation hi"]
    assert s["saturation runs"] == runs[0].brackets["sim"].evaluations
    assert list(pts.columns) == ["curve", "k", "M", "rate", "fraction", "model latency", "model network latency",
                                 "model multiplexing", "sim latency", "sim CI", "sim saturated",
                                 "sim network latency", "sim multiplexing"]
    assert len(pts) == 5 + 9 and np.all(np.diff(pts["rate"]) > 0)
    sim = pts[pts["fraction"].notna()]
    assert len(sim) == 5 and np.all(np.isfinite(sim["sim latency"]))
    assert np.all(np.diff(sim["model latency"]) > 0)
    table = error_table(runs)
    assert set(table.columns) >= {"err @25%", "err @50%", "err @75%", "err @90%", "model saturation", "sim saturation"}
    assert np.all(np.isfinite(table[["err @25%", "err @50%"]].to_numpy()))
    cp, cs = run_comparison(runs, routings=("duato_nbc", "dor"), settings=st)
    assert set(cp["routing"]) == {"duato_nbc", "dor"} and len(cp) == 10
    # the Duato-Nbc points are the same runs as Fig. 1's (same keyword arguments, cached)
    nbc = cp[cp["routing"] == "duato_nbc"]["latency"].to_numpy()
    assert np.allclose(nbc, sim["sim latency"].to_numpy())
    assert cs.loc[cs["routing"] == "duato_nbc", "vs Duato-Nbc"].iloc[0] == 1.0
    ej = ejection_table(runs, 10, st)
    assert list(ej.columns) == ["curve", "fraction", "rate", "model", "sim, 1 ejection VC", "sim, 10 ejection VCs"]
    assert np.allclose(ej["sim, 1 ejection VC"], sim["sim latency"])
    plt.close(plot_fig1(runs))
    plt.close(plot_comparison(cp, cs))


def test_model_only_run_uses_the_model_saturation():
    runs = run_figure(fig1((8,), (32,), fractions=(0.5,)), simulate=False, model_points=4)
    run = runs[0]
    assert run.sim is None and math.isnan(run.sim_saturation)
    pts = points_table(runs)
    assert "sim latency" not in pts
    half = pts[pts["fraction"].notna()]["rate"].iloc[0]
    assert half == float(f"{0.5 * run.model_saturation:.6g}")
