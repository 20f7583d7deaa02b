"""Symbolic checks of models.min_mva.equations: the paper's stated reductions, derived."""

import numpy as np
import pytest
import sympy as sp

from models.min_mva.equations import (
    SYMBOLS,
    equations,
    kruskal_snir_reduction,
    no_queueing_reductions,
    one_by_one_reduction,
    single_packet_limit,
)
from models.min_mva.solve import _kernel_specs, _kernels

S = SYMBOLS


def test_keys_follow_paper_numbering():
    e = equations()
    for key in ["eq:1", "eq:1a", "eq:1b", "eq:1c", "eq:2", "eq:3", "eq:4", "eq:5", "eq:6",
                "X_i", "R_i", "X_ij", "Q_ij", "U_ij:switch", "U_ij:memory", "U_ij:processor", "X", "R"]:
        assert key in e
    # eq (1) = V (1 + (a) + (b) + (c))
    assert sp.simplify(e["eq:1"].rhs - S.V * (1 + e["eq:1a"] + e["eq:1b"] + e["eq:1c"])) == 0


@pytest.mark.parametrize("ports", ["one", "all"])
def test_kruskal_snir_single_packet(ports):
    d = kruskal_snir_reduction("single", ports)
    assert d["difference"] == 0
    x, k = d["X_j"], S.k
    assert sp.simplify(d["derived"] - (1 + (1 - 1 / k) * x / (2 * (1 - x)))) == 0


@pytest.mark.parametrize("ports", ["one", "all"])
def test_kruskal_snir_m_packets_needs_factor_m(ports):
    assert kruskal_snir_reduction("m", ports)["difference"] == 0
    # eq. (4) as printed (no factor m on terms (a), (b)) does not reduce
    assert kruskal_snir_reduction("printed", ports)["difference"] != 0
    assert sp.simplify(kruskal_snir_reduction("printed", ports)["difference"].subs(S.m, 1)) == 0


def test_one_by_one_switch():
    d = one_by_one_reduction()
    assert d["term_c"] == 0
    assert d["r"] == 1  # R_ij = V_ij


def test_no_queueing_cases():
    d = no_queueing_reductions()
    assert d["memory_single"]["r"] == 1 and d["memory_single"]["terms"] == [0, 0]
    assert d["processor_single"]["r"] == 1 and d["processor_single"]["terms"] == [0, 0]
    assert sp.simplify(d["memory_m"]["r"] - (2 * S.m - 1)) == 0 and d["memory_m"]["terms"] == [0, 0]
    assert sp.simplify(d["processor_m_spe1"]["r"] - S.m) == 0 and d["processor_m_spe1"]["terms"] == [0, 0]
    # eq. (6) as printed queues at S_pe = m > 1 (Sec. 4.3's claim holds for S_pe = 1)
    assert sp.simplify(d["processor_m_spem"]["r"].subs(S.m, 1) - 1) == 0
    assert sp.simplify(d["processor_m_spem"]["r"] - (2 * S.m - 1)) != 0


def test_m_packet_equations_reduce_to_single_packet():
    assert all(v == 0 for v in single_packet_limit().values())


@pytest.mark.parametrize("multi", [False, True])
def test_lambdified_matches_symbolic(multi):
    rng = np.random.default_rng(7)
    K = _kernels(multi)
    for name, (args, expr) in _kernel_specs(multi).items():
        for _ in range(3):
            vals = [float(rng.integers(1, 9)) if a in (S.NC, S.m) else float(rng.uniform(0.1, 3.0)) for a in args]
            want = float(sp.N(expr.subs(dict(zip(args, vals)))))
            got = float(np.asarray(K[name](*vals)))
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), name
    # vectorised evaluation on arrays
    f = K["switch"]
    n = 5
    arrays = [rng.uniform(0.1, 2.0, n) for _ in range(5)] + [4.0, 2.0]
    vec = np.asarray(f(*arrays))
    for i in range(n):
        assert vec[i] == pytest.approx(float(f(*[a[i] for a in arrays[:5]], 4.0, 2.0)), rel=1e-14)


def test_one_by_one_switch_has_no_queueing_with_m_packets():
    from models.min_mva.equations import one_by_one_reduction

    for packets in ("single", "m"):
        one = one_by_one_reduction(packets)
        assert one["term_c"] == 0 and one["r"] == 1


def test_eq1_readings():
    import sympy as sp

    from models.min_mva.equations import EQ1_READINGS, eq1_reading, equations, per_visit

    paper = eq1_reading("paper")
    assert sp.simplify(paper["switch"] - per_visit("eq:1")) == 0
    assert sp.simplify(paper["summand"] - equations()["eq:1c_summand"]) == 0
    for name in EQ1_READINGS:
        if name != "paper":
            r = eq1_reading(name)
            assert sp.simplify(r["switch"] - paper["switch"]) != 0 or sp.simplify(r["summand"] - paper["summand"]) != 0
