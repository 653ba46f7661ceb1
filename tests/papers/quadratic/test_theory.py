"""Quadratic networks under one-pass SGD: the derived ODEs, their matrix form, the plateau."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from fltheory.exact import DomainError
from fltheory.papers.quadratic import theory as th


def test_wick_engine_on_known_moments():
    c = sp.Symbol("c", positive=True)
    cov = [[c]]
    assert th.wick_expectation([0] * 4, cov) == 3 * c**2
    assert th.wick_expectation([0] * 6, cov) == 15 * c**3
    assert th.wick_expectation([0] * 5, cov) == 0
    # E[x² y²] = C_xx C_yy + 2 C_xy²
    x, y, r = sp.symbols("x y r")
    assert sp.expand(th.wick_expectation([0, 0, 1, 1], [[x, r], [r, y]]) - (x * y + 2 * r**2)) == 0


@pytest.mark.parametrize(("p", "p_star"), [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2)])
def test_matrix_form_equals_elementwise_derivation(p, p_star):
    d = th.derive_elementwise(p, p_star)
    S = d["symbols"]
    rng = np.random.default_rng(p * 10 + p_star)
    W, Ws = rng.standard_normal((p, 7)), rng.standard_normal((p_star, 7))
    Q, R, T = W @ W.T / 7, W @ Ws.T / 7, Ws @ Ws.T / 7
    a, b, eta_w, sigma = 0.7, 0.4, 0.3, 0.2
    values = {S["a"]: a, S["b"]: b, S["eta_w"]: eta_w, S["sigma"]: sigma}
    values |= {S["Q"][i, j]: Q[i, j] for i in range(p) for j in range(p)}
    values |= {S["rho"][i, m]: R[i, m] for i in range(p) for m in range(p_star)}
    values |= {S["T"][i, j]: T[i, j] for i in range(p_star) for j in range(p_star)}
    dQ, dR = th.rhs_matrix(Q, R, T, a, b, eta_w, sigma)
    assert np.allclose(np.array(d["dQ"].subs(values), dtype=float), dQ, atol=1e-13)
    assert np.allclose(np.array(d["drho"].subs(values), dtype=float), dR, atol=1e-13)
    assert abs(float(d["loss"].subs(values)) - th.loss_matrix(Q, R, T, a, b, sigma)) < 1e-13


@pytest.mark.parametrize(("p", "p_star", "eta"), [(2, 2, Fraction(1, 10)), (4, 2, Fraction(1, 10)),
                                                  (8, 2, Fraction(1, 20)), (3, 1, Fraction(0))])
def test_plateau_is_a_fixed_point_and_attracts_the_ode(p, p_star, eta):
    r = th.plateau(p, p_star, eta)
    T = np.eye(p_star)
    dQ, dR = th.rhs_matrix(r.q * np.eye(p), np.zeros((p, p_star)), T, 1 / p, 1 / p_star,
                           p * float(eta))
    assert np.abs(dQ).max() < 1e-12 and np.abs(dR).max() == 0
    if eta > 0:
        sol = th.integrate(0.3 * np.eye(p), np.zeros((p, p_star)), T, float(eta),
                           np.array([0.0, 200.0]))
        assert abs(np.trace(sol.Q[-1]) / p - r.q) < 1e-6
        # the rate: linearising dρ/dt at the plateau, numerically
        eps = 1e-7
        _, dR1 = th.rhs_matrix(r.q * np.eye(p), eps * np.ones((p, p_star)), T, 1 / p,
                               1 / p_star, p * float(eta))
        assert abs(dR1[0, 0] / eps - r.escape_rate) < 1e-6
    else:
        assert r.q_exact == sp.Rational(p, p + 2)


def test_small_step_rate_does_not_depend_on_p():
    # r = 2η(1 − q*(1 + 2/p) + 2/p*) → 4η/p* as η → 0 (mean-field normalisation)
    rates = [th.plateau(p, 2, Fraction(1, 10**6)).escape_rate for p in (2, 4, 8, 50)]
    assert max(rates) - min(rates) < 1e-10 and abs(rates[0] - 4e-6 / 2) < 1e-10


def test_plateau_domain():
    with pytest.raises(DomainError, match=r"^eta = "):
        th.plateau(4, 2, Fraction(1, 2))
    with pytest.raises(DomainError, match=r"^teacher = "):
        th.plateau(2, 2, Fraction(1, 10), teacher=[Fraction(3), Fraction(3)])


def test_cli(invoke):
    r = invoke("quadratic", "ode", "--p", "2", "--p-star", "2", "--eta", ".1", "--format",
               "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    # q* = 2 − √2: the root of the plateau quadratic at p = p* = 2, η = 1/10 (a zero of
    # rhs_matrix, checked in test_plateau_is_a_fixed_point_and_attracts_the_ode)
    assert data["details"]["q_star"] == "2 - sqrt(2)" and data["value"] < 1e-10
    r = invoke("quadratic", "equations", "--p", "1", "--p-star", "1", "--format", "json")
    assert "rho_11" in json.loads(r.stdout)["value"]["drho_11/dt"]
    for args in (["ode", "--p", "4", "--p-star", "2", "--eta", ".5"],
                 ["ode", "--p", "2", "--p-star", "2", "--eta", "0"],
                 ["ode", "--p", "2", "--p-star", "2", "--eta", ".1", "--teacher", "foo"],
                 ["equations", "--p", "9", "--p-star", "1"]):
        r = invoke("quadratic", *args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, args


def test_manifold_dimension_and_hessian_counts():
    # Stiefel V_{p*}(R^p): p p* − p*(p*+1)/2; p = p*: dim O(p) = p(p − 1)/2
    assert [th.manifold_dimension(p, p) for p in (1, 2, 3, 4)] == [0, 1, 3, 6]
    assert th.manifold_dimension(4, 2) == 5
    with pytest.raises(DomainError, match=r"^p = "):
        th.manifold_dimension(1, 2)
    neg, zero, pos = th.hessian_solution_counts(4, 2, 10)
    assert (neg, zero, pos) == (0, 5 + 2 * 8, 40 - 21)


def test_implicit_bias_conditions_on_the_ode():
    """S = ρ(ρᵀρ)^(−1/2) is conserved for isotropic Q(0) and T (with the η² term), and drifts
    by O(1) when the teacher or Q(0) is anisotropic (measured failure of the closest-solution
    rule outside the conditions)."""
    rng = np.random.default_rng(0)
    R0 = 1e-3 * rng.standard_normal((4, 2))
    iso = th.implicit_bias_drift(np.eye(4) / 4, R0, np.eye(2), 0.1, 300)
    assert iso["drift"] < 1e-10 and iso["final_loss"] < 1e-3
    aniso_T = th.implicit_bias_drift(np.eye(4) / 4, R0, np.diag([1.5, 0.5]), 0.1, 300)
    aniso_Q = th.implicit_bias_drift(np.diag([0.1, 0.2, 0.3, 0.4]), R0, np.eye(2), 0.1, 300)
    assert aniso_T["drift"] > 0.05 and aniso_Q["drift"] > 0.05


@pytest.mark.parametrize(("p", "p_star"), [(1, 1), (2, 2), (3, 2), (4, 2), (3, 1)])
def test_ode_jacobian_counts(p, p_star):
    """Predicted (unstable, zero, stable) counts against the numerical Jacobian of the derived
    ODE (central differences), at the plateau and at a solution."""
    for at in ("plateau", "solution"):
        out = th.ode_jacobian_counts(p, p_star, Fraction(1, 10), at)
        assert out["predicted"] == out["numerical"], (at, out)


def test_cli_hessian_and_simulate(invoke):
    r = invoke("quadratic", "hessian", "--p", "4", "--p-star", "2", "--N", "50", "--format",
               "json")
    assert r.exit_code == 0
    v = json.loads(r.stdout)["value"]
    assert v["manifold_dimension"] == 5 and v["hessian_plateau"] == [8, 4 * 3 // 2 + 4 * 44, 10]
    r = invoke("quadratic", "simulate", "--N", "100", "--t-max", "2", "--format", "json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["details"]["t"]) == 21
    r = invoke("quadratic", "hessian", "--p", "2", "--p-star", "2", "--N", "3")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_fixed_step_is_mean_field_at_eta_over_p():
    """The literal fixed step (a = 1/p, η_w = η) simulated by SGD follows the ODE at step η/p,
    not the ODE at η: the deviation from the right mapping is several times smaller (a
    discriminating check, no tolerance); and the CLI's fixed scaling reports that ODE."""
    import math

    from fltheory.papers.quadratic import sim, theory

    N, p, ps, eta = 1000, 4, 2, 0.2
    rng = np.random.default_rng(3)
    W_star = sim.orthonormal_teacher(N, ps, rng)
    W0 = 0.6 * np.vstack([W_star[k % ps] for k in range(p)]) + 0.5 * rng.standard_normal((p, N))
    t = np.linspace(0, 6, 13)
    run = sim.sgd(W0, W_star, eta, t, 11, a=1 / p, eta_w=eta)
    Q0, R0, T = W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N

    def dev(step: float) -> float:
        ode = theory.integrate(Q0, R0, T, step, t)
        return float(max(np.abs(run.Q - ode.Q).max(), np.abs(run.R - ode.R).max()))

    right, wrong = dev(eta / p), dev(eta)
    assert right < wrong / 3, (right, wrong)
    assert math.isfinite(right)


