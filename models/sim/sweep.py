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

Inside ``python -m models.pipeline --jobs N`` the N cores are shared by every
notebook's sweeps (:mod:`models.core.cores`, ``$MODELS_CORE_TOKENS``): a
point runs only while its sweep's process holds one of N tokens, so at most
N points run at once, and ``jobs=None`` or ``"auto"`` (the default of
:class:`~models.core.setups.SimSettings`) sizes the pool to N, so a notebook
left alone uses every core the others have released.  Which worker runs a
point, and when, changes nothing in its result (its seed is a keyword of the
point).

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
default 30 s).  A cluster with no worker does not hang the sweep: when the
scheduler has had no worker for ``$MODELS_DASK_NO_WORKERS_TIMEOUT`` seconds
(default 60; ``inf`` waits for ever) while points are waiting, the sweep
stops with a :class:`TimeoutError` naming the address (a worker that joins
in time resumes it).  A Dask scheduler runs whatever its clients send and
the results are unpickled here: keep it reachable only from trusted
machines (README, "Building the book on a Dask cluster").

Stopping: the local pool's workers ignore Ctrl-C (the process that runs
the sweep decides), and die with that process (Linux: ``PR_SET_PDEATHSIG``,
so not even a ``kill -9`` of it leaves them behind).  An exception or a
``KeyboardInterrupt`` in that process -- ``python -m models.<chapter>``
turns SIGTERM and SIGHUP into one -- terminates them at once (the points
they were running are lost; every point that had finished is already in
the cache) instead of waiting for their points.

Other simulators: ``run_sweep(points, simulate_fn=models.sim.closed_min.simulate)``;
the function should be importable at module level (for process pools) and
may carry ``sim_version`` and ``cache_name`` attributes (otherwise the hash
of its module's source file and the module's name are used).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterable

from models.core import cores
from models.core.cache import DiskCache
from models.core.errors import ParameterError
from models.core.keys import cache_for, function_version, point_key
from models.core.processes import PR_SET_PDEATHSIG, prctl
from models.core.progress import report as report_progress

from . import warm

