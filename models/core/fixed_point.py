"""Damped fixed-point iteration that fails loudly, and stops quietly at saturation.

``x_{t+1} = (1 - damping) * x_t + damping * f(x_t)`` until the max-norm of the
change is below ``tol``.  When it does not converge, :class:`ConvergenceError`
names the quantity whose change was largest (``names[i]`` if given), the
iteration count and the residual.

Three outcomes of :func:`fixed_point`:

* **converged** (``converged=True``): the change of the last iteration is
  within ``tol``;
* **saturated** (``saturated=True``, ``converged=False``): the model has no
  fixed point at this load -- ``f`` raised :class:`Saturated`, or the
  ``saturated`` predicate said so of an iterate.  This is a state, not an
  error (DESIGN.md: latency ``inf``, ``saturated=True``);
* **failed**: non-finite values that no predicate claimed, or ``max_iter``
  iterations, raise :class:`ConvergenceError` (or return ``converged=False``
  with ``raise_on_failure=False``).

One iteration ``t = 1, 2, ...`` from ``x``, in this order:

1. ``fx = f(x)`` (``f`` may raise :class:`Saturated`: stop, saturated);
2. ``new = (1 - damping) * x + damping * fx`` (``damping = 1``: ``new = fx``
   to the last bit);
3. ``saturated(new)`` (optional predicate; a truthy value stops, saturated;
   a string is kept as the reason);
4. a non-finite ``fx`` fails;
5. the change ``d = |new - x|`` per component, measured relative to
   ``s = max(floor, |new|)`` (``relative_to="new"``, the default) or
   ``max(floor, |x|)`` (``"old"``), or absolute (``relative=False``);
   ``residual = max(d / s)``;
6. converged when ``residual <= tol`` (or, with ``scale_tol``, when every
   ``d <= tol * s``: the same test written the other way, for loops that
   compared that way, identical up to the last bit of the comparison);
7. otherwise the next ``x`` is ``new``, or ``update(x, fx)`` when an
   ``update`` hook is given (e.g. a Newton step; it may raise
   :class:`Saturated`).  The convergence test always uses the plain
   (damped) step of 5-6, so a converged result is the plain step.

:func:`fixed_points` iterates many independent problems at once (one per
row), each exactly as :func:`fixed_point` would, masking the rows that have
converged or saturated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .errors import ConvergenceError, ParameterError

__all__ = ["FixedPoint", "FixedPoints", "Saturated", "fixed_point", "fixed_points", "monotone_fixed_point_exists",
           "newton_update", "anderson_update"]


class Saturated(Exception):
    """Raised by a fixed-point map (or an ``update`` hook) when the load has no fixed point.

    The message, if any, is kept as :attr:`FixedPoint.reason`.  Not an
    error: :func:`fixed_point` catches it and returns ``saturated=True``.
    """


@dataclass(frozen=True)
class FixedPoint:
    """Outcome of :func:`fixed_point`: the solution, iterations and final residual.

    x : the last iterate (the converged solution; the iterate judged
        saturated; the last iterate reached)
    iterations : iterations performed (the saturating one included)
    residual : max relative (or absolute) change of the last completed
        iteration (``inf`` if none completed)
    converged : the change fell within ``tol``
    saturated : the iteration stopped because the model saturated
    reason : why it saturated (the :class:`Saturated` message or the
        predicate's string), ``""`` otherwise
    change : max absolute change ``|new - x|`` of the last completed iteration
    """

    x: np.ndarray
    iterations: int
    residual: float
    converged: bool
    saturated: bool = False
    reason: str = ""
    change: float = math.nan


def _check_options(damping, relative_to, floor):
    if not 0.0 < damping <= 1.0:
        raise ParameterError(f"`damping` must be in (0, 1]; got {damping!r}")
    if relative_to not in ("new", "old"):
        raise ParameterError(f"`relative_to` must be 'new' or 'old'; got {relative_to!r}")
    if not (isinstance(floor, (int, float)) and math.isfinite(floor) and floor >= 0):
        raise ParameterError(f"`floor` must be a finite number >= 0; got {floor!r}")


def _reason(verdict) -> str:
    return verdict if isinstance(verdict, str) else "saturated"


def _fixed_point_1(f, x, *, damping, tol, max_iter, where, names, relative, raise_on_failure, saturated,
                   relative_to, floor, scale_tol) -> FixedPoint:
    """:func:`fixed_point` for one unknown, on Python floats: the same checks in the same
    order and the same numbers, without the cost of numpy calls on 1-element arrays
    (the solvers of torus_nbc and torus_ipp iterate one scalar thousands of times)."""
    residual = math.inf
    change = math.nan
    label = names[0] if names is not None else "component 0"
    for it in range(1, max_iter + 1):
        try:
            fx = np.asarray(f(np.array([x])), dtype=float)
        except Saturated as sat:
            return FixedPoint(np.array([x]), it, float(residual), False, True, str(sat) or "saturated", change)
        if fx.shape != (1,):
            raise ValueError(f"{where}: f changed the shape from (1,) to {fx.shape}")
        v = float(fx[0])
        new = (1.0 - damping) * x + damping * v  # IEEE arithmetic, as numpy's (inf and nan propagate)
        if saturated is not None:
            verdict = saturated(np.array([new]))
            if verdict:
                return FixedPoint(np.array([new]), it, float(residual), False, True, _reason(verdict), change)
        if not math.isfinite(v):
            err = ConvergenceError(f"{where} ({label} became non-finite)", it, np.inf, np.array([x]))
            if raise_on_failure:
                raise err
            return FixedPoint(np.array([x]), it, np.inf, False)
        step = abs(new - x)
        scale = max(floor, abs(new if relative_to == "new" else x)) if relative else 1.0
        if relative:
            diff = step / scale if scale > 0 else (math.inf if step > 0 else math.nan)
        else:
            diff = step
        residual = diff
        change = step
        if scale_tol:
            done = step <= tol * scale
        else:
            done = residual <= tol
        if done:
            return FixedPoint(np.array([new]), it, residual, True, change=change)
        x = new
    if raise_on_failure:
        raise ConvergenceError(f"{where} (variable {label})", max_iter, residual, np.array([x]))
    return FixedPoint(np.array([x]), max_iter, residual, False, change=change)


def fixed_point(
    f: Callable[[np.ndarray], np.ndarray],
    x0,
    *,
    damping: float = 0.5,
    tol: float = 1e-12,
    max_iter: int = 10_000,
    where: str = "fixed point",
    names: Sequence[str] | None = None,
    relative: bool = True,
    raise_on_failure: bool = True,
    saturated: Callable[[np.ndarray], object] | None = None,
    relative_to: str = "new",
    floor: float = 1.0,
    scale_tol: bool = False,
    update: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> FixedPoint:
    """Solve ``x = f(x)`` by damped iteration (the module docstring gives the order of the checks).

    Parameters
    ----------
    f : callable
        Maps an array to an array of the same shape.  It may raise
        :class:`Saturated`.  Non-finite values stop the iteration: saturated
        if the ``saturated`` predicate says so, else a :class:`ConvergenceError`.
    x0 : array_like
        Starting point.
    damping : float in (0, 1]
        Weight of the new iterate (1 = plain iteration).
    tol : float
        Convergence threshold on the max-norm of the change (relative to
        ``max(floor, |.|)`` when ``relative``).
    max_iter : int
        Iteration cap.
    where : str
        Name of the equation or model, used in error messages.
    names : sequence of str, optional
        Names of the components of ``x``, used in error messages.
    relative : bool
        Relative (default) or absolute change.
    raise_on_failure : bool
        If False, return ``converged=False`` instead of raising.
    saturated : callable, optional
        ``iterate -> truthy`` checked on every new (damped) iterate before
        anything else; truthy ends the iteration with ``saturated=True`` (a
        string is kept as the reason).
    relative_to : {'new', 'old'}
        Scale of the relative change: the new iterate (default) or the old one.
    floor : float >= 0
        Smallest scale, ``max(floor, |.|)`` (default 1; 0 gives ``|.|``).
    scale_tol : bool
        Test ``d <= tol * s`` instead of ``d / s <= tol``.
    update : callable, optional
        ``(x, f(x)) -> next x`` used instead of the damped step when not
        converged (an accelerated step); may raise :class:`Saturated`.
    """
    _check_options(damping, relative_to, floor)
    x = np.array(x0, dtype=float, copy=True)
    if x.shape == (1,) and update is None:
        return _fixed_point_1(f, float(x[0]), damping=damping, tol=tol, max_iter=max_iter, where=where,
                              names=names, relative=relative, raise_on_failure=raise_on_failure,
                              saturated=saturated, relative_to=relative_to, floor=floor, scale_tol=scale_tol)
    residual = np.inf
    change = math.nan
    worst = 0
    # one errstate for the whole loop: entering np.errstate costs more than an iteration of a small map
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for it in range(1, max_iter + 1):
            try:
                fx = np.asarray(f(x), dtype=float)
            except Saturated as sat:
                return FixedPoint(x, it, float(residual), False, True, str(sat) or "saturated", change)
            if fx.shape != x.shape:
                raise ValueError(f"{where}: f changed the shape from {x.shape} to {fx.shape}")
            new = (1.0 - damping) * x + damping * fx
            if saturated is not None:
                verdict = saturated(new)
                if verdict:
                    return FixedPoint(new, it, float(residual), False, True, _reason(verdict), change)
            if not np.isfinite(fx).all():
                bad = int(np.flatnonzero(~np.isfinite(fx).ravel())[0])
                label = names[bad] if names is not None else f"component {bad}"
                err = ConvergenceError(f"{where} ({label} became non-finite)", it, np.inf, x)
                if raise_on_failure:
                    raise err
                return FixedPoint(x, it, np.inf, False)
            step = np.abs(new - x)
            diff = step
            if relative:
                ref = new if relative_to == "new" else x
                scale = np.maximum(floor, np.abs(ref))
                diff = step / scale
            flat = diff.ravel()
            worst = int(flat.argmax()) if flat.size else 0
            residual = float(flat[worst]) if flat.size else 0.0
            change = float(step.max()) if step.size else 0.0
            if scale_tol and relative:
                done = bool(np.all(step <= tol * scale))
            elif scale_tol:
                done = bool(np.all(step <= tol))
            else:
                done = residual <= tol
            if done:
                return FixedPoint(new, it, residual, True, change=change)
            if update is None:
                x = new
            else:
                try:
                    nxt = np.asarray(update(x, fx), dtype=float)
                except Saturated as sat:
                    return FixedPoint(x, it, residual, False, True, str(sat) or "saturated", change)
                if nxt.shape != x.shape:
                    raise ValueError(f"{where}: update changed the shape from {x.shape} to {nxt.shape}")
                x = np.array(nxt, dtype=float, copy=True)
    label = names[worst] if names is not None else f"component {worst}"
    if raise_on_failure:
        raise ConvergenceError(f"{where} (variable {label})", max_iter, residual, x)
    return FixedPoint(x, max_iter, residual, False, change=change)


@dataclass(frozen=True)
class FixedPoints:
    """Outcome of :func:`fixed_points`, one entry per problem (row).

    x : (m, ...) last iterates; iterations, residual, converged, saturated,
    change : (m,) arrays with the meaning of :class:`FixedPoint`'s fields;
    reason : tuple of m strings.
    """

    x: np.ndarray
    iterations: np.ndarray
    residual: np.ndarray
    converged: np.ndarray
    saturated: np.ndarray
    reason: tuple
    change: np.ndarray

    def __len__(self) -> int:
        return len(self.iterations)

    def __getitem__(self, i: int) -> FixedPoint:
        """Problem ``i`` as a :class:`FixedPoint`."""
        return FixedPoint(self.x[i], int(self.iterations[i]), float(self.residual[i]), bool(self.converged[i]),
                          bool(self.saturated[i]), self.reason[i], float(self.change[i]))


def fixed_points(
    f: Callable[[np.ndarray, np.ndarray], np.ndarray],
    x0,
    *,
    damping: float = 0.5,
    tol: float = 1e-12,
    max_iter: int = 10_000,
    where: str = "fixed point",
    names: Sequence[str] | None = None,
    relative: bool = True,
    raise_on_failure: bool = True,
    saturated: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    relative_to: str = "new",
    floor: float = 1.0,
    scale_tol: bool = False,
    update: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> FixedPoints:
    """Many independent fixed points at once (e.g. one per load), each iterated as :func:`fixed_point` does.

    Parameters
    ----------
    f : callable
        ``f(x, rows) -> array like x``: ``x`` holds the rows still iterating
        (shape ``(a, ...)``), ``rows`` their indices into ``x0`` (so ``f`` can
        pick each problem's parameters, e.g. ``loads[rows]``).  Rows must not
        interact.
    x0 : array_like, shape (m, ...)
        One starting point per problem (first axis).
    saturated : callable, optional
        ``saturated(new, rows) -> bool array (a,)``: rows that stop saturated.
    update : callable, optional
        ``update(x, fx, rows) -> next x`` for the rows that go on (converged,
        saturated and failed rows excluded), used instead of the damped step
        (e.g. :func:`newton_update`); as for :func:`fixed_point`, the
        convergence test is always on the damped step.
    damping, tol, max_iter, where, names, relative, raise_on_failure, relative_to, floor, scale_tol
        As for :func:`fixed_point`, applied row by row.  A row whose ``f``
        value is non-finite (and not claimed by ``saturated``) or that does
        not converge in ``max_iter`` fails: :class:`ConvergenceError` naming
        the row, or ``converged=False`` with ``raise_on_failure=False``.

    Returns
    -------
    FixedPoints
    """
    _check_options(damping, relative_to, floor)
    X = np.array(x0, dtype=float, copy=True)
    if X.ndim < 1 or X.shape[0] == 0:
        raise ParameterError(f"`x0` must have one row per problem (shape (m, ...), m >= 1); got shape {X.shape}")
    m = X.shape[0]
    iters = np.zeros(m, dtype=int)
    resid = np.full(m, np.inf)
    change = np.full(m, np.nan)
    conv = np.zeros(m, dtype=bool)
    sat = np.zeros(m, dtype=bool)
    failed = np.zeros(m, dtype=bool)
    reason = [""] * m
    worst = np.zeros(m, dtype=int)
    active = np.arange(m)
    axes = tuple(range(1, X.ndim))

    def rowmax(a):
        return a.reshape(a.shape[0], -1).max(axis=1) if a[0].size else np.zeros(a.shape[0])

    def rowargmax(a):
        return a.reshape(a.shape[0], -1).argmax(axis=1) if a[0].size else np.zeros(a.shape[0], dtype=int)

    for it in range(1, max_iter + 1):
        if active.size == 0:
            break
        x = X[active]
        fx = np.asarray(f(x, active), dtype=float)
        if fx.shape != x.shape:
            raise ValueError(f"{where}: f changed the shape from {x.shape} to {fx.shape}")
        iters[active] = it
        with np.errstate(invalid="ignore", over="ignore"):
            new = (1.0 - damping) * x + damping * fx
        keep = np.ones(active.size, dtype=bool)
        if saturated is not None:
            verdict = np.asarray(saturated(new, active), dtype=bool).reshape(active.size)
            if verdict.any():
                rows = active[verdict]
                X[rows] = new[verdict]
                sat[rows] = True
                for r in rows:
                    reason[r] = "saturated"
                keep &= ~verdict
        finite = np.isfinite(fx).reshape(active.size, -1).all(axis=1) if x[0].size else np.ones(active.size, bool)
        bad = keep & ~finite
        if bad.any():
            rows = active[bad]
            if raise_on_failure:
                r = int(rows[0])
                raise ConvergenceError(f"{where} (problem {r} became non-finite)", it, np.inf, X[r])
            failed[rows] = True
            resid[rows] = np.inf
            keep &= ~bad
        step = np.abs(new - x)
        diff = step
        if relative:
            ref = new if relative_to == "new" else x
            scale = np.maximum(floor, np.abs(ref))
            with np.errstate(divide="ignore", invalid="ignore"):
                diff = step / scale
        r_now = rowmax(diff)
        w_now = rowargmax(diff)
        c_now = rowmax(step)
        if scale_tol and relative:
            done = (step <= tol * scale).reshape(active.size, -1).all(axis=1)
        elif scale_tol:
            done = (step <= tol).reshape(active.size, -1).all(axis=1)
        else:
            done = r_now <= tol
        idx = active[keep]
        resid[idx] = r_now[keep]
        worst[idx] = w_now[keep]
        change[idx] = c_now[keep]
        X[idx] = new[keep]
        go = keep & ~done
        if update is not None and go.any():
            nxt = np.asarray(update(x[go], fx[go], active[go]), dtype=float)
            if nxt.shape != x[go].shape:
                raise ValueError(f"{where}: update changed the shape from {x[go].shape} to {nxt.shape}")
            X[active[go]] = nxt
        conv[active[keep & done]] = True
        active = active[go]
    if active.size and raise_on_failure:
        r = int(active[0])
        w = int(worst[r])
        label = names[w] if names is not None else f"component {w}"
        raise ConvergenceError(f"{where} (problem {r}, variable {label})", max_iter, float(resid[r]), X[r])
    return FixedPoints(X, iters, resid, conv, sat, tuple(reason), change)


def newton_update(
    f: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    damping: float = 0.5,
    near: float = 1e-2,
    max_jump: float = 0.1,
    rel_step: float = 1e-7,
    floor: float = 1.0,
) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """An ``update`` hook for :func:`fixed_points`: damped steps far from the fixed point, Newton steps near it.

    For a row ``x`` (its map value ``fx = f(x)``) whose damped step is still
    larger than ``near`` (relative to ``max(floor, |.|)``), the next iterate is
    the damped step, exactly as without the hook.  Closer, it is the Newton
    step for ``g(x) = f(x) - x``, with the Jacobian of ``f`` by forward
    differences (step ``rel_step * max(floor, |x_j|)``; every row's ``d``
    perturbed points go to ``f`` in one call of ``d`` times the rows), unless
    that step is not finite, or the linear system singular, or it moves some
    component by more than ``max_jump`` (relative): then the damped step
    again.  So Newton starts only where the damped iteration has already
    brought the row close to its fixed point, and cannot jump to another
    fixed point farther away (models with several fixed points, e.g. the
    approximate MVA of :mod:`models.min_mva`, whose damped iteration picks
    one).  Convergence stays :func:`fixed_points`' test on the damped step.

    ``f(x, rows)`` is :func:`fixed_points`' map (rows of ``x`` independent;
    ``rows`` may repeat).  Each Newton step costs ``d + 1`` evaluations per
    row (``d`` unknowns per row), each damped step one.
    """
    _check_options(damping, "new", floor)
    for name, v in (("near", near), ("max_jump", max_jump), ("rel_step", rel_step)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ParameterError(f"`{name}` must be a finite number > 0; got {v!r}")

    def update(x: np.ndarray, fx: np.ndarray, rows: np.ndarray) -> np.ndarray:
        a = x.shape[0]
        xf, ff = x.reshape(a, -1), fx.reshape(a, -1)
        d = xf.shape[1]
        nxt = (1.0 - damping) * xf + damping * ff
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            near_rows = np.flatnonzero((np.abs(nxt - xf) / np.maximum(floor, np.abs(nxt))).max(axis=1) <= near)
        if near_rows.size == 0 or d == 0:
            return nxt.reshape(x.shape)
        xa, fa = xf[near_rows], ff[near_rows]
        b = xa.shape[0]
        h = rel_step * np.maximum(floor, np.abs(xa))
        eye = np.eye(d)
        xp = (xa[:, None, :] + h[:, :, None] * eye).reshape((b * d,) + x.shape[1:])
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            fp = np.asarray(f(xp, np.repeat(rows[near_rows], d)), dtype=float).reshape(b, d, d)
            jac = ((fp - fa[:, None, :]) / h[:, :, None]).transpose(0, 2, 1) - eye  # d(f - x)_i / dx_j
            ok = np.isfinite(jac).all(axis=(1, 2))
            dx = np.full_like(xa, np.nan)
            if ok.any():
                try:
                    dx[ok] = np.linalg.solve(jac[ok], (xa - fa)[ok][..., None])[..., 0]
                except np.linalg.LinAlgError:  # a singular row: solve them one by one
                    for r in np.flatnonzero(ok):
                        try:
                            dx[r] = np.linalg.solve(jac[r], xa[r] - fa[r])
                        except np.linalg.LinAlgError:
                            pass
            small = np.isfinite(dx).all(axis=1) & ((np.abs(dx) / np.maximum(floor, np.abs(xa))).max(axis=1) <= max_jump)
        nxt[near_rows[small]] = xa[small] + dx[small]
        return nxt.reshape(x.shape)

    return update


def anderson_update(
    *,
    damping: float = 0.5,
    memory: int = 5,
    near: float = 1e-2,
    max_jump: float = 0.1,
    floor: float = 1.0,
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """An ``update`` hook for :func:`fixed_point`: damped steps far from the fixed point, Anderson steps near it.

    Anderson acceleration (type II, Walker & Ni 2011) of the damped map
    ``T(x) = x + damping (f(x) - x)``: with the last ``memory`` differences of
    iterates ``dX`` and of damped steps ``dG``, the next iterate is
    ``T(x) - (dX + dG) gamma``, ``gamma`` the least-squares fit of the current
    step ``g`` by ``dG``.  It needs no Jacobian, so it suits maps with
    thousands of unknowns (one evaluation per step, as the damped iteration).
    As :func:`newton_update`: used only once the damped step is below ``near``
    (relative to ``max(floor, |.|)``; the history restarts whenever it is
    not), and a step that is not finite or moves some component by more than
    ``max_jump`` (relative) is replaced by the damped step (history
    restarted), so it stays at the damped iteration's fixed point; the
    convergence test stays :func:`fixed_point`'s on the damped step.  The
    hook keeps its history: one hook per :func:`fixed_point` call.
    """
    _check_options(damping, "new", floor)
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or not 1 <= memory <= 50:
        raise ParameterError(f"`memory` must be an integer in [1, 50]; got {memory!r}")
    for name, v in (("near", near), ("max_jump", max_jump)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ParameterError(f"`{name}` must be a finite number > 0; got {v!r}")
    # ring buffers of the last ``memory`` differences (rows 0..count-1 valid) and their Gram matrix
    state: dict = {"x": None, "g": None, "DX": None, "DG": None, "A": np.zeros((memory, memory)), "count": 0, "pos": 0}

    def restart():
        state.update(x=None, g=None, count=0, pos=0)

    def update(x: np.ndarray, fx: np.ndarray) -> np.ndarray:
        xf, g = x.ravel(), (fx - x).ravel()
        g *= damping
        nxt = xf + g
        if not (np.abs(g) / np.maximum(floor, np.abs(nxt))).max(initial=0.0) <= near:
            restart()
            return nxt.reshape(x.shape)
        if state["DX"] is None or state["DX"].shape[1] != xf.size:
            state["DX"], state["DG"] = np.empty((memory, xf.size)), np.empty((memory, xf.size))
        if state["x"] is not None:
            p = state["pos"]
            np.subtract(xf, state["x"], out=state["DX"][p])
            np.subtract(g, state["g"], out=state["DG"][p])
            state["pos"], state["count"] = (p + 1) % memory, min(state["count"] + 1, memory)
            c = state["count"]
            row = state["DG"][:c] @ state["DG"][p]  # the Gram matrix changes in row and column p only
            state["A"][p, :c] = row
            state["A"][:c, p] = row
        state["x"], state["g"] = xf.copy(), g
        c = state["count"]
        if c == 0:
            return nxt.reshape(x.shape)
        dX, dG, A = state["DX"][:c], state["DG"][:c], state["A"][:c, :c]
        try:
            gamma = np.linalg.solve(A + 1e-14 * np.trace(A) * np.eye(c), dG @ g)
        except np.linalg.LinAlgError:
            restart()
            return nxt.reshape(x.shape)
        new = nxt - gamma @ dX - gamma @ dG
        if not (np.isfinite(new).all() and (np.abs(new - xf) / np.maximum(floor, np.abs(xf))).max() <= max_jump):
            restart()
            return nxt.reshape(x.shape)
        return new.reshape(x.shape)

    return update


def monotone_fixed_point_exists(
    f: Callable[[np.ndarray], np.ndarray],
    x0,
    *,
    tol: float = 1e-12,
    max_iter: int = 10_000,
    saturated: Callable[[np.ndarray], object] | None = None,
    relative_to: str = "new",
    floor: float = 1.0,
    every: int = 2,
) -> tuple[str, np.ndarray, int]:
    """Whether the plain iteration ``x -> f(x)`` from ``x0`` reaches a fixed point, decided early when possible.

    For a map that is **non-decreasing** (componentwise) on the region where
    it is defined, with ``f(x0) >= x0`` (e.g. every model's zero-load start),
    the plain iteration rises monotonically to the least fixed point above
    ``x0`` if one exists.  A point ``u >= x0`` with ``f(u) <= u`` proves that
    one does (Knaster-Tarski on the box ``[x0, u]``, on which ``f`` is then
    defined by monotonicity) and that it lies below ``u``.  This function runs
    :func:`fixed_point`'s plain iteration (``damping = 1``, the same
    ``tol``, ``relative_to``, ``floor``, ``saturated`` and :class:`Saturated`
    handling) and, every ``every`` iterations, tries such a certificate at
    the geometric-tail extrapolation of the last three iterates
    (``x + d r / (1 - r)`` per component, ``r`` the ratio of the last two
    changes, and twice that tail).  Near a saturation fold the plain
    iteration crawls (hundreds of iterations); the certificate usually takes
    a few.

    Returns
    -------
    (outcome, x, evaluations)
        ``"certified"``: ``f(x) <= x`` at the returned ``x`` (an upper bound of
        the least fixed point); ``"converged"``: the plain iteration met
        ``tol`` (``x`` its last iterate, as :func:`fixed_point` returns it);
        ``"saturated"``: the plain iteration saturated (exactly where
        :func:`fixed_point` would); ``"undecided"``: ``max_iter`` iterations
        without either (``fixed_point`` would not have converged).
        ``evaluations`` counts the calls of ``f``.
    """
    _check_options(1.0, relative_to, floor)
    x = np.array(x0, dtype=float, copy=True)
    if x.shape == (1,):
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            return _monotone_1(f, float(x[0]), tol=tol, max_iter=max_iter, saturated=saturated,
                               relative_to=relative_to, floor=floor, every=every)
    evals = 0
    prev = prev2 = None
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for it in range(1, max_iter + 1):
            try:
                new = np.asarray(f(x), dtype=float)
            except Saturated:
                return "saturated", x, evals + 1
            evals += 1
            if saturated is not None and saturated(new):
                return "saturated", new, evals
            if not np.isfinite(new).all():
                return "saturated", x, evals
            step = np.abs(new - x)
            scale = np.maximum(floor, np.abs(new if relative_to == "new" else x))
            if float((step / scale).max()) <= tol:
                return "converged", new, evals
            prev2, prev, x = prev, x, new
            if prev2 is None or it % every:
                continue
            d1, d2 = prev - prev2, x - prev
            with np.errstate(all="ignore"):
                r = np.where(d1 > 0, d2 / np.where(d1 > 0, d1, 1.0), 0.0)
            if not ((d2 >= 0).all() and (r < 1.0).all()):
                continue  # not (yet) a monotone, contracting tail
            tail = d2 * r / (1.0 - r)
            for mult in (1.0, 2.0):
                u = x + mult * tail + 1e-15 * np.abs(x)
                try:
                    fu = np.asarray(f(u), dtype=float)
                except Saturated:
                    evals += 1
                    break
                evals += 1
                if np.isfinite(fu).all() and not (saturated is not None and saturated(fu)) and (fu <= u).all():
                    return "certified", u, evals
    return "undecided", x, evals


def _monotone_1(f, x: float, *, tol, max_iter, saturated, relative_to, floor, every) -> tuple[str, np.ndarray, int]:
    """:func:`monotone_fixed_point_exists` for one unknown, on Python floats: the same steps, tests and
    certificates in the same order with the same numbers (IEEE arithmetic, as numpy's on a 1-element
    array), without the cost of numpy calls on 1-element arrays; ``f`` and ``saturated`` still see
    1-element arrays."""
    isfinite = math.isfinite
    evals = 0
    prev = prev2 = None
    for it in range(1, max_iter + 1):
        try:
            out = np.asarray(f(np.array([x])), dtype=float)
        except Saturated:
            return "saturated", np.array([x]), evals + 1
        evals += 1
        if out.size != 1:
            raise ValueError(f"f changed the shape from (1,) to {out.shape}")
        new = float(out.reshape(-1)[0])
        if saturated is not None and saturated(out.reshape(1)):
            return "saturated", out.reshape(1), evals
        if not isfinite(new):
            return "saturated", np.array([x]), evals
        step = abs(new - x)
        scale = max(floor, abs(new if relative_to == "new" else x))
        diff = step / scale if scale != 0 else (math.inf if step > 0 else math.nan)
        if diff <= tol:
            return "converged", out.reshape(1), evals
        prev2, prev, x = prev, x, new
        if prev2 is None or it % every:
            continue
        d1, d2 = prev - prev2, x - prev
        r = d2 / d1 if d1 > 0 else 0.0
        if not (d2 >= 0 and r < 1.0):
            continue  # not (yet) a monotone, contracting tail
        tail = d2 * r / (1.0 - r)
        for mult in (1.0, 2.0):
            u = x + mult * tail + 1e-15 * abs(x)
            try:
                fu = np.asarray(f(np.array([u])), dtype=float)
            except Saturated:
                evals += 1
                break
            evals += 1
            v = float(fu.reshape(-1)[0])
            if isfinite(v) and not (saturated is not None and saturated(fu.reshape(1))) and v <= u:
                return "certified", np.array([u]), evals
    return "undecided", np.array([x]), evals
