"""Random ReLU features at finite width m: the Fisher matrix, its spectrum, network outputs.

numpy only; independent of :mod:`fltheory.papers.fisher.theory`. J is built from the arc-cosine
formula (exact expectation over x for the sampled W; the random-feature kit's ReLU closed form,
:func:`fltheory.simkit.randomfeatures.arc_cosine_matrix`), or by Monte Carlo over x as a second
check. The any-σ sampler of ``fisher simulate --sigma`` is the kit's
(:mod:`fltheory.simkit.randomfeatures`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from fltheory.args import read_count, read_real
from fltheory.exact import DomainError
from fltheory.papers.fisher.params import MAX_BYTES, Sample
from fltheory.simkit import seeding
from fltheory.simkit.randomfeatures import arc_cosine_matrix
from fltheory.simkit.seeding import SeedLike

__all__ = ["MAX_BYTES", "ClusterSummary", "FisherSample", "check_sample", "cluster_summary",
           "clusters_task", "draw", "fisher_matrix", "fisher_matrix_monte_carlo", "gap_clusters",
           "paper_functions", "project_outputs", "sample", "sample_bytes"]

def _matrix(value: Any, name: str, ndim: int) -> np.ndarray:
    """A finite float array of ``ndim`` dimensions, none empty (else DomainError)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(name, type(value).__name__, "arrays of real numbers",
                          reason="is not an array of numbers") from None
    if arr.ndim != ndim or 0 in arr.shape:
        raise DomainError(name, f"an array of shape {arr.shape}",
                          f"non-empty {ndim}-dimensional arrays")
    if not np.all(np.isfinite(arr)):
        raise DomainError(name, "an array with NaN or infinite entries", "finite arrays")
    return arr


def sample_bytes(d: int, m: int) -> int:
    """Memory of :func:`sample` in bytes, 8·(d·m + 3·m²) (see MAX_BYTES); exact int.

    >>> sample_bytes(5, 1000)
    24040000
    """
    return 8 * (read_count(d, "d", 1) * read_count(m, "m", 2) + 3 * m * m)


def check_sample(d: int, m: int, seed: SeedLike) -> None:
    """Refuse sizes and seeds :func:`sample` cannot honour, before allocating anything: the
    reading of :class:`~fltheory.papers.fisher.params.Sample` (``d``: integer >= 1; ``m``:
    integer >= 2; 8·(d·m + 3·m²) bytes <= MAX_BYTES; ``seed``: an integer >= 0 or a numpy
    SeedSequence). Raises DomainError, returns None.

    >>> check_sample(5, 1000, 0)
    """
    Sample(d, m, seed)


#: J_ij = E_x[relu(w_i·x) relu(w_j·x)], the degree-1 arc-cosine kernel of the columns of W
#: (the random-feature kit's ReLU closed form, shared with the any-σ simulator)
fisher_matrix = arc_cosine_matrix


def fisher_matrix_monte_carlo(W: np.ndarray, n: int, rng: np.random.Generator | SeedLike
                              ) -> np.ndarray:
    """(1/n) Σ X(x) X(x)ᵀ over n Gaussian inputs x ~ N(0, I_d): the definition of J, sampled.

    ``W``: finite d × m array; ``n``: integer >= 1 with 8·n·(d + m) bytes <= MAX_BYTES; ``rng``:
    a numpy Generator, or a seed (integer >= 0 or SeedSequence). Returns an m × m float array.

    >>> J = fisher_matrix_monte_carlo(np.eye(2), 20_000, 0)
    >>> bool(abs(J[0, 0] - 0.5) < 0.02)
    True
    """
    W = _matrix(W, "W", 2)
    n = read_count(n, "n", 1)
    need = 8 * n * sum(W.shape)
    if need > MAX_BYTES:
        raise DomainError("n", n, f"8·n·(d + m) bytes <= {MAX_BYTES >> 30} GiB (here "
                          f"{need / 1024**3:.3g} GiB)")
    gen = rng if isinstance(rng, np.random.Generator) else seeding.rng(rng)
    X = np.maximum(gen.standard_normal((n, W.shape[0])) @ W, 0.0)
    return X.T @ X / n


@dataclass(frozen=True)
class FisherSample:
    """One simulated network: the weights W (d × m), the eigenvalues of its exact Fisher
    matrix J (descending) and the eigenvectors (columns, same order), with d, m and the seed."""

    d: int
    m: int
    seed: SeedLike
    W: np.ndarray
    eigenvalues: np.ndarray  # descending
    eigenvectors: np.ndarray  # columns, same order


