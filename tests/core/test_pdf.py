"""``make pdf`` (models.core.pdf) without a browser: the page it prints and the Chromium it needs."""

from __future__ import annotations

import pytest

from models.core import pdf


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
