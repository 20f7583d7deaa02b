"""Queueing formulas the chapters share.

``models.queueing.mg1``
    M/G/1 mean wait (Pollaczek-Khinchine) and the torus papers' wormhole form.
``models.queueing.mmpp_g1``
    MMPP(2)/G/1 mean wait (torus_ipp eq. 19), service-time distributions.
``models.queueing.vc_occupancy``
    Virtual-channel occupancy chain and multiplexing degree (Dally 1992).

Import the submodules; this package imports nothing.
"""
