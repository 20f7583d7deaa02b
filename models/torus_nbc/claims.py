"""The paper's claims, one per sentence (:data:`CLAIMS`), and the claims table of what the book measures.

:func:`claims_table` builds one row per claim, simulator set-up and case
(:meth:`models.core.claims.Claim.row`) from the analysis tables of
:mod:`models.torus_nbc.experiments`: the error table (``latency-accuracy``,
``saturation-discrepancy``), the gap split, the variance test
(``variance-explanation``), the routing comparison (``duato-nbc-best``), the
deadlock check and the VC requirements (``duato-nbc-methodology``).  The
notebook writes it with :func:`models.core.claims.save_claims`
(``setups=SETUPS`` of :mod:`models.torus_nbc.setups`); the findings chapter
reads it.  A saturation ratio that stands for several curves is
:func:`models.core.claims.furthest_from_one`'s.
"""

from __future__ import annotations

import math

import pandas as pd

from ..core.claims import Claim, claims_frame, furthest_from_one
from .experiments import ROUTINGS, SATURATED_FROM, WORST, value_range, worst_gap_row

__all__ = ["CHAPTER", "CLAIMS", "claims_table"]

#: The chapter's slug, as the claims table names it.
CHAPTER = "torus_nbc"

#: The paper's claims, one per sentence, quoted whole (Safaei et al. 2007), in the order of the claims table.
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("latency-accuracy", "Sect. 4",
          "The figure indicates that the analytical model predicts the mean message latency with a good degree of "
          "accuracy in all regions.", "error"),
    Claim("saturation-discrepancy", "Sect. 4",
          "However, some discrepancies around the saturation point are apparent.", "saturation"),
    Claim("variance-explanation", "Sect. 4",
          "This is a result of the approximations made when constructing the analytical model, e.g. the "
          "approximation used to estimate the variance of the service time distribution at a channel.", "fact"),
    Claim("duato-nbc-best", "Sect. 2.1",
          "Investigations showed that Duato-Nbc has a better performance compared to other algorithms reported in "
          "the literature and the other algorithms proposed in [4].", "fact"),
    Claim("duato-nbc-methodology", "Sect. 2.1",
          "In [5], the Nbc routing scheme has been used in the context of Duato\u2019s methodology [6] and a routing "
          "algorithm, named Duato-Nbc with high performance and minimum virtual channel requirements was resulted.",
          "fact"),
)}


def _case(curve: str) -> str:
    """``"8x8, M=32"`` -> ``"8x8, M = 32"`` (a claims row's case)."""
    return curve.replace("M=", "M = ")


def _accuracy_rows(errors: pd.DataFrame, gaps: pd.DataFrame | None) -> list:
    claim = CLAIMS["latency-accuracy"]
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
                              cause="-" if math.isnan(w) else "model",
                              note=f"{_case(curve)}, {setup} set-up: {how} (tab-torus_nbc-errors.csv)".replace(
                                  "csv (tab-", "csv; tab-") + "."))
    return rows


def _saturation_rows(errors: pd.DataFrame) -> list:
    claim = CLAIMS["saturation-discrepancy"]
    per = "; ".join(f"{value_range(g['saturation ratio'], '.3f')} on the {s} set-up"
                    for s, g in errors.groupby("setup", sort=False))
    far = furthest_from_one(errors["saturation ratio"])
    note = (f"Model / simulated saturation rate {per} (tab-torus_nbc-errors.csv): \"some discrepancies\" "
            f"understates a saturation rate off by a factor of up to {max(far, 1 / far):.2f}"
            if math.isfinite(far) else "No simulated saturation rate.")
    return [claim.row(CHAPTER, e["setup"], case=_case(e["curve"]), sat_ratio=float(e["saturation ratio"]),
                      cause="model", note=note + ".") for _, e in errors.iterrows()]


