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
    assert rc == 2 and "error: --out: cannot create the output folder" in err and "Traceback" not in err


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


# ----------------------------------------------------------------------------- issue #35: nothing lost
def test_book_dir_may_not_point_into_the_sources(monkeypatch, capsys):
    """Review N-1 (defect N1): ``--book-dir notebooks`` replaced the tracked source notebook with its executed copy;
    it is refused like ``--out notebooks``, before anything runs, and so is any other place of the sources."""
    _no_notebook_runs(monkeypatch)
    for where in ("notebooks", "notebooks/min_mva", "models", "book/min_mva", "."):
        with pytest.raises(SystemExit) as exc:
            pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--book-dir", str(pipeline.ROOT / where)])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "error: --book-dir: " in err and "Traceback" not in err, where
    assert pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--list", "--book-dir",
                          str(pipeline.ROOT / "book")]) == 0  # the book's own folder


def test_a_chapter_folder_linked_into_the_sources_is_refused(monkeypatch, tmp_path, capsys):
    """Review N-2 (defect N1): ``--out runsl`` with ``runsl/min_mva -> notebooks/min_mva`` overwrote the source
    notebook; every ``<out>/<chapter>`` is resolved and refused (its figures/ and tables/ too)."""
    _no_notebook_runs(monkeypatch)
    source = pipeline.ROOT / "notebooks" / "min_mva" / "01-derivation.ipynb"
    before = source.read_bytes()
    runs = tmp_path / "runsl"
    runs.mkdir()
    os.symlink(pipeline.ROOT / "notebooks" / "min_mva", runs / "min_mva")
    with pytest.raises(SystemExit) as exc:
        pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(runs)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "error: --out: " in err and "inside notebooks/" in err
    (runs / "min_mva").unlink()
    (runs / "min_mva").mkdir()
    os.symlink(pipeline.ROOT / "models", runs / "min_mva" / "figures")
    with pytest.raises(SystemExit):
        pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(runs)])
    assert "inside models/" in capsys.readouterr().err
    assert source.read_bytes() == before and not (pipeline.ROOT / "notebooks" / "min_mva" /
                                                  "01-derivation.provenance.json").exists()


def test_a_students_copy_is_never_replaced(monkeypatch, tmp_path, capsys):
    """Review N-3 (defect N2): a run into the lab folder replaced a student's edited copy.  A notebook without a
    provenance of its own (a student's copy, an executed notebook edited since) stops the run before anything runs,
    ``--force`` or not; a notebook the pipeline wrote is replaced as before."""
    from models import classroom

    _no_notebook_runs(monkeypatch)
    lab = tmp_path / "lab"
    assert classroom.main(["min_mva/01-derivation", "--out", str(lab)]) == 0
    copy = lab / "min_mva" / "01-derivation.ipynb"
    copy.write_text(copy.read_text().replace('"cells": [', '"cells": [{"cell_type": "markdown", "metadata": {}, '
                                                          '"source": "STUDENT WORK"}, ', 1))
    before = copy.read_bytes()
    for force in ([], ["--force"]):
        rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(lab), *force])
        err = capsys.readouterr().err
        assert rc == 2 and f"error: --out: {copy}: not a notebook the pipeline wrote" in err
    assert copy.read_bytes() == before
    run = pipeline.Run("min_mva", "01-derivation", tmp_path / "src.ipynb", lab / "min_mva", {})
    assert not pipeline.replaceable(run)
    _stamped(copy, "min_mva/01-derivation")  # the pipeline's own output: replaceable
    assert pipeline.replaceable(run)
    copy.write_text(copy.read_text() + " ")  # edited since it ran: no longer its own provenance's
    assert not pipeline.replaceable(run)
    copy.unlink()
    os.mkfifo(copy)  # never read (it would hang), never replaced
    assert not pipeline.replaceable(run) and pipeline.read_stamp(copy, copy.with_suffix(".provenance.json")) is None


