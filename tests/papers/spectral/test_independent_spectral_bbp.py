"""Independent checks of the BBP forms the papers share (``rectangular_spike`` used by the
two-step paper, ``semicircle_overlap_ratio`` used by the recovery paper's large-δ form).

References are computed here another way, at generic parameter values: the general D-transform
route of Benaych-Georges & Nadakuditi 2012 (Theorems 2.8–2.10) on a tanh-sinh quadrature of the
Marchenko–Pastur density written here, against the closed forms of their §3.1; and the
Stieltjes route G_σ(ρ) = 1/θ, overlap −1/(θ²G_σ'(ρ)) of the scaled semicircle σW (density
written here) against 1 − σ²/θ².
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from fltheory.engine.spectral.spikes import rectangular_spike, semicircle_overlap_ratio
from fltheory.exact import DomainError


def _d_transform_route(theta, c):
    """(σ̃², ⟨ũ,u⟩², ⟨ṽ,v⟩²) for X (N × d, entries of variance 1/d, c = N/d) + θuvᵀ from the
    D-transform: φ(z) = ∫ z/(z² − t²) dμ(t) over the singular values t of X (t² follows XXᵀ's
    Marchenko–Pastur law of ratio c); D(z) = φ(z)(cφ(z) +
    (1 − c)/z); the outlier ρ solves D(ρ) = 1/θ², and the overlaps are −2φ(ρ)/(θ²D'(ρ)) (left)
    and −2(cφ(ρ) + (1 − c)/ρ)/(θ²D'(ρ)) (right)."""
    lo, hi = abs(1 - mpmath.sqrt(c)), 1 + mpmath.sqrt(c)  # the singular values of X

    def density(t):  # of a singular value t: 2t·ρ_MP(t²) (smooth at t = 0 when c = 1)
        return mpmath.sqrt((hi ** 2 - t * t) * (t * t - lo ** 2)) / (mpmath.pi * c * t)

    assert abs(mpmath.quad(density, [lo, hi]) - 1) < mpmath.mpf(10) ** -25

    def phi(z):
        return mpmath.quad(lambda t: z * density(t) / (z * z - t * t), [lo, hi])

    def D(z):
        return phi(z) * (c * phi(z) + (1 - c) / z)

    edge = hi
    rho = mpmath.findroot(lambda z: D(z) - 1 / theta ** 2, (edge * (1 + mpmath.mpf(10) ** -8),
                                                             edge + 10), solver="anderson")
    dD = mpmath.diff(D, rho)
    return (rho ** 2, -2 * phi(rho) / (theta ** 2 * dD),
            -2 * (c * phi(rho) + (1 - c) / rho) / (theta ** 2 * dD))


@pytest.mark.parametrize("theta, c", [(Fraction(13, 10), Fraction(3, 7)),
                                      (Fraction(11, 9), Fraction(9, 10)),
                                      (Fraction(5, 2), Fraction(1))])
def test_rectangular_closed_forms_against_d_transform(theta, c):
    s = rectangular_spike(theta, c)
    assert s.phase == "outlier" and isinstance(s.right, Fraction)
    with mpmath.workdps(30):
        ref = _d_transform_route(mpmath.mpf(theta.numerator) / theta.denominator,
                                 mpmath.mpf(c.numerator) / c.denominator)
        # tanh-sinh at 30 digits on a density with square-root edges: 1e-20 is far above its
        # error and far below any wrong formula's
        for got, want in zip((s.singular2, s.left, s.right), ref, strict=True):
            assert abs(mpmath.mpf(got.numerator) / got.denominator - want) < mpmath.mpf(10) ** -20


def test_rectangular_below_threshold_and_floats():
    # θ⁴ = 16/81 < c = 1/4: no outlier; the top singular value stays at the edge 1 + √c = 3/2
    s = rectangular_spike(Fraction(2, 3), Fraction(1, 4))
    assert (s.phase, s.singular2, s.left, s.right) == ("no outlier", Fraction(9, 4), 0, 0)
    # at θ = c^{1/4} exactly the formulas give 0 too (continuity of the transition)
    s = rectangular_spike(Fraction(1, 2), Fraction(1, 16))
    assert s.phase == "critical" and s.right == 0 and s.left == 0
    t2, c = Fraction(9, 4), Fraction(1, 16)
    assert 1 - (c + t2) / (t2 * (t2 + 1)) > 0  # just above, the formula is positive
    # a float call is the same formula in doubles
    f = rectangular_spike(1.3, 3 / 7)
    e = rectangular_spike(Fraction(13, 10), Fraction(3, 7))
    assert abs(f.right - float(e.right)) < 1e-15 and abs(f.left - float(e.left)) < 1e-15
    for bad in ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(1, 2)), ("x", 1)):
        with pytest.raises(DomainError):
            rectangular_spike(*bad)


