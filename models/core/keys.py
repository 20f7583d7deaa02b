"""Cache keys of simulation points: one scheme for every simulator.

The key of a call ``fn(**kwargs)`` is the hash (:func:`models.core.cache.stable_hash`)
of the function's qualified name, its version and every keyword argument
after filling in the function's defaults -- the seed included -- so a changed
parameter, a changed default or a changed simulator gives a new key.  The
version is the function's ``sim_version`` attribute (the simulators set it to
a hash of their source files), its module's ``SIM_VERSION``, or else a hash of
its module's source file.

Both simulators (:func:`models.sim.wormhole.simulate`,
:func:`models.sim.closed_min.simulate`) and the sweep runner
(:func:`models.sim.sweep.run_sweep`) key their on-disk entries with
:func:`point_key` and find their cache folder with :func:`cache_for`, so a
point simulated by a sweep is found by a direct call and vice versa.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from pathlib import Path
from typing import Callable

from .cache import DiskCache, stable_hash
from .errors import ParameterError
from .paths import cache_dir

__all__ = ["point_key", "function_version", "normalise_kwargs", "cache_for"]


def function_version(fn: Callable) -> str:
    """Version string of a simulate function (``fn.sim_version``, the module's
    ``SIM_VERSION``, or a hash of the module's source file)."""
    v = getattr(fn, "sim_version", None)
    if v:
        return str(v)
    mod = sys.modules.get(getattr(fn, "__module__", ""), None)
    v = getattr(mod, "SIM_VERSION", None)
    if v:
        return str(v)
    try:
        src = Path(inspect.getsourcefile(fn)).read_bytes()
        return "src-" + hashlib.sha256(src).hexdigest()[:16]
    except (TypeError, OSError):
        return "unknown"


def function_name(fn: Callable) -> str:
    """``module.qualname`` of ``fn``."""
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def normalise_kwargs(fn: Callable, kwargs: dict) -> dict:
    """Keyword arguments with the function's defaults filled in (``cache`` dropped).

    Raises :class:`~models.core.errors.ParameterError` (a ``ValueError``)
    when ``kwargs`` do not fit ``fn``'s signature.
    """
    kw = dict(kwargs)
    kw.pop("cache", None)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return kw
    params = sig.parameters
    if "cache" in params:
        kw["cache"] = False
    try:
        bound = sig.bind(**kw)
    except TypeError as e:
        raise ParameterError(f"point does not fit {function_name(fn)}: {e}") from None
    bound.apply_defaults()
    out = dict(bound.arguments)
    for name, p in params.items():
        if p.kind is inspect.Parameter.VAR_KEYWORD and name in out:
            out.update(out.pop(name))
    out.pop("cache", None)
    return out


def point_key(fn: Callable, kwargs: dict) -> str:
    """Cache key of ``fn(**kwargs)``: function name, version and every argument (defaults filled)."""
    return stable_hash(
        {"fn": function_name(fn), "version": function_version(fn), "kwargs": normalise_kwargs(fn, kwargs)},
        length=32,
    )


def cache_for(fn: Callable, cache=True) -> DiskCache | None:
    """The :class:`DiskCache` of ``fn``'s results.

    ``cache`` is True (the folder ``cache_dir()/<fn.cache_name or module name>``),
    False/None (no cache), a :class:`DiskCache`, or a folder path.
    """
    if cache is False or cache is None:
        return None
    if isinstance(cache, DiskCache):
        return cache
    if cache is True:
        name = getattr(fn, "cache_name", None) or getattr(fn, "__module__", "sim").split(".")[-1]
        return DiskCache(cache_dir() / name)
    return DiskCache(Path(cache))
