"""The papermill pipeline: plan, parameter layers, keys, freshness, failure reporting."""

import json
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from models import pipeline
from models.core import cores
from models.core.paths import ROOT


def _notebook(path: Path, params: str, body: str) -> Path:
    nb = nbformat.v4.new_notebook()
    p = nbformat.v4.new_code_cell(params)
    p.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# test"), p, nbformat.v4.new_code_cell(body)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def test_toc_pages_and_sources_agree():
    pages = pipeline.toc_pages()
    assert pages[0] == "book/intro"
    sources = pipeline.notebook_sources()
    assert sources, "no notebook in _toc.yml"
    for chapter, name, src in sources:
        assert f"book/{chapter}/{name}" in pages and src.exists()


def test_parameter_layers(tmp_path):
    src = _notebook(tmp_path / "ch" / "01-x.ipynb", "a: int = 1  # a\nb: float = 2.0  # b\nprofile: str = 'full'", "pass")
    profiles = {"quick": {"*": {"a": 5, "zzz": 1}, "ch/01-x": {"b": 0.5}}, "full": {}}
    p = pipeline.resolve_parameters("ch", "01-x", src, "quick", profiles=profiles)
    assert p == {"a": 5, "b": 0.5, "profile": "quick"}  # unknown 'zzz' not injected
    p = pipeline.resolve_parameters("ch", "01-x", src, "full", {"a": "7", "b": "3"}, profiles=profiles)
    assert p == {"a": 7, "b": 3.0, "profile": "full"} and isinstance(p["b"], float)
    with pytest.raises(ValueError, match="no parameter 'c'"):
        pipeline.resolve_parameters("ch", "01-x", src, "full", {"c": "1"}, profiles=profiles)
    with pytest.raises(ValueError, match="expected"):
        pipeline.resolve_parameters("ch", "01-x", src, "full", {"a": "[1, 2]"}, profiles=profiles)
    # an optional setting (a precision target) is switched off with null / None
    for off in ("null", "None", "~"):
        assert pipeline.resolve_parameters("ch", "01-x", src, "full", {"b": off}, profiles=profiles)["b"] is None


def test_chapter_profile_file_is_a_layer(tmp_path):
    src = _notebook(tmp_path / "ch" / "01-x.ipynb", "a: int = 1  # a\nb: int = 2  # b\nc: int = 3  # c", "pass")
    (tmp_path / "ch" / "profiles.yaml").write_text("quick:\n  '*': {a: 10, b: 10}\n  01-x: {b: 20}\n")
    profiles = {"quick": {"*": {"a": 5, "c": 5}, "ch/01-x": {"a": 7}}, "full": {}}
    p = pipeline.resolve_parameters("ch", "01-x", src, "quick", profiles=profiles)
    assert p == {"a": 7, "b": 20, "c": 5}
    assert pipeline.resolve_parameters("ch", "01-x", src, "full", profiles=profiles) == {"a": 1, "b": 2, "c": 3}


def test_parameters_cell_must_hold_literals(tmp_path):
    src = _notebook(tmp_path / "ch" / "01-x.ipynb", "a = f(1)", "pass")
    with pytest.raises(ValueError, match="literal"):
        pipeline.notebook_defaults(src)


def test_key_changes_with_parameters_models_and_source(tmp_path):
    src = _notebook(tmp_path / "ch" / "01-x.ipynb", "a: int = 1", "print(a)")
    env = {"python": "3.11", "papermill": "2.7"}
    k = pipeline.run_key(src, {"a": 1}, "h1", env)
    assert k == pipeline.run_key(src, {"a": 1}, "h1", env)
    assert k != pipeline.run_key(src, {"a": 2}, "h1", env)
    assert k != pipeline.run_key(src, {"a": 1}, "h2", env)  # models/ changed
    assert k != pipeline.run_key(src, {"a": 1}, "h1", {**env, "python": "3.12"})
    # outputs do not change the key; code does
    nb = nbformat.read(src, 4)
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nbformat.write(nb, src)
    assert k == pipeline.run_key(src, {"a": 1}, "h1", env)
    nb.cells[2].source = "print(a + 1)"
    nbformat.write(nb, src)
    assert k != pipeline.run_key(src, {"a": 1}, "h1", env)


