r"""Integration of the soft-committee-machine ODEs: a compiled Dormand–Prince 8(5,3)
integrator on the flat state, scipy's DOP853/LSODA otherwise, the work bounded before it starts.

Model (as :mod:`fltheory.papers.committee.model` states it): student f(x) = Σ_k a_k g(λ_k),
teacher y = Σ_m a*_m g(ν_m) + σξ, online SGD on ½(f − y)², t = steps/N; the overlaps Q (K × K)
and R (K × M) obey closed ODEs dQ/dt, dR/dt = rhs(Q, R, T) with T (M × M) constant. The state
is flat, y = (Q.ravel(), R.ravel()) — the full K² + K M numbers, no reduction — so any
K, M <= 50 is integrated as it is.

Integrators (``method``):

* ``dopri`` — Dormand & Prince's explicit 8th-order pair with the 5th/3rd-order error estimate
  of Hairer, Nørsett & Wanner (Solving ODEs I, II.10; coefficients from scipy's DOP853 table),
  written as loops in :func:`fltheory.engine.odes.dop853_loop` (the package's one integrator,
  shared with the quadratic paper) on the model's compilable right side
  ``flat_rhs(model, eta)``: for erf in C (the extension :mod:`._native`, built by pip, a
  statement-for-statement port of the loop and of the right side, label ``dopri (C)``),
  otherwise compiled with numba when installed (extra ``fast``, label ``dopri (numba)``;
  numba's own start-up is ~0.5 s). The steps follow
  the error control and land on every grid point (the dense output's error is not controlled:
  at rtol 1e-10 it measured up to 7e-8 on ε_g where the landed steps are within 1e-11).
* ``dop853`` / ``lsoda`` — scipy's ``solve_ivp`` on the numpy right side (any activation; no
  compiler needed). ``auto``: dopri when a compiled right side exists, else dop853.

A run that leaves the box max|y| <= 1e8 · max(1, max|y0|, max|T|) or whose step size
underflows is a divergence (:class:`CommitteeDivergence`, with the time it happened), never an
array of NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from fltheory.args import read_choice, read_count, read_grid, read_real
from fltheory.engine.odes import STAGES, grid_spacing, tableau
from fltheory.exact import DomainError, check_cost
from fltheory.papers.committee import _compiled
from fltheory.papers.committee.gaussian import averages
from fltheory.papers.committee.model import build_flat, check_state, rhs_seconds, right_side
from fltheory.papers.committee.params import (
    MAX_FIELDS,
    METHODS,
    CommitteeModel,
    ODESettings,
    SGDSettings,
)

__all__ = ["MEMORY_LIMIT_BYTES", "ODE_SECONDS_LIMIT", "CommitteeDivergence", "CommitteeTrajectory",
           "FlatSolution", "check_integration_request", "check_trajectory_cost",
           "compiled_erf_cost", "eps_accuracy", "evaluation_seconds", "expected_nfev",
           "integrate", "integrate_flat", "integration_cost", "integration_seconds", "runaway",
           "trajectory"]

#: bounds on one call (estimated before any work): well under a minute on a 2-core machine
ODE_SECONDS_LIMIT = 60.0
MEMORY_LIMIT_BYTES = 2**30


class CommitteeDivergence(DomainError):
    """The ODE left every bounded region (or its step size underflowed) at about time ``t``:
    the step η is too large. ``trajectory`` holds the grid points reached before (a
    :class:`CommitteeTrajectory` or a :class:`FlatSolution`, or None). A DomainError on
    ``eta``: the CLI prints it as one line."""

    def __init__(self, eta: object, t: float, trajectory: Any = None, how: str = "diverges"):
        self.t = t
        self.trajectory = trajectory
        super().__init__("eta", eta, "steps for which the ODE stays bounded",
                         reason=f"makes the ODE diverge: it {how} at t ≈ {t:.4g}")


@dataclass(frozen=True)
class FlatSolution:
    """States ``Y`` (len(t), n) on the grid ``t`` from :func:`integrate_flat`, the number of
    right-side evaluations ``nfev`` and the ``method`` that produced them (numpy floats)."""

    t: np.ndarray
    Y: np.ndarray
    nfev: int
    method: str


@dataclass(frozen=True)
class CommitteeTrajectory:
    """The committee ODE's trajectory from :func:`integrate`: times ``t``, overlaps ``Q``
    (len(t), K, K) and ``R`` (len(t), K, M), the teacher ``T``, the generalisation error
    ``eps_g`` on the grid, the ``method`` used (``dopri (C)``, ``dopri (numba)``,
    ``dop853 (scipy)``, ...) and the number of right-side evaluations ``nfev`` (floats, to
    the integrator's tolerances)."""

    t: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray
    eps_g: np.ndarray
    method: str
    nfev: int


def _averages_count(K: int, M: int) -> float:
    """Averages in one right side: K(K+1)/2 · n(n+1)/2 I4 and K n² I3, n = K + M."""
    n = K + M
    return K * (K + 1) / 2 * n * (n + 1) / 2 + K * n * n


def compiled_erf_cost(K: int, M: int) -> float:
    """Seconds of one compiled erf right side: 3e-6 + 5e-9 per average (measured, CPU time on
    a shared 2-core machine: 4e-6 at K = M = 2, 9.5e-6 at K = M = 5, 4.5e-5 at K = 10, M = 5,
    6.6e-4 at K = 20, M = 10; benchmarks/committee.py, cost_table).

    >>> f"{compiled_erf_cost(10, 5):.1e}"
    '4.7e-05'
    """
    return 3e-6 + 5e-9 * _averages_count(K, M)


def expected_nfev(K: int, eta: float, t_span: float) -> float:
    """Right-side evaluations of the compiled DOP853 at rtol 1e-10 on a coarse grid (on a fine
    grid the steps land on every point: :func:`integration_cost` counts at least 12 per point):
    200 + 120 (1 + K/10) √(max(η, 0.05) t) — fitted to erf runs from a cold start (Q = I/4,
    R ~ 1e-3): K = 2 at ηt = 100, 1000, 2000 (η = 0.1…2): 1051, 4891, 4681, 5758; K = 5, ηt =
    500: 3367; K = 10, ηt = 500, 1000: 5011, 6850; K = 20, ηt = 100: 2815; tanh/sigmoid K = 2,
    3: 631…2041 (within 1.5× of the formula except sigmoid's 631 against 1900).

    >>> round(expected_nfev(2, 0.5, 200.0))
    1640
    """
    return 200.0 + 120.0 * (1 + K / 10) * math.sqrt(max(eta, 0.05) * t_span)


def integration_cost(K: int, M: int, eta: float, t_span: float, n_grid: int,
                     per_eval: float | None = None) -> tuple[float, float]:
    """(seconds, bytes) to integrate the committee ODE (K students, M teachers) over ``t_span``
    with output on ``n_grid`` points: :func:`expected_nfev` evaluations (at least 12 per grid
    interval: every grid point is a step's end) at ``per_eval`` seconds each (default
    :func:`compiled_erf_cost`, the cheapest right side), ε_g on the grid ≈ 2e-5 + 1e-6·(K + M)²
    s per point (batched) and 0.005 s of set-up. Meant to be within 3× of the measured time
    (the table in benchmarks/committee.py, cost_table; the previous bound,
    (2000 + 3ηt)(1 + K/5) evaluations at 1.5e-7 K²(K + M)² s, was 10–200× high). Memory: Q, R
    and the flat states on the grid and three temporaries,
    8·4·(2K² + 2KM) bytes per point. Returns two floats.

    >>> seconds, memory = integration_cost(2, 2, 1.0, 100.0, 101)
    >>> round(seconds, 3), int(memory)
    (0.014, 51712)

    Integers 1 <= K, M <= 50 and n_grid >= 1; η, t_span finite reals >= 0; per_eval a finite
    real > 0 (else DomainError).
    """
    K, M = read_count(K, "K", 1, MAX_FIELDS), read_count(M, "M", 1, MAX_FIELDS)
    n_grid = read_count(n_grid, "n_grid", 1)
    eta, t_span = read_real(eta, "eta", low=0.0), read_real(t_span, "t_span", low=0.0)
    if per_eval is not None:
        per_eval = read_real(per_eval, "per_eval", low=0.0, open_low=True)
    return _integration_cost(K, M, eta, t_span, n_grid, per_eval)


def _integration_cost(K: int, M: int, eta: float, t_span: float, n_grid: int,
                      per_eval: float | None, rtol: float = 1e-10) -> tuple[float, float]:
    """:func:`integration_cost` on arguments already read (floats, integers in range); a
    tolerance ``rtol`` below 1e-10 multiplies the evaluations by (1e-10/rtol)^(1/8), the step
    count of an 8th-order method (measured erf K = 10, M = 5 to t = 1000: 4178 evaluations at
    rtol 1e-10, 2762 at 1e-8, scipy DOP853)."""
    if per_eval is None:
        per_eval = compiled_erf_cost(K, M)
    # every grid point is a step's end: at least one step per grid interval
    nfev = max(expected_nfev(K, eta, t_span) * max(1.0, (1e-10 / rtol) ** 0.125),
               float(STAGES) * (n_grid - 1) + 1)
    seconds = nfev * per_eval + n_grid * (2e-5 + 1e-6 * (K + M) ** 2) + 0.005
    memory = 8.0 * 4 * n_grid * (2 * K * K + 2 * K * M)
    return seconds, memory


def check_integration_request(K: int, M: int, eta: float, t_span: float, n_grid: int,
                              per_eval: float | None = None) -> None:
    """Refuse (CostError, before any work) an integration whose estimated time or memory
    (:func:`integration_cost`) exceeds ODE_SECONDS_LIMIT or MEMORY_LIMIT_BYTES. Arguments as for
    :func:`integration_cost`; the refusal names what can be changed: t-max (the CLI's
    --t-max), K and M, and for memory the grid (the API's ``t_grid``).

    >>> check_integration_request(2, 2, 1.0, 100.0, 101)  # accepted: None
    >>> check_integration_request(50, 50, 1.0, 1000.0, 101)
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    seconds, memory = integration_cost(K, M, eta, t_span, n_grid, per_eval)
    _refuse(K, M, t_span, n_grid, seconds, memory)


def _refuse(K: int, M: int, t_span: float, n_grid: int, seconds: float, memory: float) -> None:
    """The refusals of :func:`check_integration_request` for an estimated cost."""
    what = f"K = {K}, M = {M}, t-max = {t_span:.3g} on {n_grid} grid points"
    check_cost(what, memory, MEMORY_LIMIT_BYTES, "bytes of memory",
               "a coarser t_grid or smaller K, M")
    check_cost(what, seconds, ODE_SECONDS_LIMIT, "seconds (estimated)",
               "a shorter t-max or smaller K, M")


def integrate_flat(fun: Callable[[np.ndarray], np.ndarray], y0: Any, t_grid: Any,
                   rtol: float = 1e-10, atol: float = 1e-12, method: str = "auto",
                   compiled: Any = None, eta: Any = None, y_scale: float = 1.0,
                   max_nfev: int = 10**6) -> FlatSolution:
    """Integrate the autonomous system y' = ``fun``(y) from ``y0`` and return the states on
    ``t_grid`` — the generic engine under :func:`integrate`, for any right side.

    ``compiled``: a numba-compilable version of ``fun`` (a plain or ``njit`` function y -> dy);
    with it and numba installed, ``auto``/``dopri`` run the compiled
    :func:`~fltheory.engine.odes.dop853_loop`;
    otherwise ``auto`` is scipy's DOP853 (``dop853``), or LSODA (``lsoda``) on ``fun``.
    ``rtol``, ``atol`` > 0 are the local tolerances; ``max_nfev`` caps the right-side
    evaluations (status "too many steps" → DomainError); ``eta`` only names the step in a
    :class:`CommitteeDivergence`, raised when max|y| exceeds 1e8 · max(1, max|y0|, y_scale) or
    the step size underflows. Returns a :class:`FlatSolution`. The caller bounds the cost.

    >>> sol = integrate_flat(lambda y: -y, [1.0, 2.0], [0.0, 1.0], method="dop853")
    >>> [round(float(v), 10) for v in sol.Y[1]], sol.method
    ([0.3678794412, 0.7357588823], 'dop853 (scipy)')
    """
    t = read_grid(t_grid)
    y0 = np.ascontiguousarray(y0, dtype=float)
    if y0.ndim != 1 or not np.isfinite(y0).all():
        raise DomainError("y0", f"an array of shape {y0.shape}", "a finite 1-d state")
    rtol = read_real(rtol, "rtol", low=0.0, open_low=True)
    atol = read_real(atol, "atol", low=0.0, open_low=True)
    max_nfev = read_count(max_nfev, "max_nfev", 1)
    method = read_choice(method, "method", METHODS)
    return _solve_flat(fun, y0, t, rtol, atol, method, compiled, eta, y_scale, max_nfev)


def _solve_flat(fun: Callable[[np.ndarray], np.ndarray], y0: np.ndarray, t: np.ndarray,
                rtol: float, atol: float, method: str, compiled: Any, eta: Any, y_scale: float,
                max_nfev: int) -> FlatSolution:
    """:func:`integrate_flat` on arguments already read (a finite 1-d float state, a grid,
    tolerances > 0, one of :data:`METHODS`, a count)."""
    run, label = _compiled_run(method, compiled)
    if method == "dopri" and run is None:
        raise DomainError("method", method, "auto, dop853 or lsoda (dopri needs a compiled right "
                          "side: the C extension, built by pip, for erf, numba — pip install "
                          "'fltheory[fast]' — for the others)")
    y_max = 1e8 * max(1.0, float(np.abs(y0).max(initial=0.0)), abs(float(y_scale)))
    if run is not None:
        Y, nfev, status, t_end = run(y0, t, rtol, atol, max_nfev // STAGES + 1, y_max,
                                     *tableau())
        if status == 1:
            raise DomainError("eta", eta, "steps for which the ODE can be integrated",
                              reason=f"needs over {max_nfev} evaluations of the right side "
                              "(its budget)")
        if status:
            reached = ~np.isnan(Y).any(axis=1)
            bad = int(np.argmin(reached)) if not reached.all() else len(t) - 1
            part = FlatSolution(t[:bad], Y[:bad], int(nfev), label)
            raise CommitteeDivergence(eta, float(t_end), part,
                                      "leaves every bounded region" if status == 3
                                      else "needs a vanishing step size")
        return FlatSolution(t.copy(), Y, int(nfev), label)
    return _scipy(fun, y0, t, rtol, atol, "LSODA" if method == "lsoda" else "DOP853",
                  eta, y_max, max_nfev)


def _compiled_run(method: str, compiled: Any) -> tuple[Any, str]:
    """The compiled integration of ``compiled`` for ``method`` as run(y0, t, rtol, atol,
    max_steps, y_max, *tableau) -> (states, evaluations, status, time reached), with its method
    label; (None, "") when there is none (no compiled right side, scipy's method asked, or
    neither the C extension nor numba serves it)."""
    if method not in ("auto", "dopri") or compiled is None:
        return None, ""
    loops, args = getattr(compiled, "loops", None), getattr(compiled, "args", None)
    if loops is _compiled.native_loops and args is not None:
        # the C extension's erf right side: integrated in C, numba never imported
        return partial(_compiled.native_dop853, tuple(args)), "dopri (C)"
    jit = _compiled.integrator()
    if jit is None:
        return None, ""
    if loops is not None and args is not None:
        # the model's compiled loops(y, *args): one integrator for every model, disk-cached
        return partial(jit.dop853_loops, tuple(args)), "dopri (numba)"
    return partial(jit.dop853, jit.njit_rhs(compiled)), "dopri (numba)"


def _scipy(fun: Callable[[np.ndarray], np.ndarray], y0: np.ndarray, t: np.ndarray, rtol: float,
           atol: float, name: str, eta: Any, y_max: float, max_nfev: int) -> FlatSolution:
    from scipy.integrate import solve_ivp

    class _Stop(Exception):
        pass

    count = [0]
    last = [float(t[0])]  # the latest time with a finite state and right side

    def rhs(t_: float, y: np.ndarray) -> np.ndarray:
        count[0] += 1
        if not float(np.abs(y).max(initial=0.0)) <= y_max:
            raise _Stop(t_, "leaves every bounded region")
        if count[0] > max_nfev:
            raise _Stop(t_, "too many")
        dy = np.asarray(fun(y), dtype=float)
        if np.isfinite(dy).all():
            last[0] = max(last[0], float(t_))
        return dy

    method = f"{name.lower()} (scipy)"
    if len(t) == 1 or t[-1] == t[0]:
        return FlatSolution(t.copy(), np.tile(y0, (len(t), 1)), 0, method)
    try:
        with np.errstate(all="ignore"):
            sol = solve_ivp(rhs, (t[0], t[-1]), y0, t_eval=t, method=name, rtol=rtol, atol=atol,
                            max_step=grid_spacing(t))
    except _Stop as exc:
        when, why = float(exc.args[0]), exc.args[1]
        if why == "too many":
            raise DomainError("eta", eta, "steps for which the ODE can be integrated",
                              reason=f"needs over {max_nfev} evaluations of the right side "
                              "(its budget)"
                              ) from None
        raise CommitteeDivergence(eta, when, None, why) from None
    if not sol.success or sol.y.shape[1] != len(t) or not np.isfinite(sol.y).all():
        raise CommitteeDivergence(eta, last[0], None, f"stops {name} ({sol.message})")
    return FlatSolution(t.copy(), np.ascontiguousarray(sol.y.T), int(sol.nfev), method)


#: the absolute tolerance by default; relu's: past convergence the overlaps sit at singular
#: covariances (Q = R = T, the boundary of the admissible states) where relu's right side is
#: not smooth, and the steps there shrink with atol (measured K = M = 2, η = 1/2, t = 2000,
#: with I4 closed for i = k: 10933 evaluations at 1e-10, 40849 at 1e-11, over 108958 at 1e-12;
#: ε_g(2000) is 3e-13 at 1e-10, far below its stated accuracy)
ATOL = 1e-12
RELU_ATOL = 1e-10
#: the kinds of averages with a flat (compilable) right side (:func:`~.model.build_flat`)
_FLAT_KINDS = ("erf", "relu", "polynomial", "mixture")


def evaluation_seconds(model: CommitteeModel, compiled: bool) -> float:
    """The theory's one estimate of the seconds of one right-side evaluation of ``model``:
    ``compiled``, the flat right side's (:func:`compiled_erf_cost`, or the model's own
    :func:`fltheory.papers.committee._flat.cost` when larger: relu's compiled I4 costs ~100×
    erf's; ``inf`` for g without one); else the numpy right side's
    (:func:`~fltheory.papers.committee.model.rhs_seconds`, plus 5e-5 s of call overhead).

    >>> m = CommitteeModel("erf_ss", 2, 2)
    >>> f"{evaluation_seconds(m, True):.1e}", f"{evaluation_seconds(m, False):.1e}"
    ('3.3e-06', '8.4e-05')
    """
    if compiled:
        from fltheory.papers.committee._flat import cost

        return max(compiled_erf_cost(model.K, model.M), cost(model))
    return rhs_seconds(model) + 5e-5


def _compiles(model: CommitteeModel, method: str) -> bool:
    """Whether an integration with ``method`` runs on the compiled flat right side."""
    kind = averages(model.g).kind
    return method in ("auto", "dopri") and kind in _FLAT_KINDS and _compiled.available(kind)


def integration_seconds(model: CommitteeModel, run: ODESettings | SGDSettings,
                        compiled: bool | None = None) -> float:
    """The estimated seconds of the integration ``run`` of ``model`` (:func:`integration_cost`
    with :func:`evaluation_seconds`): on the compiled right side or the numpy one
    (``compiled``; None: the one :func:`trajectory` takes); NaN when the evaluation has no
    estimate (no compiled right side for this g).

    >>> m = CommitteeModel("relu", 3, 3)
    >>> integration_seconds(m, ODESettings("1/2", t_max=1000), compiled=True) > 5
    True
    """
    grid = run.grid
    per_eval = evaluation_seconds(model, _compiles(model, run.method) if compiled is None
                                  else compiled)
    if not math.isfinite(per_eval):
        return math.nan
    span = float(grid[-1] - grid[0])
    return _integration_cost(model.K, model.M, abs(float(run.eta)), span, len(grid),
                             per_eval, run.rtol)[0]


def integrate(model: CommitteeModel, eta: Any, Q0: Any, R0: Any, T: Any, t_grid: Any,
              rtol: float = 1e-10, atol: float | None = None, method: str = "auto"
              ) -> CommitteeTrajectory:
    """Integrate the committee-machine ODEs of ``model`` (a
    :class:`~fltheory.papers.committee.params.CommitteeModel`) at step ``eta`` from
    (Q0, R0) with teacher T, and return Q, R and ε_g on ``t_grid``: :func:`trajectory` of
    the :class:`~fltheory.papers.committee.params.ODESettings` these arguments make (each read
    once, there).

    The right side is :func:`fltheory.papers.committee.model.rhs`; with numba and a compilable
    ``flat_rhs(model, eta)`` it runs compiled (method ``dopri``), else through scipy
    (``dop853`` by default, ``lsoda`` on request). Parameters: η > 0 (float, Fraction or text);
    Q0 (K × K), R0 (K × M), T (M × M) finite with [[Q0, R0], [R0ᵀ, T]] PSD (checked by
    ``check_state``); ``t_grid`` non-decreasing; rtol, atol > 0 (atol by default
    :data:`ATOL`, :data:`RELU_ATOL` for relu). The cost (K, M, the span and
    the grid) is bounded before any work (:func:`check_integration_request`). Returns a
    :class:`CommitteeTrajectory`; raises :class:`CommitteeDivergence` (with the time) when the
    overlaps blow up, DomainError on bad input.

    >>> m = CommitteeModel("erf_ss", 2, 2)
    >>> tr = integrate(m, 1, [[0.5, 0], [0, 0.5]], [[1e-3, 0], [0, 1e-3]], np.eye(2), [0, 1],
    ...                method="dop853")  # "auto": compiled (C for erf, or numba) when built
    >>> tr.Q.shape, bool(tr.eps_g[1] < tr.eps_g[0]), tr.method
    ((2, 2, 2), True, 'dop853 (scipy)')
    """
    run = ODESettings(eta, T=T, Q0=Q0, R0=R0, rtol=rtol, atol=atol, method=method,
                      t_grid=t_grid)
    return trajectory(model, run, (run.Q0, run.R0, run.T))


def check_trajectory_cost(model: CommitteeModel, run: ODESettings | SGDSettings) -> float:
    """Refuse (CostError, before any work) the integration ``run`` of ``model`` when its
    estimated time or memory exceeds :data:`ODE_SECONDS_LIMIT` or :data:`MEMORY_LIMIT_BYTES`
    (:func:`integration_cost` at :func:`evaluation_seconds` on the right side
    :func:`trajectory` takes); return those seconds per evaluation.

    >>> check_trajectory_cost(CommitteeModel("erf_ss", 50, 50), ODESettings(1, t_max=1000))
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    t = run.grid
    K, M, span = model.K, model.M, float(t[-1] - t[0])
    per_eval = evaluation_seconds(model, _compiles(model, run.method))
    _refuse(K, M, span, len(t), *_integration_cost(K, M, float(run.eta), span, len(t),
                                                   per_eval, run.rtol))
    return per_eval


def trajectory(model: CommitteeModel, run: ODESettings | SGDSettings,
               start: tuple[Any, Any, Any]) -> CommitteeTrajectory:
    """The ODE of ``model`` integrated as ``run`` says (its step η, grid, tolerances and
    method) from ``start`` = (Q0, R0, T): matrices as the run's settings read them
    (:func:`~fltheory.papers.committee.params.read_overlaps`) or as computed from a sampled
    start. The start is checked once — shapes K × K, K × M, M × M, then
    :func:`~fltheory.papers.committee.model.check_state` — and the cost once
    (:func:`check_trajectory_cost`), before any work. Returns a :class:`CommitteeTrajectory`;
    raises :class:`CommitteeDivergence`.

    >>> m = CommitteeModel("erf_ss", 1, 1)
    >>> I = np.eye(1)
    >>> trajectory(m, ODESettings(1, t_grid=[0, 1]), (I / 2, 0 * I, I)).eps_g.shape
    (2,)
    """
    K, M = model.K, model.M
    shapes = {"Q0": (K, K), "R0": (K, M), "T": (M, M)}
    Q0, R0, T = (np.asarray(A, dtype=float) for A in start)
    for (name, shape), A in zip(shapes.items(), (Q0, R0, T), strict=True):
        if A.shape != shape:
            raise DomainError(name, f"an array of shape {A.shape}", f"shape {shape}")
    check_state(Q0, R0, T, model)
    kind = averages(model.g).kind
    atol = run.atol if run.atol is not None else RELU_ATOL if kind == "relu" else ATOL
    t = run.grid
    per_eval = check_trajectory_cost(model, run)
    # T has been checked: the flat right side reads and bounds nothing again
    flat = build_flat(model, run.eta, T, checked=True) if _compiles(model, run.method) else None
    y0 = np.concatenate([Q0.ravel(), R0.ravel()])
    sol = _bounded(_numpy_field(model, run.eta, T), y0, t, run.rtol, atol, run.method, flat,
                   run.eta, T, K, M, per_eval)
    return _trajectory(model, sol, t, T, run.eta)


def _numpy_field(model: CommitteeModel, eta: Fraction, T: np.ndarray
                 ) -> Callable[[np.ndarray], np.ndarray]:
    """The numpy right side on the flat state (Q then R), built on first use (the compiled
    path never builds it)."""
    K, M = model.K, model.M
    built: list[Any] = []

    def fun(y: np.ndarray) -> np.ndarray:
        if not built:
            built.append(right_side(model, eta))
        dQ, dR = built[0](y[:K * K].reshape(K, K), y[K * K:].reshape(K, M), T)
        return np.concatenate([np.ravel(dQ), np.ravel(dR)])

    return fun


def _trajectory(model: CommitteeModel, sol: FlatSolution, t: np.ndarray, T: np.ndarray,
                eta: Fraction) -> CommitteeTrajectory:
    """Q (symmetrised), R and ε_g on the grid from the integrator's states; a non-finite ε_g is
    a divergence."""
    K, M = model.K, model.M
    Y = sol.Y
    Q = Y[:, :K * K].reshape(len(t), K, K)
    Q = 0.5 * (Q + Q.transpose(0, 2, 1))
    R = Y[:, K * K:].reshape(len(t), K, M)
    eps = _eps_grid(model, Q, R, T)
    if not np.isfinite(eps).all():
        raise CommitteeDivergence(eta, float(t[int(np.argmin(np.isfinite(eps)))]), None,
                                  "reaches overlaps with a non-finite generalisation error")
    return CommitteeTrajectory(t, Q, R, T.copy(), eps, sol.method, sol.nfev)


#: tr Q/K beyond this many times its natural scale is a runaway (:func:`runaway`)
RUNAWAY_FACTOR = 100.0


def runaway(traj: CommitteeTrajectory, model: CommitteeModel
            ) -> tuple[int, float, float, float] | None:
    """The first grid point where tr Q/K exceeds RUNAWAY_FACTOR × its natural scale
    max(1, tr Q0/K, (tr T/M) · max a*² / min a²) (the students' norms a fit needs) and still
    grows to the end (η far above η_max: the norms grow without bound, e.g. erf at η = 20
    as t^(2/3)); None otherwise. Returns (index, t, tr Q/K there, scale).

    >>> from types import SimpleNamespace
    >>> Q = np.array([[[1.0]], [[50.0]], [[200.0]]])
    >>> traj = SimpleNamespace(t=np.array([0.0, 1.0, 2.0]), Q=Q, R=np.zeros((3, 1, 1)),
    ...                        T=np.eye(1))
    >>> runaway(traj, CommitteeModel("erf_ss", 1, 1))
    (2, 2.0, 200.0, 1.0)
    """
    K, M = traj.R.shape[1], traj.R.shape[2]
    a = [abs(float(v)) for v in model.a if v] or [1.0]
    a_star = [abs(float(v)) for v in model.a_star] or [1.0]
    trq = np.trace(traj.Q, axis1=1, axis2=2) / K
    scale = max(1.0, float(trq[0]),
                float(np.trace(traj.T)) / M * max(a_star) ** 2 / min(a) ** 2)
    over = np.flatnonzero(trq > RUNAWAY_FACTOR * scale)
    if not len(over) or not trq[-1] >= trq[over[0]]:
        return None
    i = int(over[0])
    return i, float(traj.t[i]), float(trq[i]), scale


def eps_accuracy(model: CommitteeModel, traj: CommitteeTrajectory,
                 run: ODESettings | SGDSettings,
                 average_errors: dict[str, float] | None = None) -> np.ndarray:
    """A stated absolute accuracy of ε_g on the grid (floats) of the trajectory ``traj`` that
    the integration ``run`` gave. Each overlap is taken to be within δ = 10 × the local
    tolerance (atol + rtol · max|C|) of the integration; ε_g then moves by at most
    Σ |∂ε_g/∂C| δ (the gradient over the state's entries, by central differences of the
    averages' E2, :func:`_eps_gradient`; it does not vanish at convergence, where the joint
    covariance is singular and the minimum sits on the boundary of the admissible states) plus
    a generous second-order term ½ (Σ|w|)² · 10⁴ δ²; where the gradient cannot be formed (a
    difference leaves the admissible covariances) the gradient-free bound ½ (Σ|w|)² δ is
    used. Plus ½ (Σ|w|)² η² times the I4 error (relu: 1e-9, its rule's stated error; numeric
    averages: the measured ``average_errors``) over the slowest scale 1. A stated bound for
    printing, not a proof. Values of ε_g below it are indistinguishable from 0.

    >>> from types import SimpleNamespace
    >>> traj = SimpleNamespace(Q=np.eye(2)[None], R=np.eye(2)[None], T=np.eye(2))
    >>> acc = eps_accuracy(CommitteeModel("erf_ss", 2, 2), traj, ODESettings("1/2"))
    >>> acc.shape, bool(0 < acc[0] < 1e-8)
    ((1,), True)
    """
    kind = averages(model.g).kind
    atol = run.atol if run.atol is not None else RELU_ATOL if kind == "relu" else ATOL
    w = np.abs(model.w)
    weight = 0.5 * float(w.sum()) ** 2
    scale = np.maximum(np.abs(traj.Q).max(axis=(1, 2)), np.abs(traj.T).max(initial=1.0))
    scale = np.maximum(scale, np.abs(traj.R).max(axis=(1, 2), initial=0.0))
    delta = 10.0 * (atol + run.rtol * scale)
    grad = _eps_gradient(model, np.asarray(traj.Q, dtype=float),
                         np.asarray(traj.R, dtype=float), np.asarray(traj.T, dtype=float))
    first = np.where(np.isfinite(grad), grad, weight)
    i4 = 1e-9 if kind == "relu" else 0.0
    if average_errors:
        i4 = max(i4, *average_errors.values())
    eta_f = float(run.eta)
    return np.asarray(first * delta + weight * 1e4 * delta**2 + weight * eta_f**2 * i4,
                      dtype=float)


def _joint_covariance(Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The joint covariance [[Q, R], [Rᵀ, T]] of the student and teacher fields on every grid
    point (Q: t × K × K, R: t × K × M, T: M × M)."""
    n_t, K, M = R.shape
    C = np.empty((n_t, K + M, K + M))
    C[:, :K, :K] = Q
    C[:, :K, K:] = R
    C[:, K:, :K] = R.transpose(0, 2, 1)
    C[:, K:, K:] = T
    return C


def _eps_gradient(model: CommitteeModel, Q: np.ndarray, R: np.ndarray, T: np.ndarray
                  ) -> np.ndarray:
    """Σ |∂ε_g/∂y| over the state's entries y (Q_ij, i <= j, and R_in) on every grid point,
    ε_g = ½ Σ_{c,e} w_c w_e E2(C_cc, C_ee, C_ce): central differences (step h = 1e-5 · max(1,
    |C|)) of E2 in each argument, one-sided where one side leaves the admissible covariances,
    NaN where both do."""
    av, w = averages(model.g), model.w
    _, K, M = R.shape
    n = K + M
    C = _joint_covariance(Q, R, T)
    d = np.diagonal(C, axis1=1, axis2=2)
    h = 1e-5 * np.maximum(1.0, np.abs(C).max(axis=(1, 2)))[:, None, None]

    def e2(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
        P = np.empty((*x.shape, 2, 2))
        P[..., 0, 0], P[..., 1, 1], P[..., 0, 1], P[..., 1, 0] = a, b, x, x
        with np.errstate(all="ignore"):
            return np.asarray(av.e2(P), dtype=float)

    def diff(plus: np.ndarray, minus: np.ndarray, mid: np.ndarray, h: np.ndarray
             ) -> np.ndarray:
        central = (plus - minus) / (2 * h)
        out = np.where(np.isfinite(central), central, (plus - mid) / h)
        return np.where(np.isfinite(out), out, (mid - minus) / h)

    a, b = np.broadcast_to(d[:, :, None], C.shape), np.broadcast_to(d[:, None, :], C.shape)
    mid = e2(a, b, C)
    dx = diff(e2(a, b, C + h), e2(a, b, C - h), mid, h)     # ∂E2/∂C_ce
    da = diff(e2(a + h, b, C), e2(a - h, b, C), mid, h)     # ∂E2/∂C_cc (first argument)
    idx = np.arange(n)
    h1 = h[:, :, 0]
    same = diff(e2(d + h1, d + h1, d + h1), e2(d - h1, d - h1, d - h1), mid[:, idx, idx], h1)
    ww = np.outer(w, w)
    # ∂ε/∂C_ce (c ≠ e, both orders) = w_c w_e ∂E2/∂x; ∂ε/∂C_cc = ½ w_c² d/dC_cc E2(C_cc, C_cc,
    # C_cc) + Σ_{e≠c} w_c w_e ∂E2(c, e)/∂a (the pairs (c, e) and (e, c))
    off = ww * dx
    off[:, idx, idx] = 0.0
    diag = 0.5 * w**2 * same + np.einsum("tce,ce->tc", np.where(np.eye(n, dtype=bool), 0.0, da),
                                         ww)
    iu = np.triu_indices(K, 1)
    total = np.abs(diag[:, :K]).sum(axis=1) + np.abs(off[:, iu[0], iu[1]]).sum(axis=1)
    return np.asarray(total + np.abs(off[:, :K, K:]).sum(axis=(1, 2)), dtype=float)


def _eps_grid(model: CommitteeModel, Q: np.ndarray, R: np.ndarray, T: np.ndarray
              ) -> np.ndarray:
    """ε_g = ½ Σ_{c,e} w_c w_e E[g(z_c) g(z_e)] on every grid point in one batch (the formula
    of ``generalisation_error``, checked against it in the tests)."""
    av, w = averages(model.g), model.w
    n_t, K, M = R.shape
    n = K + M
    C = _joint_covariance(Q, R, T)
    d = np.diagonal(C, axis1=1, axis2=2)
    P = np.empty((n_t, n, n, 2, 2))
    P[..., 0, 0] = d[:, :, None]
    P[..., 1, 1] = d[:, None, :]
    P[..., 0, 1] = C
    P[..., 1, 0] = C
    with np.errstate(all="ignore"):
        E2 = np.asarray(av.e2(P), dtype=float)
        return np.asarray(0.5 * np.einsum("c,tce,e->t", w, E2, w), dtype=float)


def _bounded(fun: Callable[[np.ndarray], np.ndarray], y0: np.ndarray, t: np.ndarray,
             rtol: float, atol: float, method: str, compiled: Any, eta: Fraction, T: np.ndarray,
             K: int, M: int, per_eval: float) -> FlatSolution:
    """integrate_flat with the evaluations capped at 3 × the time bound's worth."""
    max_nfev = int(min(3 * ODE_SECONDS_LIMIT / per_eval, 10**8))
    return _solve_flat(fun, np.ascontiguousarray(y0, dtype=float), t, rtol, atol, method,
                       compiled, eta, float(np.abs(T).max(initial=1.0)), max(max_nfev, 100))
