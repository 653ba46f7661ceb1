"""The finer level (2) of the thresholds is guided by the coarser one (1): it samples the curve
sparsely, takes each extremum at level 1's argmax when A' there is negligible, and finds α_IT by
one Newton step from level 1's, with the free entropies at level 1's fixed points (stationary).
The reference here is level 2 unguided: the full grid, bounded Brent for every extremum and
root finding on the free-entropy difference for every α_IT — the way both levels were computed
before, and independent of every shortcut above. Guided and unguided must be the same numbers
to ~1e-15 (measured: at most 1.3e-15 relative over these cases), although level 1 itself
differs from level 2 by up to 2.3e-11 here (Gauss–Bernoulli × abs, α_alg), so a guided value
that were level 1's would fail."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.papers.glm._se import SE, Curve, Transition, _it_from, _stable_branches, transitions
from fltheory.papers.glm.params import (
    Channel,
    gauss_bernoulli,
    gaussian,
    rademacher,
    read_channel,
    sparse_rademacher,
)

F = Fraction

CASES = [
    (rademacher(), Channel("sign")),
    (rademacher(), Channel("abs", noise=F(1, 5))),
    (rademacher(), Channel("relu", noise=F(1, 5))),
    (sparse_rademacher(F(1, 2)), Channel("sign")),
    (gauss_bernoulli(F(1, 5)), Channel("abs")),
    (gaussian(), read_channel("sign(Abs(z) - 1/2)")),
    (rademacher(), Channel("sign", probit=F(1, 10))),
    (rademacher(), Channel("square")),
]


def _levels(prior, channel):
    c1 = Curve(SE(prior, channel, 1))
    t1 = transitions(c1)
    guided = Curve(SE(prior, channel, 2), c1)
    plain = Curve(SE(prior, channel, 2))
    return c1, t1, guided, transitions(guided, t1), plain, transitions(plain)


def _rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


@pytest.mark.parametrize(("prior", "channel"), CASES, ids=lambda x: str(x))
def test_guided_level_is_the_unguided_level(prior, channel):
    _c1, _t1, guided, tg, _plain, tu = _levels(prior, channel)
    assert [(t.name, t.kind) for t in tg] == [(t.name, t.kind) for t in tu]
    assert tu, "every case here has a transition"
    for a, b in zip(tg, tu, strict=True):
        assert _rel(a.alpha, b.alpha) <= 1e-14, (a, b)
        # the overlaps either side come from level 1 (printed to 4 digits, more only to tell
        # them from ρ or 0); at a spinodal q_below is the q at the maximum of A, whose
        # location A fixes only to ~√(ε A/|A''|) in ln q̂ (measured 8.5e-9 apart in q between
        # the levels for relu)
        tol = 1e-7 if a.name == "alg" else 1e-9
        assert abs(a.q_below - b.q_below) <= tol and abs(a.q_above - b.q_above) <= 1e-9
    # the guided curve evaluated fewer points than the full grid
    assert len(guided.grid) < len(guided._ts)


def test_a_case_where_the_levels_differ_is_level_two():
    """Gauss–Bernoulli(1/5) × abs: level 1's α_alg differs from level 2's by ~2e-11; the guided
    value is level 2's (so the perturbative extremum is this level's, not the guide's)."""
    _c1, t1, _g, tg, _p, tu = _levels(gauss_bernoulli(F(1, 5)), Channel("abs"))
    a1 = next(t for t in t1 if t.name == "alg").alpha
    ag = next(t for t in tg if t.name == "alg").alpha
    au = next(t for t in tu if t.name == "alg").alpha
    assert _rel(a1, au) > 1e-12 and _rel(ag, au) <= 1e-14


@pytest.mark.parametrize("offset", [1e-9, -3e-10])
def test_newton_step_brings_an_offset_guide_back(offset):
    """_it_from from a guide α_IT moved by ``offset`` (relative) lands on level 2's own α_IT:
    the step does the work (without it the answer would be off by the offset)."""
    prior, channel = rademacher(), Channel("abs", noise=F(1, 5))
    _c1, t1, guided, _tg, _p, tu = _levels(prior, channel)
    g = next(t for t in t1 if t.name == "IT")
    moved = Transition(g.name, g.alpha * (1 + offset), g.kind, g.q_below, g.q_above,
                       pair=g.pair)
    got = _it_from(guided, _stable_branches(guided), moved)
    want = next(t for t in tu if t.name == "IT").alpha
    assert got is not None and _rel(got.alpha, want) <= 1e-14


