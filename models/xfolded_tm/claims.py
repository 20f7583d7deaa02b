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

from ..core.atlas_claims import WideClaim
from ..core.claims import Accuracy, Claim, Considered, claims_frame, furthest_from_one, row_outcome
from ..core.setups import ACCURACY_FRACTIONS, BELOW
from ..core.tables import UNBOUNDED_WORD, percent
from .experiments import THEOREM_SOURCE, unsupported
from .setups import PAPER_K, READING_LABELS, SETUPS, TOPOLOGIES, network
from .topology import PROP1_FIT_KS, k_ranges, proposition1_fit

__all__ = ["CHAPTER", "CLAIMS", "CONSIDERED", "ACCURATE_5PCT", "ERROR_GROUPS", "GROUP_LABELS", "NETWORK_GROUPS",
           "XFOLDED_GROUPS", "SIMILAR_FACTOR", "UNBOUNDED", "error_text", "setups_in", "tri", "accuracy_of",
           "similar", "rank_text", "claims_table", "ATLAS_CLAIMS"]

#: The chapter's slug, as its claims rows name it.
CHAPTER = "xfolded_tm"

#: The words of Sec. 5 that quantify "accurate" for this paper (the paper's only number): applied to the same
#: phrase ("accurate", "validate the accuracy") in Sec. 4.
ACCURATE_5PCT = "deemed accurate by simulation with less than 5% difference in the average delay"

#: The paper's claims (Moudi et al.), one per sentence, quoted whole, in the order of the claims table.
#: ``[... f]`` stands for a formula ``f`` the sentence prints (written out in plain text).
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("within-5pct", "Sec. 5",
          "This model is validated and deemed accurate by simulation with less than 5% difference in the average "
          "delay.", "error", threshold=0.05, threshold_quote="less than 5% difference in the average delay",
          quantifier="all"),
    Claim("similar-saturation", "Sec. 4",
          "Figure 4 reveals the similar saturation time in different numbers of VCs and the effectiveness of "
          "x-Folded TM topology on decreasing the average delay compared with the results obtained by Torus and TM "
          "under uniform traffic pattern.", "fact", quantifier="all"),
    Claim("lowest-delay", "Abstract",
          "The mathematical results indicate that the average network delay for x-Folded TM topology is reduced "
          "when compared with other topologies in the presence of uniform traffic pattern.", "fact",
          quantifier="all"),
    Claim("prop1", "Sec. 3, Proposition 1",
          "The number of the nodes for an x-Folded TM can be written as, [... N' = a_1 × N + a_2. (7)] It is "
          "computed according to a linear model, which has been presented in Eq. (7) where the initial values are "
          "a_1 = 0.8005, a_2 = 0.9786, and n=2.", "fact", quantifier="all"),
    Claim("thm1", "Sec. 3, Theorem 1",
          "The average distance of x-Folded TM topology is [... AD_k = 1 if k = 3, (AD_{k-1} + k(k-1))/(k^2 - 1) "
          "if k >= 4. (5)]", "fact", quantifier="all"),
    Claim("lemma1", "Sec. 3, Lemma 1",
          "For an x-Folded TM, let I(i) be the number of the nodes that are i nodes away from the source node (0), "
          "which can be calculated by using Eq.(4), [... I(i) = i + 1 for all 1 <= i <= (k - 1). (4)]", "fact",
          quantifier="all", quantifier_quote="for all"),
    Claim("low-diameter-short-distance", "Abstract",
          "Recently, x-Folded TM topology was introduced as a desirable design in k-ary n-cube networks due to the "
          "low diameter and short average distance.", "fact", quantifier="all"),
    Claim("outperform-similar-size", "Sec. 1",
          "x-Folded TM [7] is introduced as a low diameter network which can outperform a similar network size in "
          "terms of throughput and delay.", "fact", quantifier="some", quantifier_quote="can outperform"),
    Claim("abstract-accuracy", "Abstract",
          "Finally, the results obtained from simulation experiments confirm that the mathematical model exhibits a "
          "significant degree of accuracy for x-Folded TM topology under the traffic pattern even in varied virtual "
          "channels.", "error", quantifier="all"),
    Claim("sec4-accurate", "Sec. 4",
          "The validation results in this section prove that the predictions of the mathematical model with similar "
          "assumptions are accurate in terms of the average delay (cycles) with an increase in the packet injection "
          "rate (flits/node/cycle).", "error", threshold=0.05, threshold_quote=ACCURATE_5PCT, quantifier="all"),
    Claim("sec4-different-topologies", "Sec. 4",
          "The presented simulation results validate the accuracy of the results obtained from the mathematical "
          "model for different topologies.", "error", threshold=0.05, threshold_quote=ACCURATE_5PCT,
          quantifier="all"),
    Claim("figures-lower-delay", "Sec. 4",
          "Both figures reveal the less than average delay for x-Folded TM topology in different numbers of VCs "
          "until the saturation time.", "fact", quantifier="all", quantifier_quote="Both figures"),
    Claim("thm2", "Sec. 3, Theorem 2",
          "The number of channels that are j nodes away from a given node in a k-ary n-cube topology is [... C_j = "
          "sum_{l=0}^{n-1} sum_{t=0}^{n-1} (-1)^t (n-l) C(n,l) C(n-l,t) C(j - t(k-1) - 1, n-l-1). (8)]", "fact",
          quantifier="all"),
    Claim("eq6-channel-rate", "Sec. 3, eq. (6)",
          "The uniform's injection rate, [... lambda_u], can be found using [... lambda_u = 1/2 (lambda × AD_k). "
          "(6)]", "fact", quantifier="all"),
)}

