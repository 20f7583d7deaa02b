"""``python -m models.xfolded_tm curve ...``: average delay against the generation rate, optionally simulated.

The model's keywords (:func:`models.xfolded_tm.solve`) are ``M``, ``V``,
``k`` and the readings; its ``ad`` (average distance per dimension, hops) is
the BFS mean distance of the ``k x k`` network ``--topology`` (the chapter's
:func:`models.xfolded_tm.experiments.delay_curve`, which also gives the
node and channel counts of ``--channel_rate links``), unless ``--ad`` is
given: then the model takes that distance in place of the network's
(``--topology`` and ``--k`` still give its nodes and channels), a what-if of
the model alone, so ``--ad`` is refused with ``--simulate``, which simulates
the real ``--topology`` network (review case C28).  The command is :mod:`models.core.cli` (``--help`` lists every option
with its unit and default).  The load is ``lam``, messages/node/cycle (the
paper's x axis is the injection rate ``lam * M``, flits/node/cycle).
``--simulate`` simulates ``--topology`` (:func:`sim_curve`) with the chapter's hook
:func:`~models.xfolded_tm.experiments.simulate_curve` (the translation
:func:`~models.xfolded_tm.experiments.sim_kwargs`, as the notebooks) on the
named set-up ``--setup`` (:data:`~models.xfolded_tm.experiments.SETUPS`)::

    python -m models.xfolded_tm curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.xfolded_tm as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError

#: The networks of the chapter's delay figure (keys of ``experiments.TOPOLOGIES``; checked in tests/test_cli.py).
TOPOLOGY_KEYS = ("torus", "tm", "xfolded_printed", "xfolded_completed")
#: The chapter's simulator set-ups, the default (``experiments.DEFAULT_SETUP``) first (keys of
#: ``experiments.SETUPS``; checked in tests/test_cli.py).
SETUP_NAMES = ("model", "ours", "booksim")
_READINGS = ("vbar", "source_rate", "channel_rate")


def sim_curve(options: dict, setup: str = SETUP_NAMES[0]):
    """The curve ``--simulate`` runs: the ``--topology`` network, its model, on set-up ``setup``.

    Its ``model`` is the solver's keywords (:func:`configure`); ``sim`` names
    the network and routing.  A set-up that cannot run the network is a
    parameter error of ``--setup``; ``--ad`` is one too (the simulation runs
    the network's own distances, the model would not: one CSV would describe
    two networks).
    """
    if options.get("ad") is not None:
        raise ParameterError(f"`ad` ({options['ad']!r}) replaces the mean distance of --topology "
                             f"{options['topology']} in the model only, while --simulate simulates that network: "
                             "leave out --ad to simulate, or --simulate to try the model with another distance")
    return _network_curve(options, setup)


def _network_curve(options: dict, setup: str = SETUP_NAMES[0]):
    """The ``--topology`` network's curve on set-up ``setup``, its model's ``ad`` replaced by ``--ad`` if given."""
    from models.xfolded_tm import experiments  # the networks; imports the simulator (numba): not for --help

    why = experiments.unsupported(options["topology"], options["V"], setup)
    if why:
        raise ParameterError(f"`setup` {setup!r} cannot simulate {options['topology']} with V={options['V']}: {why}")
    readings = {name: options[name] for name in _READINGS}
    curve = experiments.delay_curve(options["topology"], options["V"], (), k=options["k"], M=options["M"],
                                    setup=setup, **readings)
    if options["ad"] is not None:
        curve = curve.replace(model=dict(curve.model, ad=options["ad"]))
    return curve


def configure(options: dict) -> dict:
    """The keyword arguments of :func:`models.xfolded_tm.solve` for the command's options."""
    return dict(_network_curve(options).model)


CHAPTER = Chapter(
    name="xfolded_tm",
    description=("Moudi, Othman, Lun & Abdul Rahiman (ICCS 2018): average message delay of wormhole routing on "
                 "the x-Folded TM, the TM and the torus (k x k), uniform traffic, against the generation rate lam."),
    front=front,
    params=(
        Param("topology", str, "xfolded_completed", "the k x k network (gives ad, and is what --simulate simulates)",
              choices=TOPOLOGY_KEYS),
        Param("k", int, 8, "radix of the k x k network, >= 3"),
        Param("M", int, 32, "message length, flits (the paper's L)"),
        Param("V", int, 2, "virtual channels per physical channel, >= 1"),
        Param("ad", float, None, "average distance per dimension AD_k, hops; replaces the network's in the model "
                                 "only, so not with --simulate",
              default_text="the BFS mean distance of --topology divided by 2"),
        Param("vbar", str, "mean", "reading of eq. (11)", choices=("mean", "sum")),
        Param("source_rate", str, "vbar", "rate of the source queue in eq. (10)", choices=("vbar", "vcs")),
        Param("channel_rate", str, "printed", "eq. (6) as printed or from the channel count",
              choices=("printed", "links")),
    ),
    configure=configure,
    simulates=True,
    sim_curve=sim_curve,
    setups=SETUP_NAMES,
    setup_help="'model' = ideal router, V ejection VCs (as the model assumes); 'ours' = ideal router, one "
               "ejection channel; 'booksim' = BookSim 2 router, as the paper states (torus with even V only)",
    sim_length=20_000,
    sim_warmup=2_000,
    latency="average message delay",
    example="curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.xfolded_tm`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
