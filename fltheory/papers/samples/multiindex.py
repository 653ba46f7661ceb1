r"""The leap of a multi-index polynomial target (Abbe, Boix-Adserà & Misiakiewicz 2023), from its
exact Hermite support.

A target f(z_1, …, z_r) of orthonormal coordinates z = Uᵀx (x ~ N(0, I_d), so z ~ N(0, I_r)) is
given as a polynomial in ``z1 … z8`` (numbers are exact rationals, ``He0 … He12`` of one
coordinate allowed). Its expansion in products of probabilists' Hermite polynomials

.. math::

    f = \sum_{\alpha \in \mathbb{N}^r} c_\alpha\, \mathrm{He}_\alpha(z), \qquad
    \mathrm{He}_\alpha(z) = \prod_i \mathrm{He}_{\alpha_i}(z_i),

is computed exactly (z^n = Σ_m n!/(2^m m! (n−2m)!) He_{n−2m}(z), coordinate by coordinate); the
*support* is S = {α ≠ 0 : c_α ≠ 0}. The **leap** (Abbe, Boix-Adserà & Misiakiewicz 2023, the
isotropic-Gaussian leap of their Definition of Leap(f)) is

.. math::

    \mathrm{Leap}(f) = \min_{\pi} \max_{i} \sum_{j \notin \cup_{l<i} \mathrm{supp}\,\alpha^{\pi(l)}}
    \alpha^{\pi(i)}_j ,

the minimum over orderings α^{π(1)}, α^{π(2)}, … of S of the largest *new* degree an element
brings (its degree on coordinates that no earlier element touched). It is computed here by a
monotone closure, not by trying orderings: a threshold L is feasible iff repeatedly adding any
α whose new degree is <= L reaches every coordinate of the support (adding elements only lowers
the others' new degrees, so the closure does not depend on the order of additions); the leap is
the least feasible L. Leap 1 is the merged-staircase case (Abbe, Boix-Adserà & Misiakiewicz
2022: each new coordinate is reached one at a time, e.g. z1 + z1 z2 + z1 z2 z3).

The **stages** are the saddle-to-saddle order of ABM 2023: from the coordinates already learned,
the elements of least new degree ℓ are picked up next (together, on the same time scale), which
adds their new coordinates; the largest ℓ met is the leap (the closure argument again).

**Online SGD scale.** ABM 2023 (abstract, read through the ``search`` tool): "our main
conjecture states that the time complexity to learn a function f with low-dimensional support
is Θ̃(d^{max(Leap(f), 2)})"; "we prove a version of this conjecture for a class of functions on
Gaussian isotropic data and 2-layer neural networks, under additional technical assumptions on
how SGD is run"; the training "sequentially learns the function support with a
saddle-to-saddle dynamic", and the complexity "matches that of Correlational Statistical Query
(CSQ) lower-bounds". The source states a *time*; the table's samples Θ̃(d^{max(Leap − 1, 1)})
are **our reading** (online SGD, one fresh sample per step, each step costing d operations;
for Leap = k on one coordinate this is the online-SGD law d^{max(k−1, 1)} of Ben Arous,
Gheissari & Jagannath 2021), not a statement read in the source. Θ̃ hides logarithmic factors.

**Coordinates.** The leap is *not* rotation invariant: it is computed for the coordinates the
target is written in. The minimum over rotations of the coordinates (what SGD, which is rotation
equivariant, actually faces) is at most this value and is **not computed** here.

**Generative leap** (Damian, Lee & Bruna 2025, read: abstract and introduction through the
``search`` tool: "a natural extension of the generative exponent ... to the multi-index setting";
n = Θ(d^{1 ∨ k*/2}) necessary for low-degree polynomials and sufficient for "an agnostic
sequential estimation procedure ... based on a spectral U-statistic over appropriate Hermite
tensors"). Our reading of the sequential definition: from the subspace S already found, the next
exponent is the least k with E[He_k(z_{S⊥}) | y, z_S] ≠ 0 (a tensor), the span V of its images
is added to S, and k* is the largest exponent met. It is rotation invariant (it is defined on
subspaces). For one coordinate it is the generative exponent of f (the Hermite engine). For two
or more it is computed here exactly from two certificates per step, both exact:

* a *zero*: a sign flip ε ∈ {±1}^r with f(εz) = f(z) that fixes z_S gives E[He_α(z) | y, z_S] =
  ε^α E[He_α(z) | y, z_S], so every α that some such ε makes odd vanishes; when that holds for
  every α of degree k, the step's exponent exceeds k;
* a *non-zero*: the label test T = y^m He_β(z_S) (m <= ``GEN_MAX_POWER``) has E[T He_α(z_{S⊥})]
  = β! α! c_{(β, α)}(f^m), a Hermite coefficient of the polynomial f^m, exact. A non-zero one of
  degree |α| = k gives the step's exponent k, and the columns of the unfolded tensor give
  exact vectors of V; the coordinates they span are added to S when their span is exactly those
  coordinate axes (checked by an exact rank); otherwise the computation stops there.

The first step's exponent k₁ is a lower bound of k*; the largest exponent along the chain is an
upper bound (adding fewer directions than V only delays the closure). When they meet, k* is
exact; otherwise both bounds are reported, with the step and the reason where the computation
stopped.

Standard library only (exact :class:`fractions.Fraction`): a light query.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from fltheory.papers.samples._chain import (  # the chain the non-polynomial path shares
    GenerativeLeap,
    _sign,
    all_odd,
    chain,
    numeric_rank,
)
from fltheory.papers.samples.params import (
    DIRECTION_LIMITS,
    LEAP_LIMITS,
    Poly,
    Target,
    parse_directions,
    parse_polynomial,
)

# the chain's result is this module's public type (documented here, not in the private _chain)
GenerativeLeap.__module__ = __name__

__all__ = [
    "DIRECTION_LIMITS",
    "GEN_MAX_POWER",
    "LEAP_LIMITS",
    "GenerativeLeap",
    "Leap",
    "Stage",
    "all_odd",
    "generative_leap",
    "hermite_support",
    "leap",
    "leap_of",
    "leap_of_support",
    "numeric_rank",
    "parse_directions",
    "parse_polynomial",
]

def _z_power_in_He(n: int) -> dict[int, Fraction]:
    """z^n = Σ_m n!/(2^m m! (n−2m)!) He_{n−2m}(z)."""
    return {n - 2 * m: Fraction(factorial(n), 2 ** m * factorial(m) * factorial(n - 2 * m))
            for m in range(n // 2 + 1)}


def hermite_support(poly: Poly) -> dict[tuple[int, ...], Fraction]:
    """The exact coefficients c_α of Σ c_α He_α(z) (monic He, product over coordinates), zero
    ones dropped; keys are exponent tuples of the same length as ``poly``'s.

    >>> hermite_support({(2,): Fraction(1)})  # z² = He_2 + He_0
    {(0,): Fraction(1, 1), (2,): Fraction(1, 1)}
    """
    out: dict[tuple[int, ...], Fraction] = {}
    for key, coeff in poly.items():
        parts: list[tuple[tuple[int, ...], Fraction]] = [((), coeff)]
        for n in key:
            parts = [((*alpha, j), c * a) for alpha, c in parts
                     for j, a in _z_power_in_He(n).items()]
        for alpha, c in parts:
            out[alpha] = out.get(alpha, Fraction(0)) + c
    return dict(sorted((k, v) for k, v in out.items() if v != 0))


@dataclass(frozen=True)
class Stage:
    """One stage of the saddle-to-saddle order: the least new degree ``increment`` among the
    remaining support elements, the ``coordinates`` (1-based) they add, the ``terms`` (support
    elements of that new degree) that add them, and the online-SGD scale of the stage,
    d^{max(increment − 1, 1)} samples (up to logarithmic factors)."""

    increment: int
    coordinates: tuple[int, ...]
    terms: tuple[tuple[int, ...], ...]

    @property
    def sgd_power(self) -> int:
        """p of the stage's online-SGD scale d^p, p = max(increment − 1, 1)."""
        return max(self.increment - 1, 1)


