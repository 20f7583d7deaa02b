"""One-line errors of ``python -m models.<chapter> curve|saturation`` (issue #26, item 5).

Each test names its case of the reliability review (``../shared/reviews/reliability.md``,
section 1a, 1c and 1d) in its docstring.  Outputs are checked before anything is computed: where
that matters the chapter's solver is replaced by one that fails the test if it is called.  The
command runs in-process (its ``__main__.main(argv)``); :func:`_run` gives its exit status whether it
returns it or argparse raises :class:`SystemExit`.

Read-only places: the tests run as root in CI, where permission bits stop nothing and mounts are not
available, so a read-only file system is ``os.open``, ``open`` and ``os.mkdir`` failing with
``EROFS`` inside one folder (:func:`read_only`); a folder given as a file and a path under a regular
file are real.
"""

from __future__ import annotations

import builtins
import csv
import errno
import io
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from models.core import cli
from models.core.errors import ParameterError

DOR = ["--radices", "8", "8", "--L", "3", "--M", "32"]
#: A closed-system simulation that takes a second or two (min_mva's own simulator, no wormhole kernel).
MVA_SIM = ["--k", "2", "--n", "2", "--S_mm", "2", "--loads", "2", "--simulate", "--cycles", "4000", "--warmup", "400"]


def _main(name):
    import importlib

    return importlib.import_module(f"models.{name}.__main__")


def _run(name, argv, capsys) -> tuple[int, str, str]:
    """``python -m models.<name> <argv>`` in-process: (exit status, stdout, stderr)."""
    try:
        rc = _main(name).main(list(argv))
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def _one_line_error(err: str, status_line: str = "error: ") -> str:
    """The ``error:`` line of ``err`` (asserting there is exactly one and no traceback)."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if status_line in line]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def no_computing(monkeypatch):
    """torus_dor's model (and every simulation) fails the test if it runs: errors must come first."""
    import models.torus_dor as front

    def called(*a, **kw):
        raise AssertionError("computed before the error")

    for fn in ("solve_curve", "saturation_load"):
        monkeypatch.setattr(front, fn, called)
    monkeypatch.setattr(cli, "comparison", called)  # the chapter's compare, which curve is built on (#28)


