"""The chapter's parameters, checked once, its simulator set-ups and run lengths: light (no pandas, no simulator).

What the command line (``python -m models.torus_ipp``, :mod:`models.core.cli`),
:func:`models.torus_ipp.compare` and :mod:`models.torus_ipp.experiments` share:

* :class:`IppParams` -- one network and its sources (a ``k x k``
  bidirectional torus, ``V`` virtual channels, ``M``-flit messages, IPP
  sources ``(sigma1, sigma2)``, the traffic and the reading of eq. 26),
  checked and coerced once, when it is made (:func:`check_network`, the
  model's rules, which :class:`models.torus_ipp.solve.Params` applies too);
  :attr:`IppParams.model` is the keywords of :func:`models.torus_ipp.solve`
  and the model of a curve;
* :func:`ipp_curve` -- the chapter's :class:`~models.core.setups.Curve` of
  an :class:`IppParams` under a named set-up, built once and carried as it is
  to the simulator's keywords (:func:`models.torus_ipp.experiments.sim_kwargs`);
* :data:`SETUPS` and :data:`DEFAULT_SETUP` -- the named simulator set-ups
  (DESIGN.md: "Simulator set-ups are named"), which differ only in the
  number of ejection VCs;
* :data:`SETTINGS` -- the run lengths of the book's figures (the paper's scale);
  :data:`RUN` -- the defaults of ``compare`` and ``curve --simulate``.

Assumption (d) of the paper ("messages at the destination node are
transferred to the local processing element as soon as they arrive") is
both the paper's text and the model's assumption (eq. 1 has no ejection
term), so one set-up, ``"paper/model"``, stands for both
(``stands_for="paper"``): ``4 V`` ejection VCs, one per network VC that can
end at a node.  ``"one ejection channel"``, the single ejection VC this
chapter simulated first, stands for neither (``stands_for=""``): it is shown
and never decides a verdict.  Both have one injection VC per node (Sec.
2.4: the injection channel is one MMPP/G/1 server with the node's whole rate).
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

from ..core.errors import ParameterError
from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from ..core.validate import require_choice, require_message_length, require_radix, require_rate, require_vcs

__all__ = ["IppParams", "check_network", "ipp_curve", "SETUPS", "DEFAULT_SETUP", "SETTINGS", "RUN", "IN_DEGREE",
           "TRAFFIC", "PAB_READINGS"]

#: The sources: the paper's IPP, or Poisson sources of the same mean rate (no burstiness).
TRAFFIC = ("ipp", "poisson")
#: Readings of eq. (26): as printed, or ``P_V + P_{V-1}/V``.
PAB_READINGS = ("printed", "specific")
#: Input channels of a node of the bidirectional 2-D torus (the paper's "4 inputs and 4 output channels").
IN_DEGREE = 4


# ----------------------------------------------------------------------------
# The parameters, checked once
# ----------------------------------------------------------------------------
def check_network(k, V, M, sigma1, sigma2, mu2=0.0, traffic="ipp", pab="printed") -> dict:
    """The model's rules for a network and its sources, each named in the :class:`ParameterError` it raises;
    returns the values coerced (``k``, ``V`` integers; ``M`` an integer when whole; rates floats).

    ``k`` a multiple of 4, at least 4 (eq. 23 needs an integer mean hop count
    per dimension ``kbar = k/4``, eq. 2); ``3 <= V <= 128`` (``V - 2``
    adaptive and 2 escape VCs); ``1 <= M <= 1e6`` flits; ``sigma1``,
    ``sigma2`` in ``[1e-12, 1e6]`` per cycle; ``mu2`` 0 or in that range;
    ``traffic`` in :data:`TRAFFIC`; ``pab`` in :data:`PAB_READINGS`.
    """
    k = require_radix("k", k, 4, unit="nodes per dimension")
    if k % 4:
        raise ParameterError(
            f"`k` must be a multiple of 4 (eq. 23 needs an integer mean hop count per dimension k/4); got {k}")
    V = require_vcs("V", V, 3, unit="virtual channels per physical channel; Duato's routing needs V-2 >= 1 adaptive "
                                    "+ 2 escape")
    M = require_message_length("M", M)
    return dict(k=k, V=V, M=int(M) if float(M).is_integer() else float(M),
                sigma1=require_rate("sigma1", sigma1, unit="on->off switching rate, per cycle"),
                sigma2=require_rate("sigma2", sigma2, unit="off->on switching rate, per cycle"),
                mu2=require_rate("mu2", mu2, positive=False, unit="state-2 rate, messages/node/cycle"),
                traffic=require_choice("traffic", traffic, TRAFFIC),
                pab=require_choice("pab", pab, PAB_READINGS, unit="reading of eq. 26"))


@dataclasses.dataclass(frozen=True)
class IppParams:
    """One network and its sources, without the load: checked and coerced once, when made (:func:`check_network`).

    k : int
        Nodes per dimension of the ``k x k`` bidirectional torus, a multiple of 4.
    V : int
        Virtual channels per physical channel, >= 3 (``V - 2`` adaptive and 2 escape).
    M : int or float
        Message length, flits (an integer when whole: the simulator's ``message_length``).
    sigma1, sigma2 : float
        The IPP's switching rates on -> off and off -> on, per cycle (eq. 7).
    mu2 : float
        Rate in the off state, messages/node/cycle (0: an IPP, the paper's).
    traffic : {"ipp", "poisson"}
        The IPP sources, or Poisson sources of the same mean rate.
    pab : {"printed", "specific"}
        Reading of eq. (26).
    """

    k: int
    V: int
    M: float
    sigma1: float
    sigma2: float
    mu2: float = 0.0
    traffic: str = "ipp"
    pab: str = "printed"

    def __post_init__(self):
        for name, value in check_network(**dataclasses.asdict(self)).items():
            object.__setattr__(self, name, value)

    @property
    def model(self) -> dict:
        """The keywords of :func:`models.torus_ipp.solve` (without the load): the model of a curve."""
        return dataclasses.asdict(self)

    def simulable(self) -> "IppParams":
        """These parameters, if the simulator can run them: an IPP source (``mu2 = 0``) and whole flits (``M``);
        else a :class:`ParameterError` naming the parameter."""
        if self.mu2 != 0.0:
            raise ParameterError(f"`mu2` must be 0 (an IPP source) to simulate; got {self.mu2!r}")
        if not isinstance(self.M, int):
            raise ParameterError(f"`M` must be a whole number of flits to simulate; got {self.M!r}")
        return self


# ----------------------------------------------------------------------------
# Simulator set-ups
# ----------------------------------------------------------------------------
def every_arriving_vc(model: Mapping) -> int:
    """IN_DEGREE x V (one ejection VC per network VC that can end at the node)"""
    return IN_DEGREE * int(model["V"])


#: The simulator set-ups (module docstring); they differ only in ``ejection_vcs``.
SETUPS: dict[str, SimulatorSetup] = {
    "paper/model": SimulatorSetup(
        "paper/model",
        "as assumption (d) states and the model assumes: messages leave as soon as they arrive; "
        "4V ejection VCs (one per network VC that can end at the node, so no header ever waits for one), "
        "one injection VC (Sec. 2.4)",
        stands_for="paper", overrides={"injection_vcs": 1, "ejection_vcs": every_arriving_vc}, short="4V ejection VCs"),
    "one ejection channel": SimulatorSetup(
        "one ejection channel",
        "the chapter's first simulator set-up: one ejection VC per node, so a message that arrives "
        "while another is leaving waits holding its network VCs; one injection VC",
        stands_for="", overrides={"injection_vcs": 1, "ejection_vcs": 1}, short="1 ejection VC"),
}
#: The set-up the chapter's verdicts rest on (and the command line's default).
DEFAULT_SETUP = "paper/model"


def ipp_curve(params: IppParams, setup: str | SimulatorSetup = DEFAULT_SETUP, *, label: str,
              loads: Sequence[float] = (), fractions_of: str | None = None) -> Curve:
    """The curve of ``params`` simulated under the named ``setup`` (:data:`SETUPS`): its model is
    :attr:`IppParams.model`, its simulator keywords the set-up's, resolved for the network."""
    if not isinstance(params, IppParams):
        raise ParameterError(f"`params` must be IppParams; got {params!r}")
    chosen = named_setup(SETUPS, setup)
    model = params.model
    return Curve(label, model=model, sim=chosen.sim(model), setup=chosen.name, loads=loads, fractions_of=fractions_of)


# ----------------------------------------------------------------------------
# Run lengths
# ----------------------------------------------------------------------------
#: The run lengths of the book's figures, at the paper's scale (fixed-length points; the pages ask for a
#: precision).  A saturation probe measures ``sat_messages`` (default: half of ``messages``, at least 1000)
#: after half the warm-up (at least 500), in ``sat_steps`` bisection steps.
SETTINGS = SimSettings(messages=100_000, warmup_messages=20_000, sat_steps=7)
#: The defaults of ``compare`` and ``curve --simulate``: measured messages per load and warm-up.
RUN = RunLengths("messages", 20_000, 4_000)
