"""Λ(α1, α2; L) of Moniri & Hassani (2026), checked against an independent integer computation."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.exact import INF, DomainError
from fltheory.papers.twostep.phases import lambda_count, lambda_details


def _lambda_by_enumeration(i: int, j: int, M: int, L: int | None = None) -> int:
    """Independent reference for α1 = i/M, α2 = j/M (M even): the largest k with
    α2 + k(α1 − 1/2) >= 0, i.e. k(M/2 − i) <= j, found by counting k upwards in integers
    (no division, no floor), then capped at L − 1."""
    k = 0
    while (k + 1) * (M // 2 - i) <= j:
        k += 1
    return k if L is None else min(k, L - 1)


GRID_M = 20  # step 0.05, the grid of `fltheory table lambda`


@pytest.mark.parametrize("L", [None, 1, 2, 3, 5])
def test_full_grid_against_enumeration(L):
    for i in range(GRID_M // 2):
        for j in range(GRID_M // 2):
            got = lambda_count(Fraction(i, GRID_M), Fraction(j, GRID_M), INF if L is None else L)
            assert got == _lambda_by_enumeration(i, j, GRID_M, L), (i, j, L)


def test_fine_grid_against_enumeration():
    M = 200  # step 0.005
    for i in range(M // 2):
        for j in range(0, M // 2, 7):
            assert lambda_count(Fraction(i, M), Fraction(j, M)) == _lambda_by_enumeration(i, j, M)


def test_float_traps_on_the_grid_are_exact():
    """Every grid point where floating-point division gives a wrong floor is right here."""
    traps = []
    for i in range(GRID_M // 2):
        for j in range(GRID_M // 2):
            a1, a2 = i / GRID_M, j / GRID_M
            if math.floor(a2 / (0.5 - a1)) != _lambda_by_enumeration(i, j, GRID_M):
                traps.append((i, j))
    # The grid does contain traps (e.g. α1 = .35, α2 = .15: floats give 0, exactly 1).
    assert (7, 3) in traps and len(traps) >= 3
    for i, j in traps:
        assert lambda_count(Fraction(i, GRID_M), Fraction(j, GRID_M)) == \
            _lambda_by_enumeration(i, j, GRID_M)


def test_values_quoted_in_the_issue():
    assert lambda_count(Fraction(2, 5), Fraction(3, 10)) == 3
    assert lambda_count(Fraction(9, 20), Fraction(3, 10)) == 6


def test_boundary_flag_and_exponents():
    r = lambda_details(Fraction(2, 5), Fraction(3, 10))
    assert r.boundary_k == 3 and r.outliers_of_w2 == 4
    assert [t.exponent for t in r.exponents] == [Fraction(1, 5), Fraction(1, 10), 0,
                                                 Fraction(-1, 10)]
    assert [t.status for t in r.exponents] == ["outlier", "outlier", "boundary", "bulk"]
    # Non-integer ratio: no flag, and the first non-outlier term has a negative exponent.
    r = lambda_details(Fraction(2, 5), Fraction(1, 4))
    assert r.value == 2 and r.boundary_k is None and r.exponents[-1].exponent < 0
    # A boundary beyond the last existing term (K > L − 1) is not flagged.
    assert lambda_details(Fraction(2, 5), Fraction(3, 10), L=3).boundary_k is None
    assert lambda_details(Fraction(2, 5), Fraction(3, 10), L=4).boundary_k == 3
    # α2 = 0 concerns only the k = 0 term, which merges with the one-step spike.
    assert lambda_details(Fraction(1, 4), Fraction(0)).boundary_k is None


alphas = st.fractions(min_value=0, max_value=Fraction(1, 2)).filter(lambda q: q < Fraction(1, 2))


@given(alphas, alphas, alphas)
def test_monotone_in_alpha2(a1, a2, b2):
    lo, hi = sorted((a2, b2))
    assert lambda_count(a1, lo) <= lambda_count(a1, hi)


@given(alphas, alphas, alphas)
def test_monotone_in_alpha1(a1, b1, a2):
    lo, hi = sorted((a1, b1))
    assert lambda_count(lo, a2) <= lambda_count(hi, a2)


@given(alphas, alphas)
def test_zero_iff_one_step_regime(a1, a2):
    assert (lambda_count(a1, a2) == 0) == (a1 + a2 < Fraction(1, 2))


@given(alphas, alphas, st.integers(min_value=1, max_value=6))
def test_capped_by_L(a1, a2, L):
    assert lambda_count(a1, a2, L) == min(L - 1, lambda_count(a1, a2))


@pytest.mark.parametrize(
    ("a1", "a2", "L", "param"),
    [(Fraction(1, 2), Fraction(0), INF, "a1"), (Fraction(-1, 10), Fraction(0), INF, "a1"),
     (Fraction(0), Fraction(1, 2), INF, "a2"), (Fraction(0), Fraction(1), INF, "a2"),
     (Fraction(0), Fraction(0), 0, "L")],
)
def test_domain(a1, a2, L, param):
    with pytest.raises(DomainError, match=rf"^{param} = "):
        lambda_count(a1, a2, L)
