"""What a wormhole kernel executes per flit-hop, counted rather than timed: instructions, conditional branches and
mispredicted branches, from Valgrind's cachegrind.

``python benchmarks/count_kernel.py [--config NAME] [--router ideal|booksim] [--messages N1 N2] [--compare PATH]
[--cache] [--annotate FILE] [--top N]``

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
to a few thousand instructions in hundreds of millions.  ``--cache`` adds cachegrind's cache model (:data:`CACHE`: a
first-level data cache of 32 KiB, the L1 of every processor measured here, and a last level of 512 KiB, at most the
L2 per core of those; a first-level instruction cache of 32 KiB): data reads and writes and their misses per
flit-hop, at both levels, and the instruction fetches that miss the first level (the runs take about twice
as long); ``--l1 BYTES,WAYS`` models another first level (e.g. ``49152,12``, a 48 KiB 12-way L1).

``--annotate FILE`` counts each instruction of the compiled ``run`` instead (this tree only): the same two runs under
Valgrind's callgrind with ``--dump-instr=yes --branch-sim=yes``, which keeps the counts of code without symbols by
address, its mispredictions too; each child saves the kernel's entry address and machine code
(:func:`perf_kernel.save_code`), so the addresses become offsets into ``run`` and the difference of the two runs,
divided by the flit-hops between them, is each instruction's executions per flit-hop.  Printed: the total, the
instructions that read or write the stack (spilled values: operands ``[rsp...]``), the 256-byte regions, and the
``--top`` basic blocks (runs of consecutive instructions executed equally often) by instructions per flit-hop, then
the mispredicted branches per flit-hop and the ``--top`` branches by mispredictions (where the branch-free forms of
DESIGN.md could still pay); the whole disassembly, each instruction with its executions and mispredictions per
flit-hop, goes to ``FILE`` (a new file).  With ``--cache``, callgrind's cache model too (:data:`CACHE`): the
first-level data cache misses per flit-hop, the ``--top`` instructions by misses, and each instruction's in ``FILE``
(the third column).  The profiled build's phases (``bench_wormhole.py --phases``) name the
regions: everything is inlined into ``run``.

Needs ``valgrind`` (Debian's ``valgrind``), and ``objdump`` (``binutils``) for ``--annotate``.
"""

from __future__ import annotations

import argparse
import collections
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
#: with ``--cache``, also: data reads and writes, their first-level misses and their last-level misses, and the
#: first-level instruction cache's misses
CACHE_EVENTS = ("Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw", "I1mr")
#: cachegrind's caches with ``--cache`` (size, associativity, line size): an L1 data cache, an L2 and an L1
#: instruction cache
CACHE = ("--D1=32768,8,64", "--LL=524288,8,64", "--I1=32768,8,64")


def cache_model(l1: str | None = None) -> tuple:
    """Valgrind's cache options: :data:`CACHE`, or with ``l1`` (``"BYTES,WAYS"``, ``--l1``) another first-level data
    cache of 64-byte lines (e.g. ``49152,12``: the 48 KiB, 12-way L1 of some processors), to see how the misses
    depend on its size."""
    if l1 is None:
        return CACHE
    parts = l1.split(",")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"--l1 must be BYTES,WAYS (e.g. 49152,12); got {l1!r}")
    size, ways = (int(p) for p in parts)
    sets = size // (64 * ways) if ways else 0
    if sets < 1 or size != sets * 64 * ways or sets & (sets - 1):
        raise ValueError(f"--l1 {l1}: BYTES must be WAYS x 64 x a power of two (cachegrind's rule)")
    return (f"--D1={size},{ways},64", *CACHE[1:])


def jit_counts(path, keys=EVENTS) -> dict:
    """The counts ``keys`` of a cachegrind output file's code without symbols (file ``???``, function ``???``): numba's
    compiled code, and any other unnamed code (the same in both runs, so it cancels in :func:`per_flit_hop`)."""
    tot = dict.fromkeys(keys, 0)
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


def per_flit_hop(short: dict, long: dict, hops_short: int, hops_long: int, keys=EVENTS) -> dict:
    """The counts per flit-hop between two runs: ``(long - short) / (hops_long - hops_short)`` for each of ``keys``
    (the events, or with :func:`annotate` the instructions' offsets; one missing from ``short`` counts 0)."""
    if hops_long <= hops_short:
        raise ValueError(f"the long run must move more flits than the short one; got {hops_short} and {hops_long}")
    return {k: (long[k] - short.get(k, 0)) / (hops_long - hops_short) for k in keys}


