r"""Random-features ridge regression in the proportional limit (Mei & Montanari 2019,
arXiv:1908.05355, "The generalization error of random features regression: precise asymptotics
and double descent curve"): the finite-width twin of kernel ridge regression.

Setting (theirs): x_i uniform on the sphere of radius √d, θ_a uniform on the same sphere,
features σ(⟨θ_a, x⟩/√d), a ≤ N; â minimises (1/n) Σ_i (y_i − Σ_a a_a σ(⟨θ_a, x_i⟩/√d))²
+ (Nλ/d)‖a‖²; y = ⟨β, x⟩ + f_NL(x) + ε with ‖β‖² = F_1², ‖f_NL‖² = F_*², E ε² = τ²;
N/d → ψ_1, n/d → ψ_2. The activation enters through μ_1 = E[σ(G)G] and
μ_*² = E[σ(G)²] − μ_0² − μ_1² (G ~ N(0, 1)), as ζ = μ_1/μ_* and λ̄ = λ/μ_*².

The limit (our transcription of their Definition 1 and Theorem 1; the stored copies of the
paper at hand, https://ar5iv.labs.arxiv.org/html/1908.05355 and a mirror, give its abstract and
introduction only, so it is not checked against the paper's own text. It agrees at generic
parameters with two independent public transcriptions: github.com/Jeffwang87/RFR_AF,
RunMeToGenerateFigure1.nb (E_0, E_1, E_2, B, V and the risk) and a public Python file
("Equation (15)" to "(20)" of Mei and Montanari: the fixed point in polynomial form, χ, E_0–E_2),
tests/papers/kernel/test_citations.py; and it was checked here against a numpy simulation at
d = 200 and against the ψ_1 → ∞ kernel limit, tests/papers/kernel/test_independent_kernel.py):
ν_1, ν_2 analytic on the upper half plane with

.. math:: \nu_1 = \psi_1\Bigl(-\xi - \nu_2 - \frac{\zeta^2\nu_2}{1 - \zeta^2\nu_1\nu_2}\Bigr)^{-1},
          \quad
          \nu_2 = \psi_2\Bigl(-\xi - \nu_1 - \frac{\zeta^2\nu_1}{1 - \zeta^2\nu_1\nu_2}\Bigr)^{-1},

χ = ν_1ν_2 at ξ = i(ψ_1ψ_2λ̄)^{1/2}; with the polynomials E_0, E_1, E_2 in χ of
:func:`rf_risk`, B = E_1/E_0, V = E_2/E_0 and the test error (against the clean target)
F_1² B + (τ² + F_*²) V + F_*².

As ψ_1 → ∞ it is ridge regression on x (Hastie et al. 2022, Thm. 2) with γ = 1/ψ_2, signal F_1²,
noise τ² + F_*² and ridge λ_H = (ψ_2λ + μ_*²)/(ψ_2μ_1²): the kernel E_θ σσ is
μ_0² + μ_1² t + μ_*² δ, whose last part adds μ_*² to the kernel ridge ψ_2λ.

Arithmetic: complex float64; the fixed point by damped iteration from ν_1 = ν_2 = i.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["RFRisk", "rf_chi", "rf_risk"]

#: iterations of the damped fixed point before it is declared not converged
MAX_ITER = 200000


def rf_chi(psi1: float, psi2: float, zeta2: float, lam_bar: float) -> complex:
    """χ = ν_1ν_2 at ξ = i(ψ_1ψ_2λ̄)^{1/2} (λ̄ > 0), the fixed point iterated with damping 1/2
    until both ν change by less than 10^−15 (relative).

    >>> chi = rf_chi(2.0, 3.0, 1.0, 0.5)
    >>> abs(chi.imag) < 1e-12 and chi.real < 0
    True
    """
    if not lam_bar > 0:
        raise ValueError("lam_bar must be > 0")
    xi = 1j * math.sqrt(psi1 * psi2 * lam_bar)
    n1, n2 = 1j, 1j
    for _ in range(MAX_ITER):
        d = 1 - zeta2 * n1 * n2
        m1 = psi1 / (-xi - n2 - zeta2 * n2 / d)
        m2 = psi2 / (-xi - n1 - zeta2 * n1 / d)
        new1, new2 = (n1 + m1) / 2, (n2 + m2) / 2
        if abs(new1 - n1) <= 1e-15 * abs(new1) and abs(new2 - n2) <= 1e-15 * abs(new2):
            return new1 * new2
        n1, n2 = new1, new2
    raise ArithmeticError("the random-features fixed point did not converge")


@dataclass(frozen=True)
class RFRisk:
    """The limiting bias factor B, variance factor V, χ and the clean test error."""

    bias: float
    variance: float
    chi: float
    risk: float


def rf_risk(psi1: float, psi2: float, zeta2: float, lam_bar: float, signal: float,
            nonlinear: float, noise2: float) -> RFRisk:
    """F_1² B + (τ² + F_*²) V + F_*² with B = E_1/E_0, V = E_2/E_0 (ζ² = μ_1²/μ_*²,
    λ̄ = λ/μ_*², signal F_1², nonlinear F_*², noise2 τ²).

    >>> r = rf_risk(1e7, 2.0, 1.0, 1.0, 1.0, 0.0, 0.0)
    >>> round(r.risk, 5)  # ψ_1 → ∞: ridge risk at γ = 1/2, λ_H = (2 + 1)/2 (bias only)
    0.44491
    """
    c = rf_chi(psi1, psi2, zeta2, lam_bar).real
    z2, z4, z6 = zeta2, zeta2**2, zeta2**3
    p1, p2 = psi1, psi2
    e0 = (-c**5 * z6 + 3 * c**4 * z4 + (p1 * p2 - p2 - p1 + 1) * c**3 * z6 - 2 * c**3 * z4
          - 3 * c**3 * z2 + (p1 + p2 - 3 * p1 * p2 + 1) * c**2 * z4 + 2 * c**2 * z2 + c**2
          + 3 * p1 * p2 * c * z2 - p1 * p2)
    e1 = p2 * c**3 * z4 - p2 * c**2 * z2 + p1 * p2 * c * z2 - p1 * p2
    e2 = (c**5 * z6 - 3 * c**4 * z4 + (p1 - 1) * c**3 * z6 + 2 * c**3 * z4 + 3 * c**3 * z2
          + (-p1 - 1) * c**2 * z4 - 2 * c**2 * z2 - c**2)
    b, v = e1 / e0, e2 / e0
    return RFRisk(b, v, c, signal * b + (noise2 + nonlinear) * v + nonlinear)
