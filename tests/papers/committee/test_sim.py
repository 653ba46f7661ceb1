"""The committee-machine SGD simulator (fltheory.papers.committee.sim) against references written
here:
a plain one-sample-at-a-time loop on the simulator's sample stream, the exact finite-N mean
recursion of a linear committee, closed-form Gaussian averages (Saad–Solla's arcsin for
erf(x/√2), the arc-cosine kernel for ReLU) for the held-out ε_g, and exact starts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

from fltheory.exact import DomainError
from fltheory.papers.committee import sim
from fltheory.simkit.seeding import child, children

SQ2PI = math.sqrt(2 / math.pi)

#: activations and derivatives typed here, independently of the simulator's catalogue
REFERENCE = {
    "erf_ss": (lambda x: erf(x / math.sqrt(2)), lambda x: SQ2PI * np.exp(-x * x / 2)),
    "relu": (lambda x: np.maximum(x, 0), lambda x: (x > 0) * 1.0),
    "tanh": (np.tanh, lambda x: 1 / np.cosh(x) ** 2),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    "x**3 - 3*x": (lambda x: x**3 - 3 * x, lambda x: 3 * x**2 - 3),
}


def _plain_sgd(W0, Ws, g, dg, eta, steps, seed, a, a_star, sigma, kappa, chunk):
    """One sample at a time, the update as written in the model: w_k += (η/√N) a_k (y − f)
    g'(λ_k) x − (ηκ/N) w_k, on the stream the simulator documents (blocks of ``chunk``
    normal vectors from SFC64(child(seed, KEY_SAMPLES)), then the block's label noises)."""
    N = W0.shape[1]
    rng = np.random.Generator(np.random.SFC64(child(seed, sim.KEY_SAMPLES)))
    W = W0.copy()
    done = 0
    while done < steps:
        X = rng.standard_normal((chunk, N))
        xi = rng.standard_normal(chunk) if sigma else np.zeros(chunk)
        for i in range(min(chunk, steps - done)):
            x = X[i]
            lam, nu = W @ x / math.sqrt(N), Ws @ x / math.sqrt(N)
            y = a_star @ g(nu) + sigma * xi[i]
            delta = y - a @ g(lam)
            W = W + (eta / math.sqrt(N)) * delta * (a * dg(lam))[:, None] * x[None, :] \
                - (eta * kappa / N) * W
        done += min(chunk, steps - done)
    return W


@pytest.mark.parametrize("engine", ["numpy", "numba"])
@pytest.mark.parametrize("name", list(REFERENCE))
def test_blocked_sgd_equals_the_plain_loop(name, engine):
    """Both engines are the plain sequential loop (same samples), to rounding, with generic
    second layers, label noise and weight decay, across a record boundary inside a block."""
    N, K, M, eta = 40, 3, 2, 0.05 if name == "x**3 - 3*x" else 0.4
    W0, Ws = sim.cold_start(N, K, M, 5, q0=0.3)
    a, a_star = np.array([0.7, -0.4, 1.1]), np.array([1.3, 0.6])
    t = [0.0, 0.55, 2.0]  # the record at 22 steps cuts the first block of 64
    run = sim.sgd(W0, Ws, name, eta, t, 5, a=a, a_star=a_star, noise=0.3, weight_decay=0.2,
                  engine=engine)
    g, dg = REFERENCE[name]
    W = _plain_sgd(W0, Ws, g, dg, eta, 80, 5, a, a_star, 0.3, 0.2, 64)
    assert np.allclose(run.W, W, rtol=1e-11, atol=1e-12)
    assert np.allclose(run.Q[-1], W @ W.T / N, rtol=1e-11, atol=1e-12)
    assert np.allclose(run.R[-1], W @ Ws.T / N, rtol=1e-11, atol=1e-12)
    assert np.allclose(run.Q[0], W0 @ W0.T / N) and run.diverged_at is None


def _mean_recursion(Q, R, T, a, a_star, eta, kappa, sigma, N, steps):
    """Exact E[Q], E[R] after ``steps`` steps of SGD on a LINEAR committee (g(x) = x), derived
    here: w' = c w + (η/√N) δ a_k x, c = 1 − ηκ/N, δ = a*·ν − a·λ + σξ, so
    E[δ ν_m] = (T a* − Rᵀ a)_m, E[δ λ_k] = (R a* − Q a)_k and, by Isserlis,
    E[δ² |x|²/N] = (aᵀQa − 2aᵀRa* + a*ᵀTa*)(1 + 2/N) + σ²; each is linear in (Q, R), so the
    means obey the recursion exactly at every N."""
    for _ in range(steps):
        dl = R @ a_star - Q @ a
        dn = T @ a_star - R.T @ a
        e2 = (a @ Q @ a - 2 * a @ R @ a_star + a_star @ T @ a_star) * (1 + 2 / N) + sigma**2
        c = 1 - eta * kappa / N
        R_new = c * R + (eta / N) * np.outer(a, dn)
        Q = c * c * Q + c * (eta / N) * (np.outer(a, dl) + np.outer(dl, a)) \
            + (eta**2 / N) * np.outer(a, a) * e2
        R = R_new
    return Q, R


