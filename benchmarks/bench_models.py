"""Time of every chapter's model, old commit against this checkout, measured side by side (#16).

Run::

    python benchmarks/bench_models.py [--old /tmp/base] [--repeat 3] [--only torus_nbc,...] [--no-cold]

For every chapter, at the paper's configuration and at a larger one (a
``32 x 32`` torus; 1024 processors for ``min_mva``; and for ``min_mva`` also
the paper's hot-spot configuration of Fig. 3, whose visits are not
stage-symmetric, so its model has one unknown per visited pair), it times

* ``curve``: a 50-load curve (``solve_curve`` without its saturation search,
  loads ``2% .. 98%`` of the saturation load; ``NC = 1..50`` for the closed
  system of ``min_mva``),
* ``saturation``: ``saturation_load`` (the chapter's default ``rtol``),
* ``point``: one ``solve`` at half the saturation load (``NC = 8``),

each as the best of ``--repeat`` warm calls (one untimed call first; CPU time of the
one-threaded call, which is its wall time on a quiet machine and barely moves on a busy
one; ``--wall`` for the wall clock) in a
fresh Python process per chapter and configuration, the old commit
(``PYTHONPATH=<old>``, whose API differs: see ``_calls``) and this checkout
alternated.  Then the first call in a new process (import + set-up + one
point, timed inside the process) with an empty and with a filled
``MODELS_CACHE_DIR``.

Prints one table: chapter, call, config, old ms, new ms, ratio (old / new),
target met (curve and saturation: < 50 ms at the paper's configuration, < 500
ms at the larger one; first call with a filled cache: < 1 s).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: chapter -> {config label: keyword arguments of the new front door}
CONFIGS = {
    "min_mva": {"paper omega k=2 n=6 (64)": dict(topology="omega", k=2, n=6),
                "omega k=2 n=10 (1024)": dict(topology="omega", k=2, n=10),
                "paper Fig.3 hot spot (64)": dict(topology="omega", k=2, n=6, S_mm=2, pattern="hot_spot",
                                                  pattern_options={"h": 0.2})},
    "torus_dor": {"16x16 L=3 M=32": dict(radices=(16, 16), L=3, M=32),
                  "32x32 L=3 M=32": dict(radices=(32, 32), L=3, M=32)},
    "torus_ipp": {"k=16 V=3 M=48 .2/.8": dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8),
                  "k=32 V=3 M=48 .2/.8": dict(k=32, V=3, M=48, sigma1=0.2, sigma2=0.8)},
    "xfolded_tm": {"k=8 V=2 M=32 ad=thm1": dict(k=8, V=2, M=32),
                   "k=32 V=2 M=32 ad=thm1": dict(k=32, V=2, M=32)},
    "torus_nbc": {"k=16 M=32 V=10": dict(k=16, M=32, V=10),
                  "k=32 M=32 V=20": dict(k=32, M=32, V=20)},
}
CALLS = ("curve", "saturation", "point")
def _is_paper(label: str) -> bool:
    """A configuration of the paper (target ``TARGET_MS[0]``), by its label; the others are the larger ones."""
    return label.startswith("paper")


#: (paper, larger) targets in ms for the curve and saturation_load; first call with a filled cache
TARGET_MS = (50.0, 500.0)
TARGET_FIRST_MS = 1000.0


# ----------------------------------------------------------------------------
# Worker side (runs under either checkout)
# ----------------------------------------------------------------------------
def _is_old() -> bool:
    """The old API (c62df9d): the load was not the first positional argument everywhere.

    Told by a module the old commit lacks (``models.core.saturation``), not by
    importing a chapter: the first-call timing must import only the chapter timed.
    """
    import importlib.util
    import os

    import models

    # the editable install's finder serves modules missing from an old tree out of this checkout,
    # so the module must also sit in the tree ``models`` was imported from
    spec = importlib.util.find_spec("models.core.saturation")
    return spec is None or not str(spec.origin).startswith(os.path.dirname(models.__file__) + os.sep)


def _calls(chapter: str, cfg: dict):
    """``(sat_fn, curve_fn(loads), point_fn(load), loads_from_sat)`` for either API."""
    import importlib

    import numpy as np

    mod = importlib.import_module(f"models.{chapter}")
    old = _is_old()
    frac = np.linspace(0.02, 0.98, 50)
    cfg = dict(cfg)
    if chapter == "min_mva":
        ncs = list(range(1, 51))
        if old:
            sat = None
            curve = lambda _: mod.solve_curve(ncs, **cfg)  # noqa: E731
            point = lambda _: mod.solve(NC=8, **cfg)  # noqa: E731
        else:
            sat = lambda: mod.saturation_load(**cfg)  # noqa: E731
            curve = lambda _: mod.solve_curve(ncs, **cfg)  # noqa: E731
            point = lambda _: mod.solve(8, **cfg)  # noqa: E731
        return sat, curve, point, lambda s: None
    if chapter == "torus_dor":
        r, L, M = cfg["radices"], cfg["L"], cfg["M"]
        if old:
            return (lambda: mod.saturation_load(r, L, M), lambda x: mod.solve_curve(r, L, M, x, saturation=False),
                    lambda x: mod.solve(r, L, M, x), lambda s: frac * s)
        return (lambda: mod.saturation_load(**cfg), lambda x: mod.solve_curve(x, saturation=False, **cfg),
                lambda x: mod.solve(x, **cfg), lambda s: frac * s)
    if chapter == "torus_ipp":
        if old:
            return (lambda: mod.saturation_load(**cfg), lambda x: mod.solve_curve(x, **cfg),
                    lambda x: mod.solve(mu1=x, **cfg), lambda s: frac * s)
        return (lambda: mod.saturation_load(**cfg), lambda x: mod.solve_curve(x, **cfg),
                lambda x: mod.solve(x, **cfg), lambda s: frac * s)
    if chapter == "xfolded_tm":
        cfg["ad"] = float(mod.theorem1(cfg["k"]))
        M = cfg["M"]
        if old:
            return (lambda: mod.solve.__globals__["saturation_rate"](**cfg),
                    lambda x: mod.solve.__globals__["solve_curve"](x * M, **cfg),
                    lambda x: mod.solve(x, **cfg), lambda s: frac * s)
        return (lambda: mod.saturation_load(**cfg), lambda x: mod.solve_curve(x, **cfg),
                lambda x: mod.solve(x, **cfg), lambda s: frac * s)
    if chapter == "torus_nbc":
        return (lambda: mod.saturation_load(**cfg), lambda x: mod.solve_curve(x, saturation=False, **cfg),
                lambda x: mod.solve(x, **cfg), lambda s: frac * s)
    raise ValueError(chapter)


#: The clock of the warm calls: process (CPU) time by default -- the calls are one-threaded
#: (OMP_NUM_THREADS=1), so on a quiet machine it is their wall time, and other processes on a busy
#: machine hardly change it; ``--wall`` uses the wall clock instead.
CLOCK = time.process_time


def _best(fn, repeat: int) -> float:
    """Best of ``repeat`` warm calls (ms, :data:`CLOCK`); a call slower than 2 s is timed once."""
    best = float("inf")
    for i in range(repeat):
        t = CLOCK()
        fn()
        dt = CLOCK() - t
        best = min(best, dt)
        if dt > 2.0:
            break
    return best * 1e3


def worker(chapter: str, label: str, repeat: int) -> dict:
    sat_fn, curve_fn, point_fn, loads_of = _calls(chapter, CONFIGS[chapter][label])
    out = {}
    sat = sat_fn() if sat_fn is not None else None  # warm-up (lambdify, tables)
    out["saturation"] = _best(sat_fn, repeat) if sat_fn is not None else None
    loads = loads_of(sat) if sat is not None else None
    x = 0.5 * sat if sat is not None else None
    point_fn(x)
    out["point"] = _best(lambda: point_fn(x), repeat)
    curve_fn(loads)
    out["curve"] = _best(lambda: curve_fn(loads), repeat)
    out["sat_value"] = sat
    return out


def first_call(chapter: str) -> float:
    """Import + first solve of the paper's configuration, ms (run in a new process)."""
    t = time.perf_counter()
    sat_fn, curve_fn, point_fn, loads_of = _calls(chapter, next(iter(CONFIGS[chapter].values())))
    x = {"min_mva": 8, "torus_dor": 0.001, "torus_ipp": 0.005, "xfolded_tm": 0.005, "torus_nbc": 0.001}[chapter]
    point_fn(x)
    return (time.perf_counter() - t) * 1e3


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------
def _run(pythonpath: str, args: list[str], cache: str | None = None, timeout: float = 1800) -> dict:
    env = dict(os.environ, PYTHONPATH=pythonpath, OMP_NUM_THREADS="1")
    if cache is not None:
        env["MODELS_CACHE_DIR"] = cache
    p = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], env=env, capture_output=True,
                       text=True, timeout=timeout, cwd=pythonpath)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def _fmt(v):
    return "-" if v is None else f"{v:,.1f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", default="/tmp/base", help="checkout of the old commit (c62df9d)")
    ap.add_argument("--new", default=str(ROOT), help="checkout to compare (default: this one)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated chapters")
    ap.add_argument("--configs", default="both", choices=("both", "paper", "larger"))
    ap.add_argument("--no-cold", action="store_true", help="skip the first-call-in-a-new-process timings")
    ap.add_argument("--no-old", action="store_true", help="time this checkout only")
    ap.add_argument("--wall", action="store_true", help="time the warm calls by the wall clock (default: CPU time)")
    ap.add_argument("--worker", nargs=2, metavar=("CHAPTER", "CONFIG"), help=argparse.SUPPRESS)
    ap.add_argument("--first", metavar="CHAPTER", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    if args.worker:
        print(json.dumps(worker(*args.worker, args.repeat)))
        return
    if args.first:
        print(json.dumps({"first": first_call(args.first)}))
        return

    chapters = [c for c in CONFIGS if not args.only or c in args.only.split(",")]
    sides = [("new", args.new)] if args.no_old else [("old", args.old), ("new", args.new)]
    rows = []
    for i, ch in enumerate(chapters):
        labels = list(CONFIGS[ch])
        if args.configs == "paper":
            labels = [lab for lab in labels if _is_paper(lab)]
        elif args.configs == "larger":
            labels = [lab for lab in labels if not _is_paper(lab)]
        for j, label in enumerate(labels):
            got = {}
            order = sides if (i + j) % 2 == 0 else sides[::-1]  # alternate which side runs first
            for side, path in order:
                got[side] = _run(path, ["--worker", ch, label, "--repeat", str(args.repeat)] + (["--wall"] if args.wall else []))
                print(f"# {ch} {label} {side}: {got[side]}", file=sys.stderr, flush=True)
            for call in CALLS:
                o = got.get("old", {}).get(call)
                n = got.get("new", {}).get(call)
                target = None
                if call in ("curve", "saturation") and n is not None:
                    target = n < TARGET_MS[0 if _is_paper(label) else 1]
                rows.append((ch, call, label, o, n, target))
        if not args.no_cold:
            first = {}
            for side, path in sides:
                with tempfile.TemporaryDirectory() as tmp:
                    first[side] = (_run(path, ["--first", ch], cache=tmp).get("first"),
                                   _run(path, ["--first", ch], cache=tmp).get("first"))
            for w, what in enumerate(("empty", "filled")):
                o = first.get("old", (None, None))[w]
                n = first.get("new", (None, None))[w]
                target = (n < TARGET_FIRST_MS) if what == "filled" and n is not None else None
                rows.append((ch, f"first call, {what} cache", "paper, new process", o, n, target))
    head = f"{'chapter':<11} {'call':<25} {'config':<26} {'old ms':>10} {'new ms':>10} {'ratio':>8}  target met"
    print(head)
    print("-" * len(head))
    for ch, call, label, o, n, target in rows:
        ratio = f"{o / n:,.1f}x" if o is not None and n else "-"
        met = "-" if target is None else ("yes" if target else "NO")
        print(f"{ch:<11} {call:<25} {label:<26} {_fmt(o):>10} {_fmt(n):>10} {ratio:>8}  {met}")


if __name__ == "__main__":
    main()
