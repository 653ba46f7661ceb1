"""Sequential recovery: exact counting, the generalised χ² engine, the Lu–Li equations, the
simulator and the CLI. Each reference is computed a second, independent way (named per test)."""

from __future__ import annotations

import itertools
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

# --------------------------------------------------------------------------- exact counting


@pytest.mark.parametrize(("d", "q"), [(1, 1), (3, 2), (5, 3), (7, 4), (4, 6)])
def test_feature_dimension_counts_multi_indices(d, q):
    """Reference: enumerate the degree-q multi-indices over d variables."""
    count = sum(1 for _ in itertools.combinations_with_replacement(range(d), q))
    assert th.feature_dimension(d, q) == count == sim.feature_dim(d, q)


def test_hermite_features_are_orthonormal():
    """Reference: Monte Carlo E[φφᵀ] = I_D, each entry within 6 of its own standard errors
    (Var(φ_aφ_b) from the sample fourth moments, e.g. 14 for (x² − 1)²/2)."""
    rng = np.random.default_rng(0)
    n, d = 200_000, 5
    phi = sim.hermite_features(rng.standard_normal((n, d)))
    assert phi.shape[1] == th.feature_dimension(d, 2)
    gram = phi.T @ phi / n
    sq = phi * phi
    se = np.sqrt((sq.T @ sq / n - gram ** 2) / n)
    assert np.all(np.abs(gram - np.eye(phi.shape[1])) < 6 * se)


def test_flat_latents_orthonormal_and_consistent_with_quadratic_forms():
    """h = ⟨A, φ(x)⟩ equals (xᵀMx − tr M)/√2 for the symmetric M behind A (built here from A's
    coordinates, the inverse map), and the latents are orthonormal."""
    rng = np.random.default_rng(1)
    d = 6
    A = sim.flat_latents(d, 3, rng)
    assert np.allclose(A.T @ A, np.eye(3), atol=1e-12)
    a = A[:, 0]
    M = np.zeros((d, d))
    iu = np.triu_indices(d, k=1)
    npairs = len(iu[0])
    M[iu] = a[:npairs] / math.sqrt(2)
    M = M + M.T
    M[np.diag_indices(d)] = a[npairs:]
    x = rng.standard_normal((50, d))
    direct = (np.einsum("ni,ij,nj->n", x, M, x) - np.trace(M)) / math.sqrt(2)
    assert np.allclose(sim.hermite_features(x) @ a, direct, atol=1e-12)


@pytest.mark.parametrize("gamma", [Fraction(1), Fraction(3, 2), Fraction(5, 4), Fraction(2, 3),
                                   Fraction(7, 10)])
def test_recovered_count_against_high_precision_enumeration(gamma):
    """Reference: count k with C·D·k^{2γ} <= n, each compared in mpmath at 60 digits."""
    d, q, C = 30, 2, Fraction(3, 10)
    D = th.feature_dimension(d, q)
    for n in (Fraction(100), Fraction(10**5), Fraction(123456789), Fraction(10**9, 7)):
        with mpmath.workdps(60):
            g = mpmath.mpf(gamma.numerator) / gamma.denominator
            ref = 0
            while (mpmath.mpf(C.numerator) / C.denominator * D * mpmath.power(ref + 1, 2 * g)
                   <= mpmath.mpf(n.numerator) / n.denominator):
                ref += 1
        assert th.recovered_count(n, d, q, gamma, C) == ref


def test_recovered_count_boundary_is_exact():
    """At n = C·D·k^{2γ} exactly, direction k counts (floats can lose it: 0.3·D·k² rounding)."""
    d, q, C = 1000, 3, Fraction(3, 10)
    D = th.feature_dimension(d, q)
    for k in (1, 7, 10, 97):
        n = C * D * k ** 3  # γ = 3/2
        assert th.recovered_count(n, d, q, Fraction(3, 2), C) == k
        assert th.recovered_count(n - Fraction(1, 10**9), d, q, Fraction(3, 2), C) == k - 1


