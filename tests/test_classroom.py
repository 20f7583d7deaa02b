"""The notebook a student can run (``models.classroom``, ``book/_ext/compendium.py``).

A student's download is the page's source notebook with the quick profile's values written into its
``parameters`` cell, no papermill ``injected-parameters`` cell (which would set edited parameters back), no
outputs; the book links it from a "Run this page yourself" box and from the page's download menu.  The last test
writes one download as the book does, into a temporary folder, and runs it with ``nbclient``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from models import classroom, pipeline
from models.core.paths import ROOT

SOURCES = pipeline.notebook_sources()


def _parameters(nb: dict) -> dict:
    """The values of the notebook's ``parameters`` cell (as the pipeline parses it)."""
    cells = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1
    body = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"params-{os.getpid()}.ipynb"
    try:
        path.write_text(body)
        return pipeline.notebook_defaults(path)
    finally:
        path.unlink(missing_ok=True)


def test_set_parameters_changes_values_and_keeps_comments():
    src = ('k_values: list = [8, 16]             # radices\n'
           'messages: int = 100000               # measured messages\n'
           'label: str = "paper"                 # a name\n'
           'profile: str = "full"                # the profile\n')
    out = classroom.set_parameters(src, {"k_values": [8], "messages": 3000, "label": "paper", "profile": "quick"},
                                   notes={"k_values": [8, 16], "messages": 100000})
    assert out.splitlines() == [
        'k_values: list = [8]                 # radices [full: [8, 16]]',
        'messages: int = 3000                 # measured messages [full: 100000]',
        'label: str = "paper"                 # a name',
        'profile: str = "quick"               # the profile',
    ]
    with pytest.raises(ValueError, match="seed"):
        classroom.set_parameters(src, {"seed": 2})


@pytest.mark.parametrize("chapter,name,source", SOURCES, ids=[f"{c}/{n}" for c, n, _ in SOURCES])
def test_every_student_notebook_has_the_quick_values_and_nothing_else(chapter, name, source):
    nb = classroom.student_notebook(source)
    assert _parameters(nb) == pipeline.resolve_parameters(chapter, name, source, "quick")
    assert not [c for c in nb["cells"] if "injected-parameters" in c.get("metadata", {}).get("tags", [])]
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in code)
    original = json.loads(source.read_text())
    full = classroom.student_notebook(source, edition="full")
    assert len(full["cells"]) == len(original["cells"])  # the full edition: the same notebook, cell for cell
    same = [a["source"] == b["source"] for a, b in zip(full["cells"], original["cells"])]
    assert same.count(False) <= 1  # only the parameters cell differs
    kept, solutions = classroom.without_solutions(original["cells"])  # the student edition: no solution
    assert len(nb["cells"]) == len(kept) + (1 if solutions else 0)
    assert "{solution" not in json.dumps(nb) and nb["metadata"]["models_student"]["edition"] == "student"
    if name.endswith("-exercises"):
        assert solutions >= 3 and classroom.STUDENT_NOTE in json.dumps(nb)
        assert "{exercise}" in json.dumps(nb)
        assert not [c for c in nb["cells"] if "remove-cell" in c["metadata"].get("tags", []) and "assert" in
                    "".join(c["source"])]
    else:
        assert solutions == 0 and len(nb["cells"]) == len(original["cells"])


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def _code(text: str, *tags: str) -> dict:
    return {"cell_type": "code", "metadata": {"tags": list(tags)} if tags else {}, "execution_count": None,
            "outputs": [], "source": text.splitlines(keepends=True)}


