"""Sweeps on a Dask cluster (#15): a ``LocalCluster`` of processes gives the local results and cache.

One cluster of two worker processes (one thread each) serves the module; the
first test that uses it also pays for the workers importing the simulator.
The notebook test (``slow``) runs one quick notebook through the pipeline with
``MODELS_DASK_SCHEDULER`` set and checks that every simulated point ran on the
cluster.

The README's recipes (#26, item 3; review D1, D4, D6, D9): the one-machine
commands, run as ``dask scheduler``/``dask worker`` processes exactly as the
README writes them (only the ports and the number of workers changed), hold
no listening socket outside 127.0.0.1/::1 and run a sweep; the TLS recipe's
``openssl`` block, scheduler, worker and submitting-machine variables, run as
written on 127.0.0.1, run a sweep, while a client without certificates, with
a stranger's, or over plain TCP is refused; and a scheduler without workers
fails a sweep after ``MODELS_DASK_NO_WORKERS_TIMEOUT`` with the address in the
message, from the API and from ``curve``.
"""

import dataclasses
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import dask
import numpy as np
import psutil
import pytest
from distributed import Client, LocalCluster, get_task_stream

from models.core.errors import ParameterError
from models.core.paths import ROOT
from models.sim import sweep
from models.sim.sweep import NO_WORKERS_ENV, SCHEDULER_ENV, cluster_executor, point_key, run_sweep
from models.sim.wormhole import Torus, simulate

BASE = dict(topology=Torus((4, 4)), routing="duato", vcs=3, message_length=8, messages=300, warmup_messages=30)
RATES = (0.002, 0.004, 0.006)


def points(rates=RATES, **change):
    return [dict(BASE, rate=r, **change) for r in rates]


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes; the workers import this checkout (PYTHONPATH)."""
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([old] if old else []))
    lc = LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(lc)
    try:
        yield lc, client
    finally:
        sweep.close_clients()
        client.close()
        lc.close()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def sweep_tasks(stream) -> list:
    """Keys of the sweep's tasks (``_call_checked-<id>``) in a task stream."""
    return [t["key"] for t in stream.data if str(t["key"]).startswith("_call")]



def _same_array(x, y) -> bool:
    """Equal arrays, NaN equal to NaN where the dtype has NaN."""
    x, y = np.asarray(x), np.asarray(y)
    return np.array_equal(x, y, equal_nan=x.dtype.kind == "f" and y.dtype.kind == "f")

def same_result(a, b) -> bool:
    """Two WormholeResults equal in every field but the wall time (NaN equals NaN)."""
    assert type(a) is type(b)
    for f in dataclasses.fields(a):
        if f.name == "wall_time":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not _same_array(x, y):
                return False
        elif isinstance(x, float) and isinstance(y, float):
            if not (x == y or (np.isnan(x) and np.isnan(y))):
                return False
        elif isinstance(x, dict) and isinstance(y, dict):  # e.g. blocking_by_hops: arrays by key
            if x.keys() != y.keys() or not all(_same_array(x[k], y[k]) for k in x):
                return False
        elif x != y:
            return False
    return True


def cached_keys(folder) -> set:
    """The keys of the cache entries in ``folder`` (``<key>.<format>``; locks and temporary files start with '.')."""
    return {p.name.split(".")[0] for p in folder.glob("*") if not p.name.startswith(".")} if folder.exists() else set()


def test_no_scheduler_runs_locally(monkeypatch):
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    assert cluster_executor() is None
    monkeypatch.setenv(SCHEDULER_ENV, "  ")
    assert cluster_executor() is None


def test_unreachable_scheduler_names_address_and_variable(tmp_path, monkeypatch):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    monkeypatch.setenv(SCHEDULER_ENV, address)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ConnectionError, match=rf"{address}.*\${SCHEDULER_ENV}") as err:
            run_sweep(points(rates=(0.002,)), jobs=1, progress=False)
    # it recommends the loopback-only scheduler of the README, never a bare `dask scheduler` (review defect 3)
    assert f"'{sweep.LOOPBACK_SCHEDULER}'" in str(err.value) and "'dask scheduler'" not in str(err.value).replace(
        "never a bare 'dask scheduler'", "")


