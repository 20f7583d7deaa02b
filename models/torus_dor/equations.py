"""Najaf-abadi & Sarbazi-azad (2004) and the 2003 comparison model, written once in SymPy.

The paper prints no equation numbers; :func:`equations` numbers them in order
of appearance (``eq:1`` the recursion for :math:`C_m` ... ``eq:22`` the
latency :math:`\\bar T`), and the chapter's derivation page shows each one
next to the paper's text.  Per-dimension equations are written for one
dimension :math:`d_i` with scalar symbols; the sums over dimensions
(:math:`\\sum_{d_j\\ge d_i}\\sum_s W_{d_j}P_{d_j,s|\\cdot}`) are the symbols
:math:`X_{d_i}` and :math:`Y_{d_i}` whose coefficients come from
:mod:`models.networks.dor_paths` (a matrix product in the solver).

Readings of the garbled or ambiguous places (notes/papers.md sec. 8) are
selected with :class:`Readings`; :func:`equations` takes one and returns the
corresponding forms (keys ending in ``:printed`` etc. hold the alternatives
for display).

Units: times in cycles (``t_c`` = 1 cycle per flit per channel), ``M`` in
flits, rates in messages per node (``lambda_g``) or per channel
(``lambda_c``) per cycle.  No NumPy here.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import sympy as sp

from .readings import CHOICES, CHOICES_2003, Readings, Readings2003  # noqa: F401  (re-exported)

# ----------------------------------------------------------------------------
# Symbols
# ----------------------------------------------------------------------------
_p = dict(positive=True)
_nn = dict(nonnegative=True)
_int = dict(integer=True, positive=True)

SYMBOLS = SimpleNamespace(
    lam_g=sp.Symbol(r"\lambda_g", **_p),            # generation rate, messages/node/cycle
    lam_c=sp.Symbol(r"\lambda_c", **_p),            # channel arrival rate, messages/channel/cycle
    h=sp.Symbol("h", **_p),                         # mean hops
    h_i=sp.Symbol("h_{d_i}", **_p),                 # mean hops in dimension d_i
    n=sp.Symbol("n", **_int),                       # dimensions
    M=sp.Symbol("M", **_p),                         # message length, flits
    t_c=sp.Symbol("t_c", **_p),                     # cycles per flit per channel
    L=sp.Symbol("L", **_int),                       # VCs per physical channel
    j=sp.Symbol("j", integer=True, nonnegative=True),
    l=sp.Symbol("l", integer=True, nonnegative=True),
    J=sp.Symbol("J", **_int),                       # max waiting messages at a hop
    D=sp.Symbol("D_{d_i}", **_p),                   # network latency from the first hop (eq. 9)
    rho=sp.Symbol(r"\rho", **_nn),                 # lambda_c * D
    q=sp.Symbol(r"q_{d_i}", **_nn),                 # P_t / (k/2): a hop is its message's last
    W=sp.Symbol("W_{d_i}", **_nn),                  # blocking time at a hop of d_i
    What=sp.Symbol(r"\hat{W}_{d_i}", **_nn),
    X=sp.Symbol(r"X_{d_i}", **_nn),                 # sum_{d_j>=d_i} sum_s W_{d_j} P_{d_j,s|d_i}
    Y=sp.Symbol(r"Y_{d_i}", **_nn),                 # sum_{d_j>=d_i} sum_s W_{d_j} P_{d_j,s|d_i,first}
    P_B=sp.Symbol("P_{B_i}", **_nn),
    P_d=sp.Symbol("P_{d_i}", **_nn),
    Ntil=sp.Symbol(r"\tilde{N}_{d_i,waiting}", **_nn),
    W_ej=sp.Symbol("W_{ejection}", **_nn),
    f=sp.Symbol(r"f_{d_i}", **_nn),                 # P(first hop in d_i)
    S=sp.Symbol(r"\bar{S}", **_p),
    lbar_i=sp.Symbol(r"\bar{l}_{d_i}", **_p),
    lbar=sp.Symbol(r"\bar{l}", **_p),
    W_s=sp.Symbol(r"\bar{W}_s", **_nn),
    T=sp.Symbol(r"\bar{T}", **_p),
    e=sp.Symbol("e", **_nn),                        # ejection cycle (0 or 1)
    m=sp.Symbol("m", integer=True),
    dd=sp.Symbol("d", integer=True),
    N=sp.Symbol("N", **_int),
    # 2003 model
    kbar=sp.Symbol(r"\bar{k}", **_p),
    S_i=sp.Symbol("S_i", **_p),
    S_prev=sp.Symbol("S_{i-1}", **_p),
    W_i=sp.Symbol("W_i", **_nn),
    P_Bi=sp.Symbol("P_{B_i}", **_nn),
    Vbar=sp.Symbol(r"\bar{V}", **_p),
)
s = SYMBOLS


def occupancy_term(j, rho=None, L=None):
    """:math:`P_{d_i,j}` (eq. 13): the truncated geometric VC-occupancy of Dally's chain (notes sec. 5)."""
    rho = s.rho if rho is None else rho
    L = s.L if L is None else L
    return sp.Piecewise(((1 - rho) * rho**j, sp.StrictLessThan(j, L)), (rho**L, True))


