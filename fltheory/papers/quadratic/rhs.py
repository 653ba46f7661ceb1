r"""The right side of the quadratic-network ODEs (Bocchi, Lucibello, Saglietti, Cammarota et
al.) on an exact reduction of the state, as numpy and as loops for compilation.

Reduction. Write Q = q I_p + V S Vᵀ and ρ = V K with V ∈ ℝ^{p×k} orthonormal, S ∈ ℝ^{k×k},
K ∈ ℝ^{k×p*}. Every term of the matrix-form right side
(:func:`fltheory.papers.quadratic.theory.rhs_matrix`) is a product of Q's, ρ's and T's times traces,
so it has the same shape: the identity part and a part inside span V. The span is therefore
invariant and the ODEs close on (q, S, K) — 1 + k² + k p* numbers instead of p² + p p*. In
the basis (V, V⊥, teacher) the covariance of the fields is block diagonal,
[[qI_k + S, ·, K], [·, q I_{p−k}, ·], [Kᵀ, ·, T]]: the k + p* block is handled by the same
matrix formulas, the bulk block is a scalar q repeated m = p − k times, which only adds to the
traces. Q(0) = q0 I (the mean-field start) gives k = rank ρ(0) <= p*, so the cost per
evaluation no longer grows with p. Without structure (a random Q(0)), k = p, m = 0 and q is
held at 0: the full system.

Integration (:func:`fltheory.papers.quadratic.ode.integrate`). With numba installed (extra
``fast``), :func:`block_rhs_loops` (the right side as loops) is compiled on first use and
cached on disk, and the package's one integrator (:func:`fltheory.engine.odes.dop853_loop`,
Dormand–Prince 8(5,3)) is compiled around it; otherwise scipy's ``solve_ivp`` (LSODA)
integrates the same reduced state with the numpy form :func:`block_rhs`. They are independent
integrators and the tests compare them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["block_matrix", "block_rhs", "block_rhs_loops", "block_traces", "bulk_dq",
           "reduce_start"]


def block_matrix(Q: np.ndarray, R: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The covariance [[Q, ρ], [ρᵀ, T]] of the fields, batched over leading axes of Q and R.

    >>> block_matrix(np.eye(1) / 2, np.full((1, 1), 0.1), np.eye(1)).tolist()
    [[0.5, 0.1], [0.1, 1.0]]
    """
    lead = Q.shape[:-2]
    k, ps = R.shape[-2:]
    C = np.empty((*lead, k + ps, k + ps))
    C[..., :k, :k] = Q
    C[..., :k, k:] = R
    C[..., k:, :k] = np.swapaxes(R, -1, -2)
    C[..., k:, k:] = T
    return C