@dataclass(frozen=True)
class Leap:
    """The leap of a polynomial target for its given coordinates (see the module docstring).

    ``coefficients``: c_α (monic He basis) of the support, α over the ``r`` coordinates that
    appear; ``value``: Leap(f) (0 for a constant; None for a non-polynomial target, whose
    Hermite support is infinite: only its generative leap is computed); ``stages``: the
    saddle-to-saddle order;
    ``generative``: the generative leap where decided exactly, else None, with
    ``generative_reason`` and, for two or more coordinates, ``generative_bounds`` (the
    :class:`GenerativeLeap`); ``directions``: the orthonormal u_1 … u_r given for z = Uᵀx (None:
    the coordinates only)."""

    text: str
    r: int
    coefficients: dict[tuple[int, ...], Fraction]
    value: int | None
    stages: tuple[Stage, ...]
    generative: int | None = None
    generative_reason: str = "not computed"
    generative_bounds: GenerativeLeap | None = None
    directions: tuple[tuple[Fraction, ...], ...] | None = None

    @property
    def merged_staircase(self) -> bool:
        """Leap 1: every coordinate is reached one new degree at a time."""
        return self.value == 1

    @property
    def sgd_power(self) -> int | None:
        """p of the online-SGD sample scale Θ̃(d^p), p = max(Leap − 1, 1) (ABM 2023); None for
        a non-polynomial target (its leap is not computed)."""
        return None if self.value is None else max(self.value - 1, 1)


