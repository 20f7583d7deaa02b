"""The papers side by side: the verdict on every claim, and one network under every model.

The floor above the chapters (DESIGN.md): this package may import every
chapter, ``sim`` and ``core``; no chapter imports it
(``tests/test_architecture.py``).

Submodules:

* :mod:`models.findings.verdicts` -- reads each chapter's claims table
  (``book/<chapter>/tables/tab-<chapter>-claims.csv``), checks its columns,
  and gives one verdict per claim by one documented rule (holds / holds with
  a caveat / does not hold / cannot be checked);
* :mod:`models.findings.one_network` -- one configuration every torus paper
  can describe (a bidirectional ``k x k`` torus, ``M = 32`` flits, uniform
  Poisson traffic, ``V`` VCs): each applicable model against the simulator
  with the matching routing, on named simulator set-ups (:data:`SETUPS`).

Importing this package is light (pandas only); :mod:`.one_network` loads the
chapters and the simulator when it is imported.
"""

from .verdicts import (CAUSES, CLAIM_COLUMNS, KINDS, VERDICTS, claims_path, format_verdicts, read_claims,
                       verdict_table)

__all__ = ["CLAIM_COLUMNS", "KINDS", "CAUSES", "VERDICTS", "claims_path", "read_claims", "verdict_table",
           "format_verdicts"]
