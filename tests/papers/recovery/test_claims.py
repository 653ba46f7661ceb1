"""The points behind the verdicts of the recovery claims: every compare function is called on
synthetic measurements of the shape its simulation returns (cheap: no spectral runs), built to
pass and to fail. For each verdict the points must be present, labelled, finite Python floats,
and consistent with the verdict: a passing interval rule has every banded point within its band,
a failing one has one outside; a one-sided rule (an ordering, a decrease) is read off
measured/se.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from verdicts import banded as _banded
from verdicts import check_points
from verdicts import is_float as _is_float
from verdicts import rng as _rng
from verdicts import series as _series

from fltheory.claims.registry import Verdict
from fltheory.claims.stats import z_crit
from fltheory.papers.recovery import claims as cr

# --------------------------------------------------------------------------- the claims


def _fss(truth: np.ndarray, D: np.ndarray, seeds: int, noise: float, offset: float
         ) -> np.ndarray:
    """values[a, s, ...] = truth + offset + 2/D_a + noise."""
    rng = _rng()
    return np.stack([np.stack([truth + offset + 2 / d + noise * rng.standard_normal(truth.shape)
                               for _ in range(seeds)]) for d in D])


D3 = np.array([136.0, 231.0, 406.0])


DELTAS = np.array([2.5, 5, 10, 20, 40, 80])


@pytest.mark.parametrize(("offset", "status"), [(0.0, "pass"), (0.1, "fail")])
def test_recovery_overlaps(offset, status):
    pred = np.clip(1 - np.outer(1 / DELTAS, np.arange(1, 5)), 0, 1)
    rho2 = np.clip(_fss(pred, D3, 6, 0.01, offset), 0, None)
    v = check_points(cr._compare_overlaps(pred, {"D": D3, "deltas": DELTAS, "rho2": rho2}),
                     status)
    fits = [p for p in v.points if p.series.endswith("D → ∞ fit")]
    assert len(fits) == int((pred >= 0.3).sum()) and len(v.points) == 4 * len(fits)


@pytest.mark.parametrize(("offset", "status"), [(0.0, "pass"), (1.0, "fail")])
def test_recovery_thresholds(offset, status):
    grid = np.array([2.0, 4.0, 6.0, 8.0])
    crossing = _fss(grid, D3, 6, 0.05, offset)
    pred = {"grid": list(grid), "exact": list(grid - 0.1), "bbp": list(grid / 2)}
    v = check_points(cr._compare_thresholds(pred, {"D": D3, "crossing": crossing}), status)
    fits = [p for p in v.points if p.series.endswith("D → ∞ fit")]
    assert [p.x for p in fits] == [0.0] * 4 and [p.predicted for p in fits] == list(grid)
    assert len(_series(v, "direction 1: crossing, seed mean")) == 3


def test_recovery_thresholds_off_the_grid():
    crossing = _fss(np.array([2.0, 4.0]), D3, 6, 0.05, 0.0)
    crossing[0, 0, 1] = math.nan
    pred = {"grid": [2.0, 4.0], "exact": [2.0, 4.0], "bbp": [1.0, 2.0]}
    v = cr._compare_thresholds(pred, {"D": D3, "crossing": crossing})
    assert v.status == "fail" and all(_is_float(p.measured) for p in v.points)


def _one_sided(v: Verdict, series: str, sign: float, zc: float) -> bool:
    return all(sign * p.measured / p.se >= zc for p in _series(v, series)
               if p.se is not None)


@pytest.mark.parametrize(("ratio", "status"), [(2.0, "pass"), (1.0, "fail")])
def test_recovery_sequential(ratio, status):
    crossing = _fss(np.array([2.0 * ratio**i for i in range(4)]), D3, 6, 0.05, 0.0)
    v = check_points(cr._compare_order([1, 2, 3, 4], crossing), status, interval=False)
    zc = z_crit(3, alarm=2e-3)
    tested = "log-ratio of consecutive crossings (sign tested)"
    assert _one_sided(v, tested, 1.0, zc) == (status == "pass")
    assert all(p.predicted is None for p in _series(v, tested))
    assert len(_series(v, "crossing δ_i per run")) == 4 * 18


@pytest.mark.parametrize(("offset", "status"), [(0.0, "pass"), (0.05, "fail")])
def test_recovery_mse(offset, status):
    pred = 0.9 * DELTAS ** -0.5
    mse = _fss(pred, D3, 6, 0.002, offset)
    v = check_points(cr._compare_mse(pred, {"D": D3, "deltas": DELTAS, "mse": mse}), status)
    assert [p.x for p in _series(v, "D → ∞ fit")] == list(DELTAS)
    (slope,) = _series(v, "slope")
    assert slope.band is None and slope.predicted == pytest.approx(-0.5)


@pytest.mark.parametrize(("exponent_factor", "status", "rule"), [
    (1.0, "pass", "both"), (1.2, "fail", "interval"), (1.02, "fail", "decrease")])
def test_recovery_mse_exponent(exponent_factor, status, rule):
    """The real (deterministic) direct sum with 10^5 directions against the law, and against
    laws whose exponent is 20 % off (outside the 10/κ band at κ = 100) or 2 % off (inside the
    bands, but the error no longer decreases from κ = 10 to 100)."""
    params = {"gamma": Fraction(1), "K": 10**5, "kappas": (10, 100)}
    pred = cr._predict_law(params)
    pred["exponent"] *= exponent_factor
    v = cr._compare_law(pred, cr._sim_law(params, 0))
    check_points(v, status, interval=rule != "decrease")
    errors = _series(v, "relative error of the MSE (decrease tested)")
    assert [p.x for p in errors] == [10.0, 100.0]
    if rule != "interval":  # (a 20 % error breaks both rules)
        assert (errors[-1].measured < errors[0].measured) == (rule == "both")
    assert all(p.se is None for p in v.points)


@pytest.mark.parametrize(("ratio", "drop", "status"), [(2.0, 0.1, "pass"), (2.0, 0.0, "fail")])
def test_recovery_hermite(ratio, drop, status):
    deltas = np.array([5.0, 10, 20, 40, 80])
    D = np.array([231.0, 406.0])
    crossing = _fss(np.array([3.0 * ratio**i for i in range(3)]), D, 4, 0.05, 0.0)
    mse = _fss(1 - drop * np.arange(5), D, 4, 0.002, 0.0)
    pred = {"order": [1, 2, 3], "thresholds": {"grid": [2.0, 4.0, 8.0]}}
    v = check_points(cr._compare_hermite(pred, {"crossing": crossing, "mse": mse,
                                                "deltas": deltas, "D": D}), status,
                     interval=False)
    zc = z_crit(4, alarm=2e-3)
    changes = "MSE change between consecutive δ (sign tested)"
    assert _one_sided(v, changes, -1.0, zc) == (status == "pass")
    assert len(_series(v, "crossing against Lu–Li")) == 3


# --------------------------------------------------------------------------- depth at fixed d


_DEPTH_PRED = [{"d": 12, "c": 10, "n": 780, "share": 0.81, "L4": 0.18, "luli": 0.8,
                "n_over_N4": 0.61},
               {"d": 16, "c": 10, "n": 1360, "share": 0.92, "L4": 0.11, "luli": 0.8,
                "n_over_N4": 0.36}]


def _depth_meas(rho: float, rho_noise: float, share_offset: float, seeds: int = 12
                ) -> list[dict[str, np.ndarray]]:
    rng = _rng()
    return [{"rho2": rho + rho_noise * rng.standard_normal(seeds),
             "share4": p["share"] + share_offset + 0.01 * rng.standard_normal(seeds),
             "share": p["share"] + share_offset + 0.01 * rng.standard_normal(seeds)}
            for p in _DEPTH_PRED]


@pytest.mark.parametrize(("rho", "rho_noise", "offset", "status", "interval"), [
    (0.75, 0.03, 0.0, "pass", True),
    (0.75, 0.03, 0.05, "fail", True),    # eigenlearning off by 0.05 = 12 SE
    (0.30, 0.03, 0.0, "fail", False),    # the first direction not recovered
    (0.52, 0.05, 0.0, "inconclusive", True)])  # ρ_1² − 1/2 about 1 SE: undecided
def test_recovery_depth_at_fixed_d(rho, rho_noise, offset, status, interval):
    """The three tests per cell (module docstring of the claim): synthetic runs built to pass,
    to fail each way and to be undecided; the eigenlearning points carry the band."""
    v = check_points(cr._compare_depth_fixed(_DEPTH_PRED, _depth_meas(rho, rho_noise, offset)),
                     status, interval=interval)
    assert (v.reason != "") == (status == "inconclusive")
    banded = _banded(v)
    assert [p.predicted for p in banded] == [0.81, 0.92]
    zc = cr._t_crit(6, 11)  # 2 cells × 3 tests, 12 seeds
    assert zc == pytest.approx(5.57, abs=0.01)  # scipy.stats.t.ppf(1 − 1e-3/12, 11)
    assert all(p.band == pytest.approx(zc * p.se) for p in banded)
    rho_points = [p for p in v.points if "ρ_1², mean over seeds" in p.label]
    assert len(rho_points) == 2 and all(p.predicted is None for p in rho_points)
    if status == "fail" and not interval:
        assert all(p.measured < 0.5 for p in rho_points)


def test_recovery_depth_at_fixed_d_kernel_learned_too_much():
    """A kernel that has learned more than half of the degree-4 part (share 0.3, as
    eigenlearning says it would be at n ≫ N(d, 4)) fails the claim even when eigenlearning
    agrees: the depth gap is gone."""
    pred = [dict(p, share=0.3) for p in _DEPTH_PRED]
    meas = _depth_meas(0.75, 0.03, 0.0)
    for m, p in zip(meas, _DEPTH_PRED, strict=True):
        m["share4"] += 0.3 - p["share"]
    v = cr._compare_depth_fixed(pred, meas)
    assert v.status == "fail"


def test_recovery_depth_at_fixed_d_prediction():
    """The prediction per cell: n = c·D(d, 2) exactly, the eigenlearning share (to the digits
    of the independent quadrature route, test_independent_recovery) and n/N(d, 4) with
    N(12, 4) = C(15, 4) − C(13, 2) = 1287."""
    (p,) = cr._predict_depth_fixed({"cells": ((12, 10),), "d1": 8, "gamma": 1.0})
    assert p["n"] == 780 and p["n_over_N4"] == pytest.approx(780 / 1287)
    assert p["share"] == pytest.approx(0.8089, abs=1e-4) and 0.75 < p["luli"] < 0.85


def test_recovery_depth_at_fixed_d_why_quotes_the_prediction():
    """The claim's why: Lu–Li ρ_1² − 1/2 about 0.3 at c = 10, share − 1/2 >= 0.2 in every cell
    of both sizes."""
    (claim,) = [c for c in cr.CLAIMS if c.id == "recovery.depth_at_fixed_d"]
    assert "ρ_1² − 1/2 about 0.3 at c = 10" in claim.why and ">= 0.2 in every cell" in claim.why
    for params in claim.sizes.values():
        pred = cr._predict_depth_fixed(params)
        assert min(p["share"] for p in pred) - 0.5 >= 0.2
        assert all(abs(p["luli"] - 0.5 - 0.3) < 0.01 for p in pred if p["c"] == 10)


def _half_point(d: int) -> int:
    """The smallest n at which the eigenlearning share of the degree-4 energy is <= 1/2 (a
    bisection of its own, over a different bracket from theory.kernel_half_point's)."""
    from fltheory.papers.recovery import theory as th

    lo, hi = 10, 10**5
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if th.kernel_share(d, mid).share <= 0.5 else (mid, hi)
    return hi


def test_recovery_depth_growth_sizes_are_the_half_points():
    """The cells of recovery.depth_growth sit at the eigenlearning half-points, and its
    statement quotes them with their ratios to N(d, 4) and D(d, 2) at both ends."""
    from fltheory.papers.recovery import theory as th

    (claim,) = [c for c in cr.CLAIMS if c.id == "recovery.depth_growth"]
    for params in claim.sizes.values():
        for d, n in params["cells"]:
            assert n == _half_point(d) == th.kernel_half_point(d)
    text = " ".join(claim.statement.split())
    assert "n_½(d) = 896, 1693 (large: 422, …, 2938, 4777)" in text
    N4 = {d: math.comb(d + 3, 4) - math.comb(d + 1, 2) for d in (8, 16)}
    D2 = {d: d * (d + 1) // 2 for d in (8, 16)}
    assert f"{422 / N4[8]:.2f} … {4777 / N4[16]:.2f}·N(d, 4)" in text
    assert f"{422 / D2[8]:.1f} … {4777 / D2[16]:.0f}·D(d, 2)" in text


_GROWTH_PRED = [{"d": 8, "n": 422, "share": 0.499, "n_over_N4": 1.44, "n_over_D2": 11.7},
                {"d": 10, "n": 896, "share": 0.5, "n_over_N4": 1.36, "n_over_D2": 16.3}]


@pytest.mark.parametrize(("rho", "rho_noise", "offset", "status", "interval"), [
    (0.75, 0.03, 0.0, "pass", True),
    (0.75, 0.03, 0.4, "fail", True),     # a kernel that learned nothing: share 0.9, not 1/2
    (0.30, 0.03, 0.0, "fail", False),    # the first direction not recovered
    (0.52, 0.05, 0.0, "inconclusive", True)])
def test_recovery_depth_growth(rho, rho_noise, offset, status, interval):
    rng = _rng()
    meas = [{"rho2": rho + rho_noise * rng.standard_normal(8),
             "share4": p["share"] + offset + 0.01 * rng.standard_normal(8)}
            for p in _GROWTH_PRED]
    v = check_points(cr._compare_growth(_GROWTH_PRED, meas), status, interval=interval)
    assert (v.reason != "") == (status == "inconclusive")
    assert [p.predicted for p in _banded(v)] == [0.499, 0.5]
    assert "local exponent 3.4 in d" in v.predicted  # ln(896/422)/ln(10/8) = 3.37


def test_recovery_depth_advantage_reason_quotes_the_theory():
    """The pending reason of recovery.depth_advantage quotes the kernel's half-points at
    d = 8 and 16, their ratio to N(d, 4) and the local exponents in d of these and of D(d, 2):
    recomputed here (bisection on n of theory.kernel_share; exact counts)."""
    (claim,) = [c for c in cr.CLAIMS if c.id == "recovery.depth_advantage"]
    text = " ".join(claim.pending.split())
    n8, n16 = _half_point(8), _half_point(16)
    N4 = {d: math.comb(d + 3, 4) - math.comb(d + 1, 2) for d in (8, 16)}
    assert f"n = {n8} ({n8 / N4[8]:.2f}·N(d, 4)) at d = 8" in text
    assert f"{n16} ({n16 / N4[16]:.2f}·N(d, 4)) at d = 16" in text
    assert f"local exponent {math.log(n16 / n8) / math.log(2):.1f} in d" in text
    assert f"D(d, 2) has local exponent {math.log(136 / 36) / math.log(2):.1f}" in text


def test_t_bound_of_the_depth_claims():
    """The docstring of _t_crit: at 8 seeds (7 dof) and 10 tests the t bound is 7.88, and the
    normal bound z_crit(10) = 3.89 would be crossed with probability about 6 % (scipy's t)."""
    from scipy import stats

    assert round(cr._t_crit(10, 7), 2) == 7.88
    assert round(20 * stats.t.sf(z_crit(10), 7), 2) == 0.06
    assert "about 6 %, the t bound is 7.88" in " ".join(cr._t_crit.__doc__.split())
