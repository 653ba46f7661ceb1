"""Every symmetric fixed point of the plateau equations, with its stability (issue 37, item 5),
against an independent computation written here: the Saad–Solla right side for
g = erf(x/√2) typed from the paper's closed forms (Saad & Solla 1995, PRE 52 4225, eqs. (5)–(7)
and the appendix: I3 = (2/π)(C_bc(1 + C_aa) − C_ab C_ac)/((1 + C_aa)√Λ3),
I4 = (4/π²) Λ4^{−1/2} arcsin(Λ0/√(Λ1 Λ2))) in vectorised numpy — not fltheory's right side —,
restricted to Q = (q − c)I + c11ᵀ, R = r11ᵀ, its roots found by scipy's ``root`` (hybr) from a
grid of starts other than the tool's, and the stability from the eigenvalues of a
central-difference Jacobian of the full right side in the coordinates (Q_ij, i <= j; R).

The issue's own independent computation gives, at K = M = 3, η = 7/10: two symmetric fixed
points, q ≠ c with ε_g 0.0414 (the one the trajectory visits) and q = c with q = 0.216276,
r = 0.262125, ε_g = 0.0446."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest


def _rhs(Q, R, T, eta):
    """dQ/dt, dR/dt of Saad & Solla for g = erf(x/√2), a = a* = 1, no noise."""
    K, M = R.shape
    C = np.block([[Q, R], [R.T, T]])
    n = K + M
    w = np.concatenate([-np.ones(K), np.ones(M)])
    d = 1.0 + np.diag(C)

    def i3(a, b, c):
        lam3 = d[a] * d[c] - C[a, c] ** 2
        return 2 / math.pi * (C[b, c] * d[a] - C[a, b] * C[a, c]) / (d[a] * math.sqrt(lam3))

    def i4(a, b, c, e):
        lam4 = d[a] * d[b] - C[a, b] ** 2
        lam0 = (lam4 * C[c, e] - C[b, c] * C[b, e] * d[a] - C[a, c] * C[a, e] * d[b]
                + C[a, b] * C[a, c] * C[b, e] + C[a, b] * C[a, e] * C[b, c])
        lam1 = (lam4 * d[c] - C[b, c] ** 2 * d[a] - C[a, c] ** 2 * d[b]
                + 2 * C[a, b] * C[a, c] * C[b, c])
        lam2 = (lam4 * d[e] - C[b, e] ** 2 * d[a] - C[a, e] ** 2 * d[b]
                + 2 * C[a, b] * C[a, e] * C[b, e])
        x = max(-1.0, min(1.0, lam0 / math.sqrt(lam1 * lam2)))
        return 4 / math.pi**2 / math.sqrt(lam4) * math.asin(x)

    dR = np.array([[eta * sum(w[c] * i3(i, K + m, c) for c in range(n)) for m in range(M)]
                   for i in range(K)])
    dQ = np.empty((K, K))
    for i, k in itertools.product(range(K), repeat=2):
        first = sum(w[c] * (i3(i, k, c) + i3(k, i, c)) for c in range(n))
        second = sum(w[c] * w[e] * i4(i, k, c, e) for c in range(n) for e in range(n))
        dQ[i, k] = eta * first + eta**2 * second
    return dQ, dR


def _eps(Q, R, T):
    q, t = np.diag(Q), np.diag(T)
    s = np.arcsin(Q / np.sqrt(np.outer(1 + q, 1 + q))).sum()
    s += np.arcsin(T / np.sqrt(np.outer(1 + t, 1 + t))).sum()
    s -= 2 * np.arcsin(R / np.sqrt(np.outer(1 + q, 1 + t))).sum()
    return s / math.pi


def _state(x, K, M):
    q, c, r = x
    return (q - c) * np.eye(K) + c * np.ones((K, K)), np.full((K, M), r)


def _independent_roots(K, M, eta):
    from scipy.optimize import root

    T = np.eye(M)

    def F(x):
        dQ, dR = _rhs(*_state(x, K, M), T, eta)
        off = (dQ.sum() - np.trace(dQ)) / (K * (K - 1))
        return np.array([np.trace(dQ) / K, off, dR.mean()])

    found = []
    for q, fc, fr in itertools.product((0.15, 0.25, 0.5, 0.8, 1.5), (0.0, 0.3, 0.7, 1.0),
                                       (0.2, 0.6, 0.95)):
        c = fc * q
        x0 = [q, c, fr * math.sqrt((q + (K - 1) * c) / (K * M))]
        with np.errstate(all="ignore"):
            try:
                sol = root(F, x0, method="hybr", tol=1e-13)
            except ValueError:  # a step outside the arcsin's domain
                continue
        x = sol.x
        Q, R = _state(x, K, M)
        joint = np.block([[Q, R], [R.T, T]])
        if (sol.success and np.abs(F(x)).max() < 1e-11
                and np.linalg.eigvalsh(joint).min() > -1e-10
                and not any(np.abs(x - y).max() < 1e-7 for y in found)):
            found.append(x)
    return sorted(found, key=lambda x: _eps(*_state(x, K, M), T))


def _unstable(x, K, M, eta):
    """Eigenvalues with positive real part of the full Jacobian (central differences, step
    1e-6) in the coordinates Q_ij (i <= j), then R."""
    T = np.eye(M)
    iu = np.triu_indices(K)
    Q0, R0 = _state(x, K, M)
    v0 = np.concatenate([Q0[iu], R0.ravel()])
    m = len(iu[0])

    def G(v):
        Q = np.zeros((K, K))
        Q[iu] = v[:m]
        Q = Q + Q.T - np.diag(np.diag(Q))
        dQ, dR = _rhs(Q, v[m:].reshape(K, M), T, eta)
        return np.concatenate([dQ[iu], dR.ravel()])

    h = 1e-6
    J = np.column_stack([(G(v0 + h * e) - G(v0 - h * e)) / (2 * h) for e in np.eye(len(v0))])
    lam = np.linalg.eigvals(J)
    return int((lam.real > 1e-7 * np.abs(lam).max()).sum())


@pytest.mark.parametrize("K, eta", [(3, "7/10"), (2, "1/2")])
def test_every_symmetric_fixed_point_and_its_stability(K, eta):
    from fractions import Fraction

    from fltheory.papers.committee.params import CommitteeModel
    from fltheory.papers.committee.plateau import symmetric_fixed_points

    eta_f = float(Fraction(eta))
    ref = _independent_roots(K, K, eta_f)
    pts = symmetric_fixed_points(CommitteeModel("erf_ss", K, K), eta)
    assert len(pts) == len(ref) == 2
    for p, x in zip(pts, ref, strict=True):
        assert [p.q, p.c, p.r] == pytest.approx(list(x), abs=1e-8)
        assert p.eps_g == pytest.approx(_eps(*_state(x, K, K), np.eye(K)), abs=1e-10)
        assert len(p.unstable) == _unstable(x, K, K, eta_f)


def test_k3_numbers_of_the_issue():
    """K = M = 3, η = 7/10: q ≠ c, ε_g 0.0414, visited; q = c = 0.216276, r = 0.262125,
    ε_g = 0.0446 (the issue's independent computation), from the roots found here."""
    ref = _independent_roots(3, 3, 0.7)
    eps = [_eps(*_state(x, 3, 3), np.eye(3)) for x in ref]
    assert round(eps[0], 4) == 0.0414 and abs(ref[0][0] - ref[0][1]) > 0.1
    assert round(eps[1], 4) == 0.0446
    assert [round(v, 6) for v in ref[1]] == [0.216276, 0.216276, 0.262125]


def test_plateau_command_lists_them_and_marks_the_visited_one(invoke):
    import json

    r = invoke("committee", "plateau", "--K", "3", "--M", "3", "--eta", "7/10", "--format",
               "json")
    assert r.exit_code == 0, r.stderr
    every = json.loads(r.stdout)["details"]["symmetric_fixed_points"]
    assert [round(p["eps_g"], 4) for p in every] == [0.0414, 0.0446]
    assert [p["visited"] for p in every] == [True, False]
    text = invoke("committee", "plateau", "--K", "3", "--M", "3", "--eta", "7/10").stdout
    assert "2 found" in text and "q = c = 0.216276, r = 0.262125, ε_g = 0.044600" in text
    ode = invoke("committee", "ode", "--K", "3", "--M", "3", "--eta", "7/10", "--t-max", "300",
                 "--format", "json")
    plateau = json.loads(ode.stdout)["details"]["plateau"]
    assert plateau["visited"] and round(plateau["eps_g"], 4) == 0.0414


def test_relu_k2_m1_symmetric_flow_reaches_the_solution_not_a_plateau(invoke):
    """relu, K = 2, M = 1 (a = a* = 1, T = 1): two students w1 = w2 = w*/2 realise the teacher
    exactly (relu is positively homogeneous: 2 relu(w*·x/2) = relu(w*·x)), a point of the
    symmetric subspace with q = c = 1/4, r = 1/2 and ε_g = 0. The reduced flow converges to it
    (as a power law: no Newton root there), so the analysis answers that there is no plateau,
    naming that point, instead of exhausting its settling budget (issue 37: it gave up after
    5208 right-side evaluations)."""
    r = invoke("committee", "plateau", "--g", "relu", "--K", "2", "--M", "1", "--eta", "1/2")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "no plateau there" in r.stderr
    found = dict(re.findall(r"\b([qcr]) = ([0-9.]+)", r.stderr.split("subspace (")[1]))
    assert float(found["q"]) == pytest.approx(0.25, abs=3e-3)
    assert float(found["c"]) == pytest.approx(0.25, abs=3e-3)
    assert float(found["r"]) == pytest.approx(0.5, abs=1e-4)
