"""DESIGN.md is true: each rule it states that a test can check, checked here (or named there with its test).

The rules checked here are the ones no other test owns: the dependencies it lists are pinned; every module of
``core`` and ``book`` is described; every ``glue_values*`` of a chapter is unit-tested; no list of chapters is
written anywhere but ``models.CHAPTERS``; the tests that need the quick book are marked, so that ``make
test-fast`` (README) skips them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import models

ROOT = Path(__file__).resolve().parents[1]
DESIGN = (ROOT / "DESIGN.md").read_text()


def test_every_dependency_design_names_is_pinned():
    deps = DESIGN[DESIGN.index("## Dependencies"):]
    named = re.findall(r"\b(numpy|scipy|sympy|numba|pandas|matplotlib|papermill|jupyter-book|dask|distributed|"
                       r"pytest|hypothesis|playwright|pypdf|psutil|sphinx-exercise)\b", deps)
    pinned = {re.split(r"[=<>\[ ]", line, maxsplit=1)[0].strip().lower()
              for line in (ROOT / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")}
    assert set(named) >= {"numpy", "pypdf", "playwright", "psutil", "sphinx-exercise"}
    assert not set(named) - pinned, f"DESIGN.md names {sorted(set(named) - pinned)}, not in requirements.txt"


@pytest.mark.parametrize("unit", ["core", "book"])
def test_every_module_of_the_shared_floors_is_described(unit):
    for path in sorted((ROOT / "models" / unit).glob("*.py")):
        if path.name != "__init__.py":
            assert f"`{path.name}`" in DESIGN or f"{unit}/{path.name}" in DESIGN, \
                f"DESIGN.md does not describe models/{unit}/{path.name}"


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_every_glue_function_is_unit_tested(chapter):
    """DESIGN.md: ``glue_values...`` are "computed there and unit-tested": a test of the chapter calls each."""
    tree = ast.parse((ROOT / "models" / chapter / "glue.py").read_text())
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("glue_values")]
    assert names, f"models/{chapter}/glue.py has no glue_values"
    tests = "\n".join(p.read_text() for p in (ROOT / "tests" / chapter).rglob("*.py"))
    untested = [n for n in names if not re.search(rf"\b{n}\(", tests)]
    assert not untested, f"no test in tests/{chapter}/ calls {untested}"


def _chapter_lists(tree) -> list:
    slugs = set(models.CHAPTERS)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(slugs & set(names)) >= len(slugs) - 1:  # a loop over (nearly) every chapter
                out.append(node.lineno)
    return out


def test_no_list_of_chapters_but_models_chapters():
    """DESIGN.md: "Every test that loops over chapters reads ``models.CHAPTERS``" -- and so does the code."""
    found = []
    for path in [*(ROOT / "models").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        if path == ROOT / "models" / "__init__.py":
            continue
        lines = _chapter_lists(ast.parse(path.read_text()))
        found += [f"{path.relative_to(ROOT)}:{n}" for n in lines]
    for path in (ROOT / "notebooks").rglob("*.ipynb"):
        import json

        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                try:
                    tree = ast.parse("".join(cell["source"]))
                except SyntaxError:
                    continue
                found += [f"{path.relative_to(ROOT)}" for _ in _chapter_lists(tree)]
    assert not found, "a list of chapters written again (read models.CHAPTERS): " + ", ".join(found)


def test_tests_that_need_the_quick_book_are_marked():
    """README: ``make test-fast`` skips the notebooks, the book build and the slow tests: every test that takes
    the quick book (``quick_book``, ``quick_html``) is marked ``notebooks``, ``book`` or ``slow``."""
    unmarked = []
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text())
        module_marked = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
                            for n in tree.body)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or not fn.name.startswith("test"):
                continue
            args = {a.arg for a in fn.args.args}
            if not args & {"quick_book", "quick_html"}:
                continue
            marks = {ast.unparse(d) for d in fn.decorator_list}
            if not module_marked and not any(re.search(r"mark\.(notebooks|book|slow)", m) for m in marks):
                unmarked.append(f"{path.relative_to(ROOT)}::{fn.name}")
    assert not unmarked, unmarked