#: The paper's main claim (the Abstract's and Sec. 5's 5 % accuracy).
#: The chapter opens with its verdict (:func:`models.findings.verdicts.main_claim_text`).
MAIN_CLAIM = "within-5pct"

#: The sentences whose scope covers the chapter's accuracy atlas (:mod:`models.core.atlas_claims`), judged there
#: too: the Abstract's "a significant degree of accuracy for x-Folded TM topology ... even in varied virtual
#: channels", on the atlas's x-Folded TM configurations (Definition 1 completed: the atlas simulates that
#: reading; the chapter's own rows give the printed one beside it).  Sec. 4's sentences speak of "the presented
#: simulation results", the paper's own figures: not judged on the atlas.
ATLAS_CLAIMS = {"abstract-accuracy": WideClaim(
    CLAIMS["abstract-accuracy"], "for x-Folded TM topology under the traffic pattern even in varied virtual channels",
    where=lambda f: f["topology"] == "xfolded_completed", covers="x-Folded TM",
    reading=READING_LABELS["completed"])}

#: Checkable sentences of the paper the book read and does not judge, with the reason.
CONSIDERED: tuple[Considered, ...] = (
    Considered("Abstract", "Our model accurately formulates the applied traffic pattern over network virtual "
               "channels based on the average distance and number of nodes.",
               "a description of the model's inputs; its accuracy is judged by abstract-accuracy and within-5pct, "
               "its channel rate from the average distance by eq6-channel-rate"),
    Considered("Sec. 1", "The significant advantage of the mathematical model over simulation is that it can be "
               "used to obtain performance results for large systems and behaviour under network configurations and "
               "working conditions, which may not be feasible for study using simulation due to the disproportionate "
               "computation demands.",
               "a general statement about analytical models, not about this paper's model or network"),
    Considered("Sec. 2", "x-Folded TM is a new wormhole-routed topology created by folding the TM topology [10,11] "
               "based on the imaginary x-axis when [... k >= 3] and [... n = 2].",
               "the construction the book's completed reading of Definition 1 follows (topology page); judged "
               "through the readings' rows of lemma1 and low-diameter-short-distance, not on its own"),
    Considered("Sec. 2", "x-Folded TM topology has a node structure similar to TM topology, except a number of the "
               "nodes are shared from top to bottom.",
               "a description the completed reading implements; no truth value beyond Definition 1's (see lemma1)"),
    Considered("Sec. 3, Lemma 1", "For example, [... I(1) = 2], i.e., the number of nodes that are one node away "
               "from node (0) is two nodes.",
               "an instance of Lemma 1 (i = 1), judged with it (lemma1)"),
    Considered("Sec. 3", "The received injection rate of messages for each channel, [... lambda], is gained by "
               "dividing the total channel rates by the total number of channels.",
               "the definition of the channel rate that eq6-channel-rate checks eq. (6) against"),
    Considered("Sec. 3", "Under uniform traffic pattern, the average network delay for each channel in different "
               "dimensions is equal to message lengths at the beginning, [... S_0].",
               "the initial value of the model's recursion (eq. 9), a definition the solver implements, not a "
               "statement about the network"),
    Considered("Sec. 4", "The mathematical model for the x-Folded TM topology has been validated through the "
               "discrete-event simulation using the Booksim 2.0 simulator [6].",
               "a restatement of the accuracy claims (within-5pct, abstract-accuracy); BookSim 2.0 is the 'booksim' "
               "set-up, which runs the torus only"),
    Considered("Sec. 4", "We employ Torus and TM topologies as benchmarks and represent their mathematical models to "
               "show the superiority of x-Folded TM topology on the average delay as a new topology in "
               "interconnection networks.",
               "a restatement of lowest-delay and figures-lower-delay"),
    Considered("Sec. 5", "We explore the mathematical model for x-Folded TM topology to present its novelty by "
               "reducing the average delay.", "a restatement of lowest-delay"),
)

