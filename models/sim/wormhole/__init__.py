"""Cycle-driven, flit-level wormhole-switching network simulator (numba).

>>> from models.sim.wormhole import simulate, Torus
>>> r = simulate(Torus((16, 16), bidirectional=False), routing="dor", vcs=3,
...              message_length=32, rate=0.001)          # doctest: +SKIP
>>> r.latency, r.latency_ci, r.multiplexing                # doctest: +SKIP

Modules: :mod:`.routing` (routing functions, VC classes, deadlock-freedom
arguments), :mod:`.traffic` (Poisson, IPP, MMPP(2) sources; RNG),
:mod:`.kernel` (the ideal router's numba engine and its timing model, and the
kernel pieces both engines share: routing decode, message draw, generation,
end of a cycle), :mod:`.simulate` (:func:`simulate`), :mod:`.booksim` and
:mod:`.booksim_kernel` (``router='booksim'``: BookSim 2's input-queued
router), :mod:`.common` (what both routers share around their kernels: the
checked keywords, the run until precise, the summary, :class:`WormholeResult`),
:mod:`.throughput` (:func:`saturation_throughput`).  The topologies are
:mod:`models.networks.graph`'s.
"""

from .routing import ROUTINGS, min_vcs
from .simulate import SIM_VERSION, WormholeResult, simulate
from .throughput import ThroughputResult, saturation_throughput
from ...networks.graph import (Graph, Mesh, Topology, Torus, mesh_average_distance, topology,
                       torus_average_distance)
from .traffic import IPP, MMPP2, mmpp_counts

__all__ = [
    "simulate", "WormholeResult", "SIM_VERSION", "Torus", "Mesh", "Graph", "Topology", "topology",
    "torus_average_distance", "mesh_average_distance", "IPP", "MMPP2", "mmpp_counts", "ROUTINGS",
    "min_vcs", "saturation_throughput", "ThroughputResult",
]
