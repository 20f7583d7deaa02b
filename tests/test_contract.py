"""The chapter contract of ``models/__init__.py``, checked for every chapter.

One parametrised test per rule, run on every chapter of ``models.CHAPTERS``
with the chapter's own ``EXAMPLE`` configuration, so a sixth chapter is
checked as soon as it is listed there.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import models

def _front(name):
    return importlib.import_module(f"models.{name}")


#: A small configuration of each chapter's model (the front door's keyword arguments): the chapter's ``EXAMPLE``.
CONFIGS = {name: dict(_front(name).EXAMPLE) for name in models.CHAPTERS}
#: The result class of each chapter: ``<Slug in CamelCase>Result`` (``torus_nbc`` -> ``TorusNbcResult``).
RESULT_NAMES = {name: "".join(part.title() for part in name.split("_")) + "Result" for name in models.CHAPTERS}
#: Closed systems: never saturated, N* is a knee, not a wall.
CLOSED = {name for name in models.CHAPTERS if _front(name).CLOSED_SYSTEM}


@pytest.fixture(params=models.CHAPTERS)
def chapter(request):
    return request.param, importlib.import_module(f"models.{request.param}")


def test_every_chapter_has_an_example_below_saturation(chapter):
    name, mod = chapter
    assert isinstance(mod.EXAMPLE, dict) and isinstance(mod.CLOSED_SYSTEM, bool)
    r = mod.solve(mod.EXAMPLE_LOAD, **mod.EXAMPLE)
    assert not r.saturated and math.isfinite(r.latency) and r.latency > 0


def test_front_door_exists(chapter):
    name, mod = chapter
    for attr in ("solve", "solve_curve", "saturation_load", "equations", "LOAD", "LOAD_UNIT", "CurveResult",
                 RESULT_NAMES[name]):
        assert hasattr(mod, attr), f"models.{name} lacks {attr}"
    assert isinstance(mod.LOAD, str) and isinstance(mod.LOAD_UNIT, str) and mod.LOAD_UNIT


def test_load_is_the_only_positional_argument(chapter):
    name, mod = chapter
    for fn in (mod.solve, mod.solve_curve):
        params = list(inspect.signature(fn).parameters.values())
        assert params[0].kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD), fn
        others = [p for p in params[1:] if p.kind not in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)]
        assert not others, f"{name}.{fn.__name__}: {[p.name for p in others]} are not keyword-only"
    if mod.solve.__code__.co_posonlyargcount == 0:
        assert list(inspect.signature(mod.solve).parameters)[0] == mod.LOAD
    sat = inspect.signature(mod.saturation_load).parameters
    assert "rtol" in sat and all(p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)
                                 for p in sat.values()), f"{name}.saturation_load takes keywords only, with rtol"


def test_results_are_frozen_and_built_by_keyword(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    r = mod.solve(0.5 * sat, **cfg)
    assert type(r).__name__ == RESULT_NAMES[name]
    assert dataclasses.is_dataclass(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.latency = 0.0
    clone = type(r)(**{f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.init})
    assert clone.latency == r.latency


def test_below_saturation_finite_above_saturated(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    assert math.isfinite(sat) and sat > 0
    below = mod.solve(0.5 * sat, **cfg)
    assert not below.saturated and math.isfinite(below.latency) and below.latency > 0
    assert isinstance(below.iterations, (int, np.integer)) and below.iterations >= 0
    if name in CLOSED:
        return
    above = mod.solve(1.5 * sat, **cfg)
    assert above.saturated and above.latency == math.inf
    # saturation_load is the edge, to its tolerance
    assert not mod.solve(sat * (1 - 1e-3), **cfg).saturated


def test_curve_equals_points(chapter):
    name, mod = chapter
    cfg = CONFIGS[name]
    sat = mod.saturation_load(**cfg)
    loads = [sat * f for f in (0.2, 0.6, 0.9)] + ([] if name in CLOSED else [sat * 1.2])
    if name in CLOSED:
        loads = [max(1, round(x)) for x in loads]
    curve = mod.solve_curve(loads, **cfg)
    assert type(curve).__name__ == "CurveResult"
    assert np.allclose(curve.loads, loads)
    for i, x in enumerate(loads):
        p = mod.solve(x, **cfg)
        assert bool(curve.saturated[i]) == p.saturated
        assert curve.latency[i] == pytest.approx(p.latency, rel=1e-9) or (math.isinf(p.latency) and math.isinf(curve.latency[i]))


def test_bad_load_is_a_value_error(chapter):
    name, mod = chapter
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match=mod.LOAD):
            mod.solve(bad, **CONFIGS[name])


# ----------------------------------------------------------------------------
# The rooms of a chapter (DESIGN.md, "A chapter"): setups, experiments, claims, glue
# ----------------------------------------------------------------------------
#: Every chapter, and the template the scaffold copies (models.chapter_template), have these rooms.
ROOMS = ("__init__", "equations", "solve", "setups", "experiments", "claims", "glue", "plots", "compare", "__main__")
WITH_TEMPLATE = (*models.CHAPTERS, "chapter_template")


@pytest.fixture(params=WITH_TEMPLATE)
def rooms(request):
    name = request.param
    return name, {room: importlib.import_module(f"models.{name}.{room}" if room != "__init__" else f"models.{name}")
                  for room in ROOMS if room != "__main__"}


def _params(fn) -> list:
    return list(inspect.signature(fn).parameters)


@pytest.mark.parametrize("name", WITH_TEMPLATE)
def test_every_room_is_there(name):
    folder = Path(models.__file__).parent / name
    missing = [room for room in ROOMS if not (folder / f"{room}.py").is_file()]
    assert not missing, f"models/{name}/ has no {', '.join(f'{m}.py' for m in missing)}"


@pytest.mark.parametrize("name", WITH_TEMPLATE)
def test_the_setups_room_is_light(name):
    """``setups.py`` and ``__main__.py`` (``--help``) import no pandas, numba, SymPy, matplotlib or simulator."""
    code = (f"import sys, models.{name}.setups, models.{name}.__main__; "
            "print(sorted(m for m in ('pandas', 'numba', 'sympy', 'matplotlib', 'models.sim') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(Path(models.__file__).parents[1])))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]", f"models.{name}.setups or __main__ imports {proc.stdout.strip()}"


@pytest.mark.parametrize("name", WITH_TEMPLATE)
def test_the_command_line_imports_nothing_from_experiments(name):
    """``__main__.py`` reads the front door and ``setups``; the curve and the simulation are ``compare``'s."""
    tree = ast.parse((Path(models.__file__).parent / name / "__main__.py").read_text())
    bad = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
           and ("experiments" in ast.unparse(n))]
    assert not bad, f"models/{name}/__main__.py: {bad}"


