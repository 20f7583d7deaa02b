"""The cores of one pipeline run, shared as tokens by every notebook's simulations.

``python -m models.pipeline --jobs N`` runs up to N notebooks at a time and
makes, in its temporary work folder, a folder of N *slot* files
(:func:`make_tokens`), which it names to every notebook's kernel in
``$MODELS_CORE_TOKENS`` (:data:`TOKENS_ENV`).  A process holds a token while
it holds an exclusive ``flock`` on one slot file.  The rule
(:func:`models.sim.sweep.run_sweep`): **a simulated point runs only while its
sweep's process holds a token**, one token per point, whether the point runs
in that process or in one of its pool's workers; the rest of a notebook
(models, plots, papermill) holds none.  So at most N points are simulated at
once, and a notebook left alone at the end of a build gets all N.

A token is taken without waiting (each slot tried in turn, again after
:data:`POLL` seconds), and given back (``LOCK_UN``, then the file closed) as
soon as its point ends, fails or is stopped; the kernel gives back every
token of a process that dies, ``kill -9`` included, so there is no count to
repair.  A process waiting for a token holds no other lock it could be
waiting for: a sweep takes a point's cache lock (``DiskCache.lock``) first and
its token second, and a token's holder waits for nothing, so no deadlock.

Fairness: a process that holds no token and wants one is *hungry* (a shared
``flock`` on the folder's ``hungry`` file); a process that already holds a
token, or gave its last one back less than :data:`GRACE` seconds ago, takes
another only when no other process is hungry.  Two sweeps then share the
cores instead of the first one keeping them all.

Without ``$MODELS_CORE_TOKENS`` (a reader's own ``run_sweep``, the tests,
the ``curve`` command outside a pipeline) nothing is shared and nothing
changes (:func:`from_env` returns None).
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from models.core.errors import ParameterError
from models.core.validate import require

__all__ = ["TOKENS_ENV", "AUTO", "POLL", "GRACE", "CoreTokens", "make_tokens", "from_env", "require_jobs",
           "sweep_workers"]

TOKENS_ENV = "MODELS_CORE_TOKENS"
"""Environment variable naming the pipeline's token folder (set by :func:`models.pipeline.worker_env`)."""

AUTO = "auto"
"""``jobs="auto"``, :class:`models.core.setups.SimSettings`' default: in a pipeline, as many worker processes as
the pipeline has cores (each point still waits for a token); outside one, 1 (the sweep runs in its own process)."""

POLL = 0.05
"""Seconds between two tries for a token."""

GRACE = 4 * POLL
"""Seconds after giving back its last token during which a process leaves a free token to a hungry one."""

