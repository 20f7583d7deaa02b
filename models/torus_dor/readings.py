"""The readings (switches) of the ambiguous places of the torus_dor equations, without SymPy.

Kept apart from :mod:`models.torus_dor.equations` (which re-exports them) so
that the solver can be imported without SymPy when its generated code is on
disk (:func:`models.core.symbolic.compiled`, #16).
"""

from __future__ import annotations

import dataclasses

from ..core.errors import ParameterError

# ----------------------------------------------------------------------------
# Readings (switches)
# ----------------------------------------------------------------------------
CHOICES = {
    "p_none": ("consistent", "printed"),
    "same_dim_blocking": ("hop", "literal"),
    "same_dim_first": ("first", "literal"),
    "waiting_max": ("inputs", "inputs+injection", "printed"),
    "waiting_weight": ("j-L+1", "j", "j-L"),
    "mux_weights": ("k", "hops"),
    "pipeline": ("h*lbar", "h"),
    "channel_rate": ("mean", "per-dimension"),
}


@dataclasses.dataclass(frozen=True)
class Readings:
    """Readings of the places the OCR garbled or the paper leaves open (defaults justified in the chapter).

    p_none : {"consistent", "printed"}
        First term of :math:`P_{d_i}` (eq. 6) without (``consistent``) or with
        (``printed``) the factor :math:`1/L`.  Without it, terms 1 and 2 add up
        to "all ``L`` busy and none of the ``L-1`` usable holders ends here",
        which is what the text describes.
    same_dim_blocking : {"hop", "literal"}
        Term :math:`d_j=d_i` of :math:`\\hat W` (eq. 7): the blocking message's
        remaining hops in :math:`d_i` after this one, hop-weighted
        (:math:`(k-2)/3`, ``hop``), or :math:`\\sum_s P(m_i\\ge s|m_i\\ge1)=k/2`
        (``literal``).
    same_dim_first : {"first", "literal"}
        Term :math:`d_j=d_i` of :math:`D` (eq. 9): further hops in
        :math:`d_i` after the first (:math:`(k-2)/2`) or the literal
        :math:`k/2`, which counts the first hop's wait a second time.
    waiting_max : {"inputs", "inputs+injection", "printed"}
        :math:`J_{d_i}`, the most messages that can wait for a channel of
        :math:`d_i` (eqs. 14-15): the VCs of the input channels that can feed
        it (``inputs``: :math:`(d_i+1)L` unidirectional, :math:`(2d_i+1)L`
        bidirectional, 0-based :math:`d_i`), plus the injection channel's
        ``L`` (``inputs+injection``), or the printed :math:`(2d_i-1)L` with
        1-based :math:`d_i` (``printed``; the bidirectional count applied as is).
    waiting_weight : {"j-L+1", "j", "j-L"}
        Weight of eq. 15, :math:`\\tilde N=\\sum_{j=L}^{J}w_jP_j`.
        ``j-L+1`` (default): the blocked messages at the channel as a newcomer
        that finds ``j`` there sees them, itself included, which under the
        paper's first-come-first-served premise is the number of releases it
        waits for; with no other message waiting (:math:`J=L`) it gives
        :math:`W=P_{d_i,L}\\hat W`, the paper's definition of :math:`\\hat W`
        as the wait of a blocked message "when it is considered that no other
        message is blocked at that hop".  ``j``: the printed weight (also
        counts the ``L`` holders).  ``j-L``: the messages already waiting, the
        newcomer left out (with :math:`J_{d_0}=L` the lowest dimension then
        never blocks).  The chapter page argues the choice.
    mux_weights : {"k", "hops"}
        Weights of the per-dimension multiplexing degrees (eq. 20): the printed
        :math:`k_{d_i}`, or the mean hops in the dimension (:math:`k_{d_i}-1`
        over 2 unidirectional).
    pipeline : {"h*lbar", "h"}
        Last term of :math:`\\bar T` (eq. 22): the printed :math:`h\\bar l` or :math:`h`.
    channel_rate : {"mean", "per-dimension"}
        Arrival rate at a channel of :math:`d_i` (eq. 4): the printed
        :math:`h\\lambda_g/n`, which assumes that "the n output channels of
        each node are equally utilized" (true only for equal radices), or
        :math:`h_{d_i}\\lambda_g` with :math:`h_{d_i}` the mean hops in
        :math:`d_i` (halved on a bidirectional torus).  Identical for equal radices.
    ejection_cycle : bool
        Add one cycle for the header's crossing of the ejection channel (the
        simulator's timing: zero-load latency :math:`M+h+1`).  The paper's
        zero-load latency is :math:`M+h` (``False``).
    """

    p_none: str = "consistent"
    same_dim_blocking: str = "hop"
    same_dim_first: str = "first"
    waiting_max: str = "inputs"
    waiting_weight: str = "j-L+1"
    mux_weights: str = "k"
    pipeline: str = "h*lbar"
    channel_rate: str = "mean"
    ejection_cycle: bool = True

    def __post_init__(self):
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise ParameterError(
                    f"`{name}` must be one of {', '.join(map(repr, choices))} (reading of the paper); got {value!r}"
                )
        if not isinstance(self.ejection_cycle, bool):
            raise ParameterError(f"`ejection_cycle` must be True or False; got {self.ejection_cycle!r}")

    @classmethod
    def printed(cls) -> "Readings":
        """Every switch at the paper's printed (literal) reading."""
        return cls(p_none="printed", same_dim_blocking="literal", same_dim_first="literal",
                   waiting_max="printed", waiting_weight="j", mux_weights="k", pipeline="h*lbar",
                   ejection_cycle=False)

    def replace(self, **kw) -> "Readings":
        return dataclasses.replace(self, **kw)


CHOICES_2003 = {
    "variance": ("S-M", "S-S_prev"),
    "ejection": ("in S0", "none"),
    "mux": ("weighted", "mean"),
    "composition": ("(S+Ws)V", "SV+Ws+hV"),
}


@dataclasses.dataclass(frozen=True)
class Readings2003:
    """Switches of the reconstructed 2003 model (notes/papers.md sec. 4).

    variance : {"S-M", "S-S_prev"}
        Service-time variance of the per-dimension M/G/1 wait: :math:`(S_i-M)^2`
        or :math:`(S_i-S_{i-1})^2` (the variant of a later paper by the same group).
    ejection : {"in S0", "none"}
        Whether the ejection wait :math:`W_{ej}` is part of :math:`S_0`.
    mux : {"weighted", "mean"}
        :math:`\\bar V`: hop-weighted mean of the per-dimension degrees (weights
        :math:`\\bar k_i`) or their plain mean.  Equal for equal radices.
    composition : {"(S+Ws)V", "SV+Ws+hV"}
        Latency :math:`(\\bar S+W_s)\\bar V` or the 2004 paper's form
        :math:`\\bar S\\bar V+W_s+h\\bar V`.
    ejection_cycle : bool
        One more cycle for the ejection channel (the simulator's timing).
    """

    variance: str = "S-M"
    ejection: str = "in S0"
    mux: str = "weighted"
    composition: str = "(S+Ws)V"
    ejection_cycle: bool = True

    def __post_init__(self):
        for name, choices in CHOICES_2003.items():
            value = getattr(self, name)
            if value not in choices:
                raise ParameterError(
                    f"`{name}` must be one of {', '.join(map(repr, choices))} (2003-model reading); got {value!r}"
                )

    def replace(self, **kw) -> "Readings2003":
        return dataclasses.replace(self, **kw)

