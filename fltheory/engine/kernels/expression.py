r"""Eigenvalues of a kernel given as an expression in t (:mod:`~fltheory.engine.kernels.parse`).

A polynomial with rational coefficients is exact (μ_k = Σ_j b_j a_{j,k}, rationals); anything
else goes through its Taylor series (:func:`~fltheory.engine.kernels.series.series_eigenvalues`),
whose bounds hold when every coefficient is >= 0 (Schoenberg: the kernel is then positive
definite on every sphere). After the series is computed it must reproduce κ at t = ±1/2, else
κ is not analytic on the unit disc and is refused; a negative coefficient leaves the digits
unconfirmed (the tail bound needs b_j >= 0), and a μ_k below zero by more than its bound is a
kernel that is not positive semi-definite on S^{d−1}: refused, naming the degrees.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from fltheory.engine.expressions import Z
from fltheory.engine.kernels.moments import confirmed_digits, funk_hecke
from fltheory.engine.kernels.networks import THETA_MAX_D, Eigen, poly_eigenvalues, theta_eigenvalues
from fltheory.engine.kernels.parse import kernel_text
from fltheory.engine.kernels.series import series_eigenvalues
from fltheory.exact import DomainError

__all__ = ["expression_eigenvalues", "rational_polynomial"]


def rational_polynomial(expr: sp.Expr) -> list[Fraction] | None:
    """The coefficients (degree 0 first) of a polynomial in t with rational coefficients, or
    None.

    >>> rational_polynomial(sp.sympify("z**2/2 + 1", locals={"z": Z}))
    [Fraction(1, 1), Fraction(0, 1), Fraction(1, 2)]
    """
    if not expr.is_polynomial(Z):
        return None
    coeffs = sp.Poly(expr, Z).all_coeffs()[::-1]
    if not all(isinstance(c, sp.Rational) for c in coeffs):
        return None
    return [Fraction(int(c.p), int(c.q)) for c in coeffs]


def expression_eigenvalues(expr: sp.Expr, d: int, kmax: int, dps: int,
                           progress: Callable[[str], None] | None = None,
                           param: str = "kernel") -> Eigen:
    """μ_0 … μ_kmax of κ(t) = ``expr`` on S^{d−1} (module docstring).

    >>> from fltheory.engine.kernels.parse import parse_kernel
    >>> e = expression_eigenvalues(parse_kernel("exp(2*t - 2)"), 3, 2, 20)
    >>> [mpmath.nstr(v, 12) for v in e.values], e.exact
    (['0.245421090278', '0.131868364583', '0.0476185434029'], None)
    """
    shown = kernel_text(expr)
    coeffs = rational_polynomial(expr)
    if coeffs is not None:
        # every μ_k of a polynomial is known: a negative one above kmax refuses it too
        # (1 + t² − t⁴/10 at d = 3 has μ_4 < 0, and --kmax 3 accepted it, its Mercer share
        # 1.012 of κ(1)); then only the first kmax + 1 are kept
        top = max(kmax, len(coeffs) - 1)
        rational, values = poly_eigenvalues(coeffs, d, top, dps)
        if top > kmax:
            _check_psd(Eigen(d, tuple(values), (mpmath.mpf(0),) * len(values), None, 0, 0, None,
                             "", dps), shown, param)
            values = values[:kmax + 1]
            rational = None if rational is None else rational[:kmax + 1]
        one = sum(coeffs, Fraction(0))
        minus = sum((c if j % 2 == 0 else -c for j, c in enumerate(coeffs)), Fraction(0))
        exact = None if rational is None else tuple(sp.Rational(v.numerator, v.denominator)
                                                    for v in rational)
        zero = [mpmath.mpf(0)] * len(values)
        eig = Eigen(d, tuple(values), tuple(zero), exact,
                    mpmath.mpf(one.numerator) / one.denominator,
                    mpmath.mpf(minus.numerator) / minus.denominator, one,
                    f"exact (a polynomial of degree {len(coeffs) - 1})", dps)
        _check_psd(eig, shown, param)
        return eig
    fn = sp.lambdify(Z, expr, modules="mpmath")
    with mpmath.workdps(dps + 10):
        one, minus = mpmath.mpf(fn(mpmath.mpf(1)).real), mpmath.mpf(fn(mpmath.mpf(-1)).real)
    def not_psd(part: Any) -> bool:
        # a μ_k below zero by more than its bound (by the change from half the degrees when
        # a coefficient is negative) at this truncation already refuses the kernel
        if not any(v < 0 for v in part.spectrum.values):
            return False
        bounds = part.spectrum.bounds if not part.taylor.negative else \
            _agreement(part.taylor, d, kmax, dps)
        return any(v < 0 and abs(v) > b for v, b in zip(part.spectrum.values, bounds,
                                                          strict=True))

    s = series_eigenvalues(fn, one, minus, d, kmax, dps, progress=progress, settled=not_psd,
                           relative=True)
    _check_analytic(fn, s.taylor.coefficients, dps, shown, param)
    notes: tuple[str, ...] = ()
    bounds: tuple[Any, ...] = tuple(s.spectrum.bounds)
    if s.taylor.negative:
        shown_degrees = ", ".join(str(j) for j in s.taylor.negative[:5])
        notes = (f"Taylor coefficients of degree {shown_degrees}"
                 f"{' …' if len(s.taylor.negative) > 5 else ''} are negative: κ is not positive "
                 "definite on every sphere, and the tail bound (which needs b_j >= 0) does not "
                 "apply; each μ_k's error is estimated by the change from half the degrees",)
        bounds = _agreement(s.taylor, d, kmax, dps)
    method = (f"Taylor series to degree {s.J} (Cauchy integral on {s.taylor.points} points), "
              "masses beyond by parity from κ(±1)")
    mu: tuple[Any, ...] = tuple(s.spectrum.values)
    target = mpmath.mpf(10) ** (-dps - 1)
    if (not s.taylor.negative and d <= THETA_MAX_D
            and any(v != 0 and b > abs(v) * target for v, b in zip(mu, bounds,
                                                                    strict=True))):
        # a kernel singular at t = ±1 (the Laplace kernel, arc-cosine forms): its Taylor
        # tail falls like a power of J; in θ = arccos t the integrand may be analytic, and
        # two tanh-sinh rules say how far. Per degree, the value with the smaller bound (a
        # value the series found 0, its parity having no coefficient, stays 0: the rules
        # bound it by |their value| + their bound)
        tv, tb = theta_eigenvalues(fn, d, kmax, dps, progress)
        new_values, new_bounds = list(mu), list(bounds)
        for k in range(kmax + 1):
            if mu[k] == 0:
                new_bounds[k] = min(bounds[k], abs(tv[k]) + tb[k])
            elif tb[k] < bounds[k]:
                new_values[k], new_bounds[k] = tv[k], tb[k]
        if new_bounds != list(bounds):
            mu, bounds = tuple(new_values), tuple(new_bounds)
            method += "; where tighter, tanh-sinh rules in θ = arccos t compared"
    eig = Eigen(d, mu, bounds, None, one, minus, None, method, dps, notes)
    _check_psd(eig, shown, param)
    return eig


def _agreement(taylor: Any, d: int, kmax: int, dps: int) -> tuple[Any, ...]:
    """For a series with coefficients of both signs: |μ_k(J) − μ_k(J/2)| (the change when half
    the coefficients are used: an estimate of the truncation, not a bound), plus what the
    coefficients' errors and the rounding of the sum can move μ_k, Σ_j (err_j + 10^−(dps+8)
    |b_j|) a_{j,k}: a μ_k that cancels (exp(t) − 3t/e + 10⁻²⁰t at d = 3: μ_1 = 10⁻²⁰/3 from
    terms of 0.1) was printed "exact" with its rounding in the 22nd digit."""
    coeffs = taylor.coefficients
    half = len(coeffs) // 2
    full = funk_hecke(d, kmax, coeffs, dps, tail=(0, 0)).values
    part = funk_hecke(d, kmax, coeffs[:half], dps, tail=(0, 0)).values
    size = funk_hecke(d, kmax, [abs(c) for c in coeffs], dps, errors=taylor.errors,
                      tail=(0, 0))
    with mpmath.workdps(dps + 10):
        rounding = mpmath.mpf(10) ** (-(dps + 8))
        return tuple(abs(a - b) + e + rounding * m for a, b, m, e in
                     zip(full, part, size.values, size.bounds, strict=True))


def _check_analytic(fn: Callable[[Any], Any], coeffs: tuple[Any, ...], dps: int, shown: str,
                    param: str) -> None:
    with mpmath.workdps(dps + 10):
        for t in (mpmath.mpf(1) / 2, -mpmath.mpf(1) / 2):
            series = mpmath.polyval(list(coeffs)[::-1], t)
            direct = mpmath.mpf(mpmath.mpmathify(fn(t)).real)
            if abs(series - direct) > mpmath.mpf(10) ** (-(dps // 2)) * (1 + abs(direct)):
                raise DomainError(param, shown, "a kernel analytic on the disc |t| < 1 (every "
                                  "kernel positive definite on all spheres is: Schoenberg)",
                                  reason=f"is not given by its Taylor series at t = "
                                         f"{mpmath.nstr(t, 2)} (a singularity inside the unit "
                                         "disc)")


def _check_psd(eig: Eigen, shown: str, param: str) -> None:
    negative = [k for k, (v, b) in enumerate(zip(eig.values, eig.bounds, strict=True))
                if v < 0 and abs(v) > b]
    if negative:
        # each value to at most 6 digits, and no more than its bound confirms
        def shown_value(k: int) -> str:
            digits = confirmed_digits(eig.values[k], eig.bounds[k], 6)
            return mpmath.nstr(eig.values[k], max(1, digits))

        listed = ", ".join(f"μ_{k} = {shown_value(k)}" for k in negative[:4])
        more = f" and {len(negative) - 4} more" if len(negative) > 4 else ""
        raise DomainError(param, shown, f"a kernel positive semi-definite on S^{eig.d - 1} "
                          "(every μ_k >= 0)", reason=f"has {listed}{more} < 0")
