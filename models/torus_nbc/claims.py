"""The paper's claims, one per sentence (:data:`CLAIMS`), and the claims table of what the book measures.

:func:`claims_table` builds one row per claim, simulator set-up and case
(:meth:`models.core.claims.Claim.row`) from the analysis tables of
:mod:`models.torus_nbc.experiments`: the error table (``latency-accuracy``,
``saturation-discrepancy``), the gap split, the variance test
(``variance-explanation``), the routing comparison (``duato-nbc-best``), the
deadlock check and the VC requirements (``duato-nbc-methodology``), the
channel balance of :mod:`models.torus_nbc.channels` (``even-traffic``) and
the error table again for the Conclusions' wider sentence
(``good-agreement``); :data:`CONSIDERED` lists the checkable sentences read
and not judged, with the reason.  The notebook writes it with :func:`models.core.claims.save_claims`
(``setups=SETUPS`` of :mod:`models.torus_nbc.setups`); the findings chapter
reads it.  A saturation ratio that stands for several curves is
:func:`models.core.claims.furthest_from_one`'s.
"""

from __future__ import annotations

import math

import pandas as pd

from ..core import criteria
from ..core.atlas_claims import WideClaim
from ..core.claims import Claim, Considered, bracket_status, claims_frame, furthest_from_one
from ..core.setups import ACCURACY_FRACTIONS
from .experiments import CLASS1_ACYCLIC, ROUTINGS, SATURATED_FROM, UNCERTAIN, WORST, value_range, worst_gap_row

__all__ = ["CHAPTER", "CLAIMS", "CONSIDERED", "ATLAS_CLAIMS", "claims_table"]

#: The chapter's slug, as the claims table names it.
CHAPTER = "torus_nbc"

#: The paper's claims, one per sentence, quoted whole (Safaei et al. 2007), in the order of the claims table.
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("latency-accuracy", "Sect. 4",
          "The figure indicates that the analytical model predicts the mean message latency with a good degree of "
          "accuracy in all regions.", "error", quantifier="all", quantifier_quote="in all regions"),
    Claim("saturation-discrepancy", "Sect. 4",
          "However, some discrepancies around the saturation point are apparent.", "fact",
          quantifier="some", quantifier_quote="some"),
    Claim("variance-explanation", "Sect. 4",
          "This is a result of the approximations made when constructing the analytical model, e.g. the "
          "approximation used to estimate the variance of the service time distribution at a channel.", "fact",
          quantifier="all"),
    Claim("duato-nbc-best", "Sect. 2.1",
          "Investigations showed that Duato-Nbc has a better performance compared to other algorithms reported in "
          "the literature and the other algorithms proposed in [4].", "fact", quantifier="all"),
    Claim("duato-nbc-methodology", "Sect. 2.1",
          "In [5], the Nbc routing scheme has been used in the context of Duato\u2019s methodology [6] and a routing "
          "algorithm, named Duato-Nbc with high performance and minimum virtual channel requirements was resulted.",
          "fact", quantifier="one"),
    Claim("even-traffic", "Sect. 3.2.1",
          "Fully adaptive routing allows a message to use any available channel that brings it closer to its "
          "destination resulting in an evenly distributed traffic rate on all network channels.", "fact",
          quantifier="all"),
    Claim("good-agreement", "Sect. 5",
          "Simulation experiments have revealed that the message latency results predicted by the analytical model "
          "are in good agreement with those obtained through simulation under different working conditions.",
          "error", quantifier="all", quantifier_quote="under different working conditions"),
)}

#: The paper's main claim (the Conclusions' good agreement).
#: The chapter opens with its verdict (:func:`models.findings.verdicts.main_claim_text`).
MAIN_CLAIM = "good-agreement"

#: The sentences whose scope covers the chapter's accuracy atlas (:mod:`models.core.atlas_claims`), judged there
#: too: the Conclusions' "good agreement ... under different working conditions".
ATLAS_CLAIMS = {"good-agreement": WideClaim(CLAIMS["good-agreement"], "under different working conditions")}

