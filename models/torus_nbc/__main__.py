"""``python -m models.torus_nbc curve ...``: latency of Duato-Nbc routing against the rate, optionally simulated.

The parameters are the keywords of :func:`models.torus_nbc.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  ``--simulate`` runs the chapter's ``compare``
(:func:`models.torus_nbc.compare`: its curve, built once, simulated by the
chapter's hook) on the named set-up ``--setup`` and with the run lengths of
:mod:`models.torus_nbc.setups` (``SETUPS``: ``paper``, one ejection VC, the
default, or ``model``, ``V`` ejection VCs; ``RUN``)::

    python -m models.torus_nbc curve --k 8 --M 32 --V 10 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.torus_nbc as front
from models.torus_nbc import atlas, setups
from models.core.cli import REQUIRED, Chapter, Param, run
from models.core.cli import main as cli_main

#: Whom a set-up follows, for ``--setup``'s help (the set-ups themselves are ``setups.SETUPS``).
_FOLLOWS = {"paper": "as the paper states", "model": "as the model assumes", "": "neither"}

CHAPTER = Chapter(
    name="torus_nbc",
    description=("Safaei, Khonsari, Fathy & Ould-Khaoua (ICCS 2007): mean message latency of fully adaptive "
                 "Duato-Nbc wormhole routing on a k x k bidirectional torus, Poisson traffic, uniform destinations."),
    front=front,
    params=(
        Param("k", int, REQUIRED, "radix of the k x k torus, a multiple of 4"),
        Param("M", int, REQUIRED, "message length, flits"),
        Param("V", int, 10, "virtual channels per physical channel, >= k/2 + 2"),
        Param("escape_levels", int, None, "escape levels V2 (V - V2 adaptive VCs)", default_text="the minimum k/2 + 1"),
        Param("mean_distance", str, "agarwal", "d in eq. (3): the paper's k/2 or the exact mean distance",
              choices=("agarwal", "exact")),
        Param("variance", str, "paper", "service-time variance of eqs. (18)-(19): the paper's (S-M)^2, zero or "
              "exponential (S^2)", choices=("paper", "zero", "exponential")),
    ),
    setups=setups,
    setup_help=", ".join(f"'{name}' = {st.short} per node ({_FOLLOWS[st.stands_for]})"
                         for name, st in setups.SETUPS.items()),
    example="curve --k 8 --M 32 --V 10 --points 30 --out curve.csv",
    atlas=atlas,
)


def main(argv=None) -> int:
    """``python -m models.torus_nbc`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