def child(name: str, router: str, messages: int, save: str | None = None) -> None:
    """Load the kernel on a tiny case (and with ``save``, write its code and address into that folder), then run
    ``name`` with ``messages`` measured messages; print its flit-hops."""
    sys.path.insert(0, str(HERE))
    import bench_wormhole as b
    from models.sim.wormhole import Torus, simulate

    cfg = b.CONFIGS[name]
    kw = dict(cfg["kw"], **b._own_load(name, router))
    simulate(Torus((4,) * len(cfg["radices"]), bidirectional=cfg["bidirectional"]), **dict(kw, rate=0.001),
             messages=50, warmup_messages=5)
    if save:
        import perf_kernel

        perf_kernel.save_code(router, Path(save))
    r = simulate(Torus(cfg["radices"], bidirectional=cfg["bidirectional"]), **kw, messages=messages,
                 warmup_messages=1000, seed=1)
    print(json.dumps({"flit_hops": r.flit_hops}))


def _valgrind(path: str, name: str, router: str, messages: int, out: Path, save: Path | None = None,
              cache: tuple = ()) -> int:
    """One run of :func:`child` under cachegrind with the simulator on ``path``: its flit-hops (with ``cache``, the
    options of :func:`cache_model`, its cache model on).  With ``save`` (a folder), under callgrind with each
    instruction's counts kept (its cache model too, with ``cache``), the child saving the kernel's code there."""
    sim = ["--cache-sim=yes", *cache] if cache else ["--cache-sim=no"]
    tool = (["--tool=callgrind", "--dump-instr=yes", "--branch-sim=yes", *sim, f"--callgrind-out-file={out}"] if save
            else ["--tool=cachegrind", *sim, "--branch-sim=yes", f"--cachegrind-out-file={out}"])
    cmd = (["valgrind"] + tool + [sys.executable, __file__, "--child", str(messages), "--config", name, "--router",
                                  router] + (["--save", str(save)] if save else []))
    done = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=path), cwd=path, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"valgrind failed on {path}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["flit_hops"]


def count(path: str, name: str, router: str, messages: tuple, cache: tuple = ()) -> dict:
    """The kernel's counts per flit-hop with the simulator on ``path`` (module docstring; with ``cache``, the options
    of :func:`cache_model`, the :data:`CACHE_EVENTS` too)."""
    keys = EVENTS + CACHE_EVENTS if cache else EVENTS
    with tempfile.TemporaryDirectory(prefix="count-kernel-") as tmp:
        out = Path(tmp)
        _valgrind(path, name, router, 100, out / "warm.out")  # compiles for Valgrind's processor, once per tree
        runs = [(_valgrind(path, name, router, m, out / f"{m}.out", cache=cache), jit_counts(out / f"{m}.out", keys))
                for m in messages]
    (hs, cs), (hl, cl) = runs
    return per_flit_hop(cs, cl, hs, hl, keys=keys)


def _position(field: str, last: int) -> int:
    """A callgrind position: absolute (decimal or ``0x`` hex), relative to the last one (``+n``, ``-n``), or the
    same (``*``)."""
    if field == "*":
        return last
    if field[0] in "+-":
        return last + int(field, 0)
    return int(field, 0)


def instruction_counts(path, addr: int, size: int, event: str = "Ir") -> collections.Counter:
    """The executions (event ``Ir``; or another of the file's events, e.g. ``Bcm``, its mispredictions) of each
    instruction at ``addr .. addr + size - 1`` in the callgrind output file ``path`` (``--dump-instr=yes``), by offset
    from ``addr``: the self cost lines, whatever function they are filed under; a call's inclusive cost (the line
    after ``calls=``) is not the caller's own."""
    positions = ["line"]
    col = 0  # the event's column among the costs
    counts = collections.Counter()
    last = {}
    after_call = False
    with open(path) as f:
        for line in f:
            if line.startswith("positions:"):
                positions = line.split()[1:]
            elif line.startswith("events:"):
                col = line.split()[1:].index(event)
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                pos = {}
                for name, field in zip(positions, fields):
                    pos[name] = last[name] = _position(field, last.get(name, 0))
                if after_call:
                    after_call = False
                    continue
                costs = fields[len(positions):]
                off = pos.get("instr", -1) - addr
                if 0 <= off < size and len(costs) > col:
                    counts[off] += int(costs[col])
    return counts


