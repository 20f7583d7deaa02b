"""Each simulated point runs until its latency is precise (``target_ci``), from ``min_messages`` up to the cap
``messages`` (the paper's 120,000); the runs that measure a verdict (saturation probes, channel-load runs) stay
fixed-length; the pages state each figure's precision (``glue_values_precision``)."""

import ast
import json
from types import SimpleNamespace

import numpy as np
import pandas as pd

from models.core.paths import ROOT
from models.core.results import SimPoint
from models.torus_dor import experiments, facts
from models.torus_dor.experiments import sim_kwargs, sim_saturation
from models.torus_dor.glue import glue_values_precision, precision_sentence
from models.torus_dor.setups import MIN_MESSAGES, SETTINGS, SIM_MESSAGES, TARGET_CI, DorParams, torus_curve

CURVE = torus_curve(DorParams((4, 4), 3, 8))
PAGES = ("02-latency", "03-comparison", "04-assumptions")


def test_the_settings_reach_the_simulator():
    assert (SETTINGS.target_ci, SETTINGS.min_messages, SETTINGS.messages) == (TARGET_CI, MIN_MESSAGES, SIM_MESSAGES)
    kw = sim_kwargs(CURVE, 0.01, SETTINGS)
    assert (kw["messages"], kw["target_ci"], kw["max_messages"]) == (MIN_MESSAGES, TARGET_CI, SIM_MESSAGES)
    fixed = sim_kwargs(CURVE, 0.01, SETTINGS.fixed_length())
    assert fixed["messages"] == SIM_MESSAGES and "target_ci" not in fixed and "max_messages" not in fixed
    # a first length above the cap is the cap; no min_messages: the cap
    assert SETTINGS.replace(messages=3000).run_lengths()["messages"] == 3000
    assert SETTINGS.replace(min_messages=None).run_lengths() == {"messages": SIM_MESSAGES, "target_ci": TARGET_CI,
                                                                "max_messages": SIM_MESSAGES}


def test_a_precise_run_stops_early_and_a_capped_one_at_the_cap():
    short = SETTINGS.replace(messages=4000, min_messages=1000, warmup_messages=300, batches=10, cache=False)
    low, = experiments.simulate_curve(CURVE, [0.002], short.replace(target_ci=0.05))
    assert 1000 <= low.extra["messages"] < 4000 and low.latency_ci <= 0.05 * low.latency
    capped, = experiments.simulate_curve(CURVE, [0.002], short.replace(target_ci=1e-4))
    assert capped.extra["messages"] == 4000


def test_verdict_runs_stay_fixed_length(monkeypatch):
    seen = []

    def fake(curve, loads, settings):
        seen.append(settings)
        return [SimPoint(1.0, 0.1, x > 0.05) for x in loads]

    monkeypatch.setattr(experiments, "simulate_curve", fake)
    sim_saturation(CURVE, settings=SETTINGS.replace(sat_steps=3))
    assert seen and all(s.target_ci is None and s.min_messages is None for s in seen)
    kws = []
    monkeypatch.setattr(facts, "run_sweep", lambda kw, **_: kws.extend(kw) or [])
    run = SimpleNamespace(curve=CURVE, sim=pd.DataFrame({"load": [0.01]}), sim_saturation=0.02)
    facts.channel_equality_table([run], SETTINGS, seeds=2)
    assert len(kws) == 2 and all(k["messages"] == SIM_MESSAGES and "target_ci" not in k for k in kws)


def _runs(messages, saturated=(False,)):
    n = len(messages)
    sim = pd.DataFrame({"latency": np.full(n, 40.0), "latency CI": np.linspace(0.2, 0.4, n),
                        "saturated": list(saturated) * n if len(saturated) == 1 else list(saturated),
                        "messages": messages})
    return [SimpleNamespace(sim=sim)]


def test_the_page_states_the_precision_from_the_settings_and_the_runs():
    text = glue_values_precision(SETTINGS, _runs([20_000, 45_000, 120_000]), "fig1")["torus_dor-precision-fig1"]
    assert "within 1% of its mean" in text and "20,000 measured messages first" in text
    assert "at most 120,000 (the paper's run length)" in text and "used 20,000 to 120,000" in text
    assert "(1 ran to the cap)" in text and "widest half width is 1.0%" in text
    other = precision_sentence(SETTINGS.replace(messages=60_000), _runs([30_000]))
    assert "at most 60,000." in other and "paper's" not in other and "(0 ran to the cap)" in other
    fixed = precision_sentence(SETTINGS.replace(target_ci=None, messages=3000, warmup_messages=500), _runs([3000]))
    assert fixed.startswith("Every simulated point measured 3,000 messages after 500 discarded")
    assert "fixed length" in fixed and "0.5%" in fixed
    assert "No point" in precision_sentence(SETTINGS, _runs([3000], saturated=(True,)))
    assert "No point" in precision_sentence(SETTINGS, [SimpleNamespace(sim=None)])


def _parameters(page: str) -> dict:
    nb = json.loads((ROOT / "notebooks" / "torus_dor" / f"{page}.ipynb").read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    return {t.target.id: ast.literal_eval(t.value) for t in ast.parse("".join(cell["source"])).body}


def test_the_pages_run_the_chapters_precision():
    for page in PAGES:
        p = _parameters(page)
        assert (p["target_ci"], p["min_messages"], p["messages"]) == (TARGET_CI, MIN_MESSAGES, SIM_MESSAGES), page
