"""Moudi, Othman, Lun & Abdul Rahiman: average delay of wormhole-routed x-Folded TM, TM and torus.

Public surface (the chapter contract of :mod:`models`)::

    from models.xfolded_tm import equations, saturation_load, solve, solve_curve, theorem1
    from models.networks.grid2d import build
    net = build("xfolded", 8, "completed")
    kw = dict(ad=net.average_distance_per_dimension(), M=32, V=2)
    res = solve(0.005, **kw)                 # lam, messages/node/cycle
    res.latency, res.saturated
    curve = solve_curve([0.001, 0.005], **kw)  # same unit; curve.injection = lam * M, flits/node/cycle
    lam_sat = saturation_load(**kw)
    compare(topology="xfolded_completed", k=8, M=32, V=2)   # model against simulation

Submodules: ``equations`` (SymPy, the paper's numbering), ``solve`` (numerics,
readings as switches), ``setups`` (light: the networks, the named simulator
set-ups ``SETUPS``, the run lengths, the checked parameters ``XfoldedParams``
and the curve of a network), ``compare`` (the model against the simulation in
one call), ``experiments`` (the figures as
:class:`models.core.setups.Figure` objects, the simulator translation, the
validation grid, error, VC-saturation, ranking and outperform tables),
``topology`` (distances and the paper's topological statements), ``claims``
(the claims table), ``glue`` (the numbers the pages quote), ``plots``
(matplotlib).  The topologies are in :mod:`models.networks.grid2d`.
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {"equations": ".equations:equations", "compare": ".compare:compare"})
from .solve import LOAD, LOAD_UNIT, CurveResult, XfoldedTmResult, saturation_load, solve, solve_curve, theorem1

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(ad=4.0, M=32, V=2, k=8)
EXAMPLE_LOAD = 0.002
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = ["LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "solve", "solve_curve", "saturation_load", "compare", "theorem1",
           "XfoldedTmResult", "CurveResult"]
