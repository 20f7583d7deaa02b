"""The pipeline's warm process (``models.core.forkserver``) and the kernels forked from its workers
(``models.core.forked_kernel``): a forked kernel is what a started one was, the processes die together, a failure
falls back to starting new interpreters."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest

from models import pipeline
from models.core import forkserver, processes
from models.sim import warm

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server runs on Linux")

#: What a kernel reports about itself: everything a new interpreter had that a fork could get wrong.
PROBE = r'''
import json, os, signal, sys, tempfile, threading
import matplotlib, matplotlib.pyplot as plt
def handler(sig):
    h = signal.getsignal(sig)
    return getattr(h, "__name__", str(h))
info = dict(argv=sys.argv, path=sys.path, cwd=os.getcwd(), backend=matplotlib.get_backend(),
            threads=sorted(t.name for t in threading.enumerate()), group=os.getpgid(0) == os.getpid(),
            session=os.getsid(0) == os.getpid(), parent=os.getppid(), env=sorted(os.environ),
            tmp=tempfile.gettempdir(), signals=[handler(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                                                                     signal.SIGCHLD, signal.SIGPIPE)],
            main=sys.modules["__main__"].__name__, comm=open("/proc/self/comm").read().strip(),
            figsize=list(matplotlib.rcParams["figure.figsize"]), parent_pid=os.environ.get("JPY_PARENT_PID"))
with open(os.environ["PROBE_OUT"], "w") as f:
    json.dump(info, f)
plt.plot([1, 3, 2])
plt.show()
'''


def _notebook(path: Path, code: str) -> Path:
    """A notebook of a parameters cell (``x``) and ``code``."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("x: int = 1")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(code)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _run_probe(tmp_path: Path, monkeypatch, fork: bool, name: str) -> tuple[dict, dict]:
    src = _notebook(tmp_path / "src" / "ch" / "01-probe.ipynb", PROBE)
    book = tmp_path / name
    out = tmp_path / f"{name}.json"
    monkeypatch.setenv(forkserver.ENV, "1" if fork else "0")
    monkeypatch.setenv("PROBE_OUT", str(out))
    run = pipeline.Run("ch", "01-probe", src, book / "ch", {"x": 2}, key="k")
    assert pipeline.execute([run], "quick", jobs=1, book_dir=book, report=False, force=True) == 0
    figure = json.loads((book / "ch" / "01-probe.ipynb").read_text())["cells"][-1]["outputs"][0]["data"]
    return json.loads(out.read_text()), figure


@linux
def test_a_forked_kernel_is_what_a_started_one_was(tmp_path, monkeypatch):
    started, fig_started = _run_probe(tmp_path, monkeypatch, fork=False, name="started")
    forked, fig_forked = _run_probe(tmp_path, monkeypatch, fork=True, name="forked")
    assert forked.pop("comm") == "ipykernel" and started.pop("comm") != "ipykernel"
    for info, name in ((started, "started"), (forked, "forked")):
        assert info.pop("cwd") == str(tmp_path / name / "ch")
        assert info.pop("group") and info.pop("session")  # a session and process group of its own
        # the worker's child, which it polls (JPY_PARENT_PID: the kernel exits with its worker)
        assert info.pop("parent_pid") == str(info.pop("parent"))
        tmp = info.pop("tmp")
        assert re.fullmatch(r".*/models-pipeline-[^/]+/ch--01-probe\.tmp", tmp), tmp
        # the connection file, a temporary file in that folder
        info["argv"] = [re.sub(r"^" + re.escape(tmp) + r"/[^/]+\.json$", "CONNECTION", a) for a in info["argv"]]
    assert forked == started
    assert fig_forked["image/png"] == fig_started["image/png"]  # the inline backend, the same figure


