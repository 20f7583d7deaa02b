"""How to cite the book and each chapter, generated from ``CITATION.cff`` and ``references.bib``.

:func:`write_cite_page` writes ``book/_generated/cite.md``, which the page
``book/cite.md`` includes: a formatted reference and a BibTeX entry for the
compendium (title, authors, version, release date, commit) and one for each
chapter (the chapter's title as it stands at the top of ``book/<slug>/index.md``,
as a part of the compendium), with the original paper each chapter
reproduces, and one BibTeX block with the five papers' own entries, read from
the book's ``references.bib`` (:func:`paper_entries`: the entry whose title is
the paper's in ``CITATION.cff``), never copied by hand.  The pipeline calls it
with every build, so the page always names the version and commit of the book
the reader holds.

The entries compile with classic BibTeX and biblatex: LaTeX's specials
escaped (:func:`latex_escape`), every word of a title with a capital that is
not the title's first letter in braces (:func:`protect_capitals`: ``{Duato-Nbc}``,
``x-Folded {TM}``), so a style that sets titles in sentence case keeps them,
and keys (:data:`BOOK_KEY`, ``interconnect_models_<slug>``) that no other
bibliography of the book uses, so the page's entries and ``references.bib``
combine (``tests/test_citation.py`` compiles a document that cites them).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from . import CHAPTERS
from .core.cache import atomic_write_text
from .core.paths import ROOT

__all__ = ["citation", "chapters", "bibtex_book", "bibtex_chapter", "write_cite_page", "latex_escape",
           "protect_capitals", "bib_entries", "paper_entries", "BOOK_KEY", "chapter_key"]

#: The compendium's BibTeX key on the cite page: not a key of ``references.bib`` (whose ``interconnect_models`` is
#: the book's own entry for its pages), so the two combine in one document.
BOOK_KEY = "interconnect_models_compendium"


def chapter_key(slug: str) -> str:
    """A chapter's BibTeX key on the cite page (``interconnect_models_torus_dor``)."""
    return f"interconnect_models_{slug}"

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


def protect_capitals(text: str) -> str:
    """``text`` (a BibTeX title, already escaped) with every word that holds a capital letter in braces, except
    a first word whose only capital is its first letter (and a word already in braces): a style that sets
    titles in sentence case (``plain``, IEEEtran, ACM's) keeps ``{Duato-Nbc}``, ``{x-Folded} {TM}``, ``{MVA}``
    and ``{2-D}`` as they are written."""
    words = str(text).split(" ")
    out = []
    for i, word in enumerate(words):
        caps = [j for j, ch in enumerate(word) if ch.isupper()]
        if caps and not (i == 0 and caps == [0]) and not (word.startswith("{") and word.endswith("}")):
            word = ("{{}" if word.startswith("\\") else "{") + word + "}"  # "{\" would open a special character
        out.append(word)
    return " ".join(out)


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
    fields = {"title": protect_capitals(latex_escape(data["title"])), "author": _authors(data, bibtex=True),
              "year": year}
    if kind == "software":
        fields.update(version=version, date=str(data["date-released"]), note=f"commit {commit}",
                      license=latex_escape(data.get("license", "")))
    else:
        fields.update(howpublished=f"Executable research compendium, version {version}",
                      note=f"Released {data['date-released']}, commit {commit}")
    return _bib(kind, BOOK_KEY, fields)


def bibtex_chapter(data: dict, slug: str, title: str, commit: str) -> str:
    """A chapter as a BibTeX ``@incollection`` entry (a part of the compendium; valid for classic BibTeX and
    biblatex): the chapter's title, not its slug, every printed field escaped for LaTeX."""
    year = str(data["date-released"])[:4]
    return _bib("incollection", chapter_key(slug), {
        "title": protect_capitals(latex_escape(title)), "booktitle": protect_capitals(latex_escape(data["title"])),
        "author": _authors(data, bibtex=True),
        "publisher": latex_escape(_authors(data)), "year": year,
        "note": f"Version {latex_escape(data['version'])}, commit {commit}",
    })


def _closing(text: str, start: int) -> int:
    """The index of the brace that closes the one at ``text[start]``."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise ValueError(f"unbalanced braces in a BibTeX entry from {text[start:start + 40]!r}")


def bib_entries(text: str) -> dict[str, dict]:
    """The entries of a BibTeX file's ``text``: key -> ``{"type", "text" (the entry verbatim), "title"}``."""
    out = {}
    for m in re.finditer(r"^@(\w+)\s*\{\s*([^,\s]+)\s*,", text, flags=re.M):
        end = _closing(text, text.index("{", m.start()))
        raw = text[m.start():end + 1]
        title = ""
        t = re.search(r"\btitle\s*=\s*\{", raw)
        if t:
            title = raw[t.end():_closing(raw, t.end() - 1)]
        if m.group(2) in out:
            raise ValueError(f"the BibTeX key {m.group(2)!r} is used twice")
        out[m.group(2)] = {"type": m.group(1).lower(), "text": raw, "title": title}
    return out


def _plain_title(title: str) -> str:
    """A title compared across files: no braces, dashes or case; spaces collapsed."""
    return " ".join(re.sub(r"[{}]", "", title).replace("--", "-").lower().split())


def paper_entries(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """``(slug, key, entry)`` of each chapter's paper, in the book's order: the entry of ``references.bib``
    whose title is that of the chapter's reference in ``CITATION.cff``, verbatim (a ``ValueError`` if
    ``references.bib`` has none)."""
    data = citation(root)
    refs = data.get("references") or []
    entries = bib_entries((root / "references.bib").read_text())
    by_title = {_plain_title(e["title"]): key for key, e in entries.items()}
    out = []
    for slug, _ in chapters(root):
        i = PAPER_OF.get(slug)
        if i is None or i >= len(refs):
            continue
        key = by_title.get(_plain_title(refs[i]["title"]))
        if key is None:
            raise ValueError(f"references.bib has no entry titled {refs[i]['title']!r} (the paper of {slug} in "
                             "CITATION.cff)")
        out.append((slug, key, entries[key]["text"]))
    return out


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
        "Cite a chapter as a part of the compendium, together with the paper it reproduces (its BibTeX entry is "
        "under *The papers* below).", "",
    ]
    papers = {slug: key for slug, key, _ in paper_entries(root)}
    for slug, title in chapters(root):
        lines += [
            f"### {title}", "",
            f"{authors} ({str(data['date-released'])[:4]}). \"{title}\". In *{data['title']}*, "
            f"version {data['version']} (commit `{commit}`), chapter `{slug}`.", "",
        ]
        paper = _paper(data, slug)
        if paper:
            key = f" (BibTeX key `{papers[slug]}`)" if slug in papers else ""
            lines += [f"Reproduces: {paper}{key}", ""]
        lines += ["```bibtex", bibtex_chapter(data, slug, title, commit), "```", ""]
    entries = paper_entries(root)
    if entries:
        lines += [
            "## The papers", "",
            "The papers the chapters reproduce, as the book's bibliography (`references.bib`) has them, with the "
            "same keys (take them from here or from `references.bib`, not from both):", "",
            "```bibtex", "\n\n".join(text for _, _, text in entries), "```", "",
        ]
    return atomic_write_text(book_dir / "_generated" / "cite.md", "\n".join(lines))
