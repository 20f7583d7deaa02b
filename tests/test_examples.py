"""Every example a reader copies from the README or the book's intro runs (issue #27, item 3).

The test extracts the fenced ``python`` blocks and the ``.venv/bin/python -m models...`` /
``papermill`` lines of the ``bash`` blocks of ``README.md`` and ``book/intro.md`` and runs them as
written, in a scratch folder (``runs/`` becomes a temporary folder; the cache is the test run's own), so a
change of a front door cannot leave a broken example behind.  Commands that build, install, start
services or write into the repository (``make``, ``pip``, ``git``, ``dask``, ``ssh``, ``openssl``,
``models.new_chapter``) are not examples of the book's results and are tested elsewhere
(``tests/test_makefile.py``, ``tests/test_dask.py``, ``tests/test_new_chapter.py``).  A configuration file
shown for a server (a ``py`` block: ``jupyterhub_config.py``) is not an example and does not run.  An example
both documents show runs once (:func:`_examples`).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from models.core.paths import ROOT

SOURCES = ("README.md", "book/intro.md")
#: The commands whose examples run here (the others are listed in the module docstring).
RUNS = re.compile(r"^(\.venv/bin/python -m models\.(?!new_chapter)|mkdir -p runs && cd runs && \.\./\.venv/bin/papermill)")


def _blocks(path: Path, lang: str) -> list[tuple[int, str]]:
    text = path.read_text()
    return [(text[:m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(rf"^```{lang}\n(.*?)^```", text, flags=re.M | re.S)]


def _commands(block: str) -> list[str]:
    """The block's commands, continuation lines joined, comments and blank lines dropped (a comment
    ``# prints X`` is kept as `` #prints X``, what the command must print)."""
    out, line = [], ""
    for raw in block.splitlines():
        said = re.search(r"#\s*prints (\S+)", raw)
        raw = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if said and raw:
            raw += f" #prints {said.group(1)}"
        if raw.endswith("\\"):
            line += raw[:-1] + " "
            continue
        line += raw
        if line.strip():
            out.append(line.strip())
        line = ""
    return out


def _examples():
    """The examples, each once: a command both documents show (the same words, lines broken elsewhere) runs once,
    its id naming both places."""
    found = {}  # (kind, the example's words) -> [kind, example, places, what]
    for name in SOURCES:
        for lineno, block in _blocks(ROOT / name, "python"):
            found.setdefault(("python", block), ["python", block, [], "python"])[2].append(f"{name}:{lineno}")
        for lineno, block in _blocks(ROOT / name, "bash"):
            for cmd in _commands(block):
                if RUNS.match(cmd) and "--scheduler" not in cmd and "make " not in cmd:  # a cluster build
                    found.setdefault(("bash", tuple(shlex.split(cmd))),
                                     ["bash", cmd, [], cmd.split()[2]])[2].append(f"{name}:{lineno}")
    return [pytest.param(kind, example, id=f"{'+'.join(places)}:{what}")
            for kind, example, places, what in found.values()]


def _env(tmp_path: Path) -> dict:
    """The example's environment.  The cache is this test run's (``MODELS_CACHE_DIR``, a fresh folder per run:
    conftest.py, ``make test``), shared with the other tests, as a reader's examples share one cache: a model an
    example derives or a point it simulates is not done again for the next (an example's own code still runs;
    the cache only saves the work a result it holds would repeat)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env["MPLBACKEND"] = "Agg"
    return env


def test_the_examples_are_found():
    kinds = [p.values[0] for p in _examples()]
    assert kinds.count("python") >= 5 and kinds.count("bash") >= 8
    assert not any("--scheduler" in p.values[1] for p in _examples())


@pytest.mark.slow
@pytest.mark.parametrize("kind, example", _examples())
def test_example_runs(kind, example, tmp_path):
    env = _env(tmp_path)
    expected = None
    if kind == "bash" and " #prints " in example:
        example, expected = example.split(" #prints ")
    if kind == "python":
        proc = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=900)
    else:
        runs = tmp_path / "runs"
        cmd = example.replace("../.venv/bin/papermill", f"{shlex.quote(sys.executable)} -m papermill")
        cmd = re.sub(r"(?<![\w/.])\.venv/bin/python", shlex.quote(sys.executable), cmd)
        cmd = re.sub(r"(?<![\w./])runs/", f"{runs}/", cmd).replace("mkdir -p runs && cd runs",
                                                                    f"mkdir -p {runs} && cd {runs}")
        cmd = cmd.replace("../notebooks/", f"{ROOT}/notebooks/")
        proc = subprocess.run(cmd, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{example}\n--- stdout\n{proc.stdout[-2000:]}\n--- stderr\n{proc.stderr[-3000:]}"
    if expected is not None:  # the README says what it prints
        assert expected in proc.stdout, (example, expected, proc.stdout)
