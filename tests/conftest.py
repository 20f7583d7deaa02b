"""Shared test configuration.

Simulation results are cached under a per-session temporary folder unless
``MODELS_CACHE_DIR`` is set, so tests never read results left by an older
checkout and never write into the reader's cache.  The run that made the
folder removes it when it ends (:func:`pytest_unconfigure`); pytest-xdist's
workers and the pytest runs a test starts inherit it and leave it alone.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

#: the simulation cache this process made (None: ``MODELS_CACHE_DIR`` was set, by the reader or by the run that
#: started this one)
OWN_CACHE = None
if "MODELS_CACHE_DIR" not in os.environ:
    OWN_CACHE = os.environ["MODELS_CACHE_DIR"] = tempfile.mkdtemp(prefix="models-test-cache-")


def pytest_unconfigure(config):
    """Remove the simulation cache this process made, and nothing else (a folder ``MODELS_CACHE_DIR`` named
    before the run started is the reader's, kept)."""
    if OWN_CACHE is not None:
        shutil.rmtree(OWN_CACHE, ignore_errors=True)


def pytest_configure(config):
    """Under pytest-xdist (``make test``: ``-n 2``), the controller compiles the simulator kernels once, in
    parallel, before the workers start (:mod:`models.sim.warm`): otherwise both workers' first simulations
    compile the same kernels at once on a fresh checkout (32 CPU-seconds of the two routers, measured).  With
    ``MODELS_TEST_TIMELINE``, the run started first marks the environment, so that the pytest runs its tests start
    write no timeline (:func:`pytest_runtest_protocol`)."""
    if hasattr(config, "workerinput"):
        return
    if os.environ.get("MODELS_TEST_TIMELINE"):  # the timeline (below) is of the run started first, not of the
        if os.environ.get("MODELS_TEST_TIMELINE_TOP"):  # pytest runs its tests start (e.g. test_new_chapter.py)
            del os.environ["MODELS_TEST_TIMELINE"]
        else:
            os.environ["MODELS_TEST_TIMELINE_TOP"] = str(os.getpid())
    if not getattr(config.option, "numprocesses", None):
        return
    from models.sim.warm import warm  # the controller only; it imports nothing heavy

    jobs = config.option.numprocesses
    warm(jobs=jobs if isinstance(jobs, int) and jobs > 0 else os.cpu_count() or 1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With ``MODELS_TEST_TIMELINE=<file>``: one JSON line per test appended to the file (the xdist worker, the test's
    id, its start and end as Unix times, and the CPU-seconds its worker and the worker's children used meanwhile),
    which ``benchmarks/timeline.py`` sums per worker and per file.  Off (nothing measured) when unset, and in a
    pytest run that a test starts (:func:`pytest_configure` unsets it there)."""
    out = os.environ.get("MODELS_TEST_TIMELINE")
    if not out:
        yield
        return
    import resource
    import time

    def cpu():
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    t0, c0 = time.time(), cpu()
    yield
    line = json.dumps({"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "test": item.nodeid, "start": t0,
                       "end": time.time(), "cpu": cpu() - c0})
    with open(out, "a") as f:  # one short line per write: the workers' lines do not interleave
        f.write(line + "\n")


@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    """A fresh, empty result cache for one test."""
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _shared(tmp_path_factory, name: str) -> Path:
    """``name`` in a folder every pytest-xdist worker of this run shares (``make test`` runs ``pytest -n 2``):
    the parent of the worker's own base folder under xdist, the base folder itself without it."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name


@contextlib.contextmanager
def _once(folder: Path):
    """Hold the lock of ``folder`` (``<folder>.lock``): the first worker builds what the others then read."""
    import fcntl

    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def quick_book(tmp_path_factory):
    """Every notebook run with the quick profile into a temporary copy of the book's sources, once per test run.

    The reader's own (paper-scale) outputs in book/ are never overwritten.  Under pytest-xdist the first worker
    that needs it builds it (the pipeline runs two notebooks at a time: both cores) while the others wait, then
    every worker reads the same copy.  Returns ``(site, runs, failures)``.
    """
    from models import pipeline
    from models.core.paths import ROOT

    site = _shared(tmp_path_factory, "quick-site")
    record = site.parent / f"{site.name}.json"
    with _once(site):
        if not record.is_file():
            shutil.rmtree(site, ignore_errors=True)  # a worker that died half-way: start again
            site.mkdir(parents=True)
            for name in ("_config.yml", "_toc.yml", "references.bib"):
                shutil.copy(ROOT / name, site / name)
            shutil.copytree(ROOT / "book", site / "book",
                            ignore=shutil.ignore_patterns("*.ipynb", "figures", "tables", "_generated", "*.json"))
            runs = pipeline.plan(None, "quick", book_dir=site / "book")
            failures = pipeline.execute(runs, "quick", jobs=2, book_dir=site / "book")
            record.write_text(json.dumps({"failures": failures}))
        failures = json.loads(record.read_text())["failures"]
    return site, pipeline.plan(None, "quick", book_dir=site / "book"), failures


@pytest.fixture(scope="session")
def quick_html(quick_book, tmp_path_factory):
    """The -n -W build of the quick book, once per test run: ``(html folder, completed process)``."""
    site, runs, failures = quick_book
    assert failures == 0, "a notebook failed (see the output above and _build/failed/)"
    record = site.parent / f"{site.name}-html.json"
    with _once(site):
        if not record.is_file():
            jb = Path(sys.executable).with_name("jupyter-book")
            proc = subprocess.run([str(jb), "build", str(site), "-n", "-W", "--keep-going"], capture_output=True,
                                  text=True, timeout=900)
            record.write_text(json.dumps({"args": proc.args, "returncode": proc.returncode, "stdout": proc.stdout,
                                          "stderr": proc.stderr}))
        done = json.loads(record.read_text())
    proc = subprocess.CompletedProcess(done["args"], done["returncode"], done["stdout"], done["stderr"])
    return site / "_build" / "html", proc
