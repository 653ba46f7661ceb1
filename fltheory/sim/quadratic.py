"""One-pass SGD on a quadratic two-layer network (seed 003), numpy only.

Student f(x) = a Σ_k (w_k·x)²/N, teacher y = b Σ_m (w*_m·x)²/N + σξ, x ~ N(0, I_N), squared loss,
one fresh sample per step: w_k ← w_k − η_w·2a(f − y)(w_k·x/√N) x/√N. A step costs O(N(p + p*)).
Order parameters Q = WWᵀ/N and ρ = WW*ᵀ/N are recorded at times t = steps/N on a grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["SGDRun", "hessian_counts_at_solution", "orthonormal_teacher", "plateau_point",
           "population_hessian_counts", "sgd"]


def orthonormal_teacher(N: int, p_star: int, rng: np.random.Generator,
                        eigenvalues: np.ndarray | None = None) -> np.ndarray:
    """Teacher rows with W*W*ᵀ/N = diag(eigenvalues) (default identity)."""
    Qm, _ = np.linalg.qr(rng.standard_normal((N, p_star)))
    scale = np.ones(p_star) if eigenvalues is None else np.sqrt(eigenvalues)
    return (Qm.T * math.sqrt(N)) * scale[:, None]


@dataclass
class SGDRun:
    t: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    W0: np.ndarray
    W_star: np.ndarray
    W: np.ndarray
    test_loss: np.ndarray | None = None  # ½ mean (f − y)² on fresh inputs, at each record


def sgd(W0: np.ndarray, W_star: np.ndarray, eta: float, t_grid: np.ndarray, seed: int,
        sigma: float = 0.0, a: float | None = None, b: float | None = None,
        eta_w: float | None = None, chunk: int = 64, n_test: int = 0) -> SGDRun:
    """Run one-pass SGD from W0 (p × N); record Q and ρ at the times of ``t_grid`` (and, with
    ``n_test`` > 0, the loss on that many fixed fresh inputs, noise included).

    Exact sequential SGD, organised around BLAS: within a block of B = ``chunk`` samples the
    weights are W_i = W_start + Σ_{j<i} u_j x_jᵀ, so the local fields of sample i are
    λ_i = W_start x_i/√N + Σ_{j<i} u_j (x_j·x_i)/√N — one B × B Gram matrix and one B × p
    product per block, O(p i) per step, and W is updated once per block (W += Uᵀ X). The
    samples and their order are those of the plain loop; only the rounding differs.
    """
    p, N = W0.shape
    ps = W_star.shape[0]
    a = 1.0 / p if a is None else a
    b = 1.0 / ps if b is None else b
    eta_w = p * eta if eta_w is None else eta_w
    # SFC64: the N normals per step are most of the cost; it draws them ~25 % faster than PCG64
    rng = np.random.Generator(np.random.SFC64(seed))
    W = W0.copy()
    record_steps = np.rint(np.asarray(t_grid) * N).astype(int)
    Qs, Rs = np.empty((len(record_steps), p, p)), np.empty((len(record_steps), p, ps))
    sqrtN = math.sqrt(N)
    losses = np.empty(len(record_steps)) if n_test else None
    if n_test:
        test_rng = np.random.default_rng([seed, 1])
        X_test = test_rng.standard_normal((n_test, N))
        y_test = b * np.sum((X_test @ W_star.T / sqrtN) ** 2, axis=1)
        if sigma:
            y_test = y_test + sigma * test_rng.standard_normal(n_test)
    coef = -eta_w * 2 * a / sqrtN
    step, r = 0, 0
    X = np.empty((0, N))
    ys = np.empty(0)
    used = 0
    while r < len(record_steps):
        while r < len(record_steps) and record_steps[r] == step:
            Qs[r], Rs[r] = W @ W.T / N, W @ W_star.T / N
            if losses is not None:
                f = a * np.sum((X_test @ W.T / sqrtN) ** 2, axis=1)
                losses[r] = 0.5 * np.mean((f - y_test) ** 2)
            r += 1
        if r >= len(record_steps):
            break
        if used == len(X):  # draw the next block of samples (same stream as a plain loop)
            X = rng.standard_normal((chunk, N))
            noise = sigma * rng.standard_normal(chunk) if sigma else np.zeros(chunk)
            ys = b * np.sum((X @ W_star.T / sqrtN) ** 2, axis=1) + noise
            used = 0
        # run up to the next record step or the end of the block
        m = int(min(len(X) - used, record_steps[r] - step))
        Xb = X[used:used + m]
        G = Xb @ Xb.T / sqrtN
        lam = Xb @ W.T / sqrtN  # fields at the block start, m × p
        U = np.zeros((m, p))
        for i in range(m):
            li = lam[i] + G[i, :i] @ U[:i]
            U[i] = (coef * (a * (li @ li) - ys[used + i])) * li
        W += U.T @ Xb
        used += m
        step += m
    return SGDRun(np.asarray(t_grid), Qs, Rs, W0, W_star, W, losses)


def hessian_counts_at_solution(p: int, p_star: int, N: int, seed: int, n_samples: int = 0,
                               a: float | None = None, b: float | None = None
                               ) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the loss Hessian at a random zero-loss
    point W = M W* (a MᵀM = b I), in the full p·N weight space.

    At such a point f(x) = y(x) for every x, so each sample's loss Hessian is exactly
    ∇f(x)∇f(x)ᵀ; the Hessian of the sample loss over ``n_samples`` inputs (default 4pN) is
    computed from the gradients ∇_W f(x) = 2a (Wx) xᵀ/N and eigendecomposed.
    """
    a = 1.0 / p if a is None else a
    b = 1.0 / p_star if b is None else b
    rng = np.random.default_rng(seed)
    W_star = orthonormal_teacher(N, p_star, rng)
    O, _ = np.linalg.qr(rng.standard_normal((p, p_star)))
    W = (O * math.sqrt(b / a)) @ W_star
    n = n_samples or 4 * p * N
    X = rng.standard_normal((n, N))
    grads = 2 * a * (X @ W.T)[:, :, None] * X[:, None, :] / N  # n × p × N
    G = grads.reshape(n, p * N)
    H = G.T @ G / n
    ev = np.linalg.eigvalsh(H)
    tol = 1e-9 * ev[-1]
    return int(np.sum(ev < -tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev > tol))


