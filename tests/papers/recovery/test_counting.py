"""Exact counting of sequential recovery (fltheory.papers.recovery.counting and law): the feature
dimension, the thresholds n_k = C·D/c_k², the recovered count k*(n) decided exactly, and the law's
domain. Each reference is computed a second, independent way (named per test)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.recovery import counting, sim
from fltheory.papers.recovery import theory as th


@pytest.mark.parametrize(("d", "q"), [(1, 1), (3, 2), (5, 3), (7, 4), (4, 6)])
def test_feature_dimension_counts_multi_indices(d, q):
    """Reference: enumerate the degree-q multi-indices over d variables."""
    count = sum(1 for _ in itertools.combinations_with_replacement(range(d), q))
    assert th.feature_dimension(d, q) == count == sim.feature_dim(d, q)


@pytest.mark.parametrize("gamma", [Fraction(1), Fraction(3, 2), Fraction(5, 4), Fraction(2, 3),
                                   Fraction(7, 10)])
def test_recovered_count_against_high_precision_enumeration(gamma):
    """Reference: count k with C·D·k^{2γ} <= n, each compared in mpmath at 60 digits."""
    d, q, C = 30, 2, Fraction(3, 10)
    D = th.feature_dimension(d, q)
    for n in (Fraction(100), Fraction(10**5), Fraction(123456789), Fraction(10**9, 7)):
        with mpmath.workdps(60):
            g = mpmath.mpf(gamma.numerator) / gamma.denominator
            ref = 0
            while (mpmath.mpf(C.numerator) / C.denominator * D * mpmath.power(ref + 1, 2 * g)
                   <= mpmath.mpf(n.numerator) / n.denominator):
                ref += 1
        assert th.recovered_count(n, d, q, gamma, C) == ref


def test_recovered_count_boundary_is_exact():
    """At n = C·D·k^{2γ} exactly, direction k counts (floats can lose it: 0.3·D·k² rounding)."""
    d, q, C = 1000, 3, Fraction(3, 10)
    D = th.feature_dimension(d, q)
    for k in (1, 7, 10, 97):
        n = C * D * k ** 3  # γ = 3/2
        assert th.recovered_count(n, d, q, Fraction(3, 2), C) == k
        assert th.recovered_count(n - Fraction(1, 10**9), d, q, Fraction(3, 2), C) == k - 1


def test_threshold_at_huge_dimension_matches_exact_integer():
    """D(10^6, 4) ≈ 4·10^22: the mpmath threshold at 50 digits equals the exact integer D·k²."""
    d, q = 10**6, 4
    D = th.feature_dimension(d, q)
    for k in (1, 17, 1000):
        value = th.threshold(d, q, k, Fraction(1), Fraction(1), dps=50)
        with mpmath.workdps(60):
            assert value == mpmath.mpf(D * k * k)
    assert th.threshold(10, 2, 1, Fraction(1), dim="dq") == 100


def test_law_domain_and_prefactor_special_value():
    """γ <= 1/2 is a domain error; γ = 1, a_1² = 1: P = 8/(3ζ(2)) = 16/π² (closed form)."""
    with pytest.raises(DomainError, match="gamma"):
        th.law_exponent(Fraction(1, 2))
    assert th.law_exponent(Fraction(3, 2)) == Fraction(-2, 3)
    with mpmath.workdps(40):
        P = th.law_prefactor(Fraction(1), 1, dps=35)
        assert abs(P - 16 / mpmath.pi ** 2) < mpmath.mpf(10) ** -33


@pytest.mark.parametrize("seed", range(6))
def test_recovered_count_log_path_matches_exact_integers(seed):
    """The logarithmic comparison (used when the powers would be huge) against the exact
    integer comparison k^{2u} <= R^v, at random small cases including exact ties."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        u, v = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        R = Fraction(int(rng.integers(1, 10**6)), int(rng.integers(1, 50)))
        k = int(rng.integers(1, 200))
        assert counting._power_leq(k, u, v, R) == (k ** (2 * u) <= R ** v), (k, u, v, R)
    # exact ties: k^{2u} = R^v with R = t^{2u/g}, k = t^{v/g}
    for t, u, v in ((3, 1, 2), (2, 3, 4), (5, 2, 2), (7, 1, 1)):
        g = math.gcd(2 * u, v)
        R, k = Fraction(t ** (2 * u // g)), t ** (v // g)
        assert counting._power_leq(k, u, v, R) and not counting._power_leq(k + 1, u, v, R)
