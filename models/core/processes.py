"""Linux process controls shared by the pipeline's workers and the sweeps' pool workers.

:func:`prctl` calls ``prctl(2)`` through ctypes; :data:`PR_SET_PDEATHSIG`
makes a child receive a signal when its parent dies (a worker never outlives
the process that started it), :data:`PR_SET_CHILD_SUBREAPER` lets the
pipeline adopt its orphaned descendants.  Elsewhere than Linux, or on
failure, :func:`prctl` returns False and changes nothing.
"""

from __future__ import annotations

import sys

__all__ = ["PR_SET_PDEATHSIG", "PR_SET_CHILD_SUBREAPER", "PR_SET_NAME", "prctl", "prctl_name"]

PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36


def prctl(option: int, arg: int) -> bool:
    """``prctl(option, arg)`` on Linux; False elsewhere or on failure."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # only on Linux, only when a worker starts

        return ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def prctl_name(name: bytes) -> bool:
    """Name this process ``name`` (its ``/proc/<pid>/comm``, what ``ps -o comm`` and ``top`` show; 15 bytes at
    most) on Linux, where a process forked from another keeps the other's command line; False elsewhere or on
    failure."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(name[:15]), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