#: Networks of the accuracy claims, grouped as the cases of their rows: the torus (every set-up runs it) and the
#: irregular networks (up*/down* routing: not on the BookSim router).
ERROR_GROUPS = {"torus": ("torus",), "tm-xfolded": ("tm", "xfolded_printed", "xfolded_completed")}
#: How the claims table names the groups.
GROUP_LABELS = {"torus": "torus", "tm-xfolded": "TM and x-Folded TM"}
#: One network per case (the claims "for different topologies" and "for x-Folded TM topology").
NETWORK_GROUPS = {key: (key,) for key in TOPOLOGIES}
#: x-Folded TM's two readings (the abstract's accuracy claim names x-Folded TM only).
XFOLDED_GROUPS = {key: (key,) for key in TOPOLOGIES if key.startswith("xfolded")}

#: The factor of the criterion ``similar-factor`` (:mod:`models.core.criteria`): two saturation rates are
#: "similar" when the larger over the smaller is below it.
SIMILAR_FACTOR = 1.25

#: How the claims and glued sentences write an infinite worst error.
UNBOUNDED = UNBOUNDED_WORD


def error_text(x: float) -> str:
    """A worst error (a fraction) as the book's unsigned percent (:func:`models.core.tables.percent`), or
    :data:`UNBOUNDED`, or ``"n/a"``."""
    return UNBOUNDED if x == math.inf else (percent(x) or "n/a")


def setups_in(frame: pd.DataFrame) -> list:
    """The set-ups of :data:`SETUPS` that ``frame``'s ``setup`` column names, in their order."""
    return [s for s in SETUPS if s in set(frame["setup"])]


