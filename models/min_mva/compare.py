"""The model against the simulation in one call: :func:`compare` (the front door's ``models.min_mva.compare``).

One multiprocessor -- ``N = k**n`` processors and memories joined by a
multistage network of ``k x k`` switches (forward and return) -- with the
parameters, units and defaults of ``python -m models.min_mva curve``
(:mod:`models.min_mva.__main__`), through the loop every chapter shares,
:func:`models.core.compare.compare`.

**A closed system.**  The load is ``NC``, the outstanding requests per
processor (an integer: the simulator's population), and the latency is the
mean response time ``R`` of a request (cycles).  The system never saturates:
there is no saturation load, of the model or of the simulation, so nothing is
searched, no saturation line is drawn, and the worst error is taken over every
simulated ``NC``.  The default loads are ``points`` integers up to ``upto``
(default 0.9) times the knee ``N*`` of the asymptotic bounds (the chapter's
:func:`~models.min_mva.saturation_load`, kept as ``Comparison.knee``)::

    from models import min_mva
    c = min_mva.compare(k=2, n=6, S_mm=2, loads=[1, 2, 4, 8, 16])
    c.errors, c.worst_error          # over every simulated NC
    c.save("mva.svg", style="paper")

The simulation is the chapter's own (:mod:`models.min_mva.experiments`,
imported only when simulating): the closed simulator
:func:`models.sim.closed_min.simulate` through
:func:`~models.min_mva.experiments.simulate_curve`, ``cycles`` per ``NC`` (the
warm-up included), on the set-up of the model's return network
(``return_wiring``: ``"mirror"`` is the set-up ``"paper"``, ``"same"`` the
set-up ``"second-omega"``).
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..core import compare as core
from ..core.setups import SimSettings
from ..core.errors import ParameterError
from ..core.setups import Curve
from . import LOAD, LOAD_UNIT
from .setups import DEFAULT_SETUP, SETUPS
from .solve import saturation_load, solve_curve

__all__ = ["compare", "subject", "setup_of", "CYCLES", "WARMUP"]

#: Simulated cycles per ``NC`` (the warm-up included) and discarded warm-up cycles: the command's ``--cycles`` /
#: ``--warmup`` defaults.
CYCLES = 100_000
WARMUP = 10_000


def setup_of(return_wiring: str, setup: str | None = None) -> str:
    """The set-up that simulates the return network ``return_wiring``; ``setup``, if named, must be it (or the default).

    The set-up is the return network's wiring, which ``return_wiring`` already
    gives the model; ``setup`` may name it, never contradict it.
    """
    name = next((n for n, s in SETUPS.items() if s.overrides["return_wiring"] == return_wiring), None)
    if name is None:
        raise ParameterError(f"`return_wiring` must be one of "
                             f"{[s.overrides['return_wiring'] for s in SETUPS.values()]}; got {return_wiring!r}")
    if setup is not None and setup not in (name, DEFAULT_SETUP):
        if setup not in SETUPS:
            raise ParameterError(f"`setup` must be one of {list(SETUPS)}; got {setup!r}")
        raise ParameterError(f"`setup` {setup!r} simulates return_wiring={SETUPS[setup].overrides['return_wiring']!r}"
                             f", but the model's is {return_wiring!r}: pass --return_wiring "
                             f"{SETUPS[setup].overrides['return_wiring']} (return_wiring=...) too")
    return name


def subject(topology: str, k: int, n: int, S_pe: float, S_mm: float, m: int, pattern: str, return_wiring: str,
            setup: str = "") -> core.Subject:
    """What a comparison of this system is about, in words (the figure's title) and units."""
    back = "mirror-image return network" if return_wiring == "mirror" else "second identical return network"
    traffic = "hot-spot" if pattern == "hot_spot" else pattern
    return core.Subject(
        chapter="min_mva", load=LOAD, load_label=r"$NC$", load_unit=LOAD_UNIT,
        network=f"{k ** n} processors, {topology} network of {k}{core.TIMES}{k} switches, {back}, "
                f"S_pe = {S_pe:g}, S_mm = {S_mm:g} cycles, m = {m} packet{'s' if m != 1 else ''}, {traffic} traffic",
        latency="mean response time R", closed=True, setup=setup)


def compare(*, topology: str = "omega", k: int = 2, n: int = 6, S_pe: float = 1.0, S_mm: float = 1.0, m: int = 1,
            pattern: str = "uniform", return_wiring: str = "mirror", setup: str | None = None,
            loads: Sequence[int] | None = None, points: int = core.POINTS, upto: float | None = None,
            simulate: bool = True, cycles: int | None = None, warmup: int | None = None, seed: int | None = None,
            jobs: int | None = None, progress: bool | None = None, settings: SimSettings | None = None,
            grid: int = core.GRID, sim: Callable | None = None) -> core.Comparison:
    """The approximate MVA against the closed simulation on one system: a :class:`~models.core.compare.Comparison`.

    A closed system (the module docstring): the loads are ``NC`` values and
    there is no saturation load -- ``model_saturation`` and ``sim_saturation``
    are NaN, ``knee`` is ``N*`` of the asymptotic bounds, ``worst_error`` is
    the worst ``|R_model - R_sim| / R_sim`` over every simulated ``NC``.

    Parameters
    ----------
    topology : {"omega", "baseline", "cube"}
        The forward network.
    k : int
        Switch size (``k x k`` switches).
    n : int
        Stages; ``N = k**n`` processors and memories.
    S_pe : float
        Mean processor inter-request time when not blocked, cycles, >= 1.
    S_mm : float
        Memory service time, cycles, >= ``m``.
    m : int
        Packets per request and per reply, >= 1.
    pattern : {"uniform", "hot_spot"}
        Memory reference pattern (``hot_spot``: the paper's Fig. 3, h = 0.2).
    return_wiring : {"mirror", "same"}
        The return network: the forward network's mirror image (the set-up
        ``"paper"``) or a second copy (``"second-omega"``).
    setup : str, optional
        The simulator set-up; it follows ``return_wiring`` (may name it, never contradict it).
    loads : sequence of int, optional
        ``NC`` values (outstanding requests per processor, integers >= 1) to
        simulate and tabulate.  Default: ``points`` integers up to ``upto``
        (default 0.9) times the knee ``N*``, each once.
    points : int
        How many before rounding (default 10).
    upto : float, optional
        The last default ``NC`` as a fraction of ``N*``.
    simulate : bool
        Run the simulation (default); False: the model alone.
    cycles, warmup : int, optional
        Simulated cycles per ``NC``, the warm-up included (default :data:`CYCLES`), and discarded
        warm-up cycles (:data:`WARMUP`).
    seed, jobs, progress, settings, grid, sim
        As for :func:`models.torus_dor.compare` (the model's grid is every integer ``NC`` up to the largest).

    Returns
    -------
    Comparison
        Loads ``NC`` in requests/processor, response times in cycles: the mean response time ``R``
        over all classes, ``sum_i R_i X_i / X``, from the residence times of eqs. (1)-(6).

    Raises
    ------
    ValueError
        An invalid parameter, named (the model's checks: ``topology``, ``k``, ``n``, ``S_pe``,
        ``S_mm``, ``m``, ``pattern``, ``return_wiring``, ``NC``; ``setup``; ``cycles``, ``warmup``).
    """
    model = dict(topology=topology, k=k, n=n, S_pe=S_pe, S_mm=S_mm, m=m, pattern=pattern, return_wiring=return_wiring)
    name = setup_of(return_wiring, setup)
    hooks = {}
    if simulate:
        from . import experiments  # the simulator (numba): only when simulating

        settings = core.run_settings(settings, unit="cycles", length=cycles, warmup=warmup, seed=seed, jobs=jobs,
                                     progress=progress, default_length=CYCLES, default_warmup=WARMUP)
        what = subject(**model, setup=SETUPS[name].short if name != DEFAULT_SETUP else "")
        curve = Curve(what.network, model=dict(model), sim=SETUPS[name].sim(model), setup=name)
        hooks = dict(sim=sim or (lambda c, xs: experiments.simulate_curve(c, xs, settings)))
    else:
        what = subject(**model)
        curve = Curve(what.network, model=dict(model))
    return core.compare(curve, what, model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL), loads=loads,
                        points=points, upto=upto, search=False, grid=grid, integer_loads=True, settings=settings,
                        params=dict(model), **hooks)
