"""The paper's experiments and the chapter's own, on the shared skeleton of :mod:`models.core.experiment`.

A curve is a :class:`~models.core.experiment.Curve` (built by
:func:`torus_curve`) whose ``model`` holds the keyword arguments of
:func:`models.torus_dor.solve` (``radices``, ``L``, ``M``,
``bidirectional``, ``readings``) and whose ``loads`` are fractions of the
simulated (``fractions_of="sim"``) or the model's saturation load.
:func:`run_curve` hands it to :func:`models.core.experiment.run_curve` with
this chapter's three functions:

1. the simulated saturation load, :func:`sim_saturation`: a fixed number of
   halvings of :math:`[0, \\text{capacity}]` on :math:`\\lambda_g` by
   :func:`models.core.saturation.find_saturation` (a run is saturated when
   the simulator says so: the backlog grows or passes its limit);
2. the simulations at the curve's fractions of that load (:func:`run_sim`,
   cached on disk by :func:`models.sim.sweep.run_sweep`);
3. the model at the same loads and on a line grid (:func:`model_point`), and
   its own saturation load (:func:`models.torus_dor.saturation_load`).

The simulator runs the paper's scheme (:func:`sim_config`, the model-to-
simulator translation): unidirectional torus, routing ``"dor"`` (VC1 =
v3..vL for any message, v1/v2 dateline escape channels), ``L`` injection VCs,
one ejection VC, buffers of 2 flits, router delay 1 cycle.

Error tables come from :func:`models.core.experiment.error_table`, put in
the chapter's columns by :func:`error_table` (relative errors as fractions
at 25/50/75/90% of the simulated saturation load, saturation loads).  The
chapter's own tables: :func:`points_table`, :func:`decomposition`,
:func:`zero_load_check`, :func:`switch_table`, :func:`switches_2003_table`,
:func:`occupancy_check`, :func:`assumptions_table`,
:func:`channel_rate_table`.  Plots: :mod:`models.torus_dor.plots`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..core import experiment as core
from ..core.experiment import ERROR_FRACTIONS, Curve, CurveRun, Figure
from ..core.saturation import Saturation, find_saturation
from ..core.validate import require_choice
from ..networks.dor_paths import DorCombinatorics
from ..networks.graph import Torus
from ..sim.sweep import run_sweep
from .equations import CHOICES, CHOICES_2003, Readings, Readings2003
from .model2003 import saturation_load_2003, solve_2003
from .solve import check_params, saturation_load, solve

__all__ = [
    "FIGURES", "FRACTIONS", "SIM_MESSAGES", "SIM_WARMUP", "MODEL_POINTS", "torus_curve", "figure1", "figure2",
    "curves_figure", "sim_config", "capacity_load", "sim_saturation", "run_sim", "model_saturation",
    "saturation_2003", "model_point", "model_line", "run_curve", "run_figure", "sim_results", "points_table",
    "error_table", "format_error_table", "decomposition", "zero_load_check", "switch_variants",
    "switch_variants_2003", "switch_table", "switches_2003_table", "occupancy_check", "assumptions_table",
    "channel_rate_table",
]

#: Run lengths of the paper (Sec. 3): 120,000 delivered messages after 10,000 discarded.
SIM_MESSAGES = 120_000
SIM_WARMUP = 10_000
#: Simulated loads of the paper-scale runs, fractions of the simulated saturation load.
FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9)
#: Points of each model line.
MODEL_POINTS = 40

_X_LABEL = r"generation rate $\lambda_g$"


# ----------------------------------------------------------------------------
# Curves and figures
# ----------------------------------------------------------------------------
def torus_curve(radices, L: int, M, *, bidirectional: bool = False, readings: Readings = Readings(),
                fractions: Sequence[float] = FRACTIONS, fractions_of: str = "sim") -> Curve:
    """One latency curve: torus ``radices``, ``L`` VCs, ``M`` flits, at ``fractions`` of a saturation load.

    The label is ``"<k0>x<k1>[ bi], L=<L>, M=<M>"``; ``model`` holds the
    keyword arguments of :func:`models.torus_dor.solve`.
    """
    check_params(radices=radices, L=L, M=M, bidirectional=bidirectional)
    if not isinstance(readings, Readings):
        raise ValueError(f"`readings` must be a Readings instance; got {readings!r}")
    radices = tuple(int(k) for k in radices)
    M = int(M) if float(M).is_integer() else float(M)
    net = "x".join(map(str, radices)) + (" bi" if bidirectional else "")
    return Curve(label=f"{net}, L={int(L)}, M={M}",
                 model=dict(radices=radices, L=int(L), M=M, bidirectional=bool(bidirectional), readings=readings),
                 loads=tuple(fractions), fractions_of=fractions_of)


def curves_figure(label: str, title: str, curves: Sequence[Curve]) -> Figure:
    """A :class:`~models.core.experiment.Figure` of latency against :math:`\\lambda_g`."""
    return Figure(label=label, title=title, curves=tuple(curves), x_label=_X_LABEL, x_unit="messages/node/cycle",
                  y_label="mean message latency", y_unit="cycles")


def figure1(networks=((16, 16), (8, 8, 8)), M_values=(32, 64, 100), vcs_values=(3, 5),
            fractions: Sequence[float] = FRACTIONS) -> Figure:
    """Fig. 1 of the paper: 16x16 and 8x8x8 unidirectional tori, M = 32, 64, 100, L = 3, 5."""
    curves = [torus_curve(tuple(net), int(L), int(M), fractions=fractions)
              for net in networks for L in vcs_values for M in M_values]
    return curves_figure("fig-torus_dor-fig1", "Fig. 1: latency against load, model and simulation", curves)


def figure2(radices=(16, 16), L: int = 5, M: int = 32, fractions: Sequence[float] = FRACTIONS) -> Figure:
    """Fig. 2 of the paper: 16x16, L = 5, M = 32 (this model, the 2003 model, simulation)."""
    c = torus_curve(tuple(radices), int(L), int(M), fractions=fractions)
    return curves_figure("fig-torus_dor-fig2", f"Fig. 2: {c.label}", [c])


#: The paper's figures at the paper's scale.
FIGURES: dict[int, Figure] = {1: figure1(), 2: figure2()}


# ----------------------------------------------------------------------------
# Simulation: the model -> simulator translation
# ----------------------------------------------------------------------------
def sim_config(curve: Curve, *, messages: int, warmup_messages: int, batches: int = 20, seed: int = 1) -> dict:
    """Keyword arguments of :func:`models.sim.wormhole.simulate` for ``curve`` (without ``rate``)."""
    m = curve.model
    return dict(topology=Torus(tuple(m["radices"]), bidirectional=m["bidirectional"]), routing="dor",
                vcs=m["L"], message_length=m["M"], buffer_depth=2, router_delay=1,
                messages=int(messages), warmup_messages=int(warmup_messages), batches=int(batches), seed=int(seed))


def capacity_load(curve: Curve) -> float:
    """Load at which a network channel would be busy all the time (:math:`\\lambda_cM=1`), messages/node/cycle."""
    m = curve.model
    c = DorCombinatorics(m["radices"], bidirectional=m["bidirectional"])
    channels = (2 if m["bidirectional"] else 1) * c.n
    return min(1.0 / m["M"], channels / (float(c.mean_hops) * m["M"]))


def _simulate(cfg: dict, lam_g: float):
    """One cached simulation (the same cache entry as ``simulate(rate=lam_g, cache=True, **cfg)``)."""
    return run_sweep([dict(cfg, rate=float(lam_g))], jobs=1, cache=True, progress=False)[0]


def sim_saturation(curve: Curve, *, messages: int = 20_000, warmup_messages: int = 2_000, steps: int = 8,
                   seed: int = 1) -> Saturation:
    """Simulated saturation load (messages/node/cycle): ``steps`` halvings of ``[0, capacity_load]``.

    Each probe is one cached simulation of ``messages`` messages (10
    batches); ``.load`` is the midpoint of the final bracket (relative width
    ``2**-steps`` of the capacity load).
    """
    cfg = sim_config(curve, messages=messages, warmup_messages=warmup_messages, batches=10, seed=seed)
    return find_saturation(lambda x: _simulate(cfg, x).saturated, 0.0, capacity_load(curve), rtol=0,
                           max_steps=int(steps))


def run_sim(curve: Curve, loads: Sequence[float], *, messages: int, warmup_messages: int, batches: int = 20,
            seed: int = 1) -> list:
    """Simulations of ``curve`` at ``loads`` (cached sweep, in this process); list of WormholeResult."""
    cfg = sim_config(curve, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
    return run_sweep([dict(cfg, rate=float(x)) for x in loads], jobs=1, cache=True, progress=False)


# ----------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------
def _kw_2003(curve: Curve, readings: Readings2003 = Readings2003()) -> dict:
    m = curve.model
    return dict(radices=m["radices"], L=m["L"], M=m["M"], bidirectional=m["bidirectional"], readings=readings)


@functools.lru_cache(maxsize=256)
def _saturation(curve: Curve, model: str) -> float:
    if model == "2003":
        return saturation_load_2003(**_kw_2003(curve))
    return saturation_load(**curve.model)


def model_saturation(curve: Curve) -> float:
    """The model's saturation load (messages/node/cycle), :func:`models.torus_dor.saturation_load` (memoised)."""
    return _saturation(curve, "2004")


