"""A notebook's kernel forked from its worker instead of started as a new interpreter (Linux).

A worker of the pipeline (:mod:`models.pipeline`) that was itself forked from a warm process
(:mod:`models.core.forkserver`) has matplotlib, pandas, SymPy, numba, IPython and the simulators' kernels loaded.  A
kernel started by jupyter_client as a new interpreter (``python -m ipykernel_launcher -f CONNECTION``) loads all of
that again: about 2.5 CPU-seconds before its first cell, measured on the project's 2-core machine.  So the worker
forks, before it starts papermill, the process its kernel will run in (:func:`prefork`), and papermill's kernel
manager (:class:`ForkKernelManager`, through nbclient's ``kernel_manager_class``) hands that process the kernel's
command line, environment and folder instead of starting an interpreter (:class:`ForkProvisioner`).

The forked kernel is what jupyter_client would have started, in what matters: a child of the worker, in a session
(and process group) of its own, with the command's environment and folder, standard input from ``/dev/null``, its
output into the worker's log, ``sys.argv`` and ``sys.path`` as ``python -m ipykernel_launcher`` sets them, the
default signal handlers, fresh seeds for ``random`` and NumPy's global generator, and no exit handler of the worker
(it runs its own when it ends).  It is forked before papermill starts, so it holds no event loop, ZeroMQ context
or thread of the worker (there is none then).  Its ``/proc/<pid>/comm`` is ``ipykernel`` (its command line stays
the warm process's).

Anything else falls back to jupyter_client's own start: a kernel command that is not this interpreter's
``-m ipykernel_launcher``, a restart, a worker with no forked process.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from typing import Any

from . import forkserver
from .processes import PR_SET_NAME, prctl

__all__ = ["ForkedKernel", "ForkKernelManager", "ForkProvisioner", "prefork", "take"]

#: A forked kernel's name (its ``/proc/<pid>/comm``; its command line is the warm process's), by which the pipeline
#: finds one orphaned by its worker's death
NAME = "ipykernel"

#: The process :func:`prefork` made for this worker's kernel, until :func:`take` hands it out.
_WAITING: "ForkedKernel | None" = None


class ForkedKernel:
    """A forked child waiting for its kernel's command (:meth:`launch`), then running it: the part of
    :class:`subprocess.Popen` jupyter_client's provisioner uses (``pid``, ``poll``, ``wait``, ``send_signal``,
    ``kill``, ``terminate``, ``returncode``, and no pipes)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, launch_fd: int):
        self.pid = pid
        self.returncode: int | None = None
        self._fd: int | None = launch_fd

    def launch(self, cmd: list[str], env: dict[str, str], cwd: str) -> None:
        """Send the child its kernel: ``cmd`` (``[sys.executable, "-m", "ipykernel_launcher", ...]``), ``env``,
        ``cwd``."""
        if self._fd is None:
            raise RuntimeError(f"kernel process {self.pid} was already launched or cancelled")
        data = json.dumps({"cmd": list(cmd), "env": dict(env), "cwd": str(cwd)}).encode()
        fd, self._fd = self._fd, None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)

    def cancel(self) -> None:
        """Let the child go without a kernel (it exits) and reap it."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.wait()

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: its status is lost
                self.returncode = 255
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and timeout is None:
            try:
                self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            except ChildProcessError:
                self.returncode = 255
        end = time.monotonic() + (timeout or 0.0)
        while self.poll() is None:
            if time.monotonic() >= end:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


def prefork() -> ForkedKernel | None:
    """Fork the process this worker's kernel will run in (it waits for :meth:`ForkedKernel.launch`); None where
    there is no ``fork``.  Call it before anything starts a thread or an event loop."""
    global _WAITING
    if not hasattr(os, "fork"):
        return None
    if _WAITING is not None:
        _WAITING.cancel()
    r, w = os.pipe()
    pid = forkserver.fork(_serve, r, w)
    os.close(r)
    _WAITING = ForkedKernel(pid, w)
    return _WAITING


def take() -> ForkedKernel | None:
    """The forked process :func:`prefork` made, once (None after, or without one)."""
    global _WAITING
    child, _WAITING = _WAITING, None
    return child


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _serve(fd: int, other: int) -> int:
    """In the forked process: wait for the kernel's command (on ``fd``; ``other`` is the worker's end), become the
    kernel, return its exit status (0 when the worker let it go without one)."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):  # the worker's handlers are not ours
        signal.signal(sig, signal.SIG_DFL)
    os.close(other)
    os.setsid()  # its own session and process group from the start: a signal to its group reaches it only
    data = _read_all(fd)
    if not data:
        return 0
    order = json.loads(data)
    cmd, env = order["cmd"], order["env"]
    # what `python -m ipykernel_launcher ARGS` sets: argv, and sys.path led by the folder, which the launcher
    # removes again (sys.path is then the interpreter's, PYTHONPATH first)
    launcher = importlib.util.find_spec(cmd[2])
    forkserver.reset_process(env, order["cwd"], [launcher.origin if launcher else cmd[2], *cmd[3:]])
    sys.path[:] = _interpreter_path(env)
    prctl(PR_SET_NAME, NAME.encode())
    from ipykernel import kernelapp

    try:
        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as exc:
        code = forkserver.exit_status(exc)
    atexit._run_exitfuncs()
    return code


def _interpreter_path(env: dict[str, str]) -> list[str]:
    """``sys.path`` of ``python -m ipykernel_launcher`` once the launcher removed its folder: ``env``'s PYTHONPATH,
    then the interpreter's own entries."""
    base = forkserver.BASE_PATH if forkserver.BASE_PATH is not None else sys.path[1:]
    extra = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return extra + [p for p in base if p not in extra]


def _forkable(cmd: list[str]) -> bool:
    """Whether ``cmd`` is this interpreter's ``-m ipykernel_launcher``, the kernel a forked process can become."""
    return len(cmd) >= 3 and cmd[0] == sys.executable and cmd[1:3] == ["-m", "ipykernel_launcher"]


def _classes():
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_client.provisioning import LocalProvisioner

    class ForkProvisioner(LocalProvisioner):
        """jupyter_client's local provisioner, but the kernel runs in the process :func:`prefork` made."""

        async def launch_kernel(self, cmd: list[str], **kwargs: Any):
            child = take()
            if child is None or not _forkable(cmd):
                if child is not None:
                    child.cancel()
                return await super().launch_kernel(cmd, **kwargs)
            cwd = kwargs.get("cwd") or os.getcwd()
            env = dict(kwargs.get("env") or os.environ)
            if not kwargs.get("independent"):  # as jupyter_client's launch_kernel: the kernel exits when we do
                env["JPY_PARENT_PID"] = str(os.getpid())
            child.launch(cmd, env, cwd)
            self.process = child
            self.pid = self.pgid = child.pid  # the child started its own session
            self.cwd = cwd
            return self.connection_info

    class ForkKernelManager(AsyncKernelManager):
        """nbclient's kernel manager with :class:`ForkProvisioner` as its provisioner (nbclient's
        ``kernel_manager_class``)."""

        async def _async_pre_start_kernel(self, **kw: Any):
            if self.provisioner is None:
                self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or str(uuid.uuid4())
                self.provisioner = ForkProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec,
                                                   parent=self)
            return await super()._async_pre_start_kernel(**kw)

    return ForkProvisioner, ForkKernelManager


def __getattr__(name: str):
    if name in ("ForkProvisioner", "ForkKernelManager"):  # jupyter_client is imported when they are first asked for
        provisioner, manager = _classes()
        globals().update(ForkProvisioner=provisioner, ForkKernelManager=manager)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
