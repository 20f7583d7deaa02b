"""Willick & Eager (1990): approximate MVA of multistage interconnection networks.

The front door (the contract of :mod:`models`)::

    from models.min_mva import solve, solve_curve, saturation_load
    res = solve(4, topology="omega", k=2, n=6, S_pe=1, S_mm=2)   # NC = 4
    res.R, res.X, res.stage_residence["F1"], res.latency          # latency == R
    curve = solve_curve([1, 2, 4, 8], S_mm=2)                      # CurveResult
    saturation_load(S_mm=2)                                        # N*, requests/processor
    compare(k=2, n=6, S_mm=2, loads=[1, 2, 4, 8])   # model against simulation, over NC

The multiprocessor's nine keywords (``topology``, ``k``, ``n``, ``S_pe``,
``S_mm``, ``m``, ``pattern``, ``return_wiring``, ``pattern_options``) are
documented and checked once, by :class:`MvaParams` (``params``).

The load is ``NC`` (outstanding requests per processor).  The system is
closed, so it never saturates (``saturated`` is always False);
:func:`saturation_load` is the saturation population ``N*`` of the
asymptotic bounds, the knee of the throughput curve (:func:`asymptotic_bounds`).

Submodules: ``params`` (:class:`MvaParams`), ``equations`` (SymPy, paper
numbering, derivations), ``solve`` (numerics), ``visits`` (V_ij, p_ikj),
``setups`` (the named simulator set-ups -- the return network's wiring --,
the run lengths and the curve of a network; light, read by the command
line), ``experiments`` (the paper's figures, the simulation hook and the
analysis tables), ``claims`` (the claims and reproductions tables),
``glue`` (what the pages glue), ``plots`` (matplotlib), ``paper_tables``
(the paper's Tables 1 and 2 and
:func:`~models.min_mva.paper_tables.compare_table`), ``residence_bias`` (the
sentences on the tables' residence times, decided case by case beyond the
noise), ``eq4_printed`` (the multi-packet model with eq. (4) as printed
against the simulation), ``readings`` (the readings of eqs. (1) and (4)),
``compare``.
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {**{name: ".equations:" + name for name in (
    "equations", "kruskal_snir_reduction", "no_queueing_reductions", "one_by_one_reduction", "single_packet_limit")},
    "compare": ".compare:compare"})
from .params import MvaParams
from .solve import AsymptoticBounds, CurveResult, MinMvaResult, asymptotic_bounds, saturation_load, solve, solve_curve

#: The load parameter: maximum outstanding requests per processor (customers per class).
LOAD = "NC"
#: Its unit.
LOAD_UNIT = "requests/processor"

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(topology="omega", k=2, n=3, S_pe=1, S_mm=2)
EXAMPLE_LOAD = 4
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = True

__all__ = [
    "LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM",
    "equations", "kruskal_snir_reduction", "no_queueing_reductions", "one_by_one_reduction", "single_packet_limit",
    "solve", "solve_curve", "saturation_load", "asymptotic_bounds", "compare",
    "MinMvaResult", "CurveResult", "AsymptoticBounds", "MvaParams",
]
