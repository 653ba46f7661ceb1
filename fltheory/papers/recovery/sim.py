r"""The layer-wise spectral algorithm on the hierarchical target (Dandi et al. 2026), numpy only.

Model (q = 2). Inputs x ~ N(0, I_d); features φ(x) ∈ ℝ^D, D = d(d+1)/2, the orthonormal degree-2
Hermite polynomials x_a x_b (a < b) and (x_a² − 1)/√2, so that E[φφᵀ] = I_D. Latent directions are
orthonormal A_1..A_{d1} ∈ ℝ^D, h_i = ⟨A_i, φ(x)⟩, and the label is

.. math::

    y = \sum_i c_i \frac{h_i^2 - 1}{\sqrt2} + \sigma\xi, \qquad
    c_i = \frac{\lambda_i}{\lVert\lambda\rVert}, \qquad
    \lambda_i = i^{-\gamma} \text{ (or given strengths)},

so Var(y) = 1 + σ². Two feature modes: ``hermite`` (the real features of a Gaussian x) and
``gaussian`` (φ ~ N(0, I_D) directly, the Gaussian-equivalent surrogate; any q).

Algorithm. Label transform T (``rank``: 2 rank/n − 1, ``sign``: ±1 about the median,
``identity``: y − ȳ); moment matrix Ĉ = (1/n) Σ_j T_j φ_j φ_jᵀ accumulated in chunks (n × D never
held); its top eigenvectors Â; the second layer fitted by least squares of y on
[1, (ĥ_i² − 1)/√2] with ĥ = Âᵀφ on a fresh sample; test MSE on another fresh sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import read_choice, read_count, read_matrix, read_real
from fltheory.exact import DomainError
from fltheory.papers.recovery.params import (
    CHUNK,
    FEATURES,
    LATENTS,
    MAX_Q,
    DepthRun,
    SpectralRun,
    feature_count,
)
from fltheory.papers.recovery.params import MAX_SIM_BYTES as MAX_BYTES
from fltheory.papers.recovery.params import SIM_TRANSFORMS as TRANSFORMS
from fltheory.simkit.seeding import SeedLike, child, rng, sequence

__all__ = ["FEATURES", "LATENTS", "MAX_BYTES", "MAX_Q", "TRANSFORMS", "DepthResult",
           "RecoveryRun", "check_run", "depth_simulate", "feature_dim", "flat_latents",
           "hermite_features", "label_transform", "relu_ntk", "run", "simulate",
           "spectral_task", "sphere_inputs", "sphere_parts", "strengths"]

# Keys of the independent parts of a run under its seed (fltheory.simkit.seeding): the latent
# directions, the chunks of the moment matrix (chunk i draws from child(seed, _CHUNKS, i)), the
# fresh samples of the second layer (fit, then test) and the label noise.
_LATENTS, _CHUNKS, _FIT, _NOISE = 0, 1, 2, 3


def check_run(d: int, n: int, seed: SeedLike, q: int, d1: int, chunk: int = CHUNK, *,
              features: str = "gaussian", transform: str = "rank", latents: str = "flat",
              keep: int | None = None, n_fit: int | None = None, n_test: int = 20000) -> None:
    """Refuse arguments :func:`run` cannot honour (DomainError), before allocating anything:
    the bounds of :class:`~fltheory.papers.recovery.params.SpectralRun`, and ``seed`` an
    integer >= 0 or a SeedSequence.

    >>> check_run(10, 1000, 0, 2, 8)
    >>> check_run(10, 1000, 0, 3, 8, features="hermite")
    Traceback (most recent call last):
    fltheory.exact.DomainError: q = 3 is outside the allowed range q = 2 with hermite features
    """
    SpectralRun(d, n, q, d1, features=features, transform=transform, keep=keep, n_fit=n_fit,
                n_test=n_test, latents=latents, chunk=chunk)
    sequence(seed)


def feature_dim(d: int, q: int) -> int:
    """C(d + q − 1, q): the number of degree-q multivariate Hermite polynomials of d variables
    (an exact int; d >= 1, 1 <= q <= MAX_Q).

    >>> feature_dim(10, 2), feature_dim(10, 3)
    (55, 220)
    """
    return feature_count(read_count(d, "d", 1), read_count(q, "q", 1, MAX_Q))


def strengths(d1: int, gamma: float) -> np.ndarray:
    """λ_i = i^{−γ}, i = 1..d1 (d1 >= 1 an integer, γ > 0 finite; doubles).

    >>> strengths(3, 1.0).tolist()
    [1.0, 0.5, 0.3333333333333333]
    """
    d1 = read_count(d1, "d1", 1, 10**7)
    return np.arange(1, d1 + 1, dtype=float) ** (-read_real(gamma, "gamma", 0, open_low=True))


def _pairs(d: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(d, k=1)


def hermite_features(X: np.ndarray) -> np.ndarray:
    """Rows φ(x) of the degree-2 features of the rows x of ``X`` (m × d, finite): [x_a x_b for
    a < b (row-major)] then [(x_a² − 1)/√2], so that E[φφᵀ] = I for x ~ N(0, I_d); written in
    place into one m × d(d+1)/2 output array (no gathers).

    >>> hermite_features(np.array([[1.0, 2.0]])).round(4).tolist()
    [[2.0, 0.0, 2.1213]]
    """
    X = read_matrix(X, "X")
    m, d = X.shape
    if 8 * m * d * (d + 1) // 2 > MAX_BYTES:
        raise DomainError("X", f"an array of shape {X.shape}", f"{MAX_BYTES >> 30} GiB of "
                          "features", reason="is too large")
    phi = np.empty((m, d * (d + 1) // 2))
    off = 0
    for a in range(d - 1):
        width = d - a - 1
        np.multiply(X[:, a:a + 1], X[:, a + 1:], out=phi[:, off:off + width])
        off += width
    tail = phi[:, off:]
    np.multiply(X, X, out=tail)
    tail -= 1.0
    tail *= 1 / math.sqrt(2.0)
    return phi


def _matrix_to_feature(M: np.ndarray) -> np.ndarray:
    """Coordinates of the symmetric M in the basis above: h = (xᵀMx − tr M)/√2 = ⟨A, φ⟩ with
    A_ab = √2 M_ab (a < b) and A_aa = M_aa; ‖A‖ = ‖M‖_F."""
    ia, ib = _pairs(M.shape[0])
    return np.concatenate([math.sqrt(2.0) * M[ia, ib], np.diag(M)])


def flat_latents(d: int, d1: int, rng: np.random.Generator) -> np.ndarray:
    """D × d1 orthonormal latent directions, each (before orthonormalisation) a symmetric matrix
    O diag(±1/√d) Oᵀ with random orthogonal O and balanced signs ("flat": no direction of ℝ^d
    dominates, trace zero). Orthonormalised jointly (QR); the change is O(1/√D).

    ``d`` >= 2 and 1 <= ``d1`` <= d(d+1)/2 integers, ``rng`` a numpy Generator.

    >>> A = flat_latents(4, 2, np.random.default_rng(0))
    >>> A.shape, bool(np.allclose(A.T @ A, np.eye(2)))
    ((10, 2), True)
    """
    d = read_count(d, "d", 2)
    read_count(d1, "d1", 1, d * (d + 1) // 2)
    if 8 * d * d * (d1 + 1) > MAX_BYTES:
        raise DomainError("d", d, f"{MAX_BYTES >> 30} GiB of latent matrices")
    if not isinstance(rng, np.random.Generator):
        raise DomainError("rng", repr(rng), "a numpy Generator")
    cols = []
    signs = np.where(np.arange(d) % 2 == 0, 1.0, -1.0) / math.sqrt(d)
    for _ in range(d1):
        O, R = np.linalg.qr(rng.standard_normal((d, d)))
        O *= np.sign(np.diag(R))
        cols.append(_matrix_to_feature((O * signs) @ O.T))
    Q, R = np.linalg.qr(np.column_stack(cols))
    return Q * np.sign(np.diag(R))


def _random_latents(D: int, d1: int, rng: np.random.Generator) -> np.ndarray:
    Q, R = np.linalg.qr(rng.standard_normal((D, d1)))
    return Q * np.sign(np.diag(R))


def label_transform(y: np.ndarray, kind: str) -> np.ndarray:
    """T(y) of a non-empty finite 1-D array y: ``rank`` 2 rank/n − 1 ∈ (−1, 1] (ranks 1..n,
    ties in order), ``sign`` ±1 about the median, ``identity`` y minus its mean (kind in
    TRANSFORMS).

    >>> label_transform(np.array([3.0, -1.0, 2.0, 10.0]), "rank").tolist()
    [0.5, -0.5, 0.0, 1.0]
    """
    read_choice(kind, "transform", TRANSFORMS)
    y = np.asarray(y, dtype=float) if isinstance(y, np.ndarray | Sequence) else np.array(np.nan)
    if y.ndim != 1 or len(y) == 0 or not np.all(np.isfinite(y)):
        raise DomainError("y", f"an array of shape {y.shape}", "a non-empty finite 1-D array")
    if kind == "rank":
        r = np.empty(len(y))
        r[np.argsort(y, kind="stable")] = np.arange(1, len(y) + 1)
        return 2.0 * r / len(y) - 1.0
    if kind == "sign":
        return np.where(y > np.median(y), 1.0, -1.0)
    return y - y.mean()


def _feature_to_matrices(B: np.ndarray, d: int) -> np.ndarray:
    """The symmetric matrices behind feature vectors (columns of B), stacked d × d × K, so that
    ⟨B_k, φ(x)⟩ = (xᵀM_k x − tr M_k)/√2: the inverse of the coordinate map above."""
    ia, ib = _pairs(d)
    M = np.zeros((d, d, B.shape[1]))
    M[ia, ib] = B[:len(ia)] / math.sqrt(2.0)
    M[ib, ia] = M[ia, ib]
    M[np.arange(d), np.arange(d)] = B[len(ia):]
    return M


class _Sampler:
    """Draws chunks of inputs for one feature mode: the feature rows φ (for Ĉ) and, without
    building φ, the latent fields ⟨B_k, φ⟩ for any set of directions B (labels, second layer).

    ``gaussian``: φ ~ N(0, I_D) is rotation invariant, so the latents are A_i = e_i (the first d1
    coordinates) without loss of generality; a chunk draws h = φ[:, :d1] first and the rest of φ
    after, so that labels can be computed from the first draw alone. Fields along other
    directions are drawn from their exact joint Gaussian law (Gram matrix of the directions).
    ``hermite``: a chunk draws x; fields are quadratic forms (xᵀM x − tr M)/√2, O(n d² K).
    """

    def __init__(self, mode: str, d: int, q: int, d1: int, c: np.ndarray, sigma: float,
                 rng: np.random.Generator, latents: str):
        if mode not in FEATURES:
            raise ValueError(f"unknown feature mode {mode!r}; choose from {FEATURES}")
        if mode == "hermite" and q != 2:
            raise ValueError("hermite features are implemented for q = 2")
        self.mode, self.d, self.d1, self.c, self.sigma = mode, d, d1, c, sigma
        self.D = feature_count(d, q)
        if mode == "gaussian":
            self.A = np.eye(self.D, d1)
        elif latents == "flat":
            self.A = flat_latents(d, d1, rng)
        else:
            self.A = _random_latents(self.D, d1, rng)

    def labels(self, h: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """y from the latent fields; label noise from ``rng`` (a stream of its own)."""
        y = (h * h - 1.0) @ (self.c / math.sqrt(2.0))
        if self.sigma:
            y += self.sigma * rng.standard_normal(len(y))
        return y

    def first_fields(self, m: int, rng: np.random.Generator) -> np.ndarray:
        """h = Aᵀφ of the chunk that :meth:`features` draws from the same stream."""
        if self.mode == "gaussian":
            return rng.standard_normal((m, self.d1))
        return self._forms(rng.standard_normal((m, self.d)), self.A)

    def features(self, m: int, rng: np.random.Generator) -> np.ndarray:
        """m feature rows φ (the same inputs as :meth:`first_fields` from the same stream)."""
        if self.mode == "hermite":
            return hermite_features(rng.standard_normal((m, self.d)))
        h = rng.standard_normal((m, self.d1))
        phi = np.empty((m, self.D))
        rng.standard_normal(out=phi)
        phi[:, :self.d1] = h
        return phi

    def fields(self, m: int, rng: np.random.Generator, V: np.ndarray) -> tuple[np.ndarray,
                                                                               np.ndarray]:
        """Fresh inputs: (Aᵀφ, Vᵀφ) jointly, without forming φ."""
        if self.mode == "hermite":
            both = self._forms(rng.standard_normal((m, self.d)), np.hstack([self.A, V]))
        else:
            B = np.hstack([self.A, V])
            w, U = np.linalg.eigh(B.T @ B)
            root = U * np.sqrt(np.clip(w, 0.0, None))  # root @ rootᵀ = BᵀB
            both = rng.standard_normal((m, B.shape[1])) @ root.T
        return both[:, :self.d1], both[:, self.d1:]

    def _forms(self, X: np.ndarray, B: np.ndarray) -> np.ndarray:
        M = _feature_to_matrices(B, self.d)
        K = B.shape[1]
        XM = (X @ M.reshape(self.d, self.d * K)).reshape(len(X), self.d, K)
        trace = np.trace(M)
        out: np.ndarray = (np.einsum("ndk,nd->nk", XM, X) - trace) / math.sqrt(2.0)
        return out


@dataclass(frozen=True)
class RecoveryRun:
    """One run of :func:`run`: sizes, the seed it drew from, the top eigenvalues of Ĉ, the
    overlaps of its top eigenvectors with the latent directions, the fitted second layer and the
    test MSE with its standard error."""

    d: int
    q: int
    D: int
    n: int
    seed: SeedLike
    features: str
    transform: str
    eigenvalues: np.ndarray  # top ``keep`` of Ĉ, descending
    overlaps: np.ndarray  # keep × d1: ⟨Â_j, A_i⟩²
    coefficients: np.ndarray  # fitted second layer [intercept, b_1..b_K]
    mse: float  # test MSE (Var y = 1 + σ² for gaussian features)
    mse_se: float  # its Monte Carlo standard error over the test sample
    y_var: float  # sample variance of y on the test sample

    @property
    def relative_mse(self) -> float:
        """MSE / Var(y): with real Hermite features Var(y) > 1 (fourth cumulants of h)."""
        return self.mse / self.y_var

    @property
    def best_overlaps(self) -> np.ndarray:
        """ρ_i² = max_j ⟨Â_j, A_i⟩² over the kept top eigenvectors."""
        return self.overlaps.max(axis=0)


def _fast_rng(ss: np.random.SeedSequence) -> np.random.Generator:
    """SFC64 for the bulk feature draws: a quarter faster than PCG64 at normals, same quality
    class (passes PractRand/BigCrush); seeded per chunk."""
    return np.random.Generator(np.random.SFC64(ss))


def run(d: int, n: int, seed: SeedLike, *, q: int = 2, d1: int = 8, gamma: float = 1.0,
        lam: Sequence[float] | None = None, features: str = "gaussian",
        transform: str = "rank", sigma: float = 0.0, keep: int | None = None,
        n_fit: int | None = None, n_test: int = 20000, latents: str = "flat",
        chunk: int = CHUNK, prefetch: bool = True) -> RecoveryRun:
    """One run of the spectral algorithm at n samples; ``keep`` top eigenvectors (default d1)
    form Â; the second layer is fitted on ``n_fit`` fresh samples (default n, at least
    10·(keep + 1)) and tested on ``n_test`` more: :func:`simulate` of the
    :class:`~fltheory.papers.recovery.params.SpectralRun` these arguments make.

    Arguments as in :func:`check_run`; λ_i = i^{−γ} (γ > 0) unless ``lam`` (positive numbers)
    is given; σ >= 0 the label noise. ``seed``: an integer >= 0 or a SeedSequence, whose
    children (fltheory.simkit.seeding) draw the latents, the chunks of Ĉ, the second layer's
    samples and the noise.

    >>> r = run(6, 2000, 0, d1=2, n_test=2000)
    >>> r.D, r.overlaps.shape, bool(r.best_overlaps[0] > 0.8)
    (21, (2, 2), True)
    """
    spec = SpectralRun(d, n, q, d1, gamma, lam, features, transform, sigma, keep, n_fit, n_test,
                       latents, chunk)
    sequence(seed)
    return simulate(spec, seed, prefetch)


def simulate(spec: SpectralRun, seed: SeedLike, prefetch: bool = True) -> RecoveryRun:
    """One run of the spectral algorithm (:class:`~fltheory.papers.recovery.params.SpectralRun`,
    read once) from ``seed``. Ĉ is accumulated chunk by chunk (memory O(chunk·D + D²)); the next
    chunk's features are drawn in a helper thread while BLAS multiplies the current one (numpy's
    generators and the feature products release the GIL). Chunks have their own seeds, so the
    result does not depend on the thread timing. ``prefetch=False`` keeps the run on one thread
    (sweeps run one task per core).

    >>> r = simulate(SpectralRun(6, 2000, d1=2, n_test=2000), 0)
    >>> r.D, bool(r.best_overlaps[0] > 0.8)
    (21, True)
    """
    d, n, q, chunk = spec.d, spec.n, spec.q, spec.chunk
    rng = np.random.default_rng(child(seed, _LATENTS))
    lam_arr = (np.arange(1, spec.d1 + 1, dtype=float) ** (-spec.gamma) if spec.lam is None
               else np.asarray(spec.lam, dtype=float))
    d1 = len(lam_arr)
    c = lam_arr / np.linalg.norm(lam_arr)
    smp = _Sampler(spec.features, d, q, d1, c, spec.sigma, rng, spec.latents)
    keep = d1 if spec.keep is None else spec.keep
    noise = np.random.default_rng(child(seed, _NOISE))
    C = _spectral_matrix(smp, seed, n, chunk, spec.transform, noise, prefetch)
    C /= n
    evals, evecs = np.linalg.eigh(C)
    V = evecs[:, ::-1][:, :keep]
    overlaps = (V.T @ smp.A) ** 2

    # second layer on a fresh sample, test MSE on another
    n_fit = max(n if spec.n_fit is None else spec.n_fit, 10 * (keep + 1))
    rf = np.random.default_rng(child(seed, _FIT))
    design, target = _design(smp, V, n_fit, rf, noise, chunk)
    coef, *_ = np.linalg.lstsq(design, target, rcond=None)
    design, target = _design(smp, V, spec.n_test, rf, noise, chunk)
    err = (design @ coef - target) ** 2
    return RecoveryRun(d, q, smp.D, n, seed, spec.features, spec.transform,
                       evals[::-1][:keep].copy(), overlaps, coef, float(err.mean()),
                       float(err.std(ddof=1) / math.sqrt(len(err))), float(target.var(ddof=1)))


def _spectral_matrix(smp: _Sampler, seed: SeedLike, n: int, chunk: int, transform: str,
                     noise: np.random.Generator, prefetch: bool) -> np.ndarray:
    """n·Ĉ = Σ T_j φ_j φ_jᵀ over n samples in chunks (each chunk from its own child of
    ``seed``), in two passes: the latent fields and labels first (cheap; ``noise`` draws the
    label noise), so that the rank/median transform T sees all of y; then the features, one
    GEMM per chunk (:func:`_accumulate`)."""
    streams = [child(seed, _CHUNKS, i) for i in range((n + chunk - 1) // chunk)]
    sizes = [min(chunk, n - i * chunk) for i in range(len(streams))]
    y = np.concatenate([smp.labels(smp.first_fields(m, _fast_rng(ss)), noise)
                        for m, ss in zip(sizes, streams, strict=True)])
    T = label_transform(y, transform)
    return _accumulate(smp, sizes, streams, T, prefetch)


def _accumulate(smp: _Sampler, sizes: list[int], streams: list[Any], T: np.ndarray,
                prefetch: bool) -> np.ndarray:
    """Σ_j T_j φ_j φ_jᵀ, chunk by chunk; with ``prefetch`` the next chunk's features are drawn
    in a helper thread while BLAS multiplies the current one."""
    from concurrent.futures import ThreadPoolExecutor

    C = np.zeros((smp.D, smp.D))
    start = 0
    if prefetch:
        with ThreadPoolExecutor(max_workers=1) as pool:
            ahead = pool.submit(smp.features, sizes[0], _fast_rng(streams[0]))
            for i, m in enumerate(sizes):
                phi = ahead.result()
                if i + 1 < len(sizes):
                    ahead = pool.submit(smp.features, sizes[i + 1], _fast_rng(streams[i + 1]))
                C += phi.T @ (phi * T[start:start + m, None])
                start += m
    else:
        for m, ss in zip(sizes, streams, strict=True):
            phi = smp.features(m, _fast_rng(ss))
            C += phi.T @ (phi * T[start:start + m, None])
            start += m
    return C


def _design(smp: _Sampler, V: np.ndarray, m: int, rng: np.random.Generator,
            noise: np.random.Generator, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    rows, ys = [], []
    for start in range(0, m, chunk):
        h, hh = smp.fields(min(chunk, m - start), rng, V)
        rows.append(np.column_stack([np.ones(len(hh)), (hh * hh - 1.0) / math.sqrt(2.0)]))
        ys.append(smp.labels(h, noise))
    return np.concatenate(rows), np.concatenate(ys)


def spectral_task(p: dict[str, Any], seed: Any) -> dict[str, float]:
    """The sweep task ``recovery.spectral`` (declared in
    :mod:`fltheory.papers.recovery.sweeps`): one :func:`run` (q = 2, 4000 fit and 8000 test
    samples) at n = round(δ·D) samples, D = ``feature_dim(d, 2)``; returns the best overlaps
    ``rho2_{k}`` and the test MSE/Var(y) ``mse``. ``p``: d, d1 (integers), delta, gamma (exact
    rationals), features.

    >>> out = spectral_task({"d": 6, "d1": 2, "delta": Fraction(10), "gamma": Fraction(1),
    ...                      "features": "gaussian"}, 0)
    >>> sorted(out)
    ['mse', 'rho2_1', 'rho2_2']
    """
    d, d1 = int(p["d"]), int(p["d1"])
    n = round(float(Fraction(p["delta"])) * feature_dim(d, 2))
    r = run(d, n, seed, d1=d1, gamma=float(Fraction(p["gamma"])), features=p["features"],
            n_fit=4000, n_test=8000, prefetch=False)
    out = {f"rho2_{i + 1}": float(v) for i, v in enumerate(r.best_overlaps)}
    out["mse"] = r.relative_mse
    return out


# --------------------------------------------------------------------------- depth comparison
#
# The hierarchical spectral method and a shallow kernel on the same n points. Inputs are uniform
# on the sphere of radius √d (not Gaussian) so that the kernel's side is a dot-product kernel on
# the sphere, where its eigenfunctions are the spherical harmonics; on the sphere the target is
# a polynomial of harmonic degrees 0, 2 and 4 only, split exactly below.

# keys of the independent parts of one depth run under its seed
_DEPTH_LATENTS, _DEPTH_TRAIN, _DEPTH_TEST = 0, 1, 2


def sphere_inputs(m: int, d: int, gen: np.random.Generator) -> np.ndarray:
    """m points uniform on the sphere of radius √d in ℝ^d (normalised Gaussians), as rows.

    >>> X = sphere_inputs(4, 9, np.random.default_rng(0))
    >>> X.shape, bool(np.allclose((X * X).sum(axis=1), 9))
    ((4, 9), True)
    """
    X = gen.standard_normal((m, d))
    X *= math.sqrt(d) / np.linalg.norm(X, axis=1, keepdims=True)
    return X


def relu_ntk(t: np.ndarray) -> np.ndarray:
    """The NTK of a two-layer ReLU network on the unit sphere, t = u·u' ∈ [−1, 1] (first layer
    N(0, 1), He second layer: κ(1) = 2): t κ_0(t) + κ_1(t) with the arc-cosine kernels
    κ_0 = (π − arccos t)/π and κ_1 = (√(1 − t²) + t (π − arccos t))/π (Cho & Saul 2009).

    >>> [round(float(v), 12) for v in relu_ntk(np.array([1.0, 0.0, -1.0]))]
    [2.0, 0.318309886184, 0.0]
    """
    t = np.clip(t, -1.0, 1.0)
    rest = np.pi - np.arccos(t)
    out: np.ndarray = (2 * t * rest + np.sqrt(1.0 - t * t)) / np.pi
    return out


def sphere_parts(X: np.ndarray, M: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, float,
                                                                      np.ndarray]:
    r"""The target y = Σ_i c_i (h_i² − 1)/√2, h_i = (xᵀM_i x − tr M_i)/√2, at rows x of ``X`` on
    the sphere of radius √d, with its exact harmonic parts: (y, E y, y₂), y₂ the degree-2 part,
    so that y − E y − y₂ is the degree-4 part. ``M``: d × d × d1 symmetric matrices, ``c``:
    d1 weights.

    Derivation. With u = x/√d and M̃ = M − (tr M/d) I, h = d·uᵀM̃u/√2 and g = uᵀM̃u is a
    degree-2 harmonic. For P(x) = (xᵀM̃x)² = H₄ + r² H₂ + r⁴ H₀ (harmonic H_k, r = ‖x‖),
    ΔP = 8 xᵀM̃²x and Δ(r² H₂) = (2d + 8) H₂, Δ(r⁴ H₀) = 4(d + 2) r² H₀; so
    H₂ = 4 xᵀ(M̃² − tr(M̃²)/d I)x/(d + 4), and on the unit sphere the degree-2 part of g² is
    4 uᵀ(M̃² − tr(M̃²)/d I)u/(d + 4). Means: E_u (uᵀBu)² = 2‖B‖²_F/(d(d + 2)) for traceless B,
    so E h² = d ‖M̃‖²_F/(d + 2).

    >>> gen = np.random.default_rng(0)
    >>> M = flat_latents(6, 2, gen)
    >>> y, mean, y2 = sphere_parts(sphere_inputs(3, 6, gen), _feature_to_matrices(M, 6),
    ...                            np.array([0.8, 0.6]))
    >>> y.shape, y2.shape, round(mean, 6)   # E y = −(0.8 + 0.6)(1 − 6/8)/√2 (flat: M̃ = M)
    ((3,), (3,), -0.247487)
    """
    d, _, k = M.shape
    XM = (X @ M.reshape(d, d * k)).reshape(len(X), d, k)
    h = (np.einsum("ndk,nd->nk", XM, X) - np.trace(M)) / math.sqrt(2.0)
    y = (h * h - 1.0) @ (c / math.sqrt(2.0))
    eye = np.eye(d)
    Mt = M - (np.trace(M) / d)[None, None, :] * eye[:, :, None]
    eh2 = d * np.einsum("abk,abk->k", Mt, Mt) / (d + 2)
    mean = float(c @ (eh2 - 1.0)) / math.sqrt(2.0)
    B = np.zeros((d, d))
    for i in range(k):
        S = Mt[:, :, i] @ Mt[:, :, i]
        B += c[i] * (S - np.trace(S) / d * eye)
    U = X / math.sqrt(d)
    y2 = (d * d / 2) * (4 / (d + 4)) / math.sqrt(2.0) * np.einsum("na,ab,nb->n", U, B, U)
    return y, mean, y2


@dataclass(frozen=True)
class DepthResult:
    """One run of :func:`depth_simulate`: sizes, the squared overlaps ρ_i² of the spectral
    method (best over its top d1 eigenvectors, per direction), and of ridgeless kernel
    regression on the same points the test error on the degree-4 part over that part's energy
    (``share4``), the test error on y over Var y (``share``), and the energies of the degree-4
    and degree-2 parts (``energy4``, ``energy2``, on the test points)."""

    d: int
    n: int
    D: int
    rho2: np.ndarray
    share4: float
    share: float
    energy4: float
    energy2: float


def depth_simulate(spec: DepthRun, seed: SeedLike) -> DepthResult:
    """The depth comparison at one size (:class:`~fltheory.papers.recovery.params.DepthRun`):
    ``n`` points x uniform on the sphere of radius √d, d1 flat latent directions
    (:func:`flat_latents`) of strengths i^(−γ), labels y = Σ c_i (h_i² − 1)/√2 on them.

    * hierarchical: the spectral method on the real degree-2 Hermite features of these points,
      Ĉ = (1/n) Σ T(y_j) φ_j φ_jᵀ with the rank transform, ρ_i² = max over its top d1
      eigenvectors of ⟨Â, A_i⟩²;
    * shallow: ridgeless kernel regression f̂ = k(u)ᵀK⁻¹y with the two-layer ReLU NTK
      (:func:`relu_ntk`) of u = x/√d on the same points, fitted to the degree-4 part of y (and,
      beside it, to y itself); test errors on ``n_test`` fresh points.

    ``seed``: an integer >= 0 or a SeedSequence; its children draw the latents, the training
    points and the test points.

    >>> r = depth_simulate(DepthRun(6, 400, d1=2, n_test=200), 0)
    >>> r.D, r.rho2.shape, bool(r.rho2[0] > 0.5), bool(0 < r.share4)
    (21, (2,), True, True)
    """
    d, n, d1 = spec.d, spec.n, spec.d1
    sequence(seed)
    lam = np.arange(1, d1 + 1, dtype=float) ** (-spec.gamma)
    c = lam / np.linalg.norm(lam)
    A = flat_latents(d, d1, rng(seed, _DEPTH_LATENTS))
    M = _feature_to_matrices(A, d)
    X = sphere_inputs(n, d, rng(seed, _DEPTH_TRAIN))
    y, mean, y2 = sphere_parts(X, M, c)

    phi = hermite_features(X)
    C = phi.T @ (phi * label_transform(y, "rank")[:, None]) / n
    del phi
    _, vecs = np.linalg.eigh(C)
    rho2 = ((vecs[:, ::-1][:, :d1].T @ A) ** 2).max(axis=0)

    U = X / math.sqrt(d)
    K = relu_ntk(U @ U.T)
    rhs = np.column_stack([y - mean - y2, y])
    try:
        alpha = np.linalg.solve(K, rhs)
    except np.linalg.LinAlgError:  # a repeated point (probability 0): least squares
        alpha = np.linalg.lstsq(K, rhs, rcond=None)[0]
    del K
    Xt = sphere_inputs(spec.n_test, d, rng(seed, _DEPTH_TEST))
    yt, _, y2t = sphere_parts(Xt, M, c)
    y4t = yt - mean - y2t
    pred = relu_ntk((Xt / math.sqrt(d)) @ U.T) @ alpha
    energy4 = float(np.mean(y4t * y4t))
    return DepthResult(d, n, spec.D, rho2, float(np.mean((pred[:, 0] - y4t) ** 2)) / energy4,
                       float(np.mean((pred[:, 1] - yt) ** 2) / np.var(yt)), energy4,
                       float(np.mean(y2t * y2t)))
