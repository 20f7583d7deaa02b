"""The one-command-per-chapter CLI (issue #16): ``python -m models.<chapter> curve|saturation``.

Every chapter is run in-process (its ``__main__.main(argv)``) for the CSV,
``--help``, a bad value and ``--plot``, and once in a subprocess as a
reader would type it; ``--simulate`` runs on a tiny configuration (marked
``slow``: the first call compiles the simulator).  The model's numbers are
checked against the chapter's ``solve_curve`` called directly, with the
solver keywords written out here (not taken from the CLI's translation).
"""

from __future__ import annotations

import csv
import importlib
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import models
from models.core import cli
from models.networks.grid2d import build

ROOT = Path(__file__).resolve().parents[1]


def _xfolded_kw(k=8, M=32, V=2):
    net = build("xfolded", k, "completed")
    return dict(ad=net.average_distance_per_dimension(), M=M, V=V, k=k, n=2, nodes=net.n_nodes,
                channels=net.n_channels)


#: Per chapter: the command's parameters, the same configuration as solver keywords, a bad value (option,
#: value) the solver rejects, and a tiny configuration to simulate (parameters, loads, run options).
CASES = {
    "min_mva": dict(
        argv=["--k", "2", "--n", "3", "--S_mm", "2"],
        kw=dict(topology="omega", k=2, n=3, S_pe=1.0, S_mm=2.0, m=1, pattern="uniform", return_wiring="mirror"),
        bad=("--S_mm", "0.5"),
        sim=(["--k", "2", "--n", "2", "--S_mm", "2", "--loads", "2", "4"], ["--cycles", "4000", "--warmup", "400"]),
    ),
    "torus_dor": dict(
        argv=["--radices", "8", "8", "--L", "3", "--M", "32"],
        kw=dict(radices=(8, 8), L=3, M=32),
        bad=("--L", "1"),
        sim=(["--radices", "4", "4", "--L", "3", "--M", "8", "--loads", "0.005"], ["--messages", "400", "--warmup", "50"]),
    ),
    "torus_ipp": dict(
        argv=["--k", "8", "--V", "3", "--M", "32"],
        kw=dict(k=8, V=3, M=32, sigma1=0.2, sigma2=0.8),
        bad=("--k", "6"),
        sim=(["--k", "8", "--V", "3", "--M", "8", "--loads", "0.01"], ["--messages", "400", "--warmup", "50"]),
    ),
    "torus_nbc": dict(
        argv=["--k", "8", "--M", "32"],
        kw=dict(k=8, M=32, V=10),
        bad=("--V", "4"),
        sim=(["--k", "4", "--M", "8", "--V", "5", "--loads", "0.01"], ["--messages", "400", "--warmup", "50"]),
    ),
    "xfolded_tm": dict(
        argv=["--topology", "xfolded_completed", "--k", "8", "--M", "32", "--V", "2"],
        kw=_xfolded_kw(),
        bad=("--k", "2"),
        sim=(["--k", "4", "--M", "8", "--V", "2", "--loads", "0.005"], ["--messages", "400", "--warmup", "50"]),
    ),
}



def _derived_case(name: str) -> dict:
    """The case of a chapter not listed above (a new chapter): its ``EXAMPLE`` as options, ``--<first int>`` 0 as
    the bad value, its ``EXAMPLE_LOAD`` simulated briefly."""
    front = importlib.import_module(f"models.{name}")
    params = importlib.import_module(f"models.{name}.__main__").CHAPTER.params
    argv = []
    for p in params:
        if p.name in front.EXAMPLE:
            v = front.EXAMPLE[p.name]
            argv += [f"--{p.name}", *map(str, v if isinstance(v, (list, tuple)) else [v])]
    first_int = next(p.name for p in params if p.type is int)
    return dict(argv=argv, kw=dict(front.EXAMPLE), bad=(f"--{first_int}", "0"),
                sim=(argv + ["--loads", str(front.EXAMPLE_LOAD)], ["--messages", "400", "--warmup", "50"]))


CASES.update({name: _derived_case(name) for name in models.CHAPTERS if name not in CASES})
#: An integer option of each chapter (given 2.5, argparse refuses it): its first integer parameter.
INT_OPTION = {name: "--" + next(p.name for p in importlib.import_module(f"models.{name}.__main__").CHAPTER.params
                                if p.type is int and not p.flag) for name in models.CHAPTERS}

