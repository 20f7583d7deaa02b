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

The simulation is the chapter's own (:mod:`models.torus_dor.experiments`,
imported only when simulating): its translation :func:`~models.torus_dor.experiments.sim_kwargs`
(the paper's scheme: ``L`` injection VCs, one ejection VC, 2-flit buffers, one
cycle per router), its simulated-saturation search
:func:`~models.torus_dor.experiments.sim_saturation` (``sat_steps`` halvings
of ``[0, capacity]``, 8 by default) and its cached sweep.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import SimSettings
from ..core.setups import Curve
from .solve import LOAD, LOAD_UNIT, check_params, saturation_load, solve_curve

__all__ = ["compare", "subject", "MESSAGES", "WARMUP"]

#: Measured messages per simulated load and discarded warm-up, the command's ``--messages`` / ``--warmup``
#: defaults (shorter than the book's 120,000 / 10,000: a curve in minutes, not hours).
MESSAGES = 20_000
WARMUP = 2_000


def subject(radices: Sequence[int], L: int, M, bidirectional: bool = False) -> core.Subject:
    """What a comparison of this network is about, in words (the figure's title) and units."""
    torus = "bidirectional" if bidirectional else "unidirectional"
    M = int(M) if float(M).is_integer() else M
    return core.Subject(
        chapter="torus_dor", load=LOAD, load_label=r"$\lambda_g$", load_unit=LOAD_UNIT,
        network=f"{core.TIMES.join(map(str, radices))} {torus} torus, dimension-order routing, L = {L} VCs, "
                f"M = {M} flits", latency="mean message latency")


def compare(*, radices: Sequence[int], L: int, M: float, bidirectional: bool = False,
            loads: Sequence[float] | None = None, points: int = core.POINTS, upto: float | None = None,
            simulate: bool = True, search: bool = True, messages: int | None = None, warmup: int | None = None,
            seed: int | None = None, jobs: int | None = None, progress: bool | None = None,
            settings: SimSettings | None = None, grid: int = core.GRID,
            sim: Callable | None = None) -> core.Comparison:
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
    loads : sequence of float, optional
        Generation rates :math:`\\lambda_g` to simulate and tabulate,
        messages/node/cycle.  Default: ``points`` rates evenly up to ``upto``
        (default 1.0) times the simulated saturation rate (0.9 times the
        model's without a simulation).
    points : int
        How many (default 10).
    upto : float, optional
        The last default rate as a fraction of that saturation rate.
    simulate : bool
        Run the simulation (default); False: the model alone.
    search : bool
        Search the simulated saturation rate (default; with ``loads`` it sets
        the 80 % line of the worst error and is drawn).
    messages, warmup : int, optional
        Measured messages per simulated rate (default :data:`MESSAGES`) and
        discarded warm-up (:data:`WARMUP`); each probe of the search measures
        ``messages`` too.
    seed : int, optional
        Random seed (default 1).
    jobs : int, optional
        Worker processes for the simulated rates (default 1).
    progress : bool, optional
        A progress bar of the simulated rates on standard error.
    settings : SimSettings, optional
        All of the run settings at once, instead of ``messages`` ... ``progress``
        (e.g. ``experiments.SETTINGS``, the book's).
    grid : int
        Rates of the model's drawn line (default 160; 0: the model at ``loads`` only).
    sim : callable, optional
        ``sim(curve, loads) -> rows`` in place of the chapter's
        ``experiments.simulate_curve`` with these settings (the command line
        passes its own, the same hook).

    Returns
    -------
    Comparison
        Loads in messages/node/cycle, latencies in cycles (eq. 22, the mean
        message latency), ``model_saturation`` the model's
        :func:`~models.torus_dor.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (:func:`~models.torus_dor.solve.check_params`:
        ``radices``, ``L``, ``M``, ``bidirectional``; ``loads``, ``points``,
        ``upto``, ``messages``, ...).
    """
    radices, L, M, _ = check_params(radices=radices, L=L, M=M, bidirectional=bidirectional)
    radices, L = tuple(int(k) for k in radices), int(L)
    M = int(M) if float(M).is_integer() else float(M)
    bidirectional = bool(bidirectional)
    model = dict(radices=radices, L=L, M=M, bidirectional=bidirectional)
    what = subject(radices, L, M, bidirectional)
    hooks = {}
    if simulate:
        from . import experiments  # the simulator (numba): only when simulating

        settings = core.run_settings(settings, length=messages, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=MESSAGES, default_warmup=WARMUP)
        curve = experiments.torus_curve(radices, L, M, bidirectional=bidirectional)
        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)),
                     sim_saturation=lambda c, _model_sat: experiments.sim_saturation(c, settings))
    else:
        curve = Curve(what.network, model=dict(model))
    return core.compare(curve, what, model=lambda xs: solve_curve(xs, **model, saturation=False),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=search, grid=grid, settings=settings, params=model, **hooks)
