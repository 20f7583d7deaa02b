"""Tests of the closed multiprocessor / MIN simulator (models.sim.closed_min)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.core.errors import ParameterError, SimulationError
from models.sim.closed_min import (
    ClosedSimResult,
    SIM_VERSION,
    cache_key,
    simulate,
    zero_contention_response,
)

N64 = 64
FAST = dict(cycles=60_000, warmup=5_000, batches=10)

# Willick & Eager (1990), Table 2 (64 processors/memories, 2x2 omega, uniform,
# S_pe = 1, S_mm = 2), "simulation" columns for NC = 2 and NC = 4.  Rows F1..F6,
# R6..R1, Memory and R as printed (the table gives no confidence intervals).
TABLE2_SIM = {
    2: {
        "F1": 1.012, "F2": 1.023, "F3": 1.030, "F4": 1.034, "F5": 1.035, "F6": 1.035,
        "R6": 1.013, "R5": 1.014, "R4": 1.015, "R3": 1.015, "R2": 1.013, "R1": 1.008,
        "MM": 2.240, "R": 15.493,
    },
    4: {
        "F1": 1.041, "F2": 1.065, "F3": 1.075, "F4": 1.079, "F5": 1.080, "F6": 1.082,
        "R6": 1.040, "R5": 1.051, "R4": 1.056, "R3": 1.056, "R2": 1.052, "R1": 1.041,
        "MM": 2.674, "R": 16.399,
    },
}


def _fields_equal(a: ClosedSimResult, b: ClosedSimResult, skip=("wall_time", "cycles_per_second")) -> bool:
    for f in dataclasses.fields(a):
        if f.name in skip:
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if not np.array_equal(x, y, equal_nan=True):
                return False
        elif isinstance(x, dict):
            if x.keys() != y.keys():
                return False
            for k in x:
                vx, vy = x[k], y[k]
                if isinstance(vx, float) and np.isnan(vx):
                    if not np.isnan(vy):
                        return False
                elif vx != vy:
                    return False
        elif x != y and not (isinstance(x, float) and np.isnan(x) and np.isnan(y)):
            return False
    return True


# --------------------------------------------------------------------------- exact cases


@pytest.mark.parametrize(
    "NC, m, S_mm, wiring",
    [(1, 1, 1, "mirror"), (4, 1, 1, "mirror"), (1, 1, 3, "mirror"), (3, 2, 2, "mirror"), (2, 4, 4, "same"), (1, 1, 2, "same")],
)
def test_zero_contention_response_is_exact(NC, m, S_mm, wiring):
    # The identity permutation passes an omega network (and both return
    # wirings) without conflict; with S_pe = 1 each processor's own messages
    # are m cycles apart and S_mm = m (or NC = 1) rules out memory queueing.
    # So nothing ever queues and every request takes exactly 2n + S_mm + 2m - 1.
    n = 6
    r = simulate(NC=NC, m=m, S_mm=S_mm, S_pe=1.0, pattern=np.eye(N64), return_wiring=wiring, cache=False, **FAST)
    expect = zero_contention_response(n, S_mm, m)
    assert expect == 2 * n + S_mm + 2 * m - 1
    assert r.R == expect
    assert r.R_ci == 0.0
    assert np.all(r.R_i == expect)
    for lab, v in r.stage_residence.items():
        assert v == (m - 1 + S_mm if lab == "MM" else 1.0), lab
        assert r.stage_ci[lab] == 0.0
    # throughput: each processor cycles its NC tokens every R + 1 cycles
    # (a token freed at the end of cycle t_done is reused in t_done + 1)
    if m == 1:
        assert np.allclose(r.X_i, NC / (expect + 1), rtol=2e-3)


@pytest.mark.parametrize("S_pe", [1.0, 2.5])
def test_processor_bound_issue_rate(S_pe):
    # Enough tokens that the processor itself is the bottleneck: it sends a
    # request's m packets on consecutive cycles, then waits a geometric delay
    # (mean S_pe, S_pe = 1 meaning the very next cycle) before the next lead
    # packet (Sec. 4.1), so X_i = 1 / (m - 1 + S_pe).  Its own messages are
    # then >= m cycles apart, so nothing queues in the network.
    m = 2
    r = simulate(NC=16, m=m, S_mm=m, S_pe=S_pe, pattern=np.eye(N64), cache=False, **FAST)
    assert r.R == zero_contention_response(6, m, m)
    rate = 1.0 / (m - 1 + S_pe)
    assert abs(r.X / N64 - rate) < 3 * r.X_ci / N64 + 2e-4
    if S_pe == 1.0:
        assert np.allclose(r.X_i, rate, rtol=1e-3)


def test_single_packet_zero_contention_value_matches_paper_table():
    # 2n + S_mm + 1 = 14 for n = 6, S_mm = 1: the floor of Table 1's R column.
    assert zero_contention_response(6, 1) == 14
    # Uniform references with NC = 1 are *not* contention-free (two
    # processors' requests can meet at a switch or memory), so R exceeds it.
    r = simulate(NC=1, S_mm=1, cache=False, **FAST)
    assert r.R > 14.0
    assert np.nanmin(r.R_i) >= 14.0


# --------------------------------------------------------------------------- Little's law


def test_little_law_spe1_single_packet():
    # S_pe = 1, m = 1: a freed token is reused the next cycle, so the token
    # spends exactly 1 cycle at the processor: X_i (R_i + 1) = NC, and the
    # mean number outstanding is L_i = X_i R_i = NC - X_i.
    NC = 4
    r = simulate(NC=NC, S_mm=2, cache=False, **FAST)
    assert abs(r.X * (r.R + 1) - N64 * NC) < 1e-3 * N64 * NC
    assert np.allclose(r.X_i * (r.R_i + 1), NC, rtol=2e-3)
    assert np.allclose(r.L_i, r.X_i * r.R_i, rtol=2e-3)
    assert np.allclose(r.L_i, NC - r.X_i, rtol=1e-3)
    assert abs(r.outstanding - r.X * r.R) < 1e-3 * r.outstanding


def test_little_law_geometric_think_time_multi_packet():
    # NC = 1: after completion the processor makes Bernoulli(1/S_pe) trials,
    # so the token waits S_pe cycles on average: X_i = 1 / (R_i + S_pe).
    S_pe, m = 3.0, 2
    r = simulate(NC=1, S_pe=S_pe, m=m, S_mm=3, cycles=120_000, warmup=5_000, batches=10, cache=False)
    pred = 1.0 / (r.R + S_pe)
    assert abs(r.X / N64 - pred) < 3 * r.X_ci / N64 + 1e-3 * pred
    # L = X R holds exactly (up to edge effects) whatever the think time
    assert abs(r.outstanding - r.X * r.R) < 2e-3 * r.outstanding
    assert r.R >= zero_contention_response(6, 3, m)


def test_little_law_blocking_multi_packet():
    r = simulate(NC=4, m=2, S_mm=4, cache=False, **FAST)
    assert np.allclose(r.L_i, r.X_i * r.R_i, rtol=3e-3)
    assert np.all(r.L_i <= 4.0) and np.all(r.L_i > 0)
    assert r.stage_residence["MM"] >= 2 - 1 + 4
    assert min(v for k, v in r.stage_residence.items() if k != "MM") >= 1.0


# --------------------------------------------------------------------------- conservation


def test_conservation_and_symmetry():
    NC = 2
    r = simulate(NC=NC, S_mm=2, cache=False, **FAST)
    window = r.cycles - r.warmup
    assert r.completed == round(r.X * window)
    assert round(r.X_i.sum() * window) == r.completed
    # every request visits every stage once; at most N*NC are in flight at the window edges
    for lab, visits in r.stage_visits.items():
        assert abs(visits - r.completed) <= N64 * NC, lab
    # per-center visits sum to the stage visits
    assert r.center_visits.sum() == sum(r.stage_visits.values())
    # uniform traffic: processors are statistically identical
    spread = np.abs(r.X_i / r.X_i.mean() - 1).max()
    assert spread < 0.03
    # 12 switch hops of one packet per completed request (whole run, incl. warm-up)
    assert r.packets_moved >= 12 * r.completed


def test_simultaneous_arrivals_are_ordered_at_random():
    # Under uniform traffic every processor sees the same network.  With
    # random tie-breaking the per-processor mean response times agree to a
    # few hundredths (range ~0.04 here); a fixed order (e.g. by input port
    # or processor index) gives a range near 1 cycle.
    r = simulate(NC=4, S_mm=1, cache=False, **FAST)
    assert np.ptp(r.R_i) < 0.12
    assert abs(r.R_i[:32].mean() - r.R_i[32:].mean()) < 0.02
    assert abs(r.R_i[0::2].mean() - r.R_i[1::2].mean()) < 0.02


# --------------------------------------------------------------------------- determinism, cache


def test_determinism_and_seed():
    a = simulate(NC=3, S_mm=2, seed=11, cache=False, **FAST)
    b = simulate(NC=3, S_mm=2, seed=11, cache=False, **FAST)
    c = simulate(NC=3, S_mm=2, seed=12, cache=False, **FAST)
    assert _fields_equal(a, b)
    assert a.R == b.R and np.array_equal(a.X_i, b.X_i)
    assert not _fields_equal(a, c)
    assert a.R != c.R


def test_cache_roundtrip(tmp_path, monkeypatch):
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    kw = dict(NC=2, S_mm=2, seed=5, cycles=30_000, warmup=2_000, batches=5)
    a = simulate(**kw)
    files = list((tmp_path / "closed_min").glob("*.json"))
    assert len(files) == 1
    b = simulate(**kw)
    assert b.wall_time == a.wall_time  # came from the cache, not a new run
    assert _fields_equal(a, b, skip=())
    assert files[0].stem == cache_key(**kw)
    c = simulate(cache=False, **kw)
    assert _fields_equal(a, c)  # the cached value is what a fresh run gives
    simulate(**{**kw, "seed": 6})
    assert len(list((tmp_path / "closed_min").glob("*.json"))) == 2


def test_cache_key_covers_every_parameter():
    base = dict(NC=2, S_mm=2, seed=5, cycles=30_000, warmup=2_000, batches=5)
    P = np.full((N64, N64), 1.0 / N64)
    P2 = P.copy()
    P2[0, :2] = [2.0 / N64, 0.0]
    variants = [
        {},
        {"topology": "baseline"},
        {"k": 4, "n": 3},
        {"n": 5},
        {"NC": 3},
        {"S_pe": 1.5},
        {"S_mm": 3},
        {"m": 2},
        {"pattern": "hot_spot"},
        {"pattern": "hot_spot", "pattern_options": {"h": 0.3}},
        {"pattern": P2},
        {"return_wiring": "same"},
        {"cycles": 30_001},
        {"warmup": 2_001},
        {"batches": 6},
        {"seed": 6},
    ]
    keys = [cache_key(**{**base, **v}) for v in variants]
    assert len(set(keys)) == len(keys)
    # the matrix itself is keyed: the uniform matrix given explicitly equals "uniform"
    assert cache_key(**{**base, "pattern": P}) == keys[0]
    assert SIM_VERSION.startswith("closed_min")


# --------------------------------------------------------------------------- behaviour


def test_hot_spot_memory_is_slowest():
    r = simulate(NC=4, S_mm=2, pattern="hot_spot", cache=False, **FAST)
    N, n = N64, 6
    mm = r.center_residence[2 * n * N :]
    assert mm[0] > 1.5 * np.nanmax(mm[1:])
    # the hot processors (0..31) wait longer than the others
    assert r.R_i[:32].mean() > r.R_i[32:].mean()


def test_return_wiring_changes_return_stage_next_to_memories():
    # Mirror-image return network: replies are spaced by their requests'
    # forward collisions, so R6 queues much less than with a second omega
    # network (notes Sec. 10: 1.021 vs 1.089 at NC = 4, S_mm = 1).
    kw = dict(NC=4, S_mm=1, cache=False, **FAST)
    mirror = simulate(**kw)
    same = simulate(return_wiring="same", **kw)
    assert same.stage_residence["R6"] - mirror.stage_residence["R6"] > 0.04
    assert abs(mirror.stage_residence["R6"] - 1.021) < 0.01


@pytest.mark.parametrize("NC", [2, 4])
def test_paper_table2_simulation_column(NC):
    r = simulate(NC=NC, S_mm=2, cycles=200_000, warmup=10_000, batches=20, seed=3, cache=False)
    paper = TABLE2_SIM[NC]
    for lab, v in paper.items():
        got, ci = (r.R, r.R_ci) if lab == "R" else (r.stage_residence[lab], r.stage_ci[lab])
        tol = (0.01 if lab != "R" else 0.05) + 2 * ci + 0.003
        assert abs(got - v) <= tol, (lab, got, v, tol)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"k": 1}, "k"),
        ({"n": 0}, "n"),
        ({"NC": 0}, "NC"),
        ({"NC": 1.5}, "NC"),
        ({"S_pe": 0.5}, "S_pe"),
        ({"S_pe": float("inf")}, "S_pe"),
        ({"m": 0}, "m"),
        ({"m": 2, "S_mm": 1}, "S_mm"),
        ({"cycles": 1000, "warmup": 1000}, "warmup"),
        ({"batches": 1}, "batches"),
        ({"topology": "torus"}, "topology"),
        ({"return_wiring": "crossed"}, "return_wiring"),
        ({"pattern": np.full((64, 64), 0.5)}, "pattern"),
        ({"pattern": np.full((4, 4), 0.25)}, "pattern"),
        ({"pattern": "zipf"}, "pattern"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_parameters(kw, name):
    with pytest.raises(ParameterError, match=rf"`?{name}"):
        simulate(cache=False, **{"cycles": 1000, "warmup": 100, **kw})


def test_no_completion_is_an_error():
    # the first request cannot complete before cycle 14 (2n + S_mm + 1)
    with pytest.raises(SimulationError, match="no request completed"):
        simulate(cycles=12, warmup=0, batches=2, cache=False)


def test_target_ci_lengthens_an_imprecise_run_up_to_max_cycles(tmp_cache):
    """A run stops at a precision (#15): a loose target keeps the first length, an unreachable one
    stops at max_cycles, and the target is part of the cache key."""
    from models.sim import closed_min

    base = dict(k=2, n=2, NC=2, cycles=4000, warmup=400, batches=10, seed=2)
    loose = closed_min.simulate(**base, target_ci=0.5)
    assert loose.cycles == 4000
    assert loose.R_ci <= 0.5 * loose.R
    tight = closed_min.simulate(**base, target_ci=1e-9, max_cycles=30000)
    assert tight.cycles == 30000  # measured 3600 -> 5400 -> ... -> 27338 -> capped at 29600
    assert tight.R_ci < loose.R_ci
    mid = closed_min.simulate(**base, target_ci=0.0005, max_cycles=10**6)
    assert mid.R_ci <= 0.0005 * mid.R and mid.X_ci <= 0.0005 * mid.X and mid.cycles > 4000
    assert closed_min.cache_key(**base, target_ci=0.5) != closed_min.cache_key(**base)
    with pytest.raises(ValueError, match="target_ci"):
        closed_min.simulate(**base, max_cycles=8000)
    with pytest.raises(ValueError, match="max_cycles"):
        closed_min.simulate(**base, target_ci=0.1, max_cycles=100)


def test_the_checkpoints_are_windows_lengthened_by_half_with_the_batches_of_each():
    from models.sim.closed_min import checkpoints

    edges, bounds = checkpoints(2000, 9000, 7)
    assert edges[0] == 0 and np.all(np.diff(edges) > 0)
    windows = edges[bounds[:, -1]]
    assert windows.tolist() == [2000, 3000, 4500, 6750, 9000]  # x1.5, the last capped
    for w, row in zip(windows, bounds):  # each checkpoint's batches are those of a run of its window
        assert edges[row].tolist() == [-(-(b * w) // 7) for b in range(8)]
    edges, bounds = checkpoints(2000, 2000, 7)  # a fixed length: one checkpoint
    assert bounds.tolist() == [list(range(8))] and edges.tolist() == [-(-(b * 2000) // 7) for b in range(8)]


def test_the_kernels_precision_test_is_the_results_half_widths():
    """The kernel decides at a checkpoint with its own copy of the half widths (it cannot call Python); that copy
    agrees with what the result reports (``_batch_ci`` for R, over the batches with a completion, and
    ``ci_halfwidth`` for X): on random blocks, with and without empty batches, a hair either side of each
    measure's relative half width."""
    from models.core.stats import ci_halfwidth
    from models.sim._closed_min_kernel import _precise
    from models.sim.closed_min import _batch_ci, _quantiles, checkpoints

    rng = np.random.default_rng(3)
    edges, bounds = checkpoints(700, 5000, 7)
    for trial in range(40):
        K = edges.size - 1
        noisy_r = trial % 2 == 1  # which measure binds: R's batch means or X's counts spread the more
        r_cnt = rng.integers(20, 23, K) if noisy_r else rng.integers(1, 30, K)
        if trial % 4 < 2:  # no completion in the first blocks: empty batches, R over fewer of them
            r_cnt[: K // 3] = 0
        r_sum = r_cnt * rng.uniform(5.0, 60.0 if noisy_r else 6.0, K)
        for row in bounds:
            lo, hi = row[:-1], row[1:]
            cnt = np.array([r_cnt[a:b].sum() for a, b in zip(lo, hi)])
            sums = np.array([r_sum[a:b].sum() for a, b in zip(lo, hi)])
            blen = np.diff(edges[row]).astype(float)
            R, X = sums.sum() / cnt.sum(), cnt.sum() / edges[row[-1]]
            rel = (_batch_ci(sums, cnt) / R, ci_halfwidth(cnt / blen) / X)
            if np.isnan(rel[0]):
                assert not _precise(r_sum, r_cnt, edges, lo, hi, _quantiles(7), 1.0)
                continue
            for target in (r * f for r in rel for f in (1 - 1e-9, 1 + 1e-9)):  # each measure's boundary
                assert _precise(r_sum, r_cnt, edges, lo, hi, _quantiles(7), target) == (max(rel) <= target)


@pytest.mark.parametrize("m, S_mm", [(1, 1), (2, 4)])
def test_a_lengthened_run_is_the_fresh_run_of_its_length_and_stops_where_first_precise(m, S_mm):
    """A run with a precision target goes on where it stopped (its measured window 1.5 times as long at a time)
    and gives, bit for bit, what a run of the length it stopped at gives with the same seed: the batches of that
    window, and an event counted by its completion cycle only if the window holds it (a memory still serving and
    a reply still streaming in at the stop are taken out again).  It stops at the first checkpoint where R and X
    are precise: the run that stopped at the checkpoint before is not."""
    from models.core.stats import lengthened

    base = dict(k=2, n=3, NC=3, S_pe=1.5, S_mm=S_mm, m=m, warmup=1000, batches=10, seed=4, cache=False)
    run = simulate(**base, cycles=3000, target_ci=0.003, max_cycles=400_000)
    windows = [2000]
    while windows[-1] < 399_000:
        windows.append(lengthened(windows[-1], 399_000))
    at = windows.index(run.cycles - 1000)
    assert 0 < at < len(windows) - 1  # lengthened, and stopped before the cap
    fresh = simulate(**base, cycles=run.cycles)
    for f in dataclasses.fields(ClosedSimResult):
        if f.name not in ("wall_time", "cycles_per_second", "params"):
            a, b = getattr(run, f.name), getattr(fresh, f.name)
            assert (np.array_equal(a, b, equal_nan=True) if isinstance(a, np.ndarray) else a == b), f.name
    assert run.R_ci <= 0.003 * run.R and run.X_ci <= 0.003 * run.X
    before = simulate(**base, cycles=1000 + windows[at - 1])
    assert not (before.R_ci <= 0.003 * before.R and before.X_ci <= 0.003 * before.X)


# --------------------------------------------------------------------------- the uniform destination draw


@pytest.mark.parametrize("k, n", [(2, 3), (2, 6), (4, 3)])
def test_the_uniform_draw_is_the_binary_search_bit_for_bit(k, n):
    """With a uniform reference matrix and ``N`` a power of two the kernel draws a destination as ``floor(u N)``
    instead of searching ``u`` in the cumulative row; the two must give the same run, every accumulator."""
    from models.networks.multistage import MultistageNetwork
    from models.networks.patterns import reference_matrix
    from models.sim._closed_min_kernel import run_kernel
    from models.sim.closed_min import _cumulative, _quantiles, _uniform, checkpoints

    net = MultistageNetwork("omega", k, n)
    fwd = np.ascontiguousarray(net.forward_route()[0], dtype=np.int64)
    ret = np.ascontiguousarray(net.return_route()[0], dtype=np.int64)
    cum = _cumulative(reference_matrix("uniform", net.N))
    assert _uniform(cum)
    edges, bounds = checkpoints(3600, 3600, 4)  # 4000 cycles, 400 of them the warm-up
    fast, search = (run_kernel(fwd, ret, cum, uniform, n, 4, 1.0 / 1.5, 2, 1, 400, edges, bounds, _quantiles(4), 0.0, 7)
                    for uniform in (True, False))
    for a, b in zip(fast, search):
        assert np.array_equal(a, b)


def test_only_a_uniform_matrix_of_a_power_of_two_takes_the_direct_draw():
    from models.networks.patterns import reference_matrix
    from models.sim.closed_min import _cumulative, _uniform

    assert _uniform(_cumulative(reference_matrix("uniform", 64)))
    assert not _uniform(_cumulative(reference_matrix("uniform", 9)))  # (j + 1) / 9 is rounded: keep the search
    assert not _uniform(_cumulative(reference_matrix("hot_spot", 64, h=0.1)))
