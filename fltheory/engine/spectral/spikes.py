r"""BBP outliers and overlaps of spiked random matrices: exact for the semicircle and
Marchenko–Pastur bulks, numeric (mpmath) for any bulk given by its density.

**Normalisation (stated once, used by every function here and by every command).**

* *Additive* (Wigner type): M = W + Σ_i θ_i u_i u_iᵀ, u_i orthonormal, W symmetric N × N whose
  spectrum tends to a law μ; the semicircle bulk is W = G/√N with G a GOE matrix whose
  off-diagonal entries have variance 1, so μ is the semicircle on [−2, 2].
* *Multiplicative* (sample covariance): S = Σ^{1/2} X Σ^{1/2}, Σ = I + Σ_i (ℓ_i − 1) v_i v_iᵀ
  (the spike ℓ_i is the population eigenvalue; θ_i = ℓ_i − 1 in Benaych-Georges & Nadakuditi),
  X with spectral law μ; the Marchenko–Pastur bulk is X = Z Zᵀ/n with Z a p × n standard
  Gaussian matrix and γ = p/n, so μ lives on [(1 − √γ)², (1 + √γ)²] (plus an atom 1 − 1/γ at
  0 when γ > 1). Then S = (1/n) Σ_μ x_μ x_μᵀ with x_μ ~ N(0, Σ).
* The *overlap* is the squared cosine ⟨ũ, u⟩² between the unit eigenvector ũ of the outlier
  and the spike's direction u (or v).

**The formulas.** With G(z) = ∫ dμ(x)/(z − x) (Stieltjes transform) and T(z) = ∫ x dμ(x)/(z − x)
= z G(z) − 1, for a bulk on [a, b] (Benaych-Georges & Nadakuditi 2011, Theorems 2.1–2.3 and
2.5–2.7, Adv. Math. 227):

* additive: an outlier above the bulk exists iff θ > θ_c = 1/G(b⁺); it sits at the ρ > b with
  G(ρ) = 1/θ, and the squared overlap is −1/(θ² G'(ρ)); below the bulk the same with
  θ < 1/G(a⁻) < 0 and ρ < a;
* multiplicative: an outlier above the bulk exists iff θ = ℓ − 1 > 1/T(b⁺); it sits at the
  ρ > b with T(ρ) = 1/θ, and the squared overlap is −(1 + θ)/(θ² ρ T'(ρ)). This form is
  derived here from the resolvent identity (S − ρ)ũ = 0 ⟺ (X − ρΣ^{−1})Σ^{1/2}ũ = 0, with
  Σ^{−1} = I − θ/(1 + θ) vvᵀ: w = Σ^{1/2}ũ ∝ (ρ − X)^{−1} v, so ⟨v, ũ⟩² = G²/((1 + θ)(−G') −
  θG²) at ρG(ρ) = 1 + 1/θ, which is the form above (the source text of the paper's Theorem
  2.7 could not be read here; the form agrees with Paul's closed form below to every digit).

Closed forms (exact: rationals and surds in, sympy expressions out):

* semicircle: θ_c = 1, outlier θ + 1/θ, overlap 1 − 1/θ² (|θ| > 1; Péché 2006, Féral & Péché
  2007; BGN 2011 §3.1);
* Marchenko–Pastur: the outlier above exists iff ℓ > 1 + √γ (Baik, Ben Arous & Péché 2005;
  Baik & Silverstein 2006 for real data), at ℓ(1 + γ/(ℓ − 1)), with squared overlap
  (1 − γ/(ℓ − 1)²)/(1 + γ/(ℓ − 1)) (Paul 2007, Theorem 4); below the bulk (γ < 1 only) iff
  ℓ < 1 − √γ, at the same ℓ(1 + γ/(ℓ − 1)) with the same overlap (the resolvent derivation
  above holds on both sides).

At a critical strength (θ = θ_c exactly) the outlier merges with the edge and the overlap is 0
(the *BBP phase transition*, named in each answer). Several spikes at once are answered spike by
spike (BGN 2011, Theorem 2.1: each θ_i is its own equation); equal strengths share one
eigenspace and the overlap is then that of the projection onto it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.args import read_rationals
from fltheory.engine.spectral.bulks import (
    MAX_SAMPLE,
    MIN_SAMPLE,
    Density,
    MarchenkoPastur,
    Sample,
)
from fltheory.exact import DomainError, check_dps, fraction_str

__all__ = ["MAX_SAMPLE", "MAX_SPIKES", "MIN_SAMPLE", "Bulk", "RectangularSpike", "SampleBulk",
           "Spike", "Surd", "bulk_spikes", "density_bulk", "exact_and_decimal", "mp_bulk",
           "mp_spikes",
           "rectangular_spike", "sample_bulk", "sample_spikes", "semicircle_bulk",
           "semicircle_overlap_ratio", "semicircle_spikes", "short_fraction", "stat_digits",
           "stat_text"]

#: At most this many spikes in one query (each numeric spike costs a few quadratures).
MAX_SPIKES = 20
_GUARD = 10  # guard digits of every numeric evaluation; a second run at 2·_GUARD confirms digits


@dataclass(frozen=True)
class Spike:
    """One spike's answer: ``strength`` (θ additive, ℓ multiplicative), the critical
    ``threshold`` on its side of the bulk, the ``phase`` ("outlier", "no outlier" or "critical":
    the BBP transition), the ``outlier`` location (None without one), the squared ``overlap``
    (0 without an outlier), the ``edge`` of the bulk on its side, the ``side`` ("upper" or
    "lower"), whether the numbers are ``exact`` (sympy) or mpmath values with ``digits``
    confirmed significant digits, and the ``reason``."""

    strength: Any
    threshold: Any
    phase: str
    outlier: Any
    overlap: Any
    edge: Any
    side: str
    exact: bool
    digits: int
    reason: str
    #: for an answer from a sample of eigenvalues (:func:`sample_spikes`): the standard errors
    #: of ``threshold``, ``outlier`` and ``overlap`` (None otherwise)
    stderr: dict[str, float] | None = None
    #: the number of eigenvalues of that sample (None otherwise)
    sample_size: int | None = None


def _phase(beyond: bool, critical: bool) -> str:
    return "critical" if critical else ("outlier" if beyond else "no outlier")


class Surd:
    """The exact number a + b·√c (a, b, c rationals, c > 0 not a rational square): thresholds
    and edges of the Marchenko–Pastur bulk. ``str`` is exact text, :meth:`evalf` its value at
    ``dps`` digits.

    >>> str(Surd(Fraction(1), Fraction(1), Fraction(1, 2))), Surd(1, 1, 2).evalf(10)
    ('1 + sqrt(1/2)', '2.414213562')
    """

    __slots__ = ("a", "b", "c")

    def __init__(self, a: Any, b: Any, c: Any):
        self.a, self.b, self.c = Fraction(a), Fraction(b), Fraction(c)

    def __str__(self) -> str:
        root = f"sqrt({fraction_str(self.c)})"
        if self.a == 0:
            return f"{fraction_str(self.b)}*{root}" if self.b != 1 else root
        sign = "+" if self.b > 0 else "-"
        mag = abs(self.b)
        return f"{fraction_str(self.a)} {sign} {'' if mag == 1 else fraction_str(mag) + '*'}{root}"

    __repr__ = __str__

    def evalf(self, dps: int) -> str:
        """The value to ``dps`` significant digits (mpmath with guard digits)."""
        with mpmath.workdps(dps + _GUARD):
            v = (mpmath.mpf(self.a.numerator) / self.a.denominator
                 + mpmath.mpf(self.b.numerator) / self.b.denominator
                 * mpmath.sqrt(mpmath.mpf(self.c.numerator) / self.c.denominator))
            return mpmath.nstr(v, dps)

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * float(self.c) ** 0.5

    def sign_of_difference(self, q: Fraction) -> int:
        """The sign of q − (a + b√c), exactly: compare (q − a) with b√c by squaring."""
        u = q - self.a  # sign(u − b√c)
        if self.b == 0:
            return (u > 0) - (u < 0)
        v2 = self.b * self.b * self.c  # (b√c)² > 0
        if self.b > 0:
            return 1 if u > 0 and u * u > v2 else (0 if u > 0 and u * u == v2 else -1)
        return -1 if u < 0 and u * u > v2 else (0 if u < 0 and u * u == v2 else 1)


def _root_of(q: Fraction) -> Fraction | None:
    """√q when q >= 0 is the square of a rational, else None."""
    from math import isqrt

    n, d = q.numerator, q.denominator
    rn, rd = isqrt(n), isqrt(d)
    return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None


def short_fraction(value: Fraction, limit: int = 24) -> str:
    """An exact rational as text, shortened when its text is longer than ``limit`` characters
    (a decimal to 6 digits and the length of the exact text), so that an input such as 1e300
    is not echoed as a 301-digit integer.

    >>> short_fraction(Fraction(3, 2)), short_fraction(Fraction(10) ** 300)
    ('3/2', '1.00000e+300 (exact: 301 characters)')
    """
    from decimal import Decimal, localcontext

    text = fraction_str(value)
    if len(text) <= limit:
        return text
    with localcontext() as ctx:
        ctx.prec = 8
        shown = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{shown:.5e} (exact: {len(text)} characters)"


def exact_and_decimal(value: Fraction, digits: int = 6) -> str:
    """An exact rational for reading: itself when whole, else followed by its decimal to
    ``digits`` significant digits (rounded from the exact value, no float).

    >>> exact_and_decimal(Fraction(389, 170)), exact_and_decimal(Fraction(4))
    ('389/170 ≈ 2.28824', '4')
    """
    from fltheory.exact import to_decimal_str

    if value.denominator == 1 or len(fraction_str(value)) > 24:
        return short_fraction(value)
    return f"{fraction_str(value)} ≈ {to_decimal_str(value, digits)}"


def semicircle_spikes(thetas: Any) -> tuple[Spike, ...]:
    """Exact BBP answers of M = W + Σ θ_i u_i u_iᵀ, W semicircular on [−2, 2] (module
    docstring): θ_c = ±1, outlier θ + 1/θ and squared overlap 1 − 1/θ² when |θ| > 1. Values are
    :class:`~fractions.Fraction` (exact).

    ``thetas``: one number or a list of at most MAX_SPIKES non-zero rationals (int, Fraction,
    text such as ``"3/2"``, a float as typed).

    >>> s = semicircle_spikes(["3/2", "1/2"])
    >>> [(x.phase, str(x.outlier), str(x.overlap)) for x in s]
    [('outlier', '13/6', '5/9'), ('no outlier', 'None', '0')]
    """
    out = []
    for th in read_rationals(thetas, "theta", most=MAX_SPIKES):
        if th == 0:
            raise DomainError("theta", 0, "θ ≠ 0 (a spike of strength 0 is no spike)")
        side = "upper" if th > 0 else "lower"
        edge, crit = (Fraction(2), Fraction(1)) if th > 0 else (Fraction(-2), Fraction(-1))
        beyond = abs(th) > 1
        outlier: Fraction | None
        if beyond:
            outlier, overlap = th + 1 / th, 1 - 1 / th ** 2
            reason = (f"|θ| = {short_fraction(abs(th))} > 1: outlier at θ + 1/θ = "
                      f"{exact_and_decimal(outlier)}, squared overlap 1 − 1/θ² = "
                      f"{exact_and_decimal(overlap)}")
        else:
            outlier, overlap = None, Fraction(0)
            reason = (f"|θ| = {short_fraction(abs(th))} {'=' if abs(th) == 1 else '<'} 1: "
                      f"{'at the BBP transition: ' if abs(th) == 1 else ''}no outlier, the top "
                      f"eigenvalue sticks to the edge {short_fraction(edge)} and the eigenvector "
                      "carries no information (overlap 0)")
        out.append(Spike(th, crit, _phase(beyond, abs(th) == 1), outlier, overlap, edge, side,
                         True, 0, reason))
    return tuple(out)


def _surd(a: Fraction, b: Fraction, c: Fraction) -> Fraction | Surd:
    root = _root_of(c)
    return a + b * root if root is not None else Surd(a, b, c)


def mp_spikes(ells: Any, gamma: MarchenkoPastur | Any) -> tuple[Spike, ...]:
    """Exact BBP answers of the spiked sample covariance S = Σ^{1/2} X Σ^{1/2}, X
    Marchenko–Pastur of ratio γ = p/n > 0, population eigenvalues ℓ_i > 0 (module docstring):
    outlier ℓ(1 + γ/(ℓ − 1)) and squared overlap (1 − γ/(ℓ − 1)²)/(1 + γ/(ℓ − 1)) when
    ℓ > 1 + √γ (or, for γ < 1, ℓ < 1 − √γ below the bulk). Thresholds and edges are
    :class:`Surd` (or Fraction when √γ is rational), the rest Fraction. ``gamma``: a
    :class:`~fltheory.engine.spectral.bulks.MarchenkoPastur` bulk, or its γ.

    >>> s = mp_spikes(["5/2", 2], "1/3")
    >>> [(x.phase, str(x.outlier), str(x.overlap), str(x.threshold)) for x in s]
    [('outlier', '55/18', '23/33', '1 + sqrt(1/3)'), ('outlier', '8/3', '1/2', '1 + sqrt(1/3)')]
    """
    g = (gamma if isinstance(gamma, MarchenkoPastur) else MarchenkoPastur(gamma)).gamma
    out = []
    for ell in read_rationals(ells, "ell", most=MAX_SPIKES):
        if not ell > 0:
            raise DomainError("ell", fraction_str(ell), "ℓ > 0 (a population variance)")
        upper = ell >= 1
        sgn = Fraction(1 if upper else -1)
        crit = _surd(Fraction(1), sgn, g)
        edge = _surd(1 + g, 2 * sgn, g)
        side = "upper" if upper else "lower"
        cmp = (crit.sign_of_difference(ell) if isinstance(crit, Surd)
               else (ell > crit) - (ell < crit))
        if not upper and g >= 1:
            beyond, critical = False, False
            why = (f"γ = {short_fraction(g)} >= 1: no outlier below the bulk (its lower edge is "
                   "0 or the atom at 0)")
        else:
            beyond = cmp > 0 if upper else cmp < 0
            critical = cmp == 0
            why = ""
        outlier: Fraction | None
        crit_text = f"1 {'+' if upper else '−'} √γ = {float(crit):.6g}"
        if beyond:
            outlier = ell * (1 + g / (ell - 1))
            overlap = (1 - g / (ell - 1) ** 2) / (1 + g / (ell - 1))
            reason = (f"ℓ = {short_fraction(ell)} {'>' if upper else '<'} {crit_text}: outlier at "
                      f"ℓ(1 + γ/(ℓ − 1)) = {exact_and_decimal(outlier)}, squared overlap "
                      f"(1 − γ/(ℓ − 1)²)/(1 + γ/(ℓ − 1)) = {exact_and_decimal(overlap)}")
        else:
            outlier, overlap = None, Fraction(0)
            reason = why or (f"ℓ = {short_fraction(ell)} is {'at' if critical else 'inside'} the "
                             f"threshold {crit_text}{' (the BBP transition)' if critical else ''}"
                             f": no outlier, the extreme eigenvalue sticks to the edge "
                             f"{float(edge):.6g} (overlap 0)")
        out.append(Spike(ell, crit, _phase(beyond, critical), outlier, overlap, edge, side,
                         True, 0, reason))
    return tuple(out)


# --------------------------------------------------------------------------- scaled and rectangular


def semicircle_overlap_ratio(r: Any) -> Any:
    """The squared overlap max(0, 1 − r) of the additive semicircle spike written with the
    noise level: M = σW + θuuᵀ (W as in the module docstring) has an outlier iff θ > σ, with
    squared overlap 1 − σ²/θ², so r = (σ/θ)² >= 0 is the only parameter (θ_c = σ: r = 1 at the
    BBP transition). Exact for a Fraction or an int, double precision for a float, elementwise
    (``numpy.clip``) for a numpy array: the form for callers that work in doubles.

    >>> semicircle_overlap_ratio(Fraction(4, 9)), semicircle_overlap_ratio(1.5)
    (Fraction(5, 9), 0.0)
    >>> import numpy as np
    >>> semicircle_overlap_ratio(np.array([0.25, 2.0])).tolist()
    [0.75, 0.0]
    """
    if isinstance(r, Fraction | int) and not isinstance(r, bool):
        return max(Fraction(0), 1 - Fraction(r))
    if isinstance(r, float):
        return max(0.0, 1 - r)
    import numpy as np

    return np.clip(1 - r, 0.0, None)


@dataclass(frozen=True)
class RectangularSpike:
    """One rectangular spike's answer (:func:`rectangular_spike`): ``theta``, ``c``, the
    ``phase`` ("outlier", "no outlier" or "critical"), the squared top singular value
    ``singular2`` ((1 + √c)², the bulk edge, without an outlier), and the squared overlaps
    ``left`` = ⟨ũ, u⟩² (u ∈ ℝ^N) and ``right`` = ⟨ṽ, v⟩² (v ∈ ℝ^d), 0 without an outlier."""

    theta: Any
    c: Any
    phase: str
    singular2: Any
    left: Any
    right: Any


def rectangular_spike(theta: Any, c: Any) -> RectangularSpike:
    """BBP for rectangular matrices: M = X + θ u vᵀ, X an N × d matrix of independent centred
    entries of variance 1/d (Gaussian), c = N/d in (0, 1], u ∈ ℝ^N and v ∈ ℝ^d unit vectors,
    θ >= 0 (Benaych-Georges & Nadakuditi 2012, *The singular values and vectors of low rank
    perturbations of large rectangular random matrices*, J. Multivariate Anal. 111, §3.1). The
    singular values of X fill [1 − √c, 1 + √c]; an outlier exists iff θ > θ_c = c^{1/4}, with

    * squared singular value σ̃² = (1 + θ²)(c + θ²)/θ²,
    * left overlap ⟨ũ, u⟩² = 1 − c(1 + θ²)/(θ²(θ² + c)),
    * right overlap ⟨ṽ, v⟩² = 1 − (c + θ²)/(θ²(θ² + 1)),

    and without it the top singular value sticks to 1 + √c with both overlaps 0 (at θ = c^{1/4}
    both formulas give 0: the transition is continuous). Exact for Fractions/ints (the test
    θ⁴ > c exactly), double precision for floats (the test θ > c**0.25 in floats, the formulas
    evaluated as written). Checked independently in the tests against the general D-transform
    route of the same paper (Theorems 2.8–2.10) on a quadrature of the Marchenko–Pastur law,
    and by a simulation (N = 800, d = 2000, θ = 1.3, four draws: σ̃² 3.325, overlaps 0.68 and
    0.53 against 3.327, 0.695 and 0.540).

    >>> s = rectangular_spike(Fraction(3, 2), Fraction(1, 2))
    >>> s.phase, s.singular2, s.left, s.right
    ('outlier', Fraction(143, 36), Fraction(73, 99), Fraction(73, 117))
    >>> rectangular_spike(0.5, 0.0625).phase, str(rectangular_spike(Fraction(1, 2), 2/3).phase)
    ('critical', 'no outlier')
    """
    exact = all(isinstance(v, Fraction | int) and not isinstance(v, bool) for v in (theta, c))
    if exact:
        theta, c = Fraction(theta), Fraction(c)
    elif not all(isinstance(v, float | Fraction | int) and not isinstance(v, bool)
                 for v in (theta, c)):
        raise DomainError("theta", theta, "numbers (Fractions or floats) θ >= 0, 0 < c <= 1")
    else:
        theta, c = float(theta), float(c)
    if not 0 < c <= 1:
        raise DomainError("c", c, "0 < c <= 1 (c = N/d, the smaller side first)")
    if not 0 <= theta < float("inf"):
        raise DomainError("theta", theta, "θ >= 0 (finite)")
    if exact:
        beyond, critical = theta ** 4 > c, theta ** 4 == c
        edge: Any = _surd(1 + c, Fraction(2), c)  # (1 + √c)²
    else:
        beyond, critical = theta > c ** 0.25, theta == c ** 0.25
        edge = (1 + c ** 0.5) ** 2
    if not beyond:
        zero = Fraction(0) if exact else 0.0
        return RectangularSpike(theta, c, "critical" if critical else "no outlier", edge, zero,
                                zero)
    t2 = theta ** 2
    return RectangularSpike(theta, c, "outlier", (1 + t2) * (c + t2) / t2,
                            1 - c * (1 + t2) / (t2 * (t2 + c)),
                            1 - (c + theta**2) / (theta**2 * (theta**2 + 1)))


# --------------------------------------------------------------------------- any bulk


class Bulk:
    """A limiting spectral law μ on [a, b] with its Stieltjes transform G(z) = ∫dμ(x)/(z − x)
    and G'(z), evaluated in mpmath at the current precision for z outside [a, b]. Built by
    :func:`density_bulk` (quadrature of a density), :func:`semicircle_bulk` and
    :func:`mp_bulk` (closed forms, used as references)."""

    def __init__(self, name: str, lower: Any, upper: Any,
                 G: Callable[[Any], Any], dG: Callable[[Any], Any],
                 G_edge: Callable[[str], Any], nonnegative: bool):
        self.name, self.lower, self.upper = name, lower, upper
        self.G, self.dG, self._G_edge = G, dG, G_edge
        #: whether μ lives on [0, ∞) (needed by the multiplicative model)
        self.nonnegative = nonnegative

    def edge_value(self, side: str) -> Any:
        """G(b⁺) (``side="upper"``) or G(a⁻) (``"lower"``): finite when the density vanishes
        at the edge fast enough (square-root decay suffices), else ±inf."""
        return self._G_edge(side)

    def __repr__(self) -> str:
        return f"Bulk({self.name!r}, [{self.lower}, {self.upper}])"


def semicircle_bulk() -> Bulk:
    """The semicircle law on [−2, 2]: G(z) = (z − √(z² − 4))/2 (branch G ~ 1/z at ∞).

    >>> b = semicircle_bulk()
    >>> mpmath.nstr(b.G(mpmath.mpf(3)), 12), b.edge_value("upper")
    ('0.38196601125', mpf('1.0'))
    """
    def G(z: Any) -> Any:
        return (z - mpmath.sign(z) * mpmath.sqrt(z * z - 4)) / 2

    def dG(z: Any) -> Any:
        return (1 - mpmath.sign(z) * z / mpmath.sqrt(z * z - 4)) / 2

    return Bulk("semicircle", mpmath.mpf(-2), mpmath.mpf(2), G, dG,
                lambda side: mpmath.mpf(1) if side == "upper" else mpmath.mpf(-1), False)


def mp_bulk(gamma: MarchenkoPastur | Any) -> Bulk:
    """The Marchenko–Pastur law of ratio γ = p/n (0 < γ <= 1: no atom), on [(1 − √γ)²,
    (1 + √γ)²]: G(z) = (z − (1 − γ) − √((z − 1 − γ)² − 4γ))/(2γz) above the bulk. ``gamma``:
    a :class:`~fltheory.engine.spectral.bulks.MarchenkoPastur` bulk, or its γ.

    >>> b = mp_bulk("1/4")
    >>> mpmath.nstr(b.upper, 10), mpmath.nstr(b.edge_value("upper"), 10)
    ('2.25', '1.333333333')
    """
    g = (gamma if isinstance(gamma, MarchenkoPastur) else MarchenkoPastur(gamma)).gamma
    if g > 1:
        raise DomainError("gamma", g, "0 < γ <= 1 for the MP bulk of the numeric route",
                          reason="puts an atom at 0 (use the exact route for γ > 1)")
    gm = mpmath.mpf(g.numerator) / g.denominator
    a, b = (1 - mpmath.sqrt(gm)) ** 2, (1 + mpmath.sqrt(gm)) ** 2

    def G(z: Any) -> Any:
        s = mpmath.sign(z - 1 - gm) * mpmath.sqrt((z - 1 - gm) ** 2 - 4 * gm)
        return (z - (1 - gm) - s) / (2 * gm * z)

    def dG(z: Any) -> Any:
        return mpmath.diff(G, z)

    def edge(side: str) -> Any:
        z = b if side == "upper" else a
        return (z - (1 - gm)) / (2 * gm * z)

    return Bulk(f"Marchenko–Pastur γ = {g}", a, b, G, dG, edge, True)


def _mp_end(value: Any) -> Any:
    """An end of a support (a Fraction, or an exact sympy constant) at the working precision."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value.evalf(mpmath.mp.dps + 5))


