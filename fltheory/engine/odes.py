"""The one ODE integrator of the package: adaptive Dormand–Prince 8(5,3), its steps landing on
the output grid, written as loops on numpy arrays so that the same source runs as plain Python
and, compiled by numba (:func:`compiled_loop`), as machine code.

Both ODE families use it: the soft committee machine's flat overlap equations
(:mod:`fltheory.papers.committee.ode`) and the quadratic network's reduced equations
(:mod:`fltheory.papers.quadratic.ode`). Each paper compiles :func:`dop853_loop` around its own
compiled right side by rebinding the hook :func:`_eval`; nothing here names a paper, and this
module imports only numpy (numba and scipy's coefficient file are loaded on first use).

The method is Hairer, Nørsett & Wanner's DOP853 (Solving ODEs I, II.10), with scipy's
coefficient table (:func:`tableau`): 12 stages, an error estimate mixing the 5th- and 3rd-order
embedded pairs, steps chosen by the error control and shortened to land on every grid point.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

import numpy as np

__all__ = ["STAGES", "compiled", "compiled_loop", "dop853_loop", "grid_spacing", "tableau"]

#: right-side evaluations per step of :func:`dop853_loop` (12 stages, the last one at the new
#: point reused as the next step's first): what a step costs, in every budget and cost bound
STAGES = 12
#: the helpers :func:`dop853_loop` calls: compiled with it, so the compiled loop calls no Python
_HELPERS = ("_initial_step", "_combine", "_error", "_fill", "_inside", "_next_step")


def _eval(f: Any, y: np.ndarray) -> np.ndarray:
    """The right side at y: f(y). A compiled integrator rebinds this name (to a call of a
    compiled f, or of a model's compiled loops(y, *args) with ``f`` the argument tuple)."""
    return f(y)


@lru_cache(maxsize=1)
def tableau() -> tuple[np.ndarray, ...]:
    """The DOP853 coefficients (A, B, E3, E5) from scipy's table, its file loaded alone:
    importing scipy.integrate takes ~1 s, longer than a whole small integration. A (16 × 16):
    rows 1–11 are the stages (rows 12–15 serve the dense output, unused here); B (12) the
    8th-order weights; E3, E5 (13) the 3rd- and 5th-order error weights, the 13th for f at the
    new point.

    >>> [a.shape for a in tableau()]
    [(16, 16), (12,), (13,), (13,)]
    """
    import importlib.util
    import os

    c: Any = None
    spec = importlib.util.find_spec("scipy")
    if spec is not None and spec.origin is not None:
        path = os.path.join(os.path.dirname(spec.origin), "integrate", "_ivp",
                            "dop853_coefficients.py")
        file_spec = importlib.util.spec_from_file_location("_fltheory_dop853_table", path)
        if os.path.exists(path) and file_spec is not None and file_spec.loader is not None:
            c = importlib.util.module_from_spec(file_spec)
            file_spec.loader.exec_module(c)
    if c is None:
        from scipy.integrate._ivp import dop853_coefficients

        c = dop853_coefficients
    return (np.ascontiguousarray(c.A), np.ascontiguousarray(c.B), np.ascontiguousarray(c.E3),
            np.ascontiguousarray(c.E5))


def _initial_step(y: np.ndarray, f0: np.ndarray, rtol: float, atol: float) -> float:
    """The first trial step (Hairer, Nørsett & Wanner, II.4): 0.01 ‖y‖/‖f‖ in the scaled norm,
    or 1e-6 when either is tiny."""
    n = y.shape[0]
    d0 = 0.0
    d1 = 0.0
    for i in range(n):
        sc = atol + rtol * abs(y[i])
        d0 += (y[i] / sc) ** 2
        d1 += (f0[i] / sc) ** 2
    d0 = np.sqrt(d0 / n)
    d1 = np.sqrt(d1 / n)
    return 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1


def _combine(w: np.ndarray, m: int, Ks: np.ndarray, y: np.ndarray, hs: float,
             out: np.ndarray) -> None:
    """out = y + hs Σ_{r<m} w[r] K_r: the state at which a stage is evaluated (w a row of A),
    or the new state (w = B)."""
    for i in range(y.shape[0]):
        acc = 0.0
        for r in range(m):
            acc += w[r] * Ks[r, i]
        out[i] = y[i] + hs * acc


def _error(E3: np.ndarray, E5: np.ndarray, Ks: np.ndarray, y: np.ndarray, yn: np.ndarray,
           hs: float, rtol: float, atol: float) -> float:
    """Hairer's error norm of a trial step: h‖e5‖² / √((‖e5‖² + 0.01‖e3‖²)·n), e_j = Σ_s E_j[s]
    K_s scaled by atol + rtol·max(|y|, |y_new|); 1e10 when it is not finite (a stage
    overflowed: the step is rejected and shortened)."""
    n = y.shape[0]
    e5 = 0.0
    e3 = 0.0
    for i in range(n):
        a5 = 0.0
        a3 = 0.0
        for s in range(E5.shape[0]):
            a5 += E5[s] * Ks[s, i]
            a3 += E3[s] * Ks[s, i]
        sc = atol + rtol * max(abs(y[i]), abs(yn[i]))
        e5 += (a5 / sc) ** 2
        e3 += (a3 / sc) ** 2
    err = 0.0 if e5 == 0.0 and e3 == 0.0 else hs * e5 / np.sqrt((e5 + 0.01 * e3) * n)
    return err if np.isfinite(err) else 1e10


def _fill(out: np.ndarray, y: np.ndarray, t_grid: np.ndarray, j: int, t: float) -> int:
    """Copy y into the rows j, j + 1, … of ``out`` whose grid time is <= t; the next row to
    fill."""
    while j < t_grid.shape[0] and t_grid[j] <= t:
        out[j] = y
        j += 1
    return j


def _inside(y: np.ndarray, y_max: float) -> bool:
    """max|y| <= y_max (False for a NaN)."""
    for i in range(y.shape[0]):  # noqa: SIM110 (numba compiles a loop, not a generator)
        if not abs(y[i]) <= y_max:
            return False
    return True


def _next_step(err: float, hs: float, last: bool, h: float) -> float:
    """The step after an accepted one of size hs with error norm err: hs·min(10, max(0.2,
    0.9 err^(−1/8))), except that a step shortened to land on a grid point (``last``) keeps
    the step h proposed before the shortening unless the error asks for a smaller one."""
    fac = 10.0 if err == 0.0 else min(10.0, max(0.2, 0.9 * err ** -0.125))
    return hs * fac if not last or fac < 1.0 else h


def dop853_loop(f: Any, y0: np.ndarray, t_grid: np.ndarray, rtol: float, atol: float,
                max_steps: int, y_max: float, A: np.ndarray, B: np.ndarray, E3: np.ndarray,
                E5: np.ndarray) -> tuple[np.ndarray, int, int, float]:
    """Adaptive Dormand–Prince 8(5,3) on the autonomous system y' = f(y) (``f`` is passed to
    the hook :func:`_eval`), returning the states on ``t_grid`` (non-decreasing).

    Every grid point is a step's end: a step that would pass the next grid point is shortened
    to land on it (and the step size proposed before the shortening is kept), so each state
    on the grid carries the error control of a step. The pair's 7th-order dense output is not
    used: its error is not controlled, and at rtol 1e-9–1e-10 it measured 1e-8–4e-7 on the
    committee and quadratic ODEs where the landed steps are within 1e-11.

    Returns (states on the grid, right-side evaluations, status: 0 ok, 1 more than
    ``max_steps`` steps, 2 step size underflow, 3 left the box max|y| <= ``y_max``, the time
    reached); rows not reached stay NaN. Step sizes: :func:`_next_step`. A, B, E3, E5:
    :func:`tableau`.

    >>> Y, nfev, status, t = dop853_loop(lambda y: -y, np.ones(1), np.linspace(0.0, 1.0, 5),
    ...                                  1e-10, 1e-12, 1000, 1e8, *tableau())
    >>> status, bool(np.abs(Y[:, 0] - np.exp(-np.linspace(0.0, 1.0, 5))).max() < 1e-10)
    (0, True)
    """
    n = y0.shape[0]
    ns = STAGES
    n_grid = t_grid.shape[0]
    out = np.full((n_grid, n), np.nan)
    y = y0.copy()
    ys, yn = np.empty(n), np.empty(n)  # a stage's state, the new state
    Ks = np.empty((ns + 1, n))
    Ks[0] = _eval(f, y)
    nfev, steps = 1, 0  # right-side evaluations, steps tried
    t = t_grid[0]
    j = _fill(out, y, t_grid, 0, t)  # the next grid point to fill
    h = _initial_step(y, Ks[0], rtol, atol)
    while j < n_grid:
        if steps >= max_steps:
            return out, nfev, 1, t
        hs = min(h, t_grid[j] - t)
        last = hs >= t_grid[j] - t
        for s in range(1, ns):
            _combine(A[s], s, Ks, y, hs, ys)
            Ks[s] = _eval(f, ys)
        _combine(B, ns, Ks, y, hs, yn)
        Ks[ns] = _eval(f, yn)
        nfev += ns
        steps += 1
        err = _error(E3, E5, Ks, y, yn, hs, rtol, atol)
        if err <= 1.0:
            t = t_grid[j] if last else t + hs
            if not _inside(yn, y_max):
                return out, nfev, 3, t
            y[:] = yn
            j = _fill(out, y, t_grid, j, t)
            Ks[0] = Ks[ns]
            h = _next_step(err, hs, last, h)
        else:
            h = hs * max(0.2, 0.9 * err ** -0.125)
            if h < 1e-14 * max(1.0, abs(t)):
                return out, nfev, 2, t
    return out, nfev, 0, t


def grid_spacing(t: np.ndarray) -> float:
    """The smallest positive spacing of the grid ``t`` (inf for a single time): the longest
    step a dense-output integrator (scipy's ``solve_ivp`` with ``t_eval``) may take so that a
    grid point's state is interpolated within one grid interval. DOP853's dense output on
    longer steps is not error-controlled: on the committee ODE at rtol 1e-10 it measured
    3e-8–9e-8 on ε_g against the 8e-9 stated, 1e-11 with this bound.

    >>> grid_spacing(np.array([0.0, 0.5, 0.5, 2.0]))
    0.5
    """
    gaps = np.diff(t)
    gaps = gaps[gaps > 0]
    return float(gaps.min()) if len(gaps) else float("inf")


def compiled(func: Callable[..., Any], name: str, cache: bool, **bindings: Any) -> Any:
    """``func``'s code compiled by numba under the qualified name ``name``, its global names
    rebound by ``bindings`` (compiled callees, so the compiled code calls no Python). numba's
    on-disk cache (``cache=True``) is one index per (file, qualified name) and checks only the
    file defining ``func``: a name carrying a hash of the callees' source keeps an edited right
    side from running a stale cache. Raises ImportError without numba.

    >>> def scale(y):
    ...     return factor * y
    >>> compiled(scale, "scale_by_three", False, factor=3.0)(np.ones(2)).tolist()
    [3.0, 3.0]
    """
    import numba

    namespace = dict(func.__globals__) | bindings
    fn = types.FunctionType(func.__code__, namespace, name, func.__defaults__)
    fn.__qualname__ = name
    return numba.njit(cache=cache)(fn)


@cache
def _compiled_helpers() -> dict[str, Any]:
    import numba

    return {h: numba.njit(cache=True)(globals()[h]) for h in _HELPERS}


def compiled_loop(evaluate: Any, name: str, cache: bool) -> Any:
    """:func:`dop853_loop` compiled with its hook ``_eval`` bound to ``evaluate``, a numba
    function (f, y) -> f'(y) where f is whatever the caller passes as the loop's first argument
    (a tuple of a model's arguments, say); ``evaluate=None``: f is itself a compiled function,
    called as f(y). Raises ImportError without numba.

    >>> decay = compiled(lambda y: -y, "decay", False)
    >>> loop = compiled_loop(None, "dop853_example", False)
    >>> Y, nfev, status, t = loop(decay, np.ones(1), np.array([0.0, 1.0]), 1e-10, 1e-12, 1000,
    ...                           1e8, *tableau())
    >>> status, bool(abs(Y[1, 0] - np.exp(-1.0)) < 1e-10)
    (0, True)
    """
    if evaluate is None:
        evaluate = compiled(_eval, "eval_call", False)
    return compiled(dop853_loop, name, cache, _eval=evaluate, **_compiled_helpers())
