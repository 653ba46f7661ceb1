"""The simulators of the sample-complexity paper (fltheory.papers.samples.sim): the exact
reduction of online SGD against the d-dimensional algorithm, and the batch-reuse steps against
a direct computation."""

from __future__ import annotations

import math

import numpy as np


def test_reduced_chain_has_the_law_of_the_full_algorithm():
    """The exact reduction (three random numbers per step) against online SGD in R^d: the mean
    log first-passage count of two independent simulations agree within 4 standard errors."""
    from fltheory.papers.samples import sim

    d, R, k, eta = 24, 600, 2, 1.0 / 24
    full = sim.online_full(k, d, eta, R, 5000, 0.5, 1)
    red = sim.online_first_passage(k, np.full(R, d), np.full(R, eta), np.full(R, 5000), 0.5, 2)
    assert np.all(full > 0) and np.all(red > 0)
    a, b = np.log(full), np.log(red)
    se = math.sqrt(a.var(ddof=1) / R + b.var(ddof=1) / R)
    assert abs(a.mean() - b.mean()) <= 4 * se, (a.mean(), b.mean(), se)


def test_reuse_steps_against_finite_differences_of_the_loss():
    """The batch-reuse update on a tiny generic case against a direct computation written
    independently: the loss L(w) = −(1/n) Σ y_i tanh(⟨w, x_i⟩) evaluated by a Python loop over
    samples (math.tanh), its gradient by central finite differences, then w ← (w − η (∇L −
    ⟨∇L, w⟩ w)) / ‖·‖, three steps on the same batch."""
    from fltheory.papers.samples import sim

    rng = np.random.default_rng(7)
    n, d, eta = 5, 3, 0.7
    X = rng.standard_normal((n, d))
    y = np.array([0.3, -1.2, 2.1, 0.4, -0.8])
    w0 = np.array([0.6, -0.3, 0.9])

    def loss(w):
        return -sum(y[i] * math.tanh(sum(w[j] * X[i, j] for j in range(d)))
                    for i in range(n)) / n

    w = w0 / math.sqrt(sum(v * v for v in w0))
    expected = [w]
    for _ in range(3):
        h = 1e-6
        grad = np.array([(loss(w + h * e) - loss(w - h * e)) / (2 * h) for e in np.eye(d)])
        step = -(grad - (grad @ w) * w)
        w = w + eta * step
        w = w / math.sqrt(sum(v * v for v in w))
        expected.append(w)
    got = sim.reuse_steps(X, y, w0, eta, 3)
    assert np.allclose(got, np.array(expected), rtol=0, atol=1e-8), (got, expected)
    # the batch really is reused: a second batch changes the second step, not the first
    X2 = rng.standard_normal((n, d))
    again = sim.reuse_steps(X2, y, got[1], eta, 1)[1]
    assert not np.allclose(again, got[2], atol=1e-3)


def test_reuse_and_fresh_runs_share_the_first_step_only():
    """reuse_overlaps draws the first replica's w_0 and first batch identically with and
    without ``fresh``: its first step agrees (to rounding), the second differs (a new batch)."""
    from fltheory.papers.samples import sim

    a = sim.reuse_overlaps(3, 12, 4, 4.0, 3, 2, 5)
    b = sim.reuse_overlaps(3, 12, 4, 4.0, 3, 2, 5, fresh=True)
    assert np.allclose(a[0, :2], b[0, :2], rtol=0, atol=1e-12)  # w_0 renormalised twice
    assert abs(a[0, 2] - b[0, 2]) > 1e-3
