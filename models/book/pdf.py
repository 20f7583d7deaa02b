"""The whole book as one PDF: ``python -m models.book.pdf`` (``make pdf``).

Jupyter Book's ``singlehtml`` builder renders every page of the book into
one HTML file (``_build/singlehtml/index.html``); headless Chromium, driven
by Playwright (PyPI ``playwright``, already needed by the browser test),
waits for MathJax to typeset it, prepares the page for paper (below) and
prints it to ``_build/pdf/book.pdf`` (A4).  Jupyter Book's own ``--builder
pdfhtml`` does the same but starts Playwright's downloaded Chromium, which a
machine without that download (ours) does not have; here the system's
Chromium is used: Debian's ``chromium`` package, or ``CHROMIUM=/path/to/chromium``.

What the printed book has that the web page has not, all done in the page
before printing (:data:`PRINT_CSS`, :data:`PREPARE_JS`, :data:`FIT_JS`):

* **A title page** (title, authors, version and release date from
  ``CITATION.cff``, the commit the book is printed from) and **a table of
  contents**: the parts of ``_toc.yml``, their chapters and each chapter's
  pages, as links into the PDF, with page numbers.  The numbers come from a
  first print: :func:`heading_pages` reads where Chromium's bookmarks point
  (pypdf), and the book is printed again with the numbers filled in (their
  room is kept in the first print, so nothing moves).
* **Bookmarks**, one per heading: part (a heading inserted before the
  first chapter of each part of ``_toc.yml``) > chapter > page > section,
  the parts open.  Chromium writes them (``page.pdf(outline=True)``) only
  into a tagged PDF, three times the size of an untagged one, so the first
  print is tagged and read for its bookmarks (:func:`outline_tree`), and
  the book is the second print, untagged, with those bookmarks written in
  by :func:`write_outline` (pypdf; same layout, so the same places), each
  titled by its heading's own text (Chromium's titles drop the space at a
  line break and repeat some words; math reads ``S_mm = 1``).  A part or
  a chapter starts a new sheet; the pages of a chapter follow on.
* **Page numbers and a running footer** (the title, the version, "page n of
  N") in Chromium's footer template; no header.  The page is laid out
  at :data:`SCALE` (16 px text prints at about 10 pt).
* **Nothing cut at either edge.**  Nothing scrolls on paper, so every
  scroll box is opened (``overflow: visible``) and what it held is fitted:
  code (inputs, outputs, every ``pre``) is *wrapped* (``white-space:
  pre-wrap``, breaking inside a word only when it is longer than the line),
  so every character stays at its size; table cells and headers may wrap
  (a header also after ``/`` and ``_``); a table still too wide to print at
  :data:`SPLIT_BELOW` zoom is *split* into groups of columns, each under the
  table's row key (the pandas index; else the fewest leading columns, up to
  :data:`SPLIT_MAX_KEYS`, that tell the rows apart: "torus" alone repeats
  on the book's tables, "torus, curve" names a row), so every continuation
  can be read on its own, with a caption "The table above, continued:
  columns 9-16 of 16 (with the first 2 columns repeated)"; whatever is
  still wider than the box it sits in (a table, a display equation --
  MathJax's ``mjx-container[display="true"]``, measured glyph by glyph, as a
  numbered equation is centred in a full-width box and spills out on *both*
  sides --, an image) is *scaled* with CSS ``zoom`` = available width / its
  width.  The report lists what was split and scaled (the smallest zoom: a
  SymPy expression of a full line can print at 0.4).  A last pass
  (:data:`CLIPPED_JS`) lists anything that still passes either edge of the
  column or is clipped by its own box (``clipped``; a warning, and the test
  requires none).
* **Links that work on paper**: every ``<a href>`` that resolves to a
  ``file://`` URL (the web book's links between its pages, its downloads,
  images' links to their own files) is rewritten to the anchor inside the
  page when its fragment is there (a citation to its entry in the
  bibliography, an id used on several web pages to the one on the link's
  own page, each such target given a unique id), otherwise it is unlinked
  (its text stays); no ``file://`` link is left in the PDF.  Links to
  ``http(s)`` stay.
* **MathJax errors fail the print**: a TeX error renders as a yellow box
  with the raw TeX (``mjx-merror``); :func:`print_pdf` counts them and
  raises :class:`MathErrors` naming each one and its web page (``make pdf``
  exits 1 and writes no PDF), unless ``allow_math_errors``
  (``--allow-math-errors``, ``make pdf PDF_ARGS=--allow-math-errors``),
  which prints anyway and warns on stderr.  A PDF is shared, read offline
  and never rebuilt by its reader: it should not carry raw TeX silently.
* Code a reader does not need, hidden on the web page (``hide-input``), is
  left out of the print; ``--code hidden`` (``make pdf CODE=hidden``) leaves
  out every code cell (its outputs, figures and tables stay): a book to read
  on paper, ``book-nocode.pdf``.

**Editions** (:data:`EDITIONS`, ``--edition``, ``make pdf EDITION=...``):
``full`` prints the book as the web shows it (each solution under its
exercise), ``_build/pdf/book.pdf``; ``student`` prints the student edition
(built with ``BOOK_EDITION=student`` into ``_build/student/``: no solution
anywhere, ``book/_ext/compendium.py``), ``book-student.pdf``; ``solutions``
prints, from the full edition, only the chapters' exercises pages (every
page that holds a solution), each under its chapter's title, for an
instructor: ``solutions.pdf``.  The title page and every footer name the
edition.

Figures keep their size on the web page (:mod:`models.core.plotting`: 7.5 in
at 96 dpi = 720 CSS px): 152 mm of the 182 mm text width at :data:`SCALE`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import html as _html
import io
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

from ..core.cache import atomic_write_bytes
from ..core.errors import ParameterError
from ..core.paths import ROOT, git_commit, read_regular, safe_destination, writable_folder

#: The printed editions (module docstring) and the file name each prints to by default (``-nocode`` added for
#: ``--code hidden``).
EDITIONS = {"full": "book", "student": "book-student", "solutions": "solutions"}
#: What each edition says on its title page and in its footer.
EDITION_TITLES = {"full": "", "student": "Student edition (no solutions)",
                  "solutions": "Solutions to the exercises (for the instructor)"}
#: ``--code``: the code cells printed (``shown``) or left out (``hidden``; their outputs stay).
CODES = ("shown", "hidden")

#: Page size and margins of the printed book (the bottom margin holds the footer).
FORMAT = "A4"
PAGE_MM = (210, 297)
MARGINS = {"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"}
#: A table that would print at less than this zoom is split into groups of columns, each printed at
#: ``SPLIT_ZOOM`` or more (under its key columns); anything else too wide is zoomed down to fit.
SPLIT_BELOW = 0.7
SPLIT_ZOOM = 0.85
#: The most leading columns repeated as a split table's row key (:data:`FIT_JS`).
SPLIT_MAX_KEYS = 4
#: The print scale: the web page's 16 px text prints at 0.8 x 12 pt, about 10 pt (Chromium's ``scale``).
SCALE = 0.8
#: Width of the text column in CSS px (96 px per inch, before the scale): the width Chromium lays the page out at.
COLUMN_PX = round((PAGE_MM[0] - 28) / 25.4 * 96 / SCALE)

#: Print style: no navigation or buttons, a part or chapter on a new sheet, code wrapped, nothing scrolls.
PRINT_CSS = """
.bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .header-article, .prev-next-area, .bd-footer,
.bd-header-article, #pst-back-to-top, .footer-article, #jb-print-docs-body, .bd-footer-article, .bd-footer-content,
.toggle-button, button.toggle-button, .copybtn, a.headerlink { display: none !important; }
html, body { background: #fff !important; }
.bd-main .bd-content .bd-article-container { max-width: 100% !important; }
.bd-container, .bd-container__inner, .bd-main, .bd-main .bd-content, .bd-article-container, .bd-article {
  min-width: 0 !important; }
.bd-main .bd-content { margin-left: 0 !important; }
.bd-main .bd-content .bd-article-container .bd-article { padding-left: 0 !important; padding-right: 0 !important; }
/* the theme's print style hides the first h1 of each block (it prints its own); the book needs them */
.bd-main .bd-content .bd-article h1:first-of-type { display: block !important; }
.bd-article h1 { font-size: 2em; }
/* a cell or a figure is kept on one sheet when it fits; the code in it may break (no empty box left behind) */
div.cell_input, div.cell_output, figure, img, mjx-container[display="true"], tr { break-inside: avoid; }
pre, div.highlight { break-inside: auto !important; }
h1, h2, h3, h4, h5 { break-after: avoid; }
.pdf-page-start { break-before: page; }
.pdf-web-page { margin-top: 2.5em; }
/* code: wrapped, never cut */
pre, pre code, .highlight pre, div.output pre, .cell_output pre {
  white-space: pre-wrap !important; overflow-wrap: anywhere !important; word-break: normal !important; }
/* nothing scrolls on paper: a scroll box would cut its content */
.pst-scrollable-table-container, .table-scroll, .table-wrapper, div.cell_output, div.output, .output_area,
div.highlight, pre, div.math, .math-wrapper, mjx-container, .MathJax, .bd-article-container,
div.cell.tag_output_scroll div.cell_output, div.cell.tag_scroll-output div.cell_output {
  overflow: visible !important; max-height: none !important; }
.table-scroll { background: none !important; }
/* the theme centres display math in a flex box, which places a zoomed equation off-centre: a plain block */
div.math { display: block !important; }
th, td { white-space: normal !important; }
td blockquote, th blockquote { margin: 0 !important; padding: 0 !important; border: 0 !important; }
caption.pdf-continued { caption-side: top; text-align: left; font-style: italic; font-size: 0.9em; }
/* code a reader does not need is hidden on the page (hide-input): it stays out of the print */
details.hide:not([open]), details.above-input:not([open]), details.below-input:not([open]) { display: none !important; }
/* the title page and the contents */
.pdf-titlepage { break-after: page; text-align: center; padding-top: 32mm; }
.pdf-titlepage .pdf-title { font-size: 2.1em; font-weight: 600; line-height: 1.25; margin: 0 0 10mm; }
.pdf-titlepage .pdf-authors { font-size: 1.25em; margin-bottom: 16mm; }
.pdf-titlepage table { margin: 0 auto; font-size: 1.05em; border: 0; }
.pdf-titlepage td { padding: 1.5mm 3mm; border: 0; text-align: left; }
.pdf-titlepage td:first-child { color: #555; text-align: right; }
.pdf-titlepage .pdf-note { margin-top: 24mm; color: #555; font-size: 0.9em; }
.pdf-contents { break-after: page; }
.pdf-contents ol { list-style: none; padding-left: 0; margin: 0; }
.pdf-contents li { margin: 0; }
.pdf-contents .pdf-toc-part { font-weight: 600; margin-top: 4mm; font-size: 1.05em; }
.pdf-contents .pdf-toc-chapter { font-weight: 600; margin-top: 1.5mm; }
.pdf-contents .pdf-toc-section { padding-left: 7mm; font-size: 0.95em; }
.pdf-contents a { display: flex; color: inherit !important; text-decoration: none !important; }
.pdf-contents .pdf-toc-title { flex: 0 1 auto; }
.pdf-contents .pdf-toc-dots { flex: 1 1 auto; border-bottom: 1px dotted #999; margin: 0 2mm 0.35em; }
.pdf-contents .pdf-toc-page { flex: 0 0 auto; font-variant-numeric: tabular-nums; min-width: 2.2em; text-align: right; }
.pdf-part-heading { text-align: left; font-size: 2.2em !important; margin-top: 30mm !important; }
"""

#: Added to :data:`PRINT_CSS` for ``--code hidden``: no code cell's input, its outputs kept.
NO_CODE_CSS = """
div.cell > div.cell_input, div.cell > details.above-input, div.cell > details.hide.above-input {
  display: none !important; }
"""

#: Chromium's footer: the title, the version, the page number (``pageNumber``/``totalPages`` are filled in by Chromium).
FOOTER = """<div style="width:100%; margin:0 14mm; font:9px sans-serif; color:#555; display:flex;
justify-content:space-between; -webkit-print-color-adjust:exact"><span>{title} &middot; version {version}{edition}</span>
<span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>"""
HEADER = "<span></span>"

#: Everything done to the page before printing; returns a report (see :func:`print_pdf`).
PREPARE_JS = r"""
(meta) => {
  const report = {links_internal: 0, links_unlinked: 0, links_external: 0, scaled: [], min_zoom: 1,
                  math_errors: [], clipped: [], toc: []};
  const article = document.querySelector('article.bd-article') || document.querySelector('article') || document.body;
  const esc = s => String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));

  // -- the solutions edition: only the web pages that hold a solution, each under its chapter's title
  if (meta.edition === 'solutions') {
    const keep = [];
    for (const span of document.querySelectorAll('span[id^="document-"]')) {
      const sec = span.nextElementSibling;
      if (!sec || sec.tagName !== 'SECTION' || !sec.querySelector('div.solution')) continue;
      if (Array.from(sec.querySelectorAll('span[id^="document-"]')).some(
          s => s.nextElementSibling && s.nextElementSibling.querySelector('div.solution'))) continue;  // a chapter
      const chapterSec = span.parentElement && span.parentElement.closest('section');  // the page's chapter
      const ch = chapterSec && chapterSec.querySelector(':scope > h1, :scope > h2');
      keep.push({span, sec, chapter: ch ? ch.cloneNode(true) : null});
    }
    article.innerHTML = '';
    const top = document.createElement('section');
    top.id = 'pdf-root';
    const h1 = document.createElement('h1');
    h1.textContent = 'Solutions to the exercises';
    top.append(h1);
    const p = document.createElement('p');
    p.textContent = 'Every chapter\'s exercises page of the full edition, each solution under its exercise: '
      + 'the instructor\'s copy of what the student edition leaves out.';
    top.append(p);
    article.append(top);
    for (const k of keep) {
      const h = k.sec.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4');
      if (h) {  // a chapter's heading, so that the page starts a sheet and the contents name its chapter
        const h2 = document.createElement('h2');
        for (const a of Array.from(h.attributes)) h2.setAttribute(a.name, a.value);
        k.chapter && k.chapter.querySelectorAll('a.headerlink').forEach(a => a.remove());
        h2.textContent = (k.chapter ? k.chapter.textContent.replace(/\s+/g, ' ').trim() + ': ' : '')
          + h.textContent.replace(/[#¶]/g, '').trim();
        h.replaceWith(h2);
      }
      top.append(k.span, k.sec);
    }
    meta.parts = [];
    report.solution_pages = keep.length;
  }

  // -- the web page each element belongs to (the singlehtml marks each with <span id="document-...">)
  const docOf = new Map();
  let doc = meta.root;
  for (const el of document.querySelectorAll('body *')) {
    if (el.id && el.id.startsWith('document-')) doc = el.id.slice('document-'.length);
    docOf.set(el, doc);
  }

  // -- MathJax errors: counted, with their page and their TeX
  for (const e of document.querySelectorAll('mjx-merror')) {
    const msg = e.getAttribute('data-mjx-error') || 'TeX error', tex = (e.textContent || '').trim();
    report.math_errors.push({page: docOf.get(e) || meta.root, error: (msg + ': ' + tex).slice(0, 240)});
  }

  // -- a chapter starts a new sheet: each web page's marker moves into its section (a link to it lands there)
  for (const span of document.querySelectorAll('span[id^="document-"]')) {
    const sec = span.nextElementSibling;
    if (!sec || sec.tagName !== 'SECTION') continue;
    sec.prepend(span);
    const h = sec.querySelector(':scope > h1, :scope > h2');  // a chapter starts a sheet, its pages follow on
    sec.classList.add(h ? 'pdf-page-start' : 'pdf-web-page');
  }

  // -- links: file:// ones to their anchor in this page, else unlinked
  for (const a of document.querySelectorAll('a.headerlink')) a.remove();
  const byId = new Map();
  for (const el of document.querySelectorAll('[id]')) {
    if (!byId.has(el.id)) byId.set(el.id, []);
    byId.get(el.id).push(el);
  }
  const pick = (frag, a) => {
    const cands = byId.get(frag);
    if (!cands) return null;
    if (cands.length === 1) return cands[0];
    if (a.closest('.bibtex-citation, [role="doc-biblioref"]')) {  // a citation: its entry in the bibliography
      const entry = cands.find(c => c.matches('[role="doc-biblioentry"], .citation'));
      if (entry) return entry;
    }
    const mine = docOf.get(a);
    return cands.find(c => docOf.get(c) === mine) || cands[0];
  };
  const unlink = a => {
    const span = document.createElement('span');
    span.className = a.className;
    while (a.firstChild) span.appendChild(a.firstChild);
    a.replaceWith(span);
  };
  const targets = [];
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    let url;
    try { url = new URL(a.getAttribute('href'), document.baseURI); } catch (e) { unlink(a); report.links_unlinked++; continue; }
    if (url.protocol !== 'file:') { report.links_external++; continue; }
    let frag = url.hash.slice(1);
    try { frag = decodeURIComponent(frag); } catch (e) {}
    const t = frag ? pick(frag, a) : null;
    if (t) targets.push([a, t]); else { unlink(a); report.links_unlinked++; }
  }
  // an id used twice: every element but the first gets its own id, so that a link lands on the one it means
  let n = 0;
  for (const [id, els] of byId) for (const el of els.slice(1)) el.id = id + '--' + (++n);
  for (const [a, t] of targets) { a.setAttribute('href', '#' + t.id); report.links_internal++; }

  // -- parts: a heading before the first chapter of each part of _toc.yml
  const partOf = {};
  for (const part of meta.parts) {
    if (!part.caption || !part.files.length) continue;
    const first = document.getElementById('document-' + part.files[0]);
    const sec = first && first.closest('section');
    if (!sec) continue;
    const div = document.createElement('div');
    div.className = 'pdf-part pdf-page-start';
    div.id = 'pdf-part-' + meta.parts.indexOf(part);
    div.innerHTML = '<h1 class="pdf-part-heading">' + esc(part.caption) + '</h1>';
    sec.classList.remove('pdf-page-start', 'pdf-web-page');
    sec.before(div);
    partOf[part.files[0]] = div.id;
  }

  // -- the contents: parts, chapters (h2 web pages) and their pages (h3 web pages)
  const heading = sec => sec && sec.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4');
  const mathText = n => {  // MathML as plain text: S_mm = 1, 2×2
    const kids = Array.from(n.children);
    const t = n.tagName.toLowerCase();
    if (!kids.length) return t === 'mo' && /^[=<>≤≥+−±→]$/.test(n.textContent.trim()) ? ' ' + n.textContent.trim() + ' '
                                                                                    : n.textContent;
    if (t === 'msub' || t === 'munder') return mathText(kids[0]) + '_' + mathText(kids[1]);
    if (t === 'msup' || t === 'mover') return mathText(kids[0]) + '^' + mathText(kids[1]);
    if (t === 'msubsup' || t === 'munderover') return mathText(kids[0]) + '_' + mathText(kids[1]) + '^' + mathText(kids[2]);
    if (t === 'mfrac') return mathText(kids[0]) + '/' + mathText(kids[1]);
    return kids.map(mathText).join('');
  };
  const title = h => {
    const c = h.cloneNode(true);
    c.querySelectorAll('mjx-container').forEach(m => {
      const mml = m.querySelector('mjx-assistive-mml math');
      m.replaceWith(document.createTextNode(mml ? mathText(mml) : m.textContent));
    });
    c.querySelectorAll('script, style, .headerlink').forEach(x => x.remove());
    return c.textContent.replace(/\s+/g, ' ').trim();
  };
  const entries = [];
  const rootSec = article.querySelector('section');
  if (rootSec && heading(rootSec)) {
    rootSec.id = rootSec.id || 'pdf-root';
    entries.push({kind: 'chapter', id: rootSec.id, text: title(heading(rootSec)), h: heading(rootSec)});
  }
  for (const span of document.querySelectorAll('span[id^="document-"]')) {
    const file = span.id.slice('document-'.length);
    if (partOf[file]) {
      const part = meta.parts.find(p => p.files[0] === file);
      const div = document.getElementById(partOf[file]);
      entries.push({kind: 'part', id: partOf[file], text: part.caption, h: div.querySelector('h1')});
    }
    const h = heading(span.closest('section'));
    if (!h) continue;
    entries.push({kind: h.tagName === 'H3' || h.tagName === 'H4' ? 'section' : 'chapter', id: span.id, text: title(h),
                  h: h});
  }
  const nav = document.createElement('nav');
  nav.className = 'pdf-contents';
  nav.id = 'pdf-contents';
  nav.innerHTML = '<h1>Contents</h1><ol>' + entries.map(e =>
      '<li class="pdf-toc-' + e.kind + '"><a href="#' + esc(e.id) + '"><span class="pdf-toc-title">' + esc(e.text)
      + '</span><span class="pdf-toc-dots"></span><span class="pdf-toc-page" data-dest="' + esc(e.id)
      + '" style="visibility:hidden">000</span></a></li>').join('') + '</ol>';

  // -- the title page
  const tp = document.createElement('div');
  tp.className = 'pdf-titlepage';
  tp.innerHTML = '<div class="pdf-title">' + esc(meta.title) + '</div>'
    + '<div class="pdf-authors">' + esc(meta.authors) + '</div><table>'
    + '<tr><td>Version</td><td>' + esc(meta.version) + '</td></tr>'
    + '<tr><td>Released</td><td>' + esc(meta.date) + '</td></tr>'
    + '<tr><td>Commit</td><td><code>' + esc(meta.commit) + '</code></td></tr>'
    + (meta.license ? '<tr><td>Licence</td><td>' + esc(meta.license) + '</td></tr>' : '')
    + (meta.edition_title ? '<tr><td>Edition</td><td>' + esc(meta.edition_title) + '</td></tr>' : '')
    + (meta.code === 'hidden' ? '<tr><td>Code</td><td>left out (the code cells\' outputs are printed)</td></tr>' : '')
    + '</table><div class="pdf-note">Printed on ' + esc(meta.printed)
    + ' from the HTML book (Jupyter Book, headless Chromium).<br>The book is executable: every number, figure and '
    + 'table is regenerated by <code>make book</code>.</div>';
  article.prepend(nav);
  article.prepend(tp);

  // -- every heading that prints, in order: Chromium's outline has one bookmark for each
  const hs = Array.from(article.querySelectorAll('h1, h2, h3, h4, h5, h6')).filter(h => h.getClientRects().length);
  report.headings = hs.map(title);
  report.toc = entries.map(e => ({kind: e.kind, id: e.id, text: e.text, heading: hs.indexOf(e.h)}));
  return report;
}
"""

#: Fit every element to its column (returns what it did): a table too wide even at :data:`SPLIT_BELOW` zoom is
#: split into column groups; then whatever is wider than the box it sits in is zoomed down to fit.
FIT_JS = r"""
(opts) => {
  const article = document.querySelector('article.bd-article') || document.querySelector('article') || document.body;
  const colRight = () => article.getBoundingClientRect().right;
  const label = el => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
                      ? '.' + el.className.trim().split(/\s+/)[0] : '');
  const room = el => {  // the right edge of the content box el must stay inside
    let p = el.parentElement;
    while (p && getComputedStyle(p).display.startsWith('inline')) p = p.parentElement;
    if (!p) return colRight();
    const r = p.getBoundingClientRect(), cs = getComputedStyle(p);
    return Math.min(r.right - parseFloat(cs.paddingRight || 0) - parseFloat(cs.borderRightWidth || 0), colRight());
  };
  const extent = el => {  // [left, right] of what el draws, content spilling out of its box included
    const r = el.getBoundingClientRect();
    let left = r.left, right = r.right;
    if (el.tagName === 'MJX-CONTAINER') {
      // every glyph of the typeset equation (not MathJax's hidden copy for screen readers): a numbered equation
      // is centred in a full-width box, so it spills out on both sides
      for (const c of el.querySelectorAll('mjx-math *:not(mjx-assistive-mml, mjx-assistive-mml *)')) {
        const cr = c.getBoundingClientRect();
        if (cr.width === 0) continue;
        left = Math.min(left, cr.left);
        right = Math.max(right, cr.right);
      }
    } else if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      right = Math.max(right, r.left + el.scrollWidth * (r.width / (el.offsetWidth || r.width || 1)));
    }
    return [left, right];
  };

  // -- header cells may break after / and _ (a column named sat_model [messages/node/cycle] need not be that wide)
  for (const th of article.querySelectorAll('th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) if (/[\/_]/.test(walker.currentNode.nodeValue)) nodes.push(walker.currentNode);
    for (const t of nodes) {
      const parts = t.nodeValue.split(/(?<=[\/_])/);
      const frag = document.createDocumentFragment();
      parts.forEach((p, i) => { frag.append(p); if (i < parts.length - 1) frag.append(document.createElement('wbr')); });
      t.replaceWith(frag);
    }
  }

  // -- a table too wide to print at SPLIT_BELOW zoom: its columns in groups, each group under the key columns
  const splits = [];
  for (const t of Array.from(article.querySelectorAll('table'))) {
    if (t.closest('td, th, .pdf-contents, .pdf-titlepage')) continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;
    const avail = room(t) - r.left, width = Math.max(r.width, t.scrollWidth);
    if (width * opts.splitBelow <= avail) continue;
    const rows = Array.from(t.rows);
    if (!rows.length || t.querySelector('[colspan]:not([colspan="1"]), [rowspan]:not([rowspan="1"]), table')) continue;
    const n = rows[0].cells.length;
    if (n < 3 || rows.some(row => row.cells.length !== n)) continue;
    const body = Array.from(t.tBodies).flatMap(b => Array.from(b.rows));
    const w = Array.from(rows[0].cells).map(c => c.getBoundingClientRect().width);
    // the row's key, repeated before every group: the index cells (th) of pandas' markup; else the fewest leading
    // columns that tell the rows apart (the book's tables have no index: "torus" alone repeats, "torus, curve"
    // names a row), at most opts.maxKeys of them and half the room
    let keys = 0;
    while (keys < n - 2 && body.length && body.every(row => row.cells[keys].tagName === 'TH')) keys++;
    if (!keys && body.length) {
      const distinct = k => new Set(body.map(row => Array.from(row.cells).slice(0, k)
                                                     .map(c => c.textContent.trim()).join('\u0001'))).size;
      const most = Math.max(1, Math.min(opts.maxKeys, n - 2));
      let best = 1, bestCount = distinct(1);
      for (let k = 2; k <= most && bestCount < body.length; k++) {
        const c = distinct(k);
        if (c > bestCount) { best = k; bestCount = c; }
      }
      keys = best;
      const half = (room(t) - r.left) / opts.splitZoom / 2;
      while (keys > 1 && w.slice(0, keys).reduce((a, b) => a + b, 0) > half) keys--;
    }
    keys = Math.max(keys, 1);
    const keyW = w.slice(0, keys).reduce((a, b) => a + b, 0);
    const restW = w.slice(keys).reduce((a, b) => a + b, 0);
    const budget = avail / opts.splitZoom - keyW;
    if (budget <= 0) continue;
    const count = Math.ceil(restW / budget);
    if (count < 2) continue;
    const groups = [];
    let cur = [], acc = 0;
    const target = restW / count;  // groups of about equal width, none wider than the budget
    for (let i = keys; i < n; i++) {
      if (cur.length && (acc + w[i] > budget || (acc + w[i] / 2 > target && groups.length < count - 1))) {
        groups.push(cur); cur = []; acc = 0;
      }
      cur.push(i); acc += w[i];
    }
    if (cur.length) groups.push(cur);
    if (groups.length < 2) continue;
    const caption = t.querySelector('caption');
    const pieces = groups.map((g, k) => {
      const c = t.cloneNode(true);
      const keep = new Set([...Array(keys).keys(), ...g]);
      for (const row of Array.from(c.rows))
        for (let i = n - 1; i >= 0; i--) if (!keep.has(i)) row.cells[i].remove();
      c.querySelectorAll('colgroup').forEach(x => x.remove());
      c.dataset.pdfSplit = (k + 1) + '/' + groups.length;
      if (k > 0) {
        c.removeAttribute('id');
        c.querySelectorAll('[id]').forEach(x => x.removeAttribute('id'));
        const cap = c.querySelector('caption') || c.createCaption();
        const cols = g.length > 1 ? 'columns ' + (g[0] + 1) + '-' + (g[g.length - 1] + 1) : 'column ' + (g[0] + 1);
        cap.textContent = 'The table above, continued: ' + cols + ' of ' + n
          + (keys ? ' (with the first ' + (keys > 1 ? keys + ' columns' : 'column') + ' repeated)' : '');
        cap.classList.add('pdf-continued');
      }
      return c;
    });
    t.replaceWith(...pieces);
    splits.push({what: label(t), columns: n, groups: groups.length, keys: keys, el: pieces[0]});
  }

  const scaled = [];
  const fit = sel => {
    for (let pass = 0; pass < 4; pass++) {
      let changed = 0;
      for (const el of article.querySelectorAll(sel)) {
        if (el.closest('.pdf-contents, .pdf-titlepage, mjx-assistive-mml')) continue;
        if (el.parentElement && el.parentElement.closest('[data-pdf-zoom], td, th')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const [left, right] = extent(el);
        const limit = room(el), start = Math.max(r.left, article.getBoundingClientRect().left);
        if (right <= limit + 0.5 && left >= start - 0.5) continue;
        const avail = limit - start, need = right - left;
        if (avail <= 0 || need <= 0) continue;
        const old = parseFloat(el.dataset.pdfZoom || 1);
        const z = Math.max(0.2, old * avail / need * 0.995);
        el.style.zoom = z;
        el.dataset.pdfZoom = z;
        if (!el.dataset.pdfFit) { el.dataset.pdfFit = 1; scaled.push(el); }
        changed++;
      }
      if (!changed) break;
    }
  };
  // first the things that are wide themselves, then any box still too wide (what it holds is wide)
  fit('table, mjx-container[display="true"], img, svg, video, iframe, pre');
  fit('div.math, figure, div.highlight, .cell_output > *, div.cell_output, .sd-container-fluid, .sd-row, '
      + 'div.admonition, blockquote, dl, ul, ol, section > div, section > p');

  // the web page of each element, for the report
  const where = new Map();
  let doc = '';
  const wanted = new Set([...scaled, ...splits.map(s => s.el)]);
  for (const el of article.querySelectorAll('*')) {
    if (el.id && el.id.startsWith('document-')) doc = el.id.slice(9);
    if (wanted.has(el)) where.set(el, doc);
  }
  return {
    scaled: scaled.map(el => ({page: where.get(el) || '', what: label(el),
                               zoom: Math.round(parseFloat(el.dataset.pdfZoom) * 1000) / 1000})),
    split: splits.map(s => ({page: where.get(s.el) || '', what: s.what, columns: s.columns, groups: s.groups,
                             keys: s.keys})),
  };
}
"""

#: What still passes the right edge of the column, or is clipped by its own box, after fitting.
CLIPPED_JS = r"""
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('article') || document.body;
  const right = article.getBoundingClientRect().right + 1, left = article.getBoundingClientRect().left - 1;
  const out = [];
  const seen = new Set();
  let doc = '';
  for (const el of article.querySelectorAll('*')) {
    if (el.id && el.id.startsWith('document-')) doc = el.id.slice(9);
    if (el.closest('mjx-assistive-mml')) continue;  // MathJax's copy for screen readers: clipped away on purpose
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    let bad = r.right > right + 3 || r.left < left - 3;  // an accent's or a glyph's few px overshoot is no cut
    if (!bad && cs.overflowX !== 'visible' && !cs.display.startsWith('inline') && el.clientWidth > 0
        && el.scrollWidth > el.clientWidth + 2) bad = true;
    if (!bad) continue;
    let a = el.parentElement, inner = false;
    while (a && a !== article) { if (seen.has(a)) { inner = true; break; } a = a.parentElement; }
    seen.add(el);
    if (inner) continue;
    out.push({page: doc, what: el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className
              ? '.' + el.className.trim().split(/\s+/)[0] : ''), px: Math.round(Math.max(r.right - right, left - r.left,
              el.scrollWidth - el.clientWidth))});
  }
  return out;
}
"""


class MathErrors(RuntimeError):
    """MathJax rendered TeX errors (``mjx-merror``): the book would print raw TeX in yellow boxes."""

    def __init__(self, errors: list[dict]):
        self.errors = errors
        lines = [f"  {e['page']}: {e['error']}" for e in errors[:20]]
        more = [f"  ... and {len(errors) - 20} more"] if len(errors) > 20 else []
        super().__init__(f"{len(errors)} MathJax error box(es) in the book (they would print as raw TeX):\n"
                         + "\n".join(lines + more)
                         + "\nfix the TeX, or print anyway with --allow-math-errors")


def chromium() -> str:
    """Path of the system's Chromium (``CHROMIUM`` or ``chromium`` / ``chromium-browser`` on the PATH)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise SystemExit("make pdf needs headless Chromium: `apt-get install chromium`, "
                         "or set CHROMIUM=/path/to/chromium")
    return path


