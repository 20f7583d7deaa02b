"""Synthetic runs of the chapter's curves (no simulator, no model solve) for the claims and glue tests."""

import math

import numpy as np
import pytest

from models.core.experiment import run_curve
from models.core.results import SimPoint
from models.torus_ipp import experiments as X


def _fake_run(panel="Fig. 1(a)", traffic="ipp", setup="paper/model", *, model_sat=0.5, sim_sat=1.0,
              err=(0.01, 0.02, 0.05, 0.1), fractions=(0.25, 0.5, 0.75, 0.9)):
    """A CurveRun whose model is ``(1 + err) x`` the simulation at ``fractions`` of ``sim_sat``,
    saturated from ``model_sat`` on (loads are abstract)."""
    base = X.paper_figure(1 if panel.startswith("Fig. 1") else 2).curve(panel)
    curve = X.with_setup(X.with_traffic(base, traffic), setup).replace(loads=fractions)
    errors = dict(zip(fractions, err))

    def sim(c, loads):
        return [SimPoint(100.0 + 100.0 * x, 1.0, False) for x in loads]

    def model(c, x):
        if x >= model_sat:
            return {"latency": math.inf, "saturated": True}
        f = x / sim_sat
        e = next((v for k, v in errors.items() if np.isclose(k, f)), 0.0)
        return {"latency": (100.0 + 100.0 * x) * (1 + e), "saturated": False}

    return run_curve(curve, model, sim, model_saturation=lambda c: model_sat, sim_saturation=lambda c, m: sim_sat)


def _full_run(panel, setup, sim_sat):
    """A CurveRun with every model and simulator column (the simulation saturated from 85 % of ``sim_sat`` on)."""
    curve = X.with_setup(X.paper_figure(1).curve(panel), setup).replace(loads=(0.25, 0.5, 0.75, 0.9))
    extras = [c for c in X.SIM_COLUMNS if c not in ("latency", X.LATENCY_CI, "saturated")]

    def model(c, x):
        return {**{col: 1.0 for col in X.MODEL_COLUMNS}, "latency": (100.0 + 100.0 * x) * 1.01, "saturated": False}

    def sim(c, loads):
        return [SimPoint(100.0 + 100.0 * x if x < 0.85 * sim_sat else math.inf, 1.0, not x < 0.85 * sim_sat,
                         extra={**dict.fromkeys(extras, 1.0), "throughput": 0.01 * x}) for x in loads]

    return run_curve(curve, model, sim, model_saturation=lambda c: 0.5 * sim_sat, sim_saturation=lambda c, m: sim_sat)


@pytest.fixture
def fake_run():
    """``fake_run(panel, traffic, setup, *, model_sat, sim_sat, err, fractions)``: a synthetic CurveRun."""
    return _fake_run


@pytest.fixture
def full_run():
    """``full_run(panel, setup, sim_sat)``: a synthetic CurveRun with every column of the chapter's runs."""
    return _full_run
