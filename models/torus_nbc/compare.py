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

The simulation is the chapter's own (:mod:`models.torus_nbc.experiments`,
imported only when simulating): the translation
:func:`~models.torus_nbc.experiments.sim_kwargs` on the named set-up
``setup`` (:data:`~models.torus_nbc.experiments.SETUPS`: ``"paper"``, one
ejection VC, or ``"model"``, ``V``), the search
:func:`~models.torus_nbc.experiments.sim_saturation` (bracketing from 0.8
times the model's saturation rate, as the chapter's figures do, then
bisection to ``settings.sat_rtol``, 2 %) and the cached sweep.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import SimSettings, named_setup
from ..core.setups import Curve
from . import LOAD, LOAD_UNIT
from .params import check_params
from .solve import saturation_load, solve_curve

__all__ = ["compare", "subject", "MESSAGES", "WARMUP", "SETUP"]

#: Measured messages per simulated rate and discarded warm-up: the command's ``--messages`` / ``--warmup`` defaults.
MESSAGES = 20_000
WARMUP = 2_000
#: The default simulator set-up (``experiments.DEFAULT_SETUP``; checked in tests/test_cli.py).
SETUP = "paper"


def subject(k: int, M: int, V: int, escape_levels: int, setup: str = "") -> core.Subject:
    """What a comparison of this network is about, in words (the figure's title) and units."""
    return core.Subject(
        chapter="torus_nbc", load=LOAD, load_label=r"$\lambda_g$", load_unit=LOAD_UNIT,
        network=f"{k}{core.TIMES}{k} bidirectional torus, Duato-Nbc adaptive routing, V = {V} VCs "
                f"({escape_levels} escape levels), M = {M} flits", latency="mean message latency", setup=setup)


def compare(*, k: int, M: int, V: int = 10, escape_levels: int | None = None, mean_distance: str = "agarwal",
            variance: str = "paper", setup: str = SETUP, loads: Sequence[float] | None = None,
            points: int = core.POINTS, upto: float | None = None, simulate: bool = True, search: bool = True,
            messages: int | None = None, warmup: int | None = None, seed: int | None = None, jobs: int | None = None,
            progress: bool | None = None, settings: SimSettings | None = None, grid: int = core.GRID,
            sim: Callable | None = None) -> core.Comparison:
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
    setup : str
        The simulator set-up (:data:`~models.torus_nbc.experiments.SETUPS`): ``"paper"`` (one ejection
        VC per node, as the paper states) or ``"model"`` (``V`` ejection VCs, as the model assumes).
    loads : sequence of float, optional
        Generation rates :math:`\\lambda_g` to simulate and tabulate, messages/node/cycle.  Default:
        ``points`` rates evenly up to ``upto`` (default 1.0) times the simulated saturation rate (0.9
        times the model's without a simulation).
    points, upto, simulate, search, messages, warmup, seed, jobs, progress, settings, grid, sim
        As for :func:`models.torus_dor.compare` (``messages`` default :data:`MESSAGES`, ``warmup``
        :data:`WARMUP`; the search's probes run ``messages`` each).

    Returns
    -------
    Comparison
        Loads in messages/node/cycle, latencies in cycles (the mean message latency of eq. 1),
        ``model_saturation`` the model's
        :func:`~models.torus_nbc.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (:func:`~models.torus_nbc.params.check_params`: ``k``, ``M``,
        ``V``, ``escape_levels``, ``mean_distance``, ``variance``; ``setup``).
    """
    p = check_params(k, M, V, escape_levels, mean_distance, variance)
    model = dict(k=p.k, M=p.M, V=p.V, escape_levels=escape_levels if escape_levels is None else p.V2,
                 mean_distance=mean_distance, variance=variance)
    hooks = {}
    if simulate:
        from . import experiments  # the simulator (numba): only when simulating

        chosen = named_setup(experiments.SETUPS, setup)
        settings = core.run_settings(settings, length=messages, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=MESSAGES, default_warmup=WARMUP)
        what = subject(p.k, p.M, p.V, p.V2, chosen.short)
        curve = Curve(what.network, model=dict(model), sim=chosen.sim(model), setup=chosen.name)
        # the search starts where the chapter's figures start it (run_figure): at 0.8 times the model's saturation
        # rate at the solver's own tolerance
        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)),
                     sim_saturation=lambda c, _sat: experiments.sim_saturation(c, 0.8 * saturation_load(**c.model),
                                                                                settings))
    else:
        what = subject(p.k, p.M, p.V, p.V2)
        curve = Curve(what.network, model=dict(model))
    return core.compare(curve, what, model=lambda xs: solve_curve(xs, **model, saturation=False),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=search, grid=grid, settings=settings,
                        params=dict(model), **hooks)
