r"""Integration of the quadratic-network ODEs (Bocchi et al. 2026) and the escape criterion.

:func:`integrate` solves the matrix-form ODEs (:func:`~fltheory.papers.quadratic.theory.rhs_matrix`)
after the exact reduction of :mod:`fltheory.papers.quadratic.rhs`, with its cost bounded
before any work (:func:`check_ode_request`, :func:`ode_cost`). :func:`crossing_time` is THE
escape rule: the first time ‖ρ‖_F reaches a level (1/2 by default), log-interpolated between
grid points; tables, CLI and claims all read the ODE's escape through it, and the simulator
reads its runs by the same rule (:mod:`fltheory.simkit.observables`, shared as a definition,
not a formula; :func:`fltheory.papers.quadratic.sim.escape_time`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

import fltheory.simkit.observables as observables
from fltheory.args import read_count, read_real
from fltheory.engine.odes import STAGES, grid_spacing, tableau
from fltheory.exact import DomainError, check_cost
from fltheory.papers.quadratic._common import MEMORY_LIMIT_BYTES, ODE_SECONDS_LIMIT, ODEDivergence
from fltheory.papers.quadratic.params import Coefficients, Integration, Overlaps

__all__ = ["ESCAPE_LEVEL", "ODESolution", "check_ode_request", "crossing_time", "integrate",
           "ode_cost", "solve"]

#: ‖ρ‖_F at which a run counts as escaped from the plateau (the solution's is √(p/p*)·√p* ~ 1)
ESCAPE_LEVEL = 0.5

def check_ode_request(p: int, p_star: int, eta: float, t_span: float, n_grid: int,
                      k: int | None = None, count: int = 1) -> None:
    """Refuse (CostError, before any work) an ODE integration whose estimated time or memory
    (:func:`ode_cost`, times ``count`` integrations) is beyond ODE_SECONDS_LIMIT /
    MEMORY_LIMIT_BYTES. ``k``: the reduced size (default min(p, p*), a generic ρ(0) with
    Q(0) = q0 I; p for an unstructured Q(0)). Integers p, p*, n_grid, count >= 1; η, t_span
    finite reals >= 0.

    >>> check_ode_request(4, 2, 0.1, 200.0, 401)  # accepted: returns None
    >>> check_ode_request(4, 10**4, 0.1, 200.0, 401)
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(n_grid, "n_grid", 1)
    read_count(count, "count", 1)
    eta, t_span = read_real(eta, "eta", low=0.0), read_real(t_span, "t_span", low=0.0)
    k = min(p, p_star) if k is None else k
    read_count(k, "k", 0, p)
    _check_cost(k, p, p_star, eta, t_span, n_grid, count)


def _check_cost(k: int, p: int, p_star: int, eta: float, t_span: float, n_grid: int,
                count: int = 1) -> None:
    """:func:`check_ode_request` on arguments already read (each is read once per call path,
    by the public function the user called)."""
    seconds, memory = _cost(k, p, p_star, eta, t_span, n_grid)
    what = f"p = {p}, p* = {p_star}, t-max = {t_span:.3g} (ODE of reduced size {k})"
    check_cost(what, count * memory, MEMORY_LIMIT_BYTES, "bytes of memory",
               "fewer students p or a smaller teacher p*")
    check_cost(what, count * seconds, count * ODE_SECONDS_LIMIT, "seconds (estimated)",
               "a shorter t-max, a smaller teacher p* or fewer students p")


