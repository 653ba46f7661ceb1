"""The first questions a researcher asks of ``fltheory kernel``, answered a second way from the
published formulas alone: nothing here imports the kernel engine (``fltheory.engine``) or the
package's internals; the package is reached only through its public face
(:mod:`fltheory.papers.kernel`) and its parameter objects. Each reference says how it is
computed:

(a) μ_k of the ReLU NTK of depth 2 without bias, d = 3 and d = 7, k = 0 … 6: Funk–Hecke written
    out, μ_k = ∫ Θ(t) P_k(t) (1 − t²)^{(d−3)/2} dt / ∫ (1 − t²)^{(d−3)/2} dt, by mpmath's
    tanh-sinh quadrature at 45 digits, with P_k = C_k^{(d−2)/2}/C_k^{(d−2)/2}(1) from
    ``mpmath.gegenbauer`` and Θ the closed-form arc-cosine NTK (Cho & Saul 2009; Jacot et al.
    2018; Arora et al. 2019, eq. 4) with He weights c_σ = 2, first layer Σ^(0)(t) = t:
    Σ^(1)(t) = (√(1 − t²) + (π − arccos t) t)/π, Σ̇^(1)(t) = (π − arccos t)/π,
    Θ(t) = Σ^(1)(t) + t Σ̇^(1)(t), Θ(1) = 2.
(b) The proportional ridge risk (isotropic features, x ~ N(0, I_p), p/n → γ): the ridgeless
    limits of Hastie, Montanari, Rosset & Tibshirani (2022, Thm. 1), σ²γ/(1 − γ) for γ < 1 and
    r²(1 − 1/γ) + σ²/(γ − 1) for γ > 1; the risk at λ > 0 as the bias and variance integrals
    r²∫λ²/(s + λ)² dF_γ(s) + σ²γ∫ s/(s + λ)² dF_γ(s) over the Marchenko–Pastur law F_γ
    (density and atom written out here, Hastie et al. Thm. 2's integrand), and λ* found by
    minimising that integral numerically (no formula for λ* used), its risk compared with the
    package's exact value.
(c) One eigenlearning value at generic (n, λ): κ(t) = exp(2t − 2) on S^9, μ_k from the Bessel
    form of Funk–Hecke for an exponential, μ_k = e^{−a} Γ(ν + 1) (2/a)^ν I_{k+ν}(a) with a = 2,
    ν = d/2 − 1 (Watson's integral ∫ e^{at} C_k^ν(t)(1 − t²)^{ν−½} dt; checked against
    quadrature below), multiplicities N(d, k) = C(k+d−1, k) − C(k+d−3, k−2), the effective ridge
    κ_eff solved from Σ_k N_k μ_k/(μ_k + κ) + λ/κ = n by mpmath's root finder, and
    E = n/(n − Σ N_k L_k²)·(Σ_k (1 − L_k)² e_k + σ²) − σ², L_k = μ_k/(μ_k + κ_eff) (Simon,
    Dickens, Karkada & DeWeese 2023, eqs. 6–9; Bordelon, Canatar & Pehlevan 2020).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import mpmath
import pytest

from fltheory.papers.kernel import curve, ridge, spectrum
from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Ridge, Target

DPS = 45


def _relu_ntk(t):
    """Θ(t) of a depth-2 ReLU network, He-normalised, no bias (see the module docstring)."""
    theta = mpmath.pi - mpmath.acos(t)
    nngp = (mpmath.sqrt(1 - t * t) + theta * t) / mpmath.pi
    return nngp + t * theta / mpmath.pi


def _funk_hecke(kappa, d: int, k: int):
    """μ_k = E_t[κ(t) P_k(t)], t the first coordinate of a uniform point of S^{d−1}."""
    return _funk_hecke_at(kappa, d, k, DPS)


def _funk_hecke_at(kappa, d: int, k: int, dps: int):
    """:func:`_funk_hecke` at ``dps`` working digits (a μ_k far below κ(1) needs them)."""
    with mpmath.workdps(dps):
        alpha = mpmath.mpf(d - 2) / 2
        at_one = mpmath.gegenbauer(k, alpha, 1)

        def weight(t):
            return (1 - t * t) ** (mpmath.mpf(d - 3) / 2)

        def integrand(t):
            return kappa(t) * mpmath.gegenbauer(k, alpha, t) / at_one * weight(t)

        pts = [-1, -0.5, 0, 0.5, 1]
        return mpmath.quad(integrand, pts) / mpmath.quad(weight, pts)


def _n_dk(d: int, k: int) -> int:
    """Dimension of the degree-k spherical harmonics on S^{d−1}."""
    return comb(k + d - 1, k) - (comb(k + d - 3, k - 2) if k >= 2 else 0)


# --------------------------------------------------------------------------- (a) spectra


@pytest.mark.parametrize("d", [3, 7])
def test_relu_ntk_depth2_spectrum_against_funk_hecke_quadrature(d):
    s = spectrum(KernelSpec(activation="relu", kind="ntk", depth=2), Levels(d, 6, 30))
    assert s.at_one == 2  # He normalisation: Θ(1) = Σ^(1)(1) + Σ̇^(1)(1) = 1 + 1
    for lev in s.levels:
        ref = _funk_hecke(_relu_ntk, d, lev.k)
        assert lev.multiplicity == _n_dk(d, lev.k)
        assert abs(lev.value - ref) < mpmath.mpf(10) ** -27 * max(abs(ref), 1e-3), (d, lev.k)
        if lev.k % 2 and lev.k >= 3:  # Θ(t) − t·(1/2 + 1/2) is even: odd levels >= 3 vanish
            assert lev.zero and abs(ref) < mpmath.mpf(10) ** -35
        else:
            assert lev.digits >= 30 and ref > 0


def test_relu_ntk_depth2_mercer_sum_reaches_kappa_one():
    """Σ_k N(d, k) μ_k = Θ(1) = 2: the package's partial sums climb to 2 from below; with the
    quadrature's own values the partial sum to k = 6 at d = 3 is the same number."""
    d = 3
    s = spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(d, 6, 30))
    ours = sum(_n_dk(d, k) * _funk_hecke(_relu_ntk, d, k) for k in range(7))
    assert abs(s.mercer - ours) < mpmath.mpf(10) ** -25
    assert 1.9 < s.mercer < 2
    big = spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(d, 400, 20))
    assert 1.999 < big.mercer < 2  # the missing mass decays like k^(−d) (a kink at t = 1)


