"""Moudi, Othman, Lun & Abdul Rahiman: average delay of wormhole-routed x-Folded TM, TM and torus.

Public surface::

    from models.xfolded_tm import equations, solve, solve_curve, saturation_rate, theorem1
    from models.networks.grid2d import build
    net = build("xfolded", 8, "completed")
    res = solve(0.005, ad=net.average_distance_per_dimension(), M=32, V=2)
    res.latency, res.saturated

Submodules: ``equations`` (SymPy, the paper's numbering), ``solve`` (numerics,
readings as switches), ``experiments`` (the delay figure: curves, simulation,
error and claims tables, plots).  The topologies are in :mod:`models.networks.grid2d`.
"""

from .equations import equations
from .solve import CurveResult, DelayResult, saturation_rate, solve, solve_curve, theorem1

__all__ = ["equations", "solve", "solve_curve", "saturation_rate", "theorem1", "DelayResult", "CurveResult"]
