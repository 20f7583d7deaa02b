"""The paper's claims the chapter checks (one :class:`~models.core.claims.Claim` per sentence) and their table.

:data:`CLAIMS` quotes each sentence whole; :func:`claims_table` gives one row
per claim, torus, reading and network group (:data:`~models.core.claims.CLAIM_COLUMNS`,
all on the one simulator set-up, ``"paper"``), from the runs of
:func:`models.torus_dor.experiments.run_figure` and the chapter's tables
(:func:`~models.torus_dor.experiments.comparison_table`).  The worst error
over several curves is :func:`models.core.claims.worst_of` of each curve's
:func:`~models.core.claims.worst_error_below`; the saturation ratio of a row
that stands for several curves is :func:`models.core.claims.furthest_from_one`.
The notebook saves the table with :func:`models.core.claims.save_claims`
(``setups=`` :data:`~models.torus_dor.setups.SETUPS`); the findings chapter
reads it.
"""

from __future__ import annotations

import math
from typing import Sequence

import pandas as pd

from ..core.claims import Claim, claims_frame, furthest_from_one, worst_error_below, worst_of
from ..core.experiment import CurveRun
from ..core.setups import BELOW
from .experiments import (READINGS, comparison_table, count_of, errors_higher_near_saturation, format_fraction,
                          is_paper_curve, model_column, saturation_2003, saturation_of)
from .setups import DEFAULT_SETUP, TORI, torus_of

__all__ = ["CHAPTER", "CLAIMS", "claims_table"]

#: The chapter's slug, as every row of its claims table names it.
CHAPTER = "torus_dor"

#: The paper's claims the chapter checks, one :class:`~models.core.claims.Claim` per sentence of the paper, by id.
#: None states a number, so none has a ``threshold``; the comparisons with the 2003 model are facts computed
#: from the paper's words ("closer", "a higher degree of accuracy", "especially near the high traffic region").
CLAIMS: dict[str, Claim] = {c.claim_id: c for c in (
    Claim("fig1-accuracy", "Sec. 3 (Fig. 1)",
          "The figure reveals that the model predicts the mean message latency with a good degree of accuracy "
          "when the network operates in the steady-state regions.", "error"),
    Claim("fig2-saturation-closer", "Sec. 3 (Fig. 2)",
          "It is observed that the saturation point of the model presented here is closer to the saturation "
          "point of the simulation results.", "fact"),
    Claim("more-accurate-than-2003", "Sec. 3 (after Fig. 2)",
          "For the sake of brevity, only one scenario has been shown. However, in all considered cases, the model "
          "proposed here has been observed to predict the average message latency in the network with a higher "
          "degree of accuracy compared to the one proposed in [16].", "fact"),
    Claim("saturation-prediction-improved", "Sec. 1",
          "Thus, the proposed model, while keeping all the advantages of the model proposed in [16], is highly "
          "improved in the accuracy of saturation point prediction.", "fact"),
    Claim("model2003-drawback-high-traffic", "Sec. 1 (on the model of [16])",
          "However, the accuracy of the model is its main drawback especially near the high traffic region.",
          "fact"),
)}


def _all_or_none(values) -> bool | None:
    """False if any is False; True if all are True; None otherwise (nothing decided, or some undecided)."""
    vals = [v for v in values]
    if any(v is False for v in vals):
        return False
    if vals and all(v is True for v in vals):
        return True
    return None


def _networks(labels) -> str:
    nets = dict.fromkeys(lb.split(",")[0].replace(" bi", "") for lb in labels)
    return ", ".join(nets)


def _groups(table: pd.DataFrame, paper_col: str = "paper"):
    """(torus, paper?, rows) of ``table``: tori in :data:`TORI` order, the paper's networks first."""
    for t in TORI:
        for paper in (True, False):
            g = table[(table["torus"] == t) & (table[paper_col].astype(bool) == paper)]
            if len(g):
                yield t, paper, g


def _case(torus: str, reading: str | None, paper: bool, labels) -> str:
    text = torus + ("" if reading is None else f", {READINGS[reading]}")
    return text if paper else f"{text}, other networks ({_networks(labels)})"