MODEL_COLUMNS = ["model latency [cycles]", "model saturated"]
SIM_COLUMNS = ["sim latency [cycles]", "sim CI95 [cycles]", "sim saturated"]


@pytest.fixture(params=models.CHAPTERS)
def chapter(request):
    name = request.param
    return name, importlib.import_module(f"models.{name}"), importlib.import_module(f"models.{name}.__main__")


def _read(path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _floats(rows, column) -> np.ndarray:
    return np.array([float(r[column]) for r in rows])


def test_every_chapter_has_a_case_and_a_command():
    assert set(CASES) >= set(models.CHAPTERS)
    for name in models.CHAPTERS:
        assert (ROOT / "models" / name / "__main__.py").is_file()


def test_curve_csv_is_solve_curve(chapter, tmp_path):
    """``--points``: the grid is upto*sat*i/N, the latencies are solve_curve's at those loads; ``--loads`` too."""
    name, front, main = chapter
    case = CASES[name]
    out = tmp_path / "curve.csv"
    assert main.main(["curve", *case["argv"], "--points", "4", "--upto", "0.8", "--out", str(out)]) == 0
    rows = _read(out)
    load_col = f"{front.LOAD} [{front.LOAD_UNIT}]"
    assert list(rows[0]) == [load_col, *MODEL_COLUMNS]
    sat = front.saturation_load(**case["kw"], rtol=1e-4)
    grid = [0.8 * sat * i / 4 for i in range(1, 5)]
    if name == "min_mva":
        grid = sorted({max(1, round(x)) for x in grid})
    loads = _floats(rows, load_col)
    assert loads == pytest.approx(grid, rel=1e-12)
    expected = front.solve_curve(list(grid), **case["kw"])
    assert _floats(rows, "model latency [cycles]") == pytest.approx(expected.latency, rel=1e-9)
    assert [r["model saturated"] for r in rows] == [str(bool(s)) for s in expected.saturated]

    # explicit loads, one past the model's saturation for the open systems (inf, True)
    explicit = [1, 2, 5] if name == "min_mva" else [0.3 * sat, 1.3 * sat]
    assert main.main(["curve", *case["argv"], "--loads", *map(repr, explicit), "--out", str(out)]) == 0
    rows = _read(out)
    expected = front.solve_curve(explicit, **case["kw"])
    assert _floats(rows, load_col) == pytest.approx(explicit, rel=1e-15)
    got = _floats(rows, "model latency [cycles]")
    assert np.array_equal(np.isinf(got), np.isinf(expected.latency))
    assert got[np.isfinite(got)] == pytest.approx(expected.latency[np.isfinite(expected.latency)], rel=1e-9)
    if name != "min_mva":
        assert rows[-1]["model saturated"] == "True" and math.isinf(got[-1])


def test_csv_to_stdout(chapter, capsys):
    name, front, main = chapter
    loads = ["2"] if name == "min_mva" else ["0.001"]
    assert main.main(["curve", *CASES[name]["argv"], "--loads", *loads]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split(",")[0] == f"{front.LOAD} [{front.LOAD_UNIT}]" and len(out) == 2


def test_help_names_every_parameter_with_unit_and_default(chapter, capsys):
    name, front, main = chapter
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", "--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert front.LOAD_UNIT in text and "cycles" in text
    for p in main.CHAPTER.params:
        # the option, then its help with the unit text and "(default: ...)" or "(required)"
        m = re.search(rf"--{p.name}\b[^-]*?{re.escape(' '.join(p.unit.split())[:25])}.*?\((required|.*?default: [^)]+)\)",
                      text)
        assert m, f"--help of {name} does not give --{p.name} with its unit and default"
    for option in ("--points", "--loads", "--upto", "--out", "--plot", "--simulate", "--seed", "--jobs", "--warmup"):
        assert option in text
    assert ("--cycles" if name == "min_mva" else "--messages") in text
    names = main.CHAPTER.setup_names
    if len(names) > 1:
        assert f"--setup {{{','.join(names)}}}" in text and f"default: {names[0]}" in text
    parser = cli.build_parser(main.CHAPTER)
    curve = parser._subparsers._group_actions[0].choices["curve"]
    for action in curve._actions:
        if action.dest != "help":
            assert re.search(r"\((required|.*default: [^)]+)\)$", action.help), (name, action.dest, action.help)


def test_solver_error_names_the_option_and_exits_2(chapter, capsys):
    name, front, main = chapter
    option, value = CASES[name]["bad"]
    argv = [a for a in CASES[name]["argv"]]
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    assert main.main(["curve", *argv, "--points", "3"]) == 2
    err = capsys.readouterr().err
    assert f"error: {option}: " in err and "Traceback" not in err
    assert main.main(["saturation", *argv]) == 2
    assert f"error: {option}: " in capsys.readouterr().err


def test_bad_load_and_bad_types_exit_2(chapter, capsys):
    name, front, main = chapter
    assert main.main(["curve", *CASES[name]["argv"], "--loads", "-1"]) == 2
    assert "error: --loads: " in capsys.readouterr().err
    for argv, option in ((["--points", "0"], "--points"), (["--upto", "nan"], "--upto"),
                         (["--loads", "x"], "--loads"), (["--plot", "curve.txt"], "--plot")):
        with pytest.raises(SystemExit) as exc:
            main.main(["curve", *CASES[name]["argv"], *argv])
        assert exc.value.code == 2
        assert f"error: {option}: " in capsys.readouterr().err
    int_option = INT_OPTION
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES[name]["argv"], int_option[name], "2.5"])
    assert exc.value.code == 2
    assert f"error: {int_option[name]}: invalid int value" in capsys.readouterr().err


