"""The numbers and sentences the torus_dor pages glue or print: computed in models/, from the pages' tables; every
key a page's Markdown quotes is one the chapter's glue functions give."""

import json
import math
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from models.core.errors import ParameterError
from models.core.paths import ROOT
from models.networks.dor_paths import DorCombinatorics
from models.torus_dor import solve
from models.torus_dor.glue import (assumptions_summary, glue_values_assumptions, glue_values_comparison,
                                   glue_values_latency, glue_values_paths, glue_values_precision, glue_values_zero_load,
                                   readings_summary)
from models.torus_dor.setups import SETTINGS


def _fig1_errors():
    return pd.DataFrame({"torus": ["unidirectional", "unidirectional", "bidirectional"],
                         "curve": ["8x8, L=3, M=32", "8x8, L=5, M=32", "8x8 bi, L=3, M=32"],
                         "worst <80%": [0.1, math.inf, 0.236], "worst printed <80%": [0.3, 0.2, math.inf],
                         "sat model / sim": [0.61, 0.68, 0.79], "sat printed / sim": [0.40, 0.50, 0.53]})


def test_latency_values():
    dec = pd.DataFrame({"l-bar model": [1.1, 1.2], "l-bar sim": [1.0, 1.5], "beyond mux model": [2.0, 4.0],
                        "beyond mux sim": [3.0, 5.0]})
    zl = pd.DataFrame({"rel. error": [0.001, -0.003]})
    v = glue_values_latency(_fig1_errors(), dec, zl)
    assert v["torus_dor-fig1-worst-unidirectional"] == "unbounded"
    assert v["torus_dor-fig1-worst-printed-unidirectional"] == "30.0%"
    assert v["torus_dor-fig1-worst-bidirectional"] == "23.6%"
    assert v["torus_dor-fig1-sat-ratio-min-unidirectional"] == 0.61 and v["torus_dor-fig1-sat-ratio-max-unidirectional"] == 0.68
    assert v["torus_dor-fig1-sat-ratio-printed-max-bidirectional"] == 0.53
    assert v["torus_dor-mux-max-err"] == pytest.approx(0.2)  # |1.2 / 1.5 - 1|
    assert (v["torus_dor-beyond-ratio-min"], v["torus_dor-beyond-ratio-max"]) == (1.25, 1.5)
    assert v["torus_dor-zero-load-max-err"] == 0.003
    assert len(v) == 2 * 6 + 4
    empty = glue_values_latency(_fig1_errors(), dec.iloc[:0], zl)
    assert math.isnan(empty["torus_dor-mux-max-err"]) and math.isnan(empty["torus_dor-beyond-ratio-max"])
    # the worst over the curves of a torus is core's worst_of: a curve without a counted point (NaN) hides none
    nan_first = _fig1_errors().assign(**{"worst <80%": [math.nan, 0.1, 0.236]})
    assert glue_values_latency(nan_first, dec, zl)["torus_dor-fig1-worst-unidirectional"] == "10.0%"
    # the page's Fig. 1 bullets (its Markdown) read these keys
    assert _page_sentence("02-latency", "- **unidirectional torus**", v) == (
        "- **unidirectional torus**: worst |error| at 25, 50 and 75% of the simulated saturation load: unbounded "
        "(default reading) and 30.0% (as printed); the model saturates at 0.61 to 0.68 times the "
        "simulated saturation load (as printed: 0.40 to 0.50).")


def _fig2_errors():
    return pd.DataFrame({"torus": ["unidirectional", "bidirectional"], "sat model": [0.0014, 0.0058],
                         "sat sim": [0.0024, 0.008], "sat 2003": [0.0012, 0.0052], "sat printed": [0.0011, 0.0043],
                         "sat model / sim": [0.6, 0.72], "sat 2003 / sim": [0.48, 0.65],
                         "sat printed / sim": [0.44, 0.54], "worst <80%": [math.inf, 0.1],
                         "worst 2003 <80%": [math.inf, 0.2], "worst printed <80%": [0.05, math.inf]})


