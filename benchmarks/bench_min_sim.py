"""Speed of the closed multiprocessor / MIN simulator (models.sim.closed_min).

Prints simulated cycles per second and packets moved per second (packets
sent on switch output links) for 2x2 omega networks with 64 processors
(NC = 4 and 32, S_mm = 2) and 128 processors, after a warm-up call that
compiles (or loads) the numba kernel.  Caching is off.

    python benchmarks/bench_min_sim.py [--cycles 200000]
"""

from __future__ import annotations

import argparse
import time

from models.sim.closed_min import simulate

CASES = [
    dict(k=2, n=6, NC=4, S_mm=2),
    dict(k=2, n=6, NC=32, S_mm=2),
    dict(k=2, n=7, NC=4, S_mm=2),
    dict(k=2, n=7, NC=32, S_mm=2),
    dict(k=2, n=6, NC=8, S_mm=8, m=4),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest is shown")
    args = ap.parse_args()

    t = time.perf_counter()
    simulate(NC=2, cycles=2_000, warmup=100, batches=2, cache=False)  # compile / load the kernel
    print(f"warm-up (compile or load kernel): {time.perf_counter() - t:.2f} s")
    print(f"{'N':>5} {'NC':>3} {'S_mm':>4} {'m':>2} {'cycles':>8} {'wall s':>7} {'cycles/s':>10} {'Mpackets/s':>10} {'R':>8} {'X':>7}")
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
