"""Shared test configuration.

Simulation results are cached under a per-session temporary folder unless
``MODELS_CACHE_DIR`` is set, so tests never read results left by an older
checkout and never write into the reader's cache.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

if "MODELS_CACHE_DIR" not in os.environ:
    os.environ["MODELS_CACHE_DIR"] = tempfile.mkdtemp(prefix="models-test-cache-")


#: The fixtures that build the quick book once per session: every test that uses one runs on the same xdist worker
#: (``make test`` runs ``pytest -n 2 --dist loadgroup``), so the book is built once, not once per worker.
BOOK_FIXTURES = ("quick_book", "quick_html")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if set(getattr(item, "fixturenames", ())) & set(BOOK_FIXTURES):
            item.add_marker(pytest.mark.xdist_group("quick_book"))


@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    """A fresh, empty result cache for one test."""
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="session")
def quick_book(tmp_path_factory):
    """Every notebook run with the quick profile into a temporary copy of the book's sources.

    The reader's own (paper-scale) outputs in book/ are never overwritten.
    Returns ``(site, runs, failures)``.
    """
    from models import pipeline
    from models.core.paths import ROOT

    site = tmp_path_factory.mktemp("site")
    for name in ("_config.yml", "_toc.yml", "references.bib"):
        shutil.copy(ROOT / name, site / name)
    shutil.copytree(ROOT / "book", site / "book",
                    ignore=shutil.ignore_patterns("*.ipynb", "figures", "tables", "_generated", "*.json"))
    runs = pipeline.plan(None, "quick", book_dir=site / "book")
    failures = pipeline.execute(runs, "quick", jobs=2, book_dir=site / "book")
    return site, runs, failures


@pytest.fixture(scope="session")
def quick_html(quick_book):
    """The -n -W build of the quick book: ``(html folder, completed process)``."""
    site, runs, failures = quick_book
    assert failures == 0, "a notebook failed (see the output above and _build/failed/)"
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(site), "-n", "-W", "--keep-going"], capture_output=True, text=True,
                          timeout=900)
    return site / "_build" / "html", proc
