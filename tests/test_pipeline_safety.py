"""The pipeline never deletes or overwrites what it did not write (issue #26, review cases P10-P12)."""

from __future__ import annotations

import json

import pytest

from models import pipeline
from models.pipeline import file_sha256


def _stamped(path, slug):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n')
    path.with_suffix(".provenance.json").write_text(json.dumps({"notebook": slug, "output_sha256": file_sha256(path)}))


def _mine(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n')
    return path


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)
    monkeypatch.setattr(pipeline, "NOTEBOOKS", tmp_path / "notebooks")
    (tmp_path / "notebooks" / "ch").mkdir(parents=True)
    _mine(tmp_path / "notebooks" / "ch" / "01-kept.ipynb")
    return tmp_path


def test_a_book_dir_elsewhere_is_never_cleaned(repo, tmp_path_factory):
    user = tmp_path_factory.mktemp("userdir")
    files = [_mine(user / "analysis" / "my-precious.ipynb"), _mine(user / "ch" / "my-notes.ipynb")]
    (user / "analysis" / "my-precious.provenance.json").write_text("{}")
    _stamped(user / "ch" / "02-gone.ipynb", "ch/02-gone")  # even a stamped one: not the repository's book
    assert pipeline.remove_orphans(user, []) == []
    assert all(f.exists() for f in files) and (user / "ch" / "02-gone.ipynb").exists()
    assert (user / "analysis" / "my-precious.provenance.json").exists()


def test_only_stamped_orphans_leave_the_book(repo, capsys):
    book = repo / "book"
    _stamped(book / "ch" / "02-gone.ipynb", "ch/02-gone")          # the pipeline's, its source gone: removed
    _stamped(book / "ch" / "01-kept.ipynb", "ch/01-kept")          # its source exists: kept
    mine = _mine(book / "ch" / "my-notes.ipynb")                   # a reader's: no stamp, kept
    forged = _mine(book / "ch" / "03-other.ipynb")                 # a stamp of another notebook: kept
    forged.with_suffix(".provenance.json").write_text(json.dumps({"notebook": "ch/02-gone",
                                                                   "output_sha256": file_sha256(forged)}))
    stale = _mine(book / "ch" / "04-stale.ipynb")                  # a provenance that is not its own: kept
    stale.with_suffix(".provenance.json").write_text(json.dumps({"notebook": "ch/04-stale", "output_sha256": "0"}))
    removed = pipeline.remove_orphans(book, [])
    assert removed == [book / "ch" / "02-gone.ipynb"]
    assert not (book / "ch" / "02-gone.provenance.json").exists()
    assert all(p.exists() for p in (book / "ch" / "01-kept.ipynb", mine, forged, stale))
    assert "removed ch/02-gone.ipynb" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["notebooks", "notebooks/min_mva", "models", "book", "book/min_mva", "."])
def test_out_may_not_point_into_the_sources_or_the_book(where, capsys):
    with pytest.raises(SystemExit) as exc:
        pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(pipeline.ROOT / where)])
    assert exc.value.code == 2
    assert "--out" in capsys.readouterr().err


def test_out_elsewhere_is_fine(tmp_path):
    assert pipeline.check_out_dir(tmp_path / "runs") == (tmp_path / "runs").resolve()
    assert pipeline.check_out_dir(pipeline.ROOT / "runs") == (pipeline.ROOT / "runs").resolve()
