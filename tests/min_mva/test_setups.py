"""The named simulator set-ups: two set-ups differ only in the knob they name."""

from types import SimpleNamespace

import pytest

from models.core.errors import ParameterError
from models.min_mva import paper_tables
from models.min_mva.experiments import (DEFAULT_SETUP, FIGURES, SETUPS, run_curve, run_figure, setups_table,
                                        sim_kwargs, with_setup)
from models.min_mva.setups import check_setup, setup_overrides


def _diff(a: dict, b: dict) -> set:
    return {k for k in set(a) | set(b) if a.get(k, object()) != b.get(k, object())}


def test_setups_are_named_and_described():
    assert list(SETUPS)[0] == DEFAULT_SETUP == "paper"
    assert setup_overrides("paper") == {"return_wiring": "mirror"}
    assert setup_overrides("second-omega") == {"return_wiring": "same"}
    table = setups_table()
    assert list(table["setup"]) == list(SETUPS) and table["description"].str.len().min() > 20
    with pytest.raises(ParameterError, match="`setup`"):
        check_setup("booksim")


@pytest.mark.parametrize("number", sorted(FIGURES))
def test_setups_differ_only_in_the_return_wiring(number):
    """Same seed, run lengths and configuration: the simulator calls differ in `return_wiring` alone."""
    for curve in FIGURES[number].curves:
        assert curve.setup == DEFAULT_SETUP
        a, b = with_setup(curve, "paper"), with_setup(curve, "second-omega")
        for nc in (1, 8):
            ka = sim_kwargs(a, nc, cycles=5000, warmup_cycles=500, batches=5, seed=7)
            kb = sim_kwargs(b, nc, cycles=5000, warmup_cycles=500, batches=5, seed=7)
            assert _diff(ka, kb) == {"return_wiring"}
            assert ka["seed"] == kb["seed"] == 7 and ka["NC"] == kb["NC"] == nc
            assert (ka["return_wiring"], kb["return_wiring"]) == ("mirror", "same")
        # the model is solved for the simulated network: the same one knob
        assert _diff(a.model, b.model) == {"return_wiring"}
        assert a.label == b.label and a.loads == b.loads


def test_setup_reaches_model_and_simulator():
    curve = FIGURES[2].curves[1]
    run = run_curve(curve, [2, 4], simulate=False, setup="second-omega")
    assert run.curve.setup == "second-omega" and run.params["setup"] == "second-omega"
    assert run.curve.model["return_wiring"] == "same" and sim_kwargs(run.curve, 2)["return_wiring"] == "same"
    # an override of a set-up's knob reaches the simulator too (not shadowed by the set-up's own value)
    over = run_curve(curve, [2], simulate=False, overrides={"return_wiring": "same"})
    assert sim_kwargs(over.curve, 2)["return_wiring"] == "same"
    runs = run_figure(2, [2], simulate=False, setups=["paper", "second-omega"])
    assert [r.curve.setup for r in runs] == ["paper"] * 3 + ["second-omega"] * 3
    # uniform traffic: the model cannot tell the wirings apart
    assert [float(r.model["R"].iloc[0]) for r in runs[:3]] == pytest.approx([float(r.model["R"].iloc[0]) for r in runs[3:]])
    with pytest.raises(ParameterError, match="`setups`"):
        run_figure(2, [2], simulate=False, setups="paper")


def test_table_runs_differ_only_in_the_return_wiring(monkeypatch):
    calls = []

    def fake_simulate(**kw):
        calls.append(kw)
        vals = paper_tables.paper_values(2, "simulation")[kw["NC"]]
        return SimpleNamespace(R=vals["R"], R_ci=0.01, stage_residence={k: v for k, v in vals.items() if k != "R"},
                               stage_ci={k: 0.01 for k in vals if k != "R"})

    monkeypatch.setattr(paper_tables, "simulate", fake_simulate)
    a = paper_tables.run_table(2, setup="paper", cycles=1000, warmup_cycles=100, batches=5, seed=3)
    b = paper_tables.run_table(2, setup="second-omega", cycles=1000, warmup_cycles=100, batches=5, seed=3)
    n = len(paper_tables.NC_VALUES)
    assert len(calls) == 2 * n
    for ka, kb in zip(calls[:n], calls[n:]):
        assert _diff(ka, kb) == {"return_wiring"} and ka["seed"] == kb["seed"] == 3
    assert a.attrs["setup"] == "paper" and b.attrs["setup"] == "second-omega"