def tri(value) -> bool | None:
    """A decision read from a table cell: True, False, or None (empty, NaN, None: undecided)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.strip().lower())
    return bool(value)


def accuracy_of(frame: pd.DataFrame) -> Accuracy:
    """The :class:`~models.core.claims.Accuracy` of validation rows (:func:`~models.xfolded_tm.experiments.
    validation_table`): the worst of their worst errors, every uncertain curve named
    (:meth:`Accuracy.combine`)."""
    unc = frame["uncertain"] if "uncertain" in frame else [""] * len(frame)
    return Accuracy.combine(Accuracy(float(w), u if isinstance(u, str) else "")
                            for w, u in zip(frame["worst |err| below 80%"], unc))


def _error_rows(claim: Claim, validation: pd.DataFrame, groups: Mapping[str, tuple], labels: Mapping[str, str],
                note_head: str) -> list:
    """Rows of an accuracy claim: per ``M``, network group and set-up, the worst error of
    :func:`accuracy_of` (both VC counts), cause ``"model"`` where it fails on a set-up that decides."""
    rows, closest = [], []
    for M in sorted(int(m) for m in validation["M"].unique()):
        for group, keys in groups.items():
            g = validation[(validation["M"] == M) & validation["key"].isin(keys)]
            for s in setups_in(g):
                run = g[(g["setup"] == s) & g["runnable"]]
                case = f"{labels[group]}, M = {M}"
                if run.empty:
                    rows.append(claim.row(CHAPTER, s, case=case))
                    continue
                acc = accuracy_of(run)
                outcome = row_outcome("error", worst_err=acc.worst, threshold=claim.threshold,
                                      stands_for=SETUPS[s].stands_for or "neither", uncertain=acc.uncertain)
                cause = "model" if SETUPS[s].decides and outcome == "fail" else "-"
                if SETUPS[s].decides and math.isfinite(acc.worst):
                    closest.append((acc.worst, f"{case}, '{s}'"))
                rows.append(claim.row(CHAPTER, s, case=case, sat_ratio=furthest_from_one(run["saturation ratio"]),
                                      cause=cause, **acc.fields()))
    tor = validation[(validation["key"] == "torus") & validation["runnable"] & (validation["setup"] == "booksim")]
    zero = ""
    if len(tor) and any(k == "torus" for keys in groups.values() for k in keys):
        z = tor["zero-load err"].to_numpy(dtype=float)
        zero = (f" The model has no router delay: on 'booksim' (BookSim 2's 5-cycle router, the paper's simulator) its "
                f"zero-load delay alone is {100 * z.min():+.0f}% to {100 * z.max():+.0f}% off (M = "
                f"{', '.join(str(int(m)) for m in sorted(tor['M'].unique()))}); 'booksim' runs the torus only "
                f"(up*/down* needs wait_for_tail_credit=1).")
    best = f" Closest case: {error_text(min(closest)[0])} ({min(closest)[1]})." if closest else ""
    fr = ", ".join(f"{f:.0%}" for f in ACCURACY_FRACTIONS)
    note = (f"{note_head} Worst |error| at {fr} of the simulated saturation over V = 2 and 8 per case and set-up "
            f"(tab-xfolded_tm-validation.csv); unbounded where the model is saturated there for every simulated "
            f"saturation load in the search's bracket, uncertain (deciding nothing) where its saturation lies inside "
            f"the bracket; the paper does not state M, so every M decides.{zero} 'model' is like for like; 'ours' "
            f"(one ejection channel) stands for neither and never decides.{best}")
    for r in rows:
        r["note"] = note
    return rows


def _accuracy_rows(validation: pd.DataFrame) -> list:
    """The four accuracy claims: within-5pct (torus; TM and x-Folded TM), abstract-accuracy (x-Folded TM, both
    readings), sec4-accurate and sec4-different-topologies (each network)."""
    net_labels = {key: TOPOLOGIES[key]["label"] for key in TOPOLOGIES}
    return (_error_rows(CLAIMS["within-5pct"], validation, ERROR_GROUPS, GROUP_LABELS, "The paper's 5%.")
            + _error_rows(CLAIMS["abstract-accuracy"], validation, XFOLDED_GROUPS, net_labels,
                          "'A significant degree of accuracy' has no number: an unbounded error fails it on a set-up "
                          "that stands for the paper or the model, any other row is shown.")
            + _error_rows(CLAIMS["sec4-accurate"], validation, NETWORK_GROUPS, net_labels,
                          f"'Accurate' is the paper's 5% (Sec. 5: '{ACCURATE_5PCT}'); the section's figures show "
                          f"the torus, TM and x-Folded TM.")
            + _error_rows(CLAIMS["sec4-different-topologies"], validation, NETWORK_GROUPS, net_labels,
                          f"'The accuracy' is the paper's 5% (Sec. 5: '{ACCURATE_5PCT}'), per topology."))


def _crit(name: str, holds) -> str:
    """The criterion of a fact row: ``name`` when it decided (``holds`` True or False), ``""`` when undecided."""
    return "" if holds is None else name


def similar(lo: float, hi: float, factor: float = SIMILAR_FACTOR) -> bool | None:
    """The criterion ``similar-factor`` on a ratio of two saturation rates known to lie in ``[lo, hi]``: True
    when the larger over the smaller is below ``factor`` for every ratio in the range, False when it is at least
    ``factor`` for every one, None when the range straddles the line (or a number is missing)."""
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo <= 0 or hi <= 0:
        return None
    lo, hi = min(lo, hi), max(lo, hi)
    if 1 / factor < lo and hi < factor:
        return True
    if lo >= factor or hi <= 1 / factor:
        return False
    return None


def _span(frame: pd.DataFrame) -> str:
    r = frame["ratio high/low"].to_numpy(dtype=float)
    r = r[np.isfinite(r)]
    return f"{r.min():.2f}x to {r.max():.2f}x" if r.size else "n/a"


def _vc_rows(vc: pd.DataFrame) -> list:
    """similar-saturation's first clause: saturation at the most over the fewest VCs, per ``M``: the paper's
    model (Theorem 1 as printed) and the simulated network per set-up and network decide (``similar-factor``,
    over the bisection brackets); the model with BFS distances is shown."""
    claim = CLAIMS["similar-saturation"]
    rows = []
    model = vc[(vc["setup"] == "-") & (vc["source"] == "model")]
    thm = vc[vc["source"] == THEOREM_SOURCE]
    sims = vc[(vc["source"] == "simulation") & np.isfinite(vc["ratio high/low"].to_numpy(dtype=float))]

    def rng(r):
        return (r.get("ratio lo", r["ratio high/low"]), r.get("ratio hi", r["ratio high/low"]))

    for M in sorted(int(m) for m in vc["M"].unique()):
        for _, r in thm[thm["M"] == M].iterrows():
            ok = similar(*rng(r))
            rows.append(claim.row(CHAPTER, "-", case=f"saturation: the paper's model (Thm 1 as printed), M = {M}",
                                  sat_ratio=float(r["ratio high/low"]), holds=ok, criterion=_crit("similar-factor", ok),
                                  cause="reading" if ok is False else "-"))
        m = model[model["M"] == M]
        if len(m):
            r = furthest_from_one(m["ratio high/low"])
            rows.append(claim.row(CHAPTER, "-", case=f"saturation: the model with BFS distances, M = {M}",
                                  sat_ratio=r, holds=similar(r, r), criterion=_crit("similar-factor", similar(r, r)), decides=False,
                                  shown_why="the book's model with each network's BFS distance in place of Theorem "
                                            "1: neither the paper's model (its figure) nor the network"))
    for s in setups_in(sims):
        for M in sorted(int(m) for m in sims["M"].unique()):
            for _, r in sims[(sims["setup"] == s) & (sims["M"] == M)].iterrows():
                ok = similar(*rng(r))
                cause = "model" if ok is False and SETUPS[s].decides else "-"
                rows.append(claim.row(CHAPTER, s, case=f"saturation: {r['network']}, M = {M}",
                                      sat_ratio=float(r["ratio high/low"]), holds=ok, criterion=_crit("similar-factor", ok),
                                      cause=cause))
    lo, hi = int(vc["V low"].iloc[0]), int(vc["V high"].iloc[0])
    return rows, (f"Saturation: sat_ratio is the saturation injection rate at V = {hi} over V = {lo} (not model over "
                  f"simulation; tab-xfolded_tm-vc-saturation.csv), 'similar' when the larger over the smaller is "
                  f"below {SIMILAR_FACTOR} over the whole range the bisection brackets allow (criterion "
                  f"similar-factor): the paper's model (Thm 1 as printed, x-Folded TM; the paper's figure) "
                  f"{_span(thm)} (the paper does not state M, so every M decides), the simulated networks "
                  f"{_span(sims)}, the model with BFS distances {_span(model)} (shown).")


def rank_text(g: pd.DataFrame) -> str:
    """``"V = 2: 3 lower, 0 higher of 4"``: per V, at how many rates x-Folded TM's delay is below TM's and the
    torus's beyond the noise, and above one of them beyond the noise."""
    return ", ".join(f"V = {int(r['V'])}: {int(r['lower beyond the 95% CIs'])} lower, "
                     f"{int(r['higher beyond the 95% CIs'])} higher of {int(r['rates compared'])}"
                     for _, r in g.sort_values("V").iterrows())


