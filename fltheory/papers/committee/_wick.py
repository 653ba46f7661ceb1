"""Gaussian moments E[x_1^α_1 ⋯ x_n^α_n] as exact polynomials in the covariance entries
(private helper of :mod:`fltheory.papers.committee.gaussian`).

A polynomial in the entries c_ab (a <= b) of an n × n covariance is a dict mapping an exponent
tuple (one exponent per entry, in the order of :func:`entries`) to an integer or sympy
coefficient. The moments follow from Stein's identity E[x_i F(x)] = Σ_j C_ij E[∂_j F(x)],
applied to the first variable with a positive exponent (memoised by α). This is a second route
to Isserlis' theorem, independent of the matching sum of
:func:`fltheory.papers.quadratic.equations.wick_expectation` (the tests compare the two)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

Poly = dict[tuple[int, ...], Any]


@lru_cache(maxsize=8)
def entries(n: int) -> tuple[tuple[int, int], ...]:
    """The covariance entries (a, b), a <= b, in the order the exponent tuples use."""
    return tuple((a, b) for a in range(n) for b in range(a, n))


@lru_cache(maxsize=8)
def _position(n: int) -> dict[tuple[int, int], int]:
    return {ab: k for k, ab in enumerate(entries(n))}


@lru_cache(maxsize=20000)
def moment(alpha: tuple[int, ...]) -> Poly:
    """E[Π x_i^α_i] as a polynomial in the covariance entries (integer coefficients). The
    returned dict is shared (memoised): do not modify it."""
    n = len(alpha)
    m = len(entries(n))
    if not any(alpha):
        return {(0,) * m: 1}
    if sum(alpha) % 2:
        return {}
    i = next(k for k, e in enumerate(alpha) if e)
    beta = list(alpha)
    beta[i] -= 1
    pos = _position(n)
    out: Poly = {}
    for j in range(n):
        if beta[j] == 0:
            continue
        gamma = list(beta)
        gamma[j] -= 1
        sub = moment(tuple(gamma))
        k = pos[(min(i, j), max(i, j))]
        mult = beta[j]
        for mono, coef in sub.items():
            new = list(mono)
            new[k] += 1
            key = tuple(new)
            out[key] = out.get(key, 0) + mult * coef
    return {k: v for k, v in out.items() if v != 0}


def combine(n: int, factors: list[list[tuple[int, Any]]]) -> Poly:
    """E[Π_i p_i(x_i)] for polynomials p_i given as lists of (power, coefficient): the sum of
    coefficient products times :func:`moment`."""
    out: Poly = {}

    def rec(i: int, powers: tuple[int, ...], coef: Any) -> None:
        if i == n:
            for mono, c in moment(powers).items():
                out[mono] = out.get(mono, 0) + coef * c
            return
        for p, c in factors[i]:
            rec(i + 1, (*powers, p), coef * c)

    rec(0, (), 1)
    return {k: v for k, v in out.items() if v != 0}
