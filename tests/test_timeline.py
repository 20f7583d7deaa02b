"""``MODELS_TEST_TIMELINE``: the test run's timeline (tests/conftest.py) and its report (benchmarks/timeline.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import timeline  # noqa: E402

sys.path.remove(str(ROOT / "benchmarks"))

ROWS = [
    {"worker": "gw0", "test": "tests/a.py::t1", "start": 100.0, "end": 110.0, "cpu": 9.0},
    {"worker": "gw0", "test": "tests/a.py::t2", "start": 110.0, "end": 111.0, "cpu": 1.0},
    {"worker": "gw1", "test": "tests/b.py::t3", "start": 101.0, "end": 131.0, "cpu": 50.0},
]


def test_the_report_sums_each_worker_and_each_file():
    text = timeline.summary(ROWS, top=2)
    lines = text.splitlines()
    assert lines[1].split() == ["gw0", "2", "0.0", "11.0", "11.0", "10.0"]
    assert lines[2].split() == ["gw1", "1", "1.0", "31.0", "30.0", "50.0"]
    longest = lines[lines.index("the 2 longest tests (wall seconds, CPU-seconds, worker, start):") + 1:][:2]
    assert [l.split()[-1] for l in longest] == ["tests/b.py::t3", "tests/a.py::t1"]
    assert text.splitlines()[-2:] == ["    50.0  tests/b.py", "    10.0  tests/a.py"]
    assert timeline.summary([]) == "no tests in the timeline"


def test_a_cut_or_foreign_line_is_skipped(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps(ROWS[0]) + "\n" + '{"worker": "gw0", "te' + "\n" + "[1, 2]\n" + json.dumps(ROWS[2]) + "\n")
    assert timeline.read(str(f)) == [ROWS[0], ROWS[2]]


def test_the_command_line_refuses_what_it_cannot_read(tmp_path):
    script = ROOT / "benchmarks" / "timeline.py"
    proc = subprocess.run([sys.executable, str(script), str(tmp_path / "missing.jsonl")], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    proc = subprocess.run([sys.executable, str(script), "x", "--top", "0"], capture_output=True, text=True)
    assert proc.returncode == 2 and "--top must be at least 1" in proc.stderr


def test_the_conftest_writes_one_line_per_test(tmp_path):
    out = tmp_path / "t.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "MODELS_TEST_TIMELINE"))}
    env["MODELS_TEST_TIMELINE"] = str(out)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_timeline.py::test_the_report_sums_each_worker_and_each_file",
                           "tests/test_timeline.py::test_a_cut_or_foreign_line_is_skipped"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = timeline.read(str(out))
    assert [r["test"].split("::")[1] for r in rows] == ["test_the_report_sums_each_worker_and_each_file",
                                                         "test_a_cut_or_foreign_line_is_skipped"]
    assert all(r["worker"] == "main" and r["end"] >= r["start"] and r["cpu"] >= 0 for r in rows)


def test_a_pytest_run_started_by_a_test_is_not_in_the_timeline(tmp_path):
    """A test that runs pytest itself (the new-chapter test does) inherits the variable; its tests would be
    counted twice, inside the test that started them.  The run started first marks the environment, and a run
    that finds the mark writes nothing."""
    out = tmp_path / "t.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "MODELS_TEST_TIMELINE"))}
    env.update(MODELS_TEST_TIMELINE=str(out), MODELS_TEST_TIMELINE_TOP="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_timeline.py::test_a_cut_or_foreign_line_is_skipped"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert not out.exists()

