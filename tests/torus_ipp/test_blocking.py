"""The blocking time's distribution (Sec. 2.2, eqs. 20-22): the solver's ``blocking_cv2`` (the service time
``M + d + B`` with a blocking time of any squared coefficient of variation) and the chapter's blocking table
(the simulated blocking time beside the model solved with the exponential, the measured CV^2 and 0)."""

import math

import numpy as np
import pytest

from models.core.errors import ParameterError
from models.queueing import mmpp_g1 as Q
from models.torus_ipp import blocking as B
from models.torus_ipp.service import ConstantPlusPhases, blocking_phases, service_time
from models.torus_ipp.setups import SETTINGS
from models.torus_ipp.solve import solve, solve_curve

FIG1A = dict(k=16, V=3, M=48, sigma1=0.2, sigma2=0.8)


@pytest.mark.parametrize("cv2", [0.05, 0.3, 0.5, 0.7, 0.999, 1.5, 4.0, 30.0])
def test_the_phase_fit_has_the_asked_mean_and_cv2(cv2):
    ph = blocking_phases(7.0, cv2)
    assert ph.mean == pytest.approx(7.0, rel=1e-12)
    assert ph.second_moment / ph.mean**2 - 1 == pytest.approx(cv2, rel=1e-9)
    assert all(0 <= p <= 1 for p in ph.probs) and sum(ph.probs) == pytest.approx(1.0)


@pytest.mark.parametrize("cv2", [0.3, 0.5, 3.0])
def test_the_matrix_transform_is_the_scalar_transform_on_a_diagonal(cv2):
    """On ``A = diag(-s1, -s2)`` the matrix LST is ``E[exp(-s (c + B))]`` at ``s1`` and ``s2``, computed here
    from the mixture's definition (an independent route)."""
    svc = service_time(56.0, 4.0, cv2)
    assert isinstance(svc, ConstantPlusPhases)
    ph = svc.phases
    for s in (0.01, 0.3):
        want = math.exp(-56.0 * s) * sum(p * (r / (r + s)) ** k for p, k, r in zip(ph.probs, ph.stages, ph.rates))
        got = svc.matrix_lst(np.diag([-s, -2 * s]))
        assert got[0, 0] == pytest.approx(want, rel=1e-10) and abs(got[0, 1]) < 1e-15
    assert svc.second_moment == pytest.approx(56.0**2 + 2 * 56.0 * 4.0 + (1 + cv2) * 16.0)


def test_the_paper_s_exponential_and_a_constant():
    assert isinstance(service_time(56.0, 4.0), Q.ConstantPlusExponential)
    assert service_time(56.0, 4.0, 0.0) == Q.Deterministic(60.0)
    with pytest.raises(ParameterError):
        service_time(56.0, 4.0, -0.1)
    with pytest.raises(ParameterError):
        solve(0.002, **FIG1A, blocking_cv2=math.nan)


def test_the_solver_s_blocking_cv2():
    """Default = the paper's exponential, bit for bit; the latency grows with the blocking time's variance and
    is continuous at 1; a curve with cv2 != 1 is solved load by load as solve() solves it."""
    mu = 0.0033
    paper = solve(mu, **FIG1A)
    assert solve(mu, **FIG1A, blocking_cv2=1.0).latency == paper.latency
    lat = [solve(mu, **FIG1A, blocking_cv2=c).latency for c in (0.0, 0.5, 1.0 - 1e-6, 1.0 + 1e-6, 4.0)]
    assert lat == sorted(lat) and lat[2] == pytest.approx(paper.latency, rel=1e-6)
    assert lat[3] == pytest.approx(paper.latency, rel=1e-6) and lat[-1] > paper.latency * 1.001
    curve = solve_curve([0.002, 0.003], **FIG1A, blocking_cv2=2.0)
    assert list(curve.latency) == [solve(m, **FIG1A, blocking_cv2=2.0).latency for m in (0.002, 0.003)]


def test_the_blocking_table_on_short_runs(fake_run, tmp_cache):
    """The simulated blocking time at the run's own points at 25, 50 and 75% (short runs on Fig. 1(a)'s
    network): its mean is the network latency less the zero-load latency of the mean hop count, the per-hop
    counts add up to the measured messages, and the model columns are the solver's at those loads."""
    run = fake_run(model_sat=2.0, sim_sat=0.002)
    settings = SETTINGS.replace(messages=400, warmup_messages=100, batches=5)
    t = B.blocking_table([run], settings)
    assert list(t.columns) == list(B.BLOCKING_COLUMNS) and list(t["fraction"]) == [0.25, 0.5, 0.75]
    got = B.measured_points(run, settings)
    for (_, mu1, r), (_, row) in zip(got, t.iterrows()):
        assert row["sim b mean"] == pytest.approx(r.network_latency - 48 - (r.mean_hops + 1), rel=1e-9)
        assert row["sim b cv2"] == pytest.approx(row["sim b cv"] ** 2)
        assert row["model (cv2 = 1)"] == solve(mu1, **run.curve.model).latency
        assert row["model (cv2 = 0)"] == solve(mu1, **run.curve.model, blocking_cv2=0.0).latency
        assert row["within noise"] is B.within_noise(row["shift"], row["sim latency CI"])
    hops = B.blocking_hops_table([run], settings)
    assert hops.groupby("fraction")["messages"].sum().tolist() == [r.messages for _, _, r in got]
    assert (hops["b mean"] >= 0).all() and set(hops["hops"]) <= set(range(1, 17))
