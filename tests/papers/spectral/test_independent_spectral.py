"""Independent checks of the spectral-threshold kit (fltheory.engine.spectral, papers/spectral).

Every reference here is computed a different way from the code under test, at generic
parameter values: quadrature of the bulk's own density (written here) against the closed forms,
a y-space integral with analytic roots (scipy, doubles) against the z-space mpmath quadrature of
α_c, a continuous-law Lu–Li solve (mpmath, written here) against the discretised solver, and a
small Monte Carlo where the formula has no other published form (the lower MP outlier).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from fltheory.engine.spectral import links, spikes
from fltheory.exact import DomainError


def _stieltjes(density, a, b):
    """G(z) and G'(z) of a density on [a, b] by tanh-sinh quadrature (the reference route)."""
    def G(z):
        return mpmath.quad(lambda x: density(x) / (z - x), [a, b])

    def dG(z):
        return -mpmath.quad(lambda x: density(x) / (z - x) ** 2, [a, b])
    return G, dG


@pytest.mark.parametrize("theta", [Fraction(7, 5), Fraction(13, 4), Fraction(-9, 4)])
def test_semicircle_closed_forms_against_quadrature(theta):
    # reference: the semicircle density √(4 − x²)/(2π) integrated here, the outlier solved from
    # G(ρ) = 1/θ by findroot and the overlap −1/(θ²G'(ρ)) (BGN 2011 Thm 2.3, additive case)
    with mpmath.workdps(30):
        G, dG = _stieltjes(lambda x: mpmath.sqrt(4 - x * x) / (2 * mpmath.pi), -2, 2)
        th = mpmath.mpf(theta.numerator) / theta.denominator
        rho = mpmath.findroot(lambda z: G(z) - 1 / th, 2.5 if th > 0 else -2.5)
        overlap = -1 / (th ** 2 * dG(rho))
        s = spikes.semicircle_spikes([theta])[0]
        assert s.phase == "outlier"
        assert abs(rho - mpmath.mpf(s.outlier.numerator) / s.outlier.denominator) < 1e-25
        assert abs(overlap - mpmath.mpf(s.overlap.numerator) / s.overlap.denominator) < 1e-25


@pytest.mark.parametrize(("ell", "gamma"), [(Fraction(11, 4), Fraction(3, 7)),
                                            (Fraction(9, 2), Fraction(6, 5))])
def test_mp_closed_forms_against_quadrature(ell, gamma):
    # reference: the MP density √((b − x)(x − a))/(2πγx) on [a, b] integrated here (plus the
    # atom 1 − 1/γ at 0 when γ > 1: its G term is (1 − 1/γ)/z), outlier from ρG(ρ) = 1 + 1/θ,
    # θ = ℓ − 1, overlap from the resolvent identity −(1 + θ)/(θ²ρT'(ρ)), T = zG − 1
    with mpmath.workdps(30):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        a, b = (1 - mpmath.sqrt(g)) ** 2, (1 + mpmath.sqrt(g)) ** 2
        Gc, dGc = _stieltjes(lambda x: mpmath.sqrt((b - x) * (x - a)) / (2 * mpmath.pi * g * x),
                             a, b)
        atom = max(mpmath.mpf(0), 1 - 1 / g)
        G = lambda z: Gc(z) + atom / z  # noqa: E731
        dG = lambda z: dGc(z) - atom / z ** 2  # noqa: E731
        th = mpmath.mpf(ell.numerator) / ell.denominator - 1
        rho = mpmath.findroot(lambda z: z * G(z) - 1 - 1 / th, b + 1)
        dT = G(rho) + rho * dG(rho)
        overlap = -(1 + th) / (th ** 2 * rho * dT)
        s = spikes.mp_spikes([ell], gamma)[0]
        assert s.phase == "outlier"
        assert abs(rho - mpmath.mpf(s.outlier.numerator) / s.outlier.denominator) < 1e-20
        assert abs(overlap - mpmath.mpf(s.overlap.numerator) / s.overlap.denominator) < 1e-20


def test_mp_threshold_is_exact_and_transition_named():
    # 1 + √γ with γ = 1/4 is 3/2 (a rational): at ℓ = 3/2 exactly the transition, just above
    # an outlier; with γ = 1/3 the threshold is the surd 1 + √(1/3) ≈ 1.57735
    at, above = spikes.mp_spikes([Fraction(3, 2), Fraction(151, 100)], Fraction(1, 4))
    assert at.phase == "critical" and at.outlier is None and at.overlap == 0
    assert above.phase == "outlier"
    s157, s158 = spikes.mp_spikes([Fraction(157, 100), Fraction(158, 100)], Fraction(1, 3))
    assert (s157.phase, s158.phase) == ("no outlier", "outlier")
    assert str(s157.threshold) == "1 + sqrt(1/3)"


