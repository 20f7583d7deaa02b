"""The figure runners and error tables behind the min_mva notebooks."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.setups import SimSettings
from models.core.errors import ParameterError
from models.core.experiment import CurveRun
from models.core.results import SimPoint
from models.core.setups import Curve, Figure
from models.min_mva import saturation_load
from models.sim import closed_min
from models.min_mva.experiments import (FIGURES, NC_GRID, SIM_KEYS, curves_table, error_tables, paper_figure,
                                        run_figure, sim_kwargs, sim_params, simulate_curve)
from models.min_mva.params import MvaParams
from models.min_mva.setups import SETTINGS


def test_figures_match_the_paper_captions():
    assert list(FIGURES) == [f"fig-min_mva-fig{n}" for n in range(2, 9)]
    assert all(isinstance(f, Figure) and f.label == key and f.chapter == "min_mva" for key, f in FIGURES.items())
    assert all(isinstance(c, Curve) and c.loads == NC_GRID for f in FIGURES.values() for c in f.curves)
    assert [c.model["S_mm"] for c in paper_figure(2).curves] == [1, 2, 4]
    assert paper_figure(4).curves[0].model["k"] == 4 and paper_figure(4).curves[0].model["n"] == 3
    assert paper_figure(5).curves[0].model["n"] == 7
    assert paper_figure(3).curves[0].model["pattern"] == "hot_spot"
    for number, m in ((6, 2), (7, 4), (8, 8)):
        assert [c.model["S_mm"] for c in paper_figure(number).curves] == [m, 2 * m]
        assert all(c.model["m"] == m for c in paper_figure(number).curves)
    assert paper_figure(2, [1, 4]).curves[0].loads == (1, 4) and paper_figure(2) == FIGURES["fig-min_mva-fig2"]
    with pytest.raises(ParameterError, match="`number`"):
        paper_figure(9)
    with pytest.raises(ParameterError, match="`NC`"):
        paper_figure(2, [1.5])


def test_sim_params_keep_the_model_configuration():
    model = dict(paper_figure(3).curves[0].model, damping=0.3, method="general")
    assert sim_params(model) == paper_figure(3).curves[0].model
    assert sim_params(model, {"return_wiring": "same"})["return_wiring"] == "same"
    assert set(sim_params(model)) <= set(SIM_KEYS)


def test_the_curve_carries_the_checked_network_to_the_simulator_unchanged():
    """The figures' curves hold MvaParams' checked keywords; sim_kwargs passes them on as they are (no second
    check or coercion), with the set-up's wiring and NC."""
    curve = paper_figure(6).curves[0]
    p = MvaParams(topology="omega", k=2, n=6, S_pe=1, S_mm=2, m=2, pattern="uniform")
    assert curve.model == p.keywords() and type(curve.model["S_mm"]) is float and type(curve.model["k"]) is int
    kw = sim_kwargs(curve, 4, SETTINGS)
    assert all(kw[key] is curve.model[key] for key in SIM_KEYS if key != "return_wiring")
    assert kw["return_wiring"] == curve.sim["return_wiring"] == "mirror" and set(SIM_KEYS) == set(MvaParams.KEYWORDS)


def test_sim_kwargs_take_the_run_lengths_in_cycles():
    curve = paper_figure(2).curves[0]
    kw = sim_kwargs(curve, 4, SETTINGS)
    assert kw["NC"] == 4 and isinstance(kw["NC"], int) and (kw["cycles"], kw["warmup"]) == (200_000, 20_000)
    assert kw["batches"] == 20 and kw["seed"] == 1 and "target_ci" not in kw and kw["return_wiring"] == "mirror"
    precise = sim_kwargs(curve, 4.0, SETTINGS.replace(target_ci=0.01, cycles=40_000), max_cycles=100_000)
    assert (precise["NC"], precise["target_ci"], precise["max_cycles"], precise["cycles"]) == (4, 0.01, 100_000, 40_000)
    with pytest.raises(ParameterError, match="`NC`"):
        sim_kwargs(curve, 2.5, SETTINGS)
    with pytest.raises(ParameterError, match="`settings`"):
        sim_kwargs(curve, 2, SimSettings())  # no cycles: a closed system's run length is not in messages
    with pytest.raises(ParameterError, match="`loads` must be integers"):
        simulate_curve(curve, [2, 2.5], SETTINGS)


@pytest.mark.slow
def test_simulate_curve_is_the_cached_closed_simulator(tmp_cache):
    curve = Curve("tiny", model=dict(topology="omega", k=2, n=2, S_pe=1.0, S_mm=2.0, m=1, pattern="uniform"))
    settings = SimSettings(cycles=3000, warmup_cycles=300, batches=5)
    rows = simulate_curve(curve, [1, 3], settings)
    assert all(isinstance(r, SimPoint) for r in rows) and [r.saturated for r in rows] == [False, False]
    for nc, row in zip((1, 3), rows):
        ref = closed_min.simulate(**sim_kwargs(curve, nc, settings))
        assert (row.latency, row.latency_ci, row.extra["X"], row.extra["X CI"]) == (ref.R, ref.R_ci, ref.X, ref.X_ci)


def test_model_only_curve_is_monotone_and_bounded():
    runs = run_figure(paper_figure(2, [1, 2, 4, 8, 16, 32]), simulate=False)
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
    assert runs[1].model_saturation == pytest.approx(saturation_load(**paper_figure(2).curves[1].model))
    bad = Figure("fig-min_mva-x", "t", (paper_figure(2).curves[0].replace(loads=(0,)),), quantity="R")
    with pytest.raises(ParameterError, match="`NC`"):
        run_figure(bad, simulate=False)
    with pytest.raises(ParameterError, match="`figure`"):
        run_figure(2, simulate=False)


def test_a_readers_network_reaches_the_model():
    curve = paper_figure(2, [2]).curves[1]
    mine = Figure("fig-min_mva-mine", "n = 3", (curve.replace(model={**curve.model, "n": 3}),), quantity="R")
    run, = run_figure(mine, simulate=False)
    assert run.curve.model["n"] == 3 and run.model_saturation == pytest.approx(saturation_load(n=3, S_mm=2))
    assert sim_kwargs(run.curve, 2)["n"] == 3


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


def test_a_simulated_figure_carries_each_points_run_length_and_cap(tmp_cache):
    """``run_figure``'s points carry the cycles each run took and the cap the simulator applied (what a page's
    precision sentence states): ``max_cycles`` when given, else the simulator's own default, and the run length
    itself for a fixed-length run; a run never passes its cap."""
    curve = paper_figure(2, [2]).curves[0]
    fig = Figure("fig-min_mva-t", "t", (curve,), quantity="R")
    target = SimSettings(cycles=1_500, warmup_cycles=1_000, batches=5, target_ci=1e-4, jobs=1)
    for max_cycles, cap in ((5_000, 5_000), (None, 1_000 + closed_min.MAX_EXTENSION * 500)):
        run, = run_figure(fig, target, max_cycles=max_cycles)
        assert run.sim["max cycles"].tolist() == [cap]
        assert 1_500 <= run.sim["cycles"].iloc[0] <= cap
    run, = run_figure(fig, SimSettings(cycles=3_000, warmup_cycles=1_000, batches=5, jobs=1))
    assert run.sim["cycles"].tolist() == run.sim["max cycles"].tolist() == [3_000]
