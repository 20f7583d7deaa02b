"""The sweep runner: caching, keys, resumption, atomic writes, executors."""

import concurrent.futures as cf
import multiprocessing
import os
import time

import pytest

from models.core import cores
from models.core.cache import CacheWarning, DiskCache
from models.sim import sweep
from models.sim.sweep import point_key, run_sweep
from models.sim.wormhole import Torus, simulate

CALLS = []


def fake_sim(*, a, b=2, seed=1):
    CALLS.append((a, b, seed))
    return {"a": a, "b": b, "seed": seed, "value": a * b + seed}


fake_sim.sim_version = "fake-1"
fake_sim.cache_name = "fake"


def test_sweep_caches_and_resumes(tmp_cache):
    CALLS.clear()
    pts = [dict(a=i) for i in range(5)]
    res = run_sweep(pts, simulate_fn=fake_sim, jobs=1, progress=False)
    assert [r["value"] for r in res] == [2 * i + 1 for i in range(5)]
    assert len(CALLS) == 5
    assert len(list((tmp_cache / "fake").glob("*.json"))) == 5
    # a finished point is never recomputed; new points are
    res2 = run_sweep(pts + [dict(a=9)], simulate_fn=fake_sim, jobs=1, progress=False)
    assert len(CALLS) == 6 and res2[:5] == res and res2[5]["value"] == 19


def test_keys_change_with_parameters_seed_and_version(monkeypatch):
    k = point_key(fake_sim, dict(a=1))
    assert k == point_key(fake_sim, dict(a=1, b=2))  # defaults filled in
    assert k != point_key(fake_sim, dict(a=1, b=3))
    assert k != point_key(fake_sim, dict(a=1, seed=2))
    monkeypatch.setattr(fake_sim, "sim_version", "fake-2")
    assert k != point_key(fake_sim, dict(a=1))


def test_wormhole_keys():
    base = dict(topology=Torus((4, 4)), routing="duato", vcs=3, message_length=8, rate=0.01)
    k = point_key(simulate, base)
    assert k == point_key(simulate, dict(base, buffer_depth=2, cache=True))
    for change in [dict(rate=0.02), dict(vcs=4), dict(seed=2), dict(buffer_depth=3),
                   dict(topology=Torus((4, 4), bidirectional=False)), dict(router_delay=2),
                   dict(messages=1000)]:
        assert point_key(simulate, dict(base, **change)) != k, change
    assert simulate.sim_version.startswith("wormhole-")
    assert sweep.function_version(simulate) == simulate.sim_version


def test_interrupted_write_leaves_no_entry(tmp_cache, monkeypatch):
    """A write that fails (here: the final rename) leaves no entry, no temp file and no lock; the point is
    returned all the same, with one warning (#26: a full cache degrades to "not cached")."""
    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.warns(CacheWarning, match="not cached"):
        res = run_sweep([dict(a=1), dict(a=2)], simulate_fn=fake_sim, jobs=1, progress=False)
    assert [r["value"] for r in res] == [3, 5]
    folder = tmp_cache / "fake"
    assert not list(folder.glob("*")) if folder.exists() else True


def test_any_executor_and_pairs(tmp_cache):
    CALLS.clear()
    with cf.ThreadPoolExecutor(2) as ex:
        res = run_sweep([dict(a=1), dict(a=2)], simulate_fn=fake_sim, executor=ex, progress=False)
    assert [r["value"] for r in res] == [3, 5]
    # (configuration, load) pairs mean rate=load
    base = dict(topology=Torus((4, 4)), routing="duato", vcs=3, message_length=8, messages=300,
                warmup_messages=30)
    res = run_sweep([(base, 0.002), (base, 0.004)], jobs=1, progress=False)
    assert [r.offered for r in res] == [0.002, 0.004]
    assert len(list((tmp_cache / "wormhole").glob("*.json"))) == 2
    # simulate(cache=True) shares the sweep's entries
    again = simulate(**dict(base, rate=0.004), cache=True)
    assert again.wall_time == res[1].wall_time


def test_process_pool(tmp_cache):
    base = dict(topology=Torus((4, 4)), routing="dor", vcs=2, message_length=8, messages=300,
                warmup_messages=30)
    res = run_sweep([dict(base, rate=r) for r in (0.001, 0.002, 0.003)], jobs=2, progress=False)
    assert all(not r.saturated for r in res)
    assert [r.offered for r in res] == [0.001, 0.002, 0.003]


def failing_sim(*, a):
    if a == 2:
        raise RuntimeError("boom")
    return a


def test_errors_returned_in_place_or_raised(tmp_cache):
    res = run_sweep([dict(a=1), dict(a=2), dict(a=3)], simulate_fn=failing_sim, jobs=1,
                    progress=False, errors="return", cache=False)
    assert res[0] == 1 and isinstance(res[1], RuntimeError) and res[2] == 3
    with pytest.raises(RuntimeError):
        run_sweep([dict(a=2)], simulate_fn=failing_sim, jobs=1, progress=False, cache=False)
    # a point that does not fit the function's signature is rejected before running
    from models.core.errors import ParameterError

    with pytest.raises(ParameterError):
        run_sweep([dict(a=1, c=3)], simulate_fn=fake_sim, jobs=1, progress=False)


def test_run_sweep_arguments_are_checked():
    """A10 (#26): ``errors`` and ``jobs`` are validated and named (``jobs=-1`` said ``max_workers`` before)."""
    import pytest as _pytest

    from models.sim.sweep import run_sweep

    with _pytest.raises(ValueError, match="`errors`"):
        run_sweep([], errors="bogus")
    for bad in (0, -1, 1.5):
        with _pytest.raises(ValueError, match="`jobs`"):
            run_sweep([], jobs=bad)