def sample(d: int, m: int, seed: SeedLike) -> FisherSample:
    """W ∈ ℝ^{d×m} i.i.d. N(0, 1/m), J exactly (:func:`fisher_matrix`), and its
    eigendecomposition (descending).

    ``d``, ``m``, ``seed`` as in :func:`check_sample`, checked before anything is allocated
    (:class:`DomainError`). W is drawn from ``numpy.random.default_rng(seed)`` (the seed's
    SeedSequence). Returns a :class:`FisherSample`.

    >>> s = sample(3, 50, 0)
    >>> s.eigenvalues.shape, bool(s.eigenvalues[0] >= s.eigenvalues[-1])
    ((50,), True)
    """
    return draw(Sample(d, m, seed))


def draw(p: Sample) -> FisherSample:
    """:func:`sample` of parameters already read (a
    :class:`~fltheory.papers.fisher.params.Sample`): W and the spectrum of its exact J.

    >>> from fltheory.papers.fisher.params import Sample
    >>> draw(Sample(3, 50, 0)).eigenvalues.shape
    (50,)
    """
    W = seeding.rng(p.seed).standard_normal((p.d, p.m)) / np.sqrt(p.m)
    vals, vecs = np.linalg.eigh(fisher_matrix(W))
    return FisherSample(p.d, p.m, p.seed, W, vals[::-1], vecs[:, ::-1])  # views, no copies


def gap_clusters(eigenvalues: np.ndarray, count: int, ratio: float = 1.3) -> list[np.ndarray]:
    """The leading ``count`` clusters of a descending spectrum: a cluster ends where one
    eigenvalue exceeds the next by more than the factor ``ratio`` (no predicted sizes used).

    Inside a cluster consecutive eigenvalues differ by finite-m fluctuations (a few per cent at
    m >= 500); the predicted clusters are separated by factors >= 1.6 (d = 2) and growing with d.
    ``eigenvalues``: finite 1-D array (descending; only the positive ones are clustered);
    ``count``: integer >= 1; ``ratio``: finite number > 1. Returns a list of at most ``count``
    arrays (views into the positive eigenvalues).

    >>> [c.tolist() for c in gap_clusters(np.array([2.0, 1.0, 0.99, 0.1]), 2)]
    [[2.0], [1.0, 0.99]]
    """
    eigenvalues = _matrix(eigenvalues, "eigenvalues", 1)
    count = read_count(count, "count", 1)
    ratio = read_real(ratio, "ratio", 1, open_low=True)
    lam = eigenvalues[eigenvalues > 0]
    cuts = np.flatnonzero(lam[:-1] > ratio * lam[1:]) + 1
    bounds = np.r_[0, cuts, len(lam)][: count + 1]
    return [lam[a:b] for a, b in pairwise(bounds)]


@dataclass(frozen=True)
class ClusterSummary:
    """The leading clusters of a simulated spectrum (:func:`gap_clusters`) with what is measured
    on them: sizes, means, and the share of the whole spectrum's sum (the trace of J) they carry.
    """

    clusters: tuple[np.ndarray, ...]
    trace: float  # sum of all eigenvalues
    top_share: float  # sum of the clusters' eigenvalues / trace

    @property
    def sizes(self) -> tuple[int, ...]:
        """Number of eigenvalues in each cluster."""
        return tuple(len(c) for c in self.clusters)

    @property
    def means(self) -> tuple[float, ...]:
        """Mean eigenvalue of each cluster."""
        return tuple(float(c.mean()) for c in self.clusters)


def cluster_summary(eigenvalues: np.ndarray, count: int = 3, ratio: float = 1.3
                    ) -> ClusterSummary:
    """The leading ``count`` clusters of a descending spectrum (:func:`gap_clusters`, same
    arguments), the spectrum's sum (trace J) and the share Σ_clusters λ / Σ λ they carry.

    >>> c = cluster_summary(np.array([2.0, 1.0, 0.99, 0.01]), 2)
    >>> c.sizes, c.means[0], round(c.top_share, 4)
    ((1, 2), 2.0, 0.9975)
    """
    clusters = tuple(gap_clusters(eigenvalues, count, ratio))
    total = np.asarray(eigenvalues, dtype=float).sum()
    return ClusterSummary(clusters, float(total), float(sum(c.sum() for c in clusters) / total))