def test_an_extremum_off_the_guide_is_searched_not_taken():
    """_at_guide takes A at the coarse argmax only when A'²/(2|A''|) there is below 1e-15 A:
    at the true argmax it returns level 2's maximum; 1e-6 away in ln q̂ (A' ~ 1e-6 A'',
    A(t) − A* ~ 1e-12) it declines (the caller then searches the cell)."""
    prior, channel = rademacher(), Channel("abs", noise=F(1, 5))
    _c1, _t1, guided, _tg, plain, _tu = _levels(prior, channel)
    x, top, _kind = next(e for e in plain.extrema if e[2] == "max")
    t = math.log(x)
    on = guided._at_guide(t, -1.0)
    assert on is not None and _rel(on[1], top) <= 1e-15
    assert guided._at_guide(t + 1e-6, -1.0) is None


@pytest.mark.slow
def test_noisy_phase_retrieval_guided_is_unguided():
    """Rademacher × square, σ = 1/10 (unguided level 2 ~40 s): α_IT sits at q → ρ where the
    levels' fixed points part more; guided and unguided measured 1.5e-14 apart (levels 1 and 2:
    6.4e-13)."""
    _c1, _t1, _g, tg, _p, tu = _levels(rademacher(), Channel("square", noise=F(1, 10)))
    assert [(t.name, t.kind) for t in tg] == [(t.name, t.kind) for t in tu]
    for a, b in zip(tg, tu, strict=True):
        assert _rel(a.alpha, b.alpha) <= 1e-13, (a, b)


POINT_CASES = [
    (gaussian(), Channel("abs", noise=F(1, 5))),
    (rademacher(), Channel("sign")),
    (rademacher(), Channel("abs", noise=F(1, 5))),
    (gaussian(), Channel("square")),
]


@pytest.mark.parametrize(("prior", "channel"), POINT_CASES, ids=lambda x: str(x))
def test_followed_points_are_level_two_points(prior, channel):
    """The points of a curve (the command's --alpha list): level 2's Bayes-optimal fixed point
    followed from level 1's by one Newton step is level 2's own, solved in full on the
    unguided curve, at 25 α from 0.08 to 2 (q within 2e-14 relative, measured 8.9e-15; f
    within 1e-14, measured 3.6e-15); noiseless phase retrieval's level 1 is 5.6e-10 away in q."""
    from fltheory.papers.glm import theory

    theory._curve.cache_clear()
    c1, c2 = theory._curve(prior, channel, 1), theory._curve(prior, channel, 2)
    plain = Curve(SE(prior, channel, 2))
    apart = 0.0
    for alpha in [0.08 * (i + 1) for i in range(25)]:
        p1 = c1.bayes(alpha)
        got, want = theory._finer(c1, c2, p1, alpha), plain.bayes(alpha)
        assert got.kind == want.kind
        if want.kind == "interior":
            # a followed point's f, and a root's, are computed when asked (SE.f_of)
            f = c2.se.f_of(got)
            assert _rel(got.q, want.q) <= 2e-14 and abs(f - plain.se.f_of(want)) <= 1e-14
            apart = max(apart, _rel(p1.q, want.q))
    if channel.kind == "square":
        assert apart > 1e-11


def test_margin_rule_adds_the_flat_cells():
    """_sparse on a synthetic coarse curve (17 points, stride 8): where the coarse A moves by
    less than _MARGIN × the levels' measured relative gap (here 1e-12 × A, so 1e-9 × A), both
    ends of the cell are evaluated too; elsewhere only the stride and the extremum cells."""
    from types import SimpleNamespace

    from fltheory.papers.glm import _se

    ts = np.linspace(0.0, 16.0, 17)
    coarse = {float(t): 1.0 + t for t in ts}
    coarse[float(ts[5])] = coarse[float(ts[4])] + 5e-10        # a flat cell: 4–5
    g = SimpleNamespace(_tA=coarse, _cells=[12])
    fine = SimpleNamespace(_At=lambda t: coarse[t] * (1 + 1e-12))
    got = set(_se.Curve._sparse(fine, ts, g).tolist())
    assert got == {0, 8, 16, 11, 12, 13, 4, 5}


def test_curve_start_is_the_chord_to_alpha_wr():
    """Below q̂ = 1e-7 the curve is the chord from α_WR (the quadrature at q̂ = 1e-30 gave
    A = 0.4996 for noisy phase retrieval, α_WR = 0.5021): A(1e-30) is α_WR to 1e-14, and
    A(1e-8) lies on the chord to A(1e-7)."""
    c = Curve(SE(rademacher(), Channel("square", noise=F(1, 10)), 1))
    wr = c.se.alpha_wr()
    assert _rel(c._At(math.log(1e-30)), wr) <= 1e-14
    a7 = c._At(math.log(1e-7))
    assert _rel(c._At(math.log(1e-8)), wr + (a7 - wr) * 0.1) <= 1e-15
