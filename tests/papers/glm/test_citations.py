"""The glm page's equations, checked numerically against their definitions (issue 36).

Sources sought for the equation numbers (full text looked for with the project's ``search``
stores, 2026-12-06):

* Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 116 (2019) 5451, arXiv:1708.03395 —
  https://www.arxiv-vanity.com/papers/1708.03395/ is stored, but only its opening (title,
  abstract, the plan of the paper) could be read: no displayed equation, so no equation
  number is confirmed here;
* Aubin, Krzakala, Lu & Zdeborová, NeurIPS 2020, arXiv:2006.06560 — abstract only
  (https://papers.neurips.cc/paper/2020/hash/8f4576ad85410442a74ee3a7683757b3-Abstract.html);
* Loureiro et al. 2021, arXiv:2102.08127 — not found;
* Rangan 2011, arXiv:1010.5141 — its first page only (abstract, eq. (1) z = Ax).

So each test below is written from the *definitions* the page states (the scalar channels
Z₀, Z_out, the potential f_RS(q, q̂) = ψ₀(q̂) + α Ψ_out(q) − q q̂/2, its stationarity, the Bayes
prediction ŷ = argmax_y Z_out), by scipy quadrature of those definitions — never the code's
variables — at a generic prior × channel pair that no other test uses: a Gauss–Bernoulli prior
(ρ = 3/10, not centred in law: mass 7/10 at 0) and a sign channel with probit noise σ_in = 1/2.
The ERM fixed-point equations of the page are checked for the hinge loss (the one loss no other
test computes a second way; logistic and square are in test_erm.py).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, special

from fltheory.papers.glm._se import SE
from fltheory.papers.glm.erm import erm_point
from fltheory.papers.glm.params import Channel, gauss_bernoulli, gaussian
from fltheory.papers.glm.theory import point

RHO = 0.3
SIG = 0.5
QH = 1.7      # a generic q̂
ALPHA = 2.3   # a generic α (not the fixed point's: the free entropy is defined at any α)


def _E(f, scale=1.0):
    """E f(s ξ), ξ ~ N(0, 1): adaptive quadrature on |ξ| ≤ 12 (the tail weighs < 1e-32),
    split at 0 and ±3, tolerances 1e-14 (absolute), 1e-12 (relative)."""
    val = 0.0
    for a, b in ((-12, -3), (-3, 0), (0, 3), (3, 12)):
        v, _ = integrate.quad(lambda t: math.exp(-t * t / 2) / math.sqrt(2 * math.pi)
                              * f(scale * t), a, b, epsabs=1e-14, epsrel=1e-12, limit=200)
        val += v
    return val


# ---------------------------------------------------------------- the prior's scalar channel


def _Z0(B, qh):
    """Z₀(B, q̂) = ∫ dP₀(w) e^{Bw − q̂w²/2}, P₀ = (1 − ρ)δ₀ + ρ N(0, 1)."""
    return (1 - RHO) + RHO / math.sqrt(1 + qh) * math.exp(B * B / (2 * (1 + qh)))


def _mean(B, qh):
    """⟨w⟩ = ∂_B ln Z₀."""
    g = RHO / math.sqrt(1 + qh) * math.exp(B * B / (2 * (1 + qh)))
    return g * B / (1 + qh) / _Z0(B, qh)


def _prior_avg(fun, qh):
    """E over w* ~ P₀, ξ of fun(B), B = q̂ w* + √q̂ ξ: w* = 0 gives B ~ N(0, q̂), w* ~ N(0, 1)
    gives B ~ N(0, q̂² + q̂)."""
    return ((1 - RHO) * _E(fun, math.sqrt(qh))
            + RHO * _E(fun, math.sqrt(qh * qh + qh)))


def psi0(qh):
    """ψ₀(q̂) = E ln Z₀(q̂ w* + √q̂ ξ, q̂)."""
    return _prior_avg(lambda B: math.log(_Z0(B, qh)), qh)


def overlap(qh):
    """q = E[w* ⟨w⟩] = E ⟨w⟩² (Nishimori)."""
    return _prior_avg(lambda B: _mean(B, qh) ** 2, qh)


# ---------------------------------------------------------------- the channel


def _Zout(y, w, V):
    """Z_out(y, ω, V) = E_u P_out(y | ω + √V u) = Φ(y ω / √(V + σ_in²)) for
    y = sign(z + σ_in ε')."""
    return special.ndtr(y * w / math.sqrt(V + SIG * SIG))


def dpsi_out(q):
    """Ψ_out(q) − Ψ_out(0): Ψ_out(q) = Σ_y E_ξ Z_out(y, √q ξ, ρ − q) ln Z_out(y, √q ξ, ρ − q),
    and Ψ_out(0) = ln ½."""
    V = RHO - q
    val = sum(_E(lambda w, y=y: special.xlogy(_Zout(y, w, V), _Zout(y, w, V)), math.sqrt(q))
              for y in (-1, 1))
    return val - math.log(0.5)


def f_rs(q, qh, alpha):
    """f_RS(q, q̂) = ψ₀(q̂) + α(Ψ_out(q) − Ψ_out(0)) − q q̂/2 (the page's normalisation)."""
    return psi0(qh) + alpha * dpsi_out(q) - q * qh / 2


# ---------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def se():
    return SE(gauss_bernoulli("3/10"), Channel("sign", probit="1/2"), level=2)


def test_the_overlap_is_the_posterior_mean_of_the_scalar_channel(se):
    """q = F(q̂) = ρ − mmse(q̂) against E⟨w⟩² of Z₀ by quadrature (the page's
    "q = ρ − mmse(q̂)"; Barbier et al. 2019, arXiv:1708.03395, equation number not confirmed:
    full text not reachable, see the module docstring)."""
    assert se.F(QH) == pytest.approx(overlap(QH), rel=1e-10)


def test_the_free_entropy_is_the_potential_at_its_fixed_point_overlap(se):
    """SE.free_entropy(q̂, α) = f_RS(F(q̂), q̂) with ψ₀, Ψ_out from their definitions (the
    page's replica formula, ΔΨ normalisation; Barbier et al. 2019, number not confirmed)."""
    q = overlap(QH)
    assert se.free_entropy(QH, ALPHA) == pytest.approx(f_rs(q, QH, ALPHA), rel=1e-10)


def test_state_evolution_is_the_stationarity_of_the_potential(se):
    """The SE fixed point (q = F(q̂), α = A(q̂), i.e. q̂ = α E g_out²) is a stationary point of
    the independent f_RS: ∂_q̂ f = ψ₀'(q̂) − q/2 = 0 and ∂_q f = α Ψ_out'(q) − q̂/2 = 0, the
    derivatives by central differences (h = 1e-4: error ~1e-9) of the quadratures above."""
    q, alpha, h = se.q_of(QH), se.A(QH), 1e-4
    d_qh = (f_rs(q, QH + h, alpha) - f_rs(q, QH - h, alpha)) / (2 * h)
    d_q = (f_rs(q + h, QH, alpha) - f_rs(q - h, QH, alpha)) / (2 * h)
    # each side is O(q̂) ~ 1 (α Ψ' = q̂/2 = 0.85, ψ₀' = q/2 ~ 0.1): a wrong factor is O(1)
    assert abs(d_qh) < 1e-7
    assert abs(d_q) < 1e-7
    # and the map itself: q̂ = α Q(q) with Q = E g_out² from the definition g_out = ∂_ω ln Z_out
    s2 = RHO - q + SIG * SIG
    gout2 = sum(_E(lambda w, y=y: _Zout(y, w, RHO - q)
                   * (y * math.exp(-w * w / (2 * s2)) / math.sqrt(2 * math.pi * s2)
                      / _Zout(y, w, RHO - q)) ** 2, math.sqrt(q)) for y in (-1, 1))
    assert alpha * gout2 == pytest.approx(QH, rel=1e-10)


def test_bayes_classification_error_is_that_of_argmax_z_out(se):
    """P(ŷ ≠ y) with ŷ = argmax_y Z_out(y, ω, ρ − q) = sign ω, summed over y and ω = √q ξ by
    quadrature, against the channel's error and against arccos(√(q/(ρ + σ_in²)))/π (the page's
    Bayes generalisation error)."""
    q = overlap(QH)
    ref = sum(_E(lambda w, y=y: _Zout(y, w, RHO - q) * (1.0 if y * w < 0 else 0.0),
                 math.sqrt(q)) for y in (-1, 1))
    assert ref == pytest.approx(math.acos(math.sqrt(q / (RHO + SIG * SIG))) / math.pi,
                                rel=1e-10)
    assert se.C.gen_error(q, 2, RHO - q) == pytest.approx(ref, rel=1e-10)


def test_the_command_point_is_a_stationary_point_of_the_potential():
    """At α = 2.3 the Bayes fixed point ``point`` prints satisfies both stationarity equations
    of the independent f_RS, and its printed free entropy and error are f_RS and the argmax
    error there (the values rest on the printed q̂-free quantities q and α only)."""
    p = point(gauss_bernoulli("3/10"), Channel("sign", probit="1/2"), ALPHA)
    q = p.bayes_q.value
    # q̂ from q: ∂_q f = 0 gives q̂ = 2α Ψ_out'(q)
    h = 1e-4
    qh = 2 * ALPHA * (dpsi_out(q + h) - dpsi_out(q - h)) / (2 * h)
    assert overlap(qh) == pytest.approx(q, rel=1e-7)
    assert p.bayes_f.value == pytest.approx(f_rs(q, qh, ALPHA), rel=1e-7)
    assert p.bayes_error.value == pytest.approx(
        math.acos(math.sqrt(q / (RHO + SIG * SIG))) / math.pi, rel=1e-9)


# ---------------------------------------------------------------- hinge ERM, a second route


def _tmom(c, s, a, b):
    """(P, E[ν; a<ν<b], E[ν²; a<ν<b]) for ν ~ N(c, s²), in closed form (truncated moments)."""
    def ends(e):
        if math.isinf(e):
            return (1.0 if e > 0 else 0.0), 0.0, 0.0
        t = (e - c) / s
        d = math.exp(-t * t / 2) / math.sqrt(2 * math.pi)
        return special.ndtr(t), d, t * d
    (Fa, da, tda), (Fb, db, tdb) = ends(a), ends(b)
    P = Fb - Fa
    return (P, c * P + s * (da - db),
            (c * c + s * s) * P + 2 * c * s * (da - db) + s * s * (tda - tdb))


def _hinge_reference(alpha, lam, rho, sigma_in):
    """ℓ2-penalised hinge regression's (m, q, Σ, error) from the page's general ERM equations
    (Aubin, Krzakala, Lu & Zdeborová 2020, arXiv:2006.06560; equation numbers not confirmed:
    abstract only), written another way than the module:

    * the prox of Σ max(0, 1 − y h) at ω, in ν = yω: h = y g(ν), g = ν for ν ≥ 1, 1 on
      (1 − Σ, 1), ν + Σ for ν ≤ 1 − Σ; so f = (h − ω)/Σ = y(g − ν)/Σ, 1 − ∂_ω h = 1 on the
      middle piece, 0 elsewhere;
    * the average over the *teacher's* field z ~ N(0, ρ) and labels y (sign z, or probit
      weights Φ(yz/σ_in)) by scipy quadrature in z, and over the student's field given z,
      ν ~ N(y(m/ρ)z, q − m²/ρ), *exactly* by truncated Gaussian moments on the three pieces
      (the module: composite Gauss–Legendre in ξ with breakpoints at the kinks);
    * m̂ in its Stein form α E[f (z − (m/q)ω)]/(ρ − m²/q) (the module: the density term);
    * the fixed point by damped iteration (the module: Powell's hybrid method)."""

    def inner(z, y, m, q, S):
        s = math.sqrt(q - m * m / rho)
        c, k = y * (m / rho) * z, m / q
        PB, E1B, E2B = _tmom(c, s, 1 - S, 1.0)
        PC, E1C, _ = _tmom(c, s, -math.inf, 1 - S)
        f2 = (PB - 2 * E1B + E2B) / (S * S) + PC
        stein = ((y * z * PB - (y * z + k) * E1B + k * E2B) / S
                 + y * z * PC - k * E1C)
        return np.array([stein, f2, PB])

    def avg(m, q, S):
        def integrand(z, y):
            w = math.exp(-z * z / (2 * rho)) / math.sqrt(2 * math.pi * rho)
            py = (1.0 if y * z > 0 else 0.0) if sigma_in == 0 else special.ndtr(y * z / sigma_in)
            return w * py * inner(z, y, m, q, S)
        top = 14 * math.sqrt(rho)
        tot = np.zeros(3)
        for y in (-1, 1):
            for a, b in ((-top, 0.0), (0.0, top)):
                tot += integrate.quad_vec(lambda z, y=y: integrand(z, y), a, b,
                                          epsabs=1e-15, epsrel=1e-13)[0]
        return tot

    m, q, S = 0.5, 1.0, 1.0
    for _ in range(3000):
        stein, f2, pb = avg(m, q, S)
        mh, qh, Sh = alpha * stein / (rho - m * m / q), alpha * f2, alpha * pb / S
        Sn = 1 / (lam + Sh)
        mn, qn = rho * mh * Sn, (rho * mh * mh + qh) * Sn * Sn
        moved = max(abs(mn - m), abs(qn - q), abs(Sn - S))
        m, q, S = (m + mn) / 2, (q + qn) / 2, (S + Sn) / 2
        if moved < 1e-13:
            break
    else:
        raise AssertionError("the reference iteration did not settle")
    return m, q, S, math.acos(m / math.sqrt((rho + sigma_in ** 2) * q)) / math.pi


@pytest.mark.parametrize("alpha,lam,rho,probit",
                         [(1.7, 0.23, "13/10", 0), (2.6, 0.31, "7/10", "1/3")])
def test_hinge_against_a_second_route(alpha, lam, rho, probit):
    """m, q, Σ and the classification error of ℓ2-penalised hinge regression at generic
    (α, λ, ρ), noiseless and probit labels, against :func:`_hinge_reference` (the page's ERM
    fixed-point equations; no other test checks the hinge fixed point a second way)."""
    m, q, S, err = _hinge_reference(alpha, lam, float(Fraction(rho)), float(Fraction(probit)))
    r = erm_point(gaussian(rho), Channel("sign", probit=probit), alpha, "hinge", lam)
    assert r.m.value == pytest.approx(m, rel=1e-9)
    assert r.q.value == pytest.approx(q, rel=1e-9)
    assert r.sigma.value == pytest.approx(S, rel=1e-9)
    assert r.error.value == pytest.approx(err, rel=1e-9)
