r"""Learning curves of kernel ridge regression from a spectrum: the equations of Bordelon,
Canatar & Pehlevan (2020, ICML, Sec. 3) and Canatar, Bordelon & Pehlevan (2021, Nat. Commun.),
in the form of Simon, Dickens, Karkada & DeWeese (2023, TMLR, "eigenlearning", Sec. 4).

Estimator: f̂(x) = k(x)ᵀ(K + λ I_n)⁻¹ y, K_ij = κ(x_i, x_j), y_i = f*(x_i) + ε_i, ε ~ N(0, σ²),
x uniform on the sphere; eigenvalues μ_i of T f = E_y κ(·, y) f(y) (here degree by degree, μ_k
with multiplicity N_k). The effective ridge κ_eff > 0 solves

.. math::  \sum_i \frac{\mu_i}{\mu_i + \kappa_{\rm eff}} + \frac{\lambda}{\kappa_{\rm eff}} = n,

the learnability of mode i is L_i = μ_i/(μ_i + κ_eff), E_0 = n/(n − Σ_i L_i²), and the test error
against noisy labels is E_0 (Σ_i (1 − L_i)² v_i² + σ²) (f* = Σ_i v_i φ_i); against the clean
target it is that minus σ². The equations are exact in the limit of many modes per sample (the
proportional and polynomial regimes) and an approximation otherwise (small n: checked against
real kernel regression by the claims).

The degrees beyond the last computed one carry the trace R = κ(1) − Σ_{k <= K} N_k μ_k; their
eigenvalues are below κ_eff whenever μ_K is, and they enter as R/κ_eff (L ≈ 0): exact in that
limit, and the ratio μ_K/κ_eff is reported as its check.

Arithmetic: numpy float64 in the log domain (μ_k may be 10^(−1000) at d = 10^6): the curve is
an approximation, its evaluation is good to about 12 digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["ROUNDING", "CurvePoint", "Spectrum", "curve_point", "limit_peak", "limit_point",
           "optimal_ridge"]


@dataclass(frozen=True)
class Spectrum:
    """log μ_k, log N_k (k = 0 … K; −inf for μ_k = 0) and the trace beyond K, ``rest``."""

    log_mu: np.ndarray
    log_mult: np.ndarray
    rest: float

    @classmethod
    def from_values(cls, mu: Sequence[float | str], mult: Sequence[int], at_one: float
                    ) -> Spectrum:
        """From μ_k (floats, mpmath numbers or decimal strings, any magnitude), N_k (integers,
        any size) and κ(1); the trace beyond is κ(1) − Σ N_k μ_k."""
        import mpmath

        lm = np.array([float(mpmath.log(mpmath.mpf(m))) if mpmath.mpf(m) > 0 else -np.inf
                       for m in mu])
        ln = np.array([_log_int(n) for n in mult])
        with mpmath.workdps(30):
            covered = mpmath.fsum(mpmath.mpf(n) * mpmath.mpf(m) for m, n in zip(mu, mult,
                                                                                 strict=True))
            rest = float(max(mpmath.mpf(at_one) - covered, 0))
        return cls(lm, ln, rest)


def _log_int(n: int) -> float:
    return math.log(n) if n < 2**1000 else n.bit_length() * math.log(2)  # N huge: bits suffice


@dataclass(frozen=True)
class CurvePoint:
    """The solution at one (n, λ): effective ridge ``kappa``, learnabilities ``L`` per degree,
    ``E0``, the clean and noisy test errors, their bias and variance parts, and μ_K/κ_eff
    (``tail_ratio``: small when the tail treatment is exact)."""

    n: float
    ridge: float
    kappa: float
    L: np.ndarray
    E0: float
    error: float
    noisy: float
    bias: float
    variance: float
    tail_ratio: float


def _modes_sum(spec: Spectrum, log_kappa: float, power: int) -> float:
    """Σ_k N_k L_k^power with L_k = μ_k/(μ_k + κ), in the log domain."""
    lm = spec.log_mu
    finite = np.isfinite(lm)
    logL = lm[finite] - np.logaddexp(lm[finite], log_kappa)
    return float(np.sum(np.exp(spec.log_mult[finite] + power * logL)))


def _solve(spec: Spectrum, n: float, ridge: float) -> float:
    """log κ_eff: the root of Σ N_k L_k + (R + λ)/κ = n (decreasing in κ), by bisection in
    log κ; −inf when λ = 0, R = 0 and n >= the number of modes (ridgeless interpolation is
    then least squares on all the modes)."""
    extra = spec.rest + ridge

    def F(lk: float) -> float:
        return _modes_sum(spec, lk, 1) + (extra * math.exp(min(-lk, 700.0)) if extra else 0.0) - n

    finite = spec.log_mu[np.isfinite(spec.log_mu)]
    top = float(np.max(finite)) if finite.size else 0.0
    hi = math.log(max(float(np.sum(np.exp(spec.log_mult[np.isfinite(spec.log_mu)] + finite)))
                      + extra, 1e-300)) - math.log(n) + 1
    lo = min(hi - 10, (math.log(ridge / n) - 1) if ridge > 0 else hi - 10)
    while F(lo) < 0:
        if extra == 0 and lo < top - 745 * 2:  # no mode left to make F positive
            return -math.inf
        lo -= 10
    for _ in range(200):
        mid = (lo + hi) / 2
        if F(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2


def curve_point(spec: Spectrum, energies: np.ndarray, n: float, ridge: float, noise2: float
                ) -> CurvePoint:
    """The learning curve at n samples and ridge λ for a target with energy ``energies[k]`` in
    degree k (Σ over the N_k modes of v_i²) and label-noise variance ``noise2``.

    >>> s = Spectrum.from_values([0.5, 0.1], [1, 3], 1.0)   # trace 0.2 beyond degree 1
    >>> p = curve_point(s, np.array([0.0, 1.0]), 10.0, 0.0, 0.0)
    >>> round(p.kappa, 6), round(p.error, 6)
    (0.029663, 0.071454)
    """
    lk = _solve(spec, n, ridge)
    lm = spec.log_mu
    with np.errstate(invalid="ignore"):
        L = np.where(np.isfinite(lm), np.exp(lm - np.logaddexp(lm, lk)), 0.0) \
            if math.isfinite(lk) else np.where(np.isfinite(lm), 1.0, 0.0)
    sum2 = _modes_sum(spec, lk, 2) if math.isfinite(lk) else float(
        np.sum(np.exp(spec.log_mult[np.isfinite(lm)])))
    E0 = n / (n - sum2) if n > sum2 else math.inf
    bias_raw = float(np.sum((1 - L[: len(energies)]) ** 2 * energies))
    error = E0 * (bias_raw + noise2) - noise2
    finite = lm[np.isfinite(lm)]
    ratio = math.exp(float(finite[-1]) - lk) if finite.size and math.isfinite(lk) else 0.0
    return CurvePoint(n, ridge, math.exp(lk) if math.isfinite(lk) else 0.0, L, E0, error,
                      error + noise2, E0 * bias_raw, (E0 - 1) * noise2, ratio)


#: the relative rounding of a curve point's error (its float sums over the modes): λ = 0 is
#: the optimum when its error is within this of the best positive λ's
ROUNDING = 1e-12


def optimal_ridge(spec: Spectrum, energies: np.ndarray, n: float, noise2: float
                  ) -> CurvePoint:
    """The λ >= 0 minimising the clean test error at n (golden section in log λ over 40
    decades around the trace scale, and λ = 0 itself).

    >>> s = Spectrum.from_values([0.5, 0.1], [1, 3], 0.8)
    >>> best = optimal_ridge(s, np.array([0.0, 1.0]), 10.0, 0.25)
    >>> best.error <= curve_point(s, np.array([0.0, 1.0]), 10.0, 0.0, 0.25).error
    True
    """
    scale = float(np.sum(np.exp(spec.log_mult + np.where(np.isfinite(spec.log_mu),
                                                         spec.log_mu, -np.inf)))) + spec.rest
    a, b = math.log(scale) - 30 * math.log(10), math.log(scale) + 10 * math.log(10)
    grid = np.linspace(a, b, 81)
    values = [curve_point(spec, energies, n, math.exp(g), noise2).error for g in grid]
    i = int(np.argmin(values))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    phi = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        m1, m2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if curve_point(spec, energies, n, math.exp(m1), noise2).error <= curve_point(
                spec, energies, n, math.exp(m2), noise2).error:
            hi = m2
        else:
            lo = m1
    best = curve_point(spec, energies, n, math.exp((lo + hi) / 2), noise2)
    zero = curve_point(spec, energies, n, 0.0, noise2)
    # λ = 0 when it is as good to the rounding of the error (1e-12 relative; a float sum of
    # the modes): a boundary minimum was printed as λ = 2.4e-20 (exp(2t − 2), d = 10, n = 100)
    return zero if zero.error <= best.error * (1 + ROUNDING) else best


def limit_point(alpha: float, rho: float, level_energy: float, higher_energy: float,
                noise2: float) -> tuple[float, float, float]:
    """The polynomial-regime limit at level ℓ: n/N(d, ℓ) → α, effective ridge ρ (in units of
    the level's trace b_ℓ). θ = κ_eff/μ_ℓ solves 1/(1 + θ) + ρ/θ = α; L = 1/(1 + θ);
    E_0 = α/(α − L²); clean error E_0((1 − L)² e_ℓ + e_{>ℓ} + σ²) − σ². Returns (θ, L, error).

    >>> [round(v, 6) for v in limit_point(2.0, 0.0, 1.0, 0.0, 0.0)]
    [0.0, 1.0, 0.0]
    """
    if rho == 0:
        theta = max(0.0, (1 - alpha) / alpha)
    else:
        b = alpha - 1 - rho
        theta = (-b + math.sqrt(b * b + 4 * alpha * rho)) / (2 * alpha)
    L = 1 / (1 + theta)
    if alpha <= L * L:      # α = 1 at ρ = 0: the interpolation threshold
        # infinite with effective noise; without it the limit of (1 − α) e_ℓ, i.e. 0
        return theta, L, (math.inf if higher_energy + noise2 > 0 else 0.0)
    E0 = alpha / (alpha - L * L)
    return theta, L, E0 * ((1 - L) ** 2 * level_energy + higher_energy + noise2) - noise2


def limit_peak(rho: float, level_energy: float, higher_energy: float, noise2: float
               ) -> tuple[float, float] | None:
    """The peak of the level-ℓ limiting curve α ↦ error (:func:`limit_point`, α = n/N(d, ℓ)) at
    effective ridge ρ: (α*, error at α*) for an interior local maximum (the highest if several),
    None when the curve has none (it then decreases from e_ℓ + e_{>ℓ} at α → 0 to e_{>ℓ} at
    α → ∞). The peak is a local maximum: its value may lie below the α → 0 value e_ℓ + e_{>ℓ}.

    ρ = 0 with effective noise e_{>ℓ} + σ² > 0: α* = 1 exactly and the error is infinite (the
    interpolation threshold, E_0 = α/(α − L²) with L = min(α, 1)); ρ = 0 without it: None (the
    error is (1 − α) e_ℓ below α = 1, 0 above). ρ > 0: the local maxima on a grid of 1601 points
    log-spaced over α ∈ [10^−6, 10^6], the highest refined by golden section to 10^−12 in log α.

    >>> a, e = limit_peak(0.0, 1.0, 0.0, 0.25)
    >>> a, e
    (1.0, inf)
    >>> limit_peak(0.0, 1.0, 0.0, 0.0) is None
    True
    """
    if rho == 0:
        return (1.0, math.inf) if higher_energy + noise2 > 0 else None

    def err(log_alpha: float) -> float:
        return limit_point(math.exp(log_alpha), rho, level_energy, higher_energy, noise2)[2]

    lo, hi, m = math.log(1e-6), math.log(1e6), 1600
    grid = [lo + (hi - lo) * i / m for i in range(m + 1)]
    values = [err(x) for x in grid]
    local = [i for i in range(1, m) if values[i - 1] < values[i] >= values[i + 1]]
    if not local:
        return None
    i = max(local, key=values.__getitem__)
    a, b = grid[i - 1], grid[i + 1]
    g = (math.sqrt(5) - 1) / 2
    c, e = b - g * (b - a), a + g * (b - a)
    fc, fe = err(c), err(e)
    while b - a > 1e-12:
        if fc > fe:
            b, e, fe = e, c, fc
            c = b - g * (b - a)
            fc = err(c)
        else:
            a, c, fc = c, e, fe
            e = a + g * (b - a)
            fe = err(e)
    x = (a + b) / 2
    return math.exp(x), err(x)
