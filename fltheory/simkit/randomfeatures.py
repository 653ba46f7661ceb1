"""Random features for any activation at finite width m: the kernel matrix, its spectrum and its
clusters identified by spherical-harmonic degree.

Model: x ~ N(0, I_d), w_i i.i.d. N(0, s² I_d/d) (i = 1..m), K(w, w') = E_x σ(w·x)σ(w'·x) and
J = (1/m)[K(w_i, w_j)]. The ReLU Fisher matrix (W ~ N(0, 1/m), J = E_x[XXᵀ], the Takeishi et
al. line) is the case s = √d (``scale=None`` here): w_i = u_i ~ N(0, I_d).

The shared simulator of random features: the papers on their spectra (the ReLU Fisher paper and
the any-σ paper) both sample through it, as their predictions both come from
:mod:`fltheory.engine.randomfeatures`; the witness stays independent of that theory.

numpy only, independent of the theory. K is built

* exactly where E σ(a)σ(b) has a closed form for jointly Gaussian (a, b) (:data:`CLOSED_FORMS`):
  relu (arc-cosine of degree 1), abs, erf — the standard erf(z), not erf(z/√2) —
  (2/π) arcsin(2c/√((1 + 2q₁)(1 + 2q₂))), and z² (q₁q₂ + 2c²);
* otherwise by Mehler's series K = Σ_k c_k(‖w‖) c_k(‖w'‖) ρ^k, ρ = ŵ·ŵ', whose coefficients
  c_k(r) = E σ(r z) h_k(z) (h_k = He_k/√k!) are 1-D integrals done by the trapezoidal rule on a
  fine grid (step 1/25, |z| <= √(2k_max + 1) + 10). Each pair is truncated where the bound
  |ρ|^{K+1} √(T_i T_j) on the remainder is below ``tol``·max_i E σ(r_i z)², T_i = E σ(r_i z)² −
  Σ_{k<=K} c_k(r_i)² being the Hermite energy left (Cauchy–Schwarz; Parseval); the diagonal is
  E σ(r z)² itself. The bound reached is returned and a matrix whose bound exceeds 1e-6 of the
  scale is refused (:class:`DomainError`), so no digits are printed that are not there.

Why not a 2-D Gauss–Hermite product rule for every pair: measured against the erf closed form it
converges slowly once r = ‖w‖ >= 1 (order 48 per axis: error 5e-10 at r = 1, ρ = 1, but 4e-4 at
r = 2 and 1e-2 at r = 3: σ(r z) saturates on a scale 1/r the nodes do not resolve), and at
m = 4000 it would evaluate σ 8e6·48² ≈ 2e10 times (minutes). :func:`kernel_cubature` keeps that
rule as an independent check of a few entries (tests: agreement with the Mehler path to its
measured accuracy).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fltheory.args import read_count, read_real
from fltheory.exact import DomainError, check_cost
from fltheory.simkit import seeding
from fltheory.simkit.activations import ACTIVATIONS
from fltheory.simkit.seeding import SeedLike

__all__ = ["CLOSED_FORMS", "KMAX", "MAX_BYTES", "MAX_FLOPS", "REFUSE", "TOL", "HarmonicCluster",
           "KernelMatrix", "RFSample", "activation", "arc_cosine_matrix", "check_rf_sample",
           "degree_clusters", "draw_weights", "harmonic_clusters", "harmonic_content",
           "hermite_coefficients", "kernel_cubature", "kernel_matrix", "multiplicity", "rf_flops",
           "sample"]

#: Memory bound of one sample (and of every array a function here allocates): 2 GiB.
MAX_BYTES = 2 * 1024**3
#: Work bound of one sample (flops): eigh with vectors ~ 9·m³, the Mehler sum ~ 3·K·m²/2 ops;
#: 1e12 is ~2 minutes on the 2-core machine (m = 4000: ~6e11).
MAX_FLOPS = 1e12
#: Highest Hermite degree of the Mehler series.
KMAX = 200
#: Default relative truncation bound of the Mehler series (relative to max_i E σ(r_i z)²).
TOL = 1e-10
#: Relative bound above which a kernel matrix is refused.
REFUSE = 1e-6
#: Cut between the bulk of pairs (|ρ| <= RHO_FAR: one truncation order for all) and the near
#: pairs (each its own order, up to KMAX).
RHO_FAR = 0.8
_STEP = 1 / 25

#: Activations whose Gaussian expectation E σ(a)σ(b) has a closed form here.
CLOSED_FORMS = ("relu", "abs", "erf", "quadratic")


def _finite(value: Any, name: str, ndim: int) -> np.ndarray:
    """A finite float array of ``ndim`` dimensions, none empty (else DomainError)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(name, type(value).__name__, "arrays of real numbers") from None
    if arr.ndim != ndim or 0 in arr.shape or not np.all(np.isfinite(arr)):
        raise DomainError(name, f"an array of shape {arr.shape}",
                          f"finite non-empty {ndim}-dimensional arrays")
    return arr