def test_threshold_at_huge_dimension_matches_exact_integer():
    """D(10^6, 4) ≈ 4·10^22: the mpmath threshold at 50 digits equals the exact integer D·k²."""
    d, q = 10**6, 4
    D = th.feature_dimension(d, q)
    for k in (1, 17, 1000):
        value = th.threshold(d, q, k, Fraction(1), Fraction(1), dps=50)
        with mpmath.workdps(60):
            assert value == mpmath.mpf(D * k * k)
    assert th.threshold(10, 2, 1, Fraction(1), dim="dq") == 100


def test_law_domain_and_prefactor_special_value():
    """γ <= 1/2 is a domain error; γ = 1, a_1² = 1: P = 8/(3ζ(2)) = 16/π² (closed form)."""
    with pytest.raises(DomainError, match="gamma"):
        th.law_exponent(Fraction(1, 2))
    assert th.law_exponent(Fraction(3, 2)) == Fraction(-2, 3)
    with mpmath.workdps(40):
        P = th.law_prefactor(Fraction(1), 1, dps=35)
        assert abs(P - 16 / mpmath.pi ** 2) < mpmath.mpf(10) ** -33


# --------------------------------------------------------------------------- generalised χ²


def test_ruben_series_against_scipy_chi2():
    """Equal weights: Q = w χ²_m exactly (scipy's χ² is the reference); pdf and survival."""
    x = np.linspace(0.01, 20, 50)
    g = th._GenChi2(np.full(4, 0.7), np.ones(4))
    assert np.allclose(g.pdf(x), stats.chi2(4, scale=0.7).pdf(x), rtol=1e-10, atol=1e-14)
    assert np.allclose(g.sf(x), stats.chi2(4, scale=0.7).sf(x), rtol=1e-10, atol=1e-14)


def test_ruben_series_moments_and_convolution():
    """Unequal weights: total mass 1 and mean Σ w_i m_i (quadrature); and against the numerical
    convolution of two scaled χ² densities (scipy quad), an independent route."""
    from scipy.integrate import quad

    w, m = np.array([0.9, 0.3]), np.array([1.0, 3.0])
    g = th._GenChi2(w, m)
    mass = quad(lambda z: g.pdf(np.array([z]))[0], 0, 80, limit=200)[0]
    mean = quad(lambda z: z * g.pdf(np.array([z]))[0], 0, 80, limit=200)[0]
    assert abs(mass - 1) < 1e-8 and abs(mean - float(w @ m)) < 1e-7
    a, b = stats.chi2(1, scale=0.9), stats.chi2(3, scale=0.3)
    for x in (0.5, 1.7, 4.0):
        conv = quad(lambda u, x=x: a.pdf(u) * b.pdf(x - u), 0, x, limit=200)[0]
        assert abs(g.pdf(np.array([x]))[0] - conv) < 1e-7


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


# --------------------------------------------------------------------------- simulator


def test_rank_transform_uniform_and_ties_stable():
    y = np.array([3.0, -1.0, 2.0, 10.0])
    assert np.allclose(sim.label_transform(y, "rank"), [0.5, -0.5, 0.0, 1.0])
    assert set(sim.label_transform(y, "sign")) == {-1.0, 1.0}
    assert abs(sim.label_transform(y, "identity").sum()) < 1e-12


def test_simulator_reproducible_and_chunk_independent_in_law():
    a = sim.run(12, 3000, 5)
    b = sim.run(12, 3000, 5)
    assert np.array_equal(a.overlaps, b.overlaps) and a.mse == b.mse
    c = sim.run(12, 3000, 5, chunk=1000)
    assert c.overlaps.shape == a.overlaps.shape


def test_simulator_recovers_strong_direction_in_both_modes():
    """At δ = 60, D = 120 the first direction is recovered with both feature modes (Lu–Li
    predicts ρ² ≈ 0.96 for Gaussian features; Hermite features recover later but do here)."""
    for mode in sim.FEATURES:
        r = sim.run(15, 60 * 120, 0, features=mode)
        assert r.best_overlaps[0] > 0.6, mode
        assert r.relative_mse < 0.9


