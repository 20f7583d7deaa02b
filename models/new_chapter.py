"""``python -m models.new_chapter SLUG --paper "..."``: the skeleton of a sixth chapter, in one command.

Writes everything a new paper needs to be a chapter of the book, on the
project's shared vocabulary (:mod:`models.core.claims`,
:mod:`models.core.experiment`, :mod:`models.core.cli`), with a trivial
**placeholder model** clearly marked as such (one FIFO channel: Poisson
messages of ``M`` flits, one flit per cycle -- an M/D/1 queue, which the
placeholder simulator, :func:`models.sim.mmpp_g1.simulate_mmpp_g1`, matches
exactly).  Replace the placeholder with the paper's model and simulator;
the contract, architecture, command-line and notebook tests then check the
chapter as they check the other five.

New files::

    models/SLUG/__init__.py      the front door (LOAD, LOAD_UNIT, EXAMPLE, solve, solve_curve, saturation_load)
    models/SLUG/equations.py     SymPy equations keyed "eq:N"
    models/SLUG/solve.py         the numerics (lambdified through core.symbolic.compiled)
    models/SLUG/experiments.py   SETUPS, SETTINGS, FIGURES, sim_kwargs, simulate_curve, run_figure, glue_values, claims
    models/SLUG/compare.py       compare(...): the model against the simulation in one call
    models/SLUG/__main__.py      python -m models.SLUG curve|saturation (built on compare)
    notebooks/SLUG/01-model.ipynb  the chapter's notebook (a `parameters` cell)
    notebooks/SLUG/profiles.yaml   the chapter's quick profile
    book/SLUG/index.md           the chapter's first page
    tests/SLUG/test_model.py     unit tests of the placeholder (replace with the paper's checks)

Edited files: ``models/__init__.py`` (``CHAPTERS``), ``_toc.yml`` (a part for
the chapter), ``CITATION.cff`` (the paper, a reference in chapter order) and
``references.bib`` (the paper's BibTeX key ``SLUG``).  Nothing is overwritten:
an existing file or chapter stops the command before it writes anything.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from .core.paths import ROOT

__all__ = ["scaffold", "main"]

_SLUG = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def _camel(slug: str) -> str:
    return "".join(part.title() for part in slug.split("_"))


# ----------------------------------------------------------------------------
# Templates: @slug@, @Camel@, @paper@ and @title@ are replaced.
# ----------------------------------------------------------------------------
_INIT = '''"""@paper@ -- PLACEHOLDER chapter made by ``python -m models.new_chapter``.

Front door (the chapter contract of :mod:`models`)::

    from models.@slug@ import equations, solve, solve_curve, saturation_load
    res = solve(0.01, M=32)                 # rate in messages/node/cycle
    curve = solve_curve([0.005, 0.01], M=32)
    saturation_load(M=32)
    compare(M=32, points=5)                 # the model against the simulation (models.core.compare)

The model is a PLACEHOLDER (one FIFO channel, an M/D/1 queue): replace
``equations.py`` and ``solve.py`` with the paper's model.
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {"equations": ".equations:equations", "compare": ".compare:compare"})
from .solve import LOAD, LOAD_UNIT, CurveResult, @Camel@Result, saturation_load, solve, solve_curve  # noqa: E402

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(M=32)
EXAMPLE_LOAD = 0.01
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = ["LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "solve", "solve_curve",
           "saturation_load", "compare", "@Camel@Result", "CurveResult"]
