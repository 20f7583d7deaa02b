"""Numba's inliner made faster (:mod:`models.sim.wormhole.inlining`): in place under the pinned numba, the same
compiled code as numba's own, and numba left as it is when its source is not the one the change was written for."""

import re
from pathlib import Path

import numba
import pytest
from numba import njit
from numba.core import inline_closurecall as icc

from models.sim.wormhole import inlining, steps

ROOT = Path(__file__).resolve().parents[2]


def test_the_faster_inliner_is_in_place_under_the_pinned_numba():
    """If this fails after a numba upgrade, read :mod:`.inlining`: numba may have fixed its inliner itself."""
    pinned = re.search(r"^numba==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert numba.__version__ == pinned
    assert steps.FASTER_INLINING
    assert icc.InlineWorker.inline_ir.__code__.co_filename == icc.__file__  # rebuilt from numba's own source
    assert inlining._original is not None and icc.InlineWorker.inline_ir is not inlining._original


def _kernel():
    """A fresh loop over inlined steps (several blocks, a loop, a branch and nested inlining in each), compiled
    by whichever inliner is in place when it is first called."""

    @njit(inline="always")
    def clip(x, hi):
        if x > hi:
            return hi
        return x

    @njit(inline="always")
    def step(a, i, hi):
        s = 0
        for j in range(i):
            s += clip(a[j] * 3 - i, hi)
        if s % 2 == 0:
            a[i] = s
        else:
            a[i] = -s
        return s

    @njit(cache=False)
    def run(a, hi):
        total = 0
        for i in range(a.size):
            total += step(a, i, hi) + clip(i, hi)
        return total

    return run


def _llvm(fn):
    """The function's value and its LLVM IR, with the numbers that differ between two compiles of the same source
    in one process made equal: the function object's version in its names (``B2v1``, ``_v2_``) and the blocks'
    labels with what LLVM appends to them (``B354.else.if``: numba numbers them from a counter of the process, and
    once the number is long LLVM shortens the name, ``B1484...847...if``), the blanks padding a label's comment, and
    the length of a string constant that holds a name (``[165 x i8]``: one more byte once the version has one more
    digit, ``v9`` then ``v10``).  Without the last two, about one run in twenty of these tests failed.
    """
    import numpy as np

    a = np.arange(12, dtype=np.int64)
    value = fn(a, 7)
    (ir,) = fn.inspect_llvm().values()
    ir = re.sub(r"\[\d+ x i8\]", "[# x i8]", re.sub(r"B\d+v\d+|_v\d+_|\bB\d+[\w.]*", "#", ir))
    return value, re.sub(r" +", " ", ir)


def test_the_faster_inliner_compiles_the_same_code_as_numbas():
    assert steps.FASTER_INLINING
    faster = _llvm(_kernel())
    assert _llvm(_kernel()) == faster  # the comparison below can hold: a second compile, the same IR
    try:
        inlining.numbas_inlining()
        own = _llvm(_kernel())
    finally:
        assert inlining.faster_inlining()
    assert faster == own


def test_numba_is_left_as_it_is_when_its_source_differs(monkeypatch):
    inlining.numbas_inlining()
    own = icc.InlineWorker.inline_ir
    try:
        monkeypatch.setattr(inlining, "_SECOND_OLD", "    a line this numba does not have\n")
        assert inlining.faster_inlining() is False
        assert icc.InlineWorker.inline_ir is own
    finally:
        monkeypatch.undo()
        assert inlining.faster_inlining()
    assert icc.InlineWorker.inline_ir is not own


@pytest.mark.parametrize("name", ["_BLOCKS_OLD", "_FIRST_OLD", "_SECOND_OLD"])
def test_each_text_replaced_is_in_numbas_source_once(name):
    import inspect
    import textwrap

    src = textwrap.dedent(inspect.getsource(inlining._original))
    assert src.count(getattr(inlining, name)) == 1
