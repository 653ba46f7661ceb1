"""The finite-δ theory of sequential recovery: the generalised χ² law of the label (Ruben's series,
fltheory.papers.recovery.chi2), the label laws and the Lu–Li overlaps of RecoveryModel
(fltheory.papers.recovery.luli), d1 = 1 included, and recovery_at against the model's own
methods. Each reference is computed a second, independent way (named per test)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from fltheory.exact import DomainError
from fltheory.papers.recovery import sim
from fltheory.papers.recovery import theory as th
from fltheory.papers.recovery.chi2 import _GenChi2

# --------------------------------------------------------------------------- generalised χ²


def test_ruben_series_against_scipy_chi2():
    """Equal weights: Q = w χ²_m exactly (scipy's χ² is the reference); pdf and survival."""
    x = np.linspace(0.01, 20, 50)
    g = _GenChi2(np.full(4, 0.7), np.ones(4))
    assert np.allclose(g.pdf(x), stats.chi2(4, scale=0.7).pdf(x), rtol=1e-10, atol=1e-14)
    assert np.allclose(g.sf(x), stats.chi2(4, scale=0.7).sf(x), rtol=1e-10, atol=1e-14)


def test_ruben_series_moments_and_convolution():
    """Unequal weights: total mass 1 and mean Σ w_i m_i (quadrature); and against the numerical
    convolution of two scaled χ² densities (scipy quad), an independent route."""
    from scipy.integrate import quad

    w, m = np.array([0.9, 0.3]), np.array([1.0, 3.0])
    g = _GenChi2(w, m)
    mass = quad(lambda z: g.pdf(np.array([z]))[0], 0, 80, limit=200)[0]
    mean = quad(lambda z: z * g.pdf(np.array([z]))[0], 0, 80, limit=200)[0]
    assert abs(mass - 1) < 1e-8 and abs(mean - float(w @ m)) < 1e-7
    a, b = stats.chi2(1, scale=0.9), stats.chi2(3, scale=0.3)
    for x in (0.5, 1.7, 4.0):
        conv = quad(lambda u, x=x: a.pdf(u) * b.pdf(x - u), 0, x, limit=200)[0]
        assert abs(g.pdf(np.array([x]))[0] - conv) < 1e-7


def test_ruben_term_estimate_bounds_the_terms_used():
    for d1, g in ((2, 1.0), (3, 2.0), (8, 1.0), (8, 2.0), (16, 1.5), (64, 1.0)):
        c = np.arange(1, d1 + 1.0) ** -g
        w = c / np.linalg.norm(c) / math.sqrt(2)
        est = th.ruben_terms(w)
        assert len(_GenChi2(w, np.ones(d1)).a) <= est + 2, (d1, g)
        assert est <= 3 * len(_GenChi2(w, np.ones(d1)).a), (d1, g)


def test_ruben_series_complete_when_first_cumulant_vanishes():
    """d1 = 8, γ = 1: Σ(1 − β/w_i) = 0, so a_1 = 0; the series must not stop there."""
    c = 1 / np.arange(1, 9.0)
    w = c / np.linalg.norm(c) / math.sqrt(2)
    g = _GenChi2(w, np.ones(8))
    assert len(g.a) > 50 and abs(g.a.sum() - 1) < 1e-12
    assert abs(g.sf(np.array([0.0]))[0] - 1) < 1e-12


def test_banded_mixture_matches_scipy_chi2_mixture():
    """The banded evaluation against the full mixture written with scipy's χ² laws, for a wide
    spread of weights (d1 = 8, γ = 2: ~1000 terms)."""
    from scipy import stats

    c = np.arange(1, 9.0) ** -2.0
    w = c / np.linalg.norm(c) / math.sqrt(2)
    m = np.ones(8)
    m[3] = 3
    g = _GenChi2(w, m)
    x = np.linspace(0.01, 3.0, 40) ** 2
    dof = g.M + 2 * np.arange(len(g.a))
    pdf = np.array([stats.chi2(dof, scale=g.beta).pdf(v) @ g.a for v in x])
    sf = np.array([stats.chi2(dof, scale=g.beta).sf(v) @ g.a for v in x])
    assert np.allclose(g.pdf(x), pdf, rtol=1e-9, atol=1e-13)
    assert np.allclose(g.sf(x), sf, rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------- label laws


def test_rank_law_is_uniform_and_size_bias_has_unit_mass():
    """T = 2F(s) − 1 is uniform: E[T] = 0, E[T²] = 1/3 exactly; E[h_i²] = 1 for each i; and the
    closed-form ψ equals the node sum of the generic path."""
    model = th.RecoveryModel.power_law(6, 1.0)
    law = model.law
    assert abs(law.base @ law.t) < 1e-10 and abs(law.second_moment - 1 / 3) < 1e-10
    assert np.allclose(law.biased.sum(axis=1), 1, atol=1e-10)
    for lam, delta in ((1.05, 3.0), (1.5, 20.0), (3.0, 0.5)):
        closed = law.psi(lam, delta)
        e1 = float(law.base @ (law.t / (lam - law.t)))
        e2 = float(law.base @ (law.t ** 2 / (lam - law.t) ** 2))
        assert abs(closed[0] - lam * (1 / delta + e1)) < 1e-8
        assert abs(closed[1] - (1 / delta - e2)) < 1e-7


def test_theta_matches_stein_linear_response_for_weak_directions():
    """θ_i = √2 c_i E[T'(s)] + O(c_i²): the relative gap shrinks as c_i does."""
    model = th.RecoveryModel.power_law(24, 1.0)
    ratio = model.theta() / (math.sqrt(2) * model.c * model.law.slope)
    gaps = np.abs(ratio - 1)
    assert gaps[-1] < 0.05 and gaps[-1] < gaps[2] < gaps[0]


def test_rank_law_d1_two_theta_against_monte_carlo():
    """d1 = 2: θ_k = E[T (h_k² − 1)] with T the rank transform of s = Σ w_i (h_i² − 1), against
    a Monte Carlo over (h_1, h_2) with the empirical ranks (independent of Ruben's series).
    Standard error of the mean < 1.2e-3 at 10^6 samples (|T(h² − 1)| has variance < 1.4)."""
    model = th.RecoveryModel.power_law(2, 1.0)
    w = model.c / math.sqrt(2)
    rng = np.random.default_rng(2026)
    h2 = rng.standard_normal((10**6, 2)) ** 2
    s = (h2 - 1) @ w
    T = np.empty(len(s))
    T[np.argsort(s)] = np.arange(1, len(s) + 1)
    T = 2 * T / len(s) - 1
    for k in range(2):
        x = T * (h2[:, k] - 1)
        se = x.std() / math.sqrt(len(x))
        assert abs(model.theta()[k] - x.mean()) < 5 * se, (k, model.theta()[k], x.mean(), se)


# --------------------------------------------------------------------------- Lu–Li


def test_luli_reduces_to_bbp_at_large_delta():
    """For a weak direction the Lu–Li overlap approaches 1 − 1/x as δ grows."""
    model = th.RecoveryModel.power_law(8, 1.0)
    thr = model.bbp_thresholds()[7]
    gaps = [abs(model.overlap(7, f * thr).rho2 - (1 - 1 / f)) for f in (2, 8, 32)]
    assert gaps[2] < gaps[1] < gaps[0] and gaps[2] < 0.01


def test_luli_overlap_monotone_and_ordered():
    model = th.RecoveryModel.power_law(5, 1.0)
    rho2 = model.overlaps([0.5, 2, 8, 32, 128])
    assert np.all(np.diff(rho2, axis=0) >= -1e-12)
    assert np.all(np.diff(rho2, axis=1) <= 1e-12)
    assert np.all((rho2 >= 0) & (rho2 < 1))
    mse = model.mse([0.5, 2, 8, 32, 128])
    assert np.all(np.diff(mse) < 0) and mse[0] <= 1


@pytest.mark.parametrize("transform", ["rank", "sign"])
def test_theta_against_monte_carlo(transform):
    """θ_i = E[T(y)(h_i² − 1)] from Ruben's series and the size bias, against a direct Monte
    Carlo over h ~ N(0, I) (10^6 draws; T from empirical ranks / the empirical median): every
    θ_i within 6 standard errors. Would catch a wrong size bias, weight or median."""
    model = th.RecoveryModel.power_law(4, 1.0, transform)
    h = np.random.default_rng(7).standard_normal((1_000_000, 4))
    y = (h * h - 1) @ (model.c / math.sqrt(2))
    T = sim.label_transform(y, transform)
    prod = T[:, None] * (h * h - 1)
    mc, se = prod.mean(axis=0), prod.std(axis=0) / math.sqrt(len(h))
    assert np.all(np.abs(model.theta() - mc) < 6 * se), (model.theta(), mc, se)


def test_model_domain_errors():
    with pytest.raises(DomainError, match="transform"):
        th.RecoveryModel([1.0], "identity")
    with pytest.raises(DomainError, match="strengths"):
        th.RecoveryModel([1.0, -1.0])
    with pytest.raises(DomainError, match="d1"):
        th.RecoveryModel.power_law(th.MAX_D1 + 1, 1.0)


# --------------------------------------------------------------------------- d1 = 1


def _luli_d1_one(delta: float) -> float:
    """Lu–Li ρ² for d1 = 1, rank transform, by direct mpmath quadrature over h ~ N(0, 1).

    With one direction s = (h² − 1)/√2 is increasing in |h|, so the rank transform is
    T = 2 P(χ²_1 <= h²) − 1 = 2 erf(|h|/√2) − 1: no generalised χ², no Ruben series, no grid.
    ψ(λ) = λ(1/δ + E[T/(λ − T)]), φ(λ) = λ E[T h²/(λ − T)], λ̄ = argmin ψ, λ* the root of
    ψ(λ) = φ(λ) above λ̄, ρ² = ψ'(λ*)/(ψ'(λ*) − φ'(λ*)).
    """
    with mpmath.workdps(20):
        def E(f):  # E over h ~ N(0, 1), symmetric in h
            return 2 * mpmath.quad(lambda h: f(h, 2 * mpmath.erf(h / mpmath.sqrt(2)) - 1)
                                   * mpmath.npdf(h), [0, 0.5, 1, 2, 4, 8, mpmath.inf])

        def psi(lam):
            return lam * (1 / mpmath.mpf(delta) + E(lambda h, t: t / (lam - t)))

        def dpsi(lam):
            return 1 / mpmath.mpf(delta) - E(lambda h, t: t**2 / (lam - t) ** 2)

        def phi(lam):
            return lam * E(lambda h, t: t * h**2 / (lam - t))

        def dphi(lam):
            return -E(lambda h, t: t**2 * h**2 / (lam - t) ** 2)

        lbar = mpmath.findroot(dpsi, (mpmath.mpf("1.0001"), mpmath.mpf(3)), solver="anderson")
        lstar = mpmath.findroot(lambda z: psi(z) - phi(z), (lbar + mpmath.mpf("0.01"),
                                                            mpmath.mpf(20)), solver="anderson")
        assert lstar > lbar
        return float(dpsi(lstar) / (dpsi(lstar) - dphi(lstar)))


@pytest.mark.parametrize(("n", "delta"), [(2325, 5.0), (9300, 20.0)])
def test_recovery_d1_one_answers_and_matches_quadrature(invoke, n, delta):
    """Issue: `recovery --d 30 --q 2 --gamma 1 --n 9300 --d1 1` printed NaN then a traceback.
    D = 465, so δ = n/465; ρ² ≈ 0.72 at δ = 5 (the issue's value)."""
    r = invoke("recovery", "--d", "30", "--q", "2", "--gamma", "1", "--n", str(n), "--d1", "1",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["details"]["delta"] == delta
    rho2 = out["details"]["directions"][0]["rho2"]
    assert abs(rho2 - _luli_d1_one(delta)) < 1e-4
    assert out["details"]["C"] is None and out["details"]["recovered_scaling"] is None
    assert abs(out["value"]["mse"] - (1 - rho2**2)) < 1e-12  # MSE = 1 − c² ρ⁴, c = 1


@pytest.mark.parametrize("args", [["--d1", "2"], ["--d1", "1", "--transform", "sign"],
                                  ["--d1", "2", "--transform", "sign"],
                                  ["--d1", "3"]])
def test_recovery_small_d1_finite(invoke, args):
    r = invoke("recovery", "--d", "30", "--q", "2", "--gamma", "1", "--n", "9300", *args,
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    out = json.loads(r.stdout)
    for row in out["details"]["directions"]:
        assert 0 < row["rho2"] < 1 and math.isfinite(row["theta"])


# --------------------------------------------------------------------------- at a sample size


def test_recovery_at_agrees_with_the_model_route():
    """recovery_at (what the CLI prints) against the model's own methods, each column by a
    second route: overlaps by RecoveryModel.overlap, the large-δ overlaps by bbp_overlaps
    (1 − 1/x with x = δ/δ_k), thresholds δ_k·D, the count by recovered_count, the MSE by
    model.mse, the law by law_prefactor · δ^e."""
    d, q, gamma, n = 60, 2, Fraction(3, 2), Fraction(4 * 10**4)
    r = th.recovery_at(d, q, gamma, n, d1=4)
    model = th.RecoveryModel.power_law(4, gamma)
    D = th.feature_dimension(d, q)
    delta = float(n / D)
    assert r.size == D and r.delta == delta
    bbp = model.bbp_overlaps([delta])[0]
    for i, row in enumerate(r.directions):
        assert row.k == i + 1
        assert row.rho2 == model.overlap(i, delta).rho2
        assert abs(row.rho2_bbp - bbp[i]) < 1e-12
        assert abs(row.n_threshold_bbp - model.bbp_thresholds()[i] * D) < 1e-9 * D
    assert r.recovered_luli == sum(1 for row in r.directions if row.rho2 > 0)
    C = Fraction(model.weak_constant()).limit_denominator(10**12)
    assert r.recovered_scaling == th.recovered_count(n, d, q, gamma, C)
    assert r.mse == float(model.mse([delta])[0])
    with mpmath.workdps(30):
        P = th.law_prefactor(gamma, th.law_a1_squared(gamma, model.weak_constant()))
        assert abs(r.law_mse / (P * mpmath.mpf(delta) ** (-2 / mpmath.mpf(3))) - 1) < 1e-14
    assert r.table().rows[0][0] == "1" and len(r.table().rows) == 4