def test_the_student_edition_leaves_out_each_solution_and_its_checks():
    """From ``{solution-start}`` to ``{solution-end}``, both included, whatever cells hold them and whatever text
    shares their cells; a whole ``{solution}``; a ``remove-cell`` assert after a solution.  Everything else stays."""
    cells = [
        _md("# Exercises\n\nIntro."),
        _code("x = 1", "remove-cell"),
        _code("assert x == 1  # a check before any solution", "remove-cell"),
        _md("````{exercise} Read: one\n:label: ex-one\n\nQUESTION ONE $x^2$\n````"),
        _md("```{solution-start} ex-one\n:class: dropdown\n```\n\nANSWER ONE"),
        _code("answer = 42"),
        _code("assert answer == 42", "remove-cell"),
        _md("ANSWER ONE, MORE.\n\n```{solution-end}\n```\n\nAFTER THE END"),
        _code("assert answer > 0", "remove-cell"),
        _code("shown = 2", "remove-cell"),
        _md("````{exercise} Run: two\n:label: ex-two\n\nQUESTION TWO\n````\n\n"
            "```{solution} ex-two\n:class: dropdown\n\nANSWER TWO\n```\n\nTAIL TWO"),
        _md("```{solution-start} ex-two\n```"),
        _md("ANSWER THREE"),
        _md("```{solution-end}\n```"),
    ]
    kept, count = classroom.without_solutions(cells)
    text = json.dumps(kept)
    assert count == 3
    assert "ANSWER" not in text and "answer" not in text and "{solution" not in text
    for stays in ("Intro.", "x = 1", "a check before any solution", "QUESTION ONE $x^2$", "AFTER THE END",
                  "shown = 2", "QUESTION TWO", "TAIL TWO"):
        assert stays in text, stays
    assert [c["cell_type"] for c in kept] == ["markdown", "code", "code", "markdown", "markdown", "code", "markdown"]
    assert classroom.without_solutions(kept) == (kept, 0)


def test_the_full_edition_is_for_an_instructor(tmp_path, capsys):
    out = tmp_path / "class"
    assert classroom.main(["min_mva/06-exercises", "--out", str(out / "student")]) == 0
    assert "student edition" in capsys.readouterr().out
    assert classroom.main(["min_mva/06-exercises", "--out", str(out / "full"), "--edition", "full"]) == 0
    student = (out / "student" / "min_mva" / "06-exercises.ipynb").read_text()
    full = (out / "full" / "min_mva" / "06-exercises.ipynb").read_text()
    assert "solution-start" not in student and "solution-start" in full
    with pytest.raises(ValueError, match="edition"):
        classroom.student_notebook(ROOT / "notebooks" / "min_mva" / "06-exercises.ipynb", edition="teacher")


def test_an_injected_cell_never_reaches_a_student(tmp_path):
    """A notebook that carries papermill's injected cell (an executed one) loses it."""
    folder = tmp_path / "toy"
    folder.mkdir()
    cells = [{"cell_type": "code", "metadata": {"tags": ["parameters"]}, "execution_count": 1, "outputs": [],
              "source": ["n: int = 10  # a size\n", 'profile: str = "full"  # the profile']},
             {"cell_type": "code", "metadata": {"tags": ["injected-parameters"]}, "execution_count": 2,
              "outputs": [], "source": ["n = 10\n", 'profile = "full"']},
             {"cell_type": "code", "metadata": {}, "execution_count": 3,
              "outputs": [{"output_type": "stream", "name": "stdout", "text": ["10\n"]}], "source": ["print(n)"]}]
    source = folder / "01-toy.ipynb"
    source.write_text(json.dumps({"cells": cells, "metadata": {"papermill": {}}, "nbformat": 4, "nbformat_minor": 4}))
    nb = classroom.student_notebook(source)
    assert [c["metadata"].get("tags") for c in nb["cells"]] == [["parameters"], None]
    assert _parameters(nb) == {"n": 10, "profile": "quick"}
    assert nb["cells"][1]["outputs"] == [] and "papermill" not in nb["metadata"]


def test_pipeline_command_is_the_readme_form():
    source = ROOT / "notebooks" / "torus_dor" / "02-latency.ipynb"
    assert classroom.pipeline_command(source) == (".venv/bin/python -m models.pipeline "
                                                  "notebooks/torus_dor/02-latency.ipynb --profile quick --out runs/")


def test_run_refuses_what_is_not_a_chapter_command():
    with pytest.raises(ValueError, match="python -m models"):
        classroom.run("rm -rf /")


