"""Quadratic networks (fltheory.papers.quadratic.theory): each public formula a second way, at
generic
parameters (p = 5 or 3, p* = 3 or 2, η = 3/20, label noise σ = 1/5, a generic covariance).

The second ways: Monte Carlo over the Gaussian fields (the ODE's right side is an expectation;
tolerance from the sample's standard error), the ODE's own right side solved and linearised
numerically (plateau, step bound, rates), finite-difference Hessians of the population loss in
weight space (eigenvalue counts), the numerical rank of the manifold's tangent map, and scipy's
polar decomposition.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import linalg, optimize

from fltheory.papers.quadratic import theory as th

P, PS, ETA, NOISE = 5, 3, Fraction(3, 20), Fraction(1, 5)


def _generic_state(rng, p, ps, N=11):
    W, Ws = rng.standard_normal((p, N)), rng.standard_normal((ps, N))
    return W @ W.T / N, W @ Ws.T / N, Ws @ Ws.T / N


def test_right_side_and_loss_against_monte_carlo_over_the_fields():
    """dQ/dt = −4aη_w E[(f−y)λλᵀ] + 4a²η_w² E[(f−y)² λλᵀ], dρ/dt = −2aη_w E[(f−y)λνᵀ] and
    L = ½E[(f−y)²] (the SGD update averaged, module docstring), with f − y = aΣλ² − bΣν² − σξ and
    (λ, ν) ~ N(0, [[Q, ρ], [ρᵀ, T]]), estimated from 10⁶ Gaussian draws: every entry within 6
    standard errors of the matrix form (p = 3, p* = 2, generic a, b, η_w, σ)."""
    rng = np.random.default_rng(21)
    p, ps = 3, 2
    Q, R, T = _generic_state(rng, p, ps)
    a, b, eta_w, sigma = 0.45, 0.3, 0.35, 0.4
    C = np.block([[Q, R], [R.T, T]])
    n = 1_000_000
    z = rng.standard_normal((n, p + ps)) @ np.linalg.cholesky(C).T
    lam, nu = z[:, :p], z[:, p:]
    err = a * (lam**2).sum(1) - b * (nu**2).sum(1) - sigma * rng.standard_normal(n)
    dQ, dR = th.rhs_matrix(Q, R, T, a, b, eta_w, sigma)
    for k in range(p):
        for l in range(p):
            g = (-4 * a * eta_w * err + 4 * a * a * eta_w**2 * err**2) * lam[:, k] * lam[:, l]
            assert abs(g.mean() - dQ[k, l]) < 6 * g.std() / math.sqrt(n), (k, l)
        for m in range(ps):
            g = -2 * a * eta_w * err * lam[:, k] * nu[:, m]
            assert abs(g.mean() - dR[k, m]) < 6 * g.std() / math.sqrt(n), (k, m)
    g = err**2 / 2
    assert abs(g.mean() - th.loss_matrix(Q, R, T, a, b, sigma)) < 6 * g.std() / math.sqrt(n)


def _dq_on_plateau(q, p, ps, eta, sigma, T=None):
    T = np.eye(ps) if T is None else T
    return th.rhs_matrix(q * np.eye(p), np.zeros((p, ps)), T, 1 / p, 1 / ps, p * eta, sigma)[0]


@pytest.mark.parametrize("noise", [Fraction(0), NOISE])
def test_plateau_with_noise_is_the_odes_fixed_point(noise):
    """q* (closed form in sympy) is a zero of the matrix-form Q-equation with label noise; the
    plateau loss is loss_matrix there; each rate is the finite-difference linearisation of
    dρ/dt (p = 5, p* = 3, η = 3/20)."""
    r = th.plateau(P, PS, ETA, noise)
    eta, sigma = float(ETA), float(noise)
    dQ = _dq_on_plateau(r.q, P, PS, eta, sigma)
    assert np.abs(dQ).max() < 1e-13
    # the root is the one continuous with p/(p + 2) at η → 0: bracket it numerically
    q_ref = optimize.brentq(lambda q: _dq_on_plateau(q, P, PS, eta, sigma)[0, 0] / q,
                            0.3, P / (P + 2) + 0.3, xtol=1e-15)
    assert r.q == pytest.approx(q_ref, abs=1e-12)
    assert r.loss == pytest.approx(th.loss_matrix(r.q * np.eye(P), np.zeros((P, PS)),
                                                  np.eye(PS), 1 / P, 1 / PS, sigma), abs=1e-13)
    eps = 1e-7
    for m in range(PS):
        R = np.zeros((P, PS))
        R[2, m] = eps
        rate = th.rhs_matrix(r.q * np.eye(P), R, np.eye(PS), 1 / P, 1 / PS, P * eta, sigma)[1]
        assert rate[2, m] / eps == pytest.approx(r.rates[m], abs=1e-7)


@pytest.mark.parametrize("noise", [Fraction(0), NOISE])
def test_step_bound_is_where_the_fixed_point_disappears(noise):
    """η_max (the discriminant's root): just below it dQ_11/dt(qI)/q still has a root, just above
    it none — found on the ODE's own right side by minimising over q."""
    r = th.plateau(P, PS, ETA, noise)
    (eta_max,) = r.eta_max_exact
    eta_max = float(eta_max)
    sigma = float(noise)

    def min_bracket(eta):
        res = optimize.minimize_scalar(lambda q: _dq_on_plateau(q, P, PS, eta, sigma)[0, 0] / q,
                                       bounds=(1e-3, 5.0), method="bounded",
                                       options={"xatol": 1e-12})
        return res.fun

    assert min_bracket(eta_max * (1 - 1e-4)) < 0 < min_bracket(eta_max * (1 + 1e-4))


def test_plateau_with_anisotropic_teacher_is_a_fixed_point():
    teacher = [Fraction(3, 2), Fraction(1, 2), Fraction(1)]
    r = th.plateau(P, PS, ETA, teacher=teacher)
    T = np.diag([float(t) for t in teacher])
    dQ = _dq_on_plateau(r.q, P, PS, float(ETA), 0.0, T)
    assert np.abs(dQ).max() < 1e-12
    # the plateau loss carries tr T² = 7/2 (not p* = 3): the matrix-form loss at (q* I, 0, T)
    assert r.loss == pytest.approx(th.loss_matrix(r.q * np.eye(P), np.zeros((P, PS)), T,
                                                  1 / P, 1 / PS), rel=1e-12)


def test_rates_with_anisotropic_teacher_linearise_the_ode():
    """r_i = 2η(1 − q − 2q/p + 2τ_i/p*) at the returned q: the finite-difference linearisation of
    dρ/dt along each teacher eigenvector (τ = 3/2, 1/2, 1)."""
    teacher = [Fraction(3, 2), Fraction(1, 2), Fraction(1)]
    r = th.plateau(P, PS, ETA, teacher=teacher)
    T = np.diag([float(t) for t in teacher])
    eps = 1e-7
    for m in range(PS):
        R = np.zeros((P, PS))
        R[1, m] = eps
        d = th.rhs_matrix(r.q * np.eye(P), R, T, 1 / P, 1 / PS, P * float(ETA))[1]
        assert d[1, m] / eps == pytest.approx(r.rates[m], abs=1e-7)
    assert len(set(r.rates)) == 3


# --------------------------------------------------------------------------- Hessian counts


def _loss(W, Ws, a, b):
    """Population loss ½E[(xᵀAx)²], A = (aWᵀW − bW*ᵀW*)/N: for Gaussian x and symmetric A,
    E[(xᵀAx)²] = (tr A)² + 2 tr A² (Isserlis)."""
    N = W.shape[1]
    A = (a * W.T @ W - b * Ws.T @ Ws) / N
    return 0.5 * (np.trace(A) ** 2 + 2 * np.trace(A @ A))


def _hessian_counts(W, Ws, a, b):
    shape, w0 = W.shape, W.ravel()
    n = len(w0)
    h = 1e-4
    H = np.empty((n, n))

    def f(v):
        return _loss(v.reshape(shape), Ws, a, b)

    E = np.eye(n) * h
    for i in range(n):
        for j in range(i, n):
            H[i, j] = H[j, i] = (f(w0 + E[i] + E[j]) - f(w0 + E[i] - E[j])
                                 - f(w0 - E[i] + E[j]) + f(w0 - E[i] - E[j])) / (4 * h * h)
    ev = np.linalg.eigvalsh(H)
    tol = 1e-6 * np.abs(ev).max()
    return int(np.sum(ev < -tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev > tol))


@pytest.mark.parametrize(("p", "ps", "N"), [(3, 2, 7), (4, 2, 8)])
def test_hessian_counts_by_finite_differences(p, ps, N):
    """Counts of negative/zero/positive eigenvalues of the finite-difference Hessian of the loss
    in the p·N weights, at the gradient-flow plateau (rows of W orthogonal to the teacher,
    WWᵀ/N = p/(p+2) I) and at a zero-loss point W = √(b/a) O W* (O orthonormal columns)."""
    rng = np.random.default_rng(p * 10 + N)
    a, b = 1 / p, 1 / ps
    basis, _ = np.linalg.qr(rng.standard_normal((N, N)))
    Ws = math.sqrt(N) * basis[:, :ps].T  # T = I
    U = basis[:, ps:ps + p].T
    W_plateau = math.sqrt(N * p / (p + 2)) * U
    assert _hessian_counts(W_plateau, Ws, a, b) == th.hessian_plateau_counts(p, ps, N)
    O, _ = np.linalg.qr(rng.standard_normal((p, ps)))
    W_sol = math.sqrt(b / a) * O @ Ws
    assert _loss(W_sol, Ws, a, b) < 1e-20
    assert _hessian_counts(W_sol, Ws, a, b) == th.hessian_solution_counts(p, ps, N)


@pytest.mark.parametrize(("p", "ps"), [(5, 3), (4, 1), (3, 3), (6, 2)])
def test_manifold_dimension_by_the_rank_of_the_tangent_map(p, ps):
    """{M ∈ ℝ^{p×p*}: MᵀM = c I} has dimension p p* − rank of dM ↦ MᵀdM + dMᵀM at a point of it
    (the constraint map's differential, surjective onto symmetric matrices), computed here."""
    rng = np.random.default_rng(p + 7 * ps)
    M, _ = np.linalg.qr(rng.standard_normal((p, ps)))
    cols = []
    for i in range(p * ps):
        dM = np.zeros(p * ps)
        dM[i] = 1
        dM = dM.reshape(p, ps)
        cols.append((M.T @ dM + dM.T @ M).ravel())
    rank = np.linalg.matrix_rank(np.array(cols).T, tol=1e-10)
    assert th.manifold_dimension(p, ps) == p * ps - rank


def test_polar_factor_against_scipy():
    rng = np.random.default_rng(3)
    R = rng.standard_normal((5, 3))
    U, _ = linalg.polar(R)
    assert np.allclose(th.polar_factor(R), U, atol=1e-12)


def test_plateau_noise_moment_against_monte_carlo():
    """E[(f − y)² λ_1² ν_1²] at ρ = 0, Q = qI, T = I by Monte Carlo (10⁶ draws, 6 SE) at
    generic q = 0.7, p = 5, p* = 3, σ = 0.4, a = 1/5, b = 1/3 (a third route after the Wick
    expansion in test_quadratic_escape.py)."""
    rng = np.random.default_rng(8)
    q, sigma = 0.7, 0.4
    n = 1_000_000
    lam = math.sqrt(q) * rng.standard_normal((n, P))
    nu = rng.standard_normal((n, PS))
    err = (lam**2).sum(1) / P - (nu**2).sum(1) / PS - sigma * rng.standard_normal(n)
    g = err**2 * lam[:, 0] ** 2 * nu[:, 0] ** 2
    ref = th.plateau_noise_moment(q, P, PS, 1 / P, 1 / PS, sigma)
    assert abs(g.mean() - ref) < 6 * g.std() / math.sqrt(n)
