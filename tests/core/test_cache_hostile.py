"""A cache that cannot be forged, poisoned or hung (#35; review ``reliability.md``, defects N6 to N9, N16, N17).

Case ids are the review's: J13 (a FIFO named like an entry hung every reader), J14 (a symlinked ``wormhole/``
folder was followed, entries written there and this user's ``.*.lock`` files there deleted), J6 and J2 (an
edited simulation entry was used silently), J1, J3, J4, J5, J7 (decoded values not checked against the result's
types: a string, a 400-digit integer, a NaN latency, ``"yes"`` for a bool), H6 (the message for a loose
lambdified file of this user).  As in ``test_cache_safety.py``, "another user" is a file chown'ed to uid 65534
(the tests run as root), and a hang is caught by an alarm rather than waited out.
"""

import contextlib
import dataclasses
import errno
import json
import math
import os
import signal
import warnings
from pathlib import Path

import numpy as np
import pytest

from models.core import cache, symbolic
from models.core.cache import CacheWarning, DiskCache, decode, encode
from models.core.results import SimPoint

NOBODY = 65534
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


class Hung(Exception):
    """Not an OSError: the code under test must not be able to swallow it."""


@contextlib.contextmanager
def deadline(seconds: int = 5):
    """Fail (rather than hang the suite) when the block blocks for more than ``seconds``."""
    def expired(signum, frame):
        raise Hung(f"blocked for more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def recorded():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        yield record


def cache_warnings(record) -> list:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


def signed_bytes(key: str, value, secret: bytes | None = None) -> bytes:
    """An entry holding ``value`` (JSON data, already encoded), signed with this user's key or with ``secret``."""
    payload = {"format": cache.FORMAT, "key": key, "value": value}
    text = cache._entry_bytes(payload)
    tag = cache.mac(text) if secret is None else cache.hmac.new(secret, text, cache.hashlib.sha256).hexdigest()
    return cache._entry_bytes(dict(payload, mac=tag))


def write_signed(dc: DiskCache, key: str, value) -> None:
    dc.folder.mkdir(parents=True, exist_ok=True)
    dc.path(key).write_bytes(signed_bytes(key, value))


def wormhole_result(**changes):
    """A WormholeResult as the simulator builds one (no simulation run: the fields are what matter here)."""
    from models.sim.wormhole import WormholeResult

    fields = dict(latency=48.28, latency_ci=0.9, network_latency=40.1, source_wait=8.2, throughput=0.002,
                  offered=0.002, saturated=False, mean_hops=2.5, vc_busy_hist=np.array([0.9, 0.08, 0.02]),
                  multiplexing=1.2, channel_utilisation=0.1, cycles=20000, messages=300, flit_hops=60000,
                  wall_time=0.5, params={"k": 8, "M": 32}, seed=1, measured_offered=0.0021, mean_in_network=0.3,
                  window_cycles=15000, stop_reason="done", work={"routing": 12},
                  channel_load=np.array([0.1, 0.2]))
    fields.update(changes)
    return WormholeResult(**fields)


def not_measured_result():
    """A saturated point with an empty measured window: the NaNs and infs the simulator really returns."""
    return wormhole_result(latency=math.inf, latency_ci=math.inf, network_latency=math.inf, source_wait=math.inf,
                           saturated=True, throughput=math.nan, mean_hops=math.nan, multiplexing=math.nan,
                           channel_utilisation=math.nan, measured_offered=math.nan, mean_in_network=math.nan,
                           vc_busy_hist=np.full(3, math.nan), window_cycles=0, channel_load=None)


# ----------------------------------------------------------------------------- N6 (J13): nothing hangs a reader
def test_J13_a_fifo_named_like_an_entry_is_a_miss_not_a_hang(iso):
    """J13: ``mkfifo <key>.json`` made every reader block for ever in ``open()``.  Now it is a miss with one
    warning, the point is computed, and the FIFO is replaced by the entry."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    os.mkfifo(dc.path("k"))
    with deadline(), recorded() as record:
        assert dc.get("k", "miss") == "miss"
        assert dc.get("k", "miss") == "miss"
        assert dc.fetch_or_compute("k", lambda: 7) == 7
    (w,) = cache_warnings(record)
    assert "is a FIFO" in w and str(dc.path("k")) in w
    assert dc.path("k").is_file() and dc.get("k") == 7


def test_J13_a_fifo_as_another_users_lock_file_is_not_waited_on(iso, monkeypatch):
    """A lock file that cannot be opened for writing (another user's) is opened read-only: a FIFO there hung."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    os.mkfifo(dc.lock_path("k"))
    real_open = os.open

    def theirs(path, flags, *a, **kw):
        if str(path).endswith(".lock") and flags & (os.O_RDWR | os.O_WRONLY | os.O_CREAT):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", theirs)
    with deadline(), recorded() as record:
        assert dc.fetch_or_compute("k", lambda: 3) == 3
    (w,) = cache_warnings(record)
    assert "is a FIFO" in w and "computing without it" in w
    monkeypatch.setattr(os, "open", real_open)
    assert dc.get("k") == 3


def test_J13_a_fifo_as_our_lock_file_is_not_used_as_a_lock(iso):
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    os.mkfifo(dc.lock_path("k"))
    with deadline(), recorded() as record:
        assert dc.fetch_or_compute("k", lambda: 4) == 4
    (w,) = cache_warnings(record)
    assert "lock file" in w and "is a FIFO" in w


def test_J13_the_stale_lock_sweep_does_not_open_a_fifo(iso):
    """The sweep of stale ``.*.lock`` files opened each of this user's with a blocking ``open()``."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    os.mkfifo(iso / "c" / ".stale.lock")
    with deadline():
        assert dc.fetch_or_compute("k", lambda: 5) == 5
    assert (iso / "c" / ".stale.lock").exists(), "the sweep removed something that is not a lock file"


def test_an_entry_that_is_a_symlink_is_not_followed(iso):
    """A symlink named like an entry (to a valid entry elsewhere, or to anything) is refused, then replaced."""
    dc = DiskCache(iso / "c")
    elsewhere = DiskCache(iso / "elsewhere")
    elsewhere.put("k", 1)
    (iso / "c").mkdir()
    os.symlink(elsewhere.path("k"), dc.path("k"))
    with recorded() as record:
        assert dc.get("k", "miss") == "miss"
        assert dc.fetch_or_compute("k", lambda: 2) == 2
    assert any("is a symbolic link" in w for w in cache_warnings(record))
    assert not dc.path("k").is_symlink() and elsewhere.get("k") == 1


def test_an_entry_larger_than_the_cap_is_not_read(iso, monkeypatch):
    """A size cap on what is read: a multi-GB file named like an entry is not read into memory."""
    dc = DiskCache(iso / "c")
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 4096)
    write_signed(dc, "k", "x" * 5000)
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: pytest.fail("an oversized entry was read"))
    with recorded() as record:
        assert dc.get("k", "miss") == "miss"
    (w,) = cache_warnings(record)
    assert "larger than 4096 bytes" in w
    monkeypatch.setattr(os, "read", real_read)
    with recorded() as record:
        assert dc.put("big", "y" * 5000) is None  # never written: it could not be read back
    assert any("more than the 4096" in w for w in cache_warnings(record))
    assert dc.put("small", "y" * 100) is not None and dc.get("small") == "y" * 100


@root_only
def test_another_users_entry_is_a_miss_and_is_left_alone(iso):
    """Only this user's regular files are read; another user's entry (even a signed one) is neither used nor
    removed."""
    dc = DiskCache(iso / "c")
    dc.put("k", 1)
    os.chown(dc.path("k"), NOBODY, NOBODY)
    with recorded() as record:
        assert dc.get("k", "miss") == "miss"
    (w,) = cache_warnings(record)
    assert "belongs to another user (uid 65534)" in w
    assert dc.path("k").exists()


# ----------------------------------------------------------------------------- N7 (J14): the folder is the folder
def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    for name in (".app-state.lock", ".editor.lock", "notes.txt"):
        (victim / name).write_text(name)
    return victim


def counted_sim(*, a, seed=1):
    return {"a": a, "value": 10 * a + seed}


counted_sim.sim_version = "counted-1"
counted_sim.cache_name = "counted"


def test_J14_a_symlinked_cache_folder_is_not_followed(iso):
    """J14: ``<cache>/wormhole -> D`` put the entries into ``D`` and deleted this user's ``.*.lock`` files there.
    Now the folder is refused (one warning, as ``lambdified/`` is), the points are computed and nothing in ``D``
    is touched."""
    from models.sim.sweep import run_sweep

    victim = _victim(iso)
    (iso / "cache").mkdir()
    os.symlink(victim, iso / "cache" / "counted")
    before = {p.name: p.read_text() for p in victim.iterdir()}
    with recorded() as record:
        res = run_sweep([dict(a=a) for a in (1, 2, 3)], simulate_fn=counted_sim, jobs=1, progress=False)
        dc = DiskCache(iso / "cache" / "counted")
        assert dc.fetch_or_compute("k", lambda: 1) == 1
        assert dc.get("k", "miss") == "miss"
    assert [r["value"] for r in res] == [11, 21, 31]
    (w,) = cache_warnings(record)
    assert "is a symbolic link" in w and "not used" in w
    assert {p.name: p.read_text() for p in victim.iterdir()} == before


def test_J14_a_folder_replaced_by_a_symlink_while_locked_is_not_followed(iso):
    """Entries and locks are opened relative to the folder's descriptor: swapping the folder for a symlink
    while a lock is held sends neither the entry nor the lock's removal elsewhere."""
    victim = _victim(iso)
    dc = DiskCache(iso / "cache" / "wormhole")
    (victim / dc.lock_path("k").name).write_text("theirs")
    with dc.lock("k"):
        os.rename(dc.folder, iso / "moved")
        os.symlink(victim, dc.folder)
    assert (victim / dc.lock_path("k").name).read_text() == "theirs"
    assert not (iso / "moved" / dc.lock_path("k").name).exists()  # ours, removed where it was


def test_the_stale_lock_sweep_removes_only_our_regular_lock_files(iso):
    """The sweep lists the folder through its descriptor: a symlinked ``.x.lock`` (to this user's lock file
    elsewhere) is neither followed nor removed."""
    victim = _victim(iso)
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    os.symlink(victim / ".editor.lock", iso / "c" / ".link.lock")
    (iso / "c" / ".stale.lock").touch()
    with dc.lock("k"):
        pass
    assert (victim / ".editor.lock").read_text() == ".editor.lock"
    assert (iso / "c" / ".link.lock").is_symlink() and not (iso / "c" / ".stale.lock").exists()


def test_a_cache_path_under_a_file_or_a_dangling_symlink_warns_once(iso):
    (iso / "file").write_text("")
    os.symlink(iso / "nowhere", iso / "dangling")
    for folder in (iso / "file" / "wormhole", iso / "file", iso / "dangling"):
        cache._warned.clear()
        dc = DiskCache(folder)
        with recorded() as record:
            assert [dc.fetch_or_compute(k, lambda: 3) for k in "ab"] == [3, 3]
        assert len(cache_warnings(record)) == 1, folder
    assert not (iso / "nowhere").exists()


def test_a_key_is_a_file_name_never_a_path(iso):
    dc = DiskCache(iso / "c")
    for key in ("../k", "a/b", ".", "..", "", ".hidden", "x" * 129, "k\n"):
        with pytest.raises(ValueError, match="`key`"):
            dc.path(key)
        with pytest.raises(ValueError, match="`key`"):
            dc.fetch_or_compute(key, lambda: 1)


# ----------------------------------------------------------------------------- N8 (J2, J6): signed entries
def test_entries_are_signed_with_this_users_key(iso):
    dc = DiskCache(iso / "c")
    dc.put("k", wormhole_result())
    stored = json.loads(dc.path("k").read_text())
    assert list(stored) == ["format", "key", "value", "mac"] and len(stored["mac"]) == 64
    assert repr(dc.get("k")) == repr(wormhole_result())


@pytest.mark.parametrize("edit", ["J6 latency 30.0", "J2 latency 1e308", "another field", "the mac"])
def test_J6_an_edited_entry_is_a_miss_recomputed_with_one_warning(iso, edit):
    """J6: ``latency`` 48.28 edited to 30.0 gave ``sim latency 30.0``, silently."""
    dc = DiskCache(iso / "c")
    dc.put("k", wormhole_result())
    stored = json.loads(dc.path("k").read_text())
    fields = stored["value"]["fields"]
    if edit == "J6 latency 30.0":
        fields["latency"] = 30.0
    elif edit == "J2 latency 1e308":
        fields["latency"] = 1e308
    elif edit == "another field":
        fields["messages"] = 301
    else:
        stored["mac"] = "0" * 64
    dc.path("k").write_text(json.dumps(stored, separators=(",", ":")))
    with recorded() as record:
        assert dc.get("k", "miss") == "miss"
        assert dc.fetch_or_compute("k", lambda: wormhole_result()).latency == 48.28
    (w,) = cache_warnings(record)
    assert "not signed with this user's key" in w and str(dc.path("k")) in w
    with recorded() as record:
        assert dc.get("k").latency == 48.28  # rewritten, signed
    assert not cache_warnings(record)


def test_J6_through_the_simulator(iso):
    """The review's J6 end to end: a cached simulated point whose latency is edited is simulated again."""
    from models.sim.wormhole import Torus, simulate

    kw = dict(topology=Torus((4, 4), bidirectional=False), routing="dor", vcs=2, message_length=4, rate=0.01,
              messages=300, warmup_messages=50, batches=5)
    fresh = simulate(**kw, cache=True)
    (entry,) = (iso / "cache" / "wormhole").glob("*.json")
    stored = json.loads(entry.read_text())
    stored["value"]["fields"]["latency"] = 30.0
    entry.write_text(json.dumps(stored, separators=(",", ":")))
    with pytest.warns(CacheWarning, match="not signed"):
        again = simulate(**kw, cache=True)
    assert again.latency == fresh.latency != 30.0


def test_an_entry_written_by_older_code_is_recomputed_with_one_warning(iso):
    """Entries of the code before #35 have no ``mac``: never trusted, never a crash; recomputed, rewritten."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    for key in ("a", "b"):
        payload = {"format": cache.FORMAT, "key": key, "value": encode(wormhole_result(latency=30.0))}
        dc.path(key).write_bytes(cache._entry_bytes(payload))
    with recorded() as record:
        assert [dc.fetch_or_compute(k, wormhole_result).latency for k in "ab"] == [48.28, 48.28]
    assert len(cache_warnings(record)) == 1  # one per folder, not one per entry
    assert all("mac" in json.loads(dc.path(k).read_text()) for k in "ab")


def test_an_entry_signed_with_another_key_is_a_miss(iso):
    """Another user's (or another machine's) key: their entry is not this user's evidence."""
    dc = DiskCache(iso / "c")
    (iso / "c").mkdir()
    dc.path("k").write_bytes(signed_bytes("k", encode(wormhole_result(latency=30.0)), secret=b"\1" * 32))
    with pytest.warns(CacheWarning, match="not signed"):
        assert dc.get("k", "miss") == "miss"


def test_a_bare_nan_token_is_an_unsigned_entry_not_a_crash(iso):
    """J4: ``"latency": NaN`` (a bare token Python's JSON reader accepts) cannot carry a signature."""
    dc = DiskCache(iso / "c")
    dc.put("k", wormhole_result())
    text = dc.path("k").read_text().replace('"latency":48.28', '"latency":NaN')
    assert "NaN" in text
    dc.path("k").write_text(text)
    with pytest.warns(CacheWarning, match="not signed"):
        assert dc.get("k", "miss") == "miss"


def test_without_a_usable_key_nothing_is_stored_or_trusted(iso):
    key = iso / "config" / "interconnect-models" / "cache.key"
    key.parent.mkdir(parents=True)
    key.write_text("ab" * 32 + "\n")
    os.chmod(key, 0o644)  # readable by others: not used, as ssh would not use it
    dc = DiskCache(iso / "c")
    with recorded() as record:
        assert dc.fetch_or_compute("k", lambda: 1) == 1
        assert dc.fetch_or_compute("k2", lambda: 2) == 2
    (w,) = cache_warnings(record)
    assert "no usable key" in w and "not cached" in w
    assert not dc.path("k").exists()


# ----------------------------------------------------------------------------- N9, N16: decoded values checked
def _fields(value):
    return encode(value)["fields"]


BAD_FIELDS = {
    "J1 a string latency": ("latency", "48.28"),
    "J3 a 400-digit latency": ("latency", 10**400),
    "J5 a NaN latency": ("latency", {"$float": "nan"}),
    "a -inf latency": ("latency", {"$float": "-inf"}),
    "J7 saturated 'yes'": ("saturated", "yes"),
    "saturated 1": ("saturated", 1),
    "an int out of int64": ("cycles", 2**70),
    "a float count": ("messages", 300.0),
    "a bool count": ("messages", True),
    "a list for an array": ("vc_busy_hist", [0.9, 0.1]),
    "None for an array": ("vc_busy_hist", None),
    "a list for a dict": ("params", [1, 2]),
    "a number for a str": ("stop_reason", 1),
}


@pytest.mark.parametrize("case", list(BAD_FIELDS))
def test_J1_J3_J5_J7_a_field_that_does_not_fit_its_type_is_a_miss(iso, case):
    """Even in an entry this user signed, a value of the wrong type is a miss (recomputed), never a NaN in
    the CSV, never ``"yes"`` read as True, never an ``OverflowError`` on every later run."""
    name, bad = BAD_FIELDS[case]
    fields = dict(_fields(wormhole_result()), **{name: bad})
    value = {"$dataclass": "models.sim.wormhole.WormholeResult", "fields": fields}
    with pytest.raises(ValueError, match=name):
        decode(value, sympy=True)
    dc = DiskCache(iso / "c")
    write_signed(dc, "k", value)
    with recorded() as record:
        assert dc.get("k", "miss") == "miss"
        assert dc.fetch_or_compute("k", wormhole_result).latency == 48.28
    assert not cache_warnings(record)
    assert dc.get("k").latency == 48.28


def test_J3_the_400_digit_latency_no_longer_crashes_the_table(iso):
    """J3 ended in ``float(r["latency"])``: ``OverflowError: int too large to convert to float`` on every run."""
    dc = DiskCache(iso / "c")
    write_signed(dc, "k", {"$dataclass": "models.core.results.SimPoint", "fields": dict(
        _fields(SimPoint(1.0, 0.1)), latency=10**400)})
    point = dc.fetch_or_compute("k", lambda: SimPoint(48.28, 0.9))
    assert float(point.latency) == 48.28


def test_what_the_simulators_really_return_round_trips(iso):
    """The NaNs and infs of "not measured" and "saturated" are kept; None where it is the default; NumPy
    scalars in float fields; small ints in float fields (they convert exactly)."""
    dc = DiskCache(iso / "c")
    values = [not_measured_result(), wormhole_result(latency=np.float64(48.28), throughput=2),
              SimPoint(math.inf, math.nan, True, {"result": not_measured_result(), "X": math.nan}),
              SimPoint(48.28, 0.9, False, {"network latency": np.float64(40.1)})]
    for n, value in enumerate(values):
        assert dc.put(f"k{n}", value) is not None, value
        back = dc.get(f"k{n}")
        assert type(back) is type(value) and repr(back) == repr(value)
        for f in dataclasses.fields(value):
            assert type(getattr(back, f.name)) is type(getattr(value, f.name)), f.name


def test_a_result_that_would_be_refused_is_not_stored(iso):
    """The same check when storing: a result decode would refuse is not written (one warning), so it is not
    recomputed and refused on every run without a word."""
    with pytest.raises(ValueError, match="latency"):
        encode(wormhole_result(latency=math.nan))
    dc = DiskCache(iso / "c")
    with pytest.warns(CacheWarning, match="cannot be stored"):
        assert math.isnan(dc.fetch_or_compute("k", lambda: wormhole_result(latency=math.nan)).latency)
    assert not dc.path("k").exists()


def test_a_nested_result_is_checked_too(iso):
    """``SimPoint.extra`` may hold the simulator's WormholeResult: its fields are checked as well, and the
    SimPoint's own rules (no NaN latency, extras not named like its fields) hold for a decoded one."""
    inner = dict(_fields(wormhole_result()), saturated="yes")
    point = dict(_fields(SimPoint(48.28, 0.9)), extra={"result": {"$dataclass": "models.sim.wormhole.WormholeResult",
                                                                  "fields": inner}})
    with pytest.raises(ValueError, match="saturated"):
        decode({"$dataclass": "models.core.results.SimPoint", "fields": point}, sympy=True)
    clash = dict(_fields(SimPoint(48.28, 0.9)), extra={"latency": 1.0})
    with pytest.raises(ValueError, match="extras"):
        decode({"$dataclass": "models.core.results.SimPoint", "fields": clash}, sympy=True)


def test_every_allow_listed_result_can_be_checked():
    """Every field of every class of the allow-list has an annotation the check knows, and the measured fields
    (never NaN) are float fields of their class."""
    known = {float, int, bool, str, dict, list, tuple, np.ndarray, cache.Any}
    for tag in cache.RESULT_TYPES:
        cls = cache._result_type(tag)
        annotations = cache._annotations(cls)
        assert set(annotations.values()) <= known, (tag, annotations)
        assert {annotations[n] for n in cache.MEASURED.get(tag, ())} <= {float}, tag


# ----------------------------------------------------------------------------- N17 (H6): say what is wrong
def _lambdified(iso) -> Path:
    def build():
        import sympy as sp

        x = sp.Symbol("x")
        return {"f": ((x,), 2 * x + 1)}

    symbolic.compiled("test:h6", build, (2,))
    symbolic._SETS.clear()
    return symbolic._path("test:h6", (2,)), build


def test_H6_a_loose_lambdified_file_of_this_user_is_called_loose_not_foreign(iso):
    """H6: a 0666 file of this user was refused as "written by another user (uid 0)" -- uid 0 was this user."""
    path, build = _lambdified(iso)
    os.chmod(path, 0o666)
    with recorded() as record:
        assert symbolic.compiled("test:h6", build, (2,))["f"](1.0) == 3.0
    (w,) = cache_warnings(record)
    assert "writable by its group and every user (mode 0666)" in w
    assert "another user (uid" not in w


@root_only
def test_H6_another_users_lambdified_file_names_both_users(iso):
    path, build = _lambdified(iso)
    os.chown(path, NOBODY, NOBODY)
    with recorded() as record:
        symbolic.compiled("test:h6", build, (2,))
    (w,) = cache_warnings(record)
    assert f"belongs to another user (uid {NOBODY}; this user is uid {os.geteuid()})" in w
