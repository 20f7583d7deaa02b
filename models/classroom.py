"""What the book gives a class: a notebook students can run, the line that re-runs a page, the exercises' commands.

The book shows each notebook as the pipeline executed it: with its outputs, at the scale of the profile the book
was built with (the papers' scale for ``make book``), and with papermill's hidden ``injected-parameters`` cell right
after the ``parameters`` cell, so that a reader who edits the parameters and runs every cell has the edits set back
by that cell.  A student needs something else:

* :func:`student_notebook` -- the *source* notebook (``notebooks/<chapter>/NN-name.ipynb``) with the values of a
  profile (``quick`` by default, the one that runs in seconds to minutes) written into its ``parameters`` cell in
  place, as the pipeline resolves them (:func:`models.pipeline.resolve_parameters`: the same layers, so the
  download runs exactly what ``python -m models.pipeline NOTEBOOK --profile quick`` runs), with no injected cell,
  no outputs and no execution counts.  Each changed value keeps its comment and says the book's default
  (``[full: 100000]``), and a comment at the top of the cell says where the values come from.
* The notebook to run is the **student edition** of its page by default (:data:`EDITIONS`): on an exercises page
  every solution is left out (:func:`without_solutions`: the cells from each ``{solution-start}`` to its
  ``{solution-end}``, both included, and the text of a cell outside them kept), and so is every ``remove-cell``
  code cell with an ``assert`` after a solution (the book's check of the numbers a solution states: it would
  give the answer away, and fail without the solution's variables).  The ``full`` edition keeps them (an
  instructor's copy); the book itself always executes every solution.
* :func:`write_student_notebook` writes it (atomically); the book's Sphinx extension
  (``book/_ext/compendium.py``) writes one beside every notebook page of the HTML build and links it from the
  page, ``python -m models.classroom`` writes them for ``make lab``.
* :func:`pipeline_command` -- the command line that re-runs a page into a scratch folder.
* :func:`run` -- a ``python -m models.<chapter> curve ...`` line, as a student types it, run with this
  interpreter; its CSV comes back as a table.  The exercises' solutions call it, so the line a solution shows is
  the line that ran when the book was built.

``python -m models.classroom [NOTEBOOK|CHAPTER ...] [--out runs/notebooks] [--profile quick] [--edition student]
[--force]`` writes the student copies (every notebook of ``_toc.yml`` by default) into
``<out>/<chapter>/NN-name.ipynb``; a copy that is already there is left alone (it may hold a student's work) unless
``--force``.  ``--out`` is checked before any copy
is written (:func:`check_out`): never the repository or its sources (``notebooks/``, ``models/``, ``book/``, a
chapter folder linked into them included), always a folder this user can write; a fault is one line
``error: --out: ...``, status 2.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from .core.cache import atomic_write_text
from .core.paths import NOTEBOOKS, ROOT, safe_destination, writable_folder
from .pipeline import PROFILES, notebook_sources, read_notebook, resolve_parameters, strip_outputs

#: The tag of papermill's injected cell (never in a student notebook).
INJECTED = "injected-parameters"
#: The folder ``make lab`` opens (the README's scratch folder, git-ignored).
LAB_DIR = "runs/notebooks"
#: The editions of a notebook to run: ``student`` (no solutions, no checks that give them away; the default) and
#: ``full`` (every cell of the source, for an instructor).
EDITIONS = ("student", "full")

#: The note a student edition puts after the title of a page whose solutions it left out.
STUDENT_NOTE = ("*This notebook leaves the solutions out, and the checks of them: write and run your own answer "
                "under each exercise.  The book's full edition folds a solution under each exercise.*")

#: The opening line of a solution, gated (``{solution-start} label``) or whole (``{solution}``), and of the gate's end.
_SOLUTION_START = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<kind>solution-start|solution)\}[^\n]*$", re.M)
_SOLUTION_END = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution-end\}[^\n]*$", re.M)


def _closing(text: str, fence: str, start: int) -> int:
    """The end of the line that closes the directive opened with ``fence`` (searched from ``start``), or the text's
    end when none does."""
    m = re.compile(rf"^{re.escape(fence)}[ \t]*$", re.M).search(text, start)
    return m.end() if m else len(text)


def _split_solutions(text: str, inside: bool) -> tuple[str, bool]:
    """The text of a markdown cell outside every solution, and whether a gated solution is still open at its end
    (``inside``: one was open at its start)."""
    kept, pos = [], 0
    while pos <= len(text):
        if inside:
            end = _SOLUTION_END.search(text, pos)
            if end is None:
                break
            pos, inside = _closing(text, end["fence"], end.end() + 1), False
            continue
        start = _SOLUTION_START.search(text, pos)
        if start is None:
            kept.append(text[pos:])
            break
        kept.append(text[pos:start.start()])
        if start["kind"] == "solution":  # a whole {solution} directive: up to its closing fence
            pos = _closing(text, start["fence"], start.end() + 1)
        else:
            pos, inside = start.end(), True
    return "".join(kept), inside


def _has_assert(source: str) -> bool:
    try:
        return any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(source)))
    except SyntaxError:  # IPython magics: a plain look at the lines
        return bool(re.search(r"^\s*assert\b", source, re.M))


def without_solutions(cells: list[dict]) -> tuple[list[dict], int]:
    """``cells`` of the student edition: no solution, no check that gives one away; ``(cells, solutions left out)``.

    A solution is the cells from a ``{solution-start}`` to its ``{solution-end}``, both included (sphinx-exercise's
    gated form), or a whole ``{solution}`` directive; a markdown cell's text before the start or after the end is
    kept (a cell left blank goes).  A ``remove-cell`` code cell holding an ``assert`` after a solution's start goes
    too: it is the book's check of what the solution says.
    """
    out, inside, count = [], False, 0
    for cell in cells:
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"])
            count += len(_SOLUTION_START.findall(text))
            kept, inside_after = _split_solutions(text, inside)
            if kept != text:
                if not kept.strip():
                    inside = inside_after
                    continue
                cell = {**cell, "source": kept.strip("\n").splitlines(keepends=True)}
            inside = inside_after
            out.append(cell)
        elif inside:
            continue
        elif (count and cell["cell_type"] == "code" and "remove-cell" in cell.get("metadata", {}).get("tags", [])
              and _has_assert("".join(cell["source"]))):
            continue
        else:
            out.append(cell)
    return out, count


def literal(value: Any) -> str:
    """``value`` as Python source in the notebooks' style (double-quoted strings, lists as written)."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _offsets(text: str) -> list[int]:
    """Character offset of the start of each line of ``text`` (1-based line numbers index ``[line - 1]``)."""
    starts, pos = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    starts.append(pos)
    return starts