def test_setups_are_the_shared_type(rooms):
    from models.core.setups import RunLengths, SimSettings, SimulatorSetup

    name, r = rooms
    st = r["setups"]
    assert isinstance(st.SETUPS, dict) and st.SETUPS
    assert all(isinstance(s, SimulatorSetup) and s.name == key for key, s in st.SETUPS.items())
    assert st.DEFAULT_SETUP in st.SETUPS
    assert st.SETUPS[st.DEFAULT_SETUP].stands_for in ("paper", "model"), "a verdict rests on a described set-up"
    assert isinstance(st.SETTINGS, SimSettings) and isinstance(st.RUN, RunLengths)
    assert st.RUN.unit == ("cycles" if r["__init__"].CLOSED_SYSTEM else "messages")


def test_one_simulation_hook(rooms):
    name, r = rooms
    ex = r["experiments"]
    assert _params(ex.sim_kwargs)[:3] == ["curve", "load", "settings"]
    assert _params(ex.simulate_curve)[:3] == ["curve", "loads", "settings"]
    assert _params(ex.run_figure)[:2] == ["figure", "settings"]
    assert "simulate" in inspect.signature(ex.run_figure).parameters
    if not r["__init__"].CLOSED_SYSTEM:
        assert _params(ex.sim_saturation)[:3] == ["curve", "guess", "settings"]
    for gone in ("sim_config", "run_all", "run_delay", "run_validation"):
        assert not hasattr(ex, gone), f"{name}.experiments.{gone}: use sim_kwargs / run_figure"