'''

_COMPARE = '''"""The model against the simulation in one call: :func:`compare` (the front door's ``models.@slug@.compare``).

PLACEHOLDER: one M/D/1 channel.  Keep the shape when the paper's model replaces it: the parameters, units and
defaults of ``python -m models.@slug@ curve`` (its ``__main__.CHAPTER``), the chapter's own simulation hook
and saturation search, and the loop every chapter shares, :func:`models.core.compare.compare`.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import BELOW, Curve, Figure, SimSettings, SimulatorSetup
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare", "MESSAGES", "WARMUP"]

#: Measured messages per simulated rate and discarded warm-up: the command's ``--messages`` / ``--warmup`` defaults.
MESSAGES = 20_000
WARMUP = 2_000


def compare(*, M: int = 32, loads: Sequence[float] | None = None, points: int = core.POINTS,
            upto: float | None = None, simulate: bool = True, search: bool = True, messages: int | None = None,
            warmup: int | None = None, seed: int | None = None, jobs: int | None = None, progress: bool | None = None,
            settings: SimSettings | None = None, grid: int = core.GRID,
            sim: Callable | None = None) -> core.Comparison:
    """The PLACEHOLDER model against its simulation: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    M : int
        Message length, flits.
    loads, points, upto, simulate, search, messages, warmup, seed, jobs, progress, settings, grid, sim
        As for :func:`models.torus_dor.compare`.

    Returns
    -------
    Comparison
        Rates in messages/node/cycle, latencies in cycles (eq. 1).

    Raises
    ------
    ValueError
        An invalid parameter, named.
    """
    model = dict(M=M)
    subject = core.Subject(chapter="@slug@", network=f"PLACEHOLDER: one M/D/1 channel, M = {M} flits", load=LOAD,
                           load_label=r"$\\lambda$", load_unit=LOAD_UNIT)
    hooks = {}
    if simulate:
        from . import experiments  # the simulator: only when simulating

        settings = core.run_settings(settings, length=messages, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=MESSAGES, default_warmup=WARMUP)
        curve = Curve(subject.network, model=model, setup=experiments.DEFAULT_SETUP)
        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)),
                     sim_saturation=lambda c, _sat: 1.0 / c.model["M"])  # PLACEHOLDER: the queue's capacity
    else:
        curve = Curve(subject.network, model=model)
    return core.compare(curve, subject, model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=search, grid=grid, settings=settings, params=model, **hooks)
'''

_EQUATIONS = '''"""The PLACEHOLDER model's equations (SymPy), keyed by equation number.

One FIFO channel serving one flit per cycle; messages of ``M`` flits arrive
as a Poisson process of rate ``lam`` (messages/cycle).  The wait is the
Pollaczek-Khinchine mean of an M/D/1 queue.  Replace with the paper's
equations, keyed by the paper's numbering (``"eq:7"``).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["SYMBOLS", "equations"]

lam, M, W, T = sp.symbols("lambda M W T", positive=True)

#: The symbols, by name.
SYMBOLS = {"lam": lam, "M": M, "W": W, "T": T}


def equations() -> dict:
    """``{"eq:1": T = M + W, "eq:2": W = lam M^2 / (2 (1 - lam M))}`` (cycles)."""
    return {
        "eq:1": sp.Eq(T, M + W),
        "eq:2": sp.Eq(W, lam * M**2 / (2 * (1 - lam * M))),
    }
