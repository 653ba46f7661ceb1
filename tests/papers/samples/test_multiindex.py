"""The leap of a multi-index polynomial target (fltheory.papers.samples.multiindex): against the
definition by hand and by brute force over orderings, the exact Hermite support against numpy's
HermiteE conversion, the generative leap by hand and against the Hermite engine, and the target's
parameters read once (fltheory.papers.samples.params)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.samples.params import Target
from fltheory.papers.samples.theory import (
    hermite_support,
    leap,
    leap_of,
    leap_of_support,
    parse_polynomial,
)


def _brute_leap(support):
    """Leap by its definition: every ordering of the support, the largest new degree."""
    best = None
    for order in itertools.permutations(support):
        known, worst = set(), 0
        for a in order:
            worst = max(worst, sum(x for j, x in enumerate(a) if x and j not in known))
            known |= {j for j, x in enumerate(a) if x}
        best = worst if best is None else min(best, worst)
    return best


@pytest.mark.parametrize(("target", "value"), [
    # by hand from Abbe, Boix-Adserà & Misiakiewicz's definition
    ("z1 + z1*z2 + z1*z2*z3", 1),  # merged staircase: each term adds one new degree
    ("z1*z2*z3", 3),
    ("z1 + z2*z3*z4", 3),
    ("z1 + z1*z2", 1),
    ("He3(z1)", 3),
    ("He2(z1) + z1*z2", 2),  # He2(z1) brings degree 2, then z2 comes with 1
    ("z1 + He3(z2)", 3),
    ("z1*z2", 2),
    ("z1**2", 2),  # z² = He2 + 1
    ("z1**3 - 3*z1", 3),  # He3: the linear parts cancel exactly
    ("z1**3", 1),  # z³ = He3 + 3 He1
])
def test_leap_by_hand(target, value):
    assert leap(target, generative=False).value == value


def test_leap_equals_brute_force_on_random_supports():
    rng = np.random.default_rng(5)
    for _ in range(150):
        r, m = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        support = {tuple(int(v) for v in rng.integers(0, 3, r)) for _ in range(m)}
        support = [a for a in support if any(a)]
        if not support:
            continue
        assert leap_of_support(support)[0] == _brute_leap(support), support


def test_stages_order_of_staircase():
    L = leap("z1 + z1*z2 + z1*z2*z3", generative=False)
    assert [s.coordinates for s in L.stages] == [(1,), (2,), (3,)]
    assert L.merged_staircase and L.sgd_power == 1
    L3 = leap("z1*z2*z3", generative=False)
    assert [s.increment for s in L3.stages] == [3] and L3.sgd_power == 2  # d^{max(3−1, 1)}


def test_hermite_support_against_numpy_hermite_e():
    """The exact conversion against numpy's HermiteE (monic He) conversion, coordinatewise."""
    from numpy.polynomial import hermite_e as H

    text = "3*z1**4*z2 - 2*z1**2 + z2**3 + 1/2"
    got = hermite_support(parse_polynomial(text))
    # by monomial: z1^4 z2, z1^2, z2^3, 1 with their coefficients
    expect: dict[tuple[int, int], float] = {}
    for (a, b), c in {(4, 1): 3.0, (2, 0): -2.0, (0, 3): 1.0, (0, 0): 0.5}.items():
        ca = H.poly2herme([0] * a + [1])
        cb = H.poly2herme([0] * b + [1])
        for i, x in enumerate(ca):
            for j, y in enumerate(cb):
                if x * y:
                    expect[(i, j)] = expect.get((i, j), 0.0) + c * x * y
    expect = {k: v for k, v in expect.items() if abs(v) > 1e-12}
    assert {k[:2]: float(v) for k, v in got.items()} == pytest.approx(expect)
    assert set(k[:2] for k in got) == set(expect)


