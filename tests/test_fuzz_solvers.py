"""Every public solver fails cleanly on extreme input (issue #15), by property-based testing.

For every public entry point of every chapter (:data:`ENTRY_POINTS`),
hypothesis draws calls that replace one to three parameters of a small,
valid configuration by extreme or wrong values (``1e-300``, ``1e300``,
``inf``, ``nan``, negatives, zero, huge integers, ``None``, strings, lists,
booleans, and the valid value scaled up or down by large factors) and checks
the error contract of ``models/__init__.py``:

* either the call returns, and then every latency it reports is finite and
  ``>= 0`` or ``inf`` with ``saturated`` set (never NaN, never negative);
  a saturation load or Theorem 1's distance is finite and ``> 0``;
* or it raises a ``ValueError`` whose message names one of the parameters
  that were changed (in backticks, the way :mod:`models.core.validate` writes
  them);
* a rejection takes at most :data:`TIME_LIMIT` (5) seconds, an accepted
  call at most :data:`ACCEPTED_LIMIT` (a ``signal.alarm`` guard against
  runaway calls; hypothesis' own ``deadline`` is off because the machine's
  load makes wall-clock deadlines flaky).

A :class:`~models.core.errors.ConvergenceError` is accepted only when the
iteration controls (``tol``, ``max_iter``, ``damping``) were changed: a
fixed point asked for ``tol = 1e-300`` or ``max_iter = 1`` may fail, and says so.

The default run draws :data:`EXAMPLES` calls per entry point,
derandomized (the same calls on every run); set ``MODELS_FUZZ_EXAMPLES`` for
more, or run the ``slow``-marked test (ten times as many, its own seed).
The issue's own findings are pinned as plain regression tests at the end.

The run options of a chapter's ``compare`` and the options of its ``curve`` command are fuzzed the same way
(issue #35; the simulation replaced by an instant stand-in): any combination gives a result (a CSV) or one
error naming an option given (one ``error: --option:`` line, status 2), never a traceback or another
exception type, and no run longer than ``MAX_RUN`` reaches the simulation.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import math
import os
import re
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.core.errors import ConvergenceError

#: Seconds a rejected call may take ("never runs for more than a few seconds on a rejected input").
TIME_LIMIT = 5
#: Seconds an accepted call may take before the guard fails it: generous, because a valid call may
#: compile a new kernel (a new V) or bisect to a tight ``rtol`` on a machine shared by many processes;
#: it catches runaway calls, not slow ones.  The slowest valid call drawn, torus_dor's ``saturation_load``
#: to ``rtol = 1.7e-12`` (its probes just past the boundary crawl for thousands of iterations), takes 35 s alone
#: on a quiet 2-core machine and more beside the other tests, too near the 60 s this limit was.
ACCEPTED_LIMIT = 120
#: Calls drawn per entry point in the default run (about 1-2 minutes for all of them on a loaded machine).
EXAMPLES = int(os.environ.get("MODELS_FUZZ_EXAMPLES", "60"))
ITERATION_CONTROLS = {"tol", "max_iter", "damping", "rtol"}
#: Documented model-level errors that depend on several parameters together, with the parameters that may
#: cause them: torus_ipp's channel fit of ``n_s`` superposed sources has no MMPP(2) with non-negative rates
#: for some sources when ``n_s < 1`` (``k = 4``; tests/torus_ipp/test_solve.py), a ValueError saying so.
MODEL_LEVEL_ERRORS = {"torus_ipp": ("infeasible superposition fit", {"k", "sigma1", "sigma2", "mu2", "mu1",
                                                                      "mu1_values"})}

# ----------------------------------------------------------------------------
# The entry points: (module, function, load argument or None, a small valid configuration)
# ----------------------------------------------------------------------------
_MIN = dict(topology="omega", k=2, n=3, S_pe=1.0, S_mm=2.0, m=1, damping=0.5, tol=1e-10, max_iter=2000,
            method="auto", return_wiring="mirror", pattern="uniform")
_DOR = dict(radices=(4, 4), L=2, M=8.0, bidirectional=False, tol=1e-10, max_iter=20000)
_IPP = dict(k=8, V=3, M=16.0, sigma1=0.2, sigma2=0.8, mu2=0.0, traffic="ipp", pab="printed", fit="closed")
_XTM = dict(ad=2.0, M=16.0, V=2, k=8, n=2, vbar="mean", source_rate="vbar", channel_rate="printed",
            damping=0.5, tol=1e-11, max_iter=20000)
_NBC = dict(k=8, M=16, V=10, mean_distance="agarwal", tol=1e-10, max_iter=20000)


def _drop(d, *names):
    return {k: v for k, v in d.items() if k not in names}


#: name -> (module, function, load (name, valid value) or None, valid keyword arguments)
ENTRY_POINTS = {
    "min_mva.solve": ("models.min_mva", "solve", ("NC", 2), _MIN),
    "min_mva.solve_curve": ("models.min_mva", "solve_curve", ("NC_values", [1, 2]), _MIN),
    "min_mva.saturation_load": ("models.min_mva", "saturation_load", None,
                                {**_drop(_MIN, "damping", "tol", "max_iter", "method"), "rtol": 1e-4}),
    "min_mva.asymptotic_bounds": ("models.min_mva", "asymptotic_bounds", None,
                                  _drop(_MIN, "damping", "tol", "max_iter", "method")),
    "torus_dor.solve": ("models.torus_dor", "solve", ("lam_g", 0.002), _DOR),
    "torus_dor.solve_curve": ("models.torus_dor", "solve_curve", ("loads", [0.001, 0.002]), _DOR),
    "torus_dor.saturation_load": ("models.torus_dor", "saturation_load", None,
                                  {**_drop(_DOR, "tol", "max_iter"), "rtol": 1e-3}),
    "torus_dor.solve_2003": ("models.torus_dor", "solve_2003", ("lam_g", 0.002), _DOR),
    "torus_dor.saturation_load_2003": ("models.torus_dor", "saturation_load_2003", None,
                                       {**_drop(_DOR, "tol", "max_iter"), "rtol": 1e-3}),
    "torus_ipp.solve": ("models.torus_ipp", "solve", ("mu1", 0.002), {**_IPP, "tol": 1e-10, "max_iter": 500}),
    "torus_ipp.solve_curve": ("models.torus_ipp", "solve_curve", ("mu1_values", [0.001, 0.002]), _IPP),
    "torus_ipp.saturation_load": ("models.torus_ipp", "saturation_load", None, {**_IPP, "rtol": 1e-3}),
    "torus_ipp.saturation_bound": ("models.torus_ipp", "saturation_bound", None, _drop(_IPP, "mu2")),
    "xfolded_tm.solve": ("models.xfolded_tm", "solve", ("lam", 0.002), _XTM),
    "xfolded_tm.solve_curve": ("models.xfolded_tm", "solve_curve", ("lams", [0.001, 0.002]), _XTM),
    "xfolded_tm.saturation_load": ("models.xfolded_tm", "saturation_load", None, {**_XTM, "rtol": 1e-3}),
    "xfolded_tm.theorem1": ("models.xfolded_tm", "theorem1", None, dict(k=8, which="theorem")),
    "torus_nbc.solve": ("models.torus_nbc", "solve", ("rate", 0.002), _NBC),
    "torus_nbc.solve_curve": ("models.torus_nbc", "solve_curve", ("rates", [0.001, 0.002]), _NBC),
    "torus_nbc.saturation_load": ("models.torus_nbc", "saturation_load", None,
                                  {**_drop(_NBC, "tol"), "rtol": 1e-3}),
    "torus_nbc.hop_tables": ("models.torus_nbc", "hop_tables", None, dict(k=8, V=10)),
}


def _function(name):
    import importlib

    mod, fn, _, _ = ENTRY_POINTS[name]
    return getattr(importlib.import_module(mod), fn)


# ----------------------------------------------------------------------------
# Strategies
# ----------------------------------------------------------------------------
EXTREMES = [1e-300, -1e-300, 1e300, -1e300, math.inf, -math.inf, math.nan, 0, 0.0, -1, -0.5, 0.5, 1, 2, 3,
            1e9, 2**31, 2**64, 10**30, None, "x", "", True, False, [1, 2], (), {}, 1 + 1j, np.float64(np.nan),
            np.int64(-3), np.array([1.0, 2.0])]


def _near(value):
    """The valid value scaled by a large or small factor (integers stay integers)."""
    if isinstance(value, bool) or value is None:
        return st.sampled_from([True, False, None, 0, 1, "yes"])
    if isinstance(value, str):
        return st.sampled_from([value, value.upper(), "bogus", "", None, 1])
    if isinstance(value, (list, tuple)):
        inner = st.one_of(st.sampled_from(EXTREMES), st.floats(allow_nan=True, allow_infinity=True),
                          st.integers(-10, 5000))
        return st.one_of(st.lists(inner, min_size=0, max_size=4), st.sampled_from([(), None, "ab", 5, [[1, 2]]]))
    factors = [1e-300, 1e-9, 1e-3, 0.1, 0.5, 2, 10, 100, 1e4, 1e9, 1e300]
    if isinstance(value, int):
        return st.one_of(st.integers(-3, 3), st.sampled_from([max(1, int(value * f)) for f in factors[3:]]),
                         st.integers(0, 10**6), st.sampled_from([10**12, 10**300]))
    return st.one_of(st.sampled_from([value * f for f in factors]), st.floats(allow_nan=True, allow_infinity=True))


def _mild(value):
    """The valid value moved a little (factor 1/2..4, integers by -2..+8): mostly accepted calls, whose results
    must then be finite, non-negative or flagged saturated."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, list, tuple)):
        return _near(value)
    if isinstance(value, int):
        return st.integers(max(value - 2, 0), value + 8)
    return st.sampled_from([value * f for f in (0.25, 0.5, 0.9, 1.5, 2.0, 4.0)])


