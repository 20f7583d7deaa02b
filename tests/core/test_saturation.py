"""models.core.saturation: one bisection for model and simulated saturation.

Besides known answers, every bisection the chapters wrote by hand is kept
here as a reference loop, and the recipe that replaces it must give the same
numbers to the last bit (and probe the same loads in the same order).
"""

import math

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.core.saturation import Saturation, find_saturation, saturation_of


class Counter:
    """A threshold predicate that records its calls."""

    def __init__(self, threshold):
        self.threshold = threshold
        self.calls = []

    def __call__(self, x):
        self.calls.append(x)
        return x >= self.threshold


# ---------------------------------------------------------------- known answers
def test_threshold_found_within_rtol():
    p = Counter(0.3731)
    s = find_saturation(p, 0.0, 1.0, rtol=1e-6)
    assert isinstance(s, Saturation) and s.bracketed
    assert s.lo < 0.3731 <= s.hi
    assert s.hi - s.lo <= 1e-6 * s.hi
    assert s.load == 0.5 * (s.lo + s.hi) and abs(s.load - 0.3731) <= 1e-6 * 0.3731
    # trusted bracket: only midpoints are probed, each once
    assert s.evaluations == s.steps == len(p.calls) == len(set(p.calls))
    assert [x for x, _ in s.probes] == p.calls


def test_fixed_number_of_halvings_gives_the_exact_dyadic_bracket():
    s = find_saturation(Counter(0.3731), 0.0, 1.0, rtol=0, max_steps=8)
    assert s.steps == 8
    assert (s.lo, s.hi) == (95 / 256, 96 / 256)
    assert s.load == 0.373046875


def test_step_count_of_the_relative_rule():
    # the width after n halvings of [0, 1] is 2**-n; stop at the first n with 2**-n <= rtol * hi_n
    s = find_saturation(Counter(0.75), 0.0, 1.0, rtol=1e-3)
    n = 0
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-3 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if mid >= 0.75 else (mid, hi)
        n += 1
    assert s.steps == n == 11  # 2**-11 <= 1e-3 * 0.75 < 2**-10
    assert s.hi == 0.75  # 0.75 is dyadic: hit exactly, and it is saturated


def test_max_steps_caps_the_relative_rule():
    s = find_saturation(Counter(0.3731), 0.0, 1.0, rtol=1e-9, max_steps=5)
    assert s.steps == 5 and s.hi - s.lo == 1 / 32


def test_deterministic():
    a = find_saturation(Counter(0.123456), 0.0, 1.0, rtol=1e-7)
    b = find_saturation(Counter(0.123456), 0.0, 1.0, rtol=1e-7)
    assert a.probes == b.probes and a.load == b.load


def test_floating_point_resolution_stops_the_bisection():
    s = find_saturation(Counter(0.3731), 0.0, 1.0, rtol=0, max_steps=10_000)
    assert s.steps < 100
    assert np.nextafter(s.lo, 1.0) == s.hi


def test_saturation_of_uses_the_flag():
    class R:
        def __init__(self, saturated):
            self.saturated = saturated

    s = saturation_of(lambda x: R(x > 0.2), 0.0, 1.0, rtol=1e-5)
    assert abs(s.lo - 0.2) <= 1e-5 and s.lo <= 0.2 <= s.hi


# ---------------------------------------------------------------- bracket checks and expansion
def test_unsaturated_hi_without_expand_reports_above():
    p = Counter(2.0)
    s = find_saturation(p, 0.0, 1.0, check_hi=True)
    assert s.outside == "above" and not s.bracketed
    assert s.lo == s.hi == s.load == 1.0 and s.evaluations == 1 and s.steps == 0


def test_saturated_lo_without_expand_reports_below():
    s = find_saturation(Counter(0.1), 0.5, 1.0, check_lo=True)
    assert s.outside == "below" and s.load == s.lo == s.hi == 0.5


def test_saturated_zero_cannot_expand_down():
    s = find_saturation(Counter(0.0), 0.0, 1.0, check_lo=True, expand=2.0)
    assert s.outside == "below" and s.load == 0.0


def test_expansion_up_and_down_from_one_guess():
    up = find_saturation(Counter(0.3), 0.1, 0.1, check_lo=True, check_hi=True, expand=2.0, rtol=1e-3)
    assert up.bracketed and up.lo < 0.3 <= up.hi
    assert [x for x, _ in up.probes[:3]] == [0.1, 0.2, 0.4]  # the guess is probed once
    down = find_saturation(Counter(0.3), 1.0, 1.0, check_lo=True, check_hi=True, expand=2.0, rtol=1e-3)
    assert down.bracketed and down.lo < 0.3 <= down.hi
    assert [x for x, _ in down.probes[:3]] == [1.0, 0.5, 0.25]


def test_expansion_gives_up_after_max_expansions():
    p = Counter(1e9)
    s = find_saturation(p, 1.0, 1.0, check_lo=True, check_hi=True, expand=2.0, max_expansions=5)
    assert s.outside == "above" and s.evaluations == 6 and s.load == 32.0


