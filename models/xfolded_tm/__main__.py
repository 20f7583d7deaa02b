"""``python -m models.xfolded_tm curve ...``: average delay against the generation rate, optionally simulated.

The model's keywords (:func:`models.xfolded_tm.solve`) are ``M``, ``V``,
``k`` and the readings; its ``ad`` (average distance per dimension, hops) is
the BFS mean distance of the ``k x k`` network ``--topology`` (the chapter's
:func:`models.xfolded_tm.experiments.delay_curve`, which also gives the
node and channel counts of ``--channel_rate links``), unless ``--ad`` is
given.  The command is :mod:`models.core.cli` (``--help`` lists every option
with its unit and default).  The load is ``lam``, messages/node/cycle (the
paper's x axis is the injection rate ``lam * M``, flits/node/cycle).
``--simulate`` simulates ``--topology`` with the chapter's translation
:func:`~models.xfolded_tm.experiments.sim_config` on the named set-up
``--setup`` (:data:`~models.xfolded_tm.experiments.SETUPS`)::

    python -m models.xfolded_tm curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv
"""

from __future__ import annotations

import models.xfolded_tm as front
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main
from models.core.errors import ParameterError

#: The networks of the chapter's delay figure (keys of ``experiments.TOPOLOGIES``; checked in tests/test_cli.py).
TOPOLOGY_KEYS = ("torus", "tm", "xfolded_printed", "xfolded_completed")
#: The chapter's simulator set-ups (keys of ``experiments.SETUPS``; checked in tests/test_cli.py).
SETUP_NAMES = ("ours", "model", "booksim")
_READINGS = ("vbar", "source_rate", "channel_rate")


def _curve(options: dict, setup: str = "ours"):
    from models.xfolded_tm import experiments  # the networks (BFS distances) and the simulator translation

    readings = {name: options[name] for name in _READINGS}
    curve = experiments.delay_curve(options["topology"], options["V"], (), k=options["k"], M=options["M"],
                                    setup=setup, **readings)
    if options["ad"] is not None:
        curve = curve.replace(model=dict(curve.model, ad=options["ad"]))
    return curve


def configure(options: dict) -> dict:
    """The keyword arguments of :func:`models.xfolded_tm.solve` for the command's options."""
    return dict(_curve(options).model)


def simulate(options: dict, loads: list, sim) -> list[dict]:
    """Simulated delay (cycles), 95% half width and saturation flag at every ``lam`` of ``loads``."""
    from models.sim.sweep import run_sweep  # the simulator (numba): only with --simulate
    from models.xfolded_tm import experiments

    why = experiments.unsupported(options["topology"], options["V"], options["setup"])
    if why:
        raise ParameterError(f"`setup` {options['setup']!r} cannot simulate {options['topology']} with "
                             f"V={options['V']}: {why}")
    curve = _curve(options, options["setup"])
    base = experiments.sim_config(curve, messages=sim.length, warmup_messages=sim.warmup, seed=sim.seed)
    results = run_sweep([dict(base, rate=float(x)) for x in loads], jobs=sim.jobs, cache=True, progress=False)
    return [{"latency": r.latency, "latency CI": r.latency_ci, "saturated": r.saturated} for r in results]


CHAPTER = Chapter(
    name="xfolded_tm",
    description=("Moudi, Othman, Lun & Abdul Rahiman (ICCS 2018): average message delay of wormhole routing on "
                 "the x-Folded TM, the TM and the torus (k x k), uniform traffic, against the generation rate lam."),
    front=front,
    params=(
        Param("topology", str, "xfolded_completed", "the k x k network (gives ad, and is what --simulate simulates)",
              choices=TOPOLOGY_KEYS),
        Param("k", int, 8, "radix of the k x k network, >= 3"),
        Param("M", int, 32, "message length, flits (the paper's L)"),
        Param("V", int, 2, "virtual channels per physical channel, >= 1"),
        Param("ad", float, None, "average distance per dimension AD_k, hops",
              default_text="the BFS mean distance of --topology divided by 2"),
        Param("vbar", str, "mean", "reading of eq. (11)", choices=("mean", "sum")),
        Param("source_rate", str, "vbar", "rate of the source queue in eq. (10)", choices=("vbar", "vcs")),
        Param("channel_rate", str, "printed", "eq. (6) as printed or from the channel count",
              choices=("printed", "links")),
    ),
    configure=configure,
    simulate=simulate,
    sim_params=(
        Param("setup", str, "ours", "simulator set-up: 'ours' = ideal router, one ejection channel; 'model' = "
                                    "V ejection VCs; 'booksim' = BookSim 2 router (torus with even V only)",
              choices=SETUP_NAMES),
    ),
    sim_length=20_000,
    sim_warmup=2_000,
    latency="average message delay",
    example="curve --topology xfolded_completed --k 8 --M 32 --V 2 --points 30 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.xfolded_tm`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
