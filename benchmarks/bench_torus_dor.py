"""Model vs simulation: time of one latency curve, measured in one run, as a ratio.

Configuration: the paper's Fig. 2 network, 16x16 unidirectional torus, L = 5,
M = 32 flits, 8 loads from 10% to 80% of the model's saturation load.  The
model curve is :func:`models.torus_dor.solve` at every load plus the
saturation bisection; the simulated curve is :func:`models.sim.wormhole.simulate`
(no cache) at the same loads with 120,000 measured messages after 10,000
(``--quick``: 20,000 after 2,000).  The first simulator call, which loads /
compiles the kernel, and the first model call, which builds the lambdified
functions, are timed separately and excluded.

Run: ``python benchmarks/bench_torus_dor.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models.sim.wormhole import Torus, simulate
from models.torus_dor import saturation_load, solve


def main(quick: bool = False) -> dict:
    radices, L, M = (16, 16), 5, 32
    t0 = time.perf_counter()
    solve(1e-4, radices=radices, L=L, M=M)
    warm_model = time.perf_counter() - t0
    t0 = time.perf_counter()
    simulate(Torus((4, 4), bidirectional=False), routing="dor", vcs=L, message_length=M, rate=0.001,
             messages=200, warmup_messages=20)
    warm_sim = time.perf_counter() - t0

    t0 = time.perf_counter()
    sat = saturation_load(radices=radices, L=L, M=M)
    rates = np.linspace(0.1, 0.8, 8) * sat
    model = [solve(r, radices=radices, L=L, M=M).latency for r in rates]
    t_model = time.perf_counter() - t0

    n, w = (20_000, 2_000) if quick else (120_000, 10_000)
    topo = Torus(radices, bidirectional=False)
    t0 = time.perf_counter()
    sim = [simulate(topo, routing="dor", vcs=L, message_length=M, rate=r, messages=n, warmup_messages=w).latency
           for r in rates]
    t_sim = time.perf_counter() - t0
    print(f"16x16 torus, L={L}, M={M}, loads {rates[0]:.2e}..{rates[-1]:.2e} (8 points); model saturation {sat:.3e}")
    for r, m, s in zip(rates, model, sim):
        print(f"  rate {r:.3e}: model {m:8.2f}  sim {s:8.2f}  ({(m - s) / s:+.1%})")
    print(f"model curve (8 loads + saturation bisection): {t_model:.3f} s   [first call {warm_model:.2f} s]")
    print(f"simulated curve ({n} messages per load):      {t_sim:.2f} s   [kernel load {warm_sim:.2f} s]")
    print(f"==> simulation / model time ratio: {t_sim / t_model:.0f}x")
    return dict(model_s=t_model, sim_s=t_sim, ratio=t_sim / t_model)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="20,000 measured messages per load")
    main(p.parse_args().quick)
