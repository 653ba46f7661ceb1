r"""Exact counting for sequential recovery (:mod:`fltheory.papers.recovery.theory`): the feature
dimension D = C(d+q−1, q), the thresholds n_k = C·D/a_k² (exact rationals when they are, else
mpmath with guard digits for any γ), the recovered count k*(n) = #{k : n >= C·D·k^{2γ}} decided
exactly, its continuum version and the depth table D(d, q) against D(d, 2q)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.args import read_count, read_dps, read_exact
from fltheory.exact import DomainError, check_cost, fraction_str, short_rational, to_float
from fltheory.papers.recovery.params import (
    MAX_DIGITS,
    MAX_Q,
    Features,
    Strengths,
    ThresholdQuery,
    k_text,
)
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["ThresholdRow", "Thresholds", "continuum_count", "depth_rows", "dimension",
           "feature_dimension", "k_text", "power_strength", "recovered_count", "sample_ratio",
           "strength_norm2", "threshold", "threshold_exact", "threshold_table", "thresholds"]

#: integers of more bits than this are not converted to text (Python refuses beyond 4300 digits)
_TEXT_BITS = 14_000


def _digits(x: int) -> int:
    """The number of decimal digits of |x| (estimated from its bits when it is huge)."""
    x = abs(x)
    return len(str(x)) if x.bit_length() < _TEXT_BITS else int(x.bit_length() * 0.30103) + 1


def feature_dimension(d: int, q: int) -> int:
    """D = C(d + q − 1, q), the dimension of the degree-q symmetric Hermite space (exact int).

    ``d`` >= 1 and 1 <= ``q`` <= MAX_Q are integers, with D of at most MAX_DIGITS digits
    (else :class:`~fltheory.exact.DomainError`).

    >>> feature_dimension(100, 2)
    5050
    >>> feature_dimension(10**6, 3)
    166667166667000000
    """
    return dimension(Features(d, q))


def dimension(features: Features) -> int:
    """The dimension the thresholds use (exact int): D = C(d + q − 1, q), or d^q when
    ``features.dim`` is ``dq``.

    >>> dimension(Features(100)), dimension(Features(100, 2, "dq"))
    (5050, 10000)
    """
    d, q = features.d, features.q
    if features.dim == "dq":
        return int(d) ** int(q)
    return math.comb(d + q - 1, q)


def sample_ratio(n: Fraction, size: int, dim: str) -> float:
    """δ = n/D as a double (``size`` = D, ``dim`` its name in the message), refused (naming n)
    when a double cannot hold it.

    >>> sample_ratio(Fraction(10**6), 5050, "D")
    198.01980198019803
    >>> sample_ratio(Fraction(10**400), 5050, "D")
    Traceback (most recent call last):
    fltheory.exact.DomainError: n = 1e400 (about) is beyond double precision; ...
    """
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


#: d1 up to which ‖λ‖² = Σ_{i<=d1} i^{−2γ} is summed exactly (2γ an integer)
_EXACT_NORM_TERMS = 2000


def strength_norm2(gamma: Fraction, d1: int | float | None = math.inf, dps: int = 30
                   ) -> tuple[Fraction | None, Any]:
    """‖λ‖² = Σ_{i<=d1} i^{−2γ} for the model's strengths λ_i = i^{−γ}, whose normalised
    strengths are c_k = λ_k/‖λ‖ (Var y = 1): the generalised harmonic number H_{d1}(2γ), and
    ζ(2γ) at d1 = ∞ (``math.inf``; needs γ > 1/2). Returns (the exact ``Fraction`` or None,
    the value as mpmath ``mpf`` at ``dps`` + 10 digits); d1 = None gives (1, 1): the strengths
    k^{−γ} taken as they are (no model; the caller's C then absorbs ‖λ‖²).

    >>> strength_norm2(Fraction(1), 3)[0]
    Fraction(49, 36)
    >>> import mpmath; mpmath.nstr(strength_norm2(Fraction(1))[1], 12)  # π²/6
    '1.64493406685'
    """
    s = Strengths(gamma, d1)
    return _norm2(s.gamma, s.d1, read_dps(dps))


def _norm2(gamma: Fraction, d1: int | float | None, dps: int) -> tuple[Fraction | None, Any]:
    """:func:`strength_norm2` on checked arguments, at any working precision ``dps``."""
    import mpmath

    if d1 is None:
        return Fraction(1), mpmath.mpf(1)
    if d1 == math.inf and gamma <= Fraction(1, 2):
        raise DomainError("gamma", short_rational(gamma), "γ > 1/2 at d1 = ∞ (or give d1)",
                          reason="makes ‖λ‖² = Σ k^(−2γ) = ζ(2γ) diverge")
    s = 2 * gamma
    with mpmath.workdps(dps + 10):
        if d1 != math.inf and s.denominator == 1 and d1 <= _EXACT_NORM_TERMS \
                and s * math.log10(d1 + 1) <= MAX_DIGITS:
            exact = sum((Fraction(1, i ** int(s)) for i in range(1, int(d1) + 1)), Fraction(0))
            return exact, mpmath.mpf(exact.numerator) / exact.denominator
        return None, 1 + _norm2_excess(gamma, d1, dps)


def _norm2_excess(gamma: Fraction, d1: int | float, dps: int) -> Any:
    """‖λ‖² − 1 = Σ_{2<=i<=d1} i^{−2γ} (mpmath, relative precision ``dps`` even when it is
    below 10^{−dps}, as for huge γ, where it is 2^{−2γ}(1 + (2/3)^{2γ} + …))."""
    import mpmath

    s = 2 * gamma
    with mpmath.workdps(dps + 10):
        g2 = mpmath.mpf(s.numerator) / s.denominator
        if d1 < 2:
            return mpmath.mpf(0)
        if g2 > 6 * (dps + 10):  # (2/3)^s < 10^{-dps-10}: the first two terms suffice
            return mpmath.power(2, -g2) + (mpmath.power(3, -g2) if d1 >= 3 else 0)
        if d1 <= _EXACT_NORM_TERMS:
            return mpmath.fsum(mpmath.power(i, -g2) for i in range(2, int(d1) + 1))
        if d1 == math.inf:
            return mpmath.zeta(g2, 2)
        if s == 1:
            return mpmath.harmonic(d1) - 1
        return mpmath.zeta(g2, 2) - mpmath.zeta(g2, int(d1) + 1)


def threshold(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
              dps: int = 30, dim: str = "D", strength: Fraction | None = None,
              d1: int | float | None = None) -> Any:
    """n_k = C · D / c_k² (mpmath ``mpf`` to ``dps`` significant digits) with the model's
    normalised strength c_k = λ_k/‖λ‖, λ_k = k^{−γ}: n_k = C·D·‖λ‖²·k^{2γ}, ‖λ‖² of
    :func:`strength_norm2` at ``d1`` (math.inf: ζ(2γ); an integer >= k: H_{d1}(2γ); None: 1,
    the strength k^{−γ} taken as normalised). With ``strength`` (c_k itself, > 0), n_k = C·D/c_k².

    ``d``, ``q`` as in :func:`feature_dimension` (``dim = "dq"`` uses d^q for D); ``k`` >= 1;
    γ > 0 and C > 0 rational (int, Fraction, float or text). Any γ is answered: k^{2γ} is
    evaluated with as many extra digits as its exponent 2γ·ln k has, so its leading ``dps``
    digits are right even for γ = 10^100.

    >>> threshold(100, 2, 3, Fraction(3, 2), dps=15)
    mpf('136350.0')
    >>> print(threshold(10, 2, 2, Fraction(1, 3), C=Fraction(1, 2), dps=10))
    43.6535289291255
    >>> threshold(100, 2, 2, Fraction(1), dps=15, d1=2)  # 5050·(5/4)·2²
    mpf('25250.0')
    """
    k, dps = read_count(k, "k", 1), read_dps(dps)
    C = read_exact(C, "C", 0, open_low=True)
    if strength is not None:
        strength = read_exact(strength, "strengths", 0, open_low=True)
        return _threshold(dimension(Features(d, q, dim)), k, C, dps, strength=strength)
    s = Strengths(gamma, d1)
    if s.d1 is not None and k > s.d1:
        raise DomainError("k", k, f"k <= d1 = {s.d1}")
    return _threshold(dimension(Features(d, q, dim)), k, C, dps, s.gamma, s.d1)


def _threshold(size: int, k: int, C: Fraction, dps: int, gamma: Fraction | None = None,
               d1: int | float | None = None, strength: Fraction | None = None) -> Any:
    """:func:`threshold` on read arguments: the dimension ``size``, and ``gamma`` with ``d1``
    or a ``strength``."""
    import mpmath

    if strength is None:
        assert gamma is not None
        extra = _power_guard(k, gamma)
        norm2 = _norm2(gamma, d1, dps + extra)[1]
    else:
        extra = 0
    with mpmath.workdps(dps + 10 + extra):
        size = mpmath.mpf(size)
        c = mpmath.mpf(C.numerator) / C.denominator
        if strength is None:
            assert gamma is not None
            g = mpmath.mpf(gamma.numerator) / gamma.denominator
            inv_a2 = norm2 * mpmath.power(k, 2 * g)
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
    k, dps = read_count(k, "k", 1), read_dps(dps)
    return _power_strength(k, read_exact(gamma, "gamma", 0, open_low=True), dps)


def _power_strength(k: int, gamma: Fraction, dps: int) -> Any:
    """:func:`power_strength` on read arguments."""
    import mpmath

    with mpmath.workdps(dps + 10 + _power_guard(k, gamma)):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +mpmath.power(k, -g)


def threshold_exact(d: int, q: int, k: int, gamma: Fraction, C: Fraction = Fraction(1),
                    dim: str = "D", strength: Fraction | None = None,
                    d1: int | float | None = None) -> Fraction | None:
    """n_k = C · D / c_k² as an exact ``Fraction`` when it is one (2γ an integer and d1 finite
    or None, or a rational strength) of at most MAX_DIGITS digits; None otherwise (then
    :func:`threshold` gives it in mpmath). Arguments as in :func:`threshold`.

    >>> threshold_exact(100, 2, 3, Fraction(3, 2), C=Fraction(1, 2))
    Fraction(68175, 1)
    >>> threshold_exact(100, 2, 3, Fraction(1, 3)) is None
    True
    """
    k, C = read_count(k, "k", 1), read_exact(C, "C", 0, open_low=True)
    size = dimension(Features(d, q, dim))
    if strength is not None:
        strength = read_exact(strength, "strengths", 0, open_low=True)
        return _threshold_exact(size, k, C, strength=strength)
    s = Strengths(gamma, d1)
    return _threshold_exact(size, k, C, s.gamma, s.d1)


def _threshold_exact(size: int, k: int, C: Fraction, gamma: Fraction | None = None,
                     d1: int | float | None = None,
                     strength: Fraction | None = None) -> Fraction | None:
    """:func:`threshold_exact` on read arguments (as :func:`_threshold`)."""
    if strength is not None:
        value = C * size / (strength * strength)
    elif gamma is not None and (gamma * 2).denominator == 1:
        # the size of k^{2γ} is known before it is computed: 2γ·log10 k digits
        if k > 1 and 2 * gamma > Fraction(MAX_DIGITS) / Fraction(math.log10(k)):
            return None
        norm2 = _norm2(gamma, d1, 30)[0]
        if norm2 is None:
            return None
        value = C * size * norm2 * k ** int(2 * gamma)
    else:
        return None
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > 3.33 * MAX_DIGITS:
        return None
    return value


@dataclass(frozen=True)
class ThresholdRow:
    """One direction of :func:`thresholds`: its normalised strength c_k = λ_k/‖λ‖ (mpmath
    ``mpf``), n_k = C·D/c_k² in mpmath at the table's ``dps`` and n_k exactly when rational."""

    k: int
    strength: Any
    value: Any
    exact: Fraction | None


@dataclass(frozen=True)
class Thresholds(ShowsTable):
    """n_k = C·D/c_k² for a list of directions k (see :func:`thresholds`); ``norm2`` = ‖λ‖²
    (mpmath), ``d1`` the model's number of directions (math.inf, or None: no normalisation)."""

    d: int
    q: int
    dim: str
    size: int
    C: Fraction
    dps: int
    rows: list[ThresholdRow]
    d1: int | float | None = math.inf
    norm2: Any = None

    def norm_text(self) -> str:
        """‖λ‖² as the output states it: ζ(2γ), H_d1(2γ) or Σλ_i², with its value."""
        import mpmath

        if self.d1 is None:
            return "‖λ‖² = 1 (strengths taken as normalised)"
        where = "ζ(2γ)" if self.d1 == math.inf else f"H_{self.d1}(2γ) = Σ_(i<={self.d1}) i^(−2γ)"
        return f"‖λ‖² = {where} = {mpmath.nstr(self.norm2, min(self.dps, 15))}"

    def table(self) -> Table:
        import mpmath

        digits = min(self.dps, 15)
        with mpmath.workdps(self.dps):
            rows = [[str(r.k), mpmath.nstr(r.strength, digits), mpmath.nstr(r.value, digits),
                     mpmath.nstr(mpmath.log10(r.value), 6)] for r in self.rows]
        label = "D" if self.dim == "D" else f"d^{self.q}"
        return Table(columns=["k", "c_k = λ_k/‖λ‖", f"n_k = C·{label}/c_k²", "log10 n_k"],
                     rows=rows,
                     caption=f"Recovery thresholds n_k = C {label}/c_k^2 (d = {self.d}, "
                             f"q = {self.q}, C = {fraction_str(self.C)})",
                     latex_columns=["$k$", "$c_k$", f"$n_k = C\\,{label}/c_k^2$",
                                    r"$\log_{10} n_k$"],
                     label="tab:fltheory-threshold", align="rrrr")


def thresholds(d: int, q: int, ks: Sequence[int], gamma: Fraction, C: Fraction = Fraction(1),
               dps: int = 30, dim: str = "D",
               strengths: Sequence[Fraction] | None = None,
               d1: int | float | None = math.inf) -> Thresholds:
    """The thresholds n_k = C·D/c_k² of :func:`threshold` for every k in ``ks`` (at most
    MAX_THRESHOLD_ROWS of them), exact where :func:`threshold_exact` can be. The normalised
    strengths are c_k = λ_k/‖λ‖ as in the model (Var y = 1): λ_k = k^{−γ} with ‖λ‖² of
    :func:`strength_norm2` at ``d1`` (default ∞: ζ(2γ)), or ``strengths`` = (λ_1, λ_2, ...)
    with ‖λ‖² = Σ λ_i² (every k <= len(strengths); ``d1`` is then len(strengths)).

    >>> t = thresholds(100, 2, [1, 2], Fraction(1), dps=10, d1=2)
    >>> [(r.k, r.exact) for r in t.rows]  # 5050·(1 + 1/4)·k²
    [(1, Fraction(12625, 2)), (2, Fraction(25250, 1))]
    >>> print(t.table().rows[1])
    ['2', '0.4472135955', '25250.0', '4.40226']
    """
    return threshold_table(ThresholdQuery(Features(d, q, dim), Strengths(gamma, d1, strengths),
                                          ks, C, dps))


def threshold_table(query: ThresholdQuery) -> Thresholds:
    """The thresholds of :func:`thresholds` for a query read once
    (:class:`~fltheory.papers.recovery.params.ThresholdQuery`).

    >>> from fltheory.papers.recovery.params import Features, Strengths, ThresholdQuery
    >>> t = threshold_table(ThresholdQuery(Features(100), Strengths(1, 2), [2], dps=10))
    >>> t.rows[0].exact
    Fraction(25250, 1)
    """
    import mpmath

    s, C, dps = query.strengths, query.C, query.dps
    if s.values is not None:
        exact_norm = sum((a * a for a in s.values), Fraction(0))
        with mpmath.workdps(dps + 10):
            norm2 = mpmath.mpf(exact_norm.numerator) / exact_norm.denominator
    else:
        norm2 = _norm2(s.gamma, s.d1, dps)[1]
    size = dimension(query.features)
    rows = []
    with mpmath.workdps(dps + 10):
        root = mpmath.sqrt(norm2)
    for k in query.ks:
        if s.values is None:
            lam = _power_strength(k, s.gamma, dps)
            value = _threshold(size, k, C, dps, s.gamma, s.d1)
            exact = _threshold_exact(size, k, C, s.gamma, s.d1)
        else:
            a = s.values[k - 1]
            with mpmath.workdps(dps + 10):
                lam = mpmath.mpf(a.numerator) / a.denominator
            value = _threshold(size, k, C * exact_norm, dps, strength=a)
            exact = _threshold_exact(size, k, C * exact_norm, strength=a)
        with mpmath.workdps(dps + 10):
            c_k = lam / root
        rows.append(ThresholdRow(k, c_k, value, exact))
    f = query.features
    return Thresholds(f.d, f.q, f.dim, size, C, dps, rows, s.d1, norm2)


def recovered_count(n: Fraction | int | float | str, d: int, q: int,
                    gamma: Fraction | int | float | str,
                    C: Fraction | int | float | str = Fraction(1),
                    dim: str = "D", cap: int | None = None,
                    d1: int | float | None = None) -> int:
    """k*(n) = #{k ≥ 1 : n ≥ n_k}, n_k = C·D/c_k² = C·D·‖λ‖²·k^{2γ} the thresholds of
    :func:`threshold` (‖λ‖² of :func:`strength_norm2` at ``d1``: None for 1, math.inf for
    ζ(2γ), an integer for H_{d1}(2γ), which also caps the count at d1), an exact int, at most
    ``cap`` when given. With ‖λ‖² rational and γ = u/v, k^{2γ} ≤ R ⟺ k^{2u} ≤ R^v,
    R = n/(C·D·‖λ‖²); with ‖λ‖² irrational (ζ(2γ), or 2γ not an integer) the comparison is
    made in mpmath with guard digits, raised until no k is within its rounding of a tie.

    n, γ, C > 0 rational; ``d``, ``q``, ``dim`` as in :func:`threshold`. The integers k^{2u}
    and R^v are formed only when they are small (γ = 0.7000001 would need R^{10^7}); otherwise
    the comparison is 2u·ln k vs v·ln R in mpmath with guard digits, and an exact tie (possible
    only when k = t^{v/g} and R = t^{2u/g}, g = gcd(2u, v)) is decided on integers of the size
    of R. k* itself has at most MAX_DIGITS digits (else DomainError).

    >>> recovered_count(Fraction(10**6), 100, 2, Fraction(1))
    14
    >>> recovered_count(Fraction(5050 * 27), 100, 2, Fraction(3, 2))  # n = D·3^3: k = 3 counts
    3
    >>> recovered_count(Fraction(10**6), 100, 2, Fraction(1), d1=math.inf)  # √(10⁶/(5050·π²/6))
    10
    """
    n = read_exact(n, "n", 0, open_low=True)
    s = Strengths(gamma, d1)
    C = read_exact(C, "C", 0, open_low=True)
    cap = None if cap is None else read_count(cap, "cap", 0)
    return _recovered_count(n, dimension(Features(d, q, dim)), s.gamma, s.d1, C, cap)


def _recovered_count(n: Fraction, size: int, gamma: Fraction, d1: int | float | None,
                     C: Fraction, cap: int | None = None) -> int:
    """:func:`recovered_count` on read arguments (``size`` the dimension D)."""
    if d1 is not None and d1 != math.inf:
        cap = int(d1) if cap is None else min(cap, int(d1))
    norm2 = _norm2(gamma, d1, 30)[0]
    if norm2 is None:  # d1 is not None: ‖λ‖² = 1 is rational
        return _count_irrational(n, size, gamma, C, cap, math.inf if d1 is None else d1)
    C = C * norm2
    R = n / (C * size)
    u, v = gamma.numerator, gamma.denominator
    if R < 1:
        return 0
    log_r = math.log(R.numerator) - math.log(R.denominator)  # exact ints: no overflow
    g = float(min(gamma, Fraction(10**300)))  # 0.0 for γ below 1e-308
    ratio = log_r / (2 * g) if g > 0 else (math.inf if log_r > 0 else 0.0)
    log10_count = ratio / math.log(10)
    if cap is not None and ratio > math.log(cap + 1) + 1:  # k* > cap + 1 by a margin
        return cap
    if log10_count > MAX_DIGITS:
        _refuse_digits(n, gamma, log_r, log10_count)
    r_bits = max(R.numerator.bit_length(), R.denominator.bit_length())
    small = v * r_bits <= 10**5

    def ok(k: int) -> bool:
        if small and 2 * u * k.bit_length() <= 2 * 10**5:
            return bool(k ** (2 * u) <= R ** v)
        return _power_leq(k, u, v, R)

    guess = max(1, int(math.exp(ratio))) if log10_count < 300 else 10 ** int(log10_count)
    lo = _largest_true(ok, guess)
    return lo if cap is None else min(lo, cap)


def _refuse_digits(n: Fraction, gamma: Fraction, log_r: float, log10_count: float) -> None:
    """The DomainError for a count k* of more than ``MAX_DIGITS`` digits: naming γ when
    n/(C·D) alone is presentable (a small γ, exponent 1/(2γ) > 1, makes k* huge), else n."""
    allowed = f"n, γ with k*(n) = (n/(C·D))^(1/(2γ)) of at most {MAX_DIGITS} digits"
    if gamma < Fraction(1, 2) and log_r / math.log(10) <= MAX_DIGITS:
        # n/(C·D) alone is presentable: the small γ (exponent 1/(2γ) > 1) makes k* huge
        raise DomainError("gamma", short_rational(gamma), allowed, reason=f"gives k* of about "
                          f"{log10_count:.3g} digits at n = {short_rational(n)}")
    raise DomainError("n", short_rational(n), allowed, reason=f"gives k* of about "
                      f"{log10_count:.3g} digits at γ = {short_rational(gamma)}")


def _largest_true(ok: Callable[[int], bool], guess: int) -> int:
    """The largest k >= 1 with ok(k), ok monotone (true up to k*, false beyond) and ok(1)
    true, bracketed from ``guess`` by halving and doubling, then bisected."""
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
    return lo


def _count_irrational(n: Fraction, size: int, gamma: Fraction, C: Fraction, cap: int | None,
                      d1: int | float) -> int:
    """k*(n) of :func:`recovered_count` when ‖λ‖² is irrational: the largest k with
    2γ ln k + ln ‖λ‖² <= ln(n/(C·D)), in mpmath; the working precision doubles while the
    continuum count (n/(C·D·‖λ‖²))^{1/(2γ)} is within its rounding of an integer."""
    import mpmath

    R = n / (C * size)
    g = float(min(gamma, Fraction(10**300)))
    log_r = math.log(R.numerator) - math.log(R.denominator)
    if cap is None and log_r / (2 * g) / math.log(10) > MAX_DIGITS:
        raise DomainError("n", short_rational(n), f"n, γ with k*(n) of at most {MAX_DIGITS} digits",
                          reason=f"gives k* of about {log_r / (2 * g) / math.log(10):.3g} "
                                 f"digits at γ = {short_rational(gamma)}")
    digits = 40 + _digits(max(gamma.numerator, gamma.denominator)) \
        + _digits(max(R.numerator.bit_length(), R.denominator.bit_length()))
    for _ in range(6):
        with mpmath.workdps(digits):
            G = mpmath.mpf(gamma.numerator) / gamma.denominator
            log_k = (mpmath.log(R.numerator) - mpmath.log(R.denominator)
                     - mpmath.log1p(_norm2_excess(gamma, d1, digits))) / (2 * G)
            if log_k < 0:
                return 0
            if cap is not None and log_k > mpmath.log(cap + 1) + 1:
                return cap
            kc = mpmath.exp(log_k)
            k = int(mpmath.floor(kc))
            # a tie needs kc within rounding of an integer: ‖λ‖² irrational makes it impossible
            if abs(log_k - mpmath.log(max(mpmath.nint(kc), 1))) > mpmath.mpf(10) ** (15 - digits) \
                    * (abs(log_k) + 1):
                break
        digits *= 2
    return k if cap is None else min(k, cap)


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
                    dim: str = "D", dps: int = 30, d1: int | float | None = None) -> Any:
    """The continuum number of recovered directions (n/(C·D·‖λ‖²))^{1/(2γ)} (mpmath ``mpf``
    to ``dps`` digits, ‖λ‖² of :func:`strength_norm2` at ``d1``): k*(n) of
    :func:`recovered_count` without the floor and the cap. Arguments as there.

    >>> print(continuum_count(Fraction(10**6), 100, 2, Fraction(1), dps=10))
    14.0719508946058
    """
    n = read_exact(n, "n", 0, open_low=True)
    s = Strengths(gamma, d1)
    C = read_exact(C, "C", 0, open_low=True)
    dps = read_dps(dps)
    return _continuum_count(n, dimension(Features(d, q, dim)), s.gamma, s.d1, C, dps)


def _continuum_count(n: Fraction, size: int, gamma: Fraction, d1: int | float | None,
                     C: Fraction, dps: int) -> Any:
    """:func:`continuum_count` on read arguments (``size`` the dimension D)."""
    import mpmath

    norm2 = _norm2(gamma, d1, dps)[1]
    with mpmath.workdps(dps + 10):
        R = mpmath.mpf(n.numerator) / n.denominator / (
            mpmath.mpf(C.numerator) / C.denominator * size * norm2)
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
        read_count(q, "q", 1, MAX_Q // 2)
    return [{"d": d, "q": q, "hier": feature_dimension(d, q),
             "kernel": feature_dimension(d, 2 * q)} for q in qs for d in ds]