def _value(value):
    """Half extreme or wrong values, half mild changes of the valid one."""
    return st.one_of(st.sampled_from(EXTREMES), _near(value), _mild(value), _mild(value))


#: the strategies already built, by (kind, type and repr of the valid value): a strategy built anew for every
#: draw is validated and labelled anew by hypothesis, which took about half of the fuzz's time beside the calls
#: themselves (the same strategies, so the same calls are drawn)
_STRATEGIES: dict = {}


def _strategy(kind, value):
    """``_mild(value)`` (kind "mild") or ``_value(value)`` (kind "value"), built once per valid value."""
    key = (kind, type(value).__name__, repr(value))
    if key not in _STRATEGIES:
        _STRATEGIES[key] = (_mild if kind == "mild" else _value)(value)
    return _STRATEGIES[key]


@st.composite
def calls(draw, name):
    """``(args, kwargs, changed parameter names)`` of one call of entry point ``name``."""
    _, _, load, valid = ENTRY_POINTS[name]
    params = ([load[0]] if load else []) + sorted(valid)
    changed = draw(_changed(tuple(params)))
    mild = draw(st.booleans())  # half the calls only move valid values a little (mostly accepted)
    kwargs = dict(valid)
    args = [load[1]] if load else []
    for p in changed:
        base = load[1] if load and p == load[0] else valid[p]
        new = draw(_strategy("mild" if mild else "value", base))
        if load and p == load[0]:
            args = [new]
        else:
            kwargs[p] = new
    # a reader omits optional keywords: the function's own defaults must then serve (issue #26)
    optional = sorted(p for p in _optional(name) if p in kwargs and p not in changed)
    if optional and draw(st.booleans()):
        for p in draw(st.lists(st.sampled_from(optional), min_size=1, max_size=len(optional), unique=True)):
            del kwargs[p]
    return args, kwargs, changed


