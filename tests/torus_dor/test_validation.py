"""Model against the simulator where the answer is known: zero load (M + h + 1 cycles) and light load."""

import pytest

from models.torus_dor.experiments import Curve, capacity_load, format_error_table, error_table, run_curve, zero_load_check


@pytest.mark.parametrize("radices,L,M", [((8, 8), 3, 32), ((4, 6), 2, 16), ((3, 4, 5), 5, 8)])
def test_zero_load_latency_matches_the_simulator_within_one_percent(radices, L, M, tmp_cache):
    z = zero_load_check(Curve(radices, L, M), messages=2000)
    assert abs(z["rel. error"]) < 0.01, z
    assert z["model"] == pytest.approx(z["M+h+1"], rel=0.01)


def test_light_load_agreement_and_error_table(tmp_cache):
    c = Curve((6, 6), 3, 16)
    run = run_curve(c, [0.25], messages=3000, warmup=300, batches=10, sat_messages=1500, sat_steps=4)
    t = error_table([run])
    assert abs(t["err 25%"].iloc[0]) < 0.1
    assert 0 < t["sat sim"].iloc[0] < capacity_load(c)
    assert format_error_table(t)["err 25%"].iloc[0].endswith("%")
