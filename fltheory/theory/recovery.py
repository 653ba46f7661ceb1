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

from fltheory.exact import (
    CostError,
    DomainError,
    check_cost,
    check_dps,
    check_integer,
    fraction_str,
)

_Floats = Sequence[float] | np.ndarray

__all__ = ["LabelLaw", "RecoveryModel", "continuum_count", "depth_rows", "feature_dimension",
           "law_a1_squared", "law_prefactor", "power_strength", "recovered_count", "ruben_terms",
           "ruben_work", "threshold", "threshold_exact"]


# --------------------------------------------------------------------------- exact counting


#: Hermite degree q of the first layer (the CLI's --q): D = C(d + q − 1, q).
MAX_Q = 64
#: digits of D and of an exact threshold: beyond, integers are slow to print (Python refuses
#: more than 4300 digits) and no sample size is meaningful.
MAX_DIGITS = 1000


def _check_dq(d: int, q: int) -> None:
    check_integer(d, "d", 1)
    check_integer(q, "q", 1, MAX_Q)
    # d^q/q! <= D <= d^q·e^q/q!... : refuse on the lower bound, in logs (d may be huge)
    digits = q * math.log10(d) - math.lgamma(q + 1) / math.log(10)
    if digits > MAX_DIGITS:
        shown = d if d.bit_length() < 100 else f"1e{math.log10(d):.0f} (about)"
        raise DomainError("d", shown, f"d with D = C(d + q − 1, q) of at most {MAX_DIGITS} digits",
                          reason=f"gives D of about {digits:.0f} digits at q = {q}")


def _check_positive(value: Fraction, param: str) -> Fraction:
    value = Fraction(value)
    if value <= 0:
        raise DomainError(param, fraction_str(value), f"{param} > 0")
    return value


def feature_dimension(d: int, q: int) -> int:
    """D = C(d + q − 1, q), the dimension of the degree-q symmetric Hermite space (exact)."""
    _check_dq(d, q)
    return math.comb(d + q - 1, q)


def _dim(d: int, q: int, dim: str) -> int:
    if dim == "D":
        return feature_dimension(d, q)
    if dim == "dq":
        _check_dq(d, q)
        return d ** q
    raise DomainError("dim", dim, "D or dq")


def threshold(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
              dps: int = 30, dim: str = "D", strength: Fraction | None = None) -> Any:
    """n_k = C · D / a_k² (mpmath at ``dps``), a_k = k^{−γ} unless ``strength`` is given.

    Any γ > 0 is answered: k^{2γ} is evaluated with as many extra digits as its exponent
    2γ·ln k has, so its leading ``dps`` digits are right even for γ = 10^100.
    """
    import mpmath

    check_integer(k, "k", 1)
    check_dps(dps)
    C = _check_positive(C, "C")
    if strength is None:
        extra = _power_guard(k, _check_positive(gamma, "gamma"))
    else:
        strength = _check_positive(strength, "strengths")
        extra = 0
    with mpmath.workdps(dps + 10 + extra):
        size = mpmath.mpf(_dim(d, q, dim))
        c = mpmath.mpf(C.numerator) / C.denominator
        if strength is None:
            g = mpmath.mpf(gamma.numerator) / gamma.denominator
            inv_a2 = mpmath.power(k, 2 * g)
        else:
            inv_a2 = mpmath.mpf(strength.denominator) ** 2 / strength.numerator ** 2
        return +(c * size * inv_a2)


def _power_guard(k: int, gamma: Fraction) -> int:
    """Guard digits for k^{±γ}: as many as the exponent γ·ln k has before the decimal point."""
    digits = math.log10(float(min(gamma, Fraction(10**300))) * 2 * (math.log(k) + 1))
    return max(0, math.ceil(digits)) + max(0, len(str(gamma.numerator))
                                           - len(str(gamma.denominator)) - 300)


def power_strength(k: int, gamma: Fraction, dps: int = 30) -> Any:
    """a_k = k^{−γ} in mpmath, right to ``dps`` digits for any γ > 0 (guard digits as in
    :func:`threshold`)."""
    import mpmath

    check_integer(k, "k", 1)
    gamma = _check_positive(gamma, "gamma")
    with mpmath.workdps(dps + 10 + _power_guard(k, gamma)):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +mpmath.power(k, -g)


