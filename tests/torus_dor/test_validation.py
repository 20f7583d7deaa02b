"""Model against the simulator where the answer is known: zero load (M + h + 1 cycles) and light load;
the experiment skeleton (figures, curves, error tables) of the chapter."""

import math

import numpy as np
import pytest

from models.core.experiment import CurveRun, Figure
from models.torus_dor import solve
from models.torus_dor.experiments import (FIGURES, capacity_load, error_table, figure1, format_error_table,
                                          points_table, run_curve, torus_curve, zero_load_check)


@pytest.mark.parametrize("radices,L,M", [((8, 8), 3, 32), ((4, 6), 2, 16), ((3, 4, 5), 5, 8)])
def test_zero_load_latency_matches_the_simulator_within_one_percent(radices, L, M, tmp_cache):
    z = zero_load_check(torus_curve(radices, L, M), messages=2000)
    assert abs(z["rel. error"]) < 0.01, z
    assert z["model"] == pytest.approx(z["M+h+1"], rel=0.01)


def test_light_load_agreement_and_error_table(tmp_cache):
    c = torus_curve((6, 6), 3, 16, fractions=[0.25])
    run = run_curve(c, messages=3000, warmup_messages=300, batches=10, sat_messages=1500, sat_steps=4,
                    model_points=5)
    assert isinstance(run, CurveRun)
    t = error_table([run])
    assert list(t.columns) == ["curve", "err 25%", "err 50%", "err 75%", "err 90%", "sat model", "sat sim",
                               "sat model / sim"]
    assert abs(t["err 25%"].iloc[0]) < 0.1
    assert 0 < t["sat sim"].iloc[0] < capacity_load(c)
    assert math.isnan(t["err 50%"].iloc[0])  # not run
    assert format_error_table(t)["err 25%"].iloc[0].endswith("%")
    pts = points_table([run])
    assert pts["rate"].iloc[0] == pytest.approx(0.25 * run.sim_saturation)
    assert pts["model latency"].iloc[0] == solve(pts["rate"].iloc[0], **c.model).latency
    # the model line stops short of the model's saturation load
    line = run.model[np.isnan(run.model["fraction"])]
    assert len(line) == 5 and np.isfinite(line["latency"]).all()


def test_figures_are_the_papers():
    assert sorted(FIGURES) == [1, 2] and all(isinstance(f, Figure) for f in FIGURES.values())
    assert len(FIGURES[1].curves) == 12 and FIGURES[1].label == "fig-torus_dor-fig1"
    assert FIGURES[2].curves[0].model["radices"] == (16, 16) and FIGURES[2].curves[0].model["L"] == 5
    f = figure1(networks=[[8, 8]], M_values=[32], vcs_values=[3, 5], fractions=[0.5])
    assert [c.label for c in f.curves] == ["8x8, L=3, M=32", "8x8, L=5, M=32"]
    assert all(c.loads == (0.5,) and c.fractions_of == "sim" for c in f.curves)
    with pytest.raises(ValueError, match="L"):
        torus_curve((8, 8), 1, 32)