def test_plot_writes_svg(chapter, tmp_path):
    name, front, main = chapter
    svg = tmp_path / "curve.svg"
    assert main.main(["curve", *CASES[name]["argv"], "--points", "3", "--out", str(tmp_path / "c.csv"),
                      "--plot", str(svg)]) == 0
    text = svg.read_text()
    assert text.startswith("<?xml") and "<svg" in text and len(text) > 5000


def test_saturation_prints_saturation_load(chapter, capsys):
    name, front, main = chapter
    assert main.main(["saturation", *CASES[name]["argv"], "--rtol", "1e-3"]) == 0
    value, unit = capsys.readouterr().out.strip().split(" ", 1)
    assert unit == front.LOAD_UNIT
    assert float(value) == front.saturation_load(**CASES[name]["kw"], rtol=1e-3)


def test_load_grid_and_option_of():
    assert cli.load_grid(1.0, 4, 0.8) == pytest.approx([0.2, 0.4, 0.6, 0.8])
    assert cli.load_grid(10.0, 20, 0.9, integer=True) == list(range(1, 10))
    from models.torus_dor.__main__ import CHAPTER

    assert cli.option_of(CHAPTER, "`radices[1]` must be an integer >= 2") == "--radices"
    assert cli.option_of(CHAPTER, "`lam_g` must be > 0") == "--loads"
    assert cli.option_of(CHAPTER, "`warmup_messages` must be >= 0") == "--warmup"
    assert cli.option_of(CHAPTER, "no name here") == ""


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    return env


#: One chapter in the fast layer; the others (10-25 s each on a busy machine: a fresh interpreter imports
#: SymPy) are marked slow.
_SUBPROCESS = [pytest.param(name, marks=() if name == "torus_dor" else pytest.mark.slow) for name in models.CHAPTERS]


