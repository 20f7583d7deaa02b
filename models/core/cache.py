"""Keys and atomic writes for everything cached on disk.

* :func:`stable_hash` hashes any JSON-like object canonically (sorted keys,
  numpy scalars and arrays converted, floats by ``repr``), so two equal
  parameter sets always give the same key.
* :func:`tree_hash` hashes the text of every ``*.py`` file under a folder
  (the "hash of ``models/``" that keys notebook runs and simulator results).
* :func:`atomic_write_bytes` / ``_text`` / ``_json`` write to a temporary
  file in the same folder, ``fsync`` it and ``os.replace`` it into place:
  a reader sees either the old file or the whole new one, never a half.
* :class:`DiskCache` is a folder of pickled values keyed by
  :func:`stable_hash` of every input; a corrupt or unreadable entry is
  treated as missing (and removed), never returned.  :meth:`DiskCache.lock`
  and :meth:`DiskCache.fetch_or_compute` make sure an entry is computed
  once even when several processes (two notebooks of one chapter, two
  pipeline workers) ask for it at the same time: the second waits for the
  first and reads its result.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import pickle
import tempfile
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


def atomic_write_bytes(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temp file in the same folder + ``os.replace``).

    The file gets the mode of :func:`file_mode` (the user's umask), not mkstemp's 0600.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, file_mode())  # mkstemp makes 0600; the final file follows the umask like open()
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


def atomic_write_text(path: Path | str, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path | str, obj: Any) -> Path:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
    return atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


class DiskCache:
    """A folder of pickled results, one file per key.

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
        return self.folder / f"{key}.pkl"

    def key(self, inputs: Any) -> str:
        return stable_hash(inputs, length=32)

    def get(self, key: str, default: Any = None) -> Any:
        """The stored value, or ``default`` if absent or unreadable."""
        path = self.path(key)
        try:
            with open(path, "rb") as fh:
                payload = pickle.load(fh)
        except FileNotFoundError:
            return default
        except Exception:
            # A truncated or incompatible entry is never returned; drop it.
            try:
                path.unlink()
            except OSError:
                pass
            return default
        if not isinstance(payload, dict) or payload.get("key") != key:
            return default
        return payload["value"]

    def __contains__(self, key: str) -> bool:
        sentinel = object()
        return self.get(key, sentinel) is not sentinel

    def put(self, key: str, value: Any) -> Path:
        """Store ``value`` under ``key`` atomically."""
        return atomic_write_bytes(self.path(key), pickle.dumps({"key": key, "value": value}, protocol=4))

    def get_or_compute(self, inputs: Any, compute: Callable[[], Any]) -> Any:
        """Return the cached value for ``inputs`` or compute, store and return it (once: :meth:`fetch_or_compute`)."""
        return self.fetch_or_compute(self.key(inputs), compute)

    def fetch_or_compute(self, key: str, compute: Callable[[], Any]) -> Any:
        """The value under ``key``; if absent, ``compute()`` it, store it and return it.

        The computation holds :meth:`lock` on ``key``: a process asking for
        the same key meanwhile waits and then reads the stored value instead
        of computing it a second time.
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

    @contextlib.contextmanager
    def lock(self, key: str, *, blocking: bool = True):
        """Hold the computing lock of ``key`` (an advisory ``flock`` on ``.<key>.lock``).

        Yields True once held; with ``blocking=False`` yields False at once
        (and holds nothing) when another process holds it.  The lock file is
        removed on release; a waiter that locked a removed file retries on
        the new one, so two processes never both hold a key.  A process that
        dies releases its lock (the kernel drops it with the descriptor).
        """
        path = self.lock_path(key)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = None
        while fd is None:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
                held = os.fstat(fd)
                try:
                    current = os.stat(path)
                except FileNotFoundError:
                    current = None
            except BlockingIOError:  # held by another process (blocking=False)
                os.close(fd)
                fd = None
                break
            except BaseException:
                os.close(fd)
                raise
            if current is None or (current.st_ino, current.st_dev) != (held.st_ino, held.st_dev):
                os.close(fd)  # the holder removed the file we waited on: lock the new one
                fd = None
        if fd is None:
            yield False
            return
        try:
            yield True
        finally:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            os.close(fd)
