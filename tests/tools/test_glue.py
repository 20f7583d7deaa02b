"""Every number the warm-up pages quote (``models.tools.glue``), from small tables."""

from __future__ import annotations

import pandas as pd
import pytest

from models.tools.glue import glue_values_little, glue_values_mg1, glue_values_saturation, glue_values_zero_load


def test_glue_values_zero_load():
    t = pd.DataFrame({"sim": [10.0, 20.0], "error": [-0.01, 0.002], "model at sim hops": [9.95, 20.0]})
    g = glue_values_zero_load(t)
    assert g["tools-zero-worst"] == 0.01 and g["tools-zero-worst-hops"] == pytest.approx(0.005)
    assert (g["tools-zero-min"], g["tools-zero-max"]) == (10.0, 20.0)


def test_glue_values_little():
    g = glue_values_little(pd.DataFrame({"gap": [0.001, -0.003], "counted L": [2.0, 9.0],
                                         "fraction of bound": [0.1, 0.45]}))
    assert g == {"tools-little-worst": 0.003, "tools-little-max-L": 9.0, "tools-little-points": 2,
                 "tools-little-top-fraction": 0.45}


def test_glue_values_mg1():
    t = pd.DataFrame({"service": ["deterministic", "exponential"] * 1, "rho": [0.5, 0.5],
                      "model W": [4.0, 8.0], "sim W": [4.1, 9.0], "sim 95% ±": [0.1, 0.2],
                      "error": [-0.1 / 4.1, -1 / 9]})
    g = glue_values_mg1(t)
    assert g["tools-mg1-ratio"] == 0.5 and g["tools-mg1-rows"] == 2 and g["tools-mg1-within"] == 1
    assert g["tools-mg1-worst"] == pytest.approx(1 / 9)


def test_glue_values_saturation():
    latency = pd.DataFrame({"vcs": [2, 2, 4], "load": [0.1, 0.2, 0.1]})
    accepted = pd.DataFrame({"vcs": [2, 2, 4, 4], "offered": [0.1, 0.3, 0.1, 0.4], "accepted": [0.1, 0.2, 0.1, 0.3]})
    g = glue_values_saturation(latency, bound=0.5, channel=0.5, ejection=1.0, saturation={2: 0.25, 4: 0.4},
                               doubling={2: 0.2, 4: 0.3}, accepted=accepted)
    assert g["tools-bound-binding"] == "the network channels" and g["tools-sat-points"] == 3
    assert g["tools-sat-4-fraction"] == pytest.approx(0.8) and g["tools-knee-2-fraction"] == pytest.approx(0.8)
    assert g["tools-accepted-last-4"] == 0.3 and g["tools-accepted-last-4-fraction"] == pytest.approx(0.75)
    assert glue_values_saturation(latency, bound=0.5, channel=0.6, ejection=0.5, saturation={}, doubling={},
                                  accepted=accepted)["tools-bound-binding"] == "the ejection channel"