def claims_table(fig1_runs: Sequence[CurveRun], fig2_runs: Sequence[CurveRun]) -> pd.DataFrame:
    """The chapter's claims table (:data:`~models.core.claims.CLAIM_COLUMNS`): the claims of :data:`CLAIMS`,
    one row per torus, reading and network group, all on the simulator set-up ``"paper"``.

    ``fig1_runs``: the Fig. 1 runs (:func:`run_figure` of :func:`figure1`),
    ``fig2_runs``: the Fig. 2 runs; both with the printed reading and, for
    the comparisons with the 2003 model, ``with_2003=True`` (the Fig. 1 rows
    of those claims are left out without it).  Cases: the torus (both are
    the paper's configuration: the paper does not say which torus it
    simulated), the reading (the default reading and the equations as
    printed: both are the paper's model, neither is known to be what the
    authors computed, so both decide) and, for curves on networks the paper
    did not use (quick profiles), "other networks" (``paper_config=False``).

    * ``fig1-accuracy`` (error): ``worst_err`` is
      :func:`~models.core.claims.worst_error_below` over the Fig. 1 curves,
      ``sat_ratio`` the model/simulated saturation ratio furthest from 1.
    * ``fig2-saturation-closer`` (fact, Fig. 2): the reading's saturation
      load is closer (in log) to the simulated one than the 2003 model's.
    * ``more-accurate-than-2003`` (fact, every curve): :func:`compare_2003`
      on every curve ("in all considered cases").
    * ``saturation-prediction-improved`` (fact, every curve): "closer" on
      every curve ("highly" is not judged).
    * ``model2003-drawback-high-traffic`` (fact, every curve): the 2003
      model's worst |error| from 50% to 80% of the simulated saturation load
      exceeds its worst |error| below 50% ("especially near the high traffic
      region"; "its main drawback" is not judged).
    """
    rows = []
    fig1_labels = {(r.curve.label, torus_of(r.curve)) for r in fig1_runs}
    # Fig. 1: the latency accuracy, per torus and reading
    f1 = [r for r in fig1_runs if r.sim is not None]
    for t in TORI:
        for paper in (True, False):
            g = [r for r in f1 if torus_of(r.curve) == t and is_paper_curve(r.curve, "fig1") == paper]
            if not g:
                continue
            labels = [r.curve.label for r in g]
            for w in READINGS:
                worst = [worst_error_below(r, column=model_column(w)) for r in g]
                ratios = [saturation_of(r, w) / r.sim_saturation for r in g if r.sim_saturation > 0]
                inf = sum(math.isinf(x) for x in worst)
                rows.append(CLAIMS["fig1-accuracy"].row(
                    CHAPTER, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                    worst_err=worst_of(worst), sat_ratio=furthest_from_one(ratios), cause="model",
                    note=f"Fig. 1, {READINGS[w]}, {t} torus: worst over {len(g)} curves; unbounded on {inf} of "
                         f"{len(g)} (model/simulated saturation load {min(ratios):.2f} to {max(ratios):.2f}); "
                         "tab-torus_dor-fig1-errors"))
    # Fig. 2: the saturation point against the 2003 model, per torus and reading
    for run in [r for r in fig2_runs if r.sim is not None]:
        t, paper = torus_of(run.curve), is_paper_curve(run.curve, "fig2")
        s03, ssim = saturation_2003(run.curve), run.sim_saturation
        for w in READINGS:
            s04 = saturation_of(run, w)
            closer = (bool(abs(math.log(s04 / ssim)) < abs(math.log(s03 / ssim)))
                      if all(math.isfinite(x) and x > 0 for x in (s04, s03, ssim)) else None)
            why = ("; the default reading was preferred partly because it lets this claim hold (chapter page, "
                   "Reading choices 5), so this row is not independent evidence" if w == "default" else
                   "; the equations as printed (every reading switch at the paper's literal text)")
            rows.append(CLAIMS["fig2-saturation-closer"].row(
                CHAPTER, DEFAULT_SETUP, case=_case(t, w, paper, [run.curve.label]), paper_config=paper,
                worst_err=worst_error_below(run, column=model_column(w)), sat_ratio=s04 / ssim, holds=closer,
                cause="-" if closer is not False else ("paper text" if w == "printed" else "model"),
                note=f"Fig. 2 ({run.curve.label}): model/simulated saturation load {s04 / ssim:.3f} ({READINGS[w]}) "
                     f"against {s03 / ssim:.3f} (the reconstructed 2003 model){why}; tab-torus_dor-fig2-errors"))
    # every simulated curve (Figs. 1 and 2): the comparisons with the 2003 model
    comp = comparison_table(list(fig2_runs) + list(fig1_runs))
    if len(comp):
        comp = comp.assign(fig1=[(c, t) in fig1_labels for c, t in zip(comp["curve"], comp["torus"])])
    for t, paper, g in _groups(comp) if len(comp) else ():
        labels = list(g["curve"])
        for w in READINGS:
            better = list(g[f"better {w}"])
            fig2 = g[g["curve"].isin([r.curve.label for r in fig2_runs])]
            detail = "; ".join(f"{c}: {format_fraction(a)} against {format_fraction(b)}"
                               for c, a, b in zip(fig2["curve"], fig2[f"worst {w}"], fig2["worst 2003"]))
            rows.append(CLAIMS["more-accurate-than-2003"].row(
                CHAPTER, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                worst_err=worst_of(g[f"worst {w}"]), holds=_all_or_none(better),
                cause="model" if _all_or_none(better) is False else "-",
                note=f"{READINGS[w]}, {t} torus: more accurate than the 2003 model on {count_of(better)} curves "
                     f"(worst |error| below {BELOW:.0%} of the simulated saturation load"
                     + (f"; {detail}" if detail else "") + "); tab-torus_dor-comparison"))
        for w in READINGS:
            closer = list(g[f"closer {w}"])
            rows.append(CLAIMS["saturation-prediction-improved"].row(
                CHAPTER, DEFAULT_SETUP, case=_case(t, w, paper, labels), paper_config=paper,
                sat_ratio=furthest_from_one(g[f"sat {w} / sim"]), holds=_all_or_none(closer),
                cause="-" if _all_or_none(closer) is not False else ("paper text" if w == "printed" else "model"),
                note=f"{READINGS[w]}, {t} torus: saturation load closer to the simulated one than the 2003 "
                     f"model's on {count_of(closer)} curves (model/simulated {g[f'sat {w} / sim'].min():.2f} to "
                     f"{g[f'sat {w} / sim'].max():.2f}, 2003 model {g['sat 2003 / sim'].min():.2f} to "
                     f"{g['sat 2003 / sim'].max():.2f}); 'highly' is not judged; tab-torus_dor-comparison"))
        high = [errors_higher_near_saturation(lo, hi) for lo, hi in zip(g["worst 2003 <50%"], g["worst 2003"])]
        rows.append(CLAIMS["model2003-drawback-high-traffic"].row(
            CHAPTER, DEFAULT_SETUP, case=_case(t, None, paper, labels), paper_config=paper,
            worst_err=worst_of(g["worst 2003"]), sat_ratio=furthest_from_one(g["sat 2003 / sim"]),
            holds=_all_or_none(high), cause="-",
            note=f"the reconstructed 2003 model (chapter page; its paper was not available), {t} torus: worst "
                 f"|error| from 50% to {BELOW:.0%} of the simulated saturation load above the worst below 50% on "
                 f"{count_of(high)} curves (2003 model / simulated saturation load {g['sat 2003 / sim'].min():.2f} "
                 f"to {g['sat 2003 / sim'].max():.2f}); 'its main drawback' is not judged; "
                 "tab-torus_dor-comparison"))
    order = {cid: i for i, cid in enumerate(CLAIMS)}
    out = claims_frame(rows)
    return out.iloc[sorted(range(len(out)), key=lambda i: order[out["claim_id"].iloc[i]])].reset_index(drop=True)
