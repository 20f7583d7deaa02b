"""``python -m models.torus_dor curve ...``: a latency curve of the 2004 model, optionally simulated.

The parameters are the keywords of :func:`models.torus_dor.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  ``--simulate`` runs the chapter's own translation,
:func:`models.torus_dor.experiments.torus_curve` and
:func:`~models.torus_dor.experiments.run_sim` (the set-up follows
``--bidirectional``: the ``"unidirectional"`` or ``"bidirectional"`` set-up
of :data:`~models.torus_dor.experiments.SETUPS`)::

    python -m models.torus_dor curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv
"""

from __future__ import annotations

import models.torus_dor as front
from models.core.cli import REQUIRED, Chapter, Param, run
from models.core.cli import main as cli_main


def simulate(options: dict, loads: list, sim) -> list[dict]:
    """Simulated latency (cycles), 95% half width and saturation flag at every ``lam_g`` of ``loads``."""
    from models.sim.sweep import run_sweep  # the simulator (numba): loaded only with --simulate
    from models.torus_dor import experiments

    curve = experiments.torus_curve(tuple(options["radices"]), options["L"], options["M"],
                                    bidirectional=options["bidirectional"])
    cfg = experiments.sim_config(curve, messages=sim.length, warmup_messages=sim.warmup, seed=sim.seed)
    results = run_sweep([dict(cfg, rate=float(x)) for x in loads], jobs=sim.jobs, cache=True,
                        progress=False)
    return [{"latency": r.latency, "latency CI": r.latency_ci, "saturated": r.saturated} for r in results]


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
    simulate=simulate,
    sim_length=20_000,
    sim_warmup=2_000,
    curve_kwargs={"saturation": False},
    example="curve --radices 12 12 --L 3 --M 32 --points 50 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.torus_dor`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
