"""Structure guards for the notebooks and the book sources (no execution)."""

import ast
import json
import re
from pathlib import Path

import pytest

from models import pipeline
from models.core.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
#: Calls that reduce or compute a value (a glued value built with one is computed in the notebook).
_REDUCTIONS = {"max", "min", "mean", "median", "sum", "idxmax", "idxmin", "nunique", "count", "abs", "all", "any",
               "len", "round", "prod", "std", "var", "item", "allclose", "isclose"}


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_source_notebook_is_clean(path):
    nb = json.loads(path.read_text())
    assert re.fullmatch(r"\d\d-[a-z0-9-]+\.ipynb", path.name), "name must be NN-kebab-name.ipynb"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") for c in code), "outputs committed"
    assert all(c.get("execution_count") is None for c in code), "execution counts committed"
    params = [c for c in code if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, "exactly one cell tagged 'parameters'"
    tree = ast.parse("".join(params[0]["source"]))
    for node in tree.body:
        assert isinstance(node, (ast.Assign, ast.AnnAssign)), "parameters cell: assignments only"
        ast.literal_eval(node.value)
    # every parameter has a comment giving meaning (and unit)
    for line in "".join(params[0]["source"]).splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert "#" in line, f"parameter without a comment: {line}"
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_glue_values_come_from_models(path):
    """A number or sentence the prose quotes is computed in ``models/`` (a tested ``glue_values``), not in the
    notebook: ``glue(key, value)`` takes a name, a constant, an attribute, a subscript by a constant, or
    ``float/int/str/bool`` of one of those -- no arithmetic, comparison, conditional, f-string, comprehension,
    method call or reduction (issue #23)."""
    def plain(node) -> bool:
        if isinstance(node, (ast.Name, ast.Constant)):
            return True
        if isinstance(node, ast.Attribute):
            return plain(node.value)
        if isinstance(node, ast.Subscript):
            return plain(node.value) and isinstance(node.slice, (ast.Constant, ast.Name))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("float", "int", "str",
                                                                                              "bool"):
            return len(node.args) == 1 and not node.keywords and plain(node.args[0])
        return False

    def computed(node) -> bool:
        """An expression that computes in the notebook: arithmetic, comparison, conditional, f-string,
        comprehension or a reduction (``.max()``, ``len(...)``, ...)."""
        for n in ast.walk(node):
            if isinstance(n, (ast.BinOp, ast.Compare, ast.IfExp, ast.BoolOp, ast.JoinedStr, ast.ListComp,
                              ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                return True
            if isinstance(n, ast.Call) and ((isinstance(n.func, ast.Attribute) and n.func.attr in _REDUCTIONS)
                                            or (isinstance(n.func, ast.Name) and n.func.id in _REDUCTIONS)):
                return True
        return False

    nb = json.loads(path.read_text())
    trees = [(i, ast.parse("".join(c["source"]))) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    assigned = {}  # a name's computed assignments anywhere in the notebook
    for i, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and computed(node.value):
                for t in node.targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            assigned.setdefault(n.id, f"cell {i}: {ast.unparse(node)[:80]}")
    bad = []
    for i, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "glue" and len(node.args) > 1:
                value = node.args[1]
                if not plain(value):
                    bad.append(f"cell {i}: {ast.unparse(node)[:100]}")
                else:
                    names = [n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in assigned]
                    bad += [f"cell {i}: {ast.unparse(node)[:60]} <- {assigned[n]}" for n in names]
    assert not bad, "glue of a value computed in the notebook (move it into a tested glue_values):\n" + "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_notebook_writes_a_claims_table_by_hand(path):
    text = path.read_text()
    assert not re.search(r"to_csv\([^)]*tab-[a-z_]+-claims\.csv", text), \
        "write the claims table with models.core.claims.save_claims"


def _parameters(path: Path) -> str:
    """The source of the notebook's cell tagged ``parameters`` ("" without one)."""
    cells = json.loads(path.read_text())["cells"]
    return next(("".join(c["source"]) for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])), "")


#: The notebooks with a ``target_ci`` parameter: each simulated point runs until its confidence interval is that
#: narrow, up to a cap.
TARGETED = [p for p in NOTEBOOKS if re.search(r"^target_ci\b", _parameters(p), re.MULTILINE)]


def test_some_pages_simulate_to_a_precision_target():
    assert TARGETED


@pytest.mark.parametrize("path", TARGETED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_page_whose_points_have_a_precision_target_states_the_precision(path):
    """A page of :data:`TARGETED` says how long its points ran and how precise they got: its Markdown quotes a
    ``<chapter>-precision-...`` sentence, computed in ``models/`` (``models.core.precision`` for open networks)."""
    nb = json.loads(path.read_text())
    prose = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert re.search(rf"\{{glue:text\}}`{path.parent.name}-precision-[a-z0-9-]+`", prose)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_is_in_the_toc(path):
    assert f"book/{path.parent.name}/{path.stem}" in pipeline.toc_pages()


def test_every_toc_page_has_a_source():
    for page in pipeline.toc_pages():
        parts = Path(page).parts
        md = ROOT / f"{page}.md"
        nb = ROOT / "notebooks" / parts[1] / f"{parts[-1]}.ipynb" if len(parts) == 3 else None
        assert md.exists() or (nb is not None and nb.exists()), f"{page}: no .md and no notebook"


def test_book_pages_have_no_code_cells():
    # execute_notebooks is "off": a {code-cell} in a .md page would render without outputs, silently.
    for md in (ROOT / "book").rglob("*.md"):
        assert "{code-cell}" not in md.read_text(), md


def test_figure_labels_are_unique_and_named_by_chapter():
    labels = []
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            name = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("name")
            if name:
                assert name.startswith(f"fig-{path.parent.name}-"), name
                labels.append(name)
                assert f'"{name}"' in "".join(cell["source"]), f"{name}: cell must savefig under its label"
    assert len(labels) == len(set(labels))


def test_chapter_profiles_name_only_declared_parameters():
    import yaml

    for path in (ROOT / "notebooks").glob("*/profiles.yaml"):
        data = yaml.safe_load(path.read_text()) or {}
        assert set(data) <= {"quick", "full"}, path
        for layers in data.values():
            for target, values in (layers or {}).items():
                if target == "*":
                    continue
                nb = path.parent / f"{target}.ipynb"
                assert nb.exists(), f"{path}: unknown notebook {target}"
                assert set(values) <= set(pipeline.notebook_defaults(nb)), f"{path}: {target}"


def test_profiles_name_only_declared_parameters():
    profiles = pipeline.load_profiles()
    assert set(profiles) == {"quick", "full"}
    declared = {f"{p.parent.name}/{p.stem}": pipeline.notebook_defaults(p) for p in NOTEBOOKS}
    for name, layers in profiles.items():
        for target, values in (layers or {}).items():
            if target == "*":
                assert any(set(values) & set(d) for d in declared.values())
                continue
            assert target in declared, f"profile {name} names unknown notebook {target}"
            assert set(values) <= set(declared[target]), f"{target}: unknown parameters in profile {name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_papermill_sees_every_parameter(path):
    # papermill's own parser (used by --help-notebook and to warn about unknown
    # parameters) must find the same names as ours; it fails on '=' in comments.
    import papermill as pm

    assert list(pm.inspect_notebook(str(path))) == list(pipeline.notebook_defaults(path))


def test_glue_roles_from_another_page_name_a_format():
    """``{glue:text}`NN.ipynb::key``` needs ``:fmt`` at the end: myst-nb splits the last ``:`` off as the
    format, so without one the key is lost and a fresh build warns (an incremental one may not)."""
    import re

    bad = []
    for page in sorted((ROOT / "book").rglob("*.md")):
        for m in re.finditer(r"\{glue:text\}`([^`]*)`", page.read_text()):
            text = m.group(1)
            if "::" in text and ":" not in text.split("::", 1)[1]:
                bad.append(f"{page.relative_to(ROOT)}: {text}")
    assert not bad, "\n".join(bad)