def test_env_var_sweep_equals_local_run_and_cache(cluster, tmp_path, monkeypatch):
    lc, client = cluster
    pts = points()
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "local"))
    local = run_sweep(pts, jobs=1, progress=False)

    monkeypatch.setenv(SCHEDULER_ENV, lc.scheduler_address)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cluster"))
    with get_task_stream(client) as ts:
        remote = run_sweep(pts, jobs=2, progress=False)
    assert len(sweep_tasks(ts)) == len(pts)  # every point ran on the cluster
    assert all(same_result(a, b) for a, b in zip(local, remote))
    assert [r.offered for r in remote] == list(RATES)  # input order kept
    # the same cache entries, written by this (the submitting) process
    keys = {point_key(simulate, p) for p in pts}
    assert cached_keys(tmp_path / "cluster" / "wormhole") == cached_keys(tmp_path / "local" / "wormhole") == keys

    # a second run is all cache hits: nothing goes to the cluster
    with get_task_stream(client) as ts:
        again = run_sweep(pts, progress=False)
    assert sweep_tasks(ts) == []
    assert all(same_result(a, b) for a, b in zip(again, remote))
    # and the client is made once per process
    assert list(sweep._clients) == [lc.scheduler_address]
    assert cluster_executor()._client is sweep._clients[lc.scheduler_address]


def test_single_point_with_jobs_1_goes_to_cluster(cluster, tmp_path, monkeypatch):
    """Chapters ask for single points with ``jobs=1``; with a scheduler they still run there."""
    lc, client = cluster
    monkeypatch.setenv(SCHEDULER_ENV, lc.scheduler_address)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    with get_task_stream(client) as ts:
        (res,) = run_sweep(points(rates=(0.003,)), jobs=1, progress=False)
    assert len(sweep_tasks(ts)) == 1
    assert res.offered == 0.003 and len(cached_keys(tmp_path / "wormhole")) == 1


def test_explicit_executor_and_errors_come_back(cluster, tmp_path, monkeypatch):
    lc, client = cluster
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    pts = points(rates=(0.005,)) + points(rates=(0.005,), vcs=0)  # vcs=0: ParameterError on the worker
    with get_task_stream(client) as ts:
        res = run_sweep(pts, executor=client.get_executor(), errors="return", progress=False)
    assert len(sweep_tasks(ts)) == 2
    assert res[0].offered == 0.005
    assert isinstance(res[1], ValueError) and "vcs" in str(res[1])
    assert len(cached_keys(tmp_path / "wormhole")) == 1  # a failed point is not cached
    with pytest.raises(ValueError, match="vcs"):
        run_sweep(pts, executor=client.get_executor(), progress=False)


def test_worker_with_another_simulator_is_refused(cluster, tmp_path, monkeypatch):
    """The submitter keys results with its simulator version; a worker with other sources must not fill them."""
    lc, client = cluster
    monkeypatch.setenv(SCHEDULER_ENV, lc.scheduler_address)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(simulate, "sim_version", "wormhole-elsewhere")  # this process only; workers keep theirs
    with pytest.raises(RuntimeError, match="same checkout"):
        run_sweep(points(rates=(0.0025,)), progress=False)
    assert not cached_keys(tmp_path / "wormhole")


@pytest.mark.slow
def test_pipeline_notebook_on_cluster(cluster, tmp_path):
    """One quick notebook through ``python -m models.pipeline`` with MODELS_DASK_SCHEDULER:
    every simulated point of the kernel ran on the cluster (a fresh cache: one task per entry)."""
    lc, client = cluster
    env = dict(os.environ, MODELS_DASK_SCHEDULER=lc.scheduler_address, MODELS_CACHE_DIR=str(tmp_path / "cache"),
               OMP_NUM_THREADS="1")
    small = ["-p", "networks", "[[4, 4]]", "-p", "vcs_values", "[3]", "-p", "tori", '["unidirectional"]',
             "-p", "fractions", "[0.25, 0.5, 0.75]", "-p", "messages", "1000", "-p", "warmup_messages", "200",
             "-p", "sat_messages", "800", "-p", "sat_steps", "3", "-p", "model_points", "10"]
    cmd = [sys.executable, "-m", "models.pipeline", "notebooks/torus_dor/02-latency.ipynb", "--profile", "quick",
           "--out", str(tmp_path / "out"), "--jobs", "1", *small]
    with get_task_stream(client) as ts:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    nb = json.loads((tmp_path / "out" / "torus_dor" / "02-latency.ipynb").read_text())
    assert nb["cells"]
    entries = cached_keys(tmp_path / "cache" / "wormhole")
    tasks = sweep_tasks(ts)
    assert entries and len(tasks) == len(entries)


# ---------------------------------------------------------------------------- the README's recipes (#26, item 3)
DASK = Path(sys.executable).with_name("dask")
LOOPBACK = ("127.0.0.1", "::1")


