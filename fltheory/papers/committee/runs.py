"""Both sides of the committee machine, side by side: what the commands, the figure, the
notebook and the claims show.

* :func:`ode_run` — the ODE from a generic start near the symmetric subspace, its symmetric
  plateau, the escape and the accuracy of ε_g (``committee ode``);
* :func:`compare_sgd_ode` — one-pass SGD from a cold start against the ODE from the same
  sampled overlaps (``committee simulate``), and :func:`loss_curves` over several N (the
  figure);
* :func:`mode_amplitudes` — the amplitude of a Jacobian eigenspace along overlaps (of SGD or
  the ODE) near a fixed point: how the rate claims measure a rate.

Each takes the model (:class:`~fltheory.papers.committee.params.CommitteeModel`) and the run's
settings (:class:`~fltheory.papers.committee.params.ODESettings`,
:class:`~fltheory.papers.committee.params.SGDSettings`) whole: read once, at their
construction. Seeds: the start's pattern and the SGD run follow the simulator's keys
(:mod:`fltheory.papers.committee.sim`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError, check_cost
from fltheory.papers.committee import sim
from fltheory.papers.committee.gaussian import averages
from fltheory.papers.committee.model import average_errors
from fltheory.papers.committee.ode import (
    CommitteeDivergence,
    CommitteeTrajectory,
    check_trajectory_cost,
    eps_accuracy,
    runaway,
    trajectory,
)
from fltheory.papers.committee.params import CommitteeModel, ODESettings, SGDSettings
from fltheory.papers.committee.plateau import Plateau, jacobian, symmetric_plateau

__all__ = ["SGD_SECONDS_LIMIT", "ODERun", "SGDvsODE", "check_comparison_request",
           "compare_sgd_ode", "loss_curves", "mode_amplitudes", "ode_run", "ode_start"]

#: bound on the SGD run of :func:`compare_sgd_ode` (estimated by sim.sgd_cost)
SGD_SECONDS_LIMIT = 30.0


# ----------------------------------------------------------------------------- the ODE


@dataclass(frozen=True)
class ODERun:
    """The ODE from a generic start near the symmetric subspace (:func:`ode_run`): the model,
    the run's settings, the trajectory (t, Q, R, ε_g, method), the symmetric plateau (None
    when the model has none: unequal second layers or a failed search, with the reason), the
    specialisation ‖R − mean R‖_F on the grid and the escape time (first specialisation
    >= 1/2, None if not reached); ``runaway`` (:func:`~fltheory.papers.committee.ode.runaway`:
    where tr Q/K runs away, or None) and ``accuracy``, the stated absolute accuracy of ε_g on
    the grid (:func:`~fltheory.papers.committee.ode.eps_accuracy`). Numeric averages
    (trapezoid rule, erf mixture) only: ``average_errors``, the largest estimated error of
    each kind of average over the covariances of the right side at the start, the middle and
    the end of the trajectory. ``plateau_visited``: whether the plateau is the one the
    trajectory visits (found by Newton from its slowest symmetric state), not only the one
    the reduced flow from the symmetric start reaches."""

    model: CommitteeModel
    settings: ODESettings
    trajectory: CommitteeTrajectory
    plateau: Plateau | None
    plateau_note: str
    specialisation: np.ndarray
    escape_time: float | None
    runaway: tuple[int, float, float, float] | None
    accuracy: np.ndarray
    average_errors: dict[str, float] | None = None
    plateau_visited: bool = False

    @property
    def eta(self) -> Fraction:
        """The step η of the run."""
        return self.settings.eta


def ode_run(model: CommitteeModel, settings: ODESettings) -> ODERun:
    """Integrate the ODE of ``model`` as ``settings`` says
    (:func:`~fltheory.papers.committee.ode.trajectory`: from its Q0, R0 when given, else
    Q = q0 I and R = rho0 × a seeded Gaussian K × M pattern, a generic start: an exactly
    symmetric one never leaves the plateau; T = I unless given) and analyse its symmetric
    plateau (:func:`~fltheory.papers.committee.plateau.symmetric_plateau`).

    >>> run = ode_run(CommitteeModel("erf_ss", 2, 2), ODESettings("1/2", t_max=20, records=3))
    >>> run.trajectory.t.tolist(), run.plateau is not None, run.runaway
    ([0.0, 10.0, 20.0], True, None)
    """
    traj = trajectory(model, settings, ode_start(model, settings))
    spec = sim.specialisation(traj.R)
    visited = False
    try:
        plateau, visited = _visited_plateau(model, settings.eta, traj, spec)
        note = ""
    except DomainError as exc:
        plateau, note = None, str(exc)
    esc = sim.crossing_time(traj.t, spec, 0.5)
    errors = _trajectory_errors(model, traj)
    return ODERun(model, settings, traj, plateau, note, spec, None if math.isnan(esc) else esc,
                  runaway(traj, model), eps_accuracy(model, traj, settings, errors), errors,
                  visited)


#: Newton from the trajectory's slowest symmetric state is taken for the plateau it visits
#: when it lands within this distance (max-norm, relative to the state's scale) of its start
VISIT_TOL = 0.05


def _visited_plateau(model: CommitteeModel, eta: Fraction, traj: CommitteeTrajectory,
                     spec: np.ndarray) -> tuple[Plateau, bool]:
    """The symmetric plateau the trajectory visits: Newton's method on the reduced equations
    (:func:`~fltheory.papers.committee.plateau.symmetric_plateau` with a guess) from the
    symmetric projection (mean diagonal and off-diagonal of Q, mean of R) of the grid point
    where the trajectory moves slowest before its escape (specialisation < 1/2), accepted
    when the root is within :data:`VISIT_TOL` of it; otherwise (a trajectory that passes no
    plateau on this grid, or a Newton step elsewhere) the analysis' own settling integration
    from the symmetric start. Returns the plateau and whether the trajectory visits it."""
    K = model.K
    before = np.flatnonzero(spec < 0.5)
    if len(traj.t) > 2 and len(before) > 1:
        i0 = int(before[-1])
        Y = np.concatenate([traj.Q.reshape(len(traj.t), -1), traj.R.reshape(len(traj.t), -1)],
                           axis=1)
        dt = np.diff(traj.t)
        speed = np.abs(np.diff(Y, axis=0)).max(axis=1) / np.where(dt > 0, dt, np.inf)
        i = int(np.argmin(speed[:i0]))
        Q, R = traj.Q[i], traj.R[i]
        q = float(np.trace(Q)) / K
        r = float(R.mean())
        x = [q, (float(Q.sum()) - q * K) / (K * (K - 1)), r] if K > 1 else [q, r]
        try:
            p = symmetric_plateau(model, eta, traj.T, guess=x)
        except DomainError:
            p = None
        found = [p.q, p.c, p.r] if p is not None and K > 1 else (
            [p.q, p.r] if p is not None else None)
        scale = max(1.0, float(np.abs(x).max()))
        if (p is not None and found is not None
                and float(np.abs(np.subtract(found, x)).max()) <= VISIT_TOL * scale):
            return p, True
    return symmetric_plateau(model, eta, traj.T), False


def ode_start(model: CommitteeModel, settings: ODESettings
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The start (Q0, R0, T) of the integration ``settings``: its Q0, R0 and T when given, else
    Q = q0 I, R = rho0 × a Gaussian K × M pattern drawn from child 0 of its seed and T = I.

    >>> Q0, R0, T = ode_start(CommitteeModel("erf_ss", 2, 1), ODESettings(1, t_max=1))
    >>> Q0.tolist(), T.tolist(), R0.shape, bool(abs(R0).max() < 0.01)
    ([[0.25, 0.0], [0.0, 0.25]], [[1.0]], (2, 1), True)
    """
    K, M = model.K, model.M
    T = np.eye(M) if settings.T is None else settings.T
    Q0 = float(settings.q0) * np.eye(K) if settings.Q0 is None else settings.Q0
    if settings.R0 is None:
        from fltheory.simkit.seeding import child

        rng = np.random.default_rng(child(settings.seed, 0))
        R0 = float(settings.rho0) * rng.standard_normal((K, M))
    else:
        R0 = settings.R0
    return Q0, R0, T


