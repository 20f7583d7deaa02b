"""The 2004 model against the simulation in one call: :func:`compare` (the front door's ``models.torus_dor.compare``).

One network -- an n-D torus, uni- or bidirectional, dimension-order routing,
``L`` virtual channels, ``M``-flit messages, Poisson traffic, uniform
destinations -- with the parameters, units and defaults of ``python -m
models.torus_dor curve`` (:mod:`models.torus_dor.__main__`), through the loop
every chapter shares, :func:`models.core.compare.compare`::

    from models import torus_dor
    c = torus_dor.compare(radices=(12, 12), L=3, M=32, points=8)   # up to the simulated saturation
    c.to_frame()                         # tidy: one row per load and source (model, sim)
    c.errors                             # signed (model - sim) / sim per simulated load
    c.worst_error, c.sim_saturation, c.sim_bracket
    c.save("curve.svg", style="paper")   # a single-column figure

The parameters are checked once, as a :class:`~models.torus_dor.setups.DorParams`,
and the curve is built once from them (:func:`~models.torus_dor.setups.torus_curve`).
The simulation is the chapter's own (:mod:`models.torus_dor.experiments`,
imported only when simulating): its translation :func:`~models.torus_dor.experiments.sim_kwargs`
(the paper's scheme: ``L`` injection VCs, one ejection VC, 2-flit buffers, one
cycle per router), its simulated-saturation search
:func:`~models.torus_dor.experiments.sim_saturation` (``sat_steps`` halvings
of ``[0, capacity]``, 8 by default) and its cached sweep.
"""

from __future__ import annotations

from typing import Sequence

from ..core import compare as core
from . import setups
from .setups import DorParams
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare", "subject", "CHAPTER"]

#: The chapter's slug, as the comparison's subject names it.
CHAPTER = "torus_dor"


def subject(p: DorParams) -> core.Subject:
    """What a comparison of the network ``p`` is about, in words (the figure's title) and units."""
    return core.Subject(
        chapter=CHAPTER, load=LOAD, load_label=r"$\lambda_g$", load_unit=LOAD_UNIT,
        network=f"{core.TIMES.join(map(str, p.radices))} {p.torus} torus, dimension-order routing, "
                f"L = {p.L} VCs, M = {p.M} flits", latency="mean message latency")



def compare(*, radices: Sequence[int], L: int, M: float, bidirectional: bool = False, **run) -> core.Comparison:
    """The 2004 model against the simulation on one torus: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    radices : sequence of int
        Nodes per dimension ``k_0 .. k_{n-1}``, each >= 2 (dimension 0 is crossed first).
    L : int
        Virtual channels per physical channel, >= 2 (the paper's ``L``; two
        are the dateline pair, eq. 4).
    M : float
        Message length, flits, >= 1.
    bidirectional : bool
        A bidirectional torus, each dimension the shorter way; default
        False, the unidirectional torus the paper states its model on (Sec. 2).
    **run
        The run options (``loads``, ``points``, ``upto``, ``simulate``,
        ``search``, ``messages``, ``warmup``, ``seed``, ``jobs``,
        ``progress``, ``settings``, ``setup``, ``grid``, ``sim``): see
        :class:`models.core.compare.RunOptions`.  Loads are generation rates
        :math:`\\lambda_g`, messages/node/cycle; the run length defaults are
        :data:`models.torus_dor.setups.RUN` (20,000 measured messages after
        2,000); the one set-up is ``"paper"``.

    Returns
    -------
    Comparison
        Loads in messages/node/cycle, latencies in cycles (eq. 22, the mean
        message latency), ``model_saturation`` the model's
        :func:`~models.torus_dor.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (:class:`~models.torus_dor.setups.DorParams`:
        ``radices``, ``L``, ``M``, ``bidirectional``; a run option:
        ``loads``, ``points``, ``upto``, ``messages``, ...).
    """
    opts = core.RunOptions.of(run)
    p = DorParams(radices, L, M, bidirectional)
    curve = setups.torus_curve(p, setup=opts.setup or setups.DEFAULT_SETUP)
    return core.compare(curve, subject(p), opts, model=lambda xs: solve_curve(xs, **p.model, saturation=False),
                        model_saturation=lambda: saturation_load(**p.model, rtol=core.SAT_RTOL),
                        experiments=core.module_loader(__package__), lengths=setups.RUN, params=p.model)