def waiting_term(j, rho=None, J=None):
    """:math:`P_{d_i,j,waiting}` (eq. 14): the same chain truncated at ``J``."""
    rho = s.rho if rho is None else rho
    J = s.J if J is None else J
    return sp.Piecewise(((1 - rho) * rho**j, sp.StrictLessThan(j, J)), (rho**J, True))


@functools.lru_cache(maxsize=None)
def equations(readings: Readings = Readings()) -> dict:
    """The model's equations as ``sympy.Eq`` objects keyed ``eq:N`` (order of appearance).

    ``eq:1``-``eq:3``, ``eq:10``-``eq:12``, ``eq:17`` are the combinatorial
    ones; they are shown symbolically here and computed exactly by
    :mod:`models.networks.dor_paths`.  Keys with a suffix hold a form under
    another reading (``eq:6:printed``...).  ``"rho"`` is
    :math:`\\rho=\\lambda_cD_{d_i}`.
    """
    C = sp.Function("C")
    P = sp.Function("P")
    i = sp.Symbol("i", integer=True, nonnegative=True)
    e: dict = {}
    e["eq:1"] = sp.Eq(sp.Symbol("C_m^{d,(k_{d-1},...,k_0)}"),
                      sp.Sum(sp.Symbol("C_{m-i}^{d-1,(k_{d-2},...,k_0)}"), (i, 0, sp.Symbol("k_{d-1}"))))
    e["eq:2"] = sp.Eq(s.h, sp.Sum(s.m * sp.Symbol("P_m"), (s.m, 1, sp.Symbol("k'_{n-1}"))))
    e["eq:3"] = sp.Eq(sp.Symbol("P_m"), sp.Symbol("C_m^{n,(k_{n-1}-1,...,k_0-1)}") / (s.N - 1))
    # channel rate (text): unidirectional h*lam_g/n; bidirectional h*lam_g/(2n)
    e["eq:4"] = sp.Eq(s.lam_c, s.h * s.lam_g / s.n)
    e["eq:4:bidirectional"] = sp.Eq(s.lam_c, s.h * s.lam_g / (2 * s.n))
    e["eq:4:per-dimension"] = sp.Eq(s.lam_c, s.h_i * s.lam_g)
    e["eq:4:per-dimension-bidirectional"] = sp.Eq(s.lam_c, s.h_i * s.lam_g / 2)
    e["rho"] = sp.Eq(s.rho, s.lam_c * s.D)
    PL = occupancy_term(s.L)
    PL1 = occupancy_term(s.L - 1)
    e["eq:5"] = sp.Eq(s.P_B, sp.piecewise_fold(PL + PL1 / s.L).simplify())
    one_q = 1 - s.q
    PLv, PL1v = s.rho**s.L, (1 - s.rho) * s.rho ** (s.L - 1)
    printed = s.q * one_q ** (s.L - 1) * PLv / s.L + one_q**s.L * PLv + one_q ** (s.L - 1) * PL1v / s.L
    consistent = s.q * one_q ** (s.L - 1) * PLv + one_q**s.L * PLv + one_q ** (s.L - 1) * PL1v / s.L
    e["eq:6:printed"] = sp.Eq(s.P_d, printed)
    e["eq:6:consistent"] = sp.Eq(s.P_d, consistent)
    e["eq:6"] = e[f"eq:6:{readings.p_none}"]
    e["eq:7"] = sp.Eq(s.What, s.P_d / s.P_B * s.X + s.M * s.t_c)
    e["eq:8"] = sp.Eq(s.W, s.What * s.Ntil)
    e["eq:9"] = sp.Eq(s.D, s.Y + s.M * s.t_c + s.W_ej)
    e["eq:10"] = sp.Eq(sp.Symbol("P_{t,d_i}"), sp.Symbol(r"P(m_{d_j}=0\ \forall d_j>d_i \mid m_{d_i}\ge1)"))
    e["eq:11"] = sp.Eq(sp.Symbol("P_{d_j,s|d_i}"), sp.Symbol(r"P(m_{d_j}\ge s \mid m_{d_i}\ge1)"))
    e["eq:12"] = sp.Eq(sp.Symbol("P_{d_j,s|d_i,first}"), sp.Symbol(r"P(m_{d_j}\ge s \mid \mathrm{first\ hop\ in}\ d_i)"))
    e["eq:13"] = sp.Eq(sp.Symbol("P_{d_i,j}"), occupancy_term(s.j))
    e["eq:14"] = sp.Eq(sp.Symbol("P_{d_i,j,waiting}"), waiting_term(s.j))
    weight = {"j": s.j, "j-L": s.j - s.L, "j-L+1": s.j - s.L + 1}[readings.waiting_weight]
    e["eq:15"] = sp.Eq(s.Ntil, sp.Sum(weight * waiting_term(s.j), (s.j, s.L, s.J)))
    e["eq:15:printed"] = sp.Eq(s.Ntil, sp.Sum(s.j * waiting_term(s.j), (s.j, s.L, s.J)))
    e["eq:16"] = sp.Eq(s.W_ej, s.M**2 * s.lam_g / (2 * (1 - s.M * s.lam_g)))
    e["eq:17"] = sp.Eq(s.f, sp.Symbol(r"P(\mathrm{first\ hop\ in}\ d_i)"))
    e["eq:18"] = sp.Eq(s.S, sp.Sum(P(s.dd) * (sp.Function("D")(s.dd) + sp.Function("W")(s.dd)), (s.dd, 0, s.n - 1)))
    e["eq:18:term"] = s.f * (s.D + s.W)
    e["eq:19"] = sp.Eq(s.lbar_i, sp.Sum(s.l**2 * occupancy_term(s.l), (s.l, 0, s.L))
                       / sp.Sum(s.l * occupancy_term(s.l), (s.l, 0, s.L)))
    e["eq:20"] = sp.Eq(s.lbar, sp.Symbol(r"\sum_{d_i}k_{d_i}\bar{l}_{d_i}/\sum_{d_i}k_{d_i}"))
    e["eq:21"] = sp.Eq(s.W_s, (s.lam_g / s.L) * s.S**2 * (1 + (s.S - s.M) ** 2 / s.S**2)
                       / (2 * (1 - (s.lam_g / s.L) * s.S)))
    tail = s.h * s.lbar if readings.pipeline == "h*lbar" else s.h
    e["eq:22"] = sp.Eq(s.T, s.S * s.lbar + s.W_s + tail + s.e)
    e["eq:22:printed"] = sp.Eq(s.T, s.S * s.lbar + s.W_s + s.h * s.lbar)
    return e


