"""Willick & Eager (1990), Tables 1 and 2, exactly as printed, and a comparison helper.

Both tables: 64 processors / memory modules, 2 x 2 omega network, uniform
traffic, ``S_pe = 1``, single-packet requests (``m = 1``); Table 1 has
``S_mm = 1``, Table 2 ``S_mm = 2``; columns ``NC = 2, 4, 8, 16, 32``.  Each
entry is the average residence time per visit (cycles) at a network stage
(``F1`` next to the processors ... ``F6`` next to the memories; ``R6`` next
to the memories ... ``R1`` next to the processors), at the memory modules
(``MM``), and the average response time ``R``.  The paper gives no
confidence intervals for the simulation column; its values appear to be
truncated (not rounded) to three decimals.

How the chapter judges agreement (the numbers behind the claims table):

* analytic column, :func:`printed_agrees`: our value truncated to three
  decimals is within one unit of the last printed digit (0.001 cycles) of
  the printed value (the paper truncates; one unit covers a last digit that
  either iteration's stopping point can move);
* simulation column, ``sim_agrees`` of :func:`compare_table`: the paper's
  value lies within ``max(our 95% half width, sim_tolerance)`` of ours, and a
  table's column is reproduced when at least :data:`SIM_COVERAGE` of its
  entries agree (:func:`simulation_agreement`);
* :func:`reading_residuals`: Table 1 and 2 under every reading of eq. (1)
  tried (:data:`models.min_mva.equations.EQ1_READINGS`) and an undamped
  iteration.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.claims import SimSettings, named_setup
from ..core.errors import ParameterError
from ..sim.closed_min import simulate
from .readings import EQ1_READINGS
from .setups import DEFAULT_SETUP, SETUPS
from .solve import solve_curve

#: Row labels in the printed order.
ROWS = ("F1", "F2", "F3", "F4", "F5", "F6", "R6", "R5", "R4", "R3", "R2", "R1", "MM", "R")
NC_VALUES = (2, 4, 8, 16, 32)

#: Run lengths of the table simulations at full scale: 1,000,000 cycles per NC, the first 50,000 discarded.
TABLE_SETTINGS = SimSettings(cycles=1_000_000, warmup_cycles=50_000)

#: One unit of the last printed digit (cycles): the paper prints three decimals.
PRINTED_UNIT = 0.001
#: Share of a table's entries whose simulation must agree (the coverage of a 95% confidence interval).
SIM_COVERAGE = 0.95

#: Configuration of each table (keyword arguments of :func:`models.min_mva.solve`).
CONFIG = {
    1: dict(topology="omega", k=2, n=6, S_pe=1.0, S_mm=1.0, m=1, pattern="uniform"),
    2: dict(topology="omega", k=2, n=6, S_pe=1.0, S_mm=2.0, m=1, pattern="uniform"),
}

# (analytic, simulation) per row, one pair per NC in NC_VALUES
_T1 = {
    "F1": [(1.035, 1.009), (1.080, 1.040), (1.201, 1.150), (1.588, 1.563), (2.659, 2.772)],
    "F2": [(1.036, 1.021), (1.082, 1.071), (1.206, 1.221), (1.612, 1.714), (2.771, 3.189)],
    "F3": [(1.036, 1.032), (1.082, 1.087), (1.209, 1.241), (1.624, 1.760), (2.830, 3.335)],
    "F4": [(1.037, 1.036), (1.083, 1.091), (1.210, 1.248), (1.630, 1.783), (2.861, 3.380)],
    "F5": [(1.037, 1.038), (1.083, 1.093), (1.211, 1.253), (1.633, 1.792), (2.877, 3.405)],
    "F6": [(1.037, 1.039), (1.083, 1.095), (1.211, 1.254), (1.635, 1.797), (2.885, 3.391)],
    "R6": [(1.036, 1.004), (1.082, 1.021), (1.210, 1.105), (1.632, 1.401), (2.875, 2.099)],
    "R5": [(1.035, 1.007), (1.081, 1.036), (1.209, 1.153), (1.628, 1.496), (2.858, 2.317)],
    "R4": [(1.034, 1.009), (1.080, 1.046), (1.206, 1.172), (1.619, 1.537), (2.823, 2.443)],
    "R3": [(1.032, 1.009), (1.076, 1.049), (1.200, 1.178), (1.602, 1.548), (2.757, 2.475)],
    "R2": [(1.026, 1.008), (1.070, 1.046), (1.188, 1.166), (1.569, 1.518), (2.634, 2.388)],
    "R1": [(1.017, 1.005), (1.057, 1.038), (1.167, 1.145), (1.508, 1.443), (2.414, 2.127)],
    "MM": [(1.000, 1.000), (1.000, 1.000), (1.000, 1.000), (1.000, 1.000), (1.000, 1.000)],
    "R": [(14.409, 14.223), (14.950, 14.718), (16.437, 16.291), (21.293, 21.358), (35.270, 35.327)],
}
_T2 = {
    "F1": [(1.033, 1.012), (1.072, 1.041), (1.160, 1.115), (1.227, 1.191), (1.241, 1.222)],
    "F2": [(1.033, 1.023), (1.073, 1.065), (1.164, 1.160), (1.230, 1.242), (1.243, 1.270)],
    "F3": [(1.034, 1.030), (1.074, 1.075), (1.165, 1.174), (1.232, 1.255), (1.244, 1.282)],
    "F4": [(1.034, 1.034), (1.074, 1.079), (1.166, 1.178), (1.233, 1.260), (1.244, 1.285)],
    "F5": [(1.034, 1.035), (1.075, 1.080), (1.167, 1.179), (1.233, 1.262), (1.244, 1.286)],
    "F6": [(1.034, 1.035), (1.075, 1.082), (1.167, 1.179), (1.234, 1.262), (1.244, 1.287)],
    "R6": [(1.033, 1.013), (1.074, 1.040), (1.166, 1.089), (1.233, 1.115), (1.244, 1.120)],
    "R5": [(1.033, 1.014), (1.073, 1.051), (1.165, 1.140), (1.232, 1.210), (1.243, 1.228)],
    "R4": [(1.031, 1.015), (1.072, 1.056), (1.163, 1.155), (1.230, 1.236), (1.243, 1.259)],
    "R3": [(1.029, 1.015), (1.069, 1.056), (1.158, 1.153), (1.227, 1.240), (1.241, 1.266)],
    "R2": [(1.024, 1.013), (1.063, 1.052), (1.150, 1.144), (1.220, 1.231), (1.237, 1.263)],
    "R1": [(1.016, 1.008), (1.052, 1.041), (1.135, 1.123), (1.207, 1.207), (1.230, 1.249)],
    "MM": [(2.157, 2.240), (2.427, 2.674), (4.008, 4.949), (16.339, 17.266), (47.764, 48.199)],
    "R": [(15.536, 15.493), (16.284, 16.399), (18.946, 19.747), (32.092, 32.994), (63.687, 64.289)],
}
_RAW = {1: _T1, 2: _T2}

CAPTION = {
    1: "Average residence time at each network stage and at the memory modules. 64 processors/memory "
    "modules, 2 x 2 switches, uniform traffic, S_pe = 1, S_mm = 1.",
    2: "Average residence time at each network stage and at the memory modules. 64 processors/memory "
    "modules, 2 x 2 switches, uniform traffic, S_pe = 1, S_mm = 2.",
}


def _check(which: int) -> int:
    if which not in (1, 2):
        raise ParameterError(f"`which` must be 1 or 2 (the paper's Table 1 or 2); got {which!r}")
    return which


def paper_table(which: int):
    """The printed table as a long :class:`pandas.DataFrame`.

    Columns: ``row`` (F1..F6, R6..R1, MM, R), ``NC``, ``analytic``,
    ``simulation`` (cycles).  ``df.attrs["config"]`` holds the configuration.
    """
    raw = _RAW[_check(which)]
    rows = [
        {"row": lab, "NC": nc, "analytic": a, "simulation": s}
        for lab in ROWS
        for nc, (a, s) in zip(NC_VALUES, raw[lab])
    ]
    df = pd.DataFrame(rows)
    df.attrs["config"] = dict(CONFIG[which], NC=list(NC_VALUES))
    df.attrs["caption"] = CAPTION[which]
    return df


def paper_values(which: int, column: str = "analytic") -> dict:
    """``{NC: {row: value}}`` for one column (``"analytic"`` or ``"simulation"``)."""
    col = {"analytic": 0, "simulation": 1}[column]
    raw = _RAW[_check(which)]
    return {nc: {lab: raw[lab][i][col] for lab in ROWS} for i, nc in enumerate(NC_VALUES)}


def _get(obj, NC):
    """The result for ``NC`` from a dict ``{NC: result}``, a sequence aligned with NC_VALUES, or a CurveResult."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(NC)
    if hasattr(obj, "results") and hasattr(obj, "loads"):
        idx = np.flatnonzero(np.asarray(obj.loads) == NC)
        return obj.results[int(idx[0])] if idx.size else None
    seq = list(obj)
    return seq[NC_VALUES.index(NC)] if len(seq) == len(NC_VALUES) else None