def test_lab_copies_keep_a_students_work(tmp_path, capsys):
    out = tmp_path / "lab"
    assert classroom.main(["torus_dor", "--out", str(out)]) == 0
    copies = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.ipynb"))
    assert copies == sorted(f"torus_dor/{n}.ipynb" for c, n, _ in SOURCES if c == "torus_dor")
    mine = out / "torus_dor" / "01-derivation.ipynb"
    mine.write_text(mine.read_text().replace('"quick"', '"quick" ', 1))
    before = mine.read_text()
    classroom.main(["torus_dor", "--out", str(out)])
    assert mine.read_text() == before and "left as they were" in capsys.readouterr().out
    classroom.main(["notebooks/torus_dor/01-derivation.ipynb", "--out", str(out), "--force"])
    assert mine.read_text() != before


def test_the_sources_are_never_a_class_folder(tmp_path, capsys):
    """Review C9 (defect N1): ``min_mva/01-derivation --out notebooks --force`` rewrote the tracked source notebook.
    ``--out`` in the sources (or a chapter folder of it linked there) is refused before any copy is written, with
    or without ``--force``."""
    source = ROOT / "notebooks" / "min_mva" / "01-derivation.ipynb"
    before = source.read_bytes()
    for out in (ROOT / "notebooks", ROOT / "models", ROOT / "book", ROOT):
        for force in ([], ["--force"]):
            assert classroom.main(["min_mva/01-derivation", "--out", str(out), *force]) == 2
            err = capsys.readouterr().err
            assert err.startswith("error: --out: ") and err.count("\n") == 1, err
    linked = tmp_path / "class"
    linked.mkdir()
    os.symlink(ROOT / "notebooks" / "min_mva", linked / "min_mva")
    assert classroom.main(["min_mva/01-derivation", "--out", str(linked), "--force"]) == 2
    assert "inside notebooks/" in capsys.readouterr().err
    assert source.read_bytes() == before


def _without_root_override(command: list[str]) -> list[str]:
    """``command`` as a user who cannot override file permissions: as root, without its capabilities (setpriv)."""
    if os.geteuid() != 0:
        return command
    caps = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", "--", *command]


