"""One table style for the whole book, and glued sentences that read right.

Every table a chapter page shows goes through :func:`format_table`:

* no index column (a meaningful index, e.g. of a pivot table, becomes
  ordinary columns; column levels are joined into one header);
* units in the headers (``units={"sim saturation": "messages/node/cycle"}``
  gives the header ``sim saturation [messages/node/cycle]``);
* relative errors as **signed percent with a fixed precision**
  (``+2.2%``, ``-0.4%``): ``fraction=[...]`` for columns holding fractions
  (0.022), ``percent=[...]`` for columns already in percent (2.2);
  ``magnitude=[...]`` / ``magnitude_percent=[...]`` for unsigned
  magnitudes (``max |err|``);
* other numbers with a fixed number of decimals per column (chosen from
  the column's largest value for ``SIGNIFICANT`` significant digits, or
  ``decimals={col: n}``), booleans as ``yes``/``no``;
* a missing value as ``n/a`` and an unbounded one (``+inf``: the model is
  saturated at that load) as :data:`UNBOUNDED` (``∞``), each with a footnote
  marker, and under the table a footnote saying why (``notes={"nan": ...,
  "inf": ...}``, with defaults :data:`NAN_NOTE`, :data:`INF_NOTE`).  One
  symbol for an unbounded error in every table of the book, one word
  (:data:`UNBOUNDED_WORD`) in its prose; the findings page defines them;
* every table in a horizontal scroll container (``<div class="table-scroll"
  style="overflow-x:auto">``), so a wide table scrolls instead of being cut;
  its first column (the row's label, class ``pin``) stays in place while the
  others scroll, and the book's script ``compendium-tables.js`` puts a line
  above a table wider than the page saying how many of its columns show and
  that the rest scroll (the browser test fails on a wide table without both);
  headers and numbers right-aligned, text left-aligned (CSS classes
  ``compendium-table``, ``num``; the style sheet ``book/_ext/static/compendium-tables.css``,
  added by the book's extension, draws scroll shadows at the edges of a wide table; the inline
  styles keep a table readable without it).

:func:`join_words`, :func:`plural` and :func:`range_text` build glued sentences
that handle the empty and the singular case ("none", "1 entry", "35.1%"
rather than "between 35.1% and 35.1%").
"""

from __future__ import annotations

import fnmatch
import html as _html
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

#: Significant digits of a plain number column (the largest value of the column keeps this many).
SIGNIFICANT = 4
#: Default reason for a missing value.
NAN_NOTE = "the simulation saturated at this load, or the point was not run"
#: Default reason for an infinite value (an error or latency).
INF_NOTE = "the model is saturated at this load: its latency, and so its error, has no bound"
#: How every table shows an unbounded (``+inf``) error or latency; :data:`UNBOUNDED_WORD` in prose.
UNBOUNDED = "\u221e"
#: The word for :data:`UNBOUNDED` in a sentence (glued prose, notes).
UNBOUNDED_WORD = "unbounded"
#: The label of each footnote kind under a table: ``n/a`` (missing), ``∞ = unbounded`` (infinite).
NOTE_LABELS = {"nan": "n/a", "inf": f"{UNBOUNDED} = {UNBOUNDED_WORD}"}
#: Footnote markers, in order of first use.
MARKERS = "abcdefghij"


def _bad_param(name: str, value, why: str) -> ValueError:
    return ValueError(f"`{name}` {why}; got {value!r}")


def _is_missing(x) -> bool:
    if x is None or x is pd.NA or x is pd.NaT:
        return True
    if isinstance(x, str):
        return x.strip().lower() in ("", "nan", "none", "n/a", "null")
    if isinstance(x, numbers.Real) and not isinstance(x, bool):
        return math.isnan(float(x))
    return False


