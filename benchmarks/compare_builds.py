"""What moved between two builds of the book: every table's numbers, old against new.

``python benchmarks/compare_builds.py OLD_BOOK NEW_BOOK [--top N]`` reads ``<book>/<chapter>/tables/*.csv`` of
both folders (the executed book's tables, e.g. ``book`` of two checkouts after ``make book``) and prints, per
table with the same shape in both: the numeric cells compared, how many moved, the largest relative move and
the cells that moved most.  For the simulated points (a ``latency`` column with its 95 % half width, ``latency
CI`` or ``CI``, or ``sim`` with ``sim CI``) it also counts the points whose move exceeds the two half widths
together (``beyond noise``), the test of "moved beyond its stated precision", among the points simulated at the
same load (``rate`` or ``injection`` unchanged: loads that are fractions of a simulated saturation load move
with it).  A table with columns added or
removed is compared on the columns both have; one whose rows changed in number is named, not compared.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import pandas as pd

CI_PAIRS = (("latency", "latency CI"), ("latency", "CI"), ("sim latency", "sim CI"), ("sim latency", "sim latency CI"),
            ("sim delay", "sim 95% CI"))
#: the load column of a points table: a point is compared with its old value only at the same load
LOAD_COLUMNS = ("rate", "injection", "load")


def _numeric(df: pd.DataFrame) -> pd.DataFrame:
    """The numeric cells as floats (booleans and text: NaN, not compared)."""
    out = df.apply(pd.to_numeric, errors="coerce").astype(float)
    return out.where(df.map(lambda v: not isinstance(v, (bool, np.bool_))))


def compare_table(old: pd.DataFrame, new: pd.DataFrame) -> dict:
    """Cells compared and moved, the largest relative move, the points beyond their noise (see the module)."""
    a, b = _numeric(old), _numeric(new)
    both = a.notna() & b.notna()
    rel = ((b - a).abs() / a.abs().where(a.abs() > 0)).where(both)
    moved = both & ~np.isclose(a.fillna(0), b.fillna(0), rtol=1e-12, atol=0)
    out = dict(cells=int(both.values.sum()), moved=int(moved.values.sum()),
               largest=float(np.nanmax(rel.values)) if moved.values.any() else 0.0, beyond=None, points=None,
               top=[])
    same_load = pd.Series(True, index=a.index)
    for col in LOAD_COLUMNS:
        if col in a:
            same_load = np.isclose(a[col], b[col], rtol=1e-9, atol=0)
            break
    out["same_load"] = int(np.sum(same_load))
    for x, ci in CI_PAIRS:
        if x in a and ci in a:
            d = (b[x] - a[x]).abs()
            band = a[ci].abs() + b[ci].abs()
            ok = np.isfinite(d) & np.isfinite(band) & same_load
            out["points"] = int(ok.sum())
            out["beyond"] = int((d[ok] > band[ok]).sum())
            break
    stacked = rel.stack() if hasattr(rel, "stack") else rel
    for (i, col), r in stacked.sort_values(ascending=False).head(3).items():
        if r > 0:
            out["top"].append(f"row {i} '{col}': {old.at[i, col]} -> {new.at[i, col]}")
    return out


def main(old_book: Path, new_book: Path, top: int = 3) -> int:
    tables = sorted(p.relative_to(new_book) for p in new_book.glob("*/tables/*.csv"))
    print(f"{'table':70s} {'cells':>6s} {'moved':>6s} {'largest':>8s} {'beyond noise':>14s}")
    for rel in tables:
        o = old_book / rel
        if not o.exists():
            print(f"{str(rel):70s} new table")
            continue
        old, new = pd.read_csv(o), pd.read_csv(new_book / rel)
        note = ""
        if len(old) != len(new):
            print(f"{str(rel):70s} rows {len(old)} -> {len(new)}")
            continue
        if list(old.columns) != list(new.columns):  # compare the columns both have
            added = sorted(set(new.columns) - set(old.columns))
            note = f"  (columns added: {', '.join(added)})" if added else "  (columns removed)"
            common = [col for col in old.columns if col in new.columns]
            old, new = old[common], new[common]
        c = compare_table(old, new)
        if c["cells"] == 0:
            continue
        beyond = "" if c["beyond"] is None else f"{c['beyond']} of {c['points']}"
        if c["beyond"] is not None and c["same_load"] < len(new):
            note += f"  ({len(new) - c['same_load']} of {len(new)} points at another load: not compared)"
        print(f"{str(rel):70s} {c['cells']:6d} {c['moved']:6d} {c['largest']:8.2%} {beyond:>14s}{note}")
        for t in c["top"][:top] if c["moved"] else []:
            print(f"    {t}")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--top", type=int, default=3)
    a = ap.parse_args()
    raise SystemExit(main(a.old, a.new, a.top))
