"""Stopping a sweep keeps its finished work (issue #26, item 4; review I6, I7).

``python -m models.torus_dor curve --simulate --jobs 2`` on two loads: a
short point (a saturated load, which the simulator ends at once) and a long
one (millions of messages).  Once the short point is done (the sweep's
progress file says so, and a point is counted only after it is in the
cache) the command gets SIGTERM (``kill``), SIGHUP (a closed ssh session:
the process group) or SIGINT (Ctrl-C: the process group).  Each time: the
command exits within seconds with one line and no traceback, no process it
started survives, and a second run of the short point is a cache hit (it
runs with the simulator replaced by one that fails).  The same for a plain
``run_sweep`` script with a process pool (SIGTERM, Ctrl-C, SIGKILL), and
for ``--jobs 1``, where the point runs in the command's own process.

Each test takes about 10-20 s on two busy cores: the import of the
simulator in the command and its two workers is most of it.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import psutil
import pytest

from models.core import cores
from models.core.paths import ROOT

TAG = "MODELS_TEST_SIGNAL_TAG"
SHORT, LONG = 0.1, 0.01  # messages/node/cycle on the 4x4 torus: saturated (ends at once), and 20M messages (~30 s)
CURVE = ["-m", "models.torus_dor", "curve", "--radices", "4", "4", "--L", "2", "--M", "8", "--messages", "20000000"]

_STARTED: list[str] = []


def _tagged(tag: str) -> list[psutil.Process]:
    """Live (not zombie) processes whose environment carries ``TAG=tag``: the command and everything it started."""
    found = []
    for p in psutil.process_iter(["environ", "status"]):
        try:
            env = p.info["environ"] or {}
            if env.get(TAG) == tag and p.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(p)
        except (psutil.Error, OSError):
            continue
    return found


def _wait(pred, timeout: float, step: float = 0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(step)
    return pred()


@pytest.fixture(autouse=True)
def _kill_leftovers():
    """A failing test leaves no process running."""
    yield
    while _STARTED:
        for p in _tagged(_STARTED.pop()):
            try:
                p.kill()
            except psutil.Error:
                pass


@pytest.fixture(autouse=True)
def _ctrl_c_reaches_the_commands():
    """The commands start with SIGINT at its default action, as from a terminal.

    A test run started in the background of a shell without job control (``make test &`` in a script) has SIGINT
    ignored, and a child inherits an ignored signal through ``exec``: Python then leaves SIGINT ignored, and the
    command line, by design, does not catch a signal its caller ignores (``nohup``).  A Python handler in this
    process is reset to the default action in the child."""
    old = signal.getsignal(signal.SIGINT)
    if old is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if old is signal.SIG_IGN:
        signal.signal(signal.SIGINT, old)


class _Run:
    """A command in a session of its own (its own process group), tagged, with a progress file."""

    def __init__(self, args: list[str], tmp: Path, **env):
        self.tag = uuid.uuid4().hex
        _STARTED.append(self.tag)
        self.progress = tmp / f"progress-{self.tag}.jsonl"
        full = dict(os.environ, **{TAG: self.tag, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
                                   "MODELS_PROGRESS_FILE": str(self.progress), "OMP_NUM_THREADS": "1"}, **env)
        self.proc = subprocess.Popen([sys.executable, *args], cwd=tmp, env=full, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=lambda s=s, b=b: b.extend(s), daemon=True)
                        for s, b in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self.readers:
            t.start()

    def done_points(self) -> int:
        """Points the sweep reported finished (each is in the cache before it is counted)."""
        try:
            lines = self.progress.read_text().splitlines()
        except OSError:
            return 0
        return max((json.loads(line)["done"] for line in lines if line.strip()), default=0)

    def children(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.Error:
            return []

    def wait_for_first_point(self, timeout: float = 120) -> None:
        assert _wait(lambda: self.done_points() >= 1 or self.proc.poll() is not None, timeout), self.text()
        assert self.proc.poll() is None, f"finished before the signal:\n{self.text()}"

    def stop(self, sig: int, group: bool) -> float:
        """Send ``sig`` to the command (``group``: to its process group, as a terminal does); seconds until it exited."""
        t0 = time.monotonic()
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            os.kill(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=30)
        finally:
            for t in self.readers:
                t.join(timeout=5)
        return time.monotonic() - t0

    def text(self) -> str:
        return f"stdout:\n{''.join(self.out)}\nstderr:\n{''.join(self.err)}"

    def check_nothing_left(self) -> None:
        left = _wait(lambda: not _tagged(self.tag), 10) or _tagged(self.tag)
        assert left is True, f"processes left: {[(p.pid, p.cmdline()) for p in left]}\n{self.text()}"


def _cache_hit(tmp: Path, cache: Path, load: float) -> subprocess.CompletedProcess:
    """``curve --loads LOAD --simulate --jobs 1`` with every way of simulating replaced by a failure."""
    script = textwrap.dedent(f"""
        import sys
        import models.sim.sweep as sweep
        def refuse(*args, **kwargs):
            raise AssertionError("simulated again: the point was not in the cache")
        sweep._call = sweep._call_checked = refuse
        from models.core.cli import main
        from models.torus_dor.__main__ import CHAPTER
        sys.exit(main(CHAPTER, {CURVE[2:] + ['--loads', str(load), '--simulate', '--jobs', '1']!r}))
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT), MODELS_CACHE_DIR=str(cache), OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-c", script], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("sig, group", [(signal.SIGTERM, False), (signal.SIGHUP, True), (signal.SIGINT, True)],
                         ids=["SIGTERM-kill", "SIGHUP-session", "SIGINT-ctrl-c"])
