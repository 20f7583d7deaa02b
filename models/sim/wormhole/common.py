"""What both engines of the wormhole simulator share: the result type, the routing-table
cache, the reading of the ``traffic`` argument and the batch-means confidence interval.

The ideal router (:mod:`.simulate`, :mod:`.kernel`) and the BookSim-like router
(:mod:`.booksim`, :mod:`.booksim_kernel`) both build a :class:`WormholeResult`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path

import numpy as np

from models.core.cache import files_hash
from models.core.errors import ParameterError
from models.core.results import Result
from models.core.stats import ci_halfwidth
from models.core.validate import require, require_choice

from ...networks.graph import Topology
from ...traffic.process import IPP, MMPP2
from .routing import build as build_routing

__all__ = ["WormholeResult", "SIM_VERSION"]

_HERE = Path(__file__).resolve().parent
#: Simulator version: the hash follows every edit of the simulator's source (both engines), of
#: the topologies it routes on and of the traffic processes it draws from.
SIM_VERSION = "wormhole-1." + files_hash([
    _HERE, _HERE.parents[1] / "networks" / "graph.py", _HERE.parents[1] / "traffic" / "process.py",
    _HERE.parents[1] / "core" / "stats.py"])[:12]


@dataclasses.dataclass(frozen=True, repr=False)
class WormholeResult(Result):
    """Result of one simulation run (times in cycles, rates per node per cycle)."""

    latency: float  # mean message latency (generation -> last flit ejected); inf if saturated
    latency_ci: float  # 95% CI half-width of `latency` (batch means)
    network_latency: float  # mean time from taking the injection VC to last flit ejected
    source_wait: float  # mean source queueing time
    throughput: float  # accepted messages / node / cycle (measured window)
    offered: float  # offered load: mean generation rate, messages / node / cycle
    saturated: bool
    mean_hops: float  # mean network hops of the measured messages
    vc_busy_hist: np.ndarray  # P(v busy VCs on a network channel), v = 0..V, time-averaged
    multiplexing: float  # V-bar = sum v^2 P_v / sum v P_v
    channel_utilisation: float  # fraction of cycles a network channel carries a flit
    cycles: int  # simulated cycles in total
    messages: int  # measured (tagged) messages
    flit_hops: int  # flits moved across network and ejection channels, whole run
    wall_time: float  # seconds in the kernel (the first call in a process also loads/compiles it)
    params: dict
    seed: int
    measured_offered: float = math.nan  # messages generated / node / cycle in the window
    mean_in_network: float = math.nan  # time-averaged messages past the source queue
    window_cycles: int = 0  # cycles of the measured window
    stop_reason: str = ""
    work: dict = dataclasses.field(default_factory=dict)  # kernel counters (routing attempts, channel visits)
    channel_load: np.ndarray = None  # flits / cycle on each network channel (topology.channels order), window
    version: str = SIM_VERSION


# ----------------------------------------------------------------- tables
@functools.lru_cache(maxsize=16)
def _tables(topo: Topology, routing: str, vcs: int, escape_levels):
    return build_routing(topo, routing, vcs, escape_levels)


def _traffic(traffic, rate):
    """(kind, rates(2), sigmas(2), offered, spec) from the user's traffic argument."""
    if isinstance(traffic, str):
        require_choice("traffic", traffic, ["poisson"], unit="or an MMPP2/IPP source")
        rate = require("rate", rate, 0, lo_open=True, unit="messages/node/cycle")
        return 0, np.array([rate, rate]), np.array([1.0, 1.0]), float(rate), "poisson"
    if isinstance(traffic, dict):
        kw = dict(traffic)
        kind = kw.pop("kind", "mmpp")
        try:
            traffic = IPP(**kw) if kind == "ipp" else MMPP2(**kw)
        except TypeError as e:
            raise ParameterError(f"`traffic` dict not understood ({e}); use MMPP2(...) or IPP(...)")
    if not isinstance(traffic, MMPP2):
        raise ParameterError(f"`traffic` must be 'poisson', an MMPP2 / IPP source or a dict; got {traffic!r}")
    if rate is not None:
        raise ParameterError("`rate` must be None with an MMPP2/IPP `traffic` (its rates are in the source)")
    return (1, np.array([traffic.mu1, traffic.mu2]), np.array([traffic.sigma1, traffic.sigma2]),
            traffic.mean_rate, traffic)


def _batch_ci(x: np.ndarray, batches: int) -> float:
    n = x.size // batches
    if n < 1:
        return math.inf
    return ci_halfwidth(x[: n * batches].reshape(batches, n).mean(axis=1))


def check_max_messages(max_messages, messages: int, target_ci) -> int | None:
    """``max_messages`` checked: None, or an integer >= ``messages`` given with ``target_ci`` (both engines)."""
    if max_messages is None:
        return None
    from models.core.validate import require

    if target_ci is None:
        raise ParameterError("`max_messages` caps the run that `target_ci` extends; give `target_ci` too "
                             "(or leave max_messages=None)")
    return require("max_messages", max_messages, messages, unit="measured messages, >= messages", integer=True)