def test_an_out_that_cannot_be_written_is_one_line(tmp_path, capsys):
    """Review C5-C7 (defect N15): a file as ``--out``, a file in place of a chapter folder, a read-only folder were
    tracebacks; now ``error: --out: ...``, status 2, before any copy is written."""
    (tmp_path / "a-file").write_text("x")
    assert classroom.main(["min_mva", "--out", str(tmp_path / "a-file")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --out: {tmp_path / 'a-file'}") and "Traceback" not in err
    (tmp_path / "class" / "torus_dor").mkdir(parents=True)
    (tmp_path / "class" / "min_mva").write_text("in the way")
    assert classroom.main(["torus_dor", "min_mva", "--out", str(tmp_path / "class")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: --out: {tmp_path / 'class' / 'min_mva'}: not a folder (a file is in the way)\n"
    assert not list((tmp_path / "class").rglob("*.ipynb"))  # checked before any copy
    frozen = tmp_path / "ro"
    frozen.mkdir()
    frozen.chmod(0o555)
    proc = subprocess.run(_without_root_override([sys.executable, "-m", "models.classroom", "min_mva/01-derivation",
                                                  "--out", str(frozen)]),
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"error: --out: cannot write into {frozen}: Permission denied\n"


def test_an_immutable_folder_or_a_folder_in_a_copys_place_is_one_line(tmp_path, capsys):
    """Review C7: a ``chattr +i`` class folder (refused even to root); and a folder where ``--force`` would write a
    copy: ``error: --out: ...``, status 2, no traceback."""
    (tmp_path / "class" / "min_mva" / "01-derivation.ipynb").mkdir(parents=True)
    assert classroom.main(["min_mva/01-derivation", "--out", str(tmp_path / "class"), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --out: cannot write {tmp_path / 'class' / 'min_mva' / '01-derivation.ipynb'}: ")
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    if subprocess.run(["chattr", "+i", str(frozen)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        assert classroom.main(["min_mva/01-derivation", "--out", str(frozen)]) == 2
        assert capsys.readouterr().err == f"error: --out: cannot write into {frozen}: Operation not permitted\n"
    finally:
        subprocess.run(["chattr", "-i", str(frozen)], check=True)


# ----------------------------------------------------------------- the book's extension
def _extension():
    spec = importlib.util.spec_from_file_location("compendium_ext", ROOT / "book" / "_ext" / "compendium.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_box_names_the_download_and_the_pipeline_line():
    ext = _extension()
    assert ext.notebook_source("book/torus_dor/02-latency") == ROOT / "notebooks" / "torus_dor" / "02-latency.ipynb"
    assert ext.notebook_source("book/torus_dor/index") is None and ext.notebook_source("book/intro") is None
    target = ext.student_target("book/torus_dor/02-latency")
    assert target == "_downloads/notebooks/torus_dor/02-latency-quick.ipynb"
    box = ext.run_box(ext.notebook_source("book/torus_dor/02-latency"), "../../" + target)
    html = box.pformat()
    assert 'href="../../_downloads/notebooks/torus_dor/02-latency-quick.ipynb"' in html
    assert "download=" in html and "dropdown" in box["classes"]
    block = next(n for n in box.findall() if n.tagname == "literal_block").astext()
    assert block.replace("\\\n    ", "") == classroom.pipeline_command(ext.notebook_source("book/torus_dor/02-latency"))


def test_the_download_menu_offers_the_notebook_to_run_first():
    ext = _extension()
    executed = {"type": "link", "url": "../../_sources/book/torus_dor/02-latency.ipynb", "text": ".ipynb",
                "label": "download-notebook-button"}
    source = dict(executed, label="download-source-button")
    pdf = {"type": "javascript", "javascript": "window.print()", "text": ".pdf", "label": "download-pdf-button"}
    context = {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [executed, source, pdf]}],
               "pathto": lambda target, resource=0: "../../" + target}
    ext._download_menu(None, "book/torus_dor/02-latency", "page.html", context, None)
    buttons = context["header_buttons"][0]["buttons"]
    assert [b["text"] for b in buttons] == [".ipynb to run (quick)", ".ipynb as built (outputs)", ".pdf"]
    assert buttons[0]["url"] == "../../_downloads/notebooks/torus_dor/02-latency-quick.ipynb"
    assert buttons[1]["url"] == executed["url"] and buttons[1]["label"] == "download-executed-button"
    # a page read from an .ipynb has only the source entry (the executed notebook): it is relabelled
    only = {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [dict(source), dict(pdf)]}],
            "pathto": context["pathto"]}
    ext._download_menu(None, "book/torus_dor/02-latency", "page.html", only, None)
    assert [b["text"] for b in only["header_buttons"][0]["buttons"]] == [".ipynb to run (quick)",
                                                                         ".ipynb as built (outputs)", ".pdf"]
    plain = {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [dict(source, text=".md")]}],
             "pathto": context["pathto"]}
    ext._download_menu(None, "book/torus_dor/index", "page.html", plain, None)
    assert [b["text"] for b in plain["header_buttons"][0]["buttons"]] == [".md"]  # a text page keeps its menu


def test_the_books_edition_comes_from_book_edition(monkeypatch):
    ext = _extension()
    monkeypatch.delenv("BOOK_EDITION", raising=False)
    assert ext.edition() == "full"
    monkeypatch.setenv("BOOK_EDITION", "student")
    assert ext.edition() == "student"
    monkeypatch.setenv("BOOK_EDITION", "teacher")
    with pytest.raises(ValueError, match="BOOK_EDITION"):
        ext.edition()


def test_the_student_edition_offers_no_executed_notebook_of_a_page_with_solutions():
    """A page whose solutions the student edition took out: the notebook to run only (the executed notebook holds
    the solutions and their outputs); the other pages keep both."""
    from types import SimpleNamespace

    ext = _extension()
    env = SimpleNamespace(compendium_solution_pages={"book/min_mva/06-exercises"})
    app = SimpleNamespace(config=SimpleNamespace(compendium_edition="student"), env=env)

    def menu(pagename):
        executed = {"type": "link", "url": "x.ipynb", "text": ".ipynb", "label": "download-source-button"}
        context = {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [executed]}],
                   "pathto": lambda target, resource=0: "../../" + target}
        ext._download_menu(app, pagename, "page.html", context, None)
        return [b["text"] for b in context["header_buttons"][0]["buttons"]]

    assert menu("book/min_mva/06-exercises") == [".ipynb to run (quick)"]
    assert menu("book/min_mva/02-single-packet") == [".ipynb to run (quick)", ".ipynb as built (outputs)"]
    app.config.compendium_edition = "full"
    assert menu("book/min_mva/06-exercises") == [".ipynb to run (quick)", ".ipynb as built (outputs)"]


def test_the_run_box_of_an_exercises_page_says_it_has_no_solutions():
    ext = _extension()
    box = ext.run_box(ext.notebook_source("book/min_mva/06-exercises"), "x.ipynb").astext()
    assert "without their solutions" in box
    assert "without their solutions" not in ext.run_box(ext.notebook_source("book/min_mva/02-single-packet"),
                                                        "x.ipynb").astext()


@pytest.mark.notebooks
@pytest.mark.parametrize("docname", ["book/torus_dor/01-derivation", "book/torus_dor/06-exercises"])
def test_a_student_download_runs(docname, tmp_path, monkeypatch):
    """The download of the fastest page, and of an exercises page (the student edition: no solution, no check of
    one), written as the book writes it, runs top to bottom in a fresh kernel."""
    import nbclient
    import nbformat

    ext = _extension()
    dest = tmp_path / "html" / ext.student_target(docname)
    classroom.write_student_notebook(ext.notebook_source(docname), dest, ext.STUDENT_PROFILE)
    nb = json.loads(dest.read_text())
    assert _parameters(nb) == pipeline.resolve_parameters("torus_dor", docname.rsplit("/", 1)[1],
                                                           ext.notebook_source(docname), "quick")
    assert _parameters(nb)["profile"] == "quick"
    assert not [c for c in nb["cells"] if "injected-parameters" in c.get("metadata", {}).get("tags", [])]
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    work = tmp_path / "runs"
    work.mkdir()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    client = nbclient.NotebookClient(nbformat.reads(dest.read_text(), as_version=4), kernel_name="python3",
                                     timeout=300, resources={"metadata": {"path": str(work)}})
    ran = client.execute()
    errors = [o for c in ran.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    assert sum(len(c.get("outputs", [])) for c in ran.cells if c.cell_type == "code") > 0


# ----------------------------------------------------------------- the default cache of a shared checkout
def test_the_default_cache_is_the_users_own_when_the_checkout_is_read_only(tmp_path, monkeypatch):
    """``<root>/.cache`` in a checkout this user can write; else ``$XDG_CACHE_HOME/interconnect-models`` (or
    ``~/.cache/interconnect-models``): a read-only checkout shared by a class never holds one cache for all."""
    from models.core import paths

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert paths.default_cache_dir(checkout) == checkout / ".cache"
    monkeypatch.setattr(paths, "_writable", lambda path: False)
    assert paths.default_cache_dir(checkout) == tmp_path / "xdg" / "interconnect-models"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.default_cache_dir(checkout) == tmp_path / "home" / ".cache" / "interconnect-models"
    monkeypatch.delenv("MODELS_CACHE_DIR", raising=False)
    monkeypatch.setattr(paths, "ROOT", checkout)
    assert paths.cache_dir() == tmp_path / "home" / ".cache" / "interconnect-models"
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "mine"))
    assert paths.cache_dir() == tmp_path / "mine"


def test_a_read_only_checkout_is_not_written_into(tmp_path):
    """As a user who cannot write the checkout (root without its capabilities), the default cache is elsewhere."""
    checkout = tmp_path / "ro"
    checkout.mkdir()
    checkout.chmod(0o555)
    code = ("import sys; from pathlib import Path; from models.core.paths import default_cache_dir; "
            "print(default_cache_dir(Path(sys.argv[1])))")
    proc = subprocess.run(_without_root_override([sys.executable, "-c", code, str(checkout)]), capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                      "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "xdg" / "interconnect-models")
