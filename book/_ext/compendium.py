"""Sphinx extension of the book: math served by the book itself, and the version in every footer.

* MathJax 3 comes from the npm package ``mathjax`` (pinned in ``package.json``,
  installed by ``make`` with ``npm ci`` into ``node_modules/``), never from a CDN:
  the build copies ``tex-chtml-full.js`` (every TeX extension built in, so
  nothing is fetched later) and its fonts into ``_build/html/_static/mathjax/``.
  Inline math is ``\\(...\\)`` and ``$...$`` (tables of numbers written by
  pandas use dollars), display math ``\\[...\\]`` and ``$$...$$``.
* No thebe: Jupyter Book always loads ``sphinx_thebe``, which writes a
  launch configuration pointing at a default repository
  (``binder-examples/jupyter-stacks-datascience``) into every notebook page;
  the pages here are executed by the pipeline and launch nothing, so its
  event handlers are removed.
* Tables: ``static/compendium-tables.css`` styles the tables of
  :mod:`models.core.tables` (scroll shadows on wide tables, aligned headers,
  the first column kept in place); ``static/compendium-tables.js`` writes a
  line above a table wider than the page (how many columns show, and that the
  rest scroll).
* Every page's footer names the compendium's version (``CITATION.cff``), the
  commit it was built from, and links to the page that says how to cite it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

try:  # the repository the book is built from (the tests build a copy of book/ elsewhere)
    from models.core.paths import ROOT
except ImportError:  # pragma: no cover - the package is installed by `make`
    ROOT = Path(__file__).resolve().parents[2]
MATHJAX = ROOT / "node_modules" / "mathjax" / "es5"
FILES = ("tex-chtml-full.js", "output/chtml/fonts/woff-v2")


def version() -> str:
    """The ``version:`` of ``CITATION.cff``."""
    text = (ROOT / "CITATION.cff").read_text()
    m = re.search(r"^version:\s*['\"]?([^'\"\s]+)", text, re.M)
    return m.group(1) if m else "unknown"


def commit() -> str:
    """The short commit hash of the checkout (``+dirty`` with uncommitted changes), or ``unknown``."""
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _config_inited(app, config):
    _drop_thebe(app)  # every extension is set up by now
    if not (MATHJAX / FILES[0]).exists():
        raise RuntimeError(f"MathJax is not installed ({MATHJAX / FILES[0]} is missing): run `make venv` "
                           "(it runs `npm ci`) before building the book")
    config.mathjax_path = "mathjax/" + FILES[0]
    config.mathjax3_config = {
        "tex": {"inlineMath": [["\\(", "\\)"], ["$", "$"]], "displayMath": [["\\[", "\\]"], ["$$", "$$"]],
                "processEscapes": True},
        "options": {"processHtmlClass": "tex2jax_process|mathjax_process|math|output_area"},
    }
    footer = (f'Version {version()}, commit <code>{commit()}</code>. '
              'How to cite: <a href="{pathto}cite.html">this book and its chapters</a>.')
    options = dict(config.html_theme_options or {})
    options["extra_footer"] = footer
    config.html_theme_options = options
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "auto")  # the theme logs a console error for an empty mode
    config.html_context = context


def _page_context(app, pagename, templatename, context, doctree):
    options = context.get("theme_extra_footer")
    if options and "{pathto}" in options:
        root = context["pathto"]("book/cite")
        context["theme_extra_footer"] = options.replace("{pathto}cite.html", root)


def _build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static" / "mathjax"
    for rel in FILES:
        src = MATHJAX / rel
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, dirs_exist_ok=True)
        else:
            shutil.copy2(src, target)


def _drop_thebe(app):
    """Disconnect every sphinx_thebe event handler (the extension stays loaded, inert)."""
    for event, listeners in app.events.listeners.items():
        for listener in list(listeners):
            # keep st_static_path: the theme links sphinx-thebe.css on every page, so the file must exist
            if (getattr(listener.handler, "__module__", "").startswith("sphinx_thebe")
                    and getattr(listener.handler, "__name__", "") != "st_static_path"):
                app.disconnect(listener.id)


#: The table style sheet (models/core/tables.py writes the markup it styles).
STATIC = Path(__file__).resolve().parent / "static"


def _tables_css(app, config):
    config.html_static_path = list(config.html_static_path or []) + [str(STATIC)]


def setup(app):
    app.connect("config-inited", _tables_css)
    app.add_css_file("compendium-tables.css")
    app.add_js_file("compendium-tables.js")
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": version(), "parallel_read_safe": True, "parallel_write_safe": True}
