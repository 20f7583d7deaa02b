"""Run the book's notebooks through papermill: ``python -m models.pipeline``.

Papermill is the only thing that executes notebooks (DESIGN.md).  For every
``book/<chapter>/<NN-name>`` page listed in ``_toc.yml`` whose source
``notebooks/<chapter>/<NN-name>.ipynb`` exists, this module

1. resolves the parameters: the notebook's ``parameters`` cell, overlaid
   with ``notebooks/profiles.yaml[profile]["*"]``, the chapter's own
   ``notebooks/<chapter>/profiles.yaml[profile]["*"]``, then the entries for
   the notebook in each, then ``-p NAME VALUE`` from the command line (only parameters the notebook declares are injected; an
   unknown ``-p`` is an error);
2. computes the run's key: sha256 over the notebook without outputs, the
   resolved parameters, a hash of every ``*.py`` under ``models/``,
   ``requirements.txt`` and the Python and papermill versions;
3. skips the run when ``<chapter>/<NN-name>.provenance.json`` holds the same
   key and is the executed notebook's own (its ``output_sha256``; ``--force``
   runs it anyway); a notebook in the output's place *without* a provenance of
   its own (a student's copy, an executed notebook edited since) is never
   replaced, ``--force`` or not: the run stops before anything runs
   (:func:`replaceable`);
4. otherwise prints each stale notebook's expected time (its last run with
   the profile, else a stated estimate, scaled when ``-p`` changes the run
   lengths or network sizes: :func:`estimate`, with a warning past
   :data:`WARN_SCALE`) and the total, then executes it with
   papermill in a worker process of its own (a new session: the worker, its
   kernel and the kernel's simulation pool can be stopped together; on Linux
   the worker is forked from a warm process that imported what the notebooks
   need, and its kernel from the worker: :data:`PRELOAD`), with
   the working directory set to the output folder (so ``figures/`` and
   ``tables/`` land beside it and no machine path is injected), into a
   temporary file; the pipeline then commits notebook and provenance together
   (:func:`commit`: never a half-executed page, never a page with another
   run's provenance).  While it runs, the notebook's progress
   (:mod:`models.core.progress`: sweep points, figure curves) is relayed as
   ``chapter/notebook: 37/120 points, about 4 min left``, at most every 30 s;
   SIGINT or SIGTERM stops every worker and kernel, removes the temporary
   files, prints what finished and what did not, and exits with 128 + the
   signal's number; ``--jobs N`` runs up to N notebooks at a time and lends
   their simulations N cores, as tokens (:mod:`models.core.cores`, a folder in
   the pipeline's temporary folder named to the kernels in
   ``$MODELS_CORE_TOKENS``): at most N simulated points run at once, and a
   notebook left alone at the end uses all N;
   one pipeline at a time writes into a folder (a ``flock`` on
   ``<folder>/.pipeline.lock``, opened without following a symbolic link and
   refused unless a regular file of this user; a second one stops at once with
   ``error: another pipeline (pid N) is running into ...``);
5. on failure keeps the output in ``_build/failed/<chapter>/`` (with the
   umask's mode) and prints
   ``chapter/notebook cell N: Error: message``; the exit status is non-zero
   once every run has finished;
6. writes the reproducibility report (``book/_generated/runs.md`` and
   ``book/reproducibility-data.json``) that the book's reproducibility page
   includes.

Where it writes is checked first, by the one guard of every place the project writes
(:func:`models.core.paths.safe_destination`): ``--out`` and ``--book-dir``, and each
``<folder>/<chapter>`` (its ``figures/``, ``tables/``) a run writes into, symbolic links
followed, are never the repository or its sources; only the book's own build writes into
``book/``.

Readers re-run one notebook with their own parameters into a scratch folder::

    python -m models.pipeline notebooks/min_mva/02-response-time.ipynb -p n 7 --out runs/

"""

from __future__ import annotations

import argparse
import ast
import errno
import hashlib
import json
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any

import yaml

from .citation import write_cite_page
from . import CHAPTERS
from .core import cores, forked_kernel, forkserver, processes, progress
from .core.cache import atomic_write_json, atomic_write_text, canonical_json, file_mode, tree_hash
from .core.paths import (BUILD, CACHE_ENV, MODELS, NOTEBOOKS, ROOT, git_commit, read_regular, resolve_cache_dir,
                          safe_destination)
from .core.processes import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, prctl, reap

PROFILES = ("quick", "full")


# --------------------------------------------------------------------------- plan
@dataclass
class Run:
    """One papermill run: a source notebook, its parameters and where it goes."""

    chapter: str
    name: str  # NN-kebab-name, no suffix
    source: Path
    out_dir: Path
    parameters: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    base_key: str = ""  # the key before the dependencies of AFTER_NOTEBOOKS
    baseline: dict[str, Any] = field(default_factory=dict)  # the profile's parameters, before any -p (estimates)

    @property
    def slug(self) -> str:
        return f"{self.chapter}/{self.name}"

    @property
    def output(self) -> Path:
        return self.out_dir / f"{self.name}.ipynb"

    @property
    def provenance(self) -> Path:
        return self.out_dir / f"{self.name}.provenance.json"


def toc_pages(root: Path = ROOT) -> list[str]:
    """Every ``file:`` entry of ``_toc.yml`` (``book/<chapter>/<page>``), in reading order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    pages: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if key in node:
                    pages.append(str(node[key]))
            for value in node.values():
                if isinstance(value, (list, dict)):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return pages


def notebook_sources(root: Path = ROOT) -> list[tuple[str, str, Path]]:
    """(chapter, name, source) for each toc page that has a source notebook."""
    found = []
    for page in toc_pages(root):
        parts = Path(page).with_suffix("").parts
        if len(parts) == 3 and parts[0] == "book":
            src = root / "notebooks" / parts[1] / f"{parts[2]}.ipynb"
            if src.exists():
                found.append((parts[1], parts[2], src))
    return found


def read_yaml_mapping(path: Path) -> dict:
    """The mapping a YAML file holds (``{}`` when empty); ``ValueError`` naming the file when it is not one."""
    try:
        data = yaml.safe_load(Path(path).read_text())
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1}, column {where.column + 1})" if where is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ValueError(f"{path}: not valid YAML{line}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of profiles (quick:, full:), got a {type(data).__name__}")
    return data


def read_notebook(path: Path) -> dict:
    """A notebook's JSON; ``ValueError`` naming the file when it is not valid JSON (a truncated file)."""
    try:
        nb = json.loads(Path(path).read_text())
    except ValueError as exc:
        raise ValueError(f"{path}: not a valid notebook (JSON): {exc}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError(f"{path}: not a valid notebook (no list of cells)")
    return nb


def load_profiles(path: Path | None = None) -> dict:
    path = path or NOTEBOOKS / "profiles.yaml"
    data = read_yaml_mapping(path)
    for name in PROFILES:
        data.setdefault(name, {})
        if not isinstance(data[name] or {}, dict):
            raise ValueError(f"{path}: profile {name!r} must be a mapping of notebooks to parameters; "
                             f"got {data[name]!r}")
    return data


def notebook_defaults(source: Path) -> dict[str, Any]:
    """Parameter names and default values of the notebook's ``parameters`` cell.

    Parsed with :mod:`ast` (literals only, as the conventions require), so no
    kernel is started.
    """
    nb = read_notebook(source)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            text = "".join(cell["source"])
            values = {}
            try:
                body = ast.parse(text).body
            except SyntaxError as exc:
                raise ValueError(f"{source}: the parameters cell is not valid Python (line {exc.lineno}): {exc.msg}") from None
            for node in body:
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                    name = node.target.id
                elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                else:
                    raise ValueError(f"{source}: the parameters cell may hold only literal assignments")
                try:
                    values[name] = ast.literal_eval(node.value)
                except ValueError:
                    raise ValueError(f"{source}: parameter {name!r} is not a literal (the parameters cell may hold only literal assignments)") from None
            return values
    raise ValueError(f"{source}: no cell tagged 'parameters'")


def _coerce(text: str, default: Any) -> Any:
    """A ``-p`` value from the command line, typed like the notebook's default."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        value = text
    if value is None or text.strip() == "None":  # "null" / "None": an optional setting switched off
        return None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"expected true/false, got {text!r}")
        return value
    if isinstance(default, int) and isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(default, float) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(default, str):
        return str(text)
    if isinstance(default, list) and isinstance(value, list):
        return value
    if isinstance(value, type(default)):
        return value
    if isinstance(default, list):
        raise ValueError(f"expected a list like {default!r} (brackets and commas, quoted for the shell), got {text!r}")
    raise ValueError(f"expected a value like {default!r}, got {text!r}")


def resolve_parameters(
    chapter: str, name: str, source: Path, profile: str, overrides: dict[str, str] | None = None, profiles: dict | None = None
) -> dict[str, Any]:
    """Notebook defaults < profile ``*`` < chapter ``*`` < ``<chapter>/<name>`` < chapter ``<name>`` < command line.

    The global layers come from ``notebooks/profiles.yaml``; the chapter
    layers from ``notebooks/<chapter>/profiles.yaml`` if it exists (same
    format, keyed by notebook name without the chapter), so that each
    chapter owns its quick profile.
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}; got {profile!r}")
    defaults = notebook_defaults(source)
    profiles = load_profiles() if profiles is None else profiles
    prof = profiles.get(profile) or {}
    chapter_file = source.parent / "profiles.yaml"
    local = (read_yaml_mapping(chapter_file).get(profile) or {}) if chapter_file.exists() else {}
    params = dict(defaults)
    layers = (prof.get("*") or {}, local.get("*") or {}, prof.get(f"{chapter}/{name}") or {}, local.get(name) or {})
    for layer in layers:
        for key, value in layer.items():
            if key in defaults:
                params[key] = value
    if "profile" in defaults:
        params["profile"] = profile
    for key, text in (overrides or {}).items():
        if key not in defaults:
            raise ValueError(f"{chapter}/{name} has no parameter {key!r}; it has: {', '.join(defaults)}")
        try:
            params[key] = _coerce(text, defaults[key])
        except ValueError as exc:
            raise ValueError(f"{chapter}/{name}: -p {key}: {exc}") from None
    return params


