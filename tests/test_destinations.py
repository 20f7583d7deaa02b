"""One guard for every place the project writes (issue #35, review N1, N17 L6): ``models.core.paths``.

:func:`~models.core.paths.safe_destination` follows every symbolic link of a destination and of each
``<folder>/<chapter>`` below it, and refuses the repository and its sources; the pipeline (``--out``,
``--book-dir``), ``python -m models.classroom --out`` and the printed book's ``--out`` all call it (their own tests:
``tests/test_pipeline_safety.py``, ``tests/test_classroom.py``, ``tests/book/test_pdf.py``).  The repository here is
a small copy in a temporary folder (``root=``), so a fault of the guard could never write into the real sources.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from models.core import paths
from models.core.errors import ParameterError
from models.core.paths import ROOT, read_regular, safe_destination, writable_folder


@pytest.fixture
def repo(tmp_path):
    """A repository's shape: ``notebooks/ch``, ``models``, ``book/ch``; and a scratch folder beside it."""
    root = tmp_path / "repo"
    for folder in ("notebooks/ch", "models", "book/ch"):
        (root / folder).mkdir(parents=True)
    (tmp_path / "scratch").mkdir()
    return root


@pytest.mark.parametrize("where", ["notebooks", "notebooks/ch", "notebooks/new/deeper", "models", "book", "book/ch",
                                   "."])
def test_the_sources_and_the_root_are_refused(repo, where):
    with pytest.raises(ParameterError, match=r"^--out: "):
        safe_destination(repo / where, "--out", root=repo)


def test_scratch_folders_inside_or_outside_the_repository_are_fine(repo, tmp_path):
    assert safe_destination(repo / "runs", "--out", subfolders=["ch"], root=repo) == repo / "runs"
    assert safe_destination(tmp_path / "scratch" / "new", "--out", subfolders=["ch"], root=repo) \
        == tmp_path / "scratch" / "new"


def test_a_symbolic_link_anywhere_is_followed(repo, tmp_path):
    """Review N-2: ``runs/min_mva -> notebooks/min_mva`` let a run overwrite the source notebook; a link in the
    middle of the path, a link to the repository and a dangling link into the sources are refused alike."""
    scratch = tmp_path / "scratch"
    (scratch / "runs").mkdir()
    os.symlink(repo / "notebooks" / "ch", scratch / "runs" / "ch")
    with pytest.raises(ParameterError, match=r"--out: .*runs/ch \(a symbolic link to .*notebooks/ch\): inside "
                                             r"notebooks/"):
        safe_destination(scratch / "runs", "--out", subfolders=["ch"], root=repo)
    assert safe_destination(scratch / "runs", "--out", subfolders=["other"], root=repo) == scratch / "runs"
    os.symlink(repo, scratch / "to-repo")
    with pytest.raises(ParameterError, match="the repository itself"):
        safe_destination(scratch / "to-repo", "--out", root=repo)
    with pytest.raises(ParameterError, match="inside models/"):
        safe_destination(scratch / "to-repo" / "models" / "x", "--out", root=repo)
    os.symlink(repo / "notebooks" / "not-yet", scratch / "dangling")
    with pytest.raises(ParameterError, match="inside notebooks/"):
        safe_destination(scratch / "dangling", "--out", root=repo)
    os.symlink(scratch / "loop", scratch / "loop")
    with pytest.raises(ParameterError, match="--out: .*loop"):
        safe_destination(scratch / "loop", "--out", root=repo)


def test_only_the_books_own_build_writes_into_book(repo, tmp_path):
    """``book=True`` (the pipeline's ``--book-dir``): the repository's ``book/`` and its chapter folders, nothing
    else of it; a chapter folder of the book linked into ``notebooks/`` is still refused (review N-1)."""
    assert safe_destination(repo / "book", "--book-dir", subfolders=["ch", "_generated"], book=True, root=repo) \
        == repo / "book"
    assert safe_destination(tmp_path / "scratch", "--book-dir", subfolders=["ch"], book=True, root=repo) \
        == tmp_path / "scratch"
    for where in ("notebooks", "book/ch", "models", "."):
        with pytest.raises(ParameterError, match="^--book-dir: "):
            safe_destination(repo / where, "--book-dir", subfolders=["ch"], book=True, root=repo)
    os.symlink(repo / "notebooks" / "ch", repo / "book" / "linked")
    with pytest.raises(ParameterError, match="--book-dir: .*inside notebooks/"):
        safe_destination(repo / "book", "--book-dir", subfolders=["linked"], book=True, root=repo)


