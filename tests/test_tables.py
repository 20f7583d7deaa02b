"""The book's one table style (models.core.tables): signed percent, n/a with a reason, no index, glued sentences."""

import math

import numpy as np
import pandas as pd
import pytest

from models.core.tables import (INF_NOTE, NAN_NOTE, column_decimals, format_table, join_words, percent, plural,
                                range_text, signed_percent)


def test_signed_percent_has_a_sign_and_a_fixed_precision():
    assert signed_percent(0.0158) == "+1.6%"
    assert signed_percent(-0.004) == "-0.4%"
    assert signed_percent(0.0158, 2) == "+1.58%"
    assert signed_percent(2.2, fraction=False) == "+2.2%"
    assert signed_percent(0.0) == "0.0%"
    assert signed_percent(-0.0001) == "0.0%"  # no "-0.0%"
    assert signed_percent(math.nan) is None and signed_percent(math.inf) is None and signed_percent(None) is None
    with pytest.raises(ValueError, match="digits"):
        signed_percent(0.1, -1)


def test_percent_is_a_magnitude():
    assert percent(0.0158) == "1.6%"
    assert percent(35.1, fraction=False) == "35.1%"
    assert percent(math.inf) is None


def test_na_cells_carry_a_footnote_with_the_reason():
    df = pd.DataFrame({"curve": ["a", "b", "c"], "err @25%": [0.0158, math.inf, math.nan]})
    t = format_table(df, fraction=["err @25%"])
    # one symbol for an unbounded error in every table, one label for a missing number, each with its reason
    assert list(t.frame["err @25%"]) == ["+1.6%", "\u221e [a]", "n/a [b]"]
    assert t.notes == {"a": INF_NOTE, "b": NAN_NOTE}
    assert t.labels == {"a": "\u221e = unbounded", "b": "n/a"}
    html = t.to_html()
    assert "\u221e<sup>a</sup>" in html and "n/a<sup>b</sup>" in html and INF_NOTE in html and NAN_NOTE in html
    assert "<sup>a</sup> \u221e = unbounded: " in html and "<sup>b</sup> n/a: " in html
    for bad in ("inf", "nan", "None"):
        assert f">{bad}<" not in html and f">{bad}%<" not in html
    # a reason per column overrides the default
    t2 = format_table(df, fraction=["err @25%"], notes={("err @25%", "nan"): "outside the model's range"})
    assert "outside the model's range" in t2.notes.values()
    # no footnote when nothing is missing
    assert format_table(df.iloc[:1], fraction=["err @25%"]).notes == {}


def test_no_index_column_and_flat_headers():
    df = pd.DataFrame({"figure": [2, 2, 3], "setup": ["p", "s", "p"], "err": [0.1, 0.2, 0.3]})
    piv = df.pivot_table(index="figure", columns="setup", values="err")
    t = format_table(piv, fraction=["p", "s"])
    assert list(t.frame.columns) == ["figure", "p", "s"]  # the named index is a column, not an index
    html = t.to_html()
    assert "<th" in html and html.count("<th ") + html.count("<th>") == 3
    multi = df.pivot_table(index="setup", columns=["figure"], values=["err"])
    assert list(format_table(multi).frame.columns) == ["setup", "err figure=2", "err figure=3"]
    # an unnamed default index is dropped, not shown
    assert list(format_table(df).frame.columns) == ["figure", "setup", "err"]
    assert "0" not in list(format_table(df.iloc[[2, 0]]).frame.columns)


def test_units_in_headers_and_fixed_decimals_per_column():
    df = pd.DataFrame({"sat": [0.01234, 0.2], "latency": [123.456, 7.0], "n": [1, 2]})
    t = format_table(df, units={"sat": "messages/node/cycle", "latency": "cycles"})
    assert list(t.frame.columns) == ["sat [messages/node/cycle]", "latency [cycles]", "n"]
    assert list(t.frame["sat [messages/node/cycle]"]) == ["0.0123", "0.2000"]
    assert list(t.frame["latency [cycles]"]) == ["123.5", "7.0"]
    assert list(t.frame["n"]) == ["1", "2"]
    assert t.numeric == ["sat [messages/node/cycle]", "latency [cycles]", "n"]
    assert column_decimals([0.5, 12.0]) == 2 and column_decimals([]) == 0


def test_percent_columns_by_name_and_booleans():
    df = pd.DataFrame({"max |err| [%]": [1.234, -3.0], "holds": [True, False], "cause": ["x", None]})
    t = format_table(df)
    assert list(t.frame["max |err| [%]"]) == ["+1.2%", "-3.0%"]
    assert list(t.frame["holds"]) == ["yes", "no"]
    assert t.frame["cause"].iloc[1].startswith("n/a")