@functools.lru_cache(maxsize=None)
def _changed(params: tuple):
    """The names of the one to three parameters a call changes."""
    return st.lists(st.sampled_from(params), min_size=1, max_size=3, unique=True)


@functools.lru_cache(maxsize=None)
def _optional(name) -> set:
    """The keywords of entry point ``name`` that have a default (``**params`` forwarders: those of the solver
    they forward to, ``solve`` of the same module)."""
    import importlib
    import inspect

    fn = _function(name)
    sig = inspect.signature(fn)
    if any(q.kind is q.VAR_KEYWORD for q in sig.parameters.values()):
        sig = inspect.signature(importlib.import_module(ENTRY_POINTS[name][0]).solve)
    return {n for n, q in sig.parameters.items() if q.default is not q.empty}


# ----------------------------------------------------------------------------
# The contract
# ----------------------------------------------------------------------------
class CallTooLong(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds):
    def handler(signum, frame):
        raise CallTooLong(f"call ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _latencies(result):
    """``(latency array, saturated array)`` of a result or curve (None if it has none)."""
    if not hasattr(result, "latency"):
        return None
    lat = np.atleast_1d(np.asarray(result.latency, dtype=float))
    sat = np.atleast_1d(np.asarray(getattr(result, "saturated", np.zeros(lat.shape, bool)), dtype=bool))
    return lat, np.broadcast_to(sat, lat.shape)


#: entry point -> Counter of outcomes ("ok", "ValueError", "ConvergenceError"), printed at the end (``-s``).
OUTCOMES: dict = collections.defaultdict(collections.Counter)


def check_outcome(name, args, kwargs, changed):
    """Call entry point ``name`` and assert the error contract; returns "ok", "ValueError" or "ConvergenceError"."""
    outcome = _check_outcome(name, args, kwargs, changed)
    OUTCOMES[name][outcome] += 1
    return outcome


def _check_outcome(name, args, kwargs, changed):
    fn = _function(name)
    call = f"{name}(*{args!r}, **{kwargs!r})"
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"), time_limit(ACCEPTED_LIMIT):
            result = fn(*args, **kwargs)
    except CallTooLong:
        raise AssertionError(f"{call} ran longer than {ACCEPTED_LIMIT} s") from None
    except ConvergenceError:
        assert set(changed) & ITERATION_CONTROLS, f"{call} raised ConvergenceError with sane iteration controls"
        return "ConvergenceError"
    except ValueError as exc:
        elapsed = time.perf_counter() - start
        assert elapsed <= TIME_LIMIT, f"{call} took {elapsed:.1f} s to be rejected"
        msg = str(exc)
        named = [p for p in changed if re.search(rf"`{re.escape(p)}\b|\b{re.escape(p)}\b", msg)]
        known = MODEL_LEVEL_ERRORS.get(name.split(".")[0])
        if known and known[0] in msg and set(changed) & known[1]:
            return "ValueError"
        assert named, f"{call} raised ValueError not naming any of {changed}: {msg}"
        return "ValueError"
    except Exception as exc:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"{call} raised {type(exc).__name__} instead of ValueError: {exc}") from exc
    lats = _latencies(result)
    if lats is not None:
        lat, sat = lats
        assert not np.any(np.isnan(lat)), f"{call} returned a NaN latency: {lat}"
        assert np.all(lat >= 0), f"{call} returned a negative latency: {lat}"
        assert np.all(np.isfinite(lat) | sat), f"{call} returned an infinite latency not flagged saturated"
    elif isinstance(result, (float, int, np.floating)):
        assert math.isfinite(result) and result > 0, f"{call} returned {result!r}"
    return "ok"


