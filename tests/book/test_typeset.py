"""Equations as a page shows them (issue #27): tags MathJax can typeset, lines within the column.

The displayed mathematics must be the equation: every layout is checked on SymPy objects -- the
pieces of each line add up (signs, brackets) to the right-hand side shown, and the names it
introduced, substituted back, give the original -- and no line is wider than the budget.
"""

import re

import pytest
import sympy as sp

from models.book.typeset import WIDTH, equation_latex, latex_width, layout, show_equation, signed_terms
from models.core.symbolic import tag_text


def same(a, b) -> bool:
    """``a`` and ``b`` are the same expression (structurally, or their difference simplifies to 0)."""
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        return sp.Matrix(a) == sp.Matrix(b)
    return a == b or sp.simplify(a - b) == 0


def check(lay, original):
    """``lay`` displays ``original`` (an Eq, an expression, or a tuple of them), within the budget."""
    assert max(lay.widths) <= WIDTH, (max(lay.widths), lay.latex)
    rows = lay.latex.split(r" \\ ")
    for row in rows:  # \left ... \right pairs never span two lines
        assert row.count(r"\left") == row.count(r"\right"), row
    if not lay.blocks:
        return
    items = list(original) if isinstance(original, (tuple, list)) else [original]
    for item, block in zip(items, lay.blocks[:lay.n_main]):
        rhs = item.rhs if isinstance(item, sp.Equality) else item
        assert same(lay.resolve(block.value()), rhs)
        assert block.lhs == (sp.latex(item.lhs) if isinstance(item, sp.Equality) else "")
    for block in lay.blocks:
        assert same(lay.resolve(block.value()), lay.resolve(block.rhs))
    # a name stands for what it is defined as, and is defined once
    names = [s for s, _ in lay.names]
    assert len(set(names)) == len(names)


# ----------------------------------------------------------------------------
# Tags
# ----------------------------------------------------------------------------
def test_tag_text_escapes_text_mode_specials():
    assert tag_text("X_i") == r"X\_i"
    assert tag_text("U_ij:switch") == r"U\_ij:switch"
    assert tag_text("18, S_c") == r"18, S\_c"
    assert tag_text("a&b%c#d$e^f") == r"a\&b\%c\#d\$e\^{}f"
    assert tag_text("4, as printed") == "4, as printed"


def test_tags_are_escaped_in_the_display():
    x = sp.Symbol("x")
    out = equation_latex(sp.Eq(x, 1), "U_ij:switch")
    assert out == r"x = 1\qquad\text{(U\_ij:switch)}"
    assert not re.search(r"(?<!\\)[_^&%#$]", re.search(r"\\text\{(.*)\}", out).group(1))


# ----------------------------------------------------------------------------
# Short equations, tuples, strings
# ----------------------------------------------------------------------------
def test_a_short_equation_stays_on_one_line_as_sympy_prints_it():
    x, y = sp.symbols("x y")
    eq = sp.Eq(y, x**2 + 1)
    assert equation_latex(eq, "1") == sp.latex(eq) + r"\qquad\text{(1)}"
    assert equation_latex(eq) == sp.latex(eq)
    assert r"\begin{aligned}" not in equation_latex(eq, "1")


def test_a_tuple_is_joined_side_by_side():
    x, y = sp.symbols("x y")
    a, b = sp.Eq(y, x + 1), sp.Eq(x, 2)
    assert equation_latex((a, b), "7") == sp.latex(a) + r",\quad " + sp.latex(b) + r"\qquad\text{(7)}"


def test_a_wide_tuple_is_stacked():
    xs = sp.symbols("x_1:13")
    a = sp.Eq(sp.Symbol("A"), sum(sp.sqrt(x + 1) for x in xs[:6]))
    b = sp.Eq(sp.Symbol("B"), sum(sp.sqrt(x + 2) for x in xs[6:]))
    lay = layout((a, b), "t")
    assert lay.latex.startswith(r"\begin{aligned}A &= ")
    assert lay.blocks[0].latex_lines[-1].endswith(",") and lay.blocks[1].lhs == "B"
    assert lay.latex.removesuffix(r"\end{aligned}").endswith(r"\qquad\text{(t)}")
    check(lay, (a, b))


