r"""The kernel paper's simulator: real kernel ridge regression on random points of the sphere,
and the Gram matrices' spectra. numpy only; it imports no theory (the wall of
tests/framework/test_architecture.py): its kernels, Gegenbauer polynomials and multiplicities
are its own, written from their definitions.

Kernels (a numpy function κ(t) of an array of t = x·y in [−1, 1]):

* :func:`network_kernel`: the NNGP/NTK recursion of a fully connected network (the model of the
  paper: first layer N(0, 1) weights, c_σ = 1/E[σ(z)²], bias β²). For relu, abs and sign the
  Gaussian expectations are the arc-cosine formulas of Cho & Saul (2009): for unit-variance
  (u, v) at angle θ = arccos ρ, E[relu(u) relu(v)] = (sin θ + (π − θ) cos θ)/(2π) and
  E[1{u>0} 1{v>0}] = (π − θ)/(2π); for any other catalogue activation, a tensor Gauss–Hermite
  rule of 100 × 100 nodes on (z1, z2), u = √q z1, v = √q (ρ z1 + √(1 − ρ²) z2), tabulated on a
  grid of 2001 values of ρ and interpolated (cubic in ρ; the table's error is printed by
  :func:`table_error`).
* any numpy function the caller writes (e.g. the Gaussian RBF exp((t − 1)/s²)).

Targets of one degree: f*(x) = √N(d, k) P_k(x·u) for a random unit u, unit norm on the sphere
(E[P_k(x·u)²] = 1/N(d, k)); several degrees: independent directions, energies e_k.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fltheory.papers.kernel.params import Experiment
from fltheory.simkit import seeding

__all__ = ["GRID", "KrrResult", "gegenbauer", "gram_eigenvalues", "harmonic_dimension", "krr",
           "network_kernel", "rf_ridge_sample", "ridge_risk_sample", "sphere", "table_error"]

Kernel = Callable[[np.ndarray], np.ndarray]
#: ρ values of the table of a dual activation computed by quadrature
GRID = 2001
#: seeding keys of one experiment: training points, the target's directions, label noise, test
TRAIN, DIRECTION, NOISE, TEST = 0, 1, 2, 3


def sphere(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """n points uniform on S^{d−1} (normalised Gaussians), as rows.

    >>> x = sphere(5, 3, np.random.default_rng(0))
    >>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=1), 1))
    ((5, 3), True)
    """
    x = rng.standard_normal((n, d))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def harmonic_dimension(d: int, k: int) -> int:
    """N(d, k) = C(k + d − 1, k) − C(k + d − 3, k − 2): harmonic polynomials of degree k in d
    variables (homogeneous polynomials of degree k minus |x|² times those of degree k − 2).

    >>> [harmonic_dimension(3, k) for k in range(4)]
    [1, 3, 5, 7]
    """
    if k < 2:
        return math.comb(k + d - 1, k)
    return math.comb(k + d - 1, k) - math.comb(k + d - 3, k - 2)


def gegenbauer(k: int, d: int, t: np.ndarray) -> np.ndarray:
    """P_k(t) in dimension d with P_k(1) = 1: P_0 = 1, P_1 = t,
    (j + d − 2) P_{j+1} = (2j + d − 2) t P_j − j P_{j−1}.

    >>> gegenbauer(2, 3, np.array([0.0, 1.0])).tolist()
    [-0.5, 1.0]
    """
    prev, cur = np.ones_like(t), np.asarray(t, dtype=float)
    if k == 0:
        return prev
    for j in range(1, k):
        prev, cur = cur, ((2 * j + d - 2) * t * cur - j * prev) / (j + d - 2)
    return cur


# --------------------------------------------------------------------------- kernels


def _relu_pair(rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """E[relu(u)relu(v)] and E[1{u>0}1{v>0}] for unit-variance u, v of correlation ρ."""
    rho = np.clip(rho, -1.0, 1.0)
    theta = np.arccos(rho)
    return ((np.sin(theta) + (np.pi - theta) * rho) / (2 * np.pi), (np.pi - theta) / (2 * np.pi))


def _homogeneous(name: str) -> tuple[float, float, int] | None:
    """σ = a·relu(z) + c·relu(−z) (degree 1) or a·1{z>0} + c·1{z<0} (degree 0)."""
    return {"relu": (1.0, 0.0, 1), "abs": (1.0, 1.0, 1), "sign": (1.0, -1.0, 0)}.get(name)


@lru_cache(maxsize=32)
def _dual_table(activation: str, q: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ρ grid, E[σ(u)σ(v)] and E[σ'(u)σ'(v)] at variance q by the tensor Gauss–Hermite rule."""
    from fltheory.simkit.activations import numpy_activation

    act = numpy_activation(activation)
    z, w = np.polynomial.hermite_e.hermegauss(100)
    w = w / w.sum()
    rho = np.cos(np.linspace(np.pi, 0.0, GRID))  # denser near ±1, where duals bend
    z1 = z[:, None]
    root = math.sqrt(q)
    g1, dg1 = act.g(root * z1), act.dg(root * z1)
    dual, ddual = np.empty(GRID), np.empty(GRID)
    for i, r in enumerate(rho):
        v = root * (r * z1 + math.sqrt(max(1.0 - r * r, 0.0)) * z[None, :])
        ww = w[:, None] * w[None, :]
        dual[i] = float(np.sum(ww * g1 * act.g(v)))
        ddual[i] = float(np.sum(ww * dg1 * act.dg(v)))
    return rho, dual, ddual


