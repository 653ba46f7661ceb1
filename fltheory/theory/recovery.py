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
    parse_rational,
)
from fltheory.results import ShowsTable, Table

_Floats = Sequence[float] | np.ndarray

__all__ = ["DirectionAt", "LabelLaw", "MSELaw", "Overlap", "RecoveryAt", "RecoveryModel",
           "ThresholdRow", "Thresholds", "continuum_count", "depth_rows", "feature_dimension",
           "k_text", "law_a1_squared", "law_exponent", "law_prefactor", "mse_law",
           "power_strength", "recovered_count", "recovery_at", "ruben_terms", "ruben_work",
           "threshold", "threshold_exact", "thresholds"]


# --------------------------------------------------------------------------- argument checks


def _integer(value: Any, param: str, minimum: int | None = 1, maximum: int | None = None) -> int:
    """An integer parameter (bool, float, Fraction refused) within inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        lo = "-inf" if minimum is None else str(minimum)
        hi = "inf" if maximum is None else str(maximum)
        raise DomainError(param, repr(value), f"integers in [{lo}, {hi}]",
                          reason="is not an integer")
    return check_integer(int(value), param, minimum, maximum)


def _rational(value: Any, param: str) -> Fraction:
    """A number given as int, Fraction, finite float or text (``"3/2"``), exactly."""
    if isinstance(value, str):
        return parse_rational(value, param)
    if isinstance(value, bool) or not isinstance(value, int | Fraction | float | np.integer
                                                 | np.floating):
        raise DomainError(param, repr(value), "a rational number (int, Fraction, float or text "
                          "such as 3/2)", reason="is not a number")
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            raise DomainError(param, value, "finite numbers", reason="is not a finite number")
        return Fraction(float(value))
    return Fraction(int(value)) if isinstance(value, np.integer) else Fraction(value)


#: integers of more bits than this are not converted to text (Python refuses beyond 4300 digits)
_TEXT_BITS = 14_000


def _digits(x: int) -> int:
    """The number of decimal digits of |x| (estimated from its bits when it is huge)."""
    x = abs(x)
    return len(str(x)) if x.bit_length() < _TEXT_BITS else int(x.bit_length() * 0.30103) + 1


def _shown(value: Fraction) -> str:
    """A rational for a message: exact, or its order of magnitude when it is too long."""
    value = Fraction(value)
    if max(value.numerator.bit_length(), value.denominator.bit_length()) < _TEXT_BITS:
        return fraction_str(value)
    magnitude = (math.log10(abs(value.numerator)) - math.log10(value.denominator)
                 if value else 0.0)
    return f"{'-' if value < 0 else ''}1e{round(magnitude)} (about)"


def _positive_float(value: Any, param: str, allowed: str | None = None) -> float:
    """A positive number the numeric code takes as a double (refused when one cannot hold it)."""
    from fltheory.exact import to_float

    x = _check_positive(value, param, allowed)
    return to_float(x, param, positive=True)


# --------------------------------------------------------------------------- exact counting


#: Hermite degree q of the first layer (the CLI's --q): D = C(d + q − 1, q).
MAX_Q = 64
#: digits of D and of an exact threshold: beyond, integers are slow to print (Python refuses
#: more than 4300 digits) and no sample size is meaningful.
MAX_DIGITS = 1000


def _check_dq(d: int, q: int) -> None:
    _integer(d, "d", 1)
    _integer(q, "q", 1, MAX_Q)
    # d^q/q! <= D <= d^q·e^q/q!... : refuse on the lower bound, in logs (d may be huge)
    digits = q * math.log10(d) - math.lgamma(q + 1) / math.log(10)
    if digits > MAX_DIGITS:
        shown = d if d.bit_length() < 100 else f"1e{math.log10(d):.0f} (about)"
        raise DomainError("d", shown, f"d with D = C(d + q − 1, q) of at most {MAX_DIGITS} digits",
                          reason=f"gives D of about {digits:.0f} digits at q = {q}")


def _check_positive(value: Any, param: str, allowed: str | None = None) -> Fraction:
    value = _rational(value, param)
    if value <= 0:
        raise DomainError(param, _shown(value), allowed or f"{param} > 0")
    return value


def feature_dimension(d: int, q: int) -> int:
    """D = C(d + q − 1, q), the dimension of the degree-q symmetric Hermite space (exact int).

    ``d`` >= 1 and 1 <= ``q`` <= MAX_Q are integers, with D of at most MAX_DIGITS digits
    (else :class:`~fltheory.exact.DomainError`).

    >>> feature_dimension(100, 2)
    5050
    >>> feature_dimension(10**6, 3)
    166667166667000000
    """
    _check_dq(d, q)
    return math.comb(d + q - 1, q)


def _dim(d: int, q: int, dim: str) -> int:
    if dim == "D":
        return feature_dimension(d, q)
    if dim == "dq":
        _check_dq(d, q)
        return int(d) ** int(q)
    raise DomainError("dim", dim, "D or dq")


def threshold(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
              dps: int = 30, dim: str = "D", strength: Fraction | None = None) -> Any:
    """n_k = C · D / a_k² (mpmath ``mpf`` to ``dps`` significant digits), a_k = k^{−γ} unless
    ``strength`` (a_k itself, > 0) is given.

    ``d``, ``q`` as in :func:`feature_dimension` (``dim = "dq"`` uses d^q for D); ``k`` >= 1;
    γ > 0 and C > 0 rational (int, Fraction, float or text). Any γ is answered: k^{2γ} is
    evaluated with as many extra digits as its exponent 2γ·ln k has, so its leading ``dps``
    digits are right even for γ = 10^100.

    >>> threshold(100, 2, 3, Fraction(3, 2), dps=15)
    mpf('136350.0')
    >>> print(threshold(10, 2, 2, Fraction(1, 3), C=Fraction(1, 2), dps=10))
    43.6535289291255
    """
    import mpmath

    _integer(k, "k", 1)
    check_dps(dps)
    C = _check_positive(C, "C")
    if strength is None:
        gamma = _check_positive(gamma, "gamma")
        extra = _power_guard(k, gamma)
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
    size = float(min(gamma, Fraction(10**300))) * 2 * (math.log(k) + 1)
    digits = math.log10(size) if size > 0 else 0.0  # γ below 1e-308 is 0.0 as a double
    return max(0, math.ceil(digits)) + max(0, _digits(gamma.numerator)
                                           - _digits(gamma.denominator) - 300)


def power_strength(k: int, gamma: Fraction, dps: int = 30) -> Any:
    """a_k = k^{−γ} (mpmath ``mpf``), right to ``dps`` digits for any γ > 0 (guard digits as in
    :func:`threshold`); k >= 1 an integer.

    >>> power_strength(4, Fraction(1, 2), dps=10)
    mpf('0.5')
    >>> import mpmath
    >>> mpmath.nstr(power_strength(2, Fraction(10**6), dps=8), 8)
    '1.0100341e-301030'
    """
    import mpmath

    _integer(k, "k", 1)
    check_dps(dps)
    gamma = _check_positive(gamma, "gamma")
    with mpmath.workdps(dps + 10 + _power_guard(k, gamma)):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +mpmath.power(k, -g)


def threshold_exact(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", strength: Fraction | None = None) -> Fraction | None:
    """n_k = C · D / a_k² as an exact ``Fraction`` when it is one (2γ an integer, or a rational
    strength) of at most MAX_DIGITS digits; None otherwise (then :func:`threshold` gives it in
    mpmath). Arguments as in :func:`threshold`.

    >>> threshold_exact(100, 2, 3, Fraction(3, 2), C=Fraction(1, 2))
    Fraction(68175, 1)
    >>> threshold_exact(100, 2, 3, Fraction(1, 3)) is None
    True
    """
    _integer(k, "k", 1)
    C = _check_positive(C, "C")
    size = _dim(d, q, dim)
    if strength is not None:
        strength = _check_positive(strength, "strengths")
        value = C * size / (strength * strength)
    elif ((gamma := _check_positive(gamma, "gamma")) * 2).denominator == 1:
        # the size of k^{2γ} is known before it is computed: 2γ·log10 k digits
        if k > 1 and 2 * gamma > Fraction(MAX_DIGITS) / Fraction(math.log10(k)):
            return None
        value = C * size * k ** int(2 * gamma)
    else:
        return None
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > 3.33 * MAX_DIGITS:
        return None
    return value


@dataclass(frozen=True)
class ThresholdRow:
    """One direction of :func:`thresholds`: its strength a_k (mpmath ``mpf``, or the given
    ``Fraction``), n_k in mpmath at the table's ``dps`` and n_k exactly when rational."""

    k: int
    strength: Any
    value: Any
    exact: Fraction | None


