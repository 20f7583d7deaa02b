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

The set-ups are :class:`models.core.setups.SimulatorSetup` objects.  Beside
them this module holds what the command line and ``compare`` need without a
simulator: the run lengths (:data:`SETTINGS`, the book's; :data:`RUN`, the
defaults of ``compare`` and ``curve --simulate``) and the curve of a
multiprocessor on a set-up (:func:`network_curve`, from its checked
:class:`~models.min_mva.params.MvaParams`; :func:`with_setup` moves a curve
to the other wiring; :func:`setup_of` names the set-up of a wiring).  It
imports numpy, the ``core`` checks and the chapter's light
:mod:`~models.min_mva.params` only: no pandas, no simulator.
"""

from __future__ import annotations

from typing import Sequence

from ..core.errors import ParameterError
from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from .params import MvaParams

__all__ = ["SETUPS", "DEFAULT_SETUP", "SETTINGS", "RUN", "setup_of", "network_curve", "with_setup"]

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

#: The run lengths of a simulated point of the book unless a notebook says otherwise (a closed system counts
#: cycles: 200,000 per ``NC``, the warm-up included, the first 20,000 discarded).
SETTINGS = SimSettings(cycles=200_000, warmup_cycles=20_000)
#: The defaults of ``compare`` and ``curve --simulate`` (``--cycles``, ``--warmup``): shorter than the book's.
RUN = RunLengths(unit="cycles", length=100_000, warmup=10_000)


def setup_of(return_wiring: str, setup: str | None = None) -> str:
    """The set-up that simulates the return network ``return_wiring``; ``setup``, if named, must be it (or the default).

    The set-up is the return network's wiring, which ``return_wiring`` already
    gives the model; ``setup`` may name it, never contradict it.
    """
    name = next((n for n, s in SETUPS.items() if s.overrides["return_wiring"] == return_wiring), None)
    if name is None:
        raise ParameterError(f"`return_wiring` must be one of "
                             f"{[s.overrides['return_wiring'] for s in SETUPS.values()]}; got {return_wiring!r}")
    if setup is not None and setup not in (name, DEFAULT_SETUP):
        if setup not in SETUPS:
            raise ParameterError(f"`setup` must be one of {list(SETUPS)}; got {setup!r}")
        raise ParameterError(f"`setup` {setup!r} simulates return_wiring={SETUPS[setup].overrides['return_wiring']!r}"
                             f", but the model's is {return_wiring!r}: pass --return_wiring "
                             f"{SETUPS[setup].overrides['return_wiring']} (return_wiring=...) too")
    return name


def network_curve(params: MvaParams, setup: str | None = None, *, label: str = "", loads: Sequence = ()) -> Curve:
    """The curve of the multiprocessor ``params`` on the set-up of its return network.

    ``setup`` may name that set-up (or the default), never contradict it
    (:func:`setup_of`).  The curve's ``model`` is the checked keywords
    (:meth:`MvaParams.keywords`, what ``solve`` takes), its ``sim`` the
    set-up's overrides (the same wiring); ``sim_kwargs`` hands both to the
    simulator as they are.  ``label`` (default ``"network"``) and ``loads``
    (``NC`` values) as :class:`~models.core.setups.Curve`'s.
    """
    if not isinstance(params, MvaParams):
        raise ParameterError(f"`params` must be an MvaParams (models.min_mva.params); got {params!r}")
    name = setup_of(params.return_wiring, setup)
    model = params.keywords()
    return Curve(label or "network", model=model, sim=SETUPS[name].sim(model), setup=name, loads=tuple(loads))


def with_setup(curve: Curve, setup: str) -> Curve:
    """``curve`` on simulator set-up ``setup`` (:data:`SETUPS`): its overrides go to the model and the simulator.

    The set-up's keywords (the return network's wiring) describe the network,
    so the model is solved for the same network that is simulated; nothing
    else of the curve changes.
    """
    named = named_setup(SETUPS, setup)
    over = named.sim(curve.model)
    return curve.replace(model={**curve.model, **over}, sim={**curve.sim, **over}, setup=named.name)