def _inside(path, folder) -> bool:
    try:
        return Path(os.path.abspath(os.fsdecode(path))).is_relative_to(folder)
    except (TypeError, ValueError):
        return False


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(folder, err=errno.EROFS)``: creating or writing anything under ``folder`` fails with ``err``."""

    def install(folder: Path, err: int = errno.EROFS):
        folder = Path(folder).resolve()
        real_open, real_os_open, real_mkdir, real_replace = builtins.open, os.open, os.mkdir, os.replace
        fail = OSError(err, os.strerror(err))

        def deny(path):
            raise OSError(err, os.strerror(err), os.fsdecode(path))

        def os_open(path, flags, *a, **kw):
            if _inside(path, folder) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND):
                deny(path)
            return real_os_open(path, flags, *a, **kw)

        def open_(file, mode="r", *a, **kw):
            if not isinstance(file, int) and _inside(file, folder) and set(mode) & set("wax+"):
                deny(file)
            return real_open(file, mode, *a, **kw)

        def mkdir(path, *a, **kw):
            if _inside(path, folder):
                deny(path)
            return real_mkdir(path, *a, **kw)

        def replace(src, dst, *a, **kw):
            if _inside(dst, folder):
                deny(dst)
            return real_replace(src, dst, *a, **kw)

        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(builtins, "open", open_)
        monkeypatch.setattr(io, "open", open_)
        monkeypatch.setattr(os, "mkdir", mkdir)
        monkeypatch.setattr(os, "replace", replace)
        return fail

    return install


# ----------------------------------------------------------------------------- outputs, before any computing
def test_out_on_a_read_only_file_system(tmp_path, capsys, read_only, no_computing):
    """C14: ``--out`` in an existing folder of a read-only file system: ``error: --out: ...``, status 2, nothing
    computed (was: the model computed, then an ``OSError`` traceback, status 1)."""
    ro = tmp_path / "ro"
    ro.mkdir()
    read_only(ro)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(ro / "curve.csv")], capsys)
    assert rc == 2
    line = _one_line_error(err)
    assert "error: --out: " in line and "Read-only file system" in line
    assert not (ro / "curve.csv").exists()


def test_out_in_an_immutable_folder(tmp_path, capsys, no_computing):
    """C14 on a real file system: a folder made immutable with ``chattr +i`` (skipped where chattr cannot)."""
    ro = tmp_path / "ro"
    ro.mkdir()
    chattr = shutil.which("chattr")
    if not chattr or subprocess.run([chattr, "+i", str(ro)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        if os.access(ro, os.W_OK) and _can_create(ro):
            pytest.skip("an immutable folder is still writable here")
        rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(ro / "c.csv")], capsys)
    finally:
        subprocess.run([chattr, "-i", str(ro)], capture_output=True)
    assert rc == 2 and "error: --out: cannot write" in _one_line_error(err)


def _can_create(folder: Path) -> bool:
    try:
        (folder / ".probe").touch()
    except OSError:
        return False
    (folder / ".probe").unlink()
    return True


def test_out_is_a_folder(tmp_path, capsys, no_computing):
    """C16: ``--out`` naming an existing folder: ``error: --out: ... is a folder``, status 2 (was: an
    ``IsADirectoryError`` traceback after computing)."""
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(tmp_path)], capsys)
    assert rc == 2
    line = _one_line_error(err)
    assert "error: --out: " in line and "is a folder" in line


def test_out_under_a_regular_file(tmp_path, capsys, no_computing):
    """C17 (held before; kept): ``--out`` below a regular file is refused before computing."""
    (tmp_path / "file").write_text("x")
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(tmp_path / "file" / "c.csv")],
                        capsys)
    assert rc == 2 and "error: --out: " in _one_line_error(err)


@pytest.mark.parametrize("how", ["read-only", "folder"])
def test_unwritable_plot_is_refused_before_computing(how, tmp_path, capsys, read_only, no_computing, monkeypatch):
    """C20: ``--plot`` that cannot be written, with ``--out c.csv``: refused before computing, ``c.csv`` not
    written (was: computed, wrote ``c.csv``, then a matplotlib ``OSError`` traceback)."""
    monkeypatch.chdir(tmp_path)
    if how == "read-only":
        (tmp_path / "ro").mkdir()
        read_only(tmp_path / "ro")
        plot = "ro/p.svg"
    else:
        (tmp_path / "p.svg").mkdir()
        plot = "p.svg"
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", "c.csv", "--plot", plot], capsys)
    assert rc == 2 and "error: --plot: " in _one_line_error(err)
    assert not (tmp_path / "c.csv").exists()


def test_out_dash_is_standard_output(tmp_path, capsys, monkeypatch):
    """C32: ``--out -`` writes the CSV to standard output (was: a file named ``-`` in the current folder)."""
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", "-"], capsys)
    assert rc == 0
    assert not (tmp_path / "-").exists()
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][0].startswith("lam_g") and len(rows) == 2


def test_a_full_disk_at_the_end_is_one_line(tmp_path, capsys, monkeypatch):
    """C14/K11 at the last step: the disk fills up while the CSV is written: one line, status 1, no traceback."""
    real_open = builtins.open
    target = tmp_path / "c.csv"

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    def open_(file, mode="r", *a, **kw):
        if not isinstance(file, int) and Path(os.fsdecode(file)) == target and "w" in mode:
            return Full()
        return real_open(file, mode, *a, **kw)

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(target)], capsys)
    assert rc == 1
    assert "error: --out: cannot write" in _one_line_error(err) and "No space left" in err


# ----------------------------------------------------------------------------- bounds and names
@pytest.mark.parametrize("rtol", ["10", "1e-300"])
def test_saturation_rtol_is_named(rtol, capsys):
    """C10: ``saturation --rtol 10`` / ``1e-300``: the message starts ``error: --rtol:`` (was: no option
    named)."""
    rc, out, err = _run("torus_dor", ["saturation", *DOR, "--rtol", rtol], capsys)
    assert rc == 2
    assert "error: --rtol: " in _one_line_error(err)


@pytest.mark.parametrize("points", ["20000", "10001", "1000000000000"])
def test_points_has_an_upper_bound(points, capsys, no_computing):
    """C11, C12: ``--points`` above 10,000 (the solvers' limit) is an error naming ``--points``, a short one,
    before any work (was: 459 KB of stderr naming ``--loads``; at 10**12 a MemoryError or the machine's
    memory exhausted)."""
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--points", points], capsys)
    assert rc == 2
    assert "error: --points: " in _one_line_error(err) and "10000" in err
    assert len(err) < 2000


def test_points_at_the_bound_is_accepted(capsys, monkeypatch):
    """C11: ``--points 10000`` is still a curve (the bound is the solvers' own)."""
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--points", "10000"], capsys)
    assert rc == 0 and len(out.splitlines()) == 10_001


def test_too_many_loads_print_a_length_not_the_list(capsys):
    """C11: 10,001 explicit loads (``--loads`` or ``solve_curve``): a short message giving the count (was:
    every load printed)."""
    import models.torus_dor as front

    loads = list(np.linspace(1e-5, 1e-3, 20_000))
    with pytest.raises(ParameterError, match="at most 10000 loads") as exc:
        front.solve_curve(loads, radices=(8, 8), L=3, M=32)
    assert len(str(exc.value)) < 300 and "20000" in str(exc.value)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", *(["0.001"] * 10_001)], capsys)
    assert rc == 2 and "error: --loads: " in _one_line_error(err) and len(err) < 2000


@pytest.mark.parametrize("option", ["--messages", "--warmup"])
def test_run_length_has_an_upper_bound(option, capsys, no_computing):
    """C24: ``--messages 99999999999999999999 --simulate`` (and ``--warmup``): an error naming the option, before
    simulating (was: an ``OverflowError`` traceback from the simulator)."""
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--simulate", option,
                                      "99999999999999999999"], capsys)
    assert rc == 2 and f"error: {option}: " in _one_line_error(err)


