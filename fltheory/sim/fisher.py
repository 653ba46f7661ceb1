"""Random ReLU features at finite width m: the Fisher matrix, its spectrum, network outputs.

numpy only; independent of :mod:`fltheory.theory.fisher`. J is built from the arc-cosine formula
(exact expectation over x for the sampled W), or by Monte Carlo over x as a second check.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from fltheory.exact import DomainError

__all__ = ["MAX_BYTES", "FisherSample", "check_sample", "fisher_matrix",
           "fisher_matrix_monte_carlo", "gap_clusters", "project_outputs", "sample"]

#: Memory of one sample: W (d × m), J and its eigenvectors (m × m each) and eigh's workspace
#: (about one more m × m): 8·(d·m + 3·m²) bytes. 2 GiB keeps a sample on a small machine.
MAX_BYTES = 2 * 1024**3


def _gib(nbytes: int) -> str:
    """Bytes as GiB for a message (no float overflow for absurd sizes)."""
    if nbytes.bit_length() < 1000:
        return f"{nbytes / 1024**3:.3g} GiB"
    return f"about 2^{nbytes.bit_length() - 30} GiB"


def sample_bytes(d: int, m: int) -> int:
    """Memory of :func:`sample` in bytes (see MAX_BYTES)."""
    return 8 * (d * m + 3 * m * m)


def check_sample(d: int, m: int, seed: int) -> None:
    """Refuse sizes and seeds :func:`sample` cannot honour, before allocating anything."""
    for name, value, low in (("d", d, 1), ("m", m, 2), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
            raise DomainError(name, value, f"integers >= {low}")
    need = sample_bytes(d, m)
    if need > MAX_BYTES:
        name, value = ("d", d) if d > 3 * m else ("m", m)
        shown = value if int(value).bit_length() < 64 else f"about 2^{int(value).bit_length()}"
        raise DomainError(name, shown, f"8·(d·m + 3·m²) bytes <= {MAX_BYTES >> 30} GiB (here "
                        f"{_gib(need)})")


def fisher_matrix(W: np.ndarray) -> np.ndarray:
    """J_ij = E_x[relu(w_i·x) relu(w_j·x)] = ‖w_i‖‖w_j‖(sin θ + (π − θ) cos θ)/(2π),
    x ~ N(0, I_d), w_i the columns of W (Cho & Saul's degree-1 arc-cosine kernel).

    Built in place around one BLAS product, with a single m × m temporary.
    """
    norms = np.linalg.norm(W, axis=0)
    C = W.T @ W
    C /= norms[:, None]
    C /= norms[None, :]
    np.clip(C, -1.0, 1.0, out=C)  # cos θ
    T = np.arccos(C)
    np.subtract(np.pi, T, out=T)
    T *= C  # (π − θ) cos θ
    np.multiply(C, C, out=C)
    np.subtract(1.0, C, out=C)
    np.sqrt(C, out=C)  # sin θ
    C += T
    del T
    C *= norms[:, None] / (2 * np.pi)
    C *= norms[None, :]
    return C


def fisher_matrix_monte_carlo(W: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """(1/n) Σ X(x) X(x)ᵀ over n Gaussian inputs: the definition, sampled."""
    X = np.maximum(rng.standard_normal((n, W.shape[0])) @ W, 0.0)
    return X.T @ X / n


@dataclass(frozen=True)
class FisherSample:
    d: int
    m: int
    seed: int
    W: np.ndarray
    eigenvalues: np.ndarray  # descending
    eigenvectors: np.ndarray  # columns, same order


def sample(d: int, m: int, seed: int) -> FisherSample:
    """W ∈ ℝ^{d×m} i.i.d. N(0, 1/m), J exactly, and its eigendecomposition (descending).

    Sizes are checked first (:func:`check_sample`, :class:`DomainError`)."""
    check_sample(d, m, seed)
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((d, m)) / np.sqrt(m)
    vals, vecs = np.linalg.eigh(fisher_matrix(W))
    return FisherSample(d, m, seed, W, vals[::-1], vecs[:, ::-1])  # views, no copies


def gap_clusters(eigenvalues: np.ndarray, count: int, ratio: float = 1.3) -> list[np.ndarray]:
    """The leading ``count`` clusters of a descending spectrum: a cluster ends where one
    eigenvalue exceeds the next by more than the factor ``ratio`` (no predicted sizes used).

    Inside a cluster consecutive eigenvalues differ by finite-m fluctuations (a few per cent at
    m >= 500); the predicted clusters are separated by factors >= 1.6 (d = 2) and growing with d.
    """
    lam = eigenvalues[eigenvalues > 0]
    cuts = np.flatnonzero(lam[:-1] > ratio * lam[1:]) + 1
    bounds = np.r_[0, cuts, len(lam)][: count + 1]
    return [lam[a:b] for a, b in pairwise(bounds)]


def project_outputs(sample_: FisherSample, columns: slice, basis: np.ndarray, x: np.ndarray
                    ) -> tuple[float, float]:
    """For the eigenvectors ``columns``, the network outputs f_v(x) = relu(xᵀW) v on inputs x,
    least-squares projected on the span of ``basis`` (n × b values of candidate functions).

    Returns (mean absolute error, relative L2 residual), both over all outputs of the cluster
    after scaling each f_v to unit empirical L2 norm.
    """
    F = np.maximum(x @ sample_.W, 0.0) @ sample_.eigenvectors[:, columns]
    F /= np.sqrt(np.mean(F**2, axis=0))
    coef, *_ = np.linalg.lstsq(basis, F, rcond=None)
    R = F - basis @ coef
    return float(np.mean(np.abs(R))), float(np.sqrt(np.sum(R**2) / np.sum(F**2)))


def paper_functions(x: np.ndarray) -> np.ndarray:
    """The paper's limit functions at inputs x (n × d): ‖x‖, x_1, x_1x_2/‖x‖, x_1²/‖x‖, and
    x_1²/‖x‖ − ‖x‖/d (columns), evaluated directly."""
    r = np.linalg.norm(x, axis=1)
    d = x.shape[1]
    return np.stack([r, x[:, 0], x[:, 0] * x[:, 1] / r, x[:, 0] ** 2 / r,
                     x[:, 0] ** 2 / r - r / d], axis=1)