def blocks(per: dict, lines: dict) -> list:
    """The basic blocks of the annotated code: runs of consecutive instructions (``lines``' offsets, in order) with
    the same executions per flit-hop ``per[offset]`` (rounded to 0.01; unexecuted ones left out), as ``(first
    offset, executions, instructions)``, in order."""
    out = []
    prev = None  # the executions of the instruction before, rounded
    for off in sorted(lines):
        k = round(per.get(off, 0.0), 2)
        if k > 0 and k == prev:
            first, _, n = out[-1]
            out[-1] = (first, k, n + 1)
        elif k > 0:
            out.append((off, k, 1))
        prev = k
    return out


def annotated_line(line: str, runs: float, mispredicted: float, misses: float | None = None) -> str:
    """One instruction's line of ``--annotate``'s file: its executions per flit-hop, its mispredictions and (with the
    cache model, ``misses`` not None) its first-level data cache misses, each left blank where it rounds to 0, then
    its disassembly ``line``."""
    m = f"{mispredicted:8.4f}" if mispredicted >= 0.00005 else " " * 8
    c = "" if misses is None else f"{misses:8.4f} " if misses >= 0.00005 else " " * 9
    return f"{runs:8.2f} {m} {c} {line}\n" if runs >= 0.005 else f"{' ' * (18 + len(c))} {line}\n"


def annotate(name: str, router: str, messages: tuple, dest: str, top: int, cache: tuple = ()) -> dict:
    """Each instruction's executions per flit-hop in this tree's kernel (module docstring, ``--annotate``; with
    ``cache``, the options of :func:`cache_model`, its first-level data cache misses too)."""
    sys.path.insert(0, str(HERE))
    import perf_kernel

    path = str(HERE.parent)
    with tempfile.TemporaryDirectory(prefix="count-kernel-") as tmp:
        out = Path(tmp)
        _valgrind(path, name, router, 100, out / "warm.out")  # compiles for Valgrind's processor, once per tree
        runs = []
        for m in messages:
            (out / str(m)).mkdir()
            hops = _valgrind(path, name, router, m, out / f"{m}.out", save=out / str(m), cache=cache)
            addr = json.loads((out / str(m) / "addr.json").read_text())["addr"]
            miss = collections.Counter()
            for event in ("D1mr", "D1mw") if cache else ():
                miss.update(instruction_counts(out / f"{m}.out", addr, perf_kernel.CODE_BYTES, event))
            runs.append((hops, instruction_counts(out / f"{m}.out", addr, perf_kernel.CODE_BYTES),
                         instruction_counts(out / f"{m}.out", addr, perf_kernel.CODE_BYTES, "Bcm"), miss))
        # the same compiled code in both runs (from numba's cache), up to the absolute addresses in it (constants,
        # the runtime's functions): the same instructions at the same offsets
        asm = [perf_kernel.disassemble(out / str(m) / "code.bin") for m in messages]
        size = min(len(a) for a in asm)
        ops = [[line.split("\t")[-1].split()[:1] for _, line in sorted(a.items())[:size]] for a in asm]
        if ops[0] != ops[1]:
            raise SystemExit("the two runs loaded different machine code (recompiled between them?)")
        lines = asm[0]
    (hs, cs, ms, ds), (hl, cl, ml, dl) = runs
    per = per_flit_hop(cs, cl, hs, hl, keys=cl)
    mis = per_flit_hop(ms, ml, hs, hl, keys=ml)
    d1 = per_flit_hop(ds, dl, hs, hl, keys=dl)
    total = sum(per.values())
    stack = sum(k for off, k in per.items() if "[rsp" in lines.get(off, ""))
    print(f"{name} {router}, this tree: {total:.1f} instructions per flit-hop in the kernel's run, {stack:.1f} of "
          f"them ({stack / total:.0%}) reading or writing the stack")
    reg = collections.Counter()
    for off, k in per.items():
        reg[off - off % 256] += k
    print("regions (offset: instructions per flit-hop): "
          + ", ".join(f"{off:x}: {k:.1f}" for off, k in sorted(reg.items()) if k >= 0.01 * total))
    bl = blocks(per, lines)
    print(f"the {top} basic blocks with the most instructions per flit-hop (first offset, executions per flit-hop, "
          "instructions, instructions per flit-hop):")
    for off, k, n in sorted(bl, key=lambda b: -b[1] * b[2])[:top]:
        print(f"  {off:6x}  {k:6.2f} x {n:3d} = {k * n:6.1f}")
    print(f"{sum(mis.values()):.3f} branches mispredicted per flit-hop (cachegrind's model of the predictor); the "
          f"{top} mispredicted most (offset, mispredictions and executions per flit-hop):")
    for off, k in sorted(mis.items(), key=lambda x: -x[1])[:top]:
        print(f"  {off:6x}  {k:7.4f} of {per.get(off, 0.0):6.3f}  {lines.get(off, '').split(chr(9))[-1]}")
    if cache:
        print(f"{sum(d1.values()):.2f} first-level data cache misses per flit-hop (reads and writes, cachegrind's "
              f"model: {cache[0][5:]}); the {top} instructions missing most (offset, misses and executions per "
              "flit-hop):")
        for off, k in sorted(d1.items(), key=lambda x: -x[1])[:top]:
            print(f"  {off:6x}  {k:7.4f} of {per.get(off, 0.0):6.3f}  {lines.get(off, '').split(chr(9))[-1]}")
    with open(dest, "x") as f:  # a new file: never one that is there already
        for off in sorted(lines):
            f.write(annotated_line(lines[off], per.get(off, 0.0), mis.get(off, 0.0),
                                   d1.get(off, 0.0) if cache else None))
    print(f"the annotated disassembly (executions, then mispredictions{', then L1 misses' if cache else ''}, per "
          f"flit-hop): {dest}")
    return {"total": total, "stack": stack, "regions": dict(reg), "blocks": bl, "mispredicted": mis, "l1_misses": d1}