# ---------------------------------------------------------------- invalid arguments
@pytest.mark.parametrize(
    "args, kwargs, fragment",
    [
        ((0.5, 0.1), {}, "`lo` must be <= `hi`"),
        ((-1.0, 1.0), {}, "`lo`"),
        ((0.0, math.nan), {}, "`hi`"),
        ((0.0, math.inf), {}, "`hi`"),
        ((0.0, 0.0), {"check_lo": True, "check_hi": True}, "`hi` must be > 0"),
        ((0.0, 1.0), {"rtol": -1e-3}, "`rtol`"),
        ((0.0, 1.0), {"rtol": 1.0}, "`rtol`"),
        ((0.0, 1.0), {"rtol": 0}, "`max_steps`"),
        ((0.0, 1.0), {"max_steps": -1}, "`max_steps`"),
        ((0.0, 1.0), {"max_steps": 2.5}, "`max_steps`"),
        ((0.0, 1.0), {"expand": 1.0}, "`expand`"),
        ((0.5, 0.5), {"check_lo": True}, "one starting load"),
        ((0.0, 1.0), {"check_hi": 1}, "`check_hi`"),
        (("0", 1.0), {}, "`lo`"),
    ],
)
def test_invalid_arguments(args, kwargs, fragment):
    with pytest.raises(ParameterError) as info:
        find_saturation(Counter(0.3), *args, **kwargs)
    assert fragment in str(info.value) and isinstance(info.value, ValueError)


def test_not_callable():
    with pytest.raises(ValueError):
        find_saturation(0.3, 0.0, 1.0)
    with pytest.raises(ValueError):
        saturation_of(None, 0.0, 1.0)


# ---------------------------------------------------------------- the hand-written loops it replaces
def legacy_midpoint(sat, lo, hi, rtol):
    """torus_dor saturation_load / saturation_load_2003: return the final midpoint."""
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        if sat(mid):
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def legacy_lower(sat, lo, hi, rtol):
    """torus_ipp / torus_nbc saturation_load: return the lower end."""
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        if sat(mid):
            hi = mid
        else:
            lo = mid
    return lo


def legacy_xfolded(sat, hi, rel_tol):
    """xfolded_tm saturation_rate: hi itself when it is not saturated, else the lower end."""
    lo = 0.0
    if not sat(hi):
        return hi
    while hi - lo > rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if sat(mid):
            hi = mid
        else:
            lo = mid
    return lo


def legacy_steps(sat, hi, steps):
    """torus_dor / torus_ipp sim_saturation: a fixed number of halvings, midpoint."""
    lo = 0.0
    for _ in range(int(steps)):
        mid = 0.5 * (lo + hi)
        if sat(mid):
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def legacy_nbc_sim(sat, guess, rel_tol):
    """torus_nbc sim_saturation: scale by 1.25 to bracket, then bisect; midpoint, lo, hi, runs."""
    runs = 0

    def s(rate):
        nonlocal runs
        runs += 1
        return sat(rate)

    lo = hi = None
    rate = guess
    for _ in range(40):
        if s(rate):
            hi = rate
            if lo is not None:
                break
            rate /= 1.25
        else:
            lo = rate
            if hi is not None:
                break
            rate *= 1.25
    if lo is None or hi is None:
        raise ParameterError("could not bracket")
    while (hi - lo) > rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if s(mid):
            hi = mid
        else:
            lo = mid
    return {"saturation": 0.5 * (lo + hi), "lo": lo, "hi": hi, "runs": runs}


THRESHOLDS = np.random.default_rng(11).uniform(0.001, 0.999, 40).tolist() + [0.5, 0.25, 1e-3]


@pytest.mark.parametrize("rtol", [1e-4, 1e-5, 1e-6])
def test_recipe_model_midpoint(rtol):
    for t in THRESHOLDS:
        hi = 1.0 / 0.9
        a, b = Counter(t), Counter(t)
        assert find_saturation(a, 0.0, hi, rtol=rtol).load == legacy_midpoint(b, 0.0, hi, rtol)
        assert a.calls == b.calls


@pytest.mark.parametrize("rtol", [1e-4, 1e-5, 1e-6])
def test_recipe_model_lower_end(rtol):
    for t in THRESHOLDS:
        a, b = Counter(t), Counter(t)
        assert find_saturation(a, 0.0, 1.3, rtol=rtol).lo == legacy_lower(b, 0.0, 1.3, rtol)
        assert a.calls == b.calls


def test_recipe_xfolded():
    for t in THRESHOLDS + [5.0]:
        a, b = Counter(t), Counter(t)
        s = find_saturation(a, 0.0, 1 / 32 * 40, rtol=1e-4, check_hi=True)
        assert s.lo == legacy_xfolded(b, 1 / 32 * 40, 1e-4)
        assert a.calls == b.calls


@pytest.mark.parametrize("steps", [4, 5, 7, 8])
def test_recipe_sim_fixed_steps(steps):
    for t in THRESHOLDS:
        a, b = Counter(t), Counter(t)
        s = find_saturation(a, 0.0, 1.0, rtol=0, max_steps=steps)
        assert s.load == legacy_steps(b, 1.0, steps) and s.steps == steps
        assert a.calls == b.calls


@pytest.mark.parametrize("guess", [0.05, 0.3, 0.8 * 0.61, 0.9, 3.0])
@pytest.mark.parametrize("rel_tol", [0.02, 0.08])
def test_recipe_nbc_sim(guess, rel_tol):
    for t in THRESHOLDS:
        a, b = Counter(t), Counter(t)
        s = find_saturation(a, guess, guess, check_lo=True, check_hi=True, expand=1.25, max_expansions=39,
                            rtol=rel_tol)
        ref = legacy_nbc_sim(b, guess, rel_tol)
        assert s.bracketed
        assert (s.load, s.lo, s.hi, s.evaluations) == (ref["saturation"], ref["lo"], ref["hi"], ref["runs"])
        assert a.calls == b.calls


def test_recipe_nbc_sim_failure_to_bracket():
    with pytest.raises(ParameterError):
        legacy_nbc_sim(Counter(1e9), 1.0, 0.02)
    s = find_saturation(Counter(1e9), 1.0, 1.0, check_lo=True, check_hi=True, expand=1.25, max_expansions=39)
    assert not s.bracketed and s.evaluations == 40  # the call site raises, as before
