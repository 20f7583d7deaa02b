"""Speed of the wormhole simulator: flit-hops per second on one core.

Configuration (issue #3): 16x16 unidirectional torus, dimension-order routing
with L = 3 virtual channels, M = 32 flits, buffers of 2 flits, at about half
the saturation load (accepted throughput saturates near 0.0016
messages/node/cycle; the benchmark runs 0.0008), paper scale: 120,000
measured messages after 10,000 discarded.

Flit-hops = flits moved across network channels plus ejection channels.
Compile time is excluded (a small run first loads / compiles the kernel).

It also prints where the time goes, from the kernel's own counters and from
two extra runs: the cost of an idle cycle (near-zero load) and the cost per
header routing attempt / per channel visit at the benchmark load.

Run: ``python benchmarks/bench_wormhole.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

from models.sim.wormhole import Torus, simulate


def main(quick: bool = False) -> dict:
    topo = Torus((16, 16), bidirectional=False)
    base = dict(routing="dor", vcs=3, message_length=32, buffer_depth=2)
    t0 = time.perf_counter()
    simulate(Torus((4, 4), bidirectional=False), **base, rate=0.001, messages=200, warmup_messages=20)
    compile_s = time.perf_counter() - t0

    n, w = (20_000, 2_000) if quick else (120_000, 10_000)
    t0 = time.perf_counter()
    r = simulate(topo, **base, rate=0.0008, messages=n, warmup_messages=w, seed=1)
    total = time.perf_counter() - t0
    rate = r.flit_hops / r.wall_time
    print(f"load 0.0008 msg/node/cycle ({n} measured after {w}): latency {r.latency:.2f} "
          f"+- {r.latency_ci:.2f}, accepted {r.throughput:.6f}, utilisation {r.channel_utilisation:.3f}, "
          f"V-bar {r.multiplexing:.3f}")
    print(f"cycles {r.cycles:,}  flit-hops {r.flit_hops:,}  kernel {r.wall_time:.2f} s  "
          f"(whole call {total:.2f} s; first-call load/compile {compile_s:.1f} s)")
    print(f"==> {rate / 1e6:.1f} million flit-hops per second (one core)")
    per_cycle_us = r.wall_time / r.cycles * 1e6
    print(f"    {per_cycle_us:.2f} us per cycle, {r.flit_hops / r.cycles:.1f} flit-hops per cycle, "
          f"{r.wall_time / r.flit_hops * 1e9:.1f} ns per flit-hop")

    wk = r.work
    print(f"    per cycle: {wk['channel_visits'] / r.cycles:.0f} busy-channel visits (of {topo.n_channels + 2 * topo.n_nodes} channels), "
          f"{wk['routing_attempts'] / r.cycles:.1f} header routing attempts")
    # idle cost: near-zero load, same network
    z = simulate(topo, **base, rate=1e-5, messages=2000, warmup_messages=0)
    idle_ns = z.wall_time / z.cycles * 1e9
    print(f"near-zero load: {z.wall_time / z.cycles * 1e9:.0f} ns per cycle "
          f"(fixed per-cycle overhead: generation, list scans, histogram)")
    return dict(flit_hops_per_s=rate, wall=r.wall_time, cycles=r.cycles, idle_ns=idle_ns)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    main(ap.parse_args().quick)