@pytest.mark.parametrize("name", _SUBPROCESS)
def test_subprocess_as_a_reader_types_it(name, tmp_path):
    case = CASES[name]
    out = tmp_path / "curve.csv"
    proc = subprocess.run([sys.executable, "-m", f"models.{name}", "curve", *case["argv"], "--points", "3",
                           "--out", str(out)], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert len(_read(out)) == 3 and "-> " in proc.stderr
    option, value = case["bad"]
    argv = list(case["argv"])
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    proc = subprocess.run([sys.executable, "-m", f"models.{name}", "curve", *argv], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and f"error: {option}: " in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_simulate_gives_ci_columns(chapter, tmp_path, tmp_cache):
    name, front, main = chapter
    params, run = CASES[name]["sim"]
    out = tmp_path / "sim.csv"
    assert main.main(["curve", *params, "--simulate", *run, "--out", str(out), "--plot", str(tmp_path / "s.svg")]) == 0
    rows = _read(out)
    assert list(rows[0])[-3:] == SIM_COLUMNS
    for r in rows:
        assert r["sim saturated"] == "False"
        lat, ci = float(r["sim latency [cycles]"]), float(r["sim CI95 [cycles]"])
        assert math.isfinite(lat) and lat > 0 and math.isfinite(ci) and ci > 0
        # a tiny run at a light load: the model and the simulation agree to within a third
        assert lat == pytest.approx(float(r["model latency [cycles]"]), rel=0.35)
    assert any(tmp_cache.rglob("*")), "the simulated points were not cached"
    # the same command again reads the cache: the same numbers
    out2 = tmp_path / "sim2.csv"
    assert main.main(["curve", *params, "--simulate", *run, "--out", str(out2)]) == 0
    assert out2.read_text() == out.read_text()


@pytest.mark.slow
def test_simulate_shows_progress_when_asked(tmp_path, tmp_cache, capsys):
    """Review defect 18 (C33): a long ``curve --simulate`` printed nothing until it ended.  ``--progress`` (the
    default when standard error is a terminal) draws a bar of the simulated loads on standard error;
    ``--no-progress`` and a non-terminal standard error stay quiet; neither changes the CSV."""
    main = importlib.import_module("models.torus_dor.__main__")
    params, run = CASES["torus_dor"]["sim"]
    params = [*params[:-1], "0.004", "0.005"]
    out = {}
    for flag in ("--progress", "--no-progress", None):
        path = tmp_path / f"{flag}.csv"
        argv = ["curve", *params, "--simulate", *run, "--out", str(path)] + ([flag] if flag else [])
        assert main.main(argv) == 0
        out[flag] = (path.read_text(), capsys.readouterr().err)
    assert "2/2" in out["--progress"][1]  # tqdm's "sweep: 100%|...| 2/2"
    for quiet in ("--no-progress", None):  # pytest's stderr is not a terminal: the closing line only
        assert "2/2" not in out[quiet][1] and out[quiet][1].startswith("2 loads -> "), out[quiet][1]
    assert out["--progress"][0] == out["--no-progress"][0] == out[None][0]


def test_progress_needs_simulate(capsys):
    main = importlib.import_module("models.torus_dor.__main__")
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES["torus_dor"]["argv"], "--progress"])
    assert exc.value.code == 2 and "--progress: only used with --simulate" in capsys.readouterr().err


# ---------------------------------------------------------------- the figure for a paper (issue #28, item 4)
DOR_TINY = ["--radices", "4", "4", "--L", "3", "--M", "8"]


def test_plot_style_paper_with_the_simulation_and_the_summary(tmp_path, tmp_cache, capsys):
    """``curve --simulate --plot out.svg --style paper``: a one-column SVG with its text as text, the simulated
    loads up to the simulated saturation load, and a one-line error summary on standard error."""
    main = importlib.import_module("models.torus_dor.__main__")
    svg, out = tmp_path / "out.svg", tmp_path / "c.csv"
    run = ["--simulate", "--messages", "400", "--warmup", "50"]
    assert main.main(["curve", *DOR_TINY, "--points", "4", *run, "--plot", str(svg), "--style", "paper",
                      "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("4 loads; model saturation load ") and err[0].endswith(f"-> {out} and {svg}")
    assert err[1].startswith("worst |error| at 25%, 50%, 75% of the simulated saturation load (the book's number, "
                             "whatever the other loads): ") and "model saturates at " in err[1]
    text = svg.read_text()
    assert 'width="244.8pt"' in text and "<text" in text and "<path id=\"DejaVu" not in text
    assert "4\u00d74 unidirectional torus" in text
    # the same comparison from Python: the same loads, reaching the simulated saturation load
    from models import torus_dor

    c = torus_dor.compare(radices=(4, 4), L=3, M=8, points=4, messages=400, warmup=50, seed=1, jobs=1)
    rows = _read(out)
    assert _floats(rows, "lam_g [messages/node/cycle]") == pytest.approx(list(c.loads), rel=1e-15)
    assert c.loads[-1] == pytest.approx(c.sim_saturation) and err[1] == c.summary()
    assert _floats(rows, "sim latency [cycles]")[:3] == pytest.approx(c.sim["latency"][:3], rel=1e-15)


@pytest.mark.parametrize("name", models.CHAPTERS)
def test_plot_style_paper_model_only(name, tmp_path):
    main = importlib.import_module(f"models.{name}.__main__")
    svg = tmp_path / "m.svg"
    assert main.main(["curve", *CASES[name]["argv"], "--points", "3", "--out", str(tmp_path / "m.csv"), "--plot",
                      str(svg), "--style", "paper"]) == 0
    text = svg.read_text()
    assert 'width="244.8pt"' in text and "<text" in text and "[cycles]" in text
    assert 1 <= len(_read(tmp_path / "m.csv")) <= 3  # min_mva's NC grid is rounded to integers, each once


def test_style_refuses_other_values_and_needs_plot(capsys, tmp_path):
    main = importlib.import_module("models.torus_dor.__main__")
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES["torus_dor"]["argv"], "--plot", str(tmp_path / "f.svg"), "--style", "poster"])
    assert exc.value.code == 2
    assert "error: --style: invalid choice: 'poster' (choose from 'book', 'paper')" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES["torus_dor"]["argv"], "--loads", "0.001", "--style", "paper"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error: --style: only used with --plot" in err and not (tmp_path / "f.svg").exists()