def readme_dask_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("### Building the book on a Dask cluster")
    return text[start:text.index("\n## ", start)]


def readme_blocks() -> list[str]:
    """The ``bash`` blocks of the README's Dask section, continuation lines joined."""
    return [b.replace("\\\n", " ") for b in re.findall(r"```bash\n(.*?)```", readme_dask_section(), re.S)]


def readme_command(*needles: str) -> tuple[dict, list[str]]:
    """The README's ``dask`` command line containing every needle: (its variables, its arguments after 'dask')."""
    for block in readme_blocks():
        for line in block.splitlines():
            if all(n in line for n in needles) and ".venv/bin/dask " in line:
                words = shlex.split(line.split("#")[0])
                at = next(i for i, w in enumerate(words) if w.endswith(".venv/bin/dask"))
                env = dict(w.split("=", 1) for w in words[:at])
                args = words[at + 1:]
                return env, args[:args.index("&")] if "&" in args else args
    raise AssertionError(f"the README's Dask section has no 'dask' command with {needles}")


def substitute(args: list[str], old: str, new: str) -> list[str]:
    assert any(old in a for a in args), (old, args)
    return [a.replace(old, new) for a in args]


class DaskProcess:
    """``dask ARGS`` in a session of its own (its process group holds its nanny and workers)."""

    def __init__(self, args: list[str], cwd: Path, env: dict):
        self.args = args
        self.log = cwd / f"dask-{args[0]}-{time.monotonic_ns()}.log"
        full = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", **env}
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen([str(DASK), *args], cwd=cwd, env=full, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def tree(self) -> list[psutil.Process]:
        try:
            root = psutil.Process(self.proc.pid)
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return []

    def text(self) -> str:
        return self.log.read_text()[-3000:]

    def stop(self) -> None:
        """SIGTERM to the process group, SIGKILL after 15 s."""
        procs = self.tree()
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass
            gone, alive = psutil.wait_procs(procs, timeout=wait)
            if not alive:
                break
        self.proc.wait(timeout=5)


def listeners(procs: list[psutil.Process]) -> list[tuple[int, str, int]]:
    """(pid, address, port) of every listening TCP socket and bound UDP socket of ``procs``."""
    out = []
    for p in procs:
        for c in p.net_connections(kind="inet"):
            if c.status == psutil.CONN_LISTEN or (c.type == socket.SOCK_DGRAM and not c.raddr):
                out.append((p.pid, c.laddr.ip, c.laddr.port))
    return out


def start_cluster(sched_args: list[str], worker_args: list[str], cwd: Path, sched_env: dict, worker_env: dict,
                  connect=None):
    """A scheduler (``--port 0``, a scheduler file), then one worker; returns (scheduler, worker, address)."""
    info = cwd / "scheduler.json"
    sched_args = [a for a in sched_args]
    if "--port" in sched_args:
        sched_args[sched_args.index("--port") + 1] = "0"
    else:
        sched_args += ["--port", "0"]
    scheduler = DaskProcess(sched_args + ["--scheduler-file", str(info)], cwd, sched_env)
    deadline = time.monotonic() + 90
    while not info.exists() and time.monotonic() < deadline and scheduler.proc.poll() is None:
        time.sleep(0.2)
    if not info.exists():
        scheduler.stop()
        raise AssertionError(scheduler.text())
    time.sleep(0.2)  # the file is written whole, but give it a moment
    try:
        address = json.loads(info.read_text())["address"]
        worker = DaskProcess([a.replace("ADDRESS", address) for a in worker_args], cwd, worker_env)
    except BaseException:
        scheduler.stop()
        raise
    return scheduler, worker, address


def wait_for_worker(client: Client, *processes: DaskProcess) -> None:
    try:
        client.wait_for_workers(1, timeout=120)
    except TimeoutError:
        raise AssertionError("no worker joined:\n" + "\n".join(p.text() for p in processes)) from None


def test_readme_loopback_recipe_listens_only_on_loopback(tmp_path, monkeypatch):
    """Review D1/D9 and defect 3: the one-machine commands, run as the README writes them, hold no socket
    outside 127.0.0.1 (scheduler, its HTTP server, nanny, worker and the worker's diagnostics server), and a
    sweep runs through them."""
    assert "runs whatever a connected client sends" in " ".join(readme_dask_section().split())
    s_env, s_args = readme_command("dask scheduler", "--host 127.0.0.1")
    w_env, w_args = readme_command("dask worker tcp://127.0.0.1:8786")
    # the command the ConnectionError recommends is the README's
    assert "dask " + " ".join(s_args) == sweep.LOOPBACK_SCHEDULER, s_args
    for flag, value in (("--host", "127.0.0.1"), ("--dashboard-address", "127.0.0.1:0")):
        assert w_args[w_args.index(flag) + 1] == value, w_args
    # a free dashboard port instead of 8787, the scheduler's real address, one worker process
    s_args = substitute(s_args, "127.0.0.1:8787", "127.0.0.1:0")
    w_args = substitute(substitute(w_args, "tcp://127.0.0.1:8786", "ADDRESS"), "--nworkers -1".split()[1], "1")
    scheduler, worker, address = start_cluster(s_args, w_args, tmp_path, s_env, w_env)
    try:
        assert address.startswith("tcp://127.0.0.1:"), address
        with Client(address, set_as_default=False) as client:
            wait_for_worker(client, scheduler, worker)
        found = {"scheduler": listeners(scheduler.tree()), "worker": listeners(worker.tree())}
        assert len(found["scheduler"]) >= 1 and len(found["worker"]) >= 2, found  # the worker's nanny and worker
        outside = [x for role in found.values() for x in role if x[1] not in LOOPBACK]
        assert not outside, f"listening outside loopback: {outside}\n{found}"

        monkeypatch.setenv(SCHEDULER_ENV, address)
        monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "cache"))
        res = run_sweep(points(rates=(0.002, 0.004)), progress=False)
        assert [r.offered for r in res] == [0.002, 0.004]
        assert len(cached_keys(tmp_path / "cache" / "wormhole")) == 2
        # nothing new listens after the sweep (the worker imported the simulator and ran the points)
        again = [x for x in listeners(scheduler.tree()) + listeners(worker.tree()) if x[1] not in LOOPBACK]
        assert not again, again
    finally:
        sweep.close_clients()
        worker.stop()
        scheduler.stop()


