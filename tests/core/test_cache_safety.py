"""A cache that is data, not code (#26; review ``reliability.md`` section 1d, defects 2, 6, 8, 11, 14).

Case ids are the review's: K5/K6 (a lambdified file of other parameters or with an edited formula), K7 (a
pickle payload in a result entry), K8 (a lambdified file another user could have written), K10/K11 (a
read-only or full cache), K14 (stale lock files), K16 (another user's lock file).  The tests run as root in
CI, where permissions do not bind: "another user" is a file chown'ed to uid 65534, and the paths where only
a non-root user would see EACCES are reached by making ``os.open`` raise it.
"""

import dataclasses
import errno
import json
import math
import multiprocessing as mp
import os
import pickle
import signal
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from models.core import cache, symbolic
from models.core.cache import CacheWarning, DiskCache, decode, encode

NOBODY = 65534
CTX = mp.get_context("fork")
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


def cache_warnings(record) -> list:
    return [w for w in record if issubclass(w.category, CacheWarning)]


def assert_same(a, b, where="value"):
    """Equal and of the same types all the way down (arrays: dtype, shape and bytes; floats: bits but NaN)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} became {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), where
    elif isinstance(a, (float, np.floating)):
        assert (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b)), where
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys (or their order) differ"
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    else:
        assert a == b, where


def write_signed(dc: DiskCache, key: str, value) -> None:
    """Write ``value`` (JSON data, not encoded) as the entry ``key``, signed with this user's key: only the check
    under test can refuse it."""
    payload = {"format": cache.FORMAT, "key": key, "value": value}
    dc.folder.mkdir(parents=True, exist_ok=True)
    cache.atomic_write_bytes(dc.path(key), cache._entry_bytes(dict(payload, mac=cache.mac(cache._entry_bytes(payload)))))


def roundtrip(value):
    return decode(json.loads(json.dumps(encode(value), allow_nan=False)))


# ----------------------------------------------------------------------------- the codec
VALUES = [
    None, True, False, 0, -2**80, "", "é$", 1.5, -0.0, 0.1 + 0.2, 5e-324, math.inf, -math.inf, math.nan,
    [1, 1.0, "1", None], (1, (2.0, [3])), (), [()], {"a": 1, "b": [1.5]}, {"$sympy": "x", "$float": 1},
    {1: "int key", 1.5: "float key", (1, 2): "tuple key", None: 0, True: 1}, {"nested": {"z": 1, "a": 2}},
    np.arange(6, dtype=np.int32).reshape(2, 3), np.array([np.nan, -0.0, np.inf]), np.zeros((0, 3)),
    np.array(2.5), np.array([True, False]), np.array([1 + 2j], dtype=np.complex64), np.arange(4, dtype=">u2"),
    np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.arange(10.0)[::3],
    np.float64(0.1), np.float32(0.1), np.int64(-7), np.uint8(255), np.bool_(True), np.float64(np.nan),
]


@pytest.mark.parametrize("value", VALUES, ids=[f"{type(v).__name__}-{i}" for i, v in enumerate(VALUES)])
def test_every_kind_of_value_round_trips_exactly(value):
    assert_same(value, roundtrip(value))


def test_arrays_read_back_are_writable_copies():
    a = roundtrip(np.arange(3.0))
    a[0] = 5.0
    assert a.flags.c_contiguous


@pytest.mark.parametrize("value", [object(), {1, 2}, b"bytes", np.array([object()]), np.array(["str"]),
                                   np.zeros(2, dtype=[("a", "f8")]), Path("/"), 1j,
                                   np.ma.masked_array([1.0]), bytearray(b"x")])
def test_values_outside_the_codec_are_refused_when_stored(value):
    with pytest.raises(TypeError):
        encode(value)


@dataclasses.dataclass(frozen=True)
class NotAllowed:
    x: float


def test_a_dataclass_outside_the_allow_list_is_neither_stored_nor_read(iso):
    with pytest.raises(TypeError, match="RESULT_TYPES"):
        encode(NotAllowed(1.0))
    dc = DiskCache(iso / "c")
    with pytest.warns(CacheWarning, match="cannot be stored"):
        assert dc.fetch_or_compute("k", lambda: NotAllowed(2.0)) == NotAllowed(2.0)  # returned all the same
    assert not dc.path("k").exists()


@pytest.mark.parametrize("value", [{"$float": "1e308"}, {"$tuple": [], "x": 1}, {"$ndarray": "|O8", "shape": [1],
                                   "data": ""}, {"$ndarray": "<f8", "shape": [2], "data": "AAAAAAAA8D8="},
                                   {"$npscalar": "<f8", "data": "AA=="}, {"$unknown": 1}, {"$dict": [[1]]},
                                   {"$dataclass": "builtins.object", "fields": {}},
                                   {"$sympy": "Symbol('x')"}])
def test_malformed_or_foreign_data_is_refused_when_read(value):
    with pytest.raises((ValueError, TypeError, KeyError)):
        decode(value)


# ----------------------------------------------------------------------------- real results
def test_real_results_read_back_exactly_and_give_the_same_tables(iso):
    """A wormhole and a closed_min point, stored and read back: every field equal and of the same type, the
    one-row tables byte-identical; ``simulate(cache=True)`` then hits the JSON entry."""
    from models.sim import closed_min
    from models.sim.wormhole import Torus, WormholeResult, simulate

    w_kw = dict(topology=Torus((4, 4), bidirectional=False), routing="dor", vcs=2, message_length=4, rate=0.01,
                messages=300, warmup_messages=50, batches=5)
    c_kw = dict(k=2, n=2, NC=2, S_pe=4.0, S_mm=2, cycles=2000, warmup=200, batches=5)
    w = simulate(**w_kw, cache=True)
    c = closed_min.simulate(**c_kw, cache=True)
    assert type(w) is WormholeResult and type(c) is closed_min.ClosedSimResult
    for fresh, folder in ((w, "wormhole"), (c, "closed_min")):
        (entry,) = (iso / "cache" / folder).glob("*.json")
        stored = json.loads(entry.read_text())
        assert stored["format"] == cache.FORMAT and stored["key"] == entry.stem
        back = DiskCache(entry.parent).get(entry.stem)
        assert back is not None
        assert_same(fresh, back)
        assert back.to_frame().to_csv() == fresh.to_frame().to_csv()
        assert repr(back) == repr(fresh)
        assert json.dumps(back.to_dict()) == json.dumps(fresh.to_dict())
    again = simulate(**w_kw, cache=True)
    assert_same(w, again)  # wall_time included: read from the entry, not simulated again
    assert_same(c, closed_min.simulate(**c_kw, cache=True))
    assert not list((iso / "cache").rglob("*.pkl"))


# ----------------------------------------------------------------------------- K7: no code in a result entry
def test_K7_an_old_pickle_entry_with_a_payload_is_never_opened(iso):
    """The review's K7: a pickled entry with the right key and a ``__reduce__`` payload ran ``os.system``
    when read.  Entries are now ``<key>.json``; the ``.pkl`` beside it is never opened."""
    marker = iso / "pwned"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    dc = DiskCache(iso / "c")
    blob = pickle.dumps({"key": "k", "value": 42, "x": Payload()})
    (iso / "c").mkdir()
    (iso / "c" / "k.pkl").write_bytes(blob)
    assert dc.get("k") is None
    assert dc.fetch_or_compute("k", lambda: 7) == 7
    assert dc.get("k") == 7
    assert not marker.exists(), "the pickle entry was loaded"
    pickle.loads(blob)  # the payload is live: loading it is what would have happened
    assert marker.exists()


def test_K7_a_json_entry_naming_a_class_outside_the_allow_list_is_a_miss_and_imports_nothing(iso, monkeypatch):
    marker = iso / "imported"
    (iso / "k7_payload.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "import dataclasses\n@dataclasses.dataclass\nclass Boom:\n    x: int = 0\n")
    monkeypatch.syspath_prepend(str(iso))
    dc = DiskCache(iso / "c")
    for tag in ("k7_payload.Boom", "k7_payload:Boom", "os.system", "subprocess.Popen"):
        write_signed(dc, "k", {"$dataclass": tag, "fields": {"x": 1}})
        assert dc.get("k", "miss") == "miss", tag
    assert not marker.exists() and "k7_payload" not in sys.modules
    assert dc.fetch_or_compute("k", lambda: {"x": 1}) == {"x": 1}


def test_an_allowed_class_with_other_fields_is_a_miss(iso):
    from models.sim import closed_min

    dc = DiskCache(iso / "c")
    write_signed(dc, "k", {"$dataclass": "models.sim.closed_min.ClosedSimResult", "fields": {"R": 1.0}})
    assert dc.get("k", "miss") == "miss"
    assert closed_min.ClosedSimResult  # the allow-list names the class the simulator returns
    assert cache._result_type("models.sim.closed_min.ClosedSimResult") is closed_min.ClosedSimResult


@pytest.mark.parametrize("content", [b"", b'{"format": 1, "key": "k", "val', os.urandom(3000), b"[1, 2]",
                                     b'{"format": 0, "key": "k", "value": 1}', b'{"format": 1, "key": "other", "value": 1}',
                                     b'{"format": 1, "key": "k"}'])
def test_corrupt_foreign_or_other_key_entries_are_misses_and_are_rewritten(iso, content):
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    dc.path("k").write_bytes(content)
    assert dc.get("k", "miss") == "miss"
    try:
        json.loads(content)
    except ValueError:
        assert not dc.path("k").exists(), "a truncated entry was left"  # nobody's data: removed, as before
    else:
        assert dc.path("k").read_bytes() == content, "get changed or removed a well-formed entry"
    assert dc.fetch_or_compute("k", lambda: [1, 2.5]) == [1, 2.5]
    assert dc.get("k") == [1, 2.5]


def test_an_entry_that_cannot_be_read_is_not_deleted(iso, monkeypatch):
    """Defect 11: ``get`` unlinked any entry it could not read, e.g. another user's 0600 entry."""
    dc = DiskCache(iso / "c")
    dc.put("k", {"theirs": 1})
    real_open = os.open

    def no_permission(path, flags, *a, **kw):
        if str(path) == dc.path("k").name:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", no_permission)
    with pytest.warns(CacheWarning, match="cannot be opened"):
        assert dc.get("k", "miss") == "miss"
    assert dc.path("k").exists()
    monkeypatch.setattr(os, "open", real_open)
    assert dc.get("k") == {"theirs": 1}


