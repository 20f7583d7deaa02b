"""Interrupting the pipeline (issue #15): SIGINT directly, SIGTERM through ``make run``, SIGKILL.

The real pipeline runs three short notebooks of the quick profile, two at a
time, into a temporary copy of the book.  After each interruption: no process
it started is left, no temporary file is left (in the book or in ``TMPDIR``),
every executed notebook has its own provenance with the run's key, and the
next run finishes the rest.
"""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from models import pipeline
from models.core.paths import ROOT

pytestmark = pytest.mark.notebooks

#: Short notebooks of three chapters (a few seconds each on 2 cores).
NOTEBOOKS = ["torus_dor/01-derivation", "torus_nbc/01-derivation", "min_mva/04-tables"]
TAG = "MODELS_TEST_INTERRUPT_TAG"


def _tagged(tag: str) -> list[str]:
    """Live (not zombie) processes whose environment carries ``TAG=tag`` (the environment they started with: a
    forked process's is its warm parent's): ``pid: [name] command line``."""
    found = []
    needle = f"{TAG}={tag}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            name = (entry / "comm").read_text().strip()
        except (OSError, IndexError):
            continue
        if state != "Z":
            found.append(f"{entry.name}: [{name}] {cmd}")
    return found


def _kernel_running(tag: str) -> bool:
    """A notebook's kernel runs: started (``-m ipykernel_launcher``) or forked from its worker (named so)."""
    return any("ipykernel_launcher" in p or ": [ipykernel] " in p for p in _tagged(tag))


def _wait(pred, timeout: float, step: float = 0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(step)
    return pred()


_STARTED: list = []


@pytest.fixture(autouse=True)
def _kill_leftovers():
    """A failing test leaves no process running (every process carrying a tag of its runs)."""
    yield
    while _STARTED:
        tag = _STARTED.pop()
        for line in _tagged(tag):
            try:
                os.kill(int(line.split(":")[0]), signal.SIGKILL)
            except OSError:
                pass


class _Run:
    """A command in a session of its own, with a tag in its environment and its output collected."""

    def __init__(self, cmd: list[str], tmpdir: Path):
        self.tag = uuid.uuid4().hex
        _STARTED.append(self.tag)
        env = dict(os.environ, **{TAG: self.tag, "TMPDIR": str(tmpdir), "PYTHONPATH": str(ROOT),
                                   "PYTHONUNBUFFERED": "1"})
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True)
        self.reader.start()

    def text(self) -> str:
        return "".join(self.lines)

    def interrupt(self, sig: int) -> float:
        """Send ``sig`` to the command (only to it); seconds until it exited."""
        t0 = time.monotonic()
        os.kill(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=30)
        finally:
            self.reader.join(timeout=5)
        return time.monotonic() - t0


def _pipeline_cmd(book: Path) -> list[str]:
    return [sys.executable, "-m", "models.pipeline", *NOTEBOOKS, "--profile", "quick", "--jobs", "2",
            "--book-dir", str(book), "--progress-every", "1"]


@pytest.fixture
def book(tmp_path):
    dest = tmp_path / "book"
    shutil.copytree(ROOT / "book", dest, ignore=shutil.ignore_patterns("*.ipynb", "figures", "tables", "_generated",
                                                                       "*.json"))
    (tmp_path / "tmp").mkdir()
    return dest


def _check_clean(run: _Run, book: Path, tmpdir: Path) -> list[str]:
    """The four conditions; returns the notebooks in place (slugs)."""
    left = _wait(lambda: not _tagged(run.tag), 10) or _tagged(run.tag)
    assert left is True, f"processes left: {left}\n{run.text()}"
    hidden = sorted(str(p.relative_to(book)) for p in book.rglob(".*"))
    assert not hidden, f"temp files left in the book: {hidden}"
    assert not list(tmpdir.iterdir()), f"temp files left in TMPDIR: {list(tmpdir.iterdir())}"
    runs = {r.slug: r for r in pipeline.plan(NOTEBOOKS, "quick", book_dir=book)}
    present = []
    for nb in sorted(book.glob("*/*.ipynb")):
        slug = f"{nb.parent.name}/{nb.stem}"
        assert pipeline.is_fresh(runs[slug]), f"{slug}: output without its provenance or key"
        present.append(slug)
    for prov in book.glob("*/*.provenance.json"):
        assert prov.with_name(prov.name.replace(".provenance.json", ".ipynb")).exists(), f"{prov}: no notebook"
    return present


