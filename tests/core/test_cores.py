"""The pipeline's cores as tokens (models/core/cores.py): taken by flock, given back, fair, freed by death."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from models.core import cores


def test_a_token_is_one_slot_and_comes_back(tmp_path):
    folder = cores.make_tokens(tmp_path / "cores", 2)
    assert sorted(p.name for p in folder.iterdir()) == ["hungry", "slot-0", "slot-1"]
    assert folder.stat().st_mode & 0o777 == 0o700
    a, b = cores.CoreTokens(folder), cores.CoreTokens(folder)  # two holders (flock: two open files conflict)
    assert a.count == b.count == 2
    t1, t2 = a.try_take(), a.try_take()
    assert t1 is not None and t2 is not None and a.try_take() is None
    assert b.try_take() is None  # every core is taken
    a.give_back(t1)
    assert b.try_take() is not None
    b.close()
    a.close()
    assert not a.held and not b.held


def test_a_process_holding_a_token_leaves_a_free_one_to_a_hungry_one(tmp_path):
    folder = cores.make_tokens(tmp_path / "cores", 2)
    a, b = cores.CoreTokens(folder), cores.CoreTokens(folder)
    ta, _ = a.try_take(), a.try_take()
    assert b.try_take() is None  # b holds none: hungry
    a.give_back(ta)
    assert a.try_take() is None  # a holds one and b waits for its first
    assert b.try_take() is not None
    assert a.try_take() is None  # no free core
    b.close()
    assert a.try_take() is not None  # nobody hungry: a takes its second
    a.close()


def test_one_core_goes_to_the_waiting_process_after_its_holder_gives_it_back(tmp_path):
    folder = cores.make_tokens(tmp_path / "cores", 1)
    a, b = cores.CoreTokens(folder), cores.CoreTokens(folder)
    t = a.try_take()
    assert b.try_take() is None
    a.give_back(t)
    assert a.try_take() is None  # a gave back its last one just now, b is hungry
    assert b.try_take() is not None
    b.close()
    time.sleep(cores.GRACE)
    assert a.try_take() is not None
    a.close()


def test_a_killed_holder_frees_its_token(tmp_path):
    folder = cores.make_tokens(tmp_path / "cores", 1)
    code = ("import sys, time; from models.core import cores; t = cores.CoreTokens(sys.argv[1]); "
            "assert t.try_take() is not None; print('held', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        mine = cores.CoreTokens(folder)
        assert mine.try_take() is None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert mine.take() is not None  # the kernel released the dead process's flock
        mine.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_environment_names_the_folder(tmp_path):
    assert cores.from_env({}) is None and cores.from_env({cores.TOKENS_ENV: " "}) is None
    folder = cores.make_tokens(tmp_path / "cores", 3)
    assert cores.from_env({cores.TOKENS_ENV: str(folder)}).count == 3
    for bad in (tmp_path / "missing", tmp_path):
        with pytest.raises(ValueError, match=cores.TOKENS_ENV):
            cores.from_env({cores.TOKENS_ENV: str(bad)})
    with pytest.raises(ValueError, match="`jobs`"):
        cores.make_tokens(tmp_path / "none", 0)


def test_jobs_is_a_number_or_auto_and_sizes_the_pool(tmp_path):
    assert cores.require_jobs("auto") == "auto" and cores.require_jobs(3) == 3
    assert cores.require_jobs(None, none=True) is None
    for bad in (0, -1, 1.5, "all", None, True):
        with pytest.raises(ValueError, match="`jobs` must be an integer >= 1"):
            cores.require_jobs(bad)
    tokens = cores.CoreTokens(cores.make_tokens(tmp_path / "cores", 3))
    assert cores.sweep_workers(None, None) == (os.cpu_count() or 1)  # outside a pipeline: as before
    assert cores.sweep_workers("auto", None) == 1
    assert cores.sweep_workers(None, tokens) == cores.sweep_workers("auto", tokens) == 3
    assert cores.sweep_workers(2, tokens) == cores.sweep_workers(2, None) == 2
