"""The closed MIN simulator gives the same numbers across kernel rewrites: ``R``, its half width and ``X`` of six
configurations (single- and multi-packet, light to heavy load, a processor think time), pinned from the kernel
that scanned every switch output port each cycle (issue #36 made it visit only the ports with a message queued,
in the same order: the numbers did not change).  A change that alters the random stream or the order of events
fails here."""

import pytest

from models.sim import closed_min

CASES = [
    ({'NC': 1, 'm': 1}, (14.070879120879122, 0.0028763670892333016, 4.246666666666667)),
    ({'NC': 4, 'm': 1}, (14.710895335635797, 0.005119271422950855, 16.294944444444443)),
    ({'NC': 16, 'm': 1}, (21.352176196025596, 0.019196520060861068, 45.81261111111111)),
    ({'NC': 4, 'm': 4, 'S_mm': 4}, (32.49793185667658, 0.04203305208157168, 7.642388888888889)),
    ({'NC': 8, 'm': 8, 'S_mm': 8}, (89.65294840899031, 0.26065351020127064, 5.648055555555556)),
    ({'NC': 2, 'm': 2, 'S_mm': 2, 'S_pe': 4.0}, (17.835525930552574, 0.012393151658920378, 5.692555555555556)),
]


@pytest.mark.parametrize("kw, pinned", CASES)
def test_bit_identical_to_reference(kw, pinned):
    r = closed_min.simulate(cycles=20000, warmup=2000, seed=3, cache=False, **kw)
    assert (r.R, r.R_ci, r.X) == pinned