def population_hessian_counts(W: np.ndarray, W_star: np.ndarray, a: float, b: float,
                              h: float = 1e-4, rel_tol: float = 1e-7) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the population loss Hessian at W.

    For x ~ N(0, I) and f − y = xᵀAx with A = (a WᵀW − b W*ᵀW*)/N, E[(xᵀAx)²] = (tr A)² +
    2 tr(A²), so L = ½((tr A)² + 2 tr A²) and ∇_W L = (2a/N)(tr A·W + 2 W A). The Hessian is
    formed by central differences of that gradient (exact up to O(h²) for this cubic gradient)
    and eigendecomposed; |λ| <= rel_tol·max|λ| counts as zero.
    """
    p, N = W.shape

    def grad(V: np.ndarray) -> np.ndarray:
        A = (a * V.T @ V - b * W_star.T @ W_star) / N
        return (2 * a / N) * (np.trace(A) * V + 2 * V @ A)

    H = np.empty((p * N, p * N))
    for i in range(p * N):
        E = np.zeros(p * N)
        E[i] = h
        E = E.reshape(p, N)
        H[:, i] = ((grad(W + E) - grad(W - E)) / (2 * h)).ravel()
    ev = np.linalg.eigvalsh((H + H.T) / 2)
    tol = rel_tol * np.abs(ev).max()
    return int(np.sum(ev < -tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev > tol))


def plateau_point(p: int, p_star: int, N: int, q: float, seed: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A student on the ρ = 0 plateau: rows orthogonal to the teacher's, WWᵀ/N = q I."""
    rng = np.random.default_rng(seed)
    W_star = orthonormal_teacher(N, p_star, rng)
    G = rng.standard_normal((p, N))
    G -= (G @ W_star.T / N) @ W_star
    basis, _ = np.linalg.qr(G.T)
    return basis.T * math.sqrt(N * q), W_star
