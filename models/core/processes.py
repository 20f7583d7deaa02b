"""Linux process controls shared by the pipeline's workers and the sweeps' pool workers.

:func:`prctl` calls ``prctl(2)`` through ctypes; :data:`PR_SET_PDEATHSIG`
makes a child receive a signal when its parent dies (a worker never outlives
the process that started it), :data:`PR_SET_CHILD_SUBREAPER` lets the
pipeline adopt its orphaned descendants, :data:`PR_SET_NAME` names a process
(its ``/proc/<pid>/comm``, what ``ps -o comm`` and ``top`` show, 15 bytes at
most: a forked kernel keeps its warm parent's command line).  Elsewhere than
Linux, or on failure, :func:`prctl` returns False and changes nothing.
"""

from __future__ import annotations

import sys

__all__ = ["PR_SET_PDEATHSIG", "PR_SET_CHILD_SUBREAPER", "PR_SET_NAME", "prctl"]

PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36


def prctl(option: int, arg: int | bytes) -> bool:
    """``prctl(option, arg)`` on Linux (``arg`` bytes: passed as a C string, as :data:`PR_SET_NAME` takes it); False
    elsewhere or on failure."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # only on Linux, only when a worker starts

        value = ctypes.c_char_p(arg) if isinstance(arg, bytes) else arg
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