def test_a_notebook_that_appears_while_its_run_runs_is_kept(monkeypatch, tmp_path, capsys):
    """The check is made again when the executed notebook is moved into place: a file put there meanwhile (here by
    the notebook itself) is kept, the run fails and its executed notebook goes to _build/failed/."""
    import nbformat

    monkeypatch.setattr(pipeline, "BUILD", tmp_path / "_build")
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("x: int = 2")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("open('01-x.ipynb', 'w').write('a student arrives')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    source = tmp_path / "nb" / "ch" / "01-x.ipynb"
    source.parent.mkdir(parents=True)
    nbformat.write(nb, source)
    out = tmp_path / "book" / "ch"
    run = pipeline.Run("ch", "01-x", source, out, {"x": 2}, key="k")
    assert pipeline.execute([run], "quick", book_dir=tmp_path / "book", report=False) == 1
    text = capsys.readouterr().out
    assert "ch/01-x: " in text and "is not the pipeline's" in text
    assert (out / "01-x.ipynb").read_text() == "a student arrives" and not (out / "01-x.provenance.json").exists()
    assert (tmp_path / "_build" / "failed" / "ch" / "01-x.ipynb").exists()


def test_the_lock_never_follows_a_symbolic_link(monkeypatch, tmp_path, capsys):
    """Review N-4 (defect N3): ``<out>/.pipeline.lock -> victim.txt`` had the victim emptied and given the pid.
    The lock is opened with O_NOFOLLOW: the run stops before anything runs, the victim and the link stay."""
    _no_notebook_runs(monkeypatch)
    out = tmp_path / "outsl"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious contents")
    os.symlink(victim, out / ".pipeline.lock")
    rc = pipeline.main(["min_mva/01-derivation", "--profile", "quick", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and f"error: --out: {out}/.pipeline.lock is a symbolic link" in err
    assert victim.read_text() == "precious contents" and (out / ".pipeline.lock").is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "another user's", "hard link", "folder"])
def test_the_lock_is_a_regular_file_of_this_user_or_nothing(kind, tmp_path):
    """Review N3: anything but a regular file of this user with one name is refused (status 2), left as it is,
    and never truncated; a FIFO does not hang the pipeline."""
    out = tmp_path / "out"
    out.mkdir()
    lock = out / ".pipeline.lock"
    if kind == "fifo":
        os.mkfifo(lock)
    elif kind == "another user's":
        lock.write_text("theirs")
        os.chown(lock, 65534, 65534) if os.geteuid() == 0 else pytest.skip("needs root to give a file away")
    elif kind == "hard link":
        (tmp_path / "mine.txt").write_text("mine")
        os.link(tmp_path / "mine.txt", lock)
    else:
        lock.mkdir()
    with pytest.raises(pipeline.CannotStart) as exc:
        pipeline.PipelineLock(out).acquire()
    assert exc.value.status == 2 and str(lock) in str(exc.value)
    if kind == "another user's":
        assert "uid 65534" in str(exc.value) and lock.read_text() == "theirs"
    if kind == "hard link":
        assert (tmp_path / "mine.txt").read_text() == "mine"


# ----------------------------------------------------------------------------- issue #35: honest estimates (N4)
N12 = ["-p", "networks", "[[64, 64]]", "-p", "messages", "100000000", "-p", "vcs_values", "[3]", "-p", "tori",
       '["unidirectional"]']


def test_the_estimate_scales_with_run_lengths_and_network_sizes(tmp_path, capsys):
    """Review N-12 (defect N4): a 64 x 64 torus at 10^8 messages was planned as "about 13 s (estimate)".  The plan
    scales the profile's time by the work the -p values add, says so, and warns."""
    assert pipeline.main(["torus_dor/02-latency", "--profile", "quick", "--list", "--out", str(tmp_path), *N12]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "(estimate scaled x" in out[0] and "by messages, networks)" in out[0] and " h " in out[0]
    assert out[-1].startswith("warning: torus_dor/02-latency: messages, networks multiply its simulated work about x")
    runs = pipeline.plan(["torus_dor/02-latency"], "quick", dict(zip(N12[1::3], N12[2::3])), out_dir=tmp_path)
    est = pipeline.estimate(runs[0], "quick")
    assert est.source == "estimate" and est.scale > 1e4 and est.seconds > 3600
    lines = pipeline._plan_lines(runs, "quick", 2)
    assert any(line.startswith("warning: torus_dor/02-latency") for line in lines)
    assert pipeline.relayed_expected(runs[0], "quick") is None  # the time left comes from the finished points
    plain = pipeline.plan(["torus_dor/02-latency"], "quick", out_dir=tmp_path)[0]
    assert pipeline.estimate(plain, "quick") == pipeline.Estimate(13.0, "estimate")
    assert not pipeline.scale_warnings([plain], "quick") and pipeline.relayed_expected(plain, "quick") == 13.0


def test_work_scale_reads_the_shared_vocabulary():
    quick = {"messages": 3000, "warmup_messages": 500, "sat_messages": 2000, "networks": [[8, 8]], "M_values": [32],
             "seed": 1, "max_cycles": 200000, "fractions": [0.5]}
    assert pipeline.work_scale(quick, quick) == (1.0, [])
    scale, changed = pipeline.work_scale({**quick, "messages": 30000}, quick)
    assert scale == pytest.approx(32500 / 5500) and changed == ["messages"]
    assert pipeline.work_scale({**quick, "networks": [[16, 16], [4, 4, 4]], "M_values": [64]}, quick) \
        == (4.0, ["networks", "M_values"])
    assert pipeline.work_scale({**quick, "seed": 9, "max_cycles": 10**9, "fractions": [0.1]}, quick) == (1.0, [])
    assert pipeline.work_scale({"cycles": 40000, "warmup_cycles": 4000}, {"cycles": 20000, "warmup_cycles": 4000})[0] \
        == pytest.approx(44000 / 24000)
    assert pipeline.work_scale({"k": 16}, {"k": 8}) == (2.0, ["k"])


def test_a_last_runs_time_scales_from_its_own_parameters(tmp_path):
    run = pipeline.Run("ch", "01-x", tmp_path / "s.ipynb", tmp_path, {"messages": 30000}, key="k")
    run.provenance.write_text(json.dumps({"profile": "quick", "status": "ok", "seconds": 20.0,
                                          "parameters": {"messages": 3000}}))
    est = pipeline.estimate(run, "quick")
    assert (est.seconds, est.source, est.changed) == (200.0, "last run", ("messages",))
    assert est.note() == " (last run scaled x10 by messages)"
    assert pipeline.expected_seconds(run, "quick") == (200.0, "last run")


def test_a_time_left_once_the_first_points_finish():
    """With no expected time to count down from (an extrapolated one is none), the relay's line gives the time
    left from the rate of the points finished so far."""
    from models.core.progress import NotebookProgress

    prog = NotebookProgress("torus_dor/02-latency", started=0.0, expected=None)
    prog.feed([{"t": 1.0, "done": 0, "total": 1, "label": "curves"}, {"t": 1.0, "done": 0, "total": 4,
                                                                      "label": "points"}])
    assert "running for" in prog.line(now=600.0)
    prog.feed([{"t": 601.0, "done": 1, "total": 4, "label": "points"}])
    assert prog.line(now=601.0).endswith("0/1 curves, 1/4 points, about 30 min left")
