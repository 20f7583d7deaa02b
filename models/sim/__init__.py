"""Simulators the chapters validate against.

``models.sim.closed_min``
    Clocked, packet-switched closed system of processors, forward and return
    multistage networks and memories (Willick & Eager).
``models.sim.wormhole``
    Cycle-driven, flit-level wormhole switching with virtual channels
    (the four direct-network chapters).
``models.sim.sweep``
    Parallel, cached sweeps over (configuration, load) points.

Nothing heavy is imported here; import the submodules.
"""
