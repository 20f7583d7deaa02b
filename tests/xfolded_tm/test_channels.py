"""Theorem 2 (eq. 8) and eq. (6) against brute force on small networks, and their claims rows."""

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from models.core.claims import row_stands_for
from models.findings.verdicts import verdict_table
from models.xfolded_tm.channels import (binom, bidirectional, channel_uses, channels_at_hop, eq6_rows, theorem2,
                                        theorem2_rows, unidirectional_cube)
from models.xfolded_tm.claims import claims_table
from models.xfolded_tm.setups import SETUPS, network
from models.xfolded_tm.solve import theorem1


def _brute_hop_counts(k, n):
    """Channels j hops from node 0 of the unidirectional k-ary n-cube, by enumerating every channel: a node's
    distance from 0 is the sum of its coordinates (each dimension only goes up, mod k)."""
    counts = Counter()
    for c in itertools.product(range(k), repeat=n):
        for i in range(n):
            nxt = tuple((x + (d == i)) % k for d, x in enumerate(c))
            if sum(nxt) == sum(c) + 1:
                counts[sum(nxt)] += 1
    return counts


@pytest.mark.parametrize("k, n", [(2, 1), (3, 1), (5, 1), (3, 2), (4, 2), (5, 2), (3, 3), (4, 3), (3, 4)])
def test_theorem2_is_the_channel_count_of_the_unidirectional_cube(k, n):
    brute = _brute_hop_counts(k, n)
    assert max(brute) == n * (k - 1)
    for j in range(1, n * (k - 1) + 1):
        assert theorem2(j, k, n) == brute[j] == channels_at_hop(unidirectional_cube(k, n))[j], (k, n, j)
    # every channel that does not wrap around is some hop of a shortest path
    assert sum(brute.values()) == n * k ** (n - 1) * (k - 1)


def test_theorem2_is_not_the_count_of_the_bidirectional_torus():
    counts = channels_at_hop(bidirectional("torus", 4))
    assert counts[1] == 4 and theorem2(1, 4, 2) == 2          # four neighbours, two channels by eq. (8)
    assert counts.sum() > sum(theorem2(j, 4, 2) for j in range(1, 7))


def test_binomial_convention():
    assert binom(3, 1) == 3 and binom(0, 0) == 1 and binom(-1, 0) == 0 and binom(2, 3) == 0 and binom(4, -1) == 0


def _brute_channel_uses(net):
    """Per channel: uses per unit lambda, by enumerating every shortest path of every pair explicitly."""
    N = net.n_nodes
    D = [net.distances_from(s) for s in range(N)]
    out = {u: [v for a, v in net.channels if a == u] for u in range(N)}
    index = {c: i for i, c in enumerate(net.channels)}
    uses = np.zeros(len(net.channels))
    for s in range(N):
        for t in range(N):
            if s == t:
                continue
            paths = [[s]]
            while paths[0][-1] != t:
                paths = [p + [v] for p in paths for v in out[p[-1]] if D[s][v] == D[s][p[-1]] + 1
                         and D[v][t] == D[s][t] - D[s][v]]
            for p in paths:
                for a, b in zip(p, p[1:]):
                    uses[index[(a, b)]] += 1.0 / len(paths) / (N - 1)
    return uses


@pytest.mark.parametrize("key, k", [("torus", 4), ("tm", 4), ("xfolded_printed", 4), ("xfolded_completed", 5)])
def test_channel_uses_against_every_shortest_path(key, k):
    net = bidirectional(key, k)
    uses = channel_uses(net)
    assert np.allclose(uses, _brute_channel_uses(net))
    g = network(key, k)
    assert uses.sum() == pytest.approx(g.n_nodes * g.average_distance())          # N dbar


def test_eq6_exact_on_the_torus_only():
    t = eq6_rows(k=4).set_index("key")
    assert bool(t.loc["torus", "holds"]) and t.loc["torus", "eq. 6 / counted"] == pytest.approx(1.0)
    for key in ("tm", "xfolded_printed"):
        g = network(key, 4)
        assert not t.loc[key, "holds"]
        assert t.loc[key, "eq. 6 / counted"] == pytest.approx(g.n_channels / (4 * g.n_nodes))   # C / (2nN)
    assert t.loc["xfolded_thm1", "eq. 6"] == pytest.approx(theorem1(4, "theorem") / 2)
    assert not t.loc["xfolded_thm1", "holds"]


def _verdicts(c):
    return verdict_table(c.assign(stands_for=[row_stands_for(s, SETUPS) for s in c["setup"]])).set_index("claim_id")


def test_thm2_and_eq6_claims_rows():
    v = pd.DataFrame({"key": ["torus"], "network": ["torus"], "V": [2], "M": [32], "setup": ["model"],
                      "runnable": [True], "reason": [""], "worst |err| below 80%": [0.01], "uncertain": [""],
                      "saturation ratio": [1.0], "zero-load err": [0.0]})
    th, e6 = theorem2_rows(ks=(3, 8), ns=(1, 2)), eq6_rows(k=8)
    c = claims_table(v, theorem2=th, eq6=e6)
    rows = c[c["claim_id"] == "thm2"].set_index("case")
    assert rows.loc["unidirectional 8-ary 2-cube", "paper_config"] and rows.loc["unidirectional 8-ary 2-cube", "holds"]
    bi = rows.loc["bidirectional 8x8 torus (n = 2)"]
    assert bi["paper_config"] and bi["holds"] is False and bi["cause"] == "paper text" and bi["criterion"] == "exact"
    assert not rows.loc["unidirectional 3-ary 1-cube", "paper_config"]
    verdicts = _verdicts(c)
    assert verdicts.loc["thm2", "verdict"] == "does not hold" and verdicts.loc["thm2", "cause"] == "paper text"
    # eq. (6): exact on the torus; TM and x-Folded TM have fewer channels than 4N (the model's); Thm 1's AD
    e = c[c["claim_id"] == "eq6-channel-rate"].set_index("case")
    assert e.loc["torus, AD_k by BFS", "holds"] is True
    assert e.loc["TM, AD_k by BFS", "cause"] == "model"
    assert e.loc["x-Folded TM (Def. 1 as printed), AD of Thm 1 as printed", "cause"] == "paper text"
    assert verdicts.loc["eq6-channel-rate", "verdict"] == "does not hold"
    # a torus-only eq. (6) table holds
    only = claims_table(v, eq6=e6[e6["key"] == "torus"])
    assert _verdicts(only).loc["eq6-channel-rate", "verdict"] == "holds"
