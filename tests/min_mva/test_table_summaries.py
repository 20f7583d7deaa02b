"""Summaries of the Table 1/2 comparison (what the 04-tables page reports)."""

import math

import numpy as np
import pandas as pd
import pytest
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


def test_printed_precision_allows_truncation_and_one_unit():
    """A printed 1.035 stands for [1.035, 1.036); one unit more for the paper's stopping point: [1.034, 1.037]."""
    assert pt.printed_centre(1.035) == pytest.approx(1.0355) and pt.ANALYTIC_BAND == pytest.approx(0.0015)
    assert pt.printed_agrees(1.0359, 1.035) and pt.printed_agrees(1.0349999, 1.035)
    assert pt.printed_agrees(1.0361, 1.035) and pt.printed_agrees(1.0341, 1.035)
    assert not pt.printed_agrees(1.0372, 1.035) and not pt.printed_agrees(1.0335, 1.035)
    cmp = _fake(1)
    assert cmp["printed_agrees"].all()
    a = pt.analytic_agreement(cmp, 1, {"low": (2, 4, 8), "high": (16, 32)})
    assert list(a["entries"]) == [39, 26] and list(a["agreeing"]) == [39, 26]


def test_simulation_agreement_is_the_table_rule():
    """A column of 5 NC blocks of 14 entries is reproduced with up to allowed_misses(5) = 2 blocks missing (an entry
    outside its band widened to the block's Sidak level) and no entry beyond GROSS_STD bands: the counts are
    simulation_agreement's, the verdict the table rule's own (core.reproductions.reproduction_row)."""
    from models.min_mva.experiments import simulation_verdicts

    cmp = _fake(2)
    a = pt.simulation_agreement(cmp)
    assert {k: a[k] for k in ("entries", "agreeing", "outside", "share", "blocks", "blocks_missed", "allowed")} == \
        {"entries": 70, "agreeing": 70, "outside": 0, "share": 1.0, "blocks": 5, "blocks_missed": 0, "allowed": 2}
    verdicts = []
    for blocks in (2, 3):
        moved = cmp.copy()
        # every entry of the first NC values 2 bands off: outside the widened band (1.48 x), not gross (2.5)
        at = moved["NC"].isin(pt.NC_VALUES[:blocks])
        moved.loc[at, "sim"] += 0.0005 + 2 * moved.loc[at, "sim_band"]
        moved = moved.assign(sim_agrees=(moved["sim"] - pt.printed_centre(moved["paper_sim"])).abs()
                             <= moved["sim_band"])
        a = pt.simulation_agreement(moved)
        assert a["outside"] == 14 * blocks and a["blocks_missed"] == blocks and a["largest_std"] == pytest.approx(2)
        verdicts += simulation_verdicts({(2, "paper"): moved})["verdict"].tolist()
    assert verdicts == ["reproduced", "not reproduced"]


def test_simulation_band_combines_both_runs_and_the_printed_digit():
    from models.core.reproductions import entry_band
    # at the quick profile's length the paper's runs are as precise as ours: the book's rule
    assert pt.simulation_band(0.004, pt.PAPER_SIM_CYCLES)[0] == pytest.approx(entry_band(0.004, None, 0.001))
    assert pt.simulation_band(0.004)[0] == pytest.approx(entry_band(0.004, None, 0.001))
    # four times longer runs of ours: our half width halves, the paper's stays what it was
    ours_long = 0.002
    assert pt.paper_sim_half(ours_long, 4 * pt.PAPER_SIM_CYCLES) == pytest.approx(0.004)
    assert pt.simulation_band(ours_long, 4 * pt.PAPER_SIM_CYCLES)[0] == pytest.approx(
        math.hypot(0.002, 0.004) + 0.0005)
    # an entry agrees when within its band of the centre of the truncated printed value
    cmp = _fake(2, shift_sim=0.0005 + 0.0020, ci=0.001)  # sqrt(2) * 0.001 + 0.0005 = 0.00191
    assert not cmp["sim_agrees"].any()
    cmp = _fake(2, shift_sim=0.0005 + 0.0018, ci=0.001)
    assert cmp["sim_agrees"].all() and np.allclose(cmp["sim_band"], math.sqrt(2) * 0.001 + 0.0005)


def test_bias_pattern_counts_stage_signs():
    b = pt.bias_pattern([_fake(1), _fake(2)])
    assert b["entries"] == 2 * 12 * 5
    assert b["forward_under"] == b["paper_forward_under"] and b["return_over"] == b["paper_return_over"]
    assert b["forward_under"] > 0.5 and b["return_over"] > 0.5   # the paper's own reading of its tables


def test_printed_R_exceeds_the_printed_rows():
    ex = pt.printed_R_excess(1)
    assert (ex[ex["column"] == "analytic"]["excess"] > 0).all()
    assert ex.loc[(ex["column"] == "analytic") & (ex["NC"] == 32), "excess"].iloc[0] == pytest.approx(0.026, abs=1e-9)


def test_reading_residuals_one_row_per_reading_table_nc():
    r = pt.reading_residuals(tables=(2,), readings=["paper", "c-other-classes"], iterations={})
    assert len(r) == 2 * len(pt.NC_VALUES) and set(r["reading"]) == {"paper", "c-other-classes"}
    paper = r[r["reading"] == "paper"]
    assert (paper["max |diff|"] < 0.002).all() and (paper["agreeing"] == 13).all()
    assert (r[r["reading"] == "c-other-classes"]["max |diff|"].max() > 0.1)
