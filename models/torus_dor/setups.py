"""The chapter's light vocabulary: its network as one checked value, its simulator set-up, its run lengths, its curve.

What ``python -m models.torus_dor curve --help``, :func:`models.torus_dor.compare`
and the experiments read, without pandas, numba or a simulator:

* :class:`DorParams` -- one network of the chapter (an n-D torus, uni- or
  bidirectional, ``L`` virtual channels, ``M``-flit messages), checked and
  coerced once, when it is made (:func:`models.torus_dor.solve.check_params`
  checks the same way: it makes one);
* :data:`SETUPS` and :data:`DEFAULT_SETUP` -- the one simulator set-up, the
  paper's scheme; :data:`TORI` -- the two tori, a case of every curve (never a
  set-up);
* :data:`SETTINGS` -- the paper-scale run lengths of the book's figures;
  :data:`RUN` -- the shorter defaults of ``compare`` and ``curve --simulate``;
* :func:`torus_curve` -- the chapter's :class:`~models.core.setups.Curve` of a
  :class:`DorParams` on a set-up: what the experiments and ``compare``
  simulate.

The message length is ``M`` (flits) here and in the model; ``L`` is the number
of virtual channels.  The simulator calls them ``message_length`` and ``vcs``
(:func:`models.torus_dor.experiments.sim_kwargs`).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from ..core.errors import ParameterError
from ..core.setups import Curve, RunLengths, SimSettings, SimulatorSetup, named_setup
from ..core.validate import require_choice, require_message_length, require_radices, require_vcs
from .readings import Readings

__all__ = ["MAX_DOR_RADIX", "MAX_DOR_DIMENSIONS", "MAX_DOR_NODES", "DorParams", "SETUPS", "DEFAULT_SETUP", "TORI",
           "torus_of", "SIM_MESSAGES", "SIM_WARMUP", "SAT_MESSAGES", "SAT_STEPS", "TARGET_CI",
           "MIN_MESSAGES", "SETTINGS", "RUN", "FRACTIONS",
           "torus_curve"]

# ----------------------------------------------------------------------------
# The network, checked once
# ----------------------------------------------------------------------------
#: Sane ranges of the torus (issue #15): the per-torus combinatorics take seconds at k = 64 and
#: minutes at k = 128 per dimension.
MAX_DOR_RADIX = 64
MAX_DOR_DIMENSIONS = 8
MAX_DOR_NODES = 1 << 16

#: The two tori, by name: the value of the model's (and the simulated torus's) keyword ``bidirectional``.  A
#: torus is part of a curve's network, like its radices (the model changes with it), so it is a *case* of a
#: claim, never a simulator set-up.  The paper states its model "in the context of the unidirectional torus for
#: the sake of presentation" and says that "only a few simple modifications are required to adapt it for the
#: bidirectional case", but does not say which torus Figs. 1 and 2 simulate; the load scale moves about
#: fourfold between the two, so every figure is run on both.
TORI = {"unidirectional": False, "bidirectional": True}


@dataclasses.dataclass(frozen=True)
class DorParams:
    """One network of the chapter, checked and coerced when it is made.

    radices : sequence of int
        Nodes per dimension ``k_0 .. k_{n-1}``, each in ``[2, 64]`` (at most
        8 dimensions and ``2**16`` nodes); dimension 0 is crossed first.
        Kept as a tuple of ints.
    L : int
        Virtual channels per physical channel, in ``[2, 128]`` (two are the
        dateline pair, eq. 4).
    M : float
        Message length, flits, in ``[1, 1e6]``; kept as an ``int`` when it is
        integral (the simulator's ``message_length``, and the curve's label).
    bidirectional : bool
        A bidirectional torus, each dimension the shorter way (default False:
        the unidirectional torus the paper states its model on, Sec. 2).

    Raises :class:`~models.core.errors.ParameterError` (a ``ValueError``)
    naming the parameter.  The checks are :mod:`models.core.validate`'s.
    """

    radices: tuple
    L: int
    M: float
    bidirectional: bool = False

    def __post_init__(self):
        radices = require_radices("radices", self.radices, hi=MAX_DOR_RADIX, max_dims=MAX_DOR_DIMENSIONS,
                                  max_nodes=MAX_DOR_NODES)
        L = require_vcs("L", self.L, 2)
        M = require_message_length("M", self.M)
        if not isinstance(self.bidirectional, (bool, np.bool_)):
            raise ParameterError(f"`bidirectional` must be True or False; got {self.bidirectional!r}")
        object.__setattr__(self, "radices", tuple(int(k) for k in radices))
        object.__setattr__(self, "L", int(L))
        object.__setattr__(self, "M", int(M) if float(M).is_integer() else float(M))
        object.__setattr__(self, "bidirectional", bool(self.bidirectional))

    @classmethod
    def on_torus(cls, torus: str, radices: Sequence[int], L: int, M: float) -> "DorParams":
        """The network on the torus named ``torus`` (a key of :data:`TORI`)."""
        require_choice("torus", torus, list(TORI))
        return cls(radices, L, M, TORI[torus])

    @property
    def torus(self) -> str:
        """The torus's name, a key of :data:`TORI`."""
        return "bidirectional" if self.bidirectional else "unidirectional"

    @property
    def model(self) -> dict:
        """The keywords of :func:`models.torus_dor.solve` (and ``solve_curve``, ``saturation_load``)."""
        return dict(radices=self.radices, L=self.L, M=self.M, bidirectional=self.bidirectional)

    @property
    def label(self) -> str:
        """``"<k0>x<k1>[ bi], L=<L>, M=<M>"``: a curve's label."""
        return "x".join(map(str, self.radices)) + (" bi" if self.bidirectional else "") + f", L={self.L}, M={self.M}"


