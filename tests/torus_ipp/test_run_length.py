"""Simulated points that stop at a precision (#15): the run lengths the chapter hands to the simulator."""

from models.torus_ipp import experiments as ex

CFG = dict(k=8, V=3, M=16, sigma1=0.2, sigma2=0.8)


def test_fixed_length_without_a_target():
    kw = ex.sim_kwargs(CFG, 0.002, messages=50000, warmup_messages=5000)
    assert kw["messages"] == 50000 and "target_ci" not in kw and "max_messages" not in kw


def test_a_target_measures_min_messages_first_and_at_most_messages():
    kw = ex.sim_kwargs(CFG, 0.002, messages=50000, warmup_messages=5000, target_ci=0.01, min_messages=8000)
    assert (kw["messages"], kw["target_ci"], kw["max_messages"]) == (8000, 0.01, 50000)
    kw = ex.sim_kwargs(CFG, 0.002, messages=5000, target_ci=0.01, min_messages=8000)  # never above messages
    assert (kw["messages"], kw["max_messages"]) == (5000, 5000)


def test_curves_pass_the_target_to_their_points(monkeypatch):
    seen = []

    def fake_sweep(kws, **_):
        seen.extend(kws)
        raise RuntimeError("stop")

    monkeypatch.setattr(ex, "run_sweep", fake_sweep)
    fns = ex._functions(simulate=True, messages=40000, warmup_messages=4000, sat_steps=3, seed=1, model_points=5,
                        jobs=1, target_ci=0.02, min_messages=10000)
    curve = ex.FIGURES[1].curves[0]
    try:
        fns["sim"](curve, [0.001])
    except RuntimeError:
        pass
    assert seen and all(k["messages"] == 10000 and k["max_messages"] == 40000 and k["target_ci"] == 0.02
                        for k in seen)
