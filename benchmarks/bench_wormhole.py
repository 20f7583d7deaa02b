"""Speed of the wormhole simulator: flit-hops per CPU-second (process time, one core).

Configurations (``--config NAME``, repeatable, chooses among them):

* issue #36's four, ``8x8-25``, ``8x8-50``, ``16x16-25``, ``16x16-50``: a
  bidirectional 8x8 or 16x16 torus, dimension-order routing, 4 VCs of 8 flits,
  M = 32 flits, BookSim's source and pattern (``traffic='bernoulli'``,
  ``self_traffic=True``), each router at 25 % or 50 % of *its own* saturation
  load (:func:`rate_of`, from :data:`SATURATION`);
* issue #12's two, at a fixed rate: ``bidir``, the 16x16 network above with
  the project's Poisson source at 0.0036 messages/node/cycle (about half the
  ideal router's saturation), and ``torus_dor``, the unidirectional 16x16
  configuration of the torus_dor paper (3 VCs, buffers of 2 flits, M = 32) at
  0.0008 (saturation near 0.0016);
* the book's two, ideal router, at a fixed rate (:data:`BOOK`): the kinds of run where the paper-scale book spends
  most of its simulation time, buffers of 2 flits, 5 or 10 VCs and long messages: ``book-nbc``, the 16x16
  bidirectional torus of torus_nbc's routing comparison (``duato_nbc``, 10 VCs, M = 64) at 0.0029
  messages/node/cycle, and ``book-dor3d``, torus_dor's unidirectional 8x8x8 torus (DOR, 5 VCs, M = 100) at
  0.00093; both where the latency curve bends (about three times the zero-load latency).  A flit-hop costs the
  simulator 1.5 to 2 times what it costs at ``8x8-50`` there, and more in the book's points nearer saturation and
  its saturation probes.

Flit-hops = flits moved across network channels plus ejection channels, the
whole run (``WormholeResult.flit_hops``).  Compile / load time is excluded (a
small run first), and the time is the process (CPU) time of the ``simulate``
call, not wall time, so a loaded machine does not change the number much.
Every run of ours is in a fresh subprocess: 120,000 measured messages after
10,000 of warm-up (``--quick``: 20,000 and 2,000).

What runs (``--repeat`` runs of each, alternated; medians):

* no option: every configuration with the ideal router (``--router ideal --router booksim``: both, except on
  the book's, which the preset cannot route), printing M flit-hops per CPU-second; on issue #12's
  configurations with both routers also the ratio of the CPU times per
  flit-hop, booksim / ideal (issue #12 asks <= 1.5), two ways: **like for like**
  (the ratio the bound is judged on: both routers on the same network, each at
  50 % of its own saturation load; the preset's dateline DOR needs an even VC
  count, so on ``torus_dor`` both run 4 VCs) and **same rate** (the
  configuration's fixed rate for both, the booksim run with the next even VC
  count);
* ``--phases``: where a cycle's time goes, each router's share of processor cycles per phase on the four
  configurations, the cycles per flit-hop and the kernel's work counters per flit-hop (VCs visited, allocation
  requests; for the preset also its contested candidates, ``sw contested``, and on a line of their own the
  processor cycles per flit-hop of switch allocation's three steps,
  :data:`~models.sim.wormhole.booksim_kernel.SWITCH_STEPS`),
  from a profiled build (``MODELS_SIM_PROFILE=1``, its own numba cache: :data:`models.sim.wormhole.steps.PROFILE`);
* ``--booksim PATH``: issue #36's side by side, BookSim 2's executable at
  ``PATH`` (:mod:`booksim_side_by_side`: its configuration, run length, CPU time
  and flit-hop count), the preset and the ideal router on issue #36's four
  configurations (:func:`side_by_side`): M flit-hops per CPU-second of each,
  the ratios preset / BookSim and ideal / BookSim, and BookSim's and the
  preset's mean latency at the same rate (a like-for-like check);
* ``--compare PATH``: the simulator found on ``PATH`` (e.g. a worktree of the
  parent commit) against this tree's, old and new alternated, on issue #36's
  four configurations and the book's two (or the ``--config`` ones) for both routers (or
  the ``--router`` ones), with the same keywords on both sides (:func:`compare`),
  printing the speeds and the ratio new / old of the medians (and of the bests,
  the runs least disturbed by other processes).

The saturation loads are the table :data:`SATURATION`, measured with
``--measure-saturation [NETWORK ...]`` (the smallest load whose run reports
``saturated``, by bisection).

Run: ``python benchmarks/bench_wormhole.py [--quick] [--repeat 3] [--config NAME] [--phases]
[--router ideal --router booksim] [--booksim PATH | --compare PATH] [--measure-saturation [NETWORK ...]]``.
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

#: issue #36's network (both sizes): bidirectional torus, dimension-order routing, 4 VCs of 8 flits, M = 32,
#: with BookSim's source and pattern (``injection_process = bernoulli``; ``traffic = uniform`` draws the
#: destination over all N nodes, the source included)
ISSUE36_KW = dict(routing="dor", vcs=4, buffer_depth=8, message_length=32, traffic="bernoulli", self_traffic=True)
#: networks whose saturation load per router is in :data:`SATURATION`: the issue #12 configurations and issue #36's
NETWORKS = {
    "bidir": dict(radices=(16, 16), bidirectional=True, kw=dict(routing="dor", vcs=4, message_length=32,
                                                                 buffer_depth=8, rate=0.0036)),
    "torus_dor": dict(radices=(16, 16), bidirectional=False, kw=dict(routing="dor", vcs=3, message_length=32,
                                                                      buffer_depth=2, rate=0.0008)),
    "8x8": dict(radices=(8, 8), bidirectional=True, kw=ISSUE36_KW),
    "16x16": dict(radices=(16, 16), bidirectional=True, kw=ISSUE36_KW),
}
#: issue #36's four configurations: (network, fraction of each router's own saturation load)
ISSUE36 = {"8x8-25": ("8x8", 0.25), "8x8-50": ("8x8", 0.50), "16x16-25": ("16x16", 0.25), "16x16-50": ("16x16", 0.50)}
#: the book's heaviest kinds of run, ideal router, fixed rate (messages/node/cycle, where the latency curve bends:
#: about three times the zero-load latency; the project's Poisson source, random DOR ties): where the paper-scale
#: book spends most of its simulation time
BOOK = {
    "book-nbc": dict(radices=(16, 16), bidirectional=True,
                     kw=dict(routing="duato_nbc", vcs=10, buffer_depth=2, message_length=64, rate=0.0029)),
    "book-dor3d": dict(radices=(8, 8, 8), bidirectional=False,
                       kw=dict(routing="dor", vcs=5, buffer_depth=2, message_length=100, rate=0.00093)),
}
#: every configuration by name: the issue #12 two at their fixed rate, issue #36's four (the rate per router:
#: rate_of), the book's two
CONFIGS = {"bidir": NETWORKS["bidir"], "torus_dor": NETWORKS["torus_dor"],
           **{name: dict(NETWORKS[net], net=net, load=load) for name, (net, load) in ISSUE36.items()}, **BOOK}


#: (network, router, vcs) -> saturation load, messages/node/cycle: the midpoint of the final
#: bracket of 7 bisection steps over :data:`SAT_BRACKET` for the smallest load whose 30,000-message
#: run (5,000 warm-up, seed 1) reports ``saturated`` (``--measure-saturation`` measures them again).  The
#: booksim ``bidir`` entry is BookSim's entry partition rule (issue #24; 0.0068828 under the old per-hop
#: rule, which ``vc_partition='hop'`` still gives), from the package's saturation search.  Issue #36's
#: ``16x16`` is ``bidir`` with BookSim's source and pattern (Bernoulli, the source among the destinations):
#: its ideal router saturates 2 % above ``bidir``'s, its preset at the same load.
SATURATION = {
    ("bidir", "ideal", 4): 0.0077422, ("bidir", "booksim", 4): 0.007508,
    ("torus_dor", "ideal", 4): 0.0018117, ("torus_dor", "booksim", 4): 0.0014055,
    ("torus_dor", "ideal", 3): 0.0016289,
    ("8x8", "ideal", 4): 0.0148594, ("8x8", "booksim", 4): 0.0142344,
    ("16x16", "ideal", 4): 0.0078984, ("16x16", "booksim", 4): 0.0075078,
}
SAT_BRACKET = {"bidir": (0.002, 0.012), "torus_dor": (0.0004, 0.003), "8x8": (0.004, 0.024), "16x16": (0.002, 0.012)}
#: VC count of the like-for-like router comparison per configuration (even: BookSim's dateline DOR)
RATIO_VCS = {"bidir": 4, "torus_dor": 4}


def rate_of(name: str, router: str) -> float:
    """The rate of an issue #36 configuration for ``router``: its fraction of that router's saturation load
    (messages/node/cycle, 7 significant digits)."""
    cfg = CONFIGS[name]
    return float(f"{cfg['load'] * SATURATION[(cfg['net'], router, cfg['kw']['vcs'])]:.7g}")


def measure_saturation(networks=()) -> dict:
    """Recompute :data:`SATURATION` (a few minutes per entry), of ``networks`` only if given (names of
    :data:`NETWORKS`); every (network, router, vcs) of the table, and issue #36's networks for both routers."""
    from models.core.saturation import saturation_of
    from models.sim.wormhole import Torus, simulate

    keys = dict.fromkeys([*SATURATION, *((net, router, 4) for net in ("8x8", "16x16") for router in ("ideal", "booksim"))])
    out = {}
    for (name, router, vcs) in keys:
        if networks and name not in networks:
            continue
        cfg = NETWORKS[name]
        kw = dict(cfg["kw"], vcs=vcs)
        kw.pop("rate", None)
        if router != "ideal":
            kw["router"] = router
        topo = Torus(cfg["radices"], bidirectional=cfg["bidirectional"])
        c0 = time.process_time()
        sat = saturation_of(lambda r: simulate(topo, rate=r, messages=30_000, warmup_messages=5_000, seed=1, **kw),
                            *SAT_BRACKET[name], rtol=0.0, max_steps=7, check_lo=True, check_hi=True)
        out[(name, router, vcs)] = sat.load
        print(f"{name:10s} router={router:8s} vcs={vcs}  saturation {sat.load:.7f} (bracket {sat.lo:.7f} .. {sat.hi:.7f}; "
              f"{time.process_time() - c0:.0f} CPU-s)", flush=True)
    return out


