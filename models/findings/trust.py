"""Where each model can be trusted: the five chapters' accuracy atlases side by side.

Each chapter's atlas page writes ``book/<chapter>/tables/tab-<chapter>-atlas.csv``
(:mod:`models.core.atlas`: one row per configuration and simulator set-up,
the worst error by the book's rule and its band).  This module reads them,
re-types no number, and puts the models side by side: per chapter, on the
set-up that stands for the model (its errors measure the model's
approximations) and on the paper's where the chapter has one, how many
configurations fall in each band, the median saturation ratio, and one
sentence per model with its region within 5 % and 10 %
(:func:`models.core.atlas.summary_sentence`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from .. import CHAPTERS
from ..core import atlas as core
from ..core import plotting
from ..core.atlas_plot import COLORS, EARLY_COLOR
from ..min_mva import atlas as min_mva_atlas
from ..torus_dor import atlas as torus_dor_atlas
from ..torus_ipp import atlas as torus_ipp_atlas
from ..torus_nbc import atlas as torus_nbc_atlas
from ..xfolded_tm import atlas as xfolded_tm_atlas

__all__ = ["SPECS", "read_atlases", "band_table", "sentences", "glue_values", "plot_bands", "BAND_ORDER"]

#: Each chapter's atlas, by slug.
SPECS = {s.chapter: s for s in (min_mva_atlas.SPEC, torus_dor_atlas.SPEC, torus_ipp_atlas.SPEC, xfolded_tm_atlas.SPEC,
                                torus_nbc_atlas.SPEC)}
#: The bands, best first, as the table's columns.
BAND_ORDER = ("within 5 %", "within 10 %", "beyond 10 %", core.EARLY)


def read_atlases(book_dir, chapters: Iterable[str] | None = None) -> dict:
    """Each chapter's atlas table (``<book_dir>/<chapter>/tables/tab-<chapter>-atlas.csv``), by slug; a missing
    file raises :class:`FileNotFoundError` naming it."""
    out = {}
    for ch in (CHAPTERS if chapters is None else chapters):
        path = core.atlas_file(book_dir, ch)
        if not Path(path).is_file():
            raise FileNotFoundError(f"no atlas table for {ch}: {path} (run the chapter's atlas page first)")
        out[ch] = core.read_atlas(path)
    return out


def band_table(atlases: dict) -> pd.DataFrame:
    """One row per chapter and set-up: configurations, how many in each band (cumulative for 10 %), the median
    saturation ratio (model / simulated; open systems), and the paper's configurations' worst error."""
    rows = []
    for ch, frame in atlases.items():
        spec = SPECS[ch]
        for setup in dict.fromkeys(frame["setup"]):
            part = frame[frame["setup"] == setup]
            n = core.counts(frame, spec, setup)
            ratio = part["saturation ratio"].astype(float)
            ratio = ratio[np.isfinite(ratio)]
            paper = part[part["paper configuration"].astype(bool)]["worst |err|"].astype(float)
            rows.append({"chapter": ch, "setup": setup,
                         "stands for": "the model" if setup == spec.setups[0] else "the paper",
                         "configurations": n["configurations"], "within 5 %": n["within 5 %"],
                         "within 10 %": n["within 10 %"], "beyond 10 %": n["beyond 10 %"],
                         "saturates early": n["saturates early"], core.NOT_SIMULATED: n[core.NOT_SIMULATED],
                         "median saturation ratio": float(ratio.median()) if len(ratio) else math.nan,
                         "worst at the paper's": float(paper.max()) if len(paper) else math.nan})
    return pd.DataFrame(rows)


def sentences(atlases: dict) -> dict:
    """One sentence per chapter: its model's region within 5 % and 10 % on the set-up that stands for it."""
    return {ch: core.summary_sentence(frame, SPECS[ch]) for ch, frame in atlases.items()}


def glue_values(table: pd.DataFrame, atlases: dict) -> dict:
    """What the page glues: per chapter ``findings-trust-<chapter>`` (its sentence), and the totals."""
    out = {f"findings-trust-{ch}": s for ch, s in sentences(atlases).items()}
    own = table[table["stands for"] == "the model"]
    out["findings-trust-configurations"] = int(own["configurations"].sum())
    out["findings-trust-within5"] = int(own["within 5 %"].sum())
    out["findings-trust-within10"] = int(own["within 10 %"].sum())
    out["findings-trust-early"] = int(own["saturates early"].sum())
    return out


def plot_bands(table: pd.DataFrame):
    """Stacked bars: the share of configurations in each band, per chapter and set-up (the model's first)."""
    labels = [f"{r.chapter}\n{r.setup}" for r in table.itertuples()]
    n = table["configurations"].to_numpy(dtype=float)
    shares = {
        "within 5 %": table["within 5 %"].to_numpy() / n,
        "5-10 %": (table["within 10 %"] - table["within 5 %"]).to_numpy() / n,
        "beyond 10 %": table["beyond 10 %"].to_numpy() / n,
        "saturates early": table["saturates early"].to_numpy() / n,
        core.NOT_SIMULATED: table[core.NOT_SIMULATED].to_numpy() / n,
    }
    colors = {"within 5 %": COLORS[1], "5-10 %": COLORS[3], "beyond 10 %": COLORS[5], "saturates early": EARLY_COLOR,
              core.NOT_SIMULATED: "white"}
    fig, axes = plotting.column_figure(1, 1, height=0.42 * len(labels) + 1.4)
    ax = axes[0, 0]
    y = np.arange(len(labels))[::-1]
    left = np.zeros(len(labels))
    for name, share in shares.items():
        ax.barh(y, share, left=left, color=colors[name], label=name,
                edgecolor="0.6" if name == core.NOT_SIMULATED else "white",
                hatch="///" if name == "saturates early" else None)
        left += share
    for yi, total in zip(y, n):
        ax.text(1.01, yi, f"{int(total)}", va="center", fontsize=plotting.MIN_FONT)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(plotting.plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_xlabel("share of the atlas's configurations (number at the right)")
    ax.grid(False)
    fig.legend(loc="outside upper center", ncols=5, frameon=False)
    return fig