def test_models_hash_covers_the_package():
    from models.core.cache import tree_hash

    files = sorted(p.name for p in (ROOT / "models").rglob("*.py"))
    assert "pipeline.py" in files and "solve.py" in files
    assert len(tree_hash(ROOT / "models")) == 64


def test_freshness_requires_matching_key_output_and_provenance(tmp_path):
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "out", {}, key="abc")
    assert not pipeline.is_fresh(run)
    run.out_dir.mkdir()
    tmp = run.out_dir / ".01-x.tmp.ipynb"
    tmp.write_text('{"cells": []}')
    pipeline.commit(run, tmp, {"key": "abc", "status": "ok"})
    assert pipeline.is_fresh(run) and not tmp.exists()
    assert not list(run.out_dir.glob(".*"))  # no temp file of the commit left
    run.key = "def"
    assert not pipeline.is_fresh(run)  # another key
    run.key = "abc"
    run.output.write_text('{"cells": [1]}')  # a notebook moved in without its provenance
    assert not pipeline.is_fresh(run)
    assert pipeline.collect_stamps(tmp_path, [("out", "01-x", run.source)]) == []
    run.output.unlink()
    assert not pipeline.is_fresh(run)  # no output notebook
    stamp = json.loads(run.provenance.read_text())
    stamp.pop("output_sha256")  # a provenance that does not name its notebook (an older pipeline)
    run.provenance.write_text(json.dumps(stamp))
    run.output.write_text('{"cells": []}')
    assert not pipeline.is_fresh(run)


def test_commit_writes_the_provenance_last_and_follows_the_umask(tmp_path, monkeypatch):
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "out", {}, key="abc")
    run.out_dir.mkdir()
    run.provenance.write_text(json.dumps({"key": "old", "status": "ok"}))
    order = []
    real = pipeline.os.replace
    monkeypatch.setattr(pipeline.os, "replace", lambda a, b: (order.append(Path(b).name), real(a, b)))
    old = pipeline.os.umask(0o022)
    try:
        tmp = run.out_dir / ".01-x.tmp.ipynb"
        tmp.write_text("{}")
        tmp.chmod(0o600)  # as mkstemp makes it
        pipeline.commit(run, tmp, {"key": "abc", "status": "ok"})
        assert order == ["01-x.ipynb", "01-x.provenance.json"]
        assert run.output.stat().st_mode & 0o777 == 0o644 and run.provenance.stat().st_mode & 0o777 == 0o644
        pipeline.os.umask(0o077)
        tmp.write_text("{}")
        pipeline.commit(run, tmp, {"key": "abc", "status": "ok"})
        assert run.output.stat().st_mode & 0o777 == 0o600
    finally:
        pipeline.os.umask(old)


def test_atomic_writes_follow_the_umask(tmp_path):
    from models.core.cache import atomic_write_text, file_mode

    old = os.umask(0o022)
    try:
        assert file_mode() == 0o644
        assert atomic_write_text(tmp_path / "a.svg", "x").stat().st_mode & 0o777 == 0o644
        os.umask(0o027)
        assert file_mode() == 0o640
        assert atomic_write_text(tmp_path / "b.json", "x").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


def test_malformed_value_names_the_parameter(tmp_path):
    src = _notebook(tmp_path / "ch" / "01-x.ipynb", "NC_values: list = [1, 2]\nn: int = 1", "pass")
    profiles = {"quick": {}, "full": {}}
    with pytest.raises(ValueError, match=r"ch/01-x: -p NC_values: expected a list like \[1, 2\].*got '1,2,4'"):
        pipeline.resolve_parameters("ch", "01-x", src, "full", {"NC_values": "1,2,4"}, profiles=profiles)
    with pytest.raises(ValueError, match="-p n: expected"):
        pipeline.resolve_parameters("ch", "01-x", src, "full", {"n": "two"}, profiles=profiles)
    assert pipeline.resolve_parameters("ch", "01-x", src, "full", {"NC_values": "[1, 2, 4]"},
                                       profiles=profiles)["NC_values"] == [1, 2, 4]


