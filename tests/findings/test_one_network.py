"""One network, every model: the translation to the simulator, the set-ups, the rankings."""

import itertools
from types import SimpleNamespace
import math

import numpy as np
import pandas as pd
import pytest

from models import torus_ipp, torus_nbc
from models.core.claims import worst_error_below
from models.core.errors import ParameterError
from models.core.experiment import run_curve
from models.core.results import SimPoint
from models.core.setups import Curve, SimSettings, SimulatorSetup
from models.findings import one_network as one


def _curve(routing="duato_nbc", setup="one ejection VC", net=one.Network()):
    return Curve("c", model=dict(name="torus_nbc", k=net.k, M=net.M, V=net.V), sim=dict(routing=routing), setup=setup)


def test_setups_differ_only_in_the_knob_they_name():
    net = one.Network(k=8, M=32, V=10)
    settings = SimSettings(messages=1000, warmup_messages=100, batches=10, seed=3)
    kws = {s: one.sim_kwargs(_curve(setup=s, net=net), 0.01, settings) for s in one.SETUPS}
    assert len(kws) >= 2
    for a, b in itertools.combinations(kws, 2):
        differ = {key for key in kws[a].keys() | kws[b].keys() if kws[a].get(key) != kws[b].get(key)}
        # same seed, same everything else: only the knobs the two set-ups name
        assert differ == set(one.SETUPS[a].overrides) | set(one.SETUPS[b].overrides), (a, b, differ)
    assert all(kw["seed"] == 3 and kw["messages"] == 1000 and kw["rate"] == 0.01 for kw in kws.values())
    assert kws["V ejection VCs"]["ejection_vcs"] == 10 and kws["one ejection VC"]["ejection_vcs"] == 1
    assert kws["one ejection VC"]["topology"] == net.topology and kws["one ejection VC"]["vcs"] == 10
    assert all(isinstance(s, SimulatorSetup) and s.description and s.stands_for == "model"
               for s in one.SETUPS.values())
    # the rest of the curve's `sim` overrides the set-up
    assert one.sim_kwargs(_curve().replace(sim=dict(routing="dor", ejection_vcs=3)), 0.01)["ejection_vcs"] == 3


def test_unknown_setup_or_routing_refused():
    with pytest.raises(ParameterError, match="setup"):
        one.sim_kwargs(_curve(setup="two ejection VCs"), 0.01)
    with pytest.raises(ParameterError, match="setup"):
        one.curves(setups=["two ejection VCs"])
    with pytest.raises(ParameterError, match="routing"):
        one.sim_kwargs(_curve(routing="updown"), 0.01)


def test_every_model_has_a_routing_and_an_existing_setup():
    for spec in one.MODELS.values():
        assert spec.routing in one.ROUTINGS
        assert spec.setup in one.SETUPS


def test_ipp_load_is_the_mean_rate():
    lam = 0.004
    r = torus_ipp.solve(one.ipp_mu1(lam), k=8, V=10, M=32, traffic="poisson")
    assert r.rate_source == pytest.approx(lam, rel=1e-12)


def test_xfolded_average_distance_is_the_simulated_torus():
    net = one.Network(k=8)
    assert one.torus_ad(8) == pytest.approx(net.topology.average_distance() / 2)
    # 8x8 bidirectional torus: mean over the 63 other nodes of (|dx| + |dy|) with ring distances 0,1,2,3,4,3,2,1
    ring = np.array([0, 1, 2, 3, 4, 3, 2, 1])
    assert one.torus_ad(8) == pytest.approx((ring[:, None] + ring[None, :]).sum() / 63 / 2)


def test_model_points_are_the_chapters_front_doors():
    net = one.Network(k=8, M=32, V=10)
    assert one.model_point("torus_nbc", 0.005, net)["latency"] == torus_nbc.solve(0.005, k=8, M=32, V=10).latency
    sat = one.model_saturation("torus_nbc", net)
    assert one.model_point("torus_nbc", 0.9 * sat, net)["saturated"] is False
    assert one.model_point("torus_nbc", 1.1 * sat, net)["saturated"] is True


def test_vc_table_asks_the_models():
    table = one.vc_table(one.Network(k=8, V=10)).set_index("chapter")
    assert table.loc["torus_nbc", "model needs V >="] == torus_nbc.min_vcs(8) == 6
    assert table.loc["torus_nbc", "routing needs V >="] == 6
    assert table.loc["torus_ipp", "model needs V >="] == 3
    assert table["accepted"].all()
    with pytest.raises(ParameterError, match="Duato-Nbc"):
        one.check_vcs(one.Network(k=8, V=5))