def multiplicity(d: int, l: int) -> int:
    """N(d, l) = C(d+l−1, l) − C(d+l−3, l−2), the dimension of the degree-l spherical harmonics
    on S^{d−1} (exact int; d >= 2, l >= 0).

    >>> [multiplicity(5, l) for l in range(4)]
    [1, 5, 14, 30]
    """
    d, l = read_count(d, "d", 2, 10**9), read_count(l, "l", 0, 1000)
    return math.comb(d + l - 1, l) - (math.comb(d + l - 3, l - 2) if l >= 2 else 0)


def activation(sigma: str | Callable[[np.ndarray], np.ndarray]) -> tuple[str, Callable[..., Any]]:
    """(name, vectorised numpy function) of ``sigma``: a name of
    :data:`fltheory.simkit.activations.ACTIVATIONS` (relu, tanh, erf, abs, quadratic, He3, ...) or a
    callable (named ``"custom"``). Unknown names raise DomainError.

    >>> name, f = activation("tanh"); name, float(f(np.array([0.0]))[0])
    ('tanh', 0.0)
    """
    if callable(sigma):
        return getattr(sigma, "__name__", "custom") if isinstance(sigma, np.ufunc) else "custom", \
            sigma
    if not isinstance(sigma, str) or sigma not in ACTIVATIONS:
        raise DomainError("sigma", str(sigma)[:40], "one of " + ", ".join(ACTIVATIONS)
                          + " or a numpy function")
    return sigma, ACTIVATIONS[sigma]


def _scale(scale: Any, d: int) -> float:
    """s > 0 (as_rational) or None for s = √d (the ReLU module's normalisation)."""
    if scale is None:
        return math.sqrt(d)
    return read_real(scale, "scale", 0, open_low=True)


def rf_flops(d: int, m: int) -> float:
    """Work of :func:`sample` (flops, estimate): Gram 2·d·m², Mehler 3·KMAX·m²/2 at most,
    eigh with vectors 9·m³.

    >>> f"{rf_flops(5, 4000):.2e}"
    '5.81e+11'
    """
    d, m = read_count(d, "d", 2), read_count(m, "m", 2)
    return 2.0 * d * m * m + 1.5 * KMAX * m * m + 9.0 * float(m) ** 3


def _grid_points() -> int:
    return 2 * math.ceil((math.sqrt(2 * KMAX + 1) + 10) / _STEP) + 1