def printed_agrees(ours, paper) -> np.ndarray:
    """Whether ``ours`` agrees with a printed three-decimal ``paper`` value to the printed precision.

    ``ours`` truncated to three decimals (as the paper prints) is within one
    unit of the last digit (:data:`PRINTED_UNIT`) of ``paper``; elementwise.
    """
    ours = np.asarray(ours, dtype=float)
    paper = np.asarray(paper, dtype=float)
    truncated = np.floor(ours / PRINTED_UNIT + 1e-9) * PRINTED_UNIT
    return np.abs(truncated - paper) <= PRINTED_UNIT * (1 + 1e-6)


def compare_table(which: int, analytic_results, sim_results=None, sim_tolerance: float = 0.01):
    """Our analytic (and simulated) values next to the paper's Table ``which``.

    Parameters
    ----------
    which : {1, 2}
    analytic_results : dict {NC: MinMvaResult}, CurveResult, or sequence aligned with ``NC_VALUES``
        Objects with ``.stage_residence`` (labels F1.., R.., MM) and ``.R``.
    sim_results : same shapes, optional
        Simulation results with ``.stage_residence``, ``.stage_ci`` (95%
        half widths), ``.R`` and ``.R_ci`` (``models.sim.closed_min.simulate``).

    Returns
    -------
    pandas.DataFrame
        One row per (row, NC): ``paper_analytic``, ``paper_sim``, ``ours``,
        ``ours - paper_analytic`` (``diff_analytic``), ``printed_agrees``
        (:func:`printed_agrees`) and, with simulations,
        ``sim``, ``sim_ci``, ``sim - paper_sim`` (``diff_sim``),
        ``ours - sim``, ``paper_sim_in_ci`` and ``sim_agrees`` (the paper's
        simulation value lies within ``max(sim_ci, sim_tolerance)`` of ours:
        the chapter's acceptance criterion).  NCs without a result are
        left out.  Times in cycles.
    """
    paper = paper_table(which)
    out = []
    for rec in paper.itertuples(index=False):
        res = _get(analytic_results, rec.NC)
        if res is None:
            continue
        ours = float(res.R if rec.row == "R" else res.stage_residence[rec.row])
        row = {
            "row": rec.row, "NC": rec.NC, "paper_analytic": rec.analytic, "paper_sim": rec.simulation,
            "ours": ours, "diff_analytic": ours - rec.analytic,
            "printed_agrees": bool(printed_agrees(ours, rec.analytic)),
        }
        sim = _get(sim_results, rec.NC)
        if sim is not None:
            val = float(sim.R if rec.row == "R" else sim.stage_residence[rec.row])
            ci = float(sim.R_ci if rec.row == "R" else sim.stage_ci[rec.row])
            row.update(
                sim=val, sim_ci=ci, diff_sim=val - rec.simulation, ours_minus_sim=ours - val,
                paper_sim_in_ci=bool(abs(val - rec.simulation) <= ci),
                sim_agrees=bool(abs(val - rec.simulation) <= max(ci, sim_tolerance)),
            )
        out.append(row)
    df = pd.DataFrame(out)
    df.attrs["config"] = paper.attrs["config"]
    df.attrs["caption"] = paper.attrs["caption"]
    return df


