"""Noisy links y = g(z) + σε: α_c against an independent route, and the exact statements noise
keeps (linear links stay linear; E[z²|y] ≡ 1 stays α_c = ∞).

Reference for phase retrieval with noise, y = z² + σε, written here from scratch: with u = z²
= t², p(y) = ∫₀^∞ 2e^{−t²/2} φ_σ(y − t²) dt/√(2π) and m(y) = E[z²|y] the t²-weighted ratio of
the same integrals; α_c = 1/∫ p(y)(m(y) − 1)² dy by scipy's adaptive quadrature in y-space
(the engine integrates over (z, ε) with Gauss–Legendre/Gauss–Hermite nodes in numpy). Generic
σ = 3/5 and 5 (and 1/3); agreement to 1e-7 relative — both are double-precision quadratures
whose own agreement the engine reports as >= 9 digits at these σ.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from click.testing import CliRunner
from scipy.integrate import quad

from fltheory.cli import cli
from fltheory.engine.spectral.links import link_threshold, noisy_alpha_c


def _alpha_c_phase_retrieval(sigma: float) -> float:
    def kern(t, y):
        return 2 * math.exp(-t * t / 2 - (y - t * t) ** 2 / (2 * sigma ** 2))

    def inner(y):
        c = math.sqrt(max(y, 0.0))
        pts = sorted({p for p in (0.0, c, c + 10 * sigma / (1 + c), 12.0) if p <= 12.0})
        z0 = sum(quad(kern, a, b, args=(y,), epsabs=0, epsrel=1e-13, limit=200)[0]
                 for a, b in pairwise(pts))
        z2 = sum(quad(lambda t: t * t * kern(t, y), a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
                 for a, b in pairwise(pts))
        return z0 / (2 * math.pi * sigma), z2 / z0

    def outer(y):
        p, m = inner(y)
        return p * (m - 1) ** 2

    cuts = [-12 * sigma, 0.0, 10.0, 150.0 + 12 * sigma]
    return 1 / sum(quad(outer, a, b, epsabs=0, epsrel=1e-11, limit=400)[0]
                   for a, b in pairwise(cuts))


@pytest.mark.parametrize("sigma", [Fraction(3, 5), Fraction(5), Fraction(1, 3)])
def test_noisy_phase_retrieval_against_y_space_integral(sigma):
    value, digits = noisy_alpha_c("z**2", sigma)
    ref = _alpha_c_phase_retrieval(float(sigma))
    assert digits >= 7
    assert abs(float(value) - ref) <= 1e-7 * ref
    assert ref > 0.5  # noise makes weak recovery harder than the noiseless 1/2


def test_noise_keeps_linear_and_infinite():
    assert link_threshold("tanh", 15, Fraction(1, 2)).linear
    ans = link_threshold("1", 15, Fraction(2))
    assert ans.alpha_c == float("inf") and ans.optimal is None
    assert link_threshold("z**2", 15, 0).alpha_c == Fraction(1, 2)  # σ = 0: the exact route


@pytest.mark.parametrize("args, word", [
    (["--noise", "-1"], "noise"),
    (["--noise", "101"], "noise"),
    (["--noise", "1/2", "--alpha", "1", "--T", "y**2"], "sup T"),
    (["--noise", "1/1000"], "confirmed digits"),
])
def test_noise_bad_input(args, word):
    r = CliRunner().invoke(cli, ["link", "--g", "z**2", *args])
    assert r.exit_code == 2 and word in r.output and len(r.output.strip().splitlines()) == 1


def test_noisy_overlap_curve_runs_and_is_below_noiseless():
    # the same T = min(y, 3) sees a weaker signal with noise: overlap lower at the same α
    import json

    def rho2(extra):
        r = CliRunner().invoke(cli, ["link", "--g", "z**2", "--T", "Min(y, 3)", "--alpha", "3",
                                     "--format", "json", *extra])
        assert r.exit_code == 0, r.output
        return float(json.loads(r.output)["details"]["overlaps"][0]["rho2"])

    assert 0 < rho2(["--noise", "1"]) < rho2([])


def test_noisy_optimal_preprocessing_starts_at_the_independent_threshold():
    """T* = 1 − 1/m(y) with the noise is the preprocessing whose weak-recovery threshold is α_c
    (Mondelli & Montanari 2018; Luo, Alghamdi & Lu 2019): its Lu–Li overlap is 0 just below the
    α_c of the y-space integral above (written independently) and positive just above it; any
    other preprocessing starts later, e.g. Min(y, 3) still gives 0 at 1.05 α_c and a smaller
    overlap at α = 2."""
    from fltheory.engine.spectral.links import noisy_preprocessing_law
    from fltheory.engine.spectral.luli import luli_overlap

    sigma = Fraction(3, 5)
    ref = _alpha_c_phase_retrieval(float(sigma))
    law = noisy_preprocessing_law("z**2", "optimal", sigma, panels=300, hermite=32, inner=100)
    clip = noisy_preprocessing_law("z**2", "Min(y, 3)", sigma, panels=300, hermite=32)
    assert luli_overlap(law, 0, 0.98 * ref).rho2 == 0
    assert luli_overlap(law, 0, 1.05 * ref).rho2 > 1e-3
    assert luli_overlap(clip, 0, 1.05 * ref).rho2 == 0
    assert luli_overlap(law, 0, 2.0).rho2 > luli_overlap(clip, 0, 2.0).rho2 + 0.1