#: (measured, warm-up) messages of one run of ours, by ``quick``
RUN = {False: (120_000, 10_000), True: (20_000, 2_000)}


def one(name: str, quick: bool, extra: dict) -> dict:
    """Run one configuration in this process; CPU seconds of the measured call.

    An older simulator without ``tie`` runs without it (its ties always went ``+``); one without BookSim's
    Bernoulli source runs Poisson arrivals instead (the result's ``traffic`` says which)."""
    import inspect

    from models.sim.wormhole import Torus, simulate

    cfg = CONFIGS[name]
    topo = Torus(cfg["radices"], bidirectional=cfg["bidirectional"])
    small_topo = Torus((4,) * len(cfg["radices"]), bidirectional=cfg["bidirectional"])
    kw = dict(cfg["kw"], **extra)
    if "tie" not in inspect.signature(simulate).parameters:  # an older simulator: its ties always went '+'
        assert kw.pop("tie", "plus") == "plus"
    small = dict(kw, rate=0.001)
    try:  # compile / load outside the measured call
        simulate(small_topo, **small, messages=200, warmup_messages=20)
    except ValueError as e:
        if kw.get("traffic") != "bernoulli" or "traffic" not in str(e):
            raise
        kw["traffic"] = small["traffic"] = "poisson"  # an older simulator: no Bernoulli source
        simulate(small_topo, **small, messages=200, warmup_messages=20)
    n, w = RUN[quick]
    c0 = time.process_time()
    r = simulate(topo, **kw, messages=n, warmup_messages=w, seed=1)
    cpu = time.process_time() - c0
    return dict(config=name, vcs=kw["vcs"], rate=kw["rate"], traffic=kw.get("traffic", "poisson"), cpu=cpu,
                flit_hops=r.flit_hops, cycles=r.cycles, latency=r.latency, mhops_per_cpu_s=r.flit_hops / cpu / 1e6,
                work={k: v / r.cycles for k, v in r.work.items() if k not in ("generated", "delivered")})


