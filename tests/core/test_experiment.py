"""models.core.experiment: Curve, Figure, run_curve / run_figure and the one error table.

Synthetic model and simulator with known answers: the model's latency is
``10 / (1 - x / sat)`` (cycles; saturated from ``x = sat``), the simulator's
is the same curve divided by ``bias`` (so the model's error is exactly
``bias - 1``) and saturated from its own ``sim_sat``.
"""

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from models.core.errors import ParameterError  # noqa: E402
from models.core.experiment import CurveRun, concat, error_table, run_curve, run_figure  # noqa: E402
from models.core.results import SimPoint  # noqa: E402
from models.core.setups import Curve, Figure  # noqa: E402
from models.core.saturation import Saturation, find_saturation  # noqa: E402
from models.core.validation import saturation_aware_error  # noqa: E402


def model(curve, x):
    sat = curve.model["sat"]
    lat = 10.0 / (1.0 - x / sat) if x < sat else math.inf
    return {"latency": lat, "saturated": x >= sat, "utilisation": x / sat}


class Sim:
    """Simulator stand-in: records the load lists it is given (one sweep per curve)."""

    def __init__(self):
        self.calls = []

    def __call__(self, curve, loads):
        self.calls.append(list(loads))
        c = curve.sim
        shape = c.get("shape", curve.model["sat"])
        rows = []
        for x in loads:
            if x >= c["sim_sat"]:
                rows.append(SimPoint(math.inf, math.inf, True))
            else:
                lat = 10.0 / (1.0 - x / shape) / c["bias"]
                rows.append(SimPoint(lat, c["ci"] * lat, False, extra={"hops": 2.0}))
        return rows


def model_sat(curve):
    return find_saturation(lambda x: model(curve, x)["saturated"], 0.0, 1.0, rtol=1e-9)


def sim_sat(curve, guess):
    return curve.sim["sim_sat"]


FRACTIONS = (0.25, 0.5, 0.75, 0.9, 1.1)
A = Curve("A", {"sat": 0.5}, {"bias": 1.1, "sim_sat": 0.4, "ci": 0.05}, setup="paper", loads=FRACTIONS,
          fractions_of="sim")
B = Curve("B", {"sat": 0.3}, {"bias": 1.0, "sim_sat": 0.4, "ci": 0.5, "shape": 0.45}, setup="paper",
          loads=FRACTIONS, fractions_of="sim")
C = Curve("C", {"sat": 0.5}, {"bias": 0.8, "sim_sat": 0.4, "ci": 0.3}, loads=FRACTIONS, fractions_of="sim")


def run(curve, **kw):
    return run_curve(curve, model, Sim(), model_saturation=model_sat, sim_saturation=sim_sat, **kw)


# ---------------------------------------------------------------- run_curve
def test_run_curve_loads_frames_and_saturations():
    sim = Sim()
    r = run_curve(A, model, sim, model_saturation=model_sat, sim_saturation=sim_sat,
                  line=lambda curve, sat, loads: np.linspace(0.0, sat, 6)[1:-1])
    assert isinstance(r, CurveRun) and r.label == "A"
    loads = [f * 0.4 for f in FRACTIONS]
    assert sim.calls == [loads]  # one sweep, the curve's fractions of the simulated saturation load
    assert list(r.sim["load"]) == loads and list(r.sim["fraction"]) == list(FRACTIONS)
    assert r.sim_saturation == 0.4
    assert abs(r.model_saturation - 0.5) < 1e-9 and isinstance(r.brackets["model"], Saturation)
    # model at the simulated loads and on the line, sorted by load
    assert len(r.model) == 5 + 4 and r.model["load"].is_monotonic_increasing
    assert r.model["fraction"].isna().sum() == 4
    assert {"latency", "saturated", "utilisation"} <= set(r.model.columns)
    assert r.params["load basis"] == "sim" and r.params["reference load"] == 0.4 and r.params["setup"] == "paper"


def test_points_pairs_model_and_simulation():
    p = run(A).points()
    assert list(p["fraction"]) == list(FRACTIONS)
    for col in ("model latency", "sim latency", "sim latency CI", "model saturated", "sim saturated",
                "model utilisation", "sim hops"):
        assert col in p
    np.testing.assert_allclose(p["model latency"][:4] / p["sim latency"][:4], 1.1, rtol=1e-12)
    assert not p["sim saturated"][:4].any() and p["sim saturated"].iloc[4]


