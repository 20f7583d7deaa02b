"""The chapter's experiment runners on a small, short configuration."""

import math

import numpy as np
import pandas as pd
import pytest

from models.torus_nbc.experiments import (ERROR_FRACTIONS, SimSettings, error_table, fig1_curves, plot_comparison,
                                          plot_fig1, run_comparison, run_figure)


def test_fig1_curves_use_the_minimum_escape_levels():
    curves = fig1_curves()
    assert [c.label for c in curves] == ["8x8, M=32", "8x8, M=64", "16x16, M=32", "16x16, M=64"]
    assert [c.config["escape_levels"] for c in curves] == [5, 5, 9, 9]
    with pytest.raises(ValueError, match="`V`"):
        fig1_curves((16,), (32,), V=9)


def test_error_table_math():
    pts = pd.DataFrame({"curve": "c", "k": 8, "M": 32, "rate": [0.1, 0.2, 0.3, 0.4], "fraction": ERROR_FRACTIONS,
                        "model latency": [10.0, 20.0, 30.0, math.inf], "sim latency": [8.0, 25.0, 30.0, 50.0]})
    sat = pd.DataFrame([{"curve": "c", "model saturation": 0.35, "sim saturation": 0.5}])
    t = error_table(pts, sat)
    assert t.loc[0, "err @25%"] == pytest.approx(0.25)
    assert t.loc[0, "err @50%"] == pytest.approx(-0.2)
    assert t.loc[0, "err @75%"] == 0
    assert t.loc[0, "err @90%"] == math.inf
    assert t.loc[0, "saturation err"] == pytest.approx(-0.3)


def test_small_run_end_to_end(tmp_cache):
    curves = fig1_curves((8,), (32,))
    st = SimSettings(messages=1500, warmup=300, batches=10, sat_rel_tol=0.1)
    pts, sat = run_figure(curves, settings=st, model_points=10)
    s = sat.iloc[0]
    assert 0.005 < s["sim saturation"] < 0.03 and s["sim saturation lo"] < s["sim saturation hi"]
    sim = pts[pts["fraction"].notna()]
    assert len(sim) == 5 and np.all(np.isfinite(sim["sim latency"]))
    assert np.all(np.diff(sim["model latency"]) > 0)
    table = error_table(pts, sat)
    assert set(table.columns) >= {"err @25%", "err @50%", "err @75%", "err @90%", "model saturation", "sim saturation"}
    assert np.all(np.isfinite(table[["err @25%", "err @50%"]].to_numpy()))
    cp, cs = run_comparison(curves, sat, routings=("duato_nbc", "dor"), settings=st)
    assert set(cp["routing"]) == {"duato_nbc", "dor"} and len(cp) == 10
    # the Duato-Nbc points are the same runs as Fig. 1's (same keyword arguments, cached)
    nbc = cp[cp["routing"] == "duato_nbc"]["latency"].to_numpy()
    assert np.allclose(nbc, sim["sim latency"].to_numpy())
    assert cs.loc[cs["routing"] == "duato_nbc", "vs Duato-Nbc"].iloc[0] == 1.0
    import matplotlib.pyplot as plt

    plt.close(plot_fig1(pts, sat))
    plt.close(plot_comparison(cp, cs))
