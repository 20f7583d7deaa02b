"""The numbers (and the few sentences whose wording the data chooses) that the chapter's pages glue.

One ``glue_values_*`` function per page (or part of a page), each returning
``{key: value}`` with keys ``min_mva-...``; a notebook only glues what they
return (``tests/min_mva/test_glue_values.py`` checks every one).  A sentence
that is a fixed template around numbers is written in the notebook's
Markdown with ``{glue:text}`` around the numbers glued here (e.g. "k/n
entries agree" from ``...-agreeing`` and ``...-entries``); only words the
data chooses are glued as text: ``"holds"``/``"does not hold"``
(:func:`~models.min_mva.claims.holds_text`), ``"within"``/``"outside"`` the
paper's threshold (from :func:`models.core.claims.row_outcome`, the
findings' row rule), ``"reproduced"``/``"not reproduced"`` (the table rule's
verdict, :func:`~models.min_mva.experiments.simulation_verdicts`), and the
sentences of :func:`miss_sentence` and of the wiring.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from ..core.claims import row_outcome, worst_of
from ..core.criteria import more_than_half
from ..core.errors import ParameterError
from ..core.precision import spread
from ..core.reproductions import GROSS_STD, block_z, flip_text
from ..core.setups import SimSettings
from ..core.tables import join_words, percent
from . import paper_tables
from .claims import CLAIMS, CONTROL_SETUP, holds_text, worst_points
from .experiments import analytic_tables, simulation_verdicts
from .readings import EQ1_READINGS
from .residence_bias import wiring_effect
from .setups import DEFAULT_SETUP, SETUPS

__all__ = ["glue_values_derivation", "glue_values_figures", "glue_values_queueing", "glue_values_tables",
           "glue_values_printed", "glue_values_spacing", "glue_values_precision", "precision_sentence",
           "miss_sentence", "OUTCOME_WORDS"]

#: How a page words the outcome of a claims row against the paper's threshold
#: (:func:`models.core.claims.row_outcome`).
OUTCOME_WORDS = {"pass": "within", "fail": "outside", "unknown": "not measured"}


def glue_values_derivation(checks: Mapping, per_class, result) -> dict:
    """What :doc:`01-derivation` glues, by key (``min_mva-...``).

    ``checks``: :func:`~models.min_mva.experiments.symbolic_checks`;
    ``per_class``: each class's visit ratios summed over the centers (its
    path length); ``result``: the :func:`~models.min_mva.solve` result of the
    page's small network.  Keys:
    ``path-length`` (the mean path length), ``small-R``,
    ``small-iterations``, and ``"holds"`` / ``"does not hold"`` for
    ``ks-single``, ``ks-m``, ``ks-m-printed`` (Kruskal & Snir), ``noq-single``
    (1 x 1 switch, S_mm = 1 and S_pe = 1 together), ``noq-m`` (1 x 1 switch and
    S_mm = m), ``eq6-spe1`` and ``eq6-spem``.
    """
    return {
        "min_mva-path-length": float(np.mean(per_class)),
        "min_mva-small-R": float(result.R),
        "min_mva-small-iterations": int(result.iterations),
        "min_mva-ks-single": holds_text(checks["kruskal_snir_single"]),
        "min_mva-ks-m": holds_text(checks["kruskal_snir_m"]),
        "min_mva-ks-m-printed": holds_text(checks["kruskal_snir_m_printed"]),
        "min_mva-noq-single": holds_text(checks["switch_1x1_single"] and checks["memory_single"]
                                         and checks["processor_single"]),
        "min_mva-noq-m": holds_text(checks["switch_1x1_m"] and checks["memory_m"]),
        "min_mva-eq6-spe1": holds_text(checks["processor_m_spe1"]),
        "min_mva-eq6-spem": holds_text(checks["processor_m_spem"]),
    }


def glue_values_figures(summary: pd.DataFrame, points: pd.DataFrame, page: str,
                        setup: str = DEFAULT_SETUP) -> dict:
    """What :doc:`02-single-packet` (``page="single"``) or :doc:`03-multi-packet` (``"multi"``) glues, by key.

    ``summary``, ``points``: :func:`~models.min_mva.experiments.error_tables`
    of the page's runs.  On set-up ``setup``: ``min_mva-<page>-max-err-R`` and ``-max-err-X`` (the
    largest ``|relative error|`` over the curves), ``-worst-curve`` (the
    curve of the largest, R or X), ``-mean-err-R`` (the mean over the curves
    of their mean ``|relative error|`` in R).  Per error claim and set-up
    (:func:`~models.min_mva.claims.worst_points`),
    ``min_mva-worst-<claim>-<setup>`` (the worst error), ``-at`` (where),
    ``-figures`` (the figures simulated) and, where the paper names a
    threshold, ``-verdict``: the row's outcome by the findings' rule
    (:func:`models.core.claims.row_outcome`) in :data:`OUTCOME_WORDS`
    (``"within"`` or ``"outside"``).  With Fig. 2 simulated,
    ``min_mva-fig2-wiring``: whether the Fig. 2 outcome is the same on every set-up.
    """
    if page not in ("single", "multi"):
        raise ParameterError(f"`page` must be 'single' or 'multi'; got {page!r}")
    first = summary[summary["setup"] == setup]
    R = first[first["curve"].str.endswith(": R")]
    X = first[first["curve"].str.endswith(": X")]
    worst = first.loc[first["max |rel. error|"].idxmax()]
    out = {
        f"min_mva-{page}-max-err-R": worst_of(R["max |rel. error|"]),
        f"min_mva-{page}-max-err-X": worst_of(X["max |rel. error|"]),
        f"min_mva-{page}-worst-curve": worst["curve"].rsplit(":", 1)[0],
        f"min_mva-{page}-mean-err-R": float(R["mean |rel. error|"].mean()),
    }
    outcomes = {}
    for row in worst_points(points).itertuples():
        key = f"min_mva-worst-{row.claim_id}-{row.setup}"
        out[key] = row.worst_err
        out[key + "-at"] = row.at
        out[key + "-figures"] = row.figures
        threshold = CLAIMS[row.claim_id].threshold
        if np.isfinite(threshold):
            outcome = row_outcome("error", row.worst_err, threshold=threshold, stands_for=SETUPS[row.setup].stands_for)
            out[key + "-verdict"] = OUTCOME_WORDS[outcome]
            outcomes.setdefault(row.claim_id, set()).add(outcome)
    if "fig2-within-5pct" in outcomes:
        out["min_mva-fig2-wiring"] = ("is the same on both set-ups" if len(outcomes["fig2-within-5pct"]) == 1
                                      else "depends on the wiring")
    return out


def glue_values_queueing(memory: pd.DataFrame, processor: pd.DataFrame, setup: str = DEFAULT_SETUP) -> dict:
    """What :doc:`03-multi-packet` glues about queueing at the memories and the processors, by key.

    ``memory``: :func:`~models.min_mva.experiments.memory_queueing`; ``processor``:
    :func:`~models.min_mva.experiments.processor_queueing`.  On ``setup``: ``min_mva-mm-excess-smem-m``
    (the largest ``|excess|`` of the memory residence over ``m - 1 + S_mm``
    at ``S_mm = m``), ``min_mva-mm-excess-2m`` (the largest excess at ``S_mm
    = 2m``); ``min_mva-pe-wait-spe1`` (the largest ``|T - S_pe|`` at ``S_pe =
    1``) and ``min_mva-pe-wait-spem`` (the smallest ``T - S_pe`` at ``S_pe =
    m > 1``).
    """
    mq = memory[memory["setup"] == setup]
    out = {"min_mva-mm-excess-smem-m": float(mq[mq["S_mm"] == mq["m"]]["excess"].abs().max()),
           "min_mva-mm-excess-2m": float(mq[mq["S_mm"] == 2 * mq["m"]]["excess"].max())}
    out["min_mva-pe-wait-spe1"] = float(processor[processor["S_pe"] == 1]["T - S_pe"].abs().max())
    out["min_mva-pe-wait-spem"] = float(processor[(processor["S_pe"] == processor["m"]) & (processor["m"] > 1)]
                                        ["T - S_pe"].min())
    return out


def precision_sentence(settings: SimSettings, runs) -> str:
    """How long a figure's simulated points ran and how precise they are, in words: ``runs`` are the figure's
    CurveRuns (:func:`~models.min_mva.experiments.run_figure` with ``settings``; their ``sim`` has ``R``, ``R CI``,
    ``X``, ``X CI``, ``cycles`` and ``max cycles``, the cap the simulator applied).  With ``settings.target_ci`` a
    run is lengthened in place until the 95 % half widths of R and X are that precise, the measured part 1.5 times
    longer each time, up to its cap; the sentence gives the range of cycles the points ran, how many ran to the cap and
    the widest half widths of R and X, percents of their points' values."""
    frames = [r.sim for r in runs if r.sim is not None and len(r.sim)]
    if not frames:
        return "No point of this figure was simulated."
    sim = pd.concat(frames, ignore_index=True)
    ran, caps = sim["cycles"].to_numpy(dtype=int), sim["max cycles"].to_numpy(dtype=int)
    widest = (f"the widest 95% half widths are {percent(float((sim['R CI'] / sim['R']).max()), 2)} of R and "
              f"{percent(float((sim['X CI'] / sim['X']).max()), 2)} of X")
    first = f"{settings.cycles:,} cycles, the first {settings.warmup_cycles:,} discarded"
    if settings.target_ci is None:
        return f"Every simulated point ran {first} (a fixed length, no precision target); {widest}."
    return (f"Every simulated point ran until the 95% half widths of its R and X were within "
            f"{settings.target_ci * 100:g}% of their means: {first}, then the measured part 1.5 times as long at a "
            f"time (the run goes on where it stopped), at most {spread(caps, 'cycles').removesuffix(' each')}.  "
            f"The {ran.size} points ran {spread(ran, 'cycles')} ({int((ran >= caps).sum())} ran to the cap); "
            f"{widest}.")