def test_sympy_values_need_the_entrys_hmac(iso):
    """SymPy expressions (models.traffic.moments keeps its derivations in the cache) become code when
    lambdified (a symbol's name is printed into the source), so they are read only from authenticated entries."""
    x = sp.Symbol("x", positive=True)
    value = {"expr": sp.exp(-x) / 3 + sp.Rational(1, 2), "eq": sp.Eq(sp.Symbol("IDC(t)"), x**2)}
    dc = DiskCache(iso / "c")
    dc.put("k", value)
    stored = json.loads(dc.path("k").read_text())
    assert len(stored["mac"]) == 64
    back = dc.get("k")
    assert back == value and sp.srepr(back["expr"]) == sp.srepr(value["expr"])
    stored["value"]["expr"]["$sympy"] = sp.srepr(sp.Symbol("print(1)"))  # edited: the HMAC no longer fits
    dc.path("k").write_text(json.dumps(stored))
    assert dc.get("k", "miss") == "miss"
    del stored["mac"]
    dc.path("k").write_text(json.dumps(stored))
    assert dc.get("k", "miss") == "miss"
    for text in ["__import__('os').system('true')", "Add('x+1')", "sympify('1')", "Symbol('x').func"]:
        with pytest.raises(ValueError):
            cache._sympy_parse(text)


