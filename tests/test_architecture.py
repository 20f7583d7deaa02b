"""The package's floors (DESIGN.md): imports only go down, never in a circle.

Floors, top down: ``findings`` (the papers side by side) -> chapters and ``tools`` (the warm-up part, a floor-0
unit that is no chapter: no chapter imports it) -> ``sim``, ``classroom`` ->
``networks``, ``queueing``, ``traffic``, ``pipeline`` -> ``citation``, ``book`` -> ``core``.  No chapter imports another; ``sim`` imports no
chapter; ``networks``, ``queueing``, ``traffic`` and ``core`` import neither
``sim`` nor a chapter; ``core`` imports nothing of ``models`` above it.  The
import graph is read from the source (every ``import``, function-local ones
included), so a lazy import cannot hide an arrow.

Run ``python tests/test_architecture.py`` to print the graph of sub-packages.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import models

MODELS = Path(__file__).resolve().parents[1] / "models"
#: The chapters, and the template chapter the scaffold copies (a chapter in all but its page in the book).
CHAPTERS = set(models.CHAPTERS) | {"chapter_template"}
FLOOR = {"findings": -1, "tools": 0, "sim": 1, "classroom": 1, "networks": 2, "queueing": 2, "traffic": 2, "pipeline": 2, "new_chapter": 2,
         "citation": 3, "book": 3, "core": 4}


def _module_name(path: Path) -> str:
    rel = path.relative_to(MODELS.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports() -> list[tuple[str, str, int, bool]]:
    """``(importer module, imported models.* module, line, function-local)`` for every import in ``models/``."""
    out = []
    for path in sorted(MODELS.rglob("*.py")):
        mod = _module_name(path)
        pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text())
        local = set()
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")
                    base = base[: len(base) - node.level + 1]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                targets = [stem] if node.module else [f"{stem}.{a.name}" for a in node.names]
            for t in targets:
                if t == "models" or t.startswith("models."):
                    out.append((mod, t, node.lineno, id(node) in local))
    return out


def unit(module: str) -> str:
    """The sub-package a module belongs to (``models.sim.wormhole.kernel`` -> ``sim``); a name defined in
    ``models/__init__.py`` (``models.CHAPTERS``) belongs to ``models``."""
    parts = module.split(".")
    if len(parts) < 2 or not ((MODELS / parts[1]).is_dir() or (MODELS / f"{parts[1]}.py").is_file()):
        return "models"
    return parts[1]


def floor(u: str) -> int:
    return 0 if u in CHAPTERS else FLOOR.get(u, -1)


def test_every_subpackage_has_a_floor():
    units = {unit(m) for m, *_ in imports()}
    assert units - {"models"} <= CHAPTERS | set(FLOOR), units


def test_imports_only_go_down():
    bad = []
    for src, dst, line, _ in imports():
        a, b = unit(src), unit(dst)
        if a == b or b == "models":
            continue
        if a in CHAPTERS and b in CHAPTERS:
            bad.append(f"{src}:{line} imports another chapter, {dst}")
        elif floor(b) <= floor(a):
            bad.append(f"{src}:{line} imports {dst} (floor {floor(b)} from floor {floor(a)})")
    assert not bad, "\n".join(bad)


def test_no_import_cycle_between_modules():
    graph = defaultdict(set)
    names = {_module_name(p) for p in MODELS.rglob("*.py")}
    for src, dst, *_ in imports():
        while dst not in names and "." in dst:  # `from pkg import name` -> pkg
            dst = dst.rsplit(".", 1)[0]
        if dst != src and dst in names and not src.startswith(dst + ".") and not dst == "models":
            graph[src].add(dst)
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in graph[n]:
            if state.get(m) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            if m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in list(graph):
        if n not in state:
            visit(n)


def local_import_statements() -> dict:
    """``{(module, line): source line}`` of every function-local import statement of ``models.*``."""
    out = {}
    for src, _, line, is_local in imports():
        if is_local and (src, line) not in out:
            rel = Path(*src.split(".")[1:])
            path = MODELS / (f"{rel}.py" if (MODELS / f"{rel}.py").is_file() else rel / "__init__.py")
            out[src, line] = path.read_text().splitlines()[line - 1]
    return out


def test_few_function_local_imports_of_models():
    """Few modules import another one inside a function (a hidden dependency, often a cycle dodged).

    Counted as statements (issue #23: fewer than 30).  Each one left says why on its line: most keep SymPy
    (the solvers' ``equations``), numba (the simulators) or matplotlib out of a warm start or a ``--help``
    (:func:`models.core.symbolic.compiled`)."""
    local = local_import_statements()
    assert len(local) < 30, "\n".join(f"{s}:{l}" for s, l in local)
    silent = [f"{s}:{l}: {text.strip()}" for (s, l), text in local.items()
              if "#" not in text]
    assert not silent, "a function-local import without a comment saying why:\n" + "\n".join(silent)


if __name__ == "__main__":
    edges = defaultdict(set)
    for src, dst, *_ in imports():
        if unit(src) != unit(dst) and unit(dst) != "models":
            edges[unit(src)].add(unit(dst))
    for u in sorted(edges, key=lambda u: (floor(u), u)):
        print(f"{u:12s} -> {', '.join(sorted(edges[u]))}")
    print("function-local import statements of models.*:", len(local_import_statements()))