def build_folder(root: Path = ROOT, edition: str = "full") -> Path:
    """The folder jupyter-book builds an edition into: ``<root>/_build``, the student edition's
    ``<root>/_build/student/_build`` (``--path-output _build/student``, as ``make html EDITION=student``)."""
    return root / "_build" / "student" / "_build" if edition == "student" else root / "_build"


def build_singlehtml(root: Path = ROOT, edition: str = "full") -> Path:
    """Run ``jupyter-book build --builder singlehtml`` on the book at ``root`` (the student edition with
    ``BOOK_EDITION=student`` into its own folder, :func:`build_folder`); returns its ``print.html``."""
    jb = Path(sys.executable).with_name("jupyter-book")
    book = "student" if edition == "student" else "full"  # the solutions print from the full edition
    where = ["--path-output", str(root / "_build" / "student")] if book == "student" else []
    subprocess.run([str(jb), "build", str(root), "--builder", "singlehtml", *where], check=True,
                   env={**os.environ, "BOOK_EDITION": book})
    return singlehtml_page(root, edition)


def singlehtml_page(root: Path = ROOT, edition: str = "full") -> Path:
    """The one page of the ``singlehtml`` build, copied to the build's top folder as ``print.html``.

    The build's ``index.html`` only redirects to the root document
    (``book/intro.html``), whose links (``_static/``, ``_images/``) are
    relative to the top folder: the copy there resolves them.
    """
    top = build_folder(root, edition) / "singlehtml"
    index = top / "index.html"
    if not index.exists():
        raise SystemExit(f"no {index}: run jupyter-book build --builder singlehtml first")
    m = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index.read_text(), re.IGNORECASE)
    page = top / m.group(1) if m else index
    out = top / "print.html"
    out.write_text(page.read_text())
    return out


