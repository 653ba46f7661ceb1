"""The search for α_IT between two stable branches (``_se._it``): Newton's method on the
difference D of the branches' free entropies with D' = ΔΨ_j − ΔΨ_i (the envelope theorem),
kept inside its bracket (``_se._newton``), and the pieces' ends (extrema, where a root would be
ill-conditioned) taken as the fixed points there.

Checked here: ``_newton`` on functions with known roots (including one where Newton's step
leaves the bracket); and the command's α_IT between two *interior* branches (Rademacher prior,
y = tanh(z) + σε, σ = 1/5: AMP's branch ends at α_alg ≈ 0.7675, the informed one starts below
α_IT ≈ 0.7446) against the free entropies at α_IT(1 ∓ 1e-9) of fixed points found without the
curve's machinery: plain Brent on A(q̂) = q̂/Q(F(q̂)) = α in brackets from a 40-point scan.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from fltheory.papers.glm import _se
from fltheory.papers.glm.params import rademacher, read_channel
from fltheory.papers.glm.theory import thresholds


def test_newton_finds_known_roots():
    calls = []

    def fd(x):
        calls.append(x)
        return math.exp(x) - 2.0, math.exp(x)

    root, last = _se._newton(fd, 0.0, 3.0, fd(0.0)[0], fd(3.0)[0])
    assert root == pytest.approx(math.log(2.0), rel=1e-15, abs=0)
    assert abs(last - root) <= 1e-10 * root
    assert len(calls) <= 2 + 8           # quadratic convergence from the secant point


def test_newton_returns_its_last_step_taken():
    """f = u + u², u = x − 0.7, on [0.7 − h, 0.7 + h]: the secant start is h² = 3e-6 from the
    root, Newton's next iterate ~(h²)² = 9e-12 from it, so the step that stops the search is
    ~9e-12 (below 1e-10 x): the root returned is x + step (error ~1e-22), not x."""
    h = math.sqrt(3e-6)

    def fd(x):
        u = x - 0.7
        return u + u * u, 1.0 + 2.0 * u

    root, last = _se._newton(fd, 0.7 - h, 0.7 + h, fd(0.7 - h)[0], fd(0.7 + h)[0])
    assert 1e-13 < abs(last - 0.7) < 1e-10          # the stopping step was of that size
    assert root == pytest.approx(0.7, rel=2e-16, abs=0)


def test_newton_keeps_to_its_bracket():
    """arctan: Newton's step from far out overshoots (diverges without the bracket)."""
    def fd(x):
        return math.atan(x - 0.3), 1.0 / (1.0 + (x - 0.3) ** 2)

    root, _ = _se._newton(fd, -20.0, 50.0, fd(-20.0)[0], fd(50.0)[0])
    assert root == pytest.approx(0.3, abs=1e-14)


def _stable_roots(se, alpha, ts):
    """q̂ of every stable fixed point at α (A increasing through α), by brentq in ln q̂."""
    A = np.array([se.A(math.exp(t)) for t in ts])
    out = []
    for i in range(len(ts) - 1):
        if (A[i] - alpha) * (A[i + 1] - alpha) < 0 and A[i + 1] > A[i]:
            t = optimize.brentq(lambda t: se.A(math.exp(t)) - alpha, ts[i], ts[i + 1],
                                xtol=1e-14, rtol=1e-15)
            out.append(math.exp(t))
    return out


def test_interior_crossing_against_plain_roots():
    prior, channel = rademacher(), read_channel("tanh(z)", noise="1/5")
    it = thresholds(prior, channel).get("IT")
    assert it is not None
    a_it = it.value
    se = _se.SE(prior, channel, 1)
    ts = np.linspace(math.log(1e-3), math.log(se.qh_max()), 40)
    diffs = []
    for alpha in (a_it * (1 - 1e-9), a_it * (1 + 1e-9)):
        roots = _stable_roots(se, alpha, ts)
        assert len(roots) == 2, roots     # two stable interior branches at α_IT
        f_low, f_high = (se.free_entropy(qh, alpha) for qh in roots)
        diffs.append(f_high - f_low)
    # below α_IT the low branch (AMP's) has the larger free entropy, above it the high one
    assert diffs[0] < 0 < diffs[1], diffs


def test_slope_of_the_free_entropy_along_a_branch_is_delta_psi():
    """D' in the Newton step: along a branch of fixed points df/dα = ΔΨ(q) (f is stationary in
    q̂ there), against a central difference of f over α ± 1e-4 (roots by plain Brent)."""
    prior, channel = rademacher(), read_channel("tanh(z)", noise="1/5")
    se = _se.SE(prior, channel, 1)
    ts = np.linspace(math.log(1e-3), math.log(se.qh_max()), 40)
    alpha, h = 0.75, 1e-4
    mid = _stable_roots(se, alpha, ts)
    ends = [_stable_roots(se, a, ts) for a in (alpha - h, alpha + h)]
    for k in range(2):
        slope = (se.free_entropy(ends[1][k], alpha + h)
                 - se.free_entropy(ends[0][k], alpha - h)) / (2 * h)
        assert slope == pytest.approx(se.delta_psi(mid[k]), rel=1e-6)


def test_the_ends_of_a_piece_are_its_fixed_points():
    """At α = A at a piece's end (an extremum of A, where the IT search brackets) the fixed point
    on that piece is the end itself, taken without a root: A there is α."""
    prior, channel = rademacher(), read_channel("tanh(z)", noise="1/5")
    curve = _se.Curve(_se.SE(prior, channel, 1))
    checked = 0
    for br in curve.branches:
        for alpha in (br.Aa, br.Ab):
            qh = _se._qh_on(curve, br, alpha)
            if math.isfinite(qh) and qh > 1e-20:
                assert curve.se.A(qh) == pytest.approx(alpha, rel=1e-12), (br, alpha, qh)
                checked += 1
    assert checked >= 4
