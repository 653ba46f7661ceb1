"""The noisy piecewise channels fold their (ω, y) sum onto ω > 0 when g is even or odd: the
folded sum is the full one (to rounding: each y-sum at −ω is the one at ω, term by term) at half
the nodes; relu (neither) is not folded. The reference is the unfolded sum on the same grid."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fltheory.papers.glm import _channels as ch
from fltheory.papers.glm._se import SE
from fltheory.papers.glm.params import Channel, gaussian, rademacher

CASES = [
    ("even", gaussian(), Channel("abs", noise=Fraction(1, 5))),
    ("odd", rademacher(), Channel("sign", noise=Fraction(1, 5))),
    ("even", rademacher(), Channel("door", K="674/1000", noise=Fraction(1, 10))),
    ("odd", gaussian(), Channel("expr", noise=Fraction(1, 3),
                                expression="Max(-1, Min(1, 2*z))")),
    ("", gaussian(), Channel("relu", noise=Fraction(1, 5))),
]


@pytest.mark.parametrize("kind, prior, channel", CASES)
@pytest.mark.parametrize("q", [1e-4, 0.3, 0.9])
@pytest.mark.parametrize("what", ["Q", "psi"])
def test_folded_sum_is_the_full_sum(kind, prior, channel, q, what):
    C = SE(prior, channel, 1).C
    assert C._mirror() == kind
    for level in (1, 2):
        V1 = C.V1(q * C.rho)
        w, ww = C._wgrid(q * C.rho, V1, level)
        y, wy = C._ygrid(level)
        fw, fww = C._fold(w, ww, y)
        assert len(fw) == (len(w) // 2 if kind else len(w))
        full = ch._grid_average(*C._core(w, y, V1, grad=what == "Q"), V1, ww, wy, what)
        half = ch._grid_average(*C._core(fw, y, V1, grad=what == "Q"), V1, fww, wy, what)
        assert half == pytest.approx(full, rel=1e-12, abs=0)


@pytest.mark.parametrize("kind, prior, channel", CASES)
@pytest.mark.parametrize("q", [0.999, 1 - 1e-7])
def test_banded_sum_is_the_full_sum(kind, prior, channel, q):
    """At q near ρ the sum runs panel by panel in ω over the y band its z' reaches (the other
    terms weigh below e^(−50)): against the whole tensor on the same nodes, to rounding; abs
    and relu take them (they keep less than half the nodes there)."""
    C = SE(prior, channel, 1).C
    V1 = C.V1(q * C.rho)
    w, ww = C._wgrid(q * C.rho, V1, 2)
    y, wy = C._ygrid(2, V1)
    w, ww = C._fold(w, ww, y)
    bands = C._bands(w, y, V1)
    if channel.kind in ("abs", "relu"):
        assert bands is not None
    if bands is None:
        return
    for what in ("Q", "psi"):
        full = ch._grid_average(*C._core(w, y, V1, grad=what == "Q"), V1, ww, wy, what)
        banded = sum(ch._grid_average(*C._core(w[i:i + ch._NODES_2D], y[k], V1,
                                                grad=what == "Q"),
                                      V1, ww[i:i + ch._NODES_2D], wy[k], what)
                     for i, k in bands)
        assert banded == pytest.approx(full, rel=1e-13, abs=0)
        assert C._avg(q * C.rho, 2, None, what) == banded
