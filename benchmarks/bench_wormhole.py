"""Speed of the wormhole simulator: flit-hops per CPU-second (process time, one core).

Configurations (issue #12):

* ``bidir``: bidirectional 16x16 torus, dimension-order routing, 4 VCs of 8
  flits, M = 32 flits, at about half the saturation load (0.0036 of about
  0.0073 messages/node/cycle);
* ``torus_dor``: the unidirectional 16x16 configuration of the torus_dor
  paper (3 VCs, buffers of 2 flits, M = 32) at 0.0008 (saturation near
  0.0016).

Flit-hops = flits moved across network channels plus ejection channels.
Compile / load time is excluded (a small run first), and the time is the
process (CPU) time of the ``simulate`` call, not wall time, so a loaded
machine does not change the number much.

``--compare PATH`` runs the same configurations with the simulator found on
``PATH`` (e.g. a worktree of an older commit; ``tie='plus'`` is used so both
simulate the same network), alternating old and new ``--repeat`` times each,
every run in a fresh subprocess, and prints the ratio of the medians.

``--router ideal --router booksim`` measures both router models on each
configuration (the booksim preset has a different, longer pipeline, so the
same rate is a lower relative load for it; the cost is per flit-hop),
alternating them ``--repeat`` times each, and prints the ratio of the median
CPU times per flit-hop, booksim / ideal (issue #12 asks <= 1.5).

Run: ``python benchmarks/bench_wormhole.py [--quick] [--compare PATH] [--repeat 3]
[--router ideal --router booksim]``.
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

CONFIGS = {
    "bidir": dict(radices=(16, 16), bidirectional=True, kw=dict(routing="dor", vcs=4, message_length=32,
                                                                 buffer_depth=8, rate=0.0036)),
    "torus_dor": dict(radices=(16, 16), bidirectional=False, kw=dict(routing="dor", vcs=3, message_length=32,
                                                                      buffer_depth=2, rate=0.0008)),
}


def one(name: str, quick: bool, extra: dict) -> dict:
    """Run one configuration in this process; CPU seconds of the measured call."""
    from models.sim.wormhole import Torus, simulate

    cfg = CONFIGS[name]
    topo = Torus(cfg["radices"], bidirectional=cfg["bidirectional"])
    kw = dict(cfg["kw"], **extra)
    small = dict(kw, rate=0.001)
    simulate(Torus((4, 4), bidirectional=cfg["bidirectional"]), **small, messages=200, warmup_messages=20)
    n, w = (20_000, 2_000) if quick else (120_000, 10_000)
    c0 = time.process_time()
    r = simulate(topo, **kw, messages=n, warmup_messages=w, seed=1)
    cpu = time.process_time() - c0
    return dict(config=name, cpu=cpu, flit_hops=r.flit_hops, cycles=r.cycles, latency=r.latency,
                mhops_per_cpu_s=r.flit_hops / cpu / 1e6, work={k: v / r.cycles for k, v in r.work.items()
                                                                 if k not in ("generated", "delivered")})


def _subprocess(path: str, name: str, quick: bool, extra: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=path)
    code = (f"import json,sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_wormhole as b; "
            f"print(json.dumps(b.one({name!r}, {quick!r}, {extra!r})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=path, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(quick: bool = False, compare: str | None = None, repeat: int = 3, routers=("ideal",)) -> dict:
    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for name in CONFIGS:
        if compare:
            old, new = [], []
            for _ in range(repeat):
                old.append(_subprocess(compare, name, quick, {}))
                new.append(_subprocess(here, name, quick, {"tie": "plus"}))
            mo = statistics.median(x["mhops_per_cpu_s"] for x in old)
            mn = statistics.median(x["mhops_per_cpu_s"] for x in new)
            print(f"{name:10s} old {[round(x['mhops_per_cpu_s'], 2) for x in old]}  "
                  f"new {[round(x['mhops_per_cpu_s'], 2) for x in new]}  M flit-hops/CPU-s; "
                  f"ratio new/old {mn / mo:.2f}  (same run: latency {old[0]['latency']:.3f} vs {new[0]['latency']:.3f})")
            res[name] = dict(old=mo, new=mn, ratio=mn / mo)
            continue
        runs = {router: [] for router in routers}
        for _ in range(repeat):  # the routers alternated, ``repeat`` runs each
            for router in routers:
                extra = {} if router == "ideal" else {"router": router}
                if router == "booksim" and CONFIGS[name]["kw"]["vcs"] % 2:
                    # BookSim's torus DOR splits the VCs into two dateline halves: an even count is needed
                    extra["vcs"] = CONFIGS[name]["kw"]["vcs"] + 1
                runs[router].append(_subprocess(here, name, quick, extra))
        for router in routers:
            rs = runs[router]
            r = sorted(rs, key=lambda x: x["mhops_per_cpu_s"])[len(rs) // 2]  # the median run
            if router == "booksim" and CONFIGS[name]["kw"]["vcs"] % 2:
                print(f"{name:10s} router=booksim uses vcs={CONFIGS[name]['kw']['vcs'] + 1} (even VC count needed)")
            per = ", ".join(f"{k} {v:.1f}" for k, v in r["work"].items())
            print(f"{name:10s} router={router:8s} {r['mhops_per_cpu_s']:.2f} M flit-hops per CPU-second (median of "
                  f"{[round(x['mhops_per_cpu_s'], 2) for x in rs]}; {r['flit_hops']:,} flit-hops, {r['cycles']:,} cycles, "
                  f"{r['cpu']:.2f} s; latency {r['latency']:.2f}; per cycle: {per})")
            res[(name, router)] = r
        if "ideal" in routers and "booksim" in routers:
            ratio = res[(name, "ideal")]["mhops_per_cpu_s"] / res[(name, "booksim")]["mhops_per_cpu_s"]
            print(f"{name:10s} booksim / ideal CPU time per flit-hop: {ratio:.2f} (issue #12 bound: 1.5)")
            res[(name, "ratio")] = ratio
    return res


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--compare", default=None, help="PYTHONPATH of the simulator to compare against")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--router", action="append", default=None)
    a = ap.parse_args()
    main(a.quick, a.compare, a.repeat, tuple(a.router or ["ideal"]))
