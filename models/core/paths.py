"""Absolute paths of the project (showyourwork's ``paths.py``).

``CACHE`` can be moved with the environment variable ``MODELS_CACHE_DIR``
(CI restores it between runs; a reader may point it anywhere writable).
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


def cache_dir() -> Path:
    """The on-disk result cache (``$MODELS_CACHE_DIR`` or ``<root>/.cache``)."""
    return Path(os.environ.get("MODELS_CACHE_DIR", ROOT / ".cache"))


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
