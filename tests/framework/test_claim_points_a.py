"""Verdict.points of the hermite, twostep, fisher and rf_spectrum claims (issue #17): every
compare function returns the numbers its verdict rests on, finite, labelled, and consistent with
the verdict (a point with a band passes iff |measured − predicted| <= band; the verdict's
"max |z|" or "max |t|" is the largest |measured − predicted|/se of its points).

The comparisons run on cheap measurements: real simulations at reduced sizes where they take
well under a second (hermite, fisher, rf_spectrum at d = 4) and synthetic measurements of the
simulators' shape for twostep (its smallest real runs take 10 s; test_claims runs them). Each
rule is also made to fail (a shifted prediction or measurement) and the points must show it.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from fltheory.claims.registry import Point, Verdict
from fltheory.claims.stats import z_crit
from fltheory.papers.fisher import claims as F
from fltheory.papers.hermite import claims as H
from fltheory.papers.rf_spectrum import claims as R
from fltheory.papers.twostep import claims as T
from fltheory.papers.twostep import sim as twostep_sim

#: the claims whose compare functions the tests below exercise (rf_spectrum: ReLU and z² runs,
#: the rules are the same functions for every σ)
COVERED = {"hermite.coefficient", "fisher.eigenvalues", "fisher.trace_share",
           "fisher.multiplicities", "fisher.eigenfunctions", "fisher.orthogonality",
           "fisher.error_decreases_with_m", "twostep.lambda", "twostep.taylor_identity",
           "twostep.term_constants", "twostep.term_exponents", "twostep.reused_learns_tau3",
           "twostep.fresh_does_not", "twostep.one_step_overlap", "twostep.below_half_is_one_step",
           "twostep.terms_present_for_sigma", "twostep.outliers_for_sigma",
           "twostep.reused_products_for_sigma"} | {
    f"rf_spectrum.{q}.{s}" for q in ("eigenvalues", "multiplicities", "trace") for s in R.LEVELS}


def _well_formed(v: Verdict) -> None:
    """Points present, labelled, finite Python floats, se and band >= 0, x with its axis."""
    assert v.points, f"no points for {v.measured}"
    for p in v.points:
        assert isinstance(p, Point) and p.label.strip()
        for name in ("measured", "predicted", "se", "band", "x"):
            value = getattr(p, name)
            if value is None:
                assert name != "measured"
                continue
            assert type(value) is float, (p.label, name, type(value))
            assert math.isfinite(value), (p.label, name, value)
        assert p.se is None or p.se >= 0
        assert p.band is None or p.band >= 0
        assert (p.x is None) == (not p.x_label), p.label


def _tested(v: Verdict) -> list[Point]:
    return [p for p in v.points if p.band is not None]


def _inside(p: Point) -> bool:
    assert p.predicted is not None and p.band is not None
    return abs(p.measured - p.predicted) <= p.band


def _check_interval(v: Verdict) -> None:
    """An interval rule: pass iff every point with a band lies within it; the largest
    |measured − predicted|/se is the verdict's "max |z|" (or |t|) when it states one."""
    _well_formed(v)
    tested = _tested(v)
    assert tested
    assert v.status == ("pass" if all(_inside(p) for p in tested) else "fail")
    worst = re.search(r"max \|[zt]\| = ([0-9.]+)", v.measured)
    if worst is not None:
        z = max(abs(p.measured - p.predicted) / p.se for p in tested  # type: ignore[operator]
                if p.se)
        assert f"{z:.2f}" == worst.group(1)


def _both_ways(compare: Any, pred: Any, meas: Any, wrong_pred: Any) -> None:
    """The right prediction and a wrong one: the points agree with both verdicts."""
    right, wrong = compare(pred, meas), compare(wrong_pred, meas)
    assert (right.status, wrong.status) == ("pass", "fail")
    _check_interval(right)
    _check_interval(wrong)


# --------------------------------------------------------------------------- hermite


def test_hermite_points_are_the_coefficients():
    params = {"activations": ("relu", "sign", "He3"), "K": 4, "n": 20_000}
    pred, meas = H._predict(params), H._simulate(params, 0)
    wrong = {f: [c + 0.1 if (f, k) == ("sign", 1) else c for k, c in enumerate(cs)]
             for f, cs in pred.items()}
    _both_ways(H._compare, pred, meas, wrong)
    v = H._compare(pred, meas)
    assert len(v.points) == 3 * 5
    p = next(p for p in v.points if p.label == "relu μ_1")
    assert (p.x, p.x_label, p.series) == (1.0, "k", "relu")
    assert p.measured == float(meas["relu"].mean[1]) and p.predicted == 0.5


# --------------------------------------------------------------------------- fisher


@pytest.fixture(scope="module")
def fisher_params() -> dict[str, Any]:
    return {"d": 4, "m": (400, 600, 800), "seeds": 3, "n_test": 300, "n_gram": 4000}


def _shift(values: list[float], k: int, by: float) -> list[float]:
    return [v + by if i == k else v for i, v in enumerate(values)]


def test_fisher_fits_expose_data_and_extrapolation(fisher_params):
    params, seed = fisher_params, 0
    pred, meas = F._levels(params), F._sim_cluster_means(params, seed)
    _both_ways(F._compare_eigenvalues, pred, meas, _shift(pred, 1, pred[1]))
    v = F._compare_eigenvalues(pred, meas)
    data = [p for p in v.points if p.series == "λ1 (per draw)"]
    assert [p.measured for p in data] == [float(m) for m in meas["means"][:, 1]]
    assert all(p.x_label == "1/m" and p.predicted is None for p in data)
    fit = next(p for p in v.points if p.series == "λ1 (m → ∞ fit)")
    assert (fit.x, fit.predicted) == (0.0, pred[1])
    share, shares = F._predict_share(params), F._sim_share(params, seed)
    _both_ways(F._compare_share, share, shares, share - 0.1)


