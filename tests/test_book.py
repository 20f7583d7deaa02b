"""End to end: every notebook with the quick profile, then a -W build of the book.

Runs in a temporary copy of the book's sources, so the reader's own
(paper-scale) outputs in book/ are never overwritten by quick runs.
"""

import pytest


@pytest.mark.notebooks
def test_every_notebook_runs_with_the_quick_profile(quick_book):
    site, runs, failures = quick_book
    assert failures == 0, "a notebook failed (see the output above and _build/failed/)"
    for run in runs:
        assert run.output.exists()
    figures = list((site / "book").glob("*/figures/*.svg"))
    assert figures, "no figure was saved"


@pytest.mark.notebooks
@pytest.mark.book
def test_book_builds_without_warnings(quick_book, quick_html):
    site, runs, failures = quick_book
    html, proc = quick_html
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    for run in runs:
        page = html / "book" / run.chapter / f"{run.name}.html"
        assert page.exists(), page
    text = (html / "book" / "min_mva" / "02-single-packet.html").read_text()
    assert "fig-min_mva-fig2" in text and "<img" in text
    report = (html / "book" / "reproducibility.html").read_text()
    for run in runs:
        assert run.slug in report, f"{run.slug} missing from the reproducibility report"


def check_teaching_pages(html, runs) -> None:
    """Every notebook page of a built book has its box and its notebook to run; every exercises page its exercises
    and folded solutions (``tests/test_classroom.py``, ``tests/test_exercises.py`` check the sources)."""
    import json
    import re

    from models import pipeline

    for run in runs:
        page = (html / "book" / run.chapter / f"{run.name}.html").read_text()
        target = f"_downloads/notebooks/{run.chapter}/{run.name}-quick.ipynb"
        assert "compendium-run" in page and "Run this page yourself" in page, run.slug
        assert f'../../{target}"' in page and "btn-download-student-button" in page, run.slug
        assert re.search(r'btn-download-executed-button[^>]*>(?:(?!</a>).)*\.ipynb as built \(outputs\)', page, re.S), run.slug
        nb = json.loads((html / target).read_text())
        assert not [c for c in nb["cells"] if "injected-parameters" in c.get("metadata", {}).get("tags", [])]
        params = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
        assert 'profile: str = "quick"' in "".join(params["source"]), run.slug
        if run.name.endswith("-exercises"):
            assert len(re.findall(r'class="[^"]*\bexercise\b', page)) >= 3, run.slug
            assert len(re.findall(r'class="[^"]*\bsolution\b[^"]*\bdropdown\b', page)) >= 3, run.slug
    assert len([r for r in runs if r.name.endswith("-exercises")]) == len(
        {c for c, _, _ in pipeline.notebook_sources() if c != "findings"})


@pytest.mark.notebooks
@pytest.mark.book
def test_notebook_pages_offer_a_notebook_to_run_and_exercises(quick_book, quick_html):
    html, proc = quick_html
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    check_teaching_pages(html, quick_book[1])
