"""Safaei, Khonsari, Fathy & Ould-Khaoua (ICCS 2007): fully adaptive Duato-Nbc routing in 2-D tori.

Public surface::

    from models.torus_nbc import equations, solve, solve_curve, saturation_load
    res = solve(0.01, k=8, M=32, V=10)          # rate in messages/node/cycle
    res.latency, res.network_latency, res.source_wait, res.multiplexing
    saturation_load(k=8, M=32, V=10)

Submodules: ``params`` (validation, minimum VCs), ``equations`` (SymPy,
paper numbering), ``solve`` (numerics), ``routing_check`` (the escape
channels' extended dependency graph, built with the simulator's routing
tables), ``experiments`` (Fig. 1 and the routing comparison: curves,
simulation, error tables, plots).
"""

from .equations import equations
from .params import NbcParams, check_params, min_escape_levels, min_vcs
from .solve import NbcCurve, NbcResult, destinations, hop_tables, saturation_load, solve, solve_curve

__all__ = [
    "equations", "solve", "solve_curve", "saturation_load", "NbcResult", "NbcCurve", "NbcParams",
    "check_params", "min_escape_levels", "min_vcs", "destinations", "hop_tables",
]
