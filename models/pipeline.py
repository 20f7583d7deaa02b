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
   key and the executed notebook exists (``--force`` runs it anyway);
4. otherwise executes it with papermill, with the working directory set to
   the output folder (so ``figures/`` and ``tables/`` land beside it and no
   machine path is injected), into a temporary file that is moved into place
   only when the run succeeded (``os.replace``: never a half-executed page);
5. on failure keeps the output in ``_build/failed/<chapter>/`` and prints
   ``chapter/notebook cell N: Error: message``; the exit status is non-zero
   once every run has finished;
6. writes the reproducibility report (``book/_generated/runs.md`` and
   ``book/reproducibility-data.json``) that the book's reproducibility page
   includes.

Readers re-run one notebook with their own parameters into a scratch folder::

    python -m models.pipeline notebooks/min_mva/02-response-time.ipynb -p n 7 --out runs/

"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures as cf
import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .citation import write_cite_page
from .core.cache import atomic_write_json, atomic_write_text, canonical_json, tree_hash
from .core.paths import BUILD, MODELS, NOTEBOOKS, ROOT

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
    base_key: str = ""  # the key before the dependencies of AFTER_CHAPTERS

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


def load_profiles(path: Path | None = None) -> dict:
    path = path or NOTEBOOKS / "profiles.yaml"
    data = yaml.safe_load(path.read_text()) or {}
    for name in PROFILES:
        data.setdefault(name, {})
    return data


