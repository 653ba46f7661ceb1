r"""Gegenbauer moments and the Funk–Hecke eigenvalues of a power series, with a bound on what
the truncation leaves out.

Conventions: t = x·y for x, y uniform on S^{d−1} has density ∝ (1 − t²)^{(d−3)/2} on [−1, 1];
P_k is the Gegenbauer (Legendre) polynomial of dimension d with P_k(1) = 1
(:mod:`fltheory.engine.spherical`). The moment

.. math::

    a_{j,k} = \mathbb{E}_t[t^j P_k(t)]
            = \frac{j!\,\Gamma(\frac{j-k+1}{2})\,\Gamma(\frac d2)}
                   {2^k (j-k)!\,\sqrt\pi\,\Gamma(\frac{j+k+d}{2})}
    \qquad (j \ge k,\ j - k \text{ even}; \text{ else } 0)

follows from the Rodrigues formula P_k(t)(1 − t²)^{(d−3)/2} = (−1/2)^k Γ((d−1)/2)/Γ(k + (d−1)/2)
(d/dt)^k (1 − t²)^{k+(d−3)/2}, k integrations by parts and a Beta integral. It is a positive
rational for every integer d >= 2, with a_{k,k} = k!/(d(d+2)…(d+2k−2)) and

.. math::  a_{j+2,k}/a_{j,k} = (j+1)(j+2)/((j-k+2)(j+k+d)).

For κ(t) = Σ_j b_j t^j (Funk–Hecke; Schoenberg: b_j >= 0 for a kernel positive definite on
every sphere) the eigenvalue of degree k is μ_k = Σ_{j >= k, j ≡ k (2)} b_j a_{j,k}: a sum of
non-negative terms, no cancellation at any degree or dimension. In j the moments rise and then
fall: a_{j+2,k} <= a_{j,k} exactly when (d − 1) j >= k² + (d − 2) k − 2d + 2
(:func:`peak`), so a mass m of coefficients at unknown degrees >= J adds at most
m · max_{j >= J} a_{j,k} to μ_k — the bound :func:`funk_hecke` reports.

Standard library and mpmath.
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

__all__ = ["FunkHecke", "funk_hecke", "gegenbauer_moment", "moment_ratio", "peak"]


def gegenbauer_moment(d: int, k: int, j: int) -> Fraction:
    """a_{j,k} = E_t[t^j P_k(t)] on S^{d−1}, exact (0 unless j >= k and j − k is even).

    >>> gegenbauer_moment(3, 0, 2), gegenbauer_moment(10, 0, 4), gegenbauer_moment(3, 2, 2)
    (Fraction(1, 3), Fraction(1, 40), Fraction(2, 15))
    """
    d = check_dimension(d)
    k = read_count(k, "k", 0)
    j = read_count(j, "j", 0)
    if j < k or (j - k) % 2:
        return Fraction(0)
    a = Fraction(math.factorial(k), math.prod(d + 2 * i for i in range(k)))
    for i in range(k, j, 2):
        a *= moment_ratio(d, k, i)
    return a


def moment_ratio(d: int, k: int, j: int) -> Fraction:
    """a_{j+2,k}/a_{j,k} = (j + 1)(j + 2)/((j − k + 2)(j + k + d)) for j >= k, j ≡ k (mod 2).

    >>> moment_ratio(3, 0, 0)
    Fraction(1, 3)
    """
    return Fraction((j + 1) * (j + 2), (j - k + 2) * (j + k + d))


def peak(d: int, k: int) -> int:
    """The degree j* >= k (j* ≡ k mod 2) at which j ↦ a_{j,k} is largest: the sequence rises
    while (d − 1) j < k² + (d − 2) k − 2d + 2 and falls afterwards.

    >>> peak(3, 0), peak(3, 10), peak(2, 4)
    (0, 54, 14)
    """
    threshold = k * k + (d - 2) * k - 2 * d + 2
    j = k
    if threshold > (d - 1) * j:
        j = max(k, -(-threshold // (d - 1)))
        j += (j - k) % 2
    return j


@dataclass(frozen=True)
class FunkHecke:
    """μ_k of a power series on S^{d−1}: ``values[k]`` (mpmath) with ``bounds[k]`` >= |μ_k − value|
    (the truncation of the series and the stated errors of its coefficients), at ``dps``."""

    d: int
    values: tuple[Any, ...]
    bounds: tuple[Any, ...]
    dps: int

    def digits(self, k: int) -> int:
        """Significant digits of μ_k that the bound confirms (``dps`` when the bound is below
        10^−dps of the value; 0 when it is not below the value itself; ``dps`` for an exact 0)."""
        return confirmed_digits(self.values[k], self.bounds[k], self.dps)


def confirmed_digits(value: Any, bound: Any, dps: int) -> int:
    """How many significant digits of ``value`` a bound on its error confirms, at most ``dps``.

    >>> confirmed_digits(mpmath.mpf(1), mpmath.mpf("1e-7"), 30), confirmed_digits(0, 0, 30)
    (6, 30)
    """
    if bound == 0:
        return dps
    if value == 0 or bound >= abs(value):
        return 0
    return max(0, min(dps, int(mpmath.floor(-mpmath.log10(bound / abs(value)))) - 1))


def funk_hecke(d: int, kmax: int, coefficients: Sequence[Any], dps: int, *,
               errors: Sequence[Any] | None = None, tail: tuple[Any, Any] | None = None,
               anywhere: Any = 0) -> FunkHecke:
    """μ_0 … μ_kmax of κ(t) = Σ_j b_j t^j on S^{d−1} from the coefficients b_0 … b_J given
    (non-negative), with a bound on each error.

    ``errors``: |b_j − given| <= errors[j]; ``tail``: the coefficient mass (Σ b_j) of degrees
    > J, (even degrees, odd degrees), both >= 0 (``None``: unknown, then infinite);
    ``anywhere``: a further mass that may sit at any degree (a truncated composition). The
    bound of μ_k adds Σ errors[j] a_{j,k}, tail · max_{j > J} a_{j,k} and
    anywhere · max_j a_{j,k}.

    >>> r = funk_hecke(3, 2, [0, 0, 1], 20, tail=(0, 0))   # κ(t) = t² on S²
    >>> [mpmath.nstr(v, 6) for v in r.values], r.bounds[2]
    (['0.333333', '0.0', '0.133333'], mpf('0.0'))
    """
    d = check_dimension(d)
    J = len(coefficients) - 1
    with mpmath.workdps(dps + 10):
        b = [mpmath.mpf(c) for c in coefficients]
        err = [mpmath.mpf(e) for e in errors] if errors is not None else None
        tails = (None if tail is None else (mpmath.mpf(tail[0]), mpmath.mpf(tail[1])))
        spread = mpmath.mpf(anywhere)
        # suffix masses of the given coefficients by parity: what is left after degree j
        left = [mpmath.mpf(0)] * (J + 3)
        for j in range(J, -1, -1):
            left[j] = left[j + 2] + b[j]
        values, bounds = [], []
        for k in range(kmax + 1):
            value, bound = _one_degree(d, k, J, b, err, tails, spread, left, dps)
            values.append(+value)
            bounds.append(+bound)
    return FunkHecke(d, tuple(values), tuple(bounds), dps)


def _start(d: int, k: int) -> Any:
    """a_{k,k} = k!/(d(d+2)…(d+2k−2)) at the working precision."""
    a = mpmath.mpf(1)
    for i in range(k):
        a = a * (i + 1) / (d + 2 * i)
    return a


def _one_degree(d: int, k: int, J: int, b: list[Any], err: list[Any] | None,
                tails: tuple[Any, Any] | None, spread: Any, left: list[Any], dps: int
                ) -> tuple[Any, Any]:
    a = _start(d, k)
    j_star = peak(d, k)
    a_star = a  # the moment at the peak, met on the way (or beyond J, below)
    value, bound = mpmath.mpf(0), mpmath.mpf(0)
    tiny = mpmath.mpf(10) ** (-(dps + 5))
    j = k
    while j <= J:
        if j == j_star:
            a_star = a
        value += b[j] * a
        if err is not None:
            bound += err[j] * a
        # what the rest of the given coefficients can add: their mass times the largest moment
        # still to come; stop once it is negligible and count it in the bound
        rest = left[j + 2] if j + 2 <= J else mpmath.mpf(0)
        if j >= j_star and rest * a <= tiny * abs(value) and rest > 0:
            bound += rest * a
            if err is not None:
                bound += sum(err[i] for i in range(j + 2, J + 1, 2)) * a
            a = a * moment_ratio_mp(d, k, j)
            j = J + 1 + ((J + 1 - k) % 2)  # first degree beyond J of k's parity
            break
        a = a * moment_ratio_mp(d, k, j)
        j += 2
    # a is now a_{j,k} for the first j > J of k's parity (after an early stop: a larger moment,
    # which only loosens the bound); past the peak the moments fall, before it they rise to it
    # (j* ~ k²/(d − 1): the peak's moment in closed form, not (j* − j)/2 more ratios)
    if j < j_star:
        a = moment_mp(d, k, j_star)
        j = j_star
    beyond = a
    if j_star > J:
        a_star = beyond
    if tails is None:
        bound = mpmath.inf
    else:
        bound += tails[k % 2] * beyond
    if spread:
        bound += spread * a_star
    return value, bound


def moment_mp(d: int, k: int, j: int) -> Any:
    """a_{j,k} at the working precision (j >= k, j ≡ k mod 2), the module docstring's closed
    form with m = (j − k)/2: j! Γ(d/2)/(2^k 4^m m! Γ(k + d/2 + m)), through log-Gamma.

    >>> from fractions import Fraction
    >>> float(moment_mp(10, 4, 40)) == float(gegenbauer_moment(10, 4, 40))
    True
    """
    m = (j - k) // 2
    # the log-Gammas are ~j ln j: as many guard digits as their integer parts take
    with mpmath.workdps(mpmath.mp.dps + len(str(j)) + 5):
        half = mpmath.mpf(d) / 2
        value = mpmath.exp(mpmath.loggamma(j + 1) + mpmath.loggamma(half)
                           - (k + 2 * m) * mpmath.ln2 - mpmath.loggamma(m + 1)
                           - mpmath.loggamma(k + half + m))
    return +value


def moment_ratio_mp(d: int, k: int, j: int) -> Any:
    """a_{j+2,k}/a_{j,k} at the working precision."""
    return mpmath.mpf((j + 1) * (j + 2)) / ((j - k + 2) * (j + k + d))
