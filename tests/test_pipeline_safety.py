"""The pipeline never deletes or overwrites what it did not write (issue #26, review cases P10-P12), and its
small faults are one line naming the cause (review P9, P13, P16, P17, P20, P21, I4; issue #26, item 5)."""

from __future__ import annotations

import fcntl
import json
import os
import stat
from pathlib import Path

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


# ----------------------------------------------------------------------------- the small ones (issue #26, item 5)
def _no_notebook_runs(monkeypatch):
    """No worker (and no kernel) is started: the errors below must come before."""
    monkeypatch.setattr(pipeline, "_spawn", lambda *a, **kw: pytest.fail("a notebook was started"))


def test_bad_cell_timeout_is_one_line(monkeypatch, tmp_path, capsys):
    """P9: ``MODELS_CELL_TIMEOUT=abc``: ``error: MODELS_CELL_TIMEOUT ...``, status 2, before anything runs (was:
    the same message as a traceback, status 1)."""
    _no_notebook_runs(monkeypatch)
    for value in ("abc", "-5"):
        monkeypatch.setenv("MODELS_CELL_TIMEOUT", value)
        rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--book-dir", str(tmp_path / "book")])
        err = capsys.readouterr().err
        assert rc == 2 and "error: MODELS_CELL_TIMEOUT" in err and "Traceback" not in err


