"""The chapter's simulator set-ups, run lengths, parameters value and curve (PLACEHOLDER): the light room.

What the command line (``__main__.py``) reads without a simulator or pandas
(DESIGN.md, "A chapter"): ``SETUPS`` and ``DEFAULT_SETUP``, ``SETTINGS``
(the book's run lengths), ``RUN`` (the defaults of ``compare`` and ``curve
--simulate``), the parameters value :class:`Params` (checked once, at the
door) and :func:`curve` (the one place a curve is built from it).
"""

from __future__ import annotations

import dataclasses

from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from ..core.validate import require

__all__ = ["PAPER", "CHAPTER", "SETUPS", "DEFAULT_SETUP", "SETTINGS", "RUN", "Params", "curve"]

#: The paper the chapter reproduces (its title, as the scaffold was given it).
PAPER = "A placeholder paper"
#: The chapter's slug.
CHAPTER = "chapter_template"

#: The simulator set-ups (PLACEHOLDER: one, as the model assumes).
SETUPS = {"model": SimulatorSetup("model", "one FIFO channel, Poisson arrivals, M cycles of service each "
                                           "(PLACEHOLDER: the model's own assumptions)", "model", {})}
#: The set-up the verdicts rest on.
DEFAULT_SETUP = "model"
#: The book's run lengths (the notebooks' full profile).
SETTINGS = SimSettings(messages=20_000, warmup_messages=2_000)
#: The defaults of ``compare`` and ``curve --simulate``: measured messages per load and the warm-up.
RUN = RunLengths("messages", 20_000, 2_000)


@dataclasses.dataclass(frozen=True)
class Params:
    """The network's parameters, checked and coerced once (PLACEHOLDER: the message length).

    M : int
        Message length, flits, >= 1.
    """

    M: int = 32

    def __post_init__(self):
        object.__setattr__(self, "M", require("M", self.M, 1, integer=True, unit="message length, flits"))

    @property
    def model(self) -> dict:
        """The keywords of the chapter's ``solve``."""
        return {"M": self.M}

    @property
    def network(self) -> str:
        """The network in words (titles)."""
        return f"PLACEHOLDER: one M/D/1 channel, M = {self.M} flits"


def curve(params: Params, setup: str = DEFAULT_SETUP, *, label: str | None = None, loads: tuple = (),
          fractions_of: str | None = None) -> Curve:
    """The curve of ``params`` on the set-up ``setup``: the model's keywords and the set-up's overrides."""
    st = named_setup(SETUPS, setup)
    return Curve(label or params.network, model=params.model, sim=st.sim(params.model), setup=st.name, loads=loads,
                 fractions_of=fractions_of)