def toc_parts(root: Path = ROOT) -> tuple[str, list[dict]]:
    """The root document and the parts of ``root/_toc.yml``: ``(root, [{caption, files}])``, files in reading order."""
    import yaml

    path = root / "_toc.yml"
    if not path.exists():
        return "", []
    toc = yaml.safe_load(path.read_text()) or {}

    def files(entries):
        for e in entries or []:
            if "file" in e:
                yield str(e["file"]).removesuffix(".md").removesuffix(".ipynb")
            yield from files(e.get("sections"))

    parts = [{"caption": p.get("caption", ""), "files": list(files(p.get("chapters")))} for p in toc.get("parts", [])]
    if not parts and toc.get("chapters"):
        parts = [{"caption": "", "files": list(files(toc["chapters"]))}]
    return str(toc.get("root", "")), parts


def book_meta(root: Path = ROOT) -> dict:
    """What the title page and the footer say: title, authors, version, date (``CITATION.cff``), commit.

    ``CITATION.cff`` is read here, not through :mod:`models.citation` (a floor above ``core``)."""
    cff = yaml.safe_load((root / "CITATION.cff").read_text()) or {}
    missing = [k for k in ("title", "version", "authors", "date-released") if not cff.get(k)]
    if missing:
        raise ValueError(f"CITATION.cff has no {', '.join(map(repr, missing))}")
    authors = ", ".join(a.get("name") or " ".join(filter(None, (a.get("given-names"), a.get("family-names"))))
                        for a in cff.get("authors", []))
    date = cff["date-released"]
    if isinstance(date, (_dt.date, _dt.datetime)):
        date = f"{date.day} {date:%B %Y}"
    first, parts = toc_parts(root)
    return {"title": str(cff["title"]), "authors": authors, "version": str(cff["version"]), "date": str(date),
            "commit": git_commit(), "license": str(cff.get("license", "")),
            "printed": f"{_dt.date.today():%Y-%m-%d}", "root": first, "parts": parts}


