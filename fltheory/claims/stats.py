"""Statistics shared by the claims' comparison rules (numpy and the standard library only)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

__all__ = ["FAMILY_ALARM", "linear_fit", "mean_se", "z_crit"]

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