def test_cycles_has_an_upper_bound(capsys, monkeypatch):
    """C24 for min_mva's ``--cycles``."""
    from models.min_mva import experiments

    monkeypatch.setattr(experiments, "simulate_curve", lambda *a: pytest.fail("simulated"))
    rc, out, err = _run("min_mva", ["curve", "--k", "2", "--n", "2", "--loads", "2", "--simulate", "--cycles",
                                    str(10**19)], capsys)
    assert rc == 2 and "error: --cycles: " in _one_line_error(err)


def test_style_is_checked_before_computing(tmp_path, capsys, no_computing):
    """#28: ``--style`` other than ``book`` or ``paper``, or without ``--plot``: an error naming ``--style``,
    status 2, before anything is computed or written."""
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--style", "paper"], capsys)
    assert rc == 2 and "error: --style: only used with --plot" in _one_line_error(err) and out == ""
    svg = tmp_path / "f.svg"
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--plot", str(svg), "--style", "a4"], capsys)
    assert rc == 2 and "error: --style: invalid choice: 'a4' (choose from 'book', 'paper')" in _one_line_error(err)
    assert not svg.exists()


# ----------------------------------------------------------------------------- options that do not apply
@pytest.mark.parametrize("name,option,value", [
    ("torus_dor", "--seed", "7"), ("torus_dor", "--messages", "5"), ("torus_dor", "--warmup", "10"),
    ("torus_dor", "--jobs", "9"), ("torus_ipp", "--setup", "one ejection channel"), ("min_mva", "--cycles", "4000"),
    ("torus_nbc", "--setup", "model"), ("xfolded_tm", "--jobs", "2"), ("torus_ipp", "--seed", "3"),
])
def test_simulation_options_without_simulate_are_refused(name, option, value, capsys, monkeypatch):
    """C21: ``--seed``, ``--messages``/``--cycles``, ``--warmup``, ``--jobs``, ``--setup`` without ``--simulate``:
    an error naming the option (was: silently ignored, status 0, even an invalid ``--messages 5``)."""
    args = {"torus_dor": DOR, "min_mva": ["--k", "2", "--n", "2"], "torus_nbc": ["--k", "8", "--M", "32"],
            "xfolded_tm": [], "torus_ipp": []}[name]
    loads = "2" if name == "min_mva" else "0.001"
    rc, out, err = _run(name, ["curve", *args, "--loads", loads, option, value], capsys)
    assert rc == 2
    line = _one_line_error(err)
    assert f"error: {option}: " in line and "--simulate" in line
    assert out == ""