@contextlib.contextmanager
def _quiet_pypdf():
    """pypdf warns about Chromium's PDFs (an object count off by a few in the trailer): harmless here."""
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def outline_tree(pdf) -> list[dict]:
    """The bookmarks of a PDF (bytes or a reader) as a tree: ``[{title, page (1-based), left, top, children}]``."""
    from pypdf import PdfReader

    def tree(items):
        out = []
        for item in items:
            if isinstance(item, list):  # pypdf lists a bookmark's children right after it
                out[-1]["children"] = tree(item)
            else:
                out.append({"title": str(item.title), "page": reader.get_destination_page_number(item) + 1,
                            "left": item.get("/Left"), "top": item.get("/Top"), "children": []})
        return out

    with _quiet_pypdf():
        reader = pdf if isinstance(pdf, PdfReader) else PdfReader(io.BytesIO(pdf))
        return tree(reader.outline)


def _flat(tree: list[dict]) -> list[dict]:
    return [x for node in tree for x in (node, *_flat(node["children"]))]


def outline_entries(pdf) -> list[tuple[str, int]]:
    """The bookmarks of a PDF (bytes or a reader), depth first: ``[(title, 1-based page)]``."""
    return outline_entries_of(outline_tree(pdf))


def outline_entries_of(tree: list[dict]) -> list[tuple[str, int]]:
    """The bookmarks of :func:`outline_tree`, depth first: ``[(title, 1-based page)]``."""
    return [(node["title"], node["page"]) for node in _flat(tree)]


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def heading_pages(marks: list[tuple[str, int]], headings: list[str]) -> list[int | None]:
    """The page of each heading, from Chromium's bookmarks ``marks`` (:func:`outline_entries`; one per heading).

    Chromium's bookmark titles lose the spaces at line breaks and repeat
    some headings' words, so when the counts differ the bookmarks are
    matched in order by their text without spaces.
    """
    if len(marks) == len(headings):
        return [page for _, page in marks]
    out, j = [], 0
    for h in headings:
        key = _squash(h)[:40]
        k = j
        while k < len(marks) and not _squash(marks[k][0]).startswith(key):
            k += 1
        if k < len(marks):
            out.append(marks[k][1])
            j = k + 1
        else:
            out.append(None)
    return out


