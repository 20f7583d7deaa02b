"""Keys, atomic writes and the on-disk result cache.

* :func:`stable_hash` hashes any JSON-like object canonically (sorted keys,
  numpy scalars and arrays converted, floats by ``repr``), so two equal
  parameter sets always give the same key.
* :func:`tree_hash` hashes the text of every ``*.py`` file under a folder
  (the "hash of ``models/``" that keys notebook runs and simulator results).
* :func:`atomic_write_bytes` / ``_text`` / ``_json`` write to a temporary
  file in the same folder, ``fsync`` it and ``os.replace`` it into place:
  a reader sees either the old file or the whole new one, never a half.
* :class:`DiskCache` is a folder of results keyed by :func:`stable_hash` of
  every input.  :meth:`DiskCache.lock` and :meth:`DiskCache.fetch_or_compute`
  make sure an entry is computed once even when several processes (two
  notebooks of one chapter, two pipeline workers) ask for it at the same
  time: the second waits for the first and reads its result.

The cache is data, never code
-----------------------------
Whoever can write the cache folder (a shared or NFS cache, a cache restored
by CI, an unpacked tarball) must not be able to run code in the processes
that read it.  So an entry is a JSON file, ``<key>.json``, read with
:func:`json.loads` and decoded by :func:`decode`, which builds only

* ``None``, ``bool``, ``int``, ``str``, ``float`` (``{"$float": "nan"}``,
  ``"inf"``, ``"-inf"`` for the non-finite ones), ``list`` (a JSON array),
  ``tuple`` (``{"$tuple": [...]}``) and ``dict`` (a JSON object when every
  key is a ``str`` not starting with ``$``, else ``{"$dict": [[k, v], ...]}``);
* NumPy arrays and scalars of a bool, integer, float or complex dtype
  (``{"$ndarray": "<f8", "shape": [3], "data": "<base64 of the bytes>"}``,
  ``{"$npscalar": "<i8", "data": ...}``): exact, dtype and shape included;
* the frozen dataclass results named in :data:`RESULT_TYPES`, an explicit
  allow-list (``{"$dataclass": "models.sim.wormhole.WormholeResult",
  "fields": {...}}``).  The class is imported from the module the
  allow-list names, never from a name read from the file, and its fields
  are set as pickle did (``__init__`` is not called) after checking that the
  stored field names are exactly the class's.  Every field is then checked
  against its annotation (:func:`check_fields`: a float -- never NaN in the
  :data:`MEASURED` fields, never a 400-digit integer --, a bool, an int of
  int64's range, an array, a dict ...) and the class's own
  ``__post_init__`` rules run; the same check runs before a result is
  stored, so what would be refused is never written;
* SymPy expressions (``{"$sympy": srepr(expr)}``, for the derivations
  :mod:`models.traffic.moments` keeps): the ``srepr`` text is parsed with
  :mod:`ast`, never evaluated, and rebuilt from SymPy's own public classes
  and constants with literal arguments (strings only as the name of a
  ``Symbol``, ``Dummy``, ``Wild`` or ``Function`` or the digits of a
  ``Float``).  Building them runs no code, but ``lambdify`` prints a
  symbol's name into the code it generates, so they are rebuilt only from
  an entry whose HMAC checks (below).

An entry is ``{"format": FORMAT, "key": key, "value": <encoded value>, "mac": <hex>}``::

    {"format":1,"key":"78ce...","value":{"$dataclass":"models.sim.closed_min.ClosedSimResult",
     "fields":{"R":7.414762741652021,"R_ci":0.0522...,"X_i":{"$ndarray":"<f8","shape":[4],
     "data":"AAAAAAAA5D8..."},"params":{"k":2,...},...}},"mac":"3f0c..."}

A value that cannot be encoded exactly is not stored (one
:class:`CacheWarning`); a value read back is equal to the one stored
(arrays: same dtype, shape and bytes), so a cached run gives byte-identical
tables.  Reading an entry that is absent, unreadable, corrupt, of another
format or another key, naming a type outside the allow-list or holding a
field that does not fit its type is a miss: the point is computed again and
the entry rewritten.  :meth:`DiskCache.get` removes only an entry of this
user that is not JSON at all (truncated), never one it cannot open
(another user's).  Entries of the old pickle format (``<key>.pkl``) are
never opened: they are ignored, and every cached simulation is computed
once more under the new format.

Nothing forged, nothing hung (#35)
----------------------------------
Whoever can write the cache folder could otherwise change a result (a
latency edited from 48.28 to 30.0 was used silently), hang every reader
(a FIFO named like an entry) or reach outside the cache (a ``wormhole/``
that is a symbolic link).  So:

* **Signed.**  Every entry carries an HMAC-SHA256 (``"mac"``) of the rest
  of it under this user's key (:func:`secret_key`, kept outside the cache:
  the key of the lambdified code, :mod:`models.core.symbolic`).  An entry
  without it (written before #35), with another key's (another user's) or
  altered is a miss with one :class:`CacheWarning` per folder and process,
  computed again and rewritten.  Without a usable key nothing is read or
  stored (one warning).  A cache shared between users is therefore shared
  in its folders only: each user trusts, and reuses, the entries they wrote.
* **Opened as what it must be.**  The folder is opened with
  ``O_DIRECTORY|O_NOFOLLOW`` (a symbolic link or a file in its place: not
  used, one warning, results computed but not cached) and every entry and
  lock relative to that descriptor (``dir_fd``), by :func:`open_regular`:
  ``O_NOFOLLOW|O_NONBLOCK|O_NOCTTY`` and an ``fstat``.  An entry that is not
  a regular file of this user (a FIFO, a symlink, a folder, another
  user's) or is larger than :data:`MAX_ENTRY_BYTES` is a miss with one
  warning, and nothing of it is read; a lock file that is not a regular
  file is not used (the point is computed without it, one warning).
  Keys are plain file names (:func:`_checked_key`), never paths.

Degrading instead of failing
----------------------------
A cache that cannot be written (read-only, full, a path that is a file,
another user's folder) never costs a computed result: :meth:`DiskCache.put`
and :meth:`DiskCache.lock` give one :class:`CacheWarning` per folder and
process ("... results are computed but not cached") and go on.

Lock files (``.<key>.lock``) are created with the umask's mode (``0o666 &
~umask``, like any file the user creates), so other users of a shared cache
can open them read-only and wait on them too (another user's regular lock
file is waited on: a lock is never read nor written).  A lock file this process
cannot open at all (another user's ``0600`` lock) is not waited on: the
point is computed without the lock (one warning; at worst another process
computes it too) -- the lock never makes anyone delete an entry.  A lock is
removed by its holder on release; one left behind by a killed process
(nobody holds it any more) is removed by the next process that takes a lock
in that folder (once per process and folder, only this user's regular lock
files in the folder itself, only those it can lock without waiting), so
they do not pile up.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import errno
import fcntl
import functools
import hashlib
import hmac
import importlib
import json
import math
import os
import re
import secrets
import stat
import sys
import tempfile
import typing
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np


def _canonical(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            "__type__": type(obj).__qualname__,
            **{f.name: _canonical(getattr(obj, f.name)) for f in dataclasses.fields(obj)},
        }
    if isinstance(obj, dict):
        return {str(k): _canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [_canonical(v) for v in obj]
    if isinstance(obj, np.ndarray):
        flat = obj.ravel().tolist()  # Python floats, ints or bools for those dtypes: the same text, element by
        if obj.dtype.kind == "f":  # element, as _canonical gives them below, without a call per element
            data = [{"__float__": repr(v)} for v in flat]
        elif obj.dtype.kind in "iub":
            data = flat
        else:
            data = [_canonical(v) for v in flat]
        return {"__ndarray__": str(obj.dtype), "shape": list(obj.shape), "data": data}
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return {"__float__": repr(float(obj))}
    if obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cannot hash object of type {type(obj).__name__} for a cache key")


def canonical_json(obj: Any) -> str:
    """Canonical JSON text of ``obj`` (the exact text that is hashed)."""
    return json.dumps(_canonical(obj), sort_keys=True, separators=(",", ":"))


def stable_hash(obj: Any, length: int = 20) -> str:
    """sha256 (hex, truncated to ``length``) of the canonical JSON of ``obj``."""
    return hashlib.sha256(canonical_json(obj).encode()).hexdigest()[:length]


def tree_hash(folder: Path | str, pattern: str = "*.py") -> str:
    """sha256 over the relative paths and contents of the files matching ``pattern``."""
    folder = Path(folder)
    h = hashlib.sha256()
    for path in sorted(folder.rglob(pattern)):
        if "__pycache__" in path.parts:
            continue
        h.update(path.relative_to(folder).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def files_hash(paths) -> str:
    """sha256 over the names and contents of ``paths`` (files, or folders hashed by :func:`tree_hash`)."""
    h = hashlib.sha256()
    for path in paths:
        path = Path(path)
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(tree_hash(path).encode() if path.is_dir() else path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def file_mode() -> int:
    """The mode ``open()`` gives a new file under the current umask: ``0o666 & ~umask`` (0644 by default)."""
    try:  # Linux >= 4.7 shows the umask without changing it (os.umask is process-wide, not thread-safe)
        with open("/proc/self/status") as fh:
            umask = next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError):
        umask = os.umask(0o022)
        os.umask(umask)
    return 0o666 & ~umask


def atomic_write_bytes(path: Path | str, data: bytes, *, mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (temp file in the same folder + ``os.replace``).

    The file gets ``mode``, by default that of :func:`file_mode` (the user's
    umask), not mkstemp's 0600.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_at(None, str(path), data, file_mode() if mode is None else mode)
    return path


def _write_at(dfd: int | None, name: str, data: bytes, mode: int) -> None:
    """Write ``data`` as ``name`` atomically, with ``mode``: in the open folder ``dfd``, or (None) at the path ``name``.

    A temporary ``.<name>.<random>.tmp`` beside it (created exclusively, never
    through a symlink) is written, ``fsync``'ed and renamed over ``name``: a
    reader sees the old file or the whole new one, and a symlink at ``name``
    is replaced, never followed.  The temporary file is removed on any error.
    """
    at = {} if dfd is None else {"dir_fd": dfd}
    folder, base = os.path.split(name)
    for _ in range(100):
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, **at)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary name beside it", name)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)  # created 0600; the caller's mode (by default the umask's, like open())
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, name, **({} if dfd is None else {"src_dir_fd": dfd, "dst_dir_fd": dfd}))
    except BaseException:
        try:
            os.unlink(tmp, **at)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path | str, text: str, *, mode: int | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def atomic_write_json(path: Path | str, obj: Any) -> Path:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
    return atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


# ----------------------------------------------------------------------------
# The value codec: JSON that builds data only
# ----------------------------------------------------------------------------
#: Bump when the encoding changes: entries of another format are misses.
FORMAT = 1
#: Suffix of an entry (the old pickles, ``.pkl``, are never opened).
SUFFIX = ".json"

#: The dataclasses an entry may hold: the tag written in the file -> ``"module:attribute"`` it is imported from.
#: Nothing else is ever constructed from a cache entry.  A simulator whose result is a new dataclass adds it here.
RESULT_TYPES: dict[str, str] = {
    "models.sim.wormhole.WormholeResult": "models.sim.wormhole:WormholeResult",
    "models.sim.closed_min.ClosedSimResult": "models.sim.closed_min:ClosedSimResult",
    "models.core.results.SimPoint": "models.core.results:SimPoint",
}

#: Float fields that hold what a result measures: never NaN (finite, or ``inf`` where saturated -- DESIGN.md's
#: rule for latencies).  Every other float field of a result may also be NaN, its "not measured" (a confidence
#: interval over fewer than two batches, a rate over an empty window).
MEASURED: dict[str, frozenset] = {
    "models.sim.wormhole.WormholeResult": frozenset({"latency", "network_latency", "source_wait", "offered"}),
    "models.sim.closed_min.ClosedSimResult": frozenset({"R", "X"}),
    "models.core.results.SimPoint": frozenset({"latency"}),
}

#: The range of an ``int`` field (NumPy's int64: what the simulators count in).
INT_RANGE = (-2**63, 2**63 - 1)
#: The largest integer a ``float`` field may hold as an ``int`` (every one up to it converts to float exactly).
FLOAT_INT = 2**53

_DTYPE = re.compile(r"[<>|][biufc][0-9]{1,2}\Z")  # plain numbers only: no object, string, record or datetime dtypes
_TAGS = {"$float": {"$float"}, "$tuple": {"$tuple"}, "$dict": {"$dict"}, "$ndarray": {"$ndarray", "shape", "data"},
         "$npscalar": {"$npscalar", "data"}, "$dataclass": {"$dataclass", "fields"}, "$sympy": {"$sympy"}}


class CacheWarning(UserWarning):
    """The cache could not be used (not writable, another user's lock, a value it cannot store): not cached."""


def _result_type(tag: str) -> type:
    """The class the allow-list names for ``tag`` (KeyError if not listed)."""
    module, attr = RESULT_TYPES[tag].split(":")
    cls = getattr(importlib.import_module(module), attr)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"{RESULT_TYPES[tag]} is not a dataclass")
    return cls