def strip_outputs(nb: dict) -> dict:
    """The notebook with outputs, execution counts and volatile metadata removed."""
    nb = json.loads(json.dumps(nb))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        cell.get("metadata", {}).pop("execution", None)
    nb.get("metadata", {}).pop("papermill", None)
    return nb


def environment_fingerprint() -> dict[str, str]:
    """Versions that key every run (and appear in the report)."""
    import papermill

    req = ROOT / "requirements.txt"
    return {
        "python": platform.python_version(),
        "papermill": papermill.__version__,
        "requirements": hashlib.sha256(req.read_bytes()).hexdigest()[:16] if req.exists() else "none",
    }


def run_key(source: Path, parameters: dict, models_hash: str, env: dict) -> str:
    """sha256 over the stripped notebook, the parameters, ``models/`` and the environment."""
    nb = strip_outputs(read_notebook(source))
    h = hashlib.sha256()
    for part in (canonical_json(nb), canonical_json(parameters), models_hash, canonical_json(env)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


#: Notebooks that read the other chapters' outputs (their tables): run after every other
#: notebook, and keyed also by the other notebooks' run keys, so they are never stale.  The findings chapter's
#: comparison page, 02-one-network, simulates on its own and reads the torus_nbc chapter's saturation table, to
#: put the same network's two searches side by side.
AFTER_NOTEBOOKS = ("findings/01-claims", "findings/02-one-network", "findings/03-trust")


def runs_after(slug: str) -> bool:
    """Whether the notebook ``chapter/name`` reads other chapters' outputs (:data:`AFTER_NOTEBOOKS`)."""
    return slug in AFTER_NOTEBOOKS


def with_dependencies(key: str, slug: str, book_dir: Path) -> str:
    """``key`` extended, for a notebook of :data:`AFTER_NOTEBOOKS` (``slug`` = ``chapter/name``), by the
    run keys of every other notebook in ``book_dir`` (their provenance files); other keys unchanged."""
    if not runs_after(slug):
        return key
    deps = {}
    for prov in sorted(book_dir.glob("*/*.provenance.json")):
        if runs_after(f"{prov.parent.name}/{prov.name.removesuffix('.provenance.json')}"):
            continue
        try:
            deps[f"{prov.parent.name}/{prov.name}"] = json.loads(prov.read_text()).get("key")
        except (OSError, ValueError):
            deps[f"{prov.parent.name}/{prov.name}"] = None
    return hashlib.sha256((key + canonical_json(deps)).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_stamp(output: Path, provenance: Path) -> dict | None:
    """The provenance of ``output`` if both exist and belong together, else None.

    They belong together when the provenance's ``output_sha256`` is the
    notebook's hash: a notebook moved into place without its provenance (an
    interrupted commit, an older pipeline), or changed since, has no stamp.
    Only regular files are read (a FIFO named like a notebook has no stamp).
    """
    try:
        stamp = json.loads(read_regular(provenance))
        return stamp if stamp.get("output_sha256") == hashlib.sha256(read_regular(output)).hexdigest() else None
    except (OSError, ValueError, AttributeError):
        return None


def replaceable(run: Run) -> bool:
    """Whether the pipeline may write ``run.output``: nothing is there, or a notebook it wrote itself (its
    provenance is its own, :func:`read_stamp`).

    Anything else -- a student's copy written by :mod:`models.classroom` into a lab folder, an executed notebook
    edited since it ran, a reader's own file or link of that name -- is never replaced, even with ``--force``
    (review N-3: a run into the lab folder replaced a student's work).
    """
    return not os.path.lexists(run.output) or read_stamp(run.output, run.provenance) is not None


def refuse_foreign_outputs(runs: list[Run], option: str) -> None:
    """``CannotStart`` (status 2) naming ``option`` and the first notebook of ``runs`` the pipeline may not replace
    (:func:`replaceable`); checked before anything runs."""
    foreign = [r.output for r in runs if not replaceable(r)]
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise CannotStart(f"{option}: {foreign[0]}{more}: not a notebook the pipeline wrote (it has no provenance of "
                          "its own: a student's copy, or edited since it ran), so it is never replaced; move it away "
                          "or give another folder", 2)


def is_fresh(run: Run) -> bool:
    """True when notebook, provenance and key agree: the output exists, its provenance is
    its own (:func:`read_stamp`), succeeded, and carries the run's key."""
    stamp = read_stamp(run.output, run.provenance)
    return stamp is not None and stamp.get("key") == run.key and stamp.get("status") == "ok"


# --------------------------------------------------------------------------- processes
# Each notebook runs in a worker process of its own (``python -m models.pipeline --worker
# SPEC``, or on Linux forked from the fork server: :mod:`models.core.forkserver`) in a new
# session, so that the pipeline can stop it and everything under it: the worker, papermill's
# kernel (a session of its own, jupyter_client starts it so, or the worker forks it:
# :mod:`models.core.forked_kernel`) and the kernel's simulation pool.  A worker dies with the
# pipeline (Linux: PR_SET_PDEATHSIG, through the fork server, which exits with the pipeline),
# and on SIGTERM kills its own descendants first.


#: What the fork server (:mod:`models.core.forkserver`) imports before it forks the workers, so that neither a
#: worker nor its kernel imports it again: papermill and the kernel's IPython, the libraries the notebooks import,
#: the chapters, and the simulators' kernels numba's cache holds (:func:`models.sim.warm.preload_cached`).  Names,
#: not imports: the pipeline runs the chapters' notebooks, it does not call the chapters.  Three modules are left to
#: the kernel, each a few milliseconds, for what they do when imported: ipykernel's ``kernelapp`` (its
#: ``IPKernelApp`` reads ``JPY_PARENT_PID``, so that the kernel exits when its worker does, when the class is
#: defined), matplotlib's inline backend (it hooks itself into the running IPython, for the figures' images) and
#: :mod:`models.core.plotting` (it applies the book's matplotlib style, to the notebooks that import it only).
PRELOAD = ("papermill", "nbclient", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.iostream",
           "ipykernel.heartbeat", "ipykernel.parentpoller", "IPython.core.shellapp",
           "matplotlib.pyplot", "pandas", "scipy.linalg", "scipy.optimize", "scipy.stats", "sympy", "numba", "myst_nb",
           "models.core.tables", *(f"models.{slug}" for slug in CHAPTERS), "models.findings",
           "models.sim.warm:preload_cached")


def _children() -> dict[int, list[int]]:
    """pid -> child pids of every process we can see (``/proc``, else psutil, else nothing)."""
    kids: dict[int, list[int]] = {}
    proc = Path("/proc")
    if proc.is_dir():
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[-1].split()
            if len(fields) > 1:
                kids.setdefault(int(fields[1]), []).append(int(entry.name))
        return kids
    try:
        import psutil
    except ImportError:
        return kids
    for p in psutil.process_iter(["pid", "ppid"]):
        kids.setdefault(p.info["ppid"], []).append(p.info["pid"])
    return kids


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (parents before children)."""
    kids = _children()
    out, queue = [], [pid]
    while queue:
        p = queue.pop(0)
        out.append(p)
        queue.extend(c for c in kids.get(p, ()) if c not in out)
    return out


def kill_tree(pid: int, sig: int = signal.SIGKILL, include_root: bool = True) -> list[int]:
    """Send ``sig`` to ``pid``, its descendants and their process groups (never our own group).

    The tree is read first, so a process orphaned by the kill is still
    reached; a process forked meanwhile is in its parent's group.  Returns
    the pids signalled.
    """
    pids = process_tree(pid)
    if not include_root:
        pids = pids[1:]
    own = os.getpgrp()
    groups = set()
    for p in pids:
        try:
            groups.add(os.getpgid(p))
        except OSError:
            pass
    for g in groups - {own}:
        try:
            os.killpg(g, sig)
        except OSError:
            pass
    for p in pids:
        try:
            os.kill(p, sig)
        except OSError:
            pass
    return pids


def worker_env(run: Run | None, progress_file: Path | None, runtime_dir: Path, scheduler: str | None = None,
               base: dict | None = None, tokens: Path | None = None) -> dict[str, str]:
    """The environment of a notebook's worker and kernel (with ``run`` and ``progress_file`` None: of the fork
    server the workers are forked from, which has no notebook).

    ``MODELS_NOTEBOOK`` (the page, for figure provenance), ``MODELS_PROGRESS_FILE``
    (:mod:`models.core.progress`), ``JUPYTER_RUNTIME_DIR`` and ``TMPDIR`` (the
    kernel's connection file and any other temporary file, in the pipeline's
    temporary folder, which it removes), ``PYTHONPATH`` led by
    the folder this ``models`` package was imported from (the kernel runs the
    code the key hashed), with ``scheduler`` ``MODELS_DASK_SCHEDULER``
    (where :func:`models.sim.sweep.run_sweep` sends its points), and
    ``MODELS_CACHE_DIR`` as an absolute path (a relative one resolved here,
    against the pipeline's directory, not each kernel's ``book/<chapter>/``;
    an empty one dropped, so the kernels use the default cache), and with
    ``tokens`` ``MODELS_CORE_TOKENS``, the folder of the pipeline's cores
    that every notebook's simulations share (:mod:`models.core.cores`; an
    inherited one is dropped without it).
    """
    env = dict(os.environ if base is None else base)
    if CACHE_ENV in env:
        cache = resolve_cache_dir(env[CACHE_ENV])
        if cache is None:
            del env[CACHE_ENV]
        else:
            env[CACHE_ENV] = str(cache)
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    for name, value in (("MODELS_NOTEBOOK", run and run.slug), (progress.ENV, progress_file)):
        if value is None:
            env.pop(name, None)
        else:
            env[name] = str(value)
    env["JUPYTER_RUNTIME_DIR"] = env["TMPDIR"] = str(runtime_dir)
    here = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([here, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    if scheduler:
        env["MODELS_DASK_SCHEDULER"] = scheduler
    env.pop(cores.TOKENS_ENV, None)
    if tokens is not None:
        env[cores.TOKENS_ENV] = str(tokens)
    return env


def cpu_seconds() -> float:
    """Processor time (user + system, seconds) of this process and of every process it has waited for.

    In a worker that is the notebook's whole run: papermill reaps the kernel when the notebook ends, and the kernel
    reaps its sweep's pool workers, whose time it then counts as its own children's.  Points a Dask cluster
    computes elsewhere are not in it."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _execute(run: Run, timeout: int, failed_dir: Path, tmp: Path) -> dict:
    """Execute one run into ``tmp`` (in the worker process).  Returns a status dict, never raises: the wall
    time ``seconds`` and, on success, the processor time ``cpu_seconds`` (:func:`cpu_seconds`) of the run.

    On success the tidied notebook is left in ``tmp`` for the pipeline to
    commit with its provenance (:func:`commit`); on failure it is moved to
    ``failed_dir/<chapter>/``.
    """
    start = time.perf_counter()
    cpu0 = cpu_seconds()
    # the kernel's process, forked before papermill starts an event loop (forked_kernel), and the manager that
    # hands it the kernel; or jupyter_client's own start (a new interpreter), the fork server off
    forked = {}
    if forkserver.enabled():
        forked_kernel.prefork()
        forked["kernel_manager_class"] = forked_kernel.ForkKernelManager
    import papermill as pm

    try:
        pm.execute_notebook(
            str(run.source),
            str(tmp),
            parameters=run.parameters,
            kernel_name="python3",
            cwd=str(run.out_dir),
            execution_timeout=timeout,
            progress_bar=False,
            log_output=False,
            # the kernel listens on localhost only; its warning about TCP without encryption is noise here
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
            **forked,
        )
        nb = json.loads(Path(tmp).read_text())
        nb.get("metadata", {}).pop("papermill", None)  # drop volatile timestamps and paths
        for cell in nb.get("cells", []):
            cell.get("metadata", {}).pop("papermill", None)
            cell.get("metadata", {}).pop("execution", None)
            if "outputs" in cell:
                cell["outputs"] = merge_streams(cell["outputs"])
        _tidy_injected_cell(nb, notebook_defaults(run.source))
        Path(tmp).write_text(json.dumps(nb, indent=1) + "\n")
        return {"slug": run.slug, "status": "ok", "seconds": time.perf_counter() - start,
                "cpu_seconds": cpu_seconds() - cpu0}
    except Exception as exc:  # noqa: BLE001 - report every failure, keep going
        seconds = time.perf_counter() - start
        where = ""
        cell = getattr(exc, "exec_count", None)
        if cell is not None:
            where = f" cell {cell}"
        ename = getattr(exc, "ename", type(exc).__name__)
        evalue = str(getattr(exc, "evalue", exc)).strip().splitlines()
        message = evalue[0] if evalue else ""
        return {
            "slug": run.slug,
            "status": "failed",
            "seconds": seconds,
            "error": f"{run.slug}{where}: {ename}: {message}",
            "failed_notebook": str(_keep_failed(run, tmp, failed_dir)),
        }


