"""ReLU at the singular covariances of convergence (issue 24): its I4 against a polar quadrature
written here (independent of the code under test) as a student converges on its teacher, and
the ODE run through convergence; the ε_g accuracy, runaway, guess and second-layer checks of
the command are in test_cli.py."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate

from fltheory.papers.committee.gaussian import averages


def _rank2_i4(L: np.ndarray) -> float:
    """E[θ(u) θ(v) relu(w) relu(z)] for fields (u, v, w, z) = L g, g ~ N(0, I_2), L (4 × 2):
    in polar coordinates g = ρ(cos φ, sin φ) every field is ρ |l_i| cos(φ − φ_i), so the
    average is (1/2π) ∫ ρ³ e^{−ρ²/2} dρ ∫ h(φ) dφ = (1/π) ∫_0^{2π} h(φ) dφ with
    h = 1{f_u > 0} 1{f_v > 0} f_w⁺ f_z⁺ at ρ = 1 — integrated by adaptive quadrature
    between the zero crossings φ_i ± π/2 (h is smooth between them)."""
    phis = np.arctan2(L[:, 1], L[:, 0])
    cuts = sorted({float((p + s * math.pi / 2) % (2 * math.pi)) for p in phis for s in (1, -1)}
                  | {0.0, 2 * math.pi})

    def h(phi: float) -> float:
        f = L @ np.array([math.cos(phi), math.sin(phi)])
        return float((f[0] > 0) * (f[1] > 0) * max(f[2], 0.0) * max(f[3], 0.0))

    total = sum(integrate.quad(h, lo, hi, epsabs=1e-15, epsrel=1e-13)[0]
                for lo, hi in itertools.pairwise(cuts) if hi > lo)
    return total / math.pi


@pytest.mark.parametrize("delta", [1e-2, 1e-5, 1e-8, 1e-11, 1e-14, 0.0])
def test_relu_i4_at_near_singular_covariances_matches_polar_quadrature(delta):
    # a converged student on its teacher: λ = (1 − δ) ν + √(2δ − δ²) ν⊥, with every
    # arrangement of (λ, ν) over (u, v, w, z), and a second unit at a generic angle
    lam = np.array([1 - delta, math.sqrt(max(2 * delta - delta**2, 0.0))])
    nu = np.array([1.0, 0.0])
    other = 0.8 * np.array([math.cos(2.0), math.sin(2.0)])
    av = averages("relu")
    for rows in ((lam, lam, nu, nu), (lam, lam, lam, nu), (lam, nu, lam, nu),
                 (lam, nu, nu, nu), (lam, lam, lam, lam), (lam, other, nu, lam),
                 (lam, nu, other, other)):
        L = np.array(rows)
        got = float(av.i4(L @ L.T))
        assert got == pytest.approx(_rank2_i4(L), abs=2e-10), (delta, L)


def test_relu_i4_stays_finite_and_close_when_rounding_makes_c_indefinite():
    # R = 1 + 1e-12 with Q = T = 1 (the last digits of an integration past convergence):
    # before, 1/√1e-300 factors gave 1e150 or a DomainError; now within 1e-9 of the PSD point
    av = averages("relu")
    for idx in ([0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 1, 1]):
        J = np.array([[1.0, 1.0 + 1e-12], [1.0 + 1e-12, 1.0]])
        J0 = np.ones((2, 2))
        assert float(av.i4(J[np.ix_(idx, idx)])) == pytest.approx(
            float(av.i4(J0[np.ix_(idx, idx)])), abs=1e-9)


def test_relu_ode_runs_through_convergence_k1_and_k2_m1():
    from fltheory.papers.committee.model import CommitteeModel
    from fltheory.papers.committee.ode import integrate

    # K = M = 1: before, the integration ended in a DomainError ("a covariance with a zero
    # variance"); ε_g decays to the accuracy floor and Q, R reach T = 1
    tr = integrate(CommitteeModel("relu", 1, 1), "1/2", [[0.25]], [[1e-3]], np.eye(1),
                   np.linspace(0, 400, 41))
    assert abs(tr.Q[-1, 0, 0] - 1) < 1e-7 and abs(tr.R[-1, 0, 0] - 1) < 1e-7
    assert abs(tr.eps_g[-1]) < 1e-8
    # K = 2, M = 1 (before: a raw numpy RuntimeWarning, an error under filterwarnings=error)
    tr = integrate(CommitteeModel("relu", 2, 1), "1/2", 0.25 * np.eye(2), [[1e-3], [2e-3]],
                   np.eye(1), np.linspace(0, 100, 11))
    assert np.all(np.diff(tr.eps_g) < 0) and tr.eps_g[-1] < 1e-4
