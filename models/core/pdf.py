"""The whole book as one PDF: ``python -m models.core.pdf`` (``make pdf``).

Jupyter Book's ``singlehtml`` builder renders every page of the book into
one HTML file (``_build/singlehtml/index.html``); headless Chromium, driven
by Playwright (PyPI ``playwright``, already needed by the browser test),
waits for MathJax to typeset it and prints it to ``_build/pdf/book.pdf``
(A4).  Jupyter Book's own ``--builder pdfhtml`` does the same but starts
Playwright's downloaded Chromium, which a machine without that download
(ours) does not have; here the system's Chromium is used: Debian's
``chromium`` package, or ``CHROMIUM=/path/to/chromium``.

Figures print at the book's column width (:mod:`models.core.plotting`:
7.5 in at 96 dpi = 720 CSS px), scaled to the A4 text width.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .paths import BUILD, ROOT

#: Page margins of the printed book.
MARGINS = {"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"}

#: Print style: no navigation, no header buttons, cells kept whole where they fit.
PRINT_CSS = """
.bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .header-article, .prev-next-area, .bd-footer,
.bd-header-article, #pst-back-to-top, .footer-article { display: none !important; }
.bd-main .bd-content .bd-article-container { max-width: 100% !important; }
div.cell_output, figure, img { break-inside: avoid; }
"""


def chromium() -> str:
    """Path of the system's Chromium (``CHROMIUM`` or ``chromium`` / ``chromium-browser`` on the PATH)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise SystemExit("make pdf needs headless Chromium: `apt-get install chromium`, "
                         "or set CHROMIUM=/path/to/chromium")
    return path


def build_singlehtml(root: Path = ROOT) -> Path:
    """Run ``jupyter-book build --builder singlehtml`` on the book at ``root``; returns its ``index.html``."""
    jb = Path(sys.executable).with_name("jupyter-book")
    subprocess.run([str(jb), "build", str(root), "--builder", "singlehtml"], check=True)
    return singlehtml_page(root)


def singlehtml_page(root: Path = ROOT) -> Path:
    """The one page of the ``singlehtml`` build, copied to the build's top folder as ``print.html``.

    The build's ``index.html`` only redirects to the root document
    (``book/intro.html``), whose links (``_static/``, ``_images/``) are
    relative to the top folder: the copy there resolves them.
    """
    top = root / "_build" / "singlehtml"
    index = top / "index.html"
    if not index.exists():
        raise SystemExit(f"no {index}: run jupyter-book build --builder singlehtml first")
    m = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index.read_text(), re.IGNORECASE)
    page = top / m.group(1) if m else index
    out = top / "print.html"
    out.write_text(page.read_text())
    return out


def print_pdf(html: Path, out: Path, *, timeout_ms: int = 120_000) -> Path:
    """Print ``html`` to ``out`` with headless Chromium after MathJax has typeset it."""
    from playwright.sync_api import sync_playwright

    out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(html.resolve().as_uri(), wait_until="load", timeout=timeout_ms)
        if page.evaluate("() => !!document.querySelector('script[src*=\"mathjax\"]')"):
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                   timeout=timeout_ms)
            page.evaluate("() => MathJax.startup.promise")
        page.add_style_tag(content=PRINT_CSS)
        page.emulate_media(media="print")
        page.pdf(path=str(out), format="A4", margin=MARGINS, print_background=True)
        browser.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.core.pdf", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=BUILD / "pdf" / "book.pdf", help="the PDF to write")
    ap.add_argument("--no-build", action="store_true", help="print the existing _build/singlehtml")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    html = singlehtml_page() if args.no_build else build_singlehtml()
    out = print_pdf(html, args.out)
    print(f"{out} ({out.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