__all__ = ["run_sweep", "cluster_executor", "close_clients", "SCHEDULER_ENV", "NO_WORKERS_ENV",
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

NO_WORKERS_ENV = "MODELS_DASK_NO_WORKERS_TIMEOUT"
"""Environment variable: seconds a Dask sweep waits while its scheduler has no worker (default 60; ``inf``: for ever)."""

NO_WORKERS_TIMEOUT = 60.0

#: The prefix of the environment variables that give this process its TLS certificates (dask's configuration).
_TLS_ENV = "DASK_DISTRIBUTED__COMM__TLS__"

#: The command that starts a scheduler listening on this machine only (README, "Building the book on a Dask cluster").
LOOPBACK_SCHEDULER = "dask scheduler --host 127.0.0.1 --dashboard-address 127.0.0.1:8787"

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
            tls = address.lower().startswith("tls://")
            if tls:
                from distributed.security import Security

                security = Security()  # from dask's configuration: the DASK_DISTRIBUTED__COMM__TLS__* variables
                missing = [(what, var) for attr, what, var in (("tls_ca_file", "CA certificate", "CA_FILE"),
                                                               ("tls_client_cert", "client certificate", "CLIENT__CERT"))
                           if not getattr(security, attr, None)]
                if missing:
                    raise ConnectionError(
                        f"{source} = {address!r} is a TLS scheduler, but this process has no "
                        f"{' and no '.join(what for what, _ in missing)}: set "
                        f"{', '.join(_TLS_ENV + var for _, var in missing)} (and {_TLS_ENV}CLIENT__KEY), as the "
                        f"README's TLS recipe says")
            try:
                client = Client(address, set_as_default=False)
            except (OSError, TimeoutError) as e:
                hint = (f"Check that it runs and that this machine's certificate is signed by its CA "
                        f"({_TLS_ENV}CA_FILE, ..._CLIENT__CERT, ..._CLIENT__KEY: the README's TLS recipe)" if tls else
                        f"To run one on this machine: '{LOOPBACK_SCHEDULER}' (a scheduler runs whatever a client "
                        f"sends: across machines use the README's TLS recipe, never a bare 'dask scheduler')")
                raise ConnectionError(
                    f"cannot reach the Dask scheduler at {address!r} ({source}): {e}. {hint}; or unset "
                    f"{SCHEDULER_ENV} to run the sweep on this machine") from None
            _clients[address] = client
    return client.get_executor(pure=False)


def in_cluster_task() -> bool:
    """Whether this code runs inside a Dask worker's task (``distributed.get_worker`` finds one)."""
    mod = sys.modules.get("distributed")
    if mod is None:
        return False
    try:
        mod.get_worker()
    except ValueError:
        return False
    return True


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


def _no_workers_timeout() -> float:
    """``$MODELS_DASK_NO_WORKERS_TIMEOUT`` in seconds (unset or empty: 60; ``inf``: no bound)."""
    text = os.environ.get(NO_WORKERS_ENV, "").strip()
    if not text:
        return NO_WORKERS_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value >= 0:  # NaN and negatives too
        raise ParameterError(f"${NO_WORKERS_ENV} must be a number of seconds >= 0 (or inf); got {text!r}")
    return value


class _WorkerWatch:
    """Fails a Dask sweep whose scheduler has had no worker for ``bound`` seconds (review D4: a silent hang)."""

    def __init__(self, client, bound: float):
        self.client = client
        self.bound = bound
        self.since: float | None = None  # when the scheduler was first seen without a worker
        self.tick = max(0.05, min(1.0, bound / 5)) if math.isfinite(bound) else None
        address = next((a for a, c in _clients.items() if c is client), None)
        if address is None:
            address = getattr(getattr(client, "scheduler", None), "address", None) or "?"
        self.address = address

    @classmethod
    def of(cls, executor) -> "_WorkerWatch | None":
        """The watch of a Dask client's executor (``client.get_executor()``); None for any other executor."""
        client = getattr(executor, "_client", None)
        if client is None or not hasattr(client, "scheduler_info"):
            return None
        bound = _no_workers_timeout()
        return cls(client, bound) if math.isfinite(bound) else None

    def workers(self) -> int | None:
        """The scheduler's number of workers (None: could not ask)."""
        try:
            try:
                info = self.client.scheduler_info(n_workers=1)
            except TypeError:  # a distributed without n_workers=
                info = self.client.scheduler_info()
            n = info.get("n_workers")
            return int(n) if n is not None else len(info.get("workers") or ())
        except Exception:  # noqa: BLE001 - the scheduler may be gone: the sweep's futures will say so
            return None

    def check(self) -> None:
        n = self.workers()
        if n != 0:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        if now - self.since >= self.bound:
            raise TimeoutError(
                f"the Dask scheduler at {self.address!r} has had no worker for {self.bound:g} s "
                f"(${NO_WORKERS_ENV}): start workers with 'dask worker {self.address} ...' (README, "
                f"'Building the book on a Dask cluster'), or unset ${SCHEDULER_ENV} to run the sweep here")


def _pool_worker_init(parent: int | None) -> None:
    """Initializer of the local pool's workers: they die with the sweep's process and leave stopping to it.

    Ctrl-C reaches the whole process group; the workers ignore it and the
    sweep's process terminates them (a worker inside compiled code would
    otherwise finish its point first and then throw it away).  SIGTERM and
    SIGHUP get their default action back (the parent's Python handlers, such
    as the command line's, are inherited through ``fork`` and could not run
    inside compiled code); a signal the parent ignores (``nohup``) stays
    ignored.  ``PR_SET_PDEATHSIG``: the parent's death, even by SIGKILL, is
    the worker's SIGTERM.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) not in (signal.SIG_IGN, signal.SIG_DFL, None):
            signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)  # the parent's, if it had one
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if parent is not None and os.getppid() != parent:  # the parent died before PR_SET_PDEATHSIG took effect
        os._exit(1)


#: The attribute that marks a signal handler as "raise KeyboardInterrupt and nothing else" (the command line's,
#: :func:`models.core.cli.main`): :func:`_stops_at_once` may replace it by the default action.
INTERRUPT_MARK = "raises_keyboard_interrupt"


@contextlib.contextmanager
def _stops_at_once():
    """While a point computes in this process: SIGINT, SIGTERM and SIGHUP whose handler is marked
    :data:`INTERRUPT_MARK` take their default action (the process ends at once).

    A Python signal handler cannot run inside compiled code (numba holds the
    interpreter): the command line's would stop the sweep only when the point
    returns, and then throw it away.  The points that finished are already
    in the cache, and this process has no workers to stop, so ending at once
    loses nothing.  Other handlers (a program's own) are left alone.
    """
    swapped = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None and getattr(signal.getsignal(sig), INTERRUPT_MARK, False):
                swapped[sig] = signal.signal(sig, signal.SIG_DFL)
    try:
        yield
    finally:
        for sig, handler in swapped.items():
            signal.signal(sig, handler)


def _preload(fn: Callable, kw: dict) -> None:
    """Load the kernel ``fn(**kw)`` runs into this process before a pool forks from it
    (:func:`models.sim.warm.preload`, once per process and kernel): a forked worker inherits what its parent has
    loaded.  Otherwise each worker of each sweep loads numba and the kernel from numba's cache on its first point
    (about a second of processor time on the project's machine), and on a fresh checkout each compiles it.
    Nothing is done when the workers do not fork from this process (another start method) or ``fn`` runs no
    kernel of :mod:`models.sim.warm`; an error is left to the points, which report their own."""
    if multiprocessing.get_start_method() != "fork":
        return
    try:
        warm.preload(fn, kw)
    except Exception:  # noqa: BLE001 - the points themselves report what is wrong with them
        pass


def _process_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` processes started with :func:`_pool_worker_init`."""
    forked = multiprocessing.get_start_method() == "fork"  # else the parent is a fork server, not this process
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_pool_worker_init,
                                  initargs=(os.getpid() if forked else None,))


def _stop_pool(pool: cf.ProcessPoolExecutor, timeout: float = 3.0) -> None:
    """Stop ``pool`` at once: terminate its workers (their running points are lost), cancel what is queued.

    ``shutdown(cancel_futures=True)`` alone would wait for the running
    points (minutes at the papers' scale); the workers are the executor's
    ``_processes`` (Python 3.14's ``terminate_workers`` does the same).
    Last it waits for the executor's manager thread, which closes the
    pool's wake-up pipe once it sees the workers gone: an interpreter that
    exits while that thread closes the pipe writes to it at exit (Python
    3.11's ``_python_exit`` takes no lock) and prints a traceback of
    ``OSError: [Errno 9] Bad file descriptor`` after the command's one line.
    """
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(1.0)
    if manager is not None and manager is not threading.current_thread():
        with contextlib.suppress(Exception):
            manager.join(max(1.0, deadline - time.monotonic()))


def run_sweep(
    points: Iterable,
    *,
    simulate_fn: Callable | None = None,
    executor: cf.Executor | None = None,
    jobs: int | str | None = None,
    progress: bool = True,
    cache=True,
    errors: str = "raise",
    hold_tokens: bool = True,
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
    jobs : int, "auto" or None
        Local worker processes.  Outside a pipeline: None (default) all this
        machine's cores, ``"auto"`` 1.  In a pipeline (``$MODELS_CORE_TOKENS``,
        :mod:`models.core.cores`): None and ``"auto"`` as many as its cores;
        a number caps the workers, and every point (in a worker or in this
        process) waits for a token of the pipeline's cores.
    progress : bool
        Show a tqdm progress bar.
    cache : bool, path or DiskCache
        Read and write the on-disk cache (default ``cache_dir()/<name>``).
    errors : {'raise', 'return'}
        On a failed point (e.g. ``DeadlockError``), raise the first error after
        the other points have finished (default), or put the exception in
        its place in the returned list.
    hold_tokens : bool
        In a pipeline, each point holds one of its cores while it runs
        (default).  False for points that are not simulations themselves but
        run sweeps of their own, whose points take the cores (the cells of an
        atlas, :func:`models.core.atlas.run_atlas`): a cell holding a core
        while its points wait for one could wait for ever.

    Each point is written to the cache as soon as it finishes (before it is
    counted as done).  An interrupt (``KeyboardInterrupt``) or another
    exception in this process terminates the local pool's workers at once
    (their running points are lost) and caches the points that had finished
    meanwhile; the workers also die with this process (module docstring).

    Raises
    ------
    TimeoutError
        The Dask scheduler had no worker for ``$MODELS_DASK_NO_WORKERS_TIMEOUT``
        seconds (default 60) while points waited; the message names its address.
    """
    if errors not in ("raise", "return"):
        raise ParameterError(f"`errors` must be 'raise' or 'return'; got {errors!r}")
    jobs = cores.require_jobs(jobs, none=True)
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
        # None unless $MODELS_DASK_SCHEDULER is set; a sweep inside a cluster's task runs in that task's
        # process (a task that waits on the cluster it runs on could wait for ever)
        executor = None if in_cluster_task() else cluster_executor()
        cluster = executor is not None
    tokens = cores.from_env() if todo else None  # a pipeline's cores: a point runs while holding one
    workers = cores.sweep_workers(jobs, tokens)
    if tokens is not None and not hold_tokens:  # the points' own sweeps take the cores
        tokens.close()
        tokens = None
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
        if exc is None and store is not None and i in held:
            store.put(keys[i], value)  # first: a point counted as done is in the cache
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
            if claim(i, blocking=True) != "mine":  # the cache lock first, the token second (no deadlock)
                continue
            token = tokens.take() if tokens is not None else None
            try:
                with _stops_at_once():
                    v, exc = _call(fn, kwlist[i]), None
            except Exception as e:  # noqa: BLE001 - reported below
                v, exc = None, e
            finally:
                if tokens is not None:
                    tokens.give_back(token)
            finish(i, v, exc)

    try:
        if not todo:
            pass
        elif executor is None and (workers == 1 or len(todo) == 1):
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
                workers = min(workers, len(mine))
                _preload(fn, kwlist[mine[0]])
                ex = _process_pool(workers)
            shared = tokens if own else None  # a cluster's points hold no token of this machine
            futs: dict = {}
            token_of: dict = {}  # a submitted point's token (pipeline only)
            queue = list(mine)  # points not submitted yet
            collected: set = set()

            def submit(version):
                """Submit every point (no pipeline), or as many as the tokens this process can take allow."""
                while queue and (shared is None or len(token_of) < workers):
                    token = shared.try_take() if shared is not None else None
                    if shared is not None and token is None:
                        return
                    i = queue.pop(0)
                    f = ex.submit(_call_checked, fn, kwlist[i], version)
                    futs[f] = i
                    if shared is not None:
                        token_of[f] = token

            def collect(f):
                collected.add(f)
                if shared is not None:
                    shared.give_back(token_of.pop(f, None))
                i = futs[f]
                try:
                    v = f.result()
                except Exception as e:  # noqa: BLE001
                    finish(i, exc=e)
                else:
                    finish(i, v)

            completed = False
            try:
                if mine:
                    version = function_version(fn)
                    watch = _WorkerWatch.of(ex)  # a Dask cluster: fail, not hang, when it has no worker
                    if watch is not None:
                        watch.check()
                    submit(version)
                    pending = set(futs)
                    while pending or queue:
                        tick = cores.POLL if queue else (watch.tick if watch else None)  # queue: tokens to try
                        if pending:
                            ready, pending = cf.wait(pending, timeout=tick, return_when=cf.FIRST_COMPLETED)
                        else:
                            ready = set()
                            time.sleep(tick)
                        for f in sorted(ready, key=futs.get):
                            collect(f)
                        if watch is not None and pending:
                            watch.check()
                        known = set(futs)
                        submit(version)
                        pending |= set(futs) - known
                completed = True
            finally:
                if own and ex is not None:
                    if completed:
                        ex.shutdown(wait=True)
                    else:  # an error or an interrupt: stop the workers now, do not wait for their points
                        _stop_pool(ex)
                elif cluster:
                    try:  # cancel what is left after an error or an interrupt; the client stays open
                        ex.shutdown(wait=False)
                    except Exception:  # noqa: BLE001 - the scheduler may be gone
                        pass
                if not completed:  # cache the points that finished meanwhile
                    for f in sorted(futs, key=futs.get):
                        if f not in collected and f.done() and not f.cancelled() and f.exception(0) is None:
                            with contextlib.suppress(Exception):
                                collect(f)
            run_here(busy)
    finally:
        if tokens is not None:  # every token this process still holds (after an error or an interrupt) goes back
            tokens.close()
        for i in list(held):  # an error or an interrupt: let other processes compute what we did not finish
            release(i)
        if bar is not None:
            bar.close()
    if failures and errors == "raise":
        raise failures[min(failures)]
    return results
