"""Numba's SSA reconstruction made faster (:mod:`models.sim.wormhole.ssa`): in place under the pinned numba, the same
IR as numba's own pass on the kernels' own functions and the same compiled code, and numba left as it is when it
lacks what the change calls."""

import contextlib
import io
import re
import sys
from pathlib import Path

import numba
import pytest
from numba.core import ssa as numba_ssa
from numba.core.compiler import run_frontend

from models.sim.wormhole import booksim_kernel, kernel, ssa, steps

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))  # the LLVM IR comparison of the inliner's test, on its small kernel (importlib mode)
from test_wormhole_inlining import _kernel, _llvm  # noqa: E402

sys.path.remove(str(HERE))


def test_the_faster_ssa_is_in_place_under_the_pinned_numba():
    """If this fails after a numba upgrade, read :mod:`.ssa`: numba may have changed its SSA pass."""
    pinned = re.search(r"^numba==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert numba.__version__ == pinned
    assert steps.FASTER_SSA
    assert numba_ssa._run_ssa is ssa._run_ssa and ssa._original is not None


def _ssa_dump(fn, run_ssa):
    """``fn``'s untyped IR after SSA reconstruction by ``run_ssa``, as numba prints it (every statement of every block,
    phi nodes and the fresh names included), and the names the scope redefined."""
    func_ir = run_frontend(fn)
    before = {label: blk for label, blk in func_ir.blocks.items()}
    func_ir.blocks = run_ssa(func_ir.blocks)
    assert all(func_ir.blocks[label] is not blk for label, blk in before.items())  # new containers, as numba's
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        func_ir.dump()
    scope = next(iter(func_ir.blocks.values())).scope
    return out.getvalue(), dict(scope.var_redefinitions)


@pytest.mark.parametrize("fn", [booksim_kernel.run, booksim_kernel._switch_allocation, booksim_kernel._send,
                                kernel.run, kernel._advance, kernel._vc_allocation],
                         ids=lambda f: f"{f.py_func.__module__.rsplit('.', 1)[-1]}.{f.py_func.__name__}")
def test_the_faster_ssa_gives_numbas_ir(fn):
    """The kernels' own functions (loops, branches, variables assigned on several paths: phi nodes): the same IR
    from both passes, statement for statement."""
    faster = _ssa_dump(fn.py_func, ssa._run_ssa)
    own = _ssa_dump(fn.py_func, ssa._original)
    assert "phi(" in own[0] and own[1]  # there was something to reconstruct
    assert faster == own


def test_the_faster_ssa_compiles_the_same_code_as_numbas():
    assert steps.FASTER_SSA
    faster = _llvm(_kernel())
    try:
        ssa.numbas_ssa()
        own = _llvm(_kernel())
    finally:
        assert ssa.faster_ssa()
    assert faster == own


def test_numba_is_left_as_it_is_when_it_lacks_what_the_change_calls(monkeypatch):
    ssa.numbas_ssa()
    own = numba_ssa._run_ssa
    try:
        monkeypatch.delattr(numba_ssa, "_compute_phi_locations")
        assert ssa.faster_ssa() is False
        assert numba_ssa._run_ssa is own
    finally:
        monkeypatch.undo()
        assert ssa.faster_ssa()
    assert numba_ssa._run_ssa is ssa._run_ssa