@dataclass(frozen=True)
class Thresholds(ShowsTable):
    """n_k = C·D/a_k² for a list of directions k (see :func:`thresholds`)."""

    d: int
    q: int
    dim: str
    size: int
    C: Fraction
    dps: int
    rows: list[ThresholdRow]

    def table(self) -> Table:
        import mpmath

        digits = min(self.dps, 15)
        with mpmath.workdps(self.dps):
            rows = [[str(r.k), fraction_str(r.strength) if isinstance(r.strength, Fraction)
                     else mpmath.nstr(r.strength, digits), mpmath.nstr(r.value, digits),
                     mpmath.nstr(mpmath.log10(r.value), 6)] for r in self.rows]
        label = "D" if self.dim == "D" else f"d^{self.q}"
        return Table(columns=["k", "a_k", "n_k", "log10 n_k"], rows=rows,
                     caption=f"Recovery thresholds n_k = C {label}/a_k^2 (d = {self.d}, "
                             f"q = {self.q})",
                     latex_columns=["$k$", "$a_k$", "$n_k$", r"$\log_{10} n_k$"],
                     label="tab:fltheory-threshold", align="rrrr")


def thresholds(d: int, q: int, ks: Sequence[int], gamma: Fraction, C: Fraction = Fraction(1),
               dps: int = 30, dim: str = "D",
               strengths: Sequence[Fraction] | None = None) -> Thresholds:
    """The thresholds n_k = C·D/a_k² of :func:`threshold` for every k in ``ks`` (at most
    MAX_THRESHOLD_ROWS of them), exact where :func:`threshold_exact` can be; with
    ``strengths`` = (a_1, a_2, ...) every k must be <= len(strengths).

    >>> t = thresholds(100, 2, [1, 2], Fraction(1), dps=10)
    >>> [(r.k, r.exact) for r in t.rows]
    [(1, Fraction(5050, 1)), (2, Fraction(20200, 1))]
    >>> print(t.table().rows[1])
    ['2', '0.5', '20200.0', '4.30535']
    """
    if isinstance(ks, str | bytes) or not isinstance(ks, Sequence) or not ks:
        raise DomainError("k", repr(ks), "a non-empty list of integers >= 1")
    ks = [_integer(k, "k", 1) for k in ks]
    check_cost(f"k = {k_text(ks)}", len(ks), MAX_THRESHOLD_ROWS, "rows",
               "ask for fewer directions")
    check_dps(dps)
    if strengths is not None:
        allowed = "positive numbers a_1,a_2,…"
        if isinstance(strengths, str | bytes) or not isinstance(strengths, Sequence):
            raise DomainError("strengths", repr(strengths), allowed)
        strengths = [_rational(a, "strengths") for a in strengths]
        if not strengths or min(strengths) <= 0:
            raise DomainError("strengths", ",".join(map(_shown, strengths)), allowed)
        if max(ks) > len(strengths):
            raise DomainError("k", max(ks), f"k <= {len(strengths)} (the number of strengths)")
    size = _dim(d, q, dim)
    rows = []
    for k in ks:
        a = None if strengths is None else strengths[k - 1]
        rows.append(ThresholdRow(k, power_strength(k, gamma, dps) if a is None else a,
                                 threshold(d, q, k, gamma, C, dps, dim, a),
                                 threshold_exact(d, q, k, gamma, C, dim, a)))
    return Thresholds(d, q, dim, size, _rational(C, "C"), dps, rows)


