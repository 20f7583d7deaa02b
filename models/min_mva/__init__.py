"""Willick & Eager (1990): approximate MVA of multistage interconnection networks.

Public surface::

    from models.min_mva import equations, solve, solve_curve
    res = solve(topology="omega", k=2, n=6, NC=4, S_pe=1, S_mm=2)
    res.R, res.X, res.stage_residence["F1"]

Submodules: ``equations`` (SymPy, paper numbering, derivations), ``solve``
(numerics), ``visits`` (V_ij, p_ikj), ``topology``, ``patterns``,
``paper_tables`` (the paper's Tables 1 and 2 and :func:`compare_table`).
"""

from .equations import (
    equations,
    kruskal_snir_reduction,
    no_queueing_reductions,
    one_by_one_reduction,
    single_packet_limit,
)
from .solve import CurveResult, MVAResult, solve, solve_curve

__all__ = [
    "equations", "kruskal_snir_reduction", "no_queueing_reductions", "one_by_one_reduction", "single_packet_limit",
    "solve", "solve_curve", "MVAResult", "CurveResult",
]