def test_generative_leap_one_coordinate():
    # He3(z1): not even, E[z | y] ≠ 0 → 1; z1² − 1: even → 2 (hand reasoning as above)
    assert leap("He3(z1)").generative == 1
    assert leap("z1**2 - 1").generative == 2
    assert leap("z1*z2", generative=False).generative is None


@pytest.mark.parametrize(("target", "lower", "upper"), [
    # by hand, each step: a zero from a sign flip preserving y, a non-zero from a moment
    # z1 z2: flipping (z1, z2) → (−z1, −z2) keeps y, so E[z | y] = 0; E[y He2-tensor] is
    # [[0, 1], [1, 0]] (E[y z1 z2] = 1), whose image is all of R²: both axes at once → 2
    ("z1*z2", 2, 2),
    ("z1*z2*z3", 2, 2),  # E[z_i | y] = 0 (flip two others); E[y² He2(z_i)] = 2
    ("z1 + z1*z2 + z1*z2*z3", 1, 1),  # E[y z1] = 1; E[y² z2] = 2, E[y² z3] = 2 (expand)
    ("z1 + z2*z3*z4", 2, 2),  # z1 at 1 (E[y z1] = 1); then y − z1 = z2 z3 z4: as above, 2
    ("z1*z2 + z3", 2, 2),  # z3 at 1, z1, z2 killed at 1 by the flip (−1, −1, 1); then 2
    ("He2(z1)*He2(z2)", 2, 2),  # even in each: 1 killed; E[y² He2(z1)] = 8·2 ≠ 0
    ("z1 + He3(z2)", 1, 1),  # E[y z1] = 1; E[y³ z2] ≠ 0 (He3³ has an He1 part: 1 step)
])
def test_generative_leap_several_coordinates_by_hand(target, lower, upper):
    g = leap(target).generative_bounds
    assert (g.lower, g.upper) == (lower, upper), g.reason
    assert leap(target).generative == (lower if lower == upper else None)


def test_generative_leap_stops_honestly_on_rotated_directions():
    # He3(z1) + He3(z2) is symmetric under z1 ↔ z2: the order-1 vectors E[T(y) z] are ∝ (1, 1),
    # not a coordinate axis: the chain stops, only the lower bound 1 is given
    g = leap("He3(z1) + He3(z2)").generative_bounds
    assert (g.lower, g.upper) == (1, None) and "do not span coordinate axes" in g.reason


@pytest.mark.parametrize("text", ["z1**2 - 1", "He3(z1)", "He4(z1)", "z1**3 + z1**2",
                                  "He5(z1) + He2(z1)", "He6(z1)"])
def test_generative_chain_agrees_with_the_engine_on_one_coordinate(text):
    """The exact chain (symmetries + Hermite coefficients of f^m) against the Hermite engine's
    generative exponent (conditional expectations on level sets, numeric), one coordinate."""
    from fltheory.engine.hermite import generative_exponent
    from fltheory.papers.samples.theory import generative_leap

    poly = {k[:1]: v for k, v in parse_polynomial(text).items()}
    g = generative_leap(poly, hermite_support(poly))
    engine = generative_exponent(text.replace("z1", "z"), 8, 30).value
    assert g.lower == g.upper == engine


def test_target_is_read_once():
    """The target is parsed at construction: its polynomial cut to the coordinates up to the
    largest used, its directions checked; the leap of the object is the leap of the text."""
    t = Target("z1 + z2*z3", "1,0,0; 0,3/5,4/5; 0,-4/5,3/5", generative=False)
    assert t.r == 3 and t.polynomial == {(1, 0, 0): Fraction(1), (0, 1, 1): Fraction(1)}
    assert t.U is not None and t.U[1] == (Fraction(0), Fraction(3, 5), Fraction(4, 5))
    assert leap_of(t) == leap("z1 + z2*z3", False, "1,0,0; 0,3/5,4/5; 0,-4/5,3/5")
    for text, directions in (("z1 - z1", None), ("z9", None), ("z1*z2", "1,0")):
        with pytest.raises(DomainError):
            Target(text, directions)
