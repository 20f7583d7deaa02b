"""The accuracy atlas of the approximate MVA (the multistage chapter): where over network size, memory service time and traffic pattern it holds.

A closed system: no saturation load.  Each cell simulates the populations
``NC`` = 1, 2, 4, 8, 16 and 32 requests per processor (the range of the
paper's figures), and the worst error is over them.  The grid (:data:`SPEC`)
spans the paper's Figs. 2, 3 and 5 (Omega networks of 2x2 switches with 64
and 128 processors, ``S_mm`` = 1, 2 and 4, uniform and hot-spot traffic) and a
step beyond: 16 processors, ``S_mm`` = 8.  (256 processors are left out: the
model takes 11 s per point there on hot-spot traffic, against milliseconds
elsewhere.)  The
set-up is ``"paper"`` (the return network the forward network's mirror image,
so the model's unique paths hold).
Every cell is the chapter's own comparison (:func:`models.min_mva.compare`) at
those populations (:mod:`models.core.atlas`)::

    from models.min_mva import atlas
    frame = atlas.run({"n": [4], "S_mm": [1], "pattern": ["uniform"]})

The command is ``python -m models.min_mva atlas`` (``--help`` lists the axes).
"""

from __future__ import annotations

from typing import Mapping

from ..core import atlas as core

__all__ = ["SPEC", "cell", "run"]

SPEC = core.AtlasSpec(
    chapter="min_mva", compare=core.lazy(f"{__package__}.compare", "compare"),
    axes=(core.Axis("n", "stages of 2x2 switches (2^n processors), >= 1", int, label="n [stages]"),
          core.Axis("S_mm", "memory service time, cycles", float, label="S_mm [cycles]"),
          core.Axis("pattern", "traffic pattern", str, choices=("uniform", "hot_spot"), label="pattern")),
    grid={"n": (4, 6, 7), "S_mm": (1.0, 2.0, 4.0, 8.0), "pattern": ("uniform", "hot_spot")},
    quick={"n": (3, 4), "S_mm": (1.0, 2.0), "pattern": ("uniform",)},
    setups=("paper",),
    paper=tuple([{"n": 6, "S_mm": s, "pattern": "uniform"} for s in (1.0, 2.0, 4.0)]
                + [{"n": 6, "S_mm": 2.0, "pattern": "hot_spot"}]
                + [{"n": 7, "S_mm": s, "pattern": "uniform"} for s in (1.0, 2.0)]),
    x="S_mm", y="n", closed=True, threshold=None,
    settings=core.SimSettings(cycles=60_000, warmup_cycles=10_000, batches=10),
    quick_settings=core.SimSettings(cycles=12_000, warmup_cycles=3_000, batches=10))


def cell(cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas (:func:`models.core.atlas.cell_row` on :data:`SPEC`)."""
    return core.cell_row(SPEC, cell, setup, settings)


def run(grid: Mapping | None = None, **options):
    """The atlas over ``grid`` (default the book's, :data:`SPEC`): :func:`models.core.atlas.run_atlas`."""
    from ..sim.sweep import run_sweep  # the simulator's floor: `atlas --help` (``__main__``) imports none

    return core.run_atlas(SPEC, grid, cell=cell, sweep=run_sweep, **options)