def test_a_string_is_passed_through():
    tex = r"\text{return network}:\; r_{ij} - r^{KS}_{ij} = 0"
    assert equation_latex(tex) == tex
    assert equation_latex(tex, "Q_ij") == tex + r"\qquad\text{(Q\_ij)}"


def test_a_chain():
    x = sp.Symbol("x")
    gf = (1 - x**3) * (1 - x**4) * (1 - x**5) / (1 - x) ** 3
    expanded = sp.expand(sp.cancel(gf))
    lhs = sp.Symbol(r"\sum_m C_m x^m")
    short = equation_latex((lhs, x + 1, 1 + x), chain=True)
    assert short == sp.latex(lhs) + " = " + sp.latex(x + 1) + " = " + sp.latex(1 + x)
    lay = layout((lhs, gf, expanded), "gf", chain=True, width=25)
    assert lay.blocks[0].lhs == sp.latex(lhs) and lay.blocks[1].lhs == ""
    assert lay.latex.count("&=") == 2
    assert max(lay.widths) <= 25
    assert same(lay.blocks[0].value(), gf) and same(lay.blocks[1].value(), expanded)


# ----------------------------------------------------------------------------
# Breaking
# ----------------------------------------------------------------------------
def test_signed_terms_follow_the_printer():
    a, b, c = sp.symbols("a b c")
    expr = a - 2 * b + c / 3
    terms = signed_terms(expr)
    assert sum((t if s == "+" else -t) for s, t in terms) == expr
    assert [s for s, _ in terms] == ["+", "-", "+"]
    printed = sp.latex(expr)
    assert printed == " ".join(f"{s} {sp.latex(t)}" for s, t in terms).removeprefix("+ ")


def test_an_add_of_long_terms_is_broken_at_its_terms():
    k = sp.symbols("k_1:13")
    terms = [sp.Symbol(rf"\alpha_{{{i}}}") * sp.Symbol(rf"\beta_{{{i}}}") * (ki - 1) ** 2
             / (ki + sp.Symbol(rf"\gamma_{{{i}}}") + sp.Symbol(rf"\delta_{{{i}}}")) for i, ki in enumerate(k, 1)]
    terms[3] = -terms[3]
    rhs = sp.Add(*terms)
    eq = sp.Eq(sp.Symbol("R"), rhs)
    assert latex_width(sp.latex(eq)) > WIDTH
    lay = layout(eq, "12")
    check(lay, eq)
    assert len(lay.widths) >= 3 and not lay.names
    (block,) = lay.blocks
    assert sum(len(line) for line in block.lines) == 12
    for line in block.lines:  # each line holds whole terms of the sum
        assert all(p.kind == "term" and p.depth == 0 for p in line)
    assert lay.latex.startswith(r"\begin{aligned}R &= ") and lay.latex.endswith(r"\end{aligned}")
    assert r"\\ & \quad {}+ " in lay.latex or r"\\ & \quad {}- " in lay.latex
    assert r" - \frac{\alpha_{4} \beta_{4} " in lay.latex  # a negative term joins with " - "
    # in SymPy's print order: the lines put together are the one-line print
    body = lay.latex.removeprefix(r"\begin{aligned}R &= ").removesuffix(r"\qquad\text{(12)}\end{aligned}")
    assert body.replace(r" \\ & \quad {}", " ") == sp.latex(rhs)
    assert lay.latex.removesuffix(r"\end{aligned}").endswith(r"\qquad\text{(12)}")  # the tag ends the last line


def test_a_product_with_a_sum_is_broken_inside_the_bracket():
    V = sp.Symbol("V_{ij}")
    rhs = V * sp.Add(*[sp.Symbol(f"Q_{{{i}j}}") * sp.Symbol(f"U_{{{i}j}}") / sp.Symbol(f"N_{{{i}}}")
                       for i in range(1, 16)])
    eq = sp.Eq(sp.Symbol("R_{ij}"), rhs)
    lay = layout(eq, "1")
    check(lay, eq)
    # a fixed-size bracket (\left( cannot span lines), one size up for the fractions inside it
    assert lay.latex.startswith(r"\begin{aligned}R_{ij} &= V_{ij} \biggl(")
    assert lay.latex.count(r"\biggl(") == 1 and lay.latex.count(r"\biggr)") == 1
    assert len(lay.widths) > 1
    (block,) = lay.blocks
    opening, *inner, closing = [p for line in block.lines for p in line]
    assert (opening.kind, opening.expr, closing.kind) == ("open", V, "close")
    assert sp.Add(*[t.expr for t in inner]) == rhs / V


