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
  stored field names are exactly the class's;
* SymPy expressions (``{"$sympy": srepr(expr)}``, for the derivations
  :mod:`models.traffic.moments` keeps): the ``srepr`` text is parsed with
  :mod:`ast`, never evaluated, and rebuilt from SymPy's own public classes
  and constants with literal arguments (strings only as the name of a
  ``Symbol``, ``Dummy``, ``Wild`` or ``Function`` or the digits of a
  ``Float``).  Building them runs no code, but ``lambdify`` prints a
  symbol's name into the code it generates, so an entry holding SymPy
  values carries an HMAC (``"mac"``) under this user's key
  (:func:`secret_key`, kept outside the cache) and they are rebuilt only
  when it checks.

An entry is ``{"format": FORMAT, "key": key, "value": <encoded value>}``::

    {"format":1,"key":"78ce...","value":{"$dataclass":"models.sim.closed_min.ClosedSimResult",
     "fields":{"R":7.414762741652021,"R_ci":0.0522...,"X_i":{"$ndarray":"<f8","shape":[4],
     "data":"AAAAAAAA5D8..."},"params":{"k":2,...},...}}}

A value that cannot be encoded exactly is not stored (one
:class:`CacheWarning`); a value read back is equal to the one stored
(arrays: same dtype, shape and bytes), so a cached run gives byte-identical
tables.  Reading an entry that is absent, unreadable (another user's, a
folder), corrupt, of another format or another key, or naming a type
outside the allow-list is a miss: the point is computed again and the
entry rewritten.  :meth:`DiskCache.get` removes only an entry that is not
JSON at all (truncated), never one it cannot open (another user's).
Entries of the old pickle format (``<key>.pkl``) are never opened: they
are ignored, and every cached simulation is computed once more under the
new format.

Degrading instead of failing
----------------------------
A cache that cannot be written (read-only, full, a path that is a file,
another user's folder) never costs a computed result: :meth:`DiskCache.put`
and :meth:`DiskCache.lock` give one :class:`CacheWarning` per folder and
process ("... results are computed but not cached") and go on.

Lock files (``.<key>.lock``) are created with the umask's mode (``0o666 &
~umask``, like any file the user creates), so other users of a shared cache
can open them read-only and wait on them too.  A lock file this process
cannot open at all (another user's ``0600`` lock) is not waited on: the
point is computed without the lock (one warning; at worst another process
computes it too) -- the lock never makes anyone delete an entry.  A lock is
removed by its holder on release; one left behind by a killed process
(nobody holds it any more) is removed by the next process that takes a lock
in that folder (once per process and folder, only this user's lock files,
only those it can lock without waiting), so they do not pile up.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import errno
import fcntl
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
        return {"__ndarray__": str(obj.dtype), "shape": list(obj.shape), "data": [_canonical(v) for v in obj.ravel().tolist()]}
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
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, file_mode() if mode is None else mode)  # mkstemp makes 0600; follow the umask like open()
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


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
        return obj
    if not sympy:
        raise ValueError("a SymPy expression in an entry without a valid HMAC")
    return _sympy_parse(_typed(body, str))  # $sympy


def _has_sympy(data: Any) -> bool:
    if type(data) is list:
        return any(_has_sympy(v) for v in data)
    if type(data) is dict:
        return "$sympy" in data or any(_has_sympy(v) for v in data.values())
    return False


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


def _entry_bytes(payload: dict) -> bytes:
    """The text of an entry (its keys in the order given: a dict's order is part of the value)."""
    return json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")


class DiskCache:
    """A folder of results, one JSON file per key (:func:`encode`; never pickle).

    Parameters
    ----------
    folder : path
        Where entries live (created on first write).

    The key of an entry is :func:`stable_hash` of everything that determines
    it; callers pass every parameter, the seed and the code version.
    """

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def key(self, inputs: Any) -> str:
        return stable_hash(inputs, length=32)

    def get(self, key: str, default: Any = None) -> Any:
        """The stored value, or ``default`` if absent, unreadable, corrupt, of another key or format.

        Only an entry that is not JSON at all (truncated, garbage) is removed;
        one it cannot open (another user's 0600 entry) or whose content it
        does not accept (another format, another key, a type outside the
        allow-list: perhaps another checkout's) is left alone.
        """
        path = self.path(key)
        try:
            with open(path, "rb") as fh:
                text = fh.read()
        except OSError:  # absent, another user's 0600 entry, a folder in its place
            return default
        try:
            payload = json.loads(text)
        except ValueError:  # not JSON (UnicodeDecodeError included): nobody's data
            try:
                path.unlink()
            except OSError:
                pass
            return default
        try:
            if (type(payload) is not dict or payload.get("format") != FORMAT or payload.get("key") != key
                    or "value" not in payload):
                return default
            tag = payload.pop("mac", None)
            trusted = tag is not None and mac_ok(_entry_bytes(payload), tag)
            return decode(payload["value"], sympy=trusted)
        except Exception:  # noqa: BLE001 - corrupt, foreign or not allowed: a miss, recomputed and rewritten
            return default

    def __contains__(self, key: str) -> bool:
        sentinel = object()
        return self.get(key, sentinel) is not sentinel

    def put(self, key: str, value: Any) -> Path | None:
        """Store ``value`` under ``key`` atomically; the path, or None when it could not be stored.

        A value the codec cannot store, or a folder that cannot be written
        (read-only, full), gives one :class:`CacheWarning` and no entry, never an error.
        """
        try:
            payload = {"format": FORMAT, "key": key, "value": encode(value)}
            data = _entry_bytes(payload)
            if _has_sympy(payload["value"]):  # may become code (lambdify): authenticated, see decode
                tag = mac(data)
                if tag is None:
                    raise TypeError(f"no usable key at {key_path()} to authenticate SymPy expressions")
                data = _entry_bytes(dict(payload, mac=tag))
        except (TypeError, ValueError, RecursionError) as e:
            _warn_once(self.folder, f"type:{type(value).__qualname__}",
                       f"a {type(value).__qualname__} cannot be stored in the cache {self.folder} ({e}): not cached")
            return None
        try:
            return atomic_write_bytes(self.path(key), data)
        except OSError as e:
            _not_writable(self.folder, e)
            return None

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

    def lock_path(self, key: str) -> Path:
        return self.folder / f".{key}.lock"

    def _open_lock(self, path: Path) -> int | None:
        """A descriptor of the lock file (created with the umask's mode), or None (warned) if it cannot be had."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        except PermissionError as e:
            try:  # another user's lock file (0644): a read-only descriptor can be flock'ed too
                return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except FileNotFoundError:
                _not_writable(self.folder, e)  # the folder is not ours to write
            except OSError:
                _warn_once(self.folder, "lock", f"cannot open the lock file {path} ({e.strerror}; another user's "
                                                f"lock?): computing without it (another process may compute the "
                                                f"same point)")
            return None
        except OSError as e:  # read-only, full, a file in the folder's place, a symlink as lock
            if e.errno == errno.ELOOP:
                _warn_once(self.folder, "lock", f"the lock file {path} is a symbolic link: computing without it")
            else:
                _not_writable(self.folder, e)
            return None

    def _remove_stale_locks(self) -> None:
        """Remove this user's lock files that nobody holds (left by killed processes); once per folder and process."""
        if self.folder in _swept:
            return
        _swept.add(self.folder)
        uid = os.geteuid()
        try:
            names = [e.name for e in os.scandir(self.folder) if e.name.startswith(".") and e.name.endswith(".lock")]
        except OSError:
            return
        for name in names:
            path = self.folder / name
            try:
                if os.lstat(path).st_uid != uid:
                    continue
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a live process: BlockingIOError, kept
                held, current = os.fstat(fd), os.stat(path)
                if (held.st_ino, held.st_dev) == (current.st_ino, current.st_dev) and stat.S_ISREG(held.st_mode):
                    os.unlink(path)  # a process waiting on this file re-checks the inode and locks a new one
            except OSError:
                pass
            finally:
                os.close(fd)

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
        or full cache, another user's 0600 lock) it yields True without
        holding anything, after one :class:`CacheWarning`: the caller
        computes, as without a cache.
        """
        path = self.lock_path(key)
        busy = False
        while True:
            fd = self._open_lock(path)
            if fd is None:
                break  # no lock to be had (warned): compute without one
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
                held = os.fstat(fd)
                try:
                    current = os.stat(path)
                except FileNotFoundError:
                    current = None
            except BlockingIOError:  # held by another process (blocking=False)
                os.close(fd)
                busy = True
                break
            except BaseException:
                os.close(fd)
                raise
            if current is not None and (current.st_ino, current.st_dev) == (held.st_ino, held.st_dev):
                break
            os.close(fd)  # the holder removed the file we waited on: lock the new one
        if busy or fd is None:
            yield not busy
            return
        self._remove_stale_locks()
        try:
            yield True
        finally:
            try:
                os.unlink(path)
            except OSError:  # removed by hand, or another user's file in a sticky folder
                pass
            os.close(fd)
