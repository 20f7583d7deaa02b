"""The model against the simulation in one call: :func:`compare` (the front door's ``models.xfolded_tm.compare``).

One ``k x k`` network of the paper's delay figure -- the x-Folded TM, the TM
or the torus (``topology``), ``V`` virtual channels, ``M``-flit messages,
uniform traffic -- with the parameters, units and defaults of ``python -m
models.xfolded_tm curve`` (:mod:`models.xfolded_tm.__main__`), through the
loop every chapter shares, :func:`models.core.compare.compare`.  The
parameters are checked once, as an
:class:`~models.xfolded_tm.setups.XfoldedParams`, and the curve is built
once from them (:func:`~models.xfolded_tm.setups.network_curve`).  The
model's ``ad`` is the network's BFS mean distance per dimension unless ``ad``
is given (a what-if of the model alone, so not with ``simulate``).  The load
is the generation rate ``lam``, messages/node/cycle (the paper's x axis is
the injection rate ``lam * M``, flits/node/cycle)::

    from models import xfolded_tm
    c = xfolded_tm.compare(topology="xfolded_completed", k=8, M=32, V=2, points=8)
    c.errors, c.worst_error, c.sim_saturation, c.sim_bracket
    c.save("xfolded.svg", style="paper")

The simulation is the chapter's own (:mod:`models.xfolded_tm.experiments`,
imported only to simulate): the translation
:func:`~models.xfolded_tm.experiments.sim_kwargs` on the named set-up
``setup`` (:data:`~models.xfolded_tm.setups.SETUPS`), the search
:func:`~models.xfolded_tm.experiments.sim_saturation` (bracketing from 0.8
times the model's saturation, bisection to ``settings.sat_rtol``, 2 %) and
the cached sweep.
"""

from __future__ import annotations

from ..core import compare as core
from ..core.errors import ParameterError
from ..core.setups import named_setup
from . import setups
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare", "subject"]

#: The chapter's slug, as a comparison names it.
CHAPTER = "xfolded_tm"
_ROUTINGS = {"dor": "dimension-order routing", "updown": "up*/down* routing"}



def subject(p: setups.XfoldedParams, setup: str = "") -> core.Subject:
    """What a comparison of ``p``'s network is about, in words (the figure's title) and units."""
    t = setups.TOPOLOGIES[p.topology]
    name = "bidirectional torus" if t["kind"] == "torus" else t["label"]
    what = f", AD = {p.ad:g} hops per dimension (model only)" if p.ad is not None else ""
    return core.Subject(
        chapter=CHAPTER, load=LOAD, load_label=r"$\lambda$", load_unit=LOAD_UNIT,
        network=f"{p.k}{core.TIMES}{p.k} {name}, {_ROUTINGS.get(t['routing'], t['routing'])}, V = {p.V} VCs, "
                f"M = {p.M} flits{what}", latency="average message delay", setup=setup)


def compare(*, topology: str = "xfolded_completed", k: int = 8, M: int = 32, V: int = 2, ad: float | None = None,
            vbar: str = "mean", source_rate: str = "vbar", channel_rate: str = "printed",
            **run) -> core.Comparison:
    """The model (eqs. 1-11) against the simulation on one ``k x k`` network: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    topology : str
        The network (a key of :data:`~models.xfolded_tm.setups.TOPOLOGIES`): ``"torus"``,
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
    **run
        The run options, :class:`models.core.compare.RunOptions` (``loads``, ``points``, ``upto``,
        ``simulate``, ``search``, ``messages``, ``warmup``, ``seed``, ``jobs``, ``progress``,
        ``settings``, ``setup``, ``grid``, ``sim``).  ``loads`` are generation rates ``lam``,
        messages/node/cycle; ``messages`` and ``warmup`` default to
        :data:`~models.xfolded_tm.setups.RUN` (the search's probes run ``settings.sat_messages``,
        by default ``messages``); ``setup`` is a name of :data:`~models.xfolded_tm.setups.SETUPS`:
        ``"model"`` (ideal router, ``V`` ejection VCs; the default), ``"ours"`` (one ejection
        channel) or ``"booksim"`` (BookSim 2's router, as the paper states; the torus with even ``V``
        only).

    Returns
    -------
    Comparison
        Loads ``lam`` in messages/node/cycle, delays in cycles (the average delay of eq. 2),
        ``model_saturation`` the
        model's :func:`~models.xfolded_tm.saturation_load` (to relative 1e-4).

    Raises
    ------
    ValueError
        An invalid parameter, named (``topology``, ``k``, ``M``, ``V``, ``ad``, the readings, ``setup``,
        a run option; ``ad`` with ``simulate``; a set-up that cannot run the network).
    """
    opts = core.RunOptions.of(run)
    p = setups.XfoldedParams(topology=topology, k=k, M=M, V=V, ad=ad, vbar=vbar, source_rate=source_rate,
                             channel_rate=channel_rate)  # the one check
    if opts.simulate and p.ad is not None:
        raise ParameterError(f"`ad` ({ad!r}) replaces the mean distance of the network `topology` ({p.topology}) in "
                             "the model only, while the simulation (simulate=True, --simulate) runs that network: "
                             "leave out `ad` (--ad) to simulate, or simulate=False (no --simulate) to try the model "
                             "with another distance")
    chosen = named_setup(setups.SETUPS, opts.setup or setups.DEFAULT_SETUP)
    curve = setups.network_curve(p, chosen.name)  # built once
    experiments = core.module_loader(__package__)
    if opts.simulate:
        why = experiments().cannot_run(curve)
        if why:
            raise ParameterError(f"`setup` {chosen.name!r} cannot simulate {p.topology} with V={p.V}: {why}")
    model = curve.model
    return core.compare(curve, subject(p, setup=chosen.short if opts.simulate else ""), opts,
                        model=lambda xs: solve_curve(xs, **model),
                        model_saturation=lambda: saturation_load(**model, rtol=core.SAT_RTOL),
                        experiments=experiments, lengths=setups.RUN, params=dict(topology=p.topology, **model))