def test_sim_saturation_is_searched_when_the_loads_or_the_figure_need_it(tmp_path, capsys, monkeypatch):
    """With ``--loads`` alone the simulated saturation load is not searched (as before: the points only), and the
    summary says so; ``--sim-saturation`` or ``--plot`` search it; ``--no-sim-saturation`` never does; the
    switch needs ``--simulate``; the closed ``min_mva`` has none."""
    from models.core.results import SimPoint
    from models.torus_dor import experiments

    searched = []

    def fake_search(curve, guess, settings):
        searched.append(curve.label)
        from models.core.saturation import find_saturation

        return find_saturation(lambda x: x >= 0.004, 0.0, 0.01, rtol=0, max_steps=6)

    monkeypatch.setattr(experiments, "sim_saturation", fake_search)
    monkeypatch.setattr(experiments, "simulate_curve", lambda curve, loads, settings: [
        SimPoint(60.0, 1.0, False) for _ in loads])
    main = importlib.import_module("models.torus_dor.__main__")
    argv = ["curve", *CASES["torus_dor"]["argv"], "--loads", "0.001", "0.002", "--simulate"]
    assert main.main(argv) == 0
    assert not searched
    assert capsys.readouterr().err.strip().endswith("the simulated saturation load was not searched "
                                                    "(add --sim-saturation to search it)")
    assert main.main([*argv, "--sim-saturation"]) == 0 and len(searched) == 1
    assert "below 80% of the simulated saturation" in capsys.readouterr().err
    assert main.main([*argv, "--plot", str(tmp_path / "p.svg")]) == 0 and len(searched) == 2
    assert main.main([*argv, "--plot", str(tmp_path / "p.svg"), "--no-sim-saturation"]) == 0 and len(searched) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES["torus_dor"]["argv"], "--loads", "0.001", "--no-sim-saturation"])
    assert exc.value.code == 2 and "error: --no-sim-saturation: only used with --simulate" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        importlib.import_module("models.min_mva.__main__").main(["curve", "--sim-saturation"])
    assert "unrecognized arguments: --sim-saturation" in capsys.readouterr().err


# ---------------------------------------------------------------- one set of defaults; several configurations
def test_the_command_and_compare_share_every_default():
    """``--points``, ``--upto``, ``--seed``, ``--jobs`` and the run lengths default to what ``compare`` takes
    (``core.setups``: written once; the run lengths are the chapter's ``setups.RUN``)."""
    from models.core import compare as C
    from models.core import setups as S

    assert cli.POINTS is S.POINTS == C.POINTS == C.RunOptions().points == 10
    for name in models.CHAPTERS:
        chapter = importlib.import_module(f"models.{name}.__main__").CHAPTER
        parser = cli.build_parser(chapter)
        curve = parser._subparsers._group_actions[0].choices["curve"]
        assert curve.get_default("points") == S.POINTS and curve.get_default("upto") is None
        if chapter.simulates:
            defaults = cli._sim_defaults(chapter)
            assert defaults["length"][1] == chapter.setups.RUN.length and defaults["warmup"][1] == chapter.setups.RUN.warmup
            assert defaults["seed"][1] == S.SEED and defaults["jobs"][1] == S.JOBS
            settings = C.RunOptions().sim_settings(chapter.setups.RUN)
            assert (settings.seed, settings.jobs) == (S.SEED, S.JOBS)