def _trajectory_errors(model: CommitteeModel, traj: CommitteeTrajectory
                       ) -> dict[str, float] | None:
    """Numeric averages: the largest estimated error of each kind at three states of the
    trajectory (start, middle, end); None for closed forms and polynomials."""
    if averages(model.g).kind not in ("cubature", "mixture"):
        return None
    out: dict[str, float] = {}
    for i in sorted({0, len(traj.t) // 2, len(traj.t) - 1}):
        for k, v in average_errors(model, traj.Q[i], traj.R[i], traj.T).items():
            out[k] = max(out.get(k, 0.0), v)
    return out


# ----------------------------------------------------------------------------- SGD against the ODE


@dataclass(frozen=True)
class SGDvsODE:
    """One-pass SGD from a cold start against the ODE from the same sampled overlaps
    (:func:`compare_sgd_ode`): the grid ``t``; SGD's test ε_g and its SE, its specialisation
    ‖R − mean R‖_F and mean diagonal of Q; the ODE's ε_g and specialisation (NaN where it
    diverged); the divergence times (None if bounded); the ODE's integration method."""

    g: str
    K: int
    M: int
    N: int
    t: np.ndarray
    sgd_eps: np.ndarray
    sgd_eps_se: np.ndarray
    sgd_spec: np.ndarray
    sgd_q: np.ndarray
    ode_eps: np.ndarray
    ode_spec: np.ndarray
    sgd_diverged_at: float | None
    ode_diverged_by: float | None
    ode_method: str


def _check_sgd(model: CommitteeModel, settings: SGDSettings) -> None:
    """The simulator's side of a comparison, before any work: a g it has
    (:func:`~fltheory.papers.committee.sim.activation`) and the SGD run within
    :data:`SGD_SECONDS_LIMIT` by its own cost model (``sim.sgd_cost``)."""
    sim.activation(model.g)
    N, t_max = settings.N, float(settings.t_max)
    check_cost(f"N = {N}, t-max = {t_max:g}, K = {model.K}, M = {model.M}",
               sim.sgd_cost(N, model.K, model.M, t_max, n_test=settings.n_test,
                            records=settings.records),
               SGD_SECONDS_LIMIT, "seconds (estimated)", "a smaller N or t-max")


def check_comparison_request(model: CommitteeModel, settings: SGDSettings) -> None:
    """Refuse, before any work, a :func:`compare_sgd_ode` the simulator cannot make (a g it
    does not have: :func:`fltheory.papers.committee.sim.activation` takes erf, relu, tanh,
    sigmoid, polynomials), whose SGD run exceeds an estimated 30 s or whose ODE exceeds its
    bounds (:func:`~fltheory.papers.committee.ode.check_trajectory_cost`). The settings'
    own domain (10 <= N <= 20000, η > 0, 0 < t_max <= 1000) was checked at their
    construction.

    >>> check_comparison_request(CommitteeModel("erf_ss", 2, 2), SGDSettings(1, 20000, 1000))
    Traceback (most recent call last):
    fltheory.exact.CostError: ...
    """
    _check_sgd(model, settings)
    check_trajectory_cost(model, settings)


def _overlaps(W0: np.ndarray, Ws: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    N = W0.shape[1]
    return W0 @ W0.T / N, W0 @ Ws.T / N, Ws @ Ws.T / N


def compare_sgd_ode(model: CommitteeModel, settings: SGDSettings) -> SGDvsODE:
    """One-pass SGD of ``model`` (g, K, M, a, a*, σ, κ) as ``settings`` says (η, N, t_max,
    the seed, the test inputs, the records) from a cold start (W0 ~ N(0, q0), orthonormal
    teacher: sim.cold_start) against the ODE from the same sampled overlaps; each side's
    work is bounded before it starts (the SGD run first, by :func:`check_comparison_request`'s
    rule). A run that blows up is reported by its divergence time, never as numbers.

    >>> c = compare_sgd_ode(CommitteeModel("erf_ss", 2, 2), SGDSettings(1, 100, 1, records=3))
    >>> c.t.tolist(), c.sgd_diverged_at, c.ode_method
    ([0.0, 0.5, 1.0], None, 'dopri (C)')
    """
    _check_sgd(model, settings)
    t = settings.grid
    W0, Ws = sim.model_cold_start(model, settings)
    try:
        ode = trajectory(model, settings, _overlaps(W0, Ws))
        ode_eps, ode_spec, div, method = (ode.eps_g, sim.specialisation(ode.R), None,
                                          ode.method)
    except CommitteeDivergence as exc:
        ode_eps = ode_spec = np.full(len(t), np.nan)
        div, method = exc.t, "diverged"
    run = sim.model_sgd(model, settings, W0, Ws)
    assert run.eps_g is not None and run.eps_g_se is not None
    q = np.einsum("nkk->n", run.Q) / model.K
    return SGDvsODE(model.g, model.K, model.M, settings.N, t, run.eps_g, run.eps_g_se,
                    sim.specialisation(run.R), q, ode_eps, ode_spec, run.diverged_at, div,
                    method)


def loss_curves(cases: Sequence[tuple[str, Any]], K: int = 2, M: int = 2,
                Ns: Sequence[int] = (500, 2000), t_max: Any = 100, seed: int = 0,
                n_test: int = 2000) -> dict[str, Any]:
    """ε_g(t) of SGD (test set) at each N and of the ODE from the same sampled start, for each
    (g, η) of ``cases`` (a = a* = 1, T = I, 101 records in [0, t_max]), with the plateau's ε_g
    (None where the plateau analysis refuses): the figure's and the notebook's numbers."""
    out = []
    for g, eta in cases:
        model = CommitteeModel(g, K, M)
        curves = [compare_sgd_ode(model, SGDSettings(eta, N, t_max, seed=seed, n_test=n_test,
                                                     records=101)) for N in Ns]
        try:
            plateau: float | None = symmetric_plateau(model, eta).eps_g
        except DomainError:  # no plateau found by the analysis: the curves alone
            plateau = None
        out.append({"g": g, "eta": eta, "curves": curves, "plateau_eps": plateau})
    return {"K": K, "M": M, "cases": out}


# ----------------------------------------------------------------------------- mode amplitudes


def _coords(Q: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Overlaps in the Jacobian's coordinates: Q_ij (i <= j, row-major), then R row-major;
    leading axes kept."""
    K = Q.shape[-1]
    iu = np.triu_indices(K)
    return np.concatenate([Q[..., iu[0], iu[1]], R.reshape(*R.shape[:-2], -1)], axis=-1)


def mode_amplitudes(model: CommitteeModel, eta: Any, Q_star: Any, R_star: Any, T: Any, Q: Any,
                    R: Any, which: str = "slowest") -> tuple[float, np.ndarray]:
    """(λ, ‖a(t)‖): the eigenvalue λ of the Jacobian at the fixed point (Q*, R*) with the
    largest real part (``which`` = "slowest": the slowest decay, or the fastest growth) and the
    norm of the amplitude of its eigenspace (every eigenvalue within 1e-6 relative of λ, a
    degenerate or complex pair together) along the overlaps Q (n × K × K), R (n × K × M):
    a = U(y − y*), U the rows of V⁻¹ (V the right eigenvectors) for those eigenvalues.
    Eigenvalues at 0 (|λ| <= 1e-7·max|λ|: symmetries) are skipped. Near a fixed point, in
    the linear regime, a(t) = a(0) e^{λt} whatever the other modes do."""
    if which != "slowest":
        raise DomainError("which", which, "slowest")
    Qs, Rs = np.asarray(Q_star, dtype=float), np.asarray(R_star, dtype=float)
    J = jacobian(model, eta, Qs, Rs, T)
    w, V = np.linalg.eig(J)
    scale = float(np.abs(w).max())
    live = np.flatnonzero(np.abs(w) > 1e-7 * scale)
    lead = float(w[live].real.max())
    sel = live[np.abs(w[live].real - lead) <= 1e-6 * scale]
    U = np.linalg.inv(V)[sel]
    y = _coords(np.asarray(Q, dtype=float), np.asarray(R, dtype=float)) - _coords(Qs, Rs)
    amp = np.abs(y @ U.T)
    return lead, np.sqrt(np.sum(amp * amp, axis=-1))