def test_interrupted_pipeline_leaves_nothing_behind_and_resumes(book, tmp_path):
    tmpdir = tmp_path / "tmp"
    # 1. SIGINT to the pipeline once a notebook has finished and the others run
    run = _Run(_pipeline_cmd(book), tmpdir)
    assert _wait(lambda: ": ok in" in run.text() or run.proc.poll() is not None, 300), run.text()
    assert run.proc.poll() is None, f"finished before the interruption:\n{run.text()}"
    seconds = run.interrupt(signal.SIGINT)
    out = run.text()
    assert run.proc.returncode == 128 + signal.SIGINT, out
    assert seconds < 10, f"took {seconds:.1f} s to stop"
    summary = [line for line in out.splitlines() if line.startswith("interrupted by SIGINT")]
    assert len(summary) == 1 and "Traceback" not in out and "Error" not in out, out
    assert "expected: about" in out  # the plan with expected times came first
    done = _check_clean(run, book, tmpdir)
    assert done and set(summary[0].split("finished ", 1)[1].split(";")[0].split(", ")) == set(done), (done, summary)

    # 2. SIGTERM to make (as `kill -TERM` on `make book`), which passes it on to the pipeline
    make = shutil.which("make")
    venv = Path(sys.executable).parent.parent
    cmd = ([make, "-s", "-o", f"{venv}/.installed", "run", f"VENV={venv}", f"PY={sys.executable}", "PROFILE=quick",
            "JOBS=2", "ARGS=" + " ".join(_pipeline_cmd(book)[3:])] if make else _pipeline_cmd(book))
    run = _Run(cmd, tmpdir)
    assert _wait(lambda: _kernel_running(run.tag) or run.proc.poll() is not None, 120)
    assert run.proc.poll() is None, f"finished before the interruption:\n{run.text()}"
    seconds = run.interrupt(signal.SIGTERM)
    out = run.text()
    assert run.proc.returncode != 0 and seconds < 10, (run.proc.returncode, seconds, out)
    assert "interrupted by SIGTERM" in out and "Traceback" not in out, out
    assert set(_check_clean(run, book, tmpdir)) >= set(done)

    # 3. the next run finishes the rest and skips what is done
    run = _Run(_pipeline_cmd(book), tmpdir)
    assert run.proc.wait(timeout=600) == 0, run.text()
    run.reader.join(timeout=5)
    for slug in done:
        assert f"{slug}: up to date" in run.text()
    assert set(_check_clean(run, book, tmpdir)) == set(NOTEBOOKS)


def test_workers_die_with_the_pipeline(tmp_path):
    """SIGKILL to the pipeline (no chance to clean up): its worker and kernel follow within seconds."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("seconds: int = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(
        "import pathlib, time\npathlib.Path('started').write_text('')\ntime.sleep(seconds)")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    src = tmp_path / "nb" / "ch" / "01-sleep.ipynb"
    src.parent.mkdir(parents=True)
    nbformat.write(nb, src)
    out = tmp_path / "book" / "ch"
    script = ("import sys; from pathlib import Path; from models import pipeline\n"
              f"run = pipeline.Run('ch', '01-sleep', Path({str(src)!r}), Path({str(out)!r}), {{'seconds': 300}}, key='k')\n"
              f"pipeline.execute([run], 'quick', jobs=1, book_dir=Path({str(tmp_path / 'book')!r}), report=False)\n")
    (tmp_path / "tmp").mkdir()
    run = _Run([sys.executable, "-c", script], tmp_path / "tmp")
    assert _wait(lambda: (out / "started").exists() or run.proc.poll() is not None, 120), run.text()
    assert _kernel_running(run.tag), _tagged(run.tag)
    run.interrupt(signal.SIGKILL)
    left = _wait(lambda: not _tagged(run.tag), 15) or _tagged(run.tag)
    assert left is True, f"processes left: {left}"
    assert not list(out.glob(".*.ipynb")), "the worker left its temp notebook"