def test_linear_committee_follows_the_exact_mean_recursion():
    """Over 40 replicas, the sample means of Q and R at t = 3 match the exact finite-N mean
    recursion (η², noise and weight-decay terms included) within 4.5 standard errors
    (Bonferroni over the 6 entries, ~4e-5 false alarm; measured max |z| 0.7 and 0.9).
    Perturbations of the reference it catches (each tried, max |z|): the weight decay κ/N in
    place of ηκ/N, 25; the η² term dropped, 21; the label noise σ² dropped, 12. Perturbations of
    the simulator caught by the plain-loop test: c = 1 − κ/N, and g' of erf with 0.8 for
    √(2/π) (numba engine)."""
    N, eta, kappa, sigma, t = 200, 0.5, 0.3, 1.0, 3.0
    Q0 = np.array([[0.5, 0.1], [0.1, 0.3]])
    R0, T = np.array([[0.2], [-0.1]]), np.array([[1.2]])
    a, a_star = np.array([0.7, 0.4]), np.array([1.3])
    seeds = children(11, 40)
    starts = [sim.start_from_overlaps(Q0, R0, T, N, s) for s in seeds]
    runs = sim.sgd_replicas(starts, "x", eta, [0.0, t], seeds, a=a, a_star=a_star, noise=sigma,
                            weight_decay=kappa)
    Qe, Re = _mean_recursion(Q0, R0, T, a, a_star, eta, kappa, sigma, N, int(t * N))
    for got, want in ((np.array([r.Q[-1] for r in runs]), Qe),
                      (np.array([r.R[-1] for r in runs]), Re)):
        mean, se = got.mean(axis=0), got.std(axis=0, ddof=1) / math.sqrt(len(runs))
        assert np.all(np.abs(mean - want) <= 4.5 * se), (mean, want, se)
    # power: the recursion moved the means by many standard errors from the start
    assert np.abs(Re - R0).max() > 0.3


def _erf_eps(Q, R, T):
    """Saad & Solla (1995), eq. for ε_g with g = erf(x/√2): (1/π)[Σ_ik arcsin(Q_ik/√((1+Q_ii)
    (1+Q_kk))) + Σ_nm arcsin(T_nm/…) − 2 Σ_in arcsin(R_in/√((1+Q_ii)(1+T_nn)))]."""
    q, tt = np.diag(Q), np.diag(T)
    s = np.arcsin(Q / np.sqrt(np.outer(1 + q, 1 + q))).sum()
    s += np.arcsin(T / np.sqrt(np.outer(1 + tt, 1 + tt))).sum()
    s -= 2 * np.arcsin(R / np.sqrt(np.outer(1 + q, 1 + tt))).sum()
    return s / math.pi


def _relu_kernel(c11, c22, c12):
    """E[relu(u) relu(v)] (Cho & Saul's first arc-cosine kernel)."""
    s = np.sqrt(c11 * c22)
    th = np.arccos(np.clip(c12 / s, -1, 1))
    return s * (np.sin(th) + (math.pi - th) * np.cos(th)) / (2 * math.pi)


def _relu_eps(Q, R, T):
    q, tt = np.diag(Q), np.diag(T)
    return 0.5 * (_relu_kernel(q[:, None], q[None, :], Q).sum()
                  + _relu_kernel(tt[:, None], tt[None, :], T).sum()
                  - 2 * _relu_kernel(q[:, None], tt[None, :], R).sum())


@pytest.mark.parametrize("name,formula", [("erf_ss", _erf_eps), ("relu", _relu_eps)])
def test_held_out_error_against_closed_forms(name, formula):
    """The recorded test ε_g (its own SE) against the closed form at the run's overlaps, at
    each record: |z| <= 4 (Bonferroni over 3 records)."""
    W0, Ws = sim.cold_start(100, 2, 3, 2, q0=0.5)
    run = sim.sgd(W0, Ws, name, 0.5, [0.0, 1.0, 3.0], 2, n_test=20000)
    assert run.eps_g is not None and run.eps_g_se is not None
    for i in range(3):
        want = formula(run.Q[i], run.R[i], run.T)
        assert abs(run.eps_g[i] - want) <= 4 * run.eps_g_se[i], (i, run.eps_g[i], want)
    assert run.eps_g[-1] < 0.5 * run.eps_g[0]  # it learns


