"""``make pdf`` (models.book.pdf) without a browser: the page it prints, what the title page and the contents
are made of, the bookmarks, the Chromium it needs (tests/test_pdf_book.py prints a book)."""

from __future__ import annotations

import io
import os
import re
import shutil

import pytest

from models.book import pdf


def test_singlehtml_page_is_copied_where_its_links_resolve(tmp_path):
    top = tmp_path / "_build" / "singlehtml"
    (top / "book").mkdir(parents=True)
    (top / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=book/intro.html" />')
    (top / "book" / "intro.html").write_text('<img src="_images/a.png"><script src="_static/mathjax/x.js"></script>')
    page = pdf.singlehtml_page(tmp_path)
    assert page == top / "print.html"  # beside _static/ and _images/, which the page's links name
    assert page.read_text() == (top / "book" / "intro.html").read_text()


def test_singlehtml_page_without_a_build(tmp_path):
    with pytest.raises(SystemExit, match="singlehtml"):
        pdf.singlehtml_page(tmp_path)


def test_chromium_missing_says_how_to_install(monkeypatch):
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="apt-get install chromium"):
        pdf.chromium()
    monkeypatch.setenv("CHROMIUM", "/opt/chromium")
    assert pdf.chromium() == "/opt/chromium"


def test_toc_parts_lists_each_part_and_its_files_in_reading_order(tmp_path):
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: book/intro\nparts:\n"
        "  - caption: First\n    chapters:\n      - file: book/a/index\n        sections:\n"
        "          - file: book/a/01-x\n          - file: book/a/02-y.ipynb\n      - file: book/b/index\n"
        "  - caption: Back matter\n    chapters:\n      - file: book/cite.md\n")
    root, parts = pdf.toc_parts(tmp_path)
    assert root == "book/intro"
    assert parts == [{"caption": "First", "files": ["book/a/index", "book/a/01-x", "book/a/02-y", "book/b/index"]},
                     {"caption": "Back matter", "files": ["book/cite"]}]
    assert pdf.toc_parts(tmp_path / "nowhere") == ("", [])


def test_book_meta_comes_from_citation_cff_and_git(tmp_path):
    from models.core.paths import ROOT, git_commit

    shutil.copy(ROOT / "CITATION.cff", tmp_path / "CITATION.cff")
    (tmp_path / "CITATION.cff").write_text(
        re.sub(r"(?m)^date-released:.*$", "date-released: 2026-03-05", (tmp_path / "CITATION.cff").read_text()))
    meta = pdf.book_meta(tmp_path)
    assert meta["date"] == "5 March 2026"
    assert meta["commit"] == git_commit()
    assert meta["version"] and meta["title"] and meta["authors"]
    assert meta["parts"] == [] and meta["root"] == ""  # no _toc.yml there


def test_math_errors_name_each_page_and_the_way_out():
    errors = [{"page": f"book/p{i}", "error": "'_' allowed only in math mode: \\text{a_b}"} for i in range(23)]
    message = str(pdf.MathErrors(errors))
    assert message.startswith("23 MathJax error box(es)")
    assert "book/p0: '_' allowed only in math mode" in message and "book/p19" in message
    assert "book/p20" not in message and "and 3 more" in message
    assert "--allow-math-errors" in message


def _pdf_with_bookmarks(titles):
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in titles:
        writer.add_blank_page(width=200, height=200)
    for i, title in enumerate(titles):
        if title is not None:
            writer.add_outline_item(title=title, page_number=i)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def test_heading_pages_and_bookmarks():
    # Chromium's titles: the space at a line break lost, a heading's words repeated
    chromium = _pdf_with_bookmarks(["Contents", "The model: equations(1)-(6)", "FindingsFindings"])
    headings = ["Contents", "The model: equations (1)-(6)", "Findings"]
    marks = pdf.outline_entries(chromium)
    assert pdf.heading_pages(marks, headings) == [1, 2, 3]
    # more or fewer bookmarks than headings: matched in order by their text without spaces
    assert pdf.heading_pages(marks, ["The model: equations (1)-(6)", "Not printed", "Findings", "Contents"]) \
        == [2, None, 3, None]
    # the bookmarks written into another print of the same layout, titled by the headings
    untagged = _pdf_with_bookmarks([None, None, None])
    assert pdf.outline_entries(untagged) == []
    tree = pdf.outline_tree(chromium)
    book = pdf.write_outline(untagged, tree, headings)
    assert pdf.outline_entries(book) == [("Contents", 1), ("The model: equations (1)-(6)", 2), ("Findings", 3)]
    assert pdf.outline_entries(pdf.write_outline(untagged, tree, headings[:2])) == marks  # kept, not mislabelled


