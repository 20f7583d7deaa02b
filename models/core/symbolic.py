"""Lambdify once, reuse everywhere -- and across processes without importing SymPy.

:func:`lambdify_cached` turns a SymPy expression into a NumPy function and
memoises it on ``(args, expr)``.  Arguments are an explicit tuple of symbols
(never ``free_symbols``, whose order is unstable), so the same equation text
that the book prints is the code that runs.

:func:`compiled` is what the solvers call (#16): a named set of lambdified
functions whose *generated Python source* is kept on disk
(``<cache>/lambdified/<key>.json``, written atomically).  The key is cheap to
compute without SymPy: the set's name and parameters, the hash of the package
source (every ``models/**/*.py`` outside the simulator, so any edit of an
equation regenerates the code) and the installed SymPy version (read from its
``release.py``, not imported).  On a warm start the source is executed in a
namespace holding exactly the NumPy / ``math`` objects SymPy's namespace bound
to the same names, so the function is the one ``sympy.lambdify`` would build,
byte for byte -- but neither SymPy nor the chapter's ``equations()`` is
imported.  A set whose code refers to anything else is not written to disk
(it is then rebuilt with SymPy in every process, as before).
"""

from __future__ import annotations

import builtins as _builtins
import cmath as _cmath
import functools
import hashlib
import importlib.util
import json
import math as _math
import types
from pathlib import Path
from typing import Callable, Sequence

from .cache import atomic_write_text
from .paths import cache_dir

#: Bump to invalidate every stored set (the format of the files below).
FORMAT = 1
_PKG = Path(__file__).resolve().parents[1]  # models/


@functools.lru_cache(maxsize=None)
def _lambdify(args: tuple, expr, modules: str, cse: bool):
    import sympy as sp

    return sp.lambdify(args, expr, modules=modules, cse=cse)


def lambdify_cached(args: Sequence, expr, *, modules: str = "numpy", cse: bool = True):
    """Return ``sympy.lambdify(args, expr)``, built once per process.

    ``expr`` may be an expression, an :class:`~sympy.Eq` (its right-hand side
    is used) or a tuple/list of expressions (converted to a tuple).
    """
    import sympy as sp

    if isinstance(expr, sp.Equality):
        expr = expr.rhs
    if isinstance(expr, list):
        expr = tuple(expr)
    return _lambdify(tuple(args), expr, modules, cse)


def latex_equations(eqs: dict) -> str:
    """LaTeX ``align`` body for a mapping ``{label: Eq}`` (label shown as a tag)."""
    import sympy as sp

    lines = []
    for label, eq in eqs.items():
        tag = str(label).replace("eq:", "")
        lines.append(f"{sp.latex(eq)} \\tag{{{tag}}}")
    return "\\begin{aligned}" + " \\\\ ".join(lines) + "\\end{aligned}"


# ----------------------------------------------------------------------------
# Generated code kept on disk
# ----------------------------------------------------------------------------
@functools.cache
def sympy_version() -> str:
    """The installed SymPy's version, read from ``sympy/release.py`` without importing SymPy."""
    spec = importlib.util.find_spec("sympy")
    if spec is None or not spec.submodule_search_locations:
        return "none"
    text = (Path(list(spec.submodule_search_locations)[0]) / "release.py").read_text()
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@functools.cache
def code_version() -> str:
    """sha256 of every ``models/**/*.py`` outside ``models/sim`` (names and contents)."""
    h = hashlib.sha256()
    for path in sorted(_PKG.rglob("*.py")):
        rel = path.relative_to(_PKG)
        if rel.parts[0] == "sim" or "__pycache__" in rel.parts:
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _modules():
    import numpy
    import numpy.linalg

    return (numpy, numpy.linalg, _math, _cmath, _builtins)


def _names(code: types.CodeType):
    yield from code.co_names
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _names(c)


