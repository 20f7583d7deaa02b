"""Lambdify once, reuse everywhere -- and across processes without importing SymPy.

:func:`lambdify_cached` turns a SymPy expression into a NumPy function and
memoises it on ``(args, expr)``.  Arguments are an explicit tuple of symbols
(never ``free_symbols``, whose order is unstable), so the same equation text
that the book prints is the code that runs.

:func:`compiled` is what the solvers call (#16): a named set of lambdified
functions whose *generated Python source* is kept on disk
(``<cache>/lambdified/<name>-<key>.json``, written atomically).  The key is
cheap to compute without SymPy: the set's name and parameters, the hash of
the package source (every ``models/**/*.py`` outside the simulator, so any
edit of an equation regenerates the code) and the installed SymPy version
(read from its ``release.py``, not imported).  On a warm start the source is
executed in a namespace holding exactly the NumPy / ``math`` objects SymPy's
namespace bound to the same names, so the function is the one
``sympy.lambdify`` would build, byte for byte -- but neither SymPy nor the
chapter's ``equations()`` is imported.  A set whose code refers to anything
else is not written to disk (it is then rebuilt with SymPy in every process,
as before).

Stored code is trusted only when this user wrote it (#26)
---------------------------------------------------------
A stored file is Python source that is executed, so whoever could write it
could run code in every process that reads it.  Three checks stand between
the file and ``exec``, in this order, and a file failing any of them is
never executed:

1. **Per user, as ssh does with its keys.**  ``lambdified/`` is created 0700;
   it must be a real folder (not a symlink) owned by this user and not
   group/world-writable (a folder of ours that is, as the code before #26
   created it under a umask of 002, is tightened to 0700 first), and each
   file must be a regular file owned by this user and not group/world-writable
   (files are written 0600).  Otherwise the disk is not used (the set is
   generated in memory with SymPy) and one :class:`~models.core.cache.CacheWarning`
   says why.
2. **Authenticated.**  Each file carries an HMAC-SHA256 of its content under
   a per-user key kept *outside* the cache,
   ``~/.config/interconnect-models/cache.key`` (``$XDG_CONFIG_HOME`` if set;
   created 0600 in a 0700 folder; :func:`models.core.cache.secret_key`).  A
   file restored by CI, unpacked from someone's tarball or edited by hand
   (a changed formula) fails the check and is regenerated and rewritten,
   silently: that is what a stale cache looks like too.  Without a usable
   key (no home folder, a key file readable by others) nothing is read from
   or written to disk (one warning).
3. **Checked against the request.**  The file holds the format, ``name``,
   ``repr(params)``, :func:`code_version` and :func:`sympy_version` it was
   generated for (all of which also go into its file name); a file copied
   over another's name is a mismatch and is treated as missing.

Loading then binds only names of NumPy, ``numpy.linalg``, ``math``,
``cmath`` and the builtins, and constants through a literal parser (no
``eval``).  Files of the format before #26 (1) have other names and are
never read.
"""

from __future__ import annotations

import ast
import builtins as _builtins
import cmath as _cmath
import errno
import functools
import hashlib
import importlib.util
import json
import math as _math
import os
import stat
import types
from pathlib import Path
from typing import Callable, Sequence

from .cache import atomic_write_text, key_path, mac, mac_ok
from .cache import warn as cache_warn
from .paths import cache_dir