def test_chapters_run_in_order_and_apart_longest_first(tmp_path):
    """A chapter's notebooks share simulation points: the scheduler starts them in order and not side by
    side while another chapter can run, the chapter with the most time left first (#15)."""
    def run(chapter, name):
        return pipeline.Run(chapter, name, tmp_path / "s.ipynb", tmp_path / chapter, {}, key="k")

    a1, a2, a3, b1, b2, c1 = (run("a", "01-x"), run("a", "02-y"), run("a", "03-z"), run("b", "01-x"),
                              run("b", "02-y"), run("c", "01-x"))
    secs = {"a/01-x": 10, "a/02-y": 10, "a/03-z": 10, "b/01-x": 5, "b/02-y": 40, "c/01-x": 1}
    pending = [a1, a2, a3, b1, b2, c1]
    assert pipeline.next_run(pending, set(), secs) is b1          # b has 45 s left, a 30 s
    assert pipeline.next_run(pending, {"b"}, secs) is a1          # never a second notebook of a running chapter
    assert pipeline.next_run([a2, a3], {"a"}, secs) is a2         # unless nothing else is pending: in order
    # the 45 s chain (b) beside a, then c (31 s): 45 s; in list order (a1 beside a2) it would be 55 s
    assert pipeline.planned_wall(pending, secs, 2) == 45
    assert pipeline.planned_wall(pending, secs, 1) == sum(secs.values())
    findings = pipeline.Run("findings", "01-claims", tmp_path / "s.ipynb", tmp_path / "f", {}, key="k")  # runs after
    assert pipeline.planned_wall(pending + [findings], dict(secs, **{"findings/01-claims": 3}), 2) == 48


def test_expected_times_from_the_last_run_or_a_stated_estimate(tmp_path, capsys):
    run = pipeline.Run("min_mva", "01-derivation", tmp_path / "src.ipynb", tmp_path / "out", {}, key="k")
    assert pipeline.expected_seconds(run, "quick") == (pipeline.QUICK_SECONDS["min_mva/01-derivation"], "estimate")
    assert pipeline.expected_seconds(run, "full") == (pipeline.FULL_SECONDS["min_mva/01-derivation"], "estimate")
    assert set(pipeline.FULL_SECONDS) == set(pipeline.QUICK_SECONDS) == {r.slug for r in pipeline.plan(None, "full")}
    own = pipeline.Run("mine", "01-own", tmp_path / "src.ipynb", tmp_path / "own", {}, key="k")
    assert pipeline.expected_seconds(own, "full")[0] == pipeline.DEFAULT_QUICK_SECONDS * pipeline.FULL_OVER_QUICK
    run.out_dir.mkdir()
    run.provenance.write_text(json.dumps({"profile": "full", "status": "ok", "seconds": 600.0, "key": "old"}))
    assert pipeline.expected_seconds(run, "full") == (600.0, "last run")  # even when stale
    assert pipeline.expected_seconds(run, "quick")[1] == "estimate"  # another profile's time says nothing
    assert pipeline.planned_wall([], {}, 2) == 0
    other = pipeline.Run("ch", "02-new", tmp_path / "s.ipynb", tmp_path / "out", {}, key="k")
    lines = pipeline._plan_lines([run, other], "full", 2)
    assert "min_mva/01-derivation  about 10 min" in lines[0] and "(estimate)" not in lines[0]
    assert "(estimate)" in lines[1] and lines[-1].startswith("  expected: about")
    # the findings chapter starts after the others: 8 s then 2 s, not side by side
    after = pipeline.Run("findings", "01-claims", tmp_path / "f.ipynb", tmp_path / "f", {}, key="k")
    first = pipeline.Run("min_mva", "01-derivation", tmp_path / "m.ipynb", tmp_path / "m", {}, key="k")
    assert pipeline._plan_lines([first, after], "quick", 2)[-1].startswith("  expected: about 10 s (10 s of")