def test_start_from_overlaps_is_exact_and_refuses_inconsistent_overlaps():
    Q = np.array([[0.5, 0.2, 0.0], [0.2, 0.4, 0.1], [0.0, 0.1, 0.6]])
    R = np.array([[0.3, 0.1], [0.0, 0.2], [0.1, -0.1]])
    T = np.array([[1.0, 0.3], [0.3, 0.8]])
    W, Ws = sim.start_from_overlaps(Q, R, T, 30, 0)
    assert np.allclose(W @ W.T / 30, Q) and np.allclose(W @ Ws.T / 30, R)
    assert np.allclose(Ws @ Ws.T / 30, T)
    with pytest.raises(DomainError, match=r"^T = .*positive semi-definite"):
        sim.start_from_overlaps(Q, R, [[1.0, 2.0], [2.0, 1.0]], 30, 0)
    with pytest.raises(DomainError, match=r"^Q = .*consistent with R and T"):
        sim.start_from_overlaps(np.eye(3) * 0.01, R, T, 30, 0)  # |R| too large for Q
    with pytest.raises(DomainError, match=r"^N = 4"):
        sim.start_from_overlaps(Q, R, T, 4, 0)


def test_cold_start_statistics():
    W0, Ws = sim.cold_start(4000, 2, 2, 1, q0=0.25)
    assert np.allclose(Ws @ Ws.T / 4000, np.eye(2))
    Q = W0 @ W0.T / 4000
    assert np.allclose(np.diag(Q), 0.25, atol=5 * 0.25 * math.sqrt(2 / 4000))
    assert np.abs(W0 @ Ws.T / 4000).max() < 5 * math.sqrt(0.25 / 4000)


def test_divergence_is_reported_not_returned_as_numbers():
    W0, Ws = sim.cold_start(50, 2, 1, 0)
    run = sim.sgd(W0, Ws, "He3", 2.0, [0.0, 1.0, 5.0], 0, n_test=10)
    assert run.diverged_at is not None and run.diverged_at <= 5.0
    assert np.isnan(run.Q[-1]).all() and run.eps_g is not None and np.isnan(run.eps_g[-1])


def test_replicas_are_the_single_runs():
    starts = [sim.cold_start(80, 2, 2, s) for s in (0, 1, 2)]
    runs = sim.sgd_replicas(starts, "tanh", 0.3, [0.0, 1.5], [0, 1, 2], n_test=50,
                            engine="numpy")
    for s in (0, 2):
        alone = sim.sgd(*starts[s], "tanh", 0.3, [0.0, 1.5], s, n_test=50, engine="numpy")
        assert np.allclose(runs[s].Q, alone.Q, rtol=1e-12, atol=1e-14)
        assert np.allclose(runs[s].eps_g, alone.eps_g, rtol=1e-12)


def test_activations_and_refusals():
    assert sim.activation("He2").g(np.array(3.0)) == 8.0
    assert sim.activation("z**2/2 + 1").dg(np.array(3.0)) == 3.0
    for bad in ("exp(x)", "x**x", "x**13", "1 + 2", "__import__('os')", "x/0", "y"):
        with pytest.raises(DomainError, match=r"^g = "):
            sim.activation(bad)
    W0, Ws = sim.cold_start(20, 1, 1, 0)
    for kwargs in ({"eta": 0}, {"eta": -1}, {"noise": -0.1}, {"weight_decay": -1},
                   {"eta": 1, "weight_decay": 30}, {"t_grid": [1.0, 0.5]}, {"chunk": 0},
                   {"engine": "gpu"}, {"a": [1, 2]}):
        args = {"eta": 0.1, "t_grid": [0.0, 1.0]} | kwargs
        with pytest.raises(DomainError):
            sim.sgd(W0, Ws, "erf_ss", args.pop("eta"), args.pop("t_grid"), 0, **args)


def test_specialisation_and_crossing():
    R = np.array([[[0.2, 0.2], [0.2, 0.2]], [[0.6, 0.2], [0.2, 0.6]]])
    assert sim.specialisation(R) == pytest.approx([0.0, 0.4])
    assert math.isnan(sim.crossing_time([0, 1], [0.1, 0.2], 0.5))
    assert sim.crossing_time([0, 1, 2], [1.0, 0.5, 0.25], 0.5, upward=False) == 1.0