#: Checkable sentences of the paper the book read and does not judge, with the reason.
CONSIDERED: tuple[Considered, ...] = (
    Considered("Sect. 2.1", "Recently, several fully adaptive routing algorithms on tori have been evaluated in [5] "
               "of which the one using Negative Hop-based (NHop) deadlock free routing augmented with a new idea "
               "called bonus cards (Nbc) has been shown to have the best performance.",
               "a result of [5], whose algorithms, set-ups and metric the book does not have; the next sentences "
               "(duato-nbc-methodology, duato-nbc-best) are judged"),
    Considered("Sect. 3.1", "This number of virtual channels yields the optimal performance compared to the other "
               "schemes proposed in [4].",
               "names the schemes of [4] (Boppana & Chalasani), which the book does not have; the chapter's split "
               "table compares the splits of V for the model only, not [4]'s schemes"),
    Considered("Sect. 3.2.1", "A PE generates, on average, \u03bbg messages in a cycle, which are evenly "
               "distributed among the 4 output channels.",
               "the same property as even-traffic (the sentence before it), at a node's four output channels: "
               "even-traffic's rows measure every channel, those four included"),
    Considered("Sect. 4", "Numerous experiments are conducted for different sizes of the network, virtual "
               "channels, and message lengths to assess the accuracy of the analytical model.",
               "describes the authors' work, whose other experiments are not shown; good-agreement judges the "
               "accuracy over every condition the chapter simulates"),
    Considered("Sect. 4", "This approximation greatly simplifies the model by avoiding the computation of the "
               "exact distribution of the message service time at a given channel.",
               "about how the model was built (simpler), not about its results: nothing to measure"),
    Considered("Sect. 5", "We showed that the proposed model manages to achieve a good degree of accuracy while "
               "maintaining simplicity, making it a practical evaluation tool that can be used by the researchers "
               "in the field to gain insight into the performance behavior of fully adaptive routings in "
               "wormhole-switched torus networks.",
               "a restatement of latency-accuracy (\"a good degree of accuracy\", the same phrase) and of "
               "good-agreement; \"simplicity\" and \"practical\" have no check"),
)


def _case(curve: str) -> str:
    """``"8x8, M=32"`` -> ``"8x8, M = 32"`` (a claims row's case)."""
    return curve.replace("M=", "M = ")


def _accuracy_rows(errors: pd.DataFrame, gaps: pd.DataFrame | None, claim_id: str = "latency-accuracy",
                   scope: str = "") -> list:
    """Rows of an accuracy claim (kind ``error``): per curve and set-up, the worst error at 25/50/75 % of the
    simulated saturation rate (:data:`WORST`, ``inf``: unbounded) and whether it is uncertain (:data:`UNCERTAIN`);
    ``scope`` is said first in every note."""
    claim = CLAIMS[claim_id]
    rows = []
    for _, e in errors.iterrows():
        setup, curve = e["setup"], e["curve"]
        w = float(e[WORST])
        if setup == "paper":
            how = ("one ejection VC, the network the paper's text describes (Sect. 3.1): the model omits the wait "
                   "for it, so the gap is the model's")
            r = None if gaps is None else worst_gap_row(gaps[gaps["curve"] == curve])
            if r is not None:
                how += (f"; at {r['fraction']:.0%} of the simulated saturation rate its "
                        f"{float(r['gap, paper set-up']):+.1f} cycles are {float(r['of which the model']):+.1f} with "
                        f"V ejection VCs and {float(r['of which the ejection set-up']):+.1f} from the single "
                        f"ejection VC, tab-torus_nbc-gaps.csv")
        else:
            how = "V ejection VCs, as the model assumes"
            if math.isinf(w):
                how += (f": the model is saturated from {float(e[SATURATED_FROM]):.0%} of the simulated saturation "
                        f"rate (model / simulated saturation {float(e['saturation ratio']):.3f})")
        rows.append(claim.row(CHAPTER, setup, case=_case(curve), worst_err=w, sat_ratio=float(e["saturation ratio"]),
                              uncertain=str(e.get(UNCERTAIN, "") or ""), cause="-" if math.isnan(w) else "model",
                              note=(scope + f"{_case(curve)}, {setup} set-up: {how} (tab-torus_nbc-errors.csv)"
                                    ).replace("csv (tab-", "csv; tab-") + "."))
    return rows


def _named(criterion: str, holds) -> str:
    """The criterion a fact row names: the one that decided it, none when it is undecided (``holds`` None)."""
    return "" if holds is None else criterion


def _bracket(e) -> tuple:
    return float(e["sim saturation lo"]), float(e["sim saturation hi"])


def _exists(e) -> bool | None:
    """A discrepancy at the saturation point beyond the noise: the model's saturation rate (solved, no noise)
    outside the simulated search's bracket (criterion ``beyond-brackets``); None inside it."""
    lo, hi = _bracket(e)
    mid, half, ms = (lo + hi) / 2, (hi - lo) / 2, float(e["model saturation"])
    above, below = criteria.higher(ms, 0.0, mid, half), criteria.lower(ms, 0.0, mid, half)
    return True if (above or below) else None


