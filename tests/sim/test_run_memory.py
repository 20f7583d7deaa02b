"""What a run allocates, and the bounds on it (issue #35, review 4 defect N5).

A wormhole run keeps a record of each measured message (``steps.Tags``: 29 bytes); the engines allocated
``2 * messages + backlog`` of them up front (15 GiB at ``--messages 10**9``), twice the records a run of fixed
length reads.  It now allocates those it reads, ``messages`` (``common.tag_capacity``), with the same results
bit for bit: the kernels tag in generation order and stop once the first ``target`` tags are delivered, so a
message generated after them is never read.  The closed simulator's allocations (requests, batches) are bounded.
"""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.core.setups import MAX_BATCHES
from models.sim import closed_min
from models.sim.wormhole import Torus, simulate
from models.sim.wormhole import booksim as booksim_engine
from models.sim.wormhole import common
from models.sim.wormhole import steps

simulate_module = importlib.import_module("models.sim.wormhole.simulate")  # the package's `simulate` is the function

BASE = dict(routing="dor", vcs=2, message_length=8, buffer_depth=4, warmup_messages=200, seed=3)
ROUTERS = {"ideal": {}, "booksim": dict(router="booksim")}


@pytest.fixture
def allocated(monkeypatch):
    """The sizes of every ``alloc_tags`` call of both engines, in order."""
    sizes = []
    real = steps.alloc_tags

    def spy(n, old=None):
        sizes.append(int(n))
        return real(n, old)

    for module in (steps, booksim_engine, common):
        monkeypatch.setattr(module, "alloc_tags", spy)
    return sizes


@pytest.mark.parametrize("router", sorted(ROUTERS))
def test_a_fixed_run_allocates_the_records_it_reads(router, allocated):
    """N5 / N-32: a run of ``messages`` measured messages allocates ``messages`` records, not
    ``2 * messages + saturation_backlog`` (was 2 * 600 + 20 * 16 + 500 = 2020 here; at 10**9 messages, 15 GiB)."""
    r = simulate(Torus((4, 4)), rate=0.02, messages=600, **BASE, **ROUTERS[router])
    assert allocated == [600] and r.messages == 600


def _plain(v):
    """A field as plain Python to compare bit for bit: arrays as lists, dicts of arrays likewise, NaN as a word
    (NaN != NaN)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return [_plain(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, float) and v != v:
        return "nan"
    return v


def _numbers(result) -> dict:
    """Every field of a result but its wall time, arrays as lists (compared bit for bit)."""
    return {f.name: _plain(getattr(result, f.name)) for f in dataclasses.fields(result) if f.name != "wall_time"}


@pytest.mark.parametrize("router", sorted(ROUTERS))
@pytest.mark.parametrize("case", [
    dict(rate=0.04, messages=1500),                                   # loaded: a backlog, later tags delivered first
    dict(rate=0.08, messages=3000),                                   # saturated: backlog growth (ideal) or limit
    dict(rate=0.1, messages=3000),                                    # saturated while measuring (backlog limit)
    dict(rate=0.04, messages=10**6, max_cycles=3000),                 # stopped by max_cycles
    dict(rate=0.04, messages=800, target_ci=1e-4, max_messages=2000),  # lengthened by target_ci (unchanged)
])
def test_the_results_are_those_of_the_old_allocation(router, case, monkeypatch):
    """The smaller allocation changes no result, bit for bit, whether the run finishes, saturates, runs out of
    cycles or is lengthened (``tests/sim/test_wormhole_golden.py`` holds the same for its digests)."""
    topo = Torus((4, 4))
    kw = dict(BASE, **ROUTERS[router], **case)
    new = simulate(topo, **kw)
    for engine in (simulate_module, booksim_engine):  # the allocation before issue #35
        monkeypatch.setattr(engine, "tag_capacity", lambda p, longest: 2 * longest + p.satlim)
    before = simulate(topo, **kw)
    assert _numbers(new) == _numbers(before)


def test_the_batches_of_a_wormhole_run_are_bounded():
    """The batch means of any run (the throughput mode allocates one accumulator per batch) are at most
    ``MAX_BATCHES``: a ``ParameterError`` naming ``batches``."""
    with pytest.raises(ParameterError, match="`batches` must be an integer >= 2 and <= 10000"):
        simulate(Torus((4, 4)), rate=0.01, messages=MAX_BATCHES + 1, batches=MAX_BATCHES + 1, **BASE)


def test_the_closed_simulators_allocations_are_bounded():
    """N5 for ``min_mva``'s simulator: ``N * NC`` request records (40 bytes each) and the batches' rows are
    bounded, a ``ParameterError`` naming ``NC`` or ``batches`` before anything is allocated (was: ``NC=10**9``
    a ``MemoryError``, 10**6 batches accepted)."""
    with pytest.raises(ParameterError, match="`NC` must be an integer >= 1 and <= 4194304"):
        closed_min.simulate(k=2, n=2, NC=10**9, S_mm=2, cycles=1000, warmup=100, cache=False)
    with pytest.raises(ParameterError, match="`batches` must be an integer >= 2 and <= 10000"):
        closed_min.simulate(k=2, n=2, NC=2, S_mm=2, cycles=10**6 + 100, warmup=100, batches=10**6, cache=False)
    r = closed_min.simulate(k=2, n=2, NC=2, S_mm=2, cycles=20_000, warmup=100, batches=MAX_BATCHES, cache=False)
    assert r.batches == MAX_BATCHES
