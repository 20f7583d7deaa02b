"""A placeholder paper -- the TEMPLATE chapter that ``python -m models.new_chapter`` copies.

This package is a working chapter with a PLACEHOLDER model (one FIFO channel:
Poisson messages of ``M`` flits, one flit per cycle -- an M/D/1 queue, which
the placeholder simulator :func:`models.sim.mmpp_g1.simulate_mmpp_g1`
matches exactly).  The scaffold copies it under a new slug; the copy's model
is then replaced by the paper's.  It is not in ``models.CHAPTERS`` (no page of
the book), but it has the shape of every chapter, and the same tools read it.

Front door (the chapter contract of :mod:`models`)::

    from models.chapter_template import equations, solve, solve_curve, saturation_load
    res = solve(0.01, M=32)                 # rate in messages/node/cycle
    curve = solve_curve([0.005, 0.01], M=32)
    saturation_load(M=32)
    compare(M=32, points=5)                 # the model against the simulation (models.core.compare)

The rooms (DESIGN.md, "A chapter"): ``equations.py`` (SymPy), ``solve.py``
(the numerics), ``setups.py`` (set-ups, run lengths, the parameters value,
the curve: light), ``experiments.py`` (figures, the simulator translation,
the runs, the tables), ``claims.py`` (the paper's claims), ``glue.py`` (the
numbers the pages glue), ``plots.py``, ``compare.py``, ``__main__.py``.
"""

from ..core.symbolic import lazy_attributes

lazy_attributes(__name__, {"equations": ".equations:equations", "compare": ".compare:compare"})
from .solve import LOAD, LOAD_UNIT, ChapterTemplateResult, CurveResult, saturation_load, solve, solve_curve  # noqa: E402

#: A small configuration (keywords of ``solve``) and a load below its saturation: the contract tests
#: (``tests/test_contract.py``) and the warm-start test run every chapter on them.
EXAMPLE = dict(M=32)
EXAMPLE_LOAD = 0.01
#: A closed system (a fixed population, never saturated; ``saturation_load`` is the knee ``N*``).
CLOSED_SYSTEM = False

__all__ = ["LOAD", "LOAD_UNIT", "EXAMPLE", "EXAMPLE_LOAD", "CLOSED_SYSTEM", "equations", "solve", "solve_curve",
           "saturation_load", "compare", "ChapterTemplateResult", "CurveResult"]