def test_fractions_of_sim_fall_back_to_the_model_without_simulation():
    r = run_curve(A, model, model_saturation=model_sat)
    assert r.sim is None and math.isnan(r.sim_saturation) and r.params["load basis"] == "model"
    np.testing.assert_allclose(r.model["load"], [f * r.model_saturation for f in FRACTIONS])
    assert r.points().empty
    with pytest.raises(ParameterError, match="no saturation function"):
        run_curve(A, model)


def test_absolute_loads_and_rounding():
    r = run_curve(Curve("abs", {"sat": 0.5}, loads=(0.1, 0.2)), model)
    assert list(r.model["load"]) == [0.1, 0.2] and r.model["fraction"].isna().all()
    third = Curve("t", {"sat": 0.5}, loads=(1 / 3,), fractions_of="model")
    assert run_curve(third, model, model_saturation=lambda c: 0.5, round_to=3).model["load"].iloc[0] == 0.167


def test_functions_returning_the_wrong_thing():
    with pytest.raises(ParameterError, match="2 rows for 5 loads"):
        run_curve(A, model, lambda c, loads: [SimPoint(1.0)] * 2, model_saturation=model_sat,
                  sim_saturation=sim_sat)
    with pytest.raises(ParameterError, match="'latency'"):
        run_curve(Curve("x", loads=(0.1,)), lambda c, x: {"delay": 1.0})
    with pytest.raises(ParameterError):
        run_curve(A, model, model_saturation=lambda c: "soon")


def test_missing_saturated_flag_is_read_from_the_quantity():
    r = run_curve(Curve("x", loads=(0.1, 0.2)), lambda c, x: {"latency": math.inf if x > 0.15 else 1.0})
    assert list(r.model["saturated"]) == [False, True]


# ---------------------------------------------------------------- error_table
def test_error_table_known_errors():
    t = error_table([run(A), run(B), run(C)], at=(0.25, 0.5, 0.75, 0.9, 0.6), within=0.15)
    a, b, c = (t.iloc[i] for i in range(3))
    assert list(t["curve"]) == ["A", "B", "C"] and a["setup"] == "paper"
    # A: the model is 10% above the simulation everywhere both are finite
    for p in (25, 50, 75, 90):
        assert a[f"err @{p}% [%]"] == pytest.approx(10.0, abs=1e-9)
    assert math.isnan(a["err @60% [%]"])  # not a simulated fraction
    assert a["max |err| [%]"] == pytest.approx(10.0) and a["mean |err| [%]"] == pytest.approx(10.0)
    assert a["points"] == 4 and a["in CI"] == 0 and a["within 15%"] == 4 and a["model saturated"] == 0
    assert a["model saturation"] == pytest.approx(0.5, abs=1e-9) and a["sim saturation"] == 0.4
    assert a["saturation err [%]"] == pytest.approx(25.0, abs=1e-6) and a["saturation ratio"] == pytest.approx(1.25)
    # C: signed, -20%, and inside a 30% CI
    assert c["err @50% [%]"] == pytest.approx(-20.0, abs=1e-9) and c["in CI"] == 4 and c["within 15%"] == 0
    # B: the model saturates at 0.3 before the simulation (0.4): +inf at 75% and 90%
    assert b["err @75% [%]"] == math.inf and b["err @90% [%]"] == math.inf
    assert b["model saturated"] == 2 and b["points"] == 2
    assert b["saturation err [%]"] == pytest.approx(-25.0, abs=1e-6)
    # numeric columns, not strings
    assert all(pd.api.types.is_numeric_dtype(t[col]) for col in t.columns if col not in ("curve", "setup"))


def test_error_table_errors_are_the_validation_functions():
    r = run(B)
    p = r.points()
    expect = 100.0 * saturation_aware_error(p["model latency"], p["sim latency"])
    t = error_table([r], at=FRACTIONS)
    assert [t.iloc[0][f"err @{round(100 * f)}% [%]"] for f in FRACTIONS[:4]] == pytest.approx(list(expect[:4]))
    assert math.isnan(t.iloc[0]["err @110% [%]"])  # the simulation is saturated there


def test_error_table_without_simulation_and_invalid_input():
    t = error_table([run_curve(A, model, model_saturation=model_sat)])
    assert t.iloc[0]["points"] == 0 and math.isnan(t.iloc[0]["err @25% [%]"]) and math.isnan(t.iloc[0]["sim saturation"])
    with pytest.raises(ParameterError):
        error_table([{"curve": "A"}])
    with pytest.raises(ParameterError):
        error_table([run(A)], at=(0.0,))


