"""Where the model under- and over-estimates the per-stage residence times, decided case by case, noise-aware.

Two sentences of Sec. 3.3 read the paper's Tables 1 and 2 (per-visit
residence times per network stage, in cycles, for the 64-processor 2 x 2
omega network, ``S_pe = 1``, ``S_mm = 1`` and ``2``, ``NC = 2, ..., 32``):

* "the model tends to underestimate residence times in the forward network
  (particularly in those stages closest to the memory modules) and
  overestimate residence times in the return network (again, particularly in
  those stages closest to the memory modules)" -- :func:`bias_decisions`;
* "In the return network ... replies that potentially might collide often
  tend to be spaced apart by collisions of the corresponding requests in the
  (identical topology) forward network" -- :func:`wiring_effect`: on a
  return network wired differently from the forward one, the replies are no
  longer spaced apart by their requests' collisions, so if the explanation is
  right the simulated return residence times near the memories rise and the
  model's over-estimate there shrinks (or changes sign).

Every case is decided by the declared criteria of
:mod:`models.core.criteria`: a comparison of our simulation is
:func:`~models.core.criteria.lower` / :func:`~models.core.criteria.higher`
with the simulation's 95 % half widths (``None`` within the noise, which
counts against), a comparison of the paper's printed columns is exact (the
paper gives no interval: half width 0), and "tends to" / "particularly" are
:func:`~models.core.criteria.more_than_half` of the cases.

The inputs are :func:`models.min_mva.paper_tables.compare_table` frames
(columns ``row``, ``NC``, ``paper_analytic``, ``paper_sim``, ``ours`` and,
simulated, ``sim``, ``sim_ci``), read only.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import pandas as pd

from ..core.criteria import higher, lower, more_than_half

__all__ = ["SOURCES", "stage_gaps", "bias_decisions", "wiring_effect", "memory_side_stages"]

#: What is compared with what: ``name -> (model column, simulation column, half-width column or None)``.
#: ``"paper"``: the paper's own analytic column against its own simulation column, exactly (no interval is
#: printed); ``"ours"``: our model against our simulation, with its 95 % half widths (batch means).
SOURCES = {"paper": ("paper_analytic", "paper_sim", None), "ours": ("ours", "sim", "sim_ci")}


def memory_side_stages(n: int) -> tuple[int, ...]:
    """The stages (counted from the processors, 1..n) of the half of a network nearest the memories: 4, 5, 6
    for ``n = 6`` (F4-F6, R4-R6)."""
    return tuple(range(n - n // 2 + 1, n + 1))


def stage_gaps(cmps: Mapping, source: str = "ours") -> pd.DataFrame:
    """One row per (table, NC, network, stage): the gap in the sentence's direction, in cycles per visit.

    ``cmps``: ``{table number: compare_table frame}``.  ``network`` is
    ``"forward"`` (F rows; ``gap = sim - model``, positive where the model
    underestimates) or ``"return"`` (R rows; ``gap = model - sim``, positive
    where it overestimates); ``stage`` counts from the processors; ``half``
    is the simulation's 95 % half width (0 for the paper's printed columns).
    """
    model, sim, half = SOURCES[source]
    rows = []
    for which, cmp in sorted(cmps.items()):
        if sim not in cmp:
            continue
        for r in cmp.itertuples(index=False):
            label = str(r.row)
            if len(label) < 2 or label[0] not in "FR" or not label[1:].isdigit():
                continue
            m, s = float(getattr(r, model)), float(getattr(r, sim))
            h = float(getattr(r, half)) if half else 0.0
            forward = label[0] == "F"
            rows.append({"table": int(which), "NC": int(r.NC), "network": "forward" if forward else "return",
                         "stage": int(label[1:]), "gap": s - m if forward else m - s, "half": h})
    return pd.DataFrame(rows, columns=["table", "NC", "network", "stage", "gap", "half"])


def _mean_half(g: pd.DataFrame) -> tuple[float, float]:
    """The mean gap of ``g`` and its 95 % half width (the entries' half widths combined as independent)."""
    return float(g["gap"].mean()), float(math.sqrt(float((g["half"] ** 2).sum())) / len(g))


def _count(decided: Sequence) -> dict:
    d = list(decided)
    return {"yes": sum(1 for x in d if x is True), "no": sum(1 for x in d if x is False),
            "within noise": sum(1 for x in d if x is None), "cases": len(d),
            "more than half": more_than_half(d) if d else None}


def bias_decisions(cmps: Mapping, source: str = "ours") -> dict:
    """The bias sentence on ``cmps`` (``{table: compare_table frame}``), case by case.

    Returns ``{part: counts}`` for the four parts of the sentence, each
    ``{"yes", "no", "within noise", "cases", "more than half"}``:

    ``forward_under``
        per forward-stage entry: the model below the simulation
        (:func:`~models.core.criteria.lower`, the simulation's half width;
        exact for the paper's columns);
    ``return_over``
        per return-stage entry: the model above the simulation;
    ``forward_memory_side``, ``return_memory_side``
        per (table, NC) column: that gap, averaged over the stages nearest
        the memories (:func:`memory_side_stages`), above its average over the
        stages nearest the processors (:func:`~models.core.criteria.higher`,
        each mean's half width from its entries').

    and ``"holds"``: every part more than half (``None`` when nothing was
    compared).  ``source``: ``"ours"`` or ``"paper"`` (:data:`SOURCES`).
    """
    gaps = stage_gaps(cmps, source)
    out: dict = {}
    if gaps.empty:
        return {"holds": None}
    for net in ("forward", "return"):
        g = gaps[gaps["network"] == net]
        # the gap in the stated direction beyond the noise: 0 below gap - half
        out[f"{net}_{'under' if net == 'forward' else 'over'}"] = _count(
            lower(0.0, 0.0, x, h) for x, h in zip(g["gap"], g["half"]))
        side = []
        for _, col in g.groupby(["table", "NC"], sort=True):
            n = int(col["stage"].max())
            mem = col[col["stage"].isin(memory_side_stages(n))]
            pe = col[col["stage"] <= n // 2]
            side.append(higher(*_mean_half(mem), *_mean_half(pe)))
        out[f"{net}_memory_side"] = _count(side)
    out["holds"] = all(v["more than half"] for v in out.values())
    out["columns"] = int(gaps.groupby(["table", "NC"]).ngroups)
    return out


def wiring_effect(mirror: Mapping, other: Mapping) -> pd.DataFrame:
    """The model's over-estimate of the return stages nearest the memories on two wirings, entry by entry.

    ``mirror``, ``other``: ``{table: compare_table frame}`` of our model and
    simulation on the mirror wiring (the paper's: a reply retraces its
    request's path) and on another (the ``second-omega`` set-up); tables on
    both only.  One row per (table, NC, stage) of the return stages nearest
    the memories (:func:`memory_side_stages`): ``over mirror``, ``over
    other`` (model - simulation, cycles per visit), their 95 % half widths
    (the simulations'), and ``smaller``: the over-estimate on the other
    wiring below that on the mirror wiring beyond the noise
    (:func:`~models.core.criteria.lower`; ``None`` within it).
    """
    rows = []
    for which in sorted(set(mirror) & set(other)):
        a = stage_gaps({which: mirror[which]}, "ours")
        b = stage_gaps({which: other[which]}, "ours")
        if a.empty or b.empty:
            continue
        a, b = a[a["network"] == "return"], b[b["network"] == "return"]
        near = memory_side_stages(int(a["stage"].max()))
        both = a[a["stage"].isin(near)].merge(b, on=["table", "NC", "network", "stage"], suffixes=("_m", "_o"))
        for r in both.itertuples(index=False):
            rows.append({"table": int(r.table), "NC": int(r.NC), "stage": f"R{int(r.stage)}", "over mirror": r.gap_m,
                         "half mirror": r.half_m, "over other": r.gap_o, "half other": r.half_o,
                         "smaller": lower(r.gap_o, r.half_o, r.gap_m, r.half_m)})
    out = pd.DataFrame(rows, columns=["table", "NC", "stage", "over mirror", "half mirror", "over other",
                                      "half other", "smaller"])
    out["smaller"] = out["smaller"].astype(object)
    return out