def test_simulation_options_keep_their_defaults(capsys, monkeypatch):
    """C21: with ``--simulate`` the options absent take the defaults ``--help`` states (the parser's are None),
    handed to the chapter's ``compare`` as its run options and to its simulation as its settings."""
    from models.core.results import SimPoint
    from models.torus_dor import experiments

    seen = []

    def fake(curve, loads, settings):
        seen.append((curve, settings))
        return [SimPoint(1.0, 0.1, False) for _ in loads]

    monkeypatch.setattr(experiments, "simulate_curve", fake)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--simulate", "--seed", "5"], capsys)
    assert rc == 0, err
    chapter = _main("torus_dor").CHAPTER
    (curve, s), = seen
    assert (s.messages, s.warmup_messages, s.seed, s.jobs) == (chapter.lengths.length, chapter.lengths.warmup, 5, 1)
    # one set-up (torus_dor's "paper"): no --setup option, the command simulates that one
    assert chapter.setup_names == ("paper",) and curve.setup == "paper"


def test_xfolded_ad_is_refused_with_simulate(capsys, monkeypatch):
    """C28: ``xfolded_tm --topology xfolded_completed --k 8 --ad 100 --simulate``: refused naming ``--ad`` (the
    model's distance would not be the simulated network's; was: both in one CSV); without ``--simulate`` ``--ad``
    is the model's what-if and is used."""
    from models.xfolded_tm import experiments

    monkeypatch.setattr(experiments, "simulate_curve", lambda *a, **kw: pytest.fail("simulated"))
    argv = ["curve", "--topology", "xfolded_completed", "--k", "8", "--ad", "100", "--loads", "0.001"]
    rc, out, err = _run("xfolded_tm", [*argv, "--simulate", "--messages", "400"], capsys)
    assert rc == 2
    assert "error: --ad: " in _one_line_error(err) and "--simulate" in err
    rc, out, err = _run("xfolded_tm", argv, capsys)
    assert rc == 0 and out.splitlines()[1].split(",")[1:] == ["inf", "True"]  # AD of 100 hops: saturated


# ----------------------------------------------------------------------------- faults of the computation
def _csv_or_one_line(rc, out, err, *, names: str) -> None:
    """A cache fault either degrades (status 0, the whole CSV with the simulated columns) or is one ``error:``
    line naming ``names`` (status 1); never a traceback or an exception out of ``main``."""
    assert "Traceback" not in err, err
    if rc == 0:
        rows = list(csv.reader(io.StringIO(out)))
        assert len(rows) == 2 and len(rows[0]) == 6 and rows[1][3] not in ("", "nan"), out
    else:
        assert rc == 1, (rc, err)
        assert names in _one_line_error(err)


def test_cache_path_is_a_file(tmp_path, capsys, monkeypatch):
    """P22: ``MODELS_CACHE_DIR`` naming a regular file, with ``--simulate``: a result without caching, or one
    line (was: a ``NotADirectoryError`` traceback, status 1)."""
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("MODELS_CACHE_DIR", str(tmp_path / "file"))
    rc, out, err = _run("min_mva", ["curve", *MVA_SIM], capsys)
    _csv_or_one_line(rc, out, err, names=str(tmp_path / "file"))