def _new_degree(alpha: tuple[int, ...], known: set[int]) -> int:
    return sum(a for j, a in enumerate(alpha) if a and j not in known)


def leap_of_support(support: list[tuple[int, ...]]) -> tuple[int, tuple[Stage, ...]]:
    """The leap and the stages of a Hermite support (exponent tuples, the zero tuple ignored).

    >>> leap_of_support([(1, 0, 0), (1, 1, 0), (1, 1, 1)])[0]
    1
    >>> leap_of_support([(1, 1, 1)])[0]
    3
    """
    elems = [a for a in support if any(a)]
    known: set[int] = set()
    stages: list[Stage] = []
    remaining = list(elems)
    while True:
        remaining = [a for a in remaining if _new_degree(a, known) > 0]
        if not remaining:
            break
        least = min(_new_degree(a, known) for a in remaining)
        picked = [a for a in remaining if _new_degree(a, known) == least]
        new = sorted({j for a in picked for j, x in enumerate(a) if x and j not in known})
        stages.append(Stage(least, tuple(j + 1 for j in new), tuple(picked)))
        known.update(new)
    return max((s.increment for s in stages), default=0), tuple(stages)


def leap(text: str, generative: bool = True, directions: str | None = None) -> Leap:
    """The leap of the polynomial target ``text`` in z1 … z8 (module docstring).

    ``generative``: compute the generative leap (for one coordinate it imports the Hermite
    engine, sympy; for two or more it is exact arithmetic on the polynomial); otherwise it is
    reported as not computed. ``directions``: u_1; u_2; … (see :func:`parse_directions`), one
    per coordinate up to the largest used, checked orthonormal exactly.

    >>> L = leap("z1 + z1*z2 + z1*z2*z3", generative=False)
    >>> L.value, L.merged_staircase, [s.coordinates for s in L.stages]
    (1, True, [(1,), (2,), (3,)])
    >>> leap("z1 + z2*z3*z4", generative=False).value
    3
    >>> leap("z1*z2*z3").generative
    2
    """
    return leap_of(Target(text, directions, generative))


