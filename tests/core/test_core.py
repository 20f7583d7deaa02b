"""models.core: validation messages, fixed point failures, cache keys and atomic writes, deterministic figures."""

import json
import math
import os
import pickle

import numpy as np
import pytest

from models.core import cache as cache_mod
from models.core.cache import DiskCache, atomic_write_bytes, stable_hash, tree_hash
from models.core.errors import ConvergenceError, DeadlockError, ParameterError
from models.core.fixed_point import fixed_point
from models.core.results import Result
from models.core.validate import require, require_choice, require_stochastic_rows
from models.core.validation import compare, error_summary, relative_error


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "value, kwargs, fragment",
    [
        (1, dict(lo=2, integer=True, unit="switch radix"), ">= 2"),
        (2.5, dict(lo=1, integer=True), "an integer"),
        (True, dict(lo=0), "got True"),
        (float("nan"), dict(), "finite"),
        (0.0, dict(lo=0, lo_open=True, unit="messages/node/cycle"), "> 0"),
        ("3", dict(lo=0), "got '3'"),
        (11, dict(lo=0, hi=10), "<= 10"),
    ],
)
def test_require_rejects_with_a_message_naming_parameter_and_range(value, kwargs, fragment):
    with pytest.raises(ParameterError) as info:
        require("param", value, **kwargs)
    assert "`param`" in str(info.value) and fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_require_accepts_and_normalises():
    assert require("k", 4.0, 2, integer=True) == 4 and isinstance(require("k", 4.0, 2, integer=True), int)
    assert require("x", np.float64(0.5), 0, 1) == 0.5
    assert require_choice("r", "a", ["a", "b"]) == "a"
    with pytest.raises(ParameterError, match="one of 'a', 'b'"):
        require_choice("r", "c", ["a", "b"])


def test_stochastic_rows_names_the_bad_row():
    P = np.full((3, 3), 1 / 3)
    P[2, 0] = 0.5
    with pytest.raises(ParameterError, match="row 2"):
        require_stochastic_rows("pattern", P)
    with pytest.raises(ParameterError, match="non-negative"):
        require_stochastic_rows("pattern", -np.eye(2))


# ---------------------------------------------------------------- fixed point
def test_fixed_point_converges_to_known_root():
    res = fixed_point(lambda x: np.cos(x), [1.0], damping=1.0, tol=1e-14)
    assert res.converged and abs(res.x[0] - 0.7390851332151607) < 1e-12
    assert 10 < res.iterations < 200


def test_fixed_point_names_the_quantity_that_fails():
    with pytest.raises(ConvergenceError) as info:
        fixed_point(lambda x: x + 1.0, [0.0, 0.0], max_iter=7, names=["W_0", "W_1"], where="torus")
    err = info.value
    assert err.iterations == 7 and "torus" in str(err) and "W_" in str(err) and err.result is not None


def test_fixed_point_reports_non_finite():
    with pytest.raises(ConvergenceError, match="non-finite"):
        fixed_point(lambda x: np.array([np.inf]), [1.0], names=["b"])
    out = fixed_point(lambda x: x + 1, [0.0], max_iter=3, raise_on_failure=False)
    assert not out.converged and out.iterations == 3


# ---------------------------------------------------------------- results
def test_result_repr_and_dict():
    from dataclasses import dataclass

    @dataclass(frozen=True, repr=False)
    class R(Result):
        latency: float
        saturated: bool
        hist: np.ndarray

    r = R(math.inf, True, np.arange(3.0))
    text = repr(r)
    assert "latency = inf" in text and "saturated = True" in text
    assert r.to_dict() == {"latency": math.inf, "saturated": True, "hist": [0.0, 1.0, 2.0]}
    assert list(r.to_frame().columns) == ["latency", "saturated"]


# ---------------------------------------------------------------- cache
def test_stable_hash_is_canonical_and_sensitive():
    a = {"k": 2, "rates": [0.1, 0.2], "name": "omega"}
    b = {"name": "omega", "rates": [0.1, 0.2], "k": 2}
    assert stable_hash(a) == stable_hash(b)
    assert stable_hash(a) != stable_hash({**a, "k": 3})
    assert stable_hash({"x": 1}) != stable_hash({"x": 1.0})  # int and float are different inputs
    assert stable_hash({"x": np.float64(0.1)}) == stable_hash({"x": 0.1})
    assert stable_hash(np.eye(2)) != stable_hash(np.eye(2).T * 2)


