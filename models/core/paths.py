"""Absolute paths of the project (showyourwork's ``paths.py``).

The cache (:func:`cache_dir`) can be moved with the environment variable
``MODELS_CACHE_DIR`` (CI restores it between runs; a reader may point it
anywhere writable); a relative value is resolved once against the current
directory, an empty one means the default ``<root>/.cache``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

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


def cache_dir() -> Path:
    """The on-disk result cache: ``$MODELS_CACHE_DIR`` as an absolute path, or ``<root>/.cache``.

    A relative value is taken from the current directory of the process that
    first reads it (:func:`resolve_cache_dir`); the pipeline hands its
    notebooks' kernels the absolute path (:func:`models.pipeline.worker_env`),
    so they share the one cache however their working directory is set.
    """
    return resolve_cache_dir(os.environ.get(CACHE_ENV)) or ROOT / ".cache"


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