def _exp_mu(d: int, k: int, a: int = 2):
    with mpmath.workdps(DPS):
        nu = mpmath.mpf(d) / 2 - 1
        return mpmath.exp(-a) * mpmath.gamma(nu + 1) * (mpmath.mpf(2) / a) ** nu * \
            mpmath.besseli(k + nu, a)


def test_bessel_form_of_the_exponential_kernel_is_funk_hecke():
    """The reference of (c) itself, against the quadrature of (a) at d = 10, k <= 5."""
    for k in range(6):
        ref = _funk_hecke(lambda t: mpmath.exp(2 * t - 2), 10, k)
        assert abs(_exp_mu(10, k) - ref) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("d", [10, 1000, 10**6])
def test_exponential_kernel_spectrum_against_bessel(d):
    s = spectrum(KernelSpec(kernel="exp(2*t - 2)"), Levels(d, 12, 30))
    for lev in s.levels:
        ref = _exp_mu(d, lev.k)
        assert lev.digits >= 25, (d, lev.k, lev.digits)
        assert abs(lev.value - ref) <= 2 * lev.bound + mpmath.mpf(10) ** -28 * ref, (d, lev.k)


# --------------------------------------------------------------------------- (b) ridge


def _mp_risk(gamma, lam, r2, s2):
    """Bias + variance integrals over the Marchenko–Pastur law of ratio γ (unit variance):
    density √((b − s)(s − a))/(2πγs) on [a, b] = [(1 ∓ √γ)²], atom 1 − 1/γ at 0 if γ > 1."""
    def mp(q):
        q = Fraction(q) if isinstance(q, int | Fraction) else q
        return mpmath.mpf(q.numerator) / q.denominator if isinstance(q, Fraction) else q

    with mpmath.workdps(30):
        g, lam, r2, s2 = mp(gamma), mp(lam), mp(r2), mp(s2)
        a, b = (1 - mpmath.sqrt(g)) ** 2, (1 + mpmath.sqrt(g)) ** 2

        def dens(s):
            return mpmath.sqrt((b - s) * (s - a)) / (2 * mpmath.pi * g * s)

        atom = max(mpmath.mpf(0), 1 - 1 / g)
        bias = r2 * (mpmath.quad(lambda s: dens(s) * lam**2 / (s + lam) ** 2, [a, b]) + atom)
        variance = s2 * g * mpmath.quad(lambda s: dens(s) * s / (s + lam) ** 2, [a, b])
        return bias + variance


