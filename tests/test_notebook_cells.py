"""What a page shows of its code (issue #27).

Code that teaches stays visible: the symbolic derivations and the calls that compute the page's numbers (a model's
solver, an experiment runner).  Plumbing -- plotting and saving a figure, writing files, ``glue``, formatting a
table -- is tagged ``hide-input`` (its output stays, the code is one click away), and a cell that mixes both is
split, the teaching lines first; these tests check the mechanical part of that rule on every notebook.
"""

import ast
import json

import pytest

from models.core.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
#: Tags under which a cell's code is not on the page (or is the parameters cell, which is its own case).
HIDDEN = {"hide-input", "remove-input", "remove-cell", "parameters"}
#: Calls that are plumbing wherever they appear: a visible cell must not make them.
PLUMBING = {"savefig", "to_csv", "glue", "save_claims", "save_reproductions", "makedirs"}


def _name(path):
    return path.relative_to(ROOT).as_posix()


def _visible_code(nb):
    """``(index, source)`` of the code cells whose code the page shows."""
    return [(i, "".join(c["source"])) for i, c in enumerate(nb["cells"])
            if c["cell_type"] == "code" and not HIDDEN & set(c.get("metadata", {}).get("tags", []))]


def plumbing_calls(source: str) -> list[str]:
    """The plumbing calls in ``source``: ``["line 3: savefig(", ...]`` (``os.makedirs`` only on ``os``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in PLUMBING - {"to_csv", "makedirs"}:
            found.append((node.lineno, f"{f.id}("))
        elif isinstance(f, ast.Attribute) and f.attr in PLUMBING:
            if f.attr == "makedirs" and not (isinstance(f.value, ast.Name) and f.value.id == "os"):
                continue
            found.append((node.lineno, f"{'os.makedirs' if f.attr == 'makedirs' else '.' + f.attr}("))
    return [f"line {n}: {call}" for n, call in sorted(found)]


def test_plumbing_calls_are_found():
    """The checker itself can fail."""
    src = 'fig = plot(runs)\nsavefig(fig, "fig-x")\nt.to_csv("a.csv")\nos.makedirs("t")\nglue("k", v)\n' \
          'save_claims(c, "x")\nsave_reproductions(r, "x")\nglue_values(t)\nrun_figure(f, s)'
    assert plumbing_calls(src) == ["line 2: savefig(", "line 3: .to_csv(", "line 4: os.makedirs(",
                                   "line 5: glue(", "line 6: save_claims(", "line 7: save_reproductions("]
    assert plumbing_calls("res = solve(0.01, k=8)\nres") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_visible_cells_do_no_plumbing(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = [f"{_name(path)}, cell {i}: {call}" for i, src in _visible_code(nb) for call in plumbing_calls(src)]
    assert not bad, ("plumbing in a visible code cell (tag it hide-input, or split the cell: teaching lines "
                     "visible, plumbing in a following hide-input cell):\n" + "\n".join(bad))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_page_shows_how_it_computes(path):
    """At least one code cell besides the parameters stays visible.  No page is exempt: even
    ``findings/01-claims``, which runs no model, shows where its rows come from (``read_claims``) and the call that
    decides each verdict (``verdict_table``)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert _visible_code(nb), f"{_name(path)}: every code cell is hidden; keep the cell that computes visible"


def test_a_new_chapter_follows_the_rule():
    """The notebook ``python -m models.new_chapter`` writes keeps its run visible and its plumbing hidden."""
    from models import new_chapter

    nb = json.loads((new_chapter.TEMPLATE / "files" / "01-model.ipynb").read_text(encoding="utf-8"))
    visible = _visible_code(nb)
    assert visible and not [call for _, src in visible for call in plumbing_calls(src)]