@pytest.mark.parametrize("sigma, theta", [(Fraction(7, 10), Fraction(11, 10)),
                                          (Fraction(3, 2), Fraction(17, 5))])
def test_semicircle_overlap_ratio_against_scaled_stieltjes(sigma, theta):
    # reference: σW has the semicircle density √(4σ² − x²)/(2πσ²) on [−2σ, 2σ] (written here);
    # the outlier solves G(ρ) = 1/θ and the squared overlap is −1/(θ² G'(ρ)) (BGN 2011, Thm 2.3)
    got = semicircle_overlap_ratio((sigma / theta) ** 2)
    assert isinstance(got, Fraction)
    with mpmath.workdps(30):
        s, t = mpmath.mpf(sigma.numerator) / sigma.denominator, mpmath.mpf(theta.numerator) / \
            theta.denominator

        def density(x):
            return mpmath.sqrt(4 * s * s - x * x) / (2 * mpmath.pi * s * s)

        def G(z):
            return mpmath.quad(lambda x: density(x) / (z - x), [-2 * s, 2 * s])

        rho = mpmath.findroot(lambda z: G(z) - 1 / t, (2 * s * (1 + mpmath.mpf(10) ** -8),
                                                        2 * s + 2 * t), solver="anderson")
        dG = -mpmath.quad(lambda x: density(x) / (rho - x) ** 2, [-2 * s, 2 * s])
        assert abs(-1 / (t * t * dG) - mpmath.mpf(got.numerator) / got.denominator) \
            < mpmath.mpf(10) ** -20
    # θ <= σ: no outlier, overlap 0, for every number type
    assert semicircle_overlap_ratio(Fraction(3, 2)) == 0
    assert semicircle_overlap_ratio(1.0) == 0.0
    assert semicircle_overlap_ratio(np.array([2.0, 0.5])).tolist() == [0.0, 0.5]


def test_papers_call_the_kit():
    # the two-step one-step overlap and the recovery large-δ form are the kit's numbers
    from fltheory.papers.recovery.luli import RecoveryModel
    from fltheory.papers.twostep.terms import batch_model, one_step_overlap

    out = one_step_overlap(batch_model(["He1", "bounded3"], "fresh"), Fraction(1, 10), 1000,
                           Fraction(1, 2))
    assert out["overlap_b"] == rectangular_spike(out["theta"], 0.5).right > 0
    m = RecoveryModel.power_law(3, Fraction(1))
    deltas = [0.7, 3.0, 50.0]
    want = [[float(semicircle_overlap_ratio(Fraction(t) / Fraction(dl)))
             for t in m.bbp_thresholds()] for dl in deltas]
    assert np.allclose(m.bbp_overlaps(deltas), want, rtol=0, atol=1e-15)


@pytest.mark.parametrize("alpha", [0.7, 2.0])
def test_optimal_preprocessing_beats_others_numerically(alpha):
    # Luo, Alghamdi & Lu 2019 state T*(y) = 1 − 1/E[z²|y] maximises the overlap at every α (the
    # paper's text could not be read here): checked on the Lu–Li solver against other bounded T
    # for y = z², among them Mondelli–Montanari's threshold-optimal (y − 1)/(y + √α − 1)
    from fltheory.engine.spectral.links import link_overlap

    best = link_overlap("z**2", "optimal", alpha).rho2
    assert best > 0
    others = ["(1 - 1/y)/(1 + 1/y)", "Min(y, 3)", "Min(y, 3) - 1"]
    if alpha >= 1:  # below α = 1 this T has a pole at y = 1 − √α > 0: not a bounded T
        others.append(f"(y - 1)/(y + {alpha ** 0.5} - 1)")
    for T in others:
        assert link_overlap("z**2", T, alpha).rho2 <= best + 1e-9, T
