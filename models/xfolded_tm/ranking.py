"""Which network is faster: x-Folded TM against TM and the torus, decided beyond the noise.

The paper's delay claims (the abstract's "reduced", Sec. 4's "less than
average delay ... until the saturation time", Sec. 1's "can outperform")
compare x-Folded TM's delay or throughput with TM's and the torus's.  Each
comparison is decided by a criterion declared in
:mod:`models.core.criteria`: delays per injection rate by
``lower-beyond-noise`` (:func:`models.core.criteria.lower` on the simulated
delays and their 95 % half widths; the model has none), saturation rates by
``beyond-brackets`` (the bisection brackets).  A comparison within the noise
is undecided (``None``), never counted as a win or a loss.

* :func:`rate_decisions` / :func:`decide`: per rate, and over rates;
* :func:`ranking_table` (simulation or model, per ``V``, set-up and
  reading of Definition 1) and :func:`paper_model_ranking` (the paper's own
  model: x-Folded TM with Theorem 1 as printed), from
  :func:`models.xfolded_tm.experiments.delay_frame`;
* :func:`outperform_table`: throughput and delay against a network of
  similar size.

Delays in cycles, injection rates in flits/node/cycle.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..core.criteria import lower
from .setups import PAPER_K, READING_LABELS, TOPOLOGIES, network

__all__ = ["rate_decisions", "decide", "ranking_table", "paper_model_ranking", "OUTPERFORM_COLUMNS",
           "outperform_table"]


def rate_decisions(x: Sequence[float], x_half: Sequence[float], others: Sequence[tuple]) -> list:
    """Per rate, whether x-Folded TM's delay ``x`` is below every other network's beyond the noise.

    ``others``: ``(delays, half widths)`` per other network, aligned with
    ``x`` (``inf`` = saturated, a NaN half width = none).  True when
    :func:`~models.core.criteria.lower` says lower than each; False when it
    says above one of them (x-Folded TM slower there beyond the noise); None
    otherwise (within the noise, or both saturated).
    """
    out = []
    for i, xi in enumerate(x):
        d = [lower(xi, x_half[i], o[i], oh[i]) for o, oh in others]
        out.append(False if any(v is False for v in d) else True if all(v is True for v in d) else None)
    return out


def decide(decisions: Sequence) -> bool | None:
    """Over rates: False when any rate is False, True when every rate is True, else None (no rate: None)."""
    d = list(decisions)
    if not d:
        return None
    return False if any(v is False for v in d) else True if all(v is True for v in d) else None


def _row(sub: pd.DataFrame, half: pd.DataFrame | None, key: str) -> dict:
    """The comparison columns of one (V, set-up, reading): ``sub`` the delays (rates x networks)."""
    h = half.loc[sub.index] if half is not None else pd.DataFrame(0.0, index=sub.index, columns=sub.columns)
    dec = rate_decisions(sub[key].to_numpy(), h[key].to_numpy(),
                         [(sub[o].to_numpy(), h[o].to_numpy()) for o in ("tm", "torus")])
    before = np.isfinite(sub[key].to_numpy())
    point = (sub[key] < sub["tm"]) & (sub[key] < sub["torus"])
    return {"rates compared": int(len(sub)), "lower than TM and torus": int(point.sum()),
            "lower beyond the 95% CIs": sum(v is True for v in dec),
            "higher beyond the 95% CIs": sum(v is False for v in dec),
            "lower beyond noise": decide(dec),
            "rates before saturation": int(before.sum()),
            "lower beyond noise before saturation": decide([v for v, b in zip(dec, before) if b])}


def ranking_table(frame, column: str = "sim") -> pd.DataFrame:
    """For each V, set-up and reading: is x-Folded TM's delay below TM's and the torus's, rate by rate?

    ``frame`` is :func:`models.xfolded_tm.experiments.delay_frame`; uses
    ``column`` (``"sim"``, with its ``"sim CI"`` half widths, or a model
    column, no noise); a saturated value counts as ``inf``; rates where all
    three are saturated are left out.  One row per (V, set-up, reading) -- for
    a model column the set-ups share one model, so ``setup`` is ``"-"`` --
    with ``rates compared``, ``lower than TM and torus`` (point estimates, for
    the record), ``lower beyond the 95% CIs`` / ``higher beyond the 95% CIs``
    (rates decided each way, :func:`rate_decisions`), ``lower beyond noise``
    (:func:`decide` over every rate: the criterion ``lower-beyond-noise``),
    and the same up to x-Folded TM's saturation (``rates before saturation``,
    ``lower beyond noise before saturation``).  Set-ups on which TM or the
    torus was not simulated are left out.
    """
    rows = []
    if "setup" not in frame:
        frame = frame.assign(setup="")
    groups = frame.groupby(["V", "setup"], sort=False) if column == "sim" else \
        ((key, g.drop_duplicates(["key", "injection"])) for key, g in
         frame.assign(setup="-").groupby(["V", "setup"], sort=False))
    for (V, setup_name), g in groups:
        piv = g.pivot_table(index="injection", columns="key", values=column, aggfunc="first")
        if not {"tm", "torus"} <= set(piv.columns):
            continue
        half = None
        if column == "sim" and "sim CI" in g:
            half = g.pivot_table(index="injection", columns="key", values="sim CI", aggfunc="first")
            half = half.reindex(index=piv.index, columns=piv.columns)
        for key in [c for c in piv.columns if c.startswith("xfolded")]:
            sub = piv[[key, "tm", "torus"]].replace(np.nan, np.inf)
            sub = sub[np.isfinite(sub).any(axis=1)]
            rows.append({"V": V, "setup": setup_name, "reading": key.replace("xfolded_", ""), "source": column,
                         **_row(sub, None if half is None else half[[key, "tm", "torus"]], key)})
    return pd.DataFrame(rows)


def paper_model_ranking(frame: pd.DataFrame) -> pd.DataFrame:
    """Does the paper's model show x-Folded TM below TM and the torus?  Per ``V``, at the delay figure's rates.

    ``frame`` is :func:`models.xfolded_tm.experiments.delay_frame`.  x-Folded TM with the average distance
    of Theorem 1 as printed (the paper's own input; column ``model (Thm 1
    printed)``) against TM and the torus with their BFS distances (column
    ``model``); a saturated model counts as infinite delay; the model has no
    noise.  Rows in the columns of :func:`ranking_table` (``setup`` ``"-"``,
    ``reading`` ``"thm1"``, ``source`` ``"model (Thm 1 printed)"``).
    """
    rows = []
    f = frame.drop_duplicates(["V", "key", "injection"])
    for V, g in f.groupby("V", sort=False):
        x = g[g["key"] == "xfolded_printed"].set_index("injection")["model (Thm 1 printed)"]
        others = [g[g["key"] == key].set_index("injection")["model"] for key in ("tm", "torus")]
        if x.empty or any(o.empty for o in others):
            continue
        sub = pd.concat([x] + others, axis=1, keys=["x", "tm", "torus"]).replace(np.nan, np.inf)
        sub = sub[np.isfinite(sub).any(axis=1)]
        rows.append({"V": V, "setup": "-", "reading": "thm1", "source": "model (Thm 1 printed)",
                     **_row(sub, None, "x")})
    return pd.DataFrame(rows)


#: Columns of :func:`outperform_table`.
OUTPERFORM_COLUMNS = ("setup", "reading", "measure", "V", "M", "x-Folded TM", "best other", "other network",
                      "ratio", "beyond the brackets", "decided", "aggregate ratio")


def _bracket_end(by: pd.DataFrame, net: str, side: str) -> float:
    """An end (``"lo"``/``"hi"``) of ``net``'s simulated saturation bracket (its estimate when not recorded)."""
    col = f"sim saturation {side}"
    value = float(by.loc[net, col]) if col in by else math.nan
    return value if math.isfinite(value) else float(by.loc[net, "sim saturation"])