def check_rf_sample(d: int, m: int, seed: SeedLike, scale: Any = 1) -> None:
    """Refuse what :func:`sample` cannot honour before allocating anything: d >= 2, m >= 2,
    seed an integer >= 0 or SeedSequence, scale > 0 (or None), memory 8·(d·m + 4·m² +
    m·G) bytes <= MAX_BYTES (G: quadrature grid points) and :func:`rf_flops` <= MAX_FLOPS.
    Raises DomainError (CostError), returns None.

    >>> check_rf_sample(5, 1000, 0)
    >>> check_rf_sample(5, 8000, 0)
    Traceback (most recent call last):
    fltheory.exact.CostError: m = 8000 would need about 4.63e+12 floating-point operations; ...
    """
    d, m = read_count(d, "d", 2), read_count(m, "m", 2)
    if not isinstance(seed, np.random.SeedSequence):
        read_count(seed, "seed", 0)
    _scale(scale, d)
    need = 8 * (d * m + 4 * m * m + m * _grid_points())
    if need > MAX_BYTES:
        raise DomainError("m", m, f"8·(d·m + 4·m² + m·{_grid_points()}) bytes <= "
                                  f"{MAX_BYTES >> 30} GiB (here {need / 2**30:.3g} GiB)")
    check_cost(f"m = {m}", rf_flops(d, m), MAX_FLOPS, "floating-point operations",
               "lower m: the cost is 2·d·m² + 300·m² + 9·m³")


def draw_weights(d: int, m: int, seed: SeedLike, scale: Any = 1) -> np.ndarray:
    """W (d × m), columns w_i = (s/√d)·u_i, u_i ~ N(0, I_d) from ``seeding.rng(seed)``;
    ``scale=None`` is s = √d (W = U, the ReLU module's draw times √m).

    >>> draw_weights(3, 2, 0, None).shape
    (3, 2)
    """
    check_rf_sample(d, m, seed, scale)
    U = seeding.rng(seed).standard_normal((d, m))
    if scale is not None:
        U *= _scale(scale, d) / math.sqrt(d)
    return U


def _weights(W: Any) -> np.ndarray:
    try:
        arr = np.asarray(W, dtype=float)
    except (TypeError, ValueError):
        raise DomainError("W", type(W).__name__, "arrays of real numbers") from None
    if arr.ndim != 2 or 0 in arr.shape or not np.all(np.isfinite(arr)):
        raise DomainError("W", f"an array of shape {arr.shape}", "finite non-empty d × m arrays")
    norms = np.linalg.norm(arr, axis=0)
    if not np.all(norms > 0):
        raise DomainError("W", "an array with a zero column", "nonzero columns w_i")
    if 8 * 5 * arr.shape[1] ** 2 > MAX_BYTES:
        raise DomainError("W", f"an array of shape {arr.shape}", f"40·m² bytes <= "
                                                                 f"{MAX_BYTES >> 30} GiB")
    return arr


def hermite_coefficients(sigma: str | Callable[..., Any], radii: np.ndarray, kmax: int = KMAX
                         ) -> tuple[np.ndarray, np.ndarray]:
    """c_k(r) = E_z σ(r z) h_k(z), k = 0..kmax, and E σ(r z)², z ~ N(0, 1), for each radius
    (trapezoidal rule, step 1/25 on |z| <= √(2·kmax + 1) + 10, through the normalised Hermite
    functions h_k(z)·φ(z)^{1/2}; spectrally accurate for σ analytic in a strip, O(step²) at a
    kink). Returns (m × (kmax+1) array, length-m array). Non-finite values raise DomainError.

    >>> c, e = hermite_coefficients("quadratic", np.array([1.0, 2.0]), 3)
    >>> (c.round(10) + 0.0).tolist(), e.round(10).tolist()  # z² = h_0 + √2 h_2; E z⁴ = 3
    ([[1.0, 0.0, 1.4142135624, 0.0], [4.0, 0.0, 5.6568542495, 0.0]], [3.0, 48.0])
    """
    _, f = activation(sigma)
    kmax = read_count(kmax, "kmax", 0, 5 * KMAX)
    r = _finite(radii, "radii", 1)
    half = math.ceil((math.sqrt(2 * kmax + 1) + 10) / _STEP)
    if 8 * (len(r) + kmax + 2) * (2 * half + 1) > MAX_BYTES:
        raise DomainError("radii", f"{len(r)} radii", f"8·(radii + kmax)·{2 * half + 1} bytes "
                                                       f"<= {MAX_BYTES >> 30} GiB")
    z = np.arange(-half, half + 1) * _STEP
    root_phi = np.exp(-z * z / 4) / (2 * math.pi) ** 0.25  # φ(z)^{1/2}
    psi = np.empty((kmax + 1, len(z)))  # h_k(z) φ(z)^{1/2}
    psi[0] = root_phi
    if kmax >= 1:
        psi[1] = z * root_phi
    for k in range(1, kmax):
        psi[k + 1] = (z * psi[k] - math.sqrt(k) * psi[k - 1]) / math.sqrt(k + 1)
    with np.errstate(all="ignore"):
        F = np.asarray(f(np.multiply.outer(r, z)), dtype=float) * (root_phi * _STEP)
        coef = F @ psi.T
        energy = (F * F).sum(axis=1) / _STEP
    if not (np.all(np.isfinite(coef)) and np.all(np.isfinite(energy))):
        raise DomainError("sigma", activation(sigma)[0], "functions with E σ(r z)² finite",
                          reason="gives non-finite Gaussian integrals at these radii")
    return coef, energy


