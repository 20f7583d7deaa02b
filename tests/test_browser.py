"""The quick book in a real browser: headless Chromium over every page.

Driven by Playwright (PyPI ``playwright``) with the system's Chromium
(Debian's ``chromium`` package; ``.ci/run`` installs it when it is missing,
``CHROMIUM=/path/to/chromium`` points elsewhere).  For every HTML page of the
quick build it checks:

* no console error;
* no request leaves the book (only ``file:`` and ``data:`` URLs);
* every image loaded;
* no raw TeX left after MathJax has typeset the page (no ``\\(``, ``\\[`` or
  ``$`` in the rendered text outside code), and no MathJax error box
  (``mjx-merror``: TeX that did not parse, shown as raw TeX in yellow);
* no element wider than the page's column outside a scroll container;
* no display equation and no line of shown code (or of a text output) wider
  than the column: a reader would have to scroll inside it (code hidden
  behind its "show code" button is not measured until opened);
* a table wider than the column (the book's one style, a
  ``compendium-table`` in a ``table-scroll`` container, or a page's
  ``csv-table`` in the theme's scroll container) keeps what a reader
  needs to read it: its first column (the row's label) stays in place while
  the rest scrolls (``position: sticky``), and a line above it says how many
  columns show and that the others scroll (``compendium-tables.js``).  That is
  the choice for the tables a page cannot fit (30 and more numbers per row
  in some chapters): scroll with the labels kept and a visible cue, rather
  than shrink the type or drop columns;
* no words that belong to the project's history rather than to the book
  ("issue #12", "before this revision") and no file name that is not in the
  repository.

One screenshot per chapter (its first page) is saved under
``_build/screenshots/`` so a person can look.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from models import CHAPTERS
from models.core.paths import BUILD, ROOT

pytestmark = [pytest.mark.notebooks, pytest.mark.book]

#: Pages that are not the book's content (Sphinx's own).
SKIP = {"genindex.html", "search.html", "py-modindex.html"}

WIDTH = 1400

#: Text of the article outside code, after typesetting; MathJax's output is skipped.
_TEXT_JS = """() => {
  const art = document.querySelector('article') || document.body;
  const clone = art.cloneNode(true);
  clone.querySelectorAll('pre, code, script, style, mjx-container, .highlight, .MathJax').forEach(e => e.remove());
  return clone.innerText;
}"""

#: What a reader would trip over: MathJax errors, equations and code lines wider than the column, wide tables
#: without their pinned first column or their line saying that they scroll.
_FIT_JS = """() => {
  const col = document.querySelector('article.bd-article') || document.querySelector('article');
  if (!col) return {};
  const width = col.clientWidth + 1;
  // drawn, and not inside a closed <details> (a hidden code cell: Chromium lays its content out unseen)
  const shown = e => e.getClientRects().length > 0 && !e.closest('details:not([open])');
  const where = e => (e.closest('[id]') || {}).id || '';
  const out = {merror: [], equations: [], code: [], tables: [], wide_tables: 0, n_tables: 0};
  document.querySelectorAll('mjx-merror').forEach(e => out.merror.push(e.textContent.slice(0, 120)));
  col.querySelectorAll('mjx-container[display="true"]').forEach(e => {
    const m = e.querySelector('mjx-math');
    const w = m ? m.getBoundingClientRect().width : 0;
    if (shown(e) && w > width) out.equations.push(`${Math.round(w - width)}px too wide, in #${where(e)}`);
  });
  col.querySelectorAll('pre').forEach(p => {
    if (shown(p) && p.scrollWidth > p.clientWidth + 1) {
      const line = p.innerText.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), '');
      out.code.push(`${p.scrollWidth - p.clientWidth}px too wide: ${line.slice(0, 60)}...`);
    }
  });
  col.querySelectorAll('table').forEach(t => {
    if (!shown(t)) return;
    out.n_tables += 1;
    const w = t.getBoundingClientRect().width;
    if (w <= width) return;
    out.wide_tables += 1;
    const box = t.closest('.table-scroll, .pst-scrollable-table-container');
    const first = t.querySelector('tbody tr td, tbody tr th');
    const hint = box && box.previousElementSibling;
    const head = (t.tHead ? t.tHead.innerText : '').replace(/\\s+/g, ' ').slice(0, 50);
    const faults = [];
    if (!box) faults.push('not in a scroll container (format_table, or a csv-table)');
    else {
      if (!box.classList.contains('is-wide')) faults.push('not marked wide');
      if (!hint || !hint.classList.contains('table-scroll-hint') || !shown(hint)) faults.push('no line saying it scrolls');
      if (!first || getComputedStyle(first).position !== 'sticky') faults.push('first column not pinned');
    }
    if (faults.length) out.tables.push(`${head}: ${faults.join(', ')}`);
  });
  return out;
}"""

#: Text of the article outside code blocks, inline code and MathJax included (file names are often in code).
_WORDS_JS = """() => {
  const art = document.querySelector('article') || document.body;
  const clone = art.cloneNode(true);
  clone.querySelectorAll('pre, script, style, mjx-container, .MathJax').forEach(e => e.remove());
  return clone.innerText;
}"""

#: Words of the project's history: issue numbers, revisions.  (A bare "#12" is a row of a table or a referee's
#: point, and stays.)
HISTORY = re.compile(r"\bissues? #?\d+|\bthis revision\b|\bbefore this (?:revision|change|commit)\b|\bpull request\b",
                     re.IGNORECASE)
#: File names a page may name: the repository's own (``DESIGN.md``, ``models/pipeline.py``).
FILE_NAME = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:md|py|cff|toml|ya?ml|ipynb))\b")

#: Elements whose right edge passes the column's, with no scrolling or clipping ancestor inside it.
_WIDE_JS = """() => {
  const col = document.querySelector('article.bd-article') || document.querySelector('article');
  if (!col) return [];
  const right = col.getBoundingClientRect().right + 1;
  const out = [];
  for (const el of col.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= right) continue;
    let a = el.parentElement, held = false;
    while (a && a !== col.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll') { held = true; break; }  // 'hidden' clips: that is the fault
      a = a.parentElement;
    }
    if (!held) out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '')
                        + ' ' + Math.round(r.right - right) + 'px');
  }
  return out.slice(0, 5);
}"""


def _chromium() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("headless Chromium is needed for the browser test: `apt-get install chromium` "
                    "(.ci/run does it), or set CHROMIUM=/path/to/chromium")
    return path


@pytest.fixture(scope="module")
def pages(quick_html):
    """Every page of the quick build, loaded once: ``{relative path: findings}``."""
    html, proc = quick_html
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    from playwright.sync_api import sync_playwright  # heavy, and only this test needs it

    shots = BUILD / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    first = {}
    for ch in CHAPTERS:
        chapter_pages = sorted((html / "book" / ch).glob("*.html"))
        if chapter_pages:
            first[ch] = next((p for p in chapter_pages if p.name != "index.html"), chapter_pages[0])
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
        log = {"console": [], "requests": []}
        page.on("console", lambda m: log["console"].append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: log["console"].append(str(e)))
        page.on("request", lambda r: log["requests"].append(r.url))
        page.on("requestfailed", lambda r: log["console"].append(f"failed to load {r.url}"))
        for path in sorted(html.rglob("*.html")):
            rel = path.relative_to(html).as_posix()
            if path.name in SKIP or rel.startswith(("_static/", "_sources/")):
                continue
            if 'http-equiv="refresh"' in path.read_text(errors="replace")[:2000].lower():
                continue  # the root index only redirects to the first page
            log["console"].clear()
            log["requests"].clear()
            page.goto(path.as_uri(), wait_until="load")
            if page.evaluate("() => !!document.querySelector('script[src*=\"mathjax\"]')"):  # pages with math
                page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                       timeout=30_000)
                page.evaluate("() => MathJax.startup.promise")
            images = page.evaluate("() => [...document.images].filter(i => !(i.complete && i.naturalWidth > 0))"
                                   ".map(i => i.getAttribute('src'))")
            found[rel] = {
                "console": list(log["console"]),
                "external": [u for u in log["requests"] if not u.startswith(("file:", "data:", "blob:"))],
                "broken images": images,
                "text": page.evaluate(_TEXT_JS),
                "wide": page.evaluate(_WIDE_JS),
                "fit": page.evaluate(_FIT_JS),
                "words": page.evaluate(_WORDS_JS),
            }
            for ch, p0 in first.items():
                if p0 == path:
                    page.screenshot(path=str(shots / f"{ch}.png"), full_page=False)
        browser.close()
    assert found, "no page found"
    return found


def _bad(pages, key):
    return {rel: f[key] for rel, f in pages.items() if f[key]}


def test_no_console_errors(pages):
    assert not _bad(pages, "console")


def test_no_request_leaves_the_book(pages):
    assert not _bad(pages, "external")


def test_every_image_loads(pages):
    assert not _bad(pages, "broken images")


def test_no_raw_tex_after_typesetting(pages):
    raw = {rel: [t for t in ("\\(", "\\[", "$") if t in f["text"]] for rel, f in pages.items()}
    assert not {rel: t for rel, t in raw.items() if t}


def test_nothing_wider_than_its_column(pages):
    assert not _bad(pages, "wide")


def test_a_screenshot_per_chapter(pages):
    for ch in CHAPTERS:
        assert (BUILD / "screenshots" / f"{ch}.png").exists(), ch


def _fit(pages, key):
    return {rel: f["fit"][key] for rel, f in pages.items() if f["fit"].get(key)}


def test_no_mathjax_error_box(pages):
    assert not _fit(pages, "merror"), "TeX that MathJax could not parse (raw TeX in a yellow box)"


def test_display_equations_fit_the_column(pages):
    assert not _fit(pages, "equations")


def test_shown_code_lines_fit_the_column(pages):
    assert not _fit(pages, "code")


def test_wide_tables_keep_their_labels_and_say_that_they_scroll(pages):
    assert not _fit(pages, "tables")
    wide = sum(f["fit"].get("wide_tables", 0) for f in pages.values())
    total = sum(f["fit"].get("n_tables", 0) for f in pages.values())
    print(f"{wide} of {total} tables are wider than the column (first column pinned, a line says they scroll)")


def test_no_words_from_the_projects_history(pages):
    found = {rel: [m.group(0) for m in HISTORY.finditer(f["words"])] for rel, f in pages.items()}
    assert not {rel: w for rel, w in found.items() if w}


def test_every_file_named_on_a_page_is_in_the_repository(pages):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    names = set(tracked) | {Path(t).name for t in tracked}
    names |= {str(Path(t).relative_to("book")) for t in tracked if t.startswith("book/")}
    missing = {}
    for rel, f in pages.items():
        bad = sorted({m.group(1) for m in FILE_NAME.finditer(f["words"]) if m.group(1) not in names})
        if bad:
            missing[rel] = bad
    assert not missing
