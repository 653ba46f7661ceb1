r"""The arc-cosine kernels of degree 0 and 1 (Cho & Saul 2009), normalised by κ(1) = 1, and
their exact eigenvalues on S^{d−1}:

.. math::

    \kappa_0(t) = 1 - \frac{\arccos t}{\pi}, \qquad
    \kappa_1(t) = \frac{\sqrt{1-t^2} + t\,(\pi - \arccos t)}{\pi}
    \qquad (\kappa_1' = \kappa_0).

For unit-variance Gaussians (u, v) of correlation ρ, E[1{u>0} 1{v>0}] = κ_0(ρ)/2 and
E[relu(u) relu(v)] = κ_1(ρ)/2, so κ_1 is the NNGP and κ_0 its derivative kernel of a ReLU layer
with He initialisation (c_σ = 2).

Eigenvalues (derivation: the Taylor series arcsin t = Σ_m Γ(m+½)/(√π m! (2m+1)) t^{2m+1} and
√(1−t²) + t arcsin t = 1 + Σ_m Γ(m+½)/(√π m! (2m+1)(2m+2)) t^{2m+2}, term by term against the
Gegenbauer moments of :mod:`~fltheory.engine.kernels.moments`, each sum over the degree a
Gauss hypergeometric ₂F₁(a, a; c; 1) = Γ(c)Γ(c − 2a)/Γ(c − a)²); with
C(d) = Γ(d/2)²/(π Γ((d+1)/2)²):

* κ_0: μ_0 = 1/2, μ_{2p+1} = (C(d)/2) Π_{i=1}^{p} ((2i − 1)/(2i − 1 + d))², μ_{2p} = 0 (p >= 1);
* κ_1: μ_{2p} = (d/2) C(d) Π_{i=1}^{p} ((2i − 3)/(2i − 1 + d))², μ_1 = 1/(2d),
  μ_{2p+1} = 0 (p >= 1).

These are Bach (2017, JMLR 18, App. D.2) and Bietti & Mairal (2019, App. C) in the
normalisation P_k(1) = 1. C(d) is rational for odd d and a rational over π² for even d, so every
μ_k is q_k C(d) + r_k with rationals q_k, r_k (:class:`ArcEigen`): exact at any d, and evaluated
at any precision without cancellation (C(d) by log-Gamma differences for large d).

The multiplication by t (t P_k = α_k P_{k+1} + β_k P_{k−1}, α_k = (k + d − 2)/(2k + d − 2),
β_k = k/(2k + d − 2)) and the reflection t ↦ −t (μ_k ↦ (−1)^k μ_k) keep this form, which gives
the NTK of depth 2 and every activation a·relu(z) + c·relu(−z) (:func:`times_t`,
:func:`reflect`).

Standard library and mpmath (sympy only for :func:`constant_exact`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.args import read_count
from fltheory.engine.spherical import check_dimension

__all__ = ["EXACT_MAX_D", "ArcEigen", "ArcExact", "add", "arccos_eigenvalues", "constant",
           "constant_exact", "constant_rational", "kappa0", "kappa1", "reflect", "scale",
           "times_t"]

#: up to this d the constant C(d) is given as an exact sympy number (its rational has about
#: d·log10(d) digits beyond)
EXACT_MAX_D = 1000


@dataclass(frozen=True)
class ArcEigen:
    """Eigenvalues μ_k = q[k]·C(d) + r[k] (rationals q, r), k = 0 … len − 1, on S^{d−1}."""

    d: int
    q: tuple[Fraction, ...]
    r: tuple[Fraction, ...]

    def values(self, dps: int) -> list[Any]:
        """μ_k at ``dps`` digits (mpmath), each to full precision (no cancellation: q, r >= 0
        for the kernels of this module; a difference is evaluated with guard digits)."""
        with mpmath.workdps(dps + 10):
            c = constant(self.d, dps + 10)
            out = [mpmath.mpf(q.numerator) / q.denominator * c
                   + mpmath.mpf(r.numerator) / r.denominator for q, r in zip(self.q, self.r,
                                                                             strict=True)]
        with mpmath.workdps(dps):
            return [+v for v in out]

    def exact(self, k: int) -> ArcExact | None:
        """μ_k exactly (d <= :data:`EXACT_MAX_D`), else None: an :class:`ArcExact`, printed
        without sympy (``str``), with ``.sympy()`` for the symbolic value."""
        if self.d > EXACT_MAX_D:
            return None
        return ArcExact(self.d, self.q[k], self.r[k])


@dataclass(frozen=True)
class ArcExact:
    """An exact eigenvalue q·C(d) + r (rationals q, r): C(d) is rational for odd d and
    c/π² (c rational) for even d. ``str`` writes it as sympy would print the simple cases
    ('3/8', '360448/(99225*pi**2)', '1/2 + 4/pi**2'), without importing sympy.

    >>> str(ArcExact(2, Fraction(1, 2), Fraction(0))), str(ArcExact(3, Fraction(1), Fraction(1)))
    ('2/pi**2', '5/4')
    """

    d: int
    q: Fraction
    r: Fraction

    def _parts(self) -> tuple[Fraction, Fraction]:
        """(coefficient of 1/π², rational part)."""
        c, over_pi2 = constant_rational(self.d)
        if over_pi2:
            return self.q * c, self.r
        return Fraction(0), self.q * c + self.r

    def __str__(self) -> str:
        a, b = self._parts()
        if a == 0:
            return _fraction(b)
        sign = "-" if a < 0 else ""
        a = abs(a)
        pi_part = (f"{sign}{a.numerator}/pi**2" if a.denominator == 1
                   else f"{sign}{a.numerator}/({a.denominator}*pi**2)")
        if b == 0:
            return pi_part
        return f"{_fraction(b)} {'-' if sign else '+'} {pi_part.lstrip('-')}"

    def latex(self) -> str:
        """The value in LaTeX, as sympy's ``latex`` writes the simple cases, without sympy.

        >>> ArcExact(4, Fraction(1, 2), Fraction(1, 8)).latex()
        '\\\\frac{1}{8} + \\\\frac{8}{9 \\\\pi^{2}}'
        """
        a, b = self._parts()

        def frac(x: Fraction, pi: bool) -> str:
            den = "" if x.denominator == 1 else str(x.denominator)
            if pi:
                den = f"{den} \\pi^{{2}}".strip()
            return f"\\frac{{{abs(x.numerator)}}}{{{den}}}" if den else str(abs(x.numerator))

        if a == 0:
            return ("- " if b < 0 else "") + frac(b, False) if b else "0"
        pi_part = frac(a, True)
        if b == 0:
            return ("- " if a < 0 else "") + pi_part
        return (("- " if b < 0 else "") + frac(b, False)
                + (" - " if a < 0 else " + ") + pi_part)

    def sympy(self) -> Any:
        """The value as a sympy number."""
        import sympy as sp

        a, b = self._parts()
        return sp.Rational(a.numerator, a.denominator) / sp.pi**2 + sp.Rational(b.numerator,
                                                                             b.denominator)


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def constant_rational(d: int) -> tuple[Fraction, bool]:
    """C(d) as (c, over_pi2): C(d) = c/π² for even d, = c for odd d (exact, d <= EXACT_MAX_D).

    >>> constant_rational(3), constant_rational(2)
    ((Fraction(1, 4), False), (Fraction(4, 1), True))
    """
    d = read_count(check_dimension(d), "d", 2, EXACT_MAX_D)
    if d % 2 == 0:  # Γ(d/2) = (d/2 − 1)!, Γ((d+1)/2) = (d − 1)!! √π / 2^{d/2}
        return Fraction(math.factorial(d // 2 - 1) ** 2 * 2**d,
                        _double_factorial(d - 1) ** 2), True
    # Γ(d/2) = (d − 2)!! √π / 2^{(d−1)/2}, Γ((d+1)/2) = ((d − 1)/2)!
    return Fraction(_double_factorial(d - 2) ** 2,
                    2 ** (d - 1) * math.factorial((d - 1) // 2) ** 2), False


def constant(d: int, dps: int) -> Any:
    """C(d) = Γ(d/2)²/(π Γ((d+1)/2)²) at ``dps`` digits (log-Gamma difference with guard
    digits for the digits that exp(large) costs).

    >>> mpmath.nstr(constant(3, 20), 15), mpmath.nstr(constant(2, 20), 15)
    ('0.25', '0.405284734569351')
    """
    d = check_dimension(d)
    guard = 10 + int(math.log10(d + 1))
    with mpmath.workdps(dps + guard):
        h = mpmath.mpf(d) / 2
        value = mpmath.exp(2 * (mpmath.loggamma(h) - mpmath.loggamma(h + mpmath.mpf(1) / 2))
                           ) / mpmath.pi
    with mpmath.workdps(dps):
        return +value


def constant_exact(d: int) -> Any:
    """C(d) exactly (sympy): rational for odd d, a rational over π² for even d.

    >>> constant_exact(3), constant_exact(2)
    (1/4, 4/pi**2)
    """
    import sympy as sp

    c, over_pi2 = constant_rational(d)
    value = sp.Rational(c.numerator, c.denominator)
    return value / sp.pi**2 if over_pi2 else value


def _double_factorial(n: int) -> int:
    return math.prod(range(n, 0, -2)) if n > 0 else 1


def arccos_eigenvalues(order: int, d: int, kmax: int) -> ArcEigen:
    """Exact μ_0 … μ_kmax of κ_order (order 0 or 1) on S^{d−1}.

    >>> e = arccos_eigenvalues(1, 3, 4)
    >>> [str(v) for v in (e.exact(0), e.exact(1), e.exact(2), e.exact(3), e.exact(4))]
    ['3/8', '1/6', '3/128', '0', '1/1536']
    """
    d = check_dimension(d)
    kmax = read_count(kmax, "kmax", 0)
    order = read_count(order, "order", 0, 1)
    zero = Fraction(0)
    q = [zero] * (kmax + 1)
    r = [zero] * (kmax + 1)
    if order == 0:
        r[0] = Fraction(1, 2)
        value = Fraction(1, 2)
        for k in range(1, kmax + 1, 2):
            p = (k - 1) // 2
            if p:
                value *= Fraction(2 * p - 1, 2 * p - 1 + d) ** 2
            q[k] = value
    else:
        if kmax >= 1:
            r[1] = Fraction(1, 2 * d)
        value = Fraction(d, 2)
        for k in range(0, kmax + 1, 2):
            p = k // 2
            if p:
                value *= Fraction(2 * p - 3, 2 * p - 1 + d) ** 2
            q[k] = value
    return ArcEigen(d, tuple(q), tuple(r))


def times_t(e: ArcEigen) -> ArcEigen:
    """Eigenvalues of t·κ(t) from those of κ: μ_k(tκ) = α_k μ_{k+1} + β_k μ_{k−1} (one degree
    fewer than given).

    >>> [str(times_t(arccos_eigenvalues(0, 3, 3)).exact(k)) for k in range(3)]
    ['1/8', '1/6', '7/128']
    """
    d, n = e.d, len(e.q) - 1
    q, r = [], []
    for k in range(n):
        # t·P_0 = P_1 in every d (at d = 2 the general ratios are 0/0)
        alpha = Fraction(k + d - 2, 2 * k + d - 2) if k else Fraction(1)
        beta = Fraction(k, 2 * k + d - 2) if k else Fraction(0)
        below_q = e.q[k - 1] if k else Fraction(0)
        below_r = e.r[k - 1] if k else Fraction(0)
        q.append(alpha * e.q[k + 1] + beta * below_q)
        r.append(alpha * e.r[k + 1] + beta * below_r)
    return ArcEigen(d, tuple(q), tuple(r))


def reflect(e: ArcEigen) -> ArcEigen:
    """Eigenvalues of κ(−t) from those of κ(t): (−1)^k μ_k (P_k has the parity of k).

    >>> [str(reflect(arccos_eigenvalues(1, 3, 2)).exact(k)) for k in range(3)]
    ['3/8', '-1/6', '3/128']
    """
    return ArcEigen(e.d, tuple(v if k % 2 == 0 else -v for k, v in enumerate(e.q)),
                    tuple(v if k % 2 == 0 else -v for k, v in enumerate(e.r)))


def scale(e: ArcEigen, c: Fraction) -> ArcEigen:
    """Eigenvalues of c·κ from those of κ: every q_k and r_k times the rational c.

    >>> str(scale(arccos_eigenvalues(1, 3, 1), Fraction(2)).exact(1))
    '1/3'
    """
    return ArcEigen(e.d, tuple(c * v for v in e.q), tuple(c * v for v in e.r))


def add(parts: Sequence[ArcEigen]) -> ArcEigen:
    """Eigenvalues of a sum of kernels on the same sphere (truncated to the shortest list).

    >>> e = arccos_eigenvalues(1, 3, 1)
    >>> str(add([e, e]).exact(0))
    '3/4'
    """
    n = min(len(p.q) for p in parts)
    return ArcEigen(parts[0].d, tuple(sum((p.q[k] for p in parts), Fraction(0))
                                      for k in range(n)),
                    tuple(sum((p.r[k] for p in parts), Fraction(0)) for k in range(n)))


def kappa0(rho: Any) -> Any:
    """κ_0(ρ) = 1 − arccos(ρ)/π at a real or complex ρ (principal branch: analytic for
    |ρ| < 1).

    >>> kappa0(mpmath.mpf(0))
    mpf('0.5')
    """
    return 1 - mpmath.acos(rho) / mpmath.pi


def kappa1(rho: Any) -> Any:
    """κ_1(ρ) = (√(1 − ρ²) + ρ(π − arccos ρ))/π at a real or complex ρ (analytic for
    |ρ| < 1, κ_1(1) = 1).

    >>> kappa1(mpmath.mpf(1))
    mpf('1.0')
    """
    return (mpmath.sqrt(1 - rho * rho) + rho * (mpmath.pi - mpmath.acos(rho))) / mpmath.pi
