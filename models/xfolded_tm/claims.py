"""The chapter's claims: one per sentence of the paper, and the claims table the findings chapter reads.

:data:`CLAIMS` quotes each sentence whole (:class:`models.core.claims.Claim`);
:func:`claims_table` turns the chapter's tables
(:mod:`models.xfolded_tm.experiments`, :mod:`models.xfolded_tm.topology`) into
rows of :meth:`~models.core.claims.Claim.row`, one per claim, set-up and case,
written with :func:`models.core.claims.save_claims` (``setups=SETUPS``) to
``tables/tab-xfolded_tm-claims.csv``.  The verdicts are not here: the
findings chapter computes them by one rule (:mod:`models.findings.verdicts`);
a row's ``cause`` is worded from the same row rule
(:func:`models.core.claims.row_outcome`), the worst error over several runs is
:func:`~models.core.claims.worst_of` and the saturation ratio of several
curves :func:`~models.core.claims.furthest_from_one`.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd

from ..core.claims import Claim, claims_frame, furthest_from_one, row_outcome, worst_of
from ..core.setups import BELOW
from ..core.tables import UNBOUNDED_WORD, percent
from .experiments import THEOREM_SOURCE, unsupported
from .setups import PAPER_K, READING_LABELS, SETUPS, network
from .topology import PROP1_FIT_KS, k_ranges, proposition1_fit

__all__ = ["CHAPTER", "CLAIMS", "ERROR_GROUPS", "GROUP_LABELS", "UNBOUNDED", "error_text", "setups_in", "rank_text",
           "beyond_yardstick", "claims_table"]

#: The chapter's slug, as its claims rows name it.
CHAPTER = "xfolded_tm"

#: The paper's claims (Moudi et al.), one per sentence, quoted whole, in the order of the claims table.
#: ``[... f]`` stands for a formula ``f`` the sentence prints (written out in plain text).
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("within-5pct", "Sec. 5",
          "This model is validated and deemed accurate by simulation with less than 5% difference in the average "
          "delay.", "error", threshold=0.05, threshold_quote="less than 5% difference in the average delay"),
    Claim("similar-saturation", "Sec. 4",
          "Figure 4 reveals the similar saturation time in different numbers of VCs and the effectiveness of "
          "x-Folded TM topology on decreasing the average delay compared with the results obtained by Torus and TM "
          "under uniform traffic pattern.", "saturation", yardstick=0.10),
    Claim("lowest-delay", "Abstract",
          "The mathematical results indicate that the average network delay for x-Folded TM topology is reduced "
          "when compared with other topologies in the presence of uniform traffic pattern.", "fact"),
    Claim("prop1", "Sec. 3, Proposition 1",
          "The number of the nodes for an x-Folded TM can be written as, [... N' = a_1 × N + a_2. (7)] It is "
          "computed according to a linear model, which has been presented in Eq. (7) where the initial values are "
          "a_1 = 0.8005, a_2 = 0.9786, and n=2.", "fact"),
    Claim("thm1", "Sec. 3, Theorem 1",
          "The average distance of x-Folded TM topology is [... AD_k = 1 if k = 3, (AD_{k-1} + k(k-1))/(k^2 - 1) "
          "if k >= 4. (5)]", "fact"),
    Claim("lemma1", "Sec. 3, Lemma 1",
          "For an x-Folded TM, let I(i) be the number of the nodes that are i nodes away from the source node (0), "
          "which can be calculated by using Eq.(4), [... I(i) = i + 1 for all 1 <= i <= (k - 1). (4)]", "fact"),
    Claim("low-diameter-short-distance", "Abstract",
          "Recently, x-Folded TM topology was introduced as a desirable design in k-ary n-cube networks due to the "
          "low diameter and short average distance.", "fact"),
    Claim("outperform-similar-size", "Sec. 1",
          "x-Folded TM [7] is introduced as a low diameter network which can outperform a similar network size in "
          "terms of throughput and delay.", "fact"),
)}

#: Networks of the accuracy claim, grouped as the cases of its rows: the torus (every set-up runs it) and the
#: irregular networks (up*/down* routing: not on the BookSim router).
ERROR_GROUPS = {"torus": ("torus",), "tm-xfolded": ("tm", "xfolded_printed", "xfolded_completed")}
#: How the claims table names the groups.
GROUP_LABELS = {"torus": "torus", "tm-xfolded": "TM and x-Folded TM"}

#: How the claims and glued sentences write an infinite worst error.
UNBOUNDED = UNBOUNDED_WORD


def error_text(x: float) -> str:
    """A worst error (a fraction) as the book's unsigned percent (:func:`models.core.tables.percent`), or
    :data:`UNBOUNDED`, or ``"n/a"``."""
    return UNBOUNDED if x == math.inf else (percent(x) or "n/a")


def setups_in(frame: pd.DataFrame) -> list:
    """The set-ups of :data:`SETUPS` that ``frame``'s ``setup`` column names, in their order."""
    return [s for s in SETUPS if s in set(frame["setup"])]