def _around(e) -> tuple:
    """``(holds, the fractions where the model is saturated)``: criterion ``around-saturation``: False when the
    model is saturated at one of the fixed fractions for every simulated saturation rate in the bracket, None
    when that depends on the bracket, True otherwise."""
    status = {f: bracket_status(float(e["model saturation"]), _bracket(e), f) for f in ACCURACY_FRACTIONS}
    hit = [f for f, st in status.items() if st == "unbounded"]
    if hit:
        return False, hit
    return (None if "uncertain" in status.values() else True), hit


def _saturation_rows(errors: pd.DataFrame) -> list:
    claim = CLAIMS["saturation-discrepancy"]
    per = "; ".join(f"{value_range(g['saturation ratio'], '.3f')} on the {s} set-up"
                    for s, g in errors.groupby("setup", sort=False))
    far = furthest_from_one(errors["saturation ratio"])
    head = (f"Model / simulated saturation rate {per} (tab-torus_nbc-errors.csv): the discrepancies are far larger "
            f"than 'some', up to a factor of {max(far, 1 / far):.2f}" if math.isfinite(far)
            else "No simulated saturation rate")
    rows = []
    for _, e in errors.iterrows():
        setup, case = e["setup"], _case(e["curve"])
        lo, hi = _bracket(e)
        ms, ratio = float(e["model saturation"]), float(e["saturation ratio"])
        exists = _exists(e)
        rows.append(claim.row(
            CHAPTER, setup, case=f"{case}, a discrepancy at the saturation point", sat_ratio=ratio, holds=exists,
            criterion=_named("beyond-brackets", exists), cause="-",
            note=(f"{head}. {case}, {setup} set-up: the model saturates at {ms:.5f} messages/node/cycle, the "
                  f"simulation within [{lo:.5f}, {hi:.5f}] (its search's bracket): "
                  + ("a discrepancy beyond the bracket." if exists else "within the bracket, no discrepancy the "
                                                                        "search resolves."))))
        around, hit = _around(e) if exists else (None, [])
        where = ("no discrepancy the search resolves, so none to place" if not exists else
                 f"the model is already saturated at {', '.join(f'{f:.0%}' for f in hit)} of the simulated "
                 f"saturation rate for every rate in its bracket: the discrepancy starts well below the saturation "
                 f"point, not around it" if around is False else
                 "whether the model is saturated at 25/50/75% of the simulated saturation rate depends on where in "
                 "the bracket it is" if around is None else
                 "the model is not saturated at 25, 50 or 75% of the simulated saturation rate: the discrepancy in "
                 "saturation lies above 75% of it (the finite latency errors below it are latency-accuracy's)")
        rows.append(claim.row(
            CHAPTER, setup, case=f"{case}, around the saturation point", sat_ratio=ratio, holds=around,
            criterion=_named("around-saturation", around), cause="model" if around is False else "-",
            note=f"{head}. {case}, {setup} set-up (model / simulated saturation {ratio:.3f}): {where}."))
    return rows


def _variance_rows(variance: pd.DataFrame) -> list:
    claim = CLAIMS["variance-explanation"]
    rows = []
    for _, v in variance.iterrows():
        z, p, e = (float(v[f"model saturation, {x}"]) for x in ("zero", "paper", "exponential"))
        reach = bool(v["within reach"])
        rows.append(claim.row(
            CHAPTER, v["setup"], case=_case(v["curve"]), holds=reach, criterion="within-bracket",
            cause="-" if reach else "paper text",
            note=(f"{_case(v['curve'])}, {v['setup']} set-up: with the service-time variance of eqs. (18)-(19) at 0, "
                  f"the paper's (S-M)^2 and S^2 (exponential) the model saturates at {z:.5f}, {p:.5f} and {e:.5f} "
                  f"messages/node/cycle, the simulation at {float(v['sim saturation lo']):.5f} to "
                  f"{float(v['sim saturation hi']):.5f}: "
                  + ("within reach" if reach else "out of reach of any variance from deterministic to exponential "
                                                 "service")
                  + " (tab-torus_nbc-variance.csv; the sentence's other 'approximations' are not named, so only its "
                    "example is tested).")))
    return rows


_BEST_SHOWN = ("a reading of the book's: the paper names no metric for 'better performance', and [5]'s algorithms "
               "and comparison are not given, so the book's readings against the routings it simulates are not the "
               "paper's claim as printed")


