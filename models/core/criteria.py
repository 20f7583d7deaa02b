"""What the papers' words mean when a claim is a fact: every criterion declared once, noise-aware.

A "fact" claim (``kind="fact"`` in :mod:`models.core.claims`) is decided by a
chapter's code: "more accurate", "closer", "tends to", "equal and balanced",
"similar".  How such a word becomes True or False is a choice of the book's,
as much as a tolerance is, so it is declared here, beside the paper's
thresholds, with three things said (:class:`Criterion`): what the words are
read to mean, the comparison, and the noise allowance.  Every claims row
that carries a fact names its criterion (``criterion`` column, checked
against :data:`CRITERIA`), and the findings chapter prints this table.

The comparisons of simulated numbers are noise-aware: they answer ``None``
(the row is "unknown" and decides nothing) when the two numbers' 95 %
confidence intervals overlap, rather than deciding on which point estimate
happens to be larger (:func:`lower`).  Counts ("more than half") are of
comparisons each decided this way.

This module is on the ``core`` floor: it imports nothing above it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable

from .errors import ParameterError

__all__ = ["Criterion", "CRITERIA", "criterion", "lower", "higher", "more_than_half", "exact", "within", "spread_beyond_noise",
           "criteria_rows"]


@dataclasses.dataclass(frozen=True)
class Criterion:
    """How the book decides one kind of fact.

    name : str
        The key a claims row names (``criterion`` column).
    words : str
        The paper's words it decides, and what the book reads them to mean.
    comparison : str
        The computation that decides, in words (the function that does it).
    noise : str
        The noise allowance: how the numbers' uncertainty is taken into
        account ("none: exact arithmetic" for symbolic or deterministic facts).
    """

    name: str
    words: str
    comparison: str
    noise: str

    def __post_init__(self):
        for f in ("name", "words", "comparison", "noise"):
            v = getattr(self, f)
            if not isinstance(v, str) or not v.strip():
                raise ParameterError(f"criterion {self.name!r}: `{f}` must be a non-empty string")


def _declare(*criteria: Criterion) -> dict:
    out = {}
    for c in criteria:
        if c.name in out:
            raise ParameterError(f"criterion {c.name!r} declared twice")
        out[c.name] = c
    return out


#: Every criterion a fact row may name, by name.  A chapter that needs another adds it here (one place).
CRITERIA = _declare(
    Criterion("exact", "a property the paper states of an equation, a definition or a count (\"is\", \"equals\")",
              "exact arithmetic, symbolic, or a floating-point comparison to 1e-9 relative (exact())",
              "none: no simulation is involved"),
    Criterion("measured-exact", "a property of the simulated network that holds message by message (a "
              "deterministic quantity, e.g. a residence time with no queueing)",
              "the simulated quantity equals the stated value to 1e-9 relative at every simulated point",
              "none: the quantity has no noise when the property holds"),
    Criterion("lower-beyond-noise", "\"more accurate\", \"closer\", \"lower\", \"reduced\": one number below "
              "another", "a < b when a's 95% interval lies wholly below b's (lower()); the opposite when wholly "
              "above; undecided (None) when they overlap",
              "both numbers' 95% half widths (batch means, or the saturation search's bracket)"),
    Criterion("beyond-brackets", "\"saturates later\", \"outperforms\" by saturation load: one saturation "
              "load above another", "the lower end of one search's bracket above the upper end of the other's "
              "(higher() on the brackets)", "the two bisection brackets"),
    Criterion("within-bracket", "\"the explanation accounts for the gap\": a number moved by the suggested "
              "cause reaches the simulated one", "the moved number within the simulated saturation search's "
              "bracket (within())", "the bracket of the simulated saturation load"),
    Criterion("more-than-half", "\"tends to\", \"mostly\": a direction seen in most cases",
              "more than half of the cases go that way, each case decided beyond the noise where it is "
              "simulated (more_than_half() of lower() / higher())",
              "per case, as lower-beyond-noise; cases within the noise count against"),
    Criterion("equal-beyond-noise", "\"equal\", \"balanced\", \"evenly distributed\": the same value on every "
              "channel", "the spread of the channel values over and above their counting noise is zero within "
              "its 95% interval (a significance test on independently seeded runs, spread_beyond_noise()); the "
              "size of the spread is reported beside it", "the counting noise, from independently seeded runs "
              "(a jackknife over the runs, Student's t with runs - 1 degrees of freedom)"),
    Criterion("similar-factor", "\"similar\": two values that differ little",
              "the larger over the smaller below 1.25 (a difference of a quarter is not 'similar' in any "
              "reading; the ratios are shown)", "the saturation searches' brackets: the ratio's whole range "
              "must be on one side of 1.25, else undecided"),
    Criterion("reasonable-approximation", "\"can be reasonably approximated\": replacing the approximation by "
              "the measured quantity does not change the model's prediction beyond the simulation's noise",
              "the model's latency with the measured quantity against the model's latency with the paper's "
              "approximation, at the fixed accuracy fractions, compared with the simulated latency's 95% half "
              "width", "the simulated latency's 95% half width"),
    # torus_nbc
    Criterion("around-saturation", "\"around the saturation point\": a discrepancy that begins near the simulated "
              "saturation load, not well below it", "the model not saturated at any of the fixed accuracy fractions "
              "(25, 50, 75%) of the simulated saturation load (models.core.claims.bracket_status): fails when it is "
              "saturated at one of them for every simulated saturation load in the search's bracket, holds when "
              "for none", "the simulated saturation search's bracket: undecided when the model's saturation load "
              "lies inside the bracket of such a fraction"),
    # the accuracy atlas (models.core.atlas_claims)
    Criterion("bounded-error", "\"a high (significant, good) degree of accuracy\" as one part of a sentence: "
              "whatever the word means, an error that is unbounded is not accurate", "fails where the model's worst "
              "error below 80% of the simulated saturation load is unbounded (the model saturates at 25, 50 or 75% "
              "of it, models.core.claims.accuracy_below) at a configuration in the sentence's scope; otherwise "
              "undecided (the sentence's other parts are not measured there)", "the simulated saturation search's "
              "bracket: a configuration whose model saturation load lies inside it decides nothing"),
)


def criterion(name: str) -> Criterion:
    """The declared criterion ``name`` (:data:`CRITERIA`), or a :class:`ParameterError` listing them."""
    try:
        return CRITERIA[name]
    except (KeyError, TypeError):
        raise ParameterError(f"`criterion` must be one of {', '.join(CRITERIA)}; got {name!r} "
                             "(declare a new one in models/core/criteria.py)") from None


def _num(name, x) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ParameterError(f"`{name}` must be a number; got {x!r}") from None
    return v


def lower(a: float, a_half: float, b: float, b_half: float):
    """Whether ``a`` is below ``b`` beyond the noise: True when ``a + a_half < b - b_half``, False when
    ``a - a_half > b + b_half`` (above beyond the noise), None when the intervals overlap or a number is
    missing.  ``inf`` (an unbounded error) is above any finite number whatever its half width."""
    a, a_half, b, b_half = (_num(n, x) for n, x in (("a", a), ("a_half", a_half), ("b", b), ("b_half", b_half)))
    if math.isnan(a) or math.isnan(b):
        return None
    a_half = 0.0 if math.isnan(a_half) else abs(a_half)
    b_half = 0.0 if math.isnan(b_half) else abs(b_half)
    if math.isinf(a) and math.isinf(b):
        return None
    if a + a_half < b - b_half:
        return True
    if a - a_half > b + b_half:
        return False
    return None


def higher(a: float, a_half: float, b: float, b_half: float):
    """Whether ``a`` is above ``b`` beyond the noise (:func:`lower` with the roles swapped)."""
    return lower(b, b_half, a, a_half)


def more_than_half(decided: Iterable) -> bool:
    """Whether more than half of the cases are True: ``decided`` holds True, False or None (undecided within
    the noise, which counts against)."""
    d = list(decided)
    if not d:
        raise ParameterError("`decided` is empty: no case to count")
    return sum(1 for x in d if x is True) * 2 > len(d)


def exact(a: float, b: float, rtol: float = 1e-9) -> bool:
    """``a == b`` up to ``rtol`` relative (floating-point rounding only)."""
    a, b = _num("a", a), _num("b", b)
    return math.isclose(a, b, rel_tol=rtol, abs_tol=rtol * 1e-3)


def within(x: float, lo: float, hi: float):
    """Whether ``x`` lies in ``[lo, hi]`` (None when a number is missing)."""
    x, lo, hi = _num("x", x), _num("lo", lo), _num("hi", hi)
    if any(math.isnan(v) for v in (x, lo, hi)):
        return None
    return lo <= x <= hi


def criteria_rows(names: Iterable[str] | None = None) -> list:
    """The declared criteria (or those named) as rows for a table: ``criterion``, ``the words``,
    ``the comparison``, ``the noise allowance``."""
    chosen = CRITERIA.values() if names is None else [criterion(n) for n in dict.fromkeys(names)]
    return [{"criterion": c.name, "the words": c.words, "the comparison": c.comparison,
             "the noise allowance": c.noise} for c in chosen]


def spread_beyond_noise(loads) -> dict:
    """The ``equal-beyond-noise`` criterion: how unequal values measured on many channels are, and how much of
    it every run shares (systematic) rather than counting noise.

    ``loads``: one array per run (same channels, e.g. flits/cycle per channel), the runs **independently
    seeded** (the estimator assumes their counting noise independent; runs with common random numbers would
    share noise and look imbalanced).  Each run's values are divided by their mean over the channels:
    ``y = x / mean - 1``.  ``raw cv`` is the mean over the runs of ``std(y)`` (noise included), ``max dev`` the
    largest ``|y|``.  The mean over pairs of runs of ``y_a * y_b`` (channel by channel, then over the
    channels) estimates the variance of the part every run shares: ``sys var``, ``sys cv = sqrt(max(sys var,
    0))``.  Its standard error ``sys var se`` is the jackknife over the **runs** (leave one run out), the only
    independent units: the channels of one run are correlated (a message loads consecutive channels of a
    ring), so an error taken over channels would be too small.  ``equal``: True when ``sys var`` is within
    Student's 95 % two-sided quantile (``runs - 1`` degrees of freedom) times its standard error of zero,
    False when above it, None with fewer than three runs.  The size of the spread (``sys cv``) is reported
    beside the decision, whatever it is.
    """
    import numpy as np

    from .stats import student_quantile  # it imports numpy, which this module's other rules do without

    ys = [np.asarray(x, dtype=float) for x in loads]
    ys = [x / x.mean() - 1.0 for x in ys if x.size and np.isfinite(x).all() and x.mean() > 0]
    out = {"runs": len(ys), "channels": int(ys[0].size) if ys else 0,
           "raw cv": float(np.mean([y.std() for y in ys])) if ys else math.nan,
           "max dev": float(max(np.abs(y).max() for y in ys)) if ys else math.nan,
           "sys var": math.nan, "sys var se": math.nan, "sys cv": math.nan, "equal": None}
    n = len(ys)
    if n < 2:
        return out
    Y = np.array(ys)
    gram = Y @ Y.T / Y.shape[1]  # mean over the channels of y_a * y_b, every pair of runs

    def shared(keep):
        g = gram[np.ix_(keep, keep)]
        m = len(keep)
        return (g.sum() - np.trace(g)) / (m * (m - 1))

    var = float(shared(np.arange(n)))
    out.update({"sys var": var, "sys cv": math.sqrt(max(var, 0.0))})
    if n < 3:
        return out
    loo = np.array([shared(np.delete(np.arange(n), i)) for i in range(n)])
    se = float(math.sqrt((n - 1) / n * np.sum((loo - loo.mean()) ** 2)))
    out.update({"sys var se": se, "equal": bool(var <= student_quantile(n - 1) * se)})
    return out
