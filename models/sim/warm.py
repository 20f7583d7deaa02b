"""Compile every simulator kernel once, before many processes need them: ``python -m models.sim.warm``.

numba compiles a kernel on its first call and keeps the machine code in its
cache (``__pycache__`` beside the source, ``cache=True``); a process that
finds it there loads it in about a second instead of compiling (seconds of
CPU time).  Processes that start together on a fresh checkout each compile
the same kernel, since none has written it yet: the test run's two pytest
workers did so with both wormhole routers (the ideal router 13 CPU-seconds,
the BookSim preset 19, measured on the project's 2-core machine).  This
module runs one tiny case per kernel, each in a process of its own, as many
at a time as ``--jobs`` (the kernels compile in parallel, each once), so
that everything started after it loads them.  ``tests/conftest.py`` calls
:func:`warm` before pytest-xdist starts its workers, and ``make run`` (so
``make book``) before the pipeline starts the notebooks: the paper-scale
book's first two notebooks compiled the ideal router twice (18 CPU-seconds
each) before.

The tiny cases are not cached as results (``cache=False``) and run with the
kernels' checks and profile off (the environment's ``MODELS_SIM_CHECKS`` and
``MODELS_SIM_PROFILE`` are removed for them), the build every simulation
uses by default.

:func:`preload` runs a kernel's tiny case in the calling process instead,
once per process: a sweep does so before it forks its pool, whose workers
then inherit the loaded kernel (each loaded it from numba's cache before,
about a second of processor time a worker and a sweep).
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time

__all__ = ["KERNELS", "SIMULATORS", "cached", "compile_kernel", "kernel_of", "preload", "preload_cached", "warm"]

#: The kernels, by name, longest compile first (the order in which :func:`warm` starts them).
KERNELS = ("booksim", "ideal", "closed_min")


def compile_kernel(name: str) -> None:
    """Compile (or load from numba's cache) the kernel ``name`` (one of :data:`KERNELS`) on a tiny case."""
    if name not in KERNELS:
        raise ValueError(f"`name` must be one of {', '.join(KERNELS)}; got {name!r}")
    from . import closed_min, wormhole  # numba, in the process that compiles only (not in the caller of warm)

    if name in ("ideal", "booksim"):
        kw = dict(router="booksim", injection_vcs=1, buffer_depth=8) if name == "booksim" else {}
        wormhole.simulate(wormhole.Torus((4, 4)), routing="dor", vcs=2, message_length=4, rate=0.01,
                          messages=100, warmup_messages=10, batches=5, cache=False, **kw)
    else:
        closed_min.simulate(k=2, n=2, cycles=1000, warmup=100, batches=5, cache=False)


#: The kernels this process has loaded through :func:`preload`.
_LOADED: set = set()


#: The simulators' entry points, by module and name (known without importing them, which imports numba).
SIMULATORS = {("models.sim.wormhole.simulate", "simulate"): "wormhole",
              ("models.sim.wormhole.throughput", "saturation_throughput"): "wormhole",
              ("models.sim.closed_min", "simulate"): "closed_min"}


#: Each kernel's cycle loop, by module and name: the numba function whose cache entry holds the kernel.
LOOPS = {"booksim": ("models.sim.wormhole.booksim_kernel", "run"), "ideal": ("models.sim.wormhole.kernel", "run"),
         "closed_min": ("models.sim._closed_min_kernel", "run_kernel")}


def kernel_of(fn, kw: dict) -> str | None:
    """The kernel (one of :data:`KERNELS`) a call ``fn(**kw)`` runs, when ``fn`` is one of :data:`SIMULATORS`
    (the wormhole simulator's told by ``kw["router"]``), else None."""
    name = SIMULATORS.get((getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)))
    if name == "wormhole":
        return "booksim" if kw.get("router") == "booksim" else "ideal"
    return name


