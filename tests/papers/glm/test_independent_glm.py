"""Independent checks of the GLM theory (fltheory.papers.glm).

Every reference is computed here from the published formulas, another way than the code under
test and at generic parameter values: mpmath / scipy quadrature of the *definitions*
Z_out(y, ω, V) = E_u P_out(y | ω + √V u), g_out = ∂_ω ln Z_out, q̂ = α E g_out² and of the
prior's scalar channel (Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 116 (2019) 5451,
the replica formula and state evolution), with the textbook forms of the binary perceptron
(tanh denoiser, Gardner's Φ-form of the output term: Györgyi 1990, Engel & Van den Broeck 2001
ch. 7) — never the variables (log space, r = ω/√V, breakpoints) the code uses.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, special

from fltheory.papers.glm import _se
from fltheory.papers.glm._channels import channel_numerics
from fltheory.papers.glm._priors import PriorNumerics
from fltheory.papers.glm.params import (
    Channel,
    gauss_bernoulli,
    gaussian,
    mixture,
    rademacher,
    sparse_rademacher,
)
from fltheory.papers.glm.theory import (
    NotConverged,
    alpha_wr_exact,
    point,
    state_evolution,
    thresholds,
)

mp.mp.dps = 15


def _D(f):
    """E f(ξ), ξ ~ N(0, 1), tanh-sinh quadrature."""
    return mp.quad(lambda t: mp.npdf(t) * f(t), [-mp.inf, -6, -2, 0, 2, 6, mp.inf])


# ---------------------------------------------------------------------------- the prior side


@pytest.mark.parametrize("qh", [0.37, 2.9, 17.0])
def test_rademacher_mmse_is_one_minus_e_tanh(qh):
    """Rademacher: mmse(q̂) = 1 − E tanh(q̂ + √q̂ ξ) (Nishimori), ψ₀ = E ln cosh(B) − q̂/2."""
    ref = 1 - _D(lambda t: mp.tanh(qh + mp.sqrt(qh) * t))
    psi = _D(lambda t: mp.log(mp.cosh(qh + mp.sqrt(qh) * t))) - mp.mpf(qh) / 2
    P = PriorNumerics.of(rademacher())
    assert P.mmse(qh) == pytest.approx(float(ref), rel=1e-11)
    assert P.psi(qh) == pytest.approx(float(psi), rel=1e-11)


def _mixture_reference(comps, qh):
    """mmse and ψ₀ of a mixture by the definition: B = q̂ w + √q̂ ξ, the moments of the
    posterior of w given B by integrating the prior (point masses summed, Gaussians integrated
    by scipy's adaptive quad), averaged over w* and ξ by scipy quad (doubles, nested)."""

    def moments(B):
        z = [0.0, 0.0, 0.0]
        for p, m, s in comps:
            if s == 0:
                e = p * math.exp(B * m - qh * m * m / 2)
                z = [z[0] + e, z[1] + e * m, z[2] + e * m * m]
            else:
                sd = math.sqrt(s)
                # the tilted density p N(w; m, s) e^{Bw − q̂w²/2} is Gaussian-shaped: integrate
                # around its peak
                c = (m / s + B) / (1 / s + qh)
                w_sd = 1 / math.sqrt(1 / s + qh)
                for k in range(3):
                    val, _ = integrate.quad(
                        lambda w, k=k, p=p, m=m, sd=sd, c=c: p * w ** k * math.exp(
                            -0.5 * ((w - m) / sd) ** 2 + B * w - qh * w * w / 2
                            - (-0.5 * ((c - m) / sd) ** 2 + B * c - qh * c * c / 2))
                        / (math.sqrt(2 * math.pi) * sd),
                        c - 12 * w_sd, c + 12 * w_sd, epsabs=0, epsrel=1e-11)
                    scale = math.exp(-0.5 * ((c - m) / sd) ** 2 + B * c - qh * c * c / 2)
                    z[k] += val * scale
        return z

    def avg(f):
        tot = 0.0
        for p, m, s in comps:
            sd = math.sqrt(qh + qh * qh * s)
            val, _ = integrate.quad(
                lambda B, m=m, sd=sd: math.exp(-0.5 * ((B - qh * m) / sd) ** 2) / (
                    math.sqrt(2 * math.pi) * sd) * f(B),
                qh * m - 12 * sd, qh * m + 12 * sd, epsabs=1e-13, epsrel=1e-10, limit=200)
            tot += p * val
        return tot

    def var(B):
        z0, z1, z2 = moments(B)
        return z2 / z0 - (z1 / z0) ** 2

    return avg(var), avg(lambda B: math.log(moments(B)[0]))


@pytest.mark.parametrize("prior,qh", [
    (gauss_bernoulli("3/10"), 1.7),
    (sparse_rademacher("1/5"), 6.3),
    (mixture([("1/4", 0, 0), ("1/2", "3/2", "1/3"), ("1/4", -1, 0)]), 0.8),
])
def test_mixture_prior_against_the_definition(prior, qh):
    comps = [(float(w), float(m), float(s)) for w, m, s in prior.components]
    with warnings.catch_warnings():   # quadpack's round-off notice at 1e-10: compared below
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        mmse, psi = _mixture_reference(comps, qh)
    P = PriorNumerics.of(prior)
    assert P.mmse(qh) == pytest.approx(float(mmse), rel=1e-8)
    assert P.psi(qh) == pytest.approx(float(psi), rel=1e-8, abs=1e-10)


# ---------------------------------------------------------------------------- the channel side


@pytest.mark.parametrize("q", [0.23, 0.81, 0.9993])
def test_sign_channel_against_the_phi_form(q):
    """y = sign(z), ρ = 1: Z_out = Φ(yω/√V); Q = 2 E φ(x)²/(V Φ(x)) with x = √(q/V) ξ, and
    ΔΨ = 2 E Φ(x) ln Φ(x) + ln 2; the Bayes error is arccos(√q)/π."""
    V = 1 - q
    s = mp.sqrt(q / V)
    Q = 2 * _D(lambda t: mp.npdf(s * t) ** 2 / (V * mp.ncdf(s * t)))
    dpsi = 2 * _D(lambda t: mp.ncdf(s * t) * mp.log(mp.ncdf(s * t))) + mp.log(2)
    C = channel_numerics(Channel("sign"), 1.0)
    assert C.Q(q) == pytest.approx(float(Q), rel=1e-10)
    assert C.dpsi(q) == pytest.approx(float(dpsi), rel=1e-10)
    assert C.gen_error(q) == pytest.approx(math.acos(math.sqrt(q)) / math.pi, rel=1e-9)


@pytest.mark.parametrize("K,rho,probit,q", [("7/10", 1, 0, 0.41), ("3/2", 2, "1/3", 1.3)])
def test_door_channel_against_the_definition(K, rho, probit, q):
    """y = sign(|z + σ_in ε| − K): Z_out(±1) from Φ directly (mpmath, no log space), Q and ΔΨ
    averaged over ω ~ N(0, q)."""
    Kf, s2 = mp.mpf(Fraction(K).numerator) / Fraction(K).denominator, mp.mpf(float(
        Fraction(probit))) ** 2
    V = mp.mpf(rho) - q + s2
    sv = mp.sqrt(V)

    def zs(w):
        zm = mp.ncdf((Kf - w) / sv) - mp.ncdf((-Kf - w) / sv)
        dzm = (-mp.npdf((Kf - w) / sv) + mp.npdf((-Kf - w) / sv)) / sv
        return [(1 - zm, -dzm), (zm, dzm)]

    # far in the tails a Φ rounds to 0 at this precision; its term d²/z → 0 there
    Q = mp.quad(lambda w: mp.npdf(w, 0, mp.sqrt(q)) * sum(d * d / z for z, d in zs(w) if z > 0),
                [-mp.inf, -Kf, 0, Kf, mp.inf])
    rho1 = mp.mpf(rho) + s2
    p0 = [z for z, _ in zs_at(Kf, rho1)]
    Hy = -sum(p * mp.log(p) for p in p0)
    dpsi = mp.quad(lambda w: mp.npdf(w, 0, mp.sqrt(q)) * sum(z * mp.log(z) for z, _ in zs(w)
                                                             if z > 0),
                   [-mp.inf, -Kf, 0, Kf, mp.inf]) + Hy
    C = channel_numerics(Channel("door", K=K, probit=probit), float(rho))
    assert C.Q(q) == pytest.approx(float(Q), rel=1e-9)
    assert C.dpsi(q) == pytest.approx(float(dpsi), rel=1e-9)


def zs_at(K, rho1):
    zm = mp.ncdf(K / mp.sqrt(rho1)) - mp.ncdf(-K / mp.sqrt(rho1))
    return [(1 - zm, 0), (zm, 0)]


@pytest.mark.parametrize("q", [0.3, 0.95])
def test_phase_retrieval_against_the_two_dimensional_definition(q):
    """y = |z|, ρ = 1: g_out = (a tanh(aω/V) − ω)/V (the two preimages ±a), Q = E g_out² over
    the joint law of (ω, z), by scipy's adaptive 2-d quadrature in (ω, z)."""
    V = 1 - q

    def f(z, w):
        a = abs(z)
        g = (a * math.tanh(a * w / V) - w) / V
        return g * g * math.exp(-w * w / (2 * q) - (z - w) ** 2 / (2 * V)) / (
            2 * math.pi * math.sqrt(q * V))

    sq, sv = math.sqrt(q), math.sqrt(V)
    Q, _ = integrate.dblquad(f, -10 * sq, 10 * sq, lambda w: w - 12 * sv, lambda w: w + 12 * sv,
                             epsabs=1e-12, epsrel=1e-10)
    C = channel_numerics(Channel("abs"), 1.0)
    assert C.Q(q) == pytest.approx(Q, rel=1e-7)
    assert channel_numerics(Channel("square"), 1.0).Q(q) == pytest.approx(Q, rel=1e-7)


@pytest.mark.parametrize("q", [0.35, 0.9])
def test_relu_channel_against_the_definition(q):
    """y = max(0, z): Z_out(0) = Φ(−ω/√V), Z_out(y > 0) = N(y; ω, V); Q = E over ω of
    the y = 0 term plus ∫_0^∞ N(y; ω, V)((y − ω)/V)² dy, by scipy quadrature."""
    V = 1 - q
    sv = math.sqrt(V)

    def inner(w):
        z0 = special.ndtr(-w / sv)
        g0 = -math.exp(-w * w / (2 * V)) / math.sqrt(2 * math.pi * V) / z0
        pos, _ = integrate.quad(lambda y: math.exp(-(y - w) ** 2 / (2 * V)) / math.sqrt(
            2 * math.pi * V) * ((y - w) / V) ** 2, 0, np.inf)
        return z0 * g0 * g0 + pos

    Q, _ = integrate.quad(lambda w: inner(w) * math.exp(-w * w / (2 * q)) / math.sqrt(
        2 * math.pi * q), -12 * math.sqrt(q), 12 * math.sqrt(q), epsrel=1e-11, limit=200)
    assert channel_numerics(Channel("relu"), 1.0).Q(q) == pytest.approx(Q, rel=1e-8)


# ---------------------------------------------------------------------------- fixed points


def test_gaussian_prior_linear_channel_closed_form():
    """Gaussian prior N(0, ρ), y = z + noise Δ: q̂ = α/(V + Δ), V = ρ/(1 + ρ q̂): the fixed
    point solves a quadratic (Barbier et al. 2019 SI, the linear estimation example)."""
    rho, delta, alpha = 1.5, 0.09, 0.7
    ch = Channel("linear", noise=Fraction(3, 10))
    # V² + V(Δ + α ρ − ρ) − ρΔ = 0 (from V = ρ(V + Δ)/(V + Δ + ρ α))
    b = delta + alpha * rho - rho
    V = (-b + math.sqrt(b * b + 4 * rho * delta)) / 2
    p = point(gaussian("3/2"), ch, alpha)
    assert p.bayes_mmse.value == pytest.approx(V, rel=1e-12)
    assert p.bayes_mmse.digits >= 12


def test_binary_perceptron_fixed_point_and_free_entropy():
    """Rademacher × sign at α = 0.9, generic: the fixed point by iterating the textbook map
    q̂ = α·2E φ(x)²/((1 − q)Φ(x)), q = E tanh²(q̂ + √q̂ ξ) in mpmath, and its free entropy
    E ln cosh − q̂/2 + 2α E Φ ln Φ − q q̂/2 (+ α ln 2, our normalisation)."""
    p = point(rademacher(), Channel("sign"), 0.9)
    alpha = mp.mpf("0.9")
    q = mp.mpf(p.bayes_q.value) + mp.mpf("1e-6")   # a start near it; the map must contract
    for _ in range(25):
        s = mp.sqrt(q / (1 - q))
        qh = alpha * 2 * _D(lambda t, s=s, q=q: mp.npdf(s * t) ** 2 / ((1 - q)
                                                                      * mp.ncdf(s * t)))
        q_next = _D(lambda t, qh=qh: mp.tanh(qh + mp.sqrt(qh) * t) ** 2)
        step, q = abs(q_next - q), q_next
    assert step < 1e-11
    s = mp.sqrt(q / (1 - q))
    f = (_D(lambda t: mp.log(mp.cosh(qh + mp.sqrt(qh) * t))) - qh / 2
         + alpha * (2 * _D(lambda t: mp.ncdf(s * t) * mp.log(mp.ncdf(s * t))) + mp.log(2))
         - q * qh / 2)
    assert p.bayes_q.value == pytest.approx(float(q), rel=1e-9)
    assert p.bayes_f.value == pytest.approx(float(f), rel=1e-9)


def test_binary_perceptron_thresholds():
    """Published values: α_alg ≈ 1.493 (Barbier et al. 2019, Fig. 2 / Table: 1.493) and the
    first-order transition to perfect generalisation α_IT ≈ 1.245 (Györgyi 1990; Sompolinsky,
    Tishby & Seung 1990). Barbier et al. print α_IT ≈ 1.249; our 1.24468… agrees with it to
    two digits only, and with the independent crossing below (mpmath, textbook formulas) to
    the digits printed — see docs/papers/glm.rst."""
    t = thresholds(rademacher(), Channel("sign"))
    it, alg = t.get("IT"), t.get("alg")
    assert it.digits >= 10 and alg.digits >= 10
    assert round(alg.value, 3) == 1.493
    assert round(it.value, 3) == 1.245
    assert t.get("WR") is None
    kinds = {name: kind for name, _, kind, *_ in t.items}
    assert kinds == {"IT": "first order", "alg": "spinodal"}


def test_binary_perceptron_it_crossing_independent():
    """The low branch's free entropy crosses the perfect state's −ln 2 (true normalisation)
    between α_IT − 2e-6 and α_IT + 2e-6: fixed points by mpmath iteration (textbook map)."""
    a_it = thresholds(rademacher(), Channel("sign")).get("IT").value
    # the iteration's start: AMP's low branch just below α_IT (exactly at α_IT the Bayes
    # fixed point is a tie the two resolutions may break differently: point() refuses it)
    q_start = point(rademacher(), Channel("sign"), a_it * (1 - 1e-7)).amp_q.value

    def g(alpha):
        alpha = mp.mpf(alpha)
        q = mp.mpf(q_start)
        for _ in range(40):
            s = mp.sqrt(q / (1 - q))
            qh = alpha * 2 * _D(lambda t, s=s, q=q: mp.npdf(s * t) ** 2 / ((1 - q)
                                                                          * mp.ncdf(s * t)))
            qn = _D(lambda t, qh=qh: mp.tanh(qh + mp.sqrt(qh) * t) ** 2)
            if abs(qn - q) < mp.mpf("1e-13"):
                break
            q = qn
        s = mp.sqrt(q / (1 - q))
        return (_D(lambda t: mp.log(mp.cosh(qh + mp.sqrt(qh) * t))) - qh / 2
                + alpha * 2 * _D(lambda t: mp.ncdf(s * t) * mp.log(mp.ncdf(s * t)))
                - q * qh / 2 + mp.log(2))

    try:
        assert g(a_it - 2e-6) > 0 > g(a_it + 2e-6)
    finally:
        mp.mp.dps = 15


def test_phase_retrieval_gaussian_prior_thresholds():
    """Gaussian prior, y = z² (Barbier et al. 2019; Mondelli & Montanari 2018; Maillard, Loureiro,
    Krzakala & Zdeborová 2020): α_WR = 1/2, perfect recovery α_IT = 1 (first order), AMP's
    spinodal α_alg ≈ 1.13."""
    t = thresholds(gaussian(), Channel("square"))
    assert t.get("WR").value == 0.5
    assert dict((n, e) for n, _, _, _, _, e in t.items)["WR"] == "1/2"
    assert t.get("IT").value == 1.0
    assert round(t.get("alg").value, 2) == 1.13
    assert t.get("alg").digits >= 10


def test_door_thresholds_rademacher():
    """Rademacher prior, symmetric door with K ≈ 0.674 (balanced labels): α_IT ≈ 1 and
    α_alg ≈ 1.57 (Barbier et al. 2019, the door example)."""
    t = thresholds(rademacher(), Channel("door", K="0.674"))
    assert round(t.get("IT").value, 3) == 1.0
    assert round(t.get("alg").value, 2) == 1.57


def test_weak_recovery_agrees_with_the_spectral_kit():
    """Where they coincide (Gaussian prior, ρ = 1) α_WR equals the spectral α_c of
    fltheory.engine.spectral (Mondelli & Montanari 2018): y = z² gives 1/2."""
    from fltheory.engine.spectral.links import link_threshold

    for ch, g in ((Channel("square"), "z**2"),):
        ours = thresholds(gaussian(), ch).get("WR").value
        theirs = link_threshold(g, dps=15).alpha_c
        assert ours == pytest.approx(float(theirs), rel=1e-14)


def test_door_weak_recovery_closed_form_against_the_curve():
    """The door's closed form ρ'² p₊p₋/(ρ²(2κφ(κ))²) against A(q̂) of the curve at small q̂
    (the linearisation computed by the quadrature of Q and of the prior), generic K, ρ, σ_in."""
    prior, ch = gaussian("3/2"), Channel("door", K="9/10", probit="1/4")
    exact = float(mp.mpf(__import__("sympy").N(alpha_wr_exact(prior, ch), 20)))
    se = _se.SE(prior, ch, 1)
    assert se.A(1e-7) == pytest.approx(exact, rel=1e-6)
    assert se.alpha_wr() == pytest.approx(exact, rel=1e-12)   # the linearisation's formula


def test_nonconvergence_names_alpha_and_iterations():
    with pytest.raises(NotConverged, match=r"alpha = 1\.49 did not converge in 5 iterations"):
        state_evolution(rademacher(), Channel("sign"), 1.49, iterations=5)


# ---------------------------------------------------------------------------- ridge beside Bayes


def _mp_moments(alpha, lam):
    """∫ s/(s+λ), ∫ s²/(s+λ)², ∫ s/(s+λ)² over the spectrum of S = XᵀX/d (X n × d, n = αd,
    α > 1): S = α W with W = XᵀX/n of Marchenko–Pastur law, ratio γ = 1/α, density
    √((b − x)(x − a))/(2πγx) on [a, b] = [(1 ∓ √γ)²] (mpmath quadrature)."""
    g = mp.mpf(1) / alpha
    a, b = (1 - mp.sqrt(g)) ** 2, (1 + mp.sqrt(g)) ** 2

    def E(f):
        return mp.quad(lambda x: mp.sqrt((b - x) * (x - a)) / (2 * mp.pi * g * x) * f(alpha * x),
                       [a, b])

    return (E(lambda s: s / (s + lam)), E(lambda s: s * s / (s + lam) ** 2),
            E(lambda s: s / (s + lam) ** 2))


def test_ridge_against_the_marchenko_pastur_integrals():
    """m = μ₁ρ E[s/(s+λ)], q = μ₁²ρ E[s²/(s+λ)²] + Δ E[s/(s+λ)²] over the spectrum of XᵀX/d
    (direct spectral calculus of ŵ = (S + λ)⁻¹Xᵀy/√d), at generic α, λ and a relu teacher
    (μ₁ = 1/2, E y² = 1/2, Δ = 1/4)."""
    from fltheory.papers.glm.erm import ridge

    alpha, lam = mp.mpf("2.3"), mp.mpf("0.37")
    e1, e2, e3 = _mp_moments(alpha, lam)
    mu1, delta = mp.mpf(1) / 2, mp.mpf(1) / 4
    r = ridge(gaussian(), Channel("relu"), float(alpha), float(lam))
    assert r.m == pytest.approx(float(mu1 * e1), rel=1e-10)
    assert r.q == pytest.approx(float(mu1 ** 2 * e2 + delta * e3), rel=1e-10)
    assert r.error == pytest.approx(float(mp.mpf(1) / 2 - 2 * mu1 * mu1 * e1 + mu1 ** 2 * e2
                                          + delta * e3), rel=1e-10)


def test_ridge_at_lambda_delta_is_the_bayes_estimator():
    """Gaussian prior and linear channel: ridge at λ = Δ/ρ is the posterior mean, so its m and
    q equal the Bayes overlap of the state evolution (a second, independent route)."""
    from fltheory.papers.glm.erm import ridge

    ch = Channel("linear", noise="1/2")
    r = ridge(gaussian(), ch, 1.7, 0.25)
    q = point(gaussian(), ch, 1.7).bayes_q.value
    assert r.m == pytest.approx(q, rel=1e-12)
    assert r.q == pytest.approx(q, rel=1e-12)


def test_optimal_ridge_on_sign_labels():
    """On sign labels of a Gaussian teacher the best λ is Δ/(μ₁²ρ) = π/2 − 1 at every α (the
    linear part μ₁ = √(2/π), noise Δ = 1 − 2/π): the Bayes linear estimator."""
    from fltheory.papers.glm.erm import ridge_optimal

    for a in (0.8, 3.0):
        assert ridge_optimal(gaussian(), Channel("sign"), a).lam == pytest.approx(
            math.pi / 2 - 1, rel=1e-4)
