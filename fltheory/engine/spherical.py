"""Spherical harmonics on S^{d−1}, the material of every Funk–Hecke computation: the dimension
N(d, l) of the degree-l harmonics and the Legendre (Gegenbauer) polynomial P_l of dimension d,
normalised by P_l(1) = 1, as exact rationals.

Funk–Hecke: for a function κ(x·y) of the inner product of two points of the unit sphere, the
operator f ↦ E_y κ(x·y) f(y) acts on the harmonics of degree l as multiplication by
μ_l = E_t[κ(t) P_l(t)], t distributed as one coordinate of a uniform point of S^{d−1}
(density ∝ (1 − t²)^{(d−3)/2} on [−1, 1]); each μ_l has multiplicity N(d, l).

Standard library only (exact integers and Fractions).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any, Final

from fltheory.args import read_count
from fltheory.exact import DomainError

__all__ = ["MAX_DEGREE", "check_dimension", "legendre_coefficients", "multiplicity"]

#: the highest degree l these functions take: P_l's exact coefficients have O(l) digits each,
#: and N(d, l) ≈ d^{l−1}/(l − 1)! is exact at any size
MAX_DEGREE: Final = 400


def check_dimension(d: Any) -> int:
    """The ambient dimension d of the sphere S^{d−1}: an integer >= 2 (d = 1 has no sphere of
    directions, S^0 is two points).

    >>> check_dimension(3)
    3
    >>> check_dimension(1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 1 has no sphere of directions (S^0) for Funk–Hecke; ...
    """
    if isinstance(d, numbers.Integral) and not isinstance(d, bool) and d == 1:
        raise DomainError("d", d, "integers d >= 2",
                          reason="has no sphere of directions (S^0) for Funk–Hecke")
    return read_count(d, "d", 2)


def multiplicity(d: int, l: int, lmax: int = MAX_DEGREE) -> int:
    """N(d, l): the dimension of the spherical harmonics of degree l on S^{d−1},
    N(d, l) = C(l + d − 1, d − 1) − C(l + d − 3, d − 1) (N(d, 0) = 1, N(d, 1) = d), exact.

    ``d``: integer >= 2; ``l``: integer in [0, ``lmax``].

    >>> [multiplicity(3, l) for l in range(5)]
    [1, 3, 5, 7, 9]
    >>> multiplicity(10, 2) == 10 * 11 // 2 - 1
    True
    """
    d = check_dimension(d)
    l = read_count(l, "l", 0, lmax)
    if l == 0:
        return 1
    if l == 1:
        return d
    return math.comb(l + d - 1, d - 1) - math.comb(l + d - 3, d - 1)


def legendre_coefficients(d: int, l: int, lmax: int = MAX_DEGREE) -> list[Fraction]:
    """Monomial coefficients [c_0, …, c_l] of the Legendre (Gegenbauer) polynomial P_l of
    dimension d, P_l(t) = Σ c_k t^k with P_l(1) = 1, from the recurrence
    (l + d − 2) P_{l+1} = (2l + d − 2) t P_l − l P_{l−1}, P_0 = 1, P_1 = t (exact Fractions).

    ``d``: integer >= 2; ``l``: integer in [0, ``lmax``].

    >>> [str(c) for c in legendre_coefficients(3, 2)]
    ['-1/2', '0', '3/2']
    """
    d = check_dimension(d)
    l = read_count(l, "l", 0, lmax)
    prev: list[Fraction] = [Fraction(1)]
    if l == 0:
        return prev
    cur: list[Fraction] = [Fraction(0), Fraction(1)]
    for n in range(1, l):
        new = [Fraction(0)] * (n + 2)
        for i, c in enumerate(cur):
            new[i + 1] += (2 * n + d - 2) * c
        for i, c in enumerate(prev):
            new[i] -= n * c
        prev, cur = cur, [c / (n + d - 2) for c in new]
    return cur
