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

Two more readers' views:

* **the student edition** (``BOOK_EDITION=student``, built from the same executed notebooks): each exercises
  page shows every exercise with its title and typeset math, and no solution -- no solution box, none of the
  solutions' lines on the page or in the search index, no executed notebook or source of the page to download;
* **an exercises notebook in JupyterLab** (``make lab``'s student copy, served on 127.0.0.1 with a token,
  jupyterlab-myst rendering its MyST): each exercise shows its title, its math is typeset (KaTeX, no raw ``$``),
  no solution and no check of one is on the page, and nothing is loaded from outside (about 15 s).

One screenshot per chapter (its first page) is saved under
``_build/screenshots/`` so a person can look, and ``student-exercise.png`` and ``lab-exercise.png`` of those two.
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


# ----------------------------------------------------------------- an exercise notebook in JupyterLab
#: The exercises page opened in JupyterLab (its notebook to run, the student edition).
LAB_NOTEBOOK = "min_mva/06-exercises"

#: What the notebook shows once JupyterLab and jupyterlab-myst have rendered its markdown cells.
_LAB_JS = """() => {
  const cells = Array.from(document.querySelectorAll('.jp-MarkdownCell .myst'));
  const text = cells.map(c => {
    const k = c.cloneNode(true);
    k.querySelectorAll('code, pre, .katex, script, style').forEach(e => e.remove());
    return k.innerText;
  }).join('\\n');
  return {
    cells: cells.length,
    exercises: Array.from(document.querySelectorAll('aside.myst-exercise')).map(a => a.innerText.split('\\n')[0]),
    katex: document.querySelectorAll('.jp-MarkdownCell .katex').length,
    errors: document.querySelectorAll('.jp-MarkdownCell .myst .katex-error').length,
    text: text,
    page: document.body.innerText,
  };
}"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab_page(tmp_path_factory):
    """The student edition of an exercises notebook opened in JupyterLab (jupyterlab-myst renders its markdown):
    JupyterLab on 127.0.0.1 with a token, its settings in a temporary folder, driven by headless Chromium.
    Returns ``(findings, the notebook's source)``; a screenshot goes to ``_build/screenshots/lab-exercise.png``."""
    import json
    import secrets
    import sys
    import time
    import urllib.request

    from models import classroom

    lab = Path(sys.executable).with_name("jupyter-lab")
    if not lab.exists():
        pytest.fail(f"no {lab}: JupyterLab and jupyterlab-myst are pinned in requirements.txt (`make deps`)")
    base = tmp_path_factory.mktemp("lab")
    notebooks, home = base / "notebooks", base / "home"
    assert classroom.main([LAB_NOTEBOOK, "--out", str(notebooks)]) == 0
    settings = home / "settings"
    for name, value in {"notebook-extension/tracker": {"windowingMode": "none"},  # every cell in the page
                        "apputils-extension/notification": {"fetchNews": "false"}}.items():
        path = settings / "@jupyterlab" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"), "PYTHONPATH": str(ROOT)}
    args = [str(lab), "--ip=127.0.0.1", f"--port={port}", "--no-browser", f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={notebooks}", "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    log = (base / "lab.log").open("w")
    server = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start:\n" + (base / "lab.log").read_text()[-3000:])
                time.sleep(0.5)
        from playwright.sync_api import sync_playwright  # heavy, and only the browser tests need it

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
            requests = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{LAB_NOTEBOOK}.ipynb?token={token}", wait_until="load")
            page.wait_for_selector("aside.myst-exercise", timeout=60_000)
            # jupyterlab-myst renders the cells one by one: every exercise of the source, not only the first
            n = sum("{exercise}" in "".join(c["source"])
                    for c in json.loads((ROOT / "notebooks" / f"{LAB_NOTEBOOK}.ipynb").read_text())["cells"])
            page.wait_for_function(f"() => document.querySelectorAll('aside.myst-exercise').length >= {n}",
                                   timeout=60_000)
            page.wait_for_function("() => document.querySelectorAll('.jp-MarkdownCell .katex').length > 0",
                                   timeout=30_000)
            found = page.evaluate(_LAB_JS)
            found["requests"] = [u for u in requests if not u.startswith(f"http://127.0.0.1:{port}/")]
            page.evaluate("() => document.querySelector('aside.myst-exercise').scrollIntoView({block: 'center'})")
            time.sleep(0.5)
            shots = BUILD / "screenshots"
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / "lab-exercise.png"))
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    return found, ROOT / "notebooks" / f"{LAB_NOTEBOOK}.ipynb"


def _solution_lines(source: Path) -> list[str]:
    """A line of every cell the student edition leaves out (each solution's cells, the checks after them)."""
    import json

    from models import classroom

    cells = json.loads(source.read_text())["cells"]
    kept, _ = classroom.without_solutions(cells)
    kept_sources = {"".join(c["source"]) for c in kept}
    lines = []
    for cell in cells:
        text = "".join(cell["source"])
        if text in kept_sources or "{solution-start}" in text.split("\n")[0]:
            continue
        body = [ln.strip() for ln in text.splitlines() if len(ln.strip()) > 20 and "{solution" not in ln
                and "$" not in ln and "`" not in ln]
        lines += body[:1]
    return lines


