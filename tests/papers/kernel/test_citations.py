"""The kernel paper's cited formulas, re-transcribed from public sources other than our code and
compared with our functions at generic parameter values (issue 35, "say exactly which statement
of which paper each output rests on").

What could be read (searched 2026-12-06 in the stored copies of public pages and repositories):

- Mei & Montanari, arXiv:1908.05355: the stored pages (https://ar5iv.labs.arxiv.org/html/1908.05355,
  https://lucians-macbook-pro.tailbb1a78.ts.net/1908.05355) give the abstract and the
  introduction only, not Definition 1 / Theorem 1. Two independent public transcriptions of
  them were read instead: Wang, Lin et al., "Optimal activation functions for the random features
  regression model" (ICLR 2023), github.com/Jeffwang87/RFR_AF, RunMeToGenerateFigure1.nb
  (``eps0``, ``eps1``, ``eps2``, ``B``, ``V``, ``R`` and the ridgeless ``chiSpecial1``), and a
  public Python transcription ("Implements Eq (15)–(20) of Mei and Montanari": the fixed point as
  a polynomial system, χ = ν_1ν_2, E_0, E_1, E_2, B = E_1/E_0, V = E_2/E_0, the risk
  F_1²B + (τ² + F_*²)V + F_*²). These are secondary: they check our transcription against two
  others, not against the paper.
- Hastie, Montanari, Rosset & Tibshirani 2022 and Dobriban & Wager 2018: the stored pages give
  the abstracts only. The isotropic formulas were read in R. Tibshirani's lecture notes (a
  co-author of Hastie et al.), github.com/ryantibs/statlearn-s23 (commit 600b970),
  lectures/ridge/ridge.tex (eq:mp_stieltjes, eq:ridge_risk_iso_limit, λ* = 1/α and the risk at
  λ*) and lectures/ridgeless/ridgeless.tex (eq:ls_risk_limit, eq:ridgeless_risk_iso_limit); the
  notes give no theorem numbers of the papers, so those remain unchecked.

Each reference below is written from that source, not from fltheory's code, and solved by a
different method (mpmath ``findroot`` on the polynomial form, a numerical derivative, a
quadrature of the Marchenko–Pastur density).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from fltheory.engine.kernels.rf import rf_chi, rf_risk
from fltheory.engine.kernels.ridge import ridge_risk, ridgeless_risk

# generic points (ψ_1, ψ_2, ζ², λ̄): under- and over-parametrised, ζ² below and above 1
RF_POINTS = [(1.7, 0.6, 0.83, 0.37), (0.45, 2.9, 2.3, 0.05), (3.1, 1.3, 0.41, 1.9)]


def _chi_reference(psi1: float, psi2: float, zeta2: float, lam_bar: float) -> float:
    """χ from the fixed point as the public Python transcription writes "Equation (15) from Mei
    and Montanari": ν_1(ξ·D + ν_2·D + ζ²ν_2) + ψ_1·D = 0 and the same with 1 ↔ 2,
    D = 1 − ζ²ν_1ν_2, at ξ = i(ψ_1ψ_2λ̄)^{1/2}. With ν_j = i a_j both equations are real:
    −a_1(sD + a_2D + ζ²a_2) + ψ_1D = 0, D = 1 + ζ²a_1a_2, s = (ψ_1ψ_2λ̄)^{1/2}; the root with
    a_1, a_2 > 0 (ν in the upper half plane) is found by Newton's method (mpmath.findroot),
    and χ = ν_1ν_2 = −a_1a_2."""
    s = mpmath.sqrt(mpmath.mpf(psi1) * psi2 * lam_bar)

    def eqs(a1, a2):
        den = 1 + zeta2 * a1 * a2
        return [-a1 * (s * den + a2 * den + zeta2 * a2) + psi1 * den,
                -a2 * (s * den + a1 * den + zeta2 * a1) + psi2 * den]

    with mpmath.workdps(30):
        a1, a2 = mpmath.findroot(eqs, (mpmath.mpf(1), mpmath.mpf(1)))
        assert a1 > 0 and a2 > 0, (a1, a2)
        return float(-a1 * a2)


def _e_polys(c: float, p1: float, p2: float, z: float) -> tuple[float, float, float]:
    """E_0, E_1, E_2 as ``eps0``, ``eps1``, ``eps2`` of Jeffwang87/RFR_AF,
    RunMeToGenerateFigure1.nb (their ``zetasq`` is ζ², ``chival`` is χ)."""
    e0 = (-c**5 * z**3 + 3 * c**4 * z**2 + (p1 * p2 - p2 - p1 + 1) * c**3 * z**3
          - 2 * c**3 * z**2 - 3 * c**3 * z + (p1 + p2 - 3 * p1 * p2 + 1) * c**2 * z**2
          + 2 * c**2 * z + c**2 + 3 * p1 * p2 * c * z - p1 * p2)
    e1 = p2 * c**3 * z**2 - p2 * c**2 * z + p1 * p2 * c * z - p1 * p2
    e2 = (c**5 * z**3 - 3 * c**4 * z**2 + (p1 - 1) * c**3 * z**3 + 2 * c**3 * z**2
          + 3 * c**3 * z + (-p1 - 1) * c**2 * z**2 - 2 * c**2 * z - c**2)
    return e0, e1, e2


@pytest.mark.parametrize("psi1, psi2, zeta2, lam_bar", RF_POINTS)
def test_rf_fixed_point_matches_polynomial_form(psi1, psi2, zeta2, lam_bar):
    """Mei & Montanari (arXiv:1908.05355) Definition 1, the fixed point for ν_1, ν_2 and
    χ = ν_1ν_2, as transcribed in a public Python file ("Equation (15) from Mei and Montanari",
    the polynomial form; not the paper itself, whose full text is not at hand): our damped
    iteration :func:`rf_chi` against Newton's method on that polynomial form."""
    ours = rf_chi(psi1, psi2, zeta2, lam_bar)
    assert abs(ours.imag) < 1e-12
    assert ours.real == pytest.approx(_chi_reference(psi1, psi2, zeta2, lam_bar), rel=1e-10)


