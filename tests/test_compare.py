"""Every chapter's ``compare`` against the chapter's own numbers (issue #28, item 3).

On one small configuration per chapter (4x4 or 8x8 networks, a few loads, short runs): the model at the
compared loads is the chapter's ``solve_curve`` there, exactly (and ``solve`` to 1e-9); the simulated
points are what the chapter's ``experiments.simulate_curve`` gives with the same settings and seed, exactly;
the simulated saturation load is the one the chapter's own ``run_figure`` (``run_curve`` with the chapter's
search) finds for the same curve, exactly, and its simulated points agree (exactly where the loads are the
same, within the 95% intervals where the chapter rounds its loads).  The signature of each ``compare``
follows the chapter's command line (``__main__.CHAPTER``); bad parameters are ``ValueError`` naming them; the
model alone imports no simulator.  The shared loop itself: ``tests/core/test_compare.py``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import models
from models.core.claims import worst_error_below
from models.core.compare import Comparison
from models.core.results import SimPoint, ci_column
from models.core.setups import Figure

ROOT = Path(__file__).resolve().parents[1]

#: Per chapter: parameters of ``compare``, its run options (short), and a bad parameter (name, value).
CASES = {
    "min_mva": dict(params=dict(k=2, n=2, S_mm=2), run=dict(loads=[1, 2, 4], cycles=4000, warmup=400),
                    bad=("S_mm", 0.5)),
    "torus_dor": dict(params=dict(radices=(4, 4), L=3, M=8), run=dict(points=3, messages=400, warmup=50),
                      bad=("L", 1)),
    "torus_ipp": dict(params=dict(k=8, V=3, M=8), run=dict(points=3, messages=1000, warmup=200), bad=("k", 6)),
    "torus_nbc": dict(params=dict(k=4, M=8, V=5), run=dict(points=3, messages=400, warmup=50), bad=("V", 3)),
    "xfolded_tm": dict(params=dict(k=4, M=8, V=2), run=dict(points=3, messages=400, warmup=50), bad=("k", 2)),
}


def _front(name):
    return importlib.import_module(f"models.{name}")


@pytest.fixture(scope="module")
def comparisons(tmp_path_factory):
    """One comparison per chapter, in a cache of its own (the module's runs share it)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MODELS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    out = {}
    yield out
    mp.undo()


def _comparison(comparisons, name) -> Comparison:
    if name not in comparisons:
        case = CASES[name]
        comparisons[name] = _front(name).compare(**case["params"], **case["run"])
    return comparisons[name]


@pytest.mark.parametrize("name", [n for n in models.CHAPTERS if n in CASES])
def test_model_and_simulation_are_the_chapters_own(name, comparisons):
    front = _front(name)
    experiments = importlib.import_module(f"models.{name}.experiments")
    c = _comparison(comparisons, name)
    curve = c.run.curve
    loads = list(c.loads)
    # the model: the chapter's solve_curve at the same loads, exactly; solve to 1e-9
    ref = front.solve_curve(loads, **curve.model)
    got = c.model_at()
    assert np.array_equal(got["latency"].to_numpy(), np.asarray(ref.latency, dtype=float))
    assert list(got["saturated"]) == [bool(s) for s in ref.saturated]
    for x, lat in zip(loads, got["latency"]):
        one = front.solve(x, **curve.model).latency
        assert (math.isinf(one) and math.isinf(lat)) or lat == pytest.approx(one, rel=1e-9)
    assert not c.model["latency"].isna().any() and (c.model["latency"] > 0).all()  # saturated: inf, never NaN
    # the simulation: the chapter's own hook, same settings and seed, exactly (the accuracy loads as their own list)
    rows = [None] * len(loads)
    for group in _sweeps(c):
        for i, r in zip(group, experiments.simulate_curve(curve, [loads[i] for i in group], c.settings)):
            rows[i] = r
    assert all(isinstance(r, SimPoint) for r in rows)
    assert np.array_equal(c.sim["latency"].to_numpy(), [r.latency for r in rows])
    assert np.array_equal(c.sim[ci_column("latency")].to_numpy(), [r.latency_ci for r in rows], equal_nan=True)
    assert list(c.sim["saturated"]) == [r.saturated for r in rows]
    # the error table: (model - sim) / sim; the worst by the book's function
    e = c.errors
    ok = np.isfinite(e["model latency"]) & np.isfinite(e["sim latency"])
    assert np.allclose(e["error"][ok], (e["model latency"][ok] - e["sim latency"][ok]) / e["sim latency"][ok])
    if CASES[name]["run"].get("loads") is None:  # open systems: up to the simulated saturation, bracketed
        lo, hi = c.sim_bracket
        assert lo < c.sim_saturation < hi and c.sim_saturation == 0.5 * (lo + hi)
        assert c.loads[-1] == pytest.approx(c.sim_saturation, rel=1e-12)
        assert c.worst_error == worst_error_below(c.run) or (math.isnan(c.worst_error)
                                                              and math.isnan(worst_error_below(c.run)))
    else:
        assert math.isnan(c.sim_saturation) and math.isnan(c.model_saturation) and front.CLOSED_SYSTEM


def _sweeps(c) -> list[list[int]]:
    """The indices of the comparison's loads in the order ``compare`` simulates them: the loads at the fixed accuracy
    fractions as one list first (so they are the same runs whatever the grid), then the others; one list when the
    loads were given or there is no simulated saturation load."""
    from models.core.compare import loads_computed_at_accuracy

    computed = c.run.params.get("fractions_of") == "sim" and not c.worst_rule.startswith("over the given")
    first = [i for i, f in enumerate(c.sim["fraction"]) if loads_computed_at_accuracy(float(f), computed)]
    rest = [i for i in range(len(c.loads)) if i not in first]
    return [g for g in (first, rest) if g]


def _figure_run(name, c):
    """The chapter's run_figure on the comparison's curve at the same fractions of the simulated saturation, each of
    the comparison's sweeps (:func:`_sweeps`) a figure of its own, their simulated points put together by load."""
    runs = [_figure_run_at(name, c, group) for group in _sweeps(c)]
    run, scale = runs[0]
    if len(runs) > 1:
        sim = pd.concat([r.sim for r, _ in runs]).sort_values("load", kind="mergesort").reset_index(drop=True)
        run = dataclasses.replace(run, sim=sim)
    return run, scale


def _figure_run_at(name, c, group):
    ex = importlib.import_module(f"models.{name}.experiments")
    curve = c.run.curve
    if name == "min_mva":
        fig = Figure("fig-min_mva-test", "t", (curve.replace(loads=tuple(c.loads[i] for i in group)),), quantity="R")
        return ex.run_figure(fig, c.settings, setups=(curve.setup,))[0], 1.0
    fractions = tuple(c.sim["fraction"].iloc[i] for i in group)
    if name == "torus_dor":
        fig = ex.curves_figure("fig-torus_dor-test", "t", [curve.replace(loads=fractions)])
        return ex.run_figure(fig, c.settings, model_points=0)[0], 1.0
    if name == "xfolded_tm":  # the validation figure: injection rates (flits/node/cycle), lam = injection / M
        fig = Figure("fig-xfolded_tm-validation", "t", (curve.replace(loads=fractions, fractions_of="sim"),),
                     x_unit="flits/node/cycle")
        return ex.run_figure(fig, c.settings)[0], float(curve.model["M"])
    fig = Figure(f"fig-{name}-test", "t", (curve.replace(loads=fractions, fractions_of="sim"),))
    return ex.run_figure(fig, c.settings, model_points=1)[0], 1.0


@pytest.mark.parametrize("name", [n for n in models.CHAPTERS if n in CASES])
def test_simulated_saturation_is_run_curves(name, comparisons):
    """The chapter's run_figure (run_curve with its own search) on the same curve finds the same simulated
    saturation load, and simulates the same points: exactly where its loads are the same, else within the CIs
    (torus_nbc and xfolded_tm round their loads to 6 digits)."""
    c = _comparison(comparisons, name)
    run, scale = _figure_run(name, c)
    if name != "min_mva":
        assert run.sim_saturation / scale == c.sim_saturation
    q = run.quantity
    theirs = run.sim[q].to_numpy(dtype=float)
    ci = run.sim[f"{q} CI"].to_numpy(dtype=float)
    mine = c.sim["latency"].to_numpy(dtype=float)
    same_loads = np.allclose(run.sim["load"].to_numpy(dtype=float) / scale, c.loads, rtol=0, atol=0)
    if same_loads:
        assert np.array_equal(theirs, mine)
    else:
        assert np.allclose(run.sim["load"].to_numpy(dtype=float) / scale, c.loads, rtol=1e-5)
        ok = np.isfinite(theirs) & np.isfinite(mine)
        assert np.all(np.abs(theirs[ok] - mine[ok]) <= 2 * (ci[ok] + c.sim["latency CI"].to_numpy()[ok]))


@pytest.mark.parametrize("name", models.CHAPTERS)
def test_signature_is_the_command_lines(name):
    """``compare`` takes the command's parameters, named and defaulted as ``--help`` states them, keyword-only,
    then the run options (``**run``: :class:`~models.core.compare.RunOptions`, documented once), whose run-length
    defaults are the command's (the chapter's ``setups.RUN``, written once)."""
    main = importlib.import_module(f"models.{name}.__main__").CHAPTER
    mod = importlib.import_module(f"models.{name}.compare")
    setups = importlib.import_module(f"models.{name}.setups")
    sig = inspect.signature(_front(name).compare)
    assert _front(name).compare is mod.compare
    params = list(sig.parameters.values())
    assert params[-1].kind is inspect.Parameter.VAR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[:-1])
    for p in main.params:
        assert p.name in sig.parameters, f"{name}.compare lacks {p.name}"
        default = sig.parameters[p.name].default
        if p.required:
            assert default is inspect.Parameter.empty, p.name
        elif not p.flag:
            assert default == (tuple(p.default) if isinstance(p.default, list) else p.default), p.name
        else:
            assert default is False, p.name
    assert main.lengths is setups.RUN and main.setup_names[0] == setups.DEFAULT_SETUP
    assert main.sim_unit == ("cycles" if _front(name).CLOSED_SYSTEM else "messages")
    doc = _front(name).compare.__doc__
    assert "Parameters" in doc and "Returns" in doc and "ValueError" in doc and "cycles" in doc and "RunOptions" in doc


