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
