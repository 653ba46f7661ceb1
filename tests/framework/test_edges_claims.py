"""Issue 13, "claims that say more than they show": the narrowed one-step claim states its sizes
and tests a quantitative law; its comparison rule is checked on synthetic measurements (it must
be able to fail). The quadratic claims of the issue (the narrowed statements, the cold-start
drift of S as its own claim) are tested in tests/papers/quadratic/."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.claims.registry import select
from fltheory.papers.twostep import claims as ct


def _claim(cid):
    (claim,) = [c for c in select(cid.split(".")[0]) if c.id == cid]
    return claim


def test_statements_say_what_is_tested():
    """The narrowed one-step claim names its sizes (the quadratic claims':
    tests/papers/quadratic/test_claims.py)."""
    one = _claim("twostep.below_half_is_one_step").statement
    assert "N = 250…1000" in one and "Frobenius" in one and "σ =" in one


def _synthetic_one_step(h_slope, seeds=8):
    rng = np.random.default_rng(3)
    rows = []
    for N in (250, 500, 1000):
        for _ in range(seeds):
            g0 = 4.3 * rng.lognormal(0, 0.02)
            h1 = 300 * (N / 500) ** h_slope * rng.lognormal(0, 0.05)
            h2 = 1.3e4 * rng.lognormal(0, 0.3)
            r = ct._one_step_ratio(0.1, 0.2, N, h1, h2)
            rows.append((math.log(N), r, r, g0, h1 * g0, h2 * g0))
    return np.array(rows)


def test_one_step_comparison_detects_a_deviation_that_does_not_decay():
    pred = {"alpha1": Fraction(1, 10), "alpha2": Fraction(1, 5), "exponent": Fraction(-2, 5)}
    assert ct._compare_one_step(pred, _synthetic_one_step(0.0)).status == "pass"
    # h1 ∝ N^(1 − 2α1) would keep the relative deviation constant: the claim must fail
    assert ct._compare_one_step(pred, _synthetic_one_step(0.8)).status == "fail"


def test_one_step_ratio_law():
    """r_F = η2/(η1+η2)√(ε²h1 + ε⁴h2): at α1 = 1/10, α2 = 1/5 its local exponent tends to
    α1 − 1/2 = −2/5 (η2/(η1+η2) → 1 and the ε⁴ term dies)."""
    def slope(N):
        return (math.log(ct._one_step_ratio(0.1, 0.2, 2 * N, 300, 1.3e4))
                - math.log(ct._one_step_ratio(0.1, 0.2, N, 300, 1.3e4))) / math.log(2)

    assert slope(1e12) == pytest.approx(-0.4, abs=0.01)
    assert slope(1e3) < -0.4  # the ε⁴h2 term still decays faster at feasible N
    # ε = η1/√N, hand value at N = 10^4: η1 = 10^0.4, η2 = 10^0.8
    eps = 10**0.4 / 100
    assert ct._one_step_ratio(0.1, 0.2, 1e4, 300, 1.3e4) == pytest.approx(
        10**0.8 / (10**0.4 + 10**0.8) * math.sqrt(eps**2 * 300 + eps**4 * 1.3e4), rel=1e-12)