def test_malformed_profiles_yaml_names_the_file(monkeypatch, tmp_path, capsys):
    """P16: a malformed ``notebooks/profiles.yaml``: ``error: <file>: not valid YAML (line N ...)``, status 2 (was:
    a yaml ``ParserError`` traceback, status 1); the chapter's own ``profiles.yaml`` likewise."""
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    bad = notebooks / "profiles.yaml"
    bad.write_text("quick:\n  '*': {messages: 300\n  min_mva/02-single-packet: [\n")
    monkeypatch.setattr(pipeline, "NOTEBOOKS", notebooks)
    rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--list", "--book-dir", str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert rc == 2 and f"error: {bad}: not valid YAML (line" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="a mapping of profiles"):
        bad.write_text("- quick\n- full\n")
        pipeline.load_profiles(bad)
    chapter = tmp_path / "nb" / "ch"
    source = _mine(chapter / "01-x.ipynb")
    source.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {"tags": ["parameters"]},
                                             "source": "n: int = 3", "outputs": []}],
                                  "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    (chapter / "profiles.yaml").write_text("quick: {'*': {n: 4}\n")
    with pytest.raises(ValueError, match=f"{chapter / 'profiles.yaml'}: not valid YAML"):
        pipeline.resolve_parameters("ch", "01-x", source, "quick", profiles={})


def test_truncated_notebook_names_the_file(monkeypatch, tmp_path, capsys):
    """P17: a truncated source notebook: the error names the file (was: ``error: Unterminated string starting
    at: line 56 column 5 (char 1984)`` and no file name)."""
    notebooks = tmp_path / "notebooks"
    src = notebooks / "min_mva" / "01-derivation.ipynb"
    src.parent.mkdir(parents=True)
    text = (pipeline.ROOT / "notebooks" / "min_mva" / "01-derivation.ipynb").read_text()
    src.write_text(text[: len(text) // 2])
    (notebooks / "profiles.yaml").write_text("quick: {}\nfull: {}\n")
    monkeypatch.setattr(pipeline, "NOTEBOOKS", notebooks)
    rc = pipeline.main([str(src), "--profile", "quick", "--list", "--book-dir", str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert rc == 2 and f"error: {src}: not a valid notebook (JSON)" in err and "Traceback" not in err
    with pytest.raises(ValueError, match=f"{src}: not a valid notebook"):
        pipeline.run_key(src, {}, "h", {})


def test_failed_notebook_follows_the_umask(monkeypatch, tmp_path):
    """P5 (DEFECT 17): the executed notebook kept in ``_build/failed/`` gets the umask's mode, like every other
    output (was: mkstemp's 0600)."""
    import tempfile

    import papermill

    def fail(source, output, **kw):
        Path(output).write_text("{}")
        raise RuntimeError("boom")

    monkeypatch.setattr(papermill, "execute_notebook", fail)
    out = tmp_path / "book" / "ch"
    out.mkdir(parents=True)
    fd, tmp = tempfile.mkstemp(prefix=".01-x.", suffix=".ipynb", dir=out)
    os.close(fd)
    run = pipeline.Run("ch", "01-x", tmp_path / "01-x.ipynb", out, {})
    old = os.umask(0o027)
    try:
        result = pipeline._execute(run, 60, tmp_path / "failed", Path(tmp))
    finally:
        os.umask(old)
    kept = Path(result["failed_notebook"])
    assert result["status"] == "failed" and kept.exists()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640


def test_a_second_pipeline_on_the_same_folder_is_refused(monkeypatch, tmp_path, capsys):
    """I4 (DEFECT 19): a pipeline while another runs into the same book folder: ``error: another pipeline (pid N)
    is running into ...``, status 1, nothing executed (was: both executed the same notebooks)."""
    _no_notebook_runs(monkeypatch)
    book = tmp_path / "book"
    book.mkdir()
    with open(book / ".pipeline.lock", "a+") as held:  # the other pipeline: its lock, its pid
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("4242\n")
        held.flush()
        rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--force", "--book-dir", str(book)])
        err = capsys.readouterr().err
        assert rc == 1 and "error: another pipeline (pid 4242) is running into" in err and str(book) in err
        assert (book / ".pipeline.lock").read_text() == "4242\n"  # the other's lock is left alone


def test_the_pipeline_lock_is_released_and_removed(monkeypatch, tmp_path):
    """I4: a pipeline that ran holds the lock only while it runs and leaves no lock file behind; a lock file left
    by a killed pipeline (nobody holds it) does not stop the next one."""
    book = tmp_path / "book"
    book.mkdir()
    (book / ".pipeline.lock").write_text("99999\n")  # a SIGKILLed pipeline's
    assert pipeline.execute([], "quick", book_dir=book, report=False) == 0
    assert not (book / ".pipeline.lock").exists()
    lock = pipeline.PipelineLock(book).acquire()
    assert (book / ".pipeline.lock").read_text() == f"{os.getpid()}\n"
    with pytest.raises(pipeline.CannotStart, match=f"pid {os.getpid()}"):
        pipeline.PipelineLock(book).acquire()
    lock.release()
    pipeline.PipelineLock(book).acquire().release()


def test_out_that_cannot_be_created_is_one_line(monkeypatch, tmp_path, capsys):
    """P13: ``--out`` below a regular file: ``error: ...``, status 2, before any notebook (was: the plan, then a
    ``NotADirectoryError`` traceback)."""
    _no_notebook_runs(monkeypatch)
    (tmp_path / "file").write_text("x")
    rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(tmp_path / "file" / "runs")])
    err = capsys.readouterr().err
    assert rc == 2 and "error: cannot create the output folder" in err and "Traceback" not in err


def test_relative_cache_dir_is_resolved_once(monkeypatch, tmp_path):
    """P20: ``MODELS_CACHE_DIR=relcache``: one absolute folder, from the directory of the process that first reads
    it, kept after a ``chdir``; the pipeline passes it absolute to the kernels, whose working directory is
    ``book/<chapter>/`` (was: each kernel made ``book/<chapter>/relcache/`` and simulated again)."""
    from models.core import paths

    monkeypatch.setattr(paths, "_RESOLVED", {}, raising=False)  # resolved afresh by this test
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    monkeypatch.setenv("MODELS_CACHE_DIR", "relcache")
    assert paths.cache_dir() == tmp_path / "a" / "relcache"
    monkeypatch.chdir(tmp_path / "b")
    assert paths.cache_dir() == tmp_path / "a" / "relcache"
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "book" / "ch", {}, key="k")
    env = pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt")
    assert env["MODELS_CACHE_DIR"] == str(tmp_path / "a" / "relcache")
    env = pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt", base={"MODELS_CACHE_DIR": str(tmp_path / "abs")})
    assert env["MODELS_CACHE_DIR"] == str(tmp_path / "abs")


@pytest.mark.parametrize("value", ["", "  "])
def test_empty_cache_dir_means_the_default(value, monkeypatch, tmp_path):
    """P21: ``MODELS_CACHE_DIR=""`` is the default ``<root>/.cache``, not the current directory, and is not passed
    to the kernels (was: the cache written into the current directory)."""
    from models.core import paths

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MODELS_CACHE_DIR", value)
    assert paths.cache_dir() == paths.ROOT / ".cache"
    run = pipeline.Run("ch", "01-x", tmp_path / "src.ipynb", tmp_path / "book" / "ch", {}, key="k")
    assert "MODELS_CACHE_DIR" not in pipeline.worker_env(run, tmp_path / "p", tmp_path / "rt")


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "x"])
def test_progress_every_must_be_positive(value, capsys):
    """Review P15: ``--progress-every -1`` was accepted (a line on every tick)."""
    with pytest.raises(SystemExit) as exc:
        pipeline.main(["--progress-every", value, "--list"])
    assert exc.value.code == 2
    assert "--progress-every: must be a positive number of seconds" in capsys.readouterr().err
    with pytest.raises(ValueError, match="progress_every"):
        pipeline.execute([], "quick", progress_every=float(value) if value != "x" else value)