# --- a pipeline's cores (models/core/cores.py): a point runs only while its process holds a token
def timed_sim(*, a, log, seconds=0.3):
    """A stand-in point that writes ``pid start end`` (wall seconds) to ``log``."""
    start = time.time()
    time.sleep(seconds)
    with open(log, "a") as f:
        f.write(f"{os.getpid()} {start} {time.time()}\n")
    return a


def _intervals(log):
    return [(int(p), float(s), float(e)) for p, s, e in (line.split() for line in log.read_text().splitlines())]


def _most_at_once(intervals) -> int:
    """The most points running at once: at some point's start, the points running then (itself included)."""
    return max(sum(s <= t < e for _, s, e in intervals) for _, t, _ in intervals)


def _sweep_in_child(points, jobs, start):
    start.wait()
    run_sweep(points, simulate_fn=timed_sim, jobs=jobs, progress=False, cache=False)


@pytest.mark.parametrize("jobs", [None, "auto", 1])
def test_without_a_pipeline_jobs_means_what_it_meant(tmp_path, monkeypatch, jobs):
    monkeypatch.delenv(cores.TOKENS_ENV, raising=False)
    log = tmp_path / "log"
    pts = [dict(a=i, log=str(log), seconds=0.05) for i in range(3)]
    assert run_sweep(pts, simulate_fn=timed_sim, jobs=jobs, progress=False, cache=False) == [0, 1, 2]
    pids = {p for p, _, _ in _intervals(log)}
    assert (os.getpid() in pids) == (jobs != None or os.cpu_count() == 1)  # noqa: E711 - None: a pool


def test_two_sweeps_on_one_core_never_run_two_points_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv(cores.TOKENS_ENV, str(cores.make_tokens(tmp_path / "cores", 1)))
    log = tmp_path / "log"
    ctx = multiprocessing.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=_sweep_in_child, args=([dict(a=10 * n + i, log=str(log)) for i in range(3)], jobs, start))
             for n, jobs in enumerate((2, "auto"))]  # a pool of two, and a sweep in its own process
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    intervals = _intervals(log)
    assert len(intervals) == 6 and _most_at_once(intervals) == 1


def test_a_lone_sweep_uses_every_core_of_the_pipeline(tmp_path, monkeypatch):
    folder = cores.make_tokens(tmp_path / "cores", 2)
    monkeypatch.setenv(cores.TOKENS_ENV, str(folder))
    log = tmp_path / "log"
    res = run_sweep([dict(a=i, log=str(log)) for i in range(4)], simulate_fn=timed_sim, progress=False, cache=False)
    assert res == [0, 1, 2, 3]
    intervals = _intervals(log)
    assert _most_at_once(intervals) == 2 and len({p for p, _, _ in intervals} - {os.getpid()}) == 2
    assert cores.CoreTokens(folder).take() is not None  # every token given back


def test_results_do_not_depend_on_the_cores(tmp_path, tmp_cache, monkeypatch):
    """The seed is a keyword of the point: the same points on 1 core, on 2 and outside a pipeline agree."""
    base = dict(topology=Torus((4, 4)), routing="dor", vcs=2, message_length=4, messages=300, warmup_messages=30,
                seed=3)
    pts = [dict(base, rate=r) for r in (0.01, 0.02, 0.03)]
    monkeypatch.delenv(cores.TOKENS_ENV, raising=False)
    alone = run_sweep(pts, jobs=1, progress=False, cache=False)
    for n in (1, 2):
        monkeypatch.setenv(cores.TOKENS_ENV, str(cores.make_tokens(tmp_path / f"cores{n}", n)))
        shared = run_sweep(pts, jobs="auto", progress=False, cache=False)
        assert [s.latency for s in shared] == [s.latency for s in alone]


def test_a_stopped_pool_has_closed_its_wake_up_pipe_when_the_stop_returns():
    """``_stop_pool`` returns only after the executor's manager thread is done: the pool's wake-up pipe is closed,
    so the interpreter's exit (``_python_exit``, which writes to every pool's pipe without a lock) cannot race the
    thread that closes it (a traceback of ``OSError: [Errno 9] Bad file descriptor`` after a stopped command)."""
    pool = sweep._process_pool(2)
    futures = [pool.submit(time.sleep, 60) for _ in range(2)]
    deadline = time.monotonic() + 30
    while not all(f.running() for f in futures) and time.monotonic() < deadline:
        time.sleep(0.05)
    manager, wakeup = pool._executor_manager_thread, pool._executor_manager_thread_wakeup
    t0 = time.monotonic()
    sweep._stop_pool(pool)
    assert time.monotonic() - t0 < 5
    assert not manager.is_alive() and wakeup._closed
    assert all(f.done() for f in futures)


def test_a_pool_forks_from_a_process_that_has_loaded_the_kernel(tmp_path, monkeypatch):
    """Before it forks a pool, a sweep asks ``models.sim.warm.preload`` to load the kernel its first point runs, so
    that the workers inherit it (which functions run a kernel: ``tests/sim/test_warm.py``); a sweep run in its own
    process (one job) asks nothing."""
    from models.sim import warm

    asked = []
    monkeypatch.setattr(warm, "preload", lambda fn, kw: asked.append((fn, kw)) or False)
    monkeypatch.delenv(cores.TOKENS_ENV, raising=False)
    log = tmp_path / "log"
    pts = [dict(a=i, log=str(log), seconds=0.0) for i in range(3)]
    assert run_sweep(pts, simulate_fn=timed_sim, jobs=2, progress=False, cache=False) == [0, 1, 2]
    assert asked == [(timed_sim, pts[0])]
    asked.clear()
    assert run_sweep(pts, simulate_fn=timed_sim, jobs=1, progress=False, cache=False) == [0, 1, 2]
    assert asked == []