#: TeX's text-mode specials and how an equation's tag writes them (a tag is typeset in ``\text{...}``).
_TEXT_ESCAPES = {"_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "^": r"\^{}"}


def tag_text(label) -> str:
    r"""The label written for TeX text mode (``\text{...}``): ``_ & % # $ ^`` escaped.

    ``X_i`` -> ``X\_i``, ``U_ij:switch`` -> ``U\_ij:switch``; a leading ``eq:`` is the caller's
    business (it is kept).
    """
    return "".join(_TEXT_ESCAPES.get(ch, ch) for ch in str(label))


#: Bump to invalidate every stored set (the format of the files below; 2: authenticated, #26).
FORMAT = 2
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
    """LaTeX ``align`` body for a mapping ``{label: Eq}`` (label shown as a tag).

    A tag is typeset in text mode, where ``_``, ``^``, ``&``, ``%``, ``#`` and ``$`` are errors
    (MathJax prints the raw TeX in an error box): they are escaped by
    :func:`tag_text` (``Q_ij`` shows as "Q_ij").
    """
    import sympy as sp

    lines = []
    for label, eq in eqs.items():
        tag = tag_text(str(label).replace("eq:", ""))
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


#: The only modules stored code may name (what SymPy's "numpy" and "math" namespaces bind).
_MODULES = ("numpy", "numpy.linalg", "math", "cmath", "builtins")


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
            if v.__name__ not in _MODULES:
                raise ValueError(f"lambdified code refers to the module {v.__name__}, which stored code may not name")
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


def _constant(text: str):
    """A stored ``repr`` of an int, float, complex or bool (no ``eval``)."""
    if type(text) is not str:
        raise TypeError("a constant must be stored as text")
    if text in ("inf", "-inf", "nan"):
        return float(text)
    value = ast.literal_eval(text)
    if type(value) not in (int, float, complex, bool):
        raise ValueError(f"not a number: {text!r}")
    return value


def _load(recipe: dict, label: str):
    import importlib

    ns = {"__builtins__": _builtins}
    for entry in recipe["globals"]:
        name, kind = entry[0], entry[1]
        if kind in ("module", "attr") and entry[2] not in _MODULES:
            raise ImportError(f"stored code names the module {entry[2]!r}")
        if kind == "module":
            ns[name] = importlib.import_module(entry[2])
        elif kind == "attr":
            ns[name] = getattr(importlib.import_module(entry[2]), entry[3])
        elif kind == "const":
            ns[name] = _constant(entry[2])
        else:
            raise ValueError(f"unknown global kind {kind!r}")
    exec(compile(recipe["source"], f"<lambdified {label}>", "exec"), ns)  # noqa: S102 (checked: see the module docstring)
    return ns["_lambdifygenerated"]


def _path(name: str, params) -> Path:
    key = hashlib.sha256(json.dumps([FORMAT, name, repr(params), code_version(), sympy_version()]).encode())
    return cache_dir() / "lambdified" / f"{name}-{key.hexdigest()[:24]}.json"


_warned: set = set()


def _refuse(what: str) -> None:
    """One warning per process and reason: the stored code is not used."""
    if what not in _warned:
        _warned.add(what)
        cache_warn(f"{what}: the generated code of the models is not read from or kept on disk "
                   f"(regenerated with SymPy in this process)")


def _open_folder(folder: Path, create: bool) -> int | None:
    """A descriptor of ``folder`` if it is this user's and not group/world-writable (created 0700), else None."""
    if create:
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            os.mkdir(folder, 0o700)
        except OSError:
            pass  # exists, or a read-only cache: judged below
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            _refuse(f"{folder} is not a folder (a symbolic link or a file)")
        return None  # absent (nothing stored yet, or a read-only cache)
    st = os.fstat(fd)
    if st.st_uid != os.geteuid():
        os.close(fd)
        _refuse(f"{folder} belongs to another user (uid {st.st_uid})")
        return None
    if st.st_mode & 0o022:
        try:
            os.fchmod(fd, 0o700)  # ours, made under a loose umask before #26: its files are checked one by one
        except OSError:
            os.close(fd)
            _refuse(f"{folder} is group- or world-writable")
            return None
    return fd


def _not_private(st: os.stat_result) -> str:
    """What makes a stored file one that someone else could have written ("" if nothing): not a regular file,
    another user's, or group/world-writable (its mode named)."""
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if st.st_uid != os.geteuid():
        return f"belongs to another user (uid {st.st_uid}; this user is uid {os.geteuid()})"
    if st.st_mode & 0o022:
        who = " and ".join(w for bit, w in ((0o020, "its group"), (0o002, "every user")) if st.st_mode & bit)
        return f"is writable by {who} (mode {stat.S_IMODE(st.st_mode):04o}): another user could have changed it"
    return ""


def _canonical(body: dict) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode("utf-8")


def _read(path: Path, record: dict) -> dict | None:
    """The stored ``functions`` of ``record`` at ``path``, or None when absent, refused or not the request's."""
    dfd = _open_folder(path.parent, create=False)
    if dfd is None:
        return None
    try:
        try:
            fd = os.open(path.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dfd)
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno == errno.ELOOP:
                _refuse(f"{path} is a symbolic link")
            return None
        try:
            st = os.fstat(fd)
            wrong = _not_private(st)
            if wrong:
                _refuse(f"{path} {wrong}")
                return None
            with os.fdopen(os.dup(fd), "rb") as fh:
                data = fh.read()
        finally:
            os.close(fd)
    finally:
        os.close(dfd)
    try:
        stored = json.loads(data)
    except ValueError:
        return None
    if type(stored) is not dict or not mac_ok(_canonical({k: v for k, v in stored.items() if k != "mac"}),
                                               stored.get("mac")):
        return None  # edited, restored from elsewhere or written under another key: regenerate
    if any(stored.get(k) != v for k, v in record.items()) or type(stored.get("functions")) is not dict:
        return None  # another set's file under this name
    return stored["functions"]


def _write(path: Path, body: dict) -> None:
    dfd = _open_folder(path.parent, create=True)
    if dfd is None:
        return  # a read-only cache still works, just slower in the next process
    os.close(dfd)
    tag = mac(_canonical(body))
    if tag is None:
        return
    try:
        atomic_write_text(path, json.dumps(dict(body, mac=tag), separators=(",", ":")), mode=0o600)
    except OSError:
        pass  # a full or read-only cache: the next process generates the set again


_SETS: dict = {}


def _compiled(name: str, params, build: Callable[[], dict]) -> dict:
    path = _path(name, params)
    record = {"format": FORMAT, "name": name, "params": repr(params), "code_version": code_version(),
              "sympy_version": sympy_version()}
    disk = mac(b"") is not None  # a usable key: see the module docstring
    if not disk:
        _refuse(f"no usable key at {key_path()} (it must be a file of this user, mode 0600)")
    stored = _read(path, record) if disk else None
    if stored is not None:
        try:
            return {f: _load(r, f"{name}:{f}") for f, r in stored.items()}
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, ImportError, SyntaxError):
            pass  # not loadable here: regenerate
    fns = {}
    for f, spec in build().items():
        args, expr, *rest = spec
        fns[f] = lambdify_cached(args, expr, modules=rest[0] if rest else "numpy")
    try:
        recipes = {f: _recipe(fn) for f, fn in fns.items()}
        loaded = {f: _load(r, f"{name}:{f}") for f, r in recipes.items()}  # the code a warm start will run
    except (ValueError, OSError, TypeError, KeyError, IndexError, AttributeError, ImportError, SyntaxError):
        return fns  # not storable; SymPy's functions serve this process
    if disk:
        _write(path, dict(record, functions=recipes))
    return loaded


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