def test_cached_says_whether_numbas_cache_holds_the_kernel(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="one of booksim, ideal, closed_min"):
        warm.cached("nope")
    warm.compile_kernel("closed_min")  # this process's build, compiled or loaded
    assert warm.cached("closed_min")
    # a cached numba function never compiled: not in the cache until its first call writes it there
    (tmp_path / "fresh_loop.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef run(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(warm.LOOPS, "closed_min", ("fresh_loop", "run"))
    assert not warm.cached("closed_min")
    import fresh_loop

    assert fresh_loop.run(1) == 2
    assert warm.cached("closed_min")


@linux
def test_a_worker_exits_with_its_status_and_dies_with_the_server(tmp_path):
    server = forkserver.ForkServer(dict(os.environ), tmp_path / "server.log", ("json",))
    try:
        log = tmp_path / "w.log"
        exits = server.spawn("sys:exit", [3], dict(os.environ), str(tmp_path), str(log), ["w"])
        assert exits.wait(timeout=60) == 3
        sleeper = server.spawn("time:sleep", [60], dict(os.environ), str(tmp_path), str(log), ["w"])
        end = time.monotonic() + 10
        while os.getsid(sleeper.pid) != sleeper.pid and time.monotonic() < end:  # it starts a session of its own
            time.sleep(0.01)
        assert os.getsid(sleeper.pid) == sleeper.pid
        os.kill(sleeper.pid, signal.SIGKILL)
        assert sleeper.wait(timeout=10) == -signal.SIGKILL
        orphan = server.spawn("time:sleep", [60], dict(os.environ), str(tmp_path), str(log), ["w"])
    finally:
        server.stop()
    end = time.monotonic() + 10
    while orphan.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    assert orphan.returncode is not None  # PR_SET_PDEATHSIG: the server's death was its SIGTERM
    assert not (tmp_path / "server.log").read_text().strip()


@linux
def test_a_failing_server_falls_back_to_new_interpreters(tmp_path, monkeypatch, capsys):
    def broken(self, *args):
        raise forkserver.ForkServerError("the fork server is broken (a test)")

    monkeypatch.setattr(forkserver.ForkServer, "_spawn", broken)
    started, _ = _run_probe(tmp_path, monkeypatch, fork=True, name="fallback")
    assert started["comm"] != "ipykernel"  # not forked from a worker of the server
    assert "a test); every notebook from now on starts as a new interpreter" in capsys.readouterr().out


@linux
def test_a_notebook_whose_warm_process_died_fails_and_leaves_no_zombie(tmp_path, monkeypatch, capsys):
    """The warm process killed while a notebook runs: its worker (SIGTERM, ``PR_SET_PDEATHSIG``) and the worker's
    kernel become orphans of the pipeline, a subreaper, which waits for both; the notebook fails with a message that
    says why, and the next one starts as a new interpreter."""
    started = tmp_path / "started"
    slow = _notebook(tmp_path / "src" / "ch" / "01-slow.ipynb",
                     f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(120)")
    fast = _notebook(tmp_path / "src" / "ch" / "02-fast.ipynb", "print('fast')")
    book = tmp_path / "book"
    runs = [pipeline.Run("ch", "01-slow", slow, book / "ch", {"x": 2}, key="k1"),
            pipeline.Run("ch", "02-fast", fast, book / "ch", {"x": 2}, key="k2")]
    monkeypatch.setenv(forkserver.ENV, "1")
    killed = []

    def kill_the_warm_process():
        end = time.monotonic() + 120
        while not started.exists() and time.monotonic() < end:
            time.sleep(0.05)
        for pid in processes.children():
            if "models.core.forkserver" in Path(f"/proc/{pid}/cmdline").read_text():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    children, zombies = set(processes.children()), set(processes.children(exited_only=True))  # other tests' (xdist)
    killer = threading.Thread(target=kill_the_warm_process, daemon=True)
    killer.start()
    t0 = time.monotonic()
    assert pipeline.execute(runs, "quick", jobs=1, book_dir=book, report=False, force=True) == 1
    killer.join()
    assert len(killed) == 1 and time.monotonic() - t0 < 90
    out = capsys.readouterr().out
    # its status: 143 (its SIGTERM handler) when the pipeline waited for it, -9 when it was not the pipeline's to wait for
    assert re.search(r"ch/01-slow: the worker exited with status (143|-9), after the warm process it was forked from "
                     rf"\(pid {killed[0]}\) died", out), out
    assert "ch/02-fast: ok" in out
    assert set(processes.children(exited_only=True)) <= zombies  # the worker and its kernel, waited for
    assert set(processes.children()) <= children


@linux
def test_reap_waits_for_exited_children_only():
    """:func:`.processes.reap` waits for the pids named that are our children and have exited (or, with ``wait``, for
    those still running); :func:`.processes.children` lists the exited ones."""
    done = subprocess.Popen([sys.executable, "-c", "raise SystemExit(5)"])
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    end = time.monotonic() + 30
    while done.pid not in processes.children(exited_only=True) and time.monotonic() < end:
        time.sleep(0.02)
    exited = processes.children(exited_only=True)
    assert done.pid in exited and running.pid not in exited and running.pid in processes.children()
    assert processes.children({"nothing-of-that-name"}, exited_only=True) == []
    assert processes.reap([done.pid, running.pid, 1]) == {done.pid: 5}  # pid 1: not our child, left alone
    assert done.pid not in processes.children(exited_only=True)
    running.kill()
    assert processes.reap([running.pid], wait=10) == {running.pid: -signal.SIGKILL}