def test_mp_lower_outlier_monte_carlo():
    # reference: sampled S = ZZᵀ/n with the first row of Z scaled by √ℓ (p = 300, n = 2700,
    # γ = 1/9, ℓ = 1/5: below 1 − √γ = 2/3), 12 draws; the bottom eigenvalue and its overlap
    # against ℓ(1 + γ/(ℓ − 1)) = 31/180 and 119/124 within 4 standard errors plus the O(1/p)
    # finite-size bias bound 3/p (the claims measure the bias of the upper outlier: |b/p| < 0.01)
    s = spikes.mp_spikes([Fraction(1, 5)], Fraction(1, 9))[0]
    assert (s.outlier, s.overlap) == (Fraction(31, 180), Fraction(119, 124))
    rng = np.random.default_rng(12345)
    vals, ovs = [], []
    for _ in range(12):
        z = rng.standard_normal((300, 2700))
        z[0] *= math.sqrt(0.2)
        w, v = np.linalg.eigh(z @ z.T / 2700)
        vals.append(w[0])
        ovs.append(v[0, 0] ** 2)
    for data, pred in ((vals, 31 / 180), (ovs, 119 / 124)):
        m, se = np.mean(data), np.std(data, ddof=1) / math.sqrt(len(data))
        assert abs(m - pred) < 4 * se + 3 / 300, (m, se, pred)


def test_density_route_reproduces_closed_forms():
    # the numeric BBP route (density → quadrature → root) against the closed forms, additive on
    # the semicircle density and multiplicative on the MP density with γ = 1/4 (support
    # [1/4, 9/4], rational): agreement to 25 digits at dps 30
    mpmath.mp.dps = 30  # the comparisons below (the conftest fixture restores the precision)
    sc = spikes.bulk_spikes(lambda: spikes.density_bulk("sqrt(Max(4 - x**2, 0))/(2*pi)",
                                                         (-2, 2), 30), ["7/5", "-9/4"], dps=30)
    for s, exact in zip(sc, spikes.semicircle_spikes(["7/5", "-9/4"]), strict=True):
        assert s.digits >= 25
        assert abs(s.outlier - mpmath.mpf(exact.outlier.numerator) / exact.outlier.denominator
                   ) < 1e-25
        assert abs(s.overlap - mpmath.mpf(exact.overlap.numerator) / exact.overlap.denominator
                   ) < 1e-25
    dens = "sqrt(Max((9/4 - x)*(x - 1/4), 0))/(2*pi*(1/4)*x)"
    mp_num = spikes.bulk_spikes(lambda: spikes.density_bulk(dens, ("1/4", "9/4"), 30),
                                ["11/4"], "multiplicative", 30)[0]
    exact = spikes.mp_spikes(["11/4"], "1/4")[0]
    assert abs(mp_num.outlier - mpmath.mpf(exact.outlier.numerator) / exact.outlier.denominator
               ) < 1e-25
    assert abs(mp_num.overlap - mpmath.mpf(exact.overlap.numerator) / exact.overlap.denominator
               ) < 1e-25
    assert abs(mp_num.threshold - mpmath.mpf(3) / 2) < 1e-25  # ℓ_c = 1 + √(1/4)


def _alpha_c_y_space(p_coeffs):
    """1/E_y[(m(y) − 1)²] for g(z) = p(z²), p a monic quadratic u² + c1 u + c0 (the reference:
    roots u± = (−c1 ± √(c1² − 4(c0 − y)))/2 analytically, density of y and m(y) from the
    co-area weights φ(√u)/(√u|p'(u)|), scipy quad over y in doubles)."""
    from scipy.integrate import quad

    c1, c0 = p_coeffs
    vertex = -c1 / 2  # u at the minimum of p
    y_min, y0 = c0 - c1 * c1 / 4, c0  # p(vertex), p(0)

    def parts(y):
        disc = math.sqrt(max(c1 * c1 - 4 * (c0 - y), 0.0))
        roots = [u for u in ((-c1 + disc) / 2, (-c1 - disc) / 2) if u > 0]
        ws = [math.exp(-u / 2) / math.sqrt(2 * math.pi) / (math.sqrt(u) * abs(2 * u + c1))
              for u in roots]
        return roots, ws

    def integrand(y):
        roots, ws = parts(y)
        total = sum(ws)
        m = sum(u * w for u, w in zip(roots, ws, strict=True)) / total
        return total * (m - 1) ** 2

    assert vertex > 0 and y_min < y0
    # the two ends of the two-root range carry 1/√ singularities (the roots merge at y_min; the
    # small root tends to 0 at y0): y = y_min + r² and y = y0 − s² remove them
    half = math.sqrt((y0 - y_min) / 2)
    inner = (quad(lambda r: 2 * r * integrand(y_min + r * r), 0, half, limit=400, epsabs=0,
                  epsrel=1e-12)[0]
             + quad(lambda t: 2 * t * integrand(y0 - t * t), 0, half, limit=400, epsabs=0,
                    epsrel=1e-12)[0])
    outer = quad(integrand, y0, math.inf, limit=400, epsabs=0, epsrel=1e-12)[0]
    return 1 / (inner + outer)


