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
