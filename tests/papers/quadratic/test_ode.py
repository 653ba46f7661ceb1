"""The reduced quadratic-network ODE and its two integrators (fltheory.papers.quadratic.rhs).

References: the matrix form ``rhs_matrix`` (itself checked against the element-wise sympy
derivation in test_quadratic.py) on the full p×p state; scipy's LSODA as a second integrator.
"""

from __future__ import annotations

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.quadratic import rhs as qode
from fltheory.papers.quadratic import theory as th


def _random_reduced(rng, p, k, ps):
    V, _ = np.linalg.qr(rng.standard_normal((p, k)))
    S = rng.standard_normal((k, k))
    S = 0.3 * (S + S.T)
    K = 0.4 * rng.standard_normal((k, ps))
    G = rng.standard_normal((ps, ps))
    T = G @ G.T / ps + 0.5 * np.eye(ps)
    return 0.6, V, S, K, T


@pytest.mark.parametrize(("p", "k", "ps"),
                         [(5, 2, 2), (8, 3, 2), (6, 1, 3), (4, 0, 2), (24, 17, 2)])
@pytest.mark.parametrize("loops", [False, True])
def test_reduced_right_side_is_the_full_one_restricted(p, k, ps, loops):
    """Q = qI + VSVᵀ, ρ = VK: the full matrix form's derivative must be dq I + V dS Vᵀ, V dK
    (this is the invariance the reduction rests on), for both implementations of the reduced
    right side (numpy and the loop form that numba compiles, run here as plain Python)."""
    rng = np.random.default_rng(p * 100 + k * 10 + ps)
    q, V, S, K, T = _random_reduced(rng, p, k, ps)
    a, b, eta_w, sigma = 0.3, 0.7, 0.9, 0.25
    Q, R = q * np.eye(p) + V @ S @ V.T, V @ K
    dQ, dR = th.rhs_matrix(Q, R, T, a, b, eta_w, sigma)
    y = np.concatenate([[q], S.ravel(), K.ravel()])
    rhs = qode.block_rhs_loops if loops else qode.block_rhs
    d = rhs(y, k, ps, p - k, a, b, eta_w, sigma**2, T)
    dq, dS, dK = d[0], d[1:1 + k * k].reshape(k, k), d[1 + k * k:].reshape(k, ps)
    assert np.allclose(dq * np.eye(p) + V @ dS @ V.T, dQ, atol=1e-13)
    assert np.allclose(V @ dK, dR, atol=1e-13)


def test_unreduced_loop_right_side_is_the_matrix_form():
    """The loop form (compiled by numba) on the full state; the numpy form is what
    ``rhs_matrix`` itself evaluates, so it is tested against the sympy derivation directly."""
    rng = np.random.default_rng(7)
    p, ps, N = 4, 3, 9
    W, Ws = rng.standard_normal((p, N)), rng.standard_normal((ps, N))
    Q, R, T = W @ W.T / N, W @ Ws.T / N, Ws @ Ws.T / N
    dQ, dR = th.rhs_matrix(Q, R, T, 0.25, 1 / 3, 0.4, 0.1)
    d = qode.block_rhs_loops(np.concatenate([[0.0], Q.ravel(), R.ravel()]), p, ps, 0, 0.25,
                             1 / 3, 0.4, 0.01, T)
    assert np.allclose(d[1:1 + p * p].reshape(p, p), dQ, atol=1e-13)
    assert np.allclose(d[1 + p * p:].reshape(p, ps), dR, atol=1e-13)
    assert d[0] == 0.0


def test_reduce_start_reconstructs_and_finds_the_size():
    rng = np.random.default_rng(1)
    p, ps = 9, 2
    R0 = 1e-3 * rng.standard_normal((p, ps))
    q0, V, S0, K0 = qode.reduce_start(np.eye(p) / 4, R0)
    assert V.shape == (p, 2) and q0 == pytest.approx(0.25)
    assert np.allclose(q0 * np.eye(p) + V @ S0 @ V.T, np.eye(p) / 4, atol=1e-15)
    assert np.allclose(V @ K0, R0, atol=1e-15)
    # a rank-one perturbation of the isotropic part adds one direction
    u = rng.standard_normal(p)
    Q0 = np.eye(p) / 4 + 0.1 * np.outer(u, u) / (u @ u)
    q0, V, S0, K0 = qode.reduce_start(Q0, R0)
    assert V.shape == (p, 3)
    assert np.allclose(q0 * np.eye(p) + V @ S0 @ V.T, Q0, atol=1e-14)
    # a random Gram matrix has no structure: the full system
    W = rng.standard_normal((p, 50))
    q0, V, S0, _ = qode.reduce_start(W @ W.T / 50, R0)
    assert V.shape == (p, p) and q0 == 0.0


