"""Topologies, distances and path counts the chapters and the simulators share.

``models.networks.graph``
    Port tables of the simulator's networks (:class:`Torus`, :class:`Mesh`,
    :class:`Graph`) with their distances (breadth-first search; a torus's and a
    mesh's in closed form, the same matrix).
``models.networks.grid2d``
    The 2-D direct networks of the x-Folded TM paper (torus, mesh, TM,
    x-Folded TM readings) as :class:`GridNetwork`.
``models.networks.multistage``
    Multistage interconnection networks (omega, baseline, cube) as
    :class:`MultistageNetwork`.
``models.networks.patterns``
    Reference patterns (uniform, hot spot) of processors to memories.
``models.networks.dor_paths``
    Exact path combinatorics of dimension-order routing in tori.
``models.networks.adaptive_paths``
    Counting minimal adaptive paths (Ould-Khaoua's psi and phi).

Import the submodules; this package imports nothing.
"""
