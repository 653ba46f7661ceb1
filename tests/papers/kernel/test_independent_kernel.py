"""Independent checks of the kernel paper's formulas, each at generic parameters and against a
second computation written from the published formula or from the definition (say which in
each test): quadrature of E_t[κ(t) P_k(t)] against the density of t, exact sphere moments,
closed-form duals, the Marchenko–Pastur density, brute-force root finding."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest

from fltheory.engine.kernels import arccos, moments


def _rising(a: Fraction, j: int) -> Fraction:
    return math.prod((a + i for i in range(j)), start=Fraction(1))


def legendre_coefficients(d: int, k: int) -> list[Fraction]:
    """Monomial coefficients of P_k = C_k^α/C_k^α(1), α = (d − 2)/2 (d >= 3), from the explicit
    sum C_k^α(t) = Σ_m (−1)^m (α)_(k−m)/(m!(k − 2m)!) (2t)^(k−2m) and C_k^α(1) = (2α)_k/k!
    (DLMF 18.5.10, 18.6.1), written here, not the package's."""
    assert d >= 3
    alpha = Fraction(d - 2, 2)
    at_one = _rising(2 * alpha, k) / math.factorial(k)
    out = [Fraction(0)] * (k + 1)
    for m in range(k // 2 + 1):
        out[k - 2 * m] = (Fraction((-1) ** m) * _rising(alpha, k - m) * 2 ** (k - 2 * m)
                          / (math.factorial(m) * math.factorial(k - 2 * m)) / at_one)
    return out


def _kappa0(t):
    """Cho & Saul (2009) arc-cosine kernel of order 0, normalised κ_0(1) = 1."""
    return 1 - mpmath.acos(t) / mpmath.pi


def _kappa1(t):
    """Cho & Saul (2009) arc-cosine kernel of order 1, normalised κ_1(1) = 1."""
    return (mpmath.sqrt(1 - t * t) + t * (mpmath.pi - mpmath.acos(t))) / mpmath.pi


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(40):
        yield


def _quad_eigenvalue(kappa, d: int, k: int, dps: int = 40):
    """μ_k = ∫ κ(t) P_k(t) (1 − t²)^{(d−3)/2} dt / ∫ (1 − t²)^{(d−3)/2} dt by tanh-sinh
    quadrature (mpmath), P_k from its exact monomial coefficients (the explicit sum above;
    d = 2: the Chebyshev polynomial T_k = cos(k arccos t)); split at 0 and ±1/2 so that the
    endpoints' singularities are handled by the rule's own clustering."""
    if d == 2:
        coeffs = [mpmath.mpf(c) for c in mpmath.taylor(lambda t: mpmath.chebyt(k, t), 0, k)]
    else:
        coeffs = [mpmath.mpf(c.numerator) / c.denominator for c in legendre_coefficients(d, k)]
    with mpmath.workdps(dps + 20):
        w = lambda t: (1 - t * t) ** (mpmath.mpf(d - 3) / 2)  # noqa: E731
        pts = [-1, -0.5, 0, 0.5, 1]
        norm = mpmath.quad(w, pts)
        value = mpmath.quad(lambda t: kappa(t) * mpmath.polyval(coeffs[::-1], t) * w(t), pts)
        return value / norm


def _sphere_moment(d: int, j: int) -> Fraction:
    """E[t^j] for t = x·e, x uniform on S^{d−1}: (j − 1)!!/(d(d+2)…(d+j−2)) for even j
    (the moments of one coordinate of a uniform point), 0 for odd j."""
    if j % 2:
        return Fraction(0)
    num = math.prod(range(j - 1, 0, -2))
    den = math.prod(d + 2 * i for i in range(j // 2))
    return Fraction(num, den)


def test_reference_gegenbauer_coefficients_against_mpmath():
    """The explicit sum above against mpmath's own Gegenbauer polynomials at a generic t."""
    t = mpmath.mpf(3) / 7
    for d in (3, 4, 9):
        for k in range(9):
            c = legendre_coefficients(d, k)
            ours = sum(mpmath.mpf(x.numerator) / x.denominator * t**i for i, x in enumerate(c))
            alpha = mpmath.mpf(d - 2) / 2
            ref = mpmath.gegenbauer(k, alpha, t) / mpmath.gegenbauer(k, alpha, 1)
            assert abs(ours - ref) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize(("d", "k", "j"), [(7, 3, 9), (5, 4, 4), (11, 2, 12), (3, 5, 13)])
def test_gegenbauer_moment_is_the_sphere_moment_of_t_power_times_P(d, k, j):
    """a_{j,k} = E[t^j P_k(t)] in closed form (Rodrigues + Beta integral) against Σ_i c_i
    E[t^{i+j}] with P_k's exact coefficients and the sphere's monomial moments."""
    coeffs = legendre_coefficients(d, k)
    expected = sum((c * _sphere_moment(d, i + j) for i, c in enumerate(coeffs)), Fraction(0))
    assert moments.gegenbauer_moment(d, k, j) == expected


@pytest.mark.parametrize(("d", "k", "j"), [(7, 3, 9), (10, 400, 17800), (3, 37, 1001),
                                          (1000000, 200, 600), (2, 4, 14)])
def test_moment_at_working_precision_is_the_exact_moment(d, k, j):
    """moment_mp (log-Gamma closed form, used for the peak moment of the truncation bound,
    j* ~ k²/(d − 1) up to ~18000) against the exact rational a_{j,k} (products of ratios)."""
    exact = moments.gegenbauer_moment(d, k, j)
    with mpmath.workdps(50):
        value = moments.moment_mp(d, k, j)
        assert abs(value / (mpmath.mpf(exact.numerator) / exact.denominator) - 1) < 1e-45


@pytest.mark.parametrize("d", [2, 5, 7, 12])
def test_arccos_eigenvalues_against_quadrature(d):
    """The Gamma-ratio closed forms of κ_0 and κ_1 (Bach 2017, App. D.2) against tanh-sinh
    quadrature of the kernels themselves (Cho & Saul's formulas) at generic d, k <= 7."""
    e0 = arccos.arccos_eigenvalues(0, d, 7).values(30)
    e1 = arccos.arccos_eigenvalues(1, d, 7).values(30)
    tol = mpmath.mpf(10) ** (-12 if d == 2 else -25)  # d = 2: weight (1 − t²)^(−1/2)
    for k in range(8):
        assert abs(e0[k] - _quad_eigenvalue(_kappa0, d, k)) < tol
        assert abs(e1[k] - _quad_eigenvalue(_kappa1, d, k)) < tol


def test_fisher_levels_are_the_relu_nngp_levels_times_d_over_2():
    """Where the kernel paper meets the Fisher paper (random ReLU features, x ~ N(0, I_d),
    W ~ N(0, 1/m)): J's m → ∞ operator on L²(x) has kernel ‖x‖‖x'‖ κ_1(x̂·x̂')/2, so
    λ_l(d) = E‖x‖² · μ_l(κ_1)/2 = (d/2) μ_l(ReLU NNGP) for every l (Fisher paper's closed forms:
    λ_0 = Γ(d/2+1)²/(πΓ((d+1)/2)²), λ_1 = 1/4, λ_2 = λ_0/(d+1)²)."""
    from fltheory.papers.fisher import theory as fisher
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    for d in (3, 7, 40):
        ours = spectrum(KernelSpec(activation="relu"), Levels(d, 6, 30))
        theirs = fisher.spectrum(d, 6, 30)
        for lev, level in zip(ours.levels, theirs.levels, strict=True):
            assert abs(mpmath.mpf(d) / 2 * lev.value - level.value) < mpmath.mpf(10) ** -25


def test_rf_spectrum_relu_levels_are_the_nngp_levels_times_s2_over_2():
    """Where the kernel paper meets the random-feature spectrum (w ~ N(0, s² I/d), x ~ N(0,
    I_d)): for ReLU, E_w relu(w·x)relu(w·x') = (s²/d)‖x‖‖x'‖κ_1/2, so the radial operator of
    degree l has rank one with eigenvalue λ_{l,0} = E‖x‖²·(s²/d)·μ_l(κ_1)/2 = (s²/2) μ_l."""
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum
    from fltheory.papers.rf_spectrum import theory as rf

    d, s = 6, Fraction(3, 2)
    ours = spectrum(KernelSpec(activation="relu"), Levels(d, 4, 20))
    theirs = rf.spectrum("relu", d, s, 4, 0, 20)
    for lev in theirs.levels:
        expected = mpmath.mpf(s.numerator**2) / s.denominator**2 / 2 * ours.levels[lev.l].value
        assert abs(lev.value - expected) < mpmath.mpf(10) ** -12 * max(1, abs(expected))


def test_series_route_reproduces_the_closed_forms_within_its_bounds():
    """The Taylor-series route (Cauchy integral + Funk–Hecke sums) on κ_1 given pointwise
    against the exact Gamma ratios: the error is within the bound it reports, at small and
    huge d."""
    from fltheory.engine.kernels.series import series_eigenvalues

    for d in (3, 10, 1000, 10**6):
        s = series_eigenvalues(_kappa1, 1, 0, d, 12, 30).spectrum
        exact = arccos.arccos_eigenvalues(1, d, 12).values(40)
        for k in range(13):
            assert abs(s.values[k] - exact[k]) <= s.bounds[k] + mpmath.mpf(10) ** -38


def test_relu_deep_nngp_against_quadrature_of_the_composition():
    """Depth 3 ReLU NNGP κ_1(κ_1(t)) (a composition: no closed-form μ_k) by the series route,
    against quadrature of the composed function at d = 5: within the reported bounds."""
    from fltheory.engine.expressions import parse_expression
    from fltheory.engine.kernels.activations import activation_form
    from fltheory.engine.kernels.networks import Network, network_eigenvalues

    e = network_eigenvalues(Network(activation_form(parse_expression("relu")), "nngp", 3), 5, 6,
                            20)
    for k in range(7):
        ref = _quad_eigenvalue(lambda t: _kappa1(_kappa1(t)), 5, k, 30)
        assert abs(e.values[k] - ref) <= e.bounds[k] + mpmath.mpf(10) ** -28
        assert e.bounds[k] < mpmath.mpf(10) ** -6  # and the bound is informative


def test_relu_with_bias_against_cho_saul_with_variances():
    """ReLU NNGP, depth 2, bias β² = 1/2: Σ(t) = q κ_1((t + β²)/q) + β² with q = 1 + β²
    (Cho & Saul's formula for variances q and covariance t + β², times c = 2), quadrature."""
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    b2 = mpmath.mpf(1) / 2
    q = 1 + b2
    s = spectrum(KernelSpec(activation="relu", bias="1/2"), Levels(4, 5, 20))
    for lev in s.levels:
        ref = _quad_eigenvalue(lambda t: q * _kappa1((t + b2) / q) + b2, 4, lev.k, 25)
        assert abs(lev.value - ref) <= lev.bound + mpmath.mpf(10) ** -20


def _erf_dual(rho):
    """Normalised dual of erf (Williams 1997: E[erf(u)erf(v)] = (2/π) arcsin(2ρ/3) for unit
    variances), E[erf²] = (2/π) arcsin(2/3)."""
    return mpmath.asin(2 * rho / 3) / mpmath.asin(mpmath.mpf(2) / 3)


def test_erf_nngp_and_ntk_by_hermite_against_williams_closed_form():
    """erf at depth 2 through its bulk Hermite coefficients against the series route on
    Williams' closed-form dual (NNGP) and tκ'(t) + κ(t) (NTK), d = 3 and 20."""
    from fltheory.engine.kernels.series import series_eigenvalues
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    A = mpmath.asin(mpmath.mpf(2) / 3)

    def ntk(t):
        return t * (2 / (3 * A)) / mpmath.sqrt(1 - 4 * t * t / 9) + _erf_dual(t)

    for d in (3, 20):
        nngp = spectrum(KernelSpec(activation="erf"), Levels(d, 6, 20))
        ref = series_eigenvalues(_erf_dual, 1, -1, d, 6, 25).spectrum
        for lev in nngp.levels:
            assert abs(lev.value - ref.values[lev.k]) <= lev.bound + ref.bounds[lev.k]
        one = ntk(mpmath.mpf(1))
        tangent = spectrum(KernelSpec(activation="erf", kind="ntk"), Levels(d, 6, 20))
        ref = series_eigenvalues(ntk, one, -one, d, 6, 25).spectrum
        for lev in tangent.levels:
            assert abs(lev.value - ref.values[lev.k]) <= lev.bound + ref.bounds[lev.k] + \
                mpmath.mpf(10) ** -18


def test_erf_depth3_composition_against_the_composed_closed_form():
    """erf NNGP at depth 3 (truncated Hermite duals composed, lower-bound route) against the
    series route on A(A(t)), A Williams' normalised dual: within the (looser) bound."""
    from fltheory.engine.kernels.series import series_eigenvalues
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    deep = spectrum(KernelSpec(activation="erf", depth=3), Levels(6, 5, 15))
    ref = series_eigenvalues(lambda t: _erf_dual(_erf_dual(t)), 1, -1, 6, 5, 20).spectrum
    for lev in deep.levels:
        assert abs(lev.value - ref.values[lev.k]) <= lev.bound + ref.bounds[lev.k]
        if not lev.zero:
            assert lev.digits >= 6


def test_polynomial_network_is_wick():
    """σ = z³ + z: He-expansion z³ + z = He_3 + 4He_1, so E[σ(u)σ(v)] = 16ρ + 6ρ³ and
    E[σ²] = 22 (Wick); NNGP (8t + 3t³)/11, NTK t·κ'(t) + κ(t) = (16t + 12t³)/11: eigenvalues by
    the sphere moments directly (exact rationals) at d = 4."""
    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    d = 4
    for kind, coeffs in (("nngp", {1: Fraction(8, 11), 3: Fraction(3, 11)}),
                         ("ntk", {1: Fraction(16, 11), 3: Fraction(12, 11)})):
        s = spectrum(KernelSpec(activation="z**3 + z", kind=kind), Levels(d, 4, 20))
        for lev in s.levels:
            P = legendre_coefficients(d, lev.k)
            expected = sum((b * c * _sphere_moment(d, j + i) for j, b in coeffs.items()
                            for i, c in enumerate(P)), Fraction(0))
            assert Fraction(str(lev.exact)) == expected


def test_hermite_bulk_against_the_engine_expansion():
    """The trapezoidal bulk Hermite coefficients of tanh and gelu against the engine's
    per-coefficient paths (quadrature, Gaussian integration by parts), k <= 12, 25 digits."""
    from fltheory.engine.hermite import expansion
    from fltheory.engine.kernels.activations import hermite_bulk

    for name, fn in (("tanh", mpmath.tanh),
                     ("gelu", lambda z: z * (1 + mpmath.erf(z / mpmath.sqrt(2))) / 2)):
        bulk = hermite_bulk(fn, 12, 25)
        ref = expansion(name, 12, 30)
        for k, c in enumerate(ref.coefficients):
            assert abs(bulk.mu[k] - c.numeric) < mpmath.mpf(10) ** -24


def test_eigenlearning_against_brute_force_root_finding():
    """The log-domain solver against scipy's brentq on Σ_i μ_i/(μ_i + κ) + λ/κ = n written out
    mode by mode (multiplicities expanded), and the error formula E_0(Σ(1 − L)² v² + σ²) − σ²
    (Simon et al. 2023, Sec. 4) evaluated directly."""
    import numpy as np
    from scipy.optimize import brentq

    from fltheory.engine.kernels.curves import Spectrum, curve_point

    mu = [0.5, 0.2, 0.05, 0.01, 0.002]
    mult = [1, 3, 5, 7, 9]
    spec = Spectrum.from_values(mu, mult, sum(m * n for m, n in zip(mu, mult, strict=True)))
    modes = np.repeat(mu, mult)
    energies = np.array([0.0, 0.3, 0.7, 0.0, 0.0])
    def equation(k: float, n: float, lam: float) -> float:
        return float(np.sum(modes / (modes + k)) + lam / k - n)

    for n, lam, s2 in ((5, 0.01, 0.1), (12, 0.0, 0.25), (20, 0.3, 0.0)):
        kappa = brentq(equation, 1e-12, 1e3, args=(n, lam), xtol=1e-15)
        L = modes / (modes + kappa)
        E0 = n / (n - np.sum(L**2))
        v2 = np.repeat(energies / np.array(mult), mult)
        expected = E0 * (np.sum((1 - L) ** 2 * v2) + s2) - s2
        p = curve_point(spec, energies, n, lam, s2)
        assert p.kappa == pytest.approx(kappa, rel=1e-9)
        assert p.error == pytest.approx(expected, rel=1e-9)


def test_linear_kernel_curve_meets_the_proportional_ridge_risk():
    """Where the learning curve meets ridge regression (the issue's "linear kernel"): κ(t) = t
    on S^{p−1} has μ_1 = 1/p with multiplicity p; KRR with ridge δ is ridge regression on the
    isotropic features √p x with λ = γδ (γ = p/n). At p = 4000, n = 8000 the eigenlearning
    error equals Hastie et al.'s limiting risk (Thm. 2) to 1e-3."""
    import numpy as np

    from fltheory.engine.kernels.curves import Spectrum, curve_point
    from fltheory.engine.kernels.ridge import ridge_risk

    p, n = 4000, 8000
    gamma = Fraction(p, n)
    spec = Spectrum.from_values([0.0, 1 / p], [1, p], 1.0)
    lam = Fraction(1, 3)
    energies = np.array([0.0, 1.0])
    point = curve_point(spec, energies, n, float(lam / gamma), 1.0)
    risk = float(ridge_risk(gamma, Fraction(1), Fraction(1), lam).risk)
    assert point.error == pytest.approx(risk, rel=1e-3)


def test_ridge_risk_against_the_marchenko_pastur_density():
    """Hastie et al. (2022, Thm. 2) in closed form against ∫ of the bias and variance
    integrands r²λ²/(s + λ)² and σ²γ s/(s + λ)² over the Marchenko–Pastur law (density
    √((b − s)(s − a))/(2πγs) on [a, b] = [(1 ∓ √γ)²] plus an atom 1 − 1/γ at 0 when γ > 1)."""
    from fltheory.engine.kernels.ridge import ridge_risk, ridgeless_risk

    def mp_integrals(G, L, R2, S2):
        a, b = (1 - mpmath.sqrt(G)) ** 2, (1 + mpmath.sqrt(G)) ** 2

        def dens(x):
            return mpmath.sqrt((b - x) * (x - a)) / (2 * mpmath.pi * G * x)

        atom = max(0, 1 - 1 / G)
        bias = mpmath.quad(lambda x: dens(x) * R2 * L**2 / (x + L) ** 2, [a, b]) + atom * R2
        var = mpmath.quad(lambda x: dens(x) * S2 * G * x / (x + L) ** 2, [a, b])
        return bias + var

    def mp(q):
        return mpmath.mpf(q.numerator) / q.denominator

    for g, lam, r2, s in ((Fraction(3, 7), Fraction(2, 5), Fraction(2), Fraction(1, 2)),
                          (Fraction(5, 2), Fraction(1, 9), Fraction(1, 3), Fraction(3, 2))):
        expected = mp_integrals(mp(g), mp(lam), mp(r2), mp(s) ** 2)
        exact = ridge_risk(g, r2, s, lam)
        assert abs(mpmath.mpf(str(exact.risk.evalf(40))) - expected) < 1e-25
    # ridgeless (Hastie et al. 2022, Thm. 1): σ²γ/(1 − γ) and r²(1 − 1/γ) + σ²/(γ − 1)
    assert ridgeless_risk(Fraction(1, 4), Fraction(1), Fraction(2)) == Fraction(4, 3)
    assert ridgeless_risk(Fraction(4), Fraction(2), Fraction(1)) == Fraction(3, 2) + Fraction(1, 3)


def test_optimal_ridge_is_the_minimum():
    """λ* = γσ²/r² (Dobriban & Wager 2018, Thm. 2.1) minimises R(λ): R at λ* is below R at
    λ*(1 ± 1/100), by direct evaluation of the closed form."""
    import sympy as sp

    from fltheory.engine.kernels.ridge import ridge_risk

    g, r2, s = Fraction(5, 3), Fraction(2), Fraction(3, 4)
    best = ridge_risk(g, r2, s, None)
    assert best.lam == sp.Rational(5, 3) * sp.Rational(9, 16) / 2
    lam = Fraction(int(best.lam.p), int(best.lam.q))
    for factor in (Fraction(99, 100), Fraction(101, 100)):
        assert sp.N(ridge_risk(g, r2, s, lam * factor).risk, 30) > sp.N(best.risk, 30)


def test_staircase_limit_is_the_large_d_limit_of_the_curve():
    """The polynomial-regime limit (ℓ = 1, n = ψd) against the finite-d eigenlearning curve of
    the ReLU NTK at d = 2·10^4: equal to 1e-3 (the corrections are O(1/d))."""
    from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Target
    from fltheory.papers.kernel.theory import curve, staircase

    spec = KernelSpec(activation="relu", kind="ntk")
    d, psi = 20000, 4
    lev = staircase(spec, 1, [psi], 0.0, {1: 0.5, 2: 0.5}, 0.0)
    a = curve(spec, Levels(d, 20, 20), Curve(psi * d, 0, 0, Target(energies="1:1/2,2:1/2")))
    assert a.rows[0].error == pytest.approx(lev.error[0], rel=1e-3)


def test_staircase_level_two_uses_alpha_psi_times_two():
    """At ℓ = 2, n/N(d, 2) → ψ·2! (N(d, 2) ≈ d²/2): the limit against the finite-d curve of an
    RBF kernel at d = 3000, n = ψ d², to 1e-2 (corrections O(1/d))."""
    from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Target
    from fltheory.papers.kernel.theory import curve, staircase

    spec = KernelSpec(kernel="exp(2*t - 2)")
    d, psi = 3000, Fraction(1, 4)
    lev = staircase(spec, 2, [float(psi)], 0.0, {2: 0.5, 3: 0.5}, 0.0)
    n = int(psi * d * d)
    a = curve(spec, Levels(d, 20, 20), Curve(n, 0, 0, Target(energies="2:1/2,3:1/2")))
    assert a.rows[0].error == pytest.approx(lev.error[0], rel=1e-2)


def test_staircase_level_three_uses_alpha_psi_times_six():
    """At ℓ = 3, n/N(d, 3) → ψ·3! = 6ψ (N(d, 3) ≈ d³/6; ℓ! and ℓ differ first here): the limit
    against the finite-d curve of an RBF kernel at d = 3000, n = ψ d³, to 1e-2."""
    from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Target
    from fltheory.papers.kernel.theory import curve, staircase

    spec = KernelSpec(kernel="exp(2*t - 2)")
    d, psi = 3000, Fraction(1, 10)
    lev = staircase(spec, 3, [float(psi)], 0.0, {3: 0.5, 4: 0.5}, 0.0)
    a = curve(spec, Levels(d, 20, 20), Curve(int(psi * d**3), 0, 0,
                                             Target(energies="3:1/2,4:1/2")))
    assert a.rows[0].error == pytest.approx(lev.error[0], rel=1e-2)


@pytest.mark.parametrize("d", [2, 3, 4, 7, 30])
def test_moment_peak_is_the_argmax_of_the_exact_moments(d):
    """peak(d, k) (the closed-form turning point of j ↦ a_{j,k}) against the argmax of the
    exact rational moments over j = k, k + 2, …, k + 1200 (brute force)."""
    for k in range(0, 16):
        a, best, arg = moments.gegenbauer_moment(d, k, k), Fraction(-1), -1
        for j in range(k, k + 1200, 2):
            if a > best:
                best, arg = a, j
            a *= moments.moment_ratio(d, k, j)
        assert moments.peak(d, k) == arg, (d, k)


# ------------------------------------------------------------------ the polynomial regime


def _level_error_from_mp_law(alpha, rho, e_level, e_higher, s2):
    """The level-ℓ limiting clean error written from the published ridge formula, not from the
    eigenlearning equations: ridge regression on N(d, ℓ) isotropic features with n/N(d, ℓ) = α
    is Hastie et al. (2022, Thm. 2) at γ = 1/α, with the KRR ridge λ + R_ℓ becoming
    λ_H = ρ/α (ρ = (λ + R_ℓ)/b_ℓ, since N(d, ℓ)μ_ℓ → b_ℓ and n μ_ℓ → α b_ℓ), signal r² = e_ℓ,
    noise e_{>ℓ} + σ² (the unlearned degrees act as noise); the risk as the integrals of
    r²λ²/(s + λ)² and σ²γ s/(s + λ)² over the Marchenko–Pastur law (mpmath quadrature), plus
    e_{>ℓ}, the unlearned degrees' own error."""
    G, L = mpmath.mpf(1) / alpha, mpmath.mpf(rho) / alpha
    a, b = (1 - mpmath.sqrt(G)) ** 2, (1 + mpmath.sqrt(G)) ** 2

    def dens(x):
        return mpmath.sqrt((b - x) * (x - a)) / (2 * mpmath.pi * G * x)

    atom = max(0, 1 - 1 / G)
    S2 = e_higher + s2
    bias = mpmath.quad(lambda x: dens(x) * e_level * L**2 / (x + L) ** 2, [a, b])
    var = mpmath.quad(lambda x: dens(x) * S2 * G * x / (x + L) ** 2, [a, b])
    return float(bias + atom * e_level + var + e_higher)


@pytest.mark.parametrize("alpha, rho, e, h, s2", [
    (0.37, 0.213, 0.71, 0.29, 0.13),
    (2.9, 0.05, 1.3, 0.4, 0.6),
    (1.0, 0.8, 0.45, 0.0, 0.2),
    (0.93, 0.011, 0.5, 0.3, 0.0),
])
def test_staircase_level_is_the_ridge_formula_at_gamma_one_over_alpha(alpha, rho, e, h, s2):
    """limit_point (the d → ∞ eigenlearning limit) against the Marchenko–Pastur integrals of
    Hastie et al. Thm. 2 (_level_error_from_mp_law), generic (α, ρ, energies, noise) on both
    sides of α = 1, to 1e-9."""
    from fltheory.engine.kernels.curves import limit_point

    assert limit_point(alpha, rho, e, h, s2)[2] == pytest.approx(
        _level_error_from_mp_law(alpha, rho, e, h, s2), rel=1e-9)


@pytest.mark.parametrize("ell, psi, lam, expected_rho", [
    (1, 0.7, 0.1, (Fraction(1, 10) + Fraction(1, 5) + Fraction(1, 7)) / Fraction(1, 3)),
    (2, 0.3, 0.0, Fraction(1, 7) / Fraction(1, 5)),
])
def test_staircase_face_against_the_ridge_formula(ell, psi, lam, expected_rho):
    """staircase() on κ(t) = t/3 + t²/5 + t³/7 (b_1 = 1/3, b_2 = 1/5, higher mass read off the
    polynomial by hand: R_1 = 1/5 + 1/7, R_2 = 1/7) against _level_error_from_mp_law at
    α = ψ ℓ! and ρ = (λ + R_ℓ)/b_ℓ, target energies {1: 0.6, 2: 0.25, 3: 0.15}, σ² = 0.09."""
    from fltheory.papers.kernel.params import KernelSpec
    from fltheory.papers.kernel.theory import staircase

    energies = {1: 0.6, 2: 0.25, 3: 0.15}
    lev = staircase(KernelSpec(kernel="t/3 + t**2/5 + t**3/7"), ell, [psi], lam, energies, 0.09)
    rho = float(expected_rho)
    assert lev.rho == pytest.approx(rho, rel=1e-12)
    higher = sum(v for k, v in energies.items() if k > ell)
    assert lev.plateau == pytest.approx(higher, rel=1e-12)
    alpha = psi * math.factorial(ell)
    assert lev.error[0] == pytest.approx(
        _level_error_from_mp_law(alpha, rho, energies[ell], higher, 0.09), rel=1e-9)


@pytest.mark.parametrize("kernel, ell, energies, s2", [
    ("t/2 + t**2/20", 1, {1: 1.0, 2: 0.2}, 1.0),
    ("t/3 + t**2/3 + t**3/300", 2, {2: 0.7, 3: 0.1}, 0.37),
])
def test_staircase_peak_is_the_maximum_of_the_ridge_formula(kernel, ell, energies, s2):
    """The located peak ψ* against the independent formula: the error there equals
    _level_error_from_mp_law at α* = ψ* ℓ! (1e-9) and exceeds it at ψ*(1 ± 10^−3) and
    ψ*(1 ± 5·10^−2) (a local maximum in ψ); near ψ = 1/ℓ! (Xiao et al. 2022: m ≈ d^r/r!) for
    these small effective ridges (ρ = 0.1 and 0.01: within 5%)."""
    from fltheory.papers.kernel.params import KernelSpec
    from fltheory.papers.kernel.theory import staircase

    lev = staircase(KernelSpec(kernel=kernel), ell, [1.0], 0.0, energies, s2)
    assert lev.peak is not None
    psi_star, top = lev.peak
    e, h, f = energies[ell], lev.plateau, math.factorial(ell)

    def err(psi):
        return _level_error_from_mp_law(psi * f, lev.rho, e, h, s2)

    assert top == pytest.approx(err(psi_star), rel=1e-9)
    for step in (1e-3, 5e-2):
        assert err(psi_star * (1 - step)) < top and err(psi_star * (1 + step)) < top
    assert psi_star == pytest.approx(1 / f, rel=5e-2)


def test_staircase_peak_ridgeless_and_absent():
    """ρ = 0 with effective noise (κ(t) = t², level 2: R_2 = 0, λ = 0): the peak sits at
    ψ = 1/2! exactly with an infinite error (Xiao et al. 2022); the ReLU NTK at level 1
    (ρ = R_1/b_1 = 0.68…), target 1:1/2, 2:1/2 without noise: no peak, and the independent
    formula decreases along 40 values of ψ log-spaced over [10^−3, 10^3]."""
    from fltheory.papers.kernel.params import KernelSpec
    from fltheory.papers.kernel.theory import staircase

    lev = staircase(KernelSpec(kernel="t**2"), 2, [1.0], 0.0, {2: 1.0}, 0.25)
    assert lev.peak == (0.5, math.inf)
    lev = staircase(KernelSpec(activation="relu", kind="ntk"), 1, [1.0], 0.0,
                    {1: 0.5, 2: 0.5}, 0.0)
    assert lev.peak is None
    values = [_level_error_from_mp_law(10 ** (-3 + 6 * i / 39), lev.rho, 0.5, 0.5, 0.0)
              for i in range(40)]
    assert all(a > b for a, b in itertools.pairwise(values))


# ------------------------------------------------------------------ random features


@pytest.mark.parametrize("psi2", [Fraction(13, 10), Fraction(3, 7)])
def test_random_features_tend_to_the_kernel_ridge_curve(psi2):
    """ψ_1 → ∞ (Mei & Montanari's limit at infinite width) against the package's exact ridge
    risk (Hastie et al. 2022, Thm. 2, sympy) at γ = 1/ψ_2, signal F_1², noise τ² + F_*² and
    λ_H = (ψ_2λ + μ_*²)/(ψ_2μ_1²) (the kernel μ_0² + μ_1² t + μ_*² δ: its δ part adds μ_*² to
    the ridge), plus F_*²; generic μ_1² = 2/5, μ_*² = 1/3, λ = 1/7, F_1² = 3/2, τ² = 1/4,
    F_*² = 5/16: within 10^−5 at ψ_1 = 10^7, and ten times closer than at ψ_1 = 10^5."""
    from fltheory.engine.kernels.rf import rf_risk
    from fltheory.engine.kernels.ridge import ridge_risk

    mu1, mus, lam = Fraction(2, 5), Fraction(1, 3), Fraction(1, 7)
    f1, fs, tau2 = Fraction(3, 2), Fraction(5, 16), Fraction(1, 4)
    lam_h = (psi2 * lam + mus) / (psi2 * mu1)
    exact = float(ridge_risk(1 / psi2, f1, Fraction(3, 4), lam_h).risk) + float(fs)
    far, farther = (rf_risk(p, float(psi2), float(mu1 / mus), float(lam / mus), float(f1),
                            float(fs), float(tau2)).risk for p in (1e5, 1e7))
    assert abs(farther - exact) < 1e-5
    assert abs(farther - exact) < abs(far - exact) / 10


@pytest.mark.parametrize("activation, psi1, psi2, lam, noise", [
    ("relu", 2, 3, Fraction(1, 10), Fraction(1, 2)),
    ("tanh", 2, 3, Fraction(1, 10), Fraction(1, 2)),
])
def test_random_features_against_a_simulation(activation, psi1, psi2, lam, noise):
    """random_features() against random-features ridge regression simulated in numpy
    (sim.rf_ridge_sample: d = 200, N = ψ_1 d, n = ψ_2 d, a linear target ‖β‖² = 1, 8 seeds,
    2000 test points each): the prediction within the 99.7% interval mean ± 3 standard errors
    of the 8 draws, at ψ_1 = 2 (overparametrised). At ψ_1 = 1/2, ψ_2 = 2, λ = 1/20 these 8
    seeds at d = 200 lie 2.5 (relu) to 3.5 (tanh) standard errors above the limit, while 32
    draws per d at d = 100…800 stay within 2 (the seeds' spread): the claim kernel.rf
    extrapolates over d instead."""
    import numpy as np

    from fltheory.papers.kernel.params import RandomFeatures
    from fltheory.papers.kernel.sim import rf_ridge_sample
    from fltheory.papers.kernel.theory import random_features

    d = 200
    pred = random_features(RandomFeatures(activation, psi1, psi2, lam, 1, 0, noise)).risk
    draws = [rf_ridge_sample(activation, d, int(psi1 * d), int(psi2 * d), float(lam), 1.0,
                             float(noise), 2000, seed) for seed in range(8)]
    mean, se = float(np.mean(draws)), float(np.std(draws, ddof=1) / math.sqrt(len(draws)))
    assert abs(mean - pred) < 3 * se, (pred, mean, se)
