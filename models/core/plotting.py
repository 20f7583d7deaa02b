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