def _accuracy_rows(validation: pd.DataFrame, below: float) -> list:
    claim = CLAIMS["within-5pct"]
    t = claim.threshold
    rows, closest = [], []
    for M in sorted(int(m) for m in validation["M"].unique()):
        for group, keys in ERROR_GROUPS.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            for s in setups_in(g):
                run = g[(g["setup"] == s) & g["runnable"]]
                case = f"{GROUP_LABELS[group]}, M = {M}"
                if run.empty:
                    rows.append(claim.row(CHAPTER, s, case=case))
                    continue
                worst = worst_of(run["worst |err| below 80%"])
                ratio = furthest_from_one(run["saturation ratio"])
                fails = row_outcome("error", worst_err=worst, threshold=t) == "fail"  # the findings' row rule
                cause = "model" if SETUPS[s].decides and fails else "-"
                if SETUPS[s].decides and math.isfinite(worst):
                    closest.append((worst, f"{case}, '{s}'"))
                rows.append(claim.row(CHAPTER, s, case=case, worst_err=worst, sat_ratio=ratio, cause=cause))
    tor = validation[(validation["key"] == "torus") & validation["runnable"] & (validation["setup"] == "booksim")]
    zero = ""
    if len(tor):
        z = tor["zero-load err"].to_numpy(dtype=float)
        zero = (f" The model has no router delay: on 'booksim' (BookSim 2's 5-cycle router, the paper's simulator) its "
                f"zero-load delay alone is {100 * z.min():+.0f}% to {100 * z.max():+.0f}% off (M = "
                f"{', '.join(str(int(m)) for m in sorted(tor['M'].unique()))}); 'booksim' runs the torus only "
                f"(up*/down* needs wait_for_tail_credit=1).")
    best = f" Closest case: {error_text(min(closest)[0])} ({min(closest)[1]})." if closest else ""
    note = (f"Worst |error| below {below:.0%} of the simulated saturation over V = 2 and 8 per network group, M and "
            f"set-up (tab-xfolded_tm-validation.csv); the paper does not state M.{zero} 'model' is like for like; "
            f"'ours' (one ejection channel) stands for neither and never decides.{best}")
    for r in rows:
        r["note"] = note
    return rows


def beyond_yardstick(ratio: float, yardstick: float) -> bool:
    """Whether a saturation ratio is further from 1 than the book's yardstick (the findings' row rule,
    :func:`models.core.claims.row_outcome`, with the yardstick in the threshold's place: shown, never deciding)."""
    return row_outcome("saturation", sat_ratio=ratio, threshold=yardstick) == "fail"


def _beyond_yardstick(ratio: float, yardstick: float) -> str:
    return "model" if beyond_yardstick(ratio, yardstick) else "-"