def test_curve_simulate_jobs_2_stops_at_once_and_keeps_the_finished_point(tmp_path, sig, group):
    """Review I6 (SIGTERM: two pool workers orphaned for ever, 250 MB each) and I7 (Ctrl-C: 20 s, a traceback)."""
    cache = tmp_path / "cache"
    run = _Run([*CURVE, "--loads", str(SHORT), str(LONG), "--simulate", "--jobs", "2"], tmp_path,
               MODELS_CACHE_DIR=str(cache))
    run.wait_for_first_point()
    assert len(run.children()) == 2, "the two points should run in a pool of two processes"
    seconds = run.stop(sig, group)
    name = signal.Signals(sig).name
    assert run.proc.returncode == 128 + sig, run.text()
    assert seconds < 8, f"took {seconds:.1f} s to stop\n{run.text()}"
    lines = "".join(run.err).splitlines()
    assert "".join(run.out) == "" and len(lines) == 1, run.text()
    assert lines[0].startswith(f"python -m models.torus_dor curve: interrupted by {name}; "), run.text()
    assert "cached" in lines[0]
    run.check_nothing_left()
    again = _cache_hit(tmp_path, cache, SHORT)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[1].startswith(f"{SHORT},inf,True,inf,"), again.stdout


def test_curve_simulate_jobs_1_ends_at_once(tmp_path):
    """``--jobs 1``: the point runs in the command's process, in compiled code where no Python handler runs;
    a SIGTERM still ends it at once (not after the point), and the finished point is cached."""
    cache = tmp_path / "cache"
    run = _Run([*CURVE, "--loads", str(SHORT), str(LONG), "--simulate", "--jobs", "1"], tmp_path,
               MODELS_CACHE_DIR=str(cache))
    run.wait_for_first_point()
    time.sleep(0.5)  # well inside the long point
    seconds = run.stop(signal.SIGTERM, group=False)
    assert run.proc.returncode == -signal.SIGTERM, run.text()  # the default action: no Python ran
    assert seconds < 3, f"took {seconds:.1f} s to stop"
    assert "Traceback" not in run.text()
    run.check_nothing_left()
    assert _cache_hit(tmp_path, cache, SHORT).returncode == 0


