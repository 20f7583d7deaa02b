r"""Equations as a page shows them: a tag MathJax can typeset, and lines that fit the column.

Every derivation page displays its SymPy equations through :func:`show_equation` (the LaTeX it
writes is :func:`equation_latex`).  Two things go wrong with ``sp.latex(eq)`` as it is:

* **The tag.**  ``\qquad\text{(tag)}`` typesets the tag in text mode, where ``_ ^ & % # $`` are
  errors: MathJax prints the raw TeX in a yellow box.  :func:`tag_text` escapes them (``Q_ij``
  shows as "Q_ij"); :func:`models.core.symbolic.latex_equations` uses it too.
* **The width.**  MathJax 3 does not break a display equation into lines (version 4 will), so an
  equation wider than the page's text column runs off its right edge: the reader scrolls, the
  printed PDF cuts it.  An equation wider than the budget :data:`WIDTH` is therefore broken
  into lines here, in an ``aligned`` environment:

  1. at the top-level terms of a sum, in SymPy's print order (``lhs &= t_1 + t_2 \\ &\quad {}+
     t_3``, the ``{}`` keeping the sign binary; a term printing with a leading ``-`` joins with
     `` - ``);
  2. inside the bracket of a product ``c\,(a + b + \dots)``, or of a fraction whose numerator
     holds a sum, ``\frac{1}{d}\,(a + b + \dots)``: written ``c \Bigl( \dots \Bigr)``, since
     ``\left``/``\right`` cannot span lines (``\biggl``/``\Biggl`` for taller content or
     brackets nested inside);
  3. a fraction still too wide gets names for its numerator (and, if wide, its denominator):
     ``W = \frac{A}{B}`` and, below it, ``A = \dots``, ``B = \dots``, themselves broken by the
     same rules;
  4. anything else too wide is shortened by naming sub-expressions: SymPy's common
     sub-expressions (:func:`sympy.cse`), else its widest sum.

  A page may also name sub-expressions itself (``names=``), e.g. the mean rate and the load in
  a queueing formula; a page that shows named sub-expressions says so next to the equation.
  Automatic names are capital letters that do not occur in the equation.  The mathematics shown
  is the equation's: ``tests/core/test_typeset.py`` rebuilds every layout of the five derivation
  pages from its pieces, substitutes the names back and compares with the SymPy original.

**The budget.**  Widths are estimated from the LaTeX itself (:func:`latex_width`, in em of the
display font), not from its length: a fraction is as wide as the wider of its numerator and
denominator, scripts are 0.7 of the size, ``\left(`` is one glyph, so 2000 characters of nested
fractions and 350 characters of sums are told apart.  The book's theme sets 16 px text in
``system-ui``; MathJax scales its font to that font's x-height, 1 em = 20.37 px.  Rendered in
headless Chromium (MathJax 3 CHTML, the book's own script, 16 px ``system-ui``), the 117 display
equations of the five derivation pages measured 0.91 to 1.08 times the estimate, and 0.94 to 1.04
times for the 31 wider than 25 em.  :data:`WIDTH` = 37 em is 754 px by the estimate: a line
renders at most about 800 px, inside the 848 px text column of a 1400 px window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.symbolic import tag_text

#: Width budget of one displayed line, in em of the display font (1 em = 20.37 px in the book).
WIDTH = 37.0
#: Width of one em of display math in the book's HTML (16 px ``system-ui`` text, MathJax CHTML).
EM_PX = 20.37

# ----------------------------------------------------------------------------
# How wide a line of LaTeX is
# ----------------------------------------------------------------------------
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[{}^_&]|\s+|.", re.S)
_SIZE = {"D": 1.0, "T": 1.0, "S": 0.7, "SS": 0.5}
_FRAC_STYLE = {"D": "T", "T": "S", "S": "SS", "SS": "SS"}
_SCRIPT_STYLE = {"D": "S", "T": "S", "S": "SS", "SS": "SS"}
_REL = {"=", "<", ">", ":", r"\leq", r"\geq", r"\le", r"\ge", r"\neq", r"\ne", r"\approx", r"\sim",
        r"\equiv", r"\Rightarrow", r"\rightarrow", r"\to", r"\in", r"\notin", r"\mapsto", r"\propto",
        r"\simeq", r"\Leftrightarrow", r"\iff", r"\mid", r"\subset", r"\subseteq", r"\ll", r"\gg"}
_BIN = {"+", "-", "*", r"\cdot", r"\times", r"\pm", r"\mp", r"\cup", r"\cap", r"\setminus", r"\div"}
_BIGOP = {r"\sum": (1.44, 1.06), r"\prod": (1.28, 0.94), r"\coprod": (1.28, 0.94), r"\bigcup": (1.1, 0.83),
          r"\bigcap": (1.1, 0.83), r"\int": (0.94, 0.56), r"\oint": (0.94, 0.56)}
_LIMOP = {r"\lim", r"\max", r"\min", r"\sup", r"\inf", r"\limsup", r"\liminf", r"\det", r"\gcd"}
_FUNC = {r"\log", r"\ln", r"\exp", r"\sin", r"\cos", r"\tan", r"\sinh", r"\cosh", r"\tanh", r"\arg",
         r"\deg", r"\dim", r"\ker", r"\Pr", r"\arcsin", r"\arccos", r"\arctan", r"\cot", r"\sec", r"\csc"}
_ACCENT = {r"\hat", r"\bar", r"\tilde", r"\vec", r"\dot", r"\ddot", r"\overline", r"\underline", r"\widehat",
           r"\widetilde", r"\mathbf", r"\mathit", r"\mathcal", r"\mathbb", r"\boldsymbol", r"\mathsf",
           r"\mathtt", r"\mathfrak", r"\mathscr", r"\bm", r"\check", r"\breve", r"\acute", r"\grave",
           r"\phantom", r"\hphantom", r"\mathring", r"\overrightarrow"}
_TEXT = {r"\text", r"\textrm", r"\textit", r"\textbf", r"\mathrm", r"\operatorname", r"\texttt", r"\textsf"}
_SPACE = {r"\quad": 1.0, r"\qquad": 2.0, r"\,": 0.167, r"\:": 0.222, r"\>": 0.222, r"\;": 0.278,
          r"\!": -0.167, "\\ ": 0.25, "~": 0.25, r"\enspace": 0.5, r"\thinspace": 0.167}
_SIZED = {r"\left", r"\right", r"\middle", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\biggl", r"\biggr",
          r"\Biggl", r"\Biggr", r"\big", r"\Big", r"\bigg", r"\Bigg"}
_OPENING = {r"\left", r"\bigl", r"\Bigl", r"\biggl", r"\Biggl"}
_SKIP = {r"\limits", r"\nolimits", r"\nonumber", r"\notag", r"\scriptstyle", r"\scriptscriptstyle"}
_DELIM = {"(": 0.39, ")": 0.39, "[": 0.28, "]": 0.28, r"\{": 0.5, r"\}": 0.5, "|": 0.28, r"\|": 0.5,
          r"\lceil": 0.44, r"\rceil": 0.44, r"\lfloor": 0.44, r"\rfloor": 0.44, r"\langle": 0.39,
          r"\rangle": 0.39, ".": 0.12, "/": 0.5, r"\vert": 0.28, r"\Vert": 0.5}
_OPEN_DELIM = {"(", "[", r"\{", r"\lceil", r"\lfloor", r"\langle"}
_SYMBOL = {r"\infty": 1.0, r"\cdots": 1.17, r"\ldots": 1.17, r"\dots": 1.17, r"\vdots": 0.3, r"\ddots": 1.0,
           r"\partial": 0.57, r"\nabla": 0.83, r"\forall": 0.56, r"\exists": 0.56, r"\emptyset": 0.5,
           r"\ell": 0.42, r"\hbar": 0.58, r"\prime": 0.3, r"\circ": 0.5}
_TEXTSTYLE_ENVS = {"matrix", "pmatrix", "bmatrix", "vmatrix", "Bmatrix", "cases", "array", "smallmatrix"}
_ALIGN_ENVS = {"aligned", "align", "align*", "alignedat", "split", "gathered", "gather", "gather*"}


class _Tokens:
    """A cursor over the tokens of a LaTeX string."""

    def __init__(self, toks):
        self.toks = list(toks)
        self.i = 0

    def peek(self):
        while self.i < len(self.toks) and self.toks[self.i].isspace():
            self.i += 1
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def arg(self) -> list:
        """The tokens of the next argument: a group's content, or one token."""
        t = self.take()
        if t != "{":
            return [] if t is None else [t]
        depth, out = 1, []
        while self.i < len(self.toks):
            t = self.toks[self.i]
            self.i += 1
            depth += (t == "{") - (t == "}")
            if depth == 0:
                break
            out.append(t)
        return out

    def environment(self) -> list:
        """The tokens up to the matching ``\\end{...}`` (which is consumed)."""
        depth, out = 1, []
        while self.i < len(self.toks):
            t = self.toks[self.i]
            self.i += 1
            depth += (t == r"\begin") - (t == r"\end")
            if depth == 0:
                self.arg()
                break
            out.append(t)
        return out


