"""Parallel, cached sweeps of a simulator over (configuration, load) points.

:func:`run_sweep` runs a list of points -- each a dict of keyword arguments
to a simulate function (default :func:`models.sim.wormhole.simulate`) -- in
parallel on the local cores, with a progress bar, and caches every result on
disk (:class:`models.core.cache.DiskCache` under ``cache_dir()/"wormhole"``
for the wormhole simulator, ``cache_dir()/<module name>`` for others).  The
key of a point is the hash of the function's name, its version (the
simulator's ``sim_version``, which includes a hash of its source files) and
every keyword argument after filling in the defaults -- the seed included --
so a changed parameter or simulator gives a new entry.  Entries are written
atomically by the submitting process as each point finishes: an
interrupted sweep resumes where it stopped and a finished point is never
recomputed.

Local use::

    from models.sim.sweep import run_sweep
    from models.sim.wormhole import Torus
    base = dict(topology=Torus((16, 16), bidirectional=False), routing="dor",
                vcs=3, message_length=32)
    points = [dict(base, rate=r) for r in (0.0002, 0.0005, 0.001)]
    results = run_sweep(points)                 # all local cores
    results = run_sweep(points, jobs=1)         # in this process

A point may also be a ``(configuration, load)`` pair: ``(base, 0.001)`` is
``dict(base, rate=0.001)``.

Across machines with Dask: set the environment variable
``MODELS_DASK_SCHEDULER`` to a scheduler's address and every sweep without
an explicit ``executor`` -- single points with ``jobs=1`` included -- runs
its uncached points on that cluster (:func:`cluster_executor`; one
:class:`distributed.Client` per process and address, reused)::

    MODELS_DASK_SCHEDULER=tcp://scheduler:8786 python -m models.pipeline --profile full

or pass any :class:`concurrent.futures.Executor`, e.g. a Dask client's::

    from distributed import Client
    client = Client("tcp://scheduler:8786")     # or Client() for a local cluster
    results = run_sweep(points, executor=client.get_executor())

The workers need the project installed (``pip install -e .``); results come
back to the submitting process, which writes the cache, so only that machine
needs the cache folder, and a point gives the same result and the same cache
entry wherever it ran.  A worker whose simulator version (``sim_version``)
differs from the submitting process's is refused with a ``RuntimeError``
rather than filling the cache under the wrong key.  An unreachable
scheduler is a :class:`ConnectionError` naming the address and the variable
(after dask's connect timeout, ``distributed.comm.timeouts.connect``,
default 30 s).

Other simulators: ``run_sweep(points, simulate_fn=models.sim.closed_min.simulate)``;
the function should be importable at module level (for process pools) and
may carry ``sim_version`` and ``cache_name`` attributes (otherwise the hash
of its module's source file and the module's name are used).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import sys
import threading
from typing import Any, Callable, Iterable

from models.core.cache import DiskCache
from models.core.errors import ParameterError
from models.core.keys import cache_for, function_version, point_key
from models.core.progress import report as report_progress

__all__ = ["run_sweep", "cluster_executor", "close_clients", "SCHEDULER_ENV",
           "point_key", "function_version"]  # keys re-exported from models.core.keys


def _default_fn():
    from models.sim.wormhole import simulate  # the sweep's default simulator; loads numba

    return simulate


def _as_kwargs(point) -> dict:
    if isinstance(point, dict):
        return dict(point)
    if isinstance(point, (tuple, list)) and len(point) == 2 and isinstance(point[0], dict):
        return dict(point[0], rate=point[1])
    raise ParameterError(f"a sweep point must be a dict of keyword arguments or (dict, load); got {point!r}")


def _call(fn: Callable, kwargs: dict) -> Any:
    return fn(**kwargs)


def _call_checked(fn: Callable, kwargs: dict, version: str) -> Any:
    """``fn(**kwargs)`` in a worker, after checking that the worker's simulator is the submitter's.

    The submitting process keys the result with its own version of ``fn``; a
    worker with other simulator sources (another checkout installed) would
    otherwise put its results under that key.  Versions that are only a
    hash of a source file the worker may not have (``src-...``, ``unknown``)
    are not compared.
    """
    if not version.startswith(("src-", "unknown")):
        here = function_version(fn)
        if here != version:
            raise RuntimeError(
                f"the worker runs {getattr(fn, '__module__', '?')}.{getattr(fn, '__name__', '?')} version {here}, "
                f"the submitting process {version}: install the same checkout on the workers (pip install -e .)")
    return fn(**kwargs)


SCHEDULER_ENV = "MODELS_DASK_SCHEDULER"
"""Environment variable holding a Dask scheduler's address (``tcp://host:8786``)."""

