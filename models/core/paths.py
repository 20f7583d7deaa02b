"""Absolute paths of the project (showyourwork's ``paths.py``).

``CACHE`` can be moved with the environment variable ``MODELS_CACHE_DIR``
(CI restores it between runs; a reader may point it anywhere writable).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
BOOK = ROOT / "book"
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "_build"


def cache_dir() -> Path:
    """The on-disk result cache (``$MODELS_CACHE_DIR`` or ``<root>/.cache``)."""
    return Path(os.environ.get("MODELS_CACHE_DIR", ROOT / ".cache"))