def _vc_rows(vc: pd.DataFrame) -> list:
    claim = CLAIMS["similar-saturation"]
    y = claim.yardstick
    rows = []
    model = vc[(vc["setup"] == "-") & (vc["source"] == "model")]
    thm = vc[vc["source"] == THEOREM_SOURCE]
    sims = vc[(vc["source"] == "simulation") & np.isfinite(vc["ratio high/low"].to_numpy(dtype=float))]
    for M in sorted(int(m) for m in vc["M"].unique()):
        m = model[model["M"] == M]
        if len(m):
            r = furthest_from_one(m["ratio high/low"])
            rows.append(claim.row(CHAPTER, "-", case=f"M = {M}, every network, BFS distances", sat_ratio=r,
                                  cause=_beyond_yardstick(r, y)))
        th = thm[thm["M"] == M]
        if len(th):
            r = float(th["ratio high/low"].iloc[0])
            rows.append(claim.row(CHAPTER, "-", case=f"M = {M}, x-Folded TM with Thm 1 as printed", sat_ratio=r,
                                  cause=_beyond_yardstick(r, y)))
    for s in setups_in(sims):
        for M in sorted(int(m) for m in sims["M"].unique()):
            g = sims[(sims["setup"] == s) & (sims["M"] == M)]
            if len(g):
                rows.append(claim.row(CHAPTER, s, case=f"M = {M}", sat_ratio=furthest_from_one(g["ratio high/low"])))

    def span(frame):
        r = frame["ratio high/low"].to_numpy(dtype=float)
        r = r[np.isfinite(r)]
        return f"{r.min():.2f}x to {r.max():.2f}x" if r.size else "n/a"

    lo, hi = int(vc["V low"].iloc[0]), int(vc["V high"].iloc[0])
    note = (f"sat_ratio here is the saturation injection rate at V = {hi} over V = {lo} (not model over simulation), "
            f"the network furthest from 1 per row (tab-xfolded_tm-vc-saturation.csv): the model's saturation grows "
            f"{span(model)} on every network and M with BFS distances, {span(thm)} with the paper's Theorem 1 as "
            f"printed (x-Folded TM), the simulated {span(sims)}. 'Similar' has no number in the paper; the book's "
            f"yardstick, {y:.0%}, is shown, never deciding. The sentence's second clause, x-Folded TM's lower delay, "
            f"is the abstract's claim lowest-delay.")
    for r in rows:
        r["note"] = note
    return rows


def rank_text(g: pd.DataFrame) -> str:
    """``"V = 2: 3/4, V = 8: 1/4"``: per V, at how many of the rates compared x-Folded TM is below TM and the torus."""
    return ", ".join(f"V = {int(r['V'])}: {int(r['lower than TM and torus'])}/{int(r['rates compared'])}"
                     for _, r in g.sort_values("V").iterrows())