def arc_cosine_matrix(W: np.ndarray) -> np.ndarray:
    """J_ij = E_x[relu(w_i·x) relu(w_j·x)] = ‖w_i‖‖w_j‖(sin θ + (π − θ) cos θ)/(2π),
    x ~ N(0, I_d), w_i the columns of W (Cho & Saul's degree-1 arc-cosine kernel).

    ``W``: finite d × m array with nonzero columns; 16·m² bytes <= MAX_BYTES. Returns the
    m × m float64 matrix, built in place around one BLAS product, with a single m × m
    temporary.

    >>> arc_cosine_matrix(np.array([[1.0, 0.0], [0.0, 1.0]])).round(6).tolist()
    [[0.5, 0.159155], [0.159155, 0.5]]
    """
    W = _finite(W, "W", 2)
    m = W.shape[1]
    if 16 * m * m > MAX_BYTES:
        raise DomainError("W", f"an array of shape {W.shape}", f"16·m² bytes <= "
                          f"{MAX_BYTES >> 30} GiB (here {16 * m * m / 1024**3:.3g} GiB)")
    norms = np.linalg.norm(W, axis=0)
    if not np.all(norms > 0):
        raise DomainError("W", "an array with a zero column", "nonzero columns w_i")
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


@dataclass(frozen=True)
class KernelMatrix:
    """K_ij = E_x σ(w_i·x)σ(w_j·x) with how it was computed: ``method`` ("closed form: ..." or
    "Mehler series"), ``bound`` (bound on |error| of any entry, relative to max_i K_ii; 0 for
    closed forms: rounding only) and ``terms`` (highest Hermite degree used)."""

    K: np.ndarray
    method: str
    bound: float
    terms: int


def _closed_form(name: str, W: np.ndarray) -> np.ndarray:
    if name == "relu":  # the arc-cosine kernel, built in place around one BLAS product
        return arc_cosine_matrix(W)
    norms = np.linalg.norm(W, axis=0)
    C = W.T @ W
    if name == "quadratic":  # E a²b² = q₁q₂ + 2c²
        C *= C
        C *= 2
        C += np.multiply.outer(norms**2, norms**2)
        return C
    if name == "erf":
        q = np.sqrt(1 + 2 * norms**2)
        C *= 2
        C /= q[:, None]
        C /= q[None, :]
        np.clip(C, -1.0, 1.0, out=C)
        return np.arcsin(C, out=C) * (2 / np.pi)
    C /= norms[:, None]
    C /= norms[None, :]
    np.clip(C, -1.0, 1.0, out=C)
    T = np.arccos(C)  # θ
    S = np.sqrt(np.maximum(1.0 - C * C, 0.0))  # sin θ
    out = (2 * S + (np.pi - 2 * T) * C) / np.pi  # abs: ‖w‖‖w'‖(2 sin θ + (π − 2θ) cos θ)/π
    out *= np.multiply.outer(norms, norms)
    return out


