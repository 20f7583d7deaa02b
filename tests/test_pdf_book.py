"""``make pdf`` end to end on a small book: built with jupyter-book, printed by models.book.pdf, read with pypdf.

The book (written into a temporary folder) has what the real one trips
over in print: two parts, a chapter with a section page, a table of 22
columns, a numbered display equation wider than the page, a code line of
300 characters, a link to another web page and one to a section in it, and
a download link (a file on the machine that built it).  The printed PDF
must have: a title page with the version and the commit, a table of
contents, bookmarks naming the parts and chapters, "page n of N" in the
footer of every page, links that jump inside the PDF and none to
``file://``, no MathJax error, and nothing cut: the end of the long code
line, the last column of the wide table and the equation are all on the
page.  About 30 s (a singlehtml build of four pages and two prints).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import yaml

from models.book import pdf
from models.core.paths import ROOT, git_commit

pytestmark = [pytest.mark.book]

LONG_LINE = "values = [" + ", ".join(f"{i} * factor" for i in range(40)) + "]  # LONGLINEEND"
COLUMNS = 22

#: The real book's extensions beside jupyter-book's own (sphinx-exercise): the small book prints with them.
EXTRA_EXTENSIONS = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"].get("extra_extensions", [])

CONFIG = f"""\
title: "A small printed book"
author: "Tests"
only_build_toc_files: true
execute:
  execute_notebooks: "off"
parse:
  myst_enable_extensions: [amsmath, dollarmath]
html:
  use_repository_button: false
launch_buttons:
  thebe: false
sphinx:
  local_extensions:
    compendium: {ROOT / "book" / "_ext"}
  extra_extensions: {json.dumps(EXTRA_EXTENSIONS)}
  config:
    myst_update_mathjax: false
    numfig: true
"""

TOC = """\
format: jb-book
root: intro
parts:
  - caption: Part One
    numbered: 1
    chapters:
      - file: alpha/index
        sections:
          - file: alpha/wide
  - caption: Part Two
    numbered: 1
    chapters:
      - file: beta/index
        sections:
          - file: beta/cells
"""

INTRO = """\
# A small printed book

