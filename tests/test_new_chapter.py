"""A sixth chapter in one command (issue #23): ``python -m models.new_chapter SLUG --paper "..."``.

The scaffold is written into a temporary copy of the repository (the files
git tracks), and the contract, architecture, command-line and notebook tests
of that copy run on the new chapter, with its own unit tests and one
execution of its notebook (quick profile) through the pipeline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from models import new_chapter

ROOT = Path(__file__).resolve().parents[1]
SLUG = "toy_channel"


def _copy_repository(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / os.fsdecode(name)
        if src.is_file():
            target = dest / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    if (ROOT / "node_modules").exists():
        (dest / "node_modules").symlink_to(ROOT / "node_modules")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("repo")
    _copy_repository(dest)
    env = dict(os.environ, PYTHONPATH=str(dest), MODELS_CACHE_DIR=str(dest / ".cache"), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "models.new_chapter", SLUG, "--paper",
                           "A Toy Model of One Channel", "--title", "One channel, a placeholder"],
                          cwd=dest, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return dest, env


def test_the_scaffold_writes_the_chapter(repo):
    dest, _ = repo
    for path in (f"models/{SLUG}/__init__.py", f"models/{SLUG}/equations.py", f"models/{SLUG}/solve.py",
                 f"models/{SLUG}/experiments.py", f"models/{SLUG}/compare.py", f"models/{SLUG}/__main__.py",
                 f"notebooks/{SLUG}/01-model.ipynb",
                 f"notebooks/{SLUG}/profiles.yaml", f"book/{SLUG}/index.md", f"tests/{SLUG}/test_model.py"):
        assert (dest / path).is_file(), path
    assert f'"{SLUG}")' in (dest / "models/__init__.py").read_text()
    assert f"book/{SLUG}/01-model" in (dest / "_toc.yml").read_text()
    assert "A Toy Model of One Channel" in (dest / "CITATION.cff").read_text()
    assert f"@misc{{{SLUG}," in (dest / "references.bib").read_text()
    assert "PLACEHOLDER" in (dest / f"models/{SLUG}/solve.py").read_text()


def test_the_scaffold_refuses_to_overwrite(repo, tmp_path):
    dest, _ = repo
    with pytest.raises(ValueError, match="would overwrite"):
        new_chapter.scaffold(SLUG, "Again", root=dest)
    with pytest.raises(ValueError, match="slug"):
        new_chapter.scaffold("Bad-Name", "A paper", root=dest)


def test_the_new_chapter_passes_the_tests_of_the_others(repo):
    dest, env = repo
    tests = ["tests/test_contract.py", "tests/test_architecture.py", "tests/test_cli.py", "tests/test_notebooks.py",
             "tests/test_compare.py", f"tests/{SLUG}"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                           "-k", f"{SLUG} or architecture or floor or import or toc or labels", *tests],
                          cwd=dest, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert f"[{SLUG}]" in proc.stdout or "passed" in proc.stdout


def test_the_new_chapter_notebook_runs(repo):
    dest, env = repo
    proc = subprocess.run([sys.executable, "-m", "models.pipeline", SLUG, "--profile", "quick", "--jobs", "1"],
                          cwd=dest, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (dest / f"book/{SLUG}/01-model.ipynb").is_file()
    assert (dest / f"book/{SLUG}/tables/tab-{SLUG}-claims.csv").is_file()
    assert (dest / f"book/{SLUG}/figures/fig-{SLUG}-latency.svg").is_file()
