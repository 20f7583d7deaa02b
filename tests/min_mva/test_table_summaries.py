"""Summaries of the Table 1/2 comparison (what the 04-tables page reports)."""

import numpy as np
import pandas as pd
from types import SimpleNamespace

from models.min_mva import paper_tables as pt


def _fake(which, shift_sim=0.0, ci=0.001):
    """Results equal to the paper's columns (analytic) plus a shift (simulation)."""
    ana, sim = {}, {}
    for nc in pt.NC_VALUES:
        a = pt.paper_values(which, "analytic")[nc]
        s = pt.paper_values(which, "simulation")[nc]
        ana[nc] = SimpleNamespace(R=a["R"], stage_residence={k: v for k, v in a.items() if k != "R"})
        sim[nc] = SimpleNamespace(R=s["R"] + shift_sim, R_ci=ci,
                                  stage_residence={k: v + shift_sim for k, v in s.items() if k != "R"},
                                  stage_ci={k: ci for k in s if k != "R"})
    return pt.compare_table(which, ana, sim)


def test_summaries_of_a_perfect_match():
    cmp = _fake(2)
    a = pt.analytic_summary(cmp, 2)
    assert list(a["NC"]) == list(pt.NC_VALUES) and np.allclose(a["max |diff| over stages + MM"], 0)
    s = pt.simulation_summary(cmp, 2)
    assert all(v == "14/14" for v in s["entries agreeing"])
    assert pt.disagreements({2: cmp}).empty


def test_disagreements_found_beyond_tolerance():
    cmp = _fake(1, shift_sim=0.02, ci=0.001)
    miss = pt.disagreements({1: cmp}, max_nc=8)
    assert len(miss) == 14 * 3 and set(miss["NC"]) == {2, 4, 8}
    assert np.allclose(miss["diff_sim"], 0.02)
    s = pt.simulation_summary(cmp, 1)
    assert all(v == "0/14" for v in s["entries agreeing"])


def test_wide_tables_have_one_group_per_nc():
    cmp = _fake(1)
    w = pt.wide_table(cmp, "analytic")
    assert w.shape == (14, 3 * len(pt.NC_VALUES)) and list(w.index)[:2] == ["F1", "F2"]
    assert w.loc["R", (32, "paper")] == 35.270
    w = pt.wide_table(cmp, "simulation")
    assert w.shape == (14, 4 * len(pt.NC_VALUES))