@functools.cache
def _annotations(cls: type) -> dict:
    """The resolved annotation of every field of ``cls`` (``from __future__ import annotations`` keeps them as text)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _fits(annotation: Any, value: Any, measured: bool) -> bool:
    """Whether ``value`` is what ``annotation`` declares (the rules of :func:`check_fields`)."""
    if annotation is Any:
        return True
    if annotation is bool:
        return isinstance(value, (bool, np.bool_))
    if isinstance(value, (bool, np.bool_)):
        return False  # a bool is an int to Python, never a number here
    if annotation is int:
        return isinstance(value, (int, np.integer)) and INT_RANGE[0] <= value <= INT_RANGE[1]
    if annotation is float:
        if isinstance(value, (int, np.integer)):
            return -FLOAT_INT <= value <= FLOAT_INT
        return isinstance(value, (float, np.floating)) and not (measured and (math.isnan(value) or value == -math.inf))
    if annotation is np.ndarray:
        return type(value) is np.ndarray
    if annotation in (str, dict, list, tuple):
        return type(value) is annotation
    raise TypeError(f"a result field annotated {annotation!r} cannot be checked (models.core.cache.check_fields)")


def check_fields(tag: str, obj: Any) -> None:
    """Raise ValueError unless every field of the result ``obj`` (allow-listed as ``tag``) fits its annotation.

    ``float``: a float (a NumPy float too), or an int of at most
    :data:`FLOAT_INT` in magnitude (never a 400-digit one); the fields of
    :data:`MEASURED` neither NaN nor ``-inf``.  ``int``: an int within
    :data:`INT_RANGE`.  ``bool``: a bool.  ``np.ndarray``: an array (of the
    plain-number dtype it was stored with, :func:`decode`).  ``str``,
    ``dict``, ``list``, ``tuple``: exactly that type.  ``Any``: anything
    the codec builds.  ``None`` only where it is the field's default.  An
    annotation of another kind is a TypeError (every allow-listed class is
    checked by the tests).  The same check runs when a result is stored
    (:func:`encode`) and when it is read back (:func:`decode`).
    """
    measured = MEASURED.get(tag, frozenset())
    for f in dataclasses.fields(obj):
        value, annotation = getattr(obj, f.name), _annotations(type(obj))[f.name]
        if value is None and f.default is None:
            continue
        if not _fits(annotation, value, f.name in measured):
            text = repr(value)
            shown = text if len(text) <= 40 else f"<{type(value).__name__} of {len(text)} characters>"
            raise ValueError(f"{tag}.{f.name} = {shown}: not a valid `{getattr(annotation, '__name__', annotation)}`"
                             f"{' (a measured quantity: never NaN or -inf)' if f.name in measured else ''}")


def _tag_of(cls: type) -> str:
    for tag, target in RESULT_TYPES.items():
        module, attr = target.split(":")
        mod = sys.modules.get(module)  # a class's package is imported before the class exists
        if mod is None and (cls.__module__ == module or cls.__module__.startswith(module + ".")):
            mod = importlib.import_module(module)  # a module named by the allow-list
        if mod is not None and getattr(mod, attr, None) is cls:
            return tag
    raise TypeError(f"{cls.__module__}.{cls.__qualname__} is not in models.core.cache.RESULT_TYPES")


def _is_sympy(obj: Any) -> bool:
    if type(obj).__module__.partition(".")[0] != "sympy":
        return False
    import sympy

    return isinstance(obj, (sympy.Basic, sympy.MatrixBase))


def encode(obj: Any) -> Any:
    """``obj`` as JSON-ready data that :func:`decode` turns back into an equal object.

    Raises TypeError for anything else (a type the codec does not know, a
    dataclass outside :data:`RESULT_TYPES`, an object-dtype array).
    """
    t = type(obj)
    if obj is None or t in (bool, int, str):
        return obj
    if t is float:
        return obj if math.isfinite(obj) else {"$float": repr(obj)}
    if t is list:
        return [encode(v) for v in obj]
    if t is tuple:
        return {"$tuple": [encode(v) for v in obj]}
    if t is dict:
        if all(type(k) is str and not k.startswith("$") for k in obj):
            return {k: encode(v) for k, v in obj.items()}
        return {"$dict": [[encode(k), encode(v)] for k, v in obj.items()]}
    if t is np.ndarray or isinstance(obj, np.generic):
        dtype = obj.dtype
        if not _DTYPE.match(dtype.str):
            raise TypeError(f"cannot store a NumPy {'array' if t is np.ndarray else 'scalar'} of dtype {dtype}")
        data = base64.b64encode(np.ascontiguousarray(obj).tobytes()).decode("ascii")
        if t is np.ndarray:
            return {"$ndarray": dtype.str, "shape": list(obj.shape), "data": data}
        if type(np.frombuffer(base64.b64decode(data), dtype)[0]) is not t:
            raise TypeError(f"cannot store a NumPy scalar of type {t.__name__}")
        return {"$npscalar": dtype.str, "data": data}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        tag = _tag_of(t)
        names = [f.name for f in dataclasses.fields(obj)]
        extra = set(getattr(obj, "__dict__", {})) - set(names)
        if extra:
            raise TypeError(f"{tag} carries attributes that are not fields: {sorted(extra)}")
        check_fields(tag, obj)  # what decode would refuse is never stored
        return {"$dataclass": tag, "fields": {n: encode(getattr(obj, n)) for n in names}}
    if _is_sympy(obj):
        import sympy

        text = sympy.srepr(obj)
        back = _sympy_parse(text)
        if type(back) is not t or back != obj or sympy.srepr(back) != text:
            raise TypeError(f"the SymPy {t.__name__} does not rebuild exactly from its srepr")
        return {"$sympy": text}
    raise TypeError(f"cannot store an object of type {t.__module__}.{t.__qualname__} in the cache")


def decode(data: Any, *, sympy: bool = False) -> Any:
    """The object :func:`encode` gave ``data`` for; ValueError/TypeError/KeyError on anything else.

    SymPy expressions are rebuilt only with ``sympy=True`` (an entry whose
    HMAC :meth:`DiskCache.get` has checked): lambdify prints a symbol's name
    into code, so an expression from an unauthenticated file is refused.
    """
    t = type(data)
    if data is None or t in (bool, int, str, float):
        return data
    if t is list:
        return [decode(v, sympy=sympy) for v in data]
    if t is not dict:
        raise TypeError(f"unexpected JSON value of type {t.__name__}")
    tags = [k for k in data if k.startswith("$")]
    if not tags:
        return {k: decode(v, sympy=sympy) for k, v in data.items()}
    tag = tags[0]
    if len(tags) != 1 or tag not in _TAGS or set(data) != _TAGS[tag]:
        raise ValueError(f"unknown tagged value {sorted(data)}")
    body = data[tag]
    if tag == "$float":
        if body not in ("nan", "inf", "-inf"):
            raise ValueError(f"bad $float {body!r}")
        return float(body)
    if tag == "$tuple":
        return tuple(decode(_typed(body, list), sympy=sympy))
    if tag == "$dict":
        out = {}
        for pair in _typed(body, list):
            k, v = _typed(pair, list)
            out[decode(k, sympy=sympy)] = decode(v, sympy=sympy)
        return out
    if tag in ("$ndarray", "$npscalar"):
        if type(body) is not str or not _DTYPE.match(body):
            raise ValueError(f"bad dtype {body!r}")
        dtype = np.dtype(body)
        raw = base64.b64decode(_typed(data["data"], str), validate=True)
        if tag == "$npscalar":
            if len(raw) != dtype.itemsize:
                raise ValueError("scalar of the wrong size")
            return np.frombuffer(raw, dtype)[0]
        shape = _typed(data["shape"], list)
        if not all(type(n) is int and n >= 0 for n in shape) or math.prod(shape) * dtype.itemsize != len(raw):
            raise ValueError(f"array data does not fit shape {shape} of {dtype}")
        return np.frombuffer(raw, dtype).reshape(shape).copy()
    if tag == "$dataclass":
        cls = _result_type(_typed(body, str))  # KeyError: not in the allow-list
        fields = _typed(data["fields"], dict)
        names = [f.name for f in dataclasses.fields(cls)]
        if set(fields) != set(names):
            raise ValueError(f"{body}: stored fields differ from the class's")
        obj = object.__new__(cls)
        for n in names:
            object.__setattr__(obj, n, decode(fields[n], sympy=sympy))
        check_fields(body, obj)
        if hasattr(cls, "__post_init__"):
            obj.__post_init__()  # the class's own rules, as for a result it builds (SimPoint's)
        return obj
    if not sympy:
        raise ValueError("a SymPy expression in an entry without a valid HMAC")
    return _sympy_parse(_typed(body, str))  # $sympy


def _typed(value: Any, t: type) -> Any:
    if type(value) is not t:
        raise TypeError(f"expected {t.__name__}, got {type(value).__name__}")
    return value


#: Calls whose direct literal arguments may be strings (a name, or a Float's digits) -- never parsed by SymPy.
_SYMPY_STRING_ARGS = {"Symbol", "Dummy", "Wild", "Function", "Float"}


def _sympy_parse(text: str):
    """Rebuild ``sympy.srepr`` text without evaluating it (see the module docstring)."""
    import ast

    import sympy

    def resolve(name: str):
        obj = getattr(sympy, name, None) if not name.startswith("_") else None
        if isinstance(obj, type) and issubclass(obj, (sympy.Basic, sympy.MatrixBase)):
            return obj
        if isinstance(obj, sympy.Basic):  # a singleton: pi, oo, true, nan, E, I, ...
            return obj
        raise ValueError(f"srepr names {name!r}, which is not a SymPy class or constant")

    def ev(node, strings: bool = False):
        if isinstance(node, ast.Constant):
            v = node.value
            if type(v) in (int, float, bool) or v is None or (strings and type(v) is str):
                return v
            raise ValueError(f"srepr holds the literal {v!r} where SymPy could parse it")
        if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
                and type(node.operand.value) in (int, float)):
            return -node.operand.value
        if isinstance(node, ast.Name):
            return resolve(node.id)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [ev(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                name, fn = node.func.id, resolve(node.func.id)
                if not isinstance(fn, type):
                    raise ValueError(f"srepr calls {name!r}")
            elif (isinstance(node.func, ast.Call) and isinstance(node.func.func, ast.Name)
                  and node.func.func.id == "Function"):
                name, fn = "", ev(node.func)  # an undefined function applied: Function('f')(x)
            else:
                raise ValueError("srepr calls something else than a SymPy class")
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                raise ValueError("srepr has * or ** arguments")
            args = [ev(a, name in _SYMPY_STRING_ARGS) for a in node.args]
            return fn(*args, **{k.arg: ev(k.value) for k in node.keywords})
        raise ValueError(f"srepr holds a {type(node).__name__} expression")

    return ev(ast.parse(text, mode="eval").body)


# ----------------------------------------------------------------------------
# The per-user key that authenticates what could become code
# ----------------------------------------------------------------------------
KEY_FILE = Path("interconnect-models") / "cache.key"
_keys: dict = {}  # key file -> its bytes (or None: unusable), read once per process


def key_path() -> Path | None:
    """``$XDG_CONFIG_HOME/interconnect-models/cache.key`` (default ``~/.config/...``); None without a home."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        try:
            base = Path.home() / ".config"
        except RuntimeError:  # no HOME and no passwd entry
            return None
    return Path(base) / KEY_FILE


