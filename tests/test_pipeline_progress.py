"""Progress relayed from inside a notebook (models.core.progress) and its time-left estimates."""

import json

import pytest

from models.core import progress
from models.core.progress import NotebookProgress, format_duration, read_new


def test_report_appends_a_line_only_when_the_pipeline_asks(tmp_path, monkeypatch):
    path = tmp_path / "p.jsonl"
    monkeypatch.delenv(progress.ENV, raising=False)
    progress.report(1, 3)  # no-op
    assert not path.exists()
    monkeypatch.setenv(progress.ENV, str(path))
    progress.report(1, 3)
    progress.report(2, 3, "curves")
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [(x["done"], x["total"], x["label"]) for x in lines] == [(1, 3, "points"), (2, 3, "curves")]
    monkeypatch.setenv(progress.ENV, str(tmp_path / "missing" / "p"))
    progress.report(1, 3)  # an unwritable file never breaks a run


@pytest.mark.parametrize("args, name", [((4, 3), "done"), ((-1, 3), "done"), ((1, 2.5), "total"), ((True, 3), "done"),
                                        ((1, 3, ""), "label")])
def test_report_rejects_bad_counts(args, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        progress.report(*args)


def test_read_new_keeps_a_partial_line_for_later(tmp_path):
    path = tmp_path / "p"
    assert read_new(path, 0) == ([], 0)
    path.write_text('{"t": 1, "done": 1, "total": 4, "label": "points"}\n{"t": 2, "do')
    recs, off = read_new(path, 0)
    assert [r["done"] for r in recs] == [1] and off == path.read_text().index("\n") + 1
    with open(path, "a") as fh:
        fh.write('ne": 2, "total": 4, "label": "points"}\nnot json\n')
    recs, off2 = read_new(path, off)
    assert [r["done"] for r in recs] == [2] and off2 == len(path.read_bytes())


def _rec(t, done, total, label="points"):
    return {"t": t, "done": done, "total": total, "label": label}


def test_time_left_from_the_rate_of_the_current_sweep():
    p = NotebookProgress("torus_dor/02-latency", started=0.0)
    assert p.left(10.0) is None and p.line(10.0) == "torus_dor/02-latency: running for 10 s"
    p.feed([_rec(100.0, 20, 120)])  # 20 points were cached
    assert p.left(100.0) is None  # no rate before a point finishes
    p.feed([_rec(160.0, 37, 120)])  # 17 points in 60 s -> 83 points in about 293 s
    assert p.left(160.0) == pytest.approx(83 * 60 / 17)
    assert p.line(160.0) == "torus_dor/02-latency: 37/120 points, about 5 min left"
    p.feed([_rec(170.0, 0, 8)])  # the next sweep starts over
    assert p.left(170.0) is None and p.counters["points"].t0 == 170.0


def test_curves_before_points_and_the_expected_time_as_a_floor():
    p = NotebookProgress("nb", started=0.0, expected=1000.0)
    p.feed([_rec(0.0, 0, 4, "curves"), _rec(100.0, 1, 4, "curves"), _rec(100.0, 0, 10), _rec(110.0, 9, 10)])
    assert p.left(110.0) == pytest.approx(890.0)  # curves say 300 s, the last run says 890 s more
    p.expected = None
    assert p.left(110.0) == pytest.approx(300.0)
    assert p.line(110.0) == "nb: 1/4 curves, 9/10 points, about 5 min left"
    p.expected = 50.0  # longer than expected and nothing else says: how long it has run
    p.counters.clear()
    assert p.line(600.0) == "nb: running for 10 min"


def test_format_duration():
    assert [format_duration(s) for s in (0.2, 42, 59.4, 61, 3599, 3600, 3 * 3600 + 5 * 60)] == \
        ["1 s", "42 s", "59 s", "1 min", "1 h 00 min", "1 h 00 min", "3 h 05 min"]
    assert format_duration(float("nan")) == "?"


def test_sweep_reports_each_finished_point(tmp_path, monkeypatch):
    from models.sim.sweep import run_sweep

    path = tmp_path / "p"
    monkeypatch.setenv(progress.ENV, str(path))
    run_sweep([{"x": i} for i in range(3)], simulate_fn=_square, jobs=1, progress=False, cache=False)
    assert [(r["done"], r["total"]) for r in read_new(path, 0)[0]] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    path.unlink()
    run_sweep([{"x": 1}], simulate_fn=_square, jobs=1, progress=False, cache=False)  # a probe: no line
    assert not path.exists()


def _square(x):
    return x * x


def test_run_figure_reports_curves(tmp_path, monkeypatch):
    from models.core.experiment import run_figure
    from models.core.setups import Curve, Figure

    path = tmp_path / "p"
    monkeypatch.setenv(progress.ENV, str(path))
    fig = Figure("fig-ch-x", "t", (Curve("a", loads=(0.1,)), Curve("b", loads=(0.2,))))
    run_figure(fig, lambda c, x: {"latency": 1.0 + x})
    got = [(r["done"], r["total"], r["label"]) for r in read_new(path, 0)[0]]
    assert got == [(0, 2, "curves"), (1, 2, "curves"), (2, 2, "curves")]


def test_the_chapters_own_figure_loops_report_curves(tmp_path, monkeypatch):
    """min_mva and torus_dor loop over their curves themselves: they report curves too (#15)."""
    from models.min_mva import experiments as mm
    from models.torus_dor import experiments as td

    path = tmp_path / "p"
    monkeypatch.setenv(progress.ENV, str(path))
    monkeypatch.setattr(td, "run_curve", lambda c, **kw: c.label)
    fig = td.Figure("fig-torus_dor-x", "t", (td.Curve("a", loads=(0.1,)), td.Curve("b", loads=(0.2,))))
    assert td.run_figure(fig) == ("a", "b")
    monkeypatch.setattr(mm, "run_curve", lambda c, **kw: (c.label, c.setup))
    runs = mm.run_figure(mm.paper_figure(2, [1]), setups=["paper", "second-omega"])
    n = len(runs)
    got = [(r["done"], r["total"]) for r in read_new(path, 0)[0] if r["label"] == "curves"]
    assert got == [(0, 2), (1, 2), (2, 2)] + [(i, n) for i in range(n + 1)]


@pytest.mark.notebooks
def test_pipeline_relays_progress_from_inside_the_kernel(tmp_path, capsys):
    """The kernel sees MODELS_PROGRESS_FILE and the pipeline prints what it reports."""
    import nbformat

    from models import pipeline

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("n: int = 4")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(
        "import time\nfrom models.core.progress import report\n"
        "for i in range(n + 1):\n    report(i, n)\n    time.sleep(1.5)")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    src = tmp_path / "nb" / "ch" / "01-count.ipynb"
    src.parent.mkdir(parents=True)
    nbformat.write(nb, src)
    run = pipeline.Run("ch", "01-count", src, tmp_path / "book" / "ch", {"n": 4}, key="k")
    assert pipeline.execute([run], "quick", jobs=1, book_dir=tmp_path / "book", report=False, progress_every=1) == 0
    lines = [x.strip() for x in capsys.readouterr().out.splitlines() if x.startswith("  ch/01-count: ")]
    assert lines and all("/4 points" in x for x in lines), lines
    assert any(" left" in x for x in lines), lines  # a rate once a step has finished
    assert pipeline.is_fresh(run)