def test_read_only_cache_without_the_entry(tmp_path, capsys, monkeypatch, read_only):
    """K10: a read-only cache that lacks the entry: a result without caching, or one line (was: an ``OSError:
    [Errno 30] Read-only file system: '.../.<key>.lock'`` traceback, status 1)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("MODELS_CACHE_DIR", str(cache))
    read_only(cache)
    rc, out, err = _run("min_mva", ["curve", *MVA_SIM], capsys)
    _csv_or_one_line(rc, out, err, names="Read-only file system")


def test_full_cache_disk(tmp_path, capsys, monkeypatch, read_only):
    """K11: the cache's disk is full when the simulated point is stored: the point kept without caching, or one
    line (was: ``OSError: [Errno 28] No space left on device`` traceback, no CSV)."""
    cache = tmp_path / "cache"
    (cache / "closed_min").mkdir(parents=True)
    monkeypatch.setenv("MODELS_CACHE_DIR", str(cache))
    real_replace = os.replace

    def replace(src, dst, *a, **kw):  # the entry's atomic write fails as on a full disk (the lock files still open)
        if _inside(dst, cache):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fsdecode(dst))
        return real_replace(src, dst, *a, **kw)

    monkeypatch.setattr(os, "replace", replace)
    rc, out, err = _run("min_mva", ["curve", *MVA_SIM], capsys)
    _csv_or_one_line(rc, out, err, names="No space left on device")


def test_an_io_fault_of_the_simulation_is_one_line(tmp_path, capsys, monkeypatch):
    """K10, K11, P22 at the command: whatever ``OSError`` the computation raises (the cache below the simulation
    in any chapter) is one ``error:`` line naming the cache, status 1 (was: a traceback)."""
    from models.core.paths import cache_dir

    entry = cache_dir() / "wormhole" / "0123.json"

    def full(*a, **kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(entry))

    from models.torus_dor import experiments

    monkeypatch.setattr(experiments, "simulate_curve", full)
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--simulate"], capsys)
    assert rc == 1
    line = _one_line_error(err)
    assert "No space left on device" in line and "MODELS_CACHE_DIR" in line and out == ""


def test_unreachable_scheduler_is_one_line(capsys, monkeypatch):
    """D6: ``MODELS_DASK_SCHEDULER=tcp://127.0.0.1:1`` with ``--simulate``: one line naming the address and the
    variable, status 1 (was: the same ``ConnectionError`` as a traceback)."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from models.sim import sweep

    monkeypatch.setenv(sweep.SCHEDULER_ENV, "tcp://127.0.0.1:1")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        rc, out, err = _run("min_mva", ["curve", *MVA_SIM], capsys)
    assert rc == 1
    line = _one_line_error(err)
    assert "tcp://127.0.0.1:1" in line and sweep.SCHEDULER_ENV in line


# ----------------------------------------------------------------------------- the Python API
def test_radices_must_be_a_sequence():
    """A4: ``torus_dor.solve(..., radices=8)`` is a ``ParameterError`` naming ``radices`` (was: taken as the 1-D
    ring ``(8,)``, latency 48.60 against 51.39 for 8x8, no warning); ``(8,)`` is the ring, unchanged."""
    import models.torus_dor as front

    for bad in (8, np.int64(8), np.array(8), 8.0):
        for call in (lambda r: front.solve(0.001, radices=r, L=3, M=32),
                     lambda r: front.solve_curve([0.001], radices=r, L=3, M=32),
                     lambda r: front.saturation_load(radices=r, L=3, M=32)):
            with pytest.raises(ParameterError, match="`radices` must be a sequence"):
                call(bad)
    ring = front.solve(0.001, radices=(8,), L=3, M=32).latency
    assert front.solve(0.001, radices=[8], L=3, M=32).latency == ring
    assert front.solve(0.001, radices=np.array([8]), L=3, M=32).latency == ring
    assert front.solve(0.001, radices=(8, 8), L=3, M=32).latency == front.solve(0.001, radices=[8, 8], L=3, M=32).latency