def test_error_table_other_quantities_and_absolute_loads():
    # a closed network: x is NC, two quantities, no saturation
    def mva(curve, nc):
        return {"R": 10.0 + nc, "X": nc / (10.0 + nc)}

    def closed_sim(curve, ncs):
        return [SimPoint((10.0 + n) / 1.02, 0.5, extra={"R": (10.0 + n) / 1.02, "R CI": 0.5,
                                                        "X": n / (10.0 + n) * 1.04, "X CI": 1e-6}) for n in ncs]

    c = Curve("S_mm=2", {"S_mm": 2}, loads=(1, 2, 4, 8))
    r = run_curve(c, mva, closed_sim, quantity="R")
    tr = error_table([r], at=None)
    tx = error_table([r], at=None, quantity="X", within=0.05)
    assert tr.iloc[0]["max |err| [%]"] == pytest.approx(2.0) and tr.iloc[0]["points"] == 4
    assert tx.iloc[0]["max |err| [%]"] == pytest.approx(100 * (1 / 1.04 - 1) * -1, rel=1e-9)
    assert tx.iloc[0]["within 5%"] == 4 and tx.iloc[0]["in CI"] == 0
    assert not any(col.startswith("err @") for col in tr.columns)


# ---------------------------------------------------------------- Curve and Figure
def test_curve_is_frozen_copied_hashable():
    cfg = {"sat": 0.5}
    c = Curve("A", cfg, loads=[0.1, 0.2])
    cfg["sat"] = 9.0
    assert c.model == {"sat": 0.5} and c.loads == (0.1, 0.2)
    with pytest.raises(AttributeError):
        c.label = "B"
    assert hash(c) == hash(Curve("A", {"sat": 0.5}, loads=(0.1, 0.2)))
    assert c.key != c.replace(loads=(0.1, 0.3)).key
    assert {c: 1}[Curve("A", {"sat": 0.5}, loads=(0.1, 0.2))] == 1


@pytest.mark.parametrize(
    "kwargs",
    [dict(label=""), dict(label="A", fractions_of="saturation"), dict(label="A", loads=(0.1, -0.2)),
     dict(label="A", loads=(0.0,), fractions_of="sim"), dict(label="A", loads="0.1"), dict(label="A", model=[1]),
     dict(label="A", loads=(math.nan,))],
)
def test_curve_validation(kwargs):
    with pytest.raises(ParameterError):
        Curve(**kwargs)


def test_figure():
    f = Figure("fig-torus_nbc-latency", "8x8 torus", (A, C), x_label="generation rate", x_unit="messages/node/cycle")
    assert f.chapter == "torus_nbc" and f.curve("C") is C
    assert f.xlabel == "generation rate [messages/node/cycle]" and f.ylabel == "mean message latency [cycles]"
    for bad in ("fig1", "Fig-torus-x", "fig-torus_nbc-"):
        with pytest.raises(ParameterError):
            Figure(bad, "t", (A,))
    with pytest.raises(ParameterError, match="unique"):
        Figure("fig-x-y", "t", (A, A))
    with pytest.raises(ParameterError):
        Figure("fig-x-y", "t", ())
    with pytest.raises(ParameterError):
        f.curve("Z")


def test_run_figure_and_concat():
    f = Figure("fig-test-fig1", "test", (A, B, C))
    runs = run_figure(f, model, Sim(), model_saturation=model_sat, sim_saturation=sim_sat)
    assert isinstance(runs, tuple) and [r.label for r in runs] == ["A", "B", "C"]
    assert all(r.quantity == "latency" for r in runs)
    assert list(concat(runs, "sim")["curve"].unique()) == ["A", "B", "C"] and len(concat(runs, "sim")) == 15
    assert len(concat(runs, "points")) == 15 and len(concat(runs, "model")) == 15
    with pytest.raises(ParameterError):
        concat(runs, "table")


def test_plot_curve_runs_leaves_saturated_points_out():
    import matplotlib.pyplot as plt

    from models.core.plotting import plot_curve_runs

    f = Figure("fig-test-fig1", "test", (A, B))
    runs = run_figure(f, model, Sim(), model_saturation=model_sat, sim_saturation=sim_sat)
    ax = plot_curve_runs(runs, f)
    lines = [ln for ln in ax.get_lines() if ln.get_label().endswith("model")]
    assert len(lines) == 2 and all(np.all(np.isfinite(ln.get_ydata())) for ln in lines)
    assert len(lines[1].get_xdata()) == 2  # curve B: the model saturates at 0.3 = 75% of the sim load
    assert ax.get_xlabel() == f.xlabel and ax.get_title() == "test"
    plt.close(ax.figure)
