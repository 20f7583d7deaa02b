"""``python -m models.torus_nbc curve ...``: latency of Duato-Nbc routing against the rate, optionally simulated.

The parameters are the keywords of :func:`models.torus_nbc.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  ``--simulate`` runs the chapter's hook
:func:`models.torus_nbc.experiments.simulate_curve` (through
:func:`~models.torus_nbc.experiments.sim_kwargs`, Duato-Nbc routing) on the
named set-up ``--setup`` (:data:`~models.torus_nbc.experiments.SETUPS`:
``paper``, one ejection VC, the default, or ``model``, ``V`` ejection VCs)::

    python -m models.torus_nbc curve --k 8 --M 32 --V 10 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.torus_nbc as front
from models.core.cli import REQUIRED, Chapter, Param, run
from models.core.cli import main as cli_main

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
    simulates=True,
    setups=("paper", "model"),
    setup_help="'paper' = one ejection VC per node (the paper's text), 'model' = V ejection VCs (the model's "
               "assumption)",
    sim_length=20_000,
    sim_warmup=2_000,
    example="curve --k 8 --M 32 --V 10 --points 30 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.torus_nbc`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