def _variance_rows(variance: pd.DataFrame) -> list:
    claim = CLAIMS["variance-explanation"]
    rows = []
    for _, v in variance.iterrows():
        z, p, e = (float(v[f"model saturation, {x}"]) for x in ("zero", "paper", "exponential"))
        reach = bool(v["within reach"])
        rows.append(claim.row(
            CHAPTER, v["setup"], case=_case(v["curve"]), holds=reach, cause="-" if reach else "paper text",
            note=(f"{_case(v['curve'])}, {v['setup']} set-up: with the service-time variance of eqs. (18)-(19) at 0, "
                  f"the paper's (S-M)^2 and S^2 (exponential) the model saturates at {z:.5f}, {p:.5f} and {e:.5f} "
                  f"messages/node/cycle, the simulation at {float(v['sim saturation lo']):.5f} to "
                  f"{float(v['sim saturation hi']):.5f}: "
                  + ("within reach" if reach else "out of reach of any variance from deterministic to exponential "
                                                 "service")
                  + " (tab-torus_nbc-variance.csv; the sentence's other 'approximations' are not named, so only its "
                    "example is tested).")))
    return rows


def _best_rows(routing: pd.DataFrame | None, latency: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-best"]
    rows = []
    setups = list(dict.fromkeys((list(routing["setup"]) if routing is not None else [])
                                + (list(latency["setup"]) if latency is not None else [])))
    head = ("[5]'s result, over [5]'s algorithms and metric, which this paper does not state; 'better performance' "
            "has no metric here, so two readings of the book's are shown, against the routings the book simulates")
    for setup in setups:
        if routing is not None and (routing["setup"] == setup).any():
            r = routing[routing["setup"] == setup].iloc[0]
            rows.append(claim.row(
                CHAPTER, setup, case="read as a higher saturation rate", cause="reading",
                note=(f"{head}. Saturation rate, {setup} set-up: Duato-Nbc ahead of every other routing beyond the "
                      f"bisection's bracket on {int(r['ahead'])} of {int(r['curves'])} curves, behind on "
                      f"{int(r['behind'])}, at worst {float(r['worst ratio']):.3f} times {r['best other']}'s rate "
                      f"(tab-torus_nbc-routing-verdicts.csv).")))
        if latency is not None and (latency["setup"] == setup).any():
            g = latency[latency["setup"] == setup]
            detail = "; ".join(
                f"lower than {ROUTINGS.get(o, o)} at {int(h['Duato-Nbc lower'].sum())} of {int(h['rates'].sum())} "
                f"rates ({int(h['lower beyond the CIs'].sum())} beyond the CIs, higher beyond them at "
                f"{int(h['higher beyond the CIs'].sum())})" for o, h in g.groupby("routing", sort=False))
            rows.append(claim.row(
                CHAPTER, setup, case="read as a lower mean latency", cause="reading",
                note=(f"{head}. Mean latency at the same rates, {setup} set-up, over the curves: Duato-Nbc {detail} "
                      f"(tab-torus_nbc-routing-latency.csv).")))
    return rows


def _methodology_rows(cdg: pd.DataFrame | None, vcs: pd.DataFrame | None) -> list:
    claim = CLAIMS["duato-nbc-methodology"]
    rows = []
    if cdg is not None:
        for _, c in cdg.iterrows():
            ok = bool(c["acyclic"])
            rows.append(claim.row(
                CHAPTER, "-", case=f"deadlock freedom, {int(c['k'])}x{int(c['k'])}", holds=ok,
                cause="-" if ok else "paper text",
                note=(f"Duato's methodology [6]: the extended channel dependency graph of the escape VCs, built from "
                      f"the simulator's routing tables, is {'acyclic' if ok else 'cyclic'} on "
                      f"{int(c['k'])}x{int(c['k'])} "
                      f"with V = {int(c['vcs'])} (tab-torus_nbc-cdg.csv) under the book's bookkeeping, which raises a "
                      f"message's escape floor after every negative hop, adaptive or not; the reset after an adaptive "
                      f"hop that the paper's class 1 suggests has cycles (reading choice 9).")))
    if vcs is not None:
        for _, v in vcs.iterrows():
            ok = int(v["duato_nbc"]) <= int(v["fewest other fully adaptive"])
            rows.append(claim.row(
                CHAPTER, "-", case=f"minimum virtual channel requirements, {v['torus']}", holds=ok,
                cause="-" if ok else "paper text",
                note=(f"Fewest VCs per physical channel for deadlock freedom on the {v['torus']} bidirectional torus "
                      f"(the simulator's min_vcs): Duato-Nbc {int(v['duato_nbc'])} (k/2 + 1 escape levels and one "
                      f"adaptive VC), Nbc alone {int(v['nbc'])}, Duato's routing with dateline escape VCs "
                      f"{int(v['duato'])}, dimension order {int(v['dor'])} (tab-torus_nbc-vc-requirements.csv).")))
    if rows:
        rows.append(claim.row(CHAPTER, "-", case="high performance", cause="reading",
                              note="'High performance' names no metric: see duato-nbc-best for the numbers."))
    return rows


def claims_table(errors: pd.DataFrame, *, gaps: pd.DataFrame | None = None, variance: pd.DataFrame | None = None,
                 routing: pd.DataFrame | None = None, routing_latency: pd.DataFrame | None = None,
                 cdg: pd.DataFrame | None = None, vcs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims (:data:`CLAIMS`, one per sentence) and what we measure: rows of :meth:`Claim.row`.

    One row per claim, set-up and case (a curve of Fig. 1, a reading, a
    torus), the columns :data:`~models.core.claims.CLAIM_COLUMNS`; written
    with :func:`models.core.claims.save_claims` (``setups=SETUPS`` of
    :mod:`models.torus_nbc.setups`).  The paper states no number for any of
    its claims, so no row has a ``threshold``.  The tables are those of
    :mod:`models.torus_nbc.experiments`:

    errors : ``error_table``
        ``latency-accuracy`` (kind ``error``, per curve and set-up:
        ``worst_err`` = ``WORST``) and ``saturation-discrepancy`` (kind
        ``saturation``: ``sat_ratio``).  Cause ``"model"`` on both set-ups:
        the paper's set-up is the network its text describes (one ejection
        VC), and the model omits its wait; ``gaps`` (``gap_table``) adds
        the split of that gap to the paper set-up's note.
    variance : ``variance_table``
        ``variance-explanation`` (kind ``fact``, per curve and set-up):
        holds when some variance from 0 to exponential brings the model's
        saturation rate within the simulated bracket.
    routing, routing_latency : ``routing_verdicts``, ``routing_latency_table``
        ``duato-nbc-best`` (kind ``fact``, per set-up and reading): no
        ``holds`` (the claim is [5]'s, "better performance" names no metric),
        the numbers of both readings in the notes, cause ``"reading"``.
    cdg, vcs : ``cdg_table``, ``vc_requirements``
        ``duato-nbc-methodology`` (kind ``fact``, no simulation): deadlock
        freedom per torus (the extended escape CDG acyclic), minimum virtual
        channel requirements per torus (Duato-Nbc needs no more VCs than the
        other fully adaptive routings, Nbc alone and Duato's), and "high
        performance" (no metric: not judged).
    """
    rows = _accuracy_rows(errors, gaps) + _saturation_rows(errors)
    if variance is not None and not variance.empty:
        rows += _variance_rows(variance)
    if (routing is not None and not routing.empty) or (routing_latency is not None and not routing_latency.empty):
        rows += _best_rows(routing, routing_latency)
    rows += _methodology_rows(cdg if cdg is not None and not cdg.empty else None,
                              vcs if vcs is not None and not vcs.empty else None)
    return claims_frame(rows)
