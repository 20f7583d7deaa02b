"""Timing of the Willick-Eager MVA solver (models.min_mva.solve_curve).

Run: ``python benchmarks/bench_min_mva.py [--general]``

Prints, for NC = 1..32 (2 x 2 omega, uniform traffic, S_pe = 1, S_mm = 2):
the one-off set-up (routes, visits, stage check), the curve's solve time and
the iterations, for 64 and 1024 processors; ``--general`` also times the
general (per class and center) path at 64 processors for the whole curve and
at 1024 processors for one point (NC = 4).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models.min_mva import solve, solve_curve
from models.min_mva.solve import _PREP_CACHE, _kernels


def _fmt(t):
    return f"{t * 1e3:8.1f} ms" if t < 1 else f"{t:8.2f} s "


def bench(n, method="auto", NCs=range(1, 33), S_mm=2.0):
    _PREP_CACHE.clear()
    t0 = time.perf_counter()
    solve(1, n=n, S_mm=S_mm, method=method)  # set-up (routes, visits) + first point
    t1 = time.perf_counter()
    c = solve_curve(list(NCs), n=n, S_mm=S_mm, method=method)  # set-up cached
    t2 = time.perf_counter()
    it = c.iterations
    print(
        f"N={2**n:5d} {c.results[0].method:8s} set-up+NC=1 {_fmt(t1 - t0)}  curve NC={min(NCs)}..{max(NCs)} "
        f"({len(c.NC)} pts) {_fmt(t2 - t1)}  iterations total {it.sum():6d} (max {it.max()})  "
        f"R(NC=max)={c.R[-1]:.3f}"
    )
    return c


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--general", action="store_true", help="also time the general path")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    _kernels(False), _kernels(True)
    print(f"lambdify (eqs 1-6, once per process): {_fmt(time.perf_counter() - t)}")
    a = bench(6)
    bench(10)
    if args.general:
        g = bench(6, method="general")
        print(f"  general vs reduced, N=64: max |dR| = {np.max(np.abs(g.R - a.R)):.2e}")
        _PREP_CACHE.clear()
        t = time.perf_counter()
        r = solve(4, n=10, S_mm=2.0, method="general")
        print(f"N= 1024 general  one point NC=4 (incl. set-up) {_fmt(time.perf_counter() - t)}  iterations {r.iterations}")


if __name__ == "__main__":
    main()
