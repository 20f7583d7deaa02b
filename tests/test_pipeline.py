"""The papermill pipeline: plan, parameter layers, keys, freshness, failure reporting."""

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from models import pipeline
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


def test_freshness_requires_matching_key_and_output(tmp_path):
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "out", {}, key="abc")
    assert not pipeline.is_fresh(run)
    run.out_dir.mkdir()
    run.provenance.write_text(json.dumps({"key": "abc", "status": "ok"}))
    assert not pipeline.is_fresh(run)  # no output notebook
    run.output.write_text("{}")
    assert pipeline.is_fresh(run)
    run.key = "def"
    assert not pipeline.is_fresh(run)


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
    from models.pipeline import AFTER_CHAPTERS, with_dependencies

    (tmp_path / "torus_dor").mkdir()
    prov = tmp_path / "torus_dor" / "02-latency.provenance.json"
    prov.write_text('{"key": "aaa"}')
    k1 = with_dependencies("base", "findings", tmp_path)
    assert with_dependencies("base", "torus_dor", tmp_path) == "base"  # others keep their key
    prov.write_text('{"key": "bbb"}')
    assert with_dependencies("base", "findings", tmp_path) != k1
    assert "findings" in AFTER_CHAPTERS
