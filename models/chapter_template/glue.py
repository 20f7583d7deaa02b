"""The numbers the chapter's pages glue (PLACEHOLDER), computed and unit-tested here.

A sentence lives in the notebook's Markdown with ``{glue:text}`` around
these numbers; only a sentence whose wording the data chooses is built here.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..core.claims import worst_error_below
from ..core.tables import UNBOUNDED, percent
from .setups import CHAPTER

__all__ = ["glue_values"]


def glue_values(runs: Sequence) -> dict:
    """Every number the chapter's prose quotes, by glue key: the worst error below 80 % of the simulated
    saturation (the book's rule, :func:`~models.core.claims.worst_error_below`) and the number of curves."""
    worst = worst_error_below(runs)
    text = UNBOUNDED if worst == math.inf else (percent(worst) or "n/a")
    return {f"{CHAPTER}-worst-error": text, f"{CHAPTER}-curves": len(runs)}