# ----------------------------------------------------------------------------
# The chapter's reading of the comparison (used by notebooks/min_mva/04-tables)
# ----------------------------------------------------------------------------
def run_table(which: int, settings: SimSettings = TABLE_SETTINGS, *, setup: str = DEFAULT_SETUP,
              sim_tolerance: float = 0.01):
    """Solve and simulate Table ``which``'s configuration at the paper's NC values; :func:`compare_table` of both.

    ``setup`` names the simulator set-up (:data:`models.min_mva.setups.SETUPS`:
    the return network's wiring, given to the model and the simulator).  The
    simulation of each ``NC`` (:func:`models.sim.closed_min.simulate`, cached
    on disk, in this process) runs ``settings.cycles`` cycles and discards
    the first ``settings.warmup_cycles``, with ``settings.batches`` batches
    and ``settings.seed``.  The frame's ``attrs["setup"]`` is the set-up's name.
    """
    if not isinstance(settings, SimSettings) or settings.cycles is None or settings.warmup_cycles is None:
        raise ParameterError(f"`settings` must be a SimSettings with `cycles` and `warmup_cycles` (a closed "
                             f"system's run length); got {settings!r}")
    cfg = dict(CONFIG[_check(which)], **named_setup(SETUPS, setup).sim())
    model = solve_curve(list(NC_VALUES), **cfg)
    sims = {nc: simulate(NC=nc, cycles=settings.cycles, warmup=settings.warmup_cycles, batches=settings.batches,
                         seed=settings.seed, **cfg)
            for nc in NC_VALUES}
    out = compare_table(which, model, sims, sim_tolerance=sim_tolerance)
    out.attrs["setup"] = setup
    return out


