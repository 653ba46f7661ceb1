"""Phase retrieval with a Rademacher prior (y = |z| or z², no noise), checked independently.

References are computed here from the definitions, not from the code's variables: the channel's
Q(q) = E g_out², g_out = (y tanh(yω/V) − ω)/V (the two preimages ±y of a label), by scipy's
adaptive 2-d quadrature over the joint law of (ω, z); the prior's overlap
q = E tanh(q̂ + √q̂ ξ) (the Rademacher scalar channel, Nishimori) by 1-d quadrature; and the
spinodal α_alg as the maximum of the fixed-point curve A(q̂) = q̂ / Q(q(q̂)) (Barbier et al.
2019: the state evolution q̂ = α Q(q), q = F(q̂)) by bounded Brent on these two quadratures.
"""

from __future__ import annotations

import math

import pytest
from scipy import integrate, optimize

from fltheory.papers.glm._channels import channel_numerics
from fltheory.papers.glm.params import Channel, rademacher
from fltheory.papers.glm.theory import thresholds


def _Q(q: float) -> float:
    """E g_out² for y = |z|, ρ = 1, V = 1 − q, over (ω, z) (no cancellation: a square)."""
    V = 1.0 - q
    sq, sv = math.sqrt(q), math.sqrt(V)

    def f(z: float, w: float) -> float:
        a = abs(z)
        g = (a * math.tanh(a * w / V) - w) / V
        return g * g * math.exp(-w * w / (2 * q) - (z - w) ** 2 / (2 * V)) / (
            2 * math.pi * sq * sv)

    val, _ = integrate.dblquad(f, -10 * sq, 10 * sq, lambda w: w - 12 * sv,
                               lambda w: w + 12 * sv, epsabs=0, epsrel=1e-11)
    return val


def _F(qh: float) -> float:
    """q = E tanh(q̂ + √q̂ ξ), ξ ~ N(0, 1)."""
    s = math.sqrt(qh)
    val, _ = integrate.quad(lambda x: math.tanh(qh + s * x) * math.exp(-x * x / 2)
                            / math.sqrt(2 * math.pi), -14, 14, epsabs=0, epsrel=1e-13,
                            limit=200)
    return val


def _dpsi(q: float) -> float:
    """ΔΨ(q) = E ln Z_out(y, ω, V) − (the same at q = 0), ρ = 1, y = |z|: with
    Z_out = Σ± N(±y; ω, V) = e^(−(y² + ω²)/2V) 2cosh(yω/V)/√(2πV), E y² = 1, E ω² = q and
    V = 1 − q this is −½ ln V − q/V + E ln cosh(yω/V) (derived here from the definition)."""
    V = 1.0 - q
    sq, sv = math.sqrt(q), math.sqrt(V)

    def f(z: float, w: float) -> float:
        x = abs(z * w / V)    # ln cosh x, each way accurate on its side of 1
        lc = (-0.5 * math.log1p(-math.tanh(x) ** 2) if x < 1
              else x + math.log1p(math.exp(-2 * x)) - math.log(2))
        return lc * math.exp(
            -w * w / (2 * q) - (z - w) ** 2 / (2 * V)) / (2 * math.pi * sq * sv)

    val, _ = integrate.dblquad(f, -10 * sq, 10 * sq, lambda w: w - 12 * sv,
                               lambda w: w + 12 * sv, epsabs=1e-14 * q, epsrel=1e-11)
    return -0.5 * math.log(V) - q / V + val


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("q", [1e-6, 3e-4, 0.24, 0.26, 0.6])
def test_averages_near_the_uninformative_point(q, level):
    """Near q = 0, Q ≈ 2q and ΔΨ ≈ q/2 are small: each resolution must carry its relative
    accuracy there (the old forms 1 + E[…] and E[…] − ln 2 lost 2e-12 absolute to a
    cancellation, 1e-6 of Q at q = 1e-6, and drew a spurious extremum of A(q̂) that split
    the two resolutions). 0.24 and 0.26 sit on either side of the switch between the forms."""
    C = channel_numerics(Channel("abs"), 1.0)
    assert C.Q(q, level) == pytest.approx(_Q(q), rel=1e-9, abs=0)
    # ΔΨ = O(q²) is itself a cancellation of two O(q) terms (in the reference too): held to
    # 1e-10·q absolute, which the old form's 2e-12 misses by 10⁴ at q = 1e-6
    assert C.dpsi(q, level) == pytest.approx(_dpsi(q), rel=1e-9, abs=1e-10 * q)


def test_binary_phase_retrieval_thresholds():
    """α_WR = 1/2 (exact: ρ'²/(2ρ²)); α_IT = 0 (continuous labels pin a ±1 vector down at any
    α > 0: I(y; z) = ∞, perfect recovery's free entropy is +∞); α_alg the maximum of A(q̂),
    against the independent maximisation, at the digits the command confirms (≥ 10)."""
    t = thresholds(rademacher(), Channel("abs"))
    names = [it[0] for it in t.items]
    assert sorted(names) == ["IT", "WR", "alg"]         # one α_IT, not one per branch
    assert t.get("WR").value == 0.5
    assert t.get("IT").value == 0.0
    alg = t.get("alg")
    assert alg.digits >= 10
    res = optimize.minimize_scalar(lambda qh: -qh / _Q(_F(qh)), bounds=(0.6, 0.9),
                                   method="bounded", options={"xatol": 1e-7})
    ref = -float(res.fun)
    assert abs(alg.value - ref) <= 10.0 ** -(alg.digits - 1) * ref, (alg.text(), ref)
    # z² carries the same information as |z|: the same thresholds
    sq = thresholds(rademacher(), Channel("square"))
    assert sq.get("alg").text() == alg.text()