def _reading(reading: str) -> str:
    """A claims row's ``reading`` (the paper's text read one way; models.findings.verdicts.combine_readings):
    Definition 1 as printed or completed, the paper's model with Theorem 1 as printed; ``""`` for a row every
    reading shares."""
    return {"thm1": "the paper's model (Theorem 1 as printed)", **READING_LABELS}.get(reading, "")


def _delay_cause(reading: str, setup: str) -> str:
    """Why a delay row fails: Definition 1 as printed is the paper's text; the completed reading and the paper's
    model are the model's ("ours" never decides)."""
    if setup != "-" and not SETUPS[setup].decides:
        return "-"
    return "paper text" if reading == "printed" else "model"


def _delay_rows(claim: Claim, ranking: pd.DataFrame, column: str, prefix: str = "") -> tuple:
    """Rows of a delay claim from :func:`~models.xfolded_tm.ranking.ranking_table` rows (criterion
    ``lower-beyond-noise``, decided by ``column``), per ``V``: the paper's model (Theorem 1 as printed), the
    model per reading with BFS distances, the simulation per set-up and reading; and the parts of the note."""
    rows, parts = [], []
    order = {"thm1": 0, **{r: i + 1 for i, r in enumerate(READING_LABELS)}}
    model = ranking[ranking["setup"] == "-"]
    for reading in sorted(set(model["reading"]), key=lambda r: order.get(r, 9)):
        g = model[model["reading"] == reading].sort_values("V")
        name = ("the paper's model (x-Folded TM with Thm 1 as printed)" if reading == "thm1"
                else f"the model, {READING_LABELS[reading]}, BFS distances")
        for _, r in g.iterrows():
            ok = tri(r[column])
            rows.append(claim.row(CHAPTER, "-", case=f"{prefix}{name}, V = {int(r['V'])}", holds=ok,
                                  criterion=_crit("lower-beyond-noise", ok), reading=_reading(reading),
                                  cause=_delay_cause(reading, "-") if ok is False else "-"))
        parts.append(f"{name} {rank_text(g)}")
    sim = ranking[(ranking["setup"] != "-") & (ranking["source"] == "sim")]
    for s in SETUPS:
        for reading, label in READING_LABELS.items():
            g = sim[(sim["setup"] == s) & (sim["reading"] == reading)].sort_values("V")
            if g.empty:
                if len(sim) and unsupported("tm", 2, s):  # a set-up that cannot run TM or x-Folded TM: not judged
                    rows.append(claim.row(CHAPTER, s, case=f"{prefix}{label}"))
                continue
            for _, r in g.iterrows():
                ok = tri(r[column])
                rows.append(claim.row(CHAPTER, s, case=f"{prefix}{label}, V = {int(r['V'])}", holds=ok,
                                      criterion=_crit("lower-beyond-noise", ok), reading=_reading(reading),
                                      cause=_delay_cause(reading, s) if ok is False else "-"))
            parts.append(f"the simulation on '{s}', {label}, {rank_text(g)}")
    return rows, parts