@functools.lru_cache(maxsize=None)
def equations_2003(readings: Readings2003 = Readings2003()) -> dict:
    """The reconstructed 2003 model (Sarbazi-Azad, Khonsari & Ould-Khaoua), notes/papers.md sec. 4.

    Dimension ``i`` counts from the destination end (``i = 1`` is the last
    dimension visited).  Keys: ``"lam_c"``, ``"S_i"`` (implicit in ``S_i``),
    ``"P_B"``, ``"W_i"``, ``"W_ej"``, ``"Vbar_i"``, ``"W_s"``, ``"T"``.
    """
    e: dict = {}
    e["lam_c"] = sp.Eq(s.lam_c, s.lam_g * s.kbar)
    e["lam_c:bidirectional"] = sp.Eq(s.lam_c, s.lam_g * s.kbar / 2)
    e["S_i"] = sp.Eq(s.S_i, s.S_prev + s.kbar * (1 + s.P_Bi * s.W_i))
    e["rho"] = sp.Eq(s.rho, s.lam_c * s.S_i)
    e["P_B"] = sp.Eq(s.P_Bi, s.rho**s.L + (1 - s.rho) * s.rho ** (s.L - 1) / s.L)
    var = (s.S_i - s.M) ** 2 if readings.variance == "S-M" else (s.S_i - s.S_prev) ** 2
    e["W_i"] = sp.Eq(s.W_i, s.lam_c * s.S_i**2 * (1 + var / s.S_i**2) / (2 * (1 - s.lam_c * s.S_i)))
    e["W_ej"] = sp.Eq(s.W_ej, s.M**2 * s.lam_g / (2 * (1 - s.M * s.lam_g)))
    e["Vbar_i"] = equations()["eq:19"]
    e["W_s"] = equations()["eq:21"]
    if readings.composition == "(S+Ws)V":
        e["T"] = sp.Eq(s.T, (s.S + s.W_s) * s.Vbar + s.e)
    else:
        e["T"] = sp.Eq(s.T, s.S * s.Vbar + s.W_s + s.h * s.Vbar + s.e)
    return e
