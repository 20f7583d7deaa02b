"""Same seed, same result across BookSim-kernel rewrites: a digest of every result field of
``router="booksim"`` (all but ``wall_time`` and ``params``), pinned from the engine of main before the
second issue #12 round (merge ec5297f), on configurations that exercise DOR on bidirectional and
unidirectional tori with '+'/'-' random ties, a mesh with one VC, geometric lengths with self traffic,
IPP traffic, up*/down*, Duato, Nbc and ``wait_for_tail_credit``.  A kernel change that alters the
random stream, the allocators' order or any statistic fails here.

Issue #24 changed one rule: ``dor`` on a bidirectional torus takes BookSim's ring partition, chosen
where the message enters a dimension (``vc_partition='entry'``), instead of the per-hop dateline
halves.  The digests of the five runs with that rule (``dor_bi``, ``dor_tie``, ``geo_self``,
``ipp``, ``dor_wtc``) were re-pinned; with ``vc_partition='hop'`` those runs still give the
digests pinned before (:data:`GOLDEN_HOP`), and every other run is unchanged.  ``min_adapt`` and
``min_adapt_wtc`` (BookSim's min_adapt_torus) were pinned when it was added.

``ipp`` re-pinned later (both digests), with the reason: an IPP source draws the gaps of its renewal process instead
of following its chain through every switch (:func:`models.sim.wormhole.traffic.ipp_h2`), so the stream of every IPP
run changes, not the process (:mod:`test_wormhole_traffic`); its ``vc_partition='hop'`` digest is pinned from then.
"""

import hashlib
import json

import numpy as np
import pytest

from models.sim.wormhole import IPP, Mesh, Torus, simulate

CASES = {
    "dor_bi": (Torus((6, 6)), dict(routing="dor", vcs=4, message_length=16, buffer_depth=4, rate=0.012)),
    "dor_uni": (Torus((6, 6), bidirectional=False), dict(routing="dor", vcs=2, message_length=12, buffer_depth=3, rate=0.01)),
    "dor_tie": (Torus((4, 4)), dict(routing="dor", vcs=2, message_length=8, buffer_depth=2, rate=0.03, tie="random")),
    "mesh": (Mesh((4, 5)), dict(routing="dor", vcs=1, message_length=10, buffer_depth=5, rate=0.02)),
    "geo_self": (Torus((4, 4)), dict(routing="dor", vcs=2, message_length=10, buffer_depth=6, rate=0.02,
                                     length_dist="geometric", self_traffic=True)),
    "ipp": (Torus((4, 4)), dict(routing="dor", vcs=2, message_length=8, buffer_depth=4, traffic=IPP(0.2, 0.05, 0.1))),
    "updown": (Torus((4, 4)), dict(routing="updown", vcs=3, message_length=8, buffer_depth=4, rate=0.02,
                                   wait_for_tail_credit=True)),
    "duato": (Torus((4, 4)), dict(routing="duato", vcs=4, message_length=8, buffer_depth=4, rate=0.03,
                                  wait_for_tail_credit=True)),
    "nbc": (Torus((4, 4)), dict(routing="nbc", vcs=4, message_length=8, buffer_depth=4, rate=0.02)),
    "dor_wtc": (Torus((5, 5)), dict(routing="dor", vcs=2, message_length=6, buffer_depth=2, rate=0.03,
                                    wait_for_tail_credit=True)),
    "min_adapt": (Torus((4, 4)), dict(routing="min_adapt", vcs=4, message_length=8, buffer_depth=4, rate=0.03)),
    "min_adapt_wtc": (Torus((4, 4)), dict(routing="min_adapt", vcs=5, message_length=8, buffer_depth=4, rate=0.03,
                                          wait_for_tail_credit=True)),
}