def test_a_fraction_with_a_long_numerator():
    s = sp.symbols("s_1:14")
    num = sp.Add(*[si**2 * s[(i + 1) % 13] for i, si in enumerate(s)])
    eq = sp.Eq(sp.Symbol("W"), num / (s[0] + s[1]))
    lay = layout(eq, "f")
    check(lay, eq)
    assert lay.latex.startswith(r"\begin{aligned}W &= \frac{1}{s_{1} + s_{2}} \Bigl(")


def test_a_giant_fraction_gets_named_parts():
    """Nothing to break at: the numerator and denominator are named, and defined below."""
    d = sp.symbols("d_1:9")
    num = sp.sqrt(sp.Add(*[sp.sqrt(di + 1) * di**3 for di in d]))
    den = sp.log(sp.Add(*[sp.exp(di) / (di + 2) for di in d]))
    eq = sp.Eq(sp.Symbol("W_v"), num / den)
    lay = layout(eq, "19")
    check(lay, eq)
    assert lay.names
    assert lay.latex.startswith(r"\begin{aligned}W_{v} &= \frac{A}{B}")
    assert same(lay.resolve(sp.Symbol("A") / sp.Symbol("B")), eq.rhs)


def test_common_subexpressions_are_named():
    """A wide expression that is neither a sum nor a product nor a fraction: sympy.cse names its parts."""
    x = sp.symbols("x_1:7")
    core = sp.Add(*[xi**2 for xi in x])
    expr = sp.sin(core * sp.cos(core) + sp.exp(core) * sp.tan(core + 1) + sp.sqrt(core) * sp.log(core + 2))
    eq = sp.Eq(sp.Symbol("y"), expr)
    assert latex_width(sp.latex(eq)) > WIDTH
    lay = layout(eq, "c")
    check(lay, eq)
    assert lay.names
    defined = dict(lay.names)
    assert any(same(v, core) for v in defined.values())
    assert lay.names[0][0] == sp.Symbol("A")  # fresh capital letters


def test_names_avoid_letters_of_the_equation():
    A, B = sp.symbols("A B")
    d = sp.symbols("d_1:9")
    num = sp.sqrt(sp.Add(*[sp.sqrt(di + 1) * di**3 for di in d]))
    eq = sp.Eq(sp.Symbol("W"), A * B * num / sp.log(sp.Add(*[sp.exp(di) / (di + 2) for di in d])))
    lay = layout(eq)
    check(lay, eq)
    assert lay.names and not {A, B} & {s for s, _ in lay.names}


def test_names_chosen_by_the_page():
    a, b, t = sp.symbols("a b t")
    mean = a / (a + b) + b / (a + b) ** 2
    rho = t * mean
    expr = (rho + mean**2 + sp.exp(mean) + sp.sqrt(mean)) / (1 - rho)
    eq = sp.Eq(sp.Symbol("W"), expr)
    lam, r = sp.Symbol(r"\lambda"), sp.Symbol(r"\rho")
    lay = layout(eq, "19", names={lam: mean, r: rho})
    assert [s for s, _ in lay.names[:2]] == [lam, r]
    assert lay.names[1][1] == lam * t  # a later name is written with the earlier ones
    assert r"\\ \lambda &= " in lay.latex and r"\\ \rho &= " in lay.latex
    assert sp.latex(lam) in lay.latex.split(r"\\")[0]
    check(lay, eq)
    with pytest.raises(ValueError, match="does not occur"):
        layout(eq, names={sp.Symbol("Z"): a * b * t})


