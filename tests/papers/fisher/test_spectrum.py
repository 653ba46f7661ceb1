"""The exact Fisher spectrum of random ReLU features, checked by independent routes."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from fltheory.papers.fisher import sim
from fltheory.papers.fisher import theory as th


@pytest.mark.parametrize("d", [2, 3, 5, 10, 100])
@pytest.mark.parametrize("l", [0, 1, 2, 4, 6])
def test_closed_form_against_quadrature_50_digits(d, l):
    """The Gamma-ratio sum (exact, sympy for d <= 1000) against direct mpmath quadrature of the
    Funk–Hecke integral in the angle θ."""
    exact = th.eigenvalue(d, l, 50).value
    quad = th.eigenvalue_quadrature(d, l, 50)
    assert abs(exact - quad) <= mpmath.mpf(10) ** -48 * abs(exact)


@pytest.mark.parametrize("d", [4, 1000, 10**6])
def test_mpmath_path_equals_exact_path(d):
    for l in (0, 2, 4):
        a = th.eigenvalue(d, l, 40, exact=False).value
        if d <= 1000:
            b = th.eigenvalue(d, l, 40, exact=True).value
        else:  # independent route for huge d: quadrature
            b = th.eigenvalue_quadrature(d, l, 40)
        assert abs(a - b) <= mpmath.mpf(10) ** -35 * abs(b), (d, l)


@pytest.mark.parametrize("d", range(2, 14))
def test_stated_closed_forms(d):
    """CLOSED_FORMS (λ_0 = Γ(d/2+1)²/(πΓ((d+1)/2)²), λ_1 = 1/4, λ_2 = λ_0/(d+1)²) equal the
    general sum exactly."""
    lam0 = sp.gamma(sp.Rational(d, 2) + 1) ** 2 / (sp.pi * sp.gamma(sp.Rational(d + 1, 2)) ** 2)
    assert sp.simplify(th.eigenvalue(d, 0).exact - lam0) == 0
    assert th.eigenvalue(d, 1).exact == sp.Rational(1, 4)
    assert sp.simplify(th.eigenvalue(d, 2).exact - lam0 / (d + 1) ** 2) == 0


def test_small_d_values():
    # d = 3: the weight (1 − t²)^0 is flat, every moment is rational: 9/16, 1/4, 9/256.
    assert [th.eigenvalue(3, l).exact for l in range(3)] == [sp.Rational(9, 16),
                                                             sp.Rational(1, 4),
                                                             sp.Rational(9, 256)]


@pytest.mark.parametrize("d", [2, 3, 7])
@pytest.mark.parametrize("l", [3, 5, 7])
def test_odd_degrees_vanish(d, l):
    lev = th.eigenvalue(d, l)
    assert lev.exact == 0 and "odd" in lev.reason
    assert abs(th.eigenvalue_quadrature(d, l, 40)) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("d", [2, 3, 5])
def test_trace_identity(d):
    """Σ_l N(d, l) λ_l = d κ(1) = d/2; the partial sums increase to it."""
    partial = []
    total = mpmath.mpf(0)
    for l in range(0, 61):
        lev = th.eigenvalue(d, l, 30, exact=False)
        total += lev.multiplicity * lev.value
        if l in (10, 30, 60):
            partial.append(d / mpmath.mpf(2) - total)
    assert 0 < partial[2] < partial[1] < partial[0]
    assert partial[2] < 1e-4 * d


def test_multiplicities():
    for d in (2, 3, 7, 50):
        assert th.multiplicity(d, 2) == d * (d + 1) // 2 - 1
        # harmonics of degree <= L span the polynomials of degree <= L on the sphere
        for L in (2, 5):
            assert sum(th.multiplicity(d, l) for l in range(L + 1)) == \
                math.comb(L + d - 1, d - 1) + math.comb(L + d - 2, d - 1)


def test_huge_d_no_overflow_and_paper_limit():
    for d in (10**6, 10**9):
        lev = th.spectrum(d, 2, 30)
        rel0 = abs(lev[0].value - lev[0].approximation) / lev[0].value
        rel2 = abs(lev[2].value - lev[2].approximation) / lev[2].value
        assert rel0 < 1 / d and rel2 < 2 / d
        share = sum(x.multiplicity * x.value for x in lev) / (mpmath.mpf(d) / 2)
        assert abs(share - th.paper_top3_limit()) < 1 / d


def test_gram_exact_entries():
    names, G = th.eigenfunction_gram(4)
    i = {n: k for k, n in enumerate(names)}
    assert G[i["‖x‖"]][i["‖x‖"]] == 4  # E‖x‖² = d
    assert G[i["‖x‖"]][i["x_1²/‖x‖"]] == 1  # E[x_1²]
    assert G[i["‖x‖"]][i["x_1²/‖x‖ − ‖x‖/d"]] == 0  # the correction makes it orthogonal
    assert G[i["x_1"]][i["x_1 x_2/‖x‖"]] == 0


def test_arc_cosine_matrix_against_monte_carlo():
    """The simulator's exact J (arc-cosine formula) against the definition E_x[X Xᵀ] by Monte
    Carlo, entry by entry within 5 standard errors."""
    rng = np.random.default_rng(7)
    W = rng.standard_normal((3, 6)) / np.sqrt(6)
    J = sim.fisher_matrix(W)
    X = np.maximum(rng.standard_normal((400_000, 3)) @ W, 0.0)
    prods = X[:, :, None] * X[:, None, :]
    se = prods.std(axis=0) / math.sqrt(len(X))
    assert np.all(np.abs(prods.mean(axis=0) - J) <= 5 * se)


def test_gap_clusters_uses_no_sizes():
    eig = np.array([2.0, 1.0, 0.99, 0.98, 0.1, 0.095, 0.001])
    assert [len(c) for c in sim.gap_clusters(eig, 3)] == [1, 3, 2]