@pytest.fixture(scope="module", autouse=True)
def _warm():
    """Compile/lambdify every model once, so the time limit measures the call, not the first import."""
    for name, (_, _, load, valid) in ENTRY_POINTS.items():
        _function(name)(*([load[1]] if load else []), **valid)
    yield
    if OUTCOMES:
        print("\nfuzzed calls per entry point (ok / ValueError / ConvergenceError):")
        for name in sorted(OUTCOMES):
            c = OUTCOMES[name]
            print(f"  {name:34s} {sum(c.values()):5d}  {c['ok']:5d} / {c['ValueError']:5d} / {c['ConvergenceError']:3d}")


def _fuzz(name, examples, seed):
    @settings(max_examples=examples, deadline=None, derandomize=seed is None, database=None,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(call=calls(name))
    def run(call):
        check_outcome(name, *call)

    if seed is not None:
        run = __import__("hypothesis").seed(seed)(run)
    run()


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_fuzz_entry_point(name):
    _fuzz(name, EXAMPLES, None)


#: Entry points the long run is known to fail, with why (none now: xfolded_tm.saturation_load(V=1, n=1, M=16,
#: ad=2), whose bisection probe at the fold itself raised ConvergenceError after 20,000 damped iterations, is
#: decided dimension by dimension since #16; pinned in REGRESSIONS).
KNOWN_LONG: dict = {}


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_LONG[n], strict=False))
                                  if n in KNOWN_LONG else n for n in sorted(ENTRY_POINTS)])
