"""The accuracy atlas of the 2004 model: where over network size, message length and virtual channels it holds.

The grid (:data:`SPEC`) spans the paper's validation (the 16x16 and 8x8x8
unidirectional tori, ``M`` = 32, 64 and 100 flits, ``L`` = 3 and 5) and a
step beyond on each axis: 4x4 and 8x8 tori, 8-flit messages, ``L`` = 2.
(``M`` = 64 is left out of the book's grid, to keep the atlas within its
CPU budget; ``--M 64`` adds it.)  Every cell is the chapter's own comparison (:func:`models.torus_dor.compare`,
the set-up ``"paper"``, which is also the model's: "the simulator uses the
same assumptions as the analysis") at the fixed fractions of the simulated
saturation load (:mod:`models.core.atlas`)::

    from models.torus_dor import atlas
    frame = atlas.run({"network": ["8x8"], "M": [32], "L": [3]})

The command is ``python -m models.torus_dor atlas`` (``--help`` lists the axes).
"""

from __future__ import annotations

from typing import Mapping

from ..core import atlas as core

__all__ = ["SPEC", "cell", "run"]

SPEC = core.AtlasSpec(
    chapter="torus_dor", compare=core.lazy(f"{__package__}.compare", "compare"),
    axes=(core.Axis("network", "torus radices k_0 x ... x k_{n-1}, written 8x8 or 4x4x4 (nodes per dimension)",
                    core.network, keyword=lambda v: {"radices": core.radices(v)}, label="torus"),
          core.Axis("M", "message length, flits", int, label="M [flits]"),
          core.Axis("L", "virtual channels per physical channel, >= 2", int, label="L [VCs]")),
    grid={"network": ("4x4", "8x8", "16x16", "8x8x8"), "M": (8, 32, 100), "L": (2, 3, 5)},
    quick={"network": ("4x4", "8x8"), "M": (8, 32), "L": (3,)},
    setups=("paper",),
    paper=tuple({"network": n, "M": m, "L": v} for n in ("16x16", "8x8x8") for m in (32, 64, 100) for v in (3, 5)),
    x="M", y="network", fixed={"bidirectional": False}, threshold=None)


def cell(cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas (:func:`models.core.atlas.cell_row` on :data:`SPEC`)."""
    return core.cell_row(SPEC, cell, setup, settings)


def run(grid: Mapping | None = None, **options):
    """The atlas over ``grid`` (default the book's, :data:`SPEC`): :func:`models.core.atlas.run_atlas`."""
    from ..sim.sweep import run_sweep  # the simulator's floor: `atlas --help` (``__main__``) imports none

    return core.run_atlas(SPEC, grid, cell=cell, sweep=run_sweep, **options)