def test_figures_are_keyed_by_label(rooms):
    from models.core.setups import Figure

    name, r = rooms
    ex = r["experiments"]
    assert isinstance(ex.FIGURES, dict) and ex.FIGURES
    for key, fig in ex.FIGURES.items():
        assert isinstance(fig, Figure) and key == fig.label and fig.chapter == name


def test_claims_and_glue_have_their_rooms(rooms):
    from models.core.claims import Claim, Considered

    name, r = rooms
    cl, gl = r["claims"], r["glue"]
    assert isinstance(cl.CLAIMS, dict) and cl.CLAIMS and all(isinstance(c, Claim) for c in cl.CLAIMS.values())
    # the sentences read and not judged, each with its reason (the findings page lists them)
    assert isinstance(cl.CONSIDERED, tuple) and all(isinstance(c, Considered) for c in cl.CONSIDERED)
    assert callable(cl.claims_table)
    assert any(n.startswith("glue_values") and callable(getattr(gl, n)) for n in dir(gl)), "no glue_values"
    for room, names in (("experiments", ("CLAIMS", "claims_table")), ("experiments", ("glue_values",))):
        for n in names:
            assert not hasattr(r[room], n), f"models.{name}.{room}.{n}: it lives in claims.py / glue.py"


def test_the_vocabulary_is_shared(rooms):
    from models.core import claims, setups

    name, r = rooms
    for room in ("setups", "experiments", "claims", "glue"):
        mod = r[room]
        for home, const in ((setups, "BELOW"), (claims, "CLAIM_COLUMNS"), (setups, "SimulatorSetup"),
                            (setups, "SimSettings"), (claims, "worst_error_below")):
            if hasattr(mod, const):
                assert getattr(mod, const) is getattr(home, const), f"{name}.{room}.{const} is a copy"


def test_the_compare_takes_the_run_options_once(rooms):
    """``compare(*, <the model's parameters>, **run)``: the run options are :class:`RunOptions`', documented once."""
    name, r = rooms
    sig = inspect.signature(r["compare"].compare)
    kinds = [p.kind for p in sig.parameters.values()]
    assert kinds[-1] is inspect.Parameter.VAR_KEYWORD and all(k is inspect.Parameter.KEYWORD_ONLY for k in kinds[:-1])
    from models.core.compare import RunOptions

    assert not set(sig.parameters) & set(RunOptions.NAMES), "a run option spelled again in the signature"
    assert "RunOptions" in (r["compare"].compare.__doc__ or "")


def test_the_command_offers_the_chapter_setups(rooms):
    name, r = rooms
    cli = importlib.import_module(f"models.{name}.__main__").CHAPTER
    st = r["setups"]
    assert cli.simulates and cli.setups is st
    assert cli.setup_names[0] == st.DEFAULT_SETUP and set(cli.setup_names) == set(st.SETUPS)


#: The parts of the book that are not chapters of the contract, and why: each has notebooks and pages like a
#: chapter, but reproduces no paper, so it has no front door, claims or atlas to check.  Said here, so that a
#: part the contract tests do not run is never skipped silently.
NOT_CHAPTERS = {
    "tools": "the warm-up part: textbook models (zero-load latency, Little's law, M/G/1, the channel-load bound) "
             "beside short simulations; no paper, no claims",
    "findings": "the papers side by side: reads every chapter's tables",
}


def test_every_part_with_pages_is_a_chapter_or_says_why_not():
    from models import pipeline

    parts = {chapter for chapter, _, _ in pipeline.notebook_sources()}
    assert parts - set(models.CHAPTERS) == set(NOT_CHAPTERS), \
        "a part with notebook pages that is neither in models.CHAPTERS nor in NOT_CHAPTERS (with its reason)"
    assert not set(NOT_CHAPTERS) & set(models.CHAPTERS)


def test_the_warm_up_is_not_a_chapter():
    """``models.tools`` has the pages, models and tests of a chapter but none of the contract's front door: a reader
    who calls ``solve`` on it gets an AttributeError, not a model of a paper."""
    import models.tools

    assert "tools" not in models.CHAPTERS
    for attr in ("solve", "solve_curve", "saturation_load", "compare", "LOAD", "CLAIMS"):
        assert not hasattr(models.tools, attr), f"models.tools.{attr}: the warm-up has no chapter contract"
