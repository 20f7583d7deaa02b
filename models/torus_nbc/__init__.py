"""Safaei, Khonsari, Fathy & Ould-Khaoua (ICCS 2007): fully adaptive Duato-Nbc routing in 2-D tori.

Front door (the chapter contract of :mod:`models`)::

    from models.torus_nbc import equations, solve, solve_curve, saturation_load
    res = solve(0.01, k=8, M=32, V=10)          # rate in messages/node/cycle
    res.latency, res.network_latency, res.source_wait, res.multiplexing
    curve = solve_curve([0.005, 0.01], k=8, M=32)   # CurveResult: loads, latency, saturated, results
    saturation_load(k=8, M=32, V=10, rtol=1e-5)
    compare(k=8, M=32, V=10)                 # model against simulation (Comparison)

Submodules, each importing only those above it:

* ``params`` -- :class:`NbcParams`, the model's parameters checked once (the
  value the chapter carries from the door to the simulator), minimum VCs;
* ``equations`` (SymPy, paper numbering), ``solve`` (numerics);
* ``setups`` -- light (no pandas, no simulator): the two simulator set-ups
  ``SETUPS``, the run lengths ``SETTINGS`` and ``RUN``, and ``curve``, the
  one way a curve of the chapter is built;
* ``routing_check`` -- the escape channels' extended dependency graph, built
  with the simulator's routing tables;
* ``experiments`` -- Fig. 1 and the routing comparison: figures, the
  simulator translation (``sim_kwargs``, ``simulate_curve``,
  ``sim_saturation``), runs, and the error, gap, axis, variance and routing
  tables;
* ``claims`` -- the paper's claims, one per sentence, and the claims table;
* ``glue`` -- the numbers and sentences the pages glue;
* ``compare`` -- the model against the simulation in one call;
* ``plots`` (matplotlib).
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {"equations": ".equations:equations", "compare": ".compare:compare"})
from .params import NbcParams, min_escape_levels, min_vcs
from .solve import CurveResult, TorusNbcResult, destinations, hop_tables, saturation_load, solve, solve_curve

#: Name of the load parameter (the paper's generation rate lambda_g) and its unit.
LOAD = "rate"
LOAD_UNIT = "messages/node/cycle"

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(k=8, M=32, V=10)
EXAMPLE_LOAD = 0.001
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = [
    "LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "solve", "solve_curve",
    "saturation_load", "compare", "TorusNbcResult", "CurveResult", "NbcParams", "min_escape_levels", "min_vcs",
    "destinations", "hop_tables",
]
