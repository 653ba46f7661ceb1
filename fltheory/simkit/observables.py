"""How a recorded curve is read, shared by the simulators and the theory side: the crossing
rule, the one definition of "the time a curve first reaches a level" (escape from a plateau,
the end of a decay).

A definition, not a formula: it says how a sampled curve is turned into a time, and both sides
must read their curves the same way for the comparison to mean anything (the ODE's escape
time against the simulation's). Nothing here predicts what the curve is, so sharing it cannot
make the simulation share a mistake of the theory."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fltheory.args import read_real
from fltheory.exact import DomainError

__all__ = ["crossing_time"]


def crossing_time(t: Any, values: Any, level: float, upward: bool = True) -> float:
    """First time a recorded quantity crosses ``level`` (upward: the first value >= level;
    downward: the first value <= level), with ln(value) interpolated linearly between the two
    records around the crossing — exact for the exponential growth or decay of a linear
    stage; the first record's time when the curve starts beyond the level or the record before
    the crossing is 0; NaN if it never crosses (NaN records, e.g. after a divergence, never
    cross).

    ``t``: finite record times; ``values``: records >= 0 (or NaN) of the same length n >= 1;
    level > 0. Else DomainError.

    >>> crossing_time([0.0, 1.0, 2.0], [0.1, 0.2, 0.8], 0.4)
    1.5
    >>> crossing_time([0.0, 1.0, 2.0], [0.5, 0.4, 0.1], 0.2, upward=False)
    1.5
    """
    try:
        t, v = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise DomainError("values", str(values)[:40], "1-d arrays of times and values") from None
    if t.ndim != 1 or v.shape != t.shape or len(t) == 0:
        raise DomainError("values", f"arrays of shapes {t.shape}, {v.shape}",
                          "times and values of the same length n >= 1")
    level = read_real(level, "level", low=0.0, open_low=True)
    if not np.isfinite(t).all():
        raise DomainError("t", "an array with non-finite entries", "finite times")
    if np.any(v < 0) or np.any(np.isinf(v)):
        raise DomainError("values", "an array with negative or infinite entries",
                          "values >= 0 (NaN after a divergence)")
    with np.errstate(invalid="ignore"):
        hit = (v >= level) if upward else (v <= level)
    idx = np.flatnonzero(hit)
    if len(idx) == 0:
        return float("nan")
    j = int(idx[0])
    if j == 0 or not (v[j - 1] > 0 and v[j] > 0):
        return float(t[j])
    lo, hi = math.log(v[j - 1]), math.log(v[j])
    if hi == lo:
        return float(t[j])
    return float(t[j - 1] + (t[j] - t[j - 1]) * (math.log(level) - lo) / (hi - lo))