def _keep_failed(run: Run, tmp: Path, failed_dir: Path) -> Path:
    """Move the executed notebook ``tmp`` to ``failed_dir/<chapter>/<name>.ipynb`` with the umask's mode (mkstemp
    made it 0600; kept files follow the umask like the rest); its place, moved or not (I/O faults are ignored)."""
    dest = failed_dir / run.chapter / f"{run.name}.ipynb"
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if Path(tmp).exists():
            os.replace(tmp, dest)
            os.chmod(dest, file_mode())
    except OSError:
        pass
    return dest


def _worker_main(spec_path: str) -> int:
    """The worker process: run one notebook as ``spec_path`` says, write the result file."""
    spec = json.loads(Path(spec_path).read_text())
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the pipeline's death is our SIGTERM
    tmp = Path(spec["tmp"])

    def stop(signum, frame):  # kill the kernel and its pool, leave no temp file, no traceback
        kill_tree(os.getpid(), signal.SIGKILL, include_root=False)
        tmp.unlink(missing_ok=True)
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop)
    if os.getppid() != spec["parent"]:  # the pipeline died before PR_SET_PDEATHSIG took effect
        stop(signal.SIGTERM, None)
    r = spec["run"]
    run = Run(r["chapter"], r["name"], Path(r["source"]), Path(r["out_dir"]), r["parameters"])
    result = _execute(run, spec["timeout"], Path(spec["failed_dir"]), tmp)
    atomic_write_json(spec["result"], result)
    return 0


# --------------------------------------------------------------------------- execute
def merge_streams(outputs: list[dict]) -> list[dict]:
    """A cell's outputs with each run of consecutive ``stream`` outputs of one stream (stdout, stderr) merged into
    one, as Jupyter shows them.  How a cell's printed text is cut into outputs depends on when the kernel flushed
    it: ipykernel sends what was written every 0.2 s, so a ``print`` can arrive as its text and, in another output,
    its newline when the machine is busy.  Merged, the executed notebook does not depend on the machine's load: a
    merged output's text is kept as its lines, as nbformat writes the text of an output that came whole."""
    merged: list[dict] = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None and prev.get("output_type") == "stream"
                and prev.get("name") == out.get("name")):
            text = out.get("text", "")
            prev["text"] = (("".join(prev["text"]) if isinstance(prev["text"], list) else prev["text"])
                            + ("".join(text) if isinstance(text, list) else text)).splitlines(keepends=True)
        else:
            merged.append(out)
    return merged


