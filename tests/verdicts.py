"""The checks every paper's verdict-point tests share (issue 17): a verdict's points are present,
labelled, finite Python floats, JSON without NaN, and consistent with the verdict. Two styles, as
the claims' tests were written: ``check_points`` (a verdict built to pass, fail or be
inconclusive, with its ``series``) and ``check_interval``/``both_ways`` (an interval rule: pass
iff every banded point lies within its band, the stated max |z| or |t| recomputed)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from fltheory.claims.registry import Point, Verdict

#: the seed of the synthetic measurements
RNG_SEED = 1


def rng() -> np.random.Generator:
    return np.random.default_rng(RNG_SEED)


def is_float(v: object) -> bool:
    return type(v) is float and math.isfinite(v)


def banded(v: Verdict) -> list[Point]:
    return [p for p in v.points if p.band is not None and p.predicted is not None]


def within(p: Point) -> bool:
    assert p.predicted is not None and p.band is not None
    return abs(p.measured - p.predicted) <= p.band


def check_points(v: Verdict, expect: str, interval: bool = True) -> Verdict:
    """Points present, labelled, finite floats, JSON without NaN; pass ⇒ every banded point
    within its band; fail ⇒ (when the synthetic failure breaks an interval rule, ``interval``)
    some banded point outside."""
    assert v.status == expect, v
    assert v.points, f"no points behind {v}"
    for p in v.points:
        assert isinstance(p, Point) and p.label.strip(), p
        assert is_float(p.measured), p
        for name in ("predicted", "se", "band", "x"):
            value = getattr(p, name)
            assert value is None or is_float(value), (name, p)
        assert p.band is None or p.band >= 0, p
        assert p.se is None or p.se >= 0, p
        assert p.x is None or p.x_label, p
    json.dumps([p.as_json() for p in v.points], allow_nan=False)
    if v.status == "pass":
        assert all(within(p) for p in banded(v)), v.points
        assert banded(v) or not interval, "an interval rule without a band"
    elif v.status == "fail" and interval:
        assert not all(within(p) for p in banded(v)), v.points
    return v


def series(v: Verdict, name: str) -> list[Point]:
    out = [p for p in v.points if p.series == name]
    assert out, (name, {p.series for p in v.points})
    return out


def well_formed(v: Verdict) -> None:
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


def tested(v: Verdict) -> list[Point]:
    return [p for p in v.points if p.band is not None]


def inside(p: Point) -> bool:
    assert p.predicted is not None and p.band is not None
    return abs(p.measured - p.predicted) <= p.band


def check_interval(v: Verdict) -> None:
    """An interval rule: pass iff every point with a band lies within it; the largest
    |measured − predicted|/se is the verdict's "max |z|" (or |t|) when it states one."""
    well_formed(v)
    banded_points = tested(v)
    assert banded_points
    assert v.status == ("pass" if all(inside(p) for p in banded_points) else "fail")
    worst = re.search(r"max \|[zt]\| = ([0-9.]+)", v.measured)
    if worst is not None:
        z = max(abs(p.measured - p.predicted) / p.se for p in banded_points  # type: ignore[operator]
                if p.se)
        assert f"{z:.2f}" == worst.group(1)


def both_ways(compare: Any, pred: Any, meas: Any, wrong_pred: Any) -> None:
    """The right prediction and a wrong one: the points agree with both verdicts."""
    right, wrong = compare(pred, meas), compare(wrong_pred, meas)
    assert (right.status, wrong.status) == ("pass", "fail")
    check_interval(right)
    check_interval(wrong)
