"""Najaf-abadi & Sarbazi-azad (ICCD 2004): combinatorial model of deterministic wormhole routing in n-D tori.

Front door (the chapter contract of :mod:`models`); the load is the paper's
generation rate :math:`\\lambda_g` (``LOAD = "lam_g"``, messages/node/cycle)::

    from models.torus_dor import equations, solve, solve_curve, saturation_load, Readings
    res = solve(0.001, radices=(16, 16), L=3, M=32)
    res.latency, res.multiplexing, res.W
    saturation_load(radices=(16, 16), L=3, M=32)
    solve_curve([0.001, 0.002], radices=(16, 16), L=3, M=32).latency
    compare(radices=(12, 12), L=3, M=32)          # model against simulation, up to the simulated saturation

    from models.torus_dor import solve_2003        # the comparison model (reconstruction), same shape

Submodules: ``equations`` (SymPy, order-of-appearance numbering, readings),
``solve`` (the 2004 model's fixed point and saturation), ``model2003`` (the
reconstructed Sarbazi-Azad, Khonsari & Ould-Khaoua 2003 model), ``setups``
(light: the network as one checked value, ``DorParams``; the simulator
set-up; run lengths; the curve), ``compare`` (the model against the
simulation in one call), ``experiments`` (the paper's figures, simulation
runs, error tables, the chapter's own tables), ``claims`` (the paper's claims
and their table), ``glue`` (what the pages glue), ``plots`` (matplotlib).
The combinatorics are shared: :mod:`models.networks.dor_paths`.
"""

from ..core.symbolic import lazy_attributes
from .readings import Readings, Readings2003

lazy_attributes(__name__, {"equations": ".equations:equations", "equations_2003": ".equations:equations_2003",
                            "compare": ".compare:compare"})
from .model2003 import Result2003, saturation_load_2003, solve_2003
from .solve import LOAD, LOAD_UNIT, CurveResult, TorusDorResult, saturation_load, solve, solve_curve

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(radices=(8, 8), L=3, M=32)
EXAMPLE_LOAD = 0.0003
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = [
    "LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "equations_2003", "Readings", "Readings2003", "solve", "solve_curve", "compare",
    "saturation_load", "TorusDorResult", "CurveResult", "solve_2003", "saturation_load_2003", "Result2003",
]