def test_fuzz_entry_point_long(name):
    _fuzz(name, 10 * EXAMPLES, 15)


# ----------------------------------------------------------------------------
# The issue's findings, pinned
# ----------------------------------------------------------------------------
REGRESSIONS = [
    ("torus_dor.solve", [0.001], {**_DOR, "radices": (1e300, 4)}, ["radices"]),
    ("torus_dor.solve", [0.001], {**_DOR, "L": 1e9}, ["L"]),
    ("torus_dor.solve_2003", [None], _DOR, ["lam_g"]),
    ("torus_dor.solve", [None], _DOR, ["lam_g"]),
    ("torus_ipp.solve", [0.001], {**_IPP, "k": 1e300}, ["k"]),
    ("torus_ipp.solve", [0.001], {**_IPP, "sigma2": 1e-300}, ["sigma2"]),
    ("xfolded_tm.solve", [0.001], {**_XTM, "V": 1e9}, ["V"]),
    ("xfolded_tm.theorem1", [], dict(k=1e300), ["k"]),
    ("torus_nbc.solve", [0.001], {**_NBC, "k": 1e300}, ["k"]),
    ("torus_nbc.solve", [0.001], {**_NBC, "k": 80}, ["k"]),
    ("torus_ipp.saturation_load", [], {**_IPP, "sigma2": 8e-10}, ["sigma2"]),
    ("torus_dor.solve", [0.001], {**_DOR, "radices": (128, 128)}, ["radices"]),
    ("min_mva.saturation_load", [], {"pattern": {}}, ["pattern"]),
    ("xfolded_tm.theorem1", [], dict(k=8, which=np.array([1.0, 2.0])), ["which"]),
    ("min_mva.solve", [64], dict(k=8, n=2, m=4, method="general"), ["NC", "k", "n", "m"]),
    ("xfolded_tm.saturation_load", [], {**_XTM, "V": 1, "n": 1, "M": 16, "ad": 2}, ["V", "n", "M", "ad"]),
]


@pytest.mark.parametrize("name, args, kwargs, changed", REGRESSIONS, ids=[r[0] for r in REGRESSIONS])
def test_issue_findings(name, args, kwargs, changed):
    assert check_outcome(name, args, kwargs, changed) in ("ok", "ValueError")


