"""The warm-up part's pages run with the quick profile, like every page (the book's shared quick run)."""

from __future__ import annotations

import pytest


@pytest.mark.notebooks
def test_the_warm_up_pages_run_with_the_quick_profile(quick_book):
    site, runs, failures = quick_book
    ours = [r for r in runs if r.chapter == "tools"]
    assert [r.name for r in ours] == ["01-zero-load", "02-littles-law", "03-mg1-wait", "04-saturation",
                                      "05-exercises"]
    assert all(r.output.exists() for r in ours), "a page of the warm-up failed (see the pipeline's output)"
    figures = {p.stem for p in (site / "book" / "tools" / "figures").glob("*.svg")}
    assert figures == {"fig-tools-zero-load", "fig-tools-little", "fig-tools-mg1", "fig-tools-saturation"}