#: A simulator for the script: ``spin(rounds)`` spends its time in one C call that checks no signal (as a
#: numba kernel does), then returns a plain record.
SPIN = '''
import hashlib


def spin(*, rounds: int, seed: int = 1) -> dict:
    digest = hashlib.pbkdf2_hmac("sha256", b"point", seed.to_bytes(8, "little"), rounds)
    return {"rounds": rounds, "digest": digest.hex()}
'''

SCRIPT = '''
import sys
sys.path.insert(0, {folder!r})
from spinpoints import spin
from models.sim.sweep import run_sweep
try:
    run_sweep([dict(rounds=1000), dict(rounds=10**9)], simulate_fn=spin, jobs={jobs}, progress=False)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
'''


@pytest.mark.parametrize("sig, group", [(signal.SIGTERM, False), (signal.SIGINT, True), (signal.SIGKILL, False)],
                         ids=["SIGTERM-kill", "SIGINT-ctrl-c", "SIGKILL"])
def test_run_sweep_script_with_a_pool(tmp_path, monkeypatch, sig, group):
    """Any ``run_sweep`` with a process pool: SIGTERM or SIGKILL of the script (no Python cleanup runs) and
    Ctrl-C (KeyboardInterrupt in the script) leave no worker behind, and the finished point is cached."""
    (tmp_path / "spinpoints.py").write_text(SPIN)
    cache = tmp_path / "cache"
    run = _Run(["-c", SCRIPT.format(folder=str(tmp_path), jobs=2)], tmp_path, MODELS_CACHE_DIR=str(cache))
    run.wait_for_first_point()
    assert len(run.children()) == 2
    seconds = run.stop(sig, group)
    assert seconds < 8, f"took {seconds:.1f} s to stop\n{run.text()}"
    assert "Traceback" not in run.text()
    if sig == signal.SIGINT:
        assert run.proc.returncode == 130 and "".join(run.err) == "interrupted\n", run.text()
    else:
        assert run.proc.returncode == -sig
    run.check_nothing_left()

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("MODELS_CACHE_DIR", str(cache))
    from spinpoints import spin

    from models.sim import sweep

    def refuse(*args, **kwargs):
        raise AssertionError("simulated again: the point was not in the cache")

    monkeypatch.setattr(sweep, "_call", refuse)
    (hit,) = sweep.run_sweep([dict(rounds=1000)], simulate_fn=spin, jobs=1, progress=False)
    assert hit["rounds"] == 1000


@pytest.mark.parametrize("sig, group", [(signal.SIGINT, True), (signal.SIGKILL, False)], ids=["SIGINT-ctrl-c", "SIGKILL"])
def test_a_stopped_sweep_gives_back_the_pipelines_cores(tmp_path, sig, group):
    """In a pipeline (``$MODELS_CORE_TOKENS``, ``jobs=None``: a pool as large as its cores): Ctrl-C (the sweep gives
    its tokens back) or SIGKILL (the kernel frees its locks) leaves every core free and no process behind."""
    (tmp_path / "spinpoints.py").write_text(SPIN)
    folder = cores.make_tokens(tmp_path / "cores", 2)
    run = _Run(["-c", SCRIPT.format(folder=str(tmp_path), jobs=None)], tmp_path, MODELS_CACHE_DIR=str(tmp_path / "c"),
               **{cores.TOKENS_ENV: str(folder)})
    run.wait_for_first_point()
    mine = cores.CoreTokens(folder)
    assert len(run.children()) == 2
    assert mine.try_take() is not None and mine.try_take() is None  # the long point holds the other core
    mine.close()
    run.stop(sig, group)
    assert run.proc.returncode == (130 if sig == signal.SIGINT else -sig), run.text()
    run.check_nothing_left()
    assert mine.try_take() is not None and mine.try_take() is not None  # both cores free again
    mine.close()