def test_main_fails_on_math_errors(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(pdf, "singlehtml_page", lambda root, edition="full": tmp_path / "print.html")

    def refuse(html, out, **kw):
        assert kw["allow_math_errors"] is False
        raise pdf.MathErrors([{"page": "book/x", "error": "TeX error: \\text{a_b}"}])

    monkeypatch.setattr(pdf, "print_pdf", refuse)
    # the default output is ours (<root>/_build/pdf/book.pdf): an older print does not pass for this book
    ours = tmp_path / "_build" / "pdf" / "book.pdf"
    ours.parent.mkdir(parents=True)
    ours.write_bytes(b"%PDF- an older print")
    assert pdf.main(["--no-build", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "1 MathJax error box" in err and "removed" in err
    assert not ours.exists()
    # a file the user named with --out is not ours to delete: it survives byte for byte
    theirs = tmp_path / "b.pdf"
    theirs.write_bytes(b"%PDF- the user's own file")
    assert pdf.main(["--no-build", "--root", str(tmp_path), "--out", str(theirs)]) == 1
    err = capsys.readouterr().err
    assert "left as it was" in err
    assert theirs.read_bytes() == b"%PDF- the user's own file"


def test_nested_bookmarks_keep_their_levels_and_places():
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit

    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(width=200, height=300)
    part = writer.add_outline_item(title="Part", page_number=0, fit=Fit.xyz(left=10, top=250))
    chapter = writer.add_outline_item(title="1. Chapter", page_number=1, parent=part, fit=Fit.xyz(left=10, top=120))
    writer.add_outline_item(title="Section", page_number=2, parent=chapter, fit=Fit.xyz(left=10, top=80))
    buf = io.BytesIO()
    writer.write(buf)
    tree = pdf.outline_tree(buf.getvalue())
    assert [n["title"] for n in tree] == ["Part"] and tree[0]["children"][0]["children"][0]["title"] == "Section"
    book = pdf.write_outline(_pdf_with_bookmarks([None, None, None]), tree)
    again = pdf.outline_tree(book)
    assert again[0]["children"][0]["page"] == 2 and float(again[0]["children"][0]["top"]) == 120
    assert again[0]["children"][0]["children"][0]["title"] == "Section"
    assert PdfReader(io.BytesIO(book)).page_mode == "/UseOutlines"


# ----------------------------------------------------------------------------- --out, before anything (issue #35)
def _nothing_is_built(monkeypatch):
    """The checks below must come before the build and the print."""
    monkeypatch.setattr(pdf, "build_singlehtml", lambda root: pytest.fail("the book was built"))
    monkeypatch.setattr(pdf, "singlehtml_page", lambda root, edition="full": pytest.fail("the book was read"))
    monkeypatch.setattr(pdf, "print_pdf", lambda *a, **kw: pytest.fail("the book was printed"))


def _refused(capsys, argv, reason):
    assert pdf.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --out: ") and err.count("\n") == 1 and reason in err, err
    return err


def test_out_is_checked_before_anything_is_built(monkeypatch, tmp_path, capsys):
    """Review P2, P4, P6 (defects N14, N18): an existing folder, a path under a file were tracebacks after the build
    and the print; ``thesis.txt`` was replaced by the PDF without a word.  Now one line, status 2, nothing built."""
    _nothing_is_built(monkeypatch)
    root = ["--root", str(tmp_path)]
    _refused(capsys, [*root, "--out", str(tmp_path)], "a folder; give a file name such as")
    (tmp_path / "thesis.txt").write_text("my thesis")
    _refused(capsys, [*root, "--out", str(tmp_path / "thesis.txt")], "not a .pdf file name")
    _refused(capsys, [*root, "--out", str(tmp_path / "thesis.txt" / "book.pdf")], "not a folder (a file is in the way)")
    (tmp_path / "thesis.pdf").write_text("my thesis, not a PDF")
    _refused(capsys, [*root, "--out", str(tmp_path / "thesis.pdf")], "an existing file that is not a PDF")
    os.symlink(tmp_path / "thesis.txt", tmp_path / "link.pdf")
    _refused(capsys, [*root, "--out", str(tmp_path / "link.pdf")], "not a PDF")
    os.mkfifo(tmp_path / "fifo.pdf")  # never opened for reading (it would hang)
    _refused(capsys, [*root, "--out", str(tmp_path / "fifo.pdf")], "not a regular file")
    assert (tmp_path / "thesis.txt").read_text() == "my thesis"
    assert (tmp_path / "thesis.pdf").read_text() == "my thesis, not a PDF"


def test_out_may_not_be_in_the_sources(monkeypatch, tmp_path, capsys):
    from models.core.paths import ROOT

    _nothing_is_built(monkeypatch)
    for where in ("notebooks/book.pdf", "models/book.pdf", "book/book.pdf"):
        _refused(capsys, ["--root", str(tmp_path), "--out", str(ROOT / where)], "inside")
        assert not (ROOT / where).exists()
    os.symlink(ROOT / "notebooks", tmp_path / "nb")
    _refused(capsys, ["--root", str(tmp_path), "--out", str(tmp_path / "nb" / "book.pdf")], "inside notebooks/")


def test_out_in_a_read_only_place_is_one_line(tmp_path):
    """Review P5: a read-only folder (as root, without its override of permissions) was a traceback after the
    print."""
    import subprocess
    import sys

    from models.core.paths import ROOT

    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    command = [sys.executable, "-m", "models.book.pdf", "--root", str(tmp_path), "--check-out", "--out",
               str(ro / "book.pdf")]
    if os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search,-fowner"
        command = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", "--", *command]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2 and proc.stderr == f"error: --out: cannot write into {ro}: Permission denied\n"


def test_a_good_out_passes_and_an_older_pdf_may_be_replaced(monkeypatch, tmp_path, capsys):
    _nothing_is_built(monkeypatch)
    assert pdf.main(["--root", str(tmp_path), "--check-out", "--out", str(tmp_path / "new" / "book.PDF")]) == 0
    assert (tmp_path / "new").is_dir()
    (tmp_path / "old.pdf").write_bytes(b"%PDF-1.7 an older print")
    assert pdf.check_out(tmp_path / "old.pdf") == tmp_path / "old.pdf"
    assert pdf.main(["--root", str(tmp_path), "--check-out"]) == 0  # the default, <root>/_build/pdf/book.pdf
    assert capsys.readouterr().err == ""
