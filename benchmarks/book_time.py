"""Where a build of the book spends its time: the notebooks' wall and processor time, and the simulations'.

Reads a build (a checkout where ``make book`` or ``python -m models.pipeline`` ran):

* **notebooks**, from the provenance beside each executed notebook (``book/<chapter>/<page>.provenance.json``):
  wall seconds and processor (CPU) seconds (:func:`models.pipeline.cpu_seconds`: the kernel and its simulations'
  processes), sorted by CPU time, with each one's share and the totals;
* **simulations**, from the build's simulation cache (``.cache/wormhole`` and ``.cache/closed_min``, read through
  :class:`models.core.cache.DiskCache`, so only entries signed with this user's key count): the time of the
  simulator's calls (``wall_time``: a point holds one of the pipeline's cores while it runs, so this is about its
  processor time), by how a run ended (to a target confidence interval, a fixed length, saturated at the backlog
  limit or on backlog growth) and by configuration (network, routing, VCs, buffer depth, message length, router),
  with the wormhole runs' speed in M flit-hops per second and VC visits per flit-hop (the kernel's ``vc_visits``: the
  waiting hops of the worms each step covered, which the hop-by-hop traversal visits one by one and the worms'
  masks cover a word at a time, so a measure of the work to do rather than of the work done).

* **runs with a precision target** (:func:`precision_at_cap`): how many measured their cap (``max_messages``) and
  what that cost, binned by their latency's half width at the cap in units of the target (a run that ends near 1
  was lengthened usefully; one far above it would be as imprecise at a fraction of the cap);
* **warm-up** (:func:`warmup_share`): the unsaturated runs' time, and the part of it that is the warm-up, counted
  by messages (a run's ``warmup_messages`` over those and the messages it measured: the warm-up runs at the
  run's own load, so its share of the messages is about its share of the time);

* **fixed-step saturation searches** (:func:`bisection_steps`): the fixed-length runs of one configuration whose
  loads are ``capacity * k / 2**j`` (``k`` odd) are the probes of a bisection of ``[0, capacity]``
  (:func:`models.core.saturation.find_saturation` with ``rtol = 0``), and ``j`` is the step that probed each; their
  time by step says what a coarser or finer resolution would cost.

The cache knows no notebook: a point two notebooks share is cached once, by whichever ran it first.  What the
notebooks spend beyond the simulations (kernels starting, imports, models, figures) is the difference of the two
totals.

Run: ``python benchmarks/book_time.py [BUILD] [--cache DIR] [--top N]`` (BUILD: default this checkout; ``--cache``:
default ``BUILD/.cache``, what ``make book`` uses unless ``$MODELS_CACHE_DIR`` is set).
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def notebook_times(build: Path) -> list[dict]:
    """One row per executed notebook with a provenance: ``notebook``, ``seconds`` (wall), ``cpu_seconds`` (NaN when
    its provenance predates the processor time), ``profile``."""
    rows = []
    for prov in sorted((build / "book").glob("*/*.provenance.json")):
        try:
            stamp = json.loads(prov.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(stamp, dict) or stamp.get("status") != "ok":
            continue
        rows.append({"notebook": str(stamp.get("notebook", prov.name)), "seconds": float(stamp.get("seconds", 0.0)),
                     "cpu_seconds": float(stamp.get("cpu_seconds", math.nan)), "profile": stamp.get("profile", "?")})
    return sorted(rows, key=lambda r: (-_nan_to(r["cpu_seconds"], -1.0), -r["seconds"]))


def _nan_to(x: float, value: float) -> float:
    """``x``, or ``value`` if ``x`` is NaN."""
    return value if x != x else x


def how_it_ended(result) -> str:
    """A wormhole run's kind: ``target CI``, ``fixed length`` (ran its messages), or ``saturated: <reason>``."""
    if result.saturated:
        return f"saturated: {result.stop_reason}"
    return "target CI" if result.params.get("target_ci") is not None else "fixed length"


def configuration(result) -> str:
    """A wormhole run's network and router in a few words, e.g. ``torus 16x16 uni, dor, 5 VCs x 2, M=32, ideal``."""
    p = result.params
    topo = p.get("topology", {})
    if isinstance(topo, dict) and "radices" in topo:
        net = f"{topo.get('kind', '?')} {'x'.join(map(str, topo['radices']))} " + \
            ("bi" if topo.get("bidirectional") else "uni")
    else:
        net = str(topo.get("kind", topo) if isinstance(topo, dict) else topo)
    return (f"{net}, {p.get('routing')}, {p.get('vcs')} VCs x {p.get('buffer_depth')}, M={p.get('message_length')}, "
            f"{p.get('router', 'ideal')}")


def cached_results(folder: Path):
    """Every entry of the cache ``folder`` that reads back (signed and well-formed), as decoded objects."""
    from models.core.cache import DiskCache  # the project's reader: signatures checked, nothing unpickled

    store = DiskCache(folder)
    missing = object()
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        value = store.get(path.stem, missing)
        if value is not missing:
            yield value