def test_the_mmpp_derivation_round_trips_exactly(iso):
    """The SymPy values the cache really holds (models.traffic.moments' derivation): equal, same srepr."""
    from models.traffic import moments

    d = moments.derivation()
    dc = DiskCache(iso / "c")
    assert dc.put("k", d) is not None
    back = dc.get("k")
    assert list(back) == list(d) and back == d
    assert {k: sp.srepr(v) for k, v in back.items() if k not in ("factorial", "A")} == \
           {k: sp.srepr(v) for k, v in d.items() if k not in ("factorial", "A")}


# ----------------------------------------------------------------------------- K10, K11: read-only, full
def counted_sim(*, a, log, seed=1):
    with open(log, "a") as fh:
        fh.write(f"{a}\n")
    return {"a": a, "value": 10 * a + seed}


counted_sim.sim_version = "counted-1"
counted_sim.cache_name = "counted"


def _fake_read_only(monkeypatch, folder: Path):
    real_open = os.open

    def inside(path, dir_fd=None) -> bool:  # a path, or a name in the folder's descriptor (DiskCache)
        if dir_fd is not None:
            return os.path.samestat(os.fstat(dir_fd), os.stat(folder))
        return str(path).startswith(str(folder))

    def ro_open(path, flags, *a, **kw):
        if inside(path, kw.get("dir_fd")) and flags & (os.O_CREAT | os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", ro_open)


def test_K10_a_read_only_cache_computes_returns_and_warns_once(iso, monkeypatch):
    """K10: a read-only cache with the entry missing was an ``OSError: [Errno 30]`` traceback from the lock."""
    from models.sim.sweep import run_sweep

    folder = iso / "cache" / "counted"
    folder.mkdir(parents=True)
    dc = DiskCache(folder)
    dc.put("hit", 5)
    _fake_read_only(monkeypatch, folder)
    log = str(iso / "log")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert dc.fetch_or_compute("hit", lambda: 0) == 5  # K9: a hit still reads
        res = run_sweep([dict(a=a, log=log) for a in (1, 2, 3)], simulate_fn=counted_sim, jobs=1, progress=False)
        assert DiskCache(folder).fetch_or_compute("x", lambda: 9) == 9
    assert [r["value"] for r in res] == [11, 21, 31]
    (w,) = cache_warnings(record)
    assert "cannot be written" in str(w.message) and "not cached" in str(w.message) and str(folder) in str(w.message)
    assert sorted(p.name for p in folder.iterdir()) == [dc.path("hit").name]


@pytest.mark.parametrize("fault", ["replace", "write"])
def test_K11_a_full_cache_keeps_the_computed_points_and_warns_once(iso, monkeypatch, fault):
    """K11: on a full disk the first point was simulated, then an ``ENOSPC`` traceback discarded it."""
    from models.sim.sweep import run_sweep

    def full(*a, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    assert cache.secret_key() is not None  # the key made before the disk filled up (it is kept elsewhere)
    if fault == "replace":
        monkeypatch.setattr(os, "replace", full)
    else:
        monkeypatch.setattr(os, "fsync", full)
    log = str(iso / "log")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = run_sweep([dict(a=a, log=log) for a in (1, 2, 3)], simulate_fn=counted_sim, jobs=1, progress=False)
    assert [r["value"] for r in res] == [11, 21, 31]
    (w,) = cache_warnings(record)
    assert "No space left" in str(w.message)
    folder = iso / "cache" / "counted"
    assert not list(folder.iterdir()), "an entry, a temp file or a lock was left"


def test_a_cache_path_that_is_a_file_computes_and_warns_once(iso):
    (iso / "file").write_text("")
    dc = DiskCache(iso / "file" / "wormhole")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert [dc.fetch_or_compute(k, lambda: 3) for k in "ab"] == [3, 3]
    assert len(cache_warnings(record)) == 1


# ----------------------------------------------------------------------------- K14, K16: lock files
def test_lock_files_follow_the_umask(iso):
    dc = DiskCache(iso / "c")
    for umask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        old = os.umask(umask)
        try:
            with dc.lock("k"):
                assert os.stat(dc.lock_path("k")).st_mode & 0o777 == mode
        finally:
            os.umask(old)


def _hold(folder, key, ready, release):
    with DiskCache(folder).lock(key):
        ready.set()
        release.wait(30)


def test_K14_stale_lock_files_do_not_pile_up(iso):
    """K14: every killed simulation left its 0-byte ``.<key>.lock`` forever.  The next process that takes a
    lock in the folder removes this user's lock files nobody holds; a held one and another user's stay."""
    folder = iso / "c"
    dc = DiskCache(folder)
    ready, release = CTX.Event(), CTX.Event()
    killed = CTX.Process(target=_hold, args=(folder, "killed", ready, release))
    killed.start()
    assert ready.wait(10)
    os.kill(killed.pid, signal.SIGKILL)
    killed.join(10)
    assert dc.lock_path("killed").exists()
    for n in range(5):
        dc.lock_path(f"old{n}").touch()
    ready, release = CTX.Event(), CTX.Event()
    live = CTX.Process(target=_hold, args=(folder, "live", ready, release))
    live.start()
    try:
        assert ready.wait(10)
        if os.geteuid() == 0:
            dc.lock_path("theirs").touch()
            os.chown(dc.lock_path("theirs"), NOBODY, NOBODY)
        cache._swept.clear()  # a new process
        assert dc.fetch_or_compute("k", lambda: 1) == 1
        left = sorted(p.name for p in folder.glob(".*.lock"))
        assert left == sorted([dc.lock_path("live").name] + ([dc.lock_path("theirs").name] if os.geteuid() == 0 else []))
    finally:
        release.set()
        live.join(10)
    assert not dc.lock_path("live").exists()


@root_only
def test_K16_another_users_lock_file_root(iso):
    """K16 as root: a 0600 lock owned by uid 65534 (a stale one) is locked and the point computed."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    lock = dc.lock_path("k")
    lock.touch(mode=0o600)
    os.chown(lock, NOBODY, NOBODY)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert dc.fetch_or_compute("k", lambda: 3) == 3
    assert not cache_warnings(record) and dc.get("k") == 3


def test_K16_another_users_0600_lock_computes_without_it_and_warns_once(iso, monkeypatch):
    """K16: another user's live or stale 0600 lock gave a ``PermissionError`` traceback.  Now the point is
    computed without the lock (documented in ``DiskCache.lock``), stored, with one warning."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    dc.lock_path("k").touch(mode=0o600)
    dc.lock_path("k2").touch(mode=0o600)
    real_open = os.open

    def theirs(path, flags, *a, **kw):
        if str(path).endswith(".lock"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", theirs)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert dc.fetch_or_compute("k", lambda: 3) == 3
        assert dc.fetch_or_compute("k2", lambda: 4) == 4
    (w,) = cache_warnings(record)
    assert "another user's lock" in str(w.message) and "computing without it" in str(w.message)
    assert dc.get("k") == 3 and dc.get("k2") == 4
    assert dc.lock_path("k").exists() and dc.lock_path("k2").exists()  # theirs: left alone


def test_K16_another_users_0644_lock_is_waited_on_read_only(iso, monkeypatch):
    """A lock made under a 022 umask by another user cannot be opened for writing but can be flock'ed."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    dc.lock_path("k").touch(mode=0o644)
    real_open = os.open
    flags_seen = []

    def theirs(path, flags, *a, **kw):
        if str(path).endswith(".lock"):
            flags_seen.append(flags)
            if flags & (os.O_RDWR | os.O_WRONLY | os.O_CREAT):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", theirs)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with dc.lock("k", blocking=False) as got:
            assert got is True
    assert not cache_warnings(record)
    assert any(not f & (os.O_RDWR | os.O_WRONLY) for f in flags_seen)


# ----------------------------------------------------------------------------- the lambdified code
def _build_for(c):
    def build():
        x = sp.Symbol("x")
        return {"f": ((x,), c * x + 1)}
    return build


def _stored(name: str, params) -> Path:
    return symbolic._path(name, params)


def _resign(path: Path, mutate) -> None:
    """Rewrite a stored set after ``mutate(body)``, with a valid HMAC (only the check under test refuses it)."""
    body = json.loads(path.read_text())
    body.pop("mac")
    mutate(body)
    path.write_text(json.dumps(dict(body, mac=cache.mac(symbolic._canonical(body))), separators=(",", ":")))


def _payload(marker: Path):
    def mutate(body):
        body["functions"]["f"]["source"] = (f"open({str(marker)!r}, 'w').close()\n"
                                            "def _lambdifygenerated(x):\n    return 0 * x + 1000\n")
    return mutate


def test_lambdified_files_are_private_and_authenticated(iso):
    f = symbolic.compiled("test:safe", _build_for(2), (2,))
    assert f["f"](3.0) == 7.0
    path = _stored("test:safe", (2,))
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    assert os.stat(path).st_mode & 0o777 == 0o600
    stored = json.loads(path.read_text())
    assert {k: stored[k] for k in ("format", "name", "params")} == {"format": 2, "name": "test:safe", "params": "(2,)"}
    assert stored["code_version"] == symbolic.code_version() and stored["sympy_version"] == symbolic.sympy_version()
    assert len(stored["mac"]) == 64
    key = iso / "config" / "interconnect-models" / "cache.key"
    assert os.stat(key).st_mode & 0o777 == 0o600 and os.stat(key.parent).st_mode & 0o777 == 0o700
    symbolic._SETS.clear()
    assert symbolic.compiled("test:safe", lambda: pytest.fail("rebuilt"), (2,))["f"](3.0) == 7.0  # warm: read


def _k8_case(iso, how):
    marker = iso / "pwned"
    symbolic.compiled("test:k8", _build_for(2), (2,))
    path = _stored("test:k8", (2,))
    _resign(path, _payload(marker))
    if how == "sanity":
        pass
    elif how == "group-writable file":
        os.chmod(path, 0o620)
    elif how == "another user's file":
        os.chown(path, NOBODY, NOBODY)
    elif how == "another user's folder":
        os.chown(path.parent, NOBODY, NOBODY)
    elif how == "world-writable folder of another user":
        os.chown(path.parent, NOBODY, NOBODY)
        os.chmod(path.parent, 0o777)
    elif how == "unsigned (restored, unpacked)":
        body = json.loads(path.read_text())
        body["mac"] = "0" * 64
        path.write_text(json.dumps(body))
    elif how == "symlink":
        os.rename(path, iso / "elsewhere.json")
        os.symlink(iso / "elsewhere.json", path)
    symbolic._SETS.clear()
    return marker, path


def test_K8_the_payload_used_below_is_live(iso):
    """Control: the payload of the K8 tests does run when nothing refuses it (a valid HMAC, this user's file)."""
    marker, _ = _k8_case(iso, "sanity")
    assert symbolic.compiled("test:k8", _build_for(2), (2,))["f"](3.0) == 1000
    assert marker.exists()


@root_only
@pytest.mark.parametrize("how", ["group-writable file", "another user's file", "another user's folder",
                                 "world-writable folder of another user", "symlink"])
def test_K8_code_another_user_could_have_written_is_never_executed(iso, how):
    """K8: a lambdified JSON whose source starts with ``import os; os.system(...)`` ran even for a
    model-only ``curve``.  Now a file or folder another user owns or could write is refused (one warning),
    even with a valid HMAC, and the set is generated in memory."""
    marker, path = _k8_case(iso, how)
    with pytest.warns(CacheWarning, match="not read from or kept on disk"):
        f = symbolic.compiled("test:k8", _build_for(2), (2,))
    assert f["f"](3.0) == 7.0
    assert not marker.exists(), "the stored code was executed"


def test_K8_an_unauthenticated_file_is_never_executed_and_is_replaced(iso):
    """A file of this user without this user's HMAC (a restored CI cache, an unpacked tarball) is regenerated."""
    marker, path = _k8_case(iso, "unsigned (restored, unpacked)")
    assert symbolic.compiled("test:k8", _build_for(2), (2,))["f"](3.0) == 7.0
    assert not marker.exists()
    symbolic._SETS.clear()
    assert symbolic.compiled("test:k8", lambda: pytest.fail("rebuilt"), (2,))["f"](3.0) == 7.0  # rewritten, valid


def test_K5_a_file_copied_from_other_parameters_is_detected(iso):
    """K5: ``vc_occupancy`` V=10's file copied over V=12's was loaded (a numpy shape error, shown as a usage
    error).  The stored name/params/versions are compared with the request (the copy's HMAC is valid)."""
    assert symbolic.compiled("test:k5", _build_for(10), (10,))["f"](1.0) == 11.0
    assert symbolic.compiled("test:k5", _build_for(12), (12,))["f"](1.0) == 13.0
    src, dst = _stored("test:k5", (10,)), _stored("test:k5", (12,))
    dst.write_bytes(src.read_bytes())
    symbolic._SETS.clear()
    assert symbolic.compiled("test:k5", _build_for(12), (12,))["f"](1.0) == 13.0
    assert json.loads(dst.read_text())["params"] == "(12,)", "the regenerated set was not written back"
    for field, value in (("code_version", "0" * 64), ("sympy_version", "other"), ("name", "test:other"),
                         ("format", 1)):
        _resign(dst, lambda body: body.__setitem__(field, value))
        symbolic._SETS.clear()
        assert symbolic.compiled("test:k5", _build_for(12), (12,))["f"](1.0) == 13.0, field


def test_K6_an_edited_formula_is_detected(iso):
    """K6: ``1 - rho`` edited to ``1 - 0.5*rho`` in a stored file was used silently (79.1795 for 79.1895)."""
    fresh = symbolic.compiled("test:k6", _build_for(3), (3,))["f"](2.0)
    path = _stored("test:k6", (3,))
    body = json.loads(path.read_text())
    src = body["functions"]["f"]["source"]
    assert "3*x" in src
    body["functions"]["f"]["source"] = src.replace("3*x", "3.5*x")
    path.write_text(json.dumps(body))
    symbolic._SETS.clear()
    assert symbolic.compiled("test:k6", _build_for(3), (3,))["f"](2.0) == fresh == 7.0


def test_a_key_others_can_read_is_not_used(iso):
    key = iso / "config" / "interconnect-models" / "cache.key"
    key.parent.mkdir(parents=True)
    key.write_text("ab" * 32 + "\n")
    os.chmod(key, 0o644)
    with pytest.warns(CacheWarning, match="no usable key"):
        assert symbolic.compiled("test:key", _build_for(2), (2,))["f"](1.0) == 3.0
    assert not _stored("test:key", (2,)).exists()
    assert cache.secret_key() is None


def test_our_loose_lambdified_folder_is_tightened(iso):
    folder = iso / "cache" / "lambdified"
    folder.mkdir(parents=True, mode=0o775)
    os.chmod(folder, 0o775)  # what the code before #26 made under umask 002
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert symbolic.compiled("test:loose", _build_for(2), (2,))["f"](1.0) == 3.0
    assert not cache_warnings(record)
    assert os.stat(folder).st_mode & 0o777 == 0o700 and _stored("test:loose", (2,)).exists()


def test_stored_code_may_name_only_numpy_and_math(iso):
    symbolic.compiled("test:names", _build_for(2), (2,))
    path = _stored("test:names", (2,))
    for glob in (["x", "module", "os"], ["x", "attr", "os", "system"], ["x", "const", "__import__('os')"]):
        _resign(path, lambda body: body["functions"]["f"]["globals"].append(glob))
        symbolic._SETS.clear()
        assert symbolic.compiled("test:names", _build_for(2), (2,))["f"](1.0) == 3.0, glob


def test_K4_an_entry_path_that_is_a_folder_computes_and_warns_once(iso):
    """K4: a folder in an entry's place was an ``IsADirectoryError`` traceback after the simulation."""
    dc = DiskCache(iso / "c")
    dc.path("k").mkdir(parents=True)
    with pytest.warns(CacheWarning, match="not cached"):
        assert dc.fetch_or_compute("k", lambda: 2.5) == 2.5
    assert dc.path("k").is_dir()
