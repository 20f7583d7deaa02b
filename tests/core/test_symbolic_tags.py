"""Equation tags are typeset in text mode: a special character there is a MathJax error box (issue #27)."""

import re

import sympy as sp

from models.core.symbolic import latex_equations


def test_tags_escape_text_mode_specials():
    x = sp.Symbol("x")
    out = latex_equations({"eq:Q_ij": sp.Eq(x, 1), "18, S_c": sp.Eq(x, 2), "U_ij:memory": sp.Eq(x, 3)})
    tags = re.findall(r"\\tag\{(.*?)\}(?= \\\\|\\end)", out)
    assert tags == [r"Q\_ij", r"18, S\_c", r"U\_ij:memory"]
    assert not any(re.search(r"(?<!\\)[_^&%#$]", t) for t in tags)
