"""The chapter's simulator set-ups, run lengths and curve: what the command line reads without a simulator.

The paper's text and its model describe two different ejection channels, so
the chapter simulates both, as named set-ups (:data:`SETUPS`; DESIGN.md:
"simulator set-ups are named"):

* ``"paper"``: one ejection VC per node, as the text states (messages are
  "transferred to the local PE one at a time through the ejection channel",
  Sect. 3.1): a message that finds the ejection channel busy waits for it
  while holding its VCs in the network;
* ``"model"``: ``V`` ejection VCs per node (the ejection channel still moves
  one flit per cycle), as the model assumes: eq. (5) has no ejection term, so
  a message never waits to leave.

They differ only in ``ejection_vcs`` (``tests/torus_nbc`` checks it).

:func:`curve` is the one way a curve of the chapter is made: from the
checked parameters (:class:`~models.torus_nbc.params.NbcParams`, the one
check) and a set-up's name; the figures
(:mod:`models.torus_nbc.experiments`) and ``compare`` (the command line's
``curve``) both build theirs with it, and
:func:`~models.torus_nbc.experiments.sim_kwargs` reads it as it is.
:data:`SETTINGS` are the book's run lengths (the paper's scale),
:data:`RUN` the shorter defaults of ``compare`` and ``curve --simulate``.

This module imports only the light vocabulary (:mod:`models.core.setups`)
and the chapter's parameters (no pandas, no simulator).
"""

from __future__ import annotations

from typing import Sequence

from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from .params import NbcParams

__all__ = ["SETUPS", "DEFAULT_SETUP", "DEFAULT_SETUPS", "TARGET_CI", "MIN_MESSAGES", "SETTINGS", "RUN", "ROUTING",
           "curve"]

#: The chapter's simulator set-ups: the paper's text and the model describe different ejection channels.
SETUPS = {
    "paper": SimulatorSetup(
        "paper", "one ejection VC per node, as the paper states: messages are \"transferred to the local PE one at a "
        "time through the ejection channel\" (Sect. 3.1)", stands_for="paper", overrides={"ejection_vcs": 1},
        short="1 ejection VC"),
    "model": SimulatorSetup(
        "model", "V ejection VCs per node (still one flit per cycle), as the model assumes: eq. (5) has no ejection "
        "term, so a message never waits to leave the network", stands_for="model", overrides={"ejection_vcs": "V"},
        short="V ejection VCs"),
}

#: The set-up the command line simulates by default: the paper's text (the claims table has a row per set-up).
DEFAULT_SETUP = "paper"

#: The set-ups every figure is simulated with, the paper's first.
DEFAULT_SETUPS = ("paper", "model")

#: The precision of a simulated point at the paper's scale: a run measures MIN_MESSAGES first and is lengthened
#: until its latency's 95 % half width is within TARGET_CI of the mean, at most ``SETTINGS.messages`` (the cap,
#: the fixed length of every point before).  1 %: the chapter's verdicts compare the model with the simulation
#: and the routings with one another beyond the points' half widths, at differences of a few percent and more
#: (the error tables print a tenth of a percent); 1 % keeps a point's noise below them, and a point that does not
#: get that precise (near saturation) runs the cap.
TARGET_CI = 0.01
MIN_MESSAGES = 20_000

#: The chapter's run lengths at the paper's scale (messages counted after the warm-up; the paper ran 300,000
#: cycles after 10,000 of warm-up).
SETTINGS = SimSettings(messages=100_000, warmup_messages=10_000, target_ci=TARGET_CI, min_messages=MIN_MESSAGES)

#: Measured messages per simulated rate and discarded warm-up of ``compare`` and ``curve --simulate``.
RUN = RunLengths("messages", 20_000, 2_000)

#: The simulator's routing of the chapter (other routings are compared in ``experiments.run_comparison``).
ROUTING = "duato_nbc"


def curve(p: NbcParams, setup: str = DEFAULT_SETUP, *, loads: Sequence[float] = (),
          fractions_of: str | None = None) -> Curve:
    """The curve of the network ``p`` simulated on the set-up ``setup`` (a name of :data:`SETUPS`).

    Label ``"8x8, M=32, paper set-up"``; ``model`` the model's keywords
    (:attr:`NbcParams.model`, as checked); ``sim`` the routing
    (:data:`ROUTING`) and the set-up's overrides (``ejection_vcs``);
    ``loads`` and ``fractions_of`` as :class:`~models.core.setups.Curve`'s.
    """
    st = named_setup(SETUPS, setup)
    model = p.model
    return Curve(f"{p.k}x{p.k}, M={p.M}, {st.name} set-up", model=model, sim=dict(routing=ROUTING, **st.sim(model)),
                 setup=st.name, loads=tuple(loads), fractions_of=fractions_of)