def wide_table(cmp, kind: str = "analytic"):
    """One row per stage, one column group per NC, for reading.

    ``kind="analytic"``: paper, ours and their difference; ``"simulation"``:
    paper, ours, our 95% half width and the difference.
    """
    cols = {
        "analytic": {"paper_analytic": "paper", "ours": "ours", "diff_analytic": "diff"},
        "simulation": {"paper_sim": "paper", "sim": "ours", "sim_ci": "±CI", "diff_sim": "diff"},
    }[kind]
    w = cmp.set_index(["row", "NC"])[list(cols)].rename(columns=cols).unstack("NC")
    order = list(dict.fromkeys(cmp["row"]))
    ncs = sorted(cmp["NC"].unique())
    w = w.swaplevel(0, 1, axis=1)
    return w.loc[order, pd.MultiIndex.from_tuples([(nc, c) for nc in ncs for c in cols.values()], names=["NC", ""])]


def analytic_summary(cmp, which: int):
    """Per NC: the largest |ours - paper| over stages and memory, where, and the difference in R."""
    rows = []
    for nc, g in cmp.groupby("NC", sort=True):
        stages = g[g["row"] != "R"]
        worst = stages.loc[stages["diff_analytic"].abs().idxmax()]
        rows.append({"table": which, "NC": nc, "max |diff| over stages + MM": abs(float(worst["diff_analytic"])),
                     "at": worst["row"], "R diff": float(g[g["row"] == "R"]["diff_analytic"].iloc[0])})
    return pd.DataFrame(rows)


def simulation_summary(cmp, which: int):
    """Per NC: entries within ``max(CI, tolerance)`` of the paper's simulation, and the largest difference."""
    rows = []
    for nc, g in cmp.groupby("NC", sort=True):
        worst = g.loc[g["diff_sim"].abs().idxmax()]
        rows.append({"table": which, "NC": nc, "entries agreeing": f"{int(g['sim_agrees'].sum())}/{len(g)}",
                     "max |ours - paper|": abs(float(worst["diff_sim"])), "at": worst["row"],
                     "CI there": float(worst["sim_ci"])})
    return pd.DataFrame(rows)


def disagreements(tables: dict, max_nc: int = 16):
    """Entries (of ``{which: compare_table(...)}``) with NC <= ``max_nc`` whose simulation misses the criterion."""
    frames = [cmp.assign(table=which) for which, cmp in tables.items()]
    allc = pd.concat(frames, ignore_index=True)
    miss = allc[(allc["NC"] <= max_nc) & ~allc["sim_agrees"]]
    miss = miss.assign(relative=miss["diff_sim"] / miss["paper_sim"])
    return miss[["table", "row", "NC", "paper_sim", "sim", "sim_ci", "diff_sim", "relative"]].reset_index(drop=True)


def analytic_agreement(cmp, which: int, groups: dict | None = None):
    """Per group of NC values: stage and memory entries agreeing with the printed analytic column.

    ``groups`` is ``{name: NC values}`` (default: one group of every NC).
    One row per group: ``table``, ``NC`` (the group's name), ``entries``,
    ``agreeing`` (:func:`printed_agrees`), ``max |diff|`` (cycles) and where
    (``at``: ``"<row> at NC <nc>"``).  ``R`` is left out: the paper's ``R``
    exceeds the sum of its own printed rows plus one cycle by more than
    truncation explains (:func:`printed_R_excess`).
    """
    groups = groups or {"all": sorted(cmp["NC"].unique())}
    rows = []
    for name, ncs in groups.items():
        g = cmp[(cmp["row"] != "R") & cmp["NC"].isin(list(ncs))]
        if g.empty:
            continue
        worst = g.loc[g["diff_analytic"].abs().idxmax()]
        rows.append({"table": which, "NC": name, "entries": int(len(g)), "agreeing": int(g["printed_agrees"].sum()),
                     "max |diff|": abs(float(worst["diff_analytic"])), "at": f"{worst['row']} at NC {int(worst['NC'])}"})
    return pd.DataFrame(rows)