def test_list_shows_the_cost_of_what_is_stale(tmp_path, capsys):
    book = tmp_path / "book"
    assert pipeline.main(["--list", "--profile", "quick", "--book-dir", str(book), "min_mva"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("min_mva/01-derivation  [stale, about 8 s (estimate)]")
    stale = len([s for s in pipeline.notebook_sources() if s[0] == "min_mva"])   # the chapter's pages
    assert out[-1].startswith(f"{stale} stale: about") and "of notebook time" in out[-1]


def test_worker_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "out", {}, key="k")
    env = pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt", scheduler="tcp://sched:8786")
    assert env["MODELS_DASK_SCHEDULER"] == "tcp://sched:8786" and env["MODELS_PROGRESS_FILE"] == str(tmp_path / "p")
    assert env["MODELS_NOTEBOOK"] == "ch/01-x" and env["JUPYTER_RUNTIME_DIR"] == env["TMPDIR"] == str(tmp_path / "rt")
    assert env["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/elsewhere"]
    monkeypatch.delenv("MODELS_DASK_SCHEDULER", raising=False)
    assert "MODELS_DASK_SCHEDULER" not in pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt")
    # the pipeline's cores: its own token folder, never one inherited from another pipeline
    monkeypatch.setenv(cores.TOKENS_ENV, "/another/pipeline/cores")
    assert cores.TOKENS_ENV not in pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt")
    env = pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt", tokens=tmp_path / "cores")
    assert env[cores.TOKENS_ENV] == str(tmp_path / "cores")


@pytest.mark.notebooks
def test_the_notebooks_share_the_pipelines_cores_and_the_folder_goes_with_it(tmp_path, monkeypatch):
    """``--jobs 3``: every kernel is named one folder of 3 token slots, inside the pipeline's temp folder, removed
    after the run."""
    monkeypatch.setattr(pipeline, "BUILD", tmp_path / "_build")
    monkeypatch.setattr(pipeline.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    body = ("import os, pathlib\nfolder = os.environ['MODELS_CORE_TOKENS']\n"
            "print(folder, sorted(p.name for p in pathlib.Path(folder).iterdir()))")
    out = tmp_path / "book" / "ch"
    runs = [pipeline.Run("ch", f"0{i}-x", _notebook(tmp_path / "nb" / "ch" / f"0{i}-x.ipynb", "x: int = 1", body),
                         out, {"x": 1}, key=f"k{i}") for i in (1, 2)]
    assert pipeline.execute(runs, "quick", jobs=3, book_dir=tmp_path / "book", report=False) == 0
    printed = [json.loads((out / f"0{i}-x.ipynb").read_text())["cells"][-1]["outputs"][0]["text"] for i in (1, 2)]
    folder, slots = "".join(printed[0]).split(" ", 1)
    assert printed[0] == printed[1] and "'slot-0', 'slot-1', 'slot-2'" in slots
    assert Path(folder).parent.parent == tmp_path / "tmp" and not Path(folder).exists()
    assert not list((tmp_path / "tmp").iterdir())  # the pipeline's temp folder went, the cores with it


def test_scheduler_flag_defaults_to_the_environment(monkeypatch):
    seen = {}
    monkeypatch.setattr(pipeline, "execute", lambda runs, profile, **kw: seen.update(kw) or 0)
    monkeypatch.setattr(pipeline, "plan", lambda *a, **kw: [])
    monkeypatch.setenv("MODELS_DASK_SCHEDULER", "tcp://env:8786")
    assert pipeline.main(["--profile", "quick"]) == 0 and seen["scheduler"] == "tcp://env:8786"
    assert pipeline.main(["--profile", "quick", "--scheduler", "tcp://flag:1"]) == 0 and seen["scheduler"] == "tcp://flag:1"


@pytest.mark.notebooks
def test_failing_notebook_is_reported_with_cell_and_kept_out_of_place(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pipeline, "BUILD", tmp_path / "_build")
    good = _notebook(tmp_path / "nb" / "ch" / "01-good.ipynb", "x: int = 2", "y = x * 21\nprint(y)")
    bad = _notebook(tmp_path / "nb" / "ch" / "02-bad.ipynb", "x: int = 2", "raise ZeroDivisionError('boom')")
    out = tmp_path / "book" / "ch"
    runs = [
        pipeline.Run("ch", "01-good", good, out, {"x": 2}, key="k1"),
        pipeline.Run("ch", "02-bad", bad, out, {"x": 2}, key="k2"),
    ]
    failures = pipeline.execute(runs, "quick", jobs=2, book_dir=tmp_path / "book")
    text = capsys.readouterr()
    assert failures == 1
    assert "ch/02-bad cell" in text.out and "ZeroDivisionError: boom" in text.out
    assert (out / "01-good.ipynb").exists() and not (out / "02-bad.ipynb").exists()
    assert (tmp_path / "_build" / "failed" / "ch" / "02-bad.ipynb").exists()
    nb = json.loads((out / "01-good.ipynb").read_text())
    assert "42" in json.dumps(nb["cells"][-1]["outputs"])
    injected = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    assert injected and "remove-cell" in injected[0]["metadata"]["tags"]  # same values as the defaults
    stamp = json.loads((out / "01-good.provenance.json").read_text())
    assert stamp["key"] == "k1" and stamp["status"] == "ok" and stamp["parameters"] == {"x": 2}
    assert not list(out.glob(".*.ipynb"))  # no temp files left behind
    report = (tmp_path / "book" / "_generated" / "runs.md").read_text()
    assert "ch/01-good" in report and "failed" in report
    # second run: the good one is skipped
    failures = pipeline.execute(runs[:1], "quick", jobs=1, book_dir=tmp_path / "book")
    assert failures == 0 and "up to date" in capsys.readouterr().out


@pytest.mark.notebooks
def test_a_run_counts_the_processor_time_of_its_kernel_and_its_processes(tmp_path, monkeypatch, capsys):
    """A notebook's CPU time is its kernel's and that of the processes the kernel started (a sweep's pool): here
    0.6 s of busy loop in the kernel and 0.6 s in a child process, each on its own core time.  The provenance,
    the progress line, the closing total and the reproducibility table carry it."""
    monkeypatch.setattr(pipeline, "BUILD", tmp_path / "_build")
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < s:\n    pass"
    body = (f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {(busy.replace('s:', '0.6:'))!r}], "
            f"check=True)\ns = 0.6\n{busy}")
    nb = _notebook(tmp_path / "nb" / "ch" / "01-busy.ipynb", "x: int = 1", body)
    out = tmp_path / "book" / "ch"
    run = pipeline.Run("ch", "01-busy", nb, out, {"x": 1}, key="k1")
    assert pipeline.execute([run], "quick", jobs=1, book_dir=tmp_path / "book") == 0
    text = capsys.readouterr().out
    stamp = json.loads((out / "01-busy.provenance.json").read_text())
    assert 1.2 <= stamp["cpu_seconds"] < 1.2 + 30, stamp  # both loops, and what starting a kernel costs
    printed = [float(x) for x in re.findall(r"ch/01-busy: ok in [0-9.]+ s, ([0-9.]+) CPU-s\n"
                                            r"1 succeeded, 0 up to date, 0 failed in [0-9.]+ s "
                                            r"\(([0-9.]+) CPU-s in the notebooks\)", text)[0]]
    assert printed == pytest.approx([stamp["cpu_seconds"]] * 2, abs=0.051)  # the stamp keeps two decimals
    report = (tmp_path / "book" / "_generated" / "runs.md").read_text()
    row = next(line for line in report.splitlines() if line.startswith("| ch/01-busy |"))
    assert "| CPU time (s) |" in report and float(row.split("|")[5]) == pytest.approx(stamp["cpu_seconds"], abs=0.051)
    assert f"In all, the notebook took {stamp['cpu_seconds'] / 60:.1f} CPU-minutes." in report


def test_injected_cell_shows_only_changed_values():
    nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["injected-parameters"]},
                     "source": "# Parameters\na = 1\nb = [1, 2]\nc = 'x'\n"}]}
    pipeline._tidy_injected_cell(nb, {"a": 1, "b": [1, 2, 3], "c": "x"})
    assert nb["cells"][0]["source"].splitlines()[1:] == ["b = [1, 2]"]


