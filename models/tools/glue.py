"""The numbers the warm-up pages quote, computed here from the pages' tables (and unit-tested)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["glue_values_zero_load", "glue_values_little", "glue_values_mg1", "glue_values_saturation"]


def _worst(errors) -> float:
    """The largest magnitude of signed relative errors (a fraction); ``nan`` for none."""
    e = np.abs(np.asarray(errors, dtype=float))
    e = e[np.isfinite(e)]
    return float(e.max()) if e.size else math.nan


def glue_values_zero_load(table) -> dict:
    """``tools-zero-worst``: the worst |error| of ``T0`` at the mean distance; ``tools-zero-worst-hops``: at the
    simulated messages' own mean hops; ``tools-zero-min``/``-max``: the range of the simulated latencies."""
    own = (table["model at sim hops"] - table["sim"]) / table["sim"]
    return {"tools-zero-worst": _worst(table["error"]), "tools-zero-worst-hops": _worst(own),
            "tools-zero-min": float(table["sim"].min()), "tools-zero-max": float(table["sim"].max())}


def glue_values_little(table) -> dict:
    """``tools-little-worst``: the worst |gap| between ``lambda W`` and the counted ``L``; ``tools-little-max-L``:
    the most messages counted in the network; ``tools-little-points``: the loads compared;
    ``tools-little-top-fraction``: the highest of them, a fraction of the throughput bound."""
    return {"tools-little-worst": _worst(table["gap"]), "tools-little-max-L": float(table["counted L"].max()),
            "tools-little-points": int(len(table)),
            "tools-little-top-fraction": float(table["fraction of bound"].max())}


def glue_values_mg1(table) -> dict:
    """``tools-mg1-worst``: the worst |error| of P-K against the simulated queue; ``tools-mg1-within``: how many
    rows lie within two half widths of the simulation (of ``tools-mg1-rows``); ``tools-mg1-ratio``: the model's
    M/D/1 wait over its M/M/1 wait at the same utilisation (1/2 by P-K)."""
    within = (table["model W"] - table["sim W"]).abs() <= 2 * table["sim 95% ±"]
    det = table[table["service"] == "deterministic"].set_index("rho")["model W"]
    exp = table[table["service"] == "exponential"].set_index("rho")["model W"]
    ratio = (det / exp).dropna()
    return {"tools-mg1-worst": _worst(table["error"]), "tools-mg1-within": int(within.sum()),
            "tools-mg1-rows": int(len(table)), "tools-mg1-ratio": float(ratio.mean())}


def glue_values_saturation(latency, *, bound: float, channel: float, ejection: float, saturation: dict,
                           doubling: dict, accepted) -> dict:
    """The saturation page's numbers: the two bounds and the binding one, per VC count ``V`` the simulated
    saturation load and its fraction of the bound (``tools-sat-<V>``, ``tools-sat-<V>-fraction``), the load at
    which the latency doubles the zero-load one and its fraction of the saturation load
    (``tools-knee-<V>``, ``tools-knee-<V>-fraction``), and at the largest offered load the throughput the
    network accepted (``tools-accepted-last-<V>``, messages/node/cycle) and its fraction of the offered one
    (``tools-accepted-last-<V>-fraction``)."""
    out = {"tools-bound": float(bound), "tools-bound-channel": float(channel), "tools-bound-ejection": float(ejection),
           "tools-bound-binding": "the network channels" if channel <= ejection else "the ejection channel",
           "tools-sat-points": int(len(latency))}
    for vcs, sat in saturation.items():
        out[f"tools-sat-{vcs}"] = float(sat)
        out[f"tools-sat-{vcs}-fraction"] = float(sat) / float(bound)
        out[f"tools-knee-{vcs}"] = float(doubling[vcs])
        out[f"tools-knee-{vcs}-fraction"] = float(doubling[vcs]) / float(sat)
        last = accepted[accepted["vcs"] == vcs].sort_values("offered").iloc[-1]
        out[f"tools-accepted-last-{vcs}"] = float(last["accepted"])
        out[f"tools-accepted-last-{vcs}-fraction"] = float(last["accepted"]) / float(last["offered"])
    return out
