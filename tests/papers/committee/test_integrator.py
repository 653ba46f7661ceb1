"""The committee integrator (fltheory.papers.committee.ode) on problems with known solutions, its
divergence reports and its work bounds; on the committee model itself against the quadratic
module's integrator at g = x² and between its own methods."""

from __future__ import annotations

import numpy as np
import pytest

from fltheory.engine import odes
from fltheory.exact import CostError, DomainError
from fltheory.papers.committee import _compiled
from fltheory.papers.committee import ode as co

A_LIN = np.array([[-1.0, 2.0], [-2.0, -0.5]])


def lin(y):
    return A_LIN @ y


def lin_loops(y):  # the same field written for numba
    out = np.empty(2)
    out[0] = -1.0 * y[0] + 2.0 * y[1]
    out[1] = -2.0 * y[0] - 0.5 * y[1]
    return out


def _exact_linear(t):
    """y(t) = exp(A t) y0 by eigen-decomposition (scipy's expm is a second opinion below)."""
    w, V = np.linalg.eig(A_LIN)
    c = np.linalg.solve(V, np.array([1.0, 0.5]))
    return np.real(np.array([V @ (c * np.exp(w * s)) for s in t]))


def test_linear_system_every_method_matches_the_exponential():
    # reference: the eigen-decomposition, cross-checked with scipy's expm (Padé)
    from scipy.linalg import expm

    t = np.linspace(0.0, 10.0, 11)
    exact = _exact_linear(t)
    assert np.abs(exact[5] - expm(5 * A_LIN) @ [1.0, 0.5]).max() < 1e-13
    for method, compiled in (("dop853", None), ("lsoda", None), ("dopri", lin_loops)):
        sol = co.integrate_flat(lin, [1.0, 0.5], t, rtol=1e-11, atol=1e-13, method=method,
                                compiled=compiled)
        assert np.abs(sol.Y - exact).max() < 1e-9, method
        assert sol.nfev > 0 and sol.method.startswith(method)


def test_plain_python_dop853_is_high_order():
    """The loop as plain Python (no numba) on (y, s)' = (y cos s, 1), exact y = exp(sin t).
    The error follows rtol, and 1e4 × tighter tolerance costs < 3× the evaluations (an order-5
    pair would need ~(1e4)^(1/5) = 6×). Perturbation: B[5] += 1e-3 leaves an error of 4e-3.
    Every grid point (t = 2 included) is a step's end, so its error is the error-controlled one
    (relative, 1e-6 and 1e-10 here)."""
    A, B, E3, E5 = odes.tableau()

    def f(y):
        return np.array([y[0] * np.cos(y[1]), 1.0])

    t = np.array([0.0, 2.0, 6.0])
    errs, nfevs = [], []
    for rtol in (1e-6, 1e-10):
        Y, nfev, status, t_end = odes.dop853_loop(f, np.array([1.0, 0.0]), t, rtol, 1e-14,
                                                  10**5, 1e8, A, B, E3, E5)
        assert status == 0 and t_end == 6.0
        errs.append(np.abs(Y[:, 0] / np.exp(np.sin(t)) - 1).max())
        nfevs.append(nfev)
    assert errs[0] < 1e-6 and errs[1] < 1e-9
    assert nfevs[1] < 3 * nfevs[0]


@pytest.mark.parametrize("method", ["auto", "dop853", "lsoda"])
def test_grid_states_honour_the_stated_accuracy(method):
    """ε_g on a fine grid (2001 points to t = 200, erf_ss K = M = 2, η = 1/2, cold start)
    against the same ODE at rtol 1e-13 (the reference: the compiled loop, whose grid points
    are step ends; a different method from scipy's paths): within the accuracy the trajectory
    states (:func:`eps_accuracy`). Before the steps landed on the grid, DOP853's dense output
    (not error-controlled) missed it by 9× (7.5e-8 against 8.1e-9), scipy's by 5×."""
    from fltheory.papers.committee.params import CommitteeModel, ODESettings

    m = CommitteeModel("erf_ss", 2, 2)
    rng = np.random.default_rng(0)
    Q0, R0, T = 0.5 * np.eye(2), 1e-3 * rng.standard_normal((2, 2)), np.eye(2)
    t = np.linspace(0.0, 200.0, 2001)
    ref = co.integrate(m, 0.5, Q0, R0, T, t, rtol=1e-13, atol=1e-15)
    run = co.integrate(m, 0.5, Q0, R0, T, t, method=method)
    assert (np.abs(run.eps_g - ref.eps_g) <= co.eps_accuracy(m, run, ODESettings(0.5))).all()


