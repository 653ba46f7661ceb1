"""The points behind the verdicts of the committee claims (issue 17): every compare function
of fltheory.papers.committee.claims is called on synthetic measurements of the shape its
simulation returns (cheap: no SGD, no ODE), built to pass, to fail and, where the rule has a
third outcome, to be inconclusive. For each verdict the points must be present, labelled,
finite Python floats, and consistent with the verdict: a passing interval rule has every banded
point within its band, a failing one has one outside."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from verdicts import check_points
from verdicts import rng as _rng
from verdicts import series as _series
from verdicts import within as _within

from fltheory.papers.committee import claims as cc


def _committee_deviation(slope: float, noise: float = 0.05):
    rng = _rng()
    Ns, seeds, records = (250, 500, 1000, 2000), 3, 13
    out = {}
    for g in ("erf_ss", "relu"):
        rows = np.array([(math.log(N), math.log(0.1) + slope * math.log(N / 250)
                          + noise * rng.standard_normal()) for N in Ns for _ in range(seeds)])
        eps = 1e-3 * rng.standard_normal((len(Ns), seeds, records))
        out[g] = {"rows": rows, "eps": eps, "eps_se": np.full(eps.shape, 1e-3),
                  "t": np.linspace(0, 12, records)}
    return out


@pytest.mark.parametrize(("slope", "noise", "status"), [
    (-0.5, 0.05, "pass"), (-1.2, 0.05, "fail"), (0.0, 0.6, "inconclusive")])
def test_committee_deviation(slope, noise, status):
    v = check_points(cc._compare_deviation(-0.5, _committee_deviation(slope, noise)), status)
    assert len(_series(v, "log-log slope")) == 2
    eps = _series(v, "erf_ss: ε_g(SGD) − ε_g(ODE), largest N")
    assert [p.x for p in eps] == list(np.linspace(0, 12, 13)[1:])


@pytest.mark.parametrize(("offset", "spec", "status"), [
    (0.0, 0.1, "pass"), (0.002, 0.1, "fail"), (0.0, 0.4, "inconclusive")])
def test_committee_plateau(offset, spec, status):
    pred = {"eps": 0.0283, "eps_small_eta": 0.0095, "q": 0.5, "c": 0.2, "r": 0.3,
            "ode_window": 0.0284, "rate": 0.076}
    rng = _rng()
    meas = np.column_stack([0.0284 + offset + 1e-4 * rng.standard_normal(6), np.full(6, spec)])
    v = check_points(cc._compare_plateau(pred, meas), status)
    assert sum(p.series == "plateau check" for p in v.points) == 2


@pytest.mark.parametrize(("slope", "escaped", "status"), [
    (6.55, True, "pass"), (0.0, True, "fail"), (6.55, False, "inconclusive")])
def test_committee_duration(slope, escaped, status):
    rng = _rng()
    rows = np.array([(math.log(N), 40 + slope * math.log(N) + 0.3 * rng.standard_normal())
                     for N in (500, 1000, 2000, 4000, 8000) for _ in range(4)])
    if not escaped:
        rows[3, 1] = math.nan
    v = check_points(cc._compare_duration(6.55, rows), status)
    assert len(_series(v, "escape time per run")) == (20 if escaped else 19)


def _rate_rows(a: float, noise: float = 1e-4) -> np.ndarray:
    rng = _rng()
    return np.array([(1 / N, a + 5 / N + noise * rng.standard_normal())
                     for N in (500, 1000, 2000) for _ in range(3)])


@pytest.mark.parametrize(("a", "fit", "status"), [
    (0.0747, 0.0747, "pass"), (0.0800, 0.0747, "fail"), (0.0747, 0.06, "inconclusive")])
def test_committee_rate(a, fit, status):
    pred = {"rate": 0.0764, "ode_fit": fit}
    v = check_points(cc._compare_rate(pred, _rate_rows(a), "escape rate"), status)
    (check,) = _series(v, "linear-regime check")
    assert check.band == pytest.approx(0.05 * 0.0764)
    assert (status == "inconclusive") == (not _within(check))
    assert len(_series(v, "log-slope per run")) == 9


def test_committee_rate_nonfinite():
    rows = _rate_rows(0.0747)
    rows[2, 1] = math.nan
    v = check_points(cc._compare_rate({"rate": 0.0764, "ode_fit": 0.0747}, rows, "x"),
                     "inconclusive")
    assert len(_series(v, "log-slope per run")) == 8


@pytest.mark.parametrize(("shift", "status"), [(0.0, "pass"), (0.05, "fail")])
def test_committee_max_lr(shift, status):
    lo, hi = Fraction(3, 4), Fraction(5, 4)
    pred = {"eta_max": 4.056, "rates": {lo: (-0.373, -0.37), hi: (0.932, 0.915)}}
    meas = {lo: _rate_rows(-0.37, 1e-3), hi: _rate_rows(0.915 + shift, 1e-3)}
    v = check_points(cc._compare_max_lr(pred, meas), status)
    assert len(_series(v, "η = 0.75·η_max: fit at 1/N = 0")) == 1
    assert len(_series(v, "η = 1.25·η_max: log-slope per run")) == 9
