"""``python -m models.torus_ipp curve ...``: latency against the IPP on-state rate, optionally simulated.

The parameters are the keywords of :func:`models.torus_ipp.solve`; the
command is :mod:`models.core.cli` (``--help`` lists every option with its
unit and default).  The load is ``mu1``, the sources' on-state rate
(messages/node/cycle; the mean rate is ``mu1 sigma2 / (sigma1 + sigma2)``).
``--simulate`` uses the chapter's translation
:func:`models.torus_ipp.experiments.sim_kwargs` on the named set-up
``--setup`` (:data:`~models.torus_ipp.experiments.SETUPS`, by its short
name of :data:`~models.torus_ipp.experiments.SETUP_KEYS`)::

    python -m models.torus_ipp curve --k 8 --V 3 --M 32 --sigma1 0.2 --sigma2 0.8 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.torus_ipp as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError

#: Short set-up names (``SETUP_KEYS`` of the chapter's experiments, inverted; kept here so that --help
#: does not load the simulator); checked against the chapter's table in tests/test_cli.py.
SETUP_NAMES = {"paper": "paper/model", "oneej": "one ejection channel"}


def simulate(options: dict, loads: list, sim) -> list[dict]:
    """Simulated latency (cycles), 95% half width and saturation flag at every ``mu1`` of ``loads``."""
    from models.sim.sweep import run_sweep  # the simulator (numba): only with --simulate
    from models.torus_ipp import experiments

    config = CHAPTER.solver_kwargs(options)
    if config["mu2"] != 0:
        raise ParameterError(f"`mu2` must be 0 (an IPP source) to simulate; got {config['mu2']!r}")
    setup = experiments.SETUPS[SETUP_NAMES[options["setup"]]]
    points = [experiments.sim_kwargs(config, float(x), messages=sim.length, warmup_messages=sim.warmup,
                                     seed=sim.seed, **setup.overrides(config)) for x in loads]
    results = run_sweep(points, jobs=sim.jobs, cache=True, progress=False)
    return [{"latency": r.latency, "latency CI": r.latency_ci, "saturated": r.saturated} for r in results]


CHAPTER = Chapter(
    name="torus_ipp",
    description=("Min, Ferguson & Ould-Khaoua (SAC 2001): mean message latency of Duato's adaptive wormhole "
                 "routing on a k x k bidirectional torus with IPP (bursty) sources, against the on-state rate mu1."),
    front=front,
    params=(
        Param("k", int, 16, "nodes per dimension of the k x k bidirectional torus, a multiple of 4"),
        Param("V", int, 3, "virtual channels per physical channel, >= 3"),
        Param("M", float, 48.0, "message length, flits"),
        Param("sigma1", float, 0.2, "IPP switching rate on -> off, per cycle"),
        Param("sigma2", float, 0.8, "IPP switching rate off -> on, per cycle"),
        Param("mu2", float, 0.0, "rate in the off state, messages/node/cycle (0: an IPP; the simulation needs 0)"),
        Param("traffic", str, "ipp", "sources: the IPP, or Poisson of the same mean rate",
              choices=("ipp", "poisson")),
        Param("pab", str, "printed", "reading of eq. (26)", choices=("printed", "specific")),
    ),
    simulate=simulate,
    sim_params=(
        Param("setup", str, "paper", "simulator set-up: 'paper' = paper/model (4V ejection VCs, messages leave as "
                                     "they arrive), 'oneej' = one ejection channel", choices=tuple(SETUP_NAMES)),
    ),
    sim_length=20_000,
    sim_warmup=4_000,
    example="curve --k 8 --V 3 --M 32 --sigma1 0.2 --sigma2 0.8 --points 30 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.torus_ipp`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