def _private(st: os.stat_result, mask: int) -> bool:
    return st.st_uid == os.geteuid() and not st.st_mode & mask


def secret_key() -> bytes | None:
    """This user's secret for :func:`mac`: 32 random bytes kept outside the cache (see :func:`key_path`).

    Created on first use (folder 0700, file 0600, atomically: two processes
    agree on one key).  Like ssh with a private key, a key file that is not a
    regular file of this user with no group/other permission is not used.
    None when there is no usable key (the caller then keeps nothing on disk
    that needs one).
    """
    path = key_path()
    if path is None:
        return None
    if path in _keys:
        return _keys[path]
    key = None
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            try:
                _create_key(path)
            except OSError:
                break
            continue
        except OSError:
            break
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and _private(st, 0o077):
                text = os.read(fd, 1024).decode("ascii", "replace").strip()
                if re.fullmatch(r"[0-9a-f]{64}", text):
                    key = bytes.fromhex(text)
        finally:
            os.close(fd)
        break
    _keys[path] = key
    return key


def _create_key(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cache.key.", dir=path.parent)  # 0600
    try:
        os.write(fd, (secrets.token_hex(32) + "\n").encode())
        os.fsync(fd)
        os.close(fd)
        try:
            os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def mac(data: bytes) -> str | None:
    """HMAC-SHA256 (hex) of ``data`` under :func:`secret_key`, or None without a key."""
    key = secret_key()
    return None if key is None else hmac.new(key, data, hashlib.sha256).hexdigest()


def mac_ok(data: bytes, tag: Any) -> bool:
    """Whether ``tag`` is :func:`mac` of ``data`` (constant-time)."""
    good = mac(data)
    return good is not None and type(tag) is str and hmac.compare_digest(good, tag)


# ----------------------------------------------------------------------------
# Warn once per folder and process
# ----------------------------------------------------------------------------
_warned: set = set()


def _warn_once(folder: Path, kind: str, message: str) -> None:
    if (str(folder), kind) in _warned:
        return
    _warned.add((str(folder), kind))
    warn(message)


def warn(message: str) -> None:
    """A :class:`CacheWarning` shown at the first caller outside this module, ``symbolic`` and ``contextlib``."""
    skip = (__file__, contextlib.__file__, str(Path(__file__).with_name("symbolic.py")))
    level, frame = 2, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename in skip:
        level, frame = level + 1, frame.f_back
    warnings.warn(message, CacheWarning, stacklevel=level)


def _not_writable(folder: Path, error: OSError) -> None:
    _warn_once(folder, "write", f"the cache folder {folder} cannot be written "
                                f"({error.strerror or error}): results are computed but not cached")


_swept: set = set()  # folders whose stale lock files this process has removed

#: The largest entry read or written, in bytes (a simulated point takes a few kB, the channel loads of the
#: largest networks a few MB): a larger file is not read into memory.
MAX_ENTRY_BYTES = 64 * 2**20

#: How every file of the cache is opened: never through a symbolic link (``ELOOP``), never waiting for a
#: FIFO's other end, never taking a terminal as the controlling one.
_OPEN_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC

#: A key is a file name of its own: letters, digits, ``_`` and ``-`` (a hash, in practice), never a path.
_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,127}")


