"""The citation entries compile (issue #27, item 5): valid for classic BibTeX and biblatex, parsed by pybtex,
a corporate author kept whole, the chapter's title (not its slug), no unescaped LaTeX special in a printed field;
capitals a sentence-case style must keep in braces, keys no other bibliography of the book uses, and the papers'
own entries on the cite page, read from ``references.bib`` (a small document citing them is compiled: by
pybtex always, by BibTeX too where Debian's ``texlive-binaries`` is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pybtex.errors
import pytest
from pybtex import PybtexEngine
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
    assert key == cit.BOOK_KEY == "interconnect_models_compendium" and entry.type == kind
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
    assert entry.type == "incollection" and key == cit.chapter_key(slug) == f"interconnect_models_{slug}"
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
    assert "@software{interconnect_models_compendium," in page and "@misc{interconnect_models_compendium," in page


def test_the_bibliography_source_has_no_raw_tex_commands():
    """sphinxcontrib-bibtex prints ``\\texttt{...}`` raw on the bibliography page."""
    from models.core.paths import ROOT

    text = (ROOT / "references.bib").read_text()
    assert not re.search(r"\\(texttt|emph|textit|textbf)\{", text)
    parse_string(text, "bibtex")


# ----------------------------------------------------------------------------- capitals, keys, the papers
def test_capitals_are_protected_in_titles():
    """A style that sets titles in sentence case (plain, IEEEtran) lowercases what is not in braces."""
    assert cit.protect_capitals("Fully adaptive Duato-Nbc routing in 2-D tori") == \
        "Fully adaptive {Duato-Nbc} routing in {2-D} tori"
    assert cit.protect_capitals("x-Folded TM against TM and the torus") == "{x-Folded} {TM} against {TM} and the torus"
    assert cit.protect_capitals("Multistage networks by approximate MVA") == "Multistage networks by approximate {MVA}"
    assert cit.protect_capitals("Analytical models of interconnection networks, reproduced") == \
        "Analytical models of interconnection networks, reproduced"
    assert cit.protect_capitals(r"{IPP} and \_X") == r"{IPP} and {{}\_X}"  # braced stays; "{\" is not opened
    for slug, title in cit.chapters():
        field = _raw_fields(cit.bibtex_chapter(cit.citation(), slug, title, "c"))["title"]
        unprotected = [w for w in re.sub(r"\{[^{}]*\}", "", field).split()[1:] if any(ch.isupper() for ch in w)]
        assert not unprotected, (slug, field)


def _bib_files() -> list[Path]:
    from models.core.paths import ROOT

    skip = ("_build", "node_modules", ".venv", ".cache")
    return [p for p in ROOT.rglob("*.bib") if not any(part in skip for part in p.parts)]


def test_the_cite_pages_keys_are_used_by_no_other_bibliography():
    """The compendium's and the chapters' keys are in no ``.bib`` of the book (``references.bib`` keeps its own
    ``interconnect_models`` for the book's pages), so a document can take both."""
    keys = {cit.BOOK_KEY} | {cit.chapter_key(slug) for slug, _ in cit.chapters()}
    files = _bib_files()
    assert any(p.name == "references.bib" for p in files)
    for path in files:
        used = set(cit.bib_entries(path.read_text()))
        assert not keys & used, (path, keys & used)


def test_the_cite_page_has_the_papers_own_entries_from_references_bib(tmp_path):
    from models.core.paths import ROOT

    papers = cit.paper_entries()
    assert [slug for slug, _, _ in papers] == [s for s, _ in cit.chapters() if s in cit.PAPER_OF]
    assert len(papers) == 5
    refs = cit.citation()["references"]
    entries = cit.bib_entries((ROOT / "references.bib").read_text())
    page = cit.write_cite_page(tmp_path, "0123abc").read_text()
    for slug, key, text in papers:
        assert text == entries[key]["text"] and text in page  # verbatim, read from the file
        assert " ".join(re.sub(r"[{}]", "", entries[key]["title"]).split()) == refs[cit.PAPER_OF[slug]]["title"]
        assert f"BibTeX key `{key}`" in page
    assert "## The papers" in page


def _page_blocks(page: str) -> list[str]:
    return re.findall(r"```bibtex\n(.*?)\n```", page, flags=re.S)


def _document(tmp_path: Path, with_references: bool) -> tuple[Path, list[str]]:
    """A small document's ``doc.aux``, citing the compendium, two chapters and their papers: its bibliography is
    the cite page's entries (the ``@misc`` form of the compendium, for classic BibTeX) and, with
    ``with_references``, the book's ``references.bib`` beside them (then the papers come from there)."""
    from models.core.paths import ROOT

    page = cit.write_cite_page(tmp_path / "book", "0123abc").read_text()
    blocks = [b for b in _page_blocks(page) if not b.startswith("@software")]
    papers = "\n\n".join(text for _, _, text in cit.paper_entries())
    if with_references:
        blocks = [b for b in blocks if b != papers]
        shutil.copy(ROOT / "references.bib", tmp_path / "references.bib")
    (tmp_path / "cite.bib").write_text("\n\n".join(blocks) + "\n")
    cited = [cit.BOOK_KEY, cit.chapter_key("torus_nbc"), cit.chapter_key("xfolded_tm"), "safaei2007nbc",
             "moudi2018xfolded"]
    data = "cite,references" if with_references else "cite"
    aux = tmp_path / "doc.aux"
    aux.write_text("".join(f"\\citation{{{k}}}\n" for k in cited) + f"\\bibstyle{{plain}}\n\\bibdata{{{data}}}\n")
    return aux, cited


@pytest.mark.parametrize("with_references", [False, True])
def test_a_document_citing_a_chapter_and_its_paper_compiles_with_pybtex(tmp_path, monkeypatch, with_references):
    """pybtex (strict: a repeated key or a bad entry is an error) makes the document's bibliography with its
    ``plain`` style, which sets titles in sentence case: the protected capitals come out as written."""
    aux, cited = _document(tmp_path, with_references)
    monkeypatch.chdir(tmp_path)
    old = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)
    try:
        PybtexEngine().make_bibliography(str(aux))
    finally:
        pybtex.errors.set_strict_mode(old)
    bbl = (tmp_path / "doc.bbl").read_text()
    assert all(f"\\bibitem[{i}]" in bbl for i in range(1, len(cited) + 1))
    for key in cited:
        assert f"{{{key}}}" in bbl
    assert "{Duato-Nbc}" in bbl and "{x-Folded} {TM}" in bbl  # kept, not "duato-nbc", "x-folded tm"
    assert "Mathematical modelling of wormhole-routed {x-Folded} {TM} topology" in bbl  # the paper's own entry