def _is_inf(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isinf(float(x))


def signed_percent(x, digits: int = 1, *, fraction: bool = True) -> str | None:
    """``x`` as signed percent with ``digits`` decimals: ``0.0158 -> "+1.6%"``, ``-0.004 -> "-0.4%"``.

    ``fraction=False`` when ``x`` is already in percent (``1.58 -> "+1.6%"``).
    Zero (after rounding) is ``"0.0%"``, without sign.  Missing or infinite
    values give None (the table shows ``n/a`` with a footnote).
    """
    if not isinstance(digits, int) or digits < 0:
        raise _bad_param("digits", digits, "must be a non-negative integer")
    if _is_missing(x) or _is_inf(x):
        return None
    v = float(x) * (100.0 if fraction else 1.0)
    text = f"{v:+.{digits}f}"
    if float(text) == 0.0:
        return f"{0.0:.{digits}f}%"
    return text + "%"


def percent(x, digits: int = 1, *, fraction: bool = True) -> str | None:
    """``x`` as unsigned percent (a magnitude): ``0.0158 -> "1.6%"``; None when missing or infinite."""
    if not isinstance(digits, int) or digits < 0:
        raise _bad_param("digits", digits, "must be a non-negative integer")
    if _is_missing(x) or _is_inf(x):
        return None
    v = float(x) * (100.0 if fraction else 1.0)
    return f"{v:.{digits}f}%"


def percent_text(x, digits: int = 1, *, signed: bool = False, fraction: bool = True, missing: str = "n/a") -> str:
    """A relative error as a table cell or CSV text: ``"+1.6%"`` (``signed``) or ``"1.6%"``,
    :data:`UNBOUNDED` (``"∞"``) for ``+inf`` (``"-∞"`` for ``-inf``), ``missing`` when there is no number."""
    if _is_inf(x):
        return UNBOUNDED if float(x) > 0 else "-" + UNBOUNDED
    out = (signed_percent if signed else percent)(x, digits, fraction=fraction)
    return missing if out is None else out


def column_decimals(values, significant: int = SIGNIFICANT, cap: int = 6) -> int:
    """Decimals that give the largest finite ``|value|`` ``significant`` significant digits (0 to ``cap``)."""
    arr = np.asarray([float(v) for v in values if isinstance(v, numbers.Real) and not isinstance(v, bool)],
                     dtype=float)
    arr = np.abs(arr[np.isfinite(arr)])
    arr = arr[arr > 0]
    if arr.size == 0:
        return 0
    if np.all(np.isclose(arr, np.round(arr))) and arr.max() >= 1:
        return 0
    top = int(math.floor(math.log10(arr.max())))
    return int(min(cap, max(0, significant - 1 - top)))


def join_words(words: Iterable, *, empty: str = "none", conjunction: str = "and") -> str:
    """``["a"] -> "a"``, ``["a", "b"] -> "a and b"``, ``["a", "b", "c"] -> "a, b and c"``; ``[] -> empty``."""
    items = [str(w) for w in words]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def plural(n: int, singular: str, plural_form: str | None = None, *, zero: str | None = None) -> str:
    """``"1 entry"``, ``"3 entries"``; ``zero`` (e.g. ``"no entry"``) for ``n == 0`` if given."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise _bad_param("n", n, "must be a non-negative integer")
    if n == 0 and zero is not None:
        return zero
    word = singular if n == 1 else (plural_form or singular + "s")
    return f"{n} {word}"


def range_text(values, fmt=lambda v: f"{v:.1%}", *, empty: str = "n/a", sep: str = " to ") -> str:
    """``"1.0% to 3.5%"``, or a single value when they all format the same (``"35.1%"``); ``empty`` when none."""
    vals = [float(v) for v in values if not _is_missing(v)]
    if not vals:
        return empty
    lo, hi = fmt(min(vals)), fmt(max(vals))
    return lo if lo == hi else f"{lo}{sep}{hi}"


def _header(col) -> str:
    if isinstance(col, tuple):
        return " ".join(str(c) for c in col if str(c) != "")
    return str(col)


def _flat(df: pd.DataFrame) -> pd.DataFrame:
    """No index: a named or non-default index becomes columns; column levels become one header."""
    out = df.copy()
    if out.index.nlevels == 1 and out.index.name is None and not isinstance(out.index, pd.RangeIndex) \
            and not out.index.equals(pd.RangeIndex(len(out))):
        out.index.name = ""  # e.g. a transposed table: its row labels head an empty column
    default = isinstance(out.index, pd.RangeIndex) and out.index.name is None
    if not default:
        names = [n for n in out.index.names]
        if all(n is None for n in names) and not isinstance(out.index, pd.MultiIndex) and \
                out.index.equals(pd.RangeIndex(len(out))):
            out = out.reset_index(drop=True)
        else:
            out = out.reset_index()
    names = list(out.columns.names) if out.columns.nlevels > 1 else [None]

    def part(name, value):  # a numbered level says what it numbers: "NC=2"
        num = isinstance(value, numbers.Real) and not isinstance(value, bool)
        return f"{name}={value}" if name and num else value

    out.columns = [_header(tuple(part(n, v) for n, v in zip(names, c)) if isinstance(c, tuple) else c)
                   for c in out.columns]
    return out


def _by_pattern(mapping: Mapping | None, columns) -> dict:
    """``{column: value}`` from a mapping whose keys are column names or ``fnmatch`` patterns (the first match wins)."""
    mapping = dict(mapping or {})
    out = {}
    for c in columns:
        if c in mapping:
            out[c] = mapping[c]
            continue
        for key, value in mapping.items():
            if isinstance(key, str) and any(ch in key for ch in "*?[") and fnmatch.fnmatchcase(c, key):
                out[c] = value
                break
    return out


def _numbers(col: pd.Series) -> bool:
    """Whether a column holds numbers (missing values allowed), not booleans or text."""
    if pd.api.types.is_bool_dtype(col):
        return False
    if pd.api.types.is_numeric_dtype(col):
        return True
    vals = [v for v in col if not _is_missing(v)]
    return bool(vals) and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in vals)


def _classes(numeric: bool, pinned: bool) -> str:
    """The ``class`` attribute of a cell: ``num`` (right-aligned number), ``pin`` (the first column, kept in place)."""
    names = [n for n, on in (("num", numeric), ("pin", pinned)) if on]
    return f' class="{" ".join(names)}"' if names else ""


class Table:
    """A formatted table: ``frame`` (strings, what the page shows), ``notes`` (marker -> reason), HTML.

    Displayed in a notebook through ``_repr_html_``; ``str(table)`` is plain text.
    """

    def __init__(self, frame: pd.DataFrame, notes: Mapping[str, str], numeric: Sequence[str], caption: str | None,
                 labels: Mapping[str, str] | None = None):
        self.frame = frame
        self.notes = dict(notes)
        #: marker -> what the footnote explains (:data:`NOTE_LABELS`: ``n/a`` or ``∞ = unbounded``)
        self.labels = {m: (labels or {}).get(m, NOTE_LABELS["nan"]) for m in self.notes}
        self.numeric = list(numeric)
        self.caption = caption

    def to_html(self) -> str:
        esc = _html.escape
        cells = ['<div class="table-scroll" style="overflow-x:auto;max-width:100%">',
                 '<table class="compendium-table" style="border-collapse:collapse;margin:0">']
        if self.caption:
            cells.append(f'<caption style="caption-side:top;text-align:left">{esc(self.caption)}</caption>')
        cells.append("<thead><tr>")
        first = self.frame.columns[0] if len(self.frame.columns) else None
        for c in self.frame.columns:
            cls = _classes(c in self.numeric, c == first)
            align = "right" if c in self.numeric else "left"
            # a long header wraps onto at most about three lines, not one word per line
            wide = f";min-width:{min(14, max(6, len(str(c)) // 3))}em" if len(str(c)) > 16 else ""
            cells.append(f'<th{cls} style="text-align:{align};vertical-align:bottom;padding:0.25em 0.5em{wide}">'
                         f"{esc(c)}</th>")
        cells.append("</tr></thead><tbody>")
        # long text wraps in a wide column; numbers and short text stay on one line
        width = {c: int(self.frame[c].astype(str).str.len().max()) if len(self.frame) else 0
                 for c in self.frame.columns}
        wrap = {c: (f"white-space:normal;min-width:{min(28, max(12, width[c] // 5))}em"
                    if c not in self.numeric and width[c] > 40 else "white-space:nowrap") for c in self.frame.columns}
        for row in self.frame.itertuples(index=False):
            cells.append("<tr>")
            for c, v in zip(self.frame.columns, row):
                cls = _classes(c in self.numeric, c == first)
                align = "right" if c in self.numeric else "left"
                text = esc(str(v))
                for m in self.notes:  # "n/a ᵃ", "∞ ᵃ": the marker as a superscript
                    if text.endswith(f" [{m}]"):
                        text = text[: -len(f" [{m}]")] + f"<sup>{m}</sup>"
                cells.append(f'<td{cls} style="text-align:{align};vertical-align:top;padding:0.25em 0.5em;'
                             f'{wrap[c]}">{text}</td>')
            cells.append("</tr>")
        cells.append("</tbody></table></div>")
        if self.notes:
            cells.append('<p class="table-notes" style="font-size:90%">'
                         + "<br>".join(f"<sup>{m}</sup> {esc(self.labels[m])}: {esc(r)}" for m, r in self.notes.items())
                         + "</p>")
        return "".join(cells)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        text = self.frame.to_string(index=False)
        if self.notes:
            text += "\n" + "\n".join(f"[{m}] {self.labels[m]}: {r}" for m, r in self.notes.items())
        return text

    __repr__ = __str__


def format_table(
    df: pd.DataFrame,
    *,
    fraction: Iterable[str] = (),
    percent: Iterable[str] = (),
    magnitude: Iterable[str] = (),
    magnitude_percent: Iterable[str] = (),
    digits: int = 1,
    decimals: Mapping[str, int] | None = None,
    units: Mapping[str, str] | None = None,
    rename: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    columns: Sequence[str] | None = None,
    caption: str | None = None,
) -> Table:
    """``df`` in the book's table style (see the module docstring); returns a :class:`Table`.

    Parameters
    ----------
    df : DataFrame (or Series, or a pandas Styler: its data)
    fraction, percent : column names (``fnmatch`` patterns allowed: ``"err @*"``)
        Signed relative errors, as fractions (0.022) or already in percent (2.2),
        shown as ``+2.2%`` with ``digits`` decimals.  Columns whose name ends
        with ``[%]`` are read as ``percent`` unless listed elsewhere.
    magnitude, magnitude_percent : column names
        Unsigned magnitudes (``max |err|``), fractions or percent, shown as ``2.2%``.
    digits : int
        Decimals of every percent column.
    decimals : mapping column -> int, optional
        Decimals of plain number columns (default from :data:`SIGNIFICANT`);
        keys may be ``fnmatch`` patterns (the first that matches wins).
    units : mapping column -> str, optional (keys as for ``decimals``)
        Unit appended to the header as `` [unit]``.
    rename : mapping column -> str, optional
        New header text (before the unit is appended).
    notes : mapping, optional
        Reasons for ``n/a``: key ``"nan"`` (missing), ``"inf"`` (infinite),
        or ``(column, "nan"|"inf")`` for one column.
    columns : sequence, optional
        Keep only these columns, in this order (after the index became columns).
    caption : str, optional
    """
    if hasattr(df, "data") and type(df).__name__ == "Styler":  # a Styler: its data, in this style
        df = df.data
    if isinstance(df, pd.Series):
        df = df.to_frame(df.name if df.name is not None else "value")
    if not isinstance(df, pd.DataFrame):
        raise _bad_param("df", type(df).__name__, "must be a pandas DataFrame")
    if not isinstance(digits, int) or digits < 0:
        raise _bad_param("digits", digits, "must be a non-negative integer")
    flat = _flat(df)
    if columns is not None:
        missing = [c for c in columns if c not in flat.columns]
        if missing:
            raise _bad_param("columns", missing, "names columns the table does not have")
        flat = flat[list(columns)]
    groups = {}
    for name, given in (("fraction", fraction), ("percent", percent), ("magnitude", magnitude),
                        ("magnitude_percent", magnitude_percent)):
        given = [given] if isinstance(given, str) else list(given)
        unknown = [c for c in given if not any(ch in c for ch in "*?[") and c not in flat.columns]
        if unknown:
            raise _bad_param(name, unknown, "names columns the table does not have")
        # a pattern picks number columns only (a pivot's label columns are left alone)
        groups[name] = {c for c in flat.columns
                        if c in given or (_numbers(flat[c]) and any(fnmatch.fnmatchcase(c, g) for g in given))}
    listed = set().union(*groups.values())
    for c in flat.columns:
        if c.endswith("[%]") and c not in listed:
            groups["percent"].add(c)
    decimals = _by_pattern(decimals, flat.columns)
    units = _by_pattern(units, flat.columns)
    rename = dict(rename or {})
    reasons = {"nan": NAN_NOTE, "inf": INF_NOTE}
    reasons.update({k: v for k, v in (notes or {}).items() if isinstance(k, str)})
    col_reasons = {k: v for k, v in (notes or {}).items() if isinstance(k, tuple)}
    markers: dict[tuple[str, str], str] = {}  # (kind, reason) -> marker

    def mark(col, kind, value=None) -> str:
        reason = col_reasons.get((col, kind), reasons[kind])
        if (kind, reason) not in markers:
            markers[(kind, reason)] = MARKERS[len(markers) % len(MARKERS)]
        shown = "n/a" if kind == "nan" else (UNBOUNDED if float(value) > 0 else "-" + UNBOUNDED)
        return f"{shown} [{markers[(kind, reason)]}]"

    shown = {}
    numeric = []
    for c in flat.columns:
        vals = list(flat[c])
        kind = next((k for k, cols in groups.items() if c in cols), None)
        is_num = kind is not None or (
            pd.api.types.is_numeric_dtype(flat[c]) and not pd.api.types.is_bool_dtype(flat[c]))
        if kind is None and not is_num:
            objs = [v for v in vals if not _is_missing(v)]
            is_num = bool(objs) and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in objs)
        out = []
        if kind is not None:
            fn = signed_percent if kind in ("fraction", "percent") else globals()["percent"]
            frac = kind in ("fraction", "magnitude")
            for v in vals:
                if _is_inf(v):
                    out.append(mark(c, "inf", v))
                elif _is_missing(v):
                    out.append(mark(c, "nan"))
                else:
                    out.append(fn(v, digits, fraction=frac))
        elif is_num:
            nd = decimals.get(c, column_decimals(vals))
            for v in vals:
                if _is_inf(v):
                    out.append(mark(c, "inf", v))
                elif _is_missing(v):
                    out.append(mark(c, "nan"))
                elif isinstance(v, (int, np.integer)) and not isinstance(v, bool) and c not in decimals:
                    out.append(f"{int(v):d}")
                else:
                    text = f"{float(v):.{nd}f}"
                    out.append(text[1:] if text.startswith("-") and float(text) == 0 else text)  # no "-0.000"
        else:
            for v in vals:
                if isinstance(v, (bool, np.bool_)):
                    out.append("yes" if v else "no")
                elif _is_missing(v):
                    out.append(mark(c, "nan"))
                elif isinstance(v, float):
                    out.append(f"{v:.{SIGNIFICANT}g}")
                else:
                    out.append(str(v))
        head = rename.get(c, c)
        if c in units and units[c]:
            head = f"{head} [{units[c]}]"
        if is_num:
            numeric.append(head)
        shown[head] = out
    frame = pd.DataFrame(shown, columns=list(shown))
    return Table(frame, {m: r for (_, r), m in markers.items()}, numeric, caption,
                 labels={m: NOTE_LABELS[k] for (k, _), m in markers.items()})



def error_text(
    table: pd.DataFrame,
    *,
    signed: Iterable[str] = (),
    magnitude: Iterable[str] = (),
    decimals: Mapping[str, int] | None = None,
    digits: int = 1,
) -> pd.DataFrame:
    """An error table as text for a CSV file or a ``csv-table`` (the page shows :func:`format_table`).

    Columns matching ``signed`` / ``magnitude`` (``fnmatch`` patterns) hold
    errors **in percent**: ``"+12.3%"`` / ``"12.3%"`` with ``digits`` decimals,
    :data:`UNBOUNDED` (``"∞"``) for ``+inf``, ``"n/a"`` when missing; columns in
    ``decimals`` (exact names) get that many decimals (``"n/a"`` when missing,
    ``"∞"`` when infinite).  Other columns are left as they are.
    """
    shown = table.copy()
    signed, magnitude = list(signed), list(magnitude)

    for col in shown.columns:
        if any(fnmatch.fnmatchcase(str(col), g) for g in signed):
            shown[col] = [percent_text(x, digits, signed=True, fraction=False) for x in shown[col]]
        elif any(fnmatch.fnmatchcase(str(col), g) for g in magnitude):
            shown[col] = [percent_text(x, digits, fraction=False) for x in shown[col]]
    for col, nd in (decimals or {}).items():
        if col in shown:
            shown[col] = ["n/a" if _is_missing(x) else percent_text(x) if _is_inf(x) else f"{float(x):.{nd}f}"
                          for x in shown[col]]
    return shown