def printed_R_excess(which: int):
    """Per NC: the paper's printed ``R`` minus (the sum of its printed rows + 1 cycle), analytic and simulation.

    ``R = sum_j R_ij + 1`` (the memory-to-network link) holds for every
    class under uniform traffic, so the printed rows should add up to the
    printed ``R`` up to the truncation of 13 rows (less than 0.013 cycles).
    """
    rows = []
    for column in ("analytic", "simulation"):
        for nc, vals in paper_values(which, column).items():
            total = sum(v for lab, v in vals.items() if lab != "R") + 1.0
            rows.append({"table": which, "column": column, "NC": nc, "R printed": vals["R"],
                         "rows + 1": total, "excess": vals["R"] - total})
    return pd.DataFrame(rows)


def simulation_agreement(cmp) -> dict:
    """``{"entries", "agreeing", "share", "holds"}`` of a simulated :func:`compare_table` (every row and NC).

    ``holds`` is ``share >= SIM_COVERAGE``: a 95% interval misses the true
    value in one case in twenty, so a reproduced column need not match at
    every entry (and the paper's own values carry sampling error too).
    """
    n = int(len(cmp))
    k = int(cmp["sim_agrees"].sum())
    share = k / n if n else float("nan")
    return {"entries": n, "agreeing": k, "share": share, "holds": bool(n and share >= SIM_COVERAGE)}


def bias_pattern(cmps) -> dict:
    """Where the model under- and over-estimates our simulation, over the stages of the given comparisons.

    ``cmps`` are simulated :func:`compare_table` frames.  Returns
    ``forward_under`` (share of forward-stage entries, F1..Fn, with
    ``ours < sim``), ``return_over`` (share of return-stage entries with
    ``ours > sim``), the same two shares for the paper's own columns
    (``paper_forward_under``, ``paper_return_over``) and ``entries``.
    """
    allc = pd.concat(list(cmps), ignore_index=True)
    fwd = allc[allc["row"].str.match(r"^F\d+$")]
    ret = allc[allc["row"].str.match(r"^R\d+$")]
    return {
        "forward_under": float((fwd["ours"] < fwd["sim"]).mean()),
        "return_over": float((ret["ours"] > ret["sim"]).mean()),
        "paper_forward_under": float((fwd["paper_analytic"] < fwd["paper_sim"]).mean()),
        "paper_return_over": float((ret["paper_analytic"] > ret["paper_sim"]).mean()),
        "entries": int(len(fwd) + len(ret)),
    }


#: The iterations tried besides the default damped one: name -> keyword arguments of :func:`solve`.
ITERATIONS = {"undamped iteration": {"damping": 1.0}}


def reading_residuals(tables=(1, 2), readings=None, iterations=None):
    """The analytic columns under every reading of eq. (1) tried, against the printed ones.

    One row per (reading, table, NC): ``reading`` (a name of
    :data:`~models.min_mva.equations.EQ1_READINGS` or of :data:`ITERATIONS`,
    the latter with the paper reading), ``table``, ``NC``, ``max |diff|``
    over the stages and the memory (cycles), ``at`` (the stage),
    ``agreeing`` (entries within the printed precision, of 13), ``R diff``
    and ``converged``.  Model only (milliseconds per point).
    """
    readings = list(EQ1_READINGS) if readings is None else list(readings)
    iterations = ITERATIONS if iterations is None else dict(iterations)
    variants = [(name, {"reading": name}) for name in readings]
    variants += [(name, {"reading": "paper", **kw}) for name, kw in iterations.items()]
    rows = []
    for name, kw in variants:
        for which in tables:
            curve = solve_curve(list(NC_VALUES), **CONFIG[_check(which)], raise_on_failure=False, **kw)
            cmp = compare_table(which, curve)
            for i, (nc, g) in enumerate(cmp.groupby("NC", sort=True)):
                st = g[g["row"] != "R"]
                worst = st.loc[st["diff_analytic"].abs().idxmax()]
                rows.append({"reading": name, "table": which, "NC": int(nc),
                             "max |diff|": abs(float(worst["diff_analytic"])), "at": worst["row"],
                             "agreeing": int(st["printed_agrees"].sum()),
                             "R diff": float(g[g["row"] == "R"]["diff_analytic"].iloc[0]),
                             "converged": bool(curve.converged[i])})
    return pd.DataFrame(rows)