def _fixed_point_and_rates(p, p_star, a, b, eta_w):
    """Independent of ``plateau()``: the ρ = 0 fixed point Q = q I of the matrix-form ODE at the
    given (a, b, η_w), found by bisection on dQ_11/dt(q) (started at the small root's
    η → 0 limit side), and the escape rates by finite differences of dρ/dt in each teacher
    direction."""
    from scipy.optimize import brentq

    T = np.eye(p_star)

    def dq(q):
        return th.rhs_matrix(q * np.eye(p), np.zeros((p, p_star)), T, a, b, eta_w)[0][0, 0]

    # dQ/dt < 0 just above the gradient-flow plateau p/(p + 2) is the attracting side; bracket the
    # root continuous with it between q = 0.05 and p/(p + 2) + 0.3.
    q = brentq(dq, 0.05, p / (p + 2) + 0.3, xtol=1e-15)
    eps = 1e-7
    rates = []
    for m in range(p_star):
        R = np.zeros((p, p_star))
        R[0, m] = eps
        rates.append(th.rhs_matrix(q * np.eye(p), R, T, a, b, eta_w)[1][0, m] / eps)
    return q, rates


def test_cli_fixed_scaling_rate(invoke):
    """--scaling fixed means the literal step a = 1/p, η_w = η. Reference computed without
    ``plateau()`` and without the CLI's η/p mapping: the fixed point and the linearised rate of
    the matrix-form ODE at a = 1/p, b = 1/p*, η_w = η (generic p = 5, p* = 3, η = 3/4)."""
    p, p_star, eta = 5, 3, 0.75
    fixed = json.loads(invoke("quadratic", "ode", "--p", str(p), "--p-star", str(p_star),
                              "--eta", "3/4", "--scaling", "fixed", "--t-max", "20", "--format",
                              "json").stdout)
    q, rates = _fixed_point_and_rates(p, p_star, 1 / p, 1 / p_star, eta)
    assert float(sp.sympify(fixed["details"]["q_star"])) == pytest.approx(q, abs=1e-10)
    assert fixed["details"]["escape_rates"] == pytest.approx(rates, abs=1e-6)
    assert fixed["inputs"]["scaling"] == "fixed" and fixed["inputs"]["eta"] == "3/4"
    # the mean-field reading (a = 1/p, η_w = pη), at another generic step
    mf = json.loads(invoke("quadratic", "ode", "--p", str(p), "--p-star", str(p_star), "--eta",
                           "1/10", "--t-max", "20", "--format", "json").stdout)
    q_mf, rates_mf = _fixed_point_and_rates(p, p_star, 1 / p, 1 / p_star, p * 0.1)
    assert float(sp.sympify(mf["details"]["q_star"])) == pytest.approx(q_mf, abs=1e-10)
    assert mf["details"]["escape_rates"] == pytest.approx(rates_mf, abs=1e-6)