#: (digest of the result fields, latency) per case
GOLDEN = {
    "dor_bi": ("4c24e1030c43", 52.648),
    "dor_uni": ("beedf66e5bd1", float("inf")),
    "dor_tie": ("9fcfd549f973", 121.75966666666666),
    "mesh": ("674c77252279", 44.74633333333333),
    "geo_self": ("c3a98effe0a4", 33.73166666666667),
    "ipp": ("fd01f3d3c399", float("inf")),
    "updown": ("e31955910482", 29.206666666666667),
    "duato": ("9fac3a78366c", 31.598333333333333),
    "nbc": ("712aa40a2a3b", 29.137666666666668),
    "dor_wtc": ("bd47d94bc9db", 132.687),
    "min_adapt": ("f191fa9df2e7", 31.638666666666666),
    "min_adapt_wtc": ("6986fe506251", 32.31133333333333),
}
#: the digests pinned before issue #24 of the runs whose rule changed, reproduced with vc_partition='hop'
#: (``ipp``: pinned since an IPP draws its gaps, module docstring)
GOLDEN_HOP = {
    "dor_bi": ("169c739bfd3d", 52.654),
    "dor_tie": ("2b4c6b46a02a", float("inf")),
    "geo_self": ("0440d9871a02", 34.175333333333334),
    "ipp": ("25f8b952fc82", float("inf")),
    "dor_wtc": ("883a93ab0382", 166.98833333333334),
}

ARRAYS = ("vc_busy_hist", "channel_load")
#: The blocking-time fields (NaN with the BookSim router: no zero-load formula), newer than the digests.
BLOCKING = ("blocking_mean", "blocking_m2", "blocking_cv", "blocking_by_hops")


def result_digest(r):
    """SHA-1 (12 hex digits) of the JSON of every scalar, string and dict field of a result and its
    arrays ``vc_busy_hist`` and ``channel_load`` (``wall_time``, ``version`` and ``params`` left out, and the
    blocking-time fields added after these digests, which the BookSim router leaves unmeasured)."""
    d = {k: (np.asarray(v).tolist() if k in ARRAYS else v) for k, v in vars(r).items()
         if k not in ("wall_time", "version", "params") + BLOCKING and (isinstance(v, (int, float, str, dict)) or k in ARRAYS)}
    return hashlib.sha1(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()[:12]


@pytest.mark.parametrize("name", list(CASES))
def test_booksim_bit_identical_to_reference(name):
    topo, kw = CASES[name]
    r = simulate(topo, **kw, router="booksim", messages=3000, warmup_messages=300, seed=3)
    assert (result_digest(r), r.latency) == GOLDEN[name]


@pytest.mark.parametrize("name", list(GOLDEN_HOP))
def test_booksim_hop_partition_reproduces_the_digests_before_issue_24(name):
    topo, kw = CASES[name]
    r = simulate(topo, **kw, router="booksim", messages=3000, warmup_messages=300, seed=3, vc_partition="hop")
    assert r.params["vc_partition"] == "hop"
    assert (result_digest(r), r.latency) == GOLDEN_HOP[name]


@pytest.mark.parametrize("name", [n for n, (_, kw) in CASES.items()
                                  if kw["buffer_depth"] >= 5 and not kw.get("wait_for_tail_credit", False)])
def test_terminals_credits_left_unsent_change_no_result(name, monkeypatch):
    """With buffers of 5 flits or more and ``wait_for_tail_credit=False`` the terminals send no credits back: no send
    can wait for one (``booksim_kernel.EJ_FLOOR``).  A run allowed ``2 ** 30`` cycles or more sends them, as every run
    did when these digests were pinned, and gives the same result."""
    from models.sim.wormhole import booksim_kernel as K

    flags = []
    run = K.run
    monkeypatch.setattr(K, "run", lambda cfg, *a: (flags.append(cfg.ejcr), run(cfg, *a))[1])
    topo, kw = CASES[name]
    args = dict(kw, router="booksim", messages=3000, warmup_messages=300, seed=3)
    unsent = simulate(topo, **args)
    assert set(flags) == {0}
    flags.clear()
    sent = simulate(topo, **args, max_cycles=2 ** 30)
    assert set(flags) == {1}
    assert (result_digest(unsent), unsent.latency) == (result_digest(sent), sent.latency) == GOLDEN[name]
