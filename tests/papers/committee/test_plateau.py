"""The fixed-point analysis of fltheory.papers.committee.plateau on given right sides: the
quadratic module's plateau, rates and Jacobian counts at g = x² (its own rhs_matrix and
formulas), and Saad–Solla's erf(x/√2) committee (a right side typed below from their closed
forms), with independent checks by integration."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.committee import plateau as cp
from fltheory.papers.committee.ode import integrate_flat

# ---- Saad & Solla (1995) closed forms for g(x) = erf(x/√2), typed from the paper -------------
# I2 = E[g'(u)g'(v)], I3 = E[g'(u) v g(w)], I4 = E[g'(u)g'(v)g(w)g(z)], fields z = (λ, ν).

def _cov(Q, R, T):
    return np.block([[Q, R], [R.T, T]])


def erf_field(a, a_star, eta, noise=0.0):
    a, a_star = np.asarray(a, float), np.asarray(a_star, float)

    def field(Q, R, T):
        K = R.shape[0]
        C = _cov(Q, R, T)
        s = np.concatenate([-a, a_star])  # y − f = Σ_c s_c g(z_c)
        d = np.diag(C)
        c11, c33 = d[:K, None, None], d[None, None, :]
        c12, c13, c23 = C[:K, :, None], C[:K, None, :], C[None, :, :]
        I3 = (2 / np.pi / np.sqrt((1 + c11) * (1 + c33) - c13**2)
              * (c23 * (1 + c11) - c12 * c13) / (1 + c11))
        A = I3 @ s
        dR = eta * a[:, None] * A[:, K:]
        dQ = eta * a[:, None] * A[:, :K]
        dQ = dQ + dQ.T
        c11, c22 = d[:K, None, None, None], d[None, :K, None, None]
        c12 = C[:K, :K][:, :, None, None]
        c33, c44 = d[None, None, :, None], d[None, None, None, :]
        c13, c14 = C[:K][:, None, :, None], C[:K][:, None, None, :]
        c23, c24 = C[:K][None, :, :, None], C[:K][None, :, None, :]
        c34 = C[None, None, :, :]
        L4 = (1 + c11) * (1 + c22) - c12**2
        L0 = (L4 * c34 - c23 * c24 * (1 + c11) - c13 * c14 * (1 + c22) + c12 * c13 * c24
              + c12 * c14 * c23)
        L1 = L4 * (1 + c33) - c23**2 * (1 + c11) - c13**2 * (1 + c22) + 2 * c12 * c13 * c23
        L2 = L4 * (1 + c44) - c24**2 * (1 + c11) - c14**2 * (1 + c22) + 2 * c12 * c14 * c24
        I4 = 4 / np.pi**2 / np.sqrt(L4) * np.arcsin(L0 / np.sqrt(L1 * L2))
        I2 = 2 / np.pi / np.sqrt((1 + d[:K, None]) * (1 + d[None, :K]) - Q**2)
        dQ = dQ + eta**2 * np.outer(a, a) * (np.einsum("ikce,c,e->ik", I4, s, s) + noise**2 * I2)
        return dQ, dR

    return field


def erf_eps(a, a_star, T):
    s = np.concatenate([-np.asarray(a, float), np.asarray(a_star, float)])

    def eps(Q, R):
        C = _cov(Q, R, T)
        d = np.diag(C)
        return float(0.5 * s @ (2 / np.pi * np.arcsin(C / np.sqrt(np.outer(1 + d, 1 + d)))) @ s)

    return eps


def erf_flat(field, K, M, T):
    def f(y):
        dQ, dR = field(y[:K * K].reshape(K, K), y[K * K:].reshape(K, M), T)
        return np.concatenate([dQ.ravel(), dR.ravel()])

    return f


def _erf_plateau(K, eta):
    T = np.eye(K)
    return cp.plateau_of_field(erf_field(np.ones(K), np.ones(K), eta), K, K, T, eta,
                               erf_eps(np.ones(K), np.ones(K), T))


# ---- erf: plateau -------------------------------------------------------------------------------

def test_erf_plateau_is_the_limit_of_the_symmetric_flow():
    """Independent of Newton: the reduced flow itself, integrated to t = 4000 at η = 1 (the
    slowest rate within the symmetric subspace there is ~9e-3: e^-37), ends on the root."""
    eta, K = 1.0, 2
    p = _erf_plateau(K, eta)
    field, T = erf_field(np.ones(K), np.ones(K), eta), np.eye(K)

    def F(x):
        return cp._reduce(*field(*cp._symmetric(x, K, K), T), K)

    end = integrate_flat(F, [0.5, 0.0, 0.0], [0.0, 4000.0], method="dop853").Y[-1]
    assert np.abs(end - [p.q, p.c, p.r]).max() < 1e-8
    assert p.residual < 1e-12 and len(p.unstable) == 1


def test_erf_escape_rate_is_the_growth_of_a_perturbation_of_the_full_ode():
    """Start the FULL ODE at the plateau plus 1e-9 × the unstable direction; the log-growth of
    the distance over t in [100, 250] is the escape rate (to 1e-3 relative: the stable modes
    excited by round-off have decayed by e^-{0.009·100} ... they are not excited: the start is
    along the eigenvector)."""
    eta, K = 1.0, 2
    p = _erf_plateau(K, eta)
    lam, dQ, dR = p.unstable[0]
    v = np.concatenate([dQ.ravel(), dR.ravel()])
    v /= np.abs(v).max()
    field = erf_field(np.ones(K), np.ones(K), eta)
    y0 = np.concatenate([p.Q.ravel(), p.R.ravel()]) + 1e-9 * v
    sol = integrate_flat(erf_flat(field, K, K, p.T), y0, [0.0, 100.0, 250.0], rtol=1e-12,
                         atol=1e-15, method="dop853")
    y_star = np.concatenate([p.Q.ravel(), p.R.ravel()])
    dist = np.abs(sol.Y - y_star).max(axis=1)
    rate = math.log(dist[2] / dist[1]) / 150.0
    assert abs(rate - p.escape_rate) < 1e-3 * p.escape_rate
    assert abs(lam.imag) < 1e-12
    # the unstable direction breaks the students' symmetry: R's rows move apart (specialisation)
    assert abs(dR[0, 0] + dR[1, 0]) < 1e-8 * abs(dR[0, 0])


def test_erf_small_eta_plateau_approaches_saad_solla():
    """At η → 0 the symmetric fixed point of K = M, T = I is Q_kk = Q_kl = 1/(2K − 1),
    R = 1/√(K(2K − 1)) (Saad & Solla 1995, symmetric phase, as we recall it; the first check
    below shows it is an exact root of the O(η) equations typed from their closed forms).
    The engine's plateau at η = 1/100 and 1/200 lies within O(η) of it, the distance halving
    with η (first-order approach)."""
    K = 3
    q0, r0 = 1 / (2 * K - 1), 1 / math.sqrt(K * (2 * K - 1))
    Q, R = np.full((K, K), q0), np.full((K, K), r0)
    dQ, dR = erf_field(np.ones(K), np.ones(K), 1.0)(Q, R, np.eye(K))
    f2 = erf_field(np.ones(K), np.ones(K), 2.0)(Q, R, np.eye(K))
    first_order = (2 * np.concatenate([dQ.ravel(), dR.ravel()])
                   - 0.5 * np.concatenate([f2[0].ravel(), f2[1].ravel()]))
    assert np.abs(first_order).max() < 1e-14
    dist = []
    for eta in (0.01, 0.005):
        p = _erf_plateau(K, eta)
        dist.append(max(abs(p.q - q0), abs(p.c - q0), abs(p.r - r0)))
    assert dist[0] < 0.01 and 1.8 < dist[0] / dist[1] < 2.2


# ---- erf: specialised fixed point and largest step ---------------------------------------------

def test_erf_specialised_point_and_its_rate_against_integration():
    eta, K = 1.0, 2
    T = np.eye(K)
    field = erf_field(np.ones(K), np.ones(K), eta)
    fp = cp.fixed_point_of_field(field, T.copy(), T.copy(), T, erf_eps(np.ones(K), np.ones(K), T))
    assert fp.eps_g == 0.0 and fp.residual == 0.0 and fp.unstable == 0 and fp.zero_modes == 0
    # a PSD perturbation: student weights W = W* + δ (T = I), Q = WWᵀ, R = W W*ᵀ
    rng = np.random.default_rng(5)
    W = np.hstack([np.eye(K), np.zeros((K, 1))]) + 1e-3 * rng.standard_normal((K, K + 1))
    Ws = np.hstack([np.eye(K), np.zeros((K, 1))])
    y0 = np.concatenate([(W @ W.T).ravel(), (W @ Ws.T).ravel()])
    sol = integrate_flat(erf_flat(field, K, K, T), y0, [0.0, 50.0, 120.0], rtol=1e-12,
                         atol=1e-15, method="dop853")
    dist = np.abs(sol.Y - np.concatenate([T.ravel(), T.ravel()])).max(axis=1)
    rate = math.log(dist[1] / dist[2]) / 70.0
    assert abs(rate - fp.convergence_rate) < 0.02 * fp.convergence_rate


def test_erf_max_learning_rate_closed_form_and_the_ode_on_both_sides():
    """η_max = π√(5/3) (derived in the module docstring from the K = M = 1 Jacobian at
    Q = R = T = 1). Below it (0.97 η_max) the ODE from (Q, R) = (0.9, 0.8) goes to ε_g = 0;
    above (1.03 η_max) it settles at ε_g > 1e-6 (a second fixed point with Q, R > 1)."""
    m = cp.max_lr_of_field(lambda e: erf_field([1.0], [1.0], e), 1.0)
    assert abs(m.eta_max - math.pi * math.sqrt(5 / 3)) < 1e-8 and m.kind == "real"
    T = np.eye(1)
    eps = erf_eps([1.0], [1.0], T)
    for factor, converges in ((0.97, True), (1.03, False)):
        field = erf_field([1.0], [1.0], factor * m.eta_max)
        y = integrate_flat(erf_flat(field, 1, 1, T), [0.9, 0.8], [0.0, 3000.0],
                           method="dop853").Y[-1]
        e = eps(y[:1].reshape(1, 1), y[1:].reshape(1, 1))
        assert (e < 1e-12) if converges else (e > 1e-6 and y[0] > 1 and y[1] > 1), factor


# ---- g = x²: the quadratic module reproduced ---------------------------------------------

def _quad_field(p, ps, eta_q):
    from fltheory.papers.quadratic.equations import rhs_matrix

    return lambda Q, R, T: rhs_matrix(Q, R, T, 1 / p, 1 / ps, p * eta_q)


@pytest.mark.parametrize("p, ps, eta", [(4, 2, Fraction(1, 10)), (3, 2, Fraction(3, 40)),
                                        (2, 3, Fraction(1, 20))])
def test_quadratic_plateau_and_rates_reproduced(p, ps, eta):
    from fltheory.papers.quadratic.theory import (
        linear_rate,
        loss_matrix,
        ode_jacobian_counts,
        plateau,
    )

    T = np.eye(ps)
    pl = cp.plateau_of_field(_quad_field(p, ps, float(eta)), p, ps, T, p * float(eta),
                             lambda Q, R: loss_matrix(Q, R, T, 1 / p, 1 / ps))
    ref = plateau(p, ps, eta)
    assert abs(pl.q - ref.q) < 1e-12 and abs(pl.c) < 1e-14 and abs(pl.r) < 1e-14
    assert abs(pl.eps_g - ref.loss) < 1e-12
    assert abs(pl.escape_rate - float(linear_rate(ref.q, p, ps, float(eta)))) < 1e-8
    # all p·p* unstable directions have that rate (T = I); counts as ode_jacobian_counts
    assert len(pl.unstable) == p * ps
    assert all(abs(u[0] - pl.escape_rate) < 1e-8 for u in pl.unstable)
    counts = ode_jacobian_counts(p, ps, eta)["predicted"]
    assert (len(pl.unstable), 0, int(np.sum(pl.eigenvalues.real < 0))) == counts


@pytest.mark.parametrize("p, ps", [(2, 2), (3, 2)])
def test_quadratic_solution_zero_modes_and_stability_bound(p, ps):
    """At a solution (ρ = √(p/p*)·O, Q = ρρᵀ): the zero modes of ode_jacobian_counts, and the
    convergence rate changes sign at η_sol = p*/(2(p* + 2)) (stability_bounds)."""
    from fltheory.papers.quadratic.theory import loss_matrix, ode_jacobian_counts, stability_bounds

    T = np.eye(ps)
    O, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((p, ps)))
    R0 = O * math.sqrt(p / ps)
    eta_sol = float(stability_bounds(p, ps)["solution"])
    rates = []
    for eta in (0.9 * eta_sol, 1.1 * eta_sol):
        fp = cp.fixed_point_of_field(_quad_field(p, ps, eta), R0 @ R0.T, R0, T,
                                     lambda Q, R: loss_matrix(Q, R, T, 1 / p, 1 / ps))
        assert fp.eps_g < 1e-14 and fp.residual < 1e-12  # 0 up to round-off of Q = ρρᵀ
        rates.append(fp.convergence_rate)
    counts = ode_jacobian_counts(p, ps, Fraction(1, 20), at="solution")["predicted"]
    fp = cp.fixed_point_of_field(_quad_field(p, ps, 0.05), R0 @ R0.T, R0, T,
                                 lambda Q, R: 0.0)
    assert (fp.unstable, fp.zero_modes, len(fp.eigenvalues) - fp.zero_modes) == counts
    assert rates[0] > 0 > rates[1]


def test_quadratic_max_learning_rate_is_the_solution_bound():
    from fltheory.papers.quadratic.theory import stability_bounds

    m = cp.max_lr_of_field(lambda e: _quad_field(1, 1, e), 1.0)
    assert abs(m.eta_max - float(stability_bounds(1, 1)["solution"])) < 1e-9


# ---- engine on toy fields and bad input --------------------------------------------------

def test_jacobian_of_a_linear_field_is_exact():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((5, 5))
    K, M = 2, 1
    iu, _ = cp._coords(K, M)

    def field(Q, R, T):
        out = A @ cp._pack(Q, R, iu)
        return cp._unpack(out, K, M, iu)

    Q0, R0 = np.eye(K), np.ones((K, M))
    assert np.abs(cp._jacobian(field, Q0, R0, np.eye(M)) - A).max() < 1e-9


def test_asymmetric_model_is_refused():
    T = np.eye(2)
    with pytest.raises(DomainError) as info:
        cp.plateau_of_field(erf_field([1.0, 0.5], [1.0, 1.0], 0.5), 2, 2, T, 0.5,
                            erf_eps([1.0, 0.5], [1.0, 1.0], T))
    assert info.value.param == "model"


def test_bad_guess_is_refused():
    T = np.eye(2)
    f = erf_field([1.0, 1.0], [1.0, 1.0], 0.5)
    with pytest.raises(DomainError) as info:
        cp.plateau_of_field(f, 2, 2, T, 0.5, erf_eps([1, 1], [1, 1], T), guess=[0.5, 0.1])
    assert info.value.param == "guess"


def test_max_lr_refuses_a_model_whose_point_is_not_fixed():
    with pytest.raises(DomainError) as info:  # noise: Q = R = T is not a fixed point
        cp.max_lr_of_field(lambda e: erf_field([1.0], [1.0], e, noise=0.5), 1.0)
    assert info.value.param == "model"


def test_max_lr_finds_a_complex_crossing():
    """Toy K = M = 1 field η J1 + η² J2 (deviations from Q = R = T = 1) with J1 = [[−1, −1],
    [1, −1]], J2 = [[1, −3], [0, 0]]: tr = η − 2, det = 2 + 2η > 0, so a complex pair crosses
    at η = 2 (J = 2(J1 + 2J2) has eigenvalues ±2√6 i there: checked)."""
    def field_at(e):
        def field(Q, R, T):
            dq, dr = Q - T, R - T
            return (e * (-dq - dr) + e * e * (dq - 3 * dr), e * (dq - dr))
        return field

    m = cp.max_lr_of_field(field_at, 1.0)
    assert abs(m.eta_max - 2.0) < 1e-9 and m.kind == "complex"
    w = np.linalg.eigvals(m.J1 * 2 + m.J2 * 4)
    assert np.abs(w.real).max() < 1e-8
    assert np.allclose(sorted(w.imag), [-2 * math.sqrt(6), 2 * math.sqrt(6)])


def test_no_jacobian_where_the_right_side_is_not_differentiable():
    """ReLU at the specialised point Q = R = T: each student field equals its teacher's, the
    joint covariance is singular, and E[relu relu] has a √(1 − ρ²) branch there, so the
    central differences blow up instead of converging (before: a convergence rate of −2e143
    was returned). The refusal names the state; erf (analytic) at the same point and ReLU at
    its plateau (regular covariance) keep their Jacobians."""
    from fractions import Fraction

    from fltheory.exact import DomainError
    from fltheory.papers.committee.model import CommitteeModel
    from fltheory.papers.committee.plateau import convergence_rate, symmetric_plateau

    with pytest.raises(DomainError, match="no Jacobian"):
        convergence_rate(CommitteeModel("relu", 2, 2), Fraction(1, 2))
    assert convergence_rate(CommitteeModel("erf_ss", 2, 2), Fraction(1, 2)) > 0
    assert symmetric_plateau(CommitteeModel("relu", 2, 2), Fraction(1, 10)).escape_rate > 0
