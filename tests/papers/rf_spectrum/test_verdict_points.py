"""Verdict.points of the rf_spectrum claims: every compare function returns the numbers its verdict
rests on, finite, labelled, and consistent with the verdict (a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" or "max |t|" is the largest
|measured − predicted|/se of its points). The comparisons run on real simulations at reduced
sizes (d = 4, m = 200…400, ReLU and z²); each rule is also made to fail (a shifted prediction
or measurement) and the points must show it."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from fltheory.claims.registry import Point, Verdict
from fltheory.papers.rf_spectrum import claims as R


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
