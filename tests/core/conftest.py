"""Fixtures of the core tests."""

import pytest

from models.core import cache, symbolic


@pytest.fixture
def iso(tmp_path, monkeypatch):
    """A fresh cache folder and key folder; the once-per-process memories emptied."""
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for memo in (cache._keys, cache._warned, cache._swept, symbolic._SETS, symbolic._warned):
        memo.clear()
    yield tmp_path
    for memo in (cache._keys, cache._warned, cache._swept, symbolic._SETS, symbolic._warned):
        memo.clear()
