"""Speed of the closed multiprocessor / MIN simulator (models.sim.closed_min).

Prints simulated cycles per second and packets moved per second (packets
sent on switch output links) for 2x2 omega networks with 64 processors
(NC = 4 and 32, S_mm = 2) and 128 processors, after a warm-up call that
compiles (or loads) the numba kernel.  Caching is off.

``--compare PATH``: the simulator found on ``PATH`` (e.g. a clone of a parent
commit) against this tree's, side by side: old and new alternate, ``--repeat``
runs each, every run in a fresh subprocess with the same case and seed; prints
the ratio new / old of the median packets per second and whether the two give
the same ``R`` and ``X`` (the kernel's results are bit for bit those of its
seed).

    python benchmarks/bench_min_sim.py [--cycles 200000] [--repeat 3] [--compare PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES = [
    dict(k=2, n=6, NC=4, S_mm=2),
    dict(k=2, n=6, NC=32, S_mm=2),
    dict(k=2, n=7, NC=4, S_mm=2),
    dict(k=2, n=7, NC=32, S_mm=2),
    dict(k=2, n=6, NC=8, S_mm=8, m=4),
]


def one(case: dict, cycles: int, seed: int = 1) -> dict:
    """Run ``case`` for ``cycles`` cycles in this process (the kernel compiled or loaded first): its speed."""
    from models.sim.closed_min import simulate

    simulate(NC=2, cycles=2_000, warmup=100, batches=2, cache=False)  # compile / load the kernel
    r = simulate(cycles=cycles, warmup=cycles // 10, cache=False, seed=seed, **case)
    return dict(N=r.params["N"], wall=r.wall_time, mpackets_per_s=r.packets_moved / r.wall_time / 1e6, R=r.R, X=r.X)


def _subprocess(path: str, case: dict, cycles: int) -> dict:
    code = (f"import json,sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_min_sim as b; "
            f"print(json.dumps(b.one({case!r}, {cycles!r})))")
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=path), cwd=path,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(path: str, cycles: int, repeat: int) -> dict:
    """Ratio new / old of the median packets per second of this tree's simulator to the one on ``path``, per case."""
    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for case in CASES:
        old, new = [], []
        for _ in range(repeat):
            old.append(_subprocess(path, case, cycles))
            new.append(_subprocess(here, case, cycles))
        med = {side: statistics.median(x["mpackets_per_s"] for x in runs)
               for side, runs in (("old", old), ("new", new))}
        same = (old[0]["R"], old[0]["X"]) == (new[0]["R"], new[0]["X"])
        label = " ".join(f"{k}={v}" for k, v in case.items())
        print(f"{label:24s} old {[round(x['mpackets_per_s'], 1) for x in old]}  "
              f"new {[round(x['mpackets_per_s'], 1) for x in new]}  M packets/s; ratio new/old of the medians "
              f"{med['new'] / med['old']:.3f}; same R and X: {same}", flush=True)
        res[label] = dict(old=med["old"], new=med["new"], ratio=med["new"] / med["old"], same=same)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per case, the fastest shown (with --compare: runs per side, the median compared)")
    ap.add_argument("--compare", default=None, help="PYTHONPATH of the simulator to compare against")
    args = ap.parse_args()
    if args.compare:
        compare(args.compare, args.cycles, max(args.repeat, 1))
        return

    from models.sim.closed_min import simulate

    t = time.perf_counter()
    simulate(NC=2, cycles=2_000, warmup=100, batches=2, cache=False)  # compile / load the kernel
    print(f"warm-up (compile or load kernel): {time.perf_counter() - t:.2f} s")
    print(f"{'N':>5} {'NC':>3} {'S_mm':>4} {'m':>2} {'cycles':>8} {'wall s':>7} {'cycles/s':>10} {'Mpackets/s':>10} "
          f"{'R':>8} {'X':>7}")
    for case in CASES:
        best = None
        for rep in range(args.repeat):
            r = simulate(cycles=args.cycles, warmup=args.cycles // 10, cache=False, seed=1 + rep, **case)
            if best is None or r.wall_time < best.wall_time:
                best = r
        r = best
        print(
            f"{r.params['N']:5d} {r.params['NC']:3d} {r.params['S_mm']:4d} {r.params['m']:2d} {r.cycles:8d} "
            f"{r.wall_time:7.2f} {r.cycles_per_second:10.0f} {r.packets_moved / r.wall_time / 1e6:10.1f} "
            f"{r.R:8.3f} {r.X:7.3f}"
        )


if __name__ == "__main__":
    main()
