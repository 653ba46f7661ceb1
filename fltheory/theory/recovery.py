r"""Sequential feature recovery (seed 002): thresholds, overlaps at finite n/D, MSE and its law.

The model
---------
x ~ N(0, I_d); φ(x) ∈ ℝ^D the orthonormal degree-q multivariate Hermite polynomials,
D = C(d+q−1, q) ≈ d^q/q!. Orthonormal latent directions A_1..A_{d1} ∈ ℝ^D, h_i = ⟨A_i, φ⟩, and

    y = Σ_i c_i He_2(h_i)/√2,   c_i = λ_i/‖λ‖,   λ_i = i^{−γ} (or given),     Var y = 1.

The algorithm forms Ĉ = (1/n) Σ_j T(y_j) φ_j φ_jᵀ, takes its top eigenvectors Â_i, fits the
second layer on [1, He_2(ĥ_i)/√2] (ĥ = Âᵀφ) and predicts y.

Overlaps (Lu & Li 2017, decoupled per direction)
------------------------------------------------
For Gaussian-equivalent features φ ~ N(0, I_D), δ = n/D, T bounded with sup τ, define for λ > τ

    ψ_δ(λ) = λ (1/δ + E[T/(λ − T)]),     φ_i(λ) = λ E[T h_i²/(λ − T)],

λ̄ = argmin ψ_δ, ζ(λ) = ψ_δ(max(λ, λ̄)), and λ_i* the root of ζ(λ) = φ_i(λ). Then the top
eigenvector attached to direction i has ⟨Â, A_i⟩² → ψ'(λ*)/(ψ'(λ*) − φ_i'(λ*)) when ψ'(λ*) > 0 and
→ 0 otherwise; its eigenvalue is ψ(λ*) and the bulk edge is ψ(λ̄). The directions decouple because
y depends on each h_i through h_i² only, so E[T h_i h_j/(λ − T)] = 0 for i ≠ j and the secular
equation is diagonal in the A basis.

The joint law of (T, h_i²) enters through a size bias: for any G, E[h_i² G(s)] = E[G(s̃_i)] where
s̃_i is s with the i-th χ²_1 replaced by a χ²_3 (h² times the χ²_1 density is the χ²_3 density).
s = Σ w_i (h_i² − 1), w_i = c_i/√2, is a generalised χ², evaluated by Ruben's (1962) mixture of
χ² laws — a convergent series, no Fourier inversion. For the rank transform T = 2F_s(s) − 1 is
exactly uniform on [−1, 1] (distribution-free; invariant to any increasing g applied to y), so
ψ_δ is closed-form: ψ_δ(λ) = λ/δ − λ + (λ²/2) ln((λ+1)/(λ−1)).

Large δ. With θ_i = E[T (h_i² − 1)] and x_i = δ θ_i²/E[T²], ρ_i² → 1 − 1/x_i (a BBP form) when
θ_i → 0 with x_i fixed. The threshold is n_i = D E[T²]/θ_i². Writing θ_i ≈ κ c_i for weak
directions (Stein: θ_i = 2 w_i E[T'(s)] + O(w_i²), and E[T'(s)] = 2∫p_s² for the rank
transform), n_i = C · D / c_i² with C = E[T²]/κ², κ = 2√2 ∫p_s²; C = π/6 when s is Gaussian.

MSE
---
ĥ_i ~ N(0, 1) with corr(ĥ_i, h_i) = ρ_i and the He_2(ĥ_i) orthonormal (eigenvectors are
orthogonal), so the fitted second layer explains Σ c_i² ρ_i⁴ of Var y = 1 (cross-overlaps are
O(1/D)): MSE(δ) = 1 − Σ_i c_i² ρ_i⁴(δ) — the finite-d1 curve.

The law. For d1 = ∞, λ_k = k^{−γ} (γ > 1/2, else Σλ_k² diverges and the target has infinite
variance), BBP overlaps with x_k = (κ_*/k)^{2γ}, κ_*^{2γ} = δ a_1² ... summing the unrecovered tail
and the partial losses 1 − (1 − (k/κ_*)^{2γ})² by Euler–Maclaurin,

    MSE ≈ P · δ^{−1 + 1/(2γ)},   P = 8γ² / ((4γ² − 1) ζ(2γ)) · (a_1²)^{−1 + 1/(2γ)},

with a_1² = θ_1²/E[T²] in the weak-direction normalisation a_k² = a_1² k^{−2γ} (a_1² = c_1²/C).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError

_Floats = Sequence[float] | np.ndarray

__all__ = ["LabelLaw", "RecoveryModel", "continuum_count", "depth_rows", "feature_dimension",
           "law_a1_squared", "law_prefactor", "recovered_count", "threshold",
           "threshold_exact"]


# --------------------------------------------------------------------------- exact counting


def feature_dimension(d: int, q: int) -> int:
    """D = C(d + q − 1, q), the dimension of the degree-q symmetric Hermite space (exact)."""
    return math.comb(d + q - 1, q)


def _dim(d: int, q: int, dim: str) -> int:
    if dim == "D":
        return feature_dimension(d, q)
    if dim == "dq":
        return d ** q
    raise DomainError("dim", dim, "D or dq")


def threshold(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
              dps: int = 30, dim: str = "D", strength: Fraction | None = None) -> Any:
    """n_k = C · D / a_k² (mpmath at ``dps``), a_k = k^{−γ} unless ``strength`` is given."""
    import mpmath

    with mpmath.workdps(dps + 10):
        size = mpmath.mpf(_dim(d, q, dim))
        c = mpmath.mpf(C.numerator) / C.denominator
        if strength is None:
            g = mpmath.mpf(gamma.numerator) / gamma.denominator
            inv_a2 = mpmath.power(k, 2 * g)
        else:
            inv_a2 = mpmath.mpf(strength.denominator) ** 2 / strength.numerator ** 2
        return +(c * size * inv_a2)


def threshold_exact(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", strength: Fraction | None = None) -> Fraction | None:
    """n_k = C · D / a_k² as an exact rational when it is one (2γ an integer, or a rational
    strength); None otherwise (then :func:`threshold` gives it in mpmath)."""
    size = _dim(d, q, dim)
    if strength is not None:
        return C * size / (strength * strength)
    if (2 * gamma).denominator == 1:
        return C * size * k ** int(2 * gamma)
    return None


def recovered_count(n: Fraction, d: int, q: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", cap: int | None = None) -> int:
    """k*(n) = #{k ≥ 1 : n ≥ C·D·k^{2γ}}, exactly: with γ = u/v, k^{2γ} ≤ R ⟺ k^{2u} ≤ R^v."""
    R = Fraction(n) / (C * _dim(d, q, dim))
    u, v = gamma.numerator, gamma.denominator
    if R < 1:
        return 0
    target = R ** v

    def ok(k: int) -> bool:
        return k ** (2 * u) <= target

    guess = max(1, int(math.exp(math.log(R.numerator) / (2 * gamma) - math.log(R.denominator)
                                / (2 * gamma))))
    lo, hi = guess, guess
    while not ok(lo):
        lo = max(1, lo // 2)
    while ok(hi + 1):
        hi = 2 * hi + 1
    while lo < hi:  # largest k in [lo, hi] with ok(k)
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo if cap is None else min(lo, cap)


def continuum_count(n: Fraction, d: int, q: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", dps: int = 30) -> Any:
    """(n/(C·D))^{1/(2γ)} in mpmath."""
    import mpmath

    with mpmath.workdps(dps + 10):
        R = mpmath.mpf(n.numerator) / n.denominator / (
            mpmath.mpf(C.numerator) / C.denominator * _dim(d, q, dim))
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +mpmath.power(R, 1 / (2 * g))


def depth_rows(ds: Sequence[int], qs: Sequence[int]) -> list[dict[str, int]]:
    """Sample-size scales of the hierarchical method (D(d, q) ~ d^q/q!) and of a shallow kernel
    on the degree-2q target (D(d, 2q) ~ d^{2q}/(2q)!), exactly."""
    return [{"d": d, "q": q, "hier": feature_dimension(d, q),
             "kernel": feature_dimension(d, 2 * q)} for q in qs for d in ds]


# --------------------------------------------------------------------------- generalised χ²


class _GenChi2:
    """Q = Σ w_i χ²_{m_i} (w_i > 0) by Ruben's series: Q/β is a mixture Σ_j a_j χ²_{M+2j}."""

    def __init__(self, w: np.ndarray, m: np.ndarray, tol: float = 1e-15):
        from scipy.special import gammaln

        self.w, self.m = w, m
        self.beta = 2 * w.min() * w.max() / (w.min() + w.max())
        self.M = int(m.sum())
        ratio = 1 - self.beta / w
        log_a0 = 0.5 * float(np.sum(m * np.log(self.beta / w)))
        a = [math.exp(log_a0)]
        G: list[float] = [0.0]
        r = 1
        total = a[0]
        while True:
            G.append(float(np.sum(m * ratio ** r)))
            a.append(sum(G[j] * a[r - j] for j in range(1, r + 1)) / (2 * r))
            total += a[-1]
            if (abs(a[-1]) < tol and 1 - total < 10 * tol) or r > 200000:
                break
            r += 1
        self.a = np.array(a)
        dof = self.M + 2 * np.arange(len(a))
        self._dof = dof
        self._log_norm = -(dof / 2) * math.log(2) - gammaln(dof / 2)

    def pdf(self, x: np.ndarray) -> np.ndarray:
        z = np.asarray(x)[:, None] / self.beta
        with np.errstate(divide="ignore"):
            logf = self._log_norm + (self._dof / 2 - 1) * np.log(z) - z / 2
        out: np.ndarray = np.exp(logf) @ self.a / self.beta
        return out

    def sf(self, x: np.ndarray) -> np.ndarray:
        from scipy.special import gammaincc

        z = np.asarray(x)[:, None] / self.beta
        out: np.ndarray = gammaincc(self._dof / 2, z / 2) @ self.a
        return out


# --------------------------------------------------------------------------- label laws


@dataclass(frozen=True)
class LabelLaw:
    """The law of T (nodes ``t`` with weights ``base``) and its size-biased versions
    (``biased[i]``: weights of E[h_i² ·]); sup of the support ``tau``."""

    name: str
    t: np.ndarray
    base: np.ndarray
    biased: np.ndarray  # d1 × len(t)
    tau: float
    slope: float  # E[T'(s)]: θ_i = √2 c_i E[T'(s)] + O(c_i²) (Stein)

    @property
    def second_moment(self) -> float:
        return float(self.base @ self.t ** 2)

    def theta(self) -> np.ndarray:
        """θ_i = E[T (h_i² − 1)]."""
        return self.biased @ self.t - self.base @ self.t

    def psi(self, lam: float, delta: float) -> tuple[float, float]:
        """ψ_δ(λ) and ψ_δ'(λ)."""
        if self.name == "rank":  # closed form, T uniform on [−1, 1]
            L = math.log((lam + 1) / (lam - 1))
            return (lam / delta - lam + lam * lam * L / 2,
                    1 / delta - 1 + lam * L - lam * lam / (lam * lam - 1))
        e1 = float(self.base @ (self.t / (lam - self.t)))
        e2 = float(self.base @ (self.t ** 2 / (lam - self.t) ** 2))
        return lam * (1 / delta + e1), 1 / delta - e2

    def phi(self, i: int, lam: float) -> tuple[float, float]:
        """φ_i(λ) = λ E[T h_i²/(λ − T)] and its derivative −E[T² h_i²/(λ − T)²]."""
        b = self.biased[i]
        return (lam * float(b @ (self.t / (lam - self.t))),
                -float(b @ (self.t ** 2 / (lam - self.t) ** 2)))


def _rank_law(w: np.ndarray, nodes: int = 6001) -> LabelLaw:
    """T = 2F(s) − 1 on a grid x = u² (Simpson in u), where the singular corners of the χ²
    densities are smooth."""
    base = _GenChi2(w, np.ones_like(w))
    xmax = 2 * w.max() * 40 + 4 * float(np.sum(w))  # 1 − F < 1e-15 well before xmax
    u = np.linspace(0.0, math.sqrt(xmax), nodes)
    x = u * u
    simpson = np.ones(nodes)
    simpson[1:-1:2], simpson[2:-1:2] = 4, 2
    jac = simpson * (u[1] - u[0]) / 3 * 2 * u  # dx = 2u du
    p = base.pdf(x)
    t = 1 - 2 * base.sf(x)
    weights = p * jac
    biased = []
    for i in range(len(w)):
        m = np.ones_like(w)
        m[i] = 3
        biased.append(_GenChi2(w, m).pdf(x) * jac)
    return LabelLaw("rank", t, weights, np.array(biased), 1.0, float(2 * weights @ p))


def _sign_law(w: np.ndarray) -> LabelLaw:
    """T = sign(s − median s): two atoms; the biased masses come from the size-biased CDFs."""
    from scipy.optimize import brentq

    base = _GenChi2(w, np.ones_like(w))
    hi = 2 * w.max() * 40 + 4 * float(np.sum(w))
    med = brentq(lambda z: float(base.sf(np.array([z]))[0]) - 0.5, 0.0, hi, xtol=1e-14)
    biased = []
    for i in range(len(w)):
        m = np.ones_like(w)
        m[i] = 3
        up = float(_GenChi2(w, m).sf(np.array([med]))[0])
        biased.append([1 - up, up])
    return LabelLaw("sign", np.array([-1.0, 1.0]), np.array([0.5, 0.5]), np.array(biased), 1.0,
                    float(2 * base.pdf(np.array([med]))[0]))


LAWS = {"rank": _rank_law, "sign": _sign_law}
MAX_D1 = 64


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Overlap:
    rho2: float
    outlier: float | None  # eigenvalue of the attached outlier (None below threshold)
    edge: float  # bulk edge ψ(λ̄)


class RecoveryModel:
    """The hierarchical target with strengths λ (normalised to c) and a label transform."""

    def __init__(self, lam: _Floats, transform: str = "rank"):
        if transform not in LAWS:
            raise DomainError("transform", transform, " or ".join(LAWS),
                              reason="the finite-δ theory needs a bounded transform")
        lam_arr = np.asarray(lam, dtype=float)
        if lam_arr.ndim != 1 or len(lam_arr) == 0 or np.any(lam_arr <= 0):
            raise DomainError("strengths", list(lam), "a non-empty list of positive numbers")
        if len(lam_arr) > MAX_D1:
            raise DomainError("d1", len(lam_arr), f"1 <= d1 <= {MAX_D1}",
                              reason="the finite-δ theory sums Ruben's series per direction")
        self.c = lam_arr / np.linalg.norm(lam_arr)
        self.transform = transform
        self.law = LAWS[transform](self.c / math.sqrt(2))

    @classmethod
    def power_law(cls, d1: int, gamma: float, transform: str = "rank") -> RecoveryModel:
        return cls(np.arange(1, d1 + 1, dtype=float) ** (-gamma), transform)

    @property
    def d1(self) -> int:
        return len(self.c)

    def theta(self) -> np.ndarray:
        return self.law.theta()

    def weak_constant(self) -> float:
        """C = E[T²]/(√2 E[T'(s)])²: n_i → C·D/c_i² for weak directions (c_i → 0)."""
        return self.law.second_moment / (2 * self.law.slope ** 2)

    def bbp_thresholds(self) -> np.ndarray:
        """δ_i = E[T²]/θ_i²: where the large-δ form 1 − 1/x_i reaches zero."""
        return self.law.second_moment / self.theta() ** 2

    def _lambda_bar(self, delta: float) -> float:
        from scipy.optimize import brentq

        tau = self.law.tau
        lo, hi = tau + 1e-14, tau + 1.0
        while self.law.psi(hi, delta)[1] <= 0:
            hi = tau + 2 * (hi - tau)
        if self.law.psi(lo, delta)[1] >= 0:
            return lo
        return float(brentq(lambda z: self.law.psi(z, delta)[1], lo, hi, xtol=1e-15,
                            rtol=1e-13))

    def overlap(self, i: int, delta: float) -> Overlap:
        """Lu–Li ρ_i² at δ = n/D (i from 0)."""
        from scipy.optimize import brentq

        if delta <= 0:
            raise DomainError("delta", delta, "δ > 0")
        lbar = self._lambda_bar(delta)
        edge = self.law.psi(lbar, delta)[0]

        def gap(z: float) -> float:
            return self.law.psi(max(z, lbar), delta)[0] - self.law.phi(i, z)[0]

        lo = self.law.tau + 1e-12
        hi = max(lbar, 2.0) * 2
        while gap(hi) < 0:
            hi *= 2
        if gap(lo) >= 0:  # ζ above φ everywhere: no outlier
            return Overlap(0.0, None, edge)
        lstar = float(brentq(gap, lo, hi, xtol=1e-14, rtol=1e-12))
        if lstar <= lbar:
            return Overlap(0.0, None, edge)
        psi, dpsi = self.law.psi(lstar, delta)
        dphi = self.law.phi(i, lstar)[1]
        return Overlap(dpsi / (dpsi - dphi), psi, edge)

    def overlaps(self, deltas: _Floats) -> np.ndarray:
        """len(deltas) × d1 array of Lu–Li ρ_i²."""
        return np.array([[self.overlap(i, float(dl)).rho2 for i in range(self.d1)]
                         for dl in deltas])

    def bbp_overlaps(self, deltas: _Floats) -> np.ndarray:
        x = np.outer(np.asarray(deltas, dtype=float), 1 / self.bbp_thresholds())
        return np.clip(1 - 1 / x, 0.0, None)

    def mse(self, deltas: _Floats, bbp: bool = False) -> np.ndarray:
        """1 − Σ c_i² ρ_i⁴ (Var y = 1)."""
        rho2 = self.bbp_overlaps(deltas) if bbp else self.overlaps(deltas)
        out: np.ndarray = 1 - (rho2 ** 2) @ (self.c ** 2)
        return out

    def crossing(self, i: int, level: float = 0.5) -> float:
        """δ at which the Lu–Li ρ_i² reaches ``level``."""
        from scipy.optimize import brentq

        lo = hi = float(self.bbp_thresholds()[i])
        while self.overlap(i, lo).rho2 >= level:
            lo /= 2
        while self.overlap(i, hi).rho2 < level:
            hi *= 2
        return float(brentq(lambda z: self.overlap(i, z).rho2 - level, lo, hi, rtol=1e-10))


# --------------------------------------------------------------------------- the law


def law_exponent(gamma: Fraction) -> Fraction:
    """−1 + 1/(2γ), defined for γ > 1/2."""
    if gamma <= Fraction(1, 2):
        raise DomainError("gamma", gamma, "γ > 1/2",
                          reason="for γ <= 1/2 Σ k^{-2γ} diverges: the target has infinite "
                                 "variance and the MSE law does not exist")
    return -1 + 1 / (2 * gamma)


def law_a1_squared(gamma: Fraction, C: float, dps: int = 30) -> Any:
    """a_1² = c_1²/C in the d1 = ∞ normalisation c_k² = k^{−2γ}/ζ(2γ): 1/(ζ(2γ)·C) (mpmath)."""
    import mpmath

    law_exponent(gamma)
    with mpmath.workdps(dps + 10):
        return +(1 / (mpmath.zeta(2 * mpmath.mpf(gamma.numerator) / gamma.denominator)
                      * mpmath.mpf(C)))


def law_prefactor(gamma: Fraction, a1_squared: Any, dps: int = 30) -> Any:
    """P = 8γ²/((4γ² − 1) ζ(2γ)) · (a_1²)^{−1 + 1/(2γ)} (mpmath), see the module docstring."""
    import mpmath

    law_exponent(gamma)
    with mpmath.workdps(dps + 10):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +(8 * g ** 2 / ((4 * g ** 2 - 1) * mpmath.zeta(2 * g))
                 * mpmath.power(a1_squared, -1 + 1 / (2 * g)))
