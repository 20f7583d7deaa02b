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
    "an identical network" allow.

Under uniform traffic the model gives the same numbers for both wirings
(the visit ratios and input-port probabilities coincide); under the hot-spot
pattern it does not quite, so a set-up's ``return_wiring`` is given to the
model as well as to the simulator: every model-vs-simulation number compares
the model of a network with a simulation of the same network.  The two
set-ups differ in that one keyword and nothing else (``tests/min_mva/test_setups.py``).
The chapter's verdicts rest on ``"paper"``.
"""

from __future__ import annotations

from types import MappingProxyType

from ..core.errors import ParameterError

__all__ = ["SETUPS", "DEFAULT_SETUP", "setup_overrides", "setup_description", "check_setup"]

#: ``name -> {"sim": simulator keyword overrides, "description": one line}``; the first is the default.
SETUPS = MappingProxyType({
    "paper": MappingProxyType({
        "sim": MappingProxyType({"return_wiring": "mirror"}),
        "description": "return network the forward network's mirror image (a reply retraces its request's "
                       "path), as the paper's Sec. 3.3 describes its simulation; the model's unique paths hold",
    }),
    "second-omega": MappingProxyType({
        "sim": MappingProxyType({"return_wiring": "same"}),
        "description": "return network a second omega network with the memories as its inputs, the other "
                       "reading of the paper's \"an identical network for the return network\"",
    }),
})

#: The set-up every verdict of the chapter rests on.
DEFAULT_SETUP = "paper"


def check_setup(name: str) -> str:
    """``name`` if it is a set-up of :data:`SETUPS`, else :class:`~models.core.errors.ParameterError`."""
    if not isinstance(name, str) or name not in SETUPS:
        raise ParameterError(f"`setup` must be one of {list(SETUPS)}; got {name!r}")
    return name


def setup_overrides(name: str) -> dict:
    """The keyword arguments set-up ``name`` sets (for the simulator and the model alike)."""
    return dict(SETUPS[check_setup(name)]["sim"])


def setup_description(name: str) -> str:
    """The one-line description of set-up ``name``."""
    return SETUPS[check_setup(name)]["description"]