def _tidy_injected_cell(nb: dict, defaults: dict) -> None:
    """Show only what papermill changed: the injected values that differ from the defaults.

    The rendered page then shows the parameters cell (defaults, with their
    meaning and unit) followed, when the run used other values, by one cell
    listing just those.  The code that ran is equivalent: the injected cell
    runs after the defaults.
    """
    for cell in nb.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        if "injected-parameters" not in tags:
            continue
        values = {}
        for node in ast.parse("".join(cell["source"])).body:
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                try:
                    values[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
        changed = {k: v for k, v in values.items() if k not in defaults or defaults[k] != v}
        if changed:
            lines = ["# Parameters of this run that differ from the defaults above"]
            lines += [f"{k} = {v!r}" for k, v in changed.items()]
            cell["source"] = "\n".join(lines)
        else:
            cell.setdefault("metadata", {})["tags"] = [*tags, "remove-cell"]


def _stamp(run: Run, result: dict, profile: str, env: dict, commit: str) -> dict:
    return {
        "notebook": run.slug,
        "source": str(run.source.relative_to(ROOT)) if run.source.is_relative_to(ROOT) else str(run.source),
        "profile": profile,
        "parameters": run.parameters,
        "key": run.key,
        "status": result["status"],
        "seconds": round(result["seconds"], 2),
        **({"cpu_seconds": round(result["cpu_seconds"], 2)} if "cpu_seconds" in result else {}),
        "commit": commit,
        "finished": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        **env,
    }


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for pkg in ("numpy", "scipy", "sympy", "numba", "matplotlib", "pandas", "papermill", "jupyter-book"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def collect_stamps(book_dir: Path, sources: list[tuple[str, str, Path]] | None = None) -> list[dict]:
    """The provenance stamps of every toc notebook that has an output in ``book_dir``, in reading order."""
    stamps = []
    for chapter, name, _ in sources if sources is not None else notebook_sources():
        stamp = read_stamp(book_dir / chapter / f"{name}.ipynb", book_dir / chapter / f"{name}.provenance.json")
        if stamp is not None:
            stamps.append(stamp)
    return stamps


def write_report(book_dir: Path, stamps: list[dict], profile: str) -> None:
    """The reproducibility report: a Markdown table included by ``book/reproducibility.md``.

    ``stamps`` are this invocation's runs; the report also lists every other
    notebook whose output is in ``book_dir`` (from its provenance file), so a
    partial run never hides the rest of the book.
    """
    by_slug = {s["notebook"]: s for s in collect_stamps(book_dir)}
    by_slug.update({s["notebook"]: s for s in stamps})
    order = [f"{c}/{n}" for c, n, _ in notebook_sources()]
    stamps = [by_slug[k] for k in order if k in by_slug] + [s for k, s in by_slug.items() if k not in order]
    versions = _versions()
    data = {"profile": profile, "commit": git_commit(), "python": platform.python_version(), "versions": versions, "runs": stamps}
    atomic_write_json(book_dir / "reproducibility-data.json", data)
    profiles = sorted({s.get("profile", "?") for s in stamps})
    lines = [
        f"Generated by `python -m models.pipeline` (profile{'s' if len(profiles) > 1 else ''} "
        f"{', '.join(profiles)}) at commit `{data['commit']}` "
        f"with Python {data['python']} on {platform.system()} {platform.machine()}.",
        "",
        "| notebook | profile | status | wall time (s) | CPU time (s) | parameters | key |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in stamps:
        params = ", ".join(f"`{k}={v!r}`" for k, v in s["parameters"].items())
        cpu = f"{s['cpu_seconds']:.1f}" if isinstance(s.get("cpu_seconds"), (int, float)) else "-"
        lines.append(f"| {s['notebook']} | {s['profile']} | {s['status']} | {s['seconds']:.1f} | {cpu} | {params} "
                     f"| `{s['key'][:12]}` |")
    cpus = [s.get("cpu_seconds") for s in stamps]
    if stamps and all(isinstance(c, (int, float)) for c in cpus):
        total = f"{sum(cpus) / 60:.1f} CPU-minutes"
        lines += ["", f"In all, the notebook took {total}." if len(stamps) == 1 else
                  f"In all, the {len(stamps)} notebooks took {total} (their wall times overlap: the pipeline runs "
                  "several notebooks at a time)."]
    lines += ["", "| package | version |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in versions.items()]
    atomic_write_text(book_dir / "_generated" / "runs.md", "\n".join(lines) + "\n")
    write_cite_page(book_dir, data["commit"])


def remove_orphans(book_dir: Path, runs: list[Run]) -> list[Path]:
    """Delete the generated notebooks in ``book/<chapter>/`` whose source notebook no longer exists.

    Only files this pipeline wrote are touched: a notebook is removed only with
    its own provenance file (:func:`read_stamp`: the provenance names the
    notebook's hash) that names it as ``<chapter>/<name>``, only inside the
    repository's ``book/`` folder (a ``--book-dir`` elsewhere is never cleaned),
    and each removal is printed.  A reader's own notebook in a chapter folder
    has no such stamp and stays.
    """
    book_dir = Path(book_dir).resolve()
    if not book_dir.is_relative_to((ROOT / "book").resolve()):
        return []
    keep = {r.output.resolve() for r in runs}
    removed = []
    for out in book_dir.glob("*/*.ipynb"):
        chapter, name = out.parent.name, out.stem
        if out.resolve() in keep or (NOTEBOOKS / chapter / f"{name}.ipynb").exists():
            continue
        prov = out.with_suffix(".provenance.json")
        stamp = read_stamp(out, prov)
        if stamp is None or stamp.get("notebook") != f"{chapter}/{name}":
            continue  # not written by the pipeline: never ours to delete
        out.unlink()
        prov.unlink()
        removed.append(out)
        print(f"removed {out.relative_to(book_dir)} and its provenance (its source notebook is gone)", file=sys.stderr)
    return removed


def written_folders(runs: list[Run], report: bool = True) -> tuple[str, ...]:
    """The folders, relative to the output folder, that ``runs`` write into: each chapter's, its ``figures/`` and
    ``tables/`` and, for the book (``report``), the report's ``_generated/``."""
    folders = [f"{r.chapter}{sub}" for r in runs for sub in ("", "/figures", "/tables")]
    return tuple(dict.fromkeys(folders + (["_generated"] if report else [])))


def check_out_dir(out: Path, option: str = "--out", chapters: tuple[str, ...] = (), book: bool = False) -> Path:
    """``out`` resolved, or ``ValueError`` (a ``ParameterError`` naming ``option``) when it, or one of its
    ``<out>/<chapter>`` folders for ``chapters``, is the repository's root or inside its sources
    (:func:`models.core.paths.safe_destination`, the one guard of every place the project writes; ``book=True``
    for ``--book-dir``, which may be the book's own ``book/``)."""
    return safe_destination(out, option, subfolders=chapters, book=book)


def plan(
    selected: list[str] | None,
    profile: str,
    overrides: dict[str, str] | None = None,
    book_dir: Path | None = None,
    out_dir: Path | None = None,
) -> list[Run]:
    """The runs to consider: every toc notebook, or the ones named in ``selected``."""
    book_dir = book_dir or ROOT / "book"
    sources = notebook_sources()
    if selected:
        wanted = []
        for item in selected:
            path = Path(item)
            if path.suffix == ".ipynb" and path.exists():
                path = path.resolve()
                if path.parent.parent != NOTEBOOKS.resolve():
                    raise ValueError(f"{item}: notebooks live in notebooks/<chapter>/NN-name.ipynb")
                wanted.append((path.parent.name, path.stem, path))
                continue
            slug = item.removesuffix(".ipynb").removeprefix("notebooks/")
            matches = [s for s in sources if f"{s[0]}/{s[1]}" == slug or s[0] == slug]
            if not matches:
                raise ValueError(f"no notebook or chapter {item!r} in _toc.yml")
            wanted.extend(matches)
        sources = list(dict.fromkeys(wanted))
    models_hash = tree_hash(MODELS)
    env = environment_fingerprint()
    profiles = load_profiles()
    runs = []
    for chapter, name, source in sources:
        params = resolve_parameters(chapter, name, source, profile, overrides, profiles)
        target = (out_dir / chapter) if out_dir else (book_dir / chapter)
        run = Run(chapter, name, source, target, params)
        if overrides:  # what the stated estimates were measured with: the estimate scales from it (work_scale)
            run.baseline = resolve_parameters(chapter, name, source, profile, None, profiles)
        run.base_key = run_key(source, params, models_hash, env)
        run.key = with_dependencies(run.base_key, run.slug, book_dir)
        runs.append(run)
    return runs


# --------------------------------------------------------------------------- expected times
#: Stated estimates (seconds per notebook, quick profile) for a notebook with no previous run of
#: the profile: measured on 2 shared cores, 2 notebooks at a time, warm simulation cache absent
#: (commit 4cbf756).  Unknown notebooks get :data:`DEFAULT_QUICK_SECONDS`.
QUICK_SECONDS = {
    "min_mva/01-derivation": 8, "min_mva/02-single-packet": 13, "min_mva/03-multi-packet": 9,
    "min_mva/04-tables": 5, "torus_dor/01-derivation": 4, "torus_dor/02-latency": 13,
    "torus_dor/03-comparison": 27, "torus_dor/04-assumptions": 11, "torus_ipp/01-traffic": 9,
    "torus_ipp/02-latency": 27, "torus_ipp/03-burstiness": 48, "torus_nbc/01-derivation": 5,
    "torus_nbc/02-latency": 10, "torus_nbc/03-routing-comparison": 9, "xfolded_tm/01-topology": 8,
    "xfolded_tm/02-model": 7, "xfolded_tm/03-delay": 43, "findings/01-claims": 2, "findings/02-one-network": 8,
    # the exercises pages, measured from an empty simulation cache (2 cores, one at a time)
    "min_mva/06-exercises": 9, "torus_dor/06-exercises": 28, "torus_ipp/05-exercises": 16,
    "torus_nbc/05-exercises": 12, "xfolded_tm/05-exercises": 15,
    # the atlas pages (their quick grids) and the page that reads them
    "min_mva/05-atlas": 6, "torus_dor/05-atlas": 18, "torus_ipp/04-atlas": 20, "torus_nbc/04-atlas": 10,
    "xfolded_tm/04-atlas": 15, "findings/03-trust": 3,
    # the warm-up part, measured from an empty simulation cache (one at a time, on a shared machine)
    "tools/01-zero-load": 12, "tools/02-littles-law": 10, "tools/03-mg1-wait": 11, "tools/04-saturation": 18,
    "tools/05-exercises": 7,
}
DEFAULT_QUICK_SECONDS = 15
#: Stated estimates (seconds per notebook) of the full profile, from an empty cache on 2 cores, 2 notebooks at a
#: time sharing the 2 cores (:mod:`models.core.cores`; measured with ``make book`` from a fresh clone at commit
#: d8aba78).  They also order a first build (:func:`next_run`: the chapter with the most time left first).
FULL_SECONDS = {
    "min_mva/01-derivation": 4, "min_mva/02-single-packet": 128, "min_mva/03-multi-packet": 87,
    "min_mva/04-tables": 186, "torus_dor/01-derivation": 4, "torus_dor/02-latency": 569,
    "torus_dor/03-comparison": 27, "torus_dor/04-assumptions": 49, "torus_ipp/01-traffic": 17,
    "torus_ipp/02-latency": 186, "torus_ipp/03-burstiness": 207, "torus_nbc/01-derivation": 13,
    "torus_nbc/02-latency": 178, "torus_nbc/03-routing-comparison": 295, "xfolded_tm/01-topology": 8,
    "xfolded_tm/02-model": 5, "xfolded_tm/03-delay": 186, "findings/01-claims": 4, "findings/02-one-network": 29,
    "min_mva/06-exercises": 11, "torus_dor/06-exercises": 15, "torus_ipp/05-exercises": 7,
    "torus_nbc/05-exercises": 10, "xfolded_tm/05-exercises": 6,
    # the atlas pages: measured one chapter at a time on one core (CPU seconds), before the book's grid was cut
    "min_mva/05-atlas": 80, "torus_dor/05-atlas": 120, "torus_ipp/04-atlas": 60, "torus_nbc/04-atlas": 130,
    "xfolded_tm/04-atlas": 300, "findings/03-trust": 5,
    "tools/01-zero-load": 11, "tools/02-littles-law": 8, "tools/03-mg1-wait": 12, "tools/04-saturation": 14,
    "tools/05-exercises": 11,
}
#: A notebook of neither table (a reader's own page) is estimated at its quick time (or the default) times this.
FULL_OVER_QUICK = 27


#: The notebook parameters a time scales with (review N-12: ``-p networks "[[64, 64]]" -p messages 100000000`` was
#: planned as "about 13 s").  A simulation's work grows with its run lengths (the messages, cycles or customers of
#: a point, its warm-up and its saturation probes: their sum; ``min_``/``max_`` bounds aside), with the distance a
#: message travels (about the largest radix of the networks) and with its length in flits (the largest ``M``).  A
#: parameter counts when its name is one of the words or ends in ``_<word>`` (``warmup_messages``,
#: ``occ_radices``, ``fig1_M_values``): the shared vocabulary of ``notebooks/profiles.yaml`` and the chapters'.
RUN_LENGTH_WORDS = ("messages", "cycles", "customers")
RADIX_WORDS = ("k", "k_values", "radices", "networks")
FLIT_WORDS = ("M", "M_values")
#: A notebook whose simulated work the parameters multiply by at least this is announced with a warning, and its
#: time left comes from its finished points alone (such an extrapolation is no floor).
WARN_SCALE = 10.0


def _named(name: str, words: tuple[str, ...]) -> bool:
    return not name.startswith(("min_", "max_")) and (name in words or name.endswith(tuple(f"_{w}" for w in words)))


def _numbers(value: Any) -> list[float]:
    """The positive numbers in ``value`` (a number, or nested lists of them); booleans and text are none."""
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _numbers(v)]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < float("inf"):
        return [float(value)]
    return []


def _work(parameters: dict[str, Any]) -> dict[str, tuple[float, list[str]]]:
    """Each factor of a notebook's simulated work (:data:`RUN_LENGTH_WORDS` summed, the largest radix, the largest
    message length) with the parameters it comes from; a factor no parameter names is left out."""
    factors = {}
    for factor, words, combine in (("run length", RUN_LENGTH_WORDS, sum), ("radix", RADIX_WORDS, max),
                                   ("message length", FLIT_WORDS, max)):
        names = [n for n, v in parameters.items() if _named(n, words) and _numbers(v)]
        if names:
            factors[factor] = (combine(x for n in names for x in _numbers(parameters[n])), names)
    return factors


def work_scale(parameters: dict[str, Any], reference: dict[str, Any]) -> tuple[float, list[str]]:
    """How many times the simulated work of a run with ``parameters`` is that of one with ``reference`` (the
    product of the ratios of :func:`_work`'s factors that both name), and the parameters that differ."""
    mine, theirs = _work(parameters), _work(reference)
    scale, changed = 1.0, []
    for factor, (value, names) in mine.items():
        if factor in theirs:
            scale *= value / theirs[factor][0]
            changed += [n for n in names if parameters[n] != reference.get(n)]
    return scale, changed


@dataclass(frozen=True)
class Estimate:
    """A run's expected time: ``seconds`` (scaled), where the time comes from (``"last run"`` or
    ``"estimate"``), and the ``scale`` of :func:`work_scale` with the parameters it comes from."""

    seconds: float
    source: str
    scale: float = 1.0
    changed: tuple[str, ...] = ()

    @property
    def scaled(self) -> bool:
        return bool(self.changed) and abs(self.scale - 1.0) > 0.05

    def note(self) -> str:
        """``""``, `` (estimate)``, or `` (estimate scaled x140 by messages, networks)`` for the plan's lines."""
        if not self.scaled:
            return "" if self.source == "last run" else " (estimate)"
        times = f"{self.scale:.2g}" if self.scale < 10 else f"{round(self.scale):,}"
        return f" ({self.source} scaled x{times} by {', '.join(self.changed)})"


def estimate(run: Run, profile: str) -> Estimate:
    """How long ``run`` is expected to take: its last run with this profile (the provenance beside its output,
    even if stale), else the stated estimate of its profile (:data:`QUICK_SECONDS`, :data:`FULL_SECONDS`), scaled
    by :func:`work_scale` from the parameters that time was measured with (the last run's, or the profile's
    before any ``-p``) to the run's."""
    try:
        stamp = json.loads(read_regular(run.provenance))
        if stamp.get("profile") == profile and stamp.get("status") == "ok" and float(stamp["seconds"]) > 0:
            seconds, source, reference = float(stamp["seconds"]), "last run", stamp.get("parameters")
        else:
            raise ValueError("not a run of this profile")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        quick = QUICK_SECONDS.get(run.slug, DEFAULT_QUICK_SECONDS)
        seconds = float(quick if profile == "quick" else FULL_SECONDS.get(run.slug, quick * FULL_OVER_QUICK))
        source, reference = "estimate", run.baseline
    if not isinstance(reference, dict) or not reference:
        return Estimate(seconds, source)
    scale, changed = work_scale(run.parameters, reference)
    return Estimate(seconds * scale, source, scale, tuple(changed))


def expected_seconds(run: Run, profile: str) -> tuple[float, str]:
    """(seconds, source) a run is expected to take (:func:`estimate`): ``"last run"`` or ``"estimate"``."""
    est = estimate(run, profile)
    return est.seconds, est.source


def relayed_expected(run: Run, profile: str) -> float | None:
    """The expected time the progress relay counts down from (:class:`models.core.progress.NotebookProgress`), or
    None when it is an extrapolation of :data:`WARN_SCALE` or more: the time left then comes from the rate of the
    finished points alone, once the first have finished."""
    est = estimate(run, profile)
    return None if est.scaled and est.scale >= WARN_SCALE else est.seconds


def scale_warnings(runs: list[Run], profile: str) -> list[str]:
    """A warning for each run whose parameters multiply its simulated work by :data:`WARN_SCALE` or more."""
    lines = []
    for r in runs:
        est = estimate(r, profile)
        if est.scaled and est.scale >= WARN_SCALE:
            lines.append(f"warning: {r.slug}: {', '.join(est.changed)} multiply its simulated work about "
                         f"x{round(est.scale):,}: about {progress.format_duration(est.seconds)} if its "
                         f"{progress.format_duration(est.seconds / est.scale)} ({est.source}) scale with it, a rough "
                         "extrapolation; the time left follows from its first finished points.  Ctrl-C stops it "
                         "cleanly and the finished points stay cached")
    return lines


def next_run(pending: list[Run], running_chapters: set[str], seconds: dict[str, float]) -> Run:
    """The notebook to start next in a free slot.

    A chapter's notebooks share simulation points (a later page re-reads an
    earlier one's runs from the cache), so they run in reading order and,
    where possible, not at the same time: the next notebook of the chapter
    with the most expected time left among those not running now (the
    longest chain first, so the chapters finish together).  When every
    pending notebook's chapter is running, the first pending one starts
    anyway (a point both ask for is still simulated once: the cache's
    computing lock makes the second wait for the first).
    """
    left: dict[str, float] = {}
    for r in pending:
        left[r.chapter] = left.get(r.chapter, 0.0) + seconds.get(r.slug, 0.0)
    free = [c for c in left if c not in running_chapters]
    if not free:
        return pending[0]
    chapter = max(free, key=lambda c: (left[c], -[r.chapter for r in pending].index(c)))
    return next(r for r in pending if r.chapter == chapter)


def planned_wall(runs: list[Run], seconds: dict[str, float], jobs: int) -> float:
    """Wall time of ``runs`` as :func:`execute` schedules them (:func:`next_run` on ``jobs`` slots),
    the other notebooks first, then :data:`AFTER_NOTEBOOKS`."""
    wall = 0.0
    for after in (False, True):
        pending = [r for r in runs if runs_after(r.slug) == after]
        running: list[tuple[float, str]] = []  # (end time, chapter)
        now = 0.0
        while pending or running:
            while pending and len(running) < max(1, jobs):
                r = next_run(pending, {c for _, c in running}, seconds)
                pending.remove(r)
                running.append((now + seconds.get(r.slug, 0.0), r.chapter))
            running.sort()
            now, _ = running.pop(0)
        wall += now
    return wall


def _plan_lines(todo: list[Run], profile: str, jobs: int) -> list[str]:
    """The table printed before running: each notebook's expected time and the total.

    The wall time is :func:`planned_wall`: the schedule of :func:`execute`.
    """
    times = {r.slug: estimate(r, profile) for r in todo}
    width = max(len(r.slug) for r in todo)
    lines = [f"  {r.slug:<{width}}  about {progress.format_duration(times[r.slug].seconds)}{times[r.slug].note()}"
             for r in todo]
    wall = planned_wall(todo, {slug: t.seconds for slug, t in times.items()}, jobs)
    lines.append(f"  expected: about {progress.format_duration(wall)} "
                 f"({progress.format_duration(sum(t.seconds for t in times.values()))} of notebook time, {jobs} at a "
                 "time; times from each notebook's last run with this profile, else a stated estimate, scaled by "
                 "other run lengths and network sizes)")
    return lines + scale_warnings(todo, profile)


# --------------------------------------------------------------------------- commit
def commit(run: Run, tmp: Path, stamp: dict) -> None:
    """Move an executed notebook and its provenance into place together.

    The provenance records the notebook's sha256; the old provenance is
    removed first, the notebook renamed, the new provenance renamed last.
    Stopped anywhere in between, the folder holds no notebook whose
    provenance claims it (:func:`read_stamp`).  Both files get the umask's mode.
    """
    mode = file_mode()
    stamp = {**stamp, "output_sha256": file_sha256(tmp)}
    os.chmod(tmp, mode)
    fd, ptmp = tempfile.mkstemp(prefix=f".{run.provenance.name}.", suffix=".tmp", dir=run.out_dir)
    try:
        with os.fdopen(fd, "w") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(json.dumps(stamp, indent=2, sort_keys=True, default=str) + "\n")
        run.provenance.unlink(missing_ok=True)
        os.replace(tmp, run.output)
        os.replace(ptmp, run.provenance)
    finally:
        Path(ptmp).unlink(missing_ok=True)


class CannotStart(RuntimeError):
    """The pipeline cannot start: another pipeline writes into the same folder, or the folder is not writable.

    ``status`` is the exit status :func:`main` returns (1 busy, 2 unwritable).
    """

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


#: The lock file of a pipeline writing into a folder (``book/.pipeline.lock``); removed when the run ends.
LOCK_NAME = ".pipeline.lock"


class PipelineLock:
    """One pipeline per output folder: a non-blocking ``flock`` on ``<folder>/.pipeline.lock``.

    The file holds the holder's pid (for the message of a second pipeline)
    and is removed by its holder on release; a holder killed with SIGKILL
    leaves the file, but the kernel drops its lock, so the next pipeline
    takes it over.  Two pipelines on one clone would otherwise execute the
    same notebooks twice, and one's stop could remove the other's temp files.
    """

    def __init__(self, folder: Path, option: str = ""):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.fd: int | None = None
        self.where = f"{option}: " if option else ""  # the folder's option, naming it in an error of status 2

    def acquire(self) -> "PipelineLock":
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not Linux/macOS: no lock
            return self
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CannotStart(f"{self.where}cannot create the output folder {self.folder}: {exc.strerror or exc}", 2) \
                from None
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise CannotStart(f"another pipeline (pid {holder}) is running into {self.folder}; wait for it to "
                                  f"finish or stop it (its lock: {self.path})") from None
            # the file we locked may have been removed by a holder releasing it meanwhile: lock the current one
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            mine = os.fstat(fd)
            if current is not None and (current.st_dev, current.st_ino) == (mine.st_dev, mine.st_ino):
                break
            os.close(fd)
        os.ftruncate(fd, 0)  # only now, holding the lock on a regular file of ours (never a link's target)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def _open(self) -> int:
        """The lock file opened (created if missing) without following a symbolic link, blocking on a FIFO or
        taking a terminal; ``CannotStart`` (status 2) unless it is a regular file of this user with one name
        (review N-4: a ``.pipeline.lock`` linked to a user's file had that file emptied)."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NOCTTY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.path, flags, 0o666)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise CannotStart(f"{self.where}{self.path} is a symbolic link; the pipeline never follows it: "
                                  "remove it", 2) from None
            raise CannotStart(f"{self.where}cannot write the lock {self.path}: {exc.strerror or exc}", 2) from None
        st = os.fstat(fd)
        problem = ("not a regular file" if not S_ISREG(st.st_mode)
                   else f"a file of another user (uid {st.st_uid})" if st.st_uid != os.geteuid()
                   else f"a file with {st.st_nlink} names (a hard link)" if st.st_nlink != 1 else "")
        if problem:
            os.close(fd)
            raise CannotStart(f"{self.where}{self.path} is {problem}, not a lock this pipeline made; "
                              "it is left as it is: remove it", 2)
        return fd

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # still ours: nobody removes it without the lock
        except OSError:
            pass
        finally:
            os.close(self.fd)
            self.fd = None


class Interrupted(KeyboardInterrupt):
    """The pipeline stopped on a signal (after cleaning up); ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass
class _Worker:
    run: Run
    proc: subprocess.Popen | forkserver.Forked
    tmp: Path
    result: Path
    log: Path
    progress: progress.NotebookProgress
    progress_file: Path
    offset: int = 0
    printed: float = 0.0


CELL_TIMEOUT = {"quick": 600, "full": 4 * 3600}
"""Seconds one notebook cell may run before the run fails (``$MODELS_CELL_TIMEOUT`` overrides).

A full-profile torus figure is one cell that simulates for tens of minutes on
an idle 2-core machine and over half an hour on a loaded one, hence hours, not
the quick profile's ten minutes."""


def cell_timeout(profile: str) -> int:
    """The cell timeout for ``profile`` in seconds (:data:`CELL_TIMEOUT`, or ``$MODELS_CELL_TIMEOUT``)."""
    raw = os.environ.get("MODELS_CELL_TIMEOUT")
    if raw:
        try:
            value = int(float(raw))
        except ValueError:
            raise ValueError(f"MODELS_CELL_TIMEOUT must be a number of seconds, got {raw!r}") from None
        if value <= 0:
            raise ValueError(f"MODELS_CELL_TIMEOUT must be positive, got {raw!r}")
        return value
    return CELL_TIMEOUT.get(profile, CELL_TIMEOUT["full"])


def _spawn(run: Run, workdir: Path, timeout: int, failed_dir: Path, scheduler: str | None,
           expected: float | None, tokens: Path | None = None,
           server: forkserver.ForkServer | None = None) -> _Worker:
    run.out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{run.name}.", suffix=".ipynb", dir=run.out_dir)
    os.close(fd)
    base = workdir / f"{run.chapter}--{run.name}"
    (runtime := base.with_suffix(".tmp")).mkdir()
    spec = {"run": {"chapter": run.chapter, "name": run.name, "source": str(run.source), "out_dir": str(run.out_dir),
                    "parameters": run.parameters},
            "timeout": timeout, "failed_dir": str(failed_dir), "tmp": tmp, "result": str(base.with_suffix(".result")),
            "parent": os.getpid()}
    spec_path = str(base.with_suffix(".spec"))
    pfile = base.with_suffix(".progress")
    log = base.with_suffix(".log")
    env = worker_env(run, pfile, runtime, scheduler, tokens=tokens)
    proc = None
    if server is not None and not server.failed:  # forked from the warm process, whose child it is
        base.with_suffix(".spec").write_text(json.dumps({**spec, "parent": server.proc.pid}))
        log.write_bytes(b"")
        try:
            proc = server.spawn("models.pipeline:_worker_main", [spec_path], env, os.getcwd(), str(log),
                                [__file__, "--worker", spec_path])
        except forkserver.ForkServerError as exc:
            print(f"{exc}; every notebook from now on starts as a new interpreter", flush=True)
    if proc is None:
        if server is not None:  # it failed: the kernel starts as a new interpreter too
            env[forkserver.ENV] = "0"
        base.with_suffix(".spec").write_text(json.dumps(spec))
        with open(log, "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "models.pipeline", "--worker", spec_path],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True, env=env)
    now = time.time()
    return _Worker(run, proc, Path(tmp), base.with_suffix(".result"), log,
                   progress.NotebookProgress(run.slug, now, expected), pfile, printed=now)


def _stop(workers: list[_Worker]) -> None:
    """Kill every worker's process tree, wait for the workers and for the descendants the kill orphaned (they are
    ours now: the pipeline is a subreaper), remove their temp files."""
    killed = []
    for w in workers:
        killed += kill_tree(w.proc.pid, signal.SIGKILL)[1:]
    for w in workers:
        try:
            w.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        w.tmp.unlink(missing_ok=True)
        for leftover in w.run.out_dir.rglob(".*.tmp"):  # atomic writes the kill cut short (figures, tables)
            leftover.unlink(missing_ok=True)
    reap(killed, wait=2.0)  # a killed kernel: the worker's child, ours since the worker died


WORKDIR_PREFIX = "models-pipeline-"
#: the folder of the pipeline's cores in its temp folder: ``--jobs`` tokens shared by every notebook's simulations
CORES_FOLDER = "cores"
#: the file that marks a temp folder as a pipeline's own: its pid, host and boot-relative start
WORKDIR_OWNER = "pipeline-owner.json"


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def remove_stale_workdirs(tmp: Path | None = None) -> list[Path]:
    """Remove the temp folders of pipelines that were killed (SIGKILL: no chance to clean up).

    Only folders named ``models-pipeline-*`` in ``tmp`` (default: the temp
    directory), owned by this user, holding the :data:`WORKDIR_OWNER` file a
    pipeline writes there, whose host is this one and whose pid is no longer
    running; anything else (another user's, a live pipeline's, a folder
    without the mark) is left alone.  Returns the folders removed.
    """
    tmp = Path(tmp or tempfile.gettempdir())
    removed = []
    host = platform.node()
    for d in tmp.glob(WORKDIR_PREFIX + "*"):
        try:
            if d.is_symlink() or not d.is_dir() or d.stat().st_uid != os.getuid():
                continue
            owner = json.loads((d / WORKDIR_OWNER).read_text())
            pid = int(owner["pid"])
            if owner.get("host") != host or pid == os.getpid() or _process_alive(pid):
                continue
        except (OSError, ValueError, KeyError, TypeError):
            continue
        shutil.rmtree(d, ignore_errors=True)
        removed.append(d)
    return removed


def _make_workdir() -> Path:
    """The pipeline's temp folder (specs, logs, kernel files), marked as this process's own."""
    stale = remove_stale_workdirs()
    if stale:
        print(f"removed {len(stale)} temp folder(s) of killed pipelines ({', '.join(d.name for d in stale)})",
              flush=True)
    workdir = Path(tempfile.mkdtemp(prefix=WORKDIR_PREFIX))
    atomic_write_json(workdir / WORKDIR_OWNER, {"pid": os.getpid(), "host": platform.node()})
    return workdir


def _remove_workdir(workdir: Path, settle: float) -> None:
    """Remove the pipeline's temp folder, and keep removing it for ``settle`` seconds.

    After a stop, a kernel that its worker was starting when it was killed
    (in a session of its own, so possibly not yet in the tree :func:`_stop`
    read) can still be alive for a moment and make its runtime folder in
    ``workdir`` again (jupyter creates it on start); whatever of ours is left
    is killed and the folder removed until it stays gone.
    """
    shutil.rmtree(workdir, ignore_errors=True)
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if workdir.exists():
            kill_tree(os.getpid(), signal.SIGKILL, include_root=False)
            shutil.rmtree(workdir, ignore_errors=True)


def _log_tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _positive_seconds(text: str) -> float:
    """``--progress-every``'s type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def execute(runs: list[Run], profile: str, jobs: int = 1, force: bool = False, book_dir: Path | None = None,
            report: bool = True, scheduler: str | None = None, progress_every: float = 30.0,
            option: str = "--book-dir") -> int:
    """Execute the stale runs, up to ``jobs`` at a time, their simulations sharing ``jobs`` cores; return the
    number of failures.

    Prints each stale notebook's expected time and the total first, then a
    line per finished notebook and, at most every ``progress_every`` seconds
    per notebook, what it reports from inside (:mod:`models.core.progress`).
    On SIGINT or SIGTERM it stops every worker and kernel, removes temp
    files, prints one line saying what finished and what did not, and raises
    :class:`Interrupted`.  ``scheduler`` is passed to the kernels as
    ``MODELS_DASK_SCHEDULER``.  One pipeline at a time writes into
    ``book_dir`` (:class:`PipelineLock`): a second one raises
    :class:`CannotStart` before running anything, and so does a notebook in
    the way that the pipeline did not write (:func:`refuse_foreign_outputs`,
    naming ``option``, the folder's command-line option); one that appears
    while its notebook runs is kept, and the executed notebook goes to
    ``_build/failed/``.
    """
    if not (isinstance(progress_every, (int, float)) and 0 < progress_every < float("inf")):
        raise ValueError(f"`progress_every` must be a positive number of seconds; got {progress_every!r}")
    book_dir = book_dir or ROOT / "book"
    env = environment_fingerprint()
    commit_id = git_commit()
    timeout = cell_timeout(profile)
    failed_dir = BUILD / "failed"
    jobs = max(1, jobs)
    first = [r for r in runs if not runs_after(r.slug)]
    later = [r for r in runs if runs_after(r.slug)]
    total = len(runs)
    done = 0
    stamps: dict[str, dict] = {}
    failures = []
    finished: list[str] = []
    skipped = 0
    t0 = time.perf_counter()
    signals: list[int] = []
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, lambda signum, frame: signals.append(signum))
    # orphans of killed workers (their kernels run in sessions of their own) become our children, so a
    # stop reaches them through our own process tree (Linux; elsewhere the workers' trees must do)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    workdir = _make_workdir()
    tokens = cores.make_tokens(workdir / CORES_FOLDER, jobs)  # removed with the workdir
    active: list[_Worker] = []
    pending: list[Run] = []
    server: forkserver.ForkServer | None = None
    warm_cpu = None
    orphans: list[int] = []  # workers whose warm process died first: ours to wait for once they are
    lock = PipelineLock(book_dir, option)
    try:
        lock.acquire()  # CannotStart when another pipeline writes here (or the folder is not writable)
        refuse_foreign_outputs(runs, option)  # CannotStart: a student's copy (or any notebook not ours) in the way
        expected = [r for r in first if force or not is_fresh(r)]
        # the chapters that read the others run again when any other ran (their key follows the others' keys)
        expected += [r for r in later if force or expected or not is_fresh(r)]
        if expected and forkserver.enabled():  # the warm process the workers are forked from, importing meanwhile
            server = forkserver.ForkServer(worker_env(None, None, workdir, scheduler, tokens=tokens),
                                           workdir / "forkserver.log", PRELOAD)
        if expected:
            print(f"{len(expected)} notebook(s) to run with profile {profile!r}, {jobs} at a time:", flush=True)
            print("\n".join(_plan_lines(expected, profile, jobs)), flush=True)
        for phase in (first, later):
            if signals:
                break
            if phase is later:  # the other chapters are done: key these by their fresh outputs
                for r in later:
                    r.key = with_dependencies(r.base_key or r.key, r.slug, book_dir)
            todo = [r for r in phase if force or not is_fresh(r)]
            for r in phase:
                if r in todo:
                    continue
                done += 1
                skipped += 1
                stamps[r.slug] = json.loads(r.provenance.read_text())
                print(f"[{done}/{total}] {r.slug}: up to date (key {r.key[:12]})", flush=True)
            if not todo:
                continue
            print(f"running {len(todo)} notebook(s){' (after the other chapters)' if phase is later else ''}", flush=True)
            pending = list(todo)
            seconds = {r.slug: expected_seconds(r, profile)[0] for r in pending}
            while (pending or active) and not signals:
                while pending and len(active) < jobs:
                    r = next_run(pending, {w.run.chapter for w in active}, seconds)
                    pending.remove(r)
                    active.append(_spawn(r, workdir, timeout, failed_dir, scheduler, relayed_expected(r, profile),
                                         tokens, server))
                time.sleep(0.2)
                now = time.time()
                for w in list(active):
                    records, w.offset = progress.read_new(w.progress_file, w.offset)
                    w.progress.feed(records)
                    if w.proc.poll() is None:
                        quiet = now - w.printed
                        if (w.progress.changed and quiet >= progress_every) or quiet >= max(120.0, 4 * progress_every):
                            print(f"  {w.progress.line(now)}", flush=True)
                            w.printed, w.progress.changed = now, False
                        continue
                    active.remove(w)
                    done += 1
                    try:
                        result = json.loads(w.result.read_text())
                    except (OSError, ValueError):
                        why = ""
                        if getattr(w.proc, "orphaned", False):  # its kernel, orphaned too, is ours to wait for
                            orphans.append(w.proc.pid)
                            reap(processes.children({forked_kernel.NAME}, exited_only=True))
                            why = (f", after the warm process it was forked from (pid {server.proc.pid}) died"
                                   f"{server.last_words()}")
                        result = {"slug": w.run.slug, "status": "failed", "seconds": now - w.progress.started,
                                  "error": f"{w.run.slug}: the worker exited with status {w.proc.returncode}{why}",
                                  "failed_notebook": "", "log": _log_tail(w.log)}
                    if result["status"] == "ok" and not replaceable(w.run):  # put there while it ran: kept
                        kept = _keep_failed(w.run, w.tmp, failed_dir)
                        result = {**result, "status": "failed", "failed_notebook": str(kept),
                                  "error": f"{w.run.slug}: {w.run.output} appeared or changed while the notebook ran "
                                           "and is not the pipeline's (no provenance of its own): left as it is"}
                    stamp = _stamp(w.run, result, profile, env, commit_id)
                    stamps[w.run.slug] = stamp
                    if result["status"] == "ok":
                        commit(w.run, w.tmp, stamp)
                        finished.append(w.run.slug)
                        cpu = f", {result['cpu_seconds']:.1f} CPU-s" if "cpu_seconds" in result else ""
                        print(f"[{done}/{total}] {w.run.slug}: ok in {result['seconds']:.1f} s{cpu}", flush=True)
                    else:
                        w.tmp.unlink(missing_ok=True)
                        failures.append(result)
                        print(f"[{done}/{total}] {result['error']}", flush=True)
                        if result.get("log"):
                            print(result["log"], flush=True)
                        if result["failed_notebook"]:
                            print(f"          (executed notebook kept in {result['failed_notebook']})", flush=True)
    finally:
        stopped = [w.run.slug for w in active]
        _stop(active)  # nothing is running unless we stopped early (a signal or an error)
        if server is not None:
            warm_cpu = server.cpu_seconds()
            server.stop()
            # a forked kernel whose worker died is ours (never a child of ours otherwise): it exits when it sees
            # its worker gone, so wait for it a moment; and an orphaned worker that was not yet ours when its status
            # was read (only if it has exited: its pid is not ours to wait on otherwise)
            reap(processes.children({forked_kernel.NAME}), wait=2.0)
            reap(set(orphans) & set(processes.children(exited_only=True)))
        _remove_workdir(workdir, settle=1.0 if stopped else 0.0)
        lock.release()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    ordered = [stamps[r.slug] for r in runs if r.slug in stamps]
    if signals:
        if report and finished:
            write_report(book_dir, ordered, profile)
        not_started = [r.slug for r in runs if r.slug not in stamps and r.slug not in stopped]
        print(f"interrupted by {signal.Signals(signals[0]).name} after {time.perf_counter() - t0:.1f} s: "
              f"finished {', '.join(finished) or 'none'}; stopped {', '.join(stopped) or 'none'}; "
              f"not started {len(not_started)}; no temp file or half-written output is left, "
              "run the same command again to do the rest", flush=True)
        raise Interrupted(signals[0])
    if report:
        write_report(book_dir, ordered, profile)
        remove_orphans(book_dir, runs)
    cpu = sum(stamps[slug].get("cpu_seconds", 0.0) for slug in finished)
    print(f"{len(finished)} succeeded, {skipped} up to date, {len(failures)} failed "
          f"in {time.perf_counter() - t0:.1f} s" + (f" ({cpu:.1f} CPU-s in the notebooks)" if finished else "")
          + (f", {warm_cpu:.1f} CPU-s in the warm process they were forked from" if finished and warm_cpu else ""),
          flush=True)
    for f in failures:
        print(f"FAILED {f['error']}", file=sys.stderr, flush=True)
    return len(failures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.pipeline", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks or chapters to run (default: every notebook in _toc.yml)")
    parser.add_argument("--profile", choices=PROFILES, default="full", help="parameter profile (default: full, the papers' scale)")
    parser.add_argument("--jobs", "-j", type=int, default=2,
                        help="cores: notebooks run in parallel, and simulated points at once across them, a notebook "
                             "left alone using them all (default 2)")
    parser.add_argument("--force", action="store_true", help="run even when the key is unchanged")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"), default=[],
                        help="override a notebook parameter (only with --out, so the book is never mixed)")
    parser.add_argument("--out", type=Path, help="write outputs to OUT/<chapter>/ instead of book/ (reader runs)")
    parser.add_argument("--book-dir", type=Path, default=None, help="the book folder to write into (default: book/)")
    parser.add_argument("--list", action="store_true",
                        help="print the plan (notebooks, parameters, fresh or stale with its expected time) and exit")
    parser.add_argument("--scheduler", metavar="ADDR", default=os.environ.get("MODELS_DASK_SCHEDULER") or None,
                        help="Dask scheduler the notebooks' sweeps use (passed to the kernels as MODELS_DASK_SCHEDULER; "
                             "default: that variable, else local cores)")
    parser.add_argument("--progress-every", type=_positive_seconds, default=30.0, metavar="SECONDS",
                        help="at most one progress line per notebook this often (default 30)")
    parser.add_argument("--worker", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker_main(args.worker)
    try:
        cell_timeout(args.profile)  # a bad $MODELS_CELL_TIMEOUT: one line now, not a traceback mid-run
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    overrides = {k: v for k, v in args.parameter}
    if overrides and not args.out:
        parser.error("-p overrides need --out DIR: the book itself is built only from the profiles")
    try:
        book_dir = check_out_dir(args.book_dir or ROOT / "book", "--book-dir", book=True)
        out_dir = check_out_dir(args.out) if args.out else None
    except ValueError as exc:
        parser.error(str(exc))
    try:
        runs = plan(args.notebooks, args.profile, overrides, book_dir=book_dir, out_dir=out_dir)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    option = "--out" if out_dir else "--book-dir"
    try:  # every folder a run writes into, a symbolic link among them followed (review N-2)
        check_out_dir(out_dir or book_dir, option, written_folders(runs, report=out_dir is None), book=out_dir is None)
    except ValueError as exc:
        parser.error(str(exc))
    if args.list:
        stale: dict[str, float] = {}
        for r in runs:
            if is_fresh(r):
                state = "up to date"
            else:
                est = estimate(r, args.profile)
                stale[r.slug] = est.seconds
                state = f"stale, about {progress.format_duration(est.seconds)}{est.note()}"
            print(f"{r.slug}  [{state}]  {json.dumps(r.parameters)}")
        if stale:
            wall = planned_wall([r for r in runs if r.slug in stale], stale, args.jobs)
            print(f"{len(stale)} stale: about {progress.format_duration(wall)} with --jobs "
                  f"{args.jobs} ({progress.format_duration(sum(stale.values()))} of notebook time)")
            for line in scale_warnings([r for r in runs if r.slug in stale], args.profile):
                print(line)
        return 0
    try:
        failures = execute(runs, args.profile, jobs=args.jobs, force=args.force, book_dir=out_dir or book_dir,
                           report=out_dir is None, scheduler=args.scheduler, progress_every=args.progress_every,
                           option=option)
    except Interrupted as exc:
        return 128 + exc.signum
    except CannotStart as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.status
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
