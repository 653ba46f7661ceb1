"""Fisher spectrum of random ReLU features (fltheory.theory.fisher) a second way at generic
dimensions (d = 6, 7, 9; not d = 3, where the weight (1 − t²)^{(d−3)/2} is flat).

The second ways: scipy's Gegenbauer polynomials; the Funk–Hecke integral with the arc-cosine
kernel written here and integrated by scipy; the generating function of harmonic dimensions
(1 + t)/(1 − t)^{d−1}; Monte Carlo over x ~ N(0, I_d) for the Gram matrix and the eigenfunctions;
the simulator's exact finite-m Fisher matrix for the trace.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, special

from fltheory.sim import fisher as sim
from fltheory.theory import fisher as th


def _gegenbauer_normalised(d: int, l: int, t):
    alpha = (d - 2) / 2
    return special.eval_gegenbauer(l, alpha, t) / special.eval_gegenbauer(l, alpha, 1.0)


@pytest.mark.parametrize("d", [4, 6, 7, 9])
@pytest.mark.parametrize("l", [2, 3, 5, 6])
def test_legendre_coefficients_against_scipy_gegenbauer(d, l):
    coeffs = th.legendre_coefficients(d, l)
    t = np.linspace(-1, 1, 13)
    mine = np.polynomial.polynomial.polyval(t, [float(c) for c in coeffs])
    assert np.allclose(mine, _gegenbauer_normalised(d, l, t), rtol=1e-12, atol=1e-12)


def _lambda_by_scipy(d: int, l: int) -> float:
    """λ_l = d E_t[κ(t) P_l(t)], t = cos θ with density ∝ sin^{d−2}θ, κ the degree-1
    arc-cosine kernel (Cho & Saul 2009): κ(cos θ) = (sin θ + (π − θ) cos θ)/(2π)."""
    def kappa(th_):
        return (math.sin(th_) + (math.pi - th_) * math.cos(th_)) / (2 * math.pi)

    num = integrate.quad(lambda a: kappa(a) * _gegenbauer_normalised(d, l, math.cos(a))
                         * math.sin(a) ** (d - 2), 0, math.pi, epsabs=1e-14, epsrel=1e-13)[0]
    den = integrate.quad(lambda a: math.sin(a) ** (d - 2), 0, math.pi, epsabs=1e-14)[0]
    return d * num / den


@pytest.mark.parametrize("d", [6, 7, 9])
@pytest.mark.parametrize("l", [0, 1, 2, 3, 4, 6])
def test_eigenvalue_against_scipy_funk_hecke(d, l):
    lev = th.eigenvalue(d, l, 20)
    ref = _lambda_by_scipy(d, l)
    assert float(lev.value) == pytest.approx(ref, rel=1e-10, abs=1e-13), (d, l)
    if l in (0, 2, 4):
        assert ref > 1e-4
    quad = th.eigenvalue_quadrature(d, l, 20)
    assert float(quad) == pytest.approx(ref, rel=1e-10, abs=1e-13)


@pytest.mark.parametrize("d", [2, 5, 7, 12])
def test_multiplicity_against_the_generating_function(d):
    """Σ_l N(d, l) t^l = (1 + t)/(1 − t)^{d−1}: N(d, l) = C(l+d−2, d−2) + C(l+d−3, d−2)."""
    for l in range(9):
        ref = math.comb(l + d - 2, d - 2) + (math.comb(l + d - 3, d - 2) if l >= 1 else 0)
        assert th.multiplicity(d, l) == ref, (d, l)


def test_gram_against_monte_carlo():
    """E[F_a F_b] for the five representative functions at d = 7: Monte Carlo with 4·10⁵ draws,
    each entry within 6 standard errors (and the exact zeros within 6 SE of 0)."""
    d = 7
    names, G = th.eigenfunction_gram(d)
    rng = np.random.default_rng(17)
    x = rng.standard_normal((400_000, d))
    r = np.linalg.norm(x, axis=1)
    F = np.column_stack([r, x[:, 0], x[:, 0] * x[:, 1] / r, x[:, 0] ** 2 / r,
                         x[:, 0] ** 2 / r - r / d])
    assert len(names) == F.shape[1]
    for i in range(5):
        for j in range(5):
            g = F[:, i] * F[:, j]
            se = g.std() / math.sqrt(len(g))
            assert abs(g.mean() - float(G[i][j])) < 6 * se + 1e-12, (names[i], names[j])
    assert G[0][4] == 0 and G[0][3] == Fraction(1)


def test_eigenfunction_basis_orthogonality_by_monte_carlo():
    """The degree-2 columns (‖x‖ times degree-2 harmonics of x̂) are orthogonal to ‖x‖ (degree
    0) and to x_a (degree 1) in L²(N(0, I_d)), d = 7; Monte Carlo, 6 standard errors. The
    uncorrected x_c²/‖x‖ has E[·‖x‖] = 1, far outside."""
    d = 7
    rng = np.random.default_rng(3)
    x = rng.standard_normal((300_000, d))
    r = np.linalg.norm(x, axis=1)
    B2 = th.eigenfunction_basis(x, 2)
    assert B2.shape[1] == th.multiplicity(d, 2)
    for ref in (r, x[:, 0], x[:, 3]):
        g = B2 * ref[:, None]
        assert np.all(np.abs(g.mean(axis=0)) < 6 * g.std(axis=0) / math.sqrt(len(x)))
    assert np.allclose(th.eigenfunction_basis(x[:5], 0)[:, 0], r[:5])
    assert np.allclose(th.eigenfunction_basis(x[:5], 1), x[:5])


def test_trace_against_the_exact_finite_m_matrix():
    """trace J = Σ_i ‖w_i‖² κ(1) = Σ‖w_i‖²/2 → d/2: the simulator's arc-cosine matrix at
    m = 4000, d = 7 (E Σ‖w_i‖² = d; s.d. of the trace √(2d/m)/2)."""
    d, m = 7, 4000
    W = np.random.default_rng(2).standard_normal((d, m)) / math.sqrt(m)
    J = sim.fisher_matrix(W)
    sd = math.sqrt(2 * d / m) / 2
    assert abs(np.trace(J) - float(th.trace(d))) < 6 * sd
    assert th.trace(d) == Fraction(7, 2)