def _subprocess(path: str, name: str, quick: bool, extra: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=path)
    code = (f"import json,sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_wormhole as b; "
            f"print(json.dumps(b.one({name!r}, {quick!r}, {extra!r})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=path, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _router_runs(name: str, router: str):
    """The runs of one router in the issue #12 router comparison: (how, extra keywords of ``simulate``)."""
    base = CONFIGS[name]["kw"]
    like = dict(vcs=RATIO_VCS[name], rate=round(0.5 * SATURATION[(name, router, RATIO_VCS[name])], 6))
    same = {}
    if router != "ideal":
        like["router"] = same["router"] = router
        if base["vcs"] % 2:  # BookSim's torus DOR splits the VCs into two dateline halves: an even count
            same["vcs"] = base["vcs"] + 1
    return [("like for like", like), ("same rate", same)]


def _own_load(name: str, router: str) -> dict:
    """The extra keywords of an issue #36 configuration for ``router``: its rate, the router (none for the book's:
    their fixed rate, the ideal router)."""
    if name in BOOK:
        return {}
    return dict(rate=rate_of(name, router), **({} if router == "ideal" else {"router": router}))


def _routers_of(name: str, routers) -> tuple:
    """The routers of ``routers`` a configuration runs with: the book's run the ideal router only (the preset
    routes DOR and ``min_adapt`` only)."""
    return tuple(r for r in routers if r == "ideal" or name not in BOOK)


def _median(runs: list) -> dict:
    """The median run by speed (the middle one; the upper middle of an even count)."""
    return sorted(runs, key=lambda x: x["mhops_per_cpu_s"])[len(runs) // 2]


def _speeds(runs: list) -> list:
    return [round(x["mhops_per_cpu_s"], 2) for x in runs]


def compare(path: str, names, routers, repeat: int = 3, quick: bool = False) -> dict:
    """Ratio new / old of the speed of the simulator of this tree to the one on ``path``, per configuration and router.

    Old and new alternate, ``repeat`` runs each, every run in a fresh subprocess, with the same keywords on
    both sides: an issue #36 configuration at this tree's rate of the router (:func:`rate_of`; Poisson
    arrivals on both sides when the old simulator has no Bernoulli source), an issue #12 one at its fixed rate
    (``tie='plus'``), a book one at its fixed rate (ideal router only)."""
    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for name in names:
        for router in _routers_of(name, routers):
            if name in ISSUE36 or name in BOOK:
                extra = _own_load(name, router)
            else:
                extra = dict(_router_runs(name, router)[-1][1], tie="plus")  # the configuration's rate
            old, new = [], []
            for _ in range(repeat):
                old.append(_subprocess(path, name, quick, extra))
                new.append(_subprocess(here, name, quick, dict(extra, traffic=old[-1]["traffic"])
                                       if name in ISSUE36 else extra))
            speed = {side: [x["mhops_per_cpu_s"] for x in runs] for side, runs in (("old", old), ("new", new))}
            best = {side: max(v) for side, v in speed.items()}
            med = {side: statistics.median(v) for side, v in speed.items()}
            note = "" if name not in ISSUE36 or old[0]["traffic"] == "bernoulli" else " (old has no Bernoulli source: Poisson on both sides)"
            print(f"{name:10s} router={router:8s} old {_speeds(old)}  new {_speeds(new)}  M flit-hops/CPU-s; "
                  f"ratio new/old of the medians {med['new'] / med['old']:.3f} (of the bests {best['new'] / best['old']:.3f}); "
                  f"same run: latency {old[0]['latency']:.3f} vs {new[0]['latency']:.3f}, "
                  f"{old[0]['flit_hops']:,} vs {new[0]['flit_hops']:,} flit-hops{note}", flush=True)
            res[(name, router)] = dict(old=med["old"], new=med["new"], ratio=med["new"] / med["old"],
                                       best_ratio=best["new"] / best["old"])
    return res


def routers_issue12(names, routers, repeat: int = 3, quick: bool = False) -> dict:
    """Issue #12's router comparison on its configurations (module docstring): median speed per router and
    how, and with both routers the ratio booksim / ideal of the CPU time per flit-hop."""
    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for name in names:
        runs = {}
        hows = ("like for like", "same rate") if len(routers) > 1 else ("same rate",)
        for _ in range(repeat):  # the routers alternated, ``repeat`` runs each
            for router in routers:
                for how, extra in _router_runs(name, router):
                    if how in hows:
                        runs.setdefault((how, router), []).append(_subprocess(here, name, quick, extra))
        for how in hows:
            for router in routers:
                rs = runs[(how, router)]
                r = _median(rs)
                per = ", ".join(f"{k} {v:.1f}" for k, v in r["work"].items())
                print(f"{name:10s} {how:13s} router={router:8s} vcs={r['vcs']} rate={r['rate']:.5f}: "
                      f"{r['mhops_per_cpu_s']:.2f} M flit-hops per CPU-second (median of "
                      f"{_speeds(rs)}; {r['flit_hops']:,} flit-hops, "
                      f"{r['cycles']:,} cycles, {r['cpu']:.2f} s; latency {r['latency']:.2f}; per cycle: {per})")
                res[(name, how, router)] = r
            if "ideal" in routers and "booksim" in routers:
                ratio = res[(name, how, "ideal")]["mhops_per_cpu_s"] / res[(name, how, "booksim")]["mhops_per_cpu_s"]
                bound = " (issue #12 bound: 1.5)" if how == "like for like" else ""
                print(f"{name:10s} {how:13s} booksim / ideal CPU time per flit-hop: {ratio:.2f}{bound}")
                res[(name, how, "ratio")] = ratio
    return res


def own_load(names, routers, repeat: int = 3, quick: bool = False) -> dict:
    """Issue #36's configurations, each router at its own fraction of saturation, and the book's at their fixed rate:
    median speed per router."""
    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for name in names:
        runs = {router: [] for router in _routers_of(name, routers)}
        for _ in range(repeat):  # the routers alternated
            for router in runs:
                runs[router].append(_subprocess(here, name, quick, _own_load(name, router)))
        for router in runs:
            r = res[(name, router)] = _median(runs[router])
            print(f"{name:10s} router={router:8s} rate={r['rate']:.7f}: {r['mhops_per_cpu_s']:.2f} M flit-hops per "
                  f"CPU-second (median of {_speeds(runs[router])}; {r['flit_hops']:,} flit-hops, {r['cycles']:,} "
                  f"cycles, {r['cpu']:.2f} s; latency {r['latency']:.2f})", flush=True)
    return res


def side_by_side(booksim: str, names=tuple(ISSUE36), repeat: int = 3, quick: bool = False) -> dict:
    """BookSim 2, the preset and the ideal router on issue #36's configurations, M flit-hops per CPU-second.

    Per configuration the three alternate, ``repeat`` runs each (ours each in a fresh subprocess): BookSim
    (:mod:`booksim_side_by_side`) and the preset at the preset's rate (the preset's saturation load is
    BookSim's within 1 %, issue #36), the ideal router at its own; BookSim's run as many cycles as ours,
    its start-up (the median of ``repeat`` tiny runs) subtracted from its CPU time.  Prints the medians, the
    ratios preset / BookSim and ideal / BookSim, and BookSim's and the preset's mean latency (cycles) at the
    same rate, a check that the two runs are like for like."""
    import booksim_side_by_side as bs

    here = str(Path(__file__).resolve().parents[1])
    res = {}
    for name in names:
        cfg = CONFIGS[name]
        k, nodes = cfg["radices"][0], cfg["radices"][0] * cfg["radices"][1]
        rate = rate_of(name, "booksim")
        period = round(sum(RUN[quick]) / (rate * nodes) / bs.PERIODS)  # cycles: ours generate n + w messages
        start = statistics.median(bs.startup_cpu(booksim, k, rate) for _ in range(repeat))
        runs = {"booksim": [], "preset": [], "ideal": []}
        for _ in range(repeat):
            b = bs.run(booksim, bs.config_text(k, rate, period=period), nodes)
            runs["booksim"].append(dict(b, mhops_per_cpu_s=b["flit_hops"] / (b["cpu"] - start) / 1e6))
            runs["preset"].append(_subprocess(here, name, quick, _own_load(name, "booksim")))
            runs["ideal"].append(_subprocess(here, name, quick, _own_load(name, "ideal")))
        med = {side: _median(rs) for side, rs in runs.items()}
        speed = {side: r["mhops_per_cpu_s"] for side, r in med.items()}
        b, p = med["booksim"], med["preset"]
        print(f"{name:9s} M flit-hops/CPU-s: BookSim {speed['booksim']:.3f} {_speeds(runs['booksim'])}, "
              f"preset {speed['preset']:.2f} {_speeds(runs['preset'])}, ideal {speed['ideal']:.2f} "
              f"{_speeds(runs['ideal'])}; preset/BookSim {speed['preset'] / speed['booksim']:.1f}, "
              f"ideal/BookSim {speed['ideal'] / speed['booksim']:.1f}", flush=True)
        print(f"{'':9s} rate {rate:.7f} (ideal {med['ideal']['rate']:.7f}) msg/node/cycle; latency BookSim "
              f"{b['latency']:.2f}, preset {p['latency']:.2f} (ideal {med['ideal']['latency']:.2f}) cycles; "
              f"cycles BookSim {b['cycles']:,}, preset {p['cycles']:,}; flit-hops BookSim {b['flit_hops']:,.0f} "
              f"(final drain <= {b['drain_share']:.2%}), preset {p['flit_hops']:,}; BookSim CPU {b['cpu']:.2f} s "
              f"of which start-up {start:.3f} s", flush=True)
        res[name] = dict(speed, preset_ratio=speed["preset"] / speed["booksim"],
                         ideal_ratio=speed["ideal"] / speed["booksim"], latency_booksim=b["latency"],
                         latency_preset=p["latency"])
    return res


def phases(names=tuple(ISSUE36), routers=("ideal", "booksim"), quick: bool = False) -> dict:
    """Where a cycle's time goes: each router's share of processor cycles per phase on each configuration,
    from a profiled build (``MODELS_SIM_PROFILE=1``: the kernels read the cycle counter between their phases,
    :data:`models.sim.wormhole.steps.PROFILE`; it runs with a numba cache of its own, in a fresh process per run).
    Also prints the cycles per flit-hop, and the kernel's work counters per flit-hop (``WormholeResult.work``:
    the ideal router's VCs visited and routing attempts, the preset's VC- and switch-allocation requests), which
    say whether a flit-hop costs more because the kernel does more per flit-hop or because each step costs more."""
    import tempfile

    here = str(Path(__file__).resolve().parents[1])
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(MODELS_SIM_PROFILE="1", NUMBA_CACHE_DIR=tmp)
        try:
            for name in names:
                for router in _routers_of(name, routers):
                    r = _subprocess(here, name, quick, _own_load(name, router))
                    # the phases (``cycles_<phase>``), and the preset's steps of switch allocation inside its
                    # phase (``cycles_sw_<step>``)
                    clk = {k[len("cycles_"):]: v for k, v in r["work"].items() if k.startswith("cycles_")}
                    sub = {k[len("sw_"):]: clk.pop(k) for k in list(clk) if k.startswith("sw_")}
                    total = sum(clk.values())
                    per_hop = total * r["cycles"] / r["flit_hops"]
                    work = {k: v * r["cycles"] / r["flit_hops"] for k, v in r["work"].items()
                            if not k.startswith("cycles_")}  # (``one`` gives the counters per cycle)
                    print(f"{name:9s} {router:8s} " + ", ".join(f"{k} {v / total:.1%}" for k, v in clk.items())
                          + f"; {per_hop:.0f} processor cycles per flit-hop; per flit-hop: "
                          + ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in work.items()), flush=True)
                    res[(name, router)] = dict(shares={k: v / total for k, v in clk.items()}, per_hop=per_hop,
                                               work_per_hop=work)
                    if sub:
                        hop = {k: v * r["cycles"] / r["flit_hops"] for k, v in sub.items()}
                        print(f"{'':18s} switch allocation's steps, processor cycles per flit-hop: "
                              + ", ".join(f"{k} {v:.1f}" for k, v in hop.items()), flush=True)
                        res[(name, router)]["switch_steps_per_hop"] = hop
        finally:
            for k in ("MODELS_SIM_PROFILE", "NUMBA_CACHE_DIR"):
                os.environ.pop(k, None)
    return res


def main(quick: bool = False, compare_with: str | None = None, repeat: int = 3, routers=None, booksim=None,
         configs=None, profile: bool = False) -> dict:
    """The benchmark the options choose (module docstring)."""
    if not (isinstance(repeat, int) and repeat >= 1):
        raise ValueError(f"`repeat` (runs of each side) must be an integer >= 1; got {repeat!r}")
    unknown = [name for name in configs or () if name not in CONFIGS]
    if unknown:
        raise ValueError(f"`--config` must name configurations of {sorted(CONFIGS)}; got {unknown}")
    if profile:
        return phases(configs or tuple(ISSUE36), routers or ("ideal", "booksim"), quick)
    if booksim:
        return side_by_side(booksim, configs or tuple(ISSUE36), repeat, quick)
    if compare_with:
        return compare(compare_with, configs or (*ISSUE36, *BOOK), routers or ("ideal", "booksim"), repeat, quick)
    names = configs or tuple(CONFIGS)
    routers = routers or ("ideal",)
    return {**routers_issue12([n for n in names if n not in ISSUE36 and n not in BOOK], routers, repeat, quick),
            **own_load([n for n in names if n in ISSUE36 or n in BOOK], routers, repeat, quick)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    side = ap.add_mutually_exclusive_group()
    side.add_argument("--compare", default=None, help="PYTHONPATH of the simulator to compare against")
    side.add_argument("--booksim", default=None, metavar="PATH", help="BookSim 2's executable: the side-by-side run")
    side.add_argument("--phases", action="store_true", help="each router's share of cycles per phase (profiled build)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--router", action="append", default=None, choices=("ideal", "booksim"))
    ap.add_argument("--config", action="append", default=None, help=f"a configuration of {list(CONFIGS)}")
    ap.add_argument("--measure-saturation", nargs="*", default=None, metavar="NETWORK",
                    help="recompute the SATURATION table (of these networks only, if named) and exit")
    a = ap.parse_args()
    if a.measure_saturation is not None:
        measure_saturation(a.measure_saturation)
        sys.exit(0)
    main(a.quick, a.compare, a.repeat, tuple(a.router or ()), a.booksim, a.config, a.phases)