def test_jupyterlab_renders_the_exercises_without_their_solutions(lab_page):
    """``make lab``'s notebooks in JupyterLab: each exercise shows its title (jupyterlab-myst), its math is typeset
    (KaTeX, no raw ``$``), no solution and no check of one is on the page, and nothing is loaded from outside."""
    import json

    found, source = lab_page
    exercises = sum("{exercise}" in "".join(c["source"]) for c in json.loads(source.read_text())["cells"])
    titles = found["exercises"]
    assert len(titles) == exercises and all(re.match(r"Exercise \d+ \((Read|Run|Extend)", t) for t in titles), titles
    assert any("Read (20 min): from eq. (1) to Kruskal and Snir" in t for t in titles), titles
    assert found["katex"] > 10 and found["errors"] == 0
    assert "$" not in found["text"], [ln for ln in found["text"].splitlines() if "$" in ln][:5]
    assert "Solution" not in found["page"]
    lines = _solution_lines(source)
    assert len(lines) >= 8, lines  # the check below looks for something
    assert not [ln for ln in lines if ln in found["page"]]
    assert "cycles: int = 20000" in found["page"]  # a cell that stays is found the same way
    assert not found["requests"], found["requests"][:5]


# ----------------------------------------------------------------- the student edition's HTML
#: Each exercises page of the student edition, as a reader sees it: the exercises' titles, the text of the page
#: (code cells and the run box included), MathJax's errors, and raw TeX left outside code.
_STUDENT_JS = """() => {
  const art = document.querySelector('article') || document.body;
  const clone = art.cloneNode(true);
  clone.querySelectorAll('pre, code, script, style, mjx-container, .highlight').forEach(e => e.remove());
  return {
    exercises: Array.from(document.querySelectorAll('div.exercise .admonition-title')).map(t => t.innerText.trim()),
    solutions: document.querySelectorAll('div.solution, .solution-title').length,
    math: art.querySelectorAll('mjx-container').length,
    merror: document.querySelectorAll('mjx-merror').length,
    prose: clone.innerText,
    text: art.innerText,
  };
}"""


def student_edition_findings(html: Path) -> dict:
    """Every exercises page of a student edition's HTML build ``html``, opened in headless Chromium:
    ``{relative path: findings}`` (:data:`_STUDENT_JS`, and the page's download menu)."""
    from playwright.sync_api import sync_playwright  # heavy, and only the browser tests need it

    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
        log = []
        page.on("console", lambda m: log.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: log.append(str(e)))
        page.on("request", lambda r: None if r.url.startswith(("file:", "data:", "blob:")) else log.append(r.url))
        for path in sorted(html.glob("book/*/*-exercises.html")):
            log.clear()
            page.goto(path.as_uri(), wait_until="load")
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                   timeout=30_000)
            page.evaluate("() => MathJax.startup.promise")
            found[path.relative_to(html).as_posix()] = {**page.evaluate(_STUDENT_JS), "console": list(log)}
            if path.parent.name == "min_mva":
                (BUILD / "screenshots").mkdir(parents=True, exist_ok=True)
                page.evaluate("() => document.querySelector('div.exercise').scrollIntoView({block: 'start'})")
                page.screenshot(path=str(BUILD / "screenshots" / "student-exercise.png"))
        browser.close()
    return found


def solution_lines(source: Path) -> list[str]:
    """A line of prose or code from every cell of ``source`` the student edition leaves out (a solution's)."""
    return _solution_lines(source)


@pytest.fixture(scope="module")
def student_html(quick_book, tmp_path_factory):
    """The student edition of the quick book (``BOOK_EDITION=student``), built beside the full one's folder."""
    import sys

    site, _, failures = quick_book
    assert failures == 0
    out = tmp_path_factory.mktemp("student")
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(site), "--path-output", str(out), "-n", "-W", "--keep-going"],
                          capture_output=True, text=True, timeout=900, env={**os.environ, "BOOK_EDITION": "student"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out / "_build" / "html"


def test_the_student_edition_shows_the_exercises_and_no_solution(student_html):
    """Each exercises page of the student edition: every exercise with its title and typeset math, no solution
    (no solution box, none of the solutions' lines), no executed notebook or source of the page to download, and
    the search index without the solutions."""
    check_student_edition(student_html)


def check_student_edition(html: Path) -> None:
    found = student_edition_findings(html)
    from models import pipeline

    pages = [f"book/{c}/{n}.html" for c, n, _ in pipeline.notebook_sources() if n.endswith("-exercises")]
    assert sorted(found) == sorted(pages)
    search = (html / "searchindex.js").read_text()
    for rel, f in found.items():
        chapter, name = Path(rel).parent.name, Path(rel).stem
        source = ROOT / "notebooks" / chapter / f"{name}.ipynb"
        titles = f["exercises"]
        assert len(titles) >= 3 and all(re.match(r"Exercise [\d.]+ \((Read|Run|Extend)", t) for t in titles), titles
        assert f["solutions"] == 0 and f["math"] > 0 and f["merror"] == 0, rel
        assert not f["console"], (rel, f["console"][:5])  # no console error, no request leaving the book
        assert not [t for t in ("\\(", "\\[", "$") if t in f["prose"]], rel
        lines = solution_lines(source)
        assert len(lines) >= 5, (rel, lines)
        assert not [ln for ln in lines if ln in f["text"]], rel
        assert not [ln for ln in lines if ln[:30] in search], rel
        assert not list(html.glob(f"_sources/book/{chapter}/{name}.*")), rel
        page = (html / rel).read_text()
        assert "download-executed-button" not in page and "download-student-button" in page
