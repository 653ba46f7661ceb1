r"""Fisher information of random ReLU features: the exact m → ∞ spectrum for any d
(Takeishi et al. line).

Model (Takeishi et al. line; *Approximating Simple ReLU Networks based on Spectral Decomposition of
Fisher Information*): x ~ N(0, I_d), X(x) = relu(xᵀW) ∈ ℝ^m, W ∈ ℝ^{d×m} i.i.d. N(0, 1/m),
f_v(x) = X(x)ᵀv, Fisher matrix J = E_x[X(x) X(x)ᵀ].

.. rubric:: Derivation

*Entries.* For fixed w, w' the pair (w·x, w'·x) is Gaussian, and the degree-1 arc-cosine kernel
(Cho & Saul 2009) gives J_ij = ‖w_i‖‖w_j‖ κ(cos θ_ij) with

.. math::

    \kappa(t) = \frac{\sqrt{1 - t^2} + (\pi - \arccos t)\, t}{2\pi}
               = \frac{\sqrt{1 - t^2} + t \arcsin t}{2\pi} + \frac{t}{4}.

*Operator limit.* Write w_i = u_i/√m, u_i ~ N(0, I_d). Then J = (1/m)[K(u_i, u_j)] with
K(u, u') = ‖u‖‖u'‖ κ(û·û'), and as m → ∞ the spectrum of J converges to that of the integral
operator T g(u) = E_{u'}[K(u, u') g(u')] on L²(N(0, I_d)). Its range consists of functions
‖u‖ h(û), and radius and direction of a Gaussian vector are independent, so with a spherical
harmonic Y_l of degree l,

.. math::

    T(\lVert\cdot\rVert Y_l)(u)
      = \lVert u\rVert\, \mathbb{E}\lVert u'\rVert^2\,
        \mathbb{E}_{\hat u'}[\kappa(\hat u\cdot\hat u')\, Y_l(\hat u')]
      = d\, \mu_l\, \lVert u\rVert\, Y_l(\hat u)

by the Funk–Hecke formula, μ_l = E_t[κ(t) P_l(t)], where P_l is the Legendre (Gegenbauer)
polynomial of dimension d normalised by P_l(1) = 1 and t = û·e has density ∝ (1 − t²)^{(d−3)/2}.
Hence **λ_l(d) = d μ_l** with multiplicity **N(d, l)**, the dimension of degree-l harmonics
(N(d,0) = 1, N(d,1) = d, N(d,2) = d(d+1)/2 − 1):

.. math::

    \lambda_l(d) = d\, \mathbb{E}_t[\kappa(t)\, P_l(t)], \qquad
    N(d, l) = \binom{l + d - 1}{d - 1} - \binom{l + d - 3}{d - 1}.

*Closed forms.* With ν = (d − 3)/2, s = t², and Beta integrals ∫_{−1}^{1} t^{2j}(1 − t²)^a dt =
B(j + 1/2, a + 1): E[t^{2j}√(1 − t²)] = B(j + 1/2, ν + 3/2)/B(1/2, ν + 1); E[t^{2j+2}] =
B(j + 3/2, ν + 1)/B(1/2, ν + 1); and A_j(ν) = ∫ t^{2j+1} arcsin t (1 − t²)^ν dt obeys, by parts
against t(1 − t²)^ν = −((1 − t²)^{ν+1})'/(2(ν + 1)),

.. math::

    A_j(\nu) = \frac{2j\, A_{j-1}(\nu + 1) + B(j + \tfrac12, \nu + \tfrac32)}{2(\nu + 1)},
    \qquad A_0(\nu) = \frac{B(\tfrac12, \nu + \tfrac32)}{2(\nu + 1)}.

Every μ_l is therefore a finite sum of Gamma ratios (``exact=True``: sympy; else mpmath at
``dps`` plus guard digits for the cancellations of P_l's alternating coefficients). sympy
simplifies the first degrees to

.. math::

    \lambda_0 = \frac{\Gamma(d/2 + 1)^2}{\pi\, \Gamma((d + 1)/2)^2}, \qquad
    \lambda_1 = \frac14, \qquad \lambda_2 = \frac{\lambda_0}{(d + 1)^2}

(tested against the general sum), e.g. d = 3: 9/16, 1/4, 9/256. For large d, λ_0 = d/(2π) +
1/(4π) + O(1/d), which is the paper's (2d + 1)/(4π), and λ_2 ≈ 1/(2π(d + 2)) to first order.

*Odd degrees.* The odd part of κ is exactly t/4, a polynomial of degree 1; P_l is orthogonal to it
for l >= 2, so **λ_l = 0 for every odd l >= 3**, and λ_1 = d·E[t²]/4 = 1/4 for every d.

*Trace.* trace J → E[‖u‖²] κ(1) = d/2, and Σ_l N(d, l) λ_l = d κ(1) = d/2 (Funk–Hecke at t = 1).
The three leading clusters carry λ_0 + d/4 + N(d, 2) λ_2 of it: with the paper's values their
share tends to 1/2 + 3/(2π) ≈ 0.977 as d → ∞.

*Eigenfunctions.* For v_i ∝ ‖u_i‖ Y_l(û_i), f_v(x) = Σ_i relu(w_i·x) v_i → c E_u[relu(u·x)
‖u‖ Y_l(û)] = c d ρ_l ‖x‖ Y_l(x/‖x‖), ρ_l = E_t[relu(t) P_l(t)]. So the limit functions are
‖x‖ (l = 0), x_a (l = 1), and for l = 2 the products x_a x_b/‖x‖ (a < b) and
x_c²/‖x‖ − ‖x‖/d — the "correction" is exactly −‖x‖/d, which makes x̂_c² − 1/d a harmonic.
Functions of different degree (or orthogonal harmonics) are exactly orthogonal in L²(N(0, I_d))
since E[‖x‖² Y Y'] = d E_û[Y Y']; the paper's uncorrected x_c²/‖x‖ is not orthogonal to ‖x‖.

.. rubric:: Python API

``spectrum(d, lmax, dps)`` returns a :class:`FisherSpectrum`: a sequence of :class:`FisherLevel`
(exact closed form, mpmath value, multiplicity, the paper's value), the paper's relative errors
and the shares of the trace (:class:`TraceShare`, also ``trace_share``); in a notebook it shows
as a table. Every public function checks its arguments (d >= 2, 0 <= l <= MAX_L, 5 <= dps <= 100,
the work before it starts) and raises :class:`fltheory.exact.DomainError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.args import read_count
from fltheory.engine.spherical import legendre_coefficients as _legendre_coefficients
from fltheory.engine.spherical import multiplicity as _multiplicity
from fltheory.exact import DomainError, check_cost
from fltheory.papers.fisher.params import MAX_L, Levels
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = [
    "CLOSED_FORMS",
    "MAX_L",
    "MAX_SPECTRUM_WORK",
    "FisherLevel",
    "FisherSpectrum",
    "TraceShare",
    "eigenfunction_basis",
    "eigenfunction_gram",
    "eigenvalue",
    "eigenvalue_quadrature",
    "legendre_coefficients",
    "multiplicity",
    "paper_approximation",
    "paper_top3_limit",
    "spectrum",
    "spectrum_of",
    "spectrum_work",
    "trace",
    "trace_share",
]

#: Closed forms of the first degrees, as derived by sympy from the general sum (see tests).
CLOSED_FORMS = {
    0: "Γ(d/2 + 1)² / (π Γ((d + 1)/2)²)",
    1: "1/4",
    2: "Γ(d/2 + 1)² / (π (d + 1)² Γ((d + 1)/2)²) = λ_0/(d + 1)²",
}

_EXACT_MAX_D = 1000  # above this, exact Gamma ratios are huge: mpmath evaluates the same sum

#: digits of the multiplicity N(d, l) ≈ d^{l−1}: Python prints at most 4300, and beyond 1000 no
#: count is meaningful.
MAX_MULTIPLICITY_DIGITS = 1000
#: Work of the spectrum l = 0..lmax: O(lmax³) Beta ratios (the A_j recursion per moment) at
#: P = dps + guard digits, each ~P²: cost ≈ lmax³·P². Measured on the 2-core machine under load
#: (~10): d = 10^6, lmax = 40 (8.5e9) 5.5 s; lmax = 60 (6e10) 23 s; d = 10^16, lmax = 60 (2.7e11)
#: over 120 s. The bound keeps accepted requests under ~15 s.
MAX_SPECTRUM_WORK = 3e10


def spectrum_work(d: int, lmax: int, dps: int = 30) -> float:
    """Estimated work of the levels l = 0..lmax at ``dps`` digits, lmax³·(dps + guard)², in the
    unit of :data:`MAX_SPECTRUM_WORK` (the bound :func:`spectrum` checks before it starts).

    The guard digits, 15 + lmax·(digits(d) + 1), cover the cancellation in P_l's alternating
    coefficients. Arguments as in :func:`spectrum`; returns a float.

    >>> spectrum_work(10, 4, 30)
    207936.0
    """
    p = Levels(d, lmax, dps)
    return _work(p.d, p.lmax, p.dps)


def _work(d: int, lmax: int, dps: int) -> float:
    return float(max(lmax, 1)) ** 3 * float(dps + _guard(d, lmax)) ** 2


def _check_work(d: int, lmax: int, dps: int) -> None:
    digits = (lmax - 1) * math.log10(d) if lmax >= 2 else math.log10(d)
    if digits > MAX_MULTIPLICITY_DIGITS:
        shown = d if d.bit_length() < 100 else f"1e{math.log10(d):.0f} (about)"
        raise DomainError("d", shown, f"d and lmax with N(d, lmax) ≈ d^(lmax−1) of at most "
                          f"{MAX_MULTIPLICITY_DIGITS} digits",
                          reason=f"gives multiplicities of about {digits:.0f} digits at "
                                 f"lmax = {lmax}")
    check_cost(f"lmax = {lmax} (d = {d if d.bit_length() < 64 else f'1e{math.log10(d):.0f}'}, "
               f"dps = {dps})", _work(d, lmax, dps), MAX_SPECTRUM_WORK,
               "operations (lmax³ × precision²)",
               "lower lmax or --dps: the sum loses about lmax·log10(d) digits to cancellation")


def multiplicity(d: int, l: int) -> int:
    """N(d, l): dimension of the spherical harmonics of degree l on S^{d−1}, the multiplicity of
    the eigenvalue λ_l(d) (:func:`fltheory.engine.spherical.multiplicity`, l in [0, MAX_L]).

    >>> [multiplicity(3, l) for l in range(5)]
    [1, 3, 5, 7, 9]
    """
    return _multiplicity(d, l, MAX_L)


def legendre_coefficients(d: int, l: int) -> list[Fraction]:
    """Monomial coefficients of the Legendre (Gegenbauer) polynomial P_l of dimension d with
    P_l(1) = 1 (:func:`fltheory.engine.spherical.legendre_coefficients`, l in [0, MAX_L]).

    >>> [str(c) for c in legendre_coefficients(3, 2)]
    ['-1/2', '0', '3/2']
    """
    return _legendre_coefficients(d, l, MAX_L)


class _Ctx:
    """Arithmetic for the closed forms: sympy (exact) or mpmath (at the current precision)."""

    def __init__(self, exact: bool):
        self.exact = exact
        if exact:
            import sympy as sp

            self.sp = sp
            self.pi = sp.pi
        else:
            self.pi = mpmath.pi

    def q(self, value: Fraction | int) -> Any:
        value = Fraction(value)
        if self.exact:
            return self.sp.Rational(value.numerator, value.denominator)
        return mpmath.mpf(value.numerator) / value.denominator

    def beta(self, a: Fraction, b: Fraction) -> Any:
        if self.exact:
            sp = self.sp
            return sp.gamma(self.q(a)) * sp.gamma(self.q(b)) / sp.gamma(self.q(a + b))
        return mpmath.beta(self.q(a), self.q(b))


def _mu(d: int, l: int, ctx: _Ctx) -> Any:
    """μ_l = E_t[κ(t) P_l(t)] as the finite sum of Beta ratios of the module docstring."""
    half, nu = Fraction(1, 2), Fraction(d - 3, 2)
    Z = ctx.beta(half, nu + 1)

    def A(j: int, n: Fraction) -> Any:
        if j == 0:
            return ctx.beta(half, n + Fraction(3, 2)) / (2 * ctx.q(n + 1))
        return (2 * j * A(j - 1, n + 1) + ctx.beta(j + half, n + Fraction(3, 2))) \
            / (2 * ctx.q(n + 1))

    total = ctx.q(0)
    for k, c in enumerate(legendre_coefficients(d, l)):
        if c == 0:
            continue
        if k % 2 == 0:
            j = k // 2
            moment = (ctx.beta(j + half, nu + Fraction(3, 2)) + A(j, nu)) / (2 * ctx.pi * Z)
        else:
            j = (k - 1) // 2
            moment = ctx.beta(j + Fraction(3, 2), nu + 1) / (4 * Z)
        total += ctx.q(c) * moment
    return total


@dataclass(frozen=True)
class FisherLevel:
    """One eigenvalue level λ_l(d) of the limit Fisher operator, with its multiplicity.

    ``exact`` is the closed form (a sympy expression, or a Fraction where it is rational for
    every d), None when d > 1000 (the Gamma ratios are not expanded); ``value`` the mpmath
    number at the requested digits; ``approximation`` the paper's value (l <= 2) or None;
    ``reason`` why an exact value holds for every d, where one does.
    """

    d: int
    l: int
    multiplicity: int
    exact: Any | None  # sympy expression or Fraction; None when d is too large for Gamma ratios
    value: Any  # mpmath number at dps
    approximation: Any | None  # the paper's value (l <= 2), mpmath
    reason: str = ""

    def _repr_latex_(self) -> str:
        value = _latex(self.exact) if self.exact is not None else mpmath.nstr(self.value, 15)
        return (f"$\\lambda_{{{self.l}}}(d = {self.d}) = {value}$, multiplicity "
                f"${self.multiplicity}$")


def _guard(d: int, l: int) -> int:
    # P_l's coefficients alternate; the sum loses about l·log10(d) digits to cancellation.
    digits = len(str(d)) if d.bit_length() < 14000 else int(d.bit_length() * 0.30103) + 1
    return 15 + l * (digits + 1)


def eigenvalue(d: int, l: int, dps: int = 30, exact: bool | None = None) -> FisherLevel:
    """λ_l(d), the exact m → ∞ eigenvalue of degree l, with multiplicity N(d, l).

    Implements λ_l(d) = d·E_t[κ(t) P_l(t)] (Funk–Hecke; t = û·e with density
    ∝ (1 − t²)^{(d−3)/2}) as the finite sum of Beta ratios of the module docstring.
    ``d``: integer >= 2; ``l``: integer in [0, MAX_L]; ``dps``: digits in [5, 100];
    ``exact``: also derive the sympy closed form (default: d <= 1000). The work is checked
    first (DomainError/CostError). Returns a :class:`FisherLevel` whose ``value`` is an mpmath
    number correct to ``dps`` digits.

    >>> lev = eigenvalue(3, 2)
    >>> lev.exact, lev.multiplicity, mpmath.nstr(lev.value, 6)
    (9/256, 5, '0.0351563')
    >>> eigenvalue(10**6, 3).exact
    Fraction(0, 1)
    """
    p = Levels(d, 0, dps, exact)
    l = read_count(l, "l", 0, MAX_L)
    _check_work(p.d, l, p.dps)
    return _level(p, l)


def _level(p: Levels, l: int) -> FisherLevel:
    """λ_l of :func:`eigenvalue`, the arguments read and the work checked."""
    d, dps, exact = p.d, p.dps, p.exact
    N = _multiplicity(d, l, MAX_L)
    approx = _paper_value(d, l, dps)
    # Exact rationals (no sympy needed) where the docstring proves the value for every d.
    if l % 2 == 1 and l >= 3:
        return FisherLevel(d, l, N, Fraction(0), mpmath.mpf(0), approx,
                           "odd l >= 3: κ's odd part is t/4, orthogonal to P_l")
    if l == 1:
        return FisherLevel(d, l, N, Fraction(1, 4), mpmath.mpf(1) / 4, approx,
                           "λ_1 = d E[t²]/4 = 1/4 for every d")
    use_exact = d <= _EXACT_MAX_D if exact is None else exact
    closed = None
    if use_exact:
        import sympy as sp

        closed = sp.expand(sp.gammasimp(d * _mu(d, l, _Ctx(True))))
        # nsimplify searches a 30-digit evaluation for a simpler number: keep its answer only
        # when it equals the exact value to 100 digits (it can return a number that merely
        # agrees to 15, e.g. nsimplify(1164/7))
        simpler = sp.nsimplify(closed)
        if simpler != closed and abs(sp.N(simpler - closed, 100)) \
                <= sp.Float(10) ** -95 * (1 + abs(sp.N(closed, 100))):
            closed = simpler
        with mpmath.workdps(dps + 10):
            value = mpmath.mpf(sp.N(closed, dps + 10))
    else:
        with mpmath.workdps(dps + _guard(d, l)):
            value = d * _mu(d, l, _Ctx(False))
    with mpmath.workdps(dps):
        value = +value
    return FisherLevel(d, l, N, closed, value, approx)


def eigenvalue_quadrature(d: int, l: int, dps: int = 30) -> Any:
    """λ_l(d) by direct mpmath quadrature of the Funk–Hecke integral (an independent check).

    With t = cos θ the weight (1 − t²)^{(d−3)/2} dt becomes sin^{d−2}θ dθ and κ(cos θ) =
    (sin θ + (π − θ) cos θ)/(2π), so the integrand is smooth on [0, π] for every d:
    λ_l = d ∫_0^π κ(cos θ) P_l(cos θ) sin^{d−2}θ dθ / ∫_0^π sin^{d−2}θ dθ.
    Arguments and bounds as in :func:`eigenvalue`; returns an mpmath number at
    ``dps`` + guard digits, accurate to about ``dps`` digits.

    >>> mpmath.nstr(eigenvalue_quadrature(3, 0, 20), 10)
    '0.5625'
    """
    p = Levels(d, 0, dps)
    l = read_count(l, "l", 0, MAX_L)
    d, dps = p.d, p.dps
    _check_work(d, l, dps)
    coeffs = legendre_coefficients(d, l)
    with mpmath.workdps(dps + _guard(d, l)):
        poly = [mpmath.mpf(c.numerator) / c.denominator for c in reversed(coeffs)]

        def integrand(theta: Any) -> Any:
            c, s = mpmath.cos(theta), mpmath.sin(theta)
            kappa = (s + (mpmath.pi - theta) * c) / (2 * mpmath.pi)
            return kappa * mpmath.polyval(poly, c) * s ** (d - 2)

        # sin^{d−2}θ is a peak of width ~1/√d at π/2: split the interval on that scale.
        half_pi, width = mpmath.pi / 2, 1 / mpmath.sqrt(d)
        offsets = [j * width for j in (1, 4, 16, 64) if j * width < half_pi]
        points = [0, *(half_pi - o for o in reversed(offsets)), half_pi,
                  *(half_pi + o for o in offsets), mpmath.pi]
        num = mpmath.quad(integrand, points)
        den = mpmath.quad(lambda theta: mpmath.sin(theta) ** (d - 2), points)
        return d * num / den


def paper_approximation(d: int, l: int, dps: int = 30) -> Any | None:
    """The paper's cluster values: (2d + 1)/(4π), 1/4 and 1/(2π(d + 2)) for l = 0, 1, 2.

    ``d``: integer >= 2; ``l``: integer in [0, MAX_L]; ``dps``: digits in [5, 100]. Returns an
    mpmath number at ``dps`` + 5 digits, or None for l >= 3 (the paper has no value there).

    >>> mpmath.nstr(paper_approximation(3, 0, 20), 8), paper_approximation(3, 3)
    ('0.5570423', None)
    """
    p = Levels(d, 0, dps)
    return _paper_value(p.d, read_count(l, "l", 0, MAX_L), p.dps)


def _paper_value(d: int, l: int, dps: int) -> Any | None:
    with mpmath.workdps(dps + 5):
        if l == 0:
            return (2 * mpmath.mpf(d) + 1) / (4 * mpmath.pi)
        if l == 1:
            return mpmath.mpf(1) / 4
        if l == 2:
            return 1 / (2 * mpmath.pi * (d + 2))
    return None


def paper_top3_limit(dps: int = 30) -> Any:
    """lim_{d→∞} of the share of the trace in the three leading clusters with the paper's values,
    1/2 + 3/(2π) (mpmath number at ``dps`` + 5 digits; ``dps`` in [5, 100]).

    >>> mpmath.nstr(paper_top3_limit(), 10)
    '0.9774648293'
    """
    dps = Levels(2, 0, dps).dps
    with mpmath.workdps(dps + 5):
        return mpmath.mpf(1) / 2 + 3 / (2 * mpmath.pi)


def trace(d: int) -> Fraction:
    """lim_{m→∞} trace J = E‖u‖² κ(1) = d/2, exact (``d``: integer >= 2).

    >>> trace(3)
    Fraction(3, 2)
    """
    return Fraction(Levels(d).d, 2)


@dataclass(frozen=True)
class TraceShare:
    """Shares of the limit trace d/2 carried by the leading levels of the spectrum.

    ``cumulative[l]`` = Σ_{k <= l} N(d, k) λ_k / (d/2) with the exact λ_k; ``paper`` the same
    sum over the paper's three clusters with the paper's values (None when lmax < 2). mpmath
    numbers at the spectrum's dps + 5 digits.
    """

    cumulative: tuple[Any, ...]
    paper: Any | None

    @property
    def top3(self) -> Any | None:
        """The share of the three leading clusters l = 0, 1, 2 (None when lmax < 2)."""
        return self.cumulative[2] if len(self.cumulative) > 2 else None


def _trace_share(d: int, levels: tuple[FisherLevel, ...], dps: int) -> TraceShare:
    """The one rule for trace shares: Σ N(d, l) λ_l / (d/2), summed at dps + 5 digits."""
    cumulative, total = [], mpmath.mpf(0)
    with mpmath.workdps(dps + 5):
        half = mpmath.mpf(d) / 2
        for lev in levels:
            total += lev.multiplicity * lev.value
            cumulative.append(total / half)
        paper = None
        if len(levels) > 2:
            paper = mpmath.mpf(0)
            for lev in levels[:3]:
                if lev.approximation is not None:  # always, for l <= 2
                    paper += lev.multiplicity * lev.approximation
            paper /= half
    return TraceShare(tuple(cumulative), paper)


def _paper_error(lev: FisherLevel, dps: int) -> Any | None:
    """(paper − λ_l)/λ_l at dps + 5 digits; None without a paper value or where λ_l = 0."""
    if lev.approximation is None or lev.value == 0:
        return None
    with mpmath.workdps(dps + 5):
        return (lev.approximation - lev.value) / lev.value


def _latex(value: object) -> str:
    if value is None:
        return "--"
    if hasattr(value, "free_symbols"):
        import sympy as sp

        return str(sp.latex(value))
    from fltheory.render.latex import latex_fraction

    return latex_fraction(value)


@dataclass(frozen=True)
class FisherSpectrum(ShowsTable):
    """The levels l = 0..lmax of the limit Fisher operator at dimension d (what
    :func:`spectrum` returns): a sequence of :class:`FisherLevel` (index, iterate, ``len``), the
    paper's relative errors, the shares of the trace d/2, and a table (shown in a notebook).
    """

    d: int
    dps: int
    levels: tuple[FisherLevel, ...]
    paper_errors: tuple[Any | None, ...]  # (paper − λ_l)/λ_l, mpmath at dps + 5, or None
    share: TraceShare

    @property
    def lmax(self) -> int:
        """The highest degree in the spectrum."""
        return len(self.levels) - 1

    def __iter__(self) -> Iterator[FisherLevel]:
        return iter(self.levels)

    def __getitem__(self, index: Any) -> Any:
        return self.levels[index]

    def __len__(self) -> int:
        return len(self.levels)

    def __repr__(self) -> str:
        values = ", ".join(str(lev.exact) if lev.exact is not None else mpmath.nstr(lev.value, 8)
                           for lev in self.levels)
        return f"FisherSpectrum(d={self.d}, lmax={self.lmax}, dps={self.dps}: λ = {values})"

    def table(self) -> Table:
        """The spectrum as a table: l, N(d, l), exact λ_l, λ_l, the paper's value, its relative
        error and the cumulative share of the trace (what ``fltheory fisher`` prints)."""
        digits = min(self.dps, 12)
        rows, latex_rows = [], []
        for lev, err, share in zip(self.levels, self.paper_errors, self.share.cumulative,
                                   strict=True):
            approx = "-" if lev.approximation is None else mpmath.nstr(lev.approximation, digits)
            rows.append([str(lev.l), str(lev.multiplicity),
                         "-" if lev.exact is None else str(lev.exact),
                         mpmath.nstr(lev.value, digits), approx,
                         "-" if err is None else mpmath.nstr(err, 3), mpmath.nstr(share, 8)])
            latex_rows.append([str(lev.l), str(lev.multiplicity), f"${_latex(lev.exact)}$",
                               mpmath.nstr(lev.value, 8), approx if approx == "-" else
                               mpmath.nstr(lev.approximation, 8),
                               "--" if err is None else f"${mpmath.nstr(err, 3)}$",
                               mpmath.nstr(share, 6)])
        return Table(
            columns=["l", "N(d,l)", "λ_l exact", "λ_l", "paper", "rel. err.", "cum. share"],
            rows=rows,
            latex_columns=["$l$", "$N(d,l)$", r"$\lambda_l$ exact", r"$\lambda_l$", "paper",
                           "rel.\\ err.", "cum.\\ share"],
            latex_rows=latex_rows,
            caption=f"Exact m → ∞ Fisher eigenvalues of random ReLU features, d = {self.d}",
            latex_caption=(f"Exact $m \\to \\infty$ Fisher eigenvalues of random ReLU features, "
                           f"$d = {self.d}$, against the paper's approximations."),
            label="tab:fltheory-fisher",
            align="rrlrrrr",
        )


def spectrum(d: int, lmax: int = 4, dps: int = 30, exact: bool | None = None
             ) -> FisherSpectrum:
    """The levels l = 0..lmax of the exact m → ∞ Fisher spectrum (:func:`eigenvalue` each),
    with the paper's relative errors and the shares of the trace d/2.

    ``d``: integer >= 2; ``lmax``: integer in [0, MAX_L]; ``dps``: digits in [5, 100];
    ``exact`` as in :func:`eigenvalue`. The work lmax³·(dps + guard)² <= MAX_SPECTRUM_WORK and
    the size of N(d, lmax) (at most 1000 digits) are checked before anything is computed
    (DomainError/CostError). Returns a :class:`FisherSpectrum` (a sequence of levels; a table in
    a notebook).

    >>> spec = spectrum(3, 2)
    >>> spec
    FisherSpectrum(d=3, lmax=2, dps=30: λ = 9/16, 1/4, 9/256)
    >>> [str(lev.exact) for lev in spec], mpmath.nstr(spec.share.top3, 8)
    (['9/16', '1/4', '9/256'], '0.9921875')
    >>> print(spec.table().rows[2])
    ['2', '5', '9/256', '0.03515625', '0.0318309886184', '-0.0946', '0.9921875']
    """
    return spectrum_of(Levels(d, lmax, dps, exact))


def spectrum_of(p: Levels) -> FisherSpectrum:
    """:func:`spectrum` of parameters read once (:class:`~fltheory.papers.fisher.params.Levels`):
    the work checked first, then every level.

    >>> spectrum_of(Levels(3, 1))
    FisherSpectrum(d=3, lmax=1, dps=30: λ = 9/16, 1/4)
    """
    _check_work(p.d, p.lmax, p.dps)
    levels = tuple(_level(p, l) for l in range(p.lmax + 1))
    return FisherSpectrum(p.d, p.dps, levels, tuple(_paper_error(lev, p.dps) for lev in levels),
                          _trace_share(p.d, levels, p.dps))


def trace_share(d: int, lmax: int = 2, dps: int = 30) -> TraceShare:
    """Shares of the limit trace d/2 = Σ_l N(d, l) λ_l carried by the levels l = 0..lmax:
    cumulative with the exact λ_l, and the paper's three clusters with the paper's values.

    Arguments as in :func:`spectrum`. Returns a :class:`TraceShare` (mpmath numbers at dps + 5
    digits); its ``top3`` tends to 1/2 + 3/(2π) as d → ∞ (:func:`paper_top3_limit`).

    >>> s = trace_share(3)
    >>> mpmath.nstr(s.top3, 8), mpmath.nstr(s.paper, 8)
    ('0.9921875', '0.97746483')
    """
    return spectrum(d, lmax, dps).share


def eigenfunction_gram(d: int) -> tuple[list[str], list[list[Fraction]]]:
    """Exact Gram matrix E_x[F_a F_b] of the paper's representative limit functions
    ‖x‖, x_1, x_1x_2/‖x‖, x_1²/‖x‖, and the corrected x_1²/‖x‖ − ‖x‖/d, x ~ N(0, I_d).

    ``d``: integer >= 2. Returns (names, G) with G the 5 × 5 matrix of exact Fractions.

    Each is ‖x‖·p(x̂) with p a polynomial on the sphere, and E[‖x‖² p q] = d E_û[p q]; sphere
    moments follow from Gaussian ones: E_û[Π û_i^{a_i}] = Π (a_i − 1)!! / (d(d+2)…(d+|a|−2)).

    >>> names, G = eigenfunction_gram(3)
    >>> [str(G[0][i]) for i in range(5)]
    ['3', '0', '0', '1', '0']
    """
    from fltheory.engine.hermite import gauss_moment

    d = Levels(d).d

    def sphere_moment(powers: tuple[int, ...]) -> Fraction:
        total = sum(powers)
        num = math.prod(gauss_moment(p) for p in powers)
        den = math.prod(d + 2 * i for i in range(total // 2))
        return Fraction(num, den)

    # p(x̂) as {exponent tuple over (x̂_1, x̂_2): coefficient}
    funcs: list[tuple[str, dict[tuple[int, int], Fraction]]] = [
        ("‖x‖", {(0, 0): Fraction(1)}),
        ("x_1", {(1, 0): Fraction(1)}),
        ("x_1 x_2/‖x‖", {(1, 1): Fraction(1)}),
        ("x_1²/‖x‖", {(2, 0): Fraction(1)}),
        ("x_1²/‖x‖ − ‖x‖/d", {(2, 0): Fraction(1), (0, 0): Fraction(-1, d)}),
    ]
    G = [[Fraction(0)] * len(funcs) for _ in funcs]
    for i, (_, p) in enumerate(funcs):
        for j, (_, q) in enumerate(funcs):
            s = Fraction(0)
            for (a1, a2), c in p.items():
                for (b1, b2), e in q.items():
                    s += c * e * sphere_moment((a1 + b1, a2 + b2))
            G[i][j] = d * s
    return [name for name, _ in funcs], G


#: Memory bound of :func:`eigenfunction_basis`: n × N(d, l) float64 values (2 GiB).
MAX_BASIS_BYTES = 2 * 1024**3


def _inputs(x: Any) -> Any:
    """x as a finite float n × d array with n >= 1 and d >= 2 (else DomainError)."""
    import numpy as np

    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise DomainError("x", type(x).__name__, "an n × d array of real numbers",
                          reason="is not an array of numbers") from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise DomainError("x", f"an array of shape {arr.shape}", "n × d arrays, n >= 1, d >= 2")
    if not np.all(np.isfinite(arr)):
        raise DomainError("x", "an array with NaN or infinite entries", "finite inputs")
    return arr


def eigenfunction_basis(x: Any, l: int) -> Any:
    """The predicted limit functions of degree l at inputs x (n × d, numpy), as columns:
    l = 0: ‖x‖; l = 1: x_a; l = 2: x_a x_b/‖x‖ (a < b) and x_c²/‖x‖ − ‖x‖/d (c < d), a basis of
    ‖x‖ × (degree-2 harmonics of x̂), N(d, 2) columns.

    ``x``: finite n × d array (n >= 1, d >= 2; rows nonzero for l = 2); ``l``: 0, 1 or 2.
    Returns a float n × N(d, l) numpy array (memory n·N(d, l)·8 bytes <= 2 GiB, checked first).

    >>> import numpy as np
    >>> eigenfunction_basis(np.array([[3.0, 4.0]]), 2).round(6).tolist()
    [[2.4, -0.7]]
    """
    import numpy as np

    l = read_count(l, "l", 0, 2)
    x = _inputs(x)
    d = x.shape[1]
    need = 8 * x.shape[0] * multiplicity(d, l)
    if need > MAX_BASIS_BYTES:
        raise DomainError("x", f"an array of shape {x.shape}",
                          f"n·N(d, {l})·8 bytes <= {MAX_BASIS_BYTES >> 30} GiB",
                          reason=f"needs {need / 1024**3:.3g} GiB")
    r = np.linalg.norm(x, axis=1)
    if l == 0:
        return r[:, None]
    if l == 1:
        return np.array(x, dtype=float)
    if not np.all(r > 0):
        raise DomainError("x", "an array with a zero row", "nonzero rows (x/‖x‖ at l = 2)")
    cols = [x[:, a] * x[:, b] / r for a in range(d) for b in range(a + 1, d)]
    cols += [x[:, c] ** 2 / r - r / d for c in range(d - 1)]
    return np.stack(cols, axis=1)
