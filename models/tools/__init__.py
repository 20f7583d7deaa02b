"""The tools: the warm-up part of the book, before the first paper.

Four textbook results that every chapter leans on, each as a small model
(SymPy first, numbers from the same expression) beside a short simulation
that checks it:

``zero_load``
    The zero-load latency of a wormhole message, ``T0 = M + (h + 1) R``
    cycles (Dally & Towles 2004, Sec. 3.3: header latency plus
    serialisation), as the project's simulator counts its cycles.
``little``
    Little's law, ``L = lambda W`` (Little 1961; Lazowska et al. 1984,
    Ch. 3), checked on a simulation's own counts.
``queue_sim`` (with :func:`models.queueing.mg1.mg1_wait`, the Pollaczek-Khinchine mean wait)
    A single-server FIFO queue with Poisson arrivals, simulated (Lindley's
    recursion): the M/G/1 mean wait against Kleinrock (1975), Ch. 5.
``channel_load``
    The channel-load bound of a torus under uniform traffic (Dally &
    Towles 2004, Sec. 3.3, throughput): the load at which the busiest channel would
    carry one flit per cycle, an upper bound on the saturation load.
``experiments``, ``glue``, ``plots``
    The pages' simulations (the wormhole simulator through
    :func:`models.sim.sweep.run_sweep`), the numbers the prose quotes, the
    figures.

Not a chapter: it reproduces no paper, so it has no chapter contract (no
``solve``, ``compare``, claims or atlas; ``tests/test_contract.py`` says so)
and it is not in :data:`models.CHAPTERS`.  Its floor is the chapters' (0):
it imports ``sim``, ``queueing``, ``networks`` and ``core``, and no chapter
imports it.  Import the submodules; this package imports nothing.
"""
