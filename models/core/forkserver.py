"""A warm process that forks the pipeline's workers: ``python -m models.core.forkserver [--preload NAME ...]``.

Each notebook the pipeline (:mod:`models.pipeline`) runs has a worker process and a kernel of its own.  Started as
new interpreters, the two imported papermill, matplotlib, pandas, SymPy, numba and IPython and loaded a simulator
kernel from numba's cache before the notebook's first cell: about 3 CPU-seconds a notebook (measured on the
project's 2-core machine), a third of what the quick profile's short notebooks cost.  The pipeline starts this
process once (:class:`ForkServer`); it imports what ``--preload`` names, then forks one worker per request, which
runs ``module:function(*args)`` in a session of its own, with the request's environment, folder and log, and exits
with its return value.  The worker forks its notebook's kernel from itself (:mod:`.forked_kernel`).

``--preload NAME`` imports the module ``NAME``; ``NAME:FUNCTION`` also calls ``FUNCTION()`` (a failure is printed
and skipped: the worker imports what it needs itself).  What the pipeline preloads is its list of names, data
rather than an import (:data:`models.pipeline.PRELOAD`).

The server is single-threaded and holds no event loop, so a fork copies it whole.  A worker is what
``subprocess.Popen(..., start_new_session=True)`` would have started, in what matters: a session of its own,
standard input from ``/dev/null``, standard output and error into its log, the request's environment (``os.environ``
and ``TMPDIR``), folder and ``sys.argv``, the default handlers of SIGINT, SIGTERM, SIGHUP and SIGCHLD, fresh seeds
for ``random`` and NumPy's global generator, and none of the server's exit handlers.  It gets SIGTERM when the
server dies (``PR_SET_PDEATHSIG``), and the server exits when the pipeline closes its end of the request pipe or
dies: a worker never outlives the pipeline.

Protocol (the server's standard input and a copy of its standard output; its own output goes to its standard
error): one JSON request a line, ``{"target", "args", "env", "cwd", "log", "argv"}``; the server answers
``F <pid>`` for each, in order, and ``X <pid> <status>`` when a worker exits (its exit code, or minus the signal
that killed it, as :attr:`subprocess.Popen.returncode`).  Only the pipeline that started the server writes to it.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback

from .processes import PR_SET_PDEATHSIG, prctl, reap

__all__ = ["ForkServer", "ForkServerError", "Forked", "enabled", "exit_status", "fork", "main", "reset_process"]

#: The environment variable that turns the fork server off (``0``): the pipeline then starts each worker and
#: kernel as a new interpreter, as it did before.
ENV = "MODELS_FORKSERVER"


def enabled() -> bool:
    """Whether the pipeline forks its workers and kernels (Linux, unless ``MODELS_FORKSERVER=0``)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and os.environ.get(ENV, "1") != "0"


class ForkServerError(RuntimeError):
    """The fork server died or did not answer (its log says why)."""


class Forked:
    """A worker the fork server forked: the part of :class:`subprocess.Popen` the pipeline uses (``pid``,
    ``poll``, ``wait``, ``returncode``).  It is the server's child, so its exit status comes from the server."""

    def __init__(self, server: "ForkServer", pid: int):
        self.server = server
        self.pid = pid
        self.returncode: int | None = None
        #: True when the server died before the worker's exit: the worker's status is then its own, read by
        #: waiting for it (an orphan of a subreaper, as the pipeline is), or -SIGKILL when it was not ours to wait for
        self.orphaned = False

    def poll(self) -> int | None:
        if self.returncode is None:
            self.server._pump(0.0)
            self.returncode = self.server._exits.pop(self.pid, None)
            if self.returncode is None and not self.server.alive():  # the server died before it could say
                self.returncode = reap([self.pid]).get(self.pid)
                if self.returncode is None and not _alive(self.pid):
                    # it exited after the first look (ours to wait for now), or is gone and was not ours
                    self.returncode = reap([self.pid]).get(self.pid, -signal.SIGKILL)
                self.orphaned = self.returncode is not None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() >= end:
                raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
            self.server._pump(0.05)
        return self.returncode


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


