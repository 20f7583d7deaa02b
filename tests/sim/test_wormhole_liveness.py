"""Numba's liveness analysis over bit sets (:mod:`models.sim.wormhole.liveness`): in place under the pinned numba, the
same live map as numba's own function on the kernels' own functions and the same compiled code, and numba left as it
is when its function is not the one the change was written for."""

import re
import sys
from pathlib import Path

import numba
import pytest
from numba.core import analysis
from numba.core.compiler import run_frontend

from models.sim.wormhole import booksim_kernel, kernel, liveness, ssa, steps

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))  # the LLVM IR comparison of the inliner's test, on its small kernel (importlib mode)
from test_wormhole_inlining import _kernel, _llvm  # noqa: E402

sys.path.remove(str(HERE))


def test_the_faster_liveness_is_in_place_under_the_pinned_numba():
    """If this fails after a numba upgrade, read :mod:`.liveness`: numba may have changed its liveness analysis."""
    pinned = re.search(r"^numba==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert numba.__version__ == pinned
    assert steps.FASTER_LIVENESS
    assert analysis.compute_live_map is liveness.compute_live_map and liveness._original is not None


def _inputs(fn, reconstruct):
    """What numba's post-processor hands the liveness analysis for ``fn``'s untyped IR (with ``reconstruct``, after
    SSA reconstruction: the form the later passes see)."""
    func_ir = run_frontend(fn)
    if reconstruct:
        func_ir.blocks = ssa._run_ssa(func_ir.blocks)
    usedefs = analysis.compute_use_defs(func_ir.blocks)
    return analysis.compute_cfg_from_blocks(func_ir.blocks), func_ir.blocks, usedefs.usemap, usedefs.defmap


@pytest.mark.parametrize("reconstruct", [False, True], ids=["frontend", "ssa"])
@pytest.mark.parametrize("fn", [booksim_kernel.run, booksim_kernel._switch_allocation, booksim_kernel._send,
                                booksim_kernel._events, kernel.run, kernel._advance, kernel._vc_allocation],
                         ids=lambda f: f"{f.py_func.__module__.rsplit('.', 1)[-1]}.{f.py_func.__name__}")
def test_the_faster_liveness_gives_numbas_map(fn, reconstruct):
    """The kernels' own functions (loops, branches, variables live around a loop's back edge, variables assigned
    on several paths): the same blocks in the same order and the same live names at each block's entry."""
    args = _inputs(fn.py_func, reconstruct)
    own = liveness._original(*args)
    faster = liveness.compute_live_map(*args)
    assert list(faster) == list(own) and faster == own
    assert sum(map(len, own.values())) > len(own)  # there was something live to find


def test_the_names_of_a_bit_set():
    names = [f"v{i}" for i in range(1500)]
    assert liveness._names(0, names) == set()
    assert liveness._names(1, names) == {"v0"}
    assert liveness._names((1 << 1499) | (1 << 64) | 0b110, names) == {"v1", "v2", "v64", "v1499"}


def test_the_faster_liveness_compiles_the_same_code_as_numbas():
    assert steps.FASTER_LIVENESS
    faster = _llvm(_kernel())
    try:
        liveness.numbas_liveness()
        own = _llvm(_kernel())
    finally:
        assert liveness.faster_liveness()
    assert faster == own


def test_numba_is_left_as_it_is_when_its_function_is_another(monkeypatch):
    liveness.numbas_liveness()
    own = analysis.compute_live_map
    try:
        monkeypatch.setattr(analysis, "compute_live_map", lambda cfg, blocks, usemap, defmap: own(cfg, blocks, usemap,
                                                                                                     defmap))
        other = analysis.compute_live_map
        assert liveness.faster_liveness() is False
        assert analysis.compute_live_map is other
        monkeypatch.delattr(analysis, "compute_live_map")
        assert liveness.faster_liveness() is False
    finally:
        monkeypatch.undo()
        assert liveness.faster_liveness()
    assert analysis.compute_live_map is liveness.compute_live_map and liveness._original is own
