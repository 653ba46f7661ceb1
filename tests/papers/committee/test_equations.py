"""The committee-machine ODEs (fltheory.papers.committee.model), each against an independent
computation: the quadratic module's matrix form at g = x², Saad & Solla's equations for erf
typed from the paper, a Monte Carlo average of the SGD increments written from the update rule
(fields sampled directly), Monte Carlo for ε_g, and the three implementations against each other
(numpy, flat loops/numba, sympy)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

from fltheory.exact import DomainError
from fltheory.papers.committee.model import (
    CommitteeModel,
    check_state,
    equations,
    flat_rhs,
    generalisation_error,
    model_averages,
    rhs,
)
from fltheory.papers.quadratic.equations import loss_matrix, rhs_matrix


def _state(K: int, M: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    A = np.random.default_rng(seed).normal(size=(K + M, K + M + 2))
    C = A @ A.T / (K + M + 2)
    return C[:K, :K], C[:K, K:], C[K:, K:]


@pytest.mark.parametrize(("p", "ps"), [(1, 1), (2, 1), (3, 2)])
def test_reproduces_the_quadratic_module(p, ps):
    # quadratic module: f = a Σ λ², y = b Σ ν² + σξ, w ← w − η_w ∂½(f − y)²: our g = x²,
    # a_k = a, a*_m = b, η = η_w
    Q, R, T = _state(p, ps, 10 * p + ps)
    a, b, eta, sigma = 0.7, 1.3, 0.15, 0.3
    m = CommitteeModel("x**2", p, ps, a=a, a_star=b, noise=sigma)
    dQ, dR = rhs(m, eta)(Q, R, T)
    qQ, qR = rhs_matrix(Q, R, T, a, b, eta, sigma)
    assert np.allclose(dQ, qQ, rtol=1e-12, atol=1e-14)
    assert np.allclose(dR, qR, rtol=1e-12, atol=1e-14)
    assert generalisation_error(m, Q, R, T) == pytest.approx(loss_matrix(Q, R, T, a, b), rel=1e-12)


def _g(name):
    if name == "erf_ss":
        return (lambda z: erf(z / math.sqrt(2)),
                lambda z: math.sqrt(2 / math.pi) * np.exp(-z**2 / 2))
    if name == "relu":
        return lambda z: np.maximum(z, 0.0), lambda z: (z > 0) * 1.0
    return np.tanh, lambda z: 1 / np.cosh(z)**2


@pytest.mark.parametrize("g", ["erf_ss", "relu",
                               pytest.param("tanh", marks=pytest.mark.slow)])  # 14 s: cubature
def test_rhs_equals_monte_carlo_of_the_sgd_increments(g):
    # one SGD step, per unit time (×N): ΔR_in N = η a_i δ g'(λ_i) ν_n − ηκ R_in,
    # ΔQ_ik N = η (a_i δ g'_i λ_k + a_k δ g'_k λ_i) + η² a_i a_k δ² g'_i g'_k − 2ηκ Q_ik,
    # δ = Σ a* g(ν) + σξ − Σ a g(λ); averaged over fields drawn from [[Q, R], [Rᵀ, T]]
    K, M = 2, 2
    Q, R, T = _state(K, M, 5)
    a, astar, sigma, kappa, eta = np.array([1.0, 0.5]), np.array([1.0, 1.5]), 0.4, 0.2, 0.7
    m = CommitteeModel(g, K, M, a=[1, "1/2"], a_star=[1, "3/2"], noise="0.4",
                       weight_decay="0.2")
    dQ, dR = rhs(m, "0.7")(Q, R, T)
    rng = np.random.default_rng(99)
    n = 400_000
    C = np.block([[Q, R], [R.T, T]])
    x = rng.standard_normal((n, K + M)) @ np.linalg.cholesky(C).T
    lam, nu = x[:, :K], x[:, K:]
    f, df = _g(g)
    delta = f(nu) @ astar + sigma * rng.standard_normal(n) - f(lam) @ a
    gp = df(lam)
    for i in range(K):
        for j in range(M):
            s = eta * a[i] * delta * gp[:, i] * nu[:, j] - eta * kappa * R[i, j]
            assert abs(dR[i, j] - s.mean()) < 5 * s.std() / math.sqrt(n)
        for k in range(K):
            s = (eta * (a[i] * delta * gp[:, i] * lam[:, k]
                        + a[k] * delta * gp[:, k] * lam[:, i])
                 + eta**2 * a[i] * a[k] * delta**2 * gp[:, i] * gp[:, k]
                 - 2 * eta * kappa * Q[i, k])
            assert abs(dQ[i, k] - s.mean()) < 5 * s.std() / math.sqrt(n), (i, k)
    clean = f(nu) @ astar - f(lam) @ a
    s = 0.5 * clean**2
    assert abs(generalisation_error(m, Q, R, T) - s.mean()) < 5 * s.std() / math.sqrt(n)


# Saad & Solla (1995), eqs. (8)–(9) and appendix, for g = erf(x/√2), a_k = a*_m = 1, typed from
# the paper: dR_in/dt = η [Σ_m I3(i,n,m) − Σ_j I3(i,n,j)],
# dQ_ik/dt = η [Σ_m I3(i,k,m) − Σ_j I3(i,k,j)] + η [Σ_m I3(k,i,m) − Σ_j I3(k,i,j)]
#          + η² [Σ_{n,m} I4(i,k,n,m) − 2 Σ_{j,n} I4(i,k,j,n) + Σ_{j,l} I4(i,k,j,l)],
# I3 = (2/π) (C23 (1 + C11) − C12 C13) / ((1 + C11) √Λ3), Λ3 = (1 + C11)(1 + C33) − C13²,
# I4 = (4/π²) Λ4^{−1/2} arcsin(Λ0/√(Λ1 Λ2)) with their Λ0, Λ1, Λ2, Λ4.
def _ss_i3(C):
    c11, c12, c13, c23, c33 = C[0, 0], C[0, 1], C[0, 2], C[1, 2], C[2, 2]
    return 2 / math.pi * (c23 * (1 + c11) - c12 * c13) / (
        (1 + c11) * math.sqrt((1 + c11) * (1 + c33) - c13**2))


def _ss_i4(C):
    c = lambda i, j: C[i - 1, j - 1]  # noqa: E731
    L4 = (1 + c(1, 1)) * (1 + c(2, 2)) - c(1, 2)**2
    L0 = (L4 * c(3, 4) - c(2, 3) * c(2, 4) * (1 + c(1, 1)) - c(1, 3) * c(1, 4) * (1 + c(2, 2))
          + c(1, 2) * c(1, 3) * c(2, 4) + c(1, 2) * c(1, 4) * c(2, 3))
    L1 = (L4 * (1 + c(3, 3)) - c(2, 3)**2 * (1 + c(1, 1)) - c(1, 3)**2 * (1 + c(2, 2))
          + 2 * c(1, 2) * c(1, 3) * c(2, 3))
    L2 = (L4 * (1 + c(4, 4)) - c(2, 4)**2 * (1 + c(1, 1)) - c(1, 4)**2 * (1 + c(2, 2))
          + 2 * c(1, 2) * c(1, 4) * c(2, 4))
    return 4 / math.pi**2 / math.sqrt(L4) * math.asin(L0 / math.sqrt(L1 * L2))


def _saad_solla(Q, R, T, eta):
    K, M = R.shape
    C = np.block([[Q, R], [R.T, T]])
    s, t = list(range(K)), [K + m for m in range(M)]   # student and teacher field indices

    def I3(i, n, c):
        return _ss_i3(C[np.ix_([i, n, c], [i, n, c])])

    def I4(i, k, c, e):
        return _ss_i4(C[np.ix_([i, k, c, e], [i, k, c, e])])

    dR = np.array([[eta * (sum(I3(i, t[n], m) for m in t) - sum(I3(i, t[n], j) for j in s))
                    for n in range(M)] for i in range(K)])
    dQ = np.array([[eta * (sum(I3(i, k, m) for m in t) - sum(I3(i, k, j) for j in s))
                    + eta * (sum(I3(k, i, m) for m in t) - sum(I3(k, i, j) for j in s))
                    + eta**2 * (sum(I4(i, k, n, m) for n in t for m in t)
                                - 2 * sum(I4(i, k, j, n) for j in s for n in t)
                                + sum(I4(i, k, j, l) for j in s for l in s))
                    for k in range(K)] for i in range(K)])
    return dQ, dR, I3, I4


def test_erf_equations_match_saad_solla_term_by_term():
    import sympy as sp

    K, M = 2, 2
    Q, R, T = _state(K, M, 3)
    eta = 0.6
    dQ_ss, dR_ss, I3, I4 = _saad_solla(Q, R, T, eta)
    e = equations(CommitteeModel("erf_ss", K, M))
    sym = e.symbols
    subs = {sym["eta"]: eta}
    for X, V in ((sym["Q"], Q), (sym["R"], R), (sym["T"], T)):
        subs.update({X[i, j]: V[i, j] for i in range(X.rows) for j in range(X.cols)})
    # term by term: every I3 / I4 term's expression is the paper's formula at its indices, and
    # its coefficient is +η (teacher c) or −η (student c), η² × (+1, −1, +1) for I4
    for _target, coef, name, idx, expr in e.terms:
        value = float(expr.subs(subs))
        c = float(coef.subs(subs))
        if name == "I3":
            assert value == pytest.approx(I3(*idx), rel=1e-12)
            assert c == pytest.approx(eta if idx[2] >= K else -eta)
        else:
            assert value == pytest.approx(I4(*idx), rel=1e-12)
            assert c == pytest.approx(eta**2 * (1 if (idx[2] >= K) == (idx[3] >= K) else -1))
    got_Q = np.array(sp.Matrix(e.dQ).subs(subs).evalf(), dtype=float)
    got_R = np.array(sp.Matrix(e.dR).subs(subs).evalf(), dtype=float)
    assert np.allclose(got_Q, dQ_ss, rtol=1e-12, atol=1e-14)
    assert np.allclose(got_R, dR_ss, rtol=1e-12, atol=1e-14)
    nQ, nR = rhs(CommitteeModel("erf_ss", K, M), eta)(Q, R, T)
    assert np.allclose(nQ, dQ_ss, rtol=1e-12) and np.allclose(nR, dR_ss, rtol=1e-12)


@pytest.mark.parametrize("g", ["erf_ss", "relu", "x**3 - x", "x**2"])
def test_flat_rhs_equals_numpy_rhs(g):
    from fltheory.papers.committee import _flat as _committee_flat

    K, M = 3, 2
    Q, R, T = _state(K, M, 8)
    m = CommitteeModel(g, K, M, a="1/K", a_star=[1, 2], noise="1/5", weight_decay="1/10")
    dQ, dR = rhs(m, "0.3")(Q, R, T)
    f = flat_rhs(m, "0.3", T)
    y = np.concatenate([Q.ravel(), R.ravel()])
    want = np.concatenate([dQ.ravel(), dR.ravel()])
    assert np.allclose(f(y), want, rtol=1e-11, atol=1e-13)
    assert np.allclose(_committee_flat.loops(y, *f.args), want, rtol=1e-11, atol=1e-13)


def test_symbolic_polynomial_equals_numeric():
    import sympy as sp

    K, M = 2, 1
    Q, R, T = _state(K, M, 4)
    m = CommitteeModel("x**3 - 2*x", K, M, a=[1, 2], noise="1/3", weight_decay="1/7")
    e = equations(m)
    sym = e.symbols
    subs = {sym["eta"]: sp.Rational(1, 4)}
    for X, V in ((sym["Q"], Q), (sym["R"], R), (sym["T"], T)):
        subs.update({X[i, j]: V[i, j] for i in range(X.rows) for j in range(X.cols)})
    dQ, dR = rhs(m, "1/4")(Q, R, T)
    assert np.allclose(np.array(e.dQ.subs(subs), dtype=float), dQ, rtol=1e-11)
    assert np.allclose(np.array(e.dR.subs(subs), dtype=float), dR, rtol=1e-11)
    assert float(e.eps_g.subs(subs)) == pytest.approx(generalisation_error(m, Q, R, T), rel=1e-11)
    assert "\\frac{dQ_{11}}{dt}" in e.latex()


def test_check_state_refusals():
    Q, R, T = _state(2, 1, 1)
    with pytest.raises(DomainError, match="positive semi-definite"):
        check_state(Q, 10 * R + 5, T)
    with pytest.raises(DomainError, match="T = "):
        check_state(Q, R, -np.eye(1))
    with pytest.raises(DomainError, match=r"Q = .*shape"):
        check_state(np.eye(3), R, T)
    with pytest.raises(DomainError, match=r"T = .*shape"):
        check_state(Q, R, np.eye(2))
    with pytest.raises(DomainError, match=r"Q = .*symmetric"):
        check_state(Q + np.array([[0, 1], [0, 0]]), R, T)
    with pytest.raises(DomainError, match="K = 51"):
        check_state(np.eye(51), np.zeros((51, 1)), np.eye(1))
    with pytest.raises(DomainError, match="finite"):
        check_state(Q * np.nan, R, T)


def test_model_and_rhs_refusals():
    with pytest.raises(DomainError, match="K = 0"):
        CommitteeModel("erf_ss", 0, 1)
    with pytest.raises(DomainError, match="M = 51"):
        CommitteeModel("erf_ss", 1, 51)
    with pytest.raises(DomainError, match="a = "):
        CommitteeModel("erf_ss", 2, 1, a=[1, 2, 3])
    with pytest.raises(DomainError, match="noise"):
        CommitteeModel("erf_ss", 1, 1, noise=-1)
    with pytest.raises(DomainError, match="g = import os is not a valid expression"):
        CommitteeModel("import os", 1, 1)  # the grammar: at construction
    with pytest.raises(DomainError, match="g = "):  # infinite averages: the theory refuses
        rhs(CommitteeModel("exp(z**2)", 1, 1), 1)
    with pytest.raises(DomainError, match="eta"):
        rhs(CommitteeModel("erf_ss", 1, 1), 0)
    with pytest.raises(DomainError, match="K \\+ M"):
        equations(CommitteeModel("erf_ss", 4, 3))


def test_relu_equations_evaluate_numerically_and_order_one():
    import sympy as sp

    K, M = 2, 1
    Q, R, T = _state(K, M, 6)
    m = CommitteeModel("relu", K, M, noise="1/2")
    e = equations(m)
    sym = e.symbols
    args = [sym["eta"], *sorted(e.dQ.free_symbols - {sym["eta"]}, key=str)]
    values = {sym["eta"]: 0.3}
    for X, V in ((sym["Q"], Q), (sym["R"], R), (sym["T"], T)):
        values.update({X[i, j]: V[i, j] for i in range(X.rows) for j in range(X.cols)})
    f = sp.lambdify(args, e.dQ, "numpy")
    dQ, _ = rhs(m, "0.3")(Q, R, T)
    assert np.allclose(np.array(f(*[values[a] for a in args]), dtype=float), dQ, rtol=1e-10)
    # order 1 drops exactly the η² terms: dQ(order 2) − dQ(order 1) = η² (…) scales as η²
    e1 = equations(m, order=1)
    assert all(name == "I3" for _, _, name, _, _ in e1.terms)
    d1, _ = rhs(m, "0.3", order=1)(Q, R, T)
    d1b, _ = rhs(m, "0.6", order=1)(Q, R, T)
    d2b, _ = rhs(m, "0.6")(Q, R, T)
    assert np.allclose(d1b, 2 * d1) and np.allclose(d2b - d1b, 4 * (dQ - d1))


def test_erf_generalisation_error_matches_saad_solla():
    # ε_g = (1/π) [Σ_ik arcsin(Q_ik/√((1+Q_ii)(1+Q_kk))) + Σ_nm arcsin(T_nm/√((1+T_nn)(1+T_mm)))
    #              − 2 Σ_in arcsin(R_in/√((1+Q_ii)(1+T_nn)))]   (Saad & Solla 1995, eq. 5)
    K, M = 3, 2
    Q, R, T = _state(K, M, 2)
    ss = (sum(math.asin(Q[i, k] / math.sqrt((1 + Q[i, i]) * (1 + Q[k, k])))
              for i in range(K) for k in range(K))
          + sum(math.asin(T[n, m] / math.sqrt((1 + T[n, n]) * (1 + T[m, m])))
                for n in range(M) for m in range(M))
          - 2 * sum(math.asin(R[i, n] / math.sqrt((1 + Q[i, i]) * (1 + T[n, n])))
                    for i in range(K) for n in range(M))) / math.pi
    assert generalisation_error(CommitteeModel("erf_ss", K, M), Q, R, T) == pytest.approx(ss,
                                                                                      rel=1e-12)


@pytest.mark.parametrize("g", ["erf_ss", "relu", "x**3 - x", "x**2"])
def test_teacher_state_is_a_fixed_point_and_noise_enters_as_i2(g):
    # student = teacher (Q = R = T, K = M): δ = σξ, so dR = 0 and dQ = η² a_i a_k σ² I2(i, k)
    # exactly (an identity of the update, independent of the averages' formulas)
    _, _, T = _state(2, 2, 12)
    m0 = CommitteeModel(g, 2, 2)
    dQ, dR = rhs(m0, "1/2")(T, T, T)
    assert np.abs(dQ).max() < 1e-12 and np.abs(dR).max() < 1e-12
    assert generalisation_error(m0, T, T, T) == pytest.approx(0.0, abs=1e-12)
    m = CommitteeModel(g, 2, 2, noise="1/2")
    dQ, dR = rhs(m, "1/2")(T, T, T)
    I2 = model_averages(m).i2(np.array([[[[T[i, i], T[i, k]], [T[i, k], T[k, k]]] for k in range(2)]
                                 for i in range(2)]))
    assert np.allclose(dQ, 0.25 * 0.25 * I2, rtol=1e-12) and np.abs(dR).max() < 1e-12
    f = flat_rhs(m, "1/2", T, order=1)
    assert np.abs(f(np.concatenate([T.ravel(), T.ravel()]))).max() < 1e-12
