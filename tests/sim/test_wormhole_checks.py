"""Both kernels' build-time switches.  Invariant checks (``steps.CHECKS``: ``assert`` statements numba folds
away unless ``MODELS_SIM_CHECKS=1``) hold on every golden case, and the checked build gives the pinned results (the
ideal router with either traversal); a profiled build (``steps.PROFILE``, ``MODELS_SIM_PROFILE=1``) counts the
cycles of every phase and changes no result.

The checked and profiled build (both switches on: one compile, which the golden cases and the broken invariant
share) runs in a subprocess with a numba cache folder of its own (the kernels are not cached on disk when checked
or profiled, :data:`models.sim.wormhole.steps.CACHE`; a fresh folder keeps the plain cache untouched).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))  # the golden cases and digests of the two routers' tests (pytest's importlib mode)
from test_wormhole_booksim_golden import GOLDEN as BOOKSIM_GOLDEN  # noqa: E402
from test_wormhole_golden import GOLDEN  # noqa: E402

sys.path.remove(str(HERE))

SCRIPT = """
import dataclasses, json, sys
sys.path.insert(0, {here!r})
from models.sim.wormhole import simulate, steps
assert steps.CHECKS and steps.PROFILE and not steps.CACHE
from test_wormhole_golden import CASES
from test_wormhole_booksim_golden import CASES as BCASES, result_digest
import importlib
sim = importlib.import_module("models.sim.wormhole.simulate")
words = sim.MASK_HOPS
out = {{"ideal": {{}}, "hops": {{}}, "booksim": {{}}, "cycles": {{}}, "contested": {{}}}}
for traversal, hops in (("ideal", words), ("hops", 0)):  # the worms' masks, then hop by hop
    sim.MASK_HOPS = hops
    for name, (topo, kw) in CASES.items():
        r = simulate(topo, seed=7, messages=4000, warmup_messages=400, **kw)
        out[traversal][name] = [r.latency, r.network_latency, r.throughput, r.cycles, r.flit_hops,
                                r.work["routing_attempts"], r.work["vc_visits"]]
        out["cycles"][traversal + " " + name] = {{k: v for k, v in r.work.items() if k.startswith("cycles_")}}
sim.MASK_HOPS = words
for name, (topo, kw) in BCASES.items():
    r = simulate(topo, **kw, router="booksim", messages=3000, warmup_messages=300, seed=3)
    plain = dataclasses.replace(r, work={{k: v for k, v in r.work.items()
                                          if not k.startswith("cycles_") and k != "sw_contested"}})
    out["booksim"][name] = [result_digest(plain), r.latency]
    out["cycles"]["booksim " + name] = {{k: v for k, v in r.work.items() if k.startswith("cycles_")}}
    out["contested"]["booksim " + name] = [r.work["sw_contested"], r.work["sw_alloc_requests"]]
# a broken invariant, in the same checked build (no second compile): a channel counted busy with no VC held
from models.networks.graph import Torus
from models.sim.wormhole import kernel as K
real = K.run
def broken(cfg, net, vc, vo, chan, *rest):
    chan["busy"][0] = 1
    return real(cfg, net, vc, vo, chan, *rest)
sim.K = type("K", (), dict(vars(K), run=staticmethod(broken)))
try:
    sim.simulate(Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.05, messages=20000,
                 warmup_messages=100, seed=1)
    out["broken"] = "ran to the end"
except AssertionError:
    out["broken"] = "asserted"
finally:
    sim.K = K
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checked")
    env = dict(os.environ, MODELS_SIM_CHECKS="1", MODELS_SIM_PROFILE="1", NUMBA_CACHE_DIR=str(folder / "numba"),
               MODELS_CACHE_DIR=str(folder / "results"), PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(here=str(HERE))], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_checked_ideal_router_gives_the_pinned_results(checked):
    """Both of its traversals: the worms' masks (the default) and hop by hop (forced)."""
    for traversal in ("ideal", "hops"):
        got = {k: tuple(v) for k, v in checked[traversal].items()}
        assert got == {k: tuple(v) for k, v in GOLDEN.items()}, traversal


def test_the_checked_booksim_router_gives_the_pinned_results(checked):
    got = {k: (v[0], v[1]) for k, v in checked["booksim"].items()}
    assert got == {k: tuple(v) for k, v in BOOKSIM_GOLDEN.items()}


def test_a_broken_invariant_stops_the_run_with_an_assertion(checked):
    """The checks are live: a state that breaks one (a channel counted busy with no VC held) raises
    AssertionError in the checked build (the same process and build as the golden cases above)."""
    assert checked["broken"] == "asserted"


def test_a_profiled_build_counts_every_phase_and_changes_no_result(checked):
    """The build above is profiled too (``MODELS_SIM_PROFILE=1``): each router's ``work`` holds the processor
    cycles of each of its phases, every one counted, and its results are the pinned ones (the two tests above);
    the preset's also the cycles of switch allocation's steps, which add up to less than the phase they are
    part of, and its contested candidates, at most its requests; a plain build reports none of these."""
    from models.networks.graph import Torus
    from models.sim.wormhole import booksim_kernel, kernel, simulate

    for key, cycles in checked["cycles"].items():
        if key.endswith("saturated"):
            continue
        booksim = key.startswith("booksim ")
        phases = booksim_kernel.PHASES + booksim_kernel.SWITCH_STEPS if booksim else kernel.PHASES
        assert sorted(cycles) == sorted("cycles_" + p for p in phases) and min(cycles.values()) > 0, (key, cycles)
        if booksim:
            steps = sum(cycles["cycles_" + p] for p in booksim_kernel.SWITCH_STEPS)
            assert steps < cycles["cycles_switch_allocation"], (key, cycles)
            contested, requests = checked["contested"][key]
            assert 0 <= contested <= requests, (key, contested, requests)
    assert any(contested > 0 for contested, _ in checked["contested"].values())
    for router in ("ideal", "booksim"):
        plain = simulate(Torus((4, 4)), routing="dor", vcs=2, message_length=8, rate=0.02, messages=500, seed=5,
                         router=router)
        assert not any(k.startswith("cycles_") or k == "sw_contested" for k in plain.work), router