def test_the_real_repository_is_guarded():
    for where in ("notebooks", "models/min_mva", "book"):
        with pytest.raises(ParameterError, match="inside"):
            safe_destination(ROOT / where, "--out")
    assert paths.SOURCES == ("notebooks", "models", "book")


def test_writable_folder_makes_the_folder_or_says_why_not(tmp_path):
    assert writable_folder(tmp_path / "a" / "b", "--out") == tmp_path / "a" / "b"
    assert (tmp_path / "a" / "b").is_dir() and not list((tmp_path / "a" / "b").iterdir())  # the probe is gone
    (tmp_path / "file").write_text("x")
    with pytest.raises(ParameterError, match=r"^--out: .*file: not a folder"):
        writable_folder(tmp_path / "file", "--out")
    with pytest.raises(ParameterError, match=r"^--out: cannot create the folder .*file/below"):
        writable_folder(tmp_path / "file" / "below", "--out")


def test_writable_folder_refuses_an_immutable_folder(tmp_path):
    """Review C7: a ``chattr +i`` folder (refused even to root)."""
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(frozen)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        with pytest.raises(ParameterError, match=r"^--out: cannot write into .*frozen: Operation not permitted"):
            writable_folder(frozen, "--out")
    finally:
        subprocess.run(["chattr", "-i", str(frozen)], check=True)


def test_read_regular_never_waits_on_a_fifo(tmp_path):
    (tmp_path / "file").write_bytes(b"%PDF-1.7 rest")
    assert read_regular(tmp_path / "file", 5) == b"%PDF-" and read_regular(tmp_path / "file") == b"%PDF-1.7 rest"
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError, match="not a regular file"):
        read_regular(tmp_path / "fifo")


# ----------------------------------------------------------------------------- make lab LAB_DIR="a folder with a space"
def test_make_lab_passes_a_folder_with_spaces_and_quotes_as_one_word(tmp_path):
    """Review L6: ``make lab LAB_DIR="<scratch>/my lab"`` ran ``models.classroom --out <scratch>/my lab`` (two
    arguments: ``no notebook or chapter 'lab'``).  The commands ``make -n lab`` prints are run by a shell that
    prints their arguments instead: one argument each, the folder as given."""
    folder = str(tmp_path / "my lab's (1) & x;y [a]")
    proc = subprocess.run([shutil.which("make"), "-s", "-n", "-C", str(ROOT), "-W", "pyproject.toml", "lab",
                           f"LAB_DIR={folder}"], capture_output=True, text=True, timeout=60)
    lines = [line for line in proc.stdout.splitlines() if "models.classroom" in line or "jupyter lab" in line]
    assert len(lines) == 2, proc.stdout + proc.stderr
    copies, serve = lines
    out, edition = copies.split(" --out ", 1)[1].rsplit(" --edition ", 1)
    shown = subprocess.run(["sh", "-c", "printf '%s\\n' " + out], capture_output=True, text=True, check=True).stdout
    assert shown == folder + "\n" and edition == "student"  # the notebooks to run: the student edition
    shown = subprocess.run(["sh", "-c", "printf '%s\\n' " + serve.split(" --no-browser ", 1)[1]], capture_output=True,
                           text=True, check=True).stdout
    assert shown == f"--ServerApp.root_dir={folder}\n"
    plain = subprocess.run([shutil.which("make"), "-s", "-n", "-C", str(ROOT), "-W", "pyproject.toml", "lab"],
                           capture_output=True, text=True, timeout=60).stdout
    assert "-m models.classroom --out runs/notebooks --edition student\n" in plain and "root_dir=runs/notebooks " in plain
    assert Path(folder).exists() is False  # make -n ran nothing