def _readings():
    rows = []
    for torus, (s04, s03) in (("unidirectional", (0.0014, 0.0012)), ("bidirectional", (0.0058, 0.0052))):
        for reading, ww, default, sat, w0, blocks in (
                ("J inputs, weight j-L", "j-L", True, s04, 0.005, True),
                ("J inputs, weight j", "j", False, 0.9 * s03, 0.004, True),
                ("J printed, weight j-L", "j-L", False, s04, 0.0, False),
                ("all printed", "j", False, 0.8 * s03, 0.003, True)):
            rows.append({"torus": torus, "reading": reading, "waiting_weight": ww, "default": default,
                         "sat 2004": sat, "sat 2003": s03, "sat 2004 / 2003": sat / s03, "W d0": w0,
                         "every dimension blocks": blocks, "later than 2003": sat > s03})
    return pd.DataFrame(rows)


def _comparison():
    return pd.DataFrame({"torus": ["unidirectional", "unidirectional", "bidirectional"], "paper": [True, False, True],
                         "better default": [True, False, True], "better printed": [False, False, None],
                         "closer default": [True, True, True], "closer printed": [False, False, False],
                         "drawback default": [True, None, False], "drawback printed": [False, False, None]})


def test_comparison_values():
    switches = pd.DataFrame({"reading": ["default", "waiting_weight=j", "waiting_max=printed", "all printed"],
                             "saturation": [0.002, 0.0015, 0.0021, 0.001]})
    run = SimpleNamespace(sim_saturation=0.004, curve=SimpleNamespace(setup="paper", model={"bidirectional": False}))
    v = glue_values_comparison(_fig2_errors(), _readings(), switches, run, _comparison())
    assert v["torus_dor-fig2-sat-model-unidirectional"] == 0.0014 and v["torus_dor-fig2-sat-sim-bidirectional"] == 0.008
    assert v["torus_dor-fig2-sat-2003-ratio-sim-bidirectional"] == 0.65
    assert v["torus_dor-fig2-worst-model-unidirectional"] == "unbounded"
    assert v["torus_dor-fig2-worst-2003-bidirectional"] == "20.0%" and v["torus_dor-fig2-worst-printed-unidirectional"] == "5.0%"
    assert v["torus_dor-fig2-bi-uni-sim-sat-ratio"] == pytest.approx(0.008 / 0.0024)
    assert v["torus_dor-readings-default-ratio-unidirectional"] == pytest.approx(0.0014 / 0.0012)
    assert v["torus_dor-readings-weight-j-sat-bidirectional"] == pytest.approx(0.9 * 0.0052)
    assert v["torus_dor-readings-printed-ratio-unidirectional"] == pytest.approx(0.8)
    assert v["torus_dor-readings-jl-W0-unidirectional"] == 0.005 and v["torus_dor-readings-default-W0-bidirectional"] == 0.005
    assert v["torus_dor-readings-default-blocks-bidirectional"] == "yes"
    assert v["torus_dor-switch-biggest"] == "waiting_weight=j" and v["torus_dor-switch-biggest-ratio"] == 0.75
    assert v["torus_dor-printed-sat-ratio"] == 0.25 and v["torus_dor-wj-sat-ratio"] == 0.375
    assert v["torus_dor-switch-setup"] == "unidirectional"
    assert v["torus_dor-cmp-better-default-unidirectional"] == "1 of 2"
    assert v["torus_dor-cmp-better-printed-bidirectional"] == "0 of 1"
    assert v["torus_dor-cmp-closer-printed-unidirectional"] == "0 of 2"
    assert v["torus_dor-cmp-drawback-default-unidirectional"] == "1 of 2"
    assert v["torus_dor-cmp-drawback-printed-bidirectional"] == "0 of 1"
    assert (v["torus_dor-cmp-curves-unidirectional"], v["torus_dor-cmp-paper-unidirectional"]) == (2, 1)
    assert not any(k.startswith("torus_dor-claim-") for k in v)  # verdicts are the findings table's, not glued here
    # each part alone
    assert set(glue_values_comparison(comparison=_comparison())) == {k for k in v if k.startswith("torus_dor-cmp-")}
    assert glue_values_comparison() == {}
    one = glue_values_comparison(_fig2_errors().iloc[:1])
    assert "torus_dor-fig2-bi-uni-sim-sat-ratio" not in one and len(one) == 10
    with pytest.raises(ParameterError, match="`run`"):
        glue_values_comparison(switches=switches)


