"""`make test` is all the set-up a fresh machine needs (issue #26): it installs Chromium for the browser test.

The Makefile's ``browser`` target is run with a PATH that has no ``chromium`` and a stand-in ``apt-get``
that records its arguments, so the test shows that the install step runs from the Makefile without
installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bare_path(tmp_path):
    """A PATH with a shell, ``id`` and a recording ``apt-get``, and no ``chromium``."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("sh", "id"):
        os.symlink(shutil.which(tool), bin_ / tool)
    log = tmp_path / "apt.log"
    (bin_ / "apt-get").write_text(f"#!{shutil.which('sh')}\necho \"$@\" >> {log}\n")
    (bin_ / "apt-get").chmod(0o755)
    (bin_ / "sudo").write_text(f"#!{shutil.which('sh')}\nexec \"$@\"\n")
    (bin_ / "sudo").chmod(0o755)
    return bin_, log


def _make(target, path, **env):
    return subprocess.run([shutil.which("make"), "-s", "-C", str(ROOT), target],
                          env={"PATH": str(path), "HOME": os.environ.get("HOME", "/"), **env},
                          capture_output=True, text=True, timeout=60)


def test_make_installs_chromium_when_missing(bare_path):
    bin_, log = bare_path
    proc = _make("browser", bin_)
    assert proc.returncode == 0, proc.stderr
    assert "installing chromium" in proc.stdout
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq chromium"]


def test_make_leaves_an_installed_or_named_browser_alone(bare_path):
    bin_, log = bare_path
    assert _make("browser", bin_, CHROMIUM="/opt/my/chromium").returncode == 0
    os.symlink("/bin/true", bin_ / "chromium")
    assert _make("browser", bin_).returncode == 0
    assert not log.exists()


def test_make_test_and_pdf_depend_on_the_browser():
    proc = subprocess.run([shutil.which("make"), "-C", str(ROOT), "-n", "-p", "test"], capture_output=True, text=True,
                          timeout=60)
    rules = {line.split(":")[0]: line.split(":", 1)[1].split() for line in proc.stdout.splitlines()
             if line and not line.startswith(("#", "\t")) and ":" in line and "=" not in line.split(":")[0]}
    assert "deps" in rules["test"] and "browser" in rules["deps"] and "browser" in rules["pdf"]


def test_make_lab_serves_the_notebooks_to_run_on_loopback_only():
    """``make lab`` installs the optional extra, writes the notebooks to run and starts JupyterLab on 127.0.0.1
    with its token (no option that empties it); the extra is pinned in pyproject.toml."""
    import tomllib

    proc = subprocess.run([shutil.which("make"), "-C", str(ROOT), "-n", "-W", "pyproject.toml", "lab"],
                          capture_output=True, text=True, timeout=60)
    lines = [line for line in proc.stdout.splitlines() if "jupyter lab" in line or "models.classroom" in line
             or '".[lab]"' in line]
    assert len(lines) == 3, proc.stdout
    install, copies, serve = lines
    assert '-e ".[lab]"' in install and "-m models.classroom --out runs/notebooks" in copies
    assert "--ip=127.0.0.1" in serve and "--no-browser" in serve and "runs/notebooks" in serve
    assert "token" not in serve.lower() and "0.0.0.0" not in serve
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["lab"]
    assert extra and all("==" in pin for pin in extra)


def _dry_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([shutil.which("make"), "-C", str(ROOT), "-n", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MAKEFLAGS": ""})


def test_make_book_edition_student_builds_the_html_the_pdf_and_the_solutions():
    """The student edition: its HTML (``BOOK_EDITION=student``, in ``_build/student/``), its PDF and the solutions
    PDF beside it; the full edition (the default) as before."""
    lines = _dry_run("book", "EDITION=student", "DOCTREES=/nonexistent").stdout.splitlines()
    html = [ln for ln in lines if "jupyter-book build" in ln]
    assert html == ["BOOK_EDITION=student .venv/bin/jupyter-book build . --path-output _build/student -n -W "
                    "--keep-going"]
    prints = [ln for ln in lines if "-m models.book.pdf" in ln]
    assert [p.split("models.book.pdf ")[1].strip() for p in prints] == ["--edition student --code shown",
                                                                          "--edition solutions --code shown"]
    assert lines.index(html[0]) > next(i for i, ln in enumerate(lines) if "-m models.pipeline" in ln)
    full = _dry_run("book", "DOCTREES=/nonexistent").stdout
    assert "BOOK_EDITION=full .venv/bin/jupyter-book build . -n -W --keep-going" in full
    assert "models.book.pdf" not in full


def test_a_changed_table_of_contents_rebuilds_every_page(tmp_path):
    """Sphinx's incremental build cannot follow a _toc.yml whose parts changed (a KeyError on a moved page): a
    _toc.yml newer than the edition's Sphinx environment makes ``make html`` rebuild every page (``--all``); an
    environment newer than it, or none (a first build), does not."""
    env = tmp_path / "environment.pickle"
    env.write_bytes(b"")
    os.utime(env, (0, 0))  # older than _toc.yml
    html = [ln for ln in _dry_run("html", f"DOCTREES={tmp_path}").stdout.splitlines() if "jupyter-book build" in ln]
    assert html == ["BOOK_EDITION=full .venv/bin/jupyter-book build . --all -n -W --keep-going"]
    os.utime(env, None)  # now: newer than _toc.yml
    assert "--all" not in _dry_run("html", f"DOCTREES={tmp_path}").stdout
    assert "--all" not in _dry_run("html", "DOCTREES=/nonexistent").stdout


def test_make_pdf_takes_the_edition_and_the_code():
    out = _dry_run("pdf", "CODE=hidden").stdout
    assert "-m models.book.pdf --check-out --edition full --code hidden" in out
    assert "-m models.book.pdf --edition full --code hidden" in out and "--edition solutions" not in out
    out = _dry_run("pdf", "EDITION=student").stdout
    assert "--edition student --code shown" in out and "--edition solutions --code shown" in out
    for bad in ("EDITION=teacher", "CODE=none"):
        proc = _dry_run("pdf", bad)
        assert proc.returncode != 0 and bad.split("=")[0] in proc.stderr


def test_make_lab_writes_the_student_edition_unless_told():
    assert "-m models.classroom --out runs/notebooks --edition student" in _dry_run("-W", "pyproject.toml",
                                                                                     "lab").stdout
    assert "--edition full" in _dry_run("-W", "pyproject.toml", "lab", "EDITION=full").stdout


def test_make_run_compiles_the_kernels_once_before_the_notebooks_start():
    """``make run`` (so ``make book``) compiles every simulator kernel first, each once (:mod:`models.sim.warm`):
    two notebooks that start together on a fresh checkout each compiled the ideal router before."""
    lines = _dry_run("run", "JOBS=3").stdout.splitlines()
    warm = [i for i, ln in enumerate(lines) if "-m models.sim.warm" in ln]
    assert len(warm) == 1 and lines[warm[0]].endswith("--jobs 3")
    assert warm[0] < next(i for i, ln in enumerate(lines) if "-m models.pipeline" in ln)