def _interp(rho: np.ndarray, grid: np.ndarray, values: np.ndarray) -> np.ndarray:
    from scipy.interpolate import CubicSpline

    return np.asarray(CubicSpline(grid, values)(np.clip(rho, -1.0, 1.0)))


def table_error(activation: str) -> float:
    """The interpolation error of the dual table of ``activation`` at unit variance: the cubic
    spline on every other grid point against the points left out (an upper estimate).

    >>> table_error("erf") < 1e-9
    True
    """
    grid, dual, _ = _dual_table(activation, 1.0)
    half = _interp(grid[1::2], grid[::2], dual[::2])
    return float(np.max(np.abs(half - dual[1::2])))


def _second_moment(activation: str, q: float) -> tuple[float, float]:
    """E[σ(√q z)²] and E[σ'(√q z)²] (Gauss–Hermite, 200 nodes)."""
    from fltheory.simkit.activations import numpy_activation

    act = numpy_activation(activation)
    z, w = np.polynomial.hermite_e.hermegauss(200)
    w = w / w.sum()
    x = math.sqrt(q) * z
    return float(np.sum(w * act.g(x) ** 2)), float(np.sum(w * act.dg(x) ** 2))


def network_kernel(activation: str, kind: str = "nngp", depth: int = 2, bias: float = 0.0
                   ) -> Kernel:
    """κ(t) of the network's NNGP (``kind`` "nngp") or NTK ("ntk") as a numpy function.

    >>> k = network_kernel("relu", "ntk")
    >>> [round(float(v), 12) for v in k(np.array([1.0, 0.0]))]
    [2.0, 0.318309886184]
    """
    c = 1.0 / _second_moment(activation, 1.0)[0]
    homogeneous = _homogeneous(activation)

    def duals(s: np.ndarray, q: float) -> tuple[np.ndarray, np.ndarray, float]:
        """c E[σ(u)σ(v)], c E[σ'(u)σ'(v)] at variance q, covariance s; and c E[σ(√q z)²]."""
        rho = s / q
        if homogeneous is not None:
            a, b, degree = homogeneous
            main, step = _relu_pair(rho)
            main_r, step_r = _relu_pair(-rho)
            if degree == 1:  # σ = a relu(z) + b relu(−z); σ' = a 1{z>0} − b 1{z<0}
                e = q * ((a * a + b * b) * main + 2 * a * b * main_r)
                de = (a * a + b * b) * step - 2 * a * b * step_r
                return c * e, c * de, c * q * (a * a + b * b) / 2
            e = (a * a + b * b) * step + 2 * a * b * step_r  # σ = a 1{z>0} + b 1{z<0}
            return c * e, np.full_like(rho, np.nan), c * (a * a + b * b) / 2
        grid, dual, ddual = _dual_table(activation, q)
        return (c * _interp(rho, grid, dual), c * _interp(rho, grid, ddual),
                c * _second_moment(activation, q)[0])

    def kernel(t: np.ndarray) -> np.ndarray:
        s = np.asarray(t, dtype=float) + bias
        q = 1.0 + bias
        theta = s.copy()
        for _ in range(1, depth):
            main, deriv, diag = duals(s, q)
            new = main + bias
            if kind == "ntk":
                theta = theta * deriv + new
            s, q = new, diag + bias
        return theta if kind == "ntk" else s

    return kernel