def block_traces(C: np.ndarray, k: int, m: int, a: float, b: float, q: np.ndarray | float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """tr(𝒜C) and tr((𝒜C)²), 𝒜 = diag(a I_k, −b I_p*), with m bulk students of variance q
    added (each contributes a q and a² q²); batched over leading axes of C.

    >>> C = block_matrix(np.eye(1) / 2, np.full((1, 1), 0.1), np.eye(1))
    >>> [round(float(v), 6) for v in block_traces(C, 1, 0, 1.0, 1.0, 0.0)]
    [-0.5, 1.23]
    """
    A = np.concatenate([np.full(k, a), np.full(C.shape[-1] - k, -b)])
    AC = A[:, None] * C
    t1 = np.trace(AC, axis1=-2, axis2=-1) + m * a * q
    tr2 = np.einsum("...ij,...ji->...", AC, AC) + m * a * a * q * q
    return t1, tr2


def bulk_dq(q: float, t1: float, coef: float, a: float, eta_w: float) -> float:
    """dq/dt of a bulk student (its field variance q, uncorrelated with everything): the
    matrix-form Q-equation for a 1 × 1 block, C𝒜C = a q², C𝒜C𝒜C = a² q³.

    >>> round(bulk_dq(0.5, -0.5, 0.5, 1.0, 0.1), 6)
    -0.07
    """
    return (-4.0 * a * eta_w * (t1 * q + 2.0 * a * q * q)
            + 4.0 * a * a * eta_w * eta_w * (coef * q + 4.0 * t1 * a * q * q
                                              + 8.0 * a * a * q * q * q))


def block_rhs(y: np.ndarray, k: int, ps: int, m: int, a: float, b: float, eta_w: float,
              sigma2: float, T: np.ndarray) -> np.ndarray:
    """d(q, S, K)/dt for the flat state y = (q, S.ravel(), K.ravel()); m bulk students.
    With m = 0 and q = 0 this is the full matrix form
    (:func:`~fltheory.papers.quadratic.theory.rhs_matrix`
    calls it so).

    >>> y = np.array([0.0, 0.5, 0.1])  # q = 0, S = 1/2, K = 1/10: p = p* = 1
    >>> np.round(block_rhs(y, 1, 1, 0, 1.0, 1.0, 0.1, 0.0, np.eye(1)), 6).tolist()
    [0.0, -0.017, 0.03]
    """
    q = y[0]
    S = y[1:1 + k * k].reshape(k, k)
    C = block_matrix(0.5 * (S + S.T) + q * np.eye(k), y[1 + k * k:].reshape(k, ps), T)
    A = np.concatenate([np.full(k, a), np.full(ps, -b)])
    AC = A[:, None] * C
    t1, tr2 = (float(v) for v in block_traces(C, k, m, a, b, q))
    CAC = C @ AC
    coef = t1 * t1 + 2.0 * tr2 + sigma2
    M1 = t1 * C + 2.0 * CAC
    M2 = coef * C + 4.0 * t1 * CAC + 8.0 * (CAC @ AC)
    dq = bulk_dq(q, t1, coef, a, eta_w) if m > 0 else 0.0
    out = np.empty(1 + k * k + k * ps)
    out[0] = dq
    dS = -4.0 * a * eta_w * M1[:k, :k] + 4.0 * a * a * eta_w * eta_w * M2[:k, :k] - dq * np.eye(k)
    out[1:1 + k * k] = dS.ravel()
    out[1 + k * k:] = (-2.0 * a * eta_w * M1[:k, k:]).ravel()
    return out


def reduce_start(Q0: np.ndarray, R0: np.ndarray, tol: float = 1e-12
                 ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """(q0, V, S0, K0) with Q0 = q0 I + V S0 Vᵀ and R0 = V K0 exactly (to round-off).

    q0 is the eigenvalue of Q0 of largest multiplicity (relative tolerance ``tol``); V spans the
    columns of R0 and the eigenvectors of Q0 − q0 I. If that leaves nothing to reduce, V = I,
    q0 = 0 and S0 = Q0 (the full system).

    >>> q0, V, S0, K0 = reduce_start(np.eye(3) / 4, np.array([[1e-3], [0.0], [0.0]]))
    >>> q0, V.shape, S0.tolist()
    (0.25, (3, 1), [[0.0]])
    """
    p = Q0.shape[0]
    Qs = 0.5 * (Q0 + Q0.T)
    w, U = np.linalg.eigh(Qs)
    scale = max(1.0, float(np.abs(w).max()), float(np.abs(R0).max(initial=0.0)))
    close = np.abs(w[:, None] - w[None, :]) <= tol * scale
    i = int(np.argmax(close.sum(axis=1)))
    q0 = float(np.mean(w[close[i]]))
    if close[i].sum() > 1:
        M = np.concatenate([R0, U[:, ~close[i]]], axis=1)
        u, s, _ = np.linalg.svd(M, full_matrices=False)
        k = int(np.sum(s > tol * scale * max(M.shape)))
        if k < p:
            V = u[:, :k]
            return q0, V, V.T @ (Qs - q0 * np.eye(p)) @ V, V.T @ R0
    return 0.0, np.eye(p), Qs.copy(), R0.copy()


def _block_overlaps(y: np.ndarray, k: int, ps: int, T: np.ndarray) -> np.ndarray:
    """The (k + ps) × (k + ps) block overlap matrix of the reduced state y = (q, Q_b, R_b) of
    :func:`block_rhs_loops`: [[Q_b (symmetrised) + q I, R_b], [R_bᵀ, T]]."""
    n = k + ps
    q = y[0]
    C = np.empty((n, n))
    for i in range(k):
        for j in range(k):
            C[i, j] = 0.5 * (y[1 + i * k + j] + y[1 + j * k + i])
        C[i, i] += q
        for j in range(ps):
            C[i, k + j] = y[1 + k * k + i * ps + j]
            C[k + j, i] = C[i, k + j]
    for i in range(ps):
        for j in range(ps):
            C[k + i, k + j] = T[i, j]
    return C


def _block_products(C: np.ndarray, A: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the student block (the first k) of C𝒜C and of C𝒜C𝒜C restricted to the
    student columns, 𝒜 = diag(A): explicit loops, or two BLAS products for blocks larger than
    16."""
    n = C.shape[0]
    if n > 16:  # large blocks: two BLAS products
        CA = np.empty((k, n))
        for i in range(k):
            for j in range(n):
                CA[i, j] = C[i, j] * A[j]
        CAC = np.dot(CA, C)  # rows of the student block of C𝒜C
        CACA = np.empty((k, n))
        for i in range(k):
            for j in range(n):
                CACA[i, j] = CAC[i, j] * A[j]
        CACAC = np.dot(CACA, np.ascontiguousarray(C[:, :k]))
    else:
        CAC = np.zeros((k, n))
        for i in range(k):
            for l in range(n):
                c = C[i, l] * A[l]
                for j in range(n):
                    CAC[i, j] += c * C[l, j]
        CACAC = np.zeros((k, k))
        for i in range(k):
            for l in range(n):
                c = CAC[i, l] * A[l]
                for j in range(k):
                    CACAC[i, j] += c * C[l, j]
    return CAC, CACAC


def block_rhs_loops(y: np.ndarray, k: int, ps: int, m: int, a: float, b: float, eta_w: float,
                    sigma2: float, T: np.ndarray) -> np.ndarray:
    """:func:`block_rhs` written as explicit loops, for compilation (as plain Python it is
    correct but slow). Only the rows of the student block are formed; blocks larger than 16
    use two BLAS products instead of the loops.

    >>> y = np.array([0.0, 0.5, 0.1])
    >>> np.round(block_rhs_loops(y, 1, 1, 0, 1.0, 1.0, 0.1, 0.0, np.eye(1)), 6).tolist()
    [0.0, -0.017, 0.03]
    """
    n = k + ps
    q = y[0]
    C = _block_overlaps(y, k, ps, T)
    A = np.empty(n)
    for i in range(n):
        A[i] = a if i < k else -b
    t1 = m * a * q
    tr2 = m * a * a * q * q
    for i in range(n):
        t1 += A[i] * C[i, i]
        for j in range(n):
            tr2 += A[i] * C[i, j] * A[j] * C[j, i]
    coef = t1 * t1 + 2.0 * tr2 + sigma2
    CAC, CACAC = _block_products(C, A, k)
    c1 = -4.0 * a * eta_w
    c2 = 4.0 * a * a * eta_w * eta_w
    dq = bulk_dq(q, t1, coef, a, eta_w) if m > 0 else 0.0
    out = np.empty(1 + k * k + k * ps)
    out[0] = dq
    for i in range(k):
        for j in range(k):
            m1 = t1 * C[i, j] + 2.0 * CAC[i, j]
            m2 = coef * C[i, j] + 4.0 * t1 * CAC[i, j] + 8.0 * CACAC[i, j]
            out[1 + i * k + j] = c1 * m1 + c2 * m2 - (dq if i == j else 0.0)
        for j in range(ps):
            out[1 + k * k + i * ps + j] = -2.0 * a * eta_w * (t1 * C[i, k + j]
                                                              + 2.0 * CAC[i, k + j])
    return out