@pytest.mark.parametrize(("g", "coeffs"), [("He4", (-6.0, 3.0)),
                                           ("z**4 - 3*z**2", (-3.0, 0.0))])
def test_alpha_c_quartic_links_y_space(g, coeffs):
    ans = links.link_threshold(g, dps=20)
    assert not ans.linear and not ans.exact and ans.digits >= 15
    ref = _alpha_c_y_space(coeffs)
    assert abs(float(ans.alpha_c) - ref) < 1e-8 * ref, (ans.alpha_c, ref)


def test_alpha_c_exact_cases_and_linear_links():
    # phase retrieval: 1/E[(z² − 1)²] = 1/Var(χ²_1) = 1/2 (Mondelli & Montanari 2018, real case)
    for g, t_star in (("z**2", "1 - 1/y"), ("abs", "1 - 1/y**2"), ("He2", "1 - 1/(y + 1)")):
        ans = links.link_threshold(g, dps=15)
        assert (ans.alpha_c, ans.optimal, ans.linear) == (Fraction(1, 2), t_star, False)
    for g in ("tanh", "relu", "He3", "z**2 + z"):
        assert links.link_threshold(g, dps=15).linear  # E[z y] ≠ 0 or E[z|y] ≠ 0
    assert links.link_threshold("He4(z)**0 + He3(z)**2 - He3(z)**2", dps=15).alpha_c == \
        mpmath.inf  # a constant link: E[z²|y] = 1, no spectral method works


def _luli_continuous(alpha):
    """Lu–Li for y = z², T = 1 − 1/z², the law integrated in mpmath (no discretisation):
    λ̄ = τ = 1 when ψ'(1⁺) >= 0, the outlier from ψ(λ) = φ(λ) by bisection, ρ² = ψ'/(ψ' − φ')."""
    def E(f):
        return 2 * mpmath.quad(lambda s: mpmath.npdf(s) * f(s), [0, 1, mpmath.inf])

    def T(s):
        return 1 - 1 / s ** 2

    def psi(lam):
        return lam * (1 / alpha + E(lambda s: T(s) / (lam - T(s))))

    def dpsi(lam):
        return 1 / alpha - E(lambda s: T(s) ** 2 / (lam - T(s)) ** 2)

    def phi(lam):
        return lam * E(lambda s: T(s) * s * s / (lam - T(s)))

    def dphi(lam):
        return -E(lambda s: T(s) ** 2 * s * s / (lam - T(s)) ** 2)

    def bisect(f, lo, hi):
        f_lo = f(lo)
        for _ in range(70):
            mid = (lo + hi) / 2
            if (f(mid) < 0) == (f_lo < 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    with mpmath.workdps(20):
        one = 1 + mpmath.mpf(10) ** -12
        lbar = one if dpsi(one) >= 0 else bisect(dpsi, one, mpmath.mpf(10))
        lam = bisect(lambda x: psi(max(x, lbar)) - phi(x), one, mpmath.mpf(10))
        return float(dpsi(lam) / (dpsi(lam) - dphi(lam)))


@pytest.mark.parametrize("alpha", [1.3, 2.7])
def test_luli_overlap_phase_retrieval_against_continuous_law(alpha):
    ref = _luli_continuous(alpha)
    got = links.link_overlap("z**2", "optimal", alpha).rho2
    assert abs(got - ref) < 1e-9, (got, ref)


def test_luli_threshold_of_optimal_preprocessing_is_alpha_c():
    # Two formulas, two methods: the Mondelli–Montanari α_c = 1/2 (closed form) and where the
    # Lu–Li overlap of T* leaves 0 (the discretised solver)
    assert links.link_overlap("z**2", "optimal", 0.495).rho2 == 0
    assert links.link_overlap("z**2", "optimal", 0.505).rho2 > 0
    # a non-optimal bounded T (clipping) starts later
    assert links.link_overlap("z**2", "Min(y, 3) - 1", 0.6).rho2 < \
        links.link_overlap("z**2", "optimal", 0.6).rho2


def test_density_checks_in_the_api():
    with pytest.raises(DomainError, match="negative"):
        spikes.density_bulk("x - 1/2", (0, 2))
    with pytest.raises(DomainError, match="integrates to"):  # ∫(3/5)(1 − x²) = 4/5
        spikes.density_bulk("3/5*(1 - x**2)", (-1, 1))
    spikes.density_bulk("3/4*(1 - x**2)", (-1, 1))  # the normalised one is accepted