# --------------------------------------------------------------------------- regression


@dataclass(frozen=True)
class KrrResult:
    """One kernel regression: the clean test error E_x(f̂ − f*)² (mean over the test points)
    with its standard error over them, the noisy-label test error, and the training error."""

    error: float
    error_se: float
    noisy: float
    train: float
    #: the condition number of K + λI (λ > 0: the upper bound (tr K + λ)/λ; λ = 0: the lower
    #: bound (max L_ii/min L_ii)² of its Cholesky factor, inf when it has none in float64)
    condition: float = math.nan


def _target(x: np.ndarray, directions: np.ndarray, energies: Mapping[int, float]
            ) -> np.ndarray:
    d = x.shape[1]
    out = np.zeros(x.shape[0])
    for (k, e), u in zip(energies.items(), directions, strict=False):
        out += math.sqrt(e * harmonic_dimension(d, k)) * gegenbauer(k, d, x @ u)
    return out


def krr(kernel: Kernel, exp: Experiment, energies: Mapping[int, float] | None = None,
        seed: seeding.SeedLike | None = None) -> KrrResult:
    """Kernel ridge regression f̂ = k(x)ᵀ(K + λI)⁻¹y on ``exp.n`` points; the target has unit
    norm in degree ``exp.degree`` (or the given ``energies`` per degree), labels carry
    N(0, σ²) noise; errors on ``exp.n_test`` fresh points. ``seed`` (default ``exp.seed``)
    may be a ``SeedSequence`` (a claim's child seed).

    >>> r = krr(network_kernel("relu", "ntk"), Experiment(3, 200, degree=1, n_test=500))
    >>> 0 <= r.error < 0.05
    True
    """
    energies = {exp.degree: 1.0} if energies is None else dict(energies)
    root = exp.seed if seed is None else seed
    d, n = exp.d, exp.n
    x = sphere(n, d, seeding.rng(root, TRAIN))
    directions = sphere(len(energies), d, seeding.rng(root, DIRECTION))
    f = _target(x, directions, energies)
    sigma = float(exp.noise)
    y = f + sigma * seeding.rng(root, NOISE).standard_normal(n)
    K = kernel(np.clip(x @ x.T, -1.0, 1.0))
    lam = float(exp.ridge)
    if lam > 0:
        condition = (float(np.trace(K)) + lam) / lam
        try:
            alpha = np.linalg.solve(K + lam * np.eye(n), y)
        except np.linalg.LinAlgError:
            alpha = np.linalg.lstsq(K + lam * np.eye(n), y, rcond=None)[0]
    else:
        # ridgeless: a smooth kernel's Gram matrix is singular to float64 at moderate n (the
        # fit is then rounding noise). Its condition, cheaply: a Cholesky factor that fails
        # means not positive definite in float64 (inf); otherwise (max L_ii/min L_ii)², a
        # lower bound (κ(K) >= that ratio for K = LLᵀ). A third of an LU's work.
        try:
            diag = np.diag(np.linalg.cholesky(K))
            condition = float((diag.max() / diag.min()) ** 2)
        except np.linalg.LinAlgError:
            condition = math.inf
        try:
            alpha = np.linalg.solve(K, y)
        except np.linalg.LinAlgError:
            alpha = np.linalg.lstsq(K, y, rcond=None)[0]
    train = float(np.mean((K @ alpha - y) ** 2))
    xt = sphere(exp.n_test, d, seeding.rng(root, TEST))
    ft = _target(xt, directions, energies)
    pred = kernel(np.clip(xt @ x.T, -1.0, 1.0)) @ alpha
    sq = (pred - ft) ** 2
    err = float(sq.mean())
    return KrrResult(err, float(sq.std(ddof=1) / math.sqrt(len(sq))), err + sigma**2, train,
                     condition)