def test_torus_ipp_saturation_takes_the_defaults_of_solve():
    """``saturation_load()`` and ``saturation_bound()`` with every keyword omitted use ``solve``'s defaults (#26)."""
    import models.torus_ipp as ipp

    full = dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)
    assert ipp.saturation_load() == ipp.saturation_load(**full)
    assert ipp.saturation_bound() == ipp.saturation_bound(**full)
    assert ipp.saturation_load(k=8) == ipp.saturation_load(**dict(full, k=8))


# ----------------------------------------------------------------------------
# The run options of compare() and of the curve command (issue #35, review 4: N5, N10, N17)
# ----------------------------------------------------------------------------
#: A small network of the torus_dor chapter: its model solves in milliseconds; the simulation is a stand-in
#: (:func:`_stand_in_simulation`), so that only the options' handling is fuzzed, never a long run.
DOR_4 = dict(radices=(4, 4), L=3, M=8)
DOR_4_ARGV = ["--radices", "4", "4", "--L", "3", "--M", "8"]


@functools.lru_cache(maxsize=1)
def _run_option_values():
    """name -> strategy of a run option of ``compare``: valid values, the bounds and past them, wrong types."""
    from models.core.results import SimPoint
    from models.core.setups import MAX_RUN, SimSettings

    def stand_in(curve, loads):
        return [SimPoint(20.0, 1.0, False) for _ in loads]

    wrong = st.sampled_from([None, "x", "", True, -1, 1e300, math.nan, [1, 2], {}])
    ints = lambda *good: st.one_of(st.sampled_from(list(good)), wrong, st.integers(-3, 3))  # noqa: E731
    return {
        "loads": st.one_of(st.lists(st.sampled_from([0.0005, 0.001, 0.002, 0.0, -1.0, math.nan, math.inf, 1e300,
                                                     1e-13, 1e6]), min_size=0, max_size=3),
                           st.sampled_from(["0.001", 0.001, None, np.array([[0.001]]), (x for x in [0.001])])),
        "points": ints(1, 3, 10_000, 10_001, 10**30, 2.5),
        "upto": st.one_of(st.sampled_from([0.5, 1.0, 2.0, 0.0, math.inf, 1e300, 1e-300]), wrong),
        "simulate": st.sampled_from([True, False, "yes", 1, None]),
        "search": st.sampled_from([True, False, "no", 0, None]),
        "messages": ints(100, 400, MAX_RUN, MAX_RUN + 1, 10**9, 10**12, 99, 0, 400.0, 400.5),
        "cycles": ints(400, MAX_RUN + 1),
        "warmup": ints(0, 50, MAX_RUN, MAX_RUN + 1, 10**12),
        "seed": ints(0, 7, 2**64),
        "jobs": ints(1, 2, 0, 1.5),
        "progress": st.sampled_from([True, False, None, "yes"]),
        "settings": st.sampled_from([SimSettings(messages=300, warmup_messages=30), {}, "fast", 1]),
        "setup": st.sampled_from(["paper", "nonsense", 3]),
        "grid": ints(0, 20, 10_000, 10_001),
        "sim": st.sampled_from([stand_in, 3, "sim"]),
    }


@contextlib.contextmanager
def _stand_in_simulation():
    """torus_dor's simulation hooks replaced by instant ones that check what reaches them: settings within the
    bounds (``MAX_RUN``), loads that are numbers."""
    from models.core.results import SimPoint
    from models.core.setups import MAX_RUN, SimSettings
    from models.torus_dor import experiments

    def simulate_curve(curve, loads, settings):
        assert isinstance(settings, SimSettings) and settings.messages <= MAX_RUN, settings
        assert all(math.isfinite(float(x)) for x in loads), loads
        return [SimPoint(20.0 + 1000 * float(x), 1.0, float(x) > 0.01) for x in loads]

    def sim_saturation(curve, guess, settings):
        assert isinstance(settings, SimSettings) and settings.probe_messages <= MAX_RUN, settings
        return 0.01

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(experiments, "simulate_curve", simulate_curve)
        mp.setattr(experiments, "sim_saturation", sim_saturation)
        yield


