"""The golden runs re-pinned in issue #36 agree with the kernel before it within the noise.

The traversal's new active list (a channel leaves it when all its VCs hold their tails) changes the order of the
headers that reach their routers in the same cycle, and the ideal router now draws the order of a header's
minimal ports at random (:mod:`test_wormhole_tie_order`): a run's digits change (:mod:`test_wormhole_golden`),
its distribution must not.  :data:`BEFORE` holds the mean latency over seeds 100-115 of each changed golden
configuration and its standard error, computed with the kernel of commit 3abb331 (the parent of the change);
the current kernel's mean over the same seeds must lie within 3 combined standard errors.
"""

import math
import statistics
import sys
from pathlib import Path

import pytest

from models.sim.wormhole import simulate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the golden cases (pytest's importlib mode)
from test_wormhole_golden import CASES  # noqa: E402

sys.path.remove(str(HERE))

SEEDS = range(100, 116)
#: name -> (mean latency over SEEDS, its standard error), cycles, from commit 3abb331's kernel
BEFORE = {
    'mmpp_uni': (86.341234375, 10.651645013493141),
    'duato': (33.706484375, 0.11299833025303474),
    'geometric': (16.707265625, 0.07195953893779909),
    'nbc': (14.257140625, 0.035749016367222726),
    'updown': (12.140015625, 0.013838605962088787),
    'b1': (21.065734374999998, 0.017622642702140177),
    'duato_nbc': (15.79265625, 0.04566835768044618),
}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_the_new_kernel_agrees_with_the_old_within_the_noise(name):
    topo, kw = CASES[name]
    lat = [simulate(topo, seed=s, messages=4000, warmup_messages=400, **kw).latency for s in SEEDS]
    mean, se = statistics.mean(lat), math.sqrt(statistics.variance(lat) / len(lat))
    old, old_se = BEFORE[name]
    assert abs(mean - old) < 3 * math.hypot(se, old_se), (mean, se, old, old_se)