def test_cli_refuses_overrides_into_the_book():
    with pytest.raises(SystemExit):
        pipeline.main(["-p", "n", "7"])


def test_findings_key_follows_the_other_chapters_runs(tmp_path):
    """A chapter that reads the others' tables is re-run when any of their runs changes."""
    from models.pipeline import AFTER_NOTEBOOKS, runs_after, with_dependencies

    (tmp_path / "torus_dor").mkdir()
    (tmp_path / "findings").mkdir()
    prov = tmp_path / "torus_dor" / "02-latency.provenance.json"
    prov.write_text('{"key": "aaa"}')
    own = tmp_path / "findings" / "01-claims.provenance.json"
    own.write_text('{"key": "x"}')
    k1 = with_dependencies("base", "findings/01-claims", tmp_path)
    assert with_dependencies("base", "torus_dor/02-latency", tmp_path) == "base"  # others keep their key
    # the one-network page reads the torus_nbc chapter's saturation table (the same network's other search)
    assert with_dependencies("base", "findings/02-one-network", tmp_path) != "base"
    own.write_text('{"key": "y"}')
    assert with_dependencies("base", "findings/01-claims", tmp_path) == k1  # not keyed by its own last run
    prov.write_text('{"key": "bbb"}')
    assert with_dependencies("base", "findings/01-claims", tmp_path) != k1
    assert "findings/01-claims" in AFTER_NOTEBOOKS and runs_after("findings/01-claims")
    assert runs_after("findings/02-one-network") and not runs_after("torus_nbc/02-latency")


