"""Every chapter ends with an exercises page (``notebooks/<chapter>/NN-exercises.ipynb``), and so does the warm-up
part, ``tools`` (not a chapter: its exercises are *Read* and *Run* only, on textbook models).

The page holds at least three exercises (``{exercise}``, MyST, ``sphinx-exercise``), graded by the level its title
starts with and timed by the estimate that follows it (``Read (10 min):``, ``Run (20 min):``, ``Extend (40 min):``;
every level at least once in a chapter, every title of the book with its time), and one solution for every exercise, gated
(``{solution-start} <label>`` ... ``{solution-end}``) so that the solution's code cells run when the book is built,
folded (``:class: dropdown``), after its exercise.  Labels are ``<chapter>-ex-<what>`` and unique in the book.  The
page is the chapter's last in ``_toc.yml`` and has its own quick and full values in the chapter's
``profiles.yaml``.  (The notebook rules of every page -- a ``parameters`` cell, a ``profile`` parameter, no
plumbing in visible cells -- are those of ``tests/test_notebooks.py`` and ``tests/test_notebook_cells.py``.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from models import CHAPTERS, pipeline
from models.core.paths import ROOT

LEVELS = ("Read", "Run", "Extend")
#: A title: its level, its estimated time in minutes, then what it is about.
TITLE = re.compile(r"^(?P<level>\w+) \((?P<minutes>\d+) min\): \S")
#: The parts with an exercises page: the chapters, then the warm-up part, which reproduces no paper (no *Extend*:
#: its exercises stay on the textbook models; ``tests/test_contract.py`` says why it is not a chapter).
WARM_UP = "tools"
PARTS = (*CHAPTERS, WARM_UP)
#: ```{exercise} Title  (three or more backticks or colons) then its options.
EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)",
                      re.M)
SOLUTION_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}[ \t]*(?P<label>\S+)[ \t]*\n(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)",
                            re.M)
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}", re.M)
#: Directives that would number or hide an exercise outside the gated form (not used).
UNGATED = re.compile(r"^(`{3,}|:{3,})\{(solution|exercise-start|exercise-end)\}", re.M)


def exercises_notebook(chapter: str) -> Path:
    found = sorted((ROOT / "notebooks" / chapter).glob("[0-9][0-9]-exercises.ipynb"))
    assert len(found) == 1, f"{chapter}: expected one NN-exercises.ipynb, found {[p.name for p in found]}"
    return found[0]


def _option(options: str, name: str) -> str | None:
    m = re.search(rf"^[ \t]*:{name}:[ \t]*(.*)$", options, re.M)
    return m.group(1).strip() if m else None


def parse(nb: dict) -> dict:
    """The exercises and solutions of a notebook, in cell order.

    ``{"exercises": [(cell, label, title)], "solutions": [(start cell, end cell, label, classes, code cells)],
    "problems": [...]}``: a solution is the cells from its ``solution-start`` to the next ``solution-end``.
    """
    exercises, solutions, problems = [], [], []
    open_ = None  # (start cell, label, classes, code cells)
    for i, cell in enumerate(nb["cells"]):
        text = "".join(cell["source"]) + "\n"
        if cell["cell_type"] == "code":
            if open_ is not None:
                open_[3].append(i)
            continue
        if UNGATED.search(text):
            problems.append(f"cell {i}: use {{exercise}} and a gated {{solution-start}}/{{solution-end}}")
        for m in EXERCISE.finditer(text):
            exercises.append((i, _option(m.group("options"), "label"), m.group("title").strip()))
        events = sorted([(m.start(), "start", m) for m in SOLUTION_START.finditer(text)]
                        + [(m.start(), "end", m) for m in SOLUTION_END.finditer(text)], key=lambda e: e[0])
        for _, kind, m in events:
            if kind == "start":
                if open_ is not None:
                    problems.append(f"cell {i}: solution of {m.group('label')} starts inside that of {open_[1]}")
                open_ = (i, m.group("label"), _option(m.group("options"), "class") or "", [])
            else:
                if open_ is None:
                    problems.append(f"cell {i}: solution-end without a solution-start")
                    continue
                solutions.append((open_[0], i, open_[1], open_[2], open_[3]))
                open_ = None
    if open_ is not None:
        problems.append(f"solution of {open_[1]} (cell {open_[0]}) has no solution-end")
    return {"exercises": exercises, "solutions": solutions, "problems": problems}


def _parsed(chapter):
    return parse(json.loads(exercises_notebook(chapter).read_text()))


def test_parser_finds_what_it_should():
    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": [text]}

    def code():
        return {"cell_type": "code", "metadata": {}, "source": ["x = 1"], "outputs": [], "execution_count": None}

    nb = {"cells": [md("````{exercise} Read: a\n:label: c-ex-a\n\nWhy?\n````"),
                    md("```{solution-start} c-ex-a\n:class: dropdown\n```\nBecause."), code(),
                    md("```{solution-end}\n```"),
                    md("```{exercise} Run: b\n:label: c-ex-b\n```"), md("```{solution} c-ex-b\n```")]}
    got = parse(nb)
    assert [(e[1], e[2]) for e in got["exercises"]] == [("c-ex-a", "Read: a"), ("c-ex-b", "Run: b")]
    assert not [t for *_, t in got["exercises"] if TITLE.match(t)], "a title without its time is refused"
    assert TITLE.match("Read (10 min): a").group("level", "minutes") == ("Read", "10")
    assert not TITLE.match("Read (ten min): a") and not TITLE.match("Read (10 min):")
    assert got["solutions"] == [(1, 3, "c-ex-a", "dropdown", [2])]
    assert got["problems"] == ["cell 5: use {exercise} and a gated {solution-start}/{solution-end}"]


@pytest.mark.parametrize("chapter", PARTS)
def test_every_chapter_has_graded_exercises_with_solutions(chapter):
    got = _parsed(chapter)
    assert not got["problems"], got["problems"]
    labels = [label for _, label, _ in got["exercises"]]
    assert len(labels) >= 3, f"{chapter}: {len(labels)} exercises, at least 3 wanted"
    assert all(label and label.startswith(f"{chapter}-ex-") for label in labels), labels
    titles = [title for _, _, title in got["exercises"]]
    untimed = [t for t in titles if not TITLE.match(t)]
    assert not untimed, f"{chapter}: a title is '<level> (<minutes> min): <what>': {untimed}"
    levels = [TITLE.match(t).group("level") for t in titles]
    assert set(levels) <= set(LEVELS), f"{chapter}: a title must start with one of {LEVELS}: {levels}"
    wanted = {"Read", "Run"} if chapter == WARM_UP else set(LEVELS)
    assert set(levels) >= wanted, f"{chapter}: every level of {sorted(wanted)} at least once; found {sorted(set(levels))}"
    solved = [label for *_, label, _, _ in got["solutions"]]
    assert sorted(solved) == sorted(labels), f"{chapter}: one solution per exercise (exercises {labels}, solutions {solved})"
    where = {label: cell for cell, label, _ in got["exercises"]}
    for start, end, label, classes, code_cells in got["solutions"]:
        assert start > where[label], f"{label}: the solution comes before its exercise"
        assert "dropdown" in classes.split(), f"{label}: a solution is folded (:class: dropdown)"
        assert code_cells, f"{label}: a solution runs something (a code cell between start and end)"


def test_exercise_labels_are_unique_in_the_book():
    labels = [label for ch in PARTS for _, label, _ in _parsed(ch)["exercises"]]
    assert len(labels) == len(set(labels)), labels


def test_every_exercise_of_the_book_has_an_estimated_time():
    """Every exercises page of ``notebooks/`` (whatever part it belongs to), every title timed, in minutes a
    reader needs (at least 5, at most 2 hours: a longer task is a project, not an exercise)."""
    pages = sorted((ROOT / "notebooks").glob("*/[0-9][0-9]-exercises.ipynb"))
    assert {p.parent.name for p in pages} == set(PARTS), "an exercises page outside the parts this test knows"
    bad = []
    for page in pages:
        for _, label, title in parse(json.loads(page.read_text()))["exercises"]:
            m = TITLE.match(title)
            if not m or not 5 <= int(m.group("minutes")) <= 120:
                bad.append(f"{page.relative_to(ROOT)}: {label}: {title!r}")
    assert not bad, "an exercise without an estimated time '(N min)' after its level:\n" + "\n".join(bad)


@pytest.mark.parametrize("chapter", PARTS)
def test_exercises_are_the_chapters_last_page_and_have_profiles(chapter):
    path = exercises_notebook(chapter)
    pages = [p for p in pipeline.toc_pages() if p.startswith(f"book/{chapter}/") and p != f"book/{chapter}/index"]
    assert pages[-1] == f"book/{chapter}/{path.stem}", pages
    numbers = sorted(int(p.name[:2]) for p in path.parent.glob("[0-9][0-9]-*.ipynb"))
    assert int(path.name[:2]) == numbers[-1] == len(numbers), "NN = the next number after the chapter's pages"
    profiles = yaml.safe_load((path.parent / "profiles.yaml").read_text())
    declared = pipeline.notebook_defaults(path)
    assert "profile" in declared
    for name in ("quick", "full"):
        assert path.stem in (profiles.get(name) or {}), f"{chapter}: {path.stem} has no {name} values"
    assert pipeline.resolve_parameters(chapter, path.stem, path, "quick")["profile"] == "quick"


def test_sphinx_exercise_is_configured_and_pinned():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert "sphinx_exercise" in config["sphinx"]["extra_extensions"]
    pins = dict(line.split("==") for line in (ROOT / "requirements.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert "sphinx-exercise" in pins