def test_the_run_options_are_refused_alike_by_every_chapter():
    for name in models.CHAPTERS:
        kw = dict(_front(name).EXAMPLE) if name != "torus_nbc" else dict(k=8, M=32)
        kw.pop("ad", None)  # xfolded_tm's model-only distance: a simulation refuses it first
        with pytest.raises(ValueError, match="unknown run option `mesages`"):
            _front(name).compare(**kw, mesages=500)
        other = "messages" if _front(name).CLOSED_SYSTEM else "cycles"
        with pytest.raises(ValueError, match=f"`{other}`"):
            _front(name).compare(**kw, **{other: 500}, loads=[_front(name).EXAMPLE_LOAD])


@pytest.mark.parametrize("name", [n for n in models.CHAPTERS if n in CASES])
def test_invalid_parameters_are_named(name):
    case = CASES[name]
    param, value = case["bad"]
    with pytest.raises(ValueError, match=f"`{param}`"):
        _front(name).compare(**dict(case["params"], **{param: value}), **case["run"])
    with pytest.raises(ValueError, match="`points`"):
        _front(name).compare(**case["params"], points=0, simulate=False)


def test_setups_and_what_cannot_be_simulated():
    from models import min_mva, torus_nbc, xfolded_tm

    with pytest.raises(ValueError, match="`setup`"):
        torus_nbc.compare(k=4, M=8, V=5, setup="nonsense", points=2)
    with pytest.raises(ValueError, match="`setup`"):
        min_mva.compare(k=2, n=2, setup="second-omega", loads=[1])  # the model's return network is the mirror
    with pytest.raises(ValueError, match="`ad`"):
        xfolded_tm.compare(k=4, M=8, V=2, ad=3.0, loads=[0.01])
    with pytest.raises(ValueError, match="`setup` 'booksim' cannot simulate xfolded_completed"):
        xfolded_tm.compare(k=4, M=8, V=2, setup="booksim", loads=[0.01])
    c = xfolded_tm.compare(k=4, M=8, V=2, ad=3.0, loads=[0.01], simulate=False)  # the model's what-if
    assert "AD = 3 hops per dimension (model only)" in c.subject.network


