"""The figure runners and error tables behind the min_mva notebooks."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.errors import ParameterError
from models.core.experiment import Curve, CurveRun, Figure
from models.min_mva import saturation_load
from models.min_mva.experiments import (FIGURES, SIM_KEYS, curves_table, error_tables, run_curve, run_figure,
                                        sim_params)


def test_figures_match_the_paper_captions():
    assert sorted(FIGURES) == [2, 3, 4, 5, 6, 7, 8]
    assert all(isinstance(f, Figure) and f.label == f"fig-min_mva-fig{n}" for n, f in FIGURES.items())
    assert all(isinstance(c, Curve) for f in FIGURES.values() for c in f.curves)
    assert [c.model["S_mm"] for c in FIGURES[2].curves] == [1, 2, 4]
    assert FIGURES[4].curves[0].model["k"] == 4 and FIGURES[4].curves[0].model["n"] == 3
    assert FIGURES[5].curves[0].model["n"] == 7
    assert FIGURES[3].curves[0].model["pattern"] == "hot_spot"
    for number, m in ((6, 2), (7, 4), (8, 8)):
        assert [c.model["S_mm"] for c in FIGURES[number].curves] == [m, 2 * m]
        assert all(c.model["m"] == m for c in FIGURES[number].curves)


def test_sim_params_keep_the_model_configuration():
    model = dict(FIGURES[3].curves[0].model, damping=0.3, method="general")
    assert sim_params(model) == FIGURES[3].curves[0].model
    assert sim_params(model, {"return_wiring": "same"})["return_wiring"] == "same"
    assert set(sim_params(model)) <= set(SIM_KEYS)


def test_model_only_curve_is_monotone_and_bounded():
    runs = run_figure(2, [1, 2, 4, 8, 16, 32], simulate=False)
    assert all(isinstance(r, CurveRun) and r.sim is None for r in runs)
    frame = curves_table({2: runs})
    assert list(frame.columns) == ["figure", "curve", "setup", "NC", "model R", "model X", "iterations"]
    assert set(frame["setup"]) == {"paper"}
    assert frame["NC"].tolist()[:6] == [1, 2, 4, 8, 16, 32] and frame["NC"].dtype.kind == "i"
    for _, g in frame.groupby("curve"):
        assert g["model R"].is_monotonic_increasing and g["model X"].is_monotonic_increasing
    # throughput never exceeds what the memories can serve: N / S_mm requests per cycle
    for label, smm in (("S_mm=2", 2), ("S_mm=4", 4)):
        assert frame[frame["curve"] == label]["model X"].max() < 64 / smm
    # each run records N* of its curve
    assert runs[1].model_saturation == pytest.approx(saturation_load(**FIGURES[2].curves[1].model))
    with pytest.raises(ParameterError, match="`NC`"):
        run_curve(FIGURES[2].curves[0], [0], simulate=False)
    with pytest.raises(ParameterError, match="`NC`"):
        run_curve(FIGURES[2].curves[0], [1.5], simulate=False)


def test_overrides_reach_the_model():
    run = run_curve(FIGURES[2].curves[1], [2], simulate=False, overrides={"n": 3})
    assert run.curve.model["n"] == 3 and run.model_saturation == pytest.approx(saturation_load(n=3, S_mm=2))


def _fake_run(label, fig, ncs=(1, 2)):
    """A simulated CurveRun with model R = 10 fig and sim R = 10 fig (1 + 0.01 fig)."""
    curve = Curve(label, model={"S_mm": 1}, loads=ncs)
    model = pd.DataFrame({"curve": label, "load": [float(x) for x in ncs], "fraction": math.nan,
                          "R": 10.0 * fig, "X": 1.0, "iterations": 5, "saturated": False})
    sim = pd.DataFrame({"curve": label, "load": [float(x) for x in ncs], "fraction": math.nan,
                        "R": 10.0 * fig * (1 + 0.01 * fig), "R CI": 0.0, "X": 1.0, "X CI": 0.1, "saturated": False})
    return CurveRun(curve=curve, model=model, sim=sim, model_saturation=math.nan, sim_saturation=math.nan,
                    params={}, quantity="R")


def test_error_tables_keep_figures_apart():
    results = {2: (_fake_run("S_mm=1", 2),), 5: (_fake_run("S_mm=1", 5),)}
    points, summary = error_tables(results)
    assert list(summary["curve"]) == [f"Fig. {f}, S_mm=1: {q}" for q in "RX" for f in (2, 5)]
    assert list(summary.columns) == ["curve", "setup", "points", "max |rel. error|", "mean |rel. error|", "in CI"]
    assert summary["points"].tolist() == [2, 2, 2, 2]
    assert np.allclose(summary["max |rel. error|"][:2], [1 - 1 / 1.02, 1 - 1 / 1.05])
    assert summary["in CI"].tolist() == ["0/2", "0/2", "2/2", "2/2"]
    assert list(points.columns) == ["curve", "figure", "setup", "quantity", "NC", "model", "sim", "sim 95% CI",
                                    "rel. error", "in CI"]
    assert points["NC"].tolist() == [1, 2] * 4 and points["NC"].dtype.kind == "i"
    assert points["figure"].tolist() == [2, 2, 5, 5] * 2 and points["quantity"].tolist() == ["R"] * 4 + ["X"] * 4
    frame = curves_table(results)
    assert list(frame.columns) == ["figure", "curve", "setup", "NC", "model R", "model X", "iterations",
                                   "sim R", "sim R CI", "sim X", "sim X CI"]
    assert frame["figure"].tolist() == [2, 2, 5, 5]