def test_wide_tables_scroll():
    df = pd.DataFrame({f"column {i}": [1.0] for i in range(30)})
    html = format_table(df).to_html()
    assert html.startswith('<div class="table-scroll" style="overflow-x:auto')


def test_bad_parameters_name_themselves():
    df = pd.DataFrame({"a": [1]})
    with pytest.raises(ValueError, match="fraction"):
        format_table(df, fraction=["b"])
    with pytest.raises(ValueError, match="columns"):
        format_table(df, columns=["b"])
    with pytest.raises(ValueError, match="df"):
        format_table([1, 2])


def test_glued_sentences_handle_the_empty_and_the_singular_case():
    assert join_words([]) == "none"
    assert join_words([], empty="no curve") == "no curve"
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b"]) == "a and b"
    assert join_words(["a", "b", "c"]) == "a, b and c"
    assert join_words(["a", "b"], conjunction="or") == "a or b"
    assert plural(1, "entry", "entries") == "1 entry"
    assert plural(3, "entry", "entries") == "3 entries"
    assert plural(2, "curve") == "2 curves"
    assert plural(0, "curve", zero="no curve") == "no curve"
    with pytest.raises(ValueError, match="n"):
        plural(-1, "curve")
    assert range_text([0.351, 0.351]) == "35.1%"
    assert range_text([0.351, 0.42]) == "35.1% to 42.0%"
    assert range_text([]) == "n/a"
    assert range_text([np.nan]) == "n/a"


def test_column_patterns():
    df = pd.DataFrame({"err @25%": [0.01], "err @50%": [-0.02], "worst |err|": [0.03], "rate": [0.5]})
    t = format_table(df, fraction=["err @*"], magnitude="worst*")
    assert list(t.frame.iloc[0]) == ["+1.0%", "-2.0%", "3.0%", "0.5000"]


def test_patterns_pick_number_columns_only():
    df = pd.DataFrame({"variant": ["a", "b"], "ours 2": [0.1, 0.2]})
    t = format_table(df, magnitude=["*"])
    assert list(t.frame["variant"]) == ["a", "b"] and list(t.frame["ours 2"]) == ["10.0%", "20.0%"]


def test_numbered_column_levels_say_what_they_number():
    df = pd.DataFrame({"row": ["F1", "F1"], "NC": [2, 4], "ours": [1.0, 1.1]})
    wide = df.pivot(index="row", columns="NC", values="ours")
    assert list(format_table(wide).frame.columns) == ["row", "2", "4"]
    two = df.assign(paper=1.0).pivot(index="row", columns="NC", values=["paper", "ours"]).swaplevel(axis=1)
    assert list(format_table(two).frame.columns) == ["row", "NC=2 paper", "NC=4 paper", "NC=2 ours", "NC=4 ours"]


def test_decimals_and_units_by_pattern():
    df = pd.DataFrame({"NC=2 paper": [1.034], "NC=2 diff": [0.00096], "sat 1": [0.5]})
    t = format_table(df, decimals={"* diff": 4, "*": 3}, units={"sat*": "messages/node/cycle"})
    assert list(t.frame.iloc[0]) == ["1.034", "0.0010", "0.500"]
    assert list(t.frame.columns)[-1] == "sat 1 [messages/node/cycle]"


def test_no_negative_zero():
    assert list(format_table(pd.DataFrame({"diff": [-0.00001, 0.5]}), decimals={"diff": 4}).frame["diff"]) == \
        ["0.0000", "0.5000"]


def test_one_symbol_for_an_unbounded_error_in_every_text_form():
    from models.core.tables import UNBOUNDED, error_text, percent_text

    assert UNBOUNDED == "\u221e"
    assert percent_text(math.inf) == UNBOUNDED and percent_text(-math.inf) == "-" + UNBOUNDED
    assert percent_text(math.nan) == "n/a" and percent_text(0.0158, signed=True) == "+1.6%"
    df = pd.DataFrame({"err @25%": [1.5, math.inf, math.nan], "worst |err|": [2.0, math.inf, 1.0],
                       "sat": [0.5, math.inf, math.nan]})
    shown = error_text(df, signed=["err @*"], magnitude=["worst*"], decimals={"sat": 2})
    assert list(shown["err @25%"]) == ["+1.5%", UNBOUNDED, "n/a"]
    assert list(shown["worst |err|"]) == ["2.0%", UNBOUNDED, "1.0%"]
    assert list(shown["sat"]) == ["0.50", UNBOUNDED, "n/a"]
