"""The PLACEHOLDER model's equations (SymPy), keyed by equation number.

One FIFO channel serving one flit per cycle; messages of ``M`` flits arrive
as a Poisson process of rate ``lam`` (messages/cycle).  The wait is the
Pollaczek-Khinchine mean of an M/D/1 queue.  Replace with the paper's
equations, keyed by the paper's numbering (``"eq:7"``).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["SYMBOLS", "equations"]

lam, M, W, T = sp.symbols("lambda M W T", positive=True)

#: The symbols, by name.
SYMBOLS = {"lam": lam, "M": M, "W": W, "T": T}


def equations() -> dict:
    """``{"eq:1": T = M + W, "eq:2": W = lam M^2 / (2 (1 - lam M))}`` (cycles)."""
    return {
        "eq:1": sp.Eq(T, M + W),
        "eq:2": sp.Eq(W, lam * M**2 / (2 * (1 - lam * M))),
    }
