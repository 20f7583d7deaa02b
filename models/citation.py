"""How to cite the book and each chapter, generated from ``CITATION.cff``.

:func:`write_cite_page` writes ``book/_generated/cite.md``, which the page
``book/cite.md`` includes: a formatted reference and a BibTeX entry for the
compendium (title, authors, version, release date, commit) and one for each
chapter (the chapter's title as it stands at the top of ``book/<slug>/index.md``,
as a part of the compendium), with the original paper each chapter
reproduces.  The pipeline calls it with every build, so the page always names
the version and commit of the book the reader holds.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from . import CHAPTERS
from .core.cache import atomic_write_text
from .core.paths import ROOT

__all__ = ["citation", "chapters", "bibtex_book", "bibtex_chapter", "write_cite_page", "latex_escape"]

#: The reference of each chapter's paper in CITATION.cff: its references are in the order of ``models.CHAPTERS``
#: (``python -m models.new_chapter`` appends a new chapter's paper to both).
PAPER_OF = {slug: i for i, slug in enumerate(CHAPTERS)}


def citation(root: Path = ROOT) -> dict:
    """``CITATION.cff`` as a dict (raises ``ValueError`` if it lacks title, version or authors)."""
    data = yaml.safe_load((root / "CITATION.cff").read_text())
    for key in ("title", "version", "authors", "date-released"):
        if not data.get(key):
            raise ValueError(f"CITATION.cff has no {key!r}")
    return data


def chapters(root: Path = ROOT) -> list[tuple[str, str]]:
    """``(slug, title)`` of every chapter with a ``book/<slug>/index.md``, in the book's order (``_toc.yml``)."""
    toc = (root / "_toc.yml").read_text()
    slugs = re.findall(r"file:\s*book/([a-z_]+)/index", toc)
    out = []
    for slug in slugs:
        first = (root / "book" / slug / "index.md").read_text().lstrip().splitlines()[0]
        out.append((slug, first.lstrip("#").strip()))
    return out


#: LaTeX's special characters and what prints them inside a BibTeX field.
_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                   "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped, so that a BibTeX field prints as written."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in str(text))


def _authors(data: dict, bibtex: bool = False) -> str:
    """The authors, ``" and "``-separated; with ``bibtex``, escaped and a corporate name (``name:`` in
    CITATION.cff) in double braces, so that BibTeX does not split it into first and last names."""
    names = []
    for a in data["authors"]:
        if a.get("name"):
            names.append(f"{{{latex_escape(a['name'])}}}" if bibtex else a["name"])
        else:
            family, given = a.get("family-names", ""), a.get("given-names", "")
            if bibtex:
                family, given = latex_escape(family), latex_escape(given)
            names.append(f"{family}, {given}".strip(", "))
    return " and ".join(names)


def _bib(kind: str, key: str, fields: dict) -> str:
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items() if v)
    return f"@{kind}{{{key},\n{body}\n}}"


def bibtex_book(data: dict, commit: str, kind: str = "software") -> str:
    """The compendium as a BibTeX entry: ``@software`` (biblatex) or ``@misc`` (classic BibTeX styles, which
    do not know ``@software``); every printed field escaped for LaTeX."""
    if kind not in ("software", "misc"):
        raise ValueError(f"`kind` must be 'software' or 'misc'; got {kind!r}")
    year = str(data["date-released"])[:4]
    version = latex_escape(data["version"])
    fields = {"title": latex_escape(data["title"]), "author": _authors(data, bibtex=True), "year": year}
    if kind == "software":
        fields.update(version=version, date=str(data["date-released"]), note=f"commit {commit}",
                      license=latex_escape(data.get("license", "")))
    else:
        fields.update(howpublished=f"Executable research compendium, version {version}",
                      note=f"Released {data['date-released']}, commit {commit}")
    return _bib(kind, "interconnect_models", fields)


def bibtex_chapter(data: dict, slug: str, title: str, commit: str) -> str:
    """A chapter as a BibTeX ``@incollection`` entry (a part of the compendium; valid for classic BibTeX and
    biblatex): the chapter's title, not its slug, every printed field escaped for LaTeX."""
    year = str(data["date-released"])[:4]
    return _bib("incollection", f"interconnect_models_{slug}", {
        "title": latex_escape(title), "booktitle": latex_escape(data["title"]), "author": _authors(data, bibtex=True),
        "publisher": latex_escape(_authors(data)), "year": year,
        "note": f"Version {latex_escape(data['version'])}, commit {commit}",
    })


def _paper(data: dict, slug: str) -> str:
    refs = data.get("references") or []
    i = PAPER_OF.get(slug)
    if i is None or i >= len(refs):
        return ""
    r = refs[i]
    names = ", ".join(a.get("family-names", a.get("name", "")) for a in r.get("authors", []))
    venue = r.get("collection-title") or r.get("journal") or ""
    doi = f", doi:{r['doi']}" if r.get("doi") else ""
    return f"{names}, *{r['title']}*, {venue}, {r.get('year', '')}{doi}."


def write_cite_page(book_dir: Path, commit: str, root: Path = ROOT) -> Path:
    """Write ``<book_dir>/_generated/cite.md`` (atomically) and return its path."""
    data = citation(root)
    authors = _authors(data).replace(" and ", ", ")
    lines = [
        f"This is version **{data['version']}** of the compendium, released {data['date-released']}, "
        f"built from commit `{commit}`.", "",
        "## The compendium", "",
        f"{authors} ({str(data['date-released'])[:4]}). *{data['title']}*, version {data['version']} "
        f"(commit `{commit}`).", "",
        "```bibtex", bibtex_book(data, commit), "```", "",
        "For a bibliography style that does not know `@software` (classic BibTeX), the same as `@misc`:", "",
        "```bibtex", bibtex_book(data, commit, kind="misc"), "```", "",
        "## A chapter", "",
        "Cite a chapter as a part of the compendium, together with the paper it reproduces.", "",
    ]
    for slug, title in chapters(root):
        lines += [
            f"### {title}", "",
            f"{authors} ({str(data['date-released'])[:4]}). \"{title}\". In *{data['title']}*, "
            f"version {data['version']} (commit `{commit}`), chapter `{slug}`.", "",
        ]
        paper = _paper(data, slug)
        if paper:
            lines += [f"Reproduces: {paper}", ""]
        lines += ["```bibtex", bibtex_chapter(data, slug, title, commit), "```", ""]
    return atomic_write_text(book_dir / "_generated" / "cite.md", "\n".join(lines))
