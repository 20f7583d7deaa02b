"""The named simulator set-ups: two set-ups differ only in the knob they name."""

from types import SimpleNamespace

import pytest

from models.core.claims import setups_table
from models.core.setups import SimSettings, SimulatorSetup, named_setup
from models.core.errors import ParameterError
from models.min_mva import paper_tables
from models.min_mva import setups
from models.min_mva.__main__ import CHAPTER
from models.min_mva.experiments import FIGURES, paper_figure, run_figure, sim_kwargs
from models.min_mva.params import MvaParams
from models.min_mva.setups import DEFAULT_SETUP, SETUPS, network_curve, setup_of, with_setup


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


def test_the_curve_simulates_the_models_return_network():
    """One curve per network, on the set-up of its return network: a set-up may name it, never contradict it."""
    p = MvaParams(**{q.name: q.default for q in CHAPTER.params})
    curve = network_curve(p, DEFAULT_SETUP, label="x", loads=(1, 2))
    assert curve.setup == "paper" and curve.sim == {"return_wiring": "mirror"} and curve.model == p.keywords()
    assert curve.label == "x" and curve.loads == (1, 2) and network_curve(p).setup == "paper"
    same = p.replace(return_wiring="same")
    for setup in (None, "paper", "second-omega"):  # the default set-up follows return_wiring; the other agrees with it
        c = network_curve(same, setup)
        assert c.setup == "second-omega" and c.sim == {"return_wiring": "same"} and c.model == same.keywords()
    with pytest.raises(ParameterError, match="`setup` 'second-omega'"):
        network_curve(p, "second-omega")
    with pytest.raises(ParameterError, match="`setup` must be one of"):
        setup_of("mirror", "booksim")
    with pytest.raises(ParameterError, match="`params`"):
        network_curve(p.keywords())
    # with_setup moves a checked curve to the other wiring, model and simulator alike, nothing else
    moved = with_setup(curve, SETUPS["second-omega"])
    assert moved.setup == "second-omega" and _diff(moved.model, curve.model) == {"return_wiring"}
    # the command reads the set-ups, their names and the run-length defaults from the light module
    assert CHAPTER.setups is setups and CHAPTER.setup_names == tuple(SETUPS) and CHAPTER.simulates
    assert (CHAPTER.lengths.unit, CHAPTER.lengths.length, CHAPTER.lengths.warmup) == ("cycles", 100_000, 10_000)


def test_the_network_is_checked_once_at_the_door():
    """MvaParams coerces and checks the nine keywords; compare builds its curve from it, once."""
    from models import min_mva

    p = MvaParams(k=2.0, n=3, S_pe=1, S_mm=2, m=1.0)
    assert (type(p.k), type(p.m), type(p.S_pe), type(p.S_mm)) == (int, int, float, float) and p.N == 8
    assert p.P.shape == (8, 8) and list(p.keywords()) == list(MvaParams.KEYWORDS)
    for bad, name in ((dict(k=1), "`k`"), (dict(S_mm=0.5), "`S_mm`"), (dict(m=2, S_mm=1), "`S_mm`"),
                      (dict(topology="ring"), "`topology`"), (dict(pattern="nope"), "`pattern`"),
                      (dict(return_wiring="x"), "`return_wiring`"), (dict(pattern_options=3), "`pattern_options`")):
        with pytest.raises(ParameterError, match=name):
            MvaParams(**bad)
    with pytest.raises(TypeError, match="solve"):
        MvaParams.of({"NC": 4}, "solve")
    c = min_mva.compare(k=2, n=3, S_mm=2, simulate=False, points=3, grid=0)
    assert c.run.curve.model == MvaParams(k=2, n=3, S_mm=2).keywords() and c.params == c.run.curve.model
    assert c.setup == "" and c.run.curve.setup == "paper"
    with pytest.raises(ParameterError, match="`S_mm`"):
        min_mva.compare(k=2, n=3, S_mm=0.5, simulate=False)
    with pytest.raises(ParameterError, match="unknown run option `foo`"):
        min_mva.compare(k=2, n=3, foo=100)
    with pytest.raises(ParameterError, match="`messages`: this chapter's runs are counted in cycles"):
        min_mva.compare(k=2, n=3, loads=[1], messages=100)


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
