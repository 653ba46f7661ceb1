"""Verdict.points of the rf_spectrum claims: every compare function returns the numbers its verdict
rests on, finite, labelled, and consistent with the verdict (a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" or "max |t|" is the largest
|measured − predicted|/se of its points). The comparisons run on real simulations at reduced
sizes (d = 4, m = 200…400, ReLU and z²); each rule is also made to fail (a shifted prediction
or measurement) and the points must show it."""

from __future__ import annotations

from typing import Any

import pytest
from verdicts import both_ways as _both_ways
from verdicts import check_interval as _check_interval

from fltheory.papers.rf_spectrum import claims as R


def _shift(values: list[float], k: int, by: float) -> list[float]:
    return [v + by if i == k else v for i, v in enumerate(values)]


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


def test_every_claim_is_covered():
    """A claim added to the paper needs its points tested here (ReLU and z² runs: the rules are
    the same functions for every σ)."""
    assert {c.id for c in R.CLAIMS} == {
        f"rf_spectrum.{q}.{s}" for q in ("eigenvalues", "multiplicities", "trace")
        for s in R.LEVELS}