def outperform_table(validation: pd.DataFrame, ranking: pd.DataFrame | None = None, *, k: int = PAPER_K,
                     M: int = 32) -> pd.DataFrame:
    """x-Folded TM against TM and the torus in the simulation: throughput per (V, M) and delay per V, per set-up.

    Throughput (``measure`` ``"throughput"``): the simulated saturation
    injection rate (flits/node/cycle) of x-Folded TM (each reading) and of
    the better of TM and the torus, their ``ratio``, ``decided`` by the
    criterion ``beyond-brackets``: True when x-Folded TM's bracket lies above
    both others' (``beyond the brackets``), False when it lies below the
    better one's, None when they overlap; and the ``aggregate ratio`` (rates
    times node counts: x-Folded TM has fewer nodes).  Delay (``measure``
    ``"delay"``, from ``ranking``, :func:`ranking_table` of the simulation):
    ``ratio`` the share of the delay figure's rates where x-Folded TM is
    below both beyond the noise, ``decided`` its ``lower beyond noise``
    (``M``: the delay figure's message length).
    """
    rows = []
    v = validation[validation["runnable"]]
    nodes = {key: network(key, k).n_nodes for key in TOPOLOGIES}
    for (s, V, M_), g in v.groupby(["setup", "V", "M"], sort=False):
        by = g.set_index("key")
        others = [key for key in ("torus", "tm") if key in by.index]
        if not others:
            continue
        best = max(others, key=lambda key: float(by.loc[key, "sim saturation"]))
        for reading in READING_LABELS:
            key = f"xfolded_{reading}"
            if key not in by.index:
                continue
            x, o = float(by.loc[key, "sim saturation"]), float(by.loc[best, "sim saturation"])
            above = _bracket_end(by, key, "lo") > max(_bracket_end(by, net, "hi") for net in others)
            below = _bracket_end(by, key, "hi") < _bracket_end(by, best, "lo")
            rows.append(dict(zip(OUTPERFORM_COLUMNS, (s, reading, "throughput", int(V), int(M_), x, o, best, x / o,
                                                      bool(above), True if above else False if below else None,
                                                      x * nodes[key] / (o * nodes[best])))))
    if ranking is not None and not ranking.empty:
        sim = ranking[(ranking["source"] == "sim") & ranking["reading"].isin(list(READING_LABELS))]
        for _, r in sim.iterrows():
            n = int(r["rates compared"])
            d = r["lower beyond noise"]
            d = None if d is None or (isinstance(d, float) and math.isnan(d)) else bool(d)
            rows.append(dict(zip(OUTPERFORM_COLUMNS, (r["setup"], r["reading"], "delay", int(r["V"]), int(M), math.nan,
                                                      math.nan, "TM and torus",
                                                      int(r["lower beyond the 95% CIs"]) / n if n else math.nan,
                                                      d is True, d, math.nan))))
    return pd.DataFrame(rows, columns=list(OUTPERFORM_COLUMNS))