def _mehler(f: Any, W: np.ndarray, tol: float) -> KernelMatrix:
    m = W.shape[1]
    r = np.linalg.norm(W, axis=0)
    coef, energy = hermite_coefficients(f, r, KMAX)
    scale = float(energy.max())
    # T_i(K) = E σ(r_i z)² − Σ_{k<=K} c_k(r_i)² (clipped at 0 against rounding)
    tails = np.maximum(energy[:, None] - np.cumsum(coef**2, axis=1), 0.0)
    tmax = tails.max(axis=0)
    ks = np.arange(KMAX + 1)
    ok = np.flatnonzero(RHO_FAR ** (ks + 1) * tmax <= tol * scale)
    k_far = int(ok[0]) if len(ok) else KMAX
    rho = W.T @ W
    rho /= r[:, None]
    rho /= r[None, :]
    np.clip(rho, -1.0, 1.0, out=rho)
    K = np.empty((m, m))
    block = max(1, min(m, 2**17 // m))
    for i0 in range(0, m, block):  # upper block rows, Horner in ρ
        i1 = min(m, i0 + block)
        R = rho[i0:i1, i0:]
        A = np.multiply.outer(coef[i0:i1, k_far], coef[i0:, k_far])
        for k in range(k_far - 1, -1, -1):
            A *= R
            A += np.multiply.outer(coef[i0:i1, k], coef[i0:, k])
        K[i0:i1, i0:] = A
    bound = RHO_FAR ** (k_far + 1) * float(tmax[k_far])
    iu, ju = np.nonzero(np.triu(np.abs(rho) > RHO_FAR, 1))
    if len(iu):  # near pairs: each its own order, up to KMAX
        p = rho[iu, ju]
        vals = coef[iu, KMAX] * coef[ju, KMAX]
        for k in range(KMAX - 1, -1, -1):
            vals *= p
            vals += coef[iu, k] * coef[ju, k]
        K[iu, ju] = vals
        near = np.abs(p) ** (KMAX + 1) * np.sqrt(tails[iu, KMAX] * tails[ju, KMAX])
        bound = max(bound, float(near.max()))
    K[np.diag_indices(m)] = energy
    lower = np.tril_indices(m, -1)
    K[lower] = K.T[lower]
    del rho
    return KernelMatrix(K, "Mehler series", bound / scale if scale > 0 else 0.0,
                        max(k_far, KMAX if len(iu) else 0))


def kernel_matrix(sigma: str | Callable[..., Any], W: np.ndarray, tol: float = TOL
                  ) -> KernelMatrix:
    """K_ij = E_x σ(w_i·x)σ(w_j·x), x ~ N(0, I_d), w_i the columns of W: the closed form for
    :data:`CLOSED_FORMS` names, otherwise Mehler's series (module docstring) truncated at the
    relative bound ``tol`` (a float in [1e-14, 1e-6]); refused (DomainError naming sigma, with
    the bound reached) if the bound reached exceeds :data:`REFUSE`. Returns a
    :class:`KernelMatrix`.

    >>> W = np.array([[1.0, 0.6], [0.0, 0.8]])
    >>> round(float(kernel_matrix("erf", W).K[0, 1]), 8)  # (2/π) arcsin(1.2/3)
    0.26197976
    >>> round(float(kernel_matrix(lambda z: np.asarray(z) ** 3, W).K[0, 1]), 8)  # 9c + 6c³
    6.696
    """
    W = _weights(W)
    if not isinstance(tol, float | int) or not 1e-14 <= tol <= 1e-6:
        raise DomainError("tol", tol, "numbers in [1e-14, 1e-6]")
    name, f = activation(sigma)
    if isinstance(sigma, str) and name in CLOSED_FORMS:
        K = _closed_form(name, W)
        if not np.all(np.isfinite(K)):
            raise DomainError("W", "weights with a non-finite kernel", "moderate weights")
        return KernelMatrix(K, f"closed form ({name})", 0.0, 0)
    out = _mehler(f, W, float(tol))
    if not out.bound <= REFUSE or not np.all(np.isfinite(out.K)):
        raise DomainError("sigma", name, f"activations whose Mehler series reaches {REFUSE:g} "
                          f"by degree {KMAX}", reason=f"only reaches a relative error bound "
                          f"{out.bound:.2g} (not smooth enough at these radii)")
    return out


def kernel_cubature(sigma: str | Callable[..., Any], W: np.ndarray, i: np.ndarray,
                    j: np.ndarray, order: int = 48) -> np.ndarray:
    """E σ(a)σ(b) for the pairs (w_i, w_j) by the 2-D Gauss–Hermite product rule of ``order``
    nodes per axis on a = ‖w_i‖z₁, b = ‖w_j‖(ρz₁ + √(1−ρ²)z₂): an independent check of
    :func:`kernel_matrix` on a few entries (accuracy: module docstring; order**2 evaluations
    per pair, at most 1e8 in all).

    >>> W = np.array([[1.0, 0.6], [0.0, 0.8]])
    >>> kernel_cubature("quadratic", W, np.array([0]), np.array([1]), 4).round(10).tolist()
    [1.72]
    """
    W = _weights(W)
    _, f = activation(sigma)
    order = read_count(order, "order", 1, 1000)
    i, j = _indices(i, "i", W.shape[1]), _indices(j, "j", W.shape[1])
    if len(i) != len(j):
        raise DomainError("j", f"{len(j)} indices", f"as many indices as i ({len(i)})")
    check_cost(f"order = {order}", float(len(i)) * order**2, 1e8, "evaluations of σ",
               "fewer pairs or a lower order")
    z, wts = np.polynomial.hermite_e.hermegauss(order)
    wts = wts / math.sqrt(2 * math.pi)
    r = np.linalg.norm(W, axis=0)
    rho = np.clip(np.einsum("ak,ak->k", W[:, i], W[:, j]) / (r[i] * r[j]), -1.0, 1.0)
    out = np.empty(len(i))
    for n in range(len(i)):
        a = r[i[n]] * z
        b = r[j[n]] * (rho[n] * z[:, None] + math.sqrt(1 - rho[n] ** 2) * z[None, :])
        out[n] = wts @ (np.asarray(f(a)) * (np.asarray(f(b)) @ wts))
    return out


def _indices(value: Any, name: str, m: int) -> np.ndarray:
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.dtype.kind not in "iu" or not np.all((arr >= 0) & (arr < m)):
        raise DomainError(name, f"an array of shape {arr.shape}", f"1-D integer arrays in "
                                                                  f"[0, {m})")
    return arr.astype(int)


@dataclass(frozen=True)
class RFSample:
    """One network: activation name, d, m, seed, scale s (None: √d), the weights W (d × m), the
    kernel matrix's method and error bound, the diagonal K(w_i, w_i) = E_z σ(‖w_i‖z)², and the
    eigenvalues (descending) and eigenvectors (columns) of J = K/m."""

    sigma: str
    d: int
    m: int
    seed: SeedLike
    scale: Any
    W: np.ndarray
    method: str
    bound: float
    diagonal: np.ndarray
    eigenvalues: np.ndarray
    eigenvectors: np.ndarray

    @property
    def trace(self) -> float:
        """trace J = (1/m) Σ_i E σ(w_i·x)²."""
        return float(self.eigenvalues.sum())


def sample(sigma: str | Callable[..., Any], d: int, m: int, seed: SeedLike, scale: Any = 1,
           tol: float = TOL) -> RFSample:
    """Draw W (:func:`draw_weights`), build K (:func:`kernel_matrix`), eigendecompose J = K/m.

    Sizes are checked first (:func:`check_rf_sample`). Returns an :class:`RFSample`.

    >>> s = sample("relu", 3, 50, 0, None)
    >>> K = arc_cosine_matrix(draw_weights(3, 50, 0, None))  # relu in closed form, J = K/m
    >>> bool(np.allclose(s.eigenvalues, np.linalg.eigvalsh(K / 50)[::-1]))
    True
    """
    W = draw_weights(d, m, seed, scale)
    km = kernel_matrix(sigma, W, tol)
    J = km.K
    diagonal = J.diagonal().copy()
    J /= m
    vals, vecs = np.linalg.eigh(J)
    return RFSample(activation(sigma)[0], d, m, seed, scale, W, km.method, km.bound, diagonal,
                    vals[::-1], vecs[:, ::-1])


def _monomials(U: np.ndarray, l: int) -> np.ndarray:
    """All monomials of degree exactly l in the rows of U (m × d), as columns."""
    from itertools import combinations_with_replacement

    cols = [np.prod(U[:, list(c)], axis=1) for c in combinations_with_replacement(
        range(U.shape[1]), l)] if l else [np.ones(U.shape[0])]
    return np.stack(cols, axis=1)


def harmonic_content(W: np.ndarray, vectors: np.ndarray, lmax: int, radial_degree: int = 3
                     ) -> np.ndarray:
    """For each column v of ``vectors`` (m × n) the share of ‖v‖² of spherical-harmonic degree
    l = 0..lmax in ŵ_i (times polynomials of degree <= ``radial_degree`` in r_i = ‖w_i‖).

    On the sphere the degree-l monomials of ŵ span H_l ⊕ H_{l−2} ⊕ …, so with E_l the share
    captured by (degree-l monomials) ⊗ (radial polynomials), the degree-l share is
    E_l − E_{l−2}. Needs columns C(d+l−1, l)·(radial_degree+1) <= m/4 (DomainError otherwise).
    Returns an n × (lmax+1) array (rows sum to <= 1).

    >>> rng = np.random.default_rng(0); W = rng.standard_normal((3, 400))
    >>> v = W[0] / np.linalg.norm(W, axis=0)  # ŵ_1: degree 1
    >>> c = harmonic_content(W, v[:, None], 2)[0]  # spurious shares ~ columns/m elsewhere
    >>> int(c.argmax()), round(float(c[1]), 6), bool(c[0] + c[2] < 0.05)
    (1, 1.0, True)
    """
    W = _weights(W)
    d, m = W.shape
    lmax = read_count(lmax, "lmax", 0, 50)
    radial_degree = read_count(radial_degree, "radial_degree", 0, 10)
    V = _finite(vectors, "vectors", 2)
    if V.shape[0] != m or not np.all(np.einsum("ij,ij->j", V, V) > 0):
        raise DomainError("vectors", f"an array of shape {V.shape}",
                          f"{m} × n arrays of nonzero columns")
    cols = math.comb(d + lmax - 1, lmax) * (radial_degree + 1)
    if 4 * cols > m:
        raise DomainError("lmax", lmax, f"degrees with C(d+l−1, l)·(radial_degree+1) <= m/4 "
                                        f"(here {cols} columns, m = {m})")
    r = np.linalg.norm(W, axis=0)
    U = (W / r).T
    t = (r - r.mean()) / (r.std() if r.std() > 0 else 1.0)
    radial = np.stack([t**p for p in range(radial_degree + 1)], axis=1)
    norms = np.einsum("ij,ij->j", V, V)
    captured = []
    for l in range(lmax + 1):
        M = _monomials(U, l)
        B = (M[:, :, None] * radial[:, None, :]).reshape(m, -1)
        Q, R = np.linalg.qr(B)
        keep = np.abs(np.diag(R)) > 1e-10 * np.abs(np.diag(R)).max()
        P = Q[:, keep].T @ V
        captured.append(np.einsum("ij,ij->j", P, P) / norms)
    E = np.array(captured).T  # n × (lmax+1)
    out = E.copy()
    out[:, 2:] -= E[:, :-2]
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class HarmonicCluster:
    """Level (l, j) of a simulated spectrum: eigenvalues whose eigenvectors have degree l, ranked
    j·N(d, l) .. (j+1)·N(d, l) − 1 among them (``eigenvalues``), with the smallest degree-l share
    of their eigenvectors (``purity``)."""

    l: int
    j: int
    eigenvalues: np.ndarray
    purity: float

    @property
    def mean(self) -> float:
        """Mean eigenvalue of the cluster."""
        return float(self.eigenvalues.mean())


def degree_clusters(eigenvalues: np.ndarray, content: np.ndarray, d: int, jmax: int,
                    min_share: float = 0.5) -> list[HarmonicCluster]:
    """Levels (l, j) from the leading eigenvalues (descending, length n) and the harmonic shares
    of their eigenvectors (n × (lmax+1), :func:`harmonic_content`): an eigenvector has degree l
    when its degree-l share is >= ``min_share`` (else it is left out: finite-m noise, measured
    shares <= 0.26, against >= 0.89 for the eigenvectors of a level at m >= 400, d = 4, radial
    degree 3; <= 0.15 against >= 0.73 at m = 480, d = 6, radial degree 1); within
    degree l the eigenvalues are cut in blocks of N(d, l), j = 0..jmax; incomplete blocks are
    left out. Returns a list sorted by (l, j).

    >>> content = np.array([[1.0, 0.0], [0.0, 0.9], [0.0, 0.95], [0.1, 0.2]])
    >>> [(c.l, c.j, c.mean) for c in degree_clusters(np.array([3.0, 2.0, 1.0, 0.5]), content, 2, 1)]
    [(0, 0, 3.0), (1, 0, 1.5)]
    """
    eigenvalues = _finite(eigenvalues, "eigenvalues", 1)
    content = _finite(content, "content", 2)
    multiplicity(d, 0)
    if not isinstance(min_share, float | int) or not 0 < min_share <= 1:
        raise DomainError("min_share", str(min_share)[:40], "numbers in (0, 1]")
    if content.shape[0] != len(eigenvalues):
        raise DomainError("content", f"an array of shape {content.shape}",
                          f"{len(eigenvalues)} × (lmax+1) arrays")
    jmax = read_count(jmax, "jmax", 0)
    degree = content.argmax(axis=1)
    pure = content.max(axis=1) >= min_share
    out = []
    for l in range(content.shape[1]):
        idx = np.flatnonzero((degree == l) & pure)
        n = multiplicity(d, l)
        for j in range(jmax + 1):
            block = idx[j * n:(j + 1) * n]
            if len(block) < n:
                break
            out.append(HarmonicCluster(l, j, eigenvalues[block], float(content[block, l].min())))
    return out


def harmonic_clusters(s: RFSample, lmax: int, jmax: int, top: int | None = None,
                      min_share: float = 0.5) -> list[HarmonicCluster]:
    """Levels (l, j), l <= lmax, j <= jmax, of a sample: the harmonic shares
    (:func:`harmonic_content`) of the leading ``top`` eigenvectors (default: those above 1e-12
    of the largest, at most 600), grouped by :func:`degree_clusters`.

    >>> s = sample("quadratic", 4, 300, 0)
    >>> [(c.l, c.j, len(c.eigenvalues)) for c in harmonic_clusters(s, 2, 0, 20)]
    [(0, 0, 1), (2, 0, 9)]
    """
    if not isinstance(s, RFSample):
        raise DomainError("s", type(s).__name__, "an RFSample (from sample())")
    if top is None:  # eigenvalues above rounding (1e-12 of the largest)
        top = max(1, min(600, int(np.sum(s.eigenvalues > 1e-12 * s.eigenvalues[0]))))
    top = min(read_count(top, "top", 1), s.m)
    content = harmonic_content(s.W, s.eigenvectors[:, :top], lmax)
    return degree_clusters(s.eigenvalues[:top], content, s.d, jmax, min_share)
