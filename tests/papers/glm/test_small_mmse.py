"""Noisy channels near q = ρ, where the mmse V' falls far below every digit (a discrete prior's
mmse is exponentially small in q̂: 5e-179 at q̂ ≈ 800 for Rademacher).

- Piecewise channels (abs, relu): the mean of each piece's product Gaussian is now
  ω + aV'(y − b − aω)/(σ² + a²V'), the shift taken directly; as a difference m − ω it lost
  ε|ω| against V', and Q = E(V'∂_ωZ)²/(V'²Z) grew as (ε/V')²: 402 for 400 at V' = 1e-16,
  2.6e27 at 1e-30, NaN at 5e-179 (`glm --prior rademacher --channel abs --noise 1/20` printed
  "the channel average Q is not a number"). With a kink Q(V') = E g'(ω)²/σ² − c√V' + O(V').
- Smooth channels: the average is analytic in V'; below 1e-8ρ' it is the chord between its
  V' = 0 limit and its value at 1e-8ρ' (the quadrature there had lost digits: tanh, σ = 1/2,
  levels 4.5e-10 apart at V' = 1e-16, 6e-3 at 1e-30).

The limits are independent closed forms or mpmath integrals: E g'(ω)²/σ² with ω ~ N(0, ρ')."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath as mp
import pytest
from click.testing import CliRunner

from fltheory.cli import cli
from fltheory.papers.glm._channels import channel_numerics
from fltheory.papers.glm.params import Channel, read_channel

F = Fraction


@pytest.mark.parametrize(("kind", "limit"), [("abs", 400.0), ("relu", 200.0)])
@pytest.mark.parametrize("V", [1e-12, 1e-16, 1e-20, 1e-30, 1e-39])
def test_kinked_channel_tends_to_its_limit(kind, limit, V):
    """σ = 1/20, ρ = 1: E g'² is 1 (abs) and 1/2 (relu), so the limit is 400 or 200; Q lies
    below it by at most 1000√V' (c ≈ 360 measured for abs from V' = 1e-6 to 1e-30) and the two
    levels agree to 1e-14."""
    C = channel_numerics(Channel(kind, noise=F(1, 20)), 1.0)
    q1, q2 = C.Q(1 - V, 1, V), C.Q(1 - V, 2, V)
    assert abs(q1 - q2) <= 1e-14 * q2
    assert limit - 1000 * math.sqrt(V) - 1e-12 * limit <= q2 <= limit * (1 + 1e-14)


@pytest.mark.parametrize("sigma", [F(1, 2), F(1, 5)])
@pytest.mark.parametrize("V", [1e-9, 1e-16, 1e-30, 1e-45, 0.0])
def test_smooth_channel_tends_to_its_limit(sigma, V):
    """tanh, ρ = 1: Q(V') = E tanh'(ω)²/σ² + Q'(0)V' + O(V'²) with |Q'(0)| < 300 (−6.66 at
    σ = 1/2, −221 at σ = 1/5, from the values at V' = 1e-6 … 1e-8); the limit by mpmath."""
    s = float(sigma)
    lim = float(mp.quad(lambda t: mp.npdf(t) * mp.sech(t) ** 4, [-mp.inf, 0, mp.inf])) / s ** 2
    C = channel_numerics(read_channel("tanh(z)", noise=sigma), 1.0)
    q1, q2 = C.Q(1 - V, 1, V), C.Q(1 - V, 2, V)
    assert abs(q1 - q2) <= 1e-13 * q2
    assert abs(q2 - lim) <= 300 * V + 1e-13 * lim


def test_rademacher_noisy_abs_at_small_noise_answers():
    """`glm --prior rademacher --channel abs --noise 1/20`: the curve's last piece runs to
    q̂ ≈ 800 (mmse 5e-179); it answered "the channel average Q is not a number". Now three
    thresholds, each with at least 10 confirmed digits, in the order α_IT < α_alg and
    α_WR < α_alg (WR continuous, IT first order)."""
    r = CliRunner().invoke(cli, ["glm", "--prior", "rademacher", "--channel", "abs", "--noise",
                                 "1/20", "--format", "json"])
    assert r.exit_code == 0, r.output
    v = json.loads(r.stdout)["value"]
    wr, it, alg = v["alpha_WR"], v["alpha_IT"], v["alpha_alg"]
    assert (wr["kind"], it["kind"], alg["kind"]) == ("continuous", "first order", "spinodal")
    assert min(wr["digits"], it["digits"], alg["digits"]) >= 10
    assert float(it["value"]) < float(alg["value"]) and float(wr["value"]) < float(alg["value"])
