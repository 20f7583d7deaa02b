"""torus_nbc: the parameters value (checked once) and the set-ups module (its lightness is the contract test's)."""

import dataclasses

import pytest

from models.core.errors import ParameterError
from models.torus_nbc import NbcParams, min_escape_levels
from models.torus_nbc.setups import DEFAULT_SETUP, RUN, SETUPS, curve


def test_the_parameters_are_checked_and_coerced_once_when_made():
    p = NbcParams(8.0, 32.0)
    assert (p.k, p.M, p.V, p.escape_levels) == (8, 32, 10, None)
    assert all(type(x) is int for x in (p.k, p.M, p.V))
    assert (p.V2, p.V1, p.N, p.diameter) == (5, 5, 64, 8)
    assert p.model == dict(k=8, M=32, V=10, escape_levels=None, mean_distance="agarwal", variance="paper")
    assert p.as_dict() == dict(p.model, escape_levels=5)   # a result's params: the levels resolved
    q = NbcParams(16, 64, 12, 10, "exact", "zero")
    assert (q.V2, q.V1) == (10, 2) and q.model["escape_levels"] == 10
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.M = 64
    for kw, name in ((dict(k=6, M=8), "k"), (dict(k=8, M=0), "M"), (dict(k=8, M=8.5), "M"),
                     (dict(k=16, M=8, V=9), "V"), (dict(k=8, M=8, escape_levels=4), "escape_levels"),
                     (dict(k=8, M=8, escape_levels=10), "escape_levels"),
                     (dict(k=8, M=8, mean_distance="x"), "mean_distance"), (dict(k=8, M=8, variance="x"), "variance")):
        with pytest.raises(ParameterError, match=f"`{name}`"):
            NbcParams(**kw)
    # replace() makes a new value, checked like any other
    assert dataclasses.replace(p, escape_levels=p.V2 + 1).V1 == 4
    with pytest.raises(ParameterError, match="`escape_levels`"):
        dataclasses.replace(p, escape_levels=10)


def test_the_curve_carries_the_checked_parameters_as_they_are():
    p = NbcParams(8, 32)
    c = curve(p)
    assert c.setup == DEFAULT_SETUP == "paper" and c.label == "8x8, M=32, paper set-up"
    assert c.model == p.model and c.sim == {"routing": "duato_nbc", "ejection_vcs": 1}
    assert curve(p, "model").sim == {"routing": "duato_nbc", "ejection_vcs": 10}
    levels = curve(NbcParams(8, 32, escape_levels=min_escape_levels(8)), "model", loads=(0.5,), fractions_of="sim")
    assert levels.model["escape_levels"] == 5 and levels.loads == (0.5,) and levels.fractions_of == "sim"
    with pytest.raises(ParameterError, match="`setup`"):
        curve(p, "nonsense")
    assert set(SETUPS) == {"paper", "model"} and RUN.unit == "messages"