def _latency_holds(g: pd.DataFrame) -> bool:
    """Duato-Nbc's mean latency below every other routing's beyond both 95% CIs at more than half of the rates
    (criterion ``more-than-half`` of ``lower-beyond-noise``; the table counts ``lower beyond the CIs``)."""
    return all(criteria.more_than_half([True] * int(h["lower beyond the CIs"].sum())
                                       + [None] * int(h["rates"].sum() - h["lower beyond the CIs"].sum()))
               for _, h in g.groupby("routing", sort=False))


def _best_rows(routing: pd.DataFrame | None, latency: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-best"]
    rows = [claim.row(CHAPTER, "-", case="as printed: [5]'s comparison", cause="reading",
                      note=("[5]'s result, over [5]'s algorithms and metric, which this paper does not state and the "
                            "book does not have: not checkable as printed; the book's two readings against the "
                            "routings it simulates are shown beside it, not deciding."))]
    setups = list(dict.fromkeys((list(routing["setup"]) if routing is not None else [])
                                + (list(latency["setup"]) if latency is not None else [])))
    for setup in setups:
        if routing is not None and (routing["setup"] == setup).any():
            r = routing[routing["setup"] == setup].iloc[0]
            ahead, behind, n = int(r["ahead"]), int(r["behind"]), int(r["curves"])
            holds = True if n and ahead == n else False if behind else None
            rows.append(claim.row(
                CHAPTER, setup, case="read as a higher saturation rate", holds=holds, criterion=_named("beyond-brackets", holds),
                cause="reading", decides=False, shown_why=_BEST_SHOWN,
                note=(f"Saturation rate, {setup} set-up: Duato-Nbc ahead of every other routing beyond the "
                      f"bisection's bracket on {ahead} of {n} curves, behind on {behind}, at worst "
                      f"{float(r['worst ratio']):.3f} times {r['best other']}'s rate "
                      f"(tab-torus_nbc-routing-verdicts.csv).")))
        if latency is not None and (latency["setup"] == setup).any():
            g = latency[latency["setup"] == setup]
            detail = "; ".join(
                f"lower than {ROUTINGS.get(o, o)} at {int(h['Duato-Nbc lower'].sum())} of {int(h['rates'].sum())} "
                f"rates ({int(h['lower beyond the CIs'].sum())} beyond the CIs, higher beyond them at "
                f"{int(h['higher beyond the CIs'].sum())})" for o, h in g.groupby("routing", sort=False))
            rows.append(claim.row(
                CHAPTER, setup, case="read as a lower mean latency", holds=_latency_holds(g),
                criterion="more-than-half", cause="reading", decides=False, shown_why=_BEST_SHOWN,
                note=(f"Mean latency at the same rates, {setup} set-up, over the curves: Duato-Nbc {detail} "
                      f"(tab-torus_nbc-routing-latency.csv); it holds when Duato-Nbc is lower beyond the CIs at "
                      f"more than half of the rates against every other routing.")))
    return rows


_FLOOR_SHOWN = ("the book's bookkeeping of the escape floor, chosen for the simulator because it is deadlock-free "
                "(the paper's class 1 is not): not independent evidence that the paper's routing is")


def _deadlock_rows(cdg: pd.DataFrame) -> list:
    claim = CLAIMS["duato-nbc-methodology"]
    rows = []
    for _, c in cdg.iterrows():
        k, v = int(c["k"]), int(c["vcs"])
        ok = bool(c["acyclic"])
        rows.append(claim.row(
            CHAPTER, "-", case=f"Duato's methodology, {k}x{k}, the book's escape floor", holds=ok, criterion="exact",
            cause="-" if ok else "paper text", decides=False, shown_why=_FLOOR_SHOWN,
            note=(f"Duato's methodology [6]: the extended channel dependency graph of the escape VCs, built from the "
                  f"simulator's routing tables, is {'acyclic' if ok else 'cyclic'} on {k}x{k} with V = {v} "
                  f"(tab-torus_nbc-cdg.csv) under the book's bookkeeping, which raises a message's escape floor "
                  f"after every negative hop, adaptive or not.")))
        if CLASS1_ACYCLIC in c and not pd.isna(c[CLASS1_ACYCLIC]):
            ok1 = bool(c[CLASS1_ACYCLIC])
            rows.append(claim.row(
                CHAPTER, "-", case=f"Duato's methodology, {k}x{k}, the paper's class 1", holds=ok1,
                criterion="exact", cause="-" if ok1 else "paper text",
                note=(f"The routing as the paper's model describes it: a message that arrives on an adaptive VC may "
                      f"use every escape level its distance allows (class 1, eqs. (12)-(13)), i.e. its escape floor "
                      f"resets after an adaptive hop.  The extended escape CDG (same tables and construction, "
                      f"reachable header states over-approximated) is {'acyclic' if ok1 else 'cyclic'} on "
                      f"{k}x{k} with V = {v} (tab-torus_nbc-cdg.csv, column '{CLASS1_ACYCLIC}')"
                      + ("" if ok1 else ": Duato's condition for deadlock freedom, the methodology the sentence "
                                        "names, is not met") + ".")))
    return rows


def _methodology_rows(cdg: pd.DataFrame | None, vcs: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-methodology"]
    rows = _deadlock_rows(cdg) if cdg is not None else []
    if vcs is not None:
        for _, v in vcs.iterrows():
            ok = int(v["duato_nbc"]) <= int(v["fewest other fully adaptive"])
            rows.append(claim.row(
                CHAPTER, "-", case=f"minimum virtual channel requirements, {v['torus']}", holds=ok, criterion="exact",
                cause="-" if ok else "paper text",
                note=(f"Fewest VCs per physical channel for deadlock freedom on the {v['torus']} bidirectional torus "
                      f"(the simulator's min_vcs): Duato-Nbc {int(v['duato_nbc'])} (k/2 + 1 escape levels and one "
                      f"adaptive VC), Nbc alone {int(v['nbc'])}, Duato's routing with dateline escape VCs "
                      f"{int(v['duato'])}, dimension order {int(v['dor'])} (tab-torus_nbc-vc-requirements.csv); it "
                      f"holds when Duato-Nbc needs no more than the other fully adaptive routings.")))
    if rows:
        rows.append(claim.row(CHAPTER, "-", case="high performance", cause="reading",
                              note="'High performance' names no metric: see duato-nbc-best for the numbers."))
    return rows


def _even_rows(balance: pd.DataFrame) -> list:
    claim = CLAIMS["even-traffic"]
    rows = []
    for _, b in balance.iterrows():
        eq = b["equal"]
        holds = None if eq is None or (isinstance(eq, float) and math.isnan(eq)) else bool(eq)
        ties = _ties_explain(b)
        rows.append(claim.row(
            CHAPTER, b["setup"], case=_case(b["curve"]), holds=holds, criterion=_named("equal-beyond-noise", holds),
            cause="unexplained" if holds is False else "-",
            note=(f"{_case(b['curve'])}, {b['setup']} set-up, at {float(b['fraction']):.0%} of the simulated "
                  f"saturation rate ({float(b['rate']):.5f} messages/node/cycle), {int(b['runs'])} independently "
                  f"seeded runs (seeds {b['seeds']}), {int(b['channels'])} channels, mean load "
                  f"{float(b['mean load']):.4f} flits/cycle: the spread every run shares is {float(b['sys cv']):.2%} "
                  f"of the mean (variance {float(b['sys var']):.2e} against a standard error {float(b['sys var se']):.1e}"
                  f"; raw spread {float(b['raw cv']):.2%} with the counting noise, largest deviation "
                  f"{float(b['max dev']):.1%}); by class, the highest mean ({b['highest class']}) is "
                  f"{float(b['class max / min']):.3f} times the lowest ({b['lowest class']}), + / - "
                  f"{float(b['plus / minus']):.3f}, x / y {float(b['x / y']):.3f}, channels leaving colour-1 nodes "
                  f"(negative hops) / the others {float(b['negative / non-negative']):.3f}; with each run's + and - "
                  f"channels divided by their own mean the shared spread is {float(b['sys cv within +/-']):.2%}"
                  + (" and equal within the noise: the + / - split accounts for the spread; under minimal routing it "
                     "can only come from how the simulator breaks ties at the offset k/2 (both directions minimal; "
                     "the paper says nothing of ties), but the ideal router's order of the minimal ports at a tie, "
                     "which split them while it was a rotation, is fair now (tests/sim/test_wormhole_tie_order.py): "
                     "unexplained" if ties else "")
                  + " (tab-torus_nbc-channel-balance.csv).")))
    return rows


def _ties_explain(b) -> bool:
    """Whether the + / - split accounts for the channels' spread: + / - above 1 beyond its 95% half width over
    the independent runs (criterion ``lower-beyond-noise``'s comparison) and the spread left within the two
    directions equal beyond the noise (``equal-beyond-noise``)."""
    pm, half = float(b["plus / minus"]), float(b["plus / minus half"])
    return bool(criteria.higher(pm, half, 1.0, 0.0)) and b["equal within +/-"] is True


def claims_table(errors: pd.DataFrame, *, gaps: pd.DataFrame | None = None, variance: pd.DataFrame | None = None,
                 routing: pd.DataFrame | None = None, routing_latency: pd.DataFrame | None = None,
                 cdg: pd.DataFrame | None = None, vcs: pd.DataFrame | None = None,
                 balance: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims (:data:`CLAIMS`, one per sentence) and what we measure: rows of :meth:`Claim.row`.

    One row per claim, set-up and case (a curve of Fig. 1, a reading, a
    torus), the columns :data:`~models.core.claims.CLAIM_COLUMNS`; written
    with :func:`models.core.claims.save_claims` (``setups=SETUPS`` of
    :mod:`models.torus_nbc.setups`).  The paper states no number for any of
    its claims, so no row has a ``threshold``; every fact row with a value
    names its criterion (:data:`models.core.criteria.CRITERIA`).  The tables
    are those of :mod:`models.torus_nbc.experiments` and
    :mod:`models.torus_nbc.channels`:

    errors : ``error_table``
        ``latency-accuracy`` and ``good-agreement`` (kind ``error``, per curve
        and set-up: ``worst_err`` = ``WORST``, the worst error at 25/50/75 % of
        the simulated saturation rate, ``uncertain`` = ``UNCERTAIN``); cause
        ``"model"`` on both set-ups (the paper's set-up is the network its
        text describes, one ejection VC, and the model omits its wait;
        ``gaps`` adds the split of that gap to the paper set-up's note).
        ``saturation-discrepancy`` (kind ``fact``, two rows per curve and
        set-up): the discrepancy exists (``beyond-brackets``: the model's
        saturation rate outside the simulated bracket) and lies around the
        saturation point (``around-saturation``: fails, cause ``"model"``,
        where the model is saturated at 25, 50 or 75 % of the simulated
        saturation rate for every rate of the bracket).
    variance : ``variance_table``
        ``variance-explanation`` (``within-bracket``, per curve and set-up):
        holds when some variance from 0 to exponential brings the model's
        saturation rate within the simulated bracket; else cause ``"paper text"``.
    routing, routing_latency : ``routing_verdicts``, ``routing_latency_table``
        ``duato-nbc-best``: the sentence as printed ([5]'s comparison, not
        available: no ``holds``, cause ``"reading"``) decides; the book's two
        readings (``beyond-brackets`` on the saturation rates,
        ``more-than-half`` of the latencies lower beyond the CIs) are shown,
        not deciding.
    cdg, vcs : ``cdg_table``, ``vc_requirements``
        ``duato-nbc-methodology`` (no simulation, ``exact``): Duato's
        methodology per torus under the paper's class-1 bookkeeping (deciding;
        cyclic: cause ``"paper text"``) and under the simulator's (shown: it
        was chosen because it is deadlock-free); minimum virtual channel
        requirements per torus (Duato-Nbc needs no more VCs than Nbc alone
        and Duato's routing); "high performance" (no metric: not judged).
    balance : ``channels.balance_table``
        ``even-traffic`` (``equal-beyond-noise`` on independently seeded
        runs, per curve and set-up); a failure is caused by the simulator's
        set-up when the + / - split accounts for the spread (only ties at the
        offset k/2 leave a minimal route a choice of direction), else
        ``"unexplained"``.
    """
    rows = _accuracy_rows(errors, gaps) + _saturation_rows(errors)
    if variance is not None and not variance.empty:
        rows += _variance_rows(variance)
    if (routing is not None and not routing.empty) or (routing_latency is not None and not routing_latency.empty):
        rows += _best_rows(routing if routing is not None and not routing.empty else None,
                           routing_latency if routing_latency is not None and not routing_latency.empty else None)
    rows += _methodology_rows(cdg if cdg is not None and not cdg.empty else None,
                              vcs if vcs is not None and not vcs.empty else None)
    if balance is not None and not balance.empty:
        rows += _even_rows(balance)
    rows += _accuracy_rows(errors, None, "good-agreement", _SCOPE)
    return claims_frame(rows)


#: The note's first words on every good-agreement row: the sentence's scope.
_SCOPE = ("The Conclusions' sentence, whose scope ('under different working conditions') is every condition the "
          "chapter simulates: every curve of Fig. 1 on both set-ups decides. ")
