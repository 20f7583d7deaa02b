"""The accuracy atlas of the x-Folded TM model (Moudi & Othman 2018): where over topology, radix, message length and virtual channels it holds.

The grid (:data:`SPEC`) spans the paper's delay figure (8x8 networks,
``V`` = 2 and 8; the paper does not state ``M``, the chapter's 32 flits) on
its three topologies (torus, TM, x-Folded TM as completed) and a step beyond:
4x4 and 12x12 networks, 8- and 100-flit messages.  (``--k 16`` adds 16x16
networks: the TM's with ``V`` = 8 cost one to three CPU-minutes a cell, most of
it in the saturation search's probes, so the book's grid stops at 12.)  Two set-ups: ``"model"``
(the ideal router with ``V`` ejection VCs, as the model assumes) and the
paper's ``"booksim"`` (BookSim 2's router with Bernoulli sources, as the paper
states) beside it.
Every cell is the chapter's own comparison (:func:`models.xfolded_tm.compare`) at
the fixed fractions of the simulated saturation load (:mod:`models.core.atlas`)::

    from models.xfolded_tm import atlas
    frame = atlas.run({"topology": ["torus"], "k": [8], "M": [32], "V": [2]})

The command is ``python -m models.xfolded_tm atlas`` (``--help`` lists the axes).
"""

from __future__ import annotations

from typing import Mapping

from ..core import atlas as core

__all__ = ["SPEC", "cell", "run"]

SPEC = core.AtlasSpec(
    chapter="xfolded_tm", compare=core.lazy(f"{__package__}.compare", "compare"),
    axes=(core.Axis("topology", "network topology", str, choices=("torus", "tm", "xfolded_completed"),
                    label="topology"),
          core.Axis("k", "radix, nodes per dimension (a k x k network), >= 3", int, label="k"),
          core.Axis("M", "message length, flits", int, label="M [flits]"),
          core.Axis("V", "virtual channels per physical channel, >= 2", int, label="V [VCs]")),
    grid={"topology": ("torus", "tm", "xfolded_completed"), "k": (4, 8, 12), "M": (8, 32, 100), "V": (2, 8)},
    quick={"topology": ("torus", "xfolded_completed"), "k": (4, 8), "M": (32,), "V": (2,)},
    setups=("model", "booksim"),
    paper=tuple({"topology": t, "k": 8, "M": 32, "V": v} for t in ("torus", "tm", "xfolded_completed")
                for v in (2, 8)),
    x="M", y="k", threshold=None)


def cell(cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas (:func:`models.core.atlas.cell_row` on :data:`SPEC`)."""
    return core.cell_row(SPEC, cell, setup, settings)


def run(grid: Mapping | None = None, **options):
    """The atlas over ``grid`` (default the book's, :data:`SPEC`): :func:`models.core.atlas.run_atlas`."""
    from ..sim.sweep import run_sweep  # the simulator's floor: `atlas --help` (``__main__``) imports none

    return core.run_atlas(SPEC, grid, cell=cell, sweep=run_sweep, **options)