def glue_values_precision(settings: SimSettings, runs, name: str) -> dict:
    """``min_mva-precision-<name>``: :func:`precision_sentence` of the figure ``name``'s ``runs``."""
    return {f"min_mva-precision-{name}": precision_sentence(settings, runs)}


def miss_sentence(miss: pd.DataFrame) -> str:
    """What the entries of :func:`~models.min_mva.paper_tables.disagreements` ``miss`` are, in a sentence whose
    wording their number chooses (none, one, several)."""
    if not len(miss):
        return "all of them agree"
    one = len(miss) == 1
    where = join_words([f"Table {r.table} {r.row} at NC {r.NC}" for r in miss.itertuples()])
    return (f"{'the one that does not' if one else 'the ' + str(len(miss)) + ' that do not'} ({where}) "
            f"{'differs' if one else 'differ'} from the paper's value{'' if one else 's'} by "
            f"{'' if one else 'at most '}{float(miss['relative'].abs().max()):.2%} of the value")


def glue_values_tables(tabs: Mapping, readings: pd.DataFrame, reference: str = DEFAULT_SETUP,
                       other: str = "second-omega") -> dict:
    """What :doc:`04-tables` glues, by key (``min_mva-...``), from its comparisons and the readings table.

    ``tabs``: ``{(table number, set-up): compare_table frame}`` of simulated
    :func:`~models.min_mva.paper_tables.run_table` runs, with both tables on
    ``reference``; ``readings``:
    :func:`~models.min_mva.paper_tables.reading_residuals`.  Keys:

    * the analytic column (:func:`~models.min_mva.experiments.analytic_tables`): ``t1-low-maxdiff``
      (Table 1, NC <= 8), ``t2-maxdiff``, ``t1-16-maxdiff``,
      ``t1-32-maxdiff`` and ``t1-32-at`` (largest |ours - paper| over the
      stages and the memory, cycles, and where), ``R-maxdiff``,
      ``t1-low-agreeing``, ``t1-high-agreeing``, ``t2-agreeing`` (entries
      within the analytic band) of ``t1-low-entries``, ... (the page writes
      "k/n"), ``R-excess-min``/``-max`` (the paper's R beyond its printed
      rows), ``analytic-band`` (cycles);
    * the readings of eq. (1): ``readings-n`` (readings tried besides the
      paper's), ``readings-best-high`` and ``readings-best-name`` (the best of
      them on Table 1 at NC >= 16), ``undamped-same`` (a sentence),
      ``early-high`` (the iteration stopped at 0.1%, Table 1 at NC >= 16);
    * the simulation column (the table rule,
      :func:`~models.min_mva.experiments.simulation_verdicts`):
      ``t<which>-sim-<setup>-agreeing`` of ``-entries`` within their 95% band,
      ``-share``, ``-blocks-missed`` of ``-blocks`` (one per NC),
      ``-allowed`` (blocks a reproduced column may miss), ``-largest-std``
      (the largest ``|difference| / band``), ``-flips`` (a sentence of
      :func:`models.core.reproductions.flip_text`: the paper run length at
      which the outcome flips) and ``-verdict`` (the rule's ``"reproduced"``
      or ``"not reproduced"``) per comparison; ``sim-agreeing`` of ``sim-entries`` (both tables, NC <= 16,
      on ``reference``), ``sim-miss-n``, ``sim-miss-sentence``
      (:func:`miss_sentence`) and ``sim-miss-list`` (the entries of both
      tables on ``reference`` that miss their band, every NC);
      ``paper-sim-cycles``, the run length taken for the paper's noise
      (:data:`~models.min_mva.paper_tables.PAPER_SIM_CYCLES`, the book's
      assumption), ``block-z`` (the normal quantile an entry of a 14-entry
      block is tested at) and ``gross-std``
      (:data:`models.core.reproductions.GROSS_STD`);
    * the wiring: ``r6-mirror``, ``r6-same``, ``r6-paper`` (stage R6 at NC = 4
      on ``reference``, on ``other`` -- when Table 2 ran on it -- and in the
      paper's simulation);
    * the paper's sentence on its tables (:func:`~models.min_mva.paper_tables.bias_pattern`):
      ``bias-fwd-<setup>``, ``bias-ret-<setup>``, ``bias-fwd-mem-<setup>``,
      ``bias-ret-mem-<setup>`` per set-up, and the same on the paper's own
      columns (``<setup>`` = ``printed``).
    """
    t1, t2 = tabs[(1, reference)], tabs[(2, reference)]
    acc, agree, excess = analytic_tables(t1, t2)
    diff = "max |diff| over stages + MM"
    t1_32 = acc[(acc["table"] == 1) & (acc["NC"] == 32)].iloc[0]
    out = {
        "min_mva-t1-low-maxdiff": float(acc[(acc["table"] == 1) & (acc["NC"] <= 8)][diff].max()),
        "min_mva-t2-maxdiff": float(acc[acc["table"] == 2][diff].max()),
        "min_mva-t1-16-maxdiff": float(acc[(acc["table"] == 1) & (acc["NC"] == 16)].iloc[0][diff]),
        "min_mva-t1-32-maxdiff": float(t1_32[diff]),
        "min_mva-t1-32-at": str(t1_32["at"]),
        "min_mva-R-maxdiff": float(acc["R diff"].abs().max()),
        "min_mva-analytic-band": float(paper_tables.ANALYTIC_BAND),
    }
    for key, row in zip(("t1-low", "t1-high", "t2"), agree.itertuples()):
        out[f"min_mva-{key}-agreeing"] = int(row.agreeing)
        out[f"min_mva-{key}-entries"] = int(row.entries)
    analytic = excess[excess["column"] == "analytic"]["excess"]
    out["min_mva-R-excess-min"] = float(analytic.min())
    out["min_mva-R-excess-max"] = float(analytic.max())
    # the readings of eq. (1), and other iterations
    high = (readings[(readings["table"] == 1) & (readings["NC"] >= 16)]
            .groupby("reading", sort=False)["max |diff|"].max())
    tried = high[[r for r in high.index if r in EQ1_READINGS and r != "paper"]]
    out["min_mva-readings-n"] = int(tried.size)
    out["min_mva-readings-best-high"] = float(tried.min())
    out["min_mva-readings-best-name"] = str(tried.idxmin())
    und = readings[readings["reading"] == "undamped iteration"]
    same = np.allclose(und["max |diff|"].to_numpy(), readings[readings["reading"] == "paper"]["max |diff|"].to_numpy(),
                       atol=1e-9)
    out["min_mva-undamped-same"] = ("converges to the same fixed point" if same and und["converged"].all()
                                    else "does not reproduce the damped fixed point")
    early = [r for r in high.index if r in paper_tables.ITERATIONS and r != "undamped iteration"]
    if early:
        out["min_mva-early-high"] = float(high[early[0]])
    # the simulation column, by the table rule
    for row in simulation_verdicts(tabs).to_dict("records"):
        key = f"min_mva-t{row['table']}-sim-{row['setup']}"
        out[key + "-agreeing"] = int(row["agreeing"])
        out[key + "-entries"] = int(row["entries"])
        out[key + "-share"] = float(row["share"])
        out[key + "-allowed"] = int(row["may miss"])
        out[key + "-blocks"] = int(row["blocks"])
        out[key + "-blocks-missed"] = int(row["blocks missed"])
        out[key + "-largest-std"] = float(row["largest std"])
        out[key + "-flips"] = flip_text(row["verdict"], row["flips at"])
        out[key + "-verdict"] = row["verdict"]
    low = pd.concat([t1, t2])
    low = low[low["NC"] <= 16]
    out["min_mva-sim-agreeing"] = int(low["sim_agrees"].sum())
    out["min_mva-sim-entries"] = len(low)
    miss = paper_tables.disagreements({1: t1, 2: t2}, max_nc=max(paper_tables.NC_VALUES))
    out["min_mva-sim-miss-n"] = len(miss)
    out["min_mva-sim-miss-sentence"] = miss_sentence(miss)
    out["min_mva-sim-miss-list"] = join_words([f"Table {r.table} {r.row} at NC {r.NC}" for r in miss.itertuples()],
                                              empty="none")
    # the wiring: stage R6 at NC = 4
    at = np.flatnonzero(((t2["row"] == "R6") & (t2["NC"] == 4)).to_numpy())[0]
    out["min_mva-r6-mirror"] = float(t2["sim"].to_numpy()[at])
    if (2, other) in tabs:
        out["min_mva-r6-same"] = float(tabs[(2, other)]["sim"].to_numpy()[at])
    out["min_mva-r6-paper"] = float(t2["paper_sim"].to_numpy()[at])
    # the paper's sentence on its tables, per set-up and on its own columns
    for setup in dict.fromkeys(s for _, s in tabs):
        b = paper_tables.bias_pattern([tab.assign(table=w) for (w, s), tab in tabs.items() if s == setup])
        for key, field in (("fwd", "forward_under"), ("ret", "return_over"), ("fwd-mem", "forward_memory_side"),
                           ("ret-mem", "return_memory_side")):
            out[f"min_mva-bias-{key}-{setup}"] = b[field]
            if setup == reference:
                out[f"min_mva-bias-{key}-printed"] = b["paper_" + field]
    out["min_mva-paper-sim-cycles"] = paper_tables.PAPER_SIM_CYCLES
    out["min_mva-block-z"] = block_z(len(paper_tables.ROWS))
    out["min_mva-gross-std"] = GROSS_STD
    return out



