"""The accuracy atlas of the IPP model (Min, Ferguson & Ould-Khaoua 2001): where over radix, message length, virtual channels and burstiness it holds.

The grid (:data:`SPEC`) spans the paper's Fig. 1 (the 16x16 bidirectional
torus, Duato's routing, ``V`` = 3, ``M`` = 48 flits, IPP sources with
``(sigma1, sigma2)`` = (0.2, 0.8) and (0.6, 0.6)) and a step beyond: 8x8
tori, 8- and 100-flit messages, ``V`` = 5 (``--k 12`` adds 12x12 tori).  The model takes ``k`` a
multiple of 4 (eq. 23), and at ``k`` = 4 its superposition fit has no
solution (:data:`REFUSED`, whose refusal the atlas page prints).  (Fig. 2's 24x24 torus is
outside the grid: its runs alone would cost more than the whole atlas.)  The
set-up is ``"paper/model"``, which is the model's assumptions as the paper
states them.
Every cell is the chapter's own comparison (:func:`models.torus_ipp.compare`) at
the fixed fractions of the simulated saturation load (:mod:`models.core.atlas`)::

    from models.torus_ipp import atlas
    frame = atlas.run({"k": [8], "M": [48], "V": [3], "source": ["0.2/0.8"]})

The command is ``python -m models.torus_ipp atlas`` (``--help`` lists the axes).
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from ..core import atlas as core

__all__ = ["SPEC", "REFUSED", "cell", "run"]

#: A configuration one step below the grid that the model refuses (the atlas page prints why).
REFUSED = {"k": 4, "M": 48, "V": 3, "source": "0.2/0.8"}

SPEC = core.AtlasSpec(
    chapter="torus_ipp", compare=core.lazy(f"{__package__}.compare", "compare"),
    axes=(core.Axis("k", "torus radix, nodes per dimension (a k x k bidirectional torus), a multiple of 4, >= 8", int,
                    label="k"),
          core.Axis("M", "message length, flits", int, label="M [flits]"),
          core.Axis("V", "virtual channels per physical channel, >= 3 (V - 2 adaptive, 2 escape)", int,
                    label="V [VCs]"),
          core.Axis("source", "IPP source's transition rates sigma1/sigma2 (off->on, on->off), per cycle, "
                    "written 0.2/0.8", core.rates, keyword=core.rates_keywords, label="sigma1/sigma2")),
    grid={"k": (8, 16), "M": (8, 48, 100), "V": (3, 5), "source": ("0.2/0.8", "0.6/0.6")},
    quick={"k": (8,), "M": (8, 48), "V": (3,), "source": ("0.2/0.8", "0.6/0.6")},
    setups=("paper/model",),
    paper=({"k": 16, "M": 48, "V": 3, "source": "0.2/0.8"}, {"k": 16, "M": 48, "V": 3, "source": "0.6/0.6"}),
    x="M", y="k", threshold=None,
    # bursty sources need longer saturation probes (the chapter's figures probe 50,000 messages)
    settings=dataclasses.replace(core.SETTINGS, sat_messages=20_000))


def cell(cell: Mapping, setup: str, settings: Mapping) -> dict:
    """One row of the atlas (:func:`models.core.atlas.cell_row` on :data:`SPEC`)."""
    return core.cell_row(SPEC, cell, setup, settings)


def run(grid: Mapping | None = None, **options):
    """The atlas over ``grid`` (default the book's, :data:`SPEC`): :func:`models.core.atlas.run_atlas`."""
    from ..sim.sweep import run_sweep  # the simulator's floor: `atlas --help` (``__main__``) imports none

    return core.run_atlas(SPEC, grid, cell=cell, sweep=run_sweep, **options)
