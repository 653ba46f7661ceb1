"""Monte-Carlo Hermite coefficients: the sampling twin of :mod:`fltheory.engine.hermite`.

numpy/scipy only, with the numpy face of the activation catalogue
(:mod:`fltheory.simkit.activations`) and its own Hermite recursion, so that it shares no formula
with the exact engine it checks. Samples z ~ N(0, 1) are drawn from
``fltheory.simkit.seeding.rng(seed)``: the caller gives each activation its own seed (a child of the
user's seed) so that their estimates are independent. A sample's parameters (name, K, n, seed,
chunk) are one :class:`~fltheory.papers.hermite.params.Sample`, read once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fltheory.args import read_count, read_finite
from fltheory.exact import DomainError
from fltheory.papers.hermite.params import Sample
from fltheory.simkit.activations import ACTIVATIONS
from fltheory.simkit.seeding import SeedLike, rng

__all__ = ["ACTIVATIONS", "MonteCarloCoefficients", "hermite_orthonormal", "sample",
           "sample_coefficients"]


def hermite_orthonormal(z: np.ndarray, K: int) -> np.ndarray:
    """Rows h_0(z), …, h_K(z), h_k = He_k/√(k!), by the normalised three-term recursion
    h_{k+1} = (z h_k − √k h_{k−1})/√(k+1).

    Parameters: ``z``, an array of finite real points; ``K``, the highest degree, an integer
    in [0, 200] (else DomainError). Returns a float64 array of shape ``(K + 1, *z.shape)``.

    >>> hermite_orthonormal(np.array([0.0, 1.0]), 2).round(6).tolist()
    [[1.0, 1.0], [0.0, 1.0], [-0.707107, 0.0]]
    """
    K = read_count(K, "K", 0, 200)
    if isinstance(z, str | bytes):
        raise DomainError("z", repr(z)[:40], "an array of finite real points")
    z = np.asarray(read_finite(z, "z"), dtype=float)
    out = np.empty((K + 1, *np.shape(z)))
    out[0] = 1.0
    if K >= 1:
        out[1] = z
    for k in range(1, K):
        out[k + 1] = (z * out[k] - math.sqrt(k) * out[k - 1]) / math.sqrt(k + 1)
    return out


@dataclass(frozen=True)
class MonteCarloCoefficients:
    """μ̂_k = mean of f(z) h_k(z) over n samples (``mean[k]``), with the standard error of each
    mean (``stderr[k]``), for the activation ``name`` drawn with ``seed``."""

    name: str
    n: int
    seed: SeedLike
    mean: np.ndarray
    stderr: np.ndarray


def sample_coefficients(name: str, K: int, n: int, seed: SeedLike,
                        chunk: int = 1 << 18) -> MonteCarloCoefficients:
    """Monte-Carlo estimate of μ_k = E[f(z) h_k(z)], k = 0..K, z ~ N(0, 1), for an activation:
    :func:`sample` of ``Sample(name, K, n, seed, chunk)``.

    Parameters: ``name``, a key of :data:`ACTIVATIONS`; ``K``, the highest degree, in [0, 200];
    ``n``, the number of samples, in [2, 10^10]; ``seed``, an integer >= 0 or a SeedSequence
    (:mod:`fltheory.simkit.seeding`); ``chunk``, samples per batch (memory), in [1, 2^24].
    Returns :class:`MonteCarloCoefficients` (float64 means and standard errors, the latter
    from the sample variance with n − 1).

    >>> mc = sample_coefficients("relu", 2, 10_000, seed=0)
    >>> bool(abs(mc.mean[1] - 0.5) < 4 * mc.stderr[1])
    True
    """
    return sample(Sample(name, K, n, seed, chunk))


def sample(s: Sample) -> MonteCarloCoefficients:
    """The Monte-Carlo coefficients of one sample (:func:`sample_coefficients`).

    >>> sample(Sample("He1", 1, 1000, seed=3)).mean.shape
    (2,)
    """
    f = ACTIVATIONS[s.name]
    generator = rng(s.seed)
    n, K = s.n, s.K
    s1 = np.zeros(K + 1)
    s2 = np.zeros(K + 1)
    done = 0
    while done < n:
        m = min(s.chunk, n - done)
        z = generator.standard_normal(m)
        prod = hermite_orthonormal(z, K) * f(z)
        s1 += prod.sum(axis=1)
        s2 += np.einsum("ij,ij->i", prod, prod)
        done += m
    mean = s1 / n
    var = np.maximum(s2 / n - mean**2, 0.0) * n / (n - 1)
    return MonteCarloCoefficients(s.name, n, s.seed, mean, np.sqrt(var / n))
