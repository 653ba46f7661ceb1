"""The simulator of sequential recovery (fltheory.papers.recovery.sim): Hermite features and
latent directions, label transforms, reproducibility, the sampler's shortcuts, and the runs
(fltheory.papers.recovery.runs) that put it next to the prediction."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.papers.recovery import sim
from fltheory.papers.recovery import theory as th


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
    with pytest.raises(ValueError, match="features = spherical"):
        sim.run(5, 100, 0, features="spherical")
    with pytest.raises(ValueError, match="q = 2"):
        sim.run(5, 100, 0, features="hermite", q=3)
    with pytest.raises(ValueError, match="transform"):
        sim.label_transform(np.ones(3), "log")


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


def test_simulator_seed_may_be_a_sequence():
    a = sim.run(6, 800, 7, d1=2, n_test=500)
    b = sim.run(6, 800, np.random.SeedSequence(7), d1=2, n_test=500)
    assert np.array_equal(a.overlaps, b.overlaps) and a.mse == b.mse


def test_simulation_comparison_runs_are_the_seed_children():
    """compare_simulation's run s is sim.run at seeding.children(seed, seeds)[s]; its table's
    means and standard errors are those of the runs."""
    from fltheory.papers.recovery.runs import compare_simulation
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