def check_compare_outcome(run: dict) -> str:
    """``torus_dor.compare(**DOR_4, **run)``: a Comparison, or a ``ValueError`` naming one of the run options
    given, within :data:`TIME_LIMIT`; never another exception (N10: what the command refuses, refused here)."""
    from models import torus_dor
    from models.core.compare import Comparison

    call = f"torus_dor.compare(**{DOR_4!r}, **{run!r})"
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"), time_limit(ACCEPTED_LIMIT):
            result = torus_dor.compare(**DOR_4, **run)
    except CallTooLong:
        raise AssertionError(f"{call} ran longer than {ACCEPTED_LIMIT} s") from None
    except ValueError as exc:
        elapsed = time.perf_counter() - start
        assert elapsed <= TIME_LIMIT, f"{call} took {elapsed:.1f} s to be rejected"
        msg = str(exc)
        assert any(re.search(rf"`{p}`|\b{p}\b", msg) for p in run), f"{call}: {msg!r} names none of {list(run)}"
        return "ValueError"
    except Exception as exc:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"{call} raised {type(exc).__name__} instead of ValueError: {exc}") from exc
    assert isinstance(result, Comparison)
    lat = result.model["latency"].to_numpy(dtype=float)
    assert not np.isnan(lat).any() and (lat >= 0).all(), f"{call}: model latencies {lat}"
    return "ok"


@st.composite
def run_options(draw):
    """A few of ``compare``'s run options, drawn from :func:`_run_option_values` (loads kept small)."""
    values = _run_option_values()
    names = draw(st.lists(st.sampled_from(sorted(values)), min_size=1, max_size=4, unique=True))
    return {n: draw(values[n]) for n in names}


def test_fuzz_compare_run_options():
    """Any combination of ``compare``'s run options gives a result or one ``ValueError`` naming an option given
    (N5: run lengths past ``MAX_RUN``; N10: ``loads`` with ``points``/``upto``, a simulation option without a
    simulation; N17: a computed grid the model refuses names ``points``), never another exception, and no run
    longer than ``MAX_RUN`` reaches the simulation."""
    with _stand_in_simulation():
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), print_blob=True)
        @given(run=run_options())
        def fuzz(run):
            OUTCOMES["torus_dor.compare"][check_compare_outcome(run)] += 1

        fuzz()


#: curve's options and the values drawn for each (strings, as typed); None: a switch.  ``{tmp}`` is a scratch
#: folder holding a file ``file`` and a folder ``dir``.
CLI_OPTIONS = {
    "--loads": [["0.001"], ["0.0005", "0.002"], ["-1"], ["nan"], ["1e300"], ["abc"], ["1e-13"]],
    "--points": ["1", "3", "10000", "10001", "0", "-2", "2.5", "x"],
    "--upto": ["0.5", "1", "2", "0", "-1", "nan", "inf", "1e300"],
    "--simulate": None,
    "--messages": ["100", "400", "99", "0", "-1", "100000000", "100000001", "1000000000", "1e3", "9" * 30],
    "--warmup": ["0", "50", "100000001", "-1", "x"],
    "--seed": ["0", "3", "-1", "x"],
    "--jobs": ["1", "2", "0", "x"],
    "--progress": None, "--no-progress": None, "--sim-saturation": None, "--no-sim-saturation": None,
    "--out": ["{tmp}/c.csv", "-", "{tmp}/dir", "{tmp}/new/", "{tmp}/file/c.csv", "{tmp}/" + "a" * 300 + ".csv",
              "{tmp}/same.svg"],
    "--plot": ["{tmp}/p.svg", "{tmp}/p.png", "{tmp}/p.txt", "{tmp}/same.svg", "{tmp}/dir",
               "{tmp}/" + "a" * 300 + ".svg"],
    "--style": ["book", "paper", "poster"],
}


