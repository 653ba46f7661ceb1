"""The simulator's own pieces against the engine's (a test may import both): its harmonic
dimensions, Gegenbauer polynomials and kernels are written independently in numpy; the claims'
comparison rules fail on a wrong prediction."""

from __future__ import annotations

import numpy as np
import pytest

from fltheory.papers.kernel import sim
from fltheory.papers.kernel.params import Experiment


def test_harmonic_dimension_is_the_engines_multiplicity():
    from fltheory.engine.spherical import multiplicity

    for d in (2, 3, 5, 17):
        for k in range(12):
            assert sim.harmonic_dimension(d, k) == multiplicity(d, k)


def test_gegenbauer_is_the_engines_legendre():
    from fltheory.engine.spherical import legendre_coefficients

    t = np.linspace(-1, 1, 11)
    for d in (3, 4, 9):
        for k in range(8):
            c = [float(x) for x in legendre_coefficients(d, k)]
            assert np.allclose(sim.gegenbauer(k, d, t), np.polyval(c[::-1], t), atol=1e-13)


def test_network_kernels_against_the_engines_closed_forms():
    """relu/abs NNGP and NTK, depth 2 and 3, with and without bias: the simulator's arc-cosine
    recursion (Cho & Saul, its own numpy) against the engine's pointwise recursion (mpmath)."""
    import mpmath

    from fltheory.engine.expressions import parse_expression
    from fltheory.engine.kernels.activations import activation_form
    from fltheory.engine.kernels.networks import Network, _pointwise

    t = np.linspace(-1, 1, 9)
    for name in ("relu", "abs"):
        for kind in ("nngp", "ntk"):
            for depth, bias in ((2, 0), (3, 0), (2, 0.5)):
                from fractions import Fraction

                net = Network(activation_form(parse_expression(name)), kind, depth,
                              Fraction(bias).limit_denominator())
                ref = [float(mpmath.re(_pointwise(net)(mpmath.mpf(x)))) for x in t]
                got = sim.network_kernel(name, kind, depth, bias)(t)
                assert np.allclose(got, ref, atol=1e-12), (name, kind, depth, bias)


def test_quadrature_dual_against_the_theorys_taylor_series():
    """tanh NNGP and NTK: the simulator's Gauss–Hermite table against the theory's Taylor
    series Σ b_j t^j (bulk Hermite coefficients) at |t| <= 0.9, and at t = ±1 against κ(±1)."""
    from fltheory.papers.kernel.params import KernelSpec
    from fltheory.papers.kernel.theory import taylor

    t = np.linspace(-0.9, 0.9, 7)
    for kind in ("nngp", "ntk"):
        b, one = taylor(KernelSpec(activation="tanh", kind=kind), 400, 20)
        series = np.polyval([float(v) for v in b][::-1], t)
        got = sim.network_kernel("tanh", kind)(t)
        assert np.allclose(got, series, atol=1e-9), kind
        assert sim.network_kernel("tanh", kind)(np.array([1.0]))[0] == pytest.approx(
            float(one), rel=1e-9)
    assert sim.table_error("tanh") < 1e-10


def test_krr_is_reproducible_and_learns_a_constant():
    kernel = sim.network_kernel("relu", "ntk")
    exp = Experiment(4, 60, 0, "1/10", 1, 300, seed=3)
    assert sim.krr(kernel, exp) == sim.krr(kernel, exp)
    constant = sim.krr(kernel, Experiment(4, 60, 0, 0, 0, 300, seed=1))
    assert constant.error < 1e-3  # degree 0: the constant 1, nearly learned from 60 points


def test_ridge_primal_and_dual_forms_agree():
    """(XᵀX/n + λ)⁻¹Xᵀy/n = Xᵀ(XXᵀ/n + λ)⁻¹y/n (push-through identity): the simulator's two
    branches give the same risk for p just below and above n at one seed."""
    rng = np.random.default_rng(0)
    n, p, lam = 40, 60, 0.3
    X, y = rng.standard_normal((n, p)), rng.standard_normal(n)
    primal = np.linalg.solve(X.T @ X / n + lam * np.eye(p), X.T @ y / n)
    dual = X.T @ np.linalg.solve(X @ X.T / n + lam * np.eye(n), y) / n
    assert np.allclose(primal, dual)
    assert sim.ridge_risk_sample(30, 20, 1.0, 1.0, 0.5, 0) > 0


def test_claim_rules_reject_a_wrong_prediction():
    """Each comparison rule fails when the prediction is moved by a few of its own SEs."""
    from fltheory.papers.kernel import claims

    gram = claims._gram_simulate({"kernels": (("relu-nngp", 3),), "n": (200, 400),
                                  "seeds": 2}, 0)
    pred = claims._gram_predict({"kernels": (("relu-nngp", 3),), "n": (200, 400), "seeds": 2})
    assert claims._gram_compare(pred, gram).status == "pass"
    wrong = [(k, d, m, tuple(v * 1.05 for v in mu)) for k, d, m, mu in pred]
    assert claims._gram_compare(wrong, gram).status == "fail"
    p = {"kernel": "relu-ntk", "psi": 4, "energies": {1: "1/2", 2: "1/2"}, "d": (25, 50),
         "seeds": 4, "n_test": 1000}
    runs = claims._stair_simulate(p, 0)
    limit = claims._stair_predict(p)
    fit = claims._stair_compare(limit, runs)
    se = fit.points[-1].se
    assert claims._stair_compare(limit + 10 * se, runs).status == "fail"
