"""ERM along α (issue 36): a curve seeded from one α to the next prints what separate cold
points print, with fewer fixed points; the seeded bracket of Brent's search is the full scan's;
and the overlaps at a located λ carry no more digits than λ's location allows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fltheory.papers.glm import erm
from fltheory.papers.glm.erm import erm_curve, erm_optimal, erm_point
from fltheory.papers.glm.params import Channel, gaussian, rademacher

# generic sample ratios, not in increasing order (a curve is seeded in the order given), and
# probit noise so that the teacher's channel is not the noiseless special case
ALPHAS = (0.7, 1.9, 3.3, 2.6)
CH = Channel("sign", probit="1/3")


def _texts(r):
    return (r.lam.text(), r.error.text(), r.m.text(), r.q.text(), r.sigma.text(), r.note)


def _grid_reads(monkeypatch):
    """The number of values each call of the bracketing scan reads."""
    reads: list[int] = []
    scan = erm._grid_bracket

    def counted(fun, lo, hi, seed):
        n = [0]

        def f(t):
            n[0] += 1
            return fun(t)

        out = scan(f, lo, hi, seed)
        reads.append(n[0])
        return out

    monkeypatch.setattr(erm, "_grid_bracket", counted)
    return reads


@pytest.mark.parametrize("loss", ["logistic", "hinge", "ridge"])
def test_a_seeded_curve_prints_what_separate_points_print(loss, monkeypatch):
    """Each α of the curve against the same α computed cold (no previous answer): λ, the
    error, m, q, Σ and the note print the same text; the scan that brackets the minimum
    reads all 21 values of ln λ at the first α only, at most 5 at each α after it."""
    reads = _grid_reads(monkeypatch)
    curve = erm_curve(rademacher(), CH, ALPHAS, loss)
    assert reads[0] == 21 and len(reads) == len(ALPHAS) and max(reads[1:]) <= 5, reads
    cold = [erm_optimal(rademacher(), CH, a, loss) for a in ALPHAS]
    assert [_texts(r) for r in curve] == [_texts(r) for r in cold]
    assert all(r.optimal and r.note == erm.OPTIMAL_NOTE for r in curve)


def test_a_curve_at_a_given_lambda_prints_what_separate_points_print():
    curve = erm_curve(gaussian(), CH, ALPHAS, "logistic", 0.07)
    cold = [erm_point(gaussian(), CH, a, "logistic", 0.07) for a in ALPHAS]
    assert [_texts(r) for r in curve] == [_texts(r) for r in cold]


def test_a_point_that_does_not_converge_is_its_message_and_seeds_nothing():
    """α = 1000 at λ = 10⁻⁶ does not converge (test_erm.py); the α after it is computed as
    from cold."""
    out = erm_curve(gaussian(), Channel("sign"), (1000.0, 2.0), "logistic", 1e-5)
    cold = erm_point(gaussian(), Channel("sign"), 2.0, "logistic", 1e-5)
    assert _texts(out[1]) == _texts(cold)
    out = erm_curve(gaussian(), Channel("sign"), (1000.0,), "logistic", 1e-6)
    assert isinstance(out[0], str) and "alpha = 1000" in out[0]


# ------------------------------------------------------------------ the seeded bracket

LO, HI = math.log(erm.LAM_RANGE[0]), math.log(erm.LAM_RANGE[1])


def _bracket(f, seed):
    seen = []

    def fun(t):
        seen.append(t)
        return f(t)

    return erm._grid_bracket(fun, LO, HI, seed), len(set(seen))


@pytest.mark.parametrize("f", [
    # unimodal in t, asymmetric, minimum between grid points (t ≈ −2.9)
    lambda t: math.log1p(math.exp(t + 1.3)) + 0.2 * math.exp(-(t + 1.3)),
    # minimum at the lower end of the range: the walk reaches the end, the whole grid is read
    lambda t: t,
    # a plateau below t = −4 (hinge's hard-margin fit) and a minimum above it
    lambda t: 1.0 if t < -4 else 1.0 - 0.1 * math.sin((t + 4) / 4) ** 2 * (t < 2.28),
    # a plateau at the minimum: equal values, the first as numpy's argmin takes it
    lambda t: max(abs(t) - 3.0, 0.0),
])
@pytest.mark.parametrize("seed", [LO, -7.3, -2.0, 0.4, 5.0, HI])
def test_the_seeded_bracket_is_the_full_scans(f, seed):
    full, n_full = _bracket(f, None)
    seeded, _ = _bracket(f, seed)
    assert n_full == 21
    assert seeded == full


def test_the_seed_reads_few_values():
    """Next to the minimum: the value there and its two neighbours. Seven grid steps away
    (1.15 each) on either side: downhill to it, one value a step, not the whole grid."""
    (a, b), n = _bracket(lambda t: (t - 1.1) ** 2, 0.9)
    assert a < 1.1 < b and n == 3
    for seed in (-7.0, 8.0):
        (a, b), n = _bracket(lambda t: (t - 1.1) ** 2, seed)
        assert a < 1.1 < b and n <= 10, (seed, n)


# ------------------------------------------------------------------ digits at a located λ


@pytest.mark.parametrize("loss", ["logistic", "hinge", "ridge"])
def test_the_overlaps_keep_their_digits_when_lambda_moves_within_its_own(loss):
    """λ printed to D digits is known to relative 10^-D; the overlaps printed at it must not
    change beyond their own last digit when λ moves by that much (computed here at the given
    λ(1 ± 10^-D), erm_point: no search). Before the overlaps were capped they printed 13
    digits at a λ located to 5."""
    r = erm_optimal(gaussian(), CH, 1.9, loss)
    assert 3 <= r.lam.digits <= 8
    for s in (1, -1):
        lam = r.lam.value * (1 + s * 10.0 ** -r.lam.digits)
        moved = erm_point(gaussian(), CH, 1.9, loss, lam)
        for name in ("m", "q", "sigma"):
            here, there = getattr(r, name), getattr(moved, name).value
            assert abs(there - here.value) <= 1.1 * 10.0 ** -here.digits * abs(here.value), \
                (name, here, there)
    # and no digit is given away for nothing: the overlaps do move with λ
    assert max(r.m.digits, r.q.digits) < 13
    assert np.isfinite(r.error.value)