SLOT_PREFIX = "slot-"
HUNGRY = "hungry"
_OPEN = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def make_tokens(folder: Path, n: int) -> Path:
    """Make ``folder`` (new, mode 0700) holding ``n`` slot files and the ``hungry`` file; return it.

    The pipeline makes it inside its own temporary folder, which it removes
    (with this one) when it ends.
    """
    n = require("jobs", n, 1, unit="cores shared by the pipeline's notebooks", integer=True)
    folder = Path(folder)
    folder.mkdir(mode=0o700)
    for name in [f"{SLOT_PREFIX}{i}" for i in range(n)] + [HUNGRY]:
        os.close(os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    return folder


def _unlock_close(fd: int) -> None:
    """Give back the lock of ``fd`` and close it.

    ``LOCK_UN`` first: a pool worker forked while this process held the lock
    shares its open file description, and closing ``fd`` alone would leave the
    lock held by that copy.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class CoreTokens:
    """This process's side of a token folder: the tokens it holds and whether it is hungry."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        try:
            names = os.listdir(self.folder)
        except OSError as e:
            raise ParameterError(f"${TOKENS_ENV} = {str(folder)!r} is not a readable folder ({e.strerror}): "
                                 f"it is set by python -m models.pipeline for its notebooks; unset it") from None
        self.slots = sorted((self.folder / n for n in names if n.startswith(SLOT_PREFIX)), key=lambda p: p.name)
        if not self.slots or HUNGRY not in names:
            raise ParameterError(f"${TOKENS_ENV} = {str(folder)!r} holds no token slots: it is set by python -m "
                                 f"models.pipeline for its notebooks; unset it")
        self.held: list[int] = []  # the file descriptors of the slots this process holds
        self._hungry_fd: int | None = None
        self._given_back = -float("inf")  # when this process gave back its last token (time.monotonic)

    @property
    def count(self) -> int:
        """The number of tokens: the cores of the pipeline."""
        return len(self.slots)

    def _others_hungry(self) -> bool:
        """Whether a process other than this one is hungry (holds a shared lock on ``hungry``)."""
        mine = self._hungry_fd
        if mine is not None:
            fcntl.flock(mine, fcntl.LOCK_UN)
        try:
            fd = os.open(self.folder / HUNGRY, _OPEN)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            else:
                fcntl.flock(fd, fcntl.LOCK_UN)
                return False
            finally:
                os.close(fd)
        finally:
            if mine is not None:
                fcntl.flock(mine, fcntl.LOCK_SH)

    def _hungry(self, on: bool) -> None:
        if on and self._hungry_fd is None:
            fd = os.open(self.folder / HUNGRY, _OPEN)
            fcntl.flock(fd, fcntl.LOCK_SH)
            self._hungry_fd = fd
        elif not on and self._hungry_fd is not None:
            fd, self._hungry_fd = self._hungry_fd, None
            _unlock_close(fd)

    def try_take(self) -> int | None:
        """Take a free token without waiting: its file descriptor (for :meth:`give_back`), or None.

        None also when this process holds a token (or has just given back its
        last one) and another process is hungry.  A process that gets none
        while holding none is marked hungry until it gets one.
        """
        polite = (self.held or time.monotonic() - self._given_back < GRACE) and self._others_hungry()
        for slot in () if polite else self.slots:
            fd = os.open(slot, _OPEN)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            except BaseException:
                os.close(fd)
                raise
            self.held.append(fd)
            self._hungry(False)
            return fd
        if not self.held:
            self._hungry(True)
        return None

    def take(self) -> int:
        """Wait for a token (trying every :data:`POLL` seconds; a signal's exception ends the wait); its descriptor."""
        while (fd := self.try_take()) is None:
            time.sleep(POLL)
        return fd

    def give_back(self, fd: int | None) -> None:
        """Give back the token ``fd`` (None: nothing)."""
        if fd is None or fd not in self.held:
            return
        self.held.remove(fd)
        _unlock_close(fd)
        if not self.held:
            self._given_back = time.monotonic()

    def close(self) -> None:
        """Give back every token this process holds and stop being hungry."""
        for fd in list(self.held):
            self.give_back(fd)
        self._hungry(False)


def from_env(environ=None) -> CoreTokens | None:
    """The tokens of ``$MODELS_CORE_TOKENS`` (None when unset or empty: nothing is shared)."""
    folder = (os.environ if environ is None else environ).get(TOKENS_ENV, "").strip()
    return CoreTokens(Path(folder)) if folder else None


def require_jobs(value, *, none: bool = False):
    """Check a sweep's ``jobs``: an integer >= 1, :data:`AUTO`, or (``none=True``) None; return it."""
    if (isinstance(value, str) and value == AUTO) or (none and value is None):
        return value
    if not isinstance(value, str):
        try:
            return require("jobs", value, 1, integer=True)
        except ParameterError:
            pass
    raise ParameterError(f"`jobs` must be an integer >= 1{', None' if none else ''} or {AUTO!r} (worker processes); "
                         f"got {value!r}")


def sweep_workers(jobs, tokens: CoreTokens | None) -> int:
    """How many points a sweep runs at once: ``jobs`` when a number; in a pipeline (``tokens``) otherwise its
    cores; outside one, all this machine's cores for None and 1 for :data:`AUTO`."""
    if isinstance(jobs, int):
        return jobs
    if tokens is not None:
        return tokens.count
    return 1 if jobs == AUTO else (os.cpu_count() or 1)
