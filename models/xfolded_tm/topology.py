"""The topologies' tables: distances and the paper's topological statements, checked literally.

The topology page (``01-topology``) rebuilds the ``k x k`` mesh, torus, TM
and x-Folded TM (:mod:`models.networks.grid2d`, exact breadth-first-search
distances) and checks, by counting, what the paper states about them:
:func:`distance_table` (node counts, average distances and diameters per
``k``), :func:`proposition1_fit` (Proposition 1's least-squares line),
:func:`topology_checks` (every statement per reading of Definition 1 and
radix) and :func:`topology_claims` (their summary per statement and
reading).  The chapter's claims table turns the checks into rows
(:mod:`models.xfolded_tm.claims`).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.validate import require
from ..networks.grid2d import READINGS, definition1_node_count, mesh, properties_table, proposition1_nodes, tm, \
    torus, xfolded_tm
from .setups import PAPER_K, READING_LABELS
from .solve import theorem1

__all__ = ["distance_table", "PROP1_FIT_KS", "TOPOLOGY_CHECK_COLUMNS", "proposition1_fit", "topology_checks",
           "TOPOLOGY_CHECKS", "topology_claims", "k_ranges"]


def distance_table(ks: Sequence[int]):
    """Per ``k``: node counts (Definition 1, Proposition 1 fit) and whole-network average distances (hops).

    Columns: exact BFS averages of mesh, torus, TM and the three x-Folded TM
    readings; ``Thm 1 printed`` and ``k/3 reading`` are ``n * AD_k`` (eq. 3) from
    Theorem 1 as printed and from its ``k/3`` reading; diameters of each topology.
    """
    t = properties_table(ks)
    t.insert(3, "node fit error", t["nodes (Prop. 1 fit)"] - t["nodes (Def. 1)"])
    t["AD Thm 1 printed"] = [2 * theorem1(int(k), "theorem") for k in t["k"]]
    t["AD k/3 reading"] = [2 * theorem1(int(k), "k/3") for k in t["k"]]
    return t


#: The radices through which Proposition 1's least-squares line reproduces the printed coefficients.
PROP1_FIT_KS = tuple(range(3, 10))

#: The columns of :func:`topology_checks`.
TOPOLOGY_CHECK_COLUMNS = ("check", "reading", "k", "holds", "value", "reference", "evidence")


def proposition1_fit(ks: Sequence[int] = PROP1_FIT_KS) -> tuple:
    """``(a1, a2)``: the least-squares line ``count = a1 k^2 + a2`` through Definition 1's node counts at ``ks``."""
    ks = np.asarray([require("k", k, 3, unit="radix", integer=True) for k in ks], dtype=float)
    a1, a2 = np.polyfit(ks**2, [definition1_node_count(int(k)) for k in ks], 1)
    return float(a1), float(a2)


