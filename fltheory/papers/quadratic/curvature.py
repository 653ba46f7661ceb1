r"""Curvature of the quadratic-network problem (Bocchi et al. 2026): the zero-loss manifold, the
loss Hessian's eigenvalue counts at the plateau and at a solution (closed forms in the full p·N
weight space), and the ODE Jacobian's counts in the order parameters (numerical, next to the
predicted ones). Mean-field normalisation a = 1/p, b = 1/p*, T = I; see
:mod:`fltheory.papers.quadratic.theory`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from fltheory.args import read_choice, read_count, read_step
from fltheory.exact import DomainError, check_cost
from fltheory.papers.quadratic._common import ODE_SECONDS_LIMIT
from fltheory.papers.quadratic.equations import rhs_matrix
from fltheory.papers.quadratic.params import Model
from fltheory.papers.quadratic.stability import plateau_at

__all__ = ["hessian_plateau_counts", "hessian_solution_counts", "jacobian_cost",
           "manifold_dimension", "ode_jacobian_counts"]

def manifold_dimension(p: int, p_star: int) -> int:
    """Dimension of the zero-loss manifold (no label noise, full-rank teacher), p >= p*.

    f = y for every x means a WᵀW = b W*ᵀW* as quadratic forms on ℝ^N. The right side has rank
    p*, so the rows of W lie in the teacher's row space: W = M W* with M ∈ ℝ^{p×p*} and
    a MᵀM = b I (after whitening W*), i.e. M/√(b/a) has orthonormal columns — the Stiefel
    manifold V_{p*}(ℝ^p) of dimension p p* − p*(p* + 1)/2. It is positive for p > 1 even when
    p = p* (the rotations O(p)), and empty for p < p* (rank W <= p < p*).

    >>> manifold_dimension(2, 2), manifold_dimension(4, 2), manifold_dimension(1, 1)
    (1, 5, 0)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    if p < p_star:
        raise DomainError("p", p, f"p >= p* = {p_star} (no zero-loss solution when the student "
                          "is narrower than the teacher)")
    return p * p_star - p_star * (p_star + 1) // 2


def hessian_solution_counts(p: int, p_star: int, N: int) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the population-loss Hessian at a point of
    the zero-loss manifold, in the full p·N weight space.

    There f = y, so the Hessian is E[∇f ∇fᵀ] >= 0 (no negative direction) and its kernel is
    {dW : WᵀdW + dWᵀW = 0}. Writing dW = dM·(teacher basis) + dW⊥ (rows orthogonal to the
    teacher space): the first part contributes the tangent space of the manifold,
    p p* − p*(p*+1)/2 directions (dMᵀM antisymmetric); the second needs Mᵀ dW⊥ = 0, i.e.
    (p − p*)(N − p*) directions that exist only when p > p*. Along these the loss grows
    quartically (F = dW⊥ᵀdW⊥ at second order), so they are flat in the Hessian but leave the
    manifold.

    >>> hessian_solution_counts(2, 2, 10)
    (0, 1, 19)
    """
    dim = manifold_dimension(p, p_star)
    read_count(N, "N", p_star)
    zero = dim + (p - p_star) * (N - p_star)
    return 0, zero, p * N - zero


def hessian_plateau_counts(p: int, p_star: int, N: int) -> tuple[int, int, int]:
    r"""(negative, zero, positive) eigenvalue counts of the population-loss Hessian at the
    gradient-flow plateau (ρ = 0, Q = p/(p + 2) I, T = I, a = 1/p, b = 1/p*), full p·N space.

    Write W = √(Nq) U (orthonormal rows U) and dW = √N (M U + D_T + D_R) with M ∈ ℝ^{p×p} (inside
    the student space), D_T (rows in the teacher space), D_R (the rest). With f − y = xᵀAx,
    A = (aWᵀW − bW*ᵀW*)/N and L = ½((tr A)² + 2 tr A²), the second variation is

    .. math::

        \frac{2}{p(p + 2)}\bigl[\operatorname{tr}(M)^2 + \operatorname{tr}(M^2)
          + \lVert M\rVert^2\bigr] - \frac{2}{p\, p^*}\, \lVert D_T\rVert^2,

    the ‖D‖² terms cancelling exactly at q = p/(p + 2). Hence p·p* negative directions (towards
    the teacher: the saddle's escape), p(p − 1)/2 + p(N − p − p*) zero ones (rotations of the
    students among themselves, and the directions orthogonal to both spaces), and p(p + 1)/2
    positive ones (symmetric M).

    >>> hessian_plateau_counts(2, 2, 10)
    (4, 13, 3)
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(N, "N", p + p_star)
    zero = p * (p - 1) // 2 + p * (N - p - p_star)
    return p * p_star, zero, p * (p + 1) // 2