def density_bulk(density: Density | Any, support: Any = None, dps: int = 30) -> Bulk:
    """The bulk of a density ρ(x) on [a, b]: a :class:`~fltheory.engine.spectral.bulks.Density`
    (parsed and with its support read), or its expression in x or z of the
    :mod:`fltheory.engine.expressions` grammar (e.g. ``sqrt(Max(4 - x**2, 0))/(2*pi)``) with the
    ``support`` a, b (exact rationals, a < b). Checked before use, at ``dps`` + 10 digits: ρ is
    finite and >= 0 at 401 points of [a, b] and ∫ρ = 1 to 10^{−(dps − 5)} (each failure a
    DomainError naming ``density`` with the value found). G and G' are tanh-sinh quadratures.

    >>> b = density_bulk("sqrt(Max(4 - x**2, 0))/(2*pi)", (-2, 2), dps=15)
    >>> mpmath.nstr(b.G(mpmath.mpf(3)), 10)
    '0.3819660113'
    """
    import sympy as sp

    from fltheory.engine.expressions import Z

    dps = check_dps(dps)
    if not isinstance(density, Density):
        density = Density(density, support)
    lo, hi = density.support
    fn = sp.lambdify(Z, density.parsed, modules="mpmath")
    with mpmath.workdps(dps + _GUARD):
        a, b = _mp_end(lo), _mp_end(hi)
        _check_density(fn, a, b, dps, density.expr)

    def G(z: Any) -> Any:
        return mpmath.quad(lambda x: fn(x) / (z - x), [a, b])

    def dG(z: Any) -> Any:
        return -mpmath.quad(lambda x: fn(x) / (z - x) ** 2, [a, b])

    def edge(side: str) -> Any:
        z = b if side == "upper" else a
        if fn(z) != 0:  # a density non-zero at the edge: G diverges logarithmically there
            return mpmath.inf if side == "upper" else -mpmath.inf
        # the integrable 1/√ singularity at the edge is sampled at nodes x = b − ε where the
        # density's own expression cancels (4 − x² near x = 2): twice the digits keep all
        prec = mpmath.mp.prec
        with mpmath.workprec(2 * prec):
            value = mpmath.quad(lambda x: fn(x) / (z - x), [a, b])
        return +value

    from fltheory.engine.spectral.bulks import support_text

    return Bulk(f"density {density.expr} on [{support_text(lo)}, {support_text(hi)}]", a, b, G,
                dG, edge, lo >= 0)