def _errors(values: dict) -> pd.DataFrame:
    """A synthetic error_table: model -> (err@25, err@50, err@75, err@90, saturation ratio)."""
    rows = []
    for model, (a, b, c, d, ratio) in values.items():
        rows.append({"setup": "s", "model": model, "routing": "dor", "err @25%": a, "err @50%": b, "err @75%": c,
                     "err @90%": d, "worst |err| < 80%": max(abs(a), abs(b), abs(c)), "model saturation": ratio,
                     "sim saturation": 1.0, "saturation ratio": ratio})
    return pd.DataFrame(rows)


def test_most_accurate_follows_the_errors():
    t = _errors({"A": (1, -2, 10, 20, 0.9), "B": (-5, 6, 4, -8, 1.2)})
    best = one.most_accurate(t).set_index("criterion")
    assert best.loc["up to 50%", "model"] == "A" and best.loc["75-90%", "model"] == "B"
    assert best.loc["saturation", "model"] == "A" and best.loc["saturation", "value"] == 0.9
    # a changed error changes the winner
    t2 = _errors({"A": (1, -9, 10, 20, 0.9), "B": (-5, 6, 4, -8, 1.05)})
    best2 = one.most_accurate(t2).set_index("criterion")
    assert best2.loc["up to 50%", "model"] == "B" and best2.loc["saturation", "model"] == "B"
    text = one.summary_sentences(one.most_accurate(t2))["s"]
    assert "up to 50%" in text and "B (worst |error| 6.0%)" in text and "ratio 1.050" in text


def test_most_accurate_when_every_model_is_saturated():
    t = _errors({"A": (1, 2, math.inf, math.inf, 0.6), "B": (3, 4, math.inf, math.inf, 0.5)})
    best = one.most_accurate(t).set_index("criterion")
    assert best.loc["75-90%", "model"] == "-" and math.isinf(best.loc["75-90%", "value"])
    assert "every model is already saturated" in one.summary_sentences(one.most_accurate(t))["s"]


def test_own_setup_keeps_each_models_own_rows():
    rows = []
    for setup in one.SETUPS:
        for spec in one.MODELS.values():
            rows.append({"setup": setup, "model": spec.label, "routing": spec.routing, "err @25%": 0.0})
    own = one.own_setup(pd.DataFrame(rows))
    assert len(own) == len(one.MODELS)
    assert set(own["setup"]) == {one.OWN_SETUP}
    for _, r in own.iterrows():
        assert r["its set-up"] == next(s.setup for s in one.MODELS.values() if s.label == r["model"])


def test_worst_error_below_80_percent():
    curve = Curve("c", model={}, sim={}, loads=(0.25, 0.5, 0.75, 0.9), fractions_of="sim")
    sim_lat = {0.25: 100.0, 0.5: 200.0, 0.75: 400.0, 0.9: 1000.0}
    model_lat = {0.25: 110.0, 0.5: 150.0, 0.75: 420.0, 0.9: math.inf}
    run = run_curve(curve, lambda c, x: {"latency": model_lat[round(x, 6)]},
                    lambda c, xs: [SimPoint(sim_lat[round(x, 6)], 1.0) for x in xs],
                    model_saturation=lambda c: 0.85, sim_saturation=lambda c, m: 1.0)
    assert worst_error_below(run) == pytest.approx(0.25)            # |150 - 200| / 200, the 0.9 point left out
    assert worst_error_below(run, 0.95) == pytest.approx(0.25)      # 0.9 is not a fixed accuracy fraction
    assert one.worst_error_below is worst_error_below               # the shared rule, not a copy


def test_a_tiny_network_end_to_end(tmp_cache):
    net = one.Network(k=4, M=8, V=4)
    settings = SimSettings(messages=300, warmup_messages=50, batches=5, sat_messages=300, sat_steps=3,
                               sat_rtol=0.2)
    runs = one.run(net, settings, fractions=(0.25, 0.5), model_points=3, models=["torus_nbc", "xfolded_tm"])
    assert len(runs) == 2 * len(one.SETUPS)
    errors = one.error_table(runs, at=(0.25, 0.5))
    assert list(errors["setup"]) == [s for s in one.SETUPS for _ in range(2)]
    assert np.all(errors["sim saturation"] > 0) and np.all(errors["model saturation"] > 0)
    sat = one.saturation_table(runs)
    assert len(sat) == 2 * len(one.SETUPS)                       # one bisection per (routing, set-up)
    pts = one.points_table(runs)
    assert set(pts["setup"]) == set(one.SETUPS) and len(pts) == 2 * 2 * len(one.SETUPS)
    # the models of one routing and set-up are compared with the same simulated points
    assert one.format_errors(errors).shape == errors.shape
    fig = one.plot(runs, net)
    assert len(fig.axes) == 2


