"""The readings of eq. (1) of the min_mva model, without SymPy.

Kept apart from :mod:`models.min_mva.equations` (which re-exports it) so that
the solver imports without SymPy when its generated code is on disk
(:func:`models.core.symbolic.compiled`, #16).
"""

EQ1_READINGS = {
    "paper": "as printed: (NC-1)/NC on the own-class parts of terms (b) and (c)",
    "c-own-unscaled": "term (c): the own class's same-cycle arrivals without the factor (NC-1)/NC",
    "c-other-classes": "term (c): the other classes' same-cycle arrivals only (the own class dropped)",
    "q-scaled": "term (b): (NC-1)/NC Q_ij - U_ij (the factor on the queue length only, U_ij subtracted whole)",
}