The introduction links to [the second chapter](beta/index.md), to
[a section of it](#beta-details), and to the [wide page](alpha/wide.md).
"""

ALPHA = """\
# The first chapter

Its one page is [wide](wide.md).  A data file: {download}`data.csv <data.csv>`.
"""

WIDE = f"""\
# Wide things

A table of {COLUMNS} columns:

| row | {" | ".join(f"column {i}" for i in range(1, COLUMNS))} |
|---|{"---|" * (COLUMNS - 1)}
| first | {" | ".join(f"{i}.25" for i in range(1, COLUMNS))} |
| second | {" | ".join(f"{i}.75" for i in range(1, COLUMNS))} |

A table whose rows are told apart by two columns (a figure and its panel):

| figure | panel | {" | ".join(f"series {i}" for i in range(1, COLUMNS - 1))} |
|---|---|{"---|" * (COLUMNS - 2)}
| 1 | a | {" | ".join(f"{i}.5" for i in range(1, COLUMNS - 1))} |
| 1 | b | {" | ".join(f"{i}.5" for i in range(1, COLUMNS - 1))} |
| 2 | a | {" | ".join(f"{i}.5" for i in range(1, COLUMNS - 1))} |

A numbered equation wider than the page:

$$
R = {" + ".join(f"x_{{{i}}} y_{{{i}}}" for i in range(1, 45))}
$$ (wide-equation)

A long code line:

```python
{LONG_LINE}
```
"""

BETA = """\
# The second chapter

Back to [the introduction](../intro.md).

(beta-details)=
## Details

Inline math $x^2$ and a short display equation:

$$
E = m c^2
$$
"""


#: A notebook page as the pipeline leaves it: a code cell hidden behind its button (``hide-input``, myst-nb's
#: ``HideCodeCellNode``) with its output, and an exercise with its solution (sphinx-exercise).
CELLS = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Cells and exercises\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {"tags": ["hide-input"]},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["HIDDENCELLOUTPUT\n"]}],
         "source": ["print('HIDDENCELLOUTPUT')"]},
        {"cell_type": "markdown", "metadata": {},
         "source": ["```{exercise} A question\n", ":label: small-ex\n", "\n", "EXERCISETEXT\n", "```\n",
                    "\n", "```{solution} small-ex\n", ":class: dropdown\n", "\n", "SOLUTIONTEXT\n", "```\n"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["VISIBLEOUTPUT\n"]}],
         "source": ["print('VISIBLECODE')"]},
        {"cell_type": "markdown", "metadata": {},
         "source": ["```{exercise} Run: a gated one\n", ":label: small-gated\n", "\n", "GATEDEXERCISE $x^2$\n",
                    "```\n"]},
        {"cell_type": "markdown", "metadata": {},
         "source": ["```{solution-start} small-gated\n", ":class: dropdown\n", "```\n", "\n", "GATEDSOLUTIONTEXT\n"]},
        {"cell_type": "code", "execution_count": 3, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["GATEDOUTPUT\n"]}],
         "source": ["print('GATEDCODE')"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["```{solution-end}\n", "```\n"]},
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    """The small book's singlehtml build, printed: ``(pdf path, report, meta)``."""
    if not (os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.fail("headless Chromium is needed to print the book: `apt-get install chromium` "
                    "(.ci/run does it), or set CHROMIUM=/path/to/chromium")
    root = tmp_path_factory.mktemp("pdfbook")
    files = {"_config.yml": CONFIG, "_toc.yml": TOC, "intro.md": INTRO, "alpha/index.md": ALPHA,
             "alpha/wide.md": WIDE, "alpha/data.csv": "a,b\n1,2\n", "beta/index.md": BETA,
             "beta/cells.ipynb": json.dumps(CELLS)}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    shutil.copy(ROOT / "CITATION.cff", root / "CITATION.cff")
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(root), "--builder", "singlehtml"], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    meta = pdf.book_meta(root)
    out = root / "_build" / "pdf" / "book.pdf"
    report = pdf.print_pdf(pdf.singlehtml_page(root), out, meta=meta, root=root)
    return out, report, meta


@pytest.fixture(scope="module")
def reader(small_book):
    from pypdf import PdfReader

    return PdfReader(str(small_book[0]))


def _texts(reader):
    """Each page's text, ligatures (the "fi" of a font) as letters."""
    return [unicodedata.normalize("NFKC", page.extract_text() or "") for page in reader.pages]


def test_title_page_has_version_commit_and_date(small_book, reader):
    _, _, meta = small_book
    first = re.sub(r"\s+", " ", _texts(reader)[0])
    assert meta["version"] in first and meta["date"] in first
    assert git_commit() in first
    assert meta["title"] in first


def test_contents_lists_parts_and_chapters_with_their_pages(small_book, reader):
    _, report, _ = small_book
    assert report["toc_missing_pages"] == 0
    texts = _texts(reader)
    contents = next(i for i, t in enumerate(texts) if t.lstrip().startswith("Contents"))
    marks = dict(pdf.outline_entries(reader))
    for title in ("Part One", "1. The first chapter", "Wide things", "Part Two", "2. The second chapter"):
        line = next(ln for ln in texts[contents].splitlines() if ln.strip().startswith(title))
        assert line.split()[-1] == str(marks[title]), (line, marks[title])


def test_bookmarks_name_the_parts_and_chapters(reader):
    titles = [t for t, _ in pdf.outline_entries(reader)]
    for title in ("Contents", "A small printed book", "Part One", "1. The first chapter", "Wide things",
                  "Part Two", "2. The second chapter", "Details"):
        assert title in titles, titles


def test_every_page_has_its_number_and_the_version_in_the_footer(small_book, reader):
    _, _, meta = small_book
    texts = _texts(reader)
    n = len(texts)
    assert n >= 5
    for i, text in enumerate(texts, 1):
        assert f"page {i} of {n}" in text, (i, text[-300:])
        assert f"version {meta['version']}" in text, i


def test_links_jump_inside_the_pdf_and_none_is_a_file(small_book, reader):
    _, report, _ = small_book
    uris, internal = [], 0
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            action = annot.get("/A")
            if action is not None and "/URI" in action:
                uris.append(str(action["/URI"]))
            elif "/Dest" in annot or (action is not None and action.get("/S") == "/GoTo"):
                internal += 1
            elif action is not None:
                uris.append(str(action.get("/S")))  # a /Launch or /GoToR would open a file
    assert not [u for u in uris if not u.startswith(("http://", "https://", "mailto:"))], uris
    assert internal >= 4 + 5  # the contents' links and the intro's three, the chapters' links back
    assert report["links_unlinked"] >= 1  # the download: a file on the machine that built the book


def test_no_mathjax_error(small_book, reader):
    _, report, _ = small_book
    assert report["math_errors"] == []
    text = "".join(_texts(reader))
    assert "\\frac" not in text and "\\text" not in text and "x_{" not in text


def test_nothing_is_cut(small_book, reader):
    _, report, _ = small_book
    assert report["clipped"] == []
    text = re.sub(r"\s+", "", "".join(_texts(reader)))
    assert "LONGLINEEND" in text  # the end of the 300-character code line: wrapped, not cut
    assert f"column{COLUMNS - 1}" in text and f"{COLUMNS - 1}.75" in text  # the wide table's last column
    scaled = {s["what"].split(".")[0] for s in report["scaled"]}
    assert "mjx-container" in scaled  # the wide equation zoomed to the column
    assert report["split"] and report["split"][0]["columns"] == COLUMNS  # the table in groups of columns


def test_a_mathjax_error_fails_the_print(small_book, tmp_path):
    """A page whose TeX MathJax cannot typeset: print_pdf refuses it (MathErrors), unless allowed."""
    out, _, meta = small_book
    top = out.parents[1] / "singlehtml"
    page = top / "broken.html"
    page.write_text('<html><body><article class="bd-article"><section><h1>Broken</h1>'
                    '<p>$$\\text{a_b}$$</p></section></article>'
                    '<script>window.MathJax = {tex: {inlineMath: [["$", "$"]]}};</script>'
                    '<script src="_static/mathjax/tex-chtml-full.js"></script></body></html>')
    with pytest.raises(pdf.MathErrors, match="1 MathJax error"):
        pdf.print_pdf(page, tmp_path / "broken.pdf", meta=meta)
    report = pdf.print_pdf(page, tmp_path / "broken.pdf", meta=meta, allow_math_errors=True)
    assert len(report["math_errors"]) == 1 and (tmp_path / "broken.pdf").exists()


def test_the_books_extensions_print_together(reader):
    """With sphinx-exercise loaded (it registers its nodes for ``singlehtml`` by name), a hidden code cell of
    myst-nb still prints: its output, without its code; the exercise and its solution print too."""
    assert EXTRA_EXTENSIONS, "the real book's extra extensions (sphinx-exercise) are in the small book"
    text = "".join(page.extract_text() for page in reader.pages)
    assert "HIDDENCELLOUTPUT" in text and "print('HIDDENCELLOUTPUT')" not in text
    assert "EXERCISETEXT" in text and "SOLUTIONTEXT" in text


def test_a_split_table_repeats_its_row_key(small_book, reader):
    """The first wide table's rows are named by their first column ("row"); the second's by two ("figure" repeats
    for two rows, "figure, panel" names each): every continuation repeats the whole key, never a data column."""
    _, report, _ = small_book
    first, second = report["split"][:2]
    assert first["keys"] == 1 and second["keys"] == 2 and second["groups"] >= 2
    text = re.sub(r"\s+", " ", " ".join(_texts(reader)))
    assert text.count("with the first 2 columns repeated") == second["groups"] - 1
    assert len(re.findall(r"figure ?panel", text)) == second["groups"]  # the key's headers above every group


@pytest.fixture(scope="module")
def editions(small_book):
    """The small book's other prints, through ``python -m models.book.pdf`` as ``make pdf`` runs it: the student
    edition (built with ``BOOK_EDITION=student`` into ``_build/student/``), the solutions (from the full edition's
    build) and the full edition without its code; and the student edition's HTML build.  ``{name: (path, text)}``."""
    from pypdf import PdfReader

    out, _, _ = small_book
    root = out.parents[2]
    prints = {"student": ["--edition", "student"], "solutions": ["--edition", "solutions", "--no-build"],
              "nocode": ["--code", "hidden", "--no-build"]}
    found = {}
    for name, args in prints.items():
        assert pdf.main(["--root", str(root), *args]) == 0, name
    for name, file in (("student", "book-student.pdf"), ("solutions", "solutions.pdf"), ("nocode", "book-nocode.pdf")):
        path = root / "_build" / "pdf" / file
        found[name] = (path, re.sub(r"\s+", " ", " ".join(_texts(PdfReader(str(path))))))
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(root), "--path-output", str(root / "_build" / "student")],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "BOOK_EDITION": "student"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    found["html"] = (root / "_build" / "student" / "_build" / "html", "")
    return found


