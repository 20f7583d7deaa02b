"""Lambdify once, reuse everywhere.

:func:`lambdify_cached` turns a SymPy expression into a NumPy function and
memoises it on ``(args, expr)``.  Arguments are an explicit tuple of symbols
(never ``free_symbols``, whose order is unstable), so the same equation text
that the book prints is the code that runs.
"""

from __future__ import annotations

import functools
from typing import Sequence

import sympy as sp


@functools.lru_cache(maxsize=None)
def _lambdify(args: tuple, expr, modules: str, cse: bool):
    return sp.lambdify(args, expr, modules=modules, cse=cse)


def lambdify_cached(args: Sequence[sp.Symbol], expr, *, modules: str = "numpy", cse: bool = True):
    """Return ``sympy.lambdify(args, expr)``, built once per process.

    ``expr`` may be an expression, an :class:`~sympy.Eq` (its right-hand side
    is used) or a tuple/list of expressions (converted to a tuple).
    """
    if isinstance(expr, sp.Equality):
        expr = expr.rhs
    if isinstance(expr, list):
        expr = tuple(expr)
    return _lambdify(tuple(args), expr, modules, cse)


def latex_equations(eqs: dict) -> str:
    """LaTeX ``align`` body for a mapping ``{label: Eq}`` (label shown as a tag)."""
    lines = []
    for label, eq in eqs.items():
        tag = str(label).replace("eq:", "")
        lines.append(f"{sp.latex(eq)} \\tag{{{tag}}}")
    return "\\begin{aligned}" + " \\\\ ".join(lines) + "\\end{aligned}"
