"""Numba's inliner without its repeated copies of a function's scope: the kernels compile 25 to 45 % faster.

Both kernels are built from functions compiled inline into one loop (``@njit(inline="always")``, :mod:`.steps`).
At every call site, numba 0.68's ``InlineWorker.inline_ir`` copies the callee's IR twice, and it copies each
block with a ``copy.deepcopy`` of its own.  A block refers to the function's scope, which holds every variable of
the function, so each block's copy copies the whole scope again: the cost grows with blocks times variables, and
most of a cold compile went there (the ideal router's kernel under cProfile: 54 of its 94 s in these copies).
The second copy, returned to callers that discard it, is not needed at all.  Numba's issue #8989 describes it;
numba-cuda's pull request #689 makes the same two changes.

:func:`faster_inlining` rebuilds ``inline_ir`` from numba's own source with those two changes: the blocks are
copied in one ``deepcopy`` (one memo: the scope is copied once, as the blocks share it), and the incoming IR,
which the copy leaves unmutated, is returned in place of a second copy.  It is applied only when the installed
numba's source holds the text it replaces word for word (the numba that ``requirements.txt`` pins, which a test
checks); otherwise numba is left as it is and the kernels compile as before, only slower.

It changes the compile time only.  Under the pinned numba, both kernels' LLVM IR and machine code are byte for
byte the same with and without it (checked with ``inspect_llvm`` and ``inspect_asm``), and a test compiles a
small inlined function both ways and compares its LLVM IR.  Measured on a fresh numba cache, one process per
kernel, two rounds (CPU-seconds): the ideal router 35.7 and 41.4 -> 19.9 and 23.5, the BookSim preset 23.8 and
24.7 -> 17.4 and 18.7; ``python -m models.sim.warm --jobs 2``, 39.3 -> 24.9 s.
"""

from __future__ import annotations

import inspect
import textwrap

#: numba's per-block copy of the callee's blocks (the body of ``inline_ir``'s ``copy_ir``), and its replacement
_BLOCKS_OLD = """\
        kernel_copy.blocks = {}
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
            kernel_copy.blocks[block_label] = new_block
"""
_BLOCKS_NEW = """\
        kernel_copy.blocks = copy.deepcopy(the_ir.blocks)  # one memo: the shared scope is copied once
"""
#: the copy made for mutation, and the second copy made only to be returned (its callers discard it)
_FIRST_OLD = "    callee_ir = copy_ir(callee_ir)\n"
_FIRST_NEW = "    callee_ir_original = callee_ir  # left unmutated: the copy below is the one mutated\n" + _FIRST_OLD
_SECOND_OLD = "    callee_ir_original = copy_ir(callee_ir)\n"

_original = None  # numba's own inline_ir, once replaced


def faster_inlining() -> bool:
    """Replace numba's ``InlineWorker.inline_ir`` by the version described in the module docstring, once per
    process.  Returns whether the faster version is in place (False: this numba's source is not the one it was
    written for, and numba is left as it is)."""
    global _original
    from numba.core import inline_closurecall as icc

    if _original is not None:
        return True
    worker = icc.InlineWorker
    src = textwrap.dedent(inspect.getsource(worker.inline_ir))
    if not all(src.count(text) == 1 for text in (_BLOCKS_OLD, _FIRST_OLD, _SECOND_OLD)):
        return False
    src = src.replace(_BLOCKS_OLD, _BLOCKS_NEW).replace(_SECOND_OLD, "").replace(_FIRST_OLD, _FIRST_NEW)
    namespace: dict = {}
    exec(compile(src, icc.__file__, "exec"), vars(icc), namespace)  # numba's own source, two edits
    _original = worker.inline_ir
    worker.inline_ir = namespace["inline_ir"]
    return True


def numbas_inlining() -> None:
    """Put numba's own ``inline_ir`` back (the test that compares the two)."""
    global _original
    if _original is not None:
        from numba.core import inline_closurecall as icc

        icc.InlineWorker.inline_ir = _original
        _original = None
