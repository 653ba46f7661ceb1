"""The Dormand–Prince 8(5,3) loop of the committee ODE (private): plain Python on numpy arrays,
importing nothing of the package, so that :mod:`fltheory.papers.committee._ode_jit` compiles
this very code with numba (its right-side hook :func:`_eval` rebound to a compiled call) and
:mod:`fltheory.papers.committee.ode` runs it as Python when numba is absent."""

from __future__ import annotations

from typing import Any

import numpy as np


def _eval(f: Any, y: np.ndarray) -> np.ndarray:
    """The right side at y: f(y). The compiled integrators rebind this name (to a call of a
    compiled f, or of the model's loops(y, *args) with ``f`` the argument tuple)."""
    return f(y)


def dop853_loop(f: Any, y0: np.ndarray, t_grid: np.ndarray, rtol: float, atol: float,
                max_steps: int, y_max: float, A: np.ndarray, B: np.ndarray, C: np.ndarray,
                E3: np.ndarray, E5: np.ndarray, D: np.ndarray
                ) -> tuple[np.ndarray, int, int, float]:
    """Adaptive Dormand–Prince 8(5,3) on the autonomous system y' = f(y), written as loops for
    numba (it also runs as plain Python, slowly). Steps follow the error control alone (only
    the last is shortened to end on ``t_grid[-1]``); the states on the grid points inside a
    step come from the pair's 7th-order dense output (three more stages, computed only for
    steps that contain grid points; Hairer, Nørsett & Wanner, II.6, as scipy's DOP853).
    Returns (states on the grid, right-side evaluations, status: 0 ok, 1 more than
    ``max_steps`` steps, 2 step size underflow, 3 left the box max|y| <= ``y_max``, the time
    reached); rows not reached stay NaN. A trial step whose stages are not finite is rejected
    and shortened.
    A (16 × 16), B, C (16), E3, E5 (13), D (4 × 16): the tableau (12 stages; E3, E5 with a
    13th entry for f at the new point; rows 13–15 of A and C and D for the dense output).

    The error norm is Hairer's: err = h‖e5‖² / √((‖e5‖² + 0.01‖e3‖²)·n), e_j = Σ_s E_j[s] K_s
    scaled by atol + rtol·max(|y|, |y_new|); new step h·min(10, max(0.2, 0.9 err^(−1/8))).

    >>> from scipy.integrate._ivp import dop853_coefficients as c
    >>> Y, nfev, status, t = dop853_loop(lambda y: -y, np.ones(1), np.linspace(0.0, 1.0, 5),
    ...                               1e-10, 1e-12, 1000, 1e8, c.A, c.B, c.C, c.E3, c.E5, c.D)
    >>> status, bool(np.abs(Y[:, 0] - np.exp(-np.linspace(0.0, 1.0, 5))).max() < 1e-10)
    (0, True)
    """
    n = y0.shape[0]
    ns = 12
    n_grid = t_grid.shape[0]
    out = np.full((n_grid, n), np.nan)
    out[0] = y0
    y = y0.copy()
    ys = np.empty(n)
    yn = np.empty(n)
    Ks = np.empty((ns + 4, n))
    F = np.empty((7, n))
    Ks[0] = _eval(f, y)
    nfev = 1
    t = t_grid[0]
    t_end = t_grid[n_grid - 1]
    j = 1  # the next grid point to fill
    while j < n_grid and t_grid[j] <= t:
        out[j] = y
        j += 1
    # initial step (Hairer, Nørsett & Wanner, II.4), order 8
    d0 = 0.0
    d1 = 0.0
    for i in range(n):
        sc = atol + rtol * abs(y[i])
        d0 += (y[i] / sc) ** 2
        d1 += (Ks[0, i] / sc) ** 2
    d0 = np.sqrt(d0 / n)
    d1 = np.sqrt(d1 / n)
    h = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    steps = 0
    while t < t_end:
        if steps >= max_steps:
            return out, nfev, 1, t
        hs = min(h, t_end - t)
        last = hs >= t_end - t
        for s in range(1, ns):
            for i in range(n):
                acc = 0.0
                for r in range(s):
                    acc += A[s, r] * Ks[r, i]
                ys[i] = y[i] + hs * acc
            Ks[s] = _eval(f, ys)
        for i in range(n):
            acc = 0.0
            for s in range(ns):
                acc += B[s] * Ks[s, i]
            yn[i] = y[i] + hs * acc
        Ks[ns] = _eval(f, yn)
        nfev += ns
        e5 = 0.0
        e3 = 0.0
        for i in range(n):
            a5 = 0.0
            a3 = 0.0
            for s in range(ns + 1):
                a5 += E5[s] * Ks[s, i]
                a3 += E3[s] * Ks[s, i]
            sc = atol + rtol * max(abs(y[i]), abs(yn[i]))
            e5 += (a5 / sc) ** 2
            e3 += (a3 / sc) ** 2
        steps += 1
        err = 0.0 if e5 == 0.0 and e3 == 0.0 else hs * e5 / np.sqrt((e5 + 0.01 * e3) * n)
        if not np.isfinite(err):
            err = 1e10
        if err <= 1.0:
            t_new = t_end if last else t + hs
            for i in range(n):
                if not abs(yn[i]) <= y_max:
                    return out, nfev, 3, t_new
            if j < n_grid and t_grid[j] < t_new:
                # dense output on (t, t_new): three more stages, then the interpolant's
                # coefficients F (scipy's Dop853DenseOutput, Horner form in x = (τ − t)/h)
                for s in range(ns + 1, ns + 4):
                    for i in range(n):
                        acc = 0.0
                        for r in range(s):
                            acc += A[s, r] * Ks[r, i]
                        ys[i] = y[i] + hs * acc
                    Ks[s] = _eval(f, ys)
                nfev += 3
                for i in range(n):
                    dy = yn[i] - y[i]
                    F[0, i] = dy
                    F[1, i] = hs * Ks[0, i] - dy
                    F[2, i] = 2.0 * dy - hs * (Ks[ns, i] + Ks[0, i])
                    for p in range(4):
                        acc = 0.0
                        for s in range(ns + 4):
                            acc += D[p, s] * Ks[s, i]
                        F[3 + p, i] = hs * acc
                while j < n_grid and t_grid[j] < t_new:
                    x = (t_grid[j] - t) / hs
                    for i in range(n):
                        v = 0.0
                        for p in range(6, -1, -1):
                            v += F[p, i]
                            v *= x if (6 - p) % 2 == 0 else 1.0 - x
                        out[j, i] = y[i] + v
                    j += 1
            t = t_new
            y[:] = yn
            while j < n_grid and t_grid[j] <= t:
                out[j] = y
                j += 1
            Ks[0] = Ks[ns]
            fac = 10.0 if err == 0.0 else min(10.0, max(0.2, 0.9 * err ** -0.125))
            if not last or fac < 1.0:
                h = hs * fac
        else:
            h = hs * max(0.2, 0.9 * err ** -0.125)
            if h < 1e-14 * max(1.0, abs(t)):
                return out, nfev, 2, t
    return out, nfev, 0, t