def saturation_2003(curve: Curve) -> float:
    """The reconstructed 2003 model's saturation load (default readings; memoised)."""
    return _saturation(curve, "2003")


def model_point(curve: Curve, lam_g: float, *, with_2003: bool = False) -> dict:
    """The model at one load: ``latency`` (inf if saturated), ``saturated``, ``multiplexing`` (NaN if saturated)
    and, ``with_2003``, ``latency 2003`` (the reconstructed 2003 model, default readings)."""
    res = solve(lam_g, **curve.model)
    row = {"latency": res.latency, "saturated": res.saturated,
           "multiplexing": res.multiplexing if not res.saturated else math.nan}
    if with_2003:
        row["latency 2003"] = solve_2003(lam_g, **_kw_2003(curve)).latency
    return row


def model_line(curve: Curve, upto: float, points: int = MODEL_POINTS, *, readings=None,
               model: str = "2004") -> pd.DataFrame:
    """The model on ``points`` loads from ``upto/points`` to ``upto`` (latency ``inf`` past saturation).

    ``readings``: a :class:`Readings` (2004) or :class:`Readings2003` (2003)
    in place of the curve's own.
    """
    require_choice("model", model, ["2004", "2003"])
    loads = np.linspace(upto / points, upto, points)
    if model == "2004":
        kw = dict(curve.model, readings=curve.model["readings"] if readings is None else readings)
        lat = [solve(x, **kw).latency for x in loads]
    else:
        kw = _kw_2003(curve, readings if isinstance(readings, Readings2003) else Readings2003())
        lat = [solve_2003(x, **kw).latency for x in loads]
    return pd.DataFrame({"curve": curve.label, "rate": loads, "latency": lat})


