r"""Exact radial operators of random features for piecewise-polynomial activations (helper of
:mod:`fltheory.engine.randomfeatures`).

An activation that is a polynomial on each half-line, σ(z) = Σ_n (A_n z₊^n + B_n z₋^n)
(z₊ = max(z, 0), z₋ = max(−z, 0); polynomials, relu, abs, sign, Heaviside, leaky relu, relu²,
relu + z², …), is a finite sum of positively homogeneous parts σ_n (σ_n(rz) = r^n σ_n(z) for
r > 0). Then, with w = r ŵ, x = ρ ξ (ρ = ‖x‖, ξ uniform on the sphere, independent),

.. math::

    K(w, w') = \sum_{n,n'} r^n r'^{n'}\, \mathbb{E}[\rho^{n+n'}]\,
               \mathbb{E}_\xi\bigl[\sigma_n(\hat w\cdot\xi)\, \sigma_{n'}(\hat w'\cdot\xi)\bigr],

and the Funk–Hecke expansion σ_n(ŵ·ξ) = Σ_l N(d, l) b_{l,n} P_l(ŵ·ξ), b_{l,n} = E_t[σ_n(t) P_l(t)]
(t = ŵ·e, density ∝ (1 − t²)^{(d−3)/2}), with the addition theorem E_ξ[P_l(ŵ·ξ)P_l(ξ·ŵ')] =
P_l(ŵ·ŵ')/N(d, l), gives the degree-l radial kernel

.. math::

    K_l(r, r') = \sum_{n,n'} r^n r'^{n'}\, b_{l,n}\, \mathbb{E}[\rho^{n+n'}]\, b_{l,n'}.

So R_l has rank at most the number of degrees n with b_{l,n} ≠ 0, and its non-zero eigenvalues
are those of the finite matrix P·Q with P_{nn'} = b_{l,n} E[ρ^{n+n'}] b_{l,n'} and
Q_{nn'} = E[r^{n+n'}] (chi moments). Every entry is a ratio of Gamma functions:

.. math::

    \mathbb{E}|t|^m &= \frac{\Gamma((m+1)/2)\, \Gamma(d/2)}{\sqrt\pi\, \Gamma((d+m)/2)}, &\qquad
    \mathbb{E}[t_+^m] &= \tfrac12\, \mathbb{E}|t|^m,\\
    \mathbb{E}[\rho^a] &= \frac{2^{a/2}\, \Gamma((d+a)/2)}{\Gamma(d/2)}, &\qquad
    \mathbb{E}[r^a] &= (s^2/d)^{a/2}\, \mathbb{E}[\rho^a]

(r = ‖w‖ ~ s χ_d/√d). For a homogeneous σ of degree p (a single n = p) R_l is rank one with
λ_{l,0} = E[r^{2p}] E[ρ^{2p}] b_{l,p}²; for a polynomial only n ≡ l (mod 2) contribute
(b_{l,n} = 0 otherwise), every entry is rational in s², and b_{l,n} = 0 for n < l.

Gamma ratios of large arguments are written as products of rational factors times the one
irrational ratio γ_d = Γ(d/2)/(√π Γ((d + 1)/2)) (rational for odd d, rational/π for even d), kept
as a sympy symbol when d > 1000 (no million-digit factorials) and substituted by its mpmath
value (log-Gamma) at evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from fltheory.engine.spherical import legendre_coefficients

__all__ = ["Piecewise", "gamma_symbol", "piecewise_parts"]

#: Above this d the ratio γ_d stays a symbol (sympy would expand Γ(d/2) into a huge integer).
EXACT_MAX_D = 1000
GAMMA_D = sp.Symbol("gamma_d", positive=True)


def gamma_symbol(d: int, wp: int) -> Any:
    """γ_d = Γ(d/2)/(√π Γ((d + 1)/2)) as an mpmath number at ``wp`` digits (log-Gamma).

    >>> mpmath.nstr(gamma_symbol(3, 20), 10)  # Γ(3/2)/(√π Γ(2)) = 1/2
    '0.5'
    """
    with mpmath.workdps(wp + 10):
        value = mpmath.exp(mpmath.loggamma(mpmath.mpf(d) / 2)
                           - mpmath.loggamma(mpmath.mpf(d + 1) / 2)) / mpmath.sqrt(mpmath.pi)
    return value


def _gamma_d(d: int) -> sp.Expr:
    if d <= EXACT_MAX_D:
        return sp.gamma(sp.Rational(d, 2)) / (sp.sqrt(sp.pi) * sp.gamma(sp.Rational(d + 1, 2)))
    return GAMMA_D


@dataclass(frozen=True)
class Piecewise:
    """σ(z) = Σ_n A_n z₊^n + B_n z₋^n: ``plus[n]`` = A_n, ``minus[n]`` = B_n (sympy numbers)."""

    plus: dict[int, sp.Expr]
    minus: dict[int, sp.Expr]
    polynomial: bool

    @property
    def degrees(self) -> list[int]:
        return sorted(set(self.plus) | set(self.minus))

    @property
    def homogeneous(self) -> bool:
        return len(self.degrees) == 1


def piecewise_parts(expr: sp.Expr, z: sp.Symbol) -> Piecewise | None:
    """The homogeneous parts of σ when σ is a polynomial on each half-line (kink at 0 only),
    else None.

    >>> from fltheory.engine.functions import Z, parse_expression
    >>> p = piecewise_parts(parse_expression("relu"), Z)
    >>> p.plus, p.minus, p.homogeneous
    ({1: 1}, {}, True)
    """
    y = sp.Symbol("y", positive=True)
    parts = []
    for sign in (1, -1):
        try:
            branch = sp.piecewise_fold(expr.subs(z, sign * y))
            branch = sp.expand(sp.simplify(branch)) if branch.free_symbols - {y} == set() \
                else None
        except (TypeError, ValueError, NotImplementedError):  # pragma: no cover - sympy
            return None
        if branch is None or not branch.is_polynomial(y):
            return None
        poly = sp.Poly(branch, y)
        coeffs = {int(m[0]): sp.nsimplify(c) if c.is_Float else c for m, c in poly.terms()}
        parts.append({n: c for n, c in coeffs.items() if c != 0})
    plus, minus = parts
    polynomial = expr.is_polynomial(z)
    return Piecewise(plus, minus, bool(polynomial))


def abs_t_moment(d: int, m: int) -> sp.Expr:
    """E|t|^m, t = ŵ·e on S^{d−1}: rational for even m, rational × γ_d for odd m."""
    if m % 2 == 0:
        value = Fraction(1)
        for i in range(m // 2):
            value *= Fraction(2 * i + 1, d + 2 * i)
        return sp.Rational(value.numerator, value.denominator)
    # m = 2j + 1: Γ(j + 1) Γ(d/2) / (√π Γ(d/2 + 1/2 + j)) = j! γ_d / Π_{i<j} ((d + 1)/2 + i)
    j = (m - 1) // 2
    value = Fraction(1)
    for i in range(j):
        value *= Fraction(2 * (i + 1), d + 1 + 2 * i)
    return sp.Rational(value.numerator, value.denominator) * _gamma_d(d)


def rho_moment(d: int, a: int) -> sp.Expr:
    """E[ρ^a], ρ = ‖x‖, x ~ N(0, I_d): 2^{a/2} Γ((d+a)/2)/Γ(d/2)."""
    if a % 2 == 0:
        value = Fraction(1)
        for i in range(a // 2):
            value *= d + 2 * i
        return sp.Integer(value.numerator)
    # odd a: √2 Γ((d+1)/2)/Γ(d/2) × Π_{i<(a−1)/2} (d + 1 + 2i)
    value = Fraction(1)
    for i in range((a - 1) // 2):
        value *= d + 1 + 2 * i
    return sp.sqrt(2) * sp.Integer(value.numerator) / (sp.sqrt(sp.pi) * _gamma_d(d))


def r_moment(d: int, s2: sp.Expr, a: int) -> sp.Expr:
    """E[r^a], r = ‖w‖, w ~ N(0, s² I_d/d)."""
    return (s2 / d) ** sp.Rational(a, 2) * rho_moment(d, a)


def b_coefficient(d: int, l: int, n: int, A: sp.Expr, B: sp.Expr) -> sp.Expr:
    """b_{l,n} = E_t[(A t₊^n + B t₋^n) P_l(t)] = Σ_i c_i (A + (−1)^i B)/2 · E|t|^{n+i}."""
    total = sp.Integer(0)
    for i, c in enumerate(legendre_coefficients(d, l)):
        if c == 0:
            continue
        weight = (A + (-1) ** i * B) / 2
        if weight == 0:
            continue
        total += sp.Rational(c.numerator, c.denominator) * weight * abs_t_moment(d, n + i)
    return sp.expand(total)


def radial_matrices(parts: Piecewise, d: int, s2: sp.Expr, l: int
                    ) -> tuple[list[int], list[sp.Expr], sp.Matrix, sp.Matrix]:
    """(degrees n with b_{l,n} ≠ 0, their b_{l,n}, P, Q) of the module docstring."""
    degrees, bs = [], []
    for n in parts.degrees:
        b = b_coefficient(d, l, n, parts.plus.get(n, sp.Integer(0)),
                          parts.minus.get(n, sp.Integer(0)))
        if d <= EXACT_MAX_D:
            b = sp.simplify(b)
        if b != 0:
            degrees.append(n)
            bs.append(b)
    size = len(degrees)
    P = sp.Matrix(size, size, lambda i, j: bs[i] * rho_moment(d, degrees[i] + degrees[j]) * bs[j])
    Q = sp.Matrix(size, size, lambda i, j: r_moment(d, s2, degrees[i] + degrees[j]))
    return degrees, bs, P, Q


def kernel_trace_exact(parts: Piecewise, d: int, s2: sp.Expr) -> sp.Expr:
    """E_w K(w, w) = Σ_{n,n'} E[r^{n+n'}] E_z[σ_n(z) σ_{n'}(z)] (E[z₊^m] = E[z₋^m] = E|z|^m/2)."""
    total = sp.Integer(0)
    for n in parts.degrees:
        for n2 in parts.degrees:
            m = n + n2
            gauss_abs = 2 ** sp.Rational(m, 2) * sp.gamma(sp.Rational(m + 1, 2)) / sp.sqrt(sp.pi)
            cross = (parts.plus.get(n, 0) * parts.plus.get(n2, 0)
                     + parts.minus.get(n, 0) * parts.minus.get(n2, 0)) * gauss_abs / 2
            total += r_moment(d, s2, m) * cross
    return sp.expand(total)