def ode_cost(k: int, p: int, p_star: int, eta: float, t_span: float, n_grid: int
             ) -> tuple[float, float]:
    """(seconds, bytes) to integrate the reduced ODE (k directions, p students, p* teachers)
    over ``t_span`` with output on ``n_grid`` points (compiled Dormand–Prince).

    Fitted on this machine (2 cores, single-threaded BLAS; measured 2026-12): right-side
    evaluations nfev ≈ 3000 + 15·η·t (p = 4, p* = 2, η = 1/10: 1129, 5317, 32734, 302998 at
    t = 200, 2e3, 2e4, 2e5 with the DOP853 loop; η = 1/5: 2134, 8803, 62854, 603394), at
    least 12 per grid point (every point is a step's end); one evaluation ≈ 4e-6 + 3e-8·n² +
    1e-9·k·n² s with n = k + p* (measured 3.7e-6 s at (k, p*) = (2, 2), 1.5e-3 at (4, 300),
    1.1e-2 at (4, 600), 3.3e-3 at (100, 100); the fit is above each). Memory: the outputs Q and
    ρ on the grid, (p² + p p*) doubles per point, and about three temporaries of that size.
    Returns two floats.

    >>> seconds, memory = ode_cost(2, 4, 2, 0.1, 200.0, 401)
    >>> round(seconds, 3), int(memory)
    (0.023, 423456)

    Integers p, p* >= 1, n_grid >= 1 and k in [0, p] (k = 0 is a start with ρ(0) = 0
    exactly: only q evolves); η, t_span finite reals >= 0. Else DomainError.
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(k, "k", 0, p)
    read_count(n_grid, "n_grid", 1)
    eta, t_span = read_real(eta, "eta", low=0.0), read_real(t_span, "t_span", low=0.0)
    return _cost(k, p, p_star, eta, t_span, n_grid)


def _cost(k: int, p: int, p_star: int, eta: float, t_span: float, n_grid: int
          ) -> tuple[float, float]:
    """:func:`ode_cost` on arguments already read."""
    nfev = max(3000 + 15 * max(eta, 0.1) * t_span, float(STAGES) * n_grid)
    seconds = nfev * _seconds_per_evaluation(k, p_star) + 2e-7 * n_grid * p * p
    memory = 4.0 * 8 * n_grid * (p * p + p * p_star + 1 + k * k + k * p_star)
    return seconds, memory


def _seconds_per_evaluation(k: int, p_star: int) -> float:
    """Seconds of one compiled right-side evaluation of the reduced state (the fit in
    :func:`ode_cost`), n = k + p*."""
    n = k + p_star
    return 4e-6 + 3e-8 * n * n + 1e-9 * k * n * n


@dataclass(frozen=True)
class ODESolution:
    """The ODE trajectory from :func:`integrate`: times ``t``, overlaps ``Q`` (len(t), p, p)
    and ``R`` = ρ (len(t), p, p*), population ``loss`` on the grid (numpy floats)."""

    t: np.ndarray
    Q: np.ndarray  # (len(t), p, p)
    R: np.ndarray  # (len(t), p, p*)
    loss: np.ndarray

    @property
    def overlap_norm(self) -> np.ndarray:
        """‖ρ(t)‖_F on the grid."""
        out: np.ndarray = np.linalg.norm(self.R, axis=(1, 2))
        return out

    def escape_time(self, level: float = ESCAPE_LEVEL) -> float:
        """The escape time of this trajectory by :func:`crossing_time` (NaN if never)."""
        return crossing_time(self.t, self.overlap_norm, level)


def integrate(Q0: np.ndarray, R0: np.ndarray, T: np.ndarray, eta: Fraction | float | str,
              t_grid: Any, sigma: float | Fraction | str = 0.0, a: float | None = None,
              b: float | None = None, eta_w: float | None = None, method: str = "auto",
              rtol: float = 1e-9, atol: float = 1e-12, reduce: bool = True) -> ODESolution:
    """Integrate the matrix-form ODEs and return Q, ρ and the loss on ``t_grid``.

    Defaults: a = 1/p, b = 1/p*, η_w = p η (mean field). The state is first reduced exactly
    (:mod:`fltheory.papers.quadratic.rhs`: Q = q I + V S Vᵀ, ρ = V K; from Q(0) = q0 I the size
    no longer depends on p). ``method``: ``dopri`` — the package's integrator
    (:func:`fltheory.engine.odes.dop853_loop`, Dormand–Prince 8(5,3)) compiled with numba (extra
    ``fast``); ``lsoda`` — scipy's solve_ivp; ``auto`` — dopri when numba is installed.
    Both integrate to the tolerances ``rtol``/``atol``. ``reduce=False`` integrates the full
    p² + p p* system (for checking the reduction).

    Parameters, read once here (:mod:`fltheory.papers.quadratic.params`: :class:`Overlaps`,
    :class:`Coefficients`, :class:`Integration`) and handed to :func:`solve`: Q0 (p × p), R0
    (p × p*), T (p* × p*) finite with entries <= 1e6; η > 0 (float or Fraction; the numeric code
    needs a float); a, η_w > 0, b, σ >= 0; ``t_grid`` non-decreasing. Returns an
    :class:`ODESolution` (floats, to the tolerances). Raises :class:`ODEDivergence` on a
    finite-time blow-up and CostError when the estimated work is too large.

    >>> sol = integrate(np.eye(2) / 4, np.full((2, 1), 1e-3), np.eye(1), 0.1, [0.0, 1.0])
    >>> sol.R.shape, bool(sol.loss[1] < sol.loss[0])
    ((2, 2, 1), True)
    """
    start = Overlaps(Q0, R0, T)
    p, ps = start.R0.shape
    step = read_real(eta, "eta", low=0.0, open_low=True)
    coef = Coefficients(1.0 / p if a is None else a, 1.0 / ps if b is None else b,
                        p * step if eta_w is None else eta_w, sigma)
    return solve(start, coef, Integration(t_grid, method, rtol, atol, reduce), eta)


def solve(start: Overlaps, coef: Coefficients, how: Integration,
          eta: object = None) -> ODESolution:
    """:func:`integrate` on parameters already read: the start, the coefficients (a, b, η_w, σ)
    and how to integrate; ``eta`` is the step as the caller knows it, named by a divergence
    (default: a·η_w). The cost is bounded before any work (:func:`check_ode_request`).

    >>> from fltheory.papers.quadratic.params import Model
    >>> sol = solve(Overlaps(np.eye(2) / 4, np.full((2, 1), 1e-3), np.eye(1)),
    ...             Model(2, 1).coefficients(Fraction(1, 10)), Integration([0.0, 1.0]))
    >>> sol.R.shape
    (2, 2, 1)
    """
    from fltheory.papers.quadratic import rhs as qode

    Q0, R0, T, t_grid = start.Q0, start.R0, start.T, how.t_grid
    a, b, eta_w, sigma = coef.a, coef.b, coef.eta_w, coef.sigma
    p, ps = R0.shape
    eta_in = a * eta_w if eta is None else eta
    if how.reduce:
        q0, V, S0, K0 = qode.reduce_start(Q0, R0)
    else:
        q0, V, S0, K0 = 0.0, np.eye(p), 0.5 * (Q0 + Q0.T), R0.copy()
    k = V.shape[1]
    m = p - k  # bulk students (0 for the full system)
    _check_cost(k, p, ps, abs(a * eta_w), float(t_grid[-1] - t_grid[0]), len(t_grid))
    y0 = np.concatenate([[q0], S0.ravel(), K0.ravel()])
    args = (k, ps, m, float(a), float(b), float(eta_w), float(sigma) ** 2, T)
    y_max = 1e8 * max(1.0, float(np.abs(y0).max()), float(np.abs(T).max()))
    jit = _compiled_integrator(how.method)
    if jit is not None:
        Y = _dop853(jit, args, y0, t_grid, how.rtol, how.atol, y_max, eta_in)
    else:
        Y = _lsoda(args, y0, t_grid, how.rtol, how.atol, y_max, eta_in)
    return _solution(Y, V, T, t_grid, a, b, float(sigma))


def _solution(Y: np.ndarray, V: np.ndarray, T: np.ndarray, t_grid: np.ndarray, a: float,
              b: float, sigma: float) -> ODESolution:
    """Q = q I + V S Vᵀ, ρ = V K and the loss on the grid from the reduced states ``Y``."""
    from fltheory.papers.quadratic import rhs as qode

    p, k = V.shape
    ps = T.shape[0]
    m = p - k
    q = Y[:, 0]
    S = Y[:, 1:1 + k * k].reshape(len(Y), k, k)
    S = 0.5 * (S + S.transpose(0, 2, 1))
    K = Y[:, 1 + k * k:].reshape(len(Y), k, ps)
    Qs = (V @ S) @ V.T
    Qs[:, np.arange(p), np.arange(p)] += q[:, None]
    Rs = V @ K
    # loss from the reduced covariance, the bulk adding m copies of q to the traces
    t1, tr2 = qode.block_traces(qode.block_matrix(S + q[:, None, None] * np.eye(k), K, T), k, m,
                                a, b, q)
    loss = 0.5 * (t1**2 + 2 * tr2 + sigma ** 2)
    return ODESolution(t_grid.copy(), Qs, Rs, loss)


def _compiled_integrator(method: str) -> Any:
    """The compiled integrator module for ``auto``/``dopri`` (None: LSODA is used)."""
    if method == "lsoda":
        return None
    try:
        from fltheory.papers.quadratic import _jit
    except ImportError:  # numba absent (or unusable with this numpy): scipy's LSODA
        if method == "dopri":
            raise DomainError("method", method, "lsoda or auto (dopri needs numba: pip "
                              "install 'fltheory[fast]')") from None
        return None
    return _jit


def _dop853(jit: Any, args: tuple[Any, ...], y0: np.ndarray, t_grid: np.ndarray, rtol: float,
            atol: float, y_max: float, eta_in: object) -> np.ndarray:
    """The states on the grid by the compiled DOP853 loop; its failures as domain errors."""
    k, ps = args[0], args[1]
    # a step costs 12 evaluations: cap the steps at 3 × the time bound, each evaluation at
    # ode_cost's per-evaluation time
    max_steps = int(3 * ODE_SECONDS_LIMIT / (STAGES * _seconds_per_evaluation(k, ps)))
    Y, _, status, _ = jit.dop853(args, y0, t_grid, rtol, atol, max_steps, y_max, *tableau())
    if status == 1:
        raise DomainError("eta", eta_in, "steps for which the ODE can be integrated",
                          reason=f"makes the ODE too stiff: over {max_steps} steps "
                                 f"(3 × the {ODE_SECONDS_LIMIT:g} s bound)")
    if status:  # 3: left the box; 2: step size underflow, the signature of a blow-up
        raise ODEDivergence(eta_in, _first_unreached(t_grid, Y))
    out: np.ndarray = Y
    return out


def _lsoda(args: tuple[Any, ...], y0: np.ndarray, t_grid: np.ndarray, rtol: float, atol: float,
           y_max: float, eta_in: object) -> np.ndarray:
    """The states on the grid by scipy's LSODA on the numpy right side (steps no longer than
    the grid spacing, :func:`fltheory.engine.odes.grid_spacing`)."""
    from scipy.integrate import solve_ivp

    from fltheory.papers.quadratic.rhs import block_rhs

    # a state beyond the box aborts the integration from inside the right side (the exception
    # propagates through LSODA's callback): a blow-up ends at once
    class _Left(Exception):
        pass

    def rhs(t_: float, y: np.ndarray) -> np.ndarray:
        if not float(np.abs(y).max()) <= y_max:
            raise _Left(t_)
        return block_rhs(y, *args)

    try:
        with np.errstate(all="ignore"):
            sol = solve_ivp(rhs, (t_grid[0], t_grid[-1]), y0, t_eval=t_grid, method="LSODA",
                            rtol=rtol, atol=atol, max_step=grid_spacing(t_grid))
    except _Left as exc:
        raise ODEDivergence(eta_in, float(exc.args[0])) from None
    if not sol.success:
        raise DomainError("eta", eta_in, "steps for which the ODE can be integrated",
                          reason=f"stops LSODA: {sol.message}")
    out: np.ndarray = sol.y.T
    return out


def _first_unreached(t_grid: np.ndarray, Y: np.ndarray) -> float:
    """The first grid time whose state the integrator did not reach (rows left NaN)."""
    bad = np.nonzero(~np.isfinite(Y).all(axis=1))[0]
    return float(t_grid[bad[0]] if len(bad) else t_grid[-1])


def crossing_time(t: Any, norms: Any, level: float = ESCAPE_LEVEL) -> float:
    """The escape rule: first time ‖ρ‖_F reaches ``level`` (default :data:`ESCAPE_LEVEL`),
    ln‖ρ‖_F interpolated linearly between grid points — exact for the exponential growth of
    the linear stage — and NaN if it never does (a float): the shared crossing rule
    :func:`fltheory.simkit.observables.crossing_time`, which the simulator reads its runs with
    too. ``t`` and ``norms`` are 1-d arrays of equal length (``norms`` >= 0, NaN after a
    divergence counts as not reached); level > 0.

    >>> crossing_time([0.0, 1.0, 2.0], [0.1, 0.2, 0.8], 0.4)
    1.5
    """
    return observables.crossing_time(t, norms, level)
