"""The five atlases side by side (:mod:`models.findings.trust`): read from the tables, re-typing no number."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import models
from models.core import atlas as core
from models.findings import trust


def _frame(spec, worsts, setup=None):
    cells = core.cells(spec, spec.quick)[: len(worsts)]
    rows = []
    for cell, w in zip(cells, worsts):
        rows.append({**cell, "setup": setup or spec.setups[0], "paper configuration": spec.is_paper(cell),
                     "saturation ratio": 0.5 if math.isinf(w) else 1.0, "worst |err|": w, "band": core.band(w),
                     "uncertain": "", "why no sim saturation": ""})
    return pd.DataFrame(rows)


def test_every_chapter_has_an_atlas():
    assert set(trust.SPECS) == set(models.CHAPTERS)


def test_band_table_counts_and_sentences(tmp_path):
    spec = trust.SPECS["torus_nbc"]
    frame = _frame(spec, [0.01, 0.07, 0.3, math.inf])
    core.write_atlas(frame, core.atlas_file(tmp_path, "torus_nbc"))
    atlases = trust.read_atlases(tmp_path, ["torus_nbc"])
    table = trust.band_table(atlases)
    r = table.iloc[0]
    assert (r["configurations"], r["within 5 %"], r["within 10 %"], r["beyond 10 %"], r["saturates early"]) == \
        (4, 1, 2, 1, 1)
    assert r["stands for"] == "the model" and r["median saturation ratio"] == 1.0
    values = trust.glue_values(table, atlases)
    assert values["findings-trust-within5"] == 1 and values["findings-trust-early"] == 1
    assert "within 5 % at 1 of 4 configurations" in values["findings-trust-torus_nbc"]
    fig = trust.plot_bands(table)
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_a_missing_atlas_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="tab-min_mva-atlas.csv"):
        trust.read_atlases(tmp_path, ["min_mva"])
