"""``python -m models.new_chapter SLUG --paper "..."``: the skeleton of a sixth chapter, in one command.

Copies the template chapter, :mod:`models.chapter_template` -- a working
package with the rooms of every chapter and a trivial **placeholder model**
clearly marked as such (one FIFO channel: Poisson messages of ``M`` flits,
one flit per cycle -- an M/D/1 queue, which the placeholder simulator,
:func:`models.sim.mmpp_g1.simulate_mmpp_g1`, matches exactly) -- under the new
slug.  The template is real code, read by the same linters, tests and
duplicate finder as the chapters; the scaffold only renames it
(``chapter_template`` -> ``SLUG``, ``ChapterTemplate`` -> ``Slug``) and
writes the paper's title through serialisers (a Python literal, JSON in
YAML, escaped BibTeX, escaped Markdown), never pasted.  Replace the
placeholder with the paper's model and simulator; the contract,
architecture, command-line and notebook tests then check the chapter as they
check the other five.

New files::

    models/SLUG/__init__.py      the front door (LOAD, LOAD_UNIT, EXAMPLE, solve, solve_curve, saturation_load)
    models/SLUG/equations.py     SymPy equations keyed "eq:N"
    models/SLUG/solve.py         the numerics (lambdified through core.symbolic.compiled)
    models/SLUG/setups.py        SETUPS, SETTINGS, RUN, the parameters value Params, curve() (light)
    models/SLUG/experiments.py   FIGURES, sim_kwargs, simulate_curve, sim_saturation, run_figure, tables
    models/SLUG/claims.py        CLAIMS, claims_table
    models/SLUG/glue.py          glue_values
    models/SLUG/plots.py         the figures
    models/SLUG/compare.py       compare(...): the model against the simulation in one call
    models/SLUG/__main__.py      python -m models.SLUG curve|saturation (built on compare)
    notebooks/SLUG/01-model.ipynb  the chapter's notebook (a `parameters` cell)
    notebooks/SLUG/profiles.yaml   the chapter's quick profile
    book/SLUG/index.md           the chapter's first page
    tests/SLUG/test_model.py     unit tests of the placeholder (replace with the paper's checks)

Edited files: ``models/__init__.py`` (``CHAPTERS``, which every test that
loops over chapters and the findings chapter read), ``_toc.yml`` (a part for
the chapter), ``CITATION.cff`` (the paper, a reference in chapter order) and
``references.bib`` (the paper's BibTeX key ``SLUG``).  Nothing is
overwritten: an existing file or chapter stops the command before it writes
anything.  Still by hand: the chapter's exercises page (DESIGN.md,
"Teaching") and its row in ``book/intro.md``.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from pathlib import Path

from .citation import latex_escape
from .core.paths import ROOT

__all__ = ["scaffold", "main"]

_SLUG = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
#: Longest slug: it names a package, folders, a BibTeX key and labels (``fig-<slug>-...``).
MAX_SLUG = 32
#: The template chapter the scaffold copies: its package, its slug and its class-name stem.
TEMPLATE = Path(__file__).resolve().parent / "chapter_template"
TEMPLATE_SLUG, TEMPLATE_CAMEL = "chapter_template", "ChapterTemplate"
#: The template's files and where each goes in the new chapter ({slug}).
FILES = {**{f"{name}.py": f"models/{{slug}}/{name}.py" for name in (
    "__init__", "equations", "solve", "setups", "experiments", "claims", "glue", "plots", "compare", "__main__")},
    "files/01-model.ipynb": "notebooks/{slug}/01-model.ipynb", "files/profiles.yaml": "notebooks/{slug}/profiles.yaml",
    "files/index.md": "book/{slug}/index.md", "files/test_model.py": "tests/{slug}/test_model.py"}


# ----------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------
def check_slug(slug, root: Path = ROOT) -> str:
    """``slug`` if it can name a new chapter, else a ``ValueError`` saying why: a lower-case identifier
    (``mesh_adaptive``, the whole string), at most :data:`MAX_SLUG` characters, not a Python keyword, not a
    name already in ``models`` (a chapter, a sub-package, a module)."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        raise ValueError(f"`slug` must be a lower-case identifier like 'mesh_adaptive'; got {slug!r}")
    if len(slug) > MAX_SLUG:
        raise ValueError(f"`slug` must have at most {MAX_SLUG} characters; got {len(slug)}")
    if keyword.iskeyword(slug) or keyword.issoftkeyword(slug):
        raise ValueError(f"`slug` must not be a Python keyword; got {slug!r}")
    models = Path(root) / "models"
    if slug == TEMPLATE_SLUG or (models / slug).exists() or (models / f"{slug}.py").exists():
        raise ValueError(f"`slug` {slug!r} is already a name in models/: choose another")
    return slug


