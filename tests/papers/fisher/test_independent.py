"""Fisher spectrum of random ReLU features (fltheory.papers.fisher.theory) a second way at generic
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

from fltheory.papers.fisher import sim
from fltheory.papers.fisher import theory as th


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


# ---------------------------------------------------------------------------------------------
# Small, generic d: exact λ_l by quadrature over the sphere (not Funk–Hecke), and the paper's
# approximate values held by identities that are exact at every d.


def _lambda_on_the_sphere(d: int, l: int, angle: float = 0.7) -> float:
    """λ_l(d) = d·E_û[κ(û·e) Y(û)]/Y(e) for the harmonic Y(û) = Re (û_1 + i û_2)^l (harmonic
    in two variables, hence in d) and e = (cos a, sin a, 0, …): the eigenfunction property of
    T(‖u‖Y) = λ ‖u‖Y (E‖u'‖² = d), integrated directly. The marginal of (û_1, û_2) on S^{d−1}
    (d >= 3) has density ∝ (1 − ρ²)^{(d−4)/2} on the unit disk; ρ = sin ψ turns ρ dρ into
    sin ψ cos^{d−3} ψ dψ (no edge singularity). κ(t) = (√(1 − t²) + (π − arccos t) t)/(2π)
    (Cho & Saul's degree-1 arc-cosine kernel). No Gegenbauer polynomial and no Funk–Hecke
    formula are used."""
    def kappa(t):
        t = min(1.0, max(-1.0, t))
        return (math.sqrt(1 - t * t) + (math.pi - math.acos(t)) * t) / (2 * math.pi)

    ca, sa = math.cos(angle), math.sin(angle)

    def integrand(phi, psi, with_y):
        rho = math.sin(psi)
        a, b = rho * math.cos(phi), rho * math.sin(phi)
        y = math.cos(l * phi) * rho**l if with_y else 1.0  # Re (a + ib)^l
        return kappa(a * ca + b * sa) * y * rho * math.cos(psi) ** (d - 3)

    opts = dict(epsabs=1e-13, epsrel=1e-12)
    num = integrate.dblquad(lambda phi, psi: integrand(phi, psi, True), 0, math.pi / 2,
                            0, 2 * math.pi, **opts)[0]
    den = integrate.dblquad(lambda phi, psi: integrand(phi, psi, False) / kappa(
        math.cos(phi - angle) * math.sin(psi)), 0, math.pi / 2, 0, 2 * math.pi, **opts)[0]
    return d * num / den / math.cos(l * angle)


@pytest.mark.parametrize("d", [3, 5, 7, 10])
def test_exact_levels_against_quadrature_over_the_sphere(d):
    """λ_0..λ_4 of the code (Funk–Hecke + Beta sums) against the direct sphere quadrature at
    generic angle 0.7; λ_3 = 0 (odd l >= 3) and λ_1 = 1/4 come out of the quadrature too."""
    for l in range(5):
        ref = _lambda_on_the_sphere(d, l)
        lev = th.eigenvalue(d, l, 20)
        assert float(lev.value) == pytest.approx(ref, rel=1e-9, abs=1e-11), (d, l)
    assert abs(_lambda_on_the_sphere(d, 3)) < 1e-11
    assert _lambda_on_the_sphere(d, 1) == pytest.approx(0.25, rel=1e-10)


@pytest.mark.parametrize("d", [3, 5, 7, 10])
def test_closed_forms_against_lgamma(d):
    """λ_0 = Γ(d/2 + 1)²/(π Γ((d + 1)/2)²) and λ_2 = λ_0/(d + 1)² (the CLOSED_FORMS the CLI
    prints), written here with math.lgamma, against the code's values and the sphere
    quadrature. Hand values at d = 3: λ_0 = (3√π/4)²/π = 9/16, λ_2 = 9/256."""
    lam0 = math.exp(2 * math.lgamma(d / 2 + 1) - 2 * math.lgamma((d + 1) / 2)) / math.pi
    assert float(th.eigenvalue(d, 0, 20).value) == pytest.approx(lam0, rel=1e-13)
    assert float(th.eigenvalue(d, 2, 20).value) == pytest.approx(lam0 / (d + 1) ** 2, rel=1e-13)
    assert _lambda_on_the_sphere(d, 0) == pytest.approx(lam0, rel=1e-10)
    if d == 3:
        assert th.eigenvalue(3, 0, 20).exact == Fraction(9, 16)
        assert th.eigenvalue(3, 2, 20).exact == Fraction(9, 256)


@pytest.mark.parametrize("d", [3, 5, 7, 10])
def test_paper_values_and_their_exact_identities(d):
    """The paper's cluster values printed beside the exact ones, held at every d, not only by a
    bound at huge d:
    * the values themselves, written here: (2d + 1)/(4π), 1/4, 1/(2π(d + 2)), none for l >= 3;
    * with them the share of the trace d/2 in the three clusters (multiplicities 1, d,
      d(d + 1)/2 − 1) is *exactly* 1/2 + 3/(2π) at every d: (2d + 1)/(2πd) + 1/2 +
      (d + 2)(d − 1)/(2πd(d + 2)) = 1/2 + 3d/(2πd) (d² + d − 2 = (d + 2)(d − 1));
    * the exact share at d = 3 is (9/16 + 3/4 + 5·9/256)/(3/2) = 127/128 (hand, from λ_0 = 9/16,
      λ_2 = 9/256);
    * λ_0 − (2d + 1)/(4π) = 1/(16π(d + 1)) + O(d^{−2}) (Γ(x + 1/2)/Γ(x) = √x(1 − 1/(8x) +
      1/(128x²) + …), x = (d + 1)/2): 16π(d + 1)(λ_0 − paper) − 1 is small;
    * λ_2/paper_2 − 1 = d/(2d² + 4d + 2) + O(d^{−2}) ((2d + 1)(d + 2)/(2(d + 1)²) − 1 at
      first order)."""
    spec = th.spectrum(d, 4, 30)
    paper = [lev.approximation for lev in spec.levels]
    assert float(paper[0]) == pytest.approx((2 * d + 1) / (4 * math.pi), rel=1e-14)
    assert float(paper[1]) == 0.25
    assert float(paper[2]) == pytest.approx(1 / (2 * math.pi * (d + 2)), rel=1e-14)
    assert paper[3] is None and paper[4] is None
    limit = 0.5 + 3 / (2 * math.pi)
    assert float(spec.share.paper) == pytest.approx(limit, rel=1e-14)
    assert float(th.paper_top3_limit()) == pytest.approx(limit, rel=1e-15)
    mults = [1, d, d * (d + 1) // 2 - 1]
    assert [spec.levels[l].multiplicity for l in range(3)] == mults
    by_hand = sum(m * float(p) for m, p in zip(mults, paper[:3], strict=True)) / (d / 2)
    assert by_hand == pytest.approx(limit, rel=1e-14)
    if d == 3:
        assert float(spec.share.top3) == pytest.approx(127 / 128, rel=1e-14)
    lam0, lam2 = float(spec.levels[0].value), float(spec.levels[2].value)
    x = (d + 1) / 2
    assert abs(16 * math.pi * (d + 1) * (lam0 - float(paper[0])) - 1) < 1 / x
    assert abs((lam2 / float(paper[2]) - 1) / (d / (2 * d * d + 4 * d + 2)) - 1) < 2.5 / d