SOLUTIONS = ("SOLUTIONTEXT", "GATEDSOLUTIONTEXT", "GATEDCODE", "GATEDOUTPUT")


def test_the_full_edition_prints_every_solution(reader):
    text = " ".join(_texts(reader))
    assert all(word in text for word in SOLUTIONS) and "VISIBLECODE" in text


def test_the_student_edition_prints_no_solution(editions):
    path, text = editions["student"]
    assert path.name == "book-student.pdf"
    assert "EXERCISETEXT" in text and "GATEDEXERCISE" in text and "VISIBLECODE" in text
    assert not [word for word in SOLUTIONS if word in text]  # the gated solution's cells too
    assert "Student edition (no solutions)" in text and "student edition" in text.split("page 2 of")[0]
    assert "This is the student edition of the book: the solutions are left out" in text


def test_the_student_editions_html_holds_no_solution_anywhere(editions):
    """Not on the page, not in the search index, not in a source or notebook offered for download."""
    html, _ = editions["html"]
    assert (html / "beta" / "cells.html").exists()
    files = [p for p in html.rglob("*") if p.is_file() and p.suffix in (".html", ".js", ".ipynb", ".txt", ".md")]
    leaks = {p.relative_to(html).as_posix(): w for p in files for w in SOLUTIONS if w in p.read_text(errors="ignore")}
    assert not leaks
    assert "EXERCISETEXT" in (html / "beta" / "cells.html").read_text()
    assert not list(html.glob("_sources/beta/cells.*")) and list(html.glob("_sources/beta/index.*"))