def _distance_why(distances: pd.DataFrame | None) -> str:
    if distances is None or not (distances["k"] == PAPER_K).any():
        return ""
    d = distances[distances["k"] == PAPER_K].iloc[0]
    return (f" With Theorem 1 as printed the model puts x-Folded TM n AD_8 = {float(d['AD Thm 1 printed']):.2f} "
            f"hops across, against {float(d['AD xfolded printed']):.2f} (as printed) and "
            f"{float(d['AD xfolded completed']):.2f} (completed) by BFS (tab-xfolded_tm-distances.csv): it shows "
            f"x-Folded TM fastest for that reason, not for the network's.")


def _lowest_note(parts: list, why: str, until: bool = False) -> str:
    where = ("at every injection rate of the delay figure up to x-Folded TM's saturation ('until the saturation "
             "time')" if until else "at every injection rate of the delay figure (saturated: infinite delay)")
    return (f"Delay figure (M = 32; tab-xfolded_tm-ranking.csv): x-Folded TM below both TM and the torus beyond the "
            f"noise {where}, criterion lower-beyond-noise (simulated delays with their 95% CIs; a rate within the "
            f"noise decides nothing; the model has no noise): {'; '.join(parts)}.{why} 'booksim' runs the torus "
            f"only; 'ours' stands for neither. The completed reading has "
            f"{network('xfolded_completed', PAPER_K).n_nodes} nodes against 64.")


def _similar_rows(vc: pd.DataFrame | None, ranking: pd.DataFrame | None, distances: pd.DataFrame | None) -> list:
    """similar-saturation, both clauses of the sentence: the saturation at 2 and 8 VCs (:func:`_vc_rows`) and
    x-Folded TM's lower delay against the torus and TM (:func:`_delay_rows`, every rate of the figure)."""
    rows, notes = [], []
    if vc is not None and not vc.empty:
        r, n = _vc_rows(vc)
        rows, notes = rows + r, notes + [n]
    if ranking is not None and not ranking.empty:
        r, parts = _delay_rows(CLAIMS["similar-saturation"], ranking, "lower beyond noise", "lower delay: ")
        rows += r
        notes.append("Lower delay (the sentence's second clause): " + _lowest_note(parts, _distance_why(distances)))
    for r in rows:
        r["note"] = " ".join(notes)
    return rows


def _lowest_rows(ranking: pd.DataFrame, distances: pd.DataFrame | None, claim_id: str = "lowest-delay") -> list:
    """lowest-delay (every rate) or figures-lower-delay (up to x-Folded TM's saturation), per ``V``."""
    until = claim_id == "figures-lower-delay"
    column = "lower beyond noise before saturation" if until else "lower beyond noise"
    rows, parts = _delay_rows(CLAIMS[claim_id], ranking, column)
    head = ("" if until else "The claim is about the model ('The mathematical results indicate') and what it "
            "indicates of the network: both decide. ")
    note = head + _lowest_note(parts, _distance_why(distances), until)
    for r in rows:
        r["note"] = note
    return rows


def _outperform_rows(table: pd.DataFrame) -> list:
    """outperform-similar-size ("can": one pass holds): per set-up and reading, throughput (``beyond-brackets``,
    over every V and M) and delay (``lower-beyond-noise``, over both V)."""
    claim = CLAIMS["outperform-similar-size"]
    rows, parts = [], []
    for s in setups_in(table):
        for reading, label in READING_LABELS.items():
            for measure in ("throughput", "delay"):
                g = table[(table["setup"] == s) & (table["reading"] == reading) & (table["measure"] == measure)]
                if g.empty:
                    continue
                d = [tri(x) for x in g["decided"]]
                ok = True if any(x is True for x in d) else False if all(x is False for x in d) else None
                cause = "paper text" if ok is False and SETUPS[s].decides else "-"
                rows.append(claim.row(CHAPTER, s, case=f"{measure}, {label}", holds=ok, cause=cause,
                                      reading=_reading(reading),
                                      criterion=_crit("beyond-brackets" if measure == "throughput" else
                                                      "lower-beyond-noise", ok)))
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
                    parts.append(f"'{s}', {label}: delay below both beyond the noise at {detail} of the rates")
    missing = [s for s in SETUPS if s not in set(table["setup"])]
    note = ("'Can outperform' (some case suffices) is read as: in some configuration of the paper (8x8, V = 2 or 8, "
            "any M), x-Folded TM's simulated saturation rate is above TM's and the torus's beyond the bisection "
            "brackets (throughput, criterion beyond-brackets), or its delay below both beyond the 95% CIs at every "
            "rate of the delay figure (delay, criterion lower-beyond-noise) (tab-xfolded_tm-outperform.csv): "
            + "; ".join(parts) + ". 'A similar network size': the 8x8 torus and TM have 64 nodes, x-Folded TM "
            f"{network('xfolded_printed', PAPER_K).n_nodes}."
            + (f" Not simulated on {', '.join(repr(s) for s in missing)} (BookSim's router runs the torus only)."
               if missing else "") + " The sentence's 'low diameter' is judged under low-diameter-short-distance.")
    for r in rows:
        r["note"] = note
    return rows


