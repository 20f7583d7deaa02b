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

The parameters are checked once, into a
:class:`~models.min_mva.params.MvaParams`; the curve is built once from it
(:func:`models.min_mva.setups.network_curve`) and simulated, when asked, by
the chapter's own hook (:mod:`models.min_mva.experiments`, imported only
then): the closed simulator :func:`models.sim.closed_min.simulate` through
:func:`~models.min_mva.experiments.simulate_curve`, ``cycles`` per ``NC``
(the warm-up included; default :data:`models.min_mva.setups.RUN`), on the
set-up of the model's return network (``return_wiring``: ``"mirror"`` is
the set-up ``"paper"``, ``"same"`` the set-up ``"second-omega"``).
"""

from __future__ import annotations

from ..core import compare as core
from . import LOAD, LOAD_UNIT, setups
from .params import MvaParams
from .solve import saturation_load, solve_curve

__all__ = ["compare", "subject"]

CHAPTER = "min_mva"


def subject(p: MvaParams, setup: str = "") -> core.Subject:
    """What a comparison of the multiprocessor ``p`` is about, in words (the figure's title) and units."""
    back = "mirror-image return network" if p.return_wiring == "mirror" else "second identical return network"
    traffic = ("hot-spot" if p.pattern == "hot_spot" else p.pattern) if isinstance(p.pattern, str) else "matrix"
    return core.Subject(
        chapter=CHAPTER, load=LOAD, load_label=r"$NC$", load_unit=LOAD_UNIT,
        network=f"{p.N} processors, {p.topology} network of {p.k}{core.TIMES}{p.k} switches, {back}, "
                f"S_pe = {p.S_pe:g}, S_mm = {p.S_mm:g} cycles, m = {p.m} packet{'s' if p.m != 1 else ''}, "
                f"{traffic} traffic",
        latency="mean response time R", closed=True, setup=setup)



def compare(*, topology: str = "omega", k: int = 2, n: int = 6, S_pe: float = 1.0, S_mm: float = 1.0, m: int = 1,
            pattern: str = "uniform", return_wiring: str = "mirror", **run) -> core.Comparison:
    """The approximate MVA against the closed simulation on one system: a :class:`~models.core.compare.Comparison`.

    A closed system (the module docstring): the loads are ``NC`` values and
    there is no saturation load -- ``model_saturation`` and ``sim_saturation``
    are NaN, ``knee`` is ``N*`` of the asymptotic bounds, ``worst_error`` is
    the worst ``|R_model - R_sim| / R_sim`` over every simulated ``NC``.

    Parameters
    ----------
    topology, k, n, S_pe, S_mm, m, pattern, return_wiring
        The multiprocessor, with its units and ranges in
        :class:`models.min_mva.params.MvaParams` (``pattern``: a named
        pattern; ``return_wiring``: ``"mirror"`` is the set-up ``"paper"``,
        ``"same"`` the set-up ``"second-omega"``).
    **run
        The run options: see :class:`models.core.compare.RunOptions`.  Here
        ``loads`` are ``NC`` values (integers >= 1; default ``points``
        integers up to ``upto`` = 0.9 of the knee ``N*``, each once), the run
        length is ``cycles`` per ``NC``, the warm-up included (default
        :data:`models.min_mva.setups.RUN`: 100,000 and ``warmup`` 10,000), and
        ``setup`` follows ``return_wiring`` (it may name its set-up, never
        contradict it).  The model's grid is every integer ``NC`` up to the largest.

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
    opts = core.RunOptions.of(run)
    p = MvaParams(topology=topology, k=k, n=n, S_pe=S_pe, S_mm=S_mm, m=m, pattern=pattern,
                  return_wiring=return_wiring)  # the one check of the network
    shown = setups.setup_of(p.return_wiring, opts.setup)
    what = subject(p, setup=setups.SETUPS[shown].short if opts.simulate and shown != setups.DEFAULT_SETUP else "")
    curve = setups.network_curve(p, shown, label=what.network)  # built once
    model = curve.model
    return core.compare(curve, what, opts, model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL),
                        experiments=core.module_loader(__package__), lengths=setups.RUN, integer_loads=True,
                        params=p.keywords())