def write_outline(pdf: bytes, tree: list[dict], headings: list[str] | None = None) -> bytes:
    """``pdf`` with the bookmarks ``tree`` (:func:`outline_tree` of a print of the same layout), the parts open.

    Each bookmark is titled by its heading's own text when ``headings`` has
    one per bookmark (Chromium's titles drop the space at a line break and
    repeat some words), else keeps its title.  The PDF opens with the
    bookmarks shown.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit

    titles = iter(headings) if headings is not None and len(headings) == len(_flat(tree)) else None
    with _quiet_pypdf():
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))

    def add(nodes, parent, depth):
        for node in nodes:
            title = next(titles) if titles else node["title"]
            item = writer.add_outline_item(title=title, page_number=node["page"] - 1, parent=parent,
                                           fit=Fit.xyz(left=node["left"], top=node["top"]), is_open=depth == 0)
            add(node["children"], item, depth + 1)

    add(tree, None, 0)
    writer.page_mode = "/UseOutlines"
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def print_pdf(html: Path, out: Path, *, meta: dict | None = None, root: Path = ROOT, timeout_ms: int = 300_000,
              allow_math_errors: bool = False, edition: str = "full", code: str = "shown", log=print) -> dict:
    """Print ``html`` to ``out`` as a book (see the module's docstring); returns the report.

    ``edition`` (:data:`EDITIONS`) is the book ``html`` is a build of (``solutions``: the full edition's, of which
    only the pages with solutions are printed); ``code="hidden"`` leaves the code cells out (:data:`NO_CODE_CSS`).

    The report: ``pages``, ``links_internal`` (rewritten to an anchor of the
    PDF), ``links_unlinked``, ``links_external``, ``split`` (the tables printed
    in groups of columns), ``scaled`` (what was zoomed to fit, with its zoom),
    ``min_zoom``, ``clipped`` (what still does not fit: should be empty),
    ``math_errors``, ``headings``, ``toc`` (the contents' entries),
    ``toc_missing_pages`` (entries without a page number: should be 0) and
    ``seconds``.
    Raises :class:`MathErrors` if MathJax rendered an error and not ``allow_math_errors``.
    """
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    if edition not in EDITIONS:
        raise ParameterError(f"edition: {edition!r}; expected one of {', '.join(EDITIONS)}")
    if code not in CODES:
        raise ParameterError(f"code: {code!r}; expected one of {', '.join(CODES)}")
    t0 = time.perf_counter()
    meta = dict(meta or book_meta(root), edition=edition, edition_title=EDITION_TITLES[edition], code=code)
    note = EDITION_TITLES[edition].split(" (")[0].lower()  # "student edition" in every footer
    footer = FOOTER.format(title=_html.escape(meta["title"]), version=_html.escape(meta["version"]),
                           edition=f" &middot; {_html.escape(note)}" if note else "")
    options = dict(format=FORMAT, margin=MARGINS, scale=SCALE, print_background=True,
                   display_header_footer=True, header_template=HEADER, footer_template=footer)
    out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": COLUMN_PX, "height": 1000})
            page.goto(html.resolve().as_uri(), wait_until="load", timeout=timeout_ms)
            if page.evaluate("() => !!document.querySelector('script[src*=\"mathjax\"]')"):
                page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                       timeout=timeout_ms)
                page.evaluate("() => MathJax.startup.promise")
            page.emulate_media(media="print")
            page.add_style_tag(content=PRINT_CSS + (NO_CODE_CSS if code == "hidden" else ""))
            report = page.evaluate(PREPARE_JS, meta)
            if edition == "solutions" and not report.get("solution_pages"):
                raise ParameterError(f"--edition solutions: no page of {html} holds a solution (the full "
                                     "edition's build has them; the student edition's has none)")
            if report["math_errors"]:
                err = MathErrors(report["math_errors"])
                if not allow_math_errors:
                    raise err
                print(f"WARNING: printing anyway (--allow-math-errors): {err}", file=sys.stderr)
            report.update(page.evaluate(FIT_JS, {"splitBelow": SPLIT_BELOW, "splitZoom": SPLIT_ZOOM,
                                                 "maxKeys": SPLIT_MAX_KEYS}))
            report["min_zoom"] = min((s["zoom"] for s in report["scaled"]), default=1.0)
            report["clipped"] = page.evaluate(CLIPPED_JS)
            # first print, tagged: Chromium's bookmarks, one per heading (Chromium writes them only in a tagged PDF)
            tree = outline_tree(page.pdf(outline=True, tagged=True, **options))
            pages = heading_pages(outline_entries_of(tree), report["headings"])
            numbers = {e["id"]: pages[e["heading"]] for e in report["toc"] if 0 <= e["heading"] < len(pages)}
            report["toc_missing_pages"] = page.evaluate("""(numbers) => {
              let missing = 0;
              for (const s of document.querySelectorAll('.pdf-toc-page')) {
                const n = numbers[s.dataset.dest];
                if (n) { s.textContent = n; s.style.visibility = 'visible'; } else missing++;
              }
              return missing;
            }""", numbers)
            # the book: the contents with their page numbers, untagged (a third of the size), the same bookmarks
            atomic_write_bytes(out, write_outline(page.pdf(**options), tree, report["headings"]))  # never half a PDF
        finally:
            browser.close()
    with _quiet_pypdf():
        report["pages"] = len(PdfReader(str(out)).pages)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    if report["clipped"]:
        log(f"WARNING: {len(report['clipped'])} element(s) still wider than the column: "
            + ", ".join(f"{c['page']} {c['what']} +{c['px']}px" for c in report["clipped"][:10]))
    return report


def summary(report: dict) -> str:
    """One paragraph on what :func:`print_pdf` did."""
    return (f"{report['pages']} pages; contents of {len(report['toc'])} entries; links: "
            f"{report['links_internal']} inside the PDF, {report['links_unlinked']} unlinked (files of the "
            f"web book), {report['links_external']} external; {len(report['split'])} table(s) split into groups "
            f"of columns, {len(report['scaled'])} element(s) scaled to the "
            f"column (smallest zoom {report['min_zoom']:.2f}); {len(report['clipped'])} still too wide; "
            f"{len(report['math_errors'])} MathJax error(s)")


def default_out(root: Path, edition: str = "full", code: str = "shown") -> Path:
    """Where an edition prints by default: ``<root>/_build/pdf/`` ``book.pdf``, ``book-student.pdf`` or
    ``solutions.pdf``, with ``-nocode`` before ``.pdf`` for ``code="hidden"``."""
    return root / "_build" / "pdf" / f"{EDITIONS[edition]}{'-nocode' if code == 'hidden' else ''}.pdf"


#: The first bytes of every PDF file: an existing ``--out`` without them is not a PDF, and not ours to replace.
PDF_MAGIC = b"%PDF-"


def check_out(out: Path) -> Path:
    """``--out``, checked before anything is built or printed; ``ParameterError`` naming ``--out`` otherwise.

    It must be a ``.pdf`` file name, not a folder; neither it (a symbolic link followed) nor its folder may be the
    repository or its sources (:func:`models.core.paths.safe_destination`); a file already there must be a PDF
    (:data:`PDF_MAGIC`; any other file, ``thesis.txt`` or a FIFO, is left alone: review P2); its folder is made and
    must be writable (:func:`models.core.paths.writable_folder`: a read-only place or a file in the way, review
    P4-P6, were tracebacks after minutes of building and printing).
    """
    out = Path(out)
    if out.is_dir():
        raise ParameterError(f"--out: {out}: a folder; give a file name such as {out / 'book.pdf'}")
    if out.suffix.lower() != ".pdf":
        raise ParameterError(f"--out: {out}: not a .pdf file name; give one such as {out.with_suffix('.pdf')}")
    safe_destination(out.parent, "--out", subfolders=[out.name])
    if out.exists():  # (a dangling link is nothing there: the print replaces the link)
        try:
            head = read_regular(out, len(PDF_MAGIC))
        except OSError as exc:
            raise ParameterError(f"--out: {out}: cannot replace it ({exc.strerror or exc}); it is left as it is") \
                from None
        if head != PDF_MAGIC:
            raise ParameterError(f"--out: {out}: an existing file that is not a PDF; it is left as it is: remove it "
                                 "or give another name")
    writable_folder(out.parent, "--out")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.book.pdf", description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the book's folder (with _config.yml, _toc.yml)")
    ap.add_argument("--out", type=Path, default=None,
                    help="the PDF to write (default <root>/_build/pdf/book.pdf, book-student.pdf, solutions.pdf, "
                         "-nocode before .pdf with --code hidden); checked before anything is built: a .pdf name in "
                         "a writable folder, outside the sources, not replacing a file that is not a PDF")
    ap.add_argument("--edition", choices=list(EDITIONS), default="full",
                    help="full (default): solutions under their exercises; student: no solutions; solutions: only "
                         "the exercises pages with their solutions, for an instructor")
    ap.add_argument("--code", choices=CODES, default="shown", help="hidden: leave the code cells out (their "
                                                                     "outputs are printed)")
    ap.add_argument("--no-build", action="store_true", help="print the existing _build/singlehtml")
    ap.add_argument("--allow-math-errors", action="store_true",
                    help="print even if MathJax rendered TeX errors (warns; the default is to fail)")
    ap.add_argument("--check-out", action="store_true",
                    help="only check --out and exit (status 2 with one line if it cannot be written)")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    out = args.out or default_out(root, args.edition, args.code)
    try:
        check_out(out)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check_out:
        return 0
    t0 = time.perf_counter()
    html = singlehtml_page(root, args.edition) if args.no_build else build_singlehtml(root, args.edition)
    try:
        report = print_pdf(html, out, root=root, allow_math_errors=args.allow_math_errors, edition=args.edition,
                           code=args.code)
    except MathErrors as e:
        if args.out is None and out.exists():
            out.unlink()  # our own older print, in our _build folder: it must not pass for this book
            note = f"no PDF written; the older {out} removed"
        elif out.exists():
            note = f"no PDF written; {out} (not ours to delete) is left as it was, from an earlier print"
        else:
            note = f"no PDF written ({out})"
        print(f"make pdf: {e}\n{note}", file=sys.stderr)
        return 1
    print(summary(report))
    print(f"{out} ({out.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
