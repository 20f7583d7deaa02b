"""``python -m models.torus_dor curve ...``: a latency curve of the 2004 model, optionally simulated.

The parameters are the keywords of :func:`models.torus_dor.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  ``--simulate`` runs the chapter's own hook,
:func:`models.torus_dor.experiments.simulate_curve` (the translation
:func:`~models.torus_dor.experiments.sim_kwargs`), on the model's torus
(``--bidirectional`` picks it for model and simulator alike) with the
chapter's one simulator set-up, ``"paper"``
(:data:`~models.torus_dor.experiments.SETUPS`)::

    python -m models.torus_dor curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv
"""

from __future__ import annotations

import models.torus_dor as front
from models.core.cli import REQUIRED, Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError

#: The simulator set-ups (``experiments.SETUPS``), named here so that ``--help`` imports no simulator: one, the
#: paper's scheme, so there is no ``--setup`` option.  The torus is the model's own ``--bidirectional``.
SETUPS = ("paper",)


def sim_curve(options: dict, setup: str):
    """The curve ``--simulate`` runs: the model's torus (``--bidirectional``) on the set-up ``setup``."""
    from models.torus_dor.experiments import torus_curve  # the simulator translation: only with --simulate

    if setup not in SETUPS:
        raise ParameterError(f"`setup` must be one of {list(SETUPS)}; got {setup!r}")
    return torus_curve(tuple(options["radices"]), options["L"], options["M"],
                       bidirectional=bool(options["bidirectional"]), setup=setup)


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
    simulates=True,
    sim_curve=sim_curve,
    setups=SETUPS,
    setup_help="the paper's scheme (L injection VCs, one ejection VC), on the model's torus",
    sim_length=20_000,
    sim_warmup=2_000,
    example="curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.torus_dor`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