def jacobian_cost(p: int, p_star: int) -> float:
    """Seconds for :func:`ode_jacobian_counts` (both points): 2D right-side evaluations of the
    full matrix form, D = p(p+1)/2 + p p*, each ≈ 2e-5 + 2e-9 (p + p*)³ s, and an eigenvalue
    problem ≈ 5e-9 D³ s (fit on this machine: 0.25 s at (10, 5), 0.8 s at (30, 10), 2.5 s at
    (40, 20), per point; the estimate is above each). A float.

    >>> round(jacobian_cost(4, 2), 4)
    0.0015
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    D = p * (p + 1) / 2 + p * p_star
    return 2 * (2 * D * (2e-5 + 2e-9 * (p + p_star) ** 3) + 5e-9 * D**3)


def ode_jacobian_counts(p: int, p_star: int, eta: Fraction, at: str = "plateau",
                        seed: int = 0) -> dict[str, tuple[int, int, int]]:
    """(unstable, zero, stable) eigenvalue counts of the ODE's Jacobian in the order parameters
    (Q symmetric: p(p+1)/2 coordinates, ρ: p·p*), numerically (central differences of the
    matrix form), next to the predicted counts. T = I, mean-field normalisation.

    Predicted, at the plateau (ρ = 0, Q = q*I): p·p* unstable (the escape, rate r each), no
    zero, p(p+1)/2 stable (norm adjustment). At a solution (Q = (p/p*)SSᵀ... i.e. ρ = √(p/p*)·S
    with orthonormal S, Q = ρρᵀ): the zero-loss manifold gives p p* − p*(p*+1)/2 zero modes and
    the (p − p*)-dimensional complement of the student block another (p − p*)(p − p* + 1)/2,
    along which Q decays only quadratically — hence power-law rather than exponential
    convergence when p > p*; the rest are stable.

    Parameters: integers p, p* >= 1 (p >= p* at a solution), η > 0 exact (η <= η_max at the
    plateau), ``at`` "plateau" or "solution", ``seed`` >= 0 of the random solution point.
    Returns {"predicted": counts, "numerical": counts}, counts integer triples.

    >>> ode_jacobian_counts(2, 1, Fraction(1, 10))
    {'predicted': (2, 0, 3), 'numerical': (2, 0, 3)}
    """
    read_count(p, "p", 1)
    read_count(p_star, "p_star", 1)
    read_count(seed, "seed", 0)
    at = read_choice(at, "at", ("plateau", "solution"))
    eta = read_step(eta)
    check_cost(f"p = {p}, p* = {p_star} (Jacobian of size {p * (p + 1) // 2 + p * p_star})",
               jacobian_cost(p, p_star), ODE_SECONDS_LIMIT, "seconds (estimated)",
               "fewer students p or a smaller teacher p*")
    eta_f = float(eta)
    a, b, eta_w = 1.0 / p, 1.0 / p_star, p * eta_f
    Q0, R0, predicted = _jacobian_point(p, p_star, eta, at, seed, a, b)
    measured = _jacobian_counts(Q0, R0, np.eye(p_star), a, b, eta_w)
    return {"predicted": predicted, "numerical": measured}


def _jacobian_point(p: int, p_star: int, eta: Fraction, at: str, seed: int, a: float,
                    b: float) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int]]:
    """The point of :func:`ode_jacobian_counts` (Q0, ρ0) and the counts predicted there: the
    plateau Q = q*I, ρ = 0, or a random solution ρ = √(b/a)·S (S orthonormal, from ``seed``),
    Q = ρρᵀ."""
    if at == "plateau":
        q = plateau_at(Model(p, p_star), eta).q
        return q * np.eye(p), np.zeros((p, p_star)), (p * p_star, 0, p * (p + 1) // 2)
    if at == "solution":
        manifold_dimension(p, p_star)  # domain: p >= p*
        O, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((p, p_star)))
        R0 = O * np.sqrt(b / a)
        Q0 = R0 @ R0.T
        extra = (p - p_star) * (p - p_star + 1) // 2
        zero = manifold_dimension(p, p_star) + extra
        return Q0, R0, (0, zero, p * (p + 1) // 2 + p * p_star - zero)
    raise DomainError("at", at, "plateau or solution")


def _jacobian_counts(Q0: np.ndarray, R0: np.ndarray, T: np.ndarray, a: float, b: float,
                     eta_w: float) -> tuple[int, int, int]:
    """(unstable, zero, stable) counts of the Jacobian of the matrix-form ODE in (upper Q, ρ)
    at (Q0, ρ0), by central differences (step 1e-6), zero within 1e-6·max(1, max|Re λ|)."""
    p, p_star = R0.shape
    iu = np.triu_indices(p)

    def pack(Q: np.ndarray, R: np.ndarray) -> np.ndarray:
        return np.concatenate([Q[iu], R.ravel()])

    def unpack(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Q = np.zeros((p, p))
        Q[iu] = v[: len(iu[0])]
        Q = Q + Q.T - np.diag(np.diag(Q))
        return Q, v[len(iu[0]):].reshape(p, p_star)

    def field(v: np.ndarray) -> np.ndarray:
        Q, R = unpack(v)
        dQ, dR = rhs_matrix(Q, R, T, a, b, eta_w)
        return pack(dQ, dR)

    x0 = pack(Q0, R0)
    h = 1e-6
    J = np.column_stack([(field(x0 + h * e) - field(x0 - h * e)) / (2 * h)
                         for e in np.eye(len(x0))])
    ev = np.linalg.eigvals(J).real
    tol = 1e-6 * max(1.0, np.abs(ev).max())
    return int(np.sum(ev > tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev < -tol))
