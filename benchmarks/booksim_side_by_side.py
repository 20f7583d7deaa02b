"""BookSim 2 runs for the side-by-side speed benchmark (``bench_wormhole.py --booksim PATH``, issue #36).

BookSim 2 (booksim/booksim2, commit 28f4329, built with its own Makefile) runs
the issue #36 network configured as the project's BookSim preset
(:mod:`models.sim.wormhole.booksim`'s docstring, whose parameters
:data:`ROUTER` repeats): a ``k x k`` bidirectional torus (``topology = torus``,
``n = 2``), ``routing_function = dim_order``, ``num_vcs = 4``,
``vc_buf_size = 8``, ``packet_size = 32``, ``traffic = uniform`` (the source
among the destinations, as ``self_traffic=True``), ``injection_process =
bernoulli``.  ``injection_rate`` is the same number as the project's ``rate``:
with ``injection_rate_uses_flits = 0`` (the default, written out)
``TrafficManager`` passes it unchanged to ``BernoulliInjectionProcess``, whose
``test`` injects a packet with that probability per node and cycle
(``src/trafficmanager.cpp``, the constructor: it is divided by the packet size
only when ``injection_rate_uses_flits`` is set; ``src/injection.cpp``).

**Run length** (``sim_type = latency``): ``warmup_periods = 1`` and
``stopping_thres = acc_stopping_thres = -1.0`` (a negative threshold is never
exceeded), so ``TrafficManager::_SingleSim`` runs exactly :data:`PERIODS` = 4
sample periods (1 warm-up, 3 measured, each converging), then drains the
measured packets while still injecting, then stops injecting and empties the
network (``Run``).  ``sample_period`` is set by the caller so that the whole
run is about as many cycles as the project's run of the same configuration.

**Flit-hops, counted as the project's** ``WormholeResult.flit_hops`` (flits moved
across network channels plus ejection channels, the whole run): BookSim's
router increments a flit's ``hops`` when the flit leaves its input buffer
through the switch (``IQRouter::_SwitchUpdate``, ``f->hops++``), once per router
on its path, the destination router's switch to the ejection channel included:
``h + 1`` for a packet of ``h`` network hops, one network or ejection channel
crossed per router.  From the printed overall statistics
(``TrafficManager::DisplayOverallStats``, under ``====== Overall Traffic
Statistics ======``):

    flit_hops = A * N * T * H

with ``A`` the line ``Accepted flit rate average = A`` (flits ejected per node
and cycle over the measured window), ``H`` the line ``Hops average = H``
(mean ``hops`` of the packets retired while warming up or measured: ``h + 1``),
``T`` the line ``Time taken is T cycles`` (the whole run, drains included) and
``N = k^2``.  The whole run ejects every injected flit; ``A * N * T`` counts the
final drain (after injection stops, the network emptying) at the full rate, so
it overstates the flits by at most that drain's share of the run, at most
``(T - 4 * sample_period) / T`` (the result's ``drain_share``, under 1 % here);
the first cycles, before the network fills, understate them by about as much.

**CPU time**: the child's user + system time, from the
``resource.getrusage(RUSAGE_CHILDREN)`` difference around the run; the start-up
(reading the configuration, building the network) is measured by a tiny run of
the same network (:func:`startup_cpu`, ``sample_period = 10``) for the caller
to subtract.  BookSim exits with status 255 after a successful run (``main``
returns ``-1`` when ``Simulate`` succeeded), so success is read from the
printed overall statistics, not from the exit status.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import tempfile

#: sample periods of a run: 1 warm-up + 3 measured (``warmup_periods = 1``, 3 converged periods)
PERIODS = 4
#: the router of the project's BookSim preset (models/sim/wormhole/booksim.py's docstring), BookSim's defaults written out
ROUTER = dict(router="iq", routing_delay=1, vc_alloc_delay=1, sw_alloc_delay=1, st_prepare_delay=0, st_final_delay=1,
              credit_delay=0, output_delay=0, vc_allocator="islip", sw_allocator="islip", alloc_iters=1,
              wait_for_tail_credit=0, use_noc_latency=0, speculative=0, vc_busy_when_full=0, vc_prioritize_empty=0,
              hold_switch_for_packet=0, input_speedup=1, output_speedup=1, internal_speedup=1.0,
              buffer_policy="private", priority="none")
#: issue #36's network and source, BookSim's keywords
NETWORK = dict(topology="torus", n=2, routing_function="dim_order", num_vcs=4, vc_buf_size=8, packet_size=32,
               traffic="uniform", injection_process="bernoulli", injection_rate_uses_flits=0)
#: the run: a fixed number of sample periods (see the module docstring)
RUN = dict(sim_type="latency", warmup_periods=1, stopping_thres=-1.0, acc_stopping_thres=-1.0, max_samples=10,
           sim_count=1, include_queuing=1)

_OVERALL = "====== Overall Traffic Statistics ======"
_NUMBER = r"([-+0-9.eE]+)"


def config_text(k: int, rate: float, *, period: int, seed: int = 1) -> str:
    """BookSim's configuration file for a ``k x k`` torus at ``rate`` packets/node/cycle, ``period`` cycles per sample."""
    if not (isinstance(k, int) and k >= 2):
        raise ValueError(f"`k` (torus radix) must be an integer >= 2; got {k!r}")
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"`rate` (packets/node/cycle, a Bernoulli probability) must be in (0, 1]; got {rate!r}")
    if not (isinstance(period, int) and period >= 1):
        raise ValueError(f"`period` (cycles per sample period) must be an integer >= 1; got {period!r}")
    keys = dict(NETWORK, k=k, injection_rate=rate, **ROUTER, **RUN, sample_period=period, seed=seed)
    return "".join(f"{key} = {value!r};\n" if isinstance(value, float) else f"{key} = {value};\n"
                   for key, value in keys.items())


