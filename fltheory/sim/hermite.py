"""Monte-Carlo Hermite coefficients: the sampling twin of :mod:`fltheory.theory.hermite`.

numpy/scipy only, with its own definitions of the activations and of the Hermite polynomials,
so that it shares no formula with the exact engine it checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import erf, expit

__all__ = ["ACTIVATIONS", "MonteCarloCoefficients", "hermite_orthonormal", "sample_coefficients"]


def _He(k: int) -> Callable[[np.ndarray], np.ndarray]:
    def He_k(z: np.ndarray) -> np.ndarray:
        return hermite_orthonormal(z, k)[k] * math.sqrt(math.factorial(k))
    return He_k


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda z: np.maximum(z, 0.0),
    "tanh": np.tanh,
    "sigmoid": expit,
    "softplus": lambda z: np.logaddexp(0.0, z),
    "gelu": lambda z: 0.5 * z * (1.0 + erf(z / math.sqrt(2.0))),
    "erf": erf,
    "abs": np.abs,
    "sign": np.sign,
    "quadratic": np.square,
    "cubic": lambda z: z**3,
    **{f"He{k}": _He(k) for k in range(1, 9)},
}


def hermite_orthonormal(z: np.ndarray, K: int) -> np.ndarray:
    """Rows h_0(z), …, h_K(z), h_k = He_k/√(k!), by the normalised three-term recursion
    h_{k+1} = (z h_k − √k h_{k−1})/√(k+1)."""
    out = np.empty((K + 1, *np.shape(z)))
    out[0] = 1.0
    if K >= 1:
        out[1] = z
    for k in range(1, K):
        out[k + 1] = (z * out[k] - math.sqrt(k) * out[k - 1]) / math.sqrt(k + 1)
    return out


@dataclass(frozen=True)
class MonteCarloCoefficients:
    """μ̂_k = mean of f(z) h_k(z) over n samples, with the standard error of each mean."""

    name: str
    n: int
    seed: int
    mean: np.ndarray
    stderr: np.ndarray


def sample_coefficients(name: str, K: int, n: int, seed: int,
                        chunk: int = 1 << 18) -> MonteCarloCoefficients:
    """Monte-Carlo estimate of μ_0..μ_K for a catalogue activation, streamed in chunks."""
    if name not in ACTIVATIONS:
        raise KeyError(f"no numpy activation named {name!r}")
    f = ACTIVATIONS[name]
    rng = np.random.default_rng(seed)
    s1 = np.zeros(K + 1)
    s2 = np.zeros(K + 1)
    done = 0
    while done < n:
        m = min(chunk, n - done)
        z = rng.standard_normal(m)
        prod = hermite_orthonormal(z, K) * f(z)
        s1 += prod.sum(axis=1)
        s2 += np.einsum("ij,ij->i", prod, prod)
        done += m
    mean = s1 / n
    var = np.maximum(s2 / n - mean**2, 0.0) * n / (n - 1)
    return MonteCarloCoefficients(name, n, seed, mean, np.sqrt(var / n))
