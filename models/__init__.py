"""Analytical performance models of interconnection networks, reproduced.

The package is deliberately light to import: SymPy, numba and matplotlib are
loaded by the chapter and simulator modules that need them, never here.

Floors (DESIGN.md), top down; an import only goes down a floor, no chapter
imports another (``tests/test_architecture.py`` checks it):

-1. ``findings``: the papers side by side (reads every chapter);
0. chapters: the slugs of :data:`CHAPTERS` (one slug everywhere:
   ``models/<slug>``, ``notebooks/<slug>``, ``book/<slug>``, ``tests/<slug>``);
1. ``sim``: the simulators the chapters validate against;
2. ``networks`` (topologies, distances, path counts), ``queueing``
   (M/G/1, MMPP/G/1, VC occupancy), ``traffic`` (the MMPP(2)/IPP/Poisson
   process object, its moments, the Heffes-Lucantoni fit), ``pipeline``
   (papermill runs), ``new_chapter`` (the sixth-chapter scaffold);
3. ``citation``: the cite page, from ``CITATION.cff``;
4. ``core``: errors, validation, results, fixed point, saturation search,
   the experiment skeleton and vocabulary (``experiment``, ``claims``), cache
   keys, atomic cache, lambdified code on disk, tables, plotting, the shared
   command line, paths.

The chapter contract
--------------------
Every chapter package ``models.<slug>`` has the same front door, so a reader
who knows one chapter can call any other, and a sixth paper has a shape to
copy (the way SciPy's ``OdeSolver`` lists what a new solver must provide).
``tests/test_contract.py`` checks every rule below for every chapter.

``LOAD``, ``LOAD_UNIT``
    Module constants: the name of the load parameter, the paper's symbol
    (``"NC"``, ``"lam_g"``, ``"rate"``, ``"mu1"``, ``"lam"``), and its unit
    (``"messages/node/cycle"``; for the closed system of ``min_mva``,
    ``"requests/processor"``).
``solve(load, /, **params) -> <Chapter>Result``
    The load is the only positional argument; every other parameter is
    keyword-only, named as in the paper, with the paper's configuration as
    default where the paper has one.  The result is a frozen dataclass
    (:class:`models.core.results.Result`) built by keyword, named
    ``<Chapter>Result`` (``MinMvaResult``, ``TorusDorResult``,
    ``TorusIppResult``, ``XfoldedTmResult``, ``TorusNbcResult``), with at
    least ``latency`` (mean message latency or response time, cycles;
    ``inf`` when saturated), ``saturated`` (bool) and ``iterations`` (int).
    Past saturation it returns ``latency=inf, saturated=True``; it never
    returns a NaN or a negative latency.
``solve_curve(loads, /, **params) -> CurveResult``
    The same model at every load of ``loads`` (same unit as ``solve``),
    equal point by point to ``solve(load, **params)``.  ``CurveResult`` has
    ``loads``, ``latency`` and ``saturated`` arrays and the ``results``.
``saturation_load(**params, rtol=...) -> float``
    The largest load at which ``solve`` is not saturated, to the relative
    tolerance ``rtol``, by :func:`models.core.saturation.find_saturation`
    (the one bisection of the package); ``torus_dor`` returns the final
    bracket's midpoint instead of its lower end, so its load may be
    saturated by up to ``rtol/2``.  For the closed system of
    ``min_mva`` it is the saturation population ``N*`` of the asymptotic
    bounds (the knee where the bottleneck centre saturates).
``equations(...)``
    The SymPy equations keyed by the paper's numbering (``"eq:7"``).
``compare(*, **params, loads=None, points=10, upto=None, simulate=True, ...) -> Comparison``
    The model against the simulation in one call (``models/<slug>/compare.py``, imported on first use),
    keyword-only, with the parameters, units and defaults of the chapter's command
    ``python -m models.<slug> curve`` (which is built on it) and its run options (``messages`` or
    ``cycles``, ``warmup``, ``seed``, ``jobs``, ``settings``, ``setup``): the model on a fine grid, the
    simulation at ``loads`` or up to its own saturation load (the chapter's search, with its bracket),
    the error table and the worst error by the book's rule, as one
    :class:`models.core.compare.Comparison` (``to_frame``, ``plot(style="book"|"paper")``, ``save``).
    The model alone (``simulate=False``) imports no simulator.  For the closed system of ``min_mva``
    there is no saturation load: its ``compare`` runs over ``NC`` values.

Invalid parameters raise ``ValueError`` (:class:`models.core.errors.ParameterError`)
naming the parameter and its allowed range; a fixed point that does not
converge raises :class:`models.core.errors.ConvergenceError` saying where.
Fixed points go through :mod:`models.core.fixed_point` (``torus_ipp``'s
``solve_curve`` runs its own batched Newton iteration over the rows of a
curve); figures through :mod:`models.core.experiment` and the experiment
vocabulary of :mod:`models.core.claims` (the hook of each
``<slug>/experiments.py``: ``SETUPS``, ``DEFAULT_SETUP``, ``SETTINGS``,
``FIGURES`` keyed by label, ``sim_kwargs``, ``simulate_curve``,
``run_figure``, ``glue_values``, ``claims_table``; DESIGN.md), matplotlib in
``<slug>/plots.py``.  A chapter also declares ``EXAMPLE``, ``EXAMPLE_LOAD``
and ``CLOSED_SYSTEM``, on which ``tests/test_contract.py`` runs it.
"""

__version__ = "0.1.0"

#: The chapter packages, in book order.
CHAPTERS = ("min_mva", "torus_dor", "torus_ipp", "xfolded_tm", "torus_nbc")