def _line(label: str, c: dict) -> str:
    cache = (f"; {c['Dr']:.1f} data reads ({c['D1mr']:.2f} missing L1, {c['DLmr']:.2f} the last level), "
             f"{c['Dw']:.1f} writes ({c['D1mw']:.2f}, {c['DLmw']:.2f}), {c.get('I1mr', 0.0):.3f} instruction fetches "
             "missing L1" if "Dr" in c else "")
    return (f"{label}: {c['Ir']:.1f} instructions, {c['Bc']:.2f} conditional branches ({c['Bcm']:.2f} mispredicted), "
            f"{c['Bi']:.3f} indirect ({c['Bim']:.3f} mispredicted){cache} per flit-hop")


def main(name: str, router: str, messages: tuple, compare_with: str | None, annotate_to: str | None = None,
         top: int = 20, cache: bool = False, l1: str | None = None) -> dict:
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
    if l1 is not None and not cache:
        raise SystemExit("--l1 sets the cache model of --cache: give both")
    try:
        cache = cache_model(l1) if cache else ()
    except ValueError as e:
        raise SystemExit(str(e)) from None
    if annotate_to:
        if compare_with:
            raise SystemExit("--annotate counts this tree's instructions only (no --compare)")
        if os.path.lexists(annotate_to):
            raise SystemExit(f"--annotate writes a new file; {annotate_to} is there already")
        if shutil.which("objdump") is None:
            raise SystemExit("objdump is not installed (Debian: binutils)")
        return annotate(name, router, messages, annotate_to, top, cache)
    new = count(str(HERE.parent), name, router, messages, cache)
    print(_line(f"{name} {router}, this tree", new), flush=True)
    res = {"new": new}
    if compare_with:
        old = count(compare_with, name, router, messages, cache)
        print(_line(f"{name} {router}, {compare_with}", old))
        print("ratios new / old: " + ", ".join(f"{k} {new[k] / old[k]:.3f}" for k in ("Ir", "Bc", "Bcm", "D1mr", "D1mw")
                                             if old.get(k)))
        res["old"] = old
    return res


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="8x8-50")
    ap.add_argument("--router", default="ideal", choices=("ideal", "booksim"))
    ap.add_argument("--messages", type=int, nargs=2, default=(2000, 12000))
    ap.add_argument("--compare", default=None, help="PYTHONPATH of the simulator to compare against")
    ap.add_argument("--cache", action="store_true", help="count data accesses and cache misses too (slower)")
    ap.add_argument("--l1", default=None, metavar="BYTES,WAYS",
                    help="with --cache: the first-level data cache modelled (default 32768,8)")
    ap.add_argument("--annotate", metavar="FILE",
                    help="count each instruction (callgrind) and write the disassembly to this new file")
    ap.add_argument("--top", type=int, default=20, help="basic blocks listed with --annotate")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--save", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        child(a.config, a.router, a.child, a.save)
    else:
        main(a.config, a.router, tuple(a.messages), a.compare, a.annotate, a.top, a.cache, a.l1)