@pytest.mark.parametrize("array", [np.linspace(0, 1, 12).reshape(3, 4), np.float32([0.1, 2.5]),
                                   np.array([math.inf, math.nan, -0.0, 5e-324]), np.arange(6).reshape(2, 3),
                                   np.uint8([0, 255]), np.array([True, False]), np.array([], dtype=float),
                                   np.array(2.5), np.array(["a", "b"])], ids=lambda a: str(a.dtype))
def test_an_array_hashes_as_the_list_of_its_elements_with_dtype_and_shape(array):
    """The cache keys of every stored result depend on this text: an array's canonical form is its dtype, its shape
    and its elements, each canonical as the Python scalar it is (a float as its ``repr``), whatever fast path
    builds it."""
    text = cache_mod.canonical_json(array)
    assert json.loads(text) == {"__ndarray__": str(array.dtype), "shape": list(array.shape),
                                "data": [json.loads(cache_mod.canonical_json(v)) for v in array.ravel().tolist()]}
    assert text == cache_mod.canonical_json(array.copy(order="F"))  # the same elements in C order


def test_tree_hash_changes_with_any_file(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    h1 = tree_hash(tmp_path)
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    assert tree_hash(tmp_path) != h1


def test_atomic_write_leaves_nothing_when_interrupted(tmp_path, monkeypatch):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")

    def boom(src, dst):
        raise KeyboardInterrupt("interrupted")

    monkeypatch.setattr(cache_mod.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]  # no temp file left


def test_disk_cache_roundtrip_and_corrupt_entry(tmp_path):
    cache = DiskCache(tmp_path)
    key = cache.key({"k": 2, "seed": 1})
    assert cache.get(key) is None
    calls = []
    val = cache.get_or_compute({"k": 2, "seed": 1}, lambda: calls.append(1) or {"R": 1.5})
    assert val == {"R": 1.5}
    assert cache.get_or_compute({"k": 2, "seed": 1}, lambda: calls.append(1) or {"R": 9}) == {"R": 1.5}
    assert calls == [1]
    # a truncated entry is never returned
    cache.path(key).write_bytes(pickle.dumps({"key": key, "value": 1})[:10])
    assert cache.get(key, "missing") == "missing"
    assert not cache.path(key).exists()
    # an entry stored under another key (renamed file) is not returned
    other = cache.key({"k": 3})
    cache.put(other, 5)
    os.replace(cache.path(other), cache.path(key))
    assert cache.get(key, "missing") == "missing"


def test_deadlock_error_lists_channels():
    err = DeadlockError(1234, [f"(node {i}, +x, vc 1)" for i in range(20)])
    assert "cycle 1234" in str(err) and "(+8 more)" in str(err)


# ---------------------------------------------------------------- comparison
def test_compare_and_summary():
    frame = compare([1, 2], [1.1, 2.0], [1.0, 2.5], [0.05, 0.1], curve="c")
    assert np.allclose(frame["rel. error"], [0.1, -0.2])
    assert list(frame["in CI"]) == [False, False]
    s = error_summary(frame)
    assert s.loc[0, "max |rel. error|"] == pytest.approx(0.2)
    assert np.isnan(relative_error([1.0], [0.0])[0])


# ---------------------------------------------------------------- figures
def test_savefig_is_deterministic(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    from models.core.plotting import savefig

    monkeypatch.chdir(tmp_path)
    outs = []
    for _ in range(2):
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [1, 3, 2], label="model")
        ax.legend()
        paths = savefig(fig, "fig-test-x", provenance={"parameters": {"k": 2}})
        outs.append(paths["svg"].read_bytes())
    assert outs[0] == outs[1]
    assert b"fig-test-x" in outs[0] and (tmp_path / "figures" / "fig-test-x.png").exists()


def test_savefig_lays_the_figure_out_once_and_crops_it_as_a_tight_save_does(tmp_path, monkeypatch):
    """Saved in two formats and then shown inline (IPython's tight PNG), a constrained-layout figure is laid out
    once, not three times; both files are cropped as ``bbox_inches="tight"`` crops them (the PNG the same size,
    to a pixel), the layout the book's style asks for is back for the next figure, and a figure made without
    pyplot saves too."""
    import io

    import matplotlib.pyplot as plt
    from IPython.core.pylabtools import print_figure
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine
    from PIL import Image

    from models.core import plotting as P

    def figure():
        with plt.rc_context(P.STYLE):
            fig, axes = plt.subplots(1, 2)
        for ax in axes:
            ax.plot([0, 1, 2], [1, 3, 200], label="a long model label")
            ax.set(xlabel="load [messages/node/cycle]", ylabel="latency [cycles]", title="a title")
        fig.legend(loc="outside lower center")
        return fig

    tight = io.BytesIO()
    figure().savefig(tight, format="png", bbox_inches="tight")
    layouts = []
    execute = ConstrainedLayoutEngine.execute
    monkeypatch.setattr(ConstrainedLayoutEngine, "execute", lambda self, fig: layouts.append(1) or execute(self, fig))
    monkeypatch.chdir(tmp_path)
    fig = figure()
    paths = P.savefig(fig, "fig-test-y", close=False)
    print_figure(fig, "png", bbox_inches="tight")
    assert len(layouts) == 1
    want = Image.open(tight).size
    got = Image.open(paths["png"]).size
    assert abs(got[0] - want[0]) <= 1 and abs(got[1] - want[1]) <= 1, (got, want)
    assert b"<svg" in paths["svg"].read_bytes()
    plt.close(fig)
    with plt.rc_context(P.STYLE):
        assert isinstance(plt.figure().get_layout_engine(), ConstrainedLayoutEngine)
    bare = Figure()  # no pyplot, so no Agg canvas: savefig (and matplotlib's) save it all the same
    bare.add_subplot().plot([0, 1], [1, 2])
    assert Image.open(P.savefig(bare, "fig-test-z")["png"]).size[0] > 0


def test_ci_halfwidth_matches_student_t():
    from models.core.stats import ci_halfwidth

    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert ci_halfwidth(x) == pytest.approx(3.182446305284263 * x.std(ddof=1) / 2)
    assert math.isnan(ci_halfwidth([1.0]))


def test_a_run_lengthened_for_precision_grows_by_half_rounded_up_to_its_cap():
    from models.core.stats import GROWTH, lengthened

    assert GROWTH == 1.5
    assert [lengthened(n) for n in (1, 2, 3, 20_000, 30_001)] == [2, 3, 5, 30_000, 45_002]
    assert lengthened(20_000, cap=25_000) == 25_000 and lengthened(20_000, cap=10**6) == 30_000


def test_the_student_quantile_is_scipy_stats_own_to_the_last_digit_without_importing_it():
    """``student_quantile`` evaluates what ``scipy.stats.t.ppf`` evaluates (every batch count the simulators use,
    and more), and a simulation's confidence interval does not import ``scipy.stats`` (a second of every
    notebook's start)."""
    import subprocess
    import sys

    from scipy.stats import t

    from models.core.stats import student_quantile

    for df in range(1, 400):
        for c in (0.9, 0.95, 0.99):
            assert student_quantile(df, c) == float(t.ppf(0.5 + c / 2.0, df))
    code = ("import sys\nfrom models.core.stats import ci_halfwidth\nci_halfwidth([1.0, 2.0, 4.0])\n"
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.stdout.strip() == "False"


def test_a_results_repr_fits_the_page_column():
    """Every line of a result's repr fits a page's code column (88 characters): a long dict is cut, its floats
    shortened; the class name and the field names stay."""
    import dataclasses

    from models.core.results import REPR_WIDTH, Result

    @dataclasses.dataclass(frozen=True, repr=False)
    class Wide(Result):
        latency: float
        stage_residence: dict

    r = Wide(10.675612345, {f"F{i}": 1.1223156650033221 + i for i in range(12)})
    lines = repr(r).splitlines()
    assert lines[0] == "Wide(" and lines[-1] == ")"
    assert max(len(line) for line in lines) <= REPR_WIDTH
    assert "latency = 10.6756" in lines[1] and "{'F0': 1.12232, 'F1': 2.12232" in lines[2]
    assert lines[2].endswith("...")
