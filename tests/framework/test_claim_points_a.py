"""Verdict.points of the fisher and rf_spectrum claims (issue #17): every
compare function returns the numbers its verdict rests on, finite, labelled, and consistent with
the verdict (a point with a band passes iff |measured − predicted| <= band; the verdict's
"max |z|" or "max |t|" is the largest |measured − predicted|/se of its points).

The comparisons run on cheap measurements: real simulations at reduced sizes where they take
well under a second (fisher, rf_spectrum at d = 4). Each rule is also made to fail (a shifted
prediction or measurement) and the points must show it. The hermite and twostep claims' points
are tested in tests/papers/hermite/test_claims.py and tests/papers/twostep/test_claims.py.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

from fltheory.claims.registry import Point, Verdict
from fltheory.claims.stats import z_crit
from fltheory.papers.fisher import claims as F
from fltheory.papers.rf_spectrum import claims as R

#: the claims whose compare functions the tests below exercise (rf_spectrum: ReLU and z² runs,
#: the rules are the same functions for every σ)
COVERED = {"fisher.eigenvalues", "fisher.trace_share",
           "fisher.multiplicities", "fisher.eigenfunctions", "fisher.orthogonality",
           "fisher.error_decreases_with_m"} | {
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


def test_every_claim_of_the_two_papers_is_covered():
    """A claim added to one of the two papers needs its points tested here."""
    ids = {c.id for mod in (F, R) for c in mod.CLAIMS}
    assert ids == COVERED
