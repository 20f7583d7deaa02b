"""Who makes the BookSim preset's flit-hops: the share made by a VC *alone at both its ports* (the only active VC of
its input channel and the only held VC of its output channel, so that switch allocation has one outcome for it: it
sends when it has a flit and a credit), and where those flits go.

``python benchmarks/lone_hops.py [--config NAME ...] [--quick]``

The kernel keeps no such count (a counter in its send loop would cost every run), so this script counts in a copy:
it copies ``models/`` into a new temporary folder, adds the counters to the copy's ``booksim_kernel.py`` (:func:`patch`:
scalars at the end of ``SCALARS``, and in ``_send``'s loop, for each winner, a scan of the VCs of its input and its
output channel; the copy's lone list is off, so that every flit-hop is such a winner, and its terminals send their
credits back, which the kernel leaves unsent where no send waits for one) and widens an array of its
``booksim.py`` (:func:`patch_wrapper`), runs :func:`bench_wormhole.one` on the copy in a child process (its own
numba cache, inside the folder) and removes the folder.  The copy's results are the kernel's: the counters only read
its state (and the stamps below write an array that it then does not read).

Printed per configuration, as shares of the counted flit-hops (the winners of switch allocation, one per flit-hop):
``lone`` those made by a VC alone at both its ports; of those, ``into lone`` the ones whose flit enters a VC alone
at both its ports too (the hops come in chains), ``into ejection`` an ejection VC, ``into shared`` a network VC that
still holds another message's flits (with ``wait_for_tail_credit = 0`` a VC is free again once a tail is sent into
it), and ``queued`` those that leave a VC with another message queued behind its front one.  And how they come
together in a cycle: ``per chain`` the lone flit-hops per chain (a run of a message's consecutive hops that each make
a lone flit-hop in the same cycle: a pair of them is ``linked``), ``per worm`` per message that makes one (``worms``:
the message and cycle pairs), which is what a worm-by-worm path would move per visit of a worm.  For those two the
copy stamps each lone send with its cycle in the wrapper's ``vcs.tsent``, widened to int64 and to one entry per
message slot after the VCs' (the kernel reads it only with ``wait_for_tail_credit``, which the benchmark's
configurations do not set; with it, these two are not counted).  And ``steady``, the flit-hops made by a VC whose
state is what it was a cycle before (it sent then too, has received one flit and one credit since, and sends neither a
header nor a tail), and ``steady and lone`` those of them made by a lone VC: the flit-hops where nothing changes, which
a path doing only what changes could skip whole, whatever its data structures (the copy keeps each VC's last send and
its counts after it in ``tsent``, widened by three entries per VC after the messages'; on messages that never meet
the count is known exactly, which the tests check).  And ``woken``, the lone flit-hops (but headers) made by a VC
that did not send in the cycle before, and ``after``, the cycles it waited on average (since its last send, of the
same message): what a lone list that let a VC without a flit or a credit sleep would save per wake (at most a visit a
cycle waited: part of a wait may have been spent not alone) and pay (a wake: the test of a flit's arrival or a credit
that finds it asleep).  DESIGN.md cites them (the preset's kernel: where its time could still be cut).
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
ROOT = HERE.parent

#: the counters, added at the end of the kernel's ``SCALARS``
FIELDS = ("lh_winners", "lh_lone", "lh_into_lone", "lh_into_ej", "lh_into_shared", "lh_queued", "lh_linked",
          "lh_worms", "lh_steady", "lh_steady_lone", "lh_woken", "lh_waited")
_FIELDS_AT = '("sw_contested", _i8),\n], align=True)'
#: the line of ``_send``'s loop after which the winner's counts go (``b``, ``r``, ``o``, ``ich``, ``och`` are set)
_SEND_AT = "        och = vs[uidx(r + VS_OUTCH)]\n        _move_past(r, ich, och, vs, sw.ch)\n        # the front flit"
_COUNT = '''        lh_a = _lh_active(vs, chans, ich)
        lh_h = _lh_held(vs, chans, och)
        lh = (lh_a == 1) & (lh_h == 1)
        sc.lh_winners += 1
        sc.lh_lone += lh
        sc.lh_queued += lh & (vcs.mqn[b] > 0)
        if lh & (o < injb):
            if vs[o * NVS + VS_ST] == ST_ACTIVE:
                sc.lh_into_lone += ((_lh_active(vs, chans, vs[o * NVS + VS_CHAN]) == 1)
                                    & (_lh_held(vs, chans, vs[o * NVS + VS_OUTCH]) == 1))
            sc.lh_into_shared += ((vcs.mqn[o] > 0)
                                  | ((vs[o * NVS + VS_ST] == ST_ACTIVE) & (vs[o * NVS + VS_FM] != vs[r + VS_FM])))
        sc.lh_into_ej += lh & (o >= injb)
        # steady: b sent in the cycle before too, and its counts are what that send left (one flit and one credit
        # received since), its flit neither a header nor a tail.  Per VC, after the stamps: the cycle of its last
        # send, and its flits and credits in use after it
        lh_nv = vs.size // NVS
        lh_at = vcs.tsent.size - 3 * lh_nv
        lh_c = vs[r + VS_CNT]
        lh_q = vs[r + VS_OCCO]
        lh_x = vs[r + VS_LEFT]
        lh_st = ((vcs.tsent[lh_at + b] == t - 1) & (lh_c == vcs.tsent[lh_at + lh_nv + b] + 1)
                 & (lh_q == vcs.tsent[lh_at + 2 * lh_nv + b] - 1) & ((lh_x & 1) == 0) & (lh_x >= 4))
        sc.lh_steady += lh_st
        sc.lh_steady_lone += lh_st & lh
        # a lone VC's wait: the cycles since its last send, before a send of the same message (not a header)
        lh_gap = (t - 1 - vcs.tsent[lh_at + b]) if lh & ((lh_x & 1) == 0) else 0
        sc.lh_woken += lh_gap > 0
        sc.lh_waited += lh_gap
        vcs.tsent[lh_at + b] = t
        vcs.tsent[lh_at + lh_nv + b] = lh_c - 1
        vcs.tsent[lh_at + 2 * lh_nv + b] = lh_q + 1
        if lh and not cfg.wtc:  # the cycle's lone sends, stamped t + 1 in ``tsent`` (unused without
            # wait_for_tail_credit; widened to int64 in the copy, :func:`patch_wrapper`)
            vcs.tsent[b] = t + 1
            fm = vs[r + VS_FM]
            u = _holder(vs[r + VS_LOC])  # the VC upstream that holds b, and the one b sends into: lone in this
            # cycle too, with the same front message (a pair counted once, by the second of the two sends)
            sc.lh_linked += (u >= 0) and vcs.tsent[u] == t + 1 and vs[u * NVS + VS_FM] == fm
            sc.lh_linked += (o < injb) and vcs.tsent[o] == t + 1 and vs[o * NVS + VS_FM] == fm
            lh_m = vs.size // NVS + fm  # the message's stamp, after the VCs': its first lone send in this cycle
            sc.lh_worms += vcs.tsent[lh_m] != t + 1
            vcs.tsent[lh_m] = t + 1
'''
_HELPERS = '''

@njit(cache=CACHE, inline="always")
def _lh_active(vs, chans, ch):
    """(lone_hops.py) The active VCs of channel ``ch`` as an input channel."""
    hi = chans.base[ch + 1] if ch + 1 < chans.base.size else vs.size // NVS
    n = 0
    for v in range(chans.base[ch], hi):
        n += vs[v * NVS + VS_ST] == ST_ACTIVE
    return n


@njit(cache=CACHE, inline="always")
def _lh_held(vs, chans, ch):
    """(lone_hops.py) The VCs of channel ``ch`` held by an input VC."""
    hi = chans.base[ch + 1] if ch + 1 < chans.base.size else vs.size // NVS
    n = 0
    for v in range(chans.base[ch], hi):
        n += _holder(vs[v * NVS + VS_LOC]) >= 0
    return n
'''


#: the test by which the kernel puts a VC on its lone list (``_alone``), which the copy makes false: every VC then stays
#: on the switch list, so that every flit-hop is one of ``_send``'s winners (the results are the same either way)
_LONE_AT = {"    return ((sw.nact[uidx(": "    return False & ((sw.nact[uidx("}
#: the test by which the kernel leaves the terminals' credits unsent (``EJ_FLOOR``), which the copy makes true: the
#: steady count reads an ejection VC's credits as it reads the others' (the results are the same either way)
_EJCR_AT = {"        if cfg.ejcr | CHECKS:": "        if True:"}


def patch(source: str) -> str:
    """``booksim_kernel.py``'s text with the counters added, the lone list off and the terminals' credits sent (a
    ``ValueError`` if the kernel no longer has the lines they go after: this script then needs updating)."""
    for anchor in (_FIELDS_AT, _SEND_AT, *_LONE_AT, *_EJCR_AT):
        if source.count(anchor) != 1:
            raise ValueError(f"booksim_kernel.py has changed: {anchor.splitlines()[0]!r} is not found once")
    for anchor, off in {**_LONE_AT, **_EJCR_AT}.items():
        source = source.replace(anchor, off)
    fields = "".join(f'("{f}", _i8), ' for f in FIELDS)
    source = source.replace(_FIELDS_AT, f'("sw_contested", _i8),\n    {fields.rstrip()}\n], align=True)')
    head, tail = _SEND_AT.split("\n", 1)
    source = source.replace(_SEND_AT, head + "\n" + _COUNT + tail)
    return source + _HELPERS


#: the wrapper's allocation of ``tsent``, which the copy widens to hold a cycle number
_TSENT_AT = "tsent=i8(NV))"


def patch_wrapper(source: str) -> str:
    """``booksim.py``'s text with ``vcs.tsent`` allocated as int64, one entry per VC, then one per message slot, then
    three per VC (a ``ValueError`` if its line changed)."""
    if source.count(_TSENT_AT) != 1:
        raise ValueError(f"booksim.py has changed: {_TSENT_AT!r} is not found once")
    return source.replace(_TSENT_AT, "tsent=i64(NV + mcap + 3 * NV))")


def shares(counts: dict) -> dict:
    """The printed shares from the counters (:data:`FIELDS`, without the prefix)."""
    lone = counts["lone"]
    per_lone = {k: counts[k] / lone if lone else 0.0 for k in ("into_lone", "into_ej", "into_shared", "queued")}
    chains = lone - counts["linked"]
    return dict(lone=lone / counts["winners"], **per_lone, per_chain=lone / chains if chains else 0.0,
                per_worm=lone / counts["worms"] if counts["worms"] else 0.0,
                steady=counts["steady"] / counts["winners"], steady_lone=counts["steady_lone"] / counts["winners"],
                woken=counts["woken"] / lone if lone else 0.0,
                per_wait=counts["waited"] / counts["woken"] if counts["woken"] else 0.0)


_CHILD = """
import json, sys
sys.path.insert(0, {bench!r})
import bench_wormhole as b
import models.sim.wormhole.booksim as B
from models.sim.wormhole import Torus, simulate
seen = {{}}
summarise = B.summarise
def capture(p, sc, *a, **k):
    seen["sc"] = sc.copy()
    return summarise(p, sc, *a, **k)
