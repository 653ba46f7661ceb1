"""Numpy simulator of the spectral-threshold kit: sampled spiked Wigner and spiked Wishart
matrices (top eigenvalue and squared overlap of its eigenvector with the spike) and the
spectral estimator of phase retrieval. It imports no theory: an independent witness.

Normalisations (the same as :mod:`fltheory.engine.spectral.spikes`, restated as code):

* Wigner: W = (G + Gᵀ)/√(2N), G with i.i.d. N(0, 1) entries (off-diagonal variance 1/N),
  M = W + θ e₁e₁ᵀ (W is orthogonally invariant, so e₁ stands for any unit spike);
* Wishart: x_μ ~ N(0, Σ), Σ = I + (ℓ − 1) e₁e₁ᵀ, S = (1/n) Σ_μ x_μ x_μᵀ, γ = p/n;
* phase retrieval: x_μ ~ N(0, I_d), s = x_μ·e₁, y = s², n = αd, D = (1/n) Σ_μ T(y_μ) x_μ x_μᵀ
  with T(y) = 1 − 1/y (the optimal preprocessing, written here from its definition
  1 − 1/E[s²|y] with E[s²|y] = y), or a clipped T(y) = min(y, c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fltheory.args import read_count
from fltheory.simkit.seeding import SeedLike, rng

__all__ = ["MAX_DIM", "TopPair", "phase_retrieval", "spiked_wigner", "spiked_wishart"]

#: Largest matrix side simulated (eigh of an N × N matrix: O(N³), ~1 s at N = 2000 here).
MAX_DIM = 4000


@dataclass(frozen=True)
class TopPair:
    """The top eigenvalue ``eigenvalue`` of one sampled matrix and the squared overlap
    ``overlap`` of its unit eigenvector with e₁."""

    eigenvalue: float
    overlap: float


def spiked_wigner(N: int, theta: float, seed: SeedLike) -> TopPair:
    """Top eigenpair of M = W + θ e₁e₁ᵀ, W = (G + Gᵀ)/√(2N) (module docstring).

    >>> p = spiked_wigner(400, 3.0, 0)
    >>> abs(p.eigenvalue - 10 / 3) < 0.3, abs(p.overlap - 8 / 9) < 0.1
    (True, True)
    """
    N = read_count(N, "N", 2, MAX_DIM)
    g = rng(seed).standard_normal((N, N))
    m = (g + g.T) / np.sqrt(2 * N)
    m[0, 0] += theta
    values, vectors = np.linalg.eigh(m)
    return TopPair(float(values[-1]), float(vectors[0, -1] ** 2))


def spiked_wishart(p: int, n: int, ell: float, seed: SeedLike) -> TopPair:
    """Top eigenpair of S = (1/n) Σ x_μ x_μᵀ, x_μ ~ N(0, I + (ℓ − 1) e₁e₁ᵀ) in R^p.

    >>> q = spiked_wishart(200, 600, 4.0, 0)
    >>> abs(q.eigenvalue - 4 * (1 + (1 / 3) / 3)) < 0.5
    True
    """
    p, n = read_count(p, "p", 2, MAX_DIM), read_count(n, "n", 2, MAX_DIM)
    z = rng(seed).standard_normal((p, n))
    z[0] *= np.sqrt(ell)
    values, vectors = np.linalg.eigh(z @ z.T / n)
    return TopPair(float(values[-1]), float(vectors[0, -1] ** 2))


def phase_retrieval(d: int, alpha: float, seed: SeedLike, clip: float | None = None) -> TopPair:
    """Top eigenpair of D = (1/n) Σ T(y_μ) x_μ x_μᵀ for y = (x·e₁)², n = round(αd) samples,
    T(y) = 1 − 1/y (``clip`` None) or min(y, clip).

    >>> r = phase_retrieval(300, 3.0, 0)
    >>> 0.5 < r.overlap <= 1
    True
    """
    d = read_count(d, "d", 2, MAX_DIM)
    n = read_count(round(alpha * d), "n", 2, MAX_DIM)
    x = rng(seed).standard_normal((n, d))
    y = x[:, 0] ** 2
    with np.errstate(divide="ignore"):
        t = 1 - 1 / y if clip is None else np.minimum(y, clip)
    values, vectors = np.linalg.eigh((x * t[:, None]).T @ x / n)
    return TopPair(float(values[-1]), float(vectors[0, -1] ** 2))
