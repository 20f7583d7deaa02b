"""Where a wormhole kernel's time goes, instruction by instruction: a sampling profile of one benchmark run.

``python benchmarks/perf_kernel.py [--config NAME] [--router ideal|booksim] [--top N] [--quick] [--annotate FILE]``
runs one configuration of :mod:`bench_wormhole` under Linux ``perf record -e cpu-clock`` (a timer, so it works on a
virtual machine without hardware counters), in a child process that first compiles (or loads) the kernel, then saves
the machine code of the compiled ``run`` from its address.  numba's compiled code has no symbols, but ``perf`` finds
the JIT map numba writes (``/tmp/perf-<pid>.map``), and the samples that fall in ``run`` are matched to its code,
disassembled with ``objdump``.  Printed: the share of the samples in the kernel, its 256-byte regions by share, and
the ``--top`` instructions with their share (a sample usually lands on the instruction after the one that stalled:
after a load that missed the cache, or a mispredicted branch); ``--annotate FILE`` writes the whole disassembly
to that new file, each instruction with its share.  Everything is inlined into ``run``, so reading the regions back to
the source takes the disassembly (the profiled build's phases, ``bench_wormhole.py --phases``, give the coarse split;
``count_kernel.py --annotate`` counts each instruction's executions per flit-hop instead of sampling).
Needs ``perf`` (Debian's ``linux-perf``) and ``objdump`` (``binutils``); the files it writes are in a temporary
folder it removes.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: bytes of machine code saved from the kernel's entry (its ``run`` is a few tens of kilobytes at most)
CODE_BYTES = 1 << 16


def keywords(name: str, router: str) -> dict:
    """The extra keywords of ``simulate`` for configuration ``name`` and ``router``, as :mod:`bench_wormhole` runs
    them: an issue #36 one at the router's own load, a book one at its fixed rate, an issue #12 one at its fixed rate
    (the preset with the next even VC count)."""
    sys.path.insert(0, str(HERE))
    import bench_wormhole as b

    if name in b.ISSUE36 or name in b.BOOK:
        return b._own_load(name, router)
    return dict(b._router_runs(name, router)[-1][1])  # the "same rate" run of bench_wormhole's router comparison


def child(name: str, router: str, quick: bool, out: Path) -> None:
    """Compile or load the kernel, save its entry address and code, then run ``name`` once (profiled)."""
    import bench_wormhole as b  # on the path: keywords()

    extra = keywords(name, router)
    cfg = b.CONFIGS[name]
    from models.sim.wormhole import Torus, simulate

    small = dict(cfg["kw"], **dict(extra, rate=0.001))
    simulate(Torus((4,) * len(cfg["radices"]), bidirectional=cfg["bidirectional"]), **small, messages=50,
             warmup_messages=5)
    save_code(router, out)
    b.one(name, quick, extra)


def save_code(router: str, out: Path) -> None:
    """Write the compiled ``run`` of ``router``'s kernel (loaded in this process) to ``out``: its first
    :data:`CODE_BYTES` bytes of machine code, or fewer where the memory mapping that holds it ends (``code.bin``),
    and its entry address with this process's id (``addr.json``)."""
    import ctypes

    kernel = __import__("models.sim.wormhole." + ("kernel" if router == "ideal" else "booksim_kernel"),
                        fromlist=["run"])
    (cres,) = kernel.run.overloads.values()
    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    end = addr + CODE_BYTES
    with open("/proc/self/maps") as maps:  # no further than the end of the mapping that holds the code
        for line in maps:
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if lo <= addr < hi:
                end = min(end, hi)
    (out / "code.bin").write_bytes(ctypes.string_at(addr, end - addr))
    (out / "addr.json").write_text(json.dumps({"addr": addr, "pid": os.getpid()}))


