"""Min, Ferguson & Ould-Khaoua (2001): adaptive wormhole routing in 2-D tori under IPP traffic.

Public surface::

    from models.torus_ipp import equations, solve, solve_curve, saturation_load
    r = solve(k=16, V=3, M=48, mu1=0.004, sigma1=0.2, sigma2=0.8)
    r.latency, r.network_latency, r.source_wait, r.channel    # cycles; fitted channel MMPP

Submodules: ``equations`` (SymPy, eqs. 1-29), ``solve`` (numerics, the
blocking fixed point, saturation), ``experiments`` (the paper's figures,
simulation runs, error tables, plots).  The MMPP pieces are shared:
:mod:`models.traffic` (the process, its moments, the Heffes-Lucantoni fit) and
:mod:`models.queueing.mmpp_g1` (MMPP/G/1).
"""

from .equations import equations
from .solve import Params, TorusIPPCurve, TorusIPPResult, channel_process, saturation_bound, saturation_load, solve, solve_curve

__all__ = [
    "equations", "solve", "solve_curve", "saturation_load", "saturation_bound", "channel_process", "Params",
    "TorusIPPResult", "TorusIPPCurve",
]
