"""The model against the simulation in one call: :func:`compare` (the front door's ``models.torus_nbc.compare``).

One network -- a ``k x k`` bidirectional torus, fully adaptive Duato-Nbc
routing, ``V`` virtual channels, ``M``-flit messages, Poisson traffic,
uniform destinations -- with the parameters, units and defaults of ``python
-m models.torus_nbc curve`` (:mod:`models.torus_nbc.__main__`), through the
loop every chapter shares, :func:`models.core.compare.compare`::

    from models import torus_nbc
    c = torus_nbc.compare(k=8, M=32, V=10, points=8)
    c.errors, c.worst_error, c.sim_saturation, c.sim_bracket
    c.save("nbc.svg", style="paper")

The parameters are checked once (:class:`~models.torus_nbc.params.NbcParams`)
and the curve is built once (:func:`models.torus_nbc.setups.curve`, on the
named set-up ``setup``: ``"paper"``, one ejection VC, or ``"model"``, ``V``).
The simulation is the chapter's own (:mod:`models.torus_nbc.experiments`,
imported only when simulating): the translation
:func:`~models.torus_nbc.experiments.sim_kwargs`, the search
:func:`~models.torus_nbc.experiments.sim_saturation` (bracketing from 0.8
times the model's saturation rate, as the chapter's figures do, then
bisection to ``settings.sat_rtol``, 2 %) and the cached sweep.
"""

from __future__ import annotations

from ..core import compare as core
from . import LOAD, LOAD_UNIT, setups
from .params import NbcParams
from .solve import saturation_load, solve_curve

__all__ = ["compare", "subject"]

#: The chapter's slug, as a comparison names it.
CHAPTER = "torus_nbc"


def subject(p: NbcParams, setup: str = "") -> core.Subject:
    """What a comparison of the network ``p`` is about, in words (the figure's title) and units; ``setup``: the
    simulator set-up in a few words (``""`` without a simulation)."""
    return core.Subject(
        chapter=CHAPTER, load=LOAD, load_label=r"$\lambda_g$", load_unit=LOAD_UNIT,
        network=f"{p.k}{core.TIMES}{p.k} bidirectional torus, Duato-Nbc adaptive routing, V = {p.V} VCs "
                f"({p.V2} escape levels), M = {p.M} flits", latency="mean message latency", setup=setup)



def compare(*, k: int, M: int, V: int = 10, escape_levels: int | None = None, mean_distance: str = "agarwal",
            variance: str = "paper", **run) -> core.Comparison:
    """The model (eqs. 1-21) against the simulation on one torus: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    k : int
        Radix of the ``k x k`` torus, a multiple of 4.
    M : int
        Message length, flits.
    V : int
        Virtual channels per physical channel, >= k/2 + 2 (default 10, the paper's).
    escape_levels : int, optional
        Negative-hop escape levels ``V2`` (``V - V2`` adaptive VCs); default the minimum ``k/2 + 1``.
    mean_distance : {"agarwal", "exact"}
        ``d`` in eq. (3): the paper's ``k/2`` or the exact mean distance.
    variance : {"paper", "zero", "exponential"}
        Service-time variance of eqs. (18)-(19).
    **run
        The run options, :class:`models.core.compare.RunOptions`: ``loads``
        (generation rates :math:`\\lambda_g`, messages/node/cycle; default
        ``points`` rates up to the simulated saturation rate, or 0.9 times
        the model's without a simulation), ``points``, ``upto``,
        ``simulate``, ``search``, ``messages`` and ``warmup`` (default
        :data:`models.torus_nbc.setups.RUN`: 20,000 and 2,000; the search's
        probes run ``messages`` each), ``seed``, ``jobs``, ``progress``,
        ``settings``, ``setup`` (a name of :data:`models.torus_nbc.setups.SETUPS`:
        ``"paper"``, one ejection VC per node, as the paper states, the
        default; ``"model"``, ``V`` ejection VCs, as the model assumes),
        ``grid``, ``sim``.

    Returns
    -------
    Comparison
        Loads in messages/node/cycle, latencies in cycles (the mean message latency of eq. 1),
        ``model_saturation`` the model's
        :func:`~models.torus_nbc.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (:class:`~models.torus_nbc.params.NbcParams`: ``k``, ``M``,
        ``V``, ``escape_levels``, ``mean_distance``, ``variance``; a run option, ``setup``).
    """
    opts = core.RunOptions.of(run)
    p = NbcParams(k, M, V, escape_levels, mean_distance, variance)  # the one check
    curve = setups.curve(p, opts.setup or setups.DEFAULT_SETUP)  # built once
    shown = setups.SETUPS[curve.setup].short if opts.simulate else ""
    return core.compare(curve, subject(p, shown), opts, model=lambda xs: solve_curve(xs, **p.model, saturation=False),
                        model_saturation=lambda: saturation_load(**p.model, rtol=core.SAT_RTOL),
                        experiments=core.module_loader(__package__), lengths=setups.RUN, params=p.model)
