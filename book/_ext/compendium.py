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
* A notebook to run beside every notebook page (HTML builder): the page's
  source notebook with the quick profile's values in its ``parameters`` cell,
  no injected cell and no outputs (:func:`models.classroom.student_notebook`),
  written to ``_downloads/notebooks/<chapter>/<name>-quick.ipynb``; a
  "Run this page yourself" box at the top of the page (folded) links it and
  gives the pipeline line that re-runs the page; the page's download menu
  offers it first, as ".ipynb to run (quick)", and names the executed
  notebook ".ipynb as built (outputs)" (re-running that one resets its
  parameters: papermill's hidden cell follows the parameters cell).
  Not in ``singlehtml`` (the PDF), which has no downloads.  The notebook to
  run is the student edition of its page (no solutions: ``models.classroom``)
  in both editions of the book.
* Two editions (:data:`EDITIONS`, chosen by the environment variable
  ``BOOK_EDITION``, ``make book EDITION=student``): ``full`` (the default)
  folds each solution under its exercise; ``student`` has no solution
  anywhere in the build: every solution (sphinx-exercise's ``solution``
  node, a gated one merged from its ``{solution-start}`` to its
  ``{solution-end}``) is taken out of the page as it is read, before the
  search index, the singlehtml page of the PDF or any cross-reference sees
  it, and a page that had solutions offers no executed notebook and no
  source (``_sources/``) to download, and says at its top that the
  solutions are left out.  Its footer says "Student edition".
  (sphinx-exercise's own ``hide_solutions`` is not used: with the gated
  form it drops only a solution's opening directive, so the solution's cells
  stay and its unmerged ``solution_end_node`` stops the HTML build.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.util.osutil import relative_uri

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


#: The editions of the book; the environment variable that chooses one (``make book EDITION=...``).
EDITIONS = ("full", "student")
EDITION_ENV = "BOOK_EDITION"


def edition() -> str:
    """The edition ``BOOK_EDITION`` names (``full`` when unset or empty); another value is a ``ValueError``."""
    value = os.environ.get(EDITION_ENV, "").strip() or "full"
    if value not in EDITIONS:
        raise ValueError(f"{EDITION_ENV}={value!r}: the book's editions are {', '.join(EDITIONS)}")
    return value


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
              + ('Student edition (no solutions). ' if config.compendium_edition == "student" else '')
              + 'How to cite: <a href="{pathto}cite.html">this book and its chapters</a>.')
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


#: Where the notebooks to run go in the HTML build.
STUDENT_DIR = "_downloads/notebooks"
#: The profile of the notebooks to run.
STUDENT_PROFILE = "quick"


def notebook_source(docname: str) -> Path | None:
    """``notebooks/<chapter>/<name>.ipynb`` of the page ``book/<chapter>/<name>``, if it is a notebook page."""
    parts = docname.split("/")
    if len(parts) != 3 or parts[0] != "book":
        return None
    source = ROOT / "notebooks" / parts[1] / f"{parts[2]}.ipynb"
    return source if source.exists() else None


def student_target(docname: str) -> str:
    """The notebook to run of the page ``book/<chapter>/<name>``, relative to the HTML root."""
    _, chapter, name = docname.split("/")
    return f"{STUDENT_DIR}/{chapter}/{name}-{STUDENT_PROFILE}.ipynb"


def _code(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def run_box(source: Path, href: str) -> nodes.admonition:
    """The "Run this page yourself" box of the notebook page whose source is ``source``."""
    from models import classroom, pipeline  # the package the book documents (installed by `make`)
    from models.core.progress import format_duration

    chapter, name = source.parent.name, source.stem
    slug = f"{chapter}/{name}"
    quick = format_duration(pipeline.QUICK_SECONDS.get(slug, pipeline.DEFAULT_QUICK_SECONDS))
    full = format_duration(pipeline.FULL_SECONDS.get(slug, pipeline.DEFAULT_QUICK_SECONDS * pipeline.FULL_OVER_QUICK))
    box = nodes.admonition(classes=["tip", "dropdown", "compendium-run"])
    box += nodes.title("", "Run this page yourself")
    p = nodes.paragraph()
    p += nodes.Text("Download ")
    p += nodes.raw("", f'<a class="reference download compendium-student" href="{href}" '
                       f'download="{name}-{STUDENT_PROFILE}.ipynb"><strong>the notebook to run</strong></a>',
                   format="html")
    p += nodes.Text(f": this page's notebook with the quick profile's values in its parameters cell (short "
                    f"runs, about {quick} on two cores) and no outputs")
    _, solutions = classroom.without_solutions(json.loads(source.read_text())["cells"])
    if solutions:
        p += nodes.Text(", and its exercises without their solutions (and without the checks that would give them "
                        "away): try them first")
    p += nodes.Text(".  Save it in the repository's folder ")
    p += _code("runs/")
    p += nodes.Text(", open it in JupyterLab (")
    p += _code("make lab")
    p += nodes.Text(" installs it and opens every chapter's notebooks to run), change a parameter and run all "
                    "cells.  Or run the page with the pipeline, from the repository's root after ")
    p += _code("make venv")
    p += nodes.Text(":")
    box += p
    command = classroom.pipeline_command(source, STUDENT_PROFILE)
    for option in (" notebooks/", " --profile"):  # three lines: each fits the page's column
        command = command.replace(option, " \\\n    " + option.lstrip())
    box += nodes.literal_block(command, command, language="bash")
    p = nodes.paragraph()
    p += nodes.Text("It writes the executed notebook, its figures and its tables into ")
    p += _code(f"runs/{chapter}/")
    p += nodes.Text("; ")
    p += _code("-p NAME VALUE")
    p += nodes.Text(" sets a parameter, and without ")
    p += _code("--profile quick")
    p += nodes.Text(f" it runs at the papers' scale (about {full}).  ")
    if pipeline.runs_after(slug):
        p += nodes.Text("This page reads the claims tables of the other chapters' runs in the same folder: run "
                        "them into it first.  ")
    p += nodes.Text("The page's download menu (top right) holds both notebooks: ")
    p += nodes.emphasis("", ".ipynb to run (quick)")
    p += nodes.Text(" is this one; ")
    p += nodes.emphasis("", ".ipynb as built (outputs)")
    p += nodes.Text(" is the notebook the book executed, to read: do not re-run it, since a hidden cell after its "
                    "parameters cell sets them back to the book's values.")
    box += p
    return box


def _doctree_resolved(app, doctree, docname):
    """On a notebook page of the HTML build: write its notebook to run, put the box at the top."""
    if app.builder.name not in ("html", "dirhtml"):
        return
    source = notebook_source(docname)
    if source is None:
        return
    from models import classroom  # the package the book documents (installed by `make`)

    target = student_target(docname)
    classroom.write_student_notebook(source, Path(app.outdir) / target, STUDENT_PROFILE)
    box = run_box(source, relative_uri(app.builder.get_target_uri(docname), target))
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, box)
        return
    titles = [i for i, child in enumerate(section.children) if isinstance(child, nodes.title)]
    section.insert(titles[0] + 1 if titles else 0, box)


#: What the student edition says at the top of a page whose solutions it took out.
STUDENT_NOTE = ("This is the student edition of the book: the solutions are left out.  The full edition folds "
                "each one under its exercise; an instructor has them all in the solutions PDF.")


def _drop_solutions(app, doctree):
    """The student edition: every solution out of the page as it is read; the page is noted as one that had some."""
    if app.config.compendium_edition != "student":
        return
    from sphinx_exercise.nodes import solution_node  # the exercises' extension (_config.yml)

    found = list(doctree.findall(solution_node))
    for node in found:
        node.parent.remove(node)
    pages = _solution_pages(app.env)
    if found:
        pages.add(app.env.docname)
        note = nodes.note()
        note += nodes.paragraph("", STUDENT_NOTE)
        section = next(iter(doctree.findall(nodes.section)), None)
        if section is None:
            doctree.insert(0, note)
        else:
            titles = [i for i, child in enumerate(section.children) if isinstance(child, nodes.title)]
            section.insert(titles[0] + 1 if titles else 0, note)
    else:
        pages.discard(app.env.docname)


def _solution_pages(env) -> set:
    """The pages whose solutions the student edition took out (kept in the build environment)."""
    if not hasattr(env, "compendium_solution_pages"):
        env.compendium_solution_pages = set()
    return env.compendium_solution_pages


def _merge_solution_pages(app, env, docnames, other):
    _solution_pages(env).update(_solution_pages(other) & set(docnames))


def _drop_solution_sources(app, exception):
    """The student edition: the source and executed notebooks of a page that had solutions are not in the build."""
    if exception is not None or app.builder.format != "html" or app.config.compendium_edition != "student":
        return
    sources = Path(app.outdir) / "_sources"
    for docname in _solution_pages(app.env):
        for path in sources.glob(f"{docname}.*"):
            path.unlink()


def _download_menu(app, pagename, templatename, context, doctree):
    """The header's download menu of a notebook page: the notebook to run first, the executed one named so; in the
    student edition a page that had solutions offers no executed notebook and no source."""
    if notebook_source(pagename) is None:
        return
    hide_executed = app is not None and app.config.compendium_edition == "student" \
        and pagename in _solution_pages(app.env)
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        # the executed notebook: the theme's notebook entry, or (a page read from an .ipynb) its source entry
        kinds = ("download-notebook-button", "download-source-button")
        executed = [b for kind in kinds for b in group["buttons"] if b.get("label") == kind][:1]
        buttons = [b for b in group["buttons"] if b.get("label") not in kinds]
        student = {"type": "link", "url": context["pathto"](student_target(pagename), 1),
                   "text": ".ipynb to run (quick)", "icon": "fas fa-play",
                   "tooltip": "The notebook to run yourself: the quick profile's parameters, no outputs",
                   "label": "download-student-button"}
        for b in executed:
            b["text"] = ".ipynb as built (outputs)"
            b["label"] = "download-executed-button"
            b["icon"] = "fas fa-file"
            b["tooltip"] = ("The notebook as the book ran it, with its outputs, to read: re-running it resets "
                            "its parameters")
        group["buttons"] = [student, *buttons] if hide_executed else [student, *executed, *buttons]


def _singlehtml_handlers(app):
    """Give the ``singlehtml`` builder (``make pdf``) every node the ``html`` builder can write.

    Sphinx looks a translator's node handlers up by the builder's name and only if there are none by its
    format: once an extension registers a node for ``singlehtml`` by name (sphinx-exercise does), the nodes
    registered for ``html`` (myst-nb's hidden code cells, ``HideCodeCellNode``) are unknown to the
    single-page build, which stops with ``NotImplementedError``.  The ``html`` handlers are copied where
    ``singlehtml`` has none of its own.
    """
    handlers = app.registry.translation_handlers
    if "singlehtml" in handlers:
        for name, pair in handlers.get("html", {}).items():
            handlers["singlehtml"].setdefault(name, pair)


def setup(app):
    app.add_config_value("compendium_edition", edition(), "env", [str])
    app.connect("doctree-read", _drop_solutions, priority=400)  # before sphinx-exercise registers the solutions
    app.connect("env-merge-info", _merge_solution_pages)
    app.connect("build-finished", _drop_solution_sources)
    app.connect("builder-inited", _singlehtml_handlers)
    app.connect("config-inited", _tables_css)
    app.add_css_file("compendium-tables.css")
    app.add_js_file("compendium-tables.js")
    app.add_js_file("compendium-notebooks.js")
    app.connect("doctree-resolved", _doctree_resolved)
    app.connect("html-page-context", _download_menu, priority=502)  # after the theme's buttons (501)
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": version(), "parallel_read_safe": True, "parallel_write_safe": True}