def preload(fn, kw: dict) -> bool:
    """Load into this process the kernel that ``fn(**kw)`` runs (:func:`kernel_of`), by its tiny case
    (:func:`compile_kernel`), once per process and kernel; whether ``fn`` runs one of :data:`KERNELS`.

    What a process loads, the processes it then forks inherit: :func:`models.sim.sweep.run_sweep` calls this
    before it forks a pool, so that its workers do not each load numba and the kernel from numba's cache (or
    compile it, on a fresh checkout).  The tiny case runs this process's build (its ``MODELS_SIM_CHECKS``)."""
    name = kernel_of(fn, kw)
    if name is None:
        return False
    if name not in _LOADED:
        compile_kernel(name)
        _LOADED.add(name)
    return True


def cached(name: str) -> bool:
    """Whether numba's cache holds kernel ``name`` (one of :data:`KERNELS`) compiled from its current source, so that
    :func:`compile_kernel` loads it (about a second) rather than compiles it (tens of seconds).  Read from numba's
    cache index (numba's internals: False when they cannot say)."""
    if name not in KERNELS:
        raise ValueError(f"`name` must be one of {', '.join(KERNELS)}; got {name!r}")
    try:
        module, function = LOOPS[name]
        return bool(getattr(importlib.import_module(module), function)._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - another numba version: do not guess
        return False


def preload_cached() -> list[str]:
    """Load into this process every kernel numba's cache holds (:func:`cached`), as :func:`preload` does; the
    names loaded.  The pipeline's fork server (:mod:`models.core.forkserver`) calls it, so that the notebooks
    forked from it find the kernels loaded; a kernel not compiled yet is left to the first notebook that needs it
    (compiling every kernel would cost a notebook that simulates nothing a minute)."""
    for name in KERNELS:
        if name not in _LOADED and cached(name):
            compile_kernel(name)
            _LOADED.add(name)
    return [name for name in KERNELS if name in _LOADED]


def warm(jobs: int = 2, kernels=KERNELS, timeout: float = 600.0) -> dict:
    """Compile ``kernels`` (names of :data:`KERNELS`), each in a process of its own, ``jobs`` at a time.

    Returns ``{name: (exit status, seconds)}``; a kernel that fails to compile is reported there (status
    non-zero), not raised: the first simulation that needs it then shows the error where it happens."""
    if int(jobs) < 1:
        raise ValueError(f"`jobs` must be at least 1; got {jobs!r}")
    env = {k: v for k, v in os.environ.items() if k not in ("MODELS_SIM_CHECKS", "MODELS_SIM_PROFILE")}
    waiting = list(kernels)
    running: dict = {}
    done: dict = {}
    deadline = time.monotonic() + timeout
    while waiting or running:
        while waiting and len(running) < int(jobs):
            name = waiting.pop(0)
            running[name] = (subprocess.Popen([sys.executable, "-m", "models.sim.warm", name], env=env,
                                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL), time.monotonic())
        for name, (proc, t0) in list(running.items()):
            if proc.poll() is None and time.monotonic() > deadline:
                proc.kill()
                proc.wait()
            if proc.poll() is not None:
                done[name] = (proc.returncode, time.monotonic() - t0)
                del running[name]
        time.sleep(0.05)
    return done


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.sim.warm", description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*",
                        help=f"one kernel to compile in this process ({', '.join(KERNELS)}); none: all of them, "
                             "each in its own process")
    parser.add_argument("--jobs", type=int, default=2, help="kernels compiled at a time (default 2)")
    args = parser.parse_args(argv)
    for name in args.kernels:
        if name not in KERNELS:
            parser.error(f"unknown kernel {name!r}: {', '.join(KERNELS)}")
    if len(args.kernels) == 1:
        compile_kernel(args.kernels[0])
        return 0
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    done = warm(args.jobs, args.kernels or KERNELS)
    for name, (status, seconds) in done.items():
        print(f"{name}: {'compiled or loaded' if status == 0 else f'failed (exit status {status})'} "
              f"in {seconds:.1f} s")
    return 0 if all(status == 0 for status, _ in done.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
