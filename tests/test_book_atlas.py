"""The atlases of the quick book (issue #37's checks): their tables, their figures, the wide sentences' rows."""

from __future__ import annotations

import importlib
import math

import pytest

import models
from models.core import atlas as core
from models.core.atlas_plot import PAPER_EDGE, heatmaps

pytestmark = pytest.mark.notebooks


@pytest.mark.parametrize("chapter", models.CHAPTERS)
def test_every_atlas_row_has_a_simulated_saturation_or_says_why(quick_book, chapter):
    site, _, failures = quick_book
    assert failures == 0
    frame = core.read_atlas(core.atlas_file(site / "book", chapter))
    spec = importlib.import_module(f"models.{chapter}.atlas").SPEC
    assert len(frame) == len(core.cells(spec, spec.quick)) * len(spec.setups)
    for _, r in frame.iterrows():
        assert math.isfinite(float(r["sim saturation"])) or r["why no sim saturation"].strip(), dict(r)
    assert set(frame["band"]) <= {"within 5 %", "within 10 %", "beyond 10 %", core.EARLY, core.NOT_SIMULATED}
    assert list(frame["paper configuration"].astype(bool)) == [spec.is_paper(c) for c in
                                                                frame[[a.name for a in spec.axes]].to_dict("records")]
    fig = heatmaps(frame, spec)
    framed = [p for ax in fig.axes for p in ax.patches if p.get_linewidth() == PAPER_EDGE["lw"]]
    assert len(framed) == int(frame["paper configuration"].astype(bool).sum())
    import matplotlib.pyplot as plt

    plt.close(fig)
    svg = site / "book" / chapter / "figures" / f"fig-{chapter}-atlas.svg"
    assert svg.is_file()
    claims = site / "book" / chapter / "tables" / f"tab-{chapter}-atlas-claims.csv"
    judged = importlib.import_module(f"models.{chapter}.claims").ATLAS_CLAIMS
    assert claims.is_file() and (len(claims.read_text().splitlines()) > 1) == bool(judged)


def test_the_findings_page_reads_every_atlas(quick_book):
    site, _, _ = quick_book
    table = (site / "book" / "findings" / "tables" / "tab-findings-trust.csv").read_text()
    for chapter in models.CHAPTERS:
        assert f"\n{chapter}," in table