def threshold_exact(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", strength: Fraction | None = None) -> Fraction | None:
    """n_k = C · D / a_k² as an exact rational when it is one (2γ an integer, or a rational
    strength) of at most MAX_DIGITS digits; None otherwise (then :func:`threshold` gives it in
    mpmath)."""
    check_integer(k, "k", 1)
    C = _check_positive(C, "C")
    size = _dim(d, q, dim)
    if strength is not None:
        strength = _check_positive(strength, "strengths")
        value = C * size / (strength * strength)
    elif (_check_positive(gamma, "gamma") * 2).denominator == 1:
        # the size of k^{2γ} is known before it is computed: 2γ·log10 k digits
        if k > 1 and 2 * gamma > Fraction(MAX_DIGITS) / Fraction(math.log10(k)):
            return None
        value = C * size * k ** int(2 * gamma)
    else:
        return None
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > 3.33 * MAX_DIGITS:
        return None
    return value


def recovered_count(n: Fraction, d: int, q: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", cap: int | None = None) -> int:
    """k*(n) = #{k ≥ 1 : n ≥ C·D·k^{2γ}}, exactly: with γ = u/v, k^{2γ} ≤ R ⟺ k^{2u} ≤ R^v.

    The integers k^{2u} and R^v are formed only when they are small (γ = 0.7000001 would need
    R^{10^7}); otherwise the comparison is 2u·ln k vs v·ln R in mpmath with guard digits, and an
    exact tie (possible only when k = t^{v/g} and R = t^{2u/g}, g = gcd(2u, v)) is decided on
    integers of the size of R. k* itself has at most MAX_DIGITS digits (else DomainError).
    """
    n = _check_positive(n, "n")
    gamma = _check_positive(gamma, "gamma")
    C = _check_positive(C, "C")
    R = n / (C * _dim(d, q, dim))
    u, v = gamma.numerator, gamma.denominator
    if R < 1:
        return 0
    log_r = math.log(R.numerator) - math.log(R.denominator)  # exact ints: no overflow
    log10_count = log_r / (2 * float(min(gamma, Fraction(10**300)))) / math.log(10)
    if log10_count > MAX_DIGITS:
        raise DomainError("n", fraction_str(n), f"n with k*(n) = (n/(C·D))^(1/(2γ)) of at most "
                          f"{MAX_DIGITS} digits", reason=f"gives k* of about {log10_count:.3g} "
                          f"digits at γ = {fraction_str(gamma)}")
    r_bits = max(R.numerator.bit_length(), R.denominator.bit_length())
    small = v * r_bits <= 10**5

    def ok(k: int) -> bool:
        if small and 2 * u * k.bit_length() <= 2 * 10**5:
            return bool(k ** (2 * u) <= R ** v)
        return _power_leq(k, u, v, R)

    if log10_count < 300:
        guess = max(1, int(math.exp(log_r / (2 * float(gamma)))))
    else:
        guess = 10 ** int(log10_count)
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


def _power_leq(k: int, u: int, v: int, R: Fraction) -> bool:
    """k^{2u} <= R^v without forming either power (see :func:`recovered_count`)."""
    import mpmath

    if k == 1:
        return R >= 1
    digits = 30 + len(str(max(u, v))) + len(str(k.bit_length())) \
        + len(str(max(R.numerator.bit_length(), R.denominator.bit_length())))
    with mpmath.workdps(digits):
        lhs = 2 * u * mpmath.log(k)
        rhs = v * (mpmath.log(R.numerator) - mpmath.log(R.denominator))
        if abs(lhs - rhs) > mpmath.mpf(10) ** (10 - digits) * (abs(lhs) + 1):
            return bool(lhs < rhs)
    # a tie to working precision: equal only if k^a = R^b with a = 2u/g, b = v/g exactly, i.e.
    # k = t^b and R = t^a for an integer t (R^b is an integer power, so R is an integer)
    g = math.gcd(2 * u, v)
    a, b = 2 * u // g, v // g
    if R.denominator != 1:
        return bool(lhs < rhs)
    t = _integer_root(k, b)
    if t is None or a * (t.bit_length() - 1) > R.numerator.bit_length():
        return bool(lhs < rhs)
    return t ** a == R.numerator or bool(lhs < rhs)


def _integer_root(k: int, b: int) -> int | None:
    """The integer t with t^b = k, or None."""
    if b == 1:
        return k
    if b > k.bit_length():
        return None
    t = round(math.exp(math.log(k) / b))
    for c in (t - 1, t, t + 1):
        if c > 0 and c ** b == k:
            return c
    return None


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


#: Ruben's series is refused beyond this many terms (see :func:`ruben_terms`): memory of the
#: coefficient arrays is trivial, but each law evaluates len(a) χ² densities at every node.
MAX_RUBEN_TERMS = 200_000
_RUBEN_TOL = 1e-15


def ruben_terms(w: np.ndarray, m: np.ndarray | None = None, tol: float = _RUBEN_TOL) -> int:
    """A priori number of terms of Ruben's series for Q = Σ w_i χ²_{m_i}, before computing it.

    The coefficients' generating function Π (β/w_i)^{m_i/2} (1 − r_i z)^{−m_i/2}, r_i = 1 − β/w_i,
    has its nearest singularity at 1/ρ, ρ = max |r_i| = (w_max − w_min)/(w_max + w_min) with the
    series' β, so a_j ≈ j^{m*/2 − 1} ρ^j (m* the multiplicity at ρ, <= 3 here) and the tail falls
    below ``tol`` after about (ln(1/tol) + 2 ln(1/(1 − ρ)))/(1 − ρ) terms. Checked against the
    terms actually used (tests): the estimate is within a factor 2 above for spreads 1..10^5.
    """
    w = np.asarray(w, dtype=float)
    rho = float((w.max() - w.min()) / (w.max() + w.min()))
    gap = 1 - rho
    if gap <= 0:
        return MAX_RUBEN_TERMS * 10**6
    return math.ceil((math.log(1 / tol) + 2 * math.log(1 / gap)) / gap) + 1


class _GenChi2:
    """Q = Σ w_i χ²_{m_i} (w_i > 0) by Ruben's series: Q/β is a mixture Σ_j a_j χ²_{M+2j}."""

    def __init__(self, w: np.ndarray, m: np.ndarray, tol: float = _RUBEN_TOL):
        from scipy.special import gammaln

        self.w, self.m = w, m
        self.beta = 2 * w.min() * w.max() / (w.min() + w.max())
        self.M = int(m.sum())
        ratio = 1 - self.beta / w
        gap = 1 - float(np.max(np.abs(ratio)))  # 1 − ρ
        log_a0 = 0.5 * float(np.sum(m * np.log(self.beta / w)))
        # a_r = (1/2r) Σ_{j=1}^r G_j a_{r−j}, G_j = Σ m_i r_i^j: the convolution is one dot
        # product per term (the series needs O(1/(1 − ρ)) terms, so a Python inner loop would be
        # quadratic in them); arrays grow by doubling from the a-priori estimate.
        estimate = ruben_terms(w, m, tol)
        size = min(MAX_RUBEN_TERMS + 2, max(64, estimate))
        a = np.zeros(size)
        G = np.zeros(size)
        a[0] = math.exp(log_a0)
        r = 1
        total = a[0]
        while True:
            if r >= size:
                size *= 2
                a, G = np.resize(a, size), np.resize(G, size)
                a[r:], G[r:] = 0.0, 0.0
            G[r] = float(np.sum(m * ratio ** r))
            a[r] = float(np.dot(G[1:r + 1], a[r - 1::-1])) / (2 * r)
            total += a[r]
            # Stop when the mass is complete, or when the tail bound |a_r|/(1 − ρ) (terms decay
            # like ρ^r) is below tol: the partial sums' rounding (~ r·eps·max|a|) can keep
            # 1 − total above 10·tol for ever when w_max/w_min is large.
            # (A single small term proves nothing — G_1 can vanish — hence r >= the estimate.)
            if (abs(a[r]) < tol and (1 - total < 10 * tol
                                     or (r >= estimate and abs(a[r]) < tol * gap))) \
                    or r > MAX_RUBEN_TERMS:
                break
            r += 1
        self.a = a[:r + 1].copy()
        dof = self.M + 2 * np.arange(len(self.a))
        self._dof = dof
        self._log_norm = -(dof / 2) * math.log(2) - gammaln(dof / 2)

    def _bands(self, x: np.ndarray) -> Any:
        """Blocks of nodes (sorted) with the band of terms j each needs.

        As a function of j, the χ²_{M+2j} density at z = x/β is a Poisson(z/2) probability: it
        is negligible (< 1e-14 relative) outside j ≈ z/2 ± (8√(z/2) + 40). Taking sorted blocks of
        256 nodes, each with the band its nodes need, the work is O(len(a) + Σ √z) per block
        instead of len(x)·len(a) (the series has ~20·(w_max/w_min) terms).
        """
        z = np.asarray(x, dtype=float) / self.beta
        order = np.argsort(z, kind="stable")
        shift = self.M / 2 - 1  # the Poisson index of term j is j + M/2 − 1
        for start in range(0, len(order), 256):
            idx = order[start:start + 256]
            zb = z[idx]
            half = math.ceil(8 * math.sqrt(max(zb[-1], 0.0) / 2) + 40)
            lo = min(len(self.a), max(0, math.floor(zb[0] / 2 - shift) - half))
            hi = min(len(self.a), math.ceil(zb[-1] / 2 - shift) + half + 1)
            yield idx, zb[:, None], lo, max(lo, hi)

    def _log_terms(self, sl: slice, z: np.ndarray) -> np.ndarray:
        """log of the χ²_{dof_j} densities at z (xlogy: 0·log 0 = 0, so χ²_2 is finite at 0)."""
        from scipy.special import xlogy

        out: np.ndarray = self._log_norm[sl] + xlogy(self._dof[sl] / 2 - 1, z) - z / 2
        return out

    def pdf(self, x: np.ndarray) -> np.ndarray:
        """The density; at x = 0 it is +inf when M = 1 (χ²_1), finite when M = 2."""
        out = np.zeros(len(np.atleast_1d(x)))
        with np.errstate(divide="ignore", over="ignore"):
            for idx, z, lo, hi in self._bands(np.atleast_1d(x)):
                out[idx] = np.exp(self._log_terms(slice(lo, hi), z)) @ self.a[lo:hi]
        out /= self.beta
        return out

    def density_at_zero_in_u(self) -> float:
        """lim_{u→0} 2u·pdf(u²): the density of √Q at 0 (non-zero only when M = 1)."""
        if self.M != 1:
            return 0.0
        return float(2 * self.a[0] / math.sqrt(2 * math.pi * self.beta))

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P(Q > x) = Σ_j a_j Q_j(z), Q_j the regularised upper Γ(M/2 + j, z/2). Inside a band
        Q_{j+1} = Q_j + e_j with e_j = 2·(χ²_{M+2j+2} density at z), so one incomplete-Γ call
        per node and the band's densities suffice; terms above the band have Q_j = 1 to 1e-14
        and terms below it Q_j = 0."""
        from scipy.special import gammaincc

        x = np.atleast_1d(x)
        out = np.zeros(len(x))
        # tail[j] = Σ_{i >= j} a_i
        tail = np.concatenate([np.cumsum(self.a[::-1])[::-1], [0.0]])
        for idx, z, lo, hi in self._bands(x):
            if lo == hi:
                out[idx] = tail[hi]
                continue
            q_lo = gammaincc(self._dof[lo] / 2, z[:, 0] / 2)
            value = q_lo * (tail[lo] - tail[hi]) + tail[hi]
            if hi - lo > 1:
                with np.errstate(divide="ignore"):
                    e = 2 * np.exp(self._log_terms(slice(lo + 1, hi), z))
                value += e @ (tail[lo + 1:hi] - tail[hi])
            out[idx] = value
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
    p = base.pdf(x)  # +inf at x = 0 when d1 = 1 (s is a scaled χ²_1)
    t = 1 - 2 * base.sf(x)
    with np.errstate(invalid="ignore"):
        weights = p * jac
    # at u = 0 the weight is (h/3)·lim 2u p(u²): finite for d1 = 1, where p·jac is inf·0
    weights[0] = simpson[0] * (u[1] - u[0]) / 3 * base.density_at_zero_in_u()
    biased = []
    for i in range(len(w)):
        m = np.ones_like(w)
        m[i] = 3
        biased.append(_GenChi2(w, m).pdf(x) * jac)
    # E[T'(s)] = 2∫p²: infinite for d1 = 1 (p ~ x^{−1/2} at 0), finite for d1 >= 2
    slope = float(2 * weights @ p) if np.isfinite(p[0]) else math.inf
    return LabelLaw("rank", t, weights, np.array(biased), 1.0, slope)


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


#: Bound on the work of one model: (d1 + 2) series of R terms, each O(R²/2) multiply-adds,
#: R ≈ 20·(c_max/c_min) (:func:`ruben_terms`). Measured on the 2-core test machine under a load
#: of ~13: d1 = 8, γ = 3 (6.9e8) takes 24-55 s (4 s unloaded), γ = 7/2 (4.2e9) over 200 s;
#: the bound keeps accepted requests (γ <= 5/2 at d1 = 8: 1e8) to seconds even under load.
MAX_RUBEN_WORK = 3e8


def ruben_work(c: _Floats) -> float:
    """Estimated multiply-adds to build the label law of strengths ``c`` (see MAX_RUBEN_WORK)."""
    w = np.asarray(c, dtype=float)
    return (len(w) + 2) * ruben_terms(w) ** 2 / 2


class RecoveryModel:
    """The hierarchical target with strengths λ (normalised to c) and a label transform."""

    def __init__(self, lam: _Floats, transform: str = "rank", _what: str | None = None):
        if transform not in LAWS:
            raise DomainError("transform", transform, " or ".join(LAWS),
                              reason="the finite-δ theory needs a bounded transform")
        lam_arr = np.asarray(lam, dtype=float)
        if lam_arr.ndim != 1 or len(lam_arr) == 0 or not np.all(np.isfinite(lam_arr)) \
                or np.any(lam_arr <= 0):
            raise DomainError("strengths", list(lam), "a non-empty list of positive numbers")
        if len(lam_arr) > MAX_D1:
            raise DomainError("d1", len(lam_arr), f"1 <= d1 <= {MAX_D1}",
                              reason="the finite-δ theory sums Ruben's series per direction")
        spread = float(lam_arr.max() / lam_arr.min())
        check_cost(_what or f"strengths = (spread max/min {spread:.3g})", ruben_work(lam_arr),
                   MAX_RUBEN_WORK, "multiply-adds of Ruben's series",
                   "the series needs about 20·max/min strength terms: lower γ or d1")
        self.c = lam_arr / np.linalg.norm(lam_arr)
        self.transform = transform
        self.law = LAWS[transform](self.c / math.sqrt(2))

    @classmethod
    def power_law(cls, d1: int, gamma: float | Fraction, transform: str = "rank"
                  ) -> RecoveryModel:
        """λ_k = k^{−γ}, k = 1..d1. The cost is checked from γ before any strength is formed
        (k^{−γ} underflows for large γ)."""
        check_integer(d1, "d1", 1, MAX_D1)
        if not gamma > 0:
            raise DomainError("gamma", gamma, "γ > 0")
        g = float(min(Fraction(gamma), Fraction(10**300)))
        what = f"gamma = {fraction_str(Fraction(gamma)) if isinstance(gamma, Fraction) else gamma}"
        what += f", d1 = {d1}"
        if d1 > 1 and g * math.log(d1) > math.log(1e12):  # R ~ 20·d1^γ: refuse in log space
            raise CostError(what, (d1 + 2) * (20 * math.exp(min(g * math.log(d1), 300.0))) ** 2
                            / 2, MAX_RUBEN_WORK, "multiply-adds of Ruben's series",
                            "the series needs about 20·d1^γ terms: lower γ or d1")
        return cls(np.arange(1, d1 + 1, dtype=float) ** (-g), transform, _what=what)

    @property
    def d1(self) -> int:
        return len(self.c)

    def theta(self) -> np.ndarray:
        return self.law.theta()

    def weak_constant(self) -> float:
        """C = E[T²]/(√2 E[T'(s)])²: n_i → C·D/c_i² for weak directions (c_i → 0).

        Undefined for the rank transform at d1 = 1: s is a scaled χ²_1 whose density is not
        square-integrable (p ~ s^{−1/2} at 0), so E[T'(s)] = 2∫p² is infinite (DomainError).
        """
        if not math.isfinite(self.law.slope):
            raise DomainError("d1", self.d1, "d1 >= 2 for the weak-direction constant C",
                              reason="has no weak direction: E[T'(s)] = 2∫p_s² diverges for "
                                     "s = c·χ²_1")
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