def test_comparison_sentences():
    v = glue_values_comparison(_fig2_errors(), comparison=_comparison())
    assert _page_sentence("03-comparison", "- **unidirectional torus**: the 2004 model", v) == (
        "- **unidirectional torus**: the 2004 model saturates at 0.0014 messages/node/cycle (0.60 of the simulated "
        "0.0024), the reconstructed 2003 model at 0.0012 (0.48), the 2004 model as printed at 0.0011 (0.44). Worst "
        "|error| at 25, 50 and 75% of the simulated saturation load: unbounded (2004), unbounded (2003), 5.0% (2004 "
        "as printed).")
    assert _page_sentence("03-comparison", "- The simulated saturation load", v) == (
        "- The simulated saturation load is 3.33 times higher on the bidirectional torus than on the "
        "unidirectional one.")
    assert _page_sentence("03-comparison", "- **unidirectional torus** (", v) == (
        "- **unidirectional torus** (2 curves, 1 on the paper's networks): the 2004 model is more accurate than the "
        "reconstructed 2003 model beyond the noise (worst |error| at 25, 50 and 75% of the simulated saturation "
        "load) on 1 of 2 (default reading) and 0 of 2 (as printed); its saturation load is closer to the simulated "
        "one on 2 of 2 and 0 of 2; the reconstructed 2003 model's error at 50 and 75% of the simulated saturation "
        "load is larger than the 2004 model's there on 1 of 2 and 0 of 2 (each beyond the noise).")
    r = readings_summary(_readings())
    assert r.startswith("Under the printed weight $j$ (any $J$) the 2004 model saturates *before* the 2003 model on "
                        "the unidirectional and bidirectional tori. ")
    assert "Under the default reading the 2004 model saturates after the 2003 model on the unidirectional and " \
           "bidirectional tori." in r
    assert "the lowest dimension never blocks" in r and "Under the default reading every dimension blocks: yes." in r
    mixed = _readings()
    mixed.loc[(mixed["torus"] == "bidirectional") & mixed["default"], "later than 2003"] = False
    assert ("Under the default reading the 2004 model saturates *before* the 2003 model on the bidirectional torus "
            "(after it on the unidirectional torus).") in readings_summary(mixed)


def test_assumption_values_and_sentences():
    assume = pd.DataFrame({"mean busy VCs model": [0.5, 1.5], "mean busy VCs sim": [0.5, 2.0],
                           "P(all L busy) model": [0.01, 0.2], "P(all L busy) sim": [0.01, 0.05],
                           "l-bar model": [1.1, 1.3], "l-bar sim": [1.1, 1.2]})
    crate = pd.DataFrame({"sat sim": [0.01, 0.01], "sat model (mean rate)": [0.006, 0.012],
                          "sat model (per-dimension rate)": [0.008, 0.015]})
    v = glue_values_assumptions(assume, crate)
    assert v["torus_dor-busy-ratio-high"] == 0.75 and v["torus_dor-allbusy-ratio-high"] == pytest.approx(4.0)
    assert v["torus_dor-mux-err-high"] == pytest.approx(1.3 / 1.2 - 1)
    assert v["torus_dor-channel-rate-closer"] == "1 of 2"
    assert _page_sentence("04-assumptions", "The per-dimension rate brings", v) == (
        "The per-dimension rate brings the model's saturation load closer to the simulated one on **1 of 2** curves.")
    assert _page_sentence("04-assumptions", "At the higher load", v) == (
        "At the higher load the model puts 4.00 times as much probability as the simulator measures on \"all $L$ "
        "VCs busy\", while its mean number of busy VCs is 0.75 times the measured one; the multiplexing degree is "
        "off by +8.3%.")
    assert glue_values_assumptions(assume) == {k: x for k, x in v.items() if k != "torus_dor-channel-rate-closer"}
    run = SimpleNamespace(model_saturation=0.5, sim_saturation=1.0)
    text = assumptions_summary(assume, run)
    assert text.startswith("So the assumption that breaks first is the *shape* of the occupancy distribution")
    assert "(0.50 of the simulated saturation load here)" in text
    assert "saturation load here" not in assumptions_summary(assume, SimpleNamespace(model_saturation=1.0,
                                                                                     sim_saturation=0.5))
    calm = assume.assign(**{"P(all L busy) model": [0.01, 0.04]})
    assert assumptions_summary(calm, run) == ""  # nothing breaks first: the page says only the ratios
    assert np.isfinite(glue_values_assumptions(calm, crate)["torus_dor-allbusy-ratio-high"])