def k_text(ks: Sequence[int]) -> str:
    """A list of directions as the CLI writes it: ``a..b`` when consecutive, else ``a,b,c``.

    >>> k_text([1, 2, 3]), k_text([2, 5])
    ('1..3', '2,5')
    """
    if len(ks) > 1 and list(ks) == list(range(ks[0], ks[0] + len(ks))):
        return f"{ks[0]}..{ks[-1]}"
    return ",".join(map(str, ks[:20])) + (",…" if len(ks) > 20 else "")


#: rows of :func:`thresholds`: each is a few mpmath evaluations (~0.1 ms) plus a printed line,
#: so 10^4 rows ≈ 1 s
MAX_THRESHOLD_ROWS = 10_000


def recovered_count(n: Fraction, d: int, q: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", cap: int | None = None) -> int:
    """k*(n) = #{k ≥ 1 : n ≥ C·D·k^{2γ}} (an exact int, at most ``cap`` when given): with
    γ = u/v, k^{2γ} ≤ R ⟺ k^{2u} ≤ R^v, R = n/(C·D).

    n, γ, C > 0 rational; ``d``, ``q``, ``dim`` as in :func:`threshold`. The integers k^{2u}
    and R^v are formed only when they are small (γ = 0.7000001 would need R^{10^7}); otherwise
    the comparison is 2u·ln k vs v·ln R in mpmath with guard digits, and an exact tie (possible
    only when k = t^{v/g} and R = t^{2u/g}, g = gcd(2u, v)) is decided on integers of the size
    of R. k* itself has at most MAX_DIGITS digits (else DomainError).

    >>> recovered_count(Fraction(10**6), 100, 2, Fraction(1))
    14
    >>> recovered_count(Fraction(5050 * 27), 100, 2, Fraction(3, 2))  # n = D·3^3: k = 3 counts
    3
    """
    n = _check_positive(n, "n")
    gamma = _check_positive(gamma, "gamma")
    C = _check_positive(C, "C")
    if cap is not None:
        cap = _integer(cap, "cap", 0)
    R = n / (C * _dim(d, q, dim))
    u, v = gamma.numerator, gamma.denominator
    if R < 1:
        return 0
    log_r = math.log(R.numerator) - math.log(R.denominator)  # exact ints: no overflow
    g = float(min(gamma, Fraction(10**300)))  # 0.0 for γ below 1e-308
    ratio = log_r / (2 * g) if g > 0 else (math.inf if log_r > 0 else 0.0)
    log10_count = ratio / math.log(10)
    if log10_count > MAX_DIGITS:
        raise DomainError("n", _shown(n), f"n with k*(n) = (n/(C·D))^(1/(2γ)) of at most "
                          f"{MAX_DIGITS} digits", reason=f"gives k* of about {log10_count:.3g} "
                          f"digits at γ = {_shown(gamma)}")
    r_bits = max(R.numerator.bit_length(), R.denominator.bit_length())
    small = v * r_bits <= 10**5

    def ok(k: int) -> bool:
        if small and 2 * u * k.bit_length() <= 2 * 10**5:
            return bool(k ** (2 * u) <= R ** v)
        return _power_leq(k, u, v, R)

    guess = max(1, int(math.exp(ratio))) if log10_count < 300 else 10 ** int(log10_count)
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
    digits = 30 + _digits(max(u, v)) + _digits(k.bit_length()) \
        + _digits(max(R.numerator.bit_length(), R.denominator.bit_length()))
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
    """The continuum number of recovered directions (n/(C·D))^{1/(2γ)} (mpmath ``mpf`` to
    ``dps`` digits): k*(n) of :func:`recovered_count` without the floor. Arguments as there.

    >>> print(continuum_count(Fraction(10**6), 100, 2, Fraction(1), dps=10))
    14.0719508946058
    """
    import mpmath

    n = _check_positive(n, "n")
    gamma = _check_positive(gamma, "gamma")
    C = _check_positive(C, "C")
    check_dps(dps)
    size = _dim(d, q, dim)
    with mpmath.workdps(dps + 10):
        R = mpmath.mpf(n.numerator) / n.denominator / (
            mpmath.mpf(C.numerator) / C.denominator * size)
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +mpmath.power(R, 1 / (2 * g))


#: pairs (d, q) of :func:`depth_rows` (each two binomials of at most MAX_DIGITS digits)
MAX_DEPTH_ROWS = 10_000


def depth_rows(ds: Sequence[int], qs: Sequence[int]) -> list[dict[str, int]]:
    """Sample-size scales of the hierarchical method, D(d, q) = C(d+q−1, q) ≈ d^q/q!, and of a
    shallow kernel on the degree-2q target, D(d, 2q) ≈ d^{2q}/(2q)!, as exact ints: one dict
    {d, q, hier, kernel} per (q, d), q outer. Every d >= 1, 1 <= q <= MAX_Q/2.

    >>> depth_rows([10], [2])
    [{'d': 10, 'q': 2, 'hier': 55, 'kernel': 715}]
    """
    for name, values in (("d", ds), ("q", qs)):
        if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
            raise DomainError(name, repr(values), "a non-empty list of integers >= 1")
    check_cost(f"d, q = {len(ds)} × {len(qs)} pairs", len(ds) * len(qs), MAX_DEPTH_ROWS, "rows",
               "ask for fewer pairs")
    for q in qs:
        _integer(q, "q", 1, MAX_Q // 2)
    return [{"d": d, "q": q, "hier": feature_dimension(d, q),
             "kernel": feature_dimension(d, 2 * q)} for q in qs for d in ds]


# --------------------------------------------------------------------------- generalised χ²


def _weights(values: Any, param: str) -> np.ndarray:
    """A non-empty 1-D array of positive finite numbers (strengths or χ² weights)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        arr = np.array([math.nan])
    if arr.ndim != 1 or len(arr) == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        shown = list(values) if isinstance(values, Sequence | np.ndarray) else values
        raise DomainError(param, shown, "a non-empty list of positive numbers")
    return arr


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

    ``w``: a non-empty list of positive finite weights; ``m`` is not needed for the estimate;
    0 < ``tol`` < 1. Returns an int.

    >>> ruben_terms([1.0, 1.0]), ruben_terms([1.0, 0.5])
    (36, 55)
    """
    w = _weights(w, "w")
    if not isinstance(tol, int | float) or isinstance(tol, bool) or not 0 < tol < 1:
        raise DomainError("tol", tol, "0 < tol < 1")
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
    (``biased[i]``: weights of E[h_i² ·]); sup of the support ``tau``. Built by
    :class:`RecoveryModel` (its ``law``), not by hand."""

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
    """The Lu–Li answer for one direction at δ: ρ² = ⟨Â, A_i⟩² (0 below threshold), the
    eigenvalue of the attached outlier (None below threshold) and the bulk edge ψ(λ̄)."""

    rho2: float
    outlier: float | None  # eigenvalue of the attached outlier (None below threshold)
    edge: float  # bulk edge ψ(λ̄)


#: Bound on the work of one model: (d1 + 2) series of R terms, each O(R²/2) multiply-adds,
#: R ≈ 20·(c_max/c_min) (:func:`ruben_terms`). Measured on the 2-core test machine under a load
#: of ~13: d1 = 8, γ = 3 (6.9e8) takes 24-55 s (4 s unloaded), γ = 7/2 (4.2e9) over 200 s;
#: the bound keeps accepted requests (γ <= 5/2 at d1 = 8: 1e8) to seconds even under load.
MAX_RUBEN_WORK = 3e8


def ruben_work(c: _Floats) -> float:
    """Estimated multiply-adds (a float) to build the label law of strengths ``c`` (a non-empty
    list of positive numbers): (d1 + 2)·R²/2 with R = :func:`ruben_terms` (see MAX_RUBEN_WORK).

    >>> ruben_work([1.0, 0.5])
    6050.0
    """
    w = _weights(c, "strengths")
    return (len(w) + 2) * ruben_terms(w) ** 2 / 2


def _deltas(deltas: Any) -> np.ndarray:
    """A list of δ = n/D > 0 as doubles."""
    if isinstance(deltas, str | bytes) or not isinstance(deltas, Sequence | np.ndarray):
        raise DomainError("deltas", repr(deltas), "a list of numbers δ > 0")
    return np.array([_positive_float(x, "delta", "δ > 0") for x in deltas], dtype=float)


class RecoveryModel:
    """The hierarchical target with strengths λ (a non-empty list of at most MAX_D1 positive
    numbers, normalised to c = λ/‖λ‖) and a bounded label transform (``rank`` or ``sign``).

    Its label law (Ruben's series) is built on construction, refused beyond MAX_RUBEN_WORK.
    Methods (doubles, numpy arrays): ``theta()`` θ_i = E[T(h_i² − 1)], ``bbp_thresholds()``
    δ_i = E[T²]/θ_i², ``weak_constant()`` C, ``overlap(i, δ)`` the Lu–Li :class:`Overlap`,
    ``overlaps(δs)``, ``mse(δs)`` = 1 − Σ c_i² ρ_i⁴, ``crossing(i)`` δ at ρ_i² = 1/2.

    >>> m = RecoveryModel.power_law(2, Fraction(1))
    >>> m.c.round(4).tolist(), m.bbp_thresholds().round(3).tolist()
    ([0.8944, 0.4472], [1.025, 2.07])
    >>> round(m.overlap(0, 10.0).rho2, 4), round(float(m.mse([10.0])[0]), 4)
    (0.8346, 0.3368)
    """

    def __init__(self, lam: _Floats, transform: str = "rank", _what: str | None = None):
        if not isinstance(transform, str) or transform not in LAWS:
            raise DomainError("transform", transform, " or ".join(LAWS),
                              reason="the finite-δ theory needs a bounded transform")
        lam_arr = _weights(lam, "strengths")
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
        """λ_k = k^{−γ}, k = 1..d1 (1 <= d1 <= MAX_D1, γ > 0 exact or float; the strengths are
        doubles k^{−float(γ)}). The cost is checked from γ before any strength is formed
        (k^{−γ} underflows for large γ)."""
        _integer(d1, "d1", 1, MAX_D1)
        shown = gamma if isinstance(gamma, float | np.floating) else None
        gamma = _rational(gamma, "gamma")
        if not gamma > 0:
            raise DomainError("gamma", _shown(gamma), "γ > 0")
        g = float(min(gamma, Fraction(10**300)))
        what = f"gamma = {_shown(gamma) if shown is None else shown}, d1 = {d1}"
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

    def _index(self, i: int) -> int:
        return _integer(i, "i", 0, self.d1 - 1)

    def overlap(self, i: int, delta: float) -> Overlap:
        """Lu–Li ρ_i² at δ = n/D > 0 (i from 0 to d1 − 1)."""
        from scipy.optimize import brentq

        i = self._index(i)
        delta = _positive_float(delta, "delta", "δ > 0")
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
        """len(deltas) × d1 array of Lu–Li ρ_i² (every δ > 0)."""
        return np.array([[self.overlap(i, dl).rho2 for i in range(self.d1)]
                         for dl in _deltas(deltas)])

    def bbp_overlaps(self, deltas: _Floats) -> np.ndarray:
        """len(deltas) × d1 array of the large-δ forms max(0, 1 − δ_i/δ)."""
        x = np.outer(_deltas(deltas), 1 / self.bbp_thresholds())
        return np.clip(1 - 1 / x, 0.0, None)

    def mse(self, deltas: _Floats, bbp: bool = False) -> np.ndarray:
        """1 − Σ c_i² ρ_i⁴ (Var y = 1) at each δ, Lu–Li overlaps (or their large-δ forms)."""
        rho2 = self.bbp_overlaps(deltas) if bbp else self.overlaps(deltas)
        out: np.ndarray = 1 - (rho2 ** 2) @ (self.c ** 2)
        return out

    def crossing(self, i: int, level: float = 0.5) -> float:
        """δ at which the Lu–Li ρ_i² reaches ``level`` (0 < level < 1)."""
        from scipy.optimize import brentq

        i = self._index(i)
        if isinstance(level, bool) or not isinstance(level, int | float | Fraction) \
                or not 0 < level < 1:
            raise DomainError("level", level, "0 < level < 1")
        level = float(level)
        lo = hi = float(self.bbp_thresholds()[i])
        while self.overlap(i, lo).rho2 >= level:
            lo /= 2
        while self.overlap(i, hi).rho2 < level:
            hi *= 2
        return float(brentq(lambda z: self.overlap(i, z).rho2 - level, lo, hi, rtol=1e-10))


# --------------------------------------------------------------------------- the law


def law_exponent(gamma: Fraction) -> Fraction:
    """The exponent −1 + 1/(2γ) of the d1 = ∞ MSE law (an exact ``Fraction``), defined for
    γ > 1/2 (else DomainError: Σ k^{−2γ} diverges).

    >>> law_exponent(Fraction(3, 2))
    Fraction(-2, 3)
    """
    gamma = _rational(gamma, "gamma")
    if gamma <= Fraction(1, 2):
        raise DomainError("gamma", _shown(gamma), "γ > 1/2",
                          reason="for γ <= 1/2 Σ k^{-2γ} diverges: the target has infinite "
                                 "variance and the MSE law does not exist")
    return -1 + 1 / (2 * gamma)


def law_a1_squared(gamma: Fraction, C: float, dps: int = 30) -> Any:
    """a_1² = c_1²/C in the d1 = ∞ normalisation c_k² = k^{−2γ}/ζ(2γ): 1/(ζ(2γ)·C) (mpmath
    ``mpf`` at ``dps`` + 10 digits); γ > 1/2, C > 0 the weak-direction constant (a double).

    >>> import mpmath
    >>> mpmath.nstr(law_a1_squared(Fraction(1), 1.0, dps=10), 10)  # 6/π²
    '0.6079271019'
    """
    import mpmath

    gamma = _rational(gamma, "gamma")
    law_exponent(gamma)
    C = _positive_float(C, "C")
    check_dps(dps)
    with mpmath.workdps(dps + 10):
        return +(1 / (mpmath.zeta(2 * mpmath.mpf(gamma.numerator) / gamma.denominator)
                      * mpmath.mpf(C)))


def _a1_squared(a1_squared: Any) -> Any:
    """a_1² > 0: an mpmath number kept as it is, or a rational (mpmath at the working dps)."""
    import mpmath

    if isinstance(a1_squared, mpmath.mpf):
        if not (mpmath.isfinite(a1_squared) and a1_squared > 0):
            raise DomainError("a1", a1_squared, "a_1² > 0")
        return a1_squared
    a1 = _check_positive(a1_squared, "a1", "a_1² > 0")
    return mpmath.mpf(a1.numerator) / a1.denominator


def law_prefactor(gamma: Fraction, a1_squared: Any, dps: int = 30) -> Any:
    """P = 8γ²/((4γ² − 1) ζ(2γ)) · (a_1²)^{−1 + 1/(2γ)} (mpmath ``mpf`` at ``dps`` + 10 digits),
    see the module docstring; γ > 1/2, a_1² > 0 (rational or mpmath).

    >>> import mpmath
    >>> mpmath.nstr(law_prefactor(Fraction(1), 1, dps=10), 10)  # 16/π²
    '1.621138938'
    """
    import mpmath

    gamma = _rational(gamma, "gamma")
    law_exponent(gamma)
    check_dps(dps)
    with mpmath.workdps(dps + 10):
        a1_squared = _a1_squared(a1_squared)
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +(8 * g ** 2 / ((4 * g ** 2 - 1) * mpmath.zeta(2 * g))
                 * mpmath.power(a1_squared, -1 + 1 / (2 * g)))


@dataclass(frozen=True)
class MSELaw:
    """The d1 = ∞ law MSE ≈ P·δ^e, e = −1 + 1/(2γ) (exact), P an mpmath ``mpf`` (see
    :func:`mse_law`)."""

    gamma: Fraction
    a1_squared: Any
    exponent: Fraction
    prefactor: Any
    dps: int

    def value(self, delta: float) -> Any:
        """P·δ^e at δ = n/D > 0 (mpmath at ``dps``; the exponent as a double)."""
        import mpmath

        delta = _positive_float(delta, "delta", "δ > 0")
        with mpmath.workdps(self.dps):
            return self.prefactor * mpmath.power(mpmath.mpf(delta), float(self.exponent))

    def prefactor_formula(self) -> str:
        """P as written: 8·γ²/((4·γ² − 1)·ζ(2γ))·(a_1²)^e, with the given numbers."""
        g = fraction_str(self.gamma)
        a1 = (fraction_str(self.a1_squared) if isinstance(self.a1_squared, int | Fraction)
              else str(self.a1_squared))
        return (f"8·({g})²/((4·({g})² − 1)·ζ({fraction_str(2 * self.gamma)}))·({a1})^"
                f"({fraction_str(self.exponent)})")

    def _repr_latex_(self) -> str:
        import mpmath

        from fltheory.render.latex import latex_fraction

        return (rf"$\mathrm{{MSE}} \approx {mpmath.nstr(self.prefactor, min(self.dps, 15))}"
                rf"\,\delta^{{{latex_fraction(self.exponent)}}}$")


def mse_law(gamma: Fraction, a1_squared: Any = 1, dps: int = 30) -> MSELaw:
    """The d1 = ∞ MSE law MSE ≈ P·δ^{−1 + 1/(2γ)}, δ = n/D, P = :func:`law_prefactor`
    (γ > 1/2 rational; a_1² > 0, rational or mpmath, in the weak-direction normalisation
    a_k² = a_1² k^{−2γ}; P to ``dps`` digits).

    >>> law = mse_law(Fraction(3, 2), dps=15)
    >>> law.exponent, str(law.prefactor)[:12]
    (Fraction(-2, 3), '1.8717915883')
    >>> law.prefactor_formula()
    '8·(3/2)²/((4·(3/2)² − 1)·ζ(3))·(1)^(-2/3)'
    """
    import mpmath

    check_dps(dps)
    if not isinstance(a1_squared, mpmath.mpf):
        a1_squared = _check_positive(a1_squared, "a1", "a_1² > 0")
    expo = law_exponent(gamma)
    gamma = _rational(gamma, "gamma")
    with mpmath.workdps(dps):
        a1 = _a1_squared(a1_squared)
        P = law_prefactor(gamma, a1, dps)
    return MSELaw(gamma, a1_squared, expo, P, dps)


# --------------------------------------------------------------------------- at a sample size


@dataclass(frozen=True)
class DirectionAt:
    """Direction k at δ: strength c_k, θ_k, the large-δ threshold n_k = δ_k·D, the Lu–Li ρ_k²,
    its large-δ form, the attached outlier eigenvalue (None below threshold), the bulk edge."""

    k: int
    c: float
    theta: float
    n_threshold_bbp: float
    rho2: float
    rho2_bbp: float
    outlier: float | None
    bulk_edge: float


@dataclass(frozen=True)
class RecoveryAt(ShowsTable):
    """What :func:`recovery_at` computes: δ, the per-direction overlaps, the counts recovered,
    the finite-d1 MSE and (d1 >= 2, γ > 1/2) the d1 = ∞ law with this model's constant C."""

    d: int
    q: int
    dim: str
    size: int
    n: Fraction
    delta: float
    gamma: Fraction
    d1: int
    transform: str
    C: float | None
    no_C: str | None  # why C is undefined (d1 = 1)
    directions: list[DirectionAt]
    recovered_luli: int
    recovered_scaling: int | None
    mse: float
    law: MSELaw | None
    law_mse: Any  # P·δ^e (mpmath), None without a law
    continuum: Any  # (n/(C·D))^{1/(2γ)} (mpmath), None without a law

    def table(self) -> Table:
        rows = [[str(r.k), f"{r.c:.4f}", f"{r.theta:.4f}", f"{r.n_threshold_bbp:.4g}",
                 f"{r.rho2:.4f}", f"{r.rho2_bbp:.4f}",
                 "-" if r.outlier is None else f"{r.outlier:.4f}"] for r in self.directions]
        return Table(columns=["k", "c_k", "θ_k", "n_k (BBP)", "ρ² Lu–Li", "ρ² BBP", "outlier"],
                     rows=rows, caption=f"Recovery at n = {fraction_str(self.n)} "
                                        f"(δ = {self.delta:.4g})",
                     latex_columns=["$k$", "$c_k$", r"$\theta_k$", "$n_k$", r"$\rho_k^2$",
                                    r"$\rho_k^2$ (BBP)", "outlier"],
                     label="tab:fltheory-recovery-query", align="rrrrrrr")


def _delta(n: Fraction, size: int, dim: str) -> float:
    """δ = n/D as a double, refused (naming n) when a double cannot hold it."""
    from fltheory.exact import to_float

    try:
        return to_float(n / size, "delta", positive=True)
    except DomainError:
        magnitude = math.log10(n.numerator) - math.log10(n.denominator)
        shown = fraction_str(n) if max(_digits(n.numerator), _digits(n.denominator)) < 30 \
            else f"1e{magnitude:.0f} (about)"
        size_text = str(size) if size.bit_length() < 100 else f"1e{math.log10(size):.0f}"
        raise DomainError("n", shown, f"n with δ = n/{dim} in [1e-300, 1e300] ({dim} = "
                                      f"{size_text})",
                          reason="is beyond double precision") from None


def _check_finite(*values: float) -> None:
    """Every number returned is finite: a NaN or inf here is a bug, never an answer."""
    if not all(math.isfinite(v) for v in values):
        raise RuntimeError("non-finite value in the recovery computation (a bug: please report)")


def recovery_at(d: int, q: int, gamma: Fraction, n: Fraction, d1: int = 8,
                transform: str = "rank", dim: str = "D", dps: int = 30) -> RecoveryAt:
    """Sequential recovery at sample size n > 0 (δ = n/D a double): the power-law model
    :meth:`RecoveryModel.power_law` (1 <= d1 <= MAX_D1, γ > 0, ``rank`` or ``sign``), its Lu–Li
    overlaps and outliers, the number of outliers, the scaling count :func:`recovered_count`
    with the model's weak-direction constant C (rounded to a rational of denominator <= 10^12),
    the MSE 1 − Σ c_k² ρ_k⁴ and, for d1 >= 2 and γ > 1/2, the law :func:`mse_law` at δ with the
    continuum count (mpmath at ``dps``).

    >>> r = recovery_at(100, 2, Fraction(1), Fraction(10**5), d1=2)
    >>> round(r.delta, 4), r.recovered_luli, r.recovered_scaling, round(r.mse, 4)
    (19.802, 2, 11, 0.1733)
    """
    import mpmath

    check_dps(dps)
    d1 = _integer(d1, "d1", 1, MAX_D1)
    n = _check_positive(n, "n")
    size = _dim(d, q, dim)
    delta = _delta(n, size, dim)
    model = RecoveryModel.power_law(d1, gamma, transform)
    gamma = _rational(gamma, "gamma")
    try:
        C: float | None = model.weak_constant()
        no_C = None
    except DomainError as exc:  # d1 = 1, rank: no weak direction, so no C, scaling count, law
        C, no_C = None, str(exc.reason)
    C_frac = None if C is None else Fraction(C).limit_denominator(10**12)
    theta, bbp = model.theta(), model.bbp_thresholds()
    rows = []
    for i in range(d1):
        ov = model.overlap(i, delta)
        rows.append(DirectionAt(i + 1, float(model.c[i]), float(theta[i]), float(bbp[i] * size),
                                ov.rho2, max(0.0, 1 - bbp[i] / delta), ov.outlier, ov.edge))
    k_scaling = None if C_frac is None else recovered_count(n, d, q, gamma, C_frac, dim)
    mse = float(model.mse([delta])[0])
    _check_finite(mse, *(r.rho2 for r in rows), *(r.theta for r in rows))
    law = law_mse = cont = None
    if C is not None and C_frac is not None and gamma > Fraction(1, 2):
        with mpmath.workdps(dps):
            law = MSELaw(gamma, None, law_exponent(gamma),
                         law_prefactor(gamma, law_a1_squared(gamma, C, dps), dps), dps)
            law_mse = law.value(delta)
            cont = continuum_count(n, d, q, gamma, C_frac, dim, dps)
    return RecoveryAt(d, q, dim, size, n, delta, gamma, d1, transform, C, no_C, rows,
                      sum(1 for r in rows if r.rho2 > 0), k_scaling, mse, law, law_mse, cont)