def _line_loads(curve: Curve, sat_model: float, loads: list, points: int, with_2003: bool) -> list:
    """The line grid: up to the last simulated load + 5%, stopping just short of each model's saturation."""
    if points <= 0:
        return []
    xmax = max(loads) * 1.05 if loads else sat_model
    ups = [min(xmax, sat_model * 0.999)]
    if with_2003:
        ups.append(min(xmax, saturation_2003(curve) * 0.999))
    return [float(x) for up in ups for x in np.linspace(up / points, up, points)]


# ----------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------
def run_curve(
    curve: Curve,
    *,
    simulate: bool = True,
    messages: int = SIM_MESSAGES,
    warmup_messages: int = SIM_WARMUP,
    batches: int = 20,
    seed: int = 1,
    sat_messages: int = 20_000,
    sat_steps: int = 8,
    with_2003: bool = False,
    model_points: int = MODEL_POINTS,
) -> CurveRun:
    """Model (and simulation) of one curve, by :func:`models.core.experiment.run_curve`.

    Loads are the curve's fractions of the simulated saturation load (of the
    model's when ``simulate`` is False or the curve has
    ``fractions_of="model"``).  The simulated saturation load is found with
    ``sat_messages`` messages per probe (a tenth of them discarded first, at
    least 200) and ``sat_steps`` halvings.  ``run.sim`` has the columns
    ``latency``, ``latency CI`` (95% half width), ``saturated``,
    ``multiplexing``, ``hops`` and ``result`` (the WormholeResult);
    ``run.model`` has ``latency``, ``saturated``, ``multiplexing`` (and
    ``latency 2003`` with ``with_2003``) at the simulated loads and on a line
    grid of ``model_points`` loads per model.
    """

    def sim(c, loads):
        sims = run_sim(c, loads, messages=messages, warmup_messages=warmup_messages, batches=batches, seed=seed)
        return [{"latency": sm.latency, "latency CI": sm.latency_ci, "saturated": sm.saturated,
                 "multiplexing": sm.multiplexing, "hops": sm.mean_hops, "result": sm} for sm in sims]

    def sim_sat(c, _model_load):
        return sim_saturation(c, messages=sat_messages, warmup_messages=max(sat_messages // 10, 200),
                              steps=sat_steps, seed=seed)

    return core.run_curve(
        curve, lambda c, x: model_point(c, x, with_2003=with_2003), sim if simulate else None,
        model_saturation=model_saturation, sim_saturation=sim_sat,
        line=lambda c, sat, loads: _line_loads(c, sat, loads, int(model_points), with_2003))


def run_figure(figure: Figure, **kwargs) -> tuple:
    """:func:`run_curve` for every curve of ``figure`` (keywords as for :func:`run_curve`)."""
    return tuple(run_curve(c, **kwargs) for c in figure.curves)


def sim_results(run: CurveRun) -> list:
    """The WormholeResult objects of a run's simulated points (in the curve's order)."""
    return [] if run.sim is None else list(run.sim["result"])


# ----------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------
def points_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """One row per simulated point: curve, fraction, rate, model latency, model multiplexing,
    [2003 latency], sim latency, sim CI, sim saturated, sim multiplexing, sim hops."""
    frames = []
    for run in runs:
        if run.sim is None:
            pts = run.model[np.isfinite(run.model["fraction"].to_numpy(dtype=float))]
            pts = pts.rename(columns={c: f"model {c}" for c in pts.columns if c not in ("curve", "load", "fraction")})
        else:
            pts = run.points()
        out = pd.DataFrame({"curve": pts["curve"], "fraction": pts["fraction"], "rate": pts["load"],
                            "model latency": pts["model latency"],
                            "model multiplexing": pts["model multiplexing"]})
        if "model latency 2003" in pts:
            out["2003 latency"] = pts["model latency 2003"]
        if run.sim is not None:
            for new, old in (("sim latency", "sim latency"), ("sim CI", "sim latency CI"),
                             ("sim saturated", "sim saturated"), ("sim multiplexing", "sim multiplexing"),
                             ("sim hops", "sim hops")):
                out[new] = pts[old]
        frames.append(out)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _pct(f: float) -> str:
    return f"{int(round(f * 100))}%"


def error_table(runs: Sequence[CurveRun], fractions: Sequence[float] = ERROR_FRACTIONS) -> pd.DataFrame:
    """One row per curve: relative error ``(model - sim)/sim`` (a fraction, not percent) at each fraction
    of the simulated saturation load, and the saturation loads (messages/node/cycle) of the model, the
    simulation (and the 2003 model, when the runs have its latency).

    Built on :func:`models.core.experiment.error_table`: an error is ``inf``
    when the model is saturated at that load, NaN when the simulation is (or
    the fraction was not run).  Columns: ``curve``, ``err <p>%`` [and
    ``err 2003 <p>%``] per fraction, ``sat model``, ``sat sim``, [``sat
    2003``], ``sat model / sim``.
    """
    fractions = tuple(fractions)
    base = core.error_table(runs, at=fractions)
    has_2003 = any("latency 2003" in r.model for r in runs)
    if has_2003:
        runs_2003 = [dataclasses.replace(r, model=r.model.assign(latency=r.model["latency 2003"]),
                                         model_saturation=saturation_2003(r.curve)) for r in runs]
        t2003 = core.error_table(runs_2003, at=fractions)
    out = pd.DataFrame({"curve": base["curve"]})
    for f in fractions:
        col = f"err @{round(100 * f, 6):g}% [%]"  # the column of models.core.experiment.error_table
        out[f"err {_pct(f)}"] = base[col] / 100.0
        if has_2003:
            out[f"err 2003 {_pct(f)}"] = t2003[col] / 100.0
    out["sat model"] = base["model saturation"]
    out["sat sim"] = base["sim saturation"]
    if has_2003:
        out["sat 2003"] = t2003["model saturation"]
    out["sat model / sim"] = base["saturation ratio"]
    return out


def format_error_table(table: pd.DataFrame) -> pd.DataFrame:
    """The error table with errors as percentages and loads to 3 significant digits (strings, for the chapter page)."""
    out = table.copy()
    for c in out.columns:
        if c.startswith("err") or c == "sat model / sim":
            out[c] = [("inf" if v == math.inf else "n/a" if not math.isfinite(v) else f"{v:+.1%}") if c.startswith("err")
                      else (f"{v:.2f}" if math.isfinite(v) else "n/a") for v in out[c]]
        elif c.startswith("sat"):
            out[c] = [f"{v:.3g}" if math.isfinite(v) else "n/a" for v in out[c]]
    return out


def decomposition(runs: Sequence[CurveRun], fraction: float = 0.5) -> pd.DataFrame:
    """Where the latency goes at ``fraction`` of the simulated saturation load, per curve.

    Columns: the multiplexing degree of model and simulation, and the latency
    divided by it minus the zero-load latency ``M + h + 1`` ("delay beyond
    multiplexing", cycles): the model's blocking and queueing terms, and what
    the simulation shows beyond its measured multiplexing.
    """
    rows = []
    for run in runs:
        if run.sim is None:
            continue
        pts = points_table([run])
        sel = pts[np.isclose(pts["fraction"], fraction)]
        if sel.empty:
            continue
        row = sel.iloc[0]
        zero = solve(1e-12, **run.curve.model).latency
        rows.append({"curve": run.label, "fraction": fraction, "zero-load": zero,
                     "l-bar model": row["model multiplexing"], "l-bar sim": row["sim multiplexing"],
                     "beyond mux model": row["model latency"] / row["model multiplexing"] - zero,
                     "beyond mux sim": row["sim latency"] / row["sim multiplexing"] - zero})
    return pd.DataFrame(rows)


def zero_load_check(curve: Curve, *, rate_fraction: float = 0.002, messages: int = 5000, seed: int = 1) -> dict:
    """Model and simulated latency at a tiny load (``rate_fraction`` of the capacity load) and ``M + h + 1``."""
    x = rate_fraction * capacity_load(curve)
    res = solve(x, **curve.model)
    sm = _simulate(sim_config(curve, messages=messages, warmup_messages=max(messages // 10, 100), seed=seed), x)
    return {"curve": curve.label, "rate": x, "model": res.latency, "sim": sm.latency, "sim CI": sm.latency_ci,
            "M+h+1": curve.model["M"] + res.h + 1, "rel. error": (res.latency - sm.latency) / sm.latency}


# ----------------------------------------------------------------------------
# Readings (switches)
# ----------------------------------------------------------------------------
def switch_variants(base: Readings = Readings()) -> dict[str, Readings]:
    """The default reading, every single-switch alternative, and all-printed."""
    out = {"default": base}
    for name, choices in CHOICES.items():
        for c in choices:
            if c != getattr(base, name):
                out[f"{name}={c}"] = base.replace(**{name: c})
    out[f"ejection_cycle={not base.ejection_cycle}"] = base.replace(ejection_cycle=not base.ejection_cycle)
    out["all printed"] = Readings.printed()
    return out


def switch_variants_2003(base: Readings2003 = Readings2003()) -> dict[str, Readings2003]:
    """The 2003 model's default reading and every single-switch alternative."""
    out = {"default": base}
    for name, choices in CHOICES_2003.items():
        for c in choices:
            if c != getattr(base, name):
                out[f"{name}={c}"] = base.replace(**{name: c})
    return out


def _switch_rows(variants: Mapping, loads, sim_latency, saturation, latency) -> pd.DataFrame:
    rows = []
    for name, rd in variants.items():
        row = {"reading": name, "saturation": saturation(rd)}
        for i, x in enumerate(loads):
            lat = latency(x, rd)
            row[f"T @ {x:.3g}"] = lat
            if sim_latency is not None and math.isfinite(sim_latency[i]):
                row[f"err @ {x:.3g}"] = (lat - sim_latency[i]) / sim_latency[i] if math.isfinite(lat) else math.inf
        rows.append(row)
    return pd.DataFrame(rows)


def switch_table(curve: Curve, loads: Sequence[float], sim_latency: Sequence[float] | None = None,
                 variants: dict | None = None) -> pd.DataFrame:
    """Saturation load and latency at ``loads`` under every reading; with ``sim_latency``, the errors."""
    variants = switch_variants(curve.model["readings"]) if variants is None else variants
    return _switch_rows(variants, loads, sim_latency,
                        lambda rd: saturation_load(**dict(curve.model, readings=rd)),
                        lambda x, rd: solve(x, **dict(curve.model, readings=rd)).latency)


def switches_2003_table(curve: Curve, loads: Sequence[float], sim_latency=None):
    """Saturation and latency of the reconstructed 2003 model under each of its switches; ``(table, variants)``."""
    variants = switch_variants_2003()
    table = _switch_rows(variants, loads, sim_latency,
                         lambda rd: saturation_load_2003(**_kw_2003(curve, rd)),
                         lambda x, rd: solve_2003(x, **_kw_2003(curve, rd)).latency)
    return table, variants


# ----------------------------------------------------------------------------
# Assumptions (beyond the paper)
# ----------------------------------------------------------------------------
def occupancy_check(run: CurveRun) -> pd.DataFrame:
    """Measured vs modelled VC-occupancy distribution (P(v busy VCs), averaged over the channels of all
    dimensions) and multiplexing degree at the run's simulated loads."""
    curve, L = run.curve, run.curve.model["L"]
    rows = []
    for x, sm in zip(run.sim["load"], sim_results(run)):
        res = solve(x, **curve.model)
        model_occ = res.occupancy.mean(axis=0) if not res.saturated else np.full(L + 1, np.nan)
        for v in range(L + 1):
            rows.append({"rate": x, "busy VCs": v, "model": float(model_occ[v]),
                         "sim": float(sm.vc_busy_hist[v]) if sm is not None else math.nan})
        rows.append({"rate": x, "busy VCs": "multiplexing", "model": res.multiplexing if not res.saturated else math.nan,
                     "sim": sm.multiplexing if sm is not None else math.nan})
    return pd.DataFrame(rows)


def assumptions_table(run: CurveRun) -> pd.DataFrame:
    """What the model assumes against what the simulator measures at the run's loads: mean busy VCs,
    P(all L busy), multiplexing degree, source queueing time and latency (cycles)."""
    curve, L = run.curve, run.curve.model["L"]
    rows = []
    for x, f, sm in zip(run.sim["load"], run.sim["fraction"], sim_results(run)):
        res = solve(x, **curve.model)
        mo = res.occupancy.mean(axis=0) if not res.saturated else np.full(L + 1, np.nan)
        v = np.arange(L + 1)
        rows.append({"load (fraction of model sat.)": f, "rate": x,
                     "mean busy VCs model": float(mo @ v), "mean busy VCs sim": float(sm.vc_busy_hist @ v),
                     "P(all L busy) model": float(mo[-1]), "P(all L busy) sim": float(sm.vc_busy_hist[-1]),
                     "l-bar model": res.multiplexing, "l-bar sim": sm.multiplexing,
                     "source wait model": res.source_wait, "source wait sim": sm.source_wait,
                     "latency model": res.latency, "latency sim": sm.latency})
    return pd.DataFrame(rows)


def channel_rate_table(runs: Sequence[CurveRun]) -> pd.DataFrame:
    """Saturation loads under the mean (printed) and the per-dimension channel rate, against the simulation."""
    rows = []
    for run in runs:
        m = run.curve.model
        rows.append({"curve": run.label, "sat sim": run.sim_saturation, "sat model (mean rate)": run.model_saturation,
                     "sat model (per-dimension rate)": saturation_load(
                         **dict(m, readings=m["readings"].replace(channel_rate="per-dimension")))})
    return pd.DataFrame(rows)
