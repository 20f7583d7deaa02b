"""Analytical performance models of interconnection networks, reproduced.

The package is deliberately light to import: SymPy, numba and matplotlib are
loaded by the chapter and simulator modules that need them, never here.

Chapters (one slug everywhere: ``models/<slug>``, ``notebooks/<slug>``,
``book/<slug>``, ``tests/<slug>``):

``min_mva``
    Willick & Eager (1990), multistage networks by approximate MVA.
``sim``
    The simulators the chapters validate against.
"""

__version__ = "0.1.0"