def notebook_defaults(source: Path) -> dict[str, Any]:
    """Parameter names and default values of the notebook's ``parameters`` cell.

    Parsed with :mod:`ast` (literals only, as the conventions require), so no
    kernel is started.
    """
    nb = json.loads(source.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            text = "".join(cell["source"])
            values = {}
            for node in ast.parse(text).body:
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
    local = ((yaml.safe_load(chapter_file.read_text()) or {}).get(profile) or {}) if chapter_file.exists() else {}
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
        params[key] = _coerce(text, defaults[key])
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
    nb = strip_outputs(json.loads(source.read_text()))
    h = hashlib.sha256()
    for part in (canonical_json(nb), canonical_json(parameters), models_hash, canonical_json(env)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


#: Chapters that read the other chapters' outputs (their tables): run after every other
#: notebook, and keyed also by the other chapters' run keys, so they are never stale.
AFTER_CHAPTERS = ("findings",)


def with_dependencies(key: str, chapter: str, book_dir: Path) -> str:
    """``key`` extended, for a chapter of :data:`AFTER_CHAPTERS`, by the run keys of every other
    chapter's notebooks in ``book_dir`` (their provenance files); other chapters' keys unchanged."""
    if chapter not in AFTER_CHAPTERS:
        return key
    deps = {}
    for prov in sorted(book_dir.glob("*/*.provenance.json")):
        if prov.parent.name in AFTER_CHAPTERS:
            continue
        try:
            deps[f"{prov.parent.name}/{prov.name}"] = json.loads(prov.read_text()).get("key")
        except (OSError, ValueError):
            deps[f"{prov.parent.name}/{prov.name}"] = None
    return hashlib.sha256((key + canonical_json(deps)).encode()).hexdigest()


def is_fresh(run: Run) -> bool:
    """True when the output exists and its provenance carries the same key."""
    try:
        stamp = json.loads(run.provenance.read_text())
    except (OSError, ValueError):
        return False
    return stamp.get("key") == run.key and stamp.get("status") == "ok" and run.output.exists()


# --------------------------------------------------------------------------- execute
def _execute(run: Run, timeout: int, failed_dir: Path) -> dict:
    """Execute one run (in a worker process).  Returns a status dict, never raises."""
    import papermill as pm

    run.out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{run.name}.", suffix=".ipynb", dir=run.out_dir)
    os.close(fd)
    env_keep = {k: os.environ.get(k) for k in ("MODELS_NOTEBOOK",)}
    os.environ["MODELS_NOTEBOOK"] = run.slug
    start = time.perf_counter()
    try:
        pm.execute_notebook(
            str(run.source),
            tmp,
            parameters=run.parameters,
            kernel_name="python3",
            cwd=str(run.out_dir),
            execution_timeout=timeout,
            progress_bar=False,
            log_output=False,
        )
        nb = json.loads(Path(tmp).read_text())
        nb.get("metadata", {}).pop("papermill", None)  # drop volatile timestamps and paths
        for cell in nb.get("cells", []):
            cell.get("metadata", {}).pop("papermill", None)
            cell.get("metadata", {}).pop("execution", None)
        _tidy_injected_cell(nb, notebook_defaults(run.source))
        Path(tmp).write_text(json.dumps(nb, indent=1) + "\n")
        os.replace(tmp, run.output)
        return {"slug": run.slug, "status": "ok", "seconds": time.perf_counter() - start}
    except BaseException as exc:  # noqa: BLE001 - report every failure, keep going
        seconds = time.perf_counter() - start
        where = ""
        cell = getattr(exc, "exec_count", None)
        if cell is not None:
            where = f" cell {cell}"
        ename = getattr(exc, "ename", type(exc).__name__)
        evalue = str(getattr(exc, "evalue", exc)).strip().splitlines()
        message = evalue[0] if evalue else ""
        dest = failed_dir / run.chapter / f"{run.name}.ipynb"
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            if Path(tmp).exists():
                os.replace(tmp, dest)
        except OSError:
            pass
        return {
            "slug": run.slug,
            "status": "failed",
            "seconds": seconds,
            "error": f"{run.slug}{where}: {ename}: {message}",
            "failed_notebook": str(dest),
        }
    finally:
        if Path(tmp).exists():
            os.unlink(tmp)
        for k, v in env_keep.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


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
        prov = book_dir / chapter / f"{name}.provenance.json"
        if prov.exists() and (book_dir / chapter / f"{name}.ipynb").exists():
            try:
                stamps.append(json.loads(prov.read_text()))
            except ValueError:
                continue
    return stamps


def write_report(book_dir: Path, stamps: list[dict], profile: str) -> None:
    """The reproducibility report: a Markdown table included by ``book/reproducibility.md``.

    ``stamps`` are this invocation's runs; the report also lists every other
    notebook whose output is in ``book_dir`` (from its provenance file), so a
    partial run never hides the rest of the book.
    """
    from .core.plotting import git_commit

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
        "| notebook | profile | status | wall time (s) | parameters | key |",
        "|---|---|---|---|---|---|",
    ]
    for s in stamps:
        params = ", ".join(f"`{k}={v!r}`" for k, v in s["parameters"].items())
        lines.append(
            f"| {s['notebook']} | {s['profile']} | {s['status']} | {s['seconds']:.1f} | {params} | `{s['key'][:12]}` |"
        )
    lines += ["", "| package | version |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in versions.items()]
    atomic_write_text(book_dir / "_generated" / "runs.md", "\n".join(lines) + "\n")
    write_cite_page(book_dir, data["commit"])


def remove_orphans(book_dir: Path, runs: list[Run]) -> list[Path]:
    """Delete generated notebooks in ``book/<chapter>/`` whose source no longer exists."""
    keep = {r.output for r in runs}
    removed = []
    for out in book_dir.glob("*/*.ipynb"):
        chapter, name = out.parent.name, out.stem
        if out not in keep and not (NOTEBOOKS / chapter / f"{name}.ipynb").exists():
            out.unlink()
            prov = out.with_suffix(".provenance.json")
            if prov.exists():
                prov.unlink()
            removed.append(out)
    return removed


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
        run.base_key = run_key(source, params, models_hash, env)
        run.key = with_dependencies(run.base_key, chapter, book_dir)
        runs.append(run)
    return runs


def execute(runs: list[Run], profile: str, jobs: int = 1, force: bool = False, book_dir: Path | None = None, report: bool = True) -> int:
    """Execute the stale runs, up to ``jobs`` at a time; return the number of failures."""
    from .core.plotting import git_commit

    book_dir = book_dir or ROOT / "book"
    env = environment_fingerprint()
    commit = git_commit()
    timeout = 1800 if profile == "full" else 600
    failed_dir = BUILD / "failed"
    first = [r for r in runs if r.chapter not in AFTER_CHAPTERS]
    later = [r for r in runs if r.chapter in AFTER_CHAPTERS]
    total = len(runs)
    done = 0
    stamps: dict[str, dict] = {}
    failures = []
    ran = skipped = 0
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    t0 = time.perf_counter()
    for phase in (first, later):
        if phase is later:  # the other chapters are done: key these by their fresh outputs
            for r in later:
                r.key = with_dependencies(getattr(r, "base_key", r.key), r.chapter, book_dir)
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
        ran += len(todo)
        print(f"running {len(todo)} notebook(s) with profile {profile!r}, {jobs} at a time", flush=True)
        with cf.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(_execute, r, timeout, failed_dir): r for r in todo}
            for fut in cf.as_completed(futures):
                run = futures[fut]
                result = fut.result()
                done += 1
                stamp = _stamp(run, result, profile, env, commit)
                stamps[run.slug] = stamp
                if result["status"] == "ok":
                    atomic_write_json(run.provenance, stamp)
                    print(f"[{done}/{total}] {run.slug}: ok in {result['seconds']:.1f} s", flush=True)
                else:
                    failures.append(result)
                    print(f"[{done}/{total}] {result['error']}", flush=True)
                    print(f"          (executed notebook kept in {result['failed_notebook']})", flush=True)
    ordered = [stamps[r.slug] for r in runs if r.slug in stamps]
    if report:
        write_report(book_dir, ordered, profile)
        remove_orphans(book_dir, runs)
    print(f"{ran - len(failures)} succeeded, {skipped} up to date, {len(failures)} failed "
          f"in {time.perf_counter() - t0:.1f} s", flush=True)
    for f in failures:
        print(f"FAILED {f['error']}", file=sys.stderr, flush=True)
    return len(failures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.pipeline", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks or chapters to run (default: every notebook in _toc.yml)")
    parser.add_argument("--profile", choices=PROFILES, default="full", help="parameter profile (default: full, the papers' scale)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="notebooks run in parallel (default 2)")
    parser.add_argument("--force", action="store_true", help="run even when the key is unchanged")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"), default=[],
                        help="override a notebook parameter (only with --out, so the book is never mixed)")
    parser.add_argument("--out", type=Path, help="write outputs to OUT/<chapter>/ instead of book/ (reader runs)")
    parser.add_argument("--book-dir", type=Path, default=None, help="the book folder to write into (default: book/)")
    parser.add_argument("--list", action="store_true", help="print the plan (notebooks, parameters, fresh or stale) and exit")
    args = parser.parse_args(argv)
    overrides = {k: v for k, v in args.parameter}
    if overrides and not args.out:
        parser.error("-p overrides need --out DIR: the book itself is built only from the profiles")
    book_dir = (args.book_dir or ROOT / "book").resolve()
    out_dir = args.out.resolve() if args.out else None
    try:
        runs = plan(args.notebooks, args.profile, overrides, book_dir=book_dir, out_dir=out_dir)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.list:
        for r in runs:
            state = "up to date" if is_fresh(r) else "stale"
            print(f"{r.slug}  [{state}]  {json.dumps(r.parameters)}")
        return 0
    failures = execute(runs, args.profile, jobs=args.jobs, force=args.force,
                       book_dir=out_dir or book_dir, report=out_dir is None)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