def torus_of(curve: Curve) -> str:
    """The name (a key of :data:`TORI`) of the torus of ``curve``: ``"bidirectional"`` or ``"unidirectional"``."""
    return "bidirectional" if curve.model.get("bidirectional", False) else "unidirectional"


# ----------------------------------------------------------------------------
# The simulator set-up
# ----------------------------------------------------------------------------
#: The simulator set-up (DESIGN.md, "Simulator set-ups are named"): one.  The paper's text says that "the
#: simulator uses the same assumptions as the analysis" (Sec. 3), and its model names the source queue (an M/G/1
#: queue of rate lambda_g/L: L injection VCs) and the ejection channel (the M/G/1 queue of eq. 16: one ejection
#: VC), so the paper's text and its model describe one simulated router; ``stands_for="paper"`` (it stands for
#: the model as well).  It overrides nothing: ``experiments.sim_kwargs`` builds the paper's scheme for every curve.
SETUPS = {
    "paper": SimulatorSetup(
        "paper", "the paper's scheme (Sec. 3: 'the simulator uses the same assumptions as the analysis'): "
                 "dimension-order routing with the dateline VC scheme, L VCs per channel, L injection VCs (the "
                 "source queue's rate lambda_g/L), one ejection VC (the ejection M/G/1 queue, eq. 16), 2-flit "
                 "buffers, one cycle per router; on the curve's torus, unidirectional or bidirectional",
        stands_for="paper", overrides={}, short="paper's scheme"),
}
#: The set-up of every curve.
DEFAULT_SETUP = "paper"

# ----------------------------------------------------------------------------
# Run lengths
# ----------------------------------------------------------------------------
#: Run lengths of the paper (Sec. 3): 120,000 delivered messages after 10,000 discarded.
SIM_MESSAGES = 120_000
SIM_WARMUP = 10_000
#: Messages per probe of the simulated saturation search (a tenth more discarded first, at least 200), and
#: its halvings of [0, capacity].
SAT_MESSAGES = 20_000
SAT_STEPS = 8
#: The precision of a simulated point of the paper-scale figures: a run measures MIN_MESSAGES first and is
#: lengthened until its latency's 95 % half width is within TARGET_CI of the mean, at most SIM_MESSAGES (the
#: paper's length stays the cap, and points stop earlier once precise).  1 %: the model's errors the chapter
#: tabulates run from under 1 % to tens of percent (a tenth of a percent printed), so a half width of 1 % of the
#: latency keeps a point's noise below all but the smallest of them; a point that does not get that precise
#: (near saturation) runs the paper's 120,000 messages, as every point did before.
TARGET_CI = 0.01
MIN_MESSAGES = 20_000
#: The run lengths of the paper-scale figures (20 batches, seed 1).
SETTINGS = SimSettings(messages=SIM_MESSAGES, warmup_messages=SIM_WARMUP, sat_messages=SAT_MESSAGES,
                       sat_steps=SAT_STEPS, target_ci=TARGET_CI, min_messages=MIN_MESSAGES)
#: The defaults of ``compare`` and ``curve --simulate``: measured messages per simulated load and discarded
#: warm-up (shorter than the book's 120,000 / 10,000: a curve in minutes, not hours).
RUN = RunLengths("messages", 20_000, 2_000)

# ----------------------------------------------------------------------------
# The curve
# ----------------------------------------------------------------------------
#: Simulated loads of the paper-scale runs, fractions of the simulated saturation load.
FRACTIONS = (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.85, 0.9)


def torus_curve(p: DorParams, *, setup: str = DEFAULT_SETUP, readings: Readings = Readings(),
                fractions: Sequence[float] = FRACTIONS, fractions_of: str = "sim") -> Curve:
    """One latency curve of the network ``p`` on the simulator set-up ``setup``, at ``fractions`` of a saturation
    load (of the simulated one, ``fractions_of="sim"``, or of the model's, ``"model"``).

    The label is :attr:`DorParams.label`; ``model`` holds the keyword
    arguments of :func:`models.torus_dor.solve` (``p``'s, as checked, and
    ``readings``), ``sim`` the set-up's overrides, ``setup`` its name.
    """
    if not isinstance(p, DorParams):
        raise ParameterError(f"`p` must be a DorParams (models.torus_dor.setups); got {p!r}")
    over = named_setup(SETUPS, setup).sim()
    if not isinstance(readings, Readings):
        raise ParameterError(f"`readings` must be a Readings instance; got {readings!r}")
    return Curve(label=p.label, model=dict(p.model, readings=readings), sim=over, setup=setup,
                 loads=tuple(fractions), fractions_of=fractions_of)
