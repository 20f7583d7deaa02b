"""models.core.precision: a figure's run lengths and precision in words."""

import numpy as np

from models.core.precision import precision_sentence, spread
from models.core.setups import SimSettings


def test_a_spread_of_run_lengths_in_words():
    assert spread([20_000, 45_000, 120_000], "messages") == "20,000 to 120,000 messages"
    assert spread(np.array([40_000, 40_000]), "cycles") == "40,000 cycles each"


def test_points_that_all_stopped_at_the_first_length_read_as_such():
    settings = SimSettings(messages=120_000, warmup_messages=10_000, target_ci=0.01, min_messages=20_000)
    text = precision_sentence(settings, np.array([20_000, 20_000, 20_000]), np.array([0.004, 0.009, 0.006]))
    assert "The 3 unsaturated points used 20,000 messages each (0 ran to the cap); the widest half width is 0.9%" in text
