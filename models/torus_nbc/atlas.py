"""The accuracy atlas of the Duato-Nbc model (Safaei et al. 2007): where over radix, message length and virtual channels it holds.

The grid (:data:`SPEC`) spans the paper's validation (8x8 and 16x16
bidirectional tori, ``M`` = 32 and 64 flits, ``V`` = 10) and a step beyond:
4x4 tori, 8- and 100-flit messages, ``V`` = 14 (``M`` = 64 is left out of the
book's grid, to keep the atlas within its CPU budget; ``--M 64`` adds it).  Two set-ups: ``"model"``
(``V`` ejection VCs, as the model assumes: its errors measure the model's
approximations) and the paper's ``"paper"`` (one ejection VC, as the paper
states) beside it.
Every cell is the chapter's own comparison (:func:`models.torus_nbc.compare`) at
the fixed fractions of the simulated saturation load (:mod:`models.core.atlas`)::

    from models.torus_nbc import atlas
    frame = atlas.run({"k": [8], "M": [32], "V": [10]})

The command is ``python -m models.torus_nbc atlas`` (``--help`` lists the axes).
"""

from __future__ import annotations

from typing import Mapping

from ..core import atlas as core

__all__ = ["SPEC", "cell", "run"]

SPEC = core.AtlasSpec(
    chapter="torus_nbc", compare=core.lazy(f"{__package__}.compare", "compare"),
    axes=(core.Axis("k", "torus radix, nodes per dimension (a k x k bidirectional torus), >= 3", int, label="k"),
          core.Axis("M", "message length, flits", int, label="M [flits]"),
          core.Axis("V", "virtual channels per physical channel, >= k/2 + 2 (k/2 + 1 escape levels, one adaptive)",
                    int, label="V [VCs]")),
    grid={"k": (4, 8, 16), "M": (8, 32, 100), "V": (10, 14)},
    quick={"k": (4, 8), "M": (8, 32), "V": (10,)},
    setups=("model", "paper"),
    paper=tuple({"k": k, "M": m, "V": 10} for k in (8, 16) for m in (32, 64)),
    x="M", y="k", threshold=None)


def cell(cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas (:func:`models.core.atlas.cell_row` on :data:`SPEC`)."""
    return core.cell_row(SPEC, cell, setup, settings)


def run(grid: Mapping | None = None, **options):
    """The atlas over ``grid`` (default the book's, :data:`SPEC`): :func:`models.core.atlas.run_atlas`."""
    from ..sim.sweep import run_sweep  # the simulator's floor: `atlas --help` (``__main__``) imports none

    return core.run_atlas(SPEC, grid, cell=cell, sweep=run_sweep, **options)
