"""The model against the simulation in one call: :func:`compare` (the front door's ``models.xfolded_tm.compare``).

One ``k x k`` network of the paper's delay figure -- the x-Folded TM, the TM
or the torus (``topology``), ``V`` virtual channels, ``M``-flit messages,
uniform traffic -- with the parameters, units and defaults of ``python -m
models.xfolded_tm curve`` (:mod:`models.xfolded_tm.__main__`), through the
loop every chapter shares, :func:`models.core.compare.compare`.  The model's
``ad`` is the network's BFS mean distance per dimension (the chapter's
:func:`~models.xfolded_tm.experiments.delay_curve`) unless ``ad`` is given
(a what-if of the model alone, so not with ``simulate``).  The load is the
generation rate ``lam``, messages/node/cycle (the paper's x axis is the
injection rate ``lam * M``, flits/node/cycle)::

    from models import xfolded_tm
    c = xfolded_tm.compare(topology="xfolded_completed", k=8, M=32, V=2, points=8)
    c.errors, c.worst_error, c.sim_saturation, c.sim_bracket
    c.save("xfolded.svg", style="paper")

The simulation is the chapter's own (:mod:`models.xfolded_tm.experiments`):
the translation :func:`~models.xfolded_tm.experiments.sim_kwargs` on the
named set-up ``setup`` (:data:`~models.xfolded_tm.experiments.SETUPS`), the
search :func:`~models.xfolded_tm.experiments.sim_saturation` (bracketing from
0.8 times the model's saturation, bisection to ``settings.sat_rtol``, 2 %; in
flits/node/cycle, converted here to ``lam``) and the cached sweep.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import SimSettings, named_setup
from ..core.errors import ParameterError
from ..core.setups import Curve
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare", "subject", "MESSAGES", "WARMUP", "SETUP"]

#: Measured messages per simulated rate and discarded warm-up: the command's ``--messages`` / ``--warmup`` defaults.
MESSAGES = 20_000
WARMUP = 2_000
#: The default simulator set-up (``experiments.DEFAULT_SETUP``; checked in tests/test_cli.py).
SETUP = "model"
_ROUTINGS = {"dor": "dimension-order routing", "updown": "up*/down* routing"}


def subject(topology: dict, k: int, M, V: int, ad=None, setup: str = "") -> core.Subject:
    """What a comparison of this network is about, in words (the figure's title) and units.

    ``topology`` is the network's entry of :data:`~models.xfolded_tm.experiments.TOPOLOGIES`.
    """
    name = "bidirectional torus" if topology["kind"] == "torus" else topology["label"]
    what = f", AD = {ad:g} hops per dimension (model only)" if ad is not None else ""
    return core.Subject(
        chapter="xfolded_tm", load=LOAD, load_label=r"$\lambda$", load_unit=LOAD_UNIT,
        network=f"{k}{core.TIMES}{k} {name}, {_ROUTINGS.get(topology['routing'], topology['routing'])}, V = {V} VCs, "
                f"M = {M} flits{what}", latency="average message delay", setup=setup)


def compare(*, topology: str = "xfolded_completed", k: int = 8, M: int = 32, V: int = 2, ad: float | None = None,
            vbar: str = "mean", source_rate: str = "vbar", channel_rate: str = "printed", setup: str = SETUP,
            loads: Sequence[float] | None = None, points: int = core.POINTS, upto: float | None = None,
            simulate: bool = True, search: bool = True, messages: int | None = None, warmup: int | None = None,
            seed: int | None = None, jobs: int | None = None, progress: bool | None = None,
            settings: SimSettings | None = None, grid: int = core.GRID,
            sim: Callable | None = None) -> core.Comparison:
    """The model (eqs. 1-11) against the simulation on one ``k x k`` network: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    topology : str
        The network (a key of :data:`~models.xfolded_tm.experiments.TOPOLOGIES`): ``"torus"``,
        ``"tm"``, ``"xfolded_printed"`` (Definition 1 as printed) or ``"xfolded_completed"``.
    k : int
        Radix of the ``k x k`` network, >= 3.
    M : int
        Message length, flits (the paper's ``L``; it does not state one, 32 is our guess).
    V : int
        Virtual channels per physical channel, >= 1.
    ad : float, optional
        Average distance per dimension ``AD_k``, hops, in place of the network's BFS mean distance
        (divided by 2) in the model only; refused with ``simulate``.
    vbar, source_rate, channel_rate : str
        Readings of eqs. (11), (10) and (6).
    setup : str
        The simulator set-up (:data:`~models.xfolded_tm.experiments.SETUPS`): ``"model"`` (ideal
        router, ``V`` ejection VCs), ``"ours"`` (one ejection channel) or ``"booksim"`` (BookSim 2's
        router, as the paper states; the torus with even ``V`` only).
    loads : sequence of float, optional
        Generation rates ``lam`` to simulate and tabulate, messages/node/cycle.  Default: ``points``
        rates evenly up to ``upto`` (default 1.0) times the simulated saturation rate (0.9 times the
        model's without a simulation).
    points, upto, simulate, search, messages, warmup, seed, jobs, progress, settings, grid, sim
        As for :func:`models.torus_dor.compare` (``messages`` default :data:`MESSAGES`, ``warmup``
        :data:`WARMUP`; the search's probes run ``settings.sat_messages``, by default ``messages``).

    Returns
    -------
    Comparison
        Loads ``lam`` in messages/node/cycle, delays in cycles (the average delay of eq. 2),
        ``model_saturation`` the
        model's :func:`~models.xfolded_tm.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (``topology``, ``k``, ``M``, ``V``, ``ad``, the readings, ``setup``;
        ``ad`` with ``simulate``; a set-up that cannot run the network).
    """
    from . import experiments  # the networks (and the simulator): built from the topology's graph

    if simulate and ad is not None:
        raise ParameterError(f"`ad` ({ad!r}) replaces the mean distance of the network `topology` ({topology}) in the "
                             "model only, while the simulation (simulate=True, --simulate) runs that network: leave out "
                             "`ad` (--ad) to simulate, or simulate=False (no --simulate) to try the model with "
                             "another distance")
    chosen = named_setup(experiments.SETUPS, setup)
    readings = dict(vbar=vbar, source_rate=source_rate, channel_rate=channel_rate)
    curve = experiments.delay_curve(topology, V, (), k=k, M=M, setup=chosen.name, **readings)
    model = dict(curve.model) if ad is None else dict(curve.model, ad=ad)
    M = curve.model["M"]
    hooks = {}
    if simulate:
        why = experiments.unsupported(topology, curve.model["V"], chosen)
        if why:
            raise ParameterError(f"`setup` {chosen.name!r} cannot simulate {topology} with V={V}: {why}")
        settings = core.run_settings(settings, length=messages, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=MESSAGES, default_warmup=WARMUP)

        def sim_saturation(c, model_sat):  # the chapter's search runs in flits/node/cycle; lam = injection / M
            s = experiments.sim_saturation(c, 0.8 * (model_sat * M), settings)  # from where run_figure starts it
            return dataclasses.replace(s, load=s.load / M, lo=s.lo / M, hi=s.hi / M,
                                       probes=tuple((x / M, sat) for x, sat in s.probes))

        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)),
                     sim_saturation=sim_saturation)
        what = subject(experiments.TOPOLOGIES[topology], k, M, curve.model["V"], setup=chosen.short)
    else:
        curve = Curve(curve.label, model=model)
        what = subject(experiments.TOPOLOGIES[topology], k, M, curve.model["V"], ad=ad)
    return core.compare(curve, what, model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=search, grid=grid, settings=settings,
                        params=dict(topology=topology, **model), **hooks)
