"""The blocking time of the measured messages (``blocking_mean``, ``blocking_m2``, ``blocking_cv``,
``blocking_by_hops``): per message, its network latency minus the zero-load network latency of its hop count
(torus_ipp eq. 4), computed from the kernel's tags without changing the kernel."""

import json
import math

import numpy as np
import pytest

from models.core import cache as C
from models.sim.wormhole import Torus, simulate
import importlib

S = importlib.import_module("models.sim.wormhole.simulate")
from models.sim.wormhole.common import BLOCKING_BY_HOPS, blocking_stats

RUN = dict(routing="duato", vcs=3, message_length=8, messages=300, warmup_messages=20, batches=5)


def test_blocking_stats_of_known_tags():
    """Hand-computed moments of six messages: zero-load 10 + h cycles, so b = 0, 2, 4 (1 hop), 0, 0 (2 hops), 6
    (3 hops)."""
    net = np.array([11, 13, 15, 12, 12, 19])
    hops = np.array([1, 1, 1, 2, 2, 3], dtype=np.int32)
    got = blocking_stats(net, hops, lambda h: 10 + h)
    b = np.array([0, 2, 4, 0, 0, 6], dtype=float)
    assert got["blocking_mean"] == pytest.approx(2.0)
    assert got["blocking_m2"] == pytest.approx((4 + 16 + 36) / 6)
    assert got["blocking_cv"] == pytest.approx(b.std() / 2.0)
    by = got["blocking_by_hops"]
    assert list(by) == list(BLOCKING_BY_HOPS)
    assert by["hops"].tolist() == [1, 2, 3] and by["count"].tolist() == [3, 2, 1]
    assert by["mean"].tolist() == pytest.approx([2.0, 0.0, 6.0])
    assert by["m2"].tolist() == pytest.approx([20 / 3, 0.0, 36.0])
    assert by["cv"][0] == pytest.approx(math.sqrt(8 / 3) / 2) and math.isnan(by["cv"][1]) and by["cv"][2] == 0
    none = blocking_stats(net, hops, None)
    assert math.isnan(none["blocking_mean"]) and none["blocking_by_hops"]["hops"].size == 0


@pytest.mark.parametrize("change", [{}, dict(router_delay=2), dict(buffer_depth=1), dict(self_traffic=True)])
def test_blocking_is_exactly_zero_at_a_tiny_load(change):
    """At a tiny load no message meets another: every message's network latency is the zero-load one of its hop
    count, so b = 0 exactly (mean and second moment 0, CV undefined), for every hop count; a wrong zero-load
    formula (router delay, one-flit buffers, messages to the node itself) would give b != 0."""
    r = simulate(Torus((4, 4)), rate=1e-6, **RUN, **change)
    assert r.blocking_mean == 0.0 and r.blocking_m2 == 0.0 and math.isnan(r.blocking_cv)
    by = r.blocking_by_hops
    assert by["count"].sum() == r.messages and (by["mean"] == 0).all() and (by["m2"] == 0).all()
    assert by["hops"].min() == (0 if change.get("self_traffic") else 1) and by["hops"].max() == 4


def test_blocking_against_the_run_s_own_tags(monkeypatch):
    """At a load where messages block, the moments equal a brute-force computation from the run's tags
    (captured on their way to the summary): b = network latency - (M + (h + 1) R), message by message."""
    seen = {}
    real = S.summarise

    def spy(p, sc, status, tags, **kw):
        n = min(int(sc[0]["target"]), int(sc[0]["prefix"]))
        seen.update(net=tags.net[:n].copy(), hops=tags.hops[:n].copy())
        return real(p, sc, status, tags, **kw)

    monkeypatch.setattr(S, "summarise", spy)
    r = simulate(Torus((4, 4)), rate=0.03, **{**RUN, "messages": 2000}, router_delay=2)
    b = seen["net"] - (8 + (seen["hops"].astype(np.int64) + 1) * 2)
    assert b.min() >= 0 and b.max() > 0
    assert r.blocking_mean == pytest.approx(b.mean(), rel=1e-12)
    assert r.blocking_m2 == pytest.approx(np.mean(b.astype(float) ** 2), rel=1e-12)
    assert r.blocking_cv == pytest.approx(b.std() / b.mean(), rel=1e-12)
    for h, n, m in zip(r.blocking_by_hops["hops"], r.blocking_by_hops["count"], r.blocking_by_hops["mean"]):
        assert n == (seen["hops"] == h).sum() and m == pytest.approx(b[seen["hops"] == h].mean(), rel=1e-12)
    # the mean by another route: the run's mean network latency and mean hops
    assert r.blocking_mean == pytest.approx(r.network_latency - 8 - (r.mean_hops + 1) * 2, rel=1e-9)


def test_blocking_not_measured_without_a_zero_load_formula():
    """Geometric lengths (the tags do not keep a message's length) and the BookSim router: NaN."""
    r = simulate(Torus((4, 4)), rate=0.01, length_dist="geometric", **RUN)
    assert math.isnan(r.blocking_mean) and math.isnan(r.blocking_cv)
    b = simulate(Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.01, messages=200,
                 warmup_messages=20, batches=5, router="booksim", buffer_depth=5)
    assert math.isnan(b.blocking_mean)


def test_a_cached_result_without_the_blocking_fields_is_refused():
    """An entry written before the blocking fields existed cannot be read back as a result with them: the
    decoder wants exactly the class's fields (and the simulator's version, in every key, follows its source)."""
    r = simulate(Torus((4, 4)), rate=1e-3, **RUN)
    data = json.loads(json.dumps(C.encode(r)))
    assert C.decode(data).blocking_mean == r.blocking_mean
    for f in ("blocking_mean", "blocking_m2", "blocking_cv", "blocking_by_hops"):
        del data["fields"][f]
    with pytest.raises(Exception):
        C.decode(data)