_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def cluster_executor(address: str | None = None) -> cf.Executor | None:
    """Executor of the Dask cluster at ``address`` (default ``$MODELS_DASK_SCHEDULER``).

    Returns None when no address is given and the variable is unset or
    empty (sweeps then run locally).  The :class:`distributed.Client` is
    created on first use and reused by every later sweep of this process;
    its tasks are impure (``pure=False``: a point submitted twice runs twice,
    as it would locally).

    Raises
    ------
    ConnectionError
        The scheduler cannot be reached (the message names the address and
        where it came from).
    ImportError
        ``distributed`` is not installed.
    """
    source = "the address given"
    if address is None:
        address = os.environ.get(SCHEDULER_ENV, "")
        source = f"${SCHEDULER_ENV}"
    address = address.strip()
    if not address:
        return None
    with _clients_lock:
        client = _clients.get(address)
        if client is None or client.status not in ("running", "connecting", "newly-created"):
            try:
                from distributed import Client
            except ImportError as e:  # pragma: no cover - distributed is pinned in requirements.txt
                raise ImportError(f"{source} = {address!r} asks for a Dask cluster, but 'distributed' "
                                  f"is not installed (pip install -r requirements.txt)") from e
            try:
                client = Client(address, set_as_default=False)
            except (OSError, TimeoutError) as e:
                raise ConnectionError(
                    f"cannot reach the Dask scheduler at {address!r} ({source}): {e}. Start one with "
                    f"'dask scheduler' and workers with 'dask worker {address}', or unset "
                    f"{SCHEDULER_ENV} to run the sweep on this machine") from None
            _clients[address] = client
    return client.get_executor(pure=False)


def close_clients() -> None:
    """Close the Dask clients :func:`cluster_executor` opened in this process."""
    with _clients_lock:
        clients = list(_clients.values())
        _clients.clear()
    for c in clients:
        try:
            c.close()
        except Exception:  # noqa: BLE001 - closing a client whose scheduler is gone
            pass