@pytest.mark.parametrize(("gamma", "r2", "sigma"), [
    (Fraction(1, 2), Fraction(1), Fraction(1)), (Fraction(2), Fraction(1), Fraction(1)),
    (Fraction(3, 7), Fraction(5, 3), Fraction(2, 3)),
    (Fraction(11, 4), Fraction(5, 3), Fraction(2, 3))])
def test_ridgeless_risk_both_sides_of_the_peak(gamma, r2, sigma):
    if gamma < 1:
        expected = sigma**2 * gamma / (1 - gamma)
    else:
        expected = r2 * (1 - 1 / gamma) + sigma**2 / (gamma - 1)
    a = ridge(Ridge(gamma, r2, sigma, 0))
    assert Fraction(str(a.risk)) == expected
    assert Fraction(str(a.ridgeless)) == expected
    # and the λ → 0+ limit of the Marchenko–Pastur integrals approaches it
    assert abs(_mp_risk(gamma, mpmath.mpf(10) ** -6, r2, sigma**2) - float(expected)) < 1e-3


@pytest.mark.parametrize(("gamma", "r2", "sigma"), [
    (Fraction(1, 2), Fraction(1), Fraction(1)), (Fraction(2), Fraction(1), Fraction(1)),
    (Fraction(3, 7), Fraction(5, 3), Fraction(2, 3))])
def test_optimal_ridge_by_minimising_the_marchenko_pastur_risk(gamma, r2, sigma):
    s2 = sigma**2

    def risk(lam):
        return _mp_risk(gamma, lam, r2, s2)

    with mpmath.workdps(30):
        # golden-section search for the minimum over λ in (10^-3, 20): no formula for λ*
        lo, hi = mpmath.mpf("0.001"), mpmath.mpf(20)
        phi = (mpmath.sqrt(5) - 1) / 2
        for _ in range(90):
            x1, x2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
            if risk(x1) < risk(x2):
                hi = x2
            else:
                lo = x1
        lam_star = (lo + hi) / 2
        best = risk(lam_star)
    a = ridge(Ridge(gamma, r2, sigma, "optimal"))
    assert abs(float(a.lam) - float(lam_star)) < 1e-6 * float(lam_star) + 1e-8
    assert abs(float(a.risk) - float(best)) < 1e-12
    # and at a generic λ the exact risk is the integral
    lam = Fraction(2, 9)
    assert abs(float(ridge(Ridge(gamma, r2, sigma, lam)).risk) - float(risk(lam))) < 1e-15


def test_the_issue_example_values():
    """`fltheory kernel ridge --gamma 1/2 --signal 1 --noise 1 --ridge optimal`: λ* = 1/2 and
    R(λ*) = √2 − 1 (the Marchenko–Pastur integral at λ = 1/2, computed here, is 0.41421…)."""
    a = ridge(Ridge("1/2", 1, 1, "optimal"))
    assert abs(float(a.risk) - float(_mp_risk(Fraction(1, 2), Fraction(1, 2), 1, 1))) < 1e-20
    assert abs(float(a.risk) - (2**0.5 - 1)) < 1e-15
    assert Fraction(str(a.ridgeless)) == 1


# --------------------------------------------------------------------------- (c) curve


