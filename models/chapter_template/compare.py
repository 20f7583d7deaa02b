"""The model against the simulation in one call: :func:`compare` (the front door's ``models.chapter_template.compare``).

PLACEHOLDER: one M/D/1 channel.  Keep the shape when the paper's model replaces it: the parameters, units and
defaults of ``python -m models.chapter_template curve`` (its ``__main__.CHAPTER``), checked once by the
parameters value (:class:`~models.chapter_template.setups.Params`), the curve built once
(:func:`~models.chapter_template.setups.curve`), the chapter's own simulation hook and saturation search, and
the loop every chapter shares, :func:`models.core.compare.compare`.
"""

from __future__ import annotations

from ..core import compare as core
from . import setups
from .solve import LOAD, LOAD_UNIT, saturation_load, solve_curve

__all__ = ["compare"]



def compare(*, M: int = 32, **run) -> core.Comparison:
    """The PLACEHOLDER model against its simulation: a :class:`~models.core.compare.Comparison`.

    Parameters
    ----------
    M : int
        Message length, flits.
    **run
        The run options (loads, points, upto, simulate, messages, warmup, seed, jobs, ...): see
        :class:`models.core.compare.RunOptions`.

    Returns
    -------
    Comparison
        Rates in messages/node/cycle, latencies in cycles (eq. 1).

    Raises
    ------
    ValueError
        An invalid parameter or run option, named.
    """
    opts = core.RunOptions.of(run)
    p = setups.Params(M=M)
    curve = setups.curve(p, opts.setup or setups.DEFAULT_SETUP)
    subject = core.Subject(chapter=setups.CHAPTER, network=p.network, load=LOAD, load_label=r"$\lambda$",
                           load_unit=LOAD_UNIT)
    return core.compare(curve, subject, opts, model=lambda xs: solve_curve(xs, **p.model, saturation=False),
                        model_saturation=lambda: saturation_load(**p.model, rtol=core.SAT_RTOL),
                        experiments=core.module_loader(__package__), lengths=setups.RUN, params=p.model)
