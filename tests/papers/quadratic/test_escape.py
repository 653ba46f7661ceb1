"""Escape from the plateau with SGD's noise (theory.quadratic.plateau_noise_moment,
plateau_overlap_variance, escape_time_law; CLI ``quadratic escape``).

The simulations that test the law against SGD are the claims quadratic.plateau_noise,
quadratic.escape_time_vs_N and quadratic.escape_time_vs_p; here: the moment against an
independent Isserlis expansion, the law's internal consistency, the closed-form E ln‖ρ‖.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from fltheory.exact import DomainError
from fltheory.papers.quadratic import theory as th


@pytest.mark.parametrize(("p", "ps"), [(1, 1), (2, 1), (3, 2), (2, 3)])
def test_noise_moment_is_the_isserlis_expansion(p, ps):
    """E[(a Σλ² − b Σν² − σξ)² λ_1² ν_1²] expanded term by term with the Wick engine (itself
    tested on known moments) against the closed form."""
    q, a, b, s = sp.symbols("q a b sigma", positive=True)
    n = p + ps
    cov = [[(q if i < p else 1) if i == j else 0 for j in range(n)] for i in range(n)]
    c = [a] * p + [-b] * ps
    total = sum(c[i] * c[j] * th.wick_expectation([i, i, j, j, 0, 0, p, p], cov)
                for i in range(n) for j in range(n)) + s**2 * q
    assert sp.simplify(total - th.plateau_noise_moment(q, p, ps, a, b, s)) == 0


def test_plateau_overlap_variance_small_time_is_the_noise_rate():
    pl = th.plateau(4, 2, Fraction(1, 10))
    D = 4 * 0.01 * th.plateau_noise_moment(pl.q, 4, 2, 1 / 4, 1 / 2)
    assert th.plateau_overlap_variance(4, 2, Fraction(1, 10), 1e-6) == pytest.approx(D * 1e-6)
    # e^{2rt} growth afterwards
    v1, v2 = (th.plateau_overlap_variance(4, 2, Fraction(1, 10), t) for t in (20.0, 21.0))
    assert (v2 + D / (2 * pl.escape_rate)) / (v1 + D / (2 * pl.escape_rate)) == pytest.approx(
        math.exp(2 * pl.escape_rate))


def test_law_shift_is_the_linear_stage_rescaling_at_large_N():
    """For tiny overlaps the escape starts on the unstable manifold, where scaling ρ(0) by c
    shifts the escape by −ln c / r exactly: the paired shift must be −ln(1 + J/q0)/(2r)."""
    L = th.escape_time_law(4, 2, 0.1, 10**10, samples=20)
    assert L.shift == pytest.approx(-math.log(1 + L.noise_variance / 0.25) / (2 * L.rate),
                                    abs=2e-3)
    assert L.linear_shift == pytest.approx(L.shift, abs=2e-3)  # the property states the same
    assert L.shift_se < 1e-3


def test_law_noise_integral_from_the_plateau_is_D_over_2r():
    """Started on the plateau (q0 = q*), q(t) = q* and R(s) = r s, so
    J = ∫ D e^{−2rs} ds = D/(2r) with D = 4η² E(q*) (the Isserlis moment, tested above)."""
    pl = th.plateau(4, 2, Fraction(1, 10))
    dt = 1 / 64
    L = th.escape_time_law(4, 2, 0.1, 10**6, q0=pl.q, samples=10, dt=dt)
    D = 4 * 0.1**2 * th.plateau_noise_moment(pl.q, 4, 2, 1 / 4, 1 / 2)
    # the trapezoid rule on e^{−λs} overestimates by (λ dt)²/12 relative (λ = 2r): allow twice
    trapezoid = (2 * pl.escape_rate * dt) ** 2 / 12
    assert L.noise_variance == pytest.approx(D / (2 * pl.escape_rate), rel=2 * trapezoid)


def test_law_mean_log_overlap_closed_form_against_sampling():
    L = th.escape_time_law(3, 2, 0.1, 1000, samples=20)
    s_eff = math.sqrt((0.25 + L.noise_variance) / 1000)
    G = np.random.default_rng(5).standard_normal((200_000, 3, 2)) * s_eff
    logs = np.log(np.linalg.norm(G, axis=(1, 2)))
    assert abs(logs.mean() - L.mean_log_overlap) < 5 * logs.std() / math.sqrt(len(logs))


def test_law_follows_ln_N_over_2r_asymptotically():
    """The Monte Carlo means at N and 16N differ by ln 16/(2r) once ρ(0) is small (same draws,
    so only the scale changes)."""
    a, b = (th.escape_time_law(4, 2, 0.1, N, samples=50) for N in (10**8, 16 * 10**8))
    assert b.mean - a.mean == pytest.approx(math.log(16) / (2 * a.rate), abs=2e-3)


def test_crossing_time_interpolates_exponential_growth_exactly():
    t = np.linspace(0, 10, 11)
    norms = 1e-3 * np.exp(0.7 * t)
    assert th.crossing_time(t, norms, 0.5) == pytest.approx(math.log(500) / 0.7)
    assert math.isnan(th.crossing_time(t, norms, 1e9))


def test_law_domain():
    with pytest.raises(DomainError, match="eta"):
        th.escape_time_law(4, 2, 1.0, 1000, samples=10)


def test_cli_escape(invoke):
    res = invoke("quadratic", "escape", "--N", "500,2000", "--samples", "40", "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    laws = data["details"]["laws"]
    assert [L["N"] for L in laws] == [500, 2000]
    assert laws[1]["mean"] > laws[0]["mean"] and all(L["shift"] < 0 for L in laws)
    bad = invoke("quadratic", "escape", "--threshold", "3/2")
    assert bad.exit_code == 2 and "threshold" in bad.stderr