def _chars(line: str, byte_offset: int) -> int:
    """The character offset of ``ast``'s UTF-8 ``byte_offset`` in ``line``."""
    return len(line.encode()[:byte_offset].decode())


def set_parameters(source: str, values: dict[str, Any], notes: dict[str, Any] | None = None) -> str:
    """The ``parameters`` cell ``source`` with the assignments of the names in ``values`` set to those values.

    Only the value's text changes: the name, its annotation and its comment stay, and the comment's column is
    kept where the new value leaves room.  The comment of a changed value whose name is in ``notes`` ends with
    ``[full: <notes[name]>]`` (the value the book's full profile runs).  A name of ``values`` that the cell does
    not assign is a ``ValueError``.
    """
    notes = notes or {}
    tree = ast.parse(source)
    starts = _offsets(source)
    lines = source.splitlines(keepends=True)
    edits = []  # (start, end, new text, old text)
    seen = set()
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
        if not isinstance(target, ast.Name) or target.id not in values or node.value is None:
            continue
        seen.add(target.id)
        new = literal(values[target.id])
        if ast.literal_eval(node.value) == values[target.id]:
            continue
        v = node.value
        start = starts[v.lineno - 1] + _chars(lines[v.lineno - 1], v.col_offset)
        end = starts[v.end_lineno - 1] + _chars(lines[v.end_lineno - 1], v.end_col_offset)
        edits.append((start, end, new, ast.get_source_segment(source, v), target.id))
    missing = set(values) - seen
    if missing:
        raise ValueError(f"the parameters cell does not assign {', '.join(sorted(missing))}")
    out = source
    for start, end, new, old, name in sorted(edits, reverse=True):
        line_end = out.find("\n", end)
        line_end = len(out) if line_end < 0 else line_end
        rest = out[end:line_end]
        hash_at = rest.find("#")
        if hash_at >= 0:
            pad = rest[:hash_at]
            comment = rest[hash_at:].rstrip()
            if not pad.strip():  # keep the comment's column where the new value leaves room
                pad = " " * max(2, len(pad) + len(old) - len(new))
            if name in notes:
                comment += f" [full: {literal(notes[name])}]"
            rest = pad + comment
        elif name in notes:
            rest = rest.rstrip() + f"  # [full: {literal(notes[name])}]"
        out = out[:start] + new + rest + out[line_end:]
    return out


