"""The quick book in a real browser: headless Chromium over every page.

Driven by Playwright (PyPI ``playwright``) with the system's Chromium
(Debian's ``chromium`` package; ``.ci/run`` installs it when it is missing,
``CHROMIUM=/path/to/chromium`` points elsewhere).  For every HTML page of the
quick build it checks:

* no console error;
* no request leaves the book (only ``file:`` and ``data:`` URLs);
* every image loaded;
* no raw TeX left after MathJax has typeset the page (no ``\\(``, ``\\[`` or
  ``$`` in the rendered text outside code);
* no element wider than the page's column outside a scroll container.

One screenshot per chapter (its first page) is saved under
``_build/screenshots/`` so a person can look.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from models import CHAPTERS
from models.core.paths import BUILD

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
