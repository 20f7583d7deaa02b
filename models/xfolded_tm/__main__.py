"""``python -m models.xfolded_tm curve ...``: average delay against the generation rate, optionally simulated.

The model's keywords (:func:`models.xfolded_tm.solve`) are ``M``, ``V``,
``k`` and the readings; its ``ad`` (average distance per dimension, hops) is
the BFS mean distance of the ``k x k`` network ``--topology``
(:class:`~models.xfolded_tm.setups.XfoldedParams`, which also gives the node
and channel counts of ``--channel_rate links``), unless ``--ad`` is given:
then the model takes that distance in place of the network's (``--topology``
and ``--k`` still give its nodes and channels), a what-if of the model alone,
so ``--ad`` is refused with ``--simulate``, which simulates the real
``--topology`` network (review case C28).  The command is
:mod:`models.core.cli` (``--help`` lists every option with its unit and
default) on the chapter's :func:`~models.xfolded_tm.compare`; the set-up
names and run lengths are :mod:`models.xfolded_tm.setups`'s.  The load is
``lam``, messages/node/cycle (the paper's x axis is the injection rate
``lam * M``, flits/node/cycle)::

    python -m models.xfolded_tm curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.xfolded_tm as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.xfolded_tm import atlas, setups
from models.xfolded_tm.solve import CHANNEL_RATES, SOURCE_RATES, VBAR_READINGS


def configure(options: dict) -> dict:
    """The keyword arguments of :func:`models.xfolded_tm.solve` for the command's options (checked once)."""
    return setups.XfoldedParams(**{name: options[name] for name in (
        "topology", "k", "M", "V", "ad", "vbar", "source_rate", "channel_rate")}).model


CHAPTER = Chapter(
    name="xfolded_tm",
    description=("Moudi, Othman, Lun & Abdul Rahiman (ICCS 2018): average message delay of wormhole routing on "
                 "the x-Folded TM, the TM and the torus (k x k), uniform traffic, against the generation rate lam."),
    front=front,
    params=(
        Param("topology", str, "xfolded_completed", "the k x k network (gives ad, and is what --simulate simulates)",
              choices=tuple(setups.TOPOLOGIES)),
        Param("k", int, 8, "radix of the k x k network, >= 3"),
        Param("M", int, 32, "message length, flits (the paper's L)"),
        Param("V", int, 2, "virtual channels per physical channel, >= 1"),
        Param("ad", float, None, "average distance per dimension AD_k, hops; replaces the network's in the model "
                                 "only, so not with --simulate",
              default_text="the BFS mean distance of --topology divided by 2"),
        Param("vbar", str, "mean", "reading of eq. (11)", choices=VBAR_READINGS),
        Param("source_rate", str, "vbar", "rate of the source queue in eq. (10)", choices=SOURCE_RATES),
        Param("channel_rate", str, "printed", "eq. (6) as printed or from the channel count",
              choices=CHANNEL_RATES),
    ),
    configure=configure,
    setups=setups,
    setup_help=setups.SETUP_HELP,
    latency="average message delay",
    example="curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv",
    atlas=atlas,
)


def main(argv=None) -> int:
    """``python -m models.xfolded_tm`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