def glue_values_printed(printed: pd.DataFrame, setup: str = DEFAULT_SETUP) -> dict:
    """What :doc:`03-multi-packet` glues about eq. (4) as printed, by key.

    ``printed``: :func:`~models.min_mva.eq4_printed.printed_points` of the
    page's runs.  On ``setup``: ``min_mva-printed-worst`` (the largest
    ``|relative error|``, a fraction, in R or X over Figs. 6-8; ``inf`` when
    unbounded), ``min_mva-printed-worst-at`` (where) and ``min_mva-printed-outcome`` (what it decides, in
    words: a finite error decides nothing without the paper's number, an unbounded one fails the claim).
    """
    w = worst_points(printed[printed["setup"] == setup])
    w = w[w["claim_id"] == "fig6-8-accurate"]
    if w.empty:
        return {}
    worst = float(w["worst_err"].iloc[0])
    outcome = ("is finite, so without the paper's number it decides nothing either" if np.isfinite(worst) else
               "is unbounded, so as printed the claim does not hold (cause: the paper's text)")
    return {"min_mva-printed-worst": worst, "min_mva-printed-worst-at": str(w["at"].iloc[0]),
            "min_mva-printed-outcome": outcome}


def glue_values_spacing(tables: Mapping) -> dict:
    """What :doc:`04-tables` glues about the paper's explanation of the return network's bias, by key.

    ``tables``: ``{(table, set-up): compare_table frame}``.  Per table simulated
    on both wirings (:func:`models.min_mva.residence_bias.wiring_effect`):
    ``min_mva-spacing-t<n>-smaller`` and ``-entries`` (the return entries
    nearest the memories whose over-estimate is smaller on the control
    wiring beyond the noise, and how many were compared), ``-over-mirror`` and
    ``-over-other`` (the mean over-estimate, cycles per visit), ``-holds``
    (:func:`~models.min_mva.claims.holds_text` of more than half).
    """
    sim = {k: v for k, v in tables.items() if "sim" in v}
    mirror = {w: c for (w, s), c in sim.items() if s == DEFAULT_SETUP}
    other = {w: c for (w, s), c in sim.items() if s == CONTROL_SETUP}
    out = {}
    for which in sorted(set(mirror) & set(other)):
        eff = wiring_effect({which: mirror[which]}, {which: other[which]})
        if eff.empty:
            continue
        key = f"min_mva-spacing-t{which}"
        out.update({f"{key}-smaller": int(sum(1 for x in eff["smaller"] if x is True)), f"{key}-entries": len(eff),
                    f"{key}-over-mirror": float(eff["over mirror"].mean()),
                    f"{key}-over-other": float(eff["over other"].mean()),
                    f"{key}-holds": holds_text(more_than_half(list(eff["smaller"])))})
    return out
