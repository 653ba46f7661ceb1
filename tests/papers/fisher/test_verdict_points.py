"""Verdict.points of the fisher claims: every compare function returns the numbers its verdict
rests on, finite, labelled, and consistent with the verdict (a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" or "max |t|" is the largest
|measured − predicted|/se of its points). The comparisons run on real simulations at reduced
sizes (d = 4, m = 400…800); each rule is also made to fail (a shifted prediction or
measurement) and the points must show it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from verdicts import both_ways as _both_ways
from verdicts import well_formed as _well_formed

from fltheory.claims.registry import Verdict
from fltheory.claims.stats import z_crit
from fltheory.papers.fisher import claims as F


def _shift(values: list[float], k: int, by: float) -> list[float]:
    return [v + by if i == k else v for i, v in enumerate(values)]


# --------------------------------------------------------------------------- fisher


@pytest.fixture(scope="module")
def fisher_params() -> dict[str, Any]:
    return {"d": 4, "m": (400, 600, 800), "seeds": 3, "n_test": 300, "n_gram": 4000}


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


def test_every_claim_is_covered():
    """A claim added to the paper needs its points tested here."""
    assert {c.id for c in F.CLAIMS} == {"fisher.eigenvalues", "fisher.trace_share",
                                        "fisher.multiplicities", "fisher.eigenfunctions",
                                        "fisher.orthogonality", "fisher.error_decreases_with_m"}