def _thm2_rows(table: pd.DataFrame) -> list:
    """thm2 from :func:`~models.xfolded_tm.channels.theorem2_rows`: the unidirectional 8-ary 2-cube of [8] and
    the paper's bidirectional 8x8 torus decide; other k and n are other configurations (criterion ``exact``)."""
    claim = CLAIMS["thm2"]
    rows = []
    for _, r in table.iterrows():
        uni = str(r["network"]).startswith("unidirectional")
        case = f"{r['network']}" if uni else f"bidirectional {r['network']} (n = 2)"
        rows.append(claim.row(CHAPTER, "-", case=case, paper_config=bool(r["paper size"]), holds=bool(r["holds"]),
                              criterion="exact", cause="-" if r["holds"] else "paper text"))
    uni = table[table["network"].astype(str).str.startswith("unidirectional")]
    bi = table[~table["network"].astype(str).str.startswith("unidirectional")]
    at = bi[bi["paper size"].astype(bool)]
    note = (f"C_j of eq. (8) as printed against the channels a shortest path from a node crosses as its j-th hop, "
            f"counted by breadth-first search (tab-xfolded_tm-theorem2.csv): on the unidirectional k-ary n-cube of "
            f"[8] it holds for {int(uni['holds'].sum())} of {len(uni)} (k, n) "
            f"(k = {', '.join(str(int(k)) for k in sorted(set(uni['k'])))}); on the bidirectional torus, the paper's "
            f"'Torus', it holds for {int(bi['holds'].sum())} of {len(bi)} k"
            + (f" (k = {PAPER_K}: {at['evidence'].iloc[0]})" if len(at) else "") +
            ". The paper states it for 'a k-ary n-cube' without saying unidirectional; its model (eqs. 2-11) does "
            "not use C_j.")
    for r in rows:
        r["note"] = note
    return rows


def _eq6_rows(table: pd.DataFrame) -> list:
    """eq6-channel-rate from :func:`~models.xfolded_tm.channels.eq6_rows`: per network of the delay figure (BFS
    ``AD_k``) and x-Folded TM with Theorem 1's ``AD_k`` (the paper's text), criterion ``exact``."""
    claim = CLAIMS["eq6-channel-rate"]
    rows = []
    for _, r in table.iterrows():
        thm = r["key"] == "xfolded_thm1"
        case = f"{r['network']}" + ("" if thm else ", AD_k by BFS")
        cause = "-" if r["holds"] else ("paper text" if thm else "model")
        rows.append(claim.row(CHAPTER, "-", case=case, holds=bool(r["holds"]), criterion="exact", cause=cause))
    note = ("Eq. (6) against the mean channel rate the text before it defines (the total channel rates over the "
            "number of channels), counted on each 8x8 network under uniform traffic with every message split evenly "
            "over its shortest paths (tab-xfolded_tm-eq6.csv), per unit lambda: "
            + "; ".join(f"{r['network']}: {r['evidence']}" for _, r in table.iterrows())
            + ". Eq. (6) divides by 2n = 4 channels per node: exact on the torus, too low where a network has fewer "
              "channels (the solver's channel_rate='links' corrects it).")
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
                                      holds=bool(r["holds"]), criterion="exact", reading=_reading(reading),
                                      cause="-" if r["holds"] else causes.get(reading, "paper text"),
                                      note=f"{label + ' ' if label else ''}at k = {PAPER_K}: {r['evidence']}"))
            rest = g[g["k"] != PAPER_K]
            for ok, h in rest.groupby("holds", sort=False):
                ks = k_ranges(h["k"])
                worst = h.iloc[-1] if ok or len(h) > 1 else h.iloc[0]
                rows.append(claim.row(CHAPTER, "-", case=f"{label}, k = {ks}" if label else f"k = {ks}",
                                      paper_config=False, holds=bool(ok), criterion="exact", reading=_reading(reading),
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
                      criterion="exact", cause="-" if ok else "paper text",
                      note=f"The least-squares line through k = {k_ranges(PROP1_FIT_KS)} has a_1 = {a1:.6f}, "
                           f"a_2 = {a2:.6f}" + (", the printed coefficients to their four decimals" if ok else ""))]
    rows += _topology_rows(claim, checks, {"prop1": ""}, {})
    return _with_common_note(rows, (
        "Proposition 1 is a linear fit of Definition 1's node counts (N = k^2); N' is read as a node count, its "
        f"nearest integer (tab-xfolded_tm-distances.csv). The count is k^2 - 3(k - 4) for k >= 6, so the fit drifts "
        "beyond the radices it was fitted to."))


