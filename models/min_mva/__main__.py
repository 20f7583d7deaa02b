"""``python -m models.min_mva curve ...``: mean response time against ``NC``, optionally simulated.

The parameters are the keywords of :func:`models.min_mva.solve` (the
multiprocessor of :class:`models.min_mva.params.MvaParams`); the command is
:mod:`models.core.cli` (``--help`` lists every option with its unit and
default), calling :func:`models.min_mva.compare`.  The load is ``NC``
(outstanding requests per processor), an integer here (the simulator's
population); the ``--points`` grid is rounded to integers, so it may hold
fewer than ``--points`` values.  The system is closed: the "saturation
load" is the knee ``N*`` of the asymptotic bounds
(:func:`models.min_mva.saturation_load`) and the model is never saturated.
``--simulate`` runs the chapter's own hook (the closed simulator
:func:`models.sim.closed_min.simulate`, cached on disk) on the set-up whose
return network is the model's (``--return_wiring``: ``mirror`` is the
set-up ``paper``, ``same`` the set-up ``second-omega``;
:mod:`models.min_mva.setups`, which also gives the defaults of ``--cycles``
(the warm-up included) and ``--warmup``)::

    python -m models.min_mva curve --k 2 --n 6 --S_mm 2 --loads 1 2 4 8 16
"""

from __future__ import annotations

import models.min_mva as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.min_mva import atlas, setups
from models.networks.multistage import RETURN_WIRINGS, TOPOLOGIES
from models.networks.patterns import PATTERNS

SLUG = "min_mva"

CHAPTER = Chapter(
    name=SLUG,
    description=("Willick & Eager (SIGMETRICS 1990): approximate MVA of a multiprocessor with a multistage "
                 "interconnection network; mean response time R of a memory request against the number NC "
                 "of outstanding requests per processor (a closed system)."),
    front=front,
    params=(
        Param("topology", str, "omega", "forward network topology", choices=TOPOLOGIES),
        Param("k", int, 2, "switch size k (k x k switches)"),
        Param("n", int, 6, "stages; N = k**n processors and memories"),
        Param("S_pe", float, 1.0, "mean processor inter-request time when not blocked, cycles, >= 1"),
        Param("S_mm", float, 1.0, "memory service time, cycles, >= m"),
        Param("m", int, 1, "packets per request and per reply, >= 1"),
        Param("pattern", str, "uniform", "memory reference pattern (hot_spot: the paper's Fig. 3, h = 0.2)",
              choices=PATTERNS),
        Param("return_wiring", str, "mirror", "return network: the forward network's mirror image (the set-up "
                                              "'paper') or a second copy ('second-omega')",
              choices=RETURN_WIRINGS),
    ),
    setups=setups,
    setup_help="the return network's wiring: 'paper' = the forward network's mirror image, 'second-omega' = a "
               "second omega network; follows --return_wiring",
    latency="mean response time R",
    integer_loads=True,
    example="curve --k 2 --n 6 --S_mm 2 --loads 1 2 4 8 16 --out curve.csv",
    atlas=atlas,
)


def main(argv=None) -> int:
    """``python -m models.min_mva`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
