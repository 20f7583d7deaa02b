"""Time of a model curve vs a simulated curve (torus_ipp), as a ratio measured in one run.

Run: ``python benchmarks/bench_torus_ipp.py [--messages 20000] [--points 8]``

For Fig. 1(a) of Min, Ferguson & Ould-Khaoua (16x16 torus, V = 3, M = 48,
IPP sources sigma = (0.2, 0.8)): the model's saturation point, then the
model and the simulator (caching off, one process) at the same ``points``
loads between 10 % and 90 % of the model's saturation load.  Prints both
times and their ratio.  The first simulation loads the compiled numba
kernel; it is run once before timing.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models.sim.wormhole import simulate
from models.torus_ipp import saturation_load, solve
from models.core.setups import Curve, SimSettings
from models.torus_ipp.experiments import paper_figure, sim_kwargs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--messages", type=int, default=20_000, help="measured messages per simulated point")
    ap.add_argument("--points", type=int, default=8, help="loads per curve")
    args = ap.parse_args(argv)
    cfg = dict(paper_figure(1).curves[0].model)
    curve = Curve("bench", model=cfg)  # no set-up overrides: one injection VC, the simulator's ejection
    solve(1e-3, **cfg)  # lambdify, symbolic cache
    simulate(**sim_kwargs(curve, 1e-3, SimSettings(messages=200, warmup_messages=50)))  # load the numba kernel
    t = time.perf_counter()
    sat = saturation_load(**cfg)
    t_sat = time.perf_counter() - t
    loads = sat * np.linspace(0.1, 0.9, args.points)
    t = time.perf_counter()
    model = [solve(float(m), **cfg) for m in loads]
    t_model = time.perf_counter() - t
    t = time.perf_counter()
    sims = [simulate(**sim_kwargs(curve, float(m), SimSettings(messages=args.messages, warmup_messages=args.messages // 5))) for m in loads]
    t_sim = time.perf_counter() - t
    print(f"Fig. 1(a): model saturation mu1 = {sat:.6f} (bisection {t_sat * 1e3:.1f} ms)")
    print(f"model curve, {args.points} points:      {t_model * 1e3:10.1f} ms  "
          f"({sum(r.iterations for r in model)} blocking-map evaluations)")
    print(f"simulated curve, {args.points} points:  {t_sim * 1e3:10.1f} ms  ({args.messages} messages per point, "
          f"{sum(s.cycles for s in sims)} cycles)")
    print(f"ratio simulation / model:  {t_sim / t_model:10.0f}")


if __name__ == "__main__":
    main()
