"""``python -m models.min_mva curve ...``: mean response time against ``NC``, optionally simulated.

The parameters are the keywords of :func:`models.min_mva.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  The load is ``NC`` (outstanding requests per
processor), an integer here (the simulator's population); the ``--points``
grid is rounded to integers, so it may hold fewer than ``--points`` values.
The system is closed: the "saturation load" is the knee ``N*`` of the
asymptotic bounds (:func:`models.min_mva.saturation_load`) and the model
is never saturated.  ``--simulate`` runs the closed simulator
(:func:`models.sim.closed_min.simulate`, cached on disk) with the chapter's
translation :func:`models.min_mva.experiments.sim_kwargs`; its run length is
``--cycles`` (the warm-up included), not messages::

    python -m models.min_mva curve --k 2 --n 6 --S_mm 2 --loads 1 2 4 8 16
"""

from __future__ import annotations

import models.min_mva as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError
from models.core.experiment import Curve


def simulate(options: dict, loads: list, sim) -> list[dict]:
    """Simulated response time ``R`` (cycles), its 95% half width and ``False`` (never saturated) at every ``NC``."""
    from models.min_mva import experiments  # the closed simulator (numba): only with --simulate
    from models.sim import closed_min
    from models.sim.sweep import run_sweep

    bad = [x for x in loads if float(x) != int(float(x)) or float(x) < 1]
    if bad:
        raise ParameterError(f"`loads` must be integers >= 1 to simulate (NC, requests/processor); got {bad[0]!r}")
    curve = Curve("cli", model=CHAPTER.solver_kwargs(options))
    points = [experiments.sim_kwargs(curve, int(x), cycles=sim.length, warmup_cycles=sim.warmup, seed=sim.seed)
              for x in loads]
    # closed_min.simulate caches every point itself (the entries the chapter's notebooks use)
    results = run_sweep(points, simulate_fn=closed_min.simulate, jobs=sim.jobs, cache=False, progress=False)
    return [{"latency": r.R, "latency CI": r.R_ci, "saturated": False} for r in results]


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
    simulate=simulate,
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