def _lowest_rows(ranking: pd.DataFrame, distances: pd.DataFrame | None) -> list:
    claim = CLAIMS["lowest-delay"]
    rows, parts = [], []
    model = ranking[ranking["setup"] == "-"]
    thm = model[model["reading"] == "thm1"]
    if len(thm):
        ok = bool(thm["claim holds"].all())
        rows.append(claim.row(CHAPTER, "-", case="the paper's model: x-Folded TM with Thm 1 as printed", holds=ok,
                              cause="paper text" if ok else "model"))
        parts.append(f"the paper's model (x-Folded TM with Thm 1 as printed, TM and torus with their BFS distances) "
                     f"{rank_text(thm)}")
    for reading, label in READING_LABELS.items():
        g = model[(model["reading"] == reading) & model["source"].astype(str).str.startswith("model")
                  & (model["source"] != "model (Thm 1 printed)")]
        if len(g):
            ok = bool(g["claim holds"].all())
            rows.append(claim.row(CHAPTER, "-", case=f"{label}, BFS distances", holds=ok,
                                  cause="-" if ok else ("paper text" if reading == "printed" else "model")))
            parts.append(f"the model, {label}, {rank_text(g)}")
    sim = ranking[(ranking["setup"] != "-") & (ranking["source"] == "sim")]
    for s in SETUPS:
        for reading, label in READING_LABELS.items():
            g = sim[(sim["setup"] == s) & (sim["reading"] == reading)]
            if g.empty:
                if len(sim) and unsupported("tm", 2, s):  # a set-up that cannot run TM or x-Folded TM: not judged
                    rows.append(claim.row(CHAPTER, s, case=label))
                continue
            ok = bool(g["claim holds"].all())
            cause = "-" if ok or not SETUPS[s].decides else ("paper text" if reading == "printed" else "model")
            rows.append(claim.row(CHAPTER, s, case=label, holds=ok, cause=cause))
            parts.append(f"the simulation on '{s}', {label}, {rank_text(g)}")
    why = ""
    if distances is not None and (distances["k"] == PAPER_K).any():
        d = distances[distances["k"] == PAPER_K].iloc[0]
        why = (f" With Theorem 1 as printed the model puts x-Folded TM n AD_8 = {float(d['AD Thm 1 printed']):.2f} "
               f"hops across, against {float(d['AD xfolded printed']):.2f} (as printed) and "
               f"{float(d['AD xfolded completed']):.2f} (completed) by BFS (tab-xfolded_tm-distances.csv): it shows "
               f"x-Folded TM fastest for that reason, not for the network's.")
    note = (f"Delay figure (M = 32; tab-xfolded_tm-ranking.csv): x-Folded TM below both TM and the torus at every "
            f"injection rate compared (saturated: infinite delay), rates where it is: {'; '.join(parts)}.{why} The "
            f"claim is about the model ('The mathematical results indicate'); the simulation rows test what it "
            f"indicates; 'booksim' runs the torus only; 'ours' stands for neither. The completed reading has "
            f"{network('xfolded_completed', PAPER_K).n_nodes} nodes against 64.")
    for r in rows:
        r["note"] = note
    return rows


def _topology_rows(claim: Claim, checks: pd.DataFrame, what: dict, causes: Mapping[str, str]) -> list:
    """Rows of one topological claim from :func:`topology_checks`: per (check, reading), ``k = 8`` (the paper's
    size, deciding) and the other radices grouped by outcome (a caveat only); ``what`` names the checks."""
    rows = []
    for check, name in what.items():
        for reading in [r for r in ("all", *READING_LABELS) if r in set(checks["reading"])]:
            g = checks[(checks["check"] == check) & (checks["reading"] == reading)]
            if g.empty:
                continue
            label = ", ".join(x for x in (name, READING_LABELS.get(reading, "")) if x)
            at = g[g["k"] == PAPER_K]
            for _, r in at.iterrows():
                rows.append(claim.row(CHAPTER, "-", case=f"{label}, k = {PAPER_K}" if label else f"k = {PAPER_K}",
                                      holds=bool(r["holds"]),
                                      cause="-" if r["holds"] else causes.get(reading, "paper text"),
                                      note=f"{label + ' ' if label else ''}at k = {PAPER_K}: {r['evidence']}"))
            rest = g[g["k"] != PAPER_K]
            for ok, h in rest.groupby("holds", sort=False):
                ks = k_ranges(h["k"])
                worst = h.iloc[-1] if ok or len(h) > 1 else h.iloc[0]
                rows.append(claim.row(CHAPTER, "-", case=f"{label}, k = {ks}" if label else f"k = {ks}",
                                      paper_config=False, holds=bool(ok),
                                      cause="-" if ok else causes.get(reading, "paper text"),
                                      note="" if ok else f"{label + ' ' if label else ''}fails at k = {ks} "
                                                         f"(k = {int(worst['k'])}: {worst['evidence']})"))
    return rows


def _with_common_note(rows: list, head: str) -> list:
    """Give every row of a claim the same note: ``head`` and the rows' own notes (one note per claim, so that the
    verdict table shows it once)."""
    own = [r["note"] for r in rows if r["note"]]
    note = head + (" " + "; ".join(own) + "." if own else "")
    for r in rows:
        r["note"] = note
    return rows


