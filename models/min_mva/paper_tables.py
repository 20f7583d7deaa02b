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

How the chapter judges agreement: the table rule of the book
(:mod:`models.core.reproductions`; the numbers behind the chapter's
reproductions table).  A printed value truncated to three decimals
stands for the interval ``[printed, printed + 0.001)``, so every entry is
compared with the centre of that interval (:func:`printed_centre`), and
agrees when it lies within its band (:func:`models.core.reproductions.entry_band`):

* analytic column, :func:`printed_agrees`: band :data:`ANALYTIC_BAND` = half
  a unit of the last digit (the truncation) plus one unit for the stopping
  point of the paper's iteration, which the paper does not state
  (:data:`ANALYTIC_PAPER_HALF`, a tolerance of the book's); ours is converged
  to ``1e-12``.  Every entry of a column must agree;
* simulation column, ``sim_agrees`` of :func:`compare_table`: band
  ``sqrt(ci**2 + ci_paper**2) + 0.0005`` with ``ci`` our 95% half width and
  ``ci_paper`` the paper's, which it does not give: taken as the half width
  of one of our runs of :data:`PAPER_SIM_CYCLES` measured cycles (the book's
  assumption: the quick profile's length, where it equals ours;
  :func:`paper_sim_half`), so that the paper's noise does not shrink as our
  runs grow.  The 14 entries of one NC (one run of ours, one of the
  paper's) are one block: a block misses when an entry lies outside its
  band widened to the Sidak level of 14 entries, and a column of 5 blocks
  is reproduced when at most
  :func:`models.core.reproductions.allowed_misses` (5) = 2 blocks miss and no
  entry is beyond 2.5 bands (:data:`models.core.reproductions.GROSS_STD`);
  :func:`simulation_agreement` counts, :func:`models.core.reproductions.reproduction_row`
  decides, and reports the paper run length at which the outcome flips
  (:func:`simulation_bands_at`);
* :func:`reading_residuals`: Table 1 and 2 under every reading of eq. (1)
  tried (:data:`models.min_mva.equations.EQ1_READINGS`) and other iterations
  (:data:`ITERATIONS`: undamped, and stopped early).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.reproductions import entry_band, table_rule
from ..core.setups import SimSettings, named_setup
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
#: The 95% half width given to the paper's analytic values: the stopping point of its iteration, which the
#: paper does not state, taken as one unit of the last printed digit -- a tolerance of the book's, not a
#: noise of the paper's (ours is converged to 1e-12).
ANALYTIC_PAPER_HALF = PRINTED_UNIT
#: Half width of the band within which our analytic value agrees with the centre of a printed one (cycles):
#: ``entry_band(0, ANALYTIC_PAPER_HALF, PRINTED_UNIT)`` = 0.0015, i.e. ours in ``[printed - 0.001, printed + 0.002]``.
ANALYTIC_BAND = entry_band(0.0, ANALYTIC_PAPER_HALF, PRINTED_UNIT)
#: The run length (measured cycles) whose noise the paper's simulated values are given (:func:`paper_sim_half`):
#: the book's assumption (the paper states neither intervals nor run lengths), our quick profile's table runs,
#: 40,000 cycles less 4,000 of warm-up.  At that length the paper's runs are taken to be as precise as ours; at
#: any other, as precise as a run of this length.  The reproductions table shows, for each simulated column, the
#: length at which its outcome would flip (``flips_at``).
PAPER_SIM_CYCLES = 36_000

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


def printed_centre(paper) -> np.ndarray:
    """The value a printed, truncated three-decimal number stands for: ``paper + PRINTED_UNIT / 2``.

    The paper truncates (``x`` prints as ``floor(1000 x) / 1000``), so a
    printed ``p`` stands for ``[p, p + 0.001)``, whose centre is
    ``p + 0.0005``; every comparison is made with it.
    """
    return np.asarray(paper, dtype=float) + PRINTED_UNIT / 2


def printed_agrees(ours, paper) -> np.ndarray:
    """Whether our analytic ``ours`` agrees with the paper's printed analytic ``paper`` (elementwise).

    ``|ours - printed_centre(paper)| <= ANALYTIC_BAND``: ours lies in
    ``[paper - 0.001, paper + 0.002]`` (the truncation, plus one unit for the
    paper's unstated stopping point).
    """
    ours = np.asarray(ours, dtype=float)
    return np.abs(ours - printed_centre(paper)) <= ANALYTIC_BAND * (1 + 1e-12)


def paper_sim_half(ci, measured_cycles: float | None = None, paper_cycles: float | None = None) -> np.ndarray:
    """The 95% half width given to the paper's simulated values, from our half width ``ci`` (elementwise).

    The paper gives neither intervals nor run lengths.  Its noise is a
    property of its runs, so it must not shrink as ours grow: it is taken as
    the noise of one of our runs of :data:`PAPER_SIM_CYCLES` measured cycles,
    ``ci * sqrt(measured_cycles / PAPER_SIM_CYCLES)`` (the half width of a
    mean scales as one over the square root of the run length).  At the
    quick profile's length this is ``ci`` itself, the book's rule for a
    paper that gives no interval; ``measured_cycles=None`` gives ``ci`` too.
    ``paper_cycles``: another assumed length of the paper's runs than the
    book's :data:`PAPER_SIM_CYCLES` (the scan behind ``flips_at``).
    """
    ci = np.asarray(ci, dtype=float)
    if measured_cycles is None:
        return ci
    return ci * np.sqrt(float(measured_cycles) / float(PAPER_SIM_CYCLES if paper_cycles is None else paper_cycles))


def simulation_band(ci, measured_cycles=None, paper_cycles: float | None = None) -> np.ndarray:
    """The band of a simulated entry with our 95% half width ``ci`` (elementwise; cycles).

    :func:`models.core.reproductions.entry_band` of our half width, the
    paper's (:func:`paper_sim_half`: ours scaled to :data:`PAPER_SIM_CYCLES`,
    or to ``paper_cycles``) and half a unit of the last printed digit.
    ``measured_cycles``: one length, or one per entry (NaN or None: unknown).
    """
    ci = np.atleast_1d(np.asarray(ci, dtype=float))
    measured = np.broadcast_to(np.asarray(np.nan if measured_cycles is None else measured_cycles, dtype=float),
                               ci.shape)
    paper = [float(paper_sim_half(c, None if np.isnan(m) else m, paper_cycles)) for c, m in zip(ci, measured)]
    return np.array([entry_band(float(c), p, PRINTED_UNIT) for c, p in zip(ci, paper)])


def simulation_dof(cmp) -> int | None:
    """The degrees of freedom of the half widths of a simulated :func:`compare_table` (``sim_batches`` - 1, the
    Student quantile of the batch means), or None (normal) when unknown or not the same for every entry."""
    batches = cmp["sim_batches"].to_numpy(dtype=float) if "sim_batches" in cmp else np.array([np.nan])
    if batches.size == 0 or not np.all(np.isfinite(batches)) or np.unique(batches).size != 1:
        return None
    return int(batches[0]) - 1


def simulation_bands_at(cmp, paper_cycles: float) -> np.ndarray:
    """The bands of a simulated :func:`compare_table` had the paper run ``paper_cycles`` measured cycles per
    point instead of the book's assumed :data:`PAPER_SIM_CYCLES` (the ``bands_at`` behind ``flips_at``;
    ``sim_measured``: our run lengths)."""
    return simulation_band(cmp["sim_ci"].to_numpy(), cmp["sim_measured"].to_numpy(dtype=float), paper_cycles)


def compare_table(which: int, analytic_results, sim_results=None):
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
        ``sim``, ``sim_ci``, ``sim_measured`` (our measured cycles; NaN if
        unknown), ``sim_batches`` (the batch means behind ``sim_ci``; NaN
        if unknown), ``sim - paper_sim`` (``diff_sim``),
        ``ours - sim``, ``paper_sim_in_ci``, ``sim_band``
        (:func:`simulation_band`) and ``sim_agrees`` (``|sim -
        printed_centre(paper_sim)| <= sim_band``: within the 95% band; the
        table rule tests the entries of one NC together,
        :func:`simulation_agreement`).  NCs without a result are left out.  Times in cycles.
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
            measured = (sim.cycles - sim.warmup) if hasattr(sim, "cycles") and hasattr(sim, "warmup") else None
            band = float(simulation_band(ci, measured)[0])
            row.update(
                sim=val, sim_ci=ci, sim_measured=float("nan") if measured is None else float(measured),
                sim_batches=float(getattr(sim, "batches", float("nan"))), diff_sim=val - rec.simulation, ours_minus_sim=ours - val,
                paper_sim_in_ci=bool(abs(val - rec.simulation) <= ci), sim_band=band,
                sim_agrees=bool(abs(val - float(printed_centre(rec.simulation))) <= band * (1 + 1e-12)),
            )
        out.append(row)
    df = pd.DataFrame(out)
    df.attrs["config"] = paper.attrs["config"]
    df.attrs["caption"] = paper.attrs["caption"]
    return df


# ----------------------------------------------------------------------------
# The chapter's reading of the comparison (used by notebooks/min_mva/04-tables)
# ----------------------------------------------------------------------------
def run_table(which: int, settings: SimSettings = TABLE_SETTINGS, *, setup: str = DEFAULT_SETUP):
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
    out = compare_table(which, model, sims)
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
    """Per NC: entries within their band (``sim_agrees``) of the paper's simulation, and the largest difference."""
    rows = []
    for nc, g in cmp.groupby("NC", sort=True):
        worst = g.loc[g["diff_sim"].abs().idxmax()]
        rows.append({"table": which, "NC": nc, "entries agreeing": f"{int(g['sim_agrees'].sum())}/{len(g)}",
                     "max |ours - paper|": abs(float(worst["diff_sim"])), "at": worst["row"],
                     "CI there": float(worst["sim_ci"])})
    return pd.DataFrame(rows)


def disagreements(tables: dict, max_nc: int = 16):
    """Entries (of ``{which: compare_table(...)}``) with NC <= ``max_nc`` whose simulation misses its band."""
    frames = [cmp.assign(table=which) for which, cmp in tables.items()]
    allc = pd.concat(frames, ignore_index=True)
    miss = allc[(allc["NC"] <= max_nc) & ~allc["sim_agrees"]]
    miss = miss.assign(relative=miss["diff_sim"] / miss["paper_sim"])
    return miss[["table", "row", "NC", "paper_sim", "sim", "sim_ci", "sim_band", "diff_sim", "relative"]].reset_index(
        drop=True)


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
    """The counts of the table rule on a simulated :func:`compare_table` (every row and NC).

    Returns ``{"entries", "agreeing", "outside", "share", "blocks",
    "blocks_missed", "allowed", "largest_std"}``: ``agreeing`` entries lie
    within their 95% band (``sim_agrees``; shown, not what decides); the
    table rule (:func:`models.core.reproductions.table_rule`, one block per
    NC) counts the ``blocks_missed`` of ``blocks`` and the ``allowed`` ones,
    and ``largest_std`` is the largest ``|sim - printed centre| / band``.
    The verdict itself is the rule's own,
    :func:`models.core.reproductions.reproduction_row`
    (:func:`models.min_mva.experiments.simulation_verdicts`), never a
    comparison here.
    """
    n = int(len(cmp))
    k = int(cmp["sim_agrees"].sum())
    out = {"entries": n, "agreeing": k, "outside": n - k, "share": k / n if n else float("nan"),
           "blocks": 0, "blocks_missed": 0, "allowed": 0, "largest_std": float("nan")}
    if n:
        rule = table_rule("simulation", cmp["sim"], printed_centre(cmp["paper_sim"]), cmp["sim_band"],
                          blocks=cmp["NC"], printed_step=PRINTED_UNIT, dof=simulation_dof(cmp))
        out.update({key: rule[key] for key in ("blocks", "blocks_missed", "allowed", "largest_std")})
    return out


def _memory_side(gap: pd.DataFrame) -> tuple[int, int]:
    """Of the (table, NC) columns of ``gap`` (columns ``table``, ``NC``, ``stage`` 1..n counted from the
    processors, ``gap``): how many have a larger mean gap over the half of the stages nearest the memories
    than over the half nearest the processors, and how many columns there are."""
    wins = total = 0
    for _, g in gap.groupby(["table", "NC"], sort=True):
        n = int(g["stage"].max())
        near_mem = g[g["stage"] > n - n // 2]["gap"].mean()
        near_pe = g[g["stage"] <= n // 2]["gap"].mean()
        wins += bool(near_mem > near_pe)
        total += 1
    return wins, total


def bias_pattern(cmps) -> dict:
    """Where the model under- and over-estimates the simulation, over the stages of the given comparisons.

    The paper reads its Tables 1 and 2 (Sec. 3.3): "the model tends to
    underestimate residence times in the forward network (particularly in
    those stages closest to the memory modules) and overestimate residence
    times in the return network (again, particularly in those stages closest
    to the memory modules)".  ``cmps`` are :func:`compare_table` frames with a
    ``table`` attribute or column optional (each frame counts as its own
    table).  Against our simulation (``ours`` - ``sim``):

    ``forward_under``
        share of the forward-stage entries (F1..Fn) with ``ours < sim``;
    ``return_over``
        share of the return-stage entries (R1..Rn) with ``ours > sim``;
    ``forward_memory_side``, ``return_memory_side``
        share of the (table, NC) columns in which the gap in the stated
        direction (``sim - ours`` forward, ``ours - sim`` return), averaged
        over the half of the stages nearest the memories (F4..F6, R4..R6 for
        n = 6), exceeds its average over the half nearest the processors;
    ``columns``
        the number of (table, NC) columns;

    and the same four for the paper's own columns (``paper_analytic``
    against ``paper_sim``), prefixed ``paper_``; ``entries``: the stage
    entries counted.  Frames without a simulation (no ``sim`` column) give
    the paper's shares only (ours are NaN).
    """
    frames = [c.assign(table=c["table"] if "table" in c else i) for i, c in enumerate(cmps)]
    allc = pd.concat(frames, ignore_index=True)
    fwd = allc[allc["row"].str.match(r"^F\d+$")].copy()
    ret = allc[allc["row"].str.match(r"^R\d+$")].copy()
    fwd["stage"] = fwd["row"].str[1:].astype(int)
    ret["stage"] = ret["row"].str[1:].astype(int)
    out = {}
    for prefix, model, sim in (("", "ours", "sim"), ("paper_", "paper_analytic", "paper_sim")):
        if sim not in allc:
            out.update({f"{prefix}{k}": float("nan") for k in ("forward_under", "return_over",
                                                               "forward_memory_side", "return_memory_side")})
            continue
        f_gap = fwd.assign(gap=fwd[sim] - fwd[model])
        r_gap = ret.assign(gap=ret[model] - ret[sim])
        fw, total = _memory_side(f_gap)
        rw, _ = _memory_side(r_gap)
        out.update({f"{prefix}forward_under": float((f_gap["gap"] > 0).mean()),
                    f"{prefix}return_over": float((r_gap["gap"] > 0).mean()),
                    f"{prefix}forward_memory_side": fw / total, f"{prefix}return_memory_side": rw / total})
    out["columns"] = int(allc.groupby(["table", "NC"]).ngroups)
    out["entries"] = int(len(fwd) + len(ret))
    return out


def bias_holds(b: dict, prefix: str = "") -> bool:
    """The paper's sentence on its tables, read literally from :func:`bias_pattern`: "tends to" as more than
    half of the entries, "particularly in those stages closest to the memory modules" as more than half of
    the (table, NC) columns, both in the forward and in the return network (``prefix="paper_"``: on the
    paper's own columns)."""
    return all(b[f"{prefix}{k}"] > 0.5 for k in ("forward_under", "return_over", "forward_memory_side",
                                                 "return_memory_side"))


#: The iterations tried besides the default damped one: name -> keyword arguments of :func:`solve_curve`.  The
#: last stops the plain iteration when no value changes by more than 0.1% (as an author printing three decimals
#: might have): does an unconverged solution explain a residual?
ITERATIONS = {"undamped iteration": {"damping": 1.0},
              "undamped, stopped at 0.1%": {"damping": 1.0, "tol": 1e-3, "accelerate": False}}


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
