"""The figure runners and error tables behind the min_mva notebooks."""

import numpy as np
import pandas as pd
import pytest

from models.core.errors import ParameterError
from models.min_mva.experiments import FIGURES, error_tables, run_curve, run_figure


def test_figures_match_the_paper_captions():
    assert sorted(FIGURES) == [2, 3, 4, 5, 6, 7, 8]
    assert [c.config["S_mm"] for c in FIGURES[2].curves] == [1, 2, 4]
    assert FIGURES[4].curves[0].config["k"] == 4 and FIGURES[4].curves[0].config["n"] == 3
    assert FIGURES[5].curves[0].config["n"] == 7
    for number, m in ((6, 2), (7, 4), (8, 8)):
        assert [c.config["S_mm"] for c in FIGURES[number].curves] == [m, 2 * m]
        assert all(c.config["m"] == m for c in FIGURES[number].curves)


def test_model_only_curve_is_monotone_and_bounded():
    frame = run_figure(2, [1, 2, 4, 8, 16, 32], simulate=False)
    assert list(frame.columns[:2]) == ["figure", "curve"]
    for _, g in frame.groupby("curve"):
        assert g["model R"].is_monotonic_increasing and g["model X"].is_monotonic_increasing
    # throughput never exceeds what the memories can serve: N / S_mm requests per cycle
    for label, smm in (("S_mm=2", 2), ("S_mm=4", 4)):
        assert frame[frame["curve"] == label]["model X"].max() < 64 / smm
    with pytest.raises(ParameterError, match="`NC`"):
        run_curve(FIGURES[2].curves[0], [0], simulate=False)


def test_error_tables_keep_figures_apart():
    rows = []
    for fig in (2, 5):
        for nc in (1, 2):
            rows.append({"figure": fig, "curve": "S_mm=1", "NC": nc, "model R": 10.0 * fig, "model X": 1.0,
                         "sim R": 10.0 * fig * (1 + 0.01 * fig), "sim R CI": 0.0, "sim X": 1.0, "sim X CI": 0.1})
    points, summary = error_tables(pd.DataFrame(rows))
    assert list(summary["curve"]) == ["Fig. 2, S_mm=1: R", "Fig. 5, S_mm=1: R", "Fig. 2, S_mm=1: X", "Fig. 5, S_mm=1: X"]
    assert summary["points"].tolist() == [2, 2, 2, 2]
    assert np.allclose(summary["max |rel. error|"][:2], [1 - 1 / 1.02, 1 - 1 / 1.05])
    assert summary["in CI"].tolist()[2:] == ["2/2", "2/2"]
