"""Teachers shared by the simulators of the online-SGD papers (quadratic networks, committee
machines): p* orthonormal Gaussian directions in dimension N, scaled so that W*W*ᵀ/N is the
diagonal the caller prescribes (the identity by default)."""

from __future__ import annotations

import math

import numpy as np

from fltheory.args import check_memory, read_count
from fltheory.exact import DomainError

__all__ = ["orthonormal_teacher"]


def orthonormal_teacher(N: int, p_star: int, rng: np.random.Generator,
                        eigenvalues: np.ndarray | None = None) -> np.ndarray:
    """Teacher rows (p* × N) with W*W*ᵀ/N = diag(eigenvalues) exactly (default identity):
    orthonormalised Gaussian directions drawn from ``rng`` (a numpy Generator), scaled.

    >>> W = orthonormal_teacher(10, 2, np.random.default_rng(0))
    >>> np.allclose(W @ W.T / 10, np.eye(2))
    True
    """
    if not isinstance(rng, np.random.Generator):
        raise DomainError("rng", type(rng).__name__, "a numpy Generator")
    p_star = read_count(p_star, "p_star", 1)
    N = read_count(N, "N", p_star)
    check_memory("N", N, 8.0 * 3 * N * p_star)
    if eigenvalues is not None:
        ev = np.asarray(eigenvalues, dtype=float)
        if ev.shape != (p_star,) or not np.isfinite(ev).all() or ev.min() <= 0:
            raise DomainError("eigenvalues", ev.tolist(),
                                       f"{p_star} finite positive numbers")
    Qm, _ = np.linalg.qr(rng.standard_normal((N, p_star)))
    scale = np.ones(p_star) if eigenvalues is None else np.sqrt(eigenvalues)
    return (Qm.T * math.sqrt(N)) * scale[:, None]