@pytest.mark.parametrize("name", models.CHAPTERS)
def test_the_command_and_compare_give_the_same_model_numbers_without_options(name, tmp_path):
    main = importlib.import_module(f"models.{name}.__main__")
    out = tmp_path / "c.csv"
    assert main.main(["curve", *CASES[name]["argv"], "--out", str(out)]) == 0
    options = vars(cli.build_parser(main.CHAPTER).parse_args(["curve", *CASES[name]["argv"]]))
    cli._configurations(None, main.CHAPTER, options)
    c = main.CHAPTER.front.compare(**main.CHAPTER.compare_kwargs(options), simulate=False)
    rows = _read(out)
    assert _floats(rows, cli.columns(main.CHAPTER)[0]).tolist() == list(c.loads)
    assert _floats(rows, "model latency [cycles]").tolist() == c.table()["model latency"].tolist()


@pytest.mark.slow
def test_the_command_and_compare_give_the_same_simulated_numbers_without_options(tmp_path, tmp_cache, capsys):
    """``curve --simulate`` with no run option and ``compare(...)`` with none: the same loads, the same simulated
    points, the same accuracy line (the review's 10 points against 20 are one default now)."""
    main = importlib.import_module("models.torus_dor.__main__")
    out = tmp_path / "c.csv"
    assert main.main(["curve", *DOR_TINY, "--simulate", "--no-progress", "--out", str(out)]) == 0
    line = capsys.readouterr().err.splitlines()[-1]
    from models import torus_dor

    c = torus_dor.compare(radices=(4, 4), L=3, M=8)
    t = c.table()
    rows = _read(out)
    assert len(rows) == len(c.loads) == 10 + 2  # the default grid and the 25 and 75 % loads it lacks
    assert _floats(rows, "lam_g [messages/node/cycle]").tolist() == list(c.loads)
    assert _floats(rows, "sim latency [cycles]").tolist() == t["sim latency"].tolist()
    assert _floats(rows, "model latency [cycles]").tolist() == t["model latency"].tolist()
    assert line == c.summary() and c.worst_rule.startswith("at 25%, 50%, 75% of the simulated saturation load")


def test_several_values_of_one_option_draw_one_curve_each(tmp_path, capsys):
    """``--M 8 32``: one configuration per value, the CSV's first column naming it, one figure with both, one
    summary line per configuration naming it; the rows are ``compare``'s for each value."""
    main = importlib.import_module("models.torus_dor.__main__")
    out, svg = tmp_path / "c.csv", tmp_path / "f.svg"
    assert main.main(["curve", "--radices", "8", "8", "--L", "3", "--M", "8", "32", "--points", "3", "--out", str(out),
                      "--plot", str(svg), "--style", "paper", "--no-title", "--font", "serif"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [e.split(":")[0] for e in err] == ["--M 8", "--M 32"]
    rows = _read(out)
    assert list(rows[0]) == ["M", *cli.columns(main.CHAPTER)]
    assert [r["M"] for r in rows] == ["8.0"] * 3 + ["32.0"] * 3
    from models import torus_dor

    for i, M in enumerate((8, 32)):
        c = torus_dor.compare(radices=(8, 8), L=3, M=M, points=3, simulate=False)
        assert _floats(rows[3 * i:3 * i + 3], "model latency [cycles]").tolist() == c.table()["model latency"].tolist()
    text = svg.read_text()
    assert "M = 8 flits" in text and "M = 32 flits" in text  # the legend names what differs
    assert "dimension-order routing" not in text  # --no-title: no title (it would say what they share)
    assert "STIXGeneral" in text  # --font serif


def test_two_options_with_several_values_are_refused(capsys):
    main = importlib.import_module("models.torus_dor.__main__")
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", "--radices", "8", "8", "--L", "3", "4", "--M", "8", "32"])
    assert exc.value.code == 2
    assert ("error: --M: only one parameter may take several values (one curve each); --L already does: give --M "
            "one value") in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", "--radices", "8", "8", "--L", "3", "--M", "8", "8"])
    assert exc.value.code == 2 and "error: --M: 8.0 given twice" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:  # the saturation command takes one value
        main.main(["saturation", "--radices", "8", "8", "--L", "3", "--M", "8", "32"])
    assert exc.value.code == 2


@pytest.mark.parametrize("option", [["--no-title"], ["--font", "serif"]])
def test_figure_options_need_plot(option, capsys):
    main = importlib.import_module("models.torus_dor.__main__")
    with pytest.raises(SystemExit) as exc:
        main.main(["curve", *CASES["torus_dor"]["argv"], *option])
    assert exc.value.code == 2
    assert f"error: {option[0]}: only used with --plot; add --plot FILE.svg, or leave out {' '.join(option)}" in \
        capsys.readouterr().err
