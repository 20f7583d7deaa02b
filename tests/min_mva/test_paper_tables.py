"""The paper's tables as transcribed, and compare_table."""

from dataclasses import dataclass

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.min_mva.paper_tables import CONFIG, NC_VALUES, ROWS, compare_table, paper_table, paper_values


def test_tables_as_printed():
    t1, t2 = paper_table(1), paper_table(2)
    assert len(t1) == len(ROWS) * len(NC_VALUES) == len(t2)
    assert paper_values(1)[32]["R1"] == 2.414 and paper_values(1, "simulation")[32]["F5"] == 3.405
    assert paper_values(2)[8]["MM"] == 4.008 and paper_values(2, "simulation")[32]["R"] == 64.289
    assert t1.attrs["config"]["S_mm"] == 1.0 and t2.attrs["config"]["S_mm"] == 2.0
    assert CONFIG[2]["k"] == 2 and CONFIG[2]["n"] == 6
    with pytest.raises(ParameterError, match="which"):
        paper_table(3)


@dataclass
class _Fake:
    stage_residence: dict
    R: float
    stage_ci: dict | None = None
    R_ci: float = 0.0


def test_compare_table_duck_types():
    vals = paper_values(2)
    sims = paper_values(2, "simulation")
    ana = {nc: _Fake({k: v + 0.001 for k, v in vals[nc].items() if k != "R"}, vals[nc]["R"]) for nc in (2, 4)}
    sim = {nc: _Fake({k: v for k, v in sims[nc].items() if k != "R"}, sims[nc]["R"] + 0.5,
                     {k: 0.01 for k in sims[nc] if k != "R"}, 0.1) for nc in (2, 4)}
    df = compare_table(2, ana, sim)
    assert set(df.NC) == {2, 4} and len(df) == 2 * len(ROWS)
    st = df[df.row != "R"]
    np.testing.assert_allclose(st.diff_analytic, 0.001, atol=1e-12)
    np.testing.assert_allclose(st.diff_sim, 0.0, atol=1e-12)
    assert st.paper_sim_in_ci.all()
    r = df[df.row == "R"]
    assert not r.paper_sim_in_ci.any() and np.allclose(r.diff_sim, 0.5)
