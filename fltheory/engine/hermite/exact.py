r"""Exact Gaussian expectations E[g(z)], z ~ N(0, 1), for the Hermite engine's exact paths.

``exact:polynomial``
    g is a polynomial: E[z^n] = (n − 1)!! for even n, 0 for odd n (:func:`gauss_moment`).
``exact:piecewise``
    g is piecewise polynomial (``Max``, ``Abs``, ``sign``, ``Heaviside``, ``Piecewise``): on each
    interval (a, b), J_n = ∫_a^b z^n φ obeys J_n = a^{n−1}φ(a) − b^{n−1}φ(b) + (n − 1) J_{n−2},
    J_0 = Φ(b) − Φ(a), J_1 = φ(a) − φ(b) (integration by parts).
``exact:gaussian``
    g is a sum of z^n·exp(a z² + b z + c) with a < 1/2 (e.g. derivatives of erf, gelu,
    exp(−z²)): ∫ z^n e^{−s z² + b z} dz = √(π/s) e^{b²/(4s)} E[X^n], X ~ N(b/(2s), 1/(2s)),
    s = 1/2 − a.
``exact:piecewise-gaussian``
    g is such a sum on each of finitely many intervals (e.g. |z|·exp(−z²/2)): on (α, β),
    E[z^n e^{a z² + b z + c} 1{α < z < β}] = e^{c + b²/(4s)} √v E[(m + √v u)^n 1{α' < u < β'}],
    u ~ N(0, 1), m = b/(2s), v = 1/(2s), α' = (α − m)/√v, β' = (β − m)/√v (completing the
    square), the last expectation by the interval moments of ``exact:piecewise``.

Every value is an exact sympy expression. The helpers (``_``-prefixed) are shared with the other
``hermite_*`` modules of this package; the public entry points are in
:mod:`fltheory.engine.hermite`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp

from fltheory.engine.expressions import Z, normal_cdf
from fltheory.exact import check_integer

__all__ = ["MAX_MOMENT", "gauss_moment"]

#: Largest order n of :func:`gauss_moment` (see its docstring for why).
MAX_MOMENT = 20000

#: Atoms at which f may fail to be smooth (and which make it piecewise when polynomial inside).
_KINK_ATOMS = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise)


def gauss_moment(n: int) -> int:
    """E[z^n] for z ~ N(0, 1): (n − 1)!! for even n, 0 for odd n (an exact int).

    Parameters: ``n``, an integer in [0, :data:`MAX_MOMENT`] (anything else is a
    :class:`~fltheory.exact.DomainError`, checked before any work: a non-integer "is not an
    integer"). The bound is on the work: (n − 1)!! has about (n/2)·log10(n/e) digits and its
    product costs ~n² bit operations — 0.02 s at n = 20000, 0.7 s at 10^5, minutes at 10^7 —
    while the engines need the moments of polynomials of degree at most a few hundred (He_k
    with k <= K_MAX = 60 times f, products of such terms in the two-step expansion).

    >>> [gauss_moment(n) for n in range(7)]
    [1, 0, 1, 0, 3, 0, 15]
    """
    check_integer(n, "n", 0, MAX_MOMENT)
    return 0 if n % 2 else math.prod(range(n - 1, 0, -2))


def _to_poly(expr: sp.Expr) -> sp.Poly:
    """A polynomial in z as a sympy Poly, built along the expression tree with Poly arithmetic
    (dense, fast): ``sp.Poly(sp.expand(He12(z)**16))`` takes minutes, this takes milliseconds."""
    if expr.is_Add or expr.is_Mul:
        parts = [_to_poly(a) for a in expr.args]
        out = parts[0]
        for part in parts[1:]:
            out = out + part if expr.is_Add else out * part
        return out
    if expr.is_Pow and expr.exp.is_Integer and expr.exp >= 0 and expr.base.has(Z):
        return _to_poly(expr.base) ** int(expr.exp)
    return sp.Poly(expr, Z)


def _expect_polynomial(expr: sp.Expr) -> sp.Expr:
    poly = _to_poly(expr)
    return _clean(sum((c * gauss_moment(m[0]) for m, c in poly.terms()), sp.Integer(0)))


def _is_polynomial(expr: sp.Expr) -> bool:
    return bool(expr.is_polynomial(Z))


def _phi(x: sp.Expr) -> sp.Expr:
    if x in (sp.oo, -sp.oo):
        return sp.Integer(0)
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def _Phi(x: sp.Expr) -> sp.Expr:
    if x == sp.oo:
        return sp.Integer(1)
    if x == -sp.oo:
        return sp.Integer(0)
    return normal_cdf(x)  # the catalogue's Phi: one formula


def _interval_moments(a: sp.Expr, b: sp.Expr, nmax: int) -> list[sp.Expr]:
    """J_n = ∫_a^b z^n φ(z) dz for n = 0..nmax, exactly (recursion by parts)."""
    J = [_Phi(b) - _Phi(a), _phi(a) - _phi(b)]
    for n in range(2, nmax + 1):
        ta = sp.Integer(0) if a == -sp.oo else a**(n - 1) * _phi(a)
        tb = sp.Integer(0) if b == sp.oo else b**(n - 1) * _phi(b)
        J.append(ta - tb + (n - 1) * J[n - 2])
    return J[: nmax + 1]


def _interval_expectation(poly_expr: sp.Expr, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """E[p(z) 1{a < z < b}] for a polynomial p."""
    poly = _to_poly(poly_expr)
    if poly.is_zero:
        return sp.Integer(0)
    J = _interval_moments(a, b, poly.degree())
    return sum((c * J[m[0]] for m, c in poly.terms()), sp.Integer(0))


def _pieces(expr: sp.Expr, piece_of: Callable[[sp.Expr], sp.Expr | None]
            ) -> list[tuple[sp.Expr, sp.Interval]] | None:
    """(piece, interval) pairs covering ℝ (up to finitely many points), each piece as
    ``piece_of`` returns it; None when f has no kink atom, is not piecewise on intervals, or
    ``piece_of`` refuses a piece (returns None)."""
    if not expr.has(*_KINK_ATOMS):
        return None
    rewritten = expr.rewrite(sp.Piecewise)
    if rewritten.has(sp.Heaviside):
        rewritten = rewritten.replace(
            sp.Heaviside, lambda arg, *_: sp.Piecewise((0, arg < 0), (1, True)))
    folded = sp.piecewise_fold(rewritten)
    if not isinstance(folded, sp.Piecewise):
        return None
    try:
        pairs = folded.as_expr_set_pairs(sp.Reals)
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None
    out: list[tuple[sp.Expr, sp.Interval]] = []
    for piece, where in pairs:
        kept = piece_of(piece)
        if kept is None:
            return None
        for part in (where.args if isinstance(where, sp.Union) else (where,)):
            if isinstance(part, sp.Interval) and part.measure > 0:
                out.append((kept, part))
            elif not (isinstance(part, sp.FiniteSet) or part.is_empty):
                return None
    return out


def _piecewise_pairs(expr: sp.Expr) -> list[tuple[sp.Expr, sp.Interval]] | None:
    """(polynomial, interval) pairs covering ℝ, or None when f is not piecewise polynomial."""
    return _pieces(expr, lambda piece: _to_poly(piece).as_expr() if _is_polynomial(piece)
                   else None)


def _piecewise_expectation(pairs: list[tuple[sp.Expr, sp.Interval]], g: sp.Expr) -> sp.Expr:
    """E[f g] for piecewise-polynomial f (given by its pairs) and polynomial g."""
    total = sp.Integer(0)
    for piece, where in pairs:
        total += _interval_expectation(piece * g, where.start, where.end)
    return total


def _piecewise_gaussian_pairs(expr: sp.Expr) -> list[tuple[sp.Expr, sp.Interval]] | None:
    """(piece, interval) pairs covering ℝ with every piece in the Gaussian class (a sum of
    z^n·exp(a z² + b z + c), a < 1/2), or None."""
    return _pieces(expr, lambda piece: piece if _gaussian_terms(piece) is not None else None)


def _gaussian_interval_expectation(expr: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr | None:
    """E[expr 1{lo < z < hi}] for expr in the Gaussian class (module docstring), or None."""
    terms = _gaussian_terms(expr)
    if terms is None:
        return None
    total = sp.Integer(0)
    for coeff, n, a, b, c in terms:
        s = sp.Rational(1, 2) - a
        m, root = b / (2 * s), 1 / sp.sqrt(2 * s)
        shifted = sp.expand((m + root * Z)**n)
        total += coeff * sp.exp(c + b**2 / (4 * s)) * root * _interval_expectation(
            shifted, (lo - m) / root, (hi - m) / root)
    return total


def _piecewise_gaussian_expectation(pairs: list[tuple[sp.Expr, sp.Interval]], g: sp.Expr
                                    ) -> sp.Expr | None:
    """E[f g] for f given by Gaussian-class pieces (:func:`_piecewise_gaussian_pairs`) and a
    polynomial g; None if a product leaves the class."""
    total = sp.Integer(0)
    for piece, where in pairs:
        value = _gaussian_interval_expectation(piece * g, where.start, where.end)
        if value is None:
            return None
        total += value
    return total


def _gaussian_terms(expr: sp.Expr) -> list[tuple[sp.Expr, int, sp.Expr, sp.Expr, sp.Expr]] | None:
    """Write expr as Σ coeff·z^n·exp(a z² + b z + c); None if it is not of that form."""
    terms = []
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(expr), combine="exp"))):
        term = sp.powsimp(term, combine="exp")
        coeff, n, exponent = sp.Integer(1), 0, sp.Integer(0)
        for factor in sp.Mul.make_args(term):
            if not factor.has(Z):
                coeff *= factor
            elif factor == Z:
                n += 1
            elif factor.is_Pow and factor.base == Z and factor.exp.is_Integer and factor.exp > 0:
                n += int(factor.exp)
            elif isinstance(factor, sp.exp):
                exponent += factor.args[0]
            elif factor.is_Pow and factor.base == sp.E:
                exponent += factor.exp
            else:
                return None
        if exponent != 0:
            if not _is_polynomial(exponent):
                return None
            p = sp.Poly(sp.expand(exponent), Z)
            if p.degree() > 2:
                return None
            a, b, c = (p.coeff_monomial(Z**2), p.coeff_monomial(Z), p.coeff_monomial(1))
            if not (sp.Rational(1, 2) - a).is_positive:
                return None
        else:
            a = b = c = sp.Integer(0)
        terms.append((coeff, n, a, b, c))
    return terms


def _gaussian_expectation(expr: sp.Expr) -> sp.Expr | None:
    """E[expr] in closed form when expr = Σ coeff·z^n·exp(a z² + b z + c), a < 1/2.

    ∫ z^n e^{−s z² + b z} dz = √(π/s) e^{b²/(4s)} E[X^n], X ~ N(b/(2s), 1/(2s)), s = 1/2 − a.
    """
    terms = _gaussian_terms(expr)
    if terms is None:
        return None
    total = sp.Integer(0)
    for coeff, n, a, b, c in terms:
        s = sp.Rational(1, 2) - a
        m, v = b / (2 * s), 1 / (2 * s)
        moment = sum(sp.binomial(n, j) * m**(n - j) * v**sp.Rational(j, 2) * gauss_moment(j)
                     for j in range(0, n + 1, 2))
        total += coeff * sp.exp(c) * sp.sqrt(sp.pi / s) * sp.exp(b**2 / (4 * s)) * moment \
            / sp.sqrt(2 * sp.pi)
    return total


def _clean(value: sp.Expr) -> sp.Expr:
    # a Rational stays as it is: sympy's nsimplify would search a 15-digit evaluation for a
    # "simpler" number (nsimplify(1164/7) gives 1944·2^(18/175)·3^(3/35)·5^(12/25)·7^(159/175)/175)
    if value.is_Rational:
        return value
    value = sp.simplify(value)
    return sp.Integer(0) if value == 0 else value


def _is_zero(value: sp.Expr) -> bool | None:
    """True/False when sympy decides; None when it cannot."""
    if value == 0:
        return True
    decided = sp.simplify(value).is_zero
    return decided if decided is not None else None
