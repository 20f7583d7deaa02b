"""Computed once: the cache's computing lock, across processes and within one sweep (#15).

Two notebooks of a chapter often ask for the same simulation points at the
same time (03-comparison re-reads 02-latency's Fig. 1 runs); the second must
wait for the first and read its result, never simulate the point again.
"""

import multiprocessing as mp
import os
import time
from pathlib import Path

import pytest

from models.core.cache import DiskCache
from models.sim.sweep import run_sweep

CTX = mp.get_context("fork")


def _hold(folder, key, ready, release):
    with DiskCache(folder).lock(key):
        ready.set()
        release.wait(10)


def _slow_compute(folder, key, log, start):
    start.wait(10)

    def compute():
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        time.sleep(0.5)
        return {"value": 42}

    DiskCache(folder).fetch_or_compute(key, compute)


def test_lock_excludes_another_process_and_is_released(tmp_path):
    dc = DiskCache(tmp_path / "c")
    ready, release = CTX.Event(), CTX.Event()
    p = CTX.Process(target=_hold, args=(dc.folder, "k", ready, release))
    p.start()
    try:
        assert ready.wait(10)
        with dc.lock("k", blocking=False) as got:
            assert got is False, "a second process took a lock that was held"
        with dc.lock("other", blocking=False) as got:
            assert got is True, "a lock on another key was refused"
    finally:
        release.set()
        p.join(10)
    with dc.lock("k", blocking=False) as got:
        assert got is True, "the lock was not released when its holder finished"
    assert not dc.lock_path("k").exists(), "the lock file was left behind"


def test_lock_of_a_killed_process_is_released(tmp_path):
    dc = DiskCache(tmp_path / "c")
    ready, release = CTX.Event(), CTX.Event()
    p = CTX.Process(target=_hold, args=(dc.folder, "k", ready, release))
    p.start()
    assert ready.wait(10)
    p.kill()
    p.join(10)
    assert dc.lock_path("k").exists()  # the stale lock file is there, but nobody holds it
    with dc.lock("other", blocking=False) as got:  # the first lock in a folder removes its stale lock files (#26)
        assert got is True
    assert not dc.lock_path("k").exists(), "a killed process's lock file was left behind"
    with dc.lock("k", blocking=False) as got:
        assert got is True


def test_two_processes_compute_a_key_once(tmp_path):
    folder, log = tmp_path / "c", tmp_path / "log"
    start = CTX.Event()
    procs = [CTX.Process(target=_slow_compute, args=(folder, "k", log, start)) for _ in range(3)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(20)
        assert p.exitcode == 0
    assert len(log.read_text().split()) == 1, "the same key was computed by more than one process"
    assert DiskCache(folder).get("k") == {"value": 42}


# ----------------------------------------------------------------------------- sweeps
def counted_sim(*, a, log, seed=1):
    with open(log, "a") as fh:
        fh.write(f"{a}\n")
    time.sleep(0.3)
    return {"a": a, "value": 10 * a + seed}


counted_sim.sim_version = "counted-1"
counted_sim.cache_name = "counted"


def _sweep(points, jobs, start, out):
    start.wait(10)
    res = run_sweep(points, simulate_fn=counted_sim, jobs=jobs, progress=False)
    Path(out).write_text(",".join(str(r["value"]) for r in res))


def test_a_point_listed_twice_is_simulated_once(tmp_cache, tmp_path):
    log = str(tmp_path / "log")
    pts = [dict(a=1, log=log), dict(a=2, log=log), dict(a=1, log=log)]
    res = run_sweep(pts, simulate_fn=counted_sim, jobs=1, progress=False)
    assert [r["value"] for r in res] == [11, 21, 11]
    assert sorted(Path(log).read_text().split()) == ["1", "2"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_overlapping_sweeps_in_two_processes_simulate_each_point_once(tmp_cache, tmp_path, jobs):
    log = str(tmp_path / "log")
    first = [dict(a=a, log=log) for a in (1, 2, 3, 4)]
    second = [dict(a=a, log=log) for a in (3, 4, 5, 1)]
    start = CTX.Event()
    procs = [CTX.Process(target=_sweep, args=(pts, jobs, start, tmp_path / f"out{n}"))
             for n, pts in enumerate((first, second))]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    computed = Path(log).read_text().split()
    assert sorted(computed) == ["1", "2", "3", "4", "5"], f"points simulated more than once: {computed}"
    assert (tmp_path / "out0").read_text() == "11,21,31,41"
    assert (tmp_path / "out1").read_text() == "31,41,51,11"
    assert not list((tmp_cache / "counted").glob(".*.lock")), "lock files were left behind"