def _recipe(fn) -> dict:
    """``{"source", "globals"}`` of a lambdified function; ValueError if a global cannot be named."""
    import inspect

    source = inspect.getsource(fn)
    ns = fn.__globals__
    bound = []
    for name in sorted(set(_names(fn.__code__))):
        if name not in ns:
            continue  # an attribute name (``builtins.sum``) or a Python builtin
        v = ns[name]
        if isinstance(v, types.ModuleType):
            bound.append([name, "module", v.__name__])
            continue
        for mod in _modules():
            attr = name if getattr(mod, name, None) is v else getattr(v, "__name__", None)
            if attr and getattr(mod, attr, None) is v:
                bound.append([name, "attr", mod.__name__, attr])
                break
        else:
            if type(v) in (int, float, complex, bool):
                bound.append([name, "const", repr(v)])
            else:
                raise ValueError(f"lambdified code refers to {name!r} = {v!r}, which has no stable name")
    return {"source": source, "globals": bound}


def _load(recipe: dict, label: str):
    import importlib

    ns = {"__builtins__": _builtins}
    for entry in recipe["globals"]:
        name, kind = entry[0], entry[1]
        if kind == "module":
            ns[name] = importlib.import_module(entry[2])
        elif kind == "attr":
            ns[name] = getattr(importlib.import_module(entry[2]), entry[3])
        else:
            ns[name] = eval(entry[2], {"inf": _math.inf, "nan": _math.nan})  # noqa: S307 (our own repr)
    exec(compile(recipe["source"], f"<lambdified {label}>", "exec"), ns)  # noqa: S102
    return ns["_lambdifygenerated"]


def _path(name: str, params) -> Path:
    key = hashlib.sha256(json.dumps([FORMAT, name, repr(params), code_version(), sympy_version()]).encode())
    return cache_dir() / "lambdified" / f"{name}-{key.hexdigest()[:24]}.json"


_SETS: dict = {}


def _compiled(name: str, params, build: Callable[[], dict]) -> dict:
    path = _path(name, params)
    try:
        stored = json.loads(path.read_text())
        return {f: _load(r, f"{name}:{f}") for f, r in stored["functions"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ImportError, SyntaxError):
        pass  # absent or unreadable: regenerate
    fns = {}
    for f, spec in build().items():
        args, expr, *rest = spec
        fns[f] = lambdify_cached(args, expr, modules=rest[0] if rest else "numpy")
    try:
        recipes = {f: _recipe(fn) for f, fn in fns.items()}
    except (ValueError, OSError, TypeError):
        return fns  # not storable; SymPy's functions serve this process
    try:
        atomic_write_text(path, json.dumps({"name": name, "params": repr(params), "functions": recipes}))
    except OSError:
        pass  # a read-only cache still works, just slower in the next process
    return {f: _load(r, f"{name}:{f}") for f, r in recipes.items()}


def compiled(name: str, build: Callable[[], dict], params=()) -> dict:
    """The functions ``{fname: callable}`` of a named set, generated once and kept on disk.

    ``build()`` (called only when the set is not on disk) returns
    ``{fname: (args, expr)}`` or ``{fname: (args, expr, modules)}``, as for
    :func:`lambdify_cached`; ``params`` (hashable, with a stable ``repr``)
    distinguishes sets that ``build`` derives differently.  The functions
    returned are ``sympy.lambdify``'s generated code, loaded without SymPy
    when stored.
    """
    try:
        return _SETS[name, params]
    except KeyError:
        fns = _SETS[name, params] = _compiled(name, params, build)
        return fns


def lazy_attributes(package: str, attrs: dict) -> None:
    """Make the attributes ``attrs`` (``{name: "submodule:object"}``) of ``package`` import on first use.

    A chapter's ``__init__`` exports ``equations`` (SymPy); importing it lazily
    lets the solvers load without SymPy.  Importing the submodule of the same
    name (``models.<chapter>.equations``) does not replace the attribute: it
    stays the object, as with the eager ``from .equations import equations``.
    """
    import importlib
    import sys

    mod = sys.modules[package]

    def prop(target):
        sub, obj = target.split(":")

        def get(self):
            return getattr(importlib.import_module(sub, package), obj)

        def set_(self, value):
            if not isinstance(value, types.ModuleType):
                raise AttributeError(f"{package}.{obj} is read-only")

        return property(get, set_)

    cls = type("LazyPackage", (types.ModuleType,), {name: prop(t) for name, t in attrs.items()})
    mod.__class__ = cls
