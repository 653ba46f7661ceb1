"""The Hermite paper's claim: its compare function returns the numbers its verdict rests on
(Verdict.points: finite, labelled, consistent with the verdict: a point with a band passes iff
|measured − predicted| <= band; the verdict's "max |z|" is the largest |measured −
predicted|/se of its points), the rule can fail (a shifted prediction), and the claim's two
sides are the runs' (fltheory.papers.hermite.runs)."""

from __future__ import annotations

import numpy as np
from verdicts import both_ways as _both_ways

from fltheory.papers.hermite import claims as H
from fltheory.papers.hermite import runs

#: the claims whose compare functions the tests below exercise
COVERED = {"hermite.coefficient"}


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
