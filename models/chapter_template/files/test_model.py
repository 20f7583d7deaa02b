"""Unit tests of the chapter_template chapter (PLACEHOLDER model: replace with the paper's own checks)."""

import math

import pandas as pd
import pytest

import models.chapter_template as ch
from models.chapter_template import claims, experiments, glue, setups


def test_zero_load_latency_is_the_message_length():
    assert ch.solve(0.0, M=16).latency == pytest.approx(16.0)


def test_md1_wait():
    rate, M = 0.02, 32
    rho = rate * M
    assert ch.solve(rate, M=M).wait == pytest.approx(rate * M**2 / (2 * (1 - rho)))


def test_saturation_is_the_capacity():
    assert ch.saturation_load(M=32) == pytest.approx(1 / 32, rel=1e-5)
    assert ch.solve(1 / 32, M=32).saturated


def test_the_parameters_are_checked_once_at_the_door():
    assert setups.Params(M=32.0).M == 32 and isinstance(setups.Params(M=32.0).M, int)
    with pytest.raises(ValueError, match="`M`"):
        setups.Params(M=0)


def test_simulation_agrees_with_the_model():
    curve = experiments.FIGURES["fig-chapter_template-latency"].curves[0]
    point = experiments.simulate_curve(curve, [0.02], setups.SETTINGS.replace(messages=20_000))[0]
    model = ch.solve(0.02, **curve.model).latency
    assert abs(point.latency - model) <= 4 * point.latency_ci + 0.02 * model


def test_glue_values_and_claims():
    runs = experiments.run_figure(experiments.FIGURES["fig-chapter_template-latency"],
                                  setups.SETTINGS.replace(messages=2000, warmup_messages=200), model_points=5)
    values = glue.glue_values(runs)
    assert set(values) == {"chapter_template-worst-error", "chapter_template-curves"}
    assert values["chapter_template-curves"] == 2
    table = claims.claims_table(runs)
    assert isinstance(table, pd.DataFrame) and len(table) == 1
    assert math.isfinite(table["worst_err"].iloc[0])
