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

The parameters are checked once, as an :class:`~models.torus_ipp.setups.IppParams`,
and the curve is built once from them (:func:`~models.torus_ipp.setups.ipp_curve`,
on the named set-up ``setup`` of :data:`~models.torus_ipp.setups.SETUPS`).  The
simulation is the chapter's own (:mod:`models.torus_ipp.experiments`, imported
only when simulating): the translation
:func:`~models.torus_ipp.experiments.sim_kwargs`, the search
:func:`~models.torus_ipp.experiments.sim_saturation` (``sat_steps`` halvings
of ``[0, saturation_bound]``, probes of half the messages) and the cached sweep.
"""

from __future__ import annotations

from ..core import compare as core
from ..core.setups import named_setup
from . import setups
from .setups import IppParams
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare", "subject"]

#: The chapter's name, as every comparison's subject states it.
CHAPTER = "torus_ipp"


def _num(x) -> str:
    return f"{x:g}"


def subject(p: IppParams, setup: str = "") -> core.Subject:
    """What a comparison of the network ``p`` is about, in words (the figure's title) and units; ``setup``: the
    simulator set-up in a few words (the legend's)."""
    s1, s2 = _num(p.sigma1), _num(p.sigma2)
    if p.traffic == "poisson":
        source = f"Poisson sources of the IPP's mean rate (\u03c31 = {s1}, \u03c32 = {s2})"
    elif p.mu2:
        source = f"MMPP(2) sources (\u03c31 = {s1}, \u03c32 = {s2}, \u03bc2 = {_num(p.mu2)})"
    else:
        source = f"IPP sources (\u03c31 = {s1}, \u03c32 = {s2})"
    return core.Subject(
        chapter=CHAPTER, load=LOAD, load_label=r"on-state rate $\mu_1$", load_unit=LOAD_UNIT,
        network=f"{p.k}{core.TIMES}{p.k} bidirectional torus, Duato's adaptive routing, V = {p.V} VCs, "
                f"M = {_num(p.M)} flits, {source}", latency="mean message latency", setup=setup)



def compare(*, k: int = 16, V: int = 3, M: float = 48.0, sigma1: float = 0.2, sigma2: float = 0.8, mu2: float = 0.0,
            traffic: str = "ipp", pab: str = "printed", **run) -> core.Comparison:
    """The model (eqs. 1-29) against the simulation on one torus with IPP sources: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    k : int
        Nodes per dimension of the ``k x k`` bidirectional torus, a multiple of 4 (default 16, the paper's Fig. 1).
    V : int
        Virtual channels per physical channel, >= 3 (``V - 2`` adaptive and 2 escape).
    M : float
        Message length, flits (whole flits to simulate).
    sigma1, sigma2 : float
        The IPP's switching rates on -> off and off -> on, per cycle (eq. 7).
    mu2 : float
        Rate in the off state, messages/node/cycle (0: an IPP; the simulation needs 0).
    traffic : {"ipp", "poisson"}
        The IPP sources, or Poisson sources of the same mean rate.
    pab : {"printed", "specific"}
        Reading of eq. (26).
    **run
        The run options, documented once in :class:`models.core.compare.RunOptions`: ``loads`` (on-state
        rates ``mu1``, messages/node/cycle), ``points``, ``upto``, ``simulate``, ``search``, ``messages``,
        ``warmup``, ``seed``, ``jobs``, ``progress``, ``settings``, ``setup`` (a name of
        :data:`~models.torus_ipp.setups.SETUPS`: ``"paper/model"``, 4V ejection VCs as assumption (d), the
        default, or ``"one ejection channel"``), ``grid``, ``sim``.  The run lengths default to
        :data:`~models.torus_ipp.setups.RUN`; each probe of the search measures half the messages after
        half the warm-up, at least 1000 / 500.

    Returns
    -------
    Comparison
        Loads ``mu1`` in messages/node/cycle, latencies in cycles (the mean message latency of eq. 1),
        ``model_saturation`` the model's :func:`~models.torus_ipp.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (:class:`~models.torus_ipp.setups.IppParams`: ``k``, ``V``, ``M``,
        ``sigma1``, ...; ``mu2`` and a fractional ``M`` when simulating; ``setup``; a run option).
    """
    opts = core.RunOptions.of(run)
    p = IppParams(k=k, V=V, M=M, sigma1=sigma1, sigma2=sigma2, mu2=mu2, traffic=traffic, pab=pab)  # the one check
    if opts.simulate:
        p.simulable()
    chosen = named_setup(setups.SETUPS, opts.setup or setups.DEFAULT_SETUP)
    what = subject(p, chosen.short if opts.simulate else "")
    curve = setups.ipp_curve(p, chosen, label=what.network)  # built once
    return core.compare(curve, what, opts, model=lambda xs: solve_curve(xs, **curve.model),
                        model_saturation=lambda: saturation_load(**curve.model, rtol=core.SAT_RTOL),
                        experiments=core.module_loader(__package__), lengths=setups.RUN, params=p.model)
