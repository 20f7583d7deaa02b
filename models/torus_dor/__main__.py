"""``python -m models.torus_dor curve ...``: a latency curve of the 2004 model, optionally simulated.

The parameters are the keywords of :func:`models.torus_dor.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  The curve is :func:`models.torus_dor.compare`, which
checks them once (:class:`~models.torus_dor.setups.DorParams`) and, with
``--simulate``, runs the chapter's own hook on the model's torus
(``--bidirectional`` picks it for model and simulator alike) with the
chapter's one simulator set-up, ``"paper"`` (:mod:`models.torus_dor.setups`,
which also holds the run-length defaults, ``RUN``)::

    python -m models.torus_dor curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv
"""

from __future__ import annotations

import models.torus_dor as front
from models.core.cli import REQUIRED, Chapter, Param, run
from models.core.cli import main as cli_main
from models.torus_dor import atlas, setups

CHAPTER = Chapter(
    name="torus_dor",
    description=("Najaf-abadi & Sarbazi-azad (ICCD 2004): mean message latency of deterministic "
                 "(dimension-order) wormhole routing on an n-D torus, Poisson traffic, uniform destinations."),
    front=front,
    params=(
        Param("radices", int, REQUIRED, "nodes per dimension k_0 .. k_{n-1}, each >= 2 (dimension 0 is crossed first)",
              nargs="+"),
        Param("L", int, REQUIRED, "virtual channels per physical channel, >= 2"),
        Param("M", float, REQUIRED, "message length, flits, >= 1"),
        Param("bidirectional", bool, False, "bidirectional torus, the shorter way per dimension (off: unidirectional)", flag=True),
    ),
    setups=setups,
    setup_help="the paper's scheme (L injection VCs, one ejection VC), on the model's torus",
    example="curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv",
    atlas=atlas,
)


def main(argv=None) -> int:
    """``python -m models.torus_dor`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