def project_outputs(sample_: FisherSample, columns: slice, basis: np.ndarray, x: np.ndarray
                    ) -> tuple[float, float]:
    """For the eigenvectors ``columns``, the network outputs f_v(x) = relu(xᵀW) v on inputs x,
    least-squares projected on the span of ``basis`` (n × b values of candidate functions).

    ``sample_``: a :class:`FisherSample`; ``columns``: a slice of eigenvector indices (non-empty);
    ``basis``: finite n × b array; ``x``: finite n × d array. Returns (mean absolute error,
    relative L2 residual), both over all outputs of the cluster after scaling each f_v to unit
    empirical L2 norm.

    >>> s = sample(2, 200, 0)
    >>> x = np.random.default_rng(1).standard_normal((200, 2))
    >>> mae, rel = project_outputs(s, slice(1, 3), x, x)  # cluster l = 1 against x_a
    >>> round(rel, 2)
    0.13
    """
    if not isinstance(sample_, FisherSample):
        raise DomainError("sample_", type(sample_).__name__, "a FisherSample (from sample())")
    x = _matrix(x, "x", 2)
    basis = _matrix(basis, "basis", 2)
    if x.shape[1] != sample_.d or basis.shape[0] != x.shape[0]:
        raise DomainError("x", f"an array of shape {x.shape} (basis {basis.shape})",
                          f"n × {sample_.d} inputs and an n × b basis")
    if not isinstance(columns, slice) or not range(sample_.m)[columns]:
        raise DomainError("columns", columns, f"non-empty slices of range({sample_.m})")
    if 8 * x.shape[0] * (sample_.m + basis.shape[1]) > MAX_BYTES:
        raise DomainError("x", f"an array of shape {x.shape}",
                          f"8·n·(m + b) bytes <= {MAX_BYTES >> 30} GiB")
    F = np.maximum(x @ sample_.W, 0.0) @ sample_.eigenvectors[:, columns]
    F /= np.sqrt(np.mean(F**2, axis=0))
    coef, *_ = np.linalg.lstsq(basis, F, rcond=None)
    R = F - basis @ coef
    return float(np.mean(np.abs(R))), float(np.sqrt(np.sum(R**2) / np.sum(F**2)))


def paper_functions(x: np.ndarray) -> np.ndarray:
    """The paper's limit functions at inputs x (n × d): ‖x‖, x_1, x_1x_2/‖x‖, x_1²/‖x‖, and
    x_1²/‖x‖ − ‖x‖/d (columns), evaluated directly.

    ``x``: finite n × d array, d >= 2, no zero row. Returns an n × 5 float array.

    >>> paper_functions(np.array([[3.0, 4.0]])).round(6).tolist()
    [[5.0, 3.0, 2.4, 1.8, -0.7]]
    """
    x = _matrix(x, "x", 2)
    r = np.linalg.norm(x, axis=1)
    if x.shape[1] < 2 or not np.all(r > 0):
        raise DomainError("x", f"an array of shape {x.shape}", "n × d arrays, d >= 2, no zero row")
    d = x.shape[1]
    return np.stack([r, x[:, 0], x[:, 0] * x[:, 1] / r, x[:, 0] ** 2 / r,
                     x[:, 0] ** 2 / r - r / d], axis=1)


def clusters_task(p: dict[str, Any], seed: Any) -> dict[str, float]:
    """The sweep task ``fisher.clusters`` (declared in :mod:`fltheory.papers.fisher.sweeps`):
    one :func:`sample` at d = ``p["d"]``, m = ``p["m"]`` and its three leading eigenvalue
    clusters (:func:`cluster_summary`): ``lambda{l}`` (means), ``size{l}`` and
    ``top3_share`` (their share of the trace).

    >>> out = clusters_task({"d": 3, "m": 200}, 0)
    >>> [out[f"size{l}"] for l in range(3)]
    [1.0, 3.0, 5.0]
    """
    s = sample(int(p["d"]), int(p["m"]), seed)
    summary = cluster_summary(s.eigenvalues, 3)
    out = {f"lambda{l}": mean for l, mean in enumerate(summary.means)}
    out |= {f"size{l}": float(size) for l, size in enumerate(summary.sizes)}
    out["top3_share"] = summary.top_share
    return out
