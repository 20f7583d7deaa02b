"""The side-by-side benchmark with BookSim 2 (benchmarks/booksim_side_by_side.py, bench_wormhole.py): its
configuration is the preset's, its flit-hop count reads the overall statistics, its rates are each router's own."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_wormhole as bench  # noqa: E402
import booksim_side_by_side as bs  # noqa: E402

# BookSim's output, cut: a sample period's statistics (not the overall ones), then the end of the run
OUTPUT = """Packet latency average = 70.1
Accepted flit rate average= 0.126783
Warmed up ...Time used is 5000 cycles
Draining remaining packets ...
Time taken is 20171 cycles
====== Overall Traffic Statistics ======
====== Traffic class 0 ======
Packet latency average = 72.6668 (1 samples)
\tminimum = 38 (1 samples)
Accepted flit rate average = 0.126357 (1 samples)
\tminimum = 0.0853333 (1 samples)
Hops average = 4.98419 (1 samples)
Total run time 0.935056
"""


def test_the_flit_hops_are_accepted_flits_times_hops_over_the_whole_run():
    got = bs.parse(OUTPUT, nodes=64)
    assert got["cycles"] == 20171
    assert got["latency"] == 72.6668  # the overall line, not the sample period's
    assert got["flit_hops"] == pytest.approx(0.126357 * 64 * 20171 * 4.98419)


def test_a_failed_run_is_an_error():
    with pytest.raises(RuntimeError, match="no overall statistics"):
        bs.parse("Simulation unstable, ending ...\n", nodes=64)


def test_the_configuration_is_the_presets():
    """Every ``key = value`` the preset's docstring states (before its Semantics) is in BookSim's configuration."""
    from models.sim.wormhole import booksim

    stated = booksim.__doc__.split("Semantics")[0]
    pairs = {}
    for chain in re.findall(r"``([a-z_]+(?: = [a-z_]+)* = [a-z0-9.]+)``", stated):
        *keys, value = chain.split(" = ")
        pairs.update(dict.fromkeys(keys, value))
    assert len(pairs) >= 15, pairs
    text = bs.config_text(8, 0.01, period=100)
    for key, value in pairs.items():
        assert re.search(rf"^{key} = {re.escape(value)}(\.0)?;$", text, re.M), (key, value)
    for line in ("k = 8;", "num_vcs = 4;", "vc_buf_size = 8;", "packet_size = 32;", "injection_process = bernoulli;",
                 "injection_rate = 0.01;", "injection_rate_uses_flits = 0;", "sample_period = 100;"):
        assert line in text.splitlines()


@pytest.mark.parametrize("kw", [dict(k=1, rate=0.01, period=10), dict(k=8, rate=0.0, period=10),
                                dict(k=8, rate=1.5, period=10), dict(k=8, rate=0.01, period=0)])
def test_invalid_parameters_are_refused(kw):
    with pytest.raises(ValueError):
        bs.config_text(kw.pop("k"), kw.pop("rate"), **kw)


def test_each_router_runs_at_its_own_fraction_of_saturation():
    for name, (net, load) in bench.ISSUE36.items():
        for router in ("ideal", "booksim"):
            assert bench.rate_of(name, router) == pytest.approx(load * bench.SATURATION[(net, router, 4)], rel=1e-6)
