"""Shared test configuration.

Simulation results are cached under a per-session temporary folder unless
``MODELS_CACHE_DIR`` is set, so tests never read results left by an older
checkout and never write into the reader's cache.
"""

import os
import tempfile

import pytest

if "MODELS_CACHE_DIR" not in os.environ:
    os.environ["MODELS_CACHE_DIR"] = tempfile.mkdtemp(prefix="models-test-cache-")


@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    """A fresh, empty result cache for one test."""
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"
