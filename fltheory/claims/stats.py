"""Statistics shared by the claims' comparison rules (numpy and the standard library only)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from fltheory.claims.registry import Point

__all__ = ["FAMILY_ALARM", "fit_points", "linear_fit", "mean_se", "z_crit"]

#: probability that a claim whose prediction is right fails at a given seed
FAMILY_ALARM = 1e-3


def z_crit(tests: int, alarm: float = FAMILY_ALARM) -> float:
    """Two-sided Bonferroni bound: P(any of ``tests`` standard normals exceeds it) <= alarm.

    >>> round(z_crit(1), 2)
    3.29
    """
    return NormalDist().inv_cdf(1 - alarm / (2 * tests))


def mean_se(values: np.ndarray) -> tuple[float, float]:
    """Sample mean and its standard error."""
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values)))


def linear_fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Least squares y = a + b x; returns (a, se_a, b, se_b) from the residual variance."""
    A = np.column_stack([np.ones_like(x), x])
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    resid = y - A @ coef
    cov = np.linalg.inv(A.T @ A) * float(resid @ resid) / max(len(y) - 2, 1)
    return float(coef[0]), math.sqrt(cov[0, 0]), float(coef[1]), math.sqrt(cov[1, 1])


def fit_points(name: str, inv_m: np.ndarray, y: np.ndarray, a: float, se: float,
               pred: float, band: float) -> list[Point]:
    """The points of a finite-size fit y = a + b/m for the report's figure: the data (one point
    per draw at x = 1/m, series "NAME (per draw)", no prediction at finite m) and the
    extrapolated ``a`` ± ``se`` at 1/m = 0 against the m → ∞ prediction ``pred``, accepted
    within ``band`` (series "NAME (m → ∞ fit)")."""
    data = [Point(f"{name}, m = {round(1 / x)}", float(v), x=float(x), x_label="1/m",
                  series=f"{name} (per draw)") for x, v in zip(inv_m, y, strict=True)]
    return [*data, Point(f"{name} (m → ∞)", a, pred, se, band, 0.0, "1/m",
                         f"{name} (m → ∞ fit)")]