# ------------------------------------------------------------------- review 4 (issue #35): bounds and refusals
def test_run_length_bound_fits_in_memory_and_is_the_one_of_compare(capsys, no_computing):
    """N5 / N-32: ``--messages 1000000000`` (the old bound, 10**9) is refused naming ``--messages``, before anything
    is computed (was: accepted, 14.9 GiB reserved at once, a ``MemoryError`` traceback under a memory limit); the
    bound is the one of ``compare`` and ``SimSettings`` (:func:`models.core.setups.require_run_length`), low enough
    that the records a run keeps of its measured messages fit in memory."""
    from models.core.compare import RunOptions
    from models.core.setups import MAX_RUN

    assert MAX_RUN * 29 <= 4 * 2**30  # 29 bytes per measured message (steps.Tags): under 4 GiB a run
    for option in ("--messages", "--warmup"):
        rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--simulate", option, str(10**9)], capsys)
        assert rc == 2 and f"error: {option}: " in _one_line_error(err) and f"<= {MAX_RUN} " in err
        with pytest.raises(ParameterError) as exc:  # compare's run option of the same name: the same words
            RunOptions(**{option[2:]: 10**9})
        assert f"{option}: {exc.value}" in err
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--simulate", "--messages",
                                      "9" * 5000], capsys)
    assert rc == 2 and "error: --messages: " in _one_line_error(err) and len(err) < 2000


def test_out_and_plot_the_same_file_is_refused(tmp_path, capsys, no_computing):
    """N17 / N-38: ``--out same.svg --plot same.svg`` is refused naming ``--plot``, nothing written (was: status 0,
    the CSV silently replaced by the figure); so is a link to the other, or a second name of it."""
    same = tmp_path / "same.svg"
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(same), "--plot", str(same)],
                        capsys)
    assert rc == 2 and "error: --plot: " in _one_line_error(err) and "--out" in err
    assert not same.exists()
    (tmp_path / "c.svg").write_text("old")
    (tmp_path / "link.svg").symlink_to(tmp_path / "c.svg")
    os.link(tmp_path / "c.svg", tmp_path / "hard.svg")
    for plot in ("link.svg", "hard.svg"):
        rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", str(tmp_path / "c.svg"),
                                          "--plot", str(tmp_path / plot)], capsys)
        assert rc == 2 and "error: --plot: " in _one_line_error(err)
    assert (tmp_path / "c.svg").read_text() == "old"


def test_out_with_a_name_too_long_is_one_line(tmp_path, capsys, no_computing):
    """N17 / N-41: ``--out <300-character name>.csv``: ``error: --out: ... File name too long``, status 2, before
    computing (was: an ``OSError: [Errno 36]`` traceback from ``Path.is_dir``); ``--plot`` too."""
    long = str(tmp_path / ("a" * 300 + ".csv"))
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--out", long], capsys)
    assert rc == 2 and "error: --out: " in _one_line_error(err) and "File name too long" in err
    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", "--plot", long[:-4] + ".svg"], capsys)
    assert rc == 2 and "error: --plot: " in _one_line_error(err) and "File name too long" in err


def test_a_points_grid_below_the_models_loads_names_points(capsys):
    """N17 / N-43: ``--radices 64 64 --L 3 --M 1000000 --points 10000`` (no ``--loads``): the computed grid starts
    at 3.8e-13, below the models' 1e-12; the error names ``--points`` and says the grid made the load (was:
    ``error: --loads: ...``, an option that was not given)."""
    rc, out, err = _run("torus_dor", ["curve", "--radices", "64", "64", "--L", "3", "--M", "1000000", "--points",
                                      "10000"], capsys)
    assert rc == 2
    line = _one_line_error(err)
    assert "error: --points: " in line and "error: --loads" not in line
    assert "10000 loads evenly up to `upto` = 0.9" in line and "1e-12" in line and out == ""


@pytest.mark.parametrize("extra, option, other", [(["--upto", "0.5"], "--upto", "--loads"),
                                                  (["--points", "3"], "--points", "--loads")])
def test_upto_and_points_with_loads_are_refused(extra, option, other, capsys, no_computing):
    """N10's other half: ``--points`` or ``--upto`` with ``--loads`` is refused, in the words ``compare`` uses
    (``X: not allowed with Y``; ``--upto`` was silently ignored)."""
    from models.core.setups import not_allowed_with

    rc, out, err = _run("torus_dor", ["curve", *DOR, "--loads", "0.001", *extra], capsys)
    assert rc == 2 and f"error: {not_allowed_with(option, other)}" in _one_line_error(err)
