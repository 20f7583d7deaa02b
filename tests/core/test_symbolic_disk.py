"""The lambdified code kept on disk (#16): same functions as SymPy's, loaded without SymPy."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import sympy as sp

import models
from models.core import symbolic

ROOT = Path(__file__).resolve().parents[2]


def _build():
    x, y = sp.symbols("x y", positive=True)
    l = sp.Symbol("l", integer=True)
    return {
        "pw": ((x, y), sp.Piecewise((sp.exp(x) * sp.sqrt(y) + sp.exp(x), x > 1), (sp.pi, True))),
        "sum": ((x, y), sp.Sum(x**l / sp.factorial(l), (l, 0, y)), "math"),
        "tuple": ((x,), (x**2, 1 / (1 - x))),
    }


def test_stored_functions_equal_sympys(tmp_path, monkeypatch):
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path))
    symbolic._SETS.clear()
    first = symbolic.compiled("test:set", _build, ("a",))
    stored = list((tmp_path / "lambdified").glob("test:set-*.json"))
    assert len(stored) == 1
    assert set(json.loads(stored[0].read_text())["functions"]) == {"pw", "sum", "tuple"}
    symbolic._SETS.clear()
    again = symbolic.compiled("test:set", lambda: (_ for _ in ()).throw(AssertionError("rebuilt")), ("a",))
    ref = {k: symbolic.lambdify_cached(a, e, modules=(m[0] if m else "numpy")) for k, (a, e, *m) in _build().items()}
    xs = np.array([0.3, 1.5, 2.0])
    for f in (first, again):
        assert np.array_equal(f["pw"](xs, 2.0), ref["pw"](xs, 2.0))
        assert f["sum"](0.7, 6) == ref["sum"](0.7, 6)
        assert f["tuple"](0.25) == ref["tuple"](0.25)
    # other parameters are another set; an unreadable file is regenerated
    symbolic._SETS.clear()
    symbolic.compiled("test:set", _build, ("b",))
    assert len(list((tmp_path / "lambdified").glob("test:set-*.json"))) == 2
    stored[0].write_text("{not json")
    symbolic._SETS.clear()
    assert symbolic.compiled("test:set", _build, ("a",))["tuple"](0.5) == (0.25, 2.0)


def test_warm_process_does_not_import_sympy(tmp_path):
    """Every chapter of ``models.CHAPTERS`` solves its ``EXAMPLE`` from the generated code on disk: a warm
    start imports no SymPy (the rule of :func:`models.core.symbolic.compiled`)."""
    code = ("import importlib, sys, models; "
            "fronts = [importlib.import_module('models.' + c) for c in models.CHAPTERS]; "
            "r = [float(getattr(f.solve(f.EXAMPLE_LOAD, **f.EXAMPLE), 'latency')) for f in fronts]; "
            "print(repr(r)); print('sympy' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MODELS_CACHE_DIR=str(tmp_path))
    run = lambda: subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,  # noqa: E731
                                 check=True, cwd=ROOT).stdout.split("\n")
    cold, warm = run(), run()
    assert cold[1] == "True" and warm[1] == "False"
    assert cold[0] == warm[0]


def test_warm_torus_ipp_does_not_import_sympy_or_scipy_linalg(tmp_path):
    """torus_ipp's chain (traffic.fit, queueing.mmpp_g1) loads its generated code from disk too."""
    code = ("import sys; import models.torus_ipp as t; "
            "r = [t.solve(0.002).latency, t.solve(0.003, k=8, V=4, M=32).latency, t.solve(0.002, traffic='poisson').latency]; "
            "print(repr(r)); print('sympy' in sys.modules, 'scipy.linalg' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MODELS_CACHE_DIR=str(tmp_path))
    run = lambda: subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,  # noqa: E731
                                 check=True, cwd=ROOT).stdout.split("\n")
    cold, warm = run(), run()
    assert cold[1] == "True True" and warm[1] == "False False"
    assert cold[0] == warm[0]


def test_the_chapters_result_page_modules_import_no_sympy():
    """The modules a chapter's result pages import (experiments, claims, glue, plots) import no SymPy: only the
    derivation pages need it, and importing it costs about half a second per notebook.  One child process imports
    every chapter's in turn and says after each whether SymPy is loaded (the first chapter that loads it is named)."""
    code = ("import importlib, sys, models\n"
            "for c in models.CHAPTERS:\n"
            "    for m in ('experiments', 'claims', 'glue', 'plots'):\n"
            "        importlib.import_module(f'models.{c}.{m}')\n"
            "    print(c, 'sympy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout.split()
    loaded = dict(zip(out[::2], out[1::2]))
    assert list(loaded) == list(models.CHAPTERS)
    first = [c for c, v in loaded.items() if v == "True"][:1]
    assert not first, f"the result-page modules of {first[0] if first else ''} import SymPy"
