"""What a wormhole kernel executes per flit-hop, counted rather than timed: instructions, conditional branches and
mispredicted branches, from Valgrind's cachegrind.

``python benchmarks/count_kernel.py [--config NAME] [--router ideal|booksim] [--messages N1 N2] [--compare PATH]``

Timings on a shared virtual machine move by 10-30 % from run to run (``bench_wormhole.py --compare`` medians of three
runs a side disagree by more than most kernel changes gain).  Counts do not: cachegrind executes the program on a
simulated processor and counts every instruction, with a simple model of the branch predictor (its mispredictions
are that model's, not the real processor's, but they move with the kernel's).  So a kernel change can be judged the
same hour, on any machine, by what it executes.

How: one configuration of :mod:`bench_wormhole` runs twice under ``valgrind --tool=cachegrind --branch-sim=yes``, with
``N1`` and ``N2`` measured messages (same seed, so the longer run continues the shorter one), each in a fresh process
that first loads the compiled kernel on a tiny case.  numba's compiled code has no symbols, so cachegrind puts it under
``???``; the counts there in the long run minus those in the short one, divided by the flit-hops between them, are
the kernel's per flit-hop (the imports, set-up, loading the kernel and the tiny case are the same in both runs and
cancel).  Under Valgrind numba sees another processor and compiles its own cached kernel: a warm-up process does
that first (minutes, once per tree), so that neither measured run compiles.  ``--compare PATH`` counts the simulator
on ``PATH`` (e.g. a clone of the parent commit) too, and prints the ratios new / old.  Two runs of the same tree agree
to a few thousand instructions in hundreds of millions.

Needs ``valgrind`` (Debian's ``valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: cachegrind's events with ``--branch-sim=yes --cache-sim=no``: instructions, conditional branches and their
#: mispredictions, indirect branches and their mispredictions
EVENTS = ("Ir", "Bc", "Bcm", "Bi", "Bim")


def jit_counts(path) -> dict:
    """The counts of a cachegrind output file's code without symbols (file ``???``, function ``???``): numba's
    compiled code, and any other unnamed code (the same in both runs, so it cancels in :func:`per_flit_hop`)."""
    tot = dict.fromkeys(EVENTS, 0)
    events = EVENTS
    fl, on = None, False
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = tuple(line.split()[1:])
            elif line.startswith("fl="):
                fl, on = line[3:].strip(), False
            elif line.startswith("fn="):
                on = fl == "???" and line[3:].strip() == "???"
            elif on and line[:1].isdigit():
                for name, value in zip(events, line.split()[1:]):
                    if name in tot:
                        tot[name] += int(value)
    return tot


def per_flit_hop(short: dict, long: dict, hops_short: int, hops_long: int) -> dict:
    """The counts per flit-hop between two runs: ``(long - short) / (hops_long - hops_short)`` for each event."""
    if hops_long <= hops_short:
        raise ValueError(f"the long run must move more flits than the short one; got {hops_short} and {hops_long}")
    return {k: (long[k] - short[k]) / (hops_long - hops_short) for k in EVENTS}


def child(name: str, router: str, messages: int) -> None:
    """Load the kernel on a tiny case, then run ``name`` with ``messages`` measured messages; print its flit-hops."""
    sys.path.insert(0, str(HERE))
    import bench_wormhole as b
    from models.sim.wormhole import Torus, simulate

    cfg = b.CONFIGS[name]
    kw = dict(cfg["kw"], **b._own_load(name, router))
    simulate(Torus((4,) * len(cfg["radices"]), bidirectional=cfg["bidirectional"]), **dict(kw, rate=0.001),
             messages=50, warmup_messages=5)
    r = simulate(Torus(cfg["radices"], bidirectional=cfg["bidirectional"]), **kw, messages=messages,
                 warmup_messages=1000, seed=1)
    print(json.dumps({"flit_hops": r.flit_hops}))


def _valgrind(path: str, name: str, router: str, messages: int, out: Path) -> int:
    """One run of :func:`child` under cachegrind with the simulator on ``path``: its flit-hops."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes", f"--cachegrind-out-file={out}",
           sys.executable, __file__, "--child", str(messages), "--config", name, "--router", router]
    done = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=path), cwd=path, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"valgrind failed on {path}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["flit_hops"]


def count(path: str, name: str, router: str, messages: tuple) -> dict:
    """The kernel's counts per flit-hop with the simulator on ``path`` (module docstring)."""
    with tempfile.TemporaryDirectory(prefix="count-kernel-") as tmp:
        out = Path(tmp)
        _valgrind(path, name, router, 100, out / "warm.out")  # compiles for Valgrind's processor, once per tree
        runs = [(_valgrind(path, name, router, m, out / f"{m}.out"), jit_counts(out / f"{m}.out")) for m in messages]
    (hs, cs), (hl, cl) = runs
    return per_flit_hop(cs, cl, hs, hl)


def _line(label: str, c: dict) -> str:
    return (f"{label}: {c['Ir']:.1f} instructions, {c['Bc']:.2f} conditional branches ({c['Bcm']:.2f} mispredicted), "
            f"{c['Bi']:.3f} indirect ({c['Bim']:.3f} mispredicted) per flit-hop")


def main(name: str, router: str, messages: tuple, compare_with: str | None) -> dict:
    sys.path.insert(0, str(HERE))
    import bench_wormhole as b

    if name not in b.CONFIGS:
        raise SystemExit(f"--config must name a configuration of {sorted(b.CONFIGS)}; got {name!r}")
    if router not in b._routers_of(name, (router,)):
        raise SystemExit(f"{name} runs the ideal router only")
    if not (len(messages) == 2 and 0 < messages[0] < messages[1]):
        raise SystemExit(f"--messages must be two message counts, the first the smaller; got {list(messages)}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: valgrind)")
    new = count(str(HERE.parent), name, router, messages)
    print(_line(f"{name} {router}, this tree", new), flush=True)
    res = {"new": new}
    if compare_with:
        old = count(compare_with, name, router, messages)
        print(_line(f"{name} {router}, {compare_with}", old))
        print("ratios new / old: " + ", ".join(f"{k} {new[k] / old[k]:.3f}" for k in ("Ir", "Bc", "Bcm") if old[k]))
        res["old"] = old
    return res


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="8x8-50")
    ap.add_argument("--router", default="ideal", choices=("ideal", "booksim"))
    ap.add_argument("--messages", type=int, nargs=2, default=(2000, 12000))
    ap.add_argument("--compare", default=None, help="PYTHONPATH of the simulator to compare against")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        child(a.config, a.router, a.child)
    else:
        main(a.config, a.router, tuple(a.messages), a.compare)
