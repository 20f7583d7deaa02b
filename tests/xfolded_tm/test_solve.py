"""The x-Folded TM delay model: limits, saturation, readings, errors; the experiment helpers."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.errors import ParameterError
from models.networks.grid2d import build, torus
from models.xfolded_tm import saturation_rate, solve, solve_curve
from models.xfolded_tm.experiments import claims_table, error_table, run_curve

AD8 = torus(8).average_distance_per_dimension()


@pytest.mark.parametrize("V", [1, 2, 8])
def test_zero_load_is_message_length_plus_distance(V):
    r = solve(0.0, ad=AD8, M=32, V=V)
    assert r.latency == pytest.approx(32 + 2 * AD8)
    assert r.source_wait == 0 and r.multiplexing == 1 and not r.saturated


def test_printed_sum_of_eq11_multiplies_the_zero_load_delay():
    r = solve(0.0, ad=AD8, M=32, V=2, k=8, vbar="sum")
    assert r.multiplexing == 14  # n (k - 1) terms, each 1
    assert r.latency == pytest.approx(14 * (32 + 2 * AD8))


@pytest.mark.parametrize("V", [2, 8])
def test_monotone_finite_then_saturated(V):
    sat = saturation_rate(ad=AD8, M=32, V=V)
    assert 0.001 < sat < 1 / 32
    lams = np.linspace(0, sat * 0.999, 25)
    lat = [solve(x, ad=AD8, M=32, V=V) for x in lams]
    vals = np.array([r.latency for r in lat])
    assert np.all(np.isfinite(vals)) and np.all(vals > 0) and np.all(np.diff(vals) > 0)
    assert all(r.iterations < 2000 for r in lat)
    past = solve(sat * 1.01, ad=AD8, M=32, V=V)
    assert past.saturated and past.latency == math.inf
    assert not np.isnan(past.latency)


def test_recursion_eq9_holds_at_the_solution():
    r = solve(0.006, ad=AD8, M=32, V=2)
    S = (32.0,) + r.S
    for i in (1, 2):
        assert S[i] == pytest.approx(S[i - 1] + AD8 * (1 + r.channel_wait[i - 1] * r.blocking[i - 1]), rel=1e-9)
    assert r.latency == pytest.approx((r.network_latency + r.source_wait) * r.multiplexing)


def test_channel_rate_links_equals_printed_on_the_torus():
    net = torus(8)
    a = solve(0.005, ad=AD8, M=32, V=2)
    b = solve(0.005, ad=AD8, M=32, V=2, channel_rate="links", nodes=net.n_nodes, channels=net.n_channels)
    assert a.latency == pytest.approx(b.latency, rel=1e-12)


def test_more_vcs_delay_saturation():
    assert saturation_rate(ad=AD8, M=32, V=8) > saturation_rate(ad=AD8, M=32, V=2)


def test_solve_curve():
    c = solve_curve([0.0, 0.1, 0.9], ad=AD8, M=32, V=2)
    assert c.latency[0] == pytest.approx(32 + 2 * AD8)
    assert c.saturated.tolist() == [False, False, True]
    assert list(c.to_frame().columns)[:3] == ["lam", "injection", "latency"]


@pytest.mark.parametrize("kw, name", [
    (dict(lam=-0.1), "lam"), (dict(V=0), "V"), (dict(V=1.5), "V"), (dict(k=2), "k"), (dict(M=0), "M"),
    (dict(ad=0.0), "ad"), (dict(vbar="median"), "vbar"), (dict(source_rate="x"), "source_rate"),
    (dict(channel_rate="links"), "nodes"),
])
def test_bad_parameters_raise_value_error(kw, name):
    args = dict(lam=0.001, ad=AD8, M=32, V=2, k=8)
    args.update(kw)
    lam = args.pop("lam")
    with pytest.raises(ValueError, match=f"`{name}`"):
        solve(lam, **args)


def test_run_curve_model_only_and_tables():
    f = run_curve("xf_completed", 2, [0.02, 0.1], simulate=False)
    assert list(f["injection"]) == [0.02, 0.1] and np.all(np.isfinite(f["model"]))
    # the printed Theorem 1 gives AD_8 < 1: a far smaller delay than the BFS distance
    assert np.all(f["model (Thm 1 printed)"] < f["model"])
    with pytest.raises(ValueError, match="`V`"):
        run_curve("tm", 0, [0.1], simulate=False)
    rows = []
    for key, lab, lat in [("torus", "torus", 50.0), ("tm", "TM", 52.0), ("xfolded_completed", "xc", 45.0),
                          ("xfolded_printed", "xp", 60.0)]:
        rows.append(dict(curve=lab, key=key, V=2, injection=0.1, model=lat * 1.03, sim=lat, **{"sim CI": 1.0}))
    frame = pd.DataFrame(rows)
    pts, summ = error_table(frame)
    assert np.allclose(pts["rel. error"], 0.03) and (summ["within 5%"] == "1/1").all()
    claims = claims_table(frame).set_index("reading")
    assert claims.loc["completed", "claim holds"] and not claims.loc["printed", "claim holds"]


def test_short_simulation_agrees_at_low_load():
    f = run_curve("xf_completed", 2, [0.02], messages=3000, warmup=500, batches=10, cache=False)
    assert f["routing"].iloc[0] == "updown"
    assert f["sim"].iloc[0] == pytest.approx(f["model"].iloc[0], rel=0.06)
    assert abs(f["non-minimal excess"].iloc[0]) < 0.02


def test_topology_claims_at_k8():
    from models.xfolded_tm.experiments import topology_claims

    t = topology_claims([3, 4, 8]).set_index(["claim", "reading"])
    diam = "diameter below TM and torus"
    assert not t.loc[(diam, "printed"), "holds at k = 8"] and t.loc[(diam, "completed"), "holds at k = 8"]
    assert t.loc[("Lemma 1: I(i) = i + 1 for 1 <= i <= k-1", "printed"), "holds"]
    with pytest.raises(ValueError, match="`k`"):
        topology_claims([2])