def test_the_solutions_print_holds_the_exercise_pages_only(editions):
    _, text = editions["solutions"]
    assert all(word in text for word in SOLUTIONS) and "EXERCISETEXT" in text
    assert "Solutions to the exercises" in text and "2. The second chapter: Cells and exercises" in text
    assert "LONGLINEEND" not in text and "E = m c" not in text  # the pages without solutions are left out


def test_the_solutions_print_needs_solutions(editions, tmp_path):
    """The student edition's build has no solution to print: one clear error, no PDF."""
    html, _ = editions["html"]
    root = html.parents[3]  # <root>/_build/student/_build/html
    with pytest.raises(ValueError, match="no page .* holds a solution"):
        pdf.print_pdf(pdf.singlehtml_page(root, "student"), tmp_path / "none.pdf", root=root, edition="solutions")
    assert not (tmp_path / "none.pdf").exists()


def test_a_print_without_code(editions):
    """``make pdf CODE=hidden``: no code cell's input; their outputs stay."""
    path, text = editions["nocode"]
    assert path.name == "book-nocode.pdf"
    assert "VISIBLEOUTPUT" in text and "SOLUTIONTEXT" in text
    assert "print('VISIBLECODE')" not in text and "VISIBLECODE" not in text.replace("VISIBLECODE')", "")
    assert "left out (the code cells' outputs are printed)" in text