@pytest.mark.parametrize("method", ["dopri", "lsoda"])
def test_reduced_integration_equals_full_integration(method):
    """From Q(0) = I/4 with an anisotropic teacher and label noise (so S is not conserved and
    every term is exercised): the reduced 9-number state against the full 36 + 12."""
    if method == "dopri":
        pytest.importorskip("numba")
    rng = np.random.default_rng(2)
    p, ps = 6, 2
    R0 = 1e-2 * rng.standard_normal((p, ps))
    T = np.diag([1.5, 0.5])
    t = np.linspace(0, 60, 61)
    red = th.integrate(np.eye(p) / 4, R0, T, 0.1, t, sigma=0.2, method=method)
    full = th.integrate(np.eye(p) / 4, R0, T, 0.1, t, sigma=0.2, method=method, reduce=False)
    assert red.loss[0] > 0.3 > 0.05 > red.loss[-1]  # the run escapes the plateau in the window
    assert np.abs(red.Q - full.Q).max() < 1e-7
    assert np.abs(red.R - full.R).max() < 1e-7
    assert np.abs(red.loss - full.loss).max() < 1e-8


def test_compiled_dormand_prince_agrees_with_lsoda():
    """Two independent integrators on an unstructured (random-start) system."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(4)
    p, ps, N = 5, 2, 400
    W0 = 0.5 * rng.standard_normal((p, N))
    Ws = rng.standard_normal((ps, N))
    Q0, R0, T = W0 @ W0.T / N, W0 @ Ws.T / N, Ws @ Ws.T / N
    t = np.linspace(0, 80, 81)
    a = th.integrate(Q0, R0, T, 0.1, t, method="dopri")
    b = th.integrate(Q0, R0, T, 0.1, t, method="lsoda")
    assert np.abs(a.Q - b.Q).max() < 1e-7 and np.abs(a.R - b.R).max() < 1e-7
    # tolerance is honoured: a loose run differs from the tight one by roughly its tolerance
    # (on a coarse grid: a grid point is a step's end, so a fine grid alone shortens the steps)
    coarse = np.array([0.0, 40.0, 80.0])
    loose = th.integrate(Q0, R0, T, 0.1, coarse, method="dopri", rtol=1e-5, atol=1e-8)
    dev = np.abs(loose.R - a.R[::40]).max()
    assert 1e-9 < dev < 1e-3


def test_dormand_prince_reports_failure():
    """The compiled DOP853 loop on the reduced right side stops after ``max_steps`` steps with
    status 1: one evaluation at the start and 12 per step (no grid point inside a step)."""
    pytest.importorskip("numba")
    from fltheory.engine.odes import tableau
    from fltheory.papers.quadratic import _jit as _quadratic_jit

    y0 = np.array([0.25, 0.0, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.01])
    args = (2, 2, 4, 1 / 6, 0.5, 0.6, 0.0, np.eye(2))
    _, nfev, status, _ = _quadratic_jit.dop853(args, y0, np.array([0.0, 100.0]), 1e-9, 1e-12,
                                               3, 1e8, *tableau())
    assert status == 1 and nfev == 1 + 12 * 3


def test_unknown_method_is_a_domain_error():
    with pytest.raises(DomainError, match="method"):
        th.integrate(np.eye(2), np.zeros((2, 1)), np.eye(1), 0.1, np.linspace(0, 1, 3),
                     method="euler")


def test_without_numba_auto_falls_back_to_lsoda(monkeypatch):
    """numba missing: ``auto`` integrates with LSODA (same numbers to tolerance), ``dopri`` is a
    domain error that names the extra to install."""
    import sys

    import fltheory.papers.quadratic as theory_pkg

    t = np.linspace(0, 20, 21)
    R0 = 1e-2 * np.ones((3, 2))
    ref = th.integrate(np.eye(3) / 4, R0, np.eye(2), 0.1, t, method="lsoda")
    monkeypatch.delattr(theory_pkg, "_jit", raising=False)
    monkeypatch.setitem(sys.modules, "fltheory.papers.quadratic._jit", None)
    auto = th.integrate(np.eye(3) / 4, R0, np.eye(2), 0.1, t)
    assert np.array_equal(auto.R, ref.R)
    with pytest.raises(DomainError, match="fast"):
        th.integrate(np.eye(3) / 4, R0, np.eye(2), 0.1, t, method="dopri")
