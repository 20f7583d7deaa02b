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

#: Readings of eq. (4) (the switch, m packets) the solver takes for ``m > 1``: name -> what it is.  ``"paper"``
#: (the default) carries the factor m on terms (a) and (b) that the text of Sec. 4.2 asks for ("The factor m is
#: required since each customer is m packets long"); ``"eq4-printed"`` is the equation as printed, without it
#: (``eq:4_printed`` of :mod:`models.min_mva.equations`), which the claims table judges beside it.
EQ4_READINGS = {
    "paper": "eq. (4) with the factor m on terms (a) and (b) that the text of Sec. 4.2 asks for",
    "eq4-printed": "eq. (4) as printed, without the factor m on terms (a) and (b)",
}
