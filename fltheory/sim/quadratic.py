"""One-pass SGD on a quadratic two-layer network (seed 003), numpy only.

Student f(x) = a Σ_k (w_k·x)²/N, teacher y = b Σ_m (w*_m·x)²/N + σξ, x ~ N(0, I_N), squared loss,
one fresh sample per step: w_k ← w_k − η_w·2a(f − y)(w_k·x/√N) x/√N. A step costs O(N(p + p*)).
Order parameters Q = WWᵀ/N and ρ = WW*ᵀ/N are recorded at times t = steps/N on a grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["SGDRun", "orthonormal_teacher", "sgd"]


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


def sgd(W0: np.ndarray, W_star: np.ndarray, eta: float, t_grid: np.ndarray, seed: int,
        sigma: float = 0.0, a: float | None = None, b: float | None = None,
        eta_w: float | None = None, chunk: int = 512) -> SGDRun:
    """Run one-pass SGD from W0 (p × N); record Q and ρ at the times of ``t_grid``."""
    p, N = W0.shape
    ps = W_star.shape[0]
    a = 1.0 / p if a is None else a
    b = 1.0 / ps if b is None else b
    eta_w = p * eta if eta_w is None else eta_w
    rng = np.random.default_rng(seed)
    W = W0.copy()
    record_steps = np.rint(np.asarray(t_grid) * N).astype(int)
    Qs, Rs = np.empty((len(record_steps), p, p)), np.empty((len(record_steps), p, ps))
    sqrtN = math.sqrt(N)
    step, r = 0, 0
    while r < len(record_steps):
        X = rng.standard_normal((chunk, N))
        noise = sigma * rng.standard_normal(chunk) if sigma else np.zeros(chunk)
        nus = X @ W_star.T / sqrtN
        ys = b * np.sum(nus**2, axis=1) + noise
        for i in range(chunk):
            while r < len(record_steps) and record_steps[r] == step:
                Qs[r], Rs[r] = W @ W.T / N, W @ W_star.T / N
                r += 1
            if r >= len(record_steps):
                break
            x = X[i]
            lam = W @ x / sqrtN
            err = a * (lam @ lam) - ys[i]
            W -= (eta_w * 2 * a * err / sqrtN) * np.outer(lam, x)
            step += 1
    return SGDRun(np.asarray(t_grid), Qs, Rs, W0, W_star, W)