def student_notebook(source: Path, profile: str = "quick", overrides: dict[str, str] | None = None,
                     edition: str = "student") -> dict:
    """The notebook ``source`` (``notebooks/<chapter>/NN-name.ipynb``) for a student to run: the ``profile``'s
    values in its ``parameters`` cell, no injected cell, no outputs, no execution counts, and in the ``student``
    ``edition`` no solutions (:func:`without_solutions`; module docstring)."""
    if edition not in EDITIONS:
        raise ValueError(f"edition: {edition!r}; expected one of {', '.join(EDITIONS)}")
    source = Path(source)
    chapter, name = source.parent.name, source.stem
    values = resolve_parameters(chapter, name, source, profile, overrides)
    nb = strip_outputs(read_notebook(source))
    nb["cells"] = [c for c in nb["cells"] if INJECTED not in c.get("metadata", {}).get("tags", [])]
    if edition == "student":
        nb["cells"], solutions = without_solutions(nb["cells"])
        if solutions:  # after the page's title cell
            at = next((i + 1 for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"), 0)
            nb["cells"].insert(at, {"cell_type": "markdown", "metadata": {"tags": ["student-edition"]},
                                    "source": [STUDENT_NOTE]})
    cells = [c for c in nb["cells"] if c["cell_type"] == "code" and "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{source}: expected one cell tagged 'parameters', found {len(cells)}")
    cell = cells[0]
    full = resolve_parameters(chapter, name, source, "full") if profile != "full" else {}
    notes = {k: v for k, v in full.items() if k != "profile" and v != values[k]}
    text = set_parameters("".join(cell["source"]), values, notes)
    head = (f"# Values of the {profile!r} profile, as `python -m models.pipeline {_rel(source)} --profile {profile}` "
            "runs this notebook.\n"
            "# Edit them and run all cells; [full: ...] is the value at the papers' scale (profile full).\n")
    cell["source"] = (head + text).splitlines(keepends=True)
    nb.setdefault("metadata", {})["models_student"] = {"source": _rel(source), "profile": profile, "edition": edition}
    return nb


def write_student_notebook(source: Path, dest: Path, profile: str = "quick", edition: str = "student") -> Path:
    """Write :func:`student_notebook` of ``source`` to ``dest`` (atomically, the umask's mode); ``dest``."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(dest, json.dumps(student_notebook(source, profile, edition=edition), indent=1,
                                       ensure_ascii=False) + "\n")
    return dest


def _rel(path: Path) -> str:
    path = Path(path).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def pipeline_command(source: Path, profile: str = "quick", out: str = "runs/") -> str:
    """The line, run from the repository's root, that re-runs the page of ``source`` into ``out``."""
    return f".venv/bin/python -m models.pipeline {_rel(source)} --profile {profile} --out {out}"


def run(command: str, timeout: float = 600):
    """Run ``python -m models.<chapter> curve ...`` as written (``command``, one line) and return its CSV as a
    ``pandas.DataFrame``.

    ``python`` is this interpreter, ``--out -`` is added when the line names no ``--out`` (the table comes back
    on standard output); the environment is this process's (``MODELS_CACHE_DIR``: simulated points are cached and
    shared with the book's runs).  A command that fails raises ``RuntimeError`` with its standard error.
    """
    import pandas as pd  # heavy; only the exercises need it

    words = shlex.split(command)
    if len(words) < 3 or words[0] not in ("python", "python3", ".venv/bin/python") or words[1] != "-m" \
            or not words[2].startswith("models."):
        raise ValueError(f"expected `python -m models.<chapter> ...`; got {command!r}")
    args = [sys.executable, *words[1:]]
    if "--out" not in words:
        args += ["--out", "-"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{command} exited with status {proc.returncode}:\n{proc.stderr.strip()}")
    return pd.read_csv(io.StringIO(proc.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.classroom",
                                     description="Write notebooks for students to run: the profile's values in the "
                                                 "parameters cell, no injected cell, no outputs.")
    parser.add_argument("notebooks", nargs="*", help="notebooks (notebooks/<chapter>/NN-name.ipynb) or chapters; "
                                                     "default: every notebook of _toc.yml")
    parser.add_argument("--out", default=LAB_DIR, help=f"folder of the copies, <out>/<chapter>/ (default: {LAB_DIR})")
    parser.add_argument("--profile", choices=PROFILES, default="quick", help="the values written (default: quick)")
    parser.add_argument("--edition", choices=EDITIONS, default="student",
                        help="student (default): exercises without their solutions; full: every cell, for an "
                             "instructor")
    parser.add_argument("--force", action="store_true", help="overwrite copies that are already there")
    args = parser.parse_args(argv)
    sources = notebook_sources()
    if args.notebooks:
        wanted = []
        for item in args.notebooks:
            slug = Path(item).with_suffix("").as_posix().removeprefix("notebooks/")
            found = [s for s in sources if f"{s[0]}/{s[1]}" == slug or s[0] == slug]
            if not found:
                parser.error(f"no notebook or chapter {item!r} in _toc.yml")
            wanted += found
        sources = list(dict.fromkeys(wanted))
    out = Path(args.out)
    try:
        check_out(out, [chapter for chapter, _, _ in sources])
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    written = kept = 0
    for chapter, name, source in sources:
        dest = out / chapter / f"{name}.ipynb"
        if dest.exists() and not args.force:
            kept += 1
            continue
        try:
            write_student_notebook(source, dest, args.profile, args.edition)
        except OSError as exc:  # a folder in the copy's place, a disk that filled up meanwhile
            print(f"error: --out: cannot write {dest}: {exc.strerror or exc}"
                  f" ({written} notebook(s) written before it)", file=sys.stderr)
            return 2
        written += 1
    print(f"{written} notebook(s) written to {out}/ (profile {args.profile}, {args.edition} edition)"
          + (f", {kept} already there and left as they were (--force overwrites them)" if kept else ""))
    return 0


def check_out(out: Path, chapters: list[str]) -> None:
    """``--out`` for the copies, checked before any is written; ``ValueError`` naming ``--out`` otherwise.

    ``out`` and each ``<out>/<chapter>`` (a symbolic link followed) may not be the repository or its sources
    (:func:`models.core.paths.safe_destination`: ``--out notebooks --force`` rewrote a source notebook, review C9),
    and ``out`` and each chapter folder must be folders this user can write into
    (:func:`models.core.paths.writable_folder`: a file in their place, a read-only file system or an immutable
    folder were tracebacks, review C5-C7).
    """
    chapters = list(dict.fromkeys(chapters))
    safe_destination(out, "--out", subfolders=chapters)
    for folder in (out, *(out / chapter for chapter in chapters)):
        writable_folder(folder, "--out")


if __name__ == "__main__":
    sys.exit(main())