def sq(y):
    return y * y


def test_blow_up_is_reported_with_its_time():
    # y' = y², y(0) = 1: y = 1/(1 − t) leaves every box at t = 1 (box 1e8: t = 1 − 1e-8)
    for compiled in (None, sq):
        with pytest.raises(co.CommitteeDivergence) as info:
            co.integrate_flat(sq, [1.0], [0.0, 0.5, 2.0], compiled=compiled, eta=3)
        assert abs(info.value.t - 1.0) < 1e-6
        assert "eta = 3" in str(info.value) and "t ≈ 1" in str(info.value)


def test_divergence_keeps_the_reached_part_of_the_grid():
    with pytest.raises(co.CommitteeDivergence) as info:
        co.integrate_flat(sq, [1.0], [0.0, 0.5, 0.9, 2.0], compiled=sq, eta=1)
    part = info.value.trajectory
    assert part is not None and list(part.t) == [0.0, 0.5, 0.9]
    assert np.abs(part.Y[:, 0] - 1 / (1 - part.t)).max() < 1e-8


@pytest.mark.parametrize("kwargs, param", [
    ({"t_grid": [1.0, 0.0]}, "t_grid"),
    ({"t_grid": [0.0, np.nan]}, "t_grid"),
    ({"y0": [np.inf]}, "y0"),
    ({"rtol": 0.0}, "rtol"),
    ({"atol": -1.0}, "atol"),
    ({"method": "euler"}, "method"),
    ({"max_nfev": 0}, "max_nfev"),
])
def test_integrate_flat_bad_input(kwargs, param):
    args = {"fun": lin, "y0": [1.0, 0.5], "t_grid": [0.0, 1.0]} | kwargs
    with pytest.raises(DomainError) as info:
        co.integrate_flat(**args)
    assert info.value.param == param


def test_too_many_evaluations_is_a_domain_error_not_a_hang():
    with pytest.raises(DomainError, match="over 50 evaluations"):
        co.integrate_flat(lin, [1.0, 0.5], [0.0, 100.0], max_nfev=50, method="dop853")


def test_cost_is_bounded_before_work():
    co.check_integration_request(10, 5, 1.0, 100.0, 101)
    with pytest.raises(CostError):
        co.check_integration_request(50, 50, 1.0, 100.0, 101)
    with pytest.raises(CostError):  # memory: 10^7 grid points
        co.check_integration_request(2, 2, 1.0, 100.0, 10**7)
    with pytest.raises(DomainError) as info:
        co.integration_cost(51, 2, 1.0, 1.0, 2)
    assert info.value.param == "K"
    with pytest.raises(DomainError) as info:
        co.integration_cost(2, 0, 1.0, 1.0, 2)
    assert info.value.param == "M"


def test_without_numba_auto_falls_back_and_dopri_is_refused(monkeypatch):
    monkeypatch.setattr(_compiled, "integrator", lambda: None)  # as when numba is absent
    sol = co.integrate_flat(lin, [1.0, 0.5], [0.0, 1.0], compiled=lin_loops)
    assert sol.method == "dop853 (scipy)"
    with pytest.raises(DomainError) as info:
        co.integrate_flat(lin, [1.0, 0.5], [0.0, 1.0], method="dopri", compiled=lin_loops)
    assert info.value.param == "method"