@pytest.mark.parametrize("name", models.CHAPTERS)
def test_the_model_alone_imports_no_simulator(name):
    """``compare(..., simulate=False)`` imports neither numba, a simulator nor the chapter's ``experiments``."""
    code = (f"import sys, models.{name} as f\n"
            f"kw = dict(f.EXAMPLE) if {name!r} != 'torus_nbc' else dict(k=8, M=32)\n"
            "c = f.compare(**kw, simulate=False, points=3)\n"
            "assert c.sim is None and len(c.model) > 3\n"
            f"print(sorted(m for m in ('numba', 'models.sim', 'matplotlib', 'models.{name}.experiments') "
            "if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_network_is_named():
    from models import min_mva, torus_dor, torus_ipp, torus_nbc, xfolded_tm

    assert torus_dor.compare(radices=(12, 12), L=3, M=32, simulate=False, points=2, grid=0).subject.network == \
        "12\u00d712 unidirectional torus, dimension-order routing, L = 3 VCs, M = 32 flits"
    assert "bidirectional torus" in torus_dor.compare(radices=(4, 4), L=3, M=8, bidirectional=True, simulate=False,
                                                      points=2, grid=0).subject.network
    assert torus_ipp.compare(k=8, simulate=False, points=2, grid=0).subject.network.startswith(
        "8\u00d78 bidirectional torus, Duato's adaptive routing, V = 3 VCs, M = 48 flits, IPP sources")
    assert torus_nbc.compare(k=8, M=32, simulate=False, points=2, grid=0).subject.network == \
        "8\u00d78 bidirectional torus, Duato-Nbc adaptive routing, V = 10 VCs (5 escape levels), M = 32 flits"
    assert xfolded_tm.compare(topology="torus", simulate=False, points=2, grid=0).subject.network.startswith(
        "8\u00d78 bidirectional torus, dimension-order routing, V = 2 VCs, M = 32 flits")
    c = min_mva.compare(simulate=False, points=3, grid=0)
    assert c.subject.closed and c.subject.network.startswith("64 processors, omega network of 2\u00d72 switches")