B.summarise = capture
out = []
lengths = dict(b.RUN)  # the benchmark's run lengths, which a run's ``messages`` replaces for that run only
for run in json.loads({runs!r}):
    if "bench" in run:
        b.RUN.update(lengths)
        if run["messages"] is not None:
            b.RUN[run["quick"]] = tuple(run["messages"])
        hops = b.one(run["bench"], run["quick"], b._own_load(run["bench"], "booksim"))["flit_hops"]
    else:
        hops = simulate(Torus(tuple(run["radices"]), bidirectional=run["bidirectional"]), router="booksim", seed=1,
                        **run["kw"]).flit_hops
    sc = seen["sc"][0]
    assert int(sc["lh_winners"]) == int(sc["flithops"]), "a counted winner is a flit-hop"
    out.append(dict(flit_hops=hops, **{{f[3:]: int(sc[f]) for f in {fields!r}}}))
print(json.dumps(out))
"""


def count(name: str, quick: bool = False, messages=None) -> dict:
    """The counters of one configuration of :mod:`bench_wormhole` (the preset at its own load, seed 1; ``messages``:
    measured and warm-up messages instead of the benchmark's), and its ``flit_hops`` (:func:`count_runs`)."""
    return count_runs([dict(bench=name, quick=quick, messages=None if messages is None else list(messages))])[0]


def count_runs(runs: list) -> list:
    """The counters and ``flit_hops`` of each run of ``runs``, one after the other in one patched copy of ``models/``
    in a temporary folder of its own (removed after; one compile for all): a run is a configuration of
    :mod:`bench_wormhole` (``bench``, ``quick``, ``messages``: :func:`count`) or a network of its own (``radices``,
    ``bidirectional`` and ``kw``: ``simulate(Torus(radices, bidirectional=...), router="booksim", seed=1, **kw)``)."""
    with tempfile.TemporaryDirectory(prefix="lone_hops_") as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(ROOT / "models", tree / "models", ignore=shutil.ignore_patterns("__pycache__"))
        kernel = tree / "models" / "sim" / "wormhole" / "booksim_kernel.py"
        kernel.write_text(patch(kernel.read_text()))
        wrapper = kernel.with_name("booksim.py")
        wrapper.write_text(patch_wrapper(wrapper.read_text()))
        env = dict(os.environ, PYTHONPATH=str(tree), MODELS_CACHE_DIR=str(Path(tmp) / "cache"),
                   NUMBA_CACHE_DIR=str(Path(tmp) / "numba"))
        code = _CHILD.format(bench=str(HERE), runs=json.dumps(runs), fields=FIELDS)
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"the patched copy failed on {runs}:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    sys.path.insert(0, str(HERE))
    import bench_wormhole as bench

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", action="append", choices=list(bench.ISSUE36),
                    help="an issue #36 configuration (repeatable; default: all four)")
    ap.add_argument("--quick", action="store_true", help="the benchmark's short runs")
    args = ap.parse_args(argv)
    names = args.config or list(bench.ISSUE36)
    counts = count_runs([dict(bench=name, quick=args.quick, messages=None) for name in names])  # one compile
    for name, c in zip(names, counts):
        s = shares(c)
        print(f"{name:9s} lone {s['lone']:.1%}; of those: into lone {s['into_lone']:.1%}, into ejection "
              f"{s['into_ej']:.1%}, into shared {s['into_shared']:.2%}, queued {s['queued']:.2%}; "
              f"{s['per_chain']:.2f} per chain, {s['per_worm']:.2f} per worm (in a cycle); steady "
              f"{s['steady']:.1%}, steady and lone {s['steady_lone']:.1%}; woken {s['woken']:.1%} of the lone, "
              f"after {s['per_wait']:.2f} cycles", flush=True)


if __name__ == "__main__":
    main()