def _eigenlearning(d, n, lam, sigma2, energies, kmax=80):
    with mpmath.workdps(30):
        mus = [_exp_mu(d, k) for k in range(kmax + 1)]
        mults = [_n_dk(d, k) for k in range(kmax + 1)]

        def equation(kap):
            return sum(m * u / (u + kap) for m, u in zip(mults, mus, strict=True)) + \
                lam / kap - n

        # bracket: the left side decreases in κ from +∞ (κ → 0+, when λ > 0 or n < #modes)
        lo, hi = mpmath.mpf(10) ** -30, mpmath.mpf(10)
        kap = mpmath.findroot(equation, (lo, hi), solver="anderson")
        L = [u / (u + kap) for u in mus]
        E0 = n / (n - sum(m * x * x for m, x in zip(mults, L, strict=True)))
        err = E0 * (sum((1 - L[k]) ** 2 * e for k, e in energies.items()) + sigma2) - sigma2
        return float(kap), float(err), [float(x) for x in L]


@pytest.mark.parametrize(("n", "lam", "sigma", "energies"), [
    (137, Fraction(123, 10000), Fraction(3, 10), {1: Fraction(3, 5), 3: Fraction(2, 5)}),
    (61, Fraction(0), Fraction(0), {2: Fraction(1)}),
    (2900, Fraction(1, 7), Fraction(1, 2), {0: Fraction(1, 4), 4: Fraction(3, 4)})])
def test_learning_curve_value_by_solving_the_effective_ridge_equation(n, lam, sigma, energies):
    d = 10
    kap, err, L = _eigenlearning(d, n, mpmath.mpf(lam.numerator) / lam.denominator,
                                 float(sigma) ** 2, {k: float(e) for k, e in energies.items()})
    target = Target(energies=",".join(f"{k}:{e}" for k, e in energies.items()))
    a = curve(KernelSpec(kernel="exp(2*t - 2)"), Levels(d, 40, 30),
              Curve(n, lam, sigma, target))
    row = a.rows[0]
    assert row.kappa == pytest.approx(kap, rel=1e-9)
    assert row.error == pytest.approx(err, rel=1e-9)
    assert row.noisy == pytest.approx(err + float(sigma) ** 2, rel=1e-9)
    for k in energies:
        assert row.learnability[k] == pytest.approx(L[k], rel=1e-9)


def _kappa1(rho):
    """Cho & Saul's arc-cosine kernel of order 1, κ_1(1) = 1 (the He-normalised ReLU dual)."""
    return (mpmath.sqrt(1 - rho * rho) + rho * (mpmath.pi - mpmath.acos(rho))) / mpmath.pi


@pytest.mark.parametrize(("d", "bias"), [(3, 0), (6, Fraction(1, 3))])
def test_deep_relu_nngp_all_digits_at_small_d(d, bias):
    """ReLU NNGP of depth 3 with bias variance β² (Lee et al. 2018, eq. 5, He c = 2):
    Σ^(0) = t + β², Σ^(l) = q_l κ_1(Σ^(l−1)/q_l) + β² with q_l = Σ^(l−1)(1), written out below.
    At small d its Taylor series converges like j^(−5/2); the package confirms 30 digits, and
    they are those of the quadrature of (a) applied to this composition."""
    b2 = mpmath.mpf(bias.numerator) / bias.denominator

    def nngp(t):
        q1 = 1 + b2                       # Σ^(0)(1) = 1 + β²
        s1 = q1 * _kappa1((t + b2) / q1) + b2
        q2 = q1 + b2                      # Σ^(1)(1) = q1 + β²
        return q2 * _kappa1(s1 / q2) + b2

    s = spectrum(KernelSpec(activation="relu", depth=3, bias=bias), Levels(d, 8, 30))
    for lev in s.levels:
        ref = _funk_hecke(nngp, d, lev.k)
        assert lev.digits == 30, (lev.k, lev.digits)
        assert abs(lev.value - ref) < mpmath.mpf(10) ** -29 * abs(ref), (d, lev.k)