class NotARegularFile(OSError):
    """A name of the cache that is a FIFO, a folder, a socket or a device rather than a regular file."""

    def __init__(self, st: os.stat_result):
        kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"),
                 (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
        self.kind = next((kind for test, kind in kinds if test(st.st_mode)), "not a regular file")
        super().__init__(f"is {self.kind}, not a regular file")


def open_regular(dfd: int, name: str, flags: int, mode: int = 0o666) -> tuple[int, os.stat_result]:
    """Open ``name`` in the folder ``dfd`` as a cache file must be: ``(descriptor, its fstat)``.

    The one way the cache opens its files (entries, locks, stale locks):
    relative to the folder's descriptor, with ``O_NOFOLLOW|O_NONBLOCK|O_NOCTTY``
    (a symbolic link fails with ``ELOOP``, a FIFO opens without blocking),
    then ``fstat``: anything but a regular file raises
    :class:`NotARegularFile`, its descriptor closed.
    """
    fd = os.open(name, flags | _OPEN_FLAGS, mode, dir_fd=dfd)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise NotARegularFile(st)
    return fd, st


def _why(error: OSError) -> str:
    """What is wrong with a file :func:`open_regular` refused, for a warning."""
    if isinstance(error, NotARegularFile):
        return str(error)
    if error.errno == errno.ELOOP:
        return "is a symbolic link"
    return f"cannot be opened ({error.strerror or error})"


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(limit - size, 2**20))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _refused(folder: Path, name: str, reason: str) -> None:
    _warn_once(folder, "entry", f"the cache entry {folder / name} {reason}: it is not used and the point is "
                                f"computed again (an entry is read only from a regular file of this user, "
                                f"of at most {MAX_ENTRY_BYTES // 2**20} MiB)")


