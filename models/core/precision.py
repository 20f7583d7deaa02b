"""How long a figure's simulated points ran and how precise they are, in words: one sentence per figure.

Every chapter that simulates open-network points with a precision target (:meth:`.setups.SimSettings.run_lengths`)
states it on the page with :func:`precision_sentence`, from the points it simulated (:func:`measured`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .setups import SimSettings
from .tables import percent


def measured(frames, ci: str = "latency CI") -> tuple[np.ndarray, np.ndarray]:
    """``(messages, relative 95 % half widths)`` of the unsaturated points in ``frames`` (data frames with
    ``latency``, the half width column ``ci``, ``saturated`` and ``messages``; None and empty ones skipped)."""
    frames = [f[["latency", ci, "saturated", "messages"]].rename(columns={ci: "CI"})
              for f in frames if f is not None and len(f)]
    if not frames:
        return np.array([], dtype=int), np.array([])
    sim = pd.concat(frames, ignore_index=True)
    lat = sim["latency"].to_numpy(dtype=float)
    ok = ~sim["saturated"].to_numpy(dtype=bool) & np.isfinite(lat) & (lat > 0)
    return sim["messages"].to_numpy()[ok].astype(int), sim["CI"].to_numpy(dtype=float)[ok] / lat[ok]


def spread(values, unit: str) -> str:
    """The range of run lengths ``values`` in words: ``"20,000 to 120,000 messages"``, or ``"40,000 cycles
    each"`` when they are all the same."""
    lo, hi = int(np.min(values)), int(np.max(values))
    return f"{lo:,} {unit} each" if lo == hi else f"{lo:,} to {hi:,} {unit}"


def precision_sentence(settings: SimSettings, used: np.ndarray, width: np.ndarray, *, quantity: str = "latency",
                       cap_words: str = "") -> str:
    """The sentence for points that measured ``used`` messages with relative half widths ``width``
    (:func:`measured`), simulated with ``settings``.

    Fixed length (``settings.target_ci`` None): the measured messages of every point.  Precision-driven: the
    target (relative 95 % half width of the ``quantity``), the first length and the cap (``settings.messages``,
    followed by ``cap_words``, e.g. " (the paper's run length)"), the range of messages the unsaturated points
    used and how many ran to the cap; both: the largest half width, a percent of its point's ``quantity``.
    """
    if not used.size:
        return "No point of this figure was simulated unsaturated."
    widest = percent(float(width.max()), 1)
    if settings.target_ci is None:
        return (f"Every simulated point measured {settings.messages:,} messages after {settings.warmup_messages:,} "
                f"discarded (a fixed length, no precision target); the widest 95% half width is {widest} of its "
                f"point's {quantity}.")
    least = settings.run_lengths()["messages"]
    capped = int((used >= settings.messages).sum())
    return (f"Every simulated point ran until its {quantity}'s 95% half width was within "
            f"{settings.target_ci * 100:g}% of its mean: {least:,} measured messages first, after "
            f"{settings.warmup_messages:,} discarded, then lengthened by half at a time, at most "
            f"{settings.messages:,}{cap_words}.  The {used.size} unsaturated points used {spread(used, 'messages')} "
            f"({capped} ran to the cap); the widest half width is {widest} of its point's {quantity}.")
