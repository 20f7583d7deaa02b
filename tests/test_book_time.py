"""The build's time report (benchmarks/book_time.py): notebooks by processor time from their provenance, the
simulations' time from the cache by how each run ended and by configuration."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import book_time  # noqa: E402

sys.path.remove(str(ROOT / "benchmarks"))


def test_the_report_counts_notebooks_and_simulations(tmp_path, monkeypatch):
    from models.sim.wormhole import Torus, simulate

    build = tmp_path / "build"
    for slug, seconds, cpu in (("ch/01-a", 10.0, 4.0), ("ch/02-b", 5.0, 12.0), ("ch/03-c", 3.0, None)):
        stamp = {"notebook": slug, "status": "ok", "profile": "quick", "seconds": seconds}
        if cpu is not None:
            stamp["cpu_seconds"] = cpu
        (build / "book" / "ch").mkdir(parents=True, exist_ok=True)
        (build / "book" / f"{slug}.provenance.json").write_text(json.dumps(stamp))
    (build / "book" / "ch" / "04-d.provenance.json").write_text(json.dumps({"notebook": "ch/04-d", "status": "failed",
                                                                           "seconds": 1.0}))
    rows = book_time.notebook_times(build)
    assert [r["notebook"] for r in rows] == ["ch/02-b", "ch/01-a", "ch/03-c"]  # by CPU time; none last; failed out

    monkeypatch.setenv("MODELS_CACHE_DIR", str(build / ".cache"))
    kw = dict(routing="dor", vcs=2, message_length=4, messages=200, warmup_messages=20, seed=1, cache=True)
    fixed = simulate(Torus((4, 4)), rate=0.01, **kw)
    saturated = simulate(Torus((4, 4)), rate=0.2, **kw)
    assert not fixed.saturated and saturated.saturated
    (build / ".cache" / "wormhole" / "0123456789abcdef0123456789abcdef.json").write_text("{}")  # unsigned: not read

    sims = book_time.simulation_times(build / ".cache")
    assert set(sims["by_end"]) == {"fixed length", f"saturated: {saturated.stop_reason}"}
    assert sum(n for n, _ in sims["by_end"].values()) == 2
    (n, seconds, flit_hops, _), = sims["by_config"].values()
    assert n == 2 and seconds == fixed.wall_time + saturated.wall_time
    assert flit_hops == fixed.flit_hops + saturated.flit_hops
    assert book_time.configuration(fixed) == "torus 4x4 bi, dor, 2 VCs x 2, M=4, ideal"

    text = book_time.report(build, build / ".cache")
    assert f"{16 / 60:.1f} CPU-minutes" in text  # 4 + 12 s
    assert "fixed length" in text and "torus 4x4 bi, dor" in text


def test_fixed_step_searches_are_told_from_searches_that_expand(tmp_path, monkeypatch):
    """A bisection of [0, capacity] probes one load per step, capacity * k / 2**j (k odd): its probes are counted by
    step.  A search that expands from a starting load (x1.25) has loads of that form too, not one per step, and is
    not counted as one."""
    from models.sim.wormhole import Torus, simulate

    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / ".cache"))
    kw = dict(routing="dor", vcs=2, messages=200, warmup_messages=20, seed=1, cache=True)
    bisection = [simulate(Torus((4, 4)), rate=r, message_length=4, **kw) for r in (0.01, 0.005, 0.0075)]
    expanding = [simulate(Torus((4, 4)), rate=r, message_length=6, **kw) for r in (0.004, 0.005, 0.00625)]
    found = book_time.bisection_steps(tmp_path / ".cache")
    assert found["searches"] == 1
    assert found["by_step"] == {1: bisection[0].wall_time, 2: bisection[1].wall_time, 3: bisection[2].wall_time}
    assert found["seconds"] == pytest.approx(sum(r.wall_time for r in bisection), rel=1e-12)
    assert found["other"] == pytest.approx(sum(r.wall_time for r in expanding), rel=1e-12)
    assert "fixed-step saturation searches: 1," in book_time.report(tmp_path, tmp_path / ".cache")


def test_runs_that_measured_their_cap_are_binned_by_their_precision_there(tmp_path, monkeypatch):
    """A run with a precision target that stopped before its cap is counted, not binned; one that measured its cap
    is binned by its half width at the cap over the target; the warm-up's share is by messages."""
    from models.sim.wormhole import Torus, simulate

    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / ".cache"))
    kw = dict(routing="dor", vcs=2, message_length=4, warmup_messages=100, seed=1, cache=True)
    loose = simulate(Torus((4, 4)), rate=0.01, messages=200, target_ci=0.9, max_messages=400, **kw)
    tight = simulate(Torus((4, 4)), rate=0.02, messages=200, target_ci=1e-4, max_messages=300, **kw)
    fixed = simulate(Torus((4, 4)), rate=0.01, messages=300, **kw)
    assert loose.messages < 400 and tight.messages == 300  # stopped precise; ran to its cap

    found = book_time.precision_at_cap(tmp_path / ".cache")
    assert found["runs"] == 2 and found["capped"] == 1
    assert found["seconds"] == pytest.approx(loose.wall_time + tight.wall_time, rel=1e-12)
    ratio = tight.latency_ci / (1e-4 * tight.latency)
    (bound, (n, seconds)), = [(b, v) for b, v in found["by_bin"].items() if v[0]]
    assert n == 1 and seconds == tight.wall_time
    assert bound == min(b for b in book_time.CAP_BINS if ratio <= b)

    warm = book_time.warmup_share(tmp_path / ".cache")
    runs = (loose, tight, fixed)
    assert warm["seconds"] == pytest.approx(sum(r.wall_time for r in runs), rel=1e-12)
    assert warm["warmup_seconds"] == pytest.approx(sum(r.wall_time * 100 / (100 + r.messages) for r in runs),
                                                   rel=1e-12)
    text = book_time.report(tmp_path, tmp_path / ".cache")
    assert "2 unsaturated" in text and "1 measured their cap" in text and "warm-up: about" in text