# ---------------------------------------------------------------- the derivation page and the pages' Markdown
def test_derivation_values():
    """01-derivation's worked example: the mean hops (exact and as a float) and the zero-load latency against
    M + h + 1, computed here, not in the page."""
    comb = DorCombinatorics((3, 4, 5), bidirectional=False)
    v = glue_values_paths(comb)
    assert v == {"torus_dor-h-example": float(comb.mean_hops), "torus_dor-h-exact": "270/59"}
    res = solve(1e-9, radices=(3, 4, 5), L=3, M=32)
    z = glue_values_zero_load(res, comb, 32)
    assert z["torus_dor-zero-load-example"] == res.latency
    assert z["torus_dor-zero-load-formula"] == 32 + 270 / 59 + 1
    assert z["torus_dor-zero-load-example"] == pytest.approx(z["torus_dor-zero-load-formula"], rel=1e-4)
    assert _page_sentence("01-derivation", "Mean hops", v) == "Mean hops $h$ = 270/59 $\\approx$ 4.5763 (eq. 2)."
    assert _page_sentence("01-derivation", "Model at", z) == (
        "Model at $\\lambda_g=10^{-9}$: 37.5763 cycles; $M+h+1$ = 37.5763 cycles.")


_GLUE = re.compile(r"\{glue:text\}`([^`:]+)(?::([^`]*))?`")


def _markdown(page: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "torus_dor" / f"{page}.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _page_sentence(page: str, start: str, values: dict) -> str:
    """The paragraph or list item of ``page``'s Markdown that starts with ``start``, with every ``{glue:text}`` role
    replaced as MyST-NB renders it from ``values`` (its text/plain, then the format), on one line."""
    from myst_nb.core.variables import format_plain_text

    for cell in _markdown(page):
        for block in re.split(r"\n(?=- )|\n\n", cell):
            if block.startswith(start):
                return " ".join(_GLUE.sub(lambda m: format_plain_text(repr(values[m.group(1)]), m.group(2) or ""),
                                          block).split())
    raise AssertionError(f"{page}: no Markdown starting {start!r}")


def test_every_key_the_pages_quote_is_glued_by_the_chapter():
    """Each ``{glue:text}`torus_dor-...` `` of a page's Markdown is a key one of the chapter's glue functions gives
    (on both tori): a sentence moved into the Markdown cannot quote a number nobody glues."""
    comb = DorCombinatorics((3, 4, 5), bidirectional=False)
    res = solve(1e-9, radices=(3, 4, 5), L=3, M=32)
    dec = pd.DataFrame({"l-bar model": [1.1], "l-bar sim": [1.0], "beyond mux model": [2.0], "beyond mux sim": [3.0]})
    switches = pd.DataFrame({"reading": ["default", "waiting_weight=j", "all printed"],
                             "saturation": [0.002, 0.001, 0.001]})
    run = SimpleNamespace(sim_saturation=0.004, curve=SimpleNamespace(model={"bidirectional": False}))
    assume = pd.DataFrame({"mean busy VCs model": [1.5], "mean busy VCs sim": [2.0], "P(all L busy) model": [0.2],
                           "P(all L busy) sim": [0.05], "l-bar model": [1.3], "l-bar sim": [1.2]})
    crate = pd.DataFrame({"sat sim": [0.01], "sat model (mean rate)": [0.006],
                          "sat model (per-dimension rate)": [0.008]})
    glued = {**glue_values_paths(comb), **glue_values_zero_load(res, comb, 32),
             **glue_values_latency(_fig1_errors(), dec, pd.DataFrame({"rel. error": [0.001]})),
             **glue_values_comparison(_fig2_errors(), _readings(), switches, run, _comparison()),
             **glue_values_assumptions(assume, crate),
             **{k: v for name in ("fig1", "fig2", "occupancy", "unequal")
                for k, v in glue_values_precision(SETTINGS, [], name).items()}}
    quoted = {m.group(1) for page in ("01-derivation", "02-latency", "03-comparison", "04-assumptions")
              for cell in _markdown(page) for m in _GLUE.finditer(cell)}
    assert quoted and quoted <= set(glued), sorted(quoted - set(glued))
