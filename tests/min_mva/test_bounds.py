"""The saturation population N* of the asymptotic bounds (saturation_load, asymptotic_bounds)."""

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.min_mva import asymptotic_bounds, saturation_load, solve, solve_curve


@pytest.mark.parametrize("kw,cycle,D_max,NC_star,where", [
    # one stage of 2x2 switches, N = 2: a lone request takes 1 (switch) + S_mm (memory) + 1 (link)
    # + 1 (return switch) + S_pe (processor) cycles; a memory serves (1/2 + 1/2) S_mm cycles of work
    # per request of each class, the bottleneck; N* = cycle / sum_i D_ij.
    (dict(S_mm=2), 1 + 2 + 1 + 1 + 1, 2.0, 6 / 2, "MM"),
    (dict(S_mm=2, S_pe=5), 1 + 2 + 1 + 1 + 5, 5.0, 10 / 5, "PE"),
    # m = 2 packets: they pipeline through a switch (1 cycle for the lead packet), the memory takes
    # m - 1 + S_mm, the processor m - 1 + S_pe; a switch port is busy m cycles per request
    (dict(m=2, S_mm=4), 1 + (1 + 4) + 1 + 1 + (1 + 1), 4.0, 10 / 4, "MM"),
])
def test_N_star_by_hand_on_one_stage(kw, cycle, D_max, NC_star, where):
    b = asymptotic_bounds(k=2, n=1, **kw)
    np.testing.assert_allclose(b.cycle, cycle)
    assert b.NC_star == pytest.approx(NC_star, rel=1e-12)
    assert b.N_star == pytest.approx(2 * NC_star, rel=1e-12)
    # aggregate customer: D_max = (1/N) sum_i D_ij at the bottleneck, X_max = 1 / D_max
    assert b.D_max == pytest.approx(D_max / 2, rel=1e-12) and b.X_max == pytest.approx(2 / D_max, rel=1e-12)
    assert b.bottleneck.startswith(where)
    assert saturation_load(k=2, n=1, **kw) == b.NC_star


def test_uniform_formula_and_ties():
    # m = 1, uniform: N* = (2n + S_mm + 1 + S_pe) / max(1, S_mm, S_pe)
    for n, S_mm, S_pe in ((6, 1, 1), (6, 4, 1), (3, 2, 3), (7, 2, 1)):
        expected = (2 * n + S_mm + 1 + S_pe) / max(1, S_mm, S_pe)
        assert saturation_load(n=n, S_mm=S_mm, S_pe=S_pe) == pytest.approx(expected)
    b = asymptotic_bounds(S_mm=1)  # switches, memories and processors all equally loaded
    assert b.bottleneck.startswith("F1 0 (and 895 more")


def test_throughput_below_and_above_the_knee():
    kw = dict(k=2, n=3, S_mm=2)           # N = 8, cycle 10, memories the bottleneck: N* = 5, X_max = 4
    b = asymptotic_bounds(**kw)
    assert b.NC_star == pytest.approx(5) and b.X_max == pytest.approx(4)
    c = solve_curve([1, 2, 40, 80], **kw)
    light = 8 * c.loads / b.cycle[0]       # the light-load asymptote N NC / (D + Z)
    assert np.all(c.X <= light * (1 + 1e-12))
    # well below N*: throughput grows about linearly in NC
    assert c.X[0] >= 0.95 * light[0] and c.X[1] / c.X[0] == pytest.approx(2, rel=0.05)
    # well above N*: within a few % of the bound 1 / D_max
    assert c.X[2:] == pytest.approx(b.X_max, rel=0.02)
    # R then grows linearly in NC (about D_max per customer in the system), never infinite
    assert not c.saturated.any() and (c.R[3] - c.R[2]) == pytest.approx(40 * 8 * b.D_max, rel=0.05)


def test_m_packets_and_processor_bottleneck_bound():
    for kw in (dict(n=3, m=2, S_mm=4), dict(n=3, S_pe=4, S_mm=2)):
        b = asymptotic_bounds(**kw)
        x = solve(16 * b.NC_star, **kw).X
        assert x == pytest.approx(b.X_max, rel=0.02), kw


def test_hot_spot_knee_is_the_hot_memory():
    b = asymptotic_bounds(S_mm=2, pattern="hot_spot")
    assert b.bottleneck == "MM 0"
    # 32 hot processors each send 0.8/64 + 0.2 of their requests there: 6.8 requests x S_mm = 13.6 cycles
    assert b.NC_star == pytest.approx(16 / 13.6)


def test_saturation_load_takes_solve_keywords_and_checks_rtol():
    assert saturation_load(S_mm=2, method="general", damping=0.3, rtol=0.1) == saturation_load(S_mm=2)
    with pytest.raises(TypeError):
        saturation_load(S_mm=2, NC=4)
    with pytest.raises(ParameterError, match="rtol"):
        saturation_load(rtol=1.5)
    with pytest.raises(ParameterError, match="`S_mm`"):
        saturation_load(m=2, S_mm=1)


def test_bounds_kept_per_configuration_and_pattern():
    """asymptotic_bounds is cached (#16): the same configuration returns the same answer, another one its own."""
    a = asymptotic_bounds(k=2, n=4, S_mm=2)
    assert asymptotic_bounds(k=2, n=4, S_mm=2) is a
    b = asymptotic_bounds(k=2, n=4, S_mm=3)
    assert b is not a and b.NC_star != a.NC_star
    h = asymptotic_bounds(k=2, n=4, S_mm=2, pattern="hot_spot", pattern_options={"h": 0.3})
    assert h.NC_star < a.NC_star  # the hot memory saturates first
    h2 = asymptotic_bounds(k=2, n=4, S_mm=2, pattern="hot_spot", pattern_options={"h": 0.1})
    assert h.NC_star < h2.NC_star < a.NC_star