def _one_line(name: str, text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"`{name}` must be a non-empty title; got {text!r}")
    if any(ord(ch) < 32 or ch in "\u2028\u2029\x7f" for ch in text):
        raise ValueError(f"`{name}` must be one line, without control characters; got {text!r}")
    return text.strip()


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown (MyST): every character Markdown or MyST could read as markup escaped."""
    return re.sub(r"([\\`*_{}\[\]()<>#+!|$~^=:-])", r"\\\1", text)


def _camel(slug: str) -> str:
    return "".join(part.title() for part in slug.split("_"))


def _fill(text: str, slug: str, paper: str, title: str, name: str) -> str:
    """The template file ``name`` for the chapter ``slug``: renamed, the paper's title written by a serialiser."""
    text = text.replace(TEMPLATE_SLUG, slug).replace(TEMPLATE_CAMEL, _camel(slug))
    if name == "setups.py":
        text = text.replace('PAPER = "A placeholder paper"', f"PAPER = {paper!r}")
    if name == "__init__.py":
        start = text.index("Front door")
        text = (f'"""The {slug} chapter: a PLACEHOLDER made by ``python -m models.new_chapter`` (its paper: '
                f"``setups.PAPER``).\n\nThe model is a PLACEHOLDER (one FIFO channel, an M/D/1 queue): replace "
                "``equations.py``, ``solve.py``,\n``experiments.py`` and ``claims.py`` with the paper's.\n\n"
                + text[start:])
    if name == "files/index.md":
        text = text.replace("CHAPTER_TITLE", markdown_text(title)).replace("PAPER_TITLE",
                                                                           f"*{markdown_text(paper)}*")
    return text


def _edits(root: Path, slug: str, paper: str, title: str) -> dict:
    """``{path: new text}`` of the files the scaffold edits (read now, written only if every check passed)."""
    out = {}
    init = (root / "models" / "__init__.py").read_text()
    m = re.search(r"^CHAPTERS = \(([^)]*)\)", init, flags=re.M)
    if not m:
        raise ValueError("models/__init__.py has no `CHAPTERS = (...)` line")
    names = [s.strip().strip("\"'") for s in m.group(1).split(",") if s.strip()]
    out["models/__init__.py"] = init[:m.start()] + "CHAPTERS = (" + ", ".join(
        f'"{n}"' for n in names + [slug]) + ")" + init[m.end():]
    toc = (root / "_toc.yml").read_text()
    part = (f"  - caption: {json.dumps(title)}\n    numbered: 1\n    chapters:\n      - file: book/{slug}/index\n"
            f"        sections:\n          - file: book/{slug}/01-model\n")
    anchor = "  - caption: The papers side by side\n"
    out["_toc.yml"] = toc.replace(anchor, part + anchor) if anchor in toc else toc + part
    cff = (root / "CITATION.cff").read_text()
    ref = (f"  - type: conference-paper\n    title: {json.dumps(paper)}\n    authors:\n"
           f"      - name: \"PLACEHOLDER: the paper's authors\"\n    year: 2026\n")
    m = re.search(r"^references:\n((?:  .*\n|\n)*)", cff, flags=re.M)
    out["CITATION.cff"] = (cff[:m.end()] + ref + cff[m.end():]) if m else cff + "references:\n" + ref
    bib = (root / "references.bib").read_text()
    out["references.bib"] = bib.rstrip("\n") + (f"\n\n@misc{{{slug},\n  title = {{{latex_escape(paper)}}},\n"
                                                f"  note = {{PLACEHOLDER: the paper's full reference}},\n}}\n")
    return out


def scaffold(slug: str, paper: str, *, title: str | None = None, root: Path | str = ROOT) -> list[Path]:
    """Write a new chapter ``slug`` reproducing ``paper`` into the repository at ``root``; the files written.

    Raises ``ValueError`` (nothing written) when ``slug`` cannot name a chapter (:func:`check_slug`), when
    ``paper`` or ``title`` is not one line of text, or when any file it would create exists.
    """
    root = Path(root)
    check_slug(slug, root)
    paper = _one_line("paper", paper)
    title = _one_line("title", paper if title is None else title)
    texts = {target.format(slug=slug): _fill((TEMPLATE / name).read_text(), slug, paper, title, name)
             for name, target in FILES.items()}
    existing = [p for p in texts if (root / p).exists()] + [p for p in (f"models/{slug}", f"notebooks/{slug}")
                                                            if (root / p).exists()]
    if existing:
        raise ValueError(f"chapter {slug!r} would overwrite {sorted(set(existing))}; nothing written")
    edits = _edits(root, slug, paper, title)
    written = []
    for path, text in {**texts, **edits}.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        written.append(target)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.new_chapter", description=__doc__.split("\n\n")[0])
    parser.add_argument("slug", help="the chapter's name everywhere (models/SLUG, notebooks/SLUG, book/SLUG)")
    parser.add_argument("--paper", required=True, help="the paper's title")
    parser.add_argument("--title", help="the chapter's title (default: the paper's)")
    args = parser.parse_args(argv)
    try:
        written = scaffold(args.slug, args.paper, title=args.title)
    except ValueError as exc:
        parser.error(str(exc))
    for path in written:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    print(f"Next: replace the placeholder model in models/{args.slug}/ (equations.py, solve.py, experiments.py), "
          f"then `make test`.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
