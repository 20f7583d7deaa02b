"""torus_nbc: "an evenly distributed traffic rate on all network channels" (Sect. 3.2.1), decided on independently
seeded runs by the declared criterion equal-beyond-noise (issue #34; referee #19, section 2 item 7)."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.claims import row_stands_for
from models.core.setups import SimSettings
from models.findings.verdicts import verdict_table
from models.torus_nbc.channels import BALANCE_COLUMNS, balance_row, channel_classes, seeds_of
from models.torus_nbc.claims import claims_table
from models.torus_nbc.setups import SETUPS


def _loads(k=4, runs=4, noise=0.01, plus=1.0, pattern=0.0, seed=0):
    """Independent runs of channel loads: mean 1, + channels ``plus`` times the - ones, a fixed ``pattern``
    shared by every run, and independent counting noise."""
    rng = np.random.default_rng(seed)
    cls = channel_classes(k)
    base = np.where(cls["direction"] == "+", plus, 1.0) * (1 + pattern * np.random.default_rng(99).standard_normal(
        len(cls)))
    return [base * (1 + noise * rng.standard_normal(len(cls))) for _ in range(runs)]


def test_channel_classes_of_the_torus():
    cls = channel_classes(4)
    assert len(cls) == 4 * 4 * 4 and set(cls["dim"]) == {"x", "y"} and set(cls["direction"]) == {"+", "-"}
    assert cls.groupby("class").size().eq(8).all()                 # 8 classes of 8 channels on 4x4
    assert seeds_of(SimSettings(seed=7), 3) == [7, 8, 9]
    with pytest.raises(ValueError):
        seeds_of(SimSettings(seed=7), 1)                             # one run has no independent noise to compare


def test_balance_row_decides_and_sizes_the_spread():
    even = balance_row(4, _loads())
    assert even["equal"] is True and even["runs"] == 4 and even["sys cv"] < 0.01
    assert even["plus / minus"] == pytest.approx(1.0, abs=0.01)
    skew = balance_row(4, _loads(plus=1.1))
    assert skew["equal"] is False and skew["plus / minus"] == pytest.approx(1.1, abs=0.01)
    assert skew["sys cv"] == pytest.approx(0.0476, abs=0.005)      # the size of the spread is reported
    assert skew["highest class"].startswith(("x+", "y+")) and skew["equal within +/-"] is True
    mixed = balance_row(4, _loads(pattern=0.05))
    assert mixed["equal"] is False and mixed["equal within +/-"] is False


def _table(row, setup="model"):
    return pd.DataFrame([{"curve": "8x8, M=32", "setup": setup, "fraction": 0.5, "rate": 0.01, "seeds": "1, 2, 3, 4",
                          **row}], columns=list(BALANCE_COLUMNS))


def _errors():
    return pd.DataFrame({"curve": ["8x8, M=32"], "setup": ["model"], "worst |err| at 25/50/75%": [0.1],
                         "saturation ratio": [0.9], "model saturation": [0.018], "sim saturation": [0.02],
                         "sim saturation lo": [0.0198], "sim saturation hi": [0.0202], "uncertain": [""],
                         "model saturated from": [math.nan]})


def test_even_traffic_rows_and_their_cause():
    """equal -> pass; a spread the + / - split accounts for -> fail, cause "unexplained" (ties at the offset k/2
    are the only freedom of direction under minimal routing, and the router's tie order is fair since issue #36:
    the note says so); any other spread -> "unexplained"."""
    for loads, holds, cause in ((_loads(), True, "-"), (_loads(plus=1.1), False, "unexplained"),
                                (_loads(pattern=0.05), False, "unexplained")):
        b = _table(balance_row(4, loads))
        rows = claims_table(_errors(), balance=b)
        even = rows[rows["claim_id"] == "even-traffic"].iloc[0]
        assert even["holds"] is holds and even["cause"] == cause and even["criterion"] == "equal-beyond-noise"
        assert "independently seeded runs (seeds 1, 2, 3, 4)" in even["note"] and "flits/cycle" in even["note"]
        v = verdict_table(rows.assign(stands_for=[row_stands_for(s, SETUPS) for s in rows["setup"]]))
        v = v.set_index("claim_id").loc["even-traffic"]
        assert v["verdict"] == ("holds" if holds else "does not hold")
        assert v["cause"] == cause