def topology_checks(ks: Sequence[int], readings: Sequence[str] = tuple(READING_LABELS)) -> pd.DataFrame:
    """The paper's topological statements, literally, for every ``k`` of ``ks`` and reading of Definition 1.

    One row per (check, reading, k), the columns :data:`TOPOLOGY_CHECK_COLUMNS`
    (``value`` and ``reference`` the numbers compared, ``evidence`` in
    words).  Checks, none against a tolerance of the book's:

    * ``prop1`` (reading ``all``: Definition 1's nodes do not depend on the
      links): Proposition 1's ``N'`` read as a node count, i.e. its nearest
      integer, equals Definition 1's count;
    * ``thm1``: ``n AD_k`` of Theorem 1 as printed (eq. 3) equals the
      network's BFS average distance (up to floating-point rounding);
    * ``lemma1``: ``I(i) = i + 1`` nodes at distance ``i`` from node (0) for
      ``1 <= i <= k-1``;
    * ``diameter``: the diameter is below TM's and the torus's;
    * ``distance``: the average distance is below the mesh's, the torus's
      and TM's (strictly: a tie is not shorter).
    """
    ks = [require("k", k, 3, unit="radix", integer=True) for k in ks]
    rows = []

    def add(check, reading, k, holds, value, reference, evidence):
        rows.append(dict(zip(TOPOLOGY_CHECK_COLUMNS, (check, reading, int(k), bool(holds), float(value),
                                                      float(reference), evidence))))

    for k in ks:
        n_prop, n_def = proposition1_nodes(k), definition1_node_count(k)
        add("prop1", "all", k, round(n_prop) == n_def, n_prop, n_def,
            f"N' = {n_prop:.2f}, Definition 1 keeps {n_def} nodes")
        others = {"mesh": mesh(k), "torus": torus(k), "TM": tm(k)}
        for reading in readings:
            net = xfolded_tm(k, reading)
            thm, bfs = 2 * theorem1(k, "theorem"), net.average_distance()
            add("thm1", reading, k, math.isclose(thm, bfs, rel_tol=1e-9), thm, bfs,
                f"n AD_k = {thm:.2f} hops, BFS average distance {bfs:.2f} hops")
            counts = [int(c) for c in net.distance_counts(net.node_id(0, 0))[1:k]]
            counts += [0] * (k - 1 - len(counts))
            bad = [i for i, c in enumerate(counts, start=1) if c != i + 1]
            add("lemma1", reading, k, not bad, bad[0] if bad else math.nan, math.nan,
                "I(i) = i + 1 for every i" if not bad else
                f"I({bad[0]}) = {counts[bad[0] - 1]}, not {bad[0] + 1}")
            d, dref = net.diameter(), min(others["TM"].diameter(), others["torus"].diameter())
            add("diameter", reading, k, d < dref, d, dref, f"diameter {d} against {dref} (TM and torus)")
            a = net.average_distance()
            best = min(others, key=lambda name: others[name].average_distance())
            aref = others[best].average_distance()
            tie = " (a tie: not shorter)" if math.isclose(a, aref, rel_tol=1e-12) else ""
            add("distance", reading, k, a < aref and not tie, a, aref,
                f"average distance {a:.3f} hops against {aref:.3f} ({best}){tie}")
    return pd.DataFrame(rows, columns=list(TOPOLOGY_CHECK_COLUMNS))


#: How :func:`topology_claims` names each check of :func:`topology_checks`.
TOPOLOGY_CHECKS = {
    "prop1": "Prop. 1: N' = 0.8005 k^2 + 0.9786 rounds to Definition 1's node count",
    "thm1": "Thm 1: n AD_k equals the BFS average distance",
    "lemma1": "Lemma 1: I(i) = i + 1 for 1 <= i <= k-1",
    "diameter": "diameter below TM and torus",
    "distance": "average distance below mesh, torus and TM",
}


def topology_claims(ks: Sequence[int], readings: Sequence[str] = READINGS):
    """The paper's topological statements per reading of Definition 1, summarised over ``ks``.

    One row per (claim, reading): ``holds`` (for every ``k``), ``holds at k = 8``
    (the paper's size, when 8 is in ``ks``) and a short ``evidence``
    (:func:`topology_checks` per ``k``).
    """
    t = topology_checks(ks, readings)
    ks = list(dict.fromkeys(t["k"]))
    rows = []
    for (check, reading), g in t.groupby(["check", "reading"], sort=False):
        ok = list(g["holds"])
        bad = [int(k) for k, o in zip(g["k"], ok) if not o]
        if not any(ok):
            ev = f"fails for every k in {ks[0]}..{ks[-1]}"
        else:
            ev = f"holds for {sum(ok)}/{len(ok)} radices" + (f"; fails for k = {k_ranges(bad)}" if bad else "")
        at8 = g[g["k"] == PAPER_K]
        rows.append({"claim": TOPOLOGY_CHECKS[check], "reading": reading, "holds": bool(all(ok)),
                     f"holds at k = {PAPER_K}": bool(at8["holds"].iloc[0]) if len(at8) else None,
                     "evidence": ev + (f"; at k = {PAPER_K}: {at8['evidence'].iloc[0]}" if len(at8) else "")})
    return pd.DataFrame(rows)


def k_ranges(ks) -> str:
    """``[3, 4, 5, 7, 9, 10]`` -> ``"3..5, 7, 9..10"``."""
    ks = sorted(int(k) for k in ks)
    out, i = [], 0
    while i < len(ks):
        j = i
        while j + 1 < len(ks) and ks[j + 1] == ks[j] + 1:
            j += 1
        out.append(str(ks[i]) if i == j else f"{ks[i]}..{ks[j]}")
        i = j + 1
    return ", ".join(out)