def claims_table(validation: pd.DataFrame, vc: pd.DataFrame | None = None, ranking: pd.DataFrame | None = None,
                 topology: pd.DataFrame | None = None, *, distances: pd.DataFrame | None = None,
                 outperform: pd.DataFrame | None = None, theorem2: pd.DataFrame | None = None,
                 eq6: pd.DataFrame | None = None) -> pd.DataFrame:
    """The chapter's claims table: rows of :meth:`Claim.row` for the claims of :data:`CLAIMS`, one per sentence,
    in their order.

    One row per claim, set-up and case (a network group and message length,
    a reading of Definition 1 and a radix, ...), the columns
    :data:`~models.core.claims.CLAIM_COLUMNS`; written with
    :func:`models.core.claims.save_claims` (``setups=SETUPS``).  Built only
    from the chapter's tables:

    * ``validation`` (:func:`~models.xfolded_tm.experiments.validation_table`): the accuracy claims
      (kind ``error``): ``within-5pct`` (the paper's "less than 5%", per
      network group :data:`ERROR_GROUPS`), ``sec4-accurate`` and
      ``sec4-different-topologies`` (the same 5%, which Sec. 5 gives
      "accurate", per network), ``abstract-accuracy`` (no number: only an
      unbounded error fails it; x-Folded TM's readings), per set-up and
      ``M``: :func:`accuracy_of` (:func:`~models.core.claims.accuracy_below`
      over both VC counts, "uncertain" inside the saturation bracket);
      ``sat_ratio`` the model / simulated saturation ratio furthest from 1.
      Cause ``"model"`` where it fails on a set-up that decides (on
      ``booksim``: the model has no router delay).
    * ``vc`` (:func:`~models.xfolded_tm.experiments.vc_saturation_table`) and ``ranking``:
      ``similar-saturation`` (kind ``fact``): the saturation at the most over
      the fewest VCs, criterion ``similar-factor`` (:func:`similar`, over the
      bisection brackets), deciding for the paper's model (Theorem 1 as
      printed) and each simulated network on a deciding set-up, shown for the
      model with BFS distances; and its second clause, the lower delay.
    * ``ranking`` (:func:`~models.xfolded_tm.ranking.ranking_table` and
      :func:`~models.xfolded_tm.ranking.paper_model_ranking` rows):
      ``lowest-delay`` (every rate) and ``figures-lower-delay`` (up to
      x-Folded TM's saturation), kind ``fact``, criterion
      ``lower-beyond-noise``, per ``V``: the paper's model, the model per
      reading of Definition 1, and the simulation per set-up and reading;
      ``distances`` (:func:`~models.xfolded_tm.topology.distance_table`) adds why the paper's model shows it.
    * ``topology`` (:func:`~models.xfolded_tm.topology.topology_checks`): ``prop1``, ``thm1``, ``lemma1``
      and ``low-diameter-short-distance`` (kind ``fact``, criterion
      ``exact``), per reading of Definition 1; ``k = 8`` decides, the other
      radices are cases beyond the paper's configuration (``paper_config=False``).
    * ``outperform`` (:func:`~models.xfolded_tm.ranking.outperform_table`): ``outperform-similar-size``
      (kind ``fact``, "can": some case suffices): per set-up and reading,
      throughput (``beyond-brackets``, some V and M) and delay
      (``lower-beyond-noise``, some V).
    * ``theorem2`` (:func:`~models.xfolded_tm.channels.theorem2_rows`): ``thm2``; ``eq6``
      (:func:`~models.xfolded_tm.channels.eq6_rows`): ``eq6-channel-rate`` (criterion ``exact``).

    The verdict is not here: the findings chapter computes it from these
    numbers by one rule (:mod:`models.findings.verdicts`).
    """
    rows = _accuracy_rows(validation)
    rows += _similar_rows(vc, ranking, distances)
    if ranking is not None and not ranking.empty:
        rows += _lowest_rows(ranking, distances)
        rows += _lowest_rows(ranking, distances, "figures-lower-delay")
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
    if theorem2 is not None and not theorem2.empty:
        rows += _thm2_rows(theorem2)
    if eq6 is not None and not eq6.empty:
        rows += _eq6_rows(eq6)
    rank = {cid: i for i, cid in enumerate(CLAIMS)}
    rows = sorted(rows, key=lambda r: rank[r["claim_id"]])  # stable: each claim's rows keep their order
    return claims_frame(rows)