def _check_density(fn: Callable[[Any], Any], a: Any, b: Any, dps: int, shown: str) -> None:
    allowed = "a density: finite, >= 0 on the support and of integral 1"
    for k in range(401):
        x = a + (b - a) * k / 400
        try:
            v = fn(x)
        except (ZeroDivisionError, ValueError):
            raise DomainError("density", shown, allowed,
                              reason=f"cannot be evaluated at x = {mpmath.nstr(x, 6)}") from None
        if isinstance(v, mpmath.mpc) or not mpmath.isfinite(v):
            raise DomainError("density", shown, allowed,
                              reason=f"is not finite and real at x = {mpmath.nstr(x, 6)}")
        if v < -mpmath.mpf(10) ** (-dps):
            raise DomainError("density", shown, allowed,
                              reason=f"is negative ({mpmath.nstr(v, 6)}) at x = "
                                     f"{mpmath.nstr(x, 6)}")
    total = mpmath.quad(fn, [a, b])
    if abs(total - 1) > mpmath.mpf(10) ** (-(dps - 5)):
        raise DomainError("density", shown, allowed,
                          reason=f"integrates to {mpmath.nstr(total, 12)} on the support, not 1")


def _root(f: Callable[[Any], Any], lo: Any, hi: Any) -> Any:
    """The root of a monotone f on (lo, hi) where f changes sign, by bisection then secant
    polish (bisection alone cannot fail; f is a quadrature, so few calls matter)."""
    f_lo = f(lo)
    for _ in range(30):
        mid = (lo + hi) / 2
        f_mid = f(mid)
        if (f_mid < 0) == (f_lo < 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return mpmath.findroot(f, ((lo + hi) / 2, hi), solver="secant")


def _spike_numeric(bulk: Bulk, theta: Any, model: str) -> tuple[Any, Any, Any, Any, str, str]:
    """(threshold, outlier or None, overlap, edge, side, phase) at the current precision;
    θ = ℓ − 1 for the multiplicative model."""
    side = "upper" if theta > 0 else "lower"
    a, b = bulk.lower, bulk.upper
    edge = b if side == "upper" else a
    g_edge = bulk.edge_value(side)
    if model == "additive":
        target = 1 / theta  # G(ρ) = 1/θ
        threshold = 1 / g_edge if g_edge != 0 else mpmath.inf
        func = bulk.G
        # G(z) lies between 1/(z − a) and 1/(z − b) outside [a, b]: the root lies in
        # [a + θ, b + θ], clipped to the outside of the support
        lo, hi = (max(b, a + theta), b + theta) if side == "upper" else (a + theta,
                                                                         min(a, b + theta))
    else:
        target = 1 / theta  # T(ρ) = ρG(ρ) − 1 = 1/θ

        def func(z: Any) -> Any:
            return z * bulk.G(z) - 1
        t_edge = edge * g_edge - 1
        threshold = 1 / t_edge if t_edge != 0 else mpmath.inf
        # x/(z − x) lies between a/(z − a) and b/(z − b): ρ in [a(1 + θ), b(1 + θ)]
        lo, hi = (max(b, a * (1 + theta)), b * (1 + theta)) if side == "upper" else (
            a * (1 + theta), min(a, b * (1 + theta)))
    beyond = theta > threshold if side == "upper" else theta < threshold
    # within the quadrature's accuracy of θ_c (dps digits of the caller): at the transition
    near = (mpmath.isfinite(threshold) and abs(theta - threshold)
            <= mpmath.mpf(10) ** (_GUARD - mpmath.mp.dps) * max(1, abs(theta)))
    if near or not beyond:
        phase = "critical" if near else "no outlier"
        return threshold, None, mpmath.mpf(0), edge, side, phase
    # strictly outside the support: G is analytic there
    span = abs(hi - lo)
    lo_s = lo + span * mpmath.mpf(10) ** (-mpmath.mp.dps // 2) if lo == edge else lo
    hi_s = hi - span * mpmath.mpf(10) ** (-mpmath.mp.dps // 2) if hi == edge else hi
    rho = _root(lambda z: func(z) - target, lo_s, hi_s)
    if model == "additive":
        overlap = -1 / (theta ** 2 * bulk.dG(rho))
    else:
        dT = bulk.G(rho) + rho * bulk.dG(rho)
        overlap = -(1 + theta) / (theta ** 2 * rho * dT)
    return threshold, rho, overlap, edge, side, "outlier"


def _agree(x: Any, y: Any, dps: int) -> int:
    """Significant digits on which x and y agree (at most dps)."""
    if x is None or y is None:
        return dps
    if x == y:
        return dps
    if not (mpmath.isfinite(x) and mpmath.isfinite(y)):
        return 0
    scale = max(abs(x), abs(y))
    if scale == 0:
        return dps
    rel = abs(x - y) / scale
    return max(0, min(dps, int(mpmath.floor(-mpmath.log10(rel))) - 1))


def bulk_spikes(bulk: Bulk | Callable[[], Bulk], strengths: Any, model: str = "additive",
                dps: int = 30) -> tuple[Spike, ...]:
    """BBP answers for any bulk (module docstring), numeric: each value at ``dps`` + 10 and
    ``dps`` + 20 digits, ``digits`` = the significant digits on which both agree (at most dps).

    ``bulk``: a :class:`Bulk` or a function building one (it is rebuilt at each precision);
    ``strengths``: θ (additive, non-zero) or ℓ (multiplicative, > 0, bulk on [0, ∞));
    ``model``: ``"additive"`` or ``"multiplicative"``.

    >>> s = bulk_spikes(semicircle_bulk, ["3/2"], dps=15)[0]
    >>> mpmath.nstr(s.outlier, 12), mpmath.nstr(s.overlap, 12), s.digits
    ('2.16666666667', '0.555555555556', 15)
    """
    dps = check_dps(dps)
    if model not in ("additive", "multiplicative"):
        raise DomainError("model", model, "additive or multiplicative")
    qs = read_rationals(strengths, "theta" if model == "additive" else "ell", most=MAX_SPIKES)
    runs = [_bulk_run(bulk, qs, model, dps + extra) for extra in (_GUARD, 2 * _GUARD)]
    return tuple(_bulk_spike(q, r1, r2, model, dps)
                 for q, r1, r2 in zip(qs, runs[0], runs[1], strict=True))


def _bulk_run(bulk: Bulk | Callable[[], Bulk], qs: tuple[Fraction, ...], model: str,
              work: int) -> list[tuple[Any, Any, Any, Any, str, str]]:
    """The numeric answers for every strength at ``work`` digits (the bulk rebuilt there)."""
    with mpmath.workdps(work):
        b = bulk() if callable(bulk) and not isinstance(bulk, Bulk) else bulk
        assert isinstance(b, Bulk)
        if model == "multiplicative" and not b.nonnegative:
            raise DomainError("model", model, "additive for a bulk with negative values",
                              reason="needs a bulk on [0, ∞) (X is a covariance)")
        row = []
        for q in qs:
            theta = _numeric_theta(q, model)
            row.append(_spike_numeric(b, mpmath.mpf(theta.numerator) / theta.denominator,
                                      model))
    return row


def _numeric_theta(q: Fraction, model: str) -> Fraction:
    """θ of one strength for the numeric routes (ℓ − 1 when multiplicative): θ = 0 and ℓ = 1 are
    no spike, and ℓ is a population variance (> 0)."""
    if model == "additive" and q == 0:
        raise DomainError("theta", 0, "θ ≠ 0")
    if model == "multiplicative" and (not q > 0 or q == 1):
        raise DomainError("ell", fraction_str(q), "ℓ > 0, ℓ ≠ 1 (ℓ = 1 is no spike)")
    return q - 1 if model == "multiplicative" else q


def _bulk_spike(q: Fraction, r1: tuple[Any, ...], r2: tuple[Any, ...], model: str,
                dps: int) -> Spike:
    """One spike from its two runs: the digits on which they agree, the reason quoting them."""
    th1, rho1, ov1, edge, side, phase = r1
    th2, rho2, ov2, _, _, phase2 = r2
    if phase != phase2:
        raise DomainError("theta" if model == "additive" else "ell", fraction_str(q),
                          "a strength not numerically at the threshold",
                          reason="is at the threshold to the working precision")
    digits = min(_agree(th1, th2, dps), _agree(rho1, rho2, dps), _agree(ov1, ov2, dps))
    what = "θ" if model == "additive" else "ℓ − 1"
    thr_text = mpmath.nstr(th1, min(digits, 12)) if mpmath.isfinite(th1) else "±∞"
    if phase == "outlier":
        reason = (f"{what} = {short_fraction(q if model == 'additive' else q - 1)} beyond the "
                  f"threshold {thr_text}: outlier at {mpmath.nstr(rho2, min(digits, 12))}, "
                  f"squared overlap {mpmath.nstr(ov2, min(digits, 12))}")
    else:
        reason = (f"{what} = {short_fraction(q if model == 'additive' else q - 1)} "
                  f"{'at' if phase == 'critical' else 'within'} the threshold {thr_text}: "
                  "no outlier (overlap 0)")
    strength = q
    threshold = th2 + 1 if model == "multiplicative" and mpmath.isfinite(th2) else th2
    return Spike(strength, threshold, phase, rho2, ov2, edge, side, False, digits, reason)


# ------------------------------------------------------------------- a sample of eigenvalues

#: The bulk of :func:`sample_spikes` (its former name; the parameter object of
#: :mod:`fltheory.engine.spectral.bulks`).
SampleBulk = Sample


def sample_bulk(eigenvalues: Any) -> Sample:
    """A :class:`~fltheory.engine.spectral.bulks.Sample` from eigenvalues (any sequence of real
    numbers, or a numpy array): MIN_SAMPLE to MAX_SAMPLE finite values, not all equal (a
    DomainError naming ``eigenvalues`` otherwise).

    >>> sample_bulk([k / 100 for k in range(-100, 101)]).n
    201
    """
    return Sample(eigenvalues)


def stat_digits(value: float, stderr: float, cap: int = 15) -> int:
    """Significant digits of ``value`` down to the decimal place of the leading digit of two
    standard errors (about 95 %): the last digit kept may be off by a few units, none after it
    carries information. From 0 to ``cap``.

    >>> stat_digits(2.4995, 0.019), stat_digits(0.75, 0.2), stat_digits(1.0, 0.0, 6)
    (3, 1, 6)
    """
    import math

    if stderr <= 0:
        return cap
    if value == 0 or not math.isfinite(value):
        return 0
    places = math.floor(math.log10(abs(value))) - math.floor(math.log10(2 * stderr)) + 1
    return max(0, min(cap, places))


def stat_text(value: float, stderr: float, cap: int = 15) -> str:
    """``value`` as text to :func:`stat_digits` significant digits (trailing zeros kept: they
    are digits the sample supports; at least one digit).

    >>> stat_text(2.4995, 0.019), stat_text(0.98, 0.08), stat_text(1234.5, 30.0)
    ('2.50', '1', '1.23e+03')
    """
    if value == 0:  # an exact zero (no outlier: overlap 0)
        return "0"
    text = f"{value:#.{max(1, stat_digits(value, stderr, cap))}g}"
    mantissa, _, exponent = text.partition("e")
    return mantissa.rstrip(".") + (f"e{exponent}" if exponent else "")


def _sample_terms(lam: Any, z: float, model: str) -> tuple[Any, Any, Any]:
    """The per-eigenvalue terms of F(z) (G_n: 1/(z − λ); T_n: λ/(z − λ)) and of F', F''."""
    r = 1 / (z - lam)
    w = lam if model == "multiplicative" else 1.0
    return w * r, -w * r * r, 2 * w * r * r * r


def _mean_se(terms: Any) -> tuple[float, float]:
    n = terms.size
    return float(terms.mean()), float(terms.std(ddof=1) / n ** 0.5)


def _sample_root(lam: Any, target: float, model: str, side: str) -> float:
    """The z outside the sample with F(z) = target, by bisection (F is monotone there)."""
    lo_edge, hi_edge = float(lam[0]), float(lam[-1])
    span = hi_edge - lo_edge

    def F(z: float) -> float:
        return float(_sample_terms(lam, z, model)[0].mean())

    if side == "upper":
        lo, step = hi_edge, span
        while F(hi_edge + step) > target:
            step *= 2
        hi = hi_edge + step
    else:
        hi, step = lo_edge, span
        lo = 0.0 if model == "multiplicative" else lo_edge - step
        while model != "multiplicative" and F(lo) < target:
            step *= 2
            lo = lo_edge - step
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        # F decreases on both sides (from +∞ above the bulk, to −∞ below it)
        if F(mid) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _edge_scale(bulk: Sample) -> float:
    """ε = (λ_n − λ_1)·n^{−2/3}: the spacing of the extreme eigenvalues at a square-root edge,
    below which the empirical transform is a few eigenvalues' terms, not an average."""
    return (bulk.upper - bulk.lower) * bulk.n ** (-2 / 3)


def _edge_value(lam: Any, model: str, side: str, eps: float) -> tuple[float, float]:
    """F at the bulk's edge, F = G or T: F(b + ε') ≈ F(b) − c√ε' near a square-root edge, so
    2F_n(λ + ε') − F_n(λ + 4ε') cancels the √ε' term (Richardson); ε' = ε and 4ε give two
    such values, whose difference is the estimate's edge error (returned with it)."""
    sign = 1 if side == "upper" else -1
    edge = float(lam[-1] if side == "upper" else lam[0])

    def F(d: float) -> float:
        return float(_sample_terms(lam, edge + sign * d, model)[0].mean())

    f1, f4, f16 = F(eps), F(4 * eps), F(16 * eps)
    near, far = 2 * f1 - f4, 2 * f4 - f16
    return near, abs(near - far)


def sample_spikes(sample: Sample | Any, strengths: Any, model: str = "additive",
                  dps: int = 30) -> tuple[Spike, ...]:
    """BBP answers (module docstring) for a bulk known only through n eigenvalues: the
    empirical transform G_n(z) = (1/n) Σ 1/(z − λ_i) (T_n(z) = (1/n) Σ λ_i/(z − λ_i) for the
    multiplicative model) replaces G (Benaych-Georges & Nadakuditi 2011, the outlier where
    the transform reaches 1/θ, the overlap from its derivative), in double precision.

    **An estimate from n eigenvalues, and how its digits are judged.** Each value gets a
    standard error that treats the λ_i as independent draws of μ: G_n(z) and G_n'(z) are sample
    means, with standard errors s/√n; the root ρ inherits SE(G_n)/|G_n'(ρ)|, and the overlap
    the errors of G_n'(ρ) and of ρ (through G_n''), added in quadrature. For the eigenvalues of
    one random matrix this is conservative (their linear statistics fluctuate O(1/n), not
    O(1/√n)). ``digits`` (and each printed value) keeps only the digits that two standard errors
    leave (:func:`stat_digits`), at most ``dps`` and 15.

    **The edge.** Within ε = (λ_n − λ_1)·n^{−2/3} of the extreme eigenvalue (the spacing of
    the extreme eigenvalues at a square-root edge) G_n is a few eigenvalues' terms, not an
    average, and it diverges at λ_n where G stays finite. The threshold 1/F(b) (F = G or T)
    is estimated by Richardson extrapolation in √ε' (F(b + ε') ≈ F(b) − c√ε'):
    2F_n(λ_n + ε) − F_n(λ_n + 4ε), with a standard error from the same extrapolation at 4ε and
    16ε and from F_n's own error. A root ρ closer than ε to the edge is reported as phase
    ``"unresolved"`` (θ is too near the threshold to decide with this n), or ``"no outlier"``
    when θ is inside the estimated threshold by more than two standard errors; overlap 0.
    The threshold is the least precise number here (its error falls slowly with n: the
    edge's discreteness error is of order 1/(nε), i.e. n^{−1/3}, before any cancellation).

    ``sample``: a :class:`~fltheory.engine.spectral.bulks.Sample` or the eigenvalues it reads;
    ``strengths``: θ (additive, non-zero) or ℓ (multiplicative, > 0, ≠ 1, eigenvalues >= 0).

    >>> import numpy as np
    >>> lam = 2 * np.cos(np.pi * (np.arange(4000) + 0.5) / 4000)  # the arcsine law on [−2, 2]
    >>> s = sample_spikes(lam, ["3/2"])[0]  # G(z) = 1/√(z² − 4) = 2/3 at ρ = 5/2, overlap 3/5
    >>> s.phase, round(s.outlier, 6), round(s.overlap, 6), s.sample_size
    ('outlier', 2.5, 0.6, 4000)
    """
    dps = check_dps(dps)
    if model not in ("additive", "multiplicative"):
        raise DomainError("model", model, "additive or multiplicative")
    bulk = sample if isinstance(sample, Sample) else Sample(sample)
    if model == "multiplicative" and bulk.lower < 0:
        raise DomainError("eigenvalues", f"minimum {bulk.lower:.6g}", "eigenvalues >= 0 for the "
                          "multiplicative model", reason="is negative (X is a covariance)")
    qs = read_rationals(strengths, "theta" if model == "additive" else "ell", most=MAX_SPIKES)
    cap = min(dps, 15)
    return tuple(_sample_spike(bulk, q, model, cap) for q in qs)


@dataclass(frozen=True)
class _SampleEdge:
    """The bulk edge on the side of one spike, with the threshold estimated there."""

    side: str
    edge: float
    eps: float  # the edge scale (:func:`_edge_scale`)
    threshold: float
    se: float  # the threshold's standard error


def _sample_edge(bulk: Sample, q: Fraction, theta: float, model: str) -> _SampleEdge:
    """The edge θ looks at and the threshold 1/F(edge) there, by Richardson extrapolation."""
    import numpy as np

    lam = bulk.eigenvalues
    side = "upper" if theta > 0 else "lower"
    edge = bulk.upper if side == "upper" else bulk.lower
    if model == "multiplicative" and side == "lower" and edge == 0:
        raise DomainError("ell", fraction_str(q), "ℓ > 1 when an eigenvalue is 0",
                          reason="has no room below the bulk")
    eps = _edge_scale(bulk)
    f_edge, edge_err = _edge_value(lam, model, side, eps)
    se_f = _mean_se(_sample_terms(lam, edge + (eps if side == "upper" else -eps),
                                  model)[0])[1]
    threshold = 1 / f_edge
    se_thr = float(np.hypot(edge_err, se_f)) / f_edge ** 2
    return _SampleEdge(side, edge, eps, threshold, se_thr)


def _sample_spike(bulk: Sample, q: Fraction, model: str, cap: int) -> Spike:
    """The answer for one strength: no outlier or unresolved at the edge, else the outlier."""
    theta = float(_numeric_theta(q, model))
    e = _sample_edge(bulk, q, theta, model)
    rho = _sample_root(bulk.eigenvalues, 1 / theta, model, e.side)
    if abs(rho - e.edge) < e.eps:  # the root sits among the extreme eigenvalues' terms
        return _sample_at_edge(bulk, q, theta, e, model, cap)
    return _sample_outlier(bulk, q, theta, rho, e, model, cap)


def _sample_at_edge(bulk: Sample, q: Fraction, theta: float, e: _SampleEdge, model: str,
                    cap: int) -> Spike:
    """A root within the edge scale: no outlier if θ is inside the threshold by two standard
    errors, else unresolved; overlap 0 either way."""
    shift = 1 if model == "multiplicative" else 0  # the field holds ℓ_c = 1 + θ_c
    what = "θ" if model == "additive" else "ℓ − 1"
    thr_text = stat_text(e.threshold, e.se, cap)
    inside = theta < e.threshold - 2 * e.se if e.side == "upper" else \
        theta > e.threshold + 2 * e.se
    phase = "no outlier" if inside else "unresolved"
    reason = (f"estimated threshold {what}_c = {thr_text} ± {e.se:.2g} from "
              f"{bulk.n} eigenvalues; " + (
                  "inside it by more than two standard errors: no outlier (overlap 0)"
                  if inside else
                  "the empirical transform reaches 1/θ within the edge scale "
                  f"{e.eps:.2g} of the extreme eigenvalue: at or too near the threshold "
                  "to decide with this many eigenvalues (overlap 0 reported)"))
    return Spike(q, e.threshold + shift, phase, None, 0.0, e.edge, e.side, False,
                 stat_digits(e.threshold, e.se, cap), reason,
                 {"threshold": e.se, "outlier": 0.0, "overlap": 0.0}, bulk.n)


def _sample_outlier(bulk: Sample, q: Fraction, theta: float, rho: float, e: _SampleEdge,
                    model: str, cap: int) -> Spike:
    """An outlier at the root ρ: the overlap from F_n'(ρ), the standard errors propagated."""
    import numpy as np

    shift = 1 if model == "multiplicative" else 0  # the field holds ℓ_c = 1 + θ_c
    what = "θ" if model == "additive" else "ℓ − 1"
    thr_text = stat_text(e.threshold, e.se, cap)
    t, d1, d2 = _sample_terms(bulk.eigenvalues, rho, model)
    se_F = _mean_se(t)[1]
    dF, se_dF = _mean_se(d1)
    ddF = float(d2.mean())
    se_rho = se_F / abs(dF)
    if model == "additive":
        overlap = -1 / (theta ** 2 * dF)
        rel = float(np.hypot(se_dF / dF, ddF / dF * se_rho))
    else:
        overlap = -(1 + theta) / (theta ** 2 * rho * dF)
        rel = float(np.hypot(se_dF / dF, (ddF / dF + 1 / rho) * se_rho))
    se_ov = abs(overlap) * rel
    d_rho, d_ov = stat_digits(rho, se_rho, cap), stat_digits(overlap, se_ov, cap)
    reason = (f"beyond the estimated threshold {what}_c = {thr_text} ± {e.se:.2g}: "
              f"outlier at {stat_text(rho, se_rho, cap)} ± {se_rho:.2g}, squared overlap "
              f"{stat_text(overlap, se_ov, cap)} ± {se_ov:.2g} (estimates from {bulk.n} "
              "eigenvalues; ± one standard error)")
    return Spike(q, e.threshold + shift, "outlier", rho, overlap, e.edge, e.side, False,
                 min(d_rho, d_ov), reason,
                 {"threshold": e.se, "outlier": se_rho, "overlap": se_ov}, bulk.n)