def disassemble(code: Path) -> dict:
    """The machine code in the file ``code`` (x86-64, from its first byte), by ``objdump``: offset -> the line
    ``offset: bytes instruction`` (Intel syntax)."""
    asm = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", "-M", "intel", str(code)],
                         capture_output=True, text=True, check=True).stdout
    return {int(m.group(1), 16): line.strip() for line in asm.splitlines()
            if (m := re.match(r"\s*([0-9a-f]+):\s", line))}


def histogram(ips, addr: int, size: int = CODE_BYTES):
    """Samples per offset into the kernel's code (``ips``: sampled instruction addresses), and how many fell
    outside it."""
    inside = collections.Counter()
    outside = 0
    for ip in ips:
        off = ip - addr
        if 0 <= off < size:
            inside[off] += 1
        else:
            outside += 1
    return inside, outside


def regions(inside: collections.Counter, width: int = 256) -> list:
    """``(start offset, share)`` of each ``width``-byte region of the code, by offset."""
    total = sum(inside.values()) or 1
    agg = collections.Counter()
    for off, n in inside.items():
        agg[off - off % width] += n
    return [(off, n / total) for off, n in sorted(agg.items())]


def main(name: str, router: str, top: int, quick: bool, annotate: str | None = None) -> None:
    sys.path.insert(0, str(HERE))
    import bench_wormhole as b

    if name not in b.CONFIGS:
        raise SystemExit(f"--config must name a configuration of {sorted(b.CONFIGS)}; got {name!r}")
    if router not in b._routers_of(name, (router,)):
        raise SystemExit(f"{name} runs the ideal router only")
    if annotate and os.path.lexists(annotate):
        raise SystemExit(f"--annotate writes a new file; {annotate} is there already")
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (Debian: {'linux-perf' if tool == 'perf' else 'binutils'})")
    with tempfile.TemporaryDirectory(prefix="perf-kernel-") as tmp:
        out = Path(tmp)
        data = out / "perf.data"
        cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", str(data), sys.executable, __file__,
               "--child", str(out), "--config", name, "--router", router] + (["--quick"] if quick else [])
        # this tree's simulator, not an installed one's (a script's folder, not the working one, is on its path)
        subprocess.run(cmd, check=True, cwd=HERE.parent, env=dict(os.environ, PYTHONPATH=str(HERE.parent)))
        meta = json.loads((out / "addr.json").read_text())
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,dso"], capture_output=True, text=True,
                                check=True).stdout
        jit = f"perf-{meta['pid']}.map"
        ips = [int(line.split()[0], 16) for line in script.splitlines() if jit in line]
        inside, outside = histogram(ips, meta["addr"])
        n = sum(inside.values())
        print(f"{name} {router}: {n} samples in the kernel's run, {outside} elsewhere in its JIT code, "
              f"{script.count(chr(10)) - n - outside} outside JIT code (imports, compile, Python)")
        print("regions (offset: share): " + ", ".join(f"{off:x}: {s:.1%}" for off, s in regions(inside) if s >= 0.01))
        lines = disassemble(out / "code.bin")
        print(f"the {top} instructions with the most samples (offset, share, instruction):")
        for off, k in inside.most_common(top):
            print(f"  {k / max(n, 1):6.1%}  {lines.get(off, hex(off))}")
        if annotate:  # the whole disassembly, each instruction with its samples
            with open(annotate, "x") as f:  # a new file: never one that is there already
                for off in sorted(lines):
                    k = inside.get(off, 0)
                    f.write(f"{k / max(n, 1):6.2%}  {lines[off]}\n" if k else f"        {lines[off]}\n")
            print(f"the annotated disassembly: {annotate}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="book-nbc")
    ap.add_argument("--router", default="ideal", choices=("ideal", "booksim"))
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--annotate", metavar="FILE",
                    help="write the whole disassembly to this new file, each instruction's share")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.config, a.router, a.quick, Path(a.child))
    else:
        main(a.config, a.router, a.top, a.quick, a.annotate)
