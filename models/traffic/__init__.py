"""Arrival processes: one MMPP(2) / IPP / Poisson object for the models and the simulator.

``models.traffic.process``
    :class:`MMPP2`, :func:`IPP`, :func:`poisson` (numpy only, closed forms).
``models.traffic.moments``
    The SymPy derivation of the counting moments from the generating function.
``models.traffic.fit``
    The Heffes-Lucantoni fit and the superposition of sources.

Importing this package loads only the process object; import ``moments`` and
``fit`` (SymPy) where they are needed.
"""

from .process import IPP, MMPP2, poisson

__all__ = ["MMPP2", "IPP", "poisson"]
