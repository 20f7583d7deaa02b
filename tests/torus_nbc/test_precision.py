"""Each simulated point runs until its latency is precise (``target_ci``), from ``min_messages`` up to the cap
``messages``; the saturation probes and the channel-load runs stay fixed-length; the pages state each figure's
precision (``glue_values_precision``)."""

import ast
import json
from types import SimpleNamespace

import numpy as np
import pandas as pd

from models.core.paths import ROOT
from models.core.results import SimPoint
from models.torus_nbc import channels, experiments
from models.torus_nbc.experiments import sim_kwargs, sim_saturation
from models.torus_nbc.glue import glue_values_precision, precision_sentence
from models.torus_nbc.params import NbcParams
from models.torus_nbc.setups import MIN_MESSAGES, SETTINGS, TARGET_CI, curve

CURVE = curve(NbcParams(k=8, M=32, V=10))
CAP = SETTINGS.messages


def test_the_settings_reach_the_simulator():
    assert (SETTINGS.target_ci, SETTINGS.min_messages, CAP) == (TARGET_CI, MIN_MESSAGES, 100_000)
    kw = sim_kwargs(CURVE, 0.005, SETTINGS)
    assert (kw["messages"], kw["target_ci"], kw["max_messages"]) == (MIN_MESSAGES, TARGET_CI, CAP)
    fixed = sim_kwargs(CURVE, 0.005, SETTINGS.fixed_length())
    assert fixed["messages"] == CAP and "target_ci" not in fixed and "max_messages" not in fixed
    assert SETTINGS.replace(messages=3000).run_lengths()["messages"] == 3000
    assert SETTINGS.replace(target_ci=None).run_lengths() == {"messages": CAP}


def test_verdict_runs_stay_fixed_length(monkeypatch):
    seen = []

    def fake(c, loads, settings):
        seen.append(settings)
        return [SimPoint(1.0, 0.1, x > 0.01, extra={"messages": 1}) for x in loads]

    monkeypatch.setattr(experiments, "simulate_curve", fake)
    sim_saturation(CURVE, settings=SETTINGS.replace(sat_rtol=0.2))
    assert seen and all(s.target_ci is None and s.min_messages is None for s in seen)
    kws = []
    monkeypatch.setattr(channels, "run_sweep", lambda kw, **_: kws.extend(kw) or [])
    run = SimpleNamespace(curve=CURVE, sim=pd.DataFrame({"load": [0.005], "fraction": [0.5]}))
    channels.channel_loads(run, SETTINGS, 0.5, 2)
    assert len(kws) == 2 and all(k["messages"] == CAP and "target_ci" not in k for k in kws)


def _frame(messages, ci="latency CI"):
    n = len(messages)
    return pd.DataFrame({"latency": np.full(n, 50.0), ci: np.linspace(0.2, 0.5, n), "saturated": False,
                         "messages": messages})


def test_the_page_states_the_precision_from_the_settings_and_the_points():
    runs = [SimpleNamespace(sim=_frame([20_000, 30_000])), SimpleNamespace(sim=None)]
    text = glue_values_precision(SETTINGS, "fig1", runs)["torus_nbc-precision-fig1"]
    assert "within 1% of its mean" in text and "20,000 measured messages first" in text
    assert "at most 100,000." in text and "The 2 unsaturated points used 20,000 to 30,000" in text
    assert "(0 ran to the cap)" in text and "widest half width is 1.0%" in text
    routing = precision_sentence(SETTINGS, points=_frame([20_000, 100_000, 100_000], ci="CI"))
    assert "20,000 to 100,000" in routing and "(2 ran to the cap)" in routing and "1.0%" in routing
    fixed = precision_sentence(SETTINGS.replace(target_ci=None, messages=3000, warmup_messages=500),
                               [SimpleNamespace(sim=_frame([3000]))])
    assert fixed.startswith("Every simulated point measured 3,000 messages after 500 discarded")
    assert "No point" in precision_sentence(SETTINGS)


def _parameters(page: str) -> dict:
    nb = json.loads((ROOT / "notebooks" / "torus_nbc" / f"{page}.ipynb").read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    return {t.target.id: ast.literal_eval(t.value) for t in ast.parse("".join(cell["source"])).body}


def test_the_pages_run_the_chapters_precision():
    for page in ("02-latency", "03-routing-comparison"):
        p = _parameters(page)
        assert (p["target_ci"], p["min_messages"], p["messages"]) == (TARGET_CI, MIN_MESSAGES, CAP), page