class ForkServer:
    """The pipeline's end of a fork server: :meth:`spawn` a worker, :meth:`stop` the server.

    ``env`` is the server's environment (what it imports with); ``log`` the file its own output goes to;
    ``preload`` the ``--preload`` names.  The server imports them while the pipeline goes on; the first
    :meth:`spawn` waits for it (up to ``timeout`` seconds)."""

    def __init__(self, env: dict[str, str], log, preload: tuple[str, ...] = (), timeout: float = 300.0):
        self.timeout = timeout
        self.log = log
        cmd = [sys.executable, "-m", "models.core.forkserver"]
        for name in preload:
            cmd += ["--preload", name]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=out, env=env)
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._buf = b""
        self._forks: collections.deque[int] = collections.deque()
        self._exits: dict[int, int] = {}
        #: set when :meth:`spawn` failed: the pipeline then starts its workers as new interpreters
        self.failed = False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def spawn(self, target: str, args: list, env: dict[str, str], cwd: str, log: str, argv: list[str]) -> Forked:
        """Fork a worker that runs ``target`` (``"module:function"``) with ``args`` (JSON values) and exits with
        its return value; :class:`ForkServerError` when the server cannot."""
        try:
            return self._spawn(target, args, env, cwd, log, argv)
        except ForkServerError:
            self.failed = True
            raise

    def _spawn(self, target, args, env, cwd, log, argv) -> Forked:
        line = json.dumps({"target": target, "args": args, "env": env, "cwd": cwd, "log": log, "argv": argv})
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as exc:
            raise ForkServerError(f"the fork server (pid {self.proc.pid}) is gone{self.last_words()}") from exc
        end = time.monotonic() + self.timeout
        while not self._forks:
            if not self.alive() and not self._pump(0.0):
                raise ForkServerError(f"the fork server (pid {self.proc.pid}) exited with status "
                                      f"{self.proc.returncode}{self.last_words()}")
            if time.monotonic() >= end:
                raise ForkServerError(f"the fork server (pid {self.proc.pid}) did not answer in {self.timeout:.0f} s"
                                      f"{self.last_words()}")
            self._pump(0.1)
        return Forked(self, self._forks.popleft())

    def _pump(self, wait: float) -> bool:
        """Read what the server said (waiting up to ``wait`` seconds for it); whether anything came."""
        if wait > 0:
            select.select([self._out], [], [], wait)
        got = False
        while True:
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                break
            got = True
            self._buf += chunk
        *lines, self._buf = self._buf.split(b"\n")
        for raw in lines:
            word = raw.split()
            if word[:1] == [b"F"]:
                self._forks.append(int(word[1]))
            elif word[:1] == [b"X"]:
                self._exits[int(word[1])] = int(word[2])
        return got

    def last_words(self, lines: int = 10) -> str:
        """The end of the server's log, for a message (``": ..."``; empty when it wrote nothing): the log is in the
        pipeline's temp folder, which is gone when the message is read."""
        try:
            with open(self.log, "rb") as f:
                tail = f.read().decode(errors="replace").strip().splitlines()[-lines:]
        except OSError:
            return ""
        return (": it wrote\n" + "\n".join("  " + line for line in tail)) if tail else ""

    def cpu_seconds(self) -> float | None:
        """The server's own processor time so far (user + system seconds: its imports, not its workers'); None
        when ``/proc`` cannot say."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def stop(self, timeout: float = 5.0) -> None:
        """Close the request pipe (the server exits) and wait for it; kill it after ``timeout`` seconds."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


# --------------------------------------------------------------------------- the server
def _preload(names: list[str]) -> None:
    for name in names:
        module, _, function = name.partition(":")
        try:
            mod = importlib.import_module(module)
            if function:
                getattr(mod, function)()
        except Exception:  # noqa: BLE001 - a worker imports what it needs itself
            print(f"fork server: --preload {name} failed (skipped):", file=sys.stderr)
            traceback.print_exc()


def _say(fd: int, text: str) -> None:
    data = text.encode()
    while data:
        data = data[os.write(fd, data):]


def _reap(out: int) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _say(out, f"X {pid} {os.waitstatus_to_exitcode(status)}\n")


#: The interpreter's own ``sys.path``: this server's without its first entry (its folder) and PYTHONPATH's folders
#: (set when the server starts; None elsewhere).  A kernel forked from a worker starts from it, as
#: ``python -m ipykernel_launcher`` does once the launcher removed its folder (:mod:`.forked_kernel`).
BASE_PATH: list[str] | None = None


def reset_process(env: dict[str, str], cwd: str, argv: list[str]) -> None:
    """In a process forked from a warm one: what a new interpreter would have (the environment ``env``, folder
    ``cwd``, ``sys.argv``, default signal handlers, fresh seeds, no exit handlers of the parent)."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = None
    sys.argv = list(argv)
    import random

    random.seed()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()
    atexit._clear()


def _worker(order: dict, out: int, server: int) -> int:
    os.close(out)
    os.setsid()
    fd = os.open(order["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the server's death (so the pipeline's) is our SIGTERM
    if os.getppid() != server:  # it died before that took effect
        return 128 + signal.SIGTERM
    reset_process(order["env"], order["cwd"], order["argv"])
    module, _, function = order["target"].partition(":")
    code = getattr(importlib.import_module(module), function)(*order["args"])
    atexit._run_exitfuncs()
    return code


def exit_status(exc: SystemExit) -> int:
    """The exit status ``sys.exit(code)`` gives an interpreter."""
    return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)


def fork(child, *args) -> int:
    """Fork; in the child run ``child(*args)`` and exit with what it returns (an interpreter's status for a
    ``SystemExit``, 1 with the traceback printed for any other exception), never returning.  The parent gets the
    child's pid.  Buffered output is flushed first, so that the child does not write it again."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        code = child(*args)
    except SystemExit as exc:
        code = exit_status(exc)
    except BaseException:  # noqa: BLE001 - say why, then exit
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed stream: nothing to flush
                pass
        os._exit(code if isinstance(code, int) else 0)


def serve(preload: list[str]) -> int:
    """The server's loop (module docstring); returns when the pipeline closes the request pipe."""
    out = os.dup(1)
    os.dup2(2, 1)  # what the preloaded modules print goes to the log, not into the answers
    server = os.getpid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the pipeline's to handle
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # as ipykernel sets it
    global BASE_PATH
    extra = {os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    BASE_PATH = [p for p in sys.path[1:] if os.path.abspath(p) not in extra]
    _preload(preload)
    buf = b""
    while True:
        ready, _, _ = select.select([0], [], [], 0.1)
        if ready:
            chunk = os.read(0, 65536)
            if not chunk:
                break
            *lines, buf = (buf + chunk).split(b"\n")
            for raw in lines:
                if raw.strip():
                    _say(out, f"F {fork(_worker, json.loads(raw), out, server)}\n")
        _reap(out)
    _reap(out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.core.forkserver", description=__doc__.split("\n")[0])
    parser.add_argument("--preload", action="append", default=[], metavar="NAME",
                        help="a module to import (MODULE, or MODULE:FUNCTION to call FUNCTION() too)")
    args = parser.parse_args(argv)
    return serve(args.preload)


if __name__ == "__main__":
    sys.exit(main())