@pytest.mark.parametrize("psi1, psi2, zeta2, lam_bar", RF_POINTS)
def test_rf_risk_matches_wang_et_al_transcription(psi1, psi2, zeta2, lam_bar):
    """Mei & Montanari (arXiv:1908.05355) Definition 1 and Theorem 1, the test error
    F_1² B + (τ² + F_*²) V + F_*² with B = E_1/E_0, V = E_2/E_0, as transcribed in
    github.com/Jeffwang87/RFR_AF RunMeToGenerateFigure1.nb (``eps0``–``eps2``, ``B``, ``V``,
    ``R``), evaluated at the χ of Newton's method above: agrees with :func:`rf_risk` (bias,
    variance and risk separately) at generic F_1², F_*², τ²."""
    f1, fs, tau2 = 1.3, 0.4, 0.25
    c = _chi_reference(psi1, psi2, zeta2, lam_bar)
    e0, e1, e2 = _e_polys(c, psi1, psi2, zeta2)
    b, v = e1 / e0, e2 / e0
    r = rf_risk(psi1, psi2, zeta2, lam_bar, f1, fs, tau2)
    assert r.bias == pytest.approx(b, rel=1e-9)
    assert r.variance == pytest.approx(v, rel=1e-9)
    assert r.risk == pytest.approx(f1 * b + (tau2 + fs) * v + fs, rel=1e-9)


@pytest.mark.parametrize("psi1, psi2, zeta2", [(1.7, 0.6, 0.83), (0.45, 2.9, 2.3)])
def test_rf_ridgeless_chi_matches_closed_form(psi1, psi2, zeta2):
    """The λ → 0 limit of χ in closed form, ``chiSpecial1`` of Jeffwang87/RFR_AF
    RunMeToGenerateFigure1.nb (their transcription of Mei & Montanari's ridgeless limit):
    χ = −[√((ψζ² − ζ² − 1)² + 4ζ²ψ) + (ψζ² − ζ² − 1)]/(2ζ²), ψ = min(ψ_1, ψ_2). Our fixed
    point at λ̄ = 10⁻⁸ must be within 10⁻³ of it (χ moves by O(√λ̄) near λ̄ = 0)."""
    p = min(psi1, psi2)
    q = p * zeta2 - zeta2 - 1
    closed = -(mpmath.sqrt(q * q + 4 * zeta2 * p) + q) / (2 * zeta2)
    assert rf_chi(psi1, psi2, zeta2, 1e-8).real == pytest.approx(float(closed), abs=1e-3)


# ----------------------------------------------------------------- ridge (Hastie et al., D & W)

RIDGE_POINTS = [(Fraction(37, 100), Fraction(17, 10), Fraction(3, 5), Fraction(23, 100)),
                (Fraction(19, 10), Fraction(7, 10), Fraction(6, 5), Fraction(11, 20))]


def _m_notes(gamma: float, z: float) -> mpmath.mpf:
    """m(−z), z > 0, as eq:mp_stieltjes of ryantibs/statlearn-s23 lectures/ridge/ridge.tex:
    (−(1 − γ + z) + √((1 − γ + z)² + 4γz))/(2γz)."""
    g = mpmath.mpf(gamma)
    return (-(1 - g + z) + mpmath.sqrt((1 - g + z) ** 2 + 4 * g * z)) / (2 * g * z)