def test_simulator_bad_arguments():
    with pytest.raises(ValueError, match="feature mode"):
        sim.run(5, 100, 0, features="spherical")
    with pytest.raises(ValueError, match="q = 2"):
        sim.run(5, 100, 0, features="hermite", q=3)
    with pytest.raises(ValueError, match="transform"):
        sim.label_transform(np.ones(3), "log")


# --------------------------------------------------------------------------- CLI


def test_threshold_json_exact(invoke):
    """n_k = C·D/c_k² = C·D·H_{d1}(2γ)·k^{2γ}: exact at 2γ = 3, d1 = 4 (H_4(3) = 1 + 1/8 +
    1/27 + 1/64, summed here by hand); at d1 = ∞ ζ(3) is not rational (numeric only)."""
    r = invoke("threshold", "--d", "1000", "--q", "3", "--gamma", "1.5", "--k", "1..3",
               "--C", "1/2", "--d1", "4", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    D = th.feature_dimension(1000, 3)
    assert data["details"]["dimension"] == D
    H = 1 + Fraction(1, 8) + Fraction(1, 27) + Fraction(1, 64)
    assert [Fraction(v) for v in data["value"]] == [Fraction(D, 2) * H * k ** 3
                                                    for k in (1, 2, 3)]


def test_threshold_strengths_and_latex(invoke):
    r = invoke("threshold", "--d", "10", "--strengths", ".5,.25", "--k", "1,2", "--format",
               "latex")
    assert r.exit_code == 0 and r"\toprule" in r.stdout
    data = json.loads(invoke("threshold", "--d", "10", "--strengths", ".5,.25", "--k", "1,2",
                             "--format", "json").stdout)
    # the strengths are normalised as in the model: n_k = D·(λ_1² + λ_2²)/λ_k²
    norm = Fraction(1, 4) + Fraction(1, 16)
    assert [Fraction(v) for v in data["value"]] == [55 * 4 * norm, 55 * 16 * norm]


def test_recovery_query(invoke):
    data = json.loads(invoke("recovery", "--d", "100", "--n", "1e6", "--format", "json").stdout)
    assert data["details"]["D"] == 5050 and data["details"]["recovered_luli"] == 8
    assert data["details"]["law_exponent"] == "-1/2"
    r = invoke("recovery", "--d", "100", "--n", "1e6", "--gamma", "1/2")
    assert r.exit_code == 0 and "no MSE law" in r.stdout


def test_recovery_law_cli_closed_form(invoke):
    """γ = 1, C: P = 8γ²/((4γ² − 1)ζ(2γ))·(ζ(2γ)·C)^{1 − 1/(2γ)} = (8/3)·√C/√ζ(2) =
    (8/3)·√(6C)/π (ζ(2) = π²/6, by hand), checked to 28 digits at C = 1 and C = 3/7."""
    for C, text in ((Fraction(1), "1"), (Fraction(3, 7), "3/7")):
        data = json.loads(invoke("recovery", "law", "--gamma", "1", "--C", text, "--dps", "40",
                                 "--format", "json").stdout)
        assert data["value"]["exponent"] == "-1/2"
        with mpmath.workdps(40):
            ref = mpmath.mpf(8) / 3 * mpmath.sqrt(6 * mpmath.mpf(C.numerator) / C.denominator) \
                / mpmath.pi
            assert abs(mpmath.mpf(data["numeric"]) - ref) < mpmath.mpf(10) ** -28


def test_recovery_simulate_q3_gaussian(invoke):
    data = json.loads(invoke("recovery", "simulate", "--q", "3", "--d", "8", "--n", "3000",
                             "--format", "json").stdout)
    assert data["details"]["D"] == th.feature_dimension(8, 3) == 120
    assert data["inputs"]["q"] == 3


def test_recovery_simulate_json(invoke):
    r = invoke("recovery", "simulate", "--d", "10", "--n", "2000", "--seeds", "2", "--format",
               "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert len(data["value"]["rho2"]) == 8 and len(data["details"]["predicted_rho2"]) == 8


@pytest.mark.parametrize(
    ("args", "param"),
    [(["threshold", "--d", "10", "--gamma", "0"], "gamma"),
     (["threshold", "--d", "0"], "d"),
     (["threshold", "--d", "10", "--k", "0..3"], "k"),
     (["threshold", "--d", "10", "--C", "-1"], "C"),
     (["threshold", "--d", "10", "--strengths", "1,-2"], "strengths"),
     (["threshold", "--d", "10", "--strengths", "1", "--k", "1..2"], "k"),
     (["recovery", "--d", "10", "--n", "-5"], "n"),
     (["recovery", "--d", "10", "--n", "100", "--d1", "65"], "d1"),
     (["recovery", "--d", "10"], "--n"),
     (["recovery", "simulate", "--d", "100"], "d"),
     (["recovery", "simulate", "--features", "spherical"], "--features"),
     (["recovery", "simulate", "--q", "3", "--features", "hermite"], "q"),
     (["recovery", "law", "--gamma", "1/2"], "gamma"),
     (["recovery", "law", "--gamma", "1", "--C", "0"], "C"),
     (["threshold", "--d", "10", "--gamma", "1/2"], "gamma"),
     (["threshold", "--d", "10", "--d1", "3"], "k")],
)
def test_bad_input_one_line_exit_2(invoke, args, param):
    r = invoke(*args)
    assert r.exit_code == 2, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fltheory: error: ") and param in lines[0]


def test_sampler_fields_match_features():
    """The shortcuts agree with the definitions: quadratic forms = φ(x)·B (Hermite mode, same
    stream), and the Gaussian mode's joint fields have covariance BᵀB (Monte Carlo, 4e5 draws:
    entries within 6/√n)."""
    rng = np.random.default_rng(0)
    c = np.ones(3) / math.sqrt(3)
    her = sim._Sampler("hermite", 7, 2, 3, c, 0.0, rng, "flat")
    V = np.linalg.qr(rng.standard_normal((28, 4)))[0]
    h, hh = her.fields(5, np.random.default_rng(1), V)
    phi = sim.hermite_features(np.random.default_rng(1).standard_normal((5, 7)))
    assert np.allclose(h, phi @ her.A, atol=1e-12) and np.allclose(hh, phi @ V, atol=1e-12)
    assert np.allclose(her.first_fields(4, np.random.default_rng(2)),
                       her.features(4, np.random.default_rng(2)) @ her.A, atol=1e-12)
    gau = sim._Sampler("gaussian", 7, 2, 3, c, 0.0, rng, "flat")
    n = 400_000
    h, hh = gau.fields(n, np.random.default_rng(2), V)
    Z = np.hstack([h, hh])
    B = np.hstack([gau.A, V])
    assert np.abs(Z.T @ Z / n - B.T @ B).max() < 6 * math.sqrt(2 / n)  # sd <= √(2/n)
    assert np.allclose(gau.first_fields(4, np.random.default_rng(3)),
                       gau.features(4, np.random.default_rng(3))[:, :3])


# --------------------------------------------------------------------------- the API's results


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


def test_simulation_comparison_runs_are_the_seed_children():
    """compare_simulation's run s is sim.run at seeding.children(seed, seeds)[s]; its table's
    means and standard errors are those of the runs."""
    from fltheory.papers.recovery.claims import compare_simulation
    from fltheory.simkit import seeding

    c = compare_simulation(6, 1500, d1=3, seed=4, seeds=2)
    for s, ss in enumerate(seeding.children(4, 2)):
        r = sim.run(6, 1500, ss, d1=3)
        assert np.array_equal(c.rho2[s], r.best_overlaps) and c.mse[s] == r.relative_mse
    se = c.rho2.std(axis=0, ddof=1) / math.sqrt(2)
    assert c.table().rows[1][1:3] == [f"{c.rho2[:, 1].mean():.4f}", f"{se[1]:.4f}"]
    model = th.RecoveryModel.power_law(3, Fraction(1))
    assert c.predicted_rho2 is not None
    assert np.array_equal(c.predicted_rho2, model.overlaps([1500 / 21])[0])


def test_simulator_seed_may_be_a_sequence():
    a = sim.run(6, 800, 7, d1=2, n_test=500)
    b = sim.run(6, 800, np.random.SeedSequence(7), d1=2, n_test=500)
    assert np.array_equal(a.overlaps, b.overlaps) and a.mse == b.mse
