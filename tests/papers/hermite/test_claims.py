"""The Hermite paper's claim: its compare function returns the numbers its verdict rests on
(Verdict.points: finite, labelled, consistent with the verdict: a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" is the largest |measured −
predicted|/se of its points), the rule can fail (a shifted prediction), and the claim's two
sides are the runs' (fltheory.papers.hermite.runs)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from fltheory.claims.registry import Point, Verdict
from fltheory.papers.hermite import claims as H
from fltheory.papers.hermite import runs

#: the claims whose compare functions the tests below exercise
COVERED = {"hermite.coefficient"}


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


# --------------------------------------------------------------------------- points


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


def test_every_claim_is_covered():
    """A claim added to the paper needs its points tested here."""
    assert {c.id for c in H.CLAIMS} == COVERED


def test_the_claim_is_the_runs():
    """The claim's prediction and simulation are the runs' two sides, seed for seed."""
    params = {"activations": ("relu", "He3"), "K": 3, "n": 5000}
    check = runs.coefficient_check(params["activations"], params["K"], params["n"], 7)
    assert H._predict(params) == check.predicted
    sampled = H._simulate(params, 7)
    for name in params["activations"]:
        assert np.array_equal(sampled[name].mean, check.sampled[name].mean)
