"""The model against the simulation in one call: :func:`compare` (the front door's ``models.torus_ipp.compare``).

One network -- a ``k x k`` bidirectional torus, Duato's adaptive routing,
``V`` virtual channels, ``M``-flit messages, IPP (bursty) sources, uniform
destinations -- with the parameters, units and defaults of ``python -m
models.torus_ipp curve`` (:mod:`models.torus_ipp.__main__`), through the loop
every chapter shares, :func:`models.core.compare.compare`.  The load is the
sources' on-state rate ``mu1`` (messages/node/cycle; the mean rate is
``mu1 sigma2 / (sigma1 + sigma2)``, eq. 9)::

    from models import torus_ipp
    c = torus_ipp.compare(k=8, V=3, M=32, sigma1=0.2, sigma2=0.8, points=8)
    c.errors, c.worst_error, c.sim_saturation, c.sim_bracket
    c.save("ipp.svg", style="paper")

The simulation is the chapter's own (:mod:`models.torus_ipp.experiments`,
imported only when simulating): the translation
:func:`~models.torus_ipp.experiments.sim_kwargs` on the named set-up
``setup`` (:data:`~models.torus_ipp.experiments.SETUPS`), the search
:func:`~models.torus_ipp.experiments.sim_saturation` (``sat_steps`` halvings
of ``[0, saturation_bound]``, probes of half the messages) and the cached sweep.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import SimSettings, named_setup
from ..core.setups import Curve
from .solve import LOAD, LOAD_UNIT, Params, saturation_load, solve_curve

__all__ = ["compare", "subject", "MESSAGES", "WARMUP", "SETUP"]

#: Measured messages per simulated rate and discarded warm-up: the command's ``--messages`` / ``--warmup`` defaults.
MESSAGES = 20_000
WARMUP = 4_000
#: The default simulator set-up (``experiments.DEFAULT_SETUP``; checked in tests/test_cli.py).
SETUP = "paper/model"


def _num(x) -> str:
    return f"{x:g}"


def subject(k: int, V: int, M, sigma1: float, sigma2: float, mu2: float = 0.0, traffic: str = "ipp",
            setup: str = "") -> core.Subject:
    """What a comparison of this network is about, in words (the figure's title) and units."""
    if traffic == "poisson":
        source = f"Poisson sources of the IPP's mean rate (\u03c31 = {_num(sigma1)}, \u03c32 = {_num(sigma2)})"
    elif mu2:
        source = f"MMPP(2) sources (\u03c31 = {_num(sigma1)}, \u03c32 = {_num(sigma2)}, \u03bc2 = {_num(mu2)})"
    else:
        source = f"IPP sources (\u03c31 = {_num(sigma1)}, \u03c32 = {_num(sigma2)})"
    return core.Subject(
        chapter="torus_ipp", load=LOAD, load_label=r"on-state rate $\mu_1$", load_unit=LOAD_UNIT,
        network=f"{k}{core.TIMES}{k} bidirectional torus, Duato's adaptive routing, V = {V} VCs, M = {_num(M)} "
                f"flits, {source}", latency="mean message latency", setup=setup)


def compare(*, k: int = 16, V: int = 3, M: float = 48.0, sigma1: float = 0.2, sigma2: float = 0.8, mu2: float = 0.0,
            traffic: str = "ipp", pab: str = "printed", setup: str = SETUP, loads: Sequence[float] | None = None,
            points: int = core.POINTS, upto: float | None = None, simulate: bool = True, search: bool = True,
            messages: int | None = None, warmup: int | None = None, seed: int | None = None, jobs: int | None = None,
            progress: bool | None = None, settings: SimSettings | None = None, grid: int = core.GRID,
            sim: Callable | None = None) -> core.Comparison:
    """The model (eqs. 1-29) against the simulation on one torus with IPP sources: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    k : int
        Nodes per dimension of the ``k x k`` bidirectional torus, a multiple of 4 (default 16, the paper's Fig. 1).
    V : int
        Virtual channels per physical channel, >= 3 (``V - 2`` adaptive and 2 escape).
    M : float
        Message length, flits.
    sigma1, sigma2 : float
        The IPP's switching rates on -> off and off -> on, per cycle (eq. 7).
    mu2 : float
        Rate in the off state, messages/node/cycle (0: an IPP; the simulation needs 0).
    traffic : {"ipp", "poisson"}
        The IPP sources, or Poisson sources of the same mean rate.
    pab : {"printed", "specific"}
        Reading of eq. (26).
    setup : str
        The simulator set-up (:data:`~models.torus_ipp.experiments.SETUPS`): ``"paper/model"`` (4V
        ejection VCs, assumption (d)) or ``"one ejection channel"``.
    loads : sequence of float, optional
        On-state rates ``mu1`` to simulate and tabulate, messages/node/cycle.
        Default: ``points`` rates evenly up to ``upto`` (default 1.0) times
        the simulated saturation rate (0.9 times the model's without a simulation).
    points, upto, simulate, search, messages, warmup, seed, jobs, progress, settings, grid, sim
        As for :func:`models.torus_dor.compare` (``messages`` default
        :data:`MESSAGES`, ``warmup`` :data:`WARMUP`; each probe of the search
        measures half the messages after half the warm-up, at least 1000 / 500).

    Returns
    -------
    Comparison
        Loads ``mu1`` in messages/node/cycle, latencies in cycles (the mean message latency of eq. 1),
        ``model_saturation`` the model's :func:`~models.torus_ipp.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (the model's :class:`~models.torus_ipp.solve.Params`: ``k``,
        ``V``, ``M``, ``sigma1``, ...; ``setup``; ``mu2`` when simulating).
    """
    Params(k=k, V=V, M=M, mu1=1.0, sigma1=sigma1, sigma2=sigma2, mu2=mu2, traffic=traffic, pab=pab)  # the model's
    # checks, at a placeholder on-rate (the loads are checked by solve_curve)
    model = dict(k=int(k), V=int(V), M=M, sigma1=sigma1, sigma2=sigma2, mu2=mu2, traffic=traffic, pab=pab)
    hooks = {}
    if simulate:
        from . import experiments  # the simulator (numba): only when simulating

        chosen = named_setup(experiments.SETUPS, setup)
        settings = core.run_settings(settings, length=messages, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=MESSAGES, default_warmup=WARMUP)
        what = subject(k, V, M, sigma1, sigma2, mu2, traffic, chosen.short)
        curve = Curve(what.network, model=dict(model), sim=chosen.sim(model), setup=chosen.name)
        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)),
                     sim_saturation=lambda c, _model_sat: experiments.sim_saturation(c, settings))
    else:
        what = subject(k, V, M, sigma1, sigma2, mu2, traffic)
        curve = Curve(what.network, model=dict(model))
    return core.compare(curve, what, model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=search, grid=grid, settings=settings,
                        params=dict(model), **hooks)
