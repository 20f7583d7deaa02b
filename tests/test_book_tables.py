"""The built book's tables and headings follow the one style (issue #14).

Over every page of the quick build: no table cell shows ``inf%``, ``nan%``,
``nan``, ``inf``, ``None`` or ``'none'``; no error column shows an unsigned
fraction (``0.0158``) where percent is meant; no heading carries a figure
number of its own (``Fig. 3: ...``: the book numbers its figures, the paper's
number goes into the caption as "(the paper's Fig. 3)").  The checker itself
is tested on a synthetic page, so it can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

#: Cell texts that are never a value on the page.
BAD_CELL = re.compile(r"^(?:[+-]?inf%?|[+-]?nan%?|none|'none'|null)$", re.I)
#: An unsigned fraction (0.0158) in a column of errors, where the style asks for signed percent.
FRACTION = re.compile(r"^-?0\.\d+$")
#: A heading that numbers a figure itself ("Fig. 3: hot-spot traffic").
FIG_HEADING = re.compile(r"\bFigs?\.\s*\d+\s*:")
#: Headers of columns that hold relative errors.
ERROR_HEADER = re.compile(r"\berr(?:or)?\b|\|err", re.I)


def page_problems(text: str) -> list[str]:
    """What on one HTML page breaks the table style: ``["<what>: <text>", ...]``."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "html.parser")
    out = []
    for h in soup.find_all(["h1", "h2", "h3", "h4", "h5", "h6"]):
        if FIG_HEADING.search(h.get_text(" ", strip=True)):
            out.append(f"figure number in a heading: {h.get_text(' ', strip=True)}")
    for table in soup.find_all("table"):
        headers = [th.get_text(" ", strip=True) for th in table.find_all("th")]
        for tr in table.find_all("tr"):
            cells = tr.find_all("td")
            # the header row of a plain table: headers line up with the data cells from the right
            offset = len(headers) - len(cells) if len(headers) >= len(cells) else 0
            for j, td in enumerate(cells):
                t = td.get_text(" ", strip=True)
                if BAD_CELL.match(t):
                    out.append(f"raw value in a cell: {t}")
                head = headers[offset + j] if 0 <= offset + j < len(headers) else ""
                if ERROR_HEADER.search(head) and FRACTION.match(t):
                    out.append(f"unsigned fraction in error column {head!r}: {t}")
    return out


def book_problems(html: Path) -> dict[str, list[str]]:
    """:func:`page_problems` of every chapter page under ``html/book``."""
    found = {}
    for path in sorted((html / "book").rglob("*.html")):
        bad = page_problems(path.read_text(errors="replace"))
        if bad:
            found[path.relative_to(html).as_posix()] = bad[:5]
    return found


def test_the_checker_finds_every_kind_of_fault():
    page = """<h2>Fig. 3: hot-spot traffic</h2><h2>Hot-spot traffic</h2>
    <table><thead><tr><th>curve</th><th>err @25%</th><th>rate</th></tr></thead><tbody>
    <tr><td>a</td><td>0.0158</td><td>0.25</td></tr><tr><td>b</td><td>inf%</td><td>nan</td></tr>
    <tr><td>c</td><td>'none'</td><td>None</td></tr><tr><td>d</td><td>+1.6%</td><td>0.5</td></tr></tbody></table>"""
    bad = page_problems(page)
    assert "figure number in a heading: Fig. 3: hot-spot traffic" in bad
    assert "unsigned fraction in error column 'err @25%': 0.0158" in bad
    for t in ("inf%", "nan", "'none'", "None"):
        assert f"raw value in a cell: {t}" in bad
    assert len(bad) == 6  # "0.25" and "0.5" are rates, "+1.6%" is the style


def test_the_style_passes_the_checker():
    import math

    import pandas as pd

    from models.core.tables import format_table

    df = pd.DataFrame({"curve": ["a", "b", "c"], "err @25%": [0.0158, math.inf, math.nan], "rate": [0.25, 0.5, 1]})
    assert page_problems(format_table(df, fraction=["err @25%"]).to_html()) == []
    assert page_problems(df.to_html()) != []  # pandas' own HTML would not pass


@pytest.mark.notebooks
@pytest.mark.book
def test_the_quick_book_follows_the_table_style(quick_html):
    html, proc = quick_html
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert book_problems(html) == {}
