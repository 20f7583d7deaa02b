"""The named simulator set-ups: two set-ups differ only in the knob they name."""

from types import SimpleNamespace

import pytest

from models.core.claims import setups_table
from models.core.setups import SimSettings, SimulatorSetup, named_setup
from models.core.errors import ParameterError
from models.min_mva import paper_tables
from models.min_mva.__main__ import CHAPTER, sim_curve
from models.min_mva.experiments import (DEFAULT_SETUP, FIGURES, SETUPS, paper_figure, run_figure, sim_kwargs,
                                        with_setup)


def _diff(a: dict, b: dict) -> set:
    return {k for k in set(a) | set(b) if a.get(k, object()) != b.get(k, object())}


def test_setups_are_named_and_described():
    assert list(SETUPS)[0] == DEFAULT_SETUP == "paper"
    assert all(isinstance(s, SimulatorSetup) and s.name == name for name, s in SETUPS.items())
    assert SETUPS["paper"].sim() == {"return_wiring": "mirror"}
    assert SETUPS["second-omega"].sim() == {"return_wiring": "same"}
    # both are readings of the paper's own words ("an identical network"): both may decide a verdict
    assert all(s.stands_for == "paper" and s.decides for s in SETUPS.values())
    table = setups_table(SETUPS)
    assert list(table["setup"]) == list(SETUPS) and table["description"].str.len().min() > 20
    with pytest.raises(ParameterError, match="`setup`"):
        named_setup(SETUPS, "booksim")


@pytest.mark.parametrize("label", sorted(FIGURES))
def test_setups_differ_only_in_the_return_wiring(label):
    """Same seed, run lengths and configuration: the simulator calls differ in `return_wiring` alone."""
    settings = SimSettings(cycles=5000, warmup_cycles=500, batches=5, seed=7)
    for curve in FIGURES[label].curves:
        assert curve.setup == DEFAULT_SETUP
        a, b = with_setup(curve, "paper"), with_setup(curve, "second-omega")
        for nc in (1, 8):
            ka, kb = sim_kwargs(a, nc, settings), sim_kwargs(b, nc, settings)
            assert _diff(ka, kb) == {"return_wiring"}
            assert ka["seed"] == kb["seed"] == 7 and ka["NC"] == kb["NC"] == nc
            assert (ka["return_wiring"], kb["return_wiring"]) == ("mirror", "same")
        # the model is solved for the simulated network: the same one knob
        assert _diff(a.model, b.model) == {"return_wiring"}
        assert a.label == b.label and a.loads == b.loads


def test_setup_reaches_model_and_simulator():
    runs = run_figure(paper_figure(2, [2, 4]), simulate=False, setups=["paper", "second-omega"])
    assert [r.curve.setup for r in runs] == ["paper"] * 3 + ["second-omega"] * 3
    assert [r.params["setup"] for r in runs] == ["paper"] * 3 + ["second-omega"] * 3
    assert runs[4].curve.model["return_wiring"] == "same" and sim_kwargs(runs[4].curve, 2)["return_wiring"] == "same"
    # uniform traffic: the model cannot tell the wirings apart
    assert [float(r.model["R"].iloc[0]) for r in runs[:3]] == pytest.approx([float(r.model["R"].iloc[0]) for r in runs[3:]])
    with pytest.raises(ParameterError, match="`setups`"):
        run_figure(paper_figure(2, [2]), simulate=False, setups="paper")
    with pytest.raises(ParameterError, match="`setup`"):
        run_figure(paper_figure(2, [2]), simulate=False, setups=["booksim"])


def test_the_command_simulates_the_models_return_network():
    options = {p.name: p.default for p in CHAPTER.params}
    curve = sim_curve(options, DEFAULT_SETUP)
    assert curve.setup == "paper" and curve.sim == {"return_wiring": "mirror"} and curve.model == CHAPTER.solver_kwargs(options)
    same = dict(options, return_wiring="same")
    for setup in ("paper", "second-omega"):  # the default set-up follows --return_wiring; the other agrees with it
        assert sim_curve(same, setup).setup == "second-omega" and sim_curve(same, setup).sim == {"return_wiring": "same"}
    with pytest.raises(ParameterError, match="`setup` 'second-omega'"):
        sim_curve(options, "second-omega")
    assert CHAPTER.setups == tuple(SETUPS) and CHAPTER.simulates


def test_table_runs_differ_only_in_the_return_wiring(monkeypatch):
    calls = []

    def fake_simulate(**kw):
        calls.append(kw)
        vals = paper_tables.paper_values(2, "simulation")[kw["NC"]]
        return SimpleNamespace(R=vals["R"], R_ci=0.01, stage_residence={k: v for k, v in vals.items() if k != "R"},
                               stage_ci={k: 0.01 for k in vals if k != "R"})

    monkeypatch.setattr(paper_tables, "simulate", fake_simulate)
    settings = SimSettings(cycles=1000, warmup_cycles=100, batches=5, seed=3)
    a = paper_tables.run_table(2, settings, setup="paper")
    b = paper_tables.run_table(2, settings, setup="second-omega")
    n = len(paper_tables.NC_VALUES)
    assert len(calls) == 2 * n
    for ka, kb in zip(calls[:n], calls[n:]):
        assert _diff(ka, kb) == {"return_wiring"} and ka["seed"] == kb["seed"] == 3
        assert (ka["cycles"], ka["warmup"], ka["batches"]) == (1000, 100, 5)
    assert a.attrs["setup"] == "paper" and b.attrs["setup"] == "second-omega"
    with pytest.raises(ParameterError, match="`settings`"):
        paper_tables.run_table(2, SimSettings())
