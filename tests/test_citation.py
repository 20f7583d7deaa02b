"""The citation entries compile (issue #27, item 5): valid for classic BibTeX and biblatex, parsed by pybtex,
a corporate author kept whole, the chapter's title (not its slug), no unescaped LaTeX special in a printed field."""

from __future__ import annotations

import re

import pytest
from pybtex.database import parse_string

from models import citation as cit

PRINTED = ("title", "booktitle", "author", "publisher", "note", "howpublished", "version", "license")


def _entries(text: str):
    return parse_string(text, "bibtex").entries


def _unescaped_special(value: str) -> list[str]:
    """LaTeX specials not escaped by a backslash (braces must balance; ``\\_`` and ``\\&`` are fine)."""
    bad = re.findall(r"(?<!\\)[&%$#_~^]", value)
    depth = 0
    for ch in re.sub(r"\\[{}]", "", value):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            bad.append("}")
    return bad + (["{"] if depth > 0 else [])


def _raw_fields(text: str) -> dict[str, str]:
    return dict(re.findall(r"^\s+(\w+) = \{(.*)\},?$", text, flags=re.M))


@pytest.mark.parametrize("kind", ["software", "misc"])
def test_the_book_entry_parses_with_a_whole_corporate_author(kind):
    data = cit.citation()
    text = cit.bibtex_book(data, "0123abc", kind=kind)
    (key, entry), = _entries(text).items()
    assert key == "interconnect_models" and entry.type == kind
    person, = entry.persons["author"]  # one person, not "The" + "interconnect-models contributors"
    assert not person.first_names and len(person.last_names) == 1
    assert person.last_names[0] == "{" + data["authors"][0]["name"] + "}"
    for field, value in _raw_fields(text).items():
        if field in PRINTED:
            assert not _unescaped_special(value), (field, value)


@pytest.mark.parametrize("slug, title", cit.chapters())
def test_every_chapter_entry_parses_with_its_title(slug, title):
    text = cit.bibtex_chapter(cit.citation(), slug, title, "0123abc")
    (key, entry), = _entries(text).items()
    assert entry.type == "incollection" and key == f"interconnect_models_{slug}"
    for required in ("title", "booktitle", "publisher", "year"):  # classic BibTeX's @incollection
        assert entry.fields.get(required), required
    assert "chapter" not in entry.fields and slug not in entry.fields["title"].replace("\\_", "_").split()
    for field, value in _raw_fields(text).items():
        if field in PRINTED:
            assert not _unescaped_special(value), (field, value)


def test_latex_specials_are_escaped():
    assert cit.latex_escape("a_b & 5% #1 {x} ~ ^ $") == r"a\_b \& 5\% \#1 \{x\} \textasciitilde{} \textasciicircum{} \$"
    text = cit.bibtex_chapter(cit.citation(), "toy", "MIN_MVA & more", "c")
    assert not _unescaped_special(_raw_fields(text)["title"])


def test_the_cite_page_has_both_book_entries(tmp_path):
    page = cit.write_cite_page(tmp_path, "0123abc").read_text()
    assert "@software{interconnect_models" in page and "@misc{interconnect_models" in page


def test_the_bibliography_source_has_no_raw_tex_commands():
    """sphinxcontrib-bibtex prints ``\\texttt{...}`` raw on the bibliography page."""
    from models.core.paths import ROOT

    text = (ROOT / "references.bib").read_text()
    assert not re.search(r"\\(texttt|emph|textit|textbf)\{", text)
    parse_string(text, "bibtex")
