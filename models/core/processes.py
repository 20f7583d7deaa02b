"""Linux process controls shared by the pipeline's workers and the sweeps' pool workers.

:func:`prctl` calls ``prctl(2)`` through ctypes; :data:`PR_SET_PDEATHSIG`
makes a child receive a signal when its parent dies (a worker never outlives
the process that started it), :data:`PR_SET_CHILD_SUBREAPER` lets the
pipeline adopt its orphaned descendants, :data:`PR_SET_NAME` names a process
(its ``/proc/<pid>/comm``, what ``ps -o comm`` and ``top`` show, 15 bytes at
most: a forked kernel keeps its warm parent's command line).  Elsewhere than
Linux, or on failure, :func:`prctl` returns False and changes nothing.

A subreaper must also wait for the orphans it adopts, or they stay zombies
until it exits: :func:`children` lists them (by name, or all; those that
have exited, or all), and :func:`reap` waits for the ones named.
"""

from __future__ import annotations

import os
import sys
import time

__all__ = ["PR_SET_PDEATHSIG", "PR_SET_CHILD_SUBREAPER", "PR_SET_NAME", "children", "prctl", "reap"]

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


def children(names: set[str] | None = None, exited_only: bool = False) -> list[int]:
    """This process's children (``/proc``; none elsewhere than Linux): those named one of ``names`` (their
    ``/proc/<pid>/comm``) when given, and with ``exited_only`` only those that have exited and not been waited for
    (zombies)."""
    me, out = os.getpid(), []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                head, _, rest = f.read().rpartition(")")
        except OSError:
            continue
        fields = rest.split()
        comm = head.partition("(")[2]
        if (len(fields) > 1 and int(fields[1]) == me and (names is None or comm in names)
                and (not exited_only or fields[0] == "Z")):
            out.append(int(entry))
    return out


def reap(pids, wait: float = 0.0) -> dict[int, int]:
    """Wait for those of ``pids`` that are this process's children, up to ``wait`` seconds for the ones still
    running (0: only those that have exited); their exit codes (``-N``: killed by signal ``N``).  A pid that is not
    our child is left alone."""
    codes, pending = {}, set(pids)
    end = time.monotonic() + wait
    while pending:
        for pid in sorted(pending):
            try:
                got, status = os.waitpid(pid, os.WNOHANG)
            except OSError:  # ChildProcessError: not our child
                pending.discard(pid)
                continue
            if got == pid:
                codes[pid] = os.waitstatus_to_exitcode(status)
                pending.discard(pid)
        if not pending or time.monotonic() >= end:
            break
        time.sleep(0.02)
    return codes
