"""Simulated points that stop at a precision (#15): the run lengths the chapter hands to the simulator."""

from models.core.setups import SimSettings
from models.torus_ipp import experiments as ex
from models.torus_ipp.setups import IppParams, ipp_curve

CURVE = ipp_curve(IppParams(k=8, V=3, M=16, sigma1=0.2, sigma2=0.8), label="c")


def test_fixed_length_without_a_target():
    kw = ex.sim_kwargs(CURVE, 0.002, SimSettings(messages=50000, warmup_messages=5000))
    assert kw["messages"] == 50000 and "target_ci" not in kw and "max_messages" not in kw


def test_a_target_measures_min_messages_first_and_at_most_messages():
    kw = ex.sim_kwargs(CURVE, 0.002, SimSettings(messages=50000, warmup_messages=5000, target_ci=0.01,
                                                 min_messages=8000))
    assert (kw["messages"], kw["target_ci"], kw["max_messages"]) == (8000, 0.01, 50000)
    kw = ex.sim_kwargs(CURVE, 0.002, SimSettings(messages=5000, target_ci=0.01, min_messages=8000))  # never above
    assert (kw["messages"], kw["max_messages"]) == (5000, 5000)


def test_saturation_probes_are_fixed_length_halves():
    probe = ex._probe_settings(SimSettings(messages=40000, warmup_messages=4000, target_ci=0.02, min_messages=10000))
    assert (probe.messages, probe.warmup_messages, probe.target_ci) == (20000, 2000, None)
    small = ex._probe_settings(SimSettings(messages=1500, warmup_messages=300))
    assert (small.messages, small.warmup_messages) == (1000, 500)
    assert ex._probe_settings(SimSettings(messages=1500, sat_messages=3000)).messages == 3000


def test_curves_pass_the_target_to_their_points(monkeypatch):
    seen = []

    def fake_sweep(kws, **_):
        seen.extend(kws)
        raise RuntimeError("stop")

    monkeypatch.setattr(ex, "run_sweep", fake_sweep)
    fns = ex._functions(SimSettings(messages=40000, warmup_messages=4000, sat_steps=3, target_ci=0.02,
                                    min_messages=10000), simulate=True, model_points=5)
    curve = ex.paper_figure(1).curves[0]
    try:
        fns["sim"](curve, [0.001])
    except RuntimeError:
        pass
    assert seen and all(k["messages"] == 10000 and k["max_messages"] == 40000 and k["target_ci"] == 0.02
                        for k in seen)