def _m_density(gamma: float, lam: float) -> mpmath.mpf:
    """m_F(−λ) = ∫ dF(s)/(s + λ) over the Marchenko–Pastur law of eq:mp_law of the same notes,
    dF/ds = √((b − s)(s − a))/(2πγs) on [a, b] = [(1 − √γ)², (1 + √γ)²], plus the mass
    1 − 1/γ at 0 when γ > 1 (quadrature: a check of the closed form itself)."""
    g = mpmath.mpf(gamma)
    a, b = (1 - mpmath.sqrt(g)) ** 2, (1 + mpmath.sqrt(g)) ** 2
    body = mpmath.quad(lambda s: mpmath.sqrt((b - s) * (s - a)) / (2 * mpmath.pi * g * s)
                       / (s + lam), [a, b])
    return body + (max(1 - 1 / g, 0) / lam)


@pytest.mark.parametrize("gamma, r2, sigma, lam", RIDGE_POINTS)
def test_ridge_risk_matches_isotropic_limit(gamma, r2, sigma, lam):
    """The isotropic ridge risk σ²γ(m_F(−λ) − λ(1 − αλ) m_F'(−λ)), α = r²/(σ²γ), for
    β̂ = (XᵀX/n + λI)⁻¹XᵀY/n (eq:ridge_risk_iso_limit of ryantibs/statlearn-s23
    lectures/ridge/ridge.tex, which follows Dobriban & Wager 2018; the paper's theorem
    numbers are not in the notes), m_F' by a numerical derivative of the notes' m(−z) and m_F
    checked against a quadrature of the MP density: agrees with :func:`ridge_risk`."""
    g, s2, lam_f = float(gamma), float(sigma) ** 2, float(lam)
    with mpmath.workdps(30):
        m = _m_notes(g, lam_f)
        assert m == pytest.approx(_m_density(g, lam_f), rel=1e-12)
        dm = -mpmath.diff(lambda z: _m_notes(g, z), lam_f)  # m_F'(−λ) = −d/dλ m_F(−λ)
        alpha = float(r2) / (s2 * g)
        ref = s2 * g * (m - lam_f * (1 - alpha * lam_f) * dm)
    ours = ridge_risk(gamma, r2, sigma, lam)
    assert float(ours.risk) == pytest.approx(float(ref), rel=1e-12)
    assert float(ours.bias) == pytest.approx(float(lam_f**2 * float(r2) * dm), rel=1e-12)


@pytest.mark.parametrize("gamma, r2, sigma, lam", RIDGE_POINTS)
def test_optimal_ridge_matches_notes(gamma, r2, sigma, lam):
    """λ* = 1/α = σ²γ/r² and the risk there σ²γ m_F(−1/α) (ridge.tex, after
    eq:ridge_risk_iso_limit, attributed there to Dobriban & Wager 2018): agrees with
    :func:`ridge_risk` at ``None``, and λ* beats λ ± 10% in our risk."""
    g, s2 = float(gamma), float(sigma) ** 2
    lam_star = s2 * g / float(r2)
    ours = ridge_risk(gamma, r2, sigma, None)
    assert float(ours.lam) == pytest.approx(lam_star, rel=1e-15)
    with mpmath.workdps(30):
        ref = s2 * g * _m_notes(g, lam_star)
    assert float(ours.risk) == pytest.approx(float(ref), rel=1e-12)
    for f in (Fraction(9, 10), Fraction(11, 10)):
        other = ridge_risk(gamma, r2, sigma, Fraction(str(ours.lam)) * f)
        assert float(other.risk) > float(ours.risk)


@pytest.mark.parametrize("gamma, r2, sigma", [(Fraction(37, 100), Fraction(17, 10), Fraction(3, 5)),
                                              (Fraction(19, 10), Fraction(7, 10), Fraction(6, 5))])
def test_ridgeless_matches_notes(gamma, r2, sigma):
    """Ridgeless isotropic risk: σ²γ/(1 − γ) for γ < 1 (eq:ls_risk_limit) and
    r²(1 − 1/γ) + σ²/(γ − 1) for γ > 1 (eq:ridgeless_risk_iso_limit), ryantibs/statlearn-s23
    lectures/ridgeless/ridgeless.tex (following Hastie et al. 2022): agrees with
    :func:`ridgeless_risk` exactly (rationals)."""
    s2 = sigma**2
    ref = s2 * gamma / (1 - gamma) if gamma < 1 else r2 * (1 - 1 / gamma) + s2 / (gamma - 1)
    assert Fraction(str(ridgeless_risk(gamma, r2, sigma))) == ref
