r"""Fixed points of the soft-committee-machine ODEs: the unspecialised (symmetric)
plateau, the specialised fixed point, the Jacobian there, and the largest stable step of K = M = 1.

Model as in :mod:`fltheory.papers.committee.model`: dQ/dt, dR/dt = rhs(Q, R, T) at step η.

Symmetric plateau. When every student has the same second-layer weight, every teacher the
same, and T is invariant under permuting the teachers (T = τ I + τ'(11ᵀ − I); T = I by
default), the subspace Q = (q − c) I + c 11ᵀ, R = r 11ᵀ is invariant under the flow (the right
side commutes with permutations of students and of teachers; checked numerically at the start
point, DomainError if not). On it the ODEs reduce to three equations F(q, c, r) = 0 (two when
K = 1). The root is found from the end of a long integration of the reduced system (from
q = ½ tr T/M, c = 0, r = 0, unless a guess is given; through the compiled flat right side when
numba and ``flat_rhs`` exist, else the numpy one; all spans together within half the analysis
time bound, a DomainError naming that budget beyond it) and polished by Newton's method on F
(central-difference Jacobian) of the numpy right side; it is then checked to be a fixed point
of the FULL right side (max |rhs| <= 1e-10 · scale, else DomainError).

The same root to ``dps`` digits (:func:`plateau_digits`): mpmath's findroot on the sympy
equations of ``model.equations`` restricted to the subspace (T = I) — the symbolic
averages, a second evaluation path (sympy's own solve is not attempted: for erf the equations
are transcendental; for g = x² the quadratic module's exact root is the reference).

Jacobian. The linearisation of the full ODE in the coordinates (Q_ij, i <= j; R_km) — K(K+1)/2
+ K M numbers, Q kept symmetric — by central differences with one Richardson extrapolation
(steps 1e-4 and 5e-5: truncation O(h⁴), round-off ≈ 1e-11 relative). Its eigenvalues with
positive real part are the unstable directions (returned as (dQ, dR) pairs); the largest is the
escape rate from the plateau (growth per unit t = steps/N). At the specialised fixed point the
slowest non-zero decay −max Re λ is the convergence rate; eigenvalues with |λ| <= 1e-7·scale
count as zero modes (symmetries such as the rotations of x² networks).

Largest step (K = M = 1, σ = 0, no weight decay, Q = R = T fixed point). The right side is
η F1 + η² F2, so the Jacobian there is η(J1 + η J2): stability is lost at the smallest η > 0
where det(J1 + η J2) = 0 (a real eigenvalue through 0; a quadratic in η) or tr(J1 + η J2) = 0
with a positive determinant (a complex pair). For g = erf(x/√2) and T = 1, from Saad–Solla's
closed forms (rows dQ, dR; columns Q, R)

.. math::

    J_1 = \frac{1}{\sqrt3\,\pi}\begin{pmatrix} -2 & 8/3 \\ 1 & -8/3 \end{pmatrix}, \qquad
    J_2 = \frac{4\sqrt5}{5\pi^2}\begin{pmatrix} 1 & -2 \\ 0 & 0 \end{pmatrix},

    \det(J_1 + \eta J_2) = 0 \text{ at } \eta_{\max} = \pi\sqrt{5/3} \approx 4.0558

(the trace vanishes later, at 7√15π/18). Above it the ODE does not blow up: it settles on a
second fixed point with Q, R > 1 and ε_g > 0 (the transcritical exchange), which is what the
tests check.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import read_count, read_rationals, read_real, read_step
from fltheory.exact import DomainError, check_cost
from fltheory.papers.committee.gaussian import averages
from fltheory.papers.committee.model import (
    check_state,
    eps_g_at,
    generalisation_error,
    rhs_seconds,
    right_side,
)
from fltheory.papers.committee.params import CommitteeModel, read_overlaps

__all__ = ["Convergence", "FixedPoint", "MaxLearningRate", "Plateau", "analysis_seconds",
           "closed_form_eta_max", "convergence_analysis", "convergence_rate",
           "eta_max_of_field", "fixed_point_of_field", "jacobian", "max_learning_rate",
           "max_lr_of_field", "plateau_digits", "plateau_of_field", "same_point",
           "specialised_fixed_point", "symmetric_fixed_points", "symmetric_plateau"]

#: largest K + M for which :func:`plateau_digits` derives the symbolic equations
MAX_SYMBOLIC_FIELDS = 6

Field = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
#: a fixed point must make the full right side smaller than this (times the overlaps' scale)
RESIDUAL_TOL = 1e-10
ZERO_TOL = 1e-7
#: bound on the estimated seconds of one analysis call
ANALYSIS_SECONDS_LIMIT = 60.0

#: largest change of the central-difference Jacobian when the step halves, relative to its
#: largest entry, for the right side to count as differentiable (measured: erf ~1e-8; ReLU at
#: its plateau 1e-7 to 1e-6, from the 1e-9 error of its numerical I4; ReLU at Q = R = T: ~1e140)
JACOBIAN_TOL = 1e-4


@dataclass(frozen=True)
class Plateau:
    """The symmetric plateau Q = (q − c)I + c11ᵀ, R = r11ᵀ from :func:`symmetric_plateau`:
    ``q``, ``c``, ``r`` (floats; c = 0 when K = 1), the full ``Q``, ``R``, ``T``, ``eps_g``,
    ``residual`` (max |rhs| of the full ODE there), the Jacobian ``eigenvalues`` (complex,
    sorted by decreasing real part), ``unstable`` (one (eigenvalue, dQ, dR) per eigenvalue with
    positive real part) and ``escape_rate`` (the largest real part, 0 when none is positive)."""

    K: int
    M: int
    eta: float
    q: float
    c: float
    r: float
    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray
    eps_g: float
    residual: float
    eigenvalues: np.ndarray
    unstable: tuple[tuple[complex, np.ndarray, np.ndarray], ...]
    escape_rate: float
    #: numeric averages only (trapezoid rule): the largest estimated error of each kind of
    #: average at this plateau's covariances, and how much q, c, r, ε_g, the escape rate and
    #: the eigenvalues change when the final Newton and Jacobian are redone with the finer rule
    average_errors: dict[str, float] | None = None
    refined_change: dict[str, float] | None = None


@dataclass(frozen=True)
class FixedPoint:
    """A fixed point (``Q``, ``R``, ``T``) of the full ODE from :func:`specialised_fixed_point`:
    ``eps_g``, ``residual`` (max |rhs| there), Jacobian ``eigenvalues`` (complex, decreasing
    real part), ``zero_modes`` (how many have |λ| <= 1e-7·scale), ``unstable`` (how many have
    Re λ > that) and ``convergence_rate`` = −max Re λ over the non-zero eigenvalues (> 0 when
    the point attracts, up to its zero modes)."""

    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray
    eps_g: float
    residual: float
    eigenvalues: np.ndarray
    zero_modes: int
    unstable: int
    convergence_rate: float


@dataclass(frozen=True)
class MaxLearningRate:
    """The largest stable step of the K = M = 1 fixed point Q = R = T (:func:`max_learning_rate`):
    ``eta_max`` (float), ``kind`` ("real": an eigenvalue through 0; "complex": a pair through the
    imaginary axis), ``J1``, ``J2`` (Jacobian = η J1 + η² J2 in (Q, R)); ``method``
    ("quadratic": K = M = 1, the roots of det/trace; "bisection": K = M >= 2, the top real part
    of the spectrum), ``rel_error`` (the relative change of η_max when J1, J2 are redone with
    twice the difference step: the error estimate behind the printed digits; None when not
    estimated) and ``zero_modes`` (the directions null for every η, left out)."""

    eta_max: float
    kind: str
    J1: np.ndarray
    J2: np.ndarray
    method: str = "quadratic"
    rel_error: float | None = None
    zero_modes: int = 0


# ----------------------------------------------------------------------------------------------
# the model's right side (committee.model) and the generic engine on a field


def _model_eps(model: CommitteeModel, Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> float:
    return float(generalisation_error(model, Q, R, T))


def _eval_cost(model: CommitteeModel) -> float:
    """Seconds per evaluation of the numpy right side (committee.model's estimate, with a
    floor for the call's overhead)."""
    return max(1e-4, float(rhs_seconds(model)))


def analysis_seconds(model: CommitteeModel, extra: int, refine: bool = False) -> float:
    """The estimated seconds of an analysis of ``model`` whose Jacobian and Newton steps take
    ~24 n + ``extra`` evaluations of the numpy right side (n = K(K+1)/2 + KM); with ``refine``
    4 (4 n + 30) more (the finer rule's Newton from the root and Jacobian, at ~4× the cost per
    evaluation). The theory's one estimate of an analysis.

    >>> round(analysis_seconds(CommitteeModel("erf_ss", 2, 2), 200), 4)
    0.0368
    """
    K, M = model.K, model.M
    n = K * (K + 1) // 2 + K * M
    return _eval_cost(model) * (24 * n + extra + (4 * (4 * n + 30) if refine else 0))


def _check_analysis(model: CommitteeModel, extra: int, refine: bool = False) -> float:
    """Refuse (CostError) an analysis whose estimated seconds (:func:`analysis_seconds`)
    exceed ANALYSIS_SECONDS_LIMIT; return the seconds per evaluation."""
    check_cost(f"K = {model.K}, M = {model.M}, g = {model.g} (fixed-point analysis)",
               analysis_seconds(model, extra, refine), ANALYSIS_SECONDS_LIMIT,
               "seconds (estimated)", "fewer units or an activation with closed-form averages")
    return _eval_cost(model)


def _teacher(T: Any, M: int) -> np.ndarray:
    T = np.eye(M) if T is None else read_overlaps(T, "T", (M, M))
    if not np.allclose(T, T.T, rtol=0, atol=1e-12) or np.linalg.eigvalsh(T).min() < -1e-12:
        raise DomainError("T", "a matrix that is not symmetric positive semi-definite",
                          "a symmetric PSD teacher overlap T")
    return T


def _need_square(model: CommitteeModel) -> None:
    """The specialised point Q = R = T needs K = M (a DomainError naming K otherwise)."""
    if model.K != model.M:
        raise DomainError("K", model.K, "K = M (the specialised fixed point Q = R = T needs as "
                          "many students as teachers)", reason=f"with M = {model.M}")


def _symmetric(x: np.ndarray, K: int, M: int) -> tuple[np.ndarray, np.ndarray]:
    """Q = (q − c) I + c 11ᵀ (its diagonal computed as (q − c) + c), R = r 11ᵀ."""
    q, c, r = (x[0], x[1], x[2]) if K > 1 else (x[0], 0.0, x[1])
    Q = np.full((K, K), c)
    np.fill_diagonal(Q, (q - c) + c)
    return Q, np.full((K, M), r)


def _reduce(dQ: np.ndarray, dR: np.ndarray, K: int) -> np.ndarray:
    """(mean diagonal, mean off-diagonal, mean R) of the right side; the means as sums over
    counts (np.mean's arithmetic, without its overhead: the settle calls this hundreds of
    times)."""
    diag = float(np.diag(dQ).sum())
    d, dr = diag / K, float(dR.sum()) / dR.size
    if K == 1:
        return np.array([d, dr])
    return np.array([d, (float(dQ.sum()) - diag) / (K * (K - 1)), dr])


def _check_invariant(field: Field, x: np.ndarray, K: int, M: int, T: np.ndarray) -> None:
    """The symmetric subspace must be invariant: rhs at a symmetric point is symmetric."""
    Q, R = _symmetric(x, K, M)
    dQ, dR = field(Q, R, T)
    Qs, Rs = _symmetric(_reduce(dQ, dR, K), K, M)
    scale = 1.0 + float(np.abs(dQ).max() + np.abs(dR).max())
    if max(float(np.abs(dQ - Qs).max()), float(np.abs(dR - Rs).max())) > 1e-10 * scale:
        raise DomainError("model", "a model without student/teacher permutation symmetry",
                          "equal second-layer weights a_k, equal a*_m and T = τI + τ'(11ᵀ − I)"
                          " (the symmetric plateau needs them)")


def _full_residual(field: Field, Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> float:
    dQ, dR = field(Q, R, T)
    return max(float(np.abs(dQ).max()), float(np.abs(dR).max()))


def _newton(F: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, tol: float = 1e-14,
            max_iter: int = 50) -> np.ndarray:
    """Newton's method with a central-difference Jacobian and least-squares steps (a manifold
    of roots is allowed: the step goes to the nearest point, to first order)."""
    x = np.array(x0, dtype=float)
    fx = F(x)
    for _ in range(max_iter):
        if float(np.abs(fx).max()) <= tol:
            break
        h = 1e-7 * np.maximum(1.0, np.abs(x))
        J = np.column_stack([(F(x + h[i] * e) - F(x - h[i] * e)) / (2 * h[i])
                             for i, e in enumerate(np.eye(len(x)))])
        step = np.linalg.lstsq(J, -fx, rcond=1e-12)[0]
        x_new = x + step
        f_new = F(x_new)
        if not np.isfinite(f_new).all() or np.abs(f_new).max() >= np.abs(fx).max():
            if np.abs(step).max() <= 1e-15 * max(1.0, float(np.abs(x).max())):
                break
            x_new = x + 0.5 * step  # damped
            f_new = F(x_new)
            if not np.isfinite(f_new).all() or np.abs(f_new).max() >= np.abs(fx).max():
                break
        x, fx = x_new, f_new
    return x


def _coords(K: int, M: int) -> tuple[tuple[np.ndarray, np.ndarray], int]:
    iu = np.triu_indices(K)
    return iu, len(iu[0]) + K * M


def _pack(Q: np.ndarray, R: np.ndarray, iu: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return np.concatenate([Q[iu], R.ravel()])


def _unpack(v: np.ndarray, K: int, M: int, iu: tuple[np.ndarray, np.ndarray]
            ) -> tuple[np.ndarray, np.ndarray]:
    n = len(iu[0])
    Q = np.zeros((K, K))
    Q[iu] = v[:n]
    Q = Q + Q.T - np.diag(np.diag(Q))
    return Q, v[n:].reshape(K, M)


def _jacobian(field: Field, Q: np.ndarray, R: np.ndarray, T: np.ndarray,
              step: float = 1e-4) -> np.ndarray:
    K, M = R.shape
    iu, n = _coords(K, M)
    x0 = _pack(Q, R, iu)

    def F(v: np.ndarray) -> np.ndarray:
        dQ, dR = field(*_unpack(v, K, M, iu), T)
        return _pack(0.5 * (dQ + dQ.T), dR, iu)

    flat = getattr(field, "flat", None)
    if flat is not None:  # the same numbers as F above, without its per-call conversions
        loops, rest = flat
        Ts = np.ascontiguousarray(0.5 * (T + T.T))
        m = len(iu[0])
        where = np.zeros((K, K), dtype=int)
        where[iu] = np.arange(m)
        where = np.maximum(where, where.T)  # Q_ki = Q_ik: coordinate of (min, max)
        src = np.concatenate([where.ravel(), m + np.arange(K * M)])
        upper, lower = iu[0] * K + iu[1], iu[1] * K + iu[0]

        def F(v: np.ndarray) -> np.ndarray:  # the fast twin
            dy = loops(v[src], K, M, Ts, *rest)
            return np.concatenate([0.5 * (dy[upper] + dy[lower]), dy[K * K:]])

    def central(h: float) -> np.ndarray:
        return np.column_stack([(F(x0 + h * e) - F(x0 - h * e)) / (2 * h) for e in np.eye(n)])

    h = step * max(1.0, float(np.abs(x0).max()))
    with np.errstate(all="ignore"):
        J1, J2 = central(h), central(h / 2)
    size = max(1.0, float(np.abs(J2).max())) if np.isfinite(J2).all() else np.inf
    # a differentiable right side: halving h changes a central difference by O(h²) (~1e-8 of
    # the entries here); a non-differentiable one (ReLU's √(1 − ρ²) branch where the joint
    # covariance is singular, e.g. at Q = R = T) does not settle, or leaves the finite numbers
    if not (np.isfinite(J1).all() and size < np.inf
            and float(np.abs(J1 - J2).max()) <= JACOBIAN_TOL * size):
        raise DomainError("state", "this fixed point", "points where the right side is "
                          "differentiable", reason="has no Jacobian: its central differences "
                          "do not converge as the step halves (a singular joint covariance "
                          "with a non-smooth g, e.g. ReLU at Q = R = T)")
    return (4 * J2 - J1) / 3


def _spectrum(J: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from threadpoolctl import threadpool_limits

    # one BLAS thread: J is at most a few hundred wide, and waking OpenBLAS's threads for the
    # first LAPACK call of a process cost ~0.6 s at K = 10, M = 5 (measured, shared 2 cores)
    with threadpool_limits(limits=1, user_api="blas"):
        w, V = np.linalg.eig(J)
    order = np.argsort(-w.real, kind="stable")
    return w[order], V[:, order]


#: Newton's residual on the reduced equations accepted as a root when settling (relative to
#: the state's scale): well inside RESIDUAL_TOL, above the ~1e-12 floor of the relu I4 sums
SETTLE_TOL = 1e-11


#: the reduced flow reaching ε_g below this fraction of its start's ε_g (where Newton finds no
#: root) is converging to a zero-error point of the symmetric subspace, not to a plateau
ZERO_ERROR_FRACTION = 1e-4


def _settle(F: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, eta: float,
            budget: int = 100_000, per_eval: float | None = None,
            eps_of: Callable[[np.ndarray], float] | None = None) -> np.ndarray:
    """A root of the reduced (symmetric) equations F(x) = 0: integrate the reduced flow from
    x0 in spans 50/η, 100/η, ... until Newton's method from the end point converges to
    max |F| <= SETTLE_TOL · scale (the plateau is attracting within the subspace, but slowly:
    at η = 1/10, K = M = 2 its slowest rate there is ~7e-5, so Newton finishes what the flow
    starts). ``budget``: right-side evaluations of all spans together (the analysis time
    bound divided by ``per_eval`` seconds per evaluation); a DomainError saying so beyond it.
    ``eps_of``: ε_g of a reduced state; when the flow's ε_g falls below
    :data:`ZERO_ERROR_FRACTION` of the start's and Newton finds no root, the flow converges to
    a zero-error point of the subspace (e.g. relu, K = 2, M = 1: both students w*/2, reached
    as a power law): a DomainError saying so, with the point, instead of spending the budget."""
    from fltheory.engine import odes
    from fltheory.papers.committee import ode

    x = np.array(x0, dtype=float)
    span, used, t_done = 50.0 / eta, 0, 0.0
    e0 = eps_of(x) if eps_of is not None else math.nan
    for _ in range(10):
        left = max(budget - used, 1)
        # the plain-Python DOP853 loop (the compiled integrator's code): a 3-dim flow costs
        # about what scipy's solve_ivp does, without importing scipy.integrate (~0.3–1 s)
        y_max = 1e8 * max(1.0, float(np.abs(x).max(initial=0.0)))
        with np.errstate(all="ignore"):
            Y, nfev, status, t_end = odes.dop853_loop(
                F, x, np.array([0.0, span]), 1e-8, 1e-11, left // odes.STAGES + 1, y_max,
                *odes.tableau())
        if status in (2, 3):
            raise ode.CommitteeDivergence(eta, float(t_end), None,
                                          "leaves every bounded region" if status == 3
                                          else "needs a vanishing step size")
        if status == 1:
            cost = "" if per_eval is None else (
                f" (≈ {budget * per_eval:.3g} s at {1e3 * per_eval:.2g} ms each, the analysis "
                f"time bound of {ANALYSIS_SECONDS_LIMIT:g} s)")
            raise DomainError(
                "eta", eta, "steps at which the symmetric plateau is located within the "
                "analysis time bound (or give a guess (q, c, r) near the plateau)",
                reason=f"needs a settling integration of the reduced (q, c, r) flow longer "
                f"than its budget of {budget} right-side evaluations{cost}: Newton's method "
                f"had not converged after t = {t_done:.4g}") from None
        used += int(nfev)
        t_done += span
        x = Y[-1]
        root = _newton(F, x)
        if float(np.abs(F(root)).max()) <= SETTLE_TOL * max(1.0, float(np.abs(root).max())):
            return root
        e = eps_of(x) if eps_of is not None else math.nan
        if e0 > 0 and e <= ZERO_ERROR_FRACTION * e0:
            point = ", ".join(f"{k} = {v:.6f}" for k, v in zip(
                ("q", "c", "r") if len(x) == 3 else ("q", "r"), x, strict=True))
            raise DomainError(
                "eta", eta, "models whose symmetric subspace holds a plateau",
                reason=f"leads the reduced (symmetric) flow from ε_g = {e0:.4g} to ε_g = "
                f"{e:.2g} by t = {t_done:.4g}, still falling, with no root nearby: it converges "
                f"to a zero-error point of the symmetric subspace ({point}), so there is no "
                "plateau there")
        span *= 2
    return x


def plateau_of_field(field: Field, K: int, M: int, T: np.ndarray, eta: float,
                     eps: Callable[[np.ndarray, np.ndarray], float],
                     guess: Any = None, budget: int = 100_000,
                     reduced: Callable[[np.ndarray], np.ndarray] | None = None,
                     per_eval: float | None = None) -> Plateau:
    """:func:`symmetric_plateau` for a given right side ``field`` (the engine; see there).

    >>> f = lambda Q, R, T: (-(Q - np.eye(1)), -(R - 0.5))  # a toy flow with fixed point (1, .5)
    >>> p = plateau_of_field(f, 1, 1, np.eye(1), 1.0, lambda Q, R: 0.0)
    >>> round(p.q, 12), round(p.r, 12), p.escape_rate
    (1.0, 0.5, 0.0)
    """
    tr = float(np.trace(T)) / M
    x0 = (np.array([0.5 * tr, 0.0, 0.0]) if K > 1 else np.array([0.5 * tr, 0.0]))
    if guess is not None:
        try:
            x0 = np.asarray(guess, dtype=float)
        except (TypeError, ValueError):
            x0 = np.empty(0)
        if x0.shape != (3 if K > 1 else 2,) or not np.isfinite(x0).all():
            raise DomainError("guess", str(guess)[:40], "(q, c, r) finite ((q, r) when K = 1)")
    _check_invariant(field, x0, K, M, T)

    def F(x: np.ndarray) -> np.ndarray:
        return _reduce(*field(*_symmetric(x, K, M), T), K)

    if guess is None:
        x0 = _settle(F if reduced is None else reduced, x0, eta, budget, per_eval,
                     lambda x: eps(*_symmetric(x, K, M)))
    x = _newton(F, x0)
    Q, R = _symmetric(x, K, M)
    residual = _full_residual(field, Q, R, T)
    scale = max(1.0, float(np.abs(Q).max()), float(np.abs(T).max()))
    if not residual <= RESIDUAL_TOL * scale:
        raise DomainError("guess", "the symmetric start" if guess is None else str(guess)[:40],
                          "starts from which Newton's method reaches the plateau",
                          reason=f"leaves a residual max|rhs| = {residual:.3g}")
    w, V = _spectrum(_jacobian(field, Q, R, T))
    iu, _ = _coords(K, M)
    tol = ZERO_TOL * max(1.0, float(np.abs(w).max(initial=0.0)))
    unstable = tuple((complex(w[i]), *_unpack(V[:, i].real, K, M, iu))
                     for i in range(len(w)) if w[i].real > tol)
    q, c, r = (x[0], x[1], x[2]) if K > 1 else (x[0], 0.0, x[1])
    return Plateau(K, M, eta, float(q), float(c), float(r), Q, R, T, float(eps(Q, R)), residual,
                   w, unstable, max(0.0, float(w[0].real)) if len(unstable) else 0.0)


def symmetric_plateau(model: CommitteeModel, eta: Any, T: Any = None, guess: Any = None
                      ) -> Plateau:
    """The unspecialised plateau of ``model`` at step η: the fixed point of the full ODE with
    Q_kk = q, Q_kl = c, R_km = r, its ε_g, the Jacobian's eigenvalues there, the unstable
    directions and the escape rate (module docstring: root of the reduced equations from a
    long reduced integration or from ``guess`` = (q, c, r), polished by Newton; float64, the
    full right side's residual <= 1e-10 checked).

    Parameters: η > 0; T (M × M, default I) of the form τI + τ'(11ᵀ − I); the model's
    second-layer weights equal within students and within teachers; ``guess`` (q, c, r) as
    numbers or text "q,c,r" ((q, r) when K = 1). Returns a :class:`Plateau` (floats).
    DomainError on bad input or when no plateau is reached.

    >>> p = symmetric_plateau(CommitteeModel("erf_ss", 2, 2), "1/10")
    >>> round(p.r, 4), len(p.unstable), round(p.escape_rate, 5)
    (0.4092, 1, 0.00653)
    """
    K, M = model.K, model.M
    eta_q = read_step(eta, "eta")  # read once: every right side below takes it as read
    eta_f = float(eta_q)
    T = _teacher(T, M)
    if isinstance(guess, str):
        guess = [float(v) for v in read_rationals(guess, "guess", most=3)]
    kind = averages(model.g).kind
    numeric = kind in ("cubature", "mixture")  # approximate averages: errors stated
    # a numeric-average model also redoes Newton and the Jacobian with the finer rule
    # (measured ~4× the cost per evaluation): ~4 (4 n + 30) more evaluations' worth
    per_eval = _check_analysis(model, 200, refine=numeric)
    reduced, settle_cost = _compiled_reduced(model, eta_q, T, K, M)
    if kind == "cubature":  # settle with a coarse rule: only a start for Newton
        reduced, settle_cost = _coarse_reduced(model, eta_q, T, K, M), per_eval / 6
    per_settle = per_eval if reduced is None else settle_cost
    # settling: all spans together within half the analysis time bound (then a DomainError)
    budget = int(max(200, min(10**6, 0.5 * ANALYSIS_SECONDS_LIMIT / per_settle)))
    p = plateau_of_field(right_side(model, eta_q), K, M, T, eta_f,
                         lambda Q, R: _model_eps(model, Q, R, T), guess, budget,
                         reduced, per_settle)
    return _refine(model, eta_q, p) if numeric else p


#: the search for every symmetric fixed point: Newton from a grid of admissible starts (q in
#: units of τ = tr T/M; c as a fraction of q from −1/(K − 1) to 1; r as a fraction of the
#: largest admissible r), at most SEARCH_ITER iterations each (~7 evaluations per iteration)
SEARCH_Q = (0.1, 0.3, 0.6, 1.0, 2.0, 4.0)
SEARCH_C = (-0.9, 0.0, 0.5, 0.9, 1.0)
SEARCH_R = (0.05, 0.5, 0.9)
SEARCH_ITER = 30
#: the most roots polished and analysed (a bound on the work; more would be reported as such)
MAX_POINTS = 8


def _search_starts(K: int, M: int, tau: float) -> list[np.ndarray]:
    """The starts of :func:`symmetric_fixed_points`: every (q, c, r) of the grid with a positive
    semi-definite joint covariance (c >= −q/(K − 1), r² <= τ (q + (K − 1) c)/(K M))."""
    out = []
    for fq in SEARCH_Q:
        q = fq * tau
        for fc in (SEARCH_C if K > 1 else (0.0,)):
            c = fc * q / (K - 1) if fc < 0 else fc * q
            top = q + (K - 1) * c
            if top < 0:
                continue
            r_max = math.sqrt(tau * top / (K * M))
            for fr in SEARCH_R:
                out.append(np.array([q, c, fr * r_max] if K > 1 else [q, fr * r_max]))
    return out


def symmetric_fixed_points(model: CommitteeModel, eta: Any, T: Any = None) -> tuple[Plateau, ...]:
    """Every symmetric fixed point Q = (q − c)I + c11ᵀ, R = r11ᵀ of ``model``'s ODE at step η
    that Newton's method on the reduced equations finds from a grid of admissible starts
    (:data:`SEARCH_Q` × :data:`SEARCH_C` × :data:`SEARCH_R` in units of τ = tr T/M; a root is
    kept when the FULL right side vanishes there to 1e-10 · scale and the joint covariance is
    positive semi-definite, roots within 1e-7 · scale merged), each with the full Jacobian's
    spectrum (its stability: ``unstable`` directions, ``escape_rate``), ordered by ε_g. A grid
    search, not a proof that no other root exists; the number of starts is stated by the
    callers. Same parameters as :func:`symmetric_plateau` (no guess). At K = M = 3, η = 7/10
    (erf_ss) there are two: q ≠ c (the plateau the symmetric flow reaches) and q = c (every
    student the same vector).

    >>> pts = symmetric_fixed_points(CommitteeModel("erf_ss", 3, 3), "7/10")
    >>> [(round(p.q, 6), round(p.c, 6), round(p.r, 6)) for p in pts]
    [(0.389693, 0.17, 0.279237), (0.216276, 0.216276, 0.262125)]
    """
    K, M = model.K, model.M
    eta_q = read_step(eta, "eta")
    T = _teacher(T, M)
    tau = float(np.trace(T)) / M
    starts = _search_starts(K, M, tau)
    reduced, per_reduced = _compiled_reduced(model, eta_q, T, K, M)
    # Newton from every start (at most SEARCH_ITER iterations of 2·3 + 1 reduced evaluations)
    # and, for at most MAX_POINTS roots, the polish and the Jacobian of an analysis
    per = per_reduced if reduced is not None else _eval_cost(model)
    n = K * (K + 1) // 2 + K * M
    check_cost(f"K = {K}, M = {M}, g = {model.g} (every symmetric fixed point)",
               per * (len(starts) * SEARCH_ITER * 7 + MAX_POINTS * (28 * n + 50)),
               ANALYSIS_SECONDS_LIMIT, "seconds (estimated)",
               "fewer units or an activation with closed-form averages")
    field = right_side(model, eta_q)
    _check_invariant(field, starts[0], K, M, T)

    def F(x: np.ndarray) -> np.ndarray:
        return _reduce(*field(*_symmetric(x, K, M), T), K)

    G = F if reduced is None else reduced
    roots: list[np.ndarray] = []
    for x in starts:
        with np.errstate(all="ignore"):
            try:
                root = _newton(G, x, max_iter=SEARCH_ITER)
                value = G(root)
            except (DomainError, np.linalg.LinAlgError, ValueError):
                continue
        scale = max(1.0, float(np.abs(root).max()))
        if not (np.isfinite(value).all()
                and float(np.abs(value).max()) <= SETTLE_TOL * scale):
            continue
        if not _admissible(root, K, M, T):
            continue
        if any(float(np.abs(root - y).max()) <= 1e-7 * scale for y in roots):
            continue
        roots.append(root)
    eta_f = float(eta_q)
    points: list[Plateau] = []
    for root in roots[:MAX_POINTS]:
        try:
            p = plateau_of_field(field, K, M, T, eta_f, lambda Q, R: _model_eps(model, Q, R, T),
                                 guess=root)
        except DomainError:  # a root of the reduced equations only, or not differentiable
            continue
        x = np.array([p.q, p.c, p.r] if K > 1 else [p.q, p.r])
        if not any(float(np.abs(x - np.array([o.q, o.c, o.r] if K > 1 else [o.q, o.r])).max())
                   <= 1e-7 * max(1.0, float(np.abs(x).max())) for o in points):
            points.append(p)
    return tuple(sorted(points, key=lambda p: (p.eps_g, p.q)))


def _admissible(x: np.ndarray, K: int, M: int, T: np.ndarray) -> bool:
    """Whether the symmetric state ``x`` has a positive semi-definite joint covariance (to
    1e-10 relative)."""
    Q, R = _symmetric(x, K, M)
    C = np.block([[Q, R], [R.T, T]])
    if not np.isfinite(C).all():
        return False
    w = np.linalg.eigvalsh(C)
    return bool(w.min() >= -1e-10 * max(1.0, float(np.abs(w).max())))


def same_point(a: Plateau, b: Plateau, tol: float = 1e-7) -> bool:
    """Whether two symmetric fixed points are the same (q, c, r within ``tol`` · scale).

    >>> pts = symmetric_fixed_points(CommitteeModel("erf_ss", 3, 3), "7/10")
    >>> same_point(pts[0], symmetric_plateau(CommitteeModel("erf_ss", 3, 3), "7/10"))
    True
    """
    x, y = np.array([a.q, a.c, a.r]), np.array([b.q, b.c, b.r])
    return bool(float(np.abs(x - y).max()) <= tol * max(1.0, float(np.abs(x).max())))


def _refine(model: CommitteeModel, eta: Fraction, p: Plateau) -> Plateau:
    """The plateau of a numeric-average model with its error stated: the estimated error of
    each kind of average at the plateau's covariances, and the changes of the results when
    the final Newton and Jacobian are redone with the finer rule (a perturbation estimate of
    the digits that the averages' error leaves meaningful)."""
    import dataclasses

    from fltheory.papers.committee.model import average_errors

    errors = average_errors(model, p.Q, p.R, p.T)
    fine = averages(model.g).refined()
    guess = (p.q, p.c, p.r) if p.K > 1 else (p.q, p.r)
    try:
        f = plateau_of_field(right_side(model, eta, av=fine), p.K, p.M, p.T, p.eta,
                             lambda Q, R: eps_g_at(model, *check_state(Q, R, p.T, model),
                                                   av=fine), guess)
    except DomainError:  # e.g. a Newton step off the PSD cone: the change stays unknown
        return dataclasses.replace(p, average_errors=errors)
    n = min(len(f.eigenvalues), len(p.eigenvalues))
    change = {"q": abs(f.q - p.q), "c": abs(f.c - p.c), "r": abs(f.r - p.r),
              "eps_g": abs(f.eps_g - p.eps_g), "escape_rate": abs(f.escape_rate - p.escape_rate),
              "eigenvalues": float(np.abs(f.eigenvalues[:n] - p.eigenvalues[:n]).max(initial=0))}
    return dataclasses.replace(p, average_errors=errors, refined_change=change)


def _coarse_reduced(model: CommitteeModel, eta: Fraction, T: np.ndarray, K: int, M: int
                    ) -> Callable[[np.ndarray], np.ndarray]:
    """The reduced right side with the averages' coarse trapezoid rule (numeric averages;
    measured ~6× cheaper than the standard rule at K = M = 2): its root starts Newton."""
    from fltheory.papers.committee import _trapezoid as trap

    field = right_side(model, eta, av=averages(model.g).with_rule(trap.COARSE))

    def reduced(x: np.ndarray) -> np.ndarray:
        return _reduce(*field(*_symmetric(x, K, M), T), K)

    return reduced


def _compiled_reduced(model: CommitteeModel, eta: Fraction, T: np.ndarray, K: int, M: int
                      ) -> tuple[Callable[[np.ndarray], np.ndarray] | None, float]:
    """The reduced right side (q, c, r) -> (dq, dc, dr) through the model's compiled flat
    right side (g erf, relu, a polynomial or an erf mixture, compiled: C for erf, else numba),
    and its estimated seconds per evaluation; (None, 0) otherwise (the numpy right side
    settles then)."""
    from fltheory.papers.committee._compiled import available
    from fltheory.papers.committee.model import build_flat

    if not available(averages(model.g).kind):
        return None, 0.0
    f = build_flat(model, eta, T, checked=True)  # η as read by the caller
    if f is None:
        return None, 0.0
    check_state(np.eye(K), np.zeros((K, M)), T, model)  # T as the model accepts it
    from fltheory.papers.committee._flat import cost

    per_eval = float(cost(model))

    def reduced(x: np.ndarray) -> np.ndarray:
        Q, R = _symmetric(x, K, M)
        dy = f(np.concatenate([Q.ravel(), R.ravel()]))
        return _reduce(dy[:K * K].reshape(K, K), dy[K * K:].reshape(K, M), K)

    return reduced, max(per_eval, 2e-5)


def jacobian(model: CommitteeModel, eta: Any, Q: Any, R: Any, T: Any = None) -> np.ndarray:
    """The Jacobian of the full ODE at (Q, R) in the coordinates (Q_ij for i <= j, row-major;
    then R row-major): K(K+1)/2 + K M square, central differences with one Richardson step
    (module docstring; about 1e-10 absolute for O(1) overlaps). Floats.

    >>> jacobian(CommitteeModel("erf_ss", 1, 1), 1, [[1.0]], [[1.0]]).shape
    (2, 2)
    """
    K, M = model.K, model.M
    T = _teacher(T, M)
    Q, R = read_overlaps(Q, "Q", (K, K)), read_overlaps(R, "R", (K, M))
    check_state(Q, R, T)
    _check_analysis(model, 0)
    return _jacobian(right_side(model, read_step(eta, "eta")), Q, R, T)


def fixed_point_of_field(field: Field, Q0: np.ndarray, R0: np.ndarray, T: np.ndarray,
                         eps: Callable[[np.ndarray, np.ndarray], float]) -> FixedPoint:
    """:func:`specialised_fixed_point` for a given right side (the engine): Newton
    (least-squares steps) on the full state from (Q0, R0), then the spectrum.

    >>> f = lambda Q, R, T: (-(Q - np.eye(1)), -2 * (R - 1))
    >>> fp = fixed_point_of_field(f, np.eye(1), np.ones((1, 1)), np.eye(1), lambda Q, R: 0.0)
    >>> round(fp.convergence_rate, 8), fp.zero_modes
    (1.0, 0)
    """
    K, M = R0.shape
    iu, _ = _coords(K, M)

    def F(v: np.ndarray) -> np.ndarray:
        dQ, dR = field(*_unpack(v, K, M, iu), T)
        return _pack(0.5 * (dQ + dQ.T), dR, iu)

    v = _newton(F, _pack(0.5 * (Q0 + Q0.T), R0, iu))
    Q, R = _unpack(v, K, M, iu)
    residual = _full_residual(field, Q, R, T)
    scale = max(1.0, float(np.abs(Q).max()), float(np.abs(T).max()))
    if not residual <= RESIDUAL_TOL * scale:
        raise DomainError("guess", "the given start", "starts from which Newton's method "
                          "reaches a fixed point", reason=f"leaves max|rhs| = {residual:.3g}")
    w, _ = _spectrum(_jacobian(field, Q, R, T))
    tol = ZERO_TOL * max(1.0, float(np.abs(w).max(initial=0.0)))
    zero = np.abs(w) <= tol
    nonzero = w[~zero]
    rate = -float(nonzero.real.max()) if len(nonzero) else 0.0
    return FixedPoint(Q, R, T, float(eps(Q, R)), residual, w, int(zero.sum()),
                      int(np.sum(w.real > tol)), rate)


def specialised_fixed_point(model: CommitteeModel, eta: Any, T: Any = None, guess: Any = None
                            ) -> FixedPoint:
    """The specialised fixed point of ``model`` at step η and its convergence rate: Newton on
    the full state from ``guess`` = (Q, R) — default Q = R = T (each student on its teacher;
    K = M needed then) —, then the Jacobian's spectrum (module docstring). For a realisable
    noiseless model (K = M, equal weights a_k = a*_m) it is Q = R = T with ε_g = 0.

    Parameters: η > 0; T (M × M, default I) PSD; ``guess`` a pair (Q0, R0) forming a PSD state
    with T. Returns a :class:`FixedPoint` (floats; residual <= 1e-10 checked).

    >>> fp = specialised_fixed_point(CommitteeModel("erf_ss", 2, 2), 1)
    >>> fp.eps_g, fp.unstable, round(fp.convergence_rate, 5)
    (0.0, 0, 0.04418)
    """
    return _specialised(model, read_step(eta, "eta"), T, guess)


def _specialised(model: CommitteeModel, eta: Fraction, T: Any, guess: Any) -> FixedPoint:
    """:func:`specialised_fixed_point` at a step already read."""
    K, M = model.K, model.M
    T = _teacher(T, M)
    if guess is None:
        if K != M:
            raise DomainError("guess", "None", "a start (Q0, R0) when K != M (the default "
                              "Q = R = T needs K = M)")
        Q0, R0 = T.copy(), T.copy()
    else:
        try:
            Qg, Rg = guess
        except (TypeError, ValueError):
            raise DomainError("guess", str(guess)[:40], "a pair (Q0, R0)") from None
        Q0, R0 = read_overlaps(Qg, "Q0", (K, K)), read_overlaps(Rg, "R0", (K, M))
    check_state(Q0, R0, T)
    _check_analysis(model, 0)
    field = right_side(model, eta)
    return fixed_point_of_field(field, Q0, R0, T,
                                lambda Q, R: _model_eps(model, Q, R, T))


def convergence_rate(model: CommitteeModel, eta: Any, T: Any = None, guess: Any = None
                     ) -> float:
    """The asymptotic convergence rate at the specialised fixed point (−max Re λ over the
    Jacobian's non-zero eigenvalues, per unit t = steps/N; :func:`specialised_fixed_point`).
    A float; negative when the point repels.

    >>> round(convergence_rate(CommitteeModel("erf_ss", 1, 1), 1), 6)
    0.122518
    """
    return specialised_fixed_point(model, eta, T, guess).convergence_rate


def max_lr_of_field(field_at: Callable[[float], Field], T: float) -> MaxLearningRate:
    """:func:`max_learning_rate` for a right side ``field_at(η)`` of a K = M = 1 model whose
    Q = R = T point is fixed for every η (the engine: module docstring).

    >>> f = lambda e: (lambda Q, R, T: (-e * (Q - T) + e * e * (Q - R), -e * (R - T)))
    >>> round(max_lr_of_field(f, 1.0).eta_max, 10)
    1.0
    """
    Q = np.full((1, 1), T)
    R = np.full((1, 1), T)
    Tm = np.full((1, 1), T)
    for e in (1.0, 2.0):
        res = _full_residual(field_at(e), Q, R, Tm)
        if not res <= RESIDUAL_TOL * max(1.0, abs(T)):
            raise DomainError("model", "a model whose Q = R = T point is not fixed "
                              f"(max|rhs| = {res:.3g} at eta = {e:g})",
                              "a realisable noiseless K = M = 1 model (a = a*, noise 0, "
                              "no weight decay)")
    Ja, Jb = (_jacobian(field_at(e), Q, R, Tm) for e in (1.0, 2.0))
    J2 = (Jb - 2 * Ja) / 2  # J(η) = η J1 + η² J2
    J1 = Ja - J2
    # det(J1 + η J2) = d0 + d1 η + d2 η²
    d0 = float(np.linalg.det(J1))
    d2 = float(np.linalg.det(J2))
    d1 = float(J1[0, 0] * J2[1, 1] + J2[0, 0] * J1[1, 1] - J1[0, 1] * J2[1, 0]
               - J2[0, 1] * J1[1, 0])
    candidates: list[tuple[float, str]] = []
    roots = np.roots([d2, d1, d0]) if abs(d2) > 1e-14 else (
        np.array([-d0 / d1]) if abs(d1) > 1e-14 else np.array([]))
    candidates += [(float(z.real), "real") for z in np.atleast_1d(roots)
                   if abs(z.imag) <= 1e-12 * max(1.0, abs(z)) and z.real > 1e-12]
    t1, t2 = float(np.trace(J1)), float(np.trace(J2))
    if abs(t2) > 1e-14 and -t1 / t2 > 0:
        eta_h = -t1 / t2
        if d0 + d1 * eta_h + d2 * eta_h**2 > 0:
            candidates.append((eta_h, "complex"))
    if not candidates:
        raise DomainError("model", "a model stable at every step",
                          "a K = M = 1 model with a finite largest stable step")
    eta_max, kind = min(candidates)
    return MaxLearningRate(eta_max, kind, J1, J2)


#: the η grid of :func:`eta_max_of_field`: geometric from ETA_SCAN[0] to ETA_SCAN[1], ratio
#: ETA_SCAN[2]; the first sign change of the top real part on it is bisected
ETA_SCAN = (1e-4, 1e4, 1.05)


def _split(field_at: Callable[[float], Field], Q: np.ndarray, R: np.ndarray, T: np.ndarray,
           step: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """J1, J2 of a right side η F1 + η² F2 at (Q, R): J(η) = η J1 + η² J2 from J(1), J(2)."""
    Ja, Jb = (_jacobian(field_at(e), Q, R, T, step) for e in (1.0, 2.0))
    J2 = (Jb - 2 * Ja) / 2
    return Ja - J2, J2


def _nonzero_block(J1: np.ndarray, J2: np.ndarray) -> tuple[np.ndarray, int]:
    """An orthonormal basis P of the complement of the common null space of J1 and J2 (the
    directions along a manifold of fixed points, e.g. the rotations of x² networks: zero for
    every η), and its dimension. J N = 0 makes J block triangular in (N, P), so the other
    eigenvalues of J1 + ηJ2 are those of Pᵀ(J1 + ηJ2)P."""
    _, s, Vt = np.linalg.svd(np.vstack([J1, J2]))
    scale = max(1.0, float(s.max(initial=0.0)))
    rank = int(np.sum(s > ZERO_TOL * scale))
    return Vt[:rank].T, J1.shape[0] - rank


def _top(J1: np.ndarray, J2: np.ndarray, P: np.ndarray, eta: float) -> complex:
    """The eigenvalue of Pᵀ(J1 + ηJ2)P with the largest real part (J(η)/η on the non-zero
    block: same signs as the Jacobian's)."""
    w = np.linalg.eigvals(P.T @ (J1 + eta * J2) @ P)
    return complex(w[int(np.argmax(w.real))])


def _bisect_eta(J1: np.ndarray, J2: np.ndarray) -> tuple[float, str, int]:
    P, zero = _nonzero_block(J1, J2)
    if P.shape[1] == 0:
        raise DomainError("model", "a model whose Jacobian at Q = R = T vanishes",
                          "a model with a non-degenerate specialised fixed point")
    scale = ZERO_TOL * max(1.0, float(np.abs(J1).max()))
    lo_eta, hi_eta, ratio = ETA_SCAN
    top0 = _top(J1, J2, P, 0.0)
    if top0.real >= -scale:
        raise DomainError("model", "a model whose specialised point is not stable at small η",
                          "a model whose Q = R = T point attracts as η -> 0",
                          reason=f"has max Re λ/η = {top0.real:.3g} as η -> 0")
    grid = lo_eta * ratio ** np.arange(int(np.log(hi_eta / lo_eta) / np.log(ratio)) + 1)
    below = 0.0
    for eta in grid:
        if _top(J1, J2, P, float(eta)).real >= 0:
            lo, hi = below, float(eta)
            break
        below = float(eta)
    else:
        raise DomainError("model", "a model stable at every step up to 1e4",
                          "a model with a finite largest stable step",
                          reason=f"(the top real part stays negative on {lo_eta:g} <= η <= "
                                 f"{hi_eta:g})")
    while hi - lo > 1e-15 * hi:
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if _top(J1, J2, P, mid).real >= 0:
            hi = mid
        else:
            lo = mid
    eta_max = 0.5 * (lo + hi)
    lam = _top(J1, J2, P, eta_max)
    kind = "complex" if abs(lam.imag) > 1e-6 * max(1.0, float(np.abs(J1).max())) else "real"
    return eta_max, kind, zero


def eta_max_of_field(field_at: Callable[[float], Field], T: np.ndarray) -> MaxLearningRate:
    """The largest step at which the fixed point Q = R = T of a K = M right side ``field_at(η)``
    = η F1 + η² F2 is linearly stable, for any K = M (the engine of :func:`max_learning_rate`
    for K = M >= 2). J(η) = η(J1 + ηJ2), with J1, J2 from the central-difference Jacobians at
    η = 1, 2; common null directions of J1 and J2 (fixed-point manifolds) are left out; the top
    real part of the spectrum of J1 + ηJ2 is scanned on a geometric grid (:data:`ETA_SCAN`) and
    its first sign change bisected to 1e-15 relative. The error estimate ``rel_error``: the
    same with J1, J2 redone at twice the difference step (2e-4: a second Richardson pair).

    >>> f = lambda e: (lambda Q, R, T: (-e * (Q - T) + e * e * (Q - R), -e * (R - T)))
    >>> round(eta_max_of_field(f, np.eye(1)).eta_max, 10)
    1.0
    """
    Q, R = T.copy(), T.copy()
    scale = max(1.0, float(np.abs(T).max()))
    for e in (1.0, 2.0):
        res = _full_residual(field_at(e), Q, R, T)
        if not res <= RESIDUAL_TOL * scale:
            raise DomainError("model", "a model whose Q = R = T point is not fixed "
                              f"(max|rhs| = {res:.3g} at eta = {e:g})",
                              "a realisable noiseless K = M model (a = a*, noise 0, "
                              "no weight decay)")
    J1, J2 = _split(field_at, Q, R, T)
    eta_max, kind, zero = _bisect_eta(J1, J2)
    other = _bisect_eta(*_split(field_at, Q, R, T, 2e-4))[0]
    rel = max(abs(other - eta_max) / eta_max, 1e-15)
    return MaxLearningRate(eta_max, kind, J1, J2, "bisection", rel, zero)


def max_learning_rate(model: CommitteeModel, T: Any = 1) -> MaxLearningRate:
    """The largest step η for which the fixed point Q = R = T is linearly stable (module
    docstring): for g = erf(x/√2), K = M = 1, T = 1 it is π√(5/3) ≈ 4.0558 (derived there).
    K = M = 1: J1, J2 by central differences, η_max from the quadratic det(J1 + ηJ2) = 0 (or
    the trace condition), about 1e-9 relative. K = M >= 2 (no closed form): bisection on η of
    the top real part of the spectrum of J1 + ηJ2 (:func:`eta_max_of_field`), with an error
    estimate from a second difference step.

    Parameters: a realisable noiseless K = M ``model`` (a = a*, σ = 0, no weight decay),
    T > 0 (a number: T·I; or an M × M PSD matrix when K >= 2). Returns a
    :class:`MaxLearningRate`.

    >>> round(max_learning_rate(CommitteeModel("erf_ss", 1, 1)).eta_max, 6)
    4.055779
    """
    _need_square(model)
    K, M = model.K, model.M
    if K > 1:
        Tm = (np.eye(M) * read_real(T, "T", low=0.0, open_low=True) if np.ndim(T) == 0
              else _teacher(T, M))
        _check_analysis(model, 2 * 24 * (K * (K + 1) // 2 + K * M))
        return eta_max_of_field(lambda e: right_side(model, e), Tm)
    T_f = read_real(T, "T", low=0.0, open_low=True)
    _check_analysis(model, 0)
    return max_lr_of_field(lambda e: right_side(model, e), T_f)



def plateau_digits(model: CommitteeModel, eta: Any, dps: int = 30) -> tuple[Any, ...]:
    """The symmetric plateau (q, c, r) to ``dps`` digits (T = I): the sympy equations of
    ``model.equations(model)`` restricted to the symmetric subspace (Q_kk = q,
    Q_kl = c, R = r, T = I, η exact), evaluated by mpmath and solved by ``mpmath.findroot``
    from :func:`symmetric_plateau`'s float64 root. An independent evaluation path (symbolic
    averages, not the numpy right side); the tests check the two agree to 1e-11. The values
    carry ``dps`` digits (read them under ``mpmath.workdps(dps)`` or with ``mpmath.nstr``).

    Parameters: η > 0 (read exactly), 15 <= dps <= 100, K + M <= 6 (the symbolic equations
    grow as K²(K + M)² terms). Returns mpmath numbers (q, c, r); c = 0 when K = 1.

    >>> m = CommitteeModel("x**2", 2, 1, a="1/K", a_star="1/M")  # the quadratic module's p = 2
    >>> import mpmath
    >>> q, c, r = plateau_digits(m, "1/5", dps=20)
    >>> mpmath.nstr(q, 20), float(c), float(r)
    ('0.64599359922733993992', 0.0, 0.0)
    """
    import mpmath
    import sympy as sp

    from fltheory.papers.committee.model import equations

    K, M = model.K, model.M
    read_count(K + M, "K", 2, MAX_SYMBOLIC_FIELDS)
    dps = read_count(dps, "dps", 15, 100)
    eta_q = read_step(eta, "eta")
    start = symmetric_plateau(model, eta_q)
    eqs = equations(model)
    sym = eqs.symbols
    q, c, r = sp.symbols("q c r")
    subs: dict[Any, Any] = {sym["eta"]: sp.Rational(eta_q.numerator, eta_q.denominator)}
    for i in range(K):
        for j in range(K):
            subs[sym["Q"][i, j]] = q if i == j else c
        for m in range(M):
            subs[sym["R"][i, m]] = r
    for m in range(M):
        for n in range(M):
            subs[sym["T"][m, n]] = sp.Integer(1 if m == n else 0)
    rows = [eqs.dQ[0, 0], eqs.dR[0, 0]] if K == 1 else [eqs.dQ[0, 0], eqs.dQ[0, 1], eqs.dR[0, 0]]
    unknowns = [q, r] if K == 1 else [q, c, r]
    funcs = [sp.lambdify(unknowns, sp.sympify(e).subs(subs), "mpmath") for e in rows]
    x0 = [start.q, start.r] if K == 1 else [start.q, start.c, start.r]
    with mpmath.workdps(dps + 10):
        root = mpmath.findroot(lambda *x: [f(*x) for f in funcs], x0,
                               tol=mpmath.mpf(10) ** (-2 * dps))
        values = [mpmath.mpf(v) for v in (root if len(x0) > 1 else [root])]
        residual = max(abs(f(*values)) for f in funcs)
        if not residual <= mpmath.mpf(10) ** (-dps):
            raise DomainError("eta", str(eta_q), "steps at which the symbolic plateau is found",
                              reason=f"leaves a residual {mpmath.nstr(residual, 3)}")
    with mpmath.workdps(dps):
        out = [+v for v in values]
    return (out[0], mpmath.mpf(0), out[1]) if K == 1 else tuple(out)


def closed_form_eta_max(model: CommitteeModel) -> tuple[float, str] | None:
    """η_max in closed form where there is one (module docstring): g = erf(x/√2), K = M = 1,
    a = a* = 1, σ = κ = 0 (T = 1): (π√(5/3), "π√(5/3)"); None for every other model.

    >>> closed_form_eta_max(CommitteeModel("erf_ss", 1, 1))
    (4.0557786759..., 'π√(5/3)')
    >>> closed_form_eta_max(CommitteeModel("erf_ss", 2, 2)) is None
    True
    """
    av = averages(model.g)
    if (model.K, model.M) != (1, 1) or av.kind != "erf" or float(av.scale) != 1.0 \
            or model.noise or model.weight_decay or model.a != (1,) or model.a_star != (1,):
        return None
    return math.pi * math.sqrt(5 / 3), "π√(5/3)"


@dataclass(frozen=True)
class Convergence:
    """The specialised fixed point's analysis at step ``eta`` (T = I, :func:`convergence_
    analysis`): the :class:`FixedPoint` (None when the right side has no Jacobian there, with
    the reason ``no_jacobian`` and the right side's residual at Q = R = T); the changes of the
    eigenvalues and of the convergence rate when the Jacobian is redone with twice the
    difference step (their error estimates); whether the point is Q = R = T itself
    (``at_teacher``: a realisable model); η_max (a :class:`MaxLearningRate`, or the reason it
    was refused) and its closed form where there is one."""

    eta: Fraction
    T: np.ndarray
    fixed_point: FixedPoint | None
    no_jacobian: str | None = None
    residual: float | None = None
    eigenvalue_error: float | None = None
    rate_error: float | None = None
    at_teacher: bool = False
    eta_max: MaxLearningRate | None = None
    eta_max_refused: str | None = None
    closed_form: tuple[float, str] | None = None


def convergence_analysis(model: CommitteeModel, eta: Any) -> Convergence:
    """The specialised fixed point Q = R = T of a K = M ``model`` (T = I) at step η > 0, the
    Jacobian's spectrum there with its error estimate (the same Jacobian at twice the
    difference step), the asymptotic convergence rate and η_max (:func:`max_learning_rate`,
    with :func:`closed_form_eta_max`). Where the right side has no Jacobian at that point
    (a non-smooth g, e.g. ReLU at Q = R = T) the analysis says why instead.

    >>> c = convergence_analysis(CommitteeModel("erf_ss", 1, 1), 1)
    >>> round(c.fixed_point.convergence_rate, 6), round(c.eta_max.eta_max, 6), c.closed_form[1]
    (0.122518, 4.055779, 'π√(5/3)')
    """
    _need_square(model)
    eta_q = read_step(eta, "eta")
    T = np.eye(model.M)
    try:
        fp = _specialised(model, eta_q, None, None)
    except DomainError as exc:
        if exc.param != "state":
            raise
        res = _full_residual(right_side(model, eta_q), T, T, T)
        return Convergence(eta_q, T, None, str(exc.reason or exc), res)
    other = np.linalg.eigvals(_jacobian(right_side(model, eta_q), fp.Q, fp.R, fp.T, 2e-4))
    other = other[np.argsort(-other.real, kind="stable")]
    lam_err = max(float(np.abs(fp.eigenvalues - other).max(initial=0.0)), 1e-15)
    tol = ZERO_TOL * max(1.0, float(np.abs(other).max(initial=0.0)))
    nz = other[np.abs(other) > tol]
    rate_other = -float(nz.real.max()) if len(nz) else 0.0
    rate_err = max(abs(rate_other - fp.convergence_rate), 1e-15)
    at_teacher = bool(np.allclose(fp.Q, T, atol=1e-12) and np.allclose(fp.R, T, atol=1e-12))
    try:
        m: MaxLearningRate | None = max_learning_rate(model)
        refused = None
    except DomainError as exc:
        m, refused = None, str(exc)
    return Convergence(eta_q, T, fp, None, None, lam_err, rate_err, at_teacher, m, refused,
                       closed_form_eta_max(model) if m is not None else None)