def simulation_times(cache: Path) -> dict:
    """The simulations' seconds: ``by_end`` (wormhole runs by :func:`how_it_ended`), ``by_config`` (wormhole runs by
    :func:`configuration`: runs, seconds, flit-hops, VC visits) and ``closed_min`` (runs, seconds)."""
    by_end = collections.defaultdict(lambda: [0, 0.0])
    by_config = collections.defaultdict(lambda: [0, 0.0, 0, 0])
    for r in cached_results(cache / "wormhole"):
        if not hasattr(r, "stop_reason"):
            continue
        e = by_end[how_it_ended(r)]
        e[0] += 1
        e[1] += float(r.wall_time)
        c = by_config[configuration(r)]
        c[0] += 1
        c[1] += float(r.wall_time)
        c[2] += int(r.flit_hops)
        c[3] += int((r.work or {}).get("vc_visits", 0))
    closed = [0, 0.0]
    for r in cached_results(cache / "closed_min"):
        if hasattr(r, "wall_time"):
            closed[0] += 1
            closed[1] += float(r.wall_time)
    return {"by_end": dict(by_end), "by_config": dict(by_config), "closed_min": closed}


#: the bins of :func:`precision_at_cap`: a capped run's half width over its target (upper bounds; the last open)
CAP_BINS = (1.0, 1.5, 2.0, 3.0, 5.0, 10.0, math.inf)


def precision_at_cap(cache: Path) -> dict:
    """The unsaturated wormhole runs with a precision target (``target_ci``): ``runs``, ``seconds``, and those that
    measured their cap (``max_messages``), ``capped`` and ``capped_seconds``, with ``by_bin``: per upper bound of
    :data:`CAP_BINS`, ``[runs, seconds]`` of the capped runs whose half width at the cap, over ``target_ci`` times
    the latency, is at most that bound (and above the previous one)."""
    out = {"runs": 0, "seconds": 0.0, "capped": 0, "capped_seconds": 0.0, "by_bin": {b: [0, 0.0] for b in CAP_BINS}}
    for r in cached_results(cache / "wormhole"):
        p = getattr(r, "params", None) or {}
        if not hasattr(r, "stop_reason") or r.saturated or p.get("target_ci") is None:
            continue
        out["runs"] += 1
        out["seconds"] += float(r.wall_time)
        cap = p.get("max_messages")
        if cap is None or r.messages < cap:
            continue
        out["capped"] += 1
        out["capped_seconds"] += float(r.wall_time)
        ratio = float(r.latency_ci) / (float(p["target_ci"]) * float(r.latency))
        b = next(b for b in CAP_BINS if ratio <= b)
        out["by_bin"][b][0] += 1
        out["by_bin"][b][1] += float(r.wall_time)
    return out


def warmup_share(cache: Path) -> dict:
    """The unsaturated wormhole runs' ``seconds`` and the part of them that is their warm-up, ``warmup_seconds``:
    each run's time times ``warmup_messages / (warmup_messages + messages)`` (its measured messages)."""
    total = warm = 0.0
    for r in cached_results(cache / "wormhole"):
        if not hasattr(r, "stop_reason") or r.saturated:
            continue
        w = int((getattr(r, "params", None) or {}).get("warmup_messages") or 0)
        total += float(r.wall_time)
        if w + r.messages > 0:
            warm += float(r.wall_time) * w / (w + r.messages)
    return {"seconds": total, "warmup_seconds": warm}


#: the finest bisection step recognised (a search of more halvings is not one of the book's)
MAX_STEP = 16


def _steps(rates: list[float], capacity: float) -> dict[float, int] | None:
    """The bisection step of each load that is ``capacity * k / 2**j`` with ``k`` odd and ``j <= MAX_STEP``."""
    from fractions import Fraction

    out = {}
    for r in rates:
        x = r / capacity
        f = Fraction(x).limit_denominator(1 << MAX_STEP)
        if 0 < f < 1 and abs(float(f) - x) <= 1e-12 * max(x, 1e-300) and f.denominator & (f.denominator - 1) == 0:
            out[r] = f.denominator.bit_length() - 1
    return out


def bisection_steps(cache: Path) -> dict:
    """Fixed-length wormhole runs read as the probes of fixed-step bisections of ``[0, capacity]``.

    The runs are grouped by everything but their load; in a group, the capacity is the one (twice one of its
    loads) under which its loads ``capacity * k / 2**j`` (``k`` odd) have the steps ``j = 1, 2, .., n``, one load
    each (a search that expands from a starting load has other loads of the same form, but not one per step),
    with ``n`` largest; a group with ``n >= 3`` is a search.  Returns ``searches`` (their number), ``seconds`` (their probes' time), ``by_step``
    (step -> seconds) and ``other`` (the seconds of the fixed-length runs that are not such probes)."""
    groups = collections.defaultdict(list)
    for r in cached_results(cache / "wormhole"):
        p = dict(getattr(r, "params", None) or {})
        rate = p.pop("rate", None)
        if not hasattr(r, "stop_reason") or p.get("target_ci") is not None or not rate:
            continue
        groups[json.dumps(p, sort_keys=True, default=str) + f"|{getattr(r, 'seed', '')}"].append(
            (float(rate), float(r.wall_time)))
    by_step = collections.Counter()
    searches, seconds, other = 0, 0.0, 0.0
    for runs in groups.values():
        rates = sorted({rate for rate, _ in runs})
        candidates = [_steps(rates, 2 * r) for r in rates]  # a bisection probes one load per step: 1, 2, .., n
        best = max((c for c in candidates if sorted(c.values()) == list(range(1, len(c) + 1))), key=len, default={})
        if len(best) < 3:
            other += sum(w for _, w in runs)
            continue
        searches += 1
        for rate, w in runs:
            if rate in best:
                by_step[best[rate]] += w
                seconds += w
            else:
                other += w
    return {"searches": searches, "seconds": seconds, "by_step": dict(sorted(by_step.items())), "other": other}