def _prop1_rows(checks: pd.DataFrame) -> list:
    claim = CLAIMS["prop1"]
    a1, a2 = proposition1_fit()
    ok = (round(a1, 4), round(a2, 4)) == (0.8005, 0.9786)
    rows = [claim.row(CHAPTER, "-", case=f"least-squares line through k = {k_ranges(PROP1_FIT_KS)}", holds=ok,
                      cause="-" if ok else "paper text",
                      note=f"The least-squares line through k = {k_ranges(PROP1_FIT_KS)} has a_1 = {a1:.6f}, "
                           f"a_2 = {a2:.6f}" + (", the printed coefficients to their four decimals" if ok else ""))]
    rows += _topology_rows(claim, checks, {"prop1": ""}, {})
    return _with_common_note(rows, (
        "Proposition 1 is a linear fit of Definition 1's node counts (N = k^2); N' is read as a node count, its "
        f"nearest integer (tab-xfolded_tm-distances.csv). The count is k^2 - 3(k - 4) for k >= 6, so the fit drifts "
        "beyond the radices it was fitted to."))


def claims_table(validation: pd.DataFrame, vc: pd.DataFrame | None = None, ranking: pd.DataFrame | None = None,
                 topology: pd.DataFrame | None = None, *, distances: pd.DataFrame | None = None,
                 outperform: pd.DataFrame | None = None, below: float = BELOW) -> pd.DataFrame:
    """The chapter's claims table: rows of :meth:`Claim.row` for the claims of :data:`CLAIMS`, one per sentence.

    One row per claim, set-up and case (a network group and message length,
    a reading of Definition 1 and a radix, ...), the columns
    :data:`~models.core.claims.CLAIM_COLUMNS`; written with
    :func:`models.core.claims.save_claims` (``setups=SETUPS``).  Built only
    from the chapter's tables:

    * ``validation`` (:func:`~models.xfolded_tm.experiments.validation_table`): ``within-5pct``, the paper's
      "less than 5%" (kind ``error``, the paper's ``threshold``), per set-up,
      network group (:data:`ERROR_GROUPS`) and ``M``: the worst
      :func:`~models.core.claims.worst_error_below` over the group's networks
      and both VC counts; ``sat_ratio`` the model / simulated saturation ratio
      furthest from 1.  Cause ``"model"`` where it fails on a set-up that
      decides (on ``booksim``: the model has no router delay).
    * ``vc`` (:func:`~models.xfolded_tm.experiments.vc_saturation_table`): ``similar-saturation`` (kind
      ``saturation``, no number in the paper, the book's yardstick 10%):
      ``sat_ratio`` is the saturation at the most over the fewest VCs, for
      the model (BFS distances, and x-Folded TM with Theorem 1 as printed)
      and each set-up's simulation, per ``M``.
    * ``ranking`` (:func:`~models.xfolded_tm.experiments.ranking_table` and
      :func:`~models.xfolded_tm.experiments.paper_model_ranking`
      rows): ``lowest-delay`` (kind ``fact``): the paper's model, the model
      per reading of Definition 1, and the simulation per set-up and reading;
      ``distances`` (:func:`~models.xfolded_tm.topology.distance_table`) adds why the paper's model shows it.
    * ``topology`` (:func:`~models.xfolded_tm.topology.topology_checks`): ``prop1``, ``thm1``, ``lemma1``
      and ``low-diameter-short-distance`` (kind ``fact``, no simulation), per
      reading of Definition 1; ``k = 8`` decides, the other radices are cases
      beyond the paper's configuration (``paper_config=False``).
    * ``outperform`` (:func:`~models.xfolded_tm.experiments.outperform_table`): ``outperform-similar-size``
      (kind ``fact``): per set-up and reading, throughput (a simulated
      saturation rate above TM's and the torus's beyond the bisection
      brackets, for some V and M) and delay (below both at every rate of the
      delay figure, for some V).

    The verdict is not here: the findings chapter computes it from these
    numbers by one rule (:mod:`models.findings.verdicts`).
    """
    rows = _accuracy_rows(validation, below)
    if vc is not None and not vc.empty:
        rows += _vc_rows(vc)
    if ranking is not None and not ranking.empty:
        rows += _lowest_rows(ranking, distances)
    if topology is not None and not topology.empty:
        rows += _prop1_rows(topology)
        rows += _with_common_note(_topology_rows(CLAIMS["thm1"], topology, {"thm1": ""}, {}), (
            "Theorem 1 as printed gives n AD_k < 2 hops for every k >= 4 (tab-xfolded_tm-distances.csv); with a "
            "factor (k-1)^2 - 1 on AD_{k-1}, possibly lost in typesetting, it solves to k/3, the mesh's per-dimension "
            "distance."))
        rows += _with_common_note(_topology_rows(CLAIMS["lemma1"], topology, {"lemma1": ""},
                                                 {"printed": "paper text", "completed": "reading"}), (
            "Both readings of Definition 1 decide: the printed one is the paper's text, the completed one the book's "
            "reading of the paper's own words 'created by folding the TM topology' and 'shared from top to bottom', "
            "which the printed definition does not implement. Lemma 1 holds only without wrap-around links, the "
            "distance claims only with them: no reading satisfies both."))
        rows += _with_common_note(_topology_rows(CLAIMS["low-diameter-short-distance"], topology,
                                                 {"diameter": "diameter", "distance": "average distance"},
                                                 {"printed": "paper text", "completed": "reading"}), (
            "Compared, as the x-Folded TM paper cited as [7] does, with TM and the torus (diameter) and the mesh, "
            "torus and TM (average distance), by exact BFS (tab-xfolded_tm-distances.csv). Both readings of "
            "Definition 1 decide (see lemma1); the completed reading also has fewer nodes (52 against 64 at k = 8)."))
    if outperform is not None and not outperform.empty:
        rows += _outperform_rows(outperform)
    return claims_frame(rows)