def test_fisher_exact_and_slope_points(fisher_params):
    params, seed = fisher_params, 0
    sizes = F._sim_sizes(params, seed)
    _both_ways(F._compare_sizes, F._predict_multiplicities(params), sizes, (1, 4, 10))
    v = F._compare_sizes((1, 4, 9), sizes)
    assert all(p.band == 0.0 and p.se is None and p.x_label == "m" for p in v.points)
    assert {p.x for p in v.points} == {400.0, 600.0, 800.0}
    res = F._sim_residuals(params, seed)
    _both_ways(F._compare_rate, -0.5, res, 1.0)
    gram = F._predict_gram(params)
    wrong = [[v + 0.3 if (i, j) == (0, 0) else v for j, v in enumerate(row)]
             for i, row in enumerate(gram)]
    _both_ways(F._compare_gram, gram, F._sim_gram(params, seed), wrong)


def _check_decrease(v: Verdict, pred: float) -> None:
    """pass iff every slope + z·SE < 0; fail iff a slope does not exclude 0 and slope − z·SE >
    pred; the points carry no prediction (a sign) and the series states the rule."""
    _well_formed(v)
    zc = z_crit(3)
    slopes = [p for p in v.points if p.series.startswith("log-log slope")]
    assert len(slopes) == 3 and all(p.predicted is None and p.se is not None for p in slopes)
    assert all(f"slope + {zc:.2f}·SE < 0" in p.series for p in slopes)
    undecided = [p for p in slopes if p.measured + zc * p.se >= 0]  # type: ignore[operator]
    refuted = [p for p in undecided if p.measured - zc * p.se > pred]  # type: ignore[operator]
    assert v.status == ("fail" if refuted else "inconclusive" if undecided else "pass")


def test_fisher_decrease_points_follow_the_three_way_rule(fisher_params):
    res = F._sim_residuals(fisher_params, 0)
    _check_decrease(F._compare_decrease(-0.5, res), -0.5)
    flat = dict(res) | {"mae": np.ones_like(res["mae"]) + 1e-3 * res["mae"]}
    v = F._compare_decrease(-0.5, flat)
    assert v.status == "fail"
    _check_decrease(v, -0.5)
    steep = dict(res) | {"mae": np.exp(-3 * res["log_m"])[:, None] * (1 + 1e-3 * res["mae"])}
    v = F._compare_decrease(-0.5, steep)
    assert v.status == "pass"
    _check_decrease(v, -0.5)


# --------------------------------------------------------------------------- rf_spectrum


@pytest.fixture(scope="module")
def rf() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """d = 4 (the harmonic basis up to l = 3 has 2·C(6, 3) = 40 columns <= m/4), ReLU and z²
    (exact predictions): the claims' rules on smaller runs than theirs."""
    params = {"d": 4, "scale": 1, "m": (200, 300, 400), "seeds": 3, "lmax": 3, "radial": 1,
              "dps": 5, "sigmas": ("relu", "quadratic")}
    return params, R._sim_levels(params, 0), R._sim_trace(params, 0)


def test_rf_levels_points(rf):
    params, meas, _ = rf
    pred = R._predict_levels(params)
    wrong = dict(pred) | {"relu": (_shift(pred["relu"][0], 1, 0.1 * pred["relu"][0][1]),
                                   pred["relu"][1])}
    _both_ways(R._compare_levels, pred, meas, wrong)
    fits = [p for p in R._compare_levels(pred, meas).points if p.x == 0.0]
    assert len(fits) == 3 + 2


def test_rf_degree_and_trace_points(rf):
    params, _, traces = rf
    degrees = R._sim_degrees(params, 0)
    pred = R._predict_degrees(params)
    _both_ways(R._compare_degrees, pred, degrees, pred | {"relu": {0: 1, 1: 4, 2: 8}})
    # a degree seen but not predicted gets a point predicted 0
    v = R._compare_degrees({"relu": {0: 1, 1: 4}}, degrees)
    assert any(p.predicted == 0.0 and p.measured > 0 for p in v.points)
    assert {p.x for p in v.points} == {200.0, 300.0, 400.0}
    _check_interval(v)
    tpred = R._predict_trace(params)
    _both_ways(R._compare_trace, tpred, traces, tpred | {"relu": (0.55, tpred["relu"][1])})
    v = R._compare_trace(tpred, traces)
    assert {p.label for p in v.points if p.band is not None} == {
        f"{s} {q}" for s in ("relu", "quadratic")
        for q in ("trace J", "share of trace in the levels (m → ∞)")}


# --------------------------------------------------------------------------- twostep


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


def test_twostep_reported_counts_have_points():
    v = T._compare_lambda(2, 273)
    _well_formed(v)
    assert [(p.measured, p.predicted, p.band) for p in v.points] == [(273.0, 3.0, None)]
    v = T._compare_counts({"tanh": (4, 2), "relu": (4, None)}, {"tanh": [1, 2], "relu": [16, 19]})
    _well_formed(v)
    assert [(p.series, p.measured, p.predicted) for p in v.points] == [
        ("tanh", 1.0, 2.0), ("tanh", 2.0, 2.0), ("relu", 16.0, None), ("relu", 19.0, None)]
    assert v.status == "inconclusive" and all(p.band is None for p in v.points)


def test_every_claim_of_the_four_papers_is_covered():
    """A claim added to one of the four papers needs its points tested here."""
    ids = {c.id for mod in (H, T, F, R) for c in mod.CLAIMS}
    assert ids == COVERED