def leap_of(target: Target) -> Leap:
    """The leap of a target read once (:class:`~fltheory.papers.samples.params.Target`: its
    polynomial, directions and whether the generative leap is asked for).

    >>> from fltheory.papers.samples.params import Target
    >>> leap_of(Target("z1*z2 + z3", generative=False)).value
    2
    """
    poly, r = target.polynomial, target.r
    if poly is None:  # a non-polynomial target: the generative leap only
        if not target.generative:
            return Leap(target.text, r, {}, None, (), None, "not computed (not asked)", None,
                        target.U)
        from fltheory.papers.samples.nonpoly import function_generative_leap

        found = function_generative_leap(target.text, r)
        return Leap(target.text, r, {}, None, (), found.value, found.reason, found, target.U)
    coeffs = hermite_support(poly)
    used = sorted({j for a in coeffs for j, x in enumerate(a) if x})
    value, stages = leap_of_support(list(coeffs))
    gen, reason, bounds = None, "not computed (not asked)", None
    if len(used) == 1 and target.generative:
        gen, reason = _one_coordinate_generative(coeffs, used[0])
    elif target.generative:
        bounds = generative_leap(poly, coeffs)
        gen, reason = bounds.value, bounds.reason
    return Leap(target.text, r, coeffs, value, stages, gen, reason, bounds, target.U)


#: largest power m of the label test y^m He_β(z_S) tried by :func:`generative_leap`
GEN_MAX_POWER = 4


def _poly_mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            k = tuple(x + y for x, y in zip(ka, kb, strict=True))
            out[k] = out.get(k, Fraction(0)) + va * vb
    return {k: v for k, v in out.items() if v}


def generative_leap(poly: Poly, coeffs: dict[tuple[int, ...], Fraction],
                    max_power: int = GEN_MAX_POWER) -> GenerativeLeap:
    """Bounds on the generative leap of the polynomial ``poly`` (monomial coefficients, the
    exponent tuples cut to the r coordinates; ``coeffs`` its Hermite support), by sign
    symmetries (zeros) and the Hermite coefficients of f^m, m <= ``max_power`` (non-zeros);
    see the module docstring.

    >>> g = generative_leap({(1, 1): Fraction(1)}, {(1, 1): Fraction(1)})  # z1 z2
    >>> g.lower, g.upper, g.steps
    (2, 2, ((2, (1, 2)),))
    """
    r = len(next(iter(coeffs)))
    used = [j for j in range(r) if any(a[j] for a in coeffs)]
    powers = _label_powers(poly, r, max_power)
    kmax = max(sum(g) for h in powers for g in h)
    return chain(powers, _sign_symmetries(coeffs, r), used, r, kmax,
                 "(zeros by sign symmetries of f, non-zeros by Hermite coefficients of f^m)")


def _label_powers(poly: Poly, r: int, max_power: int) -> list[dict[tuple[int, ...], Fraction]]:
    """The Hermite supports of f^m, m <= ``max_power``, kept within the parser's bounds."""
    powers: list[dict[tuple[int, ...], Fraction]] = []
    deg = max(sum(k) for k in poly)
    fm: Poly = {(0,) * r: Fraction(1)}
    for m in range(1, max_power + 1):
        if m * deg > LEAP_LIMITS["total_degree"]:
            break
        fm = _poly_mul(fm, poly)
        if len(fm) > LEAP_LIMITS["terms"]:
            break
        powers.append(hermite_support(fm))
    return powers


def _sign_symmetries(coeffs: dict[tuple[int, ...], Fraction], r: int) -> list[tuple[int, ...]]:
    """The sign flips ε of the coordinates that keep f: ε^α = 1 on the whole support."""
    from itertools import product

    return [e for e in product((1, -1), repeat=r) if all(_sign(e, a) == 1 for a in coeffs)]


def _one_coordinate_generative(coeffs: dict[tuple[int, ...], Fraction], j: int
                               ) -> tuple[int | None, str]:
    """The generative exponent of f(z_j) = Σ c_k He_k(z_j), by the Hermite engine."""
    from fltheory.engine.hermite import generative_exponent

    expr = " + ".join(f"({c})*He{a[j]}(z)" for a, c in coeffs.items())
    e = generative_exponent(expr, kmax=max(2, max(a[j] for a in coeffs)), dps=30)
    return e.value, (f"f depends on z{j + 1} only: the generative leap is the generative "
                     f"exponent of f(z) = {expr} (Hermite engine): {e.value} ({e.reason})")
