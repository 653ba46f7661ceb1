"""The points behind the verdicts of the quadratic claims, and what the claims state.

Every compare function is called on synthetic measurements of the shape its simulation returns
(cheap: no SGD), built to pass, to fail and, where the rule has a third outcome, to be
inconclusive. For each verdict the points must be present, labelled, finite Python floats, and
consistent with the verdict: a passing interval rule has every banded point within its band, a
failing one (the synthetic failures break an interval rule) has one outside.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from verdicts import banded as _banded
from verdicts import check_points
from verdicts import rng as _rng
from verdicts import series as _series
from verdicts import within as _within

from fltheory.claims.registry import select
from fltheory.claims.stats import z_crit
from fltheory.papers.quadratic import claims as cq
from fltheory.papers.quadratic.theory import EscapeLaw

# ----------------------------------------------------------------------------- quadratic


def _loglog_rows(slope: float, Ns=(500, 1000, 2000), seeds=6, noise=0.05) -> np.ndarray:
    rng = _rng()
    return np.array([(math.log(N), math.log(0.3) + slope * math.log(N / 500)
                      + noise * rng.standard_normal()) for N in Ns for _ in range(seeds)])


@pytest.mark.parametrize(("slope", "status"), [(-0.5, "pass"), (0.0, "fail")])
def test_quadratic_deviation(slope, status):
    v = check_points(cq._compare_deviation(-0.5, _loglog_rows(slope)), status)
    (fit,) = _banded(v)
    assert fit.predicted == -0.5 and fit.se is not None
    assert fit.band == pytest.approx(z_crit(1) * fit.se)
    runs = _series(v, "max |SGD − ODE| per run")
    assert len(runs) == 18 and {p.x for p in runs} == {500.0, 1000.0, 2000.0}


@pytest.mark.parametrize(("offset", "small", "status"), [
    (0.0, 0.6, "pass"), (0.02, 0.6, "fail"), (0.0, 0.6665, "inconclusive")])
def test_quadratic_plateau(offset, small, status):
    pred = {"q": 0.667, "q_small_eta": small}
    values = 0.667 + offset + 0.001 * _rng().standard_normal(6)
    v = check_points(cq._compare_plateau(pred, values), status)
    assert _banded(v)[0].measured == pytest.approx(float(values.mean()))


@pytest.mark.parametrize(("bias", "status"), [(0.0, "pass"), (0.02, "fail")])
def test_quadratic_escape_rate(bias, status):
    rng = _rng()
    rows = np.array([(1 / N, 0.1 + bias + 20 / N + 0.002 * rng.standard_normal())
                     for N in (500, 1000, 2000) for _ in range(6)])
    v = check_points(cq._compare_rate(0.1, rows), status)
    (fit,) = _banded(v)
    assert fit.x == 0.0 and fit.x_label == "1/N" and fit.predicted == 0.1
    assert len(_series(v, "growth rate per run")) == 18


@pytest.mark.parametrize(("offset", "status"), [(0.0, "pass"), (0.5, "fail")])
def test_quadratic_plateau_noise(offset, status):
    pred = {1.0: 0.4, 3.0: 1.1}
    rng = _rng()
    meas = {t: v + offset + 0.05 * rng.standard_normal(24) for t, v in pred.items()}
    v = check_points(cq._compare_noise(pred, meas), status)
    assert [p.x for p in _banded(v)] == [1.0, 3.0]


def _law(mean: float, shift: float, N: int = 1000, p: int = 4) -> EscapeLaw:
    return EscapeLaw(p, 2, N, 0.25, 0.5, 0.1, 0.11, mean, 0.05, mean + 1.0, 0.05, shift, 0.02,
                     -3.0, 400)


def _escape_cells(keys, means, offset: float, shift_offset: float = 0.0):
    rng = _rng()
    pred, meas = {}, {}
    for k, m in zip(keys, means, strict=True):
        pred[k] = _law(m, -1.0)
        t_sgd = m + offset + 0.3 * rng.standard_normal(6)
        t_ode = t_sgd + 1.0 - shift_offset + 0.1 * rng.standard_normal(6)
        meas[k] = np.column_stack([t_sgd, t_ode])
    return pred, meas


@pytest.mark.parametrize(("offset", "shift_offset", "status"), [
    (0.0, 0.0, "pass"), (3.0, 0.0, "fail"), (0.0, 1.0, "fail")])
def test_quadratic_escape_vs_p(offset, shift_offset, status):
    pred, meas = _escape_cells((2, 4, 8), (20.0, 15.0, 12.0), offset, shift_offset)
    v = check_points(cq._compare_escape(pred, meas), status)
    cells = _series(v, "E t_esc, law with noise J")
    assert [p.x for p in cells] == [2.0, 4.0, 8.0] and {p.x_label for p in cells} == {"p"}
    (pooled,) = _series(v, "shift, pooled (tested)")
    assert pooled.predicted == 0.0
    assert (status == "pass") == all(_within(p) for p in _banded(v))
    per_p = _series(v, "shift per p (not tested alone)")
    assert [p.predicted for p in per_p] == [-1.0] * 3


@pytest.mark.parametrize(("offset", "status"), [(0.0, "pass"), (4.0, "fail")])
def test_quadratic_escape_vs_N(offset, status):
    Ns = (250, 500, 1000, 2000)
    pred, meas = _escape_cells(Ns, [10 + 2.7 * math.log(N) for N in Ns], offset)
    v = check_points(cq._compare_slope_N(pred, meas), status)
    assert [p.x for p in _series(v, "E t_esc, law with noise J")] == [float(N) for N in Ns]
    assert len(_series(v, "SGD escape time per run")) == 24
    (slope,) = _series(v, "slope in ln N")
    assert slope.band is None and slope.predicted == pytest.approx(2.7)


@pytest.mark.parametrize("status", ["pass", "fail"])
def test_quadratic_counts_and_dims(status):
    pred = [(0, 10, 26), (0, 20, 16)]
    meas = pred if status == "pass" else [(0, 10, 26), (1, 19, 16)]
    v = check_points(cq._compare_counts(pred, meas), status)
    assert len(v.points) == 6 and all(p.band == 0.0 and p.se is None for p in v.points)
    d = check_points(cq._compare_dims([1, 3], [1, 3] if status == "pass" else [1, 2]), status)
    assert [p.measured for p in d.points] == ([1.0, 3.0] if status == "pass" else [1.0, 2.0])


def _bias_rows(slope: float, ode: float, aniso: bool) -> np.ndarray:
    base = _loglog_rows(slope, (250, 1000, 2000), 4)
    dist = np.exp(base[:, 1])
    if aniso:
        return np.column_stack([base[:, 0], dist, np.full(len(base), ode), dist + 0.4])
    return np.column_stack([base[:, 0], dist, np.full(len(base), ode)])


@pytest.mark.parametrize(("slope", "ode", "status"), [
    (-0.5, 1e-9, "pass"), (0.0, 1e-9, "fail"), (-0.5, 1e-3, "fail")])
def test_quadratic_implicit_bias(slope, ode, status):
    v = check_points(cq._compare_bias_iso(0.0, _bias_rows(slope, ode, False)), status)
    (ode_point,) = _series(v, "ODE drift")
    assert ode_point.measured == ode and ode_point.band == 1e-6


@pytest.mark.parametrize(("slope", "status"), [(-0.5, "pass"), (0.1, "fail")])
def test_quadratic_anisotropic(slope, status):
    v = check_points(cq._compare_aniso(0.0, _bias_rows(slope, 0.5, True)), status)
    assert len(v.points) == 3 * 12 + 1


COLD = cq.CLAIMS[[c.id for c in cq.CLAIMS].index("quadratic.cold_start_drift")].sizes["small"]


def _cold(scale_with_N: float, rho_end: float = 1.9):
    """A prediction {η: (J, drift, MC SE)} and drifts drawn around it per cell ∝ N^scale."""
    pred = {Fraction(1, 20): (0.05, 0.68, 0.003), Fraction(1, 10): (0.11, 0.90, 0.003),
            Fraction(1, 5): (0.26, 1.16, 0.003)}
    rng = _rng()
    meas = {}
    for N, eta in cq._cold_cells(COLD):
        d = pred[eta][1] * (N / 500) ** scale_with_N * rng.lognormal(0, 0.1, 12)
        meas[(N, eta)] = np.column_stack([d, np.full(12, 0.03), np.full(12, rho_end)])
    return pred, meas


@pytest.mark.parametrize(("scale", "rho", "status"), [
    (0.0, 1.9, "pass"), (-0.5, 1.9, "fail"), (0.0, 1.2, "inconclusive")])
def test_quadratic_cold_start_drift(scale, rho, status):
    v = check_points(cq._compare_cold(*_cold(scale, rho)), status)
    (check,) = _series(v, "convergence check")
    assert check.measured == rho
    if status != "inconclusive":
        on_N = _series(v, "SGD drift, η = 1/10")
        assert [p.x for p in on_N] == [250.0, 500.0, 1000.0]
        on_eta = _series(v, "SGD drift, N = 500")  # the shared cell drawn on both axes
        assert {p.x for p in on_eta} == {0.05, 0.1, 0.2} and len(on_eta) == 3
        (slope,) = _series(v, "log-log slope")
        assert slope.predicted == 0.0


# ----------------------------------------------------------------------------- statements


def _claim(cid):
    (claim,) = [c for c in select(cid.split(".")[0]) if c.id == cid]
    return claim


def test_statements_say_what_is_tested():
    """Each narrowed claim names its start, its sizes and its times."""
    bias = _claim("quadratic.implicit_bias").statement
    assert "warm start" in bias and "t ≤ 20" in bias and "quadratic.cold_start_drift" in bias
    ode = _claim("quadratic.ode_matches_sgd").statement
    assert "warm start" in ode and "t ≤ 10" in ode and "cold starts" in ode
    cold = _claim("quadratic.cold_start_drift")
    for size in ("small", "large"):  # the N range of each size, as "first…last"
        grid = cold.sizes[size]["N_grid"]
        assert f"N = {grid[0]}…{grid[-1]}" in cold.statement


def test_verify_cold_claim_is_listed(invoke):
    r = invoke("verify", "--list", "--format", "json")
    assert r.exit_code == 0
    try:
        ids = json.dumps(json.loads(r.stdout))
    except json.JSONDecodeError:  # --list in text (issue 13: a sibling fix makes it JSON)
        ids = r.stdout
    assert "quadratic.cold_start_drift" in ids
