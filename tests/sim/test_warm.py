"""``python -m models.sim.warm``: every kernel compiles (or loads) in a process of its own; errors are clear."""

import subprocess
import sys

import pytest

from models.sim import warm


def test_every_kernel_compiles_or_loads_in_its_own_process():
    done = warm.warm(jobs=2)
    assert set(done) == set(warm.KERNELS)
    assert all(status == 0 for status, _ in done.values()), done


def test_an_unknown_kernel_or_no_jobs_is_a_clear_error():
    with pytest.raises(ValueError, match="`name` must be one of booksim, ideal, closed_min"):
        warm.compile_kernel("bogus")
    with pytest.raises(ValueError, match="`jobs` must be at least 1"):
        warm.warm(jobs=0)
    proc = subprocess.run([sys.executable, "-m", "models.sim.warm", "bogus"], capture_output=True, text=True)
    assert proc.returncode == 2 and "unknown kernel 'bogus'" in proc.stderr


def test_a_kernel_that_fails_is_reported_not_raised():
    """The warm-up never stops a test run: a kernel whose process fails is reported with its exit status."""
    done = warm.warm(jobs=1, kernels=("nonexistent",))
    assert done["nonexistent"][0] != 0


def test_the_kernel_a_call_runs():
    from models.sim import closed_min, wormhole
    from models.sim.wormhole.throughput import saturation_throughput

    assert warm.kernel_of(wormhole.simulate, {"routing": "dor"}) == "ideal"
    assert warm.kernel_of(saturation_throughput, {"router": "booksim"}) == "booksim"
    assert warm.kernel_of(wormhole.simulate, {"router": "booksim"}) == "booksim"
    assert warm.kernel_of(closed_min.simulate, {"NC": 4}) == "closed_min"
    assert warm.kernel_of(print, {}) is None and warm.preload(print, {}) is False


@pytest.mark.parametrize("kernel", warm.KERNELS)
def test_a_process_forked_after_a_preload_runs_the_kernel_without_loading_it(kernel):
    """In a fresh process, ``preload`` loads the kernel (from numba's cache) once; a process forked after it runs a
    simulation with no load of its own (numba's counts of cache hits and misses do not move), where one forked
    before it loads the kernel itself."""
    call = {"ideal": "wormhole.simulate, {}", "booksim": "wormhole.simulate, {'router': 'booksim'}",
            "closed_min": "closed_min.simulate, {}"}[kernel]
    run = {"ideal": ("wormhole.kernel", "run"), "booksim": ("wormhole.booksim_kernel", "run"),
           "closed_min": ("_closed_min_kernel", "run_kernel")}[kernel]
    code = f"""
import os, sys
from models.sim import closed_min, warm, wormhole
from models.sim.{run[0]} import {run[1]} as disp

def hits():  # the kernel loaded from numba's cache, or compiled where the cache did not hold it
    return sum(disp.stats.cache_hits.values()) + sum(disp.stats.cache_misses.values())

def forked():
    r, w = os.pipe()
    if os.fork() == 0:
        before = hits()
        warm.compile_kernel({kernel!r})
        os.write(w, str(hits() - before).encode())
        os._exit(0)
    os.wait()
    return int(os.read(r, 16))

assert forked() == 1  # nothing loaded yet: the child loads the kernel itself
assert warm.preload({call}) and hits() == 1
assert warm.preload({call}) and hits() == 1  # once per process
assert forked() == 0
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
