"""What compiling a wormhole kernel costs, and what the project's liveness analysis saves of it (:mod:`.liveness`).

``python benchmarks/bench_compile.py [--router ideal|booksim ...]``

Each router's kernel is compiled in a child process of its own, on an empty numba cache (a temporary
``NUMBA_CACHE_DIR``), by the first ``simulate`` of a 4x4 torus.  Every time numba asks for the variables live in
each block (``numba.core.analysis.compute_live_map``), the child answers with both functions, numba's own and the
project's, on the same arguments, timing each (CPU-seconds) and comparing the two answers: the same blocks in the
same order, the same set of names for each.  So the two are timed in one process, on the same inputs, within the same
hour, whatever else the machine runs.  Printed per router: the first ``simulate``'s CPU-seconds (both functions run),
the calls (and the blocks and variables of the largest), the CPU-seconds in each function, whether every answer was
the same, and the compile's CPU-seconds with each function alone (the total less the other's time).  With ``--asm``,
another child compiles each kernel with numba's function alone, and the two kernels' machine code (``inspect_asm``)
is compared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import hashlib, json, sys, time
from numba.core import analysis
from models.sim.wormhole import Torus, booksim_kernel, kernel, liveness, simulate, steps

assert steps.FASTER_LIVENESS
numbas, ours = liveness._original, liveness.compute_live_map
out = dict(calls=0, numbas=0.0, ours=0.0, same=True, blocks=0, names=0)


def both(cfg, blocks, var_use_map, var_def_map):
    t0 = time.process_time()
    a = numbas(cfg, blocks, var_use_map, var_def_map)
    t1 = time.process_time()
    b = ours(cfg, blocks, var_use_map, var_def_map)
    t2 = time.process_time()
    out["calls"] += 1
    out["numbas"] += t1 - t0
    out["ours"] += t2 - t1
    out["same"] &= a == b and list(a) == list(b)
    if len(blocks) > out["blocks"]:  # the largest call: its blocks and variables
        out["blocks"] = len(blocks)
        out["names"] = len(set().union(*var_use_map.values(), *var_def_map.values()))
    return b


analysis.compute_live_map = both if sys.argv[2] == "both" else numbas
t0 = time.process_time()
simulate(Torus((4, 4)), routing="dor", vcs=4, message_length=8, rate=0.001, router=sys.argv[1], messages=200,
         warmup_messages=20)
out["total"] = time.process_time() - t0
run = booksim_kernel.run if sys.argv[1] == "booksim" else kernel.run
out["asm"] = hashlib.sha256("".join(run.inspect_asm().values()).encode()).hexdigest()
print(json.dumps(out))
"""


def measure(router: str, mode: str = "both") -> dict:
    """One child compiling ``router``'s kernel on an empty numba cache (module docstring), with both functions
    (``mode="both"``, the project's answering) or numba's alone (``"numbas"``)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        env.pop("MODELS_SIM_CHECKS", None)
        env.pop("MODELS_SIM_PROFILE", None)
        proc = subprocess.run([sys.executable, "-c", _CHILD, router, mode], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--router", nargs="+", default=["booksim", "ideal"], choices=["booksim", "ideal"])
    ap.add_argument("--asm", action="store_true", help="also compile with numba's function alone and compare the code")
    args = ap.parse_args(argv)
    print("router   first simulate  calls (the largest)             numba's   ours    same   "
          "compile with numba's -> ours")
    for router in args.router:
        r = measure(router)
        print(f"{router:8} {r['total']:10.2f} s  {r['calls']:6} ({r['blocks']} blocks, {r['names']} variables)"
              f" {r['numbas']:7.2f} s"
              f" {r['ours']:6.2f} s  {str(r['same']):5}  {r['total'] - r['ours']:6.2f} s"
              f" -> {r['total'] - r['numbas']:.2f} s")
        if args.asm:
            same = measure(router, "numbas")["asm"] == r["asm"]
            print(f"{router:8} machine code with numba's function alone: {'the same' if same else 'DIFFERENT'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