def test_glue_values_and_the_shown_table():
    t = _errors({"A": (1, -9, 10, 20, 0.9), "B": (-5, 6, math.inf, -8, 1.05)})
    best = one.most_accurate(t)
    vals = one.glue_values(best)
    assert vals == {"findings-one-s": one.summary_sentences(best)["s"]}
    assert set(one.glue_values(best.assign(setup=one.OWN_SETUP))) == {"findings-one-each-model-s-own-set-up"}
    shown = one.format_best(best).set_index("criterion")
    assert shown.loc["saturation", "value"] == "1.050" and shown.loc["up to 50%", "value"] == "6.0%"
    assert shown.loc["75-90%", "value"] == "20.0%" and shown.loc["75-90%", "runner-up value"] == "\u221e"
    assert one.format_best(best.assign(value=math.nan))["value"].eq("n/a").all()
    assert best["value"].dtype.kind == "f"                          # the input is left as it was


def test_the_same_network_in_the_torus_nbc_chapter_is_put_side_by_side(tmp_path):
    """Where this page and the torus_nbc chapter simulate one network, the page shows both searches' saturation
    loads with their probes' lengths and says why they differ; it never fails for a chapter not built."""
    net = one.Network(k=8, M=32, V=10)
    sat = pd.DataFrame([{"routing": "duato_nbc", "setup": "V ejection VCs", "sim saturation": 0.0270,
                         "lo": 0.0268, "hi": 0.0272, "probes": 6}])
    err = pd.DataFrame([{"routing": "duato_nbc", "setup": "V ejection VCs", "model saturation": 0.0182}])
    frame, why = one.chapter_check(sat, err, net, 10_000, book_dir=tmp_path)
    assert frame is None and "not built" in why
    table = tmp_path / one.CHAPTER_SATURATION
    table.parent.mkdir(parents=True)
    pd.DataFrame([{"curve": "8x8, M=32", "setup": "model", "k": 8, "M": 32, "model saturation": 0.0182,
                   "sim saturation": 0.0260, "sim saturation lo": 0.0258, "sim saturation hi": 0.0262,
                   "saturation runs": 8, "probe messages": 100_000}]).to_csv(table, index=False)
    frame, why = one.chapter_check(sat, err, net, 10_000, book_dir=tmp_path)
    assert list(frame["probe messages"]) == [100_000, 10_000]
    assert frame["saturation ratio"].round(3).tolist() == [0.7, 0.674]
    assert "0.02600, this page's at 0.02700 (+3.8%)" in why and "reads 0.700 there and 0.674 here" in why
    assert "100,000 measured messages each in the chapter, 10,000 here." in why
    assert "shorter probe" not in why  # without the search run again, the page asserts no explanation
    # the page's search run again with the chapter's probes: a third row, and the sentence says whether it agrees
    asked = []

    def rerun(lo, hi):
        def search(probes):
            asked.append(probes)
            return SimpleNamespace(load=(lo + hi) / 2, lo=lo, hi=hi)
        return search

    frame, why = one.chapter_check(sat, err, net, 10_000, book_dir=tmp_path, rerun=rerun(0.0259, 0.0263))
    assert asked == [100_000] and list(frame["probe messages"]) == [100_000, 10_000, 100_000]
    assert "this page's search finds 0.02610 (0.02590 to 0.02630)" in why
    assert "accounts for the difference" in why and "shorter probe" in why
    frame, why = one.chapter_check(sat, err, net, 10_000, book_dir=tmp_path, rerun=rerun(0.0266, 0.0270))
    assert "does not account for all of the difference" in why and "shorter probe" not in why
    close = sat.assign(**{"sim saturation": 0.0261, "lo": 0.0259, "hi": 0.0263})
    asked.clear()
    assert "agree within their resolution" in one.chapter_check(close, err, net, 10_000, book_dir=tmp_path,
                                                                 rerun=rerun(0.0, 1.0))[1]
    assert asked == []  # overlapping brackets: nothing to explain, nothing run again
    assert one.chapter_check(sat, err, one.Network(k=16, M=32, V=10), 10_000, book_dir=tmp_path)[0] is None
