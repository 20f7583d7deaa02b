"""Numba's liveness analysis over bit sets: the kernels compile faster.

Numba's post-processor (``numba.core.postproc.PostProcessor``, run after most of its passes) asks
``numba.core.analysis.compute_live_map`` (numba 0.68) for the variables live at the entry of each block.  It solves
two fix points with Python sets of names: the variables defined or used on some path to each block (``def_reach``),
then the live ones, pushed back from their uses.  Each step unions whole sets, so the work grows with blocks times
variables: each kernel is one function with everything inlined (the preset's has 509 blocks and 5,286 variables,
the ideal router's 653 and 5,584), and the analysis runs again after every pass: 491 times in a compile of the
preset's kernel, 530 in the ideal router's, 2.9 to 3.7 CPU-seconds of it (about a quarter), ``def_reach`` most of it.

:func:`compute_live_map` solves the same two fix points, in the same block order, with each set a Python integer,
a bit per variable: a union is one ``|`` of machine words.  The names go back into sets at the end, so the caller
gets what numba's function returns: the same blocks, the same set of names for each.  Both functions start from the
same sets and apply the same monotone steps until nothing changes, so they reach the same (least) fix point.  Only
the order in which a set yields its names may differ, and numba's own sets already do that from one process to the
next (the hashes of strings are seeded per process); the ``del`` statements it emits from them are sorted by name
(``_patch_var_dels``).

It changes the compile time only: under the pinned numba, both kernels' machine code is byte for byte the same with
and without it, and ``tests/sim/test_wormhole_liveness.py`` compares the two functions' maps on the kernels' own
functions.  Measured by ``benchmarks/bench_compile.py`` (each kernel on an empty numba cache, both functions
answering every call, CPU-seconds, three runs): 0.11 to 0.19 in this one, the same map at every call; each kernel's
compile 12.8 -> 10.0, 15.0 -> 11.6 and 15.7 -> 12.3 (the preset), 13.3 -> 10.0, 15.0 -> 11.5 and 13.2 -> 10.3 (the
ideal router); with ``--asm``, the same machine code.  It is applied only when the installed numba has the
function, with the signature it was written for; otherwise numba is left as it is.
"""

from __future__ import annotations

import inspect
from collections import defaultdict

from numba.core import analysis

_original = None  # numba's own compute_live_map, once replaced
#: the parameters of numba's ``compute_live_map`` that :func:`compute_live_map` was written for
_PARAMS = ["cfg", "blocks", "var_use_map", "var_def_map"]


def _names(x, names):
    """The set of ``names[i]`` for each bit ``i`` set in ``x`` (its binary digits scanned in C, not bit by bit)."""
    s = bin(x)
    last = len(s) - 1  # the string's position of bit 0
    out = set()
    i = s.find("1", 2)
    while i >= 0:
        out.add(names[last - i])
        i = s.find("1", i + 1)
    return out


def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's ``numba.core.analysis.compute_live_map`` over bit sets: the variables that must be alive at the entry
    of each block of ``blocks`` (a dict: block label -> set of names), from the control-flow graph ``cfg`` and each
    block's variables used before any definition (``var_use_map``) and defined (``var_def_map``)."""
    topo_order = cfg.topo_order()
    index = {}
    names = []

    def bits(s):
        x = 0
        for v in s:
            i = index.get(v)
            if i is None:
                i = index[v] = len(names)
                names.append(v)
            x |= 1 << i
        return x

    use = {label: bits(s) for label, s in var_use_map.items()}
    dfn = {label: bits(s) for label, s in var_def_map.items()}
    # the variables defined or used on some path to each block (numba's def_reach)
    reach = defaultdict(int)
    succ = [(label, use[label] | dfn[label], [out for out, _ in cfg.successors(label)]) for label in topo_order]
    while True:
        before = dict(reach)
        for label, own, outs in succ:
            x = reach[label] | own
            reach[label] = x
            for out in outs:
                reach[out] |= x
        if reach == before:
            break
    # the live ones, pushed back from the uses to each predecessor that reaches them and does not define them (numba's
    # liveness)
    live = {label: use[label] for label in blocks}
    pred = [(label, [(inc, reach[inc] & ~dfn[inc]) for inc, _ in cfg.predecessors(label)])
            for label in reversed(topo_order)]
    while True:
        before = dict(live)
        for label, incs in pred:
            x = live[label]
            for inc, keep in incs:
                live[inc] |= x & keep
        if live == before:
            break
    return {label: _names(x, names) for label, x in live.items()}


def faster_liveness() -> bool:
    """Replace numba's ``numba.core.analysis.compute_live_map`` by :func:`compute_live_map`, once per process.
    Returns whether it is in place (False: this numba lacks the function, or its signature differs, and numba is
    left as it is)."""
    global _original
    if _original is not None:
        return True
    own = getattr(analysis, "compute_live_map", None)
    if own is None or list(inspect.signature(own).parameters) != _PARAMS:
        return False
    _original = own
    analysis.compute_live_map = compute_live_map
    return True


def numbas_liveness() -> None:
    """Put numba's own ``compute_live_map`` back (the test that compares the two)."""
    global _original
    if _original is not None:
        analysis.compute_live_map = _original
        _original = None
