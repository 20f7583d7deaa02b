"""The chapter's named simulator set-ups (DESIGN.md: "Simulator set-ups are named").

Willick & Eager simulate "an omega interconnection network ... for the
forward network, and an identical network for the return network" (Sec. 3.3)
without saying how the return network is wired to the memories.  Two wirings
fit those words; the closed simulator (:func:`models.sim.closed_min.simulate`)
and the model (:func:`models.min_mva.solve`) both take the choice as
``return_wiring``:

``"paper"`` -- ``return_wiring="mirror"``
    The return network is the forward network's mirror image, so a reply
    retraces its request's path backwards.  This is the wiring the paper's
    own remark describes (Sec. 3.3: replies "tend to be spaced apart by
    collisions of the corresponding requests in the (identical topology)
    forward network") and the one under which our simulator reproduces the
    paper's simulation columns of Tables 1 and 2 (``04-tables``).  The model
    assumes only unique (banyan) paths, which this wiring has, so the set-up
    "as the paper states" and "as the model assumes" coincide: one set-up.
``"second-omega"`` -- ``return_wiring="same"``
    The return network is a second copy of the forward omega network with
    the memories as its inputs: the other network that the paper's words
    "an identical network" allow (so it, too, stands for the paper's text).

Under uniform traffic the model gives the same numbers for both wirings
(the visit ratios and input-port probabilities coincide); under the hot-spot
pattern it does not quite, so a set-up's ``return_wiring`` is given to the
model as well as to the simulator: every model-vs-simulation number compares
the model of a network with a simulation of the same network.  The two
set-ups differ in that one keyword and nothing else (``tests/min_mva/test_setups.py``).
The chapter's verdicts and its reproductions of Tables 1 and 2 rest on
``"paper"`` (:data:`DEFAULT_SETUP`).  ``"second-omega"`` fits the paper's
words but not its data (its simulation columns are reproduced on the mirror
wiring only), so the claims table marks its rows as a configuration beyond
the paper's (``paper_config=False``: a caveat at most, never the verdict)
and the reproductions table leaves it out.

The set-ups are :class:`models.core.setups.SimulatorSetup` objects; this
module imports no simulator, so the command line (``python -m
models.min_mva``) reads them without one.
"""

from __future__ import annotations

from ..core.setups import SimulatorSetup

__all__ = ["SETUPS", "DEFAULT_SETUP"]

#: The named set-ups, the default first: name -> :class:`~models.core.setups.SimulatorSetup` (overrides of the
#: simulator's and the model's keywords).
SETUPS = {
    "paper": SimulatorSetup(
        "paper",
        "return network the forward network's mirror image (a reply retraces its request's path), as the paper's "
        "Sec. 3.3 describes its simulation; the model's unique paths hold",
        stands_for="paper", overrides={"return_wiring": "mirror"}),
    "second-omega": SimulatorSetup(
        "second-omega",
        "return network a second omega network with the memories as its inputs, the other reading of the paper's "
        "\"an identical network for the return network\"",
        stands_for="paper", overrides={"return_wiring": "same"}),
}

#: The set-up every verdict of the chapter rests on.
DEFAULT_SETUP = "paper"