def test_show_equation_displays_math(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    x = sp.Symbol("x")
    show_equation(sp.Eq(x, 2), "X_i")
    (obj,) = shown
    assert isinstance(obj, IPython.display.Math)
    assert obj.data == r"x = 2\qquad\text{(X\_i)}"


def test_latex_width_is_a_typesetter_not_a_length():
    wide = latex_width(r"\frac{a + b + c + d + e + f}{2}")
    assert latex_width(r"\frac{a + b + c + d + e + f}{2 + x}") == pytest.approx(wide)
    assert latex_width(r"\left(x\right)") == pytest.approx(latex_width(r"(x)"), abs=0.3)
    assert latex_width(r"x^{2}") < latex_width("x2")
    assert latex_width(r"\text{(U\_ij:switch)}") > latex_width(r"\text{(1)}")


# ----------------------------------------------------------------------------
# Every equation the five derivation pages display
# ----------------------------------------------------------------------------
def _walk(name, value):
    if isinstance(value, dict):
        for key, v in value.items():
            yield from _walk(f"{name}/{key}", v)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(f"{name}[{i}]", v)
    else:
        yield name, value


def _chapter_equations():
    from models.min_mva import equations as min_mva
    from models.torus_dor import Readings, equations_2003
    from models.torus_dor import equations as torus_dor
    from models.torus_ipp import equations as torus_ipp
    from models.torus_nbc import equations as torus_nbc
    from models.xfolded_tm import equations as xfolded_tm

    sources = {"min_mva": min_mva(), "torus_dor": torus_dor(Readings()), "torus_dor/2003": equations_2003(),
               "torus_ipp": torus_ipp(), "torus_nbc": torus_nbc(), "xfolded_tm": xfolded_tm()}
    return [item for chapter, eqs in sources.items() for item in _walk(chapter, eqs)]


def test_every_equation_of_the_five_chapters_fits_and_is_the_equation():
    items = _chapter_equations()
    assert len(items) > 150
    broken = 0
    for name, eq in items:
        lay = layout(eq, name.rsplit("/", 1)[-1].replace("eq:", ""))
        check(lay, eq)
        broken += bool(lay.blocks)
    assert broken >= 10  # min_mva's (1)-(6), torus_ipp's IDC and W_v, ...


def test_the_pages_other_displays_fit_and_are_the_equations():
    """What the pages build themselves: torus_dor's generating function and closed forms, torus_ipp's
    fitted MMPP and eq. (19) with its named parts, torus_nbc's occupancy chain."""
    from models.networks.dor_paths import closed_forms, generating_function
    from models.queueing.mmpp_g1 import mmpp_equations
    from models.queueing.vc_occupancy import equations as occupancy_equations
    from models.torus_ipp import equations as torus_ipp
    from models.traffic import fit

    x = sp.Symbol("x")
    gf = generating_function([2, 3, 4], x)
    lay = layout((sp.Symbol(r"\sum_m C_m x^m"), gf, sp.expand(sp.cancel(gf))), chain=True)
    assert max(lay.widths) <= WIDTH
    assert same(lay.blocks[0].value(), gf) and same(lay.blocks[1].value(), sp.expand(sp.cancel(gf)))

    cf = closed_forms(3)
    for i in range(3):
        check(layout((sp.Eq(sp.Symbol(f"P_{{t,d_{i}}}"), cf["P_t"][i]),
                      sp.Eq(sp.Symbol(f"L_{{{i}}}"), cf["last_hop"][i]),
                      sp.Eq(sp.Symbol(f"F_{{{i}}}"), cf["first_hop"][i]))), None)

    sup = fit.superposition_equations()
    for key in ("h", "Delta", "delta1", "lambda1", "lambda2"):
        eq = sp.Eq(sp.Symbol(key), sp.simplify(sup[key]))
        check(layout(eq, "18"), eq)

    q = mmpp_equations()
    m = q["matrices"]
    tbar = next(s for s in q["rho"].free_symbols if s.name == "tbar")
    u = (1 - q["rho"]) * m["g"] + tbar * m["pi"] * m["Lambda"]
    names = {sp.Symbol(r"\lambda_c"): q["lambda"], sp.Symbol(r"\rho"): q["rho"],
             sp.Symbol("u_1"): u[0], sp.Symbol("u_2"): u[1]}
    wv = torus_ipp()["eq:19"][0]
    lay = layout(wv, "19", names=names)
    check(lay, wv)
    assert [s for s, _ in lay.names] == list(names)

    chain = occupancy_equations(3)["chain"]
    eqs = tuple(sp.Eq(sp.Symbol(f"P_{i}"), sp.factor(p)) for i, p in enumerate(chain))
    check(layout(eqs), eqs)
