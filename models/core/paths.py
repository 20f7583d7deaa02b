"""Absolute paths of the project (showyourwork's ``paths.py``).

The cache (:func:`cache_dir`) can be moved with the environment variable
``MODELS_CACHE_DIR`` (CI restores it between runs; a reader may point it
anywhere writable; a course server sets one per user); a relative value is
resolved once against the current directory, an empty one means the default
(:func:`default_cache_dir`): ``<root>/.cache`` in a checkout this user can
write, else a folder of this user's own, ``$XDG_CACHE_HOME/interconnect-models``
(``~/.cache/interconnect-models``), so a shared read-only checkout never
shares one cache between its users.

Every place the project writes goes through one guard, :func:`safe_destination`: the pipeline's ``--out`` and
``--book-dir`` (and each ``<folder>/<chapter>`` it writes into), ``python -m models.classroom --out`` (and each
``<out>/<chapter>``) and the printed book's ``--out``.  It follows every symbolic link and refuses the
repository itself and its sources (:data:`SOURCES`); only the book's own build writes into ``book/``.
:func:`writable_folder` then makes the folder and proves it can be written, so a bad destination is one line
naming the option before any work, never a traceback after it.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import ParameterError

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
BOOK = ROOT / "book"
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "_build"


#: The environment variable that moves the cache.
CACHE_ENV = "MODELS_CACHE_DIR"
#: A relative ``$MODELS_CACHE_DIR`` as this process first resolved it (value -> absolute path).
_RESOLVED: dict[str, Path] = {}


def resolve_cache_dir(value: str | None) -> Path | None:
    """The absolute cache folder a ``$MODELS_CACHE_DIR`` value names, or None for unset or empty.

    A relative value is resolved against the current directory the first
    time this process sees it, and that folder is kept even if the process
    changes directory later; an empty (or blank) value is treated as unset,
    so it never means the current directory (review cases P20, P21).
    """
    if value is None or not value.strip():
        return None
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    if value not in _RESOLVED:
        _RESOLVED[value] = Path(os.path.abspath(path))
    return _RESOLVED[value]


#: The cache's folder in the user's cache directory (:func:`user_cache_dir`).
USER_CACHE_NAME = "interconnect-models"


def user_cache_dir() -> Path:
    """This user's cache folder of the project: ``$XDG_CACHE_HOME/interconnect-models``, or
    ``~/.cache/interconnect-models`` (the XDG base directory rule: a relative ``$XDG_CACHE_HOME`` is ignored)."""
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / USER_CACHE_NAME


def _writable(path: Path) -> bool:
    """Whether this user may create files in the folder ``path`` (``access(2)``: a read-only mount says no)."""
    return os.access(path, os.W_OK | os.X_OK)


def default_cache_dir(root: Path | None = None) -> Path:
    """The cache without ``$MODELS_CACHE_DIR``: ``<root>/.cache`` when this user can write it (or, before it
    exists, the repository ``root``), else :func:`user_cache_dir` -- a checkout installed read-only for a class,
    or another user's, is never written into and never shared between users."""
    root = Path(root or ROOT)
    own = root / ".cache"
    return own if _writable(own if own.is_dir() else root) else user_cache_dir()


def cache_dir() -> Path:
    """The on-disk result cache: ``$MODELS_CACHE_DIR`` as an absolute path, or :func:`default_cache_dir`.

    A relative value is taken from the current directory of the process that
    first reads it (:func:`resolve_cache_dir`); the pipeline hands its
    notebooks' kernels the absolute path (:func:`models.pipeline.worker_env`),
    so they share the one cache however their working directory is set.
    """
    return resolve_cache_dir(os.environ.get(CACHE_ENV)) or default_cache_dir()


#: The repository's sources, which nothing the project runs may write into: the source notebooks, the package and
#: the book's narrative pages (the book's own build writes its outputs beside them: ``safe_destination(book=True)``).
SOURCES = ("notebooks", "models", "book")


def _real(path: Path | str, option: str) -> Path:
    """``path`` absolute with every symbolic link of every component followed (a missing tail kept as written)."""
    try:
        return Path(os.path.abspath(path)).resolve()
    except (OSError, RuntimeError) as exc:  # a symbolic link loop (RuntimeError before Python 3.13)
        raise ParameterError(f"{option}: {path}: cannot follow its symbolic links ({exc})") from None


def safe_destination(path: Path | str, option: str, *, subfolders: Iterable[str] = (), book: bool = False,
                     root: Path | None = None) -> Path:
    """Where ``path`` really is (every symbolic link followed); ``ParameterError`` naming ``option`` when it may not
    be written.

    ``path`` and each ``path/<name>`` of ``subfolders`` (a run's ``<out>/<chapter>``: a chapter folder that is a
    symbolic link is followed too) may be neither the repository's root nor inside one of its :data:`SOURCES`.
    ``book=True`` is the book's own build (the pipeline's ``--book-dir``): ``path`` may then be the repository's
    ``book/`` itself, and its subfolders inside it, but nothing else of ``book/`` (a chapter folder linked into
    ``notebooks/`` is still refused).  ``root`` is the repository (default :data:`ROOT`).
    """
    root = _real(root or ROOT, "root")
    top = _real(path, option)
    own_book = root / "book" if book and top == root / "book" else None
    for where in (top, *(top / name for name in subfolders)):
        real = _real(where, option)
        if real == root:
            raise ParameterError(f"{option}: {where}: the repository itself; give a scratch folder such as runs/")
        if own_book is not None and real.is_relative_to(own_book):
            continue
        for name in SOURCES:
            if real.is_relative_to(root / name):
                shown = f"{where} (a symbolic link to {real})" if real != Path(os.path.abspath(where)) else f"{where}"
                raise ParameterError(f"{option}: {shown}: inside {name}/, the repository's sources, which are never "
                                     "written from a run or a copy; give a scratch folder such as runs/")
    return top


def writable_folder(path: Path | str, option: str) -> Path:
    """``path`` made (with its parents) and shown writable by creating and removing a file in it; else
    ``ParameterError`` naming ``option`` and the reason (a file in the way, a read-only file system, an immutable
    or another user's folder)."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ParameterError(f"{option}: {path}: not a folder (a file is in the way)") from None
    except OSError as exc:
        raise ParameterError(f"{option}: cannot create the folder {path}: {exc.strerror or exc}") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ParameterError(f"{option}: cannot write into {path}: {exc.strerror or exc}") from None
    return path


def read_regular(path: Path | str, size: int = -1) -> bytes:
    """The first ``size`` bytes (all by default) of ``path`` if it is a regular file (a symbolic link to one
    followed); ``OSError`` otherwise, and never a wait: it is opened non-blocking and checked before it is read, so
    a FIFO named like a notebook or a PDF cannot hang the reader."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(size)
    finally:
        os.close(fd)


def git_commit() -> str:
    """Short commit hash of the working tree (``+dirty`` if modified), or ``unknown``."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        return (sha + ("+dirty" if dirty else "")) if sha else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