def test_the_old_key_would_not_combine():
    """What the cite page's key avoids: the book's ``interconnect_models`` twice is an error (strict pybtex)."""
    from pybtex.database import BibliographyDataError
    from pybtex.database.input.bibtex import Parser

    from models.core.paths import ROOT

    old = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)
    try:
        parser = Parser()
        parser.parse_file(str(ROOT / "references.bib"))
        with pytest.raises(BibliographyDataError, match="repeated bibliography entry: interconnect_models"):
            parser.parse_string("@misc{interconnect_models, title = {x}}")
        parser.parse_string(cit.bibtex_book(cit.citation(), "c", kind="misc"))  # the page's key: fine
    finally:
        pybtex.errors.set_strict_mode(old)


@pytest.mark.skipif(shutil.which("bibtex") is None, reason="bibtex (Debian's texlive-binaries) is not installed")
@pytest.mark.parametrize("with_references", [False, True])
def test_a_document_citing_a_chapter_and_its_paper_compiles_with_bibtex(tmp_path, with_references):
    aux, cited = _document(tmp_path, with_references)
    run = subprocess.run(["bibtex", "doc"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    log = (tmp_path / "doc.blg").read_text() if (tmp_path / "doc.blg").exists() else run.stdout
    assert run.returncode == 0 and "error message" not in log and "Repeated entry" not in log, log
    bbl = (tmp_path / "doc.bbl").read_text()
    assert all(f"{{{key}}}" in bbl for key in cited) and "{Duato-Nbc}" in bbl
