"""The paper's set-up (``booksim``) simulates BookSim's Bernoulli source; each simulated point runs until its delay
is precise (``target_ci``), from ``min_messages`` up to the cap ``messages``; the saturation probes stay
fixed-length; the page states each figure's precision and each set-up's source (generated)."""

import ast
import json
from types import SimpleNamespace

import numpy as np
import pandas as pd

from models.core.paths import ROOT
from models.core.results import SimPoint
from models.xfolded_tm import experiments
from models.xfolded_tm.experiments import delay_curve, sim_kwargs, sim_saturation
from models.xfolded_tm.glue import SOURCE_WORDS, glue_values_precision, glue_values_sources, precision_sentence
from models.xfolded_tm.setups import MIN_MESSAGES, SETTINGS, SETUPS, SIM_MESSAGES, TARGET_CI

TORUS = {name: delay_curve("torus", 2, [0.1], setup=name) for name in SETUPS}


def test_the_papers_setup_passes_the_bernoulli_source():
    assert SETUPS["booksim"].stands_for == "paper"
    assert sim_kwargs(TORUS["booksim"], 0.1 / 32, SETTINGS)["traffic"] == "bernoulli"
    assert {sim_kwargs(TORUS[n], 0.1 / 32, SETTINGS)["traffic"] for n in ("ours", "model")} == {"poisson"}
    src = glue_values_sources()
    assert src["xfolded_tm-source-booksim"] == SOURCE_WORDS["bernoulli"] and "injection_process" in SOURCE_WORDS[
        "bernoulli"]
    assert src["xfolded_tm-source-model"] == src["xfolded_tm-source-ours"] == SOURCE_WORDS["poisson"]


def test_the_settings_reach_the_simulator():
    assert (SETTINGS.target_ci, SETTINGS.min_messages, SETTINGS.messages) == (TARGET_CI, MIN_MESSAGES, SIM_MESSAGES)
    kw = sim_kwargs(TORUS["model"], 0.1 / 32, SETTINGS)
    assert (kw["messages"], kw["target_ci"], kw["max_messages"]) == (MIN_MESSAGES, TARGET_CI, SIM_MESSAGES)
    fixed = sim_kwargs(TORUS["model"], 0.1 / 32, SETTINGS.fixed_length())
    assert fixed["messages"] == SIM_MESSAGES and "target_ci" not in fixed and "max_messages" not in fixed
    assert SETTINGS.replace(messages=3000).run_lengths()["messages"] == 3000


def test_the_saturation_probes_stay_fixed_length(monkeypatch):
    seen = []

    def fake(curve, loads, settings):
        seen.append(settings)
        return [SimPoint(1.0, 0.1, x > 0.01, {"mean hops": 4.0, "messages": 1}) for x in loads]

    monkeypatch.setattr(experiments, "simulate_curve", fake)
    sim_saturation(TORUS["model"], 0.3 / 32, SETTINGS.replace(sat_rtol=0.2))
    assert seen and all(s.target_ci is None and s.min_messages is None and s.messages == SETTINGS.sat_messages
                        for s in seen)


def _runs(messages, saturated=False):
    n = len(messages)
    return [SimpleNamespace(sim=pd.DataFrame({"latency": np.full(n, 40.0), "latency CI": np.linspace(0.1, 0.4, n),
                                              "saturated": saturated, "messages": messages}))]


def test_the_page_states_the_precision():
    text = glue_values_precision(SETTINGS, _runs([20_000, 60_000]), "delay")["xfolded_tm-precision-delay"]
    assert "delay's 95% half width was within 1% of its mean" in text and "20,000 measured messages first" in text
    assert "at most 60,000." in text and "used 20,000 to 60,000 messages (1 ran to the cap)" in text
    assert "widest half width is 1.0%" in text
    fixed = precision_sentence(SETTINGS.replace(target_ci=None, messages=3000, warmup_messages=500), _runs([3000]))
    assert fixed.startswith("Every simulated point measured 3,000 messages after 500 discarded")
    assert "No point" in precision_sentence(SETTINGS, _runs([0], saturated=True))


def test_the_page_runs_the_chapters_precision():
    nb = json.loads((ROOT / "notebooks" / "xfolded_tm" / "03-delay.ipynb").read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    p = {t.target.id: ast.literal_eval(t.value) for t in ast.parse("".join(cell["source"])).body}
    assert (p["target_ci"], p["min_messages"], p["messages"]) == (TARGET_CI, MIN_MESSAGES, SIM_MESSAGES)