def _workdir(tmp, name, pid, host=None, mark=True):
    d = tmp / f"{pipeline.WORKDIR_PREFIX}{name}"
    (d / "specs").mkdir(parents=True)
    (d / "specs" / "spec.json").write_text("{}")
    if mark:
        (d / pipeline.WORKDIR_OWNER).write_text(json.dumps({"pid": pid, "host": host or pipeline.platform.node()}))
    return d


def test_temp_folders_of_killed_pipelines_are_removed(tmp_path):
    """Review defect 14: a SIGKILLed pipeline left ``$TMPDIR/models-pipeline-*`` for ever.  The next pipeline
    removes the folders it can prove are a dead pipeline's (its mark, this user, this host, pid gone), nothing else."""
    import subprocess
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        killed = _workdir(tmp_path, "killed", dead.pid)
        running = _workdir(tmp_path, "running", alive.pid)
        unmarked = _workdir(tmp_path, "unmarked", dead.pid, mark=False)
        elsewhere = _workdir(tmp_path, "elsewhere", dead.pid, host="another-host")
        garbled = _workdir(tmp_path, "garbled", dead.pid)
        (garbled / pipeline.WORKDIR_OWNER).write_text("{not json")
        user = tmp_path / "models-pipeline-notes.txt"
        user.write_text("a user's file with our prefix")
        assert pipeline.remove_stale_workdirs(tmp_path) == [killed]
        assert not killed.exists()
        for kept in (running, unmarked, elsewhere, garbled, user):
            assert kept.exists(), kept
    finally:
        alive.kill()
        alive.wait()


def test_the_pipeline_marks_its_temp_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(pipeline.tempfile, "tempdir", str(tmp_path))
    old = _workdir(tmp_path, "old", 2**22 + 12345)  # above Linux's default pid_max: never a live pid
    workdir = pipeline._make_workdir()
    try:
        assert not old.exists()
        owner = json.loads((workdir / pipeline.WORKDIR_OWNER).read_text())
        assert owner == {"pid": os.getpid(), "host": pipeline.platform.node()}
        assert pipeline.remove_stale_workdirs(tmp_path) == []  # ours, alive
    finally:
        pipeline._remove_workdir(workdir, settle=0)
