"""``python -m models.torus_ipp curve ...``: latency against the IPP on-state rate, optionally simulated.

The parameters are the keywords of :func:`models.torus_ipp.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  The load is ``mu1``, the sources' on-state rate
(messages/node/cycle; the mean rate is ``mu1 sigma2 / (sigma1 + sigma2)``).
``--simulate`` runs :func:`models.torus_ipp.compare` with the simulation (an
IPP source, ``--mu2 0``, or Poisson with ``--traffic poisson``) on the named
set-up ``--setup`` of :data:`models.torus_ipp.setups.SETUPS`, with the run
lengths of :data:`models.torus_ipp.setups.RUN`::

    python -m models.torus_ipp curve --k 8 --V 3 --M 32 --sigma1 0.2 --sigma2 0.8 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.torus_ipp as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.torus_ipp import atlas, setups

CHAPTER = Chapter(
    name="torus_ipp",
    description=("Min, Ferguson & Ould-Khaoua (SAC 2001): mean message latency of Duato's adaptive wormhole "
                 "routing on a k x k bidirectional torus with IPP (bursty) sources, against the on-state rate mu1."),
    front=front,
    params=(
        Param("k", int, 16, "nodes per dimension of the k x k bidirectional torus, a multiple of 4"),
        Param("V", int, 3, "virtual channels per physical channel, >= 3"),
        Param("M", float, 48.0, "message length, flits (whole flits to simulate)"),
        Param("sigma1", float, 0.2, "IPP switching rate on -> off, per cycle"),
        Param("sigma2", float, 0.8, "IPP switching rate off -> on, per cycle"),
        Param("mu2", float, 0.0, "rate in the off state, messages/node/cycle (0: an IPP; the simulation needs 0)"),
        Param("traffic", str, "ipp", "sources: the IPP, or Poisson of the same mean rate", choices=setups.TRAFFIC),
        Param("pab", str, "printed", "reading of eq. (26)", choices=setups.PAB_READINGS),
    ),
    setups=setups,
    setup_help="; ".join(f"{name!r} = {s.short}" for name, s in setups.SETUPS.items()),
    example="curve --k 8 --V 3 --M 32 --sigma1 0.2 --sigma2 0.8 --points 30 --out curve.csv",
    atlas=atlas,
)


def main(argv=None) -> int:
    """``python -m models.torus_ipp`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
