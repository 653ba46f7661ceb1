"""The two-step paper's claims: every compare function returns the numbers its verdict rests on
(Verdict.points: finite, labelled, consistent with the verdict: a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" is the largest |measured −
predicted|/se of its points), each rule can fail (a shifted prediction or measurement), and the
one-step claim tests a quantitative law and says what it tests.

The comparisons run on synthetic measurements of the simulator's shape (its smallest real runs
take 10 s; tests/framework/test_claims.py runs them)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from verdicts import both_ways as _both_ways
from verdicts import check_interval as _check_interval
from verdicts import inside as _inside
from verdicts import tested as _tested
from verdicts import well_formed as _well_formed

from fltheory.claims.registry import select
from fltheory.claims.stats import z_crit
from fltheory.papers.twostep import claims as T
from fltheory.papers.twostep import sim as twostep_sim

#: the claims whose compare functions the tests below exercise
COVERED = {"twostep.lambda", "twostep.taylor_identity", "twostep.term_constants",
           "twostep.term_exponents", "twostep.reused_learns_tau3", "twostep.fresh_does_not",
           "twostep.one_step_overlap", "twostep.below_half_is_one_step",
           "twostep.terms_present_for_sigma", "twostep.outliers_for_sigma",
           "twostep.reused_products_for_sigma", "twostep.kinked_reused_parts",
           "twostep.kinked_reused_k2"}


# --------------------------------------------------------------------------- points


def _synthetic_C(seeds: int = 12, shift: float = 0.0, seed: int = 1
                 ) -> tuple[dict[tuple[str, int, int], float], dict[tuple[str, int, int], Any]]:
    """Predictions C_k(v) of the twostep shape (C1(β2) = C_k(β2, fresh) = 0 as in the model)
    and seed values scattered around them (SE ≈ 0.03)."""
    gen = np.random.default_rng(seed)
    pred = {(b, k, j): (0.0 if j == 1 and (k == 1 or b == "fresh") else 0.3 + 0.2 * k - 0.1 * j)
            for b in ("reused", "fresh") for k in range(3) for j in range(3)}
    meas = {key: c + shift + 0.1 * gen.standard_normal(seeds) for key, c in pred.items()}
    return pred, meas


def test_twostep_constants_points():
    pred, meas = _synthetic_C()
    _both_ways(T._compare_constants, pred, meas, pred | {("fresh", 2, 0): 0.9})
    assert len(T._compare_constants(pred, meas).points) == 18


def test_twostep_fresh_points():
    pred, meas = _synthetic_C()
    _both_ways(T._compare_fresh, pred, meas, pred | {("fresh", 1, 1): 0.5})
    # no power: inconclusive, the points are still those of the test
    weak = meas | {("fresh", 2, 1): 30 * meas[("fresh", 2, 1)]}
    v = T._compare_fresh(pred, weak)
    assert v.status == "inconclusive"
    _well_formed(v)
    assert [p.x for p in v.points] == [1.0, 2.0]


def test_twostep_reused_points_carry_sign_rule():
    pred, meas = _synthetic_C()
    pred = pred | {("reused", 2, 1): -0.4}
    for values, status in ((-0.4, "pass"), (0.4, "fail"), (0.0, "fail")):
        v = T._compare_reused(pred, meas | {("reused", 2, 1): values + 0.1 * np.sin(
            np.arange(12.0))})
        assert v.status == status
        _well_formed(v)
        (p,) = v.points
        assert p.band is None and p.predicted == -0.4 and p.se is not None
        ok = abs(p.measured) > z_crit(1) * p.se and np.sign(p.measured) == np.sign(p.predicted)
        assert v.status == ("pass" if ok else "fail")


def test_twostep_exponents_points():
    gen = np.random.default_rng(2)
    spikes = ((0, 0), (2, 0), (2, 1))
    pred = {("reused", k, j): 0.5 + k for k, j in spikes}
    rows = [(math.log(N), 0.0) for N in (400, 800, 1600) for _ in range(6)]

    def meas(trend: float) -> dict[tuple[int, int], np.ndarray]:
        return {(k, j): np.array([(x, (0.5 + k) * (1 + trend * x + 0.02 * gen.standard_normal()))
                                  for x, _ in rows]) for k, j in spikes}

    flat, sloped = T._compare_flat(pred, meas(0.0)), T._compare_flat(pred, meas(0.3))
    assert (flat.status, sloped.status) == ("pass", "fail")
    for v in (flat, sloped):
        _check_interval(v)
        assert {p.x for p in v.points if p.series != "slope"} == {400.0, 800.0, 1600.0}
        assert all(p.predicted == 0.0 for p in _tested(v))


def test_twostep_one_step_points():
    gen = np.random.default_rng(3)
    a1, a2 = Fraction(1, 10), Fraction(1, 5)
    pred = {"alpha1": a1, "alpha2": a2, "exponent": a1 - Fraction(1, 2)}

    def pts(growth: float) -> np.ndarray:
        out = []
        for N in (250, 500, 1000):
            for _ in range(6):
                h = np.exp(np.array([5.7, 9.5]) + growth * math.log(N)
                           + 0.1 * gen.standard_normal(2))
                out.append((math.log(N), 0.8, 0.5, 2.0, 2.0 * h[0], 2.0 * h[1]))
        return np.array(out)

    good, bad = T._compare_one_step(pred, pts(0.0)), T._compare_one_step(pred, pts(0.5))
    assert (good.status, bad.status) == ("pass", "fail")
    for v in (good, bad):
        _check_interval(v)
        r_F = [p for p in v.points if p.series == "r_F"]
        assert len(r_F) == 3 and all(p.band is None and p.predicted for p in r_F)


def test_twostep_scalar_points():
    for residual, status in ((3e-15, "pass"), (2e-11, "fail")):
        v = T._compare_taylor(0.0, residual)
        assert v.status == status
        _check_interval(v)
    values = 0.25 + 0.02 * np.cos(np.arange(8.0))
    _both_ways(T._compare_overlap, 0.25, values, 0.3)


def test_twostep_presence_points_state_the_rule():
    zc = z_crit(6)

    def presence(z: tuple[float, float]) -> Any:
        return twostep_sim.TermPresence(1000, "reused", (1.0, 1.0), (1.0, 1.0), (1.0, 1.0),
                                        (0.5, 0.5), z)

    pred: dict[str, tuple[bool | None, ...]] = {"tanh": (False, True), "relu": (True, False),
                                                "tanh(z+1/2)": (True, True)}
    meas = {"tanh": presence((0.9, 17.0)), "relu": presence((11.0, -0.6)),
            "tanh(z+1/2)": presence((8.0, 18.0))}
    for m, status in ((meas, "pass"), (meas | {"relu": presence((11.0, 5.0))}, "fail")):
        v = T._compare_presence(pred, m)
        assert v.status == status
        _well_formed(v)
        assert all(p.predicted is None and p.band is None for p in v.points)
        wrong = [p for p in v.points if (p.measured > zc) != p.series.startswith(
            "predicted present")]
        assert all(f"{zc:.2f}" in p.series for p in v.points)
        assert v.status == ("fail" if wrong else "pass")


def test_twostep_products_points():
    pred = {"reused": -0.64, "fresh": 0.0}
    wave = 0.02 * np.sin(np.arange(12.0))
    zc = z_crit(2)
    for reused, fresh, status in ((-0.06, 0.0, "pass"), (-0.06, 0.05, "fail"),
                                  (0.06, 0.0, "fail")):
        v = T._compare_products(pred, {"reused": reused + wave, "fresh": fresh + wave})
        assert v.status == status
        _well_formed(v)
        r, f = v.points
        assert r.band is None and f.predicted == 0.0 and f.band is not None
        assert r.se is not None and r.predicted is not None
        ok = (abs(r.measured) > zc * r.se and np.sign(r.measured) == np.sign(r.predicted)
              and _inside(f))
        assert v.status == ("pass" if ok else "fail")


def test_twostep_kinked_parts_verdicts():
    # synthetic seed values: the reused |a|a coefficient present with the predicted sign and
    # the four predicted zeros near 0 pass; a wrong sign, or a fresh |a|a at 0.06, fail
    pred = {"reused": {"|a|a": -0.3, "a²": 0.0, "a³": 0.0, "|a|a²": 0.0},
            "fresh": {"|a|a": 0.0, "a²": 0.0, "a³": 0.0, "|a|a²": 0.0}}
    wave = 0.02 * np.sin(np.arange(12.0))

    def meas(odd_r, odd_f):
        zero = {"a²": wave, "a³": wave, "|a|a²": wave}
        return {"reused": {"|a|a": odd_r + wave, **zero}, "fresh": {"|a|a": odd_f + wave, **zero}}

    for odd_r, odd_f, status in ((-0.25, 0.0, "pass"), (0.25, 0.0, "fail"),
                                 (-0.25, 0.06, "fail")):
        v = T._compare_kinked(pred, meas(odd_r, odd_f))
        assert v.status == status
        _well_formed(v)
        assert len(v.points) == 3
    # the k = 2 coefficients are reported, never decided
    v = T._compare_kinked_k2(pred, meas(-0.25, 0.0))
    assert v.status == "inconclusive" and len(v.points) == 4
    _well_formed(v)


def test_twostep_reported_counts_have_points():
    v = T._compare_lambda(2, 273)
    _well_formed(v)
    assert [(p.measured, p.predicted, p.band) for p in v.points] == [(273.0, 3.0, None)]
    v = T._compare_counts({"tanh": (4, 2), "relu": (4, None)}, {"tanh": [1, 2], "relu": [16, 19]})
    _well_formed(v)
    assert [(p.series, p.measured, p.predicted) for p in v.points] == [
        ("tanh", 1.0, 2.0), ("tanh", 2.0, 2.0), ("relu", 16.0, None), ("relu", 19.0, None)]
    assert v.status == "inconclusive" and all(p.band is None for p in v.points)


def test_every_claim_is_covered():
    """A claim added to the paper needs its points tested here."""
    assert {c.id for c in T.CLAIMS} == COVERED


# --------------------------------------------------------------------------- the one-step law


def test_one_step_statement_says_what_is_tested():
    """The narrowed claim names its start, its sizes and its norm."""
    (claim,) = [c for c in select("twostep") if c.id == "twostep.below_half_is_one_step"]
    assert "N = 250…1000" in claim.statement and "Frobenius" in claim.statement
    assert "σ =" in claim.statement


def _synthetic_one_step(h_slope, seeds=8):
    rng = np.random.default_rng(3)
    rows = []
    for N in (250, 500, 1000):
        for _ in range(seeds):
            g0 = 4.3 * rng.lognormal(0, 0.02)
            h1 = 300 * (N / 500) ** h_slope * rng.lognormal(0, 0.05)
            h2 = 1.3e4 * rng.lognormal(0, 0.3)
            r = T._one_step_ratio(0.1, 0.2, N, h1, h2)
            rows.append((math.log(N), r, r, g0, h1 * g0, h2 * g0))
    return np.array(rows)


def test_one_step_comparison_detects_a_deviation_that_does_not_decay():
    pred = {"alpha1": Fraction(1, 10), "alpha2": Fraction(1, 5), "exponent": Fraction(-2, 5)}
    assert T._compare_one_step(pred, _synthetic_one_step(0.0)).status == "pass"
    # h1 ∝ N^(1 − 2α1) would keep the relative deviation constant: the claim must fail
    assert T._compare_one_step(pred, _synthetic_one_step(0.8)).status == "fail"


def test_one_step_ratio_law():
    """r_F = η2/(η1+η2)√(ε²h1 + ε⁴h2): at α1 = 1/10, α2 = 1/5 its local exponent tends to
    α1 − 1/2 = −2/5 (η2/(η1+η2) → 1 and the ε⁴ term dies)."""
    def slope(N):
        return (math.log(T._one_step_ratio(0.1, 0.2, 2 * N, 300, 1.3e4))
                - math.log(T._one_step_ratio(0.1, 0.2, N, 300, 1.3e4))) / math.log(2)

    assert slope(1e12) == pytest.approx(-0.4, abs=0.01)
    assert slope(1e3) < -0.4  # the ε⁴h2 term still decays faster at feasible N
    # ε = η1/√N, hand value at N = 10^4: η1 = 10^0.4, η2 = 10^0.8
    eps = 10**0.4 / 100
    assert T._one_step_ratio(0.1, 0.2, 1e4, 300, 1.3e4) == pytest.approx(
        10**0.8 / (10**0.4 + 10**0.8) * math.sqrt(eps**2 * 300 + eps**4 * 1.3e4), rel=1e-12)