def _split_top(toks, sep) -> list:
    """``toks`` split at ``sep`` outside groups and nested environments."""
    parts, cur, depth = [], [], 0
    for t in toks:
        depth += (t in ("{", r"\begin")) - (t in ("}", r"\end"))
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def latex_width(latex: str, style: str = "D") -> float:
    r"""Estimated width of ``latex`` typeset as display math, in em of the display font.

    A rough typesetter: glyph widths by class (letters, digits, Greek, operators), the spaces TeX
    puts around binary operators and relations, fractions as wide as the wider of numerator and
    denominator, scripts at 0.7 (0.5 in scripts) of the size, limits of a display sum under it,
    environments by their widest cell per column.  Calibrated against MathJax 3 CHTML (module
    docstring): rendered widths are 0.91 to 1.08 times the estimate.
    """
    return _width(_TOKEN.findall(latex), style)


def _width(toks, style: str) -> float:  # noqa: C901 - one flat dispatch on the token's class
    cur = _Tokens(toks)
    total = 0.0
    prev = None  # class of the previous atom: None (start), "ord", "bin", "rel", "op", "open", "punct"
    limits_under = None  # width of a display-style big operator just typeset (its scripts go under it)
    size = _SIZE[style]
    while (t := cur.peek()) is not None:
        cur.take()
        if t in ("^", "_"):
            w = _width(cur.arg(), _SCRIPT_STYLE[style])
            if cur.peek() in ("^", "_"):
                cur.take()
                w = max(w, _width(cur.arg(), _SCRIPT_STYLE[style]))
            total += max(0.0, w - limits_under) if limits_under is not None else w + 0.05 * size
            limits_under = None
            continue
        limits_under = None
        kind = "ord"
        if t == "{":
            cur.i -= 1
            w = _width(cur.arg(), style)
        elif t == "}" or t.isspace() or t in _SKIP:
            continue
        elif t in (r"\displaystyle", r"\textstyle"):
            style = "D" if t == r"\displaystyle" else "T"
            size = 1.0
            continue
        elif t in _SIZED:
            d = cur.take()
            w = (0.12 if d == "." else _DELIM.get(d, 0.4) + 0.1) * size
            kind = "open" if t in _OPENING else "ord"
        elif t in (r"\frac", r"\dfrac", r"\tfrac", r"\cfrac", r"\binom", r"\dbinom", r"\tbinom"):
            inner = "T" if t in (r"\dfrac", r"\dbinom") else _FRAC_STYLE[style]
            w = max(_width(cur.arg(), inner), _width(cur.arg(), inner)) + 0.24 * size
            if "binom" in t:
                w += 0.9 * size
        elif t == r"\sqrt":
            if cur.peek() == "[":
                while cur.take() not in ("]", None):
                    pass
            w = _width(cur.arg(), style) + 0.9 * size
        elif t == r"\substack":
            w = max(_width(row, style) for row in _split_top(cur.arg(), "\\\\"))
        elif t == r"\begin":
            name = "".join(cur.arg())
            body = cur.environment()
            if name == "array" and body[:1] == ["{"]:
                spec = _Tokens(body)
                spec.arg()
                body = body[spec.i:]
            rows = [_split_top(row, "&") for row in _split_top(body, "\\\\")]
            ncol = max(len(r) for r in rows)
            cell_style = "T" if name in _TEXTSTYLE_ENVS else style
            cols = [max(_width(r[c], cell_style) if c < len(r) else 0.0 for r in rows) for c in range(ncol)]
            if name in _ALIGN_ENVS:
                w = sum(cols) + 2.0 * max(0, (ncol + 1) // 2 - 1)
            else:
                w = sum(cols) + 1.0 * (ncol - 1) + (1.0 if name == "cases" else 0.34)
            w *= size
        elif t in _TEXT:
            text = re.sub(r"\\([A-Za-z]+|.)", "x", "".join(cur.arg()))
            w = sum(0.25 if c == " " else 0.72 if c.isupper() else 0.5 for c in text) * size
            kind = "op" if t == r"\operatorname" else "ord"
        elif t in _ACCENT:
            w = _width(cur.arg(), style)
        elif t in _SPACE:
            total += _SPACE[t] * size
            continue
        elif t in _BIGOP:
            w = _BIGOP[t][0 if style == "D" else 1] * size
            total += w + (0.167 if style in ("D", "T") else 0.0)
            limits_under = w if style == "D" else None
            prev = "op"
            continue
        elif t in _LIMOP:
            w = 0.5 * (len(t) - 1) * size
            total += w
            limits_under = w if style == "D" else None
            prev = "op"
            continue
        elif t in _FUNC:
            w = 0.45 * (len(t) - 1) * size
            kind = "op"
        elif t in _REL:
            w = 0.78 * size
            kind = "rel"
        elif t in _BIN:
            w = (0.78 if t in "+-*" else 0.4) * size
            kind = "bin"
        elif t in _DELIM:
            w = _DELIM[t] * size
            kind = "open" if t in _OPEN_DELIM else "ord"
        elif t in (",", ";"):
            w = 0.28 * size
            kind = "punct"
        elif t in _SYMBOL:
            w = _SYMBOL[t] * size
        elif t.startswith("\\") and len(t) > 2:
            w = (0.75 if t[1].isupper() else 0.58) * size
        elif t.startswith("\\") or t.isdigit():
            w = 0.5 * size
        elif t.isalpha():
            w = (1.0 if t in "MW" else 0.75 if t.isupper() else 0.85 if t in "mw" else 0.38 if t in "ijl"
                 else 0.53) * size
        elif t in ("!", "'", "."):
            w = 0.28 * size
        else:
            w = 0.55 * size
        if kind == "bin" and prev in (None, "bin", "rel", "open", "punct", "op"):
            kind = "ord"  # a unary sign: no space around it
        if style in ("D", "T"):
            w += {"bin": 0.444, "rel": 0.556, "punct": 0.167, "op": 0.167}.get(kind, 0.0)
        total += w
        prev = kind
    return total


# ----------------------------------------------------------------------------
# An equation broken into lines
# ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    r"""One unit a line break may not split.

    ``kind`` is ``"term"`` (the term ``expr``, added or subtracted: ``sign`` ``"+"``/``"-"``),
    ``"open"`` (``sign expr \Bigl(``: the terms up to the matching ``"close"`` are summed and
    multiplied by ``expr``) or ``"close"`` (``\Bigr)``).  ``depth`` counts the brackets around it;
    ``size`` of a bracket is 0, 1, 2 for ``\Bigl``, ``\biggl``, ``\Biggl``.
    """

    kind: str
    sign: str = "+"
    expr: object = None
    depth: int = 0
    size: int = 0


@dataclass(frozen=True)
class Block:
    """One equation ``lhs rel rhs`` of a layout, its right-hand side as lines of pieces.

    ``lhs`` is a LaTeX string (``""`` for an expression without a left-hand side, or for the
    continuation of a chain ``a = b = c``); ``rhs`` the SymPy expression shown (it may contain the
    layout's names); ``lines`` the pieces of each line, whose value (:meth:`value`) is ``rhs``.
    """

    lhs: str
    rel: str
    rhs: object
    lines: tuple
    latex_lines: tuple

    def value(self):
        """The expression the pieces add up to (sums, signs and bracketed products rebuilt)."""
        import sympy as sp

        stack = [(sp.S.One, "+", [])]
        for piece in (p for line in self.lines for p in line):
            if piece.kind == "term":
                stack[-1][2].append(piece.expr if piece.sign == "+" else -piece.expr)
            elif piece.kind == "open":
                stack.append((piece.expr, piece.sign, []))
            else:
                coeff, sign, terms = stack.pop()
                value = coeff * sp.Add(*terms)
                stack[-1][2].append(value if sign == "+" else -value)
        assert len(stack) == 1, "unbalanced brackets"
        return sp.Add(*stack[0][2])


@dataclass(frozen=True)
class Layout:
    """How an equation is displayed: its blocks, the names it introduced, the LaTeX and line widths.

    ``blocks[: n_main]`` are the equation itself (several for a tuple or a chain), the rest
    define ``names`` (``(symbol, expression)`` in order of definition; an expression may use
    earlier names).  ``widths`` are the estimated widths (em) of the displayed lines, tag included.
    """

    blocks: tuple
    n_main: int
    names: tuple
    latex: str
    widths: tuple

    def resolve(self, expr):
        """``expr`` with every name replaced by what it stands for."""
        for sym, value in reversed(self.names):
            expr = expr.subs(sym, value)
        return expr


_NAME_POOL = "ABCDFGHJKLMNPQRSTUVWXYZ"


class _Namer:
    """Fresh capital-letter names, none of which stands alone in the equation's LaTeX."""

    def __init__(self, text: str, taken=()):
        self.free = [c for c in _NAME_POOL
                     if not re.search(rf"(?<![A-Za-z\\]){c}(?![A-Za-z])", text) and c not in taken]

    def __call__(self):
        import sympy as sp

        if not self.free:
            raise ValueError("no free names left for the sub-expressions of a wide equation")
        return sp.Symbol(self.free.pop(0))

    def __iter__(self):
        while True:
            yield self()


def signed_terms(expr) -> list:
    """``[(sign, term), ...]`` of a sum in the order SymPy prints it: ``sum(+-term) == expr``.

    A term that would print with a leading ``-`` is negated and carries ``"-"``, as
    ``LatexPrinter._print_Add`` does (except the first term, which keeps its own sign).
    """
    out = []
    for i, term in enumerate(expr.as_ordered_terms()):
        if i and term.could_extract_minus_sign():
            out.append(("-", -term))
        else:
            out.append(("+", term))
    return out


def _term_latex(expr) -> str:
    import sympy as sp

    tex = sp.latex(expr)
    if getattr(expr, "is_Relational", False) or getattr(expr, "is_Add", False) or expr.has(sp.Mod):
        tex = rf"\left({tex}\right)"
    return tex


def _factor_latex(expr) -> str:
    import sympy as sp

    if expr == 1:
        return ""
    tex = sp.latex(expr)
    return rf"\left({tex}\right) " if expr.is_Add or expr.is_Relational else tex + " "


_BRACKETS = [(r"\Bigl(", r"\Bigr)"), (r"\biggl(", r"\biggr)"), (r"\Biggl(", r"\Biggr)")]
_TALL = re.compile(r"\\(frac|sum|prod|int|sqrt|binom|begin)\b")
_TALLER = re.compile(r"\\left.*\\(frac|sum|prod|int|binom|begin)\b")  # a \left( around a tall thing


def _sized(pieces: list) -> list:
    r"""``pieces`` with each bracket sized to what it holds (``\left``/``\right`` size themselves; these
    cannot): one step up for tall content (fractions, sums, roots), two for a ``\left(`` around such,
    and one per bracket nested inside it."""
    import dataclasses

    out = list(pieces)
    for i, p in enumerate(pieces):
        if p.kind != "open":
            continue
        j, level, nested, tall = i + 1, 1, 0, 0
        while level:
            q = pieces[j]
            if q.kind == "open":
                nested = max(nested, q.depth - p.depth)
            elif q.kind == "term":
                tex = _term_latex(q.expr)
                tall = max(tall, 2 if _TALLER.search(tex) else 1 if _TALL.search(tex) else 0)
            level += (q.kind == "open") - (q.kind == "close")
            j += 1
        size = min(2, tall + nested)
        out[i] = dataclasses.replace(p, size=size)
        out[j - 1] = dataclasses.replace(pieces[j - 1], size=size)
    return out


def _pieces_latex(pieces, first: bool) -> str:
    """The LaTeX of a run of pieces; ``first``: the run starts its block (a leading ``+`` is dropped)."""
    out = []
    lead = first
    for p in pieces:
        if p.kind == "close":
            out.append(_BRACKETS[p.size][1])
            lead = False
            continue
        sign = "" if lead and p.sign == "+" else ("- " if lead else f" {p.sign} ")
        if p.kind == "term":
            out.append(sign + _term_latex(p.expr))
            lead = False
        else:
            out.append(sign + _factor_latex(p.expr) + _BRACKETS[p.size][0])
            lead = True
    return "".join(out).strip()


def _continuation(depth: int) -> str:
    """The start of a continued line: indented, and ``{}`` so that its leading sign is binary."""
    return r"\quad" * (1 + depth) + " {}"


@dataclass
class _Job:
    """One equation being laid out: its left-hand side (LaTeX), relation, right-hand side, pieces."""

    lhs: str
    rel: str
    rhs: object
    pieces: list


class _Layouter:
    """Breaks the equations of one layout into lines of at most ``width`` em."""

    def __init__(self, width: float, namer: _Namer, col1: float):
        self.width = width
        self.namer = namer
        self.col1 = col1  # width of the aligned environment's first column (the widest left-hand side)
        self.names = []  # (symbol, expression) defined on the way

    # -- widths ---------------------------------------------------------------
    def line_width(self, job, pieces, first_line: bool, extra: str = "") -> float:
        if first_line:
            head = f"{{}}{job.rel} " if job.rel else ""
        else:
            head = _continuation(pieces[0].depth if pieces else 0)
        body = _pieces_latex(pieces, first_line)
        return self.col1 + latex_width(head + body + extra)

    # -- making pieces narrow enough --------------------------------------------
    def narrow(self, job: _Job, tag: str):
        """Expand or rename pieces until each fits a line by itself (or nothing more can be done)."""
        tried = set()
        changed = True
        while changed:
            changed = False
            pieces = job.pieces
            for i, p in enumerate(pieces):
                if p.kind != "term" or id(p) in tried:
                    continue
                # the term shares its line with the brackets opened just before it and closed after it
                j, k = i, i + 1
                while j > 0 and pieces[j - 1].kind == "open":
                    j -= 1
                while k < len(pieces) and pieces[k].kind == "close":
                    k += 1
                extra = tag if k == len(pieces) else ""
                if self.line_width(job, pieces[j:k], j == 0, extra) <= self.width:
                    continue
                new = self.expand(p)
                if new is None:
                    tried.add(id(p))
                    continue
                job.pieces[i:i + 1] = new
                changed = True
                break

    def expand(self, p: Piece):
        """Pieces replacing ``p``, narrower; ``None`` if no rule applies (rules: module docstring)."""
        import sympy as sp

        expr = p.expr
        if not isinstance(expr, sp.Expr):
            return None
        if expr.is_Add:  # a sum as the whole right-hand side: its terms
            return [Piece("term", s, t, p.depth) for s, t in signed_terms(expr)]
        room = self.width - self.col1 - latex_width(_continuation(p.depth + 1) + "+ ")
        num, den = sp.fraction(expr, exact=True)
        factors = sp.Mul.make_args(num)
        adds = [f for f in factors if f.is_Add]
        if adds:  # c (a + b + ...) or (a + b + ...) / d: break inside the bracket
            inner = max(adds, key=lambda f: latex_width(sp.latex(f)))
            coeff = sp.Mul(*[f for f in factors if f is not inner]) / den
            if latex_width(_factor_latex(coeff)) <= room / 2:
                return ([Piece("open", p.sign, coeff, p.depth)]
                        + [Piece("term", s, t, p.depth + 1) for s, t in signed_terms(inner)]
                        + [Piece("close", "+", None, p.depth)])
        if den != 1:  # a fraction: name its numerator and/or denominator
            wide_num = latex_width(sp.latex(num)) > room - 1
            wide_den = latex_width(sp.latex(den)) > room - 1
            if not (wide_num or wide_den):
                wide_num = latex_width(sp.latex(num)) >= latex_width(sp.latex(den))
                wide_den = not wide_num
            renamed = False
            if wide_num and not num.is_Symbol:
                num, renamed = self.define(num), True
            if wide_den and not den.is_Symbol:
                den, renamed = self.define(den), True
            if renamed:
                return [Piece("term", p.sign, num / den, p.depth)]
        # name sub-expressions: the common ones (sympy.cse), else the widest sum inside
        reps, reduced = sp.cse(expr, symbols=iter(self.namer), optimizations=None)
        if reps:
            self.names.extend(reps)
            return [Piece("term", p.sign, reduced[0], p.depth)]
        subs = [s for s in sp.preorder_traversal(expr) if s.is_Add and s != expr]
        if subs:
            widest = max(subs, key=lambda s: latex_width(sp.latex(s)))
            return [Piece("term", p.sign, expr.xreplace({widest: self.define(widest)}), p.depth)]
        return None

    def define(self, expr):
        sym = self.namer()
        self.names.append((sym, expr))
        return sym

    # -- packing ----------------------------------------------------------------
    def pack(self, job: _Job, tag: str) -> list:
        lines, cur = [], []
        pieces = job.pieces
        for i, p in enumerate(pieces):
            breakable = p.kind != "close" and cur and cur[-1].kind != "open"
            # an opening bracket stays on the line of the first term inside it
            k = i
            while k < len(pieces) and pieces[k].kind == "open":
                k += 1
            unit = pieces[i:k + 1]
            if breakable and self.line_width(job, cur + unit, not lines) > self.width:
                lines.append(cur)
                cur = []
            cur.append(p)
        lines.append(cur)
        # the tag goes at the end of the last line: make room for it
        while tag and len(lines[-1]) > 1 and self.line_width(job, lines[-1], len(lines) == 1, tag) > self.width:
            last = lines[-1]
            cut = max((k for k in range(1, len(last)) if last[k].kind != "close" and last[k - 1].kind != "open"),
                      default=None)
            if cut is None:
                break
            lines[-1:] = [last[:cut], last[cut:]]
        return lines


def _rel(eq) -> str:
    return {"==": "=", "<": "<", ">": ">", "<=": r"\leq", ">=": r"\geq", "!=": r"\neq"}[eq.rel_op]


def _is_eq(e) -> bool:
    import sympy as sp

    return isinstance(e, sp.core.relational.Relational)


def layout(expr, tag=None, *, width: float = WIDTH, names=None, chain: bool = False) -> Layout:
    r"""Lay out ``expr`` for display: one line if it fits in ``width`` em, else broken into lines.

    ``expr``: a SymPy equation (``Eq``) or expression; a tuple or list of them (shown side by
    side, joined by ``,\quad``, or one under the other when too wide; with ``chain=True``,
    ``(a, b, c)`` is the chain ``a = b = c``); or a LaTeX string (shown as it is).  ``tag`` is
    shown as ``\qquad\text{(tag)}`` (escaped by :func:`tag_text`).  ``names``: ``{symbol:
    expression}`` (or pairs) the page names itself, substituted in order and defined below the
    equation.  See the module docstring for the rules.
    """
    import sympy as sp

    tag_tex = rf"\qquad\text{{({tag_text(tag)})}}" if tag not in (None, "") else ""
    if isinstance(expr, str):
        return Layout((), 0, (), expr + tag_tex, (latex_width(expr + tag_tex),))
    items = list(expr) if isinstance(expr, (tuple, list)) else [expr]
    items = [sp.sympify(e) if not isinstance(e, (sp.Basic, sp.MatrixBase)) else e for e in items]
    pairs = list(names.items()) if isinstance(names, dict) else list(names or ())
    text = " ".join(sp.latex(e) for e in items) + " " + " ".join(sp.latex(s) for s, _ in pairs)

    # the page's own names: substituted in order, later definitions in terms of earlier names
    defined = []
    for sym, value in pairs:
        value = sp.sympify(value)
        for s0, v0 in defined:
            value = value.subs(v0, s0)
        new_items = [e.subs(value, sym) for e in items]
        if all(a == b for a, b in zip(new_items, items)):
            raise ValueError(f"the name {sym} does not occur in the equation (no sub-expression {value})")
        items = new_items
        defined.append((sym, value))

    one_line = (" = " if chain else r",\quad ").join(sp.latex(e) for e in items) + tag_tex
    if latex_width(one_line) <= width and not defined:
        return Layout((), len(items), tuple(defined), one_line, (latex_width(one_line),))

    jobs = []
    for i, e in enumerate(items):
        if chain and i > 0:
            jobs.append(_Job("", "=", e, None))
        elif chain:
            continue
        elif _is_eq(e):
            jobs.append(_Job(sp.latex(e.lhs), _rel(e), e.rhs, None))
        else:
            jobs.append(_Job("", "", e, None))
    if chain:
        jobs[0].lhs = sp.latex(items[0])
    namer = _Namer(text, taken={str(s) for s, _ in defined})
    col1 = max(latex_width(j.lhs) for j in jobs)
    lay = _Layouter(width, namer, col1)
    lay.names = list(defined)
    main = len(jobs)
    # definitions are laid out after the equation, each as an equation of its own
    k = 0
    blocks_jobs = []
    pending = list(jobs)
    while pending:
        job = pending.pop(0)
        is_main = k < main
        last_main = k == main - 1
        job_tag = tag_tex if last_main else ""
        suffix = "," if is_main and not last_main and not chain else ""
        job.pieces = [Piece("term", "+", job.rhs, 0)]
        if isinstance(job.rhs, sp.Expr) and job.rhs.is_Add:
            job.pieces = [Piece("term", s, t, 0) for s, t in signed_terms(job.rhs)]
        n_names = len(lay.names)
        lay.narrow(job, job_tag + suffix)
        job.pieces = _sized(job.pieces)
        lines = lay.pack(job, job_tag + suffix)
        blocks_jobs.append((job, lines, job_tag + suffix))
        for sym, value in lay.names[n_names:]:
            pending.append(_Job(sp.latex(sym), "=", value, None))
        if is_main and k == main - 1:
            # the page's own names are defined first, right below the equation
            pending = [_Job(sp.latex(s), "=", v, None) for s, v in defined] + pending
        k += 1

    rows, widths, blocks = [], [], []
    for job, lines, extra in blocks_jobs:
        latex_lines = []
        for n, line in enumerate(lines):
            body = _pieces_latex(line, n == 0)
            if n == 0:
                head = f"{job.lhs} &{job.rel} " if job.rel else f"{job.lhs} & "
            else:
                head = "& " + _continuation(line[0].depth)
            tail = extra if n == len(lines) - 1 else ""
            row = (head + body + tail).rstrip()
            latex_lines.append(row)
            widths.append(lay.line_width(job, line, n == 0, tail))
        rows.extend(latex_lines)
        blocks.append(Block(job.lhs, job.rel, job.rhs, tuple(tuple(line) for line in lines), tuple(latex_lines)))
    latex = r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"
    return Layout(tuple(blocks), main, tuple(lay.names), latex, tuple(widths))


def equation_latex(expr, tag=None, *, width: float = WIDTH, names=None, chain: bool = False) -> str:
    r"""The LaTeX a page displays for ``expr`` (see :func:`layout`): within ``width`` em per line.

    A short equation is ``sp.latex(expr)`` followed by ``\qquad\text{(tag)}``, as before; a wide one
    an ``aligned`` environment, broken at sums and named sub-expressions (module docstring).
    """
    return layout(expr, tag, width=width, names=names, chain=chain).latex


def show_equation(expr, tag=None, **kw) -> None:
    """Display :func:`equation_latex` ``(expr, tag, **kw)`` as display math in a notebook."""
    from IPython.display import Math, display

    display(Math(equation_latex(expr, tag, **kw)))
