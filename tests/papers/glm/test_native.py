"""The C extension of the noisy square (fltheory/papers/glm/_native.c): its sums over the x nodes
of every (ω, y) pair are a port of the numpy path (_SquareNoisy._pairs_numpy), same operations in
the same order without fused multiply-adds; only exp differs (the C library's against numpy's
vectorised one). So each sum is held to numpy's within a few ulps of the sum of the absolute
values of its terms (computed here from the numpy path's own nodes: 16 ulp allowed, 2.7 ulp
measured over these cases), and a whole average (Q, the Z ln Z term; numpy adds its blocks in
another order) to 1e-14 relative (7.3e-16 measured). That the sums are the right integrals at
all is checked elsewhere, against independent routes (test_noisy_square.py,
test_independent_noisy.py), and those tests now run through the extension. It is built by
``pip install`` (setup.py); these tests fail, not skip, when it is missing, so that a build that
silently failed is seen."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fltheory.papers.glm import _channels as chs
from fltheory.papers.glm.params import gaussian, rademacher, read_channel

EPS = float(np.finfo(float).eps)


def _numerics(prior, noise):
    return chs.channel_numerics(read_channel("square", noise=noise), float(prior.rho))


CASES = [(gaussian(), "1"), (rademacher(), "1/10"), (gaussian("1/2"), "3/10")]


def test_the_extension_is_built():
    assert chs.square_kernel() is not None, "pip install did not build the C extension"


def _abs_sums(C, w, V, level, radius):
    """Σ|term| of every pair's three sums, from the numpy path's nodes."""
    yrow, y, _wy, xpair, x, wx = C._nodes3(w, V, level, radius)
    wo = w[yrow][xpair]
    em = x - wo
    gm = np.exp(-0.5 * (y[xpair] - x * x) ** 2 / C.sigma ** 2 - 0.5 * em * em / V) * wx
    r = np.exp(-2.0 * x * wo / V)
    norm = 1.0 / (2.0 * math.pi * math.sqrt(V) * C.sigma)
    n = len(y)
    return [np.bincount(xpair, np.abs(v), minlength=n) * norm
            for v in (gm * (1 + r), gm * (np.abs(em) + (x + wo) * r), x * x * gm * (1 + r))]


@pytest.mark.parametrize("prior,noise", CASES)
@pytest.mark.parametrize("frac", [1e-6, 0.3, 0.99, 1 - 1e-9])
@pytest.mark.parametrize("level", [1, 2])
def test_pair_sums_are_the_numpy_sums(prior, noise, frac, level):
    C = _numerics(prior, noise)
    q = float(prior.rho) * frac
    V = C.V1(q, float(prior.rho) - q)
    w, _ = C._wgrid(q, V, level)
    radius = C._radius(q, w)
    moments = ("Z", "dZ", "m2")
    _, _, fast = C._pairs(w, V, level, radius, moments)
    _, _, slow = C._pairs_numpy(w, V, level, radius, moments)
    bound = _abs_sums(C, w, V, level, radius)
    for name, a, b, s in zip(moments, fast, slow, bound, strict=True):
        worst = float(np.max(np.abs(a - b) / np.maximum(s, 1e-300)))
        assert worst <= 16 * EPS, (name, worst)
        assert np.count_nonzero(b) > len(b) // 2     # the sums are not all zero


@pytest.mark.parametrize("prior,noise", CASES)
@pytest.mark.parametrize("what", ["Q", "psi"])
def test_whole_averages_agree_with_numpy(prior, noise, what, monkeypatch):
    C = _numerics(prior, noise)
    qs = [float(prior.rho) * f for f in (1e-3, 0.5, 0.999)]

    def run():
        return [C._avg(q, 2, None, what) for q in qs]

    fast = run()
    monkeypatch.setattr(chs, "square_kernel", lambda: None)
    slow = run()
    for a, b in zip(fast, slow, strict=True):
        assert abs(a - b) <= 1e-14 * abs(b), (a, b)
