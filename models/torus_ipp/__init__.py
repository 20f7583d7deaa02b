"""Min, Ferguson & Ould-Khaoua (2001): adaptive wormhole routing in 2-D tori under IPP traffic.

The front door (the contract of :mod:`models`)::

    from models.torus_ipp import equations, solve, solve_curve, saturation_load
    r = solve(0.004, k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)   # mu1 = 0.004
    r.latency, r.network_latency, r.source_wait, r.channel    # cycles; fitted channel MMPP
    c = solve_curve([0.001, 0.002, 0.003], k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)
    saturation_load(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)   # mu1, messages/node/cycle
    compare(k=8, V=3, M=32, sigma1=0.2, sigma2=0.8)   # model against simulation (Comparison)

The load (:data:`LOAD`) is ``mu1``, the on-state rate of each node's IPP
source in messages/node/cycle (:data:`LOAD_UNIT`), the x-axis of the
paper's figures.  The mean generation rate follows from it (eq. 9):
``lambda_s = (mu1 sigma2 + mu2 sigma1) / (sigma1 + sigma2)``, i.e.
``mu1 sigma2 / (sigma1 + sigma2)`` for an IPP (``mu2 = 0``); it is
``CurveResult.mean_rate`` and ``TorusIppResult.rate_source``.

Submodules: ``equations`` (SymPy, eqs. 1-29), ``solve`` (numerics, the
blocking fixed point, saturation), ``setups`` (light: the parameters of a
network checked once, ``IppParams``, the curve built from them, the named
simulator set-ups and run lengths), ``compare`` (model against simulation in
one call), ``experiments`` (the paper's figures, the model-to-simulator
translation, simulation runs, the analysis tables), ``service`` (the channel
service time with a blocking time of any squared coefficient of variation:
the solver's ``blocking_cv2``, a test of eqs. 20-22), ``blocking`` (the
simulated blocking time against the model's exponential), ``claims`` (the paper's
claims and the claims table), ``glue`` (the numbers the pages quote),
``plots`` (matplotlib).  The MMPP pieces are shared: :mod:`models.traffic`
(the process, its moments, the Heffes-Lucantoni fit) and
:mod:`models.queueing.mmpp_g1` (MMPP/G/1).
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {"equations": ".equations:equations", "compare": ".compare:compare"})
from .solve import (  # noqa: E402
    LOAD,
    LOAD_UNIT,
    CurveResult,
    Params,
    TorusIppResult,
    channel_process,
    saturation_bound,
    saturation_load,
    solve,
    solve_curve,
)

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(k=8, V=3, M=32, sigma1=0.2, sigma2=0.8)
EXAMPLE_LOAD = 0.002
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = [
    "LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "solve", "solve_curve",
    "saturation_load", "compare", "saturation_bound", "channel_process", "Params", "TorusIppResult", "CurveResult",
]
