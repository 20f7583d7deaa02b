"""The accuracy atlas (:mod:`models.core.atlas`, its command and its figure).

The machinery is checked with a stand-in ``compare`` (no simulator: fast); the
chapters' atlases with the real simulator on tiny runs: a row at a paper
configuration is the chapter's own comparison at the same configuration and
seed, the command checks every value before anything is simulated, and an
atlas run again reads every point from the cache.
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import models

from models.core import atlas as core
from models.core.atlas_plot import PAPER_EDGE, heatmaps
from models.core.errors import ParameterError
from models.core.setups import SimSettings

TINY = SimSettings(messages=1_000, warmup_messages=200, batches=5, sat_messages=800, sat_steps=3, sat_rtol=0.2)


# ----------------------------------------------------------------------------
# A stand-in chapter: the model is 1/(1 - x/a), the "simulation" 1/(1 - x/b)
# ----------------------------------------------------------------------------
@dataclasses.dataclass
class FakeComparison:
    errors: pd.DataFrame
    model_saturation: float
    sim_saturation: float
    sim_bracket: tuple
    worst_error: float
    uncertain: str = ""
    knee: float = math.nan
    sim: pd.DataFrame | None = None

    @property
    def saturation_ratio(self):
        return self.model_saturation / self.sim_saturation


CALLS: list = []


def fake_compare(*, a, b, simulate=True, points=10, upto=None, grid=160, setup=None, settings=None, loads=None):
    CALLS.append(dict(a=a, b=b, simulate=simulate))
    if a <= 0:
        raise ParameterError(f"`a` must be > 0; got {a}")
    fr = [0.25, 0.5, 0.75, 0.8]
    loads = [f * b for f in fr]
    model = [1 / (1 - x / a) if x < a else math.inf for x in loads]
    sim = [1 / (1 - x / b) for x in loads]
    err = [(m - s) / s for m, s in zip(model, sim)]
    frame = pd.DataFrame({"load": loads, "fraction": fr, "error": err})
    worst = max(abs(e) for e in err[:3])
    return FakeComparison(frame, float(a), float(b), (0.99 * b, 1.01 * b), worst,
                          sim=pd.DataFrame({"messages": [100] * 4}))


SPEC = core.AtlasSpec(
    chapter="fake", compare=fake_compare,
    axes=(core.Axis("a", "model saturation, a number", float), core.Axis("b", "simulated saturation", float)),
    grid={"a": (1.0, 2.0, 0.5), "b": (1.0, 2.0)}, quick={"a": (1.0,), "b": (1.0,)}, setups=("model", "paper"),
    paper=({"a": 1.0, "b": 1.0},), x="a", y="b")


def fake_cell(cell, setup, settings):
    return core.cell_row(SPEC, cell, setup, settings)


def serial_sweep(points, *, simulate_fn, **_):
    return [simulate_fn(**p) for p in points]


def test_cells_are_every_combination_in_axis_order():
    cells = core.cells(SPEC)
    assert len(cells) == 6 and cells[0] == {"a": 1.0, "b": 1.0} and cells[1] == {"a": 1.0, "b": 2.0}
    assert core.cells(SPEC, {"a": [1, 1, "2"], "b": [3]}) == [{"a": 1.0, "b": 3.0}, {"a": 2.0, "b": 3.0}]


@pytest.mark.parametrize("grid, words", [
    ({"a": [1.0]}, "no values for `b`"),
    ({"a": [1.0], "b": [1.0], "c": [1]}, "`c` is not an axis"),
    ({"a": [], "b": [1.0]}, "non-empty list"),
    ({"a": ["x"], "b": [1.0]}, "`a` must be a model saturation"),
])
def test_bad_grids_are_named(grid, words):
    with pytest.raises(ParameterError, match=words):
        core.cells(SPEC, grid)


def test_a_configuration_the_model_refuses_stops_everything_before_a_simulation():
    CALLS.clear()
    with pytest.raises(ParameterError, match=r"the configuration a=-1.0, b=1.0: `a` must be > 0"):
        core.run_atlas(SPEC, {"a": [1.0, -1.0], "b": [1.0]}, cell=fake_cell, sweep=serial_sweep, settings=TINY)
    assert CALLS and not any(c["simulate"] for c in CALLS)
    with pytest.raises(ParameterError, match="not a set-up"):
        core.check_grid(SPEC, None, ["nope"])


def test_rows_bands_and_the_paper_mark():
    frame = core.run_atlas(SPEC, cell=fake_cell, sweep=serial_sweep, settings=TINY)
    assert len(frame) == 12 and list(frame.columns[:4]) == ["a", "b", "setup", "paper configuration"]
    r = frame[(frame.a == 1.0) & (frame.b == 1.0) & (frame.setup == "model")].iloc[0]
    assert r["paper configuration"] and r["worst |err|"] == 0 and r["band"] == "within 5 %"
    assert r["saturation ratio"] == 1.0 and r["err @80%"] == 0
    early = frame[(frame.a == 0.5) & (frame.b == 1.0)].iloc[0]  # the model saturates at half the simulated load
    assert math.isinf(early["worst |err|"]) and early["band"] == core.EARLY and early["saturation ratio"] == 0.5
    late = frame[(frame.a == 2.0) & (frame.b == 1.0)].iloc[0]  # error at 75 %: (1/(1-.375) - 4) / 4
    assert late["worst |err|"] == pytest.approx(abs(1 / (1 - 0.375) - 4) / 4) and late["band"] == "beyond 10 %"
    n = core.counts(frame, SPEC)
    assert n == {"configurations": 6, "within 5 %": 2, "within 10 %": 2, "saturates early": 3, "beyond 10 %": 1,
                 "not simulated": 0, "no point": 0}
    assert "within 5 % at 2 of 6 configurations (a = 1, b = 1; a = 2, b = 2)" in core.summary_sentence(frame, SPEC)
    every = frame.assign(**{"worst |err|": 0.01})
    assert "within 5 % at 6 of 6 configurations (all of them)" in core.summary_sentence(every, SPEC)
    assert core.paper_sentence(frame, SPEC) == ("At the paper's own configurations in this grid (1), the model's worst "
                                                "error is 0.0% on 'model'; 0.0% on 'paper'.")


@pytest.mark.parametrize("worst, name", [(0.0, "within 5 %"), (0.05, "within 5 %"), (0.0500001, "within 10 %"),
                                         (0.1, "within 10 %"), (0.11, "beyond 10 %"), (math.inf, core.EARLY),
                                         (math.nan, "no point")])
def test_band(worst, name):
    assert core.band(worst) == name


def test_axis_types():
    assert core.network("8X8") == "8x8" and core.radices("4x4x4") == (4, 4, 4)
    assert core.network("8") == "8"  # a ring: one radix is a 1-D torus
    for bad in ("8x1", "ax8", "x", "0x4"):
        with pytest.raises(ValueError):
            core.network(bad)
    assert core.rates("0.20/0.8") == "0.2/0.8" and core.rates_keywords("0.2/0.8") == {"sigma1": 0.2, "sigma2": 0.8}
    with pytest.raises(ValueError):
        core.rates("0.2")
    with pytest.raises(ValueError):
        core.rates("0/0.5")


def test_table_round_trip_and_figure_marks_every_paper_configuration(tmp_path):
    frame = core.run_atlas(SPEC, cell=fake_cell, sweep=serial_sweep, settings=TINY)
    path = core.write_atlas(frame, tmp_path / "t" / "tab-fake-atlas.csv")
    back = core.read_atlas(path)
    assert np.isinf(back["worst |err|"]).sum() == np.isinf(frame["worst |err|"]).sum()
    fig = heatmaps(back, SPEC)
    framed = [p for ax in fig.axes for p in ax.patches if p.get_linewidth() == PAPER_EDGE["lw"]]
    assert len(framed) == int(back["paper configuration"].sum()) == 2  # one per set-up
    import matplotlib.pyplot as plt

    plt.close(fig)


# ----------------------------------------------------------------------------
# The chapters' atlases, with the simulator
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_every_chapter_grid_is_valid_and_holds_the_paper(chapter):
    import importlib

    spec = importlib.import_module(f"models.{chapter}.atlas").SPEC
    full, quick = core.check_grid(spec), core.check_grid(spec, spec.quick)
    assert len(quick) >= 4
    in_grid = [c for c in full if spec.is_paper(c)]
    assert in_grid, "the grid must hold at least one of the paper's configurations"
    assert spec.setups[0] in importlib.import_module(f"models.{chapter}.setups").SETUPS
    assert len({a.name for a in spec.axes}) == len(spec.axes) and spec.x != spec.y


@pytest.mark.slow
def test_a_row_is_the_chapter_comparison(tmp_path, monkeypatch):
    """The atlas at a paper configuration equals ``compare`` there, same seed: worst error and saturation loads."""
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    from models import xfolded_tm
    from models.xfolded_tm import atlas

    cell = {"topology": "torus", "k": 8, "M": 32, "V": 2}
    assert atlas.SPEC.is_paper(cell)
    frame = atlas.run({k: [v] for k, v in cell.items()}, setups=["model"], settings=TINY, jobs=1)
    c = xfolded_tm.compare(topology="torus", k=8, M=32, V=2, setup="model", settings=TINY, points=1, upto=0.8,
                           grid=0)
    row = frame.iloc[0]
    assert row["worst |err|"] == c.worst_error and row["sim saturation"] == c.sim_saturation
    assert row["model saturation"] == c.model_saturation and row["paper configuration"]
    c3 = xfolded_tm.compare(topology="torus", k=8, M=32, V=2, setup="model", settings=TINY, points=2, upto=0.6, grid=0)
    assert row["worst |err|"] == c3.worst_error  # the book's number does not depend on the load grid


@pytest.mark.slow
def test_closed_rows_take_the_fixed_populations(tmp_path, monkeypatch):
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    from models.min_mva import atlas

    s = SimSettings(cycles=6_000, warmup_cycles=1_000, batches=5)
    frame = atlas.run({"n": [3], "S_mm": [1.0], "pattern": ["uniform"]}, settings=s, jobs=1)
    row = frame.iloc[0]
    assert math.isnan(row["sim saturation"]) and "closed system" in row["why no sim saturation"]
    errs = [row[c] for c in atlas.SPEC.error_columns]
    assert atlas.SPEC.error_columns == [f"err @NC={n}" for n in core.CLOSED_POPULATIONS]
    assert all(math.isfinite(e) for e in errs) and row["worst |err|"] == pytest.approx(max(map(abs, errs)))


# ----------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------
def _main(chapter):
    import importlib

    return importlib.import_module(f"models.{chapter}.__main__")


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_atlas_help_lists_every_axis_with_its_unit(chapter, capsys):
    m = _main(chapter)
    with pytest.raises(SystemExit) as e:
        m.main(["atlas", "--help"])
    assert e.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for a in m.CHAPTER.atlas.SPEC.axes:
        assert f"--{a.name}" in out and " ".join(a.unit.split()) in out, a.name


@pytest.mark.parametrize("argv, option", [
    (["--network", "8x1"], "--network"), (["--L", "1"], "--L"), (["--M", "x"], "--M"),
    (["--messages", "0"], "--messages"),
])
def test_a_bad_value_is_one_line_before_anything_is_simulated(argv, option, capsys, monkeypatch):
    m = _main("torus_dor")
    monkeypatch.setattr(m.CHAPTER.atlas, "run", lambda *a, **k: pytest.fail("simulated before checking"))
    assert m.main(["atlas", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"python -m models.torus_dor atlas: error: {option}: "), err[-1]


def test_an_interrupted_atlas_says_its_points_are_kept(capsys, monkeypatch):
    m = _main("torus_nbc")

    def stop(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(m.CHAPTER.atlas, "run", stop)
    assert m.main(["atlas", "--k", "4", "--M", "8", "--V", "10"]) == 130
    assert "the simulated points that finished are cached" in capsys.readouterr().err


@pytest.mark.slow
def test_an_atlas_run_again_reads_every_point_from_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    m = _main("xfolded_tm")
    argv = ["atlas", "--topology", "torus", "--k", "4", "--M", "8", "--V", "2", "--setups", "model", "--jobs", "1",
            "--messages", "1000", "--warmup", "200", "--no-progress"]
    assert m.main([*argv, "--out", str(tmp_path / "a.csv"), "--plot", str(tmp_path / "a.svg")]) == 0
    entries = sorted(p.name for p in (tmp_path / "cache").rglob("*") if p.is_file())
    assert m.main([*argv, "--out", str(tmp_path / "b.csv")]) == 0
    assert sorted(p.name for p in (tmp_path / "cache").rglob("*") if p.is_file()) == entries
    a, b = core.read_atlas(tmp_path / "a.csv"), core.read_atlas(tmp_path / "b.csv")
    cols = [c for c in a.columns if c != "cpu seconds"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    assert (tmp_path / "a.svg").read_text().startswith("<?xml")


def test_a_closed_cells_precision_sentence_names_both_measures_the_run_stops_on():
    """A closed system's run stops when the half widths of R and X are both within the target
    (:func:`models.sim.closed_min.simulate`), lengthened 1.5 times at a time; the sentence says so."""
    from models.core.setups import SimSettings

    target = core.precision_sentence(SimSettings(cycles=60_000, warmup_cycles=10_000, target_ci=0.02), closed=True)
    assert target == ("each simulated population runs until the 95 % half widths of its mean response time and "
                      "throughput are within 2% of their means (first run 60,000 cycles, the first 10,000 discarded, "
                      "then 1.5 times as long at a time)")
    fixed = core.precision_sentence(SimSettings(cycles=60_000, warmup_cycles=10_000), closed=True)
    assert fixed == "each simulated population runs 60,000 cycles, the first 10,000 discarded"