def _outperform_rows(table: pd.DataFrame) -> list:
    claim = CLAIMS["outperform-similar-size"]
    rows, parts = [], []
    for s in setups_in(table):
        for reading, label in READING_LABELS.items():
            for measure in ("throughput", "delay"):
                g = table[(table["setup"] == s) & (table["reading"] == reading) & (table["measure"] == measure)]
                case = f"{measure}, {label}"
                if g.empty:
                    continue
                ok = bool(g["beyond the brackets"].astype(bool).any())
                cause = "-" if ok or not SETUPS[s].decides else "paper text"
                rows.append(claim.row(CHAPTER, s, case=case, holds=ok, cause=cause))
                if measure == "throughput":
                    win = g[g["beyond the brackets"].astype(bool)]
                    detail = (", ".join(f"V = {int(r['V'])}, M = {int(r['M'])}: {r['ratio']:.2f}x (over all nodes "
                                        f"{r['aggregate ratio']:.2f}x)" for _, r in win.iterrows())
                              if len(win) else f"no V and M (ratios {g['ratio'].min():.2f}x to "
                                               f"{g['ratio'].max():.2f}x)")
                    parts.append(f"'{s}', {label}: saturation above the better of TM and the torus beyond the "
                                 f"brackets at {detail}")
                else:
                    detail = ", ".join(f"V = {int(r['V'])} at {r['ratio']:.0%}" for _, r in g.iterrows())
                    parts.append(f"'{s}', {label}: delay below both at {detail} of the rates")
    missing = [s for s in SETUPS if s not in set(table["setup"])]
    note = ("'Can outperform' is read as: in some configuration of the paper (8x8, V = 2 or 8, any M), x-Folded TM's "
            "simulated saturation rate is above TM's and the torus's beyond the bisection brackets (throughput), or "
            "its delay below both at every rate of the delay figure (delay) (tab-xfolded_tm-outperform.csv): "
            + "; ".join(parts) + ". 'A similar network size': the 8x8 torus and TM have 64 nodes, x-Folded TM "
            f"{network('xfolded_printed', PAPER_K).n_nodes}."
            + (f" Not simulated on {', '.join(repr(s) for s in missing)} (BookSim's router runs the torus only)."
               if missing else "") + " The sentence's 'low diameter' is judged under low-diameter-short-distance.")
    for r in rows:
        r["note"] = note
    return rows
