"""The wormhole benchmark's configurations (benchmarks/bench_wormhole.py): each one's keywords run on its network,
and the book's run the ideal router only (the preset routes DOR and ``min_adapt`` only); the kernel profile's
counting (benchmarks/perf_kernel.py), the phase profile's arithmetic (``--phases``), the kernel counts' reading
and arithmetic (benchmarks/count_kernel.py) and the count of the preset's lone hops (benchmarks/lone_hops.py)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_wormhole as bench  # noqa: E402

sys.path.remove(str(ROOT / "benchmarks"))


def _benchmark(name: str):
    """The module ``benchmarks/<name>.py`` (imported with the folder on the path, then the path restored)."""
    import importlib

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


@pytest.mark.parametrize("name", list(bench.BOOK))
def test_a_book_configuration_runs_at_its_rate(name):
    from models.sim.wormhole import Torus, simulate

    cfg = bench.CONFIGS[name]
    r = simulate(Torus(cfg["radices"], bidirectional=cfg["bidirectional"]), **cfg["kw"], messages=40,
                 warmup_messages=4, seed=1)
    assert r.params["rate"] == cfg["kw"]["rate"] and r.flit_hops > 0 and not r.saturated


def test_the_book_configurations_run_the_ideal_router_only():
    both = ("ideal", "booksim")
    assert all(bench._routers_of(name, both) == ("ideal",) for name in bench.BOOK)
    assert all(bench._routers_of(name, both) == both for name in bench.ISSUE36)
    assert bench._own_load("book-nbc", "ideal") == {}  # the configuration's own fixed rate


def test_an_unknown_configuration_is_refused():
    with pytest.raises(ValueError, match="book-nbc"):
        bench.main(configs=["no-such-network"])


def test_the_kernel_profile_counts_samples_by_offset_and_region():
    perf_kernel = _benchmark("perf_kernel")
    addr = 0x7F0000001000
    ips = [addr + 0x10, addr + 0x10, addr + 0x130, addr - 1, addr + perf_kernel.CODE_BYTES]
    inside, outside = perf_kernel.histogram(ips, addr)
    assert inside == {0x10: 2, 0x130: 1} and outside == 2
    assert perf_kernel.regions(inside) == [(0x0, 2 / 3), (0x100, 1 / 3)]
    # the run it profiles is the benchmark's, with the router asked for (the preset: an even VC count)
    assert perf_kernel.keywords("torus_dor", "booksim") == dict(router="booksim", vcs=4)
    assert perf_kernel.keywords("torus_dor", "ideal") == {}
    assert perf_kernel.keywords("8x8-50", "booksim") == bench._own_load("8x8-50", "booksim")


def test_the_phase_profile_gives_shares_cycles_and_work_per_flit_hop(monkeypatch, capsys):
    # one's counters are per cycle: 10 cycles, 20 flit-hops, 4 processor cycles and 3 VC visits per cycle
    run = dict(work={"cycles_traversal": 3.0, "cycles_bookkeeping": 1.0, "vc_visits": 3.0}, cycles=10, flit_hops=20)
    monkeypatch.setattr(bench, "_subprocess", lambda path, name, quick, extra: run)
    res = bench.phases(("8x8-50",), ("ideal",))[("8x8-50", "ideal")]
    assert res == dict(shares={"traversal": 0.75, "bookkeeping": 0.25}, per_hop=2.0, work_per_hop={"vc_visits": 1.5})
    assert "2 processor cycles per flit-hop; per flit-hop: vc visits 1.50" in capsys.readouterr().out
    # the preset's steps of switch allocation are part of its phase: printed per flit-hop, not added to the phases
    run = dict(work={"cycles_events": 1.0, "cycles_switch_allocation": 3.0, "cycles_sw_send": 2.0,
                     "cycles_sw_list": 0.5, "sw_contested": 0.4}, cycles=10, flit_hops=20)
    res = bench.phases(("8x8-50",), ("booksim",))[("8x8-50", "booksim")]
    assert res == dict(shares={"events": 0.25, "switch_allocation": 0.75}, per_hop=2.0,
                       work_per_hop={"sw_contested": 0.2}, switch_steps_per_hop={"send": 1.0, "list": 0.25})
    assert "switch allocation's steps, processor cycles per flit-hop: send 1.0, list 0.2" in capsys.readouterr().out


def test_the_kernel_count_reads_the_code_without_symbols_and_divides_the_difference(tmp_path):
    count_kernel = _benchmark("count_kernel")
    out = tmp_path / "cachegrind.out"
    out.write_text("desc: I1 cache: 32768 B\ncmd: python\nevents: Ir Bc Bcm Bi Bim\n"
                   "fl=/usr/lib/libc.so\nfn=memcpy\n10 100 5 1 0 0\n"
                   "fl=???\nfn=blas_thread_server\n0 7 7 7 7 7\n"
                   "fn=???\n0 40 4 1\n0 2 0 0 1 1\n"  # lines may leave trailing zero events out
                   "fl=/usr/bin/python\nfn=???\n3 9 9 9 9 9\n"
                   "summary: 158 16 9 17 17\n")
    short = count_kernel.jit_counts(out)
    assert short == dict(Ir=42, Bc=4, Bcm=1, Bi=1, Bim=1)
    long = dict(Ir=442, Bc=44, Bcm=9, Bi=1, Bim=1)
    assert count_kernel.per_flit_hop(short, long, 100, 300) == dict(Ir=2.0, Bc=0.2, Bcm=0.04, Bi=0.0, Bim=0.0)
    with pytest.raises(ValueError, match="more flits"):
        count_kernel.per_flit_hop(short, long, 300, 300)


def test_the_kernel_count_with_the_cache_model_reads_and_prints_its_misses(tmp_path):
    count_kernel = _benchmark("count_kernel")
    out = tmp_path / "cachegrind.out"
    out.write_text("events: Ir Dr Dw D1mr D1mw DLmr DLmw Bc Bcm Bi Bim\n"
                   "fl=???\nfn=???\n0 40 10 4 2 1 0 0 4 1 0 0\n0 2 1\n"
                   "fl=/usr/bin/python\nfn=main\n3 9 9 9 9 9 9 9 9 9 9 9\n")
    keys = count_kernel.EVENTS + count_kernel.CACHE_EVENTS
    short = count_kernel.jit_counts(out, keys)
    # (an event the file lacks, here the instruction cache's I1mr, counts 0)
    assert short == dict(Ir=42, Dr=11, Dw=4, D1mr=2, D1mw=1, DLmr=0, DLmw=0, I1mr=0, Bc=4, Bcm=1, Bi=0, Bim=0)
    assert count_kernel.jit_counts(out) == dict(Ir=42, Bc=4, Bcm=1, Bi=0, Bim=0)  # without: the branch events only
    long = dict(short, Ir=242, Dr=111, D1mr=12)
    per = count_kernel.per_flit_hop(short, long, 100, 200, keys=keys)
    assert per["Ir"] == 2.0 and per["Dr"] == 1.0 and per["D1mr"] == 0.1 and per["Dw"] == 0.0
    line = count_kernel._line("x", per)
    assert "1.0 data reads (0.10 missing L1, 0.00 the last level), 0.0 writes (0.00, 0.00)" in line
    assert "0.000 instruction fetches missing L1" in line
    assert "data reads" not in count_kernel._line("x", count_kernel.per_flit_hop(short, long, 100, 200))


def test_the_instruction_count_reads_callgrind_positions_and_leaves_calls_out(tmp_path):
    count_kernel = _benchmark("count_kernel")
    out = tmp_path / "callgrind.out"
    # positions absolute (hex, decimal), relative (+n, -n, +0x..) and repeated (*); a call's inclusive cost (the line
    # after calls=) is the callee's, not the caller's; addresses outside the code are left out
    out.write_text("version: 1\npositions: instr line\nevents: Ir\n"
                   "ob=(2) ???\nfl=(52) ???\nfn=(7) 0x1000\n"
                   "0x1000 0 5\n+4 * 5\n+3 * 2\ncalls=1 0x9000 0\n* * 1000\n* * 7\n"
                   "-0x7 * 1\n0x0fff 0 9\n4112 0 3\n+0x10 * 1\n"
                   "fn=(8) other\n0x1004 0 2\n"
                   "summary: 1033\n")
    counts = count_kernel.instruction_counts(out, 0x1000, 0x20)
    assert counts == {0x0: 6, 0x4: 7, 0x7: 9, 0x10: 3}  # 0x1020 (+0x10 from 0x1010) is past the code's end
    # basic blocks: runs of consecutive instructions executed equally often (per flit-hop, to 0.01)
    lines = {0: "a", 4: "b", 7: "c", 9: "d", 12: "e", 16: "f"}
    per = {0: 1.0, 4: 1.001, 7: 0.5, 9: 0.5, 16: 0.5}
    assert count_kernel.blocks(per, lines) == [(0, 1.0, 2), (7, 0.5, 2), (16, 0.5, 1)]
    assert count_kernel._position("*", 5) == 5 and count_kernel._position("-0x2", 5) == 3


def test_the_instruction_count_reads_any_event_of_the_file(tmp_path):
    """``--annotate`` reads each instruction's mispredictions (``Bcm``) from the same file as its executions: a line
    may leave its trailing zero costs out (callgrind's compression), which count as 0."""
    count_kernel = _benchmark("count_kernel")
    out = tmp_path / "callgrind.out"
    out.write_text("version: 1\npositions: instr line\nevents: Ir Bc Bcm\nfn=(1) 0x1000\n"
                   "0x1000 0 5\n+4 * 3 2 1\n+3 * 2 2\n0x1004 0 1 1 1\n")
    assert count_kernel.instruction_counts(out, 0x1000, 0x10) == {0x0: 5, 0x4: 4, 0x7: 2}
    assert count_kernel.instruction_counts(out, 0x1000, 0x10, "Bcm") == {0x4: 2}


def test_the_cache_model_takes_another_first_level_and_refuses_one_cachegrind_cannot_model():
    count_kernel = _benchmark("count_kernel")
    assert count_kernel.cache_model() == count_kernel.CACHE
    assert count_kernel.cache_model("49152,12") == ("--D1=49152,12,64", *count_kernel.CACHE[1:])
    for bad in ("48K,12", "49152", "49152,0", "40000,8", "0,8"):  # not numbers, no ways, not sets of 2 ** k lines
        with pytest.raises(ValueError, match="--l1"):
            count_kernel.cache_model(bad)


def test_an_annotated_line_has_its_counts_in_columns_and_blanks_where_they_round_to_zero():
    """``--annotate``'s file: executions, mispredictions and (``--cache``) first-level misses per flit-hop, then the
    disassembly, the columns aligned whether or not a count is shown."""
    count_kernel = _benchmark("count_kernel")
    ins = "  4c0:\tmov    eax,DWORD PTR [rdi]"
    assert count_kernel.annotated_line(ins, 0.5, 0.0123) == "    0.50   0.0123  " + ins + "\n"
    assert count_kernel.annotated_line(ins, 0.5, 0.0) == "    0.50           " + ins + "\n"
    assert count_kernel.annotated_line(ins, 0.001, 0.0) == " " * 19 + ins + "\n"  # not executed (to 0.005)
    with_cache = count_kernel.annotated_line(ins, 0.5, 0.0, 0.25)
    assert with_cache == "    0.50            0.2500  " + ins + "\n"
    assert count_kernel.annotated_line(ins, 0.5, 0.0, 0.0) == "    0.50" + " " * 20 + ins + "\n"
    assert len(count_kernel.annotated_line(ins, 0.0, 0.0, 0.0)) == len(with_cache)


def test_the_lone_hops_count_patches_the_preset_kernel_and_refuses_a_changed_one():
    lone_hops = _benchmark("lone_hops")
    source = (ROOT / "models" / "sim" / "wormhole" / "booksim_kernel.py").read_text()
    patched = lone_hops.patch(source)
    compile(patched, "booksim_kernel.py", "exec")  # still Python
    assert all(f'("{f}", _i8)' in patched for f in lone_hops.FIELDS)
    assert patched.count("sc.lh_winners += 1") == 1 and "def _lh_held(" in patched
    assert "if cfg.ejcr | CHECKS:" not in patched  # the terminals' credits sent: the steady count reads them
    with pytest.raises(ValueError, match="has changed"):
        lone_hops.patch(source.replace("och = vs[uidx(r + VS_OUTCH)]", "och = vs[uidx(r + VS_OUTCH)]  # moved"))
    counts = dict(winners=200, lone=100, into_lone=50, into_ej=20, into_shared=1, queued=0, linked=60, worms=25,
                  steady=70, steady_lone=60, woken=20, waited=30)
    assert lone_hops.shares(counts) == dict(lone=0.5, into_lone=0.5, into_ej=0.2, into_shared=0.01, queued=0.0,
                                            per_chain=2.5, per_worm=4.0, steady=0.35, steady_lone=0.3, woken=0.2,
                                            per_wait=1.5)
    wrapper = (ROOT / "models" / "sim" / "wormhole" / "booksim.py").read_text()
    assert "tsent=i64(NV + mcap + 3 * NV))" in lone_hops.patch_wrapper(wrapper)
    with pytest.raises(ValueError, match="has changed"):
        lone_hops.patch_wrapper(wrapper.replace("tsent=i8(NV))", "tsent=i8(NV),)"))


#: the runs of the patched copy that the tests below read, made in one child (one compile of the copy): issue #36's
#: 8x8 network at 50 % load, messages of 20 and of 40 flits that never meet (a 4x4 torus far below saturation), and
#: the 8x8 network again at the benchmark's own quick length (the first run's ``messages`` were for it alone)
_LONE_RUNS = [dict(bench="8x8-50", quick=True, messages=[300, 30])] + [
    dict(radices=[4, 4], bidirectional=True,
         kw=dict(bench.ISSUE36_KW, rate=2e-6, messages=200, warmup_messages=20, message_length=M))
    for M in (20, 40)] + [dict(bench="8x8-50", quick=True, messages=None)]


@pytest.fixture(scope="module")
def lone_runs():
    return _benchmark("lone_hops").count_runs(_LONE_RUNS)


def test_the_lone_hops_copy_runs_as_the_kernel_and_counts_within_its_winners(lone_runs):
    from models.sim.wormhole import Torus, simulate

    c = lone_runs[0]  # the child checks: one counted winner per flit-hop
    cfg = bench.CONFIGS["8x8-50"]
    kw = dict(cfg["kw"], **bench._own_load("8x8-50", "booksim"))
    r = simulate(Torus(cfg["radices"], bidirectional=cfg["bidirectional"]), **kw, messages=300, warmup_messages=30,
                 seed=1)
    assert c["flit_hops"] == r.flit_hops == c["winners"]  # the counters change nothing the kernel does
    n, w = bench.RUN[True]  # a later run without ``messages``: the benchmark's own length, not the first run's
    r = simulate(Torus(cfg["radices"], bidirectional=cfg["bidirectional"]), **kw, messages=n, warmup_messages=w, seed=1)
    assert lone_runs[3]["flit_hops"] == r.flit_hops == lone_runs[3]["winners"] > c["flit_hops"]
    assert 0 < c["lone"] < c["winners"]
    assert c["into_lone"] + c["into_ej"] <= c["lone"]  # a lone VC's flit enters a network VC or an ejection VC
    assert c["into_shared"] <= c["lone"] and c["queued"] <= c["lone"]
    assert 0 < c["worms"] <= c["lone"] - c["linked"]  # a message's lone sends in a cycle: one chain or more
    assert 0 < c["steady_lone"] <= c["steady"] < c["winners"] and c["steady_lone"] <= c["lone"]
    assert 0 < c["woken"] <= c["waited"] and c["woken"] + c["steady_lone"] <= c["lone"]  # a steady VC sent just before


def test_messages_that_never_meet_make_steady_flit_hops_but_at_a_worms_ends(lone_runs):
    """Messages that never meet go through VCs alone at both their ports.  A VC sends its header two cycles after
    it arrives and then a flit a cycle (one arrives each cycle); the first credit comes back 7 cycles after the
    header left (the next router sends it on 5 cycles later, and its credit takes 2), 5 from a terminal.  So at each
    hop the sends that change the VC's counts are the header, the 6 (into a terminal's VC 4) before the first
    credit, the last body flit (no flit arrives behind it) and the tail: 9 per message and network hop, 7 per message
    into an ejection VC; every other flit-hop is steady, and twice as long messages add only steady ones."""
    runs = {20: lone_runs[1], 40: lone_runs[2]}
    for M, c in runs.items():
        assert c["flit_hops"] == c["winners"] == c["lone"] > 0 and c["steady_lone"] == c["steady"]
        assert c["into_ej"] % M == 0 and (c["winners"] - c["into_ej"]) % M == 0
        network, ejection = (c["winners"] - c["into_ej"]) // M, c["into_ej"] // M  # message-hops
        assert c["winners"] - c["steady"] == 9 * network + 7 * ejection
        assert c["woken"] == c["waited"] == 0  # after its header, a VC sends a flit every cycle
    short, long = runs[20], runs[40]
    assert long["flit_hops"] == 2 * short["flit_hops"] and long["steady"] - short["steady"] == short["flit_hops"]


def test_the_worm_step_streams_at_the_credit_loops_rate_and_keeps_every_credit_accounted_for():
    worm_step = _benchmark("worm_step")
    assert worm_step.planes(8) == 4 and worm_step.planes(1) == 1
    for bad in (0, 3, 12):
        with pytest.raises(ValueError, match="power of two"):
            worm_step.planes(bad)
    for depth in (1, 2, 4, 8, 16):  # a credit is back five cycles after its flit left: min(1, B / 5) flits a cycle
        sent, checks = worm_step.pipeline(hops=6, depth=depth, flits=400, cycles=300)
        assert sum(sent[100:300]) == pytest.approx(200 * min(1.0, depth / 5), abs=1)
        assert all(have == want for rows in checks for have, want in rows)  # in use: in the next buffer or on the way
    sent, _ = worm_step.pipeline(hops=5, depth=8, flits=32, cycles=80)
    assert sum(sent) == 32 and sent.index(1) == 12  # all of them, the first three cycles a hop after entering hop 0
    n8, n16 = worm_step.loop_instructions(8), worm_step.loop_instructions(16)
    assert 30 < n8 < n16 < 300  # a plane more per count at 16 flits
