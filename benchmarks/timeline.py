"""Where a test run's time goes: ``MODELS_TEST_TIMELINE=t.jsonl make test``, then ``python benchmarks/timeline.py``.

The second command takes the file's name: ``python benchmarks/timeline.py t.jsonl``.

``tests/conftest.py`` appends one JSON line per test to the file named by
``MODELS_TEST_TIMELINE`` (its xdist worker, id, start, end, and the CPU-seconds
its worker and the worker's children used meanwhile).  This prints, per
worker, its tests, when its first test started and its last ended (seconds
from the run's first test), the time it was running a test and their
CPU-seconds; then the ``--top`` tests by wall time and the test files by
CPU-seconds.  A worker busy much less than the others, or CPU-seconds well
below twice the wall time on two cores, is time the run leaves idle.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys


def read(path: str) -> list[dict]:
    """The timeline's records (lines that are not JSON records are skipped, e.g. a line cut by a killed run)."""
    rows = []
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and {"worker", "test", "start", "end", "cpu"} <= set(r):
                rows.append(r)
    return rows


def summary(rows: list[dict], top: int = 15) -> str:
    """The report described in the module docstring, as text."""
    if not rows:
        return "no tests in the timeline"
    t0 = min(r["start"] for r in rows)
    out = [f"{'worker':8} {'tests':>6} {'first':>8} {'last':>8} {'busy':>8} {'CPU':>8}  (seconds)"]
    by_worker = collections.defaultdict(list)
    for r in rows:
        by_worker[r["worker"]].append(r)
    for w, rs in sorted(by_worker.items()):
        out.append(f"{w:8} {len(rs):6d} {min(r['start'] for r in rs) - t0:8.1f} {max(r['end'] for r in rs) - t0:8.1f} "
                   f"{sum(r['end'] - r['start'] for r in rs):8.1f} {sum(r['cpu'] for r in rs):8.1f}")
    out.append(f"\nthe {top} longest tests (wall seconds, CPU-seconds, worker, start):")
    for r in sorted(rows, key=lambda r: r["start"] - r["end"])[:top]:
        out.append(f"{r['end'] - r['start']:8.1f} {r['cpu']:8.1f}  {r['worker']:6} {r['start'] - t0:7.1f}  {r['test']}")
    files = collections.Counter()
    for r in rows:
        files[r["test"].split("::")[0]] += r["cpu"]
    out.append(f"\nthe {top} test files with the most CPU-seconds (of {sum(files.values()):.1f}):")
    out += [f"{c:8.1f}  {f}" for f, c in files.most_common(top)]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/timeline.py", description=__doc__.splitlines()[0])
    parser.add_argument("timeline", help="the file MODELS_TEST_TIMELINE named")
    parser.add_argument("--top", type=int, default=15, help="tests and files listed (default 15)")
    args = parser.parse_args(argv)
    if args.top < 1:
        parser.error("--top must be at least 1")
    try:
        rows = read(args.timeline)
    except OSError as e:
        parser.error(f"cannot read {args.timeline}: {e.strerror}")
    print(summary(rows, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
