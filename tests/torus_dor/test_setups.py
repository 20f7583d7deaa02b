"""The chapter's light rooms: the network checked once (DorParams), the set-up, the run lengths, the command's
declaration; what each room may import."""

import ast

import pytest

from models.core.paths import ROOT
from models.core.setups import Curve, RunLengths
from models.torus_dor import setups
from models.torus_dor.setups import RUN, SETTINGS, DorParams, torus_curve

CHAPTER_DIR = ROOT / "models" / "torus_dor"


def test_the_network_is_checked_and_coerced_when_it_is_made():
    p = DorParams([8, 8.0], 3.0, 32.0)
    assert (p.radices, p.L, p.M, p.bidirectional) == ((8, 8), 3, 32, False)
    assert isinstance(p.L, int) and isinstance(p.M, int) and all(isinstance(k, int) for k in p.radices)
    assert DorParams((8, 8), 3, 32.5).M == 32.5
    assert p.model == {"radices": (8, 8), "L": 3, "M": 32, "bidirectional": False}
    assert p.label == "8x8, L=3, M=32" and DorParams((4, 4, 4), 5, 8, True).label == "4x4x4 bi, L=5, M=8"
    assert DorParams.on_torus("bidirectional", (8, 8), 3, 32) == DorParams((8, 8), 3, 32, True)
    assert DorParams((8, 8), 3, 32, True).torus == "bidirectional" and p.torus == "unidirectional"
    for bad, name in (((1, 8), 3, 32, False), "radices"), (((8, 8), 1, 32, False), "L"), \
            (((8, 8), 3, 0.5, False), "M"), (((8, 8), 3, 32, "yes"), "bidirectional"), \
            (((65, 2), 3, 32, False), "radices"):
        with pytest.raises(ValueError, match=f"`{name}"):
            DorParams(*bad)
    with pytest.raises(ValueError, match="`torus`"):
        DorParams.on_torus("mesh", (8, 8), 3, 32)
    with pytest.raises(AttributeError):
        p.M = 64  # frozen: what was checked stays checked


def test_the_message_length_is_checked_once_on_the_way_to_the_simulator(monkeypatch):
    """compare -> curve -> sim_kwargs: ``M`` is checked and coerced when the DorParams is made, then carried as is
    (the curve's model keywords) to the simulator's ``message_length``."""
    from models.torus_dor.experiments import sim_kwargs

    calls = []
    real = setups.require_message_length
    monkeypatch.setattr(setups, "require_message_length", lambda *a, **k: calls.append(a) or real(*a, **k))
    p = DorParams((8, 8), 3, 32.0)
    curve = torus_curve(p)
    kw = sim_kwargs(curve, 0.001, SETTINGS)
    assert len(calls) == 1
    assert isinstance(curve, Curve) and curve.model["M"] == 32 and isinstance(curve.model["M"], int)
    assert kw["message_length"] == 32 and isinstance(kw["message_length"], int) and kw["vcs"] == 3


def test_run_lengths_and_settings():
    assert RUN == RunLengths("messages", 20_000, 2_000)
    assert (SETTINGS.messages, SETTINGS.warmup_messages, SETTINGS.sat_messages, SETTINGS.sat_steps) == \
        (120_000, 10_000, 20_000, 8)
    from models.torus_dor.__main__ import CHAPTER

    assert CHAPTER.setups is setups and CHAPTER.lengths is RUN and CHAPTER.setup_names == ("paper",)



def _imports(module: str) -> set:
    """The chapter modules (``models.torus_dor.<name>``) and the names from them that ``module`` imports."""
    tree = ast.parse((CHAPTER_DIR / f"{module}.py").read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1 or mod.startswith("models.torus_dor"):
                name = mod.removeprefix("models.torus_dor").lstrip(".") or "."
                out |= {f"{name}:{a.name}" for a in node.names}
    return out


def test_imports_go_down_the_rooms():
    """setups <- experiments <- claims, glue; ``__main__`` takes no name from experiments (only the front door and
    setups); setups takes nothing of the chapter but the light readings."""
    assert {i.split(":")[0] for i in _imports("setups")} <= {"readings"}
    assert not any(i.startswith(("claims", "glue", "compare")) for i in _imports("experiments"))
    for upper in ("claims", "glue"):
        assert not any(i.startswith(("claims", "glue", "compare")) for i in _imports(upper)), upper
    main = _imports("__main__")
    assert not any("experiments" in i for i in main) and ".:setups" in main