def test_cell_timeout_is_hours_for_the_full_profile_and_can_be_overridden(monkeypatch):
    from models import pipeline

    monkeypatch.delenv("MODELS_CELL_TIMEOUT", raising=False)
    assert pipeline.cell_timeout("quick") == 600
    assert pipeline.cell_timeout("full") >= 3 * 3600  # a full torus figure cell took > 30 min under load
    monkeypatch.setenv("MODELS_CELL_TIMEOUT", "90")
    assert pipeline.cell_timeout("full") == 90
    monkeypatch.setenv("MODELS_CELL_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="MODELS_CELL_TIMEOUT"):
        pipeline.cell_timeout("full")


def test_a_cells_printed_text_is_one_output_however_the_kernel_flushed_it(tmp_path, monkeypatch):
    """ipykernel sends what a cell printed every 0.2 s: a ``print`` on a busy machine can arrive as two outputs (its
    text, then its newline).  The executed notebook keeps one output per run of one stream, as Jupyter shows it."""
    assert pipeline.merge_streams([
        {"output_type": "stream", "name": "stdout", "text": ["a\n", "b"]},
        {"output_type": "stream", "name": "stdout", "text": "\n"},
        {"output_type": "stream", "name": "stderr", "text": "e\n"},
        {"output_type": "stream", "name": "stdout", "text": "c\n"},
        {"output_type": "display_data", "data": {"text/plain": "1"}, "metadata": {}},
        {"output_type": "stream", "name": "stdout", "text": "d\n"},
    ]) == [
        {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]},
        {"output_type": "stream", "name": "stderr", "text": "e\n"},
        {"output_type": "stream", "name": "stdout", "text": "c\n"},
        {"output_type": "display_data", "data": {"text/plain": "1"}, "metadata": {}},
        {"output_type": "stream", "name": "stdout", "text": "d\n"},
    ]
    monkeypatch.setattr(pipeline, "BUILD", tmp_path / "_build")
    body = "import sys, time\nsys.stdout.write('one')\nsys.stdout.flush()\ntime.sleep(0.5)\nprint(' line')"
    nb = _notebook(tmp_path / "nb" / "ch" / "01-print.ipynb", "x: int = 1", body)
    out = tmp_path / "book" / "ch"
    run = pipeline.Run("ch", "01-print", nb, out, {"x": 1}, key="k1")
    assert pipeline.execute([run], "quick", jobs=1, book_dir=tmp_path / "book", report=False) == 0
    outputs = json.loads((out / "01-print.ipynb").read_text())["cells"][-1]["outputs"]
    # written as an output that came whole is (its lines): the page's file does not show that it was merged
    assert outputs == [{"output_type": "stream", "name": "stdout", "text": ["one line\n"]}]