def test_deep_relu_ntk_all_digits_at_moderate_d():
    """ReLU NTK of depth 3 (Jacot et al. 2018; Arora et al. 2019, eq. 4; He c = 2, no bias),
    written out below: Σ^(1) = κ_1(t), Σ̇^(1) = κ_0(t) = (π − arccos t)/π, Σ^(2) = κ_1(Σ^(1)),
    Σ̇^(2) = κ_0(Σ^(1)), Θ = (t Σ̇^(1) + Σ^(1)) Σ̇^(2) + Σ^(2). At d = 50 its μ_k fall to 10^−56
    of κ(1) by k = 200, where the Taylor series confirmed no digit (it converges like
    j^(−3/2)): the package now confirms all 30 at every k <= 200, and they are those of the
    quadrature of (a) applied to this composition at 110 digits (k = 0, 7, 40, 120)."""
    def kappa0(rho):
        return (mpmath.pi - mpmath.acos(rho)) / mpmath.pi

    def ntk(t):
        s1, ds1 = _kappa1(t), kappa0(t)
        return (t * ds1 + s1) * kappa0(s1) + _kappa1(s1)

    s = spectrum(KernelSpec(activation="relu", kind="ntk", depth=3), Levels(50, 200, 30))
    assert [lev.k for lev in s.levels if lev.digits < 30] == []
    with mpmath.workdps(110):
        for k in (0, 7, 40, 120):
            lev = s.levels[k]
            ref = _funk_hecke_at(ntk, 50, k, 110)
            assert abs(lev.value - ref) < mpmath.mpf(10) ** -29 * abs(ref), (k, lev.value, ref)


def test_deep_erf_ntk_with_bias_every_printed_digit():
    """erf NTK of depth 4 with bias β² = 1/2 at d = 10 (the smooth, deep, biased route: each
    layer's Hermite dual truncated to a lower bound and composed), against the composition
    written here from its closed forms (Williams 1997: E[erf(u)erf(v)] =
    (2/π) arcsin(2c/√((1 + 2a)(1 + 2b))), E[erf'(u)erf'(v)] = (4/π)/√((1 + 2a)(1 + 2b) − 4c²)
    for (u, v) of covariance [[a, c], [c, b]]) and Arora et al.'s recursion with the package's
    stated normalisation (Σ^(1) = t + β², Σ^(l+1) = c_σ E[σσ] + β², Σ̇^(l+1) = c_σ E[σ'σ'],
    Θ^(l+1) = Θ^(l) Σ̇^(l+1) + Σ^(l+1), c_σ = 1/E[erf(z)²] = π/(2 arcsin(2/3))), quadrature of
    Funk–Hecke at 60 digits: every printed digit of μ_0, μ_3, μ_10, μ_20 is right, and at least
    12 are printed at k = 20 (composing only to degree 2·kmax + 32 confirmed 7 there)."""
    with mpmath.workdps(60):
        beta2 = mpmath.mpf(1) / 2
        c = mpmath.pi / (2 * mpmath.asin(mpmath.mpf(2) / 3))

        def ntk(t):
            one = 1 + beta2          # Σ^(l)(1)
            s = theta = t + beta2
            for _ in range(3):      # layers 2, 3, 4
                den = 1 + 2 * one
                new = c * 2 / mpmath.pi * mpmath.asin(2 * s / den) + beta2
                dot = c * 4 / mpmath.pi / mpmath.sqrt(den * den - 4 * s * s)
                theta = theta * dot + new
                s = new
                one = c * 2 / mpmath.pi * mpmath.asin(2 * one / den) + beta2
            return theta

        spec = spectrum(KernelSpec(activation="erf", kind="ntk", depth=4, bias="1/2"),
                        Levels(10, 20, 30))
        assert spec.levels[20].digits >= 12
        for k in (0, 3, 10, 20):
            lev = spec.levels[k]
            ref = _funk_hecke_at(ntk, 10, k, 60)
            assert abs(lev.value - ref) <= mpmath.mpf(10) ** (1 - lev.digits) * abs(ref), \
                (k, lev.value, ref, lev.digits)