def report(build: Path, cache: Path, top: int = 15) -> str:
    """The printed report (module docstring)."""
    out = []
    rows = notebook_times(build)
    cpu_total = sum(r["cpu_seconds"] for r in rows if r["cpu_seconds"] == r["cpu_seconds"])
    wall_total = sum(r["seconds"] for r in rows)
    cpu_note = f"{cpu_total / 60:.1f} CPU-minutes" if cpu_total else "no processor time (older provenance)"
    out.append(f"notebooks ({len(rows)} with a provenance in {build / 'book'}): {wall_total / 60:.1f} wall-minutes "
               f"summed, {cpu_note}")
    out.append(f"  {'CPU s':>8} {'share':>6} {'wall s':>8}  notebook")
    for r in rows:
        cpu = r["cpu_seconds"]
        known = cpu == cpu and cpu_total > 0
        out.append(f"  {f'{cpu:.1f}' if known else '-':>8} {f'{cpu / cpu_total:.1%}' if known else '-':>6} "
                   f"{r['seconds']:8.1f}  {r['notebook']} ({r['profile']})")
    sims = simulation_times(cache)
    sim_total = sum(v[1] for v in sims["by_end"].values()) + sims["closed_min"][1]
    out.append("")
    out.append(f"simulations (cache {cache}): {sim_total / 60:.1f} minutes in the simulators' calls"
               + (f", {sim_total / cpu_total:.0%} of the notebooks' CPU time" if cpu_total else ""))
    out.append(f"  {'runs':>6} {'minutes':>8} {'share':>6}  wormhole runs, by how they ended")
    for kind, (n, s) in sorted(sims["by_end"].items(), key=lambda kv: -kv[1][1]):
        out.append(f"  {n:6d} {s / 60:8.2f} {s / sim_total:6.1%}  {kind}")
    n, s = sims["closed_min"]
    if n:
        out.append(f"  {n:6d} {s / 60:8.2f} {s / sim_total:6.1%}  closed MIN runs (min_mva)")
    out.append(f"  {'runs':>6} {'minutes':>8} {'share':>6} {'Mfh/s':>6} {'visits/fh':>9}  wormhole runs, the {top} "
               "configurations that took longest")
    for cfg, (n, s, fh, visits) in sorted(sims["by_config"].items(), key=lambda kv: -kv[1][1])[:top]:
        speed = fh / s / 1e6 if s > 0 else math.nan
        out.append(f"  {n:6d} {s / 60:8.2f} {s / sim_total:6.1%} {speed:6.1f} {visits / max(fh, 1):9.2f}  {cfg}")
    c = precision_at_cap(cache)
    if c["runs"]:
        out.append(f"  runs with a precision target: {c['runs']} unsaturated, {c['seconds'] / 60:.2f} minutes; "
                   f"{c['capped']} measured their cap ({c['capped_seconds'] / 60:.2f} minutes), by their half width "
                   "at the cap over the target:")
        lo = 0.0
        cells = []
        for hi, (n, s) in c["by_bin"].items():
            label = f"> {lo:g}" if hi == math.inf else f"{lo:g}-{hi:g}"
            cells.append(f"{label}: {n} ({s / 60:.2f} min)")
            lo = hi
        out.append("    " + ", ".join(cells))
    w = warmup_share(cache)
    if w["seconds"]:
        out.append(f"  warm-up: about {w['warmup_seconds'] / 60:.2f} of the {w['seconds'] / 60:.2f} minutes of the "
                   "unsaturated runs (by their share of each run's messages)")
    b = bisection_steps(cache)
    if b["searches"]:
        out.append(f"  fixed-step saturation searches: {b['searches']}, {b['seconds'] / 60:.2f} minutes in their "
                   f"probes ({b['other'] / 60:.2f} in the other fixed-length runs); by bisection step:")
        out.append("    " + ", ".join(f"{k}: {w / b['seconds']:.1%}" for k, w in b["by_step"].items()))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build", nargs="?", default=str(HERE.parent), help="the checkout the book was built in")
    ap.add_argument("--cache", default=None, help="its simulation cache (default BUILD/.cache)")
    ap.add_argument("--top", type=int, default=15, help="configurations listed")
    a = ap.parse_args(argv)
    build = Path(a.build)
    sys.path.insert(0, str(HERE.parent))
    print(report(build, Path(a.cache) if a.cache else build / ".cache", a.top))


if __name__ == "__main__":
    main()
