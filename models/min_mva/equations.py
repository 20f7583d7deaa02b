"""Willick & Eager (1990): the approximate-MVA equations, written once in SymPy.

Every equation is written *per visit* for one class ``i`` (processor ``i``)
at one center ``j``: sums over other classes are symbols of their own
(e.g. ``A_o`` stands for :math:`\\sum_{s\\ne i}(Q_{sj}-U_{sj})`), so that the
lambdified right-hand sides can be evaluated elementwise on NumPy arrays of
(class, center) pairs (``models.min_mva.solve``).  The sum over the input
ports ``k in IN_j`` of a switch in term (c) of eq. (1) (terms (b) and (c) of
eq. (4)) is a NumPy sum over a lambdified per-port summand.

Keys of :func:`equations` (paper numbering):

``eq:1``, ``eq:1a``, ``eq:1b``, ``eq:1c``, ``eq:1c_summand``
    Switch output port, single-packet (Sec. 3.2), and its terms.
``eq:2`` (``eq:2b``, ``eq:2c``), ``eq:3`` (``eq:3a``, ``eq:3b``)
    Memory module and processor, single-packet.
``eq:4`` (``eq:4a``, ``eq:4b``, ``eq:4c``, ``eq:4b_summand``, ``eq:4c_summand``), ``eq:4_printed``
    Switch, m packets (Sec. 4.2).  ``eq:4`` carries the factor ``m`` on
    terms (a) and (b) that the text asks for ("The factor m is required
    since each customer is m packets long") but the printed equation lacks;
    ``eq:4_printed`` is the equation as printed.  Only ``eq:4`` reduces to
    the Kruskal-Snir m-packet formula of Sec. 4.3 (derived in
    :func:`kruskal_snir_reduction`).
``eq:5`` (``eq:5b``, ``eq:5c``), ``eq:6`` (``eq:6a``, ``eq:6b``)
    Memory and processor, m packets.  ``eq:6`` is as printed (see
    :func:`no_queueing_reductions` for its term (b)).
``Q_ij``, ``U_ij:switch``, ``U_ij:memory``, ``U_ij:processor``,
``Q_ij:4``, ``U_ij:4``, ``Qhat_ij:5``, ``U_ij:5``, ``Q_iPE:6``, ``U_iPE:6``
    Queue lengths and utilisations (Little's law) used by the equations.
``X_i``, ``R_i``, ``X_i:m``, ``R_i:m``, ``X_ij``, ``X``, ``R``
    Throughputs and response times (Little's law), single and m packets.

Units: times in clock cycles, throughputs in requests (customers) per cycle.
No NumPy here; expensive derivations are cached.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import sympy as sp

# ----------------------------------------------------------------------------
# Symbols
# ----------------------------------------------------------------------------
_pos = dict(positive=True)
_nn = dict(nonnegative=True)

NC = sp.Symbol("NC", positive=True, integer=True)
m = sp.Symbol("m", positive=True, integer=True)
k = sp.Symbol("k", positive=True, integer=True)
S_mm = sp.Symbol("S_{mm}", **_pos)
S_pe = sp.Symbol("S_{pe}", **_pos)

V = sp.Symbol("V_{ij}", **_pos)              # visit ratio of class i at center j
R_ij = sp.Symbol("R_{ij}", **_pos)           # residence time of class i at center j (all visits)
r = sp.Symbol("r_{ij}", **_pos)              # per-visit residence time R_ij / V_ij
X_i = sp.Symbol("X_i", **_nn)                # class-i throughput
X_ij = sp.Symbol("X_{ij}", **_nn)            # class-i throughput at center j
Q_i = sp.Symbol("Q_{ij}", **_nn)             # class-i mean queue length at center j
Qhat_i = sp.Symbol(r"\hat{Q}_{ij}", real=True)  # complete class-i customers at a memory (eq. 5)
U_i = sp.Symbol("U_{ij}", **_nn)             # class-i utilisation of center j
A_o = sp.Symbol(r"\sum_{s \neq i} (Q_{sj} - U_{sj})", real=True)
Ahat_o = sp.Symbol(r"\sum_{s \neq i} (\hat{Q}_{sj} - U_{sj})", real=True)
U_o = sp.Symbol(r"\sum_{s \neq i} U_{sj}", **_nn)
p = sp.Symbol("p_{ikj}", **_nn)              # P(class i arrives at j's switch on input k)
O_X = sp.Symbol(r"\sum_{s \neq i} (1 - p_{skj}) X_{sj}", **_nn)
O_U = sp.Symbol(r"\sum_{s \neq i} (1 - p_{skj}) U_{sj}", **_nn)
C_b = sp.Symbol(r"\sum_{k \in IN_j} c^{X}_{ikj}", **_nn)   # sum over k in IN_j of the X summand
C_c = sp.Symbol(r"\sum_{k \in IN_j} c^{U}_{ikj}", **_nn)   # sum over k in IN_j of the U summand
R_pe = sp.Symbol("R_{iPE_i}", **_pos)
Q_pe = sp.Symbol("Q_{iPE_i}", **_nn)
U_pe = sp.Symbol("U_{iPE_i}", **_nn)
X_pe = sp.Symbol("X_{iPE_i}", **_nn)
sumR = sp.Symbol(r"\sum_j R_{ij}", **_nn)   # over switch output ports and memories
R_i = sp.Symbol("R_i", **_pos)
X_tot = sp.Symbol("X", **_nn)
R_tot = sp.Symbol("R", **_pos)

_i, _s, _N = sp.symbols("i s N", integer=True, positive=True)
_Xi = sp.IndexedBase("X")
_Ri = sp.IndexedBase("R")

#: All symbols, for lambdify argument tuples (explicit order, never free_symbols).
SYMBOLS = SimpleNamespace(
    NC=NC, m=m, k=k, S_mm=S_mm, S_pe=S_pe, V=V, R_ij=R_ij, r=r, X_i=X_i, X_ij=X_ij,
    Q_i=Q_i, Qhat_i=Qhat_i, U_i=U_i, A_o=A_o, Ahat_o=Ahat_o, U_o=U_o, p=p, O_X=O_X, O_U=O_U,
    C_b=C_b, C_c=C_c, R_pe=R_pe, Q_pe=Q_pe, U_pe=U_pe, X_pe=X_pe, sumR=sumR, R_i=R_i,
    X=X_tot, R=R_tot,
)

_own = (NC - 1) / NC  # a class never sees itself (Sec. 3.2)


@functools.cache
def equations() -> dict:
    """The model's equations keyed by the paper's numbering (module docstring).

    Residence-time equations are :class:`sympy.Eq` with ``R_{ij}`` (all
    visits) on the left; the bracket is the per-visit residence time.  Term
    entries (``eq:1a`` ...) are the per-visit terms as expressions.

    Returns
    -------
    dict[str, sympy.Eq | sympy.Expr]
    """
    e: dict = {}
    # --- eq. (1): switch output port, single packet ------------------------
    t1a = A_o
    t1b = (Q_i - U_i) * _own
    s1c = p * (O_X + (1 - p) * X_ij * _own)        # one input port k of IN_j
    t1c = sp.Rational(1, 2) * C_b                  # C_b = sum_k s1c
    e["eq:1a"], e["eq:1b"], e["eq:1c"], e["eq:1c_summand"] = t1a, t1b, t1c, s1c
    e["eq:1"] = sp.Eq(R_ij, V * (1 + t1a + t1b + t1c))
    # --- eq. (2): memory module, single packet -----------------------------
    t2b = (A_o + (Q_i - U_i) * _own) * S_mm
    t2c = (U_o + U_i * _own) * (S_mm - 1) / 2
    e["eq:2b"], e["eq:2c"] = t2b, t2c
    e["eq:2"] = sp.Eq(R_ij, V * (S_mm + t2b + t2c))
    # --- eq. (3): processor, single packet ---------------------------------
    t3a = (Q_pe - U_pe) * _own * S_pe
    t3b = U_pe * _own * (S_pe - 1)
    e["eq:3a"], e["eq:3b"] = t3a, t3b
    e["eq:3"] = sp.Eq(R_pe, S_pe + t3a + t3b)
    # --- Little's law, single packet ----------------------------------------
    e["Q_ij"] = sp.Eq(Q_i, X_i * R_ij)
    e["U_ij:switch"] = sp.Eq(U_i, X_ij)
    e["U_ij:memory"] = sp.Eq(U_i, X_ij * S_mm)
    e["U_ij:processor"] = sp.Eq(U_pe, X_pe * S_pe)
    e["Q_iPE"] = sp.Eq(Q_pe, X_pe * R_pe)
    e["X_i"] = sp.Eq(X_i, NC / (sumR + 1 + R_pe))
    e["R_i"] = sp.Eq(R_i, sumR + 1)
    e["X_ij"] = sp.Eq(X_ij, V * X_i)
    e["X"] = sp.Eq(X_tot, sp.Sum(_Xi[_i], (_i, 1, _N)))
    e["R"] = sp.Eq(R_tot, sp.Sum(_Ri[_i] * _Xi[_i], (_i, 1, _N)) / X_tot)
    # --- eq. (4): switch, m packets (R_ij: lead packet) --------------------
    t4a = (A_o + (Q_i - U_i) * _own) * m
    s4b = s1c
    t4b = sp.Rational(1, 2) * C_b * m
    s4c = p * (O_U + (1 - p) * U_i * _own)
    t4c = C_c * (m - 1) / 2
    e["eq:4a"], e["eq:4b"], e["eq:4c"] = t4a, t4b, t4c
    e["eq:4b_summand"], e["eq:4c_summand"] = s4b, s4c
    e["eq:4"] = sp.Eq(R_ij, V * (1 + t4a + t4b + t4c))
    e["eq:4_printed"] = sp.Eq(R_ij, V * (1 + t4a / m + t4b / m + t4c))
    e["Q_ij:4"] = sp.Eq(Q_i, X_i * V * (R_ij / V + m - 1))
    e["U_ij:4"] = sp.Eq(U_i, X_ij * m)
    # --- eq. (5): memory, m packets ----------------------------------------
    t5b = (Ahat_o + (Qhat_i - U_i) * _own) * S_mm
    t5c = (U_o + U_i * _own) * ((S_mm - m + 1) * (S_mm - m) / (2 * S_mm))
    e["eq:5b"], e["eq:5c"] = t5b, t5c
    e["eq:5"] = sp.Eq(R_ij, V * ((m - 1 + S_mm) + t5b + t5c))
    e["Qhat_ij:5"] = sp.Eq(Qhat_i, X_i * V * (R_ij / V - (m - 1)))
    e["U_ij:5"] = sp.Eq(U_i, X_ij * S_mm)
    # --- eq. (6): processor, m packets (as printed) ------------------------
    t6a = (Q_pe - U_pe) * _own * (m - 1 + S_pe)
    t6b = U_pe * _own * ((S_pe - 1) * S_pe / (S_pe + m - 1))
    e["eq:6a"], e["eq:6b"] = t6a, t6b
    e["eq:6"] = sp.Eq(R_pe, (m - 1 + S_pe) + t6a + t6b)
    e["Q_iPE:6"] = sp.Eq(Q_pe, X_pe * R_pe)
    e["U_iPE:6"] = sp.Eq(U_pe, X_pe * (S_pe + m - 1))
    # --- Little's law, m packets -------------------------------------------
    e["X_i:m"] = sp.Eq(X_i, NC / (sumR + 1 + R_pe))
    e["R_i:m"] = sp.Eq(R_i, sumR + (m - 1) + 1)
    return e


def per_visit(label: str) -> sp.Expr:
    """Per-visit residence time of a residence equation: ``rhs / V_{ij}`` (cycles).

    For ``eq:3`` and ``eq:6`` (processor, one visit) the right-hand side itself.
    """
    eq = equations()[label]
    if label in ("eq:3", "eq:6"):
        return eq.rhs
    return sp.expand(eq.rhs / V)


#: Readings of eq. (1) tried against Table 1 (``04-tables``): name -> what changes.  ``"paper"`` is eq. (1)
#: as the chapter reads it (the default of :func:`models.min_mva.solve`); the others are the alternatives
#: the chapter tried where the paper's Table 1 resists (``NC >= 16``).
from .readings import EQ1_READINGS  # noqa: E402  (kept in a SymPy-free module for the solver, #16)


@functools.cache
def eq1_reading(name: str = "paper") -> dict:
    """Eq. (1) under one of :data:`EQ1_READINGS`: ``{"switch": per-visit bracket, "summand": term (c) summand}``.

    Same symbols as ``equations()["eq:1"]`` and ``["eq:1c_summand"]`` (which
    ``"paper"`` returns unchanged), so the solver lambdifies either the same way.
    """
    if name not in EQ1_READINGS:
        raise ValueError(f"`reading` must be one of {list(EQ1_READINGS)}; got {name!r}")
    e = equations()
    t1a, t1b, s1c = e["eq:1a"], e["eq:1b"], e["eq:1c_summand"]
    if name == "c-own-unscaled":
        s1c = p * (O_X + (1 - p) * X_ij)
    elif name == "c-other-classes":
        s1c = p * O_X
    elif name == "q-scaled":
        t1b = Q_i * _own - U_i
    switch = sp.expand(1 + t1a + t1b + sp.Rational(1, 2) * C_b)
    return {"switch": switch, "summand": s1c}


# ----------------------------------------------------------------------------
# Derivations (Sec. 3.3 and 4.3)
# ----------------------------------------------------------------------------
def _subst_uniform(body, ports: str, mm):
    """Substitute uniform traffic at a ``k x k`` switch into a per-visit switch bracket.

    Every class's per-visit time is ``r``; the output port's throughput is
    ``X_j``, class ``i``'s share ``x_i``; every input carries ``X_j/k``.
    ``ports="one"``: class ``i`` arrives on a single input (``p = 1`` there;
    forward network); ``ports="all"``: on every input with ``p = 1/k``
    (return network).  ``mm`` is the packet count (1 for eq. (1)).
    """
    x, xi = sp.symbols("X_j x_i", positive=True)
    kk = sp.Symbol("kk", integer=True, positive=True)
    e = equations()

    def port_sum(summand, other, own, scale):
        # other-class arrivals on the inputs other than k: (X_j - X_j/k) - (1 - p_ik) x_i
        if ports == "one":
            return summand.subs({p: 1, other: scale * (x - x / k), own: scale * xi})
        term = summand.subs({p: 1 / k, other: scale * ((x - x / k) - (1 - 1 / k) * xi), own: scale * xi})
        return sp.Sum(term, (kk, 1, k)).doit()

    body = body.subs({
        C_b: port_sum(e["eq:4b_summand"], O_X, X_ij, 1),
        C_c: port_sum(e["eq:4c_summand"], O_U, U_i, mm),
    })
    Qs = lambda thr: thr * (r + mm - 1)  # noqa: E731  (Q_sj = X_sj (r + m - 1), eq. (4))
    Us = lambda thr: thr * mm  # noqa: E731  (U_sj = m X_sj)
    body = body.subs({A_o: Qs(x - xi) - Us(x - xi), Q_i: Qs(xi), U_i: Us(xi), X_ij: xi})
    return body, x


@functools.cache
def kruskal_snir_reduction(packets: str = "single", ports: str = "one") -> dict:
    """Derive the Kruskal-Snir switch formula from eq. (1) (or eq. (4)).

    Under uniform traffic with unbounded ``NC`` (``NC -> oo``) at a ``k x k``
    switch, the per-visit fixed point ``r = f(r)`` of eq. (1) is solved for
    ``r`` with SymPy and compared with Kruskal & Snir's
    ``1 + (1 - 1/k) X_j / (2 (1 - X_j))`` (Sec. 3.3).  ``packets="m"`` does
    the same for eq. (4) (with the factor ``m`` on terms (a), (b)) against
    ``1 + (1 - 1/k) m^2 X_j / (2 (1 - m X_j))`` (Sec. 4.3);
    ``packets="printed"`` for eq. (4) as printed.  ``ports``: ``"one"``
    (forward network, a class enters on one input) or ``"all"`` (return
    network, ``p = 1/k`` on each input).

    Returns
    -------
    dict with ``derived`` (the solved per-visit residence time, cycles),
    ``kruskal_snir`` (the published formula), ``difference``
    (``simplify(derived - kruskal_snir)``, zero when the reduction holds) and
    ``X_j`` (the symbol used for the port throughput).
    """
    label = {"single": "eq:1", "m": "eq:4", "printed": "eq:4_printed"}[packets]
    mm = 1 if packets == "single" else m
    body = sp.expand(equations()[label].rhs / V)
    body, x = _subst_uniform(body, ports, mm)
    body = sp.limit(body, NC, sp.oo)
    sols = sp.solve(sp.Eq(r, body), r)
    if len(sols) != 1:
        raise AssertionError(f"expected one solution, got {sols}")
    derived = sp.simplify(sols[0])
    ks = 1 + (1 - 1 / k) * mm**2 * x / (2 * (1 - mm * x))
    return {"derived": derived, "kruskal_snir": ks, "difference": sp.simplify(derived - ks), "X_j": x}


@functools.cache
def one_by_one_reduction(packets: str = "single") -> dict:
    """Eq. (1) (or eq. (4)) for a ``1 x 1`` switch: no queueing, ``R_ij = V_ij`` (Secs. 3.3, 4.3).

    With one input every class arrives on it (``p = 1``) and no other class
    arrives on another input (``sum_{s != i} (1 - p_skj) X_sj = 0``, and the
    same for ``U``).  The per-visit fixed point with all classes' per-visit
    time ``r`` (total throughput ``X_j``, own share ``x_i``, any ``NC``) is
    solved for ``r``.  ``packets="single"``: eq. (1), ``Q_sj = X_sj r``,
    ``U_sj = X_sj``; ``packets="m"``: eq. (4) (lead packet), ``Q_sj = X_sj (r + m - 1)``,
    ``U_sj = m X_sj``.

    Returns dict with ``term_c`` (the same-cycle term(s) at ``p = 1``: 0) and
    ``r`` (the solution: 1 cycle).
    """
    if packets not in ("single", "m"):
        raise ValueError(f"`packets` must be 'single' or 'm'; got {packets!r}")
    x, xi = sp.symbols("X_j x_i", positive=True)
    e = equations()
    if packets == "single":
        term_c = sp.simplify(e["eq:1c"].subs(C_b, e["eq:1c_summand"].subs({p: 1, O_X: 0})))
        body = per_visit("eq:1").subs(C_b, e["eq:1c_summand"].subs({p: 1, O_X: 0}))
        body = body.subs({A_o: (x - xi) * (r - 1), Q_i: xi * r, U_i: xi, X_ij: xi})
    else:
        ports = {C_b: e["eq:4b_summand"].subs({p: 1, O_X: 0}), C_c: e["eq:4c_summand"].subs({p: 1, O_U: 0})}
        term_c = sp.simplify((e["eq:4b"] + e["eq:4c"]).subs(ports))
        body = per_visit("eq:4").subs(ports)
        # A_o = sum_{s!=i} (Q_sj - U_sj) = (X_j - x_i) (r + m - 1 - m); own Q, U
        body = body.subs({A_o: (x - xi) * (r - 1), Q_i: xi * (r + m - 1), U_i: m * xi, X_ij: xi})
    sols = sp.solve(sp.Eq(r, body), r)
    return {"term_c": term_c, "r": sols[0] if len(sols) == 1 else sols}


@functools.cache
def no_queueing_reductions() -> dict:
    """The "no queueing" special cases of Sec. 3.3 and 4.3, derived.

    Each equation's per-visit fixed point is solved with every class's
    per-visit time equal to ``r`` (center throughput ``X_j``, own share
    ``x_i``, any ``NC``):

    ``memory_single``
        eq. (2) at ``S_mm = 1``: ``r = 1`` and terms (b), (c) vanish there.
    ``processor_single``
        eq. (3) at ``S_pe = 1``: ``r = 1``, terms (a), (b) vanish.
    ``memory_m``
        eq. (5) at ``S_mm = m``: ``r = 2m - 1`` (= ``m - 1 + S_mm``), no queueing.
    ``processor_m_spe1``
        eq. (6) at ``S_pe = 1``: ``r = m``, no queueing.
    ``processor_m_spem``
        eq. (6) *as printed* at ``S_pe = m``: the solution is **not**
        ``2m - 1`` for ``m > 1``; term (b) ``U (NC-1)/NC (S_pe-1) S_pe/(S_pe+m-1)``
        vanishes only at ``S_pe = 1``.  Sec. 4.3's "our processor equation is
        correct for S_pe = m" therefore holds for ``S_pe = 1`` (the analogue
        of Sec. 3.3), which is the only value the paper's figures use.

    Returns
    -------
    dict label -> dict(r=solution, terms=[values of the queueing terms at the solution])
    """
    x, xi = sp.symbols("X_j x_i", positive=True)
    e = equations()
    out = {}
    # memory, single packet: Q_sj = X_sj r, U_sj = X_sj S_mm
    subs2 = {A_o: (x - xi) * (r - S_mm), Q_i: xi * r, U_i: xi * S_mm, U_o: (x - xi) * S_mm}
    body = per_visit("eq:2").subs(subs2).subs(S_mm, 1)
    sol = sp.solve(sp.Eq(r, body), r)
    terms = [sp.simplify(t.subs(subs2).subs(S_mm, 1).subs(r, sol[0])) for t in (e["eq:2b"], e["eq:2c"])]
    out["memory_single"] = {"r": sol[0] if len(sol) == 1 else sol, "terms": terms}
    # processor, single packet: Q = X r, U = X S_pe
    subs3 = {Q_pe: X_pe * R_pe, U_pe: X_pe * S_pe}
    body = e["eq:3"].rhs.subs(subs3).subs(S_pe, 1)
    sol = sp.solve(sp.Eq(R_pe, body), R_pe)
    terms = [sp.simplify(t.subs(subs3).subs(S_pe, 1).subs(R_pe, sol[0])) for t in (e["eq:3a"], e["eq:3b"])]
    out["processor_single"] = {"r": sol[0] if len(sol) == 1 else sol, "terms": terms}
    # memory, m packets: Qhat = X (r - (m-1)), U = X S_mm
    subs5 = {Ahat_o: (x - xi) * (r - (m - 1) - S_mm), Qhat_i: xi * (r - (m - 1)), U_i: xi * S_mm, U_o: (x - xi) * S_mm}
    body = per_visit("eq:5").subs(subs5).subs(S_mm, m)
    sol = sp.solve(sp.Eq(r, body), r)
    terms = [sp.simplify(t.subs(subs5).subs(S_mm, m).subs(r, sol[0])) for t in (e["eq:5b"], e["eq:5c"])]
    out["memory_m"] = {"r": sol[0] if len(sol) == 1 else sol, "terms": terms}
    # processor, m packets: Q = X R, U = X (S_pe + m - 1)
    subs6 = {Q_pe: X_pe * R_pe, U_pe: X_pe * (S_pe + m - 1)}
    for name, value in (("processor_m_spe1", 1), ("processor_m_spem", m)):
        body = e["eq:6"].rhs.subs(subs6).subs(S_pe, value)
        sol = sp.solve(sp.Eq(R_pe, body), R_pe)
        terms = [sp.simplify(t.subs(subs6).subs(S_pe, value).subs(R_pe, sol[0])) for t in (e["eq:6a"], e["eq:6b"])]
        out[name] = {"r": sp.simplify(sol[0]) if len(sol) == 1 else sol, "terms": terms}
    return out


@functools.cache
def single_packet_limit() -> dict:
    """``simplify(eq(4|5|6) at m = 1 - eq(1|2|3))`` per visit: all zero.

    eq. (4)'s ``Q_ij = X_i V_ij (R_ij/V_ij + m - 1)`` and eq. (5)'s
    ``Qhat_ij`` both become ``X_i R_ij`` at ``m = 1``.
    """
    return {
        "eq:4-eq:1": sp.simplify(per_visit("eq:4").subs(m, 1) - per_visit("eq:1")),
        "eq:5-eq:2": sp.simplify(per_visit("eq:5").subs(m, 1).subs({Ahat_o: A_o, Qhat_i: Q_i}) - per_visit("eq:2")),
        "eq:6-eq:3": sp.simplify(equations()["eq:6"].rhs.subs(m, 1) - equations()["eq:3"].rhs),
    }
