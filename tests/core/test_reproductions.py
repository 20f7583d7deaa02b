"""The table rule (models/core/reproductions.py): blocks, the size of a miss, the flip of the assumed noise."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from models.core.errors import ParameterError
from models.core.reproductions import (FLIP_RANGE, GROSS_STD, REPRO_COLUMNS, allowed_misses, block_z, entry_band,
                                       flip_point, flip_text, reproduction_row, save_reproductions, table_rule)

BLOCKS, STAGES = 5, 13  # a table of the min_mva chapter: 5 NC values, 13 stage/memory entries and R per NC
STEP = 0.001


def _row(kind, ours, paper, bands, **kw):
    return reproduction_row("x", "t", "T", "Sec. 1", "c", kind, ours, paper, bands, **kw)


@pytest.mark.parametrize("n", [5, 10, 26, 39, 70])
def test_allowed_misses_is_the_binomial_99th_percentile(n):
    from scipy.stats import binom

    a = allowed_misses(n)
    assert binom.sf(a, n, 0.05) <= 0.01 < binom.sf(a - 1, n, 0.05)
    assert allowed_misses(n, miss=0) == 0


def test_block_z_is_the_sidak_quantile():
    from scipy.stats import norm, t

    assert block_z(1) == pytest.approx(1.959964, abs=1e-6)
    p = 1 - 0.95 ** (1 / 14)
    assert block_z(14) == pytest.approx(norm.ppf(1 - p / 2)) and block_z(14) == pytest.approx(2.906, abs=1e-3)
    assert block_z(14, dof=19) == pytest.approx(t.ppf(1 - p / 2, 19))
    assert block_z(1, dof=19) == pytest.approx(t.ppf(0.975, 19))


def _perfect_tables(rng, trials, paper_factor=2.0):
    """``trials`` synthetic perfect reproductions of a 5 x 14 table: per block, 13 entries whose noise shares a
    normal component (correlation 0.6) and R = 1 + their sum, ours and the paper's independent runs of the same
    truth (the paper's noise ``paper_factor`` times ours), the paper truncated to 3 decimals and compared with the
    centre of its truncation interval.  Returns ``ours, paper_centre, bands`` (trials x 70) and the block labels."""
    truth_stage = rng.uniform(1.0, 3.0, (BLOCKS, STAGES))
    sd = 0.004 * truth_stage                                  # our noise per stage entry
    rho = 0.6

    def noise(scale):
        shared = rng.standard_normal((trials, BLOCKS, 1))
        own = rng.standard_normal((trials, BLOCKS, STAGES))
        e = scale * sd * (math.sqrt(rho) * shared + math.sqrt(1 - rho) * own)
        return np.concatenate([e, e.sum(axis=2, keepdims=True)], axis=2)  # R's noise: the sum of the stages'

    sd_r = sd * math.sqrt(1 - rho)
    var_r = (sd.sum(axis=1) * math.sqrt(rho)) ** 2 + (sd_r ** 2).sum(axis=1)
    sd_all = np.concatenate([sd, np.sqrt(var_r)[:, None]], axis=1)   # each entry's true standard deviation
    truth = np.concatenate([truth_stage, 1 + truth_stage.sum(axis=1, keepdims=True)], axis=1)
    ours = truth + noise(1.0)
    paper = np.floor((truth + noise(paper_factor)) * 1000) / 1000 + STEP / 2
    half = 1.959964 * sd_all * math.sqrt(1 + paper_factor ** 2)        # true 95% half width of the difference
    bands = np.broadcast_to(half + STEP / 2, ours.shape)
    labels = np.repeat(np.arange(BLOCKS), STAGES + 1)
    return ours.reshape(trials, -1), paper.reshape(trials, -1), bands.reshape(trials, -1), labels


def test_a_perfect_correlated_reproduction_is_reproduced_99_percent_of_the_time():
    """(a) 2000 synthetic perfect reproductions, entries correlated within each NC block (a shared component,
    R the sum of the others plus one): the rule calls at least 99 % of them reproduced."""
    rng = np.random.default_rng(2024)
    trials = 2000
    ours, paper, bands, labels = _perfect_tables(rng, trials)
    verdicts = [table_rule("simulation", o, p, b, blocks=labels, printed_step=STEP)
                for o, p, b in zip(ours, paper, bands)]
    passed = np.mean([v["verdict"] == "reproduced" for v in verdicts])
    block_miss = np.mean([v["blocks_missed"] for v in verdicts]) / BLOCKS
    assert passed >= 0.99, passed
    assert block_miss <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / (trials * BLOCKS)), block_miss  # a perfect block: <= 5 %
    # the old rule (every entry its own block, 8 of 70 may miss) is over-dispersed by the correlation
    old = np.mean([table_rule("simulation", o, p, b, printed_step=STEP)["blocks_missed"] <= allowed_misses(70)
                   for o, p, b in zip(ours, paper, bands)])
    assert old < passed


def test_a_perfect_independent_reproduction_with_estimated_half_widths_passes():
    """20 batch means per entry, our half width from them (Student), the paper's taken equal to ours, printed to 2
    decimals; every entry its own block: reproduced in at least 99 % of 2000 trials (gross limit included)."""
    from scipy.stats import t as student

    rng = np.random.default_rng(7)
    n, batches, trials = 70, 20, 2000
    truth = rng.uniform(2, 50, n)
    sigma = 0.01 * truth
    tq = student.ppf(0.975, batches - 1)
    passed = 0
    for _ in range(trials):
        ours_b = truth + sigma * rng.standard_normal((batches, n))
        ours, half = ours_b.mean(0), tq * ours_b.std(0, ddof=1) / math.sqrt(batches)
        paper = np.round(truth + sigma / math.sqrt(batches) * rng.standard_normal(n), 2)
        bands = [entry_band(h, None, 0.01) for h in half]
        passed += _row("simulation", ours, paper, bands, printed_step=0.01, dof=batches - 1)["verdict"] == \
            "reproduced"
    assert passed / trials >= 0.99, passed / trials


def test_one_gross_miss_is_not_reproduced_whatever_the_count():
    """(b) a perfect reproduction with one entry off by 10 bands is not reproduced, though one block may miss."""
    ours = np.arange(1.0, 71.0)
    bands = np.full(70, 0.01)
    labels = np.repeat(np.arange(BLOCKS), 14)
    paper = ours.copy()
    assert _row("simulation", ours, paper, bands, blocks=labels)["verdict"] == "reproduced"
    paper[17] += 10 * bands[17]
    r = _row("simulation", ours, paper, bands, blocks=labels)
    assert r["blocks_missed"] == 1 <= r["allowed"] == 2
    assert r["verdict"] == "not reproduced" and r["largest_std"] == pytest.approx(10)
    # a miss just inside the gross limit is only a block miss
    paper[17] = ours[17] + 0.99 * GROSS_STD * bands[17]
    r = _row("simulation", ours, paper, bands, blocks=labels)
    assert r["verdict"] == "reproduced" and r["blocks_missed"] == 1 and r["outside"] == 1
    # three missing blocks of five are too many
    for i in (3, 20, 50):
        paper[i] = ours[i] + 1.9 * bands[i]
    r = _row("simulation", ours, paper, bands, blocks=labels)
    assert r["blocks_missed"] == 3 and r["verdict"] == "not reproduced"


def test_the_bands_are_widened_in_a_block_but_not_the_printed_digit():
    ours, bands = np.zeros(14), np.full(14, 0.0015)        # noise part 0.001, printed step 0.001
    z = block_z(14) / block_z(1)
    inside = np.zeros(14)
    inside[0] = 0.001 * z + 0.0005 - 1e-9
    assert table_rule("simulation", ours, inside, bands, blocks=[0] * 14, printed_step=0.001)["blocks_missed"] == 0
    inside[0] += 2e-9
    assert table_rule("simulation", ours, inside, bands, blocks=[0] * 14, printed_step=0.001)["blocks_missed"] == 1
    # without blocks, each entry is its own: the 95 % band itself (the old rule)
    r = table_rule("simulation", ours, inside, bands, printed_step=0.001)
    assert r["blocks"] == 14 and r["blocks_missed"] == r["outside"] == 1 and r["allowed"] == allowed_misses(14)
    with pytest.raises(ParameterError, match="label every entry"):
        table_rule("simulation", ours, inside, bands, blocks=[0] * 13)


def test_an_analytic_column_allows_no_miss():
    """(c) a computed column must agree entry for entry, blocks or not, and has no flip point."""
    ours = [1.0, 2.0, 3.0]
    r = _row("analytic", ours, [1.0, 2.0, 3.004], [0.005] * 3)
    assert r["verdict"] == "reproduced" and r["allowed"] == 0 and math.isnan(r["flips_at"])
    r = _row("analytic", ours, [1.0, 2.0, 3.06], [0.005] * 3, blocks=["a", "a", "a"])
    assert r["verdict"] == "not reproduced" and r["outside"] == 1 and r["blocks_missed"] == 1
    assert r["largest_diff"] == pytest.approx(0.06) and r["largest_std"] == pytest.approx(12)
    r = _row("analytic", ours, [1.0, 2.0, 3.0051], [0.005] * 3)  # 1.02 bands: no widening, no allowance
    assert r["verdict"] == "not reproduced"
    with pytest.raises(ParameterError, match="analytic"):
        _row("analytic", ours, ours, [0.005] * 3, bands_at=lambda x: [0.005] * 3)


def _bands_at(ci, measured, step=STEP):
    """The min_mva chapter's bands: the paper's half width that of a run of ``x`` (ours: ``measured``)."""
    return lambda x: np.hypot(ci, ci * math.sqrt(measured / x)) + step / 2


@pytest.mark.parametrize("shift", [0.0, 0.002, 0.004, 0.02])
def test_flips_at_is_where_the_outcome_changes(shift):
    """(d) below flips_at the outcome is the reported one, above it the other (reproduced), and the reverse for a
    column not reproduced; NaN when it does not flip in FLIP_RANGE."""
    rng = np.random.default_rng(3)
    ours = rng.uniform(1, 3, 70)
    ci = np.full(70, 0.001)
    assumed, measured = 36_000, 950_000
    bands_at = _bands_at(ci, measured)
    paper = ours + rng.normal(0, 0.002, 70) + shift
    labels = np.repeat(np.arange(BLOCKS), 14)
    r = _row("simulation", ours, paper, bands_at(assumed), blocks=labels, printed_step=STEP, bands_at=bands_at)

    def verdict(x):
        return table_rule("simulation", ours, paper, bands_at(x), blocks=labels, printed_step=STEP)["verdict"]

    other = {"reproduced": "not reproduced", "not reproduced": "reproduced"}[r["verdict"]]
    assert verdict(assumed) == r["verdict"]
    if math.isnan(r["flips_at"]):
        assert verdict(FLIP_RANGE[0]) == verdict(FLIP_RANGE[1]) == r["verdict"]
        return
    x = r["flips_at"]
    assert FLIP_RANGE[0] < x < FLIP_RANGE[1]
    if r["verdict"] == "reproduced":
        assert x > assumed
        assert all(verdict(y) == r["verdict"] for y in np.geomspace(FLIP_RANGE[0], x / 1.01, 15))
        assert all(verdict(y) == other for y in np.geomspace(x * 1.01, FLIP_RANGE[1], 15))
    else:
        assert x < assumed
        assert all(verdict(y) == other for y in np.geomspace(FLIP_RANGE[0], x / 1.01, 15))
        assert all(verdict(y) == r["verdict"] for y in np.geomspace(x * 1.01, FLIP_RANGE[1], 15))


def test_flips_at_covers_both_outcomes_and_refuses_a_growing_band():
    ours = np.ones(14)
    labels = [0] * 14
    bands_at = _bands_at(np.full(14, 0.001), 950_000, 0.0)
    near = _row("simulation", ours, ours + 0.003, bands_at(36_000), blocks=labels, bands_at=bands_at)
    far = _row("simulation", ours, ours + 0.03, bands_at(36_000), blocks=labels, bands_at=bands_at)
    same = _row("simulation", ours, ours, bands_at(36_000), blocks=labels, bands_at=bands_at)
    assert near["verdict"] == "reproduced" and near["flips_at"] > 36_000
    assert far["verdict"] == "not reproduced" and far["flips_at"] < 36_000
    assert math.isnan(same["flips_at"])
    assert flip_text("reproduced", 1.1e5) == "flips if the paper ran more than 1.1e+05 cycles"
    assert flip_text("not reproduced", 2e3).startswith("flips if the paper ran fewer than 2.0e+03")
    assert flip_text("reproduced", math.nan) == "does not flip between 1e+03 and 1e+08 cycles"
    with pytest.raises(ParameterError, match="grow"):
        flip_point(lambda x: "reproduced" if x > 1e5 else "not reproduced", "reproduced")


def test_save_reproductions(tmp_path):
    rows = [reproduction_row("toy", "table1", "Table 1", "Sec. 3", col, "simulation", [1.0, 2.0], [1.01, 2.0],
                             [entry_band(0.02, None, 0.01)] * 2, noise="ours") for col in ("R", "F")]
    out = save_reproductions(pd.DataFrame(rows, columns=list(REPRO_COLUMNS)), "toy", tmp_path, owns={"table1"})
    assert out["verdict"].tolist() == ["reproduced", "reproduced"]
    assert (tmp_path / "tab-toy-reproductions.csv").exists()
    back = pd.read_csv(tmp_path / "tab-toy-reproductions.csv")
    assert list(back.columns) == list(REPRO_COLUMNS) and back["flips_at"].isna().all()
    with pytest.raises(ValueError, match="exactly the columns"):
        save_reproductions(pd.DataFrame(rows).drop(columns="noise"), "toy", tmp_path)


def test_the_floor_no_simulator_no_chapter():
    import ast
    from pathlib import Path

    import models.core.reproductions as mod

    tree = ast.parse(Path(mod.__file__).read_text())
    relative = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
    absolute = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    absolute += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level]
    assert relative and all(n.level == 1 for n in relative), "imports nothing above core"
    assert not [m for m in absolute if m.startswith("models")]
