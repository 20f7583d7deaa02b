"""``python -m models.chapter_template curve ...``: latency against the rate (PLACEHOLDER model), optionally simulated.

The parameters are the keywords of :func:`models.chapter_template.solve`; the
command is :mod:`models.core.cli`, built on the chapter's ``compare``;
``--simulate`` simulates with the chapter's own hook::

    python -m models.chapter_template curve --M 32 --points 10 --out curve.csv
"""

from __future__ import annotations

import models.chapter_template as front
from models.chapter_template import setups
from models.core.cli import Chapter, Param, run
from models.core.cli import main as cli_main

CHAPTER = Chapter(
    name=setups.CHAPTER,
    description=f"{setups.PAPER} (PLACEHOLDER model: one M/D/1 channel).",
    front=front,
    params=(Param("M", int, 32, "message length, flits"),),
    setups=setups,
    example="curve --M 32 --points 10 --out curve.csv",
)


def main(argv=None) -> int:
    """``python -m models.chapter_template`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return cli_main(CHAPTER, argv)


if __name__ == "__main__":
    run(CHAPTER)
