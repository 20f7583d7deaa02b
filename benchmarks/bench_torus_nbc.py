"""Model curve against simulated curve: wall time of each and their ratio, measured in one run.

Run: ``python benchmarks/bench_torus_nbc.py [--k 8] [--M 32] [--messages 20000]``

For Duato-Nbc on a ``k x k`` torus with ``V = 10`` (minimum escape levels):
the one-off lambdify/table set-up, the model's saturation rate (bisection)
and latency at 5 rates (10%..90% of it), and the simulator's latency at the
same 5 rates (no cache; the numba kernel is warmed up first so compile time
is not counted).  Prints the times and ``simulation / model``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models.sim.wormhole import Torus, simulate
from models.torus_nbc import saturation_load, solve
from models.torus_nbc.solve import _f


def _fmt(t):
    return f"{t * 1e3:9.2f} ms" if t < 1 else f"{t:9.2f} s "


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--M", type=int, default=32)
    ap.add_argument("--V", type=int, default=10)
    ap.add_argument("--messages", type=int, default=20_000, help="measured messages per simulated point")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    _f()
    solve(0.0, k=args.k, M=args.M, V=args.V)
    setup = time.perf_counter() - t
    print(f"set-up (lambdify eqs 1-21, coefficient tables): {_fmt(setup)}")

    t = time.perf_counter()
    sat = saturation_load(k=args.k, M=args.M, V=args.V)
    rates = sat * np.array([0.1, 0.25, 0.5, 0.75, 0.9])
    model = [solve(float(r), k=args.k, M=args.M, V=args.V) for r in rates]
    t_model = time.perf_counter() - t
    print(f"model: saturation {sat:.6f} + 5 points            {_fmt(t_model)}  "
          f"iterations {sum(r.iterations for r in model)}")

    topo = Torus((args.k, args.k), bidirectional=True)
    kw = dict(routing="duato_nbc", vcs=args.V, message_length=args.M, messages=args.messages,
              warmup_messages=args.messages // 10)
    simulate(topo, rate=float(rates[0]), **dict(kw, messages=200, warmup_messages=20))  # load / compile the kernel
    t = time.perf_counter()
    sims = [simulate(topo, rate=float(r), **kw) for r in rates]
    t_sim = time.perf_counter() - t
    print(f"simulation: 5 points x {args.messages} messages       {_fmt(t_sim)}")
    for r, m, s in zip(rates, model, sims):
        print(f"  rate {r:.5f}: model {m.latency:8.2f}  sim {s.latency:8.2f} +- {s.latency_ci:6.2f} cycles")
    print(f"ratio simulation / model (same 5 rates; model includes its saturation search): {t_sim / t_model:,.0f}x")


if __name__ == "__main__":
    main()