'''

_SOLVE = '''"""Numerics of the PLACEHOLDER model: mean latency of one M/D/1 channel (cycles).

Built from :mod:`.equations` through :func:`models.core.symbolic.compiled`
(the generated code is kept on disk, so a warm start imports no SymPy).
Replace with the paper's model; keep the front door's shape.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ParameterError
from ..core.results import Result
from ..core.saturation import find_saturation
from ..core.symbolic import compiled
from ..core.validate import require, require_loads, require_tol

__all__ = ["LOAD", "LOAD_UNIT", "@Camel@Result", "CurveResult", "solve", "solve_curve", "saturation_load"]

#: Name of the load parameter and its unit.
LOAD = "rate"
LOAD_UNIT = "messages/node/cycle"


def _build() -> dict:
    # SymPy only when the generated code is not on disk yet; the submodule (the package re-exports the function)
    eqs = importlib.import_module(__package__ + ".equations")
    e = eqs.equations()
    s = eqs.SYMBOLS
    latency = e["eq:1"].rhs.subs(s["W"], e["eq:2"].rhs)
    return {"latency": ((s["lam"], s["M"]), latency)}


def _f() -> dict:
    return compiled("@slug@:latency", _build)


def _check(M) -> int:
    return require("M", M, 1, integer=True, unit="message length, flits")


def _check_rate(rate) -> float:
    return require("rate", rate, 0, unit="messages/node/cycle")


@dataclass(frozen=True, repr=False)
class @Camel@Result(Result):
    """The model at one rate (cycles): ``latency`` (eq. 1; ``inf`` when saturated), ``wait`` (eq. 2),
    ``utilisation`` (``lam M``), ``iterations`` (0: closed form), ``saturated``, ``params``."""

    latency: float
    wait: float
    utilisation: float
    iterations: int
    saturated: bool
    params: dict = field(default_factory=dict)


@dataclass(frozen=True, repr=False)
class CurveResult(Result):
    """:func:`solve` at every rate of ``loads`` (arrays indexed like ``loads``)."""

    loads: np.ndarray
    latency: np.ndarray
    saturated: np.ndarray
    saturation_load: float
    params: dict
    results: tuple = ()


def solve(rate, /, *, M: int = 32) -> @Camel@Result:
    """Mean message latency (cycles) at ``rate`` messages/node/cycle, messages of ``M`` flits."""
    rate = _check_rate(rate)
    M = _check(M)
    rho = rate * M
    params = {"rate": rate, "M": M}
    if rho >= 1.0:
        return @Camel@Result(latency=math.inf, wait=math.inf, utilisation=rho, iterations=0, saturated=True,
                              params=params)
    latency = float(_f()["latency"](rate, M))
    return @Camel@Result(latency=latency, wait=latency - M, utilisation=rho, iterations=0, saturated=False,
                          params=params)


def saturation_load(*, M: int = 32, rtol: float = 1e-6) -> float:
    """The largest rate at which :func:`solve` is not saturated (``1/M``, by the package's one bisection)."""
    M = _check(M)
    rtol = require_tol("rtol", rtol, 0.1, unit="relative precision")
    return find_saturation(lambda r: solve(r, M=M).saturated, 0.0, 2.0 / M, rtol=rtol).lo


def solve_curve(rates, /, *, M: int = 32, saturation: bool = True) -> CurveResult:
    """:func:`solve` at every rate of ``rates`` (messages/node/cycle), and the saturation rate."""
    rates = np.asarray(require_loads("rates", rates, _check_rate, unit="messages/node/cycle"), dtype=float)
    if not isinstance(saturation, bool):
        raise ParameterError(f"`saturation` must be True or False; got {saturation!r}")
    res = tuple(solve(float(r), M=M) for r in rates)
    return CurveResult(loads=rates, latency=np.array([r.latency for r in res], dtype=float),
                       saturated=np.array([r.saturated for r in res], dtype=bool),
                       saturation_load=saturation_load(M=M) if saturation else math.nan, params={"M": _check(M)},
                       results=res)
'''

_EXPERIMENTS = '''"""Figures, simulator translation, runs, error and claims tables of the chapter (PLACEHOLDER).

On the shared vocabulary (:mod:`models.core.claims`): ``SETUPS`` and
``DEFAULT_SETUP``, ``SETTINGS``, ``FIGURES`` keyed by label, the one
simulation hook ``sim_kwargs(curve, load, settings)`` /
``simulate_curve(curve, loads, settings)`` (which ``python -m models.@slug@
curve --simulate`` uses too), ``run_figure(figure, settings)``,
``glue_values`` (every number the prose quotes) and ``claims_table``.

The placeholder simulator is :func:`models.sim.mmpp_g1.simulate_mmpp_g1`
(Poisson arrivals, deterministic service of ``M`` cycles): replace it with the
paper's network simulation (e.g. :func:`models.sim.wormhole.simulate` through
:func:`models.sim.sweep.run_sweep`, cached).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.claims import Claim, claims_frame, worst_error_below
from ..core.experiment import error_table, run_curve
from ..core.tables import percent
from ..queueing.mmpp_g1 import Deterministic
from ..sim.mmpp_g1 import simulate_mmpp_g1
from ..sim.sweep import run_sweep
from ..traffic.process import poisson
from .solve import LOAD_UNIT, saturation_load, solve

__all__ = ["SETUPS", "DEFAULT_SETUP", "SETTINGS", "FRACTIONS", "FIGURES", "sim_kwargs", "simulate_point",
           "simulate_curve", "run_figure", "glue_values", "claims_table"]

#: The simulator set-ups (PLACEHOLDER: one, as the model assumes).
SETUPS = {"model": SimulatorSetup("model", "one FIFO channel, Poisson arrivals, M cycles of service each "
                                           "(PLACEHOLDER: the model's own assumptions)", "model", {})}
#: The set-up the verdicts rest on.
DEFAULT_SETUP = "model"
#: Full-profile run lengths.
SETTINGS = SimSettings(messages=20_000, warmup_messages=2_000)
#: Simulated rates, fractions of the simulated saturation rate.
FRACTIONS = (0.25, 0.5, 0.75, 0.9)

FIGURES = {f.label: f for f in (
    Figure(label="fig-@slug@-latency", title="PLACEHOLDER: latency of one M/D/1 channel",
           curves=tuple(Curve(f"M={M}", model={"M": M}, setup=DEFAULT_SETUP, loads=FRACTIONS, fractions_of="sim")
                        for M in (16, 32)),
           x_label="generation rate", x_unit=LOAD_UNIT),
)}


def sim_kwargs(curve: Curve, load: float, settings: SimSettings = SETTINGS) -> dict:
    """Keyword arguments of :func:`simulate_point` for one rate of ``curve`` (the model-to-simulator translation)."""
    return dict(rate=float(load), M=int(curve.model.get("M", 32)), customers=settings.messages,
                warmup=settings.warmup_messages, batches=settings.batches, seed=settings.seed, **curve.sim)


def simulate_point(*, rate: float, M: int, customers: int, warmup: int, batches: int, seed: int) -> dict:
    """One simulated point: latency (cycles), its 95% half width, saturated (the queue is unstable at ``rate M >= 1``)."""
    if rate * M >= 1.0:
        return {"latency": math.inf, "latency CI": math.nan, "saturated": True}
    wait, ci = simulate_mmpp_g1(poisson(rate), Deterministic(M), customers=customers, warmup=warmup,
                                batches=batches, seed=seed)
    return {"latency": M + wait, "latency CI": ci, "saturated": False}


def simulate_curve(curve: Curve, loads: Sequence[float], settings: SimSettings = SETTINGS) -> list:
    """The simulated rows (``latency``, ``latency CI``, ``saturated``) at every rate of ``loads``."""
    return run_sweep([sim_kwargs(curve, x, settings) for x in loads], simulate_fn=simulate_point, jobs=settings.jobs,
                     cache=settings.cache, progress=settings.progress)


def _model(curve: Curve, rate: float) -> dict:
    r = solve(rate, **curve.model)
    return {"latency": r.latency, "saturated": r.saturated}


def run_figure(figure: Figure, settings: SimSettings = SETTINGS, *, simulate: bool = True,
               model_points: int = 40) -> tuple:
    """Model and simulation of every curve of ``figure`` (:class:`~models.core.setups.CurveRun` each).

    The simulated saturation rate of the placeholder is the queue's capacity
    ``1/M`` (an M/D/1 queue is stable exactly below it).
    """
    sim = (lambda curve, rates: simulate_curve(curve, rates, settings)) if simulate else None
    return tuple(run_curve(
        curve, _model, sim,
        model_saturation=lambda c: saturation_load(**c.model),
        sim_saturation=lambda c, model_sat: 1.0 / c.model.get("M", 32),
        line=lambda c, sat, rates: np.linspace(0.0, sat, model_points + 1)[1:-1], round_to=6)
        for curve in figure.curves)


def glue_values(runs: Sequence) -> dict:
    """Every number the chapter's prose quotes, by glue key."""
    worst = worst_error_below(runs, BELOW)
    return {"@slug@-worst-error": percent(worst) if math.isfinite(worst) else "n/a",
            "@slug@-curves": len(runs)}


#: The paper's claims, one per sentence (PLACEHOLDER: replace with the paper's own words, section and numbers).
CLAIMS = {c.claim_id: c for c in (
    Claim("placeholder-accuracy", "PLACEHOLDER section", "PLACEHOLDER: the model predicts the simulated latency",
          "error"),
)}


def claims_table(runs: Sequence) -> pd.DataFrame:
    """The claims the chapter checks, one row per claim, set-up and case (PLACEHOLDER: one claim, no number)."""
    return claims_frame([CLAIMS["placeholder-accuracy"].row(
        "@slug@", DEFAULT_SETUP, worst_err=worst_error_below(runs, BELOW), sat_ratio=1.0,
        note="placeholder chapter: replace with the paper's claims")])


def errors(runs: Sequence) -> pd.DataFrame:
    """The chapter's error table (:func:`models.core.experiment.error_table`)."""
    return error_table(runs)
'''

_MAIN = '''"""``python -m models.@slug@ curve ...``: latency against the rate (PLACEHOLDER model), optionally simulated.

The parameters are the keywords of :func:`models.@slug@.solve`; the command
is :mod:`models.core.cli`; ``--simulate`` uses the chapter's hook
:func:`models.@slug@.experiments.simulate_curve`::

    python -m models.@slug@ curve --M 32 --points 10 --out curve.csv
"""

from __future__ import annotations

import models.@slug@ as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main

CHAPTER = Chapter(
    name="@slug@",
    description="@paper@ (PLACEHOLDER model: one M/D/1 channel).",
    front=front,
    params=(Param("M", int, 32, "message length, flits"),),
    simulates=True,
    setups=("model",),
    example="curve --M 32 --points 10 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.@slug@`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
'''

_INDEX = '''# @title@

*Reproducing* {cite:t}`@slug@`, "@paper@".

```{warning}
This chapter is a **placeholder** made by `python -m models.new_chapter`.
Its model is one M/D/1 channel, not the paper's: replace
`models/@slug@/equations.py`, `solve.py` and the simulator translation in
`experiments.py`, then write this page.
```

## The paper's question

What the paper asks, its network, its assumptions.

## Sections

- {doc}`01-model`: the equations, the model against the simulation.
'''

_TESTS = '''"""Unit tests of the @slug@ chapter (PLACEHOLDER model: replace with the paper's own checks)."""

import math

import pandas as pd
import pytest

import models.@slug@ as ch
from models.@slug@ import experiments


def test_zero_load_latency_is_the_message_length():
    assert ch.solve(0.0, M=16).latency == pytest.approx(16.0)


def test_md1_wait():
    rate, M = 0.02, 32
    rho = rate * M
    assert ch.solve(rate, M=M).wait == pytest.approx(rate * M**2 / (2 * (1 - rho)))


def test_saturation_is_the_capacity():
    assert ch.saturation_load(M=32) == pytest.approx(1 / 32, rel=1e-5)
    assert ch.solve(1 / 32, M=32).saturated


def test_simulation_agrees_with_the_model():
    curve = experiments.FIGURES["fig-@slug@-latency"].curves[0]
    row = experiments.simulate_curve(curve, [0.02], experiments.SETTINGS.replace(messages=20_000))[0]
    model = ch.solve(0.02, **curve.model).latency
    assert abs(row["latency"] - model) <= 4 * row["latency CI"] + 0.02 * model


def test_glue_values_and_claims():
    runs = experiments.run_figure(experiments.FIGURES["fig-@slug@-latency"],
                                  experiments.SETTINGS.replace(messages=2000, warmup_messages=200), model_points=5)
    values = experiments.glue_values(runs)
    assert set(values) == {"@slug@-worst-error", "@slug@-curves"} and values["@slug@-curves"] == 2
    claims = experiments.claims_table(runs)
    assert isinstance(claims, pd.DataFrame) and len(claims) == 1
    assert math.isfinite(claims["worst_err"].iloc[0])
'''

_PROFILES = '''# Quick profile of the @slug@ chapter (see notebooks/profiles.yaml for the layers).
quick:
  01-model:
    model_points: 10
'''


def _cell(kind: str, source: str, tags=()) -> dict:
    cell = {"cell_type": kind, "metadata": {"tags": list(tags)} if tags else {}, "source": source.splitlines(True)}
    if kind == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


def _notebook(slug: str, title: str) -> dict:
    cells = [
        _cell("markdown", f"# The model against the simulation (PLACEHOLDER)\n\nThis page of {{doc}}`index` "
                          f"solves the chapter's model and compares it with the simulation.  The model is a "
                          f"placeholder made by `python -m models.new_chapter`: one M/D/1 channel."),
        _cell("code", "messages: int = 20000          # measured messages per simulated point\n"
                      "warmup_messages: int = 2000     # messages discarded first\n"
                      "batches: int = 20               # batches of the 95% confidence intervals\n"
                      "seed: int = 1                   # random seed\n"
                      "model_points: int = 40          # points per model curve\n", tags=("parameters",)),
        _cell("code", "import os\n\nfrom IPython.display import Markdown, display\nfrom myst_nb import glue\n\n"
                      "from models.core.claims import save_claims\n"
                      "from models.core.plotting import plot_curve_runs, savefig\n"
                      "from models.core.symbolic import latex_equations\n"
                      f"from models.{slug} import equations\n"
                      f"from models.{slug}.experiments import FIGURES, SETTINGS, SETUPS, claims_table, errors, "
                      "glue_values, run_figure\n\n"
                      "os.makedirs(\"tables\", exist_ok=True)\n"
                      "settings = SETTINGS.replace(messages=messages, warmup_messages=warmup_messages, "
                      "batches=batches, seed=seed)\n"
                      f"figure = FIGURES[\"fig-{slug}-latency\"]\n", tags=("remove-input",)),
        _cell("markdown", "## The equations\n"),
        _cell("code", "display(Markdown(latex_equations(equations())))\n", tags=("remove-input",)),
        _cell("markdown", "## Model against simulation\n"),
        # the call that computes the page's numbers stays visible (tests/test_notebook_cells.py)
        _cell("code", "runs = run_figure(figure, settings, model_points=model_points)\n"),
        _cell("code", "fig = plot_curve_runs(runs, figure).figure\n"
                      f"savefig(fig, \"fig-{slug}-latency\")\nfig\n", tags=("remove-input",)),
        _cell("code", "table = errors(runs)\n"
                      f"table.to_csv(\"tables/tab-{slug}-errors.csv\", index=False)\n"
                      f"save_claims(claims_table(runs), \"{slug}\", setups=SETUPS)\n"
                      "for key, value in glue_values(runs).items():\n    glue(key, value, display=False)\n"
                      "table\n", tags=("remove-input",)),
        _cell("markdown", f"The model's largest error below 80% of the simulated saturation rate is "
                          f"{{glue:text}}`{slug}-worst-error`.\n"),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"}, "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


# ----------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------
def _fill(text: str, slug: str, paper: str, title: str) -> str:
    return (text.replace("@slug@", slug).replace("@Camel@", _camel(slug)).replace("@paper@", paper)
            .replace("@title@", title))


def _edits(root: Path, slug: str, paper: str, title: str) -> dict:
    """``{path: new text}`` of the files the scaffold edits (read now, written only if every check passed)."""
    out = {}
    init = (root / "models" / "__init__.py").read_text()
    m = re.search(r"^CHAPTERS = \(([^)]*)\)", init, flags=re.M)
    if not m:
        raise ValueError("models/__init__.py has no `CHAPTERS = (...)` line")
    names = [s.strip().strip("\"'") for s in m.group(1).split(",") if s.strip()]
    out["models/__init__.py"] = init[:m.start()] + "CHAPTERS = (" + ", ".join(
        f'"{n}"' for n in names + [slug]) + ")" + init[m.end():]
    toc = (root / "_toc.yml").read_text()
    part = (f"  - caption: {title}\n    numbered: 1\n    chapters:\n      - file: book/{slug}/index\n"
            f"        sections:\n          - file: book/{slug}/01-model\n")
    anchor = "  - caption: The papers side by side\n"
    out["_toc.yml"] = toc.replace(anchor, part + anchor) if anchor in toc else toc + part
    cff = (root / "CITATION.cff").read_text()
    ref = (f"  - type: conference-paper\n    title: {json.dumps(paper)}\n    authors:\n"
           f"      - name: \"PLACEHOLDER: the paper's authors\"\n    year: 2026\n")
    m = re.search(r"^references:\n((?:  .*\n|\n)*)", cff, flags=re.M)
    out["CITATION.cff"] = (cff[:m.end()] + ref + cff[m.end():]) if m else cff + "references:\n" + ref
    bib = (root / "references.bib").read_text()
    out["references.bib"] = bib.rstrip("\n") + (f"\n\n@misc{{{slug},\n  title = {{{paper}}},\n"
                                                f"  note = {{PLACEHOLDER: the paper's full reference}},\n}}\n")
    return out


def scaffold(slug: str, paper: str, *, title: str | None = None, root: Path | str = ROOT) -> list[Path]:
    """Write a new chapter ``slug`` reproducing ``paper`` into the repository at ``root``; the files written.

    Raises ``ValueError`` (nothing written) when ``slug`` is not a lower-case
    identifier, is already a chapter, or any file it would create exists.
    """
    root = Path(root)
    if not isinstance(slug, str) or not _SLUG.match(slug):
        raise ValueError(f"`slug` must be a lower-case identifier like 'mesh_adaptive'; got {slug!r}")
    if not isinstance(paper, str) or not paper.strip() or "\n" in paper:
        raise ValueError(f"`paper` must be the paper's title on one line; got {paper!r}")
    title = title or paper
    files = {
        f"models/{slug}/__init__.py": _INIT, f"models/{slug}/equations.py": _EQUATIONS,
        f"models/{slug}/solve.py": _SOLVE, f"models/{slug}/experiments.py": _EXPERIMENTS,
        f"models/{slug}/compare.py": _COMPARE,
        f"models/{slug}/__main__.py": _MAIN, f"book/{slug}/index.md": _INDEX,
        f"tests/{slug}/test_model.py": _TESTS, f"notebooks/{slug}/profiles.yaml": _PROFILES,
    }
    texts = {path: _fill(text, slug, paper.strip(), title.strip()) for path, text in files.items()}
    texts[f"notebooks/{slug}/01-model.ipynb"] = json.dumps(_notebook(slug, title), indent=1) + "\n"
    existing = [p for p in texts if (root / p).exists()] + [p for p in (f"models/{slug}", f"notebooks/{slug}")
                                                            if (root / p).exists()]
    if existing:
        raise ValueError(f"chapter {slug!r} would overwrite {sorted(set(existing))}; nothing written")
    edits = _edits(root, slug, paper.strip(), title.strip())
    written = []
    for path, text in {**texts, **edits}.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        written.append(target)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.new_chapter", description=__doc__.split("\n\n")[0])
    parser.add_argument("slug", help="the chapter's name everywhere (models/SLUG, notebooks/SLUG, book/SLUG)")
    parser.add_argument("--paper", required=True, help="the paper's title")
    parser.add_argument("--title", help="the chapter's title (default: the paper's)")
    args = parser.parse_args(argv)
    try:
        written = scaffold(args.slug, args.paper, title=args.title)
    except ValueError as exc:
        parser.error(str(exc))
    for path in written:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    print(f"Next: replace the placeholder model in models/{args.slug}/ (equations.py, solve.py, experiments.py), "
          f"then `make test`.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
