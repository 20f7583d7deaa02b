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

pytestmark = pytest.mark.slow  # a copy of the repository, a nested pytest and a notebook run: minutes

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
    for name, target in new_chapter.FILES.items():  # every room of a chapter, from the template
        path = target.format(slug=SLUG)
        assert (dest / path).is_file(), path
        assert "chapter_template" not in (dest / path).read_text() and "ChapterTemplate" not in (dest / path).read_text()
    for room in ("setups", "experiments", "claims", "glue", "plots", "compare", "__main__"):
        assert (dest / f"models/{SLUG}/{room}.py").is_file(), room
    assert f'"{SLUG}")' in (dest / "models/__init__.py").read_text()
    assert f"book/{SLUG}/01-model" in (dest / "_toc.yml").read_text()
    assert "A Toy Model of One Channel" in (dest / "CITATION.cff").read_text()
    assert f"@misc{{{SLUG}," in (dest / "references.bib").read_text()
    assert "PLACEHOLDER" in (dest / f"models/{SLUG}/solve.py").read_text()


def test_the_scaffold_refuses_to_overwrite(repo, tmp_path):
    dest, _ = repo
    with pytest.raises(ValueError, match="already a name in models/"):
        new_chapter.scaffold(SLUG, "Again", root=dest)
    (dest / "notebooks" / "fresh_one").mkdir()  # a folder of the chapter that is not in models/ yet
    with pytest.raises(ValueError, match="would overwrite"):
        new_chapter.scaffold("fresh_one", "Again", root=dest)
    assert not (dest / "models" / "fresh_one").exists()
    with pytest.raises(ValueError, match="slug"):
        new_chapter.scaffold("Bad-Name", "A paper", root=dest)


@pytest.mark.parametrize("slug, why", [
    ("toy\n", "lower-case identifier"), ("Toy", "lower-case identifier"), ("toy-x", "lower-case identifier"),
    ("a" * 33, "at most 32"), ("class", "keyword"), ("match", "keyword"), ("core", "already a name"),
    ("pipeline", "already a name"), ("chapter_template", "already a name"), ("min_mva", "already a name"),
])
def test_a_slug_that_cannot_name_a_chapter_is_refused_before_anything_is_written(slug, why, tmp_path):
    with pytest.raises(ValueError, match=why):
        new_chapter.check_slug(slug)


@pytest.mark.parametrize("paper", ["two\nlines", "", "  ", "tab\there", None])
def test_a_title_is_one_line_of_text(paper, tmp_path):
    with pytest.raises(ValueError, match="paper"):
        new_chapter.scaffold("fresh_slug", paper, root=tmp_path)
    assert not any(tmp_path.iterdir())  # nothing written


def test_the_title_is_written_by_serialisers_never_pasted(tmp_path):
    import ast

    import yaml

    for name in ("models/__init__.py", "_toc.yml", "CITATION.cff", "references.bib"):  # what the scaffold edits
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    paper = 'A Toy {Model} of "One" Channel & 50% \\ \'q\' """'
    slug = "quoted_title"
    new_chapter.scaffold(slug, paper, title="Title: *with* `marks` {and} braces", root=tmp_path)
    tree = ast.parse((tmp_path / f"models/{slug}/setups.py").read_text())
    values = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
              if isinstance(t, ast.Name)}
    assert ast.literal_eval(values["PAPER"]) == paper
    for name in new_chapter.FILES.values():
        if name.endswith(".py"):
            ast.parse((tmp_path / name.format(slug=slug)).read_text())  # every module still parses
    toc = yaml.safe_load((tmp_path / "_toc.yml").read_text())
    assert any(part.get("caption") == "Title: *with* `marks` {and} braces" for part in toc["parts"])
    cff = yaml.safe_load((tmp_path / "CITATION.cff").read_text())
    assert any(ref.get("title") == paper for ref in cff["references"])
    bib = (tmp_path / "references.bib").read_text()
    entry = bib[bib.index(f"@misc{{{slug},"):]
    assert entry.count("{") - entry.count("\\{") == entry.count("}") - entry.count("\\}")  # braces balanced
    index = (tmp_path / f"book/{slug}/index.md").read_text()
    assert "\\{and\\}" in index and "\\`marks\\`" in index


def test_the_new_chapter_passes_the_tests_of_the_others(repo):
    dest, env = repo
    tests = ["tests/test_contract.py", "tests/test_architecture.py", "tests/test_cli.py", "tests/test_notebooks.py",
             "tests/test_compare.py", f"tests/{SLUG}"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                           "-k", f"{SLUG} or architecture or floor or import or toc or labels", *tests],
                          cwd=dest, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    # the chapter's own unit tests and the contract's tests parametrised on it ran (not only the rest)
    import re

    passed = int(re.search(r"(\d+) passed", proc.stdout).group(1))
    assert passed >= 6 + 5, proc.stdout[-2000:]


def test_the_new_chapter_notebook_runs(repo):
    dest, env = repo
    proc = subprocess.run([sys.executable, "-m", "models.pipeline", SLUG, "--profile", "quick", "--jobs", "1"],
                          cwd=dest, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (dest / f"book/{SLUG}/01-model.ipynb").is_file()
    assert (dest / f"book/{SLUG}/tables/tab-{SLUG}-claims.csv").is_file()
    assert (dest / f"book/{SLUG}/figures/fig-{SLUG}-latency.svg").is_file()