def run_sweep(
    points: Iterable,
    *,
    simulate_fn: Callable | None = None,
    executor: cf.Executor | None = None,
    jobs: int | None = None,
    progress: bool = True,
    cache=True,
    errors: str = "raise",
) -> list:
    """Run ``simulate_fn(**point)`` for every point, in parallel, cached; results in input order.

    Parameters
    ----------
    points : iterable of dict or (dict, load)
        Keyword arguments of each call (a ``(config, load)`` pair means ``rate=load``).
    simulate_fn : callable, optional
        Default :func:`models.sim.wormhole.simulate`.
    executor : concurrent.futures.Executor, optional
        Where to run the points (e.g. ``distributed.Client.get_executor()``).
        Default: the Dask cluster at ``$MODELS_DASK_SCHEDULER`` when that is
        set (:func:`cluster_executor`; ``jobs`` is then ignored), otherwise a
        process pool of ``jobs`` workers (``jobs=1`` or a single uncached
        point: in this process).
    jobs : int, optional
        Local worker processes (default: all cores).
    progress : bool
        Show a tqdm progress bar.
    cache : bool, path or DiskCache
        Read and write the on-disk cache (default ``cache_dir()/<name>``).
    errors : {'raise', 'return'}
        On a failed point (e.g. ``DeadlockError``), raise the first error after
        the other points have finished (default), or put the exception in
        its place in the returned list.
    """
    fn = simulate_fn or _default_fn()
    kwlist = [_as_kwargs(p) for p in points]
    store = cache_for(fn, cache)
    keys = [point_key(fn, kw) for kw in kwlist] if store is not None else [None] * len(kwlist)
    results: list = [None] * len(kwlist)
    todo = []
    copies: dict[int, list[int]] = {}  # a point listed twice is simulated once: first index -> the others
    first_of: dict[str, int] = {}
    sentinel = object()
    for i, (kw, key) in enumerate(zip(kwlist, keys)):
        hit = store.get(key, sentinel) if store is not None else sentinel
        if hit is not sentinel:
            results[i] = hit
        elif key is not None and key in first_of:
            copies.setdefault(first_of[key], []).append(i)
        else:
            if key is not None:
                first_of[key] = i
            todo.append(i)
    cluster = False
    if todo and executor is None:
        executor = cluster_executor()  # None unless $MODELS_DASK_SCHEDULER is set
        cluster = executor is not None
    bar = None
    missing = len(todo) + sum(len(c) for c in copies.values())
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(kwlist), initial=len(kwlist) - missing, desc="sweep", unit="pt")
    failures: dict[int, BaseException] = {}
    done = [len(kwlist) - missing]  # finished points, for the pipeline's progress lines
    if len(kwlist) > 1:  # a one-point sweep (a saturation probe) is not worth a line
        report_progress(done[0], len(kwlist), "points")
    held: dict[int, contextlib.AbstractContextManager] = {}  # computing locks this process holds

    def finish(i, value=None, exc=None):
        for j in (i, *copies.get(i, ())):
            if exc is not None:
                failures[j] = exc
                results[j] = exc
            else:
                results[j] = value
            if bar is not None:
                bar.update(1)
            done[0] += 1
            if len(kwlist) > 1:
                report_progress(done[0], len(kwlist), "points")
        if exc is None and store is not None and i in held:
            store.put(keys[i], value)
        release(i)

    def release(i):
        lock = held.pop(i, None)
        if lock is not None:
            lock.__exit__(None, None, None)

    def claim(i, blocking: bool) -> str:
        """Take point i's computing lock: 'mine' (compute it), 'done' (cached meanwhile) or 'busy'."""
        if store is None:
            return "mine"
        lock = store.lock(keys[i], blocking=blocking)
        if not lock.__enter__():
            return "busy"  # another process is computing it (non-blocking)
        held[i] = lock
        hit = store.get(keys[i], sentinel)  # finished by another process before we took the lock
        if hit is not sentinel:
            release(i)
            finish(i, hit)
            return "done"
        return "mine"

    def run_here(indices):
        for i in indices:
            if claim(i, blocking=True) != "mine":
                continue
            try:
                v = _call(fn, kwlist[i])
            except Exception as e:  # noqa: BLE001 - reported below
                finish(i, exc=e)
            else:
                finish(i, v)

    try:
        if not todo:
            pass
        elif executor is None and (jobs == 1 or len(todo) == 1):
            # in this process (also where KeyboardInterrupt stops the sweep at once)
            run_here(todo)
        else:
            # points another process is computing right now (another notebook's sweep) wait until the
            # pool is done, then are read from the cache (or computed here if that process died)
            claims = {i: claim(i, blocking=False) for i in todo}
            mine = [i for i in todo if claims[i] == "mine"]
            busy = [i for i in todo if claims[i] == "busy"]
            own = executor is None
            ex = executor
            if mine and ex is None:
                ex = cf.ProcessPoolExecutor(max_workers=min(jobs or os.cpu_count() or 1, len(mine)))
            try:
                if mine:
                    version = function_version(fn)
                    futs = {ex.submit(_call_checked, fn, kwlist[i], version): i for i in mine}
                    for f in cf.as_completed(futs):
                        i = futs[f]
                        try:
                            v = f.result()
                        except Exception as e:  # noqa: BLE001
                            finish(i, exc=e)
                        else:
                            finish(i, v)
            finally:
                if own and ex is not None:
                    ex.shutdown(wait=True, cancel_futures=True)
                elif cluster:
                    try:  # cancel what is left after an error or an interrupt; the client stays open
                        ex.shutdown(wait=False)
                    except Exception:  # noqa: BLE001 - the scheduler may be gone
                        pass
            run_here(busy)
    finally:
        for i in list(held):  # an error or an interrupt: let other processes compute what we did not finish
            release(i)
        if bar is not None:
            bar.close()
    if failures and errors == "raise":
        raise failures[min(failures)]
    return results