def _unsigned(folder: Path, name: str) -> None:
    _warn_once(folder, "unsigned", f"the cache entry {folder / name} is not signed with this user's key (written "
                                   f"by an older version, by another user, or edited): it is not used and the "
                                   f"point is computed again")


def _no_key(folder: Path) -> None:
    _warn_once(folder, "key", f"no usable key at {key_path()} (it must be a file of this user, mode 0600) to sign "
                              f"and check the entries of {folder}: results are computed but not cached")


def _not_a_folder(folder: Path) -> None:
    what = "is a symbolic link" if os.path.islink(folder) else "is not a folder (a file, or a path under a file)"
    _warn_once(folder, "folder", f"the cache folder {folder} {what}: it is not used (results are computed but "
                                 f"not cached)")


def _entry_bytes(payload: dict) -> bytes:
    """The text of an entry (its keys in the order given: a dict's order is part of the value)."""
    return json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")


def _signed(payload: dict) -> bool:
    """Whether ``payload`` carries (as ``"mac"``, removed) this user's HMAC of the rest of it."""
    tag = payload.pop("mac", None)
    try:
        return mac_ok(_entry_bytes(payload), tag)
    except (TypeError, ValueError, RecursionError):  # a bare NaN token, say: nothing this code writes
        return False


class DiskCache:
    """A folder of results, one JSON file per key (:func:`encode`; never pickle), signed with this user's key.

    Parameters
    ----------
    folder : path
        Where entries live (created on first write).  A symbolic link, or a
        file, in its place is not used (one :class:`CacheWarning`); every
        entry and lock is opened relative to the folder's descriptor, so
        nothing is ever read, written or removed outside it.

    The key of an entry is :func:`stable_hash` of everything that determines
    it; callers pass every parameter, the seed and the code version.
    """

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        return self.folder / f"{_checked_key(key)}{SUFFIX}"

    def key(self, inputs: Any) -> str:
        return stable_hash(inputs, length=32)

    def lock_path(self, key: str) -> Path:
        return self.folder / f".{_checked_key(key)}.lock"

    def _open_folder(self, create: bool) -> int | None:
        """A descriptor of the folder, opened without following a symbolic link, or None.

        ``create`` makes it first (the umask's mode).  None without a warning
        when it is absent (nothing stored yet) or cannot be searched and
        ``create`` is False; with one when it is a symbolic link or a file,
        or (``create``) cannot be made.
        """
        if create:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except FileExistsError:
                pass  # a file or a dangling symbolic link in its place: refused below
            except NotADirectoryError:
                _not_a_folder(self.folder)
                return None
            except OSError as e:
                _not_writable(self.folder, e)
                return None
        try:
            return os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno in (errno.ENOTDIR, errno.ELOOP):
                _not_a_folder(self.folder)
            elif create:
                _not_writable(self.folder, e)
            return None

    @contextlib.contextmanager
    def _opened(self, create: bool):
        """:meth:`_open_folder` as a context: yields the descriptor (or None) and closes it."""
        dfd = self._open_folder(create)
        try:
            yield dfd
        finally:
            if dfd is not None:
                os.close(dfd)

    def _read(self, dfd: int, name: str) -> bytes | None:
        """The bytes of the entry ``name``, or None: absent, or refused (one warning) when it is not a regular
        file of this user (a FIFO, a symbolic link, a folder, another user's) or is larger than
        :data:`MAX_ENTRY_BYTES`."""
        try:
            fd, st = open_regular(dfd, name, os.O_RDONLY)
        except FileNotFoundError:
            return None
        except OSError as e:  # a symlink, a FIFO, a folder; another user's 0600 entry
            _refused(self.folder, name, _why(e))
            return None
        try:
            if st.st_uid != os.geteuid():
                _refused(self.folder, name, f"belongs to another user (uid {st.st_uid})")
                return None
            data = b"" if st.st_size > MAX_ENTRY_BYTES else _read_at_most(fd, MAX_ENTRY_BYTES + 1)
        finally:
            os.close(fd)
        if st.st_size > MAX_ENTRY_BYTES or len(data) > MAX_ENTRY_BYTES:
            _refused(self.folder, name, f"is larger than {MAX_ENTRY_BYTES} bytes")
            return None
        return data

    def get(self, key: str, default: Any = None) -> Any:
        """The stored value, or ``default``: absent, refused, unsigned, corrupt, of another key or format.

        Read only from a regular file of this user (:meth:`_read`), and used
        only when it carries this user's HMAC (:func:`mac`): anything else is
        a miss with one :class:`CacheWarning` per folder and reason.  Only an
        entry of this user that is not JSON at all (truncated, garbage) is
        removed; one whose content it does not accept (another format,
        another key, a value that does not fit its type: perhaps another
        checkout's) is left alone.
        """
        name = self.path(key).name
        with self._opened(create=False) as dfd:
            data = None if dfd is None else self._read(dfd, name)
            if data is None:
                return default
            try:
                payload = json.loads(data)
            except ValueError:  # not JSON (UnicodeDecodeError included): nobody's data
                try:
                    os.unlink(name, dir_fd=dfd)
                except OSError:
                    pass
                return default
            except RecursionError:  # nested beyond the parser: nothing this code writes
                return default
        if (type(payload) is not dict or payload.get("format") != FORMAT or payload.get("key") != key
                or "value" not in payload):
            return default
        if secret_key() is None:
            _no_key(self.folder)
            return default
        if not _signed(payload):
            _unsigned(self.folder, name)
            return default
        try:
            return decode(payload["value"], sympy=True)
        except Exception:  # noqa: BLE001 - not of the allow-list, or not fitting its type: a miss, recomputed
            return default

    def __contains__(self, key: str) -> bool:
        sentinel = object()
        return self.get(key, sentinel) is not sentinel

    def put(self, key: str, value: Any) -> Path | None:
        """Store ``value`` under ``key`` atomically, signed; the path, or None when it could not be stored.

        A value the codec cannot store (or larger than :data:`MAX_ENTRY_BYTES`),
        no usable key, or a folder that cannot be written (read-only, full, a
        symbolic link) gives one :class:`CacheWarning` and no entry, never an error.
        """
        name = self.path(key).name
        try:
            payload = {"format": FORMAT, "key": key, "value": encode(value)}
            tag = mac(_entry_bytes(payload))
            data = b"" if tag is None else _entry_bytes(dict(payload, mac=tag))
            if len(data) > MAX_ENTRY_BYTES:
                raise ValueError(f"{len(data)} bytes, more than the {MAX_ENTRY_BYTES} an entry may hold")
        except (TypeError, ValueError, RecursionError) as e:
            _warn_once(self.folder, f"type:{type(value).__qualname__}",
                       f"a {type(value).__qualname__} cannot be stored in the cache {self.folder} ({e}): not cached")
            return None
        if tag is None:
            _no_key(self.folder)
            return None
        with self._opened(create=True) as dfd:
            if dfd is None:
                return None
            try:
                _write_at(dfd, name, data, file_mode())
            except OSError as e:
                _not_writable(self.folder, e)
                return None
        return self.path(key)

    def get_or_compute(self, inputs: Any, compute: Callable[[], Any]) -> Any:
        """Return the cached value for ``inputs`` or compute, store and return it (once: :meth:`fetch_or_compute`)."""
        return self.fetch_or_compute(self.key(inputs), compute)

    def fetch_or_compute(self, key: str, compute: Callable[[], Any]) -> Any:
        """The value under ``key``; if absent, ``compute()`` it, store it and return it.

        The computation holds :meth:`lock` on ``key``: a process asking for
        the same key meanwhile waits and then reads the stored value instead
        of computing it a second time.  A cache that cannot be written still
        returns the computed value (:meth:`put`).
        """
        sentinel = object()
        value = self.get(key, sentinel)
        if value is not sentinel:
            return value
        with self.lock(key):
            value = self.get(key, sentinel)  # computed by another process while we waited
            if value is sentinel:
                value = compute()
                self.put(key, value)
        return value

    def _open_lock(self, dfd: int, name: str) -> int | None:
        """A descriptor of the lock file (created with the umask's mode), or None (warned) if it cannot be had.

        Another user's lock file (a shared cache) is used too, read-only if it
        must be: a lock only waits, it is never read nor written.
        """
        path = self.folder / name
        try:
            return open_regular(dfd, name, os.O_RDWR | os.O_CREAT)[0]
        except PermissionError as e:
            try:  # another user's lock file (0644): a read-only descriptor can be flock'ed too
                return open_regular(dfd, name, os.O_RDONLY)[0]
            except FileNotFoundError:
                _not_writable(self.folder, e)  # the folder is not ours to write
            except OSError as e2:
                reason = (_why(e2) if isinstance(e2, NotARegularFile) or e2.errno == errno.ELOOP
                          else f"cannot be opened ({e.strerror}; another user's lock?)")
                _warn_once(self.folder, "lock", f"the lock file {path} {reason}: computing without it (another "
                                                f"process may compute the same point)")
            return None
        except OSError as e:  # read-only, full; a symlink, a FIFO or a folder as lock
            if isinstance(e, NotARegularFile) or e.errno == errno.ELOOP:
                _warn_once(self.folder, "lock", f"the lock file {path} {_why(e)}: computing without it")
            else:
                _not_writable(self.folder, e)
            return None

    def _remove_stale_locks(self, dfd: int) -> None:
        """Remove this user's lock files that nobody holds (left by killed processes); once per folder and process.

        Only regular files named ``.*.lock`` in the folder itself (``dfd``):
        never a symbolic link's target, never anything outside the folder.
        """
        if self.folder in _swept:
            return
        _swept.add(self.folder)
        uid = os.geteuid()
        try:
            with os.scandir(dfd) as it:
                names = [e.name for e in it if e.name.startswith(".") and e.name.endswith(".lock")]
        except OSError:
            return
        for name in names:
            try:
                st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                if st.st_uid != uid or not stat.S_ISREG(st.st_mode):
                    continue
                fd, held = open_regular(dfd, name, os.O_RDONLY)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a live process: BlockingIOError, kept
                current = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                if (held.st_ino, held.st_dev) == (current.st_ino, current.st_dev):
                    os.unlink(name, dir_fd=dfd)  # a process waiting on it re-checks the inode and locks a new one
            except OSError:
                pass
            finally:
                os.close(fd)

    def _acquire(self, dfd: int, name: str, blocking: bool) -> tuple[int | None, bool]:
        """``(descriptor holding the lock, False)``; ``(None, True)`` when another process holds it
        (``blocking=False``); ``(None, False)`` when no lock can be had (warned)."""
        while True:
            fd = self._open_lock(dfd, name)
            if fd is None:
                return None, False
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
                held = os.fstat(fd)
                try:
                    current = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except FileNotFoundError:
                    current = None
            except BlockingIOError:  # held by another process (blocking=False)
                os.close(fd)
                return None, True
            except BaseException:
                os.close(fd)
                raise
            if current is not None and (current.st_ino, current.st_dev) == (held.st_ino, held.st_dev):
                return fd, False
            os.close(fd)  # the holder removed the file we waited on: lock the new one

    @contextlib.contextmanager
    def lock(self, key: str, *, blocking: bool = True):
        """Hold the computing lock of ``key`` (an advisory ``flock`` on ``.<key>.lock``).

        Yields True once held; with ``blocking=False`` yields False at once
        (and holds nothing) when another process holds it.  The lock file is
        removed on release; a waiter that locked a removed file retries on
        the new one, so two processes never both hold a key.  A process that
        dies releases its lock (the kernel drops it with the descriptor), and
        the file it leaves is removed by the next process locking in that
        folder.  When the lock file cannot be created or opened (a read-only
        or full cache, another user's 0600 lock, a symbolic link or a FIFO in
        its place) or the folder is not usable, it yields True without
        holding anything, after one :class:`CacheWarning`: the caller
        computes, as without a cache.
        """
        name = self.lock_path(key).name
        with self._opened(create=True) as dfd:
            fd, busy = (None, False) if dfd is None else self._acquire(dfd, name, blocking)
            if fd is None:
                yield not busy
                return
            self._remove_stale_locks(dfd)
            try:
                yield True
            finally:
                try:
                    os.unlink(name, dir_fd=dfd)
                except OSError:  # removed by hand, or another user's file in a sticky folder
                    pass
                os.close(fd)


def _checked_key(key: str) -> str:
    """``key`` if it is a plain file name of its own (:data:`_KEY`); a ValueError naming ``key`` otherwise."""
    if type(key) is not str or not _KEY.fullmatch(key):
        raise ValueError(f"`key` must be 1 to 128 letters, digits, '_' or '-' (a cache key, not a path); got {key!r}")
    return key
