r"""Ridge regression with isotropic features in the proportional regime, exact where algebraic
(Dobriban & Wager 2018, Ann. Stat.; Hastie, Montanari, Rosset & Tibshirani 2022, Ann. Stat.).

Model: x ~ N(0, I_p), y = xᵀβ + ε, ε ~ N(0, σ²), ‖β‖² = r², n samples, p/n → γ;
β̂_λ = argmin (1/n)‖y − Xβ‖² + λ‖β‖² = (XᵀX/n + λ)⁻¹ Xᵀy/n. The risk (against the clean
target) R = E_x (xᵀβ̂ − xᵀβ)² tends to

.. math::

    R(\lambda) = r^2 \lambda^2 m'(-\lambda) + \sigma^2 \gamma\,(m(-\lambda) - \lambda m'(-\lambda)),
    \qquad m(z) = \frac{1 - \gamma - z - \sqrt{(1 - \gamma - z)^2 - 4\gamma z}}{2\gamma z},

m the Stieltjes transform of the Marchenko–Pastur law of ratio γ (bias: the first term, variance:
the second; Hastie et al. 2022, Thm. 2 and its isotropic specialisation; Dobriban & Wager 2018,
Thm. 2.1). Ridgeless (λ → 0+): σ²γ/(1 − γ) for γ < 1 and r²(1 − 1/γ) + σ²/(γ − 1) for γ > 1
(Hastie et al. 2022, Thm. 1), infinite at γ = 1. The optimal ridge is λ* = γσ²/r² with risk
R(λ*) = σ²γ m(−λ*) (Dobriban & Wager 2018, Thm. 2.1; the terms in m' cancel since r²λ* = σ²γ).
The test error against noisy labels is R + σ².

The theorem numbers above were not checked against the papers (the stored copies give their
abstracts only). The formulas were: the risk σ²γ(m(−λ) − λ(1 − αλ)m'(−λ)), α = r²/(σ²γ) (the
same as above), λ* = 1/α, R(λ*) = σ²γ m(−1/α) and both ridgeless limits agree with R.
Tibshirani's Stat 241B lecture notes (a co-author of Hastie et al.; github.com/ryantibs/
statlearn-s23, lectures/ridge/ridge.tex and lectures/ridgeless/ridgeless.tex) at generic
parameters, and m with a quadrature of the Marchenko–Pastur density
(tests/papers/kernel/test_citations.py).

Everything is a sympy expression in square roots of the rationals given (exact).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

__all__ = ["RidgeRisk", "ridge_risk", "ridgeless_risk", "stieltjes_mp"]

def _q(x: Fraction | int) -> sp.Rational:
    x = Fraction(x)
    return sp.Rational(x.numerator, x.denominator)


def stieltjes_mp(gamma: Fraction, z: Any) -> sp.Expr:
    """m(z) of the Marchenko–Pastur law of ratio γ (variance 1) at z < 0 (exact).

    >>> sp.simplify(stieltjes_mp(Fraction(1, 2), -1))
    -3/2 + sqrt(17)/2
    """
    g = _q(gamma)
    z = sp.nsimplify(z)
    return sp.radsimp((1 - g - z - sp.sqrt((1 - g - z) ** 2 - 4 * g * z)) / (2 * g * z))


def _dm(gamma: Fraction, lam: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """m(−λ) and m'(−λ) (exact): m solves γ z m² + (z + γ − 1) m + 1 = 0, so
    m' = −(γ m² + m)/(2γ z m + z + γ − 1)."""
    g = _q(gamma)
    z = -lam
    m = sp.radsimp((1 - g - z - sp.sqrt(sp.expand((1 - g - z) ** 2 - 4 * g * z))) / (2 * g * z))
    dm = sp.radsimp(sp.expand(-(g * m**2 + m)) / sp.expand(2 * g * z * m + z + g - 1))
    return m, dm


@dataclass(frozen=True)
class RidgeRisk:
    """Risk at one ridge: exact sympy ``risk``, its ``bias`` and ``variance`` parts, the ridge
    ``lam`` (exact), and the noisy-label test error ``risk + σ²``."""

    lam: sp.Expr
    risk: sp.Expr
    bias: sp.Expr
    variance: sp.Expr
    noisy: sp.Expr


def ridge_risk(gamma: Fraction, signal: Fraction, noise: Fraction, lam: Fraction | None
               ) -> RidgeRisk:
    """The limiting risk at ridge λ > 0 (``None``: the optimal λ* = γσ²/r²), exact.

    >>> r = ridge_risk(Fraction(1, 2), Fraction(1), Fraction(1), None)
    >>> r.lam, sp.nsimplify(r.risk)
    (1/2, -1 + sqrt(2))
    """
    g, r2, s2 = _q(gamma), _q(signal), _q(noise) ** 2
    lam_e = g * s2 / r2 if lam is None else _q(lam)
    if lam_e == 0:
        # noiseless labels: λ* = 0, the ridgeless limit (m(−λ) has a pole at λ = 0 for γ > 1)
        risk = ridgeless_risk(gamma, signal, noise)
        bias = r2 * (1 - 1 / g) if g > 1 else sp.Integer(0)
        return RidgeRisk(sp.Integer(0), risk, bias, sp.radsimp(risk - bias),
                         sp.radsimp(risk + s2))
    m, dm = _dm(gamma, lam_e)
    bias = sp.radsimp(r2 * lam_e**2 * dm)
    variance = sp.radsimp(s2 * g * (m - lam_e * dm))
    risk = sp.radsimp(sp.expand(bias + variance))
    return RidgeRisk(lam_e, risk, bias, variance, sp.radsimp(risk + s2))


def ridgeless_risk(gamma: Fraction, signal: Fraction, noise: Fraction) -> sp.Expr:
    """The λ → 0+ risk (exact rational; ``sp.oo`` at γ = 1 with noise, 0 without).

    >>> ridgeless_risk(Fraction(1, 2), Fraction(1), Fraction(1)), ridgeless_risk(
    ...     Fraction(2), Fraction(1), Fraction(1))
    (1, 3/2)
    """
    g, r2, s2 = _q(gamma), _q(signal), _q(noise) ** 2
    if g < 1:
        return s2 * g / (1 - g)
    if g == 1:
        return sp.oo if s2 else sp.Integer(0)     # without noise no variance to blow up
    return r2 * (1 - 1 / g) + s2 / (g - 1)