def gram_eigenvalues(kernel: Kernel, d: int, n: int, seed: seeding.SeedLike) -> np.ndarray:
    """The eigenvalues of K/n (descending) for n points uniform on S^{d−1}; their trace is
    κ(1) exactly.

    >>> eig = gram_eigenvalues(network_kernel("relu"), 3, 50, 0)
    >>> round(float(eig.sum()), 12)
    1.0
    """
    x = sphere(n, d, seeding.rng(seed, TRAIN))
    K = kernel(np.clip(x @ x.T, -1.0, 1.0))
    return np.linalg.eigvalsh(K / n)[::-1]


def ridge_risk_sample(p: int, n: int, signal: float, noise: float, lam: float,
                      seed: seeding.SeedLike) -> float:
    """One draw of ridge regression with isotropic Gaussian features: x ~ N(0, I_p), β uniform
    on the sphere of radius √signal, y = xᵀβ + N(0, noise²); β̂ = (XᵀX/n + λI)⁻¹Xᵀy/n (the
    minimum-norm least-squares solution at λ = 0); returns the risk ‖β̂ − β‖² (= E_x(xᵀβ̂ −
    xᵀβ)² for isotropic x).

    >>> ridge_risk_sample(50, 100, 1.0, 0.0, 0.0, 0) < 1e-20   # noiseless, p < n: exact
    True
    """
    rng = seeding.rng(seed, TRAIN)
    X = rng.standard_normal((n, p))
    beta = rng.standard_normal(p)
    beta *= math.sqrt(signal) / np.linalg.norm(beta)
    y = X @ beta + noise * rng.standard_normal(n)
    if lam > 0 and p <= n:
        b = np.linalg.solve(X.T @ X / n + lam * np.eye(p), X.T @ y / n)
    elif lam > 0:  # the same estimator through the n × n system: Xᵀ(XXᵀ/n + λI)⁻¹y/n
        b = X.T @ np.linalg.solve(X @ X.T / n + lam * np.eye(n), y) / n
    else:
        b = np.linalg.lstsq(X, y, rcond=None)[0]
    return float(np.sum((b - beta) ** 2))


def rf_ridge_sample(activation: str, d: int, N: int, n: int, lam: float, signal: float,
                    noise: float, n_test: int, seed: seeding.SeedLike) -> float:
    """One draw of random-features ridge regression in Mei & Montanari's setting: x and θ_a
    uniform on the sphere of radius √d, features σ(⟨θ_a, x⟩/√d) with σ the catalogue activation
    scaled to E σ(G)² = 1 (Gauss–Hermite), y = ⟨β, x⟩ + N(0, noise²) with ‖β‖² = signal (a
    linear target), â = (ZᵀZ/n + (Nλ/d) I)⁻¹Zᵀy/n; returns the clean test error on ``n_test``
    fresh points.

    >>> rf_ridge_sample("relu", 20, 40, 60, 0.1, 1.0, 0.0, 500, 0) < 1.0
    True
    """
    from fltheory.simkit.activations import numpy_activation

    act = numpy_activation(activation)
    scale = 1.0 / math.sqrt(_second_moment(activation, 1.0)[0])
    rng = seeding.rng(seed, TRAIN)

    def ball(m: int) -> np.ndarray:
        return math.sqrt(d) * sphere(m, d, rng)

    X, T, Xt = ball(n), ball(N), ball(n_test)
    beta = rng.standard_normal(d)
    beta *= math.sqrt(signal) / np.linalg.norm(beta)
    y = X @ beta + noise * rng.standard_normal(n)
    Z = scale * act.g(X @ T.T / math.sqrt(d))
    Zt = scale * act.g(Xt @ T.T / math.sqrt(d))
    a = np.linalg.solve(Z.T @ Z / n + (N * lam / d) * np.eye(N), Z.T @ y / n)
    return float(np.mean((Xt @ beta - Zt @ a) ** 2))
