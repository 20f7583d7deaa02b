"""Numba's SSA reconstruction visiting only the blocks that name the variable it fixes: the kernels compile faster.

Numba's ``ReconstructSSA`` pass (``numba.core.ssa._run_ssa``, numba 0.68) fixes the variables assigned more than
once ("violators") one at a time, and for each it rewrites every block of the function twice: once to give each
assignment a fresh name, once to point each use at the assignment that reaches it.  A block that neither assigns
nor uses the variable comes out of both rewrites with the same statements in a new container, so the work grows
with violators times statements.  Each kernel is one function with everything inlined: the preset's has 140
violators in 488 blocks of 5,274 statements, so numba's pass visits 1.48 million statements (the ideal router's: 182,
645, 6,702 and 2.44 million).  Visiting only the blocks that name the variable, 33,118 and 38,924.

:func:`faster_ssa` replaces ``_run_ssa`` by :func:`_run_ssa`, which finds once, with numba's own analysis handler,
the blocks that assign or use each variable, and gives numba's own rewrite handlers only those blocks; the other
blocks are carried over.  Nothing else changes: the same violators in the same order, the same handlers on the same
statements in the same order (so the same fresh names and phi nodes), the same post-condition.  Every block of the
result is still a new container holding the statements numba's pass would have put there, as numba's pass leaves it
(a block is copied before a phi node is put into it, never changed in place).

A rewrite of one variable changes no other variable's assignments or uses (it renames that variable and adds phi
nodes of it), so the blocks found at the start stay the ones that name each variable.  It changes the compile time
only: under the pinned numba, both kernels' LLVM IR and machine code are byte for byte the same with and without it
(``inspect_llvm`` and ``inspect_asm``), and ``tests/sim/test_wormhole_ssa.py`` compares the two passes' IR on the
kernels' own functions.  Measured on a fresh numba cache, one process per kernel (CPU-seconds): the preset 18.5 ->
14.2, the ideal router 25.2 -> 18.2.  It is applied only when the installed numba has the functions it calls, with
the signatures it was written for; otherwise numba is left as it is.
"""

from __future__ import annotations

import inspect
from collections import defaultdict

from numba.core import errors, ir, ssa
from numba.core.analysis import compute_cfg_from_blocks

_original = None  # numba's own _run_ssa, once replaced


def _rewrite(blocks, labels, states, handler):
    """numba's ``_run_block_rewrite`` over the blocks of ``labels`` only; the others are carried over as they are.
    Returns the new blocks and the labels rewritten (new containers)."""
    newblocks = {}
    for label, blk in blocks.items():
        if label not in labels:
            newblocks[label] = blk
            continue
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)
        states["label"] = label
        states["block"] = blk
        newbody = []
        for stmt in ssa._run_ssa_block_pass(states, blk, handler):
            assert stmt is not None
            newbody.append(stmt)
        newblk.body = newbody
        newblocks[label] = newblk
    return newblocks


def _run_ssa(blocks):
    """numba's ``numba.core.ssa._run_ssa``, each violator's two rewrites over the blocks that name it (module
    docstring)."""
    if not blocks:
        return {}
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    # the blocks that assign or use each variable (numba's own gathering handler, once)
    defs, uses = defaultdict(list), defaultdict(set)
    ssa._run_block_analysis(blocks, dict(defs=defs, uses=uses), ssa._GatherDefsHandler())
    names = {v: {label for _, label in defs.get(v, ())} | uses.get(v, set()) for v in violators}
    cache_list_vars = ssa._CacheListVars()
    fresh = set()  # labels whose block is a container made here (the others are the caller's)
    for varname in violators:
        labels = names[varname]
        # the assignments: fresh names (numba's _fresh_vars)
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap = defaultdict(list)
        blocks = _rewrite(blocks, labels, states, ssa._FreshVarHandler())
        fresh |= labels
        # the uses: the reaching assignment, phi nodes where needed (numba's _fix_ssa_vars)
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap
        states["phimap"] = phimap = defaultdict(list)
        states["cfg"] = cfg
        states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
        blocks = _rewrite(blocks, labels, states, ssa._FixSSAVars(cache_list_vars))
        for label, philist in phimap.items():
            curblk = blocks[label]
            if label not in labels:  # carried over: a new container, as numba's rewrite would have made
                copied = ir.Block(scope=curblk.scope, loc=curblk.loc)
                copied.body = list(curblk.body)
                blocks[label] = curblk = copied
                fresh.add(label)
            curblk.body = philist + curblk.body
    for label in set(blocks) - fresh:  # never rewritten: a new container all the same
        blk = blocks[label]
        copied = ir.Block(scope=blk.scope, loc=blk.loc)
        copied.body = list(blk.body)
        blocks[label] = copied
    if compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


#: what :func:`_run_ssa` calls in ``numba.core.ssa``, with their parameters
_NEEDS = {"_run_ssa": ["blocks"], "_iterated_domfronts": ["cfg"], "_find_defs_violators": ["blocks", "cfg"],
          "_run_block_analysis": ["blocks", "states", "handler"], "_make_states": ["blocks"],
          "_run_ssa_block_pass": ["states", "blk", "handler"], "_compute_phi_locations": ["iterated_df", "defmap"],
          "_GatherDefsHandler": None, "_FreshVarHandler": None, "_FixSSAVars": None, "_CacheListVars": None}


def faster_ssa() -> bool:
    """Replace numba's ``numba.core.ssa._run_ssa`` by :func:`_run_ssa`, once per process.  Returns whether it is in
    place (False: this numba lacks a function it calls, or its signature differs, and numba is left as it is)."""
    global _original
    if _original is not None:
        return True
    for name, params in _NEEDS.items():
        obj = getattr(ssa, name, None)
        if obj is None or (params is not None and list(inspect.signature(obj).parameters) != params):
            return False
    _original = ssa._run_ssa
    ssa._run_ssa = _run_ssa
    return True


def numbas_ssa() -> None:
    """Put numba's own ``_run_ssa`` back (the test that compares the two)."""
    global _original
    if _original is not None:
        ssa._run_ssa = _original
        _original = None
