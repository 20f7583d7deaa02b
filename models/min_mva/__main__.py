"""``python -m models.min_mva curve ...``: mean response time against ``NC``, optionally simulated.

The parameters are the keywords of :func:`models.min_mva.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  The load is ``NC`` (outstanding requests per
processor), an integer here (the simulator's population); the ``--points``
grid is rounded to integers, so it may hold fewer than ``--points`` values.
The system is closed: the "saturation load" is the knee ``N*`` of the
asymptotic bounds (:func:`models.min_mva.saturation_load`) and the model
is never saturated.  ``--simulate`` runs the chapter's own hook,
:func:`models.min_mva.experiments.simulate_curve` (the closed simulator
:func:`models.sim.closed_min.simulate`, cached on disk), on the set-up
whose return network is the model's (``--return_wiring``: ``mirror`` is the
set-up ``paper``, ``same`` the set-up ``second-omega``); its run length is
``--cycles`` (the warm-up included), not messages::

    python -m models.min_mva curve --k 2 --n 6 --S_mm 2 --loads 1 2 4 8 16
"""

from __future__ import annotations

import models.min_mva as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError
from models.core.setups import Curve
from models.min_mva.setups import DEFAULT_SETUP, SETUPS


def sim_curve(options: dict, setup: str) -> Curve:
    """The curve ``--simulate`` runs: the model's configuration on the set-up of its return network.

    The set-up is the return network's wiring, which ``--return_wiring``
    already gives the model; ``--setup`` may name it (or be left at its
    default), never contradict it.
    """
    model = CHAPTER.solver_kwargs(options)
    name = next(n for n, s in SETUPS.items() if s.overrides["return_wiring"] == model["return_wiring"])
    if setup not in (name, DEFAULT_SETUP):
        raise ParameterError(f"`setup` {setup!r} simulates return_wiring={SETUPS[setup].overrides['return_wiring']!r}"
                             f", but the model's is {model['return_wiring']!r}: pass --return_wiring "
                             f"{SETUPS[setup].overrides['return_wiring']} too")
    return Curve("cli", model=model, sim=SETUPS[name].sim(model), setup=name)


CHAPTER = Chapter(
    name="min_mva",
    description=("Willick & Eager (SIGMETRICS 1990): approximate MVA of a multiprocessor with a multistage "
                 "interconnection network; mean response time R of a memory request against the number NC "
                 "of outstanding requests per processor (a closed system)."),
    front=front,
    params=(
        Param("topology", str, "omega", "forward network topology", choices=("omega", "baseline", "cube")),
        Param("k", int, 2, "switch size k (k x k switches)"),
        Param("n", int, 6, "stages; N = k**n processors and memories"),
        Param("S_pe", float, 1.0, "mean processor inter-request time when not blocked, cycles, >= 1"),
        Param("S_mm", float, 1.0, "memory service time, cycles, >= m"),
        Param("m", int, 1, "packets per request and per reply, >= 1"),
        Param("pattern", str, "uniform", "memory reference pattern (hot_spot: the paper's Fig. 3, h = 0.2)",
              choices=("uniform", "hot_spot")),
        Param("return_wiring", str, "mirror", "return network: the forward network's mirror image (the set-up "
                                              "'paper') or a second copy ('second-omega')",
              choices=("mirror", "same")),
    ),
    simulates=True,
    sim_curve=sim_curve,
    setups=tuple(SETUPS),
    setup_help="the return network's wiring: 'paper' = the forward network's mirror image, 'second-omega' = a "
               "second omega network; follows --return_wiring",
    sim_unit="cycles",
    sim_length=100_000,
    sim_warmup=10_000,
    latency="mean response time R",
    integer_loads=True,
    example="curve --k 2 --n 6 --S_mm 2 --loads 1 2 4 8 16 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.min_mva`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