def parse(stdout: str, nodes: int) -> dict:
    """Cycles, latency and flit-hops of a finished run, from BookSim's printed statistics (module docstring)."""
    if _OVERALL not in stdout:
        raise RuntimeError("BookSim printed no overall statistics (the run failed or was unstable):\n" + stdout[-2000:])
    overall = stdout[stdout.index(_OVERALL):]

    def number(pattern: str, text: str) -> float:
        found = re.search(pattern + _NUMBER, text)
        if not found:
            raise RuntimeError(f"BookSim's output has no line {pattern!r}")
        return float(found.group(1))

    cycles = int(number(r"Time taken is ", stdout))
    accepted = number(r"Accepted flit rate average = ", overall)
    hops = number(r"Hops average = ", overall)
    return dict(cycles=cycles, accepted_flit_rate=accepted, hops=hops, flit_hops=accepted * nodes * cycles * hops,
                latency=number(r"Packet latency average = ", overall))


def run(binary: str, text: str, nodes: int) -> dict:
    """Run BookSim on the configuration ``text``; :func:`parse`'s fields plus ``cpu`` (user + system seconds)."""
    if not os.access(binary, os.X_OK):
        raise ValueError(f"`binary` must be BookSim's executable; {binary!r} is not an executable file")
    with tempfile.TemporaryDirectory(prefix="booksim-") as folder:
        path = os.path.join(folder, "config")
        with open(path, "x") as f:
            f.write(text)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([binary, path], cwd=folder, capture_output=True, text=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    period = int(re.search(r"sample_period = (\d+);", text).group(1))
    result = parse(out.stdout, nodes)
    return dict(result, cpu=cpu, drain_share=(result["cycles"] - PERIODS * period) / result["cycles"])


def startup_cpu(binary: str, k: int, rate: float) -> float:
    """CPU seconds of a tiny run of the same network (4 periods of 10 cycles): BookSim's start-up."""
    return run(binary, config_text(k, rate, period=10), k * k)["cpu"]
