"""One plotting style and a deterministic ``savefig``.

:func:`savefig` writes ``<folder>/<label>.svg`` and ``<label>.png`` with the
figure's provenance (label, notebook, parameters, commit) in the metadata.
SVGs are byte-for-byte reproducible: fixed ``svg.hashsalt``, no date.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt

from .cache import atomic_write_bytes
from .paths import ROOT

STYLE = {
    "figure.figsize": (6.4, 4.2),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "font.size": 10,
    "svg.hashsalt": "interconnect-models",
    "svg.fonttype": "path",
    "path.simplify": False,
}

#: Colours for model (lines) and simulation (markers) of the same curve.
COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def use_style() -> None:
    """Apply the compendium's matplotlib style (done on import; call again after a reset)."""
    plt.rcParams.update(STYLE)


use_style()


def git_commit() -> str:
    """Short commit hash of the working tree (``+dirty`` if modified), or ``unknown``."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        return (sha + ("+dirty" if dirty else "")) if sha else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def savefig(
    fig, label: str, *, folder: str | Path = "figures", provenance: dict[str, Any] | None = None, close: bool = True
) -> dict[str, Path]:
    """Save ``fig`` as ``<folder>/<label>.svg`` and ``.png`` atomically, with provenance.

    ``label`` is the figure's cross-reference name (``fig-<chapter>-<what>``).
    The relative ``folder`` resolves against the current directory, which
    the pipeline sets to ``book/<chapter>/``.  With ``close`` (default) the
    figure is closed in pyplot, so a notebook shows it once: as the value
    the cell returns, which carries the cell's caption and label.
    """
    import io

    folder = Path(folder)
    info = {"label": label, "commit": git_commit()}
    nb = os.environ.get("MODELS_NOTEBOOK")
    if nb:
        info["notebook"] = nb
    if provenance:
        info.update(provenance)
    description = json.dumps(info, sort_keys=True, default=str)
    out = {}
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Description": description}, bbox_inches="tight")
    out["svg"] = atomic_write_bytes(folder / f"{label}.svg", buf.getvalue())
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Description": description, "Software": None}, bbox_inches="tight")
    out["png"] = atomic_write_bytes(folder / f"{label}.png", buf.getvalue())
    if close:
        plt.close(fig)
    return out


def plot_model_sim(ax, x, model, sim=None, sim_ci=None, *, label: str = "", color=None, marker: str = "o"):
    """Model as a line, simulation as markers with 95% error bars, one colour per curve."""
    line = ax.plot(x, model, "-", color=color, label=f"{label} model" if label else "model")[0]
    if sim is not None:
        ax.errorbar(
            x, sim, yerr=sim_ci, fmt=marker, mfc="none", color=line.get_color(), capsize=2, ms=5,
            label=f"{label} simulation" if label else "simulation",
        )
    return line


def plot_curve_runs(runs, figure=None, *, ax=None, quantity: str | None = None, saturation_lines: bool = True):
    """Draw :class:`~models.core.experiment.CurveRun` objects on one axis, one colour per curve.

    Model: a line over its finite values (saturated loads are left out, never
    drawn as a jump to a huge number).  Simulation: open markers with 95%
    error bars at the unsaturated points.  With ``saturation_lines``: a dashed
    vertical line at the model's saturation load and a dotted one at the
    simulated one.  With a :class:`~models.core.experiment.Figure`, the axis
    labels (with units) and the title come from it.  Returns the axis.
    """
    import numpy as np

    if ax is None:
        _, ax = plt.subplots()
    for run in runs:
        q = quantity or run.quantity
        m = run.model
        y = m[q].to_numpy(dtype=float)
        ok = np.isfinite(y)
        line = ax.plot(m["load"].to_numpy(dtype=float)[ok], y[ok], "-", label=f"{run.label} model")[0]
        color = line.get_color()
        if run.sim is not None and q in run.sim:
            s = run.sim
            ys = s[q].to_numpy(dtype=float)
            oks = np.isfinite(ys)
            ci = s[f"{q} CI"].to_numpy(dtype=float)[oks] if f"{q} CI" in s else None
            if oks.any():
                ax.errorbar(s["load"].to_numpy(dtype=float)[oks], ys[oks], yerr=ci, fmt="o", mfc="none", color=color,
                            capsize=2, ms=5, label=f"{run.label} simulation")
        if saturation_lines:
            if np.isfinite(run.model_saturation):
                ax.axvline(run.model_saturation, color=color, ls="--", lw=0.8)
            if np.isfinite(run.sim_saturation):
                ax.axvline(run.sim_saturation, color=color, ls=":", lw=0.8)
    if figure is not None:
        ax.set(xlabel=figure.xlabel, ylabel=figure.ylabel, title=figure.title)
    ax.set_xlim(left=0)
    ax.legend(fontsize=8)
    return ax