def make_ca(home: Path) -> Path:
    """Run the README's ``openssl`` block with ``HOME=home``; returns the folder of the certificates."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: the README's certificate commands cannot run")
    block = next((b for b in readme_blocks() if "openssl req -x509" in b), None)
    assert block is not None, "the README's Dask section has no openssl block"
    home.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["bash", "-e", "-c", block], cwd=home, env=dict(os.environ, HOME=str(home)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    folder = home / "dask-tls"
    for name in ("ca", "scheduler", "worker", "client"):
        assert (folder / f"{name}.pem").exists(), name
    assert not (folder / "client-key.pem").stat().st_mode & 0o077, "keys readable by others"
    return folder


def readme_client_env(home: Path) -> dict:
    """The ``export`` lines of the README's TLS block (the submitting machine), ``~`` being ``home``."""
    block = next(b for b in readme_blocks() if "DASK_DISTRIBUTED__COMM__TLS__CA_FILE" in b)
    env = {}
    for line in block.splitlines():
        m = re.match(r"\s*export (\w+)=(\S+)", line)
        if m:
            env[m.group(1)] = m.group(2).replace("~", str(home))
    assert set(env) == {"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
                        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY"}, env
    return env


def test_readme_tls_recipe_runs_a_sweep_and_refuses_strangers(tmp_path, monkeypatch):
    """Defect 3: the README's mutual-TLS recipe, run as written on 127.0.0.1 (certificates from its openssl
    block, scheduler and worker commands, the submitting machine's variables): a sweep runs and is cached;
    a client with no certificate, with a stranger's (another CA), or over plain TCP is refused."""
    home = tmp_path / "home"
    certs = make_ca(home)
    s_env, s_args = readme_command("dask scheduler", "--tls-cert")
    w_env, w_args = readme_command("dask worker tls://")
    for env in (s_env, w_env):
        assert env.get("DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION") == "True", (s_env, w_env)
    s_args = substitute(substitute(s_args, "SCHED", "127.0.0.1"), "127.0.0.1:8787", "127.0.0.1:0")
    w_args = substitute(substitute(w_args, "tls://SCHED:8786", "ADDRESS"), "WORKER", "127.0.0.1")
    w_args = substitute(w_args, "-1", "1")  # one worker process
    scheduler, worker, address = start_cluster(s_args, w_args, certs, s_env, w_env)
    try:
        assert address.startswith("tls://127.0.0.1:"), address
        client_env = readme_client_env(home)
        code = ("from models.sim.sweep import run_sweep\nfrom models.sim.wormhole import Torus\n"
                "res = run_sweep([dict(topology=Torus((4, 4)), routing='duato', vcs=3, message_length=8, "
                "messages=300, warmup_messages=30, rate=0.003)], progress=False)\nprint(res[0].offered)\n")
        env = dict(os.environ, PYTHONPATH=str(ROOT), MODELS_CACHE_DIR=str(tmp_path / "cache"),
                   MODELS_DASK_SCHEDULER=address, **client_env)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and proc.stdout.strip() == "0.003", proc.stderr[-3000:] + worker.text()
        assert len(cached_keys(tmp_path / "cache" / "wormhole")) == 1
        outside = [x for x in listeners(scheduler.tree()) + listeners(worker.tree()) if x[1] not in LOOPBACK]
        assert not outside, outside

        # no certificate: refused before connecting, naming the variables
        with pytest.raises(ConnectionError, match="DASK_DISTRIBUTED__COMM__TLS__CA_FILE"):
            cluster_executor(address)
        stranger = make_ca(tmp_path / "stranger")
        for ca, cert in ((stranger, stranger), (certs, stranger)):  # another CA; a certificate our CA did not sign
            config = {"distributed.comm.tls.ca-file": str(ca / "ca.pem"),
                      "distributed.comm.tls.client.cert": str(cert / "client.pem"),
                      "distributed.comm.tls.client.key": str(cert / "client-key.pem"),
                      "distributed.comm.timeouts.connect": "3s"}
            with dask.config.set(config):
                with pytest.raises(ConnectionError, match=re.escape(address)):
                    cluster_executor(address)
        with dask.config.set({"distributed.comm.timeouts.connect": "3s"}):  # plain TCP to the TLS port
            with pytest.raises(ConnectionError):
                cluster_executor(address.replace("tls://", "tcp://"))
    finally:
        sweep.close_clients()
        worker.stop()
        scheduler.stop()


@pytest.fixture
def lonely_scheduler():
    """A scheduler on 127.0.0.1 with no worker at all (review D4: every worker gone)."""
    lc = LocalCluster(n_workers=0, processes=True, protocol="tcp://", host="127.0.0.1",
                      dashboard_address="127.0.0.1:0")
    try:
        yield lc
    finally:
        sweep.close_clients()
        lc.close()


def test_cluster_without_workers_fails_after_the_bound(lonely_scheduler, tmp_path, monkeypatch):
    """Review D4 (defect 7): a sweep on a scheduler without workers waited silently for ever; now it fails
    after $MODELS_DASK_NO_WORKERS_TIMEOUT with the address, and leaves no task on the scheduler."""
    address = lonely_scheduler.scheduler_address
    monkeypatch.setenv(SCHEDULER_ENV, address)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(NO_WORKERS_ENV, "2")
    outcome = {}

    def sweep_it():
        t0 = time.monotonic()
        try:
            run_sweep(points(rates=(0.002, 0.004)), progress=False)
        except BaseException as e:  # noqa: BLE001 - inspected below
            outcome["error"] = e
        outcome["seconds"] = time.monotonic() - t0

    thread = threading.Thread(target=sweep_it, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the sweep still waits for a worker after 30 s"
    err = outcome.get("error")
    assert isinstance(err, TimeoutError), err
    assert address in str(err) and NO_WORKERS_ENV in str(err) and "\n" not in str(err), err
    assert 2 <= outcome["seconds"] < 15, outcome
    deadline = time.monotonic() + 10  # the sweep's tasks were cancelled
    while lonely_scheduler.scheduler.tasks and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not lonely_scheduler.scheduler.tasks
    assert not cached_keys(tmp_path / "wormhole")

    monkeypatch.setenv(NO_WORKERS_ENV, "soon")
    with pytest.raises(ParameterError, match=NO_WORKERS_ENV):
        run_sweep(points(rates=(0.002,)), progress=False)


def test_curve_on_a_cluster_without_workers_is_one_line(lonely_scheduler, tmp_path):
    """The same from ``python -m models.torus_dor curve --simulate``: exit status 1 and one line naming the address."""
    address = lonely_scheduler.scheduler_address
    env = dict(os.environ, PYTHONPATH=str(ROOT), MODELS_CACHE_DIR=str(tmp_path), OMP_NUM_THREADS="1",
               **{SCHEDULER_ENV: address, NO_WORKERS_ENV: "1"})
    cmd = [sys.executable, "-m", "models.torus_dor", "curve", "--radices", "4", "4", "--L", "2", "--M", "8",
           "--loads", "0.01", "0.02", "--simulate", "--messages", "1000"]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and len(lines) == 1, proc.stderr
    assert address in lines[0] and "TimeoutError" in lines[0] and "no worker" in lines[0], lines[0]