@st.composite
def curve_argv(draw):
    """``curve`` with torus_dor's 4x4 network and one to four of :data:`CLI_OPTIONS` (the options given, and argv
    with ``{tmp}`` to fill in)."""
    given = draw(st.lists(st.sampled_from(sorted(CLI_OPTIONS)), min_size=1, max_size=4, unique=True))
    argv = ["curve", *DOR_4_ARGV]
    for option in given:
        values = CLI_OPTIONS[option]
        argv.append(option)
        if values is not None:
            value = draw(st.sampled_from(values))
            argv += value if isinstance(value, list) else [value]
    return given, argv


def check_curve_outcome(given, argv) -> str:
    """``python -m models.torus_dor <argv>`` in-process: status 0 with a CSV, or status 1 or 2 with exactly one
    ``error:`` line (for 2, naming one of the options given, or a model parameter), and never a traceback or an
    exception out of ``main`` (N17: the same file, a name too long, a grid below the models' loads)."""
    import io
    import tempfile

    import models.torus_dor.__main__ as main

    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "file").write_text("x")
        (Path(tmp) / "dir").mkdir()
        argv = [a.replace("{tmp}", tmp) for a in argv]
        call = f"python -m models.torus_dor {' '.join(argv)}"
        out, err = io.StringIO(), io.StringIO()
        os.chdir(tmp)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), np.errstate(all="ignore"), \
                    time_limit(ACCEPTED_LIMIT):
                try:
                    rc = main.main(argv)
                except SystemExit as exc:
                    rc = exc.code
        except CallTooLong:
            raise AssertionError(f"{call} ran longer than {ACCEPTED_LIMIT} s") from None
        except Exception as exc:  # noqa: BLE001 - the point of the test
            raise AssertionError(f"{call} raised {type(exc).__name__}: {exc}\n{err.getvalue()}") from exc
        finally:
            os.chdir(here)
    err = err.getvalue()
    assert "Traceback" not in err, f"{call}:\n{err}"
    if rc == 0:
        assert "error:" not in err, f"{call}:\n{err}"
        return "ok"
    lines = [line for line in err.splitlines() if "error: " in line]
    assert rc in (1, 2) and len(lines) == 1, f"{call}: status {rc}\n{err}"
    if rc == 2:
        named = re.search(r"error: (--[\w-]+)", lines[0])
        options = set(given) | {"--radices", "--L", "--M"}
        if "loads evenly up to" in lines[0]:  # the default --points grid made a load the model refuses
            options.add("--points")
        assert named and named.group(1) in options, f"{call}: {lines[0]!r} names none of {sorted(given)}"
        return "ValueError"  # counted with the solvers' ValueErrors: a refusal naming the option
    return "failure"


def test_fuzz_the_curve_commands_options():
    """Any combination of the ``curve`` command's options gives a CSV or one ``error:`` line naming an option
    given, never a traceback: the command's side of ``test_fuzz_compare_run_options``."""
    with _stand_in_simulation():
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), print_blob=True)
        @given(call=curve_argv())
        def fuzz(call):
            OUTCOMES["torus_dor curve"][check_curve_outcome(*call)] += 1

        fuzz()


RUN_REGRESSIONS = [
    dict(loads=[0.001], points=4),                     # N-26: points was silently ignored
    dict(loads=[0.001], messages=5, simulate=False),   # N-27
    dict(loads=[0.001], messages=10**9),               # N-30/N-32: 15 GiB at once
    dict(loads=[0.001], messages=10**12),              # N-30: a MemoryError of 14.6 TiB
    dict(loads=[0.001], upto=0.5),
    dict(upto=1e300, simulate=False),                  # a computed grid the model refuses: names upto
]


@pytest.mark.parametrize("run", RUN_REGRESSIONS, ids=[str(sorted(r)) for r in RUN_REGRESSIONS])
def test_compare_findings(run):
    with _stand_in_simulation():
        assert check_compare_outcome(run) in ("ok", "ValueError")
