"""The chapter contract of ``models/__init__.py``, checked for every chapter.

One parametrised test per rule, so a sixth chapter is checked by adding one
line to ``CONFIGS``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math

import numpy as np
import pytest

import models

#: A small configuration of each chapter's model (the front door's keyword arguments).
CONFIGS = {
    "min_mva": dict(topology="omega", k=2, n=3, S_pe=1, S_mm=2),
    "torus_dor": dict(radices=(8, 8), L=3, M=32),
    "torus_ipp": dict(k=8, V=3, M=32, sigma1=0.2, sigma2=0.8),
    "xfolded_tm": dict(ad=4.0, M=32, V=2, k=8),
    "torus_nbc": dict(k=8, M=32, V=10),
}
RESULT_NAMES = {"min_mva": "MinMvaResult", "torus_dor": "TorusDorResult", "torus_ipp": "TorusIppResult",
                "xfolded_tm": "XfoldedTmResult", "torus_nbc": "TorusNbcResult"}
CLOSED = {"min_mva"}  # closed systems: never saturated, N* is a knee, not a wall


@pytest.fixture(params=models.CHAPTERS)
def chapter(request):
    return request.param, importlib.import_module(f"models.{request.param}")


def test_every_chapter_has_a_config():
    assert set(CONFIGS) == set(models.CHAPTERS)


def test_front_door_exists(chapter):
    name, mod = chapter
    for attr in ("solve", "solve_curve", "saturation_load", "equations", "LOAD", "LOAD_UNIT", "CurveResult",
                 RESULT_NAMES[name]):
        assert hasattr(mod, attr), f"models.{name} lacks {attr}"
    assert isinstance(mod.LOAD, str) and isinstance(mod.LOAD_UNIT, str) and mod.LOAD_UNIT


def test_load_is_the_only_positional_argument(chapter):
    name, mod = chapter
    for fn in (mod.solve, mod.solve_curve):
        params = list(inspect.signature(fn).parameters.values())
        assert params[0].kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD), fn
        others = [p for p in params[1:] if p.kind not in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)]
        assert not others, f"{name}.{fn.__name__}: {[p.name for p in others]} are not keyword-only"
    if mod.solve.__code__.co_posonlyargcount == 0:
        assert list(inspect.signature(mod.solve).parameters)[0] == mod.LOAD
    sat = inspect.signature(mod.saturation_load).parameters
    assert "rtol" in sat and all(p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)
                                 for p in sat.values()), f"{name}.saturation_load takes keywords only, with rtol"


def test_results_are_frozen_and_built_by_keyword(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    r = mod.solve(0.5 * sat, **cfg)
    assert type(r).__name__ == RESULT_NAMES[name]
    assert dataclasses.is_dataclass(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.latency = 0.0
    clone = type(r)(**{f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.init})
    assert clone.latency == r.latency


def test_below_saturation_finite_above_saturated(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    assert math.isfinite(sat) and sat > 0
    below = mod.solve(0.5 * sat, **cfg)
    assert not below.saturated and math.isfinite(below.latency) and below.latency > 0
    assert isinstance(below.iterations, (int, np.integer)) and below.iterations >= 0
    if name in CLOSED:
        return
    above = mod.solve(1.5 * sat, **cfg)
    assert above.saturated and above.latency == math.inf
    # saturation_load is the edge, to its tolerance
    assert not mod.solve(sat * (1 - 1e-3), **cfg).saturated


def test_curve_equals_points(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    loads = [sat * f for f in (0.2, 0.6, 0.9)] + ([] if name in CLOSED else [sat * 1.2])
    if name in CLOSED:
        loads = [max(1, round(x)) for x in loads]
    curve = mod.solve_curve(loads, **cfg)
    assert type(curve).__name__ == "CurveResult"
    assert np.allclose(curve.loads, loads)
    for i, x in enumerate(loads):
        p = mod.solve(x, **cfg)
        assert bool(curve.saturated[i]) == p.saturated
        assert curve.latency[i] == pytest.approx(p.latency, rel=1e-9) or (math.isinf(p.latency) and math.isinf(curve.latency[i]))


def test_bad_load_is_a_value_error(chapter):
    name, mod = chapter
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match=mod.LOAD):
            mod.solve(bad, **CONFIGS[name])
