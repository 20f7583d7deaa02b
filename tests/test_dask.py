"""Sweeps on a Dask cluster (#15): a ``LocalCluster`` of processes gives the local results and cache.

One cluster of two worker processes (one thread each) serves the module; the
first test that uses it also pays for the workers importing the simulator.
The notebook test (``slow``) runs one quick notebook through the pipeline with
``MODELS_DASK_SCHEDULER`` set and checks that every simulated point ran on the
cluster.
"""

import dataclasses
import json
import os
import socket
import subprocess
import sys

import dask
import numpy as np
import pytest
from distributed import Client, LocalCluster, get_task_stream

from models.core.paths import ROOT
from models.sim import sweep
from models.sim.sweep import SCHEDULER_ENV, cluster_executor, point_key, run_sweep
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


def same_result(a, b) -> bool:
    """Two WormholeResults equal in every field but the wall time (NaN equals NaN)."""
    assert type(a) is type(b)
    for f in dataclasses.fields(a):
        if f.name == "wall_time":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True):
                return False
        elif isinstance(x, float) and isinstance(y, float):
            if not (x == y or (np.isnan(x) and np.isnan(y))):
                return False
        elif x != y:
            return False
    return True


def cached_keys(folder) -> set:
    return {p.stem for p in folder.glob("*.pkl")}


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
        with pytest.raises(ConnectionError, match=rf"{address}.*\${SCHEDULER_ENV}"):
            run_sweep(points(rates=(0.002,)), jobs=1, progress=False)


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
    small = ["-p", "networks", "[[4, 4]]", "-p", "vcs_values", "[3]", "-p", "setups", '["unidirectional"]',
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
